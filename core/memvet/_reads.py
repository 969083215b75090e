"""What the satellites of a ledger read from it, and nothing more.

:mod:`memvet._about`, :mod:`memvet._excerpt`, :mod:`memvet.audit` and the
agent context of :mod:`memvet._exchange` take a ledger and use only this
surface: the repository, the targets, the decisions and their verdicts.
Typing them against this protocol rather than :class:`memvet.Ledger` keeps
them from reaching into its store or verifier, and keeps the import graph
one-way (``_ledger`` imports ``_about``; ``_about`` never imports
``_ledger``, not even for types).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from memvet._anchors import Evidence
from memvet._git import GitRepo, Snapshot
from memvet._model import Decision, Receipt, Verdict

__all__ = ["LedgerReads", "OnVerdict"]

#: Called once per verdict as it is made (for progress bars on long checks).
OnVerdict = Callable[[Verdict], None]


class LedgerReads(Protocol):
    """The read surface of :class:`memvet.Ledger` that its satellites use."""

    @property
    def git(self) -> GitRepo:
        """The repository (read-only)."""
        ...

    @property
    def evidence(self) -> Evidence:
        """The anchor checker and its symbol cache (shared, so a long walk
        parses each blob once)."""
        ...

    def snapshot(self, at: str | None = None) -> Snapshot:
        """The target of a read."""
        ...

    def decisions(self) -> list[Decision]:
        """Every decision, effective lifecycle, oldest first."""
        ...

    def log(self) -> list[Receipt]:
        """Every receipt, oldest first."""
        ...

    def check(self, at: str | None = None, *, on_verdict: OnVerdict | None = None) -> list[Verdict]:
        """Verdicts on every decision at ``at``."""
        ...

    def verdicts(self, decisions: Iterable[Decision], at: str | Snapshot | None = None, *,
                 now: float | None = None, on_verdict: OnVerdict | None = None) -> list[Verdict]:
        """Verdicts on the given decisions, lifecycles taken as given."""
        ...
