"""Content-addressed caches for parsed files.

A symbol table is keyed by (blob id, language, hash version): the key names
the exact bytes and the exact hasher, so an entry can never be stale and needs
no TTL. An in-process LRU sits in front of an optional on-disk store under
``.memvet/cache`` that survives processes.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

from memvet import _code

__all__ = ["LRU", "SymbolCache"]

log = logging.getLogger(__name__)

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A small least-recently-used map."""

    def __init__(self, maxsize: int = 4096) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._data.get(key)
        if value is not None:
            self._data.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.maxsize:
            self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)


class SymbolCache:
    """Symbol tables by (blob id, language, hash version).

    Args:
        directory: Where to keep tables across processes (None: memory only).
        maxsize: Entries kept in memory.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None, maxsize: int = 4096) -> None:
        self.directory = Path(directory) if directory is not None else None
        self._memory: LRU[tuple[str, str, int], _code.SymbolTable] = LRU(maxsize)
        self.parses = 0  # how many tables were computed (not served from a cache)
        self.disk_hits = 0

    def table(self, blob_id: str, language: str, load: Callable[[], bytes]) -> _code.SymbolTable:
        """The symbol table of a blob, parsing ``load()`` only on a miss."""
        key = (blob_id, language, _code.HASH_VERSION)
        table = self._memory.get(key)
        if table is not None:
            return table
        table = self._read_disk(key)
        if table is None:
            table = _code.symbol_table(load(), language)
            self.parses += 1
            self._write_disk(key, table)
        else:
            self.disk_hits += 1
        self._memory.put(key, table)
        return table

    def _file(self, key: tuple[str, str, int]) -> Path | None:
        if self.directory is None:
            return None
        blob, language, version = key
        return self.directory / f"symbols-v{version}" / language / blob[:2] / f"{blob}.json"

    def _read_disk(self, key: tuple[str, str, int]) -> _code.SymbolTable | None:
        path = self._file(key)
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
            return _code.SymbolTable.from_json(text)
        except (ValueError, KeyError, TypeError) as exc:
            # A torn or corrupted entry is only a miss: the key is content
            # addressed, so recomputing gives the right table.
            log.warning("symbol cache entry %s is corrupt (%s); recomputing", path, exc)
            return None

    def _write_disk(self, key: tuple[str, str, int], table: _code.SymbolTable) -> None:
        path = self._file(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(table.to_json())
            os.replace(tmp, path)
        except OSError as exc:
            # A read-only .memvet/ must not stop a check: the cache is an
            # optimisation, never a source of truth.
            log.warning("cannot write symbol cache at %s: %s", path, exc)
