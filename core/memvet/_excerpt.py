"""The code a decision rests on, as it stands at a target, and what changed.

For ``memvet show``: each anchor of a verdict becomes an :class:`Excerpt`
with the anchored lines at the target (a symbol's span, the manifest line of
a dependency, the offending line of a violated absence) and, for a symbol or
file whose body changed or moved, a unified diff of the recorded body
against the body now. The recorded body comes from the recorded blob when
git has it, else from the recorded commit.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memvet._anchors import Evidence, is_text, recorded_file
from memvet._git import Snapshot
from memvet._model import Anchor, AnchorCheck, AnchorKind, AnchorResult, Verdict
from memvet._reads import LedgerReads

__all__ = ["Excerpt", "body_lines", "diff_lines", "excerpts"]

#: Longest excerpt shown (lines); the rest is counted, not printed.
MAX_LINES = 40
#: Lines of context around a change in ``show`` (``audit drift`` keeps difflib's 3).
_CONTEXT = 2


@dataclass(frozen=True)
class Excerpt:
    """One anchor's code at the target.

    Attributes:
        spec: The anchor as written on the command line.
        path: The path shown (where the anchor lives now, if it moved).
        start: 1-based line number of ``lines[0]`` (0 when nothing is shown).
        lines: The anchored lines at the target.
        diff: Unified diff of the recorded body against the body now
            (empty when unchanged or not applicable).
        note: Why something could not be shown (``""`` when all is shown).
        omitted: Lines left out of ``lines`` and ``diff`` for length.
    """

    spec: str
    path: str = ""
    start: int = 0
    lines: tuple[str, ...] = ()
    diff: tuple[str, ...] = ()
    note: str = ""
    omitted: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"spec": self.spec, "path": self.path, "start": self.start, "lines": list(self.lines),
                "diff": list(self.diff), "note": self.note, "omitted": self.omitted}


def _text(data: bytes) -> list[str]:
    return data.decode("utf-8", errors="replace").splitlines()


def _clip(lines: Sequence[str], limit: int) -> tuple[tuple[str, ...], int]:
    return tuple(lines[:limit]), max(0, len(lines) - limit)


def body_lines(evidence: Evidence, anchor: Anchor, data: bytes | None, name: str = "") -> list[str] | None:
    """The lines of an anchor's body in one blob: a symbol's span (decorators,
    signature, body) under ``name`` (default the anchor's), a file anchor's
    whole text; ``None`` when the blob is absent or the symbol is not
    defined in it. The caller has checked that ``data`` is text."""
    if data is None:
        return None
    if anchor.kind is AnchorKind.FILE:
        return _text(data)
    span = evidence.symbol_lines(data, anchor.language, name or anchor.name)
    return span[1] if span is not None else None


def diff_lines(old: Sequence[str], new: Sequence[str], old_label: str, new_label: str, *,
               context: int = 3) -> list[str]:
    """The unified diff of a recorded body against a later one (``show``
    and ``audit drift`` both diff through here)."""
    return list(difflib.unified_diff(list(old), list(new), old_label, new_label, lineterm="", n=context))


def _symbol(evidence: Evidence, check: AnchorCheck, snap: Snapshot, commit: str, limit: int) -> Excerpt:
    a = check.anchor
    path = check.new_path or a.path
    name = check.new_name or a.name
    data = snap.read(path)
    if data is None:
        return Excerpt(a.spec, path, note=f"{path} is not in the target")
    now = evidence.symbol_lines(data, a.language, name)
    if now is None:
        return Excerpt(a.spec, path, note=f"{name} is not defined in {path} at the target")
    start, lines = now
    diff: list[str] = []
    note = ""
    if check.result in (AnchorResult.CHANGED, AnchorResult.MOVED):
        then = recorded_file(evidence.git, a, commit)
        old = body_lines(evidence, a, then.data)
        if old is None:
            note = "the recorded body is not in this repository's history; no diff"
        else:
            diff = diff_lines(old, lines, f"{a.path}::{a.name} ({then.source})", f"{path}::{name} (now)",
                              context=_CONTEXT)
    shown, omitted = _clip(lines, limit)
    clipped, more = _clip(diff, 2 * limit)
    return Excerpt(a.spec, path, start, shown, clipped, note, omitted + more)


def _file(evidence: Evidence, check: AnchorCheck, snap: Snapshot, commit: str, limit: int) -> Excerpt:
    a = check.anchor
    path = check.new_path or a.path
    if check.result is not AnchorResult.CHANGED:
        return Excerpt(a.spec, path, note="the whole file is the anchor")
    new = snap.read(path)
    then = recorded_file(evidence.git, a, commit)
    if then.data is None or new is None or not is_text(then.data) or not is_text(new):
        return Excerpt(a.spec, path, note="no text diff available")
    diff = diff_lines(_text(then.data), _text(new), f"{a.path} ({then.source})", f"{path} (now)",
                      context=_CONTEXT)
    clipped, more = _clip(diff, 2 * limit)
    return Excerpt(a.spec, path, diff=clipped, omitted=more)


def _line(check: AnchorCheck, snap: Snapshot) -> Excerpt:
    a = check.anchor
    path = check.new_path or a.path
    if not path or not check.line:
        return Excerpt(a.spec, path)
    data = snap.read(path)
    lines = _text(data) if data is not None else []
    if not 0 < check.line <= len(lines):
        return Excerpt(a.spec, path, note=f"line {check.line} is not in {path} at the target")
    return Excerpt(a.spec, path, check.line, (lines[check.line - 1],))


def excerpts(ledger: LedgerReads, verdict: Verdict, at: str | None = None, *,
             max_lines: int = MAX_LINES) -> list[Excerpt]:
    """One excerpt per anchor check of ``verdict`` at ``at``.

    Args:
        ledger: The ledger (for its repository and symbol cache).
        verdict: A verdict with its anchor checks (lifecycle verdicts of
            superseded or rejected decisions have none, so give none).
        at: The target the verdict was computed for.
        max_lines: Longest excerpt; a diff may be twice as long.
    """
    snap = ledger.snapshot(at)
    evidence = ledger.evidence
    commit = verdict.decision.commit
    out = []
    for check in verdict.checks:
        kind = check.anchor.kind
        if kind is AnchorKind.SYMBOL:
            out.append(_symbol(evidence, check, snap, commit, max_lines))
        elif kind is AnchorKind.FILE:
            out.append(_file(evidence, check, snap, commit, max_lines))
        else:
            out.append(_line(check, snap))
    return out
