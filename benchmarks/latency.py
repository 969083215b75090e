#!/usr/bin/env python
"""Latency and scale of verify-on-read (issue 8, part 3).

Part A, on a real repository (``--repo``; decisions recorded at
``HEAD~--jump`` and read at ``HEAD``, the library's default MiniLM embedding):

* cold recall (a fresh ledger object, empty symbol caches) and warm recall,
  verification included, against a plain Chroma query of the same store,
  p50/p95 and the ratio of the medians, measured in the same run;
* batch ``check`` (cold and warm) against the naive baseline that re-parses
  the anchored file for every decision.

Part B, scale: the same ledger filled to each of ``--sizes`` decisions
(default 1k, 10k, 100k), each anchored on a real symbol of the repository,
then recall p50/p95 against the plain query, recall with a selective tag
filter (one decision in 2,000) and a broad one (every other decision)
against Chroma's own ``where`` query, insertion time, and peak memory
(``tracemalloc`` peak of Python allocations during the query loop, and the
process's maximum resident set size, which includes Chroma's native memory).
The scale part embeds with ``HashingEmbedder`` by default because embedding
100k claims with MiniLM takes minutes on a laptop CPU; ``--scale-embedding
minilm`` uses the real model.

Example::

    python benchmarks/latency.py --repo . --sizes 1000,10000,100000
"""

from __future__ import annotations

import random
import resource
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bench
import verify_bench

from memvet import _code, _codec
from memvet._git import GitRepo
from memvet._model import Decision, Lifecycle


def _pcts(values: list[float]) -> dict[str, float]:
    return {"p50": _bench.ms(_bench.percentile(values, 50)), "p95": _bench.ms(_bench.percentile(values, 95)),
            "n": len(values)}


def _interleaved(led: Any, queries: list[str], k: int, rounds: int) -> tuple[list[float], list[float]]:
    """Recall (verified) and the plain Chroma query, alternated query by query."""
    recall_t, plain_t = [], []
    for _ in range(rounds):
        for q in queries:
            recall_t.append(_bench.timed(lambda: led.recall(q, k=k, at="HEAD"))[0])
            plain_t.append(_bench.timed(lambda: led.store.decisions.query(
                query_embeddings=[led.embedder.embed_query(q)], n_results=k))[0])
    return recall_t, plain_t


def part_a(repo_path: str, jump: int, n: int, embedding: str, k: int, repeat: int, cold_runs: int,
           seed: int) -> dict[str, Any]:
    root = _bench.repo_root(repo_path)
    total = int(_bench.git(root, "rev-list", "--count", "--first-parent", "HEAD").strip())
    jump = max(0, min(jump, total - 1))
    bench = verify_bench.measure(str(root), jump, n, embedding, repeat, k, seed, per_file=2)

    head = _bench.rev_parse(root, "HEAD")
    base = _bench.rev_parse(root, f"HEAD~{jump}") if jump else head
    repo = GitRepo(root)
    sampled = _bench.sample_symbols(repo, base, n, seed=seed, per_file=2)
    queries = [_bench.query_for(s, i) for i, s in enumerate(sampled)]
    with _bench.TempDir("memvet-latency-") as home:
        emb = _bench.make_embedder(embedding)
        writer = _bench.open_ledger(root, home, emb)
        _bench.record_sampled(writer, sampled, base)
        for q in queries:  # load the model, warm Chroma
            writer.store.decisions.query(query_embeddings=[writer.embedder.embed_query(q)], n_results=k)
        cold_recall, cold_plain = [], []
        rng = random.Random(seed)
        for _ in range(cold_runs):
            fresh = _bench.cold_ledger(root, home, emb)
            q = rng.choice(queries)
            cold_recall.append(_bench.timed(lambda: fresh.recall(q, k=k, at="HEAD"))[0])
            cold_plain.append(_bench.timed(lambda: fresh.store.decisions.query(
                query_embeddings=[fresh.embedder.embed_query(q)], n_results=k))[0])
        warm = _bench.open_ledger(root, home, emb)
        for q in queries:
            warm.recall(q, k=k, at="HEAD")
        warm_recall, warm_plain = _interleaved(warm, queries, k, max(1, repeat // 4))
    cr, cp, wr, wp = _pcts(cold_recall), _pcts(cold_plain), _pcts(warm_recall), _pcts(warm_plain)
    return {
        "repo": str(root), "base": base, "head": head, "jump": jump, "decisions": bench["decisions"],
        "embedding": embedding, "k": k,
        "statuses_at_head": bench["statuses_at_head"],
        "files_changed_since_base": bench["files_changed_since_base"],
        "files_anchored": bench["files_anchored"],
        "recall": {
            "cold_recall": cr, "cold_plain": cp, "warm_recall": wr, "warm_plain": wp,
            "cold_ratio": cr["p50"] / cp["p50"], "warm_ratio": wr["p50"] / wp["p50"],
        },
        "check": {
            "cold_check_ms": bench["timings_ms"]["cold_check"],
            "cold_verify_ms": bench["timings_ms"]["cold_verify"],
            "warm_check_ms": bench["timings_ms"]["warm_check"],
            "warm_verify_ms": bench["timings_ms"]["warm_verify"],
            "naive_ms": bench["timings_ms"]["naive_reparse"],
            "cold_parses": bench["cold_parses"],
            "naive_vs_cold_check": bench["timings_ms"]["naive_reparse"] / bench["timings_ms"]["cold_check"],
            "naive_vs_warm_check": bench["ratios"]["naive_vs_warm_check"],
            "naive_vs_warm_verify": bench["ratios"]["naive_vs_warm_verify"],
        },
    }


_VERBS = ("owns", "guards", "caches", "validates", "serializes", "retries", "logs", "locks", "parses",
          "formats", "streams", "batches")
_TOPICS = ("orders", "sessions", "invoices", "tokens", "uploads", "reports", "users", "payments",
           "search", "exports", "metrics", "webhooks", "emails", "carts", "audits", "permissions")


def _claim(i: int, anchor_name: str) -> str:
    return (f"Decision {i}: {anchor_name} {_VERBS[i % len(_VERBS)]} {_TOPICS[(i // 7) % len(_TOPICS)]} "
            f"for tenant group {i % 97} and keeps {_TOPICS[(i // 3) % len(_TOPICS)]} consistent.")


#: One decision in RARE_EVERY carries the selective tag; every other one the broad tag.
RARE_EVERY = 2000


def _tags(i: int) -> tuple[str, ...]:
    return ("even",) + (("rare",) if i % RARE_EVERY == 0 else ()) if i % 2 == 0 else ("odd",)


def _filtered(led: Any, queries: list[str], k: int, size: int) -> dict[str, Any]:
    """Recall with a selective and a broad tag filter, against Chroma's own
    ``where`` query (the scan MemVet avoids) on the same store."""
    out = {}
    for name, tag, matching in (("selective", "rare", (size - 1) // RARE_EVERY + 1),
                                ("broad", "even", (size + 1) // 2)):
        for q in queries[:10]:  # warm-up
            led.recall(q, k=k, at="HEAD", tags=tag)
        recall_t = [_bench.timed(lambda: led.recall(q, k=k, at="HEAD", tags=tag))[0] for q in queries]
        got = led.recall(queries[0], k=k, at="HEAD", tags=tag)
        assert all(tag in i.verdict.decision.tags for i in got.items)
        where = {"tags": {"$contains": tag}}
        where_t = [_bench.timed(lambda: led.store.decisions.query(
            query_embeddings=[led.embedder.embed_query(q)], n_results=k, where=where))[0] for q in queries[:20]]
        out[name] = {"tag": tag, "matching": matching, "returned": len(got.items), "recall": _pcts(recall_t),
                     "chroma_where": _pcts(where_t)}
    return out


def part_b(repo_path: str, sizes: list[int], n_queries: int, k: int, embedding: str, seed: int,
           anchors_pool: int) -> dict[str, Any]:
    root = _bench.repo_root(repo_path)
    head = _bench.rev_parse(root, "HEAD")
    repo = GitRepo(root)
    sampled = _bench.sample_symbols(repo, head, anchors_pool, seed=seed, per_file=5)
    rows = []
    with _bench.TempDir("memvet-scale-") as home:
        led = _bench.open_ledger(root, home, _bench.make_embedder(embedding))
        pool = []
        for s in sampled:
            pool.extend(led.resolve_anchors([s.anchor], at="HEAD"))
        rng = random.Random(seed)
        queries = [f"who {_VERBS[rng.randrange(len(_VERBS))]} {_TOPICS[rng.randrange(len(_TOPICS))]} "
                   f"in tenant group {rng.randrange(97)}?" for _ in range(n_queries)]
        have = 0
        now = time.time()
        for size in sorted(sizes):
            insert_s = 0.0
            batch = 2000
            while have < size:
                m = min(batch, size - have)
                decisions = []
                for i in range(have, have + m):
                    a = pool[i % len(pool)]
                    decisions.append(Decision(
                        id=f"d{i:07d}", claim=_claim(i, a.name), anchors=(a,), lifecycle=Lifecycle.ACTIVE,
                        tags=_tags(i),
                        author="bench", created_at=now + i * 1e-3, commit=head,
                        hash_version=_code.HASH_VERSION, namespace=led.namespace,
                    ))
                def add() -> None:
                    vectors = led.embedder.embed_documents([d.claim for d in decisions])
                    led.store.decisions.add(ids=[d.id for d in decisions], documents=[d.claim for d in decisions],
                                            embeddings=vectors,
                                            metadatas=[_codec.decision_metadata(d) for d in decisions])
                insert_s += _bench.timed(add)[0]
                have += m
            for q in queries[:20]:  # warm-up
                led.recall(q, k=k, at="HEAD")
                led.store.decisions.query(query_embeddings=[led.embedder.embed_query(q)], n_results=k)
            recall_t, plain_t = _interleaved(led, queries, k, 1)
            check_s = _bench.timed(lambda: led.check(at="HEAD"))[0] if size <= 10000 else None
            tracemalloc.start()
            for q in queries[:50]:
                led.recall(q, k=k, at="HEAD")
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            filtered = _filtered(led, queries, k, size)
            rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            r, p = _pcts(recall_t), _pcts(plain_t)
            rows.append({
                "decisions": size, "insert_s": insert_s, "recall": r, "plain": p,
                "ratio_p50": r["p50"] / p["p50"],
                "full_check_s": check_s,
                "tracemalloc_peak_mib": peak / 2**20,
                "max_rss_mib": rss_kb / 1024,
                "filtered": filtered,
            })
    return {"repo": str(root), "head": head, "embedding": embedding, "k": k, "queries": n_queries,
            "anchor_pool": len(pool), "sizes": rows}


def render(r: dict[str, Any]) -> str:
    out = [f"latency: {r['command']}"]
    a = r.get("real_repo")
    if a:
        rc, ck = a["recall"], a["check"]
        out.append(
            f"Part A: {a['decisions']} decisions on {a['files_anchored']} files of {a['repo']} recorded at "
            f"{a['base'][:12]} (HEAD~{a['jump']}), read at {a['head'][:12]}; {a['files_changed_since_base']} "
            f"anchored files changed; statuses {a['statuses_at_head']}; embedding {a['embedding']}, k={a['k']}")
        out.append(_bench.table(
            ["read", "MemVet p50 ms", "MemVet p95 ms", "plain Chroma p50 ms", "plain p95 ms", "ratio (p50)"],
            [("cold recall (fresh ledger, empty caches)", rc["cold_recall"]["p50"], rc["cold_recall"]["p95"],
              rc["cold_plain"]["p50"], rc["cold_plain"]["p95"], rc["cold_ratio"]),
             ("warm recall", rc["warm_recall"]["p50"], rc["warm_recall"]["p95"], rc["warm_plain"]["p50"],
              rc["warm_plain"]["p95"], rc["warm_ratio"])]))
        out.append(_bench.table(
            ["batch check", "ms", "naive re-parse ms", "naive / batch"],
            [(f"cold check ({ck['cold_parses']} parses)", ck["cold_check_ms"], ck["naive_ms"],
              ck["naive_vs_cold_check"]),
             ("warm check", ck["warm_check_ms"], ck["naive_ms"], ck["naive_vs_warm_check"]),
             ("warm verification only", ck["warm_verify_ms"], ck["naive_ms"], ck["naive_vs_warm_verify"])]))
    b = r.get("scale")
    if b:
        out.append(f"Part B: scale, embedding {b['embedding']}, {b['queries']} queries, k={b['k']}, anchors "
                   f"drawn from {b['anchor_pool']} real symbols of {b['repo']} at {b['head'][:12]}")
        out.append(_bench.table(
            ["decisions", "recall p50 ms", "recall p95 ms", "plain p50 ms", "plain p95 ms", "ratio p50",
             "insert s", "full check s", "tracemalloc peak MiB", "max RSS MiB"],
            [(row["decisions"], row["recall"]["p50"], row["recall"]["p95"], row["plain"]["p50"],
              row["plain"]["p95"], row["ratio_p50"], row["insert_s"],
              "-" if row["full_check_s"] is None else row["full_check_s"], row["tracemalloc_peak_mib"],
              row["max_rss_mib"]) for row in b["sizes"]]))
        out.append(f"Filtered recall (k={b['k']}, verification included) against Chroma's own `where` query "
                   "(k results, no verification) on the same store:")
        out.append(_bench.table(
            ["decisions", "filter", "matching", "recall p50 ms", "recall p95 ms", "unfiltered recall p50 ms",
             "Chroma where p50 ms", "Chroma where p95 ms"],
            [(row["decisions"], f"{name} (tag {f['tag']})", f["matching"], f["recall"]["p50"],
              f["recall"]["p95"], row["recall"]["p50"], f["chroma_where"]["p50"], f["chroma_where"]["p95"])
             for row in b["sizes"] for name, f in row["filtered"].items()]))
    return "\n\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = _bench.arg_parser(__doc__)
    parser.add_argument("--repo", default=".", help="any local git repository (default: .)")
    parser.add_argument("--jump", type=int, default=50, help="part A records at HEAD~N (default 50)")
    parser.add_argument("--decisions", type=int, default=50, help="part A decisions (default 50)")
    parser.add_argument("--embedding", choices=("minilm", "hashing"), default="minilm",
                        help="part A embedding (default minilm)")
    parser.add_argument("--sizes", default="1000,10000,100000", help="part B store sizes, comma separated")
    parser.add_argument("--scale-embedding", choices=("minilm", "hashing"), default="hashing",
                        help="part B embedding (default hashing; see above)")
    parser.add_argument("--queries", type=int, default=200, help="part B queries per size")
    parser.add_argument("--anchors", type=int, default=200, help="part B pool of real symbols")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--cold-runs", type=int, default=5, help="fresh ledgers for cold recall")
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-real", action="store_true", help="skip part A")
    parser.add_argument("--skip-scale", action="store_true", help="skip part B")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    result: dict[str, Any] = {"benchmark": "latency", "command": _bench.command_line()}
    if not args.skip_real:
        result["real_repo"] = part_a(args.repo, args.jump, args.decisions, args.embedding, args.k,
                                     args.repeat, args.cold_runs, args.seed)
    if not args.skip_scale:
        result["scale"] = part_b(args.repo, sizes, args.queries, args.k, args.scale_embedding, args.seed,
                                 args.anchors)
    _bench.emit(result, args.json, render)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
