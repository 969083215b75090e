"""retention: the claim says a key is always kept; the code deletes exactly that key.

The claim's side: a name ``K`` (a header, a key, an attribute) followed
within four words by ``is kept`` (``preserved``, ``retained``, ``left
intact``/``untouched``/``in place``, ``passed on``/``through``,
``survives``, ``stays``), in a clause that says it holds everywhere
(``every``, ``always``, ``all``, ``any``, ``regardless``, ``even``,
``also``, ``in all cases``) and not negated before the verb.

The code's side: a statement that removes ``K``: ``del x["K"]``,
``del x.K``, ``delete x["K"]``, ``delete x.K``, ``x.pop("K")``,
``x.remove("K")``, ``x.delete("K")``, ``removeHeader("K")`` (a string key
compared without case).

Fires when the anchored code removes ``K`` anywhere: "kept on every
redirect" is false if some path deletes it. Never fires without the
universal word ("an https upgrade to the same host keeps the
Authorization header" may be true although other redirects drop it), nor
on a key the code never removes.

Rationale: "the header survives every redirect" is a natural guess about
a client that does not say otherwise; the one key a library strips is
where the guess is wrong, and every name in the claim is real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_KEPT = re.compile(r"\b(?:(?:is|are|gets?|remains?)\s+(?:always\s+|still\s+)?(?:kept|preserved|retained|"
                   r"left\s+(?:intact|untouched|in\s+place|alone)|passed\s+(?:on|through|along))|"
                   r"survives?|stays?|persists?)\b", re.I)
_UNIVERSAL = re.compile(r"\b(?:every|always|all|any|regardless|even|also|in all cases|no matter)\b", re.I)
_NEGATED = re.compile(r"\b(?:not|never|no longer|only)\b|n't\b", re.I)
_KEY = re.compile(r"[A-Za-z_$][\w$]*(?:-[A-Za-z_$][\w$]*)*")


def _removal(code: Code, key: str) -> int | None:
    k, q = re.escape(key), r"[\"'`]"
    removes = re.compile(
        rf"\b(?:del|delete)\s+[\w$.]+(?:\[\s*{q}{k}{q}\s*\]|\.{k}\b)"
        rf"|\.\s*(?:pop|remove|delete|removeHeader|discard)\s*\(\s*{q}{k}{q}", re.I)
    return next(iter(code.lines_matching(removes)), None)


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    if not _UNIVERSAL.search(clause.text):
        return out
    for m in _KEPT.finditer(clause.text):
        lead = clause.text[:m.start()]
        if _NEGATED.search(re.split(r"[,;(]", lead)[-1]):
            continue
        keys = [k for k in _KEY.findall(lead)[-4:] if len(k) > 2]
        for key in reversed(keys):
            if clause.skip(key):
                continue
            for code in codes:
                line = _removal(code, key)
                if line is not None:
                    out.append(Contradiction(
                        "retention", f"the claim says `{key}` {' '.join(m.group(0).split())} everywhere",
                        code.show(line, key), code.label, (key,)))
                    return out
    return out


RULE = Rule("retention", check, __doc__ or "")
