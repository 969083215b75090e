"""Tools that let an agent write and read its own decisions.

Each tool is a ``BaseTool`` with a precise pydantic ``args_schema``.

Every write is an agent's (:meth:`memvet.Author.agent`, named by the tool's
``agent_name``). ``memvet_record`` writes a proposal unless the review
policy says otherwise: the ledger's ``agent_writes`` (read from the
committed ``[tool.memvet] agent-writes`` by ``Ledger.open``), or the tool's
own ``agent_writes`` when the host sets it. An agent retires nothing on its
own: ``memvet_supersede`` always writes a proposal, and ``memvet_reject`` of
an active decision (or of a proposal the agent did not write) is a request;
the decision stays as it is, served under caution with the request, until a
person approves or declines it (``memvet review``, or
:func:`memvet_langchain.review_proposal` in a LangGraph graph). There is no
approve tool: approval is a person's act.

Errors
the model can fix (an anchor that does not resolve, an unknown id, a
decision that is no longer active) come back as the tool's answer through
``ToolException``; errors it cannot fix (the store is down, git failed)
propagate, because an outage must not look like an empty memory.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from langchain_core.tools import BaseTool, ToolException
from pydantic import BaseModel, ConfigDict, Field, field_validator

import memvet
from memvet import (
    AnchorNotFoundError,
    Author,
    ConflictError,
    Decision,
    Ledger,
    Lifecycle,
    RecordResult,
    UnknownDecisionError,
    UsageError,
    one_line,
    render_blocks,
)
from memvet_langchain._convert import GROUPS, check_groups, require_ledger

__all__ = [
    "CheckInput",
    "MemVetCheckTool",
    "MemVetRecallTool",
    "MemVetRecordTool",
    "MemVetRejectTool",
    "MemVetSupersedeTool",
    "RecallInput",
    "RecordInput",
    "RejectInput",
    "SupersedeInput",
    "memvet_tools",
]

T = TypeVar("T")

_ANCHORS_HELP = (
    "Evidence in the code that the decision rests on, as strings: "
    "'path/to/file.py::Class.method' (a symbol), 'path/to/file.py' (a whole file), "
    "'dep:requests>=2' (a declared dependency), 'import:pickle' or 'pattern:<regex>' "
    "(something that must stay absent). Paths are relative to the repository root. "
    "Without anchors the decision is stored as unconfirmed."
)

_QUOTES_HELP = (
    "Optional: for an anchor, the line(s) of its code the claim rests on, keyed by the anchor exactly "
    "as written in anchors, e.g. {'app/cache.py::LRU.put': 'self._data.popitem(last=False)'}. Copy "
    "them from the code: a quote must occur in the anchored symbol or file, and while it does, the "
    "decision stays verified through unrelated edits."
)
_UNBOUND_HELP = (
    "Optional: code-like terms of the claim that are deliberately NOT in the anchored code (a plan, a "
    "library you move to). Every other code term of the claim (names, calls, numbers, strings, "
    "constants) must occur in the anchored code, or the write is refused naming the term and what "
    "the code says instead."
)
_WRITE_HABIT = (
    " Write the claim with the code's own words (the call, the constant, the default, the exception) "
    "and quote the line it rests on: a code term the anchored code does not contain, or an order, "
    "value or base class the code states otherwise, is refused with what the code says instead; "
    "fix the claim rather than the anchor."
)


def _names(value: Any) -> Any:
    """One string is one name (never its characters); ``None`` is none."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return value


#: Errors a model can act on: returned to it as the tool's answer.
_MODEL_FIXABLE = (UsageError, AnchorNotFoundError, UnknownDecisionError)


# ---------------------------------------------------------------- schemas

#: Every tool's arguments: one the tool does not take is an error, never dropped.
_CLOSED = ConfigDict(extra="forbid")


class RecordInput(BaseModel):
    """Arguments of ``memvet_record``."""

    model_config = _CLOSED

    claim: str = Field(min_length=1, max_length=4000,
                       description="The decision, in one or a few sentences.")
    anchors: list[str] = Field(default_factory=list, description=_ANCHORS_HELP)
    quotes: dict[str, str] = Field(default_factory=dict, description=_QUOTES_HELP)
    unbound: list[str] = Field(default_factory=list, description=_UNBOUND_HELP)
    tags: list[str] = Field(default_factory=list, description="Optional free labels.")

    _one_is_one = field_validator("anchors", "tags", mode="before")(_names)


class RecallInput(BaseModel):
    """Arguments of ``memvet_recall``."""

    model_config = _CLOSED

    query: str = Field(min_length=1, description="What you want to know, in plain words.")
    k: int = Field(default=5, description="How many decisions to return.",
                   json_schema_extra={"minimum": 1, "maximum": memvet.TOOL_MAX_K})
    tags: list[str] = Field(default_factory=list,
                            description="Only decisions carrying any of these tags (optional).")
    paths: list[str] = Field(
        default_factory=list,
        description="Only decisions anchored at or under any of these repository-relative files or "
                    "folders, e.g. 'shop/' (optional).")

    _one_is_one = field_validator("tags", "paths", mode="before")(_names)

    @field_validator("k", mode="before")
    @classmethod
    def _valid_k(cls, value: Any) -> int:
        return memvet.check_tool_k(value)  # the message every adapter gives


class SupersedeInput(BaseModel):
    """Arguments of ``memvet_supersede``."""

    model_config = _CLOSED

    old_id: str = Field(min_length=4, description="Id of the active decision to replace.")
    claim: str = Field(min_length=1, max_length=4000, description="The new decision.")
    reason: str = Field(min_length=1, description="Why the old decision no longer holds.")
    anchors: list[str] = Field(default_factory=list, description=_ANCHORS_HELP)
    quotes: dict[str, str] = Field(default_factory=dict, description=_QUOTES_HELP)
    unbound: list[str] = Field(default_factory=list, description=_UNBOUND_HELP)

    _one_is_one = field_validator("anchors", mode="before")(_names)


class RejectInput(BaseModel):
    """Arguments of ``memvet_reject``."""

    model_config = _CLOSED

    decision_id: str = Field(min_length=4, description="Id of the decision to retract.")
    reason: str = Field(min_length=1,
                        description="Why it should be retracted (what was tried and did not work).")


class CheckInput(BaseModel):
    """Arguments of ``memvet_check``."""

    model_config = _CLOSED

    decision_id: str | None = Field(
        default=None, description="Check one decision by id; omit to check every decision.")
    only_problems: bool = Field(
        default=True, description="When checking every decision, list only those that are not verified.")


# ---------------------------------------------------------------- base


class _LedgerTool(BaseTool):
    """A tool over a ledger, with real async and model-fixable errors as answers."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    ledger: Ledger
    """The ledger the tool reads and writes (also the first positional argument)."""

    def __init__(self, ledger: Ledger | None = None, /, **data: Any) -> None:
        if ledger is not None:
            if "ledger" in data:
                raise TypeError(f"{type(self).__name__}: ledger given twice (positionally and as ledger=)")
            data["ledger"] = ledger
        require_ledger(data.get("ledger"), type(self).__name__)
        super().__init__(**data)
    at: str | None = None
    """Where to verify: ``None`` for the working tree, or a revision."""
    handle_tool_error: bool | str | Callable[[ToolException], str] | None = True

    def _guard(self, fn: Callable[[], T]) -> T:
        try:
            return fn()
        except _MODEL_FIXABLE as exc:
            raise ToolException(f"{type(exc).__name__}: {exc}") from exc

    async def _arun(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.pop("run_manager", None)
        return await asyncio.to_thread(self._run, *args, **kwargs)


class _AgentTool(_LedgerTool):
    """A tool that acts on the ledger as an agent."""

    agent_name: str = Field(default="langchain", min_length=1)
    """The agent's name in receipts and requests (``langchain (agent)``)."""

    def _author(self) -> Author:
        return Author.agent(self.agent_name)


class _WritingTool(_AgentTool):
    """A tool that writes decisions: as proposals, or active, per ``agent_writes``."""

    agent_writes: Literal["proposed", "active"] | None = None
    """How the tool's new records are written: ``proposed`` (a person
    approves them), ``active``, or ``None`` to follow the ledger's review
    policy (``ledger.agent_writes``). A supersede is a proposal either way."""

    def _proposed(self) -> bool | None:
        """``proposed=`` for the core: ``None`` applies the ledger's policy."""
        return None if self.agent_writes is None else self.agent_writes == "proposed"


def _record_text(result: RecordResult) -> str:
    decision = result.decision
    anchors = ", ".join(a.spec for a in decision.anchors) or "none (stored as unconfirmed)"
    review = ("It awaits a person's review (memvet review); until then it is served as "
              "'proposed, not yet reviewed', not as a current decision.")
    if result.outcome == "confirmed" and decision.lifecycle is Lifecycle.PROPOSED:
        head = (f"Confirmed existing proposal {decision.id} (proposed before with the same anchors; "
                f"confirmations: {decision.confirmations}). {review}")
    elif result.outcome == "confirmed":
        head = (f"Confirmed existing decision {decision.id} (recorded before with the same anchors; "
                f"confirmations: {decision.confirmations}).")
    elif result.outcome == "proposed":
        head = f"Proposed decision {decision.id}; it is a proposal, not yet a decision. {review}"
        if decision.supersedes:
            head += (f" If a person approves it, it supersedes {decision.supersedes}, which stays current "
                     "until then, served under caution with your request to replace it.")
    else:
        head = f"Recorded decision {decision.id}."
    lines = [head, f"Anchors: {anchors}."]
    if result.conflicts:
        lines.append("It conflicts with active decision(s):")
        lines.extend(one_line(f"- [{c.decision.id}] ({c.status.value}; {c.why}) {c.decision.claim}")
                     for c in result.conflicts)
        lines.append("Supersede them explicitly with memvet_supersede (old_id, claim, reason) "
                     "if this decision replaces them.")
    lines.extend(f"Warning: {w}" for w in result.warnings)
    if result.findings and result.outcome != "confirmed":
        lines.append("Findings (the claim is served as unconfirmed, not as current, until a person resolves "
                     "them or the claim is corrected with memvet_supersede):")
        lines.extend(one_line(f"- {f}") for f in result.findings)
    return "\n".join(lines)


def _reject_text(decision: Decision, reason: str) -> str:
    """What an agent's reject did: a withdrawal of its own proposal, or a request."""
    if decision.lifecycle is Lifecycle.REJECTED:
        return one_line(f"Withdrew your proposal {decision.id}: {reason}. It is kept as history: {decision.claim}")
    what = "proposal" if decision.lifecycle is Lifecycle.PROPOSED else "decision"
    stays = ("it stays a proposal" if decision.lifecycle is Lifecycle.PROPOSED
             else "it stays current, served under caution with your request,")
    return one_line(f"Requested rejecting {what} {decision.id}: {reason}. Only a person retires a decision: "
                    f"{stays} until a person approves or declines the request (memvet review). "
                    f"Claim: {decision.claim}")


def _conflict_text(exc: ConflictError) -> str:
    lines = ["Not recorded: the claim conflicts with active decision(s):"]
    for conflict in exc.conflicts:
        c: Any = conflict
        lines.append(one_line(f"- [{c.decision.id}] ({c.status.value}; {c.why}) {c.decision.claim}"))
    lines.append("If your decision replaces one of them, supersede it explicitly with "
                 "memvet_supersede (old_id, claim, reason). If it is a separate decision, "
                 "reword it or anchor it to different code.")
    return "\n".join(lines)


# ---------------------------------------------------------------- tools


class MemVetRecordTool(_WritingTool):
    """Record a decision with its evidence in the code.

    A record that conflicts with active decisions (same anchor or a very
    similar claim) is, by default, not written: the answer names the
    conflicting decisions and tells the agent to supersede them explicitly.
    The record is an agent's (``agent_name``); under the default review
    policy it is a proposal, served as "proposed, not yet reviewed" until a
    person approves it.

    Instantiate:
        .. code-block:: python

            tool = MemVetRecordTool(ledger=ledger, agent_name="release-bot")

    Usage:
        .. code-block:: python

            tool.invoke({"claim": "Orders are saved in one transaction",
                         "anchors": ["shop/store.py::OrderStore.save"]})
    """

    name: str = "memvet_record"
    description: str = (
        "Record a decision (a convention, a design choice, a fact about this codebase) together "
        "with the code it rests on, so it is re-checked whenever it is read. Returns the new "
        "decision id; the answer says whether it was written as a proposal that a person must "
        "approve first. If the claim conflicts with an existing decision, nothing is recorded and "
        "the conflicting ids are listed: supersede them explicitly with memvet_supersede." + _WRITE_HABIT
    )
    args_schema: type[BaseModel] = RecordInput
    on_conflict: Literal["error", "warn"] = "error"
    """``error``: refuse a conflicting record; ``warn``: record it and list the conflicts."""

    def _run(self, claim: str, anchors: list[str] | str | None = None, tags: list[str] | str | None = None,
             quotes: dict[str, str] | None = None, unbound: list[str] | str | None = None, **_: Any) -> str:
        try:
            result = self.ledger.record(claim, memvet.quoted(_names(anchors), quotes), tags=_names(tags),
                                        at=self.at, on_conflict=self.on_conflict, proposed=self._proposed(),
                                        unbound=_names(unbound), author=self._author())
        except ConflictError as exc:
            return _conflict_text(exc)
        except _MODEL_FIXABLE as exc:
            raise ToolException(f"{type(exc).__name__}: {exc}") from exc
        return _record_text(result)


class MemVetRecallTool(_LedgerTool):
    """Recall decisions relevant to a question, verified against the code now.

    The answer has the same three labelled blocks the middleware injects:
    current decisions, decisions to verify before relying on them (with the
    reason), and what was previously tried and rejected.

    Instantiate:
        .. code-block:: python

            tool = MemVetRecallTool(ledger=ledger)

    Usage:
        .. code-block:: python

            tool.invoke({"query": "how are orders saved?", "k": 3})
            tool.invoke({"query": "how are orders saved?", "tags": ["storage"], "paths": ["shop/"]})
    """

    name: str = "memvet_recall"
    description: str = (
        "Recall decisions about this codebase relevant to a question. Each is re-verified "
        "against the code now and returned in three blocks: current (verified), verify before "
        "relying (the evidence changed or is missing, with the reason) and previously tried "
        "and rejected (do not repeat). Decision ids are in square brackets."
    )
    args_schema: type[BaseModel] = RecallInput
    include: tuple[str, ...] = GROUPS
    """The recall groups to return."""
    max_chars: int | None = Field(default=None, gt=0)
    """Budget for the answer's length (characters); ``None`` for no limit."""

    @field_validator("include", mode="before")
    @classmethod
    def _valid_groups(cls, value: Any) -> tuple[str, ...]:
        return check_groups((value,) if isinstance(value, str) else value)

    def _run(self, query: str, k: int = 5, tags: list[str] | str | None = None,
             paths: list[str] | str | None = None, **_: Any) -> str:
        recall = self._guard(lambda: self.ledger.recall(query, k=k, at=self.at, include=self.include,
                                                        tags=_names(tags), paths=_names(paths)))
        text = render_blocks(recall, max_chars=self.max_chars)
        return text or f"No decisions recorded about {query!r}."


class MemVetSupersedeTool(_WritingTool):
    """Propose replacing an active decision with a new one.

    The new decision is always a proposal (an agent retires nothing on its
    own); the old one stays current, served under caution with the request,
    until a person approves the proposal (then the old one becomes history)
    or declines it.

    Instantiate:
        .. code-block:: python

            tool = MemVetSupersedeTool(ledger=ledger)

    Usage:
        .. code-block:: python

            tool.invoke({"old_id": "3f2a9c1b7d40", "claim": "Orders are saved in batches",
                         "reason": "single writes were too slow",
                         "anchors": ["shop/store.py::OrderStore.save"]})
    """

    name: str = "memvet_supersede"
    description: str = (
        "Propose replacing an active decision with a new one, giving the reason. The new decision is "
        "a proposal and the old one stays current (served under caution with your request) until a "
        "person approves the replacement; then the old one is kept in history as 'superseded by "
        "<new id>: <reason>'. Use it when a recorded decision no longer holds or when memvet_record "
        "reported a conflict." + _WRITE_HABIT
    )
    args_schema: type[BaseModel] = SupersedeInput

    def _run(self, old_id: str, claim: str, reason: str, anchors: list[str] | str | None = None,
             quotes: dict[str, str] | None = None, unbound: list[str] | str | None = None, **_: Any) -> str:
        result = self._guard(lambda: self.ledger.supersede(old_id, claim, memvet.quoted(_names(anchors), quotes),
                                                               reason=reason, at=self.at,
                                                               proposed=self._proposed(),
                                                               unbound=_names(unbound),
                                                               author=self._author()))
        return _record_text(result)


class MemVetRejectTool(_AgentTool):
    """Ask to retract a decision (tried, did not work), with the reason.

    An agent retires nothing on its own: for an active decision, or a
    proposal another author wrote, this files a request that a person
    approves or declines; the decision stays as it is (an active one is
    served under caution with the request) until then. The agent's own
    proposal (same ``agent_name``) is withdrawn at once and kept as history.

    Instantiate:
        .. code-block:: python

            tool = MemVetRejectTool(ledger=ledger)

    Usage:
        .. code-block:: python

            tool.invoke({"decision_id": "3f2a9c1b7d40", "reason": "pickle broke on upgrade"})
    """

    name: str = "memvet_reject"
    description: str = (
        "Ask to retract a decision that was tried and did not work, with the reason. A person "
        "approves or declines the request; until then the decision stays as it is, served under "
        "caution with your reason. Once rejected it is kept as 'previously tried, rejected: "
        "<reason>' so nobody repeats it. Your own proposal is withdrawn at once."
    )
    args_schema: type[BaseModel] = RejectInput

    def _run(self, decision_id: str, reason: str, **_: Any) -> str:
        decision = self._guard(lambda: self.ledger.reject(decision_id, reason=reason, author=self._author()))
        return _reject_text(decision, reason)


class MemVetCheckTool(_LedgerTool):
    """Check decisions against the code now: verified, stale, refuted, ... with reasons.

    Instantiate:
        .. code-block:: python

            tool = MemVetCheckTool(ledger=ledger)

    Usage:
        .. code-block:: python

            tool.invoke({})                               # every decision that drifted
            tool.invoke({"decision_id": "3f2a9c1b7d40"})  # one decision
    """

    name: str = "memvet_check"
    description: str = (
        "Check recorded decisions against the code as it is now. Returns each decision's "
        "status (verified, proposed, unanchored, needs_revalidation, stale, refuted, superseded, "
        "rejected) with the reason. Omit decision_id to check them all."
    )
    args_schema: type[BaseModel] = CheckInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"

    def _run(self, decision_id: str | None = None, only_problems: bool = True,
             **_: Any) -> tuple[str, list[dict[str, Any]]]:
        if decision_id:
            verdicts = [self._guard(lambda: self.ledger.verify(decision_id, at=self.at))]
        else:
            verdicts = self.ledger.check(at=self.at)
        total = len(verdicts)
        if not decision_id and only_problems:
            verdicts = [v for v in verdicts if v.status.value not in _QUIET]
        artifact = [v.to_dict() for v in verdicts]
        if not verdicts:
            return f"All {total} decision(s) hold (verified, or closed as history).", artifact
        lines = [one_line(f"[{v.decision.id}] {v.status.value}: {v.reason or 'all anchors hold'} "
                          f"(claim: {v.decision.claim})") for v in verdicts]
        return "\n".join(lines), artifact


#: Statuses that need no attention: ``only_problems`` leaves them out.
_QUIET = ("verified", "superseded", "rejected")


def memvet_tools(ledger: Ledger, *, at: str | None = None,
                 on_conflict: Literal["error", "warn"] = "error",
                 agent_writes: Literal["proposed", "active"] | None = None,
                 agent_name: str = "langchain") -> list[BaseTool]:
    """The MemVet tools for an agent: record, recall, supersede, reject, check.

    There is no approve tool: a person approves, through ``memvet approve``
    or :func:`review_proposal` in a LangGraph graph.

    Args:
        ledger: The ledger the tools read and write.
        at: Where to verify (``None``: the working tree).
        on_conflict: What ``memvet_record`` does with a conflicting claim:
            ``error`` (the default) refuses it and names the conflicts,
            ``warn`` records it and names them.
        agent_writes: How ``memvet_record`` writes new decisions:
            ``proposed`` (a person approves them) or ``active``; default
            ``None``, the ledger's review policy (``ledger.agent_writes``,
            which ``Ledger.open`` reads from the committed ``[tool.memvet]
            agent-writes``, else ``proposed``). A supersede is always a
            proposal, and a reject of an active decision a request.
        agent_name: The agent's name in receipts and requests (the writes
            are :meth:`memvet.Author.agent`).

    Returns:
        Five tools, ready for ``create_agent(model, tools=...)``.

    Raises:
        TypeError: ``ledger`` is not a :class:`memvet.Ledger`.
    """
    require_ledger(ledger, "memvet_tools")
    return [
        MemVetRecordTool(ledger=ledger, at=at, on_conflict=on_conflict, agent_writes=agent_writes,
                         agent_name=agent_name),
        MemVetRecallTool(ledger=ledger, at=at),
        MemVetSupersedeTool(ledger=ledger, at=at, agent_writes=agent_writes, agent_name=agent_name),
        MemVetRejectTool(ledger=ledger, at=at, agent_name=agent_name),
        MemVetCheckTool(ledger=ledger, at=at),
    ]
