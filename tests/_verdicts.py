"""Assertions about verdicts, and stored records rewritten as an older
hasher wrote them, shared by the hasher tests (``tests/`` is on
``sys.path``: ``from _verdicts import assert_cosmetic``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from memvet import Status


def rewrite_anchors(ledger: Any, decision_id: str, **changes: Any) -> None:
    """Store the decision again with ``changes`` made to each of its anchors
    (an older ``hash_version``, its hash, its naming): what a ledger written
    by an older hasher holds."""
    stored = ledger.store.get_decisions([decision_id])[0]
    anchors = tuple(dataclasses.replace(a, **changes) for a in stored.anchors)
    ledger.store.replace_decision(stored.evolve(anchors=anchors))


def assert_cosmetic(repo: Any, ledger: Any, decision_id: str, path: str, rewritten: str, message: str,
                    change: tuple[str, str]) -> None:
    """Committing ``rewritten`` as ``path`` (a formatter's output) keeps the
    decision verified with its body unchanged; the real edit ``change``
    (old text, new text) in the same file then reads stale."""
    repo.write(path, rewritten, dedent=False)
    repo.commit(message)
    verdict = ledger.verify(decision_id)
    assert verdict.status is Status.VERIFIED, verdict.reason
    assert "body unchanged" in verdict.checks[0].detail
    repo.replace(path, *change)
    assert ledger.verify(decision_id).status is Status.STALE
