"""The real servers of the integration tests, started and stopped by the
fixtures in conftest.py (and importable by tests: ``from _servers import ...``,
since a second module named ``conftest`` would be ambiguous)."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
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


def find_nginx() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                          if os.access(p, os.X_OK)), None)


def create_database(chroma: ChromaServer, name: str) -> None:
    """A team's Chroma database, created on the loopback server as docs/deploy.md does it (curl there)."""
    response = httpx.post(f"{chroma.url}/api/v2/tenants/default_tenant/databases", json={"name": name}, timeout=10)
    response.raise_for_status()


def new_token() -> str:
    """A token as docs/deploy.md makes one: ``secrets.token_urlsafe(32)``, 43 characters."""
    token = secrets.token_urlsafe(32)
    assert len(token) == 43
    return token


@dataclass
class Proxy:
    """nginx in front of ``chroma run`` with two teams: ``token`` reaches
    ``database``, ``other_token`` reaches ``other_database``."""

    url: str
    token: str
    database: str
    other_token: str
    other_database: str
    prefix: Path
    conf: Path
    nginx: str
    proc: subprocess.Popen[bytes]

    def write_map(self, tokens: dict[str, str]) -> None:
        """Rewrite the token map (token -> database) and reload nginx, as an operator would."""
        (self.prefix / "memvet-tokens.map").write_text("".join(f'"Bearer {t}" {db};\n' for t, db in tokens.items()))
        subprocess.run([self.nginx, "-p", str(self.prefix), "-c", str(self.conf), "-g",
                        f"pid {self.prefix / 'nginx.pid'};", "-s", "reload"], check=True, capture_output=True)
        time.sleep(1.0)  # workers pick the new map up asynchronously

    def set_tokens(self, *tokens: str) -> None:
        """Only ``tokens`` are valid, each for the first team's database (revoking every other)."""
        self.write_map(dict.fromkeys(tokens, self.database))

    def restore(self) -> None:
        """Both teams' tokens, as the fixture made them."""
        self.write_map({self.token: self.database, self.other_token: self.other_database})


def rendered_conf(proxy_port: int, chroma_port: int) -> str:
    """The shipped deploy/nginx.conf with only its two ports rewritten."""
    conf_text = (DEPLOY / "nginx.conf").read_text()
    assert "listen 127.0.0.1:8001;" in conf_text and "server 127.0.0.1:8000;" in conf_text
    return (conf_text.replace("listen 127.0.0.1:8001;", f"listen 127.0.0.1:{proxy_port};")
            .replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{chroma_port};"))


def nginx_or_skip() -> str:
    nginx = find_nginx()
    if nginx is None:
        message = "nginx is not installed (apt-get install -y nginx; .ci/run does it)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return nginx
