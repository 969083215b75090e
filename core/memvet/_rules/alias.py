"""alias: the claim says one name is an alias of another; the code defines it as something else.

The claim's side: ``X is (just, only, simply) an alias of Y`` (``for``,
``to``; ``a deprecated / legacy alias``; ``an alias that enables / calls
Y``) and ``the X alias points at Y``, with ``X`` and ``Y`` names of the
code, backticked or not.

The code's side: the definition of ``X`` in the anchored code: an
assignment or constant (``FORMAT_RFC3339 = "YYYY-MM-DD HH:mm:ssZZ"``,
``exports.lookup = lookup``), an entry of the object ``X`` is written
under (``exports.charsets = { lookup: charset }`` for
``mime.charsets.lookup``), a manifest's key (a Cargo feature ``std =
[]``), or the body of a function ``X``.

The same for ``X = Y`` with ``Y`` a qualified name ("merge =
mergo.MergeWithOverwrite"), read only against an anchored function ``X``:
fires when its body never names ``Y`` and another anchor of the claim does.

Fires when that definition names something else and never ``Y``, and the
anchored code names ``Y`` somewhere (the alias points elsewhere, or ``X``
is a value of its own). Never fires when the code has no definition of
``X``, when ``Y`` is not in the anchored code (an alias of something the
code only imports is not read), on a negated clause ("is not an alias of
Y"), nor on a name the writer declared unbound.

Rationale: "mime.charsets.lookup is just an alias of mime.lookup" and
"FORMAT_RFC3339 is an alias of FORMAT_RFC3339_STRICT" name only real
things; the one line that defines ``X`` says what it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule
from memvet._rules.value import _entry

__all__ = ["RULE"]

_NAME = r"`?(?P<{}>[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)(?:\(\))?`?"
_ALIAS = re.compile(_NAME.format("x") + r"\s+(?:is|are)\s+"
                    r"(?:(?:just|only|simply|merely|basically|literally|really)\s+)?(?:an?\s+)?"
                    r"(?:(?:deprecated|legacy|thin|plain|pure|old|backwards?[- ]compatible)\s+)?"
                    r"alias(?:es)?\s+(?:of|for|to|that\s+(?:enables|calls|points\s+(?:at|to)|turns\s+on)|"
                    r"(?:which|that)\s+(?:enables|calls))\s+(?:the\s+)?" + _NAME.format("y"))
#: "the legacy `preferredEncoding` alias points at `encodings`".
_POINTS = re.compile(_NAME.format("x") + r"\s+alias\s+(?:points|refers|resolves)\s+(?:at|to)\s+(?:the\s+)?"
                     + _NAME.format("y"))
#: "merge = mergo.MergeWithOverwrite": a function written as another package's, with an equals sign.
_EQUALS = re.compile(r"(?<![\w$.=!<>])" + _NAME.format("x") + r"\s*=(?![=>])\s*"
                     + r"`?(?P<y>[A-Za-z_$][\w$]*(?:\.|::)[A-Za-z_$][\w$]*)(?:\(\))?`?(?![\w$.(])")
#: A negation right before the claim's name: "it is not true that X is an alias of Y".
_NOT = re.compile(r"\b(?:not|never|no longer|isn't|aren't)\s+(?:\w+\s+){0,3}$", re.I)


def _definition(code: Code, name: str, owner: str) -> tuple[str, int] | None:
    """What the anchored code defines ``name`` as (its right-hand side, or a function's body), with the
    line; under ``owner`` when the claim writes one (``charsets`` of ``mime.charsets.lookup``)."""
    n = re.escape(name)
    entry = _entry(name)
    if owner:
        o = re.escape(owner)
        for index in range(len(code.logical)):
            text = code.logical_text(index)
            m = re.search(rf"(?<![\w$]){o}\s*[:=]\s*\{{(?P<body>[^{{}}]*)\}}", text)
            if m:
                e = entry.search(m.group("body"))
                if e:
                    return e.group(1), index
    assign = re.compile(rf"^\s*(?:export\s+|pub(?:\([\w\s]*\))?\s+)?(?:(?:const|let|var|static|type|final)\s+)?"
                        rf"(?:[\w$]+\.)*{n}\s*(?::[^=]*)?=(?![=>])\s*(?P<rhs>.+?)\s*;?$")
    function = re.compile(rf"^\s*(?:export\s+|pub(?:\([\w\s]*\))?\s+)?(?:async\s+)?(?:def|fn|func|function)\s+"
                          rf"(?:\([^)]*\)\s*)?{n}\b")
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        m = assign.match(text)
        if m and not owner:
            return m.group("rhs"), index
        if function.match(text) and not owner:
            body = [code.logical_text(j) for j in code.block(index) if j != index]
            return " ".join(body) or text, index
    return None


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in [*_ALIAS.finditer(clause.text), *_POINTS.finditer(clause.text)]:
        x, y = m.group("x"), m.group("y")
        if clause.skip(x, y) or _NOT.search(clause.text[:m.start()]):
            continue
        parts = re.split(r"\.|::", x)
        name, owner = parts[-1], (parts[-2] if len(parts) > 1 else "")
        target = re.split(r"\.|::", y)[-1]
        if name == target and not owner:
            continue  # lookup for lookup: the same name; mime.charsets.lookup for mime.lookup is read by its owner
        names_target = re.compile(rf"(?<![\w$]){re.escape(target)}(?![\w$])")
        for code in codes:
            found = _definition(code, name, owner)
            if found is None or not any(names_target.search(code.logical_text(i)) for i in range(len(code.logical))):
                continue
            rhs, line = found
            if names_target.search(rhs):
                continue
            out.append(Contradiction("alias", f"the claim says `{m.group(0)}`", code.show(line, name),
                                     code.label, (x, y)))
    return out + _equals(clause, codes)


def _equals(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"merge = mergo.MergeWithOverwrite" of an anchored function ``merge`` whose body never names
    ``MergeWithOverwrite``, where another anchor of the claim does (``mergeOverwrite`` calls it): the
    claim gives the one function what the other does."""
    out: list[Contradiction] = []
    for m in _EQUALS.finditer(clause.text):
        x, y = m.group("x"), m.group("y")
        target = re.split(r"\.|::", y)[-1]
        if clause.skip(x, y) or _NOT.search(clause.text[:m.start()]) or x == target:
            continue
        names_target = re.compile(rf"(?<![\w$]){re.escape(target)}(?![\w$])")
        if not any(names_target.search(code.logical_text(i)) for code in codes for i in range(len(code.logical))):
            continue  # the target is no name of the anchored code: nothing to set against
        for code in codes:
            if code.leaf != x:
                continue
            found = _definition(code, x, "")
            if found is None or not re.match(r"\s*(?:export\s+|pub(?:\([\w\s]*\))?\s+)?(?:async\s+)?"
                                             r"(?:def|fn|func|function)\b", code.logical_text(found[1])):
                continue  # only a function's body: an assignment's value is the value rule's
            # the anchored code is the function: every line of it but its signature (a Rust `where` clause
            # and a brace on lines of their own included)
            if not any(names_target.search(code.logical_text(i)) for i in range(len(code.logical))
                       if i not in code.headers):
                out.append(Contradiction("alias", f"the claim says `{m.group(0)}`", code.show(found[1], x),
                                         code.label, (x, y)))
    return out


RULE = Rule("alias", check, __doc__ or "")
