"""regardless: the claim says something holds even with a setting; the code branches on that setting.

The claim's side: ``even with K=V`` (``even when K is V``, ``even if K
...``, ``regardless of K``), where ``K`` is a keyword argument or a name
of the code; or ``regardless of W1 W2`` (two or three words, the last
ending the clause: "regardless of HTTP version"), a setting named in
prose, whose words folded together (``httpversion``) start a name an
``if``-like line of the code tests (``req.httpVersionMajor < 2``). Words
like ``what``, ``whether``, ``order`` make it no setting.

The code's side: a test of ``K`` itself: ``if K:``, ``if not K:``, ``if
(K)``, ``if (!K)``, ``if K is None``, ``elif K ...``, ``K ? ... : ...``,
``... if K else ...``.

Fires when the anchored code tests ``K``: "X happens even with K=V" says
X does not depend on ``K``, and the code makes something depend on it.
Never fires on a ``K`` the code does not test, nor without ``even`` or
``regardless``.

Rationale: "even with stream=True the body is downloaded" is how a claim
waves away the one flag that changes the behaviour; the flag is real, so
only its use in a branch tells the claim false.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule, fold

__all__ = ["RULE"]

_EVEN = re.compile(r"\b(?:even\s+(?:with|when|if|for)|regardless\s+of)\s+(?:the\s+|a\s+|an\s+)?"
                   r"(?P<k>[A-Za-z_$][\w$]*)", re.I)


#: The head of a line that branches: ``if``, ``elif``, ``} else if``, ``while``.
_BRANCH = r"^(?:\}\s*)?(?:if|elif|else\s+if|while)"
_BRANCH_HEAD = re.compile(_BRANCH + r"\b")


def _tested(code: Code, key: str) -> int | None:
    k = re.escape(key)
    name = rf"(?<![\w$.])(?:(?:self|this)\s*\.\s*)?{k}(?![\w$])"
    guard = re.compile(rf"{_BRANCH}\s*\(?\s*(?:not\s+|!\s*)?{name}"
                       rf"(?:\s+is\s+(?:not\s+)?None|\s*[!=]==?\s*\w+)?\s*\)?\s*[:{{]"
                       rf"|{name}\s*\?[^?.]|\bif\s+(?:not\s+)?{name}\s+else\b")
    return next(iter(code.lines_matching(guard)), None)


#: "regardless of HTTP version": a setting named in prose, two or three words, the code's name for it
#: folded from them (``httpVersionMajor``).
_REGARDLESS_PROSE = re.compile(r"\bregardless\s+of\s+(?:the\s+|its\s+|their\s+)?"
                               r"(?P<k>[A-Za-z][A-Za-z0-9]*(?:\s+[A-Za-z][A-Za-z0-9]*){1,2})(?=\s*(?:[,;.)]|$))", re.I)


def _tested_folded(code: Code, folded: str) -> tuple[int, str] | None:
    """The first ``if``-like line whose condition tests a name that folds to ``folded`` or starts
    with it (``req.httpVersionMajor < 2`` for "HTTP version"), and that name."""
    for index in code.lines_matching(_BRANCH_HEAD):
        for name in re.findall(r"[A-Za-z_$][\w$]*", code.logical_text(index)):
            if fold(name).startswith(folded):
                return index, name
    return None


def _prose_setting(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"... regardless of HTTP version": the code branches on a name those words fold to."""
    m = _REGARDLESS_PROSE.search(clause.text)
    if m is None or clause.quoted(m.start()):
        return []
    words = m.group("k").split()
    if any(w.lower() in _NOT_A_SETTING for w in words):
        return []
    folded = fold("".join(words))
    for code in codes:
        found = _tested_folded(code, folded)
        if found is not None:
            return [Contradiction("regardless", f"the claim says it holds {' '.join(m.group(0).split())}",
                                  code.show(found[0], found[1]), code.label, (m.group("k"),))]
    return []


#: Words that make "regardless of ..." something other than a setting's name.
_NOT_A_SETTING = frozenset({"what", "whether", "how", "which", "who", "where", "when", "order", "any", "all", "and",
                            "or", "is", "was", "are", "the", "a", "an", "of", "it", "its", "this", "that"})


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = _prose_setting(clause, codes)
    for m in _EVEN.finditer(clause.text):
        key = m.group("k")
        word = clause.word_at(m.start("k"))
        if word is None or word.term is None or clause.skip(key, word.text) or len(key) < 3:
            continue  # a prose word ("even when the request fails") is not a setting
        for code in codes:
            if key not in code.names:
                continue
            line = _tested(code, key)
            if line is not None:
                out.append(Contradiction(
                    "regardless", f"the claim says it holds {' '.join(clause.text[m.start():word.end].split())}",
                    code.show(line, key), code.label, (key,)))
    return out


RULE = Rule("regardless", check, __doc__ or "")
