"""mutation: the claim says a function leaves what it is given as it was; the code changes it in place.

The claim's side, in Python, JavaScript and TypeScript code: "F is pure"
(``F`` the anchored function, written right before, with its arguments or
not: "signedCookies(obj, secret) is pure"); "never mutates (modifies,
changes, touches, alters) P", "doesn't mutate P", "without mutating P", "P
is left untouched (unmodified, unchanged)", "leaves P untouched", where
``P`` is a parameter of the anchored function by name, or the caller's
argument in words: "the one (object, array, list, dict, map) you pass
(in)", "the input", "its argument", "the original" (every parameter but
``self``, ``this`` and ``cls``). Not read under a condition ("if ...",
"when ...", "unless ...").

The code's side: a statement of the anchored function that changes a
parameter's value in place: an assignment to one of its items or
attributes (``obj[key] = val``, ``opts.x = 1``, ``+=`` too), a ``delete``
(``del``) of one, a call of a method that changes a list, a dict, a set or
an array where it is (``push``, ``splice``, ``sort``, ``append``,
``update``, ``pop`` ...), ``Object.assign(P, ...)``.

Fires on the first such statement. Never fires on a parameter the code
rebinds first or anywhere (``obj = Object.assign({}, obj)``,
``val = val.slice()``: what changes is then a copy), on a method's
receiver (``self``, ``this``: the object is the function's own to
change), in Go or Rust (a value receiver or ``&mut`` say it in the
signature), nor on a name the writer declared unbound.

A second reading runs the other way: "compile() mutates the array you
pass", "modifies P", "writes the new keys into self.schema directly", "P
changes too" (``P`` a parameter, the caller's argument in words, or an
attribute of the receiver written ``self.x``), not negated nor under a
condition. Fires when the code copies ``P`` (``val.slice()``,
``self.schema.copy()``, ``dict(P)``, ``[...P]``, ``Object.assign({},
P)``) and changes ``P`` itself in place nowhere: what changes is the copy.

Rationale: whether a call changes what it was handed is what a caller
builds on, and people assume the clean answer: "signedCookies(obj,
secret) is pure - obj keeps its s: entries" of code that runs ``delete
obj[key]``; "JSONCookies ... never mutates the one you pass in" of
``obj[key] = val``. A caller that trusts it reads an object the call
already emptied.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._code import language_for_path
from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_LANGUAGES = frozenset({"python", "javascript", "typescript", "tsx"})
#: The caller's argument, named by what it is rather than by its parameter's name.
_ARGUMENT = (r"(?:the\s+)?(?:(?:one|object|array|list|dict|dictionary|map|input|value)\s+(?:you|the\s+caller)\s+"
             r"pass(?:es)?(?:\s+in)?|input|argument|arguments|original(?:\s+\w+)?)\b|its\s+(?:argument|input)s?\b")


def _object(tag: str = "", *, own: bool = False) -> str:
    """The object a verb speaks of: the caller's argument in words (group ``arg{tag}``) or a name
    (group ``name{tag}``; with ``own``, an attribute of the receiver too: ``self.schema``)."""
    receiver = r"(?:self\.|this\.)?" if own else ""
    return rf"(?:(?P<arg{tag}>{_ARGUMENT})|`?(?P<name{tag}>{receiver}[A-Za-z_$][\w$]*)`?(?![\w$(]))"


_SAID = re.compile(
    rf"(?P<pure>(?P<f>[A-Za-z_$][\w$.]*)(?:\([^()]*\))?\s+(?:is|are)\s+(?:a\s+)?pure\b)"
    rf"|\b(?:never|doesn't|does\s+not|don't|do\s+not|won't|will\s+not|without)\s+"
    rf"(?:mutat|modif|chang|touch|alter)\w*\s+{_object()}"
    rf"|\bleaves?\s+{_object('2')}\s+(?:untouched|unmodified|unchanged)\b"
    rf"|{_object('3')}\s+(?:is|are|stays?|remains?)\s+(?:left\s+)?(?:untouched|unmodified|unchanged)\b")
_CONDITION = re.compile(r"\b(?:if|when|whenever|unless)\b", re.I)
#: Methods that change a list, a dict, a set or an array where it is.
_IN_PLACE = ("push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin", "append",
             "extend", "insert", "remove", "clear", "update", "setdefault", "popitem", "add", "discard")


#: "compile() mutates the array you pass", "writes the new keys into self.schema directly", "X changes too".
_TARGET = _object(own=True)
_MUTATES = (
    re.compile(rf"\b(?:mutates|modifies|alters)\s+{_TARGET}"),
    re.compile(rf"\bwrites\s+[^.;]{{0,40}}?\binto\s+{_TARGET}\s+directly\b"),
    re.compile(rf"{_TARGET}\s+(?:changes|is\s+(?:modified|mutated|changed))\s+too\b"),
)


def _changes(name: str) -> re.Pattern[str]:
    """A statement that changes ``name``'s value in place."""
    n = re.escape(name).replace(r"\.", r"\s*\.\s*")
    item = r"\[(?:[^\[\]]|\[[^\[\]]*\])*\]|\.\s*[A-Za-z_$][\w$]*"  # obj[key], obj[keys[i]], obj.x
    return re.compile(rf"(?<![\w$.]){n}\s*(?:{item})\s*(?:=(?![=>])|[-+*/|&]=)"
                      rf"|\b(?:delete|del)\s+{n}\s*[\[.]"
                      rf"|(?<![\w$.]){n}\s*\.\s*(?:{'|'.join(_IN_PLACE)})\("
                      rf"|\bObject\.assign\(\s*{n}\s*,")


def _copied(code: Code, name: str) -> int | None:
    """The logical line where ``code`` copies ``name`` (``val.slice()``, ``self.schema.copy()``,
    ``dict(base)``, ``[...xs]``) and changes it in place nowhere; None otherwise."""
    n = re.escape(name).replace(r"\.", r"\s*\.\s*")
    copy = re.compile(rf"(?<![\w$.]){n}\s*\.\s*(?:copy|slice|clone)\(\s*\)"
                      rf"|\b(?:dict|list|set|copy\.copy|copy\.deepcopy|Array\.from)\(\s*{n}\s*\)"
                      rf"|[\[{{]\s*\.\.\.{n}\s*[\]}}]|\bObject\.assign\(\s*\{{\s*\}}\s*,\s*{n}\s*\)")
    lines = [i for i in range(len(code.logical)) if i not in code.headers]
    changes = _changes(name)
    if any(changes.search(code.logical_text(i)) for i in lines):
        return None
    return next((i for i in lines if copy.search(code.logical_text(i))), None)


def _copies(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"compile() mutates the array you pass": the code copies it and changes only the copy."""
    out: list[Contradiction] = []
    for m in (m for pattern in _MUTATES for m in pattern.finditer(clause.text)):
        before = clause.text[:m.start()]
        if _CONDITION.search(before) or re.search(r"\b(?:not|never|no longer|doesn't|don't|won't|without)\b", before):
            continue
        name = m.group("name")
        if name and clause.skip(name):
            continue
        for code in codes:
            if language_for_path(code.label.split("::", 1)[0]) not in _LANGUAGES or not code.leaf:
                continue
            targets = [name] if name and (name in code.parameters or "." in name) else [] if name \
                else sorted(code.parameters)
            hits = [(t, line) for t in targets if (line := _copied(code, t)) is not None]
            if hits:
                target, line = hits[0]
                out.append(Contradiction("mutation", f"the claim says `{m.group(0)}`; the code copies `{target}` "
                                         "and changes only the copy", code.show(line, target.rsplit(".", 1)[-1]),
                                         code.label, (target,)))
                break
    return out


def _mutations(code: Code, name: str) -> int | None:
    """The logical line where ``code`` changes the parameter ``name`` in place; None when it never
    does, or rebinds the name (what changes is then a copy)."""
    n = re.escape(name)
    rebinds = re.compile(rf"(?<![\w$.])(?:(?:var|let|const)\s+)?{n}\s*(?:=(?![=>])|\+=)|\bfor\s+{n}\b")
    changes = _changes(name)
    lines = [i for i in range(len(code.logical)) if i not in code.headers]
    if any(rebinds.search(code.logical_text(i)) for i in lines):
        return None
    return next((i for i in lines if changes.search(code.logical_text(i))), None)


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _SAID.finditer(clause.text):
        if _CONDITION.search(clause.text[:m.start()]):
            continue
        name = m.group("name") or m.group("name2") or m.group("name3")
        if name and clause.skip(name):
            continue
        for code in codes:
            language = language_for_path(code.label.split("::", 1)[0])
            if language not in _LANGUAGES or not code.leaf:
                continue
            if m.group("pure"):
                if m.group("f").rsplit(".", 1)[-1] != code.leaf:
                    continue
                targets = sorted(code.parameters)
            elif name:
                targets = [name] if name in code.parameters else []
            else:
                targets = sorted(code.parameters)
            for target in targets:
                line = _mutations(code, target)
                if line is not None:
                    out.append(Contradiction("mutation", f"the claim says `{m.group(0)}`",
                                             code.show(line, target), code.label, (target,)))
                    break
            else:
                continue
            break
    return out


def _check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    return check(clause, codes) + _copies(clause, codes)


RULE = Rule("mutation", _check, __doc__ or "")
