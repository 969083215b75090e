"""Argument checks shared by the LlamaIndex adapters: misuse is an error, never ignored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)

from memvet import RecallGroup, Status, UsageError, check_groups, require_ledger

__all__ = ["GROUPS", "RecallFilters", "check_groups", "check_k", "names", "parse_filters", "require_ledger"]

#: The recall groups, in the order the core serves them.
GROUPS: tuple[str, ...] = tuple(RecallGroup)


def check_k(value: Any, what: str) -> int:
    """A positive whole number, else a :class:`memvet.UsageError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{what} must be a whole number of at least 1, got {type(value).__name__} {value!r}")
    if value < 1:
        raise UsageError(f"{what} must be at least 1, got {value}")
    return value


def names(value: Any) -> list[str]:
    """One string is one name (an anchor, a tag, a path), ``None`` is none."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


@dataclass(frozen=True)
class RecallFilters:
    """``MetadataFilters`` as MemVet understands them.

    Attributes:
        tags: Any of these tags (``None``: no condition).
        paths: Anchored at or under any of these paths (``None``: no condition).
        statuses: One of these statuses (``None``: any).
    """

    tags: tuple[str, ...] | None = None
    paths: tuple[str, ...] | None = None
    statuses: frozenset[str] | None = None


#: Metadata keys a filter may name, and the MemVet condition each one is.
FILTER_KEYS = {"tags": "tags", "tag": "tags", "paths": "paths", "path": "paths", "anchors": "paths",
               "status": "status"}
_ANY_OF = (FilterOperator.EQ, FilterOperator.IN, FilterOperator.ANY, FilterOperator.CONTAINS)
_NONE_OF = (FilterOperator.NE, FilterOperator.NIN)
_STATUSES = tuple(s.value for s in Status)


def _values(f: MetadataFilter) -> tuple[str, ...]:
    value = f.value
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if not items or not all(isinstance(v, str) and v.strip() for v in items):
        raise UsageError(f"filter on {f.key!r}: expected a string or a list of strings, got {value!r}")
    return tuple(dict.fromkeys(v.strip() for v in items))


def _unsupported(f: MetadataFilter, key: str) -> UsageError:
    allowed = "==, in, any, contains" + (", !=, nin" if key == "status" else "")
    return UsageError(
        f"filter operator {f.operator.value!r} on {f.key!r} is not supported by MemVet; "
        f"use one of {allowed} (values: any of them)"
    )


def parse_filters(filters: MetadataFilters | None) -> RecallFilters:
    """Translate ``MetadataFilters`` on ``tags``, ``paths`` and ``status``.

    Supported: ``==``, ``in``, ``any`` and ``contains`` (any of the values),
    and on ``status`` also ``!=`` and ``nin``; filters on different keys are
    combined with ``AND``; ``OR`` only joins filters on one key (their values
    are then any of them).

    Raises:
        UsageError: Another key, operator or condition, or nesting, with the
            supported forms in the message.
    """
    if filters is None:
        return RecallFilters()
    if not isinstance(filters, MetadataFilters):
        raise UsageError(f"filters must be a llama_index MetadataFilters, got {type(filters).__name__}")
    condition = filters.condition or FilterCondition.AND
    if condition not in (FilterCondition.AND, FilterCondition.OR):
        raise UsageError(f"filter condition {condition.value!r} is not supported by MemVet; use 'and' or 'or'")
    found: dict[str, set[str]] = {}
    for f in filters.filters:
        if isinstance(f, MetadataFilters):
            raise UsageError("nested MetadataFilters are not supported by MemVet; give one flat list")
        key = FILTER_KEYS.get(f.key)
        if key is None:
            raise UsageError(
                f"MemVet cannot filter on {f.key!r}; filter on 'tags', 'paths' or 'status'"
            )
        values = set(_values(f))
        if f.operator in _NONE_OF and key == "status":
            values = set(_STATUSES) - values
        elif f.operator not in _ANY_OF:
            raise _unsupported(f, key)
        if key == "status":
            unknown = sorted(v for v in _values(f) if v not in _STATUSES)
            if unknown:
                raise UsageError(f"unknown status {', '.join(unknown)}; choose from {', '.join(_STATUSES)}")
        if key in found:
            if condition is FilterCondition.AND:
                raise UsageError(
                    f"two filters on {key!r} joined by 'and'; MemVet takes any of a list of values: "
                    f"one filter with operator 'in'"
                )
            found[key] |= values
        else:
            found[key] = values
    if condition is FilterCondition.OR and len(found) > 1:
        raise UsageError("'or' across different keys is not supported by MemVet; 'or' joins filters on one key")
    return RecallFilters(
        tags=tuple(sorted(found["tags"])) if "tags" in found else None,
        paths=tuple(sorted(found["paths"])) if "paths" in found else None,
        statuses=frozenset(found["status"]) if "status" in found else None,
    )
