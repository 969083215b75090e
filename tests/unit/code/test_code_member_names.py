"""Issue 31: what a body holds is hashed with it, every member has one name,
and the modules of a bundle are scopes of their own.

* An outer symbol's hash covers every token between its braces: anonymous,
  local and inner classes, lambdas, class expressions and arrows included,
  while the inner parts keep their own names.
* JS/TS members carry the keywords that make them another member than one
  of the same name (``Lexer.static lex`` beside ``Lexer.lex``, ``Lexer.get
  x`` beside ``Lexer.set x``); class fields are symbols; a bare name finds
  them when it is unambiguous (or names both accessors of one property), and
  the error lists the exact names when not.
* Java: every declarator of a field and every annotation element is a symbol.
* A name bound to an immediately invoked function (the module pattern) names
  a scope, so two modules' helpers in one bundle are told apart.
"""

from __future__ import annotations

import pytest
from _verdicts import rewrite_anchors

import memvet
from memvet import Status
from memvet._code import HASH_VERSION, parse_file, symbol_table

JAVA = """\
package p;

import java.util.function.Supplier;

public class Watcher {
    void start(final String name) {
        Runnable r = new Runnable() {
            @Override
            public void run() {
                System.out.println("anonymous " + name);
            }
        };
        class Local {
            int size() {
                return 1;
            }
        }
        Supplier<Integer> s = () -> {
            return 2;
        };
        r.run();
    }

    void stop() {
        System.out.println("stop");
    }
}
"""

# (old text, new text) inside each inner part of Watcher.start(String).
JAVA_INNER_EDITS = {
    "anonymous class": ('"anonymous "', '"anon "'),
    "local class": ("return 1;", "return 3;"),
    "lambda": ("return 2;", "return 4;"),
}


def _hashes(src: str, language: str) -> dict[str, str]:
    return {q: s.hash for q, s in symbol_table(src.encode(), language).symbols.items()}


@pytest.mark.parametrize("part", sorted(JAVA_INNER_EDITS))
def test_a_change_inside_an_inner_part_of_a_java_method_changes_the_method(part):
    old, new = JAVA_INNER_EDITS[part]
    before, after = _hashes(JAVA, "java"), _hashes(JAVA.replace(old, new), "java")
    assert before.keys() == after.keys()
    assert before["Watcher.start(String)"] != after["Watcher.start(String)"]
    assert before["Watcher"] != after["Watcher"]
    assert before["Watcher.stop()"] == after["Watcher.stop()"]
    # The per-symbol path (one span walked) agrees with the whole-file table.
    assert parse_file(JAVA.replace(old, new).encode(), "java").symbol("Watcher.start(String)").hash \
        == after["Watcher.start(String)"]


def test_java_inner_parts_keep_their_own_names_and_hashes():
    before = _hashes(JAVA, "java")
    assert list(before) == [
        "Watcher", "Watcher.start(String)", "Watcher.start(String).<anonymous Runnable>.run()",
        "Watcher.start(String).Local", "Watcher.start(String).Local.size()", "Watcher.stop()",
    ]
    after = _hashes(JAVA.replace(*JAVA_INNER_EDITS["anonymous class"]), "java")
    assert before["Watcher.start(String).<anonymous Runnable>.run()"] != \
        after["Watcher.start(String).<anonymous Runnable>.run()"]
    assert before["Watcher.start(String).Local.size()"] == after["Watcher.start(String).Local.size()"]


JS_INNER = """\
export function makeParser(options) {
  const Parser = class {
    parse(src) { return src.trim(); }
  };
  const check = (x) => x > 1;
  return new Parser(options, check);
}
export function other() { return 1; }
"""


@pytest.mark.parametrize("language", ["javascript", "typescript", "tsx"])
@pytest.mark.parametrize(("old", "new"), [("src.trim()", "src.trimEnd()"), ("x > 1", "x > 2")],
                         ids=["class expression", "arrow"])
def test_a_change_inside_a_class_expression_or_arrow_changes_the_function(language, old, new):
    before, after = _hashes(JS_INNER, language), _hashes(JS_INNER.replace(old, new), language)
    assert "makeParser.Parser.parse" in before and "makeParser.check" in before
    assert before["makeParser"] != after["makeParser"]
    assert before["other"] == after["other"]


TS_LEXER = """\
export class Lexer {
  static passThroughHooks = new Set(["preprocess"]);
  static lex(src: string) { return new Lexer().lex(src); }
  lex(src: string) { return src.trim(); }
  get x() { return this._x; }
  set x(v: number) { this._x = v; }
  static get rules() { return {}; }
  count = 0;
  static #seed = 1;
  "static lex"() { return 0; }
}
export function lex(src: string) { return Lexer.lex(src); }
"""

TS_NAMES = [
    "Lexer",
    "Lexer.static passThroughHooks",
    "Lexer.static lex",
    "Lexer.lex",
    "Lexer.get x",
    "Lexer.set x",
    "Lexer.static get rules",
    "Lexer.count",
    "Lexer.static #seed",
    'Lexer."static lex"',
    "lex",
]


@pytest.mark.parametrize("language", ["typescript", "tsx"])
def test_static_members_accessors_and_fields_have_one_name_each(language):
    table = symbol_table(TS_LEXER.encode(), language)
    assert list(table.symbols) == TS_NAMES
    kinds = {q: s.kind for q, s in table.symbols.items()}
    assert kinds["Lexer.static passThroughHooks"] == kinds["Lexer.count"] == "field"
    assert kinds["Lexer.static lex"] == kinds["Lexer.get x"] == "method"
    # The bare name leaves the keywords out: it finds a member when it is the
    # only one of that name, and lists every one when it is not.
    assert [s.qualname for s in table.lookup("Lexer.passThroughHooks")] == ["Lexer.static passThroughHooks"]
    assert [s.qualname for s in table.lookup("Lexer.rules")] == ["Lexer.static get rules"]
    assert [s.qualname for s in table.lookup("Lexer.lex")] == ["Lexer.lex"]  # the exact name first
    assert [s.qualname for s in table.lookup("Lexer.x")] == ["Lexer.get x", "Lexer.set x"]


def test_javascript_static_members_and_object_accessors():
    src = ("class Hooks {\n  static passThroughHooks = new Set();\n  static fn = function () {};\n"
           "  #handler = () => 1;\n  options;\n}\n"
           "function f() {\n  const box = { get size() { return 1; }, set size(v) {} };\n}\n")
    assert list(symbol_table(src.encode(), "javascript").symbols) == [
        "Hooks", "Hooks.static passThroughHooks", "Hooks.static fn", "Hooks.#handler", "Hooks.options",
        "f", "f.box.get size", "f.box.set size",
    ]


def test_adding_a_sibling_renames_no_member():
    alone = """\
class Lexer {
  lex(src: string) { return src; }
  get x() { return 1; }
}
"""
    crowded = alone.replace("  get x()", "  static lex(src: string) { return src; }\n  set x(v: number) {}\n  get x()")
    before, after = _hashes(alone, "typescript"), _hashes(crowded, "typescript")
    assert set(before) == {"Lexer", "Lexer.lex", "Lexer.get x"}
    assert set(after) == {"Lexer", "Lexer.lex", "Lexer.static lex", "Lexer.set x", "Lexer.get x"}
    assert before["Lexer.lex"] == after["Lexer.lex"] and before["Lexer.get x"] == after["Lexer.get x"]


def test_java_fields_of_one_declaration_and_annotation_elements():
    src = """\
class A {
    int a, b = 2;
    static final int X = 1, Y = 2;
    @interface Ann { String value() default ""; int n(); }
    Runnable first = null, second = new Runnable() { public void run() {} };
}
"""
    table = symbol_table(src.encode(), "java")
    assert list(table.symbols) == [
        "A", "A.a", "A.b", "A.X", "A.Y", "A.Ann", "A.Ann.value()", "A.Ann.n()", "A.first", "A.second",
        "A.second.<anonymous Runnable>.run()",
    ]
    assert table.symbols["A.b"].kind == "field" and table.symbols["A.Ann.n()"].kind == "method"
    # A declarator's span is the declaration it shares its type with.
    changed = _hashes(src.replace("b = 2", "b = 3"), "java")
    assert changed["A.b"] != table.symbols["A.b"].hash
    assert changed["A.X"] == table.symbols["A.X"].hash


BUNDLE = """\
(function (root) {
  var Foo = (function () {
    var helper = function () { return 1; };
    var api = {
      first: function (xs) { return xs[0]; },
      last: function (xs) { return xs[xs.length - 1]; }
    };
    function Foo() {}
    Foo.prototype.run = function () { return helper(); };
    return Foo;
  })();
  var Bar = (function () {
    var helper = function () { return 1; };
    return { helper: helper };
  }());
  root.Baz = (function () { var helper = function () { return 2; }; return helper; })();
  var top = function () { return Foo; };
})(this);
"""

BUNDLE_NAMES = [
    "Foo.helper", "Foo.api.first", "Foo.api.last", "Foo", "Foo.prototype.run", "Bar.helper",
    "root.Baz.helper", "top",
]


def test_the_modules_of_a_bundle_are_scopes():
    assert list(symbol_table(BUNDLE.encode(), "javascript").symbols) == BUNDLE_NAMES


# ------------------------------------------------------------ on real repositories


@pytest.fixture
def members(repo):
    repo.write("src/Lexer.ts", TS_LEXER, dedent=False)
    repo.write("src/Watcher.java", JAVA, dedent=False)
    repo.write("lib/bundle.js", BUNDLE, dedent=False)
    repo.commit("members")
    return repo


def test_an_ambiguous_member_name_lists_the_exact_names(members, ledger):
    rec = ledger.record("x is cached", ["src/Lexer.ts::Lexer.x"])  # one property: both accessors
    assert [a.name for a in ledger.store.get_decisions([rec.id])[0].anchors] == ["Lexer.get x", "Lexer.set x"]
    members.write("src/Pair.ts", "class Pair {\n  get x() { return 1; }\n  static get x() { return 2; }\n}\n")
    members.commit("an instance and a static property of one name")
    with pytest.raises(memvet.AmbiguousSymbolError) as info:
        ledger.record("x is one", ["src/Pair.ts::Pair.x"])
    assert info.value.candidates == ("Pair.get x", "Pair.static get x")
    assert "name one of: Pair.get x, Pair.static get x" in str(info.value)


def test_a_static_and_an_instance_member_are_checked_apart(members, ledger):
    static = ledger.record("static lex builds a lexer", ["src/Lexer.ts::Lexer.static lex"])
    instance = ledger.record("lex trims", ["src/Lexer.ts::Lexer.lex"])
    hooks = ledger.record("hooks pass preprocess", ["src/Lexer.ts::Lexer.passThroughHooks"])
    stored = ledger.store.get_decisions([hooks.id])[0].anchors[0]
    assert stored.name == "Lexer.static passThroughHooks"  # the bare name, recorded exactly
    members.replace("src/Lexer.ts", "return src.trim();", "return src.trimEnd();")
    members.commit("lex trims the end only")
    assert ledger.verify(static.id).status is Status.VERIFIED
    assert ledger.verify(hooks.id).status is Status.VERIFIED
    assert ledger.verify(instance.id).status is Status.STALE
    members.replace("src/Lexer.ts", '["preprocess"]', '["preprocess", "postprocess"]')
    members.commit("a hook more")
    assert ledger.verify(hooks.id).status is Status.STALE


def test_a_name_of_hasher_v5_resolves_where_it_was_unambiguous(members, ledger):
    rec = ledger.record("rules are static", ["src/Lexer.ts::Lexer.static get rules"])
    rewrite_anchors(ledger, rec.id, hash_version=5, name="Lexer.rules")  # v5 named it so
    members.replace("src/Lexer.ts", "count = 0;", "count = 1;")
    members.commit("unrelated")
    assert ledger.verify(rec.id).status is Status.VERIFIED
    members.replace("src/Lexer.ts", "return {};", "return { a: 1 };")
    members.commit("rules change")
    assert ledger.verify(rec.id).status is Status.STALE


def test_an_overload_implementation_of_hasher_v5_keeps_its_name(members, ledger):
    members.write("src/pick.ts", "export function pick(a: string): string;\n"
                  "export function pick(a: number): number;\n"
                  "export function pick(a: any) { return a; }\nexport const other = 1;\n", dedent=False)
    members.commit("pick")
    rec = ledger.record("pick returns its argument", ["src/pick.ts::pick"])
    assert ledger.store.get_decisions([rec.id])[0].anchors[0].line == 1  # its signatures are its span
    rewrite_anchors(ledger, rec.id, hash_version=5, name="pick(any)")  # v5 named it by its parameters
    members.replace("src/pick.ts", "other = 1", "other = 2")
    members.commit("unrelated")
    assert ledger.verify(rec.id).status is Status.VERIFIED
    members.replace("src/pick.ts", "pick(a: number): number;", "pick(a: number): string;")
    members.commit("a signature changes")
    assert ledger.verify(rec.id).status is Status.STALE


def test_a_v5_name_told_apart_by_document_order_asks_for_revalidation(members, ledger):
    rec = ledger.record("lex trims", ["src/Lexer.ts::Lexer.lex"])
    # v5 named the instance `lex` by its place after the static one.
    rewrite_anchors(ledger, rec.id, hash_version=5, name="Lexer.lex(string)#2")
    members.replace("src/Lexer.ts", "count = 0;", "count = 1;")
    members.commit("unrelated")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION, verdict.reason
    assert f"the naming rules of v{HASH_VERSION} give no symbol that name" in verdict.reason


def test_a_change_inside_an_anonymous_class_makes_the_method_stale(members, ledger):
    rec = ledger.record("start prints the name", ["src/Watcher.java::Watcher.start(String)"])
    stop = ledger.record("stop prints", ["src/Watcher.java::Watcher.stop()"])
    members.replace("src/Watcher.java", '"anonymous "', '"anon "')
    members.commit("inside the anonymous class only")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.STALE, verdict.reason
    assert ledger.verify(stop.id).status is Status.VERIFIED


def test_deleting_one_module_helper_of_a_bundle_is_a_deletion(members, ledger):
    recs = {n: ledger.record(f"{n} works", [f"lib/bundle.js::{n}"])
            for n in ("Foo.helper", "Bar.helper", "Foo.api.last", "Foo.api.first", "Foo.prototype.run")}
    text = members.read("lib/bundle.js")
    text = text.replace("    var helper = function () { return 1; };\n    var api", "    var api", 1)
    text = text.replace(",\n      last: function (xs) { return xs[xs.length - 1]; }\n", "\n")
    members.write("lib/bundle.js", text, dedent=False)
    members.commit("Foo's helper and api.last go")
    for gone in ("Foo.helper", "Foo.api.last"):
        verdict = ledger.verify(recs[gone].id)
        assert verdict.status is Status.REFUTED, (gone, verdict.reason)
        assert f"{gone} is no longer defined" in verdict.reason
    for kept in ("Bar.helper", "Foo.api.first", "Foo.prototype.run"):
        assert ledger.verify(recs[kept].id).status is Status.VERIFIED, kept


PY_HOOKS = '''\
class Hooks:
    pass_through = {"preprocess"}
    name: str = ""

    def f(self):
        return 1
    f = staticmethod(f)

    class Inner:
        k = 2

    if True:
        hidden = 3
'''


def test_python_class_attributes_are_fields_unless_they_rebind_a_def():
    table = symbol_table(PY_HOOKS.encode(), "python")
    assert list(table.symbols) == ["Hooks", "Hooks.pass_through", "Hooks.name", "Hooks.f", "Hooks.Inner",
                                   "Hooks.Inner.k"]
    assert table.symbols["Hooks.pass_through"].kind == "field"
    assert table.symbols["Hooks.f"].kind == "method"  # one name: `f = staticmethod(f)` is no second symbol
    changed = _hashes(PY_HOOKS.replace('{"preprocess"}', '{"preprocess", "post"}'), "python")
    assert changed["Hooks.pass_through"] != table.symbols["Hooks.pass_through"].hash
    assert changed["Hooks.name"] == table.symbols["Hooks.name"].hash
    # One lookup (a pruned outline) finds the field as the whole table does.
    assert parse_file(PY_HOOKS.encode(), "python").symbol("Hooks.Inner.k") == table.symbols["Hooks.Inner.k"]


def test_the_move_search_reads_a_member_name_without_its_keywords():
    from memvet._moves import segments

    # The source may write more keywords than the name keeps: `private
    # static readonly FOO`, `static async lex`; the text search looks for `FOO`.
    assert segments("Lexer.static get rules") == ["Lexer", "rules"]
    assert segments("Hooks.static FOO") == ["Hooks", "FOO"]
    assert segments('Lexer."static lex"') == ["Lexer", "static lex"]  # a quoted key is its text
    assert segments("Map.static get") == ["Map", "get"]  # a static method named `get`
