"""Legacy JavaScript: functions named by assignment targets, mixins, IIFEs.

The fixtures copy the shapes of real libraries (Express 4's router and
response, Backbone's `_.extend(Model.prototype, ...)`, jQuery's AMD modules
and `jQuery.fn.extend`, Underscore's chained aliases); the bodies are ours.
"""

from __future__ import annotations

import pytest

from memvet._code import parse_file, symbol_table

# Express 4 style: a CommonJS module whose methods hang off `proto`, with
# inner helpers that share names across methods.
EXPRESS_ROUTER = """\
'use strict';
var Route = require('./route');

var proto = module.exports = function(options) {
  var opts = options || {};
  function router(req, res, next) {
    router.handle(req, res, next);
  }
  return router;
};

proto.param = function param(name, fn) {
  if (typeof name === 'function') {
    return this;
  }
  function done(err) { return err; }
  return done;
};

proto.handle = function handle(req, res, out) {
  var self = this;
  function done(err) { return out(err); }
  function next(err) {
    var layerError = err === 'route' ? null : err;
    return done(layerError);
  }
  next();
};

exports.process_params = function process_params(layer, called, req, res, done) {
  function param(err) { return done(err); }
  param();
};

exports["route.match"] = () => true;
module.exports.VERSION = "4.0.0";
"""

# Backbone style: a UMD factory (an anonymous function passed as an
# argument) whose classes get their methods through `_.extend`.
BACKBONE = """\
(function(factory) {
  var root = typeof self == 'object' ? self : global;
  root.Backbone = factory(root, {}, root._);
})(function(root, Backbone, _) {
  var Events = Backbone.Events = {};
  Events.on = function(name, callback, context) {
    return this;
  };

  var Model = Backbone.Model = function(attributes, options) {
    this.attributes = {};
  };

  _.extend(Model.prototype, Events, {
    initialize: function() {},
    parse: function(resp, options) {
      return resp;
    },
    fetch: function(options) {
      options.success = function(resp) { return resp; };
    }
  });

  var Collection = Backbone.Collection = function(models, options) {};

  _.extend(Collection.prototype, Events, {
    initialize: function() {},
    parse: function(resp, options) {
      return resp;
    },
    fetch: function(options) {
      options.success = function(resp) { return resp; };
    }
  });

  var extend = function(protoProps, staticProps) {
    var child = function() { return parent.apply(this, arguments); };
    return child;
  };
  Model.extend = Collection.extend = extend;
  return Backbone;
});
"""

# jQuery 3 style: an AMD module whose body is an anonymous callback.
JQUERY_ATTR = """\
define([
  "../core",
  "../core/access"
], function(jQuery, access) {
"use strict";

jQuery.fn.extend({
  attr: function(name, value) {
    return access(this, jQuery.attr, name, value, arguments.length > 1);
  },
  removeAttr: function(name) {
    return this.each(function() {
      jQuery.removeAttr(this, name);
    });
  }
});

jQuery.extend({
  attr: function(elem, name, value) {
    return elem.getAttribute(name);
  },
  attrHooks: {
    type: {
      set: function(elem, value) { return value; }
    }
  },
  removeAttr: function(elem, value) {
    elem.removeAttribute(value);
  }
});

} );
"""

# Underscore 1.8 style: an IIFE, chained aliases, prototype assignment.
UNDERSCORE = """\
(function() {
  var root = this;
  var _ = function(obj) {
    if (obj instanceof _) return obj;
    this._wrapped = obj;
  };
  _.each = _.forEach = function(obj, iteratee, context) {
    return obj;
  };
  _.prototype.value = function() {
    return this._wrapped;
  };
  function Parser(options) {
    function parse(text) { return text; }
    this.parse = function(text) { return parse(text); };
  }
  Parser.prototype.parse = function(text) {
    return this.parse(text);
  };
  obj[computed] = function() {};
}.call(this));
"""


def names(src: str, lang: str = "javascript") -> list[str]:
    return list(symbol_table(src.encode(), lang).symbols)


def test_express_assignment_targets_name_functions_and_their_helpers():
    t = symbol_table(EXPRESS_ROUTER.encode(), "javascript")
    assert list(t.symbols) == [
        "Route",
        "proto",
        "module.exports",
        "module.exports.router",
        "proto.param",
        "proto.param.done",
        "proto.handle",
        "proto.handle.done",
        "proto.handle.next",
        "exports.process_params",
        "exports.process_params.param",
        'exports."route.match"',
        "module.exports.VERSION",
    ]
    # Three helpers called `done` and two functions called `param`: every one
    # has a name of its own, and a short name is not ambiguous.
    assert [s.qualname for s in t.lookup("proto.handle.done")] == ["proto.handle.done"]
    assert t.symbols["proto.param"].kind == "function"
    assert t.symbols["module.exports.VERSION"].kind == "variable"
    handle = t.symbols["proto.handle"]
    assert (handle.start_line, handle.end_line) == (20, 28)


def test_backbone_mixins_name_methods_by_the_extended_prototype():
    t = symbol_table(BACKBONE.encode(), "javascript")
    assert list(t.symbols) == [
        "Events.on",
        "Model",
        "Backbone.Model",
        "Model.prototype.initialize",
        "Model.prototype.parse",
        "Model.prototype.fetch",
        "Model.prototype.fetch.options.success",
        "Collection",
        "Backbone.Collection",
        "Collection.prototype.initialize",
        "Collection.prototype.parse",
        "Collection.prototype.fetch",
        "Collection.prototype.fetch.options.success",
        "extend",
        "extend.child",
    ]
    kinds = {q: s.kind for q, s in t.symbols.items()}
    assert kinds["Model"] == kinds["Backbone.Model"] == "function"
    assert kinds["Model.prototype.parse"] == "method"
    # `var Events = Backbone.Events = {}` inside the factory is a chain
    # ending in an object, not a function: it names nothing.
    assert t.lookup("Events") == t.lookup("Backbone.Events") == []


def test_jquery_extend_statements_name_static_and_fn_members_apart():
    assert names(JQUERY_ATTR) == [
        "jQuery.fn.attr",
        "jQuery.fn.removeAttr",
        "jQuery.attr",
        "jQuery.attrHooks.type.set",
        "jQuery.removeAttr",
    ]


def test_underscore_iife_chained_aliases_and_this_members():
    t = symbol_table(UNDERSCORE.encode(), "javascript")
    assert list(t.symbols) == [
        "_",
        "_.each",
        "_.forEach",
        "_.prototype.value",
        "Parser",
        "Parser.parse",
        "Parser.this.parse",
        "Parser.prototype.parse",
    ]
    kinds = {q: s.kind for q, s in t.symbols.items()}
    assert kinds["Parser.this.parse"] == kinds["Parser.prototype.parse"] == kinds["_.prototype.value"] == "method"
    assert kinds["_.each"] == kinds["Parser.parse"] == "function"
    # Both aliases cover the function: a body edit changes both hashes.
    edited = symbol_table(UNDERSCORE.replace("return obj;", "return obj || [];").encode(), "javascript")
    for q in ("_.each", "_.forEach"):
        assert edited.symbols[q].hash != t.symbols[q].hash
    assert edited.symbols["Parser.prototype.parse"].hash == t.symbols["Parser.prototype.parse"].hash


def test_value_bindings_below_the_top_level_name_scopes():
    src = """\
function setup() {
  const api = { get() { return 1; } };
  var View = Base.extend({ render: function () {} });
}
const Top = Base.extend({ render() {} });
"""
    assert names(src) == ["setup", "setup.api.get", "setup.View.render", "Top", "Top.render"]


def test_mixin_forms():
    src = """\
Object.assign(Widget.prototype, { draw() {} });
extend(Shape, Base, { area: function () { return 0; } });
$.extend(true, target, { skipped: function () {} });
var merged = jQuery.extend({ used: function () {} });
jQuery.each(list, function () { jQuery.fn[name] = function () {}; });
"""
    # `$.extend(true, ...)`: the first argument is no name, so the members
    # keep their plain names; a used `extend` result binds to its variable.
    assert names(src) == ["Widget.prototype.draw", "Shape.area", "skipped", "merged", "merged.used"]
    # jQuery 4's effects.js: a mixin whose result is bound names by its
    # target, not by the binding; an object assigned to a plain name is a scope.
    bound = """\
jQuery.Animation = jQuery.extend( Animation, { tweener: function( props, callback ) {} } );
function init() {
  boolHook = { set: function( elem, value, name ) { return name; } };
}
"""
    assert names(bound) == ["jQuery.Animation", "Animation.tweener", "init", "init.boolHook.set"]


def test_short_names_are_ambiguous_only_when_they_are():
    t = symbol_table(BACKBONE.encode(), "javascript")
    assert [s.qualname for s in t.lookup("Model.prototype.parse")] == ["Model.prototype.parse"]
    assert t.lookup("parse") == []  # no symbol is called just `parse`
    dup = symbol_table(b"a.b = function (x) {};\na.b = function (y) {};\n", "javascript")
    assert [s.qualname for s in dup.lookup("a.b")] == ["a.b(x)", "a.b(y)"]


def test_deleting_one_parse_leaves_the_other_untouched():
    t = symbol_table(BACKBONE.encode(), "javascript")
    start = BACKBONE.index("    parse: function(resp, options) {", BACKBONE.index("Model.prototype"))
    end = BACKBONE.index("    fetch:", start)
    gone = symbol_table((BACKBONE[:start] + BACKBONE[end:]).encode(), "javascript")
    assert "Model.prototype.parse" not in gone.symbols
    assert gone.symbols["Collection.prototype.parse"].hash == t.symbols["Collection.prototype.parse"].hash


def test_renamed_assignment_keeps_its_shape():
    before = symbol_table(b"Watcher.prototype.onChange = function (e) { return e.path; };\n", "javascript")
    after = symbol_table(b"Watcher.prototype.onChanged = function (e) { return e.path; };\n", "javascript")
    old, new = before.symbols["Watcher.prototype.onChange"], after.symbols["Watcher.prototype.onChanged"]
    assert old.hash != new.hash
    assert old.shape == new.shape


def test_single_symbol_lookup_matches_the_table():
    for src in (EXPRESS_ROUTER, BACKBONE, JQUERY_ATTR, UNDERSCORE):
        table = symbol_table(src.encode(), "javascript")
        for q, sym in table.symbols.items():
            assert parse_file(src.encode(), "javascript").symbol(q) == sym, q


@pytest.mark.parametrize("lang", ["typescript", "tsx"])
def test_typescript_gets_the_same_rules(lang):
    src = """\
export class Store {
  save(item: string): string { return item; }
}
Store.prototype.load = function (this: Store, id: number): string { return String(id); };
exports.make = (n: number): Store => new Store();
_.extend(Store.prototype, { reset(): void {} });
"""
    assert names(src, lang) == ["Store", "Store.save", "Store.prototype.load", "exports.make",
                                "Store.prototype.reset"]
