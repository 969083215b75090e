"""The order rule's fixture: claims that must and must not be contradicted on order."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.order import RULE

PREPARE = EvidenceText("net/models.py::prepare", """\
def prepare(request, auth, body):
    \"\"\"Auth is applied before the body (it may sign it).\"\"\"
    request.prepare_url()
    request.prepare_body(body)
    request.prepare_auth(auth)
    request.prepare_hooks()
""")
REDIRECTS = EvidenceText("client.py::Client.send_redirects", """\
    def send_redirects(self, request, history):
        while True:
            if len(history) > self.max_redirects:
                raise TooManyRedirects("Exceeded maximum allowed redirects.", request=request)
            for hook in self.hooks["request"]:
                hook(request)
            response = self._send_single_request(request)
            history = history + [response]
""")
SEND = EvidenceText("lib/response.js::res.send", """\
res.send = function send(body) {
  var etagFn = app.get('etag fn')
  if (generateETag) {
    this.set('ETag', etagFn(chunk));
  }
  // freshness: checked before anything else (an old comment)
  if (req.fresh) this.status(304);
  return this;
};
""")
MERGE = EvidenceText("client.py::BaseClient._merge_headers", """\
    def _merge_headers(self, headers=None):
        merged_headers = Headers(self.headers)
        merged_headers.update(headers)
        return merged_headers
""")
RENDER = EvidenceText("app.py::render", """\
def render(name, options):
    opts = options or {}
    merged = {**DEFAULTS, **opts}
    return template(name).render(merged)
""")
CLOSED = EvidenceText("client.py::Client.send", """\
    def send(self, request):
        if self._state == ClientState.CLOSED:
            raise RuntimeError("Cannot send a request, as the client has been closed.")
        response = self._send(request)
        try:
            return response
        except BaseException:
            response.close()
            raise
""")

BUILD = EvidenceText("src/url.js::build", """\
function build(options) {
  const prefix = options.prefix || '';
  let input = prefix + options.input;
  if (options.baseUrl) {
    input = new URL(input, options.baseUrl).href;
  }
  return input;
}
""")
RETRY = EvidenceText("net/retry.py::Retrier.retry", """\
    def retry(self, request):
        retry_delay = self.backoff(self.attempts)
        time.sleep(retry_delay)
        for hook in self.hooks:
            hook(request)
""")

HANDLE = EvidenceText("lib/application.js::Application.handleRequest", """\
  handleRequest (ctx, fnMiddleware) {
    const res = ctx.res
    res.statusCode = 404
    const onerror = err => ctx.onerror(err)
    return fnMiddleware(ctx).then(() => respond(ctx)).catch(onerror)
  }
""")

HANDLERS = EvidenceText("app/_exception_handler.py::wrap_app_handling_exceptions", """\
async def wrapped_app(conn, exc):
    handler = None
    if isinstance(exc, HTTPException):
        handler = status_handlers.get(exc.status_code)
    if handler is None:
        handler = _lookup_exception_handler(exception_handlers, exc)
    if is_async_callable(handler):
        response = await handler(conn, exc)
""")
GET_EDITOR = EvidenceText("src/click/_termui_impl.py::Editor.get_editor", """\
    def get_editor(self):
        if self.editor is not None:
            return self.editor
        for key in "VISUAL", "EDITOR":
            rv = os.environ.get(key)
            if rv:
                return rv
        return "vi"
""")
NO_PROXY = EvidenceText("src/requests/utils.py::should_bypass_proxies", """\
def should_bypass_proxies(url, no_proxy):
    def get_proxy(key):
        return os.environ.get(key) or os.environ.get(key.upper())
    no_proxy_arg = no_proxy
    if no_proxy is None:
        no_proxy = get_proxy("no_proxy")
""")
CLAMP = EvidenceText("src/humanize/number.py::clamp", """\
def clamp(value, format="{:}", floor=None, ceil=None, floor_token="<", ceil_token=">"):
    token = None
    if floor is not None and value < floor:
        value = floor
        token = floor_token
    elif ceil is not None and value > ceil:
        value = ceil
        token = ceil_token
    return token + format.format(value) if token else format.format(value)
""")
SET_COOKIE = EvidenceText("src/index.ts::stringifySetCookie", """\
export function stringifySetCookie(cookie: SetCookie, options?: StringifyOptions): string {
  let str = cookie.name + "=" + value;
  if (cookie.maxAge !== undefined) {
    str += "; Max-Age=" + cookie.maxAge;
  }
  if (cookie.domain) {
    str += "; Domain=" + cookie.domain;
  }
  if (cookie.expires) {
    str += "; Expires=" + cookie.expires.toUTCString();
  }
  return str;
}
""")

LOG_MACRO = EvidenceText("src/macros.rs::__log", """\
macro_rules! __log {
    ($lvl:expr, $($arg:tt)+) => {{
        let lvl = $lvl;
        if lvl <= STATIC_MAX_LEVEL && lvl <= max_level() {
            log_impl(lvl, $($arg)+);
        }
    }};
}
""", ("src/macros.rs::__log",), "rust")
RETRY_NOTIFY = EvidenceText("retry.go::doRetryNotify", """\
func doRetryNotify(operation Operation, b BackOff) error {
    var next time.Duration
    b.Reset()
    for {
        err := operation()
        if next = b.NextBackOff(); next == Stop {
            return err
        }
    }
}
""", ("retry.go::doRetryNotify",), "go")
TUPLE = EvidenceText("lib.py::pair", """\
def pair(a, b):
    return (make_left(a), make_right(b))
""")

ARC_GET = EvidenceText("arc/arc.go::ARCCache.Get", """\
func (c *ARCCache[K, V]) Get(key K) (value V, ok bool) {
	if val, ok := c.t1.Peek(key); ok {
		c.t1.Remove(key)
		c.t2.Add(key, val)
		return val, ok
	}
	if val, ok := c.t2.Get(key); ok {
		return val, ok
	}
	return
}
""", language="go")
IMPORTS = EvidenceText("slugify/slugify.py", """\
try:
    import unidecode
except ImportError:
    import text_unidecode as unidecode
""", language="python")

TO_STRING = EvidenceText("basic.go::ToStringE", """\
func ToStringE(i any) (string, error) {
\tswitch s := i.(type) {
\tcase string:
\t\treturn s, nil
\tcase fmt.Stringer:
\t\treturn s.String(), nil
\tcase error:
\t\treturn s.Error(), nil
\t}
}
""", language="go")

# round 12: each step named before its ordinal; a fallback after a condition; the function's own name
BYTES = EvidenceText("index.js::bytes", """\
function bytes(value, options) {
  if (typeof value === 'string') {
    return parse(value);
  }
  if (typeof value === 'number') {
    return format(value, options);
  }
  return null;
}
""", language="javascript")
UPSERT = EvidenceText("tinydb/table.py::Table.upsert", """\
def upsert(self, document, cond=None):
    try:
        updated_docs = self.update(document, cond, doc_ids)
    except KeyError:
        updated_docs = None
    if updated_docs:
        return updated_docs
    return [self.insert(document)]
""")
WRITE_THROUGH = EvidenceText("colorama/ansitowin32.py::AnsiToWin32.write", """\
def write(self, text):
    self.wrapped.write(text)
    self.flush_all(text)
""")

CREATE_HELPER = EvidenceText("src/util.rs::create_helper", """\
pub fn create_helper(base: &Path, prefix: &OsStr) -> io::Result<PathBuf> {
    for _ in 0..NUM_RETRIES {
        let path = base.join(tmpname(prefix));
    }
}
""", language="rust")
PICK = EvidenceText("lib/sign.js::pick", """\
function pick(key, algorithm) {
  if (algorithm === undefined) { algorithm = 'HS256' }
  if (key instanceof PyJWK) { algorithm = key.algorithm }
  return algorithm
}
""", language="javascript")
FETCH = EvidenceText("lib/fetch.js::fetch", """\
function fetch(url) {
  req.on('error', err => reject(new FetchError('system')))
  if (request.counter >= request.follow) {
    redirect(request)
  }
}
""", language="javascript")
LOAD = EvidenceText("app/load.py::load", """\
def load(path):
    data = read_file(path)
    try:
        return parse(data)
    except ValueError:
        return None
""")

SET_HEADER = EvidenceText("index.js::SendStream.prototype.setHeader", """\
SendStream.prototype.setHeader = function setHeader (path, stat) {
  var res = this.res
  this.emit('headers', res, path, stat)
  if (this._acceptRanges && !res.getHeader('Accept-Ranges')) {
    res.setHeader('Accept-Ranges', 'bytes')
  }
}
""")

SECURE = EvidenceText("index.js::Cookies.prototype.set", """\
Cookies.prototype.set = function (name, value, opts) {
  var secure = this.secure === undefined
    ? req.protocol === 'https' || isRequestEncrypted(req)
    : Boolean(this.secure)
  if (opts && 'secureProxy' in opts) deprecate('"secureProxy" option; use "secure" option')
}
""", language="javascript")
MIDDLEWARE = EvidenceText("index.js::Cookies.connect", """\
Cookies.connect = function (keys) {
  return function (req, res, next) {
    req.cookies = res.cookies = new Cookies(req, res, { keys: keys })
    next()
  }
}
""", language="javascript")

UNMARSHAL = EvidenceText("id.go::ID.UnmarshalText", """\
func (id *ID) UnmarshalText(text []byte) error {
	if len(text) != encodedLen {
		return ErrInvalidID
	}
	if !decode(id, text) {
		*id = nilID
		return ErrInvalidID
	}
	return nil
}
""", language="go")
RESET = EvidenceText("id.go::ID.Reset", """\
func (id *ID) Reset(text []byte) error {
	if len(text) != encodedLen {
		return ErrInvalidID
	}
	*id = nilID
	return nil
}
""", language="go")

ADD_METACLASS = EvidenceText("six.py::add_metaclass", """\
def add_metaclass(metaclass):
    def wrapper(cls):
        orig_vars = cls.__dict__.copy()
        slots = orig_vars.get('__slots__')
        if slots is not None:
            for slots_var in slots:
                orig_vars.pop(slots_var)
        orig_vars.pop('__dict__', None)
        orig_vars.pop('__weakref__', None)
        return metaclass(cls.__name__, cls.__bases__, orig_vars)
    return wrapper
""")
CANONICALIZE = EvidenceText("w3lib/url.py::canonicalize_url", """\
def canonicalize_url(url, encoding=None):
    scheme, netloc, path, query, fragment = _safe_url_split(url, encoding=encoding)
    host = netloc.rpartition("@")[2]
    netloc = netloc.replace(host, host.lower())
    return urlunsplit((scheme, netloc, path, query, fragment))
""")
RETRY_POLICY = EvidenceText("client.go::baseRetryPolicy", """\
func baseRetryPolicy(resp *http.Response, err error) (bool, error) {
	if err != nil {
		if v, ok := err.(*url.Error); ok {
			if redirectsErrorRe.MatchString(v.Error()) {
				return false, v
			}
		}
		return true, nil
	}
	return false, nil
}
""", language="go")
PARSE_ERROR = EvidenceText("src/alphabet.rs::ParseAlphabetError", """\
pub enum ParseAlphabetError {
    InvalidLength,
    DuplicatedByte(u8),
    UnprintableByte(u8),
    ReservedByte(u8),
}
""", language="rust")
PARSE_ERROR_FMT = EvidenceText("src/alphabet.rs::<ParseAlphabetError as Display>.fmt", """\
fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
    match self {
        Self::InvalidLength => write!(f, "Invalid length - must be 64 bytes"),
        Self::DuplicatedByte(b) => write!(f, "Duplicated byte: {:#04x}", b),
        Self::UnprintableByte(b) => write!(f, "Unprintable byte: {:#04x}", b),
        Self::ReservedByte(b) => write!(f, "Reserved byte: {:#04x}", b),
    }
}
""", language="rust")
NEW_WITH_PADDING = EvidenceText("src/alphabet.rs::Alphabet.new_with_padding", """\
pub const fn new_with_padding(alphabet: &str, padding: u8) -> Result<Self, ParseAlphabetError> {
    let bytes = alphabet.as_bytes();
    if bytes.len() != ALPHABET_SIZE {
        return Err(ParseAlphabetError::InvalidLength);
    }
    let mut index = 0;
    while index < ALPHABET_SIZE {
        let byte = bytes[index];
        if !(byte >= 32_u8 && byte <= 126_u8) {
            return Err(ParseAlphabetError::UnprintableByte(byte));
        }
        if byte == padding {
            return Err(ParseAlphabetError::ReservedByte(byte));
        }
        let mut probe_index = 0;
        while probe_index < ALPHABET_SIZE {
            if probe_index != index && byte == bytes[probe_index] {
                return Err(ParseAlphabetError::DuplicatedByte(byte));
            }
            probe_index += 1;
        }
        index += 1;
    }
    Ok(Self::from_str_unchecked(alphabet))
}
""", language="rust")
DO = EvidenceText("client.go::Client.Do", """\
func (c *Client) Do(req *Request) (*http.Response, error) {
	for i := 0; ; i++ {
		resp, doErr = c.HTTPClient.Do(req.Request)
		wait := c.Backoff(c.RetryWaitMin, c.RetryWaitMax, i, resp)
		timer := time.NewTimer(wait)
		<-timer.C
		if c.PrepareRetry != nil {
			if err := c.PrepareRetry(req.Request); err != nil {
				return nil, err
			}
		}
	}
}
""", language="go")


CONFIG = EvidenceText("src/structlog/_config.py", """\
from .contextvars import merge_contextvars
from .dev import ConsoleRenderer, set_exc_info
from .processors import StackInfoRenderer, TimeStamper, add_log_level

_BUILTIN_DEFAULT_PROCESSORS = [
    merge_contextvars,
    add_log_level,
    StackInfoRenderer(),
    set_exc_info,
    TimeStamper(fmt="%Y-%m-%d %H:%M:%S", utc=False),
    ConsoleRenderer(),
]
""")


# round 16: a value kept under its own name is set up, not used; "one after another" orders nothing
WRAPPED_FILTER = EvidenceText("index.js::wrappedFileFilter", """\
function wrappedFileFilter (req, file, cb) {
  var fileFilter = this.fileFilter
  if ((filesLeft[file.fieldname] || 0) <= 0) {
    return cb(new MulterError('LIMIT_UNEXPECTED_FILE', file.fieldname))
  }
  filesLeft[file.fieldname] -= 1
  fileFilter(req, file, cb)
}
""", ("index.js::wrappedFileFilter",), "javascript")
FORMATTER_INIT = EvidenceText("jsonlogger.py::JsonFormatter.__init__", """\
def __init__(self, reserved_attrs=RESERVED_ATTRS, **kwargs):
    self.reserved_attrs = dict(zip(reserved_attrs, reserved_attrs))
    self._required_fields = self.parse()
    self._skip_fields = dict(zip(self._required_fields, self._required_fields))
    self._skip_fields.update(self.reserved_attrs)
""", ("jsonlogger.py::JsonFormatter.__init__",), "python")
REMOVE_FILES = EvidenceText("lib/remove-uploaded-files.js::removeUploadedFiles", """\
function removeUploadedFiles (uploadedFiles, remove, cb) {
  var errors = []
  function handleFile (idx) {
    var file = uploadedFiles[idx]
    remove(file, function (err) {
      if (err) errors.push(err)
      setImmediate(handleFile, idx + 1)
    })
  }
  handleFile(0)
}
""", ("lib/remove-uploaded-files.js::removeUploadedFiles",), "javascript")


# round 16: a returned ternary tests before either branch, on one line or three
HEADERS_SENT = EvidenceText("index.js::headersSent", """\
function headersSent (res) {
  return typeof res.headersSent !== 'boolean'
    ? Boolean(res._header)
    : res.headersSent
}
""", ("index.js::headersSent",), "javascript")
HEADERS_SENT_LINE = EvidenceText("index.js::headersSent", """\
function headersSent (res) {
  return typeof res.headersSent !== 'boolean' ? Boolean(res._header) : res.headersSent
}
""", ("index.js::headersSent",), "javascript")


# round 16: a comparison stands for the name it tests
MAX_RETRIES = EvidenceText("backoff.go::WithMaxRetries", """\
func WithMaxRetries(max uint64, next Backoff) Backoff {
    var attempt uint64
    return BackoffFunc(func() (time.Duration, bool) {
        if attempt >= max {
            return 0, true
        }
        attempt++
        val, stop := next.Next()
        return val, stop
    })
}
""", language="go")


FIND_OPT = EvidenceText("src/lib.rs::find_opt", """\
fn find_opt(opts: &[Opt], nm: &Name) -> Option<usize> {
    let pos = opts.iter().position(|opt| &opt.name == nm);
    if pos.is_some() {
        return pos;
    }
    for candidate in opts.iter() {
        if candidate.aliases.iter().any(|opt| &opt.name == nm) {
            return opts.iter().position(|opt| opt.name == candidate.name);
        }
    }
    None
}
""", language="rust")


FIND_ALL = EvidenceText("src/find-all.ts::_findAll", """\
function _findAll(ctx, node, method, segments, index, matches = []) {
  const segment = segments[index];
  if (node.wildcard && node.wildcard.methods) {
    matches.push(...node.wildcard.methods[method]);
  }
  if (node.param) {
    _findAll(ctx, node.param, method, segments, index + 1, matches);
  }
  const staticChild = node.static?.[segment];
  if (staticChild) {
    _findAll(ctx, staticChild, method, segments, index + 1, matches);
  }
  if (index === segments.length && node.methods) {
    matches.push(...node.methods[method]);
  }
  return matches;
}
""")


CHUNKS = EvidenceText("src/buf/take.rs::<Take as Buf>.chunks_vectored", """\
    fn chunks_vectored<'a>(&'a self, dst: &mut [IoSlice<'a>]) -> usize {
        if self.limit == 0 {
            return 0;
        }
        let cnt = self.inner.chunks_vectored(&mut slices[..dst.len().min(LEN)]);
        let mut limit = self.limit;
        for (i, (dst, slice)) in dst[..cnt].iter_mut().zip(slices.iter()).enumerate() {
            if let Some(buf) = slice.get(..limit) {
                return i + 1;
            }
            limit -= slice.len();
        }
        cnt
    }
""", language="rust")
ACCEPTS_TYPES = EvidenceText("index.js::Accepts.prototype.types", """\
Accepts.prototype.types = function (types_) {
  if (!types.length) {
    return this.negotiator.mediaTypes()
  }
  if (!this.headers.accept) {
    return types[0]
  }
  var mimes = types.map(extToMime)
  var accepts = this.negotiator.mediaTypes(mimes.filter(validMime))
  var first = accepts[0]
  return first ? types[mimes.indexOf(first)] : false
}
""", language="javascript")
OPTIMAL = EvidenceText("src/wrap_algorithms/optimal_fit.rs::wrap_optimal_fit", """\
pub fn wrap_optimal_fit(fragments: &[T]) -> Result<Vec<&[T]>, OverflowError> {
    let minima = smawk::online_column_minima(0.0, widths.len(), |minima, i, j| {
        let mut cost = minima[i].1 + penalties.nline_penalty as f64;
        cost
    });
    for (_, cost) in &minima {
        if cost.is_infinite() {
            return Err(OverflowError);
        }
    }
    Ok(lines)
}
""", language="rust")
DESTR_ORDER = EvidenceText("src/index.ts::destr", """\
export function destr(value: any): any {
  if (value[0] === '"' && value.indexOf("\\\\") === -1) {
    return value.slice(1, -1);
  }
  const _value = value.trim();
  return JSON.parse(value);
}
""", language="typescript")


VARY_APPEND = EvidenceText("index.js::append", """\
function append (header, field) {
  if (typeof header !== 'string') {
    throw new TypeError('header argument is required')
  }
  for (var j = 0; j < fields.length; j++) {
    if (!FIELD_NAME_REGEXP.test(fields[j])) {
      throw new TypeError('field argument contains an invalid header name')
    }
  }
  if (header === '*') {
    return header
  }
  return header + ', ' + field
}
""", language="javascript")

CLI_RUN = EvidenceText("bin/cli.js::run", """\
function run() {
  let result = parser.parse(args);
  let input = '';
  if (pOpts.dataInput) {
    input = decodeURIComponent(pOpts.dataInput);
  }
  let vals = JSON.parse(input);
  return vals;
}
""", language="javascript")
INCLUDE_PATH = EvidenceText("lib/esm/ejs.js::getIncludePath", """\
function getIncludePath(path, options) {
  let includePath;
  let filePath;
  let views = options.views;
  if (options.filename) {
    filePath = resolveInclude(path, options.filename);
    if (exists(filePath)) {
      includePath = filePath;
    }
  }
  if (!includePath && Array.isArray(views)) {
    includePath = resolvePaths(path, views);
  }
  return includePath;
}
""", language="javascript")

FROM_VALUES = EvidenceText("src/object.ts::genObjectFromValues", """\
export function genObjectFromValues(
  obj: Record<string, any>,
  indent = "",
  options: GenObjectOptions = {},
): string {
  return genObjectFromRaw(obj, indent, { preserveTypes: true, ...options });
}
""", language="typescript")

MULTIPARTY_PARSE = EvidenceText("index.js::Form.prototype.parse", """\
Form.prototype.parse = function(req, cb) {
  req.on('error', function(err) {
    waitend = false;
    handleError(err);
  });
  req.on('aborted', onReqAborted);

  function onReqAborted() {
    waitend = false;
    self.emit('aborted');
    handleError(new Error('Request aborted'))
  }
};
""", language="javascript")

TERMINATE = EvidenceText("ptyprocess/ptyprocess.py::PtyProcess.terminate", """\
    def terminate(self, force=False):
        if not self.isalive():
            return True
        self.kill(signal.SIGHUP)
        time.sleep(self.delayafterterminate)
        if not self.isalive():
            return True
        self.kill(signal.SIGINT)
        time.sleep(self.delayafterterminate)
        return not self.isalive()
""")

TRANSFORM = EvidenceText("src/transform.ts::transformCall", """\
function transformCall(node: CallExpression) {
  const lastArgument = node.arguments[node.arguments.length - 1];
  if (lastArgument) {
    s.appendRight(lastArgument.end, ",1");
  }
  for (const argument of node.arguments) {
    visit(argument);
  }
}
""")

DECLARED = EvidenceText("src/handle.ts::handle", """\
function handle(req: Request): Result {
  let result: Result;
  validate(req);
  result = compute(req);
  return result;
}
""")
SLOTTED = EvidenceText("async_timeout/__init__.py::Timeout", """\
class Timeout:
    __slots__ = ("_deadline", "_state", "_task")

    def _on_timeout(self) -> None:
        self._task.cancel()
        self._state = _State.TIMEOUT
""")

# round 31 (ftfy t17): the function names "sloppy" before "latin-1"; the anchored list says the claim's order
CHARMAP_ENCODINGS = EvidenceText("ftfy/chardata.py::CHARMAP_ENCODINGS", """\
CHARMAP_ENCODINGS = [
    "latin-1",
    "sloppy-windows-1252",
    "sloppy-windows-1251",
    "macroman",
]
""")
ONE_STEP = EvidenceText("ftfy/__init__.py::_fix_encoding_one_step_and_explain", """\
def _fix_encoding_one_step_and_explain(text, config):
    for encoding in chardata.CHARMAP_ENCODINGS:
        if config.replace_lossy_sequences and encoding.startswith("sloppy"):
            encoded_bytes = fixes.replace_lossy_sequences(encoded_bytes)
    if "latin-1" in possible_1byte_encodings:
        return text.encode("latin-1").decode("windows-1252")
""")

# round 31 (prettytable f09): option names an __init__ lists are no order of steps
TABLE_INIT = EvidenceText("src/prettytable/prettytable.py::PrettyTable.__init__", """\
    def __init__(self, field_names=None, **kwargs):
        self._options = ["title", "start", "end", "sortby", "oldsortslice"]
        self._oldsortslice = kwargs["oldsortslice"] or False
""")
GET_ROWS = EvidenceText("src/prettytable/prettytable.py::PrettyTable._get_rows", """\
    def _get_rows(self, options):
        if options["oldsortslice"]:
            rows = copy.deepcopy(self._rows[options["start"] : options["end"]])
        else:
            rows = copy.deepcopy(self._rows)
        if options["sortby"]:
            rows = self._sort(rows)
        if not options["oldsortslice"]:
            rows = rows[options["start"] : options["end"]]
        return rows
""")

STRINGIFY_YAML = EvidenceText("src/yaml.ts::stringifyYAML", """\
export function stringifyYAML(value: any, options?: YAMLStringifyOptions): string {
  const format = getFormat(value, { preserveIndentation: false });
  const str = dump(value, {
    indent: format.indent,
    ...options,
  });
  return str;
}
""")

POSTCSS = EvidenceText("src/loaders/postcss.ts::postcssLoader", """\
export const postcssLoader = async (input, ctx) => {
  const transformed = await postcss(
    [
      ctx.options.postcss?.nested !== false && postcssNested(ctx.options.postcss?.nested),
      ctx.options.postcss?.autoprefixer !== false && autoprefixer(ctx.options.postcss?.autoprefixer),
      ctx.options.postcss?.cssnano !== false && cssnano(ctx.options.postcss?.cssnano),
      ...(ctx.options.postcss?.plugins || []),
    ].filter(Boolean),
  ).process(contents, { from: input.srcPath });
};
""")


# round 34 (version_check t12): "a comma split" is the split with that separator
SUPPORTS_FEATURE = EvidenceText("src/lib.rs::supports_feature", """\
pub fn supports_feature(feature: &str) -> Option<bool> {
    let rustflags = flags.to_string_lossy();
    let allow_features = rustflags.split(delim)
        .filter(|flag| flag.starts_with(ALLOW_FEATURES));
    if let Some(allow_features) = allow_features.last() {
        return Some(allow_features.split(',').any(|f| f.trim() == feature));
    }
    Some(true)
}
""")


SOCKET_SUPPORTED = EvidenceText("src/socket.ts::isSocketSupported", """\
export async function isSocketSupported(): Promise<boolean> {
  if (_isSocketSupported !== undefined) {
    return _isSocketSupported;
  }
  if (process.versions.webcontainer) {
    return false;
  }
  const socketName = getSocketAddress({ name: "check" });
  try {
    await listen(socketName);
    _isSocketSupported = true;
  } catch {
    _isSocketSupported = false;
  }
  return _isSocketSupported;
}
""", ("src/socket.ts::isSocketSupported", "isSocketSupported"), "typescript")

GET_PORT = EvidenceText("src/get-port.ts::getPort", """\
export async function getPort(options: GetPortOptions): Promise<number> {
  const port = Number(options.port ?? process.env.PORT);
  const portsToCheck = [port, ...options.ports].filter(Boolean);
  let availablePort = await _findPort(portsToCheck, options.host);
  if (!availablePort && options.random !== false) {
    availablePort = await getRandomPort(options.host);
  }
  return availablePort;
}
""", ("src/get-port.ts::getPort", "getPort"), "typescript")


UNPLUGIN = EvidenceText("src/unplugin.ts", """\
export default createUnplugin<Partial<UnimportPluginOptions>>((options = {}) => {
  const ctx = createUnimport(options)
  return {
    name: 'unimport',
    enforce: 'post',
    async buildStart() {
      await ctx.init()
      await writeConfigFiles()
    },
  }
})
""", ("src/unplugin.ts",), "typescript")

HASH = EvidenceText("src/cmp.rs::<Ratio as Hash>.hash", """\
    fn hash<H: Hasher>(&self, state: &mut H) {
        recurse(&self.numer, &self.denom, state);

        fn recurse<T: Integer + Hash, H: Hasher>(numer: &T, denom: &T, state: &mut H) {
            if !denom.is_zero() {
                let (int, rem) = numer.div_mod_floor(denom);
                int.hash(state);
                recurse(denom, &rem, state);
            } else {
                denom.hash(state);
            }
        }
    }
""", ("src/cmp.rs::<Ratio as Hash>.hash",), "rust")
UNNESTED = EvidenceText("src/cmp.rs::<Ratio as Hash>.hash", """\
    fn hash<H: Hasher>(&self, state: &mut H) {
        recurse(&self.numer, &self.denom, state);
        let (int, rem) = self.numer.div_mod_floor(&self.denom);
        int.hash(state);
    }
""", ("src/cmp.rs::<Ratio as Hash>.hash",), "rust")


FONTAINE = EvidenceText("src/postcss.ts::fontaine", """\
export function fontaine(options) {
  return {
    async Once(root) {
      const fontFaces = []
      root.walkAtRules(/^font-face$/i, rule => void fontFaces.push(rule))
      for (const rule of fontFaces) {
        const css = await generateFallback(rule)
        if (css) {
          rule.parent.insertBefore(rule, postcss.parse(css))
          break
        }
      }
    },
  }
}
""", "typescript")

FIRES = [
    # round 37: the helper is called first and defined elsewhere: its first call is the first step
    ("hash does div_mod_floor of numer by denom, then recurse on denom/remainder.", UNNESTED),
    # round 32 (confbox f04): a spread written with its dots; the later step's verb after "and"
    ("stringifyYAML spreads `...options` first and sets `indent` afterwards, so the detected indent wins.",
     STRINGIFY_YAML),
    # round 31 (prettytable f09): the other anchor lists option names inside a method, not an order
    ("By default PrettyTable slices rows to start/end first and sorts afterwards (oldsortslice defaults to True "
     "in __init__).", [TABLE_INIT, GET_ROWS]),
    # round 31: the function alone, which names "sloppy" first
    ("CHARMAP_ENCODINGS is tried in order: latin-1 first, then sloppy-windows-1252, then macroman.", ONE_STEP),
    # round 29: their next use still orders them
    ("handle computes the result first, then validates.", DECLARED),
    ("_on_timeout sets `_state` first and only then calls `self._task.cancel()`.", SLOTTED),
    # round 29: the name two words spell with a qualifier still orders
    ("The transformer appends `,1` before the last argument is read.", TRANSFORM),
    # round 28: two steps named once each are still ordered by their first uses
    ("terminate sleeps before it first checks isalive().", TERMINATE),
    # round 22 (knitwork f10): two entries of a literal that spreads are set in the literal's order
    ("genObjectFromValues spreads your options first and then sets preserveTypes: true.", FROM_VALUES),
    # round 22: the receiver's own call, and a name kept under its own name ordered by its next use
    ("run() does JSON.parse first and then decodeURIComponent(pOpts.dataInput).", CLI_RUN),
    ("Include lookup: each entry of views first, only then options.filename.", INCLUDE_PATH),
    # round 21 (vary t06): a comparison written out is found where the code writes it
    ("In append the `header === '*'` early return comes before the FIELD_NAME_REGEXP check.", VARY_APPEND),
    # round 20: a test is a step of the path the claim describes, whatever its body does (a guard that
    # only returns is one too: markupsafe f01; measured, bytes t20 gained one true fact and three false
    # ones were lost when it was read as another path)
    ("chunks_vectored collects at most 16 IoSlices from the inner buf, then trims them to the limit.", CHUNKS),
    ("chunks_vectored collects from the inner buf, then checks the limit.", EvidenceText(
        "src/take.rs::chunks", "fn chunks(&self) -> usize {\n    if self.limit == 0 {\n        self.done = true;\n"
        "        return 0;\n    }\n    let cnt = self.inner.chunks(buf);\n    cnt.min(self.limit)\n}\n",
        language="rust")),
    # round 18: the owner's member, in the order the code reads it
    ("_findAll visits the static child after the node's own methods.", FIND_ALL),
    # round 17: a gloss in plain words is no operand ("the aliases (short names) first")
    ("find_opt checks the aliases (short names) first and only then the primary names.", FIND_OPT),
    # round 16: a comparison is ordered by the name it tests
    ("WithMaxRetries calls next.Next() first and checks `attempt >= max` afterwards.", MAX_RETRIES),
    # round 16: a returned ternary's test comes first, though its branch uses the same name again
    ("headersSent(res) looks at the legacy res._header first and only consults res.headersSent when _header "
     "is undefined.", HEADERS_SENT),
    ("headersSent(res) checks res._header before res.headersSent.", HEADERS_SENT_LINE),
    # round 16: the value's use, not where it is kept under its own name, orders it
    ("wrappedFileFilter calls the user fileFilter before it decrements filesLeft.", WRAPPED_FILTER),
    ("_skip_fields is updated with reserved_attrs before _required_fields is parsed.", FORMATTER_INIT),
    ("removeUploadedFiles calls setImmediate before remove(file).", REMOVE_FILES),
    # round 15: a list announced by "order:", against the statement that writes the names
    ("Default processor order: merge_contextvars, TimeStamper, add_log_level, StackInfoRenderer, set_exc_info, "
     "ConsoleRenderer - the timestamp is added before the level.", CONFIG),
    # round 15: "A first (X) and only afterwards B"; an aside that opens with "e.g."
    ("new_with_padding runs the duplicate scan first (DuplicatedByte) and only afterwards checks each byte "
     "for UnprintableByte.", NEW_WITH_PADDING),
    ("Order in Do: PrepareRetry(req) runs first (e.g. re-sign), then the backoff timer is started.", DO),
    # a quoted operand is the string, which comes after the attribute here
    ("add_metaclass pops '__weakref__' first, then '__dict__'.", ADD_METACLASS),
    # round 14: an early exit that is the only use of the later step still orders it
    ("Reset sets the id to nilID before it returns ErrInvalidID.", RESET),
    # round 14: the aside is passed over, the operands beside it still compared; a call is ordered by its call
    ("set checks isRequestEncrypted(req) first (for requests behind a trusted proxy), then `req.protocol`.",
     SECURE),
    ("The middleware calls `next()` before it sets `res.cookies`.", MIDDLEWARE),
    ("setHeader writes Accept-Ranges before it emits 'headers'.", SET_HEADER),
    # a statement written with its keyword stands for the name it is about
    ("ToStringE checks `case error` before `case fmt.Stringer`.", TO_STRING),
    ("ARCCache.Get looks in t2 first and only falls back to t1 on a miss.", ARC_GET),
    ("text_unidecode is tried first, unidecode is the ImportError fallback.", IMPORTS),
    # a product named capitalized is the module the code imports
    ("text_unidecode is tried first, Unidecode is the fallback.", IMPORTS),
    ("doRetryNotify calls b.NextBackOff() before b.Reset().", RETRY_NOTIFY),
    # round 12
    ("In bytes(): the number branch (format) is checked first, the string branch (parse) second.", BYTES),
    ("upsert = insert first, and if that raises ValueError it falls back to update().", UPSERT),
    # the subject is the anchored function itself, not a step of it: the steps are the verbs
    ("AnsiToWin32.write flushes the text first and then writes it.", WRITE_THROUGH),
    ("pick checks PyJWK first, then the algorithm.", PICK),
    ("fetch does a redirect before it rejects with a FetchError.", FETCH),
    ("fetch rejects with a FetchError after a redirect.", FETCH),
    ("create_helper joins the tmpname before it loops over NUM_RETRIES.", CREATE_HELPER),
    # operands of && (and, ||, or) are tested left to right, on one line too
    ("the macros check the dynamic `max_level()` first, then STATIC_MAX_LEVEL.", LOG_MACRO),
    # parameters named in plain words: ordered by the first condition that tests each
    ("clamp evaluates ceil first and only then floor.", CLAMP),
    ("clamp checks ceil before floor.", CLAMP),
    # a protocol word the code writes inside a string, with its separators ("; Max-Age=")
    ("Set-Cookie order: Expires comes before Max-Age.", SET_COOKIE),
    ("stringifySetCookie writes Expires, then Domain.", SET_COOKIE),
    ("is_async_callable is checked before _lookup_exception_handler runs.", HANDLERS),
    # strings listed on one line are tried in that order; "first and only uses B" names the fallback
    ("Editor.get_editor reads $EDITOR first and only uses $VISUAL when EDITOR is unset.", GET_EDITOR),
    ("get_editor tries EDITOR first, falling back to VISUAL.", GET_EDITOR),
    ("handleRequest calls respond before it sets res.statusCode to 404.", HANDLE),
    # "first ... afterwards": the step said first is the one left of "first"
    ("In build the baseUrl is resolved first and the prefix is prepended afterwards.", BUILD),
    ("build resolves baseUrl first, and the prefix is added later.", BUILD),
    # two plain words that spell a name of the code: "the retry delay" is retry_delay
    ("retry runs the hooks first, then waits out the retry delay.", RETRY),
    ("prepare applies auth first (prepare_auth) and only then prepare_body.", PREPARE),
    ("prepare_auth runs before prepare_body.", PREPARE),
    ("prepare_auth precedes prepare_body.", PREPARE),
    ("prepare_auth runs prior to prepare_body.", PREPARE),
    ("prepare_body runs later than prepare_auth.", PREPARE),
    ("prepare_body runs after prepare_auth.", PREPARE),
    ("prepare_auth, followed by prepare_body.", PREPARE),
    ("prepare_hooks, then prepare_url.", PREPARE),
    ("first prepare_hooks runs, second prepare_url.", PREPARE),
    ("`prepare_auth` runs before `prepare_body`.", PREPARE),
    # a verb the code calls stands for the call: "is sent" is _send_single_request(request)
    ("the request is sent first and then len(history) is compared to max_redirects.", REDIRECTS),
    ("res.send first checks req.fresh and answers 304, and only then generates the ETag.", SEND),
    # whose headers: the client's are self.headers, the per-request ones the parameter
    ("_merge_headers applies the per-request headers first and then the client's headers.", MERGE),
    # the call that passes the claim's message, not an earlier call of the same function
    ("onReqAborted calls handleError(new Error('Request aborted')) first and only then emits 'aborted'.",
     MULTIPARTY_PARSE),
    # round 33: a spread among the listed names, the others out of order
    ("postcss chain order: cssnano -> autoprefixer -> ...postcss.plugins.", POSTCSS),
    # round 34: a split with no separator named, or one the code never splits on after it
    ("Only the last flag counts (`allow_features.last()`), then it's a split with exact name match.",
     SUPPORTS_FEATURE),
    ("Only the last flag counts (`allow_features.last()`), then it's a space split.", SUPPORTS_FEATURE),
    # round 35: a name said to keep a result is ordered by where the code assigns it; a getter by its noun
    ("isSocketSupported(): memoized in `_isSocketSupported` before the listen test.", SOCKET_SUPPORTED),
    ("The random port is tried first, then the ports listed.", GET_PORT),
    # round 35: the steps inside a method the claim names as where they run are still ordered
    ("writeConfigFiles() runs before ctx.init() scans the dirs.", UNPLUGIN),
    # round 38: a step done before another, with no verb of placing
    ("The fallback is generated before the font-face rules are walked.", FONTAINE),
]

SILENT = [
    # round 37 (num-rational t11): the helper's body, defined inside, runs after its call: its steps are in order
    ("Hash walks the continued fraction (div_mod_floor of numer by denom, then recurse on denom/remainder).", HASH),
    # round 32: the literal's own order
    ("stringifyYAML sets `indent` first and spreads `...options` afterwards, so options.indent wins.",
     STRINGIFY_YAML),
    # round 31 (ftfy t17): another anchor, the list itself, writes them in the claim's order
    ("CHARMAP_ENCODINGS is tried in order: latin-1 first, then sloppy-windows-1252, then macroman.",
     [CHARMAP_ENCODINGS, ONE_STEP]),
    # round 29: a name declared with no value (`let result: Result;`), a string of `__slots__`: set up, no step
    ("handle validates first, then computes the result.", DECLARED),
    ("_on_timeout calls `self._task.cancel()` first and only then sets `_state` to TIMEOUT.", SLOTTED),
    # round 29 (unctx t21): "the last argument" is the code's lastArgument, not the loop's argument
    ("The transformer appends `,1` after the last argument.", TRANSFORM),
    # round 28 (ptyprocess t11): a step that follows each of a repeated other is no order of first uses
    ("terminate() sends SIGHUP then SIGINT, checking isalive() after each sleep.", TERMINATE),
    ("terminate() checks isalive() before every kill.", TERMINATE),
    # round 22 (knitwork t14): the literal's order
    ("genObjectFromValues sets preserveTypes: true first and then spreads the caller's options over it.",
     FROM_VALUES),
    # round 22 (ejs t24, t03): `parser.parse(args)` is no JSON.parse; `let views = options.views` is no lookup
    ("-i takes URI-encoded JSON: run() does decodeURIComponent(pOpts.dataInput) and then JSON.parse.", CLI_RUN),
    ("Include lookup: options.filename first, only then each entry of views.", INCLUDE_PATH),
    # round 21 (vary t06): not at the name's first use (`typeof header !== 'string'`)
    ("Order inside append: the FIELD_NAME_REGEXP check, and only then the `header === '*'` early return.", VARY_APPEND),
    # round 20: a call inside the argument list of another runs first (accepts t08); "and returns" starts a
    # predicate of its own (textwrap t20); a dash sets a remark apart (destr t02)
    ("Unknown types are dropped with `mimes.filter(validMime)` before `negotiator.mediaTypes(...)` is called.",
     ACCEPTS_TYPES),
    ("wrap_optimal_fit checks every minima cost after smawk::online_column_minima and returns Err(OverflowError) "
     "on the first infinite one.", OPTIMAL),
    ("A quoted string is returned as `value.slice(1, -1)` without JSON.parse -- this happens before `value.trim()`.",
     DESTR_ORDER),
    # round 18: "the node's own methods" is node.methods, not the first use of node
    ("_findAll pushes the wildcard, then the static child, then the node's own methods at the end of the path.",
     FIND_ALL),
    # round 17: the same order, glossed, is the code's
    ("find_opt checks the primary names first and only then the aliases (short names).", FIND_OPT),
    # round 16: a comparison is ordered by the name it tests
    ("WithMaxRetries checks `attempt >= max` first and only then calls next.Next().", MAX_RETRIES),
    # round 16: the ternary's test, then its branch
    ("headersSent(res) checks res.headersSent first and falls back to res._header.", HEADERS_SENT),
    ("headersSent(res) checks res.headersSent first and falls back to res._header.", HEADERS_SENT_LINE),
    # round 16: a value kept under its own name is set up, not used; "one after another" orders nothing
    ("wrappedFileFilter first rejects with MulterError('LIMIT_UNEXPECTED_FILE', fieldname) when the field has "
     "no slots left, then decrements filesLeft, and only then calls the user fileFilter.", WRAPPED_FILTER),
    ("`_skip_fields` is built from `_required_fields` and then updated with the reserved_attrs dict.",
     FORMATTER_INIT),
    ("removeUploadedFiles deletes files one after another (next one scheduled with setImmediate).", REMOVE_FILES),
    ("It removes them one after the other, setImmediate between two.", REMOVE_FILES),
    # round 15: the list in the code's order (imports, in another order, are no statement of it)
    ("Default processor order: merge_contextvars, add_log_level, StackInfoRenderer, set_exc_info, TimeStamper, "
     "ConsoleRenderer.", CONFIG),
    # two names are no list; a list with no "order:" orders nothing
    ("Default processor order: TimeStamper, add_log_level.", CONFIG),
    ("The defaults include TimeStamper, add_log_level and merge_contextvars.", CONFIG),
    # round 15: a quoted operand is the string, not the attribute spelled alike (cls.__dict__)
    ("add_metaclass copies cls.__dict__, pops every name listed in __slots__, then pops '__dict__' and "
     "'__weakref__'.", ADD_METACLASS),
    # a place in a text, not a step
    ("canonicalize_url lowercases only the part of the netloc after the last '@' (host[:port]).", CANONICALIZE),
    # a marker inside a term the claim quotes
    ("The *url.Error text is matched against `stopped after \\\\d+ redirects\\\\z` (redirectsErrorRe).",
     RETRY_POLICY),
    # a type's declaration and a match's arms are no order of steps
    ("Checks: InvalidLength first, then UnprintableByte, then ReservedByte, then DuplicatedByte.",
     [PARSE_ERROR, PARSE_ERROR_FMT, NEW_WITH_PADDING]),
    ("Order in Do: the backoff is computed first, then PrepareRetry(req) runs.", DO),
    # round 14: the later step is an early exit, and comes after the earlier one on the path the claim names
    ("On a bad last char UnmarshalText sets the id to nilID before returning ErrInvalidID.", UNMARSHAL),
    # round 14: a parenthetical aside in prose is no operand ("proxy" is not secureProxy), and a
    # parameter named `next` is not the call `next()`
    ("set: first `req.protocol === 'https'` (Express/Koa set this behind a trusted proxy), then falls back to "
     "isRequestEncrypted(req).", SECURE),
    ("The middleware sets `res.cookies`, then calls `next()`.", MIDDLEWARE),
    # round 13: the anchored function's own name says where the steps are, not a step
    ("'headers' fires at the very top of setHeader, before Accept-Ranges is written.", SET_HEADER),
    ("ToStringE checks `case fmt.Stringer` before `case error`.", TO_STRING),
    ("ARCCache.Get looks in t1 first and only falls back to t2 on a miss.", ARC_GET),
    ("unidecode is tried first, text_unidecode is the ImportError fallback.", IMPORTS),
    # "the first time" is prose: the code names time only as the package of time.Duration
    ("doRetryNotify calls b.Reset() before running the operation the first time.", RETRY_NOTIFY),
    ("__log checks `STATIC_MAX_LEVEL` first and only then `max_level()`.", LOG_MACRO),
    # two calls of one line joined by no condition: first uses cannot tell
    ("pair calls make_right before make_left.", TUPLE),
    ("clamp tests floor before ceil.", CLAMP),
    # a parameter no condition tests is there from the start: no order to read
    ("clamp uses format before value.", CLAMP),
    ("Set-Cookie order: Max-Age comes before Domain, then Expires.", SET_COOKIE),
    # "is" is a function word, never the call is_async_callable(...)
    ("a handler registered for its status code (e.g. 404) is checked before handlers looked up by "
     "exception class along the MRO.", HANDLERS),
    ("Editor.get_editor reads $VISUAL first and only uses $EDITOR when VISUAL is unset.", GET_EDITOR),
    # the fallback is the name the marker gives next, not one in an aside after it
    ("should_bypass_proxies reads the no_proxy variable first and falls back to NO_PROXY "
     "(os.environ.get(key) or os.environ.get(key.upper())).", NO_PROXY),
    # a JS method's head is its signature: fnMiddleware there is a parameter, not a step
    ("handleRequest sets res.statusCode = 404 before the composed middleware runs.", HANDLE),
    ("In build the prefix is prepended first and baseUrl is resolved afterwards.", BUILD),
    ("retry waits out the retry delay first, then runs the hooks.", RETRY),
    # two words that spell no name of the code stay apart ("retry hooks" is no name)
    ("retry computes the retry delay before the retry hooks.", RETRY),
    ("prepare_url runs before prepare_body.", PREPARE),
    ("prepare calls prepare_auth after prepare_body, and prepare_hooks last.", PREPARE),
    ("prepare_body, then prepare_auth, then prepare_hooks.", PREPARE),
    # the docstring says auth comes first: the code is what is compared
    ("prepare_body runs before prepare_auth, whatever the docstring says.", PREPARE),
    # an operand the code does not have: the term rule decides
    ("prepare_cookies runs before prepare_url.", PREPARE),
    ("len(history) is compared to max_redirects before the request is sent.", REDIRECTS),
    ("res.send generates the ETag first and then checks req.fresh.", SEND),
    ("_merge_headers starts from the client's headers and then applies the per-request headers.", MERGE),
    # a parameter is there from the start: its first use says nothing of when it is applied
    ("render merges the DEFAULTS, then the options.", RENDER),
    # a temporal remark across a comma is no claim about the code's order
    ("Once a Client is closed, send raises RuntimeError, so clients can't be reused after close().", CLOSED),
    # round 12: the code's order; the anchored function's own name is no step of it
    ("In bytes(): the string branch (parse) is checked first, the number branch (format) second.", BYTES),
    ("upsert tries update() first, and if that finds nothing it falls back to insert.", UPSERT),
    ("AnsiToWin32.write writes the text first and then flushes it.", WRITE_THROUGH),
    # a count before or after the marker bounds tries, not steps; "if X, then Y" is a consequence
    ("create_helper gives up after NUM_RETRIES = 65536 attempts at finding a free name.", CREATE_HELPER),
    ("create_helper gives up after 3 attempts at a tmpname.", CREATE_HELPER),
    ("fetch follows at most 20 redirect hops before it rejects with a FetchError.", FETCH),
    ("fetch rejects with a FetchError after 20 redirect calls.", FETCH),
    ("pick falls back to HS256 (unless key is a PyJWK, then the algorithm is the key's).", PICK),
    # a statement keyword is no step
    ("load tries first, then calls read_file.", LOAD),
    ("client abort: form emits 'aborted' first, then handleError(new Error('Request aborted')) so 'error' follows.",
     MULTIPARTY_PARSE),
    # round 33: a spread is its chain's last name, not its first
    ("postcss chain order: nested -> autoprefixer -> cssnano -> ...postcss.plugins.", POSTCSS),
    # round 34: the split the claim names by its separator comes after
    ("Only the last flag counts (`allow_features.last()`), then it's a comma split with exact name match.",
     SUPPORTS_FEATURE),
    # round 35: the memo is read first, but assigned after the listen test the claim puts it after
    ("isSocketSupported(): memoized in `_isSocketSupported` after the first real listen test.", SOCKET_SUPPORTED),
    # "Random port" is getRandomPort, not the first use of `port`
    ("Random port is the last resort after ports.", GET_PORT),
    # round 35: a method named after "in" is where the steps run, not a step ("written in buildStart, after ...")
    ("The d.ts is written in buildStart, after ctx.init() has scanned the dirs.", UNPLUGIN),
    # round 38 (fontaine t16, t23): where a thing is put, not when
    ("Once a src yields fallback CSS it inserts it before the rule.", FONTAINE),
    ("It splices fontFaces in after the rule.", FONTAINE),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_both_steps_and_the_line_that_runs_first():
    [line] = fired("prepare applies auth first (prepare_auth) and only then prepare_body.", PREPARE)
    assert line == ("the claim puts `prepare_auth` before `prepare_body` (and only then), but "
                    "net/models.py::prepare says `request.prepare_body(body)`")
    [line] = fired("_merge_headers applies the per-request headers first and then the client's headers.", MERGE)
    assert "`headers (the name headers, not self.headers)` before `headers (self.headers)`" in line
    [line] = fired("the request is sent first and then len(history) is compared to max_redirects.", REDIRECTS)
    assert "`sent (_send_single_request(...))` before `len(history)`" in line
    assert line.endswith("says `if len(history) > self.max_redirects:`")


def test_a_declared_word_is_not_compared():
    assert contradictions("prepare_auth runs before prepare_body.", [PREPARE], declared=["prepare_auth"],
                          rules=[RULE]) == []
