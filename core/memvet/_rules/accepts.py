"""accepts: the claim says an input is rejected; the anchored code's own pattern takes it whole.

The claim's side: a quoted input ``S`` in a clause that says it fails:
"returns NaN", "is NaN", "is rejected", "throws", "raises", "fails",
"is invalid", "doesn't parse", "won't match", "is not accepted" ("'1H'
or '2 Days' return NaN, only lowercase works").

The code's side: a regular expression of the anchored code that must
match a whole input (anchored at both ends, ``^...$``, or handed to
``re.fullmatch``; see :func:`memvet._claims.anchored_patterns`) matches
all of ``S``, as the code compiles it (``/.../i`` ignores case).

Never fires on an input the clause says works, parses or is accepted
(without a negation), on a value inside an example's brackets (``new
Request(url, {method: 'GET', body: 'x'})`` throws: the call does), on a pattern that is not anchored (a search for
``\\d`` matches most text), nor when no pattern of the code matches ``S``.

Rationale: a parser's pattern is the code's own statement of what input
it takes, and a false note about a parser typically says that a form the
pattern spells out (a case, a spacing, a sign) is refused. The pattern
taking ``S`` is positive evidence; the code may still refuse ``S`` after
matching it (a unit the switch does not know), so this is a finding, not
a certainty.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import anchored_patterns
from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

#: A quoted input: '1H', "2 Days" (a quote inside a word, "doesn't", opens none).
_QUOTED = re.compile(r"(?<![\w'\"])(['\"])([^'\"\n]+)\1(?![\w'\"])")
_REFUSED = re.compile(
    r"\b(?:(?:is|are|gives?|returns?|yields?)\s+(?:a\s+)?NaN|NaN\b|(?:is|are|gets?)\s+rejected|rejects?|throws?|raises?"
    r"|fails?\b|(?:is|are)\s+invalid|(?:is|are)\s+not\s+(?:valid|accepted|parsed|allowed|supported|matched)"
    r"|(?:doesn't|does not|don't|do not|won't|will not|can't|cannot|never)\s+(?:parse|match|work|be parsed|pass))",
    re.I)


def _inside_brackets(text: str, at: int) -> bool:
    """Whether ``at`` is inside brackets of ``text``: a value of an example's
    call or object (``new Request(url, {method: 'GET', body: 'x'})``), not the
    input the clause says is refused."""
    before = text[:at]
    return any(before.count(o) > before.count(c) for o, c in ("()", "{}", "[]"))


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    said = _REFUSED.search(clause.text)
    if said is None:
        return []
    out: list[Contradiction] = []
    inputs = [m.group(2) for m in _QUOTED.finditer(clause.text) if not clause.skip(m.group(2))
              and not _inside_brackets(clause.text, m.start())]
    for code in codes:
        for index in range(len(code.logical)):
            patterns = anchored_patterns(code.logical_text(index))
            for text in inputs:
                if any(p.fullmatch(text) for p in patterns):
                    out.append(Contradiction(
                        "accepts", f"the claim says '{text}' {said.group(0).strip()}; the code's pattern takes it",
                        code.show(index), code.label, (text,)))
    return out


RULE = Rule("accepts", check, __doc__ or "")
