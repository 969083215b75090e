"""A shared mixed workload for one Ledger used by many threads (unit tests on
the local and ephemeral ledgers, the integration test on a server).

Each worker acts on its own decisions, so a sequential run is the reference
(what each worker did is what the ledger must hold), while every read (check,
recall, about, verify, get) sees everybody's.
"""

from __future__ import annotations

import os
import random
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import memvet
from memvet import Lifecycle

#: Workers, and operations per worker. A write to the on-disk ledger costs
#: 40-150 ms (Chroma's SQLite commits), and one process's writes are
#: serialized, so 8 x 200 takes about two minutes; CI runs 8 x 60 (about
#: 25 s), ``MEMVET_STRESS_OPS=200`` the full run.
THREADS = 8
OPS = int(os.environ.get("MEMVET_STRESS_OPS", "60"))

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def claim(rng: random.Random) -> str:
    """Plain words (no code terms to bind), far apart for the hashing embedder."""
    return "note " + " ".join("".join(rng.choice(LETTERS) for _ in range(7)) for _ in range(6))


class Worker:
    """One thread's share of the mixed workload, and what it expects to find."""

    def __init__(self, ledger: memvet.Ledger, seed: int) -> None:
        self.ledger = ledger
        self.rng = random.Random(seed)
        self.active: list[str] = []
        #: id -> (lifecycle, superseded_by)
        self.expected: dict[str, tuple[Lifecycle, str]] = {}
        #: id -> receipt actions it must carry
        self.receipts: dict[str, list[str]] = {}

    def _record(self) -> None:
        anchors = ["README.md"] if self.rng.random() < 0.5 else []
        result = self.ledger.record(claim(self.rng), anchors)
        assert result.outcome == "recorded", result
        did = result.decision.id
        self.active.append(did)
        self.expected[did] = (Lifecycle.ACTIVE, "")
        self.receipts[did] = ["record"]

    def step(self) -> None:
        roll = self.rng.random()
        if roll < 0.20 or len(self.active) < 2:
            self._record()
        elif roll < 0.28:
            old = self.active.pop(self.rng.randrange(len(self.active)))
            result = self.ledger.supersede(old, claim(self.rng), [], reason="replaced in a stress run")
            assert result.outcome == "superseded", result
            new = result.decision.id
            self.expected[old] = (Lifecycle.SUPERSEDED, new)
            self.receipts[old].append("supersede")
            self.expected[new] = (Lifecycle.ACTIVE, "")
            self.receipts[new] = ["record"]
            self.active.append(new)
        elif roll < 0.35:
            gone = self.active.pop(self.rng.randrange(len(self.active)))
            assert self.ledger.reject(gone, reason="tried in a stress run").lifecycle is Lifecycle.REJECTED
            self.expected[gone] = (Lifecycle.REJECTED, "")
            self.receipts[gone].append("reject")
        elif roll < 0.45:
            assert self.ledger.check()
        elif roll < 0.65:
            self.ledger.recall("note " + claim(self.rng).split()[1], k=5)
        elif roll < 0.80:
            self.ledger.about(["README.md"])
        else:
            did = self.rng.choice(self.active)
            assert self.ledger.verify(did).decision.id == did
            assert self.ledger.get(did).lifecycle is Lifecycle.ACTIVE


def run_workers(ledger: memvet.Ledger, ops: int) -> list[Worker]:
    workers = [Worker(ledger, seed) for seed in range(THREADS)]
    start = threading.Barrier(THREADS)

    def run(worker: Worker) -> None:
        start.wait()
        for _ in range(ops):
            worker.step()

    with ThreadPoolExecutor(THREADS) as pool:
        for future in [pool.submit(run, w) for w in workers]:
            future.result()  # any error of any thread fails the test, untranslated or not
    return workers


def assert_nothing_lost(ledger: memvet.Ledger, workers: list[Worker]) -> None:
    expected = {k: v for w in workers for k, v in w.expected.items()}
    held = {d.id: d for d in ledger.decisions()}
    assert set(held) == set(expected), "decisions lost or invented"
    for did, (lifecycle, by) in expected.items():
        assert (held[did].lifecycle, held[did].superseded_by) == (lifecycle, by), did
    actions: dict[str, Counter[str]] = {}
    for receipt in ledger.log():
        actions.setdefault(receipt.decision_id, Counter())[receipt.action] += 1
    for w in workers:
        for did, wanted in w.receipts.items():
            assert actions.get(did) == Counter(wanted), did
    # Every vector landed: each decision is its own nearest neighbour.
    for did in list(expected)[:: max(1, len(expected) // 40)]:
        claim = held[did].claim
        assert did in {d.id for d, _ in ledger.store.query(ledger.embedder.embed_query(claim), 3)}, did
    assert not ledger.store.pending()
