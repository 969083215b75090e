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

Import believes nothing it cannot check. Every decision it writes has its
anchors resolved again on the code it was recorded on (each anchored file
as recorded: its blob, from git or from the working tree while it still
holds it, else the path at the recorded commit; the rest of the repository
at that commit) and its claim bound to them there: hashes, blob ids, lines
and shapes are recomputed, never taken from the file. A decision whose evidence cannot be reproduced
(its commit and blobs are not here, an anchor does not resolve there, the
claim does not bind there) is re-proposed against the working tree, and
reported as unchecked; if it cannot be proposed there either, it is not
imported (a conflict).

Lifecycles and receipts are what the file says, which this ledger cannot
check. Without ``trust``, a decision the ledger does not hold identically
enters as a proposal, whatever its lifecycle in the file (history too: a
rejected entry is served as "do not repeat", which an unvetted file must
not be able to plant), with an ``import`` receipt saying so; the file's
receipts are kept as its history, marked as imported. A record of the
file that would change a decision this ledger holds is not written (a
conflict that says to import with ``trust``). With ``trust=True``
(``memvet import --trust``) the importing person vouches for the file: a
lifecycle is kept when the file's receipts support it (its creation is
recorded, and its last lifecycle act leads to it: ``record``, ``approve``
or ``reopen`` to active, ``reject`` to rejected, ``supersede`` to
superseded), the whole import is refused when one is not, and each
decision whose lifecycle was kept on trust gets an ``import`` receipt by
that person. ``import`` receipts are this ledger's bookkeeping: exports
leave them out, and histories are compared without them.

Import is idempotent and never overwrites. For each decision in the file:
absent locally, it is added (as above); identical, nothing happens (hashes
are not compared: they are this ledger's own); taken in before by an
import as it is now in the file, nothing happens (with ``trust``, a
proposal it made of the record now keeps the file's lifecycle); different,
the receipts decide: if the local receipts are a subset of the file's, the
file holds a later state of the same decision (it was rejected,
superseded or revalidated elsewhere) and, with ``trust``, the local record
is brought forward; if the file's are a subset of the local ones, the
local record is newer and kept; otherwise the two histories diverged and
the decision is reported as a conflict, untouched. Receipts are added when
missing, marked as imported (when and by whom), so ``log`` never passes
them off as acts of this ledger.

The whole file is validated before anything is written, and bad input
changes nothing: every field's type and range, text that Chroma can store
(no lone surrogates, no NaN), claims within the length limit, anchors that
name paths inside the repository and requirements MemVet can evaluate,
receipts with known acts, and with ``trust`` the receipt chains. A
decision that ``supersedes`` another must find it in the file, coherent
(the file's record of it says it was superseded by this one), never in a
cycle; one that points at a decision only this ledger holds would make
that local decision read as superseded without a receipt, so it is
refused unless ``link_local=True`` (``memvet import --link-local``), which
supersedes the local decision with a receipt of its own when the
successor enters active (with ``trust``; a proposal supersedes when a
person approves it). A write that fails half way (a full disk) is
finished by importing the same file again: import is idempotent.
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

from memvet import _code, _manifests, _text
from memvet._anchors import AnchorSpec, Recorded, recorded_file
from memvet._anchors import absent as _absent
from memvet._errors import AnchorNotFoundError, NotAllowedError, UsageError
from memvet._git import Snapshot
from memvet._ledger import MAX_CLAIM_CHARS as _MAX_CLAIM_CHARS
from memvet._model import (
    ANCHOR_FIELDS,
    DECISION_FIELDS,
    Anchor,
    AnchorKind,
    Author,
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
    from memvet._ledger import AuthorLike, Ledger

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
    """One line of plain Markdown for an agent: whitespace collapsed, control
    sequences removed, and nothing that a Markdown renderer would read as
    HTML (see :func:`memvet._text.plain_markdown`)."""
    return _text.plain_markdown(" ".join(str(text).split()))


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


def agent_context(ledger: Ledger, at: str | None = None, *, current_only: bool = False,
                  on_verdict: Callable[[Verdict], None] | None = None) -> Context:
    """Every decision checked at ``at``, sorted for an agent.

    Args:
        ledger: The ledger.
        at: The target (default: the working tree).
        current_only: Keep only verified decisions (the others are counted).
        on_verdict: Called with each verdict as it is made (a progress bar).
    """
    snap = ledger.snapshot(at)
    verdicts = ledger.check(at, on_verdict=on_verdict)
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
_NEW_WHEN_SET = frozenset({"author_kind", "retire_reason", "retire_by", "retire_with", "findings"})


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
    importing ledger marks them again), and this ledger's ``import``
    receipts stay home: like the marks, they say how this ledger took a
    record in, not what happened to the decision, and a shared dump must
    not change with who imported it.
    """
    found, bad = ledger.records()
    receipts = [r for r in ledger.log() if r.action != ReceiptAction.IMPORT]
    header = {"memvet": "ledger", "schema": DUMP_SCHEMA, "namespace": ledger.namespace}
    lines = [_dumps("header", header)]
    lines += [_dumps("decision", decision_to_dict(d)) for d in found]
    # Without import marks: they say when this ledger took a receipt in, not
    # what happened, and a shared dump must not change with who exported it.
    lines += [_dumps("receipt", _unmarked(r).to_dict()) for r in receipts]
    return LedgerDump(tuple(lines), len(found), len(receipts), tuple(str(e) for e in bad))


@dataclass(frozen=True)
class ImportConflict:
    """A record of the file that was not taken as the file has it, and why.

    In :attr:`ImportReport.conflicts`, a record that was not written (it
    differs from the local one, or could not be checked); in
    :attr:`ImportReport.unchecked`, a decision that entered as a proposal
    because its evidence could not be reproduced here.
    """

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
        proposed: Decisions (of ``added`` and ``updated``) that entered as
            proposals although the file gives them another lifecycle:
            without ``trust``, or unchecked. ``memvet review`` lists them.
        unchecked: Decisions whose evidence could not be reproduced at the
            code they were recorded on, re-proposed against the working
            tree, each with why.
    """

    added: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    conflicts: tuple[ImportConflict, ...] = ()
    receipts_added: int = 0
    receipts_present: int = 0
    linked: tuple[str, ...] = ()
    proposed: tuple[str, ...] = ()
    unchecked: tuple[ImportConflict, ...] = ()

    @property
    def changed(self) -> bool:
        """True when anything was written."""
        return bool(self.added or self.updated or self.receipts_added or self.linked)

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": list(self.added), "updated": list(self.updated), "unchanged": list(self.unchanged),
            "kept": list(self.kept), "conflicts": [c.to_dict() for c in self.conflicts],
            "receipts_added": self.receipts_added, "receipts_present": self.receipts_present,
            "linked": list(self.linked), "proposed": list(self.proposed),
            "unchecked": [c.to_dict() for c in self.unchecked],
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


#: What an import works out again instead of taking it from the file (see
#: :func:`_reproduce`): an anchor's hashes, blob id, line and language, a
#: dependency's manifest, and the hasher's version.
_DERIVED = frozenset({"language", "symbol_kind", "body_hash", "hash_version", "blob_id", "line", "shape"})
#: What an import decides itself: the lifecycle (a proposal unless trusted),
#: for a decision re-proposed against the working tree its commit, and the
#: write path's findings (graded again here, never taken from the file, even
#: on trust: a findings list a file leaves empty would settle them unseen;
#: terms declared unbound travel with the claim, a quote that settled
#: findings here is resolved again by a person there).
_ADMITTED = frozenset({"lifecycle", "superseded_by", "resolved_at", "commit", "findings"})


def _asked(anchor: Anchor) -> dict[str, Any]:
    """An anchor as its writer asked for it, without what resolving it found."""
    data = {k: v for k, v in anchor.to_dict().items() if k not in _DERIVED}
    if anchor.kind is AnchorKind.DEPENDENCY:
        data.pop("path", None)  # the manifest it was found in
    return data


def _key(decision: Decision) -> dict[str, Any]:
    """A decision as two ledgers compare it: its namespace, its hasher's
    version and its anchors' derived fields left out (each ledger works
    those out itself; a file's are never believed)."""
    data = decision_to_dict(decision)
    data.pop("namespace")
    data.pop("hash_version")
    data["anchors"] = [_asked(a) for a in decision.anchors]
    return data


def _owned(decision: Decision) -> dict[str, Any]:
    """:func:`_key` without what an import decides itself (:data:`_ADMITTED`)."""
    return {k: v for k, v in _key(decision).items() if k not in _ADMITTED}


def _differing(a: Decision, b: Decision) -> str:
    left, right = _key(a), _key(b)
    return ", ".join(k for k in left if left[k] != right.get(k))


def _spec(anchor: Anchor) -> AnchorSpec:
    """The spec to resolve ``anchor`` again from (its quote kept)."""
    if anchor.kind is AnchorKind.SYMBOL:
        return AnchorSpec(AnchorKind.SYMBOL, path=anchor.path, name=anchor.name, quote=anchor.quote)
    if anchor.kind is AnchorKind.FILE:
        return AnchorSpec(AnchorKind.FILE, path=anchor.path, quote=anchor.quote)
    if anchor.kind is AnchorKind.DEPENDENCY:
        return AnchorSpec(AnchorKind.DEPENDENCY, name=anchor.name, requirement=anchor.requirement,
                          scope=anchor.scope)
    return AnchorSpec(AnchorKind.ABSENT, name=anchor.name, scope=anchor.scope)


class _AsRecorded(Snapshot):
    """A snapshot whose anchored files read as they were recorded.

    A decision recorded against the working tree stands on its ``HEAD``
    then, but its anchored files are what was on disk: their blobs. Those
    paths read from the recorded blobs; every other path reads from
    ``base`` (the recorded commit, or the working tree when this
    repository lacks it).
    """

    def __init__(self, base: Snapshot, files: dict[str, tuple[str, bytes]]) -> None:
        super().__init__(base.git, base.commit)
        self._base = base
        self._files = files
        blobs = "".join(f"{path}\0{blob}\0" for path, (blob, _data) in sorted(files.items()))
        # A name of its own: the evidence caches per commit key on it.
        self.name = f"{base.name}+{hashlib.sha256(blobs.encode()).hexdigest()[:12]}"

    def blob_id(self, path: str) -> str | None:
        return self._files[path][0] if path in self._files else self._base.blob_id(path)

    def read(self, path: str) -> bytes | None:
        return self._files[path][1] if path in self._files else self._base.read(path)

    def paths(self) -> list[str]:
        if self._paths is None:
            self._paths = sorted({*self._base.paths(), *self._files})
        return self._paths


def _one_line_error(exc: Exception) -> str:
    return " ".join(str(exc).split())


def _reproduce(ledger: Ledger, decision: Decision) -> tuple[Decision | None, str]:
    """The decision with its anchors resolved again on the code it was
    recorded on and its claim bound to them there, or ``None`` and why.

    Each anchored file reads as recorded (:func:`memvet._anchors.recorded_file`:
    its blob, when this repository has it, else the path at the recorded
    commit; a blob git lacks is read from the working tree while the file
    there still is that blob); the rest of the repository at the recorded
    commit, or in the working tree when this repository lacks that commit.
    A blob is named by its content's hash, so what is read is what was
    recorded, whoever wrote the file.
    """
    git = ledger.git
    known = bool(decision.commit) and git.has_commit(decision.commit)
    base = ledger.snapshot(decision.commit if known else None)
    files: dict[str, tuple[str, bytes]] = {}
    worktree = ledger.snapshot(None)
    for anchor in decision.anchors:
        if anchor.kind not in (AnchorKind.SYMBOL, AnchorKind.FILE):
            continue
        then = recorded_file(git, anchor, decision.commit)
        if then.blob_id != anchor.blob_id and anchor.blob_id and worktree.blob_id(anchor.path) == anchor.blob_id:
            # Recorded on changes not committed yet, and still on disk here.
            then = Recorded(worktree.read(anchor.path), anchor.blob_id)
        if then.data is None:
            where = (f"nor {anchor.path} at its recorded commit {decision.commit[:12]}" if known
                     else f"nor its recorded commit {decision.commit[:12] or '(none)'}")
            return None, (f"{anchor.spec}: the code it was recorded on is not in this repository (neither its "
                          f"blob {anchor.blob_id[:12] or '(none)'} {where})")
        if then.blob_id != base.blob_id(anchor.path):
            files[anchor.path] = (then.blob_id, then.data)
    snap = _AsRecorded(base, files) if files else base
    where = f"commit {decision.commit[:12]}" if known else "the working tree (its recorded commit is not here)"
    try:
        anchors = tuple(ledger.evidence.resolve(_spec(a), snap) for a in decision.anchors)
        unbound, findings = ledger._grade_claim(decision.claim, anchors, snap, decision.unbound)
    except (UsageError, AnchorNotFoundError) as exc:
        return None, f"at {where} as recorded: {_one_line_error(exc)}"
    return decision.evolve(anchors=anchors, unbound=unbound, findings=findings, hash_version=_code.HASH_VERSION), ""


def _repropose(ledger: Ledger, decision: Decision) -> Decision | str:
    """The decision as a proposal resolved and bound against the working
    tree (what ``record --propose`` would write now), or why it cannot be."""
    snap = ledger.snapshot(None)
    try:
        anchors = tuple(ledger.evidence.resolve(_spec(a), snap) for a in decision.anchors)
        unbound, findings = ledger._grade_claim(decision.claim, anchors, snap, decision.unbound)
    except (UsageError, AnchorNotFoundError) as exc:
        return _one_line_error(exc)
    return decision.evolve(anchors=anchors, unbound=unbound, findings=findings, hash_version=_code.HASH_VERSION,
                           commit=snap.base_commit, lifecycle=Lifecycle.PROPOSED, superseded_by="",
                           resolved_at=0.0)


#: The acts that lead to each lifecycle a trusted import keeps.
_LEADS_TO: dict[Lifecycle, frozenset[str]] = {
    Lifecycle.ACTIVE: frozenset({ReceiptAction.RECORD, ReceiptAction.APPROVE, ReceiptAction.REOPEN}),
    Lifecycle.REJECTED: frozenset({ReceiptAction.REJECT}),
    Lifecycle.SUPERSEDED: frozenset({ReceiptAction.SUPERSEDE}),
}


def _unsupported(decision: Decision, receipts: Iterable[Receipt]) -> str:
    """Why the file's receipts do not support the decision's lifecycle
    (``""`` when they do): its creation must be recorded, and its last
    lifecycle act (the latest receipt that changes it) must lead there.
    ``import`` receipts are another ledger's bookkeeping and support nothing."""
    acts = [r for r in receipts if r.decision_id == decision.id and r.action != ReceiptAction.IMPORT]
    if not any(not r.from_lifecycle for r in acts):
        return "no receipt records its creation (record or propose)"
    changes = [r for r in acts if r.from_lifecycle != r.to_lifecycle]
    last = max(r.at for r in changes)
    ends = sorted({f"{r.action} to {r.to_lifecycle}" for r in changes if r.at == last})
    if any(r.at == last and r.to_lifecycle == decision.lifecycle.value and r.action in _LEADS_TO[decision.lifecycle]
           for r in changes):
        return ""
    return f"its last lifecycle act is {' and '.join(ends)}"


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
            # The file's own coherence, whatever lifecycle the import gives it.
            if parsed.decisions[decision.id].lifecycle is Lifecycle.ACTIVE and theirs.superseded_by != decision.id:
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
    proposed: list[str] = field(default_factory=list)
    unchecked: list[ImportConflict] = field(default_factory=list)
    #: This ledger's ``import`` receipts, one per decision taken in otherwise
    #: than the file has it, or on trust.
    vouched: list[Receipt] = field(default_factory=list)


@dataclass(frozen=True)
class _Importer:
    """Who imports, from where, and on whose word."""

    ledger: Ledger
    source: str
    trust: bool
    author: Author
    now: float
    commit: str
    progress: Callable[[int, int], None] | None = None

    def receipt(self, decision_id: str, before: str, after: str, reason: str) -> Receipt:
        return self.ledger._receipt(decision_id, ReceiptAction.IMPORT, before, after, reason=reason,
                                    author=self.author, at=self.now, commit=self.commit)


def _admit(who: _Importer, plan: _Plan, decision: Decision, mine: Decision | None, *, again: bool = False) -> None:
    """Decide how one decision of the file enters: added (``mine`` is
    ``None``) or brought forward over ``mine``, with its evidence
    reproduced here and the lifecycle the import may give it. ``again``:
    ``mine`` is the proposal an earlier import made of this very record."""
    ledger, source = who.ledger, who.source
    checked, why = _reproduce(ledger, decision)
    since = mine.lifecycle.value if mine is not None else ""
    if checked is None:
        if mine is not None:
            if again:
                plan.unchanged.append(decision.id)  # still cannot be checked: the proposal it was
            else:
                plan.conflicts.append(ImportConflict(
                    decision.id, "decision", f"its evidence cannot be checked here ({why}); not brought forward"))
            return
        proposal = _repropose(ledger, decision)
        if isinstance(proposal, str):
            plan.conflicts.append(ImportConflict(
                decision.id, "decision",
                f"its evidence cannot be checked here ({why}), nor proposed against the working tree "
                f"({proposal}); not imported",
            ))
            return
        plan.unchecked.append(ImportConflict(decision.id, "decision", why))
        admitted = proposal
        because = f"its evidence could not be checked here ({why}); re-proposed against the working tree"
    elif who.trust or decision.lifecycle is Lifecycle.PROPOSED:
        admitted, because = checked, ""
    else:
        admitted = checked.evolve(lifecycle=Lifecycle.PROPOSED, superseded_by="", resolved_at=0.0)
        because = "without --trust, an import believes no lifecycle; a person approves it or rejects it"
    if admitted.lifecycle is not decision.lifecycle:
        plan.proposed.append(decision.id)
        plan.vouched.append(who.receipt(decision.id, since, Lifecycle.PROPOSED.value,
                                        f"imported from {source} as a proposal (the file says "
                                        f"{decision.lifecycle.value}): {because}"))
    elif because:
        plan.vouched.append(who.receipt(decision.id, since, Lifecycle.PROPOSED.value,
                                        f"imported from {source}: {because}"))
    elif who.trust and decision.lifecycle is not Lifecycle.PROPOSED:
        plan.vouched.append(who.receipt(decision.id, since, decision.lifecycle.value,
                                        f"imported from {source} with --trust: {decision.lifecycle.value}, as its "
                                        "receipts in the file record"))
    fresh = [f for f in admitted.findings if mine is not None and f not in mine.findings]
    if fresh:
        # An update must not swap in evidence its claim does not follow from:
        # a held decision changes only to one that binds as well as it did.
        plan.conflicts.append(ImportConflict(
            decision.id, "decision",
            f"its evidence cannot be checked here (the claim, bound again on the evidence it would bring, "
            f"has a finding: {fresh[0]}); not brought forward",
        ))
        plan.vouched = [r for r in plan.vouched if r.decision_id != decision.id]
        plan.proposed = [i for i in plan.proposed if i != decision.id]
        return
    admitted = admitted.evolve(namespace=ledger.namespace)
    (plan.added if mine is None else plan.updated).append(admitted)


def _plan(who: _Importer, parsed: _Parsed, link_local: bool) -> _Plan:
    """Compare the file with the ledger (read under the write lock) and
    decide each record's fate (see the module docs for the rules).

    Raises:
        UsageError: A receipt whose decision is in neither the file nor the
            ledger, or only in the ledger (without ``link_local``); a
            ``supersedes`` that cannot be linked (see :func:`_plan_links`);
            with ``trust``, a lifecycle the file's receipts do not support.
    """
    ledger, source, trust = who.ledger, who.source, who.trust
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

    def acts(receipts: Iterable[Receipt], decision_id: str) -> set[str]:
        """The receipts two histories compare: every act but a ledger's own imports."""
        return {r.id for r in receipts if r.decision_id == decision_id and r.action != ReceiptAction.IMPORT}

    taken_in = {r.decision_id for r in local_receipts.values()
                if r.action == ReceiptAction.IMPORT and not r.imported}
    plan = _Plan()
    arriving: list[tuple[Decision, Decision | None, bool]] = []
    for decision in parsed.decisions.values():
        mine = local.get(decision.id)
        if mine is None:
            arriving.append((decision, None, False))
            continue
        theirs_r = acts(parsed.receipts.values(), decision.id)
        mine_r = acts(local_receipts.values(), decision.id)
        if _key(mine) == _key(decision) and not mine_r < theirs_r:
            # The same record (hashes are not compared: ours are worked out
            # here); the file's receipts may add to its history.
            plan.unchanged.append(decision.id)
        elif theirs_r == mine_r and decision.id in taken_in and _owned(mine) == _owned(decision):
            # Taken in before by an import, as it is now in the file: as it
            # is, unless trust now keeps the lifecycle of a proposal it made.
            if trust and mine.lifecycle is Lifecycle.PROPOSED and decision.lifecycle is not Lifecycle.PROPOSED:
                arriving.append((decision, mine, True))
            else:
                plan.unchanged.append(decision.id)
        elif mine_r < theirs_r and mine.claim == decision.claim and mine.supersedes == decision.supersedes:
            if trust:
                arriving.append((decision, mine, False))
            else:
                plan.conflicts.append(ImportConflict(
                    decision.id, "decision",
                    f"the file holds a later state of it ({_differing(mine, decision) or 'receipts'}, by acts this "
                    "ledger does not have); without --trust an import changes no decision this ledger holds: "
                    "import with --trust to bring it forward, or act on it here",
                ))
        elif theirs_r < mine_r:
            plan.kept.append(decision.id)
        else:
            plan.conflicts.append(ImportConflict(
                decision.id, "decision",
                f"differs from the local record ({_differing(mine, decision)}) and neither history "
                "contains the other; resolve it by hand (memvet show / supersede / reject)",
            ))
    if trust:  # refused before anything is reproduced: one line, nothing written
        for decision, _mine, _again in arriving:
            why = "" if decision.lifecycle is Lifecycle.PROPOSED else _unsupported(decision,
                                                                                   parsed.receipts.values())
            if why:
                raise UsageError(
                    f"{source}: decision {decision.id} is {decision.lifecycle.value} in the file, but its receipts "
                    f"do not show how it got there ({why}); --trust keeps only a lifecycle its receipts support, "
                    "so nothing was imported"
                )
    for done, (decision, mine, again) in enumerate(arriving, start=1):
        _admit(who, plan, decision, mine, again=again)
        if who.progress is not None:
            who.progress(done, len(arriving))

    # A successor of a decision whose local record stays (in conflict, or
    # kept as newer) would supersede that record with no receipt here: it
    # waits too, and so does its own successor. A proposal replaces
    # nothing until a person approves it, and does not wait.
    waiting = True
    while waiting:
        waiting = False
        held = {c.id: "which is in conflict" for c in plan.conflicts}
        held.update((i, "whose local record is newer and kept") for i in plan.kept
                    if local[i].superseded_by == "")
        for decision in [*plan.added, *plan.updated]:
            why = held.get(decision.supersedes)
            if why is not None and decision.id not in held and decision.lifecycle is not Lifecycle.PROPOSED:
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
    _mark(who, plan, local_receipts)
    plan.receipts += [r for r in plan.vouched if r.decision_id not in skip]
    plan.receipts.sort(key=lambda r: (r.at, r.id))
    return plan


def _mark(who: _Importer, plan: _Plan, local_receipts: dict[str, Receipt]) -> None:
    """Mark the file's receipts as imported, and add the supersede of each
    linked local decision with its receipt by the importer."""
    now, importer = who.now, who.author
    # Marked: `log` shows who imported it and when, never a file's receipt
    # as an act of this ledger (a file can say any author and any date).
    plan.receipts = [dataclasses.replace(r, imported_at=now, imported_by=importer.name) for r in plan.receipts]
    for successor, old in plan.links:
        if old.lifecycle is Lifecycle.ACTIVE:
            plan.link_updates.append(old.evolve(lifecycle=Lifecycle.SUPERSEDED, superseded_by=successor.id,
                                                reason=successor.reason, resolved_at=now))
        receipt_id = _link_receipt_id(successor.id, old.id)
        if receipt_id not in local_receipts:
            plan.receipts.append(Receipt(
                id=receipt_id, decision_id=old.id, action="supersede", from_lifecycle=Lifecycle.ACTIVE.value,
                to_lifecycle=Lifecycle.SUPERSEDED.value, author=importer.name, author_kind=importer.kind.value,
                at=now, commit=who.commit,
                reason=f"superseded by {successor.id}, imported from {who.source} with --link-local"
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
    for receipts in by_decision.values():
        # This ledger's import receipt first: its `from` is the lifecycle the
        # local record has, which is what a replay checks before updating.
        receipts.sort(key=lambda r: r.action != ReceiptAction.IMPORT)
    for decision, vector in zip(plan.added, vectors, strict=True):
        # Journaled like a record: a new decision may enter otherwise than
        # the file has it, and its import receipt is what says so.
        store.apply(Intent("import", add=(decision, tuple(vector)),
                           receipts=tuple(by_decision.pop(decision.id, ()))))
    for decision in [*plan.updated, *plan.link_updates]:
        store.apply(Intent("import", updates=(decision,),
                           receipts=tuple(by_decision.pop(decision.id, ()))))
    rest = tuple(r for receipts in by_decision.values() for r in receipts)
    if rest:
        store.apply(Intent("import", receipts=rest))


def import_jsonl(ledger: Ledger, lines: Iterable[str], *, source: str = "<input>",
                 link_local: bool = False, trust: bool = False, author: AuthorLike = None,
                 on_progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Import a dump made by :func:`export_jsonl` (see the module docs for the rules).

    The ledger is read and written under its write lock (a local ledger's
    one-writer lock), and every write goes through the store's journaled
    acts like any lifecycle act.

    Args:
        ledger: The ledger to write into (decisions take its namespace).
        lines: The dump's lines.
        source: The file name used in error messages and receipts.
        link_local: Let a decision of the file supersede a decision that
            only this ledger holds (the local one is superseded with a
            receipt by the importer, when the successor enters active), and
            let a receipt of the file join such a decision's history. Off,
            either is refused.
        trust: The importing person vouches for the file: lifecycles its
            receipts support are kept (each with an ``import`` receipt by
            that person), and later states of decisions this ledger holds
            are brought forward. Off, every decision the ledger does not
            hold identically enters as a proposal, and none it holds changes.
        author: Who imports (an :class:`~memvet.Author` or a person's name);
            default the repository's ``user.name``. Only a person may trust.
        on_progress: Called after each decision whose evidence is reproduced
            here (the slow part), with how many are done and how many
            there are (a progress bar).

    Raises:
        UsageError: The input is not a valid dump, a receipt or a
            ``supersedes`` refers to a decision in neither the file nor the
            ledger, or to one only the ledger holds (without
            ``link_local``), or pointers go round; with ``trust``, a
            lifecycle the file's receipts do not support; nothing is written.
        NotAllowedError: ``trust`` from an agent.
        StoreError: A write failed; import the same file again to finish.
    """
    importer = ledger._author(author)
    if trust and importer.is_agent:
        raise NotAllowedError(f"an agent ({importer.name}) cannot import with trust: vouching for a file's "
                              "lifecycles is a person's act (memvet import --trust FILE in a terminal)")
    parsed = _parse(lines, source)
    with ledger.store.writing():
        _check_anchors(ledger, parsed.decisions.values(), source)
        _check_cycles(ledger, parsed, source)
        who = _Importer(ledger, source, trust, importer, ledger.clock(), str(ledger.git.head_commit().id),
                        on_progress)
        plan = _plan(who, parsed, link_local)
        vectors: list[list[float]] = []
        if plan.added:
            ledger._require_embedder()  # new records get vectors: they must be the ledger's kind
            vectors = ledger.embedder.embed_documents([d.claim for d in plan.added])
        _write(ledger, plan, vectors)
    return ImportReport(
        tuple(d.id for d in plan.added), tuple(d.id for d in plan.updated), tuple(plan.unchanged),
        tuple(plan.kept), tuple(plan.conflicts), len(plan.receipts), plan.present,
        tuple(old.id for _s, old in plan.links), tuple(plan.proposed), tuple(plan.unchecked),
    )
