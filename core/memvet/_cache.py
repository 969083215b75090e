"""Content-addressed caches for parsed files.

A symbol table is keyed by (blob id, language, hash version), and a single
symbol by that key plus its qualified name: the key names the exact bytes and
the exact hasher, so an entry can never be stale and needs no TTL. In-process
LRUs sit in front of an optional on-disk store under ``.memvet/cache`` that
survives processes.

Checking a decision needs one symbol of a changed file, not the whole table:
:meth:`SymbolCache.symbol` parses the file and hashes only that symbol's span
(see :func:`memvet._code.parse_file`), and keeps the parse of the last few
files for the next symbols of the same blob. Whole tables (move searches,
writes) are built from that parse when it is still there.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from memvet import _code
from memvet._code import _workers

__all__ = ["LRU", "SymbolCache"]

log = logging.getLogger(__name__)

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class LRU(Generic[K, V]):
    """A small least-recently-used map, safe to share between threads (the
    adapters run reads in worker threads)."""

    def __init__(self, maxsize: int = 4096) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def drop(self, key: K) -> None:
        """Forget ``key`` (nothing happens when it is not kept)."""
        with self._lock:
            self._data.pop(key, None)

    def drop_where(self, unwanted: Callable[[K, V], bool]) -> None:
        """Forget every entry for which ``unwanted(key, value)`` holds."""
        with self._lock:
            for key in [k for k, v in self._data.items() if unwanted(k, v)]:
                del self._data[key]

    def __len__(self) -> int:
        return len(self._data)


_Key = tuple[str, str, int]
#: One symbol of one blob: the symbol (or None: the blob has no such symbol)
#: and whether the file has syntax errors anywhere.
SymbolHit = tuple["_code.Symbol | None", bool]
#: 2: JavaScript/TypeScript named callbacks became symbols, so a miss kept by 1 may now be a hit.
_SYMBOL_FORMAT = 2


class SymbolCache:
    """Symbol tables and single symbols by (blob id, language, hash version).

    Args:
        directory: Where to keep tables across processes (None: memory only).
        maxsize: Tables kept in memory (and 16 times as many single symbols).
        parsed_bytes: Source bytes whose syntax trees are kept for further
            lookups (a tree takes about 27 times its source: the default
            keeps at most about 55 MB of trees).
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None, maxsize: int = 4096,
                 parsed_bytes: int = 2 << 20) -> None:
        self.directory = Path(directory) if directory is not None else None
        self._memory: LRU[_Key, _code.SymbolTable] = LRU(maxsize)
        self._symbols: LRU[tuple[str, str, int, str], SymbolHit] = LRU(maxsize * 16)
        # Kept parses with the size of their source, oldest first.
        self._parsed: OrderedDict[_Key, tuple[_code.ParsedFile, int]] = OrderedDict()
        self._parsed_bytes = 0
        self._parsed_limit = parsed_bytes
        # One lookup at a time: a kept parse (and its tree) is not safe to
        # share, and tree-sitter holds the GIL while parsing anyway.
        self._lock = threading.RLock()
        self.parses = 0  # how many files were parsed (not served from a cache)
        self.disk_hits = 0

    def table(self, blob_id: str, language: str, load: Callable[[], bytes]) -> _code.SymbolTable:
        """The symbol table of a blob, parsing ``load()`` only on a miss."""
        with self._lock:
            return self._table(blob_id, language, load)

    def _table(self, blob_id: str, language: str, load: Callable[[], bytes]) -> _code.SymbolTable:
        key = (blob_id, language, _code.HASH_VERSION)
        table = self._memory.get(key)
        if table is not None:
            return table
        table = self._read_disk(key)
        if table is None:
            kept = self._parsed.pop(key, None)
            if kept is None:
                parsed, _ = self._parse(load, language)
            else:
                parsed = kept[0]
                self._parsed_bytes -= kept[1]
            table = parsed.table()
            self._write_disk(key, table)
        else:
            self.disk_hits += 1
        self._memory.put(key, table)
        return table

    def symbol(self, blob_id: str, language: str, qualname: str, load: Callable[[], bytes]) -> SymbolHit:
        """One symbol of a blob (exact qualified name), and whether the file
        has syntax errors; parses ``load()`` only on a miss, and then hashes
        only that symbol."""
        with self._lock:
            return self._symbol(blob_id, language, qualname, load)

    def _symbol(self, blob_id: str, language: str, qualname: str, load: Callable[[], bytes]) -> SymbolHit:
        key = (blob_id, language, _code.HASH_VERSION)
        hit = self._cached(key, qualname)
        if hit is None:
            parsed = self._kept_or_parsed(key, load, language)
            hit = (parsed.symbol(qualname), parsed.has_errors)
            self._write_symbol_disk(key, qualname, hit)
            self._symbols.put((*key, qualname), hit)
        return hit

    def _cached(self, key: _Key, qualname: str) -> SymbolHit | None:
        """One symbol from the caches only (a table or the symbol, in
        memory, then on disk; disk hits are kept in memory), or ``None``."""
        table = self._memory.get(key)
        if table is not None:
            return table.symbols.get(qualname), table.has_errors
        skey = (*key, qualname)
        hit = self._symbols.get(skey)
        if hit is not None:
            return hit
        table = self._read_disk(key)
        if table is not None:
            self.disk_hits += 1
            self._memory.put(key, table)
            return table.symbols.get(qualname), table.has_errors
        hit = self._read_symbol_disk(key, qualname)
        if hit is not None:
            self.disk_hits += 1
            self._symbols.put(skey, hit)
        return hit

    def outline(self, blob_id: str, language: str, load: Callable[[], bytes]) -> _code.SymbolTable:
        """A blob's symbols without hashes (see :meth:`memvet._code.ParsedFile.outline`),
        or its table when one is cached; from the kept (or a new) parse."""
        with self._lock:
            key = (blob_id, language, _code.HASH_VERSION)
            table = self._memory.get(key)
            if table is not None:
                return table
            return self._kept_or_parsed(key, load, language).outline()

    def missing(self, blob_id: str, language: str, names: Sequence[str]) -> list[str]:
        """Which of ``names`` a lookup of the blob would parse for (none is
        cached, see :meth:`_cached`, and no parse of the blob is kept)."""
        with self._lock:
            key = (blob_id, language, _code.HASH_VERSION)
            if key in self._parsed:
                return []
            return [name for name in dict.fromkeys(names) if self._cached(key, name) is None]

    def look_up_many(self, files: Sequence[tuple[str, str, bytes, list[str]]], helpers: _workers.Helpers,
                     meanwhile: Callable[[], None] | None = None) -> int:
        """Look up ``(blob id, language, data, names)`` for many files at
        once, parsing on ``helpers`` besides this process (see
        :mod:`memvet._code._workers`); the answers are cached as
        :meth:`symbol` would cache them. Parses kept here stay kept.
        ``meanwhile()`` runs in this process while the helpers start on the
        files (see :meth:`memvet._code._workers.Helpers.share`).

        Returns:
            How many files the helpers parsed.
        """
        keys = {}
        jobs = []
        for blob_id, language, data, names in files:
            job = _workers.Job(language, data, list(names))
            keys[id(job)] = (blob_id, language, _code.HASH_VERSION)
            jobs.append(job)

        def local(job: _workers.Job) -> None:
            # What a helper does, on this process's kept parse when there is one.
            job.hits = _workers.lookups(
                job, lambda data, language: self._kept_or_parsed(keys[id(job)], lambda: data, language))

        with self._lock:
            served = helpers.share(jobs, local, meanwhile)
            self.parses += served
            for job in jobs:
                key = keys[id(job)]
                for name, hit in zip(job.names, job.hits, strict=True):
                    self._symbols.put((*key, name), hit)
                    self._write_symbol_disk(key, name, hit)
            return served

    def containing(self, blob_id: str, language: str, words: Sequence[bytes], load: Callable[[], bytes],
                   kind_ok: Callable[[str], bool] | None = None) -> list[_code.Symbol]:
        """At least the symbols of a blob whose span holds every one of
        ``words`` and whose kind passes ``kind_ok``: from its table when one
        is cached, else from its kept (or a new) parse, hashing only those
        spans."""
        with self._lock:
            key = (blob_id, language, _code.HASH_VERSION)
            table = self._memory.get(key)
            parsed = (_code.ParsedFile(language, table.has_errors, table) if table is not None
                      else self._kept_or_parsed(key, load, language))
            return parsed.containing(words, kind_ok)

    def _parse(self, load: Callable[[], bytes], language: str) -> tuple[_code.ParsedFile, int]:
        """The parse of ``load()``, and the size of what was parsed."""
        data = load()
        parsed = _code.parse_file(data, language)
        self.parses += 1
        return parsed, len(data)

    def _kept_or_parsed(self, key: _Key, load: Callable[[], bytes], language: str) -> _code.ParsedFile:
        """The kept parse of a blob, or a new one kept for the blob's next
        lookups within the byte budget (oldest parses go first)."""
        kept = self._parsed.get(key)
        if kept is not None:
            self._parsed.move_to_end(key)
            return kept[0]
        parsed, size = self._parse(load, language)
        if size <= self._parsed_limit:
            self._parsed[key] = (parsed, size)
            self._parsed_bytes += size
            while self._parsed_bytes > self._parsed_limit:
                _, (_, old_size) = self._parsed.popitem(last=False)
                self._parsed_bytes -= old_size
        return parsed

    # ------------------------------------------------------------------ disk

    def _file(self, key: _Key) -> Path | None:
        if self.directory is None:
            return None
        blob, language, version = key
        return self.directory / f"symbols-v{version}" / language / blob[:2] / f"{blob}.json"

    def _symbol_file(self, key: _Key, qualname: str) -> Path | None:
        table = self._file(key)
        if table is None:
            return None
        # Beside the table's entry, not in a folder of its own: one mkdir
        # less per blob on a cold check.
        name = hashlib.sha256(qualname.encode("utf-8")).hexdigest()[:32]
        return table.with_name(f"{table.stem}.{name}.json")

    def _read_disk(self, key: _Key) -> _code.SymbolTable | None:
        return self._read_entry(self._file(key), _code.SymbolTable.from_json)

    def _read_symbol_disk(self, key: _Key, qualname: str) -> SymbolHit | None:
        return self._read_entry(self._symbol_file(key, qualname), lambda text: _decode_symbol(text, qualname))

    def _read_entry(self, path: Path | None, decode: Callable[[str], T]) -> T | None:
        """A decoded disk entry, or None: absent, unreadable or corrupt."""
        if path is None:
            return None
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("symbol cache unreadable at %s: %s", path, exc)
            return None
        try:
            return decode(text)
        except _code.OtherFormatError as exc:
            log.debug("symbol cache entry %s is of another version (%s); recomputing", path, exc)
            return None
        except (ValueError, KeyError, TypeError) as exc:
            # A torn or corrupted entry is only a miss: the key is content
            # addressed, so recomputing gives the right answer.
            log.warning("symbol cache entry %s is corrupt (%s); recomputing", path, exc)
            return None

    def _write_disk(self, key: _Key, table: _code.SymbolTable) -> None:
        path = self._file(key)
        if path is not None:
            self._write_text(path, table.to_json())

    def _write_symbol_disk(self, key: _Key, qualname: str, hit: SymbolHit) -> None:
        path = self._symbol_file(key, qualname)
        if path is None:
            return
        sym, has_errors = hit
        self._write_text(path, json.dumps(
            {"format": _SYMBOL_FORMAT, "qualname": qualname, "has_errors": has_errors,
             "symbol": None if sym is None else sym.to_row()},
            ensure_ascii=False, separators=(",", ":"),
        ))

    def _write_text(self, path: Path, text: str) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, path)
        except OSError as exc:
            # A read-only .memvet/ must not stop a check: the cache is an
            # optimisation, never a source of truth.
            log.warning("cannot write symbol cache at %s: %s", path, exc)


def _decode_symbol(text: str, qualname: str) -> SymbolHit:
    """A single-symbol entry written by ``SymbolCache._write_symbol_disk``.

    Raises:
        ValueError: Another format, or an entry for another name.
        KeyError, TypeError: Not such an entry at all.
    """
    raw = json.loads(text)
    if raw["format"] != _SYMBOL_FORMAT:
        raise _code.OtherFormatError(f"format {raw['format']}, expected {_SYMBOL_FORMAT}")
    if raw["qualname"] != qualname:
        raise ValueError(f"an entry for {raw['qualname']!r}")
    row = raw["symbol"]
    return (None if row is None else _code.Symbol.from_row(row)), bool(raw["has_errors"])
