"""What gofmt and rustfmt rewrite without changing the program (hasher v6).

The token stream (:mod:`memvet._code._tokens`) calls these while it walks a
Go or Rust file, so a formatter's run leaves every hash alone:

* **Trailing commas.** Go: a comma right before a closing bracket is always
  optional (gofmt drops it when it joins a list onto one line; the
  compiler wants it when the bracket is on a line of its own), and Go has
  no one-element tuple it could mark. Rust: a comma before a closing
  bracket is optional except in a one-element tuple (``(a,)``, ``(T,)``, a
  tuple pattern), which it makes; in a macro's token tree it is kept out
  too, as rustfmt does for the calls it formats (``vec![1, 2,]``), except
  after a lone element in parentheses that are no call's (``m!((a,))`` may
  be a tuple, ``m!(f(a,))`` is a call); the
  comma that ends a ``where`` clause is optional.
* **Rust match arms**: each arm ends with the stream's statement marker and
  its comma is dropped (rustfmt writes one after every arm but a block, and
  the last arm may have one or not); a block that holds one expression and
  nothing else is that expression (rustfmt unwraps ``X => { f(x) }`` into
  ``X => f(x),`` and wraps a body too long for its line in a block); so is
  a closure's (``|e| { f(e) }`` is ``|e| f(e)``, the same rewrite).
* **Rust statement ends rustfmt writes**: the ``;`` after a ``return``,
  ``break`` or ``continue`` that ends its block, and after the last rule of
  a ``macro_rules!``; a rule's transcriber counts without its delimiters
  (``=> (...)`` is ``=> { ... }``, which rustfmt writes).
* **Rust ``use`` declarations** in a row are a set: rustfmt sorts them
  (the order of ``use`` declarations never changes a Rust program); one
  with an attribute in front (``#[cfg(unix)] use ...``) keeps its place.
* **Rust range patterns**: ``1...3`` is written ``1..=3`` (rustfmt, Rust
  2018's spelling of the same pattern).
* **Go statement ends**: a ``;`` between statements, struct fields or specs
  is layout (gofmt puts each on a line of its own, and the parser inserts
  the same ``;`` at a line end); every statement and spec ends with the
  stream's statement marker instead, so ``a := b`` followed by ``(c)`` is
  not ``a := b(c)``.
* **Go parentheses around a condition**: ``if (a > b) {``, ``for (ok) {``,
  ``switch (x) {`` and a ``for`` clause's condition lose them under gofmt
  (``stripParens``), unless a composite literal stands inside, where they
  are needed.
* **Go number prefixes and exponents**: gofmt writes ``0X1F`` as ``0x1F``,
  ``0O17`` as ``0o17``, ``0B1`` as ``0b1``, ``1E5`` as ``1e5`` and a hex
  float's ``P`` as ``p``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

__all__ = [
    "GO_PAREN_GROUPS",
    "GO_SEPARATORS",
    "GO_STATEMENTS",
    "RUST_OPTIONAL",
    "RUST_PAREN_GROUPS",
    "RUST_STATEMENTS",
    "RUST_TERMINATORS",
    "go_literal",
    "go_redundant_parens",
    "go_trailing_comma",
    "rust_literal",
    "rust_optional",
    "rust_redundant_braces",
    "rust_trailing_comma",
]

# Statements and the specs of a declaration list (tree-sitter-go 0.25).
GO_STATEMENTS = frozenset({
    "assignment_statement", "break_statement", "const_declaration", "continue_statement",
    "dec_statement", "defer_statement", "empty_statement", "expression_statement",
    "expression_switch_statement", "fallthrough_statement", "for_statement", "go_statement",
    "goto_statement", "if_statement", "inc_statement", "labeled_statement", "receive_statement",
    "return_statement", "select_statement", "send_statement", "short_var_declaration",
    "type_declaration", "type_switch_statement", "var_declaration",
    "const_spec", "var_spec", "type_spec", "import_spec", "field_declaration", "method_elem",
    "function_declaration", "method_declaration", "import_declaration", "package_clause",
})
_GO_LISTS = ("source_file", "statement_list", "field_declaration_list", "var_spec_list",
             "const_declaration", "import_spec_list", "interface_type", "type_declaration")
GO_SEPARATORS = {kind: frozenset({";"}) for kind in _GO_LISTS}
GO_PAREN_GROUPS = frozenset({"parenthesized_expression"})
_GO_CONDITIONS = {"if_statement": "condition", "for_clause": "condition", "expression_switch_statement": "value"}


def go_trailing_comma(comma: tree_sitter.Node, closer: tree_sitter.Node | None) -> bool:
    """Whether a Go comma changes nothing: any comma right before a closer."""
    return closer is not None


def go_redundant_parens(node: tree_sitter.Node, field: str | None, drop: dict[int, int]) -> None:
    """Record the parentheses of a condition that gofmt strips (see the
    module docs) in ``drop`` (start byte of ``(`` and ``)`` -> 0)."""
    parent = node.parent
    if parent is None:
        return
    if parent.type == "parenthesized_expression":
        stripped = parent.start_byte in drop  # ((a)): gofmt strips every level
    elif parent.type == "for_statement":
        stripped = node.next_sibling is not None and node.next_sibling.type == "block"
    else:
        slot = _GO_CONDITIONS.get(parent.type)
        stripped = slot is not None and slot == field
    if not stripped or _holds_composite(node):
        return
    first, last = node.child(0), node.child(node.child_count - 1)
    if first is not None and last is not None and first.type == "(" and last.type == ")":
        drop[first.start_byte] = 0
        drop[last.start_byte] = 0


def _holds_composite(node: tree_sitter.Node) -> bool:
    todo = [node]
    while todo:
        current = todo.pop()
        if current.type == "composite_literal":
            return True
        todo.extend(current.named_children)
    return False


def go_literal(text: bytes) -> bytes:
    """A Go number as gofmt writes it (see the module docs); other
    literals as they are."""
    if len(text) > 1 and text[0:1] == b"0" and text[1:2] in (b"X", b"O", b"B"):
        text = text[:1] + text[1:2].lower() + text[2:]
    if text[:2] == b"0x":
        return text.replace(b"P", b"p")
    return text.replace(b"E", b"e")


def rust_literal(text: bytes) -> bytes:
    """``...`` (a Rust 2015 range pattern) as ``..=``; anything else as is."""
    return b"..=" if text == b"..." else text


# Rust nodes whose elements a comma separates, and where a trailing one is
# optional. Tuples are not among them: ``(a,)`` is a tuple, ``(a)`` is not.
_RUST_LISTS = frozenset({
    "arguments", "parameters", "type_arguments", "type_parameters", "array_expression",
    "field_declaration_list", "ordered_field_declaration_list", "field_initializer_list",
    "struct_pattern", "tuple_struct_pattern", "slice_pattern", "enum_variant_list", "use_list",
    "token_tree", "closure_parameters", "where_clause", "attribute", "meta_arguments",
})
_RUST_TUPLES = frozenset({"tuple_expression", "tuple_type", "tuple_pattern"})


RUST_STATEMENTS = frozenset({"match_arm"})
RUST_TERMINATORS = frozenset({","})
RUST_PAREN_GROUPS = frozenset({"block", "token_tree"})
_RUST_COMMENTS = frozenset({"line_comment", "block_comment"})


def rust_redundant_braces(node: tree_sitter.Node, field: str | None, drop: dict[int, int]) -> None:
    """Record the braces of a match arm's or a closure's block that holds
    one expression and nothing else (``X => { f(x) }``, ``|e| { f(e) }``,
    which rustfmt writes ``X => f(x),`` and ``|e| f(e)``, and wraps again
    when the line is too long) in ``drop``."""
    parent = node.parent
    if parent is not None and parent.type == "macro_rule" and field == "right":
        _drop_ends(node, drop)  # `=> (...)`, `=> [...]` and `=> {...}` are one transcriber
        return
    if parent is None or (parent.type, field) not in (("match_arm", "value"), ("closure_expression", "body")):
        return
    inner = [child for child in node.children if child.type not in ("{", "}")]
    if len(inner) != 1 or not inner[0].is_named or inner[0].type in _RUST_COMMENTS:
        return
    kind = inner[0].type
    if kind == "expression_statement":  # `{ match x {...} }`: a block-like tail, no `;`
        if inner[0].child_count != 1:
            return
    elif kind.endswith(("_statement", "_declaration", "_item")) or kind == "attribute_item":
        return
    head = node.child(0)
    if head is not None and head.type == "{":
        _drop_ends(node, drop)


def _drop_ends(node: tree_sitter.Node, drop: dict[int, int]) -> None:
    first, last = node.child(0), node.child(node.child_count - 1)
    if first is not None and last is not None and first.type in ("{", "(", "[") and last.type in ("}", ")", "]"):
        drop[first.start_byte] = 0
        drop[last.start_byte] = 0


def _called(tree: tree_sitter.Node) -> bool:
    """Whether a ``(...)`` token tree inside a macro call is a call's
    arguments (``f(a,)``, ``f::<T>(a,)``): never a tuple."""
    before = tree.prev_sibling
    return before is not None and before.type in ("identifier", ">")


RUST_OPTIONAL = frozenset({";"})
_DIVERGING = frozenset({"return_expression", "break_expression", "continue_expression"})


def rust_optional(semicolon: tree_sitter.Node) -> bool:
    """Whether a Rust ``;`` changes nothing: after a ``return``, ``break`` or
    ``continue`` that ends its block (rustfmt adds it: ``{ return x }`` is
    ``{ return x; }``), or after the last rule of a ``macro_rules!``."""
    parent = semicolon.parent
    if parent is None:
        return False
    if parent.type == "macro_definition":
        after = semicolon.next_sibling
        return after is not None and after.type in ("}", ")", "]")
    if parent.type != "expression_statement" or parent.named_child_count != 1 \
            or parent.named_children[0].type not in _DIVERGING:
        return False
    after = parent.next_sibling
    while after is not None and after.type in _RUST_COMMENTS:
        after = after.next_sibling
    return after is not None and after.type == "}"


def rust_trailing_comma(comma: tree_sitter.Node, closer: tree_sitter.Node | None) -> bool:
    """Whether a Rust comma changes nothing (see the module docs)."""
    parent = comma.parent
    if parent is None:
        return False
    kind = parent.type
    if kind == "where_clause":
        return closer is None
    if closer is None:
        return False
    if kind in _RUST_TUPLES or (kind == "token_tree" and closer.type == ")" and not _called(parent)):
        # `(a,)` is a one-element tuple, in a macro's arguments too
        return sum(1 for child in parent.children if child.type == ",") >= 2
    return kind in _RUST_LISTS
