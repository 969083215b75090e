"""One Ledger shared by many threads: nothing lost, nothing untranslated;
and the ledger folder kept out of git.

LangGraph's ToolNode runs the tool calls of one AIMessage in threads, and a
service shares one Ledger between request handlers. The workload is in
``tests/_threads.py`` (the server's integration test runs it too).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from _threads import OPS, THREADS, assert_nothing_lost, claim, run_workers
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage

import memvet
from memvet import Lifecycle

AGENT_RUNS = int(os.environ.get("MEMVET_AGENT_RUNS", "50"))


@pytest.mark.slow
def test_eight_threads_share_one_local_ledger(repo):
    # lock_timeout=-1: a writer waits for the lock as long as it takes. What is tested is that nothing is lost,
    # and a 30 s wait that holds on a quiet machine ran out under a loaded one (a wall-clock dependency).
    ledger = memvet.Ledger.open(repo.path, embedding=memvet.HashingEmbedder(), lock_timeout=-1)
    started = time.perf_counter()
    workers = run_workers(ledger, OPS)
    elapsed = time.perf_counter() - started
    assert_nothing_lost(ledger, workers)
    # A second Ledger on the folder (another process, in effect) reads the same.
    assert_nothing_lost(memvet.Ledger.open(repo.path, embedding=memvet.HashingEmbedder()), workers)
    print(f"{THREADS} threads x {OPS} ops on the local ledger: {elapsed:.1f}s")


@pytest.mark.slow
def test_eight_threads_share_one_ephemeral_ledger(repo, client):
    ledger = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                namespace=f"t{uuid.uuid4().hex[:12]}", disk_cache=False)
    workers = run_workers(ledger, OPS)
    assert_nothing_lost(ledger, workers)


# ---------------------------------------------------------------- a LangChain agent


class _Scripted(GenericFakeChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> _Scripted:
        return self


@pytest.mark.slow
def test_one_agent_message_with_parallel_memvet_calls(repo):
    """ToolNode runs one AIMessage's tool calls at once, in threads, on one Ledger."""
    from memvet_langchain import memvet_tools

    ledger = memvet.Ledger.open(repo.path, embedding=memvet.HashingEmbedder(), lock_timeout=-1)  # as above
    tools = memvet_tools(ledger, agent_writes="active")
    rng = random.Random(7)
    failures: list[str] = []
    for run in range(AGENT_RUNS):
        old = ledger.record(claim(rng), ["README.md"]).decision.id
        gone = ledger.record(claim(rng), []).decision.id
        calls = [
            {"name": "memvet_supersede", "id": f"s{run}",
             "args": {"old_id": old, "claim": claim(rng), "reason": "parallel run"}},
            {"name": "memvet_recall", "id": f"r{run}", "args": {"query": "note"}},
            {"name": "memvet_check", "id": f"c{run}", "args": {}},
            {"name": "memvet_recall", "id": f"q{run}", "args": {"query": claim(rng)}},
            {"name": "memvet_record", "id": f"n{run}", "args": {"claim": claim(rng), "anchors": ["README.md"]}},
            {"name": "memvet_reject", "id": f"x{run}", "args": {"decision_id": gone, "reason": "parallel run"}},
        ]
        model = _Scripted(messages=iter([AIMessage(content="", tool_calls=calls), AIMessage(content="done")]))
        agent = create_agent(model, tools=tools)
        out = agent.invoke({"messages": [{"role": "user", "content": "go"}]})
        answers = {m.tool_call_id: str(m.content) for m in out["messages"] if isinstance(m, ToolMessage)}
        bad = {k: v for k, v in answers.items() if _status(out, k) == "error"}
        if len(answers) != len(calls) or bad:
            failures.append(f"run {run}: {bad or answers}")
            continue
        # An agent retires nothing on its own: each lands as a request on the
        # decision, which stays active until a person answers it.
        landed = re.search(r"\b[0-9a-f]{12}\b", answers[f"s{run}"])
        kept = ledger.get(old)
        if not landed or kept.lifecycle is not Lifecycle.ACTIVE or kept.retire_with != landed.group(0):
            failures.append(f"run {run}: supersede request did not land: {answers[f's{run}']}")
        asked = ledger.get(gone)
        if asked.lifecycle is not Lifecycle.ACTIVE or asked.retire_reason != "parallel run":
            failures.append(f"run {run}: reject request did not land: {answers[f'x{run}']}")
    assert not failures, f"{len(failures)} of {AGENT_RUNS} runs failed:\n" + "\n".join(failures[:5])


def _status(out: dict[str, Any], call_id: str) -> str:
    return next(m.status for m in out["messages"] if isinstance(m, ToolMessage) and m.tool_call_id == call_id)


# ---------------------------------------------------------------- .memvet/.gitignore


def test_the_ledger_folder_ignores_itself(repo):
    ledger = memvet.Ledger.open(repo.path, embedding=memvet.HashingEmbedder())
    ledger.record("Orders are kept in a shop folder", ["README.md"])
    assert (repo.path / ".memvet" / ".gitignore").read_text(encoding="utf-8") == "*\n"
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=repo.path,
                            check=True, capture_output=True, text=True).stdout
    assert ".memvet" not in status


def test_an_existing_gitignore_is_kept(repo):
    home = repo.path / ".memvet"
    home.mkdir()
    (home / ".gitignore").write_text("chroma/\n", encoding="utf-8")
    memvet.Ledger.open(repo.path, embedding=memvet.HashingEmbedder())
    assert (home / ".gitignore").read_text(encoding="utf-8") == "chroma/\n"


def test_a_ledger_folder_that_cannot_be_written_still_opens(repo, client, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    # A namespace of its own: the ephemeral client is shared by the whole test process.
    ledger = memvet.Ledger.open(repo.path, path=blocker / "ledger", client=client,
                                embedding=memvet.HashingEmbedder(), namespace=f"t{uuid.uuid4().hex[:12]}")
    assert ledger.record("Orders are kept in a shop folder", ["README.md"]).outcome == "recorded"


def test_a_named_folder_that_exists_is_left_alone(repo, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    memvet.Ledger.open(repo.path, path=mine, embedding=memvet.HashingEmbedder())
    assert not (mine / ".gitignore").exists()


# ---------------------------------------------------------------- async paths never block the loop


class _Gated(memvet.HashingEmbedder):
    """Answers a query only after the event loop ran another task: an async
    path that read the ledger on the loop itself would wait here forever."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def embed_query(self, text: str) -> list[float]:
        assert self.gate.wait(10), "the event loop was blocked while the ledger was read"
        return super().embed_query(text)


def _async_reads(ledger: memvet.Ledger) -> dict[str, Callable[[], Awaitable[Any]]]:
    from llama_index.core.llms import ChatMessage

    import memvet_langchain as lc
    import memvet_llamaindex as li

    recall_tool = next(t for t in li.MemVetToolSpec(ledger).to_tool_list() if t.metadata.name == "recall")
    return {
        "langchain recall tool": lambda: lc.MemVetRecallTool(ledger=ledger).ainvoke({"query": "orders"}),
        "langchain retriever": lambda: lc.MemVetRetriever(ledger=ledger).ainvoke("orders"),
        "llamaindex retriever": lambda: li.MemVetRetriever(ledger).aretrieve("orders"),
        "llamaindex memory block": lambda: li.MemVetMemoryBlock(ledger)._aget(
            [ChatMessage(role="user", content="orders")]),
        "llamaindex recall tool": lambda: recall_tool.acall(query="orders"),
    }


@pytest.mark.parametrize("path", ["langchain recall tool", "langchain retriever", "llamaindex retriever",
                                  "llamaindex memory block", "llamaindex recall tool"])
async def test_async_reads_run_off_the_event_loop(repo, client, path):
    embedder = _Gated()
    ledger = memvet.Ledger.open(repo.path, client=client, embedding=embedder,
                                namespace=f"t{uuid.uuid4().hex[:12]}", disk_cache=False)

    async def open_the_gate() -> None:
        await asyncio.sleep(0.05)
        embedder.gate.set()

    await asyncio.wait_for(asyncio.gather(_async_reads(ledger)[path](), open_the_gate()), 20)
