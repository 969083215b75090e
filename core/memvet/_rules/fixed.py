"""fixed: the claim makes behaviour depend on a setting; the code passes that setting as a constant.

The claim's side: a condition on a name of the code: ``unless ... K``,
``only if ... K``, ``only when ... K``, ``if ... K``, ``when ... K``,
``with K: V`` after one of them (up to six words between the condition
word and ``K``), where ``K`` is a code term (an identifier or a keyword).

The code's side: every use of ``K`` outside signatures is a constant the
code passes to a call (``this.#indexes({ allowStale: true })``,
``f(allow_stale=True)``): the code decides ``K`` itself, so no caller's
``K`` changes what it does.

Fires when the anchored code fixes ``K`` that way. Never fires on ``even
if`` / ``even when`` (those say the behaviour does not depend on ``K``),
when some use of ``K`` reads it (``this.allowStale``, ``if (K)``,
``K = options.K``), when the constant is not an argument of a call, nor
on a prose word.

Rationale: "dump() leaves out stale entries unless allowStale is set"
names a real option of the library, and the anchored method really
mentions it, but as ``{ allowStale: true }`` hardcoded: the condition the
claim describes does not exist there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import TermKind
from memvet._rules._common import Clause, Code, Contradiction, Rule, fixed_by_call

__all__ = ["RULE"]

_CONDITION = re.compile(r"(?<!\beven )\b(?:unless|only\s+(?:if|when|with)|if|when|whenever)\b", re.I)
_KINDS = (TermKind.IDENTIFIER, TermKind.KEYWORD, TermKind.CONSTANT)


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _CONDITION.finditer(clause.text):
        if re.search(r"\beven\s*$", clause.text[:m.start()], re.I):
            continue
        after = [w for w in clause.words if w.start >= m.end()][:7]
        for word in after:
            if word.term is None or word.term.kind not in _KINDS or clause.skip(word.text):
                continue
            for code in codes:
                atom = code.resolve(word, clause.declared, parts=False)
                line = fixed_by_call(code, atom) if atom else None
                if line is not None:
                    said = " ".join(clause.text[m.start():word.end].split())
                    out.append(Contradiction(
                        "fixed", f"the claim says `{said}`; the code passes `{atom}` as a constant",
                        code.show(line, atom), code.label, (word.text,)))
            break  # the condition's first code term is its subject
    return out


RULE = Rule("fixed", check, __doc__ or "")
