"""The negation rule's fixture: "never does X" where the code does X, and the claims it must leave alone."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.negation import RULE

JSONP = EvidenceText("lib/response.js::res.jsonp", """\
res.jsonp = function jsonp(obj) {
  var body = stringify(obj);
  if (!this.get('Content-Type')) {
    this.set('X-Content-Type-Options', 'nosniff');
    this.set('Content-Type', 'application/json');
  }
  return this.send(body);
};
""")
LOCATION = EvidenceText("lib/response.js::res.location", """\
res.location = function location(url) {
  return this.set('Location', encodeUrl(url));
};
""")
CLOSE = EvidenceText("client.py::Client.close", """\
    def close(self):
        if self._state != ClientState.CLOSED:
            self._state = ClientState.CLOSED
            self._transport.close()
            for transport in self._mounts.values():
                if transport is not None:
                    transport.close()
""")
SEND = EvidenceText("client.py::Client.send", """\
    def send(self, request, *, stream=False):
        response = self._send_handling_auth(request)
        try:
            if not stream:
                response.read()
            return response
        except BaseException:
            response.close()
            raise
""")
SETTINGS = EvidenceText("config.py::load", """\
def load(env):
    retries = int(env.get("RETRIES", "0"))
    if retries < 0:
        raise ValueError("RETRIES must not be negative")
    return Config(retries=retries)
""")
EXPORT = EvidenceText("src/pool.ts::Pool.export", """\
export() {
  const out = []
  for (const i of this.#slots({ includeExpired: true })) {
    out.push(this.#items[i])
  }
  return out
}
""")
READS = EvidenceText("src/pool.ts::Pool.export", """\
export() {
  for (const i of this.#slots({ includeExpired: this.includeExpired })) {
    yield this.#items[i]
  }
}
""")

CACHE = EvidenceText("cache.py::Cache", """\
class Cache(collections.abc.MutableMapping):
    def __getitem__(self, key):
        return self.__data[key]

    def get(self, key, default=None):
        return self[key] if key in self else default
""")
QUEUE = EvidenceText("src/queue.ts::Queue", """\
export class Queue {
  #items: string[] = [];
  get size(): number {
    return this.#items.length;
  }
  clear(): void {
    this.#items = [];
  }
}
""")

NODE = EvidenceText("node.go::setNodeInterface", """\
func setNodeInterface(name string) bool {
	iname, addr := getHardwareInterface(name)
	if iname != "" && addr != nil {
		return true
	}
	return false
}
""", language="go")

NO_COLOR = EvidenceText("color.go::NoColor", """\
NoColor = noColorIsSet() || os.Getenv("TERM") == "dumb" || !stdoutIsTerminal()
""", language="go")

UNSIGNED = EvidenceText("number.go::toUnsignedNumberE", """\
func toUnsignedNumberE[T Number](i any) (T, error) {
\tif v < 0 {
\t\treturn 0, errNegativeNotAllowed
\t}
\treturn T(v), nil
}
""", language="go")

# round 12: a function written on one line; "only" that says what else the code does; a verb with no object
NOW = EvidenceText("ulid.go::Now", "func Now() uint64 { return Timestamp(time.Now().UTC()) }\n", language="go")
WRITE = EvidenceText("tinydb/storages.py::JSONStorage.write", """\
def write(self, data):
    self._handle.write(serialized)
    self._handle.flush()
    os.fsync(self._handle.fileno())
""")
CLOSE_CACHE = EvidenceText("tinydb/middlewares.py::CachingMiddleware.close", """\
def close(self):
    self.flush()
    self.storage.close()
""")
WITH_STACK = EvidenceText("errors.go::WithStack", """\
func WithStack(err error) error {
	if err == nil {
		return nil
	}
	return &withStack{err, callers()}
}
""")
FRAME_FORMAT = EvidenceText("stack.go::Frame.Format", """\
func (f Frame) Format(s fmt.State, verb rune) {
	switch verb {
	case 's':
		io.WriteString(s, path.Base(f.file()))
	}
}
""")
WRAP_ALL = EvidenceText("errors.go::wrapAll", """\
func wrapAll(err error) error {
	return &withStack{err, callers()}
}
""")

LAZY_GET = EvidenceText("six.py::_LazyDescr.__get__", """\
def __get__(self, obj, tp):
    result = self._resolve()
    setattr(obj, self.name, result)
    try:
        delattr(obj.__class__, self.name)
    except AttributeError:
        pass
    return result
""")
TRY_INSERT = EvidenceText("src/arrayvec.rs::ArrayVec.try_insert", """\
pub fn try_insert(&mut self, index: usize, element: T) -> Result<(), CapacityError<T>> {
    if index > self.len() {
        panic_oob!("try_insert", index, self.len())
    }
    if self.len() == self.capacity() {
        return Err(CapacityError::new(element));
    }
    Ok(())
}
""", language="rust")
TINY_TRY_INSERT = EvidenceText("src/arrayvec.rs::ArrayVec.try_insert", """\
pub fn try_insert(
    &mut self, index: usize, mut item: A::Item,
) -> Option<A::Item> {
    assert!(
        index <= self.len as usize,
        "ArrayVec::try_insert> index {} is out of bounds {}",
        index,
        self.len
    );
    if (self.len as usize) < A::CAPACITY {
        self.len += 1;
    } else {
        return Some(item);
    }
    None
}
""", language="rust")
EXTEND_FROM_SLICE = EvidenceText("src/arrayvec.rs::ArrayVec.extend_from_slice", """\
pub fn extend_from_slice(&mut self, sli: &[A::Item]) {
    let new_len = self.len as usize + sli.len();
    assert!(new_len <= A::CAPACITY, "ArrayVec::extend_from_slice> total length {} exceeds capacity", new_len);
    self.set_len(new_len);
}
""", language="rust")
RESOLVE_IGNORE = EvidenceText("src/giget.ts::resolveIgnore", """\
function resolveIgnore(ignore) {
  if (typeof ignore === "function") {
    return ignore;
  }
  const matchesGlob = globalThis.process.getBuiltinModule?.("node:path")?.matchesGlob;
  if (!matchesGlob) {
    throw new TypeError("ignore as string[] needs path.matchesGlob");
  }
  return (path) => ignore.some((pattern) => matchesGlob(path, pattern));
}
""")
RESOLVE_IGNORE_PLAIN = EvidenceText("src/giget.ts::resolveFilter", """\
function resolveFilter(filter) {
  const matchesGlob = globalThis.process.getBuiltinModule?.("node:path")?.matchesGlob;
  return (path) => filter.some((pattern) => matchesGlob(path, pattern));
}
""")
SLICE_REF = EvidenceText("src/bytes.rs::Bytes.slice_ref", """\
pub fn slice_ref(&self, subset: &[u8]) -> Self {
    if subset.is_empty() {
        return Bytes::new();
    }
    let bytes_p = self.as_ptr() as usize;
    assert!(
        subset.as_ptr() as usize >= bytes_p,
        "subset pointer is smaller than self pointer",
    );
    self.slice(0..subset.len())
}
""", language="rust")
NEW_TICKER = EvidenceText("clockwork.go::FakeClock.NewTicker", """\
func (fc *FakeClock) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic(errors.New("non-positive interval for NewTicker"))
	}
	return newFakeTicker(fc, d)
}
""", language="go")
SET_LEN = EvidenceText("src/arrayvec.rs::ArrayVec.set_len", """\
pub fn set_len(&mut self, new_len: usize) {
    debug_assert!(new_len <= A::CAPACITY);
    self.len = new_len as u16;
}
""", language="rust")
WATCH = EvidenceText("src/watch.ts::watchConfig", """\
export async function watchConfig(options) {
  const _onChange = async (event, path) => {
    if (options.acceptHMR) {
      const changeCtx = { getDiff: () => diff(oldConfig, newConfig) };
      if (await options.acceptHMR(changeCtx)) {
        return;
      }
    }
    await options.onUpdate(changeCtx);
  };
}
""")
WRITE_USER_CONFIG = EvidenceText("src/index.ts::writeUserConfig", """\
export function writeUserConfig(config, options) {
  options = withDefaults(options);
  options.dir = process.env.XDG_CONFIG_HOME || resolve(homedir(), ".config");
  return write(config, options);
}
""")
SET_OPTIONS = EvidenceText("sjson.go::SetOptions", """\
func SetOptions(json, path string, value interface{}, opts *Options) (string, error) {
	if opts != nil {
		if opts.ReplaceInPlace {
			nopts := *opts
			opts = &nopts
			opts.ReplaceInPlace = false
		}
	}
	return string(SetBytesOptions([]byte(json), path, value, opts))
}
""", language="go")
OPTIONS_STRUCT = EvidenceText("sjson.go::Options", """\
type Options struct {
	Optimistic bool
	ReplaceInPlace bool
}
""", language="go")
POP = EvidenceText("src/arrayvec.rs::ArrayVec.pop", """\
pub fn pop(&mut self) -> Option<T> {
    if self.len() == 0 {
        return None;
    }
    unsafe { Some(ptr::read(self.as_ptr().add(self.len()))) }
}
""", language="rust")
TRUNCATE = EvidenceText("src/array_string.rs::ArrayString.truncate", """\
pub fn truncate(&mut self, new_len: usize) {
    if new_len <= self.len() {
        assert!(self.is_char_boundary(new_len));
        unsafe { self.set_len(new_len); }
    }
}
""", language="rust")
GO113 = EvidenceText("go113.go", """\
// +build go1.13

package errors

func Is(err, target error) bool { return stderrors.Is(err, target) }
""", language="go")
PLAIN_GO = EvidenceText("errors.go", """\
package errors

func New(message string) error { return &fundamental{msg: message} }
""", language="go")


PARSE_SET_COOKIE = EvidenceText("src/index.ts::parseSetCookie", """\
export function parseSetCookie(str: string) {
  const cookie: SetCookie = { name, value };
  for (const part of parts) {
    switch (key) {
      case "expires": {
        const date = new Date(val);
        if (Number.isFinite(date.valueOf())) cookie.expires = date;
        break;
      }
    }
  }
  return cookie;
}
""")


OPTIONS = EvidenceText("index.js::sendOptionsResponse", """\
function sendOptionsResponse (res, methods) {
  const options = Object.create(null)
  for (let i = 0; i < methods.length; i++) {
    options[methods[i]] = true
  }
  const allow = Object.keys(options).sort().join(', ')
  res.setHeader('Allow', allow)
  res.end(allow)
}
""")
HANDLE = EvidenceText("index.js::Router.prototype.handle", """\
Router.prototype.handle = function handle (req, res, callback) {
  function next (err) {
    if (layerError === 'router') {
      setImmediate(done, null)
      return
    }
  }
  next()
}
""")
SEND_HEAD = EvidenceText("index.js::send", """\
function send (req, res, status, body) {
  res.statusCode = status
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  res.end(body, 'utf8')
}
""")
PARSE_TAGS = EvidenceText("copier.go::parseTags", """\
func parseTags(tag string) (flg uint8, name string, err error) {
\tfor _, t := range strings.Split(tag, ",") {
\t\tswitch t {
\t\tcase "-":
\t\t\tflg = tagIgnore
\t\t\treturn
\t\t}
\t}
\treturn
}
""".replace("\t", "    "), language="go")


TIMER_TICK = EvidenceText("clock.go::internalTimer.Tick", """\
func (t *internalTimer) Tick(now time.Time) {
    t.mock.mu.Lock()
    if t.fn != nil {
        defer func() { go t.fn() }()
    } else {
        t.c <- now
    }
    t.mock.mu.Unlock()
}
""", language="go")
TIMER_STOP = EvidenceText("clock.go::Timer.Stop", """\
func (t *Timer) Stop() bool {
    registered := !t.stopped
    t.stopped = true
    return registered
}
""", language="go")


WAIT_MAX = EvidenceText("ratelimit.go::Bucket.WaitMaxDuration", """\
func (tb *Bucket) WaitMaxDuration(count int64, maxWait time.Duration) bool {
	d, ok := tb.TakeMaxDuration(count, maxWait)
	if d > 0 {
		tb.clock.Sleep(d)
	}
	return ok
}
""", language="go")
FILE_SORT = EvidenceText("index.js::fileSort", """\
function fileSort (a, b) {
  if (a.name === '..' || b.name === '..') {
    return a.name === b.name ? 0 : a.name === '..' ? -1 : 1
  }
  return Number(b.stat && b.stat.isDirectory()) - Number(a.stat && a.stat.isDirectory()) ||
    String(a.name).toLocaleLowerCase().localeCompare(String(b.name).toLocaleLowerCase())
}
""")
ADD_ROUTE = EvidenceText("src/add.ts::addRoute", """\
export function addRoute(ctx, method = "", path) {
  const segments = splitPath(path);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.startsWith("**")) {
      node = node.wildcard;
      break;
    }
  }
}
""")


PERSIST = EvidenceText("src/unix.rs::persist", """\
pub fn persist(old_path: &Path, new_path: &Path) -> io::Result<()> {
    hard_link(old_path, new_path)?;
    let _ = unlink(old_path);
    Ok(())
}
""", language="rust")
CORS_NEW = EvidenceText("cors.go::New", """\
func New(options Options) *Cors {
	switch {
	case options.AllowOriginFunc != nil:
		c.allowOriginFunc = options.AllowOriginFunc
	default:
		for _, origin := range options.AllowedOrigins {
			origin = strings.ToLower(origin)
		}
	}
	return c
}
""", language="go")


FINAL_TIMEOUT = EvidenceText("async_timeout/__init__.py::Timeout", """\
@final
class Timeout(asyncio.Timeout):
    def __init__(self, deadline, loop) -> None:
        super().__init__(deadline)
""")
JAVA_FINAL = EvidenceText("src/Limits.java::Limits", """\
public final class Limits {
    private Limits() {}
}
""", language="java")
ULABEL = EvidenceText("idna/core.py::ulabel", """\
def ulabel(label):
    label_bytes = label.encode("ascii")
    label_bytes = label_bytes.lower()
    if label_bytes.startswith(_alabel_prefix):
        label_bytes = label_bytes[len(_alabel_prefix):]
    return label_bytes.decode("punycode")
""")
ENCODE = EvidenceText("idna/core.py::encode", """\
def encode(s, strict=False, transitional=False):
    if transitional:
        warnings.warn("Transitional processing has been removed from UTS #46.", DeprecationWarning)
    return b".".join(alabel(label) for label in s.split("."))
""")
INDENT = EvidenceText("src/indentation.rs::indent", """\
pub fn indent(s: &str, prefix: &str) -> String {
    let trimmed_prefix = prefix.trim_end();
    for (idx, line) in s.split_terminator('\\n').enumerate() {
        if line.trim().is_empty() {
            result.push_str(trimmed_prefix);
        }
    }
    result
}
""", language="rust")


FROM_UTF16 = EvidenceText("src/collections/string.rs::String.from_utf16_in", """\
pub fn from_utf16_in(v: &[u16], bump: &'bump Bump) -> Result<String<'bump>, FromUtf16Error> {
    for c in decode_utf16(v.iter().cloned()) {
        if let Ok(c) = c {
            ret.push(c);
        } else {
            return Err(FromUtf16Error(()));
        }
    }
    Ok(ret)
}
""", language="rust")
MAKE_ERROR = EvidenceText("lib/errors.js::make", """\
function make (status) {
  if (status >= 500) return new ServerError(status)
  return new ClientError(status)
}
""", language="javascript")


IS_TEST = EvidenceText("src/flags.ts::isTest", """\
export const isTest: boolean = nodeENV === "test" || !!env.TEST;
""", language="typescript")

RESPONSE_LOGGER = EvidenceText("handlers.go::responseLogger.WriteHeader", """\
func (l *responseLogger) WriteHeader(s int) {
	l.w.WriteHeader(s)
	l.status = s
}
""")
OVERRIDE = EvidenceText("handlers.go::HTTPMethodOverrideHandler", """\
func HTTPMethodOverrideHandler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			om := r.FormValue(HTTPMethodOverrideFormKey)
			if om == http.MethodPut || om == http.MethodPatch || om == http.MethodDelete {
				r.Method = om
			}
		}
		h.ServeHTTP(w, r)
	})
}
""")
FORM_KEY = EvidenceText("handlers.go::HTTPMethodOverrideFormKey", """\
const HTTPMethodOverrideFormKey = "_method"
""")

ON_SOCKET = EvidenceText("index.js::attachFinishedListener", """\
function attachFinishedListener (msg, callback) {
  var finished = false
  function onSocket (socket) {
    msg.removeListener('socket', onSocket)
    if (finished) return
    if (eeMsg !== eeSocket && socket) return
    eeSocket = first([[socket, 'error', 'close']], onFinish)
  }
}
""", language="javascript")

COMPLEXITY = EvidenceText("mccabe.py::get_code_complexity", """\
def get_code_complexity(code, threshold=7, filename='stdin'):
    try:
        tree = compile(code, filename, "exec", ast.PyCF_ONLY_AST)
    except SyntaxError:
        e = sys.exc_info()[1]
        sys.stderr.write("Unable to parse %s: %s\\n" % (filename, e))
        return 0
    return len(complex)
""")
DECODE_URI = EvidenceText("lib/utils.js::decode", """\
var decode = function (str, defaultDecoder, charset) {
    var strWithoutPlus = str.replace(/\\+/g, ' ');
    if (charset === 'iso-8859-1') {
        return strWithoutPlus.replace(/%[0-9a-f]{2}/gi, unescape);
    }
    try {
        return decodeURIComponent(strWithoutPlus);
    } catch (e) {
        return strWithoutPlus;
    }
};
""", language="javascript")

SERIALIZE = EvidenceText("src/serialize.ts::Serializer.$object", """\\
$object(object: any) {
  if ("toJSON" in object && typeof object.toJSON === "function") {
    const json = object.toJSON();
    return this.serialize(json);
  }
  return this.serializeObjectEntries(object);
}
""", language="typescript")

SERVE_STATIC = EvidenceText("index.js::serveStatic", """\\
function serveStatic (req, res, next) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return next()
  }
  send(req, path).pipe(res)
}
""", language="javascript")
DEFU = EvidenceText("src/defu.ts::_defu", """\\
function _defu(baseObject, defaults) {
  for (const key in baseObject) {
    if (key === "__proto__" || key === "constructor") {
      continue;
    }
    object[key] = baseObject[key];
  }
}
""", language="typescript")

WRITE_JSON = EvidenceText("feed.go::Feed.WriteJSON", """\
func (f *Feed) WriteJSON(w io.Writer) error {
	j := &JSON{Feed: f}
	feed := j.JSONFeed()
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(feed)
}
""", language="go")
WRITE_COMPACT = EvidenceText("feed.go::Feed.WriteCompact", """\
func (f *Feed) WriteCompact(w io.Writer) error {
	return json.NewEncoder(w).Encode(f)
}
""", language="go")
MISSING_COMPONENT = EvidenceText("src/rfc3986/exceptions.py::MissingComponentError", """\
class MissingComponentError(ValidationError):
    def __init__(self, uri, *component_names):
        self.uri = uri
        self.components = sorted(component_names)
        components = ", ".join(self.components)
""")

STRUCTLOG_CONFIG = EvidenceText("src/structlog/_config.py::configure", """\
def configure(
    processors=None,
    wrapper_class=None,
):
    _CONFIG.is_configured = True
    if wrapper_class is not None:
        _CONFIG.default_wrapper_class = wrapper_class
""")

SET_LOW = EvidenceText("src/hint.rs::Hint.set_low", """\
    pub fn set_low(&mut self, value: u64) {
        assert!(value <= self.high.unwrap_or(u64::MAX));
        self.low = value;
    }
""", language="rust")
BOUNDED = EvidenceText("src/lib.rs::bounded", """\
pub fn bounded<T: PartialOrd>(input: T, lo: T, hi: T) -> T {
    debug_assert!(lo <= hi, "lo must not exceed hi");
    if input < lo { lo } else if input > hi { hi } else { input }
}
""", language="rust")
WRAP = EvidenceText("src/lib.rs::Folded.wrap", """\
    pub const fn wrap(s: S) -> Folded<S> {
        Folded(Kind::Ascii(s))
    }
""", language="rust")

PTY_READ = EvidenceText("ptyprocess/ptyprocess.py::PtyProcess.read", """\
    def read(self, size=1024):
        try:
            s = self.fileobj.read1(size)
        except (OSError, IOError) as err:
            if err.args[0] == errno.EIO:
                self.flag_eof = True
                raise EOFError('End Of File (EOF). Exception style platform.')
            raise
        return s
""")
TREE_ADD_ROUTE = EvidenceText("tree.go::node.addRoute", """\
func (n *node) addRoute(path string, handle Handle) {
	if n.handle != nil {
		panic("a handle is already registered for path '" + path + "'")
	}
	n.handle = handle
}
""", language="go")
CLIP = EvidenceText("wcwidth/_clip.py::clip", """\
def clip(text, start, end):
    start = max(start, 0)
    if end <= start:
        return ''
    return text[start:end]
""")

PING_RESPONSE = EvidenceText("src/wsproto/events.py::Ping.response", """\
    def response(self) -> Pong:
        return Pong(payload=self.payload)
""")

FACTORY = EvidenceText("src/index.ts::createContext", """\
export function createContext<T = any>(opts: ContextOptions = {}): UseContext<T> {
  let currentInstance: T | undefined;
  const checkConflict = (instance: T | undefined) => {
    if (currentInstance && currentInstance !== instance) {
      throw new Error("Context conflict");
    }
  };
  return {
    set: (instance: T | undefined, replace?: boolean) => {
      if (!replace) {
        checkConflict(instance);
      }
      currentInstance = instance;
    },
    unset: () => {
      currentInstance = undefined;
    },
    call: (instance: T, callback) => {
      checkConflict(instance);
      currentInstance = instance;
      return callback();
    },
    async callAsync(instance: T, callback) {
      currentInstance = instance;
      return await callback();
    },
  };
}
""")

ITEMS_FIND = EvidenceText("btree_generic.go::items.find", """\
func (s items[T]) find(item T, less func(T, T) bool) (index int, found bool) {
	i := sort.Search(len(s), func(i int) bool {
		return less(item, s[i])
	})
	if i > 0 && !less(s[i-1], item) {
		return i - 1, true
	}
	return i, false
}
""")
ITEMS_SCAN = EvidenceText("btree_generic.go::items.find", """\
func (s items[T]) find(item T, less func(T, T) bool) (index int, found bool) {
	for i := range s {
		if !less(s[i], item) {
			return i, !less(item, s[i])
		}
	}
	return len(s), false
}
""")
SET_TIMER = EvidenceText("pytest_timeout.py::pytest_timeout_set_timer", """\
def pytest_timeout_set_timer(item, settings):
    timer = threading.Timer(settings.timeout, timeout_timer, (item, settings))
    timer.name = "%s %s" % (__name__, item.nodeid)

    def cancel():
        timer.cancel()
        timer.join()

    item.cancel_timeout = cancel
    timer.start()
""")
SET_TIMER_NO_JOIN = EvidenceText("pytest_timeout.py::pytest_timeout_set_timer", """\
def pytest_timeout_set_timer(item, settings):
    timer = threading.Timer(settings.timeout, timeout_timer, (item, settings))

    def cancel():
        timer.cancel()

    item.cancel_timeout = cancel
    timer.start()
""")

BEFORE = EvidenceText("src/server.ts::ProxyServer.before", """\
  before(type, passName, cb) {
    const passes = this._getPasses(type);
    let i = false;
    for (const [idx, v] of passes.entries()) {
      if (v.name === passName) {
        i = idx;
      }
    }
    if (i === false) {
      throw new Error("No such pass");
    }
    passes.splice(i, 0, cb);
  }
""")
STRINGIFY = EvidenceText("src/index.ts::stringifyCookie", """\
export function stringifyCookie(cookie, options) {
  const cookieStrings = [];
  for (const name of Object.keys(cookie)) {
    const val = cookie[name];
    if (val === undefined) continue;
    if (!cookieNameRegExp.test(name)) {
      throw new TypeError(`cookie name is invalid: ${name}`);
    }
    cookieStrings.push(`${name}=${val}`);
  }
  return cookieStrings.join("; ");
}
""")

FILL_UNINIT = EvidenceText("src/lib.rs::fill_uninit", """\
pub fn fill_uninit(dest: &mut [MaybeUninit<u8>]) -> Result<&mut [u8], Error> {
    if !dest.is_empty() {
        backends::fill_inner(dest)?;
    }
    Ok(unsafe { slice_assume_init_mut(dest) })
}
""", language="rust")
FILL_ALWAYS = EvidenceText("src/lib.rs::fill_uninit", """\
pub fn fill_uninit(dest: &mut [MaybeUninit<u8>]) -> Result<&mut [u8], Error> {
    backends::fill_inner(dest)?;
    Ok(unsafe { slice_assume_init_mut(dest) })
}
""", language="rust")
STRING_PUSH = EvidenceText("src/collections/string.rs::String.push", """\
    pub fn push(&mut self, ch: char) {
        match ch.len_utf8() {
            1 => self.vec.push(ch as u8),
            _ => self.vec.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
""", language="rust")

# round 31 (nypm f13, ftfy f12): one value counted in with all the others, which the code singles out
RUN_SCRIPT = EvidenceText("src/api.ts::runScript", """\
export async function runScript(name: string, options: RunScriptOptions = {}) {
  const resolvedOptions = await resolveOperationOptions(options);
  const args = [resolvedOptions.packageManager.name === "deno" ? "task" : "run", name];
  await executeCommand(resolvedOptions.packageManager.command, args, resolvedOptions);
}
""")
RUN_SCRIPT_PLAIN = EvidenceText("src/api.ts::runScript", """\
export async function runScript(name: string, options: RunScriptOptions = {}) {
  const resolvedOptions = await resolveOperationOptions(options);
  await executeCommand(resolvedOptions.packageManager.command, ["run", name], resolvedOptions);
}
""")
# round 31 (crc f02, f19): a piece of code the claim says is not there
CRC_LIB = EvidenceText("src/lib.rs", """\
#![no_std]
#![forbid(unsafe_code)]

pub use crc_catalog::algorithm::*;
mod crc32;
""")
CI_YAML = EvidenceText(".github/workflows/ci.yaml", """\
jobs:
  lint:
    steps:
      - run: cargo fmt -- --check
      - run: cargo clippy -- -D warnings
""")
# round 31 (linked-hash-map t08): the subject names two of three anchored functions
POP_FRONT = EvidenceText("src/lib.rs::LinkedHashMap.pop_front", """\
    pub fn pop_front(&mut self) -> Option<(K, V)> {
        let lru = unsafe { (*self.head).prev };
        self.detach(lru);
        self.map.remove(&KeyRef { k: unsafe { &(*lru).key } })
            .map(|e| { let e = *unsafe { Box::from_raw(e) }; (e.key, e.value) })
    }
""")
REMOVE = EvidenceText("src/lib.rs::LinkedHashMap.remove", """\
    pub fn remove(&mut self, k: &Q) -> Option<V> {
        let removed = self.map.remove(k);
        removed.map(|node| {
            self.detach(node);
            unsafe {
                (*node).next = self.free;
                self.free = node;
            }
        })
    }
""")

GLOB_SCAN = EvidenceText("src/make.ts::mkdist", """\
export async function mkdist(options) {
  const filePaths = await glob(options.pattern || "**", {
    absolute: false,
    ignore: ["**/node_modules", "**/coverage", "**/.git"],
    cwd: options.srcDir,
    dot: true,
  });
}
""")
SERVER_STATUS = EvidenceText("src/pytest_rerunfailures.py::ServerStatusDB.__init__", """\
    def __init__(self):
        super().__init__()
        self.sock.bind(("localhost", 0))
        t = threading.Thread(target=self.run_server, daemon=True)
        t.start()
""")
NPM_PUBLISH = EvidenceText("src/package.ts::npmPublish", """\
export async function npmPublish(config) {
  const args = [...config.publish.args];
  if (!config.publish.private && !pkg.private) {
    args.push("--access", "public");
  }
  return execCommand(`npm publish ${args.join(" ")}`, config.cwd);
}
""")


AUTHORS = EvidenceText("src/markdown.ts::generateMarkDown", """\
export async function generateMarkDown(commits, config) {
  for (const commit of commits) {
    if (!commit.author) {
      continue;
    }
    const name = formatName(commit.author.name);
    if (!name || name.includes("[bot]")) {
      continue;
    }
    _authors.set(name, { email: new Set([commit.author.email]) });
  }
}
""")


SEMVER_CHANGE = EvidenceText("src/semver.ts::determineSemverChange", """\
export function determineSemverChange(commits, config) {
  let [hasMajor, hasMinor, hasPatch] = [false, false, false];
  return hasMajor ? "major" : hasMinor ? "minor" : hasPatch ? "patch" : null;
}
""")
LOOKUP_KEY = EvidenceText("store.py::lookup_key", """\
def lookup_key(key):
    return {"key": key, "value": None}
""")


LEVEL_FROM_STRING = EvidenceText("logger.go::LevelFromString", """\
func LevelFromString(levelStr string) Level {
	levelStr = strings.ToLower(strings.TrimSpace(levelStr))
	switch levelStr {
	case "trace":
		return Trace
	default:
		return NoLevel
	}
}
""")
STRICT_EQUAL = EvidenceText("index.js::isOriginAllowed", """\
function isOriginAllowed(origin, allowedOrigin) {
  if (typeof allowedOrigin === 'string') {
    return origin === allowedOrigin;
  }
  return !!allowedOrigin;
}
""")


RESET_OUTPUT = EvidenceText("intlogger.go::intLogger.ResetOutput", """\
func (l *intLogger) ResetOutput(opts *LoggerOptions) error {
	if opts.Output == nil {
		return errors.New("given output is nil")
	}
	return l.resetOutput(opts)
}
""")
OR_COMPOSE = EvidenceText("decode_hooks.go::OrComposeDecodeHookFunc", """\
func OrComposeDecodeHookFunc(ff ...DecodeHookFunc) DecodeHookFunc {
	for _, f := range ff {
		if out, err := DecodeHookExec(f, a, b); err == nil {
			return out, nil
		}
	}
	return nil, errors.New(allErrs)
}
""")


SPLIT_WORD = EvidenceText("unquote.go::splitWord", """\
func splitWord(input string, buf *bytes.Buffer) (word string, remainder string, err error) {
	if len(input) == 0 {
		return "", "", UnterminatedEscapeError
	}
	return buf.String(), input, nil
}
""")


# round 34 (sprig t02): Go's `map` keyword is no use of "the package-level map"
GENERIC_FUNC_MAP = EvidenceText("functions.go::GenericFuncMap", """\
func GenericFuncMap() map[string]interface{} {
	gfm := make(map[string]interface{}, len(genericMap))
	for k, v := range genericMap {
		gfm[k] = v
	}
	return gfm
}
""")
# round 34 (pytest-mock t08): the warning runs only under a setting the claim turns off
START_PATCH = EvidenceText("src/pytest_mock/plugin.py::MockerFixture._Patcher._start_patch", """\
def _start_patch(self, mock_func, warn_on_mock_enter, *args, **kwargs):
    p = mock_func(*args, **kwargs)
    mocked = p.start()
    if hasattr(mocked, "reset_mock"):
        if hasattr(mocked, "__enter__") and warn_on_mock_enter:
            mocked.__enter__.side_effect = lambda: warnings.warn("Mocks do not need a with block")
    return mocked
""")


# round 34 (pytest-cov f06): argparse's parser.error() is a usage error
VALIDATE_MARKDOWN = EvidenceText("src/pytest_cov/plugin.py::StoreReport._validate_markdown_dest_files", """\
def _validate_markdown_dest_files(self, cov_report_options, parser):
    markdown_file = cov_report_options['markdown']
    markdown_append_file = cov_report_options['markdown-append']
    if markdown_file == markdown_append_file:
        error_message = f"markdown and markdown-append options cannot point to the same file: {markdown_file}."
        parser.error(error_message)
""")


# round 34 (uuid f15): "never fails" of Rust code that returns an error
TRY_FROM_SYSTEM_TIME = EvidenceText("src/timestamp.rs::<Timestamp as TryFrom<SystemTime>>.try_from", """\
fn try_from(st: std::time::SystemTime) -> Result<Self, Self::Error> {
    let dur = st.duration_since(std::time::UNIX_EPOCH).map_err(|_| {
        crate::Error(crate::error::ErrorKind::InvalidSystemTime("unable to convert"))
    })?;
    Ok(Self::from_unix_time(dur.as_secs(), dur.subsec_nanos(), 0, 0))
}
""")
POD_COLLECT = EvidenceText("src/allocation.rs::pod_collect_to_vec", """\
pub fn pod_collect_to_vec<A: NoUninit, B: NoUninit + AnyBitPattern>(src: &[A]) -> Vec<B> {
    let src_size = core::mem::size_of_val(src);
    let dst_count = src_size / size_of::<B>() + if src_size % size_of::<B>() != 0 { 1 } else { 0 };
    let mut dst = vec![B::zeroed(); dst_count];
    dst
}
""")


TRUECOLOR_RS = EvidenceText("src/unix_term.rs::is_true_color", """\
pub(crate) fn is_true_color(out: &Term) -> bool {
    if !is_color(out) {
        return false;
    }
    env::var("COLORTERM").is_ok_and(|term| term == "truecolor" || term == "24bit")
}
""", language="rust")


REGISTER = EvidenceText("register.go::Register", """\
func Register(dest ...interface{}) {
	registrations = append(registrations, dest...)
}
""", "go")
PARSE = EvidenceText("parse.go::Parse", """\
func Parse(dest ...interface{}) error {
	dests := append(registrations, dest...)
	p, err := NewParser(Config{}, dests...)
	return p.Parse(flags())
}
""", "go")
PROCESS = EvidenceText("parse.go::Parser.process", """\
func (p *Parser) process(args []string) error {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" && !allpositional {
			allpositional = true
			continue
		}
	}
	return nil
}
""", "go")

WRITE_STREAM = EvidenceText("src/utils/stream.ts::writeStream", """\
export function writeStream(data, stream) {
  const write = (stream as any).__write || stream.write;
  return write.call(stream, data);
}
""", "typescript")

FIRES = [
    # round 32 (clockwork f03): a case of the function that the code does not return on first
    ("NewTicker(0) on the fake clock doesn't panic; it ticks once immediately.", NEW_TICKER),
    ("slice_ref(&[1]) never panics.", SLICE_REF),
    # round 32: "ignores X" where the code has no name `ignore` is still the verb
    ("resolveFilter ignores matchesGlob and compares the strings itself.", RESOLVE_IGNORE_PLAIN),
    # round 32 (tinyvec f04, f12): Rust's assert! panics in every build, written over several lines too
    ("ArrayVec::try_insert never panics: bad index or full vec, you just get Some(item) back.", TINY_TRY_INSERT),
    ("extend_from_slice copies what fits and silently drops the rest - no panic.", EXTEND_FROM_SLICE),
    # round 32 (rc9 f12): an aside that sets another subject against the claim's is no condition
    ("writeUserConfig always writes into ~/.config; it doesn't look at $XDG_CONFIG_HOME (only the read side does).",
     WRITE_USER_CONFIG),
    # round 31 (nypm f13, f15; ftfy f12): a value counted in with all the others, which the code singles out
    ("runScript is uniform: `<pm> run <name>` for every PM, deno included.", RUN_SCRIPT),
    ("runScript runs `<pm> run <name>` for every PM incl. deno (after resolving options).", RUN_SCRIPT),
    # round 31 (crc f02, f19): a piece of code the claim says is not there
    ("crc links std (no `#![no_std]` attribute), so for embedded you'd have to fork it.", CRC_LIB),
    ("CI's clippy step is advisory only - plain `cargo clippy`, no `-D warnings`, so lints don't fail.", CI_YAML),
    # round 31: the subject names the function that does it
    ("Unlike pop_front(), remove() doesn't touch the free list.", [POP_FRONT, REMOVE]),
    # round 30 (getrandom f01, bumpalo f16): "no zero-length shortcut" where the code tests for the edge size
    ("fill_uninit always calls into the backend, even for an empty slice - there's no zero-length shortcut.",
     FILL_UNINIT),
    ("String::push always encodes into a 4-byte buffer; there's no single-byte special case.", STRING_PUSH),
    ("fill_uninit has no zero-size check.", FILL_UNINIT),
    # round 30 (httpxy f15): "no error" closing the case the claim describes, where the code throws
    ("server.before('web', 'nope', fn) with an unknown pass name just splices fn in -- no error.", BEFORE),
    # round 30 (btree f06): an aside naming a dotted call alone; (pytest-timeout f11) a verb written as its call
    ("items.find is a plain linear scan over the node (no sort.Search) - nodes are small enough.", ITEMS_FIND),
    ("cancel for the thread method is just timer.cancel(); it never join()s, so the thread can linger.", SET_TIMER),
    # round 29 (unctx f03): a member the subject names, read with the helpers of the same code it calls
    ("ctx.set() never throws: it replaces whatever instance is there.", FACTORY),
    ("call() doesn't go through checkConflict.", FACTORY),
    # round 28 (ptyprocess f13, httprouter f19, wsproto f03): failing in no way at all, against a raise or a panic
    ("At EOF read() returns b''; you check for it yourself, nothing is raised.", PTY_READ),
    ("read() hands back whatever the pty gives, no exception.", PTY_READ),
    ("Registering the same path twice overwrites the handle, no panic.", TREE_ADD_ROUTE),
    ("addRoute raises nothing for a taken path.", TREE_ADD_ROUTE),
    # round 28: the verb itself, without a prefix of manner, is still read
    ("Ping.response never pongs.", PING_RESPONSE),
    # round 22: the subject is the code's own, not something indefinite
    ("responseLogger never calls WriteHeader on the wrapped writer.", RESPONSE_LOGGER),
    ("HTTPMethodOverrideHandler ignores HTTPMethodOverrideFormKey.", OVERRIDE),
    # round 21 (std-env f02): a setting the claim says changes nothing, which the code reads
    ("isTest only looks at NODE_ENV. Setting TEST=1 does nothing.", IS_TEST),
    ("Passing `env.TEST` has no effect on isTest.", IS_TEST),
    # round 21 (bumpalo f17): a value of the name, wrapped (Err(X(...)), new X(...))
    ("String::from_utf16_in is lossy: unpaired surrogates become U+FFFD, it never returns FromUtf16Error.", FROM_UTF16),
    ("make() never returns a ServerError.", MAKE_ERROR),
    # round 20: a decorator or Java's keyword the definition carries (async-timeout f16)
    ("Timeout isn't marked final; subclassing it to add hooks is supported.", FINAL_TIMEOUT),
    ("Timeout is not decorated with `@final`.", FINAL_TIMEOUT),
    ("Limits is not marked final.", JAVA_FINAL),
    # a verb of changing case, hyphenated or not (idna f07), and a gerund with its object (textwrap f15)
    ("ulabel compares the prefix as written because the bytes aren't lower-cased.", ULABEL),
    ("ulabel never lowercases the label.", ULABEL),
    ("indent() applies the same prefix to every line - no trimming of the prefix.", INDENT),
    # a warning the code gives (idna f05)
    ("transitional=True is still quietly honoured by encode; no warning is issued.", ENCODE),
    # round 18: a name the code uses is no branch keyword
    ("New ignores options.AllowOriginFunc.", CORS_NEW),
    ("persist ignores hard_link failures.", PERSIST),
    # round 18: a change of case is a lowercasing; a value's meaning is no condition of the rest
    ("Sorting is case-sensitive: fileSort compares the raw names, no lowercasing.", FILE_SORT),
    ("WaitMaxDuration never sleeps; it returns what TakeMaxDuration gave.", WAIT_MAX),
    ("addRoute ignores the segment.", ADD_ROUTE),
    # round 17: "no goroutine" of Go code that starts one
    ("Mock AfterFunc callbacks run inline inside Add (no goroutine), so Add returns after them.", TIMER_TICK),
    # round 17: a verb's noun, bare ("no sorting"), done by a call, a chained one too (`keys(o).sort().join()`)
    ("The Allow header lists methods in the order routes registered them - no sorting, just a join(', ').", OPTIONS),
    # round 17: a one-word call shaped like code, named as a noun ("no setImmediate involved")
    ("next('router') calls done() synchronously - no setImmediate involved.", HANDLE),
    # round 17: "no V special-case" of a value the code compares with
    ("No HEAD special-case in send(): HEAD requests get res.end(body, 'utf8') like everything else.", SEND_HEAD),
    # round 23: the same, said in the passive or as a verb (send f11)
    ("HEAD isn't special-cased in send(); it still calls this.stream().", SEND_HEAD),
    ("HEAD requests are not special-cased by send().", SEND_HEAD),
    ("send() doesn't special-case 'HEAD'.", SEND_HEAD),
    ("parseSetCookie ignores expires.", PARSE_SET_COOKIE),
    # round 15: "never panics" of a macro named for panic; "doesn't check X Y" of a call named for it
    ("try_insert never panics: an out-of-range index comes back as Err(CapacityError).", TRY_INSERT),
    ("ArrayString::truncate doesn't check char boundaries - it just sets the length.", TRUNCATE),
    # a Go build constraint is a directive, not a comment
    ("go113.go has no build tags - errors.Is is always available.", GO113),
    # a name of the code among the values a return gives
    ("toUnsignedNumberE never returns errNegativeNotAllowed; negatives wrap.", UNSIGNED),
    # a dotted call after the verb: `out` is no particle ("calls out")
    ("create_list_rule never calls out.flags.unset_all().", EvidenceText("parser.py::create_list_rule", """\
def create_list_rule(src, pos, out):
    out.flags.unset_all(key)
    return pos, key
""", language="python")),
    # "isn't looked at", "never checks": verbs of use
    ("NoColor only depends on NO_COLOR and the tty; TERM isn't looked at.", NO_COLOR),
    ("NoColor never checks TERM.", NO_COLOR),
    # the code returns the literal itself
    ("SetNodeInterface never returns false: it falls back to a random node.", NODE),
    ("setNodeInterface does not return False.", NODE),
    # a member the class defines itself
    ("Cache doesn't define get/pop/setdefault itself; they come from MutableMapping.", CACHE),
    ("Cache does not override `get()`.", CACHE),
    ("Queue does not implement clear; it inherits it.", QUEUE),
    # the code reads the setting, not only fixes it
    ("export() always returns expired items (it ignores includeExpired).", READS),
    ("res.jsonp doesn't set X-Content-Type-Options: nosniff.", JSONP),
    ("res.json never goes through res.send.", JSONP),
    ("it does not percent-encode anything.", LOCATION),
    ("res.location does not encode the url.", LOCATION),
    ("transports passed in mounts= are never closed by it.", CLOSE),
    ("Client.close() never closes the mounted transports.", CLOSE),
    # the claim's own call names what "never reads" is about
    ("Client.send never reads the body itself; the caller must call response.read().", SEND),
    ("load ignores RETRIES.", SETTINGS),
    # a negation elsewhere in the clause is not the verb's ("(no parens)")
    ("load called bare (no arguments) ignores RETRIES.", SETTINGS),
    ("RETRIES is ignored by load.", SETTINGS),
    ("load does not use the RETRIES variable.", SETTINGS),
    ("load never raises ValueError.", SETTINGS),
    ("load never calls Config.", SETTINGS),
    ("load does not invoke int().", SETTINGS),
    # round 12: the body of a one-line function is code; an object written as a call; no object at all
    ("`Now()` is `Timestamp(time.Now())` \u2014 it doesn't call UTC().", NOW),
    ("JSONStorage.write never calls os.fsync - durability is up to the OS.", WRITE),
    ("CachingMiddleware.close() does not flush - call flush() yourself.", CLOSE_CACHE),
    ("close() does not flush.", CLOSE_CACHE),
    # round 23: a call the claim says no try surrounds, where every call of it sits in one (mccabe f05, qs f09)
    ("get_code_complexity doesn't guard compile(); broken source raises SyntaxError at you.", COMPLEXITY),
    ("utils.decode calls decodeURIComponent directly with no try/catch.", DECODE_URI),
    # round 23: a check of a name the code tests alone (on-finished f18)
    ("Edge case: onSocket has no finished check, so a late event still wires up listeners.", ON_SOCKET),
    ("onSocket runs without a `finished` guard.", ON_SOCKET),
    # round 13: a nil check the code makes
    ("careful: WithStack has no nil check, WithStack(nil) gives you a non-nil error.", WITH_STACK),
    # round 27: a check of nothing named, where the code asserts
    ("set_low doesn't check anything - low may end up above high.", SET_LOW),
    ("set_low: no assertion on the bounds.", SET_LOW),
    ("bounded() doesn't validate its bounds at all, not even in debug builds.", BOUNDED),
    ("WithStack doesn't check for nil.", WITH_STACK),
    # round 13: a call named as a noun
    ("A Frame formatted with plain %s prints the full path (no path.Base trimming).", FRAME_FORMAT),
    ("Format writes the file without a path.Base call.", FRAME_FORMAT),
    ("load never raises: a negative RETRIES is clamped to 0.", SETTINGS),
    # round 27: a double hyphen ends a clause, as a single dash does: the condition after it is another's
    ("load never raises -- if the file is missing it just returns the defaults.", SETTINGS),
    # "doesn't care about X" is "does not use X"
    ("serialize doesn't care about toJSON -- class instances are always expanded key by key.", SERIALIZE),
    # "treated like any other": the code compares a value with that one
    ("Only GET is served; HEAD is treated like any other method (next() or 405).", SERVE_STATIC),
    ("The guard only filters `__proto__`; a `constructor` key in the source is copied over like any other key.",
     DEFU),
    # an aside naming the call alone; Python's sorted() for "no sorting"
    ("WriteJSON writes compact JSON (no SetIndent) - only ToJSON is pretty-printed.", WRITE_JSON),
    ("MissingComponentError.components preserves argument order (no sorting), so the message lists them as given.",
     MISSING_COMPONENT),

    # round 33: a flag the code turns on; an option the code writes
    ("ServerStatusDB's server thread isn't a daemon (plain threading.Thread(target=self.run_server)).",
     SERVER_STATUS),
    ("The server runs in a non-daemon thread.", SERVER_STATUS),
    ("npmPublish never passes `--access`; put `--access public` into publish.args yourself.", NPM_PUBLISH),
    ("npmPublish doesn't use --access.", NPM_PUBLISH),
    # round 33: a loop's guard that goes on with the next one leaves the object out
    ("generateMarkDown doesn't filter bots -- renovate[bot] ends up in the Contributors list.", AUTHORS),
    # round 33: a conditional's last branch returns it
    ("determineSemverChange never returns null -- with only chore commits it still reports patch.", SEMVER_CHANGE),
    # round 33: a match said to depend on case, where the code folds the case first
    ("LevelFromString only matches lowercase names; pass \"INFO\" and you get NoLevel back.", LEVEL_FROM_STRING),
    ("Level parsing is case sensitive -- \"INFO\" parses, \"info\" gives NoLevel.", LEVEL_FROM_STRING),
    # round 33: an error value Go code makes and returns
    ("ResetOutput(&LoggerOptions{}) is fine: a nil Output falls back to DefaultOutput (stderr), no error.",
     RESET_OUTPUT),
    ("Split is lenient about a dangling `\\` at the end of input: appended as-is, no error.", SPLIT_WORD),
    # round 34: a name of the code the claim says is not touched; a warning with the setting on
    ("GenericFuncMap doesn't touch genericMap.", GENERIC_FUNC_MAP),
    ("patch() passes warn_on_mock_enter=True to _start_patch, so no warning.", START_PATCH),
    ("_start_patch issues no warning.", START_PATCH),
    # round 34: argparse's parser.error()
    ("Giving markdown and markdown-append the same file is allowed - append just runs after, no error.",
     VALIDATE_MARKDOWN),
    # round 34: "never fails" of code that returns an error
    ("Timestamp::try_from(SystemTime) never really fails: anything before UNIX_EPOCH is clamped to 0s.",
     TRY_FROM_SYSTEM_TIME),
    ("try_from can't fail.", TRY_FROM_SYSTEM_TIME),
    # a value the claim says the code does not recognise, which it compares with
    ("true color needs COLORTERM=truecolor exactly - \"24bit\" isn't recognised.", TRUECOLOR_RS),
    ("'24bit' is not accepted as a COLORTERM value.", TRUECOLOR_RS),
    # round 38: the anchored function named as the subject is still read (goarg t20's other side)
    ("Parse itself doesn't look at registrations.", [REGISTER, PARSE]),
    # round 38 (goarg f18): a value written as code, "isn't special", that the code compares with
    ("`--` isn't special in go-arg; it ends up as an ordinary positional value.", PROCESS),
    ("`--` is not treated specially by process().", PROCESS),
    # round 38: a passive's subject is its object, never another function's name (consola f18)
    ("writeStream always goes through stream.write -- the saved __write isn't consulted.", WRITE_STREAM),
]

SILENT = [
    # round 32: debug_assert! panics in debug builds only; an imperative and its outcome is a condition
    ("set_len never panics.", SET_LEN),
    # round 32 (giget t15): the code's option `ignore`, named by the claim
    ("ignore as string[] needs `path.matchesGlob`; without it resolveIgnore throws a TypeError.", RESOLVE_IGNORE),
    # round 32 (bytes t02): the function's empty case, which the code returns on before it can panic
    ("slice_ref(&[]) never panics: an empty subset just yields Bytes::new().", SLICE_REF),
    ("acceptHMR runs before onUpdate; return true from it and onUpdate is never called for that change.", WATCH),
    ("writeUserConfig doesn't look at $XDG_CONFIG_HOME (only when options.dir is passed).", WRITE_USER_CONFIG),
    # round 32 (sjson t15): the code sets the field itself, and a type that only declares a field
    ("ReplaceInPlace is ignored for the string API: SetOptions copies *opts and sets ReplaceInPlace=false.",
     SET_OPTIONS),
    ("ReplaceInPlace is ignored by the string API.", [SET_OPTIONS, OPTIONS_STRUCT]),
    # round 31: the code does not single the value out
    ("runScript is uniform: `<pm> run <name>` for every PM, deno included.", RUN_SCRIPT_PLAIN),
    ("runScript runs for any manager, even empty names.", RUN_SCRIPT),
    # round 31: the code lacks it, the claim asks it under a condition, or it is only a name
    ("crc links std (no `#![no_std]` attribute).", CI_YAML),
    ("If there's no `#![no_std]` attribute, the crate links std.", CRC_LIB),
    ("The crate has no `crc32` attribute.", CRC_LIB),
    # round 31 (linked-hash-map t08): what remove() does says nothing of pop_front()
    ("Unlike remove(), pop_front()/pop_back() don't touch the free list - they Box::from_raw the node.",
     [POP_FRONT, REMOVE]),
    # round 30: the code tests for no such size
    ("fill_uninit always calls into the backend - there's no zero-length shortcut.", FILL_ALWAYS),
    ("String::push has no zero-length special case.", STRING_PUSH),
    ("abs has no zero special case.", EvidenceText("src/lib.rs::abs", """\
fn abs(n: i64) -> i64 {
    if n < 0 {
        return -n;
    }
    n
}
""", language="rust")),
    # round 30 (cookie t06): a TypeError refuses an argument before the claim's case; the claim names a throw
    # itself; "no errors ->" is a case of a table, not the claim's
    ("stringifyCookie({ a: 'x', b: undefined }) -> `a=x`; undefined values are just skipped, no error.", STRINGIFY),
    ("before() with a known pass splices fn in (no error), but an unknown one throws.", BEFORE),
    ("before(): no errors -> the pass is spliced in.", BEFORE),
    # round 30: the code does not make the call the aside or the verb names
    ("items.find is a plain linear scan over the node (no sort.Search).", ITEMS_SCAN),
    ("cancel for the thread method is just timer.cancel(); it never join()s, so the thread can linger.",
     SET_TIMER_NO_JOIN),
    # round 29 (unctx t06): the subject is one member of the anchored factory; another member does the call
    ("Unlike call(), callAsync doesn't go through checkConflict; it just overwrites currentInstance.", FACTORY),
    ("unset() never throws.", FACTORY),
    # round 28: the code raises nothing, or the claim says it of a case it names as a condition
    ("clip() clamps a negative start to 0 and gives '' for an empty range -- no exception.", CLIP),
    ("Nothing is raised when the range is empty.", CLIP),
    # round 28 (wsproto t21): a prefix of manner or repetition; the code's one pong is handed to the caller
    ("wsproto never auto-pongs: send event.response() back yourself.", PING_RESPONSE),
    ("The Pong is never re-sent.", PING_RESPONSE),
    # round 23: a call outside any try; a call the claim does say is guarded
    ("decode calls unescape directly with no try/catch.", DECODE_URI),
    ("get_code_complexity guards compile().", COMPLEXITY),
    # round 23: a name the code tests only beside others, or never; a check the claim does state
    ("onSocket has no socket check.", ON_SOCKET),
    ("onSocket has no error check.", ON_SOCKET),
    ("onSocket has a finished check.", ON_SOCKET),
    # round 23: a value the code never compares with, and a special case the claim does state
    ("GET isn't special-cased in send().", SEND_HEAD),
    ("HEAD is special-cased in send().", SEND_HEAD),
    # round 22 (handlers t23, t05): a relative clause of something indefinite; "anything else" is some values
    ("makeLogger seeds the status with 200, so a handler that never calls WriteHeader is logged as 200.",
     RESPONSE_LOGGER),
    ("Any writer which doesn't call WriteHeader gets 200.", RESPONSE_LOGGER),
    ("The override must be PUT, PATCH or DELETE; anything else (e.g. _method=GET) is silently ignored.",
     [OVERRIDE, FORM_KEY]),
    # round 21: a setting the code never reads; one under a condition
    ("Setting CI=1 does nothing to isTest.", IS_TEST),
    ("Setting TEST=1 does nothing when NODE_ENV is set.", IS_TEST),
    # round 21: a name the code returns only in other places, or never
    ("from_utf16_in never returns FromUtf8Error.", FROM_UTF16),
    ("make() never returns an HttpError.", MAKE_ERROR),
    # round 20: a mark the definition does not carry; a case change the code does not make; a gerund of
    # another object than the one the call is on
    ("Timeout isn't marked deprecated.", FINAL_TIMEOUT),
    ("Timeout is marked final.", FINAL_TIMEOUT),
    ("ulabel never upper-cases the bytes.", ULABEL),
    ("indent() applies the prefix to every line - no trimming of the text.", INDENT),
    ("indent() gives no warning for an empty prefix.", INDENT),
    ("encode leaves the warnings filter alone: no warnings category is set.", ENCODE),
    # round 18: "case-sensitivity" is no `case` label; a result the code drops (`let _ =`) is ignored
    ("Origin comparison deliberately ignores the spec's case-sensitivity: origins are lower-cased.", CORS_NEW),
    ("The old name is removed with `let _ = unlink(old_path)` -- unlink failure is silently ignored.", PERSIST),
    # round 18: "false means ..." is a condition; "anything after X" is not X
    ("WaitMaxDuration returns the bool it got - false means nothing was taken and it didn't sleep.", WAIT_MAX),
    ("Anything after a `**` segment is ignored by addRoute: it breaks out of the loop.", ADD_ROUTE),
    ("fileSort compares names with localeCompare, no uppercasing.", FILE_SORT),
    # round 17: "no TTL => no goroutine" is a condition written as an arrow
    ("No TTL => no goroutine: it returns early when fn is nil.", TIMER_TICK),
    # round 17: Go code that starts no goroutine; a goroutine the claim names under a condition
    ("Stop runs inline (no goroutine) and reports whether the timer was registered.", TIMER_STOP),
    ("Callbacks run without a goroutine only when fn is nil.", TIMER_TICK),
    # round 17: a noun with an object is not bare; a verb the code does not call
    ("The list is built in one pass, no sorting of the keys needed beyond what Object.keys gives.", SEND_HEAD),
    ("The header goes out as is - no escaping.", OPTIONS),
    # round 17: a code-shaped name the code does not call; a value the code never compares with
    ("next() runs synchronously - no process.nextTick involved.", HANDLE),
    ("No GET special-case in send(): every method gets the body.", SEND_HEAD),
    # round 17: "anything after it in the tag" names some things by where they are, not anything
    ('hitting "-" returns at once, so anything after it in the tag is never looked at.', PARSE_TAGS),
    # round 15: "ignores invalid X" says some values of X are ignored, not X
    ("invalid Expires (e.g. `expires=invalid`) is ignored by parseSetCookie.", PARSE_SET_COOKIE),
    # round 15: "ignoring E" of `except E: pass` says what the code does
    ("_LazyDescr.__get__ deletes the class attribute, ignoring AttributeError.", LAZY_GET),
    ("pop never panics: an empty vector gives None.", POP),
    ("truncate doesn't check the capacity.", TRUNCATE),
    ("errors.go has no build tags.", PLAIN_GO),
    ("toUnsignedNumberE never returns errOverflow.", UNSIGNED),
    # a name the code tests but never returns
    ("toUnsignedNumberE never returns v.", UNSIGNED),
    ("COLORTERM isn't looked at.", NO_COLOR),
    ("NoColor never looks TERM up in a table.", NO_COLOR),
    # a literal the code never returns, or no literal at all
    ("setNodeInterface never returns nil.", NODE),
    ("setNodeInterface never returns the interface name.", NODE),
    ("setNodeInterface never returns false when the interface exists.", NODE),
    # a member the class does not define, or a definition the claim states
    ("Cache does not define `keys`; it comes from MutableMapping.", CACHE),
    ("Cache defines get itself.", CACHE),
    ("Queue does not implement `drain()`.", QUEUE),
    ("res.jsonp sets X-Content-Type-Options: nosniff.", JSONP),
    # a call that names none of the object's words
    ("res.jsonp doesn't set the Vary header.", JSONP),
    ("res.location percent-encodes the URL with encodeUrl.", LOCATION),
    # a verb the code does not call
    ("res.location does not redirect.", LOCATION),
    ("Client.close() also closes the transports passed in mounts=.", CLOSE),
    # conditions: the claim may be true of another path
    ("transports are not closed when the client was never opened.", CLOSE),
    ("Client.send never reads the body when stream=True.", SEND),
    ("Client.send does not read the body unless stream is False.", SEND),
    # a double negation says the code does it
    ("load never ignores RETRIES.", SETTINGS),
    ("load does not really ignore RETRIES.", SETTINGS),
    ("RETRIES is not ignored.", SETTINGS),
    ("load does not only read RETRIES but also validates it.", SETTINGS),
    # the object is the operand next to the verb, not any word of the clause
    ("load does not use the cache for RETRIES.", SETTINGS),
    ("res.json never goes to res.send.", JSONP),
    # "raises X" is not "never raises X"
    ("load raises ValueError for a negative RETRIES.", SETTINGS),
    ("load never raises KeyError.", SETTINGS),
    ("load never calls Settings.", SETTINGS),
    # f({ X: true }): the code fixes X itself, which is how it ignores the caller's X
    ("export() always returns expired items (it ignores includeExpired).", EXPORT),
    # round 12: a call the one-liner does not make; "only" that scopes the claim; a verb the code does not call;
    # an object that is not the call's
    ("Now() doesn't call Local().", NOW),
    ("JSONStorage.write never calls os.fsync only for in-memory handles.", WRITE),
    # "only" anywhere in the clause scopes it ("with { strict: true } it only tests A and B is never consulted"):
    # tried narrowing it to "only if/when/for ..." in round 12; two true facts of 68 sets turned findings
    # (ufo t17, semver t12) for one false one, so "only" stays a condition
    ("JSONStorage.write only flush()es, it never calls os.fsync - durability is up to the OS.", WRITE),
    ("close() does not reopen.", CLOSE_CACHE),
    ("close() does not flush the query cache to disk when nothing changed.", CLOSE_CACHE),
    ("close() does not flush twice.", CLOSE_CACHE),
    # round 13: no nil test in the code; a condition of the claim's own
    ("wrapAll has no nil check.", WRAP_ALL),
    # round 27: no assertion in the code; a check of something named is another reading's; a condition
    ("`Folded::wrap(s)` just wraps s - no check, so non-ASCII letters compare byte by byte.", WRAP),
    ("wrap doesn't check anything.", WRAP),
    ("set_low doesn't check for overflow of the total.", SET_LOW),
    ("If the hint is exact, set_low does no validation.", SET_LOW),
    ("WithStack has no nil check when err is a withStack already.", WITH_STACK),
    ("Format prints the full path (no filepath.Rel trimming).", FRAME_FORMAT),
    ("Format prints the full path (no strings.Base trimming).", FRAME_FORMAT),
    # `ignore` among the values a setting takes (send's dotfiles, more-itertools' incomplete)
    ("load takes mode allow/deny/ignore and reads RETRIES.", SETTINGS),
    ("wrapAll never raises.", WRAP_ALL),
    # "never raises" of another function than the anchored one (marshmallow's validate, anchored _do_load)
    ("`schema.validate(data)` never raises: it returns the errors dict.", SETTINGS),
    ("serialize doesn't care about valueOf.", SERIALIZE),
    ("serialize cares about toJSON.", SERIALIZE),
    ("PUT is treated like any other method: next() is called.", SERVE_STATIC),
    ("HEAD is not treated like any other method.", SERVE_STATIC),
    ("A `prototype` key is copied over like any other key.", DEFU),
    ("WriteCompact writes compact JSON (no SetIndent).", WRITE_COMPACT),
    # a plain word in the aside is no call's name
    ("WriteJSON writes every item (no limit).", WRITE_JSON),
    ("MissingComponentError.components keeps every name (no dedup), sorted.", MISSING_COMPONENT),
    # the reader's call left out, written with its parentheses: a condition, not the code's own
    ("Out of the box (no configure()) the wrapper class is the filtering logger.", STRUCTLOG_CONFIG),
    # round 33: the code's own ignore list; a flag the code does not turn on; an option it does not write
    ("Glob scan of srcDir: hard-coded ignores `**/node_modules`, `**/coverage`, `**/.git`.", GLOB_SCAN),
    ("ServerStatusDB's server thread isn't a zombie.", SERVER_STATUS),
    ("If the thread isn't a daemon, the process hangs.", SERVER_STATUS),
    ("npmPublish never passes `--tag`.", NPM_PUBLISH),
    # round 33: an object no guard names; a guard that names it and does something else
    ("generateMarkDown doesn't filter merges.", AUTHORS),
    ("generateMarkDown doesn't skip emails it has seen.", AUTHORS),
    # round 33: a value inside a returned literal is no return of it
    ("lookup_key never returns None.", LOOKUP_KEY),
    # round 33: no case folded; the claim says the match does not depend on case
    ("string entries are compared with `===` -- exact, case-sensitive.", STRICT_EQUAL),
    ("LevelFromString is not case-sensitive: it lowercases first.", LEVEL_FROM_STRING),
    # round 33: "no error" said of something the code is given
    ("OrComposeDecodeHookFunc returns the first hook result that has no error; if all fail you get errors.New.",
     OR_COMPOSE),
    ("OrComposeDecodeHookFunc returns the result of the first hook with no error.", OR_COMPOSE),
    ("For an empty input splitWord gives UnterminatedEscapeError, no error otherwise.", SPLIT_WORD),
    # round 34: Go's `map` keyword; a warning under a setting the claim turns off
    ("Edits to what you get back don't touch the package-level map.", GENERIC_FUNC_MAP),
    ("context_manager passes warn_on_mock_enter=False to _start_patch, so no warning.", START_PATCH),
    # round 34: the claim names the failure itself
    ("Same file for markdown and markdown-append -> parser.error, the run stops with a usage error.",
     VALIDATE_MARKDOWN),
    # round 34: code that fails in no way; another sense of "fails"; a failure the claim names itself
    ("pod_collect_to_vec never fails: dst_count is rounded up.", POD_COLLECT),
    ("try_from never fails to convert a time after the epoch.", TRY_FROM_SYSTEM_TIME),
    ("try_from never fails spuriously.", TRY_FROM_SYSTEM_TIME),
    ("try_from never fails silently: a time before the epoch gives InvalidSystemTime... an Err.",
     TRY_FROM_SYSTEM_TIME),
    # a value the code never compares with, or a message that says it
    ("true color needs COLORTERM=truecolor; \"256color\" isn't recognised.", TRUECOLOR_RS),
    ("COLORTERM=\"24bit\" is recognised as well as truecolor.", TRUECOLOR_RS),
    # round 38 (goarg t20): a subject that is code no anchor shows speaks of that code's own body
    ("NewParser itself doesn't look at registrations.", [REGISTER, PARSE]),
    # round 38: a value the code never compares with
    ("`-` isn't special in go-arg.", PROCESS),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_call():
    [line] = fired("res.jsonp doesn't set X-Content-Type-Options: nosniff.", JSONP)
    assert line == ("the claim says `doesn't set` of `X-Content-Type-Options`, but lib/response.js::res.jsonp "
                    "says `this.set('X-Content-Type-Options', 'nosniff');`")
    [line] = fired("transports passed in mounts= are never closed by it.", CLOSE)
    assert line.startswith("the claim says `are never closed` of `transports passed in mounts`")
    assert line.endswith("says `transport.close()`")  # the loop over self._mounts, not self._transport


def test_a_message_the_claim_quotes_is_not_its_negation():
    add = EvidenceText("lib/command.js::Command.addArgument", """\
  addArgument (argument) {
    if (argument.required && argument.defaultValue !== undefined) {
      throw new Error(`a default value for a required argument is never used: '${argument.name()}'`)
    }
    this.registeredArguments.push(argument)
  }
""")
    claim = 'addArgument throws "a default value for a required argument is never used" for required ones.'
    assert contradictions(claim, [add], rules=[RULE]) == []
    assert contradictions("addArgument never uses registeredArguments.", [add], rules=[RULE]) != []
