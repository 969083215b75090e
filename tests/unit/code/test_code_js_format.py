"""Hasher v5: what prettier and ``standard --fix`` rewrite in JavaScript and
TypeScript leaves the hash alone, and nothing else does.

Every pair is held against the syntax tree, not only against the hash: an
"equal" pair must be one program (:func:`ast` gives the same ESTree-like
tree: named nodes, operators and leaf values, no parentheses, no ``;``,
strings and numbers by value, a quoted name key as the name), an "apart"
pair two programs, and a "kept" pair one program that the hash still keeps
apart on purpose (a false alarm is recoverable, a missed change is not).
The real-code check of the same rules is ``benchmarks/format_sweep.py``
(prettier and standard run over jQuery, Express, Backbone, Mocha, request
and Redux, acorn's tree as the truth).
"""

from __future__ import annotations

import ast as pyast
import textwrap

import pytest
from test_code_lazy import _assert_lazy_equals_full  # this folder is on sys.path

from memvet._code import parse_file, symbol_table
from memvet._code._languages import parse
from memvet._code._literals import js_number, js_string

LANGUAGES = ("javascript", "typescript", "tsx")


def js(body: str, language: str = "javascript") -> str:
    """The hash of ``function f() {...}`` with ``body``."""
    sym = symbol_table(_wrap(body).encode(), language).symbols["f"]
    assert not sym.has_error, body
    return sym.hash


def _wrap(body: str) -> str:
    return "function f() {\n" + textwrap.indent(body, "  ") + "\n}\n"


def _value(node, data: bytes) -> object:
    """A leaf's value: strings decoded (JS and Python agree on the escapes
    used here), decimal numbers as exact fractions."""
    text = data[node.start_byte : node.end_byte].decode()
    if node.type == "string":
        return ("str", pyast.literal_eval(text))
    if node.type == "regex":
        pattern, flags = text.rsplit("/", 1)
        return ("regex", pattern, frozenset(flags))
    if node.type == "number" and not text.startswith(("0x", "0b", "0o")) and "_" not in text \
            and not text.endswith("n") and not (len(text) > 1 and text[0] == "0" and text[1].isdigit()):
        from fractions import Fraction

        return ("num", Fraction(text.replace("e+", "e")) if "e" not in text.lower()
                else Fraction(text.lower().split("e")[0] or "0") * Fraction(10) ** int(text.lower().split("e")[1]))
    return text


def ast(source: str, language: str = "javascript") -> object:
    """An ESTree-like tree of ``source``, built from tree-sitter's: what a
    program means, without its layout, parentheses and punctuation.

    Parenthesized expressions are replaced by what they hold (ESTree has no
    parentheses: grouping is the tree's shape), ``(`` ``)`` ``;`` and
    comments are left out, an empty statement in a block is nothing, an
    arrow's lone parameter is the same with or without its parentheses,
    ``new A()`` is ``new A``, and a string key that is a name is that name.
    """
    data = source.encode()
    tree = parse(data, language)
    assert not tree.root_node.has_error, source

    def build(node, field=None):
        kind = node.type
        if kind == "parenthesized_expression":
            (inner,) = [c for c in node.named_children if c.type != "comment"]
            if "?." in data[inner.start_byte : inner.end_byte].decode() and node.parent.type in (
                    "member_expression", "call_expression", "subscript_expression"):
                return ("chain", build(inner, field))  # ESTree's ChainExpression ends there
            return build(inner, field)
        if kind == "expression_statement" and node.named_child_count == 1 \
                and node.named_children[0].type == "string" and node.prev_named_sibling in (None,) \
                and node.parent.type in ("program", "statement_block"):
            return ("directive", _value(node.named_children[0], data))
        if kind == "string" and field == "key" and node.parent.type in ("pair", "pair_pattern"):
            value = pyast.literal_eval(data[node.start_byte : node.end_byte].decode())
            if value.isidentifier() and value.isascii():
                return ("name", value)
        if kind == "property_identifier" and field == "key" and node.parent.type in ("pair", "pair_pattern"):
            return ("name", data[node.start_byte : node.end_byte].decode())
        if node.is_named and kind in ("string", "number", "regex"):
            return (kind, _value(node, data))
        if node.child_count == 0:
            return data[node.start_byte : node.end_byte].decode()
        children = []
        cursor = node.walk()
        cursor.goto_first_child()
        while True:
            child, name = cursor.node, cursor.field_name
            skip = child.type in ("comment", "(", ")", ";") or (
                child.type == "empty_statement" and kind in ("program", "statement_block"))
            if kind == "new_expression" and name == "arguments" and not child.named_children:
                skip = True
            if name == "parameters" and kind == "arrow_function":
                params = [c for c in child.named_children if c.type != "comment"]
                if len(params) == 1 and params[0].type == "identifier":
                    child, name = params[0], "parameter"
                elif len(params) == 1 and params[0].type == "required_parameter" \
                        and params[0].child_count == 1:
                    child, name = params[0].children[0], "parameter"
            if kind == "template_string" or kind == "template_substitution":
                skip = skip or child.type in ("${", "}", "`")
            if not skip and not (child.type == "," and kind in ("object", "formal_parameters", "arguments",
                                                                   "object_pattern", "object_type",
                                                                   "interface_body")):
                children.append((name, build(child, name)))
            if not cursor.goto_next_sibling():
                break
        return (kind, tuple(children))

    return build(tree.root_node)


# (one, other): one program, one hash. Each in a function body; every
# language where it parses.
EQUAL = [
    # Arrow parameters: prettier 2+ adds the parentheses, older prettier and
    # standard leave or remove them.
    ("g = x => x + 1", "g = (x) => x + 1"),
    ("g = async x => x", "g = async (x) => x"),
    ("g = (x,) => x", "g = x => x"),
    ("g = (/* why */ x) => x", "g = x => x"),
    ("a.map(k => k.toUpperCase())", "a.map((k) => k.toUpperCase())"),
    # Statement ends: a ';' that automatic semicolon insertion supplies.
    ("const b = 1", "const b = 1;"),
    ("return b", "return b;"),
    ("let a = 1\nlet b = 2", "let a = 1; let b = 2;"),
    ("throw e", "throw e;"),
    ("do x(); while (a)", "do x(); while (a);"),
    ("for (;;) { break }", "for (;;) { break; }"),
    ("debugger", "debugger;"),
    ("a();;", "a();"),
    ("function h() {};", "function h() {}"),
    ("x = 1\n;[a, b].forEach(g)", "x = 1;\n[a, b].forEach(g);"),
    (";(function () {})()", "(function () {})();"),
    ("class A { x = 1; y = 2 }", "class A {\n  x = 1\n  y = 2\n}"),
    ("class A { m() {}; }", "class A { m() {} }"),
    ("class A { static x; m() {} }", "class A { static x\n m() {} }"),
    # Strings: a backslash before a quote is the quote.
    ("s = 'it\\'s'", 's = "it\'s"'),
    ("s = 'it\\'s'", "s = \"it\\'s\""),
    ("s = 'say \"hi\"'", 's = "say \\"hi\\""'),
    ("s = '\\n\\t'", 's = "\\n\\t"'),
    ("s = 'a\\\\b'", 's = "a\\\\b"'),
    # Numbers by exact value (prettier: 0.50 -> 0.5, .5 -> 0.5, 1e+5 -> 1e5).
    ("n = 0.50 + .5", "n = 0.5 + 0.5"),
    ("n = 1e+5 + 1E-05", "n = 1e5 + 1e-5"),
    ("n = 1.0 + 5.e3", "n = 1 + 5e3"),
    # Quoted keys that are names (prettier's quoteProps "as-needed").
    ("o = {'params': 1, \"query\": 2}", "o = {params: 1, query: 2}"),
    ("const {'a': b} = c", "const {a: b} = c"),
    # Template literals: the layout inside ${...} is free.
    ("t = `a ${ b+c } d`", "t = `a ${b + c} d`"),
    # Parentheses prettier adds around assignments used as values...
    ("var a = (b = c)", "var a = b = c"),
    ("f((x = []))", "f(x = [])"),
    ("if ((r = g())) h()", "if (r = g()) h()"),
    ("switch ((n = m)) {}", "switch (n = m) {}"),
    ("((fn = r), (r = '/'))", "fn = r, r = '/'"),
    ("g = () => (a = b)", "g = () => a = b"),
    # ... around mixed operators, and multi-line returns ...
    ("w = (a * 0.75) | 0", "w = a * 0.75 | 0"),
    ("p = ((a / b) * 100) | 0", "p = a / b * 100 | 0"),
    ("return (\n  a &&\n  b\n)", "return a && b"),
    ("t = a || b ? c : d", "t = (a || b) ? c : d"),
    ("x = a ** (b ** c)", "x = a ** b ** c"),
    ("x = (a + b) + c", "x = a + b + c"),
    # ... and the ones it removes.
    ("m = (/re/i).exec(s)", "m = /re/i.exec(s)"),
    ("r = /^(.*?):$/mg", "r = /^(.*?):$/gm"),
    ("u = !p && (s || (e !== undefined))", "u = !p && (s || e !== undefined)"),
    ("x = (a.b)()", "x = a.b()"),
    ("x = (a()).b", "x = a().b"),
    ("d = (new Date()).getTime()", "d = new Date().getTime()"),
    ("x = (new A()).b", "x = new A().b"),
    ("x = (typeof a)", "x = typeof a"),
    ("x = err === (function () { return 1 }.call(e))", "x = err === function () { return 1 }.call(e)"),
    ("s = 'a' + ({}).toString.call(x)", "s = 'a' + {}.toString.call(x)"),
    ("return (a, b)", "return a, b"),
    ("x = new A", "x = new A()"),
]

# Two programs: two hashes.
APART = [
    ("a = b\n(c)", "a = b;\n(c)"),               # one call, or two statements
    ("return\nx", "return x"),                    # returns undefined, or x
    ("a\n++b", "a++\nb"),
    ("g = (x = 1) => x", "g = x => x"),
    ("g = (...x) => x", "g = x => x"),
    ("g = ({x}) => x", "g = x => x"),
    ("g = ([x]) => x", "g = x => x"),
    ("g = (x, y) => x", "g = x => x"),
    ("s = '\\x41'", "s = 'B'"),
    ("s = 'a\\\\'", "s = 'a\\''"),               # a backslash, or a quote
    ("s = 'a'", "s = `a`"),
    ("r = /a/g", "r = /a/"),
    ("r = /a/g", "r = /b/g"),
    ("t = `a ${b} c`", "t = `a ${b}  c`"),
    ("n = 0.5", "n = 0.50001"),
    ("n = 017", "n = 17"),
    ("n = 10n", "n = 10"),
    ("o = {'a-b': 1}", "o = {a: 1}"),
    ("o = {[a]: 1}", "o = {a: 1}"),
    ("x = (a, b)", "x = a, b"),
    ("f((a, b))", "f(a, b)"),
    ("x = a - (b - c)", "x = a - b - c"),
    ("x = (a + b) * c", "x = a + b * c"),
    ("x = a + (b + c)", "x = a + b + c"),
    ("x = a ?? (b || c)", "x = (a ?? b) || c"),
    ("x = (a?.b).c", "x = a?.b.c"),
    ("x = (-a) ** 2", "x = -(a ** 2)"),
    ("g = () => ({})", "g = () => {}"),
    ("x = (new A).b", "x = new A.b"),
    ("x = new A().b", "x = new A.b"),
    ("x = new A(b)", "x = new A"),
    ("'use strict'\nx()", "('use strict')\nx()"),   # a directive, or a string
    ("var a = 1", "let a = 1"),                      # standard --fix's no-var
    ("if (a) b()", "if (a) b()\nelse c()"),
]

# One program, kept apart on purpose: no formatter rewrites one into the
# other, or the rule would cost more than it saves.
KEPT = [
    ("s = '\\x41'", "s = 'A'"),                  # escapes other than of a quote are kept as written
    ("n = 1_000", "n = 1000"),
    ("n = 0.1", "n = 0.10000000000000001"),      # one double, two decimals
    ("o = {'1': x}", "o = {1: x}"),
    ("y = a['b']", "y = a.b"),                   # standard's dot-notation
    ("if (a);", "if (a) {}"),
    ("x = ((a = b))", "x = a = b"),
    ("f(((a = b)))", "f(a = b)"),
]

# TypeScript only.
TS_EQUAL = [
    ("g = (x) => x", "g = x => x"),
    ("type A = string", "type A = string;"),
    ("interface I { a: string; b(): void }", "interface I {\n  a: string\n  b(): void\n}"),
    ("interface I { a: string, b: number, }", "interface I { a: string; b: number; }"),
    ("let o: { a: number, b: string } = c", "let o: { a: number; b: string } = c;"),
    ("class C { x: number = 1; abstract m(): void; [k: string]: any }",
     "class C {\n  x: number = 1\n  abstract m(): void\n  [k: string]: any\n}"),
]
TS_APART = [
    ("g = (x: T) => x", "g = x => x"),
    ("g = (x?) => x", "g = x => x"),
    ("g = <T,>(x) => x", "g = x => x"),
    ("g = (x): T => x", "g = x => x"),
    ("x = (a as B).c", "x = a.c"),
    ("interface I { a: string }", "interface I { a: number }"),
]


def _languages(one: str, other: str) -> list[str]:
    out = []
    for language in LANGUAGES:
        trees = [parse(_wrap(s).encode(), language) for s in (one, other)]
        if not any(t.root_node.has_error for t in trees):
            out.append(language)
    return out


@pytest.mark.parametrize(("one", "other"), EQUAL)
def test_a_formatter_rewrite_is_one_tree_and_one_hash(one, other):
    languages = _languages(one, other)
    assert "javascript" in languages
    for language in languages:
        assert ast(_wrap(one), language) == ast(_wrap(other), language), (one, other, language)
        assert js(one, language) == js(other, language), (one, other, language)


@pytest.mark.parametrize(("one", "other"), APART)
def test_two_programs_are_two_trees_and_two_hashes(one, other):
    languages = _languages(one, other)
    assert "javascript" in languages
    for language in languages:
        assert ast(_wrap(one), language) != ast(_wrap(other), language), (one, other, language)
        assert js(one, language) != js(other, language), (one, other, language)


@pytest.mark.parametrize(("one", "other"), KEPT)
def test_one_program_kept_apart_on_purpose(one, other):
    # The tree check says one program where it can (escapes and number
    # spellings are not decoded by ast(): those are asserted by value).
    if one.startswith("n = 0.1"):
        assert float(one.split("= ")[1]) == float(other.split("= ")[1])
    assert js(one) != js(other)


@pytest.mark.parametrize(("one", "other"), TS_EQUAL)
def test_a_typescript_formatter_rewrite_is_one_hash(one, other):
    for language in ("typescript", "tsx"):
        if language == "tsx" and "<" in one:
            continue
        src = {s: f"{s}\nfunction f() {{}}\n" for s in (one, other)}
        tables = {s: symbol_table(src[s].encode(), language) for s in src}
        assert not tables[one].has_errors and not tables[other].has_errors
        assert ast(src[one], language) == ast(src[other], language)
        names = [q for q in tables[one].symbols if q != "f"]
        assert names, one
        for name in names:
            assert tables[one].symbols[name].hash == tables[other].symbols[name].hash, (one, name)


@pytest.mark.parametrize(("one", "other"), TS_APART)
def test_typescript_programs_that_differ_hash_apart(one, other):
    src = {s: f"{s}\nfunction f() {{}}\n" for s in (one, other)}
    for s in src:
        assert not parse(src[s].encode(), "typescript").root_node.has_error, s
    assert ast(src[one], "typescript") != ast(src[other], "typescript")
    if one.startswith(("interface", "class")):
        a, b = (symbol_table(src[s].encode(), "typescript").symbols["I"].hash for s in (one, other))
    else:
        a, b = (js(s, "typescript") for s in (one, other))
    assert a != b


# (formatted, and a real change next to the rewrite): the change shows.
CHANGED = [
    ("g = x => x + 1", "g = (x) => x + 2"),
    ("g = x => x", "g = async (x) => x"),
    ("const b = 1", "const b = 2;"),
    ("return b", "return b;\nb()"),
    ("class A { x = 1; y = 2 }", "class A {\n  x = 1\n  y = 3\n}"),
    ("s = 'it\\'s'", 's = "it is"'),
    ("s = 'it\\'s'", 's = "it\\"s"'),
    ("o = {'params': 1}", "o = {params: 2}"),
    ("var a = (b = c)", "var a = b = d"),
    ("f((x = []))", "f(x = [], y)"),
    ("w = (a * 0.75) | 0", "w = a * 0.75 | 1"),
    ("w = (a * 0.75) | 0", "w = a * (0.75 | 0)"),
    ("n = 0.50", "n = 0.51"),
    ("t = `a ${ b+c } d`", "t = `a ${b - c} d`"),
    ("x = new A", "x = new A(1)"),
    ("return (\n  a &&\n  b\n)", "return a || b"),
]


@pytest.mark.parametrize(("before", "after"), CHANGED)
def test_a_real_change_next_to_a_rewrite_still_changes_the_hash(before, after):
    assert ast(_wrap(before)) != ast(_wrap(after))
    assert js(before) != js(after)


def test_jsx_attribute_strings_keep_their_backslashes():
    # In JSX a backslash is no escape: '<a t="it\'s"/>' holds a backslash.
    one = "x = <a t='it\\\"s' />"
    other = "x = <a t='it\"s' />"
    for language in ("javascript", "tsx"):
        assert js(one, language) != js(other, language)
    # Quotes alone still change nothing there.
    assert js("x = <a t='b' />") == js('x = <a t="b" />')


@pytest.mark.parametrize(("text", "canonical"), [
    ("'it\\'s'", '"it\'s"'), ('"it\\\'s"', '"it\'s"'), ("'a\"b'", '"a\\"b"'), ('"a\\"b"', '"a\\"b"'),
    ("'\\n'", '"\\n"'), ("'\\\\'", '"\\\\"'), ("'\\x41\\u{1F600}'", '"\\x41\\u{1F600}"'), ("''", '""'),
    ("'a\\\nb'", '"a\\\nb"'),
])
def test_a_js_string_is_written_between_double_quotes_unit_by_unit(text, canonical):
    assert js_string(text.encode()) == canonical.encode()
    # Python reads these escapes as JavaScript does: one value.
    if "\\u{" not in text and "\\\n" not in text:
        assert pyast.literal_eval(text) == pyast.literal_eval(canonical)


@pytest.mark.parametrize(("text", "canonical"), [
    ("0.50", "5e-1"), (".5", "5e-1"), ("5E-1", "5e-1"), ("1.", "1e0"), ("1.0", "1e0"), ("100", "1e2"),
    ("1e+2", "1e2"), ("0", "0"), ("0.0", "0"), ("0.0e5", "0"), ("1.50E+10", "15e9"),
    ("0XFF", "0xff"), ("0b11", "0b11"), ("10n", "10n"), ("017", "017"), ("08", "08"), ("00", "00"),
    ("1_000", "1_000"),
])
def test_a_js_number_is_written_as_its_exact_value(text, canonical):
    assert js_number(text.encode()) == canonical.encode()


FORMATTED = """\
'use strict'

var Router = module.exports = function(options) {
  this.params = {}
}

Router.prototype.handle = function (req, res) {
  var keys = Object.keys({'params': 1}).map(k => k.toUpperCase())
  var width = req.stack.length * 0.50 | 0
  return (keys.length ? res.send(keys, width, (new Date()).getTime()) : null)
}

class Layer {
  path = '/'; keys = []
  match(p) { return (p === this.path) }
}
"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_symbol_looked_up_alone_hashes_as_in_the_table(language):
    assert _assert_lazy_equals_full(FORMATTED.encode(), language) >= 4
    table = symbol_table(FORMATTED.encode(), language)
    assert parse_file(FORMATTED.encode(), language).symbol("Router.prototype.handle") \
        == table.symbols["Router.prototype.handle"]


def test_a_lexicon_with_half_a_rule_is_refused():
    from memvet._code._tokens import Lexicon

    with pytest.raises(ValueError, match="terminators without statements"):
        Lexicon(skip=frozenset(), atoms=frozenset(), terminators=frozenset({";"}))
    with pytest.raises(ValueError, match="key_parents without key"):
        Lexicon(skip=frozenset(), atoms=frozenset(), key_parents=frozenset({"pair"}))


# TypeScript rewrites found by running prettier over Redux's src/ (TS).
TS_PRETTIER = [
    ("type R =\n  | Reducer<any>\n  | undefined", "type R = Reducer<any> | undefined;"),
    ("type R = & A & B", "type R = A & B"),
    ("type M<S, A, P = S,> = (s: S) => S", "type M<S, A, P = S> = (s: S) => S;"),
]


@pytest.mark.parametrize(("one", "other"), TS_PRETTIER)
def test_typescript_rewrites_prettier_makes_are_one_hash(one, other):
    src = {s: f"{s}\nfunction f() {{}}\n" for s in (one, other)}
    for language in ("typescript", "tsx"):
        tables = {s: symbol_table(src[s].encode(), language) for s in src}
        assert not tables[one].has_errors and not tables[other].has_errors
        name = next(q for q in tables[one].symbols if q != "f")
        assert tables[one].symbols[name].hash == tables[other].symbols[name].hash
    # A leading | is dropped only first: a | b | c still differs from a | c.
    assert js("let x: A | B | C", "typescript") != js("let x: A | C", "typescript")
