"""The MCP tools, resources and prompt, called through the SDK's in-process client.

The same server the ``memvet mcp`` command runs, connected in-process (the
SDK's ``Client(server)``) on a real repository and an ephemeral Chroma, so
each case is fast; ``test_mcp_stdio.py`` drives the real subprocess.
"""

from __future__ import annotations

from typing import Any
from unittest.mock import Mock

import pytest
from _mcp_serve import Person
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, ElicitResult, ErrorData, Implementation

import memvet
from memvet_mcp import MemvetTools, create_server, http_address

SAVE = "shop/store.py::OrderStore.save"
LOAD = "shop/store.py::OrderStore.load"
CHECKSUM = "shop/store.py::checksum"

#: The client as it introduces itself; the name every MCP write is the agent's.
AGENT = Implementation(name="test-agent", version="1.0")

pytestmark = pytest.mark.timeout(60)


def text(result: CallToolResult) -> str:
    assert len(result.content) == 1
    return result.content[0].text  # type: ignore[union-attr]


async def call(ledger: memvet.Ledger, name: str, args: dict[str, Any], **options: Any) -> CallToolResult:
    async with Client(create_server(ledger, **options)) as client:
        return await client.call_tool(name, args)


def accept(approve: bool, reason: str = "", reviewer: str = "") -> ElicitResult:
    """The person's answer to the approval form."""
    return ElicitResult(action="accept", content={"approve": approve, "reason": reason, "reviewer": reviewer})


def asking(ledger: memvet.Ledger, person: Person, **options: Any) -> Client:
    """A client whose person answers the server's forms; it negotiates the
    current protocol (forms ride ``InputRequiredResult``) unless ``mode``
    says ``legacy`` (the server sends an ``elicitation/create`` request)."""
    return Client(create_server(ledger), elicitation_callback=person, client_info=AGENT, **options)


async def test_record_then_recall_frames_history(ledger: memvet.Ledger) -> None:
    person = Person()
    async with asking(ledger, person) as client:
        rec = await client.call_tool("memvet_record", {"claim": "Orders are stored with pickle",
                                                       "anchors": [SAVE], "tags": ["storage"]})
        assert not rec.is_error, text(rec)
        did = rec.structured_content["id"]
        assert rec.structured_content["status"] == "recorded"
        assert rec.structured_content["anchors"][0]["name"] == "OrderStore.save"
        assert f"Recorded decision {did}." in text(rec)

        rej = await client.call_tool("memvet_reject", {"decision_id": did, "reason": "pickle broke on upgrade"})
        assert not rej.is_error
        assert f"Rejection of decision {did} requested; it stays current until a person approves or declines " \
            "it (memvet review)" in text(rej)
        assert ledger.get(did).lifecycle is memvet.Lifecycle.ACTIVE

        person.will(accept(True, "saw the upgrade break it"))
        approved = await client.call_tool("memvet_approve", {"decision_id": did[:6]})
        assert not approved.is_error, text(approved)
        assert text(approved).startswith(f"Approved the request: decision {did} is rejected.")
        out = await client.call_tool("memvet_recall", {"query": "Orders are stored with pickle", "k": 3})
    assert not out.is_error
    assert f"- [{did}] previously tried, rejected: pickle broke on upgrade (was: Orders are stored with pickle)" \
        in text(out)
    assert "## Previously tried and rejected" in text(out)
    item = out.structured_content["history"][0]
    assert item["status"] == "rejected"
    assert item["text"].startswith("previously tried, rejected:")
    receipt = ledger.history(did)[-1]
    assert (receipt.action, receipt.author, receipt.author_kind, receipt.via) == (
        "reject", "Ada Tester", "person", "MCP elicitation in test-agent")


async def test_an_agents_supersede_is_a_proposal_the_person_approves(ledger: memvet.Ledger) -> None:
    old = ledger.record("Orders are saved one line at a time", [SAVE]).id  # a person's decision
    person = Person()
    async with asking(ledger, person) as client:
        new = await client.call_tool("memvet_supersede", {
            "old_id": old, "claim": "Orders are saved in batches", "reason": "single writes were too slow",
            "anchors": [SAVE]})
        assert not new.is_error, text(new)
        new_id = new.structured_content["id"]
        assert new.structured_content["status"] == "proposed"
        assert new.structured_content["supersedes"] == old
        before = await client.call_tool("memvet_show", {"decision_id": old})
        assert before.structured_content["lifecycle"] == "active"
        assert before.structured_content["status"] == "needs_revalidation"
        assert f"an agent (test-agent) proposes superseding this with {new_id}: single writes were too slow" \
            in text(before)

        person.will(accept(True))
        approved = await client.call_tool("memvet_approve", {"decision_id": new_id})
        shown = await client.call_tool("memvet_show", {"decision_id": old})
    assert text(approved).startswith(f"Approved decision {new_id}: verified")
    assert f"It supersedes {old}, now history." in text(approved)
    assert f"It would replace decision {old} (active, recorded by Ada Tester (person))" in person.shown[0]
    assert shown.structured_content["status"] == "superseded"
    assert f"superseded by {new_id}" in text(shown)
    assert "single writes were too slow" in text(shown)


async def test_a_conflicting_record_is_refused_with_the_conflicts(ledger: memvet.Ledger) -> None:
    first = ledger.record("Orders are saved one line at a time", [SAVE]).id
    out = await call(ledger, "memvet_record", {"claim": "Orders are written through a buffer",
                                               "anchors": [SAVE]})
    assert out.is_error
    assert text(out).startswith(f"ConflictError: not recorded: the claim conflicts with active decision(s) {first}")
    assert "memvet_supersede" in text(out)
    assert out.structured_content["conflicts"][0]["id"] == first
    assert len(ledger.decisions()) == 1


async def test_on_conflict_warn_records_and_names_them(ledger: memvet.Ledger) -> None:
    first = ledger.record("Orders are saved one line at a time", [SAVE]).id
    server = create_server(ledger, on_conflict="warn")
    async with Client(server) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        out = await client.call_tool("memvet_record", {"claim": "Orders are written through a buffer",
                                                       "anchors": [SAVE]})
    assert "is recorded and the answer names the conflicts" in listed["memvet_record"].description
    assert not out.is_error
    assert out.structured_content["conflicts"][0]["id"] == first
    assert "memvet_supersede" in text(out)


@pytest.mark.parametrize(("args", "needle"), [
    ({"claim": "Orders are saved", "anchors": ["shop/nope.py::f"]}, "AnchorNotFoundError: shop/nope.py"),
    ({"claim": "Orders are saved", "anchors": ["shop/store.py::OrderStore.nope"]}, "OrderStore.nope"),
    ({"claim": "Orders are saved", "anchors": ["../outside.py"]}, "outside"),
    ({"claim": "   "}, "UsageError: a decision needs a non-empty claim"),
    ({"claim": "Orders are saved", "anchors": "shop/store.py"}, "anchors: Input should be a valid list"),
    ({"claim": 42}, "claim: Input should be a valid string"),
    ({}, "claim: Field required"),
])
async def test_bad_records_are_errors_naming_the_problem(ledger: memvet.Ledger, args: dict[str, Any],
                                                         needle: str) -> None:
    out = await call(ledger, "memvet_record", args)
    assert out.is_error
    assert needle in text(out)
    assert "Error executing tool" not in text(out)
    assert ledger.decisions() == []


@pytest.mark.parametrize(("name", "args", "needle"), [
    ("memvet_reject", {"decision_id": "ffffffffffff", "reason": "x"}, "UnknownDecisionError: no decision"),
    ("memvet_reject", {"decision_id": "ffff"}, "reason: Field required"),
    ("memvet_show", {"decision_id": "nope"}, "UnknownDecisionError"),
    ("memvet_supersede", {"old_id": "ffffffff", "claim": "c", "reason": "r"}, "UnknownDecisionError"),
    ("memvet_recall", {"query": "orders", "k": 0}, "UsageError: k must be a whole number from 1 to 50, got 0"),
    ("memvet_recall", {"query": "orders", "k": 51}, "UsageError: k must be a whole number from 1 to 50, got 51"),
    ("memvet_recall", {"query": "orders", "k": "many"}, "k: Input should be a valid integer"),
    ("memvet_check", {"ids": ["ffffffff"]}, "UnknownDecisionError"),
    ("memvet_check", {"ids": ["ffffffff"], "since": "HEAD"}, "UsageError: give ids or since, not both"),
    ("memvet_check", {"since": "no-such-branch"}, "UnknownRevisionError"),
    ("memvet_about", {}, "UsageError: about() needs paths"),
    ("memvet_about", {"paths": ["../../etc/passwd"]}, "PathOutsideRepositoryError"),
    ("memvet_approve", {}, "invalid arguments for memvet_approve: decision_id: Field required"),
    ("memvet_approve", {"decision_id": "ab"}, "decision_id: String should have at least 4 characters"),
    ("memvet_nope", {}, "Unknown tool"),
])
async def test_bad_calls_are_errors_naming_the_problem(ledger: memvet.Ledger, name: str, args: dict[str, Any],
                                                       needle: str) -> None:
    out = await call(ledger, name, args)
    assert out.is_error
    assert needle in text(out)


@pytest.mark.parametrize(("name", "args", "needle"), [
    ("memvet_recall", {"query": "orders", "top_k": 3},
     "invalid arguments for memvet_recall: unknown argument 'top_k' (it takes: query, k, tags, paths)"),
    ("memvet_record", {"claim": "Orders are saved", "anchor": [SAVE], "tag": ["x"]},
     "invalid arguments for memvet_record: unknown arguments 'anchor', 'tag' (it takes: claim, anchors, "),
    ("memvet_review", {"all": True}, "invalid arguments for memvet_review: unknown argument 'all' (it takes: none)"),
    ("memvet_approve", {"decision_id": "ffffffff", "answer": {"approve": True}},
     "unknown argument 'answer' (it takes: decision_id)"),
])
async def test_unknown_arguments_are_errors_and_change_nothing(ledger: memvet.Ledger, name: str,
                                                               args: dict[str, Any], needle: str) -> None:
    out = await call(ledger, name, args)
    assert out.is_error
    assert text(out) == out.structured_content["message"] and needle in text(out)
    assert out.structured_content["error"] == "InvalidArguments"
    assert ledger.decisions() == []


async def test_every_tool_schema_is_closed(ledger: memvet.Ledger) -> None:
    async with Client(create_server(ledger)) as client:
        listed = await client.list_tools()
    assert listed.tools
    for tool in listed.tools:
        assert tool.input_schema["additionalProperties"] is False, tool.name


async def test_already_rejected_cannot_be_rejected_again(ledger: memvet.Ledger) -> None:
    did = ledger.record("Orders are stored with pickle", [SAVE]).id
    ledger.reject(did, reason="broke")
    out = await call(ledger, "memvet_reject", {"decision_id": did, "reason": "again"})
    assert out.is_error
    assert text(out) == f"NotAllowedError: decision {did} is already rejected; only an active decision can change"


async def test_recall_filters_by_tags_and_paths(ledger: memvet.Ledger) -> None:
    saved = ledger.record("Orders are saved as JSON lines", [SAVE], tags=["storage"]).id
    loaded = ledger.record("Orders are loaded line by line", [LOAD], tags=["reading"]).id
    readme = ledger.record("Orders are documented in the README", ["README.md"], tags=["docs"]).id
    async with Client(create_server(ledger)) as client:
        by_tag = await client.call_tool("memvet_recall", {"query": "orders", "tags": ["storage", "docs"]})
        by_path = await client.call_tool("memvet_recall", {"query": "orders", "paths": ["shop/"]})
        by_symbol = await client.call_tool("memvet_recall", {"query": "orders", "paths": [LOAD]})
        both = await client.call_tool("memvet_recall", {"query": "orders", "paths": ["shop"],
                                                        "tags": ["reading"]})
        none = await client.call_tool("memvet_recall", {"query": "orders", "tags": ["nothing"]})
        one = await client.call_tool("memvet_recall", {"query": "orders", "k": 1, "paths": ["shop"]})

    def ids(result: CallToolResult) -> set[str]:
        return {i["id"] for g in ("current", "caution", "history") for i in result.structured_content[g]}

    assert ids(by_tag) == {saved, readme}
    assert text(by_tag).startswith("(filtered: tags docs, storage)")
    assert ids(by_path) == {saved, loaded}
    assert ids(by_symbol) == {loaded}
    assert ids(both) == {loaded}
    assert ids(none) == set() and "that match the filters" in text(none)
    assert len(ids(one)) == 1
    assert by_path.structured_content["filters"] == {"tags": [], "paths": ["shop/"]}


async def test_filtered_recall_over_fetches_until_it_has_k(ledger: memvet.Ledger) -> None:
    for i in range(30):
        ledger.record(f"Unrelated note number {i} about orders", [], tags=["noise"])
    wanted = ledger.record("Orders are saved as JSON lines", [SAVE], tags=["storage"]).id
    answer = MemvetTools(ledger).recall("unrelated note about orders", k=1, tags=["storage"])
    assert [i["id"] for i in answer.data["current"]] == [wanted]


async def test_every_call_verifies_the_working_tree_afresh(ledger: memvet.Ledger, repo: Any) -> None:
    did = ledger.record("Orders are saved as JSON lines", [SAVE]).id
    async with Client(create_server(ledger)) as client:
        before = await client.call_tool("memvet_check", {"ids": [did]})
        repo.replace("shop/store.py", "return True", "return False")  # not committed
        after = await client.call_tool("memvet_check", {"ids": [did]})
        recall = await client.call_tool("memvet_recall", {"query": "Orders are saved as JSON lines"})
    assert before.structured_content["verdicts"][0]["status"] == "verified"
    assert after.structured_content["verdicts"][0]["status"] == "stale"
    assert f"[{did}] stale" in text(after)
    assert recall.structured_content["caution"][0]["text"].startswith("stale, the evidence it rested on was")


async def test_check_all_lists_problems_and_counts(ledger: memvet.Ledger, repo: Any) -> None:
    ok = ledger.record("Orders are loaded line by line", [LOAD]).id
    bad = ledger.record("Orders are saved as JSON lines", [SAVE]).id
    repo.replace("shop/store.py", "return True", "return False")
    async with Client(create_server(ledger)) as client:
        problems = await client.call_tool("memvet_check", {})
        everything = await client.call_tool("memvet_check", {"only_problems": False})
    assert [v["id"] for v in problems.structured_content["verdicts"]] == [bad]
    assert problems.structured_content["counts"] == {"verified": 1, "stale": 1}
    assert "Checked 2 decision(s) at worktree: 1 verified, 1 stale." in text(problems)
    assert {v["id"] for v in everything.structured_content["verdicts"]} == {ok, bad}


async def test_check_since_reports_what_a_change_invalidates(ledger: memvet.Ledger, repo: Any) -> None:
    start = repo.git("rev-parse", "HEAD")
    did = ledger.record("Orders are saved as JSON lines", [SAVE]).id
    untouched = ledger.record("The README is short", ["README.md"]).id
    repo.replace("shop/store.py", "return True", "return False")
    repo.commit("save returns False")
    out = await call(ledger, "memvet_check", {"since": start})
    assert not out.is_error, text(out)
    assert [v["id"] for v in out.structured_content["verdicts"]] == [did]
    assert out.structured_content["changed"] == ["shop/store.py"]
    assert untouched not in text(out)
    assert "[changed: shop/store.py]" in text(out)


async def test_about_paths_and_diff(ledger: memvet.Ledger, repo: Any) -> None:
    did = ledger.record("Orders are saved as JSON lines", [SAVE]).id
    ledger.record("The README is short", ["README.md"])
    async with Client(create_server(ledger)) as client:
        about = await client.call_tool("memvet_about", {"paths": ["shop/store.py"]})
        nothing = await client.call_tool("memvet_about", {"diff": "HEAD"})
        repo.replace("shop/store.py", "return True", "return False")
        diff = await client.call_tool("memvet_about", {"diff": "HEAD"})
    assert [i["id"] for i in about.structured_content["current"]] == [did]
    assert "touching shop/store.py" in text(about)
    assert f"- [{did}] Orders are saved as JSON lines" in text(about)
    assert "No decision rests on what you touch" in text(nothing)
    assert [i["id"] for i in diff.structured_content["caution"]] == [did]


async def test_show_has_the_code_and_the_diff(ledger: memvet.Ledger, repo: Any) -> None:
    did = ledger.record("Orders are saved as JSON lines", [SAVE], tags=["storage"]).id
    repo.replace("shop/store.py", "return True", "return False")
    out = await call(ledger, "memvet_show", {"decision_id": did[:6]})
    assert not out.is_error, text(out)
    body = text(out)
    assert body.startswith(f"# Decision {did}: stale")
    assert "def save(self, order):" in body
    assert "-        return True" in body and "+        return False" in body
    assert out.structured_content["receipts"][0]["action"] == "record"
    assert out.structured_content["excerpts"][0]["path"] == "shop/store.py"
    assert out.structured_content["tags"] == ["storage"]


async def test_resources_and_prompt(ledger: memvet.Ledger) -> None:
    did = ledger.record("Orders are saved as JSON lines", [SAVE]).id
    rejected = ledger.record("Orders are stored with pickle", []).id
    ledger.reject(rejected, reason="pickle broke on upgrade")
    async with Client(create_server(ledger)) as client:
        templates = await client.list_resource_templates()
        resources = await client.list_resources()
        decision = await client.read_resource(f"memvet://decision/{did}")
        table = await client.read_resource("memvet://check")
        with pytest.raises(MCPError, match="UnknownDecisionError"):
            await client.read_resource("memvet://decision/ffffffffffff")
        prompts = await client.list_prompts()
        for_paths = await client.get_prompt("memvet_context", {"paths": "shop/store.py, README.md"})
        whole = await client.get_prompt("memvet_context", {})
        with pytest.raises(MCPError, match="PathOutsideRepositoryError"):
            await client.get_prompt("memvet_context", {"paths": "../elsewhere"})
    assert [t.uri_template for t in templates.resource_templates] == ["memvet://decision/{decision_id}"]
    assert [str(r.uri) for r in resources.resources] == ["memvet://check"]
    page = decision.contents[0].text  # type: ignore[union-attr]
    assert f"# Decision {did}: verified" in page and "def save(self, order):" in page
    grid = table.contents[0].text  # type: ignore[union-attr]
    assert f"| {did} | verified | Orders are saved as JSON lines | its anchor holds |" in grid
    assert f"| {rejected} | rejected |" in grid
    assert [p.name for p in prompts.prompts] == ["memvet_context"]
    said = for_paths.messages[0].content.text  # type: ignore[union-attr]
    assert said.startswith("Before you edit shop/store.py, README.md:")
    assert f"[{did}] Orders are saved as JSON lines" in said
    full = whole.messages[0].content.text  # type: ignore[union-attr]
    assert "# Project decisions (MemVet)" in full
    assert "pickle broke on upgrade" in full


async def test_null_for_an_optional_argument_means_not_given(ledger: memvet.Ledger) -> None:
    did = ledger.record("Orders are saved as JSON lines", [SAVE]).id
    async with Client(create_server(ledger)) as client:
        recall = await client.call_tool("memvet_recall", {"query": "orders", "tags": None, "paths": None})
        check = await client.call_tool("memvet_check", {"ids": None, "since": None})
        about = await client.call_tool("memvet_about", {"paths": ["shop"], "diff": None})
        record = await client.call_tool("memvet_record", {"claim": "The README is short", "anchors": None,
                                                          "tags": None})
    assert not any(r.is_error for r in (recall, check, about, record))
    assert recall.structured_content["current"][0]["id"] == did
    assert record.structured_content["anchors"] == []


async def test_tools_are_listed_with_teaching_schemas(ledger: memvet.Ledger) -> None:
    async with Client(create_server(ledger)) as client:
        listed = await client.list_tools()
    tools = {t.name: t for t in listed.tools}
    assert list(tools) == ["memvet_recall", "memvet_record", "memvet_supersede", "memvet_reject",
                           "memvet_check", "memvet_about", "memvet_show", "memvet_review", "memvet_approve"]
    record = tools["memvet_record"]
    assert "supersede" in record.description and "duplicate" in record.description
    assert "conflicts with an active decision is not recorded" in record.description
    assert record.input_schema["required"] == ["claim"]
    assert "Quote the evidence" in record.input_schema["properties"]["anchors"]["description"]
    assert "reason" in tools["memvet_reject"].input_schema["required"]
    assert tools["memvet_recall"].input_schema["properties"]["k"]["maximum"] == 50
    assert tools["memvet_recall"].annotations.read_only_hint is True
    for tool in tools.values():  # plain types: no "anyOf [..., null]" for clients that reject unions
        assert all("anyOf" not in p for p in tool.input_schema["properties"].values()), tool.name
    assert record.input_schema["properties"]["anchors"]["type"] == "array"
    assert tools["memvet_record"].annotations.read_only_hint is False
    destructive = {name for name, tool in tools.items() if tool.annotations.destructive_hint}
    assert destructive == {"memvet_reject", "memvet_supersede", "memvet_approve"}
    approve = tools["memvet_approve"]
    assert list(approve.input_schema["properties"]) == ["decision_id"]  # the answer is the person's, not an argument
    assert "Approval is a person's act" in approve.description and "memvet approve ID" in approve.description
    assert "retires nothing on its own" in tools["memvet_reject"].description
    assert "retires nothing on its own" in tools["memvet_supersede"].description


async def test_calls_queue_on_one_lock_and_translate_errors() -> None:
    from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

    from memvet_mcp._server import _Serial
    from memvet_mcp._tools import Answer

    serial = _Serial()

    def down() -> Answer:
        raise memvet.StoreUnavailableError("the Chroma server at http://x:1 is not answering")

    def unknown() -> Answer:
        raise memvet.UnknownDecisionError("no decision 'abcd'")

    failed = await serial.call(down)
    assert failed.is_error
    assert text(failed) == "StoreUnavailableError: the Chroma server at http://x:1 is not answering"
    with pytest.raises(ResourceError, match="StoreUnavailableError: the Chroma server") as caught:
        await serial.text(down)
    assert not isinstance(caught.value, ResourceNotFoundError)
    with pytest.raises(ResourceNotFoundError, match="UnknownDecisionError: no decision 'abcd'"):
        await serial.text(unknown)
    with pytest.raises(ZeroDivisionError):  # not ours to translate: the SDK reports a bug as a bug
        await serial.run(lambda: Answer(str(1 / 0)))


def test_the_tool_layer_refuses_a_bad_policy(ledger: memvet.Ledger) -> None:
    with pytest.raises(memvet.UsageError, match="on_conflict"):
        MemvetTools(ledger, on_conflict="maybe")


@pytest.mark.parametrize(("value", "allow", "expected"), [
    ("127.0.0.1:8765", False, ("127.0.0.1", 8765)),
    ("localhost:1", False, ("localhost", 1)),
    ("[::1]:9000", False, ("::1", 9000)),
    ("0.0.0.0:8765", True, ("0.0.0.0", 8765)),
])
def test_http_address(value: str, allow: bool, expected: tuple[str, int]) -> None:
    assert http_address(value, allow_remote=allow) == expected


@pytest.mark.parametrize(("value", "needle"), [
    ("8765", "HOST:PORT"), ("127.0.0.1:", "HOST:PORT"), ("127.0.0.1:99999", "HOST:PORT"),
    (":80", "HOST:PORT"), ("0.0.0.0:8765", "--allow-remote"), ("example.com:80", "--allow-remote"),
])
def test_http_address_refuses(value: str, needle: str) -> None:
    with pytest.raises(memvet.UsageError, match=needle):
        http_address(value)


async def test_agent_writes_are_proposals_by_default(ledger: memvet.Ledger) -> None:
    ledger.agent_writes = "proposed"  # what Ledger.open gives without [tool.memvet] agent-writes
    person = Person()
    async with asking(ledger, person) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "Your records are proposals" in (tools["memvet_record"].description or "")
        assert "person's act" in (tools["memvet_approve"].description or "")
        out = await client.call_tool("memvet_record", {"claim": "OrderStore.save appends JSON lines",
                                                       "anchors": [SAVE],
                                                       "quotes": {SAVE: "json.dumps(order)"}})
        assert not out.is_error and text(out).startswith("Proposed decision ")
        pid = out.structured_content["id"]
        assert (ledger.get(pid).author, ledger.get(pid).author_kind) == ("test-agent", "agent")
        recall = text(await client.call_tool("memvet_recall", {"query": "how are orders saved?", "k": 3}))
        assert f"[{pid}] proposed, not yet reviewed: OrderStore.save appends JSON lines" in recall
        review = await client.call_tool("memvet_review", {})
        assert f"- [{pid}] OrderStore.save appends JSON lines" in text(review)
        assert f"  quote: `json.dumps(order)` in {SAVE}" in text(review)
        assert review.structured_content["proposals"][0]["id"] == pid
        person.will(accept(True, "checked"))
        approved = await client.call_tool("memvet_approve", {"decision_id": pid})
        assert text(approved).startswith(f"Approved decision {pid}: verified")
        assert "Approved by Ada Tester (person, via MCP elicitation in test-agent)." in text(approved)
        again = await client.call_tool("memvet_approve", {"decision_id": pid})
        assert again.is_error and "nothing awaits a person's approval" in text(again)
        assert len(person.shown) == 1  # nothing to ask the second time
        recall = text(await client.call_tool("memvet_recall", {"query": "how are orders saved?", "k": 3}))
        assert f"[{pid}] OrderStore.save appends JSON lines (evidence: `json.dumps(order)` in OrderStore.save)" \
            in recall
        assert text(await client.call_tool("memvet_review", {})) == "No proposals or requests await review."
    form = person.shown[0]
    assert form.startswith(f"Review proposal {pid}, proposed by test-agent (agent).")
    assert "Claim: OrderStore.save appends JSON lines" in form
    assert f"- anchor: `{SAVE}` [holds]" in form
    assert "  quote: `json.dumps(order)`" in form
    assert 'handle.write(json.dumps(order) + "\\n")' in form
    assert "No conflicts with active decisions." in form


@pytest.mark.parametrize(("ledger_policy", "server_flag", "expected"), [
    ("active", None, "recorded"),
    ("proposed", None, "proposed"),
    ("active", "proposed", "proposed"),
    ("proposed", "active", "recorded"),
])
async def test_agent_writes_follow_the_ledger_unless_the_server_says(
        ledger: memvet.Ledger, ledger_policy: str, server_flag: str | None, expected: str) -> None:
    ledger.agent_writes = ledger_policy
    out = await call(ledger, "memvet_record", {"claim": "checksum is the byte sum modulo 255",
                                               "anchors": [CHECKSUM]}, agent_writes=server_flag)
    assert out.structured_content["status"] == expected
    assert ledger.get(out.structured_content["id"]).author_kind == "agent"


async def test_cancelling_the_form_on_a_request_leaves_the_request_open(ledger: memvet.Ledger) -> None:
    did = ledger.record("Orders are saved one line at a time", [SAVE]).id
    person = Person()
    person.will(ElicitResult(action="cancel"))
    async with asking(ledger, person) as client:
        await client.call_tool("memvet_reject", {"decision_id": did, "reason": "too slow"})
        out = await client.call_tool("memvet_approve", {"decision_id": did})
    assert not out.is_error
    assert text(out).endswith(f"{did} stays as it was, with the agent's request open.")
    after = ledger.get(did)
    assert after.lifecycle is memvet.Lifecycle.ACTIVE and after.retire_reason == "too slow"
    assert [r.action for r in ledger.history(did)] == ["record", "propose-retire"]


async def test_approve_without_form_elicitation_is_an_error(ledger: memvet.Ledger) -> None:
    ledger.agent_writes = "proposed"
    async with Client(create_server(ledger), client_info=AGENT) as client:
        pid = (await client.call_tool("memvet_record", {"claim": "checksum is the byte sum modulo 255",
                                                        "anchors": [CHECKSUM]})).structured_content["id"]
        out = await client.call_tool("memvet_approve", {"decision_id": pid})
    assert out.is_error
    assert text(out).startswith("ElicitationUnavailable: this client (test-agent) did not declare MCP form "
                                "elicitation")
    assert f"memvet approve {pid}" in text(out)
    assert out.structured_content["id"] == pid
    assert ledger.get(pid).lifecycle is memvet.Lifecycle.PROPOSED


async def test_approve_names_an_unknown_or_closed_decision_without_asking(ledger: memvet.Ledger) -> None:
    closed = ledger.record("Orders are stored with pickle", []).id
    ledger.reject(closed, reason="broke")
    person = Person()
    async with asking(ledger, person) as client:
        unknown = await client.call_tool("memvet_approve", {"decision_id": "ffffffffffff"})
        done = await client.call_tool("memvet_approve", {"decision_id": closed})
    assert unknown.is_error and text(unknown).startswith("UnknownDecisionError: no decision 'ffffffffffff'")
    assert done.is_error and text(done).startswith(f"NotAllowedError: decision {closed} is rejected with no open "
                                                   "request; nothing awaits a person's approval")
    assert person.shown == []


async def test_an_answer_that_does_not_fit_the_form_changes_nothing(ledger: memvet.Ledger) -> None:
    ledger.agent_writes = "proposed"
    person = Person()
    async with asking(ledger, person) as client:
        pid = (await client.call_tool("memvet_record", {"claim": "checksum is the byte sum modulo 255",
                                                        "anchors": [CHECKSUM]})).structured_content["id"]
        person.will(ElicitResult(action="accept", content={"reason": "no yes or no"}))
        out = await client.call_tool("memvet_approve", {"decision_id": pid})
    assert out.is_error
    assert text(out).startswith("ElicitationFailed: the person could not be asked, or their answer could not be "
                                "read (received an accepted elicitation whose content does not match the "
                                "requested schema). Nothing changed")
    assert f"memvet approve {pid}" in text(out)
    assert ledger.get(pid).lifecycle is memvet.Lifecycle.PROPOSED


async def test_a_client_that_fails_to_ask_is_an_error_and_changes_nothing(ledger: memvet.Ledger) -> None:
    # The handshake protocol: the server sends elicitation/create and the
    # client answers it with an error instead of the person's answer.
    ledger.agent_writes = "proposed"
    person = Person()
    person.will(ErrorData(code=-32600, message="the user closed the window"))
    async with asking(ledger, person, mode="legacy") as client:
        pid = (await client.call_tool("memvet_record", {"claim": "checksum is the byte sum modulo 255",
                                                        "anchors": [CHECKSUM]})).structured_content["id"]
        out = await client.call_tool("memvet_approve", {"decision_id": pid})
    assert out.is_error
    assert text(out).startswith("ElicitationFailed: the person could not be asked, or their answer could not be "
                                "read (MCPError: the user closed the window). Nothing changed")
    assert ledger.get(pid).lifecycle is memvet.Lifecycle.PROPOSED
    assert [r.action for r in ledger.history(pid)] == ["propose"]


async def test_a_bug_behind_approve_is_not_dressed_as_a_failed_form(ledger: memvet.Ledger) -> None:
    server = create_server(ledger)
    broken = Mock(spec=MemvetTools)
    broken.approval_request.side_effect = ZeroDivisionError("a bug")
    server.tools = broken  # type: ignore[attr-defined]
    async with Client(server, elicitation_callback=Person()) as client:
        out = await client.call_tool("memvet_approve", {"decision_id": "abcd1234"})
    assert out.is_error and text(out) == "Error executing tool memvet_approve"


async def test_a_request_replaced_while_the_person_decides_is_not_acted_on(ledger: memvet.Ledger) -> None:
    did = ledger.record("Orders are saved one line at a time", [SAVE]).id
    person = Person()

    async def meanwhile(context: Any, params: Any) -> ElicitResult:
        # While the form is open, another agent asks for something else.
        ledger.reject(did, reason="another reason altogether", author=memvet.Author.agent("other-agent"))
        return await person(context, params)

    person.will(accept(True))
    async with Client(create_server(ledger), elicitation_callback=meanwhile, client_info=AGENT,
                      mode="legacy") as client:
        await client.call_tool("memvet_reject", {"decision_id": did, "reason": "too slow"})
        out = await client.call_tool("memvet_approve", {"decision_id": did})
    assert out.is_error
    assert text(out).startswith(f"NotAllowedError: decision {did} changed while the person was deciding")
    assert "The agent's reason: too slow" in person.shown[0]
    after = ledger.get(did)
    assert after.lifecycle is memvet.Lifecycle.ACTIVE and after.retire_by == "other-agent"


async def test_a_call_outside_a_request_is_an_anonymous_agent(ledger: memvet.Ledger) -> None:
    # MCPServer.call_tool without a context (embedding code calling the server
    # directly): no client, so the write is "mcp-client"'s and nobody can be asked.
    server = create_server(ledger)
    out = await server.call_tool("memvet_record", {"claim": "checksum is the byte sum modulo 255",
                                                   "anchors": [CHECKSUM]})
    did = out.structured_content["id"]
    assert (ledger.get(did).author, ledger.get(did).author_kind) == ("mcp-client", "agent")
    await server.call_tool("memvet_reject", {"decision_id": did, "reason": "the modulus changed"})
    refused = await server.call_tool("memvet_approve", {"decision_id": did})
    assert refused.is_error and "this client (mcp-client) did not declare MCP form elicitation" in text(refused)
    assert ledger.get(did).retiring


async def test_unbound_terms_and_bad_quotes_over_mcp(ledger: memvet.Ledger) -> None:
    graded = await call(ledger, "memvet_record", {"claim": "OrderStore.load hashes with sha256", "anchors": [LOAD]})
    assert not graded.is_error and "Findings (the claim is served as unconfirmed" in text(graded)
    assert "- `sha256` (identifier) is not in shop/store.py::OrderStore.load" in text(graded)
    assert graded.structured_content["findings"][0].startswith("`sha256` (identifier) is not in")
    stray = await call(ledger, "memvet_record", {"claim": "OrderStore.save appends", "anchors": [SAVE],
                                                 "quotes": {LOAD: "x"}})
    assert stray.is_error and "not one of the anchors" in text(stray)
    ok = await call(ledger, "memvet_record", {"claim": "OrderStore.save appends, later `gzip` too",
                                              "anchors": [SAVE], "unbound": ["gzip"]})
    assert not ok.is_error and ledger.get(ok.structured_content["id"]).unbound == ("gzip",)
    with pytest.raises(memvet.UsageError, match="agent_writes must be"):
        MemvetTools(ledger, agent_writes="sometimes")
