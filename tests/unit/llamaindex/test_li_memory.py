"""MemVetMemoryBlock inside llama_index.core.memory.Memory."""

from __future__ import annotations

import uuid

import pytest
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import ValidationError
from llama_index.core.memory import BaseMemoryBlock, Memory
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from memvet_llamaindex import MemVetMemoryBlock

QUESTION = "how are orders saved to the JSON-lines file, and what about pickle?"

CURRENT = "## Current decisions (verified against the code)"
CAUTION = "## Verify before relying (the evidence drifted or is missing)"
HISTORY = "## Previously tried and rejected, superseded or contradicted (do not repeat)"


@pytest.fixture
async def engine():
    """The short-term chat store's engine. ``Memory`` creates its own when not
    given one and has no API to close it, so its aiosqlite connections would
    be garbage-collected open (a ResourceWarning); we own it and dispose it."""
    engine = create_async_engine("sqlite+aiosqlite:///:memory:")
    yield engine
    await engine.dispose()


def memory_with(engine: AsyncEngine, block: MemVetMemoryBlock, **kwargs) -> Memory:
    return Memory.from_defaults(session_id=f"s-{uuid.uuid4().hex[:8]}", memory_blocks=[block],
                                async_engine=engine, **kwargs)


def section(text: str, title: str) -> str:
    """The lines under one title, up to the next title."""
    after = text.split(title, 1)[1]
    return after.split("\n## ", 1)[0]


def test_is_a_memory_block(ledger):
    block = MemVetMemoryBlock(ledger)
    assert isinstance(block, BaseMemoryBlock)
    assert block.ledger is ledger
    assert block.name == "memvet_decisions"
    assert block.accept_short_term_memory is False


def test_memory_puts_the_three_groups_in_the_system_message(drifted, engine):
    memory = memory_with(engine, MemVetMemoryBlock(drifted.ledger, similarity_top_k=10))
    memory.put(ChatMessage(role=MessageRole.USER, content=QUESTION))
    messages = memory.get()

    system = messages[0]
    assert system.role is MessageRole.SYSTEM
    text = system.content
    assert "<memvet_decisions>" in text
    assert text.index(CURRENT) < text.index(CAUTION) < text.index(HISTORY)
    assert f"[{drifted.verified}]" in section(text, CURRENT)
    caution = section(text, CAUTION)
    assert f"[{drifted.stale}] stale, the evidence it rested on was rewritten (" in caution
    assert "shop/store.py::OrderStore.save: the body" in caution
    history = section(text, HISTORY)
    assert f"[{drifted.rejected}] previously tried, rejected: pickle is unsafe" in history
    assert f"[{drifted.refuted}] contradicted by the code" in history
    assert f"[{drifted.superseded}] superseded by {drifted.successor}" in history
    assert messages[-1].content == QUESTION


async def test_memory_aget_with_input(drifted, engine):
    memory = memory_with(engine, MemVetMemoryBlock(drifted.ledger, similarity_top_k=10, include=("caution",)))
    messages = await memory.aget(input=QUESTION)
    text = messages[0].content
    assert CAUTION in text and CURRENT not in text and HISTORY not in text
    assert f"[{drifted.stale}]" in text


async def test_the_query_is_the_recent_window(drifted):
    block = MemVetMemoryBlock(drifted.ledger, retrieval_context_window=2)
    messages = [ChatMessage(role="user", content=t) for t in ("first", "", "second", "third")]
    messages.append(ChatMessage(role="assistant", content=None))
    assert block.query_text(messages) == "third"
    assert block.query_text(None) == ""


async def test_no_messages_means_no_block(drifted, engine):
    block = MemVetMemoryBlock(drifted.ledger)
    assert await block.aget([]) == ""
    memory = memory_with(engine, block)
    assert await memory.aget() == []


async def test_max_chars_bounds_the_block(drifted):
    block = MemVetMemoryBlock(drifted.ledger, similarity_top_k=10, max_chars=120)
    text = await block.aget([ChatMessage(role="user", content=QUESTION)])
    assert len(text.rsplit("\n", 1)[0]) <= 120
    assert text.endswith("left out for the token budget)")


async def test_aput_records_nothing(drifted):
    before = drifted.ledger.decisions()
    block = MemVetMemoryBlock(drifted.ledger, accept_short_term_memory=True)
    await block.aput([ChatMessage(role="user", content="We decided to store orders in SQLite.")])
    assert drifted.ledger.decisions() == before


async def test_flushed_chat_is_never_recorded(drifted, engine):
    before = drifted.ledger.decisions()
    memory = memory_with(engine, MemVetMemoryBlock(drifted.ledger), token_limit=60, token_flush_size=20)
    for i in range(12):
        await memory.aput(ChatMessage(role="user", content=f"decision {i}: orders go to SQLite now"))
    assert drifted.ledger.decisions() == before
    messages = await memory.aget()
    assert messages[0].role is MessageRole.SYSTEM and "<memvet_decisions>" in messages[0].content


def test_unknown_groups_are_refused(ledger):
    with pytest.raises(ValidationError, match="unknown recall group"):
        MemVetMemoryBlock(ledger, include=("current", "archive"))
