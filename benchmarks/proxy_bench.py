#!/usr/bin/env python
"""What the team check of deploy/nginx.conf costs a MemVet read (issue 18).

Starts ``chroma run`` and two nginx proxies in front of it, in a temporary
folder: the shipped ``deploy/nginx.conf``, and the same file without its
``auth_request`` line (the path check alone, which lets a collection id of
another team through). Records ``--size`` decisions through the shipped
proxy, then times ``Ledger.get`` (one collection-id request) and
``Ledger.recall`` (k=5: a query, then reads by id) through each proxy,
alternating the two in every round so that both see the same machine.
Prints p50/p95 per proxy and their ratio. Needs nginx::

    python benchmarks/proxy_bench.py [--size 200] [--rounds 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

import memvet

ROOT = Path(__file__).resolve().parents[1]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(url: str, expect: int, proc: subprocess.Popen[bytes], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{proc.args[0]} exited with {proc.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code == expect:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{url} not ready after {timeout:g}s")


def _nginx(nginx: str, folder: Path, conf_text: str, chroma_port: int, token_map: str) -> tuple[str, Any]:
    for sub in ("logs", "tmp"):
        (folder / sub).mkdir(parents=True)
    port = _port()
    conf = folder / "nginx.conf"
    conf.write_text(conf_text.replace("listen 127.0.0.1:8001;", f"listen 127.0.0.1:{port};")
                    .replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{chroma_port};"))
    (folder / "memvet-tokens.map").write_text(token_map)
    proc = subprocess.Popen([nginx, "-p", str(folder), "-c", str(conf), "-g",
                             f"daemon off; pid {folder / 'nginx.pid'};"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    _wait(f"{url}/api/v2/heartbeat", 401, proc)
    return url, proc


def _claim(rng: random.Random) -> str:
    return "note " + " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7)) for _ in range(6))


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200, help="decisions recorded first")
    parser.add_argument("--rounds", type=int, default=300, help="timed reads per proxy and operation")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(nginx, os.X_OK):
        raise SystemExit("nginx is not installed (apt-get install -y nginx)")

    work = Path(tempfile.mkdtemp(prefix="memvet-proxy-bench-"))
    procs: list[Any] = []
    try:
        chroma_port = _port()
        chroma = subprocess.Popen([str(Path(sys.executable).with_name("chroma")), "run", "--path",
                                   str(work / "data"), "--host", "127.0.0.1", "--port", str(chroma_port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work,
                                  env={**os.environ, "ANONYMIZED_TELEMETRY": "False"})
        procs.append(chroma)
        _wait(f"http://127.0.0.1:{chroma_port}/api/v2/heartbeat", 200, chroma)
        httpx.post(f"http://127.0.0.1:{chroma_port}/api/v2/tenants/default_tenant/databases",
                   json={"name": "bench"}, timeout=10).raise_for_status()
        token = secrets.token_urlsafe(32)
        token_map = f'"Bearer {token}" bench;\n'
        shipped = (ROOT / "deploy" / "nginx.conf").read_text()
        path_only = shipped.replace("auth_request /_memvet_owner;", "")
        assert path_only != shipped
        urls = {}
        for name, text in (("shipped (team check)", shipped), ("path check only", path_only)):
            url, proc = _nginx(nginx, work / name.split()[0], text, chroma_port, token_map)
            procs.append(proc)
            urls[name] = url

        repo = work / "repo"
        repo.mkdir()
        (repo / "README.md").write_text("# Bench\n", encoding="utf-8")
        git = ["git", "-c", "user.name=Ada", "-c", "user.email=ada@example.com"]
        subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
        subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
        subprocess.run([*git, "commit", "-qm", "initial"], cwd=repo, check=True)
        ledgers = {name: memvet.Ledger.open(repo, server=url, token=token, namespace="bench",
                                            embedding=memvet.HashingEmbedder(), disk_cache=False)
                   for name, url in urls.items()}
        writer = next(iter(ledgers.values()))
        rng = random.Random(1)
        ids = [writer.record(_claim(rng)).id for _ in range(args.size)]
        times: dict[str, dict[str, list[float]]] = {name: {"get": [], "recall": []} for name in ledgers}
        for i in range(args.rounds + 20):
            order = list(ledgers.items()) if i % 2 else list(reversed(ledgers.items()))
            for name, ledger in order:
                started = time.perf_counter()
                ledger.get(ids[i % len(ids)])
                got = time.perf_counter() - started
                started = time.perf_counter()
                ledger.recall(_claim(rng), k=5)
                recalled = time.perf_counter() - started
                if i >= 20:  # the first rounds warm connections and caches
                    times[name]["get"].append(got)
                    times[name]["recall"].append(recalled)
        result = {
            "command": " ".join(["python", "benchmarks/proxy_bench.py", *sys.argv[1:]]),
            "size": args.size, "rounds": args.rounds,
            "proxies": {name: {op: {"p50_ms": _pct(v, 50), "p95_ms": _pct(v, 95)} for op, v in ops.items()}
                        for name, ops in times.items()},
        }
        base, checked = result["proxies"]["path check only"], result["proxies"]["shipped (team check)"]
        result["ratio_p50"] = {op: checked[op]["p50_ms"] / base[op]["p50_ms"] for op in ("get", "recall")}
        for ledger in ledgers.values():
            ledger.store.client.close()
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"`{result['command']}` ({args.size} decisions, {args.rounds} reads of each kind per proxy)\n")
    print("| proxy | get p50 (ms) | get p95 (ms) | recall p50 (ms) | recall p95 (ms) |")
    print("|---|---|---|---|---|")
    for name, ops in result["proxies"].items():
        print(f"| {name} | {ops['get']['p50_ms']:.2f} | {ops['get']['p95_ms']:.2f} | "
              f"{ops['recall']['p50_ms']:.2f} | {ops['recall']['p95_ms']:.2f} |")
    print(f"\nshipped / path check only, p50: get x{result['ratio_p50']['get']:.2f}, "
          f"recall x{result['ratio_p50']['recall']:.2f}")


if __name__ == "__main__":
    main()
