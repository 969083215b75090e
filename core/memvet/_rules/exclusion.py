"""exclusion: the claim says a key given in some input takes effect; the code skips exactly that key.

The claim's side: ``K given in S`` (``passed``, ``set``, ``provided``,
``supplied``, ``specified`` ... ``in``, ``via``, ``through``, ``with``)
followed by a verb of effect (``overrides``, ``wins``, ``takes
precedence``, ``replaces``, ``is used``, ``is kept``, ``is honoured``,
``is respected``, ``applies``): "a Content-Disposition given in
options.headers overrides the generated one".

The code's side: a test that leaves ``K`` out while copying from ``S``:
``if (key.toLowerCase() !== 'content-disposition') headers[key] = ...``
(``!=``, ``!==``, ``not in``), or ``if key == 'k': continue``, with ``S``
named within three statements of the test (the loop over its keys).

Fires when such a test exists for ``K`` (compared without case, dashes
or underscores). Never fires on a test that keeps ``K`` (``===`` with an
assignment), nor when the test is far from ``S``.

Rationale: "what the user passes wins" is the natural guess about an
options merge, and the one key a library protects is where the guess is
wrong; the names are all real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import STRING, Clause, Code, Contradiction, Rule, fold, nearest

__all__ = ["RULE"]

_GIVEN = re.compile(r"\b(?:given|passed|set|provided|supplied|specified|sent|included)\s+(?:in|via|through|with|"
                    r"as part of|inside)\b")
_EFFECT = re.compile(r"\b(?:overrides?|wins?|takes? precedence|replaces?|(?:is|are) (?:used|kept|honou?red|"
                     r"respected|applied|preserved|passed through)|applies|survives?)\b")
_KEY = re.compile(rf"(?:{STRING})|[\w$]+(?:-[\w$]+)+|[A-Za-z_$][\w$]*")


def _skips(code: Code, key: str, source: str) -> int | None:
    """The line of a test that leaves ``key`` out near a use of ``source``."""
    near = {a.line for a in code.atoms if a.text == source}
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        if not re.match(r"(?:\}\s*)?(?:if|elif|else\s+if)\b", text):
            continue
        for m in re.finditer(STRING, text):
            if fold(m.group(0)[1:-1]) != key:
                continue
            before, after = text[:m.start()], text[m.end():]
            excluded = bool(re.search(r"(?:!==?|\bnot in)\s*$", before) or re.match(r"\s*!==?", after))
            skipped = bool(re.search(r"(?:===?|\bin)\s*$", before) or re.match(r"\s*===?", after)) and bool(
                re.search(r"\b(?:continue|return)\b", " ".join(code.logical_text(j) for j in code.block(index))
                          or text))
            if (excluded or skipped) and any(abs(index - n) <= 3 for n in near):
                return index
    return None


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _GIVEN.finditer(clause.text):
        effect = _EFFECT.search(clause.text, m.end())
        keys = list(_KEY.finditer(clause.text, 0, m.start()))
        if effect is None or not keys:
            continue
        key = keys[-1].group(0).strip("'\"")
        if clause.skip(key):
            continue
        for code in codes:
            hit = nearest(clause, m.end(), 1, code, reach=3)
            if hit is None or hit[0].end > effect.start():
                continue
            line = _skips(code, fold(key), hit[1])
            if line is not None:
                out.append(Contradiction(
                    "exclusion", f"the claim says `{key}` {m.group(0)} `{hit[0].text}` {effect.group(0)}; "
                    "the code leaves that key out", code.show(line, "!=", "not in", "continue"), code.label,
                    (key, hit[0].text)))
    return out


RULE = Rule("exclusion", check, __doc__ or "")
