"""Binding the way people write: one test per binding class, each both ways.

Each class is a rule of :mod:`memvet._claims` that lets a term bind when the
code says it the way people write it (``Redis`` for ``redis``, ``kw=True``
for a parameter ``kw: bool = False``, a message with placeholders for a
string the code formats), and each test also shows the same term unbound
when the code does not say it. Values bind to code only: a docstring or a
comment never supports a number, a string or a quote, and an absence rule
supports a term only where the claim negates it. The fixture code follows
httpx and Express, whose facts calibrated these classes.
"""

from __future__ import annotations

import os
import re
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_claims import SOURCES, _calls
from test_rules_order import GET_EDITOR

import memvet
from memvet._claims import _STRING_TOKEN, EvidenceText, Term, TermKind, bind, claim_terms, code_only, find_quote


def ev(label: str, text: str, **options: object) -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its code."""
    name = label.split("::", 1)[-1]
    return EvidenceText(label, textwrap.dedent(text), (label, name), **options)  # type: ignore[arg-type]


def mentioned(term: Term) -> bool:
    """The repository mentions every name in prose (and has nothing else the evidence lacks)."""
    return term.kind is TermKind.PROPER


def unbound(claim: str, *evidence: EvidenceText, exists: object = None) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence), exists=exists)]  # type: ignore[arg-type]


def kinds(claim: str) -> list[tuple[str, str]]:
    return [(t.text, t.kind.value) for t in claim_terms(claim)]


SEND = ev("httpx/_client.py::Client.send", '''\
    def send(self, request, *, stream: bool = False, follow_redirects: bool = False,
             retries: int = 0, verify: ssl.SSLContext | str | bool = True):
        """Send a request.

        Set verify to "/etc/ssl/ca.pem" to pin a bundle; retries up to 5 times.
        """
        if self.closed:
            raise RuntimeError("Cannot send a request, as the client has been closed.")
        # the default limit is 20 redirects
        response = self._send(request, follow_redirects=follow_redirects)
        if verify is False:
            self.warn()
        if not stream:
            response.read()
        return response
    ''')


# ------------------------------------------------------------------ names ignore case


def test_a_product_name_binds_to_its_identifier_module_or_dependency_in_any_case():
    dep = EvidenceText("redis>=4", "redis>=4\nredis>=4", ("redis>=4", "redis", "requirements.txt"))
    assert unbound("Caching goes through `Redis`", dep) == []
    assert unbound("Caching goes through `Memcached`", dep) == ["Memcached"]
    dumps = ev("app/enc.py::dump", "def dump(x):\n    return json.dumps(x, allow_nan=False)\n")
    assert unbound("dump refuses NaN", dumps) == []
    assert unbound("dump refuses NaN", ev("app/enc.py::dump", "def dump(x):\n    return json.dumps(x)\n")) == ["NaN"]
    traced = ev("app/net.py::send", "def send(r):\n    return r\n", imports=("opentelemetry.trace",))
    assert unbound("send is traced with OpenTelemetry", traced) == []
    assert unbound("send is traced with OpenTelemetry", ev("app/net.py::send", "def send(r):\n    return r\n")) \
        == ["OpenTelemetry"]


def test_a_constant_keeps_its_case():
    # NO_PROXY binds to the string "no_proxy" the code looks up, never to a variable no_proxy.
    code = ev("app/env.py::proxies", 'def proxies(env):\n    no_proxy = env.get("no_proxy")\n    return no_proxy\n')
    assert unbound("proxies honours NO_PROXY", code) == []
    code = ev("app/env.py::proxies", "def proxies(no_proxy):\n    return no_proxy\n")
    assert unbound("proxies honours NO_PROXY", code) == ["NO_PROXY"]


def test_a_protocol_and_its_version_fold_to_a_name():
    assert kinds("HTTP/2 is opt-in") == [("HTTP/2", "identifier")]
    client = ev("httpx/_client.py::Client.__init__", "def __init__(self, http2: bool = False):\n    pass\n")
    assert unbound("HTTP/2 is opt-in", client) == []
    assert unbound("HTTP/3 is opt-in", client) == ["HTTP/3"]


def test_a_module_the_file_imports_binds_when_named_in_prose():
    code = ev("app/enc.py::dump", "def dump(x):\n    return jsonlib.dumps(x)\n", imports=("json", "http.client"))
    assert unbound("dump uses the stdlib `json` and `http.client`", code) == []
    assert unbound("dump uses `orjson` and `http.server`", code) == ["orjson", "http.server"]


def test_a_module_named_in_prose_is_read_from_the_anchored_file(repo, ledger):
    repo.write("app/enc.py", """\
        import json as jsonlib


        def dump(x):
            return jsonlib.dumps(x)
        """)
    repo.commit("enc")
    anchors = ledger.resolve_anchors(["app/enc.py::dump"])
    assert ledger.bind_claim("dump writes with the stdlib `json` module", anchors) == ()
    with pytest.raises(memvet.UnboundClaimError, match="`orjson`"):
        ledger.bind_claim("dump writes with `orjson`", anchors)


# ------------------------------------------------------------------ keywords


def test_a_keyword_binds_to_a_boolean_parameter_or_a_condition():
    assert unbound("pass follow_redirects=True to follow them", SEND) == []
    assert unbound("verify=True checks certificates and verify=False does not", SEND) == []
    assert unbound("stream=False reads the body", SEND) == []
    # A number is a value: the code must write it.
    assert unbound("retries=0 by default", SEND) == []
    assert unbound("retries=1 by default", SEND) == ["retries=1"]
    # A boolean for a parameter the code does not have, or does not decide on.
    assert unbound("pass trust_env=True", SEND) == ["trust_env=True"]
    cookie = ev("lib/response.js::res.cookie", """\
        res.cookie = function (name, value, options) {
          var opts = { ...options };
          var signed = opts.signed;
          if (signed && !this.req.secret) {
            throw new Error('cookieParser("secret") required for signed cookies');
          }
        };
        """)
    assert unbound("signed=true needs a secret", cookie) == []
    assert unbound("httpOnly=true is set", cookie) == ["httpOnly=true"]


def test_an_environment_or_table_assignment_binds_as_name_equals_value():
    env = ev("app/boot.py::boot", 'def boot():\n    os.environ["MODE"] = "fast"\n    flags = {"secure": False}\n')
    assert unbound("boot sets MODE=fast and secure=False", env) == []
    assert unbound("boot sets MODE=slow", env) == ["MODE=slow"]
    assert unbound("boot sets secure=True", env) == ["secure=True"]
    config = ev("lib/application.js::app.defaultConfiguration", """\
        app.defaultConfiguration = function defaultConfiguration() {
          var env = process.env.NODE_ENV || 'development';
          if (env === 'production') {
            this.enable('view cache');
          }
        };
        """)
    assert unbound("with NODE_ENV=production the view cache is on", config) == []
    assert unbound("with NODE_ENV=staging the view cache is on", config) == ["NODE_ENV=staging"]


def test_a_keyword_binds_to_the_value_the_code_passes_for_that_parameter():
    send = ev("lib/response.js::res.send", "res.send = function send(body) {\n"
                                           "  this.set('Content-Type', setCharset(type, 'utf-8'));\n};\n")
    charset = ev("lib/utils.js::exports.setCharset", """\
        exports.setCharset = function setCharset(type, charset) {
          parsed.parameters.charset = charset;
          return format(parsed);
        };
        """)
    assert unbound("a string body gets charset=utf-8", send, charset) == []
    assert unbound("a string body gets charset=latin-1", send, charset) == ["charset=latin-1"]


# ------------------------------------------------------------------ calls


REDIRECT = ev("lib/response.js::res.redirect", """\
    res.redirect = function redirect(url) {
      var address = url;
      var status = 302;
      if (arguments.length === 2) {
        status = arguments[0];
        address = arguments[1];
      }
      this.status(status);
    };
    """)

SET = ev("lib/application.js::app.set", """\
    app.set = function set(setting, val) {
      this.settings[setting] = val;
      switch (setting) {
        case 'trust proxy':
          this.set('trust proxy fn', compileTrust(val));
          break;
      }
      return this;
    };
    """)


def test_an_example_call_binds_to_the_definition_it_fits():
    assert unbound("pass the status first, res.redirect(301, url), for a permanent one", REDIRECT) == []
    # The reader's own variable is the reader's (round 7); a callee the code does not define is not this code.
    assert unbound("res.redirect(301, link) redirects", REDIRECT) == []
    assert unbound("res.redirectTo(301, link) redirects", REDIRECT) == ["res.redirectTo(301, link)"]
    # A value for a parameter the code compares with values must be one of them.
    assert unbound("app.set('trust proxy', N) trusts N hops", SET) == []
    assert unbound("app.set('trust proxies', N) trusts N hops", SET) == ["app.set('trust proxies', N)"]
    # More arguments than the definition takes.
    assert unbound("app.set('trust proxy', N, true) trusts N hops", SET) == ["app.set('trust proxy', N, true)"]


def test_a_call_the_code_makes_must_match_it_and_an_example_does_not_override_it():
    code = ev("httpx/_multipart.py::MultipartStream.__init__", "def __init__(self):\n"
                                                                "    self.boundary = os.urandom(16).hex()\n")
    assert unbound("the boundary is os.urandom(16).hex()", code) == []
    assert unbound("the boundary is os.urandom(32).hex()", code, exists=lambda term: True) == ["os.urandom(32).hex()"]


def test_a_call_on_another_receiver_is_not_the_code_s_call():
    # res.json calls this.set (res.set): app.set(...) is not that call; the
    # repository's app.set decides, with the values the anchored code writes.
    json_ = ev("lib/response.js::res.json", """\
        res.json = function json(obj) {
          var escape = app.get('json escape');
          this.set('Content-Type', 'application/json');
        };
        """)
    seen: list[str] = []

    def exists(term: Term) -> bool:
        seen.append(term.text)
        return term.kind is TermKind.CALL and term.text == "app.set(<_>, true)"

    assert unbound("app.set('json escape', true) escapes <", json_, exists=exists) == []
    assert seen == ["app.set(<_>, true)"]
    assert unbound("app.set('json escaping', true) escapes <", json_, exists=exists) == [
        "app.set('json escaping', true)"]


def test_a_call_binds_to_a_repository_definition_of_its_callee(repo, ledger):
    repo.write("net/_config.py", "DEFAULT_MAX_REDIRECTS = 20\n")
    repo.write("net/_client.py", """\
        class Client:
            def __init__(self, *, max_redirects: int = 20, http2: bool = False):
                self.max_redirects = max_redirects
        """)
    repo.commit("client")
    anchors = ledger.resolve_anchors(["net/_config.py::DEFAULT_MAX_REDIRECTS"])
    assert ledger.bind_claim("redirects stop at 20 (DEFAULT_MAX_REDIRECTS, passed as Client(max_redirects=...))",
                             anchors) == ()
    assert ledger.bind_claim("enable it with Client(http2=True)", anchors) == ()
    with pytest.raises(memvet.UnboundClaimError, match=r"`Client\(redirect_limit=\.\.\.\)`"):
        ledger.bind_claim("passed as Client(redirect_limit=...)", anchors)
    with pytest.raises(memvet.UnboundClaimError, match=r"`Client\(max_redirects=\.\.\., 3\)`"):
        ledger.bind_claim("passed as Client(max_redirects=..., 3)", anchors)


# ------------------------------------------------------------------ packages


def test_a_package_level_name_binds_when_its_init_or_index_reexports_it(repo, ledger):
    repo.write("pkg/__init__.py", 'from ._impl import Widget\n\n__all__ = ["Widget", "make"]\n')
    repo.write("pkg/_impl.py", "class Widget:\n    pass\n\n\nclass Gadget:\n    pass\n\n\ndef make():\n    pass\n")
    repo.write("web/index.js", "exports.router = require('./router');\n")
    repo.write("web/router.js", "module.exports = function router() {};\n")
    repo.commit("package")
    anchors = ledger.resolve_anchors(["pkg/_impl.py::Widget"])
    assert ledger.bind_claim("Widget is public as pkg.Widget and pkg.make, and web.router too", anchors) == ()
    with pytest.raises(memvet.UnboundClaimError, match=r"`pkg\.Gadget`"):
        ledger.bind_claim("Widget and pkg.Gadget are public", anchors)


# ------------------------------------------------------------------ placeholders and templates


def test_placeholders_and_ranges_in_prose_are_not_terms():
    assert claim_terms("headings <h1>..<h6> and <root>/<name>.<ext> become <name>") == []
    assert claim_terms("a query like ?a[b]=1&c=2 is parsed") == []
    # A numeric range is two values, not a wildcard.
    assert [t.text for t in claim_terms("status() accepts 100-599") if t.kind is TermKind.NUMBER] == ["100", "599"]


def test_a_placeholder_argument_stands_for_any_value():
    send = ev("lib/response.js::res.send", "res.send = function send(body) {\n  var chunk = body;\n};\n")
    assert unbound("res.send('<string>') sends html, and res.send(...) too", send) == []
    assert unbound("res.send('<string>', 200) sends html", send) == ["res.send('<string>', 200)"]


RAISE_FOR_STATUS = ev("httpx/_models.py::Response.raise_for_status", '''\
    def raise_for_status(self):
        if self.is_success:
            return self
        message = (
            "{error_type} '{0.status_code} {0.reason_phrase}' for url '{0.url}'\\n"
            "For more information check: https://developer.mozilla.org/{0.status_code}"
        )
        error_types = {1: "Informational response", 3: "Redirect response", 5: "Server error"}
        error_type = error_types.get(self.status_code // 100, "Invalid status code")
        logger.info('HTTP Request: %s %s "%s %d %s"', self.method, self.url, self.version, self.code, self.phrase)
        raise HTTPStatusError(message.format(self, error_type=error_type))
    ''')


def test_a_message_written_as_a_template_binds_to_the_string_the_code_formats():
    assert unbound("the message reads \"Server error '<code> <reason>' for url '<url>'\"", RAISE_FOR_STATUS) == []
    assert unbound("it logs \"<http version> <status> <reason>\"", RAISE_FOR_STATUS) == []
    # Words the code does not say, or a shape it does not write.
    assert unbound("the message reads \"Server error '<code> <reason>' at url '<url>'\"", RAISE_FOR_STATUS) == [
        "Server error '<code> <reason>' at url '<url>'"]
    assert unbound("it logs \"<status>: <reason> (<http version>)\"", RAISE_FOR_STATUS) == [
        "<status>: <reason> (<http version>)"]


def test_a_message_binds_to_what_the_code_concatenates():
    jsonp = ev("lib/response.js::res.jsonp", """\
        res.jsonp = function jsonp(obj) {
          body = '/**/ typeof ' + callback + ' === \\'function\\' && ' + callback + '(' + body + ');';
          var val = 'j:' + JSON.stringify(value);
        };
        """)
    assert unbound("objects are stored as 'j:<json>', and jsonp bodies as `typeof <cb> === 'function'`",
                   jsonp) == []
    assert unbound("objects are stored as 'o:<json>'", jsonp) == ["o:<json>"]


def test_status_classes_bind_to_numbers_in_range_or_to_the_class_the_code_names():
    assert unbound("anything but 2xx raises; 5xx reads Server error", RAISE_FOR_STATUS) == []
    assert unbound("4xx reads Client error", RAISE_FOR_STATUS, exists=mentioned) == ["4xx"]


def test_an_ellipsis_or_a_lone_placeholder_says_nothing():
    code = ev("lib/utils.js::compileETag", "function compileETag(val) {\n  return etag(val, {weak: true});\n}\n")
    assert unbound('weak ETags look like W/"..."', code) == []
    assert unbound('a body "<string>" is sent as html', code) == []
    assert unbound('weak ETags look like "W/1"', code) == ["W/1"]


def test_example_hosts_and_the_values_they_hold_are_examples():
    auth = ev("httpx/_client.py::BaseClient._build_request_auth", """\
        def _build_request_auth(self, request, auth):
            username, password = request.url.username, request.url.password
            if username or password:
                return BasicAuth(username=username, password=password)
        """)
    assert unbound("credentials in the URL (https://user:pass@host/) are used", auth) == []
    assert unbound("credentials in http://user:pass@proxy:3128 are used", auth) == ["http://user:pass@proxy:3128"]
    subdomains = ev("lib/request.js", "defineGetter(req, 'subdomains', function subdomains() {\n"
                                      "  return hostname.split('.').reverse().slice(offset);\n});\n")
    assert unbound("for tobi.ferrets.example.com req.subdomains is ['ferrets', 'tobi']", subdomains) == []
    assert unbound("req.subdomains is ['ferrets', 'tobi']", subdomains) == ["ferrets", "tobi"]


# ------------------------------------------------------------------ labels


@pytest.mark.parametrize("prose", [
    "the dict check was added for issue #2491",
    "decided in ADR-0007 and ADR 12, per RFC 7230 and RFC-6265",
    "since 2019 the default changed",
    "Express 5 parses queries simply, unlike Express 4",
    "Since Express 5, listen() reports errors",
])
def test_numbers_that_are_labels_are_prose(prose):
    assert [t for t in claim_terms(prose) if t.kind is TermKind.NUMBER] == []


@pytest.mark.parametrize("claim, number", [
    ("Returns 404 when the file is missing", "404"),
    ("retries 3 times before giving up", "3"),
    ("waits 2000 ms in 2 steps", "2000"),
    ("Express 5.2 supports Node 14", "5.2"),
    ("the buffer holds a maximum of 2048", "2048"),
    ("it reads in 2048 chunks", "2048"),
])
def test_numbers_that_are_values_stay_terms(claim, number):
    assert Term(number, TermKind.NUMBER) in claim_terms(claim)


# ------------------------------------------------------------------ paths and lists


def test_paths_drop_the_full_stop_and_slash_lists_are_one_term_each():
    assert kinds("unknown types fall back to application/octet-stream.") == [
        ("application/octet-stream", "string")]  # a media type: a value, its full stop dropped as a path's
    assert kinds("res.json/res.jsonp escape it") == [("res.json", "path"), ("res.jsonp", "dotted")]
    code = ev("httpx/_multipart.py::guess", 'def guess(name):\n    return guess_type(name)[0] or '
                                            '"application/octet-stream"\n')
    assert unbound("unknown types fall back to application/octet-stream.", code) == []
    assert unbound("send retries 502/503/504", SEND) == ["502", "503", "504"]


# ------------------------------------------------------------------ values are code


def test_a_value_only_a_docstring_or_a_comment_mentions_does_not_bind():
    serve = ev("app/serve.py::serve", '''\
        def serve(host="127.0.0.1", port=8000):
            """Serve the app; set host to 0.0.0.0 to listen externally, or "::" for IPv6."""
            # port 9000 is the admin port
            return run(host, port)
        ''')
    assert unbound("serve listens on 127.0.0.1:8000", serve) == []
    assert unbound("serve listens on 0.0.0.0 when told", serve) == ["0.0.0.0"]
    assert unbound("the admin port is 9000", serve) == ["9000"]
    assert unbound('IPv6 hosts are written "::"', serve) == ["::"]
    # Names still bind in docstrings: they are what the code says about itself.
    assert unbound("retries are described in Client.send", SEND) == []
    assert unbound("send pins a bundle at \"/etc/ssl/ca.pem\" and retries 5 times", SEND) == ["/etc/ssl/ca.pem", "5"]
    assert unbound("send stops at 20 redirects", SEND) == ["20"]


def test_a_quote_must_be_in_the_code_not_its_docstring():
    text = 'def f():\n    """Returns 42."""\n    return 41\n'
    assert find_quote("return 41", text, "python")
    assert not find_quote("Returns 42.", text, "python")
    assert not find_quote("Returns 42.", "// Returns 42.\nfunction f() { return 41; }\n", "javascript")


def test_code_only_keeps_strings_that_are_values():
    text = 'X = """kept"""\nf(\n    """kept too"""\n)\n\n\ndef g():\n    """dropped"""\n    return "#kept"  # dropped\n'
    kept = code_only(text, "python")
    assert "kept" in kept and "kept too" in kept and '"#kept"' in kept
    assert "dropped" not in kept and len(kept.splitlines()) == len(text.splitlines())


# ------------------------------------------------------------------ raises


def test_a_name_said_to_be_raised_must_be_raised_by_the_code():
    content = ev("httpx/_models.py::Response.content", "def content(self):\n    if not hasattr(self, '_c'):\n"
                                                       "        raise ResponseNotRead()\n    return self._c\n")
    assert unbound("touching response.content too early raises ResponseNotRead", content) == []
    # The name exists in the repository, but this code does not raise it.
    assert unbound("touching response.content too early raises httpx.StreamConsumed", content,
                   exists=lambda term: True) == ["httpx.StreamConsumed"]


# ------------------------------------------------------------------ absence


def test_an_absence_rule_supports_only_a_negated_term():
    rule = EvidenceText(r"pattern:\bpickle\.loads\b", r"\bpickle\.loads\b", (), absent=True)
    assert unbound("nothing calls `pickle.loads`", rule) == []
    assert unbound("the loader never uses pickle.loads", rule) == []
    assert unbound("the loader uses `pickle.loads`", rule) == ["pickle.loads"]
    assert unbound("records are read with pickle.loads", rule) == ["pickle.loads"]


def test_regular_expression_escapes_in_a_claim_are_not_words():
    assert kinds(r"no line matches \beval\( or \bexec_file\b") == [("exec_file", "identifier")]


def test_an_absence_anchor_is_no_positive_evidence_in_a_repository(repo, ledger):
    repo.write("app/store.py", "import json\n\n\ndef load(path):\n    return json.load(open(path))\n")
    repo.commit("store")
    anchors = ledger.resolve_anchors(["import:pickle", "app/store.py::load"])
    assert ledger.bind_claim("load never uses `pickle`", anchors) == ()
    with pytest.raises(memvet.UnboundClaimError, match="`pickle`"):
        ledger.bind_claim("load reads `pickle` records", anchors)


# ------------------------------------------------------------------ property


def _examples(code: str, draw: st.DrawFn) -> list[str]:
    """Claim pieces written the way people write about ``code``: its calls
    with some arguments replaced by placeholders, its keyword arguments as
    ``name=value``, its strings with a word replaced by a placeholder."""
    out: list[str] = []
    for line in code.splitlines():
        for call in _calls(line):
            inner = call[call.index("(") + 1: -1]
            if not inner.strip() or "`" in call or re.search(r"[\"'{}<>]", inner):
                continue
            args = [a.strip() for a in inner.split(",")]
            if any(not re.fullmatch(r"[\w.=]+", a) for a in args):
                continue
            keep = draw(st.lists(st.booleans(), min_size=len(args), max_size=len(args)))
            shown = [a if k else ("..." if "=" not in a else a.split("=")[0] + "=...") for a, k in zip(args, keep,
                                                                                                       strict=True)]
            out.append(f"{call[: call.index('(')]}({', '.join(shown)})")
            out += [a for a in args if re.fullmatch(r"[A-Za-z_]\w*=[\w.]*\w", a)]
    for m in _STRING_TOKEN.finditer(code):
        words = m.group(0)[1:-1].split()
        if re.fullmatch(r"\"[A-Za-z][A-Za-z ]{6,60}[A-Za-z]\"", m.group(0)) and len(words) >= 3:
            out.append(with_placeholder(words, draw))
    return out


def with_placeholder(words: list[str], draw: st.DrawFn) -> str:
    """A message's words, quoted, one of them (drawn) written as the placeholder ``<x>``."""
    i = draw(st.integers(0, len(words) - 1))
    return '"' + " ".join([*words[:i], "<x>", *words[i + 1:]]) + '"'


@settings(max_examples=int(os.environ.get("MEMVET_PROPERTY_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_claim_made_of_calls_keywords_and_templates_of_its_code_always_binds(data):
    source = data.draw(st.sampled_from(SOURCES))
    lines = source.splitlines()
    # A span starts at a definition, as an anchored symbol does: one that
    # starts inside a docstring reads its closing quotes as an opening one.
    heads = [i for i, line in enumerate(lines) if line.lstrip().startswith(("def ", "async def ", "class "))] or [0]
    start = data.draw(st.sampled_from(heads))
    span = "\n".join(lines[start: start + 30])
    pieces = _examples(code_only(span, "python"), data.draw)
    if not pieces:
        return
    chosen = data.draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=4))
    claim = " and ".join(f"it says {c}" for c in chosen)
    assert bind(claim, [EvidenceText("x.py::f", span, ("f",))]) == []


# ------------------------------------------------------------------ numbers with units


def test_a_number_with_a_unit_binds_to_the_value_in_another_unit():
    timeout = ev("src/client.ts::Client.constructor", """\
        constructor(options) {
          this.timeout = options.timeout ?? 10_000;
          this.maxBody = 1_048_576;
        }
        """)
    assert unbound("the timeout defaults to 10 s", timeout) == []
    assert unbound("bodies are capped at 1 MiB", timeout) == []
    assert unbound("the timeout defaults to 30 s", timeout) == ["30"]
    assert unbound("bodies are capped at 2 MiB", timeout) == ["2"]
    # without a unit a number is compared as written
    assert unbound("the timeout defaults to 10", timeout) == ["10"]


def test_a_unit_never_turns_a_number_into_a_small_whole_one():
    # 60 s is 1 minute, and 1 is in most code for other reasons
    code = ev("app/retry.py::delay", "def delay(n):\n    return min(n * 1, 5)\n")
    assert unbound("the delay never exceeds 60 s", code) == ["60"]
    assert unbound("the delay never exceeds 5 s", code) == []


def test_a_bit_width_binds_to_a_bound_or_a_type_of_that_width():
    limit = ev("src/constants.ts::maxSafeTimeout", "export const maxSafeTimeout = 2_147_483_647;\n")
    assert unbound("the timeout is a 32-bit signed int", limit) == []
    assert unbound("the timeout is a 64-bit int", limit) == ["64"]
    typed = ev("src/hash.ts::hash", "export const hash = (s) => new Uint32Array([crc(s)]);\n")
    assert unbound("hash returns 32 bits", typed) == []
    assert unbound("hash returns 16 bits", typed) == ["16"]


def test_a_series_binds_when_its_first_item_and_its_step_are_in_the_code():
    delay = ev("src/retry.ts::delay", "export const delay = attempt => 0.3 * (2 ** (attempt - 1)) * 1000;\n")
    assert unbound("waits 300 ms, 600 ms, 1200 ms ... between attempts", delay) == []
    # the step 400 is not the code's: a series the code does not compute
    assert unbound("waits 300 ms, 700 ms, 1100 ms ... between attempts", delay) == ["700", "1100"]
    # a list with no ellipsis is three values, each its own
    assert unbound("waits 300 ms, 600 ms and 1200 ms", delay) == ["600", "1200"]


def test_a_variable_minus_a_digit_is_arithmetic_not_a_name():
    assert kinds("delay is 0.3 * 2^(n-1) seconds") == [("0.3", "number"), ("2", "number"), ("1", "number")]
    assert kinds("encodes as utf-8 or sha-256") == [("utf-8", "identifier"), ("sha-256", "identifier")]


# ------------------------------------------------------------------ option paths and namespaces


DEFAULTS = ev("src/utils/normalize.ts::defaultRetryOptions", """\
    const defaultRetryOptions = {
      limit: 2,
      methods: retryMethods,
      statusCodes: retryStatusCodes,
    };
    """)


def test_an_option_path_binds_to_a_key_of_the_options_object():
    assert unbound("retry.methods defaults to the idempotent methods", DEFAULTS) == []
    assert unbound("retry.limit is 2", DEFAULTS) == []
    # the last key must be the code's, and the group before it a word or part of one
    assert unbound("retry.verbs defaults to the idempotent methods", DEFAULTS) == ["retry.verbs"]
    assert unbound("cache.methods defaults to the idempotent methods", DEFAULTS) == ["cache.methods"]


def test_an_anchored_symbol_binds_when_named_through_its_namespace():
    retry = ev("src/core/constants.ts::retry", "export const retry = (options) => new RetryMarker(options);\n")
    assert unbound("call ky.retry() from a hook to force a retry", retry) == []
    assert unbound("call ky.again() from a hook to force a retry", retry) == ["ky.again()"]
    # a class is no namespace of an instance's methods
    assert unbound("call Ky.retry() from a hook", retry) == ["Ky.retry()"]


def test_alternatives_joined_by_slashes_bind_word_by_word():
    methods = ev("src/core/constants.ts::requestMethods",
                 "export const requestMethods = ['get', 'post', 'put', 'patch', 'head', 'delete'] as const;\n")
    assert unbound("shortcuts exist for get/post/put/patch/head/delete", methods) == []
    assert unbound("shortcuts exist for get/post/fetch/patch", methods) == ["get/post/fetch/patch"]


# ------------------------------------------------------------------ examples


CREATE = ev("source/index.ts::createInstance", """\
    const createInstance = (defaults?: Partial<Options>): KyInstance => {
      const ky = (input: Input, options?: Options) => Ky.create(input, validateAndMerge(defaults, options));
      ky.create = (newDefaults?: Partial<Options>) => createInstance(validateAndMerge(newDefaults));
      ky.extend = (newDefaults?: Partial<Options> | ((parentDefaults: Partial<Options>) => Partial<Options>)) => {
        if (typeof newDefaults === 'function') {
          newDefaults = newDefaults(defaults ?? {});
        }
        return createInstance(validateAndMerge(defaults, newDefaults));
      };
      return ky;
    };
    """)


def test_an_example_call_may_name_its_own_variables():
    # opts is the writer's variable for the parameter newDefaults (TypeScript: newDefaults?: T)
    assert unbound("ky.create(opts) starts from fresh defaults", CREATE) == []
    assert unbound("ky.extend(opts) merges into the parent's defaults", CREATE) == []
    # a constant or a class is no variable, and a call with more arguments than parameters does not fit
    assert unbound("ky.create(DEFAULTS) starts from fresh defaults", CREATE) == ["ky.create(DEFAULTS)"]
    assert unbound("ky.create(opts, extra) starts from fresh defaults", CREATE) == ["ky.create(opts, extra)"]


def test_an_example_call_may_pass_a_function():
    assert unbound("ky.extend(parent => ({...})) receives the parent defaults", CREATE) == []
    assert unbound("ky.extend(parent => parent) receives the parent defaults", CREATE) == []
    # its body names what the code does not
    assert unbound("ky.extend(parent => parent.bogus) receives the parent defaults", CREATE) \
        == ["ky.extend(parent => parent.bogus)"]


def test_a_method_of_an_object_literal_is_a_definition():
    delay = ev("src/normalize.ts::defaults", "const defaults = {\n  delay: attemptCount => 0.3 * attemptCount,\n};\n")
    assert unbound("delay(n) grows with n", delay) == []
    assert unbound("delay(n, jitter) grows with n", delay) == ["delay(n, jitter)"]


def test_the_values_of_a_callback_in_a_claim_are_the_example_s_own():
    assert kinds("throwHttpErrors: status => status !== 404 decides per status") == [
        ("throwHttpErrors", "identifier")]
    # outside a callback a comparison is no version, its number a value
    assert kinds("ok means status !== 404") == [("404", "number")]
    assert kinds("it requires >=2.31") == [(">=2.31", "version")]


EXPLAINED = ev("source/errors/HTTPError.ts::HTTPError.constructor", """\
    constructor(response: Response, request: Request) {
      const code = response.status;
      const title = response.statusText ?? '';
      const status = `${code} ${title}`.trim();
      const reason = status ? `status code ${status}` : 'an unknown error';
      super(`Request failed with ${reason}: ${request.method} ${request.url}`);
    }
    """)


def test_an_example_message_fills_the_fields_of_the_code_s_message():
    assert unbound("the message reads 'Request failed with status code 404 Not Found: GET https://...'",
                   EXPLAINED) == []
    # the words of the code's own message must be there as written
    assert unbound("the message reads 'Request broke with status code 404 Not Found: GET https://...'",
                   EXPLAINED) == ["Request broke with status code 404 Not Found: GET https://..."]
    # and words the code does not say never fill a message the code does not format
    fixed = ev("app/errors.py::fail", 'def fail():\n    raise ValueError("Request failed badly")\n')
    assert unbound("fail raises 'Request failed with status code 404 Not Found'", fixed) == [
        "Request failed with status code 404 Not Found"]


def test_an_address_whose_host_is_an_ellipsis_is_an_example():
    assert kinds("it fetches https://... once") == [("https://...", "address")]
    assert unbound("it fetches https://... once", EXPLAINED) == []
    assert unbound("it fetches https://api.acme.io once", EXPLAINED) == ["https://api.acme.io"]


def test_paths_joined_to_an_example_address_are_the_example_s():
    join = ev("src/url.ts::join", "export const join = (prefix, input) => `${prefix.replace(/\\/+$/, '')}/${input}`;\n")
    claim = "prefix 'https://api.example.com/v1/' plus input '/users' gives .../v1/users"
    assert unbound(claim, join) == []
    # with no example address, a path is a value of the code like any other
    assert unbound("prefix 'https://api.acme.io/v1/' plus input '/users' gives .../v1/users", join) == [
        "https://api.acme.io/v1/", "/users", ".../v1/users"]


def test_a_constant_the_anchored_function_reads_is_part_of_its_evidence(repo, ledger):
    repo.write("src/network.ts", """\
        const errorMessages = new Set([
          'network error',
          'fetch failed',
        ]);

        const unrelated = ['socket hang up'];

        export function isNetworkError(error) {
          return errorMessages.has(error.message);
        }
        """)
    repo.commit("network")
    anchors = ledger.resolve_anchors(["src/network.ts::isNetworkError"])
    assert ledger.bind_claim("undici's 'fetch failed' is a network error", anchors) == ()
    with pytest.raises(memvet.UnboundClaimError, match="`socket hang up`"):
        ledger.bind_claim("'socket hang up' is a network error", anchors)


def test_numbers_in_keywords_and_call_arguments_compare_by_value():
    code = ev("app/mod.py::fetch", "def fetch(url, limit=1000):\n    return send(url, retries=10_000)\n")
    assert unbound("fetch takes limit=1_000 and calls send(url, retries=10000)", code) == []
    assert unbound("fetch takes limit=2_000", code) == ["limit=2_000"]
    assert unbound("fetch calls send(url, retries=20000)", code) == ["send(url, retries=20000)"]


def test_a_product_of_literals_is_a_value_of_the_code():
    code = ev("src/Ky.ts::maxErrorResponseBodySize", "const maxErrorResponseBodySize = 10 * 1024 * 1024;\n")
    assert unbound("error bodies are read up to 10 MiB", code) == []
    # a factor is no value of its own: 1024 * 1024 inside 10 * 1024 * 1024 is not 1 MiB
    assert unbound("error bodies are read up to 1 MiB", code) == ["1"]


# ------------------------------------------------------------------ packages


BROTLI = ev("httpx/_decoders.py::BrotliDecoder", '''\
    class BrotliDecoder(ContentDecoder):
        """Requires `pip install brotlipy`."""

        def __init__(self) -> None:
            if brotli is None:
                raise ImportError("Make sure to install httpx using `pip install httpx[brotli]`.")
            self.decompressor = brotli.Decompressor()
    ''', imports=("brotli", "brotlicffi"))


def test_an_installed_package_binds_to_code_never_to_a_docstring():
    assert kinds("needs pip install brotli") == [("brotli", "package")]
    assert unbound("br needs brotli (pip install brotli)", BROTLI) == []
    assert unbound("br needs the extra: pip install httpx[brotli]", BROTLI) == []
    # the docstring names brotlipy; the code imports brotli
    assert unbound("br is decoded with brotlipy (pip install brotlipy)", BROTLI) == ["brotlipy"]
    assert unbound("br needs the extra: pip install httpx[zstd]", BROTLI) == ["httpx[zstd]"]
    # npm's spelling, a flag, a scoped name
    assert kinds("run npm i -D @types/node first") == [("@types/node", "package")]


# ------------------------------------------------------------------ round 3: the way people write (click, koa)


EDITOR = GET_EDITOR  # for key in "VISUAL", "EDITOR": os.environ.get(key)
APP_DIR = ev("src/click/utils.py::get_app_dir", '''\
    def get_app_dir(app_name):
        folder = os.environ.get("XDG_CONFIG_HOME", os.path.expanduser("~/.config"))
        return os.path.join(folder, app_name)
    ''')


def test_a_shell_variable_is_the_constant_the_code_looks_up():
    assert kinds("reads $EDITOR, then ${VISUAL}") == [("EDITOR", "constant"), ("VISUAL", "constant")]
    assert unbound("get_editor reads $VISUAL and $EDITOR", EDITOR) == []
    assert unbound("get_app_dir uses $XDG_DATA_HOME", APP_DIR) == ["XDG_DATA_HOME"]


def test_a_home_path_binds_to_what_the_code_expands():
    assert unbound("get_app_dir falls back to ~/.config/<app>", APP_DIR) == []
    assert unbound("per-user defaults live in ~/.clickrc", APP_DIR) == ["~/.clickrc"]
    netrc = ev("src/requests/utils.py::get_netrc_auth", '''\
        def get_netrc_auth(url):
            for f in NETRC_FILES:
                loc = os.path.expanduser(f"~/{f}")
        NETRC_FILES = (".netrc", "_netrc")
        ''')
    assert unbound("tries ~/.netrc and ~/_netrc", netrc) == []
    assert unbound("tries ~/.authinfo", netrc) == ["~/.authinfo"]


def test_an_option_outside_backticks_binds_to_the_code_or_the_program():
    assert kinds("a hidden --manpage flag, --no-<name> negates") == [("--manpage", "code")]
    show = ev("src/click/exceptions.py::UsageError.show", "def show(self):\n    hint = max(names, key=len)\n")
    assert unbound("the hint shows --help rather than -h", show) == ["--help"]
    def declared(term: Term) -> bool:
        return term.text == "--help"  # the repository writes "--help" somewhere

    assert unbound("the hint shows --help rather than -h", show, exists=declared) == []
    assert unbound("every command gets a --manpage flag", show, exists=declared) == ["--manpage"]


def test_a_custom_header_is_a_string_in_any_case():
    ctor = ev("lib/application.js::Application.constructor",
              "constructor (options) {\n  this.proxyIpHeader = options.proxyIpHeader || 'x-forwarded-for'\n}\n")
    assert unbound("client IPs come from X-Forwarded-For by default", ctor) == []
    assert unbound("client IPs come from X-Real-IP by default", ctor) == ["X-Real-IP"]
    # a standard header binds more widely: code sets it through helpers and constants (below)
    assert kinds("it forces Content-Type text/plain") == [("Content-Type", "string"), ("text/plain", "string")]


def test_a_verb_is_no_label_word_but_an_issue_is():
    assert kinds("redirect() issues 301 Moved Permanently") == [("redirect()", "call"), ("301", "number")]
    assert kinds("see issue 301") == []


def test_a_name_the_claim_writes_with_fields_binds_to_the_template_the_code_formats():
    ctx = ev("src/click/core.py::Context.__init__",
              'def __init__(self, parent, info_name):\n'
              '    prefix = f"{parent.auto_envvar_prefix}_{info_name.upper()}"\n')
    assert unbound("prefixes nest as `{parent prefix}_{INFO_NAME}`", ctx) == []
    assert unbound("prefixes nest as `{parent prefix}.{INFO_NAME}`", ctx) == ["{parent prefix}.{INFO_NAME}"]
    complete = ev("src/click/core.py::Command._main_shell_completion",
                  'def _main_shell_completion(self, prog_name):\n'
                  '    complete_var = f"_{prog_name}_COMPLETE".replace("-", "_").upper()\n')
    # an instance of the template, its field filled
    assert unbound("so my-tool reads _MY_TOOL_COMPLETE", complete) == []
    assert unbound("so my-tool reads _MY_TOOL_COMPLETION", complete) == ["_MY_TOOL_COMPLETION"]


def test_a_name_under_a_negation_binds_where_the_code_lacks_it():
    ctx = ev("src/click/core.py::Context.__init__", 'def __init__(self):\n    self.help_option_names = ["--help"]\n')
    assert unbound("the default help flag is just `--help` (no `-h`)", ctx) == []
    assert unbound("the default help flags are `--help` and `-h`", ctx) == ["-h"]
    # a value under a negation is a bound, not an absence
    assert unbound("the help flag never has more than `2` names", ctx) == ["2"]


BODY = [ev("lib/response.js::module.exports.get body", "get body () {\n  return this._body\n}\n"),
        ev("lib/response.js::module.exports.set body", "set body (val) {\n  this._body = val\n}\n")]


def test_a_value_an_example_assigns_to_an_anchored_setter_is_the_examples():
    assert unbound("ctx.body = '<p>hi</p>' is sent as the body", *BODY) == []
    # the anchored member reached through an instance; not through a class, nor another member
    assert unbound("Ctx.body holds the body", *BODY) == ["Ctx.body"]
    assert unbound("ctx.bodies holds the body", *BODY) == ["ctx.bodies"]
    getter = ev("lib/response.js::module.exports.get body", "get body () {\n  return this._body\n}\n")
    assert unbound("ctx.body = '<p>hi</p>' is sent as the body", getter) == ["<p>hi</p>"]


APPLICATION = ev("lib/application.js::module.exports.use", '''\
  use (fn) {
    if (typeof fn !== 'function') throw new TypeError('middleware must be a function!')
    if (this.silent) return this
    this.middleware.push(fn)
    return this
  }
''')
APPLICATION = EvidenceText(APPLICATION.label, APPLICATION.text,
                           (*APPLICATION.names, "lib/application.js::Application.use", "Application.use"))


def test_an_instance_named_the_usual_short_way_stands_for_its_class():
    assert [memvet._claims.abbreviates(s, o) for s, o in
            [("app", "Application"), ("ctx", "context"), ("res", "response"), ("req", "lib.Request")]] == [True] * 4
    assert [memvet._claims.abbreviates(s, o) for s, o in
            [("req", "response"), ("xtc", "context"), ("ap", "application")]] == [False] * 3
    assert unbound("use returns early when app.silent is set", APPLICATION) == []
    assert unbound("use returns early when app.quiet is set", APPLICATION) == ["app.quiet"]
    # a method written `use (fn) {`: an example call fits its one parameter, two arguments do not
    assert unbound("app.use(notAFunction) throws a TypeError", APPLICATION) == []
    assert unbound("app.use(first, second) throws a TypeError", APPLICATION) == ["app.use(first, second)"]


def test_the_package_name_constructs_the_anchored_class():
    ctor = ev("lib/application.js::module.exports.constructor",
              "constructor (options) {\n  this.compose = options.compose || compose\n}\n")
    def own(term: Term) -> bool:
        return term.text == "Koa"  # the package.json name

    assert kinds("pass `new Koa({ compose })`") == [("new Koa({ compose })", "call")]
    assert unbound("`new Koa({ compose })` swaps composition", ctor, exists=own) == []
    assert unbound("`new Koa({ pipeline })` swaps composition", ctor, exists=own) == ["new Koa({ pipeline })"]
    assert unbound("`new Koa({ compose })` swaps composition", ctor) == ["new Koa({ compose })"]


def test_a_list_the_code_writes_lacks_the_members_it_lacks():
    to_json = ev("lib/application.js::Application.toJSON",
                 "toJSON () {\n  return only(this, ['subdomainOffset', 'proxy', 'env'])\n}\n")
    assert unbound("toJSON shows subdomainOffset, proxy and env.", to_json) == []
    assert unbound("toJSON shows subdomainOffset, proxy, env and keys.", to_json) == ["keys"]
    methods = ev("lib/request.js::idempotent",
                 "get idempotent () {\n  const methods = ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']\n"
                 "  return !!~methods.indexOf(this.method)\n}\n")
    assert unbound("idempotent is true for PATCH as well as PUT/DELETE/GET.", methods) == ["PATCH"]
    assert unbound("idempotent is true for HEAD as well as PUT/DELETE/GET.", methods) == []
    # the last word of a run that goes on is the next clause's verb, not a member
    assert unbound("toJSON shows subdomainOffset, proxy and env and returns them.", to_json) == []


def test_fields_in_prose_are_placeholders():
    assert kinds("falls back to the generated {AUTO_ENVVAR_PREFIX}_{NAME} variable") == []
    assert kinds("falls back to the AUTO_ENVVAR_PREFIX variable") == [("AUTO_ENVVAR_PREFIX", "constant")]


PAGER = ev("src/click/_termui_impl.py::_pager_contextmanager", '''\
    def _pager_contextmanager(color=None):
        # quoted Windows paths are preserved; `more` adds \r\n there
        if os.environ.get("TERM") in ("dumb", "emacs"):
            yield
        use_tempfile = WIN or sys.platform.startswith("os2")
        ctx = make_context(args)
        invoke(ctx)
    ''')


def test_names_side_by_side_bind_each_to_the_code():
    assert unbound("then make_context/invoke", PAGER) == []
    assert unbound("`more` on Windows/OS2", PAGER) == []
    assert unbound("then make_context/dispatch", PAGER) == ["make_context/dispatch"]
    assert unbound("`more` on Windows/OS3", PAGER) == ["Windows/OS3"]


def test_a_variable_and_its_value_bind_where_one_statement_of_the_code_says_both():
    assert unbound("TERM=dumb means no pager", PAGER) == []
    assert unbound("TERM=xterm means no pager", PAGER) == ["TERM=xterm"]
    assert unbound("PAGER=dumb means no pager", PAGER) == ["PAGER=dumb"]


def test_a_protocol_version_binds_where_the_code_compares_the_protocols_version():
    respond = ev("lib/application.js::respond",
                 "function respond (ctx) {\n  if (ctx.req.httpVersionMajor >= 2) body = String(code)\n}\n")
    assert unbound("on HTTP/2 respond sends the code as text", respond) == []
    assert unbound("on SPDY/3 respond sends the code as text", respond) == ["SPDY/3"]
    plain = ev("lib/application.js::respond", "function respond (ctx) {\n  body = String(code)\n}\n")
    assert unbound("on HTTP/2 respond sends the code as text", plain) == ["HTTP/2"]


def test_a_number_in_an_example_aside_is_the_examples():
    assert kinds("uses 302 unless the status is a redirect (e.g. you set 301 first)") == [("302", "number")]
    assert kinds("uses 302 unless the status is 301") == [("302", "number"), ("301", "number")]


def test_a_standard_header_binds_where_the_project_says_it():
    send = ev("lib/response.js::res.send", "res.send = function send(body) {\n  this.set('content-type', 'x')\n}\n")
    assert kinds("sets Strict-Transport-Security") == [("Strict-Transport-Security", "string")]
    assert unbound("res.send sets Content-Type", send) == []
    assert unbound("res.send sets Strict-Transport-Security", send) == ["Strict-Transport-Security"]

    def said(term: Term) -> bool:
        return term.text == "Strict-Transport-Security"  # some code file of the repository writes it

    assert unbound("res.send sets Strict-Transport-Security", send, exists=said) == []


def test_a_reason_phrase_binds_where_the_code_looks_phrases_up():
    send_status = ev("lib/response.js::res.sendStatus",
                     "res.sendStatus = function sendStatus(statusCode) {\n"
                     "  var body = statuses.message[statusCode] || String(statusCode)\n  this.send(body)\n}\n")
    assert unbound("res.sendStatus(404) sends 'Not Found'", send_status) == []
    assert unbound("res.sendStatus(404) sends 'Page Missing'", send_status) == ["Page Missing"]
    plain = ev("lib/response.js::res.sendStatus",
               "res.sendStatus = function sendStatus(statusCode) {\n  this.send(String(statusCode))\n}\n")
    assert unbound("res.sendStatus(404) sends 'Not Found'", plain) == ["Not Found"]


# ------------------------------------------------------------------ round 3, second pass (tenacity, commander)


WAIT_CHAIN = ev("tenacity/wait.py::wait_chain.__init__", '''\
    def __init__(self, *strategies):
        if not strategies:
            raise ValueError("wait_chain() requires at least one strategy")
        self.strategies = strategies
    ''')
STOP = ev("tenacity/stop.py::stop_before_delay.__call__", '''\
    def __call__(self, retry_state):
        return retry_state.seconds_since_start + retry_state.upcoming_sleep >= self.max_delay
    ''')


def test_a_method_or_a_decorator_written_as_code_is_a_call():
    assert kinds("use `.env('PORT')` on the option") == [(".env('PORT')", "call")]
    assert kinds("with `@retry(stop=stop_after_attempt(3))`") == [("@retry(stop=stop_after_attempt(3))", "call")]
    assert kinds("a bare `@retry` retries forever") == [("retry", "identifier")]
    env = ev("lib/option.js::Option.env", "env (name) {\n  this.envVar = name\n  return this\n}\n")
    assert unbound("declare `.env('PORT')` to read PORT", env, exists=mentioned) == []
    assert unbound("declare `.environ('PORT')` to read PORT", env, exists=mentioned) == [".environ('PORT')"]


def test_an_exception_and_its_message_bind_as_python_prints_them():
    assert unbound("it raises `ValueError: wait_chain() requires at least one strategy`", WAIT_CHAIN) == []
    assert unbound("it raises `TypeError: wait_chain() requires at least one strategy`", WAIT_CHAIN) == [
        "TypeError: wait_chain() requires at least one strategy"]
    assert unbound("it raises `ValueError: wait_chain() needs a strategy`", WAIT_CHAIN) == [
        "ValueError: wait_chain() needs a strategy"]


def test_an_expression_may_leave_its_receivers_out():
    assert unbound("it compares `seconds_since_start + upcoming_sleep` with max_delay", STOP) == []
    assert unbound("it compares `seconds_since_start + idle_for` with max_delay", STOP) == [
        "seconds_since_start + idle_for"]
    assert unbound("it compares `upcoming_sleep + seconds_since_start` with max_delay", STOP) == [
        "upcoming_sleep + seconds_since_start"]


def test_object_shorthand_names_keys_the_code_reads():
    error = ev("lib/command.js::Command.error",
               "error (message, errorOptions) {\n  const config = errorOptions || {}\n"
               "  const exitCode = config.exitCode || 1\n  const code = config.code || 'commander.error'\n}\n")
    assert unbound("unless you pass `{ exitCode, code }`", error) == []
    assert unbound("unless you pass `{ exitCode, signal }`", error) == ["{ exitCode, signal }"]


def test_the_languages_own_names_bind_in_its_code():
    retry = ev("tenacity/retry.py::retry_if_exception_type.__init__",
               "def __init__(self, exception_types=Exception):\n    self.exception_types = exception_types\n")
    assert unbound("so KeyboardInterrupt and SystemExit are not retried", retry) == []
    js = ev("lib/a.js::f", "function f (x) {\n  return x\n}\n")
    assert unbound("so KeyboardInterrupt is not caught", js) == ["KeyboardInterrupt"]


def test_an_example_names_its_own_variables_in_a_call_the_code_makes():
    check = ev("tenacity/retry.py::retry_if_exception_message._check",
               "def _check(self, exception):\n    return self.predicate(str(exception))\n")
    assert unbound("it matches against str(exc)", check) == []
    assert unbound("it matches against repr(exc)", check) == ["repr(exc)"]
    assert unbound("it matches against str(exc, 1)", check) == ["str(exc, 1)"]


def test_a_number_the_claims_own_call_passes_is_the_examples():
    stop = ev("tenacity/stop.py::stop_after_attempt.__call__",
              "def __call__(self, retry_state):\n    return retry_state.attempt_number >= self.max_attempt_number\n")

    def fits(term: Term) -> bool:
        return term.kind is TermKind.CALL  # stop_after_attempt(n) fits its definition in the repository

    assert unbound("stop_after_attempt(3) means at most 3 calls", stop, exists=fits) == []
    # a number written before the call is no part of it
    assert unbound("at most 3 calls: stop_after_attempt(3)", stop, exists=fits) == ["3"]
    assert unbound("stop_after_attempt(3) means at most 4 calls", stop, exists=fits) == ["4"]


def test_a_keyword_value_binds_through_its_module():
    wait = ev("tenacity/wait.py::wait_exponential.__init__",
              "def __init__(self, multiplier=1, max: float = _utils.MAX_WAIT):\n    self.max = max\n")
    assert unbound("defaults: multiplier=1, max=MAX_WAIT", wait) == []
    assert unbound("defaults: multiplier=1, max=MIN_WAIT", wait) == ["max=MIN_WAIT"]


def test_a_switch_the_file_names_binds_unless_the_code_sets_it_otherwise():
    reraise = ev("tenacity/__init__.py::RetryError.reraise",
                 "def reraise(self):\n    raise self.last_attempt.result()\n")

    def named(term: Term) -> bool:
        return term.text == "reraise"  # the anchored file defines reraise

    assert unbound("with reraise=True the last error surfaces", reraise, exists=named) == []
    assert unbound("with reraise=True the last error surfaces", reraise) == ["reraise=True"]
    cookie = ev("httpx/_models.py::Cookies.set",
                "def set(self, name, value):\n    c = Cookie(name, value, secure=False)\n")

    def secure(term: Term) -> bool:
        return term.text == "secure"

    assert unbound("cookies are set with secure=True", cookie, exists=secure) == ["secure=True"]


def test_a_name_compound_is_no_header_and_a_comparison_no_version():
    assert kinds("a Damerau-Levenshtein distance") == []
    assert kinds("requires similarity > 0.4") == [("0.4", "number")]
    assert kinds("needs requests>2.0") == [("requests>2.0", "version")]


def test_a_name_in_prose_binds_where_the_project_mentions_it():
    assert kinds("added for Airflow operators on SIGTERM, like Tornado") == [
        ("Airflow", "proper"), ("SIGTERM", "proper"), ("Tornado", "proper")]
    # a sentence's first word, emphasis, common acronyms and a status's reason phrase are prose
    assert kinds("Careful: it is NOT thread-safe over HTTP; 301 Moved Permanently") == [("301", "number")]
    tornado = ev("tenacity/__init__.py::retry", "def retry(f):\n    if is_tornado_coroutine(f):\n        return f\n")
    assert unbound("wraps Tornado coroutines too", tornado) == []
    assert unbound("was added for Airflow operators", tornado) == ["Airflow"]
    assert unbound("was added for Airflow operators", tornado, exists=mentioned) == []
    (line,) = [u.line() for u in bind("was added for Airflow operators", [tornado])]
    assert line.endswith("nor anywhere in the repository")


def test_a_type_test_is_no_list_of_values_a_parameter_takes():
    argument = ev("lib/command.js::Command.argument", '''\
      argument (name, description, parseArg, defaultValue) {
        const argument = this.createArgument(name, description)
        if (typeof parseArg === 'function') {
          argument.default(defaultValue).argParser(parseArg)
        } else {
          argument.default(parseArg)
        }
        return this
      }
    ''')
    assert unbound("`.argument('<file>', 'desc', 'x.txt')` sets a default", argument) == []
    modes = ev("lib/a.js::open", "function open (path, mode) {\n  if (mode === 'r') return read(path)\n"
                                 "  if (mode === 'a') return append(path)\n}\n")
    assert unbound("`open('a.txt', 'w')` writes", modes) == ["open('a.txt', 'w')"]
    assert unbound("`open('a.txt', 'r')` reads", modes) == []


def test_one_special_value_is_no_list_of_values_a_parameter_takes():
    # vary's append(header, field) tests `header === '*'` once: any other header goes on
    append = ev("index.js::append", "function append (header, field) {\n  if (header === '*') {\n    return header\n"
                                    "  }\n  return header + ', ' + field\n}\n")
    assert unbound("append('Accept', 'Origin') gives 'Accept, Origin'", append) == ["Accept, Origin"]
    assert unbound("append('Accept', '') throws", append) == []


def test_the_platforms_own_names_need_no_mention():
    code = ev("shop/store.py::checksum", "def checksum(total):\n    return round(total, 2)\n")
    assert unbound("Totals are kept as Decimals", code) == []  # the stdlib's decimal
    assert unbound("checksum returns a Promise", code) == []
    assert unbound("Totals are kept in Airflow", code) == ["Airflow"]
