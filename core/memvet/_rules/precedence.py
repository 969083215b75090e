"""precedence: the claim says which of two sources wins; the code lets the other one win.

The claim's side. ``A`` wins over ``B`` in ``A takes precedence over B``
(``has``, ``gets``, ``priority``), ``A wins over B``, ``A overrides B``,
``A takes over from B``, ``A is preferred to B`` (``tried``, ``checked``,
``read``, ``consulted`` ... ``before``), ``prefers A over B``, ``A, falling
back to B``, ``A, with B as (a) fallback``, "if both A and B are given, A wins (takes
precedence)", and ``B is (only) used when no A``, ``B is overridden by
A``, ``B is a fallback for A``. ``A`` and ``B``
are the operands next to the marker (see :func:`memvet._rules._common.nearest`).

The code's side: which operand wins, in one of these shapes only.

* A fallback chain in one statement: ``a or b``, ``a ?? b``, ``a || b``,
  ``a if c else b``, ``typeof a === 'function' ? a : b``: the first
  operand wins. Not in an ``if`` or ``while`` condition whose operands
  are tested alike, where ``or`` and ``||`` test either and pick no value
  (``if !i.Created.IsZero() || !i.Updated.IsZero() {``); one tested
  negated beside one that is not still lets the first win (``if (debug
  || !quiet)``: debug wins over quiet).
* A loop over candidates that stops at the first hit (``break``,
  ``return``, ``if x is None``): the earlier candidate wins.
* A merge: ``{**a, **b}``, ``{...a, ...b}``, ``Object.assign({}, a, b)``,
  ``dict(a, **b)``, or ``x = ...a...`` followed by ``x.update(...b...)``,
  ``Object.assign(x, ...b...)`` or ``x |= ...b...``: the later one wins.
* A guarded fallback: ``x = ...a...`` followed by ``if x is None`` (``not
  x``, ``!x``, ``x == null``) whose body assigns ``x = ...b...``: ``a`` wins.
* A chain of early returns: ``x = ...a...`` followed by ``if x is not
  None`` (``x !== null``, ``if x:``) whose body returns, before the
  statement that reads ``b``: ``a`` wins.
* An ``if`` / ``else if`` chain whose tests each read one operand and
  whose branches set the same name: the operand tested first wins.
* A guard on one operand alone whose body returns: ``if self.a:``
  (``if a is not None:``, ``if (this.a) {``) with a ``return`` in its body,
  before the first statement that reads ``b``: ``a`` wins.

Fires when the code shows ``B`` winning over ``A`` and nowhere ``A`` over
``B``. Never fires on precedence across statements of any other shape
(which assignment runs last depends on control flow the rule does not
follow), nor on a loop that merges each candidate in turn without a stop
(flask's ``load_dotenv``: later wins, yet nothing stops it).

A second reading, set-if-absent: the claim says a value is forced over one
already there ("overriding any Accept header you passed", ``overwrites an
existing``, ``replacing any``) and the code keeps the one already set:
``set('accept', get('accept') || mime)`` (``??``, ``or``),
``setdefault('accept', ...)``, ``if (!headers.has('accept'))`` or ``if
'accept' not in headers``, the key compared in any case. Never fires when
the code sets the key unconditionally, nor on a key the code does not name.

Rationale: "X overrides Y" is the commonest false fact about configuration
(httpx: "proxy= overrides mounts=" where mounts are merged last; express:
"app.locals win over res.locals"), and it cannot be caught by terms: both
names are real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import (
    GENERIC,
    STOP,
    Clause,
    Code,
    Contradiction,
    Rule,
    Word,
    nearest,
    needle,
    shown,
)

__all__ = ["RULE"]

_WINS = (  # A <marker> B: A wins
    r"\b(?:takes?|taking|took|has|have|having|gets?|given|is given) (?:the )?(?:precedence|priority) over\b",
    r"\b(?:wins?|winning|won) over\b",
    r"\b(?:overrides?|overriding|overrode)\b",
    r"\b(?:takes?|taking|took) over from\b",
    r"\b(?:is|are) (?:preferred|tried|checked|read|consulted) (?:to|over|before)\b",
    r"\b(?:and\s+)?(?:only\s+)?(?:falls?|falling) back (?:to|on)\b",
)
_LOSES = (  # B <marker> A: A wins
    r"\b(?:is|are) (?:only )?(?:overridden|overriden|replaced) by\b",
    r"\b(?:is|are) (?:only )?(?:used|read|consulted|applied|taken) (?:only )?(?:when|if) (?:there is |there's )?no\b",
    r"\b(?:is|are) (?:only )?(?:a|the) fallback (?:for|to)\b",
    r"\b(?:gives?|giving) way to\b",
)
_WINS_RE = tuple(re.compile(p) for p in _WINS)
_LOSES_RE = tuple(re.compile(p) for p in _LOSES)
_PREFERS = re.compile(r"\bprefers?\b")
_OVER = re.compile(r"\b(?:over|to)\b")
#: "A wins", "A takes precedence" with no "over": the other operand is named by "both A and B" before it.
_WINS_ALONE = re.compile(r"\b(?:wins|takes\s+precedence|has\s+precedence)\b(?!\s+(?:over|from)\b)")
_BOTH = re.compile(r"\bboth\s+(?:the\s+)?[^,;]{1,60}?(?P<and>\band\b)")
_AS_FALLBACK = re.compile(r"\bwith (?:the )?(?P<b>.{1,40}?) as (?:a |the )?fallback\b")


def _operand_in(clause: Clause, code: Code, start: int, end: int) -> tuple[Word, str] | None:
    """The first word between ``start`` and ``end`` that stands for an atom of ``code``."""
    for w in clause.words:
        if start <= w.start and w.end <= end:
            atom = code.resolve(w, clause.declared)
            if atom:
                return w, atom
    return None


def _claimed(clause: Clause, code: Code) -> list[tuple[Word, str, Word, str, str]]:
    """(winner word, its atom, loser word, its atom, marker) the clause states."""
    out = []
    for patterns, winner_left in ((_WINS_RE, True), (_LOSES_RE, False)):
        for pattern in patterns:
            for m in pattern.finditer(clause.text):
                left = nearest(clause, m.start(), -1, code)
                right = nearest(clause, m.end(), 1, code)
                if left and right:
                    a, b = (left, right) if winner_left else (right, left)
                    out.append((a[0], a[1], b[0], b[1], " ".join(m.group(0).split())))
    for m in _PREFERS.finditer(clause.text):
        over = _OVER.search(clause.text, m.end())
        if over:
            a = nearest(clause, m.end(), 1, code)
            b = nearest(clause, over.end(), 1, code)
            if a and b and a[0].end <= over.start():
                out.append((a[0], a[1], b[0], b[1], "prefers ... over"))
    for m in _WINS_ALONE.finditer(clause.text):  # "if both A and B are given, A wins": the loser is the other one
        both = _BOTH.search(clause.text, 0, m.start())
        if both is None:
            continue
        a = nearest(clause, m.start(), -1, code)
        first = _operand_in(clause, code, both.start() + 4, both.start("and"))
        second = nearest(clause, both.end("and"), 1, code)
        if a and first and second and first[0].end <= both.start("and") < second[0].start <= a[0].start:
            b = second if a[1] == first[1] else first if a[1] == second[1] else None
            if b is not None and b[1] != a[1]:
                out.append((a[0], a[1], b[0], b[1], " ".join(m.group(0).split())))
    for m in _AS_FALLBACK.finditer(clause.text):
        a = nearest(clause, m.start(), -1, code)
        b = nearest(clause, m.start("b"), 1, code)
        if a and b and b[0].end <= m.end("b"):
            out.append((a[0], a[1], b[0], b[1], "with ... as fallback"))
    return out


# ----------------------------------------------------------------- the code's side

_FALLBACK = re.compile(r"\bor\b|\|\||\?\?|\belse\b|\s\?\s[^;]*\s:\s")  # `c ? a : b`: JavaScript's conditional
_STOPS = re.compile(r"\b(?:break|return)\b|\bis None\b|\bis not None\b|\bif not\b|===? (?:null|undefined)\b")
_SPREAD = re.compile(r"(?:\.\.\.|\*\*)\s*[\w$.]+")
_MERGE_CALL = re.compile(r"\b(?:Object\.assign|dict|merge|extend)\s*\(")


#: The target of an assignment statement: ``exports.log =``, ``const x =``, ``self.a: T =``.
_ASSIGNED = re.compile(r"\s*(?:(?:const|let|var)\s+)?[\w$.]+(?:\[[^\]]*\])?\s*(?::[^=]*)?=(?![=>])")


def _positions(code: Code, text: str, atom: str) -> list[int]:
    return [m.start() for m in code.pattern(atom).finditer(text)]


def _later_wins(text: str) -> bool:
    """A statement that merges its operands in turn: spreads, ``Object.assign``, ``dict(a, **b)``."""
    return len(_SPREAD.findall(text)) >= 2 or bool(_MERGE_CALL.search(text) and "," in text)


def _loop_stops(code: Code, line: int) -> bool:
    if not re.match(r"\s*for\b", code.physical[code.logical[line][0]]):
        return False
    body = "\n".join(code.logical_text(j) for j in code.block(line))
    return bool(_STOPS.search(body))


def _negated(text: str, at: int) -> bool:
    """Whether the operand at ``at`` (inside a term such as ``i.Created.IsZero()``) is tested negated:
    ``!`` or ``not`` right before its term."""
    start = at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_$."):
        start -= 1
    return bool(re.search(r"(?:!|\bnot\s+)\s*$", text[:start]))


#: A statement that tests a condition: ``if``, ``elif``, ``else if``, ``while``.
_CONDITION_HEAD = re.compile(r"\s*(?:\}\s*)?(?:else\s+)?(?:if|elif|while)\b")


def _in_statement(code: Code, a: str, b: str) -> list[tuple[str, int]]:
    """(winner, line) for each statement holding both ``a`` and ``b`` in a shape that picks one."""
    out = []
    for line in range(len(code.logical)):
        text = code.logical_text(line)
        # what an assignment assigns to is no operand: `exports.log = console.debug || console.log`
        target = _ASSIGNED.match(text)
        if target:
            text = text[target.end():]
        pa, pb = _positions(code, text, a), _positions(code, text, b)
        if not pa or not pb:
            continue
        first, last = (a, b) if pa[0] < pb[0] else (b, a)
        between = text[min(pa[0], pb[0]):max(pa[-1], pb[-1])]
        if _CONDITION_HEAD.match(text) and not re.search(r"\?\?|\s\?\s", between) \
                and _negated(text, pa[0]) == _negated(text, pb[0]):
            # `if !i.Created.IsZero() || !i.Updated.IsZero() {`: a test of either, no value picked (while
            # `if (debug || !quiet)` lets debug win over quiet)
            continue
        if _later_wins(text) and not _FALLBACK.search(between.replace("...", "")):
            out.append((last, line))
        elif _FALLBACK.search(between) or _loop_stops(code, line):
            out.append((first, line))
    return out


def _target(code: Code, line: int) -> str:
    """The name a statement assigns (``x`` of ``self.x: T = ...``), or ''."""
    m = re.match(r"\s*(?:(?:self|this)\.|const\s+|let\s+|var\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=(?!=)",
                 code.logical_text(line))
    return m.group(1) if m else ""


def _assignments(code: Code, name: str) -> list[int]:
    return [i for i in range(len(code.logical)) if i not in code.headers and _target(code, i) == name]


def _across_statements(code: Code, a: str, b: str) -> list[tuple[str, int]]:
    """(winner, line) from a merge or a guarded fallback over one target."""
    out = []
    for line in range(len(code.logical)):
        target = _target(code, line)
        if not target:
            continue
        text = code.logical_text(line).split("=", 1)[1]
        for first, second in ((a, b), (b, a)):
            if not _positions(code, text, first) or _positions(code, text, second):
                continue
            rest = range(line + 1, len(code.logical))
            name = re.escape(target)
            merge = re.compile(rf"(?<![\w$]){name}\s*\.\s*update\s*\("
                               rf"|Object\.assign\s*\(\s*(?:this\.|self\.)?{name}\b|(?<![\w$]){name}\s*\|=")
            guard = re.compile(rf"^(?:\}}\s*)?(?:if|elif|else if)\b.*(?:(?<![\w$.]){name} is None"
                               rf"|\bnot (?:self\.)?{name}\b|!\s*(?:this\.)?{name}\b|{name} ===? (?:null|undefined))")
            for j in rest:
                later = code.logical_text(j)
                if merge.search(later) and _positions(code, later, second):
                    out.append((second, j))
                elif guard.search(later) and any(
                        _target(code, k) == target and _positions(code, code.logical_text(k).split("=", 1)[1], second)
                        for k in code.block(j)):
                    out.append((first, j))
    return out


def _first_found(code: Code, a: str, b: str) -> list[tuple[str, int]]:
    """(winner, line) from a chain of early returns: ``x = ...a...`` then
    ``if x is not None: return`` (``if (x !== null) {return ...}``, ``if x:``)
    before the statement that reads ``b``: ``a`` wins when it is found."""
    out = []
    for line in range(len(code.logical)):
        target = _target(code, line)
        if not target or line in code.headers:
            continue
        text = code.logical_text(line).split("=", 1)[1]
        for first, second in ((a, b), (b, a)):
            if not _positions(code, text, first) or _positions(code, text, second):
                continue
            name = re.escape(target)
            found = re.compile(rf"^(?:\}}\s*)?(?:if|elif|else if)\b\s*\(?\s*(?:{name}\s*(?:!==?\s*(?:null|undefined)"
                               rf"|is not None|!=\s*None)|{name}\s*\)?\s*[:{{]|{name}\s*\)\s*return\b)")
            for j in range(line + 1, len(code.logical)):
                if not found.search(code.logical_text(j)):
                    continue
                body = [j, *code.block(j)]
                if not any(re.search(r"\breturn\b", code.logical_text(k)) for k in body):
                    break
                later = [k for k in range(max(body) + 1, len(code.logical))
                         if _positions(code, code.logical_text(k), second)]
                if later:
                    out.append((first, later[0]))
                break
    return out


def _guarded_first(code: Code, a: str, b: str) -> list[tuple[str, int]]:
    """(winner, line) from a guard on one operand alone that returns: ``if
    self.a:`` (``if a is not None:``, ``if (this.a) {``) whose body returns,
    before the first statement that reads the other: ``a`` wins when it is set."""
    out = []
    for line in range(len(code.logical)):
        text = code.logical_text(line)
        for first, second in ((a, b), (b, a)):
            name = re.escape(first.split(".")[-1].lstrip("="))
            if not re.match(rf"^(?:\}}\s*)?(?:if|elif|else if)\s*\(?\s*(?:(?:self|this)\s*\.\s*)?{name}"
                            rf"(?:\s+is\s+not\s+None|\s*!==?\s*(?:null|undefined))?\s*\)?\s*[:{{]\s*$", text):
                continue
            body = code.block(line)
            if not body or not any(re.search(r"\breturn\b", code.logical_text(k)) for k in body) or any(
                    _positions(code, code.logical_text(k), second) for k in range(line + 1)):
                continue
            later = [k for k in range(max(body) + 1, len(code.logical))
                     if _positions(code, code.logical_text(k), second)]
            if later:
                out.append((first, later[0]))
    return out


_BRANCH = re.compile(r"^(?:\}\s*)?(?P<kw>if|elif|else\s+if)\b(?P<test>.*?)[:{]?\s*$")


def _branch_chain(code: Code, a: str, b: str) -> list[tuple[str, int]]:
    """(winner, line) from an ``if``/``else if`` chain whose tests each read
    one operand and whose branches set one name (``if (opts.arrayFormat in
    gens) { arrayFormat = ... } else if ('indices' in opts) { arrayFormat =
    ... }``): the operand tested first wins."""
    out = []
    for line in range(len(code.logical)):
        head = _BRANCH.match(code.logical_text(line))
        if head is None or head.group("kw") != "if":
            continue
        body = code.block(line)
        targets = {_target(code, k) for k in body} - {""}
        nxt = max(body) + 1 if body else line + 1
        if not targets or nxt >= len(code.logical):
            continue
        other = _BRANCH.match(code.logical_text(nxt)) if code.indent(nxt) == code.indent(line) else None
        if other is None or other.group("kw") == "if":
            continue
        if not targets & {_target(code, k) for k in code.block(nxt)}:
            continue
        for first, second in ((a, b), (b, a)):
            if _positions(code, head.group("test"), first) and not _positions(code, head.group("test"), second) \
                    and _positions(code, other.group("test"), second) \
                    and not _positions(code, other.group("test"), first):
                out.append((first, nxt))
    return out


def _winners(code: Code, a: str, b: str) -> list[tuple[str, int]]:
    return (_in_statement(code, a, b) + _across_statements(code, a, b) + _first_found(code, a, b)
            + _guarded_first(code, a, b) + _branch_chain(code, a, b))


#: "overriding any X", "overwrites an existing X": the new value is forced over one already there.
_OVERWRITES = re.compile(r"\b(?:overrid(?:e|es|ing)|overwrit(?:e|es|ing)|replac(?:e|es|ing)|clobber(?:s|ing)?)\s+"
                         r"(?:any(?:\s+existing)?|an?\s+existing|the\s+existing|existing|whatever)\b", re.I)


def _kept(code: Code, key: str) -> int:
    """The line where the code keeps a ``key`` already set instead of overwriting it, or -1."""
    k, q = re.escape(key), r"[\"'`]"
    keeps = re.compile(
        rf"\bset\w*\s*\(\s*{q}{k}{q}\s*,[^;\n]*?\bget\w*\s*\(\s*{q}{k}{q}\s*\)\s*(?:\|\||\?\?|\bor\b)"
        rf"|\bsetdefault\s*\(\s*{q}{k}{q}"
        rf"|^(?:\}}\s*)?(?:if|elif|else if)\b.*(?:!\s*[\w$.]*\.has\s*\(\s*{q}{k}{q}\s*\)|{q}{k}{q}\s+not\s+in\b)",
        re.I)
    return next((i for i in range(len(code.logical)) if keeps.search(code.logical_text(i))), -1)


def _overwrites(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _OVERWRITES.finditer(clause.text):
        # the object: its first name, hyphens and all (content-type), within three words
        for key in re.findall(r"[A-Za-z_$][\w$]*(?:-[A-Za-z_$][\w$]*)*", clause.text[m.end():])[:3]:
            if key.lower() in STOP or key.lower() in GENERIC or clause.skip(key):
                continue
            for code in codes:
                line = _kept(code, key)
                if line >= 0:
                    out.append(Contradiction(
                        "precedence", f"the claim says the code overwrites any `{key}` already set "
                        f"({' '.join(m.group(0).split())}); it keeps one", code.show(line, key.lower(), key),
                        code.label, (key,)))
            break
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = _overwrites(clause, codes)
    for code in codes:
        for a, winner, b, loser, marker in _claimed(clause, code):
            if winner == loser or clause.skip(a.text, b.text):
                continue
            found = _winners(code, winner, loser)
            if not found or any(w == winner for w, _ in found):
                continue
            line = found[0][1]
            out.append(Contradiction(
                "precedence", f"the claim lets `{shown(a, winner)}` win over `{shown(b, loser)}` ({marker})",
                code.show(line, needle(loser), needle(winner)), code.label, (a.text, b.text)))
    return out


RULE = Rule("precedence", check, __doc__ or "")
