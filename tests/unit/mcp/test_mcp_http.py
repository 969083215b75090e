"""``memvet mcp --http`` as a real subprocess on loopback, with the SDK's streamable HTTP client."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _mcp_serve import build_repo, child_env
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_listening(port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"memvet mcp exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"memvet mcp did not listen on {port}:\n{log.read_text(errors='replace')}")


async def test_one_tool_over_streamable_http(tmp_path: Path) -> None:
    repo = build_repo(tmp_path / "repo")
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "memvet", "--repo", str(repo.path), "mcp", "--http", f"127.0.0.1:{port}",
             "--agent-writes", "active"],
            stdin=subprocess.DEVNULL, stdout=err, stderr=err, env=child_env(tmp_path / "ledger"), cwd=tmp_path)
    try:
        wait_listening(port, proc, log)
        async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            recorded = await session.call_tool("memvet_record", {
                "claim": "OrderStore.save appends one JSON line per order",
                "anchors": ["shop/store.py::OrderStore.save"]})
            recalled = await session.call_tool("memvet_recall", {"query": "how does OrderStore.save write"})
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert not recorded.is_error, recorded.content
    did = recorded.structured_content["id"]
    assert recalled.structured_content["current"][0]["id"] == did
    assert f"- [{did}] OrderStore.save appends one JSON line per order" in recalled.content[0].text  # type: ignore[union-attr]
    assert "Traceback" not in log.read_text(errors="replace")
