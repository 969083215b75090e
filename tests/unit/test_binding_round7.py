"""Binding classes of issue 30's round 7 that are not usage examples (those are ``test_usage.py``).

A number with its unit glued on (``30s``, ``500ms``, ``100kb``) is a value
like ``30 s``: a term that binds to the code's number in the units code
keeps, and a value the ``value`` rule compares. Each case both ways.
"""

from __future__ import annotations

import textwrap

import pytest

from memvet._claims import EvidenceText, TermKind, bind, claim_terms
from memvet._rules import contradictions


def ev(label: str, text: str, language: str = "python") -> EvidenceText:
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence))]


LEASE = ev("src/filelock/_lease.py::SoftFileLease.__init__", '''\
    def __init__(self, path, lease_duration: float = 30.0, heartbeat_interval: float = 10.0):
        self.lease_duration = lease_duration
''')
LIMIT = ev("lib/utils.js::normalizeOptions", '''\
    function normalizeOptions (options) {
      var limit = options?.limit != null ? bytes.parse(options.limit) : 102400
      var wait = options?.wait ?? 1500
      return { limit, wait }
    }
''', "javascript")


@pytest.mark.parametrize(("claim", "number"), [
    ("the lease lasts 30s", "30"), ("retries after 500ms", "500"), ("a 2KiB buffer", "2"),
    ("it is 2s old.", "2"), ("1.5s later", "1.5"),
])
def test_a_number_with_its_unit_glued_on_is_a_number(claim: str, number: str) -> None:
    assert numbers_of(claim) == [number]


@pytest.mark.parametrize("claim", ["HTTP/2s are fine", "the v2s branch", "sha256s", "30sec-ish", "3s3"])
def test_a_word_that_only_starts_with_digits_and_a_unit_is_none(claim: str) -> None:
    assert "3" not in numbers_of(claim) and "2" not in numbers_of(claim) and "30" not in numbers_of(claim)


def numbers_of(claim: str) -> list[str]:
    return [t.text for t in claim_terms(claim) if t.kind is TermKind.NUMBER]


def test_a_glued_value_binds_in_the_units_the_code_keeps() -> None:
    assert unbound("A lease lasts 30s unless renewed.", LEASE) == []
    assert unbound("`heartbeat_interval=10s` by default.", LEASE) == []
    assert unbound("The limit is 100kb by default.", LIMIT) == []  # 102400 bytes: kb written for KiB
    assert unbound("It waits 1.5s between tries.", LIMIT) == []  # 1500 ms
    assert unbound("A lease lasts 45s unless renewed.", LEASE) == ["45"]
    assert unbound("`heartbeat_interval=20s` by default.", LEASE) == ["heartbeat_interval=20s"]
    assert unbound("The limit is 200kb by default.", LIMIT) == ["200"]


def test_a_glued_default_is_a_value_the_value_rule_compares() -> None:
    [finding] = [c for c in contradictions("lease_duration default is 60s.", [LEASE]) if c.rule == "value"]
    assert "30" in finding.line()
    assert [c for c in contradictions("lease_duration default is 30s.", [LEASE]) if c.rule == "value"] == []
