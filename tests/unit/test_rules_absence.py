"""The absence rule's fixture: a missing input said to be accepted, where the code raises for it."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.absence import RULE

GET = EvidenceText("config.py::Config.get", """\
def get(self, key, default=undefined):
    if key in self.environ:
        return self.environ[key]
    if default is not undefined:
        return default
    raise KeyError(f"Config '{key}' is missing, and has no default.")
""")
GET_NONE = EvidenceText("config.py::Config.get", """\
def get(self, key, default=None):
    if key in self.environ:
        return self.environ[key]
    return default
""")
CHAIN = EvidenceText("wait.py::wait_chain.__init__", """\
def __init__(self, *strategies):
    if not strategies:
        raise ValueError("wait_chain() requires at least one strategy")
    self.strategies = strategies
""")
TIMEOUT = EvidenceText("config.py::Timeout.__init__", """\
def __init__(self, timeout=UNSET, *, connect=UNSET):
    if isinstance(timeout, UnsetType):
        raise ValueError("Timeout must either include a default, or set all parameters explicitly.")
    self.connect = timeout if isinstance(connect, UnsetType) else connect
""")
JS = EvidenceText("lib/cookie.js::res.cookie", """\
res.cookie = function (name, value, options) {
  if (!value) {
    throw new TypeError('value required')
  }
  this.append('Set-Cookie', name + '=' + value)
}
""")
OTHER_GUARD = EvidenceText("config.py::Config.get", """\
def get(self, key, default=None):
    if key.startswith("_"):
        raise KeyError(key)
    return self.environ.get(key, default)
""")
POOL = EvidenceText("src/pool.ts::Pool.constructor", """\
constructor(options) {
  const { limit = 0, weigh, capacity = 0 } = options
  this.#capacity = capacity
  this.weigh = weigh
  if (this.weigh) {
    if (!this.#capacity && !this.limit) {
      throw new TypeError('cannot weigh without capacity or limit')
    }
  }
}
""")
BOUNDS = EvidenceText("src/pool.ts::Pool.constructor", """\
constructor(options) {
  if (this.#limit === 0 && this.ttl === 0 && this.#capacity === 0) {
    throw new TypeError('At least one of limit, capacity, or ttl is required')
  }
  if (!this.autoSweep && !this.#limit && !this.#capacity) {
    if (shouldWarn(code)) {
      emitWarning(msg, 'UnboundedWarning', code)
    }
  }
}
""")

QUEUE = EvidenceText("source/index.ts::PQueue.constructor", """\
constructor(options) {
  options = {
    intervalCap: Number.POSITIVE_INFINITY,
    interval: 0,
    strict: false,
    ...options,
  };
  if (options.strict && options.intervalCap === Number.POSITIVE_INFINITY) {
    throw new TypeError('The `strict` option requires a finite `intervalCap`');
  }
  if (options.strict && options.interval < 10) {
    throw new TypeError('too short');
  }
}
""")

FIRES = [
    # the option still at the default the code gives it; the verdict first
    ("A strict PQueue is fine without an intervalCap.", QUEUE),
    ("With no intervalCap a strict queue just runs unlimited.", QUEUE),
    # the reverse: said to raise where the code's guard for exactly those absences only warns
    ("A pool with only a ttl (no limit, capacity or autoSweep) is rejected with a TypeError.", BOUNDS),
    ("config.get('X') with no default just returns None when the variable isn't set.", GET),
    ("wait_chain() with an empty strategy list is allowed and behaves like wait_none().", CHAIN),
    ("Timeout() with no arguments means no timeouts at all.", TIMEOUT),
    ("res.cookie() without a value just sets an empty cookie.", JS),
    # "harmless", "degrades", "doesn't throw"; two names joined by a slash or "or"
    ("Passing weigh without capacity/limit is harmless; it is simply never called.", POOL),
    ("Setting weigh without capacity or limit doesn't throw.", POOL),
    ("res.cookie() without a value degrades to an empty cookie.", JS),
]

SILENT = [
    # a test of another value than the default is no test that it is missing
    ("A strict PQueue is fine without an interval.", QUEUE),
    ("config.get('X') with no default returns None when the variable isn't set.", GET_NONE),
    # the claim says it raises
    ("config.get('X') with no default raises KeyError when the variable isn't set.", GET),
    ("wait_chain() with zero strategies raises ValueError at construction time.", CHAIN),
    # the raise is guarded by something else
    ("config.get('X') with no default just returns None.", OTHER_GUARD),
    # nothing is said missing
    ("Timeout() with any arguments just works.", TIMEOUT),
    # the missing word is not a name of the code
    ("wait_chain() with no jitter just behaves like wait_fixed().", CHAIN),
    # the clause says it throws, denial aside
    ("Passing weigh without capacity/limit throws a TypeError.", POOL),
    # harmless, but for a name the raise does not test
    ("Passing weigh without a retry is harmless.", POOL),
    # the reverse: a guard testing more than the claim's absences; a raise for those absences
    ("A pool with no limit or capacity throws a TypeError.", BOUNDS),
    ("A pool with no limit, capacity or autoSweep only gets a warning.", BOUNDS),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_raise():
    [line] = fired("config.get('X') with no default just returns None.", GET)
    assert "says `raise KeyError(" in line
