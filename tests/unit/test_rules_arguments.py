"""The arguments rule's fixture: a call the claim writes with a bare name, where the code passes it with an offset."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.arguments import RULE

TIMER = EvidenceText("src/sweep.ts::Sweeper.#schedule", """\
#schedule(index, delay) {
  if (delay && timers) {
    const t = setTimeout(() => {
      this.#sweep(index)
    }, delay + 1)
  }
  const r = setTimeout(() => (clock = 0), this.resolution)
}
""")
PLAIN = EvidenceText("src/sweep.ts::Sweeper.#schedule", """\
#schedule(index, delay) {
  const t = setTimeout(() => this.#sweep(index), delay)
}
""")
RECORD = EvidenceText("index.js::responseTime", """\
function responseTime (options) {
  var fn = createSetHeader(options)
  return function responseTime (req, res, next) {
    onHeaders(res, function onHeaders () {
      var time = elapsed(startAt)
      fn(req, res, time)
    })
    next()
  }
}
""", language="javascript")

MAKEREPORT = EvidenceText("src/pytest_rerunfailures.py::pytest_runtest_makereport", """\
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    result = outcome.get_result()
""")


# round 34 (pytest-randomly f15): a decorator written without its `@`
MODIFYITEMS = EvidenceText("src/pytest_randomly/__init__.py::pytest_collection_modifyitems", """\
@hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    if not config.getoption("randomly_reorganize"):
        return
    seed = _reseed(config)
""")


FIRES = [
    # round 23: the same names in another order (response-time f10); a call of `fn` is no Rust signature
    ("The recorder fn gets time first: fn(time, req, res).", RECORD),
    ("Sweeps run as `setTimeout(sweep, delay)` exactly, with no margin.", TIMER),
    # the reverse: the claim adds the offset the code does not
    ("Sweeps run as `setTimeout(sweep, delay + 1)`.", PLAIN),
    # round 33: a decorator's keyword the anchored function's decorator of that name does not pass
    ("pytest_runtest_makereport is `@pytest.hookimpl(tryfirst=True)` and builds the report itself.", MAKEREPORT),
    # round 34: the decorator written without its `@`
    ("randomly's modifyitems hook is `hookimpl(trylast=True)` -- it runs after everyone else.", MODIFYITEMS),
]

SILENT = [
    ("The recorder is called as fn(req, res, time).", RECORD),
    ("The recorder is called as fn(req, res, elapsed).", RECORD),  # an example's own name, in the code's order
    ("onHeaders(res, time) runs the recorder.", RECORD),  # a name the code does not pass: no order to compare
    ("Sweeps run as `setTimeout(sweep, delay + 1)`.", TIMER),
    ("Sweeps run as `setTimeout(sweep, delay)`.", PLAIN),
    # a bare name the code never passes there: the example names its own variable
    ("The clock resets with `setTimeout(reset, ms)`.", PLAIN),
    # another arity
    ("Sweeps run as `setTimeout(sweep)`.", TIMER),
    # the other call agrees
    ("The clock resets with `setTimeout(reset, resolution)`.", TIMER),
    # round 33: the decorator's own keyword; a decorator the code does not have; a negated one
    ("pytest_runtest_makereport is `@pytest.hookimpl(hookwrapper=True)`: it wraps the report.", MAKEREPORT),
    ("pytest_runtest_makereport could use `@pytest.fixture(autouse=True)`.", MAKEREPORT),
    ("pytest_runtest_makereport is not `@pytest.hookimpl(tryfirst=True)`.", MAKEREPORT),
    # round 34: the decorator's own keyword, with or without its `@`
    ("randomly's modifyitems hook is `hookimpl(tryfirst=True)`, so it runs before the others.", MODIFYITEMS),
    ("the hook is `@hookimpl(tryfirst=True)`.", MODIFYITEMS),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_offset():
    [line] = fired("Sweeps run as `setTimeout(sweep, delay)`.", TIMER)
    assert "the code passes `delay + 1`" in line
