"""A LlamaIndex retriever over a MemVet ledger."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle
from memvet import Ledger

from memvet_llamaindex._nodes import recall_item_node

__all__ = ["GROUPS", "MemVetRetriever", "check_groups"]

GROUPS = ("current", "caution", "history")


def check_groups(include: Iterable[str]) -> tuple[str, ...]:
    """``include`` as a tuple, or ``ValueError`` naming the unknown groups."""
    groups = tuple(include)
    unknown = set(groups) - set(GROUPS)
    if unknown:
        raise ValueError(
            f"unknown recall group(s) {', '.join(sorted(unknown))}; choose from {', '.join(GROUPS)}"
        )
    return groups


class MemVetRetriever(BaseRetriever):
    """Decisions relevant to a query, re-verified against the code at every read.

    Each result is a ``NodeWithScore`` over a ``TextNode`` whose text is the
    framed claim (a stale decision reads "stale, the evidence it rested on
    was rewritten (<reason>): <claim>") and whose metadata holds ``id``,
    ``status``, ``reason``, ``anchors`` (the specs, e.g.
    ``"shop/store.py::OrderStore.save"``) and ``group`` (``current``,
    ``caution`` or ``history``). Nodes come current first, then caution, then
    history, each group nearest first.

    Example::

        from llama_index.core.llms import MockLLM
        from llama_index.core.query_engine import RetrieverQueryEngine

        retriever = MemVetRetriever(ledger, similarity_top_k=5)
        engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
        engine.query("how are orders saved?")

    Args:
        ledger: The ledger to read.
        similarity_top_k: How many decisions to return.
        at: Where to verify: ``None`` (the working tree) or any revision.
        include: The groups to serve; ``("current",)`` is the narrow
            "verified only" export.
        **kwargs: Passed to ``BaseRetriever`` (``callback_manager``,
            ``verbose``, ...).

    Raises:
        ValueError: ``similarity_top_k`` is negative or a group is unknown.
    """

    def __init__(self, ledger: Ledger, *, similarity_top_k: int = 5, at: str | None = None,
                 include: Iterable[str] = GROUPS, **kwargs: Any) -> None:
        if similarity_top_k < 0:
            raise ValueError("similarity_top_k must be zero or more")
        self.ledger = ledger
        self.similarity_top_k = similarity_top_k
        self.at = at
        self.include = check_groups(include)
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        recall = self.ledger.recall(query_bundle.query_str, k=self.similarity_top_k, at=self.at,
                                    include=self.include)
        return [recall_item_node(item) for item in recall.items]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        # Verification reads git and Chroma synchronously; keep it off the loop.
        return await asyncio.to_thread(self._retrieve, query_bundle)
