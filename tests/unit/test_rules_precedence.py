"""The precedence rule's fixture: which of two sources wins, both ways, in each code shape it reads."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.precedence import RULE

CHAIN = EvidenceText("utils.py::merge_environment", """\
def merge_environment(verify):
    if verify is True or verify is None:
        verify = (
            os.environ.get("REQUESTS_CA_BUNDLE")
            or os.environ.get("CURL_CA_BUNDLE")
            or verify
        )
    return verify
""")
LOOP = EvidenceText("compat.py::detector", """\
def detector():
    found = None
    for lib in ("chardet", "charset_normalizer"):
        if found is None:
            found = load(lib)
    return found
""")
MERGED_IN_TURN = EvidenceText("cli.py::load_dotenv", """\
def load_dotenv():
    data = {}
    for name in ("flaskenv", "dotenv"):
        data |= values(name)
    return data
""")
UPDATE = EvidenceText("client.py::Client.__init__", """\
    def __init__(self, proxy=None, mounts=None):
        proxy_map = self._get_proxy_map(proxy)
        self._mounts: dict[str, Transport] = {
            key: self._proxy_transport(proxy) for key, proxy in proxy_map.items()
        }
        if mounts is not None:
            self._mounts.update({key: transport for key, transport in mounts.items()})
""")
GUARD = EvidenceText("models.py::Response.encoding", """\
    @property
    def encoding(self):
        encoding = self.charset_encoding
        if encoding is None or not known(encoding):
            if isinstance(self.default_encoding, str):
                encoding = self.default_encoding
        return encoding or "utf-8"
""")
APP_RENDER = EvidenceText("lib/application.js::app.render", """\
app.render = function render(name, options, callback) {
  var opts = options || {};
  var renderOptions = { ...this.locals, ...opts._locals, ...opts };
  tryRender(view, renderOptions, done);
};
""")
RES_RENDER = EvidenceText("lib/response.js::res.render", """\
res.render = function render(view, options, callback) {
  var opts = options || {};
  var self = this;
  opts._locals = self.locals;
  app.render(view, opts, done);
};
""")
ACROSS = EvidenceText("x.py::f", "def f():\n    x = env('B')\n    x = x or env('A')\n")

TIMING = EvidenceText("src/retry-timing.ts::getRetryTimingHeader", """\
export const getRetryTimingHeader = (headers) => {
  const retryAfter = headers.get('Retry-After');
  if (retryAfter !== null) {
    return {value: retryAfter};
  }
  const rateLimitReset = headers.get('X-RateLimit-Reset');
  if (rateLimitReset !== null) {
    return {value: rateLimitReset};
  }
  const aliased = headers.get('X-RateLimit-Retry-After');
  return aliased === null ? undefined : {value: aliased};
};
""")
LOOKUP = EvidenceText("app/config.py::lookup", """\
def lookup(env, settings):
    value = env.get("APP_TOKEN")
    if value is not None:
        return value
    return settings.get("token")
""")

ACCEPT = EvidenceText("src/core/Ky.ts::Ky.create", """\
  static create(input, options) {
    const ky = new Ky(input, options);
    for (const [type, mimeType] of Object.entries(responseTypes)) {
      ky.request.headers.set('accept', ky.request.headers.get('accept') || mimeType);
    }
    ky.request.headers.set('x-trace', traceId);
    return ky;
  }
""")
DEFAULTED = EvidenceText("app/http.py::prepare", """\
def prepare(headers, body):
    headers.setdefault("Content-Type", "application/json")
    if "User-Agent" not in headers:
        headers["User-Agent"] = AGENT
""")

GIVE_UP = EvidenceText("retrying.py::Retrying.give_up", """\
def give_up(self, state):
    if self.error_callback:
        self.actions.append(self.error_callback)
        return
    if self.reraise:
        self.actions.append(reraise_last)
""")
GIVE_UP_JS = EvidenceText("lib/retry.js::giveUp", """\
function giveUp (state) {
  if (this.errorCallback) {
    return this.errorCallback(state)
  }
  if (this.reraise) {
    throw state.error
  }
}
""")

GETIP = EvidenceText("index.js::getip", """\
function getip (req) {
  return req.ip ||
    req._remoteAddress ||
    (req.connection && req.connection.remoteAddress) ||
    undefined
}
""")
TERNARY = EvidenceText("lib/request.js::hostname", """\
function hostname () {
  var offset = host[0] === '['
    ? host.indexOf(']') + 1
    : 0
  return host.substring(offset)
}
""")

LOG = EvidenceText("src/browser.js::exports.log", "exports.log = console.debug || console.log || (() => {});\n")

IF_CHAIN = EvidenceText("lib/stringify.js::normalizeStringifyOptions", """\
var normalizeStringifyOptions = function normalizeStringifyOptions(opts) {
    var arrayFormat;
    if (opts.arrayFormat in arrayPrefixGenerators) {
        arrayFormat = opts.arrayFormat;
    } else if ('indices' in opts) {
        arrayFormat = opts.indices ? 'indices' : 'repeat';
    } else {
        arrayFormat = defaults.arrayFormat;
    }
    return { arrayFormat: arrayFormat };
};
""", language="javascript")
ELIF = EvidenceText("app/config.py::pick", """\
def pick(explicit, env):
    if explicit is not None:
        value = explicit
    elif env:
        value = env
    else:
        value = DEFAULT
    return value
""", language="python")

DEFER = EvidenceText("index.js", """\
'use strict'

/* istanbul ignore next */
var defer = typeof setImmediate === 'function'
  ? setImmediate
  : function (fn) { process.nextTick(fn.bind.apply(fn, arguments)) }
""", language="javascript")
HSTS = EvidenceText("index.ts::getMiddlewareFunctionsFromOptions", """\
function getMiddlewareFunctionsFromOptions(options) {
  const strictTransportSecurityOption =
    options.strictTransportSecurity ?? options.hsts;
  return [strictTransportSecurityOption];
}
""", language="typescript")

ATOM_ID = EvidenceText("atom.go::newAtomEntry", """\
func newAtomEntry(i *Item) *AtomEntry {
	id := i.Id
	if len(id) == 0 {
		if len(link.Href) > 0 && (!i.Created.IsZero() || !i.Updated.IsZero()) {
			dateStr := anyTimeFormat("2006-01-02", i.Updated, i.Created)
			id = fmt.Sprintf("tag:%s,%s:%s", host, dateStr, path)
		}
	}
	return x
}
""", language="go")

DOTENV_CONFIG = EvidenceText("lib/main.js::configDotenv", """\
function configDotenv (options) {
  const debug = Boolean(options && options.debug)
  const quiet = options && 'quiet' in options ? options.quiet : true
  if (debug || !quiet) {
    _log(`injecting env (${keysCount}) from ${shortPaths.join(',')}`)
  }
  return { parsed: parsedAll }
}
""", language="javascript")

FIRES = [
    # round 23: "if both A and B are given, B wins" with no "over" (helmet f13)
    ("If someone passes both `hsts` and `strictTransportSecurity`, the legacy `hsts` key takes precedence.", HSTS),
    # round 23: a conditional over lines picks its first operand when it is there (on-finished f09)
    ("setImmediate is only the fallback for environments without nextTick.", DEFER),
    # round 14: a parenthesis that holds a code term is no aside: its term is the operand
    (":remote-addr prefers the raw socket address (`req.connection.remoteAddress`) over `req.ip`.", GETIP),
    # an if / else-if chain: the operand tested first wins
    ("If both are passed, `indices` wins over `arrayFormat`.", IF_CHAIN),
    ("env takes precedence over explicit.", ELIF),
    ("Output goes through `console.log`, falling back to `console.debug`.", LOG),
    # one statement over several lines, joined at its `||`
    ("getip prefers `req.connection.remoteAddress` over `req.ip`.", GETIP),
    ("req._remoteAddress takes precedence over req.ip in getip.", GETIP),
    # a guard on one operand alone that returns before the other is read
    ("reraise=True takes precedence over error_callback: the callback never runs.", GIVE_UP),
    ("reraise takes precedence over errorCallback.", GIVE_UP_JS),
    # set-if-absent: the code keeps a value already set, the claim says it is overwritten
    (".json() forces Accept: application/json, overriding any Accept header you passed.", ACCEPT),
    ("prepare sets JSON, overwriting any existing content-type header.", DEFAULTED),
    ("prepare sends its agent, replacing any User-Agent given.", DEFAULTED),
    # a chain of early returns: the first one found wins
    ("When both are sent, X-RateLimit-Reset overrides Retry-After.", TIMING),
    ("settings take precedence over APP_TOKEN.", LOOKUP),
    ("CURL_CA_BUNDLE takes precedence over REQUESTS_CA_BUNDLE.", [CHAIN]),
    ("CURL_CA_BUNDLE wins over REQUESTS_CA_BUNDLE.", [CHAIN]),
    ("CURL_CA_BUNDLE overrides REQUESTS_CA_BUNDLE.", [CHAIN]),
    ("REQUESTS_CA_BUNDLE is overridden by CURL_CA_BUNDLE.", [CHAIN]),
    ("merge_environment reads CURL_CA_BUNDLE, falling back to REQUESTS_CA_BUNDLE.", [CHAIN]),
    ("merge_environment prefers CURL_CA_BUNDLE over REQUESTS_CA_BUNDLE.", [CHAIN]),
    ("Detection prefers charset_normalizer and only falls back to chardet.", [LOOP]),
    ("Detection uses charset_normalizer, with chardet as fallback.", [LOOP]),
    ("proxy= overrides mounts=.", [UPDATE]),
    ("When a client sets default_encoding it takes over from the charset in Content-Type.", [GUARD]),
    ("the header charset is only used when no default_encoding is configured.", [GUARD]),
    ("`default_encoding` takes precedence over the `charset`.", [GUARD]),
    # app.locals is this.locals in app.render; res.locals reaches it as opts._locals
    ("When rendering, app.locals win over res.locals.", [APP_RENDER, RES_RENDER]),
    # one operand tested negated beside one that is not: the first still wins
    ("quiet wins over debug for the summary line.", DOTENV_CONFIG),
]

SILENT = [
    ("If someone passes both `hsts` and `strictTransportSecurity`, `strictTransportSecurity` wins.", HSTS),
    ("If both are given, `hsts` wins.", HSTS),  # "both" names neither: no loser to compare
    ("nextTick is only the fallback for environments without setImmediate.", DEFER),
    ("`arrayFormat` wins over `indices` when both are passed.", IF_CHAIN),
    ("explicit takes precedence over env.", ELIF),
    # the assignment's target (exports.log) is no operand of the chain
    ("Output goes through `console.debug`, falling back to `console.log`.", LOG),
    ("getip prefers `req.ip` over `req.connection.remoteAddress`.", GETIP),
    # a ternary's branches stay apart
    ("hostname prefers `host.indexOf` over `host.substring`.", TERNARY),
    ("error_callback takes precedence over reraise=True.", GIVE_UP),
    ("errorCallback takes precedence over reraise.", GIVE_UP_JS),
    (".json() sets Accept: application/json unless an Accept header was given.", ACCEPT),
    # the code sets this one unconditionally: overwriting is what it does
    ("create sets x-trace, overriding any x-trace header you passed.", ACCEPT),
    # a key the code does not name
    ("prepare sets JSON, overwriting any existing Accept header.", DEFAULTED),
    ("Retry-After takes precedence over X-RateLimit-Reset.", TIMING),
    ("APP_TOKEN takes precedence over the settings.", LOOKUP),
    # X-RateLimit-Retry-After is no Retry-After: the name is whole, hyphens and all
    ("X-RateLimit-Reset takes precedence over X-RateLimit-Retry-After.", TIMING),
    ("REQUESTS_CA_BUNDLE takes precedence over CURL_CA_BUNDLE.", [CHAIN]),
    ("merge_environment takes the bundle from REQUESTS_CA_BUNDLE, falling back to CURL_CA_BUNDLE.", [CHAIN]),
    ("Detection tries chardet first and falls back to charset_normalizer.", [LOOP]),
    ("mounts= overrides proxy= for matching patterns.", [UPDATE]),
    ("The charset in Content-Type takes precedence over default_encoding.", [GUARD]),
    ("default_encoding is only used when there is no charset.", [GUARD]),
    ("When rendering, res.locals win over app.locals.", [APP_RENDER, RES_RENDER]),
    # a loop that merges each in turn without stopping: the later wins, but nothing says so for sure
    ("dotenv takes precedence over flaskenv.", [MERGED_IN_TURN]),
    ("flaskenv takes precedence over dotenv.", [MERGED_IN_TURN]),
    # two statements of no known shape: which runs last is control flow the rule does not follow
    ("A takes precedence over B.", [ACROSS]),
    ("B takes precedence over A.", [ACROSS]),
    # only one side is in the code
    ("NO_PROXY takes precedence over CURL_CA_BUNDLE.", [CHAIN]),
    # a condition that tests either picks no value
    ("The tag date prefers Updated over Created.", ATOM_ID),
    ("debug wins over quiet for the summary line.", DOTENV_CONFIG),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_statement_that_picks_the_other_one():
    [line] = fired("proxy= overrides mounts=.", [UPDATE])
    assert line == ("the claim lets `proxy` win over `mounts` (overrides), but client.py::Client.__init__ says "
                    "`self._mounts.update({key: transport for key, transport in mounts.items()})`")
    [line] = fired("When rendering, app.locals win over res.locals.", [APP_RENDER, RES_RENDER])
    assert "`app.locals (self.locals)` win over `res.locals (opts._locals)` (win over)" in line
    assert line.endswith("says `var renderOptions = { ...this.locals, ...opts._locals, ...opts };`")
