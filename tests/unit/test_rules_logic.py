"""logic: each case both ways."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.logic import RULE

INIT = EvidenceText("colorama/ansitowin32.py::AnsiToWin32.__init__", """\
def __init__(self, wrapped, convert=None, strip=None):
    have_tty = not self.stream.closed and self.stream.isatty()
    need_conversion = conversion_supported and not system_has_native_ansi
    if strip is None:
        strip = need_conversion or not have_tty
    self.strip = strip
    if convert is None:
        convert = need_conversion and have_tty
    self.convert = convert
""")
PLATFORM = EvidenceText("src/index.ts::Minimatch.constructor", """\
constructor(pattern: string, options: MinimatchOptions = {}) {
  this.platform = options.platform || defaultPlatform
  this.isWindows = this.platform === 'win32'
}
""", language="typescript")

FIRES = [
    # the same names, another operator
    ("When convert is None AnsiToWin32 sets convert = need_conversion or have_tty.", INIT),
    ("strip = need_conversion and not have_tty, so a tty keeps its codes.", INIT),
    ("strip = need_conversion || have_tty.", INIT),
]

SILENT = [
    # the code's own formula, in either spelling
    ("AnsiToWin32 auto strip: strip = need_conversion or not have_tty.", INIT),
    ("convert = need_conversion && have_tty.", INIT),
    ("this.platform = options.platform || defaultPlatform.", PLATFORM),
    # other names, or more than names: the term binder's to read
    ("convert = conversion_supported or have_tty.", INIT),
    ("convert = need_conversion and isatty().", INIT),
    ("strip = need_conversion or x == 1.", INIT),
    # one name is no formula
    ("convert = have_tty.", INIT),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)
