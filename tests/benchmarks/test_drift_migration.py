"""The drift benchmark's ground truth across a JavaScript -> TypeScript
migration (issue 31): TypeScript overloads and multi-line signatures are
located, and ``--migration`` counts a CommonJS export that became an ES one
in the file its file became as moved (no timing assertions)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _repo import RepoBuilder  # tests/ is on sys.path (the rootdir conftest lives there)

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"

pytestmark = pytest.mark.timeout(120)

STORE_TS = b"""\
export default function createStore<S>(
  reducer: Reducer<S>
): Store<S>
export default function createStore<S>(reducer: Reducer<S>, preloadedState?: S): Store<S>
export default function createStore<
  S,
  Ext = {}
>(
  reducer: Reducer<S>,
  preloadedState?: S
): Store<S> & Ext {
  let currentState = preloadedState

  function getState(): S {
    return currentState
  }

  return { getState }
}
"""

ERRORS_JS = """\
'use strict';

module.exports.ReadError = class extends Error {
  constructor(error, options) {
    super(error.message);
    this.name = 'ReadError';
    this.options = options;
  }
};

module.exports.gone = function (x) {
  const y = x * 2;
  return y + 1;
};
"""


def _drift() -> Any:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module("drift")


def _cases(repo: Path, *flags: str) -> dict[str, dict[str, Any]]:
    """``drift.py`` over the last commit of ``repo``, every symbol sampled: the cases by qualified name."""
    env = {**os.environ, "ORT_DISABLE_TELEMETRY": "1", "ANONYMIZED_TELEMETRY": "False"}
    out = subprocess.run([sys.executable, str(BENCH / "drift.py"), "--repo", str(repo), "--sample", "10",
                          "--from", "HEAD~1", "--to", "HEAD", "--per-file", "10", *flags, "--json"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=110)
    assert out.returncode == 0, out.stderr[-3000:]
    return {c["qualname"]: c for c in json.loads(out.stdout)["cases"]}


def test_typescript_overloads_give_way_to_the_implementation() -> None:
    drift = _drift()
    assert drift.js_region(STORE_TS, "createStore", True) == (5, 19)
    assert drift.js_region(STORE_TS, "createStore.getState", True) == (14, 16)
    # Read as JavaScript (the rules before), the signatures hide the body.
    assert isinstance(drift.js_region(STORE_TS, "createStore.getState"), str)


@pytest.mark.parametrize(("name", "names"), [
    ("module.exports.ReadError.constructor", ["module.exports.ReadError.constructor", "ReadError.constructor"]),
    ("exports.parse", ["exports.parse", "parse"]),
    ("Tokenizer.lex", ["Tokenizer.lex"]),
])
def test_migrated_names(name: str, names: list[str]) -> None:
    assert _drift().migrated_names(name) == names


def test_a_commonjs_export_rewritten_in_typescript_is_moved_with_migration(tmp_path: Path) -> None:
    b = RepoBuilder(tmp_path / "repo")
    b.write("source/errors.js", ERRORS_JS)
    b.commit("javascript")
    b.delete("source/errors.js")
    b.write("source/errors.ts", ERRORS_JS.replace("module.exports.ReadError = class extends Error",
                                                  "export class _ReadError extends Error")
            .replace("constructor(error, options)", "constructor(error: Error, options: Options)")
            .replace("};\n\nmodule.exports.gone", "}\n\nconst unused").replace("'use strict';\n", ""))
    b.commit("typescript")
    runs = {False: _cases(b.path), True: _cases(b.path, "--migration")}
    name = "module.exports.ReadError.constructor"
    assert runs[False][name]["truth"] == "deleted"
    case = runs[True][name]
    assert case["truth"] == "moved" and "_ReadError.constructor in source/errors.ts" in case["truth_detail"]
    assert case["memvet"] == "moved"
    # A function that is really gone stays deleted, for both.
    gone = runs[True]["module.exports.gone"]
    assert gone["truth"] == "deleted" and gone["memvet"] == "deleted"


FETCH_TS = """\
export function fetchAll(
  urls: string[],
  options: Options,
): Promise<Response[]> {
  const out = urls.map((u) => fetch(u, options))
  return Promise.all(out)
}

export function other(x: number): number {
  return x + 1
}
"""


def test_a_typescript_function_with_parameters_on_several_lines_is_read_whole_on_both_sides(tmp_path: Path) -> None:
    # The old side was read without the TypeScript flag: its region was the signature alone, so an
    # untouched function read "changed" against the whole body on the new side.
    b = RepoBuilder(tmp_path / "repo")
    b.write("src/fetch.ts", FETCH_TS)
    b.commit("fetch")
    b.write("src/fetch.ts", FETCH_TS.replace("return x + 1", "return x + 2"))
    b.commit("other changes")
    cases = _cases(b.path)
    assert cases["fetchAll"]["truth"] == "unchanged"
    assert cases["other"]["truth"] == "changed"


HEADERS_JS = """\
function AxiosHeaders(headers) {
  headers && this.set(headers);
}

Object.assign(AxiosHeaders.prototype, {
  set: function(header, value) {
    const key = normalizeHeader(header);
    this[key] = normalizeValue(value);
    return this;
  },

  clear: function() {
    const keys = Object.keys(this);
    keys.forEach((key) => delete this[key]);
    return true;
  }
});

Object.assign(AxiosHeaders, {
  accessor: function(header) {
    const accessors = this.accessors || (this.accessors = {});
    accessors[normalizeHeader(header)] = true;
    return this;
  }
});

export default AxiosHeaders;
"""

HEADERS_CLASS = """\
class AxiosHeaders {
  constructor(headers) {
    headers && this.set(headers);
  }

  set(header, value) {
    const key = normalizeHeader(header);
    this[key] = normalizeValue(value, key);
    return this;
  }

  static accessor(header) {
    const accessors = this.accessors || (this.accessors = {});
    accessors[normalizeHeader(header)] = header;
    return this;
  }
}

export default AxiosHeaders;
"""


def test_prototype_and_static_members_rewritten_as_a_class_are_the_same_members(tmp_path: Path) -> None:
    # axios 6ac574e0: the truth located `AxiosHeaders.accessor` in the class but not
    # `AxiosHeaders.prototype.set`, and MemVet followed neither (the second read "deleted", the first
    # "moved" into a declaration file).
    b = RepoBuilder(tmp_path / "repo")
    b.write("lib/AxiosHeaders.js", HEADERS_JS)
    b.commit("constructor function")
    b.write("lib/AxiosHeaders.js", HEADERS_CLASS)
    b.write("index.d.cts", "export class AxiosHeaders {\n  static accessor(header: string): AxiosHeaders;\n}\n")
    b.commit("class")
    cases = _cases(b.path)
    for name in ("AxiosHeaders.prototype.set", "AxiosHeaders.accessor"):
        assert (cases[name]["truth"], cases[name]["memvet"]) == ("changed", "changed"), cases[name]
    gone = cases["AxiosHeaders.prototype.clear"]
    assert (gone["truth"], gone["memvet"]) == ("deleted", "deleted"), gone
