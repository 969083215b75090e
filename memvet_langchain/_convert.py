"""Translations between MemVet values and LangChain values.

The only place that decides what a recalled decision looks like as a
LangChain ``Document``; the retriever, the tools and the middleware share it.
Verification, ranking and framing stay in the core: this module copies
fields, it never computes a status.
"""

from __future__ import annotations

from typing import Any

from langchain_core.documents import Document

from memvet import Decision, RecallGroup, RecallItem, UsageError, Verdict, check_groups, frame, require_ledger

__all__ = ["GROUPS", "anchor_specs", "check_groups", "check_k", "item_from_verdict", "item_to_document",
           "parse_filter", "require_ledger"]

#: The recall groups, in the order the core serves them.
GROUPS: tuple[str, ...] = tuple(RecallGroup)


def check_k(value: Any, what: str = "k") -> int:
    """A positive whole number, else a :class:`memvet.UsageError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{what} must be a whole number of at least 1, got {type(value).__name__} {value!r}")
    if value < 1:
        raise UsageError(f"{what} must be at least 1, got {value}")
    return value


#: Filter keys a LangChain caller may give, as ``ledger.recall`` names them.
FILTER_KEYS = ("tags", "paths")


def _filter_values(key: str, value: Any) -> list[str]:
    if isinstance(value, dict):
        # Chroma's own spelling, as langchain-chroma users write it.
        if set(value) == {"$contains"} and isinstance(value["$contains"], str):
            return [value["$contains"]]
        if set(value) == {"$in"} and isinstance(value["$in"], (list, tuple)):
            return list(value["$in"])
        raise UsageError(
            f"filter {key!r}: supported forms are a string, a list of strings (any of them), "
            f"{{'$contains': str}} or {{'$in': [str, ...]}}; got {value!r}"
        )
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise UsageError(f"filter {key!r} must be a string or a list of strings, got {type(value).__name__}")


def parse_filter(value: Any) -> dict[str, list[str]]:
    """A retriever ``filter`` as ``ledger.recall`` keyword arguments.

    Accepts ``{"tags": [...], "paths": [...]}`` (each a string or a list,
    any of them; both keys must hold), Chroma's ``{"tags": {"$contains":
    "x"}}`` / ``{"$in": [...]}``, and a ``{"$and": [...]}`` of those.

    Raises:
        UsageError: Anything else, naming what is supported.
    """
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise UsageError(f"filter must be a dict like {{'tags': [...], 'paths': [...]}}, got {type(value).__name__}")
    if set(value) == {"$and"} and isinstance(value["$and"], list):
        out: dict[str, list[str]] = {}
        for part in value["$and"]:
            for key, names in parse_filter(part).items():
                if key in out:
                    raise UsageError(f"filter: {key!r} given twice in $and; list its values once (any of them)")
                out[key] = names
        return out
    unknown = [k for k in value if k not in FILTER_KEYS]
    if unknown:
        raise UsageError(
            f"unsupported filter key(s) {', '.join(map(repr, unknown))}; MemVet filters on "
            f"{' and '.join(FILTER_KEYS)} (decisions carrying any of the tags, anchored at or under any of the paths)"
        )
    return {key: _filter_values(key, names) for key, names in value.items()}


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
