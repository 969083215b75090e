"""Binding classes of issue 30's round 16 (tuning sets: seanmonstar/num_cpus,
expressjs/multer and eight sets written blind at the round's start).

Each case both ways.
"""

from __future__ import annotations

import dataclasses

import pytest
from _binding import ev, person_write, unbound

import memvet

# ----------------------------------------------------------------- a function local to another

MIDDLEWARE_JS = """\
function makeMiddleware (setup) {
  return function multerMiddleware (req, res, next) {
    function done (err) {
      function onFinished () { next(err) }
      onFinished()
    }
    function abortWithError (uploadError) {
      done(uploadError)
    }
    abortWithError(null)
  }
}

function twice () {
  function helper () { return 1 }
  return helper()
}

function again () {
  function helper () { return 2 }
  return helper()
}

class Holder {
  get () { return 1 }
}

module.exports = makeMiddleware
"""

HOOKS_PY = """\
def install(app):
    def on_close(event):
        return event

    app.on("close", on_close)


class Session:
    def send(self):
        def attempt():
            return 1
        return attempt()
"""


def test_a_function_local_to_another_is_anchored_by_its_own_name(repo, ledger) -> None:
    repo.write("lib/make-middleware.js", MIDDLEWARE_JS, dedent=False)
    repo.write("hooks.py", HOOKS_PY, dedent=False)
    repo.commit("local helpers")
    decision, status = person_write(ledger, "`abortWithError` calls `done(uploadError)`.",
                                    ["lib/make-middleware.js::abortWithError"])
    assert [a.name for a in decision.anchors] == ["makeMiddleware.abortWithError"]
    assert status is memvet.Status.VERIFIED
    decision, _ = person_write(ledger, "`done` calls `onFinished()`.", ["lib/make-middleware.js::done.onFinished"])
    assert [a.name for a in decision.anchors] == ["makeMiddleware.done.onFinished"]
    decision, _ = person_write(ledger, "`on_close` returns the event.", ["hooks.py::on_close"])
    assert [a.name for a in decision.anchors] == ["install.on_close"]
    # inside a method's body too: the method is the scope, not a type
    decision, _ = person_write(ledger, "`attempt` returns 1.", ["hooks.py::attempt"])
    assert [a.name for a in decision.anchors] == ["Session.send.attempt"]


def test_a_local_name_two_functions_define_or_a_method_is_still_refused(repo, ledger) -> None:
    repo.write("lib/make-middleware.js", MIDDLEWARE_JS, dedent=False)
    repo.write("hooks.py", HOOKS_PY, dedent=False)
    repo.commit("local helpers")
    with pytest.raises(memvet.AnchorNotFoundError, match=r"did you mean again\.helper, twice\.helper"):
        ledger.record("helper returns 1.", ["lib/make-middleware.js::helper"], author=memvet.Author.person("p"))
    with pytest.raises(memvet.AnchorNotFoundError, match=r"did you mean Holder\.get"):
        ledger.record("get returns 1.", ["lib/make-middleware.js::get"], author=memvet.Author.person("p"))
    with pytest.raises(memvet.AnchorNotFoundError, match=r"did you mean Session\.send"):
        ledger.record("send sends.", ["hooks.py::send"], author=memvet.Author.person("p"))


# ----------------------------------------------------------------- a Rust path's first segment left out

LOGICAL_CPUS = ev("src/linux.rs::logical_cpus", """\
    fn logical_cpus() -> usize {
        let mut set: libc::cpu_set_t = unsafe { mem::zeroed() };
        if unsafe { libc::sched_getaffinity(0, mem::size_of::<libc::cpu_set_t>(), &mut set) } == 0 {
            return 1;
        }
        0
    }
""", "rust")


def test_a_call_argument_without_its_path():
    assert unbound("It calls `sched_getaffinity(0, size_of::<cpu_set_t>(), &mut set)`.", LOGICAL_CPUS) == []
    assert unbound("It calls `sched_getaffinity(0, size_of::<cpu_mask_t>(), &mut set)`.", LOGICAL_CPUS) \
        == ["sched_getaffinity(0, size_of::<cpu_mask_t>(), &mut set)"]


# ----------------------------------------------------------------- an object literal's shorthand

SINGLE = ev("index.js::Multer.prototype.single", """\
    Multer.prototype.single = function (name) {
      return this._makeMiddleware([{ name: name, maxCount: 1 }], 'VALUE')
    }
""", "javascript")


def test_a_shorthand_property_is_the_key_and_its_variable():
    assert unbound("single is `_makeMiddleware([{ name, maxCount: 1 }], 'VALUE')`.", SINGLE) == []
    assert unbound("single is `_makeMiddleware([{ name: name, maxCount: 1 }], 'VALUE')`.", SINGLE) == []
    assert unbound("single is `_makeMiddleware([{ name, maxCount: 2 }], 'VALUE')`.", SINGLE) \
        == ["_makeMiddleware([{ name, maxCount: 2 }], 'VALUE')"]
    assert unbound("single is `_makeMiddleware([{ field, maxCount: 1 }], 'VALUE')`.", SINGLE) \
        == ["_makeMiddleware([{ field, maxCount: 1 }], 'VALUE')"]


# ----------------------------------------------------------------- a one-statement block without its braces

DEFU = ev("src/defu.ts::_defu", """\
    function _defu(baseObject, defaults, namespace = ".", merger) {
      if (!isPlainObject(defaults)) {
        return _defu(baseObject, {}, namespace, merger);
      }
      for (const key in baseObject) {
        const value = baseObject[key];
        if (value === null || value === undefined) {
          continue;
        }
        object[key] = value;
      }
    }
""", "typescript")


def test_the_braces_of_a_one_statement_block_may_be_left_out():
    assert unbound("It does `if (value === null || value === undefined) continue;`.", DEFU) == []
    assert unbound("It starts with `if (!isPlainObject(defaults)) return _defu(baseObject, {}, namespace, merger);`.",
                   DEFU) == []
    assert unbound("It does `if (value === undefined) continue;`.", DEFU) == ["if (value === undefined) continue;"]
    assert unbound("It starts with `if (!isPlainObject(defaults)) return _defu(baseObject, {}, merger);`.", DEFU) \
        == ["if (!isPlainObject(defaults)) return _defu(baseObject, {}, merger);"]
    # a block of two statements keeps its braces
    two = ev("a.js::f", "function f(x) {\n  if (x) {\n    a();\n    b();\n  }\n}\n", "javascript")
    assert unbound("It does `if (x) a();`.", two) == ["if (x) a();"]
    assert unbound("It does `if (x) { a(); b(); }`.", two) == []
    # code without semicolons: a block of one call, not of two
    flush = ev("index.js::compression",
               "res.flush = function flush () {\n  if (stream) {\n    stream.flush()\n  }\n}\n", "javascript")
    assert unbound("It does `if (stream) stream.flush()`.", flush) == []
    assert unbound("It does `if (stream) stream.end()`.", flush) == ["if (stream) stream.end()"]
    calls = ev("a.js::g", "function g (x) {\n  if (x) {\n    a()\n    b()\n  }\n}\n", "javascript")
    assert unbound("It does `if (x) a()`.", calls) == ["if (x) a()"]


# ----------------------------------------------------------------- an instance named after its type's last word

MULTER_ERROR = ev("lib/multer-error.js::MulterError", """\
    function MulterError (code, field) {
      Error.captureStackTrace(this, this.constructor)
      this.name = this.constructor.name
      this.code = code
      if (field) this.field = field
    }
""", "javascript")


def test_an_error_instance_is_err():
    assert unbound("err.field tells you which form field caused it.", MULTER_ERROR) == []
    assert unbound("err.status tells you which status to send.", MULTER_ERROR) == ["err.status"]
    assert unbound("req.field tells you which form field caused it.", MULTER_ERROR) == ["req.field"]


# ----------------------------------------------------------------- a Rust use statement of the anchored file

GET_PHYSICAL = dataclasses.replace(
    ev("src/lib.rs::get_physical", "pub fn get_physical() -> usize {\n    get_num_physical_cpus()\n}\n", "rust"),
    imports=("libc", "linux::get_num_cpus", "linux::get_num_physical_cpus"))


def test_a_use_the_anchored_file_makes():
    assert unbound("It is re-exported via `use linux::{get_num_cpus, get_num_physical_cpus}`.", GET_PHYSICAL) == []
    assert unbound("It is re-exported via `use linux::get_num_cpus;`.", GET_PHYSICAL) == []
    assert unbound("It is re-exported via `use linux::{get_num_cpus, get_cpu_quota}`.", GET_PHYSICAL) \
        == ["use linux::{get_num_cpus, get_cpu_quota}"]


# ----------------------------------------------------------------- an `@name` key is no decorator

ADD_FIELDS = ev("jsonlogger.py::JsonFormatter.add_fields", """\
    def add_fields(self, log_record, record, message_dict):
        if self.timestamp:
            key = self.timestamp if type(self.timestamp) == str else "timestamp"
            log_record[key] = record.created
""", "python")
LOGSTASH = ev("logstash.py::LogstashFormatter.add_fields", """\
    def add_fields(self, log_record, record, message_dict):
        log_record["@timestamp"] = record.created
""", "python")
RETRY = ev("tenacity/__init__.py::retry", "def retry(*dargs, **dkw):\n    return wrap\n", "python")


def test_an_at_sign_key_is_written_whole():
    assert unbound("timestamp=True adds an `@timestamp` key to every record.", ADD_FIELDS) == ["@timestamp"]
    assert unbound("It adds an `@timestamp` key to every record.", LOGSTASH) == []
    assert unbound("Decorate the function with `@retry`.", RETRY) == []  # a decorator: its function's name


# ----------------------------------------------------------------- Go's errors.Is reaches what %w wraps

DECODE = ev("mapstructure.go::Decoder.decode", """\
    func (d *Decoder) decode(name string, input interface{}, outVal reflect.Value) error {
        if err != nil {
            return fmt.Errorf("error decoding '%s': %w", name, err)
        }
        return nil
    }
""", "go")
PREFIX = ev("prefix.go::Prefix", """\
    func Prefix(err error, prefix string) error {
        return fmt.Errorf("%s %s", prefix, err)
    }
""", "go")


def test_errors_is_reaches_an_error_wrapped_with_percent_w():
    assert unbound("It is wrapped with %w, so errors.Is on the hook's sentinel works.", DECODE) == []
    assert unbound("It is wrapped, so errors.Is/As still reach the underlying error.", DECODE) == []
    assert unbound("Prefix wraps the error, so errors.Is still works.", PREFIX) == ["errors.Is"]


# ----------------------------------------------------------------- a Go or Rust type's members the claim names

CHANNEL_RS = """\
pub struct Receiver<T> {
    channel: Arc<Channel<T>>,
}

impl<T> Receiver<T> {
    pub fn close(&self) -> bool {
        self.channel.close()
    }
}

impl<T> Stream for Receiver<T> {
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.try_recv() {
            Ok(msg) => Poll::Ready(Some(msg)),
            Err(TryRecvError::Closed) => Poll::Ready(None),
            Err(TryRecvError::Empty) => Poll::Pending,
        }
    }
}
"""

POOL_GO = """\
package pool

type Pool struct {
\tlimiter chan struct{}
}

func (p *Pool) MaxGoroutines() int {
\treturn cap(p.limiter)
}

func (p *Pool) Wait() {
\tp.limiter = nil
}
"""


def test_a_type_anchor_reads_the_members_the_claim_names(repo, ledger) -> None:
    repo.write("src/lib.rs", CHANNEL_RS, dedent=False)
    repo.write("pool/pool.go", POOL_GO, dedent=False)
    repo.commit("types")
    decision, status = person_write(
        ledger, "Receiver's poll_next returns `Poll::Ready(None)` on `TryRecvError::Closed`.", ["src/lib.rs::Receiver"])
    assert [a.name for a in decision.anchors] == ["Receiver", "<Receiver as Stream>.poll_next"]
    assert status is memvet.Status.VERIFIED
    decision, _ = person_write(ledger, "Receiver implements Stream.", ["src/lib.rs::Receiver"])  # by its trait's name
    assert [a.name for a in decision.anchors] == ["Receiver", "<Receiver as Stream>"]  # the impl block, members in it
    decision, status = person_write(ledger, "MaxGoroutines returns `cap(p.limiter)`.", ["pool/pool.go::Pool"])
    assert [a.name for a in decision.anchors] == ["Pool", "Pool.MaxGoroutines"]
    assert status is memvet.Status.VERIFIED
    # a member the claim does not name stays out, and so does its code
    decision, status = person_write(ledger, "The pool returns `cap(p.limiter)`.", ["pool/pool.go::Pool"])
    assert [a.name for a in decision.anchors] == ["Pool"]
    assert status is memvet.Status.NEEDS_REVALIDATION


def test_a_change_to_a_named_member_reopens_the_claim(repo, ledger) -> None:
    repo.write("src/lib.rs", CHANNEL_RS, dedent=False)
    repo.commit("types")
    rec = ledger.record("Receiver's poll_next returns `Poll::Ready(None)` once closed.", ["src/lib.rs::Receiver"],
                        author=memvet.Author.person("p"))
    repo.write("src/lib.rs", CHANNEL_RS.replace("Err(TryRecvError::Closed) => Poll::Ready(None)",
                                                "Err(TryRecvError::Closed) => Poll::Pending"), dedent=False)
    repo.commit("poll_next waits")
    verdict = ledger.verify(rec.decision.id)
    assert verdict.status is memvet.Status.STALE
    assert "<Receiver as Stream>.poll_next" in verdict.reason


# ----------------------------------------------------------------- a chain of calls is one term

FINAL_DROP = ev("src/write/encoder.rs::<EncoderWriter as Drop>.drop", """\
    fn drop(&mut self) {
        if !self.panicked {
            let _ = self.write_final_leftovers();
        }
    }
""", "rust")


def test_a_method_of_what_a_call_returns_is_read_with_the_call():
    assert unbound("Drop does self.write_final_leftovers().expect(...).", FINAL_DROP) \
        == ["self.write_final_leftovers().expect(...)"]
    assert unbound("Drop does self.write_final_leftovers() and ignores the error.", FINAL_DROP) == []


# ----------------------------------------------------------------- a standard's number is its name

TIMEDELTA = ev("src/environs/fields.py::TimeDelta", """\
    class TimeDelta(ma.fields.TimeDelta):
        DEFAULT_FORMAT = "gep2257"

        def _deserialize(self, value, attr, data, **kwargs):
            if self.format == "iso8601":
                return parse_iso(value)
""", "python")


def test_the_number_of_a_standard_is_a_label():
    assert unbound('ISO 8601 durations only parse when you pass `format="iso8601"`.', TIMEDELTA) == []
    assert unbound('Durations of 8601 seconds only parse when you pass `format="iso8601"`.', TIMEDELTA) == ["8601"]
