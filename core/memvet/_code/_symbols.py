"""Symbol tables of source code (Python, JavaScript/JSX, TypeScript/TSX, Go,
Rust, Java), from the ``queries/<language>-symbols.scm`` definition queries.

A query match gives a definition node (``@definition.<kind>``) or a scope
(``@scope.<kind>``: a Rust ``impl`` block, a nested object literal), its name
(``@name``) and, for Go methods, the receiver type (``@receiver``). Nesting
comes from the tree: a definition's parent is its nearest enclosing
definition or scope. Everything else - spans, parameter signatures for
overloads, hashes - is computed here from the one parse and one token pass.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import tree_sitter

from memvet._code._gorust import (
    GO_PAREN_GROUPS,
    GO_SEPARATORS,
    GO_STATEMENTS,
    RUST_OPTIONAL,
    RUST_PAREN_GROUPS,
    RUST_STATEMENTS,
    RUST_TERMINATORS,
    go_literal,
    go_redundant_parens,
    go_trailing_comma,
    rust_literal,
    rust_optional,
    rust_redundant_braces,
    rust_trailing_comma,
)
from memvet._code._java import anonymous_name, erase_parameter
from memvet._code._languages import as_utf8, parse, query
from memvet._code._literals import js_key, js_literal, js_trailing_comma, python_literal, python_trailing_comma
from memvet._code._model import ParsedFile, Symbol, SymbolTable
from memvet._code._parens import GROUPS, JS_GROUPS, js_redundant_parens, redundant_parens
from memvet._code._tokens import Lexicon, TokenStream, error_spans, overlaps_error, raw_digest

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

__all__ = ["LEXICONS", "CodeFile", "cfg_if_branches", "code_symbol_table", "may_hide", "parse_input", "quote_segment",
           "unique_qualnames"]

# JavaScript/TypeScript nodes whose grammar rule ends in an optional ";"
# (written, or inserted by automatic semicolon insertion), tree-sitter-
# javascript 0.25 and tree-sitter-typescript 0.23; TypeScript class and
# interface members too.
_JS_STATEMENTS = frozenset({
    "expression_statement", "variable_declaration", "lexical_declaration", "return_statement",
    "throw_statement", "break_statement", "continue_statement", "debugger_statement",
    "do_statement", "import_statement", "export_statement", "empty_statement",
    "field_definition",
    "type_alias_declaration", "function_signature", "import_alias", "public_field_definition",
    "abstract_method_signature", "method_signature", "index_signature", "property_signature",
    "call_signature", "construct_signature",
})
_JS_LEX = Lexicon(
    skip=frozenset({"comment", "html_comment"}),
    # Template literals are walked: their text is string fragments and
    # escapes, one token each, so an expression in ${...} is tokens like
    # any other and its layout is free.
    atoms=frozenset({"string", "regex", "jsx_text"}),
    statements=_JS_STATEMENTS,
    paren_groups=JS_GROUPS,
    redundant_parens=js_redundant_parens,
    literals=frozenset({"string", "number", "regex"}),
    literal=js_literal,
    trailing_comma=js_trailing_comma,
    terminators=frozenset({";"}),
    separators={
        "class_body": frozenset({";"}),
        "interface_body": frozenset({";", ","}),
        "object_type": frozenset({";", ","}),
    },
    no_ops=frozenset({"empty_statement"}),
    no_op_parents=frozenset({"program", "statement_block", "switch_case", "switch_default"}),
    leading={"union_type": frozenset({"|"}), "intersection_type": frozenset({"&"})},
    raw_literal_parents=frozenset({"jsx_attribute"}),
    key_parents=frozenset({"pair", "pair_pattern"}),
    key=js_key,
)
_C_COMMENTS = frozenset({"line_comment", "block_comment"})
# Every statement node of tree-sitter-python 0.25 (simple and compound).
_PY_STATEMENTS = frozenset({
    "assert_statement", "break_statement", "class_definition", "continue_statement",
    "decorated_definition", "delete_statement", "exec_statement", "expression_statement",
    "for_statement", "function_definition", "future_import_statement", "global_statement",
    "if_statement", "import_from_statement", "import_statement", "match_statement",
    "nonlocal_statement", "pass_statement", "print_statement", "raise_statement",
    "return_statement", "try_statement", "type_alias_statement", "while_statement",
    "with_statement",
})

LEXICONS: dict[str, Lexicon] = {
    "python": Lexicon(
        # ";" only separates statements, which end markers delimit already.
        skip=frozenset({"comment", "line_continuation", ";"}),
        atoms=frozenset({"string"}),
        blocks=frozenset({"block"}),
        docstrings=True,
        statements=_PY_STATEMENTS,
        paren_groups=GROUPS,
        redundant_parens=redundant_parens,
        literals=frozenset({"string", "integer", "float"}),
        literal=python_literal,
        trailing_comma=python_trailing_comma,
    ),
    "javascript": _JS_LEX,
    "typescript": _JS_LEX,
    "tsx": _JS_LEX,
    # Go and Rust: what gofmt and rustfmt rewrite (see _gorust.py).
    "go": Lexicon(
        skip=frozenset({"comment"}),
        atoms=frozenset({"interpreted_string_literal", "raw_string_literal", "rune_literal"}),
        statements=GO_STATEMENTS,
        separators=GO_SEPARATORS,
        paren_groups=GO_PAREN_GROUPS,
        redundant_parens=go_redundant_parens,
        literals=frozenset({"int_literal", "float_literal", "imaginary_literal"}),
        literal=go_literal,
        trailing_comma=go_trailing_comma,
    ),
    "rust": Lexicon(
        skip=_C_COMMENTS,
        atoms=frozenset({"string_literal", "raw_string_literal", "char_literal"}),
        statements=RUST_STATEMENTS,
        terminators=RUST_TERMINATORS,
        paren_groups=RUST_PAREN_GROUPS,
        redundant_parens=rust_redundant_braces,
        optional=RUST_OPTIONAL,
        is_optional=rust_optional,
        unordered=frozenset({"use_declaration"}),
        literals=frozenset({"..."}),
        literal=rust_literal,
        trailing_comma=rust_trailing_comma,
    ),
    "java": Lexicon(
        skip=_C_COMMENTS,
        atoms=frozenset({"string_literal", "character_literal"}),
    ),
}

# Kinds whose functions are methods.
_CLASS_LIKE = frozenset({"class", "interface", "struct", "trait", "impl", "enum", "record", "annotation"})
# Sibling nodes in front of a definition that belong to its span.
_LEADING = {
    "typescript": frozenset({"decorator"}),
    "tsx": frozenset({"decorator"}),
    "rust": frozenset({"attribute_item"}),
}
_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
# Parents that wrap a definition into a larger statement: the span grows to
# them (decorators, `export`), if the definition is their only one.
_WRAPPERS = {
    "decorated_definition",
    "export_statement",
    "lexical_declaration",
    "variable_declaration",
    "type_declaration",
    "const_declaration",
    "var_declaration",
}
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "generator_function"})
_QUOTE_CHARS = re.compile(r'[.\[\]"]')
_SPACES = re.compile(r"\s+")
_PUNCT_SPACE = re.compile(r"\s*([^\w\s])\s*")
# The words of a qualified name (its segments, and the words of any
# signature): the definitions a pruned outline enters.
_WORDS = re.compile(r"\w+")
# Pruned outlines of one file before the full one is built instead.
_PRUNES = 3


def quote_segment(segment: str) -> str:
    """Quote one qualified-name segment if it could be misread.

    A segment that is empty or contains ``.``, ``[``, ``]`` or ``"`` is
    written as a JSON string (``"a.b"``); any other is written as is.
    """
    if not segment or _QUOTE_CHARS.search(segment):
        return json.dumps(segment, ensure_ascii=False)
    return segment


def _compact(text: str) -> str:
    """Collapse a type's layout: ``Map<String, X>`` -> ``Map<String,X>``."""
    return _PUNCT_SPACE.sub(r"\1", _SPACES.sub(" ", text.strip()))


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


@dataclass(slots=True)
class _Def:
    # One per definition of every parsed file, kept while the parse is:
    # slots and no unused fields keep the number of objects the garbage
    # collector tracks (and promotes) during a cold check down.
    node: tree_sitter.Node
    kind: str
    local: str
    emit: bool
    pattern: int
    receiver: str | None = None
    parent: _Def | None = None
    depth: int = 0
    qualname: str = ""
    name: str = ""
    name_start: int = -1  # first byte of the defining name (masked in the shape hash)
    quoted: bool = False  # ``local`` is already a dotted, quoted path (assignment targets)
    stubs: frozenset[int] = frozenset()  # Python, TypeScript: ids of the overload stubs its span takes in
    bare: str | None = None  # the scope's segment in names (Rust `<T as Trait>` is `T` there)
    scope: str | None = None  # the name its members are named under, when not its own (an emitted trait impl)


def _param_types(param: tree_sitter.Node) -> list[str]:
    """The signature parts one parameter node contributes."""
    kind = param.type
    if kind == "spread_parameter":  # Java varargs: `String... xs`
        return [_compact("".join(_text(c) for c in param.children if c.type != "variable_declarator"))]
    typ = param.child_by_field_name("type")
    if typ is not None:
        text = _text(typ)
        if typ.type == "type_annotation":
            text = text.lstrip()[1:]
        names = param.children_by_field_name("name")
        return [_compact(text)] * max(1, len(names) if kind == "parameter_declaration" else 1)
    for field_name in ("name", "pattern", "left"):
        sub = param.child_by_field_name(field_name)
        if sub is not None:
            return [_compact(_text(sub))]
    return [_compact(_text(param))]


def _signature(node: tree_sitter.Node) -> str | None:
    """``(T1,T2)`` of a callable definition, or ``None`` if it has no parameters."""
    target = node
    if node.type in ("variable_declarator", "pair", "public_field_definition", "field_definition",
                     "assignment_expression"):
        value = node.child_by_field_name("right" if node.type == "assignment_expression" else "value")
        while value is not None and value.type == "assignment_expression":  # `a = b.c = function`
            value = value.child_by_field_name("right")
        if value is None:
            return None
        target = value
    params = target.child_by_field_name("parameters")
    if params is None:
        single = target.child_by_field_name("parameter")  # `x => x`
        return None if single is None else f"({_compact(_text(single))})"
    parts: list[str] = []
    for child in params.named_children:
        if child.type not in _COMMENTS:
            parts.extend(_param_types(child))
    return "(" + ",".join(parts) + ")"


def _name_of(node: tree_sitter.Node) -> str:
    if node.type == "string":
        return _text(node)[1:-1]
    return _text(node)


def _java_signature(node: tree_sitter.Node) -> str:
    """``(T1,T2)`` of a Java method or constructor, erased (see ``_java.py``).

    A record's compact constructor takes the record's components.
    """
    params = node.child_by_field_name("parameters")
    if params is None and node.type == "compact_constructor_declaration":
        record = node.parent.parent if node.parent is not None else None
        params = record.child_by_field_name("parameters") if record is not None else None
    if params is None:
        return "()"
    parts = []
    for child in params.named_children:
        if child.type in _COMMENTS or child.type == "receiver_parameter":
            continue
        erased = erase_parameter(_text(child))
        if erased is not None:
            parts.append(erased)
    return "(" + ",".join(parts) + ")"


_TARGETS = frozenset({"member_expression", "subscript_expression"})
_TARGET_LEAVES = frozenset({"identifier", "this", "property_identifier", "private_property_identifier"})


def _target_segments(node: tree_sitter.Node) -> list[tuple[str, int]] | None:
    """``a.b["c"].d`` as ``[(a, start), (b, start), (c, start), (d, start)]``.

    ``None`` for a target that is not a static path: a computed key
    (``a[k]``), a call (``f().x``), ``super``...
    """
    if node.type in _TARGET_LEAVES:
        return [(_text(node), node.start_byte)]
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        inner = node.named_children[0]
        return _target_segments(inner)
    obj = node.child_by_field_name("object")
    if obj is None or node.type not in _TARGETS:
        return None
    head = _target_segments(obj)
    if head is None:
        return None
    if node.type == "member_expression":
        prop = node.child_by_field_name("property")
        if prop is None or prop.type not in _TARGET_LEAVES:
            return None
        return [*head, (_text(prop), prop.start_byte)]
    index = node.child_by_field_name("index")
    if index is None or index.type not in ("string", "number"):
        return None
    return [*head, (_name_of(index), index.start_byte)]


def _span(d: _Def, language: str) -> tuple[tree_sitter.Node, tree_sitter.Node]:
    """First and last node of a definition's span (decorators included)."""
    node = d.node
    while True:
        parent = node.parent
        if parent is None or parent.type not in _WRAPPERS:
            break
        if parent.type not in ("decorated_definition", "export_statement"):
            siblings = [c for c in parent.named_children if c.type == node.type]
            if len(siblings) != 1:
                break
        node = parent
    first = node
    leading = _LEADING.get(language)
    if d.stubs:
        prev = node.prev_sibling
        while prev is not None and (prev.type in _COMMENTS or prev.type == ";" or prev.id in d.stubs
                                    or (leading is not None and prev.type in leading)):
            if prev.id in d.stubs:
                first = prev
            prev = prev.prev_sibling
    if leading:
        prev = first.prev_sibling
        while prev is not None and (prev.type in leading or prev.type in _COMMENTS):
            if prev.type in leading:
                first = prev
            prev = prev.prev_sibling
    return first, node


# Python nodes whose children can be statements (so definitions). A subtree
# with a syntax error is searched whole, as the query would.
_PY_CONTAINERS = frozenset({
    "module", "block", "decorated_definition", "function_definition", "class_definition", "if_statement",
    "elif_clause", "else_clause", "for_statement", "while_statement", "try_statement", "except_clause",
    "except_group_clause", "finally_clause", "with_statement", "match_statement", "case_clause", "ERROR",
})
_PY_DEFS = {"function_definition": (0, "definition.function"), "class_definition": (1, "definition.class")}


def _python_matches(root: tree_sitter.Node, only: frozenset[bytes] | None = None
                    ) -> Iterator[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    """The matches of ``queries/python-symbols.scm``, found by descending
    only into statements instead of every expression node.

    Python definitions are statements, so only nodes that hold statements
    need a visit: on 247 sqlalchemy modules this took 150 against 400 ms for
    the query, whose cursor visits every node (the query stays the
    reference: ``tests/unit/code/test_code_python_walk.py`` holds the two
    equal on real files). Same pattern indexes and capture names.

    With ``only``, a definition is still matched but its body is entered
    only if its name is one of ``only`` (see :meth:`CodeFile.symbol`).
    """
    stack = [root]
    while stack:
        node = stack.pop()
        top = node.type == "module"
        body = not top and node.type == "block" and node.parent is not None \
            and node.parent.type == "class_definition"
        for child in node.children:
            kind = child.type
            found = _PY_DEFS.get(kind)
            if found is not None:
                name = child.child_by_field_name("name")
                if name is not None and name.type == "identifier":
                    yield found[0], {found[1]: [child], "name": [name]}
                if only is None or (name is not None and name.text in only):
                    stack.append(child)
            elif (top or body) and kind == "expression_statement":
                for inner in child.named_children:
                    if inner.type == "assignment":
                        left = inner.child_by_field_name("left")
                        if left is not None and left.type == "identifier":
                            if top:
                                yield 2, {"definition.variable": [inner], "name": [left]}
                            else:
                                yield 3, {"definition.field": [inner], "name": [left]}
                if child.has_error:
                    stack.append(child)
            elif kind in _PY_CONTAINERS or child.has_error:
                stack.append(child)


def _collect(root: tree_sitter.Node, language: str, only: frozenset[bytes] | None = None) -> list[_Def]:
    defs: dict[int, _Def] = {}
    matches: Iterable[tuple[int, dict[str, list[tree_sitter.Node]]]] = (
        _python_matches(root, only) if language == "python"
        else tree_sitter.QueryCursor(query(language, "symbols")).matches(root))
    for pattern, captures in matches:
        node = kind = None
        emit = True
        for cap, nodes in captures.items():
            if cap.startswith("definition."):
                node, kind = nodes[0], cap[11:]
            elif cap.startswith("scope."):
                node, kind, emit = nodes[0], cap[6:], False
        names = captures.get("name")
        if node is None or kind is None or not names:
            continue
        key = node.id
        known = defs.get(key)
        if known is not None and known.pattern == pattern and kind == "field" \
                and known.name_start != names[0].start_byte and names[0].parent is not None:
            # Java `int a, b = 2;`: one declaration, one field per declarator
            # (each spans the declaration); the later ones are keyed by their
            # declarator, so what their initializer holds is theirs.
            key = names[0].parent.id
            known = defs.get(key)
        if known is not None and known.pattern <= pattern:
            continue
        if kind == "chain":
            kind = _chain_kind(node)
            if kind is None:
                continue  # `a = b = 1`, `x = y = {}`: not a function's names
        receiver = captures.get("receiver")
        d = _Def(
            node=node,
            kind=kind,
            local=anonymous_name(_text(names[0])) if kind == "anonymous" else _name_of(names[0]),
            name_start=names[0].start_byte,
            emit=emit,
            pattern=pattern,
            receiver=_text(receiver[0]) if receiver else None,
        )
        if language == "rust" and node.type == "impl_item":
            d.local, d.bare = _rust_impl(node)
            # `impl Trait for Type` is an item of its own (`<Type as Trait>`): its header says
            # what the type is (`unsafe impl<T: Sync> Sync for Guard<T>`); an inherent `impl
            # Type` only opens the type's own scope.
            d.emit = d.local.startswith("<")
        if names[0].type in _TARGETS:
            segments = _target_segments(names[0])
            if segments is None:
                continue  # `a[key] = function () {}`: no static name
            d.local = ".".join(quote_segment(seg) for seg, _ in segments)
            d.quoted = True
            d.name_start = segments[-1][1]
            if kind == "function" and (segments[0][0] == "this" or
                                       any(seg == "prototype" for seg, _ in segments[:-1])):
                d.kind = "method"
        defs[key] = d
    ordered = sorted(defs.values(), key=lambda d: (d.node.start_byte, -d.node.end_byte))
    for d in ordered:
        prev, up = d.node, d.node.parent
        # Still in a chain of values: `var a = b.c = function () {}` (JS/TS;
        # a Java declarator owns its value: `Runnable a, b = new Runnable() {...}`).
        chain = language != "java"
        while up is not None:
            if chain:
                chain = (up.type in _CHAINS and _value_of(up) == prev.id) or (
                    d.kind == "mixin" and up.type in ("arguments", "call_expression"))
            owner = defs.get(up.id)
            if owner is not None and owner.kind == "callback":
                owner = None  # a named callback is no scope: what it defines keeps its names
            if owner is not None and not chain:
                if owner.kind == "iife" and _own_name(d, owner):
                    # `var Foo = (function () { function Foo() {} ... })()`:
                    # the module's own `Foo` (and `Foo.prototype.x`) is `Foo`.
                    owner = owner.parent
                    if owner is None:
                        break
                d.parent = owner
                d.depth = owner.depth + 1
                break
            prev, up = up, up.parent
        _refine_kind(d, language)
    if any(d.kind == "callback" for d in ordered):
        # A callback's name yields to a definition of the same name in its scope,
        # so adding callbacks never renames what was there (`handler` to `handler#2`).
        taken = {(id(d.parent), d.local) for d in ordered if d.kind != "callback"}
        ordered = [d for d in ordered if d.kind != "callback" or (id(d.parent), d.local) not in taken]
        for d in ordered:
            if d.kind == "callback":
                d.kind = "function"
                _refine_kind(d, language)
    if language == "python":
        _fold_overloads(ordered)
        ordered = _unshadowed(ordered)
    elif language in ("typescript", "tsx"):
        _fold_signatures(ordered)
    return ordered


_SIGNATURES = frozenset({"function_signature", "method_signature"})


def _outer(node: tree_sitter.Node) -> tree_sitter.Node:
    """``node``, or the ``export`` statement around it."""
    parent = node.parent
    return parent if parent is not None and parent.type == "export_statement" else node


def _fold_signatures(defs: list[_Def]) -> None:
    """Hide TypeScript overload signatures behind their implementation.

    As Python ``@overload`` stubs (see :func:`_fold_overloads`): the
    signatures written right before an implementation of the same name in
    one scope (``function f(a: string): string;`` then ``function f(a: any)
    {...}``; a static method's with the static one) are not symbols, and
    join its span, so the implementation is named ``f`` alone and adding an
    overload renames nothing. Signatures without an implementation right
    after them (an interface, a ``declare``, a ``.d.ts``) stay symbols.
    """
    groups: dict[tuple[int, str, str], list[_Def]] = defaultdict(list)
    for d in defs:
        if d.kind in ("function", "method"):
            groups[(id(d.parent), d.local, _member_keywords(d))].append(d)
    for group in groups.values():
        signatures = {_outer(d.node).id: d for d in group if d.node.type in _SIGNATURES}
        if not signatures:
            continue
        for impl in group:
            if impl.node.type in _SIGNATURES:
                continue
            taken = []
            prev = _outer(impl.node).prev_sibling
            while prev is not None and (prev.type in _COMMENTS or prev.type in (";", "decorator")
                                        or prev.id in signatures):
                if prev.id in signatures:
                    taken.append(prev.id)
                    signatures[prev.id].emit = False
                prev = prev.prev_sibling
            impl.stubs = frozenset(taken)


def _unshadowed(defs: list[_Def]) -> list[_Def]:
    """Python class attributes, less those that rebind a method or class of
    their class (``f = staticmethod(f)``, ``x = property(_get_x)`` beside
    ``def x``): the ``def`` keeps the name alone, as before fields were
    symbols."""
    taken = {(id(d.parent), d.local) for d in defs if d.kind in ("function", "method", "class")}
    return [d for d in defs if d.kind != "field" or (id(d.parent), d.local) not in taken]


def _rust_type(node: tree_sitter.Node, args: bool) -> str:
    """A Rust type as a name segment: paths and lifetimes dropped, layout
    compacted, generic arguments kept only with ``args``
    (``&'a mut ser::Serializer<W>`` -> ``&mut Serializer``)."""
    kind = node.type
    inner = node.child_by_field_name("type")
    if kind == "generic_type" and inner is not None:
        base = _rust_type(inner, args)
        found = node.child_by_field_name("type_arguments")
        if not args or found is None:
            return base
        # As written, paths included (`From<io::Error>` beside `From<fmt::Error>`).
        text = _TRAILING_COMMA.sub("", _compact(_RUST_LIFETIME.sub("", _text(found))))
        return base if text == "<>" else base + text
    if kind == "scoped_type_identifier":
        name = node.child_by_field_name("name")
        return _text(name) if name is not None else _compact(_text(node))
    if kind in ("reference_type", "pointer_type") and inner is not None:
        mutable = any(c.type == "mutable_specifier" for c in node.children)
        if kind == "reference_type":
            return ("&mut " if mutable else "&") + _rust_type(inner, args)
        return ("*mut " if mutable else "*const ") + _rust_type(inner, args)
    if kind == "array_type":
        element, length = node.child_by_field_name("element"), node.child_by_field_name("length")
        text = _rust_type(element, args) if element is not None else ""
        return f"[{text};{_compact(_text(length))}]" if length is not None else f"[{text}]"
    if kind == "tuple_type":
        return "(" + ",".join(_rust_type(c, args) for c in node.named_children if c.type not in _COMMENTS) + ")"
    if kind == "dynamic_type":
        trait = node.child_by_field_name("trait")
        return "dyn " + (_rust_type(trait, args) if trait is not None else "")
    if kind == "bounded_type":
        return "+".join(_rust_type(c, args) for c in node.named_children
                        if c.type not in ("lifetime", *_COMMENTS))
    return _compact(_RUST_LIFETIME.sub("", _text(node)))


_RUST_LIFETIME = re.compile(r"'\w+\s*(,\s*)?")
_TRAILING_COMMA = re.compile(r",(?=>)")


def _rust_impl(node: tree_sitter.Node) -> tuple[str, str]:
    """The scope an ``impl`` block names: ``(segment, bare)``.

    An inherent ``impl Type`` is ``Type``; ``impl Trait for Type`` is Rust's
    own qualified form ``<Type as Trait>``, so ``Display::fmt`` and
    ``Debug::fmt`` of one type are ``<P as Display>.fmt`` and
    ``<P as Debug>.fmt`` whatever their order. The type loses its path,
    lifetimes and generic arguments (``&'a mut Serializer<W>`` ->
    ``&mut Serializer``); the trait its path and lifetimes, not its type
    arguments, which keep their paths (``From<&'a str>`` -> ``From<&str>``,
    so ``From<u8>`` and ``From<u16>``, ``From<io::Error>`` and
    ``From<fmt::Error>`` stay two). ``bare`` is the type without ``&``, ``&mut`` or
    a raw pointer: the scope in :attr:`Symbol.name`, so ``P.fmt`` finds
    every ``fmt`` of ``P``'s impls (one: that one; several: ambiguous).
    """
    typ = node.child_by_field_name("type")
    trait = node.child_by_field_name("trait")
    if typ is None:
        return "", ""
    own = _rust_type(typ, args=False)
    bare_node = typ
    while bare_node.type in ("reference_type", "pointer_type"):
        inner = bare_node.child_by_field_name("type")
        if inner is None:
            break
        bare_node = inner
    bare = _rust_type(bare_node, args=False)
    if trait is None:
        return own, bare
    return f"<{own} as {_rust_type(trait, args=True)}>", bare


def _own_name(d: _Def, scope: _Def) -> bool:
    """Whether ``d`` is defined under the name of the module-pattern
    ``scope`` it sits in (its first segment is the scope's last one)."""
    first = d.local.split(".", 1)[0] if d.quoted else d.local
    return first == scope.local.rsplit(".", 1)[-1]


def _is_overload(d: _Def) -> bool:
    """A function decorated ``@overload`` or ``@<module>.overload``."""
    wrapper = d.node.parent
    if d.node.type != "function_definition" or wrapper is None or wrapper.type != "decorated_definition":
        return False
    for dec in wrapper.named_children:
        if dec.type != "decorator":
            continue
        expr = dec.named_children[0] if dec.named_children else None
        if expr is None:
            continue
        if expr.type == "identifier" and _text(expr) == "overload":
            return True
        if expr.type == "attribute":
            attr = expr.child_by_field_name("attribute")
            if attr is not None and _text(attr) == "overload":
                return True
    return False


_PROPERTY_ROLES = frozenset({"getter", "setter", "deleter"})


def _is_property_accessor(d: _Def) -> bool:
    """A Python method decorated ``@property``, or ``@x.getter``,
    ``@x.setter`` or ``@x.deleter`` where ``x`` is its own name."""
    wrapper = d.node.parent
    if d.kind != "method" or wrapper is None or wrapper.type != "decorated_definition":
        return False
    for dec in wrapper.named_children:
        expr = dec.named_children[0] if dec.type == "decorator" and dec.named_children else None
        if expr is None:
            continue
        if expr.type == "identifier" and _text(expr) == "property":
            return True
        if expr.type == "attribute":
            obj, attr = expr.child_by_field_name("object"), expr.child_by_field_name("attribute")
            if (obj is not None and attr is not None and obj.type == "identifier" and _text(obj) == d.local
                    and _text(attr) in _PROPERTY_ROLES):
                return True
    return False


def _fold_overloads(defs: list[_Def]) -> None:
    """Hide ``@overload`` stubs behind their implementation.

    In a scope that also has an implementation of the name, the stubs are
    not symbols of their own; the stubs written right before the
    implementation (comments between are fine) join its span, so its hash
    covers the signatures a type checker shows callers. Without an
    implementation (a ``.pyi`` file, a protocol) the stubs stay symbols.
    """
    groups: dict[tuple[int, str], list[_Def]] = defaultdict(list)
    for d in defs:
        if d.kind in ("function", "method"):
            groups[(id(d.parent), d.local)].append(d)
    for group in groups.values():
        stubs = [d for d in group if _is_overload(d)]
        impls = [d for d in group if not _is_overload(d)]
        if not stubs or not impls:
            continue
        wrappers = {}
        for stub in stubs:
            stub.emit = False
            assert stub.node.parent is not None  # _is_overload checked the decorated_definition
            wrappers[stub.node.parent.id] = stub.node.parent
        for impl in impls:
            node = impl.node.parent if impl.node.parent is not None and \
                impl.node.parent.type == "decorated_definition" else impl.node
            taken = []
            prev = node.prev_sibling
            while prev is not None and (prev.type in _COMMENTS or prev.id in wrappers):
                if prev.id in wrappers:
                    taken.append(prev.id)
                prev = prev.prev_sibling
            impl.stubs = frozenset(taken)


def _chain_kind(node: tree_sitter.Node) -> str | None:
    """``function`` or ``class`` if a chain of assignments ends in one."""
    value: tree_sitter.Node | None = node
    while value is not None and value.type in _CHAINS:
        value = value.child_by_field_name("right" if value.type == "assignment_expression" else "value")
    if value is None:
        return None
    if value.type in _FUNCTION_VALUES:
        return "function"
    return "class" if value.type == "class" else None


# Nodes whose value is another definition in a chained assignment: that
# definition is a sibling binding, not a member (``var a = b.c = function``
# names ``a`` and ``b.c``, never ``a.b.c``).
_CHAINS = frozenset({"assignment_expression", "variable_declarator"})


def _value_of(node: tree_sitter.Node) -> int:
    value = node.child_by_field_name("right" if node.type == "assignment_expression" else "value")
    return -1 if value is None else value.id


def _refine_kind(d: _Def, language: str) -> None:
    parent_kind = d.parent.kind if d.parent is not None else None
    if d.kind == "function" and parent_kind in _CLASS_LIKE:
        d.kind = "method"
    elif d.kind == "variable":
        if d.parent is not None:
            d.emit = False  # never: the patterns anchor variables at top level
        decl = d.node.parent
        if decl is not None and decl.type == "lexical_declaration" and decl.child(0) is not None:
            first = decl.child(0)
            if first is not None and first.type == "const":
                d.kind = "const"
    elif d.kind == "var":
        d.kind = "variable"


def unique_qualnames(items: Iterable[tuple[str, str, str | None]]) -> list[tuple[str, str]]:
    """Turn ``(base qualname, name, signature)`` triples into unique qualnames.

    A base used once stays as it is. Duplicated bases get their signature
    appended (``f(int)``; none for non-callables), and whatever still clashes
    gets ``#2``, ``#3``... in document order.

    Returns:
        ``(qualname, name)`` pairs in input order.
    """
    items = list(items)
    counts: dict[str, int] = defaultdict(int)
    for base, _, _ in items:
        counts[base] += 1
    out: list[tuple[str, str]] = []
    seen: dict[str, int] = defaultdict(int)
    for base, name, sig in items:
        qual = base if counts[base] == 1 else base + (sig or "")
        seen[qual] += 1
        if seen[qual] > 1:
            qual = f"{qual}#{seen[qual]}"
        out.append((qual, name))
    return out


# Keywords of a JS/TS class or object member that make it another member
# than one of the same name without them: `static lex` beside `lex`, `get x`
# beside `set x`. They lead the member's own qualified-name segment, as
# written (`Lexer.static lex`, `Lexer.get x`, `Lexer.static get rules`);
# :attr:`Symbol.name` leaves them out.
_MEMBER_KEYWORDS = frozenset({"static", "get", "set"})
_MEMBERS = frozenset({"method_definition", "field_definition", "public_field_definition",
                      "method_signature", "abstract_method_signature"})
# A JS/TS key that reads like keywords and a name is quoted: the method
# `"static lex"() {}` is `"static lex"`, never the static method `lex`.
_KEYWORD_LIKE = re.compile(r"(?:static|get|set)\s")


def _member_keywords(d: _Def) -> str:
    """``"static "``, ``"get "``, ``"static set "``... of a JS/TS member, else ``""``."""
    node = d.node
    if node.type not in _MEMBERS:
        return ""
    words = [child.type for child in node.children
             if child.start_byte < d.name_start and not child.is_named and child.type in _MEMBER_KEYWORDS]
    return " ".join(words) + " " if words else ""


def _js_segment(local: str) -> str:
    """A JS/TS name segment, quoted if it could be misread (see
    :func:`quote_segment`) or read as keywords and a name."""
    if _KEYWORD_LIKE.match(local):
        return json.dumps(local, ensure_ascii=False)
    return quote_segment(local)


def _join(prefix: str, local: str) -> str:
    return f"{prefix}.{local}" if prefix else local


class _Entry:
    """One symbol of the outline: its names, and its span once asked for."""

    __slots__ = ("_span", "d", "language")

    def __init__(self, d: _Def, language: str) -> None:
        self.d, self.language = d, language
        self._span: tuple[tree_sitter.Node, tree_sitter.Node] | None = None

    def span(self) -> tuple[tree_sitter.Node, tree_sitter.Node]:
        """First and last node (siblings) of the span, computed once."""
        if self._span is None:
            self._span = _span(self.d, self.language)
        return self._span

    def roots(self) -> list[tree_sitter.Node]:
        """The sibling nodes the span covers, ``first`` to ``last``."""
        first, last = self.span()
        nodes = [first]
        node = first
        while node.id != last.id:
            sibling = node.next_sibling
            assert sibling is not None, "a span's first and last nodes are siblings"
            node = sibling
            nodes.append(node)
        return nodes

    def symbol(self, stream: TokenStream, data: bytes) -> Symbol:
        """The symbol, hashed from a stream that covers its span (``data``
        is the parsed text): on its raw tokens if the span holds a syntax
        error (see :func:`memvet._code._tokens.raw_digest`)."""
        first, last = self.span()
        start, end, depth = first.start_byte, last.end_byte, _depth(last)
        broken = stream.has_error(start, end)
        if broken:
            lexicon, roots = LEXICONS[self.language], self.roots()
            digest = raw_digest(roots, data, lexicon)
            shape = raw_digest(roots, data, lexicon, mask=self.d.name_start)
        else:
            digest = stream.digest(start, end, depth)
            shape = stream.digest(start, end, depth, mask=self.d.name_start)
        return Symbol(
            qualname=self.d.qualname,
            name=self.d.name,
            kind=self.d.kind,
            hash=digest,
            shape=shape,
            start_line=first.start_point.row + 1,
            end_line=end_line(first, last),
            has_error=broken,
        )


def _outline(tree: tree_sitter.Tree, language: str, only: frozenset[bytes] | None = None
             ) -> dict[str, _Entry]:
    """Every symbol's qualified name (spans are computed on demand); with
    ``only`` (Python), those outside definitions named otherwise."""
    defs = _collect(tree.root_node, language, only)
    quote = language in ("javascript", "typescript", "tsx")
    by_depth: dict[int, list[_Def]] = defaultdict(list)
    for d in defs:
        by_depth[d.depth].append(d)
    java = language == "java"
    entries: dict[str, _Entry] = {}

    def pn_of(d: _Def) -> str:  # the name ``d`` is named under
        if d.receiver is not None:
            return d.receiver
        if d.parent is not None:
            return d.parent.name if d.parent.scope is None else d.parent.scope
        return ""

    for depth in sorted(by_depth):
        level = by_depth[depth]
        items = []
        scopes: dict[str, int] = defaultdict(int)
        for d in level:
            local = _js_segment(d.local) if quote and not d.quoted else d.local
            pn = pn_of(d)
            pq = d.receiver if d.receiver is not None else d.parent.qualname if d.parent is not None else ""
            d.qualname = d.name = _join(pq, local)
            if d.emit:
                # A Java method is its name and erased parameter types, always:
                # adding or removing an overload never renames its siblings.
                if java and _callable(d):
                    own = local + _java_signature(d.node)
                else:  # `static lex` beside `lex`, `get x` beside `set x` (JS/TS)
                    own = _member_keywords(d) + local if quote else local
                items.append((d, _join(pq, own), _join(pn, local)))
            else:
                d.name = _join(pn, local if d.bare is None else d.bare)
                if d.kind == "anonymous":  # two `new Runnable() {...}` in one method
                    scopes[d.qualname] += 1
                    if scopes[d.qualname] > 1:
                        d.qualname = f"{d.qualname}#{scopes[d.qualname]}"
        # Group over the whole level: two `impl T` blocks share one scope.
        # Signatures only tell duplicates apart, so only those are computed.
        counts: dict[str, int] = defaultdict(int)
        for _, base, _ in items:
            counts[base] += 1
        for d, base, _ in items:
            if d.bare is not None and counts[base] > 1:
                # Two `impl Trait for Type` (one per `#[cfg]`): no item of one name; they
                # stay scopes, as before, so their members keep their names.
                d.emit = False
                d.name = _join(pn_of(d), d.bare)
        items = [item for item in items if item[0].emit]  # (no other item shares a trait impl's `<...>` base)
        named = unique_qualnames(
            (base, name, _signature(d.node) if counts[base] > 1 and _callable(d) and not java else None)
            for d, base, name in items
        )
        for (d, _, _), (qual, name) in zip(items, named, strict=True):
            while qual in entries:  # a clash across depths; vanishingly rare
                qual += "#"
            d.qualname, d.name = qual, name
            if d.bare is not None:  # a trait impl: its members are the type's (`Type.fmt`)
                d.scope = _join(pn_of(d), d.bare)
            entries[qual] = _Entry(d, language)
    return entries


_EXPORT_ROOTS = (("module", "exports"), ("exports",))
_NAMED_VALUES = frozenset({"class", "function_expression", "generator_function"})


def _commonjs_aliases(entries: Iterable[_Entry]) -> dict[str, str]:
    """The names a CommonJS module gives the values it exports, each mapped
    to the qualified name of its definition (or scope), for
    :meth:`SymbolTable.lookup`.

    A value assigned to ``module.exports`` (``exports.x``,
    ``module.exports.x``) is named after that target and its members after
    it (``module.exports.use``); its other names are aliases of the target:
    the name of a class or function expression (``module.exports = class
    Application {...}`` gives ``Application``) and a binding of the
    assignment (``const proto = module.exports = {...}`` gives ``proto``).
    A name that two exported values would take is no alias at all.
    """
    seen: set[int] = set()
    found: dict[str, set[str]] = defaultdict(set)
    for entry in entries:
        d: _Def | None = entry.d
        while d is not None and d.node.id not in seen:
            seen.add(d.node.id)
            for alias in _export_names(d):
                found[alias].add(d.qualname)
            d = d.parent
    return {alias: next(iter(targets)) for alias, targets in found.items() if len(targets) == 1}


def _expression_scopes(entries: Iterable[_Entry]) -> dict[str, str]:
    """The named function expressions between a definition and its scope,
    as a reader writes them in a path, for :meth:`SymbolTable.lookup`: in
    ``function morgan () { return function logger () { function logRequest
    () {} } }`` the helper is ``morgan.logRequest`` (a function expression
    names no scope), and ``morgan.logger.logRequest`` finds it too. Mapped
    with a trailing dot, members only (``"morgan.logger." -> "morgan."``):
    ``morgan.logger`` itself is no name of ``morgan``. A path two scopes
    would take is no alias at all."""
    found: dict[str, set[str]] = defaultdict(set)
    for entry in entries:
        d = entry.d
        stop = d.parent.node.id if d.parent is not None else None
        names: list[str] = []
        up = d.node.parent
        while up is not None and up.id != stop:
            name = up.child_by_field_name("name") if up.type == "function_expression" else None
            if name is not None:
                names.append(_text(name))
            up = up.parent
        if names:
            head = d.parent.qualname + "." if d.parent is not None else ""
            found[head + ".".join(reversed(names)) + "."].add(head)
    return {alias: next(iter(heads)) for alias, heads in found.items() if len(heads) == 1}


def _export_names(d: _Def) -> list[str]:
    """The other names of ``d`` if it is a value assigned to a CommonJS
    export target (see :func:`_commonjs_aliases`), under ``d``'s scope."""
    node = d.node
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if node.type != "assignment_expression" or left is None or right is None:
        return []
    segments = _target_segments(left)
    if segments is None or not any(tuple(seg for seg, _ in segments[: len(root)]) == root
                                   for root in _EXPORT_ROOTS):
        return []
    names = []
    own = right.child_by_field_name("name") if right.type in _NAMED_VALUES else None
    if own is not None:  # `module.exports = class Application {...}`
        names.append(_text(own))
    binding = node.parent
    if binding is not None and binding.type == "variable_declarator":  # `const proto = module.exports = {...}`
        bound = binding.child_by_field_name("name")
        if bound is not None and bound.type == "identifier":
            names.append(_text(bound))
    scope = d.parent.qualname if d.parent is not None else ""
    return [_join(scope, name) for name in names]


# Rust 2015's `try!(...)` macro: `try` is a keyword of the grammar (Rust
# 2018's `try` blocks), so tree-sitter-rust 0.24 cannot read the macro call.
_RUST_TRY = re.compile(rb"(?<![\w#])try(?=\s*!\s*[(\[{])")
# Where an item-level `cfg_if!` can stand: a module, inline (`mod x { ... }`) or the file.
_RUST_ITEM_HOLDERS = frozenset({"mod_item", "declaration_list"})
# An item-level macro call as parsed: `cfg_if! { ... }` is a macro_invocation;
# `cfg_if::cfg_if!( ... );` (getrandom writes its cfg_if so) an expression_statement around one.
_RUST_MACRO_STATEMENT = frozenset({"macro_invocation", "expression_statement"})


def parse_input(data: bytes, language: str) -> bytes:
    """The bytes given to the parser for ``data``: ``data`` itself, except
    that a Rust ``try!(...)`` (Rust 2015; ``try`` is a keyword since 2018)
    is read as a call of a macro named ``tr_``, the same length, so every
    node keeps its bytes. Tokens and hashes are always read from ``data``:
    the call hashes as ``try!(...)``, the way it is written. Without this,
    each ``try!`` is a syntax error and every function using it would be
    hashed on raw tokens (see :func:`memvet._code._tokens.raw_digest`)."""
    if language == "rust" and b"try" in data:
        data = _RUST_TRY.sub(b"tr_", data)
    if language == "rust" and (b"cfg_if" in data or b"pin_project!" in data):
        data, _ = _items_opened(data)
    return data


def _macro_name(node: tree_sitter.Node) -> str:
    """The last segment of the name a macro invocation calls (``cfg_if`` of ``cfg_if::cfg_if!``)."""
    name = node.child_by_field_name("macro")
    return "" if name is None else _text(name).rsplit("::", 1)[-1]


def _item_macro_body(node: tree_sitter.Node) -> list[tuple[int, int]]:
    """The byte range inside the braces of a ``pin_project! { ... }``
    invocation (pin-project-lite), whose body is the crate's own items as
    written (a struct with ``#[pin]`` fields, an ``impl PinnedDrop``), or
    ``[]`` when ``node`` is no such invocation."""
    body = node.children[-1] if node.children else None
    if _macro_name(node) != "pin_project" or body is None \
            or body.type != "token_tree" or not body.children or body.children[0].type != "{":
        return []
    return [(body.start_byte + 1, body.end_byte - 1)]


def _cfg_if_branches(node: tree_sitter.Node) -> list[tuple[int, int]]:
    """The byte ranges inside the braces of a ``cfg_if!`` invocation's
    branches (``if #[cfg(...)] { ... } else { ... }``), or ``[]`` when
    ``node`` is no such invocation."""
    if _macro_name(node) != "cfg_if" or node.named_child_count < 2:
        return []
    body = node.children[-1]
    if body.type != "token_tree":
        return []
    branches = []
    tokens = body.children
    for before, token in itertools.pairwise(tokens):
        opens = token.type == "token_tree" and token.children and token.children[0].type == "{"
        if opens and (_text(before) == "else" or (before.type == "token_tree" and _text(before).startswith("["))):
            branches.append((token.start_byte + 1, token.end_byte - 1))
    return branches


@functools.lru_cache(maxsize=16)
def _items_opened(data: bytes) -> tuple[bytes, tuple[tuple[int, int], ...]]:
    """``data`` with every item-level ``cfg_if! { if #[cfg(...)] { items }
    else { items } }`` opened, and the byte ranges of the branches opened.
    A ``pin_project! { items }`` is opened the same way (see
    :func:`_item_macro_body`); its body is no configuration's branch.

    The wrapper's bytes are blanked (newlines kept, so every byte and line
    stays where it was) and the items of each branch read as the module's
    own, as the crate sees them under one configuration or another. A
    macro's body is otherwise tokens, and ``thread_id.rs::try_get`` defined
    inside one would be no symbol at all. Two branches defining one name are
    one item per configuration (see :func:`cfg_if_branches`); nested
    invocations open on the next pass. Kept for the last few files: the
    symbol table, the imports and the anchor lookup each read one file so."""
    branches: list[tuple[int, int]] = []
    for _ in range(3):
        root = parse(data, "rust").root_node
        blank = bytearray(data)
        found = []
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type == "macro_invocation":
                found.append(node)
            else:
                stack.extend(c for c in node.named_children
                             if c.type in _RUST_ITEM_HOLDERS or c.type in _RUST_MACRO_STATEMENT)
        opened = False
        for node in found:
            inner = _cfg_if_branches(node)
            branches += inner
            inner = inner or _item_macro_body(node)
            if not inner:
                continue
            opened = True
            keep = node.start_byte
            for start, end in [*inner, (node.end_byte, node.end_byte)]:
                blank[keep:start] = re.sub(rb"[^\n]", b" ", data[keep:start])
                keep = end
        if not opened:
            break
        data = bytes(blank)
    return data, tuple(branches)


def macro_items_view(data: bytes, tree: tree_sitter.Tree | None = None) -> bytes | None:
    """``data`` with everything blanked (newlines kept, so every byte and
    line stays where it was) but the bodies of the ``macro_rules!`` rules
    that write items, or ``None`` when no rule's transcriber is a braced
    body that writes one under a name of its own (see
    :func:`_names_an_item`). anymap writes its whole API so (``macro_rules! everything { (...)
    => { pub struct Map<A> ... impl Map<A> { pub fn insert ... } } }``,
    called once for std's ``HashMap`` and once for hashbrown's): the parser
    reads a macro's body as tokens, so ``Map.insert`` was no symbol at all.
    Read on its own, a transcriber parses as the module it expands to; its
    metavariables (``$t``) parse where an expression or a type may stand.
    ``tree`` is the file's own parse (of :func:`parse_input`), when the
    caller has it already."""
    if b"macro_rules" not in data:
        return None
    if tree is None:
        tree = parse(parse_input(data, "rust"), "rust")
    view = bytearray(re.sub(rb"[^\n]", b" ", data))
    opened = False
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type != "macro_definition":
            stack.extend(node.named_children)
            continue
        for rule in node.named_children:
            body = rule.child_by_field_name("right") if rule.type == "macro_rule" else None
            inner = data[body.start_byte + 1 : body.end_byte - 1] if body is not None else b""
            if body is not None and body.children and body.children[0].type == "{" and _names_an_item(inner):
                view[body.start_byte + 1 : body.end_byte - 1] = inner
                opened = True
    return bytes(view) if opened else None


#: An item a macro's body writes under a name of its own (``pub struct Map<A>``), not under a metavariable
#: (``fn $name()``), which names no item.
_NAMED_ITEM = re.compile(rb"(?m)^\s*(?:pub(?:\([\w\s:]*\))?\s+)?(?:(?:unsafe|async|const)\s+)*"
                         rb"(?:fn|struct|enum|union|trait|type|mod)\s+[A-Za-z_]")
#: The header of an ``impl`` block up to its brace: ``impl<A: ?Sized> Map<A> {``, ``impl Zero for $t {``.
_IMPL_HEADER = re.compile(rb"(?m)^\s*(?:unsafe\s+)?impl\b(?:\s*<[^{;]*?>)?\s+([^{;]*)\{")


def _names_an_item(body: bytes) -> bool:
    """Whether a macro's ``body`` writes an item under a name of its own: a definition, or an ``impl``
    whose type is a name (``impl<A> Map<A>``, ``impl Clone for Map<A>``); ``impl Zero for $t``, the
    common macro that implements a trait for every primitive, writes none. Only such a body is worth
    a parse of its own."""
    if _NAMED_ITEM.search(body):
        return True
    for m in _IMPL_HEADER.finditer(body):
        target = m.group(1).rsplit(b" for ", 1)[-1].strip()
        if target[:1].isalpha() or target[:1] == b"_":
            return True
    return False


def cfg_if_branches(data: bytes) -> list[tuple[int, int]]:
    """The line ranges (1-based, inclusive) of the ``cfg_if!`` branches in
    the Rust source ``data``: an item defined in one is configured, as one
    under its own ``#[cfg(...)]`` is (the anchor lookup reads a name defined
    in several as one item per platform)."""
    if b"cfg_if" not in data:
        return []
    _, branches = _items_opened(data)
    return [(data.count(b"\n", 0, start) + 1, data.count(b"\n", 0, end) + 1) for start, end in branches]


def may_hide(data: bytes, language: str, name: str) -> bool:
    """Whether a syntax error in ``data`` may hide a definition named
    ``name`` (a qualified name; its last segment is looked for).

    A syntax error costs only the span it sits in: the smallest symbol
    whose span holds it, or, outside every symbol, the top-level statement
    around it. ``True`` when the name's last segment is written in one of
    those spans (so the error may have turned its definition into
    something else); ``False`` when the file has no error or the name is
    written nowhere near one, so a symbol missing from the file is gone,
    not hidden.
    """
    return CodeFile(data, language).may_hide(name)


def code_symbol_table(data: bytes, language: str) -> SymbolTable:
    """Parse source code and return its symbol table (see the package docs)."""
    return CodeFile(data, language).table()


class CodeFile(ParsedFile):
    """A parsed source file whose symbols are hashed on demand.

    Looking up one symbol walks only that symbol's span (a 2,000-line module
    costs its parse and one query instead of a token pass over every line);
    :meth:`table` walks the whole file once. Both give the same hashes for a
    span without syntax errors; inside a span with errors only ``has_error``
    is meaningful either way. The tree is kept until :meth:`table` is built.
    """

    def __init__(self, data: bytes, language: str) -> None:
        data = as_utf8(data)  # a Latin-1 file is parsed as the text it holds (see as_utf8)
        self._data = data
        self._tree: tree_sitter.Tree | None = parse(parse_input(data, language), language)
        self._full: dict[str, _Entry] | None = None
        self._pruned: dict[str, _Entry] = {}
        self._prunes = 0  # pruned outlines built
        self._outline: SymbolTable | None = None
        self._done: dict[str, Symbol] = {}
        self._walked = 0  # bytes of spans walked one at a time so far
        self._macros: CodeFile | bool | None = language == "rust"  # built on first use: see _expanded
        super().__init__(language, self._tree.root_node.has_error)

    def _expanded(self) -> CodeFile | None:
        """The items written in this Rust file's ``macro_rules!`` bodies, as
        a file of their own (see :func:`macro_items_view`), or ``None``. A
        name the file itself defines is the file's; one with a metavariable
        in it (``<$t as Foo>``) names no item and is left out."""
        if self._macros is True:
            view = macro_items_view(self._data, self._tree)  # the file's own parse: no second one
            self._macros = CodeFile(view, "rust") if view is not None else None
        return self._macros if isinstance(self._macros, CodeFile) else None

    def _with_macros(self, own: list[Symbol], inner: Callable[[CodeFile], Iterable[Symbol]]) -> dict[str, Symbol]:
        """``own`` (in document order) and those of ``inner``'s symbols of
        the file's macro bodies (see :meth:`_expanded`) that the file does
        not name, each after the file's own symbols of its first line;
        ``own`` keeps its order."""
        expanded = self._expanded()
        if expanded is None:
            return {sym.qualname: sym for sym in own}
        added = [sym for sym in inner(expanded) if sym.qualname not in self._entries and "$" not in sym.qualname]
        rows = [(sym.start_line, 0, k, sym) for k, sym in enumerate(own)]
        rows += [(sym.start_line, 1, k, sym) for k, sym in enumerate(added)]
        rows.sort(key=lambda row: row[:3])
        return {sym.qualname: sym for *_, sym in rows}

    @property
    def _entries(self) -> dict[str, _Entry]:
        """The outline of every definition, built once on first use."""
        if self._full is None:
            assert self._tree is not None
            self._full = _outline(self._tree, self.language)
        return self._full

    def _entry(self, qualname: str) -> _Entry | None:
        """The outline entry of ``qualname``.

        For Python the first try is a pruned outline: the bodies of
        definitions none of whose names occur in ``qualname`` are not
        entered, so looking up ``Query.filter`` in a module of fifty classes
        visits one class body. Every entry of a pruned outline is an entry
        of the full one with the same name and node (duplicates and
        overloads share their name, so they are all in or all out; a Python
        name never clashes across depths), so a hit is the answer; a miss
        falls back to the full outline. On the 247 changed sqlalchemy files
        of ``verify_bench --spread`` the outline took half the parse time
        before this; ``tests/unit/code/test_code_pruned.py`` holds the two
        equal on real files.
        """
        if self._full is not None or self.language != "python":
            return self._entries.get(qualname)
        entry = self._pruned.get(qualname)
        if entry is None:
            if self._prunes >= _PRUNES:
                # Many lookups in one file (thousands of decisions over a few
                # hundred files): one full outline costs less than more pruned ones.
                return self._entries.get(qualname)
            assert self._tree is not None
            self._prunes += 1
            names = frozenset(w.encode() for w in _WORDS.findall(qualname))
            self._pruned.update(_outline(self._tree, self.language, names))
            entry = self._pruned.get(qualname)
        return entry if entry is not None else self._entries.get(qualname)

    def symbol(self, qualname: str) -> Symbol | None:
        """The symbol named exactly ``qualname``, or ``None``."""
        if self._table is not None:
            return self._table.symbols.get(qualname)
        done = self._done.get(qualname)
        if done is not None:
            return done
        if self._tree is None:
            return None
        entry = self._entry(qualname)
        if entry is None:
            inner = self._expanded() if "$" not in qualname else None
            return inner.symbol(qualname) if inner is not None else None
        first, last = entry.span()
        size = last.end_byte - first.start_byte
        if self._walked + size > len(self._data):
            # Spans walked one by one would now add up to more than the file
            # (a class, then its methods, then ...): one walk of everything
            # answers this lookup and the next ones. On 5,000 decisions over
            # 444 sqlalchemy files, span walks cost as much as the parses.
            return self.table().symbols.get(qualname)
        self._walked += size
        stream = TokenStream(self._tree, self._data, LEXICONS[self.language], roots=entry.roots(),
                             depth=_depth(last))
        done = self._done[qualname] = entry.symbol(stream, self._data)
        return done

    def containing(self, words: Sequence[bytes], kind_ok: Callable[[str], bool] | None = None) -> list[Symbol]:
        """The symbols whose span holds every one of ``words`` and whose kind
        passes ``kind_ok``, each hashed on its own (a search for one body in
        a large file hashes the few spans that can hold it, not the file;
        a method's search does not hash the class around it, which holds
        every word of it too)."""
        if self._table is not None:  # the source is gone; every symbol is hashed already
            return super().containing(words, kind_ok)
        data = self._data
        found = []
        for qualname, entry in list(self._entries.items()):
            if kind_ok is not None and not kind_ok(entry.d.kind):
                continue
            first, last = entry.span()
            if all(word in data[first.start_byte : last.end_byte] for word in words):
                sym = self.symbol(qualname)
                if self._table is not None:  # the lookups switched to one walk of everything
                    return super().containing(words, kind_ok)
                if sym is not None:
                    found.append((first.start_byte, -last.end_byte, sym))
        found.sort(key=lambda f: (f[0], f[1]))
        own = [sym for _, _, sym in found]
        return list(self._with_macros(own, lambda inner: inner.containing(words, kind_ok)).values())

    def property_of(self, qualname: str) -> str:
        """See :meth:`ParsedFile.property_of` (before :meth:`table`, which lets the tree go)."""
        assert self._tree is not None, "property_of needs the parse"
        entry = self._entries.get(qualname)
        if entry is None:
            return ""
        d = entry.d
        if self.language == "python":
            return d.name if _is_property_accessor(d) else ""
        words = _member_keywords(d).split() if self.language in ("javascript", "typescript", "tsx") else []
        if "get" not in words and "set" not in words:
            return ""
        scope, _, local = d.name.rpartition(".")
        return _join(scope, "static " + local if "static" in words else local)

    def may_hide(self, name: str) -> bool:
        """See :func:`may_hide` (before :meth:`table`, which lets the tree go)."""
        assert self._tree is not None, "may_hide needs the parse"
        tree = self._tree
        errors = error_spans(tree.root_node)
        if not errors:
            return False
        last = name.split("(", 1)[0].rsplit(".", 1)[-1].strip('"').split("#", 1)[0]
        word = re.compile(rb"(?<![\w$])" + re.escape(last.encode()) + rb"(?![\w$])")
        spans = sorted(((e.span()[0].start_byte, e.span()[1].end_byte) for e in self._entries.values()),
                       key=lambda span: span[1] - span[0])
        for start, end in errors:
            region = next(((a, b) for a, b in spans if a <= start and end <= b), None)
            if region is None:  # outside every symbol: the top-level statement around it
                top = next((c for c in tree.root_node.children if c.start_byte <= start and end <= c.end_byte),
                           tree.root_node)
                region = (top.start_byte, top.end_byte)
            if word.search(self._data, region[0], region[1]):
                return True
        return False

    def outline(self) -> SymbolTable:
        """Every symbol without its hash (``hash`` and ``shape`` are empty):
        names, kinds, lines and ``has_error`` from the tree alone. Once the
        table is built, the table. The move search's look at the commit a
        symbol vanished in reads whole files this way: it compares names and
        code tokens, never hashes, and the token walk of a whole file was
        most of its cost."""
        if self._table is not None:
            return self._table
        if self._outline is None:
            assert self._tree is not None
            errors = error_spans(self._tree.root_node)
            rows = []
            for qualname, entry in self._entries.items():
                first, last = entry.span()
                rows.append((first.start_byte, -end_line(first, last), Symbol(
                    qualname=qualname, name=entry.d.name, kind=entry.d.kind, hash="",
                    start_line=first.start_point.row + 1, end_line=end_line(first, last),
                    has_error=overlaps_error(errors, first.start_byte, last.end_byte))))
            rows.sort(key=lambda r: (r[0], r[1]))
            symbols = self._with_macros([sym for _, _, sym in rows], lambda inner: inner.outline().symbols.values())
            self._outline = SymbolTable(self.language, symbols, self.has_errors, self._aliases())
        return self._outline

    def _aliases(self) -> dict[str, str]:
        """See :attr:`SymbolTable.aliases` (JavaScript/TypeScript only)."""
        if self.language not in ("javascript", "typescript", "tsx"):
            return {}
        return {**_expression_scopes(self._entries.values()), **_commonjs_aliases(self._entries.values())}

    def table(self) -> SymbolTable:
        """Every symbol, from one walk over the whole file."""
        if self._table is None:
            assert self._tree is not None
            stream = TokenStream(self._tree, self._data, LEXICONS[self.language])
            done = [e.symbol(stream, self._data) for e in self._entries.values()]
            starts = {q: e.span()[0].start_byte for q, e in self._entries.items()}
            done.sort(key=lambda sym: (starts[sym.qualname], -sym.end_line))  # document order
            symbols = self._with_macros(done, lambda inner: inner.table().symbols.values())
            self._table = SymbolTable(self.language, symbols, self.has_errors, self._aliases())
            # The table answers everything now; let the tree (tens of times
            # the file's size) go.
            self._tree, self._data, self._full, self._pruned, self._done = None, b"", {}, {}, {}
        return self._table


_CALLABLE_KINDS = frozenset({"function", "method", "constructor"})


def _callable(d: _Def) -> bool:
    return d.kind in _CALLABLE_KINDS


def _depth(node: tree_sitter.Node) -> int:
    depth = 0
    parent = node.parent
    while parent is not None:
        depth += 1
        parent = parent.parent
    return depth


def end_line(first: tree_sitter.Node, last: tree_sitter.Node) -> int:
    """1-based last line; a span ending at a line start ends on the line before."""
    row, column = last.end_point
    if column == 0 and row > first.start_point.row:
        return row
    return row + 1
