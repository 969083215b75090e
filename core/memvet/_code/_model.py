"""The values this package returns: :class:`Symbol` and :class:`SymbolTable`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["HASH_VERSION", "ParsedFile", "Symbol", "SymbolTable"]

HASH_VERSION = 2
"""Version of the normalization and hashing rules.

Bumped whenever a change to this package can change any symbol's hash or
qualified name, so stored baselines are recomputed instead of reported as
changed. 2: JS/TS functions named by assignment targets, mixins and bindings;
Python ``@overload`` stubs folded into their implementation.
"""

_JSON_FORMAT = 3


@dataclass(frozen=True)
class Symbol:
    """One named definition (or section, or key) of a file.

    Attributes:
        qualname: Dotted qualified name, unique in its table, e.g.
            ``Outer.Inner.method``; a duplicated name carries a parameter
            suffix ``CopyUtils.copy(byte[],OutputStream)``, and ``#2``,
            ``#3``... when even the parameters are the same.
        name: ``qualname`` without parameter and ``#n`` suffixes: what a
            bare lookup matches.
        kind: ``function``, ``method``, ``class``, ``struct``, ... (see the
            package docstring for the full list).
        hash: SHA-256 hex of the normalized span.
        start_line: 1-based first line of the span, decorators included.
        end_line: 1-based last line of the span.
        has_error: An ERROR or MISSING node lies inside the span.
        shape: Like ``hash`` but with the symbol's own name masked, so a
            renamed symbol with the same body keeps its shape (equal to
            ``hash`` for sections and keys).
    """

    qualname: str
    name: str
    kind: str
    hash: str
    start_line: int
    end_line: int
    has_error: bool
    shape: str = ""

    def __post_init__(self) -> None:
        if not self.shape:
            object.__setattr__(self, "shape", self.hash)

    def to_row(self) -> list[str | int | bool]:
        """The fields as a JSON-ready list; see :meth:`from_row`."""
        return [self.qualname, self.name, self.kind, self.hash, self.start_line, self.end_line,
                self.has_error, self.shape]

    @classmethod
    def from_row(cls, row: list[str | int | bool]) -> Symbol:
        """Rebuild a symbol from :meth:`to_row`'s list.

        Raises:
            ValueError: ``row`` does not have the eight fields.
            TypeError: ``row`` is not a list.
        """
        qualname, name, kind, h, start, end, err, shape = row
        return cls(str(qualname), str(name), str(kind), str(h), int(start), int(end), bool(err), str(shape))


@dataclass(frozen=True)
class SymbolTable:
    """Every symbol of one file, by qualified name.

    Attributes:
        language: The language the file was parsed as.
        symbols: Symbols by qualified name, in document order.
        has_errors: The file has a syntax error somewhere: a symbol missing
            from it may only be hidden by the error, not gone.
    """

    language: str
    symbols: Mapping[str, Symbol]
    has_errors: bool = False
    _by_name: Mapping[str, tuple[Symbol, ...]] = field(init=False, repr=False, compare=False)
    _by_hash: Mapping[str, tuple[Symbol, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Freeze the mapping and build the name and hash indexes."""
        symbols = MappingProxyType(dict(self.symbols))
        by_name: dict[str, list[Symbol]] = {}
        by_hash: dict[str, list[Symbol]] = {}
        for sym in symbols.values():
            by_name.setdefault(sym.name, []).append(sym)
            by_hash.setdefault(sym.hash, []).append(sym)
            if sym.shape != sym.hash:
                by_hash.setdefault(sym.shape, []).append(sym)
        object.__setattr__(self, "symbols", symbols)
        object.__setattr__(self, "_by_name", {k: tuple(v) for k, v in by_name.items()})
        object.__setattr__(self, "_by_hash", {k: tuple(v) for k, v in by_hash.items()})

    def __hash__(self) -> int:
        """Hash by language and symbols (the table is immutable)."""
        return hash((self.language, tuple(self.symbols.values())))

    def lookup(self, name: str) -> list[Symbol]:
        """Find symbols by qualified name, else by name without suffixes.

        Args:
            name: ``Outer.method`` or an exact ``Outer.method(int)``.

        Returns:
            ``[symbol]`` on an exact qualified-name match; otherwise every
            symbol whose :attr:`Symbol.name` equals ``name`` (several means
            ambiguous: the caller lists them), possibly empty.
        """
        exact = self.symbols.get(name)
        if exact is not None:
            return [exact]
        return list(self._by_name.get(name, ()))

    def by_hash(self, h: str) -> list[Symbol]:
        """Every symbol whose normalized hash (or rename-independent shape)
        is ``h``, in document order."""
        return list(self._by_hash.get(h, ()))

    def to_json(self) -> str:
        """Serialize for an on-disk cache; see :meth:`from_json`."""
        return json.dumps(
            {
                "format": _JSON_FORMAT,
                "hash_version": HASH_VERSION,
                "language": self.language,
                "has_errors": self.has_errors,
                "symbols": [s.to_row() for s in self.symbols.values()],
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, s: str) -> SymbolTable:
        """Rebuild a table serialized by :meth:`to_json`.

        Raises:
            ValueError: ``s`` is not a serialized table, or was written with a
                different :data:`HASH_VERSION` (a cache should treat that as a
                miss and re-parse).
        """
        try:
            raw = json.loads(s)
            if raw["format"] != _JSON_FORMAT or raw["hash_version"] != HASH_VERSION:
                raise ValueError(
                    f"symbol table format {raw['format']}/hash version {raw['hash_version']}, "
                    f"expected {_JSON_FORMAT}/{HASH_VERSION}"
                )
            symbols = {}
            for row in raw["symbols"]:
                sym = Symbol.from_row(row)
                symbols[sym.qualname] = sym
            return cls(str(raw["language"]), symbols, bool(raw["has_errors"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a serialized symbol table: {exc}") from exc


class ParsedFile:
    """A parsed file, asked for one symbol at a time or for its whole table.

    This base class answers from a table built up front (structured text,
    where files are small); :class:`memvet._code._symbols.CodeFile` hashes
    source code symbols on demand. Not for sharing between threads without a
    lock (:class:`memvet._cache.SymbolCache` holds one).

    Attributes:
        language: The language the file was parsed as.
        has_errors: The file has a syntax error somewhere.
    """

    def __init__(self, language: str, has_errors: bool, table: SymbolTable | None = None) -> None:
        self.language = language
        self.has_errors = has_errors
        self._table = table

    def symbol(self, qualname: str) -> Symbol | None:
        """The symbol named exactly ``qualname`` (no bare-name lookup), or ``None``."""
        return self.table().symbols.get(qualname)

    def containing(self, words: Sequence[bytes]) -> list[Symbol]:
        """At least the symbols whose span holds every one of ``words``, in
        document order: a search for one body hashes only the spans that can
        hold it where it can (source code, before :meth:`table`); here every
        symbol is returned, a superset the caller filters by hash."""
        return list(self.table().symbols.values())

    def table(self) -> SymbolTable:
        """Every symbol of the file."""
        assert self._table is not None, "a ParsedFile without a table must override table()"
        return self._table
