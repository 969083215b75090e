"""The write path's relation checks (compatibility name).

The rules live in :mod:`memvet._rules`, one module each, registered in
:data:`memvet._rules.RULES`; this module keeps the names the ledger and the
public namespace import.
"""

from __future__ import annotations

from memvet._rules import RULES, Contradiction, Rule, contradictions, render_refusal

__all__ = ["RULES", "Contradiction", "Rule", "contradictions", "render_refusal"]
