"""The symbol cache: single-symbol lookups, kept parses, and the disk store."""

from __future__ import annotations

import json
import logging
import random
import sys
import threading

import pytest

from memvet import _code
from memvet._cache import SymbolCache

A = (b"class Store:\n    def save(self):\n        return 1\n\n    def load(self):\n        return 2\n\n\n"
     b"def helper():\n    pass\n")
B = b"def other(x):\n    return x * 2\n"
ALL_A = _code.symbol_table(A, "python")


class Loads:
    """A loader that counts how often the bytes were asked for."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.calls = 0

    def __call__(self) -> bytes:
        self.calls += 1
        return self.data


def test_one_symbol_hashes_as_in_the_table_and_later_lookups_reuse_the_parse():
    cache = SymbolCache()
    load = Loads(A)
    assert cache.symbol("a", "python", "Store.save", load) == (ALL_A.symbols["Store.save"], False)
    assert cache.symbol("a", "python", "helper", load) == (ALL_A.symbols["helper"], False)
    assert cache.symbol("a", "python", "gone", load) == (None, False)
    assert cache.table("a", "python", load) == ALL_A   # built from the kept parse
    assert cache.parses == 1 and load.calls == 1
    assert cache.symbol("a", "python", "Store.load", load) == (ALL_A.symbols["Store.load"], False)
    assert cache.parses == 1


def test_a_repeated_lookup_is_served_from_memory():
    cache = SymbolCache(parsed_bytes=0)   # keep no parse: only the symbol memo can answer
    load = Loads(A)
    cache.symbol("a", "python", "helper", load)
    cache.symbol("a", "python", "helper", load)
    assert cache.parses == 1
    cache.symbol("a", "python", "Store", load)
    assert cache.parses == 2   # a new name needs the tree, and none was kept


def test_kept_parses_stay_within_the_byte_budget():
    cache = SymbolCache(parsed_bytes=len(A))   # room for A's tree, not for A's and B's
    load_a, load_b = Loads(A), Loads(B)
    cache.symbol("a", "python", "helper", load_a)
    cache.symbol("b", "python", "other", load_b)       # evicts A's parse
    cache.symbol("a", "python", "Store.save", load_a)  # so A is parsed again
    assert cache.parses == 3
    cache.symbol("a", "python", "Store.load", load_a)
    assert cache.parses == 3


def test_syntax_errors_are_reported_with_the_symbol():
    broken = b"def ok():\n    return 1\n\ndef bad(:\n"
    assert SymbolCache().symbol("x", "python", "ok", Loads(broken)) == (
        _code.symbol_table(broken, "python").symbols["ok"], True
    )


def test_symbols_survive_processes_on_disk(tmp_path):
    one = SymbolCache(tmp_path)
    one.symbol("a", "python", "Store.save", Loads(A))
    one.symbol("a", "python", "gone", Loads(A))
    two = SymbolCache(tmp_path)
    never = Loads(b"")
    assert two.symbol("a", "python", "Store.save", never) == (ALL_A.symbols["Store.save"], False)
    assert two.symbol("a", "python", "gone", never) == (None, False)
    assert (two.parses, two.disk_hits, never.calls) == (0, 2, 0)


def test_a_table_on_disk_answers_single_lookups(tmp_path):
    SymbolCache(tmp_path).table("a", "python", Loads(A))
    two = SymbolCache(tmp_path)
    assert two.symbol("a", "python", "helper", Loads(b"")) == (ALL_A.symbols["helper"], False)
    assert (two.parses, two.disk_hits) == (0, 1)


def test_corrupt_entries_are_misses(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    one = SymbolCache(tmp_path)
    one.table("a", "python", Loads(A))
    one.symbol("b", "python", "other", Loads(B))
    entries = sorted(tmp_path.rglob("*.json"))
    assert len(entries) == 2
    for entry in entries:
        entry.write_text("{torn")
    two = SymbolCache(tmp_path)
    assert two.table("a", "python", Loads(A)) == ALL_A
    assert two.symbol("b", "python", "other", Loads(B))[0] == _code.symbol_table(B, "python").symbols["other"]
    assert two.parses == 2
    assert caplog.text.count("is corrupt") == 2


def test_an_entry_for_another_name_is_a_miss(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    one = SymbolCache(tmp_path)
    one.symbol("a", "python", "helper", Loads(A))
    (entry,) = tmp_path.rglob("*.json")
    raw = json.loads(entry.read_text())
    raw["qualname"] = "Store"
    entry.write_text(json.dumps(raw))
    two = SymbolCache(tmp_path)
    assert two.symbol("a", "python", "helper", Loads(A)) == (ALL_A.symbols["helper"], False)
    assert two.parses == 1
    assert "is corrupt" in caplog.text


def test_entries_of_another_format_are_quiet_misses(tmp_path, caplog):
    """After an upgrade every kept entry is of an older format: a miss each,
    logged at debug level, never a warning that calls it corrupt."""
    caplog.set_level(logging.DEBUG)
    one = SymbolCache(tmp_path)
    one.table("a", "python", Loads(A))
    one.symbol("b", "python", "other", Loads(B))
    for entry in tmp_path.rglob("*.json"):
        raw = json.loads(entry.read_text())
        raw["format"] -= 1
        entry.write_text(json.dumps(raw))
    two = SymbolCache(tmp_path)
    assert two.table("a", "python", Loads(A)) == ALL_A
    assert two.symbol("b", "python", "other", Loads(B))[0] == _code.symbol_table(B, "python").symbols["other"]
    assert two.parses == 2
    assert caplog.text.count("of another version") == 2
    assert "is corrupt" not in caplog.text and not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.slow
def test_threads_sharing_a_cache_get_right_answers():
    # The adapters run reads in worker threads against one ledger. Before the
    # cache had locks, this raised KeyError from the parse budget's
    # bookkeeping and from the LRU within the first round.
    files = {f"b{i}": "".join(f"class C{j}:\n    def m(self):\n        return {i * 100 + j}\n" for j in range(30))
             .encode() for i in range(6)}
    tables = {blob: _code.symbol_table(data, "python") for blob, data in files.items()}
    failures: list[object] = []

    def work(cache: SymbolCache, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(150):
            blob, name = rng.choice(sorted(files)), f"C{rng.randrange(30)}.m"
            try:
                if rng.random() < 0.1:
                    got = cache.table(blob, "python", lambda b=blob: files[b]).symbols.get(name)
                else:
                    got = cache.symbol(blob, "python", name, lambda b=blob: files[b])[0]
                if got != tables[blob].symbols[name]:
                    failures.append((blob, name, got))
            except Exception as exc:
                failures.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for round_ in range(5):
            cache = SymbolCache(maxsize=2, parsed_bytes=len(files["b0"]) * 2)
            threads = [threading.Thread(target=work, args=(cache, round_ * 10 + i)) for i in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []


def test_containing_reuses_the_kept_parse_and_answers_from_a_table():
    cache = SymbolCache()
    load = Loads(A)
    assert cache.symbol("a", "python", "helper", load) == (ALL_A.symbols["helper"], False)
    assert cache.containing("a", "python", [b"pass"], load) == [ALL_A.symbols["helper"]]
    assert cache.parses == 1 and load.calls == 1   # the parse kept for helper answered
    cache.table("a", "python", load)
    assert cache.containing("a", "python", [b"nowhere"], load) == list(ALL_A.symbols.values())  # from the table
    kinds = {sym.kind for sym in ALL_A.symbols.values()}
    assert len(kinds) > 1
    one = sorted(kinds)[0]
    assert cache.containing("a", "python", [b"nowhere"], load, lambda kind: kind == one) == [
        sym for sym in ALL_A.symbols.values() if sym.kind == one]
    assert cache.parses == 1
