"""MemVetStore: LangGraph long-term memory whose items are verified decisions."""

from __future__ import annotations

import logging
import threading
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    PutOp,
    SearchItem,
    SearchOp,
)

import memvet
from memvet_langchain import MemVetMiddleware, MemVetStore

NS = ("memories", "team a")
SAVE = "shop/store.py::OrderStore.save"
SUM = "shop/store.py::checksum"
#: The person who answers the store's proposals and requests.
GRACE = memvet.Author.person("Grace")


@pytest.fixture
def store(ledger: memvet.Ledger) -> MemVetStore:
    """A store that writes active decisions: these tests are about how items
    map to decisions; proposals (the default) have their own tests below."""
    return MemVetStore(ledger, agent_writes="active")


def m(item: Item | None) -> dict[str, Any]:
    """The verdict MemVet adds to a served value."""
    assert item is not None
    return item.value["memvet"]


def answer_all(ledger: memvet.Ledger, approve: bool = True) -> None:
    """A person answers every open proposal and request (as after `memvet review`)."""
    for proposal in ledger.proposals():
        if approve:
            ledger.approve(proposal.id, author=GRACE)
        else:
            ledger.decline(proposal.id, reason="not so", author=GRACE)
    for verdict in ledger.requests():
        if approve:
            ledger.approve(verdict.id, author=GRACE)
        else:
            ledger.decline(verdict.id, reason="keep it", author=GRACE)


def test_is_a_langgraph_store(store) -> None:
    assert isinstance(store, BaseStore)


def test_put_records_a_decision_and_get_serves_its_verdict(store, repo) -> None:
    store.put(NS, "orders", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE], "tags": ["io"]})
    item = store.get(NS, "orders")
    assert isinstance(item, Item) and item.key == "orders" and tuple(item.namespace) == NS
    assert m(item)["status"] == "verified" and m(item)["group"] == "current"
    assert m(item)["anchors"] == [SAVE] and item.value["tags"] == ["io"]
    assert m(item)["text"] == "Orders are appended as JSON lines"
    decision = store.ledger.get(m(item)["id"])
    assert decision.claim == "Orders are appended as JSON lines"
    assert "io" in decision.tags

    repo.replace("shop/store.py", '"a"', '"ab"')
    repo.commit("binary append")
    drifted = m(store.get(NS, "orders"))
    assert drifted["status"] == "stale" and "OrderStore.save" in drifted["reason"]
    assert drifted["text"].startswith("stale, the evidence it rested on was rewritten")
    assert store.get(NS, "missing") is None
    assert store.get(("elsewhere",), "orders") is None


def test_delete_is_a_request_a_person_answers(store) -> None:
    store.put(NS, "cache", {"claim": "Cache orders in a module dict"})
    store.delete(NS, "cache")
    # An agent retires nothing on its own: the item stays, under caution, with the request.
    item = store.get(NS, "cache")
    assert (m(item)["status"], m(item)["group"], m(item)["lifecycle"]) == ("needs_revalidation", "caution",
                                                                          "active")
    assert m(item)["reason"].startswith("an agent (langgraph-store) proposes retiring this: deleted through "
                                        "the LangGraph store; a person approves or declines it")
    receipts = store.ledger.history(m(item)["id"])
    assert [(r.action, r.author_kind) for r in receipts] == [("record", "agent"), ("propose-retire", "agent")]
    store.delete(NS, "cache")  # asked already: nothing more to do
    assert len(store.ledger.history(m(item)["id"])) == 2

    answer_all(store.ledger)  # a person approves: now it is rejected, kept as history
    item = store.get(NS, "cache")
    assert m(item)["status"] == "rejected" and m(item)["group"] == "history"
    assert m(item)["text"] == ("previously tried, rejected: deleted through the LangGraph store "
                               "(was: Cache orders in a module dict)")
    assert store.ledger.history(m(item)["id"])[-1].who == "Grace (person)"
    store.delete(NS, "cache")  # already rejected: nothing more to do
    store.delete(NS, "never-there")
    store.delete(("no", "such"), "key")
    assert len(store.ledger.history(m(item)["id"])) == 3

    hiding = MemVetStore(store.ledger, include=("current", "caution"), delete_reason="obsolete")
    assert hiding.get(NS, "cache") is None
    hiding.put(NS, "other", {"claim": "Invoices are PDF"})
    answer_all(store.ledger)
    hiding.delete(NS, "other")
    assert "proposes retiring this: obsolete;" in m(store.get(NS, "other"))["reason"]
    store.put(NS, "third", {"claim": "Invoices are mailed"})
    store.delete(NS, "third", reason="we stopped mailing")
    answer_all(store.ledger)
    assert m(store.get(NS, "third"))["reason"] == "we stopped mailing"
    with pytest.raises(ValueError, match="a delete reason must be a non-empty string"):
        store.delete(NS, "third", reason=" ")


def test_a_declined_delete_leaves_the_item_as_it_was(store) -> None:
    store.put(NS, "k", {"claim": "Invoices are PDF"})
    store.delete(NS, "k", reason="we send HTML")
    answer_all(store.ledger, approve=False)
    item = m(store.get(NS, "k"))
    assert (item["status"], item["lifecycle"]) == ("unanchored", "active")
    assert [r.action for r in store.ledger.history(item["id"])] == ["record", "propose-retire", "decline"]


def test_putting_a_new_claim_under_a_key_supersedes_once_a_person_approves(store) -> None:
    store.put(NS, "orders", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    first = store.get(NS, "orders")
    old_id = m(first)["id"]
    store.put(NS, "orders", {"claim": "Orders are written to SQLite", "anchors": [SAVE],
                             "reason": "we need queries"})
    # The replacement is the agent's proposal; the old value stays current, with the request.
    pending = m(store.get(NS, "orders"))
    assert pending["id"] != old_id and pending["status"] == "proposed"
    old = store.ledger.get(old_id)
    assert old.lifecycle is memvet.Lifecycle.ACTIVE and old.retire_with == pending["id"]
    assert store.ledger.verify(old_id).reason.startswith(
        f"an agent (langgraph-store) proposes superseding this with {pending['id']}: we need queries")

    answer_all(store.ledger)
    newer = store.get(NS, "orders")
    new = m(newer)
    assert new["id"] == pending["id"] and new["status"] == "verified"
    assert newer.created_at == first.created_at  # survives supersede
    old = store.ledger.get(old_id)
    assert old.lifecycle is memvet.Lifecycle.SUPERSEDED and old.reason == "we need queries"
    # A value read back and put again unchanged writes nothing.
    store.put(NS, "orders", newer.value)
    assert m(store.get(NS, "orders"))["id"] == new["id"]
    assert len(store.ledger.decisions()) == 2
    # Re-putting a deleted key records afresh; the rejection stays as history.
    store.delete(NS, "orders")
    answer_all(store.ledger)
    store.put(NS, "orders", {"claim": "Orders are written to SQLite", "anchors": [SAVE]})
    assert m(store.get(NS, "orders"))["status"] == "verified"
    lifecycles = sorted(d.lifecycle.value for d in store.ledger.decisions())
    assert lifecycles == ["active", "rejected", "superseded"]


def test_a_declined_replacement_leaves_the_item_at_its_old_value(store) -> None:
    store.put(NS, "k", {"claim": "Use tabs"})
    first = m(store.get(NS, "k"))["id"]
    store.put(NS, "k", {"claim": "Use four spaces"})
    answer_all(store.ledger, approve=False)
    item = store.get(NS, "k")
    assert (m(item)["id"], m(item)["status"], item.value["claim"]) == (first, "unanchored", "Use tabs")
    assert [i.value["claim"] for i in store.search(NS)] == ["Use tabs"]
    # The next replacement is proposed against the old value again.
    store.put(NS, "k", {"claim": "Use two spaces"})
    assert store.ledger.get(m(store.get(NS, "k"))["id"]).supersedes == first


def test_default_supersede_reason_names_the_key(store) -> None:
    store.put(NS, "k", {"claim": "Use tabs"})
    first = m(store.get(NS, "k"))["id"]
    store.put(NS, "k", {"claim": "Use four spaces"})
    assert store.ledger.get(first).retire_reason == "replaced through the LangGraph store (key 'k')"
    answer_all(store.ledger)
    assert store.ledger.get(first).reason == "replaced through the LangGraph store (key 'k')"


@pytest.mark.parametrize("value", [
    {"note": "hello", "n": 3, "nested": {"a": [1, 2.5, None, True]}, "claim": "Prefer short notes"},
    {"content": "The user prefers dark mode"},
    {"content": {"kind": "preference", "text": "dark"}, "tags": "ui"},
    {"rating": 5, "liked": ["tea", "jazz"]},
    {"claim": "Orders are appended", "anchors": SAVE, "unicode": "ü ß 漢"},
])
def test_any_json_value_round_trips(store, value) -> None:
    store.put(NS, "k", value)
    item = store.get(NS, "k")
    assert {k: v for k, v in item.value.items() if k != "memvet"} == value
    plain = MemVetStore(store.ledger, verdict_key=None).get(NS, "k")
    assert plain.value == value
    assert [i.value for i in MemVetStore(store.ledger, verdict_key=None).search(NS)] == [value]


def test_the_claim_comes_from_claim_then_content_then_the_json(store) -> None:
    store.put(NS, "a", {"claim": "From claim", "content": "not this"})
    store.put(NS, "b", {"content": "From content"})
    store.put(NS, "c", {"rating": 5})
    store.put(NS, "d", {"content": {"nested": True}})
    claims = {k: store.ledger.get(m(store.get(NS, k))["id"]).claim for k in "abcd"}
    assert claims == {"a": "From claim", "b": "From content", "c": '{"rating": 5}',
                      "d": '{"content": {"nested": true}}'}
    custom = MemVetStore(store.ledger, agent_writes="active", claim_keys="memory")
    custom.put(NS, "e", {"memory": "From memory", "claim": "not this"})
    assert store.ledger.get(m(custom.get(NS, "e"))["id"]).claim == "From memory"
    assert MemVetStore(store.ledger, claim_keys=["text", "content"]).claim_keys == ("text", "content")


@pytest.mark.parametrize("value, error, message", [
    ({"claim": "x", "anchors": [1]}, ValueError, "'anchors' must be a string or a list of strings"),
    ({"claim": "x", "tags": {"a": 1}}, ValueError, "'tags' must be a string or a list of strings"),
    ({"claim": "x", "when": object()}, ValueError, "a store value must be JSON"),
    (["not", "a", "dict"], ValueError, "a store value must be a dict"),
])
def test_values_that_cannot_be_kept_are_refused(store, value, error, message) -> None:
    with pytest.raises(error, match=message):
        store.put(NS, "k", value)
    assert store.get(NS, "k") is None


def test_values_without_anchors_are_never_refused(store) -> None:
    store.put(NS, "k", {"content": "Use `frobnicate()` from the `Widget` class"})
    assert m(store.get(NS, "k"))["status"] == "unanchored"


def test_claims_with_anchors_are_graded_at_write(store) -> None:
    store.put(NS, "k", {"claim": "OrderStore.save calls fsync_all()", "anchors": SAVE})
    decision = store.ledger.get(m(store.get(NS, "k"))["id"])
    assert len(decision.findings) == 1
    assert decision.findings[0].startswith("`fsync_all()` (call) is not in shop/store.py::OrderStore.save")
    assert store.ledger.verify(decision.id).status is memvet.Status.NEEDS_REVALIDATION  # unconfirmed


def test_store_and_middleware_on_one_ledger_see_the_same_memories(store) -> None:
    store.put(("memories", "u1"), "pref", {"content": "Orders are appended as JSON lines", "anchors": [SAVE]})
    recall = MemVetMiddleware(store.ledger).recall([HumanMessage("how are orders appended?")])
    assert [i.claim for i in recall.items] == ["Orders are appended as JSON lines"]
    recorded = store.ledger.record("Order checksums are the byte sum", [SUM]).id
    assert store.get(("memories", "u1"), recorded) is None  # a decision not put through a store is no item


def test_two_items_with_one_claim_stay_two_items(store) -> None:
    store.put(("memories", "u1"), "k", {"content": "The user likes tea"})
    store.put(("memories", "u2"), "k", {"content": "The user likes tea"})
    a, b = m(store.get(("memories", "u1"), "k")), m(store.get(("memories", "u2"), "k"))
    assert a["id"] != b["id"]
    assert [tuple(i.namespace) for i in store.search(("memories", "u2"), query="tea")] == [("memories", "u2")]


def test_unresolvable_anchor_is_refused(store) -> None:
    with pytest.raises(memvet.AnchorNotFoundError):
        store.put(NS, "k", {"claim": "x", "anchors": ["shop/nope.py::X"]})


def test_conflicts_and_warnings_are_logged(store, caplog) -> None:
    store.put(NS, "a", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    store.put(NS, "gone", {"claim": "Cache loaded orders in a module level dict"})
    store.delete(NS, "gone")
    answer_all(store.ledger)
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
    assert [i.key for i in store.search(("memories", "team b"), query="orders")] == ["ids"]

    listed = store.search(("memories",))
    assert [i.key for i in listed] == ["save", "sum", "ids"]  # oldest first put (created_at)
    assert all(i.score is None for i in listed)
    assert [i.key for i in store.search(("memories",), offset=1, limit=1)] == ["sum"]
    assert [i.key for i in store.search((), filter={"memvet": {"status": "unanchored"}})] == ["ids", "x"]
    assert store.search(("memories",), query="orders", filter={"anchors": [SUM]})[0].key == "sum"


def test_filter_operators(store) -> None:
    store.put(NS, "a", {"claim": "Rule A", "tags": ["x"]})
    store.put(NS, "b", {"claim": "Rule B", "anchors": [SUM]})

    def keys(flt: dict[str, Any]) -> list[str]:
        return [i.key for i in store.search(NS, filter=flt)]

    assert keys({"memvet": {"status": "verified"}}) == ["b"]
    assert keys({"claim": {"$ne": "Rule B"}}) == ["a"]
    assert keys({"tags": ["x"]}) == ["a"]
    assert keys({"tags": ("x", "y")}) == []
    assert keys({"claim": {"sub": 1}}) == []  # a nested filter on a non-dict value
    assert keys({"missing": {"$gt": 0}}) == []
    created = store.get(NS, "b").created_at.timestamp()
    assert keys({"claim": {"$eq": "Rule A"}, "tags": {"$ne": ["y"]}}) == ["a"]
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


@pytest.mark.parametrize("label", ["team a", "a-", "_x", "ü/ß:*", "a::b", "UPPER lower 09"])
def test_labels_and_keys_round_trip(store, label) -> None:
    store.put((label, "x"), label, {"claim": f"Rule {label}"})
    assert store.get((label, "x"), label).value["claim"] == f"Rule {label}"
    assert store.list_namespaces() == [(label, "x")]
    assert [i.key for i in store.search((label,))] == [label]


def test_similar_labels_get_distinct_namespaces(store) -> None:
    store.put(("a b",), "k", {"claim": "Space"})
    store.put(("a-b",), "k", {"claim": "Dash"})
    store.put(("a",), "b/k", {"claim": "Slash in the key"})
    assert store.get(("a b",), "k").value["claim"] == "Space"
    assert store.get(("a-b",), "k").value["claim"] == "Dash"
    assert store.get(("a",), "b/k").value["claim"] == "Slash in the key"
    assert store.get(("a", "b"), "k") is None


def test_invalid_namespaces_are_refused(store) -> None:
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
    assert m(results[1])["status"] == "unanchored"
    assert [i.key for i in results[2]] == ["k"]
    assert m(results[4])["status"] == "needs_revalidation"  # put(ns, key, None) is a delete: a request
    assert store.ledger.get(m(results[4])["id"]).retire_reason == "deleted through the LangGraph store"


async def test_async_api_runs_in_a_worker_thread(store) -> None:
    threads: list[str] = []
    original = store.batch

    def spy(ops: Any) -> Any:
        threads.append(threading.current_thread().name)
        return original(ops)

    store.batch = spy  # type: ignore[method-assign]
    await store.aput(NS, "k", {"claim": "Rule K", "anchors": [SUM]})
    item = await store.aget(NS, "k")
    assert m(item)["status"] == "verified"
    assert [i.key for i in await store.asearch(NS, query="rule")] == ["k"]
    assert await store.alist_namespaces() == [NS]
    await store.adelete(NS, "k", reason="async delete")
    assert "proposes retiring this: async delete;" in m(await store.aget(NS, "k"))["reason"]
    assert threads and all(t != threading.main_thread().name for t in threads)


def test_empty_delete_reason_is_refused(ledger) -> None:
    with pytest.raises(ValueError, match="delete_reason"):
        MemVetStore(ledger, delete_reason=" ")


def test_store_misuse_is_loud(ledger) -> None:
    with pytest.raises(TypeError, match=r"MemVetStore needs a memvet\.Ledger as its first argument"):
        MemVetStore("repo")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unexpected keyword argument 'index'"):
        MemVetStore(ledger, index={"dims": 3})  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="claim_keys must be"):
        MemVetStore(ledger, claim_keys=[])
    with pytest.raises(ValueError, match="agent_name must be a non-empty name"):
        MemVetStore(ledger, agent_name=" ")
    assert MemVetStore(ledger, include="current").include == ("current",)


# ------------------------------------------------------------------ proposals (the default for an agent's put)


def test_put_writes_a_proposal_by_default(ledger) -> None:
    store = MemVetStore(ledger)
    store.put(NS, "orders", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    item = m(store.get(NS, "orders"))
    assert (item["status"], item["group"], item["lifecycle"]) == ("proposed", "caution", "proposed")
    assert item["text"] == "proposed, not yet reviewed: Orders are appended as JSON lines"
    inner = store.ledger
    assert inner.agent_writes == "proposed"
    assert inner.get(item["id"]).author_kind == "agent"
    inner.approve(item["id"], author=GRACE)  # a person, never the agent
    assert m(store.get(NS, "orders"))["status"] == "verified"

    # Replacing an approved value proposes the replacement; the old one stays
    # current, served under caution with the agent's request.
    store.put(NS, "orders", {"claim": "Orders are written to SQLite", "anchors": [SAVE]})
    replacement = m(store.get(NS, "orders"))
    assert replacement["status"] == "proposed"
    assert inner.get(replacement["id"]).supersedes == item["id"]
    assert inner.get(item["id"]).lifecycle is memvet.Lifecycle.ACTIVE
    assert inner.verify(item["id"]).status is memvet.Status.NEEDS_REVALIDATION
    assert inner.get(item["id"]).retire_with == replacement["id"]

    # Replacing a proposal before review withdraws it (the store's own) and proposes against the same target.
    store.put(NS, "orders", {"claim": "Orders are written to Postgres", "anchors": [SAVE]})
    newest = m(store.get(NS, "orders"))
    assert inner.verify(replacement["id"]).status is memvet.Status.REJECTED
    assert "replaced through the LangGraph store before review (key 'orders')" in \
        inner.verify(replacement["id"]).reason
    assert inner.get(newest["id"]).supersedes == item["id"] and newest["status"] == "proposed"
    assert inner.get(item["id"]).retire_with == newest["id"]
    inner.approve(newest["id"], author=GRACE)
    assert inner.verify(item["id"]).status is memvet.Status.SUPERSEDED

    # The same value again writes nothing; delete withdraws the store's own proposal.
    store.put(NS, "style", {"claim": "Prefer small pure functions"})
    style = m(store.get(NS, "style"))
    store.put(NS, "style", {"claim": "Prefer small pure functions"})
    assert m(store.get(NS, "style"))["id"] == style["id"]
    store.delete(NS, "style")
    assert m(store.get(NS, "style"))["status"] == "rejected"


def test_delete_withdraws_a_pending_replacement_and_asks_to_reject_the_value(ledger) -> None:
    store = MemVetStore(ledger)
    store.put(NS, "k", {"claim": "Use tabs"})
    answer_all(ledger)
    first = m(store.get(NS, "k"))["id"]
    store.put(NS, "k", {"claim": "Use four spaces"})
    pending = m(store.get(NS, "k"))["id"]
    store.delete(NS, "k", reason="no style rules in memory")
    assert ledger.get(pending).lifecycle is memvet.Lifecycle.REJECTED
    item = m(store.get(NS, "k"))
    assert (item["id"], item["status"]) == (first, "needs_revalidation")
    assert ledger.get(first).retire_reason == "no style rules in memory" and not ledger.get(first).retire_with
    answer_all(ledger)
    assert (m(store.get(NS, "k"))["id"], m(store.get(NS, "k"))["status"]) == (first, "rejected")


def test_writes_are_the_agents_and_named(ledger) -> None:
    store = MemVetStore(ledger, agent_name="planner")
    store.put(NS, "k", {"claim": "Use tabs"})
    decision = ledger.get(m(store.get(NS, "k"))["id"])
    assert (decision.author, decision.author_kind) == ("planner", "agent")
    (receipt,) = ledger.history(decision.id)
    assert (receipt.action, receipt.who) == ("propose", "planner (agent)")
    assert MemVetStore(ledger).author == memvet.Author.agent("langgraph-store")


def test_a_put_over_another_authors_proposal_asks_and_proposes_beside_it(ledger, caplog) -> None:
    MemVetStore(ledger, agent_name="planner").put(NS, "k", {"claim": "Use tabs"})
    theirs = m(MemVetStore(ledger).get(NS, "k"))["id"]
    store = MemVetStore(ledger)
    with caplog.at_level(logging.WARNING, logger="memvet_langchain._store"):
        store.put(NS, "k", {"claim": "Use four spaces"})
    assert f"proposal {theirs} is planner's, not this store's; a person is asked to turn it down" in caplog.text
    assert ledger.get(theirs).lifecycle is memvet.Lifecycle.PROPOSED
    assert ledger.get(theirs).retire_by == "langgraph-store"
    mine = m(store.get(NS, "k"))
    assert mine["id"] != theirs and mine["status"] == "proposed"
    store.delete(NS, "k")  # its own proposal: withdrawn
    assert ledger.get(mine["id"]).lifecycle is memvet.Lifecycle.REJECTED
    assert m(store.get(NS, "k"))["id"] == mine["id"]  # the newest stays the item's (rejected, history)


def test_an_uncommitted_policy_edit_changes_nothing(repo, open_ledger) -> None:
    repo.write("pyproject.toml", '[tool.memvet]\nagent-writes = "active"\n')  # not committed
    store = MemVetStore(open_ledger())
    store.put(NS, "k", {"claim": "Use tabs"})
    assert m(store.get(NS, "k"))["status"] == "proposed"
    repo.commit("review off")
    committed = MemVetStore(open_ledger())
    committed.put(NS, "k", {"claim": "Use tabs"})
    assert m(committed.get(NS, "k"))["status"] == "unanchored"


def test_a_proposal_over_a_superseded_target_is_proposed_anew(ledger) -> None:
    active = MemVetStore(ledger, agent_writes="active")
    store = MemVetStore(ledger)
    inner = store.ledger
    active.put(NS, "orders", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    first = m(active.get(NS, "orders"))["id"]
    store.put(NS, "orders", {"claim": "Orders are written to SQLite", "anchors": [SAVE]})
    proposal = m(store.get(NS, "orders"))["id"]
    assert inner.get(proposal).supersedes == first
    inner.supersede(first, "Orders are written by a worker", [SAVE], reason="moved", tags=["other"])
    store.put(NS, "orders", {"claim": "Orders are written to Postgres", "anchors": [SAVE]})
    newest = inner.get(m(store.get(NS, "orders"))["id"])
    assert inner.get(proposal).lifecycle is memvet.Lifecycle.REJECTED
    assert newest.lifecycle is memvet.Lifecycle.PROPOSED and newest.supersedes == ""


def test_the_store_follows_the_ledger_setting_and_its_own_argument(ledger) -> None:
    ledger.agent_writes = "active"
    store = MemVetStore(ledger)
    store.put(NS, "orders", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    assert m(store.get(NS, "orders"))["status"] == "verified"
    assert store.agent_writes is None  # the ledger's policy, applied by the core at each write
    assert MemVetStore(ledger, agent_writes="proposed").agent_writes == "proposed"
    with pytest.raises(ValueError, match="agent_writes must be 'proposed' or 'active'"):
        MemVetStore(ledger, agent_writes="yes")
