"""Python ``@typing.overload``: the bare name is the implementation, and the
stubs written right before it are part of its span and hash.

The module fixture copies the shape of sqlalchemy's generated ``select``
overloads (a comment block, positional-only stubs, then the implementation);
the class fixture the shape of a descriptor's ``__get__`` overloads.
"""

from __future__ import annotations

from memvet._code import parse_file, symbol_table

MODULE = '''\
from typing import Any, overload
import typing


# START OVERLOADED FUNCTIONS select Select 1-3

# code within this block is generated


@overload
def select(__ent0: _TCCA[_T0], /) -> Select[_T0]: ...


@overload
def select(__ent0: _TCCA[_T0], __ent1: _TCCA[_T1], /) -> Select[_T0, _T1]: ...


# END OVERLOADED FUNCTIONS select


@overload
def select(*entities: Any, **__kw: Any) -> Select[Any]: ...


def select(*entities: Any, **__kw: Any) -> Select[Any]:
    """Construct a new Select."""
    return Select(*entities)


class hybrid_property:
    @typing.overload
    def __get__(self, instance: None, owner: type) -> "hybrid_property": ...

    @typing.overload
    def __get__(self, instance: object, owner: type) -> int: ...

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return self.fget(instance)

    def other(self):
        return 1
'''


def test_the_bare_name_is_the_implementation_with_its_stubs():
    t = symbol_table(MODULE.encode(), "python")
    assert list(t.symbols) == ["select", "hybrid_property", "hybrid_property.__get__", "hybrid_property.other"]
    sel = t.symbols["select"]
    assert sel.kind == "function"
    # The span runs from the first stub (decorator line) to the end of the
    # implementation: comments between stubs do not break the run.
    assert (sel.start_line, sel.end_line) == (10, 27)
    get = t.symbols["hybrid_property.__get__"]
    assert (get.kind, get.start_line, get.end_line) == ("method", 31, 40)
    assert [s.qualname for s in t.lookup("select")] == ["select"]


def test_a_stub_signature_change_changes_the_hash():
    t = symbol_table(MODULE.encode(), "python")
    edited = MODULE.replace("def select(__ent0: _TCCA[_T0], /) -> Select[_T0]: ...",
                            "def select(__ent0: _TCCA[_T0], /) -> Select[tuple[_T0]]: ...")
    e = symbol_table(edited.encode(), "python")
    assert e.symbols["select"].hash != t.symbols["select"].hash
    assert e.symbols["hybrid_property.__get__"].hash == t.symbols["hybrid_property.__get__"].hash
    # Comments and layout between the stubs still do not count.
    cosmetic = MODULE.replace("# code within this block is generated", "# regenerated\n\n")
    assert symbol_table(cosmetic.encode(), "python").symbols["select"].hash == t.symbols["select"].hash


def test_an_implementation_body_change_changes_the_hash():
    t = symbol_table(MODULE.encode(), "python")
    e = symbol_table(MODULE.replace("return Select(*entities)", "return Select(*entities, **__kw)").encode(),
                     "python")
    assert e.symbols["select"].hash != t.symbols["select"].hash


def test_stubs_apart_from_the_implementation_stay_out_of_its_span():
    src = '''\
from typing import overload

@overload
def f(x: int) -> int: ...
@overload
def f(x: str) -> str: ...

VALUE = 1

def f(x):
    return x
'''
    t = symbol_table(src.encode(), "python")
    assert list(t.symbols) == ["VALUE", "f"]
    assert (t.symbols["f"].start_line, t.symbols["f"].end_line) == (10, 11)
    edited = symbol_table(src.replace("x: str) -> str", "x: bytes) -> bytes").encode(), "python")
    assert edited.symbols["f"].hash == t.symbols["f"].hash


def test_stubs_without_an_implementation_stay_symbols():
    # A .pyi file or a Protocol: each stub is the only definition there is.
    src = '''\
from typing import overload

@overload
def f(x: int) -> int: ...
@overload
def f(x: str) -> str: ...
'''
    t = symbol_table(src.encode(), "python")
    assert list(t.symbols) == ["f(int)", "f(str)"]
    assert [s.qualname for s in t.lookup("f")] == ["f(int)", "f(str)"]


def test_overload_decorators_recognised_and_not():
    src = '''\
import typing_extensions as te
from functools import singledispatch

@te.overload
def g(x: int) -> int: ...
def g(x):
    return x

@singledispatch
def h(x): ...
@h.register
def h(x: int): ...
'''
    t = symbol_table(src.encode(), "python")
    assert [q for q in t.symbols if q.startswith("g")] == ["g"]
    assert t.symbols["g"].start_line == 4
    # singledispatch registrations are real implementations, not stubs.
    assert [q for q in t.symbols if q.startswith("h")] == ["h(x)", "h(int)"]


def test_single_symbol_lookup_matches_the_table():
    table = symbol_table(MODULE.encode(), "python")
    for q, sym in table.symbols.items():
        assert parse_file(MODULE.encode(), "python").symbol(q) == sym, q
