"""``memvet mcp --http`` behind the shipped token proxy, with the ``location
/mcp`` block exactly as ``docs/mcp.md`` prints it: no token is a 401 from
nginx, the right token reaches the MCP server, and the server accepts the
proxied ``Host`` header."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(120)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _nginx() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                           if os.access(p, os.X_OK)), None)
    if found is None:
        message = "nginx is not installed (apt-get install -y nginx; .ci/run does it)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return found


def _documented_location(port: int) -> str:
    """The ``location /mcp`` block of docs/mcp.md, pointed at ``port``."""
    blocks = re.findall(r"```nginx\n(.*?)```", (ROOT / "docs" / "mcp.md").read_text(), re.S)
    assert len(blocks) == 1, "docs/mcp.md should show one nginx block"
    assert "proxy_pass http://127.0.0.1:8765;" in blocks[0]
    return blocks[0].replace("127.0.0.1:8765", f"127.0.0.1:{port}")


def _wait(check: object, proc: subprocess.Popen[bytes], log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args} exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            if check():  # type: ignore[operator]
                return
        except (OSError, httpx.HTTPError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{proc.args} not ready after {timeout}s:\n{log.read_text(errors='replace')}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def proxied_mcp(repo, tmp_path: Path) -> Iterator[tuple[str, str, str]]:
    """``memvet mcp --http`` on loopback and nginx in front of it: (url, the
    payments team's token, another team's token)."""
    nginx = _nginx()
    mcp_port, proxy_port = _free_port(), _free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "core"), str(ROOT)]),
           "MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "ledger"), "ORT_DISABLE_TELEMETRY": "1"}
    server_log = tmp_path / "mcp.log"
    with server_log.open("wb") as err:
        server = subprocess.Popen(
            [sys.executable, "-m", "memvet", "--repo", str(repo.path), "mcp", "--http", f"127.0.0.1:{mcp_port}",
             "--agent-writes", "active"],
            stdin=subprocess.DEVNULL, stdout=err, stderr=err, env=env, cwd=tmp_path)
    prefix = tmp_path / "nginx"
    for sub in ("logs", "tmp"):
        (prefix / sub).mkdir(parents=True)
    conf_text = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "        location / {\n" in conf_text
    location = "".join(f"        {line}\n" if line else "\n" for line in _documented_location(mcp_port).splitlines())
    conf = prefix / "nginx.conf"
    conf.write_text(conf_text.replace("listen 127.0.0.1:8001;", f"listen 127.0.0.1:{proxy_port};")
                    .replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{_free_port()};")
                    .replace("        location / {\n", location + "\n        location / {\n", 1))
    token, other = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    (prefix / "memvet-tokens.map").write_text(f'"Bearer {token}" payments;\n"Bearer {other}" search;\n')
    proxy_log = prefix / "logs" / "stderr.log"
    with proxy_log.open("wb") as err:
        proxy = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(conf), "-g",
                                  f"daemon off; pid {prefix / 'nginx.pid'};"], stdout=subprocess.DEVNULL, stderr=err)
    url = f"http://127.0.0.1:{proxy_port}/mcp"
    try:
        _wait(lambda: socket.create_connection(("127.0.0.1", mcp_port), timeout=1).close() is None, server,
              server_log)
        _wait(lambda: httpx.get(url, timeout=2).status_code == 401, proxy, proxy_log, timeout=30)
        yield url, token, other
    finally:
        _stop(proxy)
        _stop(server)


async def test_mcp_through_the_token_proxy(proxied_mcp: tuple[str, str, str]) -> None:
    url, token, other_team = proxied_mcp
    refused = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=10)
    assert refused.status_code == 401
    wrong = httpx.post(url, json={}, headers={"Authorization": "Bearer nope"}, timeout=10)
    assert wrong.status_code == 401
    elsewhere = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                           headers={"Authorization": f"Bearer {other_team}"}, timeout=10)
    assert elsewhere.status_code == 403

    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"},
                                  timeout=httpx2.Timeout(30, read=120)) as http, \
            streamable_http_client(url, http_client=http) as (read, write), \
            ClientSession(read, write) as session:
        await session.initialize()
        recorded = await session.call_tool("memvet_record", {
            "claim": "OrderStore.save appends one JSON line per order",
            "anchors": ["shop/store.py::OrderStore.save"]})
        recalled = await session.call_tool("memvet_recall", {"query": "how does OrderStore.save write"})
    assert not recorded.is_error, recorded.content
    assert recalled.structured_content["current"][0]["id"] == recorded.structured_content["id"]
