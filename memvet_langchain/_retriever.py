"""``MemVetRetriever``: the recall rule as a LangChain ``BaseRetriever``."""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever, LangSmithRetrieverParams
from pydantic import ConfigDict, Field, field_validator

from memvet import Ledger, UsageError
from memvet_langchain._convert import GROUPS, check_groups, check_k, item_to_document, parse_filter, require_ledger

__all__ = ["MemVetRetriever"]


class MemVetRetriever(BaseRetriever):
    """Decisions relevant to a query, re-verified against the code at every call.

    Every returned ``Document`` carries its framing in ``page_content``: a
    verified decision reads as its claim, a drifted one as "stale, the
    evidence it rested on was rewritten (<reason>): <claim>", a rejected one
    as "previously tried, rejected: <reason> (was: <claim>)". A consumer that
    drops metadata still cannot mistake history for advice.

    Setup:
        Install the extra: ``pip install "memvet[langchain]"``.

    Instantiate:
        .. code-block:: python

            import memvet
            from memvet_langchain import MemVetRetriever

            ledger = memvet.Ledger.open(".")
            retriever = MemVetRetriever(ledger, k=4)
            # or as langchain-chroma users write it:
            retriever = MemVetRetriever(ledger, search_kwargs={"k": 4, "filter": {"tags": ["storage"]}})

    Usage:
        .. code-block:: python

            docs = retriever.invoke("how are orders saved?")
            docs = retriever.invoke("how are orders saved?", k=2, filter={"paths": ["shop/"]})
            for doc in docs:
                print(doc.metadata["group"], doc.metadata["status"], doc.page_content)

    Unknown constructor fields, ``search_kwargs`` keys, ``filter`` keys and
    ``invoke`` arguments are errors, never silently ignored.

    Attributes:
        ledger: The ledger to recall from (also the first positional argument).
        k: How many decisions to return, at least 1 (also accepted by
            ``invoke`` and as ``search_kwargs["k"]``).
        search_kwargs: ``{"k": ..., "filter": {"tags": [...], "paths":
            [...]}}``: decisions carrying any of the tags and anchored at or
            under any of the (repository-relative) paths. ``invoke(q,
            filter=...)`` replaces the filter for one call.
        at: Where to verify: ``None`` for the working tree, or a revision.
        include: The recall groups to return; all three by default, so a
            drifted or rejected decision is seen with its framing rather
            than silently missing.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    ledger: Ledger
    k: int = 4
    at: str | None = None
    include: tuple[str, ...] = GROUPS
    search_kwargs: dict[str, Any] = Field(default_factory=dict)
    """``{"k": int, "filter": {"tags": [...], "paths": [...]}}``, as
    langchain-chroma's ``as_retriever(search_kwargs=...)`` is written."""

    def __init__(self, ledger: Ledger | None = None, /, **data: Any) -> None:
        if ledger is not None:
            if "ledger" in data:
                raise TypeError("MemVetRetriever: ledger given twice (positionally and as ledger=)")
            data["ledger"] = ledger
        require_ledger(data.get("ledger"), "MemVetRetriever")
        search = data.get("search_kwargs") or {}
        if not isinstance(search, dict):
            raise UsageError(f"search_kwargs must be a dict like {{'k': 4, 'filter': {{...}}}}, got {search!r}")
        unknown = [key for key in search if key not in ("k", "filter")]
        if unknown:
            raise UsageError(f"unsupported search_kwargs {', '.join(map(repr, unknown))}; "
                             "MemVetRetriever takes 'k' and 'filter' ({'tags': [...], 'paths': [...]})")
        if "k" in search and "k" in data:
            raise UsageError("k given twice (k= and search_kwargs['k']); give it once")
        if "k" in search:
            data["k"] = search["k"]
        if "k" in data:
            check_k(data["k"])
        parse_filter(search.get("filter"))
        super().__init__(**data)

    @field_validator("include", mode="before")
    @classmethod
    def _valid_groups(cls, value: Any) -> tuple[str, ...]:
        return check_groups(value)

    def _recall(self, query: Any, k: int | None, filter: Any = None, **unknown: Any) -> list[Document]:
        if unknown:
            raise UsageError(f"unsupported argument(s) {', '.join(map(repr, unknown))} to MemVetRetriever.invoke; "
                             "it takes k= and filter=")
        if not isinstance(query, str):
            raise UsageError(
                f"MemVetRetriever.invoke expects the query as a string, got {type(query).__name__} {query!r:.80}; "
                "pass the question's text, e.g. retriever.invoke(inputs['question'])"
            )
        n = self.k if k is None else check_k(k)
        where = parse_filter(self.search_kwargs.get("filter") if filter is None else filter)
        recall = self.ledger.recall(query, k=n, at=self.at, include=self.include, **where)
        return [item_to_document(item) for item in recall.items]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                k: int | None = None, filter: dict[str, Any] | None = None,
                                **kwargs: Any) -> list[Document]:
        return self._recall(query, k, filter, **kwargs)

    async def _aget_relevant_documents(self, query: str, *,
                                       run_manager: AsyncCallbackManagerForRetrieverRun,
                                       k: int | None = None, filter: dict[str, Any] | None = None,
                                       **kwargs: Any) -> list[Document]:
        return await asyncio.to_thread(self._recall, query, k, filter, **kwargs)

    def _get_ls_params(self, **kwargs: Any) -> LangSmithRetrieverParams:
        params = super()._get_ls_params(**kwargs)
        params["ls_vector_store_provider"] = "memvet"
        params["ls_embedding_provider"] = type(self.ledger.embedder).__name__
        return params
