"""Whole words in source text, found without a regular expression.

An expression like ``(?<![A-Za-z0-9_$])name(?![A-Za-z0-9_$])`` cannot use
the fast substring search (its look-behind is tried at every position of
the text): on a 5,000-decision sqlalchemy check such searches took 1.1 s of
the vanished-commit search alone. These functions find each word with
:meth:`bytes.find` and look at the characters on both sides. A word
character is a letter, a digit, ``_`` or ``$`` (JavaScript's too).
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["IDENT", "SPACE", "has_word", "lines_with", "occurrences"]

IDENT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")
SPACE = frozenset(b" \t\n\r\f\v")


def occurrences(data: bytes, words: list[bytes], call: bool = False) -> list[int]:
    """Offsets of ``words`` written as whole words in ``data`` (with
    ``call``, only those followed by ``(``, spaces between), word by word."""
    return list(_found(data, words, call))


def has_word(data: bytes, words: list[bytes]) -> bool:
    """Whether ``data`` writes one of ``words`` as a whole word."""
    return next(_found(data, words, False), None) is not None


def _found(data: bytes, words: list[bytes], call: bool) -> Iterator[int]:
    for word in words:
        at = data.find(word)
        while at >= 0:
            end = at + len(word)
            if (at == 0 or data[at - 1] not in IDENT) and (end == len(data) or data[end] not in IDENT):
                if call:
                    while end < len(data) and data[end] in SPACE:
                        end += 1
                if not call or data[end:end + 1] == b"(":
                    yield at
            at = data.find(word, at + 1)


def lines_with(data: bytes, words: list[bytes]) -> list[bytes]:
    """The lines of ``data`` (split at ``\\n``) naming one of ``words``, once each."""
    out: list[bytes] = []
    end = -1
    for at in sorted(occurrences(data, words)):
        if at <= end:
            continue  # another word on a line already taken
        start = data.rfind(b"\n", 0, at) + 1
        end = data.find(b"\n", at)
        if end < 0:
            end = len(data)
        out.append(data[start:end])
    return out
