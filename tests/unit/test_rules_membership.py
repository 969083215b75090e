"""The membership rule's fixture: lists of values a test lets through, exclusive and inclusive."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.membership import RULE

FRESH = EvidenceText("lib/request.js", """\
defineGetter(req, 'fresh', function(){
  var method = this.method;
  // GET, HEAD, or QUERY for weak freshness validation only
  if ('GET' !== method && 'HEAD' !== method && 'QUERY' !== method) return false;
  return fresh(this.headers, {'etag': this.res.get('ETag')});
});
""")
PREPARE = EvidenceText("models.py::Request._prepare", """\
    def _prepare(self):
        auto_headers = []
        has_content_length = "Content-Length" in self.headers
        if not has_content_length and self.method in ("POST", "PUT", "PATCH"):
            auto_headers.append((b"Content-Length", b"0"))
        self.headers = Headers(auto_headers + self.headers.raw)
""")
SCHEMES = EvidenceText("transport.py::Transport.__init__", """\
    def __init__(self, proxy):
        if proxy.url.scheme in ("socks5", "socks5h"):
            self._pool = SOCKSProxy(proxy)
        elif proxy.url.scheme in ("http", "https"):
            self._pool = HTTPProxy(proxy)
""")

PAYLOAD_METHODS = EvidenceText("src/utils.ts::payloadMethods", """\
const payloadMethods = new Set(
  Object.freeze(["PATCH", "POST", "PUT", "DELETE"])
);
""")

RC_PARSE = EvidenceText("src/index.ts::parse", """\
export function parse(contents: string): RC {
  const config: RC = {};
  for (const line of contents.split(RE_LINES)) {
    const key = line.split("=")[0];
    if (!key || key === "__proto__" || key === "constructor") {
      continue;
    }
    config[key] = line.slice(key.length + 1);
  }
  return config;
}
""")

EXTENSIONS = EvidenceText("src/loader.ts::SUPPORTED_EXTENSIONS", """\
export const SUPPORTED_EXTENSIONS = Object.freeze([
  ".js",
  ".ts",
  ".json",
  ".yaml",
  ".toml",
] as const);
""")
ESCAPES = EvidenceText("src/tomli/_parser.py", """\
BASIC_STR_ESCAPE_REPLACEMENTS: Final = MappingProxyType(
    {
        "\\\\b": "\\u0008",  # backspace
        "\\\\e": "\\u001b",  # escape
    }
)
""")


FIRES = [
    # round 32 (c12 f10, pkg-types f07, tomli f12): a word the claim says a named collection lacks, which it has
    ("TOML isn't in SUPPORTED_EXTENSIONS (only js/ts variants, json, yaml) -- need a custom import.", EXTENSIONS),
    ("the newer `.toml` is not listed in `SUPPORTED_EXTENSIONS`.", EXTENSIONS),
    ("tomli is strict: `\\e` isn't in BASIC_STR_ESCAPE_REPLACEMENTS, so it raises.", ESCAPES),
    # round 28 (rc9 f14): the subject first ("Only X is ..."), a verb of leaving out, keys of one shape
    ("Only `__proto__` is blocked in parse(); a `constructor=...` line is kept as a normal key.", RC_PARSE),
    ("parse() only skips `__proto__` keys.", RC_PARSE),
    # round 15: an exclusive list against the definition of the name the claim gives
    ("`payloadMethods` is only POST, PUT and PATCH -- DELETE is treated like GET.", PAYLOAD_METHODS),
    ("req.fresh only considers GET and HEAD; any other method is never fresh.", FRESH),
    ("req.fresh only accepts 'GET' and 'HEAD'.", FRESH),
    ("Request._prepare adds Content-Length: 0 to every request without a body, GET and HEAD included.", PREPARE),
    ("Content-Length: 0 is added to bodiless requests, including GET and HEAD.", PREPARE),
]

SILENT = [
    # round 32: a word the collection lacks, a condition, a pronoun, a name written as prose
    ("INI isn't in SUPPORTED_EXTENSIONS.", EXTENSIONS),
    ("if the extension isn't in SUPPORTED_EXTENSIONS the file is skipped, e.g. TOML.", EXTENSIONS),
    ("toml is supported; it isn't in the docs though.", EXTENSIONS),
    ("TOML is not in there.", EXTENSIONS),
    ("`\\x` isn't in BASIC_STR_ESCAPE_REPLACEMENTS, so it raises.", ESCAPES),
    # round 28: both of the code's literals, and a list of prose words
    ("parse() only skips `__proto__` and `constructor` keys.", RC_PARSE),
    ("Only empty keys are skipped.", RC_PARSE),
    # round 15: the definition's own members; a list said of another name
    ("`payloadMethods` is only PATCH, POST, PUT and DELETE.", PAYLOAD_METHODS),
    ("retries go only to POST, PUT and PATCH.", PAYLOAD_METHODS),
    ("req.fresh only considers GET, HEAD and QUERY.", FRESH),
    ("Request._prepare adds Content-Length: 0 only for POST, PUT and PATCH requests without a body.", PREPARE),
    ("Content-Length: 0 is added for POST and PUT, PATCH included.", PREPARE),
    ("Transport only handles socks5 and socks5h with SOCKSProxy.", SCHEMES),
    # prose lists and words the code has as no literal
    ("req.fresh only looks at the headers and the status.", FRESH),
    ("Request._prepare sets Host, including the port.", PREPARE),
    ("Transport only supports socks4 and socks5.", SCHEMES),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_other_literals():
    [line] = fired("req.fresh only considers GET and HEAD.", FRESH)
    assert line == ("the claim says `only considers GET and HEAD`; the code's test also names `QUERY`, but "
                    "lib/request.js says `if ('GET' !== method && 'HEAD' !== method && 'QUERY' !== method) "
                    "return false;`")


def test_the_absent_word_s_finding_names_the_literal():
    [line] = fired("TOML isn't in SUPPORTED_EXTENSIONS.", EXTENSIONS)
    assert line == ("the claim says `TOML isn't in SUPPORTED_EXTENSIONS`; the code's `SUPPORTED_EXTENSIONS` has "
                    "`.toml`, but src/loader.ts::SUPPORTED_EXTENSIONS says `\".toml\",`")
