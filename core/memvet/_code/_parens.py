"""Python parentheses that change nothing, left out of the normalized hash.

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

Never dropped: the empty tuple ``()``; call parentheses; generator
expressions (``f(x for x in y)`` needs its own); parentheses inside a
larger expression, where precedence may depend on them (``(a + b) * c``,
``(a) + b`` alike: the rule does not judge precedence at all); ``with``
items (``with (a, b):`` is two context managers since 3.9, a tuple before);
``except (A, B):`` (bare ``except A, B:`` only parses since 3.14);
``assert (x, "m")`` (a non-empty tuple, always true, unlike ``assert x,
"m"``); the target of an annotated assignment (``(x): int = 1`` is not
recorded in ``__annotations__``, ``x: int = 1`` is); lambda bodies,
arguments, ``await`` and ``yield from`` operands.

Statement boundaries are marked in the token stream (see
:mod:`memvet._code._tokens`), so dropping parentheses cannot join two
statements into one: ``x = (a)`` followed by the statement ``(b)`` still
differs from ``x = a(b)``.

JavaScript and TypeScript are left alone: their layout is syntax where the
hash ignores it (automatic semicolon insertion makes ``return (\\n x)``
return ``x`` and ``return\\n x`` return ``undefined``), ``(a, b)`` is the
comma operator, and ``() => ({})`` differs from ``() => {}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

__all__ = ["SLOTS", "redundant_parens"]

SLOTS = frozenset({
    "assignment", "augmented_assignment", "for_statement", "for_in_clause", "return_statement",
    "yield", "delete_statement", "subscript", "if_statement", "elif_clause", "while_statement",
})
"""Node types whose children may hold redundant parentheses."""

# What a parenthesized expression must keep its parentheses around.
_KEEP = frozenset({"named_expression", "yield", "list_splat", "dictionary_splat"})
_TUPLES = frozenset({"tuple", "tuple_pattern"})


def redundant_parens(node: tree_sitter.Node, drop: set[int]) -> None:
    """Add to ``drop`` the start bytes of the redundant ``(`` and ``)`` in
    the slots of ``node`` (one of :data:`SLOTS`; see the module docs)."""
    kind = node.type
    if kind == "assignment":
        if node.child_by_field_name("type") is None:
            _unwrap(node.child_by_field_name("left"), True, drop)
        _unwrap(node.child_by_field_name("right"), True, drop)
    elif kind == "augmented_assignment":
        _unwrap(node.child_by_field_name("right"), True, drop)
    elif kind == "for_statement":
        _unwrap(node.child_by_field_name("left"), True, drop)
        _unwrap(node.child_by_field_name("right"), True, drop)
    elif kind == "for_in_clause":
        _unwrap(node.child_by_field_name("left"), True, drop)
    elif kind in ("return_statement", "delete_statement"):
        _unwrap(_only_child(node), True, drop)
    elif kind == "yield":
        if not any(child.type == "from" for child in node.children):
            _unwrap(_only_child(node), True, drop)
    elif kind == "subscript":
        items = node.children_by_field_name("subscript")
        if len(items) == 1 and not any(child.type == "," for child in node.children):
            _unwrap(items[0], True, drop)
    else:  # if_statement, elif_clause, while_statement
        _unwrap(node.child_by_field_name("condition"), False, drop)


def _only_child(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The one named child that is not a comment, or None."""
    found = [child for child in node.named_children if child.type != "comment"]
    return found[0] if len(found) == 1 else None


def _unwrap(node: tree_sitter.Node | None, tuples: bool, drop: set[int]) -> None:
    """Drop the redundant parentheses of the slot holding ``node``, from the
    outside in."""
    while node is not None:
        kind = node.type
        if kind == "parenthesized_expression":
            inner = _only_child(node)
            if inner is None or inner.type in _KEEP:
                return
        elif tuples and kind in _TUPLES:
            items = [child for child in node.named_children if child.type != "comment"]
            if not items:
                return  # ()
            if kind == "tuple" or len(items) > 1 or any(child.type == "," for child in node.children):
                _mark(node, drop)  # a real tuple: its items are not slots
                return
            inner = items[0]  # a target in grouping parentheses
        else:
            return
        if not _mark(node, drop):
            return
        node = inner


def _mark(node: tree_sitter.Node, drop: set[int]) -> bool:
    """Drop the node's first and last children if they are ``(`` and ``)``
    (error recovery may leave one missing: then drop nothing)."""
    first, last = node.children[0], node.children[-1]
    if first.type != "(" or last.type != ")" or last.is_missing:
        return False
    drop.add(first.start_byte)
    drop.add(last.start_byte)
    return True
