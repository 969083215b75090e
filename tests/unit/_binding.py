"""The two helpers the binding-class test modules share: evidence written
inline, and the terms of a claim that bind nowhere in it."""

from __future__ import annotations

import textwrap

from memvet._claims import EvidenceText, bind


def ev(label: str, text: str, language: str) -> EvidenceText:
    """Evidence labelled ``path::Symbol``, its text dedented, named by its label and its symbol."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText, known: frozenset[str] = frozenset()) -> list[str]:
    """The claim's unbound terms; ``known`` names are names the repository defines elsewhere."""
    return [u.term.text for u in bind(claim, list(evidence), exists=lambda term: term.text in known)]
