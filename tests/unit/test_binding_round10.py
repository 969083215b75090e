"""Binding classes of issue 30's round 10 (eight tuning sets: uuid, http-errors,
color, golang-lru, walkdir, python-slugify, qs, ms).

Each case both ways. Values the code computes: sums of literals (``case
36 + 9``), constants set by arithmetic of constants (``const y = d *
365.25``) and Go's ``iota`` blocks. Inputs the code's own anchored
regular expressions take whole. Messages concatenated around a
parenthesized operand, and placeholders that name a call. Prose paths
(``non-unix/non-windows``) and status classes written as a path
(``4xx/5xx``). A call of what a call returns is one term. An example of
a call the code itself makes with another constant is not a use of it.
A Go method after a comment is a definition, and its head no call.
Anchors: a Rust trait impl's item named with its self type's path and
its trait without arguments; one Rust item defined once per platform.
"""

from __future__ import annotations

import textwrap

import pytest

import memvet
from memvet._claims import (
    EvidenceText,
    TermKind,
    _enumerated,
    _Index,
    _params,
    anchored_patterns,
    bind,
    claim_terms,
    constant_values,
    numbers_in,
)


def ev(label: str, text: str, language: str) -> EvidenceText:
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText, known: frozenset[str] = frozenset()) -> list[str]:
    """The claim's unbound terms; ``known`` names are names the repository defines elsewhere."""
    return [u.term.text for u in bind(claim, list(evidence), exists=lambda term: term.text in known)]


# ----------------------------------------------------------------- computed values

PARSE = ev("uuid.go::Parse", """\
    func Parse(s string) (UUID, error) {
    \tswitch len(s) {
    \tcase 36:
    \tcase 36 + 9:
    \t\ts = s[9:]
    \tcase 36 + 2:
    \t\ts = s[1:]
    \t}
    }
""", "go")


def test_a_sum_of_literals_is_its_value() -> None:
    assert numbers_in("case 36 + 9: x = a[n - 1]") >= {45.0, 36.0, 9.0}
    assert 44.0 not in numbers_in("case 36 + 9:")
    assert unbound("Parse takes the 45-char URN form and the 38-char braced one.", PARSE) == []
    assert unbound("Parse takes the 44-char URN form.", PARSE) == ["44"]


def test_constants_set_by_arithmetic_are_their_values() -> None:
    code = "const s = 1000;\nconst m = s * 60;\nconst h = m * 60;\nconst d = h * 24;\nconst y = d * 365.25;\n"
    assert constant_values(code)["y"] == 31557600000.0
    units = ev("src/index.ts", code, "typescript")
    assert unbound("so one year is 31557600000 ms.", units) == []
    assert unbound("so one year is 31536000000 ms.", units) == ["31536000000"]
    # a name it does not know, what is no arithmetic, or no finite number, gives nothing
    assert constant_values("const z = q * 2;\nconst w = f(3);\nconst v = (1 +;\n") == {}
    assert constant_values("x = 1e999 << 2\ny = 1e999 * 2\n") == {}


COLORS = """\
    const (
    \tFgBlack Attribute = iota + 30
    \tFgRed
    \tFgGreen
    \t_
    \tFgBlue
    )
"""


def test_a_go_iota_block_counts_its_specs() -> None:
    assert constant_values(textwrap.dedent(COLORS)) == {"FgBlack": 30.0, "FgRed": 31.0, "FgGreen": 32.0,
                                                         "FgBlue": 34.0}
    block = ev("color.go::FgBlack", COLORS, "go")
    assert unbound("FgBlack=30, FgRed=31 and FgBlue=34.", block) == []
    assert unbound("FgRed=32.", block) == ["FgRed=32"]


def test_an_iota_constant_anchored_alone_is_checked_against_its_block(repo, ledger) -> None:
    repo.write("color.go", "package color\n\ntype Attribute int\n\n// Foreground colors\n"
               + textwrap.dedent(COLORS), dedent=False)
    repo.commit("colors")
    rec = ledger.record("FgBlue is 34, right after FgGreen = 32.", ["color.go::FgBlue"])
    assert rec.decision.findings == ()
    rec = ledger.record("FgBlue is 33.", ["color.go::FgBlue"])
    assert rec.decision.findings and "`33`" in rec.decision.findings[0]


# ----------------------------------------------------------------- inputs a pattern takes

PARSE_MS = ev("src/index.ts::parse", r"""
    export function parse(str: string): number {
      const match =
        /^(?<value>-?\d*\.?\d+) *(?<unit>milliseconds?|ms|seconds?|s|minutes?|m|hours?|h|days?|d)?$/i.exec(str);
      return match ? Number(match.groups.value) : NaN;
    }
""", "typescript")


def test_an_input_the_code_pattern_takes_whole_binds() -> None:
    assert unbound("Units ignore case: '1H', '2 Days' and '-.5m' all work.", PARSE_MS) == []
    assert unbound("'2 fortnights' works too.", PARSE_MS) == ["2 fortnights"]


def test_only_patterns_anchored_at_both_ends_are_read() -> None:
    assert [p.pattern for p in anchored_patterns(r'x = re.fullmatch(r"\d+\.\d+", s)')] == [r"\d+\.\d+"]
    assert [p.pattern for p in anchored_patterns(r'r := regexp.MustCompile(`^v\d+$`)')] == [r"^v\d+$"]
    assert anchored_patterns(r'x = re.search(r"\d+", s)') == []  # a search takes any text with a digit
    assert anchored_patterns(r'x = re.compile(r"^\d+")') == []
    # a pattern Python cannot read (a possessive quantifier in older Pythons, a \p class) is left out
    assert anchored_patterns(r'let re = Regex::new(r"^\p{L}+$")') == []


# ----------------------------------------------------------------- messages

CREATE_ERROR = ev("index.js::createError", """\
    function createError () {
      for (var i = 0; i < arguments.length; i++) {
        var type = typeof arg
        if (type !== 'object') {
          throw new TypeError('argument #' + (i + 1) + ' unsupported type ' + type)
        }
      }
    }
""", "javascript")
MS = ev("src/index.ts::ms", """\
    export function ms(value, options) {
      throw new Error(
        `Value provided to ms() must be a string or number. value=${JSON.stringify(value)}`,
      );
    }
""", "typescript")


def test_a_parenthesized_operand_of_a_message_is_any_text() -> None:
    assert unbound('It throws TypeError "argument #<n> unsupported type <type>".', CREATE_ERROR) == []
    assert unbound('It throws TypeError "argument #<n> is of unknown type <type>".', CREATE_ERROR) != []


def test_a_placeholder_may_name_a_call() -> None:
    assert unbound('It throws "Value provided to ms() must be a string or number. value=<JSON.stringify(value)>".',
                   MS) == []
    assert unbound('It throws "Value given to ms() must be a string. value=<JSON.stringify(value)>".', MS) != []


# ----------------------------------------------------------------- prose paths

POPULATE = ev("index.js::populateConstructorExports", """\
    function populateConstructorExports (exports, codes, HttpError) {
      codes.forEach(function forEachCode (code) {
        switch (codeClass(code)) {
          case 400:
            CodeError = createClientErrorConstructor(HttpError, name, code)
            break
          case 500:
            CodeError = createServerErrorConstructor(HttpError, name, code)
            break
        }
      })
    }
""", "javascript")


def test_hyphenated_words_around_a_slash_are_prose() -> None:
    kinds = {t.text: t.kind for t in claim_terms("on a non-unix/non-windows target it fails")}
    assert "non-unix/non-windows" not in kinds
    assert [t.text for t in claim_terms("reads src/non-unix/lib.rs")] == ["src/non-unix/lib.rs"]


def test_status_classes_written_as_a_path_are_status_classes() -> None:
    assert [(t.text, t.kind) for t in claim_terms("non-4xx/5xx codes warn")] == [
        ("4xx", TermKind.NUMBER), ("5xx", TermKind.NUMBER)]
    assert unbound("Only 4xx/5xx codes get constructors.", POPULATE) == []
    assert unbound("Only 3xx/4xx codes get constructors.", POPULATE) == ["3xx"]


# ----------------------------------------------------------------- calls

HASHES = [ev("hash.go::NewMD5", """\
    func NewMD5(space UUID, data []byte) UUID {
    \treturn NewHash(md5.New(), space, data, 3)
    }
""", "go"), ev("hash.go::NewSHA1", """\
    func NewSHA1(space UUID, data []byte) UUID {
    \treturn NewHash(sha1.New(), space, data, 5)
    }
""", "go")]
WRAP = ev("color.go::Color.Sprintln", """\
    func (c *Color) Sprintln(a ...interface{}) string {
    \treturn c.wrap(sprintln(a...)) + "\\n"
    }
""", "go")
SET_DEFAULT = ev("cache.go::cache.SetDefault", """\
    func (c *cache) SetDefault(k string, x interface{}) {
    \tc.Set(k, x, DefaultExpiration)
    }
""", "go")
MATCHES = ev("src/lib.rs::Pattern.matches", """\
    pub fn matches(&self, str: &str) -> bool {
        self.matches_with(str, MatchOptions::new())
    }

    pub fn matches_with(&self, str: &str, options: MatchOptions) -> bool {
        self.matches_from(true, str.chars(), 0, options)
    }
""", "rust")


def test_the_code_own_call_with_another_constant_is_not_an_example_of_it() -> None:
    # NewHash is the repository's, defined in a file nobody anchored
    repository = frozenset({"NewHash", "wrap", "Set"})
    assert unbound("NewMD5 is NewHash(md5.New(), space, data, 5).", *HASHES, known=repository) == [
        "NewHash(md5.New(), space, data, 5)"]
    assert unbound("NewMD5 is NewHash(md5.New(), space, data, 3).", *HASHES, known=repository) == []
    assert unbound("Sprintln is c.wrap(fmt.Sprintln(a...)).", WRAP, known=repository) == [
        "c.wrap(fmt.Sprintln(a...))"]
    # the example's own variable names, and a package the code leaves out, are the same call
    assert unbound("Sprintln is c.wrap(s).", WRAP, known=repository) == []
    assert unbound("SetDefault is `c.Set(k, x, cache.DefaultExpiration)`.", SET_DEFAULT, known=repository) == []
    assert unbound("matches(s) is matches_with(s, MatchOptions::new()).", MATCHES) == []


DEPD = ev("index.js", "var deprecate = require('depd')('http-errors')\n", "javascript")


def test_a_call_of_what_a_call_returns_is_one_term() -> None:
    assert [(t.text, t.kind) for t in claim_terms("it does require('depd')('http-errors') first")] == [
        ("require('depd')('http-errors')", TermKind.CODE)]
    assert unbound("index.js does require('depd')('http-errors').", DEPD) == []
    assert unbound("index.js does require('depd')('createError').", DEPD) == ["require('depd')('createError')"]


SPRINTLN = ev("color.go::Color.Sprintln", """\
    // Sprintln is just like Sprint, but with a newline.
    func (c *Color) Sprintln(a ...interface{}) string {
    \treturn c.wrap(sprintln(a...)) + "\\n"
    }
""", "go")


def test_a_go_method_after_its_comment_is_a_definition_and_its_head_no_call() -> None:
    index = _Index([SPRINTLN])
    assert [sorted(d.names) for d in index.definitions()] == [["Sprintln"]]
    assert index.calls("Sprintln") == []
    assert index.calls("Sprintln", headers=True) == ["Sprintln(a ...interface{})"]
    assert unbound('`c.Sprintln("x")` adds a newline.', SPRINTLN) == []


# ----------------------------------------------------------------- anchors

ERROR_RS = """\
use std::io;

pub struct Error { depth: usize }

impl From<Error> for io::Error {
    fn from(walk_err: Error) -> io::Error {
        io::Error::new(io::ErrorKind::Other, walk_err)
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }
}
"""
UTIL_RS = """\
use std::io;

#[cfg(unix)]
pub fn device_num(path: &str) -> io::Result<u64> {
    Ok(1)
}

#[cfg(windows)]
pub fn device_num(path: &str) -> io::Result<u64> {
    Ok(2)
}

#[cfg(not(any(unix, windows)))]
pub fn device_num(_: &str) -> io::Result<u64> {
    Err(io::Error::new(io::ErrorKind::Other, "walkdir: same_file_system option not supported on this platform"))
}

pub fn twice(x: u64) -> u64 { x * 2 }
"""


@pytest.fixture
def crate(repo):
    repo.write("Cargo.toml", '[package]\nname = "walk"\nversion = "0.1.0"\n', dedent=False)
    repo.write("src/error.rs", ERROR_RS, dedent=False)
    repo.write("src/util.rs", UTIL_RS, dedent=False)
    repo.commit("crate")
    return repo


@pytest.mark.parametrize("name", ["<io::Error as From>.from", "<std::io::Error as From<Error>>.from",
                                  "<Error as From<Error>>.from"])
def test_a_trait_impl_item_is_found_by_the_names_people_write(crate, ledger, name) -> None:
    rec = ledger.record("Converting keeps the error as the inner error of an io::Error.", [f"src/error.rs::{name}"])
    assert [a.name for a in rec.decision.anchors] == ["<Error as From<Error>>.from"]


def test_a_trait_impl_item_of_another_trait_is_not_found(crate, ledger) -> None:
    with pytest.raises(memvet.AnchorNotFoundError):
        ledger.record("Converting keeps the error.", ["src/error.rs::<io::Error as Into>.from"])
    with pytest.raises(memvet.AnchorNotFoundError):
        ledger.record("Converting keeps the error.", ["src/error.rs::<io::Error as From<u8>>.from"])


def test_an_item_defined_per_platform_is_anchored_on_every_platform(crate, ledger) -> None:
    rec = ledger.record('device_num errors out with "walkdir: same_file_system option not supported on this '
                        'platform" on other targets.', ["src/util.rs::device_num"])
    assert [a.name for a in rec.decision.anchors] == ["device_num(&str)", "device_num(&str)#2", "device_num(&str)#3"]
    assert rec.decision.findings == ()


# ----------------------------------------------------------------- contrasts, examples, plurals

FMT_LONG = ev("src/index.ts::fmtLong", """\
    function fmtLong(ms: number): string {
      const msAbs = Math.abs(ms);
      if (msAbs >= d) {
        return plural(ms, msAbs, d, 'day');
      }
      return `${ms} ms`;
    }
""", "typescript")


def test_a_value_the_claim_says_the_code_does_not_have_need_not_bind() -> None:
    assert unbound("below a second it writes `<n> ms`, not 'milliseconds'.", FMT_LONG) == []
    assert unbound("a day is always one unit; days aren't 30 hours.", FMT_LONG) == []
    # said without the negation, it is a value of the claim's
    assert unbound("below a second it writes 'milliseconds'.", FMT_LONG) == ["milliseconds"]


CODE_CLASS = ev("index.js::codeClass", """\
    function codeClass (status) {
      return Number(String(status).charAt(0) + '00')
    }
""", "javascript")


def test_numbers_of_an_example_after_e_g_are_the_example_s() -> None:
    assert unbound("codeClass keeps the first digit, e.g. 404 -> 400.", CODE_CLASS) == []
    assert unbound("codeClass keeps the first digit (e.g. 404 -> 400).", CODE_CLASS) == []
    assert unbound("codeClass maps 404 to 400.", CODE_CLASS) == ["404", "400"]


UNITS = ev("src/index.ts::parse", """\
    switch (unit) {
      case 'months':
      case 'month':
        return n * mo;
    }
""", "typescript")


def test_a_plural_ending_in_parentheses_is_either_form() -> None:
    assert unbound("months need 'month(s)'.", UNITS) == []
    assert unbound("weeks need 'week(s)'.", UNITS) == ["week(s)"]


NULL_UUID = ev("null.go::NullUUID.MarshalJSON", """\
    func (nu NullUUID) MarshalJSON() ([]byte, error) {
    \tif nu.Valid {
    \t\treturn json.Marshal(nu.UUID)
    \t}
    \treturn jsonNull, nil
    }
""", "go")


def test_a_go_field_the_method_branches_on_binds_as_a_switch() -> None:
    assert unbound("NullUUID with Valid=false marshals to `null`.", NULL_UUID) == []
    assert unbound("NullUUID with Present=false marshals to `null`.", NULL_UUID) == ["Present=false"]


# ----------------------------------------------------------------- Go generics, ellipses in messages

NEW_LRU = ev("expirable/expirable_lru.go::NewLRU", """\
    func NewLRU[K comparable, V any](size int, onEvict EvictCallback[K, V], ttl time.Duration) *LRU[K, V] {
    \tif size < 0 {
    \t\tsize = 0
    \t}
    \treturn &LRU[K, V]{size: size, onEvict: onEvict, ttl: ttl}
    }
""", "go")


def test_a_go_call_with_type_arguments_is_the_call() -> None:
    assert unbound("`cache := expirable.NewLRU[string, string](5, nil, 10*time.Millisecond)` makes one.",
                   NEW_LRU) == []
    # Go has no default arguments: two of three are no call of it
    assert unbound("`expirable.NewLRU[string, string](5, nil)` makes one.", NEW_LRU) == [
        "expirable.NewLRU[string, string](5, nil)"]


PARSE_UNIT = ev("src/index.ts::parse", """\
    export function parse(str: string): number {
      switch (unit) {
        default:
          throw new Error(
            `Unknown unit "${matchUnit}" provided to ms.parse(). value=${JSON.stringify(str)}`,
          );
      }
    }
""", "typescript")


def test_an_ellipsis_in_a_call_s_message_stands_for_any_text() -> None:
    assert unbound('It throws Error(`Unknown unit "${matchUnit}" provided to ms.parse(). value=...`).',
                   PARSE_UNIT) == []
    assert unbound('It throws Error(`Unknown unit "${matchUnit}" given to ms.parse(). value=...`).',
                   PARSE_UNIT) != []


INSPECT_OPTS = ev("src/node.js::exports.inspectOpts", r"""
    exports.inspectOpts = Object.keys(process.env).filter(key => {
        return /^debug_/i.test(key);
    }).reduce((obj, key) => {
        const prop = key.substring(6).toLowerCase().replace(/_([a-z])/g, (_, k) => k.toUpperCase());
        obj[prop] = process.env[key];
        return obj;
    }, {});
    const hideDate = exports.inspectOpts.hideDate;
""", "javascript")


def test_a_variable_the_code_takes_by_its_prefix_binds() -> None:
    assert unbound("set DEBUG_HIDE_DATE to drop the date.", INSPECT_OPTS) == []
    assert unbound("set DEBUG_SHOW_MILLIS to see milliseconds.", INSPECT_OPTS) == ["DEBUG_SHOW_MILLIS"]
    assert unbound("set TRACE_HIDE_DATE to drop the date.", INSPECT_OPTS) == ["TRACE_HIDE_DATE"]


# ----------------------------------------------------------------- after the sealed run (env_logger, tomli)

def test_constants_joined_by_a_slash_are_one_term_each() -> None:
    assert [(t.text, t.kind) for t in claim_terms("it picks up RUST_LOG/RUST_LOG_STYLE.")] == [
        ("RUST_LOG", TermKind.CONSTANT), ("RUST_LOG_STYLE", TermKind.CONSTANT)]


LOADS = ev("src/tomli/_parser.py::loads", """\
    def loads(s, *, parse_float=float):
        try:
            src = s.replace("\\r\\n", "\\n")
        except (AttributeError, TypeError):
            raise TypeError(f"Expected str object, not '{type(s).__qualname__}'") from None
""", "python")


def test_a_value_quoted_in_an_example_aside_is_the_example_s() -> None:
    assert unbound("Bytes give TypeError: Expected str object, not '<qualname>' (e.g. 'bytes').", LOADS) == []
    assert unbound("Bytes give a TypeError that names 'bytes'.", LOADS) == ["bytes"]


def test_the_project_s_own_package_name_binds(crate, ledger) -> None:
    crate.write("Cargo.toml", '[package]\nname = "walk_util"\nversion = "0.1.0"\n', dedent=False)
    crate.commit("rename")
    rec = ledger.record("walk_util's device_num reads the device number.", ["src/util.rs::device_num"])
    assert rec.decision.findings == ()
    rec = ledger.record("walk_utils's device_num reads the device number.", ["src/util.rs::device_num"])
    assert rec.decision.findings and "`walk_utils`" in rec.decision.findings[0]


# ----------------------------------------------------------------- Go parameters, bounds

def test_go_parameters_are_read_by_name_and_type() -> None:
    params, variadic, _ = _params("size int, onEvict EvictCallback[K, V], ttl time.Duration")
    assert [(p.name, p.annotation) for p in params] == [
        ("size", "int"), ("onEvict", "EvictCallback[K, V]"), ("ttl", "time.Duration")]
    assert not variadic
    # k, v string: both names; a TypeScript parameter property is no Go parameter
    assert [p.name for p in _params("k, v string")[0]] == ["k", "v"]
    assert [p.name for p in _params("private readonly name: string")[0]] == [""]


def test_a_bound_is_no_enumeration_of_a_parameter_s_values() -> None:
    assert _enumerated("mode", "if mode == 'strict' {\n} else if mode == 'lax' {")
    assert not _enumerated("mode", "if mode == 'strict' {")  # one value is a special case, not a list
    assert _enumerated("mode", "switch (mode) {")
    assert not _enumerated("size", "if size <= 0 {")
    assert not _enumerated("method", 'if method == "" {\n} else if method == "HEAD" {')
    assert _enumerated("method", 'if "GET" == method {\n} else if method == "HEAD" {')
    assert not _enumerated("", "if size == 0 {")
    # a literal for a bounded parameter is an example value: NewLRU(5, ...) with `if size < 0`
    assert unbound("`expirable.NewLRU(7, nil, time.Second)` makes one.", NEW_LRU) == []
