"""The always rule's fixture: claims that say the code always does something, against
code that does it under a condition, and code that does it unconditionally; both ways."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.always import RULE

ONERROR = EvidenceText("lib/context.js::proto.onerror", """\
  onerror (err) {
    if (err == null) return
    let statusCode = err.status || err.statusCode
    if (typeof statusCode !== 'number' || !statuses.message[statusCode]) statusCode = 500
    const code = statuses.message[statusCode]
    const msg = err.expose ? err.message : code
    this.status = err.status = statusCode
    this.res.end(msg)
  }
""")
HOST = EvidenceText("lib/request.js::host", """\
  get host () {
    const proxy = this.app.proxy
    let host = proxy && this.get('X-Forwarded-Host')
    if (!host) {
      host = this.get('Host')
    }
    return host.split(/\\s*,\\s*/, 1)[0]
  }
""")
CALLBACK = EvidenceText("lib/application.js::Application.callback", """\
  callback () {
    const fn = this.compose(this.middleware)
    if (!this.listenerCount('error')) this.on('error', this.onerror)
    return (req, res) => this.handleRequest(this.createContext(req, res), fn)
  }
""")
CLEAR = EvidenceText("lib/response.js::res.clearCookie", """\
res.clearCookie = function clearCookie(name, options) {
  const opts = { path: '/', ...options, expires: new Date(1) }
  delete opts.maxAge
  return this.cookie(name, '', opts)
}
""")
DECODE = EvidenceText("httpx/_models.py::Response.decode", """\
    def decode(self, content):
        if self.encoding is None:
            charset = "utf-8"
        else:
            charset = self.encoding
        text = content.decode(charset) if content else ""
        return text
""")

NEW_FLOCK = EvidenceText("flock.go::New", """\
func New(path string, opts ...Option) *Flock {
	flags := os.O_CREATE

	switch runtime.GOOS {
	case "aix", "solaris", "illumos":
		flags |= os.O_RDWR
	default:
		flags |= os.O_RDONLY
	}

	f := &Flock{path: path, flag: flags}
	for _, opt := range opts {
		opt(f)
	}
	return f
}
""", language="go")


FORMAT = EvidenceText("jsonlogger.py::JsonFormatter.format", """\
    def format(self, record):
        record.message = record.getMessage()
        if self._required_fields.count("asctime"):
            record.asctime = self.formatTime(record, self.datefmt)
        return self.serialize_log_record(record)
""")


WT = EvidenceText("runewidth_windows.go::IsEastAsian", """\
func IsEastAsian() bool {
	if os.Getenv("WT_SESSION") != "" {
		return false
	}
	r1, _, _ := procGetConsoleOutputCP.Call()
	return r1 == 932 || r1 == 51932
}
""", language="go")

TEXT_PANIC = EvidenceText("recovery.go::TextPanicFormatter.FormatPanicError", """\
func (t *TextPanicFormatter) FormatPanicError(rw http.ResponseWriter, r *http.Request, infos *PanicInformation) {
	if rw.Header().Get("Content-Type") == "" {
		rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	fmt.Fprintf(rw, panicText, infos.RecoveredPanic, infos.Stack)
}
""", language="go")


# round 31 (pretty t03): the newline is appended only when something was written
PRETTY_OPTIONS = EvidenceText("pretty.go::PrettyOptions", """\
func PrettyOptions(json []byte, opts *Options) []byte {
    buf := make([]byte, 0, len(json))
    if len(opts.Prefix) != 0 {
        buf = append(buf, opts.Prefix...)
    }
    buf, _, _, _ = appendPrettyAny(buf, json, 0, true, opts.Width, opts.Prefix, opts.Indent, opts.SortKeys, 0, 0, -1, 0)
    if len(buf) > 0 {
        buf = append(buf, '\\n')
    }
    return buf
}
""")

FORMATTING = EvidenceText("src/exceptiongroup/_formatting.py", """\
traceback_exception_original_format = traceback.TracebackException.format
if sys.excepthook is sys.__excepthook__:
    traceback.TracebackException.format = PatchedTracebackException.format
    sys.excepthook = exceptiongroup_excepthook
""")

FIRES = [
    # round 32 (exceptiongroup f18): a patch is an assignment; a read of the name is no patch
    ("On import, _formatting unconditionally patches TracebackException and replaces sys.excepthook.", FORMATTING),
    # round 31: no exception named
    ("Output always ends in '\\n', so you can write it straight to stdout.", PRETTY_OPTIONS),
    # round 29: a case the clause names after the verb is none of its own
    ("ctx.onerror always writes err.message on an error.", ONERROR),
    # round 23: a verb the code calls, then what it is done to (negroni f18)
    ("TextPanicFormatter.FormatPanicError unconditionally sets Content-Type: text/plain; charset=utf-8.", TEXT_PANIC),
    # round 20: an aside that only names the subject is the subject
    ("Windows Terminal (WT_SESSION) is always treated as non-East-Asian.", WT),
    # round 19: "unconditionally", before the verb or at the clause's end
    ("format() unconditionally computes record.asctime via formatTime on every record.", FORMAT),
    ("format() sets record.asctime unconditionally", FORMAT),
    # round 18: a use under a branch is still under it
    ("New always adds os.O_RDONLY to the flags.", NEW_FLOCK),
    ("ctx.onerror always writes err.message as the response body.", ONERROR),
    ("request.host always prefers X-Forwarded-Host when present.", HOST),
    ("app.onerror is always registered in callback().", CALLBACK),
    # Python's conditional expression, and an if/else block
    ("the charset is always utf-8.", DECODE),
]

SILENT = [
    # round 32: the read outside the condition, said as a read
    ("_formatting always reads TracebackException.format first.", FORMATTING),
    # round 31 (pretty t03): the exception set apart in the next clause
    ("Output always ends in '\\n' -- except when nothing was produced -> you get an empty slice.", PRETTY_OPTIONS),
    # round 30 (untyped t03): a case mapped to what the code then does
    ("expose is tri-state: true -> always writes err.message; false -> never.", ONERROR),
    # round 29 (rs-cors t12): the clause opens on the case it is about
    ("On an exposed error it always writes err.message.", ONERROR),
    # round 23: what the call is done to, used without a condition
    ("FormatPanicError unconditionally prints infos.Stack.", TEXT_PANIC),
    # round 20 (runewidth t21): an aside naming the condition the subject is under is no operand
    ("Windows Terminal (WT_SESSION set) is always treated as non-East-Asian.", WT),
    ("format() unconditionally sets record.message.", FORMAT),
    ("format() sets record.message unconditionally", FORMAT),
    # round 18: the `default:` label opens a branch; it is no use of "defaults"
    ("New sets its defaults first, so an Option always overrides the defaults.", NEW_FLOCK),
    # the code does it unconditionally
    ("res.clearCookie always expires the cookie (expires = new Date(1)).", CLEAR),
    ("ctx.onerror always ends the response with msg.", ONERROR),
    ("callback always composes the middleware.", CALLBACK),
    # the claim names its own condition, or negates always
    ("ctx.onerror always writes err.message when err.expose is set.", ONERROR),
    ("ctx.onerror does not always write err.message.", ONERROR),
    ("request.host always prefers X-Forwarded-Host if app.proxy is true.", HOST),
    # a name the code does not use: the term rules decide
    ("ctx.onerror always writes err.stack.", ONERROR),
    # `always` among the values a setting takes, no adverb (python-dotenv's quote_mode)
    ("the charset is one of always/auto/never and the code writes err.message.", ONERROR),
    ("msg is auto/always err.message.", ONERROR),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_condition_line():
    (line,) = fired("ctx.onerror always writes err.message as the response body.", ONERROR)
    assert "`err.message` always applies" in line
    assert "err.expose ? err.message : code" in line


def test_always_inside_a_quoted_message_is_the_messages():
    assert fired('ctx.onerror writes "err.message is always shown" to the log.', ONERROR) == []
