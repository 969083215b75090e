"""Recall filters (tags, anchored paths) that never turn a query into a scan.

In Chroma 1.5.9 a ``where`` clause that matches most records turns the HNSW
query into a brute-force scan (100k records: 2.5 ms plain, 340 ms with a
filter matching everything). A ``where`` clause that matches few records is
cheap: Chroma scores just those. So a filtered recall works in two steps:

1. over-fetch from the plain vector query and filter in Python (a broad
   filter finds its ``k`` within the first fetches);
2. when a plain fetch of at least :data:`PLAIN_LIMIT` candidates holds
   fewer than ``k`` matches, under 1% of them, the filter is selective
   around this query. If it matches at most :data:`SELECTIVE_LIMIT` records
   in all, they are fetched with a ``get`` and ranked by cosine similarity
   here (a Chroma ``query`` with a ``where`` is no shortcut for them: at
   100k records it took 200-480 ms even for a clause matching 50 records,
   against 12-18 ms for the ``get``);
3. if it matches more (a broad filter that misses this query's
   neighbourhood), widening the plain query could reach the whole
   namespace, so Chroma's own ``where`` query answers: a bounded scan, the
   worst case, and only in this case.

The Python predicate is the rule; the ``where`` clause only narrows what
Chroma returns (and is built from the metadata :mod:`memvet._codec` writes:
``tags``, ``anchor_paths`` and ``anchor_dirs``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from memvet._errors import UsageError
from memvet._model import Decision

__all__ = ["PLAIN_LIMIT", "SELECTIVE_LIMIT", "TOOL_MAX_K", "RecallFilter", "as_names", "check_k", "check_tool_k",
           "make_filter"]

#: The plain over-fetch from which a filtered recall may call its filter
#: selective (see the module docstring).
PLAIN_LIMIT = 80

#: The most matches of a selective filter that are fetched and ranked in Python.
SELECTIVE_LIMIT = 2000


def as_names(value: Any, what: str) -> tuple[str, ...]:
    """``None`` → ``()``, one string → one name, an iterable of strings → those.

    A string is one name, never its characters.

    Raises:
        UsageError: Something else, or an empty name.
    """
    if value is None:
        return ()
    if isinstance(value, str):
        value = (value,)
    elif isinstance(value, (bytes, dict)) or not isinstance(value, Iterable):
        raise UsageError(f"{what} must be a string or a list of strings, got {type(value).__name__}")
    out: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise UsageError(f"{what} must be strings, got {type(item).__name__} {item!r}")
        if not item.strip():
            raise UsageError(f"{what} must not be empty strings")
        out.append(item.strip())
    return tuple(dict.fromkeys(out))


#: The most decisions one recall returns (Chroma overflows far above it,
#: and no prompt holds more).
MAX_K = 10_000


def check_k(k: Any, what: str = "k", *, zero: bool = True) -> int:
    """``k`` as a count, or a UsageError naming it.

    Args:
        k: The value given.
        what: Its name in the message.
        zero: Whether 0 is allowed.
    """
    if isinstance(k, bool) or not isinstance(k, int):
        raise UsageError(f"{what} must be a whole number, got {type(k).__name__} {k!r}")
    if k < 0 or (k == 0 and not zero):
        raise UsageError(f"{what} must be {'zero or more' if zero else 'at least 1'}, got {k}")
    if k > MAX_K:
        raise UsageError(f"{what} must be at most {MAX_K:,}, got {k:,}")
    return k


#: The most decisions an agent's recall tool returns (MCP, LangChain,
#: LlamaIndex): a prompt holds no more.
TOOL_MAX_K = 50


def check_tool_k(k: Any, what: str = "k") -> int:
    """``k`` of an agent's recall tool: a whole number from 1 to
    :data:`TOOL_MAX_K`, else a UsageError with the same message in every
    adapter (0 is refused: it would answer "nothing recorded")."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= TOOL_MAX_K:
        raise UsageError(f"{what} must be a whole number from 1 to {TOOL_MAX_K}, got {k!r}")
    return k


def _norm_path(path: str) -> str:
    text = path.strip().replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    text = text.rstrip("/")
    if not text or text == ".":
        raise UsageError(f"path filter {path!r} names no file or folder; give a repository-relative path")
    if text == ".." or text.startswith(("/", "../")):
        raise UsageError(f"path filter {path!r} must be relative to the repository root")
    return text


@dataclass(frozen=True)
class RecallFilter:
    """Which decisions a recall may return.

    Attributes:
        tags: Any of these tags (empty: no tag condition).
        paths: Anchored at or under any of these repository-relative paths
            (empty: no path condition).
    """

    tags: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()

    def matches(self, decision: Decision) -> bool:
        """True when ``decision`` passes every given condition."""
        if self.tags and not set(self.tags) & set(decision.tags):
            return False
        if self.paths:
            anchored = [a.path for a in decision.anchors if a.path]
            return any(p == q or p.startswith(q + "/") for p in anchored for q in self.paths)
        return True

    def where(self) -> dict[str, Any]:
        """The same conditions as a Chroma ``where`` clause."""
        clauses: list[dict[str, Any]] = []
        for values in ([("tags", t) for t in self.tags],
                       [(k, p) for p in self.paths for k in ("anchor_paths", "anchor_dirs")]):
            ors = [{k: {"$contains": v}} for k, v in values]
            if ors:
                clauses.append(ors[0] if len(ors) == 1 else {"$or": ors})
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def make_filter(tags: Any = None, paths: Any = None) -> RecallFilter | None:
    """A filter from user values (see :func:`as_names`); ``None`` when empty."""
    tag_names = as_names(tags, "tags")
    path_names = tuple(dict.fromkeys(_norm_path(p) for p in as_names(paths, "paths")))
    if not tag_names and not path_names:
        return None
    return RecallFilter(tag_names, path_names)
