"""``memvet mcp`` as a real stdio subprocess, driven by the SDK's ``ClientSession``.

One server process serves the module (see ``_mcp_serve.py``); each test uses
its own claims and anchors, so the tests do not depend on their order.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _mcp_serve import Served
from mcp.types import CallToolResult

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]

SAVE = "shop/store.py::OrderStore.save"
LOAD = "shop/store.py::OrderStore.load"
CHECKSUM = "shop/store.py::checksum"


def text(result: CallToolResult) -> str:
    return result.content[0].text  # type: ignore[union-attr]


async def call(served: Served, name: str, args: dict[str, Any]) -> CallToolResult:
    return await served.session.call_tool(name, args)


async def ok(served: Served, name: str, args: dict[str, Any]) -> CallToolResult:
    result = await call(served, name, args)
    assert not result.is_error, text(result)
    return result


async def test_lists_tools_resources_and_prompt(served: Served) -> None:
    tools = await served.session.list_tools()
    assert [t.name for t in tools.tools] == ["memvet_recall", "memvet_record", "memvet_supersede",
                                             "memvet_reject", "memvet_check", "memvet_about", "memvet_show",
                                             "memvet_review", "memvet_approve"]
    templates = await served.session.list_resource_templates()
    assert [t.uri_template for t in templates.resource_templates] == ["memvet://decision/{decision_id}"]
    resources = await served.session.list_resources()
    assert [str(r.uri) for r in resources.resources] == ["memvet://check"]
    prompts = await served.session.list_prompts()
    assert [p.name for p in prompts.prompts] == ["memvet_context"]


async def test_an_unknown_argument_is_an_error_over_stdio(served: Served) -> None:
    tools = await served.session.list_tools()
    assert all(t.input_schema["additionalProperties"] is False for t in tools.tools)
    out = await call(served, "memvet_recall", {"query": "orders", "limit": 3})
    assert out.is_error
    assert text(out) == ("invalid arguments for memvet_recall: unknown argument 'limit' "
                         "(it takes: query, k, tags, paths)")


async def test_the_lifecycle_over_stdio(served: Served) -> None:
    # The server runs with --agent-writes active: the agent's records are
    # current at once, but retiring one is a request a person answers, and
    # this client cannot show the person a form.
    save = (await ok(served, "memvet_record", {
        "claim": "OrderStore.save appends each order as one JSON line", "anchors": [SAVE],
        "tags": ["storage"]})).structured_content["id"]
    pickle = (await ok(served, "memvet_record", {
        "claim": "Persist the cart with pickle instead", "tags": ["storage"]})).structured_content["id"]

    requested = await ok(served, "memvet_reject", {"decision_id": pickle,
                                                   "reason": "pickle files broke on a Python upgrade"})
    assert "requested; it stays current until a person approves or declines it (memvet review)" in text(requested)
    assert requested.structured_content["outcome"] == "requested"
    recall = await ok(served, "memvet_recall", {"query": "Persist the cart with pickle", "k": 5})
    assert recall.structured_content["caution"][0]["id"] == pickle
    assert ("an agent (mcp) proposes retiring this: pickle files broke on a Python upgrade"
            in recall.structured_content["caution"][0]["text"])

    newer = await ok(served, "memvet_supersede", {
        "old_id": save, "claim": "OrderStore.save writes orders through a buffered handle",
        "reason": "appending line by line was too slow", "anchors": [SAVE]})
    new_id = newer.structured_content["id"]
    assert newer.structured_content["status"] == "proposed"
    assert newer.structured_content["supersedes"] == save
    assert f"{save} stays current until a person approves or declines it" in text(newer)

    shown = await ok(served, "memvet_show", {"decision_id": save})
    assert shown.structured_content["lifecycle"] == "active"
    assert shown.structured_content["status"] == "needs_revalidation"
    assert f"an agent (mcp) proposes superseding this with {new_id}" in text(shown)

    refused = await call(served, "memvet_approve", {"decision_id": new_id})
    assert refused.is_error
    assert text(refused).startswith("ElicitationUnavailable: this client (mcp) did not declare MCP form elicitation")
    assert f"memvet approve {new_id}" in text(refused)
    review = await ok(served, "memvet_review", {})
    assert [p["id"] for p in review.structured_content["proposals"]] == [new_id]
    assert {r["id"] for r in review.structured_content["requests"]} == {save, pickle}

    about = await ok(served, "memvet_about", {"paths": ["shop/store.py"]})
    assert f"[{save}] needs revalidation" in text(about)
    assert f"[{new_id}] proposed, not yet reviewed: OrderStore.save writes orders through a buffered handle" \
        in text(about)

    checked = await ok(served, "memvet_check", {"ids": [new_id, pickle]})
    assert [v["status"] for v in checked.structured_content["verdicts"]] == ["proposed", "needs_revalidation"]

    page = await served.session.read_resource(f"memvet://decision/{save}")
    assert "def save(self, order):" in page.contents[0].text  # type: ignore[union-attr]
    table = await served.session.read_resource("memvet://check")
    assert f"| {new_id} | proposed |" in table.contents[0].text  # type: ignore[union-attr]
    prompt = await served.session.get_prompt("memvet_context", {"paths": "shop/store.py"})
    assert new_id in prompt.messages[0].content.text  # type: ignore[union-attr]


async def test_the_working_tree_is_read_at_every_call(served: Served) -> None:
    did = (await ok(served, "memvet_record", {
        "claim": "checksum is the byte sum modulo 255", "anchors": [CHECKSUM]})).structured_content["id"]
    served.repo.replace("shop/store.py", "% 255", "% 256")
    try:
        checked = await ok(served, "memvet_check", {"ids": [did]})
        assert checked.structured_content["verdicts"][0]["status"] == "stale"
    finally:
        served.repo.replace("shop/store.py", "% 256", "% 255")
    again = await ok(served, "memvet_check", {"ids": [did]})
    assert again.structured_content["verdicts"][0]["status"] == "verified"


@pytest.mark.parametrize(("name", "args", "needle"), [
    ("memvet_record", {"claim": "Orders are cached", "anchors": ["shop/cache.py::Cache.get"]},
     "AnchorNotFoundError: shop/cache.py"),
    ("memvet_record", {"claim": "Orders are cached", "anchors": ["shop/store.py::OrderStore.cache"]},
     "OrderStore.cache"),
    ("memvet_record", {"claim": "Orders are cached", "anchors": ["dep:no-such-package"]}, "no-such-package"),
    ("memvet_record", {"anchors": [SAVE]}, "claim: Field required"),
    ("memvet_record", {"claim": ["a", "list"]}, "claim: Input should be a valid string"),
    ("memvet_recall", {"query": "orders", "k": "ten"}, "k: Input should be a valid integer"),
    ("memvet_recall", {"query": "orders", "tags": "storage"}, "tags: Input should be a valid list"),
    ("memvet_reject", {"decision_id": "0123456789ab", "reason": "no"}, "UnknownDecisionError"),
    ("memvet_show", {"decision_id": "zzzz"}, "UnknownDecisionError"),
    ("memvet_check", {"since": "no-such-branch"}, "UnknownRevisionError"),
    ("memvet_about", {"paths": ["/etc/passwd"]}, "PathOutsideRepositoryError"),
    ("memvet_nope", {}, "Unknown tool"),
])
async def test_bad_calls_come_back_as_errors(served: Served, name: str, args: dict[str, Any], needle: str) -> None:
    result = await call(served, name, args)
    assert result.is_error
    assert needle in text(result)
    assert text(result) != f"Error executing tool {name}"


async def test_ten_concurrent_calls_then_the_server_still_answers(served: Served) -> None:
    calls = [
        ("memvet_record", {"claim": "OrderStore.load reads every line of the orders file", "anchors": [LOAD]}),
        ("memvet_record", {"claim": "The README introduces the shop sample", "anchors": ["README.md"]}),
        ("memvet_record", {"claim": "Broken anchors are refused", "anchors": ["shop/missing.py"]}),
        *[("memvet_recall", {"query": f"how are orders read {i}", "k": 3}) for i in range(3)],
        ("memvet_check", {}),
        ("memvet_about", {"paths": ["shop/"]}),
        ("memvet_about", {"diff": "HEAD"}),
        ("memvet_check", {"only_problems": False}),
    ]
    results = await asyncio.gather(*(call(served, name, args) for name, args in calls))
    assert len(results) == 10
    errors = [text(r) for r in results if r.is_error]
    assert len(errors) == 1 and errors[0].startswith("AnchorNotFoundError: shop/missing.py"), errors
    load_id = results[0].structured_content["id"]
    readme_id = results[1].structured_content["id"]

    after = await ok(served, "memvet_check", {"ids": [load_id, readme_id]})
    assert [v["status"] for v in after.structured_content["verdicts"]] == ["verified", "verified"]
    recall = await ok(served, "memvet_recall", {"query": "OrderStore.load reads every line", "k": 1})
    assert recall.structured_content["current"][0]["id"] == load_id
    assert "Traceback" not in served.log.read_text(errors="replace")


async def test_a_cli_write_meanwhile_is_seen_at_the_next_call(served: Served) -> None:
    # Another process writes the same local ledger (the file lock, then the
    # server reloads what it wrote): the agent sees it at its next call.
    done = await asyncio.to_thread(served.cli, "record", "Checksums are recomputed when an order is loaded",
                                   "--file", "README.md", "--json")
    assert done.returncode == 0, done.stderr
    recall = await ok(served, "memvet_recall", {"query": "Checksums are recomputed when an order is loaded",
                                                "k": 1})
    assert recall.structured_content["current"][0]["claim"] == "Checksums are recomputed when an order is loaded"
