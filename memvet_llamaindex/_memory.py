"""A memory block that puts verified decisions into an agent's system prompt."""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr, field_validator
from llama_index.core.memory import BaseMemoryBlock

from memvet import Ledger, render_blocks
from memvet_llamaindex._checks import GROUPS, check_groups, check_k, require_ledger

__all__ = ["MemVetMemoryBlock"]


class MemVetMemoryBlock(BaseMemoryBlock[str]):
    """Decisions relevant to the conversation, verified and grouped, for ``Memory``.

    On every ``Memory.get`` the block recalls the decisions nearest to the
    text of the last ``retrieval_context_window`` messages, verifies them
    against the code at ``at`` and returns the same three labelled blocks as
    the other MemVet adapters (:func:`memvet.render_blocks`)::

        ## Current decisions (verified against the code)
        ## Verify before relying (the evidence drifted or is missing)
        ## Previously tried and rejected, superseded or contradicted (do not repeat)

    ``Memory`` renders them inside ``<memory><memvet_decisions>...`` in the
    system message. An empty recall returns ``""`` and the block is left out.

    Writing is explicit: this block records nothing from the conversation.
    ``aput`` (called when ``Memory`` flushes old chat messages) is a no-op,
    because a decision needs a claim and anchors that someone chose; write
    them with :class:`~memvet_llamaindex.MemVetToolSpec` or the ledger. For
    the same reason ``accept_short_term_memory`` defaults to ``False``.

    Example::

        block = MemVetMemoryBlock(ledger, similarity_top_k=5)
        memory = Memory.from_defaults(session_id="s1", memory_blocks=[block])

    Args:
        ledger: The ledger to read (checked: a TypeError otherwise).
        **data: The fields below and ``BaseMemoryBlock``'s (``name``,
            ``description``, ``priority``); any other name is an error.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    name: str = Field(default="memvet_decisions", description="The name of the memory block.")
    description: str | None = Field(
        default="Decisions about this codebase, re-verified against the code at every read.",
        description="A description of the memory block.",
    )
    accept_short_term_memory: bool = Field(
        default=False, description="Flushed chat messages are never recorded as decisions."
    )
    similarity_top_k: int = Field(default=5, description="How many decisions to recall (at least 1).")
    retrieval_context_window: int = Field(
        default=5, ge=1, description="How many recent messages make up the recall query."
    )
    at: str | None = Field(default=None, description="Where to verify: None (the working tree) or a revision.")
    include: tuple[str, ...] = Field(default=GROUPS, description="The recall groups to serve.")
    max_chars: int | None = Field(
        default=None, ge=0, description="Character budget of the rendered blocks (about 4 a token)."
    )

    _ledger: Ledger = PrivateAttr()

    def __init__(self, ledger: Ledger, **data: Any) -> None:
        require_ledger(ledger, "MemVetMemoryBlock")
        if "similarity_top_k" in data:
            check_k(data["similarity_top_k"], "similarity_top_k")
        super().__init__(**data)
        self._ledger = ledger

    @field_validator("include", mode="before")
    @classmethod
    def _known_groups(cls, value: Any) -> tuple[str, ...]:
        return check_groups(value)

    @property
    def ledger(self) -> Ledger:
        """The ledger the block reads."""
        return self._ledger

    def query_text(self, messages: list[ChatMessage] | None) -> str:
        """The recall query: the text of the last ``retrieval_context_window`` messages."""
        recent = (messages or [])[-self.retrieval_context_window:]
        return "\n".join(text for m in recent if (text := (m.content or "").strip()))

    def render(self, messages: list[ChatMessage] | None) -> str:
        """The labelled blocks for ``messages`` (synchronous; ``_aget`` runs it in a thread)."""
        query = self.query_text(messages)
        if not query:
            return ""
        recall = self._ledger.recall(query, k=self.similarity_top_k, at=self.at, include=self.include)
        return render_blocks(recall, max_chars=self.max_chars)

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        return await asyncio.to_thread(self.render, messages)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Record nothing: decisions are written explicitly, never from chat."""
