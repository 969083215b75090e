"""Decisions by what you touch: anchored in some paths, or in a diff.

Two questions a person or an agent asks before and after editing code:

* :func:`about` — "before I edit ``store.py``, which decisions rest on it?"
  The decisions anchored in the given paths (or in the files changed since a
  revision), verified at the target and grouped like a text recall:
  ``current``, ``caution`` and ``history``.
* :func:`changed_since` — "what does this pull request invalidate?" The
  decisions whose evidence changed between a revision and the target: their
  status at the revision against their status at the target, or an anchor on
  a path changed in that range.

A revision range is taken like ``git diff REV...``: from the merge base of
``REV`` and the target, so a feature branch is compared with where it forked,
not with whatever landed on ``main`` since.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pygit2

from memvet import _code
from memvet._errors import UsageError
from memvet._git import GitRepo, Snapshot, _glob_match
from memvet._model import Anchor, AnchorKind, Recall, Status, Verdict
from memvet._reads import LedgerReads
from memvet._recall import GROUPS, check_include, group_recall

__all__ = ["Impact", "ImpactReport", "Touch", "about", "anchor_touches", "changed_since"]


# ===================================================================== touches


@dataclass(frozen=True)
class Touch:
    """A place someone is about to edit: a file or folder, optionally one symbol.

    Attributes:
        path: Repository-relative POSIX path, a folder, or a glob.
        name: A qualified symbol name in ``path`` (``""``: the whole path).
    """

    path: str
    name: str = ""

    def covers(self, path: str) -> bool:
        """True when ``path`` is this path, lies under it, or matches its glob."""
        if not path:
            return False
        mine = self.path.rstrip("/")
        if path == mine or path.startswith(mine + "/"):
            return True
        return any(c in mine for c in "*?[") and _glob_match(path, mine)

    def __str__(self) -> str:
        return f"{self.path}::{self.name}" if self.name else self.path


def _names_overlap(anchored: str, touched: str) -> bool:
    # A class's span holds its methods: touching Store.save touches a
    # decision on Store, and touching Store touches one on Store.save.
    return (anchored == touched or anchored.startswith(touched + ".")
            or touched.startswith(anchored + "."))


def anchor_touches(anchor: Anchor, touch: Touch, moved_to: str = "", moved_name: str = "") -> bool:
    """True when editing ``touch`` edits the evidence ``anchor`` rests on.

    Args:
        anchor: A recorded anchor.
        touch: What is being edited.
        moved_to: Where the anchor's file or symbol lives now, if it moved.
        moved_name: The symbol's name now, if it was renamed.

    A symbol anchor is touched by its file (or a folder or glob holding it)
    and, when the touch names a symbol, by that symbol, its class or its
    members, by its recorded name or by the one it was renamed to. A file
    anchor is touched by its file; a dependency anchor by its manifest. An
    absence anchor with a scope is touched by any path in the scope (one
    without a scope, which covers the whole repository, is left out: it
    would be touched by everything).
    """
    if anchor.kind is AnchorKind.ABSENT:
        if not anchor.scope:
            return False
        scope = anchor.scope
        return _glob_match(touch.path, scope) or scope.startswith(touch.path.rstrip("/") + "/")
    places = [(anchor.path, anchor.name)]
    if moved_to or moved_name:
        places.append((moved_to or anchor.path, moved_name or anchor.name))
    for path, name in places:
        if not touch.covers(path):
            continue
        if not touch.name or anchor.kind is not AnchorKind.SYMBOL or _names_overlap(name, touch.name):
            return True
    return False


def parse_touches(git: GitRepo, paths: Iterable[str], *, base: str | None = None) -> list[Touch]:
    """User paths (``path``, ``folder/``, ``glob``, ``path::Symbol``) as touches.

    Relative paths start at ``base`` (the repository root by default).

    Raises:
        PathOutsideRepositoryError: A path that leaves the repository.
        UsageError: An empty path or symbol name.
    """
    touches = []
    for raw in paths:
        text = str(raw).strip()
        path, sep, name = text.partition("::")
        if sep and not name.strip():
            raise UsageError(f"{text!r}: expected PATH::QUALIFIED.NAME")
        if any(c in path for c in "*?["):
            norm = path[2:] if path.startswith("./") else path  # globs are from the root
        else:
            norm = git.normalize_path(path, base=base)
        touches.append(Touch(norm, name.strip()))
    return touches


# ===================================================================== git ranges


def _target_commit(git: GitRepo, snap: Snapshot) -> pygit2.Commit:
    return snap.commit if snap.commit is not None else git.head_commit()


def merge_base(git: GitRepo, rev: str, snap: Snapshot) -> str:
    """The commit a range ``rev...target`` starts from (like ``git diff rev...``).

    Raises:
        UnknownRevisionError: ``rev`` does not resolve.
        RepositoryError: git could not compute the merge base.
    """
    start = str(git.resolve(rev).id)
    return git.merge_base(start, str(_target_commit(git, snap).id)) or start


def changed_paths(git: GitRepo, base: str, snap: Snapshot) -> list[str]:
    """Every path changed between ``base`` and ``snap`` (old and new names of a
    rename), leaving out the ledger's own folder ``.memvet/``."""
    out: dict[str, None] = {}
    for change in git.changes(base, snap):
        if change.new_path.startswith(".memvet/") or change.old_path.startswith(".memvet/"):
            continue
        out.setdefault(change.old_path, None)
        out.setdefault(change.new_path, None)
    return list(out)


# ===================================================================== about


def _moves(verdict: Verdict) -> dict[int, tuple[str, str]]:
    """Where each of the verdict's anchors moved (path, name), by anchor identity."""
    return {id(c.anchor): (c.new_path, c.new_name) for c in verdict.checks}


def _touched_by(verdict: Verdict, touches: Sequence[Touch]) -> list[str]:
    """The specs of the verdict's anchors that ``touches`` touch."""
    moved = _moves(verdict)
    hits = []
    for anchor in verdict.decision.anchors:
        if any(anchor_touches(anchor, t, *moved.get(id(anchor), ("", ""))) for t in touches):
            hits.append(anchor.spec)
    return hits


def _where(snap: Snapshot) -> str:
    return "the working tree" if snap.commit is None else f"commit {snap.name[:12]}"


def _require_known(ledger: LedgerReads, touches: Sequence[Touch], snap: Snapshot,
                   verdicts: Sequence[Verdict]) -> None:
    """Refuse a touch that names nothing: a path that is neither in ``snap``
    nor any decision's anchor path, or a symbol that is neither in its file
    at ``snap`` nor any decision's anchored symbol (by its recorded name or
    the one it moved to).

    Raises:
        UsageError: Naming the first such touch.
    """
    anchored: set[str] = set()
    names: set[tuple[str, str]] = set()
    for verdict in verdicts:
        moved = _moves(verdict)
        for anchor in verdict.decision.anchors:
            new_path, new_name = moved.get(id(anchor), ("", ""))
            for path, name in ((anchor.path, anchor.name), (new_path or anchor.path, new_name or anchor.name)):
                if path:
                    anchored.add(path)
                    if anchor.kind is AnchorKind.SYMBOL:
                        names.add((path, name))
    listing: list[str] | None = None
    for touch in touches:
        glob = any(c in touch.path for c in "*?[")
        named = any(touch.covers(p) for p in anchored) or (not glob and snap.blob_id(touch.path) is not None)
        if not named:
            listing = snap.paths() if listing is None else listing
            if not any(touch.covers(p) for p in listing):
                what = "matches no file" if glob else "is no file or folder"
                raise UsageError(f"{str(touch)!r}: {touch.path} {what} in {_where(snap)}, "
                                 "and no decision is anchored there")
        if touch.name:
            _require_symbol(ledger, touch, snap, names)


def _require_symbol(ledger: LedgerReads, touch: Touch, snap: Snapshot, names: set[tuple[str, str]]) -> None:
    # The symbol, or a class holding one (touching Store touches Store.save).
    if any(touch.covers(path) and (name == touch.name or name.startswith(touch.name + "."))
           for path, name in names):
        return
    language = _code.language_for_path(touch.path)
    table = ledger.evidence.outline_at(touch.path, language, snap) if language else None
    if table is not None and touch.name in table.symbols:
        return
    raise UsageError(f"{str(touch)!r}: {touch.path} has no symbol {touch.name!r} in {_where(snap)}, "
                     "and no decision is anchored to one by that name")


def about(ledger: LedgerReads, paths: Iterable[str] = (), *, diff: str | None = None, at: str | None = None,
          include: Iterable[str] = GROUPS, base: str | None = None) -> Recall:
    """The decisions anchored in ``paths`` and/or in the files changed since ``diff``.

    Args:
        ledger: The ledger.
        paths: Files, folders, globs or ``path::Symbol`` specs.
        diff: A revision: add every file changed between it (its merge base
            with the target) and the target.
        at: The target (default: the working tree).
        include: Recall groups to return (``current``, ``caution``, ``history``).
        base: Folder that relative ``paths`` start from.

    Returns:
        A :class:`~memvet.Recall` whose ``query`` says what was touched; every
        item has score 1.0 and items keep the ledger's order (oldest first).

    Raises:
        UsageError: Neither ``paths`` nor ``diff`` given, a bad path, or a
            path, glob or ``path::Symbol`` that names nothing: neither in
            the target nor anchored by any decision (a symbol counts by its
            recorded name and by the one it moved to).
        UnknownRevisionError: ``diff`` or ``at`` does not resolve.
    """
    paths = list(paths)
    if not paths and diff is None:
        raise UsageError("about() needs paths, a diff revision, or both")
    include = check_include(include)
    snap = ledger.snapshot(at)
    touches = parse_touches(ledger.git, paths, base=base)
    labels = [f"touching {', '.join(str(t) for t in touches)}"] if touches else []
    verdicts = ledger.verdicts(ledger.decisions(), snap)
    _require_known(ledger, touches, snap, verdicts)
    if diff is not None:
        start = merge_base(ledger.git, diff, snap)
        touches += [Touch(p) for p in changed_paths(ledger.git, start, snap)]
        labels.append(f"changed since {diff}")
    pairs = [(v, 1.0) for v in verdicts if touches and _touched_by(v, touches)]
    return group_recall("; ".join(labels), snap.name, pairs, len(pairs), include)


def touched_anchors(verdict: Verdict, paths: Iterable[str], git: GitRepo, *,
                    base: str | None = None) -> list[str]:
    """The specs of ``verdict``'s anchors that ``paths`` touch (for display)."""
    return _touched_by(verdict, parse_touches(git, paths, base=base))


# ===================================================================== since


@dataclass(frozen=True)
class Impact:
    """One decision a revision range affects.

    Attributes:
        verdict: The verdict at the target.
        before: The status at the start of the range; ``None`` when the
            decision was recorded after it (or on another branch).
        paths: Anchored paths (recorded or moved-to) changed in the range.
    """

    verdict: Verdict
    before: Status | None
    paths: tuple[str, ...] = ()

    @property
    def status_changed(self) -> bool:
        """True when the status at the target differs from the one at the start."""
        return self.before is not None and self.before is not self.verdict.status

    def to_dict(self) -> dict[str, Any]:
        """The verdict's JSON, plus ``before`` and ``changed_paths``."""
        data = self.verdict.to_dict()
        data["before"] = self.before.value if self.before is not None else None
        data["changed_paths"] = list(self.paths)
        return data


@dataclass(frozen=True)
class ImpactReport:
    """What a revision range did to the ledger's decisions.

    Attributes:
        since: The revision as given.
        base: The commit the range starts from (merge base of ``since`` and the target).
        target: The target's name (a commit id or ``worktree``).
        changed: Paths changed in the range (ignored paths left out).
        impacts: The affected decisions, in ledger order.
    """

    since: str
    base: str
    target: str
    changed: tuple[str, ...]
    impacts: tuple[Impact, ...]


def _ignored(path: str, ignore: Sequence[str]) -> bool:
    return any(_glob_match(path, g) for g in ignore)


def changed_since(ledger: LedgerReads, since: str, at: str | None = None, *,
                  ignore: Sequence[str] = (), on_step: Callable[[], None] | None = None) -> ImpactReport:
    """The decisions whose evidence changed between ``since`` and ``at``.

    A decision is reported when an anchor's path (as recorded, or where it
    moved) changed in the range, or when its status at the start of the
    range differs from its status at the target.

    Args:
        ledger: The ledger.
        since: A revision (``origin/main``, a sha); the range starts at its
            merge base with the target.
        at: The target (default: the working tree).
        ignore: Path globs whose changes do not count.
        on_step: Called once per decision checked at the target, and once
            per decision at the start of the range (one recorded after it
            counts too, unchecked): ``2 * N`` calls for ``N`` decisions.

    Raises:
        UnknownRevisionError: ``since`` or ``at`` does not resolve.
    """
    git = ledger.git
    snap = ledger.snapshot(at)
    start = merge_base(git, since, snap)
    changed = tuple(p for p in changed_paths(git, start, snap) if not _ignored(p, ignore))
    touches = [Touch(p) for p in changed]
    step = (lambda _verdict: on_step()) if on_step is not None else None
    verdicts = ledger.check(at, on_verdict=step)
    # Only decisions recorded at or before the start have a status there.
    older = [v.decision for v in verdicts if v.decision.commit and git.is_ancestor(v.decision.commit, start)]
    before = {v.decision.id: v.status for v in ledger.verdicts(older, ledger.snapshot(start), on_verdict=step)}
    if on_step is not None:
        for _ in range(len(verdicts) - len(older)):
            on_step()
    impacts = []
    for verdict in verdicts:
        hits = _changed_anchor_paths(verdict, touches)
        impact = Impact(verdict, before.get(verdict.decision.id), tuple(hits))
        if hits or impact.status_changed:
            impacts.append(impact)
    return ImpactReport(since, start, snap.name, changed, tuple(impacts))


def _changed_anchor_paths(verdict: Verdict, touches: Sequence[Touch]) -> list[str]:
    moved = _moves(verdict)
    hits: dict[str, None] = {}
    for anchor in verdict.decision.anchors:
        for touch in touches:
            if anchor_touches(anchor, touch, *moved.get(id(anchor), ("", ""))):
                hits.setdefault(touch.path, None)
    return list(hits)


# ===================================================================== display


def ignored(verdict: Verdict, ignore: Sequence[str]) -> bool:
    """True when every path-bearing anchor of the verdict lies under an ignored glob."""
    if not ignore:
        return False
    paths = [a.path or a.scope for a in verdict.decision.anchors if a.path or a.scope]
    return bool(paths) and all(_ignored(p, ignore) for p in paths)

