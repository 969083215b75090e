"""The value rule's fixture: computed values (numbers, variants, addresses) and stated
values (booleans, None, strings, numbers) against assignments, class attributes,
signature defaults and setters; both ways."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.value import RULE

NONCE = EvidenceText("auth.py::client_nonce", """\
def client_nonce(nonce, count):
    s = str(count).encode("utf-8")
    s += os.urandom(8)
    cnonce = hashlib.sha1(s).hexdigest()[:16]
    return cnonce
""")
ENCODING = EvidenceText("utils.py::encoding_for", """\
def encoding_for(content_type):
    if "text" in content_type:
        return "ISO-8859-1"
    return None
""")
RUN = EvidenceText("app.py::run", """\
def run(host=None):
    \"\"\"Set host to 0.0.0.0 to listen externally.\"\"\"
    if not host:
        host = "127.0.0.1"
    serve(host)
""")
AUTH = EvidenceText("auth.py::Auth", """\
class Auth:
    requires_request_body = False
    requires_response_body = False

    def flow(self, request):
        if self.requires_response_body:
            request.read()
""")
INIT = EvidenceText("client.py::Client.__init__", """\
    def __init__(self, *, trust_env: bool = True, retries: int = 0, follow_redirects: bool = False):
        self.trust_env = trust_env
        self.retries = retries
""")
DEFAULTS = EvidenceText("lib/application.js::app.defaultConfiguration", """\
app.defaultConfiguration = function defaultConfiguration() {
  var env = process.env.NODE_ENV || 'development';
  this.set('etag', 'weak');
  this.set('subdomain offset', 2);
  this.set('trust proxy', false);
};
""")
HOSTNAME = EvidenceText("lib/request.js", """\
defineGetter(req, 'hostname', function hostname(){
  var host = this.host;
  var offset = host[0] === '['
    ? host.indexOf(']') + 1
    : 0;
  return host.substring(offset);
});
""", language="javascript")
TIMEOUT = EvidenceText("config.py::Timeout.__init__", """\
    def __init__(self, timeout=UNSET, *, pool=UNSET):
        if isinstance(timeout, tuple):
            self.pool = None if len(timeout) < 4 else timeout[3]
        else:
            self.pool = timeout if isinstance(pool, UnsetType) else pool
""")
DIGEST = EvidenceText("x.py::f", "def f():\n    ha1 = HA1(x)\n    digest = hashlib.md5(ha1)\n")
SCHEMES = EvidenceText("transport.py::Transport.__init__", """\
    def __init__(self, proxy):
        if proxy.url.scheme in ("socks5", "socks5h"):
            self._pool = SOCKSProxy(http1=True, http2=False)
""")

RETRY_DEFAULTS = EvidenceText("src/normalize.ts::defaultRetryOptions", """\
const defaultRetryOptions = {
  limit: 2,
  backoffLimit: Number.POSITIVE_INFINITY,
  timeout: 10_000,
};
""")
LIMITS = EvidenceText("app/limits.py::Limits", """\
class Limits:
    max_body = math.inf
    retries = 3
""")
TYPED = EvidenceText("middleware.py::Middleware.__init__", """\
    def __init__(
        self,
        www_redirect: bool = True,
        same_site: Literal["lax", "strict", "none"] = "lax",
    ) -> None:
        self.www_redirect = www_redirect
""")
COUNTER = EvidenceText("src/Ky.ts::Ky", """\
class Ky {
  #retryCount = 0;
  private readonly attempts = 1;
  state() {
    return {retryCount: this.#retryCount};
  }
}
""")

SUGGEST = EvidenceText("lib/suggest.js::suggest", """\
function suggest(word, candidates) {
  word = word.slice(2);
  const minSimilarity = 0.4;
  candidates.forEach((candidate) => {
    const distance = editDistance(word, candidate);
    const similarity = (length - distance) / length;
    const capped = Math.min(distance, 5);
    if (similarity > minSimilarity && distance < maxDistance) similar.push(candidate);
  });
}
""", language="javascript")
CAPPED = EvidenceText("lib/limit.js::limit", """\
function limit() {
  const retries = 2;
  return retries;
}
""", language="javascript")
EXPORTED = EvidenceText("src/modes.js", """\
export const Modes = new Set(['fast', 'safe', 'strict']);

export const DEFAULT_MODE = 'safe';
""")
FALLBACK = EvidenceText("src/store.ts::Store.constructor", """\
constructor(options) {
  const { capacity = 0, itemLimit = 0 } = options
  this.#capacity = capacity
  this.itemLimit = itemLimit || this.#capacity
}
""")
UNPACKED = EvidenceText("src/index.ts::pathToRegexp", """\
export function pathToRegexp(path, options = {}) {
  const {
    end = true,
    sensitive = false,
  } = options;
  const { trailing = true, delimiter = "/" } = options;
  return build(path, end, sensitive, trailing, delimiter);
}
""")
NAMED = EvidenceText("src/index.ts::match", """\
export function match(path, options = {}) {
  const { decode = decodeURIComponent, delimiter = DEFAULT_DELIMITER } = options;
  return decode(path);
}
""")
AS_BOOLEAN = EvidenceText("lib/types/urlencoded.js::createQueryParser", """\
function createQueryParser (options) {
  const extended = Boolean(options?.extended)
  const depth = extended ? 32 : 0
}
""")
OPTIONS = EvidenceText("jwt/api_jwt.py::PyJWT._get_default_options", """\
    def _get_default_options() -> dict:
        return {
            "verify_signature": True,
            "strict_aud": False,
        }
""")

POOL = EvidenceText("uuid.go::poolEnabled", "poolEnabled = false\n", language="go")
TABLE = EvidenceText("lib/parse.js", """\
var defaults = {
    depth: 5,
    duplicates: 'combine',
    strictMerge: true
};

var normalizeParseOptions = function normalizeParseOptions(opts) {
    var duplicates = typeof opts.duplicates === 'undefined' ? defaults.duplicates : opts.duplicates;
    return {
        depth: typeof opts.depth === 'number' ? +opts.depth : defaults.depth,
        duplicates: duplicates,
        strictMerge: typeof opts.strictMerge === 'boolean' ? !!opts.strictMerge : defaults.strictMerge
    };
};
""", language="javascript")

WITH_PATTERN = EvidenceText("parse.py::with_pattern", """\
def with_pattern(pattern, regex_group_count=None):
    def decorator(func):
        func.pattern = pattern
        func.regex_group_count = regex_group_count
        return func
    return decorator
""", language="python")

TRIM = EvidenceText("number.go::trimDecimal", """\
func trimDecimal(s string) string {
\tmatches := stringNumberRe.FindStringSubmatch(s)
\tif matches != nil {
\t\ts = matches[1]
\t\tswitch s {
\t\tcase "-", "+":
\t\t\ts += "0"
\t\t}
\t}
\treturn s
}
""", language="go")

CHOICE = EvidenceText("src/lib.rs::<ColorChoice as Default>.default", """\
fn default() -> ColorChoice {
    ColorChoice::Auto
}
""", language="rust")
SPEC = EvidenceText("src/lib.rs::<ColorSpec as Default>.default", """\
fn default() -> ColorSpec {
    ColorSpec {
        fg_color: None,
        bold: false,
        reset: true,
    }
}
""", language="rust")

FMT_DAYS = EvidenceText("src/duration.rs::<FormattedDuration as Display>.fmt", """\
fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
    let secs = self.0.as_secs();
    let years = secs / 31_557_600;
    let ydays = secs % 31_557_600;
    let months = ydays / 2_630_016;
    let mdays = ydays % 2_630_016;
    let days = mdays / 86400;
    Ok(())
}
""", language="rust")
CLAMP = EvidenceText("src/date.rs::parse_rfc3339_weak", """\
pub fn parse_rfc3339_weak(s: &str) -> Result<SystemTime, Error> {
    let mut second = two_digits(b[17], b[18])?;
    if second == 60 {
        second = 59;
    }
    Ok(UNIX_EPOCH)
}
""", language="rust")

# round 12: defaults given by getattr, by a flag library's call, by a signature "unless you pass" another
SEARCH = EvidenceText("tinydb/table.py::Table.search", """\
def search(self, cond):
    is_cacheable: Callable[[], bool] = getattr(cond, 'is_cacheable',
                                               lambda: True)
    if is_cacheable():
        self._query_cache[cond] = docs[:]
""")
CLI = EvidenceText("cmd/ulid/main.go::main", """\
func main() {
\tvar (
\t\tformat = fs.StringLong("format", 'f', "default", "show times in this format: default, rfc3339, ms", "<f>")
\t\tlocal  = fs.BoolLong("local", 'l', "when parsing, show local time")
\t)
\tswitch strings.ToLower(*format) {
\tcase "rfc3339":
\t\tformatFunc = rfc
\t}
}
""", language="go")
ESCAPE = EvidenceText("src/escape.ts::escape", """\
export const escape = (
  s: string,
  {
    magicalBraces = false,
  }: Opts = {},
) => {
  return magicalBraces ? s.replace(/[?*()[\\]{}]/g, '[$&]') : s
}
""", language="typescript")
UNESCAPE = EvidenceText("src/unescape.ts::unescape", """\
export const unescape = (
  s: string,
  {
    magicalBraces = true,
  }: Opts = {},
) => {
  return magicalBraces ? s.replace(/\\[^\\]/g, '') : s
}
""", language="typescript")
STORAGE = EvidenceText("tinydb/storages.py::JSONStorage.__init__", """\
def __init__(self, path: str, create_dirs=False, encoding=None, access_mode='r+', **kwargs):
    self._mode = access_mode
""")

CARGO = EvidenceText("Cargo.toml", """\
[package]
name = "once_cell"
version = "1.21.4"
rust-version = "1.65"

[features]
default = ["std"]
std = ["alloc"]
alloc = ["race"]
""")
PYPROJECT = EvidenceText("pyproject.toml", """\
[project]
name = "exceptiongroup"
requires-python = ">=3.7"
""")
CI_WORKFLOW = EvidenceText(".github/workflows/ci.yml", """\
jobs:
  ci:
    steps:
      - uses: actions/setup-node@v6
        with:
          node-version: 22
          cache: "pnpm"
""")
RESERVE = EvidenceText("src/header/map.rs::HeaderMap.try_reserve_one", """\
fn try_reserve_one(&mut self) -> Result<(), MaxSizeReached> {
    if len == 0 {
        self.mask = 8 - 1;
        self.indices = vec![Pos::none(); 8].into_boxed_slice();
    }
}
""")
NO_DEFAULT = EvidenceText("Cargo.toml", """\
[package]
name = "bitflags"

[features]
std = []
example_generated = []
""")

UNPARSE = EvidenceText("xmltodict.py::unparse", """\
def unparse(input_dict, output=None, encoding='utf-8', full_document=True,
            short_empty_elements=False, comment_key='#comment', **kwargs):
    content_handler = XMLGenerator(output, encoding, short_empty_elements)
""")

RESPONSE_STATUS = EvidenceText("index.js::getResponseStatusCode", """\
function getResponseStatusCode (res) {
  var status = res.statusCode
  if (typeof status !== 'number' || status < 400 || status > 599) {
    status = 500
  }
  return status
}
""")


GET_MUT = EvidenceText("src/lib.rs::GrowingHashmap.get_mut", """\
    fn get_mut(&mut self, key: u32) -> &mut ValueType {
        let mut i = self.lookup(key);
        if self.map[i].value == Default::default() {
            self.fill += 1;
            if self.fill * 3 >= (self.mask + 1) * 2 {
                self.grow((self.used + 1) * 2);
                i = self.lookup(key);
            }
            self.used += 1;
        }
        &mut self.map[i].value
    }
""", language="rust")
ADD_ROUTE_TS = EvidenceText("src/add.ts::addRoute", """\
export function addRoute<T>(
  ctx: RouterContext<T>,
  method: string = "",
  path: string,
  data?: T,
) {
  const segments = splitPath(path);
}
""")


SEND_STREAM = EvidenceText("index.js::SendStream", """\
function SendStream (req, path, options) {
  var opts = options || {}
  this._dotfiles = opts.dotfiles !== undefined
    ? opts.dotfiles
    : 'ignore'
  this._maxage = opts.maxAge || opts.maxage
  this._etag = opts.etag ?? true
  this._index = opts.index === undefined ? ['index.html'] : opts.index
}
""")


NEW_ROUTER = EvidenceText("router.go::New", """\
func New() *Router {
	return &Router{
		RedirectTrailingSlash:  true,
		HandleMethodNotAllowed: true,
		HandleOPTIONS:          true,
	}
}
""", language="go")
REMAP = EvidenceText("idna/core.py::uts46_remap",
                     "def uts46_remap(domain: str, std3_rules: bool = True) -> str:\n    return domain\n")
LOOKUP_WIDTH = EvidenceText("src/tables.rs::lookup_width", """\
fn lookup_width(c: char) -> (u8, WidthInfo) {
    let packed_widths = WIDTH_LEAVES.0[usize::from(t2_offset)][cp >> 2 & 0x1F];
    let width = packed_widths >> (2 * (cp & 0b11)) & 0b11;
    if width < 3 {
        (width, WidthInfo::DEFAULT)
    } else {
        match c {
            '\\u{17D8}' => (3, WidthInfo::DEFAULT),
            _ => (2, WidthInfo::EMOJI_PRESENTATION),
        }
    }
}
""", language="rust")


WITH_DIR = EvidenceText("src/lib.rs::AutoCfg.with_dir", """\
    pub fn with_dir<T: Into<PathBuf>>(dir: T) -> Result<Self, Error> {
        let mut ac = AutoCfg {
            no_std: false,
            edition: None,
        };
        if ac.probe_raw("").is_err() {
            if ac.probe_raw("#![no_std]").is_ok() {
                ac.no_std = true;
            }
        }
        ac.retries = 3;
        Ok(ac)
    }
""")

ARCHIVE_NEW = EvidenceText("src/archive.rs::Archive.new", """\\
    pub fn new(obj: R) -> Archive<R> {
        Archive {
            inner: ArchiveInner {
                mask: u32::MIN,
                preserve_permissions: false,
                preserve_mtime: true,
                obj: RefCell::new(obj),
            },
        }
    }
""", language="rust")

QS_DEFAULTS = EvidenceText("lib/stringify.js", """\\
var defaults = {
    skipNulls: false,
    strictNullHandling: false
};
""", language="javascript")

HPACK_ENCODE = [EvidenceText("src/hpack/hpack.py::Encoder.encode", """\
    def encode(self, headers, huffman: bool = True) -> bytes:
        header_block = []
        for header in headers:
            header_block.append(self.add(header, sensitive, huffman))
        return b"".join(header_block)
"""), EvidenceText("src/hpack/hpack.py::Encoder.add", """\
    def add(self, to_add: tuple[bytes, bytes], sensitive: bool, huffman: bool = False) -> bytes:
        name, value = to_add
        return self._encode_literal(name, value, indexbit, huffman)
""")]
MULTIPARTY_FORM = EvidenceText("index.js::Form", """\
function Form(options) {
  var opts = options || {}
  var self = this;
  self.maxFields = opts.maxFields || 1000
  self.maxFieldsSize = opts.maxFieldsSize || 2 * 1024 * 1024
  self.maxFilesSize = opts.maxFilesSize || Infinity
}
""", language="javascript")
ALGORITHM_DEFAULT = [EvidenceText("src/types.rs::Algorithm", """\
pub enum Algorithm {
    Myers,
    Patience,
    Lcs,
}
""", language="rust"), EvidenceText("src/types.rs::<Algorithm as Default>", """\
impl Default for Algorithm {
    fn default() -> Algorithm {
        Algorithm::Myers
    }
}
""", language="rust")]

LEVEL_TABLE = EvidenceText("src/constants.ts::LogLevels", """\
export const LogLevels: Record<LogType, number> = {
  fatal: 0,
  warn: 1,
  success: 3,
  debug: 4,
};
""", language="typescript")
SERIALIZE = EvidenceText("src/serialize.ts::serialize", """\
export function serialize(name: string, value: string, options?: Options): string {
  const enc = options?.encode || encodeURIComponent;
  return name + "=" + enc(value);
}
""", language="typescript")
PLATFORM = EvidenceText("src/index.ts::Minimatch.constructor", """\
  constructor(pattern: string, options: MinimatchOptions = {}) {
    this.platform = options.platform || defaultPlatform
  }
""", language="typescript")
PRINTER = EvidenceText("printer.py::DEFAULT_PRINTER", "DEFAULT_PRINTER = colorStderrPrint\n")

COMMENT_CHARS = EvidenceText("src/iniconfig/_parse.py::COMMENTCHARS", """\
COMMENTCHARS = "#;"
""")

CONFIGURATION = EvidenceText("lib/yargs-parser.ts::YargsParser.parse", """\
  parse(argsInput: ArgsInput, options?: Partial<Options>): DetailedArguments {
    const configuration: Configuration = Object.assign({
      'boolean-negation': true,
      'duplicate-arguments-array': true,
      'halt-at-non-option': false,
      'parse-positional-numbers': true,
    }, opts.configuration)
    return parseArgs(configuration)
  }
""")

CARGO_EDITION = EvidenceText("Cargo.toml", """\
[package]
name = "httpdate"
version = "1.0.3"
edition = "2021"
rust-version = "1.56"
""")

# round 30: a setting registered by its name, with its default (pytest's addini, argparse's add_argument)
ADDOPTION = EvidenceText("pytest_timeout.py::pytest_addoption", """\
def pytest_addoption(parser):
    group = parser.getgroup("timeout", "Interrupt test run and dump stacks of all threads")
    group.addoption("--timeout-method", type=str, default=None, help=METHOD_DESC)
    parser.addini("timeout_func_only", FUNC_ONLY_DESC, type="bool", default=False)
    parser.addini(
        "timeout_disable_debugger_detection",
        DISABLE_DEBUGGER_DETECTION_DESC,
        type="bool",
        default=False,
    )
""")
DRY_RUN = EvidenceText("cli.py::main", """\
def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--dry-run", action="store_true", default=False)
    args = parser.parse_args(argv)
    if args.dry_run:
        return 0
""")

CARGO_BENCH = EvidenceText("Cargo.toml", """\
[features]
default = ["std"]
std = ["parking"]

[dev-dependencies.criterion]
version = "0.5"
features = ["cargo_bench_support"]
""", language="toml")

COOKIE = EvidenceText("index.js::Cookie", """\
function Cookie(name, value, attrs) {
  this.name = name
  this.value = value || ""
}
Cookie.prototype.httpOnly = true;
""")
SOFT = EvidenceText("src/filelock/_soft.py", """\
_MALFORMED_LOCK_AGE_THRESHOLD: Final[float] = 2.0
_UNLINK_MAX_RETRIES: Final[int] = 10
""")

# round 31 (ftfy f02): a list of the defaults, a statement further on in it
TEXT_FIXER_CONFIG = EvidenceText("ftfy/__init__.py::TextFixerConfig", """\
class TextFixerConfig(NamedTuple):
    unescape_html: str | bool = "auto"
    remove_terminal_escapes: bool = True
    fix_encoding: bool = True
    normalization: Literal["NFC", "NFD", "NFKC", "NFKD"] | None = "NFC"
""")

MKDIST = EvidenceText("src/make.ts::mkdist", """\
export async function mkdist(options) {
  const compilerOptions = defu(
    { noEmit: false } satisfies TSConfig["compilerOptions"],
    tsconfig.compilerOptions,
    { allowJs: true, declaration: true },
  );
}
""")


# round 34 (listhen f04, f17): a default after a dash that ends the clause; a list of one string
LISTHEN = EvidenceText("src/listen.ts::listen", """\
export async function listen(handle, _options = {}) {
  const listhenOptions = defu(_options, {
    name: "",
    autoClose: true,
  });
  const staticDirs = (listhenOptions.staticDirs || ["public"]).filter(Boolean);
}
""")
# round 34 (uuid f01): the default features listed with a plus
UUID_CARGO = EvidenceText("Cargo.toml", """\
[package]
name = "uuid"

[features]
default = ["std"]
std = []
v4 = ["rng"]
v7 = ["rng"]
rng = []
""")


GLOBAL_IMPORTS = EvidenceText("src/global.ts::installGlobalAutoImports", """\
export async function installGlobalAutoImports(imports: Import[], options: InstallGlobalOptions = {}) {
  const {
    globalObject = globalThis,
    overrides = false,
  } = options
  for (const i of imports) {
    if (overrides || !(i.as in globalObject))
      globalObject[i.as] = i.value
  }
  return globalObject
}
""", ("src/global.ts::installGlobalAutoImports", "installGlobalAutoImports"), "typescript")

UPDATE_FAST = EvidenceText("src/baseline.rs::update_fast_16", """\
pub(crate) fn update_fast_16(prev: u32, mut buf: &[u8]) -> u32 {
    const UNROLL: usize = 4;
    const BYTES_AT_ONCE: usize = 16 * UNROLL;
    let mut crc = !prev;
    while buf.len() >= BYTES_AT_ONCE {
        buf = &buf[BYTES_AT_ONCE..];
    }
    !crc
}
""", ("src/baseline.rs::update_fast_16", "update_fast_16"), "rust")


LEAP_RS = EvidenceText("src/date.rs::parse_time", """\
pub fn parse_time(s: &[u8]) -> Result<u64, Error> {
    let mut second = two_digits(&s[6..8])?;
    if second == 60 {
        second = 59;
    }
    let mut grow = 64;
    grow /= 2;
    Ok(second + grow)
}
""", language="rust")


LOCALE_PY = EvidenceText("arrow/constants.py", """\
from typing import Final

DEFAULT_LOCALE: Final[str] = "en-us"
MAX_ORDINAL: Final[int] = 3652059
""", language="python")


FIRES = [
    # round 32 (exceptiongroup f06, confbox f19): a manifest's hyphenated key, a version as its string, a bare
    # number right after the key
    ('requires-python is ">=3.8" -- 3.7 support was dropped.', PYPROJECT),
    ("ci.yml pins setup-node to node-version 20.", CI_WORKFLOW),
    # round 31 (ftfy f02): a statement further on in a list of the defaults
    ("TextFixerConfig defaults: everything True, including unescape_html=True, so entities always get decoded.",
     TEXT_FIXER_CONFIG),
    # round 30 (filelock f09): a value, then the name of what holds it in an aside
    ("Malformed markers are only cleaned up after they're 10 seconds old (_MALFORMED_LOCK_AGE_THRESHOLD).", SOFT),
    # round 30: the crate's default features, written as a list, are still read as the crate's
    ('default features = ["parking"], and `std` turns on the optional parking dep.', CARGO_BENCH),
    # round 30 (pytest-timeout f10): the default the registering call gives the setting's name
    ("timeout_func_only ini defaults to True, i.e. fixture setup isn't counted.", ADDOPTION),
    ("timeout_disable_debugger_detection defaults to True.", ADDOPTION),
    ("The --timeout-method option defaults to 'signal'.", ADDOPTION),
    ("dry_run defaults to True.", DRY_RUN),
    # round 29: the name's own value right after it is still read
    ("MSRV per Cargo.toml is rust 1.56 (edition 2018).", CARGO_EDITION),
    # round 29 (yargs-parser f01, f02): a setting's key quoted as the code quotes it, or written bare with hyphens
    ("argv._ never gets numbers unless you opt in: 'parse-positional-numbers' is false by default.", CONFIGURATION),
    ("Repeating a flag just overwrites -- duplicate-arguments-array defaults to false.", CONFIGURATION),
    # round 28 (iniconfig f13): a string of no word characters is a value too, beside a backticked twin
    ('Only `#` is a comment char (COMMENTCHARS = "#"); a `;` line is parsed like any other.', COMMENT_CHARS),
    ("COMMENTCHARS = '#'.", COMMENT_CHARS),
    # round 22: a field set through a local (`ac.retries = 3`) is a value the code gives it
    ("with_dir sets retries = 5 on the new AutoCfg.", WITH_DIR),
    # round 20: a verb, the name, then its value (httprouter f01)
    ("New() leaves HandleOPTIONS false, so OPTIONS replies have to be switched on.", NEW_ROUTER),
    ("New() sets `RedirectTrailingSlash` false.", NEW_ROUTER),
    ("uts46_remap: std3_rules defaults to False.", REMAP),
    # round 18: what a read of the caller's setting falls back to is the setting's default
    ("dotfiles defaults to 'deny', so requests for dotfiles get a 403.", SEND_STREAM),
    ("etag defaults to false: no ETag unless you ask.", SEND_STREAM),
    # round 18: a signature written out in a language that passes no argument by name
    ('addRoute(ctx, method = "GET", path, data): leave out the method and it registers a GET route.',
     ADD_ROUTE_TS),
    # a number paired with the name, no arithmetic between
    ("get_mut counts each new key: fill is 3 after the first insert.", GET_MUT),
    # round 17: a value outside a range is still a value
    ("getResponseStatusCode keeps res.statusCode in range, else the status is 400.", RESPONSE_STATUS),
    # round 14: a dash between "by default" and the keyword
    ("unparse writes `<a/>` for empty elements by default - short_empty_elements=True.", UNPARSE),
    # the same names with a value the code does not give
    ("days is 30 in the formatter.", FMT_DAYS),
    ("a leap second is clamped to 58.", CLAMP),
    # a value the clause goes on from is still paired with the name: "/0 is treated as /1" is how false notes
    # about a fallback read (measured: reading it as the input let two false facts through for one true)
    ("leap second 60 is accepted but clamped to 59.", CLAMP),
    # a Rust Default impl's variant, and a plain field the code writes with its value
    ("Default ColorChoice is Never, so colours are opt-in.", CHOICE),
    ("ColorChoice defaults to `ColorChoice::Always`.", CHOICE),
    ("A fresh ColorSpec has reset: false.", SPEC),
    # the same name paired with a number outside a subscript
    ("trimDecimal keeps matches 1, the sign and the integer part.", TRIM),
    # a signature written out as a call, with "default" beside it (a clause on)
    ("with_pattern(pattern, regex_group_count=0) - default is 0 groups.", WITH_PATTERN),
    ("`with_pattern(pattern, regex_group_count=1)` is the default.", WITH_PATTERN),
    # a default is the table of defaults' value, whatever else sets the name
    ("Default parse depth is 10, so deep keys still nest.", TABLE),
    ("duplicates defaults to 'last' in parse.", TABLE),
    # a default in an aside after "is opt-in"
    ("strictMerge is opt-in (defaults to false).", TABLE),
    ("strictMerge is opt-in (false by default).", TABLE),
    # an annotated class attribute: `FROZEN: Final = 0` is no entry `FROZEN: Final = 0`
    ("Flags constants: FROZEN = 1.", EvidenceText("src/tomli/_parser.py::Flags", """\
class Flags:
    FROZEN: Final = 0
    EXPLICIT_NEST: Final = 1
""", language="python")),
    # "starts" without "at"
    ("The rand pool is on by default (poolEnabled starts true).", POOL),
    ("poolEnabled starts out as true.", POOL),
    # an exported constant's value
    ("DEFAULT_MODE is 'strict' when no mode is given.", EXPORTED),
    # a stated default a `||` fallback replaces with another operand
    ("itemLimit defaults to 0, even when capacity is set.", FALLBACK),
    # a bound on a name the code gives a literal is still its value
    ("the helper caps retries at 5.", CAPPED),
    # a number given as what a computed name is (no bound) is still compared
    ("the distance is 3 edits.", SUGGEST),
    # a bound on a name whose own statement writes a number is compared with it
    ("capped is at most 3.", SUGGEST),
    # a constant of the language is a value as much as a literal is
    ("backoffLimit defaults to 1000 ms.", RETRY_DEFAULTS),
    ("max_body defaults to 1024.", LIMITS),
    # a unit is part of the value: 30 s is not 10_000 ms
    ("timeout defaults to 30 s.", RETRY_DEFAULTS),
    # a class field and its start value ("starts at", "is initialized to")
    ("Ky's #retryCount field starts at 1.", COUNTER),
    ("attempts is initialized to 0.", COUNTER),
    ("The cnonce is an MD5 hexdigest of the count and random bytes.", NONCE),
    ("encoding_for assumes utf-8 for text responses.", ENCODING),
    ("the digest is a sha256 of the secret.", DIGEST),
    ("run binds the host to 0.0.0.0 by default.", RUN),
    # class attributes are values
    ("Auth.requires_response_body is True on the base class.", AUTH),
    ("requires_request_body is True.", AUTH),
    ("`requires_response_body = True` is the default on Auth.", AUTH),
    # signature defaults
    ("trust_env defaults to False on Client.", INIT),
    ("HTTPTransport retries once by default (retries=1).", INIT),
    ("the client defaults to `follow_redirects=True`.", INIT),
    ("`follow_redirects=True` by default.", INIT),
    # setters: a setting's key, one word or several
    ("Express generates strong ETags by default (etag setting = 'strong').", DEFAULTS),
    ("The subdomain offset defaults to 3.", DEFAULTS),
    ("The host's offset is 2 after an IPv6 bracket.", HOSTNAME),  # the variable itself, read whole now
    ("trust proxy is true by default.", DEFAULTS),
    # a signature default behind an annotation holding literals and commas
    ('same_site defaults to "strict".', TYPED),
    # a default given in an aside beside the keyword a caller opts in with
    ("redirects only if you opt in with www_redirect=True (default False).", TYPED),
    # round 7: defaults a function body unpacks from its options, one per line or all on one
    ("`sensitive` defaults to true, so /Foo and /foo differ.", UNPACKED),
    ("`trailing` defaults to false.", UNPACKED),
    # a setting made a boolean of what is passed is false when unset
    ("urlencoded `extended` defaults to true.", AS_BOOLEAN),
    # a default named before the clause the statement opens ("default options: `k=v`")
    ("PyJWT default options: strict_aud=True, so list audiences are rejected.", OPTIONS),
    # a default named as a function: a sibling of the one the code gives
    ("match uses decodeURI as the default `decode`, so %2F stays encoded.", NAMED),
    ("`decode` defaults to decodeURI.", NAMED),
    # round 12
    ("Table.search defaults is_cacheable to False for custom query objects.", SEARCH),
    ("The `--format` flag of the ulid CLI defaults to rfc3339.", CLI),
    ("The --format flag defaults to \"ms\".", CLI),
    ("JSONStorage opens the file with access_mode='r' unless you pass something else.", STORAGE),
    ("escape() defaults magicalBraces to true.", [ESCAPE, UNESCAPE]),
    # round 13: a plain key of a manifest
    ('Cargo.toml declares version = "1.65".', CARGO),
    # a list of entries, and the crate's default features
    ('Cargo features: alloc = ["std"] -- turning on alloc drags std in.', CARGO),
    ("The first insert sets up 8 index slots (mask 15).", RESERVE),
    ("The crate has no default features; turn on std yourself.", CARGO),
    ("Default features are empty, so you must turn on std.", CARGO),
    ("bitflags enables the `std` feature by default.", NO_DEFAULT),
    ("The std feature is on by default.", NO_DEFAULT),
    ("Default features include race.", CARGO),
    # round 27: the default feature set written as a list or one name; "X support is on by default"; opt-in
    ('The default feature set is ["std", "race"].', CARGO),
    # round 27: a noun between the verb and the number, a word of the code's names
    ("`warn`/`success` are level 4 in LogLevels, so they need debug.", LEVEL_TABLE),
    ("success is level 2.", LEVEL_TABLE),
    # round 27: a default that is a name: a read of the setting falls back to it, a DEFAULT_ name is given it
    ("serialize's default `encode` is encodeURI, not encodeURIComponent.", SERIALIZE),
    ("By default output goes to stdout - DEFAULT_PRINTER is colorStdoutPrint.", PRINTER),
    ("once_cell's default feature is `alloc`.", CARGO),
    ("std is opt-in.", CARGO),
    ("The crate has a default `std` feature.", NO_DEFAULT),
    # a boolean setting said to be on or off by default
    ("Archive::new turns preserve_permissions on by default, so setuid bits are kept.", ARCHIVE_NEW),
    ("preserve_mtime is off by default.", ARCHIVE_NEW),
    ("Archive::new enables preserve_permissions by default.", ARCHIVE_NEW),
    ("stringify: null values are skipped by default (skipNulls is on); turn it off to get `a=`.", QS_DEFAULTS),
    ("strictNullHandling defaults to on.", QS_DEFAULTS),
    # a default written as constant arithmetic, "default" said before the statement
    ("Default maxFieldsSize = 1 MB (1024 * 1024).", MULTIPARTY_FORM),
    ("maxFields defaults to 100.", MULTIPARTY_FORM),
    # a Default impl anchored as a whole block
    ("Default algorithm is Patience (Algorithm::default()), Myers has to be picked explicitly.", ALGORITHM_DEFAULT),
    # a call's keyword said of the function that declares it
    ("Encoder.add(to_add, sensitive, huffman=True) by default.", HPACK_ENCODE),
    # round 33: a statement across the clause's colon, no case supposed
    ("compilerOptions are merged with defu and it sets noEmit: true, so no d.ts is emitted.", MKDIST),
    # round 34: "S is opt-in -- defaults to V", its dash ending the clause; a default list of one string
    ("autoClose is opt-in -- defaults to false, so you must pass `autoClose: true` for cleanup.", LISTHEN),
    ("autoClose is opt-in, defaults to false.", LISTHEN),
    ('default staticDirs is ["static"] (relative to cwd).', LISTHEN),
    # round 34: each feature the claim lists after the first
    ("uuid's default features are std + v4, so new_v4() works out of the box.", UUID_CARGO),
    # round 35: a setting and its value in the parentheses after "by default"
    ("installGlobalAutoImports overrides existing globals by default (overrides: true).", GLOBAL_IMPORTS),
    ("update_fast_16: UNROLL = 16.", UPDATE_FAST),
    # the claim gives a value the code never computes it from, and not the code's value as well
    ("A leap second :60 is accepted as it is, second 60.", LEAP_RS),
    # the code's value written only as an operand of the claim's arithmetic: no value the claim gives
    ("The buffer grows 1.5x (grow + grow/2) each time, grow 96 after the first.", LEAP_RS),
    # the name's aside says where it is defined
    ('Default locale constant is just "en" (DEFAULT_LOCALE in constants.py).', LOCALE_PY),
]

SILENT = [
    # round 32: the manifest's own values
    ('requires-python is ">=3.7".', PYPROJECT),
    ("ci.yml pins setup-node to node-version 22.", CI_WORKFLOW),
    ("setup-node runs on 22 nodes.", CI_WORKFLOW),
    # round 31: the list of defaults goes on to what a caller passes; or the default is the code's
    ("TextFixerConfig defaults: everything True, but pass unescape_html=True to force it.", TEXT_FIXER_CONFIG),
    ("TextFixerConfig defaults: fix_encoding=True, including unescape_html=\"auto\".", TEXT_FIXER_CONFIG),
    # round 30 (wcwidth t05, markupsafe t19, cookies t02): a case the clause puts on the name, and what a
    # caller passes, state no value of the code's
    ("The ambiguous table is only consulted when `_MALFORMED_LOCK_AGE_THRESHOLD == 10`.", SOFT),
    ("if the env var _UNLINK_MAX_RETRIES is 3 the loop stops early.", SOFT),
    ("Cookies are httpOnly by default: you have to pass `httpOnly: false` if client JS needs them.", COOKIE),
    # round 30: the value the named constant holds; a number with no name in an aside
    ("Malformed markers are cleaned up once they're 2 seconds old (_MALFORMED_LOCK_AGE_THRESHOLD).", SOFT),
    ("unlink is retried 10 times (_UNLINK_MAX_RETRIES) before giving up.", SOFT),
    ("unlink is retried up to 10 times (see the loop) before giving up.", SOFT),
    # round 30 (event-listener t02): "default features = [...]" is the crate's list, no `features` key's
    ('default features = ["std"], and `std` just turns on the optional `parking` dep.', CARGO_BENCH),
    # round 30: the registered default itself; an option's dashes are its name's underscores
    ("timeout_func_only ini defaults to False.", ADDOPTION),
    ("The --timeout-method option defaults to None.", ADDOPTION),
    ("dry_run defaults to False.", DRY_RUN),
    # round 29 (httpdate t21, same-file t24): a value before a name that has its own value right after it
    ("MSRV per Cargo.toml is rust 1.56 (edition 2021).", CARGO_EDITION),
    # round 29: the same keys with the code's values
    ("'parse-positional-numbers' is true by default.", CONFIGURATION),
    ("halt-at-non-option defaults to false.", CONFIGURATION),
    # round 28: the code's own string, and a punctuation string the claim gives no name
    ('`#` and `;` start comments (COMMENTCHARS = "#;").', COMMENT_CHARS),
    ('A line starting with "#" is a comment.', COMMENT_CHARS),
    # round 22 (autocfg t04): `no_std: false` at construction, then `ac.no_std = true` through the local
    ("If the plain probe fails it tries #![no_std] and sets no_std = true on success.", WITH_DIR),
    # round 20: the value the code gives; a width computed with shifts and masks takes any value they
    # leave (unicode-width t13, t14)
    ("New() leaves HandleOPTIONS true.", NEW_ROUTER),
    ("U+17D8 is special-cased in lookup_width as width 3.", LOOKUP_WIDTH),
    # round 20 (idna t10): a default said of other code, after "unlike"
    ("uts46_remap defaults std3_rules ON, unlike encode/decode where std3_rules defaults to False.", REMAP),
    ("Regional indicators get width 1 from lookup_width on their own.", LOOKUP_WIDTH),
    # round 18: the fallback the code gives, or no literal fallback at all
    ("dotfiles defaults to 'ignore': dotfiles are treated as absent.", SEND_STREAM),
    ("etag defaults to true.", SEND_STREAM),
    ("maxAge defaults to 0.", SEND_STREAM),  # falls back to another setting, no literal
    # round 18: a number written as an operand of arithmetic is no value of the name beside it
    ("get_mut resizes when fill*3 >= capacity*2 (2/3 load factor), growing to hold (used + 1) * 2.", GET_MUT),
    ('addRoute(ctx, method = "", path, data) registers the route for any method.', ADD_ROUTE_TS),
    ('registerRoute(ctx, method = "GET") is a wrapper around it.', ADD_ROUTE_TS),  # another function
    # round 17: the ends of a range are the values a name may have, not the one it is given
    ("It keeps res.statusCode only if it's a number in 400..599, else 500.", RESPONSE_STATUS),
    ("It keeps the status only if it's a number between 400 and 599, else 500.", RESPONSE_STATUS),
    ("unparse writes `<a></a>` for empty elements by default - short_empty_elements=False.", UNPARSE),
    # a quantity in the unit a name spells
    ("a year is 365.25 days in the formatter.", FMT_DAYS),
    ("Default ColorChoice is Auto.", CHOICE),
    ("ColorChoice defaults to `ColorChoice::Auto`; Never must be asked for.", CHOICE),
    # another type's default, and a plain word the code writes as no field
    ("The default ColorSpec is Never coloured.", CHOICE),
    ("A fresh ColorSpec has reset: true and bold: false.", SPEC),
    ("Note: true colours need a terminal.", SPEC),
    # an index the claim writes is no value it pairs with the name
    ("trimDecimal keeps only matches[1], the sign and the integer part.", TRIM),
    ("with_pattern(pattern, regex_group_count=None) - default is no group count.", WITH_PATTERN),
    # a call with a value passed, no default said of it
    ("with_pattern(r'\\d+', regex_group_count=0) registers a pattern.", WITH_PATTERN),
    ("with_pattern(r'\\d+', regex_group_count=2) - defaults to a group count of None otherwise.", WITH_PATTERN),
    ("Default parse depth is 5.", TABLE),
    ("strictMerge is opt-in (true by default).", TABLE),
    # no default named: the caller's options set depth too
    ("depth is 10 here.", TABLE),
    ("poolEnabled starts false; EnableRandPool sets it.", POOL),
    ("DEFAULT_MODE is 'safe' when no mode is given.", EXPORTED),
    # the fallback is what the claim says; a default no fallback replaces
    ("itemLimit falls back to capacity when you don't pass it (`itemLimit || capacity`).", FALLBACK),
    ("capacity defaults to 0.", FALLBACK),
    # a bound ("caps it at", "> 0.4") on a name computed by a call or arithmetic is no value of it
    ("the helper computes the distance, caps it at 3 edits, and requires similarity > 0.4.", SUGGEST),
    ("distance must stay at most 3 and similarity above 0.4.", SUGGEST),
    ("limit defaults to 2.", RETRY_DEFAULTS),
    ("timeout defaults to 10 s.", RETRY_DEFAULTS),
    ("timeout defaults to 10_000 ms.", RETRY_DEFAULTS),
    ("retries defaults to 3.", LIMITS),
    ("Ky's #retryCount field starts at 0.", COUNTER),
    ("attempts starts at 1.", COUNTER),
    ("The cnonce is a SHA-1 hexdigest of the count and 8 random bytes.", NONCE),
    ("For text responses encoding_for assumes ISO-8859-1.", ENCODING),
    ("the digest is an MD5 of HA1.", DIGEST),
    ("run binds the host to 127.0.0.1 by default.", RUN),
    ("Auth.requires_response_body is False on the base class.", AUTH),
    ("trust_env defaults to True; follow_redirects defaults to False.", INIT),
    ("HTTPTransport does not retry by default (retries=0).", INIT),
    # a keyword written as a usage, not as a default
    ("Pass follow_redirects=True to follow redirects.", INIT),
    # the default the clause names is another name's, or the keyword is the opt-in beside it
    ("trust_env defaults to True, unless the client is built with follow_redirects=True.", INIT),
    ("following redirects is opt-in with follow_redirects=True (default False).", INIT),
    ("Express generates weak ETags by default (etag setting = 'weak').", DEFAULTS),
    ("The subdomain offset defaults to 2 and trust proxy to false.", DEFAULTS),
    # round 23 (express t22): "subdomain offset" is the key the code writes, not the `offset` another anchor computes
    ("subdomain offset defaults to 2, so req.subdomains drops two parts.", [DEFAULTS, HOSTNAME]),
    ("env defaults to 'development'.", DEFAULTS),
    # an index or a bound in a comparison is not what pool is set to, and pool = timeout is open
    ("connect, read, write and pool all get 5 seconds.", TIMEOUT),
    ("pool is 5 seconds unless overridden.", TIMEOUT),
    # two values side by side are no name and its value
    ("socks5 and socks5h proxies need socksio.", SCHEMES),
    ('same_site defaults to "lax".', TYPED),
    ("redirects unless you opt out with www_redirect=False (default True).", TYPED),
    ("`sensitive` defaults to false, so /Foo matches /foo.", UNPACKED),
    ("`trailing` defaults to true.", UNPACKED),
    # a boolean of what is passed: true is no default, and "when it is true" states none
    ("urlencoded `extended` defaults to false.", AS_BOOLEAN),
    ("When `extended` is true, depth is 32.", AS_BOOLEAN),
    ("PyJWT default options: strict_aud=False, verify_signature=True.", OPTIONS),
    # no default named: the writer's own setting
    ("We pass strict_aud=True in the gateway.", OPTIONS),
    ("`decode` defaults to decodeURIComponent; pass decodeURI to keep %2F.", NAMED),
    ("`decode` defaults to decodeURIComponent.", NAMED),
    # no sibling of the code's default: another value of another kind, the claim's own example
    ("`decode` defaults to identity in our wrapper.", NAMED),
    ("By default `delimiter` is DEFAULT_DELIMITER.", NAMED),
    # no default said
    ("match uses decodeURI for `decode` in old versions.", NAMED),
    # round 12: the code's own default; a word the code does not spell; a mode the caller passes
    ("Table.search defaults is_cacheable to True.", SEARCH),
    ("Table.search sets is_cacheable to False for the cache.", SEARCH),
    ("The `--format` flag defaults to default.", CLI),
    ("The --format flag defaults to iso8601.", CLI),
    ("The --local flag defaults to false.", CLI),
    ("JSONStorage opens the file with access_mode='r+' unless you pass something else.", STORAGE),
    ("Open read-only with access_mode='r'.", STORAGE),
    # the function the claim says gives the default is another anchored one
    ("unescape() defaults magicalBraces to true, while escape() defaults it to false.", [ESCAPE, UNESCAPE]),
    # round 13: a hyphenated key is the compound, not its last word (once_cell's rust-version)
    ('Cargo.toml declares rust-version = "1.65".', CARGO),
    ('Cargo features: alloc = ["race"], std = ["alloc"].', CARGO),
    # constant arithmetic the code assigns, evaluated
    ("The first insert sets up 8 index slots (mask 7).", RESERVE),
    ('Default features are just `["std"]`; no_std users need default-features = false.', CARGO),
    ("once_cell enables the `std` feature by default.", CARGO),
    ("bitflags has no default features.", NO_DEFAULT),
    # a dependency taken without its default features is no word on the crate's own
    ('The optional `serde` dependency is `package = "serde_core"` (version 1.0.220, no default features).', CARGO),
    # round 27: the list and the name the manifest gives; a feature that is off by default, said opt-in
    ('The default feature set is ["std"].', CARGO),
    # round 27: the level the table gives; a word that is no part of the code's names; a comparison
    ("success is level 3 in LogLevels.", LEVEL_TABLE),
    ("success is priority 4.", LEVEL_TABLE),
    ("success is above 2.", LEVEL_TABLE),
    # round 27: the default name the code gives, the other one ruled out
    ("serialize's default `encode` is encodeURIComponent, not encodeURI.", SERIALIZE),
    ("DEFAULT_PRINTER is colorStderrPrint.", PRINTER),
    # a plain word is no name the claim gives ("the default platform" of options.platform || defaultPlatform)
    ("`platform` falls back to the default, which is process.platform.", PLATFORM),
    ("once_cell's default feature is `std`.", CARGO),
    ("std support is on by default.", CARGO),
    ("alloc is on by default.", CARGO),  # std turns it on, and std is a default feature
    ("bitflags' default features are empty.", NO_DEFAULT),
    ("Default features are disabled in our build.", NO_DEFAULT),
    ("The crate has a default `std` feature.", CARGO),
    # a list the code does not give (another key), a default named of no Cargo.toml
    ('Cargo features: serde = ["dep:serde"].', CARGO),
    ("The std feature is on by default.", EvidenceText("src/lib.rs", "#![no_std]\n")),
    ("Archive::new turns preserve_mtime on by default.", ARCHIVE_NEW),
    ("preserve_permissions is off by default; preserve_mtime is enabled by default.", ARCHIVE_NEW),
    # no boolean: mask is a number
    ("mask is off by default.", ARCHIVE_NEW),
    ("stringify keeps nulls by default (skipNulls is off).", QS_DEFAULTS),
    ("strictNullHandling defaults to off.", QS_DEFAULTS),
    ("Default maxFieldsSize = 2 MB (2 * 1024 * 1024).", MULTIPARTY_FORM),
    ("maxFields defaults to 1000.", MULTIPARTY_FORM),
    ("Algorithm::default() is Myers.", ALGORITHM_DEFAULT),
    # encode's keyword, in a claim anchored on encode and add: add's default is not what the claim says it of
    ("Gotcha: encode(headers, huffman=True) by default, but the lower-level Encoder.add(to_add, sensitive, "
     "huffman=False) gives raw literals.", HPACK_ENCODE),
    # round 33: a case the claim supposes ("even a tsconfig with ..."), across the clause's colon
    ("{ noEmit: false } is the first (winning) arg, so even a tsconfig with noEmit: true can't stop d.ts emit.",
     MKDIST),
    # round 34: the code's own default after a dash; its own list; a list not of one string
    ("autoClose is opt-in -- defaults to true.", LISTHEN),
    ('default staticDirs is ["public"].', LISTHEN),
    ('staticDirs defaults to ["public", "static"].', LISTHEN),
    # round 34: the features listed are the defaults, or a word after them names no feature
    ("Default features are just std, so nothing generates out of the box.", UUID_CARGO),
    ("default features are std and nothing else.", UUID_CARGO),
    ("installGlobalAutoImports keeps existing globals by default (overrides: false).", GLOBAL_IMPORTS),
    # round 35: the value of a product is the product's, not its last operand's
    ("update_fast_16: UNROLL = 4, BYTES_AT_ONCE = 16 * UNROLL = 64.", UPDATE_FAST),
    # the claim gives the code's value too: it tells the change from one value to the other
    ("leap second :60 is accepted by the parser but silently clamped to :59", LEAP_RS),
    ('Default locale is "en-us" (DEFAULT_LOCALE in constants.py).', LOCALE_PY),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_value_the_code_gives():
    [line] = fired("The cnonce is an MD5 hexdigest of the count and random bytes.", NONCE)
    assert line == ("the claim pairs `MD5` with `cnonce`; the code computes it from `sha1`, `utf8`, but "
                    "auth.py::client_nonce says `cnonce = hashlib.sha1(s).hexdigest()[:16]`")
    [line] = fired("Auth.requires_response_body is True on the base class.", AUTH)
    assert line == ("the claim says `Auth.requires_response_body is True`; the code gives `requires_response_body` "
                    "False, but auth.py::Auth says `requires_response_body = False`")
    [line] = fired("Express generates strong ETags by default (etag setting = 'strong').", DEFAULTS)
    assert "the code gives `etag` 'weak'" in line and line.endswith("says `this.set('etag', 'weak');`")
