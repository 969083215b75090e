"""A Python name defined once per branch of one ``if``/``else`` or
``try``/``except`` statement is anchored on every branch (issue 30, round 20:
aio-libs/async-timeout's ``Timeout``), and read with the headers that choose
between the definitions. Each case both ways."""

from __future__ import annotations

import pytest
from _binding import person_write

import memvet
from memvet._errors import AmbiguousSymbolError

# ------------------------------------------------ one name defined once per branch of a statement

TIMEOUT_PY = '''\
import asyncio
import sys

if sys.version_info >= (3, 11):

    class Timeout(asyncio.Timeout):
        def __init__(self, deadline, loop):
            super().__init__(deadline)

        def reject(self):
            self.reschedule(None)

else:

    class Timeout:
        __slots__ = ("_deadline", "_loop", "_state")

        def reject(self):
            if self._state not in (1, 2):
                raise RuntimeError(f"invalid state {self._state}")
            self._reject()

        async def __aexit__(self, exc_type, exc_val, exc_tb):
            self._do_exit(exc_type)
            return None

try:
    from _speedups import compact
except ImportError:

    def compact(text):
        return " ".join(text.split())
'''


def test_a_class_defined_on_each_branch_is_anchored_on_every_branch(repo, ledger) -> None:
    repo.write("timeout.py", TIMEOUT_PY, dedent=False)
    repo.commit("timeout")
    claim = ('The legacy Timeout uses `__slots__ = ("_deadline", "_loop", "_state")`; '
             'reject() is `self.reschedule(None)` on 3.11+.')
    decision, status = person_write(ledger, claim, ["timeout.py::Timeout"])
    assert sorted(a.name for a in decision.anchors) == ["Timeout", "Timeout#2"]
    assert status is memvet.Status.VERIFIED
    # the claim is read against both, and a rule reads the branch that says otherwise
    decision, status = person_write(ledger, "The legacy `__aexit__` returns True, swallowing the error.",
                                    ["timeout.py::Timeout"])
    assert status is memvet.Status.NEEDS_REVALIDATION
    assert "Timeout#2" in decision.findings[0]


def test_a_branch_s_condition_is_evidence_for_what_is_defined_on_it(repo, ledger) -> None:
    repo.write("timeout.py", TIMEOUT_PY, dedent=False)
    repo.commit("timeout")
    _, status = person_write(ledger, "On 3.11+ reject() just calls `self.reschedule(None)`.", ["timeout.py::Timeout"])
    assert status is memvet.Status.VERIFIED
    _, status = person_write(ledger, "On 3.12+ reject() just calls `self.reschedule(None)`.", ["timeout.py::Timeout"])
    assert status is memvet.Status.NEEDS_REVALIDATION


def test_a_change_to_any_branch_reopens_the_claim(repo, ledger) -> None:
    repo.write("timeout.py", TIMEOUT_PY, dedent=False)
    repo.commit("timeout")
    rec = ledger.record("reject() refuses a finished timeout with RuntimeError.", ["timeout.py::Timeout"],
                        author=memvet.Author.person("p"))
    repo.write("timeout.py", TIMEOUT_PY.replace("(1, 2)", "(1, 2, 3)"), dedent=False)
    repo.commit("reject in one more state")
    verdict = ledger.verify(rec.decision.id)
    assert verdict.status is memvet.Status.STALE
    assert "Timeout#2" in verdict.reason


def test_a_function_defined_on_each_branch_of_a_try_is_one_name(repo, ledger) -> None:
    repo.write("text.py", TIMEOUT_PY.replace("try:\n    from _speedups import compact\n",
                                             "try:\n    def compact(text):\n        return _c(text)\n"),
               dedent=False)
    repo.commit("compact")
    decision, status = person_write(ledger, "compact joins the words with single spaces.", ["text.py::compact"])
    assert len(decision.anchors) == 2 and status is memvet.Status.VERIFIED


def test_the_same_name_defined_twice_outside_branches_stays_ambiguous(repo, ledger) -> None:
    repo.write("twice.py", "def f(x):\n    return 1\n\n\ndef f(x):\n    return 2\n", dedent=False)
    repo.commit("twice")
    with pytest.raises(AmbiguousSymbolError):
        ledger.record("f returns a number.", ["twice.py::f"], author=memvet.Author.person("p"))
    # nor are two classes of one name in two statements one name: the first keeps it
    repo.write("two.py", "if A:\n    class C:\n        x = 1\nif B:\n    class C:\n        x = 2\n", dedent=False)
    repo.commit("two statements")
    decision, _ = person_write(ledger, "C sets x.", ["two.py::C"])
    assert [a.name for a in decision.anchors] == ["C"]
