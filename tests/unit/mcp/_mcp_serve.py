"""A real ``memvet mcp`` subprocess on a real repository, shared by a module.

The fixtures that use it are in ``conftest.py`` here (``mcp_repo``,
``served``) and in ``test_mcp_elicitation.py`` (a client whose person
answers the server's forms).

Starting the server costs seconds (importing Chroma), so one process serves
every test of a module: a background task owns the SDK's ``stdio_client``
and ``ClientSession`` (both must be entered and left in one task) and the
tests send requests through the session from their own tasks.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from _repo import SAMPLE_STORE, RepoBuilder
from mcp import ClientSession, StdioServerParameters
from mcp.client.context import ClientRequestContext
from mcp.client.stdio import stdio_client
from mcp.types import ElicitRequestParams, ElicitResult, ErrorData

ROOT = Path(__file__).resolve().parents[3]

#: The child imports this checkout's code, not whatever ``memvet`` is installed.
CHILD_PYTHONPATH = os.pathsep.join([str(ROOT / "core"), str(ROOT)])


def child_env(ledger: Path, **extra: str) -> dict[str, str]:
    """The server's environment: this checkout, the test embedding, a ledger folder."""
    return {"PYTHONPATH": CHILD_PYTHONPATH, "MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(ledger),
            "ORT_DISABLE_TELEMETRY": "1", "ANONYMIZED_TELEMETRY": "False", **extra}


def build_repo(path: Path) -> RepoBuilder:
    """The shared sample: ``shop/store.py`` and a README, one commit."""
    builder = RepoBuilder(path)
    builder.write("shop/store.py", SAMPLE_STORE, dedent=False)
    builder.write("README.md", "# Shop\n\nA sample.\n")
    builder.commit("initial")
    return builder


class Person:
    """The user behind an MCP client: answers the server's forms (MCP
    elicitation) as the test tells it, in order, and keeps what it was shown."""

    def __init__(self) -> None:
        self.answers: list[ElicitResult | ErrorData] = []
        self.shown: list[str] = []

    def will(self, *answers: ElicitResult | ErrorData) -> None:
        """The answers to the next forms, in order."""
        self.answers = list(answers)

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult | ErrorData:
        self.shown.append(params.message)
        if not self.answers:
            return ErrorData(code=-32603, message="the test did not expect a form")
        return self.answers.pop(0)


@dataclass
class Served:
    """A running server: the client session, the repository, the server's stderr,
    and the person behind the client (when it answers forms)."""

    session: ClientSession
    repo: RepoBuilder
    log: Path
    person: Person = field(default_factory=Person)

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``python -m memvet ARGS`` in the repository, on the server's ledger:
        what a person types in a terminal meanwhile."""
        env = {**os.environ, **child_env(self.repo.path.parent / "ledger")}
        return subprocess.run([sys.executable, "-m", "memvet", *args], cwd=self.repo.path, env=env,
                              capture_output=True, text=True, timeout=120)


async def serve(params: StdioServerParameters, errlog: IO[str], ready: asyncio.Future[ClientSession],
                stop: asyncio.Event, **session: Any) -> None:
    async with stdio_client(params, errlog=errlog) as (read, write), \
            ClientSession(read, write, **session) as client:
        await client.initialize()
        ready.set_result(client)
        await stop.wait()


@asynccontextmanager
async def running(repo: RepoBuilder, *mcp_args: str, person: Person | None = None,
                  **session: Any) -> AsyncIterator[Served]:
    """``python -m memvet --repo REPO mcp MCP_ARGS`` over stdio, with the ledger in
    ``MEMVET_LEDGER`` next to the repository; ``person`` answers its forms
    (the client then declares form elicitation); ``session`` goes to the
    ``ClientSession`` (``client_info=...``)."""
    log = repo.path.parent / "server.log"
    args = ["-m", "memvet", "--repo", str(repo.path), "mcp", *mcp_args]
    params = StdioServerParameters(command=sys.executable, args=args,
                                   env=child_env(repo.path.parent / "ledger"), cwd=str(repo.path.parent))
    if person is not None:
        session["elicitation_callback"] = person
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[ClientSession] = loop.create_future()
    stop = asyncio.Event()
    with log.open("w", encoding="utf-8") as errlog:
        task = asyncio.create_task(serve(params, errlog, ready, stop, **session))
        done, _ = await asyncio.wait([task, ready], timeout=60, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            stop.set()
            task.cancel()
            raise RuntimeError(f"memvet mcp did not start:\n{log.read_text(errors='replace')}")
        try:
            yield Served(ready.result(), repo, log, person or Person())
        finally:
            stop.set()
            await asyncio.wait_for(task, 30)
