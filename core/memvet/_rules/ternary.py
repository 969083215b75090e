"""ternary: the claim gives an output for a switch set one way; the code's choice on it gives that output the other way.

The claim's side: a switch set in the clause, ``K: true``, ``K=False``
(backticked or not), and a quoted output in the same clause: "when
`sensitive: true` the regex is built with the "i" flag". A negation
right before the switch (``unless``, ``without``, ``not``, ``no``)
turns it the other way: "the "i" flag unless you pass `sensitive: true`"
gives the output for ``sensitive`` off.

The code's side: a choice between two literals on ``K`` (``K ? "" :
"i"``, ``"" if K else "i"``, ``options.K ? ...``; ``!K`` and ``not K``
swap the branches).

Fires when the claim's output is the literal the code gives the other
way and not the one it gives this way. Never fires when the code has no
such choice on ``K``, when the output is in both branches or in neither,
on an output the claim negates ("no "i" flag": not read), nor on a switch
the writer declared unbound.

Rationale: on path-to-regexp, "when `sensitive: true` the regex is built
with the "i" flag" names the real option and the real flag; only the
branch of ``sensitive ? "" : "i"`` it lands in is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import TermKind
from memvet._rules._common import STRING, Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_SWITCH = re.compile(r"\{?\s*([A-Za-z_$][\w$]*)\s*(?::|=)\s*(true|false|True|False)\s*\}?")
_AGAINST = re.compile(r"\b(?:unless|without|not|no|never)\b[\w\s]{0,24}$", re.I)
_OUTPUT = re.compile(r'"([^"\n]*)"|\'([^\'\n]*)\'')


def _choices(code: Code, name: str) -> list[tuple[str, str, int]]:
    """``(when set, when not, line)`` for each choice between two literals the code makes on ``name``."""
    ref = rf"(?<![\w$])(?:[\w$]+\.)?{re.escape(name)}(?![\w$(])"
    js = re.compile(rf"(?P<neg>!\s*)?{ref}\s*\?\s*(?P<a>{STRING})\s*:\s*(?P<b>{STRING})")
    py = re.compile(rf"(?P<a>{STRING})\s+if\s+(?P<neg>not\s+)?{ref}\s+else\s+(?P<b>{STRING})")
    out = []
    for line in range(len(code.logical)):
        text = code.logical_text(line)
        for pattern in (js, py):
            for m in pattern.finditer(text):
                a, b = m.group("a")[1:-1], m.group("b")[1:-1]
                out.append((b, a, line) if m.group("neg") else (a, b, line))
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for word in clause.words:
        term = word.term
        if term is None or term.kind not in (TermKind.CODE, TermKind.KEYWORD) or clause.skip(word.text):
            continue
        m = _SWITCH.fullmatch(term.text.strip())
        if m is None:
            continue
        name, on = m.group(1), m.group(2).lower() == "true"
        if _AGAINST.search(clause.text[:word.start]):
            on = not on
        outputs = [a if a is not None else b for a, b in (o.groups() for o in _OUTPUT.finditer(clause.text))]
        for code in codes:
            for when_set, when_not, line in _choices(code, name):
                said, other = (when_set, when_not) if on else (when_not, when_set)
                wrong = [o for o in outputs if o == other and o != said]
                if wrong:
                    way = "set" if on else "not set"
                    out.append(Contradiction(
                        "ternary", f"the claim gives \"{wrong[0]}\" with `{name}` {way}; the code gives "
                                   f"\"{said}\" then and \"{other}\" otherwise",
                        code.show(line, name), code.label, (word.text,)))
                    return out
    return out


RULE = Rule("ternary", check, __doc__ or "")
