"""The tool layer: what each MCP tool, resource and prompt does, without MCP.

:class:`MemvetTools` holds one ledger and answers every call with an
:class:`Answer`: the text an agent reads (the same framed text as
:func:`memvet.render_blocks` and :attr:`memvet.RecallItem.text`) and the
structured form (the core's ``to_dict()`` shapes). It never imports ``mcp``;
``_server`` wires these methods to the protocol, serializes them and turns a
:class:`memvet.MemvetError` into an error result with :func:`error_answer`.

Who acts: every write here is an agent's (:meth:`memvet.Author.agent`, named
after the MCP client): its records follow the review policy (proposals by
default), and its supersede or reject is a request that a person answers.
:meth:`MemvetTools.approve` and :meth:`MemvetTools.decline` are a person's
acts: the server calls them only with the answer the person gave in the
client's form (MCP elicitation), after showing them
:meth:`MemvetTools.approval_request`.

A new lifecycle tool is one method here and one registration in ``_server``:
the write options every write shares live in :meth:`MemvetTools._write_options`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import memvet
from memvet import (
    Author,
    ConflictError,
    Decision,
    Excerpt,
    Ledger,
    Lifecycle,
    MemvetError,
    NotAllowedError,
    Proposal,
    Recall,
    RecallItem,
    RecordResult,
    Status,
    UsageError,
    Verdict,
    agent_context,
    changed_since,
    excerpts,
    frame,
    one_line,
    render_blocks,
)

__all__ = ["GROUPS", "MAX_K", "Answer", "MemvetTools", "error_answer"]

#: The recall groups, in the order they are rendered.
GROUPS: tuple[str, ...] = tuple(memvet.RecallGroup)

#: Most decisions one recall returns (the bound of :func:`memvet.check_tool_k`,
#: the same in every adapter's tools).
MAX_K = memvet.TOOL_MAX_K

#: The agent's name when the MCP client did not say who it is.
DEFAULT_AGENT = "mcp-client"

#: Statuses that need no attention: ``only_problems`` leaves them out of a check.
_QUIET = (Status.VERIFIED, Status.SUPERSEDED, Status.REJECTED)


@dataclass(frozen=True)
class Answer:
    """What one call returns.

    Attributes:
        text: What the agent reads (framed, in band).
        data: The same as JSON-ready values (``structuredContent``).
        is_error: True when nothing was done and ``text`` says why.
    """

    text: str
    data: dict[str, Any] = field(default_factory=dict)
    is_error: bool = False


def _one_line(text: str) -> str:
    return one_line(" ".join(str(text).split()))


def error_answer(exc: MemvetError) -> Answer:
    """A :class:`memvet.MemvetError` as an error answer: its type and one-line message.

    A :class:`memvet.ConflictError` also lists the conflicting decisions and
    says to supersede them, since that is what the agent has to do next.
    """
    kind = type(exc).__name__
    message = _one_line(str(exc))
    data: dict[str, Any] = {"error": kind, "message": message}
    if isinstance(exc, ConflictError) and exc.conflicts:
        conflicts: list[Any] = list(exc.conflicts)
        ids = ", ".join(c.decision.id for c in conflicts)
        lines = [f"{kind}: not recorded: the claim conflicts with active decision(s) {ids}."]
        lines.extend(f"- [{c.decision.id}] ({c.status.value}; {c.why}) {_one_line(c.decision.claim)}"
                     for c in conflicts)
        lines.append("If your decision replaces one of them, call memvet_supersede (old_id, claim, reason); "
                     "if it is a separate decision, reword it or anchor it to different code.")
        data["conflicts"] = [c.to_dict() for c in conflicts]
        return Answer("\n".join(lines), data, is_error=True)
    return Answer(f"{kind}: {message}", data, is_error=True)


def _clean(values: Iterable[str] | None, what: str) -> list[str]:
    """Non-empty, stripped strings, in order, without repeats."""
    out: dict[str, None] = {}
    for value in values or ():
        if not isinstance(value, str):
            raise UsageError(f"{what} must be strings, not {type(value).__name__}")
        if value.strip():
            out.setdefault(value.strip(), None)
    return list(out)


def _record_text(result: RecordResult) -> str:
    decision = result.decision
    anchors = ", ".join(a.spec for a in decision.anchors) or "none (stored as unanchored: unconfirmed)"
    if result.outcome == "confirmed":
        what = "proposal" if decision.lifecycle is Lifecycle.PROPOSED else "decision"
        head = (f"Confirmed existing {what} {decision.id} (recorded before with the same anchors; "
                f"confirmations: {decision.confirmations}). Nothing new was added.")
    elif result.outcome == "proposed":
        head = (f"Proposed decision {decision.id}: a proposal, not yet a decision. It awaits review by a "
                f"person (memvet review and memvet approve {decision.id} in a terminal, or memvet_approve, "
                "which asks the person in this client); until then it is served as 'proposed, not yet "
                "reviewed', not as current.")
        if decision.supersedes:
            head += (f" Superseding is a request: {decision.supersedes} stays current until a person approves "
                     "or declines it (memvet review); meanwhile it is served under caution with your reason. "
                     f"If approved, {decision.id} supersedes it.")
    elif result.outcome == "superseded":
        head = (f"Recorded decision {decision.id}; it supersedes {decision.supersedes}, which is kept as "
                f"history.")
    else:
        head = f"Recorded decision {decision.id}."
    lines = [head, f"Anchors: {anchors}."]
    if result.conflicts:
        lines.append("It conflicts with active decision(s):")
        lines.extend(f"- [{c.decision.id}] ({c.status.value}; {c.why}) {_one_line(c.decision.claim)}"
                     for c in result.conflicts)
        lines.append("Supersede them with memvet_supersede (old_id, claim, reason) if this decision "
                     "replaces them.")
    lines.extend(f"Warning: {w}" for w in result.warnings)
    lines.extend(_finding_lines(result))
    return "\n".join(lines)


def _finding_lines(result: RecordResult) -> list[str]:
    """What the write path doubts about the claim, and what that means for it."""
    if not result.findings or result.outcome == "confirmed":
        return []
    return ["Findings (the claim is served as unconfirmed, not as current, until a person resolves them or "
            "the claim is corrected with memvet_supersede):",
            *(f"- {_one_line(f)}" for f in result.findings)]


def _record_data(result: RecordResult) -> dict[str, Any]:
    data = result.to_dict()
    data["claim"] = result.decision.claim
    data["supersedes"] = result.decision.supersedes
    data["tags"] = list(result.decision.tags)
    return data


def _verdict_line(verdict: Verdict) -> str:
    reason = verdict.reason or "all anchors hold"
    return f"[{verdict.id}] {verdict.status.value}: {_one_line(reason)} (claim: {_one_line(verdict.decision.claim)})"


def _counts(verdicts: Sequence[Verdict]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.status.value] = counts.get(v.status.value, 0) + 1
    return counts


def _summary(verdicts: Sequence[Verdict]) -> str:
    counts = _counts(verdicts)
    return ", ".join(f"{n} {status}" for status, n in counts.items()) or "none"


def _who(name: str, kind: str) -> str:
    """A stored author as ``name (person)`` / ``name (agent)``."""
    return f"{_one_line(name) or '?'} ({kind or 'kind not recorded'})"


def _review_state(decision: Decision) -> dict[str, str]:
    """What a person's answer is about: the decision's lifecycle and its open
    request. The answer counts only while these are as the person was shown."""
    return {"lifecycle": decision.lifecycle.value, "retire_by": decision.retire_by,
            "retire_reason": decision.retire_reason, "retire_with": decision.retire_with}


def _anchor_lines(verdict: Verdict, found: Sequence[Excerpt]) -> list[str]:
    """Each anchor of ``verdict`` with its check result, quote and code now
    (and the diff since it was recorded), as ``memvet_show`` renders them."""
    d = verdict.decision
    if not verdict.checks:
        return [f"- anchor: `{a.spec}` (as recorded; not checked for a closed decision)" for a in d.anchors]
    lines: list[str] = []
    for check, excerpt in zip(verdict.checks, found, strict=True):
        lines.append(f"- anchor: `{check.anchor.spec}` [{check.result.value}] {_one_line(check.detail)}")
        if check.anchor.quote:
            lines.append(f"  quote: `{_one_line(check.anchor.quote)}`")
        if excerpt.lines:
            lines += ["", f"  {excerpt.path}:{excerpt.start}", "  ```"]
            lines += [f"  {line}" for line in excerpt.lines]
            lines.append("  ```")
        if excerpt.diff:
            lines += ["", "  changed since recorded:", "  ```diff"]
            lines += [f"  {line}" for line in excerpt.diff]
            lines.append("  ```")
        if excerpt.omitted:
            lines.append(f"  ({excerpt.omitted} more lines not shown)")
        if excerpt.note:
            lines.append(f"  ({excerpt.note})")
    return lines


def _conflict_lines(proposal: Proposal) -> list[str]:
    lines = [f"- conflicts with active decision [{c.decision.id}] ({c.status.value}; {c.why}): "
             f"{_one_line(c.decision.claim)}" for c in proposal.conflicts]
    lines.extend(f"- warning: {_one_line(w)}" for w in proposal.warnings)
    return lines


def _filter_recall(recall: Recall, keep: Sequence[RecallItem]) -> Recall:
    chosen = {i.id for i in keep}
    groups = [tuple(i for i in getattr(recall, g) if i.id in chosen) for g in GROUPS]
    return Recall(recall.query, recall.target, *groups)


class MemvetTools:
    """The MCP tools, resources and prompt over one ledger, as plain methods.

    Every read verifies afresh at ``at`` (``None``: the working tree as it is
    at the moment of the call). Methods raise :class:`memvet.MemvetError`
    for what the agent can fix or must know; the server turns it into an
    error result. Not thread-safe: the server serializes calls.

    Args:
        ledger: The ledger every call reads and writes.
        at: Where to verify and resolve anchors: ``None`` for the working
            tree, or a revision.
        on_conflict: What ``record`` does with a claim that conflicts with an
            active decision: ``error`` (the default; refuse and name the
            conflicts, so the agent supersedes explicitly) or ``warn``.
        agent_writes: ``proposed`` or ``active`` to decide how the agent's
            new records are written; ``None`` (the default) leaves it to the
            ledger's policy (:attr:`memvet.Ledger.agent_writes`, read from
            the committed ``[tool.memvet] agent-writes``). Either way an
            agent's supersede or reject retires nothing on its own.
    """

    def __init__(self, ledger: Ledger, *, at: str | None = None, on_conflict: str = "error",
                 agent_writes: str | None = None) -> None:
        if on_conflict not in ("error", "warn"):
            raise UsageError(f"on_conflict must be 'error' or 'warn', not {on_conflict!r}")
        if agent_writes not in (None, "proposed", "active"):
            raise UsageError(f"agent_writes must be 'proposed' or 'active', not {agent_writes!r}")
        self.ledger = ledger
        self.at = at
        self.on_conflict = on_conflict
        #: How the agent's new records are written (for the tools' descriptions).
        self.agent_writes = agent_writes or ledger.agent_writes
        self._proposed = None if agent_writes is None else agent_writes == "proposed"

    def _write_options(self, agent: str) -> dict[str, Any]:
        """Keyword arguments every write passes to the ledger: the write is
        the agent's (the MCP client ``agent``), a proposal or not as the
        server was told, else as the ledger's policy says (``proposed=None``)."""
        return {"at": self.at, "proposed": self._proposed, "author": Author.agent(agent)}

    # ================================================================ reads

    def recall(self, query: str, k: int = 5, tags: Iterable[str] | None = None,
               paths: Iterable[str] | None = None) -> Answer:
        """The ``k`` decisions nearest to ``query``, verified and grouped.

        ``tags`` keeps decisions carrying any of the tags; ``paths`` keeps
        decisions anchored in those files, folders, globs or ``path::Symbol``
        specs. The core's recall has no such filter, so a filtered recall
        over-fetches (4k, then 4 times more) and filters the verified items.
        """
        memvet.check_tool_k(k)
        wanted_tags = set(_clean(tags, "tags"))
        wanted_paths = _clean(paths, "paths")
        if not wanted_tags and not wanted_paths:
            result = self.ledger.recall(query, k=k, at=self.at)
        else:
            result = self._filtered_recall(query, k, wanted_tags, wanted_paths)
        text = render_blocks(result)
        if wanted_tags or wanted_paths:
            where = "; ".join(part for part in (
                f"tags {', '.join(sorted(wanted_tags))}" if wanted_tags else "",
                f"anchored in {', '.join(wanted_paths)}" if wanted_paths else "") if part)
            text = (f"(filtered: {where})\n" + text) if text else ""
        data = result.to_dict()
        data["filters"] = {"tags": sorted(wanted_tags), "paths": wanted_paths}
        return Answer(text or f"No decisions recorded about {query!r}"
                      + (" that match the filters." if wanted_tags or wanted_paths else "."), data)

    def _filtered_recall(self, query: str, k: int, tags: set[str], paths: list[str]) -> Recall:
        allowed: set[str] | None = None
        if paths:
            allowed = {i.id for i in self.ledger.about(paths, at=self.at).items}

        def matches(item: RecallItem) -> bool:
            if allowed is not None and item.id not in allowed:
                return False
            return not tags or bool(tags & set(item.verdict.decision.tags))

        n = max(4 * k, 20)
        while True:
            full = self.ledger.recall(query, k=n, at=self.at)
            keep = [i for i in full.items if matches(i)]
            if len(keep) >= k or len(full.items) < n or (allowed is not None and not allowed):
                break
            n *= 4
        keep.sort(key=lambda i: -i.score)
        return _filter_recall(full, keep[:k])

    def check(self, ids: Iterable[str] | None = None, since: str | None = None,
              only_problems: bool = True) -> Answer:
        """Verdicts at the target: every decision, the given ids, or the
        decisions whose evidence changed since a revision."""
        wanted = _clean(ids, "ids")
        if wanted and since:
            raise UsageError("give ids or since, not both")
        if since is not None and not since.strip():
            raise UsageError("since must be a revision (a branch, tag or commit id)")
        target = self.ledger.snapshot(self.at).name
        data: dict[str, Any] = {"at": target}
        if since:
            report = changed_since(self.ledger, since.strip(), self.at)
            data.update({"since": report.since, "base": report.base, "changed": list(report.changed),
                         "verdicts": [i.to_dict() for i in report.impacts]})
            verdicts = [i.verdict for i in report.impacts]
            data["counts"] = _counts(verdicts)
            if not report.impacts:
                return Answer(f"No decision rests on what changed since {since} ({len(report.changed)} "
                              f"changed path(s)); nothing to re-check.", data)
            lines = [f"{len(report.impacts)} decision(s) rest on what changed since {since} "
                     f"(at {target}): {_summary(verdicts)}."]
            for impact in report.impacts:
                before = impact.before.value if impact.before is not None else "new"
                paths = f" [changed: {', '.join(impact.paths)}]" if impact.paths else ""
                lines.append(f"{_verdict_line(impact.verdict)} (was {before}){paths}")
            return Answer("\n".join(lines), data)
        verdicts = [self.ledger.verify(i, at=self.at) for i in wanted] if wanted else self.ledger.check(self.at)
        total = len(verdicts)
        data["counts"] = _counts(verdicts)
        shown = verdicts if wanted or not only_problems else [v for v in verdicts if v.status not in _QUIET]
        data["verdicts"] = [v.to_dict() for v in shown]
        if not shown:
            text = (f"All {total} decision(s) hold at {target} (verified, or closed as history)."
                    if total else "No decisions recorded yet.")
            return Answer(text, data)
        head = f"Checked {total} decision(s) at {target}: {_summary(verdicts)}."
        if len(shown) < total:
            head += f" Listing the {len(shown)} that need attention."
        return Answer("\n".join([head, *(_verdict_line(v) for v in shown)]), data)

    def about(self, paths: Iterable[str] | None = None, diff: str | None = None) -> Answer:
        """The decisions resting on ``paths`` and/or the files changed since ``diff``."""
        wanted = _clean(paths, "paths")
        if diff is not None and not diff.strip():
            raise UsageError("diff must be a revision (HEAD for your uncommitted changes)")
        result = self.ledger.about(wanted, diff=diff.strip() if diff else None, at=self.at)
        data = result.to_dict()
        if not result.items:
            return Answer(f"No decision rests on what you touch ({result.query}). Nothing recorded to keep "
                          "in mind; if you make a decision worth keeping, record it with memvet_record.", data)
        head = (f"Decisions resting on what you touch ({result.query}), re-checked against the code now. "
                "Keep the current ones; verify the cautioned ones in the code before relying on them; do "
                "not repeat the history.")
        return Answer(head + "\n" + render_blocks(result), data)

    def show(self, decision_id: str) -> Answer:
        """One decision: claim, status, reason, anchors with their code, receipts."""
        verdict = self.ledger.verify(decision_id, at=self.at)
        receipts = self.ledger.history(verdict.id)
        found = excerpts(self.ledger, verdict, self.at)
        d = verdict.decision
        data = verdict.to_dict()
        data.update({
            "text": frame(verdict), "lifecycle": d.lifecycle.value, "tags": list(d.tags), "author": d.author,
            "author_kind": d.author_kind,
            "created_at": d.created_at, "commit": d.commit, "supersedes": d.supersedes,
            "superseded_by": d.superseded_by, "confirmations": d.confirmations,
            "recorded_anchors": [a.to_dict() for a in d.anchors],
            "receipts": [r.to_dict() for r in receipts],
            "excerpts": [e.to_dict() for e in found],
        })
        lines = [f"# Decision {d.id}: {verdict.status.value}", "", frame(verdict), "",
                 f"- claim: {_one_line(d.claim)}",
                 f"- status: {verdict.status.value} ({_one_line(verdict.reason) or 'all anchors hold'})",
                 f"- recorded at commit {d.commit[:12]} by {_who(d.author, d.author_kind)}"]
        if d.tags:
            lines.append(f"- tags: {', '.join(d.tags)}")
        if d.supersedes:
            lines.append(f"- replaces: {d.supersedes}")
        if d.superseded_by:
            lines.append(f"- replaced by: {d.superseded_by}")
        lines.extend(_anchor_lines(verdict, found))
        if receipts:
            lines += ["", "History:"]
            lines.extend(f"- {r.action}: {r.from_lifecycle or '-'} -> {r.to_lifecycle}"
                         + (f": {_one_line(r.reason)}" if r.reason else "")
                         + (f" ({r.related})" if r.related else "") + f", by {_one_line(r.who)}"
                         for r in receipts)
        return Answer("\n".join(lines), data)

    def check_table(self) -> Answer:
        """Every decision's verdict as a Markdown table (the ``memvet://check`` resource)."""
        verdicts = self.ledger.check(self.at)
        target = self.ledger.snapshot(self.at).name
        lines = [f"# MemVet check at {target}", "", f"{len(verdicts)} decision(s): {_summary(verdicts)}.", ""]
        if verdicts:
            lines += ["| id | status | claim | reason |", "|---|---|---|---|"]
            for v in verdicts:
                cells = [v.id, v.status.value, _one_line(v.decision.claim), _one_line(v.reason) or "-"]
                lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        data = {"at": target, "counts": _counts(verdicts), "verdicts": [v.to_dict() for v in verdicts]}
        return Answer("\n".join(lines) + "\n", data)

    def context(self, paths: Iterable[str] | None = None) -> Answer:
        """The agent context: for ``paths``, what rests on them; without, every
        decision sorted for an agent (:func:`memvet.agent_context`)."""
        wanted = _clean(paths, "paths")
        if not wanted:
            found = agent_context(self.ledger, self.at)
            return Answer(found.to_markdown(), found.to_dict())
        answer = self.about(wanted)
        return Answer(f"Before you edit {', '.join(wanted)}: {answer.text}", answer.data)

    # ================================================================ writes

    def record(self, claim: str, anchors: Iterable[str] | None = None, tags: Iterable[str] | None = None,
               quotes: dict[str, str] | None = None, unbound: Iterable[str] | None = None, *,
               agent: str = DEFAULT_AGENT) -> Answer:
        """Record the agent's decision with its anchors (see :meth:`memvet.Ledger.record`);
        ``quotes`` maps an anchor, as written, to the code it says."""
        result = self.ledger.record(claim, memvet.quoted(_clean(anchors, "anchors"), quotes),
                                    tags=_clean(tags, "tags"), unbound=_clean(unbound, "unbound terms"),
                                    on_conflict=self.on_conflict, **self._write_options(agent))
        return Answer(_record_text(result), _record_data(result))

    def supersede(self, old_id: str, claim: str, reason: str, anchors: Iterable[str] | None = None,
                  tags: Iterable[str] | None = None, quotes: dict[str, str] | None = None,
                  unbound: Iterable[str] | None = None, *, agent: str = DEFAULT_AGENT) -> Answer:
        """Propose a replacement for an active decision: the agent's proposal,
        and a request on the old decision that a person approves or declines."""
        result = self.ledger.supersede(old_id, claim, memvet.quoted(_clean(anchors, "anchors"), quotes),
                                       reason=reason, tags=_clean(tags, "tags"),
                                       unbound=_clean(unbound, "unbound terms"), **self._write_options(agent))
        return Answer(_record_text(result), _record_data(result))

    def review(self) -> Answer:
        """What awaits a person: the proposals, each with its evidence and
        conflicts, and the agents' requests to retire active decisions."""
        proposals = self.ledger.proposals(self.at)
        requests = self.ledger.requests(self.at)
        data = {"proposals": [p.to_dict() for p in proposals],
                "requests": [{**v.to_dict(), "request": {"by": v.decision.retire_by,
                                                         "reason": v.decision.retire_reason,
                                                         "successor": v.decision.retire_with}}
                             for v in requests]}
        if not proposals and not requests:
            return Answer("No proposals or requests await review.", data)
        lines = []
        if proposals:
            lines.append(f"{len(proposals)} proposal{'s' if len(proposals) != 1 else ''} awaiting review:")
        for p in proposals:
            d = p.verdict.decision
            lines.append(f"- [{d.id}] {_one_line(d.claim)}")
            lines.append(f"  proposed by {_who(d.author, d.author_kind)}; evidence: {_one_line(p.verdict.reason)}")
            if d.supersedes:
                lines.append(f"  replaces [{d.supersedes}] if approved: {_one_line(d.reason)}")
            lines.extend(f"  quote: `{_one_line(a.quote)}` in {a.spec}" for a in d.anchors if a.quote)
            if d.unbound:
                lines.append(f"  declared not in its evidence: {', '.join(d.unbound)}")
            lines.extend(f"  conflict: [{c.decision.id}] ({c.status.value}; {c.why}) {_one_line(c.decision.claim)}"
                         for c in p.conflicts)
            lines.extend(f"  warning: {_one_line(w)}" for w in p.warnings)
        if requests:
            lines.append(f"{len(requests)} request{'s' if len(requests) != 1 else ''} to retire a decision:")
        for v in requests:
            d = v.decision
            act = f"supersede it with [{d.retire_with}]" if d.retire_with else "reject it"
            lines.append(f"- [{d.id}] {_one_line(d.claim)}")
            lines.append(f"  an agent ({_one_line(d.retire_by)}) asks to {act}: {_one_line(d.retire_reason)}")
            lines.append(f"  now: {v.status.value} ({_one_line(v.reason)})")
        lines.append("Only a person answers these: memvet approve ID / memvet decline ID --reason R in a terminal, "
                     "or memvet_approve ID, which asks the person in this client.")
        return Answer("\n".join(lines), data)

    def approval_request(self, decision_id: str) -> Answer:
        """What a person reads before approving or declining ``decision_id``:
        a proposal with its evidence (each anchor checked now, its code and
        quotes), unbound terms, conflicts and warnings; or an agent's request
        to retire an active decision, with the decision, its verdict and the
        request (and for a supersede, the proposal that would replace it).

        Raises:
            NotAllowedError: Neither a proposal nor an active decision with an
                open request: nothing awaits a person.
            UnknownDecisionError, AmbiguousIdError.
        """
        decision = self.ledger.get(decision_id)
        if decision.lifecycle is Lifecycle.ACTIVE and decision.retiring:
            return self._request_review(decision)
        if decision.lifecycle is Lifecycle.PROPOSED:
            return self._proposal_review(decision)
        raise NotAllowedError(
            f"decision {decision.id} is {decision.lifecycle.value} with no open request; nothing awaits a "
            "person's approval (only a proposal, or an agent's request to retire an active decision)"
        )

    def _proposal(self, decision_id: str) -> Proposal:
        found = [p for p in self.ledger.proposals(self.at) if p.id == decision_id]
        if not found:  # answered between two reads
            raise NotAllowedError(f"decision {decision_id} is no longer a proposal")
        return found[0]

    def _proposal_lines(self, proposal: Proposal) -> list[str]:
        v = proposal.verdict
        d = v.decision
        lines = [f"Claim: {_one_line(d.claim)}",
                 f"Proposed by {_who(d.author, d.author_kind)} at commit {d.commit[:12]}.",
                 f"Status now: {v.status.value} ({_one_line(v.reason)})"]
        if d.tags:
            lines.append(f"Tags: {', '.join(d.tags)}")
        lines += ["Evidence, checked against the code now:", *_anchor_lines(v, excerpts(self.ledger, v, self.at))]
        if d.unbound:
            lines.append(f"Declared as not in its evidence (unbound terms): {', '.join(d.unbound)}")
        collisions = _conflict_lines(proposal)
        lines += (["Conflicts and warnings:", *collisions] if collisions else ["No conflicts with active decisions."])
        return lines

    def _proposal_review(self, decision: Decision) -> Answer:
        proposal = self._proposal(decision.id)
        old = self.ledger.get(decision.supersedes) if decision.supersedes else None
        replaces = f" and supersedes {old.id}, which becomes history" if old else ""
        lines = [f"Review proposal {decision.id}, proposed by {_who(decision.author, decision.author_kind)}.",
                 f"Approve: it becomes a current decision{replaces}. Decline (approve = false): it is rejected"
                 + (f" and {old.id} stays as it is" if old else "") + ". Cancel: nothing changes.", ""]
        lines += self._proposal_lines(proposal)
        if old is not None:
            lines += ["", f"It would replace decision {old.id} ({old.lifecycle.value}, recorded by "
                          f"{_who(old.author, old.author_kind)}): {_one_line(old.claim)}",
                      f"Reason given for replacing it: {_one_line(decision.reason)}"]
        data = {"id": decision.id, "kind": "proposal", "state": _review_state(decision),
                "supersedes": decision.supersedes, "proposal": proposal.to_dict()}
        return Answer("\n".join(lines), data)

    def _request_review(self, decision: Decision) -> Answer:
        verdict = self.ledger.verify(decision.id, at=self.at)
        by = _one_line(decision.retire_by) or "?"
        successor = self._proposal(decision.retire_with) if decision.retire_with else None
        if successor is not None:
            ask = f"supersede decision {decision.id} with proposal {successor.id}"
            yes = f"{decision.id} is superseded by {successor.id}, which becomes current"
            no = f"{decision.id} stays current as it is and proposal {successor.id} is rejected"
        else:
            ask = f"reject decision {decision.id}"
            yes = f"{decision.id} is rejected with the agent's reason"
            no = f"{decision.id} stays current as it is"
        lines = [f"Review a request: an agent ({by}) asks to {ask}.",
                 f"Approve: {yes}. Decline (approve = false): {no}. Cancel: nothing changes.", "",
                 f"The agent's reason: {_one_line(decision.retire_reason)}", "",
                 f"Decision {decision.id}, recorded by {_who(decision.author, decision.author_kind)}: "
                 f"{_one_line(decision.claim)}",
                 f"Status now: {verdict.status.value} ({_one_line(verdict.reason)})",
                 "Its evidence, checked against the code now:",
                 *_anchor_lines(verdict, excerpts(self.ledger, verdict, self.at))]
        if successor is not None:
            lines += ["", f"The proposal that would replace it, {successor.id}:", *self._proposal_lines(successor)]
        data = {"id": decision.id, "kind": "request", "state": _review_state(decision), "verdict": verdict.to_dict(),
                "request": {"by": decision.retire_by, "reason": decision.retire_reason,
                            "successor": decision.retire_with},
                "proposal": successor.to_dict() if successor is not None else None}
        return Answer("\n".join(lines), data)

    def _unchanged(self, decision_id: str, shown: Mapping[str, str] | None) -> None:
        """Refuse to act on an answer to a question that no longer holds.

        Raises:
            NotAllowedError: The decision's lifecycle or open request is no
                longer what the person was shown (``shown``).
        """
        if shown is None:
            return
        decision = self.ledger.get(decision_id)
        if _review_state(decision) != dict(shown):
            raise NotAllowedError(
                f"decision {decision.id} changed while the person was deciding (it is now "
                f"{decision.lifecycle.value}" + (f", with a request by {decision.retire_by}" if decision.retiring
                                                  else "") + "); nothing was done: ask again"
            )

    def approve(self, decision_id: str, reason: str = "", *, reviewer: str = "", via: str = "",
                shown: Mapping[str, str] | None = None) -> Answer:
        """A person's approval of a proposal, or of an agent's request to
        retire an active decision (see :meth:`memvet.Ledger.approve`).

        The server calls it only with the answer the person gave in the
        client's form; ``reviewer`` names the person (default the
        repository's ``user.name``) and ``via`` the channel, which the
        receipt keeps. ``shown`` is the ``state`` of the
        :meth:`approval_request` the person answered: if the decision has
        changed since, nothing is done.

        Raises:
            NotAllowedError: See :meth:`memvet.Ledger.approve`, or the
                decision changed since the person was shown it.
        """
        self._unchanged(decision_id, shown)
        decision = self.ledger.approve(decision_id, reason=reason or None, author=Author.person(reviewer, via))
        who = self.ledger.history(decision.id)[-1].who
        verdict = self.ledger.verify(decision.id, at=self.at)
        if decision.lifecycle is Lifecycle.ACTIVE:
            text = (f"Approved decision {decision.id}: {verdict.status.value} ({_one_line(verdict.reason)}). "
                    f"Approved by {who}.")
            if decision.supersedes:
                text += f" It supersedes {decision.supersedes}, now history."
        elif decision.lifecycle is Lifecycle.SUPERSEDED:
            text = (f"Approved the request: decision {decision.id} is superseded by {decision.superseded_by}, "
                    f"now current. Approved by {who}.")
        else:
            text = (f"Approved the request: decision {decision.id} is {decision.lifecycle.value}. Agents now read "
                    f"it as: {frame(verdict)}. Approved by {who}.")
        return Answer(text, {"id": decision.id, "lifecycle": decision.lifecycle.value,
                             "status": verdict.status.value, "reason": verdict.reason,
                             "supersedes": decision.supersedes, "superseded_by": decision.superseded_by,
                             "by": who})

    def decline(self, decision_id: str, reason: str, *, reviewer: str = "", via: str = "",
                shown: Mapping[str, str] | None = None) -> Answer:
        """A person declines a proposal (it is rejected) or an agent's request
        to retire a decision (it stays as it is); see :meth:`memvet.Ledger.decline`
        and, for ``reviewer``, ``via`` and ``shown``, :meth:`approve`."""
        self._unchanged(decision_id, shown)
        before = self.ledger.get(decision_id)
        decision = self.ledger.decline(before.id, reason=reason, author=Author.person(reviewer, via))
        who = self.ledger.history(decision.id)[-1].who
        verdict = self.ledger.verify(decision.id, at=self.at)
        if decision.lifecycle is Lifecycle.REJECTED:
            text = (f"Declined proposal {decision.id}: it is rejected ({_one_line(reason)}). Declined by {who}."
                    + (f" {decision.supersedes} stays as it was." if decision.supersedes else ""))
        else:
            text = (f"Declined the request to retire decision {decision.id}: it stays {decision.lifecycle.value} "
                    f"as it was ({verdict.status.value})."
                    + (f" Proposal {before.retire_with} is rejected." if before.retire_with else "")
                    + f" Declined by {who}.")
        return Answer(text, {"id": decision.id, "lifecycle": decision.lifecycle.value,
                             "status": verdict.status.value, "reason": verdict.reason, "by": who})

    def reject(self, decision_id: str, reason: str, *, agent: str = DEFAULT_AGENT) -> Answer:
        """The agent's reject: its own proposal is withdrawn (rejected); any
        other decision gets a request to reject it, which a person approves
        or declines, and stays as it is meanwhile."""
        decision = self.ledger.reject(decision_id, reason=reason, author=Author.agent(agent))
        verdict = self.ledger.verify(decision.id, at=self.at)
        data = {"id": decision.id, "lifecycle": decision.lifecycle.value, "status": verdict.status.value,
                "reason": reason, "claim": decision.claim}
        if decision.lifecycle is Lifecycle.REJECTED:
            text = (f"Withdrew your proposal {decision.id}: it is rejected. Agents now read it as: "
                    f"previously tried, rejected: {_one_line(decision.reason)} (was: {_one_line(decision.claim)})")
            return Answer(text, {**data, "outcome": "rejected"})
        what = "decision" if decision.lifecycle is Lifecycle.ACTIVE else "proposal"
        state = "current" if decision.lifecycle is Lifecycle.ACTIVE else "proposed"
        text = (f"Rejection of {what} {decision.id} requested; it stays {state} until a person approves or declines "
                f"it (memvet review), since only a person retires a decision. Meanwhile agents read it as: "
                f"{frame(verdict)}")
        return Answer(text, {**data, "outcome": "requested"})
