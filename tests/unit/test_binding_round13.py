"""Binding classes of issue 30's round 13 (ten tuning sets: pkg/errors,
python-dotenv, go-version, go-humanize, bitflags, once_cell,
more-itertools, arrow, send, uuidjs).

Each case both ways.
"""

from __future__ import annotations

import pytest
from _binding import ev, unbound

import memvet
from memvet._claims import claim_terms

# ----------------------------------------------------------------- a setting the code passes on itself

CREATE_HTTP_ERROR = ev("index.js::createHttpError", """\
    function createHttpError (status, err) {
      if (!err) {
        return createError(status)
      }
      return err instanceof Error
        ? createError(status, err, { expose: false })
        : createError(status, err)
    }
""", "javascript")
SERVE = ev("index.js::serve", """\
    function serve (root, options) {
      var opts = Object.create(options || null)
      var redirect = opts.redirect !== false
      return send(req, path, { redirect: false })
    }
""", "javascript")


def test_a_setting_the_code_writes_itself_and_never_reads_is_the_codes_value():
    # the code passes `expose: false` and reads `expose` nowhere: the claim's other value is not the reader's
    assert unbound("createHttpError wraps real Error objects with `{ expose: true }`.", CREATE_HTTP_ERROR) \
        == ["{ expose: true }"]
    assert unbound("createHttpError wraps real Error objects with `{ expose: false }`.", CREATE_HTTP_ERROR) == []
    # the code reads the setting too (opts.redirect): a value the reader passes
    assert unbound("Pass `{ redirect: true }` to serve() to turn redirects on.", SERVE) == []


# ----------------------------------------------------------------- the case a claim says a string has

MAX = ev("src/max.ts", "export default 'ffffffff-ffff-ffff-ffff-ffffffffffff';\n", "typescript")
BYTES = ev("bytes.go::Bytes", """\
    func Bytes(s uint64) string {
        sizes := []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}
        return humanateBytes(s, 1000, sizes)
    }
""", "go")


def test_a_case_the_claim_remarks_on_before_a_string_or_of_a_letter_is_the_codes():
    assert unbound("MAX is upper-case: 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'.", MAX) \
        == ["FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"]
    assert unbound("MAX is lower-case: 'ffffffff-ffff-ffff-ffff-ffffffffffff'.", MAX) == []
    # no remark: a string compares in any case, hex digits and all
    assert unbound("MAX is 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'.", MAX) == []
    assert unbound('Bytes() uses KB for kilobytes (uppercase K), e.g. "1.5 KB".', BYTES) == ["1.5 KB"]
    assert unbound('Bytes() uses kB for kilobytes (lowercase k), e.g. "1.5 kB".', BYTES) == []


# ----------------------------------------------------------------- a call the claim says the code makes, in full

MAGIC = ev("src/dotenv/ipython.py::IPythonDotEnv.dotenv", """\
    @line_magic
    def dotenv(self, line):
        args = parse_argstring(self.dotenv, line)
        dotenv_path = args.dotenv_path
        try:
            dotenv_path = find_dotenv(dotenv_path, True, True)
        except IOError:
            print("cannot find .env file")
            return
""", "python")


def test_a_call_the_claim_says_the_code_makes_passes_as_many_arguments_as_the_codes():
    assert unbound("The magic calls find_dotenv(dotenv_path, True), usecwd left at False.", MAGIC) \
        == ["find_dotenv(dotenv_path, True)"]
    assert unbound("The magic calls find_dotenv(dotenv_path, True, True).", MAGIC) == []
    assert unbound("The magic calls find_dotenv(dotenv_path, ...).", MAGIC) == []


def test_a_parameter_of_a_function_the_code_calls_is_named_in_prose():
    known = frozenset({"find_dotenv(raise_error_if_not_found=<_>)"})
    claim = "The magic calls find_dotenv(dotenv_path, True, True), i.e. {}."
    assert unbound(claim.format("raise_error_if_not_found"), MAGIC, known=known) == []
    assert unbound(claim.format("raise_if_missing"), MAGIC, known=known) == ["raise_if_missing"]


def test_an_ipython_magic_is_the_anchored_line_magic():
    assert unbound("`%dotenv` loads the file found by find_dotenv().", MAGIC) == []
    assert unbound("`%loadenv` loads the file found by find_dotenv().", MAGIC) == ["%loadenv"]


# ----------------------------------------------------------------- a tuple returned without parentheses

UNSET = ev("src/dotenv/main.py::unset_key", """\
    def unset_key(dotenv_path, key_to_unset, quote_mode="always"):
        if not os.path.exists(dotenv_path):
            logger.warning("Can't delete from %s - it doesn't exist.", dotenv_path)
            return None, key_to_unset
        return removed, key_to_unset
""", "python")


def test_a_tuple_the_code_returns_without_parentheses():
    assert unbound("unset_key on a missing file returns `(None, key)`.", UNSET) == []
    assert unbound("unset_key on a missing file returns `(None, key_to_unset)`.", UNSET) == []
    assert unbound("unset_key on a missing file returns `(False, key)`.", UNSET) == ["(False, key)"]
    assert unbound("unset_key on a missing file returns `(None, path)`.", UNSET) == ["(None, path)"]


# ----------------------------------------------------------------- a subcommand of the anchored program

RUN = ev("src/dotenv/cli.py::run", """\
    @cli.command(
        context_settings={"ignore_unknown_options": True},
    )
    @click.pass_context
    @click.option("--override/--no-override", default=True)
    def run(ctx, override, commandline):
        file = ctx.obj["FILE"]
""", "python")
HELPER = ev("src/dotenv/cli.py::run", """\
    def run(ctx, override, commandline):
        file = ctx.obj["FILE"]
""", "python")


def test_a_command_line_naming_the_anchored_subcommand():
    assert unbound("`dotenv run` has --override/--no-override.", RUN) == []
    # not a command of the program (a plain function), or another program
    assert "dotenv run" in unbound("`dotenv run` has --override/--no-override.", HELPER)
    assert unbound("`envtool run` has --override/--no-override.", RUN) == ["envtool run"]


# ----------------------------------------------------------------- a signature written out

GET_KEY = ev("src/dotenv/main.py::get_key", """\
    def get_key(
        dotenv_path: StrPath,
        key_to_get: str,
        encoding: Optional[str] = "utf-8",
        retries: int = 3,
    ) -> Optional[str]:
        return DotEnv(dotenv_path, verbose=True, encoding=encoding).get(key_to_get)
""", "python")


def test_a_signature_written_out_gives_the_codes_defaults():
    assert unbound("get_key(path, key, encoding=None, retries=3) reads with the platform encoding.", GET_KEY) \
        == ["get_key(path, key, encoding=None, retries=3)"]
    assert unbound("get_key(path, key, encoding=\"utf-8\", retries=5) reads the file.", GET_KEY) \
        == ["get_key(path, key, encoding=\"utf-8\", retries=5)"]
    assert unbound("get_key(path, key, encoding=\"utf-8\", retries=3) reads the file.", GET_KEY) == []
    # a use, not the signature: the reader's own values
    assert unbound("get_key(\".env\", \"FOO\", encoding=None) reads with the platform encoding.", GET_KEY) == []


# ----------------------------------------------------------------- one name, one inline module each (Rust)

LIB_RS = """\
pub mod unsync {
    pub struct Lazy<T> { cell: T }
    impl<T> Lazy<T> {
        pub fn force(this: &Lazy<T>) -> &T {
            panic!("Lazy instance has previously been poisoned")
        }
    }
}

pub mod sync {
    pub struct Lazy<T> { cell: T }
    impl<T> Lazy<T> {
        pub fn force(this: &Lazy<T>) -> &T {
            panic!("Lazy instance has previously been poisoned")
        }
    }
}
"""


def test_an_item_each_inline_module_defines_is_anchored_in_each(repo, ledger) -> None:
    repo.write("src/lib.rs", LIB_RS, dedent=False)
    repo.commit("once_cell's two flavours")
    rec = ledger.record("`Lazy::force` panics with `Lazy instance has previously been poisoned`.",
                        ["src/lib.rs::Lazy.force"])
    assert sorted(a.name for a in rec.decision.anchors) == ["sync.Lazy.force", "unsync.Lazy.force"]
    assert ledger.verify(rec.decision.id).status is memvet.Status.VERIFIED
    # the claim is read against both: a message neither writes stays unconfirmed
    other = ledger.record("`Lazy::force` panics with `Lazy was poisoned`.", ["src/lib.rs::Lazy.force"])
    assert ledger.verify(other.decision.id).status is memvet.Status.NEEDS_REVALIDATION
    with pytest.raises(memvet.AnchorNotFoundError):
        ledger.record("force", ["src/lib.rs::Lazy.reset"])


# ----------------------------------------------------------------- the claim's own name for an argument

FTOA = ev("ftoa.go::Ftoa", """\
    func Ftoa(num float64) string {
        return stripTrailingZeros(strconv.FormatFloat(num, 'f', 6, 64))
    }
""", "go")


def test_a_call_with_the_claims_own_name_for_an_argument_and_the_codes_literals():
    assert unbound("Ftoa(x) is strconv.FormatFloat(x, 'f', 6, 64) with trailing zeros removed.", FTOA) == []
    # a literal the code does not pass, or a name the code uses for something else
    assert unbound("Ftoa(x) is strconv.FormatFloat(x, 'f', 3, 64) with trailing zeros removed.", FTOA) \
        == ["strconv.FormatFloat(x, 'f', 3, 64)"]
    assert unbound("Ftoa(x) is strconv.FormatFloat(x, 'g', 6, 64) with trailing zeros removed.", FTOA) \
        == ["strconv.FormatFloat(x, 'g', 6, 64)"]


# ----------------------------------------------------------------- Go's fmt verbs of an anchored Format method

FORMAT = ev("stack.go::Frame.Format", """\
    func (f Frame) Format(s fmt.State, verb rune) {
        switch verb {
        case 's':
            switch {
            case s.Flag('+'):
                io.WriteString(s, f.name())
            default:
                io.WriteString(s, path.Base(f.file()))
            }
        case 'd':
            io.WriteString(s, strconv.Itoa(f.line()))
        case 'v':
            f.Format(s, 's')
            io.WriteString(s, ":")
            f.Format(s, 'd')
        }
    }
""", "go")


def test_fmt_verbs_the_anchored_format_method_handles():
    assert unbound("A Frame printed with `%+s` gives its function name.", FORMAT) == []
    assert unbound("Frame %v is just `%s:%d`.", FORMAT) == []
    # a verb it does not handle, a flag it does not ask about, a separator it does not write
    assert unbound("A Frame printed with `%q` gives its function name.", FORMAT) == ["%q"]
    assert unbound("A Frame printed with `%#s` gives its function name.", FORMAT) == ["%#s"]
    assert unbound("Frame %v is just `%s@%d`.", FORMAT) == ["%s@%d"]


# ----------------------------------------------------------------- a key a manifest lacks, the debug namespace, npx

PACKAGE = ev("package.json", """\
    {
      "name": "uuid",
      "devDependencies": {"commander": "^12.1.0"}
    }
""", "")
SEND = ev("index.js", """\
    var debug = require('debug')('send')
    function send (req, path, options) {
      debug('stat "%s"', path)
    }
""", "javascript")


def test_a_key_the_claim_says_a_file_lacks():
    assert unbound('uuid has zero runtime deps: no "dependencies" block in package.json.', PACKAGE) == []
    assert unbound('uuid has no "devDependencies" block in package.json.', PACKAGE) == []  # bound, as written
    assert unbound('package.json has a "dependencies" block.', PACKAGE) == ["dependencies"]


def test_a_debug_namespace_the_code_creates():
    assert unbound("Run with `DEBUG=send node app` to see its traces.", SEND) == []
    assert unbound("Run with `DEBUG=send:* node app` to see its traces.", SEND) == []
    assert unbound("Run with `DEBUG=express node app` to see its traces.", SEND) == ["DEBUG=express node app"]


def test_the_packages_own_program_run_with_npx():
    # (`known` stands for the repository's own package name here)
    assert unbound("`npx uuid` prints a v4.", SEND, known=frozenset({"uuid"})) == []
    assert unbound("`npx uuidgen` prints a v4.", SEND, known=frozenset({"uuid"})) == ["npx uuidgen"]


def test_a_naming_style_named_in_prose():
    assert unbound("it reads `opts.maxAge || opts.maxage`, so camelCase maxAge wins.",
                   ev("index.js::SendStream", "var maxAge = opts.maxAge || opts.maxage\n", "javascript")) == []
    assert unbound("it reads `opts.maxAge || opts.maxage`, so camelCased maxAge wins.",
                   ev("index.js::SendStream", "var maxAge = opts.maxAge || opts.maxage\n", "javascript")) \
        == ["camelCased"]


# ----------------------------------------------------------------- a separator, and the end of a range

JOIN = ev("constraint.go::Constraints.String", """\
    func (cs Constraints) String() string {
        csStr := make([]string, len(cs))
        return strings.Join(csStr, ",")
    }
""", "go")
ISO = ev("arrow/util.py::iso_to_gregorian", """\
    def iso_to_gregorian(iso_year, iso_week, iso_day):
        if not 1 <= iso_week <= 53:
            raise ValueError("ISO Calendar week value must be between 1-53.")
""", "python")


def test_a_separator_the_code_joins_with_is_compared_as_written():
    assert unbound('Constraints.String() joins with ", " (comma + space).', JOIN) == [", "]
    assert unbound('Constraints.String() joins with "," (no space).', JOIN) == []
    assert unbound('Constraints.String() is joined by ",".', JOIN) == []


def test_both_ends_of_a_range_written_with_two_dots_are_numbers():
    assert claim_terms_of("iso_week is checked to be in 1..52") == ["iso_week", "1", "52"]
    assert unbound("iso_to_gregorian validates iso_week in 1..52 and raises ValueError otherwise.", ISO) == ["52"]
    assert unbound("iso_to_gregorian validates iso_week in 1..53 and raises ValueError otherwise.", ISO) == []


def claim_terms_of(claim: str) -> list[str]:
    return [t.text for t in claim_terms(claim)]


ENUMERATE = ev("src/fmt.rs::ErrorImpl.debug", """\
    for (n, error) in chain.enumerate() {
        backtrace.replace_range(0..1, "S");
        write!(f, "{: >5}: {}", n, error)?;
    }
""", "rust")
BACKOFF = ev("backoff.py::expo", """\
    def expo(base=2, factor=300):
        n = 0
        while True:
            yield factor * base ** n
            n += 1
""", "python")


def test_counting_is_no_series_the_code_computes():
    # 1, 2, 3...: every code has a 1; the numbering is the claim's point
    assert unbound("The causes are numbered 1, 2, 3... in the list.", ENUMERATE) == ["2", "3"]
    # a series whose step the code writes binds from its first item
    assert unbound("Delays grow 300 ms, 600 ms, 1200 ms ...", BACKOFF) == []


SET_KEY = ev("src/dotenv/main.py::set_key", """\
    def set_key(dotenv_path, key_to_set, value_to_set, quote_mode="always"):
        if quote_mode not in ("always", "auto", "never"):
            raise ValueError(f"Unknown quote_mode: {quote_mode}")
""", "python")


def test_the_verb_after_a_list_of_values_is_no_member_of_it():
    assert unbound('set_key checks quote_mode against always/auto/never and raises '
                   '`ValueError(f"Unknown quote_mode: {quote_mode}")` otherwise.', SET_KEY) == []
    # a member the code's list lacks is still one
    assert unbound("quote_mode is one of always, auto, never and sometimes.", SET_KEY) == ["sometimes"]


# ----------------------------------------------------------------- Go's interfaces, Go's build lines, Rust's signatures

MARSHAL = ev("stack.go::Frame.MarshalText", """\
    func (f Frame) MarshalText() ([]byte, error) {
        return []byte(f.name()), nil
    }
""", "go")
UNWRAP = ev("errors.go::withStack.Unwrap", "func (w *withStack) Unwrap() error { return w.error }\n", "go")
GO113 = ev("go113.go", """\
    // +build go1.13

    package errors

    import stderrors "errors"

    func Is(err, target error) bool { return stderrors.Is(err, target) }
""", "go")
SET = ev("src/race.rs::once_box.OnceBox.set", """\
    pub fn set(&self, value: Box<T>) -> Result<(), Box<T>> {
        let ptr = Box::into_raw(value);
        Ok(())
    }
""", "rust")
LAST = ev("more_itertools/more.py::last", """\
    def last(iterable, default=_marker):
        if hasattr(iterable, '__reversed__'):
            return next(reversed(iterable))
""", "python")


def test_a_go_interface_the_anchored_type_implements_by_its_methods():
    assert unbound("Frame implements encoding.TextMarshaler: MarshalText gives its name.", MARSHAL) == []
    assert unbound("Frame implements json.Marshaler: MarshalText gives its name.", MARSHAL) == ["json.Marshaler"]
    assert unbound("withStack has Unwrap(), so wrapped errors work with errors.Is / errors.As.", UNWRAP) == []
    assert unbound("Frame's text works with errors.Is.", MARSHAL) == ["errors.Is"]


def test_a_go_build_constraint_is_code():
    assert unbound("Is lives in go113.go, which builds on Go 1.13+ only (`// +build go1.13`).", GO113) == []
    assert unbound("Is lives in go113.go, which builds on Go 1.12+ only (`// +build go1.12`).", GO113) \
        == ["// +build go1.12"]


def test_a_rust_signature_written_by_its_types():
    assert unbound("`OnceBox::set(Box<T>) -> Result<(), Box<T>>`: on a full cell you get your box back.", SET) == []
    assert unbound("`OnceBox::set(value: Box<T>) -> Result<(), Box<T>>` gives the box back.", SET) == []
    assert unbound("`OnceBox::set(Box<T>) -> Result<(), ()>` drops the box.", SET) \
        == ["OnceBox::set(Box<T>) -> Result<(), ()>"]


def test_a_nested_call_with_the_claims_own_name():
    assert unbound("last() uses next(reversed(x)) when the iterable has __reversed__.", LAST) == []
    assert unbound("last() uses next(iter(x)) when the iterable has __reversed__.", LAST) == ["next(iter(x))"]


MINMAX = ev("more_itertools/more.py::minmax", """\
    def minmax(iterable_or_value, *others, key=None, default=_marker):
        try:
            lo = hi = next(it)
        except StopIteration as exc:
            if default is _marker:
                raise ValueError('`minmax()` argument is an empty iterable.') from exc
            return default
""", "python")


def test_a_negation_of_another_word_does_not_reach_the_exception_after_it():
    # "without default" negates the default; TypeError is what the claim says it raises, and the code does not
    assert unbound("`minmax([])` without default raises TypeError.", MINMAX) == ["TypeError"]
    assert unbound("`minmax([])` without default raises ValueError.", MINMAX) == []
    # a name the claim says the code lacks, and it does
    assert unbound("minmax takes no `reverse` argument.", MINMAX) == []


RANGES = ev("index.js::SendStream.prototype.send", """\
    SendStream.prototype.send = function send (path, stat) {
      var ranges = parseRange(len, ranges, { combine: true })
    }
""", "javascript")


def test_a_literal_is_never_the_claims_own_name():
    assert unbound("ranges are parsed with `parseRange(len, ranges, { combine: false })`.", RANGES) \
        == ["parseRange(len, ranges, { combine: false })"]
    assert unbound("ranges are parsed with `parseRange(size, ranges, { combine: true })`.", RANGES) == []


# ----------------------------------------------------------------- after the sealed run (either, type-is: spent)

LEFT_AND = ev("src/lib.rs::Either.left_and", """\
    pub fn left_and<S>(self, other: Either<S, R>) -> Either<S, R> {
        self.left_and_then(|_| other)
    }
""", "rust")
CHAIN = ev("src/lib.rs::Either.chain", """\
    pub fn chain(self) -> u32 {
        self.left_and(
            other,
        )
    }
""", "rust")


def test_a_parameter_typed_with_type_arguments_is_one_parameter():
    # `other: Either<S, R>` was read as two parameters, `other: Either<S` and `R>`
    assert unbound("left_and(other) is not lazy: `other` is passed by value.", LEFT_AND) == []
    assert unbound("left_and(other, default) is not lazy.", LEFT_AND) == ["left_and(other, default)"]


def test_a_trailing_comma_of_a_call_is_layout():
    assert unbound("chain calls left_and(other).", CHAIN) == []
    assert unbound("chain calls left_and(other, 1).", CHAIN) == ["left_and(other, 1)"]
