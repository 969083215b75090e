"""MemVetToolSpec is loud on what it does not know: ``k`` outside 1..50 is
refused with the message every adapter gives (``k=0`` answered "no recorded
decisions" before), and an argument a tool does not take is an error, in a
direct call and inside a FunctionAgent."""

from __future__ import annotations

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from test_li_tools import agent_warnings, scripted, tools_of

import memvet
from memvet_llamaindex import MemVetToolSpec

SAVE = "shop/store.py::OrderStore.save"


@pytest.mark.parametrize("k", [0, -3, 51, True, "2"])
def test_recall_refuses_a_k_out_of_range_with_the_shared_message(ledger, k):
    ledger.record("Orders are appended as JSON lines", [SAVE])
    with pytest.raises(memvet.UsageError, match=f"^k must be a whole number from 1 to 50, got {k!r}$"):
        tools_of(ledger)["recall"].call(query="orders", k=k)


def test_recall_takes_k_up_to_the_bound(ledger):
    did = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    assert f"[{did}]" in tools_of(ledger)["recall"].call(query="orders", k=50).content


@pytest.mark.parametrize(("name", "args"), [
    ("recall", {"query": "orders", "top_k": 3}),
    ("record", {"claim": "Orders are appended", "anchors": [SAVE], "tag": ["x"]}),
    ("check", {"verbose": True}),
])
def test_an_unknown_argument_is_an_error_and_nothing_is_written(ledger, name, args):
    unknown = next(key for key in args if key not in ("query", "claim", "anchors"))
    with pytest.raises(TypeError, match=f"unexpected keyword argument '{unknown}'"):
        tools_of(ledger)[name].call(**args)
    assert ledger.decisions() == []


@agent_warnings
async def test_a_function_agent_reads_k_zero_as_an_error(ledger):
    ledger.record("Orders are appended as JSON lines", [SAVE])
    llm = scripted(("recall", {"query": "how are orders saved?", "k": 0}))
    agent = FunctionAgent(tools=MemVetToolSpec(ledger).to_tool_list(), llm=llm)
    answer = str(await agent.run(user_msg="how are orders saved?"))
    assert "k must be a whole number from 1 to 50, got 0" in answer
    assert "no recorded decisions" not in answer
