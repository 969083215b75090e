"""langmem's memory tools (manage and search) on MemVetStore, with no model."""

from __future__ import annotations

import json
import re

import pytest

import memvet
from memvet_langchain import MemVetMiddleware, MemVetStore

langmem = pytest.importorskip("langmem")

NS = ("memories", "{langgraph_user_id}")
GRACE = memvet.Author.person("Grace")
CONFIG = {"configurable": {"langgraph_user_id": "ada"}}


@pytest.fixture
def tools(ledger: memvet.Ledger):
    store = MemVetStore(ledger, agent_writes="active")
    manage = langmem.create_manage_memory_tool(namespace=NS, store=store)
    search = langmem.create_search_memory_tool(namespace=NS, store=store)
    return store, manage, search


def _id(answer: str) -> str:
    found = re.search(r"memory ([0-9a-f-]{36})", answer)
    assert found, answer
    return found.group(1)


def test_create_search_update_delete(tools) -> None:
    store, manage, search = tools
    created = _id(manage.invoke({"content": "The user prefers tea over coffee", "action": "create"}, CONFIG))
    item = store.get(("memories", "ada"), created)
    assert item is not None and item.value["content"] == "The user prefers tea over coffee"
    assert item.value["memvet"]["status"] == "unanchored"

    found = json.loads(search.invoke({"query": "what does the user drink?"}, CONFIG))
    assert [f["key"] for f in found] == [created]
    assert found[0]["namespace"] == ["memories", "ada"]
    assert found[0]["value"]["content"] == "The user prefers tea over coffee"
    assert found[0]["value"]["memvet"]["text"].startswith("unconfirmed, no evidence in the code")

    # An update is the agent's proposal to replace the memory; the old one
    # stays current (with the request) until a person approves.
    answer = manage.invoke({"content": "The user prefers green tea", "action": "update", "id": created}, CONFIG)
    assert answer == f"updated memory {created}"
    updated = store.get(("memories", "ada"), created)
    assert updated.value["content"] == "The user prefers green tea"
    assert updated.value["memvet"]["status"] == "proposed"
    assert updated.created_at == item.created_at
    old = item.value["memvet"]["id"]
    assert store.ledger.get(old).lifecycle is memvet.Lifecycle.ACTIVE
    store.ledger.approve(updated.value["memvet"]["id"], author=GRACE)
    assert store.ledger.get(old).lifecycle is memvet.Lifecycle.SUPERSEDED

    # langmem says "Deleted"; the store files a request that a person answers.
    assert manage.invoke({"action": "delete", "id": created}, CONFIG) == f"Deleted memory {created}"
    asked = store.get(("memories", "ada"), created)
    assert asked.value["memvet"]["status"] == "needs_revalidation"
    store.ledger.approve(asked.value["memvet"]["id"], author=GRACE)
    gone = store.get(("memories", "ada"), created)
    assert gone.value["memvet"]["status"] == "rejected"
    assert MemVetStore(store.ledger, include=("current", "caution")).get(("memories", "ada"), created) is None


async def test_async_tools(tools) -> None:
    _store, manage, search = tools
    created = _id(await manage.ainvoke({"content": "The user writes Go", "action": "create"}, CONFIG))
    found = json.loads(await search.ainvoke({"query": "language", "limit": 3}, CONFIG))
    assert [f["key"] for f in found] == [created]


def test_the_middleware_on_the_same_ledger_sees_langmem_memories(tools) -> None:
    from langchain_core.messages import HumanMessage

    store, manage, _ = tools
    manage.invoke({"content": "The user prefers tea over coffee", "action": "create"}, CONFIG)
    recall = MemVetMiddleware(store.ledger).recall([HumanMessage("does the user prefer tea?")])
    assert [i.claim for i in recall.items] == ["The user prefers tea over coffee"]
