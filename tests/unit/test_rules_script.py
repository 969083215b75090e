"""The script rule's fixture: claims that say what a package.json script runs,
against the manifest's scripts; both ways."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.script import RULE

MOCHA = EvidenceText("package.json", """\
{
  "name": "etag",
  "devDependencies": {"mocha": "10.2.0", "nyc": "15.1.0"},
  "scripts": {
    "lint": "eslint .",
    "test": "mocha --reporter spec --bail --check-leaks test/",
    "test-ci": "nyc --reporter=lcov --reporter=text npm test"
  }
}
""", language="json")
PNPM = EvidenceText("package.json", """\
{
  "name": "destr",
  "scripts": {
    "build": "unbuild",
    "lint": "eslint --cache . && prettier -c src test",
    "eslint": "eslint \\"**/*.{js,ts}\\"",
    "test": "pnpm lint && vitest run --coverage"
  },
  "devDependencies": {"unbuild": "^3.0.0", "vitest": "^3.0.0"}
}
""", language="json")

FIRES = [
    # round 21 (accepts f19, serve-static f18, range-parser f18, destr f18, radix3 f19, etag f17)
    ("Tests run under jest (`npm test` → jest).", MOCHA),
    ("`npm test` runs jest over test/.", MOCHA),
    ("The test suite runs on tape (`npm test` -> tape test/*.js).", MOCHA),
    ("`pnpm test` runs lint then jest with coverage.", PNPM),
    ("`pnpm build` runs tsup.", PNPM),
    ("`npm test` runs mocha --reporter dot --check-leaks test/.", MOCHA),
    ("`pnpm test` runs `pnpm lint && vitest run --coverage` and prettier's cousin, xo.", PNPM),
]

SILENT = [
    # what the script runs, the scripts it runs in turn, prose words, what follows a ';' or an aside
    ("`npm test` = mocha --reporter spec --bail --check-leaks test/.", MOCHA),
    ("`npm test` runs mocha; coverage goes through nyc (test-ci).", MOCHA),
    ("`npm run test-ci` wraps the tests in nyc with --reporter=lcov --reporter=text.", MOCHA),
    ("`pnpm test` runs lint, then the unit tests with coverage.", PNPM),
    ("`pnpm test` runs eslint and prettier first (through `pnpm lint`), then vitest.", PNPM),
    ("`pnpm build` runs unbuild (no tsup).", PNPM),
    ("`npm run docs` runs typedoc.", MOCHA),  # no such script: the term binder's to read
    ("Build with tsup, then `npm test` runs mocha.", MOCHA),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_a_manifest_that_is_no_json_object_says_nothing():
    broken = EvidenceText("package.json", '{"scripts": {"test": "jest"', language="json")
    listed = EvidenceText("package.json", '["jest"]', language="json")
    odd = EvidenceText("package.json", '{"scripts": {"test": ["jest"]}}', language="json")
    assert fired("`npm test` runs mocha.", broken) == []
    assert fired("`npm test` runs mocha.", listed) == []
    assert fired("`npm test` runs mocha.", odd) == []
