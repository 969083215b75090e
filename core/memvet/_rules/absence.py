"""absence: the claim says a missing input is accepted; the code raises for exactly that.

The claim's side: an input said to be missing (``with no W``, ``without
W``, ``with an empty W``, ``with zero W``, ``with no arguments``) and an
outcome that accepts it (``returns None``/``null``/``nothing``/``an empty
...``, ``is allowed``, ``is accepted``, ``just ...``, ``behaves like``,
``means``, ``falls back``, ``silently``, ``no error``), after the input or
before it ("X is fine without W"), in a clause that says nothing of raising
(``raise``, ``throw``, ``error``, ``exception``, ``fail``, ``reject``,
``invalid``, ``require``).

The code's side: a ``raise``/``throw`` guarded by a test of that input's
absence: inside ``if not W:``, ``if W is None:``, ``if W is undefined``,
``isinstance(W, Unset...)``, ``if (!W)``, ``W === undefined``, ``len(W) ==
0``, ``W.length === 0``, or ``W`` still equal to the default a defaults object
of the code gives it (``options.intervalCap === Number.POSITIVE_INFINITY``
after ``{intervalCap: Number.POSITIVE_INFINITY, ...options}``; ``W`` may be
read off ``options``, ``opts``, ``config``, ``this``); or the statement right after an early
``if W is not None: return ...`` (``is not undefined``, ``!== undefined``,
``!= null``). ``W`` is the claim's word as a name of the code (its plural
or singular too); "arguments" stands for any parameter of the anchored
function.

A clause that denies raising ("doesn't throw", "never raises", "is
harmless", "degrades to") accepts the input too. Never fires when the
clause itself speaks of raising, when the raise is
guarded by anything other than the named input's absence, or when the
named word is not a name of the code.

The reverse: ``no A, B or C`` (``without A/B``) in a clause that says it
raises (``throws``, ``rejects``, ``TypeError``), where the code's guard
testing the absence of exactly those names (as many conjuncts as names)
only warns (a call named ``*warn*``, no raise in its body), and no guard
testing the same absences (``=== 0`` counting as absent) raises.

Rationale: "with no default it just returns None" is the lenient API a
reader expects; a library that raises on the missing input instead is
where the guess is wrong, and the names are all real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule, singulars

__all__ = ["RULE"]

_MISSING = re.compile(r"\b(?:with\s+(?:no|an?\s+empty|zero)|without(?:\s+(?:an?|any))?|"
                      r"given\s+(?:no|an?\s+empty))\s+(?P<w>[A-Za-z_$][\w$]*)"
                      r"(?:(?:\s*/\s*|\s+(?:or|nor)\s+|[\s-]+)(?P<w2>[A-Za-z_$][\w$]*))?",
                      re.I)
#: A clause's denial that anything raises: "doesn't throw", "never raises".
_NO_RAISE = (r"(?:does(?:n['\u2019]t|\s+not)|do(?:n['\u2019]t|\s+not)|will\s+not|won['\u2019]t|never)\s+"
             r"(?:throw|raise|fail|error)s?")
_NO_RAISE_RE = re.compile(_NO_RAISE, re.I)
_ACCEPTS = re.compile(r"\b(?:returns?\s+(?:None|null|undefined|nothing|an?\s+empty)|(?:is|are)\s+(?:allowed|"
                      r"accepted|fine|ok|okay)|just\s+\w+|behaves?\s+like|means|falls?\s+back|silently|"
                      r"no\s+(?:error|exception)|harmless|degrades?|(?:is|are)\s+(?:ignored|a\s+no-?op)|"
                      + _NO_RAISE + r")\b", re.I)
_RAISES = re.compile(r"\b(?:rais|throw|error|exception|fail|reject|invalid|requir|refus|assert)", re.I)
_ANY_PARAMETER = frozenset({"argument", "arguments", "args", "arg", "parameter", "parameters", "params", "options",
                            "input", "inputs", "value"})
_RAISE = re.compile(r"^(?:\}\s*)?(?:raise|throw)\b")
_GUARD = re.compile(r"^(?:\}\s*)?(?:if|elif|else\s+if)\b")


#: An options object's member: ``options.intervalCap``, ``opts.x``, ``this.x``.
_MEMBER = r"(?<![\w$.])(?:(?:this|self|options|opts|config|settings|params)\.)?"


def _absent(text: str, name: str, defaults: Sequence[str] = ()) -> bool:
    """Whether the test ``text`` holds when ``name`` is missing or empty, or
    still holds the default the code gives it (``defaults``: ``intervalCap
    === Number.POSITIVE_INFINITY`` after ``{intervalCap:
    Number.POSITIVE_INFINITY, ...options}``)."""
    n = re.escape(name)
    left = _MEMBER + n
    unset = "|".join(["undefined", "null", "None", *(re.escape(d) for d in defaults)])
    return bool(re.search(rf"\bnot\s+(?:self\.|this\.)?{n}\b|"
                          rf"(?<![\w$.]){n}\s+is\s+(?:None|undefined|UNSET|_?[Mm]issing)\b|"
                          rf"isinstance\(\s*{n}\s*,\s*\w*Unset\w*\s*\)|!\s*(?:this\.)?#?{n}\b(?!\s*=)|"
                          rf"{left}\s*===?\s*(?:{unset})(?![\w$.])|len\(\s*{n}\s*\)\s*==\s*0|"
                          rf"(?<![\w$.]){n}\s*\.\s*length\s*===?\s*0", text))


def _defaults(code: Code, name: str) -> list[str]:
    """The values a defaults object of the code gives ``name`` (``name: value,``)."""
    source = "\n".join(code.physical)
    return [m.group(1) for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*:\s*([\w$.]+)\s*,", source)
            if not m.group(1)[:1].islower() or m.group(1) in ("true", "false", "null", "undefined")]


def _present(text: str, name: str) -> bool:
    """Whether the test ``text`` holds when ``name`` is given."""
    n = re.escape(name)
    return bool(re.search(rf"(?<![\w$.]){n}\s+is\s+not\s+(?:None|undefined|UNSET|_?[Mm]issing)\b|"
                          rf"(?<![\w$.]){n}\s*!==?\s*(?:undefined|null|None)\b", text))


def _names(code: Code, word: str) -> set[str]:
    """The code's names the claim word stands for."""
    if word.lower() in _ANY_PARAMETER:
        return set(code.parameters)
    forms = {word, *singulars(word), word + "s", word + "es", re.sub(r"y$", "ies", word)}
    return {f for f in forms if f in code.names}


def _guarded_raise(code: Code, names: set[str]) -> int | None:
    """A raise the absence of one of ``names`` leads to (see the module docstring)."""
    raises = [i for i in range(len(code.logical)) if _RAISE.match(code.logical_text(i))]
    defaults = {n: _defaults(code, n) for n in names}  # read once, not at every guard
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        if not _GUARD.match(text):
            continue
        body = code.block(index)
        hit = next((j for j in raises if j in body or (j == index + 1 and code.braces)), None)
        if hit is not None and any(_absent(text, n, defaults[n]) for n in names):
            return hit
        if any(_present(text, n) for n in names) and re.search(r"\breturn\b", " ".join(
                code.logical_text(j) for j in body)):
            after = index + len(body) + 1  # the statement right after the early return
            if after in raises and code.indent(after) == code.indent(index):
                return after
    return None


_NONE_OF = re.compile(r"\b(?:no|without)\s+(?P<ws>[A-Za-z_$][\w$]*(?:(?:\s*,\s*(?:or\s+|nor\s+)?|\s*/\s*|"
                      r"\s+(?:or|nor)\s+)[A-Za-z_$][\w$]*)+)", re.I)
_SAYS_RAISES = re.compile(r"\b(?:rais|throw|reject|refus)\w*|\b\w+(?:Error|Exception)\b")


def _warns_only(code: Code, names: list[set[str]]) -> int | None:
    """A guard that tests the absence of every one of ``names`` and only
    warns (a call named ``*warn*``, no raise in its body), when no guard
    testing the same absences raises."""
    warns = None
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        if not _GUARD.match(text):
            continue
        zero = re.sub(r"(?:this\.|self\.)?#?([\w$]+)\s*===?\s*(?:0|''|\"\")(?![\w.])", r"!\1", text)
        if not all(any(_absent(zero, n) for n in group) for group in names):
            continue
        body = [code.logical_text(j) for j in code.block(index)]
        if any(_RAISE.match(b) for b in body):
            return None
        conjuncts = len(re.split(r"&&|\band\b", text))
        if warns is None and conjuncts == len(names) and any(re.search(r"(?i)warn\w*\s*\(", b) for b in body):
            warns = index  # the guard tests exactly the claim's absences
    return warns


def _rejects(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """The reverse: "with no A, B or C it is rejected" where the code only warns."""
    said = _SAYS_RAISES.search(clause.text)
    if said is None or _NO_RAISE_RE.search(clause.text):
        return []
    out: list[Contradiction] = []
    for m in _NONE_OF.finditer(clause.text):
        words = re.findall(r"[A-Za-z_$][\w$]*", re.sub(r"\b(?:or|nor)\b", " ", m.group("ws")))
        if clause.skip(*words):
            continue
        for code in codes:
            names = [_names(code, w) for w in words]
            if not all(names):
                continue
            line = _warns_only(code, names)
            if line is not None:
                out.append(Contradiction(
                    "absence", f"the claim says with {' '.join(m.group(0).split())} it raises "
                    f"(`{said.group(0)}`); the code only warns", code.show(line, *words), code.label, tuple(words)))
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    if _RAISES.search(re.sub(_NO_RAISE, " ", clause.text, flags=re.I)):
        return _rejects(clause, codes)
    out: list[Contradiction] = []
    for m in _MISSING.finditer(clause.text):
        # "with no W it returns None", or the verdict first: "X is fine without W"
        accepts = _ACCEPTS.search(clause.text, m.end("w")) or _ACCEPTS.search(clause.text, 0, m.start())
        if accepts is None:
            continue
        words = [w for w in (m.group("w"), m.group("w2")) if w and not _ACCEPTS.match(w + " x")]
        if clause.skip(*words):
            continue
        phrase = clause.text[m.start():m.end("w2") if len(words) > 1 else m.end("w")]
        for code in codes:
            names = set().union(*(_names(code, w) for w in words))
            line = _guarded_raise(code, names) if names else None
            if line is not None:
                out.append(Contradiction(
                    "absence", f"the claim says {' '.join(phrase.split())} it {accepts.group(0)}",
                    code.show(line, "raise", "throw"), code.label, tuple(words)))
    return out


RULE = Rule("absence", check, __doc__ or "")
