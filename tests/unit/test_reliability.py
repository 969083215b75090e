"""Reliability of the local ledger: one writer at a time, fresh reads across
processes, and lifecycle acts that survive a kill between their writes.

Real processes, real files: the killed writer is this module run as a script
(see the bottom), with a test-only ChromaStore that calls ``os._exit`` at one
point between the writes of an act.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import memvet
from memvet import Lifecycle, Status
from memvet._lock import LocalLock
from memvet._store import ChromaStore

KILLED = 86
HERE = Path(__file__).resolve()
NS = "reliability"


def _worker(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(HERE), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, **(env or {})})


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.communicate()


def _local(repo, home: Path, **kw) -> memvet.Ledger:
    return memvet.Ledger.open(repo.path, path=home, namespace=NS, embedding=memvet.HashingEmbedder(),
                              disk_cache=False, **kw)


# ------------------------------------------------------------------ the write lock


@pytest.fixture
def holder(tmp_path):
    """Another process holding the write lock of tmp_path/ledger."""
    home = tmp_path / "ledger"
    home.mkdir()
    proc = _worker("hold", str(home), "60")
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    yield home, proc
    _stop(proc)


def test_second_writer_waits_then_names_the_holder(repo, holder):
    home, proc = holder
    ledger = _local(repo, home, lock_timeout=0.5)
    started = time.monotonic()
    with pytest.raises(memvet.LedgerLockedError) as info:
        ledger.record("totals are Decimal")
    waited = time.monotonic() - started
    message = str(info.value)
    assert 0.4 <= waited < 10
    assert f"pid {proc.pid}" in message and "hold" in message
    assert "--server" in message and "waited 0.5s" in message
    assert isinstance(info.value, TimeoutError)
    with pytest.raises(memvet.LedgerLockedError):
        ledger.reject("whatever", reason="x")


def test_readers_never_take_the_lock(repo, tmp_path):
    home = tmp_path / "ledger"
    rec = _local(repo, home).record("checksum is mod 255", ["shop/store.py::checksum"])
    proc = _worker("hold", str(home), "60")
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        reader = _local(repo, home, lock_timeout=0.1)
        assert reader.verify(rec.id).status is Status.VERIFIED
        assert [v.id for v in reader.check()] == [rec.id]
        assert reader.recall("checksum").items[0].id == rec.id
        assert reader.log()[0].decision_id == rec.id
    finally:
        _stop(proc)


def test_a_writer_that_waits_gets_the_lock_when_it_is_released(repo, tmp_path):
    home = tmp_path / "ledger"
    home.mkdir()
    proc = _worker("hold", str(home), "1.5")
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    rec = _local(repo, home, lock_timeout=30).record("written after the wait")
    assert proc.wait(10) == 0
    _stop(proc)
    assert _local(repo, home).get(rec.id).claim == "written after the wait"


def test_the_lock_is_reentrant_and_only_for_local_ledgers(repo, tmp_path, ledger):
    lock = LocalLock(tmp_path / "x", timeout=0.1)
    with lock.hold() as outer:
        with lock.hold() as inner:
            assert (outer, inner) == (True, False)
        assert "pid" in lock.holder()
    assert ledger.store.lock is None  # ephemeral: nothing on disk to share
    assert _local(repo, tmp_path / "l").store.lock is not None


def test_holder_unknown_when_the_sidecar_is_missing(tmp_path):
    assert LocalLock(tmp_path).holder() == "another process (holder unknown)"


@pytest.mark.slow
def test_concurrent_local_writers_lose_nothing(repo, tmp_path):
    """4 processes x 15 records on one PersistentClient folder: every record
    stored, and every vector found by a query (plain Chroma with a per-write
    lock but no reload kept 1131 of 1200 vectors, 4 x 300 adds)."""
    home = tmp_path / "ledger"
    _local(repo, home).record("seed")
    procs = [_worker("write", str(repo.path), str(home), NS, "15", f"w{i}") for i in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=900)
        assert p.returncode == 0, err
        assert out.split() == ["recorded"] * 15
    fresh = _local(repo, home)
    ids = fresh.store.all_ids()
    assert len(ids) == 61
    hits = fresh.store.query(fresh.embedder.embed_query("decision"), 1000)
    assert len(hits) == 61
    assert {d.id for d, _ in hits} == set(ids)


@pytest.mark.slow
def test_a_long_lived_reader_sees_writes_from_another_process(repo, tmp_path):
    home = tmp_path / "ledger"
    reader = _local(repo, home)
    reader.record("first, from the reader process")
    assert reader.store.query(reader.embedder.embed_query("x"), 50)
    p = _worker("write", str(repo.path), str(home), NS, "5", "other")
    _out, err = p.communicate(timeout=900)
    assert p.returncode == 0, err
    # Without the reload, Chroma's cached index in this process misses all five.
    assert len(reader.store.query(reader.embedder.embed_query("decision"), 50)) == 6
    assert len(reader.recall("other decision", k=10).items) == 6


# ------------------------------------------------------------------ crash safety

SUPERSEDE_STEPS = ["journaled", "added", "updated", "receipted"]
REJECT_STEPS = ["journaled", "updated", "receipted"]
#: "updated" is the first of an approval's two updates (the approved successor's own).
APPROVE_STEPS = ["journaled", "updated", "receipted"]
RECORD_STEPS = ["journaled", "added", "receipted"]


class _Repo:
    """A one-commit repository (module-scoped fixtures cannot use ``repo``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        (path / "shop").mkdir(parents=True)
        (path / "shop" / "store.py").write_text("def checksum(data):\n    return sum(data) % 255\n")
        env = {**os.environ, "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "a@example.com",
               "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "a@example.com",
               "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
        for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "initial"]):
            subprocess.run(["git", *args], cwd=path, env=env, check=True, capture_output=True)


def _crashed(repo, tmp_path, act: str, step: str):
    home = tmp_path / f"{act}-{step}"
    ledger = _local(repo, home)
    old = ledger.record("totals are floats", ["shop/store.py::checksum"])
    target = old.id
    if act == "approve":
        target = ledger.supersede(old.id, "totals are Decimal, rounded half-up", reason="floats lost cents",
                                  proposed=True).id
    proc = _worker("crash", str(repo.path), str(home), NS, act, target, env={"MEMVET_KILL_AT": step})
    return home, old.decision, proc


@pytest.fixture(scope="module")
def crash_runs(tmp_path_factory):
    """Every (act, kill point), run in parallel: each a process killed mid-act."""
    base = tmp_path_factory.mktemp("crash")
    repo = _Repo(base / "repo")
    runs = {}
    for act, steps in (("supersede", SUPERSEDE_STEPS), ("reject", REJECT_STEPS), ("approve", APPROVE_STEPS),
                       ("record", RECORD_STEPS)):
        for step in steps:
            runs[act, step] = _crashed(repo, base, act, step)
    for key, (_home, _old, proc) in runs.items():
        _out, err = proc.communicate(timeout=900)
        assert proc.returncode == KILLED, (key, proc.returncode, err)
    return repo, {k: (home, old) for k, (home, old, _p) in runs.items()}


def _current(ledger: memvet.Ledger) -> list[memvet.Decision]:
    return [d for d in ledger.decisions() if d.lifecycle is Lifecycle.ACTIVE]


@pytest.mark.slow
@pytest.mark.parametrize("step", SUPERSEDE_STEPS)
def test_supersede_survives_a_kill_between_its_writes(crash_runs, step):
    repo, runs = crash_runs
    home, old = runs["supersede", step]
    ledger = _local(repo, home)
    # Right after the crash, before anything is repaired: never two current
    # decisions, and the old one is never lost.
    assert ledger.get(old.id).claim == old.claim
    current = _current(ledger)
    assert len(current) == 1
    if step == "journaled":  # killed before the successor was written
        assert current[0].id == old.id
    else:
        assert current[0].supersedes == old.id
        assert ledger.get(old.id).lifecycle is Lifecycle.SUPERSEDED
    # The next write finishes the act from the journal.
    assert ledger.repair() == 1
    assert ledger.repair() == 0
    current = _current(ledger)
    assert len(current) == 1 and current[0].supersedes == old.id
    assert current[0].claim == "totals are Decimal, rounded half-up"
    stored = ledger.store.get_decisions([old.id])[0]
    assert stored.lifecycle is Lifecycle.SUPERSEDED and stored.superseded_by == current[0].id
    assert [r.action for r in ledger.history(old.id)] == ["record", "supersede"]
    assert [r.action for r in ledger.history(current[0].id)] == ["record"]
    assert ledger.store.count() == 2
    assert len(ledger.store.query(ledger.embedder.embed_query("totals"), 10)) == 2
    assert {v.status for v in ledger.check()} == {Status.SUPERSEDED, Status.UNANCHORED}


@pytest.mark.slow
@pytest.mark.parametrize("step", REJECT_STEPS)
def test_reject_survives_a_kill_between_its_writes(crash_runs, step):
    repo, runs = crash_runs
    home, old = runs["reject", step]
    ledger = _local(repo, home)
    if step == "journaled":
        assert ledger.get(old.id).lifecycle is Lifecycle.ACTIVE
    else:
        assert ledger.get(old.id).lifecycle is Lifecycle.REJECTED
    # Any write finishes it first (here an unrelated record).
    ledger.record("an unrelated decision")
    assert ledger.store.pending() == []
    got = ledger.get(old.id)
    assert got.lifecycle is Lifecycle.REJECTED and got.reason == "the global lock deadlocked"
    assert [r.action for r in ledger.history(old.id)] == ["record", "reject"]
    assert ledger.verify(old.id).status is Status.REJECTED


@pytest.mark.slow
@pytest.mark.parametrize("step", APPROVE_STEPS)
def test_approve_survives_a_kill_between_its_writes(crash_runs, step):
    repo, runs = crash_runs
    home, old = runs["approve", step]
    ledger = _local(repo, home)
    proposal = next(d for d in ledger.decisions() if d.supersedes == old.id)
    current = _current(ledger)
    assert len(current) == 1  # never two current decisions, never none
    if step == "journaled":  # killed before the approval's first write
        assert current[0].id == old.id and proposal.lifecycle is Lifecycle.PROPOSED
    else:  # the approved successor landed: the old one reads as superseded by its pointer
        assert current[0].id == proposal.id
        assert ledger.get(old.id).lifecycle is Lifecycle.SUPERSEDED
    assert ledger.repair() == 1
    assert [d.id for d in _current(ledger)] == [proposal.id]
    stored = ledger.store.get_decisions([old.id])[0]
    assert stored.lifecycle is Lifecycle.SUPERSEDED and stored.superseded_by == proposal.id
    assert [r.action for r in ledger.history(old.id)] == ["record", "supersede"]
    assert [r.action for r in ledger.history(proposal.id)] == ["propose", "approve"]
    assert {v.status for v in ledger.check()} == {Status.SUPERSEDED, Status.UNANCHORED}


@pytest.mark.slow
@pytest.mark.parametrize("step", RECORD_STEPS)
def test_record_survives_a_kill_between_its_writes(crash_runs, step):
    """Never a decision without its receipt once repaired, never two copies:
    the journal holds the whole act, so the next write finishes it."""
    repo, runs = crash_runs
    home, old = runs["record", step]
    ledger = _local(repo, home)
    new = [d for d in ledger.decisions() if d.claim == "orders are JSON lines"]
    assert len(new) == (0 if step == "journaled" else 1)
    assert ledger.repair() == 1
    assert ledger.repair() == 0
    new = [d for d in ledger.decisions() if d.claim == "orders are JSON lines"]
    assert len(new) == 1 and new[0].lifecycle is Lifecycle.ACTIVE
    assert [r.action for r in ledger.history(new[0].id)] == ["record"]
    assert ledger.get(old.id).lifecycle is Lifecycle.ACTIVE  # the decision recorded before is untouched
    assert ledger.store.count() == 2
    assert len(ledger.store.query(ledger.embedder.embed_query("orders"), 10)) == 2


def test_replay_keeps_a_later_resolution(repo, client):
    """An old unfinished act never overwrites what another writer did since."""
    ledger = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                namespace="replay-later", disk_cache=False)
    rec = ledger.record("sessions are cached")
    stale = ledger._receipt(rec.id, "revalidate", "active", "active", reason="r", author="a", at=1.0,
                            commit="c")
    from memvet._store import Intent

    ledger.store.journal.add(ids=["i-old"], documents=[Intent("revalidate", updates=(rec.decision,),
                                                              receipts=(stale,), at=1.0).to_json()],
                             embeddings=[[1.0]], metadatas=[{"kind": "intent"}])
    ledger.reject(rec.id, reason="dropped")  # replays the old intent first: it is active, so applied
    assert ledger.get(rec.id).lifecycle is Lifecycle.REJECTED
    ledger.store.journal.add(ids=["i-older"], documents=[Intent("revalidate", updates=(rec.decision,),
                                                                at=1.0).to_json()],
                             embeddings=[[1.0]], metadatas=[{"kind": "intent"}])
    assert ledger.repair() == 1
    assert ledger.get(rec.id).lifecycle is Lifecycle.REJECTED


def test_a_corrupt_journal_entry_is_reported_and_skipped(ledger, caplog):
    ledger.store.journal.add(ids=["i-bad"], documents=["{not json"], embeddings=[[1.0]],
                             metadatas=[{"kind": "intent"}])
    assert ledger.store.pending() == []
    assert "journal entry i-bad: cannot decode" in caplog.text


def test_two_racing_successors_settle_on_the_earliest(repo, client):
    """Server mode has no lock: the later of two concurrent supersedes is withdrawn."""
    ns = "race-ns"
    one = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(), namespace=ns,
                             disk_cache=False)
    old = one.record("totals are floats")
    # A rival successor that landed while this writer was between its check and its write.
    rival = one.store.get_decisions([old.id])[0].evolve(id="a0rival00000", claim="totals are cents",
                                                       supersedes=old.id, created_at=1.0)
    one.store.add_decision(rival, one.embedder.embed_query("totals are cents"))
    # `old` now reads as superseded; write the second successor below the check.
    one.store.__class__ = _BlindFirstCheck
    with pytest.raises(memvet.ConflictError, match="lost a race"):
        one.supersede(old.id, "totals are Decimal", reason="floats lose cents")
    current = _current(one)
    assert [d.id for d in current] == [rival.id]
    assert one.get(old.id).superseded_by == rival.id


class _BlindFirstCheck(ChromaStore):
    """Hides the rival from the writer's first look, as in a real race."""

    blind = True

    def successors_of(self, ids):
        if self.blind:
            self.blind = False
            return {}
        return super().successors_of(ids)


# ------------------------------------------------------------------ the worker process


def _main(argv: list[str]) -> int:
    from memvet._git import GitRepo
    from memvet._ledger import Ledger

    mode = argv[0]
    if mode == "hold":
        with LocalLock(Path(argv[1])).hold():
            print("held", flush=True)
            time.sleep(float(argv[2]))
        return 0
    if mode == "write":
        repo, home, ns, n, prefix = argv[1], Path(argv[2]), argv[3], int(argv[4]), argv[5]
        ledger = Ledger.open(repo, path=home, namespace=ns, embedding=memvet.HashingEmbedder(),
                             disk_cache=False, lock_timeout=120)
        import random

        rnd = random.Random(prefix)
        outcomes = []
        for i in range(n):
            words = " ".join(f"{rnd.getrandbits(40):x}" for _ in range(8))
            outcomes.append(ledger.record(f"{prefix} decision {i}: {words}").outcome)
        print(" ".join(outcomes), flush=True)
        return 0
    if mode == "crash":
        import chromadb
        from chromadb.config import Settings

        repo, home, ns, act, decision_id = argv[1], Path(argv[2]), argv[3], argv[4], argv[5]

        class KillingStore(ChromaStore):
            """Dies, like kill -9, at one point between the writes of an act."""

            def _step(self, name: str) -> None:
                if name == os.environ.get("MEMVET_KILL_AT"):
                    os._exit(KILLED)

        lock = LocalLock(home)
        client = chromadb.PersistentClient(path=str(home / "chroma"), settings=Settings(anonymized_telemetry=False))
        embedder = memvet.HashingEmbedder()
        ledger = Ledger(GitRepo(repo), KillingStore(client, ns, embedder.name, lock=lock), embedder,
                        namespace=ns)
        if act == "supersede":
            ledger.supersede(decision_id, "totals are Decimal, rounded half-up", reason="floats lost cents")
        elif act == "approve":
            ledger.approve(decision_id, reason="checked the totals", author="Rev")
        elif act == "record":
            ledger.record("orders are JSON lines")
        else:
            ledger.reject(decision_id, reason="the global lock deadlocked")
        return 0
    raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))


def test_an_import_reads_under_the_lock_and_an_interrupted_update_is_finished(repo, tmp_path, monkeypatch):
    """Import is a write like any other: it reads the ledger holding the
    write lock, and brings a decision forward through a journaled act, so a
    crash between journal and update is finished by the next write."""
    from memvet._exchange import export_jsonl, import_jsonl

    source = memvet.Ledger.open(repo.path, path=tmp_path / "a", embedding=memvet.HashingEmbedder())
    rec = source.record("prices are integers in cents")
    first = export_jsonl(source).lines
    source.reject(rec.decision.id, reason="we moved to decimals")
    later = export_jsonl(source).lines

    target = memvet.Ledger.open(repo.path, path=tmp_path / "b", embedding=memvet.HashingEmbedder(),
                                namespace=source.namespace)
    assert import_jsonl(target, first, trust=True).added == (rec.decision.id,)
    depths: list[int] = []
    real_log = target.log
    monkeypatch.setattr(target, "log", lambda: depths.append(target.store.lock._depth) or real_log())

    def crash(step: str) -> None:
        if step == "journaled":
            raise KeyboardInterrupt("killed between the journal and the update")

    monkeypatch.setattr(target.store, "_step", crash)
    with pytest.raises(KeyboardInterrupt):
        import_jsonl(target, later, trust=True)
    assert depths == [1]  # the local state was read with the write lock held
    monkeypatch.undo()
    assert target.get(rec.decision.id).lifecycle is Lifecycle.ACTIVE  # the update never landed
    assert target.repair() == 1
    assert target.get(rec.decision.id).lifecycle is Lifecycle.REJECTED
    history = target.history(rec.decision.id)
    assert [r.action for r in history if r.action != "import"] == ["record", "reject"]
    assert [r.to_lifecycle for r in history if r.action == "import"] == ["active", "rejected"]  # the trust's


def test_the_write_generation_reads_empty_before_the_first_write_then_each_token(tmp_path):
    lock = LocalLock(tmp_path)
    assert lock.generation() == ""
    first = lock.bump()
    assert lock.generation() == first
    second = lock.bump()
    assert second != first and lock.generation() == second


def test_an_unreadable_write_generation_is_a_store_error_not_a_fresh_ledger(tmp_path):
    lock = LocalLock(tmp_path)
    lock.generation_path.mkdir()  # reading a folder fails with EISDIR
    with pytest.raises(memvet.StoreError, match=r"cannot read .*generation"):
        lock.generation()
