"""Getting decisions out of a ledger and into another one.

Two kinds of export:

* **Agent context** (:func:`agent_context`): every decision checked at a target and
  sorted into what an agent may rely on (verified), what it must verify
  first (drifted: unanchored, needs revalidation, stale, refuted, each with
  its reason), what was proposed and not yet reviewed (proposed, with what
  its evidence says), and what it must not repeat (rejected). Rendered as Markdown
  for an ``AGENTS.md``-style include, or as JSON. Drifted decisions are never
  left out silently; ``current_only`` leaves them out and says so.
* **Ledger dump** (:func:`export_jsonl` / :func:`import_jsonl`): the whole
  ledger, decisions with their anchors and receipts, one JSON object a line,
  sorted and without timestamps of its own, so a team can commit it and
  review changes in pull requests.

Import is idempotent and never overwrites. For each decision in the file:
absent locally, it is added; identical, nothing happens; different, the
receipts decide: if the local receipts are a subset of the file's, the file
holds a later state of the same decision (it was rejected, superseded or
revalidated elsewhere) and the local record is brought forward; if the
file's are a subset of the local ones, the local record is newer and kept;
otherwise the two histories diverged and the decision is reported as a
conflict, untouched. Receipts are added when missing, marked as imported
(when and by whom), so ``log`` never passes them off as acts of this ledger.

The whole file is validated before anything is written, and bad input
changes nothing: every field's type and range, text that Chroma can store
(no lone surrogates, no NaN), claims within the length limit, anchors that
name paths inside the repository and requirements MemVet can evaluate,
receipts with known acts, claims bound to their evidence. A decision that
``supersedes`` another must find it in the file, coherent (the file's
record of it says it was superseded by this one), never in a cycle; one
that points at a decision only this ledger holds would make that local
decision read as superseded without a receipt, so it is refused unless
``link_local=True`` (``memvet import --link-local``), which supersedes the
local decision with a receipt of its own. A write that fails half way (a
full disk) is finished by importing the same file again: import is
idempotent.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memvet import _manifests, _text
from memvet._anchors import absent as _absent
from memvet._errors import UnboundClaimError, UsageError
from memvet._ledger import MAX_CLAIM_CHARS as _MAX_CLAIM_CHARS
from memvet._model import (
    ANCHOR_FIELDS,
    DECISION_FIELDS,
    Anchor,
    AnchorKind,
    Decision,
    FieldType,
    Lifecycle,
    Receipt,
    ReceiptAction,
    Status,
    Verdict,
)
from memvet._store import Intent

if TYPE_CHECKING:
    from memvet._ledger import Ledger

__all__ = [
    "DUMP_SCHEMA",
    "Context",
    "ImportConflict",
    "ImportReport",
    "LedgerDump",
    "agent_context",
    "decision_from_dict",
    "decision_to_dict",
    "export_jsonl",
    "import_jsonl",
]

#: Version of the JSONL dump format.
DUMP_SCHEMA = 1

_DRIFTED = (Status.UNANCHORED, Status.NEEDS_REVALIDATION, Status.STALE, Status.REFUTED)
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
#: The acts a receipt can record (what :class:`memvet.Ledger` writes).
_ACTIONS = frozenset(a.value for a in ReceiptAction)
#: Bound of the whole-number fields (counters, versions, lines): a Chroma
#: metadata integer is 64-bit, and none of these comes anywhere near it.
_MAX_INT = 2**31 - 1


def _one_line(text: str) -> str:
    """One Markdown line: whitespace collapsed, control sequences removed, HTML escaped."""
    return _text.markdown(" ".join(str(text).split()))


# ===================================================================== agent context


@dataclass(frozen=True)
class Context:
    """Decisions sorted for an agent, at one target.

    Attributes:
        target: The target's name (a commit id or ``worktree``).
        commit: The commit the target stands on.
        verified: Decisions whose every anchor holds.
        drifted: Active decisions that must be verified before relying on
            them (unanchored, needs revalidation, stale, refuted).
        rejected: Approaches tried and rejected.
        superseded: How many superseded decisions were left out (their
            successors are listed).
        current_only: Only ``verified`` was asked for; ``drifted``,
            ``rejected`` and ``proposed`` are empty and counted in ``left_out``.
        left_out: Decisions left out by ``current_only``.
        proposed: Proposals not yet reviewed (never to be relied on as
            decisions; their reason says what their evidence shows).
    """

    target: str
    commit: str
    verified: tuple[Verdict, ...] = ()
    drifted: tuple[Verdict, ...] = ()
    rejected: tuple[Verdict, ...] = ()
    superseded: int = 0
    current_only: bool = False
    left_out: int = 0
    proposed: tuple[Verdict, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        def item(v: Verdict) -> dict[str, Any]:
            data = v.to_dict()
            data["tags"] = list(v.decision.tags)
            return data

        return {
            "at": self.target, "commit": self.commit, "current_only": self.current_only,
            "verified": [item(v) for v in self.verified],
            "drifted": [item(v) for v in self.drifted],
            "rejected": [item(v) for v in self.rejected],
            "proposed": [item(v) for v in self.proposed],
            "superseded_left_out": self.superseded, "left_out": self.left_out,
        }

    def to_markdown(self) -> str:
        """The context as a Markdown document for an agent's instructions."""
        where = "the working tree" if self.target == "worktree" else "commit"
        out = [
            "# Project decisions (MemVet)",
            "",
            f"Generated by `memvet export` from {where} at `{self.commit[:12]}`. Every decision below was "
            "re-checked against the code; regenerate this file rather than editing it.",
            "",
            "## Current decisions (verified against the code)",
            "",
        ]
        for v in self.verified:
            anchors = ", ".join(_text.code_span(a.spec) for a in v.decision.anchors)
            rests = f" (rests on {anchors})" if anchors else ""
            out.append(f"- {_one_line(v.decision.claim)} [{_text.code_span(v.id)}]{rests}")
        if not self.verified:
            out.append("- (none)")
        if self.current_only:
            if self.left_out:
                out += ["", f"> Only verified decisions are listed (`--current-only`): {self.left_out} drifted, "
                        "proposed or rejected decision(s) were left out. Run `memvet check` to see them."]
            return "\n".join(out) + "\n"
        if self.drifted:
            out += [
                "",
                "## Verify before relying (drifted)",
                "",
                "> **Warning:** the code these decisions rested on changed, moved or is gone, or they were "
                "never anchored. Do not rely on them without checking the code first.",
                "",
            ]
            for v in self.drifted:
                out.append(f"- **{v.status.value}** [{_text.code_span(v.id)}]: {_one_line(v.decision.claim)}  ")
                out.append(f"  Reason: {_one_line(v.reason)}")
        if self.proposed:
            out += [
                "",
                "## Proposed, not yet reviewed",
                "",
                "> **Caution:** nobody has reviewed these yet. They are not decisions; do not rely on them.",
                "",
            ]
            for v in self.proposed:
                out.append(f"- **proposed** [{_text.code_span(v.id)}]: {_one_line(v.decision.claim)}  ")
                out.append(f"  Evidence: {_one_line(v.reason.removeprefix('not yet reviewed; its evidence: '))}")
        if self.rejected:
            out += ["", "## Previously tried, rejected (do not repeat)", ""]
            for v in self.rejected:
                out.append(f"- {_one_line(v.decision.claim)} [{_text.code_span(v.id)}]: rejected because "
                           f"{_one_line(v.reason)}")
        if self.superseded:
            out += ["", f"_{self.superseded} superseded decision(s) are not listed; their successors are. "
                    "`memvet log` has the history._"]
        return "\n".join(out) + "\n"


def agent_context(ledger: Ledger, at: str | None = None, *, current_only: bool = False) -> Context:
    """Every decision checked at ``at``, sorted for an agent.

    Args:
        ledger: The ledger.
        at: The target (default: the working tree).
        current_only: Keep only verified decisions (the others are counted).
    """
    snap = ledger.snapshot(at)
    verdicts = ledger.check(at)
    verified = tuple(v for v in verdicts if v.status is Status.VERIFIED)
    drifted = tuple(v for v in verdicts if v.status in _DRIFTED)
    rejected = tuple(v for v in verdicts if v.status is Status.REJECTED)
    proposed = tuple(v for v in verdicts if v.status is Status.PROPOSED)
    superseded = sum(1 for v in verdicts if v.status is Status.SUPERSEDED)
    if current_only:
        return Context(snap.name, snap.base_commit, verified, superseded=superseded, current_only=True,
                       left_out=len(drifted) + len(rejected) + len(proposed))
    return Context(snap.name, snap.base_commit, verified, drifted, rejected, superseded, proposed=proposed)


# ===================================================================== dump


#: Fields added with author kinds (issue 29): left out of an export when
#: empty, so a ledger without them exports the same bytes as before.
_NEW_WHEN_SET = frozenset({"author_kind", "retire_reason", "retire_by", "retire_with"})


def decision_to_dict(decision: Decision) -> dict[str, Any]:
    """Every field of a decision as JSON-ready values (:data:`DECISION_FIELDS` in order)."""
    return {spec.name: spec.to_json(getattr(decision, spec.name)) for spec in DECISION_FIELDS
            if spec.name not in _NEW_WHEN_SET or getattr(decision, spec.name)}


def _str(data: dict[str, Any], key: str, default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise TypeError(f"{key} must be a string")
    return value


def _num(data: dict[str, Any], key: str) -> float:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{key} must be a number")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{key} must be a finite number of zero or more, not {value!r}")
    return value


def _whole(data: dict[str, Any], key: str) -> int:
    value = _num(data, key)
    if value != int(value) or value > _MAX_INT:
        raise ValueError(f"{key} must be a whole number up to {_MAX_INT}, not {value!r}")
    return int(value)


def _ref(data: dict[str, Any], key: str) -> str:
    """A field naming a decision: empty, or a valid id."""
    value = _str(data, key)
    if value and not _ID.match(value):
        raise ValueError(f"{key} {value!r} is not a decision id")
    return value


def _anchor_from_dict(data: dict[str, Any]) -> Anchor:
    for spec in ANCHOR_FIELDS:
        if spec.type is FieldType.TEXT:
            _str(data, spec.name)
        elif spec.type is FieldType.WHOLE:
            _whole(data, spec.name)
    return Anchor.from_dict(data)


def _texts(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise TypeError(f"{key} must be a list of strings")
    if key == "tags" and any(not t.strip() for t in value):
        raise ValueError("a tag is empty")
    return tuple(value)


def _claim(data: dict[str, Any], key: str) -> str:
    claim = _str(data, key).strip()
    if not claim:
        raise ValueError("empty claim")
    if len(claim) > _MAX_CLAIM_CHARS:
        raise ValueError(f"the claim is {len(claim)} characters; the limit is {_MAX_CLAIM_CHARS}")
    return claim


def _decision_id(data: dict[str, Any], key: str) -> str:
    decision_id = _str(data, key)
    if not _ID.match(decision_id):
        raise ValueError(f"invalid decision id {decision_id!r}")
    return decision_id


def _anchors(data: dict[str, Any], key: str) -> tuple[Anchor, ...]:
    anchors = data.get(key, [])
    if not isinstance(anchors, list) or not all(isinstance(a, dict) for a in anchors):
        raise TypeError("anchors must be a list of objects")
    return tuple(_anchor_from_dict(a) for a in anchors)


#: How :func:`decision_from_dict` reads and checks each type of field.
_READERS: dict[FieldType, Callable[[dict[str, Any], str], Any]] = {
    FieldType.ID: _decision_id,
    FieldType.CLAIM: _claim,
    FieldType.ANCHORS: _anchors,
    FieldType.LIFECYCLE: lambda data, key: Lifecycle(data[key]),
    FieldType.TEXT: _str,
    FieldType.REF: _ref,
    FieldType.REAL: lambda data, key: float(_num(data, key)),
    FieldType.WHOLE: _whole,
    FieldType.TEXTS: _texts,
}


def decision_from_dict(data: dict[str, Any]) -> Decision:
    """Inverse of :func:`decision_to_dict`.

    Raises:
        KeyError, TypeError, ValueError: The dict is not a valid decision.
    """
    return Decision(**{spec.name: _READERS[spec.type](data, spec.name) for spec in DECISION_FIELDS})


def _receipt_from_dict(data: dict[str, Any]) -> Receipt:
    receipt_id = _str(data, "id")
    if not _ID.match(receipt_id):
        raise ValueError(f"invalid receipt id {receipt_id!r}")
    action = _str(data, "action")
    if action not in _ACTIONS:
        raise ValueError(f"unknown act {action!r} (one of {', '.join(sorted(_ACTIONS))})")
    before, after = _str(data, "from"), _str(data, "to")
    for key, value in (("from", before), ("to", after)):
        if value:
            Lifecycle(value)  # ValueError: not a lifecycle
        elif key == "to":
            raise ValueError("to must name a lifecycle")
    if not _ref(data, "decision_id"):
        raise ValueError("decision_id is empty")
    # A mark of an earlier import in another ledger is replaced by this one's.
    return Receipt(
        id=receipt_id, decision_id=_str(data, "decision_id"), action=action,
        from_lifecycle=before, to_lifecycle=after, reason=_str(data, "reason"),
        author=_str(data, "author"), at=float(_num(data, "at")), commit=_str(data, "commit"),
        related=_ref(data, "related"), author_kind=_kind(data), via=_str(data, "via"),
    )


def _kind(data: dict[str, Any]) -> str:
    kind = _str(data, "author_kind")
    if kind and kind not in ("person", "agent"):
        raise ValueError(f"author_kind must be person or agent, not {kind!r}")
    return kind


def _unmarked(receipt: Receipt) -> Receipt:
    """The receipt without its import mark (what two ledgers compare)."""
    return dataclasses.replace(receipt, imported_at=0.0, imported_by="")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number MemVet stores")


def _storable(value: Any, where: str = "") -> None:
    """Refuse text that Chroma cannot store: a lone surrogate (``\\ud800``,
    valid JSON, no UTF-8) failed the write of a decision half way through
    an import, after the records before it had been written.

    Raises:
        ValueError: naming the field.
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"{where or 'a field'} holds a lone surrogate ({value[exc.start]!r}), "
                             "which is not text") from exc
    elif isinstance(value, dict):
        for key, item in value.items():
            _storable(key, where or "a key")
            _storable(item, key)
    elif isinstance(value, list):
        for item in value:
            _storable(item, where)


def _dumps(kind: str, data: dict[str, Any]) -> str:
    """One line: ``type`` and ``id`` first (for people reading a diff), then sorted keys."""
    head = {"type": kind, **({"id": data["id"]} if "id" in data else {})}
    rest = {k: v for k, v in data.items() if k != "id"}
    body = json.dumps(rest, sort_keys=True, ensure_ascii=False)
    return json.dumps(head, ensure_ascii=False)[:-1] + ", " + body[1:]


@dataclass(frozen=True)
class LedgerDump:
    """A ledger as JSONL lines.

    Attributes:
        lines: A header line, then decisions, then receipts (no newlines).
        decisions: How many decisions.
        receipts: How many receipts.
        skipped: Messages for stored records that could not be read (left out).
    """

    lines: tuple[str, ...]
    decisions: int
    receipts: int
    skipped: tuple[str, ...] = ()

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


def export_jsonl(ledger: Ledger) -> LedgerDump:
    """The whole ledger (decisions as stored, with anchors, and every receipt).

    The output is sorted (decisions by creation time, receipts by time) and
    carries no export timestamp, so exporting an unchanged ledger twice gives
    the same bytes. Receipts go out without their import marks (the
    importing ledger marks them again).
    """
    found, bad = ledger.records()
    receipts = ledger.log()
    header = {"memvet": "ledger", "schema": DUMP_SCHEMA, "namespace": ledger.namespace}
    lines = [_dumps("header", header)]
    lines += [_dumps("decision", decision_to_dict(d)) for d in found]
    # Without import marks: they say when this ledger took a receipt in, not
    # what happened, and a shared dump must not change with who exported it.
    lines += [_dumps("receipt", _unmarked(r).to_dict()) for r in receipts]
    return LedgerDump(tuple(lines), len(found), len(receipts), tuple(str(e) for e in bad))


@dataclass(frozen=True)
class ImportConflict:
    """A record in the file that differs from the local one and was not written."""

    id: str
    kind: str  # decision | receipt
    why: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "kind": self.kind, "why": self.why}


@dataclass(frozen=True)
class ImportReport:
    """What :func:`import_jsonl` did.

    Attributes:
        added: Decisions that were not in the ledger.
        updated: Decisions brought forward to the file's later state.
        unchanged: Decisions already identical.
        kept: Decisions whose local state is newer than the file's.
        conflicts: Records that differ and were left untouched.
        receipts_added: Receipts written (those of the file, marked as
            imported, and one per link).
        receipts_present: Receipts already there.
        linked: Local decisions superseded by a decision of the file
            (``link_local=True`` only).
    """

    added: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    conflicts: tuple[ImportConflict, ...] = ()
    receipts_added: int = 0
    receipts_present: int = 0
    linked: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """True when anything was written."""
        return bool(self.added or self.updated or self.receipts_added or self.linked)

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": list(self.added), "updated": list(self.updated), "unchanged": list(self.unchanged),
            "kept": list(self.kept), "conflicts": [c.to_dict() for c in self.conflicts],
            "receipts_added": self.receipts_added, "receipts_present": self.receipts_present,
            "linked": list(self.linked),
        }


@dataclass
class _Parsed:
    decisions: dict[str, Decision] = field(default_factory=dict)
    receipts: dict[str, Receipt] = field(default_factory=dict)


def _parse(lines: Iterable[str], source: str) -> _Parsed:
    parsed = _Parsed()
    header_seen = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{source}:{number}"
        try:
            data = json.loads(line, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{where}: not valid JSON ({exc.msg})") from exc
        except ValueError as exc:
            raise UsageError(f"{where}: {exc}") from exc
        if not isinstance(data, dict):
            raise UsageError(f"{where}: expected a JSON object")
        kind = data.pop("type", None)
        if not header_seen:
            if kind != "header" or data.get("memvet") != "ledger":
                raise UsageError(f"{where}: not a MemVet ledger export (the first line must be its header)")
            schema = data.get("schema")
            if not isinstance(schema, int) or not 1 <= schema <= DUMP_SCHEMA:
                raise UsageError(f"{where}: export schema {schema!r} is not one this version reads "
                                 f"(up to {DUMP_SCHEMA})")
            header_seen = True
            continue
        try:
            _storable(data)
            if kind == "decision":
                decision = decision_from_dict(data)
                if decision.id in parsed.decisions:
                    raise ValueError(f"decision {decision.id} appears twice")
                parsed.decisions[decision.id] = decision
            elif kind == "receipt":
                receipt = _receipt_from_dict(data)
                if receipt.id in parsed.receipts:
                    raise ValueError(f"receipt {receipt.id} appears twice")
                parsed.receipts[receipt.id] = receipt
            else:
                raise ValueError(f"unknown record type {kind!r}")
        except (KeyError, TypeError, ValueError) as exc:
            what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            label = kind if kind in ("decision", "receipt") else "record"
            raise UsageError(f"{where}: invalid {label}: {what}") from exc
    if not header_seen:
        raise UsageError(f"{source}: empty file; not a MemVet ledger export")
    return parsed


def _same(a: Decision, b: Decision) -> bool:
    return decision_to_dict(a.evolve(namespace="")) == decision_to_dict(b.evolve(namespace=""))


def _differing(a: Decision, b: Decision) -> str:
    left, right = decision_to_dict(a), decision_to_dict(b)
    return ", ".join(k for k in left if k != "namespace" and left[k] != right[k])


def _bind_imported(ledger: Ledger, decision: Decision, source: str) -> None:
    """An imported claim binds like a recorded one, against its anchors at
    the commit it was recorded at (the working tree when this history
    lacks that commit).

    Raises:
        UnboundClaimError, UsageError: named with the file and the id.
    """
    if not decision.anchors:
        return
    at = decision.commit if decision.commit and ledger.git.has_commit(decision.commit) else None
    try:
        ledger.bind_claim(decision.claim, decision.anchors, at, unbound=decision.unbound)
    except UnboundClaimError as exc:
        raise UnboundClaimError(f"{source}: decision {decision.id}: {exc}; nothing was imported",
                                exc.terms) from exc
    except UsageError as exc:
        raise UsageError(f"{source}: decision {decision.id}: {exc}; nothing was imported") from exc


def _check_anchor(ledger: Ledger, anchor: Anchor) -> None:
    """Refuse an imported anchor that a write through ``record`` could not
    have produced: a path outside the repository or not in normal form, a
    requirement MemVet cannot evaluate (``>=>2`` would read
    ``needs_revalidation`` forever), an absence rule that is not
    ``import:NAME`` or ``pattern:REGEX``.

    Raises:
        UsageError: What is wrong (PathOutsideRepositoryError for paths).
    """
    git = ledger.git
    if anchor.kind in (AnchorKind.SYMBOL, AnchorKind.FILE):
        if not anchor.path or (anchor.kind is AnchorKind.SYMBOL and not anchor.name):
            raise UsageError(f"a {anchor.kind.value} anchor needs a path" +
                             (" and a name" if anchor.kind is AnchorKind.SYMBOL else ""))
        if git.normalize_path(anchor.path) != anchor.path:
            raise UsageError(f"{anchor.path!r} is not a repository path in normal form")
    elif anchor.kind is AnchorKind.DEPENDENCY:
        if not anchor.name:
            raise UsageError("a dependency anchor needs a package name")
        parsed = _manifests.parse_dependency_spec(
            _manifests.format_dependency_spec(anchor.name, anchor.requirement, anchor.scope))
        if (parsed.name, parsed.requirement, parsed.folder) != (anchor.name, anchor.requirement, anchor.scope):
            raise UsageError(f"the dependency {anchor.name!r} {anchor.requirement!r} does not read back as written")
        if anchor.path and git.normalize_path(anchor.path) != anchor.path:
            raise UsageError(f"{anchor.path!r} is not a repository path in normal form")
    else:
        kind, sep, value = anchor.name.partition(":")
        if not sep or kind not in ("import", "pattern"):
            raise UsageError(f"an absence rule is import:NAME or pattern:REGEX, not {anchor.name!r}")
        if kind == "import":
            _absent(import_=value, scope=anchor.scope)
        else:
            _absent(pattern=value, scope=anchor.scope)


def _check_anchors(ledger: Ledger, decisions: Iterable[Decision], source: str) -> None:
    for decision in decisions:
        for anchor in decision.anchors:
            try:
                _check_anchor(ledger, anchor)
            except UsageError as exc:
                raise UsageError(f"{source}: decision {decision.id}: anchor {anchor.spec!r}: {exc}; "
                                 "nothing was imported") from exc


def _check_cycles(ledger: Ledger, parsed: _Parsed, source: str) -> None:
    """Refuse supersede pointers that go round: both ends would read as
    history, and nothing would be current.

    Raises:
        UsageError: naming the cycle.
    """
    pointers = {d.id: d.supersedes for d in parsed.decisions.values()}
    for start in parsed.decisions:
        path = [start]
        current = pointers[start]
        while current:
            if current in path:
                cycle = " -> ".join([*path[path.index(current):], current])
                raise UsageError(f"{source}: a supersede cycle ({cycle}): every decision in it would read as "
                                 "superseded and none as current; nothing was imported")
            path.append(current)
            if current not in pointers:
                found = ledger.store.get_decisions([current])
                pointers[current] = found[0].supersedes if found else ""
            current = pointers[current]


def _link_receipt_id(successor: str, old: str) -> str:
    """The same id for the same link, so importing again never adds a second one."""
    return "r-" + hashlib.sha256(f"link {successor} {old}".encode()).hexdigest()[:12]


def _plan_links(ledger: Ledger, parsed: _Parsed, writing: Iterable[Decision], link_local: bool,
                source: str) -> list[tuple[Decision, Decision]]:
    """Check where each decision to be written points, and what it would
    supersede in this ledger.

    Returns:
        ``(successor, local decision)`` pairs to supersede with a receipt
        (only with ``link_local``; active successors only, a proposal links
        when it is approved).

    Raises:
        UsageError: A pointer at a decision in neither the file nor the
            ledger; an active successor whose predecessor in the file does
            not say it was superseded by it; a pointer at a decision only
            this ledger holds, without ``link_local``; a local decision
            already resolved otherwise.
    """
    links: list[tuple[Decision, Decision]] = []
    for decision in writing:
        old_id = decision.supersedes
        if not old_id:
            continue
        theirs = parsed.decisions.get(old_id)
        if theirs is not None:
            if decision.lifecycle is Lifecycle.ACTIVE and theirs.superseded_by != decision.id:
                by = f" by {theirs.superseded_by}" if theirs.superseded_by else ""
                raise UsageError(
                    f"{source}: decision {decision.id} supersedes {old_id}, but the file's record of {old_id} "
                    f"is {theirs.lifecycle.value}{by}: a supersede its predecessor does not record (if the "
                    "ledger it came from crashed mid-supersede, run `memvet repair` there and export again); "
                    "nothing was imported"
                )
            continue
        found = ledger.store.get_decisions([old_id])
        if not found:
            raise UsageError(f"{source}: decision {decision.id} supersedes {old_id}, which is neither in the file "
                             "nor in the ledger; nothing was imported")
        mine = found[0]
        if not link_local:
            raise UsageError(
                f"{source}: decision {decision.id} supersedes {old_id}, a decision of this ledger that the file "
                f"does not hold: it would read as superseded with no receipt here. Pass --link-local "
                "(link_local=True) to supersede it, with a receipt; nothing was imported"
            )
        if decision.lifecycle is not Lifecycle.ACTIVE:
            continue
        effective = ledger._effective([mine])[0]
        if mine.lifecycle is Lifecycle.ACTIVE and effective.superseded_by in ("", decision.id):
            links.append((decision, mine))
        elif mine.lifecycle is Lifecycle.SUPERSEDED and mine.superseded_by == decision.id:
            links.append((decision, mine))  # linked before; only its receipt may be missing
        else:
            by = f" by {effective.superseded_by}" if effective.superseded_by else ""
            raise UsageError(f"{source}: cannot link {decision.id} to {old_id}: {old_id} is already "
                             f"{effective.lifecycle.value}{by}; nothing was imported")
    return links


@dataclass
class _Plan:
    """What an import will write, decided before anything is written."""

    added: list[Decision] = field(default_factory=list)
    updated: list[Decision] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    conflicts: list[ImportConflict] = field(default_factory=list)
    receipts: list[Receipt] = field(default_factory=list)
    present: int = 0
    links: list[tuple[Decision, Decision]] = field(default_factory=list)
    link_updates: list[Decision] = field(default_factory=list)


def _plan(ledger: Ledger, parsed: _Parsed, source: str, link_local: bool) -> _Plan:
    """Compare the file with the ledger (read under the write lock) and
    decide each record's fate (see the module docs for the rules).

    Raises:
        UsageError: A receipt whose decision is in neither the file nor the
            ledger, or only in the ledger (without ``link_local``); a
            ``supersedes`` that cannot be linked (see :func:`_plan_links`).
    """
    store = ledger.store
    local = {d.id: d for d in store.get_decisions(sorted(parsed.decisions))}
    local_receipts = {r.id: r for r in ledger.log()}
    known = set(parsed.decisions) | set(local)
    for receipt in parsed.receipts.values():
        if receipt.decision_id in known:
            continue
        if not store.get_decisions([receipt.decision_id]):
            raise UsageError(f"{source}: receipt {receipt.id} refers to decision {receipt.decision_id}, "
                             "which is neither in the file nor in the ledger")
        if not link_local:
            raise UsageError(f"{source}: receipt {receipt.id} refers to decision {receipt.decision_id}, a decision "
                             "of this ledger that the file does not hold; pass --link-local (link_local=True) to "
                             "add it to that decision's history; nothing was imported")

    def receipt_ids(receipts: Iterable[Receipt], decision_id: str) -> set[str]:
        return {r.id for r in receipts if r.decision_id == decision_id}

    plan = _Plan()
    for decision in parsed.decisions.values():
        mine = local.get(decision.id)
        incoming = decision.evolve(namespace=ledger.namespace)
        if mine is None:
            plan.added.append(incoming)
            continue
        if _same(mine, decision):
            plan.unchanged.append(decision.id)
            continue
        theirs_r = receipt_ids(parsed.receipts.values(), decision.id)
        mine_r = receipt_ids(local_receipts.values(), decision.id)
        if mine_r < theirs_r and mine.claim == decision.claim and mine.supersedes == decision.supersedes:
            plan.updated.append(incoming)
        elif theirs_r < mine_r:
            plan.kept.append(decision.id)
        else:
            plan.conflicts.append(ImportConflict(
                decision.id, "decision",
                f"differs from the local record ({_differing(mine, decision)}) and neither history "
                "contains the other; resolve it by hand (memvet show / supersede / reject)",
            ))

    # A successor of a decision whose local record stays as it is (in
    # conflict, or kept as newer) would supersede that record with no
    # receipt here: it waits too, and so does its own successor.
    waiting = True
    while waiting:
        waiting = False
        held = {c.id: "which is in conflict" for c in plan.conflicts}
        held.update((i, "whose local record is newer and kept") for i in plan.kept
                    if local[i].superseded_by == "")
        for decision in [*plan.added, *plan.updated]:
            why = held.get(decision.supersedes)
            if why is not None and decision.id not in held:
                plan.conflicts.append(ImportConflict(
                    decision.id, "decision", f"supersedes {decision.supersedes}, {why}; resolve that one first",
                ))
                waiting = True
        waits = {c.id for c in plan.conflicts}
        plan.added = [d for d in plan.added if d.id not in waits]
        plan.updated = [d for d in plan.updated if d.id not in waits]
    plan.links = _plan_links(ledger, parsed, [*plan.added, *plan.updated], link_local, source)

    skip = {c.id for c in plan.conflicts}
    for receipt in parsed.receipts.values():
        if receipt.decision_id in skip:
            continue
        mine_receipt = local_receipts.get(receipt.id)
        if mine_receipt is None:
            plan.receipts.append(receipt)
        elif _unmarked(mine_receipt) == receipt:
            plan.present += 1
        else:
            plan.conflicts.append(ImportConflict(receipt.id, "receipt", "a different receipt with this id exists"))
    _mark(ledger, plan, local_receipts, source)
    plan.receipts.sort(key=lambda r: (r.at, r.id))
    return plan


def _mark(ledger: Ledger, plan: _Plan, local_receipts: dict[str, Receipt], source: str) -> None:
    """Mark the file's receipts as imported, and add the supersede of each
    linked local decision with its receipt by the importer."""
    now = ledger.clock()
    importer = ledger._author(None)
    # Marked: `log` shows who imported it and when, never a file's receipt
    # as an act of this ledger (a file can say any author and any date).
    plan.receipts = [dataclasses.replace(r, imported_at=now, imported_by=importer.name) for r in plan.receipts]
    commit = str(ledger.git.head_commit().id) if plan.links else ""
    for successor, old in plan.links:
        if old.lifecycle is Lifecycle.ACTIVE:
            plan.link_updates.append(old.evolve(lifecycle=Lifecycle.SUPERSEDED, superseded_by=successor.id,
                                                reason=successor.reason, resolved_at=now))
        receipt_id = _link_receipt_id(successor.id, old.id)
        if receipt_id not in local_receipts:
            plan.receipts.append(Receipt(
                id=receipt_id, decision_id=old.id, action="supersede", from_lifecycle=Lifecycle.ACTIVE.value,
                to_lifecycle=Lifecycle.SUPERSEDED.value, author=importer.name, author_kind=importer.kind.value,
                at=now, commit=commit,
                reason=f"superseded by {successor.id}, imported from {source} with --link-local"
                       + (f": {successor.reason}" if successor.reason else ""),
                related=successor.id,
            ))


def _write(ledger: Ledger, plan: _Plan, vectors: Sequence[Sequence[float]]) -> None:
    """Carry out a plan through the store's journaled acts, one per decision
    (its record and its receipts), then one for receipts of decisions the
    import did not touch, so a crash leaves each act whole or replayable."""
    store = ledger.store
    if plan.added:
        ledger._require_embedder(pin=True)
    by_decision: dict[str, list[Receipt]] = {}
    for receipt in plan.receipts:
        by_decision.setdefault(receipt.decision_id, []).append(receipt)
    for decision, vector in zip(plan.added, vectors, strict=True):
        # Like a plain record, a new decision is not journaled: its record
        # holds its whole state, and running the import again adds any
        # receipt a crash left out.
        store.apply(Intent("import", add=(decision, tuple(vector)),
                           receipts=tuple(by_decision.pop(decision.id, ()))), journaled=False)
    for decision in [*plan.updated, *plan.link_updates]:
        # Oldest receipt first: the act starts from the lifecycle the local
        # record has, which is what a replay checks before updating.
        store.apply(Intent("import", updates=(decision,),
                           receipts=tuple(by_decision.pop(decision.id, ()))))
    rest = tuple(r for receipts in by_decision.values() for r in receipts)
    if rest:
        store.apply(Intent("import", receipts=rest))


def import_jsonl(ledger: Ledger, lines: Iterable[str], *, source: str = "<input>",
                 link_local: bool = False) -> ImportReport:
    """Import a dump made by :func:`export_jsonl` (see the module docs for the rules).

    The ledger is read and written under its write lock (a local ledger's
    one-writer lock), and every write goes through the store's journaled
    acts like any lifecycle act.

    Args:
        ledger: The ledger to write into (decisions take its namespace).
        lines: The dump's lines.
        source: The file name used in error messages.
        link_local: Let a decision of the file supersede a decision that
            only this ledger holds (the local one is superseded with a
            receipt by the importer), and let a receipt of the file join
            such a decision's history. Off, either is refused.

    Raises:
        UsageError: The input is not a valid dump, a receipt or a
            ``supersedes`` refers to a decision in neither the file nor the
            ledger, or to one only the ledger holds (without
            ``link_local``), or pointers go round; nothing is written.
        StoreError: A write failed; import the same file again to finish.
    """
    parsed = _parse(lines, source)
    with ledger.store.writing():
        _check_anchors(ledger, parsed.decisions.values(), source)
        _check_cycles(ledger, parsed, source)
        plan = _plan(ledger, parsed, source, link_local)
        for decision in plan.added:  # every new claim is bound to its evidence before anything is written
            _bind_imported(ledger, decision, source)
        vectors: list[list[float]] = []
        if plan.added:
            ledger._require_embedder()  # new records get vectors: they must be the ledger's kind
            vectors = ledger.embedder.embed_documents([d.claim for d in plan.added])
        _write(ledger, plan, vectors)
    return ImportReport(
        tuple(d.id for d in plan.added), tuple(d.id for d in plan.updated), tuple(plan.unchanged),
        tuple(plan.kept), tuple(plan.conflicts), len(plan.receipts), plan.present,
        tuple(old.id for _s, old in plan.links),
    )
