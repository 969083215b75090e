"""Approval through the client's form: ``memvet mcp`` as a real stdio
subprocess, driven by the SDK's ``ClientSession`` whose person answers the
server's forms (MCP elicitation, sent as ``elicitation/create`` requests over
the handshake protocol).

The server runs without ``--agent-writes`` on a repository whose committed
``pyproject.toml`` sets no review policy and whose working tree says
``agent-writes = "active"``, uncommitted: the edit must change nothing, so
every record here is the agent's proposal. One server serves the module;
each test uses its own claims and anchors.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio
from _mcp_serve import Person, Served, build_repo, running
from _repo import RepoBuilder
from mcp.types import CallToolResult, ElicitResult, ErrorData, Implementation

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]

CLIENT = "test-client"
VIA = f"MCP elicitation in {CLIENT}"


@pytest.fixture(scope="module")
def policy_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RepoBuilder]:
    repo = build_repo(tmp_path_factory.mktemp("mcp-elicitation") / "repo")
    repo.write("pyproject.toml", '[project]\nname = "shop"\n')
    repo.commit("pyproject")
    repo.write("pyproject.toml", '[project]\nname = "shop"\n\n[tool.memvet]\nagent-writes = "active"\n')
    yield repo


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def asked(policy_repo: RepoBuilder) -> AsyncIterator[Served]:
    """``python -m memvet --repo REPO mcp`` over stdio; its client, ``test-client``,
    declares form elicitation and its person answers as each test says."""
    async with running(policy_repo, person=Person(),
                       client_info=Implementation(name=CLIENT, version="1.0")) as server:
        yield server


def text(result: CallToolResult) -> str:
    return result.content[0].text  # type: ignore[union-attr]


async def ok(served: Served, name: str, args: dict[str, Any]) -> CallToolResult:
    result = await served.session.call_tool(name, args)
    assert not result.is_error, text(result)
    return result


def accept(approve: bool, reason: str = "") -> ElicitResult:
    return ElicitResult(action="accept", content={"approve": approve, "reason": reason})


async def propose(served: Served, claim: str, anchor: str) -> str:
    out = await ok(served, "memvet_record", {"claim": claim, "anchors": [anchor]})
    assert out.structured_content["status"] == "proposed", text(out)
    return str(out.structured_content["id"])


async def shown(served: Served, decision_id: str) -> dict[str, Any]:
    return (await ok(served, "memvet_show", {"decision_id": decision_id})).structured_content  # type: ignore[return-value]


async def persons_decision(served: Served, claim: str, anchor: str) -> str:
    """A decision a person records in a terminal meanwhile (``memvet record``)."""
    done = await asyncio.to_thread(served.cli, "record", claim, "--symbol", anchor, "--json")
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["id"])


async def test_an_uncommitted_agent_writes_edit_changes_nothing(asked: Served) -> None:
    status = [line.strip() for line in asked.repo.git("status", "--porcelain").splitlines()]
    assert "M pyproject.toml" in status  # the edit is in the working tree only
    pid = await propose(asked, "OrderStore.load reads every line of the file", "shop/store.py::OrderStore.load")
    data = await shown(asked, pid)
    assert (data["lifecycle"], data["author"], data["author_kind"]) == ("proposed", CLIENT, "agent")
    assert "ignoring agent-writes = 'active'" in " ".join(asked.log.read_text(errors="replace").split())


async def test_the_person_approves_through_the_form(asked: Served) -> None:
    pid = await propose(asked, "checksum is the byte sum modulo 255", "shop/store.py::checksum")
    asked.person.will(accept(True, "read checksum in shop/store.py"))
    out = await ok(asked, "memvet_approve", {"decision_id": pid})
    assert text(out).startswith(f"Approved decision {pid}: verified")
    assert f"Approved by Ada Tester (person, via {VIA})." in text(out)
    form = asked.person.shown[-1]
    assert form.startswith(f"Review proposal {pid}, proposed by {CLIENT} (agent).")
    assert "Claim: checksum is the byte sum modulo 255" in form
    assert "- anchor: `shop/store.py::checksum` [holds]" in form and "return sum(data) % 255" in form
    data = await shown(asked, pid)
    assert (data["lifecycle"], data["status"]) == ("active", "verified")
    receipt = data["receipts"][-1]
    assert (receipt["action"], receipt["author"], receipt["author_kind"], receipt["via"], receipt["reason"]) == (
        "approve", "Ada Tester", "person", VIA, "read checksum in shop/store.py")


@pytest.mark.parametrize(("action", "said", "claim", "anchor"), [
    ("decline", "declined to answer", "OrderStore.__init__ keeps the path", "shop/store.py::OrderStore.__init__"),
    ("cancel", "cancelled", "The README introduces the sample shop", "README.md"),
])
async def test_declining_or_cancelling_the_form_changes_nothing(asked: Served, action: str, said: str, claim: str,
                                                                anchor: str) -> None:
    pid = await propose(asked, claim, anchor)
    asked.person.will(ElicitResult(action=action))  # type: ignore[arg-type]
    out = await ok(asked, "memvet_approve", {"decision_id": pid})
    assert text(out) == (f"Nothing changed: the person {said} the review of {pid} in {CLIENT}, so nothing was "
                         f"approved or declined; {pid} stays proposed.")
    assert out.structured_content == {"id": pid, "action": action, "changed": False}
    data = await shown(asked, pid)
    assert data["lifecycle"] == "proposed"
    assert [r["action"] for r in data["receipts"]] == ["propose"]


async def test_accepting_with_approve_false_declines(asked: Served) -> None:
    pid = await propose(asked, "OrderStore.save returns True", "shop/store.py::OrderStore.save")
    asked.person.will(accept(False))
    out = await ok(asked, "memvet_approve", {"decision_id": pid})
    assert text(out).startswith(f"Declined proposal {pid}: it is rejected (declined through {CLIENT}).")
    data = await shown(asked, pid)
    assert data["lifecycle"] == "rejected"
    receipt = data["receipts"][-1]
    assert (receipt["action"], receipt["author_kind"], receipt["via"]) == ("reject", "person", VIA)
    assert receipt["reason"].startswith(f"declined through {CLIENT}")


async def test_an_agents_reject_is_a_request_the_person_approves(asked: Served) -> None:
    did = await persons_decision(asked, "OrderStore.load returns one order per line",
                                 "shop/store.py::OrderStore.load")
    out = await ok(asked, "memvet_reject", {"decision_id": did, "reason": "orders are now paged"})
    assert f"Rejection of decision {did} requested; it stays current until a person approves or declines it " \
        "(memvet review)" in text(out)
    data = await shown(asked, did)
    assert (data["lifecycle"], data["status"]) == ("active", "needs_revalidation")
    recall = await ok(asked, "memvet_recall", {"query": "OrderStore.load returns one order per line", "k": 3})
    assert f"[{did}] needs revalidation (an agent ({CLIENT}) proposes retiring this: orders are now paged" \
        in text(recall)
    checked = await ok(asked, "memvet_check", {"ids": [did]})
    assert "proposes retiring this" in checked.structured_content["verdicts"][0]["reason"]

    asked.person.will(accept(True))
    approved = await ok(asked, "memvet_approve", {"decision_id": did})
    assert text(approved).startswith(f"Approved the request: decision {did} is rejected.")
    form = asked.person.shown[-1]
    assert form.startswith(f"Review a request: an agent ({CLIENT}) asks to reject decision {did}.")
    assert "The agent's reason: orders are now paged" in form
    assert f"Decision {did}, recorded by Ada Tester (person): OrderStore.load returns one order per line" in form
    data = await shown(asked, did)
    assert data["lifecycle"] == "rejected"
    assert (data["receipts"][-1]["author_kind"], data["receipts"][-1]["via"]) == ("person", VIA)
    recall = await ok(asked, "memvet_recall", {"query": "OrderStore.load returns one order per line", "k": 3})
    assert f"[{did}] previously tried, rejected: orders are now paged" in text(recall)


async def test_an_agents_supersede_leaves_the_decision_current_until_a_person_answers(asked: Served) -> None:
    old = await persons_decision(asked, "checksum sums the bytes", "shop/store.py::checksum")
    out = await ok(asked, "memvet_supersede", {
        "old_id": old, "claim": "checksum sums the bytes modulo 255", "reason": "the modulus matters",
        "anchors": ["shop/store.py::checksum"]})
    new = out.structured_content["id"]
    assert out.structured_content["status"] == "proposed"
    data = await shown(asked, old)
    assert (data["lifecycle"], data["status"]) == ("active", "needs_revalidation")
    assert f"proposes superseding this with {new}: the modulus matters" in data["reason"]

    asked.person.will(accept(False, "the old wording is enough"))
    declined = await ok(asked, "memvet_approve", {"decision_id": old})
    assert text(declined).startswith(f"Declined the request to retire decision {old}: it stays active as it was")
    assert f"Proposal {new} is rejected." in text(declined)
    form = asked.person.shown[-1]
    assert f"asks to supersede decision {old} with proposal {new}" in form
    assert f"The proposal that would replace it, {new}:" in form
    data = await shown(asked, old)
    assert (data["lifecycle"], data["status"]) == ("active", "verified")
    assert (await shown(asked, new))["lifecycle"] == "rejected"


async def test_a_form_the_client_fails_to_show_is_an_error(asked: Served) -> None:
    pid = await propose(asked, "OrderStore keeps orders", "shop/store.py::OrderStore")
    asked.person.will(ErrorData(code=-32600, message="the editor has no window for forms"))
    out = await asked.session.call_tool("memvet_approve", {"decision_id": pid})
    assert out.is_error
    assert "(MCPError: the editor has no window for forms). Nothing changed" in text(out)
    assert f"memvet approve {pid}" in text(out)
    assert (await shown(asked, pid))["lifecycle"] == "proposed"
    assert f"memvet_approve {pid}: asking" in asked.log.read_text(errors="replace")  # logged, not swallowed
