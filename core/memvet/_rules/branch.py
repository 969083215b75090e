"""branch: the claim says what the code does for one value; that value's branch does something else.

The claim's side: ``for V`` (``on V``, ``with V``, ``given V``), ``V`` a
number or a quoted string, then in the same part of the sentence a verb
and its objects: "for 205 res.send removes Content-Length and
Content-Type".

The code's side: the branches whose condition compares with ``V``
(``=== 205``, ``== "x"``, ``case 205:``), and the calls named for the verb
(see :meth:`memvet._rules._common.Code.calls_named`).

Fires when ``V``'s branches call the verb, none of those calls names an
object of the claim, and a call of the verb elsewhere in the code does
(``removeHeader('Content-Length')`` is in the branch for 204 and 304; the
branch for 205 only removes ``Transfer-Encoding``).

Never fires when the code has no branch for ``V``, when that branch does
not call the verb at all (it may do it through a helper), or when no call
of the verb anywhere names the objects.

A second reading, uniform treatment: ``V`` (a number or a quoted string)
said to be handled "like every other" (``like any other``, ``the same as
all others``, ``no special case``): fires when the code has a branch for
``V`` (a 413 retried "like every other status code" where the code tests
``status === 413`` and throws). Never fires on a branch for everything but
``V`` (``!== 413``), nor when ``V`` comes after the marker.

A third reading, the end of a loop: "Return SkipEntry from StructField
and walkStruct bails out of the struct: all following fields are
skipped" (``bails out``, ``aborts``, ``stops``, ``breaks out``, ``halts``,
``gives up``, ``all following``, ``the rest``) for a name of the clause
the code compares with (``err == SkipEntry``, ``is``, ``===``,
``errors.Is(err, SkipEntry)``). Fires when every such branch only
``continue``s: the loop goes on with the next one. When the clause names
a call the code makes right before such a branch (``sw.StructField(sf,
f)``), only the branches after it are read (the one after ``sw.Struct(v)``
sets state and is another case). Never fires on a negated clause.

Rationale: per-value behaviour (status codes, methods, schemes) is
described by analogy ("exactly like for 204 and 304"), and the analogy is
where it goes wrong; the names are all real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import TermKind
from memvet._rules._common import (
    STOP,
    Clause,
    Code,
    Contradiction,
    Rule,
    is_boundary,
    object_tokens,
    object_words,
)

__all__ = ["RULE"]

_FOR = re.compile(r"\b(?:for|on|with|given)\s+(?:an?\s+|the\s+)?$", re.I)


def _branches(code: Code, value: str) -> list[int]:
    """The logical lines that run when a condition compares with ``value``."""
    literal = re.escape(value)
    test = re.compile(rf"(?:[!=]==?\s*[\"']?{literal}[\"']?(?![\w.])|(?<![\w.])[\"']?{literal}[\"']?\s*[!=]==?"
                      rf"|\bcase\s+[\"']?{literal}[\"']?\s*:)")
    out: list[int] = []
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        if not re.match(r"(?:\}\s*)?(?:if|elif|else\s+if|case)\b", text) or not test.search(text):
            continue
        if re.search(rf"!==?\s*[\"']?{literal}|[\"']?{literal}[\"']?\s*!==?", text):
            continue  # a branch for everything but the value
        out += [index, *code.block(index)]
    return out


#: "like every other", "the same as any other", "no special case": the value is not singled out.
_UNIFORM = re.compile(r"\b(?:(?:just\s+)?like|(?:in\s+)?the\s+same\s+(?:way\s+)?as|same\s+as)\s+(?:every|any|all|the)"
                      r"\s+others?\b|\bno\s+(?:special|separate|different)\s+(?:case|treatment|handling)\b", re.I)


def _uniform(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _UNIFORM.finditer(clause.text):
        values = [w for w in clause.words if w.end <= m.start() and w.term is not None
                  and w.term.kind in (TermKind.NUMBER, TermKind.STRING) and not clause.skip(w.text)]
        if not values:
            continue
        value = values[-1]
        for code in codes:
            lines = _branches(code, value.text)
            if lines:
                out.append(Contradiction(
                    "branch", f"the claim says {value.text} is handled {' '.join(m.group(0).split())}",
                    code.show(lines[0], value.text), code.label, (value.text,)))
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = _uniform(clause, codes)
    for w in clause.words:
        if w.term is None or w.term.kind not in (TermKind.NUMBER, TermKind.STRING):
            continue
        if not _FOR.search(clause.text[:w.start].rstrip("'\"")) or clause.skip(w.text):
            continue
        after = [x for x in clause.words if x.start >= w.end]
        for code in codes:
            lines = _branches(code, w.text)
            if not lines:
                continue
            for x in after[:8]:
                if is_boundary(clause.text[w.end:x.start]) or x.term is not None or x.text.lower() in STOP:
                    continue
                calls = code.calls_named(x.text)
                if not calls:
                    continue
                objects = object_words(clause, x.end, 1, lists=True)
                tokens = object_tokens(objects, clause)
                inside = [c for c in calls if c.line in lines]
                outside = [c for c in calls if c.line not in lines]
                if (tokens and inside and not any(tokens & c.tokens() for c in inside)
                        and any(tokens & c.tokens() for c in outside)):
                    named = clause.text[objects[0].start:objects[-1].end]
                    out.append(Contradiction(
                        "branch", f"the claim says that for {w.text} it {x.text} {named}",
                        code.show(inside[0].line, inside[0].name), code.label, (w.text, *(o.text for o in objects))))
                break
    return out


#: "walkStruct bails out of the struct", "all following fields are skipped": the work is said to end there.
_ENDS = re.compile(r"\b(?:bails?\s+out|aborts?|stops|breaks?\s+out|halts|gives\s+up)\b"
                   r"|\ball\s+(?:the\s+)?(?:following|remaining|subsequent|later)\b|\bthe\s+rest\b", re.I)
_NEGATED = re.compile(r"\b(?:not|never|no longer|doesn't|don't|won't|isn't)\b[^,;]*$", re.I)


def _continued(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"Return SkipEntry from StructField and walkStruct bails out of the struct: all following fields are
    skipped" where every branch of the code on ``SkipEntry`` only ``continue``s: the loop goes on with the next."""
    m = _ENDS.search(clause.text)
    if m is None or _NEGATED.search(clause.text[:m.start()]):
        return []
    out: list[Contradiction] = []
    for w in clause.words:
        if w.term is None or w.term.kind not in (TermKind.IDENTIFIER, TermKind.CODE) or clause.skip(w.text) \
                or not re.fullmatch(r"[A-Za-z_$][\w$.]*", w.text):
            continue
        name = re.escape(w.text.rsplit(".", 1)[-1])
        test = re.compile(rf"(?:==|===|\bis)\s*(?:[\w$]+\.)?{name}\b(?!\s*\()|\b{name}\s*(?:==|===)"
                          rf"|\berrors\.Is\(\s*\w+\s*,\s*(?:[\w$]+\.)?{name}\s*\)")
        others = {x.text.rsplit(".", 1)[-1] for x in clause.words if x is not w and x.term is not None}
        for code in codes:
            lines = [i for i in code.lines_matching(test) if re.match(r"(?:\}\s*)?(?:if|elif|else\s+if)\b",
                                                                     code.logical_text(i))]
            # "SkipEntry from StructField": the branches right after a call the claim names, when there are any
            after = [i for i in lines if any(c.name in others and i - 3 <= c.line <= i for c in code.calls)]
            lines = after or lines
            if lines and all(code.body(i) == ["continue"] for i in lines):
                out.append(Contradiction("branch", f"the claim says `{m.group(0)}` on `{w.text}`; the code goes on "
                                         "with the next one", code.logical_text(lines[0])[:120], code.label, (w.text,)))
                return out
    return out


def _check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    return check(clause, codes) + _continued(clause, codes)


RULE = Rule("branch", _check, __doc__ or "")
