"""Lazy per-symbol hashing (``parse_file(...).symbol``) against the full table.

The cold check hashes only the anchored symbol's span; these tests hold it to
the full walk of :func:`symbol_table`, byte for byte, on every language's
fixtures, on this repository's own source, and on generated Python files.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_code_go_rust_java import GO, JAVA, RUST  # this folder is on sys.path (rootdir-relative import mode)
from test_code_javascript import JS, TS
from test_code_python import BASE

from memvet._code import ParsedFile, language_for_path, parse_file, symbol_table

ROOT = Path(__file__).resolve().parents[3]


def _assert_lazy_equals_full(data: bytes, language: str) -> int:
    """Every symbol, looked up alone, equals its entry in the full table.

    Returns how many symbols were compared (so a caller can insist on some).
    """
    full = symbol_table(data, language)
    lazy = parse_file(data, language)
    for qualname, expected in full.symbols.items():
        got = lazy.symbol(qualname)
        assert got is not None, qualname
        assert got.has_error == expected.has_error, qualname
        if not expected.has_error:
            assert got == expected, qualname
    assert lazy.has_errors == full.has_errors
    assert lazy.symbol("no.such.symbol") is None
    return len(full.symbols)


@pytest.mark.parametrize(
    ("source", "language"),
    [
        (textwrap.dedent(BASE), "python"),
        (JS, "javascript"),
        (TS, "typescript"),
        (TS, "tsx"),
        (GO, "go"),
        (RUST, "rust"),
        (JAVA, "java"),
    ],
)
def test_every_fixture_symbol_hashes_the_same_alone(source, language):
    assert _assert_lazy_equals_full(source.encode(), language) >= 5


def _own_sources() -> list[Path]:
    found = []
    for folder in ("core", "memvet_langchain", "memvet_llamaindex", "benchmarks", "tests", "examples"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and language_for_path(path.name) in ("python", "javascript", "typescript"):
                found.append(path)
    return found


@pytest.mark.slow
def test_every_symbol_of_this_repository_hashes_the_same_alone():
    paths = _own_sources()
    assert len(paths) > 50
    compared = sum(
        _assert_lazy_equals_full(p.read_bytes(), language_for_path(p.name) or "") for p in paths
    )
    assert compared > 1000


def test_table_after_lookups_is_the_full_table_and_lookups_still_answer():
    data = textwrap.dedent(BASE).encode()
    parsed = parse_file(data, "python")
    first = next(iter(symbol_table(data, "python").symbols))
    alone = parsed.symbol(first)
    assert parsed.table() == symbol_table(data, "python")
    assert parsed.symbol(first) == alone  # now answered from the table


def test_structured_files_answer_from_their_table():
    data = b'[project]\nname = "x"\ndependencies = ["a>=1"]\n'
    parsed = parse_file(data, "toml")
    assert type(parsed) is ParsedFile
    assert parsed.symbol("project.dependencies") == symbol_table(data, "toml").symbols["project.dependencies"]
    assert parsed.symbol("project.nope") is None


# Generated files: blocks, decorators, nesting, docstrings and comments at the
# edges of spans are where a partial walk could disagree with the full one.
_STATEMENTS = st.sampled_from(
    [
        "x = 1",
        "return x",
        "pass",
        '"""doc"""',
        "# note",
        "if x:\n    y = (1,\n         2)\nelse:\n    y = 3",
        "for i in range(3):\n    continue",
        "s = f'{x!r:>{w}}'",
        "with open(p) as fh:\n    data = fh.read()",
        "try:\n    go()\nexcept OSError:\n    raise",
    ]
)
_NAMES = st.sampled_from(["f", "g", "run", "Box", "_h"])


@st.composite
def _python_files(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["stmt", "def", "class"] if depth < 2 else ["stmt", "def"]))
        if kind == "stmt":
            parts.append(draw(_STATEMENTS))
            continue
        head = "".join(draw(st.lists(st.sampled_from(["@cache\n", "@retry(3)\n", "# c\n"]), max_size=2)))
        name = draw(_NAMES)
        if kind == "def":
            body = draw(st.lists(_STATEMENTS, min_size=1, max_size=3))
            parts.append(f"{head}def {name}(a, b=2):\n" + textwrap.indent("\n".join(body), "    "))
        else:
            inner = draw(_python_files(depth + 1))
            parts.append(f"{head}class {name}:\n" + textwrap.indent(inner, "    "))
    return "\n".join(parts) + "\n"


@settings(max_examples=200, deadline=None)
@given(source=_python_files())
def test_generated_python_symbols_hash_the_same_alone(source):
    _assert_lazy_equals_full(source.encode(), "python")


@settings(max_examples=100, deadline=None)
@given(source=_python_files(), cut=st.integers(0, 400), junk=st.sampled_from(["(", "def :", "]]", "'''"]))
def test_broken_python_agrees_outside_the_error(source, cut, junk):
    cut = min(cut, len(source))
    _assert_lazy_equals_full((source[:cut] + junk + source[cut:]).encode(), "python")


def test_containing_hashes_only_the_spans_that_hold_every_word():
    """The move search's same-body lookup: the spans that hold the words,
    hashed as the full table hashes them; after the table, every symbol."""
    data = b"def total(items):\n    return sum(i.price for i in items)\n\n\n" \
           b"def count(items):\n    return len(items)\n\n\nclass Cart:\n" \
           b"    def total(self):\n        return sum(i.price for i in self.items)\n" \
           + b"".join(b"\n\ndef other%d(x):\n    return x + %d\n" % (i, i) for i in range(20))
    table = symbol_table(data, "python")
    parsed = parse_file(data, "python")
    assert parsed.containing([b"nowhere"]) == []
    found = parsed.containing([b"price", b"sum"])
    assert [s.qualname for s in found] == ["total", "Cart", "Cart.total"]
    assert all(s == table.symbols[s.qualname] for s in found)
    assert [s.qualname for s in parsed.containing([])] == list(table.symbols)
    # A method's search leaves out the class around it (it holds the words too), unhashed.
    callables = parsed.containing([b"price", b"sum"], lambda kind: kind != "class")
    assert [s.qualname for s in callables] == ["total", "Cart.total"]
    parsed.table()
    assert parsed.containing([b"nowhere"]) == list(table.symbols.values())  # a superset, by contract
    assert "Cart" not in [s.qualname for s in parsed.containing([b"nowhere"], lambda kind: kind != "class")]


def test_a_search_by_kind_does_not_hash_the_class_around_its_methods():
    methods = "".join(f"    def m{i}(self, price):\n        return price * {i}\n\n" for i in range(6))
    data = f"class Prices:\n{methods}".encode()
    parsed = parse_file(data, "python")
    found = parsed.containing([b"price"], lambda kind: kind == "method")
    assert [s.qualname for s in found] == [f"Prices.m{i}" for i in range(6)]
    assert parsed._table is None and parsed._walked < len(data)  # the methods' spans only
    everything = parse_file(data, "python")
    everything.containing([b"price"])
    assert everything._table is not None  # the class too: more than the file, so one walk of it all


def test_structured_files_contain_every_symbol():
    data = b'[project]\nname = "x"\n'
    assert parse_file(data, "toml").containing([b"nowhere"]) == list(symbol_table(data, "toml").symbols.values())


def test_lookups_that_would_walk_more_than_the_file_walk_it_once():
    """A class, then its methods: once the spans walked one by one would add
    up to more than the file, the whole table is built and answers."""
    data = textwrap.dedent(BASE).encode()
    table = symbol_table(data, "python")
    parsed = parse_file(data, "python")
    by_size = sorted(table.symbols.values(), key=lambda s: s.start_line - s.end_line)  # largest first
    for sym in by_size:
        assert parsed.symbol(sym.qualname) == sym
    assert parsed._table is not None  # switched to one walk of everything
    single = parse_file(data, "python")
    assert single.symbol(by_size[-1].qualname) == by_size[-1]
    assert single._table is None  # one small lookup stays a span walk


def test_containing_keeps_every_match_when_its_lookups_switch_to_the_full_walk():
    """Found on sqlalchemy at 5,000 decisions: the spans that hold the words
    add up to more than the file, the lookups switch to the full table half
    way, and the matches after the switch must not be lost."""
    methods = "".join(f"    def m{i}(self, price):\n        return price * {i}\n\n" for i in range(6))
    data = f"class Prices:\n{methods}\n\ndef last(price):\n    return price\n".encode()
    table = symbol_table(data, "python")
    found = parse_file(data, "python").containing([b"price"])
    assert {s.qualname for s in found} >= {f"Prices.m{i}" for i in range(6)} | {"Prices", "last"}
    assert all(s == table.symbols[s.qualname] for s in found)
