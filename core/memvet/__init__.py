"""MemVet: agent memory that knows when it has stopped being true.

A memory is a decision with evidence: a claim, the commit it was recorded at,
and typed anchors into the code. Every read re-checks the anchors against the
code and returns a status with a reason.

    >>> import memvet
    >>> ledger = memvet.Ledger.open(".")                        # doctest: +SKIP
    >>> ledger.record("Orders are saved in one transaction",
    ...               anchors=["shop/orders.py::OrderStore.save"])   # doctest: +SKIP
    >>> ledger.recall("how are orders saved?")                  # doctest: +SKIP
"""

from importlib import metadata as _metadata

from memvet._about import Impact, ImpactReport, changed_since
from memvet._anchors import AnchorSpec, absent, dependency, file, parse_anchor, quoted, symbol, with_quote
from memvet._claims import EvidenceText, Term, TermKind, UnboundTerm, claim_terms
from memvet._config import Config, find_config, load_config
from memvet._embedding import HashingEmbedder, MiniLMEmbedder
from memvet._errors import (
    AmbiguousIdError,
    AmbiguousSymbolError,
    AnchorNotFoundError,
    AuthenticationError,
    ClaimContradictsCodeError,
    ConflictError,
    CorruptRecordError,
    EmptyRepositoryError,
    InvalidAnchorError,
    LedgerLockedError,
    MemvetError,
    NotAllowedError,
    NotARepositoryError,
    PathOutsideRepositoryError,
    QuoteNotFoundError,
    RepositoryError,
    StoreError,
    StoreUnavailableError,
    UnboundClaimError,
    UnknownDecisionError,
    UnknownRevisionError,
    UnsupportedFileError,
    UsageError,
)
from memvet._excerpt import Excerpt, excerpts
from memvet._exchange import (
    Context,
    ImportConflict,
    ImportReport,
    LedgerDump,
    agent_context,
    export_jsonl,
    import_jsonl,
)
from memvet._filter import TOOL_MAX_K, check_tool_k
from memvet._ledger import Ledger, require_ledger
from memvet._model import (
    WORKTREE,
    Anchor,
    AnchorCheck,
    AnchorKind,
    AnchorResult,
    Author,
    AuthorKind,
    ChangeKind,
    Conflict,
    Decision,
    Lifecycle,
    Proposal,
    Recall,
    RecallGroup,
    RecallItem,
    Receipt,
    ReceiptAction,
    RecordOutcome,
    RecordResult,
    Status,
    Verdict,
)
from memvet._recall import check_groups, evidence_note, frame, render_blocks
from memvet._relations import Contradiction, contradictions
from memvet._text import one_line


def _installed_version(distribution: str = "memvet") -> str:
    """The version pip installed (from the git tag at build time), or a
    placeholder for a source tree that was never installed."""
    try:
        return _metadata.version(distribution)
    except _metadata.PackageNotFoundError:
        return "0.0.0+unknown"


__version__ = _installed_version()

__all__ = [
    "TOOL_MAX_K",
    "WORKTREE",
    "AmbiguousIdError",
    "AmbiguousSymbolError",
    "Anchor",
    "AnchorCheck",
    "AnchorKind",
    "AnchorNotFoundError",
    "AnchorResult",
    "AnchorSpec",
    "AuthenticationError",
    "Author",
    "AuthorKind",
    "ChangeKind",
    "ClaimContradictsCodeError",
    "Config",
    "Conflict",
    "ConflictError",
    "Context",
    "Contradiction",
    "CorruptRecordError",
    "Decision",
    "EmptyRepositoryError",
    "EvidenceText",
    "Excerpt",
    "HashingEmbedder",
    "Impact",
    "ImpactReport",
    "ImportConflict",
    "ImportReport",
    "InvalidAnchorError",
    "Ledger",
    "LedgerDump",
    "LedgerLockedError",
    "Lifecycle",
    "MemvetError",
    "MiniLMEmbedder",
    "NotARepositoryError",
    "NotAllowedError",
    "PathOutsideRepositoryError",
    "Proposal",
    "QuoteNotFoundError",
    "Recall",
    "RecallGroup",
    "RecallItem",
    "Receipt",
    "ReceiptAction",
    "RecordOutcome",
    "RecordResult",
    "RepositoryError",
    "Status",
    "StoreError",
    "StoreUnavailableError",
    "Term",
    "TermKind",
    "UnboundClaimError",
    "UnboundTerm",
    "UnknownDecisionError",
    "UnknownRevisionError",
    "UnsupportedFileError",
    "UsageError",
    "Verdict",
    "__version__",
    "absent",
    "agent_context",
    "changed_since",
    "check_groups",
    "check_tool_k",
    "claim_terms",
    "contradictions",
    "dependency",
    "evidence_note",
    "excerpts",
    "export_jsonl",
    "file",
    "find_config",
    "frame",
    "import_jsonl",
    "load_config",
    "one_line",
    "parse_anchor",
    "quoted",
    "render_blocks",
    "require_ledger",
    "symbol",
    "with_quote",
]
