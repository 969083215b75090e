"""raises: the claim names the exception a message comes with; the code raises that message as another.

The claim's side: an exception class written with its message,
``DecodeError("Issued At claim (iat) must be an integer.")``,
``RuntimeError ("Singleton lock ...")``, ``TypeError: bad thing``,
``RangeError 'too big'``: a class name ending in ``Error``, ``Exception``
or ``Warning``, then a quoted message (or, after a colon, the rest of the
clause); any capitalized name called with a quoted message
(``BadPayload("Invalid base64-encoded data")``), which the code's side
then has to raise or derive. The message's longest literal stretch (placeholders ``<n>``,
``{x}``, ``%s`` and ellipses, bracketed or not: ``[...]``, cut it) must be ten characters or more.

The code's side: each ``raise F(...)`` / ``throw new F(...)`` of the
anchored code whose message holds that stretch, as a literal of the
statement or of a name it raises that the lines just before assign
(``msg = "..."; raise ValueError(msg)``), in any case.

Fires when the code raises the message, never as the claim's class, and
raises the claim's class elsewhere: the two are siblings in this code, so
the claim did not name a base class of the one raised. Fires too when an
anchored definition of the claim's class derives it from the class raised
(``class BadPayload(BadData)``, the message raised as ``BadData``): a
subclass is never what its base is raised as. Fires too when both classes
are built-in and known apart (``RangeError`` claimed, ``TypeError`` raised;
``ValueError`` claimed, ``KeyError`` raised): neither can be the other.
Never fires when the message is raised nowhere (the term binder reads
that), when one of its raises is the claim's class, nor when the claim's
class is raised nowhere in the anchored code, no anchored definition
derives it from the class raised and the two are not built-in siblings (it
may be a base of the one raised).

Rationale: messages are copied from logs and tracebacks, classes are
remembered; "raises RuntimeError("Singleton lock instances cannot be
initialized with differing arguments")" quotes the code's message
exactly, raised as ``ValueError``, in code that raises ``RuntimeError``
for another case two blocks up.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Sequence

from memvet._rules._common import STRING, Clause, Code, Contradiction, Rule
from memvet._rules.bases import class_bases

__all__ = ["RULE"]

_NAME = r"[A-Z]\w*(?:Error|Exception|Warning)"
_CLAIMED = re.compile(rf"\b({_NAME}(?=\s*[\s(])|[A-Z]\w*(?=\())\s*(?:\(\s*|\s+(?:with\s+)?(?:(?:the\s+)?message\s+)?)"
                      r"""(?:"([^"\n]+)"|'([^'\n]+)'|`([^`\n]+)`|\u201c([^\u201d\n]+)\u201d)"""
                      rf"|\b({_NAME}):\s+([^;\n]+)")
_CUT = re.compile(r"[\[(]\s*(?:\.\.\.|\u2026)\s*[\])]|<[^<>\n]{1,40}>|\{[^{}\n]*\}|%[sdr]|\.\.\.|\u2026"
                  r"|\$\{[^{}\n]*\}")
_RAISE = re.compile(r"\b(?:raise|throw\s+new|throw)\s+([A-Z][\w.]*)\s*\((.*)")
_STRING = re.compile(STRING)


def _stretch(message: str) -> str:
    """The longest literal stretch of a claimed message, lower-cased and trimmed."""
    pieces = [p.strip(" .,:;").lower() for p in _CUT.split(message)]
    return max(pieces, key=len, default="")


def _carried(code: Code, line: int, args: str) -> str:
    """The text of the literals a raise statement carries, lower-cased: its
    own, or those the lines just before assign to the name it raises."""
    texts = [m.group(0)[1:-1] for m in _STRING.finditer(args)]
    bare = re.match(r"\s*([A-Za-z_$][\w$]*)\s*[,)]", args)
    if not texts and bare:
        name = re.escape(bare.group(1))
        for before in range(line - 1, max(-1, line - 12), -1):
            text = code.logical_text(before)
            if re.match(rf"\s*(?:const\s+|let\s+|var\s+)?{name}\s*=(?!=)", text):
                texts = [m.group(0)[1:-1] for m in _STRING.finditer(text)]
                break
    return " ".join(texts).lower()


def _derived_from(name: str, codes: Sequence[Code]) -> set[str]:
    """The direct bases the anchored definitions of class ``name`` name
    (``class BadPayload(BadData):``, ``class A extends B``), as the bases
    rule reads a class statement."""
    return {base for code in codes for base in (class_bases(code, name) or ([], ""))[0]}


#: JavaScript's built-in error classes: each derives from ``Error`` directly.
_JS_ERRORS = frozenset({"TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError"})


def _siblings(claimed: str, raised: str) -> bool:
    """Whether two built-in exception classes are known apart: Python's by
    their real hierarchy (``KeyError`` is a ``LookupError``, not a
    ``ValueError``), JavaScript's ``TypeError``, ``RangeError`` ... by
    deriving from ``Error`` alone. A class the claim names that is a base of
    the one raised (``Exception``, ``Error``) is never a sibling."""
    if claimed in _JS_ERRORS and raised in _JS_ERRORS:
        return claimed != raised
    a, b = getattr(builtins, claimed, None), getattr(builtins, raised, None)
    return (isinstance(a, type) and isinstance(b, type) and issubclass(a, BaseException)
            and issubclass(b, BaseException) and not issubclass(b, a) and not issubclass(a, b))


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    raised: dict[int, list[tuple[str, int, str]]] = {}  # per anchor: (class, line, arguments) of each raise
    for m in clause.spanning(_CLAIMED):  # read in the whole claim: a message's own ": " would end the clause
        claimed = m.group(1) or m.group(6)
        message = next((g for g in m.groups()[1:5] if g), None) or m.group(7) or ""
        stretch = _stretch(message)
        if len(stretch) < 10 or clause.skip(claimed):
            continue
        for code in codes:
            if id(code) not in raised:
                raised[id(code)] = [(r.group(1).rsplit(".", 1)[-1], line, r.group(2))
                                    for line in range(len(code.logical))
                                    for r in [_RAISE.search(code.logical_text(line))] if r]
            raises = raised[id(code)]
            carrying = [(cls, line) for cls, line, args in raises if stretch in _carried(code, line, args)]
            if not carrying or any(cls == claimed for cls, _ in carrying):
                continue
            cls, line = carrying[0]
            if any(c == claimed for c, _, _ in raises):
                why = ""
            elif cls in _derived_from(claimed, codes):
                why = f", of which `{claimed}` is a subclass"
            elif _siblings(claimed, cls):
                why = ", and neither is a subclass of the other"
            else:
                continue
            out.append(Contradiction(
                "raises", f"the claim has `{claimed}` raised with \"{message.strip()[:60]}\"; the code raises that "
                          f"message as `{cls}`{why}", code.show(line, cls), code.label, (claimed,)))
            return out
    return out


RULE = Rule("raises", check, __doc__ or "")
