"""Tokens stop at their team, on the real ``chroma run`` behind the shipped
``deploy/nginx.conf``: team B's token is refused on every read, write, list
and delete of team A's database, by every spelling of the path and of the
collection id, and team A's memory is byte-for-byte what it was, and still
works.

Requests are sent on a raw socket, so the request line reaches nginx exactly
as written here (httpx would normalize dot segments and encodings away).
"""

from __future__ import annotations

import gc
import json
import re
import socket
import subprocess
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import chromadb
import pytest
from _servers import DEPLOY, ChromaServer, Proxy, create_database, new_token, nginx_or_skip, rendered_conf
from chromadb.config import Settings

import memvet
from memvet import Status

pytestmark = [
    pytest.mark.timeout(300),
    # chromadb's HttpClient (the operator's view in _direct) keeps an httpx
    # connection it never closes; when the collector frees it mid-test it is
    # an unclosed socket, not a finding of this test.
    pytest.mark.filterwarnings(
        "ignore:Exception ignored in. <socket.socket:pytest.PytestUnraisableExceptionWarning"),
]

FORBIDDEN = "this token reaches only its own team's database"
UNAUTHORIZED = "missing or wrong bearer token"


def _send(url: str, method: str, target: str, token: str | None, body: Any = None) -> tuple[int, str]:
    """One HTTP/1.1 request with ``target`` verbatim in the request line."""
    parts = urlsplit(url)
    data = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {target} HTTP/1.1", f"Host: {parts.hostname}", "Connection: close",
            f"Content-Length: {len(data)}"]
    if body is not None:
        head.append("Content-Type: application/json")
    if token is not None:
        head.append(f"Authorization: Bearer {token}")
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    status_line, _, rest = raw.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2].decode(errors="replace")


def _direct(chroma: ChromaServer, database: str) -> Any:
    """A client on the loopback Chroma itself (the operator's view, no proxy)."""
    return chromadb.HttpClient(host="127.0.0.1", port=chroma.port, database=database,
                               settings=Settings(anonymized_telemetry=False))


def _snapshot(chroma: ChromaServer, database: str) -> dict[str, Any]:
    """Everything in a database: each collection's id, metadata and records."""
    client = _direct(chroma, database)
    try:
        out = {}
        for collection in client.list_collections():
            got = collection.get(include=["documents", "metadatas", "embeddings"])
            out[collection.name] = {
                "id": str(collection.id), "metadata": collection.metadata,
                "records": sorted(zip(got["ids"], got["documents"], [json.dumps(m, sort_keys=True)
                                                                    for m in got["metadatas"]],
                                      [list(map(float, e)) for e in got["embeddings"]], strict=True)),
            }
        return out
    finally:
        client.close()


@pytest.fixture
def team_a(repo, nginx_proxy: Proxy) -> Iterator[memvet.Ledger]:
    """Team A's ledger through the proxy, with two decisions and a rejection."""
    ledger = memvet.Ledger.open(repo.path, server=nginx_proxy.url, token=nginx_proxy.token,
                                namespace=f"iso-{uuid.uuid4().hex[:8]}", embedding=memvet.HashingEmbedder(),
                                disk_cache=False)
    kept = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    dropped = ledger.record("orders are saved as one JSON line each", ["shop/store.py::OrderStore.save"])
    ledger.reject(dropped.id, reason="we moved to SQLite")
    ledger.kept_id = kept.id  # type: ignore[attr-defined]
    yield ledger
    ledger.store.client.close()
    _collect_sockets()


@pytest.fixture(autouse=True)
def _sockets_collected() -> Iterator[None]:
    yield
    _collect_sockets()


def _collect_sockets() -> None:
    """chromadb's close() leaves its httpx sockets to the garbage collector:
    collect them here, where their ResourceWarning is expected."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


def _routes(a: str, b: str, ids: list[str], names: list[str]) -> list[tuple[str, str, Any]]:
    """Every Chroma v2 route into database ``a`` (and the id routes through
    ``b``'s own prefix), as (method, target, body)."""
    base = "/api/v2/tenants/default_tenant/databases"
    out: list[tuple[str, str, Any]] = [
        ("GET", f"{base}", None),                                             # list every database
        ("POST", f"{base}", {"name": f"squat-{uuid.uuid4().hex[:6]}"}),       # create one
        ("GET", f"{base}/{a}", None),
        ("DELETE", f"{base}/{a}", None),
        ("POST", "/api/v2/tenants", {"name": "squatter"}),
        ("GET", "/api/v2/tenants/squatter", None),
        ("POST", "/api/v2/reset", None),
        ("GET", f"{base}/{a}/collections", None),
        ("GET", f"{base}/{a}/collections?limit=100&offset=0", None),
        ("GET", f"{base}/{a}/collections_count", None),
        ("POST", f"{base}/{a}/collections", {"name": "memvet-squat", "get_or_create": True}),
        # the path tricks: dot segments, encodings, doubled and back slashes
        ("GET", f"{base}/{b}/../{a}/collections", None),
        ("GET", f"{base}/{b}/%2e%2e/{a}/collections", None),
        ("GET", f"{base}/{b}/collections/..%2F..%2F{a}/collections", None),
        ("GET", f"{base}/{a.replace('-', '%2D')}/collections", None),
        ("GET", f"{base}//{a}/collections", None),
        ("GET", f"{base}/{b}/..\\{a}/collections", None),
        ("GET", f"/api/v2/tenants/default_tenant/./databases/{a}/collections", None),
    ]
    for name in names:
        out += [("GET", f"{base}/{a}/collections/{name}", None),
                ("DELETE", f"{base}/{a}/collections/{name}", None)]
    for cid in ids:
        # every spelling of the id Chroma parses (hyphenated, simple, upper case, URN)
        for spelled in (cid, cid.replace("-", ""), cid.upper(), f"urn:uuid:{cid}"):
            for db in (a, b):
                prefix = f"{base}/{db}/collections/{spelled}"
                out += [
                    ("POST", f"{prefix}/get", {}),
                    ("POST", f"{prefix}/query", {"query_embeddings": [[1.0] * 256], "n_results": 5}),
                    ("GET", f"{prefix}/count", None),
                    ("POST", f"{prefix}/add", {"ids": ["forged"], "embeddings": [[1.0] * 256],
                                               "documents": ["forged by team B"]}),
                    ("POST", f"{prefix}/upsert", {"ids": ["forged"], "embeddings": [[1.0] * 256]}),
                    ("POST", f"{prefix}/update", {"ids": ["forged"], "documents": ["x"]}),
                    ("POST", f"{prefix}/delete", {}),
                    ("PUT", prefix, {"new_metadata": {"namespace": "stolen"}}),
                    ("POST", f"{prefix}/fork", {"new_name": "memvet-stolen"}),
                    ("GET", f"{prefix}/indexing_status", None),
                    ("POST", f"{prefix}/search", {"searches": []}),
                ]
        out.append(("GET", f"{base}/{a}/collections/by-id/{cid}", None))
    return out


def test_another_teams_token_is_refused_on_every_route(team_a, nginx_proxy: Proxy, chroma_server):
    a, b = nginx_proxy.database, nginx_proxy.other_database
    before = _snapshot(chroma_server, a)
    ids = [entry["id"] for entry in before.values()]
    # Team A's own namespace has three collections (decisions, receipts,
    # journal); other tests of the session may have added theirs to the same
    # team database. Every one of them must be out of team B's reach.
    assert len(ids) >= 3
    routes = _routes(a, b, ids, list(before))
    wrong = []
    for method, target, body in routes:
        status, text = _send(nginx_proxy.url, method, target, nginx_proxy.other_token, body)
        if status != 403 or FORBIDDEN not in text:
            wrong.append((method, target, status, text[:120]))
    assert wrong == [], f"{len(wrong)} of {len(routes)} requests with team B's token were not refused"
    assert _snapshot(chroma_server, a) == before
    print(f"\nteam B's token: {len(routes)} of {len(routes)} requests into team A's database refused (403)")


def test_no_token_and_an_unknown_token_are_refused_everywhere(team_a, nginx_proxy: Proxy, chroma_server):
    a, b = nginx_proxy.database, nginx_proxy.other_database
    before = _snapshot(chroma_server, a)
    routes = _routes(a, b, [entry["id"] for entry in before.values()], list(before))
    routes += [("GET", "/api/v2/heartbeat", None), ("GET", "/api/v2/auth/identity", None)]
    wrong = []
    for token in (None, new_token(), f"{nginx_proxy.token}x"):
        for method, target, body in routes:
            status, text = _send(nginx_proxy.url, method, target, token, body)
            if status != 401 or UNAUTHORIZED not in text:
                wrong.append((token is None, method, target, status))
    assert wrong == []
    assert _snapshot(chroma_server, a) == before


def test_a_token_for_a_shorter_database_name_stays_out(team_a, nginx_proxy: Proxy, chroma_server):
    """A database whose name is a prefix of another's (``team-a`` and
    ``team-a-<suffix>``) reaches only itself."""
    a = nginx_proxy.database
    short = a.rsplit("-", 1)[0]
    create_database(chroma_server, short)
    token = new_token()
    before = _snapshot(chroma_server, a)
    try:
        nginx_proxy.write_map({nginx_proxy.token: a, nginx_proxy.other_token: nginx_proxy.other_database,
                               token: short})
        base = "/api/v2/tenants/default_tenant/databases"
        for method, target in (("GET", f"{base}/{a}/collections"), ("GET", f"{base}/{a}"),
                               ("GET", f"{base}/{short}{a[len(short):]}/collections_count")):
            assert _send(nginx_proxy.url, method, target, token) == (403, _forbidden_body())
        own = _send(nginx_proxy.url, "GET", f"{base}/{short}/collections", token)
        assert own == (200, "[]")
    finally:
        nginx_proxy.restore()
    assert _snapshot(chroma_server, a) == before


def _forbidden_body() -> str:
    return json.dumps({"error": "AuthorizationError", "message": FORBIDDEN}, separators=(",", ":"))


def test_team_b_through_memvet_sees_and_touches_nothing_of_team_a(team_a, repo, nginx_proxy: Proxy,
                                                                   chroma_server):
    """MemVet's own API with team B's token, on team A's very namespace: an
    empty memory of B's own, A's ids unknown, nothing of A listed; then team
    A reads and writes as before."""
    before = _snapshot(chroma_server, nginx_proxy.database)
    other = memvet.Ledger.open(repo.path, server=nginx_proxy.url, token=nginx_proxy.other_token,
                               namespace=team_a.namespace, embedding=memvet.HashingEmbedder(), disk_cache=False)
    try:
        # the same namespace name, and none of team A's decisions, receipts or collections
        assert other.decisions() == [] and other.check() == [] and other.log() == []
        assert list(other.recall("checksum").items) == []
        assert team_a.namespace not in other.store.namespaces()
        with pytest.raises(memvet.UnknownDecisionError):
            other.get(team_a.kept_id)
        with pytest.raises(memvet.UnknownDecisionError):
            other.reject(team_a.kept_id, reason="team B says no")
        other.record("team B's own decision", ["shop/store.py::checksum"])
    finally:
        other.store.client.close()
        _collect_sockets()
    assert _snapshot(chroma_server, nginx_proxy.database) == before
    [verdict] = [v for v in team_a.check() if v.id == team_a.kept_id]
    assert verdict.status is Status.VERIFIED
    assert "team B's own decision" not in [d.claim for d in team_a.decisions()]
    added = team_a.record("OrderStore.load reads every line", ["shop/store.py::OrderStore.load"])
    assert team_a.verify(added.id).status is Status.VERIFIED


def test_a_chroma_client_naming_another_teams_database_is_refused(team_a, nginx_proxy: Proxy):
    """An attacker's own chromadb client, told team A's database, with team B's token."""
    host, port = "127.0.0.1", int(nginx_proxy.url.rsplit(":", 1)[1])
    headers = {"Authorization": f"Bearer {nginx_proxy.other_token}"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        with pytest.raises(chromadb.errors.AuthorizationError, match=re.escape(FORBIDDEN)):
            chromadb.HttpClient(host=host, port=port, headers=headers, database=nginx_proxy.database,
                                settings=Settings(anonymized_telemetry=False))
        with pytest.raises(chromadb.errors.ChromaAuthError, match="does not match"):
            chromadb.HttpClient(host=host, port=port, headers=headers, database=nginx_proxy.database,
                                settings=Settings(anonymized_telemetry=False,
                                                  chroma_overwrite_singleton_tenant_database_access_from_auth=True))
        gc.collect()


def test_a_token_whose_database_is_missing_says_so(repo, nginx_proxy: Proxy):
    token = new_token()
    try:
        nginx_proxy.write_map({nginx_proxy.token: nginx_proxy.database,
                               nginx_proxy.other_token: nginx_proxy.other_database, token: "never-created"})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            with pytest.raises(memvet.StoreError) as info:
                memvet.Ledger.open(repo.path, server=nginx_proxy.url, token=token, namespace="missing-db",
                                   embedding=memvet.HashingEmbedder(), disk_cache=False)
            gc.collect()
    finally:
        nginx_proxy.restore()
    message = str(info.value)
    assert "has no database 'never-created'" in message and "docs/deploy.md" in message
    assert token not in message


def test_the_shipped_config_starts_with_real_token_lengths(tmp_path: Path):
    """``secrets.token_urlsafe(32)`` gives 43 characters; Debian 12's nginx
    1.22 refuses the map with its default bucket. The shipped config starts
    with tokens of 43 and 86 characters, and the same config without its
    ``map_hash_bucket_size`` line does not (why the line is there)."""
    nginx = nginx_or_skip()
    for sub in ("logs", "tmp"):
        (tmp_path / sub).mkdir()
    tokens = [new_token(), new_token(), "x" * 86]
    (tmp_path / "memvet-tokens.map").write_text("".join(f'"Bearer {t}" team-{i};\n' for i, t in enumerate(tokens)))
    shipped = rendered_conf(18001, 18000)
    assert "map_hash_bucket_size 256;" in shipped

    def nginx_t(text: str) -> subprocess.CompletedProcess[str]:
        conf = tmp_path / "nginx.conf"
        conf.write_text(text)
        return subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(conf), "-g",
                               f"pid {tmp_path / 'nginx.pid'};"], capture_output=True, text=True)

    assert nginx_t(shipped).returncode == 0, nginx_t(shipped).stderr
    without = nginx_t(shipped.replace("map_hash_bucket_size 256;", ""))
    assert without.returncode != 0 and "map_hash_bucket_size" in without.stderr
    example = [line for line in (DEPLOY / "memvet-tokens.map.example").read_text().splitlines()
               if line and not line.startswith("#")]
    assert example and all(re.fullmatch(r'"Bearer [!-~]+" [A-Za-z0-9_-]+;', line) for line in example)
