"""The decoded-record cache on a real ``chroma run`` server (issue 31): a
reader that keeps records between recalls (by the content its queries
return) sees every write of other clients at its next read, and never
serves a superseded or rejected decision as current."""

from __future__ import annotations

import gc
import subprocess
import sys
import uuid
import warnings
from pathlib import Path

import pytest

import memvet
from memvet import Status
from memvet._store import GENERATION_ID, _JournalMark

WRITER = Path(__file__).with_name("_writer.py")

_opened: list[memvet.Ledger] = []


@pytest.fixture(autouse=True)
def _close_clients():
    """As in test_server.py: close the HTTP clients a test opened."""
    yield
    while _opened:
        _opened.pop().store.client.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


def _open(repo, url: str, namespace: str) -> memvet.Ledger:
    ledger = memvet.Ledger.open(repo.path, server=url, namespace=namespace, embedding=memvet.HashingEmbedder(),
                                disk_cache=False)
    _opened.append(ledger)
    return ledger


def test_a_warm_reader_sees_another_client_s_reject_and_supersede(repo, chroma_server):
    ns = f"cache-{uuid.uuid4().hex[:10]}"
    reader, writer = _open(repo, chroma_server.url, ns), _open(repo, chroma_server.url, ns)
    assert isinstance(reader.store._mark, _JournalMark)
    price = writer.record("prices are integers in cents").id
    total = writer.record("totals are rounded half even").id
    for _ in range(3):  # warm: records and successor answers kept
        got = {i.id: i.status for i in reader.recall("prices totals", k=2).items}
    assert got == {price: Status.UNANCHORED, total: Status.UNANCHORED}
    assert len(reader.store._contents) == 2
    writer.reject(price, reason="cents overflow on refunds")
    new = writer.supersede(total, "totals are rounded half up", reason="the bank rounds half up").id
    got = {i.id: i.status for i in reader.recall("prices totals rounded", k=3).items}
    assert got == {price: Status.REJECTED, total: Status.SUPERSEDED, new: Status.UNANCHORED}
    assert writer.store.journal.get()["ids"] == [GENERATION_ID]   # no write left in flight


def test_a_half_done_supersede_is_superseded_for_a_warm_reader(repo, chroma_server):
    ns = f"cache-{uuid.uuid4().hex[:10]}"
    reader, writer = _open(repo, chroma_server.url, ns), _open(repo, chroma_server.url, ns)
    old = writer.record("prices are integers in cents").decision
    for _ in range(3):
        assert reader.recall("prices", k=1).items[0].status is Status.UNANCHORED
    succ = old.evolve(id="succ", claim="prices are decimals", supersedes=old.id)
    with writer.store.writing():  # the successor lands; the old record is never updated
        writer.store.add_decision(succ, writer.embedder.embed_query(succ.claim))
    got = {i.id: i.status for i in reader.recall("prices", k=2).items}
    assert got == {old.id: Status.SUPERSEDED, "succ": Status.UNANCHORED}


def test_a_warm_reader_sees_what_a_writer_process_recorded(repo, chroma_server):
    ns = f"cache-{uuid.uuid4().hex[:10]}"
    reader = _open(repo, chroma_server.url, ns)
    reader.record("seed decision about prices")
    for _ in range(2):
        reader.recall("decision", k=3)
    done = subprocess.run([sys.executable, str(WRITER), str(repo.path), chroma_server.url, ns, "3", "proc"],
                          capture_output=True, text=True, timeout=900, check=True)
    written = set(done.stdout.split())
    assert len(written) == 3
    got = {i.id for i in reader.recall("proc decision", k=10).items}
    assert written <= got
