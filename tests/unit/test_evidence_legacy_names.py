"""Qualified names from assignments and overloads, end to end: record on a
real repository, commit, check (issue 16)."""

from __future__ import annotations

import pytest
from _verdicts import rewrite_anchors

import memvet
from memvet import Status
from memvet._code import HASH_VERSION

MODELS_JS = """\
(function(factory) {
  factory(this, {}, this._);
})(function(root, Backbone, _) {
  var Model = Backbone.Model = function(attributes) {
    this.attributes = attributes;
  };

  _.extend(Model.prototype, {
    parse: function(resp, options) {
      return resp.model;
    },
    toJSON: function() { return this.attributes; }
  });

  var Collection = Backbone.Collection = function(models) {};

  _.extend(Collection.prototype, {
    parse: function(resp, options) {
      return resp.items || [];
    },
    toJSON: function() { return []; }
  });

  Collection.prototype.sync = function(method) {
    function done(err) { return err; }
    return done;
  };
  Model.prototype.sync = function(method) {
    function done(err) { return null; }
    return done;
  };
});
"""

SELECT_PY = '''\
from typing import Any, overload


@overload
def select(__ent0: int, /) -> list[int]: ...


@overload
def select(*entities: Any) -> list[Any]: ...


def select(*entities: Any) -> list[Any]:
    return list(entities)


def other():
    return 1
'''


@pytest.fixture
def legacy(repo):
    repo.write("lib/models.js", MODELS_JS, dedent=False)
    repo.write("lib/select.py", SELECT_PY, dedent=False)
    repo.commit("legacy code")
    return repo


def test_deleting_one_parse_is_not_masked_by_the_other(legacy, ledger):
    model = ledger.record("model parse unwraps", ["lib/models.js::Model.prototype.parse"])
    coll = ledger.record("collection parse lists", ["lib/models.js::Collection.prototype.parse"])
    done = ledger.record("sync done passes the error", ["lib/models.js::Collection.prototype.sync.done"])
    text = legacy.read("lib/models.js")
    start = text.index("    parse: function(resp, options) {\n      return resp.model;")
    legacy.write("lib/models.js", text[:start] + text[text.index("    toJSON", start):], dedent=False)
    legacy.commit("Model.parse goes")
    verdict = ledger.verify(model.id)
    assert verdict.status is Status.REFUTED, verdict.reason
    assert "Model.prototype.parse is no longer defined" in verdict.reason
    assert ledger.verify(coll.id).status is Status.VERIFIED
    assert ledger.verify(done.id).status is Status.VERIFIED
    legacy.replace("lib/models.js", "function done(err) { return null; }", "function done(err) { return err; }")
    legacy.commit("the Model's done changes, not the Collection's")
    assert ledger.verify(done.id).status is Status.VERIFIED
    legacy.replace("lib/models.js", "return resp.items || [];", "return resp.items;")
    assert ledger.verify(coll.id).status is Status.STALE


def test_a_short_name_lists_its_qualified_choices(legacy, ledger):
    with pytest.raises(memvet.AnchorNotFoundError) as info:
        ledger.record("parse", ["lib/models.js::parse"])
    assert "did you mean Collection.prototype.parse, Model.prototype.parse" in str(info.value)
    legacy.write("lib/twice.js", "a.b = function (x) {};\na.b = function (y) {};\n")
    legacy.commit("twice")
    with pytest.raises(memvet.AmbiguousSymbolError) as amb:
        ledger.record("a b", ["lib/twice.js::a.b"])
    assert amb.value.candidates == ("a.b(x)", "a.b(y)")
    assert "name one of: a.b(x), a.b(y)" in str(amb.value)


def test_an_overloaded_function_is_named_by_its_implementation(legacy, ledger):
    rec = ledger.record("select lists its entities", ["lib/select.py::select"])
    anchor = ledger.store.get_decisions([rec.id])[0].anchors[0]
    assert (anchor.name, anchor.line) == ("select", 4)
    legacy.replace("lib/select.py", "return 1", "return 2")
    legacy.commit("unrelated")
    assert ledger.verify(rec.id).status is Status.VERIFIED
    # A stub is part of the function's contract: changing one is a change.
    legacy.replace("lib/select.py", "-> list[int]: ...", "-> tuple[int]: ...")
    legacy.commit("a stub's return type")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.STALE, verdict.reason


def test_a_v1_name_the_new_rules_do_not_give_is_reported_as_such(legacy, ledger):
    rec = ledger.record("select lists its entities", ["lib/select.py::select"])
    # Under hasher v1 the implementation was one of three `select`s and had to
    # be named with its parameters.
    rewrite_anchors(ledger, rec.id, hash_version=1, name="select(*entities:Any)")
    legacy.replace("lib/select.py", "return 1", "return 2")
    legacy.commit("unrelated")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert f"the naming rules of v{HASH_VERSION} give no symbol that name in the recorded file" in verdict.reason
