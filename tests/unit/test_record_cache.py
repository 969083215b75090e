"""The decoded-record cache of ledgers without a write lock (issue 31), and
the Chroma systems a reloading reader leaves behind.

An in-process (ephemeral) client's ledgers share a process-wide change
marker (``_ProcessMark``); a server's ledgers share one kept in their
journal (``_JournalMark``), tested here on an ephemeral client with that
marker put in place (the real server: tests/integration/test_server_cache.py).
"""

from __future__ import annotations

import gc
import logging
import uuid
from typing import Any

import chromadb
import pytest

import memvet
from memvet import _chroma, _codec, _store
from memvet._model import Lifecycle
from memvet._store import GENERATION_ID, ChromaStore, _JournalMark, _ProcessMark


class Spy:
    """A decisions collection that records what each ``query`` asked to
    include and each ``get`` filtered on, and otherwise is the collection."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.includes: list[list[str]] = []
        self.wheres: list[Any] = []

    def query(self, **kwargs: Any) -> Any:
        self.includes.append(list(kwargs.get("include") or []))
        return self._inner.query(**kwargs)

    def get(self, **kwargs: Any) -> Any:
        if kwargs.get("where") is not None:
            self.wheres.append(kwargs["where"])
        return self._inner.get(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _as_server(ledger: memvet.Ledger) -> memvet.Ledger:
    """The ledger with a server's change marker (in its journal)."""
    ledger.store._mark = _JournalMark(ledger.store.journal)
    return ledger


# ------------------------------------------------------------------ in process


def test_an_ephemeral_ledger_s_warm_recall_reads_ids_and_distances_only(open_ledger):
    ledger = open_ledger()
    assert isinstance(ledger.store._mark, _ProcessMark)
    ledger.record("prices are integers in cents")
    ledger.record("totals are rounded half even")
    spy = ledger.store.decisions = Spy(ledger.store.decisions)
    first = ledger.recall("prices", k=2)
    spy.includes.clear()
    spy.wheres.clear()
    again = ledger.recall("prices", k=2)
    assert [(i.id, i.status) for i in again.items] == [(i.id, i.status) for i in first.items]
    assert spy.includes == [["distances"]]     # records decoded before, successors known
    assert spy.wheres == []


def test_another_ledger_s_reject_and_supersede_are_seen_by_a_warm_reader(open_ledger):
    reader = open_ledger()
    writer = open_ledger(namespace=reader.namespace)
    price = reader.record("prices are integers in cents").id
    total = reader.record("totals are rounded half even").id
    assert {i.id: i.status for i in reader.recall("prices totals", k=2).items} == {
        price: memvet.Status.UNANCHORED, total: memvet.Status.UNANCHORED}
    writer.reject(price, reason="cents overflow on refunds")
    new = writer.supersede(total, "totals are rounded half up", reason="the bank rounds half up").id
    got = {i.id: i.status for i in reader.recall("prices totals rounded", k=3).items}
    assert got == {price: memvet.Status.REJECTED, total: memvet.Status.SUPERSEDED, new: memvet.Status.UNANCHORED}


def test_a_half_done_supersede_of_another_ledger_supersedes_for_a_warm_reader(open_ledger):
    """The successor lands, the old record stays active (a writer killed
    between the two): the reader's kept answers are not used after it."""
    reader = open_ledger()
    writer = open_ledger(namespace=reader.namespace)
    old = reader.record("prices are integers in cents").decision
    assert reader.recall("prices", k=1).items[0].status is memvet.Status.UNANCHORED
    succ = old.evolve(id="succ", claim="prices are decimals", supersedes=old.id)
    with writer.store.writing():
        writer.store.add_decision(succ, writer.embedder.embed_query(succ.claim))
    got = {i.id: i.status for i in reader.recall("prices", k=2).items}
    assert got == {old.id: memvet.Status.SUPERSEDED, "succ": memvet.Status.UNANCHORED}


def test_nothing_is_used_or_kept_while_a_write_is_under_way(open_ledger):
    reader = open_ledger()
    writer = open_ledger(namespace=reader.namespace)
    rec = reader.record("prices are integers in cents").decision
    vec = reader.embedder.embed_query("prices")
    reader.store.query(vec, 1)
    assert len(reader.store._records) == 1
    with writer.store.writing():
        writer.store.replace_decision(rec.evolve(lifecycle=Lifecycle.REJECTED, reason="overflow"))
        assert reader.store._read_stamp() is None
        assert reader.store.query(vec, 1)[0][0].lifecycle is Lifecycle.REJECTED
        assert len(reader.store._records) == 0
        assert reader.store.successors_of([rec.id]) == {}
        assert len(reader.store._successor_cache) == 0
    assert reader.store.query(vec, 1)[0][0].lifecycle is Lifecycle.REJECTED
    assert len(reader.store._records) == 1


def test_an_own_write_keeps_the_other_records_only_when_no_other_write_ran_meanwhile(open_ledger):
    one = open_ledger()
    two = open_ledger(namespace=one.namespace)
    a, b = (one.record(c).decision for c in ("prices are integers in cents", "totals are rounded half even"))
    vec = one.embedder.embed_query("prices totals")
    one.store.query(vec, 2)
    with one.store.writing():
        one.store.replace_decision(a.evolve(tags=("money",)))
    assert one.store._records_stamp == one.store._read_stamp()   # alone: still valid
    assert one.store._records.get(b.id) is not None and one.store._records.get(a.id) is None
    with one.store.writing():
        one.store.replace_decision(a)
        two.reject(b.id, reason="banks round half up")          # another write meanwhile
    assert one.store._records_stamp != one.store._read_stamp()
    assert {d.id: d.lifecycle for d, _ in one.store.query(vec, 2)}[b.id] is Lifecycle.REJECTED


def test_process_marks_forget_idle_entries_beyond_their_bound(monkeypatch):
    monkeypatch.setattr(_ProcessMark, "_table", {})
    monkeypatch.setattr(_ProcessMark, "KEPT", 4)
    busy = _ProcessMark("busy")
    began = busy.begin()
    for n in range(4):
        assert _ProcessMark(f"idle{n}").read()
    assert "busy" in _ProcessMark._table and len(_ProcessMark._table) <= 4
    assert busy.read() is None
    token, alone = busy.end(began)
    assert alone and busy.read() == token


def test_an_ephemeral_client_is_in_process_and_others_are_not(tmp_path, client):
    assert _chroma.is_in_process(client)
    assert not _chroma.is_in_process(_chroma.persistent_client(tmp_path / "chroma"))
    assert not _chroma.is_in_process(object())   # a fake without settings: read through the client


# ------------------------------------------------------------------ a server's marker


def test_a_server_marker_names_the_last_write_and_says_when_one_is_under_way(open_ledger):
    ledger = _as_server(open_ledger())
    mark = ledger.store._mark
    assert mark.read() == ""                       # no marked write yet
    with ledger.store.writing():
        assert mark.read() is None                 # this write's entry is in flight
        assert ledger.store.pending() == []        # markers are not acts
    first = mark.read()
    assert first
    ledger.record("prices are integers in cents")
    assert mark.read() not in ("", None, first)
    assert ledger.store.journal.get()["ids"] == [GENERATION_ID]


class _Decodes:
    """Counts the records a store decodes (a server reader decodes only
    records whose content changed)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ids: list[str] = []
        real = _codec.decision_from_record

        def counted(record_id: str, document: Any, meta: Any) -> Any:
            self.ids.append(record_id)
            return real(record_id, document, meta)

        monkeypatch.setattr(_codec, "decision_from_record", counted)


def test_a_server_reader_s_warm_query_is_one_request_and_decodes_nothing(open_ledger, monkeypatch):
    ledger = _as_server(open_ledger())
    ledger.record("prices are integers in cents")
    ledger.record("totals are rounded half even")
    first = ledger.recall("prices", k=2)                  # decoded, successors asked
    spy = ledger.store.decisions = Spy(ledger.store.decisions)
    decodes = _Decodes(monkeypatch)
    journal = _counted(ledger)
    again = ledger.recall("prices", k=2)
    assert [(i.id, i.status) for i in again.items] == [(i.id, i.status) for i in first.items]
    assert spy.includes == [["documents", "metadatas", "distances"]]   # the query, as a plain one
    assert spy.wheres == [] and decodes.ids == [] and journal.reads == 0


def test_a_server_reader_s_warm_query_follows_other_writers(open_ledger, monkeypatch):
    reader = _as_server(open_ledger())
    writer = _as_server(open_ledger(namespace=reader.namespace))
    a = reader.record("prices are integers in cents").decision
    reader.recall("prices", k=1)
    spy = reader.store.decisions = Spy(reader.store.decisions)
    decodes = _Decodes(monkeypatch)
    assert reader.recall("prices", k=1).items[0].status is memvet.Status.UNANCHORED
    assert decodes.ids == [] and spy.wheres == []
    writer.reject(a.id, reason="cents overflow on refunds")
    decodes.ids.clear()                            # the writer's own reads
    assert reader.recall("prices", k=1).items[0].status is memvet.Status.REJECTED   # its content changed
    assert decodes.ids == [a.id]
    b = writer.record("prices are integers in cents, taxes in mills").decision
    spy.wheres.clear()
    got = {i.id: i.status for i in reader.recall("prices", k=2).items}
    assert got == {a.id: memvet.Status.REJECTED, b.id: memvet.Status.UNANCHORED}
    assert spy.wheres                              # a hit not read before: successors asked


def test_a_server_reader_sees_another_s_supersede_at_its_next_read(open_ledger):
    reader = _as_server(open_ledger())
    writer = _as_server(open_ledger(namespace=reader.namespace))
    total = reader.record("totals are rounded half even").id
    for _ in range(2):
        assert reader.recall("totals", k=1).items[0].status is memvet.Status.UNANCHORED
    new = writer.supersede(total, "totals are rounded half up", reason="the bank rounds half up").id
    got = {i.id: i.status for i in reader.recall("totals rounded", k=2).items}
    assert got == {total: memvet.Status.SUPERSEDED, new: memvet.Status.UNANCHORED}
    assert writer.store.decisions.get(ids=[total])["metadatas"][0][_store.SUCCESSOR_WRITE]   # closed: a token
    assert not reader.store._contents.get(total).open


def test_a_successor_that_lands_before_its_old_record_changes_supersedes_for_a_warm_reader(open_ledger):
    """A writer killed between a supersede's two writes: the successor is
    stored, the old record still says active. The writer flagged the old
    record before the successor's write, so the reader's kept answer
    about it is not used, and while the flag is open none is kept."""
    reader = _as_server(open_ledger())
    writer = _as_server(open_ledger(namespace=reader.namespace))
    old = reader.record("prices are integers in cents").decision
    for _ in range(2):
        assert reader.recall("prices", k=1).items[0].status is memvet.Status.UNANCHORED

    def killed(name: str) -> None:
        if name == "added":
            raise memvet.StoreUnavailableError("killed between the two writes")

    writer.store._step = killed  # type: ignore[method-assign]
    writer.store._clear_flags = lambda: None  # type: ignore[method-assign]   # killed: nothing after
    with pytest.raises(memvet.StoreUnavailableError):
        writer.supersede(old.id, "prices are decimals", reason="refunds need cents and mills")
    spy = reader.store.decisions = Spy(reader.store.decisions)
    for _ in range(2):
        got = {i.claim: i.status for i in reader.recall("prices", k=2).items}
        assert got == {old.claim: memvet.Status.SUPERSEDED, "prices are decimals": memvet.Status.UNANCHORED}
    assert len(spy.wheres) == 2                    # open: asked at every read, kept never
    finisher = _as_server(open_ledger(namespace=reader.namespace))
    with finisher.store.writing():
        assert finisher.store.replay(older_than=-1.0) == 1   # as if the grace had passed
    spy.wheres.clear()
    for _ in range(2):
        got = {i.claim: i.status for i in reader.recall("prices", k=2).items}
        assert got == {old.claim: memvet.Status.SUPERSEDED, "prices are decimals": memvet.Status.UNANCHORED}
    assert not reader.store._contents.get(old.id).open


def test_a_successor_flag_that_cannot_be_cleared_leaves_readers_asking(open_ledger, caplog):
    reader = _as_server(open_ledger())
    writer = _as_server(open_ledger(namespace=reader.namespace))
    old = reader.record("prices are integers in cents").decision
    decisions = writer.store.decisions

    class Refusing(Spy):
        def update(self, **kwargs: Any) -> Any:
            if str(kwargs["metadatas"][0].get(_store.SUCCESSOR_WRITE, "open:")).startswith("open:"):
                return self._inner.update(**kwargs)
            raise ConnectionError("the server went away")

    writer.store.decisions = Refusing(decisions)
    with caplog.at_level(logging.WARNING, logger="memvet._store"):
        succ = old.evolve(id="succ", claim="prices are decimals", supersedes=old.id)
        with writer.store.writing():
            writer.store.add_decision(succ, writer.embedder.embed_query(succ.claim))
    assert "could not clear the successor flags of " + old.id in caplog.text
    spy = reader.store.decisions = Spy(reader.store.decisions)
    for _ in range(2):
        got = {i.id: i.status for i in reader.recall("prices", k=2).items}
        assert got == {old.id: memvet.Status.SUPERSEDED, "succ": memvet.Status.UNANCHORED}
    assert len(spy.wheres) == 2


def test_a_server_reader_reads_what_is_stored_while_another_writes(open_ledger):
    reader = _as_server(open_ledger())
    writer = _as_server(open_ledger(namespace=reader.namespace))
    a = reader.record("prices are integers in cents").decision
    vec = reader.embedder.embed_query("prices")
    reader.store.query(vec, 1)
    with writer.store.writing():
        writer.store.replace_decision(a.evolve(lifecycle=Lifecycle.REJECTED, reason="overflow"))
        assert [d.lifecycle for d, _ in reader.store.query(vec, 1)] == [Lifecycle.REJECTED]
    assert [d.lifecycle for d, _ in reader.store.query(vec, 1)] == [Lifecycle.REJECTED]


def test_a_corrupt_hit_of_a_server_query_is_skipped_with_a_warning(open_ledger, caplog):
    ledger = _as_server(open_ledger())
    bad = ledger.record("prices are integers in cents").decision
    ledger.store.decisions.update(ids=[bad.id], metadatas=[{"schema": 99}])
    with caplog.at_level(logging.WARNING, logger="memvet._store"):
        assert ledger.store.query(ledger.embedder.embed_query("prices"), 1) == []
    assert "skipping a corrupt record" in caplog.text


def test_a_server_writer_killed_mid_write_stops_caching_until_a_later_write_clears_it(open_ledger, caplog):
    reader = _as_server(open_ledger())
    crashed = _as_server(open_ledger(namespace=reader.namespace))
    crashed.store._mark.begin()                    # its write never ends
    assert reader.store._mark.read() is None
    reader.record("prices are integers in cents")   # younger than the grace: left alone
    assert reader.store._mark.read() is None
    with caplog.at_level(logging.WARNING, logger="memvet._store"), reader.store.writing():
        reader.store.replay(older_than=-1.0)   # as if the grace had passed
    assert "write marker(s) left by writers that stopped mid-write" in caplog.text
    assert reader.store._mark.read()


class _Refusing:
    """A journal whose ``upsert`` fails as an unreachable server's would."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def upsert(self, **kwargs: Any) -> Any:
        raise ConnectionError("the server went away")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def test_a_server_marker_that_cannot_be_cleared_leaves_readers_reading_everything(open_ledger, caplog):
    ledger = _as_server(open_ledger())
    journal = ledger.store.journal
    ledger.store._mark = _JournalMark(_Refusing(journal))
    with caplog.at_level(logging.WARNING, logger="memvet._store"), ledger.store.writing():
        pass
    assert "could not clear this write's marker" in caplog.text
    assert _JournalMark(journal).read() is None


def test_a_failed_server_query_is_the_query_s_error(open_ledger):
    ledger = _as_server(open_ledger())
    ledger.record("prices are integers in cents")
    vec = ledger.embedder.embed_query("prices")
    ledger.store.query(vec, 1)

    class Failing(Spy):
        def query(self, **kwargs: Any) -> Any:
            raise ConnectionError("the server went away")

    ledger.store.decisions = Failing(ledger.store.decisions)
    with pytest.raises(memvet.StoreUnavailableError):
        ledger.store.query(vec, 1)


class _CountingJournal:
    """A journal that counts its ``get`` calls (reads of the marker)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.reads = 0

    def get(self, **kwargs: Any) -> Any:
        self.reads += 1
        return self._inner.get(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _counted(ledger: memvet.Ledger) -> _CountingJournal:
    journal = _CountingJournal(ledger.store.journal)
    ledger.store._mark = _JournalMark(journal)
    return journal


# ------------------------------------------------------------------ systems a reload leaves


class Holder:
    """Stands for a store (weakly referenced by the registry)."""


def test_reloads_stop_the_systems_memvet_built_once_nothing_holds_them(tmp_path):
    first = _chroma.persistent_client(tmp_path / "chroma")
    h1, h2 = Holder(), Holder()
    _chroma.hold_system(first, h1)
    _chroma.hold_system(first, h2)
    one = _chroma.reopen_persistent(first, h1)
    two = _chroma.reopen_persistent(one, h2)
    assert hasattr(first._server, "bindings")      # the first system is never stopped by MemVet
    assert hasattr(one._server, "bindings")        # h1 still works with it
    three = _chroma.reopen_persistent(one, h1)
    assert not hasattr(one._server, "bindings")    # nothing holds it any more: stopped
    assert hasattr(two._server, "bindings") and three.heartbeat() > 0
    del h2
    gc.collect()
    _chroma.reopen_persistent(three, h1)
    assert not hasattr(two._server, "bindings")    # its holder is gone


def test_a_system_that_fails_to_stop_is_dropped_with_a_warning(monkeypatch, caplog):
    class Stubborn:
        def stop(self) -> None:
            raise RuntimeError("already half stopped")

    monkeypatch.setattr(_chroma, "_REOPENED", {1: Stubborn()})
    with caplog.at_level(logging.WARNING, logger="memvet._chroma"), _chroma.CLIENT_LOCK:
        _chroma._stop_unheld({})
    assert "could not stop a reloaded Chroma system" in caplog.text and _chroma._REOPENED == {}


def test_a_reader_reloading_after_every_write_keeps_few_systems(repo, tmp_path):
    ns = f"t{uuid.uuid4().hex[:12]}"
    reader, writer = (memvet.Ledger.open(repo.path, path=tmp_path / "ledger", namespace=ns, disk_cache=False,
                                         embedding=memvet.HashingEmbedder()) for _ in range(2))
    for n in range(6):
        writer.record(f"decision {n} about prices in cents")
        assert len(reader.recall("prices", k=3).items) == min(3, n + 1)
    folder = str(tmp_path / "ledger" / "chroma")
    kept = [s for s in _chroma._REOPENED.values() if s.settings.persist_directory == folder]
    assert len(kept) <= 2                          # the reader's, and the folder's current one


def test_a_store_on_a_caller_s_client_of_another_kind_gets_a_server_marker(client):
    """Any client that is neither local nor in process (a server's) gets
    the journal's marker."""

    class Remote:
        def __init__(self, inner: chromadb.api.ClientAPI) -> None:
            self._inner = inner

        def get_settings(self) -> Any:
            raise RuntimeError("not asked of a fake")

        def __getattr__(self, name: str) -> Any:
            return getattr(self._inner, name)

    store = ChromaStore(Remote(client), f"t{uuid.uuid4().hex[:12]}")
    assert isinstance(store._mark, _JournalMark)


def test_a_reload_that_stopped_a_system_trims_the_native_heap(tmp_path, monkeypatch):
    trims: list[int] = []
    monkeypatch.setattr(_chroma, "_MALLOC_TRIM", trims.append)
    holder = Holder()
    first = _chroma.persistent_client(tmp_path / "chroma")
    one = _chroma.reopen_persistent(first, holder)
    assert trims == []                             # nothing stopped yet
    _chroma.reopen_persistent(one, holder)
    assert trims == [0]


def test_without_glibc_there_is_nothing_to_trim(monkeypatch):
    import ctypes

    def no_libc(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no such library")

    monkeypatch.setattr(ctypes, "CDLL", no_libc)
    monkeypatch.setattr(_chroma, "_MALLOC_TRIM", None)
    _chroma._trim_native_heap()
    assert _chroma._MALLOC_TRIM is False
    _chroma._trim_native_heap()                    # and it is not looked up again
