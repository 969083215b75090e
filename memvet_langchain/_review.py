"""A person's review inside a LangGraph graph, through ``interrupt()``.

Agents propose; a person approves. In a LangGraph application the person is
reached the way LangGraph reaches people: the graph pauses with
:func:`langgraph.types.interrupt`, the application shows the question, and
the person's answer comes back with ``Command(resume=...)``. Only then does
:func:`review_proposal` write, as :meth:`memvet.Author.person` with the
channel (``via="LangGraph interrupt"``) kept in the receipt. Nothing an
agent calls can answer: the answer is the resume value, which only the
application that runs the graph supplies.

LangGraph re-runs a node from its start when it resumes, and matches resume
values to the node's ``interrupt()`` calls by their order. So the helper
writes nothing before its interrupt, writes at most once per answer (a
re-run after the answer took effect writes nothing again), and the answer
names the decision it answers: an answer meant for another question is
refused before it is saved, so it can be given again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Annotated, Any

from langgraph.types import interrupt
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, model_validator

from memvet import (
    Author,
    Decision,
    Ledger,
    Lifecycle,
    NotAllowedError,
    Proposal,
    Receipt,
    ReceiptAction,
    Verdict,
)
from memvet_langchain._convert import require_ledger

__all__ = ["VIA", "ReviewAnswer", "ReviewOutcome", "review_proposal"]

log = logging.getLogger(__name__)

#: The channel a person's answer came through, as receipts keep it.
VIA = "LangGraph interrupt"

#: Receipts that open a question for a person (a proposal, or a request).
_ASKED = (ReceiptAction.PROPOSE, ReceiptAction.PROPOSE_RETIRE)


class ReviewAnswer(BaseModel):
    """A person's answer to :func:`review_proposal`'s interrupt.

    Resume the graph with it: ``Command(resume={"id": ..., "approve": True,
    "reviewer": "Ada", "reason": "checked OrderStore.save"})``. LangGraph
    validates the answer before saving it; an invalid one (a decline
    without a reason, an answer for another decision, no reviewer's name
    where the graph names none) raises ``pydantic.ValidationError`` and
    the same interrupt can be answered again.

    Attributes:
        id: The decision the answer is for: the interrupt's ``id`` (or a
            prefix of at least four characters).
        approve: ``True`` approves (the proposal becomes active; a retire
            request is granted), ``False`` declines.
        reviewer: Who answers. Required unless the graph names the reviewer
            (``review_proposal(..., reviewer=...)``); then it may be left
            out, and must not name someone else.
        reason: What the reviewer checked; required to decline.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    id: str = Field(min_length=4)
    approve: StrictBool
    reviewer: str = ""
    reason: str = ""

    @model_validator(mode="after")
    def _a_decline_needs_a_reason(self) -> ReviewAnswer:
        if not self.approve and not self.reason:
            raise ValueError("a decline needs a reason (what the evidence does not support)")
        return self


@dataclass(frozen=True)
class ReviewOutcome:
    """What a person's answer did.

    Attributes:
        decision: The decision as it stands after the answer (for a granted
            request to supersede it: superseded).
        approve: What the person answered.
        reviewer: The person, as the receipt names them.
        reason: Their reason.
        refused: Empty when the answer took effect; otherwise why it changed
            nothing (the ledger refused it, e.g. a person approving their own
            proposal, or someone had answered first).
    """

    decision: Decision
    approve: bool
    reviewer: str
    reason: str
    refused: str = ""

    @property
    def applied(self) -> bool:
        """True when the answer took effect."""
        return not self.refused


def _checked(decision_id: str, reviewer: str) -> Any:
    """The interrupt's ``response_schema``: :class:`ReviewAnswer`, checked
    against this question, so a wrong answer is refused before it is saved."""

    def check(answer: ReviewAnswer) -> ReviewAnswer:
        if not decision_id.startswith(answer.id):
            raise ValueError(f"this answer is for {answer.id}; the question is about {decision_id}")
        if reviewer and answer.reviewer and answer.reviewer.casefold() != reviewer.casefold():
            raise ValueError(f"this graph reviews as {reviewer}; the answer names {answer.reviewer}")
        if not reviewer and not answer.reviewer:
            raise ValueError("name the reviewer: the answer needs reviewer=<the person's name>")
        return answer

    return Annotated[ReviewAnswer, AfterValidator(check)]


def _open(decision: Decision) -> bool:
    return decision.lifecycle is Lifecycle.PROPOSED or (
        decision.lifecycle is Lifecycle.ACTIVE and decision.retiring)


def _who(decision: Decision) -> str:
    return f"{decision.author or '?'} ({decision.author_kind or '?'})"


def _brief(verdict: Verdict) -> dict[str, Any]:
    d = verdict.decision
    return {"id": d.id, "claim": d.claim, "lifecycle": d.lifecycle.value, "status": verdict.status.value,
            "reason": verdict.reason, "author": _who(d)}


def _proposal(proposal: Proposal) -> dict[str, Any]:
    out = proposal.to_dict()
    out["author"] = _who(proposal.decision)
    return out


def _question(ledger: Ledger, decision: Decision, at: str | None) -> dict[str, Any]:
    """What a person needs to answer: the claim, each anchor checked, the
    quotes, the conflicts; for a request, the agent's reason and the
    proposal that would replace the decision."""
    def proposal(decision_id: str) -> Proposal:
        found = [p for p in ledger.proposals(at) if p.id == decision_id]
        # Answered in between (then the answer changes nothing): its evidence still.
        return found[0] if found else Proposal(ledger.verify(decision_id, at))

    if decision.lifecycle is Lifecycle.PROPOSED:
        question: dict[str, Any] = {"type": "memvet_review", "kind": "proposal"}
        question.update(_proposal(proposal(decision.id)))
        replaces = ledger.verify(decision.supersedes, at) if decision.supersedes else None
        question["replaces"] = _brief(replaces) if replaces is not None else None
        question["question"] = (
            f"Approve {_who(decision)}'s proposal {decision.id} as a current decision"
            + (f", superseding {decision.supersedes}?" if decision.supersedes else "?"))
    else:
        verdict = ledger.verify(decision.id, at)
        replacement = proposal(decision.retire_with) if decision.retire_with else None
        question = {"type": "memvet_review", "kind": "retire_request", **verdict.to_dict(),
                    "author": _who(decision),
                    "quotes": [{"spec": a.spec, "quote": a.quote} for a in decision.anchors if a.quote],
                    "request": {"by": f"{decision.retire_by} (agent)", "reason": decision.retire_reason,
                                "replacement": _proposal(replacement) if replacement is not None else None}}
        act = (f"supersede decision {decision.id} by {decision.retire_with}" if decision.retire_with
               else f"reject decision {decision.id}")
        question["question"] = f"Grant {decision.retire_by} (agent)'s request to {act}?"
    question["answer"] = {"id": decision.id, "approve": "true to approve, false to decline",
                          "reviewer": "the person's name", "reason": "what was checked (required to decline)"}
    return question


def _last_answer(ledger: Ledger, decision: Decision) -> Receipt | None:
    """For a decision no longer open: its last receipt, the answer that
    closed it; ``None`` when it never was a question (no proposal, no request)."""
    history = ledger.history(decision.id)
    if not any(r.action in _ASKED for r in history):
        return None
    return history[-1]


def review_proposal(ledger: Ledger, decision_id: str, *, reviewer: str | None = None, at: str | None = None,
                    via: str = VIA) -> ReviewOutcome:
    """Ask a person, inside a LangGraph node, to approve or decline.

    Pauses the graph with ``interrupt(question)``; the question is a dict
    with what a person needs (``kind`` ``proposal`` or ``retire_request``,
    ``id``, ``claim``, ``author``, ``status`` and ``reason``, ``anchors``
    each with its check result, ``quotes``, ``conflicts``, ``warnings``,
    ``replaces`` or ``request``, and a one-line ``question``). When the
    application resumes the graph with the person's :class:`ReviewAnswer`
    (``Command(resume={"id": ..., "approve": True, "reviewer": "Ada"})``),
    it calls ``ledger.approve`` or ``ledger.decline`` as
    ``Author.person(reviewer, via=via)``.

    A proposal approved becomes active (superseding what it names); a
    retire request approved rejects the decision, or supersedes it by the
    agent's proposal. Declined, a proposal is turned down and a request
    leaves the decision as it was.

    Call it once per node execution for each decision, with ids that are
    the same on every run of the node (from the graph state, not from a
    fresh ``ledger.proposals()``): LangGraph re-runs the node on resume and
    matches answers by order. A re-run after the answer took effect writes
    nothing again. The graph needs a checkpointer. It runs in sync nodes;
    in an async graph, make the review node a plain ``def`` (LangGraph runs
    it in a worker thread).

    Args:
        ledger: The ledger.
        decision_id: A proposal, or an active decision an agent asked to
            retire (or a unique prefix).
        reviewer: The person the application vouches for (the signed-in
            user); then the answer may leave ``reviewer`` out and must not
            name someone else. ``None``: the answer must name the reviewer.
        at: Where the question's evidence is checked (default the working tree).
        via: The channel the receipt names.

    Returns:
        What the answer did (:class:`ReviewOutcome`). A refusal by the ledger
        (a person approving their own proposal, a supersede whose target
        was retired meanwhile) comes back as ``refused`` instead of raising:
        raised after the answer, it would leave the thread stuck on it.

    Raises:
        NotAllowedError: The decision was never a proposal nor under a
            request (nothing to review); raised before any interrupt.
        UnknownDecisionError, AmbiguousIdError: No such decision.
        TypeError: ``ledger`` is not a :class:`memvet.Ledger`.
    """
    require_ledger(ledger, "review_proposal")
    decision = ledger.get(decision_id)
    named = (reviewer or "").strip()
    schema = _checked(decision.id, named)
    if not _open(decision):
        last = _last_answer(ledger, decision)
        if last is None:
            raise NotAllowedError(
                f"nothing to review: decision {decision.id} is {decision.lifecycle.value} and was never a "
                "proposal nor under an agent's request"
            )
        # Answered already: by this answer on an earlier run of the node
        # (LangGraph re-runs it on resume), or by someone else first.
        answer = interrupt({"type": "memvet_review", "kind": "answered", "id": decision.id,
                            "claim": decision.claim, "lifecycle": decision.lifecycle.value,
                            "question": f"{decision.id} was answered already ({last.who}: {last.action}); "
                                        "an answer changes nothing"},
                           response_schema=schema)
        name = named or answer.reviewer
        ours = last.via == via and last.author.casefold() == name.casefold()
        refused = "" if ours else f"already answered by {last.who} ({last.action})"
        return ReviewOutcome(decision, answer.approve, name, answer.reason, refused)
    answer = interrupt(_question(ledger, decision, at), response_schema=schema)
    name = named or answer.reviewer  # the application's spelling, when it names the reviewer
    person = Author.person(name, via=via)
    try:
        if answer.approve:
            ledger.approve(decision.id, reason=answer.reason or None, author=person)
        else:
            ledger.decline(decision.id, reason=answer.reason, author=person)
    except NotAllowedError as exc:
        log.warning("review of %s by %s changed nothing: %s", decision.id, name, exc)
        return ReviewOutcome(ledger.get(decision.id), answer.approve, name, answer.reason, str(exc))
    return ReviewOutcome(ledger.get(decision.id), answer.approve, name, answer.reason)
