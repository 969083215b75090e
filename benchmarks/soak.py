#!/usr/bin/env python
"""Resident memory of ``memvet mcp`` serving recalls while another process writes (issue 31).

Builds a small git repository and a ledger in a temporary folder, starts
``python -m memvet --repo REPO --ledger DIR mcp`` (stdio, connected with the
MCP SDK's ``ClientSession``), and a second process that records decisions
through the library. Each round, the writer process records one decision
(waited for), then the server serves one ``memvet_recall``: a reader whose
ledger changed since its last read, every time. The resident set size
(RSS) of the server process is read every ``--sample-every`` rounds
(psutil when installed, else ``/proc/<pid>/status``); the report sets the
RSS after the warm-up (``--warmup`` rounds) against the RSS at the end.
Target: at most 20 % growth after the warm-up.

``--store local`` (default) keeps the ledger in an embedded Chroma folder,
the supported way for several processes on one machine: writers take the
folder's write lock in turn and every reader reloads its client after
another process wrote. ``--store server`` starts a ``chroma run`` and both
processes use it through ``HttpClient`` (a team's setup).

Example::

    python benchmarks/soak.py --rounds 2000
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bench

import memvet

#: The writer process: records one decision per line read from stdin and
#: prints its id (or the error) on one line.
_WRITER = textwrap.dedent('''
    import sys
    import memvet
    repo, ledger, server, namespace, embedding = sys.argv[1:6]
    options = {"server": server} if server else {"path": ledger}
    embedder = memvet.HashingEmbedder() if embedding == "hashing" else memvet.MiniLMEmbedder()
    led = memvet.Ledger.open(repo, namespace=namespace, embedding=embedder, disk_cache=False, **options)
    for line in sys.stdin:
        n = int(line)
        try:
            result = led.record(f"round {n}: the soak writer decided item {n} of batch {n % 97} "
                                f"is kept in store {n % 13}", author="soak")
            print(result.id, flush=True)
        except memvet.MemvetError as exc:
            print(f"error {type(exc).__name__}: {exc}", flush=True)
''')


#: ``--repo`` is accepted like every benchmark's, and unused.
_REPO_HELP = "ignored: the soak builds a small repository of its own"


def rss_mib(pid: int) -> float:
    """Resident set size of a process, MiB."""
    try:
        import psutil
    except ImportError:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise SystemExit(f"no VmRSS for process {pid}") from None
    return float(psutil.Process(pid).memory_info().rss) / 2**20


def _child(marker: str) -> int:
    """The pid of this process's child whose command line holds ``marker``."""
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == me and marker in cmdline:
            return int(entry.name)
    raise SystemExit(f"no child process running {marker!r}")


def _repo(folder: Path) -> Path:
    repo = folder / "repo"
    (repo / "app").mkdir(parents=True)
    (repo / "app" / "store.py").write_text("class Store:\n    def save(self, item):\n        return item\n")
    _bench.git(repo, "init", "-q", "-b", "main")
    _bench.git(repo, "add", "-A")
    _bench.git(repo, "commit", "-q", "-m", "start", env={**os.environ, **_bench.GIT_ENV})
    return repo


def _env(embedding: str) -> dict[str, str]:
    """Both children import the same ``memvet`` and ``memvet_mcp`` as this process."""
    import memvet_mcp

    roots = [str(Path(memvet.__file__).resolve().parents[1]), str(Path(memvet_mcp.__file__).resolve().parents[1])]
    inherited = os.environ.get("PYTHONPATH", "")
    path = os.pathsep.join(dict.fromkeys(roots + ([inherited] if inherited else [])))
    return {**os.environ, "PYTHONPATH": path, "MEMVET_EMBEDDING": embedding, "ORT_DISABLE_TELEMETRY": "1",
            "ANONYMIZED_TELEMETRY": "False"}


async def _soak(repo: Path, home: Path, server: str, rounds: int, warmup: int, every: int, k: int,
                embedding: str) -> dict[str, Any]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    namespace = "soak"
    env = _env(embedding)
    where = ["--server", server] if server else ["--ledger", str(home / "ledger")]
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "memvet", "--repo", str(repo), *where, "--namespace", namespace,
                                         "mcp"], env=env, cwd=str(home))
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(repo), str(home / "ledger"), server, namespace,
                               embedding], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                              cwd=str(home))
    assert writer.stdin is not None and writer.stdout is not None
    samples: list[dict[str, float]] = []
    write_s: list[float] = []
    recall_s: list[float] = []
    errors = 0
    try:
        with open(home / "server.log", "w", encoding="utf-8") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                pid = _child("mcp")
                started = time.perf_counter()
                for n in range(1, rounds + 1):
                    t0 = time.perf_counter()
                    with contextlib.suppress(BrokenPipeError):  # then the answer below is empty
                        writer.stdin.write(f"{n}\n")
                        writer.stdin.flush()
                    answer = writer.stdout.readline().strip()
                    if not answer or answer.startswith("error"):
                        raise SystemExit(f"the writer failed at round {n}: {answer or 'it exited'}")
                    t1 = time.perf_counter()
                    result = await session.call_tool("memvet_recall", {"query": f"item {n} of batch {n % 97}",
                                                                       "k": k})
                    write_s.append(t1 - t0)
                    recall_s.append(time.perf_counter() - t1)
                    errors += bool(result.is_error)
                    if n == 1 or n in (warmup, rounds) or n % every == 0:
                        samples.append({"round": n, "rss_mib": rss_mib(pid),
                                        "elapsed_s": time.perf_counter() - started})
                        print(f"round {n}: server RSS {samples[-1]['rss_mib']:.1f} MiB", file=sys.stderr,
                              flush=True)
    finally:
        with contextlib.suppress(BrokenPipeError):  # a writer that died is reported above
            writer.stdin.close()
        try:
            writer.wait(30)
        except subprocess.TimeoutExpired:
            writer.kill()
            writer.wait()
    after = next(s for s in samples if s["round"] >= min(warmup, rounds))
    end = samples[-1]
    growth = (end["rss_mib"] - after["rss_mib"]) / after["rss_mib"] * 100.0
    return {"samples": samples, "rss_first_mib": samples[0]["rss_mib"], "rss_after_warmup_mib": after["rss_mib"],
            "rss_end_mib": end["rss_mib"], "growth_after_warmup_pct": growth,
            "growth_le_20pct": growth <= 20.0, "recall_errors": errors,
            "write_ms_p50": _bench.ms(_bench.percentile(write_s, 50)),
            "recall_ms_p50": _bench.ms(_bench.percentile(recall_s, 50)),
            "recall_ms_p95": _bench.ms(_bench.percentile(recall_s, 95))}


def measure(rounds: int, warmup: int, every: int, k: int, embedding: str, store: str) -> dict[str, Any]:
    with _bench.TempDir("memvet-soak-") as home:
        repo = _repo(home)
        if store == "server":
            with _bench.chroma_server(home / "chroma") as url:
                out = asyncio.run(_soak(repo, home, url, rounds, warmup, every, k, embedding))
        else:
            out = asyncio.run(_soak(repo, home, "", rounds, warmup, every, k, embedding))
    return {"benchmark": "soak", "command": _bench.command_line(), "rounds": rounds, "warmup": warmup,
            "store": store, "embedding": embedding, "k": k, **out}


def render(r: dict[str, Any]) -> str:
    head = (f"soak: `memvet mcp` ({r['store']} ledger, {r['embedding']} embedding) serving one memvet_recall "
            f"(k={r['k']}) after each decision another process recorded, {r['rounds']} rounds")
    samples = _bench.table(["round", "server RSS MiB", "elapsed s"],
                           [(s["round"], s["rss_mib"], s["elapsed_s"]) for s in r["samples"]])
    summary = _bench.table(["measure", "value"], [
        ("RSS at round 1, MiB", r["rss_first_mib"]),
        (f"RSS after the warm-up (round {r['warmup']}), MiB", r["rss_after_warmup_mib"]),
        (f"RSS at the end (round {r['rounds']}), MiB", r["rss_end_mib"]),
        ("growth after the warm-up, %", r["growth_after_warmup_pct"]),
        ("write (another process) p50 ms", r["write_ms_p50"]),
        ("memvet_recall p50 / p95 ms", f"{_bench.fmt(r['recall_ms_p50'])} / {_bench.fmt(r['recall_ms_p95'])}"),
        ("recalls that failed", r["recall_errors"]),
    ])
    return "\n\n".join([head, samples, summary, f"growth <= 20 %: {r['growth_le_20pct']}",
                        f"command: {r['command']}"])


def main(argv: list[str] | None = None) -> int:
    parser = _bench.arg_parser(__doc__)
    parser.add_argument("--rounds", type=int, default=2000, help="write + recall rounds (default 2000)")
    parser.add_argument("--warmup", type=int, default=100, help="rounds before the baseline RSS (default 100)")
    parser.add_argument("--sample-every", type=int, default=100, help="read the RSS every N rounds (default 100)")
    parser.add_argument("-k", type=int, default=5, help="recall size (default 5)")
    parser.add_argument("--embedding", choices=("hashing", "minilm"), default="hashing",
                        help="both processes' embedding (default hashing)")
    parser.add_argument("--store", choices=("local", "server"), default="local",
                        help="an embedded ledger folder (default) or a `chroma run` server started here")
    parser.add_argument("--repo", default=None, help=_REPO_HELP)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.warmup < 1 or args.sample_every < 1:
        parser.error("--rounds, --warmup and --sample-every must be 1 or more")
    result = measure(args.rounds, args.warmup, args.sample_every, args.k, args.embedding, args.store)
    _bench.emit(result, args.json, render)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
