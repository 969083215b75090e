"""The public namespace is pinned: adding or removing a name is a decision."""

from __future__ import annotations

import subprocess
import sys

import memvet

PUBLIC = {
    "WORKTREE", "AmbiguousIdError", "AmbiguousSymbolError", "Anchor", "AnchorCheck", "AnchorKind",
    "AnchorNotFoundError", "AnchorResult", "AnchorSpec", "AuthenticationError", "Author", "AuthorKind", "Conflict",
    "ConflictError",
    "CorruptRecordError", "Decision", "EmptyRepositoryError", "HashingEmbedder", "InvalidAnchorError",
    "Ledger", "LedgerLockedError", "Lifecycle", "MemvetError", "MiniLMEmbedder", "NotARepositoryError",
    "NotAllowedError", "PathOutsideRepositoryError", "Proposal", "Recall", "RecallItem", "Receipt", "RecordResult",
    "RepositoryError", "Status", "StoreError", "StoreUnavailableError", "UnknownDecisionError",
    "UnknownRevisionError", "UnsupportedFileError", "UsageError", "Verdict", "__version__", "absent",
    "dependency", "file", "frame", "parse_anchor", "render_blocks", "symbol",
    # the CLI-as-a-daily-tool layer (config, impact of a change, exchange, excerpts)
    "Config", "Context", "Excerpt", "Impact", "ImpactReport", "ImportConflict", "ImportReport", "LedgerDump",
    "agent_context", "changed_since", "excerpts", "export_jsonl", "find_config", "import_jsonl", "load_config",
    # the write path: claims bound to their evidence, quotes
    "EvidenceText", "QuoteNotFoundError", "Term", "TermKind", "UnboundClaimError", "UnboundTerm", "claim_terms",
    "evidence_note", "quoted", "with_quote",
    # one vocabulary for the adapters: enums (StrEnum) and the shared checks
    "ChangeKind", "RecallGroup", "ReceiptAction", "RecordOutcome", "check_groups", "check_tool_k", "TOOL_MAX_K",
    "require_ledger",
    "one_line",  # text from users made safe to print inside a line (the adapters render with it)
    # claims that name the right code but state a relation it contradicts
    "ClaimContradictsCodeError", "Contradiction", "contradictions",
}


def test_all_is_pinned():
    assert set(memvet.__all__) == PUBLIC
    for name in memvet.__all__:
        assert hasattr(memvet, name), name


def test_every_error_is_a_memvet_error_and_a_builtin():
    errors = [getattr(memvet, n) for n in memvet.__all__ if n.endswith("Error")]
    for cls in errors:
        assert issubclass(cls, memvet.MemvetError)
        assert cls is memvet.MemvetError or any(
            issubclass(cls, b) for b in (ValueError, LookupError, KeyError, OSError, RuntimeError))


def test_core_imports_no_framework_and_loads_no_model():
    # chromadb too: it takes 1.5 s to import, and `memvet --help` must not wait for it.
    code = ("import sys, memvet, memvet.audit, memvet.sample, memvet.cli; "
            "bad = [m for m in ('langchain_core', 'llama_index', 'onnxruntime', 'tokenizers', 'chromadb') "
            "if m in sys.modules]; "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_vocabulary_enums_compare_equal_to_their_strings():
    """StrEnum members keep every string comparison and JSON output working."""
    import json

    assert memvet.Status.STALE.group == "caution" and memvet.Status.STALE.group is memvet.RecallGroup.CAUTION
    assert [str(g) for g in memvet.RecallGroup] == ["current", "caution", "history"]
    assert json.dumps({"g": memvet.RecallGroup.HISTORY, "a": memvet.ReceiptAction.SUPERSEDE}) == \
        '{"g": "history", "a": "supersede"}'
    assert memvet.RecordOutcome("confirmed") is memvet.RecordOutcome.CONFIRMED
    assert f"{memvet.ChangeKind.RENAMED}" == "renamed"


def test_check_groups_is_one_rule():
    assert memvet.check_groups("history") == (memvet.RecallGroup.HISTORY,)
    assert memvet.check_groups(["caution", "current", "caution"]) == ("caution", "current")
    for bad, message in (([], "at least one recall group"), (["curent"], "unknown recall group"),
                         ([3], "unknown recall group"), (5, "include must be a group name")):
        try:
            memvet.check_groups(bad)
        except ValueError as exc:  # a UsageError is a ValueError: pydantic validators rely on it
            assert isinstance(exc, memvet.UsageError) and message in str(exc)
        else:
            raise AssertionError(f"{bad!r} was accepted")


def test_require_ledger_names_what_to_pass():
    try:
        memvet.require_ledger("not a ledger", "SomeAdapter")
    except TypeError as exc:
        assert str(exc).startswith("SomeAdapter needs a memvet.Ledger as its first argument")
    else:
        raise AssertionError("a string was accepted as a ledger")
