"""The mapping rule's fixture: "V maps to S" where the switch branch for V writes another case's S."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.mapping import RULE

SAME_SITE = EvidenceText("src/index.ts::stringifySetCookie", """\
export function stringifySetCookie(cookie) {
  let str = cookie.name + "=" + cookie.value;
  if (cookie.sameSite) {
    switch (cookie.sameSite) {
      case true:
      case "strict":
        str += "; SameSite=Strict";
        break;
      case "lax":
        str += "; SameSite=Lax";
        break;
      case "none":
        str += "; SameSite=None";
        break;
      default:
        throw new TypeError("option sameSite is invalid");
    }
  }
  return str;
}
""")
LEVELS = EvidenceText("src/log.js::label", """\
function label(level) {
  switch (level) {
    case 10: return 'debug';
    case 20: return 'info';
    case 30: return 'warn';
  }
  return 'error';
}
""")

FIRES = [
    ("sameSite: true maps to `SameSite=Lax`, the browser default.", SAME_SITE),
    ("`sameSite: true` gives SameSite=None.", SAME_SITE),
    ("'strict' becomes `SameSite=Lax`.", SAME_SITE),
    ("Level 20 maps to 'debug'.", LEVELS),
    ("30 -> 'info'.", LEVELS),
]

SILENT = [
    ("sameSite: true maps to `SameSite=Strict`.", SAME_SITE),
    ("'lax' gives `SameSite=Lax`.", SAME_SITE),
    # an output no branch writes: the term rules decide
    ("sameSite: true maps to `SameSite=Default`.", SAME_SITE),
    # a value no label names
    ("'relaxed' maps to `SameSite=Lax`.", SAME_SITE),
    ("Level 40 maps to 'debug'.", LEVELS),
    ("Level 30 maps to 'warn'.", LEVELS),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_value_the_output_and_the_label():
    [line] = fired("sameSite: true maps to `SameSite=Lax`.", SAME_SITE)
    assert line == ("the claim maps `true` to `SameSite=Lax`; the code writes that for another case, but "
                    "src/index.ts::stringifySetCookie says `case true:`")


def test_a_declared_output_is_not_compared():
    assert contradictions("sameSite: true maps to `SameSite=Lax`.", [SAME_SITE], declared=["SameSite=Lax"],
                          rules=[RULE]) == []
