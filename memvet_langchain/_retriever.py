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
from memvet import Ledger
from pydantic import ConfigDict, Field, field_validator

from memvet_langchain._convert import GROUPS, check_groups, item_to_document

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
            retriever = MemVetRetriever(ledger=ledger, k=4)

    Usage:
        .. code-block:: python

            docs = retriever.invoke("how are orders saved?")
            docs = retriever.invoke("how are orders saved?", k=2)
            for doc in docs:
                print(doc.metadata["group"], doc.metadata["status"], doc.page_content)

    Attributes:
        ledger: The ledger to recall from.
        k: How many decisions to return (also accepted by ``invoke``).
        at: Where to verify: ``None`` for the working tree, or a revision.
        include: The recall groups to return; all three by default, so a
            drifted or rejected decision is seen with its framing rather
            than silently missing.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    ledger: Ledger
    k: int = Field(default=4, ge=0)
    at: str | None = None
    include: tuple[str, ...] = GROUPS

    @field_validator("include", mode="before")
    @classmethod
    def _valid_groups(cls, value: Any) -> tuple[str, ...]:
        if isinstance(value, str):
            value = (value,)
        return check_groups(value)

    def _recall(self, query: str, k: int | None) -> list[Document]:
        n = self.k if k is None else k
        recall = self.ledger.recall(query, k=n, at=self.at, include=self.include)
        return [item_to_document(item) for item in recall.items]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                k: int | None = None) -> list[Document]:
        return self._recall(query, k)

    async def _aget_relevant_documents(self, query: str, *,
                                       run_manager: AsyncCallbackManagerForRetrieverRun,
                                       k: int | None = None) -> list[Document]:
        return await asyncio.to_thread(self._recall, query, k)

    def _get_ls_params(self, **kwargs: Any) -> LangSmithRetrieverParams:
        params = super()._get_ls_params(**kwargs)
        params["ls_vector_store_provider"] = "memvet"
        params["ls_embedding_provider"] = type(self.ledger.embedder).__name__
        return params
