"""mapping: the claim maps a value to an output; the code's branch for that value writes another case's output.

The claim's side: ``V maps to S`` (``gives``, ``becomes``, ``yields``,
``produces``, ``turns into``, ``is written as``, ``->``, ``=>``), ``V`` a
literal (``true``, ``false``, ``null``, a number, a quoted string;
``sameSite: true`` counts as ``true``) and ``S`` a quoted or backticked
text, or a ``Key=Value`` the claim writes bare.

The code's side: a ``switch`` whose ``case`` labels name ``V`` (labels
stacked on one branch share it), and the strings each branch writes, up to
the next label.

Fires when the branch for ``V`` writes no string that holds ``S`` and the
branch of another label writes one that does: the claim took the output of
a neighbouring case. Never fires when no label names ``V``, when no branch
writes ``S`` (the output may be built elsewhere: the term rules decide),
or on a value or output the writer declared unbound.

Rationale: on jshttp/cookie, "sameSite: true maps to `SameSite=Lax`"
names a real option, a real value and a real output; only the branch
(``case true: case "strict": str += "; SameSite=Strict"``) says which
output goes with ``true``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule
from memvet._rules.value import _norm

__all__ = ["RULE"]

_VALUE = r"true|false|null|undefined|None|True|False|-?\d+(?:\.\d+)?|'[^'\n]*'|\"[^\"\n]*\""
_MAPS = re.compile(rf"`?(?:[A-Za-z_$][\w$]*\s*:\s*)?(?P<v>{_VALUE})`?\s*"
                   r"(?:maps?\s+to|gives|becomes|yields|produces|turns\s+into|is\s+written\s+as|->|=>|\u2192)\s*"
                   r"(?P<s>`[^`\n]+`|\"[^\"\n]+\"|'[^'\n]+'|[A-Za-z][\w-]*=[\w-]+)")
_CASE = re.compile(rf"^\s*case\s+(?P<v>{_VALUE})\s*:")
_OTHER_LABEL = re.compile(r"^\s*(?:case\b|default\s*:)")


def _branches(code: Code) -> list[tuple[set[str], list[str], int]]:
    """Each switch branch: (its labels, normalized; the strings it writes; its first line)."""
    out: list[tuple[set[str], list[str], int]] = []
    labels: set[str] = set()
    start = -1
    body: list[int] = []

    def close() -> None:
        if labels:
            out.append((set(labels), [a.text for a in code.atoms if a.string and a.line in body], start))

    for i in range(len(code.logical)):
        text = code.logical_text(i)
        case = _CASE.match(text)
        if case:
            if body:  # a label after a body: a new branch
                close()
                labels.clear()
                body = []
            if not labels:
                start = i
            labels.add(_norm(case.group("v")))
            rest = text[case.end():].strip()
            if rest:
                body.append(i)
        elif _OTHER_LABEL.match(text):
            close()
            labels.clear()
            body = []
        elif labels:
            body.append(i)
    close()
    return out


def _holds(strings: Sequence[str], wanted: re.Pattern[str]) -> bool:
    return any(wanted.search(s) for s in strings)


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    read: dict[int, list[tuple[set[str], list[str], int]]] = {}  # each code's branches, read once per check
    for m in _MAPS.finditer(clause.text):
        said = m.group("s")
        value, said = m.group("v"), (said[1:-1] if said[:1] in "`'\"" else said).strip()
        if not said or clause.skip(value, said, m.group("s")):
            continue
        label, wanted = _norm(value), re.compile(rf"(?<![\w-]){re.escape(said)}(?![\w-])", re.I)
        for n, code in enumerate(codes):
            if n not in read:
                read[n] = _branches(code)
            mine = [b for b in read[n] if label in b[0]]
            others = [b for b in read[n] if label not in b[0] and _holds(b[1], wanted)]
            if not mine or not others or any(_holds(b[1], wanted) for b in mine):
                continue
            line = mine[0][2]
            out.append(Contradiction(
                "mapping", f"the claim maps `{value}` to `{said}`; the code writes that for another case",
                code.show(line), code.label, (value, said)))
            break
    return out


RULE = Rule("mapping", check, __doc__ or "")
