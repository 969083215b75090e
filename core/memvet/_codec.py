"""The one place that knows how decisions and receipts look inside Chroma.

A decision is one record: the claim is the document (what gets embedded),
everything else is flat metadata. Chroma's rules shape the encoding: no
``None`` and no empty metadata on ``add``, lists must be non-empty and
homogeneous (so empty tags are left out, not stored as ``[]``), and
``upsert``/``update`` merge keys rather than replace them. Anchors are one
JSON string, so replacing them is a single key.

Every record carries ``schema``; a record with a newer schema than this code
understands, or one that does not decode, raises :class:`CorruptRecordError`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from memvet._errors import CorruptRecordError
from memvet._model import DECISION_FIELDS, Anchor, AnchorKind, Decision, Field, FieldType, Lifecycle, Receipt

__all__ = [
    "SCHEMA_VERSION",
    "anchor_keys",
    "decision_from_record",
    "decision_metadata",
    "lifecycle_update",
    "receipt_from_record",
    "receipt_metadata",
]

SCHEMA_VERSION = 1

#: The decision fields kept in metadata (the id is the record id, the claim the document).
_META_FIELDS = tuple(f for f in DECISION_FIELDS if f.type not in (FieldType.ID, FieldType.CLAIM))
#: Keys a lifecycle update deletes when they are now empty.
_OPTIONAL_KEYS = tuple(f.name for f in _META_FIELDS if not f.always_stored)


def anchor_keys(anchors: Iterable[Anchor]) -> list[str]:
    """Identity keys used to find decisions that share an anchor."""
    keys = set()
    for a in anchors:
        if a.kind is AnchorKind.SYMBOL:
            keys.add(f"symbol:{a.path}::{a.name}")
        elif a.kind is AnchorKind.FILE:
            keys.add(f"file:{a.path}")
        elif a.kind is AnchorKind.DEPENDENCY:
            keys.add(f"dependency:{a.name}" + (f"@{a.scope}" if a.scope else ""))
        else:
            keys.add(f"absent:{a.name}")
    return sorted(keys)


def _encode(spec: Field, value: Any) -> Any:
    """One decision field as a Chroma metadata value."""
    if spec.type is FieldType.ANCHORS:
        return json.dumps([a.to_dict() for a in value], sort_keys=True)
    if spec.type is FieldType.LIFECYCLE:
        return value.value
    if spec.type is FieldType.TEXTS:
        return list(value)
    if spec.type is FieldType.REAL:
        return float(value)
    if spec.type is FieldType.WHOLE:
        return int(value)
    return value


def _decode(spec: Field, value: Any) -> Any:
    """Inverse of :func:`_encode`; ``None`` (a missing key) gives the field's default.

    Raises:
        KeyError, ValueError, TypeError, json.JSONDecodeError: Not a value of the field's type.
    """
    if spec.type is FieldType.ANCHORS:
        return _anchors(str(value if value is not None else "[]"))
    if spec.type is FieldType.LIFECYCLE:
        return Lifecycle(value)
    if spec.type is FieldType.TEXTS:
        return tuple(str(t) for t in value or ())
    if spec.type is FieldType.REAL:
        return float(value if value is not None else 0.0)
    if spec.type is FieldType.WHOLE:
        return int(value if value is not None else 0)
    return str(value if value is not None else "")


def _decoder(spec: Field) -> Callable[[Any], Any]:
    """:func:`_decode` of one field as a function of the value alone."""
    return functools.partial(_decode, spec)


def _text(value: Any) -> str:
    return str(value if value is not None else "")


def _real(value: Any) -> float:
    return float(value if value is not None else 0.0)


def _whole(value: Any) -> int:
    return int(value if value is not None else 0)


#: (field name, decoder) for every metadata field: the common types decode
#: without going through :func:`_decode`'s chain of type tests (a recall
#: decodes every candidate each time; 14 -> 9 us a record).
_DECODERS: tuple[tuple[str, Callable[[Any], Any]], ...] = tuple(
    (spec.name, {FieldType.TEXT: _text, FieldType.REF: _text, FieldType.REAL: _real,
                 FieldType.WHOLE: _whole}.get(spec.type) or _decoder(spec))
    for spec in _META_FIELDS
)


@functools.lru_cache(maxsize=4096)
def _anchors(text: str) -> tuple[Anchor, ...]:
    """A record's anchors from their JSON, remembered by the text: a recall
    decodes the same few records again and again, and building the frozen
    anchors was two thirds of a record's decoding (about 20 of 30 us).
    Anchors are immutable, so one tuple may serve every decision holding
    that text; a text that does not decode raises every time (an exception
    is never cached)."""
    return tuple(Anchor.from_dict(a) for a in json.loads(text))


def decision_metadata(decision: Decision) -> dict[str, Any]:
    """Chroma metadata for a decision (no ``None``, no empty lists)."""
    meta: dict[str, Any] = {"schema": SCHEMA_VERSION, "kind": "decision"}
    for spec in _META_FIELDS:
        value = getattr(decision, spec.name)
        if spec.always_stored or value:
            meta[spec.name] = _encode(spec, value)
    keys = anchor_keys(decision.anchors)
    if keys:
        meta["anchor_keys"] = keys
    paths = sorted({a.path for a in decision.anchors if a.path})
    if paths:
        meta["anchor_paths"] = paths
        # Every folder above an anchored path: a recall filtered by folder
        # can then ask Chroma with `$contains` (see memvet._filter).
        dirs = sorted({"/".join(p.split("/")[: i + 1]) for p in paths for i in range(p.count("/"))})
        if dirs:
            meta["anchor_dirs"] = dirs
    return meta


def lifecycle_update(decision: Decision) -> dict[str, Any]:
    """Metadata for an ``update`` that replaces the lifecycle fields.

    Keys that are now empty are set to ``None``, which makes Chroma delete
    them instead of merging the old values back in.
    """
    meta = decision_metadata(decision)
    for key in (*_OPTIONAL_KEYS, "anchor_keys", "anchor_paths", "anchor_dirs"):
        meta.setdefault(key, None)
    return meta


def decision_from_record(record_id: str, document: str | None, meta: Mapping[str, Any] | None) -> Decision:
    """Decode one stored decision.

    Raises:
        CorruptRecordError: The record is not a decision this code can read.
    """
    if not meta:
        raise CorruptRecordError(f"decision {record_id}: no metadata", record_id)
    try:
        schema = int(meta.get("schema", 0))
        if schema < 1 or schema > SCHEMA_VERSION:
            raise CorruptRecordError(
                f"decision {record_id}: schema {schema} is not one this version of memvet reads "
                f"(up to {SCHEMA_VERSION})", record_id
            )
        values = {name: decode(meta.get(name)) for name, decode in _DECODERS}
        return Decision(id=record_id, claim=document or "", **values)
    except CorruptRecordError:
        raise
    except (KeyError, ValueError, TypeError, json.JSONDecodeError) as exc:
        raise CorruptRecordError(f"decision {record_id}: cannot decode ({exc})", record_id) from exc


def receipt_metadata(receipt: Receipt) -> dict[str, Any]:
    """Chroma metadata for a receipt."""
    meta: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "kind": "receipt",
        "decision_id": receipt.decision_id,
        "action": receipt.action,
        "from": receipt.from_lifecycle,
        "to": receipt.to_lifecycle,
        "at": float(receipt.at),
    }
    for key in ("reason", "author", "commit", "related", "imported_by", "author_kind", "via"):
        value = getattr(receipt, key)
        if value:
            meta[key] = value
    if receipt.imported_at:
        meta["imported_at"] = float(receipt.imported_at)
    return meta


def receipt_from_record(record_id: str, meta: Mapping[str, Any] | None) -> Receipt:
    """Decode one stored receipt.

    Raises:
        CorruptRecordError: The record is not a receipt this code can read.
    """
    if not meta:
        raise CorruptRecordError(f"receipt {record_id}: no metadata", record_id)
    try:
        return Receipt(
            id=record_id,
            decision_id=str(meta["decision_id"]),
            action=str(meta["action"]),
            from_lifecycle=str(meta["from"]),
            to_lifecycle=str(meta["to"]),
            reason=str(meta.get("reason", "")),
            author=str(meta.get("author", "")),
            at=float(meta["at"]),
            commit=str(meta.get("commit", "")),
            related=str(meta.get("related", "")),
            imported_at=float(meta.get("imported_at", 0.0)),
            imported_by=str(meta.get("imported_by", "")),
            author_kind=str(meta.get("author_kind", "")),
            via=str(meta.get("via", "")),
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise CorruptRecordError(f"receipt {record_id}: cannot decode ({exc})", record_id) from exc
