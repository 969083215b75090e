"""always: the claim says the code always does something; the code does it only under a condition.

The claim's side: ``always`` (or ``unconditionally``) followed, within
five words and no comma, by an operand (a code term, a verb the code
calls, or a word the code uses; after a verb the code calls, what it is
done to: "unconditionally sets Content-Type" is about ``Content-Type``):
"ctx.onerror always writes err.message",
"request.host always prefers X-Forwarded-Host"; ``unconditionally`` at a
clause's end, preceded by one ("computes record.asctime
unconditionally"); or the passive ``X is always V-ed`` ("app.onerror is
always registered"), whose operand is the subject before ``always``.

The code's side: every use of the operand outside the signature sits under
a condition: on an ``if``/``elif``/``else``/``case`` line, in the block
of one, in a branch of a conditional expression (``c ? x : y``, ``x if
c else y``) or after a guard (``proxy && this.get(...)``, ``c and x``).
A dotted operand is the name with its owner (``err.message``, not
``statuses.message``). After a verb of patching ("unconditionally patches
X", "always replaces sys.excepthook", "overrides", "installs"), the uses
are the lines that assign ``X`` or a member of it, when there are any: a
read of ``X`` outside the condition is no patch.

Never fires on ``not always`` (``isn't always`` ...), on an operand in an
aside that names a condition ("Windows Terminal (WT_SESSION set) is always
treated as ..."), inside a message the
claim quotes, on a value written in a list of them ("quote_mode is one of
always/auto/never"), when the claim names
a condition of its own after ``always`` (``if``, ``when``, ``unless``,
``only``, ``except`` ...; a condition on the operand's own presence, "when
present", "if set", is none), or in the clause right after it ("always ends
in '\n' -- except when nothing was produced"), or opens the clause on the case it is about
("on a preflight it always writes ...", "for a HEAD request ...", "true ->
always adds ..."), when
the operand is used once without a condition, or when the code does not
use it at all (the term rules decide).

Rationale: "always" is how false facts overstate code that branches: koa
writes ``err.message`` to the client only when ``err.expose``, reads
``X-Forwarded-Host`` only when ``proxy`` is set and registers its default
error listener only when none was added. Every name in such a claim is
real; only the condition tells it false.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule, nearest

__all__ = ["RULE"]

_ALWAYS = re.compile(r"\b(?:always|unconditionally)\b", re.I)
_NOT = re.compile(r"\b(?:not|n't|never)\s*$", re.I)
_OWN_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|until|while|once|except|only|provided|as long as)\b"
                            r"(?!\s+(?:it\s+is\s+|it's\s+|they\s+are\s+)?(?:present|set|given|available|defined|"
                            r"there|passed|supplied)\b)", re.I)
#: "on a preflight it always writes ...", "for a HEAD request ... always": the clause opens on the case it is about.
_CASE = re.compile(r"\s*(?:on|for|with|in|during)\s+an?\s+[\w-]+", re.I)
#: "true -> always adds ...": the clause maps a case to what the code then does, each case its own condition.
_CASE_ARROW = re.compile(r"[\w`'\")\]]\s*(?:->|=>|\u2192)\s*$")
#: "(WT_SESSION set)": an aside naming the condition a subject is under, not the subject.
_PRESENCE_ASIDE = re.compile(r"\(\s*`?[\w.$-]+`?\s+(?:is\s+)?(?:set|present|given|defined|enabled|exists)\s*\)")
#: The next clause names the exception: "-- except when ...", "; unless ...", "(except ...)".
_EXCEPT_NEXT = re.compile(r"\s*(?:--|[-\u2013\u2014;,(])?\s*(?:except|unless|but\s+not|other\s+than)\b", re.I)
_IF_LINE = re.compile(r"(?:\}\s*)?(?:if|elif|else|case|default)\b")
_PASSIVE = re.compile(r"\b(?:is|are|gets?|was|were)\s+always\s+\w+(?:ed|en|t)\b", re.I)


def _conditional_lines(code: Code) -> set[int]:
    """The logical lines that run only under a condition: ``if``-like lines and their blocks."""
    out: set[int] = set()
    for index in range(len(code.logical)):
        if _IF_LINE.match(code.logical_text(index)):
            out.add(index)
            out.update(code.block(index))
    return out


def _in_expression_branch(text: str, pattern: re.Pattern[str]) -> bool:
    """Whether each use of ``pattern`` in ``text`` is a branch of a conditional expression."""
    found = list(pattern.finditer(text))
    if not found:
        return False
    for m in found:
        before = text[:m.start()]
        ternary = "?" in before.replace("?.", "").replace("??", "")
        python = re.search(r"\bif\b.+\belse\b", text[m.end():]) is not None or re.search(r"\belse\b", before)
        guard = re.search(r"&&|\band\b", before) is not None  # proxy && this.get('X-Forwarded-Host')
        if not (ternary or python or guard):
            return False
    return True


#: "unconditionally patches X", "always replaces sys.excepthook": a verb whose deed is an assignment to X.
_ASSIGNING = re.compile(r"\s*(?:patches|monkey-?patches|replaces|overrides|overwrites|assigns|installs)\s+"
                        r"(?:the\s+)?`?$", re.I)


def _only_under_condition(code: Code, atom: str, *, assigned: bool = False) -> int:
    """The first logical line using ``atom`` when every use is under a condition, else -1. With
    ``assigned``, the uses are the lines that assign ``atom`` or a member of it (``sys.excepthook = hook``,
    ``traceback.TracebackException.format = ...``), when there are any: what a patch is."""
    lines = code.lines_using(atom)
    if assigned:
        target = re.compile(rf"^\s*(?:[\w$]+\.)*{re.escape(atom)}(?:\.[\w$]+)*\s*=(?!=)")
        lines = [i for i in lines if target.match(code.logical_text(i))] or lines
    if not lines:
        return -1
    guarded = _conditional_lines(code)
    pattern = code.pattern(atom)
    for line in lines:
        if line not in guarded and not _in_expression_branch(code.logical_text(line), pattern):
            return -1
    return lines[0]


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _ALWAYS.finditer(clause.text):
        if _NOT.search(clause.text[:m.start()]) or clause.quoted(m.start()) \
                or "/" in clause.text[max(0, m.start() - 1):m.end() + 1]:
            continue  # (`always/auto/never`: a value among others, no adverb)
        rest = re.split(r"[,;]", clause.text[m.end():], maxsplit=1)[0]
        after = (clause.claim or "")[clause.offset + len(clause.text):] if clause.offset >= 0 else ""
        if _EXCEPT_NEXT.match(after):
            continue  # "always ends in '\n' -- except when nothing was produced": the exception, set apart
        if _OWN_CONDITION.search(rest) or _CASE.match(clause.text[:m.start()]) \
                or _CASE_ARROW.search(clause.text[:m.start()]):
            continue
        passive = _PASSIVE.search(clause.text, max(0, m.start() - 12))
        for code in codes:
            if passive is not None and passive.start() <= m.start() <= passive.end():
                found = nearest(clause, passive.start(), -1, code, reach=3)
            else:
                found = nearest(clause, m.end(), 1, code, reach=5, actions=True)
                if not found and m.group(0).lower() == "unconditionally" and not rest.strip():
                    # "calls entries.reserve(n) unconditionally": the adverb after what it says of
                    found = nearest(clause, m.start(), -1, code, reach=5, actions=True)
            if not found:
                continue
            word, atom = found
            if atom.startswith("call:"):  # "unconditionally sets Content-Type": what the call is done to
                found = nearest(clause, word.end, 1, code, reach=3)
                if not found:
                    continue
                word, atom = found
            if clause.skip(word.text) or atom.startswith("call:"):
                continue
            if _PRESENCE_ASIDE.match(clause.text, max(0, word.start - 1)):
                continue  # "Windows Terminal (WT_SESSION set) is always ...": the condition, not the subject
            if word.term is not None and word.text.count(".") >= 1:
                called = re.sub(r"\(.*\)$", "", word.text)  # res.flush(): the name, its call left out
                owned = ".".join(called.split(".")[-2:])  # err.message, not statuses.message
                atom = owned if code.lines_using(owned) else atom
            patched = _ASSIGNING.match(clause.text[m.end():word.start]) is not None
            line = _only_under_condition(code, atom, assigned=patched)
            if line >= 0:
                out.append(Contradiction(
                    "always", f"the claim says `{word.text}` always applies; the code has it only under a condition",
                    code.show(line, atom.rsplit(".", 1)[-1]), code.label, (word.text,)))
                break
    return out


RULE = Rule("always", check, __doc__ or "")
