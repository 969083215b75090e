"""Issue 31: the names a CommonJS module gives what it exports.

A member of a CommonJS module is named after ``module.exports`` (or
``exports``), which is not how people refer to it. The lookup also accepts:

* the exported class's (or function's) own name: ``Application.use`` for
  ``module.exports = class Application { use() {} }``;
* the file's own binding of the exported object: ``proto.onerror`` for
  ``const proto = module.exports = { onerror() {} }``;
* a member's name alone (``redirect``), when no symbol carries that name.

The canonical name stays: an anchor written under another name is stored
under it, with the same hash. A name that several symbols answer is refused
with the exact names, unless they are the getter and setter of one property:
then it is recorded as both, each under its exact name.
"""

from __future__ import annotations

import pytest

import memvet
from memvet import Status
from memvet._code import SymbolTable, parse_file, symbol_table

APPLICATION = """\
'use strict'

const Emitter = require('node:events')

function listen () {
  return 'the local listen'
}

class Helper {
  use (fn) {
    return fn
  }
}

module.exports = class Application extends Emitter {
  use (fn) {
    this.middleware.push(fn)
    return this
  }

  listen (...args) {
    return listen(...args)
  }

  get currentContext () {
    return this.ctx
  }

  callback () {
    const handleRequest = (req, res) => {
      return this.handleRequest(req, res)
    }
    return handleRequest
  }
}

module.exports.HttpError = Error
"""

CONTEXT = """\
const COOKIES = Symbol('context#cookies')

const other = {
  onerror (err) {
    return 'not exported'
  }
}

const proto = module.exports = {
  onerror (err) {
    if (err == null) return
    this.app.emit('error', err, this)
  },

  get cookies () {
    return this[COOKIES]
  },

  set cookies (jar) {
    this[COOKIES] = jar
  }
}
"""

RESPONSE = """\
const vary = require('vary')

module.exports = {
  redirect (url) {
    this.set('Location', url)
    this.status = 302
  },

  get body () {
    return this._body
  },

  set body (val) {
    this._body = val
  },

  vary (field) {
    vary(this.res, field)
  }
}
"""

EXPORTS = """\
exports.Parser = class Parser {
  parse (text) {
    return text.trim()
  }
}

exports.tokenize = function tokenize (text) {
  return text.split(' ')
}
"""


def _names(table: SymbolTable, name: str) -> list[str]:
    return [s.qualname for s in table.lookup(name)]


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_the_exported_class_is_found_by_its_own_name(language):
    table = symbol_table(APPLICATION.encode(), language)
    assert "module.exports.use" in table.symbols  # the canonical name stays
    assert _names(table, "Application") == ["module.exports"]
    assert _names(table, "Application.use") == ["module.exports.use"]
    assert _names(table, "Application.currentContext") == ["module.exports.get currentContext"]
    assert _names(table, "Application.get currentContext") == ["module.exports.get currentContext"]
    assert _names(table, "Application.callback.handleRequest") == ["module.exports.callback.handleRequest"]
    assert _names(table, "Application.HttpError") == ["module.exports.HttpError"]
    assert _names(table, "Application.missing") == []
    # The local class and function keep their names and are not confused.
    assert _names(table, "Helper.use") == ["Helper.use"]
    assert _names(table, "listen") == ["listen"]
    assert table.lookup("Application.use")[0].hash == table.symbols["module.exports.use"].hash


def test_the_outline_knows_the_other_names_too():
    outline = parse_file(APPLICATION.encode(), "javascript").outline()
    assert outline.symbols["module.exports.use"].hash == ""  # an outline, not the table
    assert _names(outline, "Application.use") == ["module.exports.use"]


def test_the_binding_of_the_exported_object_names_its_members():
    table = symbol_table(CONTEXT.encode(), "javascript")
    assert _names(table, "proto.onerror") == ["module.exports.onerror"]
    assert _names(table, "proto.get cookies") == ["module.exports.get cookies"]
    assert _names(table, "proto.cookies") == ["module.exports.get cookies", "module.exports.set cookies"]
    assert _names(table, "proto") == ["proto"]  # the binding itself is a symbol of its own
    # The other object's member of the same name is its own, and not exported.
    assert _names(table, "other.onerror") == ["other.onerror"]
    assert _names(table, "onerror") == ["module.exports.onerror"]


def test_a_binding_of_another_object_is_no_alias():
    source = "const proto = {\n  a () { return 1 }\n}\n\nmodule.exports = {\n  b () { return 2 }\n}\n"
    table = symbol_table(source.encode(), "javascript")
    assert dict(table.aliases) == {}
    assert _names(table, "proto.b") == []
    assert _names(table, "proto.a") == ["proto.a"]
    assert _names(table, "b") == ["module.exports.b"]
    assert _names(table, "a") == []  # not exported: no bare name


def test_a_bare_member_name_resolves_only_when_nothing_else_has_it():
    table = symbol_table(RESPONSE.encode(), "javascript")
    assert _names(table, "redirect") == ["module.exports.redirect"]
    assert _names(table, "get body") == ["module.exports.get body"]
    assert _names(table, "body") == ["module.exports.get body", "module.exports.set body"]
    # `vary` is the module's own binding: the exported method is named in full.
    assert _names(table, "vary") == ["vary"]
    assert _names(table, "module.exports.vary") == ["module.exports.vary"]


def test_exports_members_go_by_their_own_names():
    table = symbol_table(EXPORTS.encode(), "javascript")
    assert dict(table.aliases) == {"Parser": "exports.Parser", "tokenize": "exports.tokenize"}
    assert _names(table, "Parser.parse") == ["exports.Parser.parse"]
    assert _names(table, "tokenize") == ["exports.tokenize"]


def test_a_name_two_exported_values_take_is_no_alias():
    source = "exports.A = class Same {\n  x () {}\n}\nexports.B = class Same {\n  y () {}\n}\n"
    table = symbol_table(source.encode(), "javascript")
    assert "Same" not in table.aliases
    assert _names(table, "Same.x") == []
    assert _names(table, "A.x") == ["exports.A.x"]  # the bare rule still finds members


def test_other_languages_have_no_commonjs_names():
    source = "class exports:\n    def redirect(self):\n        return 1\n"
    table = symbol_table(source.encode(), "python")
    assert dict(table.aliases) == {}
    assert _names(table, "exports.redirect") == ["exports.redirect"]
    assert _names(table, "redirect") == []


def test_the_other_names_survive_serialization():
    table = symbol_table(APPLICATION.encode(), "javascript")
    back = SymbolTable.from_json(table.to_json())
    assert back == table
    assert dict(back.aliases) == {"Application": "module.exports"}
    assert _names(back, "Application.use") == ["module.exports.use"]


@pytest.mark.parametrize("aliases", ["5", "[]", '"x"'])
def test_a_serialized_table_with_bad_aliases_is_rejected(aliases):
    text = symbol_table(APPLICATION.encode(), "javascript").to_json()
    start = text.index('"aliases":')
    with pytest.raises(ValueError, match="not a serialized symbol table"):
        SymbolTable.from_json(text[:start] + f'"aliases":{aliases}}}')


@pytest.fixture
def commonjs(repo):
    repo.write("lib/application.js", APPLICATION, dedent=False)
    repo.write("lib/context.js", CONTEXT, dedent=False)
    repo.write("lib/response.js", RESPONSE, dedent=False)
    repo.commit("a CommonJS module")
    return repo


def test_an_anchor_by_another_name_is_stored_under_the_canonical_one(commonjs, ledger):
    by_alias = ledger.record("use adds a middleware", ["lib/application.js::Application.use"])
    canonical = ledger.record("use pushes onto the middleware", ["lib/application.js::module.exports.use"])
    onerror = ledger.record("onerror emits error", ["lib/context.js::proto.onerror"])
    redirect = ledger.record("redirect sets 302", ["lib/response.js::redirect"])
    stored = {d.id: d.anchors[0] for d in ledger.store.get_decisions([by_alias.id, canonical.id, onerror.id,
                                                                       redirect.id])}
    assert stored[by_alias.id].name == "module.exports.use"
    assert stored[by_alias.id].body_hash == stored[canonical.id].body_hash
    assert stored[onerror.id].name == "module.exports.onerror"
    assert stored[redirect.id].name == "module.exports.redirect"
    commonjs.replace("lib/application.js", "return this\n", "return this.middleware.length\n")
    commonjs.commit("use returns the count")
    assert ledger.verify(by_alias.id).status is Status.STALE
    assert ledger.verify(onerror.id).status is Status.VERIFIED
    assert ledger.verify(redirect.id).status is Status.VERIFIED


def test_an_accessor_pair_is_recorded_under_both_exact_names(commonjs, ledger):
    body = ledger.record("body is stored", ["lib/response.js::body"])
    cookies = ledger.record("cookies are kept", ["lib/context.js::proto.cookies"])
    stored = {d.id: [a.name for a in d.anchors] for d in ledger.store.get_decisions([body.id, cookies.id])}
    assert stored[body.id] == ["module.exports.get body", "module.exports.set body"]
    assert stored[cookies.id] == ["module.exports.get cookies", "module.exports.set cookies"]
    commonjs.replace("lib/context.js", "this[COOKIES] = jar", "this[COOKIES] = jar || null")
    commonjs.commit("the cookies setter changes")
    assert ledger.verify(cookies.id).status is Status.STALE
    assert ledger.verify(body.id).status is Status.VERIFIED


def test_a_name_the_exported_class_lacks_is_not_found(commonjs, ledger):
    with pytest.raises(memvet.AnchorNotFoundError, match=r"no symbol named Application\.close"):
        ledger.record("close stops", ["lib/application.js::Application.close"])


PROTOTYPES = """\
function Cookies (request, response) {
  this.request = request
}

Cookies.prototype.get = function (name, opts) {
  return this.request.headers.cookie
}

function get (name) {
  return name
}

class Cookie {
  toHeader () {
    return 'a=b'
  }
}

module.exports = Cookies
"""


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_a_method_is_found_with_or_without_prototype(language):
    table = symbol_table(PROTOTYPES.encode(), language)
    assert _names(table, "Cookies.get") == ["Cookies.prototype.get"]  # how a reader names it
    assert _names(table, "Cookies.prototype.get") == ["Cookies.prototype.get"]
    assert _names(table, "Cookie.prototype.toHeader") == ["Cookie.toHeader"]
    assert _names(table, "get") == ["get"]  # the bare name is the function's, not the method's
    assert _names(table, "Cookies.set") == []
    assert _names(table, "Cookie.prototype.missing") == []


def test_other_languages_have_no_prototype_twin():
    table = symbol_table(b"class Cookies:\n    class prototype:\n        def get(self):\n            return 1\n",
                         "python")
    assert _names(table, "Cookies.prototype.get") == ["Cookies.prototype.get"]
    assert _names(table, "Cookies.get") == []


def test_an_anchor_without_prototype_is_stored_under_the_prototype_name(repo, ledger):
    repo.write("index.js", PROTOTYPES, dedent=False)
    repo.commit("a constructor function with a prototype method")
    decision = ledger.record("Cookies.get reads the Cookie header", ["index.js::Cookies.get"])
    assert [a.name for a in ledger.store.get_decisions([decision.id])[0].anchors] == ["Cookies.prototype.get"]
    repo.replace("index.js", "return this.request.headers.cookie", "return this.request.headers.Cookie")
    repo.commit("the header's case")
    assert ledger.verify(decision.id).status is Status.STALE
