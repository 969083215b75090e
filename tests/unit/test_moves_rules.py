"""The move search's two rules as plain functions: which files are copies
(never a move target) and which symbol kinds one symbol can keep."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memvet import _moves
from memvet._code import symbol_table
from memvet._moves import compatible_kinds, is_build, is_copy


@pytest.mark.parametrize("path", [
    "test/data/jquery-3.7.1.js", "tests/data/store.py", "test/fixtures/users/index.js", "spec/fixture/a.rb",
    "src/test/resources/org/example/Sample.java", "pkg/testdata/input.go", "src/__fixtures__/a.ts",
    "src/__snapshots__/a.js", "vendor/github.com/x/y.go", "third_party/zlib/zlib.c", "lib/third-party/a.js",
    "bower_components/q/q.js", "site/libs/jquery-1.12.4.js", "libs/underscore-1.8.3.min.js",
    "js/jquery-3.7.1.slim.js", "dist/axios.cjs", "build/app.js", "node_modules/a/index.js", "a.min.js",
])
def test_copies_by_their_path(path):
    assert is_copy(path)


@pytest.mark.parametrize("path", [
    "src/core.js", "lib/sqlalchemy/testing/fixtures/base.py", "test/orm/_fixtures.py", "test/unit/data.js",
    "src/test/java/org/example/data/Row.java", "lib/router/route.js", "migrations/0001_init.py",
    "src/data/index.js", "tests/test_data.py", "src/utf-8.js",
])
def test_sources_by_their_path(path):
    assert not is_copy(path)


def test_a_build_is_told_by_its_versioned_banner():
    banner = b"/*! jQuery v3.7.1 | (c) OpenJS Foundation | jquery.org/license */\n(function(){})()"
    assert is_build(banner, "javascript")
    assert is_build(b"/*!\n * Vue.js v2.6.14\n * (c) 2014-2021 Evan You\n */\n", "javascript")
    assert not is_build(b"/*!\n * express\n * Copyright(c) 2009-2013 TJ Holowaychuk\n */\n", "javascript")
    assert not is_build(b"// Backbone.js 1.6.0\n", "javascript")
    assert not is_build(b"var a = 1; /*! v1.2.3 */\n", "javascript")  # not at the top: not a banner
    assert not is_build(b"/*! v1.2.3 */\n", "python")


@pytest.mark.parametrize(("recorded", "found", "language", "same"), [
    ("function", "function", "python", True),
    ("function", "method", "python", True),
    ("method", "constructor", "java", True),
    ("function", "class", "javascript", True),
    ("function", "class", "python", False),
    ("function", "variable", "javascript", False),
    ("function", "const", "python", False),
    ("class", "interface", "typescript", True),
    ("const", "variable", "javascript", True),
    ("field", "method", "java", False),
    ("key", "table", "toml", True),
    ("section", "key", "markdown", False),
    ("", "variable", "javascript", True),  # an old record without a kind
])
def test_compatible_kinds(recorded, found, language, same):
    assert compatible_kinds(recorded, found, language) is same


# Reference for defines: the expression it replaced, run at every position.
_DEFINED = re.compile(rb"(?<![A-Za-z0-9_])(?:def|class)\s+([A-Za-z_][A-Za-z0-9_]*)")
_NAMES = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_ROOT = Path(__file__).resolve().parents[2]


def test_defines_answers_what_the_expression_it_replaced_finds_on_real_files():
    tried = 0
    for path in sorted((_ROOT / "core").rglob("*.py")):
        data = path.read_bytes()
        defined = set(_DEFINED.findall(data))
        for name in set(_NAMES.findall(data)):
            assert (name in defined) == _moves.defines(data, name), (path, name)
            tried += 1
    assert tried > 5000


@pytest.mark.parametrize(("data", "name", "expected"), [
    (b"def run(self):", b"run", True),
    (b"class\tRunner:\n", b"Runner", True),
    (b"async def run():", b"run", True),
    (b"@dataclasses.dataclass\nclass CommonMixin:", b"CommonMixin", True),
    (b"@dataclasses.dataclass\nclass CommonMixin:", b"dataclass", False),
    (b"undef run():", b"run", False),
    (b"def running():", b"run", False),
    (b"defrun = 1", b"run", False),
    (b"run()", b"run", False),
    (b"", b"run", False),
])
def test_defines_reads_the_keyword_before_the_name(data, name, expected):
    assert _moves.defines(data, name) is expected


def test_a_top_level_definition_is_never_taken_for_a_nested_one_on_real_files():
    # Every top-level function and class of this repository's code is found
    # with top=True; names defined only inside other definitions mostly not.
    tops = nested = judged_nested = 0
    for path in sorted((_ROOT / "core").rglob("*.py")):
        data = path.read_bytes()
        symbols = symbol_table(data, "python").symbols.values()
        top = {s.qualname for s in symbols if "." not in s.qualname and s.kind in ("function", "class")}
        for name in top:
            assert _moves.defines(data, name.encode(), top=True), (path, name)
            tops += 1
        inner = {s.qualname.rsplit(".", 1)[-1] for s in symbols if "." in s.qualname} - top
        for name in inner:
            nested += 1
            judged_nested += not _moves.defines(data, name.encode(), top=True)
    assert tops > 500 and judged_nested > 0.9 * nested


@pytest.mark.parametrize(("data", "expected"), [
    (b"def run():\n    pass\n", True),
    (b"@decorated\nasync def run():\n    pass\n", True),
    (b"if TYPE_CHECKING:\n    def run(): ...\nelse:\n    # a comment\n\n    def run(): pass\n", True),
    (b"try:\n    import x\nexcept ImportError:\n    class run:\n        pass\n", True),
    (b"class A:\n    def run(self):\n        pass\n", False),
    (b"def outer():\n    if x:\n        def run():\n            pass\n", False),
    (b"class A:\n    async def go(self):\n        class run:\n            pass\n", False),
    # Lines it cannot read (a string at the margin) count as top-level: a parse decides.
    (b'class A:\n    doc = """\ntext\n"""\n    def run(self):\n        pass\n', True),
    (b"x = 1; def_ = 2\nclass A:\n    def run(self): pass\n", False),
])
def test_a_definition_at_the_top_is_told_from_a_nested_one(data, expected):
    assert _moves.defines(data, b"run", top=True) is expected
