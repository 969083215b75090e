"""The ternary rule's fixture: an output given for a switch set one way that the code's choice gives the other way."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.ternary import RULE

REGEXP = EvidenceText("src/index.ts::pathToRegexp", """\
export function pathToRegexp(path, options = {}) {
  const { sensitive = false, end = true } = options;
  return { regexp: new RegExp(pattern, sensitive ? "" : "i"), keys };
}
""")
SEPARATOR = EvidenceText("src/humanize/number.py::intcomma", """\
def intcomma(value, ndigits=None, *, dot=False):
    sep = "." if dot else ","
    return sep.join(groups)
""")
NEGATED = EvidenceText("lib/log.js::line", """\
function line (opts) {
  var prefix = !opts.color ? '' : '\\u001b[31m'
  return prefix
}
""")

FIRES = [
    ('When `sensitive: true` the regex is built with the "i" flag.', REGEXP),
    ("With `dot=True` the groups are joined with ','.", SEPARATOR),
    ("With `dot=False` the thousands separator is '.'.", SEPARATOR),
    ("`color: false` prefixes the line with '\\u001b[31m'.", NEGATED),
]

SILENT = [
    ('The RegExp gets the "i" flag unless you pass `sensitive: true`, in which case no flags at all.', REGEXP),
    ('With `sensitive: false` the "i" flag is set.', REGEXP),
    ("With `dot=True` the groups are joined with '.'.", SEPARATOR),
    # no choice on the switch in the code
    ('With `end: false` the "i" flag is set.', REGEXP),
    # an output neither branch gives
    ("With `dot=True` the groups are joined with ';'.", SEPARATOR),
    # an output the claim negates is not read ("no "i" flag")
    ('The RegExp has no "i" flag unless you pass `sensitive: true`.', REGEXP),
    # no switch written as a setting: prose is the value rule's
    ('Case-sensitive matching drops the "i" flag.', REGEXP),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_both_branches() -> None:
    [line] = fired('When `sensitive: true` the regex is built with the "i" flag.', REGEXP)
    assert line == ('the claim gives "i" with `sensitive` set; the code gives "" then and "i" otherwise, but '
                    'src/index.ts::pathToRegexp says `return { regexp: new RegExp(pattern, sensitive ? "" : "i"), '
                    'keys };`')


def test_a_declared_switch_is_not_compared() -> None:
    assert contradictions('When `sensitive: true` the regex is built with the "i" flag.', [REGEXP],
                          declared=["sensitive: true"], rules=[RULE]) == []
