"""returns: the claim says a function returns a constant; every return of the code gives another.

The claim's side: ``F returns V``, ``F, which returns V``, ``F always
returns V``, ``F just returns V`` (``gives back``, ``evaluates to``), where
``F`` is the anchored function's own name, written right before the verb
(or before ``, which``), and ``V`` is ``true`` or ``false`` in any case.
What follows ``V`` does not matter: "returns true if the address is in
range" still says the function can return true. "Returns None" is not
read: a function may end without a ``return``, which no statement shows.

The code's side: the anchored function's ``return`` statements (an arrow
function's expression body counts as one), when every one of them returns
a constant alone (``return false``, ``return None``; a bare ``return`` is
``None``/``undefined``).

Fires when none of those constants is ``V``. Never fires on a negated
claim ("never returns true": the negation rule's), on a subject that is not
the anchored function, when a return gives anything but a constant
(``return ok``, ``return x > 0``, ``return f()``: the value is open), or on
code with no return at all (Rust's tail expression, a Go named result).

Rationale: "trustNone, which returns true, so every hop is trusted" names
a real function and a real value; only the constant, the claim's whole
point, is wrong, and the code writes it in one statement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule, fold

__all__ = ["RULE"]

_CLAIMED = re.compile(r"(?P<subject>[A-Za-z_$][\w$.]*(?:\(\))?)(?P<which>\s*,\s*which)?\s+"
                      r"(?:(?:always|just|simply|only|then|now|still)\s+)?"
                      r"(?:returns|gives back|evaluates to)\s+(?P<value>true|false)\b", re.I)
_NEGATED = re.compile(r"\b(?:not|never|no longer|doesn't|does not|won't|cannot|can't)\s*$", re.I)
#: The constants a return may give alone (a bare ``return`` is ``none``).
_CONSTANTS = frozenset({"true", "false", "none", "null", "nil", "undefined"})
_RETURN = re.compile(r"(?<![\w$.])return\b\s*(?P<value>[^;{}]*?)\s*;?\s*(?:\}\s*)?$")
_ARROW_BODY = re.compile(r"=>\s*(?P<value>true|false|null|undefined)\s*[;,)]?\s*$")


def _returned(code: Code) -> list[tuple[int, str]] | None:
    """(line, constant) of every return of the code, lower-cased; None when one returns anything else."""
    out = []
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        for m in [*_RETURN.finditer(text), *_ARROW_BODY.finditer(text)]:
            value = m.group("value").strip().strip("()").strip().lower() or "none"
            if value not in _CONSTANTS:
                return None
            out.append((index, value))
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _CLAIMED.finditer(clause.text):  # not "returns None": a function may end without a return
        if _NEGATED.search(clause.text[:m.start("which") if m.group("which") else m.end("subject")]
                           + clause.text[m.end("subject"):m.start("value")]):
            continue
        said = m.group("value").lower()
        subject = fold(m.group("subject").removesuffix("()").rsplit(".", 1)[-1])
        for code in codes:
            if not code.leaf or fold(code.leaf) != subject:
                continue
            returns = _returned(code)
            if not returns or any(v == said for _, v in returns):
                continue
            line, value = returns[0]
            out.append(Contradiction(
                "returns", f"the claim says `{m.group(0)}`", code.show(line, value), code.label,
                (m.group("subject"), m.group("value"))))
    return out


RULE = Rule("returns", check, __doc__ or "")
