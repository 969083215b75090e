"""MemVet as an MCP server: the tools, resources and prompt of :class:`MemvetTools`.

One ledger per server. Every call runs off the event loop
(``asyncio.to_thread``) under one lock, because a Chroma client and a pygit2
repository must not be used from several threads at once; so concurrent
calls are safe and simply queue. Every read verifies afresh against the
working tree (or the server's ``at``) at the moment of the call.

Who acts: every write is the agent's, named after the client
(``clientInfo.name`` of the MCP initialization). Approval is a person's act,
enforced by the channel: ``memvet_approve`` puts the proposal (or the
agent's request) before the person in the client's own form (MCP form
elicitation) and acts only on the person's answer, recorded as that person's
act through the client. A client that cannot show a form gets an error that
names ``memvet approve ID`` for the terminal.

Errors: a :class:`memvet.MemvetError` becomes a tool result with
``isError`` and its one-line message (a conflict also lists the conflicting
decisions); arguments that fail the input schema come back the same way,
naming the argument; so does a failure to ask the person. Anything else is a
bug: the SDK logs it and answers ``isError``; the server keeps serving.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import threading
from collections.abc import Callable
from typing import Annotated, Any, cast

from mcp.server.elicitation import AcceptedElicitation, ElicitationResult
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import (
    ResourceError,
    ResourceNotFoundError,
    ToolError,
    UnexpectedToolError,
)
from mcp.server.mcpserver.resolve import Elicit, Resolve
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent, ToolAnnotations
from mcp.types import Tool as MCPTool
from pydantic import BaseModel, BeforeValidator, Field, ValidationError

import memvet
from memvet import Ledger, MemvetError, UnknownDecisionError, UsageError
from memvet_mcp._tools import DEFAULT_AGENT, MAX_K, Answer, MemvetTools, error_answer

__all__ = ["INSTRUCTIONS", "create_server", "http_address", "serve"]

log = logging.getLogger(__name__)

INSTRUCTIONS = """\
MemVet holds this repository's decisions (conventions, design choices, facts about the code), each \
with the code it rests on, and re-checks that evidence against the working tree at every read.

- Before editing files, call memvet_about with their paths; for a question, call memvet_recall.
- Results come in three groups: current (verified: rely on it), verify before relying (the evidence \
drifted or is missing: check the code first), and history (superseded, rejected, contradicted: do not \
repeat it). Decision ids are in square brackets.
- Record a decision with memvet_record, anchored to the exact code that shows it.
- When a recorded decision no longer holds, supersede it (memvet_supersede) rather than recording a \
competing duplicate; when an approach was tried and failed, reject it with the reason (memvet_reject).
- You never retire a decision or make your own writes current: your supersede or reject of a decision \
is a request, and your records may be proposals. Only a person approves or declines them: in a terminal \
(memvet review, memvet approve ID, memvet decline ID), or through memvet_approve, which shows the person \
the proposal and its evidence in this client's form and acts on their answer. Call memvet_approve only \
when the person asks to review something; never fill in that form yourself.
"""

_ANCHORS = (
    "Evidence in the code the decision rests on, as strings: 'path/to/file.py::Class.method' (a symbol: "
    "function, class, method, Markdown heading, JSON/YAML/TOML key path), 'path/to/file.py' (a whole "
    "file), 'dep:requests>=2' (a declared dependency), 'import:pickle' or 'pattern:<regex>' (something "
    "that must stay absent). Paths are relative to the repository root. Quote the evidence: anchor the "
    "exact symbol whose code shows the claim, not a whole package. Every anchor must resolve in the code "
    "now, or nothing is recorded. Without anchors the decision is stored as unanchored (unconfirmed)."
)
_ID = "A decision id as shown in square brackets (or a unique prefix of at least 4 characters)."
_CLAIM = ("The decision, in one or a few plain sentences, using the code's own names (functions, classes, "
          "settings) so it can be checked against the anchors.")
_TAGS = "Optional free labels (e.g. 'storage', 'api') to group and filter decisions."


def _none_as(empty: Any) -> BeforeValidator:
    """Read an explicit ``null`` (which some models send for an optional
    argument) as the empty value, so the schema can say plainly "an array"
    or "a string" instead of "an array or null"."""
    return BeforeValidator(lambda value: empty if value is None else value)


def _strings(description: str) -> Any:
    return Annotated[list[str], _none_as([]), Field(default_factory=list, description=description)]


def _revision(description: str) -> Any:
    return Annotated[str, _none_as(""), Field(description=description)]


# Argument types shared by the tools (module level: the SDK reads the
# annotations from the module's globals).
_Anchors = _strings(_ANCHORS)
_Tags = _strings(_TAGS)
_RecallTags = _strings("Only decisions carrying any of these tags.")
_RecallPaths = _strings("Only decisions anchored in these files, folders, globs or 'path::Symbol' specs "
                        "(relative to the repository root).")
_CheckIds = _strings("Check these decisions only.")
_Quotes = Annotated[dict[str, str], _none_as({}), Field(default_factory=dict, description=(
    "Optional: for an anchor, the line(s) of its code the claim rests on, keyed by the anchor exactly as "
    "written in anchors, e.g. {\"app/cache.py::LRU.put\": \"self._data.popitem(last=False)\"}. Copy them "
    "from the code: a quote must be in the anchored symbol or file, and while it is there the decision "
    "stays verified through unrelated edits."))]
_Unbound = _strings("Optional: code terms of the claim that are deliberately NOT in the anchored code (a plan, "
                    "a library you move to). Every other code term (names, calls, numbers, strings, "
                    "constants) must occur in the anchored code, or the write is refused naming the term and "
                    "what the code says instead.")
_AboutPaths = _strings("Files, folders, globs or 'path::Symbol' specs you are about to edit (relative to the "
                       "repository root).")
_Since = _revision("A revision (branch, tag, commit): report the decisions whose evidence changed between it "
                   "(its merge base) and the working tree. Empty: not used.")
_Diff = _revision("A revision: also include every file changed since it ('HEAD': your uncommitted changes). "
                  "Empty: not used.")

_READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                         open_world_hint=False)
#: Reject, supersede and approve can retire a decision (an agent's through a
#: person's approval), so a client should confirm them with its user.
_RETIRE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                          open_world_hint=False)

#: The tool whose answer comes from the person, through the client's form.
_APPROVE = "memvet_approve"

#: The SDK's prefix on its errors about an elicitation answer (internal names).
_RESOLVER = re.compile(r"^Resolver '[^']*':? ")

#: Hosts ``serve`` binds without ``allow_remote``.
_LOOPBACK_NAMES = ("localhost",)


class _Review(BaseModel):
    """The form the person answers in the client (MCP form elicitation)."""

    approve: bool = Field(title="Approve", description=(
        "Yes to approve it (what that does is written above); no to decline it."))
    reason: str = Field(default="", title="Reason", description=(
        "What you checked, or why you decline it (kept in the receipt)."))
    reviewer: str = Field(default="", title="Your name", description=(
        "Kept in the receipt as the person who answered; empty: this repository's git user.name."))


class _Refused(ToolError):
    """A ``memvet_approve`` that stops before asking the person, with the answer to give."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(answer.text)
        self.answer = answer


def _session(ctx: Context[Any, Any]) -> ServerSession | None:
    """The client's session; ``None`` for a call outside a request
    (``MCPServer.call_tool`` without a context)."""
    try:
        return ctx.session  # type: ignore[no-any-return]
    except ValueError:
        return None


def _client_name(ctx: Context[Any, Any]) -> str:
    """The client's name as it introduced itself (``clientInfo.name``)."""
    session = _session(ctx)
    params = session.client_params if session is not None else None
    name = " ".join(params.client_info.name.split())[:100] if params is not None else ""
    return name or DEFAULT_AGENT


def _asks_forms(ctx: Context[Any, Any]) -> bool:
    """True when the client declared form elicitation (a bare ``elicitation: {}``
    counts as forms, as the SDK reads it)."""
    session = _session(ctx)
    capabilities = session.client_capabilities if session is not None else None
    elicitation = capabilities.elicitation if capabilities is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def _backend(ctx: Context[Any, Any]) -> _Server:
    return cast("_Server", ctx.mcp_server)


async def _review_request(decision_id: str, ctx: Context[Any, Any]) -> Answer:
    """What the person is shown: :meth:`MemvetTools.approval_request`."""
    server = _backend(ctx)
    try:
        return await server.serial.run(server.tools.approval_request, decision_id=decision_id)
    except MemvetError as exc:
        raise _Refused(error_answer(exc)) from exc


async def _ask_person(request: Annotated[Answer, Resolve(_review_request)],
                      ctx: Context[Any, Any]) -> Elicit[_Review]:
    """Ask the person through the client's form, or refuse when it has none."""
    if not _asks_forms(ctx):
        did = request.data["id"]
        text = (f"ElicitationUnavailable: this client ({_client_name(ctx)}) did not declare MCP form "
                "elicitation, so the server cannot ask the person, and only a person approves. Nothing changed: "
                f"{did} stays as it was. The person approves in a terminal: memvet review, then memvet approve "
                f"{did} (or memvet decline {did} --reason R).")
        raise _Refused(Answer(text, {"error": "ElicitationUnavailable", "message": text, "id": did},
                              is_error=True))
    return Elicit(request.text, _Review)


# The parameters memvet_approve gets from its resolvers, not from the model.
_ReviewRequest = Annotated[Answer, Resolve(_review_request)]
_PersonsAnswer = Annotated[ElicitationResult[_Review], Resolve(_ask_person)]


def _unasked(decision_id: Any, detail: str) -> CallToolResult:
    """``memvet_approve`` when asking the person failed: an error, and nothing changed."""
    did = decision_id if isinstance(decision_id, str) else "ID"
    text = (f"ElicitationFailed: the person could not be asked, or their answer could not be read ({detail}). "
            f"Nothing changed: {did} stays as it was. The person can answer in a terminal: memvet review, then "
            f"memvet approve {did} (or memvet decline {did} --reason R).")
    log.warning("memvet_approve %s: asking the person failed: %s", did, detail)
    return _result(Answer(text, {"error": "ElicitationFailed", "message": text}, is_error=True))


def _result(answer: Answer) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=answer.text)],
                          structured_content=answer.data, is_error=answer.is_error)


def _invalid(name: str, exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        parts.append(f"{where}: {err['msg']}")
    return f"invalid arguments for {name}: " + "; ".join(parts)


class _Server(MCPServer[Any]):
    """``MCPServer`` over one ledger (``tools``, called through ``serial``)
    whose argument-validation errors read as one clear line, and whose
    ``memvet_approve`` says plainly when the person could not be asked."""

    tools: MemvetTools
    serial: _Serial

    async def list_tools(self) -> list[MCPTool]:
        """The tools, each input schema closed (``additionalProperties: false``):
        an argument the tool does not take is an error, never ignored."""
        return [tool.model_copy(update={"input_schema": {**tool.input_schema, "additionalProperties": False}})
                for tool in await super().list_tools()]

    async def _unknown_arguments(self, name: str, arguments: dict[str, Any]) -> str:
        """The error line for arguments ``name`` does not take ("" when none)."""
        for tool in await super().list_tools():
            if tool.name == name:
                known = tool.input_schema.get("properties", {})
                unknown = [key for key in arguments if key not in known]
                if not unknown:
                    return ""
                plural = "s" if len(unknown) > 1 else ""
                return (f"invalid arguments for {name}: unknown argument{plural} "
                        f"{', '.join(repr(u) for u in unknown)} (it takes: {', '.join(known) or 'none'})")
        return ""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> Any:
        unknown = await self._unknown_arguments(name, arguments or {})
        if unknown:
            return CallToolResult(content=[TextContent(type="text", text=unknown)],
                                  structured_content={"error": "InvalidArguments", "message": unknown},
                                  is_error=True)
        try:
            if name == _APPROVE:
                return await self._approve(arguments, context)
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                text = _invalid(name, exc.__cause__)
                return CallToolResult(content=[TextContent(type="text", text=text)],
                                      structured_content={"error": "InvalidArguments", "message": text},
                                      is_error=True)
            raise

    async def _approve(self, arguments: dict[str, Any], context: Context[Any, Any] | None) -> Any:
        """``memvet_approve``, whose failures to ask the person come back as error results."""
        try:
            return await super().call_tool(_APPROVE, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, _Refused):
                return _result(cause.answer)
            if isinstance(cause, ValidationError) or isinstance(exc, UnexpectedToolError):
                raise  # bad arguments (answered by call_tool), or a bug (the SDK logs it)
            # The SDK's own ToolError about the person's answer: no content, or
            # content that does not match the form.
            return _unasked(arguments.get("decision_id"), _RESOLVER.sub("", str(cause or exc)))
        except MCPError as exc:
            # The client answered the elicitation request with an error, or
            # this connection cannot carry a request to the client.
            return _unasked(arguments.get("decision_id"), f"{type(exc).__name__}: {exc.message}")


class _Serial:
    """Runs tool-layer calls one at a time, off the event loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def _locked(self, fn: Callable[..., Answer], kwargs: dict[str, Any]) -> Answer:
        with self._lock:
            return fn(**kwargs)

    async def run(self, fn: Callable[..., Answer], **kwargs: Any) -> Answer:
        """``fn(**kwargs)`` under the lock in a worker thread; errors propagate."""
        return await asyncio.to_thread(self._locked, fn, kwargs)

    async def call(self, fn: Callable[..., Answer], **kwargs: Any) -> CallToolResult:
        """A tool call: a :class:`MemvetError` becomes an error result."""
        try:
            answer = await self.run(fn, **kwargs)
        except MemvetError as exc:
            answer = error_answer(exc)
        return _result(answer)

    async def text(self, fn: Callable[..., Answer], **kwargs: Any) -> str:
        """A resource read: a :class:`MemvetError` becomes the SDK's resource error."""
        try:
            return (await self.run(fn, **kwargs)).text
        except UnknownDecisionError as exc:
            raise ResourceNotFoundError(f"{type(exc).__name__}: {exc}") from exc
        except MemvetError as exc:
            raise ResourceError(f"{type(exc).__name__}: {exc}") from exc


def create_server(ledger: Ledger, *, at: str | None = None, on_conflict: str = "error",
                  name: str = "memvet", agent_writes: str | None = None) -> MCPServer[Any]:
    """An MCP server over one ledger.

    Args:
        ledger: The ledger every call reads and writes (one per server).
        at: Where to verify: ``None`` (the default) for the working tree at
            each call, or a revision.
        on_conflict: What ``memvet_record`` does with a claim that conflicts
            with an active decision: ``error`` refuses it and names the
            conflicts (the agent then supersedes explicitly), ``warn``
            records it and names them.
        name: The server's name as clients show it.
        agent_writes: ``proposed`` or ``active`` (``memvet mcp
            --agent-writes``): how the agent's new records are written;
            ``None`` (the default) leaves it to the ledger's policy
            (``[tool.memvet] agent-writes`` as committed, ``proposed`` by
            default). Whatever it says, an agent's supersede or reject is a
            request, and only a person approves (through ``memvet_approve``'s
            form, or ``memvet approve`` in a terminal).

    Returns:
        An ``MCPServer``; run it with :func:`serve` or its own ``run``.
    """
    tools = MemvetTools(ledger, at=at, on_conflict=on_conflict, agent_writes=agent_writes)
    serial = _Serial()
    server = _Server(name, version=memvet.__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    server.tools = tools
    server.serial = serial

    # ------------------------------------------------------------- tools

    @server.tool(name="memvet_recall", annotations=_READ, description=(
        "Recall decisions about this codebase relevant to a question. Each is re-verified against the code "
        "now and returned in three blocks: current (verified), verify before relying (the evidence changed "
        "or is missing, with the reason) and previously tried, rejected, superseded or contradicted (do not "
        "repeat). Decision ids are in square brackets. Call it before recording, so you supersede an "
        "existing decision instead of duplicating it."))
    async def memvet_recall(
        query: Annotated[str, Field(min_length=1, description="What you want to know, in plain words.")],
        # The bounds are checked by the tools (memvet.check_tool_k), with the
        # message every adapter gives; the schema still states them.
        k: Annotated[int, Field(description="How many decisions to return.",
                                json_schema_extra={"minimum": 1, "maximum": MAX_K})] = 5,
        *,
        tags: _RecallTags,
        paths: _RecallPaths,
    ) -> CallToolResult:
        return await serial.call(tools.recall, query=query, k=k, tags=tags, paths=paths)

    writes = ("Your records are proposals: served as 'proposed, not yet reviewed' until a person approves "
              "them." if tools.agent_writes == "proposed" else "Your records are active decisions at once.")
    conflicts = ("A claim that conflicts with an active decision is not recorded; the answer names the "
                 "conflicts." if on_conflict == "error" else
                 "A claim that conflicts with an active decision is recorded and the answer names the "
                 "conflicts: supersede them if yours replaces them.")
    requests = ("It retires nothing on its own: {} stays current, served under caution with your reason, until "
                "a person approves or declines the request (memvet review, or memvet_approve when the person "
                "asks).")

    @server.tool(name="memvet_record", annotations=_WRITE, description=(
        "Record a decision (a convention, a design choice, a fact about this codebase) with the code it "
        "rests on, so it is re-checked whenever it is read. Returns the new decision id. Recall first: if a "
        "recorded decision says otherwise, supersede it with memvet_supersede instead of recording a "
        f"duplicate. {conflicts} An anchor that does not resolve in the code is refused with the reason. "
        "Write the claim with the code's own words (the call, the constant, the default, the exception) and "
        "quote the line it rests on; a code term the anchored code lacks, or an order or value it states "
        f"otherwise, is refused with what it says. {writes}"))
    async def memvet_record(
        claim: Annotated[str, Field(min_length=1, max_length=4000, description=_CLAIM)],
        anchors: _Anchors,
        tags: _Tags,
        quotes: _Quotes,
        unbound: _Unbound,
        ctx: Context[Any, Any],
    ) -> CallToolResult:
        return await serial.call(tools.record, claim=claim, anchors=anchors, tags=tags, quotes=quotes,
                                 unbound=unbound, agent=_client_name(ctx))

    @server.tool(name="memvet_supersede", annotations=_RETIRE, description=(
        "Propose a new decision that replaces an active one, giving the reason: your new decision is a "
        f"proposal, and the old one gets your request to supersede it. {requests.format('the old decision')} "
        "Once approved, the old decision stays in history as 'superseded by <new id>: <reason>', so nobody "
        "relies on it again. Use it when a decision no longer holds, when memvet_record reported a conflict, "
        "or when a recall shows a decision as stale and you know what replaced it. Quote the evidence as for "
        "memvet_record."))
    async def memvet_supersede(
        old_id: Annotated[str, Field(min_length=4, description="Id of the active decision to replace.")],
        claim: Annotated[str, Field(min_length=1, max_length=4000, description="The new decision. " + _CLAIM)],
        reason: Annotated[str, Field(min_length=1, description=(
            "Why the old decision no longer holds (what changed, what you found)."))],
        anchors: _Anchors,
        tags: _Tags,
        quotes: _Quotes,
        unbound: _Unbound,
        ctx: Context[Any, Any],
    ) -> CallToolResult:
        return await serial.call(tools.supersede, old_id=old_id, claim=claim, reason=reason, anchors=anchors,
                                 tags=tags, quotes=quotes, unbound=unbound, agent=_client_name(ctx))

    @server.tool(name="memvet_reject", annotations=_RETIRE, description=(
        "Ask to retract a decision that was tried and did not work, with the reason: a request to reject "
        f"it. {requests.format('the decision')} Once "
        "approved it is kept and served as 'previously tried, rejected: <reason>' so nobody repeats it. "
        "Give the concrete reason (the error, the measurement), not just 'wrong'. Your own proposal you "
        "withdraw at once."))
    async def memvet_reject(
        decision_id: Annotated[str, Field(min_length=4, description="Id of the decision to retract.")],
        reason: Annotated[str, Field(min_length=1, description=(
            "Why it is retracted: what was tried and how it failed."))],
        ctx: Context[Any, Any],
    ) -> CallToolResult:
        return await serial.call(tools.reject, decision_id=decision_id, reason=reason, agent=_client_name(ctx))

    @server.tool(name="memvet_check", annotations=_READ, description=(
        "Check recorded decisions against the code as it is now: each decision's status (verified, "
        "unanchored, needs_revalidation, stale, refuted, superseded, rejected) with the reason. Give ids "
        "to check those, since=REV for the decisions whose evidence changed since a revision (what a "
        "branch invalidates), or nothing to check them all."))
    async def memvet_check(
        ids: _CheckIds,
        since: _Since = "",
        only_problems: Annotated[bool, Field(description=(
            "When checking every decision, list only those that need attention."))] = True,
    ) -> CallToolResult:
        return await serial.call(tools.check, ids=ids, since=since or None, only_problems=only_problems)

    @server.tool(name="memvet_about", annotations=_READ, description=(
        "What to know before touching some code: the decisions anchored in the given paths and/or in the "
        "files changed since a revision, re-checked now and grouped like memvet_recall. Call it before "
        "editing files, and with diff='HEAD' before committing."))
    async def memvet_about(
        paths: _AboutPaths,
        diff: _Diff = "",
    ) -> CallToolResult:
        return await serial.call(tools.about, paths=paths, diff=diff or None)

    @server.tool(name="memvet_show", annotations=_READ, description=(
        "Show one decision: claim, status with the reason, each anchor as it stands now with its code "
        "(and the diff when the code changed since it was recorded), and its history of receipts."))
    async def memvet_show(
        decision_id: Annotated[str, Field(min_length=1, description=_ID)],
    ) -> CallToolResult:
        return await serial.call(tools.show, decision_id=decision_id)

    @server.tool(name="memvet_review", annotations=_READ, description=(
        "List what awaits a person: the proposals, each with its evidence checked now (its anchors, quotes, "
        "terms declared unbound) and the active decisions it conflicts with, and the agents' requests to "
        "retire decisions. Show them to the person who reviews; only a person approves or declines them."))
    async def memvet_review() -> CallToolResult:
        return await serial.call(tools.review)

    @server.tool(name=_APPROVE, annotations=_RETIRE, description=(
        "Put a proposal, or an agent's request to retire a decision, before the person you work for: the "
        "server shows them the claim, its evidence checked now, conflicts and warnings in this client's form "
        "(MCP elicitation) and acts on their answer: approve (the proposal becomes current, or the decision "
        "is retired as requested) or decline. Approval is a person's act: you cannot answer for them, and "
        "the receipt records the person through this client. Call it only when the person asks to review "
        "something. A client without form elicitation gets an error: the person then runs memvet approve ID "
        "in a terminal."))
    async def memvet_approve(
        decision_id: Annotated[str, Field(min_length=4, description=(
            "Id of the proposal, or of the active decision an agent asked to retire."))],
        request: _ReviewRequest,
        answer: _PersonsAnswer,
        ctx: Context[Any, Any],
    ) -> CallToolResult:
        client = _client_name(ctx)
        did = request.data["id"]
        if not isinstance(answer, AcceptedElicitation):
            stays = ("proposed" if request.data["kind"] == "proposal"
                     else "as it was, with the agent's request open")
            what = "declined to answer" if answer.action == "decline" else "cancelled"
            text = (f"Nothing changed: the person {what} the review of {did} in {client}, so nothing was "
                    f"approved or declined; {did} stays {stays}.")
            return _result(Answer(text, {"id": did, "action": answer.action, "changed": False}))
        form: _Review = answer.data
        options: dict[str, Any] = {"decision_id": did, "reviewer": form.reviewer.strip(),
                                   "via": f"MCP elicitation in {client}", "shown": request.data["state"]}
        if form.approve:
            return await serial.call(tools.approve, reason=form.reason.strip(), **options)
        return await serial.call(tools.decline, reason=form.reason.strip() or f"declined through {client}",
                                 **options)

    # ------------------------------------------------------------- resources

    @server.resource("memvet://decision/{decision_id}", name="decision", mime_type="text/markdown",
                     description="One decision: claim, status, reason, anchors with the code they point at, "
                                 "and its receipts, verified now.")
    async def decision_resource(decision_id: str) -> str:
        return await serial.text(tools.show, decision_id=decision_id)

    @server.resource("memvet://check", name="check", mime_type="text/markdown",
                     description="Every decision's verdict against the code now, as a table.")
    async def check_resource() -> str:
        return await serial.text(tools.check_table)

    # ------------------------------------------------------------- prompt

    @server.prompt(name="memvet_context", description=(
        "The project's decisions to keep in mind, re-checked now: for the given paths, the decisions "
        "resting on them; without paths, every decision sorted for an agent."))
    async def memvet_context(paths: str = "") -> str:
        """Render the agent context (``paths``: separated by spaces or commas)."""
        wanted = [p for p in paths.replace(",", " ").split() if p]
        try:
            return (await serial.run(tools.context, paths=wanted)).text
        except MemvetError as exc:
            # The SDK masks any other exception from a prompt as "Error rendering prompt".
            raise MCPError(code=INVALID_PARAMS, message=f"{type(exc).__name__}: {exc}") from exc

    return server


def http_address(value: str, *, allow_remote: bool = False) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a host and a port to bind.

    Raises:
        UsageError: Not ``HOST:PORT``, a port outside 1-65535, or a host
            other than loopback without ``allow_remote``.
    """
    host, sep, port = value.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--http expects HOST:PORT (e.g. 127.0.0.1:8765), not {value!r}")
    if not allow_remote and not _is_loopback(host):
        raise UsageError(
            f"refusing to serve MCP on {host}: the endpoint has no authentication of its own. Serve on "
            "127.0.0.1 behind the token proxy (deploy/nginx.conf, see docs/mcp.md), or pass --allow-remote"
        )
    return host, int(port)


def _is_loopback(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(server: MCPServer[Any], *, http: str | None = None, allow_remote: bool = False) -> None:
    """Serve until the client hangs up (stdio) or the process is stopped (HTTP).

    Args:
        server: From :func:`create_server`.
        http: ``HOST:PORT`` to serve the streamable HTTP transport at
            ``http://HOST:PORT/mcp``; ``None`` for stdio.
        allow_remote: Bind a host other than loopback. The endpoint has no
            authentication of its own: put it behind the token proxy
            (``deploy/nginx.conf``, see ``docs/mcp.md``).

    Raises:
        UsageError: A bad ``http`` value, or a non-loopback host without
            ``allow_remote``.
    """
    if http is None:
        server.run("stdio")
        return
    host, port = http_address(http, allow_remote=allow_remote)
    log.warning("memvet MCP server on http://%s:%d/mcp", host, port)
    server.run("streamable-http", host=host, port=port)
