"""The values this package returns: :class:`Symbol` and :class:`SymbolTable`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from memvet._code._java import drop_signatures, normalize_qualname, split_signature

__all__ = ["HASH_VERSION", "OtherFormatError", "ParsedFile", "Symbol", "SymbolTable", "follow", "hash_is_current"]

HASH_VERSION = 6
"""Version of the normalization and hashing rules.

Bumped whenever a change to this package can change any symbol's hash or
qualified name, so stored baselines are recomputed instead of reported as
changed. 2: JS/TS functions named by assignment targets, mixins and bindings;
Python ``@overload`` stubs folded into their implementation. 3: Java methods
and constructors always carry their erased signature; anonymous classes and
enum constants name scopes. 4: Python parentheses that change nothing are
left out (:mod:`memvet._code._parens`), every Python statement ends with a
marker and ``;`` between statements is layout; string quotes and trailing
commas that change nothing are normalized away (:mod:`memvet._code._literals`).
5: JavaScript/TypeScript only (what prettier and standard rewrite): statement
ends are markers, so a ``;`` that automatic semicolon insertion would supply
changes nothing; parentheses that change nothing (an arrow function's lone
parameter, operands, assignments as values, ``new A()``) are left out
(:mod:`memvet._code._parens`); strings compare by value where a quote
escape is all that differs, numbers by exact value, and a quoted key that
is a name is that name (:mod:`memvet._code._literals`); template literals are
walked, so the layout inside ``${...}`` is free.
6: Go and Rust (what gofmt and rustfmt rewrite, :mod:`memvet._code._gorust`):
trailing commas, Rust ``...`` range patterns, Go ``;`` between statements
(statement ends are markers), Go parentheses around a condition and number
prefixes; Rust 2015's ``try!(...)`` parses; Rust trait impls name their
scope ``<Type as Trait>``. In every language a span with a syntax error is
hashed on its raw tokens (:func:`memvet._code._tokens.raw_digest`), which
changes no stored hash: such spans could not be recorded before.
Also 6, JavaScript/TypeScript names: a static member, a getter and a setter
carry their keywords (``Lexer.static lex``, ``Lexer.get x``), class fields
are symbols, and a binding of an immediately invoked function (the module
pattern) names a scope (``Foo.helper``), and TypeScript overload signatures
join their implementation (``f``, no longer ``f(any)``). Java gained symbols (every
declarator of a field, annotation elements) and rehashed none; its one
renamed scope (an anonymous class in the initializer of a later declarator,
``Runnable a, b = new Runnable() {...}``, now under ``b``) is rare enough that
Java v5 hashes stay current.
Still 6: a named function passed as an argument in JavaScript/TypeScript
(``morgan.token('url', function getUrlToken (req) {...})``) is a symbol of
its scope; it names no scope itself and yields to a definition of the same
name there, so no existing name or hash changed (the table format did).
Still 6: a Rust ``impl Trait for Type`` block is a symbol of its own,
``<Type as Trait>`` (kind ``impl``), its span the block; its members keep
their names (``<Type as Trait>.fmt``, named ``Type.fmt``), and two blocks
of one name (one per ``#[cfg]``) stay scopes only, so no existing name or
hash changed (the table format did).
Still 6: the branches of a Rust ``cfg_if::cfg_if!( ... );``, which the
parser reads as a statement around the call, are opened as those of
``cfg_if! { ... }`` are; their items are new names, none renamed or rehashed.
Still 6: the items a Rust ``macro_rules!`` body writes (anymap's whole API:
``Map``, ``Map.insert``) are symbols, read from the body on its own; a name
the file itself defines stays the file's, so they are new names only.
"""

_RENORMALIZED: dict[int, frozenset[str]] = {
    5: frozenset({"javascript", "typescript", "tsx"}),
    6: frozenset({"go", "rust", "javascript", "typescript", "tsx"}),
}
"""The languages whose hashes or qualified names changed at each version
after 4. A version missing here changed every language."""


def hash_is_current(version: int, language: str) -> bool:
    """Whether a hash (and qualified name) recorded by hasher ``version``
    for ``language`` is what the current hasher gives, so it is compared as
    it is instead of being re-hashed from the recorded commit.

    True for :data:`HASH_VERSION`, and for an older version when no version
    after it changed the language: a Python, Java, Go or Rust anchor of v4
    holds its v5 hash, and re-hashing it would only parse its recorded file
    again in every cold check. Versions before 4 are always re-hashed, and
    so is a version newer than this package.

    Args:
        version: The anchor's ``hash_version``.
        language: The anchor's language.
    """
    if version == HASH_VERSION:
        return True
    if version < 4 or version > HASH_VERSION:
        return False
    return all(language not in _RENORMALIZED.get(v, frozenset({language}))
               for v in range(version + 1, HASH_VERSION + 1))

_JSON_FORMAT = 8  # 4: aliases; 5: JS/TS named callbacks are symbols; 6: Rust `impl Trait for Type`
#                    blocks are symbols (`<Type as Trait>`); 7: the items of a Rust `cfg_if!( ... );`
#                    written as a statement (getrandom) are symbols, as those of `cfg_if! { ... }` were;
#                    8: the items a Rust `macro_rules!` body writes are symbols.
#                    No name or hash changed any time, so HASH_VERSION stays: tables kept by an older
#                    format lack them and are parsed again
_GO_METHOD_EXPR = re.compile(r"^\(\s*\*?\s*(\w+)\s*(?:\[[^\]]*\])?\s*\)\.")
# Languages whose older names may carry a parameter or `#n` suffix that the
# current rules dropped (see SymbolTable.lookup).
_SUFFIXED = frozenset({"javascript", "typescript", "tsx"})
# The CommonJS export objects whose members a bare name finds (see
# SymbolTable.lookup); JS/TS only.
_EXPORTS = ("module.exports", "exports")


def _prototype_twin(name: str) -> str | None:
    """``A.prototype.m`` for ``A.m`` and back: one method, as a constructor
    function's prototype assignment and as a class names it (None for a bare name)."""
    head, dot, tail = name.rpartition(".")
    if not dot or not head or "(" in head:
        return None
    if head.endswith(".prototype"):
        return head[: -len(".prototype")] + "." + tail
    return f"{head}.prototype.{tail}"


#: ``<Self as Trait>.item``: a Rust trait impl's item.
_RUST_IMPL = re.compile(r"^<\s*(.+?)\s+as\s+(.+)>\.([\w.]+)$")
_RUST_PATH_PREFIX = re.compile(r"\b(?:[A-Za-z_]\w*::)+")
_RUST_TRAIT_ARGS = re.compile(r"<.*>$")


def _rust_impl_key(name: str, keep_arguments: bool) -> tuple[str, str, str] | None:
    """(self type, trait, item) of a trait impl's item name, paths dropped
    (and the trait's type arguments unless ``keep_arguments``); None for another name."""
    m = _RUST_IMPL.match(name)
    if m is None:
        return None
    own, trait, item = (_RUST_PATH_PREFIX.sub("", part).replace(" ", "") for part in m.groups())
    return own, trait if keep_arguments else _RUST_TRAIT_ARGS.sub("", trait), item


class OtherFormatError(ValueError):
    """A cache entry written by another version of the rules or the format:
    a miss, as expected after an upgrade (not a corrupt entry)."""


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
        aliases: Other names of a scope, for :meth:`lookup` only: the
            name a CommonJS module gives its exported value (``Application``
            for ``module.exports = class Application {...}``, ``proto`` for
            ``const proto = module.exports = {...}``), mapped to the prefix
            its members are named under (``module.exports``); and, with a
            trailing dot, the path of named function expressions a member
            is under (``morgan.logger.`` for ``morgan.``).
    """

    language: str
    symbols: Mapping[str, Symbol]
    has_errors: bool = False
    aliases: Mapping[str, str] = field(default_factory=dict)
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
        object.__setattr__(self, "aliases", MappingProxyType(dict(self.aliases)))
        object.__setattr__(self, "_by_name", {k: tuple(v) for k, v in by_name.items()})
        object.__setattr__(self, "_by_hash", {k: tuple(v) for k, v in by_hash.items()})

    def __hash__(self) -> int:
        """Hash by language and symbols (the table is immutable)."""
        return hash((self.language, tuple(self.symbols.values())))

    def lookup(self, name: str) -> list[Symbol]:
        """Find symbols by qualified name, else by name without suffixes,
        else (JavaScript/TypeScript) by the names a CommonJS module's
        exported value goes by.

        A member of a CommonJS module is named after ``module.exports`` (or
        ``exports``), and keeps that name; when no symbol answers ``name``,
        these find it too:

        * the exported value's own name in place of ``module.exports``
          (see :attr:`aliases`): ``Application.use`` for
          ``module.exports.use`` in ``module.exports = class Application
          {...}``, ``proto.onerror`` in ``const proto = module.exports =
          {...}``;
        * else the member's name alone: ``redirect`` for
          ``module.exports.redirect`` or ``exports.redirect``;
        * a path through named function expressions, which name no scope:
          ``morgan.logger.logRequest`` for ``morgan.logRequest`` defined in
          ``return function logger () {...}`` inside ``morgan``;
        * a method named with or without ``prototype``, when its own name
          does not answer: ``Cookies.get`` for ``Cookies.prototype.get =
          function (...) {...}`` (how a reader names the method of a
          constructor function), and ``Cookie.prototype.toHeader`` for a
          class's ``toHeader``.

        Args:
            name: ``Outer.method`` or an exact ``Outer.method(int)``.

        Returns:
            ``[symbol]`` on an exact qualified-name match; otherwise every
            symbol whose :attr:`Symbol.name` equals ``name`` (several means
            ambiguous: the caller lists them), possibly empty. The symbols
            keep their own qualified names whichever name found them.
        """
        if self.language not in _SUFFIXED:
            return self._lookup(name)
        found = self._exported(name)
        twin = _prototype_twin(name)
        return found if found or twin is None else self._exported(twin)

    def named(self, name: str) -> list[Symbol]:
        """Every symbol whose :attr:`Symbol.name` (suffixes dropped) is
        ``name``, whichever its qualified name: ``Timeout`` and ``Timeout#2``."""
        return list(self._by_name.get(name, ()))

    def _exported(self, name: str) -> list[Symbol]:
        """:meth:`lookup` of a JavaScript/TypeScript name by its own name, then by the exported value's."""
        found = self._lookup(name)
        if found:
            return found
        seen: dict[str, Symbol] = {}
        for alias, prefix in self.aliases.items():
            if alias.endswith("."):  # a named function expression's path: its members only
                if name.startswith(alias):
                    seen.update((s.qualname, s) for s in self._lookup(prefix + name[len(alias):]))
            elif name == alias or name.startswith(alias + "."):
                seen.update((s.qualname, s) for s in self._lookup(prefix + name[len(alias):]))
        if not seen:
            for prefix in _EXPORTS:
                seen.update((s.qualname, s) for s in self._lookup(f"{prefix}.{name}"))
        return list(seen.values())

    def _lookup(self, name: str) -> list[Symbol]:
        """:meth:`lookup` by the symbols' own names only."""
        exact = self.symbols.get(name)
        if exact is not None:
            return [exact]
        if self.language == "java" and "(" in name:
            return self._java_lookup(name)
        if self.language == "go" and name.startswith("("):
            name = _GO_METHOD_EXPR.sub(r"\1.", name)  # `(*T).M`, `(T[K]).M`: Go's method expressions are `T.M`
            exact = self.symbols.get(name)
            if exact is not None:
                return [exact]
        found = list(self._by_name.get(name, ()))
        if not found and self.language == "rust" and name.startswith("<"):
            found = self._rust_impl_lookup(name)
        if not found and self.language in _SUFFIXED and ("(" in name or "#" in name):
            # A JS/TS name of hasher v5 told apart by its parameters (an
            # overload implementation, `f(any)`, is `f` since v6): the one
            # symbol of its bare name, if only one has it.
            bare = list(self._by_name.get(drop_signatures(name), ()))
            found = bare if len(bare) == 1 else []
        return found

    def _rust_impl_lookup(self, name: str) -> list[Symbol]:
        """A Rust trait impl's item named as people write it: the self type with
        its path (``<io::Error as From>.from``, the type is recorded without
        it) and the trait without its type arguments, which then finds every
        impl of that trait for the type (one: that one; several: ambiguous)."""
        m = _RUST_IMPL.match(name)
        if m is None:
            return []
        keep = "<" in m.group(2)
        wanted = _rust_impl_key(name, keep)
        return [s for q, s in self.symbols.items() if q.startswith("<") and _rust_impl_key(q, keep) == wanted]

    def _java_lookup(self, name: str) -> list[Symbol]:
        """A Java name with a signature, matched after erasure (see
        :mod:`memvet._code._java`): ``render(Writer,int,List)`` finds
        ``render(Writer,int,List)`` declared as ``render(Writer w, int n,
        List<String> xs)``; the enclosing methods' signatures may be left out
        (``Outer.m.<anonymous Comparator>.compare(String,String)``)."""
        normal = normalize_qualname(name)
        exact = self.symbols.get(normal)
        if exact is not None:
            return [exact]
        parts = split_signature(normal)
        if parts is None:
            return []
        wanted = f"({parts[1]})"
        out = []
        for sym in self._by_name.get(drop_signatures(normal), ()):
            own = split_signature(sym.qualname)
            if own is not None and f"({own[1]})" == wanted:
                out.append(sym)
        return out

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
                "aliases": dict(self.aliases),
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, s: str) -> SymbolTable:
        """Rebuild a table serialized by :meth:`to_json`.

        Raises:
            OtherFormatError: ``s`` was written with another table format or
                :data:`HASH_VERSION` (a cache treats that as a miss and re-parses).
            ValueError: ``s`` is not a serialized table.
        """
        try:
            raw = json.loads(s)
            if raw["format"] != _JSON_FORMAT or raw["hash_version"] != HASH_VERSION:
                raise OtherFormatError(
                    f"symbol table format {raw['format']}/hash version {raw['hash_version']}, "
                    f"expected {_JSON_FORMAT}/{HASH_VERSION}"
                )
            symbols = {}
            for row in raw["symbols"]:
                sym = Symbol.from_row(row)
                symbols[sym.qualname] = sym
            aliases = {str(k): str(v) for k, v in raw["aliases"].items()}
            return cls(str(raw["language"]), symbols, bool(raw["has_errors"]), aliases)
        except OtherFormatError:
            raise
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
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

    def containing(self, words: Sequence[bytes], kind_ok: Callable[[str], bool] | None = None) -> list[Symbol]:
        """At least the symbols whose span holds every one of ``words`` (and
        whose kind passes ``kind_ok``), in document order: a search for one
        body hashes only the spans that can hold it where it can (source
        code, before :meth:`table`); here every symbol of a passing kind is
        returned, a superset the caller filters by hash."""
        return [sym for sym in self.table().symbols.values() if kind_ok is None or kind_ok(sym.kind)]

    def property_of(self, qualname: str) -> str:
        """The property whose accessor ``qualname`` is, or ``""``: a JS/TS
        ``get``/``set`` member (``Lexer.get x`` and ``Lexer.set x`` are of
        ``Lexer.x``, ``Lexer.static get x`` of ``Lexer.static x``), or a
        Python method decorated ``@property``, ``@x.getter``, ``@x.setter``
        or ``@x.deleter`` (``C.x(self)`` and ``C.x(self,value)`` are of
        ``C.x``). Structured text has no properties."""
        return ""

    def table(self) -> SymbolTable:
        """Every symbol of the file."""
        assert self._table is not None, "a ParsedFile without a table must override table()"
        return self._table

    def outline(self) -> SymbolTable:
        """Every symbol's names, kind, lines and ``has_error``, for callers
        that never compare hashes: source code leaves ``hash`` and ``shape``
        empty there and skips the token walk (here: the table itself)."""
        return self.table()


def follow(old: SymbolTable, new: SymbolTable, qualname: str) -> Symbol | None:
    """The symbol of ``new`` that is ``qualname`` of ``old``, in the same file.

    The same qualified name if it is still there; else, when its signature
    changed (a Java parameter added, a type changed: the qualified name
    carries the signature), the one symbol of the same kind and bare name
    that ``new`` has and ``old`` did not (if a new overload came too, the
    one of them with as many parameters). A JavaScript/TypeScript member
    that took ``static``, ``get`` or ``set`` (``Object.assign(AxiosHeaders,
    {accessor: function () {...}})`` rewritten as ``static accessor() {...}``
    in the class) is followed the same way: its name without the keywords is
    its bare name. A recorded name from older naming rules is found in
    ``old`` by its bare name first.

    Returns:
        The symbol, or ``None``: gone from the file, or too ambiguous to say
        (two new overloads of the name), so the caller searches elsewhere.
    """
    found = old.lookup(qualname)
    if len(found) != 1:
        return None
    was = found[0]
    same = new.symbols.get(was.qualname)
    if same is not None:
        return same
    if was.name == was.qualname and old.language not in _SUFFIXED:  # no signature to have changed
        return None
    fresh = [s for s in new.lookup(was.name) if s.kind == was.kind and s.qualname not in old.symbols]
    arity = _arity(was.qualname)
    if len(fresh) > 1:  # a new overload too: the one with as many parameters
        fresh = [s for s in fresh if _arity(s.qualname) == arity]
    if len(fresh) != 1:
        return None
    # Several overloads gone and one new: it follows the one gone overload
    # with as many parameters, or none. On mockito, ``join(String,String,Collection)``
    # and ``join(String,Collection)`` were both replaced by
    # ``join(String,Iterable)``: the 2-parameter one changed its signature,
    # the 3-parameter one is gone.
    gone = [s for s in old.lookup(was.name) if s.kind == was.kind and s.qualname not in new.symbols]
    if len(gone) > 1 and [s for s in gone if _arity(s.qualname) == _arity(fresh[0].qualname)] != [was]:
        return None
    return fresh[0]


def _arity(qualname: str) -> int:
    """Parameters in a qualified name's own signature (-1 without one)."""
    parts = split_signature(qualname.rsplit("#", 1)[0] if qualname.rsplit("#", 1)[-1].isdigit() else qualname)
    if parts is None:
        return -1
    depth, count = 0, 1 if parts[1].strip() else 0
    for ch in parts[1]:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
    return count
