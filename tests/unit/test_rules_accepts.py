"""The accepts rule's fixture: an input said to be refused that an anchored pattern of the code takes whole."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.accepts import RULE

PARSE = EvidenceText("src/index.ts::parse", r"""
export function parse(str: string): number {
  const match =
    /^(?<value>-?\d*\.?\d+) *(?<unit>milliseconds?|ms|seconds?|s|minutes?|m|hours?|h|days?|d)?$/i.exec(str);
  return match ? Number(match.groups.value) : NaN;
}
""", language="typescript")
VERSION = EvidenceText("semver.py::parse", r"""
def parse(text):
    m = re.fullmatch(r"v?(\d+)\.(\d+)\.(\d+)", text)
    if m is None:
        raise ValueError(text)
""", language="python")
SEARCH = EvidenceText("slug.py::clean", r"""
def clean(text):
    return re.sub(r"[^a-z0-9]+", "-", text)
""", language="python")

METHOD = EvidenceText("src/request.js::Request", r"""
class Request {
  constructor(input, init = {}) {
    if (/^(delete|get|head|options|post|put)$/i.test(init.method)) {
      this.method = init.method.toUpperCase();
    }
  }
}
""", language="javascript")

FIRES = [
    ("A method of 'GET' is rejected.", METHOD),
    ("Units are case sensitive: '1H' or '2 Days' return NaN.", PARSE),
    ("Only one space is allowed, so '2  days' is NaN.", PARSE),
    ("A leading v is rejected: 'v1.2.3' raises ValueError.", VERSION),
    ("'v1.2.3' doesn't parse.", VERSION),
]

SILENT = [
    # a value of an example's call: the call is what throws
    ("`new Request(url, {method: 'GET', body: 'x'})` throws a TypeError.", METHOD),
    ("Units ignore case: '1H' and '2 Days' both work.", PARSE),
    ("'2 fortnights' returns NaN.", PARSE),
    ("'1.2' raises ValueError.", VERSION),
    # a pattern that is not anchored takes part of any text: no statement of a whole input
    ("'a b' is rejected.", SEARCH),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_pattern_line() -> None:
    assert fired("'v1.2.3' doesn't parse.", VERSION) == [
        "the claim says 'v1.2.3' doesn't parse; the code's pattern takes it, but semver.py::parse says "
        '`m = re.fullmatch(r"v?(\\d+)\\.(\\d+)\\.(\\d+)", text)`']
