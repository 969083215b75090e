"""compares: the claim writes a comparison of the code's; the code compares the same operands otherwise.

The claim's side: ``X op Y`` written out in the clause (``len(string) <=
max_length``, ``length > 99``), ``op`` one of ``<``, ``<=``, ``>``, ``>=``,
``==``, ``!=`` (``===`` and ``!==`` alike), ``X`` a name or a call, ``Y``
a name, a call or a number; a number written first is read the other way
round (``8 <= window_bits`` is ``window_bits >= 8``), and a chain (``8 <=
window_bits <= 15``) as its two bounds.

The code's side: the anchored code's comparisons of the same ``X`` (the
same tokens, a receiver either side leaves out aside: ``length`` for
``str.length``) with the same ``Y``, or, where the claim's ``Y`` is a
number, with another number by the same operator, read either way round (``Y > X`` is ``X < Y``); for
whole numbers ``> N`` is ``>= N+1`` and ``< N`` is ``<= N-1``; a test and
its complement are one test ("``X == 0`` disables it" for ``if X != 0 {
check }``; ``<`` and ``>=``); a complement written with a whole number
another way round (``poolsize < 1`` for ``>= 1``) only where it refuses: it
or the line after it raises, throws, panics or returns an error ("validates
``poolsize >= 1``" of ``if poolsize < 1: raise ...`` beside ``if poolsize >
1:``; not ``MaxAge <= 0`` of ``if MaxAge > 0 {...} else if MaxAge < 0
{...}``, which tells 0 apart).

Fires when the code compares ``X`` so and none of its comparisons is the
claim's (``if len(string) < max_length`` for "``len(string) <=
max_length``"; ``str.length > 100`` for "``length > 99``"). Never fires
when the code does not compare ``X`` with ``Y`` (or with a number, for a
number), nor when one of its comparisons is the claim's. A finding: a
function may compare the same operands again elsewhere.

Rationale: a bound is copied into notes as the comparison itself, and an
off-by-one bound names only real code (``max_length``, ``length``); only
the operator or the constant tells it false.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import code_tokens, number_value
from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_OPERAND = r"[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*(?:\([^()]{0,40}\))?"
_SIDE = rf"{_OPERAND}|-?\d+(?:\.\d+)?"
_COMPARISON = re.compile(rf"(?<![\w$.])(?P<x>{_SIDE})\s*(?P<op><=|>=|===|!==|==|!=|<|>)\s*(?P<y>{_SIDE})(?![\w$(])")
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
#: JavaScript's strict forms, compared as the plain ones.
_STRICT = {"===": "==", "!==": "!="}


def _key(side: str) -> tuple[str, ...]:
    """An operand as tokens, receivers dropped (``str.length`` and ``length`` alike)."""
    tokens = code_tokens(side)
    while len(tokens) >= 3 and tokens[1] == "." and re.fullmatch(r"[A-Za-z_$][\w$]*", tokens[0]):
        tokens = tokens[2:]
    return tuple(tokens)


def _normal(op: str, y: str) -> tuple[str, str]:
    """``op`` without JavaScript's strict forms, and for a whole number ``> N`` as ``>= N+1``, ``< N`` as ``<= N-1``."""
    op = _STRICT.get(op, op)
    value = number_value(y)
    if value is not None and value.is_integer() and op in ("<", ">"):  # not Infinity, not NaN
        return ("<=", f"n:{value - 1:g}") if op == "<" else (">=", f"n:{value + 1:g}")
    return op, (f"n:{value:g}" if value is not None else " ".join(_key(y)))


#: The test that holds where one does not: "X == 0 disables it" and ``if X != 0 { check }`` are one test.
_COMPLEMENT = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}


def _comparisons(text: str) -> list[tuple[tuple[str, ...], str, str, str, tuple[str, str]]]:
    """(X's key, op, Y, the comparison as written, its complement) of each comparison in
    ``text``, both ways round."""
    out = []
    for m in _COMPARISON.finditer(text):
        x, op, y = m.group("x"), _STRICT.get(m.group("op"), m.group("op")), m.group("y")
        if number_value(x) is None:
            out.append((_key(x), *_normal(op, y), m.group(0), _normal(_COMPLEMENT[op], y)))
        if number_value(y) is None:
            out.append((_key(y), *_normal(_FLIP[op], x), m.group(0), _normal(_COMPLEMENT[_FLIP[op]], x)))
    return out


#: A range written as one chain, ``8 <= window_bits <= 15``, ``200 <= status < 300``: two bounds of one name.
_NUMBER = r"-?\d+(?:\.\d+)?(?![\w$(.^*/+-])"
_CHAIN = re.compile(rf"(?<![\w$.^*/+-])(?P<a>{_NUMBER})\s*(?P<p><=|<)\s*(?P<x>{_OPERAND})\s*(?P<q><=|<)\s*"
                    rf"(?P<b>{_NUMBER})")


def _claimed(text: str) -> list[tuple[str, str, str, str]]:
    """(X, op, Y, as written) of each comparison the claim writes with a name on one side; a number
    written first is read the other way round (``8 <= x`` is ``x >= 8``), and a chain as its two
    bounds."""
    out = []
    chains = list(_CHAIN.finditer(text))
    for m in chains:
        out += [(m.group("x"), _FLIP[m.group("p")], m.group("a"), m.group(0)),
                (m.group("x"), m.group("q"), m.group("b"), m.group(0))]
    chained = [(m.start(), m.end()) for m in chains]
    for m in _COMPARISON.finditer(text):
        if any(a <= m.start() < b for a, b in chained):
            continue
        x, op, y = m.group("x"), m.group("op"), m.group("y")
        if number_value(x) is not None and number_value(y) is None:
            x, op, y = y, _FLIP[_STRICT.get(op, op)], x
        out.append((x, op, y, m.group(0)))
    return out


#: A line that refuses what fails a test: ``raise``, ``throw``, a panic, an error returned.
_REFUSES = re.compile(r"\b(?:raise|throw|panic!?|return\s+(?:Err\b|err\b|errors\.New|fmt\.Errorf|nil,\s*\w*[Ee]rr))")


def _refuses(code: Code, index: int) -> bool:
    """Whether the test on logical line ``index`` refuses: it or the line after it raises, throws,
    panics or returns an error (``if poolsize < 1: raise ValueError(...)``)."""
    return any(_REFUSES.search(code.logical_text(i)) for i in (index, index + 1) if i < len(code.logical))


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for x, claimed_op, y, said in _claimed(clause.text):
        if number_value(x) is not None or clause.skip(x, y) or not re.search(r"[A-Za-z_$]", x):
            continue
        key = _key(x)
        op, value = _normal(claimed_op, y)
        numeric = value.startswith("n:")
        for code in codes:
            seen: list[tuple[str, int]] = []
            same = False
            for index in range(len(code.logical)):
                if index in code.headers:
                    continue
                for their_key, their_op, their_value, written, other in _comparisons(code.logical_text(index)):
                    if their_key != key:
                        continue
                    if (op, value) == (their_op, their_value) or ((op, value) == other and (
                            their_value == value or _refuses(code, index))):
                        same = True  # the claim's test, its complement, or one that refuses (``poolsize < 1: raise``)
                    elif their_value == value or (numeric and their_value.startswith("n:") and their_op == op):
                        seen.append((written, index))  # a number: the same bound another way, or another the same way
            if seen and not same:
                out.append(Contradiction(
                    "compares", f"the claim says `{said}`; the code compares `{seen[0][0]}`",
                    code.show(seen[0][1]), code.label, (x,)))
    return out


RULE = Rule("compares", check, __doc__ or "")
