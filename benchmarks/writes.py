#!/usr/bin/env python
"""What journaling every record costs, and whether concurrent writers still lose nothing (issue 18).

Part A: ``--records`` plain records on a fresh on-disk ledger
(``HashingEmbedder``, one process), each journaled (the act written to the
journal first, cleared last), against the same run with the journal left
out of plain records (the behaviour before issue 18), in the same process,
interleaved in blocks of 20 so machine load hits both alike: p50/p95 per
record and the ratio of the medians.

Part B: ``--procs`` processes x ``--each`` records on one local ledger at
once (they take turns through the write lock): how many decisions are
stored, found by id, found by a vector query, and how many have their
record receipt.

Example::

    python benchmarks/writes.py --records 300 --procs 4 --each 300
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import memvet
from memvet._store import ChromaStore, Intent


class _Unjournaled(ChromaStore):
    """A plain record without the journal, as before issue 18."""

    def apply(self, intent: Intent, *, journaled: bool = True) -> None:
        super().apply(intent, journaled=journaled and intent.act not in ("record", "propose"))


def _repo() -> Path:
    repo = Path(tempfile.mkdtemp()) / "repo"
    repo.mkdir()
    (repo / "README.md").write_text("# Shop\n", encoding="utf-8")
    git = ["git", "-c", "user.name=Ada", "-c", "user.email=ada@example.com"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "initial"], cwd=repo, check=True)
    return repo


def _claim(rng: random.Random) -> str:
    return "note " + " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7)) for _ in range(6))


def _percentiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times) * 1000, times[int(0.95 * (len(times) - 1))] * 1000


def part_a(records: int) -> str:
    repo = _repo()
    rng = random.Random(1)
    journaled = memvet.Ledger.open(repo, path=repo / "journaled", embedding=memvet.HashingEmbedder())
    plain = memvet.Ledger.open(repo, path=repo / "plain", embedding=memvet.HashingEmbedder())
    plain.store.__class__ = _Unjournaled
    times: dict[str, list[float]] = {"journaled": [], "plain": []}
    for block in range(0, records, 20):
        for name, ledger in (("journaled", journaled), ("plain", plain)):
            for _ in range(min(20, records - block)):
                claim = _claim(rng)
                start = time.perf_counter()
                ledger.record(claim)
                times[name].append(time.perf_counter() - start)
    j50, j95 = _percentiles(times["journaled"])
    p50, p95 = _percentiles(times["plain"])
    return (f"Part A, {records} records each: journaled p50 {j50:.1f} ms, p95 {j95:.1f} ms; without the journal "
            f"p50 {p50:.1f} ms, p95 {p95:.1f} ms; ratio of medians {j50 / p50:.2f}")


def _writer(args: tuple[str, str, int, int]) -> list[str]:
    repo, home, each, seed = args
    ledger = memvet.Ledger.open(repo, path=home, embedding=memvet.HashingEmbedder(), lock_timeout=600)
    rng = random.Random(seed)
    return [ledger.record(f"writer {seed} decision {i}: {_claim(rng)}").outcome for i in range(each)]


def part_b(procs: int, each: int) -> str:
    repo = _repo()
    home = repo / "ledger"
    memvet.Ledger.open(repo, path=home, embedding=memvet.HashingEmbedder()).record("seed")
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        outcomes = [o for got in pool.map(_writer, [(str(repo), str(home), each, i) for i in range(procs)])
                    for o in got]
    took = time.perf_counter() - start
    ledger = memvet.Ledger.open(repo, path=home, embedding=memvet.HashingEmbedder())
    written = [d for d in ledger.decisions() if d.claim.startswith("writer ")]
    ids = {d.id for d in written}
    by_id = {d.id for d in ledger.store.get_decisions(sorted(ids))}
    found = {d.id for d, _ in ledger.store.query(ledger.embedder.embed_query("writer decision note"), 10 * len(ids))}
    receipted = {r.decision_id for r in ledger.log() if r.action == "record"}
    want = procs * each
    return (f"Part B, {procs} processes x {each} records at once ({took:.0f} s): {outcomes.count('recorded')} of "
            f"{want} recorded, {len(written)} stored, {len(by_id)} by id, {len(found & ids)} by vector query, "
            f"{len(receipted & ids)} with their receipt, {len(ledger.store.pending())} acts left in the journal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--procs", type=int, default=4)
    parser.add_argument("--each", type=int, default=300)
    args = parser.parse_args()
    print(memvet.__file__, file=sys.stderr)
    if args.records:
        print(part_a(args.records), flush=True)
    if args.procs and args.each:
        print(part_b(args.procs, args.each), flush=True)


if __name__ == "__main__":
    main()
