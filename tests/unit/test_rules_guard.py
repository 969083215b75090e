"""The guard rule's fixture: an example presented as working that a guard of the anchored code raises on."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.guard import RULE

JITTER = EvidenceText("tenacity/wait.py::wait_exponential_jitter.__init__", """\
    def __init__(self, initial: float = 1, max: float = 60, exp_base: float = 2, multiplier: float = 1) -> None:
        if initial != 1 and multiplier != 1:
            raise ValueError("Cannot specify both 'initial' and 'multiplier'")
        if initial != 1:
            multiplier = initial
        self.multiplier = multiplier
""")
QUEUE = EvidenceText("source/index.ts::PQueue.constructor", """\
  constructor(options) {
    if (options.timeout !== undefined && !(Number.isFinite(options.timeout) && options.timeout > 0)) {
      throw new TypeError(`Expected timeout to be a positive finite number, got ${options.timeout}`);
    }
    if (typeof options.concurrency !== 'number' || options.concurrency < 1) throw new TypeError('concurrency');
    this.timeout = options.timeout;
  }
""")
STATEFUL = EvidenceText("src/cachetools/__init__.py::Cache.__setitem__", """\
    def __setitem__(self, key, value, maxsize=128):
        size = self.getsizeof(value)
        if size > self.maxsize:
            raise ValueError("value too large")
""")
BOUNDED = EvidenceText("src/lib.rs::bounded", """\
pub fn bounded<T>(cap: usize) -> (Sender<T>, Receiver<T>) {
    assert!(cap > 0, "capacity cannot be zero");
    let channel = Arc::new(Channel { queue: ConcurrentQueue::bounded(cap) });
    (Sender { channel: channel.clone() }, Receiver { channel })
}
""", language="rust")
USE = EvidenceText("negroni.go::Negroni.Use", """\
func (n *Negroni) Use(handler Handler) {
	if handler == nil {
		panic("handler cannot be nil")
	}
	n.handlers = append(n.handlers, handler)
}
""", language="go")
MAX_OPEN = EvidenceText("src/lib.rs::WalkDir.max_open", """\
    pub fn max_open(mut self, mut n: usize) -> Self {
        if n == 0 {
            n = 1;
        }
        self.opts.max_open = n;
        self
    }
""", language="rust")
VALID_NAME = EvidenceText("lex.go::validName", """\
func validName(raw string) bool {
	if raw == "" {
		return false
	}
	return strings.IndexFunc(raw, isBad) < 0
}
""", language="go")
TIDY = EvidenceText("src/path.ts::tidy", """\
export const tidy: typeof path.tidy = function (input: string) {
  if (input.length === 0) {
    return ".";
  }
  return collapse(input);
};
""")
LOOKUP = EvidenceText("src/traits.rs::Flags.lookup", """\
    fn lookup(name: &str) -> Option<Self> {
        if name.is_empty() {
            return None;
        }
        Self::FLAGS.iter().find(|f| f.name() == name).map(|f| f.value())
    }
""", language="rust")
TRIMMED = EvidenceText("util.py::clean", """\
def clean(text):
    text = text.strip()
    if not text:
        return "-"
    return text.lower()
""")
TWO_GUARDS = EvidenceText("util.py::label", """\
def label(n):
    if n < 0:
        raise ValueError("negative")
    if n == 0:
        return "none"
    return str(n)
""")

FIRES = [
    # round 27: the anchored function's first guard returns another literal for the example at once
    ('validName("") is true, so an empty name slips through.', VALID_NAME),
    ("tidy('') gives back '' (empty).", TIDY),
    ('`Flags::lookup("")` returns Some(Self::empty()).', LOOKUP),
    ('label(0) returns "zero".', TWO_GUARDS),  # a guard that raises for other values comes first
    # round 23: literals passed by position, read by the parameters' names; Rust's assert!, Go's panic
    ("bounded(0) gives you a zero-capacity rendezvous channel.", BOUNDED),
    ("`n.Use(nil)` is harmless, it's just skipped.", USE),
    ("wait_exponential_jitter(initial=2, multiplier=3) is fine; multiplier wins.", JITTER),
    ("Passing `timeout: 0` disables the timeout (0 = no limit).", QUEUE),
    ("`new PQueue({timeout: -5})` behaves like no timeout.", QUEUE),
    ("`new PQueue({concurrency: 0})` pauses the queue.", QUEUE),
    ("`new PQueue({concurrency: '2'})` runs two at once.", QUEUE),
]

ODD = EvidenceText("lib/sep.js::split", """\
function split (text, { sep = "\\u{2028}", limit = 3 } = {}) {
  if (text instanceof Buffer) { throw new TypeError('text') }
  if (sep === limit) { throw new TypeError('sep') }
  return text.split(sep, limit)
}
""")

SILENT = [
    ("bounded(1) gives you a channel of one slot.", BOUNDED),
    ("n.Use(h) appends h.", USE),  # no literal: nothing to evaluate
    ("`WalkDir::new(p).max_open(0)` is fine - 0 is silently turned into 1.", MAX_OPEN),  # no guard that panics
    ("bounded(0) panics.", BOUNDED),  # the claim speaks of the failure itself
    ("wait_exponential_jitter(initial=2) is the old spelling of multiplier=2.", JITTER),
    ("wait_exponential_jitter(multiplier=3) triples the waits.", JITTER),
    ("Passing `timeout: 5000` stops a task after five seconds.", QUEUE),
    ("`new PQueue({concurrency: 2})` runs two at once.", QUEUE),
    # the claim speaks of the failure itself
    ("wait_exponential_jitter(initial=2, multiplier=3) raises ValueError.", JITTER),
    ("Passing `timeout: 0` is rejected.", QUEUE),
    ("wait_exponential_jitter(initial=2, multiplier=3) -> ValueError('initial is deprecated').", JITTER),
    # the guard depends on state the example does not give
    ("`cache.__setitem__(key, value, maxsize=1)` stores it.", STATEFUL),
    # a guard in a spelling the rule does not evaluate (instanceof), a default no literal of Python can hold
    ("`split(text, { limit: 3 })` splits in three.", ODD),
    # round 27: what the guard returns is the claim's, or the guard is not the first thing that decides
    ('validName("") returns false straight away.', VALID_NAME),
    ("tidy('') returns '.'.", TIDY),
    ('`Flags::lookup("")` returns None.', LOOKUP),
    ('validName("a") is true.', VALID_NAME),  # the guard is false for it, and what follows is no literal
    ('clean("") returns "".', TRIMMED),  # the parameter is reassigned before the guard
    ('label(0) returns "none".', TWO_GUARDS),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_example_and_the_guard() -> None:
    [line] = fired("Passing `timeout: 0` disables the timeout (0 = no limit).", QUEUE)
    assert line.startswith("the claim presents `timeout: 0` as working; the code raises on it, but "
                           "source/index.ts::PQueue.constructor says `if (options.timeout !== undefined")


def test_a_declared_example_is_not_compared() -> None:
    assert contradictions("Passing `timeout: 0` disables the timeout.", [QUEUE], declared=["timeout: 0"],
                          rules=[RULE]) == []
