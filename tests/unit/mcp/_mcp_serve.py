"""A real ``memvet mcp`` subprocess on a real repository, shared by a module.

Import the fixtures into a test module: ``from _mcp_serve import served, mcp_repo``.

Starting the server costs seconds (importing Chroma), so one process serves
every test of a module: a background task owns the SDK's ``stdio_client``
and ``ClientSession`` (both must be entered and left in one task) and the
tests send requests through the session from their own tasks.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import pytest
import pytest_asyncio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[3]


def _tests_conftest() -> ModuleType:
    """``tests/conftest.py`` by path: the name ``conftest`` is whichever
    conftest pytest imported last (``tests/unit/llamaindex`` has one too)."""
    name = "_memvet_tests_conftest"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "conftest.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


RepoBuilder = _tests_conftest().RepoBuilder
SAMPLE_STORE: str = _tests_conftest().SAMPLE_STORE

#: The child imports this checkout's code, not whatever ``memvet`` is installed.
CHILD_PYTHONPATH = os.pathsep.join([str(ROOT / "core"), str(ROOT)])


def child_env(ledger: Path, **extra: str) -> dict[str, str]:
    """The server's environment: this checkout, the test embedding, a ledger folder."""
    return {"PYTHONPATH": CHILD_PYTHONPATH, "MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(ledger),
            "ORT_DISABLE_TELEMETRY": "1", "ANONYMIZED_TELEMETRY": "False", **extra}


def build_repo(path: Path) -> Any:
    """The shared sample: ``shop/store.py`` and a README, one commit."""
    builder = RepoBuilder(path)
    builder.write("shop/store.py", SAMPLE_STORE, dedent=False)
    builder.write("README.md", "# Shop\n\nA sample.\n")
    builder.commit("initial")
    return builder


@dataclass
class Served:
    """A running server: the client session, the repository, the server's stderr."""

    session: ClientSession
    repo: Any
    log: Path


async def _serve(params: StdioServerParameters, errlog: IO[str], ready: asyncio.Future[ClientSession],
                 stop: asyncio.Event) -> None:
    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        ready.set_result(session)
        await stop.wait()


@pytest.fixture(scope="module")
def mcp_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield build_repo(tmp_path_factory.mktemp("mcp-stdio") / "repo")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def served(mcp_repo: Any) -> AsyncIterator[Served]:
    """``python -m memvet --repo REPO mcp`` over stdio, with the ledger in ``MEMVET_LEDGER``."""
    log = mcp_repo.path.parent / "server.log"
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "memvet", "--repo", str(mcp_repo.path), "mcp", "--agent-writes", "active"],
                                   env=child_env(mcp_repo.path.parent / "ledger"), cwd=str(mcp_repo.path.parent))
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[ClientSession] = loop.create_future()
    stop = asyncio.Event()
    with log.open("w", encoding="utf-8") as errlog:
        task = asyncio.create_task(_serve(params, errlog, ready, stop))
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
