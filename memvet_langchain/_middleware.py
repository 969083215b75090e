"""``MemVetMiddleware``: an agent's memory, re-verified before every model call."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage

from memvet import WORKTREE, Decision, Ledger, Recall, RecallItem, UsageError, render_blocks
from memvet_langchain._convert import GROUPS, check_groups, item_from_verdict, require_ledger

__all__ = ["MemVetMiddleware"]

_INTRO = (
    "MemVet memory: decisions recorded about this codebase, re-checked against the code "
    "just now. Rely on the current ones, verify the others before relying on them, and do "
    "not repeat what was rejected."
)


def _latest_user_text(messages: Sequence[AnyMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message.text.strip()
    return ""


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def touched_strings(messages: Sequence[AnyMessage]) -> list[str]:
    """Every string argument of every tool call the agent made so far."""
    out: list[str] = []
    for message in messages:
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                out.extend(_strings(call.get("args", {})))
    return out


def _repo_path(arg: str, root: PurePosixPath) -> str:
    """A tool argument as a repository-relative path ("" when it is outside the repository)."""
    arg = arg.strip().replace("\\", "/").split("::", 1)[0]
    path = PurePosixPath(arg)
    if path.is_absolute():
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            return ""
    return arg[2:] if arg.startswith("./") else arg


class MemVetMiddleware(AgentMiddleware):
    """Injects the decisions relevant to the conversation before each model call.

    Before every model call it recalls the decisions nearest to the latest
    user turn and, when the agent's tools touched files (a tool-call argument
    names a file some decision is anchored in), the decisions anchored there.
    Everything is verified against the code at that moment and appended to
    the system message as three labelled blocks: current decisions, decisions
    to verify before relying on them (with the reason) and what was
    previously tried and rejected. Nothing is written to the agent's state,
    so the blocks are always fresh and never pile up in the history.

    Setup:
        Install the extra: ``pip install "memvet[langchain]"``.

    Instantiate:
        .. code-block:: python

            import memvet
            from langchain.agents import create_agent
            from memvet_langchain import MemVetMiddleware, memvet_tools

            ledger = memvet.Ledger.open(".")
            agent = create_agent(model, tools=memvet_tools(ledger),
                                 middleware=[MemVetMiddleware(ledger, k=5, max_tokens=800)])

    Usage:
        .. code-block:: python

            agent.invoke({"messages": [{"role": "user", "content": "How are orders saved?"}]})

    Args:
        ledger: The ledger to recall from.
        k: How many decisions to recall for the user's turn (0: none, only
            those anchored in files the tools touched).
        include: The recall groups to inject (all three by default).
        max_tokens: Budget for the injected text (about 4 characters a token);
            ``None`` for no limit.
        at: Where to verify: ``None`` for the working tree, or a revision.
        touched_files: Also inject decisions anchored in files the agent's
            tools touched.
        k_touched: At most this many of those (newest first).
    """

    def __init__(self, ledger: Ledger, *, k: int = 5, include: Iterable[str] = GROUPS,
                 max_tokens: int | None = 1000, at: str | None = None, touched_files: bool = True,
                 k_touched: int = 5) -> None:
        super().__init__()
        require_ledger(ledger, "MemVetMiddleware")
        for name, value in (("k", k), ("k_touched", k_touched)):
            # 0 has a meaning here: k=0 injects only what the tools touched.
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise UsageError(f"{name} must be a whole number of zero or more, got {value!r}")
        if max_tokens is not None and max_tokens <= 0:
            raise ValueError("max_tokens must be positive (or None for no limit)")
        self.ledger = ledger
        self.k = k
        self.include = check_groups(include)
        self.max_tokens = max_tokens
        self.at = at
        self.touched_files = touched_files
        self.k_touched = k_touched

    # ------------------------------------------------------------ recall

    def _touched(self, messages: Sequence[AnyMessage], seen: set[str]) -> list[RecallItem]:
        root = PurePosixPath(Path(self.ledger.git.root).resolve().as_posix())
        paths = {p for p in (_repo_path(arg, root) for arg in touched_strings(messages)) if p}
        if not paths or self.k_touched == 0:
            return []
        # The core has no "decisions anchored in these paths" query yet, so
        # filter the namespace's decisions by anchor path here.
        hits: list[Decision] = [
            d for d in self.ledger.decisions()
            if d.id not in seen and any(a.path in paths for a in d.anchors)
        ]
        hits.sort(key=lambda d: d.created_at, reverse=True)
        items = []
        for decision in hits[: self.k_touched]:
            item = item_from_verdict(self.ledger.verify(decision.id, at=self.at))
            if item.group in self.include:
                items.append(item)
        return items

    def recall(self, messages: Sequence[AnyMessage]) -> Recall:
        """What the model should see for this conversation, verified now."""
        query = _latest_user_text(messages)
        if query and self.k:
            recall = self.ledger.recall(query, k=self.k, at=self.at, include=self.include)
        else:
            recall = Recall(query, self.at or WORKTREE)
        if not self.touched_files:
            return recall
        extra = self._touched(messages, {item.id for item in recall.items})
        if not extra:
            return recall
        groups = {g: list(getattr(recall, g)) for g in GROUPS}
        for item in extra:
            groups[item.group].append(item)
        return Recall(recall.query, recall.target, tuple(groups["current"]),
                      tuple(groups["caution"]), tuple(groups["history"]))

    def memory_text(self, messages: Sequence[AnyMessage]) -> str:
        """The text appended to the system message ("" when nothing is relevant)."""
        budget = None if self.max_tokens is None else self.max_tokens * 4
        blocks = render_blocks(self.recall(messages), max_chars=budget)
        return f"{_INTRO}\n\n{blocks}" if blocks else ""

    def _with_memory(self, request: ModelRequest, text: str) -> ModelRequest:
        if not text:
            return request
        current = request.system_message
        if current is None:
            return request.override(system_message=SystemMessage(content=text))
        content: Any = current.content
        if isinstance(content, str):
            content = f"{content}\n\n{text}" if content else text
        else:
            content = [*content, {"type": "text", "text": text}]
        return request.override(system_message=SystemMessage(content=content))

    # ------------------------------------------------------------ hooks

    def wrap_model_call(self, request: ModelRequest,
                        handler: Callable[[ModelRequest], ModelResponse]) -> Any:
        """Append the memory blocks to the system message, then call the model."""
        return handler(self._with_memory(request, self.memory_text(request.messages)))

    async def awrap_model_call(self, request: ModelRequest,
                               handler: Callable[[ModelRequest], Awaitable[ModelResponse]]) -> Any:
        """Async version: the recall runs in a worker thread."""
        text = await asyncio.to_thread(self.memory_text, list(request.messages))
        return await handler(self._with_memory(request, text))
