"""A real ``chroma run`` server (and nginx in front of it): concurrent writers
lose nothing, tokens are checked, and an outage is an error, never an empty
memory."""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import time
import uuid
import warnings
from pathlib import Path

import pytest

import memvet
from memvet import Status

WRITER = Path(__file__).with_name("_writer.py")
PROCESSES, PER_PROCESS = 4, 100


_opened: list[memvet.Ledger] = []


@pytest.fixture(autouse=True)
def _close_clients():
    """Close every HTTP client a test opened. chromadb's close() releases the
    client but leaves its httpx sockets to the garbage collector: collect them
    here, where their ResourceWarning is expected, not in a later test."""
    yield
    while _opened:
        _opened.pop().store.client.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


def _open(repo, url: str, namespace: str, token: str | None = None) -> memvet.Ledger:
    ledger = memvet.Ledger.open(repo.path, server=url, token=token, namespace=namespace,
                                embedding=memvet.HashingEmbedder(), disk_cache=False)
    _opened.append(ledger)
    return ledger


@contextlib.contextmanager
def _failed_open():
    """chromadb's HttpClient leaves its socket open when its constructor
    fails; collect it here rather than as a warning in a later test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            yield
        finally:
            gc.collect()


def test_concurrent_writers_through_the_server_lose_nothing(repo, chroma_server):
    """4 processes x 100 records at once: exactly N stored, every one retrievable
    by id and by vector query (the same load on one embedded folder loses vectors)."""
    namespace = f"concurrent-{uuid.uuid4().hex[:8]}"
    started = time.monotonic()
    procs = [subprocess.Popen([sys.executable, str(WRITER), str(repo.path), chroma_server.url, namespace,
                               str(PER_PROCESS), f"w{i}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for i in range(PROCESSES)]
    written: list[str] = []
    retries = 0
    for p in procs:
        out, err = p.communicate(timeout=900)
        assert p.returncode == 0, err
        written.extend(out.split())
        retries += err.count("vector index was being built")
    elapsed = time.monotonic() - started
    n = PROCESSES * PER_PROCESS
    assert len(written) == len(set(written)) == n
    ledger = _open(repo, chroma_server.url, namespace)
    assert ledger.store.count() == n
    assert set(ledger.store.all_ids()) == set(written)
    assert {d.id for d in ledger.store.get_decisions(written)} == set(written)
    hits = ledger.store.query(ledger.embedder.embed_query("decision"), 2 * n)
    assert {d.id for d, _ in hits} == set(written)
    assert len(ledger.log()) == n
    assert ledger.store.pending() == []
    print(f"\nconcurrent writers: {n} stored of {n}, {n} found by vector query, in {elapsed:.1f}s "
          f"({retries} queries asked again while the index was being built)")


def test_right_token_works_through_the_proxy(repo, nginx_proxy):
    ledger = _open(repo, nginx_proxy.url, "auth-ok", token=nginx_proxy.token)
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    assert ledger.verify(rec.id).status is Status.VERIFIED
    assert ledger.recall("checksum").items[0].id == rec.id


# "": test_hostile_gate.py; "Bearer x": test_hostile_secrets.py
@pytest.mark.parametrize("token", [None, "wrong-token"])
def test_no_or_wrong_token_is_an_authentication_error(repo, nginx_proxy, token):
    with _failed_open(), pytest.raises(memvet.AuthenticationError, match="refused the credentials") as info:
        _open(repo, nginx_proxy.url, "auth-denied", token=token)
    message = str(info.value)
    assert "missing or wrong bearer token" in message and "--token" in message
    assert ("a wrong token" if token else "no token") in message
    assert isinstance(info.value, PermissionError)


def test_a_token_revoked_mid_session_fails_reads_loudly(repo, nginx_proxy):
    ledger = _open(repo, nginx_proxy.url, "auth-revoked", token=nginx_proxy.token)
    ledger.record("a decision the team relies on")
    try:
        nginx_proxy.set_tokens("another-token")
        for read in (ledger.check, ledger.decisions, lambda: ledger.recall("decision"), ledger.log):
            with pytest.raises(memvet.AuthenticationError):
                read()
        with pytest.raises(memvet.AuthenticationError):
            ledger.record("written without a valid token")
    finally:
        nginx_proxy.restore()
    assert [d.claim for d in ledger.decisions()] == ["a decision the team relies on"]


def test_server_down_mid_session_is_an_error_never_an_empty_memory(repo, doomed_chroma_server):
    ledger = _open(repo, doomed_chroma_server.url, "down")
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    assert [v.id for v in ledger.check()] == [rec.id]
    doomed_chroma_server.stop()
    for read in (ledger.check, ledger.decisions, lambda: ledger.recall("checksum"), ledger.log,
                 lambda: ledger.get(rec.id)):
        with pytest.raises(memvet.StoreUnavailableError, match="unreachable"):
            read()
    with pytest.raises(memvet.StoreUnavailableError):
        ledger.record("written while the server is down")
    with _failed_open(), pytest.raises(memvet.StoreUnavailableError):
        _open(repo, doomed_chroma_server.url, "down")


def test_the_cli_through_the_proxy(repo, nginx_proxy):
    """The CLI as shipped (--server/--token): the right token works, a wrong one is exit 2, one line."""
    env = {**os.environ, "MEMVET_EMBEDDING": "hashing", "MEMVET_NAMESPACE": f"cli-{uuid.uuid4().hex[:8]}"}
    env.pop("MEMVET_TOKEN", None)
    cmd = [sys.executable, "-m", "memvet", "--server", nginx_proxy.url]
    ok = subprocess.run([*cmd, "--token", nginx_proxy.token, "record", "checksum is mod 255", "--symbol",
                         "shop/store.py::checksum"], cwd=repo.path, env=env, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    checked = subprocess.run([*cmd, "--token", nginx_proxy.token, "check"], cwd=repo.path, env=env,
                             capture_output=True, text=True)
    assert checked.returncode == 0 and "verified" in checked.stdout
    for token in (["--token", "wrong"], []):
        denied = subprocess.run([*cmd, *token, "check"], cwd=repo.path, env=env, capture_output=True, text=True)
        assert denied.returncode == 2, (denied.stdout, denied.stderr)
        assert denied.stderr.startswith("memvet: error: ") and denied.stderr.count("\n") == 1
        assert "refused the credentials" in denied.stderr and "Traceback" not in denied.stderr


def test_eight_threads_share_one_server_ledger(repo, chroma_server):
    """The unit tests' mixed workload (tests/_threads.py) on one Ledger over HttpClient."""
    from _threads import OPS, THREADS, assert_nothing_lost, run_workers

    ledger = _open(repo, chroma_server.url, f"threads-{uuid.uuid4().hex[:8]}")
    started = time.monotonic()
    workers = run_workers(ledger, OPS)
    elapsed = time.monotonic() - started
    assert_nothing_lost(ledger, workers)
    print(f"\n{THREADS} threads x {OPS} mixed operations on one server ledger in {elapsed:.1f}s")
