"""The optin rule's fixture: "pass K=V to get X" where the signature already defaults K to V."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.optin import RULE

URL = EvidenceText("src/marshmallow/validate.py::URL.__init__", """\
    def __init__(
        self,
        *,
        relative: bool = False,
        absolute: bool = True,
        schemes: types.StrSequenceOrSet | None = None,
        require_tld: bool = True,
        error: str | None = None,
    ):
        self.relative = relative
""")
RANGE = EvidenceText("src/marshmallow/validate.py::Range.__init__", """\
    def __init__(self, min=None, max=None, *, min_inclusive: bool = True, max_inclusive: bool = True,
                 error: str | None = None):
        self.min = min
""")
FETCH = EvidenceText("src/request.js::Request.constructor", """\
  constructor(input, { compress = true, follow = 20, size = 0 } = {}) {
    this.compress = compress;
  }
""")
SESSION = EvidenceText("starlette/middleware/sessions.py::SessionMiddleware.__init__", """\
    def __init__(self, app, secret_key, session_cookie="session", max_age=DEFAULT_MAX_AGE,
                 https_only=False):
        self.app = app
""")
DOTENV = EvidenceText("lib/main.js::parse", """\
function parse (src, options) {
  if (options && parseBoolean(options.fast)) {
    return parseFast(src)
  }
  return parseRegex(src)
}
""")
STRICT = EvidenceText("lib/types/json.js::json", """\
function json (options) {
  var strict = options.strict !== false
  if (options.verify) { check() }
}
""")

POPULATE = EvidenceText("lib/main.js::populate", """\
function populate (processEnv, parsed, options = {}) {
  const override = Boolean(options && options.override)
  for (const key of Object.keys(parsed)) {
    if (override === true) { processEnv[key] = parsed[key] }
  }
}
""")

HSTS = EvidenceText("middlewares/strict-transport-security/index.ts::strictTransportSecurity", """\
function strictTransportSecurity (options = {}) {
  const directives = [`max-age=${maxAge}`];
  if (options.preload) {
    directives.push("preload");
  }
}
""")

FIRES = [
    ("validate.URL() accepts relative URLs out of the box; pass relative=False to require scheme and host.", URL),
    ("Range(min=0) excludes 0; pass `min_inclusive=True` if 0 should be allowed.", RANGE),
    ("Relative URLs are rejected unless you pass relative=False.", URL),
    ("To skip the TLD check you have to pass require_tld=True.", URL),
    ("compress is opt-in: unless you pass `compress: true` the body is handed back as-is.", FETCH),
    ("SessionMiddleware sets the secure flag; opt in with https_only=False for local http.", SESSION),
    # no default in a signature: the code only tests whether the option is set, so unset is off
    ("parse() uses the fast scanner now; pass `{ fast: false }` to get the regex parser back.", DOTENV),
    ("Verification runs on every body unless you pass `verify: false`.", STRICT),
    ("populate() overwrites existing keys; pass `override: false` to keep them.", POPULATE),
    ("populate() overwrites existing keys by default; pass override: false to keep them.", POPULATE),
    ("HSTS sends `preload` by default; set `preload: false` to leave it out.", HSTS),
]

SILENT = [
    ("validate.URL() rejects relative URLs; pass relative=True to allow them.", URL),
    ("Range includes both ends; pass min_inclusive=False to exclude the minimum.", RANGE),
    # negated: the writer says the default already does it
    ("There is no need to pass relative=False: it is the default.", URL),
    ("You don't have to pass `compress: true`.", FETCH),
    # no word of opting in: a statement, which the value rule reads
    ("URL is built with relative=False.", URL),
    # a default that is not a literal leaves it open
    ("pass max_age=DEFAULT_MAX_AGE to keep the default age.", SESSION),
    ("pass max_age=1209600 for two weeks.", SESSION),
    # a parameter the signature does not have
    ("pass strict=True to reject strings.", URL),
    # an option the code compares with false is on unless passed: passing false does something
    ("JSON is strict unless you pass `strict: false`.", STRICT),
    ("The regex parser is the default; pass `{ fast: true }` for the scanner.", DOTENV),
    ("populate() keeps existing keys; pass `override: true` to replace them.", POPULATE),
    ("HSTS leaves `preload` out; set `preload: true` to send it.", HSTS),
    # "set" in the middle of a statement is what the code does, not an instruction
    ("the middleware has set `preload: false` on its options.", HSTS),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_keyword_and_the_default():
    [line] = fired("Relative URLs are rejected unless you pass relative=False.", URL)
    assert line == ("the claim says to pass `relative=False`; the signature already defaults `relative` to "
                    "`False`, but src/marshmallow/validate.py::URL.__init__ says `relative: bool = False,`")


def test_a_declared_keyword_is_not_compared():
    assert contradictions("Relative URLs are rejected unless you pass relative=False.", [URL],
                          declared=["relative=False"], rules=[RULE]) == []


def test_an_option_only_tested_for_being_set_is_named_with_its_line():
    [line] = fired("parse() uses the fast scanner now; pass `{ fast: false }` to get the regex parser back.", DOTENV)
    assert line == ("the claim says to pass `{ fast: false }`; the code only tests whether `fast` is set, so it is "
                    "already off unless passed, but lib/main.js::parse says "
                    "`if (options && parseBoolean(options.fast)) {`")
