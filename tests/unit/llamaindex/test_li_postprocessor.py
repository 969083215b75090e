"""MemVetPostprocessor over a plain VectorStoreIndex of exported decisions:
verification without migrating the index."""

from __future__ import annotations

import pytest
from llama_index.core import MockEmbedding, VectorStoreIndex
from llama_index.core.llms import MockLLM
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode

import memvet
from memvet_llamaindex import MemVetPostprocessor

QUESTION = "how are orders saved?"


def export(ledger: memvet.Ledger, key: str = "memvet_id") -> list[TextNode]:
    """Decisions as a user would export them into their own index."""
    return [TextNode(text=d.claim, metadata={key: d.id, "team": "shop"}) for d in ledger.decisions()]


def index_of(nodes: list[TextNode]) -> VectorStoreIndex:
    return VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=8))


def by_id(nodes, key="memvet_id"):
    return {n.node.metadata[key]: n.node for n in nodes}


def test_is_a_llamaindex_postprocessor(ledger):
    processor = MemVetPostprocessor(ledger)
    assert isinstance(processor, BaseNodePostprocessor)
    assert processor.class_name() == "MemVetPostprocessor"
    assert processor.ledger is ledger
    assert processor.id_keys == ["memvet_id", "id"]


def test_query_engine_over_exported_decisions_gets_verdicts(drifted):
    index = index_of(export(drifted.ledger))
    engine = index.as_query_engine(llm=MockLLM(), similarity_top_k=10,
                                   node_postprocessors=[MemVetPostprocessor(drifted.ledger)])
    response = engine.query(QUESTION)
    found = by_id(response.source_nodes)
    assert len(found) == 6
    status = {i: n.metadata["memvet_status"] for i, n in found.items()}
    assert status == {
        drifted.stale: "stale", drifted.verified: "verified", drifted.refuted: "refuted",
        drifted.rejected: "rejected", drifted.superseded: "superseded", drifted.successor: "verified",
    }
    claim = drifted.ledger.get(drifted.verified).claim
    assert found[drifted.verified].text == claim  # verified: annotated, text unchanged
    assert found[drifted.verified].metadata["memvet_group"] == "current"
    assert found[drifted.verified].metadata["team"] == "shop"
    assert found[drifted.stale].text.startswith("stale, the evidence it rested on was rewritten (")
    assert "OrderStore.save" in found[drifted.stale].metadata["memvet_reason"]
    assert found[drifted.refuted].text.startswith("contradicted by the code: ")
    assert found[drifted.rejected].text.startswith("previously tried, rejected: pickle is unsafe")
    assert found[drifted.superseded].text.startswith(f"superseded by {drifted.successor}: docstrings")
    # MockLLM answers with its prompt: the LLM read the framed texts.
    assert "previously tried, rejected: pickle is unsafe" in str(response)
    assert "memvet_status: stale" in str(response)


def test_the_index_keeps_its_own_nodes(drifted):
    index = index_of(export(drifted.ledger))
    retrieved = index.as_retriever(similarity_top_k=10).retrieve(QUESTION)
    MemVetPostprocessor(drifted.ledger).postprocess_nodes(retrieved)
    again = by_id(index.as_retriever(similarity_top_k=10).retrieve(QUESTION))
    assert again[drifted.stale].text == drifted.ledger.get(drifted.stale).claim
    assert "memvet_status" not in again[drifted.stale].metadata


def test_annotations_stay_out_of_embeddings_and_the_reason_out_of_the_prompt(drifted):
    nodes = [NodeWithScore(node=n, score=1.0) for n in export(drifted.ledger)]
    out = by_id(MemVetPostprocessor(drifted.ledger).postprocess_nodes(nodes, query_str=QUESTION))
    node = out[drifted.verified]
    embedded = node.get_content(metadata_mode=MetadataMode.EMBED)
    assert "memvet_status" not in embedded and "memvet_reason" not in embedded
    assert "memvet_group" not in embedded
    llm_view = node.get_content(metadata_mode=MetadataMode.LLM)
    assert "memvet_status: verified" in llm_view and "memvet_reason" not in llm_view


def test_drop_history_removes_refuted_superseded_and_rejected(drifted):
    nodes = index_of(export(drifted.ledger)).as_retriever(similarity_top_k=10).retrieve(QUESTION)
    kept = MemVetPostprocessor(drifted.ledger, drop_history=True).postprocess_nodes(nodes)
    assert set(by_id(kept)) == {drifted.stale, drifted.verified, drifted.successor}


def test_at_a_revision(drifted):
    nodes = [NodeWithScore(node=n, score=0.5) for n in export(drifted.ledger)]
    out = by_id(MemVetPostprocessor(drifted.ledger, at=drifted.before).postprocess_nodes(nodes))
    assert out[drifted.stale].metadata["memvet_status"] == "verified"
    assert out[drifted.stale].text == drifted.ledger.get(drifted.stale).claim


def test_the_id_key_is_configurable_and_id_is_a_fallback(drifted):
    plain = [NodeWithScore(node=n) for n in export(drifted.ledger, key="id")]
    out = by_id(MemVetPostprocessor(drifted.ledger).postprocess_nodes(plain), key="id")
    assert out[drifted.stale].metadata["memvet_status"] == "stale"

    custom = [NodeWithScore(node=n) for n in export(drifted.ledger, key="decision")]
    processor = MemVetPostprocessor(drifted.ledger, id_keys=["decision"])
    out = by_id(processor.postprocess_nodes(custom), key="decision")
    assert out[drifted.refuted].metadata["memvet_status"] == "refuted"


def test_nodes_that_are_not_decisions_pass_through(drifted):
    other = NodeWithScore(node=TextNode(text="unrelated", metadata={"id": 7}), score=0.3)
    bare = NodeWithScore(node=TextNode(text="no metadata"), score=0.2)
    out = MemVetPostprocessor(drifted.ledger).postprocess_nodes([other, bare])
    assert out[0] is other and out[1] is bare


def test_an_id_unknown_to_this_ledger_is_marked_unknown(drifted):
    stranger = TextNode(text="a decision from another ledger", metadata={"memvet_id": "0123456789ab"})
    prefix = TextNode(text="a prefix is not an id", metadata={"memvet_id": drifted.stale[:6]})
    out = MemVetPostprocessor(drifted.ledger).postprocess_nodes(
        [NodeWithScore(node=stranger, score=0.9), NodeWithScore(node=prefix, score=0.8)])
    assert [n.node.metadata["memvet_status"] for n in out] == ["unknown", "unknown"]
    assert out[0].node.text == "a decision from another ledger"
    assert out[0].score == 0.9
    assert "no decision 0123456789ab" in out[0].node.metadata["memvet_reason"]
    assert out[1].node.metadata["memvet_reason"].startswith(f"no decision {drifted.stale[:6]}")


def test_duplicate_ids_are_verified_once_and_order_is_kept(drifted):
    chunks = [TextNode(text=f"chunk {i}", metadata={"memvet_id": drifted.stale}) for i in range(3)]
    out = MemVetPostprocessor(drifted.ledger).postprocess_nodes([NodeWithScore(node=c) for c in chunks])
    assert [n.node.metadata["memvet_status"] for n in out] == ["stale"] * 3
    assert len({id(n.node) for n in out}) == 3


async def test_apostprocess_nodes(drifted):
    nodes = await index_of(export(drifted.ledger)).as_retriever(similarity_top_k=10).aretrieve(QUESTION)
    out = by_id(await MemVetPostprocessor(drifted.ledger).apostprocess_nodes(
        nodes, query_bundle=QueryBundle(QUESTION)))
    assert out[drifted.rejected].metadata["memvet_group"] == "history"


async def test_async_query_engine(drifted):
    engine = index_of(export(drifted.ledger)).as_query_engine(
        llm=MockLLM(), similarity_top_k=10, node_postprocessors=[MemVetPostprocessor(drifted.ledger)])
    response = await engine.aquery(QUESTION)
    assert by_id(response.source_nodes)[drifted.stale].metadata["memvet_status"] == "stale"


class DownLedger(memvet.Ledger):
    """A ledger whose store cannot be reached."""

    namespace = "down"

    def __init__(self) -> None:  # a fake: nothing to open
        pass

    def get(self, decision_id):
        raise memvet.StoreUnavailableError("the Chroma server at localhost:8000 cannot be reached")


def test_an_outage_raises_instead_of_looking_verified():
    node = NodeWithScore(node=TextNode(text="x", metadata={"memvet_id": "0123456789ab"}))
    with pytest.raises(memvet.StoreUnavailableError):
        MemVetPostprocessor(DownLedger()).postprocess_nodes([node])
