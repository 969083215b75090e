"""Fixtures of the MCP tests.

The in-process ledger writes active decisions, as a person's would; the
proposals an agent writes by default have tests of their own
(``test_mcp_tools.py::test_agent_writes_are_proposals_by_default``).
``mcp_repo`` and ``served`` are one real ``memvet mcp`` stdio subprocess per
test module (see ``_mcp_serve.py``).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Callable, Iterator

import pytest
import pytest_asyncio
from _mcp_serve import Served, build_repo, child_env, serve
from _repo import RepoBuilder
from mcp import ClientSession, StdioServerParameters

import memvet


@pytest.fixture
def ledger(open_ledger: Callable[..., memvet.Ledger]) -> memvet.Ledger:
    return open_ledger(agent_writes="active")


@pytest.fixture(scope="module")
def mcp_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RepoBuilder]:
    yield build_repo(tmp_path_factory.mktemp("mcp-stdio") / "repo")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def served(mcp_repo: RepoBuilder) -> AsyncIterator[Served]:
    """``python -m memvet --repo REPO mcp`` over stdio, with the ledger in ``MEMVET_LEDGER``."""
    log = mcp_repo.path.parent / "server.log"
    args = ["-m", "memvet", "--repo", str(mcp_repo.path), "mcp", "--agent-writes", "active"]
    params = StdioServerParameters(command=sys.executable, args=args,
                                   env=child_env(mcp_repo.path.parent / "ledger"), cwd=str(mcp_repo.path.parent))
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[ClientSession] = loop.create_future()
    stop = asyncio.Event()
    with log.open("w", encoding="utf-8") as errlog:
        task = asyncio.create_task(serve(params, errlog, ready, stop))
        done, _ = await asyncio.wait([task, ready], timeout=60, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            stop.set()
            task.cancel()
            raise RuntimeError(f"memvet mcp did not start:\n{log.read_text(errors='replace')}")
        try:
            yield Served(ready.result(), mcp_repo, log)
        finally:
            stop.set()
            await asyncio.wait_for(task, 30)
