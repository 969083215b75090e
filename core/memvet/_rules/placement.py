"""placement: the claim says items are added at one end of a list; the code adds them at the other.

The claim's side: ``appends`` (``appended``, ``pushes``, ``adds ... to the
end``) or ``prepends`` (``inserts ... at the front``, ``at the start``,
``at the beginning``, ``at the head``, ``unshifts``), not negated in the
same clause and not naming both ends.

The code's side: the calls that put an item into a sequence. At the end:
``append``, ``push``, ``extend`` and Go's ``append(xs, x)``; at the front:
``insert(0, ...)``, ``unshift``, ``appendleft``, ``extendleft`` and Go's
``append([]T{x}, xs...)``.

Fires when the claim names one end and the anchored code adds items only
at the other, to a sequence the clause names (a word of the receiver's
name, or list, stack, queue, array, chain: "appends a slash" is about a
string, not a list) (it has a call of the other kind and none of the claimed
kind). Never fires when the code adds at both ends, at neither, or at
another position (``insert(i, ...)``). The first add into a sequence the
code made empty above it (``header_block = []`` then
``header_block.append(x)``) puts that item at the front: a claim that it
is prepended does not fire.

Rationale: "registered in order, so the first is outermost" is the natural
guess about a list of hooks or middleware; a library that prepends (so the
last registered wraps the others) is where the guess is wrong, and every
name in such a claim is real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule, singulars, split_name

__all__ = ["RULE"]

_END = re.compile(r"\b(?:append(?:s|ed|ing)?|push(?:es|ed|ing)?|add(?:s|ed)?\b[^,;]{0,30}?\bto the end)\b", re.I)
_FRONT = re.compile(r"\b(?:prepend(?:s|ed|ing)?|unshift(?:s|ed|ing)?|"
                    r"(?:insert(?:s|ed)?|add(?:s|ed)?|put(?:s)?|push(?:es|ed)?)\b[^,;]{0,30}?"
                    r"\bat the (?:front|start|beginning|head)|to the (?:front|start|beginning|head))\b", re.I)
_NEGATED = re.compile(r"\b(?:not|never|no longer|instead of|rather than)\b|n't\b", re.I)
_CODE_END = re.compile(r"\.\s*(?:append|push|extend)\s*\(|(?<![\w$.])append\s*\(\s*[A-Za-z_$][\w$.]*\s*,")
_CODE_FRONT = re.compile(r"\.\s*(?:insert\s*\(\s*0\s*,|unshift\s*\(|appendleft\s*\(|extendleft\s*\()"
                         r"|(?<![\w$.])append\s*\(\s*\[\][^{,]*\{")


def _negated(text: str, said: re.Match[str]) -> bool:
    """A negation in the words leading to the marker ("does not run them concurrently"), never one
    further on ("..., so a slow task does not delay the next")."""
    lead = re.split(r"[,;(]", text[:said.start()])[-1]
    return bool(_NEGATED.search(lead + said.group(0)))


def _named(clause: Clause, text: str, call: re.Pattern[str]) -> bool:
    """Whether the clause names the sequence the call adds to: a word of its
    receiver's name ("middleware" for ``self.user_middleware``), or a word
    for a sequence (list, stack, queue, array, chain)."""
    m = call.search(text)
    receiver = re.findall(r"[A-Za-z_$][\w$]*", text[:m.start()] if m else "")[-1:]
    parts = {f for name in receiver for p in split_name(name) for f in (p, *singulars(p))}
    parts |= {"list", "stack", "queue", "array", "chain"}
    return any(w.text.lower() in parts or any(s in parts for s in singulars(w.text.lower())) for w in clause.words)


def _onto_empty(code: Code, line: int) -> bool:
    """Whether the add on ``line`` is the first into a sequence the code made empty above it
    (``header_block = []`` then ``header_block.append(x)``): that item goes in at the front."""
    m = re.search(r"([A-Za-z_$][\w$]*)\s*\.\s*(?:append|push|extend)\s*\(", code.logical_text(line))
    if m is None:
        return False
    name = re.escape(m.group(1))
    made = re.compile(rf"^\s*(?:(?:let|var|const)\s+)?(?:mut\s+)?{name}\s*(?::[^=]*)?:?=\s*(?:\[\]|list\(\)"
                      rf"|Vec::new\(\)|vec!\[\]|new Array\(\)|\[\][\w.*]*\{{\}})\s*;?\s*$")
    added = re.compile(rf"(?<![\w$.]){name}\s*\.\s*(?:append|push|extend|insert|unshift)\s*\(")
    for i in range(line - 1, -1, -1):
        text = code.logical_text(i)
        if made.match(text):
            return True
        if added.search(text):
            return False
    return False


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    front = _FRONT.search(clause.text)
    end = None if front else _END.search(clause.text)  # "pushes it to the front" names the front
    said = front or end
    if said is None or _negated(clause.text, said) or re.search(r"\b(?:both ends|either end)\b", clause.text):
        return []
    claimed, other = (_CODE_END, _CODE_FRONT) if end else (_CODE_FRONT, _CODE_END)
    where = "at the end" if end else "at the front"
    out: list[Contradiction] = []
    for code in codes:
        hits = [i for i in code.lines_matching(other) if _named(clause, code.logical_text(i), other)]
        if front and any(_onto_empty(code, i) for i in hits):
            continue  # header_block = [] ... header_block.append(first): the first item is at the front
        if hits and not code.lines_matching(claimed):
            out.append(Contradiction(
                "placement", f"the claim says items are added {where} ({said.group(0)})",
                code.show(hits[0], "insert", "unshift", "appendleft", "append", "push", "extend"), code.label,
                (said.group(0),)))
    return out


RULE = Rule("placement", check, __doc__ or "")
