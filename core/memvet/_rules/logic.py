"""logic: the claim writes a name's boolean expression; the code joins the same names otherwise.

The claim's side: ``N = A or B`` written out, ``A`` and ``B`` names joined
by ``and``, ``or``, ``not`` (``&&``, ``||``, ``!`` alike), two names or
more: "AnsiToWin32 sets convert = need_conversion or have_tty".

The code's side: the anchored code's assignments to ``N`` whose right side
is an expression of names and those operators only (``convert =
need_conversion and have_tty``), read the same way.

Fires when an assignment of the code names the claim's operands in the
claim's order and joins them otherwise (``and`` for ``or``, a ``not``
more or less), and none joins them as the claim does. Never fires when the
names differ (another expression, which the term binder reads), nor on an
expression with anything else in it (a call, a comparison, a literal).

Rationale: a boolean formula is remembered by its names and misremembered
by its operators; every name in "convert = need_conversion or have_tty"
is real, and only ``or`` is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_NAME = r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*"
_OPERATOR = r"(?:\band\b|\bor\b|\bnot\b|&&|\|\||!(?!=))"
#: ``N = A or not B``: a name, ``=``, then names and boolean operators only (two names at least).
_FORMULA = re.compile(rf"(?<![\w$.=!<>])(?P<n>{_NAME})\s*=(?![=>])\s*(?P<e>(?:{_OPERATOR}\s*)*{_NAME}"
                      rf"(?:\s*(?:{_OPERATOR}\s*)+{_NAME})+)(?![\w$.(])")
_TOKEN = re.compile(rf"{_OPERATOR}|{_NAME}|\S")
_SPELLED = {"and": "&&", "or": "||", "not": "!", "&&": "&&", "||": "||", "!": "!"}


def _read(expression: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(names, operators between and before them) of a boolean expression, or None when it holds
    anything else."""
    names: list[str] = []
    joints: list[str] = []
    pending: list[str] = []
    for token in _TOKEN.findall(expression):
        if token in _SPELLED:
            pending.append(_SPELLED[token])
        elif re.fullmatch(_NAME, token):
            names.append(token.rsplit(".", 1)[-1])  # self.x and x alike
            joints.append(" ".join(pending))
            pending = []
        else:
            return None
    return (tuple(names), tuple(joints)) if len(names) >= 2 and not pending else None


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _FORMULA.finditer(clause.text):
        said = _read(m.group("e"))
        name = m.group("n").rsplit(".", 1)[-1]
        if said is None or clause.skip(name, *said[0]):
            continue
        for code in codes:
            other: int | None = None
            same = False
            for index in range(len(code.logical)):
                text = code.logical_text(index)
                for own in _FORMULA.finditer(text):
                    if own.group("n").rsplit(".", 1)[-1] != name:
                        continue
                    written = _read(own.group("e"))
                    if written is None or written[0] != said[0]:
                        continue
                    if written[1] == said[1]:
                        same = True
                    elif other is None:
                        other = index
            if other is not None and not same:
                out.append(Contradiction(
                    "logic", f"the claim says `{' '.join(m.group(0).split())}`; the code joins those names otherwise",
                    code.show(other, name), code.label, (name,)))
    return out


RULE = Rule("logic", check, __doc__ or "")
