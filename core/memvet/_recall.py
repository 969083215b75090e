"""The retrieval rule: verified candidates in three groups, framed in band.

The framing is part of the text an agent reads, not only metadata, so a
rejected approach can never be mistaken for a recommendation even by a
consumer that drops metadata.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memvet import _text
from memvet._errors import UsageError
from memvet._model import Decision, Recall, RecallGroup, RecallItem, Status, Verdict

__all__ = ["GROUPS", "check_groups", "check_include", "evidence_note", "frame", "group_recall", "render_blocks"]

#: The recall groups, in the order they are served and rendered.
GROUPS: tuple[RecallGroup, ...] = tuple(RecallGroup)

#: Block titles used by the agent adapters (LangChain middleware, LlamaIndex block).
BLOCK_TITLES = {
    "current": "Current decisions (verified against the code)",
    "caution": "Verify before relying (the evidence drifted or is missing)",
    "history": "Previously tried and rejected, superseded or contradicted (do not repeat)",
}


def check_groups(include: Iterable[str] | str) -> tuple[RecallGroup, ...]:
    """A selection of recall groups, validated, in the caller's order and
    without repeats; one string is one group. The one rule every entry
    point (the ledger, the CLI, the adapters) applies.

    Raises:
        UsageError: An unknown group, a non-string, or no group at all
            (a ``ValueError``, which pydantic validators turn into their own).
    """
    if isinstance(include, str):
        include = (include,)
    try:
        names = tuple(dict.fromkeys(include))
    except TypeError:
        raise UsageError(f"include must be a group name or a list of them, got {include!r}") from None
    known = {g.value: g for g in RecallGroup}
    unknown = [g for g in names if not isinstance(g, str) or g not in known]
    if unknown:
        raise UsageError(f"unknown recall group(s) {', '.join(map(repr, unknown))}; choose from "
                         f"{', '.join(GROUPS)}")
    if not names:
        raise UsageError(f"include at least one recall group of {', '.join(GROUPS)}")
    return tuple(dict.fromkeys(known[g] for g in names))


#: The name the ledger's own modules use.
check_include = check_groups


def evidence_note(decision: Decision, *, quotes: bool = True) -> str:
    """What a served claim rests on, in band: its quotes (`` (evidence:
    `popitem(last=False)` in LRU.put)``) and the terms its writer declared
    unbound (`` (not in its evidence: `x`)``); ``""`` when neither."""
    parts = []
    if quotes:
        quoted = [f"`{' '.join(a.quote.split())}` in {a.name or a.path}" for a in decision.anchors if a.quote]
        if quoted:
            parts.append("evidence: " + ", ".join(quoted))
    if decision.unbound:
        parts.append("not in its evidence: " + ", ".join(f"`{t}`" for t in decision.unbound))
    return f" ({'; '.join(parts)})" if parts else ""


def frame(verdict: Verdict) -> str:
    """The framed one-line text of a verdict, as an agent should read it.

    One line indeed: control sequences are removed and a line break inside
    the claim or reason shows as ``⏎`` (see :mod:`memvet._text`), so a
    stored reason cannot forge a line of the block an agent or a terminal
    is given (``- [abc] current: ...``).
    """
    return _text.one_line(_frame(verdict))


def _frame(verdict: Verdict) -> str:
    claim = verdict.decision.claim
    reason = verdict.reason
    status = verdict.status
    if status is Status.VERIFIED:
        return claim + evidence_note(verdict.decision)
    claim += evidence_note(verdict.decision, quotes=False)
    if status is Status.PROPOSED:
        return f"proposed, not yet reviewed: {claim}"
    if status is Status.UNANCHORED:
        return f"unconfirmed, no evidence in the code: {claim}"
    if status is Status.NEEDS_REVALIDATION:
        return f"needs revalidation ({reason}): {claim}"
    if status is Status.STALE:
        return f"stale, the evidence it rested on was rewritten ({reason}): {claim}"
    if status is Status.REFUTED:
        return f"contradicted by the code: {reason} (was: {claim})"
    if status is Status.SUPERSEDED:
        return f"{reason} (was: {claim})"  # reason reads "superseded by <id>: <why>"
    return f"previously tried, rejected: {reason} (was: {claim})"


def group_recall(query: str, target: str, scored: Sequence[tuple[Verdict, float]], k: int,
                 include: Iterable[str] = GROUPS) -> Recall:
    """The ``k`` nearest verified candidates of the included groups, grouped."""
    wanted = set(include)
    unknown = wanted - set(GROUPS)
    if unknown:
        raise ValueError(f"unknown recall group(s): {', '.join(sorted(unknown))}")
    picked = [(v, s) for v, s in scored if v.status.group in wanted][: max(k, 0)]
    groups: dict[RecallGroup, list[RecallItem]] = {g: [] for g in GROUPS}
    for verdict, score in picked:
        item = RecallItem(
            id=verdict.decision.id, claim=verdict.decision.claim, status=verdict.status,
            reason=verdict.reason, score=score, text=frame(verdict), verdict=verdict,
        )
        groups[verdict.status.group].append(item)
    return Recall(query, target, tuple(groups[RecallGroup.CURRENT]), tuple(groups[RecallGroup.CAUTION]),
                  tuple(groups[RecallGroup.HISTORY]))


def render_blocks(recall: Recall, *, max_chars: int | None = None) -> str:
    """The three labelled blocks an agent's system prompt receives.

    Args:
        recall: What was recalled.
        max_chars: Budget for the whole text (about 4 characters a token);
            items that do not fit are left out from the end of each block,
            and a last line says how many.
    """
    lines: list[str] = []
    dropped = 0
    used = 0
    for group in GROUPS:
        items = getattr(recall, group)
        if not items:
            continue
        title = f"## {BLOCK_TITLES[group]}"
        if max_chars is not None and used + len(title) + 1 > max_chars:
            dropped += len(items)
            continue
        lines.append(title)
        used += len(title) + 1
        for item in items:
            line = f"- [{_text.one_line(item.id)}] {item.text}"
            if max_chars is not None and used + len(line) + 1 > max_chars:
                dropped += 1
                continue
            lines.append(line)
            used += len(line) + 1
    if dropped:
        lines.append(f"({dropped} more decision{'s' if dropped != 1 else ''} left out for the token budget)")
    return "\n".join(lines)
