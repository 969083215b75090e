"""The two tests every relation rule's fixture runs: each case of FIRES gives
a finding under that rule alone, and each case of SILENT gives none."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from memvet._claims import EvidenceText
from memvet._rules import contradictions

Case = tuple[str, Any]  # a claim, and one EvidenceText or a list of them


def rule_cases(rule: Any, fires: Sequence[Case], silent: Sequence[Case]) -> tuple[Callable[..., list[str]], ...]:
    """``fired(claim, evidence)``, and ``test_fires`` / ``test_does_not_fire``
    parametrized over the fixture's cases, for a test module to bind at its
    top level (pytest collects them there)."""

    def fired(claim: str, evidence: EvidenceText | list[EvidenceText]) -> list[str]:
        texts = evidence if isinstance(evidence, list) else [evidence]
        return [c.line() for c in contradictions(claim, texts, rules=[rule])]

    @pytest.mark.parametrize(("claim", "evidence"), fires, ids=[c for c, _ in fires])
    def test_fires(claim: str, evidence: Any) -> None:
        assert fired(claim, evidence), claim

    @pytest.mark.parametrize(("claim", "evidence"), silent, ids=[c for c, _ in silent])
    def test_does_not_fire(claim: str, evidence: Any) -> None:
        assert fired(claim, evidence) == [], claim

    return fired, test_fires, test_does_not_fire
