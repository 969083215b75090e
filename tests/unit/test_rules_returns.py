"""The returns rule's fixture: claims that a function returns a constant,
against the constants its return statements give; both ways."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.returns import RULE

TRUST_NONE = EvidenceText("index.js::trustNone", """\
function trustNone () {
  return false
}
""")
IS_EMPTY = EvidenceText("util.py::is_empty", """\
def is_empty(value):
    if value is None:
        return True
    return False
""")
LOOKUP = EvidenceText("store.py::lookup", """\
def lookup(key):
    if key not in CACHE:
        return None
    return CACHE[key]
""")
ALWAYS_NONE = EvidenceText("store.py::forget", """\
def forget(key):
    CACHE.pop(key, None)
    return
""")
ARROW = EvidenceText("index.js::never", "const never = () => false\n")

TO_STR = EvidenceText("src/enc.rs::Encoded.to_str", """\
    pub fn to_str(&self) -> Cow<'_, str> {
        encode_binary(self.0.as_ref())
    }
""", language="rust")
NEW_BUF = EvidenceText("src/lib.rs::Buf.new", """\
    pub fn new(cap: usize) -> Self {
        Buf { data: Vec::with_capacity(cap) }
    }
""", language="rust")
MOCK_TICKER = EvidenceText("clock.go::Mock.Ticker", """\
func (m *Mock) Ticker(d time.Duration) *Ticker {
    ch := make(chan time.Time, 1)
    return &Ticker{C: ch}
}
""", language="go")


SPLIT = EvidenceText("unquote.go::Split", """\
func Split(input string) (words []string, err error) {
	for len(input) > 0 {
		word, input, err = splitWord(input, &buf)
		if err != nil {
			return
		}
	}
	return
}
""", language="go")
ESCAPE_ERROR = EvidenceText("unquote.go::UnterminatedEscapeError",
                            'UnterminatedEscapeError = errors.New("Unterminated backslash-escape")\n', language="go")
TAKE = EvidenceText("ratelimit.go::Bucket.Take", """\
func (tb *Bucket) Take(count int64) time.Duration {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	d, _ := tb.take(tb.clock.Now(), count, infinityDuration)
	return d
}
""", language="go")
GET_WITH_EXPIRATION = EvidenceText("cache.go::cache.GetWithExpiration", """\
func (c *cache) GetWithExpiration(k string) (interface{}, time.Time, bool) {
	item, found := c.items[k]
	if !found {
		return nil, time.Time{}, false
	}
	return item.Object, time.Time{}, true
}
""", language="go")
TAKE_MAX = EvidenceText("ratelimit.go::Bucket.TakeMaxDuration", """\
func (tb *Bucket) TakeMaxDuration(count int64, maxWait time.Duration) (time.Duration, bool) {
	return tb.take(tb.clock.Now(), count, maxWait)
}
""", language="go")


LEGACY_TIMEOUT = EvidenceText("async_timeout/__init__.py::Timeout#2", """\
class Timeout:
    async def __aenter__(self) -> "Timeout":
        self._do_enter()
        return self

    async def __aexit__(self, exc_type, exc_val, exc_tb) -> Optional[bool]:
        self._do_exit(exc_type)
        return None

    def expired(self) -> bool:
        return self._state == _State.TIMEOUT
""")


GET_PEERS = EvidenceText("peers.go::getPeers", """\
func getPeers(groupName string) PeerPicker {
	if portPicker == nil {
		return NoPeers{}
	}
	return portPicker(groupName)
}
""", language="go")

WITH = EvidenceText("negroni.go::Negroni.With", """\
func (n *Negroni) With(handlers ...Handler) *Negroni {
	currentHandlers := make([]Handler, len(n.handlers))
	copy(currentHandlers, n.handlers)
	return New(
		append(currentHandlers, handlers...)...,
	)
}
""", language="go")
USE = EvidenceText("negroni.go::Negroni.UseFunc", """\
func (n *Negroni) UseFunc(f HandlerFunc) *Negroni {
	n.Use(f)
	return n
}
""", language="go")

DECRYPT = EvidenceText("securecookie.go::decrypt", """\\
func decrypt(block cipher.Block, value []byte) ([]byte, error) {
	size := block.BlockSize()
	if len(value) > size {
		return value[size:], nil
	}
	return nil, errDecryptionFailed
}
""", language="go")
OPEN_ERR = EvidenceText("ulid.go::New", """\\
func New(ms uint64, entropy io.Reader) (id ULID, err error) {
	if err = id.SetTime(ms); err != nil {
		return id, err
	}
	return id, nil
}
""", language="go")

END_STREAM = EvidenceText("src/lib.rs::Body.is_end_stream", """\
    fn is_end_stream(&self) -> bool {
        false
    }
""", language="rust")
HINT = EvidenceText("src/lib.rs::Body.is_ready", """\
    fn is_ready(&self) -> bool {
        self.state.ready()
    }
""", language="rust")

# a trait method's evidence: its body, then the head of the `impl` block it is in
IS_ADDITIONAL = EvidenceText("src/notify.rs::<Notify as NotificationPrivate>.is_additional", """\
    fn is_additional(&self, _: Internal) -> bool {
        false
    }
impl NotificationPrivate for Notify {
""", language="rust")

FORMAT = EvidenceText("src/lib.rs::Buffer.format", """\
pub fn format<I: Integer>(&mut self, i: I) -> &str {
    let string = i.write(unsafe { &mut *(&mut self.bytes as *mut [MaybeUninit<u8>; i128::MAX_STR_LEN]) });
    string
}
""", language="rust")

GET_LEVEL = EvidenceText("nulllogger.go::nullLogger.GetLevel", """\
func (l *nullLogger) GetLevel() Level { return NoLevel }
""")
LEVEL_OF = EvidenceText("logger.go::levelOf", """\
func levelOf(l *intLogger) Level {
	if l == nil {
		return NoLevel
	}
	return l.level
}
""")
HASH = EvidenceText("src/argon2/_password_hasher.py::PasswordHasher.hash", """\
    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        return hash_secret(secret=_ensure_bytes(password, self.encoding), salt=salt).decode("ascii")
""")
RAW = EvidenceText("src/argon2/low_level.py::hash_secret_raw", """\
def hash_secret_raw(secret: bytes, salt: bytes) -> Sequence[int]:
    return bytes(ffi.buffer(buf, hash_len))
""")


PRETTY_DIFF = EvidenceText("diff.go::Diff", """\
func Diff(a, b interface{}) (desc []string) {
	Pdiff((*sbuf)(&desc), a, b)
	return desc
}
""", ("diff.go::Diff", "Diff"), "go")

DELETE_PREFIX = EvidenceText("iradix.go::Txn.DeletePrefix", """\
func (t *Txn[T]) DeletePrefix(prefix []byte) bool {
	newRoot, numDeletions := t.deletePrefix(t.root, prefix)
	if newRoot != nil {
		t.root = newRoot
		t.size = t.size - numDeletions
		return true
	}
	return false
}
""", ("iradix.go::Txn.DeletePrefix", "Txn.DeletePrefix"), "go")

BIT_OR = EvidenceText("src/lib.rs::BitVec.or", """\
pub fn or(&mut self, other: &Self) -> bool {
    self.process(other, |w1, w2| w1 | w2)
}
""", ("src/lib.rs::BitVec.or", "BitVec.or"), "rust")


FIRES = [
    # round 32 (itoa f07): a call written out, then the type after an arrow
    ("buffer.format(x) -> String (owned), so the Buffer can be dropped right after.", FORMAT),
    # round 30 (event-listener f06): the head of the impl after the body is no line of the body
    ("A bare number is treated as additional (Notify::is_additional returns true).", IS_ADDITIONAL),
    # round 27: "has a default of", "defaults to"; a Rust body that is one constant returns it
    ("Body::is_end_stream has a default of `true`; implementors override it.", END_STREAM),
    ("is_end_stream defaults to true.", END_STREAM),
    ("is_end_stream returns true unless overridden.", END_STREAM),
    # round 23: the receiver given back, where every return gives something else (negroni f06)
    ("n.With(h) mutates n and returns n itself, so don't reuse a base stack.", WITH),
    ("With returns the receiver.", WITH),
    # round 21 (groupcache t25 the other way): a type the signature does not declare, written as a type
    ("getPeers returns `Peers` when nothing was registered.", GET_PEERS),
    # round 20 (async-timeout f13): a method of the anchored class, named by the claim
    ("After a timeout the legacy `__aexit__` returns True, swallowing the CancelledError.", LEGACY_TIMEOUT),
    # round 18: a Go function returns as many results as its signature declares
    ("Take(count) returns (wait time.Duration, ok bool); ok is false when refused.", TAKE),
    ("TakeMaxDuration returns (time.Duration, bool, error).", TAKE_MAX),
    # a name the anchored code declares as a type is still a type
    ("Split returns `UnterminatedEscapeFailure` for a trailing backslash.", SPLIT),
    # round 17: a type the signature does not declare
    ("Encoded::to_str always allocates and returns `String`.", TO_STR),
    ("Mock.Ticker returns a `*Timer` whose channel is buffered.", MOCK_TICKER),
    ("With an empty list compileTrust returns trustNone, which returns true, so every hop is trusted.", TRUST_NONE),
    ("trustNone() always returns true.", TRUST_NONE),
    ("forget returns True once the key is gone.", ALWAYS_NONE),
    ("never returns true for a hop.", ARROW),
    # one of Go's error values by name, where every return gives nil or another
    ("decrypt() on input not longer than the block size returns ErrMacInvalid.", DECRYPT),
    # round 33: a named constant every return gives; a built-in type a Python annotation names
    ("NewNullLogger().GetLevel() returns Off (it never emits anything).", GET_LEVEL),
    ("GetLevel returns `Debug`.", GET_LEVEL),
    ("ph.hash(pw) hands back bytes, straight from hash_secret.", HASH),
    ("hash returns a string... no wait, hash returns an int.", HASH),
    # round 35: a kind of value in plain words, against the Go or Rust signature's return type
    ("pretty.Diff(a, b) returns one string with all differences joined by \\n.", PRETTY_DIFF),
    ("`txn.DeletePrefix(p)` returns an int: how many keys were removed.", DELETE_PREFIX),
    ("`a.or(&b)` returns a string describing the change.", BIT_OR),
]

SILENT = [
    # round 32: the declared type after the arrow; an arrow of prose
    ("buffer.format(x) -> &str borrowed from the buffer.", FORMAT),
    ("format the number -> String via to_owned() if you need to keep it.", FORMAT),
    # round 32 (logrus t02, spin t20, fallible-iterator t18): fields a constructor sets; a type written out
    ("buffer.format(x) -> String: the digits, Buffer: reused.", FORMAT),
    ('buffer.format(x) -> String "42" for 42.', FORMAT),
    ("format takes `impl Fn(&I::Item) -> bool` for the filter.", FORMAT),
    ("Notify::is_additional returns false: a count is never additional.", IS_ADDITIONAL),
    # round 27: the constant the body is; a body that is no constant
    ("Body::is_end_stream has a default of `false`.", END_STREAM),
    ("is_ready defaults to true.", HINT),
    ("UseFunc returns n itself, so calls chain.", USE),
    ("With doesn't return n itself; it builds a new Negroni.", WITH),
    ("Use returns n itself.", WITH),  # another function than the anchored one
    # round 21 (groupcache t25): a Go composite literal or a call is a value of a type that implements the result
    ("getPeers returns NoPeers{} if nothing was registered.", GET_PEERS),
    ("getPeers returns NoPeers(groupName) otherwise.", GET_PEERS),
    # the method returns what the claim says; a method the class does not define; another value than a constant
    ("The legacy `__aexit__` returns None, so exceptions propagate.", LEGACY_TIMEOUT),
    ("The legacy `__exit__` returns True.", LEGACY_TIMEOUT),
    ("expired returns false before the deadline.", LEGACY_TIMEOUT),
    # round 18: a value the code assigns is no type; Go's error is any error type
    ("A trailing backslash: Split returns UnterminatedEscapeError.", [SPLIT, ESCAPE_ERROR]),
    ("Split returns `*SyntaxError` for bad input.", SPLIT),
    # round 18: as many results as declared, by type or by value; a negated claim
    ("TakeMaxDuration returns (time.Duration, bool).", TAKE_MAX),
    ("TakeMaxDuration returns (0, false) when the wait is too long.", TAKE_MAX),
    ("Take returns (d) only.", TAKE),
    ("Take never returns (d, ok): it drops the bool.", TAKE),
    ("GetWithExpiration returns (obj, time.Time{}, true) for an item that never expires.", GET_WITH_EXPIRATION),
    # round 17: a value is no type: a variant, an associated constant, a Go error value
    ("When nothing needs escaping, to_str returns `Cow::Borrowed`.", TO_STR),
    ("Buf::new returns `Buf::EMPTY` for a zero capacity.", NEW_BUF),
    ("Mock.Ticker returns `ErrClosed` once the mock is stopped.", MOCK_TICKER),
    # round 17: the declared type, by its own name or as Self; a value, not a type; a negated claim
    ("Encoded::to_str returns `Cow<str>`, borrowed when nothing needs escaping.", TO_STR),
    ("Buf::new returns `Buf` with the capacity reserved.", NEW_BUF),
    ("Mock.Ticker returns a `*Ticker` whose channel is buffered.", MOCK_TICKER),
    ("Encoded::to_str returns `None` for nothing.", TO_STR),
    ("Encoded::to_str never returns `String`.", TO_STR),
    ("encode returns `String`, unlike to_str.", TO_STR),  # said of another function
    # the constant the code returns
    ("trustNone, which returns false: no hop is trusted.", TRUST_NONE),
    ("is_empty returns True for None.", IS_EMPTY),
    ("is_empty returns false for anything else.", IS_EMPTY),
    ("forget returns None.", ALWAYS_NONE),
    # "returns None" is never read: a function may end without a return statement
    ("is_empty returns None for an empty list.", IS_EMPTY),
    # a return that is not a constant: the value is open
    ("lookup returns None when the key is missing.", LOOKUP),
    ("lookup returns true for a cached key.", LOOKUP),
    # negated, or another subject
    ("trustNone never returns true.", TRUST_NONE),
    ("trustNone doesn't return true.", TRUST_NONE),
    ("compileTrust returns true for a match.", TRUST_NONE),
    ("decrypt() on input not longer than the block size returns errDecryptionFailed.", DECRYPT),
    ("decrypt never returns ErrMacInvalid.", DECRYPT),
    # a return passes an error through: the value is open
    ("New returns ErrBigTime when the time is too large.", OPEN_ERR),
    # round 33: the constant returned; a return that is not a constant; an annotation naming the type, or a
    # type of its own; a negated verb
    ("GetLevel returns NoLevel.", GET_LEVEL),
    ("levelOf returns Off when nothing was set.", LEVEL_OF),
    ("ph.hash(pw) returns a str, not bytes.", HASH),
    ("hash returns a string.", HASH),
    ("hash never returns bytes.", HASH),
    ("hash_secret_raw returns bytes.", RAW),
    ("pretty.Diff(a, b) returns a slice, one string per difference.", PRETTY_DIFF),
    ("`txn.DeletePrefix(p)` returns a bool: whether anything was deleted.", DELETE_PREFIX),
    ("`a.or(&b)` returns a bool meaning 'self changed'.", BIT_OR),
    # a kind said of another function, negated, or one of several
    ("Pdiff fills the buffer; Diff never returns a string.", PRETTY_DIFF),
    ("DeletePrefix returns a bool or an int depending on the version.", DELETE_PREFIX),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)
