#!/usr/bin/env python
"""What the MCP server adds to a recall (issue 17): a ``memvet_recall`` round
trip over stdio against ``Ledger.recall`` in process, on the same ledger.

Records ``--decisions`` decisions anchored on real symbols of ``--repo`` at
``HEAD`` into a ledger in a temporary folder, starts ``python -m memvet
--repo REPO --ledger TMP mcp`` as a subprocess (the same code this script
imports), connects the MCP SDK's ``ClientSession`` over stdio, and then, in
one run, query by query, alternates:

* ``Ledger.recall`` in this process (embedding, vector query, verification
  against the working tree);
* the tool layer in this process (``MemvetTools.recall``: the same recall
  plus the framed text and the structured content), no protocol;
* ``memvet_recall`` over MCP: JSON-RPC over the pipes, the server's lock and
  worker thread, the same recall and rendering in the server process.

Both processes verify against the working tree and are warmed up first; the
three measurements of a query are taken in a rotating order. Then each side
runs alone, in a block of the same queries (``blocks_ms``): interleaved, the
other process's inference has just run (and its ONNX Runtime threads may
still be spinning on a shared core); in blocks, it has not. The ratio is the
median MCP round trip over the median in-process recall, from the same run.
With ``--embedding minilm`` (the default) embedding the query dominates both;
``--embedding hashing`` leaves mostly the protocol's own cost. Nothing is
written into the repository.

Example::

    python benchmarks/mcp_bench.py --repo . --decisions 50 --queries 20 --repeat 5
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bench

import memvet
from memvet._git import GitRepo


def _child_env(embedding: str) -> dict[str, str]:
    """The server imports the same ``memvet`` and ``memvet_mcp`` as this process."""
    import memvet_mcp

    roots = [str(Path(memvet.__file__).resolve().parents[1]), str(Path(memvet_mcp.__file__).resolve().parents[1])]
    inherited = os.environ.get("PYTHONPATH", "")
    path = os.pathsep.join(dict.fromkeys(roots + ([inherited] if inherited else [])))
    return {"PYTHONPATH": path, "MEMVET_EMBEDDING": embedding, "ORT_DISABLE_TELEMETRY": "1",
            "ANONYMIZED_TELEMETRY": "False"}


#: The three measurements of one query, in each order in turn.
_ORDERS = (("ledger", "tools", "mcp"), ("tools", "mcp", "ledger"), ("mcp", "ledger", "tools"))


def _pcts(values: list[float]) -> dict[str, float]:
    return {"p50": _bench.ms(_bench.percentile(values, 50)), "p95": _bench.ms(_bench.percentile(values, 95)),
            "n": len(values)}


async def _measure(root: Path, home: Path, led: memvet.Ledger, queries: list[str], k: int, repeat: int,
                   embedding: str) -> dict[str, Any]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from memvet_mcp import MemvetTools

    tools = MemvetTools(led)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memvet", "--repo", str(root), "--ledger", str(home), "--namespace", "bench", "mcp"],
        env=_child_env(embedding), cwd=str(home))
    started = time.perf_counter()
    with open(home / "server.log", "w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            startup = time.perf_counter() - started
            for q in queries:  # warm up both sides: the model, Chroma, the symbol caches
                led.recall(q, k=k)
                result = await session.call_tool("memvet_recall", {"query": q, "k": k})
                if result.is_error:
                    raise SystemExit(f"memvet_recall failed: {result.content}")
            ledger_t: list[float] = []
            tools_t: list[float] = []
            mcp_t: list[float] = []
            chars: list[int] = []
            same = 0
            for r in range(repeat):
                for j, q in enumerate(queries):
                    # Rotate which of the three goes first, so none always
                    # follows the server's work (two processes share the CPU).
                    for step in _ORDERS[(r * len(queries) + j) % len(_ORDERS)]:
                        if step == "ledger":
                            elapsed, local = _bench.timed(lambda: led.recall(q, k=k))
                            ledger_t.append(elapsed)
                        elif step == "tools":
                            tools_t.append(_bench.timed(lambda: tools.recall(q, k=k))[0])
                        else:
                            start = time.perf_counter()
                            remote = await session.call_tool("memvet_recall", {"query": q, "k": k})
                            mcp_t.append(time.perf_counter() - start)
                    chars.append(len(remote.content[0].text))  # type: ignore[union-attr]
                    # The same answer both ways, up to decisions with equal scores
                    # (which the vector index may return in either order).
                    got = sorted(round(i["score"], 4) for g in ("current", "caution", "history")
                                 for i in (remote.structured_content or {}).get(g, []))
                    same += got == sorted(round(i.score, 4) for i in local.items)
            # Then each side alone, in blocks: no inference of the other process
            # runs just before (ONNX Runtime's threads keep spinning for a
            # while after a run, which two processes on few cores feel).
            ledger_alone: list[float] = []
            mcp_alone: list[float] = []
            for _ in range(repeat):
                for q in queries:
                    ledger_alone.append(_bench.timed(lambda: led.recall(q, k=k))[0])
            for _ in range(repeat):
                for q in queries:
                    start = time.perf_counter()
                    await session.call_tool("memvet_recall", {"query": q, "k": k})
                    mcp_alone.append(time.perf_counter() - start)
    lr, tr, mr = _pcts(ledger_t), _pcts(tools_t), _pcts(mcp_t)
    la, ma = _pcts(ledger_alone), _pcts(mcp_alone)
    return {
        "startup_s": startup, "calls": len(mcp_t), "same_answers": f"{same}/{len(queries) * repeat}",
        "response_chars_p50": _bench.percentile([float(c) for c in chars], 50),
        "timings_ms": {"ledger_recall": lr, "tools_recall": tr, "mcp_recall": mr},
        "ratio_p50": mr["p50"] / lr["p50"], "ratio_p95": mr["p95"] / lr["p95"],
        "overhead_p50_ms": mr["p50"] - lr["p50"],
        "blocks_ms": {"ledger_recall": la, "mcp_recall": ma},
        "blocks_ratio_p50": ma["p50"] / la["p50"], "blocks_overhead_p50_ms": ma["p50"] - la["p50"],
    }


def measure(repo_path: str, n: int, embedding: str, n_queries: int, repeat: int, k: int,
            seed: int) -> dict[str, Any]:
    root = _bench.repo_root(repo_path)
    head = _bench.rev_parse(root, "HEAD")
    sampled = _bench.sample_symbols(GitRepo(root), head, n, seed=seed, per_file=2)
    if not sampled:
        raise SystemExit(f"no code symbols to anchor on in {root}")
    queries = [_bench.query_for(s, i) for i, s in enumerate(sampled)][:n_queries]
    with _bench.TempDir("memvet-mcp-bench-") as home:
        led = _bench.open_ledger(root, home, _bench.make_embedder(embedding))
        _bench.record_sampled(led, sampled, "HEAD")
        statuses: dict[str, int] = {}
        for v in led.check():
            statuses[v.status.value] = statuses.get(v.status.value, 0) + 1
        load = os.getloadavg()[0]
        run = asyncio.run(_measure(root, home, led, queries, k, repeat, embedding))
    return {"benchmark": "mcp_bench", "command": _bench.command_line(), "repo": str(root), "head": head,
            "decisions": len(sampled), "embedding": embedding, "k": k, "queries": len(queries),
            "repeat": repeat, "statuses": statuses, "cpus": os.cpu_count(), "load_1m": load, **run}


def render(r: dict[str, Any]) -> str:
    t = r["timings_ms"]
    head = (f"mcp_bench: {r['command']}\n{r['decisions']} decisions on {r['repo']} at {r['head'][:12]} "
            f"(statuses in the working tree {r['statuses']}); {r['cpus']} CPUs, load {r['load_1m']:.1f}; "
            f"embedding {r['embedding']}, k={r['k']}, "
            f"{r['calls']} calls ({r['queries']} queries x {r['repeat']}); server start to initialized "
            f"{r['startup_s']:.1f} s; same answers both ways {r['same_answers']}; answer p50 "
            f"{r['response_chars_p50']:.0f} characters")
    rows = [("Ledger.recall (in process)", t["ledger_recall"]["p50"], t["ledger_recall"]["p95"], 1.0),
            ("MemvetTools.recall (in process, framed text + structured)", t["tools_recall"]["p50"],
             t["tools_recall"]["p95"], t["tools_recall"]["p50"] / t["ledger_recall"]["p50"]),
            ("memvet_recall over MCP stdio (round trip)", t["mcp_recall"]["p50"], t["mcp_recall"]["p95"],
             r["ratio_p50"])]
    table = _bench.table(["recall, interleaved query by query", "p50 ms", "p95 ms", "p50 / Ledger.recall p50"],
                         rows)
    b = r["blocks_ms"]
    blocks = _bench.table(["recall, each side alone in a block", "p50 ms", "p95 ms", "p50 / Ledger.recall p50"],
                          [("Ledger.recall (in process)", b["ledger_recall"]["p50"], b["ledger_recall"]["p95"], 1.0),
                           ("memvet_recall over MCP stdio (round trip)", b["mcp_recall"]["p50"],
                            b["mcp_recall"]["p95"], r["blocks_ratio_p50"])])
    return (f"{head}\n\n{table}\n\n{blocks}\n\nMCP overhead at p50: {r['overhead_p50_ms']:.2f} ms per call "
            f"interleaved, {r['blocks_overhead_p50_ms']:.2f} ms in blocks")


def main(argv: list[str] | None = None) -> int:
    parser = _bench.arg_parser(__doc__)
    parser.add_argument("--repo", default=".", help="any local git repository (default: .)")
    parser.add_argument("--decisions", type=int, default=50, help="decisions to record (default 50)")
    parser.add_argument("--embedding", choices=("minilm", "hashing"), default="minilm",
                        help="embedding model, in both processes (default minilm, the library default)")
    parser.add_argument("--queries", type=int, default=20, help="distinct queries (default 20)")
    parser.add_argument("--repeat", type=int, default=5, help="rounds over the queries (default 5)")
    parser.add_argument("-k", type=int, default=5, help="recall size (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    result = measure(args.repo, args.decisions, args.embedding, args.queries, args.repeat, args.k, args.seed)
    _bench.emit(result, args.json, render)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
