"""The fixed rule's fixture: a condition on a setting the code passes to its calls as a constant."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.fixed import RULE

EXPORT = EvidenceText("src/pool.ts::Pool.export", """\
export() {
  const out = []
  for (const i of this.#slots({ includeExpired: true })) {
    out.push(this.#items[i])
  }
  return out
}
""")
READS = EvidenceText("src/pool.ts::Pool.export", """\
export({ includeExpired = this.includeExpired } = {}) {
  const out = []
  for (const i of this.#slots({ includeExpired })) {
    out.push(this.#items[i])
  }
  return out
}
""")
PYTHON = EvidenceText("pool.py::Pool.export", """\
def export(self):
    return [self._items[i] for i in self._slots(include_expired=True)]
""")

FIRES = [
    ("export() leaves out expired items unless the pool was created with includeExpired: true.", EXPORT),
    ("export() returns expired items only if `include_expired` is set.", PYTHON),
]

SILENT = [
    # the code reads the setting
    ("export() leaves out expired items unless includeExpired is set.", READS),
    # "even if" says it does not depend on the setting
    ("export() returns expired items even if includeExpired was never set.", EXPORT),
    # no condition
    ("export() always returns expired items, includeExpired or not.", EXPORT),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)
