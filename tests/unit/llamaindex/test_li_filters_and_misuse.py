"""LlamaIndex adapters: MetadataFilters on tags, paths and status; misuse is loud."""

from __future__ import annotations

import pytest
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)

import memvet
from memvet_llamaindex import MemVetMemoryBlock, MemVetPostprocessor, MemVetRetriever, MemVetToolSpec

QUESTION = "orders"


def F(key, value, op=FilterOperator.EQ):
    return MetadataFilter(key=key, value=value, operator=op)


@pytest.fixture
def tagged(repo, ledger):
    ids = {
        "save": ledger.record("Orders are saved one JSON line each", ["shop/store.py::OrderStore.save"],
                              tags=["storage"]).id,
        "readme": ledger.record("The readme is one short paragraph", ["README.md"], tags=["docs"]).id,
        "loose": ledger.record("Order ids are UUID4 strings", tags=["storage", "ids"]).id,
    }
    return ids


def ids(retriever: MemVetRetriever) -> set[str]:
    return {n.node.node_id for n in retriever.retrieve(QUESTION)}


def retriever(ledger, *filters, condition=FilterCondition.AND):
    return MemVetRetriever(ledger, similarity_top_k=10,
                           filters=MetadataFilters(filters=list(filters), condition=condition))


def test_tags_paths_and_status_filters(ledger, tagged):
    assert ids(retriever(ledger, F("tags", "storage"))) == {tagged["save"], tagged["loose"]}
    assert ids(retriever(ledger, F("tags", ["docs", "ids"], FilterOperator.IN))) == {tagged["readme"], tagged["loose"]}
    assert ids(retriever(ledger, F("tags", ["ids"], FilterOperator.ANY))) == {tagged["loose"]}
    assert ids(retriever(ledger, F("tags", "docs", FilterOperator.CONTAINS))) == {tagged["readme"]}
    assert ids(retriever(ledger, F("paths", "shop/"))) == {tagged["save"]}
    assert ids(retriever(ledger, F("status", "unanchored"))) == {tagged["loose"]}
    assert ids(retriever(ledger, F("status", ["unanchored"], FilterOperator.NIN))) == {tagged["save"], tagged["readme"]}
    assert ids(retriever(ledger, F("status", "verified", FilterOperator.NE),
                         F("tags", "storage"))) == {tagged["loose"]}
    assert ids(retriever(ledger, F("tags", "docs"), F("tags", "ids"), condition=FilterCondition.OR)) == {
        tagged["readme"], tagged["loose"]}
    assert ids(retriever(ledger, F("tags", "storage"), F("paths", "shop"))) == {tagged["save"]}


def test_status_filter_fills_k(ledger, tagged):
    r = MemVetRetriever(ledger, similarity_top_k=1, filters=MetadataFilters(filters=[F("status", "unanchored")]))
    assert [n.node.node_id for n in r.retrieve(QUESTION)] == [tagged["loose"]]
    history_only = MemVetRetriever(ledger, include="current",
                                   filters=MetadataFilters(filters=[F("status", "rejected")]))
    assert history_only.retrieve(QUESTION) == []


@pytest.mark.parametrize("filters, message", [
    ([F("tags", "x", FilterOperator.ALL)], "filter operator 'all' on 'tags' is not supported by MemVet"),
    ([F("tags", "x", FilterOperator.NE)], "filter operator '!=' on 'tags' is not supported"),
    ([F("score", 1, FilterOperator.GT)], "MemVet cannot filter on 'score'"),
    ([F("status", "fresh")], "unknown status fresh"),
    ([F("tags", 3)], "filter on 'tags': expected a string or a list of strings"),
    ([F("tags", "a"), F("tags", "b")], "two filters on 'tags' joined by 'and'"),
])
def test_unsupported_filters_are_clear_errors(ledger, filters, message):
    with pytest.raises(memvet.UsageError, match=message):
        MemVetRetriever(ledger, filters=MetadataFilters(filters=filters))


def test_unsupported_conditions_are_clear_errors(ledger):
    with pytest.raises(memvet.UsageError, match="'or' across different keys"):
        MemVetRetriever(ledger, filters=MetadataFilters(filters=[F("tags", "a"), F("paths", "b")],
                                                        condition=FilterCondition.OR))
    with pytest.raises(memvet.UsageError, match="filter condition 'not' is not supported"):
        MemVetRetriever(ledger, filters=MetadataFilters(filters=[F("tags", "a")], condition=FilterCondition.NOT))
    with pytest.raises(memvet.UsageError, match="nested MetadataFilters"):
        MemVetRetriever(ledger, filters=MetadataFilters(filters=[MetadataFilters(filters=[F("tags", "a")])]))
    with pytest.raises(memvet.UsageError, match="filters must be a llama_index MetadataFilters, got dict"):
        MemVetRetriever(ledger, filters={"tags": ["a"]})  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [
    lambda bad: MemVetRetriever(bad),
    lambda bad: MemVetPostprocessor(bad),
    lambda bad: MemVetMemoryBlock(bad),
    lambda bad: MemVetToolSpec(bad),
])
def test_every_adapter_checks_its_ledger(make):
    with pytest.raises(TypeError, match=r"needs a memvet\.Ledger as its first argument .*got str '\.'"):
        make(".")


def test_unknown_fields_and_bad_k_are_errors(ledger):
    with pytest.raises(TypeError, match="top_k"):
        MemVetRetriever(ledger, top_k=1)
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        MemVetPostprocessor(ledger, drop=True)
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        MemVetMemoryBlock(ledger, top_k=2)
    with pytest.raises(TypeError, match="similarity_top_k"):
        MemVetToolSpec(ledger, similarity_top_k=2)
    for value, message in ((0, "at least 1, got 0"), ("3", "whole number of at least 1, got str '3'"),
                           (2.0, "got float 2.0")):
        with pytest.raises(memvet.UsageError, match=f"similarity_top_k must be .*{message}"):
            MemVetRetriever(ledger, similarity_top_k=value)
        with pytest.raises(memvet.UsageError, match=f"similarity_top_k must be .*{message}"):
            MemVetMemoryBlock(ledger, similarity_top_k=value)


def test_include_one_string_is_one_group(ledger):
    assert MemVetRetriever(ledger, include="current").include == ("current",)
    assert MemVetMemoryBlock(ledger, include="caution").include == ("caution",)
    assert MemVetToolSpec(ledger, include="history").include == ("history",)
    with pytest.raises(ValueError, match="unknown recall group"):
        MemVetRetriever(ledger, include="curent")


def test_tool_spec_tags_paths_and_check_one(ledger, tagged):
    spec = MemVetToolSpec(ledger, agent_writes="active")
    out = spec.record("Orders are written one line at a time", "shop/store.py::OrderStore.save", tags="storage")
    new = ledger.decisions()[-1]
    assert [a.spec for a in new.anchors] == ["shop/store.py::OrderStore.save"] and new.tags == ("storage",)
    assert "anchors: shop/store.py::OrderStore.save" in out
    recalled = spec.recall("orders", k=10, tags="ids")
    assert f"[{tagged['loose']}]" in recalled and f"[{tagged['save']}]" not in recalled
    by_path = spec.recall("orders", k=10, paths=["README.md"])
    assert f"[{tagged['readme']}]" in by_path and f"[{tagged['loose']}]" not in by_path
    one = spec.check(decision_id=tagged["loose"])
    assert one.startswith(f"[{tagged['loose']}] unanchored: Order ids are UUID4 strings")
    tools = {t.metadata.name: t for t in spec.to_tool_list()}
    assert {"tags", "paths"} <= set(tools["recall"].metadata.fn_schema.model_json_schema()["properties"])
    assert "decision_id" in tools["check"].metadata.fn_schema.model_json_schema()["properties"]
    assert "tags" in tools["record"].metadata.fn_schema.model_json_schema()["properties"]
    spec.record("Orders have no discount codes", None)
    assert ledger.decisions()[-1].anchors == ()
