"""Binding classes of issue 30's round 11 (ten tuning sets: cast,
content-disposition, cron, mux, termcolor, httparse, itsdangerous, parse,
negotiator, ufo).

Each case both ways.
"""

from __future__ import annotations

import textwrap

from memvet._claims import EvidenceText, TermKind, bind, claim_terms


def ev(label: str, text: str, language: str) -> EvidenceText:
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText, known: frozenset[str] = frozenset()) -> list[str]:
    """The claim's unbound terms; ``known`` names are names the repository defines elsewhere."""
    return [u.term.text for u in bind(claim, list(evidence), exists=lambda term: term.text in known)]


# ----------------------------------------------------------------- quantities compared

TO_DURATION = ev("time.go::ToDurationE", """\
    func ToDurationE(i any) (d time.Duration, err error) {
    \tif !strings.ContainsAny(s, "nsu\u00b5mh") {
    \t\td, err = time.ParseDuration(s + "ns")
    \t}
    }
""", "go")


def test_a_comparison_with_a_quantity_is_no_version():
    # `== 1000ns` is a result compared, like `== 0`; `pkg==1.0rc1` is still a requirement
    claim = 'ToDurationE("1000") == 1000ns: without any of "nsu\u00b5mh" it appends "ns".'
    assert TermKind.VERSION not in {t.kind for t in claim_terms(claim)}
    assert unbound(claim, TO_DURATION) == []
    assert [t.text for t in claim_terms("pin requests==2.31rc1") if t.kind is TermKind.VERSION] == ["requests==2.31rc1"]
    assert unbound('ToDurationE("1000") == 1000ns: without any of "nsuvwx" it appends "ns".', TO_DURATION) \
        == ["nsuvwx"]
