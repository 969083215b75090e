"""Decisions as LlamaIndex nodes: one place that decides the metadata keys."""

from __future__ import annotations

from llama_index.core.schema import NodeWithScore, TextNode

from memvet import RecallItem

__all__ = ["METADATA_KEYS", "recall_item_node"]

#: Metadata keys every node from :class:`~memvet_llamaindex.MemVetRetriever` carries.
METADATA_KEYS = ("id", "status", "reason", "anchors", "group")


def recall_item_node(item: RecallItem) -> NodeWithScore:
    """A recalled decision as a scored node whose text is the framed claim.

    The text says the status in band (``"stale, the evidence it rested on was
    rewritten (...): <claim>"``), so an LLM reading only the text still cannot
    take a stale or rejected decision for a current one. ``reason`` and
    ``anchors`` stay out of the LLM's view (the framed text already carries
    the reason); no metadata goes into embeddings.
    """
    anchors = [anchor.spec for anchor in item.verdict.decision.anchors]
    node = TextNode(
        id_=item.id,
        text=item.text,
        metadata={
            "id": item.id,
            "status": item.status.value,
            "reason": item.reason,
            "anchors": anchors,
            "group": item.group,
        },
        excluded_llm_metadata_keys=["reason", "anchors"],
        excluded_embed_metadata_keys=list(METADATA_KEYS),
    )
    return NodeWithScore(node=node, score=item.score)
