"""The stream rule's fixture: claims that must and must not be doubted on where output goes."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.stream import RULE

FIX_FILE = EvidenceText("add_trailing_comma/_main.py::fix_file", """\
def fix_file(filename, args):
    if filename == '-':
        contents_bytes = sys.stdin.buffer.read()
    contents_text = _fix_src(contents_bytes.decode())
    if filename == '-':
        print(contents_text, end='')
    elif contents_text != contents_text_orig:
        print(f'Rewriting {filename}', file=sys.stderr)
    return 0
""", ("add_trailing_comma/_main.py::fix_file",), "python")
MORGAN = EvidenceText("index.js::morgan", """\
function morgan (format, options) {
  var opts = options || {}
  var stream = opts.stream || process.stdout
  return function logger (req, res, next) {
    stream.write(line + '\\n')
  }
}
""", ("index.js::morgan",), "javascript")
DEBUG_LOG = EvidenceText("src/node.js::log", """\
function log(...args) {
  return process.stderr.write(util.formatWithOptions(inspectOpts, ...args) + '\\n');
}
""", ("src/node.js::log",), "javascript")
USAGE = EvidenceText("usage.go::Usage", """\
func Usage(prefix string, spec interface{}) error {
	tabs := tabwriter.NewWriter(os.Stdout, 1, 0, 4, ' ', 0)
	return Usagef(prefix, spec, tabs, DefaultTableFormat)
}
""", ("usage.go::Usage",), "go")
BOTH = EvidenceText("src/main.rs::report", """\
fn report(ok: bool, msg: &str) {
    if ok {
        println!("{}", msg);
    } else {
        eprintln!("error: {}", msg);
    }
}
""", ("src/main.rs::report",), "rust")
WRITER = EvidenceText("pretty.go::Fprintf", """\
func Fprintf(w io.Writer, format string, a ...interface{}) (n int, error error) {
	return fmt.Fprintf(w, format, wrap(a, false)...)
}
""", ("pretty.go::Fprintf",), "go")

FIRES = [
    # round 37 (add-trailing-comma f06): the line that writes the quoted message goes to stderr
    ("`Rewriting foo.py` lines go to stdout, so redirect stdout if you want a quiet run.", FIX_FILE),
    # a stream written as code
    ("morgan writes to `process.stderr` unless you pass `stream`.", MORGAN),
    ("Node `log()` writes to stdout, so debug output ends up in piped JSON.", DEBUG_LOG),
    ("Usage() prints the variable table to os.Stderr so it doesn't pollute stdout's consumers.", USAGE),
]
SILENT = [
    ("On change it logs `Rewriting <file>` to stderr, then writes the file back.", FIX_FILE),
    ("morgan writes to `process.stdout` unless you pass `stream` in the options.", MORGAN),
    # both streams named: which goes where is another reading
    ("morgan logs to process.stdout, never to stderr.", MORGAN),
    # negated, an attribute, a test: not where something goes
    ("Filter mode prints the source, and no stderr message is written for it.", FIX_FILE),
    ("Colors are decided by `tty.isatty(process.stdout.fd)`.", DEBUG_LOG),
    ("Colors are on when stdout is a terminal.", DEBUG_LOG),
    # the code writes to both, or to neither (a writer passed in)
    ("report prints failures to stdout.", BOTH),
    ("Fprintf writes to stderr when given os.Stderr.", WRITER),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_line_that_writes_to_the_other_stream():
    [line] = fired("`Rewriting foo.py` lines go to stdout.", FIX_FILE)
    assert "goes to stdout" in line and "file=sys.stderr" in line
