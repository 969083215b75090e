"""End to end: a ``create_agent`` agent whose memory is MemVet.

The agent (a scripted fake tool-calling model) records a decision anchored to
a symbol and an approach that it then asks to reject, and a person grants the
request; the symbol is rewritten in a commit; on the next turn the model's
input holds the decision under "verify before relying" with the reason, and
the rejected approach only as "previously tried, rejected: <reason>". The
documented examples run too: the agent with a person's approval, and the
LangGraph review through ``interrupt()``.
"""

from __future__ import annotations

import re
import runpy
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.tools import ToolRuntime
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import Field

import memvet
from memvet_langchain import MemVetMiddleware, MemVetStore, memvet_tools

ROOT = Path(__file__).resolve().parents[3]
SAVE_CLAIM = "OrderStore.save appends one JSON line per order; keep it append-only"
CACHE_CLAIM = "Cache loaded orders in a module-level dict"
CACHE_REASON = "the cache served stale orders after writes"


class ScriptedModel(GenericFakeChatModel):
    """A fake tool-calling chat model that keeps every input it was sent."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


@tool
def remember_preference(key: str, claim: str, runtime: ToolRuntime) -> str:
    """Keep a team preference in long-term memory."""
    runtime.store.put(("preferences",), key, {"claim": claim})
    item = runtime.store.get(("preferences",), key)
    return f"kept {key}: {item.value['memvet']['status']}"


def _script(model: ScriptedModel) -> Iterator[AIMessage]:
    yield AIMessage(content="", tool_calls=[
        {"name": "memvet_record", "id": "c1",
         "args": {"claim": SAVE_CLAIM, "anchors": ["shop/store.py::OrderStore.save"]}},
        {"name": "memvet_record", "id": "c2",
         "args": {"claim": CACHE_CLAIM, "anchors": ["shop/store.py::OrderStore.load"]}},
        {"name": "remember_preference", "id": "c3",
         "args": {"key": "style", "claim": "Prefer small pure functions"}},
    ])
    results = " ".join(str(m.content) for m in model.seen[-1] if isinstance(m, ToolMessage))
    cache_id = re.findall(r"Recorded decision (\w+)", results)[1]
    yield AIMessage(content="", tool_calls=[
        {"name": "memvet_reject", "id": "c4", "args": {"decision_id": cache_id, "reason": CACHE_REASON}},
    ])
    yield AIMessage(content="Noted.")
    yield AIMessage(content="Orders are appended; that code changed, so I will check it first.")


def _block(system: str, title: str) -> str:
    start = system.index(f"## {title}")
    end = system.find("\n## ", start + 1)
    return system[start: end if end != -1 else None]


def test_agent_sees_drift_and_rejection_on_the_next_turn(repo, ledger) -> None:
    model = ScriptedModel(messages=iter(()), seen=[])
    model.messages = _script(model)
    # Active writes: this turn is about what the model is told, not about review
    # (the documented example below goes through a proposal and its approval).
    store = MemVetStore(ledger, agent_writes="active")
    agent = create_agent(
        model,
        tools=[*memvet_tools(ledger, agent_writes="active"), remember_preference],
        middleware=[MemVetMiddleware(ledger, k=5, max_tokens=800)],
        store=store,
        checkpointer=InMemorySaver(),
        system_prompt="You are a careful engineer.",
    )
    config = {"configurable": {"thread_id": "t1"}}
    first = agent.invoke({"messages": [{"role": "user", "content": "Remember how orders are saved."}]},
                         config)
    assert first["messages"][-1].content == "Noted."
    tool_answers = [m.content for m in first["messages"] if isinstance(m, ToolMessage)]
    assert "kept style: unanchored" in tool_answers
    # The agent's reject is a request; a person grants it (`memvet review`, `memvet approve`).
    assert any(a.startswith("Requested rejecting decision") for a in tool_answers)
    (request,) = ledger.requests()
    ledger.approve(request.id, author=memvet.Author.person("Grace"))
    save_id = next(d.id for d in ledger.decisions() if d.claim == SAVE_CLAIM)
    assert store.get(("preferences",), "style").value["claim"] == "Prefer small pure functions"

    repo.replace("shop/store.py", 'handle.write(json.dumps(order) + "\\n")',
                 'handle.write(json.dumps(order, sort_keys=True) + "\\n")')
    repo.commit("sort order keys")

    agent.invoke({"messages": [{"role": "user", "content": "How are orders saved?"}]}, config)
    sent = model.seen[-1]
    assert isinstance(sent[0], SystemMessage)
    system = sent[0].content
    assert system.startswith("You are a careful engineer.")

    caution = _block(system, "Verify before relying")
    assert f"- [{save_id}] stale, the evidence it rested on was rewritten (" in caution
    reason = ledger.verify(save_id).reason
    assert "OrderStore.save" in reason and f"({reason}): {SAVE_CLAIM}" in caution
    assert SAVE_CLAIM in caution

    history = _block(system, "Previously tried and rejected")
    assert f"previously tried, rejected: {CACHE_REASON} (was: {CACHE_CLAIM})" in history
    # The rejected approach appears once, framed as history, and nowhere as advice.
    assert system.count(CACHE_CLAIM) == 1
    assert "## Current decisions" not in system
    # Only the system message carries memory: nothing piled up in the thread.
    assert all("MemVet memory" not in str(m.content) for m in sent[1:])


async def test_agent_runs_async(repo, ledger) -> None:
    ledger.record(SAVE_CLAIM, ["shop/store.py::OrderStore.save"])
    model = ScriptedModel(messages=iter([AIMessage(content="ok")]), seen=[])
    agent = create_agent(model, tools=memvet_tools(ledger), middleware=[MemVetMiddleware(ledger)],
                         store=MemVetStore(ledger))
    out = await agent.ainvoke({"messages": [{"role": "user", "content": "how are orders saved"}]})
    assert out["messages"][-1].content == "ok"
    system = model.seen[-1][0].content
    assert system.startswith("MemVet memory") and f"] {SAVE_CLAIM}" in _block(system, "Current decisions")


def test_the_documented_example_runs(capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    example = ROOT / "examples" / "langchain_agent.py"
    docs = (ROOT / "docs" / "langchain.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", docs, re.S)
    assert block is not None
    assert block.group(1) == example.read_text(encoding="utf-8"), "docs/langchain.md and the example differ"
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    runpy.run_path(str(example), run_name="__main__")  # in process: warnings are errors here too
    assert not any(tmp_path.iterdir())  # its scratch repository and ledger are gone
    out = capsys.readouterr().out
    assert "## Verify before relying" in out
    assert "previously tried, rejected: the cache served stale orders after writes" in out
    assert out.rstrip().endswith("Orders are appended as JSON lines, but that code changed: check it.")


def test_the_review_example_runs(capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    example = ROOT / "examples" / "langgraph_review.py"
    docs = (ROOT / "docs" / "langchain.md").read_text(encoding="utf-8")
    shown = [b for b in re.findall(r"```python\n(.*?)```", docs, re.S) if "review_proposal(" in b]
    assert shown and all(block in example.read_text(encoding="utf-8") for block in shown), \
        "docs/langchain.md shows review code that is not in examples/langgraph_review.py"
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    runpy.run_path(str(example), run_name="__main__")
    assert not any(tmp_path.iterdir())
    out = capsys.readouterr().out
    questions, answers = out.split("---\n")
    proposal = re.search(r"^proposal (\w+): Approve shop-agent \(agent\)'s proposal \1 as a current decision\?$",
                         questions, re.M)
    request = re.search(r"^retire_request (\w+): Grant shop-agent \(agent\)'s request to reject decision \1\?$",
                        questions, re.M)
    assert proposal and request
    assert "  anchor store.py::OrderStore.save: holds" in questions
    assert "  request: loading should stream, not read every line" in questions
    assert answers.splitlines() == [
        f"Ada approved {proposal[1]}: read OrderStore.save: it appends",
        f"Ada declined {request[1]}: load still reads line by line",
        f"{request[1]} verified: decline by Ada (person, via LangGraph interrupt)",
        f"{proposal[1]} verified: approve by Ada (person, via LangGraph interrupt)",
    ]
