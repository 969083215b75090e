"""How ``memvet check`` and ``memvet show`` print: text, JSON, Markdown,
GitHub annotations.

Pure functions from verdicts (and, for ``--since``, impacts) to lines; the
command decides where they go.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memvet import AnchorResult, Lifecycle, Receipt, Status, Verdict, _text
from memvet._about import Impact, ImpactReport
from memvet._model import DECISION_FIELDS, describe_author

if TYPE_CHECKING:
    from memvet._excerpt import Excerpt

__all__ = ["ALREADY_FAILING", "Row", "counted", "github", "history", "markdown", "short", "show_head", "show_json",
           "summary", "text", "when"]


def short(text: str, width: int = 64) -> str:
    """One line of at most ``width`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def when(epoch: float, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """A UTC time stamp, or ``?``."""
    return time.strftime(fmt, time.gmtime(epoch)) if epoch else "?"


#: What a decision that failed at the start of a ``--since`` range is called.
ALREADY_FAILING = "already failing before this change"


@dataclass(frozen=True)
class Row:
    """One reported decision: its verdict, and with ``--since`` its impact.

    ``already_failing``: with ``--since``, its status at the start of the
    range was already a failing one, so the range did not cause it (not
    counted in the exit status unless ``--strict``).
    """

    verdict: Verdict
    impact: Impact | None = None
    already_failing: bool = False

    def to_dict(self) -> dict[str, Any]:
        if self.impact is None:
            return self.verdict.to_dict()
        data = self.impact.to_dict()
        data["already_failing"] = self.already_failing
        return data

    def fails_gate(self, failing: set[str], strict: bool = False) -> bool:
        """Whether this row fails the gate: a failing status the range
        caused (any failing status with ``strict``, or outside a range)."""
        return self.verdict.status.value in failing and (strict or not self.already_failing)


def counted(rows: Sequence[Row], failing: set[str], *, strict: bool = False) -> list[Row]:
    """The rows that fail the gate: a failing status the range caused (every
    failing one with ``strict``, or outside a range)."""
    return [r for r in rows if r.fails_gate(failing, strict)]


def _old_failures(rows: Sequence[Row], failing: set[str], strict: bool) -> str:
    """The line about failures older than the range ("" when there are none)."""
    old = sum(1 for r in rows if r.already_failing and r.verdict.status.value in failing)
    if not old:
        return ""
    noun = "decision was" if old == 1 else "decisions were"
    counts = "counted (--strict)" if strict else "not counted (--strict counts them)"
    return f"{old} {noun} {ALREADY_FAILING}, at the start of the range: {counts}"


def summary(rows: Sequence[Row], target: str) -> str:
    """``3 decisions at abc123: 1 stale, 2 verified``."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.verdict.status.value] = counts.get(row.verdict.status.value, 0) + 1
    parts = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    noun = "decision" if len(rows) == 1 else "decisions"
    return f"{len(rows)} {noun} at {target[:12]}" + (f": {parts}" if parts else "")


def _since_line(report: ImpactReport) -> str:
    n = len(report.changed)
    return (f"changes since {report.since} (from {report.base[:12]}) to {report.target[:12]}: "
            f"{n} file{'s' if n != 1 else ''} changed")


def _impact_note(impact: Impact, already_failing: bool = False) -> str:
    parts = [ALREADY_FAILING] if already_failing else []
    if impact.before is None:
        parts.append("recorded after the start of the range")
    elif impact.status_changed:
        parts.append(f"was {impact.before.value}")
    else:
        parts.append(f"still {impact.before.value}")
    if impact.paths:
        parts.append("changed: " + ", ".join(impact.paths))
    return "; ".join(parts)


def text(rows: Sequence[Row], target: str, report: ImpactReport | None, ignored: int, *,
         width: int | None = None, failing: set[str] | None = None, strict: bool = False) -> list[str]:
    """The human report; ``width`` cuts claims to one short line (``None``: whole)."""
    out = []
    if report is not None:
        out.append(_since_line(report))
    if not rows:
        if report is not None:
            out.append("no decision rests on what changed")
        else:
            out.append("no decisions recorded yet" if not ignored else "no decisions to check")
    for row in rows:
        v = row.verdict
        claim = short(v.decision.claim, width) if width else " ".join(v.decision.claim.split())
        out.append(f"{v.status.value:<19} {v.id}  {claim}")
        if v.status is not Status.VERIFIED:
            out.append(f"{'':<19} └ {v.reason}")
        if row.impact is not None:
            out.append(f"{'':<19} └ {_impact_note(row.impact, row.already_failing)}")
    if rows:
        out.append("")
        out.append(summary(rows, target))
    old = _old_failures(rows, failing or set(), strict)
    if old:
        out.append(old)
    if ignored:
        out.append(f"{ignored} decision{'s' if ignored != 1 else ''} left out by [tool.memvet] ignore")
    return out


def _cell(value: str) -> str:
    return _text.markdown(" ".join(value.split()))


def markdown(rows: Sequence[Row], target: str, report: ImpactReport | None, failing: set[str], *,
             strict: bool = False) -> list[str]:
    """A Markdown table, for a pull-request comment or a job summary."""
    bad = len(counted(rows, failing, strict=strict))
    head = "### MemVet: " + summary(rows, target).replace(f"at {target[:12]}", f"at `{target[:12]}`")
    out = [head, ""]
    if report is not None:
        out += [_since_line(report).replace(report.since, f"`{report.since}`", 1), ""]
    if not rows:
        out.append("No decision rests on what changed." if report is not None else "No decisions recorded yet.")
        return out
    since = report is not None
    out.append("| status | decision | reason |" + (" change |" if since else ""))
    out.append("|---|---|---|" + ("---|" if since else ""))
    for row in rows:
        v = row.verdict
        flag = "**" if row.fails_gate(failing, strict) else ""
        cells = [f"{flag}{v.status.value}{flag}", f"{_cell(v.decision.claim)} ({_text.code_span(v.id)})",
                 _cell(v.reason)]
        if row.impact is not None:
            cells.append(_cell(_impact_note(row.impact, row.already_failing)))
        out.append("| " + " | ".join(cells) + " |")
    if bad:
        out += ["", f"{bad} decision{'s' if bad != 1 else ''} with a failing status "
                f"({', '.join(sorted(failing))}): revalidate, supersede or reject "
                "them (`memvet show ID`)."]
    old = _old_failures(rows, failing, strict)
    if old:
        out += ["", old[0].upper() + old[1:] + "."]
    return out


def _escape_data(value: str) -> str:
    value = _text.clean(value)
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def _location(row: Row) -> tuple[str, int]:
    v = row.verdict
    for check in v.checks:
        if check.result is not AnchorResult.HOLDS:
            path = check.new_path or check.anchor.path
            if path:
                return path, check.line or check.anchor.line
    if row.impact is not None:
        for check in v.checks:
            for path in (check.new_path, check.anchor.path):
                if path and path in row.impact.paths:
                    return path, check.line or check.anchor.line
    for anchor in v.decision.anchors:
        if anchor.path:
            return anchor.path, anchor.line
    return "", 0


def github(rows: Sequence[Row], target: str, failing: set[str], *, strict: bool = False) -> list[str]:
    """GitHub Actions workflow commands: one annotation per decision that
    needs attention, on the anchored file and line.

    ``::error`` for a failing status, ``::warning`` for any other drift,
    ``::notice`` for a verified (or history) decision whose code the range
    touched. Verified decisions outside a ``--since`` range get nothing. A
    decision already failing at the start of the range is a ``::warning``
    (an ``::error`` with ``strict``).
    """
    out = []
    for row in rows:
        v = row.verdict
        status = v.status.value
        if row.fails_gate(failing, strict):
            level = "error"
        elif v.status in (Status.UNANCHORED, Status.NEEDS_REVALIDATION, Status.STALE, Status.REFUTED):
            level = "warning"
        elif row.impact is not None:
            level = "notice"
        else:
            continue
        path, line = _location(row)
        props = []
        if path:
            props.append(f"file={_escape_property(path)}")
            if line:
                props.append(f"line={line}")
        props.append(f"title={_escape_property(f'memvet: {status} decision {v.id}')}")
        message = f"{' '.join(v.decision.claim.split())} ({v.reason})"
        if row.impact is not None:
            message += f" [{_impact_note(row.impact, row.already_failing)}]"
        out.append(f"::{level} {','.join(props)}::{_escape_data(message)}")
    out.append(summary(rows, target))
    old = _old_failures(rows, failing, strict)
    if old:
        out.append(old)
    return out


def as_json(rows: Sequence[Row], target: str, report: ImpactReport | None, ignored: Sequence[str]) -> str:
    """The JSON report: ``at`` and ``decisions`` (plus the range with ``--since``)."""
    data: dict[str, Any] = {"at": target, "decisions": [r.to_dict() for r in rows], "ignored": list(ignored)}
    if report is not None:
        data.update({"since": report.since, "base": report.base, "changed_paths": list(report.changed)})
    return json.dumps(data, indent=2, ensure_ascii=False)


# ====================================================================== show


def show_json(verdict: Verdict, receipts: Sequence[Receipt], found: Sequence[Excerpt]) -> dict[str, Any]:
    """``memvet show --json``: the verdict, the decision's shown fields (see
    :data:`memvet._model.DECISION_FIELDS`), its anchors as recorded, its
    receipts and the excerpts taken."""
    d = verdict.decision
    data = verdict.to_dict()
    data.update({spec.name: spec.to_json(getattr(d, spec.name)) for spec in DECISION_FIELDS if spec.shown})
    data.update({
        "recorded_anchors": [a.to_dict() for a in d.anchors],
        "receipts": [r.to_dict() for r in receipts],
        "excerpts": [e.to_dict() for e in found],
    })
    return data


def show_head(verdict: Verdict) -> list[str]:
    """The lines of ``memvet show`` above the anchor checks."""
    d = verdict.decision
    out = [f"{d.id}  {verdict.status.value}",
           f"  claim:    {d.claim}",
           f"  reason:   {verdict.reason}",
           f"  recorded: {when(d.created_at)} at {d.commit[:12]} by {describe_author(d.author, d.author_kind)}"]
    if d.tags:
        out.append(f"  tags:     {', '.join(d.tags)}")
    if d.unbound:
        out.append(f"  unbound:  {', '.join(d.unbound)}  (declared not in its evidence)")
    for line in d.findings:
        out.append(f"  finding:  {line}  (memvet resolve {d.id})")
    if d.supersedes:
        pending = " (on approval)" if d.lifecycle is Lifecycle.PROPOSED else ""
        out.append(f"  replaces: {d.supersedes}{pending}")
    if d.superseded_by:
        out.append(f"  replaced by: {d.superseded_by}")
    if d.retiring:
        act = f"supersede it with {d.retire_with}" if d.retire_with else "reject it"
        out.append(f"  request:  {d.retire_by} (agent) asks to {act}: {d.retire_reason}  "
                   f"(memvet approve {d.id} | memvet decline {d.id} --reason R)")
    if not verdict.checks:
        out += [f"  anchor:   {anchor.spec}  (as recorded)" for anchor in d.anchors]
    return out


def history(receipts: Sequence[Receipt]) -> list[str]:
    """The ``history:`` block of ``memvet show`` (nothing without receipts)."""
    out = ["  history:"] if receipts else []
    for r in receipts:
        imported = f"  (imported {when(r.imported_at)} by {r.imported_by or '?'})" if r.imported else ""
        out.append(f"    {when(r.at)}  {r.action:<10} {r.from_lifecycle or '-'} → {r.to_lifecycle}  {r.reason}"
                   f"  [{r.who}]{imported}")
    return out
