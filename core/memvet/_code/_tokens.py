"""The normalized token stream of a syntax tree, and hashes over its slices.

One depth-first pass over the whole tree produces the file's token stream;
the hash of any span is the SHA-256 of the tokens whose start byte lies in
that span. Nested symbols therefore cost one slice each, not another walk.
A stream can also cover only the sibling subtrees of one span (the walk
starts at the span's depth): looking up one symbol of a large file then
walks that symbol alone, with the same tokens and hash as the full pass.

Normalization (``HASH_VERSION`` 6; Go and Rust formatter rewrites since v6
are in :mod:`memvet._code._gorust`, and a span with a syntax error is hashed
on its raw tokens instead, see :func:`raw_digest`):

* a token is a leaf's source bytes, except that string-like nodes (string
  literals, regex literals, raw strings, f-strings; JavaScript template
  strings before v5) are one token holding their whole text, so the spacing
  inside them counts. A JavaScript template string is walked since v5: its
  text is string fragments and escapes, one token each, and the expressions
  in its ``${...}`` are tokens like any other;
* comments are dropped (doc comments are comments in every grammar here),
  and so are Python docstrings: a string expression statement that is the
  first statement of a module, class or function body;
* layout is dropped: whitespace never becomes a token. Where layout is
  syntax (Python blocks, YAML block collections) the block node emits an
  open marker ``<`` before its tokens and a close marker ``>`` after them,
  so dedenting a statement out of an ``if`` changes the hash while
  re-wrapping a call inside parentheses does not;
* every Python statement ends with the marker ``;`` (and the ``;`` token
  between two statements on one line is dropped): the newline that ends a
  statement is layout to the parser, so without it ``return`` followed by
  the statement ``x`` hashed like ``return x``, and ``a = b`` followed by
  ``-c`` like ``a = b - c`` (since v4);
* every JavaScript/TypeScript statement whose grammar ends in an optional
  ``;`` (expression statements, declarations, ``return``, ``throw``,
  ``break``, ``continue``, ``do``, ``import``, ``export``, class fields,
  TypeScript members and signatures...) ends with the marker ``;``, and its
  ``;`` token, written or inserted by automatic semicolon insertion, is
  dropped, as are ``;`` and ``,`` between class and interface members and
  empty statements in a block (since v5). The stream is then the token
  stream of the same program with every semicolon written out: ``return b``
  is ``return b;``, while ``a = b\\n(c)`` (one call) and ``a = b;\\n(c)``
  (two statements) stay apart, as do ``return\\nx`` and ``return x``;
* Python parentheses that change nothing (``(a, b) = x``, ``return (x)``,
  ``if (a):``; the exact rule is in :mod:`memvet._code._parens`) are dropped
  (since v4), and so are JavaScript/TypeScript ones (an arrow function's
  lone parameter, operands that bind tighter than their operator, an
  assignment used as a value, ``new A()`` with nothing after it; since v5);
* Python and JavaScript/TypeScript string literals are written in a
  canonical form where their quotes change nothing (``'x'`` is ``"x"``),
  and trailing commas that change nothing (``f(a,)``, ``[a, b,]``) are
  dropped; the exact rules are in :mod:`memvet._code._literals` (since v4;
  since v5 a JavaScript string whose escapes are only quote escapes is
  compared by value, a decimal number by its exact value, and a quoted
  object key that is a name is that name);
* each token is written as ``b"t" + decimal length + b":" + bytes``; the
  markers are the single bytes ``<``, ``>`` and ``;``, which no encoded
  token starts with, so no two different streams encode to the same bytes.

A span is a node (or a run of siblings) at some depth; it owns the markers
of the blocks and statements strictly inside it, even when one starts or
ends at the same byte as the span (a method that is the first or last
statement of its class), and the end markers of the siblings before its
last node. Token keys therefore order by byte first and depth second.

Node types are not hashed (only tokens and markers), so a grammar
upgrade that renames nodes does not change hashes by itself.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memvet._code._literals import COMMA

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import tree_sitter

__all__ = ["Lexicon", "TokenStream", "raw_digest"]

_OPEN = b"<"
_CLOSE = b">"
_STATEMENT = b";"
_PARENS = frozenset({"(", ")", "{", "}"})  # what ``redundant_parens`` may drop (Rust: braces)
_CLOSERS = frozenset({")", "]", "}", ">"})  # ">": TypeScript type parameters
# Roles of an inner node in the walk (Lexicon.roles).
_BLOCK, _END, _GROUP = 1, 2, 3
_NAME = b"n"  # stands for a masked name; never a token (tokens start with "t")
# Sort keys: byte * _M + sub-position. A token sits at sub-position _H; the
# open marker of a block at depth d at _H-range [0, _H) (outer first); the
# close marker of a block ending at byte E in byte E-1's range above _H
# (inner first), so it sorts before anything that starts at E.
_M = 1 << 16
_H = 1 << 15


def _open_key(byte: int, depth: int) -> int:
    return byte * _M + min(depth, _H - 1)


def _close_key(end: int, depth: int) -> int:
    return (end - 1) * _M + _H + 1 + (_H - 2 - min(depth, _H - 2))


@dataclass(frozen=True)
class Lexicon:
    """What the token stream keeps, drops and brackets, for one grammar.

    Attributes:
        skip: Node types dropped with their whole subtree (comments).
        atoms: Node types emitted as one token (string-like literals).
        blocks: Node types bracketed by open/close markers.
        docstrings: Drop Python docstrings.
        statements: Node types followed by a statement-end marker.
        paren_groups: Node types passed to ``redundant_parens`` when the
            walk enters them.
        redundant_parens: Called with a ``paren_groups`` node, its field
            name and a dict; records there the start bytes of the node's
            ``(`` and ``)`` if they change nothing (see
            :mod:`memvet._code._parens`), and those tokens are dropped.
        literals: Atom node types whose token text is ``literal(text)``.
        literal: The canonical text of a string literal, so quotes that
            change nothing leave the hash alone (see
            :mod:`memvet._code._literals`).
        trailing_comma: Called with a ``,`` leaf and the closing bracket
            right after it (``None`` when the comma ends its parent): whether
            the comma changes nothing, and is then dropped.
        terminators: Leaf types (JavaScript's ``;``) dropped when their
            parent is one of ``statements``: the statement's end marker
            stands for them, present in the source or inserted by the parser.
        separators: Leaf types dropped when their parent is of the given
            type (``;`` between class members); the members they separate
            are ``statements``, so their end markers keep them apart.
        no_ops: Node types dropped with their subtree when their parent is
            one of ``no_op_parents`` (an empty statement ``;`` in a block).
        no_op_parents: See ``no_ops``.
        leading: Leaf types dropped when they are the first child of a
            parent of the given type (the leading ``|`` of a TypeScript union
            type written one member per line).
        raw_literal_parents: A ``literals`` node under one of these keeps its
            text when it holds a backslash (a JSX attribute string, where a
            backslash is no escape).
        key_parents: Node types whose ``key`` field, when a ``literals``
            node, has its token text from ``key`` instead of ``literal``
            (``{"a": 1}`` is ``{a: 1}``).
        key: See ``key_parents``.
        optional: Leaf types dropped when ``is_optional`` says so (Rust: the
            ``;`` after a ``return`` that ends its block).
        is_optional: See ``optional``.
        unordered: Node types whose runs of adjacent siblings (comments
            between are fine) are one set, not a sequence: their tokens are
            hashed sorted (Rust ``use`` declarations, which rustfmt sorts).
            A run member with an attribute in front is no member.
        roles: What the walk does on entering an inner node, by node type
            (derived from the sets above; not to be mutated).
    """

    skip: frozenset[str]
    atoms: frozenset[str]
    blocks: frozenset[str] = frozenset()
    docstrings: bool = False
    statements: frozenset[str] = frozenset()
    paren_groups: frozenset[str] = frozenset()
    redundant_parens: Callable[[tree_sitter.Node, str | None, dict[int, int]], None] | None = None
    literals: frozenset[str] = frozenset()
    literal: Callable[[bytes], bytes] | None = None
    trailing_comma: Callable[[tree_sitter.Node, tree_sitter.Node | None], bool] | None = None
    terminators: frozenset[str] = frozenset()
    separators: dict[str, frozenset[str]] = field(default_factory=dict)
    no_ops: frozenset[str] = frozenset()
    no_op_parents: frozenset[str] = frozenset()
    leading: dict[str, frozenset[str]] = field(default_factory=dict)
    raw_literal_parents: frozenset[str] = frozenset()
    key_parents: frozenset[str] = frozenset()
    key: Callable[[bytes], bytes] | None = None
    optional: frozenset[str] = frozenset()
    is_optional: Callable[[tree_sitter.Node], bool] | None = None
    unordered: frozenset[str] = frozenset()
    roles: dict[str, int] = field(init=False, repr=False, compare=False)
    dropped_leaves: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # One lookup per inner node in the walk instead of one per set (the
        # walk of sqlalchemy's lib/ enters 1.3 million nodes).
        roles = dict.fromkeys(self.paren_groups, _GROUP)
        roles.update(dict.fromkeys(self.statements, _END))
        roles.update(dict.fromkeys(self.blocks, _BLOCK))
        if len(roles) != len(self.paren_groups) + len(self.statements) + len(self.blocks):
            raise ValueError("a node type is in more than one of blocks, statements, paren_groups")
        if self.paren_groups and self.redundant_parens is None:
            raise ValueError("paren_groups without redundant_parens")
        if self.literals and self.literal is None:
            raise ValueError("literals without literal")
        if self.key_parents and (self.key is None or self.literal is None):
            raise ValueError("key_parents without key and literal")
        if self.terminators and not self.statements:
            raise ValueError("terminators without statements")
        if self.optional and self.is_optional is None:
            raise ValueError("optional without is_optional")
        object.__setattr__(self, "roles", roles)
        object.__setattr__(self, "dropped_leaves",
                           self.terminators.union(self.optional, *self.separators.values(),
                                                  *self.leading.values()))


_DOC_OWNERS = frozenset({"function_definition", "class_definition"})
_DOC_STRINGS = frozenset({"string", "concatenated_string"})


def _is_docstring(node: tree_sitter.Node) -> bool:
    """Whether a Python ``expression_statement`` is a docstring."""
    if node.named_child_count != 1 or node.named_children[0].type not in _DOC_STRINGS:
        return False
    prev = node.prev_named_sibling
    while prev is not None and prev.type == "comment":
        prev = prev.prev_named_sibling
    if prev is not None:
        return False
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "module":
        return True
    owner = parent.parent
    return parent.type == "block" and owner is not None and owner.type in _DOC_OWNERS


def _parent_type(node: tree_sitter.Node) -> str:
    parent = node.parent
    return "" if parent is None else parent.type


class TokenStream:
    """The normalized tokens of one parsed file, addressable by byte span."""

    __slots__ = ("_errors", "_positions", "_tokens")

    def __init__(self, tree: tree_sitter.Tree, data: bytes, lexicon: Lexicon,
                 roots: Sequence[tree_sitter.Node] | None = None, depth: int = 0) -> None:
        """Walk ``tree`` (or only the subtrees at ``roots``) and record its
        tokens and error nodes.

        Args:
            tree: The parse of ``data``.
            data: The parsed bytes.
            lexicon: The grammar's normalization rules.
            roots: Walk only these sibling subtrees, in document order (one
                symbol's span): the digest of any span inside them is the
                same as over the whole file's stream, for a span without
                syntax errors (see :meth:`digest`).
            depth: Tree depth of ``roots`` (the root node is 0).
        """
        self._positions: list[int] = []
        self._tokens: list[bytes] = []
        drop: dict[int, int] = {}
        unordered: list[tree_sitter.Node] = []
        if roots is None:
            self._walk(tree.walk(), 0, data, lexicon, drop, unordered)
        else:
            for node in roots:
                self._walk(node.walk(), depth, data, lexicon, drop, unordered)
        if len(unordered) > 1:
            self._sort_runs(unordered, lexicon.skip)
        self._errors = error_spans(tree.root_node)

    def _sort_runs(self, nodes: list[tree_sitter.Node], skip: frozenset[str]) -> None:
        """Sort the tokens of each run of adjacent ``unordered`` siblings
        (``nodes`` in document order) by their text, in place: positions are
        kept, so a digest over the whole run sees one order whatever the
        source's, and no symbol's span starts or ends inside a run."""
        runs: list[list[tree_sitter.Node]] = []
        for node in nodes:
            before = node.prev_sibling
            while before is not None and before.type in skip:
                before = before.prev_sibling
            if before is not None and runs and before.id == runs[-1][-1].id:
                runs[-1].append(node)
            elif before is None or before.type != "attribute_item":
                runs.append([node])
        positions, tokens = self._positions, self._tokens
        for run in runs:
            if len(run) < 2:
                continue
            bounds = [(bisect_left(positions, n.start_byte * _M), bisect_left(positions, n.end_byte * _M))
                      for n in run]
            groups = [tokens[lo:hi] for lo, hi in bounds]
            groups.sort(key=b"".join)
            tokens[bounds[0][0]:bounds[-1][1]] = [t for group in groups for t in group]

    def _walk(self, cursor: tree_sitter.TreeCursor, depth: int, data: bytes, lexicon: Lexicon,
              drop: dict[int, int], unordered: list[tree_sitter.Node]) -> None:
        """Append the tokens of the cursor's subtree, whose root is at ``depth``.

        ``drop`` collects the start bytes of redundant parentheses as the
        walk enters the nodes that carry them (always before their tokens).
        """
        positions, tokens = self._positions, self._tokens
        skip, atoms, roles = lexicon.skip, lexicon.atoms, lexicon.roles
        docstrings, find_parens = lexicon.docstrings, lexicon.redundant_parens
        literals, literal, trailing = lexicon.literals, lexicon.literal, lexicon.trailing_comma
        dropped_leaves, terminators, separators = lexicon.dropped_leaves, lexicon.terminators, lexicon.separators
        leading = lexicon.leading
        no_ops, no_op_parents, raw_parents = lexicon.no_ops, lexicon.no_op_parents, lexicon.raw_literal_parents
        key_parents, key_text = lexicon.key_parents, lexicon.key
        optional, is_optional, sets = lexicon.optional, lexicon.is_optional, lexicon.unordered
        # One entry per ancestor of the cursor: the end byte of a block
        # ancestor (its close marker is due when we leave it), -2 - the end
        # byte of a statement (its end marker is due), else -1. The
        # ancestors above the cursor's root only count for the depth.
        stack: list[int] = [-1] * depth
        while True:
            node = cursor.node
            assert node is not None
            kind = node.type
            if kind in skip or (docstrings and kind == "expression_statement" and _is_docstring(node)) or (
                    kind in no_ops and _parent_type(node) in no_op_parents):
                pass
            elif kind in dropped_leaves and (
                    (kind in terminators and stack and stack[-1] < -1)
                    or kind in separators.get(_parent_type(node), ())
                    or (kind in leading.get(_parent_type(node), ()) and node.prev_sibling is None)
                    or (kind in optional and is_optional is not None and is_optional(node))):
                kind = ""  # dropped: no token, and no trailing comma either
            elif kind in atoms or node.child_count == 0:
                start = node.start_byte
                if trailing is not None and kind in _CLOSERS and tokens and tokens[-1] == COMMA:
                    comma = node.prev_sibling
                    while comma is not None and comma.type in skip:
                        comma = comma.prev_sibling
                    if comma is not None and comma.type == "," and trailing(comma, node):
                        tokens.pop()
                        positions.pop()
                if not (drop and start in drop and kind in _PARENS):
                    text = data[start : node.end_byte]
                    if kind in literals:
                        assert literal is not None
                        if key_parents and cursor.field_name == "key" and _parent_type(node) in key_parents:
                            assert key_text is not None
                            text = key_text(text)
                        elif not (raw_parents and b"\\" in text and _parent_type(node) in raw_parents):
                            text = literal(text)
                    key = start * _M + _H
                    positions.append(key if not positions or key >= positions[-1] else positions[-1])
                    tokens.append(b"t%d:%s" % (len(text), text))
            else:
                if kind in sets:
                    unordered.append(node)
                role = roles.get(kind)
                if role is None:
                    stack.append(-1)
                elif role == _BLOCK:
                    key = _open_key(node.start_byte, len(stack))
                    positions.append(key if not positions or key >= positions[-1] else positions[-1])
                    tokens.append(_OPEN)
                    stack.append(node.end_byte)
                elif role == _END:
                    stack.append(-2 - node.end_byte)
                else:
                    stack.append(-1)
                    assert find_parens is not None
                    find_parens(node, cursor.field_name, drop)
                cursor.goto_first_child()
                continue
            # A cursor never leaves its own root: the walk ends there. The
            # root's own marker is out by then (popped on the way back up to
            # it), as in the walk of the whole file: a digest of the root's
            # span leaves it out, one of a run of sibling roots keeps it for
            # all but the last.
            if cursor.goto_next_sibling():
                continue
            if kind == "," and trailing is not None and trailing(node, None):
                tokens.pop()  # a trailing comma that ends its parent (a bare tuple)
                positions.pop()
            while True:
                if not cursor.goto_parent():
                    return
                end = stack.pop()
                if end >= 0:
                    key = _close_key(end, len(stack))
                    positions.append(key if key >= positions[-1] else positions[-1])
                    tokens.append(_CLOSE)
                elif end < -1:
                    key = _close_key(-2 - end, len(stack))
                    positions.append(key if not positions or key >= positions[-1] else positions[-1])
                    tokens.append(_STATEMENT)
                if cursor.goto_next_sibling():
                    break

    def digest(self, start: int, end: int, depth: int, mask: int = -1) -> str:
        """SHA-256 hex of a span's tokens.

        Args:
            start: First byte of the span.
            end: Byte after the span.
            depth: Tree depth of the span's node(s) (the root is 0): block
                markers at the span's edges count only for deeper blocks.
            mask: First byte of a token to replace by a placeholder (the
                symbol's own name, for a rename-independent "shape" hash).
        """
        i = bisect_left(self._positions, _open_key(start, depth) + 1)
        j = bisect_left(self._positions, _close_key(end, depth), i)
        tokens = self._tokens[i:j]
        if mask >= 0:
            k = bisect_left(self._positions, mask * _M + _H, i, j)
            if k < j and self._positions[k] == mask * _M + _H:
                tokens[k - i] = _NAME
        return hashlib.sha256(b"".join(tokens)).hexdigest()

    def has_error(self, start: int, end: int) -> bool:
        """Whether an ERROR or MISSING node overlaps ``[start, end)``."""
        return overlaps_error(self._errors, start, end)


_RAW = b"raw;"  # starts every raw stream: no normalized stream starts so


def raw_digest(roots: Sequence[tree_sitter.Node], data: bytes, lexicon: Lexicon, mask: int = -1) -> str:
    """SHA-256 hex of the raw tokens of a span that holds a syntax error.

    Where the parser recovered from an error, the shape of the tree (which
    node is a statement, a block, a group) says more about the recovery
    than about the code, and it can change with an edit elsewhere. A span
    with an error is therefore hashed on its leaves alone, in document
    order: comments (``lexicon.skip``) and Python docstrings dropped, an
    atom (a string) one token, every other leaf its source bytes, and no
    markers and no normalization (parentheses, quotes, trailing commas and
    semicolons count as written). Layout still never counts, Python
    indentation included: in a broken span, moving a statement into or out
    of a block is not seen (the tree that would say so is the broken part). The digest
    depends only on the span's own text, so it is stable while the span is,
    and a span hashed this way never equals one hashed normally.

    Args:
        roots: The sibling nodes the span covers, in document order.
        data: The parsed bytes.
        lexicon: The grammar's rules (only ``skip``, ``atoms`` and
            ``docstrings`` are used).
        mask: First byte of a token to replace by a placeholder (the
            symbol's own name, for the shape hash).
    """
    out = [_RAW]
    for root in roots:
        todo = [root]
        while todo:
            node = todo.pop()
            kind = node.type
            if kind in lexicon.skip or (lexicon.docstrings and kind == "expression_statement"
                                        and _is_docstring(node)):
                continue
            if kind in lexicon.atoms or node.child_count == 0:
                start, end = node.start_byte, node.end_byte
                if end > start:  # a MISSING node has no text
                    out.append(_NAME if start == mask else b"t%d:%s" % (end - start, data[start:end]))
                continue
            todo.extend(reversed(node.children))
    return hashlib.sha256(b"".join(out)).hexdigest()


def overlaps_error(errors: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether one of ``errors`` (see :func:`error_spans`) overlaps
    ``[start, end)``; a zero-width MISSING node counts at either end."""
    for err_start, err_end in errors:
        if err_start < end and (err_end > start or (err_start == err_end and err_start >= start)):
            return True
        if err_start == err_end == end:
            return True
    return False


def error_spans(root: tree_sitter.Node) -> list[tuple[int, int]]:
    """Byte spans of the syntax errors, descending only into erroneous nodes."""
    if not root.has_error:
        return []
    spans: list[tuple[int, int]] = []
    todo = [root]
    while todo:
        node = todo.pop()
        if node.is_missing:
            spans.append((node.start_byte, node.end_byte))
        elif node.is_error:
            # An ERROR node may wrap well-formed definitions (a stray token
            # at the top level can make the root an ERROR): only its stray
            # tokens and broken children are errors, not its whole span.
            if node.child_count == 0:
                spans.append((node.start_byte, node.end_byte))
            for child in node.children:
                if child.has_error:
                    todo.append(child)
                elif child.child_count == 0 or not child.is_named:
                    spans.append((child.start_byte, child.end_byte))
        else:
            todo.extend(child for child in node.children if child.has_error)
    return spans
