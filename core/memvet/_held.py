"""A ledger that once held decisions never reads as an empty memory.

Decisions are never deleted (a rejection or a supersede is a new state, with
a receipt), so the number of decisions a namespace holds only grows. A
ledger that now holds fewer than it once did was damaged: ``chroma.sqlite3``
truncated or replaced, the folder restored from an old copy, a collection
deleted on a server. Read as it is, it would say "no decisions recorded
yet", and a CI gate would pass with nothing checked.

Two witnesses, each kept where the damage they detect cannot reach:

* ``held.json`` in the ledger folder, beside (not inside) Chroma's files:
  the most decisions each namespace of a local ledger has held. Rewritten
  atomically after every write and whenever a read sees more.
* The receipts collection, for every kind of ledger: every decision is
  written with a receipt, so receipts without decisions mean the decisions
  collection was lost.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from memvet._errors import StoreError

if TYPE_CHECKING:
    from memvet._store import ChromaStore

__all__ = ["HeldMark", "check_not_emptied"]

log = logging.getLogger(__name__)


class HeldMark:
    """The most decisions each namespace of one local ledger has held.

    Args:
        path: The mark's file (``<ledger folder>/held.json``).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def read(self) -> dict[str, int]:
        """Every namespace's mark; ``{}`` when there is none or it cannot be
        read (a damaged mark is logged, and only weakens the check)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("cannot read %s (%s); the ledger's decision count is not checked", self.path, exc)
            return {}
        marks = data.get("held") if isinstance(data, dict) else None
        if not isinstance(marks, dict):
            log.warning("%s holds no decision counts; the ledger's decision count is not checked", self.path)
            return {}
        return {str(ns): n for ns, n in marks.items() if isinstance(n, int) and not isinstance(n, bool)}

    def held(self, namespace: str) -> int:
        """The most decisions ``namespace`` has held (0: none seen)."""
        return self.read().get(namespace, 0)

    def raise_to(self, namespace: str, count: int) -> None:
        """Remember that ``namespace`` holds ``count`` decisions, if that is
        more than remembered. A folder that cannot be written is logged and
        left alone: the mark is a witness, never a reason to fail a write."""
        marks = self.read()
        if count <= marks.get(namespace, 0):
            return
        marks[namespace] = count
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        try:
            tmp.write_text(json.dumps({"held": marks}, sort_keys=True), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.debug("cannot write %s: %s", self.path, exc)


def check_not_emptied(store: ChromaStore, where: str, mark: HeldMark | None = None) -> None:
    """Refuse a ledger that holds fewer decisions than it once did.

    Args:
        store: The namespace's store.
        where: The ledger's location, for the message (a folder, a server).
        mark: The local ledger's :class:`HeldMark` (None for a server or a
            client the caller passed).

    Raises:
        StoreError: The namespace holds fewer decisions than its mark, or
            receipts without any decision.
    """
    count = store.count()
    held = mark.held(store.namespace) if mark is not None else 0
    fix = ("nothing was changed. Restore the ledger from a backup, or move it aside and `memvet import` "
           "an export (memvet export --format jsonl)")
    if count < held:
        raise StoreError(
            f"the ledger at {where} held {held} decision{'s' if held != 1 else ''} in namespace "
            f"{store.namespace} and now reads {count}: its database was truncated, replaced or deleted; {fix}")
    if count == 0:
        receipts = store.receipt_count()
        if receipts:
            raise StoreError(
                f"the ledger at {where} holds {receipts} receipt{'s' if receipts != 1 else ''} but no decision "
                f"in namespace {store.namespace}: its decisions were deleted; {fix}")
    if mark is not None and count > held:
        mark.raise_to(store.namespace, count)
