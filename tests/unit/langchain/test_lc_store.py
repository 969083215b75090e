"""MemVetStore: LangGraph long-term memory whose items are verified decisions."""

from __future__ import annotations

import logging
import threading
from typing import Any

import memvet
import pytest
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    PutOp,
    SearchItem,
    SearchOp,
)

from memvet_langchain import MemVetStore
from memvet_langchain._store import _escape, _unescape

NS = ("memories", "team a")
SAVE = "shop/store.py::OrderStore.save"
SUM = "shop/store.py::checksum"


@pytest.fixture
def store(ledger: memvet.Ledger) -> MemVetStore:
    """A store that writes active decisions: these tests are about how items
    map to decisions; proposals (the default) have their own tests below."""
    return MemVetStore(ledger, agent_writes="active")


def test_is_a_langgraph_store(store) -> None:
    assert isinstance(store, BaseStore)


def test_put_records_a_decision_and_get_serves_its_verdict(store, repo) -> None:
    store.put(NS, "orders", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE], "tags": ["io"]})
    item = store.get(NS, "orders")
    assert isinstance(item, Item) and item.key == "orders" and tuple(item.namespace) == NS
    assert item.value["status"] == "verified" and item.value["group"] == "current"
    assert item.value["anchors"] == [SAVE] and item.value["tags"] == ["io"]
    assert item.value["text"] == "Orders are appended as JSON lines"
    decision = store.ledger_for(NS).get(item.value["id"])
    assert decision.claim == "Orders are appended as JSON lines"
    assert store.ledger.decisions() == []  # the namespace is its own ledger

    repo.replace("shop/store.py", '"a"', '"ab"')
    repo.commit("binary append")
    drifted = store.get(NS, "orders").value
    assert drifted["status"] == "stale" and "OrderStore.save" in drifted["reason"]
    assert drifted["text"].startswith("stale, the evidence it rested on was rewritten")
    assert store.get(NS, "missing") is None
    assert store.get(("elsewhere",), "orders") is None


def test_delete_is_a_rejection_with_a_receipt(store) -> None:
    store.put(NS, "cache", {"claim": "Cache orders in a module dict"})
    store.delete(NS, "cache")
    item = store.get(NS, "cache")
    assert item.value["status"] == "rejected" and item.value["group"] == "history"
    assert item.value["text"] == ("previously tried, rejected: deleted through the LangGraph store "
                                  "(was: Cache orders in a module dict)")
    receipts = store.ledger_for(NS).history(item.value["id"])
    assert [r.action for r in receipts] == ["record", "reject"]
    assert receipts[-1].reason == "deleted through the LangGraph store"
    store.delete(NS, "cache")  # already rejected: nothing more to do
    store.delete(NS, "never-there")
    store.delete(("no", "such"), "key")
    assert len(store.ledger_for(NS).history(item.value["id"])) == 2

    hiding = MemVetStore(store.ledger, include=("current", "caution"), delete_reason="obsolete")
    assert hiding.get(NS, "cache") is None
    hiding.put(NS, "other", {"claim": "Invoices are PDF"})
    hiding.delete(NS, "other")
    assert store.get(NS, "other").value["reason"] == "obsolete"


def test_putting_a_new_claim_under_a_key_supersedes(store) -> None:
    store.put(NS, "orders", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    old_id = store.get(NS, "orders").value["id"]
    store.put(NS, "orders", {"claim": "Orders are written to SQLite", "anchors": [SAVE],
                             "reason": "we need queries"})
    new = store.get(NS, "orders").value
    assert new["id"] != old_id and new["status"] == "verified"
    old = store.ledger_for(NS).get(old_id)
    assert old.lifecycle is memvet.Lifecycle.SUPERSEDED and old.reason == "we need queries"
    # A value read back and put again unchanged confirms instead of adding a copy.
    store.put(NS, "orders", new)
    assert store.get(NS, "orders").value["id"] == new["id"]
    assert store.ledger_for(NS).get(new["id"]).confirmations == 1
    # Re-putting a deleted key records afresh; the rejection stays as history.
    store.delete(NS, "orders")
    store.put(NS, "orders", {"claim": "Orders are written to SQLite", "anchors": [SAVE]})
    assert store.get(NS, "orders").value["status"] == "verified"
    lifecycles = sorted(d.lifecycle.value for d in store.ledger_for(NS).decisions())
    assert lifecycles == ["active", "rejected", "superseded"]


def test_default_supersede_reason_names_the_key(store) -> None:
    store.put(NS, "k", {"claim": "Use tabs"})
    first = store.get(NS, "k").value["id"]
    store.put(NS, "k", {"claim": "Use four spaces"})
    assert store.ledger_for(NS).get(first).reason == "replaced through the LangGraph store (key 'k')"


@pytest.mark.parametrize("value, message", [
    ({"note": "hello"}, "unknown key"),
    ({"text": "hello"}, "non-empty .claim."),
    ({"claim": "x", "priority": 3}, "priority"),
    ({"claim": "  "}, "non-empty 'claim'"),
    ({"claim": 3}, "non-empty 'claim'"),
    ({"claim": "x", "anchors": SAVE}, "list of anchor specs"),
    ({"claim": "x", "anchors": [1]}, "list of anchor specs"),
])
def test_values_that_are_not_decisions_are_refused(store, value, message) -> None:
    with pytest.raises(ValueError, match=message):
        store.put(NS, "k", value)
    assert store.get(NS, "k") is None


def test_unresolvable_anchor_is_refused(store) -> None:
    with pytest.raises(memvet.AnchorNotFoundError):
        store.put(NS, "k", {"claim": "x", "anchors": ["shop/nope.py::X"]})


def test_conflicts_and_warnings_are_logged(store, caplog) -> None:
    store.put(NS, "a", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    store.put(NS, "gone", {"claim": "Cache loaded orders in a module level dict"})
    store.delete(NS, "gone")
    with caplog.at_level(logging.WARNING, logger="memvet_langchain._store"):
        store.put(NS, "b", {"claim": "Orders are written to SQLite", "anchors": [SAVE]})
        store.put(NS, "c", {"claim": "Cache loaded orders in a module level dict!"})
    text = caplog.text
    assert "conflicts with decision" in text and "shares anchor" in text
    assert "previously tried, rejected: deleted through the LangGraph store" in text


def test_search_by_query_filter_offset_and_limit(store, repo) -> None:
    store.put(NS, "save", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    store.put(NS, "sum", {"claim": "Order checksums are the byte sum modulo 255", "anchors": [SUM]})
    store.put(("memories", "team b"), "ids", {"claim": "Order ids are UUID4 strings"})
    store.put(("other",), "x", {"claim": "Unrelated order note"})
    store.put(NS, "save", {"claim": "Orders are written to SQLite", "anchors": [SAVE]})  # supersedes

    found = store.search(("memories",), query="order checksums modulo", limit=10)
    assert all(isinstance(i, SearchItem) and i.score is not None for i in found)
    assert [i.score for i in found] == sorted((i.score for i in found), reverse=True)
    assert found[0].key == "sum"
    keys = [(tuple(i.namespace), i.key) for i in found]
    assert sorted(keys) == [(NS, "save"), (NS, "sum"), (("memories", "team b"), "ids")]
    assert next(i for i in found if i.key == "save").value["claim"] == "Orders are written to SQLite"

    listed = store.search(("memories",))
    assert [i.key for i in listed] == ["sum", "ids", "save"]  # oldest first
    assert all(i.score is None for i in listed)
    assert [i.key for i in store.search(("memories",), offset=1, limit=1)] == ["ids"]
    assert [i.key for i in store.search((), filter={"status": "unanchored"})] == ["ids", "x"]
    assert store.search(("memories",), query="orders", filter={"anchors": [SUM]})[0].key == "sum"


def test_filter_operators(store) -> None:
    store.put(NS, "a", {"claim": "Rule A", "tags": ["x"]})
    store.put(NS, "b", {"claim": "Rule B", "anchors": [SUM]})

    def keys(flt: dict[str, Any]) -> list[str]:
        return [i.key for i in store.search(NS, filter=flt)]

    assert keys({"status": {"$eq": "verified"}}) == ["b"]
    assert keys({"status": {"$ne": "verified"}}) == ["a"]
    assert keys({"tags": ["x"]}) == ["a"]
    assert keys({"tags": ("x", "y")}) == []
    assert keys({"claim": {"sub": 1}}) == []  # a nested filter on a non-dict value
    assert keys({"missing": {"$gt": 0}}) == []
    created = store.get(NS, "b").created_at.timestamp()
    assert keys({"claim": {"$eq": "Rule A"}, "status": {"$ne": "stale"}}) == ["a"]
    with pytest.raises(ValueError, match="unsupported filter operator"):
        keys({"claim": {"$regex": "R.*"}})
    store_b = store.get(NS, "b")
    assert store_b.updated_at.timestamp() == created


def test_numeric_filter_operators() -> None:
    from memvet_langchain._store import _compare

    assert _compare(3, {"$gt": 2, "$gte": 3, "$lt": 4, "$lte": 3})
    assert not _compare(3, {"$gt": 3})
    assert _compare({"a": {"b": 1}}, {"a": {"b": 1}})


def test_list_namespaces(store) -> None:
    for ns in [("memories", "team a"), ("memories", "team b"), ("docs", "team a", "x")]:
        store.put(ns, "k", {"claim": f"Rule for {'/'.join(ns)}"})
    store.get(("empty",), "k")  # a read creates nothing
    store.ledger_for(("opened", "empty"))  # an opened namespace with nothing in it is not listed
    assert store.list_namespaces() == [("docs", "team a", "x"), ("memories", "team a"),
                                       ("memories", "team b")]
    assert store.list_namespaces(prefix=("memories",)) == [("memories", "team a"), ("memories", "team b")]
    assert store.list_namespaces(suffix=("team a",)) == [("memories", "team a")]
    assert store.list_namespaces(prefix=("*", "team a")) == [("docs", "team a", "x"), ("memories", "team a")]
    assert store.list_namespaces(prefix=("a", "b", "c", "d")) == []
    assert store.list_namespaces(max_depth=1) == [("docs",), ("memories",)]
    assert store.list_namespaces(limit=1, offset=1) == [("memories", "team a")]
    # A fresh store on the same ledger finds them in Chroma.
    assert MemVetStore(store.ledger).list_namespaces(max_depth=1) == [("docs",), ("memories",)]


@pytest.mark.parametrize("label", ["team a", "a-", "_x", "ü/ß:*", "UPPER lower 09"])
def test_labels_escape_reversibly_into_collection_names(label) -> None:
    escaped = _escape(label)
    assert all(ch.isascii() and (ch.isalnum() or ch == "_") for ch in escaped)
    assert _unescape(escaped) == label


def test_similar_labels_get_distinct_namespaces(store) -> None:
    store.put(("a b",), "k", {"claim": "Space"})
    store.put(("a-b",), "k", {"claim": "Dash"})
    assert store.get(("a b",), "k").value["claim"] == "Space"
    assert store.get(("a-b",), "k").value["claim"] == "Dash"


def test_invalid_namespaces_are_refused(store) -> None:
    with pytest.raises(InvalidNamespaceError, match="too long"):
        store.put(("x" * 200,), "k", {"claim": "c"})
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("a.b",), "k", {"claim": "c"})])
    with pytest.raises(InvalidNamespaceError, match="langgraph"):
        store.batch([PutOp(("langgraph", "x"), "k", {"claim": "c"})])
    with pytest.raises(InvalidNamespaceError, match="empty"):
        store.batch([PutOp((), "k", {"claim": "c"})])
    with pytest.raises(TypeError, match="unknown store operation"):
        store.batch([object()])  # type: ignore[list-item]


def test_ttl_is_not_supported(store) -> None:
    with pytest.raises(NotImplementedError):
        store.put(NS, "k", {"claim": "c"}, ttl=5)


def test_batch_keeps_order(store) -> None:
    results = store.batch([
        PutOp(NS, "k", {"claim": "Rule K"}),
        GetOp(NS, "k"),
        SearchOp(NS),
        PutOp(NS, "k", None),
        GetOp(NS, "k"),
    ])
    assert results[0] is None and results[3] is None
    assert results[1].value["status"] == "unanchored"
    assert [i.key for i in results[2]] == ["k"]
    assert results[4].value["status"] == "rejected"


async def test_async_api_runs_in_a_worker_thread(store) -> None:
    threads: list[str] = []
    original = store.batch

    def spy(ops: Any) -> Any:
        threads.append(threading.current_thread().name)
        return original(ops)

    store.batch = spy  # type: ignore[method-assign]
    await store.aput(NS, "k", {"claim": "Rule K", "anchors": [SUM]})
    item = await store.aget(NS, "k")
    assert item.value["status"] == "verified"
    assert [i.key for i in await store.asearch(NS, query="rule")] == ["k"]
    assert await store.alist_namespaces() == [NS]
    await store.adelete(NS, "k")
    assert (await store.aget(NS, "k")).value["status"] == "rejected"
    assert threads and all(t != threading.main_thread().name for t in threads)


def test_decisions_written_directly_are_served_under_their_id(store) -> None:
    ledger = store.ledger_for(NS)
    decision = ledger.record("Written by the CLI", tags=["cli"]).id
    item = store.get(NS, decision)
    assert item.key == decision and item.value["tags"] == ["cli"]


def test_empty_delete_reason_is_refused(ledger) -> None:
    with pytest.raises(ValueError, match="delete_reason"):
        MemVetStore(ledger, delete_reason=" ")


# ------------------------------------------------------------------ proposals (the default for an agent's put)


def test_put_writes_a_proposal_by_default(ledger) -> None:
    store = MemVetStore(ledger)
    store.put(NS, "orders", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    item = store.get(NS, "orders").value
    assert (item["status"], item["group"], item["lifecycle"]) == ("proposed", "caution", "proposed")
    assert item["text"] == "proposed, not yet reviewed: Orders are appended as JSON lines"
    inner = store.ledger_for(NS)
    assert inner.agent_writes == "proposed"
    inner.approve(item["id"])
    assert store.get(NS, "orders").value["status"] == "verified"

    # Replacing an approved value proposes the replacement; the old one stays current.
    store.put(NS, "orders", {"claim": "Orders are written to SQLite", "anchors": [SAVE]})
    replacement = store.get(NS, "orders").value
    assert replacement["status"] == "proposed"
    assert inner.get(replacement["id"]).supersedes == item["id"]
    assert inner.verify(item["id"]).status is memvet.Status.VERIFIED

    # Replacing a proposal before review withdraws it and proposes against the same target.
    store.put(NS, "orders", {"claim": "Orders are written to Postgres", "anchors": [SAVE]})
    newest = store.get(NS, "orders").value
    assert inner.verify(replacement["id"]).status is memvet.Status.REJECTED
    assert "replaced through the LangGraph store before review (key 'orders')" in \
        inner.verify(replacement["id"]).reason
    assert inner.get(newest["id"]).supersedes == item["id"] and newest["status"] == "proposed"
    inner.approve(newest["id"])
    assert inner.verify(item["id"]).status is memvet.Status.SUPERSEDED

    # The same value again confirms the proposal; delete turns a proposal down.
    store.put(NS, "style", {"claim": "Prefer small pure functions"})
    store.put(NS, "style", {"claim": "Prefer small pure functions"})
    style = store.get(NS, "style").value
    assert inner.get(style["id"]).confirmations == 1
    store.delete(NS, "style")
    assert store.get(NS, "style").value["status"] == "rejected"


def test_a_proposal_over_a_superseded_target_is_proposed_anew(ledger) -> None:
    store = MemVetStore(ledger)
    inner = store.ledger_for(NS)
    first = inner.record("Orders are appended as JSON lines", [SAVE], tags=["lg-key:orders"]).id
    store.put(NS, "orders", {"claim": "Orders are written to SQLite", "anchors": [SAVE]})
    proposal = store.get(NS, "orders").value["id"]
    inner.supersede(first, "Orders are written by a worker", [SAVE], reason="moved", tags=["other"])
    store.put(NS, "orders", {"claim": "Orders are written to Postgres", "anchors": [SAVE]})
    newest = inner.get(store.get(NS, "orders").value["id"])
    assert inner.get(proposal).lifecycle is memvet.Lifecycle.REJECTED
    assert newest.lifecycle is memvet.Lifecycle.PROPOSED and newest.supersedes == ""


def test_the_store_follows_the_ledger_setting_and_its_own_argument(ledger) -> None:
    ledger.agent_writes = "active"
    store = MemVetStore(ledger)
    store.put(NS, "orders", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    assert store.get(NS, "orders").value["status"] == "verified"
    assert MemVetStore(ledger, agent_writes="proposed").agent_writes == "proposed"
    with pytest.raises(ValueError, match="agent_writes must be 'proposed' or 'active'"):
        MemVetStore(ledger, agent_writes="yes")
