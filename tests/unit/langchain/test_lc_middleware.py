"""MemVetMiddleware: what the model is told, re-verified before each call."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

import memvet
from memvet_langchain import MemVetMiddleware

SAVE = "shop/store.py::OrderStore.save"
SUM = "shop/store.py::checksum"


def _request(messages: list[Any], system: SystemMessage | None = None) -> ModelRequest:
    model = GenericFakeChatModel(messages=iter([AIMessage(content="ok")]))
    return ModelRequest(model=model, messages=messages, system_message=system)


def _capture(request: ModelRequest) -> tuple[list[ModelRequest], Any]:
    seen: list[ModelRequest] = []

    def handler(req: ModelRequest) -> ModelResponse:
        seen.append(req)
        return ModelResponse(result=[AIMessage(content="ok")])

    return seen, handler


def test_is_an_agent_middleware(ledger) -> None:
    assert isinstance(MemVetMiddleware(ledger), AgentMiddleware)


def test_appends_blocks_to_an_existing_system_message(ledger) -> None:
    decision = ledger.record("Orders are saved by appending JSON lines", [SAVE]).id
    seen, handler = _capture(_request([]))
    request = _request([HumanMessage("how are orders saved?")], SystemMessage("Be brief."))
    MemVetMiddleware(ledger).wrap_model_call(request, handler)
    system = seen[0].system_message.content
    assert system.startswith("Be brief.\n\nMemVet memory:")
    assert f"## Current decisions (verified against the code)\n- [{decision}] Orders are saved" in system
    assert request.system_message.content == "Be brief."  # the original request is untouched


def test_creates_the_system_message_and_handles_block_content(ledger) -> None:
    ledger.record("Orders are saved by appending JSON lines", [SAVE])
    mw = MemVetMiddleware(ledger)
    seen, handler = _capture(_request([]))
    mw.wrap_model_call(_request([HumanMessage("orders saved")]), handler)
    assert seen[0].system_message.content.startswith("MemVet memory:")
    blocks = SystemMessage(content=[{"type": "text", "text": "Be brief."}])
    mw.wrap_model_call(_request([HumanMessage("orders saved")], blocks), handler)
    content = seen[1].system_message.content
    assert content[0] == {"type": "text", "text": "Be brief."}
    assert content[1]["text"].startswith("MemVet memory:")
    mw.wrap_model_call(_request([HumanMessage("orders saved")], SystemMessage("")), handler)
    assert seen[2].system_message.content.startswith("MemVet memory:")


def test_nothing_relevant_leaves_the_request_alone(ledger) -> None:
    mw = MemVetMiddleware(ledger)
    request = _request([HumanMessage("anything")], SystemMessage("Be brief."))
    seen, handler = _capture(request)
    mw.wrap_model_call(request, handler)  # empty ledger
    assert seen[0] is request
    ledger.record("Orders are saved by appending JSON lines", [SAVE])
    mw.wrap_model_call(_request([AIMessage("no user turn yet")]), handler)
    assert seen[1].system_message is None


def test_recalls_for_the_latest_user_turn(ledger) -> None:
    ledger.record("Orders are saved by appending JSON lines", [SAVE])
    ledger.record("Order checksums are the byte sum modulo 255", [SUM])
    mw = MemVetMiddleware(ledger, k=1)
    recall = mw.recall([HumanMessage("how are orders saved?"), AIMessage("..."),
                        HumanMessage("and the checksum modulo?")])
    assert recall.query == "and the checksum modulo?"
    assert [i.claim for i in recall.items] == ["Order checksums are the byte sum modulo 255"]


def test_adds_decisions_anchored_in_files_the_tools_touched(ledger, repo) -> None:
    repo.write("shop/pay.py", "def charge(amount):\n    return amount\n")
    repo.commit("payments")
    paid = ledger.record("Charges are in cents", ["shop/pay.py::charge"]).id
    whole = ledger.record("The payments module has no I/O", ["shop/pay.py"]).id
    ledger.record("Orders are saved by appending JSON lines", [SAVE])
    messages = [
        HumanMessage("fix the rounding bug"),
        AIMessage("", tool_calls=[{"name": "read_file", "id": "t1",
                                   "args": {"path": str(repo.path / "shop" / "pay.py"), "lines": [1, 2]}}]),
        ToolMessage("def charge...", tool_call_id="t1"),
        AIMessage("", tool_calls=[{"name": "grep", "id": "t2", "args": {"opts": {"where": "./shop/pay.py::charge"}}}]),
        AIMessage("", tool_calls=[{"name": "cat", "id": "t3", "args": {"path": "/elsewhere/shop/store.py"}}]),
        AIMessage("", tool_calls=[{"name": "cat", "id": "t4", "args": {"path": "other/shop/store.py"}}]),
    ]
    mw = MemVetMiddleware(ledger, k=0)
    assert {i.id for i in mw.recall(messages).items} == {paid, whole}
    assert MemVetMiddleware(ledger, k=0, k_touched=1).recall(messages).items[0].id == whole  # newest
    assert MemVetMiddleware(ledger, k=0, touched_files=False).recall(messages).items == ()
    ledger.reject(paid, reason="we use decimal amounts")
    hidden = MemVetMiddleware(ledger, k=0, include=("current", "caution")).recall(messages)
    assert [i.id for i in hidden.items] == [whole]
    # Already recalled through the query: not listed twice.
    both = MemVetMiddleware(ledger, k=5).recall([*messages, HumanMessage("charges in cents")])
    assert len([i for i in both.items if i.id == paid]) == 1


def test_token_budget_trims_and_says_so(ledger) -> None:
    for n in range(6):
        ledger.record(f"Orders rule number {n}: " + "x" * 150)
    text = MemVetMiddleware(ledger, k=6, max_tokens=100).memory_text([HumanMessage("orders rule")])
    blocks = text.split("\n\n", 1)[1]
    assert len(blocks) <= 400
    assert blocks.endswith("left out for the token budget)")
    full = MemVetMiddleware(ledger, k=6, max_tokens=None).memory_text([HumanMessage("orders rule")])
    assert full.count("Orders rule number") == 6


def test_invalid_configuration_is_refused(ledger) -> None:
    with pytest.raises(ValueError, match="zero or more"):
        MemVetMiddleware(ledger, k=-1)
    with pytest.raises(ValueError, match="max_tokens"):
        MemVetMiddleware(ledger, max_tokens=0)
    with pytest.raises(ValueError, match="unknown recall group"):
        MemVetMiddleware(ledger, include=("now",))


async def test_async_recall_runs_in_a_worker_thread(ledger) -> None:
    ledger.record("Orders are saved by appending JSON lines", [SAVE])
    threads: list[str] = []

    class Spy(MemVetMiddleware):
        def memory_text(self, messages: Any) -> str:
            threads.append(threading.current_thread().name)
            return super().memory_text(messages)

    seen: list[ModelRequest] = []

    async def handler(req: ModelRequest) -> ModelResponse:
        seen.append(req)
        return ModelResponse(result=[AIMessage(content="ok")])

    await Spy(ledger).awrap_model_call(_request([HumanMessage("orders saved")]), handler)
    assert threads[0] != threading.main_thread().name
    assert "Orders are saved" in seen[0].system_message.content


def test_store_outage_is_not_an_empty_memory(ledger) -> None:
    class Down(memvet.Ledger):
        def __init__(self) -> None:
            pass

        def recall(self, *args: Any, **kwargs: Any) -> Any:
            raise memvet.StoreUnavailableError("the ledger server is unreachable")

    seen, handler = _capture(_request([]))
    with pytest.raises(memvet.StoreUnavailableError):
        MemVetMiddleware(Down()).wrap_model_call(_request([HumanMessage("x")]), handler)
    assert seen == []


def test_middleware_misuse_is_loud(ledger) -> None:
    import memvet

    with pytest.raises(TypeError, match=r"MemVetMiddleware needs a memvet\.Ledger as its first argument"):
        MemVetMiddleware("repo")  # type: ignore[arg-type]
    with pytest.raises(memvet.UsageError, match="k must be a whole number of zero or more, got '5'"):
        MemVetMiddleware(ledger, k="5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unexpected keyword argument 'top_k'"):
        MemVetMiddleware(ledger, top_k=3)  # type: ignore[call-arg]
    assert MemVetMiddleware(ledger, include="current").include == ("current",)
