"""The public namespace is pinned: adding or removing a name is a decision."""

from __future__ import annotations

import subprocess
import sys

import memvet

PUBLIC = {
    "WORKTREE", "AmbiguousIdError", "AmbiguousSymbolError", "Anchor", "AnchorCheck", "AnchorKind",
    "AnchorNotFoundError", "AnchorResult", "AnchorSpec", "AuthenticationError", "Conflict", "ConflictError",
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
