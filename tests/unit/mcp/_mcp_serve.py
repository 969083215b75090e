"""A real ``memvet mcp`` subprocess on a real repository, shared by a module.

The fixtures ``mcp_repo`` and ``served`` that use it are in ``conftest.py`` here.

Starting the server costs seconds (importing Chroma), so one process serves
every test of a module: a background task owns the SDK's ``stdio_client``
and ``ClientSession`` (both must be entered and left in one task) and the
tests send requests through the session from their own tasks.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from _repo import SAMPLE_STORE, RepoBuilder
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

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


@dataclass
class Served:
    """A running server: the client session, the repository, the server's stderr."""

    session: ClientSession
    repo: RepoBuilder
    log: Path


async def serve(params: StdioServerParameters, errlog: IO[str], ready: asyncio.Future[ClientSession],
                 stop: asyncio.Event) -> None:
    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        ready.set_result(session)
        await stop.wait()
