"""Usage examples read by the grammar of the anchored language (:mod:`memvet._usage`), and bound by them.

Each case both ways: an example whose library names the anchored code has
binds with the reader's own values and variables; the same example with a
name the code lacks, a value the code refuses to take, a call the code
itself makes or a setting nobody is said to pass stays unbound.
"""

from __future__ import annotations

import textwrap

import pytest

from memvet._claims import EvidenceText, bind
from memvet._usage import languages, read_use


def ev(label: str, text: str, language: str) -> EvidenceText:
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence))]


QUEUE = ev("source/index.ts::PQueue", '''\
    export class PQueue {
      constructor(options) {
        this.timeout = options.timeout;
        this.#concurrency = options.concurrency;
      }
      set concurrency(newConcurrency) {
        this.#concurrency = newConcurrency;
      }
      async add(function_, options = {}) {
        options = { timeout: this.timeout, ...options };
        if (options.signal) { options.signal.throwIfAborted(); }
        return function_();
      }
    }
''', "typescript")

ENCODE = ev("jwt/api_jwt.py::PyJWT.encode", '''\
    def encode(self, payload, key, algorithm=None, headers=None, json_encoder=None, sort_headers=True):
        for time_claim in ["exp", "iat", "nbf"]:
            if isinstance(payload.get(time_claim), datetime):
                payload[time_claim] = timegm(payload[time_claim].utctimetuple())
        if sort_headers:
            headers = dict(sorted(headers.items()))
        return api_jws.encode(payload, key, algorithm, headers, json_encoder)
''', "python")

PARSER = ev("lib/types/json.js::createJsonParser", '''\
    function createJsonParser (options) {
      var opts = options || {}
      var strict = opts.strict !== false
      var inflate = opts.inflate !== false
      var type = opts.type || 'application/json'
      if (opts.charset === 'utf-8' || opts.charset === 'utf-16') { read() }
      return strict ? parseStrict : parseLoose
    }
''', "javascript")

URANDOM = ev("httpx/_multipart.py::MultipartStream.__init__", '''\
    def __init__(self, data, files, boundary=None):
        if boundary is None:
            boundary = os.urandom(16).hex().encode("ascii")
        if len(data) > 10:
            raise ValueError("value too large")
''', "python")


@pytest.mark.parametrize(("text", "language", "library", "heads"), [
    ("jwt.encode(payload, key, algorithm=None)", "python", ("encode", "algorithm"), ("jwt",)),
    ("require('dotenv').config({ secure: true, path })", "javascript", ("config", "secure", "path"), ()),
    ("queue.concurrency = 10", "typescript", ("concurrency",), ("queue",)),
    ("inflate: false", "javascript", ("inflate",), ()),
    ("{ fast: true }", "javascript", ("fast",), ()),
    ("hookimpl = HookimplMarker(\"myproj\")", "python", ("HookimplMarker",), ()),
    ("qs.parse(body, { allowPrototypes: true, ..., depth })", "javascript", ("parse", "allowPrototypes", "depth"),
     ("qs",)),
])
def test_an_example_names_the_library_and_leaves_the_reader_their_own(text: str, language: str,
                                                                      library: tuple[str, ...],
                                                                      heads: tuple[str, ...]) -> None:
    use = read_use(text, languages([language]))
    assert use is not None
    assert use.library == library
    assert use.heads == heads


@pytest.mark.parametrize("text", [
    "x = 1",  # only the reader's names
    "catch (e) { if (e instanceof TypeError) ... }",  # a statement
    "dotenv run -f .env -- node app.js",  # a shell command
    "/:a:b",  # a pattern the library parses
    "payload",  # no use shown
])
def test_what_is_no_example_of_use(text: str) -> None:
    assert read_use(text, languages(["javascript", "python"])) is None


def test_the_grammar_follows_the_anchors_languages() -> None:
    assert languages(["typescript", None, "python", "typescript", "json"]) == ["typescript", "python"]
    assert languages(["markdown", None]) == []


def test_a_call_of_the_anchored_method_binds_with_the_reader_values() -> None:
    assert unbound("Per-task timeout: `queue.add(fn, {timeout})` overrides the queue's.", QUEUE) == []
    assert unbound("`queue.add(fn, {timeout: 60000})` is what we do in the worker.", QUEUE) == []
    assert unbound("jwt.encode(payload, secret, algorithm=None) signs without a key.", ENCODE) == []
    # a key, a keyword or a callee the code does not have
    assert unbound("`queue.add(fn, {retries: 3})` retries.", QUEUE) == ["queue.add(fn, {retries: 3})"]
    assert unbound("jwt.encode(payload, k, algo=None) signs.", ENCODE) == ["jwt.encode(payload, k, algo=None)"]
    assert unbound("`queue.push(fn, {timeout})` queues.", QUEUE) == ["queue.push(fn, {timeout})"]


def test_an_assignment_to_a_member_binds_where_the_code_defines_it() -> None:
    assert unbound("Bumping `queue.concurrency = 10` at runtime takes effect.", QUEUE) == []
    assert unbound("Bumping `queue.parallelism = 10` at runtime takes effect.", QUEUE) == ["queue.parallelism = 10"]


def test_a_setting_a_caller_passes_binds_and_a_boolean_needs_a_decision_on_it() -> None:
    assert unbound("With `inflate: false`, compressed bodies are refused.", PARSER) == []
    assert unbound("Unless you pass `strict: false`, only objects are accepted.", PARSER) == []
    assert unbound("`strict: false` turns the first-character check off.", PARSER) == []
    # `type` is read for a default, never decided on: a boolean for it is no setting of the code
    assert unbound("With `type: false` every body is parsed.", PARSER) == ["type: false"]
    # a string for a key the code compares with other strings must be one of them
    assert unbound("With `charset: 'utf-8'` it reads.", PARSER) == []
    assert unbound("With `charset: 'latin1'` it reads.", PARSER) == ["charset: 'latin1'"]


def test_a_setting_no_caller_is_said_to_pass_is_a_value_to_find() -> None:
    assert unbound("The parser's options are `inflate: false`.", PARSER) == ["inflate: false"]


def test_a_call_the_code_makes_binds_only_as_written() -> None:
    assert unbound("The boundary comes from os.urandom(32).hex().", URANDOM) == ["os.urandom(32).hex()"]
    assert unbound("The boundary comes from os.urandom(16).hex().", URANDOM) == []
    assert unbound("Too much data raises ValueError('value too big').", URANDOM) == ["ValueError('value too big')"]


def test_an_example_may_call_the_repository_api_around_an_anchored_helper() -> None:
    helper = ev("lib/main.js::_resolveHome", '''\
        function _resolveHome (envPath) {
          return envPath[0] === '~' ? path.join(os.homedir(), envPath.slice(1)) : envPath
        }
    ''', "javascript")
    known = {"config"}

    def unbound_in(claim: str) -> list[str]:
        return [u.term.text for u in bind(claim, [helper], exists=lambda term: term.text in known)]

    assert unbound_in("`config({ path: '~/.env' })` works: a leading ~ is the home directory.") == []
    # a key the anchored helper never reads, or a callee the repository does not have
    assert unbound_in("`config({ home: '~/.env' })` works.") == ["config({ home: '~/.env' })"]
    assert unbound_in("`load({ path: '~/.env' })` works.") == ["load({ path: '~/.env' })"]


def test_an_output_of_the_example_own_strings_joined_as_the_code_joins_them_binds() -> None:
    extend = ev("src/common.js::setup", '''\
        function createDebug(namespace) {
          return { namespace, extend };
        }
        function extend(namespace, delimiter) {
          const newDebug = createDebug(this.namespace + (delimiter === undefined ? ':' : delimiter) + namespace);
          return newDebug;
        }
    ''', "javascript")
    assert unbound("`extend('db')` on `createDebug('app')` gives namespace `app:db`.", extend) == []
    # a joint the code does not write, or a word no example passes
    assert unbound("`extend('db')` on `createDebug('app')` gives namespace `app/db`.", extend) == ["app/db"]
    assert unbound("`extend('db')` on `createDebug('app')` gives namespace `web:db`.", extend) == ["web:db"]


def test_an_operator_between_calls_is_no_example_of_use() -> None:
    assert read_use("wait_fixed(3) + wait_random(0, 2)", ["python"]) is None
    assert read_use("stop_after_attempt(5) | stop_after_delay(30)", ["python"]) is None
    assert read_use("wait_fixed(3)", ["python"]) is not None


MUX = ev("mux.go::Mux.Handle", '''\
    func (mx *Mux) Handle(pattern string, handler http.Handler) {
        if i := strings.IndexAny(pattern, " \\t"); i >= 0 {
            method, rest := strings.ToUpper(pattern[:i]), strings.TrimLeft(pattern[i+1:], " \\t")
            mx.Method(method, rest, handler)
            return
        }
        mx.handle(mALL, pattern, handler)
    }
''', "go")

THROTTLE = ev("middleware/throttle.go::ThrottleOpts", '''\
    type ThrottleOpts struct {
        Limit          int
        BacklogLimit   int
        BacklogTimeout time.Duration
        StatusCode     int
    }
''', "go")

LOGGER = ev("src/lib.rs::set_boxed_logger", '''\
    pub fn set_boxed_logger(logger: Box<dyn Log>) -> Result<(), SetLoggerError> {
        set_logger_inner(|| Box::leak(logger))
    }
''', "rust")

BAIL = ev("src/macros.rs::bail", '''\
    macro_rules! bail {
        ($msg:literal $(,)?) => {
            return $crate::__private::Err($crate::__anyhow!($msg))
        };
    }
''', "rust")


@pytest.mark.parametrize(("text", "language", "library", "heads"), [
    ('r.Handle("GET /users", h)', "go", ("Handle",), ("r",)),
    ("return backoff.Permanent(err)", "go", ("Permanent",), ("backoff",)),
    # `pkg.New(x)` with one argument parses as a conversion in Go's grammar: it is a call all the same
    ("backoff.NewExponentialBackOff(backoff.WithMaxElapsedTime(0))", "go",
     ("NewExponentialBackOff", "WithMaxElapsedTime"), ("backoff", "backoff")),
    ("ThrottleOpts{Limit: 10, StatusCode: 503}", "go", ("ThrottleOpts", "Limit", "StatusCode"), ()),
    ("log::set_max_level(LevelFilter::Info)", "rust", ("set_max_level", "Info", "LevelFilter"), ("log", "LevelFilter")),
    # Box::new, Some, Err wrap the reader's values: neither a use nor the library's names
    ("set_boxed_logger(Box::new(logger))", "rust", ("set_boxed_logger",), ()),
    ('return Err(anyhow!("x {}", y))', "rust", ("anyhow",), ()),
    ('info!(target: "app", "{}", x);', "rust", ("info", "target"), ()),
    ("Version::parse(\"1.2.3\")?", "rust", ("parse", "Version"), ("Version",)),
])
def test_go_and_rust_examples_name_the_library_and_leave_the_reader_their_own(
        text: str, language: str, library: tuple[str, ...], heads: tuple[str, ...]) -> None:
    use = read_use(text, languages([language]))
    assert use is not None
    assert use.library == library
    assert use.heads == heads


@pytest.mark.parametrize(("text", "language"), [
    ("x := 1", "go"), ("let x = 1;", "rust"), ("Some(..)", "rust"), ('format!("{:#}", err)', "rust"),
    ("for i := range xs { f(i) }", "go"),
])
def test_what_is_no_go_or_rust_example_of_use(text: str, language: str) -> None:
    assert read_use(text, languages([language])) is None


def test_a_go_call_and_a_composite_literal_bind_with_the_reader_values() -> None:
    assert unbound('`r.Handle("GET /users", h)` works: the method goes before the path.', MUX) == []
    assert unbound('`r.Route("GET /users", h)` works.', MUX) == ['r.Route("GET /users", h)']
    assert unbound("`ThrottleOpts{Limit: 10, StatusCode: 503}` sheds load.", THROTTLE) == []
    assert unbound("`ThrottleOpts{Limit: 10, RetryAfter: 5}` sheds load.", THROTTLE) \
        == ["ThrottleOpts{Limit: 10, RetryAfter: 5}"]


def test_a_rust_call_and_a_macro_bind_with_the_reader_values() -> None:
    assert unbound("`set_boxed_logger(Box::new(MyLogger))` leaks the box.", LOGGER) == []
    assert unbound("`set_logger_boxed(Box::new(MyLogger))` leaks the box.", LOGGER) \
        == ["set_logger_boxed(Box::new(MyLogger))"]
    assert unbound('`bail!("x {}", y)` returns early with the error.', BAIL) == []
    assert unbound('`raise!("x {}", y)` returns early with the error.', BAIL) == ['raise!("x {}", y)']


def test_a_struct_the_claim_says_is_printed_is_an_output_not_a_use() -> None:
    context = ev("src/error.rs::ContextError", '''\
        pub struct ContextError<C, E> {
            pub context: C,
            pub error: E,
        }
    ''', "rust")
    assert unbound("Build one as `ContextError { context: c, error: e }`.", context) == []
    # what it renders as is a string of the code's, which this code does not write
    assert unbound("It renders as `ContextError { context: c, error: e }`.", context) \
        == ["ContextError { context: c, error: e }"]


def test_a_go_or_rust_call_must_fit_the_anchored_signature() -> None:
    tries = ev("tries.go::WithMaxRetries", '''\
        func WithMaxRetries(b BackOff, max uint64) BackOff {
            return &backOffTries{delegate: b, max: max}
        }
    ''', "go")
    assert unbound("`WithMaxRetries(b, 0)` runs the operation once.", tries) == []
    assert unbound("`WithMaxRetries(b, 0, time.Second)` runs it once.", tries) == ["WithMaxRetries(b, 0, time.Second)"]
    parse = ev("src/lib.rs::Version.parse", '''\
        pub fn parse<'a>(text: &'a str) -> Result<Version, Error> {
            let sep = '.';
            Ok(Version::new(text, sep))
        }
    ''', "rust")
    assert unbound('`Version::parse("1.2.3")?` gives a Version.', parse) == []
    assert unbound('`Version::parse("1.2.3", true)?` gives a Version.', parse) == ['Version::parse("1.2.3", true)?']
    use = ev("mux.go::Mux.Use", '''\
        func (mx *Mux) Use(middlewares ...func(http.Handler) http.Handler) {
            mx.middlewares = append(mx.middlewares, middlewares...)
        }
    ''', "go")
    assert unbound("`r.Use(a, b, c)` adds three.", use) == []
