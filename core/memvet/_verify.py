"""Turning anchor checks into one verdict per decision.

Lifecycle first (rejected, superseded), then evidence: no anchors is
``unanchored``; otherwise the anchors' results combine with the precedence
refuted > stale > needs_revalidation > verified, and the reason names every
anchor at the winning status.
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
from collections.abc import Callable, Iterable, Iterator

from memvet._anchors import QUOTE_INTACT, Evidence
from memvet._git import Snapshot
from memvet._model import (
    STATUS_PRECEDENCE,
    AnchorCheck,
    Decision,
    Lifecycle,
    RecallGroup,
    Status,
    Verdict,
)

__all__ = ["UNANCHORED_REASON", "Verifier", "collector_paused", "retire_request", "unconfirmed"]

UNANCHORED_REASON = "no evidence in the code; unconfirmed"


_pauses = 0
_resume = False
_pauses_lock = threading.Lock()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a batch of decisions is checked.

    A check of thousands of decisions keeps every record and many symbols
    alive, and the collector's full passes walk all of them again and
    again: at 5,000 decisions on sqlalchemy, 4-5 full passes took 0.9-1.2 s
    of a 10 s check (``benchmarks/verify_bench.py --spread``). What a check
    allocates is freed by reference counting; cycles made meanwhile wait for
    the next pass after it. Nested and concurrent pauses (threads) resume
    the collector when the last one ends, and only if it was on when the
    first began.
    """
    global _pauses, _resume
    with _pauses_lock:
        if _pauses == 0:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pauses_lock:
            _pauses -= 1
            if _pauses == 0 and _resume:
                gc.enable()


class Verifier:
    """Checks decisions at a snapshot, sharing one :class:`Evidence` (and its caches)."""

    def __init__(self, evidence: Evidence, *, clock: Callable[[], float] = time.time) -> None:
        self.evidence = evidence
        #: The time expiry is judged at when a call passes no ``now``.
        self.clock = clock

    def verdicts(self, decisions: Iterable[Decision], snap: Snapshot, now: float | None = None, *,
                 on_verdict: Callable[[Verdict], None] | None = None) -> list[Verdict]:
        """One verdict per decision, in order.

        Anchors are checked file by file rather than decision by decision:
        the symbol cache keeps the parse of the last few files only, so this
        order is what makes a batch parse each changed blob once, whatever
        the order of its decisions. The symbols missing from their paths are
        looked for together, not one by one (see ``Evidence.check_many``).

        Args:
            decisions: What to check, with their effective lifecycle.
            snap: The target.
            now: The time expiry is judged at (seconds since the epoch);
                default ``clock()``.
            on_verdict: Called with each verdict the moment its decision's
                last anchor is checked (decisions without anchors to check
                first), so a progress bar moves while the batch runs.
        """
        now = self.clock() if now is None else now
        decisions = list(decisions)
        out: list[Verdict] = []

        def done(verdict: Verdict) -> Verdict:
            served = _proposal(verdict)
            if on_verdict is not None:
                on_verdict(served)
            return served

        early = [self._without_evidence(d, snap.name, now) for d in decisions]
        served: dict[int, Verdict] = {i: done(v) for i, v in enumerate(early) if v is not None}  # reported first
        work = sorted(
            (a.path, i, j)
            for i, d in enumerate(decisions) if early[i] is None
            for j, a in enumerate(d.anchors)
        )
        # One batch: the move search for every missing anchor runs once
        # (memvet._moves), so verdicts are reported when the batch is done.
        found = self.evidence.check_many([(decisions[i].anchors[j], decisions[i].commit) for _, i, j in work],
                                         snap)
        checks: dict[tuple[int, int], AnchorCheck] = {
            (i, j): check for (_, i, j), check in zip(work, found, strict=True)}
        for i, d in enumerate(decisions):
            if i not in served:
                served[i] = done(self.combine(d, tuple(checks[i, j] for j in range(len(d.anchors))), snap.name, now))
            out.append(served[i])
        return out

    def verdict(self, decision: Decision, snap: Snapshot, now: float | None = None) -> Verdict:
        """The verdict of one decision at ``snap``."""
        early = self._without_evidence(decision, snap.name, now)
        if early is not None:
            return _proposal(early)
        checks = tuple(self.evidence.check_many([(a, decision.commit) for a in decision.anchors], snap))
        return _proposal(self.combine(decision, checks, snap.name, now))

    def _without_evidence(self, decision: Decision, target: str, now: float | None) -> Verdict | None:
        """The verdict when no anchor needs checking (lifecycle, no anchors)."""
        if decision.lifecycle is Lifecycle.REJECTED:
            return Verdict(decision, Status.REJECTED, decision.reason or "no reason given", target=target)
        if decision.lifecycle is Lifecycle.SUPERSEDED:
            why = decision.reason or "no reason given"
            return Verdict(decision, Status.SUPERSEDED, f"superseded by {decision.superseded_by}: {why}",
                           target=target)
        if not decision.anchors:
            expired = self._expired(decision, now)
            if expired:
                return Verdict(decision, Status.NEEDS_REVALIDATION, expired, target=target)
            return Verdict(decision, Status.UNANCHORED, UNANCHORED_REASON, target=target)
        return None

    def combine(self, decision: Decision, checks: tuple[AnchorCheck, ...], target: str,
                now: float | None = None) -> Verdict:
        """The verdict implied by a set of anchor checks."""
        by_status: dict[Status, list[str]] = {}
        for check in checks:
            by_status.setdefault(check.result.status, []).append(check.detail)
        expired = self._expired(decision, now)
        if expired:
            by_status.setdefault(Status.NEEDS_REVALIDATION, []).append(expired)
        for status in STATUS_PRECEDENCE:
            if status in by_status:
                if status is Status.VERIFIED:
                    n = len(checks)
                    reason = "its anchor holds" if n == 1 else f"all {n} anchors hold"
                    # A quote that held through a rewrite is worth saying.
                    quoted = [c.detail for c in checks if c.anchor.quote and c.detail.endswith(QUOTE_INTACT)]
                    if quoted:
                        reason += ": " + "; ".join(quoted)
                else:
                    reason = "; ".join(by_status[status])
                return Verdict(decision, status, reason, checks, target)
        raise AssertionError("unreachable: a decision with anchors yields at least one status")

    def _expired(self, decision: Decision, now: float | None) -> str:
        if not decision.expires_at:
            return ""
        now = self.clock() if now is None else now
        if now < decision.expires_at:
            return ""
        when = time.strftime("%Y-%m-%d", time.gmtime(decision.expires_at))
        return f"the decision expired on {when}; confirm it still holds"


def _proposal(verdict: Verdict) -> Verdict:
    """A proposal is never served as current, whatever its evidence says:
    its status is ``proposed`` and the reason carries the evidence verdict.
    Nor is an active decision with an open finding of the write path (see
    :func:`unconfirmed`), or one an agent asked to retire (see
    :func:`retire_request`)."""
    decision = verdict.decision
    if decision.lifecycle is Lifecycle.ACTIVE:
        if decision.findings:
            verdict = _demoted(verdict, unconfirmed(decision))
        if decision.retire_reason:
            verdict = _demoted(verdict, retire_request(decision))
        return verdict
    if decision.lifecycle is not Lifecycle.PROPOSED:
        return verdict
    doubts = f"{unconfirmed(decision)}; " if decision.findings else ""
    return Verdict(decision, Status.PROPOSED,
                   f"not yet reviewed; {doubts}its evidence: {verdict.status.value} ({verdict.reason})",
                   verdict.checks, verdict.target)


def unconfirmed(decision: Decision) -> str:
    """The write path's open findings on ``decision`` as one reason (``""``
    when there are none)."""
    if not decision.findings:
        return ""
    return "unconfirmed: " + "; ".join(decision.findings)


def retire_request(decision: Decision) -> str:
    """The open request of an agent to retire ``decision``, as a reason
    (``""`` when there is none)."""
    if not decision.retire_reason:
        return ""
    act = f"superseding this with {decision.retire_with}" if decision.retire_with else "retiring this"
    return (f"an agent ({decision.retire_by or '?'}) proposes {act}: {decision.retire_reason}; "
            f"a person approves or declines it (memvet review)")


def _demoted(verdict: Verdict, doubt: str) -> Verdict:
    """``verdict`` with a doubt no anchor check can settle (a finding, an
    agent's retire request): what its evidence says holds is served under
    caution as needing revalidation, with the doubt as the reason; a worse
    verdict keeps its status and gains the doubt."""
    if verdict.status.group is RecallGroup.CURRENT or verdict.status is Status.UNANCHORED:
        return Verdict(verdict.decision, Status.NEEDS_REVALIDATION,
                       f"{doubt}; its evidence: {verdict.status.value} ({verdict.reason})",
                       verdict.checks, verdict.target)
    return Verdict(verdict.decision, verdict.status, f"{verdict.reason}; also, {doubt}",
                   verdict.checks, verdict.target)
