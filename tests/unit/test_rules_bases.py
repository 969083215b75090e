"""The bases rule's fixture: what a class is (or is not) a kind of, against its class statement."""

from __future__ import annotations

import pytest

from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.bases import RULE

PY = EvidenceText("exceptions.py::ConnectTimeout", """\
class ConnectTimeout(ConnectionError, Timeout):
    \"\"\"Only a Timeout, some say.\"\"\"
""")
TS = EvidenceText("a.ts::Dog", "export class Dog extends Animal implements Pet {\n  bark() {}\n}\n")
PLAIN = EvidenceText("a.py::Cat", "class Cat(object):\n    pass\n")

FIRES = [
    ("ConnectTimeout is only a Timeout; except ConnectionError does not catch it.", PY),
    ("ConnectTimeout only subclasses Timeout.", PY),
    ("ConnectTimeout does not subclass ConnectionError.", PY),
    ("ConnectTimeout is not a Timeout.", PY),
    ("Dog is only a Pet.", TS),
    ("Dog doesn't extend Animal.", TS),
    ("`Dog` is only a `Pet`.", TS),
]

SILENT = [
    ("ConnectTimeout subclasses both ConnectionError and Timeout.", PY),
    ("ConnectTimeout is a Timeout.", PY),
    ("ConnectTimeout is not a ReadTimeout.", PY),
    ("Dog is not a Cat.", TS),
    ("Cat is not an Animal.", PLAIN),
    # a class the anchored code has no statement for: its bases are not known
    ("Horse is only a Pet.", TS),
]


def fired(claim: str, evidence: EvidenceText) -> list[str]:
    return [c.line() for c in contradictions(claim, [evidence], rules=[RULE])]


@pytest.mark.parametrize(("claim", "evidence"), FIRES, ids=[c for c, _ in FIRES])
def test_fires(claim, evidence):
    assert fired(claim, evidence), claim


@pytest.mark.parametrize(("claim", "evidence"), SILENT, ids=[c for c, _ in SILENT])
def test_does_not_fire(claim, evidence):
    assert fired(claim, evidence) == [], claim


def test_the_finding_shows_the_class_statement():
    [line] = fired("ConnectTimeout is only a Timeout.", PY)
    assert line == ("the claim says `ConnectTimeout is only a Timeout`, but exceptions.py::ConnectTimeout says "
                    "`class ConnectTimeout(ConnectionError, Timeout):`")
