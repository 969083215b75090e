"""Shared helpers for the MemVet benchmarks (not part of the library).

Every benchmark script imports this module from its own folder, prints a
human table by default and one JSON document with ``--json``. Nothing here
writes to the repository under test: ledgers live in temporary folders and
any commit a benchmark needs is made in a temporary ``git clone``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import memvet
from memvet import _code
from memvet._git import GitRepo

#: Languages whose symbols are code (structured text is left out of samples).
CODE_LANGUAGES = ("python", "javascript", "typescript", "tsx", "go", "rust", "java")
#: Symbol kinds a decision is usually about.
SAMPLE_KINDS = ("function", "method", "class")

GIT_ENV = {
    "GIT_AUTHOR_NAME": "MemVet Bench",
    "GIT_AUTHOR_EMAIL": "bench@memvet.invalid",
    "GIT_COMMITTER_NAME": "MemVet Bench",
    "GIT_COMMITTER_EMAIL": "bench@memvet.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


# --------------------------------------------------------------------- output


def arg_parser(doc: str | None) -> argparse.ArgumentParser:
    """A parser whose help is the script's docstring: first paragraph, then the rest."""
    text = doc or ""
    first, _, rest = text.partition("\n\n")
    return argparse.ArgumentParser(description=first, epilog=rest,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def fmt(value: Any) -> str:
    """A table cell."""
    if isinstance(value, float):
        if value == 0:
            return "0"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}" if abs(value) >= 0.01 else f"{value:.4f}"
    return str(value)


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A Markdown table (readable in a terminal, pasteable into docs)."""
    cells = [[fmt(c) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    line = "| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    body = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in cells]
    return "\n".join([line, sep, *body])


def emit(result: dict[str, Any], as_json: bool, render: Callable[[dict[str, Any]], str]) -> None:
    """Print the result as JSON or as the human report."""
    if as_json:
        json.dump(result, sys.stdout, indent=2, sort_keys=False, default=str)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(result) + "\n")


def command_line() -> str:
    """The command that produced this run, for the report."""
    script = os.path.relpath(sys.argv[0]) if os.path.isabs(sys.argv[0]) else sys.argv[0]
    return " ".join(["python", script, *sys.argv[1:]])


# --------------------------------------------------------------------- timing


def ms(seconds: float) -> float:
    return seconds * 1000.0


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100.0 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


# --------------------------------------------------------------------- embeddings


def make_embedder(name: str) -> Any:
    """``minilm`` (the default local model) or ``hashing`` (fast, deterministic)."""
    if name == "minilm":
        return memvet.MiniLMEmbedder()
    if name == "hashing":
        return memvet.HashingEmbedder()
    raise SystemExit(f"unknown embedding {name!r}: use minilm or hashing")


class MemoEmbedder:
    """Wraps an embedder and remembers query vectors, so a timing loop can
    measure recall without the cost of embedding the query text."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self._memo: dict[str, list[float]] = {}

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        vec = self._memo.get(text)
        if vec is None:
            vec = self._memo[text] = self.inner.embed_query(text)
        return vec


# --------------------------------------------------------------------- git


def git(cwd: str | os.PathLike[str], *args: str, check: bool = True, env: dict[str, str] | None = None) -> str:
    """Run git in ``cwd`` and return stdout (commits get a fixed identity; ``env`` adds variables)."""
    env = {**os.environ, **GIT_ENV, **(env or {})}
    out = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if check and out.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed in {cwd}: {out.stderr.strip()}")
    return out.stdout


def rev_parse(repo: str | os.PathLike[str], rev: str) -> str:
    return git(repo, "rev-parse", "--verify", rev + "^{commit}").strip()


def repo_root(path: str | os.PathLike[str]) -> Path:
    return Path(git(path, "rev-parse", "--show-toplevel").strip())


def clone_to_temp(repo: str | os.PathLike[str], parent: str | os.PathLike[str]) -> Path:
    """A full local clone of ``repo`` under ``parent`` (the original is never touched)."""
    dest = Path(parent) / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", os.fspath(repo), os.fspath(dest)],
                   check=True, capture_output=True, text=True, env={**os.environ, **GIT_ENV})
    git(dest, "config", "user.name", GIT_ENV["GIT_AUTHOR_NAME"])
    git(dest, "config", "user.email", GIT_ENV["GIT_AUTHOR_EMAIL"])
    return dest


class TempDir:
    """A temporary folder removed on exit (kept with ``MEMVET_BENCH_KEEP=1``)."""

    def __init__(self, prefix: str) -> None:
        self.path = Path(tempfile.mkdtemp(prefix=prefix))

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc: object) -> None:
        if not os.environ.get("MEMVET_BENCH_KEEP"):
            shutil.rmtree(self.path, ignore_errors=True)


# --------------------------------------------------------------------- ledgers


def open_ledger(repo: str | os.PathLike[str], home: str | os.PathLike[str], embedding: Any,
                namespace: str = "bench", disk_cache: bool = True,
                parse_workers: int | None = None) -> memvet.Ledger:
    """A ledger whose store and symbol cache live in ``home`` (not in the repo);
    ``parse_workers`` as in :meth:`memvet.Ledger.open` (default: its default)."""
    return memvet.Ledger.open(repo, path=home, embedding=embedding, namespace=namespace,
                              disk_cache=disk_cache, parse_workers=parse_workers)


def cold_ledger(repo: str | os.PathLike[str], home: str | os.PathLike[str], embedding: Any) -> memvet.Ledger:
    """:func:`open_ledger` with its symbol cache emptied, on disk and (a new
    object) in memory: what a first check after a checkout sees."""
    shutil.rmtree(Path(home) / "cache", ignore_errors=True)
    return open_ledger(repo, home, embedding)


def record_sampled(ledger: memvet.Ledger, sampled: Sequence[Sampled], at: str) -> None:
    """One decision per sampled symbol, anchored on it, recorded at ``at``."""
    for i, s in enumerate(sampled):
        ledger.record(claim_for(s, i), [s.anchor], at=at)


# --------------------------------------------------------------------- sampling


@dataclass(frozen=True)
class Sampled:
    """A symbol picked for a decision."""

    path: str
    qualname: str
    kind: str
    language: str

    @property
    def anchor(self) -> str:
        return f"{self.path}::{self.qualname}"


def code_paths(repo: GitRepo, rev: str, *, under: str = "",
               languages: Sequence[str] = CODE_LANGUAGES) -> list[str]:
    """Code files of ``rev`` (optionally under a folder), sorted."""
    snap = repo.snapshot(rev)
    out = []
    for path in snap.paths():
        if under and not path.startswith(under.rstrip("/") + "/"):
            continue
        if _code.language_for_path(path) in languages:
            out.append(path)
    return out


def sample_symbols(repo: GitRepo, rev: str, n: int, *, seed: int = 0, per_file: int = 1,
                   paths: Sequence[str] | None = None, kinds: Sequence[str] = SAMPLE_KINDS,
                   max_bytes: int = 512 * 1024) -> list[Sampled]:
    """``n`` symbols of ``rev``, spread over files, chosen deterministically.

    Only uniquely named, error-free functions, methods and classes are taken
    (names with overload suffixes are left out), at most ``per_file`` per file.
    """
    rng = random.Random(seed)
    snap = repo.snapshot(rev)
    pool = list(paths) if paths is not None else code_paths(repo, rev)
    rng.shuffle(pool)
    picked: list[Sampled] = []
    for path in pool:
        if len(picked) >= n:
            break
        language = _code.language_for_path(path)
        data = snap.read(path)
        if language is None or data is None or len(data) > max_bytes or b"\x00" in data[:4096]:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        table_ = _code.symbol_table(data, language)
        names = [s for s in table_.symbols.values()
                 if s.kind in kinds and not s.has_error and "#" not in s.qualname and "(" not in s.qualname
                 and len(table_.lookup(s.qualname)) == 1 and s.end_line - s.start_line >= 2]
        rng.shuffle(names)
        for sym in names[:per_file]:
            picked.append(Sampled(path, sym.qualname, sym.kind, language))
    return picked[:n]


def claim_for(s: Sampled, i: int) -> str:
    """A plausible decision text about a symbol (varied so embeddings differ)."""
    leaf = s.qualname.rsplit(".", 1)[-1]
    topics = ("error handling", "caching", "the public contract", "performance", "thread safety",
              "input validation", "backwards compatibility", "logging", "configuration", "testing")
    topic = topics[i % len(topics)]
    # The counter is spelled in letters: a number in a claim is a code term
    # that the anchored code would have to contain.
    label = "".join("abcdefghijklmnopqrstuvwxyz"[int(d)] for d in str(i))
    return (f"Decision {label}: the {s.kind} {s.qualname} in {s.path} owns {topic}; "
            f"callers rely on how {leaf} behaves today, so change it only with a migration note.")


def query_for(s: Sampled, i: int) -> str:
    leaf = s.qualname.rsplit(".", 1)[-1]
    return f"what did we decide about {leaf} in {s.path.rsplit('/', 1)[-1]}?"


# --------------------------------------------------------------------- client kinds (issue 31)


#: The Chroma clients a ledger can be read through, as reported by the benchmarks.
CLIENT_KINDS = ("local", "ephemeral", "server")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def chroma_server(folder: str | os.PathLike[str], timeout: float = 90.0) -> Iterator[str]:
    """A real ``chroma run`` (the console script beside this Python) on
    loopback with its data in ``folder``, as tests/integration starts one;
    yields its URL and stops it after."""
    import httpx

    chroma = Path(sys.executable).with_name("chroma")
    port = free_port()
    Path(folder).mkdir(parents=True, exist_ok=True)
    log = Path(folder) / "chroma.log"
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    env.pop("PYTHONTRACEMALLOC", None)
    with log.open("wb") as out:
        proc = subprocess.Popen([str(chroma), "run", "--path", str(Path(folder) / "data"), "--host", "127.0.0.1",
                                 "--port", str(port)], stdout=out, stderr=subprocess.STDOUT, env=env, cwd=folder)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"chroma run exited with {proc.returncode}: {log.read_text(errors='replace')}")
            try:
                if httpx.get(f"{url}/api/v2/heartbeat", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"chroma run not ready after {timeout:g}s")
            time.sleep(0.2)
        yield url
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def copy_records(source: memvet.Ledger, target: memvet.Ledger, embedder: Any = None) -> int:
    """Every decision of ``source`` (id, claim, metadata and vector, as
    stored) into ``target``'s empty namespace, pinned to the same embedding:
    the same ledger behind another client, without recording it again.
    With ``embedder``, the vectors are made again from the claims (the
    stored documents) with it, and ``target`` is pinned to it instead."""
    got = source.store.decisions.get(include=["documents", "metadatas", "embeddings"])
    target.store.pin((embedder or source.embedder).name)
    for start in range(0, len(got["ids"]), 1000):
        end = start + 1000
        documents = list(got["documents"][start:end])
        vectors = (embedder.embed_documents(documents) if embedder is not None
                   else [list(v) for v in got["embeddings"][start:end]])
        target.store.decisions.add(ids=list(got["ids"][start:end]), documents=documents,
                                   metadatas=list(got["metadatas"][start:end]), embeddings=vectors)
    return len(got["ids"])


def warm_recall_vs_plain(led: memvet.Ledger, queries: Sequence[str], k: int, rounds: int) -> dict[str, float]:
    """Median ms of warm ``Ledger.recall`` (verification included) and of a
    plain Chroma query of the same collection through the same client,
    interleaved query by query, after one warm-up pass of each."""
    for q in queries:
        led.recall(q, k=k, at="HEAD")
        led.store.decisions.query(query_embeddings=[led.embedder.embed_query(q)], n_results=k)
    recall_t, plain_t = [], []
    for _ in range(rounds):
        for q in queries:
            recall_t.append(timed(lambda: led.recall(q, k=k, at="HEAD"))[0])
            plain_t.append(timed(lambda: led.store.decisions.query(
                query_embeddings=[led.embedder.embed_query(q)], n_results=k))[0])
    recall_ms, plain_ms = ms(median(recall_t)), ms(median(plain_t))
    return {"recall_warm": recall_ms, "plain_query": plain_ms, "recall_vs_plain": recall_ms / plain_ms,
            "n": len(recall_t)}


def recall_by_client(root: str | os.PathLike[str], source: memvet.Ledger, queries: Sequence[str], k: int,
                     rounds: int, kinds: Sequence[str] = CLIENT_KINDS) -> dict[str, dict[str, float]]:
    """Warm recall against a plain query (:func:`warm_recall_vs_plain`) for
    the same decisions behind each client kind, in one run: ``local``
    (``source`` itself, an embedded ``PersistentClient``), ``ephemeral``
    (an in-process ``EphemeralClient``) and ``server`` (a real ``chroma
    run`` started here, through ``HttpClient``). The copies get a namespace
    of their own; verification reads the same repository."""
    import uuid

    import chromadb

    from memvet import _chroma

    out: dict[str, dict[str, float]] = {}
    for kind in kinds:
        if kind == "local":
            out[kind] = warm_recall_vs_plain(source, queries, k, rounds)
            continue
        ns = f"bench-{kind}-{uuid.uuid4().hex[:8]}"
        if kind == "ephemeral":
            client = chromadb.EphemeralClient(settings=_chroma.settings())
            led = memvet.Ledger.open(root, client=client, namespace=ns, embedding=source.embedder, disk_cache=False)
            copy_records(source, led)
            out[kind] = warm_recall_vs_plain(led, queries, k, rounds)
            client.delete_collection(led.store.decisions.name)
            continue
        if kind != "server":
            raise SystemExit(f"unknown client kind {kind!r}; choose from {', '.join(CLIENT_KINDS)}")
        with TempDir("memvet-chroma-") as folder, chroma_server(folder) as url:
            led = memvet.Ledger.open(root, server=url, namespace=ns, embedding=source.embedder, disk_cache=False)
            copy_records(source, led)
            out[kind] = warm_recall_vs_plain(led, queries, k, rounds)
            led.store.client.close()
    return out
