"""String quotes and trailing commas that change nothing, normalized away.

Formatters rewrite both on real projects: black and ruff format turn
``'x'`` into ``"x"`` and add a "magic" trailing comma when they explode a
call over several lines, prettier does the same for JavaScript. On
psf/requests (HEAD~500 -> HEAD, 300 decisions) those two rewrites were all
8 false alarms of 17 unrelated edits under hasher v4's parenthesis rule.
So the token walk writes a string literal in a canonical form, and drops a
trailing comma where the language's grammar builds the same program with
or without it.

Python string literals (one ``string`` node each; an implicit
concatenation ``"a" "b"`` stays two literals, never equal to ``"ab"``):

* the token is the prefix, lower-cased, without ``u`` (``u"x"`` is
  ``"x"`` since Python 3) and with its letters sorted (``Rb`` is ``br``),
  followed by ``repr()`` of the literal's value: ``'x'``, ``"x"``,
  ``'''x'''`` and ``"\\x78"`` are one token, so are ``"it's"`` and
  ``'it\\'s'``; bytes keep their ``b`` and never equal a ``str``; ``r``
  stays part of the token (``r"\\d"`` and ``"\\\\d"`` have one value but
  no formatter turns one into the other, so they are kept apart);
* the value is the body itself when there is nothing to decode (no
  backslash and no carriage return, or a raw literal), else
  ``ast.literal_eval`` of the literal, and only when every backslash starts
  a valid escape (an invalid one is a ``SyntaxWarning`` in Python 3.12+):
  a literal that cannot be decoded keeps its text;
* f-strings (and t-strings) are not decoded: their quotes are
  canonical (``f'{a}x'`` is ``f"{a}x"``) only when the text between them
  holds no quote, backslash or line break; otherwise the text is kept.

Python trailing commas, a ``,`` right before a closing bracket (comments
between them are dropped anyway) or ending a bare tuple:

================================================ =========================
where                                            dropped
================================================ =========================
call arguments, class bases, parameters,         always
``[T,]`` type parameters, list, set and dict
displays, ``from m import (a, b,)``, ``[a,]``,
``P(a,)`` and ``{k: a,}`` match patterns
tuples ``(a, b,)``, bare tuples ``a, b, = x`` and with two or more items
``return a, b,``, subscripts ``x[a, b,]``,
``with (a, b,):``
================================================ =========================

A one-item tuple keeps its comma: ``(a,)`` is a tuple where ``(a)`` is
``a``, ``x[a,]`` indexes with the tuple ``(a,)``, ``return a,`` returns
one, ``case (a,):`` matches a sequence. So does anything else (a
generator argument, a lambda's parameters).

JavaScript and TypeScript: see :func:`js_string`, :func:`js_number`,
:func:`js_key` and :func:`js_trailing_comma`. Prettier (3, defaults or
``--no-semi --single-quote``) run over six real libraries changed no
symbol's hash where acorn saw one tree once these rules and the ones of
:mod:`memvet._code._parens` were in (``benchmarks/format_sweep.py``).
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

__all__ = [
    "COMMA",
    "js_key",
    "js_number",
    "js_string",
    "js_trailing_comma",
    "python_string",
    "python_trailing_comma",
]

COMMA = b"t1:,"
"""The encoded token of a ``,`` (see :mod:`memvet._code._tokens`)."""

_QUOTES = b"'\""
# Every escape a non-raw str literal may contain; anything else after a
# backslash is an invalid escape (a warning, and a value we do not guess).
_STR_ESCAPES = re.compile(
    rb"""\\(?:\n|[\\'"abfnrtv]|[0-3][0-7]{0,2}|[4-7][0-7]?(?![0-7])|x[0-9A-Fa-f]{2}"""
    rb"|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|N\{[^}\n]+\})"
)
# Bytes literals: no \u, \U or \N.
_BYTES_ESCAPES = re.compile(rb"""\\(?:\n|[\\'"abfnrtv]|[0-3][0-7]{0,2}|[4-7][0-7]?(?![0-7])|x[0-9A-Fa-f]{2})""")


def python_string(text: bytes) -> bytes:
    """The canonical token text of one Python string literal (see the
    module docs); ``text`` itself when it cannot be decoded safely.

    Args:
        text: The literal's source bytes, prefix and quotes included.
    """
    i = 0
    while i < len(text) and text[i] not in _QUOTES:
        i += 1
    if i > 3 or i == len(text):
        return text
    quote = text[i : i + 3] if text[i : i + 3] in (b"'''", b'"""') else text[i : i + 1]
    start, end = i + len(quote), len(text) - len(quote)
    if end < start or not text.endswith(quote):
        return text  # unterminated (a syntax error in the tree)
    prefix = bytes(sorted(text[:i].lower().replace(b"u", b"")))
    body = text[start:end]
    if b"f" in prefix or b"t" in prefix:
        if b"'" in body or b'"' in body or b"\\" in body or b"\n" in body or b"\r" in body:
            return text
        return prefix + b'"' + body + b'"'
    is_bytes, raw = b"b" in prefix, b"r" in prefix
    value: str | bytes
    try:
        if b"\r" not in body and (raw or b"\\" not in body):
            if is_bytes and not body.isascii():
                return text  # non-ASCII in a bytes literal: a syntax error
            value = body if is_bytes else body.decode("utf-8")
        else:
            escapes = _BYTES_ESCAPES if is_bytes else _STR_ESCAPES
            if b"\\" in escapes.sub(b"", body):
                return text  # an invalid escape: leave its meaning to Python
            value = ast.literal_eval(text.decode("utf-8"))
            if not isinstance(value, (str, bytes)):
                return text  # not one literal (never from a string node)
    except (UnicodeDecodeError, SyntaxError, ValueError):
        return text
    return prefix.replace(b"b", b"") + repr(value).encode("utf-8")


_DIGITS = frozenset(b"0123456789.")


def python_literal(text: bytes) -> bytes:
    """The canonical token text of a Python string or number literal.

    A number is lower-cased: its prefix (``0X``), hex digits, exponent
    (``1E5``) and imaginary suffix (``10J``) mean the same in either case,
    and black upper-cases hex digits and lower-cases the rest. A number
    starts with a digit or ``.``, so it never meets a string or a name.
    """
    if text and text[0] in _DIGITS:
        return text.lower()
    return python_string(text)


def js_literal(text: bytes) -> bytes:
    """:func:`js_string`, :func:`js_number`, or a regular expression literal
    with its flags sorted (prettier writes ``/a/mg`` as ``/a/gm``; flags are
    a set, and a repeated one is a syntax error)."""
    if text and text[0] in _DIGITS:
        return js_number(text)
    if text[:1] == b"/":
        end = text.rfind(b"/")
        return text[: end + 1] + bytes(sorted(text[end + 1 :])) if end > 0 else text
    return js_string(text)


_JS_NAME = re.compile(rb"""(['"])([A-Za-z_$][A-Za-z0-9_$]*)\1""")


def js_key(text: bytes) -> bytes:
    """The token text of a string literal that is a property key in an
    object literal or pattern: the bare name when the string is an
    identifier name (``{"a": 1}`` and ``{'a': 1}`` are ``{a: 1}``, which
    prettier writes when no key needs quotes), else :func:`js_literal`.
    A key is never computed here (``{[a]: 1}`` has no string key), and
    ``"__proto__"`` sets the prototype quoted or not."""
    found = _JS_NAME.fullmatch(text)
    return found.group(2) if found else js_literal(text)


_JS_DECIMAL = re.compile(rb"(?:([0-9]*)\.?([0-9]*))(?:[eE]([+-]?[0-9]+))?")


def js_number(text: bytes) -> bytes:
    """The canonical token text of a JavaScript/TypeScript number literal.

    A decimal literal is written as its exact value, ``<digits>e<exponent>``
    with no leading or trailing zero in the digits: ``0.50``, ``.5``,
    ``5e-1`` and ``0.5`` are one token, ``1.``, ``1.0`` and ``1e0`` another
    (prettier writes ``0.50`` as ``0.5``, ``.5`` as ``0.5``, ``1e+5`` as
    ``1e5``). Two literals with one exact value are one IEEE double, so the
    rewrite never joins two numbers. Anything else is lower-cased only
    (``0XFF``, ``1E5n``: prefixes, hex digits and a BigInt's ``n`` mean the
    same in either case), and legacy octal-looking integers (``017`` is 15,
    ``08`` is 8) and literals with ``_`` separators keep their text.

    Args:
        text: The literal's source bytes.
    """
    found = _JS_DECIMAL.fullmatch(text)
    if found is None:
        return text.lower()
    whole, fraction, exponent = found.group(1), found.group(2), found.group(3)
    if not whole and not fraction:
        return text  # "." alone: not a number
    if len(whole) > 1 and whole[0] == ord("0"):
        return text  # 017, 08: legacy octal or decimal by their digits
    digits = (whole + fraction).lstrip(b"0")
    power = int(exponent or b"0") - len(fraction)
    stripped = digits.rstrip(b"0")
    power += len(digits) - len(stripped)
    if not stripped:
        return b"0"
    return b"%se%d" % (stripped, power)


# Python nodes whose trailing comma is cosmetic, by how many items they need.
_PY_ALWAYS = frozenset({
    "argument_list", "parameters", "type_parameter", "list", "set", "dictionary",
    "import_from_statement", "list_pattern", "class_pattern", "dict_pattern",
})
_PY_SEVERAL = frozenset({"tuple", "tuple_pattern", "subscript", "with_clause"})
_PY_BARE = frozenset({"expression_list", "pattern_list"})
_CLOSERS = frozenset({")", "]", "}"})


def python_trailing_comma(comma: tree_sitter.Node, closer: tree_sitter.Node | None) -> bool:
    """Whether a Python trailing comma changes nothing (see the module docs).

    Args:
        comma: A ``,`` leaf.
        closer: The closing bracket right after it (comments aside), or
            ``None`` when the comma is the last child of its parent.
    """
    parent = comma.parent
    if parent is None:
        return False
    kind = parent.type
    if closer is None:
        return kind in _PY_BARE and _commas(parent) >= 2
    if kind in _PY_ALWAYS:
        return True
    return kind in _PY_SEVERAL and _commas(parent) >= 2


def _commas(node: tree_sitter.Node) -> int:
    return sum(1 for child in node.children if child.type == ",")


def js_string(text: bytes) -> bytes:
    """The canonical token text of a JavaScript/TypeScript string literal.

    The literal is read as a sequence of units: a backslash before a quote
    character (``\\'`` or ``\\"``) is that quote, any other escape is kept
    as written (``\\n``, ``\\x41``, ``\\\\``, a line continuation), every
    other byte is itself. The canonical text writes those units between
    double quotes, a ``"`` as ``\\"``: so ``'it\\'s'``, ``"it's"`` and
    ``"it\\'s"`` are one token (prettier picks whichever quote needs fewer
    escapes; standard picks single quotes), and ``'\\n'`` is ``"\\n"``.
    Each unit keeps its value and reads back from the canonical text
    unchanged, so two literals share a token only if they have one value;
    one value spelled with different escapes (``"\\x41"`` and ``"A"``) keeps
    two tokens. A literal that does not end where it should (error
    recovery) keeps its text, and so do JSX attribute strings, where a
    backslash is no escape (the walk never passes those here: see
    :attr:`memvet._code._tokens.Lexicon.raw_literal_parents`). Template
    literals are other nodes and are never rewritten.

    Args:
        text: The literal's source bytes, quotes included.
    """
    if len(text) < 2 or text[0] != text[-1] or text[0] not in _QUOTES:
        return text
    body = text[1:-1]
    if b"\\" not in body:
        return b'"' + body.replace(b'"', b'\\"') + b'"' if b'"' in body else b'"' + body + b'"'
    out = bytearray(b'"')
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == _BACKSLASH:
            if i + 1 == n:
                return text  # the closing quote is escaped: not one literal
            d = body[i + 1]
            if d == _DOUBLE:
                out += b'\\"'
            elif d == _SINGLE:
                out.append(d)
            else:
                out += body[i : i + 2]
            i += 2
            continue
        if c == _DOUBLE:
            out += b'\\"'
        else:
            out.append(c)
        i += 1
    out += b'"'
    return bytes(out)


_BACKSLASH, _DOUBLE, _SINGLE = ord("\\"), ord('"'), ord("'")


# JavaScript/TypeScript nodes whose trailing comma is cosmetic.
_JS_ALWAYS = frozenset({
    "arguments", "formal_parameters", "object", "object_pattern", "named_imports",
    "export_clause",
})
_JS_ELEMENTS = frozenset({"array", "array_pattern"})


def js_trailing_comma(comma: tree_sitter.Node, closer: tree_sitter.Node | None) -> bool:
    """Whether a JavaScript/TypeScript trailing comma changes nothing.

    Call arguments, parameters, object literals and patterns, import and
    export lists: always. Arrays and array patterns only after an element:
    ``[a,]`` is ``[a]``, but ``[a,,]`` has length 2 and ``[,]`` length 1.
    TypeScript type parameter and type argument lists: always (prettier adds
    it when it breaks them over lines, and writes ``<T,>(a: T) => a`` in
    ``.ts`` files too, where it is ``<T>(a: T) => a``; in ``.tsx`` the form
    without the comma is JSX, another tree). Everything not listed keeps it.

    Args:
        comma: A ``,`` leaf.
        closer: The closing bracket right after it, or ``None``.
    """
    parent = comma.parent
    if closer is None or parent is None:
        return False
    kind = parent.type
    if kind in _JS_ALWAYS:
        return True
    if kind in _JS_ELEMENTS:
        before = comma.prev_sibling
        while before is not None and before.type == "comment":
            before = before.prev_sibling
        return before is not None and before.is_named
    return kind in ("type_parameters", "type_arguments")
