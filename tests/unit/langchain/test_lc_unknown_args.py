"""The LangChain tools are loud on what they do not know: an argument a tool
does not take is an error (never dropped), and ``k`` is checked with the
message every adapter gives (MCP, LangChain, LlamaIndex)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

import memvet
from memvet_langchain import memvet_tools

SAVE = "shop/store.py::OrderStore.save"


@pytest.fixture
def tools(ledger):
    return {t.name: t for t in memvet_tools(ledger)}


@pytest.mark.parametrize(("name", "args", "unknown"), [
    ("memvet_recall", {"query": "orders", "top_k": 3}, "top_k"),
    ("memvet_record", {"claim": "Orders are appended", "anchors": [SAVE], "anchor": SAVE}, "anchor"),
    ("memvet_supersede", {"old_id": "ffffffff", "claim": "c", "reason": "r", "why": "x"}, "why"),
    ("memvet_reject", {"decision_id": "ffffffff", "reason": "r", "force": True}, "force"),
    ("memvet_check", {"only_problems": False, "verbose": True}, "verbose"),
])
def test_an_unknown_argument_is_an_error_and_nothing_is_written(ledger, tools, name, args, unknown):
    with pytest.raises(ValidationError, match=rf"(?s){unknown}\n  Extra inputs are not permitted"):
        tools[name].invoke(args)
    assert ledger.decisions() == []


def test_every_tool_schema_is_closed(tools):
    for tool in tools.values():
        assert tool.args_schema.model_json_schema()["additionalProperties"] is False, tool.name


@pytest.mark.parametrize("k", [0, -1, 51, True, "3"])
def test_k_is_checked_with_the_shared_message(ledger, tools, k):
    ledger.record("Orders are appended", [SAVE])
    with pytest.raises(ValidationError, match=f"k must be a whole number from 1 to 50, got {k!r}"):
        tools["memvet_recall"].invoke({"query": "orders", "k": k})
    with pytest.raises(memvet.UsageError, match=f"^k must be a whole number from 1 to 50, got {k!r}$"):
        memvet.check_tool_k(k)


def test_k_bounds_are_in_the_schema_and_good_values_pass(ledger, tools):
    did = ledger.record("Orders are appended", [SAVE]).id
    schema = tools["memvet_recall"].args_schema.model_json_schema()["properties"]["k"]
    assert (schema["minimum"], schema["maximum"]) == (1, 50)
    assert did in tools["memvet_recall"].invoke({"query": "orders", "k": 50})
