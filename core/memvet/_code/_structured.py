"""Symbol tables of structured text: Markdown sections, JSON/YAML/TOML keys.

Qualified names:

* Markdown: the chain of heading texts, joined by ``.``: ``Decision.Consequences``.
  A heading's text is its content with the ``#`` markers (and an ATX closing
  sequence) removed and surrounding whitespace trimmed; setext headings count
  too. A section runs to the next heading of the same or a higher level, so
  it includes its subsections. Hash: SHA-256 of the section's text with every
  whitespace run collapsed to one space (whitespace-only normalization).
* JSON / YAML / TOML: the key path, ``server.port``. A TOML table
  ``[tool.memvet]`` is a symbol of kind ``table`` and its keys are
  ``tool.memvet.x``; TOML dotted keys ``a.b = 1`` give ``a.b``. Arrays are
  indexed: ``servers[0].port``, TOML arrays of tables ``[[bin]]`` give
  ``bin[0]``, ``bin[1]``, ... with keys ``bin[0].name``. Array elements
  themselves are not symbols, only keys (and TOML tables) are. Hash: the
  normalized tokens of the value (layout and comments ignored, strings
  whole, YAML block nesting kept).

A segment that is empty or contains ``.``, ``[``, ``]`` or ``"`` is written
as a JSON string: ``tool."memvet.x"``. Duplicate paths (a repeated key, the
same key in two YAML documents, a repeated heading) get ``#2``, ``#3``...
in document order.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING

from memvet._code._languages import parse
from memvet._code._model import Symbol, SymbolTable
from memvet._code._symbols import end_line, quote_segment, unique_qualnames
from memvet._code._tokens import Lexicon, TokenStream

if TYPE_CHECKING:
    import tree_sitter

__all__ = ["structured_symbol_table"]

_LEXICONS = {
    "json": Lexicon(skip=frozenset({"comment"}), atoms=frozenset({"string"})),
    "toml": Lexicon(skip=frozenset({"comment"}), atoms=frozenset({"string"})),
    "yaml": Lexicon(
        skip=frozenset({"comment"}),
        atoms=frozenset({"double_quote_scalar", "single_quote_scalar", "block_scalar"}),
        blocks=frozenset({"block_mapping", "block_sequence"}),
    ),
}
_ATX_CLOSE = re.compile(r"(^|\s)#+\s*$")

# (path, kind, span node, value node, depth of the value node) of one key or table.
_Entry = tuple[str, str, "tree_sitter.Node", "tree_sitter.Node", int]


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _child_path(path: str, key: str) -> str:
    segment = quote_segment(key)
    return f"{path}.{segment}" if path else segment


def _unquote(text: str) -> str:
    """The value of a quoted key (JSON-style escapes for double quotes)."""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        try:
            value = json.loads(text)
        except ValueError:
            return text[1:-1]
        return value if isinstance(value, str) else text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    return text


def _json_entries(root: tree_sitter.Node) -> list[_Entry]:
    out: list[_Entry] = []
    todo: list[tuple[tree_sitter.Node, str, int]] = [(root, "", 0)]
    while todo:
        node, path, depth = todo.pop()
        if node.type == "pair":
            key, value = node.child_by_field_name("key"), node.child_by_field_name("value")
            if key is None:
                continue
            sub = _child_path(path, _unquote(_text(key)))
            if value is None:
                out.append((sub, "key", node, node, depth))
            else:
                out.append((sub, "key", node, value, depth + 1))
                todo.append((value, sub, depth + 1))
        elif node.type == "array":
            items = [c for c in node.named_children if c.type != "comment"]
            todo.extend((c, f"{path}[{i}]", depth + 1) for i, c in reversed(list(enumerate(items))))
        else:
            todo.extend((c, path, depth + 1) for c in reversed(node.named_children))
    return out


_YAML_PAIRS = frozenset({"block_mapping_pair", "flow_pair"})
_YAML_SEQUENCES = frozenset({"block_sequence", "flow_sequence"})


def _yaml_key(node: tree_sitter.Node) -> str:
    scalars = [c for c in node.named_children if c.type not in ("anchor", "tag", "comment")]
    return _unquote(_text(scalars[0] if scalars else node).strip())


def _yaml_entries(root: tree_sitter.Node) -> list[_Entry]:
    out: list[_Entry] = []
    todo: list[tuple[tree_sitter.Node, str, int]] = [(root, "", 0)]
    while todo:
        node, path, depth = todo.pop()
        if node.type in _YAML_PAIRS:
            key, value = node.child_by_field_name("key"), node.child_by_field_name("value")
            if key is None:
                continue
            sub = _child_path(path, _yaml_key(key))
            if value is None:
                out.append((sub, "key", node, node, depth))
            else:
                out.append((sub, "key", node, value, depth + 1))
                todo.append((value, sub, depth + 1))
        elif node.type in _YAML_SEQUENCES:
            items = [c for c in node.named_children if c.type != "comment"]
            todo.extend((c, f"{path}[{i}]", depth + 1) for i, c in reversed(list(enumerate(items))))
        else:
            todo.extend((c, path, depth + 1) for c in reversed(node.named_children))
    return out


_TOML_KEYS = frozenset({"bare_key", "quoted_key", "dotted_key"})


def _toml_key(node: tree_sitter.Node) -> list[str]:
    if node.type == "dotted_key":
        parts: list[str] = []
        for child in node.named_children:
            parts.extend(_toml_key(child))
        return parts
    return [_unquote(_text(node))]


def _toml_join(path: str, keys: list[str]) -> str:
    for key in keys:
        path = _child_path(path, key)
    return path


def _toml_entries(root: tree_sitter.Node) -> list[_Entry]:
    out: list[_Entry] = []
    array_counts: dict[str, int] = {}
    todo: list[tuple[tree_sitter.Node, str, int]] = [(root, "", 0)]
    while todo:
        node, path, depth = todo.pop()
        kind = node.type
        named = [c for c in node.named_children if c.type != "comment"]
        if kind in ("table", "table_array_element"):
            header = next((c for c in named if c.type in _TOML_KEYS), None)
            if header is None:
                continue
            sub = _toml_join("", _toml_key(header))
            if kind == "table_array_element":
                index = array_counts.get(sub, 0)
                array_counts[sub] = index + 1
                sub = f"{sub}[{index}]"
            out.append((sub, "table", node, node, depth))
            todo.extend((c, sub, depth + 1) for c in reversed(named) if c is not header)
        elif kind == "pair":
            if not named or named[0].type not in _TOML_KEYS:
                continue
            value = named[-1] if len(named) > 1 else node
            sub = _toml_join(path, _toml_key(named[0]))
            if value is node:
                out.append((sub, "key", node, node, depth))
            else:
                out.append((sub, "key", node, value, depth + 1))
                todo.append((value, sub, depth + 1))
        elif kind == "array":
            todo.extend((c, f"{path}[{i}]", depth + 1) for i, c in reversed(list(enumerate(named))))
        else:
            todo.extend((c, path, depth + 1) for c in reversed(named))
    return out


def _heading_text(heading: tree_sitter.Node) -> str:
    content = heading.child_by_field_name("heading_content")
    text = _text(content) if content is not None else ""
    if heading.type == "atx_heading":
        text = _ATX_CLOSE.sub("", text.rstrip())
    return " ".join(text.split())


def _markdown(data: bytes) -> SymbolTable:
    tree = parse(data, "markdown")
    rows: list[tuple[str, str, tree_sitter.Node]] = []
    todo: list[tuple[tree_sitter.Node, str, str]] = [(tree.root_node, "", "")]
    # Plain (unquoted-suffix-free) paths double as names: headings have no
    # parameter suffix, only the #n of a repeated heading.
    while todo:
        node, path, _ = todo.pop()
        for child in reversed(node.named_children):
            if child.type != "section":
                continue
            heading = child.named_children[0] if child.named_child_count else None
            if heading is None or heading.type not in ("atx_heading", "setext_heading"):
                todo.append((child, path, ""))
                continue
            sub = _child_path(path, _heading_text(heading))
            rows.append((sub, sub, child))
            todo.append((child, sub, ""))
    rows.sort(key=lambda r: r[2].start_byte)
    names = unique_qualnames((base, name, None) for base, name, _ in rows)
    symbols: dict[str, Symbol] = {}
    for (qual, name), (_, _, section) in zip(names, rows, strict=True):
        body = b" ".join(data[section.start_byte : section.end_byte].split())
        symbols[qual] = Symbol(
            qualname=qual,
            name=name,
            kind="section",
            hash=hashlib.sha256(body).hexdigest(),
            start_line=section.start_point.row + 1,
            end_line=end_line(section, section),
            has_error=section.has_error,
        )
    return SymbolTable("markdown", symbols, tree.root_node.has_error)


def structured_symbol_table(data: bytes, language: str) -> SymbolTable:
    """Parse Markdown, JSON, YAML or TOML and return its symbol table."""
    if language == "markdown":
        return _markdown(data)
    tree = parse(data, language)
    stream = TokenStream(tree, data, _LEXICONS[language])
    walk = {"json": _json_entries, "yaml": _yaml_entries, "toml": _toml_entries}[language]
    entries = sorted(walk(tree.root_node), key=lambda e: e[2].start_byte)
    names = unique_qualnames((path, path, None) for path, _, _, _, _ in entries)
    symbols: dict[str, Symbol] = {}
    for (qual, name), (_, kind, span, value, depth) in zip(names, entries, strict=True):
        symbols[qual] = Symbol(
            qualname=qual,
            name=name,
            kind=kind,
            hash=stream.digest(value.start_byte, value.end_byte, depth),
            start_line=span.start_point.row + 1,
            end_line=end_line(span, span),
            has_error=stream.has_error(span.start_byte, span.end_byte),
        )
    return SymbolTable(language, symbols, tree.root_node.has_error)
