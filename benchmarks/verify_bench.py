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

With ``--spread`` (issue 16) the decisions are spread one per file, so
deleted and moved symbols are among them, and every ledger is fresh and has
no disk cache: the report sets the cold check (``Ledger.check``, median of
fresh ledgers) against the parse floor (each changed anchored file parsed
once) and the naive re-parse of each decision's file, then does the same at
``--scale`` decisions (as many per file as it takes), where the cold check
should follow the number of distinct changed files, not of decisions. As a
control at the same changed files, the ``--scale`` ledger's verification
alone (records fetched first) is timed, in turn on fresh ledgers in this
process, for one decision per anchored file, for that and every decision
whose symbol left its file (moved or deleted: the move search must place
it), for every decision but those, and for all: what grows from the first
to the third grows with decisions whose symbol is in place, from the first
to the second with symbols to look for. Each spread configuration also
times two bounds: every changed anchored file parsed and hashed whole
(``whole_files_ms``: what checking every symbol of those files costs,
which no number of decisions on them needs to pass), and every decision
verified at the commit it was recorded at (``unchanged_check_ms``: no file
changed, so what a decision costs by itself). Warm recall is measured against
a plain Chroma query of the same collection, behind each client kind, with
``--embedding`` (default MiniLM, the library default) embedding the queries
of both: the records are copied into a ledger of their own with their claims
embedded again by it (with ``--embedding hashing``, the spread ledger itself).

Ratios are computed from figures measured in the same run. Nothing is written
into the repository: the ledger lives in a temporary folder.

Examples::

    python benchmarks/verify_bench.py --repo /tmp/sqlalchemy --jump 500 --decisions 10 --samples 10
    python benchmarks/verify_bench.py --repo /tmp/sqlalchemy --jump 500 --spread --scale 5000 --keep /tmp/memvet-bench

With ``--keep DIR`` the spread runs' ledgers are recorded once into ``DIR``
and reused by later runs of the same sample (recording 5,000 decisions
takes 14-18 minutes on two cores; the recording time is then reported as 0).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import sys
from collections.abc import Iterator
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


def changed_sources(repo: GitRepo, head: str, sampled: list[_bench.Sampled], changed: set[str]
                    ) -> list[tuple[bytes, str]]:
    """The text and language at ``head`` of each anchored file that changed."""
    snap = repo.snapshot(head)
    files = []
    for path, language in sorted({(s.path, s.language) for s in sampled if s.path in changed}):
        data = snap.read(path)
        if data is not None:
            files.append((data, language))
    return files


def parse_floor(files: list[tuple[bytes, str]], runs: int) -> dict[str, Any]:
    """Tree-sitter alone on ``files`` (see :func:`changed_sources`): files,
    lines, and the median seconds of parsing them all once."""
    seconds = _bench.median([_bench.timed(lambda: [parse(d, lang) for d, lang in files])[0]
                             for _ in range(runs)])
    return {"files": len(files), "lines": sum(d.count(b"\n") for d, _ in files), "seconds": seconds}


def whole_files(files: list[tuple[bytes, str]], runs: int) -> float:
    """Median seconds of parsing each file and hashing every symbol in it
    with one walk of the file (:meth:`memvet._code.CodeFile.table`): what
    checking every symbol of those files costs, however many decisions
    there are. A cold check's lookups in one file switch to this walk once
    their spans add up to the file (``CodeFile.symbol``), so in-place
    decisions on these files level off near it."""
    return _bench.median([_bench.timed(lambda: [_code.parse_file(d, lang).table() for d, lang in files])[0]
                          for _ in range(runs)])


def unchanged_check(root: Path, home: Path, emb: Any, base: str, runs: int) -> float:
    """Median seconds of verifying every decision at the commit it was
    recorded at, on fresh ledgers (records fetched first, untimed): no file
    changed, so this is the cost a decision adds by itself, without a
    parse."""
    times = []
    for _ in range(runs):
        led = _bench.open_ledger(root, home, emb, disk_cache=False, parse_workers=0)
        chosen, snap = led.decisions(), led.snapshot(base)
        times.append(_bench.timed(lambda: led.verdicts(chosen, snap))[0])
    return _bench.median(times)


def cold_sample(root: Path, repo: GitRepo, base: str, head: str, n_decisions: int, seed: int,
                per_file: int, changed: set[str], runs: int) -> dict[str, Any]:
    """Cold verification of one more sample of symbols (hashing embedding)."""
    sampled = _bench.sample_symbols(repo, base, n_decisions, seed=seed, per_file=per_file)
    with _bench.TempDir("memvet-verify-") as home:
        emb = _bench.make_embedder("hashing")
        _bench.record_sampled(_bench.open_ledger(root, home, emb), sampled, base)
        seconds, _, _, _ = cold_verification(root, home, emb, runs)
    floor = parse_floor(changed_sources(repo, head, sampled, changed), runs)
    return {"seed": seed, "decisions": len(sampled), "files_changed": floor["files"],
            "lines_changed_files": floor["lines"], "parse_floor_ms": _bench.ms(floor["seconds"]),
            "cold_verify_ms": _bench.ms(seconds)}


def recall_vs_plain(led: Any, other: Any, queries: list[str], k: int, repeat: int) -> dict[str, float]:
    """Median ms of warm ``Ledger.recall`` (verification included) and of a
    plain Chroma query of the same collection, interleaved query by query;
    then both again with the query vectors precomputed; then the recall
    again as the first one after a write, each against the plain query
    once more: a write by ``other`` (a second ledger object on the same
    folder, as another process would be: ``led`` reloads its client and
    reads its records again), then one by ``led`` itself. The write
    rewrites a decision's lifecycle as it was, under the write lock: the
    generation token changes, the ledger's content does not. The plain
    query beside each comes right after a write too and, after another's
    write, with the same reload of the client: a plain client reading what
    another process wrote must reopen it, or miss the new vectors."""
    for q in queries:  # warm-up: model loaded, symbol tables cached
        led.recall(q, k=k, at="HEAD")
        led.store.decisions.query(query_embeddings=[led.embedder.embed_query(q)], n_results=k)
    recall_t, plain_t = [], []
    for _ in range(repeat):
        for q in queries:
            recall_t.append(_bench.timed(lambda: led.recall(q, k=k, at="HEAD"))[0])
            plain_t.append(_bench.timed(lambda: led.store.decisions.query(
                query_embeddings=[led.embedder.embed_query(q)], n_results=k))[0])
    some = led.decisions()[: len(queries)]

    def after_writes(writer: Any) -> tuple[list[float], list[float]]:
        # Each read right after a write of its own, the plain query too: the
        # first query after a write also pays Chroma's own catching up.
        recall, plain = [], []
        for _ in range(repeat):
            for q, d in zip(queries, itertools.cycle(some), strict=False):
                with writer.store.writing():  # untimed: the write itself
                    writer.store.replace_decision(d)
                recall.append(_bench.timed(lambda: led.recall(q, k=k, at="HEAD"))[0])
                with writer.store.writing():
                    writer.store.replace_decision(d)

                def plain_query() -> None:
                    led.store._fresh()  # after another's write: the reload any client must make
                    led.store.decisions.query(query_embeddings=[led.embedder.embed_query(q)], n_results=k)

                plain.append(_bench.timed(plain_query)[0])
        return recall, plain

    first_t, first_plain_t = after_writes(other)
    own_t, own_plain_t = after_writes(led)
    inner = led.embedder
    led.embedder = _bench.MemoEmbedder(inner)
    try:
        for q in queries:
            led.embedder.embed_query(q)
        recall_ne, plain_ne = [], []
        for _ in range(repeat):
            for q in queries:
                recall_ne.append(_bench.timed(lambda: led.recall(q, k=k, at="HEAD"))[0])
                vec = led.embedder.embed_query(q)
                plain_ne.append(_bench.timed(lambda: led.store.decisions.query(
                    query_embeddings=[vec], n_results=k))[0])
    finally:
        led.embedder = inner
    return {"recall_warm": _bench.ms(_bench.median(recall_t)), "plain_query": _bench.ms(_bench.median(plain_t)),
            "recall_warm_no_embed": _bench.ms(_bench.median(recall_ne)),
            "plain_query_no_embed": _bench.ms(_bench.median(plain_ne)),
            "recall_first_after_write": _bench.ms(_bench.median(first_t)),
            "plain_query_beside_first": _bench.ms(_bench.median(first_plain_t)),
            "recall_after_own_write": _bench.ms(_bench.median(own_t)),
            "plain_query_beside_own": _bench.ms(_bench.median(own_plain_t))}


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
        floor = parse_floor(changed_sources(repo, head, sampled, changed_files), cold_runs)

        warm_check = [_bench.timed(lambda: cold.check(at="HEAD"))[0] for _ in range(repeat)]
        warm_verify = [_bench.timed(lambda: cold2.verifier.verdicts(fetched, snap))[0] for _ in range(repeat)]

        disk = _bench.open_ledger(root, home, emb)
        disk_check_s, _ = _bench.timed(lambda: disk.check(at="HEAD"))

        naive_runs = [naive_check(repo, head, decisions) for _ in range(max(1, min(repeat, 5)))]
        naive_s = _bench.median([t for t, _ in naive_runs])
        naive_states = naive_runs[0][1]

        recall = recall_vs_plain(cold, disk, [_bench.query_for(s, i) for i, s in enumerate(sampled)], k, repeat)

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
    recall_ms, plain_ms = recall["recall_warm"], recall["plain_query"]
    recall_ne_ms, plain_ne_ms = recall["recall_warm_no_embed"], recall["plain_query_no_embed"]
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
            "recall_first_after_write": recall["recall_first_after_write"],
            "plain_query_beside_first": recall["plain_query_beside_first"],
            "recall_after_own_write": recall["recall_after_own_write"],
            "plain_query_beside_own": recall["plain_query_beside_own"],
        },
        "ratios": {
            "recall_vs_plain": recall_ms / plain_ms,
            "recall_vs_plain_no_embed": recall_ne_ms / plain_ne_ms,
            "first_recall_vs_plain": recall["recall_first_after_write"] / recall["plain_query_beside_first"],
            "own_write_recall_vs_plain": recall["recall_after_own_write"] / recall["plain_query_beside_own"],
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


def spread_symbols(repo: GitRepo, rev: str, n: int, seed: int) -> list[_bench.Sampled]:
    """``n`` symbols over as many files as possible: one from each file (in a
    shuffled order), then a second from each, and so on; each file parsed once."""
    rng = random.Random(seed)
    snap = repo.snapshot(rev)
    pool = _bench.code_paths(repo, rev)
    rng.shuffle(pool)
    per_file: list[list[_bench.Sampled]] = []
    for path in pool:
        language = _code.language_for_path(path)
        data = snap.read(path)
        if language is None or data is None or len(data) > 512 * 1024 or b"\x00" in data[:4096]:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        table = _code.symbol_table(data, language)
        names = [_bench.Sampled(path, s.qualname, s.kind, language) for s in table.symbols.values()
                 if s.kind in _bench.SAMPLE_KINDS and not s.has_error and "#" not in s.qualname
                 and "(" not in s.qualname and len(table.lookup(s.qualname)) == 1
                 and s.end_line - s.start_line >= 2]
        rng.shuffle(names)
        if names:
            per_file.append(names)
    picked: list[_bench.Sampled] = []
    depth = 0
    while len(picked) < n and any(len(names) > depth for names in per_file):
        picked += [names[depth] for names in per_file if len(names) > depth][: n - len(picked)]
        depth += 1
    return picked


def fresh_check(root: Path, home: Path, emb: Any, runs: int, parse_workers: int = 0
                ) -> tuple[float, list[Any], Any]:
    """Median seconds of ``Ledger.check`` at HEAD on fresh ledgers without a
    disk cache (new repository handle, empty symbol caches), the verdicts
    and the last ledger."""
    times = []
    for _ in range(runs):
        led = _bench.open_ledger(root, home, emb, disk_cache=False, parse_workers=parse_workers)
        elapsed, verdicts = _bench.timed(lambda: led.check(at="HEAD"))
        times.append(elapsed)
    return _bench.median(times), verdicts, led


def same_files(root: Path, home: Path, emb: Any, runs: int, left: set[str]) -> dict[str, Any]:
    """Decisions per file at the same changed files, taken apart: the cold
    verification (records fetched first, untimed) of sets of the ledger's
    decisions, each on fresh ledgers, in turn: one per anchored file; that
    and every decision whose symbol left its file (``left``: a move or a
    deletion, which the move search must place); every decision but those;
    every decision. Between the first and the third, what grows is decisions
    on symbols still in place; between the first and the second, symbols to
    look for.

    The decisions in place are also added a quarter at a time
    (``in_place_steps``: one per file, without those that left; then a
    quarter, half, three quarters and all of the rest, in one fixed random
    order): a cost that follows the files levels off once each file is
    walked whole, one that follows the decisions does not."""
    arms = ("one_per_file", "one_per_file_and_left", "all_but_left", "all", *_STEPS)
    times: dict[str, list[float]] = {arm: [] for arm in arms}
    sizes: dict[str, int] = {}
    for _ in range(runs):
        for arm in arms:
            led = _bench.open_ledger(root, home, emb, disk_cache=False, parse_workers=0)
            chosen = _decision_set(arm, led.decisions(), left)
            snap = led.snapshot("HEAD")
            elapsed, _ = _bench.timed(lambda: led.verdicts(chosen, snap))  # the collector paused, as a check does
            times[arm].append(elapsed)
            sizes[arm] = len(chosen)
    out: dict[str, Any] = {"left": len(left)}
    for arm in arms:
        out[arm] = sizes[arm]
        out[f"{arm}_ms"] = _bench.ms(_bench.median(times[arm]))
    # What one more decision costs, by kind (differences of medians: noisy when small).
    base, ms = sizes["one_per_file"], out["one_per_file_ms"]
    out["ms_per_added_in_place"] = (out["all_but_left_ms"] - ms) / max(1, sizes["all_but_left"] - base)
    out["ms_per_added_left"] = (out["one_per_file_and_left_ms"] - ms) / max(1, sizes["one_per_file_and_left"] - base)
    steps = [{"decisions": sizes[arm], "ms": out[f"{arm}_ms"]} for arm in _STEPS]
    out["in_place_steps"] = steps
    for a, b in itertools.pairwise(steps):  # what each decision of a step added (noisy when few)
        b["ms_per_added"] = (b["ms"] - a["ms"]) / max(1, b["decisions"] - a["decisions"])
    return out


# The decisions in place, a quarter at a time (see same_files): the fraction of
# the in-place decisions beyond one per file that each set adds.
_STEPS = ("in_place_0", "in_place_25", "in_place_50", "in_place_75", "in_place_100")


def _decision_set(arm: str, everything: list[Any], left: set[str]) -> list[Any]:
    """One set of :func:`same_files`, by its name."""
    if arm.startswith("in_place_"):
        in_place = [d for d in everything if d.id not in left]
        first_in_place = _first_per_file(in_place)
        chosen = {d.id for d in first_in_place.values()}
        rest = [d for d in in_place if d.id not in chosen]
        random.Random(0).shuffle(rest)
        return list(first_in_place.values()) + rest[: len(rest) * int(arm.rsplit("_", 1)[1]) // 100]
    if arm == "all":
        return everything
    if arm == "all_but_left":
        return [d for d in everything if d.id not in left]
    first = _first_per_file(everything)
    if arm == "one_per_file":
        return list(first.values())
    # one_per_file_and_left: a decision that left its file may be its file's first already
    return list(first.values()) + [d for d in everything if d.id in left and first[d.anchors[0].path] is not d]


def _first_per_file(decisions: list[Any]) -> dict[str, Any]:
    """The first of ``decisions`` anchored in each file, by path."""
    first: dict[str, Any] = {}
    for d in decisions:
        first.setdefault(d.anchors[0].path, d)
    return first


def _recorded_home(keep: Path | None, base: str, n: int, seed: int) -> Any:
    """Where a spread run's ledger lives: a temporary folder, or with
    ``--keep`` a folder under it named for the sample, reused by later runs
    (recording 5,000 decisions takes 14-18 minutes)."""
    if keep is None:
        return _bench.TempDir("memvet-spread-")
    path = keep / f"spread-{base[:12]}-{n}-seed{seed}"
    path.mkdir(parents=True, exist_ok=True)
    return contextlib.nullcontext(path)


@contextlib.contextmanager
def recall_ledgers(root: Path, home: Path, led: Any, emb: Any, embedding: str) -> Iterator[tuple[Any, Any]]:
    """The ledger warm recall is measured on, and a second ledger object on
    the same folder (the other process of :func:`recall_vs_plain`). With the
    hashing embedding (the spread ledger's own): ``led`` itself. With
    another: ``led``'s records copied into a temporary folder, their claims
    embedded again with it, so that the recall and the plain query beside it
    embed each query with that embedding."""
    if embedding == "hashing":
        yield led, _bench.open_ledger(root, home, emb, disk_cache=False)
        return
    query_emb = _bench.make_embedder(embedding)
    with _bench.TempDir("memvet-recall-") as folder:
        copy = _bench.open_ledger(root, folder, query_emb, disk_cache=False, parse_workers=0)  # as ``led``
        _bench.copy_records(led, copy, embedder=query_emb)
        yield copy, _bench.open_ledger(root, folder, query_emb, disk_cache=False)


def spread_run(root: Path, repo: GitRepo, base: str, head: str, n: int, seed: int, changed: set[str],
               runs: int, naive_runs: int, recall: tuple[int, int] | None = None,
               keep: Path | None = None, clients: tuple[str, ...] = (), embedding: str = "hashing"
               ) -> dict[str, Any]:
    """One spread configuration: record ``n`` spread decisions at ``base``
    (hashing embedding; with ``keep``, once), then cold check, parse floor
    and naive at ``head``; with ``recall``, warm recall against a plain
    query with ``embedding`` (see :func:`recall_ledgers`)."""
    sampled = spread_symbols(repo, base, n, seed)
    with _recorded_home(keep, base, n, seed) as home:
        emb = _bench.make_embedder("hashing")
        writer = _bench.open_ledger(root, home, emb, disk_cache=False)
        decisions = writer.decisions()
        record_s = 0.0
        if len(decisions) != len(sampled):
            if decisions:
                raise SystemExit(f"{home} holds {len(decisions)} decisions, not {len(sampled)}: remove it")
            record_s, _ = _bench.timed(lambda: _bench.record_sampled(writer, sampled, base))
            decisions = writer.decisions()
        cold_s, verdicts, led = fresh_check(root, home, emb, runs)  # this process only
        parses = led.evidence.cache.parses
        workers = _code.default_workers()
        shared_s, shared_verdicts, _ = fresh_check(root, home, emb, runs, workers) if workers else (0.0, [], None)
        same_with_helpers = [(v.decision.id, v.status, v.reason) for v in shared_verdicts] == [
            (v.decision.id, v.status, v.reason) for v in verdicts] if workers else True
        sources = changed_sources(repo, head, sampled, changed)
        floor = parse_floor(sources, runs)
        whole_s = whole_files(sources, runs)
        unchanged_s = unchanged_check(root, home, emb, base, runs)
        naive = [naive_check(repo, head, decisions) for _ in range(naive_runs)]
        naive_s = _bench.median([t for t, _ in naive])
        warm_s = _bench.median([_bench.timed(lambda: led.check(at="HEAD"))[0] for _ in range(runs)])
        left = {v.decision.id for v in verdicts
                if any(c.result.value in ("moved", "missing") and c.anchor.kind.value == "symbol" for c in v.checks)}
        control = same_files(root, home, emb, runs, left) if recall is None else None
        timings = None
        if recall is not None:
            k, repeat = recall
            queries = [_bench.query_for(s, i) for i, s in enumerate(sampled)][:50]
            with recall_ledgers(root, home, led, emb, embedding) as (recall_led, other):
                timings = recall_vs_plain(recall_led, other, queries, k, repeat)
                # The same records behind each client kind (issue 31), in this run.
                by_client = (_bench.recall_by_client(root, recall_led, queries, k, repeat, clients)
                             if clients else {})
    statuses: dict[str, int] = {}
    for v in verdicts:
        statuses[v.status.value] = statuses.get(v.status.value, 0) + 1
    memvet_state = {v.decision.id: v.status.value for v in verdicts}
    agree = sum(1 for i, st in naive[0][1].items() if (st == "holds") == (memvet_state.get(i) == "verified"))
    moved = [c.detail for v in verdicts for c in v.checks if c.result.value == "moved"]
    out: dict[str, Any] = {
        "decisions": len(decisions),
        "files_anchored": len({s.path for s in sampled}),
        "files_changed": floor["files"],
        "lines_changed_files": floor["lines"],
        "statuses": statuses,
        "moves": moved,
        "record_ms_total": _bench.ms(record_s),
        "cold_parses": parses,
        "cold_check_ms": _bench.ms(cold_s),
        "parse_workers": workers,
        "cold_check_helpers_ms": _bench.ms(shared_s),
        "cold_helpers_vs_floor": shared_s / floor["seconds"] if floor["seconds"] and workers else 0.0,
        "naive_vs_cold_helpers": naive_s / shared_s if shared_s else 0.0,
        "same_verdicts_with_helpers": same_with_helpers,
        "parse_floor_ms": _bench.ms(floor["seconds"]),
        "whole_files_ms": _bench.ms(whole_s),
        "cold_vs_whole_files": cold_s / whole_s if whole_s else 0.0,
        "unchanged_check_ms": _bench.ms(unchanged_s),
        "unchanged_us_per_decision": unchanged_s * 1e6 / max(1, len(decisions)),
        "naive_ms": _bench.ms(naive_s),
        "warm_check_ms": _bench.ms(warm_s),
        "cold_vs_floor": cold_s / floor["seconds"] if floor["seconds"] else 0.0,
        "naive_vs_cold": naive_s / cold_s,
        "cold_ms_per_changed_file": _bench.ms(cold_s) / max(1, floor["files"]),
        "cold_ms_per_decision": _bench.ms(cold_s) / max(1, len(decisions)),
        "naive_agreement": f"{agree}/{len(naive[0][1])}",
    }
    if control is not None:
        out["same_files"] = control
    if timings is not None:
        out["recall_by_client"] = by_client
        out["recall"] = {**timings, "k": recall[0] if recall else 0, "embedding": embedding,
                         "recall_vs_plain": timings["recall_warm"] / timings["plain_query"],
                         "recall_vs_plain_no_embed": timings["recall_warm_no_embed"] / timings["plain_query_no_embed"],
                         "first_recall_vs_plain": (timings["recall_first_after_write"]
                                                   / timings["plain_query_beside_first"]),
                         "own_write_recall_vs_plain": (timings["recall_after_own_write"]
                                                       / timings["plain_query_beside_own"])}
    return out


def _progress(row: dict[str, Any]) -> None:
    """One finished configuration on stderr, as JSON (a long run's partial result)."""
    print(json.dumps({k: v for k, v in row.items() if k != "moves"}), file=sys.stderr, flush=True)


def measure_spread(repo_path: str, jump: int, n_decisions: int, scale: int, repeat: int, k: int,
                   seed: int, keep: Path | None = None,
                   clients: tuple[str, ...] = _bench.CLIENT_KINDS, embedding: str = "minilm") -> dict[str, Any]:
    """The issue-16 configuration (see the module docstring)."""
    root = _bench.repo_root(repo_path)
    head = _bench.rev_parse(root, "HEAD")
    base = _bench.rev_parse(root, f"HEAD~{jump}") if jump else head
    repo = GitRepo(root)
    changed = set(_bench.git(root, "diff", "--name-only", base, head).splitlines())
    runs = max(1, min(repeat, 5))
    rows = [spread_run(root, repo, base, head, n_decisions, seed, changed, runs, runs, recall=(k, repeat),
                       keep=keep, clients=clients, embedding=embedding)]
    _progress(rows[-1])
    if scale:
        rows.append(spread_run(root, repo, base, head, scale, seed, changed, max(1, min(runs, 3)), 1, keep=keep))
        _progress(rows[-1])
    first = rows[0]
    targets: dict[str, Any] = {
        "cold_le_2x_floor": first["cold_vs_floor"] <= 2.0,
        "naive_ge_3x_cold": first["naive_vs_cold"] >= 3.0,
        "with_helpers_cold_le_2x_floor": bool(first["parse_workers"]) and first["cold_helpers_vs_floor"] <= 2.0,
        "with_helpers_naive_ge_3x_cold": bool(first["parse_workers"]) and first["naive_vs_cold_helpers"] >= 3.0,
        "recall_le_1.2x_plain": first["recall"]["recall_vs_plain"] <= 1.2,
        # Issue 31: with default settings (parse helpers when the machine has a core for one).
        "cold_default_le_1.5x_floor": (first["cold_helpers_vs_floor"] if first["parse_workers"]
                                       else first["cold_vs_floor"]) <= 1.5,
        **{f"recall_le_1.2x_plain_{kind}": row["recall_vs_plain"] <= 1.2
           for kind, row in first["recall_by_client"].items()},
    }
    if scale:
        big = rows[1]
        # Growing with changed files, not decisions: the cold check per
        # changed file stays about the same while decisions per changed file grow.
        targets["cold_per_changed_file_ratio"] = (big["cold_ms_per_changed_file"]
                                                  / first["cold_ms_per_changed_file"])
        targets["decisions_ratio"] = big["decisions"] / first["decisions"]
        targets["changed_files_ratio"] = big["files_changed"] / max(1, first["files_changed"])
        targets["cold_ratio"] = big["cold_check_ms"] / first["cold_check_ms"]
        # Bounded by what the files cost: the decisions in place on the
        # changed files (the control of every scale row), against hashing
        # those files whole.
        in_place = big["same_files"]["all_but_left_ms"] / max(1e-9, big["whole_files_ms"])
        targets["in_place_vs_whole_files"] = in_place
        targets["in_place_within_whole_files"] = in_place <= 1.0
    return {"benchmark": "verify_bench", "mode": "spread", "command": _bench.command_line(),
            "repo": str(root), "base": base, "head": head, "jump": jump, "seed": seed, "repeat": repeat,
            "recall_embedding": embedding, "cold_runs": runs, "rows": rows, "targets": targets}


def render_spread(r: dict[str, Any]) -> str:
    head = (f"verify_bench --spread: decisions spread over files, recorded at {r['base'][:12]} "
            f"(HEAD~{r['jump']}), checked at {r['head'][:12]}; fresh ledgers without a disk cache; "
            f"recorded with the hashing embedding; warm recall (every client) with the "
            f"{r['recall_embedding']} embedding; cold figures median of {r['cold_runs']}")
    rows = [(row["decisions"], row["files_anchored"], row["files_changed"], f"{row['lines_changed_files']:,}",
             row["cold_check_ms"], row["parse_floor_ms"], row["naive_ms"], row["warm_check_ms"],
             row["cold_vs_floor"], row["naive_vs_cold"], row["cold_ms_per_changed_file"], row["cold_parses"],
             row["naive_agreement"])
            for row in r["rows"]]
    parts = [head, _bench.table(
        ["decisions", "files", "changed files", "their lines", "cold check ms", "parse floor ms", "naive ms",
         "warm check ms", "cold / floor", "naive / cold", "cold ms per changed file", "parses",
         "agrees with naive"], rows)]
    for row in r["rows"]:
        recorded = (f"recorded in {_bench.fmt(row['record_ms_total'] / 1000)} s" if row["record_ms_total"]
                    else "ledger reused from --keep")
        parts.append(f"{row['decisions']} decisions: statuses {row['statuses']}; {recorded}; "
                     f"{len(row['moves'])} moves reported")
        if row["parse_workers"]:
            parts.append(f"{row['decisions']} decisions, cold check with {row['parse_workers']} parse helper(s) "
                         f"besides this process: {_bench.fmt(row['cold_check_helpers_ms'])} ms = "
                         f"{_bench.fmt(row['cold_helpers_vs_floor'])}x the parse floor, naive / cold "
                         f"{_bench.fmt(row['naive_vs_cold_helpers'])}x; same verdicts as without: "
                         f"{row['same_verdicts_with_helpers']}")
    rec = r["rows"][0]["recall"]
    by_client = r["rows"][0].get("recall_by_client") or {}
    if by_client:
        parts.append(f"Warm recall by client kind, {r['recall_embedding']} embedding for the queries of both "
                     "(same records, interleaved with a plain Chroma query through "
                     "the same client; server: a `chroma run` started by this run):\n" + _bench.table(
                         ["client", "warm recall ms", "plain query ms", "recall / plain", "target"],
                         [(kind, c["recall_warm"], c["plain_query"], c["recall_vs_plain"], "<= 1.2")
                          for kind, c in by_client.items()]))
    parts.append(f"Warm recall, local client, {r['recall_embedding']} embedding:\n" + _bench.table(["measure", "ms"], [
        (f"warm recall k={rec['k']} (verification included)", rec["recall_warm"]),
        (f"plain Chroma query k={rec['k']} (same collection)", rec["plain_query"]),
        ("warm recall, query vector precomputed", rec["recall_warm_no_embed"]),
        ("plain Chroma query, query vector precomputed", rec["plain_query_no_embed"]),
        ("warm recall / plain query", rec["recall_vs_plain"]),
        ("warm recall / plain query (no embedding)", rec["recall_vs_plain_no_embed"]),
        ("first recall after another process's write (client reloaded, records read)",
         rec["recall_first_after_write"]),
        ("plain Chroma query, timed beside it", rec["plain_query_beside_first"]),
        ("first recall after another process's write / plain query", rec["first_recall_vs_plain"]),
        ("first recall after this process's own write", rec["recall_after_own_write"]),
        ("plain Chroma query, timed beside it", rec["plain_query_beside_own"]),
        ("first recall after its own write / plain query", rec["own_write_recall_vs_plain"]),
    ]))
    t = r["targets"]
    lines = [f"cold check <= 2x parse floor: {t['cold_le_2x_floor']} (with parse helpers: "
             f"{t['with_helpers_cold_le_2x_floor']})",
             f"naive >= 3x cold check: {t['naive_ge_3x_cold']} (with parse helpers: "
             f"{t['with_helpers_naive_ge_3x_cold']})",
             f"warm recall <= 1.2x plain query: {t['recall_le_1.2x_plain']}",
             f"cold check with default settings <= 1.5x parse floor: {t['cold_default_le_1.5x_floor']}"]
    lines += [f"warm recall <= 1.2x plain query, {kind} client: {t[f'recall_le_1.2x_plain_{kind}']}"
              for kind in r["rows"][0].get("recall_by_client") or {}]
    for row in r["rows"]:
        lines.append(f"{row['decisions']} decisions: every changed anchored file parsed and hashed whole "
                     f"{_bench.fmt(row['whole_files_ms'])} ms (cold check / that "
                     f"{_bench.fmt(row['cold_vs_whole_files'])}x); every decision verified where no file "
                     f"changed (at the recorded commit) {_bench.fmt(row['unchanged_check_ms'])} ms, "
                     f"{_bench.fmt(row['unchanged_us_per_decision'])} us per decision")
    if "cold_ratio" in t:
        lines.append(f"scale: {_bench.fmt(t['decisions_ratio'])}x the decisions and "
                     f"{_bench.fmt(t['changed_files_ratio'])}x the changed files took "
                     f"{_bench.fmt(t['cold_ratio'])}x the cold check "
                     f"({_bench.fmt(t['cold_per_changed_file_ratio'])}x per changed file)")
        lines.append(f"scale: the decisions in place took {_bench.fmt(t['in_place_vs_whole_files'])}x hashing "
                     f"their changed files whole (within it: {t['in_place_within_whole_files']})")
    for row in r["rows"]:
        same = row.get("same_files")
        if same:
            one, one_ms = same["one_per_file"], same["one_per_file_ms"]

            def grew(arm: str) -> str:
                return (f"{same[arm]} decisions {_bench.fmt(same[arm + '_ms'])} ms "
                        f"({_bench.fmt(same[arm] / max(1, one))}x the decisions, "
                        f"{_bench.fmt(same[arm + '_ms'] / max(1e-9, one_ms))}x the time)")

            lines.append(
                f"same {row['files_changed']} changed files, this process only, verification alone: "
                f"one decision per anchored file: {one} decisions {_bench.fmt(one_ms)} ms; "
                f"all: {grew('all')}; all but the {same['left']} whose symbol left its file: "
                f"{grew('all_but_left')}; one per file and those: {grew('one_per_file_and_left')}; "
                f"each added decision in place {_bench.fmt(same['ms_per_added_in_place'])} ms, "
                f"each added symbol to look for {_bench.fmt(same['ms_per_added_left'])} ms")
            lines.append("the decisions in place a quarter at a time: " + "; ".join(
                f"{step['decisions']} decisions {_bench.fmt(step['ms'])} ms"
                + (f" ({_bench.fmt(step['ms_per_added'])} ms per added one)" if "ms_per_added" in step else "")
                for step in same["in_place_steps"]))
    parts.append("\n".join(lines))
    parts.append(f"command: {r['command']}")
    return "\n\n".join(parts)


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
        ("first recall after another process's write", t["recall_first_after_write"], ""),
        ("plain Chroma query, timed beside it", t["plain_query_beside_first"], ""),
        ("first recall after this process's own write", t["recall_after_own_write"], ""),
        ("plain Chroma query, timed beside it", t["plain_query_beside_own"], ""),
    ]
    ratios = [
        ("warm recall / plain query", x["recall_vs_plain"], "target <= 1.2"),
        ("warm recall / plain query (no embedding)", x["recall_vs_plain_no_embed"], ""),
        ("first recall after another process's write / plain query", x["first_recall_vs_plain"], ""),
        ("first recall after its own write / plain query", x["own_write_recall_vs_plain"], ""),
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
    parser.add_argument("--decisions", type=int, default=None,
                        help="decisions to record (default 10; 300 with --spread)")
    parser.add_argument("--embedding", choices=("minilm", "hashing"), default="minilm",
                        help="embedding model (default minilm, the library default)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="repetitions of warm measurements (default 20; 5 with --spread)")
    parser.add_argument("-k", type=int, default=5, help="recall size (default 5)")
    parser.add_argument("--per-file", type=int, default=1, help="at most this many decisions per file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=1,
                        help="measure cold verification on this many samples of symbols (default 1)")
    parser.add_argument("--spread", action="store_true",
                        help="decisions spread one per file, fresh ledgers without a disk cache, recorded "
                             "with the hashing embedding, warm recall with --embedding (issue 16); "
                             "--decisions defaults to 300")
    parser.add_argument("--scale", type=int, default=0,
                        help="with --spread: measure again at this many decisions (e.g. 5000)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="with --spread: keep the recorded ledgers in this folder and reuse them on later runs")
    parser.add_argument("--clients", default=",".join(_bench.CLIENT_KINDS),
                        help="with --spread: warm recall against a plain query behind these client kinds, "
                             "comma separated (default local,ephemeral,server; the server is a `chroma run` "
                             "started by the benchmark; '' for none)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    if args.spread:
        clients = tuple(c.strip() for c in args.clients.split(",") if c.strip())
        unknown = sorted(set(clients) - set(_bench.CLIENT_KINDS))
        if unknown:
            parser.error(f"unknown client kind(s) {', '.join(unknown)}; choose from {', '.join(_bench.CLIENT_KINDS)}")
        spread = measure_spread(args.repo, args.jump, args.decisions or 300, args.scale, args.repeat or 5,
                                args.k, args.seed, args.keep, clients, args.embedding)
        _bench.emit(spread, args.json, render_spread)
        return 0
    result = measure(args.repo, args.jump, args.decisions or 10, args.embedding, args.repeat or 20, args.k,
                     args.seed, args.per_file, args.samples)
    _bench.emit(result, args.json, render)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
