"""A person's approval inside a LangGraph graph: ``review_proposal`` pauses
with ``interrupt()`` and applies the answer given with ``Command(resume=...)``.
HumanInTheLoopMiddleware gates an agent's calls, and approves no decision."""

from __future__ import annotations

import logging
import operator
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from pydantic import ValidationError

import memvet
from memvet_langchain import ReviewAnswer, ReviewOutcome, memvet_tools, review_proposal

ROOT = Path(__file__).resolve().parents[3]
SAVE = "shop/store.py::OrderStore.save"
LOAD = "shop/store.py::OrderStore.load"
GRACE = memvet.Author.person("Grace")
VIA = "LangGraph interrupt"


class State(TypedDict, total=False):
    pending: list[str]
    outcomes: Annotated[list[dict[str, Any]], operator.add]


def _plain(outcome: ReviewOutcome) -> dict[str, Any]:
    return {"id": outcome.decision.id, "lifecycle": outcome.decision.lifecycle.value, "approve": outcome.approve,
            "reviewer": outcome.reviewer, "reason": outcome.reason, "refused": outcome.refused,
            "applied": outcome.applied}


def review_graph(ledger: memvet.Ledger, *, per_run: int = 1, **options: Any) -> Any:
    """A graph that reviews ``state["pending"]``, ``per_run`` decisions per run of its node."""

    def review(state: State) -> State:
        now, rest = state["pending"][:per_run], state["pending"][per_run:]
        return {"pending": rest, "outcomes": [_plain(review_proposal(ledger, i, **options)) for i in now]}

    builder = StateGraph(State)
    builder.add_node("review", review)
    builder.add_edge(START, "review")
    builder.add_conditional_edges("review", lambda s: "review" if s["pending"] else END, ["review", END])
    return builder.compile(checkpointer=InMemorySaver())


CONFIG = {"configurable": {"thread_id": "t"}}


def _tools(ledger: memvet.Ledger, **kw: Any) -> dict[str, BaseTool]:
    return {t.name: t for t in memvet_tools(ledger, **kw)}


def _question(state: dict[str, Any]) -> dict[str, Any]:
    (pending,) = state["__interrupt__"]
    return pending.value


def _answer(graph: Any, question: dict[str, Any], **answer: Any) -> dict[str, Any]:
    return graph.invoke(Command(resume={"id": question["id"], **answer}), CONFIG)


def _proposed(ledger: memvet.Ledger, claim: str, anchors: Sequence[str], **kw: Any) -> str:
    text = _tools(ledger, **kw)["memvet_record"].invoke({"claim": claim, "anchors": list(anchors)})
    found = re.match(r"Proposed decision (\w+)", text)
    assert found, text
    return found[1]


# ------------------------------------------------------------------ proposals


def test_a_person_approves_a_proposal_through_an_interrupt(ledger) -> None:
    person = ledger.record("OrderStore.save appends to the file", [SAVE], author=GRACE).id
    tools = _tools(ledger, on_conflict="warn")
    text = tools["memvet_record"].invoke({"claim": "OrderStore.save opens the file with mode 'a'",
                                          "anchors": [SAVE], "quotes": {SAVE: 'open(self.path, "a")'}})
    proposal = text.split()[2].rstrip(";")
    graph = review_graph(ledger)
    state = graph.invoke({"pending": [proposal]}, CONFIG)

    question = _question(state)
    assert (question["type"], question["kind"], question["id"]) == ("memvet_review", "proposal", proposal)
    assert question["question"] == f"Approve langchain (agent)'s proposal {proposal} as a current decision?"
    assert question["claim"] == "OrderStore.save opens the file with mode 'a'"
    assert question["author"] == "langchain (agent)" and question["status"] == "proposed"
    assert [(a["spec"], a["result"]) for a in question["anchors"]] == [(SAVE, "holds")]
    assert question["quotes"] == [{"spec": SAVE, "quote": 'open(self.path, "a")'}]
    assert [c["id"] for c in question["conflicts"]] == [person]
    assert question["replaces"] is None
    assert question["answer"]["id"] == proposal
    assert state["__interrupt__"][0].response_schema["required"] == ["id", "approve"]
    # Nothing is written before the person answers.
    assert ledger.get(proposal).lifecycle is memvet.Lifecycle.PROPOSED
    assert [r.action for r in ledger.history(proposal)] == ["propose"]

    done = _answer(graph, question, approve=True, reviewer="Ada", reason="read save(): mode 'a'")
    assert "__interrupt__" not in done
    assert done["outcomes"] == [{"id": proposal, "lifecycle": "active", "approve": True, "reviewer": "Ada",
                                 "reason": "read save(): mode 'a'", "refused": "", "applied": True}]
    assert ledger.verify(proposal).status is memvet.Status.VERIFIED
    receipt = ledger.history(proposal)[-1]
    assert (receipt.action, receipt.author, receipt.author_kind, receipt.via) == ("approve", "Ada", "person", VIA)
    assert receipt.who == "Ada (person, via LangGraph interrupt)" and receipt.reason == "read save(): mode 'a'"


def test_a_person_declines_a_proposal(ledger) -> None:
    proposal = _proposed(ledger, "OrderStore.save appends to the file", [SAVE])
    graph = review_graph(ledger)
    question = _question(graph.invoke({"pending": [proposal]}, CONFIG))
    done = _answer(graph, question, approve=False, reviewer="Ada", reason="it is not atomic")
    assert done["outcomes"][0]["lifecycle"] == "rejected" and done["outcomes"][0]["applied"]
    receipt = ledger.history(proposal)[-1]
    assert (receipt.action, receipt.who) == ("reject", "Ada (person, via LangGraph interrupt)")
    assert ledger.verify(proposal).reason.startswith("it is not atomic")


# ------------------------------------------------------------------ an agent's requests


def test_a_person_grants_or_declines_an_agents_reject_request(ledger) -> None:
    granted = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    kept = ledger.record("Order checksums are the byte sum", ["shop/store.py::checksum"], author=GRACE).id
    reject = _tools(ledger)["memvet_reject"]
    reject.invoke({"decision_id": granted, "reason": "loading should stream"})
    reject.invoke({"decision_id": kept, "reason": "use crc32"})
    graph = review_graph(ledger)

    question = _question(graph.invoke({"pending": [granted, kept]}, CONFIG))
    assert (question["kind"], question["id"], question["status"]) == ("retire_request", granted,
                                                                      "needs_revalidation")
    assert question["question"] == f"Grant langchain (agent)'s request to reject decision {granted}?"
    assert question["author"] == "Grace (person)"
    assert question["request"] == {"by": "langchain (agent)", "reason": "loading should stream",
                                   "replacement": None}
    assert [(a["spec"], a["result"]) for a in question["anchors"]] == [(LOAD, "holds")]
    state = _answer(graph, question, approve=True, reviewer="Ada")

    question = _question(state)
    assert (question["kind"], question["id"]) == ("retire_request", kept)
    done = _answer(graph, question, approve=False, reviewer="Ada", reason="the sum is the format")
    assert [(o["id"], o["lifecycle"]) for o in done["outcomes"]] == [(granted, "rejected"), (kept, "active")]
    assert ledger.verify(granted).reason == "loading should stream"
    assert ledger.history(granted)[-1].who == "Ada (person, via LangGraph interrupt)"
    assert ledger.verify(kept).status is memvet.Status.VERIFIED and not ledger.get(kept).retiring
    assert [(r.action, r.who) for r in ledger.history(kept)][-1] == ("decline",
                                                                      "Ada (person, via LangGraph interrupt)")


def test_a_supersede_request_shows_its_replacement(ledger) -> None:
    old = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    text = _tools(ledger)["memvet_supersede"].invoke({"old_id": old, "claim": "OrderStore.load reads the file",
                                                     "reason": "clearer", "anchors": [LOAD]})
    proposal = text.split()[2].rstrip(";")
    graph = review_graph(ledger)

    question = _question(graph.invoke({"pending": [old]}, CONFIG))
    assert question["question"] == (f"Grant langchain (agent)'s request to supersede decision {old} "
                                    f"by {proposal}?")
    replacement = question["request"]["replacement"]
    assert (replacement["id"], replacement["claim"], replacement["author"]) == (
        proposal, "OrderStore.load reads the file", "langchain (agent)")
    done = _answer(graph, question, approve=True, reviewer="Ada")
    assert done["outcomes"][0]["lifecycle"] == "superseded"
    assert ledger.get(old).superseded_by == proposal
    assert ledger.verify(proposal).status is memvet.Status.VERIFIED


def test_the_proposal_of_a_supersede_names_what_it_replaces(ledger) -> None:
    old = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    text = _tools(ledger)["memvet_supersede"].invoke({"old_id": old, "claim": "OrderStore.load reads the file",
                                                     "reason": "clearer", "anchors": [LOAD]})
    proposal = text.split()[2].rstrip(";")
    graph = review_graph(ledger)
    question = _question(graph.invoke({"pending": [proposal]}, CONFIG))
    assert question["question"].endswith(f"as a current decision, superseding {old}?")
    assert question["replaces"]["id"] == old and question["replaces"]["author"] == "Grace (person)"
    assert question["replaces"]["status"] == "needs_revalidation"
    _answer(graph, question, approve=False, reviewer="Ada", reason="not clearer")
    assert ledger.get(proposal).lifecycle is memvet.Lifecycle.REJECTED
    assert ledger.verify(old).status is memvet.Status.VERIFIED  # the request ended with its proposal


# ------------------------------------------------------------------ answers


@pytest.mark.parametrize("answer, message", [
    ({"approve": False, "reviewer": "Ada"}, "a decline needs a reason"),
    ({"approve": True}, "name the reviewer"),
    ({"approve": "yes", "reviewer": "Ada"}, "valid boolean"),
    ({"approve": True, "reviewer": "Ada", "extra": 1}, "Extra inputs are not permitted"),
])
def test_an_invalid_answer_is_refused_before_it_is_saved(ledger, answer, message) -> None:
    proposal = _proposed(ledger, "OrderStore.save appends to the file", [SAVE])
    graph = review_graph(ledger)
    question = _question(graph.invoke({"pending": [proposal]}, CONFIG))
    with pytest.raises(ValidationError, match=message):
        _answer(graph, question, **answer)
    assert ledger.get(proposal).lifecycle is memvet.Lifecycle.PROPOSED
    # The same interrupt can be answered again.
    done = _answer(graph, question, approve=True, reviewer="Ada")
    assert done["outcomes"][0]["applied"] and ledger.get(proposal).lifecycle is memvet.Lifecycle.ACTIVE


def test_an_answer_for_another_decision_is_refused(ledger) -> None:
    first = _proposed(ledger, "OrderStore.save appends to the file", [SAVE])
    second = _proposed(ledger, "Orders are loaded line by line", [LOAD])
    graph = review_graph(ledger)
    _question(graph.invoke({"pending": [first, second]}, CONFIG))
    with pytest.raises(ValidationError, match=f"this answer is for {second}; the question is about {first}"):
        graph.invoke(Command(resume={"id": second, "approve": True, "reviewer": "Ada"}), CONFIG)
    state = graph.invoke(Command(resume={"id": first[:6], "approve": True, "reviewer": "Ada"}), CONFIG)
    assert _question(state)["id"] == second  # a prefix of the right id answers


def test_the_graph_may_name_the_reviewer(ledger) -> None:
    proposal = _proposed(ledger, "OrderStore.save appends to the file", [SAVE])
    other = _proposed(ledger, "Orders are loaded line by line", [LOAD])
    graph = review_graph(ledger, reviewer="Ada")
    question = _question(graph.invoke({"pending": [proposal, other]}, CONFIG))
    with pytest.raises(ValidationError, match="this graph reviews as Ada; the answer names Bob"):
        _answer(graph, question, approve=True, reviewer="Bob")
    state = _answer(graph, question, approve=True)
    done = _answer(graph, _question(state), approve=True, reviewer="ada")
    assert [o["reviewer"] for o in done["outcomes"]] == ["Ada", "Ada"]  # as the application spells it
    assert ledger.history(proposal)[-1].who == "Ada (person, via LangGraph interrupt)"
    assert ledger.history(other)[-1].who == "Ada (person, via LangGraph interrupt)"


def test_a_refusal_by_the_ledger_is_an_outcome_not_a_stuck_thread(ledger, caplog) -> None:
    own = ledger.record("OrderStore.save appends to the file", [SAVE], author=memvet.Author.person("Ada"),
                        proposed=True).id
    graph = review_graph(ledger)
    question = _question(graph.invoke({"pending": [own]}, CONFIG))
    with caplog.at_level(logging.WARNING, logger="memvet_langchain._review"):
        done = _answer(graph, question, approve=True, reviewer="Ada")
    (outcome,) = done["outcomes"]
    assert not outcome["applied"] and outcome["lifecycle"] == "proposed"
    assert f"Ada proposed {own} and cannot also approve it" in outcome["refused"]
    assert "changed nothing" in caplog.text
    assert graph.get_state(CONFIG).next == ()  # the thread finished; nothing is stuck on the answer


def test_a_rerun_of_the_node_writes_each_answer_once(ledger) -> None:
    first = _proposed(ledger, "OrderStore.save appends to the file", [SAVE])
    second = _proposed(ledger, "Orders are loaded line by line", [LOAD])
    graph = review_graph(ledger, per_run=2)  # two interrupts in one node: it re-runs on each resume
    question = _question(graph.invoke({"pending": [first, second]}, CONFIG))
    state = _answer(graph, question, approve=True, reviewer="Ada")
    assert ledger.get(first).lifecycle is memvet.Lifecycle.ACTIVE
    question = _question(state)
    assert question["id"] == second
    done = _answer(graph, question, approve=True, reviewer="Ada")
    assert [o["applied"] for o in done["outcomes"]] == [True, True]
    assert [r.action for r in ledger.history(first)] == ["propose", "approve"]


def test_an_answer_after_someone_else_answered_changes_nothing(ledger) -> None:
    proposal = _proposed(ledger, "OrderStore.save appends to the file", [SAVE])
    graph = review_graph(ledger)
    question = _question(graph.invoke({"pending": [proposal]}, CONFIG))
    ledger.approve(proposal, author=GRACE)  # in a terminal, meanwhile
    done = _answer(graph, question, approve=False, reviewer="Ada", reason="too late")
    (outcome,) = done["outcomes"]
    assert outcome["refused"] == "already answered by Grace (person) (approve)"
    assert [r.action for r in ledger.history(proposal)] == ["propose", "approve"]


def test_nothing_to_review_is_refused_before_any_interrupt(ledger) -> None:
    active = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    graph = review_graph(ledger)
    with pytest.raises(memvet.NotAllowedError, match=f"nothing to review: decision {active} is active"):
        graph.invoke({"pending": [active]}, CONFIG)
    with pytest.raises(memvet.UnknownDecisionError):
        review_graph(ledger).invoke({"pending": ["ffffffffffff"]}, {"configurable": {"thread_id": "u"}})
    with pytest.raises(TypeError, match=r"review_proposal needs a memvet\.Ledger"):
        review_proposal(".", active)  # type: ignore[arg-type]


async def test_a_sync_review_node_works_in_an_async_graph(ledger) -> None:
    proposal = _proposed(ledger, "OrderStore.save appends to the file", [SAVE])
    graph = review_graph(ledger)
    state = await graph.ainvoke({"pending": [proposal]}, CONFIG)
    done = await graph.ainvoke(Command(resume={"id": _question(state)["id"], "approve": True,
                                               "reviewer": "Ada"}), CONFIG)
    assert done["outcomes"][0]["lifecycle"] == "active"


def test_a_question_about_a_proposal_answered_meanwhile_still_shows_its_evidence(ledger) -> None:
    from memvet_langchain._review import _question

    proposal = _proposed(ledger, "OrderStore.save appends to the file", [SAVE])
    as_read = ledger.get(proposal)
    ledger.approve(proposal, author=GRACE)  # between the node's read and its question
    question = _question(ledger, as_read, None)
    assert question["id"] == proposal and question["conflicts"] == []
    assert [(a["spec"], a["result"]) for a in question["anchors"]] == [(SAVE, "holds")]


def test_the_answer_model() -> None:
    assert ReviewAnswer(id=" abcd ", approve=True).id == "abcd"
    with pytest.raises(ValidationError, match="a decline needs a reason"):
        ReviewAnswer(id="abcd", approve=False, reason=" ")


# ------------------------------------------------------------------ HumanInTheLoopMiddleware


class _Scripted(GenericFakeChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> _Scripted:
        return self


def _asks_to_reject(decision_id: str) -> _Scripted:
    return _Scripted(messages=iter([
        AIMessage(content="", tool_calls=[{"name": "memvet_reject", "id": "c1", "args": {
            "decision_id": decision_id, "reason": "loading should stream"}}]),
        AIMessage(content="Done."),
    ]))


def test_the_documented_hitl_recipe_runs(ledger, capsys) -> None:
    docs = (ROOT / "docs" / "langchain.md").read_text(encoding="utf-8")
    (recipe,) = [b for b in re.findall(r"```python\n(.*?)```", docs, re.S) if "HumanInTheLoopMiddleware(" in b]
    decision = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    scope: dict[str, Any] = {"model": _asks_to_reject(decision), "ledger": ledger}
    exec(compile(recipe, "docs/langchain.md", "exec"), scope)  # the documented recipe itself
    assert "memvet_reject" in capsys.readouterr().out
    # The person stopped the call: no request was filed.
    assert not ledger.get(decision).retiring
    answers = [m for m in scope["result"].value["messages"] if isinstance(m, ToolMessage)]
    assert answers[0].content.startswith("User rejected the tool call for `memvet_reject`")


def test_a_hitl_approval_lets_a_request_through_and_approves_no_decision(ledger) -> None:
    decision = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    agent = create_agent(_asks_to_reject(decision), tools=memvet_tools(ledger),
                         middleware=[HumanInTheLoopMiddleware(
                             interrupt_on={"memvet_reject": {"allowed_decisions": ["approve", "reject"]}},
                             interrupt_mode="per_call")],
                         checkpointer=InMemorySaver())
    result = agent.invoke({"messages": [{"role": "user", "content": "tidy up"}]}, CONFIG, version="v2")
    agent.invoke(Command(resume={i.id: {"type": "approve"} for i in result.interrupts}), CONFIG, version="v2")
    kept = ledger.get(decision)
    assert kept.lifecycle is memvet.Lifecycle.ACTIVE and kept.retire_reason == "loading should stream"
    # The decision itself is still a person's to answer, through review_proposal or `memvet review`.
    graph = review_graph(ledger)
    question = _question(graph.invoke({"pending": [decision]}, {"configurable": {"thread_id": "r"}}))
    assert question["kind"] == "retire_request"
