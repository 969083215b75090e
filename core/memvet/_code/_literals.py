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

JavaScript and TypeScript: see :func:`js_string` and :func:`js_trailing_comma`.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

__all__ = [
    "COMMA",
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
    """:func:`js_string`, and numbers lower-cased as in :func:`python_literal`
    (``0XFF``, ``1E5``; a BigInt's ``n`` is lower case already)."""
    if text and text[0] in _DIGITS:
        return text.lower()
    return js_string(text)


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

    Only a literal without any backslash is rewritten: its value is then its
    body, and ``'x'`` becomes ``"x"`` when the body holds no ``"``
    (prettier's choice of quotes never needs more). Everything else keeps
    its text. Template literals are other nodes and are never rewritten.

    Args:
        text: The literal's source bytes, quotes included.
    """
    if len(text) < 2 or text[0] != text[-1] or text[0] not in _QUOTES or b"\\" in text:
        return text
    body = text[1:-1]
    if b'"' in body:
        return text
    return b'"' + body + b'"'


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
    TypeScript type parameter lists keep it (``<T,>`` tells a generic arrow
    function from JSX in ``.tsx``), and so does everything not listed.

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
    return False
