"""The Chroma boundary: every backend error is translated, never an empty result."""

from __future__ import annotations

import inspect
import socket
import uuid

import chromadb.errors
import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import memvet
from memvet import _chroma, _codec
from memvet._chroma import http_client, translate
from memvet._model import ANCHOR_FIELDS, DECISION_FIELDS, Anchor, AnchorKind, Decision, FieldType, Lifecycle, Receipt
from memvet._store import collection_name


def _raise(exc: BaseException):
    with translate("testing"):
        raise exc


@pytest.mark.parametrize(("exc", "expected"), [
    (chromadb.errors.ChromaAuthError("no"), memvet.AuthenticationError),
    (chromadb.errors.AuthorizationError("no"), memvet.AuthenticationError),
    (chromadb.errors.InternalError("boom"), memvet.StoreError),
    (ConnectionRefusedError("down"), memvet.StoreUnavailableError),
    (TimeoutError("slow"), memvet.StoreUnavailableError),
    (httpx.ConnectError("down"), memvet.StoreUnavailableError),
    (ValueError("bad batch"), memvet.StoreError),
    (AttributeError("'RustBindingsAPI' object has no attribute 'bindings'"), memvet.StoreError),
    (KeyError("tenant"), memvet.StoreError),
    (memvet.CorruptRecordError("already ours"), memvet.CorruptRecordError),
])
def test_errors_are_translated(exc, expected):
    with pytest.raises(expected) as info:
        _raise(exc)
    if expected is not memvet.CorruptRecordError:
        assert info.value.__cause__ is exc


@pytest.mark.parametrize(("status", "expected"), [(401, memvet.AuthenticationError),
                                                  (403, memvet.AuthenticationError),
                                                  (500, memvet.StoreError)])
def test_http_status_errors(status, expected):
    request = httpx.Request("GET", "http://127.0.0.1/api")
    response = httpx.Response(status, request=request)
    with pytest.raises(expected):
        _raise(httpx.HTTPStatusError("x", request=request, response=response))


def test_unknown_errors_are_not_swallowed():
    class Strange(Exception):
        pass

    with pytest.raises(Strange):
        _raise(Strange("bug"))


def test_every_chroma_error_class_is_mapped():
    """Fails when a Chroma release adds an error class that escapes translation."""
    classes = [c for _, c in inspect.getmembers(chromadb.errors, inspect.isclass)
               if issubclass(c, chromadb.errors.ChromaError)]
    assert classes
    for cls in classes:
        try:
            exc = cls("x")
        except TypeError:
            exc = cls()
        with pytest.raises(memvet.StoreError):
            _raise(exc)


def test_collection_names():
    assert collection_name("abc123") == "memvet-abc123"
    # Cleaned names carry a hash of the exact namespace: "team a" and "team-a"
    # (or "x.receipts" and x's receipts) never share a collection.
    assert collection_name("team a/ü").startswith("memvet-team-a-")
    assert collection_name("team a") != collection_name("team-a")
    assert collection_name("///").startswith("memvet-")
    with pytest.raises(memvet.UsageError):
        collection_name("  ")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_server_down_is_an_error_not_an_empty_memory(repo):
    with pytest.raises(memvet.StoreUnavailableError, match="unreachable"):
        memvet.Ledger.open(repo.path, server=f"http://127.0.0.1:{_free_port()}",
                           embedding=memvet.HashingEmbedder())


@pytest.mark.parametrize("url", ["ftp://x", "http://", "http://host:notaport"])
def test_bad_server_urls(url):
    with pytest.raises(memvet.UsageError):
        http_client(url)


# ------------------------------------------------------------------ Chroma's index race

#: What chroma 1.5.9's server answered a writer whose neighbour query met the
#: vector index while another writer's records were being indexed.
INDEX_RACE = "Error executing plan: Internal error: Error creating hnsw segment reader: Nothing found on disk"


def _failing_queries(monkeypatch, ledger, failures: int, message: str = INDEX_RACE) -> list[int]:
    """Make the next ``failures`` vector queries fail with ``message``, then
    answer from the real collection; returns the list of calls made."""
    real = ledger.store.decisions.query
    calls: list[int] = []

    def query(**kwargs):
        calls.append(1)
        if len(calls) <= failures:
            raise chromadb.errors.InternalError(message)
        return real(**kwargs)

    monkeypatch.setattr(ledger.store.decisions, "query", query)
    monkeypatch.setattr(_chroma, "INDEX_RACE_PAUSES", (0.001,) * len(_chroma.INDEX_RACE_PAUSES))
    return calls


def test_a_query_that_meets_the_index_being_built_is_asked_again(ledger, monkeypatch, caplog):
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    calls = _failing_queries(monkeypatch, ledger, failures=2)
    with caplog.at_level("INFO", logger="memvet._chroma"):
        assert [item.id for item in ledger.recall("checksum").items] == [rec.id]
    assert len(calls) == 3
    assert "vector index was being built" in caplog.text
    # A write's neighbour query is a read too: the write goes through.
    monkeypatch.undo()
    calls = _failing_queries(monkeypatch, ledger, failures=1)
    assert ledger.record("prices are integers in cents").outcome == "recorded"
    assert len(calls) == 2


def test_an_index_that_never_comes_up_is_an_error_not_an_empty_memory(ledger, monkeypatch):
    ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    calls = _failing_queries(monkeypatch, ledger, failures=1000)
    with pytest.raises(memvet.StoreError, match="hnsw segment reader"):
        ledger.recall("checksum")
    assert len(calls) == len(_chroma.INDEX_RACE_PAUSES) + 1


def test_other_internal_errors_are_not_asked_again(ledger, monkeypatch):
    calls = _failing_queries(monkeypatch, ledger, failures=1000, message="Error executing plan: disk full")
    with pytest.raises(memvet.StoreError, match="disk full"):
        ledger.recall("checksum")
    assert len(calls) == 1


# ------------------------------------------------------------------ codec

texts = st.text(min_size=1, max_size=40)

#: A strategy per field type; the strategies below cover every field the
#: tables in ``memvet._model`` declare, so a new field is generated the day
#: it is declared.
_BY_TYPE = {
    FieldType.ID: st.text(alphabet="0123456789abcdef", min_size=12, max_size=12),
    FieldType.CLAIM: texts,
    FieldType.LIFECYCLE: st.sampled_from(list(Lifecycle)),
    FieldType.KIND: st.sampled_from(list(AnchorKind)),
    FieldType.TEXT: st.text(max_size=30),
    FieldType.REF: st.text(max_size=12),
    FieldType.REAL: st.floats(0, 2e9),
    FieldType.WHOLE: st.integers(0, 10_000),
    FieldType.TEXTS: st.lists(st.text(min_size=1, max_size=10), max_size=3).map(tuple),
}
anchors = st.builds(Anchor, **{f.name: _BY_TYPE[f.type] for f in ANCHOR_FIELDS})
decisions = st.builds(Decision, **{f.name: (st.lists(anchors, max_size=3).map(tuple)
                                            if f.type is FieldType.ANCHORS else _BY_TYPE[f.type])
                                   for f in DECISION_FIELDS})


@settings(max_examples=60, deadline=None)
@given(decisions)
def test_codec_round_trip(decision):
    meta = _codec.decision_metadata(decision)
    assert all(v is not None and v != [] for v in meta.values())
    assert _codec.decision_from_record(decision.id, decision.claim, meta) == decision


@settings(max_examples=15, deadline=None)
@given(decisions)
def test_codec_round_trip_through_chroma(decision):
    import chromadb
    from chromadb.config import Settings

    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    col = client.get_or_create_collection("codec-roundtrip", embedding_function=None)
    col.delete(ids=[decision.id])
    col.add(ids=[decision.id], documents=[decision.claim], embeddings=[[1.0, 0.0]],
            metadatas=[_codec.decision_metadata(decision)])
    got = col.get(ids=[decision.id], include=["documents", "metadatas"])
    back = _codec.decision_from_record(got["ids"][0], got["documents"][0], got["metadatas"][0])
    # Chroma keeps floats to about 1e-7 relative precision: times compare approximately.
    times = tuple(f.name for f in DECISION_FIELDS if f.type is FieldType.REAL)
    assert back.evolve(**dict.fromkeys(times, 0.0)) == decision.evolve(**dict.fromkeys(times, 0.0))
    for t in times:
        assert getattr(back, t) == pytest.approx(getattr(decision, t), rel=1e-9, abs=1e-6)


def test_lifecycle_update_clears_emptied_keys():
    d = Decision(id="a" * 12, claim="c", tags=("x",), reason="r")
    meta = _codec.lifecycle_update(d.evolve(tags=(), reason=""))
    assert meta["tags"] is None and meta["reason"] is None


@pytest.mark.parametrize("meta", [None, {}, {"schema": 99, "lifecycle": "active"},
                                  {"schema": 1, "lifecycle": "active", "anchors": "not json"},
                                  {"schema": 1}])
def test_corrupt_decisions_raise(meta):
    with pytest.raises(memvet.CorruptRecordError):
        _codec.decision_from_record("x", "claim", meta)


def test_receipt_round_trip_and_corruption():
    r = Receipt(id="r-1", decision_id="d", action="reject", from_lifecycle="active", to_lifecycle="rejected",
                reason="why", author="me", at=12.5, commit="abc", related="")
    assert _codec.receipt_from_record("r-1", _codec.receipt_metadata(r)) == r
    with pytest.raises(memvet.CorruptRecordError):
        _codec.receipt_from_record("r-1", None)
    with pytest.raises(memvet.CorruptRecordError):
        _codec.receipt_from_record("r-1", {"schema": 1})


@settings(max_examples=40, deadline=None)
@given(decisions, st.lists(decisions, max_size=2), st.lists(st.floats(-1, 1), min_size=1, max_size=8))
def test_journal_intent_round_trip(added, updated, embedding):
    """The journal (crash safety) stores whole decisions: the same codec, round-tripped."""
    from memvet._store import Intent

    receipt = Receipt(id="r-1", decision_id=added.id, action="supersede", from_lifecycle="active",
                      to_lifecycle="superseded", reason="why", author="me", at=12.5, commit="abc")
    intent = Intent("supersede", add=(added, tuple(embedding)), updates=tuple(updated), receipts=(receipt,))
    back = Intent.from_json(intent.id, intent.to_json())
    assert back == intent


@pytest.mark.parametrize("text", [None, "", "{", '{"act": "x", "add": {"id": "a"}}', '{"updates": 3}'])
def test_corrupt_journal_entries_raise(text):
    from memvet._store import Intent

    with pytest.raises(memvet.CorruptRecordError, match="journal entry i-1"):
        Intent.from_json("i-1", text)


# ------------------------------------------------------------------ the one chromadb module


def test_chromas_private_system_registry_is_where_memvet_expects_it(tmp_path):
    """Reloading a ledger another process wrote rests on chromadb's private
    SharedSystemClient maps; this fails first when an upgrade moves them."""
    from chromadb.api.shared_system_client import SharedSystemClient

    folder = tmp_path / "chroma"
    assert not _chroma.has_cached_system(folder)
    client = _chroma.persistent_client(folder)
    assert _chroma.has_cached_system(folder)
    systems, counts = _chroma._system_registry()
    assert systems is SharedSystemClient._identifier_to_system
    assert counts is SharedSystemClient._identifier_to_refcount
    old_system = systems[str(folder)]
    fresh = _chroma.reopen_persistent(client)
    assert systems[str(folder)] is not old_system  # a new system, read from disk
    assert fresh.heartbeat() > 0 and _chroma.is_persistent(fresh)


def test_settings_are_built_once_and_every_caller_gets_its_own_copy(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setattr(_chroma, "_SETTINGS", {})
    first = _chroma.settings()
    first.persist_directory = "/somewhere/else"  # as PersistentClient does to the settings it gets
    second = _chroma.settings()
    assert second is not first and second.persist_directory != "/somewhere/else"
    assert not second.anonymized_telemetry
    assert len(_chroma._SETTINGS) == 1  # the second came from the first build
    client = _chroma.persistent_client(tmp_path / "chroma")
    assert client.get_settings().persist_directory == str(tmp_path / "chroma")
    assert _chroma.settings().persist_directory != str(tmp_path / "chroma")


def test_settings_follow_the_environment_and_the_dotenv_file(tmp_path, monkeypatch):
    """Chroma reads its settings from the environment and from ./.env: a
    change to either is seen by the next client, as it was before the cache."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHROMA_SERVER_HOST", raising=False)
    before = _chroma.settings().chroma_server_host
    monkeypatch.setenv("CHROMA_SERVER_HOST", "from-the-environment")
    assert _chroma.settings().chroma_server_host == "from-the-environment"
    monkeypatch.delenv("CHROMA_SERVER_HOST")
    assert _chroma.settings().chroma_server_host == before
    (tmp_path / ".env").write_text("CHROMA_SERVER_HOST=from-dotenv\n", encoding="utf-8")
    assert _chroma.settings().chroma_server_host == "from-dotenv"
    (tmp_path / ".env").write_text("CHROMA_SERVER_HOST=edited-dotenv\n", encoding="utf-8")
    assert _chroma.settings().chroma_server_host == "edited-dotenv"
    (tmp_path / ".env").unlink()
    assert _chroma.settings().chroma_server_host == before


def test_settings_keep_only_the_latest_environments(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_chroma, "_SETTINGS", {})
    monkeypatch.setattr(_chroma, "_SETTINGS_KEPT", 2)
    for n in range(3):
        monkeypatch.setenv("CHROMA_SERVER_HOST", f"host-{n}")
        assert _chroma.settings().chroma_server_host == f"host-{n}"
    assert len(_chroma._SETTINGS) == 1  # cleared at the third, then the third kept


def test_settings_are_not_built_again_for_variables_chroma_does_not_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_chroma, "_SETTINGS", {})
    monkeypatch.setenv("MEMVET_LEDGER", str(tmp_path / "one"))
    _chroma.settings()
    monkeypatch.setenv("MEMVET_LEDGER", str(tmp_path / "two"))
    monkeypatch.setenv("chroma_server_host", "lower-case")  # Chroma reads its variables in any case
    assert _chroma.settings().chroma_server_host == "lower-case"
    assert len(_chroma._SETTINGS) == 2  # the host made a second; the ledger variable did not


def test_a_chroma_without_that_registry_fails_loudly(monkeypatch, tmp_path):
    from chromadb.api.shared_system_client import SharedSystemClient

    monkeypatch.delattr(SharedSystemClient, "_identifier_to_refcount")
    with pytest.raises(memvet.StoreError, match=r"no longer keeps SharedSystemClient\._identifier_to_system"):
        _chroma.has_cached_system(tmp_path)


def test_read_only_folders_are_named_and_other_failures_left_alone(tmp_path):
    try:
        raise OSError("attempt to write a readonly database")
    except OSError as cause:
        try:
            raise memvet.StoreError("the ledger store failed while opening the local ledger") from cause
        except memvet.StoreError as exc:
            clearer = _chroma.read_only_error(exc, tmp_path)
    assert clearer is not None and f"the ledger folder {tmp_path} is read-only" in str(clearer)
    assert _chroma.read_only_error(memvet.StoreError("disk full"), tmp_path) is None


def test_a_codec_bug_is_not_reported_as_a_store_failure(ledger, monkeypatch):
    """translate wraps the backend call only: our own encoding failing is our bug, raised as is."""
    def broken(_decision):
        raise TypeError("a bug in the codec")

    monkeypatch.setattr(_codec, "decision_metadata", broken)
    with pytest.raises(TypeError, match="a bug in the codec") as info:
        ledger.record("prices are integers in cents")
    assert not isinstance(info.value, memvet.StoreError)


def test_a_corrupt_receipt_is_skipped_with_a_warning_never_an_error(ledger, caplog):
    rec = ledger.record("prices are integers in cents")
    ledger.store.receipts.add(ids=["r-bad"], documents=["x"], embeddings=[[1.0]],
                              metadatas=[{"schema": 1, "kind": "receipt"}])
    with caplog.at_level("WARNING", logger="memvet._store"):
        assert [r.decision_id for r in ledger.log()] == [rec.decision.id]
    assert "skipping a corrupt record while reading receipts: receipt r-bad" in caplog.text


# ------------------------------------------------------------------ decoded records of a local ledger

def _local_pair(repo, tmp_path):
    ns = f"t{uuid.uuid4().hex[:12]}"
    home = tmp_path / "ledger"
    return [memvet.Ledger.open(repo.path, path=home, embedding=memvet.HashingEmbedder(), namespace=ns)
            for _ in range(2)]


def test_a_local_ledger_query_serves_records_decoded_under_the_current_generation(repo, tmp_path, caplog):
    """A local query reads its records with it once per generation token;
    then it asks Chroma for ids and distances, takes the records it decoded
    and reads only the others. A write by another ledger object (another
    process) makes it read them again; a corrupt one is skipped either way."""
    one, two = _local_pair(repo, tmp_path)
    good, other, bad = (one.record(claim).decision for claim in (
        "prices are integers in cents", "totals are rounded half even", "taxes are per line"))
    vec = one.embedder.embed_query("prices totals taxes")
    assert len(one.store.query(vec, 1)) == 1                                   # decodes one
    assert {d.id for d, _ in one.store.query(vec, 5)} == {good.id, other.id, bad.id}   # reads two more
    # Spoil one stored record behind the ledger's back (no write, no new token).
    one.store.decisions.update(ids=[bad.id], metadatas=[{"lifecycle": "nonsense"}])
    assert {d.id for d, _ in one.store.query(vec, 5)} == {good.id, other.id, bad.id}   # decoded before: served
    two.reject(good.id, reason="cents overflow on refunds")                  # another writer
    expected = {(good.id, Lifecycle.REJECTED), (other.id, Lifecycle.ACTIVE)}
    warning = f"skipping a corrupt record while querying the ledger: decision {bad.id}"
    for _ in range(2):  # read with the query, then by the `get` of records not decoded
        caplog.clear()
        with caplog.at_level("WARNING", logger="memvet._store"):
            assert {(d.id, d.lifecycle) for d, _ in one.store.query(vec, 5)} == expected
        assert warning in caplog.text


def test_a_write_is_seen_by_the_next_query_of_the_same_act(repo, tmp_path):
    one, _ = _local_pair(repo, tmp_path)
    rec = one.record("prices are integers in cents").decision
    vec = one.embedder.embed_query("prices")
    with one.store.writing():
        assert one.store.query(vec, 1)[0][0].lifecycle is Lifecycle.ACTIVE
        one.store.replace_decision(rec.evolve(lifecycle=Lifecycle.REJECTED, reason="overflow"))
        assert one.store.query(vec, 1)[0][0].lifecycle is Lifecycle.REJECTED
    assert one.recall("prices", k=1).items[0].status is memvet.Status.REJECTED


def test_an_own_write_drops_only_the_records_it_wrote(repo, tmp_path, caplog):
    """The ledger holds the write lock through its own act, so no other
    process wrote meanwhile: the records it did not write stay decoded
    across it, the one it wrote is read afresh (the first query after the
    write reads its hits with it, the later ones only ids). A write by
    another ledger object still makes it read everything again."""
    one, two = _local_pair(repo, tmp_path)
    good, other, bad = (one.record(claim).decision for claim in (
        "prices are integers in cents", "totals are rounded half even", "taxes are per line"))
    vec = one.embedder.embed_query("prices totals taxes")
    assert {d.id for d, _ in one.store.query(vec, 5)} == {good.id, other.id, bad.id}   # all decoded
    # Spoil one stored record behind the ledger's back (no write, no new token).
    one.store.decisions.update(ids=[bad.id], metadatas=[{"lifecycle": "nonsense"}])
    generation = one.store.lock.generation()
    one.reject(good.id, reason="cents overflow on refunds")                  # its own write
    assert one.store.lock.generation() != generation                         # other processes hear of it
    # The first query after it reads its hits with it (what was written is likely one).
    assert [(d.id, d.lifecycle) for d, _ in one.store.query(one.embedder.embed_query(good.claim), 1)] == [
        (good.id, Lifecycle.REJECTED)]
    with caplog.at_level("WARNING", logger="memvet._store"):
        got = {d.id: d.lifecycle for d, _ in one.store.query(vec, 5)}
    assert got == {good.id: Lifecycle.REJECTED, other.id: Lifecycle.ACTIVE, bad.id: Lifecycle.ACTIVE}
    assert "corrupt" not in caplog.text                                      # bad: still the decoded one
    assert {i.id: i.status for i in one.recall("prices", k=3).items}[good.id] is memvet.Status.REJECTED
    two.reject(other.id, reason="banks round half up")                       # another writer
    with caplog.at_level("WARNING", logger="memvet._store"):
        got = {d.id: d.lifecycle for d, _ in one.store.query(vec, 5)}
    assert got == {good.id: Lifecycle.REJECTED, other.id: Lifecycle.REJECTED}
    assert f"skipping a corrupt record while querying the ledger: decision {bad.id}" in caplog.text


def test_an_own_write_drops_the_successor_answers_it_changes(repo, tmp_path):
    """Successor answers also live across the ledger's own writes, less those
    a write may change: a new successor of a decision asked about, a
    successor unlinked, and one whose lifecycle changed. (The store is
    written directly, as a crashed supersede leaves it: the successor
    lands, the old record stays active.)"""
    one, two = _local_pair(repo, tmp_path)
    old, other = (one.record(claim).decision for claim in ("prices are integers in cents",
                                                              "totals are rounded half even"))
    store = one.store
    assert store.successors_of([old.id]) == {} and store.successors_of([other.id]) == {}
    # A successor of `other` behind the ledger's back (no write, no new token): not seen.
    sneaked = other.evolve(id="sneaked", claim="totals are rounded half up", supersedes=other.id)
    store.decisions.add(ids=[sneaked.id], documents=[sneaked.claim], embeddings=[one.embedder.embed_query("x")],
                        metadatas=[_codec.decision_metadata(sneaked)])
    succ = old.evolve(id="succ", claim="prices are decimals in cents", supersedes=old.id)
    with store.writing():
        store.add_decision(succ, one.embedder.embed_query(succ.claim))
    assert {k: d.id for k, d in store.successors_of([old.id]).items()} == {old.id: "succ"}  # a new successor
    assert store.successors_of([other.id]) == {}                             # kept across the write
    with store.writing():  # unlinked: only the answer holding it tells
        store.replace_decision(succ.evolve(supersedes=""))
    assert store.successors_of([old.id]) == {}
    with store.writing():
        store.replace_decision(succ)
    assert {k: d.id for k, d in store.successors_of([old.id]).items()} == {old.id: "succ"}
    with store.writing():
        store.replace_decision(succ.evolve(lifecycle=Lifecycle.REJECTED, reason="sub-cent taxes"))
    assert store.successors_of([old.id]) == {}                               # the successor went
    assert store.successors_of([other.id]) == {}
    assert {k: d.id for k, d in two.store.successors_of([other.id]).items()} == {other.id: "sneaked"}


def test_an_in_process_ledger_keeps_its_records_until_a_ledger_writes(open_ledger):
    """The ledgers of an in-process (ephemeral) client share a change marker
    (see tests/unit/test_record_cache.py): records stay decoded until any
    ledger of the namespace writes, as in a local ledger; a change made
    behind every ledger's back (no MemVet write) is not seen until then."""
    ledger = open_ledger()
    other = open_ledger(namespace=ledger.namespace)
    rec = ledger.record("prices are integers in cents").decision
    vec = ledger.embedder.embed_query("prices")
    assert ledger.store.query(vec, 1)[0][0].claim == rec.claim
    ledger.store.decisions.update(ids=[rec.id], documents=["prices are floats"], embeddings=[vec])
    assert ledger.store.query(vec, 1)[0][0].claim == rec.claim
    other.reject(rec.id, reason="cents overflow on refunds")
    assert [(d.claim, d.lifecycle) for d, _ in ledger.store.query(vec, 1)] == [
        ("prices are floats", Lifecycle.REJECTED)]
