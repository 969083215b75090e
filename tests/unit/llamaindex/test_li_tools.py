"""MemVetToolSpec's tools, called the way an agent calls them: tool.call /
tool.acall with keyword arguments, and inside a FunctionAgent."""

from __future__ import annotations

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool
from llama_index.core.tools.tool_spec.base import BaseToolSpec

import memvet
from memvet_llamaindex import MemVetToolSpec

SAVE = "shop/store.py::OrderStore.save"
LOAD = "shop/store.py::OrderStore.load"
#: A person who answers the agents' proposals and requests.
GRACE = memvet.Author.person("Grace")


def tools_of(ledger, **kwargs) -> dict[str, FunctionTool]:
    return {t.metadata.name: t for t in MemVetToolSpec(ledger, **kwargs).to_tool_list()}


def new_id(output: str) -> str:
    return output.split()[2].rstrip(";:")


def test_the_spec_makes_five_described_tools(ledger):
    spec = MemVetToolSpec(ledger)
    assert isinstance(spec, BaseToolSpec)
    tools = tools_of(ledger)
    assert list(tools) == ["record", "recall", "supersede", "reject", "check"]
    record = tools["record"].metadata
    assert record.description.startswith("record(claim: 'str', anchors: 'list[str] | None' = None, "
                                         "tags: 'list[str] | None' = None, quotes: 'dict[str, str] | None' = None")
    schema = record.fn_schema.model_json_schema()
    assert schema["required"] == ["claim"]
    assert '"path/to/file.py::Class.method"' in schema["properties"]["anchors"]["description"]
    assert "dep:requests>=2" in schema["properties"]["anchors"]["description"]
    assert tools["supersede"].metadata.fn_schema.model_json_schema()["required"] == [
        "decision_id", "claim", "reason"]
    assert list(tools["check"].metadata.fn_schema.model_json_schema()["properties"]) == ["decision_id"]
    for tool in tools.values():
        assert len(tool.metadata.description) < 1024  # OpenAI's limit for a tool description


def test_record_then_recall(ledger):
    tools = tools_of(ledger, agent_writes="active")
    out = tools["record"].call(claim="Orders are appended as JSON lines", anchors=[SAVE]).content
    assert out.startswith("recorded decision ")
    assert f"anchors: {SAVE}" in out
    decision_id = new_id(out)
    assert ledger.get(decision_id).claim == "Orders are appended as JSON lines"

    recalled = tools["recall"].call(query="how are orders appended?").content
    assert recalled.startswith("## Current decisions (verified against the code)")
    assert f"- [{decision_id}] Orders are appended as JSON lines" in recalled


def test_record_takes_every_anchor_form(ledger):
    out = tools_of(ledger)["record"].call(
        claim="Orders never use pickle and keep to one store module",
        anchors=["import:pickle", "pattern:pickle\\.loads", "shop/store.py", "shop/store.py::checksum"],
    ).content
    assert out.splitlines()[1] == (
        "anchors: import:pickle, pattern:pickle\\.loads, shop/store.py, shop/store.py::checksum")


def test_record_reports_confirmation_conflicts_and_warnings(ledger):
    tools = tools_of(ledger, agent_writes="active")
    first = new_id(tools["record"].call(claim="Orders are appended as JSON lines", anchors=[SAVE]).content)

    again = tools["record"].call(claim="Orders are appended as JSON lines", anchors=[SAVE]).content
    assert again.startswith(f"confirmed existing decision {first} (confirmations: 1); no copy added")

    clash = tools["record"].call(claim="OrderStore.save rewrites the whole file", anchors=[SAVE]).content
    assert f"conflict: active decision {first} [verified]" in clash
    assert "(shares anchor " in clash and SAVE in clash.split("(shares anchor ")[1]

    tried = new_id(tools["record"].call(claim="Orders are cached in Redis").content)
    tools["reject"].call(decision_id=tried, reason="no Redis in production")
    ledger.approve(tried, author=GRACE)  # a person grants the agent's request
    warned = tools["record"].call(claim="Orders are cached in Redis").content
    assert "no anchors: it will be served as unconfirmed" in warned
    assert "warning: close to decision" in warned and "no Redis in production" in warned


def test_supersede_and_reject_are_requests_a_person_answers(ledger):
    tools = tools_of(ledger, agent_writes="active")
    old = new_id(tools["record"].call(claim="Checksums are sums modulo 255",
                                      anchors=["shop/store.py::checksum"]).content)
    out = tools["supersede"].call(decision_id=old, claim="Checksums are sum(data) % 255, kept for speed",
                                  reason="sums collide", anchors=["shop/store.py::checksum"]).content
    # Even with active writes, an agent's supersede is a proposal; the old one stays current.
    successor = new_id(out)
    assert out.startswith(f"proposed decision {successor}")
    assert out.splitlines()[1] == (f"if a person approves it, it supersedes {old}, which stays current until "
                                   "then, served under caution with your request to replace it")
    assert ledger.get(old).lifecycle is memvet.Lifecycle.ACTIVE and ledger.get(old).retire_with == successor
    ledger.approve(successor, author=GRACE)
    assert ledger.get(old).lifecycle is memvet.Lifecycle.SUPERSEDED

    assert tools["reject"].call(decision_id=successor, reason="too slow").content == (
        f"requested rejecting decision {successor}: too slow; only a person retires a decision: it stays "
        "current, served under caution with your request, until a person approves or declines the request "
        "(memvet review)")
    caution = tools["recall"].call(query="checksums sum 255 speed", k=5).content
    assert f"[{successor}] needs revalidation (an agent (llamaindex) proposes retiring this: too slow" in caution
    ledger.approve(successor, author=GRACE)
    history = tools["recall"].call(query="checksums sum 255 speed", k=5).content
    assert f"[{old}] superseded by {successor}: sums collide" in history
    assert f"[{successor}] previously tried, rejected: too slow" in history


def test_record_and_supersede_propose_by_default(ledger):
    tools = tools_of(ledger)
    out = tools["record"].call(claim="Checksums are sums modulo 255", anchors=["shop/store.py::checksum"]).content
    proposal = new_id(out)
    assert out.splitlines()[0] == (
        f"proposed decision {proposal}: a proposal, not yet a decision; it awaits a person's review "
        "(memvet review); until then it is served as 'proposed, not yet reviewed', not as a current decision")
    again = tools["record"].call(claim="Checksums are sums modulo 255", anchors=["shop/store.py::checksum"]).content
    assert again.startswith(f"confirmed existing proposal {proposal} (confirmations: 1); no copy added; ")
    # The agent proposed it; a person approves (never the agent, never the proposal's author).
    ledger.approve(proposal, author=GRACE)
    out = tools["supersede"].call(decision_id=proposal, claim="Checksums are plain byte sums", reason="sums collide",
                                  anchors=["shop/store.py::checksum"]).content
    assert out.splitlines()[1].startswith(f"if a person approves it, it supersedes {proposal}, which stays current")
    assert ledger.verify(proposal).status is memvet.Status.NEEDS_REVALIDATION  # with the request
    ledger.approve(new_id(out), author=GRACE)
    assert ledger.verify(proposal).status is memvet.Status.SUPERSEDED


def test_agent_writes_follows_the_ledger_unless_given(ledger):
    ledger.agent_writes = "active"
    assert tools_of(ledger)["record"].call(claim="Orders carry an id").content.startswith("recorded decision ")
    proposing = tools_of(ledger, agent_writes="proposed")["record"]
    assert proposing.call(claim="Prices are rounded half-up").content.startswith("proposed decision ")
    with pytest.raises(memvet.UsageError, match="agent_writes: expected one of proposed, active, got 'on'"):
        MemVetToolSpec(ledger, agent_writes="on")


def test_check_lists_what_needs_attention(drifted):
    out = tools_of(drifted.ledger).get("check").call().content
    lines = out.splitlines()
    assert lines[0] == "needs attention:"
    assert lines[1].startswith(f"- [{drifted.refuted}] refuted: ")
    assert lines[2].startswith(f"- [{drifted.stale}] stale: ")
    assert "shop/store.py::OrderStore.save" in lines[2]
    assert lines[-1] == ("6 decisions at worktree: 1 refuted, 1 rejected, 1 stale, "
                         "1 superseded, 2 verified")

    at_start = tools_of(drifted.ledger, at=drifted.before)["check"].call().content
    assert at_start.startswith("every active decision holds.")
    assert f"6 decisions at {drifted.before}:" in at_start


def test_empty_ledger(ledger):
    tools = tools_of(ledger)
    assert tools["check"].call().content == "no decisions recorded yet"
    assert tools["recall"].call(query="anything").content == "no recorded decisions match 'anything'"


def test_include_and_budget_shape_recall(drifted):
    tools = tools_of(drifted.ledger, include=("history",), max_chars=200)
    out = tools["recall"].call(query="orders pickle README", k=10).content
    assert out.startswith("## Previously tried")
    assert "## Current" not in out
    with pytest.raises(ValueError, match="unknown recall group"):
        MemVetToolSpec(drifted.ledger, include=("everything",))


def test_bad_input_raises_a_message_the_model_can_act_on(ledger):
    tools = tools_of(ledger)
    with pytest.raises(memvet.AnchorNotFoundError, match=r"OrderStore\.remove"):
        tools["record"].call(claim="Orders are never removed", anchors=["shop/store.py::OrderStore.remove"])
    with pytest.raises(memvet.UnknownDecisionError):
        tools["reject"].call(decision_id="0123456789ab", reason="wrong")


async def test_acall_runs_every_tool(drifted):
    tools = tools_of(drifted.ledger, agent_writes="active")
    out = await tools["record"].acall(claim="Orders carry an id", anchors=["shop/store.py::OrderStore"])
    decision_id = new_id(out.content)
    assert "stale" in (await tools["check"].acall()).content
    assert f"[{decision_id}]" in (await tools["recall"].acall(query="orders carry an id", k=3)).content
    out = await tools["supersede"].acall(decision_id=decision_id, claim="Orders carry a uuid",
                                         reason="ids collided")
    assert out.content.splitlines()[1].startswith(f"if a person approves it, it supersedes {decision_id}")
    out = await tools["reject"].acall(decision_id=new_id(out.content), reason="uuids are too long")
    assert out.content.startswith("withdrew your proposal ") and out.content.endswith("uuids are too long")


# llama-index-workflows finds a FunctionAgent's steps with inspect.getmembers(),
# which reads every attribute of the (pydantic) agent, including the deprecated
# `__fields__`, `__fields_set__` and instance `model_computed_fields`: third-party
# deprecation warnings we cannot avoid, so they are ignored for the agent tests only.
agent_warnings = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")


def scripted(*calls: tuple[str, dict]):
    """A model that makes the given tool calls in turn, then answers with the last tool output."""
    queue = list(calls)

    def respond(messages, **kwargs) -> ChatMessage:
        if queue:
            name, args = queue.pop(0)
            return ChatMessage(role=MessageRole.ASSISTANT,
                               blocks=[ToolCallBlock(tool_call_id=f"call-{len(queue)}", tool_name=name,
                                                     tool_kwargs=args)])
        return ChatMessage(role=MessageRole.ASSISTANT, content=f"done: {messages[-1].content}")

    return MockFunctionCallingLLM(response_generator=respond, is_chat_model=True)


@agent_warnings
async def test_a_function_agent_records_and_recalls(ledger):
    llm = scripted(("record", {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]}),
                   ("recall", {"query": "how are orders appended?"}))
    agent = FunctionAgent(tools=MemVetToolSpec(ledger).to_tool_list(), llm=llm)
    answer = str(await agent.run(user_msg="remember how orders are saved"))
    (decision,) = ledger.decisions()
    assert decision.claim == "Orders are appended as JSON lines"
    # Written as a proposal (the default), the agent reads it back as one.
    assert f"[{decision.id}] proposed, not yet reviewed: Orders are appended as JSON lines" in answer


@agent_warnings
async def test_a_function_agent_reads_a_bad_anchor_as_an_error(ledger):
    llm = scripted(("record", {"claim": "Orders are never removed",
                               "anchors": ["shop/store.py::OrderStore.remove"]}))
    agent = FunctionAgent(tools=MemVetToolSpec(ledger).to_tool_list(), llm=llm)
    answer = str(await agent.run(user_msg="remember that orders are never removed"))
    assert "OrderStore.remove" in answer
    assert ledger.decisions() == []


def test_record_and_supersede_take_quotes_and_unbound(ledger):
    tools = tools_of(ledger, agent_writes="active")
    save = "shop/store.py::OrderStore.save"
    first = new_id(tools["record"].call(claim="OrderStore.save appends JSON lines", anchors=[save],
                                        quotes={save: "json.dumps(order)"}).content)
    assert ledger.get(first).anchors[0].quote == "json.dumps(order)"
    out = tools["supersede"].call(decision_id=first, claim="OrderStore.save appends, later via `tempfile`",
                                  reason="planned", anchors=[save], unbound=["tempfile"]).content
    assert ledger.get(new_id(out)).unbound == ("tempfile",)
    graded = tools["record"].call(claim="OrderStore.save hashes with sha256", anchors=[save]).content
    assert "findings (served as unconfirmed, not as current" in graded
    assert "- `sha256` (identifier) is not in shop/store.py::OrderStore.save" in graded
    assert ledger.verify(new_id(graded)).status is memvet.Status.NEEDS_REVALIDATION


# ------------------------------------------------------------------ an agent's acts, a person's approval


def test_every_write_is_an_agents(ledger):
    tools = tools_of(ledger, agent_name="indexer")
    tools["record"].call(claim="Orders are appended as JSON lines", anchors=[SAVE])
    person = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    tools["supersede"].call(decision_id=person, claim="Orders are loaded lazily", reason="memory", anchors=[LOAD])
    tools["reject"].call(decision_id=person, reason="it read the file twice")
    acts = sorted((r.action, r.author, r.author_kind) for r in ledger.log() if r.author != "Grace")
    assert acts == [("propose", "indexer", "agent"), ("propose", "indexer", "agent"),
                    ("propose-retire", "indexer", "agent"), ("propose-retire", "indexer", "agent")]
    assert MemVetToolSpec(ledger).author == memvet.Author.agent("llamaindex")
    with pytest.raises(memvet.UsageError, match="agent_name must be a non-empty name"):
        MemVetToolSpec(ledger, agent_name=" ")


def test_an_agents_reject_of_a_persons_decision_is_a_request(ledger):
    tools = tools_of(ledger)
    decision = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    out = tools["reject"].call(decision_id=decision, reason="it read the file twice").content
    assert out.startswith(f"requested rejecting decision {decision}: it read the file twice; only a person "
                          "retires a decision")
    assert ledger.get(decision).lifecycle is memvet.Lifecycle.ACTIVE
    recalled = tools["recall"].call(query="how are orders loaded").content
    assert "## Current decisions" not in recalled
    assert (f"[{decision}] needs revalidation (an agent (llamaindex) proposes retiring this: it read the file "
            "twice; a person approves or declines it (memvet review)") in recalled
    checked = tools["check"].call(decision_id=decision).content
    assert checked.startswith(f"[{decision}] needs_revalidation: Orders are loaded line by line (an agent")


def test_an_agent_withdraws_its_own_proposal_and_asks_about_anothers(ledger):
    proposal = new_id(tools_of(ledger)["record"].call(claim="Orders are appended as JSON lines",
                                                      anchors=[SAVE]).content)
    asked = tools_of(ledger, agent_name="other")["reject"].call(decision_id=proposal, reason="not so").content
    assert asked.startswith(f"requested rejecting proposal {proposal}: not so; only a person retires a decision: "
                            "it stays a proposal until a person approves or declines the request")
    assert ledger.get(proposal).lifecycle is memvet.Lifecycle.PROPOSED
    withdrawn = tools_of(ledger)["reject"].call(decision_id=proposal, reason="wrong anchor").content
    assert withdrawn == f"withdrew your proposal {proposal}: wrong anchor"
    assert ledger.get(proposal).lifecycle is memvet.Lifecycle.REJECTED


def test_there_is_no_approve_tool(ledger):
    names = [t.metadata.name for t in MemVetToolSpec(ledger).to_tool_list()]
    assert not [n for n in names if "approve" in n or "decline" in n]
    assert not [n for n in MemVetToolSpec.spec_functions if "approve" in n]
    assert not [n for n, t in tools_of(ledger).items() if "memvet approve" in t.metadata.description]


def test_an_uncommitted_policy_edit_changes_nothing(repo, open_ledger):
    repo.write("pyproject.toml", '[tool.memvet]\nagent-writes = "active"\n')  # not committed
    out = tools_of(open_ledger())["record"].call(claim="Orders are appended as JSON lines", anchors=[SAVE])
    assert out.content.startswith("proposed decision ")
    repo.commit("review off")
    out = tools_of(open_ledger())["record"].call(claim="Orders are appended as JSON lines", anchors=[SAVE])
    assert out.content.startswith("recorded decision ")
