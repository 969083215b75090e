"""Real servers on loopback: ``chroma run`` (the console script shipped in the
chromadb wheel) and nginx from the OS packages, configured with the shipped
``deploy/nginx.conf``. Started by the fixtures, torn down after.

In CI (``CI`` set) a missing nginx fails the auth tests instead of skipping
them: ``.ci/run`` installs it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(url: str, proc: subprocess.Popen[bytes], expect: set[int], log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            if httpx.get(url, timeout=2).status_code in expect:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} not ready after {timeout}s:\n{log.read_text(errors='replace')}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@dataclass
class ChromaServer:
    url: str
    port: int
    path: Path
    log: Path
    proc: subprocess.Popen[bytes]

    def wait_ready(self) -> ChromaServer:
        try:
            _wait_for(f"{self.url}/api/v2/heartbeat", self.proc, {200}, self.log)
        except Exception:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        _stop(self.proc)


def start_chroma(workdir: Path) -> ChromaServer:
    """``chroma run --path DIR --host 127.0.0.1 --port N`` (call ``wait_ready``)."""
    chroma = Path(sys.executable).with_name("chroma")
    port = free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "chroma.log"
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONTRACEMALLOC"}, "ANONYMIZED_TELEMETRY": "False"}
    with log.open("wb") as out:
        proc = subprocess.Popen([str(chroma), "run", "--path", str(workdir / "data"), "--host", "127.0.0.1",
                                 "--port", str(port)], stdout=out, stderr=subprocess.STDOUT, env=env,
                                cwd=workdir)
    return ChromaServer(f"http://127.0.0.1:{port}", port, workdir / "data", log, proc)


@pytest.fixture(scope="session")
def _chroma_servers(tmp_path_factory) -> Iterator[tuple[ChromaServer, ChromaServer]]:
    """Two servers started at once (start-up is the slow part): a shared one,
    and one that a test kills."""
    base = tmp_path_factory.mktemp("chroma")
    servers = (start_chroma(base / "shared"), start_chroma(base / "doomed"))
    try:
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture(scope="session")
def chroma_server(_chroma_servers) -> ChromaServer:
    return _chroma_servers[0]


@pytest.fixture
def doomed_chroma_server(_chroma_servers) -> ChromaServer:
    """A server this test may stop (only one test uses it)."""
    return _chroma_servers[1]


def find_nginx() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                          if os.access(p, os.X_OK)), None)


@dataclass
class Proxy:
    url: str
    token: str
    prefix: Path
    conf: Path
    nginx: str
    proc: subprocess.Popen[bytes]

    def set_tokens(self, *tokens: str) -> None:
        """Rewrite the token map and reload nginx (as an operator revoking a token would)."""
        (self.prefix / "memvet-tokens.map").write_text("".join(f'"Bearer {t}" 1;\n' for t in tokens))
        subprocess.run([self.nginx, "-p", str(self.prefix), "-c", str(self.conf), "-g",
                        f"pid {self.prefix / 'nginx.pid'};", "-s", "reload"], check=True, capture_output=True)
        time.sleep(1.0)  # workers pick the new map up asynchronously


@pytest.fixture(scope="session")
def nginx_proxy(chroma_server, tmp_path_factory) -> Iterator[Proxy]:
    """nginx with the shipped deploy/nginx.conf (ports rewritten), checking a bearer token."""
    nginx = find_nginx()
    if nginx is None:
        message = "nginx is not installed (apt-get install -y nginx; .ci/run does it)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    prefix = tmp_path_factory.mktemp("nginx")
    for sub in ("logs", "tmp"):
        (prefix / sub).mkdir()
    port = free_port()
    conf_text = (DEPLOY / "nginx.conf").read_text()
    assert "listen 127.0.0.1:8001;" in conf_text and "server 127.0.0.1:8000;" in conf_text
    conf = prefix / "nginx.conf"
    conf.write_text(conf_text.replace("listen 127.0.0.1:8001;", f"listen 127.0.0.1:{port};")
                    .replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{chroma_server.port};"))
    token = "t0k3n-" + os.urandom(12).hex()
    (prefix / "memvet-tokens.map").write_text(f'"Bearer {token}" 1;\n')
    log = prefix / "logs" / "stderr.log"
    with log.open("wb") as err:
        proc = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(conf), "-g",
                                 f"daemon off; pid {prefix / 'nginx.pid'};"],
                                stdout=subprocess.DEVNULL, stderr=err)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{url}/api/v2/heartbeat", proc, {401}, log, timeout=30)
    except Exception:
        _stop(proc)
        raise
    yield Proxy(url, token, prefix, conf, nginx, proc)
    _stop(proc)
