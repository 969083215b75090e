"""bases: the claim says what a class is (or is not) a kind of; its class statement says otherwise.

Fires on ``X is only a Y`` / ``X only subclasses Y`` (``extends``,
``inherits from``) when the class statement of ``X`` in the anchored code
names other bases too, and on ``X is not a Y`` / ``X does not subclass Y``
(``isn't a``, ``doesn't extend``, ``is no``) when it names ``Y``, and on
``X derives directly from Y`` (``inherits straight from``, ``directly subclasses``, ``is a direct
subclass of``, ``subclasses plain Y``, ``subclasses Y directly``) when it does not name ``Y``. Python
``class X(A, B):`` and brace-language ``class X extends A implements B``
are read; ``object`` is no base.

Fires on ``X derives from Y`` (``inherits from``, ``subclasses``,
``extends``, ``is a subclass of``) when every base of ``X`` is one of
Python's built-in classes and ``Y`` is none of them nor an ancestor of one
(``class TooManyFields(ValueError)`` for "derives from RuntimeError"): the
built-ins' whole ancestry is known. "X is a Y subclass" is "X derives from Y" and "X is a plain Y
subclass" is "X derives directly from Y"; an aside may stand between ``X`` and its verb
("ParsimoniousError, the base of every error, subclasses ValueError"), and Python's built-in types are
named in lower case ("a plain dict subclass").

"X is a Y" is read the same way, and only then: when ``Y`` too is one of
Python's built-in classes ("BuildBackendWarning is a RuntimeWarning" where
``class BuildBackendWarning(UserWarning)``).

Fires on "X derives from Y" (any verb above, or "X, the old name, is kept
as a subclass of Y" further on in the sentence) when the anchored class
statement of ``Y`` names ``X`` among its bases: ``Y`` derives from ``X``,
and no class is its own ancestor (hpack: "InvalidTableIndexError ... kept
as a subclass of InvalidTableIndex" where ``class
InvalidTableIndex(InvalidTableIndexError)``).

Never fires when the anchored code has no class statement for ``X`` (the
bases of a class not anchored are not known), nor on "X is a Y" where ``X``
has a base of the project's own or ``Y`` is no built-in (a base of a base
is a Y too, and this rule does not follow the project's own hierarchy).

Rationale: exception hierarchies decide what an ``except`` catches; "X is
only a Timeout, so except ConnectionError does not catch it" is false when
``X`` subclasses both, and every name in it is real.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE", "class_bases"]

#: The class a claim names: capitalized, or one of Python's built-in types (``dict``), which are lower-case.
_Y = r"([A-Z][\w$.]*|(?:dict|list|str|int|tuple|set|frozenset|bytes|float|type)\b)"
#: An aside between the class and its verb: "ParsimoniousError, the base of every error, subclasses ...".
_ASIDE = r"(?:,[^,;()]{1,80},)?"
_ONLY = re.compile(r"\b([A-Z][\w$]*) (?:is (?:only|just|merely) an?|(?:only|just) (?:subclasses|extends|inherits from))"
                   rf" {_Y}")
_DIRECT = re.compile(rf"\b([A-Z][\w$]*){_ASIDE} (?:(?:derives|inherits) (?:directly|straight) from|"
                     r"directly (?:subclasses|extends|inherits from|derives from)|is a direct (?:subclass|child) of|"
                     r"(?:subclasses|extends|inherits from|derives from) (?:plain|bare|a plain|a bare)"
                     rf"|is an? (?:plain|bare|direct) (?=\S+ subclass\b))"
                     rf" ?{_Y}")
#: "VerifyMismatchError subclasses Argon2Error directly": the adverb after the base.
_DIRECT_AFTER = re.compile(rf"\b([A-Z][\w$]*){_ASIDE} (?:derives from|inherits from|subclasses|extends) {_Y}"
                           r"(?=\s+(?:directly|straight)\b)")
_DERIVES = re.compile(rf"\b([A-Z][\w$]*){_ASIDE} (?:derives from|inherits from|subclasses|extends|is a subclass of|"
                      rf"is derived from|is an? (?=\S+ subclass\b)) ?{_Y}")
#: "BuildBackendWarning is a RuntimeWarning": read only when the claim's class is one of Python's built-ins.
_IS_A = re.compile(rf"\b([A-Z][\w$]*){_ASIDE} is an? ([A-Z]\w*)\b(?![\w$.-]| subclass\b)")
_NOT = re.compile(r"\b([A-Z][\w$]*) (?:is not an?|isn't an?|does not (?:subclass|extend|inherit from)|"
                  rf"doesn't (?:subclass|extend|inherit from)|is no) {_Y}")


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


def _said(clause: Clause, m: re.Match[str]) -> str:
    """What the claim says, as written ("X is a plain dict subclass")."""
    return m.group(0) + (" subclass" if clause.text.startswith(" subclass", m.end()) else "")


#: "X, the deprecated spelling, is kept as a subclass of Y": a class, then (in the same sentence) "a subclass of".
_SUBCLASS_OF = re.compile(r"\b([A-Z][\w$]*)\b[^.;:()]{0,80}?\ban? (?:sub-?class|child class) of `?([A-Z][\w$.]*)")


def _reversed(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"X derives from Y" where the anchored class statement of ``Y`` names ``X`` as its base: ``Y``
    derives from ``X``, and a class is never its own ancestor."""
    out: list[Contradiction] = []
    for m in [*_DERIVES.finditer(clause.text), *_SUBCLASS_OF.finditer(clause.text)]:
        cls, base = m.group(1), m.group(2).rsplit(".", 1)[-1]
        if cls == base or clause.skip(cls, m.group(2)):
            continue
        for code in codes:
            found = class_bases(code, base)
            if found is not None and cls in found[0]:
                out.append(Contradiction("bases", f"the claim says `{_said(clause, m)}`; `{base}` derives from "
                                                  f"`{cls}`", found[1][:120], code.label, (cls, m.group(2))))
                break
    return out[:1]


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    only: bool | None
    out.extend(_builtin_ancestry(clause, codes))
    out.extend(_reversed(clause, codes))
    for pattern, only in ((_ONLY, True), (_NOT, False), (_DIRECT, None), (_DIRECT_AFTER, None)):
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
                    out.append(Contradiction("bases", f"the claim says `{_said(clause, m)}`", line[:120], code.label,
                                             (cls, m.group(2))))
    return out


def _builtin_ancestry(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"TooManyFields derives from RuntimeError" where ``class TooManyFields(ValueError)``: every base
    is one of Python's built-in classes, whose whole ancestry is known, and none of them is (or
    derives from) the claim's class."""
    out: list[Contradiction] = []
    said = [*_DERIVES.finditer(clause.text),
            *(m for m in _IS_A.finditer(clause.text) if isinstance(getattr(builtins, m.group(2), None), type))]
    for m in said:
        cls, base = m.group(1), m.group(2).rsplit(".", 1)[-1]
        if clause.skip(cls, m.group(2)) or _DIRECT.match(clause.text, m.start()) \
                or _DIRECT_AFTER.match(clause.text, m.start()):
            continue
        for code in codes:
            found = class_bases(code, cls)
            if found is None or not found[0] or base in found[0]:
                continue
            kinds = [getattr(builtins, b, None) for b in found[0]]
            if not all(isinstance(k, type) for k in kinds):
                continue  # a base of the project's own: its ancestry is not read here
            ancestry = {c.__name__ for k in kinds if isinstance(k, type) for c in k.__mro__}
            if base not in ancestry and not code.braces:  # Python: the built-ins are its own
                out.append(Contradiction("bases", f"the claim says `{_said(clause, m)}`", found[1][:120], code.label,
                                         (cls, m.group(2))))
    return out


RULE = Rule("bases", check, __doc__ or "")
