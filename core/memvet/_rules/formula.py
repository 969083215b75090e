"""formula: the claim writes a name's expression out; the code's differs from it by a token or two.

The claim's side: ``N = E`` written out (``N += E``, ``N := E`` and the
other compound assignments alike), ``N`` a name (``d.v1``, ``id[7]``) and
``E`` an expression of code: names, numbers, strings, calls, subscripts
and parentheses joined by operators ("round: acc = rol27(acc)", "Lane init:
v1 = seed + prime1, ..."). ``E`` ends where the expression does (a comma,
a word of prose, a bracket it did not open). Three tokens at least: a lone
name or literal is ``value``'s to read.

The code's side: the anchored code's assignments to ``N`` (its last part:
``d.v1 = ...`` is ``v1``; ``let``, ``const``, ``var`` and a declared type
before ``=`` alike), read the same way, token by token, receivers
(``self.``, ``this.``) left out and layout ignored.

Fires when no assignment of ``N`` writes ``E`` and one differs from it by
one or two tokens (another name, operator or number, an operand more or
less): a formula copied from the code and misremembered. Never fires when
the difference is larger (a paraphrase: the claim leaves out a conversion
or writes its own arithmetic, which the term binder reads), nor when the
only differences are names the claim shortens or renames (``n`` for
``nbytes``, ``delay`` for ``config.delay``): a name counts as another only
when it has three characters at least and does not abbreviate the code's.
A number is its value however written (``0x13`` and ``19``, ``1e16`` and
``1_0000_0000_0000_0000``), and a name the anchored code gives one literal
(``const EXP: u32 = 19``, ``magicBody = "sNaPpY"`` in another anchor) may
be written as that literal: "div = (value * SIG) >> 19" is the code's
``(value * SIG) >> EXP``.

Rationale: "acc = rol27(acc)" names real functions (``rol27`` is defined
beside ``round``), so every term binds; only the code's ``rol31`` says it
is wrong. The same holds for an operand left out (``seed + prime1`` for
``seed + prime1 + prime2``) and swapped sides (``byte(pid)`` for
``byte(pid >> 8)``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from memvet._claims import abbreviates
from memvet._rules._common import Clause, Code, Contradiction, Rule, mask_strings

__all__ = ["RULE"]

_NAME = r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*"
#: ``N = ``, ``N += ``, ``N := ``, ``let N: T = ``: the name assigned and the operator (not ``==``, ``=>``, ``<=``).
_TARGET = (r"(?<![\w$.=!<>:+\-*/%&|^\]])(?P<n>{name}(?:\[[^\]\s]{{1,20}}\])?){ann}"
           r"\s*(?P<op>:=|<<=|>>=|[-+*/%&|^]?=)(?![=>~])\s*")
_PLAIN = re.compile(_TARGET.format(name=_NAME, ann=""))
_TYPED = re.compile(_TARGET.format(name=_NAME, ann=r"(?P<ann>\s*:\s*[\w:<>&\[\] ]{1,30}?)?"))
_TOKEN = re.compile(r"""0[xXbBoO][0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?[a-z]*\d*"""
                    rf"""|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|{_NAME}"""
                    r"|<<|>>|&&|\|\||\*\*|//|==|!=|<=|>=|&\^|[-+*/%&|^~!<>(),\[\]]")
#: Arithmetic, bitwise and boolean operators; a comparison ends the expression (``S = RandomState>`` closes a
#: generic, ``x = a < b`` is rare in a claim).
_BINARY = {"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&^", "**", "//", "&&", "||", "as"}
_UNARY = {"-", "!", "~", "^", "&", "*"}
_RECEIVERS = ("self.", "this.", "cls.", "Self::")


def _operand(tokens: list[str], i: int) -> int:
    """The index after the operand that starts at ``i`` (``i`` itself when none does): a name, a number, a
    string or a parenthesized expression, after unary operators, with the calls and subscripts that follow."""
    start = i
    while i < len(tokens) and tokens[i] in _UNARY:
        i += 1
    if i >= len(tokens):
        return start
    head = tokens[i]
    if head == "(":
        end = _closing(tokens, i)
        if end == i:
            return start  # a bracket that never closes
        i = end
    elif re.match(r"[\w$\"']", head) and head not in ("as", "and", "or", "not"):
        i += 1
    else:
        return start
    while i < len(tokens) and tokens[i] in ("(", "["):  # a call, a subscript
        end = _closing(tokens, i)
        if end == i:
            break
        i = end
    return i


def _closing(tokens: list[str], i: int) -> int:
    """The index after the bracket that closes the one at ``i`` (``i`` when it never closes)."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j] in ("(", "["):
            depth += 1
        elif tokens[j] in (")", "]"):
            depth -= 1
            if depth == 0:
                return j + 1
    return i


def _expression(text: str) -> tuple[list[str], int]:
    """The tokens of the expression ``text`` starts with (operands joined by binary operators), and
    where in ``text`` it ends."""
    tokens: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    at = 0
    for m in _TOKEN.finditer(text[:200]):
        if text[at:m.start()].strip():
            break  # a character no token covers: the expression has ended before it
        tokens.append(m.group(0))
        starts.append(m.start())
        ends.append(m.end())
        at = m.end()
    end = _operand(tokens, 0)
    if end == 0:
        return [], 0
    while end < len(tokens) and tokens[end] in _BINARY:
        nxt = _operand(tokens, end + 1) if tokens[end] != "as" else end + 2
        if nxt <= end + 1 or nxt > len(tokens):
            break
        if tokens[end] == "-" and text[starts[end] - 1:starts[end]] == " " and text[ends[end]:ends[end] + 1] == " " \
                and re.match(r"\s+['\"A-Za-z]|'", text[ends[nxt - 1]:]):
            break  # "h = d.v3 + prime5 - that's how ...": a dash of prose after the formula, not a minus
        end = nxt
    return [_plain(t) for t in tokens[:end]], ends[end - 1]


def _plain(token: str) -> str:
    """A token without its receiver (``self.x`` is ``x``): how people write a formula of a method."""
    for receiver in _RECEIVERS:
        if token.startswith(receiver) and len(token) > len(receiver):
            return token[len(receiver):]
    return token


def _last(name: str) -> str:
    """A name's last part, its subscript kept: ``d.v1`` is ``v1``, ``self.id[7]`` is ``id[7]``."""
    return re.split(r"\.|::", name.split("[")[0])[-1] + (name[name.index("["):] if "[" in name else "")


def _renamed(said: str, own: str) -> bool:
    """Whether the claim's name ``said`` may be its own name for the code's ``own``."""
    if not re.match(r"[A-Za-z_$]", said) or not re.match(r"[A-Za-z_$]", own):
        return False
    a, b = _last(said), _last(own)
    return a.lower() == b.lower() or len(a) < 3 or abbreviates(a, b)


def _literal(token: str) -> str:
    """A number token as its value (``0xff`` and ``255``, ``1_000u32`` and ``1000``), other tokens as written."""
    m = re.fullmatch(r"(0[xXbBoO][0-9a-fA-F_]+|\d[\d_]*)(?:[ui](?:8|16|32|64|128|size))?", token)
    if m:
        try:
            return str(int(m.group(1).replace("_", ""), 0))
        except ValueError:
            return token
    m = re.fullmatch(r"(\d+)[eE]\+?(\d{1,2})", token)  # 1e16: a whole number written as a power of ten
    return str(int(m.group(1)) * 10 ** int(m.group(2))) if m else token


def _constants(codes: Sequence[Code]) -> dict[str, str]:
    """The names the anchored code gives one literal (``const EXP: u32 = 19``, ``magicBody = "sNaPpY"``):
    a claim may write the value where the code writes the name."""
    out: dict[str, str] = {}
    for code in codes:
        for index in range(len(code.logical)):
            for name, op, own, _, _ in _assignments(code.logical_text(index), typed=True):
                if op in ("=", ":=") and len(own) == 1 and re.match(r"[\d\"']", own[0]):
                    out.setdefault(name, _literal(own[0]))
    return out


def _distance(said: Sequence[str], own: Sequence[str], limit: int = 2) -> int:
    """Token edit distance (a rename of a name costs nothing), or ``limit + 1`` past ``limit``."""
    prev = list(range(len(own) + 1))
    for i, a in enumerate(said, 1):
        cur = [i] + [0] * len(own)
        for j, b in enumerate(own, 1):
            cost = 0 if a == b or _renamed(a, b) else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


@functools.lru_cache(maxsize=4096)
def _assignments(text: str, *, typed: bool = False) -> tuple[tuple[str, str, tuple[str, ...], int, int], ...]:
    """(name's last part, operator, expression tokens, start, end) of each ``N op= E`` in ``text``: not
    inside a string (``'<li class="header">'``), nor a call's keyword argument (``Boolean(truthy=set())``).
    With ``typed``, a declaration's type may stand between the name and ``=`` (``let shift: u32 =``,
    ``x: int =``) at a statement's start; a claim's ``Lane init: v1 = ...`` is no type. Read once per
    text: every clause of a claim, and every claim on the same code, asks again."""
    out = []
    masked = mask_strings(text)  # offsets kept: a target inside a string is no target
    for m in (_TYPED if typed else _PLAIN).finditer(masked):
        before = masked[:m.start()]
        if before.count("(") > before.count(")"):
            continue
        if typed and m.group("ann") and not (re.search(r"(?:^|\b(?:let|mut|const|static|var|pub))\s*$", before)):
            continue
        tokens, length = _expression(text[m.end():])
        if tokens:
            out.append((_last(m.group("n")), m.group("op"), tuple(tokens), m.start(), m.end() + length))
    return tuple(out)


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    whole, at = clause.claim or clause.text, clause.offset
    if at < 0:
        return out
    # read on the whole claim, each from the clause it starts in: ``(8 - n)``'s dash cuts no formula
    quotes = [m.span() for m in re.finditer(r'"[^"\n]*"', whole)]  # a message the claim quotes holds no formula
    claimed = [(name, op, said, start, end) for name, op, said, start, end in _assignments(whole)
               if at <= start < at + len(clause.text) and len(said) >= 3 and not clause.skip(name)
               and not any(a < start < b for a, b in quotes)]
    if not claimed:
        return out
    written = [[(index, own) for index in range(len(code.logical)) if index not in code.headers
                for own in _assignments(code.logical_text(index), typed=True)] for code in codes]
    constants = _constants(codes)
    for name, op, said, start, end in claimed:
        for code, assigned in zip(codes, written, strict=True):
            same, near = False, -1
            for index, (own_name, own_op, own, _, _) in assigned:
                if own_name != name:
                    continue
                # Go's := declares what = assigns: the same formula
                said_values = [op.replace(":=", "="), *map(_literal, said)]
                distance = min(_distance(said_values, [own_op.replace(":=", "="), *map(_literal, own)]),
                               _distance(said_values, [own_op.replace(":=", "="),  # (1 << 19) for (1 << EXP)
                                                       *(constants.get(t, _literal(t)) for t in own)]))
                if distance == 0:
                    same = True
                elif distance <= 2 and near < 0:
                    near = index
            if near >= 0 and not same:
                out.append(Contradiction(
                    "formula", f"the claim says `{' '.join(whole[start:end].split())}`; the code assigns "
                    f"`{name}` otherwise", code.show(near, name), code.label, (name,)))
    return out


RULE = Rule("formula", check, __doc__ or "")
