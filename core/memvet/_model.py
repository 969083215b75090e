"""Domain values: decisions, anchors, verdicts, receipts, recall results.

All values are frozen dataclasses; statuses and results are enums whose
values are the strings used in JSON output and in the store.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from memvet._manifests import format_dependency_spec

__all__ = [
    "ANCHOR_FIELDS",
    "DECISION_FIELDS",
    "WORKTREE",
    "Anchor",
    "AnchorCheck",
    "AnchorKind",
    "AnchorResult",
    "Author",
    "AuthorKind",
    "ChangeKind",
    "Conflict",
    "Decision",
    "Field",
    "FieldType",
    "Lifecycle",
    "Proposal",
    "Recall",
    "RecallGroup",
    "RecallItem",
    "Receipt",
    "ReceiptAction",
    "RecordOutcome",
    "RecordResult",
    "Status",
    "Verdict",
    "describe_author",
]

#: The target name for "the files as they are on disk now".
WORKTREE = "worktree"


class Lifecycle(str, enum.Enum):
    """Stored state of a decision; changes only through a receipted act.

    ``proposed`` (written, not yet reviewed) -> ``active`` (approved) ->
    ``superseded`` or ``rejected``.
    """

    PROPOSED = "proposed"
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    REJECTED = "rejected"


class Status(str, enum.Enum):
    """What a read says about a decision (lifecycle and evidence combined)."""

    VERIFIED = "verified"
    PROPOSED = "proposed"
    UNANCHORED = "unanchored"
    NEEDS_REVALIDATION = "needs_revalidation"
    STALE = "stale"
    REFUTED = "refuted"
    SUPERSEDED = "superseded"
    REJECTED = "rejected"

    @property
    def group(self) -> RecallGroup:
        """The recall group this status is served in: current, caution or history."""
        if self is Status.VERIFIED:
            return RecallGroup.CURRENT
        if self in (Status.PROPOSED, Status.UNANCHORED, Status.NEEDS_REVALIDATION, Status.STALE):
            return RecallGroup.CAUTION
        return RecallGroup.HISTORY


class RecallGroup(enum.StrEnum):
    """The three groups of the retrieval rule, in the order they are served.

    A ``StrEnum``: each member equals its name as a string, so
    ``item.group == "current"`` and JSON output are unchanged.
    """

    CURRENT = "current"
    CAUTION = "caution"
    HISTORY = "history"


class ReceiptAction(enum.StrEnum):
    """What a receipt records (:attr:`Receipt.action`).

    ``propose-retire``: an agent asked to reject or supersede a decision it
    may not retire on its own (the decision stays as it was; see
    :attr:`Decision.retire_reason`). ``decline``: a person turned down such a
    request. ``reopen``: a person made a rejected decision active again.
    ``resolve``: a person settled the write path's findings on a decision
    (by a quote, or by declaring terms unbound).
    ``import``: this ledger took a decision in from an export, as a proposal
    (the file's lifecycle not believed), or with the file's lifecycle on the
    word of the person who imported it with ``--trust``; bookkeeping of this
    ledger, left out of exports.
    """

    RECORD = "record"
    PROPOSE = "propose"
    CONFIRM = "confirm"
    SUPERSEDE = "supersede"
    APPROVE = "approve"
    REJECT = "reject"
    REVALIDATE = "revalidate"
    PROPOSE_RETIRE = "propose-retire"
    DECLINE = "decline"
    REOPEN = "reopen"
    RESOLVE = "resolve"
    IMPORT = "import"


class AuthorKind(enum.StrEnum):
    """Who made a write or an act: a person, or an agent acting for one.

    Agents propose; only a person makes a proposal current or retires an
    active decision (see :class:`Author`).
    """

    PERSON = "person"
    AGENT = "agent"


@dataclass(frozen=True)
class Author:
    """Who writes, of which kind, and through which channel.

    ``Ledger`` methods take ``author=`` as an :class:`Author` or, as before,
    a plain name (a person). Adapters write as :meth:`agent`; a person's
    channel (the CLI, MCP elicitation, a LangGraph ``interrupt``) writes as
    :meth:`person` with ``via`` naming it, which the receipt keeps.

    Attributes:
        name: A name (git ``user.name``, an MCP client's name, ``langchain``).
        kind: :class:`AuthorKind`.
        via: The channel a person acted through (``"MCP elicitation in
            claude-code"``); ``""`` for a direct call.
    """

    name: str = ""
    kind: AuthorKind = AuthorKind.PERSON
    via: str = ""

    @classmethod
    def person(cls, name: str = "", via: str = "") -> Author:
        """A person (``name`` empty: the repository's ``user.name``)."""
        return cls(str(name or "").strip(), AuthorKind.PERSON, str(via or "").strip())

    @classmethod
    def agent(cls, name: str) -> Author:
        """An agent; ``name`` says which (an MCP client, an adapter)."""
        return cls(str(name or "").strip() or "agent", AuthorKind.AGENT)

    @property
    def is_agent(self) -> bool:
        return self.kind is AuthorKind.AGENT

    def same_as(self, name: str, kind: str) -> bool:
        """True when ``name``/``kind`` (as stored on a decision) is this author."""
        stored = AuthorKind(kind) if kind in (AuthorKind.PERSON, AuthorKind.AGENT) else AuthorKind.PERSON
        return bool(self.name) and stored is self.kind and name.strip().casefold() == self.name.casefold()

    def __str__(self) -> str:
        who = f"{self.name or '?'} ({self.kind.value}"
        return who + (f", via {self.via})" if self.via else ")")


def describe_author(name: str, kind: str, via: str = "") -> str:
    """``name (kind[, via ...])`` for a stored author; a record written before
    author kinds existed shows ``?`` for its kind (it was taken as a person)."""
    shown = kind or "?"
    return f"{name or '?'} ({shown}" + (f", via {via})" if via else ")")


class RecordOutcome(enum.StrEnum):
    """What a write did (:attr:`RecordResult.outcome`)."""

    RECORDED = "recorded"
    SUPERSEDED = "superseded"
    PROPOSED = "proposed"
    CONFIRMED = "confirmed"


class ChangeKind(enum.StrEnum):
    """How a file changed between two snapshots (:attr:`memvet._git.Change.kind`)."""

    ADDED = "added"
    DELETED = "deleted"
    MODIFIED = "modified"
    RENAMED = "renamed"


class AnchorKind(str, enum.Enum):
    """What an anchor points at."""

    SYMBOL = "symbol"
    FILE = "file"
    DEPENDENCY = "dependency"
    ABSENT = "absent"


class AnchorResult(str, enum.Enum):
    """The outcome of checking one anchor at a target."""

    HOLDS = "holds"
    CHANGED = "changed"
    MOVED = "moved"
    MISSING = "missing"
    VIOLATED = "violated"
    UNVERIFIABLE = "unverifiable"

    @property
    def status(self) -> Status:
        """The decision status this result implies on its own."""
        return _RESULT_STATUS[self]


_RESULT_STATUS = {
    AnchorResult.HOLDS: Status.VERIFIED,
    AnchorResult.CHANGED: Status.STALE,
    AnchorResult.MOVED: Status.NEEDS_REVALIDATION,
    AnchorResult.UNVERIFIABLE: Status.NEEDS_REVALIDATION,
    AnchorResult.MISSING: Status.REFUTED,
    AnchorResult.VIOLATED: Status.REFUTED,
}

#: Precedence when anchors disagree: the first one present wins.
STATUS_PRECEDENCE = (Status.REFUTED, Status.STALE, Status.NEEDS_REVALIDATION, Status.VERIFIED)


@dataclass(frozen=True)
class Anchor:
    """A piece of evidence, resolved and recorded when the decision was written.

    Attributes:
        kind: What the anchor points at.
        path: Repository-relative POSIX path (the manifest a dependency was found in,
            ``""`` for an absence anchor).
        name: Qualified symbol name, dependency name, or for an absence
            anchor ``import:<module>`` / ``pattern:<regex>``.
        language: Parser language of the file (symbols only).
        symbol_kind: ``function``, ``class``, ``method``, ``section``, ``key`` ...
        body_hash: SHA-256 of the normalized symbol body (symbols only).
        hash_version: Version of the hasher that produced ``body_hash``.
        blob_id: Git blob id of the file when recorded (symbols and files).
        requirement: The declared requirement (``>=1.2``) of a dependency, or
            the spec the user asked to hold.
        scope: Glob limiting an absence anchor (``""`` = whole repository);
            for a dependency, the folder whose manifests count besides the
            root's (``""`` = the root's only).
        line: 1-based first line of the symbol when recorded (for annotations).
        shape: The symbol's hash with its own name masked (finds renames).
        quote: Code the claim rests on, found in the symbol's span or the
            file when recorded (compared token by token; symbols and files).
    """

    kind: AnchorKind
    path: str = ""
    name: str = ""
    language: str = ""
    symbol_kind: str = ""
    body_hash: str = ""
    hash_version: int = 0
    blob_id: str = ""
    requirement: str = ""
    scope: str = ""
    line: int = 0
    shape: str = ""
    quote: str = ""

    @property
    def spec(self) -> str:
        """The anchor as a user writes it on the command line."""
        if self.kind is AnchorKind.SYMBOL:
            return f"{self.path}::{self.name}"
        if self.kind is AnchorKind.FILE:
            return self.path
        if self.kind is AnchorKind.DEPENDENCY:
            return format_dependency_spec(self.name, self.requirement, self.scope)
        return self.name + (f" in {self.scope}" if self.scope else "")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict without empty fields (:data:`ANCHOR_FIELDS` in order)."""
        out: dict[str, Any] = {"kind": self.kind.value}
        for spec in ANCHOR_FIELDS[1:]:
            value = getattr(self, spec.name)
            if value:
                out[spec.name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Anchor:
        """Inverse of :meth:`to_dict`."""
        fields = dict(data)
        kind = AnchorKind(fields.pop("kind"))
        return cls(kind=kind, **fields)


@dataclass(frozen=True)
class Decision:
    """A claim with the evidence that made it true.

    ``commit`` is the commit the decision was recorded at (for a record made
    against the working tree, the ``HEAD`` it was made on). ``unbound`` lists
    the claim's code-like terms its writer declared as deliberately not found
    in the anchored evidence. ``author_kind`` is ``person`` or ``agent``
    (``""``: written before author kinds, taken as a person).

    ``retire_reason``, ``retire_by`` and ``retire_with`` hold an agent's
    open request to retire this decision: its reason, the agent's name, and
    for a supersede the proposal that would replace it. Agents retire
    nothing on their own: the decision keeps its lifecycle and is served
    under caution with the request as its reason until a person approves
    the request or declines it (``memvet review``).

    ``findings`` are the write path's open doubts about the claim, one line
    each ("the anchored code does not say `X`"; "the claim negates `Y`,
    which the code calls"): a decision with a finding is served under
    caution as unconfirmed with its findings as the reason, never as
    current, until a person resolves them (``memvet resolve``) or corrects
    the claim (``memvet supersede``).
    """

    id: str
    claim: str
    anchors: tuple[Anchor, ...] = ()
    lifecycle: Lifecycle = Lifecycle.ACTIVE
    supersedes: str = ""
    superseded_by: str = ""
    reason: str = ""
    tags: tuple[str, ...] = ()
    author: str = ""
    created_at: float = 0.0
    resolved_at: float = 0.0
    commit: str = ""
    hash_version: int = 0
    namespace: str = ""
    confirmations: int = 0
    expires_at: float = 0.0
    unbound: tuple[str, ...] = ()
    author_kind: str = ""
    retire_reason: str = ""
    retire_by: str = ""
    retire_with: str = ""
    findings: tuple[str, ...] = ()

    @property
    def retiring(self) -> bool:
        """True when an agent asked to retire it and no person has answered."""
        return bool(self.retire_reason)

    def evolve(self, **changes: Any) -> Decision:
        """A copy with some fields changed."""
        return replace(self, **changes)


class FieldType(enum.Enum):
    """What a field of :class:`Decision` or :class:`Anchor` holds, for every
    format that reads or writes it (store codec, export, ``show --json``)."""

    ID = "id"  #: a decision id (the Chroma record id; validated on import)
    CLAIM = "claim"  #: the claim text (the Chroma document, what is embedded)
    ANCHORS = "anchors"  #: a tuple of anchors (one JSON string in the store)
    LIFECYCLE = "lifecycle"  #: a :class:`Lifecycle`, stored as its value
    KIND = "kind"  #: an :class:`AnchorKind`, stored as its value
    TEXT = "text"  #: free text, ``""`` when unset
    REF = "ref"  #: another decision's id, ``""`` when unset
    REAL = "real"  #: a float of zero or more (timestamps)
    WHOLE = "whole"  #: an int of zero or more (counters, versions, lines)
    TEXTS = "texts"  #: a tuple of strings (a Chroma list, left out when empty)


@dataclass(frozen=True)
class Field:
    """How one field is carried by each format.

    Attributes:
        name: The dataclass attribute, and the key in every format.
        type: What it holds.
        always_stored: In Chroma metadata even when empty (``False``: left out
            when falsy, since Chroma refuses empty lists and a missing key
            reads back as the default).
        shown: Part of ``memvet show --json`` (the claim, id and reason come
            from the verdict there; the stored-only bookkeeping is left out).
    """

    name: str
    type: FieldType
    always_stored: bool = False
    shown: bool = False

    def to_json(self, value: Any) -> Any:
        """``value`` of this field as a JSON-ready value (export, ``show --json``)."""
        if self.type is FieldType.ANCHORS:
            return [a.to_dict() for a in value]
        if self.type in (FieldType.LIFECYCLE, FieldType.KIND):
            return value.value
        if self.type is FieldType.TEXTS:
            return list(value)
        return value


#: Every field of :class:`Decision`, in declaration order (a test pins it).
DECISION_FIELDS: tuple[Field, ...] = (
    Field("id", FieldType.ID),
    Field("claim", FieldType.CLAIM),
    Field("anchors", FieldType.ANCHORS, always_stored=True),
    Field("lifecycle", FieldType.LIFECYCLE, always_stored=True, shown=True),
    Field("supersedes", FieldType.REF, shown=True),
    Field("superseded_by", FieldType.REF, shown=True),
    Field("reason", FieldType.TEXT),
    Field("tags", FieldType.TEXTS, shown=True),
    Field("author", FieldType.TEXT, shown=True),
    Field("created_at", FieldType.REAL, always_stored=True, shown=True),
    Field("resolved_at", FieldType.REAL),
    Field("commit", FieldType.TEXT, shown=True),
    Field("hash_version", FieldType.WHOLE, always_stored=True),
    Field("namespace", FieldType.TEXT),
    Field("confirmations", FieldType.WHOLE, shown=True),
    Field("expires_at", FieldType.REAL),
    Field("unbound", FieldType.TEXTS, shown=True),
    Field("author_kind", FieldType.TEXT, shown=True),
    Field("retire_reason", FieldType.TEXT, shown=True),
    Field("retire_by", FieldType.TEXT, shown=True),
    Field("retire_with", FieldType.REF, shown=True),
    Field("findings", FieldType.TEXTS, shown=True),
)

#: Every field of :class:`Anchor`, in declaration order (``kind`` first).
#: An anchor is stored and exported as :meth:`Anchor.to_dict`: empty fields
#: left out, so ``always_stored`` and ``shown`` do not apply.
ANCHOR_FIELDS: tuple[Field, ...] = (
    Field("kind", FieldType.KIND),
    *(Field(name, FieldType.TEXT) for name in ("path", "name", "language", "symbol_kind", "body_hash")),
    Field("hash_version", FieldType.WHOLE),
    Field("blob_id", FieldType.TEXT),
    Field("requirement", FieldType.TEXT),
    Field("scope", FieldType.TEXT),
    Field("line", FieldType.WHOLE),
    Field("shape", FieldType.TEXT),
    Field("quote", FieldType.TEXT),
)


@dataclass(frozen=True)
class AnchorCheck:
    """One anchor checked at one target.

    ``detail`` names the anchor, the path and, where it applies, where it went
    or what appeared. ``new_path``/``new_name`` are set for a move;
    ``line`` is the line the finding points at (0 when none).
    """

    anchor: Anchor
    result: AnchorResult
    detail: str = ""
    new_path: str = ""
    new_name: str = ""
    line: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.anchor.kind.value,
            "spec": self.anchor.spec,
            "result": self.result.value,
            "detail": self.detail,
        }
        if self.new_path:
            out["new_path"] = self.new_path
        if self.new_name:
            out["new_name"] = self.new_name
        if self.line:
            out["line"] = self.line
        return out


@dataclass(frozen=True)
class Verdict:
    """What a read says about one decision at one target."""

    decision: Decision
    status: Status
    reason: str
    checks: tuple[AnchorCheck, ...] = ()
    target: str = WORKTREE

    @property
    def id(self) -> str:
        return self.decision.id

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.decision.id,
            "claim": self.decision.claim,
            "status": self.status.value,
            "reason": self.reason,
            "anchors": [check.to_dict() for check in self.checks],
        }


@dataclass(frozen=True)
class Receipt:
    """An immutable record of one lifecycle act.

    ``imported_at`` and ``imported_by`` are set on a receipt that came in by
    ``memvet import``: when and by whom it was imported. Its ``author`` and
    ``at`` are then what the file said, which this ledger cannot vouch for.
    ``author_kind`` is ``person`` or ``agent`` (``""`` on receipts written
    before author kinds), ``via`` the channel a person acted through.
    """

    id: str
    decision_id: str
    action: str  # a ReceiptAction (kept a str: receipts of other versions still read)
    from_lifecycle: str
    to_lifecycle: str
    reason: str = ""
    author: str = ""
    at: float = 0.0
    commit: str = ""
    related: str = ""
    imported_at: float = 0.0
    imported_by: str = ""
    author_kind: str = ""
    via: str = ""

    @property
    def imported(self) -> bool:
        """True when the receipt came in by an import, not by an act here."""
        return bool(self.imported_at)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "decision_id": self.decision_id,
            "action": self.action,
            "from": self.from_lifecycle,
            "to": self.to_lifecycle,
            "reason": self.reason,
            "author": self.author,
            "at": self.at,
            "commit": self.commit,
            "related": self.related,
        }
        if self.author_kind:
            out["author_kind"] = self.author_kind
        if self.via:
            out["via"] = self.via
        if self.imported_at:  # only then: a ledger's own exports keep their bytes
            out["imported_at"] = self.imported_at
            out["imported_by"] = self.imported_by
        return out

    @property
    def who(self) -> str:
        """The author as ``name (kind[, via ...])``."""
        return describe_author(self.author, self.author_kind, self.via)


@dataclass(frozen=True)
class Conflict:
    """An existing decision that a new write collides with, and why."""

    decision: Decision
    status: Status
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.decision.id,
            "claim": self.decision.claim,
            "status": self.status.value,
            "why": self.why,
        }


@dataclass(frozen=True)
class Proposal:
    """A proposal with what a reviewer needs to approve or reject it.

    Attributes:
        verdict: Its verdict (status ``proposed``; the reason carries what
            its evidence says, and ``checks`` each anchor's result).
        conflicts: Active decisions it collides with now (sharing an
            anchor, or a near neighbour), the one it supersedes excepted.
        warnings: Rejected decisions it is close to, with their reasons.
    """

    verdict: Verdict
    conflicts: tuple[Conflict, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.verdict.decision.id

    @property
    def decision(self) -> Decision:
        return self.verdict.decision

    def to_dict(self) -> dict[str, Any]:
        d = self.verdict.decision
        out = self.verdict.to_dict()
        out.update({
            "author": d.author, "created_at": d.created_at, "commit": d.commit, "supersedes": d.supersedes,
            "reason_given": d.reason, "tags": list(d.tags), "confirmations": d.confirmations,
            "quotes": [{"spec": a.spec, "quote": a.quote} for a in d.anchors if a.quote],
            "unbound": list(d.unbound),
            "conflicts": [c.to_dict() for c in self.conflicts],
            "warnings": list(self.warnings),
        })
        return out


@dataclass(frozen=True)
class RecordResult:
    """What ``Ledger.record`` did.

    ``outcome`` is ``recorded`` (a new decision), ``confirmed`` (a near
    duplicate of an active decision, or of an open proposal, whose counter
    was bumped instead), ``superseded`` (recorded and replaced
    ``supersedes``) or ``proposed`` (a proposal, awaiting review).
    """

    decision: Decision
    outcome: RecordOutcome
    conflicts: tuple[Conflict, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.decision.id

    @property
    def findings(self) -> tuple[str, ...]:
        """The write path's doubts stored on the decision (see :attr:`Decision.findings`)."""
        return self.decision.findings

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.decision.id,
            "status": self.outcome,
            "findings": list(self.decision.findings),
            "conflicts": [c.to_dict() for c in self.conflicts],
            "warnings": list(self.warnings),
            "anchors": [a.to_dict() for a in self.decision.anchors],
        }


@dataclass(frozen=True)
class RecallItem:
    """One recalled decision, with the framed text an agent reads."""

    id: str
    claim: str
    status: Status
    reason: str
    score: float
    text: str
    verdict: Verdict = field(repr=False, compare=False)

    @property
    def group(self) -> RecallGroup:
        return self.status.group

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "claim": self.claim,
            "status": self.status.value,
            "reason": self.reason,
            "score": round(self.score, 4),
            "text": self.text,
            "anchors": [check.to_dict() for check in self.verdict.checks],
        }


@dataclass(frozen=True)
class Recall:
    """The three groups of the retrieval rule."""

    query: str
    target: str
    current: tuple[RecallItem, ...] = ()
    caution: tuple[RecallItem, ...] = ()
    history: tuple[RecallItem, ...] = ()

    @property
    def items(self) -> tuple[RecallItem, ...]:
        """All items, current first, then caution, then history."""
        return self.current + self.caution + self.history

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "at": self.target,
            "current": [i.to_dict() for i in self.current],
            "caution": [i.to_dict() for i in self.caution],
            "history": [i.to_dict() for i in self.history],
        }
