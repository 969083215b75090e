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

FIRES = [
    ("Sweeps run as `setTimeout(sweep, delay)` exactly, with no margin.", TIMER),
    # the reverse: the claim adds the offset the code does not
    ("Sweeps run as `setTimeout(sweep, delay + 1)`.", PLAIN),
]

SILENT = [
    ("Sweeps run as `setTimeout(sweep, delay + 1)`.", TIMER),
    ("Sweeps run as `setTimeout(sweep, delay)`.", PLAIN),
    # a bare name the code never passes there: the example names its own variable
    ("The clock resets with `setTimeout(reset, ms)`.", PLAIN),
    # another arity
    ("Sweeps run as `setTimeout(sweep)`.", TIMER),
    # the other call agrees
    ("The clock resets with `setTimeout(reset, resolution)`.", TIMER),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_offset():
    [line] = fired("Sweeps run as `setTimeout(sweep, delay)`.", TIMER)
    assert "the code passes `delay + 1`" in line
