#!/usr/bin/env python
"""Verification speed on a real repository (issue 3, "Speed").

Records ``--decisions`` decisions anchored on real symbols of ``--repo`` at
``HEAD~--jump``, then measures at ``HEAD``, all in one process and one run:

* cold check: a fresh ledger object with empty symbol caches (memory and
  disk) checks every decision (``Ledger.check``), and the verification alone
  (``Verifier.verdicts`` on the already-fetched decisions), each the median
  of up to five fresh ledgers;
* the parse floor: tree-sitter alone parsing the anchored files that
  changed, which no cold check can beat (it must read them);
* warm check: the same check again (symbol tables cached);
* disk-warm check: a new ledger object whose on-disk cache is populated
  (what a second CLI process sees);
* warm recall (``Ledger.recall``, verification included) against a plain
  Chroma query of the same store, with and without the query embedding;
* the naive baseline: read and re-parse the anchored file at ``HEAD`` for
  every decision (no blob fast path, no cache).

With ``--samples N`` the cold verification is measured again on N - 1 more
samples of symbols (seeds ``seed+1`` ...), recorded with the hashing
embedding (the embedding plays no part in verification): the figure depends
on how many anchored files changed and how long they are.

Ratios are computed from figures measured in the same run. Nothing is written
into the repository: the ledger lives in a temporary folder.

Example::

    python benchmarks/verify_bench.py --repo /tmp/sqlalchemy --jump 500 --decisions 10 --samples 10
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bench

from memvet import _code
from memvet._code._languages import parse
from memvet._git import GitRepo


def naive_check(repo: GitRepo, rev: str, decisions: list[Any]) -> tuple[float, dict[str, str]]:
    """Re-parse the anchored file for every decision (the baseline).

    Returns the elapsed seconds and a status per decision id
    (``holds`` | ``changed`` | ``missing``), for an agreement check.
    """
    def run() -> dict[str, str]:
        snap = repo.snapshot(rev)
        out = {}
        for d in decisions:
            state = "holds"
            for a in d.anchors:
                data = snap.read(a.path)
                if data is None:
                    state = "missing"
                    break
                sym = _code.symbol_table(data, a.language).symbols.get(a.name)
                if sym is None:
                    state = "missing"
                    break
                if sym.hash != a.body_hash:
                    state = "changed"
            out[d.id] = state
        return out

    return _bench.timed(run)


def cold_verification(root: Path, home: Path, emb: Any, runs: int) -> tuple[float, Any, list[Any], Any]:
    """Median seconds of ``Verifier.verdicts`` on a fresh ledger with empty
    caches (memory and disk), and the last ledger, decisions and snapshot."""
    times = []
    for _ in range(runs):
        led = _bench.cold_ledger(root, home, emb)
        fetched = led.decisions()
        snap = led.snapshot("HEAD")
        times.append(_bench.timed(lambda: led.verifier.verdicts(fetched, snap))[0])
    return _bench.median(times), led, fetched, snap


def parse_floor(repo: GitRepo, head: str, sampled: list[_bench.Sampled], changed: set[str],
                runs: int) -> dict[str, Any]:
    """Tree-sitter alone on the anchored files that changed: files, lines,
    and the median seconds of parsing them all once."""
    snap = repo.snapshot(head)
    files = []
    for path, language in sorted({(s.path, s.language) for s in sampled if s.path in changed}):
        data = snap.read(path)
        if data is not None:
            files.append((data, language))
    seconds = _bench.median([_bench.timed(lambda: [parse(d, lang) for d, lang in files])[0]
                             for _ in range(runs)])
    return {"files": len(files), "lines": sum(d.count(b"\n") for d, _ in files), "seconds": seconds}


def cold_sample(root: Path, repo: GitRepo, base: str, head: str, n_decisions: int, seed: int,
                per_file: int, changed: set[str], runs: int) -> dict[str, Any]:
    """Cold verification of one more sample of symbols (hashing embedding)."""
    sampled = _bench.sample_symbols(repo, base, n_decisions, seed=seed, per_file=per_file)
    with _bench.TempDir("memvet-verify-") as home:
        emb = _bench.make_embedder("hashing")
        _bench.record_sampled(_bench.open_ledger(root, home, emb), sampled, base)
        seconds, _, _, _ = cold_verification(root, home, emb, runs)
    floor = parse_floor(repo, head, sampled, changed, runs)
    return {"seed": seed, "decisions": len(sampled), "files_changed": floor["files"],
            "lines_changed_files": floor["lines"], "parse_floor_ms": _bench.ms(floor["seconds"]),
            "cold_verify_ms": _bench.ms(seconds)}


def measure(repo_path: str, jump: int, n_decisions: int, embedding: str, repeat: int, k: int,
            seed: int, per_file: int, samples: int = 1) -> dict[str, Any]:
    root = _bench.repo_root(repo_path)
    head = _bench.rev_parse(root, "HEAD")
    base = _bench.rev_parse(root, f"HEAD~{jump}") if jump else head
    repo = GitRepo(root)
    sampled = _bench.sample_symbols(repo, base, n_decisions, seed=seed, per_file=per_file)
    if not sampled:
        raise SystemExit(f"no code symbols found at {base[:12]} in {root}")
    changed_files = set(_bench.git(root, "diff", "--name-only", base, head).splitlines())

    with _bench.TempDir("memvet-verify-") as home:
        emb = _bench.make_embedder(embedding)
        writer = _bench.open_ledger(root, home, emb)
        record_s, _ = _bench.timed(lambda: _bench.record_sampled(writer, sampled, base))
        decisions = writer.decisions()

        # Cold: empty caches in memory and on disk, new repository handle.
        cold_runs = max(1, min(repeat, 5))
        cold_checks = []
        for _ in range(cold_runs):
            cold = _bench.cold_ledger(root, home, emb)
            elapsed, verdicts = _bench.timed(lambda: cold.check(at="HEAD"))
            cold_checks.append(elapsed)
        cold_check_s = _bench.median(cold_checks)
        cold_parses = cold.evidence.cache.parses

        cold_verify_s, cold2, fetched, snap = cold_verification(root, home, emb, cold_runs)
        floor = parse_floor(repo, head, sampled, changed_files, cold_runs)

        warm_check = [_bench.timed(lambda: cold.check(at="HEAD"))[0] for _ in range(repeat)]
        warm_verify = [_bench.timed(lambda: cold2.verifier.verdicts(fetched, snap))[0] for _ in range(repeat)]

        disk = _bench.open_ledger(root, home, emb)
        disk_check_s, _ = _bench.timed(lambda: disk.check(at="HEAD"))

        naive_runs = [naive_check(repo, head, decisions) for _ in range(max(1, min(repeat, 5)))]
        naive_s = _bench.median([t for t, _ in naive_runs])
        naive_states = naive_runs[0][1]

        # Recall vs a plain Chroma query of the same store, interleaved.
        queries = [_bench.query_for(s, i) for i, s in enumerate(sampled)]
        led = cold
        for q in queries:  # warm-up: model loaded, symbol tables cached
            led.recall(q, k=k, at="HEAD")
            led.store.decisions.query(query_embeddings=[led.embedder.embed_query(q)], n_results=k)
        recall_t, plain_t = [], []
        for _ in range(repeat):
            for q in queries:
                recall_t.append(_bench.timed(lambda: led.recall(q, k=k, at="HEAD"))[0])
                plain_t.append(_bench.timed(lambda: led.store.decisions.query(
                    query_embeddings=[led.embedder.embed_query(q)], n_results=k))[0])
        led.embedder = _bench.MemoEmbedder(led.embedder)
        for q in queries:
            led.embedder.embed_query(q)
        recall_ne, plain_ne = [], []
        for _ in range(repeat):
            for q in queries:
                recall_ne.append(_bench.timed(lambda: led.recall(q, k=k, at="HEAD"))[0])
                vec = led.embedder.embed_query(q)
                plain_ne.append(_bench.timed(lambda: led.store.decisions.query(
                    query_embeddings=[vec], n_results=k))[0])

    statuses: dict[str, int] = {}
    for v in verdicts:
        statuses[v.status.value] = statuses.get(v.status.value, 0) + 1
    memvet_state = {v.decision.id: v.status.value for v in verdicts}
    agree = sum(1 for i, s in naive_states.items()
                if (s == "holds") == (memvet_state.get(i) == "verified"))
    warm_check_ms = _bench.ms(_bench.median(warm_check))
    warm_verify_ms = _bench.ms(_bench.median(warm_verify))
    cold_check_ms = _bench.ms(cold_check_s)
    cold_verify_ms = _bench.ms(cold_verify_s)
    floor_ms = _bench.ms(floor["seconds"])
    spread = [{"seed": seed, "decisions": len(decisions), "files_changed": floor["files"],
               "lines_changed_files": floor["lines"], "parse_floor_ms": floor_ms,
               "cold_verify_ms": cold_verify_ms}]
    spread += [cold_sample(root, repo, base, head, n_decisions, seed + i, per_file, changed_files, cold_runs)
               for i in range(1, samples)]
    naive_ms = _bench.ms(naive_s)
    recall_ms = _bench.ms(_bench.median(recall_t))
    plain_ms = _bench.ms(_bench.median(plain_t))
    recall_ne_ms = _bench.ms(_bench.median(recall_ne))
    plain_ne_ms = _bench.ms(_bench.median(plain_ne))
    return {
        "benchmark": "verify_bench",
        "command": _bench.command_line(),
        "repo": str(root),
        "base": base,
        "head": head,
        "jump": jump,
        "decisions": len(decisions),
        "embedding": embedding,
        "repeat": repeat,
        "k": k,
        "files_anchored": len({s.path for s in sampled}),
        "files_changed_since_base": len({s.path for s in sampled} & changed_files),
        "statuses_at_head": statuses,
        "record_ms_total": _bench.ms(record_s),
        "cold_parses": cold_parses,
        "cold_runs": cold_runs,
        "files_changed_parsed": floor["files"],
        "lines_changed_files": floor["lines"],
        "timings_ms": {
            "cold_check": cold_check_ms,
            "cold_verify": cold_verify_ms,
            "parse_floor": floor_ms,
            "warm_check": warm_check_ms,
            "warm_verify": warm_verify_ms,
            "disk_warm_check": _bench.ms(disk_check_s),
            "naive_reparse": naive_ms,
            "recall_warm": recall_ms,
            "plain_query": plain_ms,
            "recall_warm_no_embed": recall_ne_ms,
            "plain_query_no_embed": plain_ne_ms,
        },
        "ratios": {
            "recall_vs_plain": recall_ms / plain_ms,
            "recall_vs_plain_no_embed": recall_ne_ms / plain_ne_ms,
            "naive_vs_cold_verify": naive_ms / cold_verify_ms,
            "cold_verify_vs_parse_floor": cold_verify_ms / floor_ms if floor_ms else 0.0,
            "naive_vs_warm_verify": naive_ms / warm_verify_ms,
            "naive_vs_warm_check": naive_ms / warm_check_ms,
        },
        "targets": {
            "recall_vs_plain_le_1.2": recall_ms / plain_ms <= 1.2,
            "cold_verify_10_within_50ms": cold_verify_ms <= 50.0 if len(decisions) <= 10 else None,
            "naive_vs_warm_verify_ge_20": naive_ms / warm_verify_ms >= 20.0,
        },
        "naive_agreement": f"{agree}/{len(naive_states)}",
        "cold_samples": spread,
    }


def render(r: dict[str, Any]) -> str:
    t = r["timings_ms"]
    x = r["ratios"]
    head = (f"verify_bench: {r['decisions']} decisions on {r['files_anchored']} files recorded at "
            f"{r['base'][:12]} (HEAD~{r['jump']}), checked at {r['head'][:12]}; "
            f"{r['files_changed_since_base']} anchored files changed; statuses {r['statuses_at_head']}; "
            f"embedding {r['embedding']}; median of {r['repeat']}")
    rows = [
        ("cold check (Ledger.check, empty caches)", t["cold_check"],
         f"{r['cold_parses']} parses, median of {r['cold_runs']}"),
        ("cold verification only (Verifier.verdicts)", t["cold_verify"], f"median of {r['cold_runs']}"),
        ("parse floor: tree-sitter on the changed anchored files", t["parse_floor"],
         f"{r['files_changed_parsed']} files, {r['lines_changed_files']:,} lines"),
        ("warm check", t["warm_check"], ""),
        ("warm verification only", t["warm_verify"], ""),
        ("disk-warm check (new ledger, .memvet/cache populated)", t["disk_warm_check"], ""),
        ("naive: re-parse the file for every decision", t["naive_reparse"], f"agrees {r['naive_agreement']}"),
        (f"warm recall k={r['k']} (verification included)", t["recall_warm"], ""),
        (f"plain Chroma query k={r['k']} (same store)", t["plain_query"], ""),
        ("warm recall, query vector precomputed", t["recall_warm_no_embed"], ""),
        ("plain Chroma query, query vector precomputed", t["plain_query_no_embed"], ""),
    ]
    ratios = [
        ("warm recall / plain query", x["recall_vs_plain"], "target <= 1.2"),
        ("warm recall / plain query (no embedding)", x["recall_vs_plain_no_embed"], ""),
        ("naive / cold verification", x["naive_vs_cold_verify"], ""),
        ("cold verification / parse floor", x["cold_verify_vs_parse_floor"], ""),
        ("naive / warm verification", x["naive_vs_warm_verify"], "target >= 20"),
        ("naive / warm check", x["naive_vs_warm_check"], ""),
    ]
    parts = [head, _bench.table(["measure", "ms", "note"], rows), _bench.table(["ratio", "x", "target"], ratios)]
    spread = r["cold_samples"]
    if len(spread) > 1:
        within = sum(1 for c in spread if c["cold_verify_ms"] <= 50.0)
        cold = [c["cold_verify_ms"] for c in spread]
        parts.append(
            f"cold verification over {len(spread)} samples of {r['decisions']} decisions: median "
            f"{_bench.fmt(_bench.median(cold))} ms, max {_bench.fmt(max(cold))} ms, {within} within 50 ms"
        )
        parts.append(_bench.table(
            ["seed", "files changed", "their lines", "parse floor ms", "cold verification ms"],
            [(c["seed"], c["files_changed"], f"{c['lines_changed_files']:,}", c["parse_floor_ms"],
              c["cold_verify_ms"]) for c in spread],
        ))
    parts.append(f"command: {r['command']}")
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = _bench.arg_parser(__doc__)
    parser.add_argument("--repo", default=".", help="any local git repository (default: .)")
    parser.add_argument("--jump", type=int, default=500, help="record at HEAD~N (default 500)")
    parser.add_argument("--decisions", type=int, default=10, help="decisions to record (default 10)")
    parser.add_argument("--embedding", choices=("minilm", "hashing"), default="minilm",
                        help="embedding model (default minilm, the library default)")
    parser.add_argument("--repeat", type=int, default=20, help="repetitions of warm measurements")
    parser.add_argument("-k", type=int, default=5, help="recall size (default 5)")
    parser.add_argument("--per-file", type=int, default=1, help="at most this many decisions per file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=1,
                        help="measure cold verification on this many samples of symbols (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    result = measure(args.repo, args.jump, args.decisions, args.embedding, args.repeat, args.k,
                     args.seed, args.per_file, args.samples)
    _bench.emit(result, args.json, render)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
