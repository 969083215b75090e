"""The agent's tools: LangChain's standard tool suites for each, then MemVet behaviour."""

from __future__ import annotations

import threading
from typing import Any
from unittest.mock import Mock

import pytest
from langchain_core.messages import ToolCall
from langchain_core.tools import BaseTool
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

import memvet
from memvet_langchain import (
    MemVetCheckTool,
    MemVetRecallTool,
    MemVetRecordTool,
    MemVetRejectTool,
    MemVetSupersedeTool,
    memvet_tools,
)

SAVE = "shop/store.py::OrderStore.save"
LOAD = "shop/store.py::OrderStore.load"
#: A person who reviews what the agents propose (not the repository's git user).
GRACE = memvet.Author.person("Grace")


class _LedgerToolSuite:
    """Gives each standard test a fresh ledger holding one active decision."""

    tool_class: type[BaseTool]

    @pytest.fixture(autouse=True)
    def _memvet_setup(self, ledger: memvet.Ledger) -> None:
        self._ledger = ledger
        self._decision_id = ledger.record("Orders are loaded line by line", [LOAD]).id

    @property
    def tool_constructor(self) -> type[BaseTool]:
        return self.tool_class

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return {"ledger": self._ledger}

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        name = self.tool_class.model_fields["name"].default
        return {
            "memvet_record": {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]},
            "memvet_recall": {"query": "how are orders loaded?", "k": 3},
            "memvet_supersede": {"old_id": self._decision_id, "claim": "Orders are loaded lazily",
                                 "reason": "eager loading ran out of memory", "anchors": [LOAD]},
            "memvet_reject": {"decision_id": self._decision_id, "reason": "it read the file twice"},
            "memvet_check": {"only_problems": False},
        }[name]


class TestRecordToolUnit(_LedgerToolSuite, ToolsUnitTests):
    tool_class = MemVetRecordTool


class TestRecordToolIntegration(_LedgerToolSuite, ToolsIntegrationTests):
    tool_class = MemVetRecordTool


class TestRecallToolUnit(_LedgerToolSuite, ToolsUnitTests):
    tool_class = MemVetRecallTool


class TestRecallToolIntegration(_LedgerToolSuite, ToolsIntegrationTests):
    tool_class = MemVetRecallTool


class TestSupersedeToolUnit(_LedgerToolSuite, ToolsUnitTests):
    tool_class = MemVetSupersedeTool


class TestSupersedeToolIntegration(_LedgerToolSuite, ToolsIntegrationTests):
    tool_class = MemVetSupersedeTool


class TestRejectToolUnit(_LedgerToolSuite, ToolsUnitTests):
    tool_class = MemVetRejectTool


class TestRejectToolIntegration(_LedgerToolSuite, ToolsIntegrationTests):
    tool_class = MemVetRejectTool


class TestCheckToolUnit(_LedgerToolSuite, ToolsUnitTests):
    tool_class = MemVetCheckTool


class TestCheckToolIntegration(_LedgerToolSuite, ToolsIntegrationTests):
    tool_class = MemVetCheckTool


# ------------------------------------------------------------------ behaviour


def _tools(ledger: memvet.Ledger, **kw: Any) -> dict[str, BaseTool]:
    return {t.name: t for t in memvet_tools(ledger, **kw)}


def _call(tool: BaseTool, args: dict[str, Any]) -> Any:
    return tool.invoke(ToolCall(name=tool.name, args=args, id="call-1", type="tool_call"))


def test_memvet_tools_returns_the_five_tools(ledger) -> None:
    assert list(_tools(ledger)) == ["memvet_record", "memvet_recall", "memvet_supersede",
                                    "memvet_reject", "memvet_check"]


def test_schemas_are_precise(ledger) -> None:
    schema = _tools(ledger)["memvet_record"].tool_call_schema.model_json_schema()
    assert schema["required"] == ["claim"]
    assert schema["properties"]["anchors"]["type"] == "array"
    assert "path/to/file.py::Class.method" in schema["properties"]["anchors"]["description"]
    reject = _tools(ledger)["memvet_reject"].tool_call_schema.model_json_schema()
    assert sorted(reject["required"]) == ["decision_id", "reason"]
    assert "ledger" not in schema["properties"]


def test_conflicting_record_names_the_conflict_and_asks_for_a_supersede(ledger) -> None:
    first = ledger.record("Orders are saved by appending JSON lines", [SAVE]).id
    tools = _tools(ledger, agent_writes="active")
    message = _call(tools["memvet_record"], {"claim": "Orders are written to SQLite", "anchors": [SAVE]})
    assert message.status == "success"
    assert message.content.startswith("Not recorded: the claim conflicts with active decision(s):")
    assert f"[{first}]" in message.content and "shares anchor symbol:shop/store.py::OrderStore.save" in message.content
    assert "supersede it explicitly with memvet_supersede" in message.content
    assert len(ledger.decisions()) == 1

    done = _call(tools["memvet_supersede"], {"old_id": first, "claim": "Orders are written to SQLite",
                                             "reason": "JSON lines could not be queried",
                                             "anchors": [SAVE]})
    # Even with active writes, an agent's supersede is a proposal and a request on the old one.
    assert f"If a person approves it, it supersedes {first}, which stays current until then" in done.content
    proposal = next(d for d in ledger.decisions() if d.supersedes == first)
    assert proposal.lifecycle is memvet.Lifecycle.PROPOSED
    assert ledger.get(first).lifecycle is memvet.Lifecycle.ACTIVE and ledger.get(first).retire_with == proposal.id
    ledger.approve(proposal.id, author=GRACE)
    assert ledger.get(first).lifecycle is memvet.Lifecycle.SUPERSEDED


def test_warn_policy_records_and_lists_conflicts(ledger) -> None:
    first = ledger.record("Orders are saved by appending JSON lines", [SAVE]).id
    tool = _tools(ledger, on_conflict="warn", agent_writes="active")["memvet_record"]
    text = tool.invoke({"claim": "Orders are written to SQLite", "anchors": [SAVE], "tags": ["db"]})
    assert text.startswith("Recorded decision ")
    assert f"It conflicts with active decision(s):\n- [{first}]" in text
    assert "Supersede them explicitly with memvet_supersede" in text
    assert len(ledger.decisions()) == 2


def test_recording_twice_confirms(ledger) -> None:
    tool = _tools(ledger, agent_writes="active")["memvet_record"]
    tool.invoke({"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    again = tool.invoke({"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    assert again.startswith("Confirmed existing decision")


def test_proposing_twice_confirms_the_proposal(ledger) -> None:
    tool = _tools(ledger)["memvet_record"]
    first = tool.invoke({"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    again = tool.invoke({"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    (decision,) = ledger.decisions()
    assert first.startswith(f"Proposed decision {decision.id}")
    assert again.startswith(f"Confirmed existing proposal {decision.id}")
    assert "It awaits a person's review (memvet review)" in again
    assert "memvet approve" not in first + again  # nothing tells the agent how to approve


def test_the_writing_tools_propose_by_default(ledger) -> None:
    old = ledger.record("Orders are loaded line by line", [LOAD]).id
    tools = _tools(ledger)
    text = tools["memvet_record"].invoke({"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    new = next(d for d in ledger.decisions() if d.claim == "Orders are appended as JSON lines")
    assert new.lifecycle is memvet.Lifecycle.PROPOSED
    assert text.startswith(f"Proposed decision {new.id}; it is a proposal, not yet a decision. ")
    assert "served as 'proposed, not yet reviewed', not as a current decision" in text
    assert ledger.verify(new.id).status is memvet.Status.PROPOSED
    sup = tools["memvet_supersede"].invoke({"old_id": old, "claim": "Orders are loaded lazily",
                                            "reason": "eager loading ran out of memory", "anchors": [LOAD]})
    assert (f"If a person approves it, it supersedes {old}, which stays current until then, served under "
            "caution with your request to replace it.") in sup
    proposal = next(d for d in ledger.decisions() if d.supersedes == old)
    assert ledger.get(old).lifecycle is memvet.Lifecycle.ACTIVE
    assert ledger.verify(old).reason.startswith(
        f"an agent (langchain) proposes superseding this with {proposal.id}: eager loading ran out of memory")
    # The proposals are the agent's; a person (any person but their author) approves them.
    ledger.approve(new.id, author=GRACE)
    ledger.approve(proposal.id, author=GRACE)
    assert ledger.verify(new.id).status is memvet.Status.VERIFIED
    assert ledger.verify(old).status is memvet.Status.SUPERSEDED
    assert ledger.history(proposal.id)[-1].who == "Grace (person)"


def test_agent_writes_comes_from_the_ledger_and_the_tool_argument_wins(ledger) -> None:
    ledger.agent_writes = "active"
    text = _tools(ledger)["memvet_record"].invoke({"claim": "Orders are appended as JSON lines"})
    assert text.startswith("Recorded decision ")
    proposing = _tools(ledger, agent_writes="proposed")["memvet_record"]
    assert proposing.invoke({"claim": "Prices are rounded half-up"}).startswith("Proposed decision ")
    # None hands the ledger's policy to the core; a host's own setting is passed as it is.
    assert MemVetRecordTool(ledger=ledger)._proposed() is None
    assert MemVetSupersedeTool(ledger=ledger, agent_writes="proposed")._proposed() is True
    ledger.agent_writes = "proposed"
    assert MemVetRecordTool(ledger=ledger, agent_writes="active")._proposed() is False
    with pytest.raises(ValueError, match="agent_writes"):
        MemVetRecordTool(ledger=ledger, agent_writes="draft")
    assert "agent_writes" not in MemVetRecallTool.model_fields  # only the writing tools take it
    assert "agent_name" not in MemVetRecallTool.model_fields  # nor act as an agent


def test_record_warns_when_close_to_a_rejected_decision(ledger) -> None:
    old = ledger.record("Cache loaded orders in a module level dict").id
    ledger.reject(old, reason="it served stale orders")
    text = _tools(ledger)["memvet_record"].invoke({"claim": "Cache loaded orders in a module level dict!"})
    assert "previously tried, rejected: it served stale orders" in text


def test_unresolvable_anchor_is_answered_not_raised(ledger) -> None:
    message = _call(_tools(ledger)["memvet_record"], {"claim": "x", "anchors": ["shop/nope.py::X"]})
    assert message.status == "error"
    assert message.content.startswith("AnchorNotFoundError: shop/nope.py")


def test_lifecycle_errors_are_answered(ledger) -> None:
    tools = _tools(ledger)
    decision = ledger.record("Orders are loaded line by line", [LOAD]).id
    ledger.reject(decision, reason="too slow", author=GRACE)
    again = _call(tools["memvet_reject"], {"decision_id": decision, "reason": "too slow"})
    assert again.status == "error" and "NotAllowedError" in again.content
    unknown = _call(tools["memvet_check"], {"decision_id": "ffffffffffff"})
    assert unknown.status == "error" and "UnknownDecisionError" in unknown.content
    sup = _call(tools["memvet_supersede"], {"old_id": "ffffffffffff", "claim": "c", "reason": "r"})
    assert sup.status == "error" and "UnknownDecisionError" in sup.content


def test_recall_answers_in_the_three_blocks(ledger, repo) -> None:
    kept = ledger.record("Orders are loaded line by line", [LOAD]).id
    drifted = ledger.record("Orders are saved by appending JSON lines", [SAVE]).id
    dropped = ledger.record("Orders were stored in pickle files").id
    ledger.reject(dropped, reason="pickle broke across versions", author=GRACE)
    repo.replace("shop/store.py", '"a"', '"ab"')
    repo.commit("binary append")
    text = _tools(ledger)["memvet_recall"].invoke({"query": "how are orders stored", "k": 5})
    current, caution, history = text.split("## ")[1:]
    assert current.startswith("Current decisions") and f"[{kept}]" in current
    assert caution.startswith("Verify before relying") and f"[{drifted}] stale" in caution
    assert history.startswith("Previously tried") and \
        f"[{dropped}] previously tried, rejected: pickle broke across versions" in history
    empty = MemVetRecallTool(ledger=ledger, include=("current",))
    ledger.reject(kept, reason="gone", author=GRACE)
    assert empty.invoke({"query": "orders"}) == "No decisions recorded about 'orders'."


def test_recall_tool_validates_its_groups_and_budget(ledger) -> None:
    with pytest.raises(ValueError, match="unknown recall group"):
        MemVetRecallTool(ledger=ledger, include=("later",))
    ledger.record("Orders are loaded line by line " + "x" * 200, [LOAD])
    short = MemVetRecallTool(ledger=ledger, include="current", max_chars=60)
    assert short.invoke({"query": "orders"}).endswith("left out for the token budget)")


def test_check_lists_problems_with_reasons_and_an_artifact(ledger, repo) -> None:
    ledger.record("Orders are loaded line by line", [LOAD])
    drifted = ledger.record("Orders are saved by appending JSON lines", [SAVE]).id
    tool = _tools(ledger)["memvet_check"]
    assert _call(tool, {}).content == "All 2 decision(s) hold (verified, or closed as history)."
    repo.replace("shop/store.py", '"a"', '"ab"')
    repo.commit("binary append")
    message = _call(tool, {})
    assert message.content.startswith(f"[{drifted}] stale: ")
    assert [v["id"] for v in message.artifact] == [drifted]
    one = _call(tool, {"decision_id": drifted[:6]})
    assert one.artifact[0]["status"] == "stale"


def test_store_outage_propagates(ledger) -> None:
    broken = Mock(spec=memvet.Ledger)
    broken.recall.side_effect = memvet.StoreUnavailableError("the ledger server is unreachable")
    tool = MemVetRecallTool(ledger=broken)
    with pytest.raises(memvet.StoreUnavailableError):
        _call(tool, {"query": "orders"})


async def test_async_runs_in_a_worker_thread(ledger) -> None:
    threads: list[str] = []

    class Spy(MemVetRecordTool):
        def _run(self, *args: Any, **kwargs: Any) -> str:
            threads.append(threading.current_thread().name)
            return super()._run(*args, **kwargs)

    text = await Spy(ledger=ledger).ainvoke({"claim": "Orders are appended", "anchors": [SAVE]})
    assert text.startswith("Proposed decision")
    assert threads[0] != threading.main_thread().name


def test_record_takes_quotes_and_unbound_and_answers_an_unbound_term(ledger) -> None:
    tool = _tools(ledger)["memvet_record"]
    quote = 'open(self.path, "a")'
    text = _call(tool, {"claim": "OrderStore.save appends with open(self.path, 'a') via `tempfile`", "anchors": [SAVE],
                        "quotes": {SAVE: quote}, "unbound": ["tempfile"]}).content
    decision = ledger.get(text.split()[2].rstrip(";:."))
    assert decision.anchors[0].quote == quote and decision.unbound == ("tempfile",)
    graded = _call(tool, {"claim": "OrderStore.save writes with sha256", "anchors": [SAVE]})
    assert graded.status != "error"  # grade, don't gate: stored, with the doubt, never served as current
    assert "Findings (the claim is served as unconfirmed, not as current" in graded.content
    assert "- `sha256` (identifier) is not in shop/store.py::OrderStore.save" in graded.content
    stray = _call(tool, {"claim": "OrderStore.save appends", "anchors": [SAVE], "quotes": {LOAD: "x"}})
    assert stray.status == "error" and "not one of the anchors" in stray.content
    assert "quote the line it rests on" in tool.description


# ------------------------------------------------------------------ misuse is loud


@pytest.mark.parametrize("cls", [MemVetRecordTool, MemVetRecallTool, MemVetSupersedeTool, MemVetRejectTool,
                                 MemVetCheckTool])
def test_tools_take_a_checked_ledger_positionally(ledger, cls) -> None:
    assert cls(ledger).ledger is ledger
    with pytest.raises(TypeError, match=f"{cls.__name__} needs a memvet.Ledger as its first argument"):
        cls("repo")
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        cls(ledger, top_k=1)


def test_memvet_tools_checks_its_ledger() -> None:
    with pytest.raises(TypeError, match=r"memvet_tools needs a memvet\.Ledger .*got str '\.'"):
        memvet_tools(".")  # type: ignore[arg-type]


def test_a_single_anchor_or_tag_string_is_one(ledger) -> None:
    tools = _tools(ledger, agent_writes="active")
    out = _call(tools["memvet_record"], {"claim": "Orders are saved one line each", "anchors": SAVE,
                                         "tags": "storage"})
    decision = ledger.decisions()[-1]
    assert [a.spec for a in decision.anchors] == [SAVE] and decision.tags == ("storage",)
    assert "Recorded decision" in out.content
    _call(tools["memvet_record"], {"claim": "Orders ids are short", "anchors": None, "tags": None})
    assert ledger.decisions()[-1].anchors == ()


def test_recall_tool_filters_by_tags_and_paths(ledger) -> None:
    saved = ledger.record("Orders are saved one line each", [SAVE], tags=["storage"]).id
    loose = ledger.record("Order ids are UUID4 strings", tags=["ids"]).id
    recall = _tools(ledger)["memvet_recall"]
    assert f"[{loose}]" in _call(recall, {"query": "orders", "tags": "ids"}).content
    assert f"[{saved}]" not in _call(recall, {"query": "orders", "tags": ["ids"]}).content
    only_shop = _call(recall, {"query": "orders", "paths": "shop/"}).content
    assert f"[{saved}]" in only_shop and f"[{loose}]" not in only_shop
    bad = _call(recall, {"query": "orders", "paths": "/etc"}).content
    assert "UsageError: path filter '/etc' must be relative to the repository root" in bad
    schema = recall.tool_call_schema.model_json_schema()
    assert {"tags", "paths"} <= set(schema["properties"])


# ------------------------------------------------------------------ an agent's acts, a person's approval


def test_every_write_is_an_agents(ledger) -> None:
    tools = _tools(ledger, agent_name="release-bot")
    _call(tools["memvet_record"], {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]})
    person = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    _call(tools["memvet_supersede"], {"old_id": person, "claim": "Orders are loaded lazily",
                                      "reason": "memory", "anchors": [LOAD]})
    _call(tools["memvet_reject"], {"decision_id": person, "reason": "it read the file twice"})
    acts = sorted((r.action, r.author, r.author_kind) for r in ledger.log() if r.author != "Grace")
    assert acts == [("propose", "release-bot", "agent"), ("propose", "release-bot", "agent"),
                    ("propose-retire", "release-bot", "agent"), ("propose-retire", "release-bot", "agent")]
    assert {d.author_kind for d in ledger.decisions() if d.author == "release-bot"} == {"agent"}
    assert MemVetRecordTool(ledger).agent_name == "langchain"  # the default name
    with pytest.raises(ValueError, match="at least 1 character"):
        MemVetRejectTool(ledger, agent_name="")


def test_an_agents_reject_of_a_persons_decision_is_a_request(ledger) -> None:
    tools = _tools(ledger)
    decision = ledger.record("Orders are loaded line by line", [LOAD], author=GRACE).id
    answer = _call(tools["memvet_reject"], {"decision_id": decision, "reason": "it read the file twice"})
    assert answer.status == "success"
    assert answer.content.startswith(
        f"Requested rejecting decision {decision}: it read the file twice. Only a person retires a decision: "
        "it stays current, served under caution with your request, until a person approves or declines the "
        "request (memvet review).")
    kept = ledger.get(decision)
    assert kept.lifecycle is memvet.Lifecycle.ACTIVE and kept.retire_reason == "it read the file twice"
    verdict = ledger.verify(decision)
    assert verdict.status is memvet.Status.NEEDS_REVALIDATION
    assert verdict.reason.startswith("an agent (langchain) proposes retiring this: it read the file twice; "
                                     "a person approves or declines it (memvet review)")
    recalled = _call(tools["memvet_recall"], {"query": "how are orders loaded"}).content
    assert "## Current decisions" not in recalled
    assert f"[{decision}] needs revalidation (an agent (langchain) proposes retiring this" in recalled
    ledger.decline(decision, reason="it reads once", author=GRACE)
    assert ledger.verify(decision).status is memvet.Status.VERIFIED


def test_an_agent_withdraws_its_own_proposal_and_asks_about_anothers(ledger) -> None:
    mine = _tools(ledger)
    other = _tools(ledger, agent_name="other-agent")
    text = _call(mine["memvet_record"], {"claim": "Orders are appended as JSON lines", "anchors": [SAVE]}).content
    proposal = text.split()[2].rstrip(";")
    asked = _call(other["memvet_reject"], {"decision_id": proposal, "reason": "not mine to keep"}).content
    assert asked.startswith(f"Requested rejecting proposal {proposal}: not mine to keep. Only a person retires "
                            "a decision: it stays a proposal until a person approves or declines the request")
    assert ledger.get(proposal).lifecycle is memvet.Lifecycle.PROPOSED
    withdrawn = _call(mine["memvet_reject"], {"decision_id": proposal, "reason": "wrong anchor"}).content
    assert withdrawn == (f"Withdrew your proposal {proposal}: wrong anchor. It is kept as history: "
                         "Orders are appended as JSON lines")
    assert ledger.get(proposal).lifecycle is memvet.Lifecycle.REJECTED


def test_there_is_no_approve_tool(ledger) -> None:
    import memvet_langchain

    names = [t.name for t in memvet_tools(ledger)]
    assert not [n for n in names if "approve" in n or "decline" in n]
    assert not [n for n in memvet_langchain.__all__ if "Approve" in n or "approve_" in n]
    # Nor does any tool tell the agent how a person approves.
    assert not [t.name for t in memvet_tools(ledger) if "memvet approve" in t.description]


def test_an_uncommitted_policy_edit_changes_nothing(repo, open_ledger) -> None:
    repo.write("pyproject.toml", '[tool.memvet]\nagent-writes = "active"\n')  # not committed
    tool = _tools(open_ledger())["memvet_record"]
    assert tool.invoke({"claim": "Orders are appended as JSON lines", "anchors": [SAVE]}).startswith(
        "Proposed decision ")
    repo.commit("review off")  # a person's act, seen in review
    tool = _tools(open_ledger())["memvet_record"]
    assert tool.invoke({"claim": "Orders are appended as JSON lines", "anchors": [SAVE]}).startswith(
        "Recorded decision ")
