"""Issue 31: a property's name addresses the property as a whole.

People name a property (``body``, ``Lexer.x``, ``Config.timeout``), not one
of its accessors. A symbol anchor whose name matches exactly the accessors
of one property (a JS/TS ``get x`` and ``set x`` of one object or class, a
Python property's getter, setter and deleter in one class) is recorded as
one anchor per accessor, each under its exact name and hash: the decision
holds while every accessor holds, and the claim is bound against the code
of all of them. Two unrelated symbols of one name stay refused, with the
exact names listed.
"""

from __future__ import annotations

import pytest

import memvet
from memvet import Status
from memvet._code import parse_file

RESPONSE = """\
module.exports = {
  get body () {
    return this._body
  },

  set body (val) {
    this._body = val
  },

  redirect (url) {
    this.status = 302
  }
}
"""

LEXER = """\
export class Lexer {
  get limit() { return this._limit; }
  set limit(v: number) { this._limit = Math.max(0, v); }
  lex(src: string) { return src.trim(); }
}
"""

CONFIG = """\
class Config:
    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, value):
        self._timeout = _clamp(value)

    def reload(self):
        return None
"""

def test_the_property_of_each_accessor():
    python = parse_file(CONFIG.replace("    def reload", "    @timeout.deleter\n    def timeout(self):\n"
                                        "        del self._timeout\n\n    def reload").encode(), "python")
    assert {q: python.property_of(q) for q in python.outline().symbols} == {
        "Config": "", "Config.timeout(self)": "Config.timeout", "Config.timeout(self,value)": "Config.timeout",
        "Config.timeout(self)#2": "Config.timeout", "Config.reload": "",
    }
    lexer = parse_file((LEXER + "class Pair {\n  static get x() { return 1; }\n  x() {}\n}\n").encode(), "typescript")
    assert {q: lexer.property_of(q) for q in lexer.outline().symbols} == {
        "Lexer": "", "Lexer.get limit": "Lexer.limit", "Lexer.set limit": "Lexer.limit", "Lexer.lex": "",
        "Pair": "", "Pair.static get x": "Pair.static x", "Pair.x": "",
    }
    assert parse_file(b'{"a": 1}', "json").property_of("a") == ""


# (path, source, anchor, claim, the accessors' exact names, (old, new) in the setter only)
PROPERTIES = {
    "object literal": (
        "lib/response.js", RESPONSE, "body", "body returns the stored _body",
        ["module.exports.get body", "module.exports.set body"],
        ("this._body = val", "this._body = val || null"),
    ),
    "class": (
        "src/Lexer.ts", LEXER, "Lexer.limit", "limit returns _limit",
        ["Lexer.get limit", "Lexer.set limit"],
        ("Math.max(0, v)", "Math.max(1, v)"),
    ),
    "python": (
        "pkg/config.py", CONFIG, "Config.timeout", "timeout returns _timeout",
        ["Config.timeout(self)", "Config.timeout(self,value)"],
        ("_clamp(value)", "_clamp(value, 60)"),
    ),
}


@pytest.mark.parametrize("case", sorted(PROPERTIES))
def test_a_property_is_recorded_as_its_accessors(case, repo, ledger):
    path, source, name, claim, exact, (old, new) = PROPERTIES[case]
    repo.write(path, source, dedent=False)
    repo.commit("a property")
    rec = ledger.record(claim, [f"{path}::{name}"])
    anchors = ledger.store.get_decisions([rec.id])[0].anchors
    assert [a.name for a in anchors] == exact
    assert len({a.body_hash for a in anchors}) == 2  # each accessor by its own hash
    assert ledger.verify(rec.id).status is Status.VERIFIED
    # The same anchors as naming each accessor exactly.
    both = ledger.resolve_anchors([f"{path}::{q}" for q in exact])
    assert [(a.name, a.body_hash) for a in both] == [(a.name, a.body_hash) for a in anchors]
    repo.replace(path, old, new)
    repo.commit("only the setter changes")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.STALE, verdict.reason
    assert [c.result for c in verdict.checks] == [memvet.AnchorResult.HOLDS, memvet.AnchorResult.CHANGED]


def test_the_claim_is_bound_against_every_accessor(repo, ledger):
    repo.write("pkg/config.py", CONFIG, dedent=False)
    repo.commit("a property")
    whole = ledger.record("the timeout setter calls `_clamp`", ["pkg/config.py::Config.timeout"])
    assert whole.findings == ()
    getter = ledger.record("the timeout getter calls `_clamp`", ["pkg/config.py::Config.timeout(self)"])
    assert any("_clamp" in f for f in getter.findings)


def test_a_quote_stays_on_the_accessors_that_hold_it(repo, ledger):
    repo.write("lib/response.js", RESPONSE, dedent=False)
    repo.commit("a property")
    anchors = ledger.resolve_anchors([memvet.symbol("lib/response.js", "body", quote="this._body = val")])
    assert [(a.name, a.quote) for a in anchors] == [("module.exports.get body", ""),
                                                    ("module.exports.set body", "this._body = val")]
    with pytest.raises(memvet.QuoteNotFoundError, match=r"is not in lib/response\.js::module\.exports\.get body"):
        ledger.resolve_anchors([memvet.symbol("lib/response.js", "body", quote="this.status = 404")])


UNRELATED = {
    # Two functions of one name, not accessors.
    "lib/twice.js": ("a.b = function (x) {};\na.b = function (y) {};\n", "a.b", ("a.b(x)", "a.b(y)")),
    # A getter and a static setter: two properties of one class.
    "src/Pair.ts": ("class Pair {\n  get x() { return 1; }\n  static set x(v) {}\n}\n", "Pair.x",
                    ("Pair.get x", "Pair.static set x")),
    # A property and a plain method redefined under its name.
    "pkg/shadow.py": ("class C:\n    @property\n    def x(self):\n        return 1\n\n"
                      "    def x(self, value):\n        return value\n", "C.x", ("C.x(self)", "C.x(self,value)")),
    # Getters of two properties of one name in two objects, found by the bare name.
    "lib/two.js": ("module.exports = {\n  get size () { return 1 }\n}\n"
                   "exports.size = function () { return 2 }\n", "size",
                   ("exports.size", "module.exports.get size")),
}


@pytest.mark.parametrize("path", sorted(UNRELATED))
def test_unrelated_symbols_of_one_name_are_still_refused(path, repo, ledger):
    source, name, candidates = UNRELATED[path]
    repo.write(path, source, dedent=False)
    repo.commit("two of one name")
    with pytest.raises(memvet.AmbiguousSymbolError) as info:
        ledger.record("it does something", [f"{path}::{name}"])
    assert info.value.candidates == candidates
    assert f"name one of: {', '.join(candidates)}" in str(info.value)
