"""Parentheses that change nothing, left out of the normalized hash: Python
and (since hasher v5) JavaScript/TypeScript.

A formatter that removes (or adds) parentheses Python does not need must not
make a decision stale: on sqlalchemy (HEAD~500 -> HEAD, 300 decisions) the
only two false alarms of 251 unrelated edits were ``(isdelete, listonly) =
uow.states[state]`` rewritten as ``isdelete, listonly = ...``, where
``ast`` sees one tree. So the token walk drops the ``(`` and ``)`` of a node
here called redundant, and of nothing else.

The rule is a list of *slots*: positions where Python's grammar accepts the
whole expression (or target) with or without the parentheses and builds the
same tree. At a slot, and only at its outermost node:

============================== ========================================= ==========
slot                           what stands there                         tuples too
============================== ========================================= ==========
``x = <here>``                 the value of an assignment (also           yes
                               ``x: T = <here>``), and of ``x += <here>``
``<here> = x``                 an assignment target (each of a chain),    yes
                               unless the assignment is annotated
``for <here> in <here>:``      a ``for`` statement's target and iterable  yes
``[... for <here> in y]``      a comprehension's target (not its          yes
                               iterable: ``for y in a, b`` is an error
                               there)
``return <here>``              a return value                             yes
``yield <here>``               a yield value (not ``yield from``)         yes
``del <here>``                 the one target list of ``del``             yes
``x[<here>]``                  a subscript's only element, no comma       yes
``if/elif/while <here>:``      a condition                                no
============================== ========================================= ==========

What is dropped there, repeatedly from the outside in:

* ``( expression )``, a parenthesized expression, unless what it holds is
  a walrus ``x := 1`` (``return x := 1`` is a syntax error), a ``yield``
  (``return yield`` is one too) or a starred item;
* where "tuples too" says yes, the parentheses of a non-empty tuple,
  keeping its commas: ``(a, b)`` -> ``a, b`` and ``(a,)`` -> ``a,`` (the
  one-element tuple keeps its comma, so it never equals ``a``); the
  elements inside are not slots (``(a, (b, c)) = x`` unpacks differently
  from ``a, b, c = x``);
* in a target, parentheses around one target without a comma, which group
  and nothing else: ``(x) = 1``, ``for (x) in y``, ``((a, b)) = c``.

Anywhere else, parentheses holding one atom or primary are dropped too,
because they group nothing: a name, a literal, an implicitly concatenated
string, an attribute, a subscript, a call, a display or comprehension, or
something in parentheses of its own: ``(a) + b`` -> ``a + b``, ``f((a))``
-> ``f(a)``, ``[("a" "b"), c]`` -> ``["a" "b", c]``, ``(f)(x)`` -> ``f(x)``,
``((a, b)).c`` -> ``(a, b).c``. Not ``await``, unary or binary operators,
comparisons, ``not``, ``lambda``, conditionals: ``(-1) ** 2``, ``(await
x).y`` and ``(a + b) * c`` keep theirs. (A second sqlalchemy sample,
``--seed 1``, had exactly this case as its one false alarm: a
parenthesized concatenated string inside a tuple.)

Never dropped: the empty tuple ``()``; call parentheses; generator
expressions (``f(x for x in y)`` needs its own); parentheses around an
operator inside a larger expression, even where precedence would allow it
(``(a * b) + c`` keeps them: the rule does not judge precedence); ``with``
items (``with (a, b):`` is two context managers since 3.9, a tuple before);
``except (A, B):`` (bare ``except A, B:`` only parses since 3.14);
``assert (x, "m")`` (a non-empty tuple, always true, unlike ``assert x,
"m"``); the target of an annotated assignment (``(x): int = 1`` is not
recorded in ``__annotations__``, ``x: int = 1`` is); and, unless they
hold an atom, parentheses around a lambda body, an argument, or an
``await`` or ``yield from`` operand.

The walk asks about the nodes that carry parentheses (on sqlalchemy's
``lib/``, 6,400 of them against 51,000 assignments, returns, conditions and
subscripts), looking up at their parent, so a file without any costs
nothing: asking at every slot instead made the token walk 11 % slower.

Statement boundaries are marked in the token stream (see
:mod:`memvet._code._tokens`), so dropping parentheses cannot join two
statements into one: ``x = (a)`` followed by the statement ``(b)`` still
differs from ``x = a(b)``.

JavaScript and TypeScript (since hasher v5). Prettier adds parentheses
(around an assignment used as a value, around mixed operators, around a
multi-line ``return`` value, around an arrow's parameter) and removes every
other pair it finds redundant; on six real libraries those were most of
its false alarms under v4 (``benchmarks/format_sweep.py``). Dropped:

* around an arrow function's parameter when it is one plain identifier:
  ``(x) => x`` is ``x => x``, ``async (x) => x`` is ``async x => x``. A
  parameter with a type, a ``?``, a default, a rest, a destructuring, a
  modifier or a decorator, or an arrow with type parameters or a return
  type, keeps them: none can be written without (``<T>x => x`` and
  ``x: T => x`` are syntax errors), so they stay apart from any form
  without;
* around an expression in a slot that takes any expression: doubled
  parentheses (an ``if``/``while``/``switch`` condition is a parenthesized
  expression of its own, so ``if ((m = f()))`` is ``if (m = f())``), a
  ``return`` or ``throw`` value, a ``${...}`` substitution, a subscript's
  index;
* around anything but a sequence (``a, b``) in a slot that takes an
  AssignmentExpression: a declarator's value, an assignment's right side,
  a call argument, an array element, a property value, a spread, a default
  value, a conditional's branches (``var a = (b = c)`` is ``var a = b = c``);
* around an operand whose binding is tighter than its operator's, or as
  tight on the left of a left-associative one (``(a * b) | 0``,
  ``(a + b) + c``, ``!(x)``); never where the grammar needs them:
  ``a - (b - c)``, ``a ** b`` with a unary base, ``??`` mixed with ``||`` or
  ``&&``;
* around a call or member chain without ``?.`` or a literal (not a number)
  before ``.``, ``[`` or ``(``: ``(/re/).exec(s)``, ``(a.b)()`` (the same
  ``this``), ``(new Date()).getTime()`` (but ``(new A).b`` is not
  ``new A.b``, and ``(a?.b).c`` ends the chain where ``a?.b.c`` does not);
* in an expression statement, around an assignment or a sequence (prettier
  writes ``((a = 1), (b = 2));``) or anything else;
* the ``()`` of ``new A()`` when nothing follows it: ``new A`` is
  ``new A()``, but ``new A().b`` is not ``new A.b``.

Where the parentheses would start a statement (or an arrow's body), they
stay around anything starting with ``{``, ``function``, ``class``, ``let``
or ``async``, which would read as a block or a declaration there
(``({}).x = 1``, ``() => ({})``, ``(function () {})()``); a string in an
expression statement keeps them (``('use strict')`` is no directive); and
nothing is dropped in the head of a ``for`` statement, where ``in`` needs
them (``for (var a = (b in c);;)``). TypeScript's ``as``, ``satisfies``,
``<T>x`` and ``x!`` are left alone.

Statement ends are markers in the stream (see :mod:`memvet._code._tokens`),
so automatic semicolon insertion cannot join what dropping parentheses
leaves: ``return (\\n x)`` returns ``x`` and hashes as ``return x``;
``return\\n x`` returns ``undefined`` and hashes apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

__all__ = ["GROUPS", "JS_GROUPS", "js_redundant_parens", "redundant_parens"]

GROUPS = frozenset({"parenthesized_expression", "tuple", "tuple_pattern"})
"""Node types that carry parentheses the walk may drop."""

# What a parenthesized expression must keep its parentheses around.
_KEEP = frozenset({"named_expression", "yield", "list_splat", "dictionary_splat"})
# Atoms and primaries without an operator of their own (await is one): in
# parentheses anywhere, they group nothing.
_ATOMS = frozenset({
    "identifier", "string", "concatenated_string", "integer", "float", "true", "false", "none",
    "ellipsis", "attribute", "subscript", "call", "list", "dictionary", "set", "tuple",
    "list_comprehension", "dictionary_comprehension", "set_comprehension", "generator_expression",
    "parenthesized_expression",
})
# The value recorded for a tuple whose parentheses were dropped: its items
# are not slots (grouping parentheses record whether tuples may stand there).
_TUPLE = -1


def redundant_parens(node: tree_sitter.Node, field: str | None, drop: dict[int, int]) -> None:
    """Record in ``drop`` the start bytes of ``node``'s ``(`` and ``)`` when
    they change nothing (see the module docs).

    Args:
        node: One of :data:`GROUPS`, entered by the walk after its parent.
        field: The node's field name in its parent (``None``: no field).
        drop: Start byte of each dropped ``(`` and ``)`` -> for grouping
            parentheses 1 if a tuple may stand inside them, 0 if not; -1 for
            a tuple's own parentheses.
    """
    parent = node.parent
    if parent is None:
        return
    tuples = _slot(node, field, parent, drop)
    if tuples is None:
        if node.type == "parenthesized_expression":
            inner = _items(node)
            if len(inner) == 1 and inner[0].type in _ATOMS:
                _mark(node, drop, _TUPLE)  # what stands inside is no slot
        return
    if node.type == "parenthesized_expression":
        inner = _items(node)
        if len(inner) == 1 and inner[0].type not in _KEEP:
            _mark(node, drop, int(tuples))
    elif tuples:
        items = _items(node)
        if not items:
            return  # ()
        if node.type == "tuple" or len(items) > 1 or any(child.type == "," for child in node.children):
            _mark(node, drop, _TUPLE)
        else:
            _mark(node, drop, 1)  # a target in grouping parentheses: (x) = 1


def _slot(node: tree_sitter.Node, field: str | None, parent: tree_sitter.Node, drop: dict[int, int]
          ) -> bool | None:
    """Whether ``node`` stands whole in a slot: ``None`` if not, else
    whether a tuple may stand there."""
    kind = parent.type
    if kind in GROUPS:  # inside parentheses dropped already: their slot, unless a tuple's
        found = drop.get(parent.start_byte)
        return None if found is None or found == _TUPLE else bool(found)
    if kind == "assignment":
        if field == "right" or (field == "left" and parent.child_by_field_name("type") is None):
            return True
        return None
    if kind == "augmented_assignment":
        return True if field == "right" else None
    if kind == "for_statement":
        return True if field in ("left", "right") else None
    if kind == "for_in_clause":
        return True if field == "left" else None
    if kind in ("return_statement", "delete_statement"):
        return True  # a value list would be an expression_list in between
    if kind == "yield":
        return None if any(child.type == "from" for child in parent.children) else True
    if kind == "subscript":
        if field == "subscript" and not any(child.type == "," for child in parent.children):
            return True
        return None
    if kind in ("if_statement", "elif_clause", "while_statement"):
        return False if field == "condition" else None
    return None


def _items(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The named children that are not comments."""
    return [child for child in node.named_children if child.type != "comment"]


def _mark(node: tree_sitter.Node, drop: dict[int, int], value: int) -> None:
    """Drop the node's first and last children if they are ``(`` and ``)``
    (error recovery may leave one missing: then drop nothing)."""
    first, last = node.children[0], node.children[-1]
    if first.type == "(" and last.type == ")" and not last.is_missing:
        drop[first.start_byte] = value
        drop[last.start_byte] = value


JS_GROUPS = frozenset({"formal_parameters", "parenthesized_expression", "new_expression"})
"""JavaScript/TypeScript node types that carry parentheses the walk may drop."""

# Binding strength of JavaScript expressions (higher binds tighter), after
# the ECMAScript grammar's nesting: Expression (sequence) 0,
# AssignmentExpression (also arrow functions and yield) 1, conditional 2,
# the binary operators 3-14, unary (and await) 15, update 16, then
# left-hand-side expressions (new, call, member) 18 and primaries 19.
_JS_BINARY = {
    "??": 3, "||": 4, "&&": 5, "|": 6, "^": 7, "&": 8,
    "==": 9, "!=": 9, "===": 9, "!==": 9,
    "<": 10, ">": 10, "<=": 10, ">=": 10, "in": 10, "instanceof": 10,
    "<<": 11, ">>": 11, ">>>": 11, "+": 12, "-": 12, "*": 13, "/": 13, "%": 13, "**": 14,
}
_JS_LEVEL = {
    "sequence_expression": 0, "assignment_expression": 1, "augmented_assignment_expression": 1,
    "arrow_function": 1, "yield_expression": 1, "ternary_expression": 2,
    "unary_expression": 15, "await_expression": 15, "update_expression": 16,
    "new_expression": 18, "call_expression": 18, "member_expression": 18, "subscript_expression": 18,
    "identifier": 19, "this": 19, "super": 19, "number": 19, "string": 19, "template_string": 19,
    "regex": 19, "true": 19, "false": 19, "null": 19, "undefined": 19, "array": 19, "object": 19,
    "function_expression": 19, "class": 19, "parenthesized_expression": 19,
}
# Slots that take a whole Expression (a sequence too), and are never the
# first token of a statement: by parent type -> field (None: any child).
_JS_EXPRESSION_SLOTS: dict[str, str | None] = {
    "parenthesized_expression": None,  # doubled: ((x)); an `if` condition is one itself
    "return_statement": None,
    "throw_statement": None,
    "template_substitution": None,
    "subscript_expression": "index",
}
# Slots that take an AssignmentExpression (no sequence), never first in a
# statement either.
_JS_ASSIGNMENT_SLOTS: dict[str, str | None] = {
    "variable_declarator": "value",
    "assignment_expression": "right",
    "augmented_assignment_expression": "right",
    "assignment_pattern": "right",
    "arguments": None,
    "array": None,
    "pair": "value",
    "spread_element": None,
    "ternary_expression": None,  # its consequence and alternative (the condition: below)
}
# Parents in which something may follow `new A()` and bind to it.
_JS_NEW_FOLLOWED = frozenset({
    "member_expression", "subscript_expression", "call_expression", "new_expression",
    "parenthesized_expression", "non_null_expression",
})
# The other parents whose parenthesized children may lose their parentheses.
_JS_LEADING_SLOTS = frozenset({
    "ternary_expression", "expression_statement", "sequence_expression", "arrow_function",
    "binary_expression", "unary_expression", "await_expression",
    "member_expression", "subscript_expression", "call_expression",
})
_JS_HAZARDS = frozenset({"{", "function", "class", "let", "async"})
_JS_MEMBERS = frozenset({"member_expression", "subscript_expression", "call_expression"})


def js_redundant_parens(node: tree_sitter.Node, field: str | None, drop: dict[int, int]) -> None:
    """Record in ``drop`` the start bytes of the ``(`` and ``)`` of ``node``
    when they change nothing (see the module docs).

    Args:
        node: A ``formal_parameters`` or ``parenthesized_expression`` node,
            entered by the walk after its parent.
        field: Its field name in its parent.
        drop: Start byte of each dropped ``(`` and ``)`` -> 1.
    """
    parent = node.parent
    if parent is None:
        return
    if node.type == "formal_parameters":
        if field == "parameters" and parent.type == "arrow_function" and _lone_name(node, parent):
            _mark(node, drop, 1)
        return
    if node.type == "new_expression":
        # `new A()` is `new A`, unless something follows that would then
        # attach to A: `new A().b` is not `new A.b`.
        args = node.child_by_field_name("arguments")
        if args is not None and args.type == "arguments" and not _items(args) \
                and parent.type not in _JS_NEW_FOLLOWED:
            _mark(args, drop, 1)
        return
    if parent.type not in _JS_SLOTS:
        return  # most often an `if`/`while` condition's own parentheses
    if parent.type == "parenthesized_expression" and parent.start_byte in drop:
        return  # ((x)) whose outer pair is gone already: the inner pair stays
    items = _items(node)
    if len(items) == 1 and _js_redundant(items[0], parent, field):
        _mark(node, drop, 1)


def _js_redundant(inner: tree_sitter.Node, parent: tree_sitter.Node, field: str | None) -> bool:
    """Whether ``inner`` reads the same without the parentheses around it,
    in ``field`` of ``parent``."""
    level = _js_level(inner)
    if level < 0:
        return False  # not an expression this rule knows (TypeScript `as`, `<T>x`, `x!`...)
    kind = parent.type
    if kind in _JS_EXPRESSION_SLOTS:
        slot = _JS_EXPRESSION_SLOTS[kind]
        return (slot is None or field == slot) and not _in_for_header(parent)
    if kind in _JS_ASSIGNMENT_SLOTS and (kind != "ternary_expression" or field != "condition"):
        slot = _JS_ASSIGNMENT_SLOTS[kind]
        return (slot is None or field == slot) and level >= 1 and not _in_for_header(parent)
    # The slots left may stand first in a statement.
    if kind not in _JS_LEADING_SLOTS:
        return False  # an `if` condition's own parentheses, a call's callee in `new (f())()`...
    if _in_for_header(parent) or (not _starts_safely(inner) and _leads_statement(inner)):
        return False
    if kind == "ternary_expression":
        return field == "condition" and level >= 3
    if kind == "expression_statement":
        return inner.type != "string"  # ("use strict") is no directive
    if kind == "sequence_expression":
        return level >= 1
    if kind == "arrow_function":
        return field == "body" and level >= 1
    if kind == "binary_expression":
        return _js_operand(inner, level, parent, field)
    if kind in ("unary_expression", "await_expression"):
        return level >= 15
    if kind in _JS_MEMBERS and field in ("object", "function"):
        # `(a?.b).c` stops the chain, `a?.b.c` does not: no optional chain.
        # `(new A).b` is not `new A.b`, `(new A()).b` is `new A().b`.
        if inner.type in _JS_MEMBERS:
            return not _optional(inner)
        if inner.type == "new_expression":
            return inner.child_by_field_name("arguments") is not None
        return level == 19 and inner.type != "number"  # `1.toString()` does not parse
    return False


def _js_level(node: tree_sitter.Node) -> int:
    """The binding strength of an expression (-1: unknown)."""
    if node.type == "binary_expression":
        op = node.child_by_field_name("operator")
        return -1 if op is None else _JS_BINARY.get(op.type, -1)
    return _JS_LEVEL.get(node.type, -1)


def _js_operand(inner: tree_sitter.Node, level: int, parent: tree_sitter.Node, field: str | None) -> bool:
    """Whether an operand of a binary expression needs no parentheses."""
    op = parent.child_by_field_name("operator")
    outer = -1 if op is None else _JS_BINARY.get(op.type, -1)
    if outer < 0:
        return False
    if op is not None and op.type == "**":
        # Right-associative, and a unary expression may not be its base.
        return level > 15 or (field == "right" and level >= 14)
    if inner.type == "binary_expression" and 3 in (outer, level) and (outer in (4, 5) or level in (4, 5)):
        return False  # `??` does not mix with `||` or `&&` without parentheses
    if level > outer:
        return True
    return level == outer and field == "left"


def _optional(node: tree_sitter.Node) -> bool:
    """Whether a member/call chain holds an optional link ``?.``."""
    while node.type in _JS_MEMBERS:
        if any(child.type == "optional_chain" for child in node.children):
            return True
        nxt = node.child_by_field_name("object") or node.child_by_field_name("function")
        if nxt is None:
            return False
        node = nxt
    return False


def _starts_safely(node: tree_sitter.Node) -> bool:
    """Whether an expression's first token cannot start a declaration or a
    block when it stands first in a statement (``{``, ``function``...)."""
    first = node
    while first.child_count:
        first = first.children[0]
    return first.type not in _JS_HAZARDS and first.text != b"let"


def _leads_statement(node: tree_sitter.Node) -> bool:
    """Whether the parentheses around ``node`` hold the first token of an
    expression statement or of an arrow function's body, where ``{``
    would open a block and ``function`` or ``class`` a declaration."""
    up = node.parent  # the parentheses
    while up is not None:
        parent = up.parent
        if parent is None:
            return False
        if parent.type == "arrow_function":
            return parent.child_by_field_name("body") == up
        if parent.start_byte != up.start_byte:
            return False
        if parent.type == "expression_statement":
            return True
        up = parent
    return False


def _in_for_header(node: tree_sitter.Node) -> bool:
    """Whether ``node`` lies in the initializer of a ``for`` statement, or
    in the head of a ``for-in``/``for-of``, where ``in`` needs its
    parentheses (``for (var a = (b in c);;)``)."""
    up: tree_sitter.Node | None = node
    child = node
    while up is not None:
        kind = up.type
        if kind == "for_in_statement":
            return True
        if kind == "for_statement":
            return child == up.child_by_field_name("initializer")
        if kind.endswith("statement") or kind in ("statement_block", "class_body", "program"):
            return False
        child, up = up, up.parent
    return False


def _lone_name(params: tree_sitter.Node, arrow: tree_sitter.Node) -> bool:
    """Whether an arrow function's parameter list is one plain identifier
    that could stand without parentheses."""
    if arrow.child_by_field_name("type_parameters") is not None \
            or arrow.child_by_field_name("return_type") is not None:
        return False
    items = _items(params)
    if len(items) != 1:
        return False
    item = items[0]
    if item.type == "required_parameter":  # TypeScript: only the name, nothing around it
        if item.child_count != 1:
            return False
        item = item.children[0]
    return item.type == "identifier"


_JS_SLOTS = frozenset(_JS_EXPRESSION_SLOTS) | frozenset(_JS_ASSIGNMENT_SLOTS) | _JS_LEADING_SLOTS
"""Every parent whose parenthesized children :func:`js_redundant_parens` may unwrap."""
