"""Python symbols, spans, normalized hashes and imports."""

from __future__ import annotations

import textwrap

import pytest

from memvet._code import imports as imports_of
from memvet._code import symbol_table


def table(src: str):
    return symbol_table(textwrap.dedent(src).encode(), "python")


def h(src: str, name: str) -> str:
    return table(src).symbols[name].hash


BASE = '''
    """Module docstring."""
    import functools

    TIMEOUT = 30


    @functools.cache
    @app.route("/x", methods=["GET"])
    def handler(a, b=1):
        """Handle it."""
        total = compute(a,
                        b)
        if total:
            total += 1
        return total


    class Outer:
        """Outer doc."""

        class Inner:
            def method(self):
                def nested():
                    return 1
                return nested()

        async def run(self):
            pass
'''


def test_qualnames_kinds_and_nesting():
    t = table(BASE)
    assert list(t.symbols) == [
        "TIMEOUT",
        "handler",
        "Outer",
        "Outer.Inner",
        "Outer.Inner.method",
        "Outer.Inner.method.nested",
        "Outer.run",
    ]
    kinds = {q: s.kind for q, s in t.symbols.items()}
    assert kinds["handler"] == "function"
    assert kinds["Outer"] == kinds["Outer.Inner"] == "class"
    assert kinds["Outer.Inner.method"] == kinds["Outer.run"] == "method"
    assert kinds["Outer.Inner.method.nested"] == "function"
    assert kinds["TIMEOUT"] == "variable"


def test_span_includes_decorators():
    s = table(BASE).symbols["handler"]
    assert (s.start_line, s.end_line) == (8, 16)
    assert not s.has_error


@pytest.mark.parametrize(
    "edited",
    [
        # a comment, a blank line, re-wrapping the call, rewording the docstring
        BASE.replace("total = compute(a,", "# a comment\n        total = compute(a,"),
        BASE.replace("        if total:", "\n\n        if total:"),
        BASE.replace("compute(a,\n                        b)", "compute(a, b)"),
        BASE.replace('"""Handle it."""', '"""Handle it, reworded\n        over two lines."""'),
        BASE.replace("return total", "return total  # trailing"),
        BASE.replace("TIMEOUT = 30", "TIMEOUT = 31"),  # outside
        BASE + "\n\ndef later():\n    pass\n",  # outside
    ],
)
def test_hash_ignores_layout_comments_docstrings(edited):
    assert h(edited, "handler") == h(BASE, "handler")


@pytest.mark.parametrize(
    "edited",
    [
        BASE.replace("total += 1", "total += 2"),  # number
        BASE.replace("total += 1", "total -= 1"),  # operator
        BASE.replace("compute(a,", "compute2(a,"),  # identifier
        BASE.replace('"/x"', '"/y"'),  # string contents
        BASE.replace('"/x"', '"/x "'),  # spacing inside a string
        BASE.replace("@functools.cache\n", ""),  # a decorator
        BASE.replace("b=1", "b=2"),  # signature
        # dedenting a statement out of the `if` block
        BASE.replace("            total += 1\n", "            total += 1\n        total += 1\n"),
    ],
)
def test_hash_changes_with_tokens_and_structure(edited):
    assert h(edited, "handler") != h(BASE, "handler")


def test_dedent_out_of_block_changes_hash():
    inside = "def f(x):\n    if x:\n        a()\n        b()\n"
    outside = "def f(x):\n    if x:\n        a()\n    b()\n"
    assert h(inside, "f") != h(outside, "f")


def test_docstring_only_first_statement_is_skipped():
    a = 'def f():\n    x = 1\n    "not a docstring"\n'
    b = 'def f():\n    x = 1\n    "changed"\n'
    assert h(a, "f") != h(b, "f")
    c = 'def f():\n    "doc one"\n    return 1\n'
    d = 'def f():\n    # comment first\n    "doc two"\n    return 1\n'
    assert h(c, "f") == h(d, "f")


def test_class_hash_covers_methods():
    assert h(BASE.replace("return 1", "return 2"), "Outer") != h(BASE, "Outer")
    assert h(BASE.replace("return 1", "return 2"), "Outer.run") == h(BASE, "Outer.run")


def test_duplicate_names_get_parameter_suffix_and_lookup_is_ambiguous():
    t = table(
        """
        class C:
            @property
            def x(self) -> int:
                return 1

            @x.setter
            def x(self, value: int) -> None:
                pass

            def y(self):
                pass
        """
    )
    assert "C.x(self)" in t.symbols
    assert "C.x(self,int)" in t.symbols
    assert "C.y" in t.symbols  # not duplicated: no suffix
    assert {s.qualname for s in t.lookup("C.x")} == {"C.x(self)", "C.x(self,int)"}
    assert [s.qualname for s in t.lookup("C.x(self)")] == ["C.x(self)"]
    assert t.lookup("C.missing") == []


def test_identical_duplicates_get_ordinal():
    t = table(
        """
        try:
            def f(a):
                return 1
        except ImportError:
            def f(a):
                return 2
        """
    )
    assert list(t.symbols) == ["f(a)", "f(a)#2"]
    assert len(t.lookup("f")) == 2


def test_error_detection_inside_span_only():
    t = table(
        """
        def good():
            return 1

        def bad(:
            return (
        """
    )
    assert not t.symbols["good"].has_error
    assert any(s.has_error for s in t.symbols.values() if s.name != "good") or "bad" not in t.symbols


def test_error_flag_on_broken_body():
    t = table("def f():\n    x = (1 +\n    return x\n\ndef g():\n    return 2\n")
    broken = [s for s in t.symbols.values() if s.has_error]
    assert broken
    assert all(s.qualname != "g" or not s.has_error for s in t.symbols.values())


def test_binary_input_does_not_crash():
    data = bytes(range(256)) * 8 + b"\xff\xfe def f(): pass"
    t = symbol_table(data, "python")
    assert t.language == "python"


def test_imports_all_forms():
    src = textwrap.dedent(
        """
        import os
        import x.y as z, json
        from a.b import c
        from . import sibling
        from ..pkg.mod import thing
        from __future__ import annotations
        import importlib
        mod = importlib.import_module("plugins.dyn")
        legacy = __import__("legacy_mod")
        """
    ).encode()
    assert imports_of(src, "python") == [
        ("os", 2),
        ("x.y", 3),
        ("json", 3),
        ("a.b", 4),
        (".", 5),
        ("..pkg.mod", 6),
        ("__future__", 7),
        ("importlib", 8),
        ("plugins.dyn", 9),
        ("legacy_mod", 10),
    ]


def test_imports_ignore_comments_and_strings():
    src = b'# import requests\ns = "import requests"\ndoc = """\nfrom requests import get\n"""\n'
    assert imports_of(src, "python") == []


def test_a_2000_line_file_gives_every_symbol_its_own_hash():
    """Speed is measured in benchmarks/verify_bench.py (its parse floor row),
    not asserted here; this holds the large file's table to its content."""
    body = "\n".join(
        f"@decorator({i})\ndef function_{i}(a, b: int = {i}) -> int:\n"
        f'    """Doc {i}."""\n    if a > b:\n        return a * {i}\n    values = [x for x in range(b)]\n'
        f"    return sum(values) + helper(a,\n                               b)\n"
        for i in range(250)
    )
    data = body.encode()
    assert data.count(b"\n") >= 2000
    table = symbol_table(data, "python")
    assert not table.has_errors
    assert list(table.symbols) == [f"function_{i}" for i in range(250)]
    assert len({s.hash for s in table.symbols.values()}) == 250
