"""regardless: the claim says something holds even with a setting; the code branches on that setting.

The claim's side: ``even with K=V`` (``even when K is V``, ``even if K
...``, ``regardless of K``), where ``K`` is a keyword argument or a name
of the code.

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

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_EVEN = re.compile(r"\b(?:even\s+(?:with|when|if|for)|regardless\s+of)\s+(?:the\s+|a\s+|an\s+)?"
                   r"(?P<k>[A-Za-z_$][\w$]*)", re.I)


def _tested(code: Code, key: str) -> int | None:
    k = re.escape(key)
    name = rf"(?<![\w$.])(?:(?:self|this)\s*\.\s*)?{k}(?![\w$])"
    guard = re.compile(rf"^(?:\}}\s*)?(?:if|elif|else\s+if|while)\s*\(?\s*(?:not\s+|!\s*)?{name}"
                       rf"(?:\s+is\s+(?:not\s+)?None|\s*[!=]==?\s*\w+)?\s*\)?\s*[:{{]"
                       rf"|{name}\s*\?[^?.]|\bif\s+(?:not\s+)?{name}\s+else\b")
    return next(iter(code.lines_matching(guard)), None)


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _EVEN.finditer(clause.text):
        key = m.group("k")
        word = next((w for w in clause.words if w.start <= m.start("k") < w.end), None)
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
