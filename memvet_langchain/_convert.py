"""Translations between MemVet values and LangChain values.

The only place that decides what a recalled decision looks like as a
LangChain ``Document``; the retriever, the tools and the middleware share it.
Verification, ranking and framing stay in the core: this module copies
fields, it never computes a status.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from langchain_core.documents import Document
from memvet import Decision, RecallItem, Verdict, frame

__all__ = ["GROUPS", "anchor_specs", "check_groups", "item_from_verdict", "item_to_document"]

#: The recall groups, in the order the core serves them.
GROUPS: tuple[str, ...] = ("current", "caution", "history")


def check_groups(include: Iterable[str]) -> tuple[str, ...]:
    """Validate a selection of recall groups, keeping the caller's order.

    Raises:
        ValueError: a name that is not ``current``, ``caution`` or ``history``,
            or an empty selection.
    """
    groups = tuple(dict.fromkeys(str(g) for g in include))
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        raise ValueError(f"unknown recall group(s) {', '.join(unknown)}; choose from {', '.join(GROUPS)}")
    if not groups:
        raise ValueError(f"include at least one recall group of {', '.join(GROUPS)}")
    return groups


def anchor_specs(decision: Decision) -> list[str]:
    """The anchors of a decision as the specs a user writes (``path::Name``)."""
    return [anchor.spec for anchor in decision.anchors]


def item_from_verdict(verdict: Verdict, score: float = 0.0) -> RecallItem:
    """A recall item for a decision found by other means than the vector query."""
    decision = verdict.decision
    return RecallItem(id=decision.id, claim=decision.claim, status=verdict.status,
                      reason=verdict.reason, score=score, text=frame(verdict), verdict=verdict)


def item_metadata(item: RecallItem) -> dict[str, Any]:
    """The metadata a recalled decision carries in LangChain."""
    decision = item.verdict.decision
    return {
        "id": item.id,
        "claim": item.claim,
        "status": item.status.value,
        "reason": item.reason,
        "group": item.group,
        "anchors": anchor_specs(decision),
        "score": round(float(item.score), 4),
        "lifecycle": decision.lifecycle.value,
        "commit": decision.commit,
        "tags": list(decision.tags),
        "target": item.verdict.target,
    }


def item_to_document(item: RecallItem) -> Document:
    """A recalled decision as a ``Document``: framed text in band, facts in metadata."""
    return Document(page_content=item.text, metadata=item_metadata(item), id=item.id)
