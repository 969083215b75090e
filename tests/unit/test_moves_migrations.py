"""Moves across a language change within one family (issue 31): a JavaScript
file that became TypeScript (``.ts``, ``.tsx``) or another JavaScript module
kind (``.mjs``, ``.cjs``), with or without body edits, a renamed class or a
member turned private, is followed as a move; copies (vendored, builds, test
data) still never are; a Python module that became a stub is followed too."""

from __future__ import annotations

import pytest

import memvet
from memvet import AnchorResult, Status
from memvet._moves import _stem, _unmarked

TOKENIZER = """\
export class Tokenizer {
  constructor(options) {
    this.options = options || {};
    this.rules = { block: [], inline: [] };
  }

  space(src) {
    const cap = this.rules.block.newline.exec(src);
    if (cap && cap[0].length > 0) {
      return { type: 'space', raw: cap[0] };
    }
    return undefined;
  }

  code(src) {
    const cap = this.rules.block.code.exec(src);
    if (cap) {
      const text = cap[0].replace(/^ {1,4}/gm, '');
      return { type: 'code', raw: cap[0], codeBlockStyle: 'indented', text: text };
    }
    return undefined;
  }
}

export function escape(html, encode) {
  const pattern = encode ? /[&<>"']/g : /[<>"']|&(?!#?\\w+;)/g;
  if (pattern.test(html)) {
    return html.replace(pattern, (ch) => '&#' + ch.charCodeAt(0) + ';');
  }
  return html;
}
"""

#: Enough new TypeScript that git's rename detection no longer pairs the files.
TYPES = "".join(
    f"export interface Token{i} {{\n  type: 'kind{i}';\n  raw: string;\n  depth{i}: number;\n}}\n\n"
    for i in range(30)
)

JS = "src/Tokenizer.js"
TS = "src/Tokenizer.ts"


def _moved(verdict: memvet.Verdict) -> memvet.AnchorCheck:
    assert verdict.status is Status.NEEDS_REVALIDATION, verdict.reason
    (check,) = verdict.checks
    assert check.result is AnchorResult.MOVED, check.detail
    return check


def _refuted(verdict: memvet.Verdict) -> memvet.AnchorCheck:
    assert verdict.status is Status.REFUTED, verdict.reason
    (check,) = verdict.checks
    assert check.result is AnchorResult.MISSING and not check.new_path
    return check


def _record(repo, ledger, names: list[str], path: str = JS, text: str = TOKENIZER) -> list[str]:
    repo.write(path, text)
    repo.commit("javascript")
    return [ledger.record(f"the decision rests on {name}", [f"{path}::{name}"]).id for name in names]


@pytest.mark.parametrize("new_path", [TS, "src/Tokenizer.tsx", "src/Tokenizer.mjs", "src/Tokenizer.cjs"])
def test_a_file_renamed_to_another_language_of_its_family_is_a_move_with_the_same_body(repo, ledger, new_path):
    ids = _record(repo, ledger, ["Tokenizer.space", "escape", "Tokenizer"])
    repo.move(JS, new_path)
    repo.commit("rename")
    for rec, name in zip(ids, ["Tokenizer.space", "escape", "Tokenizer"], strict=True):
        check = _moved(ledger.verify(rec, at="HEAD"))
        assert (check.new_path, check.new_name) == (new_path, name)
        # The hash is compared in the new place, parsed in its own language.
        assert check.detail.endswith(f"moved from {JS} to {new_path}"), check.detail


def test_a_migration_that_adds_types_is_a_move_whose_body_changed(repo, ledger):
    space, escape, code = _record(repo, ledger, ["Tokenizer.space", "escape", "Tokenizer.code"])
    repo.delete(JS)
    repo.write(TS, TYPES + TOKENIZER.replace("space(src)", "space(src: string): Token0 | undefined")
               .replace("escape(html, encode)", "escape(html: string, encode?: boolean): string"))
    repo.commit("convert the tokenizer to TypeScript")
    for rec in (space, escape):
        check = _moved(ledger.verify(rec, at="HEAD"))
        assert check.new_path == TS and check.detail.endswith("(and its body changed)"), check.detail
    check = _moved(ledger.verify(code, at="HEAD"))  # untouched by the migration
    assert check.new_name == "Tokenizer.code" and "body changed" not in check.detail


def test_the_class_renamed_in_the_migration_is_followed(repo, ledger):
    (space,) = _record(repo, ledger, ["Tokenizer.space"])
    repo.delete(JS)
    repo.write(TS, TYPES + TOKENIZER.replace("class Tokenizer", "class _Tokenizer")
               .replace("space(src)", "space(src: string): Token0 | undefined"))
    repo.commit("convert; the class is internal now")
    check = _moved(ledger.verify(space, at="HEAD"))
    assert (check.new_path, check.new_name) == (TS, "_Tokenizer.space")
    assert "its body changed" in check.detail


def test_a_method_turned_private_in_the_migration_is_followed(repo, ledger):
    """``space`` became ``#space`` with a typed signature, in a file git does
    not pair with the old one: found as the same name up to its privacy mark
    in the file of the same path and stem."""
    (space,) = _record(repo, ledger, ["Tokenizer.space"])
    repo.delete(JS)
    repo.write(TS, TYPES + TOKENIZER.replace("space(src)", "#space(src: string): Token0 | undefined"))
    repo.commit("convert; private members")
    check = _moved(ledger.verify(space, at="HEAD"))
    assert (check.new_path, check.new_name) == (TS, "Tokenizer.#space")
    assert "renamed Tokenizer.space -> Tokenizer.#space; its body changed" in check.detail


def test_an_underscore_private_method_is_followed_in_its_own_file(repo, ledger):
    (space,) = _record(repo, ledger, ["Tokenizer.space"])
    repo.replace(JS, "space(src)", "_space(src)")
    repo.replace(JS, "return undefined;\n  }\n\n  code", "return null;\n  }\n\n  code")
    repo.commit("private by convention")
    check = _moved(ledger.verify(space, at="HEAD"))
    assert (check.new_path, check.new_name) == (JS, "Tokenizer._space")


def test_a_private_name_with_another_body_is_not_the_method(repo, ledger):
    """The control: ``space`` deleted and an unrelated ``_space`` added."""
    (space,) = _record(repo, ledger, ["Tokenizer.space"])
    start, end = TOKENIZER.index("  space(src)"), TOKENIZER.index("  code(src)")
    repo.write(JS, TOKENIZER[:start] + "  _space() {\n    return this.options.gap ?? '  ';\n  }\n\n"
               + TOKENIZER[end:])
    repo.commit("no space rule any more")
    _refuted(ledger.verify(space, at="HEAD"))


def test_two_private_twins_are_not_a_choice(repo, ledger):
    """``space`` deleted while both ``_space`` and ``#space`` came: the rule
    leaves it to the others, which find neither alike enough to choose."""
    (space,) = _record(repo, ledger, ["Tokenizer.space"])
    body = TOKENIZER[TOKENIZER.index("  space(src)"):TOKENIZER.index("  code(src)")]
    repo.write(JS, TOKENIZER.replace(body, body.replace("space(src)", "_space(src)")
                                     + body.replace("space(src)", "#space(src)").replace("'space'", "'gap'")))
    repo.commit("two of them")
    verdict = ledger.verify(space, at="HEAD")
    assert verdict.status is not Status.VERIFIED, verdict.reason
    for check in verdict.checks:
        assert check.new_name != "Tokenizer._space" or "renamed Tokenizer.space" not in check.detail


def test_a_jsx_component_that_became_tsx_is_followed(repo, ledger):
    component = ("export function Badge({ label, tone }) {\n  const cls = `badge badge-${tone}`;\n"
                 "  return <span className={cls}>{label}</span>;\n}\n")
    (badge,) = _record(repo, ledger, ["Badge"], path="src/Badge.jsx", text=component)
    repo.delete("src/Badge.jsx")
    repo.write("src/Badge.tsx", "type Props = { label: string; tone: 'info' | 'warn' };\n\n"
               + component.replace("{ label, tone })", "{ label, tone }: Props)"))
    repo.commit("tsx")
    check = _moved(ledger.verify(badge, at="HEAD"))
    assert (check.new_path, check.new_name) == ("src/Badge.tsx", "Badge")


def test_a_python_module_that_became_a_stub_is_a_move_whose_body_changed(repo, ledger):
    repo.write("pkg/api.py", "def fetch(url, timeout=10):\n    return _client().get(url, timeout=timeout)\n")
    repo.commit("api")
    rec = ledger.record("fetch waits ten seconds", ["pkg/api.py::fetch"])
    repo.move("pkg/api.py", "pkg/api.pyi")
    repo.write("pkg/api.pyi", "def fetch(url: str, timeout: float = ...) -> bytes: ...\n")
    repo.commit("the implementation moved to a compiled module; the stub stays")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert check.new_path == "pkg/api.pyi" and check.detail.endswith("(and its body changed)")


ERRORS_JS = """\
'use strict';
const is = require('@sindresorhus/is');

class GotError extends Error {
  constructor(message, error, options) {
    super(message);
    Error.captureStackTrace(this, this.constructor);
    this.name = 'GotError';
    if (!is.undefined(error.code)) {
      this.code = error.code;
    }
    Object.assign(this, { host: options.host, hostname: options.hostname, method: options.method });
  }
}

module.exports.GotError = GotError;

module.exports.ReadError = class extends GotError {
  constructor(error, options) {
    super(error.message, error, options);
    this.name = 'ReadError';
    this.retryable = Boolean(options.retry && options.retry.retries > 0);
  }
};
"""


def test_a_commonjs_export_that_became_an_es_export_is_followed(repo, ledger):
    """got 7a04da10: ``module.exports.ReadError = class ...`` became
    ``export class ReadError`` in ``errors.ts``."""
    (read_error,) = _record(repo, ledger, ["module.exports.ReadError.constructor"], path="source/errors.js",
                            text=ERRORS_JS)
    repo.delete("source/errors.js")
    ts = (TYPES + ERRORS_JS.replace("module.exports.ReadError = class extends", "export class ReadError extends")
          .replace("constructor(error, options)", "constructor(error: NodeJS.ErrnoException, options: Options)")
          .replace("};\n", "}\n")
          .replace("const is = require('@sindresorhus/is');", "import is from '@sindresorhus/is';"))
    repo.write("source/errors.ts", ts)
    repo.commit("Rewrite errors.js in TypeScript")
    check = _moved(ledger.verify(read_error, at="HEAD"))
    assert (check.new_path, check.new_name) == ("source/errors.ts", "ReadError.constructor")


AS_STREAM_JS = """\
'use strict';
const duplexer3 = require('duplexer3');

module.exports = options => {
  const input = new PassThrough();
  const output = new PassThrough();
  const proxy = duplexer3(input, output);
  proxy.write = (chunk, encoding, callback) => {
    if (options.body) {
      throw new Error('Got\\'s stream is not writable when the `body` option is used');
    }
    return input.write(chunk, encoding, callback);
  };
  return proxy;
};
"""


def test_what_a_default_export_holds_follows_it_under_its_new_name(repo, ledger):
    """got 521346c5: ``module.exports = options => {...}`` became ``export
    default function asStream(options)``: ``module.exports.proxy.write`` is
    ``asStream.proxy.write``."""
    (write,) = _record(repo, ledger, ["module.exports.proxy.write"], path="source/as-stream.js", text=AS_STREAM_JS)
    repo.delete("source/as-stream.js")
    repo.write("source/as-stream.ts", TYPES + AS_STREAM_JS.replace(
        "module.exports = options => {", "export default function asStream(options: Options): ProxyStream {")
        .replace("  return proxy;\n};", "  return proxy;\n}"))
    repo.commit("Rewrite as-stream.js in TypeScript")
    check = _moved(ledger.verify(write, at="HEAD"))
    assert (check.new_path, check.new_name) == ("source/as-stream.ts", "asStream.proxy.write")


def test_a_default_export_name_needs_a_new_function_around_it(repo, ledger):
    """The control: the TypeScript file's ``proxy.write`` sits in a function
    the JavaScript file already had (``helper``), not one that replaced the
    default export: no such move, and nothing else is alike."""
    text = AS_STREAM_JS + "\nfunction helper() {\n  return 1;\n}\n"
    (write,) = _record(repo, ledger, ["module.exports.proxy.write"], path="source/as-stream.js", text=text)
    repo.delete("source/as-stream.js")
    repo.write("source/as-stream.ts", TYPES + "export function helper(options: Options) {\n"
               "  const proxy = make();\n  proxy.write = () => 0;\n  return proxy;\n}\n")
    repo.commit("no more streams")
    _refuted(ledger.verify(write, at="HEAD"))


STORE_JS = """\
export default function createStore(reducer, preloadedState, enhancer) {
  let currentState = preloadedState;
  let isDispatching = false;

  function getState() {
    if (isDispatching) {
      throw new Error('You may not call store.getState() while the reducer is executing.');
    }
    return currentState;
  }

  return { getState };
}
"""


def test_a_function_nested_in_one_that_took_overloads_is_followed(repo, ledger):
    """redux 9d327384: ``createStore`` took overload signatures in
    TypeScript. Under the naming rules that name overloads by their
    parameter types, it and what it holds carry the implementation's
    (``createStore(Reducer<S>,S|Enhancer,Enhancer).getState``), and
    ``createStore.getState`` is still the one symbol of that name without
    signatures; under rules that give the implementation the bare name, it
    is the same name. Either way it is followed."""
    (get_state,) = _record(repo, ledger, ["createStore.getState"], path="src/createStore.js", text=STORE_JS)
    repo.move("src/createStore.js", "src/createStore.ts")
    repo.write("src/createStore.ts", (
        "export default function createStore<S>(reducer: Reducer<S>, enhancer?: Enhancer): Store<S>\n"
        "export default function createStore<S>(reducer: Reducer<S>, preloadedState?: S, enhancer?: Enhancer"
        "): Store<S>\n" + STORE_JS.replace(
            "createStore(reducer, preloadedState, enhancer)",
            "createStore<S>(reducer: Reducer<S>, preloadedState?: S | Enhancer, enhancer?: Enhancer): Store<S>")
        .replace("function getState()", "function getState(): S")))
    repo.commit("convert createStore to TypeScript")
    check = _moved(ledger.verify(get_state, at="HEAD"))
    assert check.new_path == "src/createStore.ts"
    if check.new_name != "createStore.getState":
        assert check.new_name.startswith("createStore(") and check.new_name.endswith(").getState")
        assert f"to src/createStore.ts::{check.new_name}" in check.detail


@pytest.mark.parametrize("copy", [
    "vendor/marked/Tokenizer.ts", "dist/Tokenizer.ts", "test/fixtures/Tokenizer.ts", "lib/marked-4.0.1.js",
])
def test_copies_in_another_language_of_the_family_are_still_no_move(repo, ledger, copy):
    (space,) = _record(repo, ledger, ["Tokenizer.space"])
    repo.delete(JS)
    repo.write(copy, TOKENIZER)
    repo.commit("the tokenizer is gone from src; a copy stays")
    check = _refuted(ledger.verify(space, at="HEAD"))
    assert "was deleted" in check.detail


def test_a_build_banner_in_a_typescript_file_is_still_no_move(repo, ledger):
    (space,) = _record(repo, ledger, ["Tokenizer.space"])
    repo.delete(JS)
    repo.write("lib/tokenizer.ts", "/*! marked v4.0.1 | MIT */\n" + TOKENIZER)
    repo.commit("bundled")
    _refuted(ledger.verify(space, at="HEAD"))


def test_a_file_of_another_family_is_not_searched(repo, ledger):
    """A Python file that happens to define the same name is no move target."""
    (esc,) = _record(repo, ledger, ["escape"])
    repo.delete(JS)
    repo.write("tools/escape.py", "def escape(html, encode):\n    return html.replace('&', '&amp;')\n")
    repo.commit("a tool")
    _refuted(ledger.verify(esc, at="HEAD"))


@pytest.mark.parametrize(("path", "stem"), [
    ("src/x.js", "src/x"), ("x.tsx", "x"), ("src/.eslintrc", "src/.eslintrc"), ("a.b/c.d.ts", "a.b/c.d"),
])
def test_stem(path, stem):
    assert _stem(path) == stem


@pytest.mark.parametrize(("name", "bare"), [
    ("_Tokenizer.#lex", "Tokenizer.lex"), ("Tokenizer.lex", "Tokenizer.lex"), ("__init__", "init__"),
    ("lex#2", ""), ("copy(byte[],OutputStream)", ""), ("a._", ""), ("module.exports.get", "get"),
    ("exports._parse", "parse"), ("module.exports", "module.exports"),
])
def test_unmarked(name, bare):
    assert _unmarked(name) == bare
