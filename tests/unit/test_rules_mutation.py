"""The mutation rule's fixture: a function said to leave what it is given as it was, where the code changes
that parameter in place."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.mutation import RULE

SIGNED = EvidenceText("index.js::signedCookies", """\
function signedCookies (obj, secret) {
  var cookies = Object.keys(obj)
  var ret = Object.create(null)
  for (var i = 0; i < cookies.length; i++) {
    var key = cookies[i]
    var dec = signedCookie(obj[key], secret)
    if (obj[key] !== dec) {
      ret[key] = dec
      delete obj[key]
    }
  }
  return ret
}
""", language="javascript")
JSON_COOKIES = EvidenceText("index.js::JSONCookies", """\
function JSONCookies (obj) {
  var cookies = Object.keys(obj)
  for (var i = 0; i < cookies.length; i++) {
    var val = JSONCookie(obj[cookies[i]])
    if (val) {
      obj[cookies[i]] = val
    }
  }
  return obj
}
""", language="javascript")
COMPILE = EvidenceText("index.js::compile", """\
function compile (val) {
  var trust
  if (typeof val === 'string') {
    trust = [val]
  } else {
    trust = val.slice()
  }
  for (var i = 0; i < trust.length; i++) {
    trust.splice.apply(trust, [i, 1].concat(IP_RANGES[trust[i]]))
  }
  return compileTrust(compileRangeSubnets(trust))
}
""", language="javascript")
MERGE = EvidenceText("app/merge.py::merge", """\
def merge(base, extra):
    out = dict(base)
    out.update(extra)
    return out
""", language="python")
ADD = EvidenceText("app/merge.py::add_all", """\
def add_all(items, more):
    items.extend(more)
    return items
""", language="python")
DEFAULT = EvidenceText("grammar.py::Grammar.default", """\
    def default(self, rule_name):
        new = self._copy()
        new.default_rule = new[rule_name]
        self.hits += 1
        return new
""", language="python")
GO_SET = EvidenceText("cache.go::cache.Set", """\
func (c *cache) Set(m map[string]int, k string) {
	m[k] = 1
}
""", language="go")

EXTEND = EvidenceText("voluptuous/schema_builder.py::Schema.extend", """\
    def extend(self, schema, required=None):
        result = self.schema.copy()
        for key, value in schema.items():
            result[key] = value
        return type(self)(result, required=required)
""", language="python")

FIRES = [
    ("signedCookies(obj, secret) is pure - obj keeps its s: entries.", SIGNED),
    ("JSONCookies copies into a fresh object and never mutates the one you pass in.", JSON_COOKIES),
    ("JSONCookies leaves obj untouched.", JSON_COOKIES),
    ("add_all doesn't modify items; it returns a new list.", ADD),
    ("The input is left unchanged by add_all.", ADD),
    # the other way: the claim says it changes what it copies
    ("Heads-up: compile() mutates the array you pass -- it splices into `val` without copying.", COMPILE),
    ("Schema.extend() writes the new keys into self.schema directly, so the base schema changes too.", EXTEND),
    ("merge modifies base.", MERGE),
]

SILENT = [
    ("signedCookies removes the signed entries from obj.", SIGNED),
    ("JSONCookies parses the j: values in place.", JSON_COOKIES),
    # the parameter is rebound to a copy first; a copy is changed, not the argument
    ("compile() copies the input with val.slice(), so the array you pass in is left untouched.", COMPILE),
    ("merge never mutates base: it copies it and updates the copy.", MERGE),
    # the receiver is the method's own to change
    ("default doesn't mutate the grammar: it sets default_rule on a copy.", DEFAULT),
    # another parameter, a condition, a function that is not the anchored one, Go
    ("add_all never mutates more.", ADD),
    ("If you pass a frozen list, add_all leaves items untouched.", ADD),
    ("merge is pure.", ADD),
    ("Set never mutates m.", GO_SET),
    ("add_all mutates items.", ADD),
    ("JSONCookies modifies obj.", JSON_COOKIES),
    ("merge never modifies base.", MERGE),
    ("Schema.extend() writes the new keys into result directly.", EXTEND),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)
