"""Named function expressions in JavaScript and TypeScript.

A named function passed as an argument is a symbol of its scope
(``morgan.token('url', function getUrlToken (req) {...})`` gives
``getUrlToken``): people name it in anchors as they name any function. It
names no scope and yields to a definition of the same name in its scope, so
no name that existed before changes. A helper defined inside a named
function expression keeps its name (``morgan.logRequest``), and the path a
reader writes through the expression (``morgan.logger.logRequest``) finds
it too, stored under its own name.
"""

from __future__ import annotations

import pytest

import memvet
from memvet._code import symbol_table

MORGAN = """\
function morgan (format, options) {
  var fmt = format
  return function logger (req, res, next) {
    function logRequest () {
      return fmt
    }
    logRequest()
  }
}

morgan.token('url', function getUrlToken (req) {
  return req.originalUrl || req.url
})

function handler () {
  return 1
}

app.use(function handler (req) {
  return 2
})

app.get('/', function onGet (req, res) {
  function helper () {
    return res
  }
  return helper()
})
"""


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_a_named_callback_is_a_symbol_that_names_no_scope(language):
    table = symbol_table(MORGAN.encode(), language)
    assert {"getUrlToken", "onGet", "helper", "morgan.logRequest"} <= set(table.symbols)
    assert table.symbols["getUrlToken"].kind == "function"
    assert (table.symbols["getUrlToken"].start_line, table.symbols["getUrlToken"].end_line) == (11, 13)
    assert "onGet.helper" not in table.symbols  # the helper keeps its name


def test_a_callback_yields_to_a_definition_of_its_name():
    table = symbol_table(MORGAN.encode(), "javascript")
    assert [q for q in table.symbols if q.startswith("handler")] == ["handler"]
    assert table.symbols["handler"].start_line == 15  # the declaration, not the callback


def test_a_path_through_named_function_expressions_finds_the_member():
    table = symbol_table(MORGAN.encode(), "javascript")
    assert [s.qualname for s in table.lookup("morgan.logger.logRequest")] == ["morgan.logRequest"]
    assert [s.qualname for s in table.lookup("onGet.helper")] == ["helper"]
    assert table.lookup("morgan.logger") == []  # the expression itself is no name of morgan
    assert table.lookup("morgan.other.logRequest") == []


def test_python_has_no_such_names():
    table = symbol_table(b"def f():\n    return g(lambda x: x)\n", "python")
    assert list(table.symbols) == ["f"] and dict(table.aliases) == {}


def test_anchors_by_these_names_record_and_verify(repo, ledger):
    repo.write("index.js", MORGAN)
    repo.commit("morgan")
    token = ledger.record("the url token prefers originalUrl", ["index.js::getUrlToken"])
    nested = ledger.record("logRequest returns the format", ["index.js::morgan.logger.logRequest"])
    stored = {d.id: d.anchors[0] for d in ledger.store.get_decisions([token.id, nested.id])}
    assert (stored[token.id].name, stored[nested.id].name) == ("getUrlToken", "morgan.logRequest")
    assert ledger.verify(token.id).status is memvet.Status.VERIFIED
    repo.write("index.js", MORGAN.replace("return req.originalUrl || req.url", "return req.url"))
    repo.commit("drop originalUrl")
    assert ledger.verify(token.id).status is memvet.Status.STALE
    assert ledger.verify(nested.id).status is memvet.Status.VERIFIED
