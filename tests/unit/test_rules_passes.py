"""The passes rule's fixture: a function said to get ``K=V`` where the anchored calls pass another constant."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.passes import RULE

LOAD = EvidenceText("godotenv.go::Load", """\
func Load(filenames ...string) (err error) {
	for _, filename := range filenames {
		err = loadFile(filename, false)
	}
	return
}
""", language="go")
LOAD_FILE = EvidenceText("godotenv.go::loadFile", """\
func loadFile(filename string, overload bool) error {
	return nil
}
""", language="go")
PASSED_ON = EvidenceText("godotenv.go::Exec", """\
func Exec(filenames []string, overload bool) error {
	return loadFile(filenames[0], overload)
}
""", language="go")
KEYWORD = EvidenceText("app/cache.py::Cache.refresh", """\
def refresh(self):
    self._load(self.path, strict=True)

def _load(self, path, strict=False):
    return path
""", language="python")
WCWIDTH = EvidenceText("wcwidth/_wcwidth.py::wcwidth", """\
@lru_cache(maxsize=1024)
def wcwidth(wc, unicode_version='auto'):
    return _bisearch(ord(wc), ZERO_WIDTH)
""")

FIRES = [
    # round 23: a decorator written with a keyword (wcwidth f01)
    ("wcwidth() uses @lru_cache(maxsize=256); CJK-heavy text will thrash it.", WCWIDTH),
    ("godotenv.Load overrides the environment (it calls loadFile with overload=true).", [LOAD, LOAD_FILE]),
    ("refresh calls _load with strict=False.", KEYWORD),
]

SILENT = [
    ("the per-codepoint wcwidth() is wrapped in @lru_cache(maxsize=1024).", WCWIDTH),
    ("wcwidth() uses @lru_cache(typed=True).", WCWIDTH),  # a keyword the code does not pass
    ("wcwidth() uses @cache(maxsize=256).", WCWIDTH),  # another decorator
    ("Load calls loadFile with overload=false.", [LOAD, LOAD_FILE]),
    ("refresh calls _load with strict=True.", KEYWORD),
    # the value is the caller's
    ("Exec calls loadFile with overload=true when asked to.", [PASSED_ON, LOAD_FILE]),
    # the definition is not anchored: its parameters are unknown
    ("Load calls loadFile with overload=true.", LOAD),
    # no anchored call of it
    ("loadFile with overload=true replaces existing values.", LOAD_FILE),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_call() -> None:
    assert fired("Load calls loadFile with overload=true.", [LOAD, LOAD_FILE]) == [
        "the claim says `loadFile` gets `overload=true`; the code passes `false`, but godotenv.go::Load says "
        "`err = loadFile(filename, false)`"]
