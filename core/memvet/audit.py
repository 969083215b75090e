"""Audit a ledger: what the memory believes, what drifted, when, and why.

Every function takes an open :class:`memvet.Ledger` and returns plain rows
(frozen dataclasses, or lists of them) that a notebook, the CLI or a report
can render. Nothing here writes to the ledger or to git. pandas is optional:
:func:`to_frame` imports it only when called.

    >>> from memvet import audit
    >>> rows = audit.status_table(ledger, at="HEAD")           # doctest: +SKIP
    >>> audit.status_summary(ledger)                            # doctest: +SKIP
    >>> tl = audit.timeline(ledger, last=200, progress=tqdm)    # doctest: +SKIP
    >>> audit.drift(ledger)                                     # doctest: +SKIP
    >>> audit.chains(ledger)                                    # doctest: +SKIP
    >>> audit.not_revalidated(ledger, older_than=timedelta(days=90))  # doctest: +SKIP
    >>> audit.reversal_audit(ledger)                            # doctest: +SKIP

History walks follow first parents from the target, and reuse the ledger's
:class:`~memvet._anchors.Evidence`, whose symbol cache is content addressed:
checking 200 commits parses each distinct blob once.

Limits of looking back: a decision is checked with the anchors it has now
(a revalidation re-baselines them), and its lifecycle (approved, superseded,
rejected) is applied from the commit its receipt was written at.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pygit2

from memvet._anchors import is_text, recorded_file
from memvet._errors import UsageError
from memvet._excerpt import body_lines, diff_lines
from memvet._git import GitRepo
from memvet._ledger import Ledger
from memvet._model import (
    WORKTREE,
    AnchorCheck,
    AnchorKind,
    AnchorResult,
    Decision,
    Lifecycle,
    Receipt,
    Status,
    Verdict,
)

__all__ = [
    "ALL_TAGS",
    "DRIFT_STATUSES",
    "STATUS_ORDER",
    "UNTAGGED",
    "AnchorDiff",
    "Chain",
    "ChainLink",
    "CommitRow",
    "DecisionStatus",
    "Drift",
    "Reversal",
    "StatusCount",
    "Timeline",
    "TimelineCell",
    "Unrevalidated",
    "chains",
    "drift",
    "first_parent_commits",
    "not_revalidated",
    "reversal_audit",
    "status_summary",
    "status_table",
    "summarize",
    "symbol_diff",
    "timeline",
    "to_frame",
]

log = logging.getLogger(__name__)

#: Statuses in display order (best first); a heat map's colour scale.
STATUS_ORDER: tuple[Status, ...] = (
    Status.VERIFIED, Status.PROPOSED, Status.UNANCHORED, Status.NEEDS_REVALIDATION, Status.STALE,
    Status.REFUTED, Status.SUPERSEDED, Status.REJECTED,
)

#: Statuses that mean "the evidence moved away from an active decision".
DRIFT_STATUSES: frozenset[Status] = frozenset(
    {Status.STALE, Status.REFUTED, Status.NEEDS_REVALIDATION}
)

#: Tag under which untagged decisions are counted.
UNTAGGED = "(untagged)"
#: Tag of the rows that count every decision once.
ALL_TAGS = "(all)"

Progress = Callable[[Sequence[Any]], Iterable[Any]]


# ===================================================================== rows


@dataclass(frozen=True)
class DecisionStatus:
    """One decision's status at one target.

    Attributes:
        id: Decision id.
        claim: The claim.
        status: Status value (``verified``, ``stale``...).
        group: Recall group: ``current``, ``caution`` or ``history``.
        reason: Why, as a read reports it.
        lifecycle: Stored lifecycle (``proposed``, ``active``, ``superseded``, ``rejected``).
        tags: Free labels.
        author: Who recorded it.
        commit: Commit it was recorded at.
        created_at: When it was recorded (seconds since the epoch).
        anchors: Anchor specs, as a user writes them.
        author_kind: ``person`` or ``agent`` (``""``: recorded before author kinds).
    """

    id: str
    claim: str
    status: str
    group: str
    reason: str
    lifecycle: str
    tags: tuple[str, ...]
    author: str
    commit: str
    created_at: float
    anchors: tuple[str, ...]
    author_kind: str = ""


@dataclass(frozen=True)
class StatusCount:
    """How many decisions with ``tag`` have ``status`` (tag ``(all)``: every decision once)."""

    tag: str
    status: str
    count: int


@dataclass(frozen=True)
class CommitRow:
    """One commit of a walked history.

    Attributes:
        sha: Full commit id.
        short: First 8 characters.
        summary: First line of the message.
        time: Commit time (seconds since the epoch).
        index: Position in the walk, oldest first (0-based).
    """

    sha: str
    short: str
    summary: str
    time: float
    index: int


@dataclass(frozen=True)
class TimelineCell:
    """One decision at one commit; ``status`` is ``""`` before it was recorded."""

    commit: str
    index: int
    decision_id: str
    status: str
    reason: str


@dataclass(frozen=True)
class Timeline:
    """The status of every decision at each walked commit.

    Attributes:
        target: The commit the walk started from.
        commits: Walked commits, oldest first.
        decisions: Decisions, oldest first (rows of the grid).
        cells: One cell per decision and commit, commit-major.
        seconds: Wall time of the walk.
        parses: Symbol tables parsed during the walk (cache misses).
    """

    target: str
    commits: tuple[CommitRow, ...]
    decisions: tuple[Decision, ...]
    cells: tuple[TimelineCell, ...]
    seconds: float
    parses: int

    def grid(self) -> list[list[str]]:
        """Statuses as a decisions x commits grid (``""`` before a decision existed)."""
        col = {c.sha: c.index for c in self.commits}
        row = {d.id: i for i, d in enumerate(self.decisions)}
        out = [[""] * len(self.commits) for _ in self.decisions]
        for cell in self.cells:
            out[row[cell.decision_id]][col[cell.commit]] = cell.status
        return out

    def labels(self, width: int = 48) -> list[str]:
        """A label per row of :meth:`grid`: id, who wrote it (a person or an
        agent) and the claim cut to ``width`` characters."""
        out = []
        for d in self.decisions:
            cut = d.claim[:width] + ("…" if len(d.claim) > width else "")
            out.append(f"{d.id[:6]} [{d.author_kind or '?'}] {cut}")
        return out


@dataclass(frozen=True)
class AnchorDiff:
    """How one anchor changed between the recorded commit and a later one.

    Attributes:
        spec: The anchor as a user writes it.
        kind: Anchor kind.
        result: Check result at the later commit (``changed``, ``missing``...).
        detail: The check's reason.
        diff: Unified diff of the anchored symbol (or file); ``""`` when the
            anchor has no body to compare (dependency, absence).
    """

    spec: str
    kind: str
    result: str
    detail: str
    diff: str


@dataclass(frozen=True)
class Drift:
    """A decision whose evidence drifted, and the commit where it first did.

    Attributes:
        id: Decision id.
        claim: The claim.
        status: Status at the target.
        reason: Reason at the target.
        recorded_commit: Commit the decision rests on.
        first_commit: First commit after it whose verdict is not verified
            (``""`` when none was found on the first-parent history).
        first_summary: That commit's message summary.
        first_time: That commit's time.
        first_status: The status at that commit.
        first_reason: The reason at that commit.
        commits_walked: How many commits were checked.
        diffs: The anchors that failed at ``first_commit``, with diffs.
        note: Why ``first_commit`` is empty, when it is.
    """

    id: str
    claim: str
    status: str
    reason: str
    recorded_commit: str
    first_commit: str
    first_summary: str
    first_time: float
    first_status: str
    first_reason: str
    commits_walked: int
    diffs: tuple[AnchorDiff, ...]
    note: str = ""


@dataclass(frozen=True)
class ChainLink:
    """One decision in a supersede chain.

    Attributes:
        id: Decision id.
        claim: The claim.
        lifecycle: Stored lifecycle.
        reason: Why it was superseded or rejected (``""`` for the live end).
        author: Who recorded it.
        created_at: When it was recorded.
        resolved_at: When it was superseded or rejected (0 when active).
        author_kind: ``person`` or ``agent`` (``""``: before author kinds).
    """

    id: str
    claim: str
    lifecycle: str
    reason: str
    author: str
    created_at: float
    resolved_at: float
    author_kind: str = ""


@dataclass(frozen=True)
class Chain:
    """Decisions linked by ``supersedes``, oldest first.

    A rejected decision that nothing superseded is a chain of one.
    ``status`` is the status of the last link at the target.
    """

    links: tuple[ChainLink, ...]
    status: str

    @property
    def head(self) -> ChainLink:
        """The newest link (the one in force, or the last rejected)."""
        return self.links[-1]


@dataclass(frozen=True)
class Unrevalidated:
    """An active decision nobody has recorded, confirmed or revalidated lately.

    Attributes:
        id: Decision id.
        claim: The claim.
        status: Status at the target.
        last_action: The newest receipt's action (``record``, ``confirm``,
            ``revalidate``, ``approve``).
        last_at: Its time (seconds since the epoch).
        age_days: Days between ``last_at`` and ``now``.
    """

    id: str
    claim: str
    status: str
    last_action: str
    last_at: float
    age_days: float


@dataclass(frozen=True)
class Reversal:
    """A superseded or rejected decision recalled by its own claim.

    Attributes:
        id: Decision id.
        claim: The claim (also the query).
        status: ``superseded`` or ``rejected``.
        returned_in: Recall group it came back in (``""`` when it did not).
        rank: 1-based similarity rank among all recalled items (0 when absent).
        text: The framed text an agent would read.
        only_history: True when it came back only as history (the audit passes).
        successor: Id of the decision that superseded it (``""`` if none).
        successor_in: Recall group the successor came back in (``""`` if absent).
    """

    id: str
    claim: str
    status: str
    returned_in: str
    rank: int
    text: str
    only_history: bool
    successor: str
    successor_in: str


# ===================================================================== status


def _row(verdict: Verdict) -> DecisionStatus:
    d = verdict.decision
    return DecisionStatus(
        id=d.id, claim=d.claim, status=verdict.status.value, group=verdict.status.group,
        reason=verdict.reason, lifecycle=d.lifecycle.value, tags=d.tags, author=d.author,
        commit=d.commit, created_at=d.created_at, anchors=tuple(a.spec for a in d.anchors),
        author_kind=d.author_kind,
    )


def status_table(ledger: Ledger, at: str | None = "HEAD") -> list[DecisionStatus]:
    """Every decision with its status at ``at``, oldest first.

    Args:
        ledger: The ledger to audit.
        at: Any revision, or ``None``/``"worktree"`` for the working tree.

    Returns:
        One row per decision.
    """
    return [_row(v) for v in ledger.check(at=at)]


def summarize(rows: Iterable[DecisionStatus]) -> list[StatusCount]:
    """Count rows by tag and status.

    A decision counts once under each of its tags (``(untagged)`` when it has
    none), and once more under ``(all)``.

    Args:
        rows: Rows from :func:`status_table`.

    Returns:
        Counts sorted by tag (``(all)`` first), then status in
        :data:`STATUS_ORDER`.
    """
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        for tag in (ALL_TAGS, *(row.tags or (UNTAGGED,))):
            counts[(tag, row.status)] = counts.get((tag, row.status), 0) + 1
    order = {s.value: i for i, s in enumerate(STATUS_ORDER)}
    keys = sorted(counts, key=lambda k: (k[0] != ALL_TAGS, k[0], order.get(k[1], len(order))))
    return [StatusCount(tag, status, counts[(tag, status)]) for tag, status in keys]


def status_summary(ledger: Ledger, at: str | None = "HEAD") -> list[StatusCount]:
    """Decisions by tag and status at ``at``: :func:`summarize` of :func:`status_table`."""
    return summarize(status_table(ledger, at))


# ===================================================================== history


def _commit_row(commit: pygit2.Commit, index: int) -> CommitRow:
    sha = str(commit.id)
    summary = commit.message.split("\n", 1)[0].strip()
    return CommitRow(sha, sha[:8], summary, float(commit.commit_time), index)


def _walk(git: GitRepo, at: str | None, last: int | None,
          stop: str | None = None) -> list[pygit2.Commit]:
    """First-parent commits from ``at`` back, newest first; stops after
    ``last`` commits or at ``stop`` (included)."""
    head = git.resolve(None if at in (None, WORKTREE) else at)
    walker = git.repo.walk(head.id, pygit2.enums.SortMode.NONE)
    walker.simplify_first_parent()
    out: list[pygit2.Commit] = []
    for commit in walker:
        if last is not None and len(out) >= last:
            break
        out.append(commit)
        if stop is not None and str(commit.id) == stop:
            break
    return out


def first_parent_commits(ledger: Ledger, at: str | None = "HEAD", last: int = 200) -> list[CommitRow]:
    """The last ``last`` first-parent commits up to ``at``, oldest first.

    Args:
        ledger: The ledger whose repository to walk.
        at: Where the walk starts (the working tree means ``HEAD``).
        last: How many commits at most.

    Raises:
        UnknownRevisionError: ``at`` does not name a commit.
        UsageError: ``last`` is below 1.
    """
    _require_positive(last)
    commits = _walk(ledger.git, at, last)
    commits.reverse()
    return [_commit_row(c, i) for i, c in enumerate(commits)]


def _require_positive(last: int) -> None:
    if last < 1:
        raise UsageError(f"last must be 1 or more, not {last}")


class _Positions:
    """Where a commit falls on a walked first-parent chain (oldest first).

    ``of(sha)`` is the index of ``sha`` on the chain; for a commit off the
    chain, the index of the first chain commit that descends from it minus
    one half; ``-1`` when the whole chain descends from it, ``inf`` when none
    does, ``None`` when the commit is unknown (then it never hides a cell).
    """

    def __init__(self, repo: pygit2.Repository, chain: Sequence[pygit2.Commit]) -> None:
        self.repo = repo
        self.chain = list(chain)
        self.index = {str(c.id): i for i, c in enumerate(self.chain)}
        self._memo: dict[str, float | None] = {}

    def of(self, sha: str) -> float | None:
        if not sha:
            return None
        if sha in self.index:
            return float(self.index[sha])
        if sha in self._memo:
            return self._memo[sha]
        found = self._search(sha)
        self._memo[sha] = found
        return found

    def _search(self, sha: str) -> float | None:
        try:
            oid = pygit2.Oid(hex=sha)
            if not isinstance(self.repo.get(oid), pygit2.Commit):
                return None
        except (ValueError, pygit2.GitError):
            return None
        lo, hi = 0, len(self.chain)  # first chain index that descends from sha
        while lo < hi:
            mid = (lo + hi) // 2
            if self.repo.descendant_of(self.chain[mid].id, oid):
                hi = mid
            else:
                lo = mid + 1
        if lo == len(self.chain):
            return float("inf")
        return -1.0 if lo == 0 else lo - 0.5


def _lifecycle_commits(ledger: Ledger, decisions: Sequence[Decision]) -> dict[str, str]:
    """decision id → the commit its supersede/reject receipt was written at."""
    wanted = {d.id for d in decisions if d.lifecycle is not Lifecycle.ACTIVE}
    out: dict[str, str] = {}
    if not wanted:
        return out
    for receipt in ledger.log():
        if receipt.decision_id in wanted and receipt.action in ("supersede", "reject"):
            out[receipt.decision_id] = receipt.commit
    by_id = {d.id: d for d in decisions}
    for d in decisions:  # a supersede whose second write never landed: the successor's commit
        if d.id in wanted and d.id not in out and d.superseded_by in by_id:
            out[d.id] = by_id[d.superseded_by].commit
    return out


def _approvals(ledger: Ledger, decisions: Sequence[Decision]) -> dict[str, str | None]:
    """decision id → the commit its approval receipt was written at, for
    every decision that began as a proposal (``None``: never approved)."""
    out: dict[str, str | None] = {}
    for receipt in ledger.log():
        if receipt.action == "propose":
            out.setdefault(receipt.decision_id, None)
        elif receipt.action == "approve":
            out[receipt.decision_id] = receipt.commit
    for d in decisions:  # a proposal whose receipt is missing still began as one
        if d.lifecycle is Lifecycle.PROPOSED:
            out.setdefault(d.id, None)
    return out


def _as_active(decision: Decision) -> Decision:
    return decision.evolve(lifecycle=Lifecycle.ACTIVE, superseded_by="", reason="", resolved_at=0.0)


def _as_proposed(decision: Decision) -> Decision:
    return decision.evolve(lifecycle=Lifecycle.PROPOSED, superseded_by="", reason="", resolved_at=0.0)


def timeline(ledger: Ledger, at: str | None = "HEAD", last: int = 200, *,
             progress: Progress | None = None) -> Timeline:
    """The status of every decision at each of the last ``last`` commits.

    Walks first parents from ``at`` and checks every decision at each commit
    with the ledger's own verifier, so the content-addressed symbol cache
    serves every blob seen before. Before the commit a decision was recorded
    at, its cell is empty; its lifecycle (superseded, rejected) applies from
    the commit its receipt names; a decision that began as a proposal is
    ``proposed`` until the commit its approval receipt names; expiry is
    judged at each commit's time.

    Args:
        ledger: The ledger to audit.
        at: Where the walk starts (the working tree means ``HEAD``).
        last: How many commits at most.
        progress: Wraps the list of commits to walk, e.g. ``tqdm.tqdm``.

    Returns:
        The timeline, with how long it took and how many tables were parsed.

    Raises:
        UnknownRevisionError: ``at`` does not name a commit.
        UsageError: ``last`` is below 1.
    """
    _require_positive(last)
    started = time.perf_counter()
    parses = ledger.parses
    chain = _walk(ledger.git, at, last)
    chain.reverse()
    decisions = ledger.decisions()
    positions = _Positions(ledger.git.repo, chain)
    recorded = {d.id: positions.of(d.commit) for d in decisions}
    acted = {k: positions.of(v) for k, v in _lifecycle_commits(ledger, decisions).items()}
    approved = {k: positions.of(v) if v else None for k, v in _approvals(ledger, decisions).items()}
    active = {d.id: _as_active(d) for d in decisions}
    proposed = {d.id: _as_proposed(d) for d in decisions if d.id in approved}
    cells: list[TimelineCell] = []
    walk: Iterable[pygit2.Commit] = progress(chain) if progress is not None else chain
    for index, commit in enumerate(walk):
        snap = ledger.git.snapshot(str(commit.id))
        todo: list[Decision] = []
        for d in decisions:
            rec = recorded[d.id]
            if rec is not None and index < rec:
                continue
            act = acted.get(d.id)
            lifecycle_applies = d.lifecycle is not Lifecycle.ACTIVE and (act is None or index >= act)
            approval = approved.get(d.id)
            if lifecycle_applies:
                todo.append(d)
            elif d.id in proposed and (approval is None or index < approval):
                todo.append(proposed[d.id])  # a proposal until the commit its approval names
            else:
                todo.append(active[d.id])
        verdicts = {v.decision.id: v for v in
                    ledger.verdicts(todo, snap, now=float(commit.commit_time))}
        for d in decisions:
            v = verdicts.get(d.id)
            cells.append(TimelineCell(
                snap.name, index, d.id, v.status.value if v else "", v.reason if v else "",
            ))
    seconds = time.perf_counter() - started
    parsed = ledger.parses - parses
    log.info("timeline: %d decisions x %d commits in %.3f s (%d symbol tables parsed)",
             len(decisions), len(chain), seconds, parsed)
    target = str(chain[-1].id) if chain else ""
    return Timeline(target, tuple(_commit_row(c, i) for i, c in enumerate(chain)), tuple(decisions),
                    tuple(cells), seconds, parsed)


# ===================================================================== drift


def symbol_diff(ledger: Ledger, check: AnchorCheck, recorded_commit: str, commit: str) -> str:
    """Unified diff of an anchor between its recorded blob and ``commit``.

    For a symbol anchor, the symbol's span (decorators, signature, body) in
    the recorded blob against the span at ``commit`` (following a move);
    for a file anchor, the whole file. Other anchors have no body: ``""``.

    Args:
        ledger: The ledger (its cache parses each blob at most once).
        check: The anchor's check at ``commit``.
        recorded_commit: The decision's recorded commit (diff label).
        commit: The later commit.

    Returns:
        The diff, or a one-line note when the content is not text.
    """
    a = check.anchor
    if a.kind not in (AnchorKind.SYMBOL, AnchorKind.FILE):
        return ""
    evidence = ledger.evidence
    snap = ledger.git.snapshot(commit)
    new_path = check.new_path or a.path
    old_data = recorded_file(ledger.git, a, recorded_commit).data
    new_data = snap.read(new_path)
    if any(d is not None and not is_text(d) for d in (old_data, new_data)):
        return f"({a.spec}: not text; no diff)"
    new_name = check.new_name or a.name
    new_label = f"{new_path} @ {commit[:8]}" if a.kind is AnchorKind.FILE else f"{new_path}::{new_name} @ {commit[:8]}"
    old = body_lines(evidence, a, old_data) or []
    new = body_lines(evidence, a, new_data, new_name) or []
    return "\n".join(diff_lines(old, new, f"{a.spec} @ {recorded_commit[:8]}", new_label))


def _first_drift(ledger: Ledger, decision: Decision, at: str | None
                 ) -> tuple[pygit2.Commit | None, Verdict | None, int, str]:
    """Walk forward from the recorded commit to ``at``: the first commit
    whose verdict is not verified, its verdict, commits checked, a note."""
    if not ledger.git.has_commit(decision.commit):
        return None, None, 0, f"the recorded commit {decision.commit[:12]} is not in this repository"
    chain = _walk(ledger.git, at, None, stop=decision.commit)
    if str(chain[-1].id) != decision.commit:
        # Recorded off the first-parent line (a merged branch): keep its descendants.
        oid = pygit2.Oid(hex=decision.commit)
        chain = [c for c in chain if ledger.git.repo.descendant_of(c.id, oid)]
        if not chain:
            return None, None, 0, f"the recorded commit {decision.commit[:12]} is not behind the target"
    else:
        chain.pop()  # the recorded commit itself: the baseline
    chain.reverse()
    probe = _as_active(decision)
    for n, commit in enumerate(chain, start=1):
        snap = ledger.git.snapshot(str(commit.id))
        verdict = ledger.verdicts([probe], snap, now=float(commit.commit_time))[0]
        if verdict.status is not Status.VERIFIED:
            return commit, verdict, n, ""
    return None, None, len(chain), "verified at every commit; the drift is in the working tree or due to expiry"


def drift(ledger: Ledger, at: str | None = "HEAD",
          statuses: Iterable[Status] = DRIFT_STATUSES) -> list[Drift]:
    """Each drifted decision, the commit its evidence first changed, and the diff.

    A decision drifted when it is active, has anchors, and its status at
    ``at`` is one of ``statuses``. From its recorded commit the first-parent
    history is walked forward to ``at``; the first commit whose verdict is not
    verified is where its evidence first changed. The anchors that failed
    there come with a unified diff of the anchored symbol.

    Args:
        ledger: The ledger to audit.
        at: Any revision, or ``None``/``"worktree"`` (walks from ``HEAD``).
        statuses: Which statuses count as drift.

    Returns:
        One row per drifted decision, oldest decision first.
    """
    wanted = set(statuses)
    out: list[Drift] = []
    for verdict in ledger.check(at=at):
        d = verdict.decision
        if verdict.status not in wanted or not d.anchors or d.lifecycle is not Lifecycle.ACTIVE:
            continue
        commit, first, walked, note = _first_drift(ledger, d, at)
        diffs: tuple[AnchorDiff, ...] = ()
        if commit is not None and first is not None:
            sha = str(commit.id)
            diffs = tuple(
                AnchorDiff(c.anchor.spec, c.anchor.kind.value, c.result.value, c.detail,
                           symbol_diff(ledger, c, d.commit, sha))
                for c in first.checks if c.result is not AnchorResult.HOLDS
            )
            log.debug("decision %s first drifted at %s", d.id, sha[:8])
        out.append(Drift(
            id=d.id, claim=d.claim, status=verdict.status.value, reason=verdict.reason,
            recorded_commit=d.commit,
            first_commit=str(commit.id) if commit is not None else "",
            first_summary=commit.message.split("\n", 1)[0].strip() if commit is not None else "",
            first_time=float(commit.commit_time) if commit is not None else 0.0,
            first_status=first.status.value if first is not None else "",
            first_reason=first.reason if first is not None else "",
            commits_walked=walked, diffs=diffs, note=note,
        ))
    return out


# ===================================================================== lifecycle


def _link(d: Decision) -> ChainLink:
    return ChainLink(d.id, d.claim, d.lifecycle.value, d.reason if d.lifecycle is not Lifecycle.ACTIVE else "",
                     d.author, d.created_at, d.resolved_at, d.author_kind)


def chains(ledger: Ledger, at: str | None = "HEAD") -> list[Chain]:
    """Rejected and superseded decisions, followed along ``supersedes``.

    Args:
        ledger: The ledger to audit.
        at: Where the status of each chain's newest link is read.

    Returns:
        One chain per lineage that has a superseded or rejected decision,
        oldest link first; chains ordered by their first link.
    """
    verdicts = {v.decision.id: v for v in ledger.check(at=at)}
    decisions = [v.decision for v in verdicts.values()]
    by_id = {d.id: d for d in decisions}
    # A successor is the one a superseded decision names: a proposal that
    # points at a decision replaces nothing until it is approved.
    successor = {d.id: by_id[d.superseded_by] for d in decisions if d.superseded_by in by_id}
    out: list[Chain] = []
    for d in decisions:
        if d.supersedes in by_id and by_id[d.supersedes].superseded_by == d.id:
            continue  # not the start of a lineage
        if d.id not in successor and d.lifecycle in (Lifecycle.ACTIVE, Lifecycle.PROPOSED):
            continue  # never reversed
        links = [d]
        # Each decision supersedes at most one, so from a start (whose
        # predecessor is unknown) the walk never loops.
        while links[-1].id in successor:
            links.append(successor[links[-1].id])
        out.append(Chain(tuple(_link(x) for x in links), verdicts[links[-1].id].status.value))
    return out


def _last_receipts(receipts: Iterable[Receipt]) -> dict[str, Receipt]:
    last: dict[str, Receipt] = {}
    for r in receipts:
        if r.decision_id not in last or r.at >= last[r.decision_id].at:
            last[r.decision_id] = r
    return last


def not_revalidated(ledger: Ledger, older_than: timedelta | float = timedelta(days=90), *,
                    at: str | None = "HEAD", now: float | None = None) -> list[Unrevalidated]:
    """Active decisions whose newest receipt is older than ``older_than``.

    Args:
        ledger: The ledger to audit.
        older_than: Threshold, as a ``timedelta`` or in days.
        at: Where their status is read.
        now: The time ages are measured at (seconds since the epoch);
            default the ledger's clock.

    Returns:
        The decisions, oldest receipt first.
    """
    limit = older_than.total_seconds() if isinstance(older_than, timedelta) else float(older_than) * 86400
    now = ledger.clock() if now is None else now
    last = _last_receipts(ledger.log())
    out: list[Unrevalidated] = []
    for v in ledger.check(at=at):
        d = v.decision
        if d.lifecycle is not Lifecycle.ACTIVE:
            continue
        receipt = last.get(d.id)
        action, when = (receipt.action, receipt.at) if receipt is not None else ("record", d.created_at)
        if now - when >= limit:
            out.append(Unrevalidated(d.id, d.claim, v.status.value, action, when, (now - when) / 86400))
    out.sort(key=lambda r: r.last_at)
    return out


def reversal_audit(ledger: Ledger, k: int = 5, at: str | None = "HEAD") -> list[Reversal]:
    """Recall every superseded or rejected decision by its own claim.

    The audit the field recommends: query for a decision you know was
    reversed and check that the old version comes back only as history
    (and, for a supersede, that the successor comes back too).

    Args:
        ledger: The ledger to audit.
        k: How many decisions each recall returns.
        at: The target of the recalls.

    Returns:
        One row per reversed decision, oldest first.
    """
    out: list[Reversal] = []
    for d in ledger.decisions():
        if d.lifecycle is Lifecycle.ACTIVE:
            continue
        result = ledger.recall(d.claim, k=k, at=at)
        items = sorted(result.items, key=lambda i: -i.score)  # nearest first
        groups_of: dict[str, str] = {}
        for item in items:
            groups_of.setdefault(item.id, item.group)
        rank, found = next(((i, it) for i, it in enumerate(items, start=1) if it.id == d.id), (0, None))
        returned = found.group if found is not None else ""
        out.append(Reversal(
            id=d.id, claim=d.claim, status=d.lifecycle.value, returned_in=returned, rank=rank,
            text=found.text if found is not None else "", only_history=returned == "history",
            successor=d.superseded_by, successor_in=groups_of.get(d.superseded_by, ""),
        ))
    return out


# ===================================================================== frames


def to_frame(rows: Iterable[Any]) -> Any:
    """A pandas ``DataFrame`` of rows (dataclasses or dicts).

    Tuples become comma-joined strings so the frame prints cleanly.

    Raises:
        ImportError: pandas is not installed (``pip install 'memvet[notebooks]'``).
    """
    try:
        pd = importlib.import_module("pandas")
    except ImportError as exc:
        raise ImportError("memvet.audit.to_frame needs pandas: pip install 'memvet[notebooks]'") from exc
    records = []
    for row in rows:
        is_row = dataclasses.is_dataclass(row) and not isinstance(row, type)
        data = dataclasses.asdict(row) if is_row else dict(row)
        records.append({k: ", ".join(map(str, v)) if isinstance(v, tuple | list) else v
                        for k, v in data.items()})
    return pd.DataFrame.from_records(records)
