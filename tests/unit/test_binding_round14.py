"""Binding classes of issue 30's round 14 (tuning sets: servo/rust-smallvec,
pillarjs/cookies and eight sets written blind at the round's start).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

import memvet

# ----------------------------------------------------------------- layout a sentence leaves out

PUSH = ev("src/lib.rs::SmallVec.push", """\
    pub fn push(&mut self, value: T) {
        let len = self.len();
        if len == self.capacity() {
            self.reserve(1);
        }
        unsafe { self.set_len(len + 1) }
    }
""", "rust")
MACRO = ev("src/lib.rs::smallvec", """\
    macro_rules! smallvec {
        ($($x:expr),*$(,)?) => ({
            let mut vec = $crate::SmallVec::new();
            $crate::SmallVec::from_vec($crate::alloc::vec![$($x,)*])
        });
    }
""", "rust")
WRITE = ev("src/lib.rs::<SmallVec as Write>.write", """\
    impl<const N: usize> io::Write for SmallVec<u8, N> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.extend_from_slice(buf);
            Ok(buf.len())
        }
""", "rust")


def test_a_blocks_last_semicolon_is_layout():
    assert unbound("push grows when full: `if len == self.capacity() { self.reserve(1) }`.", PUSH) == []
    assert unbound("push grows when full: `if len == self.capacity() { self.reserve(1); }`.", PUSH) == []
    # another statement, or another argument, is no layout
    assert unbound("push grows when full: `if len == self.capacity() { self.reserve(2) }`.", PUSH) \
        == ["if len == self.capacity() { self.reserve(2) }"]
    assert unbound("push grows when full: `if len == self.capacity() { self.grow(1) }`.", PUSH) \
        == ["if len == self.capacity() { self.grow(1) }"]


def test_a_rust_paths_root_is_layout():
    assert unbound("Past the inline size it goes through `SmallVec::from_vec(vec![...])`.", MACRO) == []
    assert unbound("Past the inline size it goes through `SmallVec::from_buf(vec![...])`.", MACRO) \
        == ["SmallVec::from_buf(vec![...])"]
    # a root only: `crate::` of the reader's own code is a name
    assert unbound("It goes through `other::SmallVec::from_vec(vec![...])`.", MACRO) \
        == ["other::SmallVec::from_vec(vec![...])"]


def test_an_impls_own_generic_parameters_are_layout():
    assert unbound("`impl io::Write for SmallVec<u8, N>` writes with extend_from_slice.", WRITE) == []
    assert unbound("`impl io::Write for SmallVec<u16, N>` writes with extend_from_slice.", WRITE) \
        == ["impl io::Write for SmallVec<u16, N>"]
    assert unbound("`impl fmt::Write for SmallVec<u8, N>` writes with extend_from_slice.", WRITE) \
        == ["impl fmt::Write for SmallVec<u8, N>"]


# ----------------------------------------------------------------- what an anchor's evidence holds

SMALLVEC_RS = """\
pub struct SmallVec<T, const N: usize> {
    len: usize,
}

#[cfg(feature = "write")]
impl<const N: usize> io::Write for SmallVec<u8, N> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<T, const N: usize> SmallVec<T, N> {
    pub fn len(&self) -> usize {
        self.len
    }
}
"""

COOKIES_JS = """\
function Cookie (name, value) {
  this.name = name
  this.value = value
}

Cookie.prototype.path = "/";
Cookie.prototype.httpOnly = true;

Cookie.prototype.toHeader = function () {
  var header = this.name + "=" + this.value
  if (this.path) header += "; path=" + this.path
  return header
}

Cookie.connect = Cookie.express = function (keys) {
  return function (req, res, next) {
    req.cookies = res.cookies = new Cookie(req, res)
    next()
  }
}

function plain (x) {
  return x
}

plain.helper = function () { return 'namespace' }

module.exports = Cookie
"""


def _status(ledger, claim, anchors):
    rec = ledger.record(claim, anchors, author=memvet.Author.person("p"))
    return ledger.verify(rec.decision.id).status


def test_a_trait_impls_method_carries_its_impl_header(repo, ledger) -> None:
    repo.write("src/lib.rs", SMALLVEC_RS, dedent=False)
    repo.commit("a trait impl")
    anchors = ["src/lib.rs::<SmallVec as Write>.write", "src/lib.rs::<SmallVec as Write>.flush"]
    assert _status(ledger, "`impl io::Write for SmallVec<u8, N>`: write() returns Ok(buf.len()).",
                   anchors) is memvet.Status.VERIFIED
    assert _status(ledger, "`impl io::Write for SmallVec<T, N>`: write() returns Ok(buf.len()).",
                   anchors) is memvet.Status.NEEDS_REVALIDATION
    # an inherent method has no trait impl header to carry
    assert _status(ledger, "`impl SmallVec<T, N>` has `len()`.", ["src/lib.rs::SmallVec.len"]) \
        is memvet.Status.NEEDS_REVALIDATION


def test_a_constructor_functions_prototype_and_statics_are_its_body(repo, ledger) -> None:
    repo.write("index.js", COOKIES_JS, dedent=False)
    repo.commit("a constructor function")
    assert _status(ledger, "The middleware sets `req.cookies` and `res.cookies`, then calls `next()`.",
                   ["index.js::Cookie"]) is memvet.Status.VERIFIED
    assert _status(ledger, "The middleware sets `req.jar`, then calls `next()`.",
                   ["index.js::Cookie"]) is memvet.Status.NEEDS_REVALIDATION
    # a method reads the prototype's defaults of the fields it reads
    assert _status(ledger, "toHeader writes `; path=` from `this.path`, whose default is `\"/\"`.",
                   ["index.js::Cookie.toHeader"]) is memvet.Status.VERIFIED
    # a plain function's statics are a namespace, not its body
    assert _status(ledger, "plain returns `'namespace'`.", ["index.js::plain"]) \
        is memvet.Status.NEEDS_REVALIDATION


# ----------------------------------------------------------------- a concatenation, with the code's own values

TO_HEADER = ev("index.js::Cookie.prototype.toHeader", """\
    Cookie.prototype.toHeader = function () {
      var header = this.toString()
      if (this.path) header += "; path=" + this.path
      if (this.domain) header += "; domain=" + this.domain
      if (this.sameSite) header += "; samesite=" + (this.sameSite === true ? 'strict' : this.sameSite.toLowerCase())
      return header
    }
    Cookie.prototype.path = "/";
""", "javascript")


def test_a_concatenation_writes_the_values_the_code_gives_its_operand():
    assert unbound("With sameSite: true, toHeader writes `; samesite=strict`.", TO_HEADER) == []
    assert unbound("By default every header carries `; path=/`.", TO_HEADER) == []
    # a value the code never gives the operand, or a field with no literal value
    assert unbound("With sameSite: true, toHeader writes `; samesite=lax`.", TO_HEADER) == ["; samesite=lax"]
    assert unbound("By default every header carries `; path=/app`.", TO_HEADER) == ["; path=/app"]
    assert unbound("By default every header carries `; domain=example`.", TO_HEADER) == ["; domain=example"]


# ----------------------------------------------------------------- a keyword whose value reads as a version

SETUP = ev("setup.py", """\
    setup(
        name='jmespath',
        version='1.0.1',
        python_requires='>=3.7',
    )
""", "python")


def test_a_keywords_quoted_version_is_read_with_its_keyword():
    assert unbound("setup.py says version='1.0.1', python_requires='>=3.7'.", SETUP) == []
    assert unbound("setup.py says version='1.0.2', python_requires='>=3.7'.", SETUP) == ["version='1.0.2'"]
    assert unbound("setup.py says version='1.0.1', python_requires='>=3.8'.", SETUP) \
        == ["python_requires='>=3.8'"]


# ----------------------------------------------------------------- a Markdown code span of two backticks

LITERAL = ev("jmespath/lexer.py::Lexer._consume_literal", """\
    def _consume_literal(self):
        lexeme = self._consume_until('`').replace('\\\\`', '`')
        try:
            parsed_json = loads(lexeme)
        except ValueError:
            parsed_json = loads('"%s"' % lexeme.lstrip())
            warnings.warn("deprecated string literal syntax", PendingDeprecationWarning)
        return parsed_json
""", "python")


def test_a_code_span_of_two_backticks_holds_backticks():
    # `` `foo` `` is one span, the reader's example, and the prose after it is no code
    assert unbound("Literals like `` `foo` `` still parse: the lexer retries with `loads('\"%s\"' % lexeme.lstrip())`.",
                   LITERAL) == ["`foo`"]
    assert unbound("The lexer retries with `loads('\"%s\"' % lexeme.strip())`.", LITERAL) \
        == ["loads('\"%s\"' % lexeme.strip())"]


# ----------------------------------------------------------------- a class attribute the method reads

PARSER_PY = """\
class Parser:
    _CACHE = {}
    _MAX_SIZE = 128

    def __init__(self, lookahead=2):
        self._lookahead = lookahead

    def parse(self, expression):
        cached = self._CACHE.get(expression)
        if cached is not None:
            return cached
        if len(self._CACHE) > self._MAX_SIZE:
            self._free_cache_entries()
        return expression

    def _free_cache_entries(self):
        self._CACHE.clear()
"""


def test_a_class_attribute_a_method_reads_is_its_value(repo, ledger) -> None:
    repo.write("parser.py", PARSER_PY, dedent=False)
    repo.commit("a parser with a cache")
    assert _status(ledger, "parse caches up to `_MAX_SIZE` (128) expressions.", ["parser.py::Parser.parse"]) \
        is memvet.Status.VERIFIED
    assert _status(ledger, "parse caches up to `_MAX_SIZE` (256) expressions.", ["parser.py::Parser.parse"]) \
        is memvet.Status.NEEDS_REVALIDATION
    # a method that does not read it has no such value
    assert _status(ledger, "_free_cache_entries keeps 128 expressions.", ["parser.py::Parser._free_cache_entries"]) \
        is memvet.Status.NEEDS_REVALIDATION


# ----------------------------------------------------------------- a character named by its code point

APPEND_JSON = ev("gjson.go::AppendJSONString", """\
    func AppendJSONString(dst []byte, s string) []byte {
        for _, r := range s {
            if r == '\\u2028' || r == '\\u2029' {
                dst = append(dst, '\\\\', 'u', '2', '0', '2', hex[r&0xF])
            }
        }
        return dst
    }
""", "go")


def test_a_code_point_binds_to_its_escape():
    assert unbound("U+2028 and U+2029 are escaped by AppendJSONString.", APPEND_JSON) == []
    assert unbound("U+2027 is escaped by AppendJSONString.", APPEND_JSON) == ["2027"]
    # a plain number is no code point
    assert unbound("AppendJSONString escapes 2028 characters.", APPEND_JSON) == ["2028"]


# ----------------------------------------------------------------- a requirement's floor

CARGO = ev("Cargo.toml", """\
    [dependencies]
    serde_core = { version = "1.0.220", optional = true, default-features = false }
    hashbrown = { version = "=0.16.0", default-features = false }
""", "toml")


def test_a_floor_binds_to_the_requirement_it_is_the_floor_of():
    assert unbound("serde_core needs >= 1.0.220.", CARGO) == []
    assert unbound("serde_core needs >= 1.0.221.", CARGO) == [">= 1.0.221"]
    # an exact pin is no floor the claim may restate
    assert unbound("hashbrown needs >= 0.16.0.", CARGO) == [">= 0.16.0"]


# ----------------------------------------------------------------- a command line as an argument list; `this.`

MACHINE_ID = ev("hostid_darwin.go::readPlatformMachineID", """\
    func readPlatformMachineID() (string, error) {
        ioreg, err := exec.LookPath("ioreg")
        if err != nil {
            return "", err
        }
        cmd := exec.Command(ioreg, "-rd1", "-c", "IOPlatformExpertDevice")
        out, err := cmd.CombinedOutput()
        return string(out), err
    }
""", "go")
REGENERATE = ev("session/store.js::Store.prototype.regenerate", """\
    Store.prototype.regenerate = function(req, fn){
      var self = this;
      this.destroy(req.sessionID, function(err){
        self.generate(req);
        fn(err);
      });
    };
""", "javascript")


def test_a_command_line_binds_to_the_argument_list_the_code_runs():
    assert unbound("It runs `ioreg -rd1 -c IOPlatformExpertDevice` and parses the UUID.", MACHINE_ID) == []
    assert unbound("It runs `ioreg -rd1 -c IOPlatformDevice` and parses the UUID.", MACHINE_ID) \
        == ["ioreg -rd1 -c IOPlatformDevice"]
    assert unbound("It runs `ioreg -c -rd1 IOPlatformExpertDevice` and parses the UUID.", MACHINE_ID) \
        == ["ioreg -c -rd1 IOPlatformExpertDevice"]


def test_a_call_on_this_binds_to_the_codes_call_on_this():
    assert unbound("regenerate calls this.destroy(req.sessionID, ...) first.", REGENERATE) == []
    assert unbound("regenerate calls this.destroy(req.session, ...) first.", REGENERATE) \
        == ["this.destroy(req.session, ...)"]


# ----------------------------------------------------------------- a dotted value where the code writes another

SESSION = ev("index.js::session", """\
    function session(options) {
      var opts = options || {}
      var name = opts.name || opts.key || 'connect.sid'
      var store = opts.store || new MemoryStore()
      return function session(req, res, next) {
        req.sessionStore = store
      }
    }
""", "javascript")


def test_a_dotted_value_shaped_like_a_string_of_the_code_is_that_value():
    assert unbound("The cookie is named `connect.sid` unless you pass `name`.", SESSION) == []
    assert unbound("The cookie is named `express.sid` unless you pass `name`.", SESSION) == ["express.sid"]
    # a name of the code is no value: `req.sessionStore` is what the code sets
    assert unbound("The middleware sets `req.sessionStore`.", SESSION) == []


HELP = ev("lib/command.js::Command.help", """\
    help(contextOptions) {
      this.outputHelp(contextOptions);
      let exitCode = Number(process.exitCode ?? 0);
      if (exitCode === 0 && contextOptions && contextOptions.error) {
        exitCode = 1;
      }
      this._exit(exitCode, 'commander.help', '(outputHelp)');
    }
""", "javascript")


def test_a_dotted_callee_is_a_name_not_a_value():
    # 'commander.help' is a string of the code in the shape of `cmd.help`; a call's callee is no value
    assert unbound("`cmd.help({ error: true })` exits with 1.", HELP) == []
    assert unbound("The help event is `commander.usage`.", HELP) == ["commander.usage"]


# ----------------------------------------------------------------- a switch tested with `and`, or as its own field

ADD = ev("loguru/_logger.py::Logger.add", """\
    def add(self, sink, *, colorize=None, serialize=_defaults.LOGURU_SERIALIZE, enqueue=False):
        if colorize is None and serialize:
            colorize = False
        handler = Handler(sink=sink, colorize=colorize, enqueue=enqueue)
        return handler
""", "python")
HANDLER = ev("loguru/_handler.py::Handler.__init__", """\
    def __init__(self, *, sink, colorize, enqueue, multiprocessing_context):
        self._sink = sink
        self._enqueue = enqueue
        if self._enqueue:
            self._queue = multiprocessing_context.SimpleQueue()
""", "python")


def test_a_switch_the_code_branches_on_takes_the_readers_value():
    assert unbound("serialize=True turns colours off unless you pass colorize=True.", ADD) == []
    assert unbound("enqueue=True builds a SimpleQueue.", HANDLER) == []
    # a setting the code does not branch on keeps the code's own value
    assert unbound("sink=True sends records nowhere.", HANDLER) == ["sink=True"]


def test_a_go_package_is_named_by_its_import_path(repo, ledger) -> None:
    repo.write("go.mod", "module github.com/rs/xid\n\ngo 1.16\n", dedent=False)
    repo.write("b/id.go", "package xidb\n\nfunc New() ID {\n\treturn ID{}\n}\n", dedent=False)
    repo.commit("a sub-package")
    assert _status(ledger, "Import `github.com/rs/xid/b` for the binary ID.", ["b/id.go::New"]) \
        is memvet.Status.VERIFIED
    assert _status(ledger, "Import `github.com/rs/xid/c` for the binary ID.", ["b/id.go::New"]) \
        is memvet.Status.NEEDS_REVALIDATION
