"""The propagation rule's fixture: "lets E propagate" (or "raises E", "fails
with E") where every handler of E raises another or swallows it."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.propagation import RULE

TRANSLATED = EvidenceText("client.py::Client._redirect_url", """\
    def _redirect_url(self, request, response):
        location = response.headers["Location"]
        try:
            url = URL(location)
        except InvalidURL as exc:
            raise RemoteProtocolError(f"Invalid URL in location header: {exc}.") from None
        return url
""")
RERAISED = EvidenceText("client.py::Client.send", """\
    def send(self, request):
        try:
            return self._send(request)
        except InvalidURL:
            log.warning("bad url")
            raise
""")
JS = EvidenceText("lib/view.js::View.prototype.load", """\
View.prototype.load = function load(file) {
  try {
    return require(file);
  } catch (err) {
    throw new TypeError('could not load ' + file);
  }
};
""")

SWALLOWED = EvidenceText("cachetools/_cached.py::_unlocked", """\
    def wrapper(*args, **kwargs):
        k = key(*args, **kwargs)
        v = func(*args, **kwargs)
        try:
            cache[k] = v
        except ValueError:
            pass  # value too large
        return v
""")
SWALLOWED_AND_RAISED = EvidenceText("cache.py::Cache.put", """\
    def put(self, k, v):
        if v is None:
            raise ValueError("no value")
        try:
            self.data[k] = v
        except ValueError:
            return None
""")
DESCRIPTOR = EvidenceText("cachetools/_cachedmethod.py::_DescriptorBase.__get__", """\
    def __get__(self, obj, objtype=None):
        try:
            wrapper = obj.__dict__.setdefault(self.__attrname, wrapper)
        except AttributeError:
            msg = f"No '__dict__' attribute on {type(obj).__name__!r}"
            raise TypeError(msg) from None
        return wrapper
""")

RAISES_TOO_LARGE = EvidenceText("util.py::normalize_timestamp", """\
def normalize_timestamp(timestamp):
    if timestamp > MAX_TIMESTAMP_US:
        raise ValueError(f"The specified timestamp {timestamp!r} is too large.")
    return timestamp
""")

CANONICAL = EvidenceText("w3lib/url.py::canonicalize_url", """\
def canonicalize_url(url, encoding=None):
    try:
        scheme, netloc, path, query, fragment = _safe_url_split(url, encoding=encoding)
    except UnicodeEncodeError:
        scheme, netloc, path, query, fragment = _safe_url_split(url, encoding="utf8")
    return urlunsplit((scheme, netloc, path, query, fragment))
""")


GET_IN = EvidenceText("funcy/colls.py::get_in", """\
def get_in(coll, path, default=None):
    for key in path:
        try:
            coll = coll[key]
        except (KeyError, IndexError):
            return default
    return coll
""")
BARE = EvidenceText("funcy/colls.py::get_lax", """\
def get_lax(coll, path, default=None):
    for key in path:
        try:
            coll = coll[key]
        except:
            return default
    return coll
""")
OWN = EvidenceText("app.py::load", """\
def load(path):
    try:
        return read(path)
    except ConfigError:
        return None
""")


GETINFO = EvidenceText("zipp/__init__.py::CompleteDirs.getinfo", """\
    def getinfo(self, name):
        try:
            return super().getinfo(name)
        except KeyError:
            if not name.endswith('/') or name not in self._name_set():
                raise
            return zipfile.ZipInfo(filename=name)
""")

# round 22: an error value thrown away (Go's `_ =`, Rust's `let _ =`)
RESET = EvidenceText("flock.go::Flock.resetFh", """\
func (f *Flock) resetFh() {
	if f.fh == nil {
		return
	}

	_ = f.fh.Close()

	f.fh = nil
}
""")
PROBE = EvidenceText("src/lib.rs::AutoCfg.probe_fmt", """\
    fn probe_fmt(&self, source: Arguments<'_>) -> Result<(), Error> {
        let status = command.status()?;
        if status.success() {
            let mut file = self.out_dir.join(crate_name);
            file.set_extension("ll");
            let _ = fs::remove_file(file);
            Ok(())
        } else {
            Err(error::from_str("could not execute rustc"))
        }
    }
""")
KEPT = EvidenceText("flock.go::Flock.Close", """\
func (f *Flock) Close() error {
	_ = f.fh.Sync()
	if err := f.fh.Close(); err != nil {
		return err
	}
	return nil
}
""")


WALK_SLICE = EvidenceText("reflectwalk.go::walkSlice", """\
func walkSlice(v reflect.Value, w interface{}) (err error) {
	ew, ok := w.(EnterExitWalker)
	if ok {
		ew.Enter(Slice)
	}
	for i := 0; i < v.Len(); i++ {
		elem := v.Index(i)
		if sw, ok := w.(SliceWalker); ok {
			if err := sw.SliceElem(i, elem); err != nil {
				return err
			}
		}
		if ok {
			ew.Enter(SliceElem)
		}
		if err := walk(elem, w); err != nil {
			return err
		}
	}
	return nil
}
""")
ENTER_PY = EvidenceText("walk.py::walk_slice", """\
def walk_slice(v, w):
    w.enter(SLICE_ELEM)
    for elem in v:
        walk(elem, w)
""")


COERCE = EvidenceText("voluptuous/validators.py::Coerce.__call__", """\\
    def __call__(self, v):
        try:
            return self.type(v)
        except (ValueError, TypeError, InvalidOperation):
            msg = self.msg or ('expected %s' % self.type_name)
            raise CoerceInvalid(msg)
""")

# round 34 (pytest-mock f05): "catches E only" where the handler catches a base of E
SPY_WRAPPER = EvidenceText("src/pytest_mock/plugin.py::MockerFixture.spy", """\
def spy(self, obj, name, duplicate_iterators=False):
    def wrapper(*args, **kwargs):
        spy_obj.spy_exception = None
        try:
            r = method(*args, **kwargs)
        except BaseException as e:
            spy_obj.spy_exception = e
            raise
        return r
    return wrapper
""")


FIRES = [
    # "catches E" where every handler names other built-in classes
    ("get_in catches (KeyError, IndexError, TypeError), so indexing into a scalar returns default.", GET_IN),
    ("get_in swallows TypeError and returns the default.", GET_IN),
    ("get_in suppresses ValueError.", GET_IN),
    ("load catches OSError from read and returns None.", OWN),
    # round 15: the same handler, said as a propagation
    ("canonicalize_url raises UnicodeEncodeError for a page encoding that cannot encode the URL.", CANONICAL),
    ("If the result is too large to store, the ValueError propagates to the caller.", SWALLOWED),
    ("On a class with __slots__ and no __dict__ the first access fails with AttributeError.", DESCRIPTOR),
    ("__get__ raises AttributeError for objects without __dict__.", DESCRIPTOR),
    ("If the Location header can't be parsed, _redirect_url lets InvalidURL propagate to the caller.", TRANSLATED),
    ("InvalidURL propagates out of _redirect_url.", TRANSLATED),
    ("_redirect_url re-raises InvalidURL.", TRANSLATED),
    ("An InvalidURL bubbles up to the caller.", TRANSLATED),
    # round 22: every result of the step is thrown away
    ("resetFh returns the error from f.fh.Close() so callers can see when closing failed.", RESET),
    ("resetFh propagates the error of `Close()`.", RESET),
    ("If removing the generated .ll file fails, probe_fmt propagates the io error.", PROBE),
    # round 33: the error a step returns is said to end the work; the code calls the step as a statement
    ("Enter(SliceElem) returning an error stops walkSlice and that error bubbles up from Walk.", WALK_SLICE),
    ("An error from `ew.Enter(Slice)` aborts the walk.", WALK_SLICE),
    # "leaks E" is "E reaches the caller"
    ("Coerce only traps ValueError; Coerce(int)(None) leaks a raw TypeError out of the schema.", COERCE),
    # round 34: "only" and a handler of a base class
    ("spy wrapper catches `Exception` only, so SystemExit/KeyboardInterrupt never show up.", SPY_WRAPPER),
    ("the spy wrapper only catches Exception.", SPY_WRAPPER),
]

SILENT = [
    # a bare raise under a test in the handler: the exception goes on
    ("getinfo() on an implied dir returns a fresh ZipInfo; other misses re-raise KeyError.", GETINFO),
    ("For a missing file getinfo lets KeyError propagate.", GETINFO),
    # "catches E" where a handler names E, a class E derives from, or any class at all
    ("get_in catches KeyError and IndexError and returns default.", GET_IN),
    ("get_lax catches TypeError too.", BARE),
    # negated or conditional, or a class of the project's own (its bases unknown here)
    ("get_in does not catch TypeError: it propagates.", GET_IN),
    ("If get_in catches TypeError, the default comes back.", GET_IN),
    ("load catches ConfigError and returns None.", OWN),
    ("load catches MissingConfigError.", OWN),
    # round 15: a condition on the raise describes the handler
    ("If _safe_url_split raises UnicodeEncodeError with the caller's encoding, canonicalize_url retries "
     "the split with encoding=\"utf8\".", CANONICAL),
    ("send lets InvalidURL propagate after logging it.", RERAISED),
    ("_redirect_url does not let InvalidURL propagate: it raises RemoteProtocolError.", TRANSLATED),
    ("InvalidURL is caught and re-raised as RemoteProtocolError.", TRANSLATED),
    ("_redirect_url re-raises InvalidURL as RemoteProtocolError.", TRANSLATED),
    # no handler for it: it may well propagate
    ("_redirect_url lets KeyError propagate.", TRANSLATED),
    ("load lets err propagate.", JS),
    # raised in the code as well: a handler elsewhere does not stop it
    ("put lets ValueError propagate for a missing value.", SWALLOWED_AND_RAISED),
    # raised by another anchor of the claim: the handler of one anchor does not stop the other's
    ("If the result is too large, the ValueError propagates to the caller.", [SWALLOWED, RAISES_TOO_LARGE]),
    # the claim speaks of the handler, or rules the exception out
    ("__get__ catches AttributeError and raises TypeError instead.", DESCRIPTOR),
    ("__get__ never raises AttributeError.", DESCRIPTOR),
    ("__get__ raises TypeError for objects without __dict__.", DESCRIPTOR),
    ("The wrapper swallows ValueError when the value is too large.", SWALLOWED),
    # round 22: a negated verb, a step whose result is kept, a step the code does not take
    ("resetFh does not return the error from f.fh.Close().", RESET),
    ("Close returns the error from f.fh.Close().", KEPT),
    ("If closing the handle fails, Close returns the error.", KEPT),
    ("If writing the .ll file fails, probe_fmt propagates the io error.", PROBE),
    ("resetFh returns the error from f.fh.Sync().", RESET),
    ("Coerce(int)(None) never leaks a TypeError: it raises CoerceInvalid.", COERCE),
    # round 33: a step whose error is kept, a negated end, an exception (it propagates by itself)
    ("SliceElem(i, elem) returning an error stops walkSlice.", WALK_SLICE),
    ("Enter(SliceElem) returning an error does not stop walkSlice.", WALK_SLICE),
    ("An error from Enter(SliceElem) is dropped; it never stops the walk.", WALK_SLICE),
    ("w.enter(SLICE_ELEM) returning an error stops walk_slice.", ENTER_PY),
    ("Coerce leaks a KeyError from the type's constructor.", COERCE),
    # round 34: without "only", a handler of a base catches E too; the handler's own class
    ("the spy wrapper catches Exception and records it.", SPY_WRAPPER),
    ("the spy wrapper catches BaseException only, so even SystemExit is recorded.", SPY_WRAPPER),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_what_the_handler_raises():
    [line] = fired("_redirect_url lets InvalidURL propagate.", TRANSLATED)
    assert line == ("the claim says `InvalidURL` propagate; the code catches it and does not raise it again, but "
                    "client.py::Client._redirect_url says `raise RemoteProtocolError(f\"Invalid URL in location "
                    "header: {exc}.\") from None`")
