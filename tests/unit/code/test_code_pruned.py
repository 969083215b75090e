"""A pruned Python outline names what the full outline names.

``CodeFile.symbol`` first builds an outline that does not enter the bodies
of definitions whose names are not words of the wanted qualified name. Its
entries must be entries of the full outline, under the same names and on
the same nodes: a hit is then the answer, and a miss falls back to the full
outline. Compared on every Python file of this repository, on broken
variants of them, and on the shapes where naming looks at siblings
(duplicates, overload stubs, a class defined twice).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from _variants import FILES, broken_variant  # this folder is on sys.path

from memvet._code import symbol_table
from memvet._code._languages import parse
from memvet._code._symbols import _WORDS, CodeFile, _outline

ROOT = Path(__file__).resolve().parents[3]


def _words(qualname: str) -> frozenset[bytes]:
    return frozenset(w.encode() for w in _WORDS.findall(qualname))


def _mismatches(data: bytes, sample: int = 0, seed: int = 0) -> tuple[list[str], int]:
    """Qualnames whose pruned outline misses them or names a node otherwise,
    and how many qualnames were tried."""
    tree = parse(data, "python")
    full = _outline(tree, "python")
    names = sorted(full)
    if sample and len(names) > sample:
        names = random.Random(seed).sample(names, sample)
    bad = []
    for qualname in names:
        pruned = _outline(tree, "python", _words(qualname))
        if qualname not in pruned:
            bad.append(f"{qualname}: not in its pruned outline")
        for other, entry in pruned.items():
            want = full.get(other)
            if want is None or want.d.node.id != entry.d.node.id or \
                    (want.d.name, want.d.kind, want.d.emit) != (entry.d.name, entry.d.kind, entry.d.emit):
                bad.append(f"{qualname}: pruned outline names {other} otherwise")
    return bad, len(names)


def test_the_corpus_is_real_code():
    assert len(FILES) > 100


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_pruned_outline_is_part_of_the_full_one(path):
    bad, _ = _mismatches(path.read_bytes(), sample=40)
    assert bad == []


def test_a_pruned_outline_is_part_of_the_full_one_in_broken_files():
    rng = random.Random(15)
    tried = 0
    for _ in range(150):
        data = broken_variant(rng)
        bad, n = _mismatches(data, sample=15, seed=len(data))
        assert bad == [], data[:200]
        tried += n
    assert tried > 1000


SIBLINGS = b'''
from typing import overload

class A:
    def run(self):
        def helper():
            return 1
        return helper()

    def run(self, x):
        def helper():
            return 2
        return helper() + x

class B:
    def run(self):
        return 3

class A:
    def other(self):
        return 4

@overload
def f(x: int) -> int: ...
@overload
def f(x: str) -> str: ...
def f(x):
    def inner():
        return x
    return inner()

if TYPE_CHECKING:
    def g():
        return 5
else:
    def g():
        return 6
'''


def test_names_that_depend_on_siblings_are_the_same_pruned_and_full():
    bad, n = _mismatches(SIBLINGS)
    assert bad == [] and n >= 10
    table = symbol_table(SIBLINGS, "python")
    for qualname, symbol in table.symbols.items():
        assert CodeFile(SIBLINGS, "python").symbol(qualname) == symbol, qualname


def test_a_lookup_through_a_pruned_outline_hashes_as_the_table_does():
    data = (ROOT / "core" / "memvet" / "_ledger.py").read_bytes()
    table = symbol_table(data, "python")
    parsed = CodeFile(data, "python")
    small = sorted(table.symbols, key=lambda q: table.symbols[q].end_line - table.symbols[q].start_line)[:20]
    for qualname in small:
        assert parsed.symbol(qualname) == table.symbols[qualname], qualname
    assert parsed._full is None  # every lookup was answered by a pruned outline
    for qualname in sorted(table.symbols)[:60]:  # and after the switch to one walk of the file
        assert parsed.symbol(qualname) == table.symbols[qualname], qualname


def test_a_name_the_words_do_not_cover_falls_back_to_the_full_outline():
    # A combining accent is part of a Python identifier but not a regex word
    # character: the pruned outline cannot enter the class; the full one can.
    data = "class Cafe\u0301:\n    def run(self):\n        return 1\n".encode()
    parsed = CodeFile(data, "python")
    found = parsed.symbol("Cafe\u0301.run")
    assert found is not None and found == symbol_table(data, "python").symbols["Cafe\u0301.run"]
    assert parsed._full is not None
    assert parsed.symbol("Cafe\u0301.missing") is None


def test_after_a_few_pruned_outlines_one_full_outline_answers_the_rest():
    data = "".join(f"class C{i}:\n    def run(self):\n        return {i}\n\n" for i in range(6)).encode()
    table = symbol_table(data, "python")
    parsed = CodeFile(data, "python")
    for i in range(3):  # each enters another class: a pruned outline of its own
        assert parsed.symbol(f"C{i}.run") == table.symbols[f"C{i}.run"]
    assert parsed._full is None and parsed._prunes == 3
    for i in range(3, 6):
        assert parsed.symbol(f"C{i}.run") == table.symbols[f"C{i}.run"]
    assert parsed._full is not None and parsed._prunes == 3


def _light(sym):
    return (sym.qualname, sym.name, sym.kind, sym.start_line, sym.end_line, sym.has_error)


@pytest.mark.parametrize("path", FILES[::7], ids=lambda p: str(p.relative_to(ROOT)))
def test_an_outline_is_the_table_without_hashes(path):
    data = path.read_bytes()
    outline = CodeFile(data, "python").outline()
    table = symbol_table(data, "python")
    assert [_light(s) for s in outline.symbols.values()] == [_light(s) for s in table.symbols.values()]
    assert all(s.hash == "" for s in outline.symbols.values())


def test_an_outline_marks_the_same_symbols_broken_as_the_table():
    rng = random.Random(7)
    broken = 0
    for _ in range(60):
        data = broken_variant(rng)
        outline = CodeFile(data, "python").outline()
        table = symbol_table(data, "python")
        assert [_light(s) for s in outline.symbols.values()] == [_light(s) for s in table.symbols.values()]
        broken += any(s.has_error for s in table.symbols.values())
    assert broken > 20


JAVA = b"""
class Outer {
    void run() { new Thread(new Runnable() { public void run() { go(); } }).start(); }
    static class Inner { int size(java.util.List<String> xs) { return xs.size(); } }
    int size(int[] xs) { return xs.length; }
}
"""
JS = b"""
function Parser() {}
Parser.prototype.parse = function (text) { return text.split(','); };
var lib = (function () { function parse(x) { return x; } return { parse: parse }; })();
"""


@pytest.mark.parametrize(("data", "language"), [(JAVA, "java"), (JS, "javascript")])
def test_an_outline_is_the_table_without_hashes_in_java_and_javascript(data, language):
    outline = CodeFile(data, language).outline()
    table = symbol_table(data, language)
    assert len(table.symbols) >= 4
    assert [_light(s) for s in outline.symbols.values()] == [_light(s) for s in table.symbols.values()]
