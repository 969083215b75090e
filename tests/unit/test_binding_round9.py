"""Binding classes of issue 30's round 9 (go-cache, godotenv and cors tuned on).

Each case both ways. Leaks closed: a number in another argument's place,
a Go standard-library package the anchored code never uses (by path or by
name), a whole string value that only starts like the code's, a dotfile
of a family whose other member the code writes, a Go typed constant's
value. True claims bound: Go's conversion of a typed constant, a header
line the code writes as ``{key, value}``, a header's initials, a setting
named by the function that handles it, a shape in capitals, a value the
claim says a comment gives, a hyphenated prose word with a number, usage
examples with arithmetic of values, a framework call around the
library's, ``errors.Is`` with the library's sentinel and a function
literal passed.
"""

from __future__ import annotations

import textwrap

import pytest

import memvet
from memvet._claims import EvidenceText, TermKind, _Index, bind, claim_terms
from memvet._rules import contradictions


def ev(label: str, text: str, language: str) -> EvidenceText:
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText, mentioned: bool = False) -> list[str]:
    """The claim's unbound terms; with ``mentioned``, every name in prose is one the project mentions."""
    return [u.term.text for u in bind(claim, list(evidence),
                                      exists=lambda term: mentioned and term.kind is TermKind.PROPER)]


SENTINELS = [ev("cache.go::NoExpiration", "NoExpiration time.Duration = -1\n", "go"),
             ev("cache.go::DefaultExpiration", "DefaultExpiration time.Duration = 0\n", "go")]

EXPIRY = ev("cache.go::cache.GetWithExpiration", """\
    func (c *cache) GetWithExpiration(k string) (interface{}, time.Time, bool) {
        item, found := c.items[k]
        if !found {
            return nil, time.Time{}, false
        }
        return item.Object, time.Unix(0, item.Expiration), true
    }
""", "go")

SAVE = ev("cache.go::cache.Save", """\
    func (c *cache) Save(w io.Writer) (err error) {
        enc := gob.NewEncoder(w)
        return enc.Encode(&c.items)
    }
""", "go")

EXEC = ev("godotenv.go::Exec", """\
    func Exec(filenames []string, cmd string, cmdArgs []string) error {
        command := exec.Command(cmd, cmdArgs...)
        return command.Run()
    }
""", "go")

DEFAULTS = ev("lib/index.js", """\
    var defaults = {
      origin: '*',
      methods: 'GET,HEAD,PUT,PATCH,POST,DELETE',
    };
    function preflight(method) {
      if (method === 'OPTIONS') { return true; }
      throw new Error('Not allowed: ' + method);
    }
""", "javascript")

FILENAMES = ev("godotenv.go::filenamesOrDefault", """\
    func filenamesOrDefault(filenames []string) []string {
        if len(filenames) == 0 {
            return []string{".env"}
        }
        return filenames
    }
""", "go")

HEADERS = ev("lib/index.js::configureOrigin", """\
    function configureOrigin(options) {
      var headers = [];
      if (options.credentials === true) {
        headers.push({
          key: 'Access-Control-Allow-Credentials',
          value: 'true'
        });
      }
      headers.push({ key: 'Access-Control-Allow-Origin', value: '*' });
      return headers;
    }
""", "javascript")

PREFLIGHT = ev("lib/index.js::cors", """\
    function cors(options, req, res, next) {
      var headers = [];
      headers.push(configureMaxAge(options));
      headers.push(configureExposedHeaders(options));
      applyHeaders(headers, res);
    }
""", "javascript")

MARSHAL = ev("godotenv.go::Marshal", """\
    func Marshal(envMap map[string]string) (string, error) {
        lines := make([]string, 0, len(envMap))
        for k, v := range envMap {
            lines = append(lines, fmt.Sprintf(`%s="%s"`, k, doubleQuoteEscape(v)))
        }
        return strings.Join(lines, "\\n"), nil
    }
""", "go")

SET = ev("cache.go::cache.Set", """\
    func (c *cache) Set(k string, x interface{}) {
        c.mu.Lock()
        c.items[k] = x
        // TODO: not deferred because defer adds ~200 ns
        c.mu.Unlock()
    }
""", "go")

NEW = ev("cache.go::New", """\
    func New(defaultExpiration, cleanupInterval time.Duration) *Cache {
        items := make(map[string]Item)
        return newCacheWithJanitor(defaultExpiration, cleanupInterval, items)
    }
""", "go")

SETTER = ev("json_formatter.go::JSONFormatter.Format", """\
    func (f *JSONFormatter) Format(entry *Entry) ([]byte, error) {
        encoder := json.NewEncoder(b)
        encoder.SetEscapeHTML(!f.DisableHTMLEscape)
        return b.Bytes(), nil
    }
""", "go")

MERGE = ev("lib/index.js::middlewareWrapper", """\
    function middlewareWrapper(o) {
      var corsOptions = assign({}, defaults, o);
      return corsOptions;
    }
""", "javascript")

SENTINEL_ERR = ev("parser.go::ErrUnexpectedChar", 'ErrUnexpectedChar = errors.New("unexpected character")\n', "go")

WRAPPER = ev("lib/index.js::middlewareWrapper", """\
    function middlewareWrapper(o) {
      var optionsCallback = typeof o === 'function' ? o : function (req, cb) { cb(null, o); };
      return function corsMiddleware(req, res, next) {
        optionsCallback(req, function (err, options) {
          if (err) { next(err); }
        });
      };
    }
""", "javascript")


def test_a_go_typed_constant_is_its_conversion_and_its_value() -> None:
    assert unbound("`NoExpiration` is `time.Duration(-1)`.", *SENTINELS) == []
    assert unbound("`NoExpiration` is `time.Duration(-2)`.", *SENTINELS) == ["time.Duration(-2)"]
    said = [c.line() for c in contradictions("NoExpiration = 0, DefaultExpiration = -1.", SENTINELS)]
    assert any("`NoExpiration = 0`" in line and "-1" in line for line in said), said
    assert contradictions("NoExpiration = -1, DefaultExpiration = 0.", SENTINELS) == []


def test_a_number_in_another_argument_place_is_not_the_call() -> None:
    assert unbound("For no-TTL items GetWithExpiration gives back time.Unix(0, 0).", EXPIRY) == ["time.Unix(0, 0)"]
    assert unbound("It gives back time.Unix(0, item.Expiration).", EXPIRY) == []


def test_a_go_std_package_binds_only_where_the_code_uses_it() -> None:
    assert unbound("Save writes the items as JSON (encoding/json).", SAVE) == ["encoding/json"]
    assert unbound("Save writes the items with encoding/gob.", SAVE) == []
    assert unbound("Exec does a real exec (syscall.Exec).", EXEC) == ["syscall.Exec"]
    assert unbound("Exec runs the command through os/exec.", EXEC) == []
    assert unbound("godotenv.Exec runs the command.", EXEC) == []


def test_a_platform_call_is_not_the_code_own_call_of_that_name() -> None:
    assert unbound("Options merge with `Object.assign({}, defaults, o)`.", MERGE) == ["Object.assign({}, defaults, o)"]
    assert unbound("Options merge with `assign({}, defaults, o)`.", MERGE) == []


def test_a_whole_string_value_is_not_a_message_the_code_adds_to() -> None:
    assert unbound("Default methods are 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS'.", DEFAULTS) == [
        "GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS"]
    assert unbound("Default methods are 'GET,HEAD,PUT,PATCH,POST,DELETE'.", DEFAULTS) == []
    assert unbound("It throws 'Not allowed: PATCH' for other methods.", DEFAULTS) == []


def test_a_dotfile_of_a_family_the_code_writes_is_a_value() -> None:
    def left(claim: str) -> list[str]:
        return unbound(claim, FILENAMES, mentioned=True)

    assert left("filenamesOrDefault gives `.env` and then `.env.local`.") == [".env.local"]
    assert left("filenamesOrDefault gives `.env` by default.") == []
    assert left("Keep secrets out of `.gitignore`d files; filenamesOrDefault gives `.env`.") == []


def test_a_header_line_binds_to_a_key_value_object() -> None:
    assert unbound("It emits `Access-Control-Allow-Credentials: true` only then.", HEADERS) == []
    assert unbound("It emits `Access-Control-Allow-Credentials: false` otherwise.", HEADERS) == [
        "Access-Control-Allow-Credentials: false"]
    assert unbound("It sends `Access-Control-Allow-Origin: *`.", HEADERS) == []


def test_a_header_initials_bind_to_the_header_the_code_writes() -> None:
    assert unbound("configureOrigin sets ACAO to '*'.", HEADERS) == []
    assert unbound("configureOrigin sets ACAM to '*'.", HEADERS) == ["ACAM"]


def test_a_setting_binds_to_the_function_that_handles_it() -> None:
    assert unbound("The preflight applies maxAge and exposedHeaders.", PREFLIGHT) == []
    assert unbound("The preflight applies maxRetries.", PREFLIGHT) == ["maxRetries"]
    assert unbound("Set EscapeHTML: true to escape.", SETTER) == ["EscapeHTML"]  # a setter is no setting's name


def test_capitals_stand_for_the_fields_of_a_shape() -> None:
    assert unbound('Marshal builds each line as KEY="VALUE".', MARSHAL) == []
    assert unbound("Marshal builds each line as `KEY: VALUE`.", MARSHAL) == ["KEY: VALUE"]
    assert unbound("Marshal writes `BEGIN IMMEDIATE` first.", MARSHAL) == ["BEGIN IMMEDIATE"]  # words, no shape


def test_a_value_the_claim_says_a_comment_gives_binds_to_the_comment() -> None:
    assert unbound("Set unlocks without defer (per the TODO comment about ~200ns).", SET) == []
    assert unbound("Set unlocks without defer, which saves ~200ns.", SET) == ["~200ns"]
    assert unbound("Set unlocks without defer (per the TODO comment about ~300ns).", SET) == ["~300ns"]


def test_a_hyphenated_prose_word_with_a_number_is_prose() -> None:
    assert [t.text for t in claim_terms("multiply-by-33 xor per byte")] == ["33"]
    assert [t.text for t in claim_terms("a sha-256 digest")] == ["sha-256"]


@pytest.mark.parametrize(("claim", "evidence", "left"), [
    ("e.g. `cache.New(5*time.Minute, 10*time.Minute)` makes a cache.", NEW, []),
    ("e.g. `cache.New(5*time.Minute)` makes a cache.", NEW, ["cache.New(5*time.Minute)"]),
    ("so errors.Is(err, godotenv.ErrUnexpectedChar) works.", SENTINEL_ERR, []),
    ("so errors.Is(err, godotenv.ErrMissingChar) works.", SENTINEL_ERR, ["errors.Is(err, godotenv.ErrMissingChar)"]),
    ("so `app.use(middlewareWrapper())` uses the defaults.", WRAPPER, []),
    ("so `app.use(corsWrapper())` uses the defaults.", WRAPPER, ["app.use(corsWrapper())"]),
    ("a delegate (`middlewareWrapper(function (req, cb) {...})`) calls back.", WRAPPER, []),
])
def test_usage_examples_read_as_code(claim: str, evidence: EvidenceText, left: list[str]) -> None:
    assert unbound(claim, evidence) == left


KEY_NAME = ev("parser.go::locateKeyName", """\
    func locateKeyName(src []byte) (key string, err error) {
        if bytes.HasPrefix(src, []byte("export")) {
            src = bytes.TrimPrefix(src, []byte("export"))
        }
        for i, char := range src {
            switch char {
            case '=', ':':
                return string(src[0:i]), nil
            }
        }
        return "", nil
    }
""", "go")

JOINED = ev("lib/index.js::configureMethods", """\
    function configureMethods(options) {
      var methods = options.methods;
      if (methods.join) { methods = options.methods.join(','); }
      return { key: 'Access-Control-Allow-Methods', value: methods };
    }
""", "javascript")

MAIN = ev("cmd/godotenv/cmd.go::main", """\
    func main() {
        var overload bool
        flag.BoolVar(&overload, "o", false, "override existing .env variables")
        var raw string
        flag.StringVar(&raw, "f", "", "comma separated paths to .env files")
        flag.Parse()
    }
""", "go")

AUTOLOAD = ev("autoload/autoload.go", """\
    package autoload

    func init() {
        godotenv.Load()
    }
""", "go")

ARRAYS = ev("lib/index.js::isOriginAllowed", """\
    function isOriginAllowed(origin, allowed) {
      if (Array.isArray(allowed)) {
        for (var i = 0; i < allowed.length; ++i) {
          if (isOriginAllowed(origin, allowed[i])) { return true; }
        }
        return false;
      }
      return origin === allowed;
    }
""", "javascript")


def test_an_input_in_the_notation_the_code_parses_binds() -> None:
    assert unbound("yaml-ish `FOO: bar` works: locateKeyName splits at ':'.", KEY_NAME) == []
    assert unbound("`export FOO=bar` parses as FOO.", KEY_NAME) == []
    assert unbound("`FOO => bar` works too.", KEY_NAME) == ["FOO => bar"]  # no '>' the code tests for
    assert unbound("`declare FOO=bar` parses as FOO.", KEY_NAME) == ["declare FOO=bar"]
    # a mark the code writes is its output's: `GET, POST` for methods.join(',')
    assert unbound("methods are joined, e.g. `GET, POST`.", JOINED) == ["GET, POST"]


TIMEOUT = ev("src/filelock/_error.py::Timeout", """\
    class Timeout(TimeoutError):
        def __str__(self):
            return f"The file lock '{self.lock_file}' could not be acquired."
""", "python")

PATH_ERROR = ev("src/index.ts::PathError", """\
    export class PathError extends TypeError {
      constructor(message: string, public readonly originalPath: string | undefined) {
        super(message);
      }
    }
""", "typescript")

FETCH = ev("jwt/jwks_client.py::PyJWKClient.fetch_data", """\
    def fetch_data(self):
        r = urllib.request.Request(url=self.uri, headers=self.headers)
        with urllib.request.urlopen(r, timeout=self.timeout, context=self.ssl_context) as response:
            return json.load(response)
""", "python")


def test_a_reader_handler_of_the_code_classes_binds() -> None:
    assert unbound("Timeout subclasses TimeoutError, so a plain `except TimeoutError:` catches it.", TIMEOUT) == []
    assert unbound("so a plain `except OSError:` catches it.", TIMEOUT) == ["except OSError:"]
    assert unbound("so `catch (e) { if (e instanceof TypeError) ... }` handlers still catch it.", PATH_ERROR) == []
    assert unbound("so `catch (e) { if (e instanceof RangeError) ... }` handlers catch it.", PATH_ERROR) == [
        "catch (e) { if (e instanceof RangeError) ... }"]


def test_a_keyword_argument_binds_with_its_receiver_left_out() -> None:
    assert unbound("fetch_data uses urllib.request.urlopen(..., timeout=..., context=ssl_context).", FETCH) == []
    assert unbound("fetch_data uses urllib.request.urlopen(..., context=ssl_options).", FETCH) == [
        "urllib.request.urlopen(..., context=ssl_options)"]


PACKAGE_JSON = EvidenceText("package.json", """{
  "name": "cors",
  "devDependencies": { "mocha": "9.1.1", "supertest": "6.1.4" },
  "engines": {
    "node": ">= 0.10"
  }
}
""", (), None)


def test_a_manifest_number_named_for_a_key_is_that_key_value() -> None:
    assert unbound("The engines field: node >= 0.10.", PACKAGE_JSON) == []
    assert unbound("The engines field: node >= 4.", PACKAGE_JSON) == ["4"]  # mocha's 9.1.1 and 6.1.4 hold no 4
    assert unbound("The engines field: node >= 6.", PACKAGE_JSON) == ["6"]  # supertest's 6.1.4 is not node's
    assert unbound("mocha is pinned to 9.1.1.", PACKAGE_JSON) == []


def test_a_go_flag_default_is_a_value_of_the_flag() -> None:
    said = [c.line() for c in contradictions('The -f flag of the godotenv command defaults to ".env".', [MAIN])]
    assert any("the code gives `f` ''" in line for line in said), said
    assert contradictions('The -f flag defaults to "" (no files).', [MAIN]) == []
    assert contradictions("The -o flag defaults to false.", [MAIN]) == []


def test_a_command_line_binds_by_the_options_the_program_declares() -> None:
    assert unbound("Run `godotenv -o -f a.env,b.env mycmd`.", MAIN) == []
    assert unbound("Run `godotenv -x -f a.env mycmd`.", MAIN) == ["godotenv -x -f a.env mycmd"]
    assert unbound("Run `dotenv -o -f a.env mycmd`.", MAIN) == ["dotenv -o -f a.env mycmd"]  # another program


def test_a_go_import_of_the_anchored_package_binds() -> None:
    assert unbound('`import _ "github.com/joho/godotenv/autoload"` loads the file.', AUTOLOAD) == []
    assert unbound('`import _ "github.com/joho/godotenv/preload"` loads the file.', AUTOLOAD) == [
        'import _ "github.com/joho/godotenv/preload"']


def test_a_word_and_its_plural_stem_alike() -> None:
    assert unbound("isOriginAllowed handles arrays recursively, so nested arrays of origins work.", ARRAYS) == []
    assert unbound("isOriginAllowed caches matches in a lookup table keyed by hostname pattern.", ARRAYS) != []


CACHE_GO = """\
package cache

func (c *cache) Set(k string, x interface{}) {
	c.items[k] = x
}

func (c *cache) Delete(k string) {
	delete(c.items, k)
	c.onEvicted(k)
}

func (c *cache) OnEvicted(f func(string)) {
	c.onEvicted = f
}
"""


def test_a_call_the_anchored_code_never_makes_is_one_finding(repo, ledger) -> None:
    repo.write("cache.go", CACHE_GO, dedent=False)
    repo.commit("cache")
    rec = ledger.record("Set fires OnEvicted for the old value.", ["cache.go::cache.Set", "cache.go::cache.OnEvicted"])
    assert rec.decision.findings == (
        "the claim says Set fires `OnEvicted`, but cache.go::cache.Set never mentions it",)
    assert ledger.verify(rec.decision.id).status is memvet.Status.NEEDS_REVALIDATION
    # a name that binds nowhere is said once, as the unbound term
    rec = ledger.record("Set fires onExpired for the old value.", ["cache.go::cache.Set"])
    assert len(rec.decision.findings) == 1 and "`onExpired`" in rec.decision.findings[0]
    assert "never mentions" not in rec.decision.findings[0]
    rec = ledger.record("Delete fires OnEvicted.", ["cache.go::cache.Delete", "cache.go::cache.OnEvicted"])
    assert rec.decision.findings == ()


# After the sealed run (glob and platformdirs, now spent).

MATCH_OPTIONS = ev("src/lib.rs::MatchOptions.new", """\
    pub fn new() -> Self {
        Self {
            case_sensitive: true,
            require_literal_leading_dot: false,
        }
    }
""", "rust")

ROAMING = ev("src/platformdirs/windows.py::Windows.user_data_dir", """\
    def user_data_dir(self) -> str:
        const = "CSIDL_APPDATA" if self.roaming else "CSIDL_LOCAL_APPDATA"
        return self._append_parts(get_win_folder(const))
""", "python")

RUNTIME = EvidenceText("src/platformdirs/unix.py::_UnixDefaults.user_runtime_dir", textwrap.dedent("""\
    def user_runtime_dir(self) -> str:
        path = f"/run/user/{getuid()}"
        if not os.access(path, os.W_OK):
            path = f"{gettempdir()}/runtime-{getuid()}"
        return path
"""), ("_UnixDefaults.user_runtime_dir",), "python", imports=("tempfile", "os"))


def test_a_struct_field_written_with_its_value_is_a_stated_value() -> None:
    said = [c.line() for c in contradictions("new() defaults to case-insensitive (case_sensitive: false).",
                                             [MATCH_OPTIONS])]
    assert any("`case_sensitive: false`" in line for line in said), said
    assert contradictions("new() is case-sensitive (case_sensitive: true).", [MATCH_OPTIONS]) == []
    assert contradictions("Note: false positives are rare.", [MATCH_OPTIONS]) == []  # prose, no name of the code
    # inside braces it is what a caller passes, not what the code sets
    assert contradictions("pass `MatchOptions { case_sensitive: false }` to ignore case.", [MATCH_OPTIONS]) == []


def test_a_switch_the_instance_reads_binds_as_a_keyword() -> None:
    assert unbound("`roaming=True` switches user_data_dir to CSIDL_APPDATA.", ROAMING) == []
    assert unbound("`portable=True` switches user_data_dir to CSIDL_APPDATA.", ROAMING) == ["portable=True"]


def test_a_function_imported_from_a_module_binds_by_its_module_name() -> None:
    assert unbound("it falls back to tempfile.gettempdir().", RUNTIME) == []
    assert unbound("it falls back to tempfile.mkdtemp().", RUNTIME) == ["tempfile.mkdtemp()"]


def test_an_absence_rule_is_of_the_language_of_the_files_it_is_checked_in() -> None:
    def languages(label: str) -> set[str]:
        return _Index([EvidenceText(label, "x", (), None)]).languages

    assert languages("import:requests in app/*.py") == {"python"}
    assert languages("import:node-fetch in src/*.ts") == {"typescript"}
    assert languages("app/x.py::f") == {"python"}
    assert languages("Cargo.toml") == {"rust"}  # a crate's manifest is of its language
    assert languages("pattern:eval") == {""}
