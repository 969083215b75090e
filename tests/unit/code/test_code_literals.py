"""String quotes and trailing commas that change nothing leave the hash alone
(hasher v4); a different value, a one-item tuple, a bytes literal or an
array hole never do."""

from __future__ import annotations

import ast
import textwrap

import pytest
from _verdicts import assert_cosmetic
from hypothesis import given, settings
from hypothesis import strategies as st
from test_code_lazy import _assert_lazy_equals_full  # this folder is on sys.path
from test_code_python_parens import _in_function, _same_program

from memvet._code import parse_file, symbol_table
from memvet._code._languages import parse
from memvet._code._literals import js_string, python_string


def h(body: str) -> str:
    """The hash of ``def f():`` with ``body``."""
    src = "def f():\n" + textwrap.indent(textwrap.dedent(body), "    ")
    sym = symbol_table(src.encode(), "python").symbols["f"]
    assert not sym.has_error, src
    return sym.hash


def js(body: str, language: str = "javascript") -> str:
    """The hash of ``function f() {...}`` with ``body``."""
    src = "function f() {\n" + body + "\n}\n"
    sym = symbol_table(src.encode(), language).symbols["f"]
    assert not sym.has_error, src
    return sym.hash


# (one, other): Python builds one program from both.
PY_EQUAL = [
    ("x = 'a'", 'x = "a"'),
    ("x = '''a'''", 'x = "a"'),
    ('x = """a\'b"""', 'x = "a\'b"'),
    ('x = "it\'s"', "x = 'it\\'s'"),
    ("x = 'say \"hi\"'", 'x = "say \\"hi\\""'),
    ("x = u'a'", "x = 'a'"),
    ("x = U'a'", 'x = "a"'),
    ("x = B'a'", 'x = b"a"'),
    ("x = Rb'\\d'", 'x = br"\\d"'),
    ("x = r'\\d'", 'x = R"\\d"'),
    ("x = b'\\x61'", "x = b'a'"),
    ("x = '\\x61\\u00e9\\N{DIGIT ONE}\\101\\0'", "x = 'a\u00e91A\\x00'"),
    ("x = 'caf\u00e9'", 'x = "caf\\xe9"'),
    ("x = f'{a}b'", 'x = f"{a}b"'),
    ("x = F'{a!r:>10}'", 'x = f"{a!r:>10}"'),
    ("x = rf'{a}'", 'x = Fr"{a}"'),
    ("x = 'a' 'b'", 'x = "a" "b"'),
    ("assert x, 'm'", 'assert x, "m"'),
    # Numbers: case never matters (black upper-cases hex digits, lower-cases the rest).
    ("x = 0XFF", "x = 0xff"),
    ("x = 0xff", "x = 0xFF"),
    ("x = 0O17 + 0B1", "x = 0o17 + 0b1"),
    ("x = 1E5 + 1_000E-3", "x = 1e5 + 1_000e-3"),
    ("x = 10J", "x = 10j"),
    ("d['k'] = 1", 'd["k"] = 1'),
    # Trailing commas.
    ("f(a,)", "f(a)"),
    ("f(\n    a,\n    b,\n)", "f(a, b)"),
    ("f(*a, **k,)", "f(*a, **k)"),
    ("f(a,  # why\n)", "f(a)"),
    ("x = [1, 2,]", "x = [1, 2]"),
    ("x = [1,]", "x = [1]"),
    ("x = {1, 2,}", "x = {1, 2}"),
    ("x = {1,}", "x = {1}"),
    ("x = {1: 2,}", "x = {1: 2}"),
    ("x = {**a,}", "x = {**a}"),
    ("x = (1, 2,)", "x = (1, 2)"),
    ("x = 1, 2,", "x = 1, 2"),
    ("a, b, = x", "a, b = x"),
    ("(a, b,) = x", "a, b = x"),
    ("[a,] = x", "[a] = x"),
    ("return a, b,", "return a, b"),
    ("for a, b, in x:\n    pass", "for a, b in x:\n    pass"),
    ("y = x[a, b,]", "y = x[a, b]"),
    ("y = x[1:2, 3,]", "y = x[1:2, 3]"),
    ("from m import (a, b,)", "from m import (a, b)"),
    ("from m import (a,)", "from m import (a)"),
    ("try:\n    pass\nexcept (A, B,):\n    pass", "try:\n    pass\nexcept (A, B):\n    pass"),
    ("with (a, b,):\n    pass", "with (a, b):\n    pass"),
    ("match x:\n    case [a, b,]:\n        pass", "match x:\n    case [a, b]:\n        pass"),
    ("match x:\n    case [a,]:\n        pass", "match x:\n    case [a]:\n        pass"),
    ("match x:\n    case (a, b,):\n        pass", "match x:\n    case (a, b):\n        pass"),
    ("match x:\n    case P(a,):\n        pass", "match x:\n    case P(a):\n        pass"),
    ("match x:\n    case {1: a,}:\n        pass", "match x:\n    case {1: a}:\n        pass"),
]

# Definitions (module level): parameters, bases, type parameters.
PY_EQUAL_DEFS = [
    ("def g(a, b,):\n    pass", "def g(a, b):\n    pass"),
    ("def g(a, *, b,):\n    pass", "def g(a, *, b):\n    pass"),
    ("def g(**k,):\n    pass", "def g(**k):\n    pass"),
    ("class C(B,):\n    pass", "class C(B):\n    pass"),
    ("@d(a,)\ndef g():\n    pass", "@d(a)\ndef g():\n    pass"),
]

# (one, other): two programs, so two hashes.
PY_APART = [
    ("x = 'a'", "x = 'b'"),
    ("x = b'a'", "x = 'a'"),
    ("x = 0xff", "x = 0xfe"),
    ("x = 1e5", "x = 1e6"),
    ("x = 1j", "x = 1"),
    ("x = f'{a}'", "x = '{a}'"),
    ("x = f'{a}'", "x = f'{b}'"),
    ("x = 'a '", "x = 'a'"),
    ("x = '\\t'", "x = '\\\\t'"),
    ("x = (a,)", "x = (a)"),
    ("x = a,", "x = a"),
    ("return a,", "return a"),
    ("a, = x", "a = x"),
    ("(a,) = x", "(a) = x"),
    ("y = x[a,]", "y = x[a]"),
    ("y = f((a,))", "y = f(a)"),
    ("match x:\n    case (a,):\n        pass", "match x:\n    case (a):\n        pass"),
]

# One value, kept apart on purpose (no formatter turns one into the other,
# or the value is not decoded: a false alarm is recoverable, a missed change
# is not).
PY_KEPT = [
    ("x = r'\\d'", "x = '\\\\d'"),
    ("x = 'a' 'b'", "x = 'ab'"),              # folded by the compiler, two literals here
    ("x = f'{a}\\n'", 'x = f"{a}\\n"'),
    ("x = f'{d[\"k\"]}'", 'x = f"{d[\'k\']}"'),
    ("x = lambda a,: a", "x = lambda a: a"),
]


@pytest.mark.parametrize(("one", "other"), PY_EQUAL)
def test_python_quotes_and_trailing_commas_leave_the_hash_alone(one, other):
    assert h(one) == h(other)


@pytest.mark.parametrize(("one", "other"), PY_EQUAL_DEFS)
def test_python_trailing_commas_in_definitions_leave_the_hash_alone(one, other):
    sym = {s: symbol_table(s.encode(), "python").symbols for s in (one, other)}
    name = "C" if "class" in one else "g"
    assert sym[one][name].hash == sym[other][name].hash


def test_every_equal_pair_is_one_program_to_python():
    for a, b in PY_EQUAL:
        assert _same_program(_in_function(a), _in_function(b)), (a, b)
    for a, b in PY_EQUAL_DEFS:
        assert _same_program(a, b), (a, b)


@pytest.mark.parametrize(("one", "other"), PY_APART + PY_KEPT)
def test_python_literals_and_commas_that_differ_change_the_hash(one, other):
    assert h(one) != h(other)


def test_every_apart_pair_is_two_programs_and_every_kept_pair_one():
    for a, b in PY_APART:
        assert not _same_program(_in_function(a), _in_function(b)), (a, b)
    for a, b in PY_KEPT:
        assert _same_program(_in_function(a), _in_function(b)), (a, b)


def test_docstrings_are_still_left_out_whatever_their_quotes():
    assert h("'''Doc.'''\nreturn 1") == h('"""Other doc."""\nreturn 1') == h("return 1")


@pytest.mark.parametrize("text", [
    b"'a", b"'''a''", b"f'{a}", b"abcd'x'", "b'\u00e9'".encode(), rb"'\q'", rb"b'\u0041'",
    rb"'\N{NO SUCH NAME}'", rb"'\477'", b"'a\r\nb'", b"x", b"'\xff'", b"'\x00" + rb"\n'",
    rb"'\n' if a else 'b'", rb"'\n', 'b'",
])
def test_a_literal_that_cannot_be_decoded_safely_keeps_its_text(text):
    # Broken, unknown or invalid escapes, bytes that are not UTF-8, a NUL, or
    # text that is not one literal: the text, never a guessed value.
    assert python_string(text) == text


@pytest.mark.parametrize("text", [
    r"'\x61\101'", r"b'\x00\n'", r"'\u00e9'", r"'it\'s'", '"""a\\\nb"""', r"'\7'", r"'\47'",
    r"'\N{DIGIT ONE}'", r"Rb'\d'", "'''x\n'''", r"b'\''", "'caf\u00e9'",
])
def test_a_canonical_literal_has_the_value_python_gives_the_original(text):
    canonical = python_string(text.encode()).decode()
    if canonical.startswith("r"):
        canonical = canonical[1:]  # the raw marker: the rest is repr() of the value
    assert ast.literal_eval(canonical) == ast.literal_eval(text), (text, canonical)


# ------------------------------------------------------------------ JavaScript

JS_EQUAL = [
    ("x = 'a';", 'x = "a";'),
    ("x = 'it\"s';", "x = 'it\"s';"),
    ('x = "it\'s";', '''x = "it's";'''),
    ("import a from 'm';", 'import a from "m";'),
    ("f(a,);", "f(a);"),
    ("f(\n  a,\n  b,\n);", "f(a, b);"),
    ("g = function (a, b,) {};", "g = function (a, b) {};"),
    ("g = (a,) => a;", "g = (a) => a;"),
    ("x = [a,];", "x = [a];"),
    ("x = [a, ...b,];", "x = [a, ...b];"),
    ("x = {a: 1,};", "x = {a: 1};"),
    ("x = {a, b,};", "x = {a, b};"),
    ("const {a, b,} = x;", "const {a, b} = x;"),
    ("const [a, b,] = x;", "const [a, b] = x;"),
    ("f(a, // why\n);", "f(a);"),
    ("x = 0XFF + 1E5 + 0B1;", "x = 0xff + 1e5 + 0b1;"),
]
JS_MODULE_EQUAL = [
    ("import {a, b,} from 'm';\nfunction f() {}", "import {a, b} from 'm';\nfunction f() {}"),
    ("export {a, b,};\nfunction f() {}", "export {a, b};\nfunction f() {}"),
]
JS_APART = [
    ("x = 'a';", "x = 'b';"),
    ("x = 0xff;", "x = 0xfe;"),
    ("x = 10n;", "x = 10;"),
    ("x = 'a';", "x = `a`;"),
    ("x = [a,,];", "x = [a,];"),
    ("x = [,];", "x = [];"),
    ("x = [a, , ];", "x = [a];"),
    ("x = '\\x61';", "x = 'a';"),             # one value, but only quote escapes are read
    ("x = 'a\\\\';", "x = 'a\\'';"),       # 'a\\' is a and a backslash, 'a\'' a and a quote
]


@pytest.mark.parametrize("language", ["javascript", "typescript", "tsx"])
@pytest.mark.parametrize(("one", "other"), JS_EQUAL)
def test_js_quotes_and_trailing_commas_leave_the_hash_alone(one, other, language):
    assert js(one, language) == js(other, language)


@pytest.mark.parametrize(("one", "other"), JS_MODULE_EQUAL)
def test_js_import_and_export_lists_ignore_a_trailing_comma(one, other):
    # The statement is not part of f's span: compare the file's whole stream
    # through a symbol that spans the module (the file-level tokens).
    from memvet._code._languages import parse
    from memvet._code._symbols import LEXICONS
    from memvet._code._tokens import TokenStream

    def digest(src: str) -> str:
        data = src.encode()
        tree = parse(data, "javascript")
        assert not tree.root_node.has_error
        return TokenStream(tree, data, LEXICONS["javascript"]).digest(0, len(data), 0)

    assert digest(one) == digest(other)


@pytest.mark.parametrize(("one", "other"), JS_APART)
def test_js_literals_and_commas_that_differ_change_the_hash(one, other):
    src = {s: f"function f() {{\n{s}\n}}\n" for s in (one, other)}
    hashes = {s: symbol_table(src[s].encode(), "javascript").symbols["f"].hash for s in src}
    assert hashes[one] != hashes[other]


def test_ts_type_parameter_trailing_commas_change_nothing_where_both_parse():
    # Prettier 3 writes `<T,>(a: T) => a` in .ts files too (hasher v5: one
    # hash). In .tsx, tsc reads the form without the comma as a JSX element
    # (tree-sitter's tsx grammar as the same arrow function): only the comma
    # form compiles there, so no valid program is confused with it.
    one = "const g = <T,>(a: T) => a;\nfunction f() {}\n"
    other = "const g = <T>(a: T) => a;\nfunction f() {}\n"
    for language in ("typescript", "tsx"):
        assert not parse(one.encode(), language).root_node.has_error
        assert symbol_table(one.encode(), language).symbols["g"].hash \
            == symbol_table(other.encode(), language).symbols["g"].hash
    many = ["function h<A, B,>(x: Map<A, B,>): B {}", "function h<A, B>(x: Map<A, B>): B {}"]
    assert len({symbol_table(s.encode(), "typescript").symbols["h"].hash for s in many}) == 1


@pytest.mark.parametrize("text", ["`a`", "'a", "a", "'a\\'", "\"\\\""])
def test_a_js_text_that_is_not_one_string_literal_keeps_its_text(text):
    # A template, an unterminated literal, a name, a literal whose closing
    # quote is escaped (error recovery): never rewritten.
    assert js_string(text.encode()) == text.encode()


# ------------------------------------------------------------------ lazy walk

FORMATTED = '''\
from m import (a,
    b,)


class Api:
    def get(self, key, default=None,):
        d = {'k': key, 'v': [1, 2,],}
        a, b, = d['k'], d["v"]
        return f'{a}', b'x', x[a, b,], (a,),
'''


def test_a_symbol_looked_up_alone_hashes_as_in_the_table():
    assert _assert_lazy_equals_full(FORMATTED.encode(), "python") >= 2
    table = symbol_table(FORMATTED.encode(), "python")
    assert parse_file(FORMATTED.encode(), "python").symbol("Api.get") == table.symbols["Api.get"]


# ------------------------------------------------------------------ properties

VALUES = st.text(alphabet=st.sampled_from(list("ab '\"\\\n\t\u00e9{}")), max_size=12)


@settings(max_examples=150, deadline=None)
@given(value=VALUES, other=VALUES)
def test_property_any_two_spellings_of_a_value_hash_alike_and_only_those(value, other):
    # repr() and a hand-made double-quoted spelling of one value hash alike;
    # another value never does.
    double = '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    assert ast.literal_eval(double) == value
    assert h(f"x = {value!r}") == h(f"x = {double}")
    assert (h(f"x = {value!r}") == h(f"x = {other!r}")) == (value == other)


@settings(max_examples=60, deadline=None)
@given(items=st.lists(st.sampled_from(["a", "b.c", "f(x)", "'s'", "1"]), min_size=1, max_size=4),
       shape=st.sampled_from(["y = f({})", "y = [{}]", "y = {{{}}}", "y = ({})", "y = x[{}]", "x = {}"]))
def test_property_a_trailing_comma_is_cosmetic_exactly_when_python_says_so(items, shape):
    plain = shape.format(", ".join(items))
    trailing = shape.format(", ".join(items) + ",")
    same = _same_program(_in_function(plain), _in_function(trailing))
    assert (h(plain) == h(trailing)) == same, (plain, trailing)


# ------------------------------------------------------------------ a real repository


def test_a_black_style_requote_reads_verified(repo, ledger):
    # What black did to requests' test suite: 'x' -> "x" and a magic
    # trailing comma when a call is exploded over several lines.
    before = textwrap.dedent('''\
        class Session:
            def request(self, method, url, params=None):
                headers = {'User-Agent': 'memvet', 'Accept': '*/*'}
                return self.send(method, url, params=params, headers=headers)
        ''')
    after = textwrap.dedent('''\
        class Session:
            def request(
                self,
                method,
                url,
                params=None,
            ):
                headers = {"User-Agent": "memvet", "Accept": "*/*",}
                return self.send(
                    method,
                    url,
                    params=params,
                    headers=headers,
                )
        ''')
    assert _same_program(before, after) and before != after
    repo.write("api.py", before, dedent=False)
    repo.commit("api")
    rec = ledger.record("Session.request sends a memvet User-Agent header", ["api.py::Session.request"])
    assert_cosmetic(repo, ledger, rec.id, "api.py", after, "black", ('"memvet"', '"memvet2"'))
