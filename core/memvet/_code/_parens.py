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

JavaScript and TypeScript are left alone: their layout is syntax where the
hash ignores it (automatic semicolon insertion makes ``return (\\n x)``
return ``x`` and ``return\\n x`` return ``undefined``), ``(a, b)`` is the
comma operator, and ``() => ({})`` differs from ``() => {}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

__all__ = ["GROUPS", "redundant_parens"]

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
