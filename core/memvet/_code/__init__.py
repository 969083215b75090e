"""Tree-sitter parsing for MemVet: symbol tables, normalized hashes, imports.

Public interface (everything else is private)::

    HASH_VERSION                  version of the hashing/naming rules (int, 6)
    hash_is_current(v, language)  whether a hash of version v needs no re-hash
    OtherFormatError              a cached table of another version or format (a miss)
    LANGUAGES                     every accepted language name
    UnsupportedLanguage           unknown language name (an UnsupportedFileError)
    language_for_path(path)       "python" | ... | None, by extension
    symbol_table(data, language)  SymbolTable of a file's bytes
    parse_file(data, language)    ParsedFile: .symbol(qualname) hashes only that
                                  symbol's span; .table() is symbol_table's;
                                  .property_of(qualname) the property an
                                  accessor belongs to
    imports(data, language)       [(module, 1-based line), ...]
    Symbol, SymbolTable           frozen results
    ParsedFile                    a parse kept for lookups (holds the tree)
    follow(old, new, qualname)    the symbol of ``new`` that ``qualname`` of
                                  ``old`` became (same name, or new signature)

Grammars come from the official per-language wheels; definitions and imports
are tree-sitter queries in ``queries/<language>-{symbols,imports}.scm``
(Python definitions are found by a walk over statements that gives exactly
the matches of ``python-symbols.scm``, in 40 % of its time).
Parsers and compiled queries are cached per language for the process.

Qualified names join scopes with ``.``: ``Outer.Inner.method``, nested
functions ``outer.inner``, Go methods ``Type.Method`` (pointer or value
receiver, type parameters dropped), Rust ``impl Type`` items
``Type.method`` and ``impl Trait for Type`` items ``<Type as Trait>.method``
for any self type (``<&mut Serializer as Serializer>.serialize_u8``,
``<u8 as Encode>.encode``; :attr:`Symbol.name` is ``Type.method`` for
both), Rust modules ``m.f``, JS/TS
functions bound to names (``const f = () => ...``) and object-literal members
(``const api = { get() {} }`` -> ``api.get``, nested objects name scopes:
``api.users.list``), TS interfaces, type aliases, enums and namespaces, Java
classes, interfaces, enums and their constants, records, methods,
constructors, fields (every declarator of ``int a, b;``, each spanning the
declaration) and annotation elements. Top-level variables are symbols too (Python module
assignments, JS/TS top-level ``const``/``let``/``var`` and member assignments
such as ``module.exports = {...}``, Go ``const``/``var``).

JS/TS functions and classes assigned to a name take the assignment target as
written, each segment quoted by the rule below, under their enclosing named
definition: ``Parser.prototype.parse = function`` -> ``Parser.prototype.parse``
(kind ``method``, as is any target starting with ``this`` or holding
``prototype``), ``exports.x = () => 1`` -> ``exports.x``, ``exports["a.b"]``
-> ``exports."a.b"``, ``this.parse = function`` inside ``function Parser`` ->
``Parser.this.parse``, ``options.success = function`` inside
``Model.prototype.fetch`` -> ``Model.prototype.fetch.options.success``. A
computed target (``a[key] = function``) names nothing. A chain names the
function once per link: ``_.each = _.forEach = function`` gives ``_.each`` and
``_.forEach``, ``var Model = Backbone.Model = function`` gives ``Model`` and
``Backbone.Model`` (siblings, never ``Model.Backbone.Model``). Objects name
scopes for their members when assigned to a member (``P.prototype = {...}``),
bound below the top level (``const api = {...}``, ``var V = Base.extend({...})``
-> ``V.render``), passed to ``extend``/``assign``/``mixin``/``merge`` after a
name (``_.extend(Model.prototype, Events, {...})`` ->
``Model.prototype.parse``), or to a statement ``X.extend({...})``/``X.mixin``
(``jQuery.fn.extend({...})`` -> ``jQuery.fn.attr``). Anonymous functions
(IIFEs, AMD/UMD factories, callbacks) add nothing: what they define is named
as if they were not there, except that a name bound to an immediately
invoked function (the module pattern, below the top level) names a scope:
``var Foo = (function () { var helper = ... })()`` -> ``Foo.helper``, while
what it defines under its own name keeps it (``function Foo`` -> ``Foo``).

JS/TS class and object members declared ``static``, ``get`` or ``set`` carry
those keywords in their own segment, as written: ``Lexer.static lex`` beside
``Lexer.lex``, ``Lexer.get x``/``Lexer.set x``, ``Lexer.static get rules``;
class fields are symbols of kind ``field`` (``Hooks.static passThroughHooks``,
``Lexer.count``). :attr:`Symbol.name` leaves the keywords out, so
``lookup("Hooks.passThroughHooks")`` finds the static field, and
``lookup("Lexer.x")`` both accessors. A key that reads like keywords and a
name is quoted (``Lexer."static lex"``). TypeScript overload signatures
written right before their implementation are part of it, as Python stubs
are (below): ``function f(a: string): string;`` ... ``function f(a: any) {}``
is one symbol ``f``.

Python ``@overload`` (or ``@<module>.overload``) stubs in a scope that also
has an implementation of the name are not symbols: the implementation has the
bare name, and the stubs written right before it (comments between are fine)
are part of its span and hash, because they are the signatures a type checker
shows its callers: a stub whose signature changes makes the function changed.
Stubs with no implementation in their scope (``.pyi`` files, protocols) stay
symbols, told apart as below. A name defined
more than once in one scope (overloads, TS overload signatures, a property
getter and setter) gets its parameter types - or, untyped, parameter names -
as a suffix: ``CopyUtils.copy(byte[],OutputStream)``; identical signatures
then get ``#2``, ``#3``... in document order. :attr:`Symbol.name` drops those
suffixes, so ``lookup("CopyUtils.copy")`` returns every overload.

The property an accessor belongs to (:meth:`ParsedFile.property_of`) is
named like the accessor without ``get``/``set`` or suffixes: ``Lexer.x``
for ``Lexer.get x`` and ``Lexer.set x``, ``Lexer.static x`` for
``Lexer.static get x`` (another property, though the bare name ``Lexer.x``
finds it too), ``C.x`` for a Python ``@property`` getter ``C.x(self)`` and
its ``@x.setter`` ``C.x(self,value)`` and ``@x.deleter``. A symbol anchor whose
name finds exactly the accessors of one property names the property: it is
recorded as one anchor per accessor, each by its exact name and hash
(:meth:`memvet._anchors.Evidence.resolve_all`); so is a Rust item written
once per platform or once per inline module (``Lazy.force`` for
``sync.Lazy.force`` and ``unsync.Lazy.force``), and a Python class or
function defined once per branch of one ``if``/``else`` or ``try``/``except``
statement (``Timeout`` for ``Timeout`` and ``Timeout#2``). Any other name that finds
several symbols is ambiguous, and the write lists their exact names.

Java methods and constructors always carry their erased parameter types,
overloaded or not - Java's own method identity, so adding or removing an
overload renames nothing: ``CopyUtils.copy(byte[],OutputStream)``,
``Tailer.run()``, ``Tailer.Tailer(Executor)`` (erasure rules in
:mod:`memvet._code._java`). Nested and local classes are scopes by name
(``Outer.Inner.run()``, ``Outer.start().Watchdog.run()``), an anonymous class
by its type inside the method, field or class around it
(``Outer.start().<anonymous Runnable>.run()``, a second one in the same method
``<anonymous Runnable>#2``), and an enum constant's body by the constant
(``IOCase.SENSITIVE.matches(String,String)``). So ``Outer.run`` is exactly
Outer's own method. :attr:`Symbol.name` drops every suffix, so
``lookup("CopyUtils.copy")`` returns every overload; a Java lookup with a
signature matches after erasure (``render(java.io.Writer, final int,
List<String>)`` finds ``render(Writer,int,List)``; ``anyOf(boolean...)`` finds
``anyOf(boolean[])``), with the enclosing methods' signatures optional. JS/TS
string keys containing ``.``, ``[``, ``]`` or ``"`` are quoted JSON-style
(``api."a.b"``); structured text follows the same rule (see below).

Kinds: ``function``, ``method``, ``class``, ``interface``, ``struct``,
``enum``, ``trait``, ``type``, ``const``, ``variable``, ``static``,
``module``, ``macro``, ``namespace``, ``record``, ``annotation``,
``constructor``, ``field``, ``impl``; ``section`` (Markdown), ``key`` and
``table`` (JSON/YAML/TOML). A Rust ``impl Trait for Type`` block is a symbol,
``<Type as Trait>`` of kind ``impl``, and the scope of its members
(``<Type as Trait>.fmt``); an inherent ``impl Type`` block is only a scope.

Spans include decorators (Python), ``export`` and decorators (JS/TS), a
single-declarator ``const``/``let`` statement, annotations (Java, inside the
modifiers), leading ``#[...]`` attributes (Rust) and the ``type``/``const``
keyword of a single Go spec. Doc comments are outside spans and never hashed.
Hash normalization is described in :mod:`memvet._code._tokens`; Markdown,
JSON, YAML and TOML rules in :mod:`memvet._code._structured`; import names
and the prefix-matching rule for callers in :mod:`memvet._code._imports`.

``has_error`` is set when an ERROR or MISSING node lies in the span (an
ERROR node that merely wraps well-formed definitions does not taint them).
Such a span is hashed on its raw tokens (see
:func:`memvet._code._tokens.raw_digest`); every other span is hashed as if
the error were not there. Rust 2015's ``try!(...)`` is parsed as a macro
call, and the items in the branches of a ``cfg_if! { ... }`` as the
module's own (:func:`memvet._code._symbols.parse_input`).

Performance (measured, Python 3.11, one core of a dev container): the first
2,000 lines of CPython's ``argparse.py`` (153 symbols) take about 15 ms for
parse + token pass + symbol table with warm caches, of which the tree-sitter
parse is about 4.5 ms. Looking up one symbol per file through
:func:`parse_file` skips the whole-file token pass: on seven sqlalchemy
modules (9,300 lines) it took 32 ms against 70 ms for their full tables; the
parses are 22 ms of that and the definition query 8 ms.
"""

from __future__ import annotations

from memvet._code._imports import imports
from memvet._code._languages import LANGUAGES, UnsupportedLanguage, as_utf8, language_for_path, source_text
from memvet._code._model import (
    HASH_VERSION,
    OtherFormatError,
    ParsedFile,
    Symbol,
    SymbolTable,
    follow,
    hash_is_current,
)
from memvet._code._structured import structured_symbol_table
from memvet._code._symbols import CodeFile, cfg_if_branches
from memvet._code._workers import default_workers

__all__ = [
    "HASH_VERSION",
    "LANGUAGES",
    "OtherFormatError",
    "ParsedFile",
    "Symbol",
    "SymbolTable",
    "UnsupportedLanguage",
    "as_utf8",
    "cfg_if_branches",
    "default_workers",
    "follow",
    "hash_is_current",
    "imports",
    "language_for_path",
    "parse_file",
    "source_text",
    "symbol_table",
]


def symbol_table(data: bytes, language: str) -> SymbolTable:
    """Parse ``data`` as ``language`` and return its symbols.

    Never fails on content: bytes that are not UTF-8 are read as Latin-1
    characters (see :func:`as_utf8`), and what does not parse becomes ERROR
    nodes, whose symbols carry ``has_error``.

    Args:
        data: The file's bytes.
        language: One of :data:`LANGUAGES` (see :func:`language_for_path`).

    Raises:
        UnsupportedLanguage: ``language`` is not supported.
    """
    return parse_file(data, language).table()


def parse_file(data: bytes, language: str) -> ParsedFile:
    """Parse ``data`` as ``language`` for symbol lookups.

    ``parse_file(d, l).symbol(q)`` equals ``symbol_table(d, l).symbols.get(q)``
    for a symbol without syntax errors, but hashes only that symbol's span:
    for code, the cost of a lookup is the parse and the definition query, not
    a token pass over the whole file. The result holds the syntax tree (tens
    of times the file's size) until :meth:`ParsedFile.table` is called.

    Raises:
        UnsupportedLanguage: ``language`` is not supported.
    """
    if language not in LANGUAGES:
        raise UnsupportedLanguage(f"no grammar for language {language!r}")
    if language in ("markdown", "json", "yaml", "toml"):
        table = structured_symbol_table(data, language)
        return ParsedFile(language, table.has_errors, table)
    return CodeFile(data, language)
