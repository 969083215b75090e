"""mechanism: the claim says the code keeps a cache or retries with a backoff; no anchored code has one.

Some memories are of a mechanism, not of a value: "memoized in a small LRU
keyed by the input string", "3 retries with exponential backoff". A library
that was fast or patient somewhere else is remembered that way of this one.
Every term of such a claim may bind (the function is real, so is its
input), so the binding never doubts it; the mechanism is what is wrong.

The claim's side, for each mechanism:

- a cache: an LRU the code is said to keep ("a small LRU", "an LRU cache";
  not "the LRU-cache trick", a likeness), or a word of caching
  (``memoizes``, ``memoised``, ``caches``, ``cached``, ``cache``) with its
  key in the same part of the sentence: "keyed by the raw header string",
  "keyed on the path", "per cwd", "per (word, candidate) pair", before it or
  after it. "per second" or "per request" is a rate or a lifetime, not a
  key, and is not read; nor is a value "cached in `_isSocketSupported`"
  without a key (one value kept in a variable);
- a backoff: ``backoff`` (``back-off``, "backs off"), ``jitter``,
  "exponential backoff (retries, delays, waits)", "3 retries", "retries up
  to 3 times". "backing off one char" is a step back, not a wait, and is not
  read.

The code's side: the code of every anchor (symbols and files; manifests and
dependencies are not code), comments and docstrings left out. The mechanism
is there when a name, a word of a name or a string says it in any case, or
the anchor's own name does (``Cache.__setitem__``, ``cache.go``): ``cache``,
``memo`` or ``lru`` for a cache (``_CACHE``, ``simplelru``,
``queryCache``); ``retr``, ``attempt``, ``tries``, ``backoff``,
``jitter`` or ``exponential`` for a backoff (``retryDelay``,
``maxAttempts``).

Fires when the claim says the anchored code has a mechanism and none of its
anchored code says it. Like ``calls``, this reads an absence: its finding
is a doubt that keeps the claim unconfirmed, never a certainty. Never fires
on a claim without code anchors, nor on a word the writer declared unbound,
nor on a claim that denies the mechanism ("nothing is cached", "doesn't
retry", "no backoff"): that is the negation's business.

Rationale: "Parsed Accept headers are memoized in a small LRU cache keyed by
the raw header string", anchored on a negotiator that parses the header on
every call, and "fetch gen: 3 retries with exponential backoff before the
block turns into a comment", anchored on a generator that fetches once,
name only real code. A reader who trusts either counts on a cache or a
retry the code never had.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_CACHING = r"\b(?:memoi[sz](?:e|es|ed|ing|ation)|cach(?:e|es|ed|ing))\b"
_KEY = r"\b(?:keyed\s+(?:by|on)|per\s+(?!(?:second|minute|hour|day|request|call|process)\b)\(?[\w$`'\"])"

#: Each mechanism: its name, what says the claim has it, what says the code has it (a name, a part or a string).
_MECHANISMS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    ("a cache",
     re.compile(rf"\b(?:an?|small|bounded)\s+(?:[\w-]+\s+){{0,2}}?LRU\b|{_CACHING}[^.;:]{{0,60}}?{_KEY}"
                rf"|{_KEY}[^.;:]{{0,40}}?{_CACHING}", re.I),
     re.compile(r"cach|memo|lru", re.I)),
    ("a backoff",
     re.compile(r"\bback-?off\b|\bbacks\s+off\b|\bjitter\b|\bexponential(?:ly)?\s+(?:retr\w*|delays?|waits?)\b"
                r"|\b\d+\s+retries\b|\bretr(?:y|ies|ied)\s+(?:up\s+to\s+)?\d+\s+times\b", re.I),
     re.compile(r"retr|attempt|tries|back_?off|jitter|exponential", re.I)),
)
#: The claim denies the mechanism.
_DENIED = re.compile(r"\b(?:no|not|never|nothing|without|isn't|aren't|doesn't|don't|won't|neither|nor)\b"
                     r"[^.;:]{0,30}$", re.I)


def _says(code: Code, pattern: re.Pattern[str]) -> bool:
    return pattern.search(code.label) is not None or any(pattern.search(name) for name in code.names)


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    if not codes:
        return out
    for mechanism, said_by, code_by in _MECHANISMS:
        for m in said_by.finditer(clause.text):
            said = m.group(0).strip()
            if _DENIED.search(clause.text[:m.start()]) or clause.skip(*re.findall(r"[\w$]+", said)):
                continue
            if not any(_says(code, code_by) for code in codes):
                out.append(Contradiction("mechanism", f"the claim says the code keeps {mechanism} (`{said}`)", "",
                                         ", ".join(code.label for code in codes), (said,)))
            break
    return out


RULE = Rule("mechanism", check, __doc__ or "")
