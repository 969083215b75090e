"""Real servers on loopback: ``chroma run`` (the console script shipped in the
chromadb wheel) and nginx from the OS packages, configured with the shipped
``deploy/nginx.conf``. Started by the fixtures, torn down after.

In CI (``CI`` set) a missing nginx fails the auth tests instead of skipping
them: ``.ci/run`` installs it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import pytest
from _servers import (
    ChromaServer,
    Proxy,
    _stop,
    _wait_for,
    create_database,
    free_port,
    new_token,
    nginx_or_skip,
    rendered_conf,
    start_chroma,
)


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


@pytest.fixture(scope="session")
def nginx_proxy(chroma_server, tmp_path_factory) -> Iterator[Proxy]:
    """nginx with the shipped deploy/nginx.conf (ports rewritten), checking
    43-character bearer tokens of two teams, each with its own database."""
    nginx = nginx_or_skip()
    prefix = tmp_path_factory.mktemp("nginx")
    for sub in ("logs", "tmp"):
        (prefix / sub).mkdir()
    port = free_port()
    conf = prefix / "nginx.conf"
    conf.write_text(rendered_conf(port, chroma_server.port))
    suffix = os.urandom(4).hex()
    database, other_database = f"team-a-{suffix}", f"team-b-{suffix}"
    for name in (database, other_database):
        create_database(chroma_server, name)
    token, other_token = new_token(), new_token()
    (prefix / "memvet-tokens.map").write_text(
        f'"Bearer {token}" {database};\n"Bearer {other_token}" {other_database};\n')
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
    yield Proxy(url, token, database, other_token, other_database, prefix, conf, nginx, proc)
    _stop(proc)
