"""The helpers the binding-class test modules share: evidence written
inline, the terms of a claim that bind nowhere in it, and a person's write
read back."""

from __future__ import annotations

import textwrap

import memvet
from memvet._claims import EvidenceText, bind


def ev(label: str, text: str, language: str) -> EvidenceText:
    """Evidence labelled ``path::Symbol``, its text dedented, named by its label and its symbol."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText, known: frozenset[str] = frozenset()) -> list[str]:
    """The claim's unbound terms; ``known`` names are names the repository defines elsewhere."""
    return [u.term.text for u in bind(claim, list(evidence), exists=lambda term: term.text in known)]


def person_write(ledger: memvet.Ledger, claim: str, anchors: list[str]) -> tuple[memvet.Decision, memvet.Status]:
    """``claim`` recorded on ``anchors`` by a person, and the status a read gives it: (the decision, its status)."""
    rec = ledger.record(claim, anchors, author=memvet.Author.person("p"))
    return rec.decision, ledger.verify(rec.decision.id).status


def both_ways(ledger: memvet.Ledger, anchors: list[str], said: str, unsaid: str, shown: str) -> None:
    """A person's ``said`` on ``anchors`` reads verified; ``unsaid`` reads unconfirmed, a finding naming
    ``shown`` (a term, or the words-only finding's "nothing in")."""
    decision, status = person_write(ledger, said, anchors)
    assert status is memvet.Status.VERIFIED, decision.findings
    decision, status = person_write(ledger, unsaid, anchors)
    assert status is memvet.Status.NEEDS_REVALIDATION, unsaid
    assert any(shown in finding for finding in decision.findings), decision.findings
