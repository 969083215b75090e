"""direction: the claim says which end of a sequence comes out first; the code's walk gives the other.

The claim's side, one direction named in a clause and not negated in the
words leading to it: last-added first is ``LIFO``, ``in reverse``,
``reverse order``, ``backwards``, ``back to front``, ``newest first`` and
"the most recently (last) added (registered, pushed, inserted, queued) ...
first"; first-added first is ``FIFO``, ``front to back``, ``in insertion
(registration) order``, "in the order they were added (registered,
queued, inserted)", "from index 0" and "first registered, first called".
A clause naming both says nothing ("registration order: chain() wraps ...
and works backwards").

The code's side, comments and strings left out, on lines that name the
sequence the clause names (a word part of one of their identifiers:
``beforeFuncs`` for "Before() hooks"): a walk backwards reverses once
(``.rev()``, ``reversed(``, ``.reverse()``, ``[::-1]``, ``reduceRight``)
or counts down in a loop header (``for i := len(xs) - 1; i >= 0; i--``);
a walk forwards counts up or loops over the sequence as it stands (``for x
in xs``, ``for _, x := range xs``, ``for (const x of xs)``,
``.forEach(``). An add at the front (``unshift``, ``insert(0, ...)``,
``appendleft``, ``extendleft``, ``push_front``, Go's ``append([]T{x},
xs...)``) turns a walk's direction round; an add at the end (``push``,
``append``) does not. Two reversals on one line undo each other:
``extendleft(reversed(items))`` adds the items in their order.

Fires when the walk, with the adds, gives the other end first. Never fires
on code with no walk, on code that walks both ways or adds at both ends, on
code that sorts (the order is the sort's: lumberjack's ``oldLogFiles``
loops forwards, then sorts newest first), on a negated direction ("no
reverse scan" says nothing), nor on a name the writer declared unbound.

Rationale: LIFO or FIFO is what a reader acts on when registering hooks or
callbacks (which one runs first), and it is the detail people state from
memory of another library: negroni's ``Before`` hooks run last-registered
first, on-finished's queue runs in the order it was filled. Every name in
such a claim is real; only the loop's direction tells it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule, mask_strings, singulars, split_name
from memvet._rules.placement import _CODE_END, _CODE_FRONT

__all__ = ["RULE"]

_ADDED = r"(?:added|registered|pushed|inserted|queued|attached|enqueued)"
_BACKWARD = re.compile(
    r"\bLIFO\b|\bin\s+reverse\b|\breverse\s+order\b|\bbackwards?\b|\bback\s+to\s+front\b|\bnewest\s+first\b"
    rf"|\b(?:most\s+recently|last)[\s-]+{_ADDED}\b[^,;.]{{0,40}}?\bfirst\b")
_FORWARD = re.compile(
    r"\bFIFO\b|\bfront\s+to\s+back\b|\bin\s+(?:insertion|registration)\s+order\b|\bfrom\s+index\s+0\b"
    rf"|\bin\s+the\s+order\s+(?:they|it)\s+(?:were|was|are|is)\s+{_ADDED}\b"
    rf"|\bfirst[\s-]+{_ADDED}\b[^;.]{{0,20}}?\bfirst\b")
_NEGATED = re.compile(r"\b(?:not|never|no|nor|unlike|instead\s+of|rather\s+than)\b|n't\b", re.I)

#: What reverses a walk: two on one line undo each other.
_REVERSES = re.compile(r"\.\s*rev\s*\(\s*\)|\breversed\s*\(|\.\s*reverse\s*\(\s*\)|\[\s*::\s*-1\s*\]"
                       r"|\.\s*reduceRight\s*\(")
#: A loop header counting down (``i--``, ``i -= 1``, ``range(n - 1, -1, -1)``) or up (``i++``, ``i += 1``).
_HEAD = r"^\s*(?:\}\s*)?for\b[^{]*;[^;{]*;\s*"  # a C-style loop header up to its step
_COUNT_DOWN = re.compile(rf"{_HEAD}(?:[A-Za-z_$][\w$]*\s*--|--\s*[A-Za-z_$]|[A-Za-z_$][\w$]*\s*-=\s*1\b)"
                         r"|^\s*for\b.*\brange\s*\([^()]*,\s*-1\s*,\s*-1\s*\)")
_COUNT_UP = re.compile(rf"{_HEAD}(?:[A-Za-z_$][\w$]*\s*\+\+|\+\+\s*[A-Za-z_$]|[A-Za-z_$][\w$]*\s*\+=\s*1\b)")
#: A walk over a sequence as it stands.
_IN_ORDER = re.compile(r"^\s*(?:\}\s*)?for\s*\(?\s*(?:const|let|var)?\s*[\w$, ()\[\]&*]+\s+(?:of|in)\s+\S"
                       r"|^\s*(?:\}\s*)?for\s+[\w, ]+:?=\s*range\b|\.\s*forEach\s*\(")
#: Adding an item at the front of a sequence, and at its end: the placement rule's calls, and Rust's deque ones.
_ADD_FRONT = re.compile(rf"{_CODE_FRONT.pattern}|\.\s*push_front\s*\(")
_ADD_END = re.compile(rf"{_CODE_END.pattern}|\.\s*push_back\s*\(")


#: A sort: the order it gives is no direction of a walk (``sort.Sort(byFormatTime(files))``, ``sorted(xs)``).
_SORTS = re.compile(r"(?<![\w$])(?:sort|sorted|sort_by|sort_by_key|sort_unstable\w*|toSorted|Sort\w*)\s*\(")
#: Words of a loop, never the sequence it walks.
_STOP = frozenset({"for", "range", "len", "length", "let", "var", "const", "iter", "rev", "reversed", "reverse",
                   "each", "the", "and", "item", "items", "index"})


class _Walks:
    """The lines of the anchored code that walk a sequence backwards or forwards and that add to one at
    its front or its end (an add whose items are reversed on the same line counts for the other end)."""

    def __init__(self, codes: Sequence[Code], words: set[str]) -> None:
        self.words = words
        self.back: list[tuple[Code, int]] = []
        self.forth: list[tuple[Code, int]] = []
        self.front: list[tuple[Code, int]] = []
        self.end: list[tuple[Code, int]] = []
        self.sorts = any(code.lines_matching(_SORTS) for code in codes)
        for code in codes:
            for index in range(len(code.logical)):
                if index not in code.headers:
                    self._read(code, index)

    def _read(self, code: Code, index: int) -> None:
        text = mask_strings(code.logical_text(index))
        if not self._named(text):
            return
        flips = len(_REVERSES.findall(text)) % 2
        front, end = _ADD_FRONT.search(text), _ADD_END.search(text)
        if front or end:
            if not (front and end):
                (self.front if bool(front) != bool(flips) else self.end).append((code, index))
            return
        if _COUNT_DOWN.search(text):
            flips ^= 1
        if flips:
            self.back.append((code, index))
        elif _REVERSES.search(text) or _COUNT_UP.search(text) or _IN_ORDER.search(text):
            self.forth.append((code, index))

    def _named(self, text: str) -> bool:
        """Whether the line names a sequence the clause names (a word part of one of its identifiers)."""
        names = re.findall(r"[A-Za-z_$][\w$]*", text)
        return any(f in self.words for name in names for p in split_name(name) if len(p) > 2
                   for f in (p, *singulars(p)))

    def order(self) -> tuple[bool, Code, int] | None:
        """Whether the sequence comes out last-added first, and a line that says so; None when the
        code walks both ways, not at all, adds at both ends or sorts (the order is the sort's)."""
        if bool(self.back) == bool(self.forth) or (self.front and self.end) or self.sorts:
            return None
        walk = self.back or self.forth
        code, index = walk[0]
        return bool(self.back) != bool(self.front), code, index


def _said(clause: Clause) -> tuple[re.Match[str], bool] | None:
    """The one direction the clause names, not negated, with True for backwards."""
    back = [m for m in _BACKWARD.finditer(clause.text) if not clause.quoted(m.start())]
    forth = [m for m in _FORWARD.finditer(clause.text) if not clause.quoted(m.start())]
    if bool(back) == bool(forth):
        return None
    m = (back or forth)[0]
    lead = re.split(r"[,;(:]|\s[-\u2013\u2014]+\s", clause.text[:m.start()])[-1]
    if _NEGATED.search(lead + m.group(0)):
        return None
    return m, bool(back)


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    said = _said(clause)
    if said is None or clause.skip(said[0].group(0)):
        return []
    m, backwards = said
    words = {f for w in clause.words for p in split_name(w.text) for f in (p.lower(), *singulars(p.lower()))}
    order = _Walks(codes, words - _STOP).order()
    if order is None or order[0] == backwards:
        return []
    _, code, index = order
    way = "last-added first" if backwards else "first-added first"
    return [Contradiction("direction", f"the claim says the items come out {way} ({m.group(0)})",
                          code.show(index), code.label, ())]


RULE = Rule("direction", check, __doc__ or "")
