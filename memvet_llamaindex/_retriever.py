"""A LlamaIndex retriever over a MemVet ledger."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle
from llama_index.core.vector_stores.types import MetadataFilters

from memvet import Ledger, RecallItem, Status, UsageError
from memvet_llamaindex._checks import GROUPS, check_groups, check_k, parse_filters, require_ledger
from memvet_llamaindex._nodes import recall_item_node

__all__ = ["GROUPS", "MemVetRetriever", "check_groups"]

_GROUP_OF = {s.value: s.group for s in Status}


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

    Filter like any LlamaIndex vector retriever::

        from llama_index.core.vector_stores import FilterOperator, MetadataFilter, MetadataFilters

        MemVetRetriever(ledger, filters=MetadataFilters(filters=[
            MetadataFilter(key="tags", value=["storage"], operator=FilterOperator.IN),
            MetadataFilter(key="paths", value="shop/"),
            MetadataFilter(key="status", value=["stale", "refuted"], operator=FilterOperator.NIN),
        ]))

    Keys: ``tags`` (any of), ``paths`` (anchored at or under any of these
    repository-relative files or folders) and ``status``. Operators: ``==``,
    ``in``, ``any``, ``contains``; on ``status`` also ``!=`` and ``nin``.
    Filters on different keys are joined with ``and``; ``or`` joins filters
    on one key. Anything else is a :class:`memvet.UsageError`, never ignored.

    Args:
        ledger: The ledger to read.
        similarity_top_k: How many decisions to return (at least 1).
        at: Where to verify: ``None`` (the working tree) or any revision.
        include: The groups to serve; ``("current",)`` (or ``"current"``) is
            the narrow "verified only" export.
        filters: ``MetadataFilters`` on ``tags``, ``paths`` and ``status``.
        **kwargs: Passed to ``BaseRetriever`` (``callback_manager``,
            ``verbose``, ...); anything else is a TypeError.

    Raises:
        TypeError: ``ledger`` is not a :class:`memvet.Ledger`.
        UsageError: ``similarity_top_k`` is not a whole number of at least 1,
            or a filter is not supported.
        ValueError: A group is unknown.
    """

    def __init__(self, ledger: Ledger, *, similarity_top_k: int = 5, at: str | None = None,
                 include: Iterable[str] | str = GROUPS, filters: MetadataFilters | None = None,
                 **kwargs: Any) -> None:
        self.ledger = require_ledger(ledger, "MemVetRetriever")
        self.similarity_top_k = check_k(similarity_top_k, "similarity_top_k")
        self.at = at
        self.include = check_groups(include)
        self.filters = filters
        self._filters = parse_filters(filters)
        super().__init__(**kwargs)

    def recall_items(self, query: str) -> list[RecallItem]:
        """The recalled decisions, filtered, in serving order."""
        if not isinstance(query, str):
            raise UsageError(f"MemVetRetriever.retrieve expects the query as a string, got "
                             f"{type(query).__name__} {query!r:.80}")
        f = self._filters
        k = self.similarity_top_k
        include = self.include
        if f.statuses is not None:
            include = tuple(g for g in include if g in {_GROUP_OF[s] for s in f.statuses})
            if not include:
                return []
        n = k
        while True:
            recall = self.ledger.recall(query, k=n, at=self.at, include=include, tags=f.tags, paths=f.paths)
            items = [i for i in recall.items if f.statuses is None or i.status.value in f.statuses]
            # A status narrower than its group: ask for more until k match or the ledger is exhausted.
            if len(items) >= k or len(recall.items) < n:
                return items[:k]
            n *= 4

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [recall_item_node(item) for item in self.recall_items(query_bundle.query_str)]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        # Verification reads git and Chroma synchronously; keep it off the loop.
        return await asyncio.to_thread(self._retrieve, query_bundle)
