"""JavaScript, JSX, TypeScript and TSX symbols, hashes and imports."""

from __future__ import annotations

import pytest

from memvet._code import imports, symbol_table

JS = """\
const re = /["'{]+/g;
const tpl = `a ${"}"} b`;
function target(a, b) {
  return a.replace(re, "{") + b;
}
export const arrow = (x) => x * 2;
export function exported() {}
export default class Widget {
  static create() { return new Widget(); }
  #secret() {}
  onClick = () => this.render();
  render() { return 1; }
}
const api = {
  get() { return 1; },
  put: function () {},
  users: { list: () => [] },
  "a.b": () => 0,
};
let counter = 0;
const Anon = class { z() {} };
function outer() {
  function inner() {}
  const helper = () => 1;
}
"""


def tbl(src: str, lang: str = "javascript"):
    return symbol_table(src.encode(), lang)


def test_js_qualnames():
    t = tbl(JS)
    assert list(t.symbols) == [
        "re",
        "tpl",
        "target",
        "arrow",
        "exported",
        "Widget",
        "Widget.static create",
        "Widget.#secret",
        "Widget.onClick",
        "Widget.render",
        "api",
        "api.get",
        "api.put",
        "api.users.list",
        'api."a.b"',
        "counter",
        "Anon",
        "Anon.z",
        "outer",
        "outer.inner",
        "outer.helper",
    ]
    kinds = {q: s.kind for q, s in t.symbols.items()}
    assert kinds["arrow"] == kinds["target"] == "function"
    assert kinds["api"] == kinds["re"] == "const"
    assert kinds["counter"] == "variable"
    assert kinds["Widget.render"] == kinds["api.get"] == "method"


def test_regex_with_quotes_and_braces_before_symbol():
    t = tbl(JS)
    s = t.symbols["target"]
    assert (s.start_line, s.end_line) == (3, 5)
    assert not s.has_error
    before = JS.replace('const re = /["\'{]+/g;', 'const re = /["\'{]+/gi; // "{')
    after = JS + "\nfunction later() { return '}'; }\n"
    assert tbl(before).symbols["target"].hash == s.hash
    assert tbl(after).symbols["target"].hash == s.hash
    assert tbl(JS.replace('"{"', '"{ "')).symbols["target"].hash != s.hash


def test_exported_span_includes_export_keyword():
    s = tbl(JS).symbols["arrow"]
    assert (s.start_line, s.end_line) == (6, 6)
    assert tbl(JS.replace("export const arrow", "const arrow")).symbols["arrow"].hash != s.hash


@pytest.mark.parametrize(
    "edited",
    [
        JS.replace("return a.replace(re, \"{\") + b;", "return a.replace(re, \"{\")\n    + b; // why"),
        JS.replace("function target(a, b) {", "/** Doc. */\nfunction target(a, b) {\n"),
        JS.replace("  return a", "    return a"),
    ],
)
def test_js_layout_and_comments_do_not_change_hash(edited):
    assert tbl(edited).symbols["target"].hash == tbl(JS).symbols["target"].hash


def test_template_string_contents_count():
    base = "function f() { return `a ${x}`; }"
    assert tbl(base).symbols["f"].hash != tbl(base.replace("`a ${x}`", "`a  ${x}`")).symbols["f"].hash


def test_jsx():
    src = "export function App() {\n  return <div className=\"x\">{items.map(i => <Item key={i} />)}</div>;\n}\n"
    t = tbl(src)
    assert list(t.symbols) == ["App"]
    assert not t.symbols["App"].has_error
    assert tbl(src.replace("Item key", "Other key")).symbols["App"].hash != t.symbols["App"].hash


TS = """\
@Component({ selector: "x" })
export class CopyUtils {
  @Input() field: number = 1;
  copy(input: string): void;
  copy(input: number, out?: Map<string, number>): void;
  @Traced()
  copy(input: any, out?: any) {}
  handler = (e: Event) => {};
}
function f(a: string): string;
function f(a: number): number;
function f(a: any) { return a; }
interface Shape { area(): number }
type Id = string;
export enum Color { Red }
namespace Geo { export function dist() {} }
abstract class Base { abstract run(): void; }
"""


@pytest.mark.parametrize("lang", ["typescript", "tsx"])
def test_ts_qualnames_overloads_and_decorators(lang):
    t = tbl(TS, lang)
    assert list(t.symbols) == [
        "CopyUtils",
        "CopyUtils.field",
        "CopyUtils.copy",  # the overload signatures are part of their implementation
        "CopyUtils.handler",
        "f",
        "Shape",
        "Shape.area",
        "Id",
        "Color",
        "Geo",
        "Geo.dist",
        "Base",
        "Base.run",
    ]
    assert t.symbols["CopyUtils"].start_line == 1  # class decorator
    assert (t.symbols["CopyUtils.copy"].start_line, t.symbols["CopyUtils.copy"].end_line) == (4, 7)
    assert (t.symbols["f"].start_line, t.symbols["f"].end_line) == (10, 12)
    kinds = {q: s.kind for q, s in t.symbols.items()}
    assert kinds["Shape"] == "interface"
    assert kinds["Id"] == "type"
    assert kinds["Color"] == "enum"
    assert kinds["Geo"] == "namespace"
    edited = TS.replace("@Traced()", "@Traced(1)")
    assert tbl(edited, lang).symbols["CopyUtils.copy"].hash != t.symbols["CopyUtils.copy"].hash
    # A signature is the implementation's contract: changing one changes it.
    edited = TS.replace("copy(input: string): void;", "copy(input: string): number;")
    assert tbl(edited, lang).symbols["CopyUtils.copy"].hash != t.symbols["CopyUtils.copy"].hash


def test_ts_regex_before_symbol():
    src = "const re = /[\"'{]+/g;\nexport function target(): number {\n  return 1;\n}\n"
    s = tbl(src, "typescript").symbols["target"]
    assert (s.start_line, s.end_line, s.has_error) == (2, 4, False)


def test_js_imports_and_traps():
    src = """\
import React, { useState } from "react";
import "./side-effect.css";
export * from './reexport';
export { a } from "pkg/sub";
const fs = require('fs');
const lazy = await import("lazy-mod");
// import nope from "commented";
// require("commented2")
const s = "require('in-string')";
const t = `import x from "in-template"`;
const r = /require\\('in-regex'\\)/;
obj.require("not-require");
"""
    assert imports(src.encode(), "javascript") == [
        ("react", 1),
        ("./side-effect.css", 2),
        ("./reexport", 3),
        ("pkg/sub", 4),
        ("fs", 5),
        ("lazy-mod", 6),
    ]


def test_ts_imports():
    src = 'import type { T } from "types";\nimport fs = require("fs");\nexport type { U } from "u";\n'
    assert imports(src.encode(), "typescript") == [("types", 1), ("fs", 2), ("u", 3)]
    assert imports(src.encode(), "tsx") == [("types", 1), ("fs", 2), ("u", 3)]


def test_js_error_detection():
    t = tbl("function ok() { return 1; }\nfunction broken() { return (1 + ; }\n")
    assert not t.symbols["ok"].has_error
    assert t.symbols["broken"].has_error
