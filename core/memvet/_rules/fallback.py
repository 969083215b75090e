"""fallback: the claim names the value a name falls back to; the code falls back to another of the same kind.

The claim's side: ``sets S to V when ...`` (or ``if``, ``otherwise``)
where what follows says nothing was found ("can't", "cannot", "no",
"nothing", "none", "fails", "missing", "absent", "not found", "not
detected", "undetected"), ``S falls back to V`` and ``S defaults to V``;
``V`` a qualified name written as code (``LineEnding::CRLF``,
``Level.WARN``, ``os.Stdout``) and ``S`` a name of the code, written with
its owner or not (``options.line_ending``, ``line_ending``).

The code's side: the statements that assign ``S`` with a fallback: Rust's
``E.unwrap_or(W)`` (and ``unwrap_or_else(|| W)``), Python's ``E or W``,
JavaScript's ``E ?? W`` and ``E || W``, Go's ``if ... { S = W }`` is not read.

A second reading takes a quoted ``V``: "uses fn.name for the type,
falling back to 'anonymous'" (``S`` a dotted name of the code written
before it) against the code's ``S || 'W'`` (``S ?? 'W'``, ``S or 'W'``).

Fires when some such ``W`` has ``V``'s owner (``LineEnding::LF`` for
``LineEnding::CRLF``) and none is ``V``; for a quoted ``V``, when every
such ``W`` is another literal. Never fires on another owner's value (the
claim may speak of another fallback), on a literal the claim does not say
``S`` falls back to (the value rule reads those), nor on a name the writer
declared unbound.

Rationale: "unfill() sets options.line_ending to LineEnding::CRLF when it
can't detect any ending" names a real field and a real variant; the code's
``detected_line_ending.unwrap_or(LineEnding::LF)`` says which variant the
field gets when nothing was detected, in one statement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_QUALIFIED = r"[A-Za-z_][\w]*(?:::|\.)[A-Za-z_]\w*"
_SUBJECT = r"`?(?P<s>[A-Za-z_][\w.]*)`?"
_VALUE = rf"`?(?P<v>{_QUALIFIED})`?"
_NOTHING = (r"(?:can't|cannot|can\s+not|no|nothing|none|fails?|missing|absent|not\s+(?:found|detected|set|given)"
            r"|undetected)\b")
_SAID = (
    re.compile(rf"\bsets\s+{_SUBJECT}\s+to\s+{_VALUE}\s+(?:when|if|whenever)\b[^.;]*?\b{_NOTHING}", re.I),
    re.compile(rf"\bsets\s+{_SUBJECT}\s+to\s+{_VALUE}\s+otherwise\b", re.I),
    re.compile(rf"{_SUBJECT}\s+(?:falls\s+back|defaults)\s+to\s+{_VALUE}"),
)
#: A fallback in an assignment's value: its fallback value is group ``w``.
_FALLBACKS = (
    re.compile(rf"\.unwrap_or\(\s*(?P<w>{_QUALIFIED})\s*\)"),
    re.compile(rf"\.unwrap_or_else\(\s*\|\|\s*(?P<w>{_QUALIFIED})\s*\)"),
    re.compile(rf"(?:\bor|\?\?|\|\|)\s+(?P<w>{_QUALIFIED})\s*[;,)]?\s*$"),
)


def _owner(name: str) -> str:
    return re.split(r"::|\.", name, maxsplit=1)[0]


def _fallbacks(code: Code, subject: str) -> list[tuple[str, int]]:
    """(fallback value, logical line) of each statement of ``code`` assigning ``subject`` (or a name
    ending with it: ``options.line_ending`` for ``line_ending``) with a fallback."""
    leaf = subject.rsplit(".", 1)[-1]
    assigned = re.compile(rf"(?<![\w$])(?:[\w$]+\.)*{re.escape(leaf)}\s*(?::\s*[^=]+)?=(?!=)\s*(?P<e>.+)$")
    out = []
    for index in range(len(code.logical)):
        m = assigned.search(code.logical_text(index))
        if m is None:
            continue
        for pattern in _FALLBACKS:
            hit = pattern.search(m.group("e"))
            if hit:
                out.append((hit.group("w"), index))
    return out


#: "uses fn.name ..., falling back to 'anonymous'": a name of the code, then the quoted literal it falls back to.
_FALLS_TO_LITERAL = re.compile(r"`?(?P<s>[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$.]*)`?[^;.]{0,60}?"
                               r"\b(?:falls|falling)\s+back\s+to\s+(?P<v>'[^'\n]*'|\"[^\"\n]*\")")


def _literal_fallbacks(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"wrap() uses fn.name ..., falling back to 'anonymous'": the code's ``fn.name || 'bound-anonymous-fn'``
    falls back to another literal, and to none the claim's."""
    out: list[Contradiction] = []
    for m in _FALLS_TO_LITERAL.finditer(clause.text):
        subject, said = m.group("s"), m.group("v")[1:-1]
        if clause.skip(subject, m.group("v")):
            continue
        owner, _, leaf = subject.rpartition(".")
        chain = re.compile(rf"(?<![\w$.]){re.escape(owner)}\s*\.\s*{re.escape(leaf)}\s*(?:\|\||\?\?|\bor\b)\s*"
                           r"(?P<w>'[^'\n]*'|\"[^\"\n]*\")")
        for code in codes:
            found = [(hit.group("w")[1:-1], i) for i in range(len(code.logical))
                     for hit in chain.finditer(code.logical_text(i))]
            if found and all(w != said for w, _ in found):
                value, line = found[0]
                out.append(Contradiction("fallback", f"the claim says `{subject}` falls back to '{said}'",
                                         code.show(line, value), code.label, (subject,)))
                break
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = _literal_fallbacks(clause, codes)
    for pattern in _SAID:
        for m in pattern.finditer(clause.text):
            subject, said = m.group("s"), m.group("v")
            if clause.skip(subject, said) or clause.quoted(m.start()):
                continue
            for code in codes:
                found = [(w, i) for w, i in _fallbacks(code, subject) if _owner(w) == _owner(said)]
                if found and all(w != said for w, _ in found):
                    value, line = found[0]
                    out.append(Contradiction(
                        "fallback", f"the claim says `{subject}` falls back to `{said}`", code.show(line, value),
                        code.label, (subject, said)))
                    break
    return out


RULE = Rule("fallback", check, __doc__ or "")
