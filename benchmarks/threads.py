#!/usr/bin/env python
"""What the per-store lock costs warm recall (issue 14, item 1).

Builds a scratch repository and an on-disk ledger of ``--size`` decisions
(half anchored on a file, ``HashingEmbedder``), then measures warm recall
(k=5, verification included): p50/p95 from one thread, and the throughput
of ``--threads`` threads recalling at once. Run it against two checkouts of
the core to compare, e.g.::

    PYTHONPATH=old/core python benchmarks/threads.py
    PYTHONPATH=core python benchmarks/threads.py
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import memvet


def _claim(rng: random.Random) -> str:
    return "note " + " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7))
                              for _ in range(6))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()

    repo = Path(tempfile.mkdtemp()) / "repo"
    repo.mkdir()
    (repo / "README.md").write_text("# Shop\n", encoding="utf-8")
    git = ["git", "-c", "user.name=Ada", "-c", "user.email=ada@example.com"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "initial"], cwd=repo, check=True)
    ledger = memvet.Ledger.open(repo, embedding=memvet.HashingEmbedder())
    rng = random.Random(1)
    for i in range(args.size):
        ledger.record(_claim(rng), ["README.md"] if i % 2 else [])
    queries = [_claim(rng) for _ in range(args.queries)]
    for q in queries[:50]:  # warm: caches filled, the client current
        ledger.recall(q, k=5)

    times = []
    for q in queries:
        start = time.perf_counter()
        ledger.recall(q, k=5)
        times.append(time.perf_counter() - start)
    times.sort()
    p50 = statistics.median(times) * 1000
    p95 = times[int(0.95 * (len(times) - 1))] * 1000

    start = time.perf_counter()
    with ThreadPoolExecutor(args.threads) as pool:
        list(pool.map(lambda q: ledger.recall(q, k=5), queries))
    parallel = len(queries) / (time.perf_counter() - start)
    serial = len(queries) / sum(times)
    print(f"{memvet.__file__}\n  warm recall, 1 thread: p50 {p50:.2f} ms, p95 {p95:.2f} ms, {serial:.0f}/s; "
          f"{args.threads} threads: {parallel:.0f}/s ({args.size} decisions)")


if __name__ == "__main__":
    main()
