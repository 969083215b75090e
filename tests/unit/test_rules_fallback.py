"""The fallback rule's fixture: claims that name the value a name falls back
to, against the fallback the code's assignment writes; both ways."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.fallback import RULE

UNFILL = EvidenceText("src/refill.rs::unfill", """\
pub fn unfill(text: &str) -> (String, Options<'_>) {
    let mut detected_line_ending = None;
    match (detected_line_ending, ending) {
        (Some(LineEnding::CRLF), Some(LineEnding::LF)) => detected_line_ending = ending,
        _ => (),
    }
    options.line_ending = detected_line_ending.unwrap_or(LineEnding::LF);
    (unfilled, options)
}
""", language="rust")
LEVEL = EvidenceText("log.py::configure", """\
def configure(name=None):
    level = LEVELS.get(name) or Level.WARN
    logger.setLevel(level)
""")
STREAM = EvidenceText("index.js::open", """\
function open (opts) {
  const out = opts.stream ?? process.stdout
  return out
}
""", language="javascript")
WRAP = EvidenceText("index.js::wrap", """\
function wrap (fn) {
  var res
  if (asyncHooks.AsyncResource) {
    res = new asyncHooks.AsyncResource(fn.name || 'bound-anonymous-fn')
  }
  return res.runInAsyncScope.bind(res, fn, null)
}
""", language="javascript")

FIRES = [
    # round 23: a quoted literal a dotted name falls back to (on-finished f13)
    ("wrap() uses fn.name for the AsyncResource type, falling back to 'anonymous'.", WRAP),
    # round 20 (textwrap f18): the fallback is another variant of the same enum
    ("unfill() sets options.line_ending to LineEnding::CRLF when it can't detect any ending in the input.", UNFILL),
    ("line_ending falls back to `LineEnding::CRLF`.", UNFILL),
    ("configure sets level to Level.INFO when no name is given.", LEVEL),
    ("out defaults to process.stderr.", STREAM),
]

SILENT = [
    ("wrap() uses fn.name for the AsyncResource type, falling back to 'bound-anonymous-fn'.", WRAP),
    ("wrap() uses res.name, falling back to 'anonymous'.", WRAP),  # a name the code gives no fallback
    # the code's fallback; a value of another owner; a condition that finds something; a literal
    ("unfill() sets options.line_ending to LineEnding::LF when it can't detect any ending.", UNFILL),
    ("configure sets level to Level.WARN otherwise.", LEVEL),
    ("line_ending falls back to `Ending::CRLF`.", UNFILL),
    ("unfill() sets options.line_ending to LineEnding::CRLF when the input ends with CRLF.", UNFILL),
    ("out defaults to process.stdout.", STREAM),
    ("level defaults to 30.", LEVEL),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)
