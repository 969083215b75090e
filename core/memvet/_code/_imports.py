"""Import extraction for "must stay absent" anchors.

Each language's ``queries/<language>-imports.scm`` captures the imported
module names as syntax nodes, so a name that only appears in a comment or a
string is never reported.

Reported names, per language:

* Python: ``import x.y as z`` -> ``x.y``; ``from x.y import z`` -> ``x.y``;
  ``from ..x import y`` -> ``..x``; ``from . import y`` -> ``.``; plus
  ``__import__("x")`` and ``importlib.import_module("x")`` with a literal.
* JavaScript/TypeScript: the specifier of ``import ... from 'x'``,
  ``import 'x'``, ``export ... from 'x'``, ``require('x')``, ``import('x')``
  and TypeScript's ``import x = require('x')``.
* Go: the import path without quotes.
* Rust: the path of each ``use`` (``use a::b::{c, d as e}`` -> ``a::b::c``
  and ``a::b::d``; ``use a::*`` -> ``a``) and ``extern crate x`` -> ``x``;
  a ``use`` in a branch of a ``cfg_if!`` too, the file read as the symbol
  table reads it (:func:`memvet._code._symbols.parse_input`).
* Java: ``import a.b.C;`` -> ``a.b.C``; ``import a.b.*;`` -> ``a.b``.

A caller matches a module name ``N`` against a reported name ``R`` when
``R == N`` or ``R`` starts with ``N`` followed by ``.``, ``::`` or ``/``.
"""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

from memvet._code._languages import CODE_LANGUAGES, UnsupportedLanguage, parse, query
from memvet._code._symbols import parse_input

__all__ = ["imports"]


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _rust_paths(node: tree_sitter.Node, prefix: str) -> list[str]:
    """Expand a Rust ``use`` argument into full paths."""
    kind = node.type
    join: Callable[[str], str] = (lambda tail: f"{prefix}::{tail}" if prefix and tail else prefix or tail)  # noqa: E731
    if kind == "use_as_clause":
        path = node.child_by_field_name("path")
        return _rust_paths(path, prefix) if path is not None else []
    if kind == "use_wildcard":
        inner = [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]
        return [join(_text(inner[0]))] if inner else [prefix]
    if kind == "scoped_use_list":
        path = node.child_by_field_name("path")
        listing = node.child_by_field_name("list")
        base = join(_text(path)) if path is not None else prefix
        return _rust_paths(listing, base) if listing is not None else [base]
    if kind == "use_list":
        out: list[str] = []
        for child in node.named_children:
            if child.type not in ("line_comment", "block_comment"):
                out.extend(_rust_paths(child, prefix))
        return out
    if kind == "self":
        return [prefix] if prefix else ["self"]
    return [join(_text(node))]


def imports(data: bytes, language: str) -> list[tuple[str, int]]:
    """Return ``(module name, 1-based line)`` for every import in a file.

    Args:
        data: The file's bytes.
        language: A code language; structured-text languages have no
            imports and return ``[]``.

    Returns:
        The imports in document order (see the module docstring for the
        form of the names).

    Raises:
        UnsupportedLanguage: ``language`` is not supported.
    """
    if language not in CODE_LANGUAGES:
        if language in ("markdown", "json", "yaml", "toml"):
            return []
        raise UnsupportedLanguage(f"no grammar for language {language!r}")
    tree = parse(parse_input(data, language), language)  # a `use` in a cfg_if! branch, a file with try!
    found: list[tuple[int, str, int]] = []
    for _, captures in tree_sitter.QueryCursor(query(language, "imports")).matches(tree.root_node):
        for node in captures.get("module", ()):
            name = _text(node)
            if language == "go":
                name = name.strip('"`')
            found.append((node.start_byte, name, node.start_point.row + 1))
        for node in captures.get("use", ()):
            for path in _rust_paths(node, ""):
                found.append((node.start_byte, path, node.start_point.row + 1))
    found.sort(key=lambda item: item[0])
    return [(name, line) for _, name, line in found if name]
