"""MemVetRetriever through LlamaIndex's own entry points: retrieve, aretrieve
and a RetrieverQueryEngine answering with MockLLM."""

from __future__ import annotations

import threading

import pytest
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import MetadataMode, TextNode

import memvet
from memvet_llamaindex import MemVetRetriever

QUESTION = "how are orders saved to the JSON-lines file?"


def by_id(nodes):
    return {n.node.metadata["id"]: n for n in nodes}


def test_is_a_llamaindex_retriever(ledger):
    assert isinstance(MemVetRetriever(ledger), BaseRetriever)


def test_nodes_carry_the_framed_text_and_the_verdict(drifted):
    nodes = MemVetRetriever(drifted.ledger, similarity_top_k=10).retrieve(QUESTION)
    found = by_id(nodes)
    assert set(found) == {drifted.stale, drifted.verified, drifted.refuted, drifted.rejected,
                          drifted.superseded, drifted.successor}

    stale = found[drifted.stale]
    assert isinstance(stale.node, TextNode)
    assert stale.node.node_id == drifted.stale
    assert stale.node.metadata == {
        "id": drifted.stale,
        "status": "stale",
        "reason": stale.node.metadata["reason"],
        "anchors": ["shop/store.py::OrderStore.save"],
        "group": "caution",
    }
    assert "OrderStore.save" in stale.node.metadata["reason"]
    assert stale.node.text.startswith("stale, the evidence it rested on was rewritten (")
    assert stale.node.text.endswith(drifted.ledger.get(drifted.stale).claim)
    assert isinstance(stale.score, float)

    assert found[drifted.verified].node.text == drifted.ledger.get(drifted.verified).claim
    assert found[drifted.refuted].node.text.startswith("contradicted by the code: ")
    assert found[drifted.rejected].node.text.startswith(
        "previously tried, rejected: pickle is unsafe to load from disk")
    assert found[drifted.superseded].node.text.startswith(f"superseded by {drifted.successor}: ")
    assert found[drifted.rejected].node.metadata["anchors"] == []


def test_groups_come_current_then_caution_then_history(drifted):
    groups = [n.node.metadata["group"] for n in MemVetRetriever(drifted.ledger, similarity_top_k=10).retrieve(QUESTION)]
    assert groups == sorted(groups, key=["current", "caution", "history"].index)


def test_the_llm_sees_status_but_not_the_duplicated_reason(drifted):
    node = by_id(MemVetRetriever(drifted.ledger, similarity_top_k=10).retrieve(QUESTION))[drifted.stale].node
    llm_view = node.get_content(metadata_mode=MetadataMode.LLM)
    assert "status: stale" in llm_view and "anchors:" not in llm_view
    assert node.get_content(metadata_mode=MetadataMode.EMBED) == node.text


def test_top_k_include_and_at(drifted):
    assert len(MemVetRetriever(drifted.ledger, similarity_top_k=2).retrieve(QUESTION)) == 2

    current = MemVetRetriever(drifted.ledger, similarity_top_k=10, include=("current",)).retrieve(QUESTION)
    assert set(by_id(current)) == {drifted.verified, drifted.successor}

    before = by_id(MemVetRetriever(drifted.ledger, similarity_top_k=10, at=drifted.before).retrieve(QUESTION))
    assert before[drifted.stale].node.metadata["status"] == "verified"
    assert before[drifted.refuted].node.metadata["status"] == "verified"


def test_bad_arguments_fail_at_construction(ledger):
    with pytest.raises(ValueError, match="unknown recall group"):
        MemVetRetriever(ledger, include=("current", "archive"))
    with pytest.raises(memvet.UsageError, match="similarity_top_k must be at least 1, got -1"):
        MemVetRetriever(ledger, similarity_top_k=-1)


def test_errors_are_raised_not_served_as_an_empty_memory(drifted):
    with pytest.raises(memvet.UnknownRevisionError):
        MemVetRetriever(drifted.ledger, at="no-such-branch").retrieve(QUESTION)


async def test_aretrieve_matches_retrieve(drifted):
    retriever = MemVetRetriever(drifted.ledger, similarity_top_k=10)
    sync = [(n.node.node_id, n.node.text, n.score) for n in retriever.retrieve(QUESTION)]
    async_ = [(n.node.node_id, n.node.text, n.score) for n in await retriever.aretrieve(QUESTION)]
    assert async_ == sync


class ThreadRecordingLedger(memvet.Ledger):
    """The real ledger, noting which thread each recall ran on."""

    def __init__(self, ledger: memvet.Ledger) -> None:  # a wrapper: nothing to open
        self.ledger = ledger
        self.threads: list[int] = []

    def recall(self, *args, **kwargs):
        self.threads.append(threading.get_ident())
        return self.ledger.recall(*args, **kwargs)


async def test_aretrieve_does_not_block_the_event_loop(drifted):
    fake = ThreadRecordingLedger(drifted.ledger)
    nodes = await MemVetRetriever(fake, similarity_top_k=3).aretrieve(QUESTION)
    assert len(nodes) == 3
    assert fake.threads and threading.get_ident() not in fake.threads


def test_query_engine_serves_a_rewritten_decision_as_verify_before_relying(drifted):
    engine = RetrieverQueryEngine.from_args(MemVetRetriever(drifted.ledger, similarity_top_k=10), llm=MockLLM())
    response = engine.query(QUESTION)

    stale = by_id(response.source_nodes)[drifted.stale].node
    assert stale.metadata["status"] == "stale"
    # MockLLM answers with its prompt: the context the LLM was given.
    answer = str(response)
    claim = drifted.ledger.get(drifted.stale).claim
    assert f"stale, the evidence it rested on was rewritten ({stale.metadata['reason']}): {claim}" in answer
    assert "shop/store.py::OrderStore.save: the body" in answer
    assert "previously tried, rejected: pickle is unsafe to load from disk" in answer


async def test_query_engine_async(drifted):
    engine = RetrieverQueryEngine.from_args(MemVetRetriever(drifted.ledger, similarity_top_k=10), llm=MockLLM())
    response = await engine.aquery(QUESTION)
    assert by_id(response.source_nodes)[drifted.stale].node.metadata["group"] == "caution"
    assert "stale, the evidence it rested on was rewritten" in str(response)
