"""Record, recall, supersede, reject and check as LlamaIndex tools."""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from llama_index.core.tools.tool_spec.base import BaseToolSpec

import memvet
from memvet import (
    Author,
    Decision,
    Ledger,
    Lifecycle,
    RecordResult,
    Status,
    UsageError,
    one_line,
    render_blocks,
)
from memvet_llamaindex._checks import GROUPS, check_groups, names, require_ledger

__all__ = ["MemVetToolSpec"]

#: Statuses ``check`` lists one by one; the rest are only counted.
_ATTENTION = (Status.REFUTED, Status.STALE, Status.NEEDS_REVALIDATION, Status.UNANCHORED)


class MemVetToolSpec(BaseToolSpec):
    """The ledger as agent tools: ``record``, ``recall``, ``supersede``, ``reject``, ``check``.

    Every tool returns text for the model to read. Bad input (an anchor that
    does not resolve, an unknown id, a missing reason) raises a
    :class:`memvet.UsageError`, :class:`memvet.AnchorNotFoundError` or
    :class:`memvet.UnknownDecisionError` with a message that says what to fix;
    LlamaIndex agents hand a raised tool error back to the model as an error
    observation. ``tool.acall`` runs the synchronous method in a worker
    thread (``FunctionTool``'s own executor), so it never blocks the loop.

    Every write is an agent's (:meth:`memvet.Author.agent` named
    ``agent_name``). An agent retires nothing on its own: ``supersede``
    always writes a proposal, and ``reject`` of an active decision (or of a
    proposal another author wrote) is a request; the decision stays as it
    is, served under caution with the request, until a person approves or
    declines it. There is no approve tool: a person approves with ``memvet
    approve ID`` after ``memvet review``.

    Example::

        tools = MemVetToolSpec(ledger).to_tool_list()
        agent = FunctionAgent(tools=tools, llm=llm)

    Args:
        ledger: The ledger to read and write.
        at: Where ``recall`` and ``check`` verify: ``None`` (the working
            tree) or any revision. Writes always resolve anchors in the
            working tree.
        include: The groups ``recall`` serves.
        max_chars: Character budget of ``recall``'s answer.
        agent_writes: How ``record`` writes new decisions: ``"proposed"``
            (a person reviews and approves them with ``memvet approve``;
            until then recall serves them as "proposed, not yet reviewed")
            or ``"active"``. Default ``None``: the ledger's review policy,
            ``ledger.agent_writes``, which ``Ledger.open`` reads from the
            committed ``[tool.memvet] agent-writes`` (else ``"proposed"``).
            ``supersede`` writes a proposal either way.
        agent_name: The agent's name in receipts and requests
            (``llamaindex (agent)``).
    """

    spec_functions: ClassVar[list[str]] = ["record", "recall", "supersede", "reject", "check"]

    def __init__(self, ledger: Ledger, *, at: str | None = None,
                 include: tuple[str, ...] | str = GROUPS, max_chars: int | None = None,
                 agent_writes: str | None = None, agent_name: str = "llamaindex") -> None:
        if agent_writes not in (None, "proposed", "active"):
            raise UsageError(f"agent_writes: expected one of proposed, active, got {agent_writes!r}")
        if not isinstance(agent_name, str) or not agent_name.strip():
            raise UsageError(f"agent_name must be a non-empty name, got {agent_name!r}")
        self.ledger = require_ledger(ledger, "MemVetToolSpec")
        self.at = at
        self.include = check_groups(include)
        self.max_chars = max_chars
        self.agent_writes = agent_writes
        self.author = Author.agent(agent_name)

    def _proposed(self) -> bool | None:
        """``proposed=`` for the core: ``None`` applies the ledger's policy."""
        return None if self.agent_writes is None else self.agent_writes == "proposed"

    def record(self, claim: str, anchors: list[str] | None = None, tags: list[str] | None = None,
               quotes: dict[str, str] | None = None, unbound: list[str] | None = None) -> str:
        """Record a decision about this codebase with the code it rests on.

        Use the code's own words and quote the line it rests on: a term the code
        lacks, or an order or value it states otherwise, is refused with what the
        code says. To replace a decision use supersede. Says if it is a proposal.

        Args:
            claim (str): The decision in one or two sentences.
            anchors (list[str] | None): Evidence: "path/to/file.py::Class.method", "path/to/file", "dep:requests>=2", "import:pickle" or "pattern:<regex>"; repository-relative.
            tags (list[str] | None): Optional labels, e.g. ["storage"].
            quotes (dict[str, str] | None): Code the claim rests on, keyed by its anchor as written.
            unbound (list[str] | None): Claim terms deliberately not in the anchored code.
        """
        return _describe(self.ledger.record(claim, memvet.quoted(names(anchors), quotes), tags=names(tags),
                                            proposed=self._proposed(), unbound=names(unbound),
                                            author=self.author))

    def recall(self, query: str, k: int = 5, tags: list[str] | None = None,
               paths: list[str] | None = None) -> str:
        """Recall the decisions relevant to a question, each re-verified against the code now.

        Returns up to k decisions in three labelled blocks: current (verified; rely on
        them), verify before relying (the code they rest on was rewritten, moved or is
        missing; the reason says which), and previously tried, rejected, superseded or
        contradicted (do not repeat them). Each line starts with the decision's [id].

        Args:
            query (str): What you want to know, e.g. "how are orders saved?".
            k (int): How many decisions to return, from 1 to 50 (default 5).
            tags (list[str] | None): Only decisions carrying any of these tags.
            paths (list[str] | None): Only decisions anchored at or under any of these repository-relative files or folders, e.g. ["shop/"].
        """
        memvet.check_tool_k(k)  # the message every adapter gives
        recall = self.ledger.recall(query, k=k, at=self.at, include=self.include, tags=names(tags),
                                    paths=names(paths))
        if not recall.items:
            return f"no recorded decisions match {query!r}"
        return render_blocks(recall, max_chars=self.max_chars)

    def supersede(self, decision_id: str, claim: str, reason: str, anchors: list[str] | None = None,
                  quotes: dict[str, str] | None = None, unbound: list[str] | None = None) -> str:
        """Propose replacing an active decision with a new one.

        The new one is a proposal; the old stays current, served under caution with
        your reason, until a person approves the replacement (then the old is served
        as "superseded by <new id>: <reason>") or declines it.

        Args:
            decision_id (str): Id of the decision to replace (in brackets in recall).
            claim (str): The new decision in one or two sentences.
            reason (str): Why the old decision no longer holds.
            anchors (list[str] | None): Evidence for the new decision, in the same forms as for record.
            quotes (dict[str, str] | None): Quoted code keyed by anchor, as for record.
            unbound (list[str] | None): Code terms not in the anchored code, as for record.
        """
        return _describe(self.ledger.supersede(decision_id, claim, memvet.quoted(names(anchors), quotes),
                                               reason=reason, proposed=self._proposed(),
                                               unbound=names(unbound), author=self.author))

    def reject(self, decision_id: str, reason: str) -> str:
        """Ask to retract a decision that was tried and did not work.

        A person approves or declines the request; until then the decision stays as
        it is, served under caution with your reason. Once rejected it is kept as
        "previously tried, rejected: <reason>". Your own proposal is withdrawn at once.

        Args:
            decision_id (str): Id of the decision (as shown in brackets by recall).
            reason (str): Why it should be rejected, e.g. "the global lock deadlocked under load".
        """
        return _reject_text(self.ledger.reject(decision_id, reason=reason, author=self.author), reason)

    def check(self, decision_id: str | None = None) -> str:
        """Re-verify recorded decisions against the code and list the ones that need attention.

        With a decision_id, returns that decision's status and reason. Without one,
        lists each refuted (the code contradicts it), stale (the code it rests on was
        rewritten), needs_revalidation (moved, expired or uncheckable) and unanchored
        (no evidence) decision with its reason, then counts every status.

        Args:
            decision_id (str | None): Check only this decision (as shown in brackets by recall); omit to check all.
        """
        if decision_id:
            v = self.ledger.verify(decision_id, at=self.at)
            return one_line(f"[{v.id}] {v.status.value}: {v.decision.claim} "
                            f"({v.reason or 'every anchor holds'}) at {v.target}")
        verdicts = self.ledger.check(at=self.at)
        if not verdicts:
            return "no decisions recorded yet"
        lines = [
            one_line(f"- [{v.id}] {v.status.value}: {v.decision.claim} ({v.reason})")
            for status in _ATTENTION for v in verdicts if v.status is status
        ]
        counts = Counter(v.status.value for v in verdicts)
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        head = "needs attention:" if lines else "every active decision holds."
        return "\n".join([head, *lines, f"{len(verdicts)} decisions at {verdicts[0].target}: {summary}"])


def _reject_text(decision: Decision, reason: str) -> str:
    """What an agent's reject did: a withdrawal of its own proposal, or a request."""
    if decision.lifecycle is Lifecycle.REJECTED:
        return one_line(f"withdrew your proposal {decision.id}: {reason}")
    stays = ("it stays a proposal" if decision.lifecycle is Lifecycle.PROPOSED
             else "it stays current, served under caution with your request,")
    what = "proposal" if decision.lifecycle is Lifecycle.PROPOSED else "decision"
    return one_line(f"requested rejecting {what} {decision.id}: {reason}; only a person retires a decision: "
                    f"{stays} until a person approves or declines the request (memvet review)")


def _describe(result: RecordResult) -> str:
    decision = result.decision
    review = ("it awaits a person's review (memvet review); until then it is served as "
              "'proposed, not yet reviewed', not as a current decision")
    if result.outcome == "confirmed" and decision.lifecycle is Lifecycle.PROPOSED:
        lines = [f"confirmed existing proposal {decision.id} (confirmations: {decision.confirmations}); "
                 f"no copy added; {review}"]
    elif result.outcome == "confirmed":
        lines = [f"confirmed existing decision {decision.id} (confirmations: {decision.confirmations}); "
                 "no copy added"]
    elif result.outcome == "proposed":
        lines = [f"proposed decision {decision.id}: a proposal, not yet a decision; {review}"]
        if decision.supersedes:
            lines.append(f"if a person approves it, it supersedes {decision.supersedes}, which stays current "
                         "until then, served under caution with your request to replace it")
    else:
        lines = [f"recorded decision {decision.id}"]
    if decision.anchors:
        lines.append("anchors: " + ", ".join(a.spec for a in decision.anchors))
    else:
        lines.append("no anchors: it will be served as unconfirmed")
    for c in result.conflicts:
        lines.append(f"conflict: active decision {c.decision.id} [{c.status.value}] "
                     f"{c.decision.claim!r} ({c.why}); supersede or reject one of them")
    lines.extend(f"warning: {w}" for w in result.warnings)
    if result.findings and result.outcome != "confirmed":
        lines.append("findings (served as unconfirmed, not as current, until a person resolves them or the "
                     "claim is corrected with supersede):")
        lines.extend(one_line(f"- {f}") for f in result.findings)
    return "\n".join(lines)
