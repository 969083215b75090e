"""MemVet's exception tree.

Every error MemVet raises derives from :class:`MemvetError`; each subclass
also inherits the builtin a caller would naturally catch::

    MemvetError
    ├── UsageError (ValueError)                 bad input from a caller
    │   ├── InvalidAnchorError                  an anchor spec that cannot be parsed
    │   ├── PathOutsideRepositoryError          ../x, absolute paths, escaping symlinks
    │   ├── AmbiguousSymbolError (LookupError)  a bare name matching several symbols
    │   ├── AmbiguousIdError (LookupError)      an id prefix matching several decisions
    │   ├── ConflictError                       a write that must name what it supersedes
    │   ├── NotAllowedError                     a lifecycle act that the state forbids
    │   ├── UnboundClaimError                   a claim term its anchored code does not say
    │   │   └── ClaimContradictsCodeError       a relation the code states otherwise
    │   ├── QuoteNotFoundError (LookupError)    a quote that is not in its anchored span
    │   └── UnsupportedFileError                binary, too large, or not text
    ├── AnchorNotFoundError (LookupError)       a file, symbol or dependency that is not there
    ├── UnknownDecisionError (KeyError)         no decision with that id
    ├── RepositoryError (OSError)               git could not answer
    │   ├── NotARepositoryError                 no git repository at or above the path
    │   ├── EmptyRepositoryError                a repository with no commits
    │   └── UnknownRevisionError (LookupError)  a revision that does not resolve
    └── StoreError (RuntimeError)               the ledger store (Chroma) failed
        ├── StoreUnavailableError (ConnectionError)  the server cannot be reached
        ├── AuthenticationError (PermissionError)    the server refused our credentials
        ├── LedgerLockedError (TimeoutError)         another writer holds the local ledger
        └── CorruptRecordError                       a stored record cannot be decoded

Exceptions mean "could not check". A drifted anchor is a result (a
:class:`~memvet.Verdict`), never an exception.
"""

from __future__ import annotations

__all__ = [
    "AmbiguousIdError",
    "AmbiguousSymbolError",
    "AnchorNotFoundError",
    "AuthenticationError",
    "ClaimContradictsCodeError",
    "ConflictError",
    "CorruptRecordError",
    "EmptyRepositoryError",
    "InvalidAnchorError",
    "LedgerLockedError",
    "MemvetError",
    "NotARepositoryError",
    "NotAllowedError",
    "PathOutsideRepositoryError",
    "QuoteNotFoundError",
    "RepositoryError",
    "StoreError",
    "StoreUnavailableError",
    "UnboundClaimError",
    "UnknownDecisionError",
    "UnknownRevisionError",
    "UnsupportedFileError",
    "UsageError",
]


class MemvetError(Exception):
    """Base of every error MemVet raises."""

    def __str__(self) -> str:  # KeyError quotes its message; we never want that
        return str(self.args[0]) if self.args else self.__class__.__name__


class UsageError(MemvetError, ValueError):
    """The caller asked for something that cannot be done as asked."""


class InvalidAnchorError(UsageError):
    """An anchor spec could not be parsed."""


class PathOutsideRepositoryError(UsageError):
    """A path points outside the repository (``..``, absolute, escaping symlink)."""


class AmbiguousSymbolError(UsageError, LookupError):
    """A symbol name matches several symbols; the message lists the candidates."""

    def __init__(self, message: str, candidates: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class AmbiguousIdError(UsageError, LookupError):
    """An id prefix matches several decisions."""


class ConflictError(UsageError):
    """A write conflicts with active decisions and the policy is ``error``."""

    def __init__(self, message: str, conflicts: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.conflicts = conflicts


class NotAllowedError(UsageError):
    """A lifecycle act that the decision's current state does not allow."""


class UnboundClaimError(UsageError):
    """A claim names code terms that its anchored evidence does not contain.

    ``terms`` holds one :class:`memvet._claims.UnboundTerm` per term, each
    with where it was looked for and the nearest thing the code does say.
    """

    def __init__(self, message: str, terms: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.terms = terms


class ClaimContradictsCodeError(UnboundClaimError):
    """A claim states a relation its anchored code states otherwise.

    Its terms all occur in the evidence, but in the wrong order, paired
    with another value, or with other base classes (see
    :mod:`memvet._relations`). ``contradictions`` holds one
    :class:`memvet._relations.Contradiction` each; ``terms`` any unbound
    terms found with them.
    """

    def __init__(self, message: str, terms: tuple[object, ...] = (),
                 contradictions: tuple[object, ...] = ()) -> None:
        super().__init__(message, terms)
        self.contradictions = contradictions


class QuoteNotFoundError(UsageError, LookupError):
    """A quote attached to an anchor does not occur in the anchored span."""


class UnsupportedFileError(UsageError):
    """A file that cannot be anchored: binary, too large or not decodable."""


class AnchorNotFoundError(MemvetError, LookupError):
    """A file, symbol or dependency named by an anchor does not exist."""


class UnknownDecisionError(MemvetError, KeyError):
    """No decision has that id in this namespace."""


class RepositoryError(MemvetError, OSError):
    """Git could not answer."""


class NotARepositoryError(RepositoryError):
    """No git repository at or above the given path."""


class EmptyRepositoryError(RepositoryError):
    """The repository has no commits yet."""


class UnknownRevisionError(RepositoryError, LookupError):
    """A revision does not resolve to a commit."""


class StoreError(MemvetError, RuntimeError):
    """The ledger's store failed; never reported as an empty memory."""


class StoreUnavailableError(StoreError, ConnectionError):
    """The store's server could not be reached."""


class AuthenticationError(StoreError, PermissionError):
    """The store's server refused the credentials (or their absence)."""


class LedgerLockedError(StoreError, TimeoutError):
    """Another process holds the write lock of a local ledger."""


class CorruptRecordError(StoreError):
    """A stored record could not be decoded.

    Attributes:
        record_id: The id of the record (a decision, receipt or journal
            entry); ``""`` when it is not known.
    """

    def __init__(self, message: str, record_id: str = "") -> None:
        super().__init__(message)
        self.record_id = record_id
