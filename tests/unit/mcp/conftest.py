"""Fixtures of the MCP tests.

The in-process ledger's policy lets agents' records be active
(``agent_writes="active"``), so most tests record through MCP in one step;
the proposals an agent writes by default have tests of their own
(``test_mcp_tools.py::test_agent_writes_are_proposals_by_default``,
``test_mcp_elicitation.py``). Whatever the policy, an agent's supersede or
reject through MCP is a request a person answers. ``mcp_repo`` and
``served`` are one real ``memvet mcp`` stdio subprocess per test module (see
``_mcp_serve.py``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator

import pytest
import pytest_asyncio
from _mcp_serve import Served, build_repo, running
from _repo import RepoBuilder

import memvet


@pytest.fixture
def ledger(open_ledger: Callable[..., memvet.Ledger]) -> memvet.Ledger:
    return open_ledger(agent_writes="active")


@pytest.fixture(scope="module")
def mcp_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RepoBuilder]:
    yield build_repo(tmp_path_factory.mktemp("mcp-stdio") / "repo")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def served(mcp_repo: RepoBuilder) -> AsyncIterator[Served]:
    """``python -m memvet --repo REPO mcp --agent-writes active`` over stdio, with the ledger in
    ``MEMVET_LEDGER``; its client declares no form elicitation."""
    async with running(mcp_repo, "--agent-writes", "active") as server:
        yield server
