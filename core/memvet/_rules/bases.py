"""bases: the claim says what a class is (or is not) a kind of; its class statement says otherwise.

Fires on ``X is only a Y`` / ``X only subclasses Y`` (``extends``,
``inherits from``) when the class statement of ``X`` in the anchored code
names other bases too, and on ``X is not a Y`` / ``X does not subclass Y``
(``isn't a``, ``doesn't extend``, ``is no``) when it names ``Y``, and on
``X derives directly from Y`` (``inherits straight from``, ``directly subclasses``, ``is a direct
subclass of``) when it does not name ``Y``. Python
``class X(A, B):`` and brace-language ``class X extends A implements B``
are read; ``object`` is no base.

Never fires when the anchored code has no class statement for ``X`` (the
bases of a class not anchored are not known), nor on "X is a Y" (a base of
a base is a Y too, and this rule does not follow the hierarchy).

Rationale: exception hierarchies decide what an ``except`` catches; "X is
only a Timeout, so except ConnectionError does not catch it" is false when
``X`` subclasses both, and every name in it is real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE", "class_bases"]

_ONLY = re.compile(r"\b([A-Z][\w$]*) (?:is (?:only|just|merely) an?|(?:only|just) (?:subclasses|extends|inherits from))"
                   r" ([A-Z][\w$.]*)")
_DIRECT = re.compile(r"\b([A-Z][\w$]*) (?:(?:derives|inherits) (?:directly|straight) from|"
                     r"directly (?:subclasses|extends|inherits from|derives from)|is a direct (?:subclass|child) of)"
                     r" ([A-Z][\w$.]*)")
_NOT = re.compile(r"\b([A-Z][\w$]*) (?:is not an?|isn't an?|does not (?:subclass|extend|inherit from)|"
                  r"doesn't (?:subclass|extend|inherit from)|is no) ([A-Z][\w$.]*)")


def class_bases(code: Code, name: str) -> tuple[list[str], str] | None:
    """The direct bases the first class statement of ``name`` in ``code`` names (last parts, no
    ``object``, type arguments dropped), with that statement's line; ``None`` when it has none."""
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        m = re.match(rf"(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+{re.escape(name)}\b(.*)", text.strip())
        if not m:
            continue
        rest = m.group(1)
        if rest.startswith("("):
            inner = rest[1: rest.find(")")] if ")" in rest else ""
            bases = [b.strip() for b in inner.split(",") if b.strip() and "=" not in b]
        else:
            found = re.findall(r"\b(?:extends|implements)\s+([\w$.<>, ]+?)(?=\s*(?:\{|implements|$))", rest)
            bases = [b.strip() for chunk in found for b in chunk.split(",") if b.strip()]
        return [re.sub(r"<.*", "", b).rsplit(".", 1)[-1] for b in bases if b != "object"], text
    return None


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    only: bool | None
    for pattern, only in ((_ONLY, True), (_NOT, False), (_DIRECT, None)):
        for m in pattern.finditer(clause.text):
            cls, base = m.group(1), m.group(2).rsplit(".", 1)[-1]
            if clause.skip(cls, m.group(2)):
                continue
            for code in codes:
                found = class_bases(code, cls)
                if found is None:
                    continue
                bases, line = found
                if only is None:  # directly: one of the statement's own bases
                    wrong = bool(bases) and base not in bases
                else:
                    wrong = (bases and set(bases) != {base}) if only else base in bases
                if wrong:
                    out.append(Contradiction("bases", f"the claim says `{m.group(0)}`", line[:120], code.label,
                                             (cls, m.group(2))))
    return out


RULE = Rule("bases", check, __doc__ or "")
