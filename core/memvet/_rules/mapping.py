"""mapping: the claim maps a value to an output; the code's branch for that value writes another case's output.

The claim's side: ``V maps to S`` (``gives``, ``becomes``, ``yields``,
``produces``, ``emits``, ``outputs``, ``turns into``, ``is written as``,
``is treated like``, ``->``, ``=>``), ``V`` a
literal (``true``, ``false``, ``null``, a number, a quoted string;
``sameSite: true`` counts as ``true``) and ``S`` a quoted or backticked
text, or a ``Key=Value`` the claim writes bare.

The code's side: a ``switch`` whose ``case`` labels name ``V`` (labels
stacked on one branch share it), and the strings each branch writes, up to
the next label.

Fires when the branch for ``V`` writes no string that holds ``S`` and the
branch of another label writes one that does: the claim took the output of
a neighbouring case. Never fires when no label names ``V``, when no branch
writes ``S`` (the output may be built elsewhere: the term rules decide),
or on a value or output the writer declared unbound.

A second reading, for names: ``N -> S`` (``gives``, ``adds``, ``maps to``,
``becomes``, ``is written as``), ``N`` a word and ``S`` a number, a quoted
or backticked text or an ``ESC[...m`` sequence (every spelling of the
escape character, ``ESC``, ``\x1B``, ``\033``, ``\u001b``, is one). The
code's side: the ``if`` / ``else if`` / ``elif`` branches, by the words of
their conditions, and the strings and numbers their bodies write. Fires
when the branches whose condition names ``N`` write outputs of ``S``'s
kind, none of them ``S``, and a branch whose condition does not name
``N`` writes ``S``: "italic -> ESC[4m, underline -> ESC[3m" where ``if
spec.italic { write("\x1B[3m") }`` and ``if spec.underline {
write("\x1B[4m") }`` (round 11, termcolor; negotiator's "subtype adds 4"
for ``s |= 4`` under the ``type`` test). Not read when ``S`` itself
holds the word ``N`` ("two Host headers -> 'Found multiple Host:
headers'": the word belongs to the output's subject, not a key).

A third reading, for constants: ``"V" is normalised to C`` (``converted``,
``parsed``, ``coerced``, ``mapped``, ``becomes``, ``gives``), ``C`` a
constant (``null``, ``undefined``, ``true``, ``NaN``, a number). The
code's side: what the ``switch`` branches return (``case "undefined":
return undefined as T``). Fires when every branch labelled ``V`` returns
constants, none of them ``C``, and another label's branch returns ``C``
(``null`` and ``undefined`` are two constants here).

A fourth reading, for what is left over: "maps any unrecognized typeflag
to S" (``unknown``, ``unsupported``, ``other``; "anything else -> S",
"unknown values become S"), ``S`` a qualified name (``EntryType::Regular``)
or a quoted text. The code's side: a ``match`` whose one catch-all arm
(``_ =>``, or a name alone: ``b => EntryType::__Nonexhaustive(b)``) gives
something other than ``S`` while another arm gives ``S``. Fires then: the
claim took a named case for the fallback.

A fifth reading, for bounds: "> 0xffffffff -> ErrTooLarge" (``gives``,
``returns``, ``raises``, ``throws``), a comparison with a whole number and
an error value or class of the code. The code's side: the ``if`` branch
whose condition compares with the same operator and number (written in
any base) and the errors it returns, raises or throws. Fires when that
branch gives other errors only (``if n <= 0 || v > 0xffffffff { return
0, 0, ErrCorrupt }``) and the code names the claim's error elsewhere.

Rationale: on jshttp/cookie, "sameSite: true maps to `SameSite=Lax`"
names a real option, a real value and a real output; only the branch
(``case true: case "strict": str += "; SameSite=Strict"``) says which
output goes with ``true``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule
from memvet._rules.value import _norm

__all__ = ["RULE"]

_VALUE = r"true|false|null|undefined|None|True|False|-?\d+(?:\.\d+)?|'[^'\n]*'|\"[^\"\n]*\""
_MAPS = re.compile(rf"`?(?:[A-Za-z_$][\w$]*\s*:\s*)?(?P<v>{_VALUE})`?\s*"
                   r"(?:maps?\s+to|gives|becomes|yields|produces|emits|outputs|turns\s+into|is\s+written\s+as"
                   r"|is\s+treated\s+(?:like|as)|->|=>|\u2192)\s*"
                   r"(?P<s>`[^`\n]+`|\"[^\"\n]+\"|'[^'\n]+'|[A-Za-z][\w-]*=[\w-]+)")
_CASE = re.compile(rf"^\s*case\s+(?P<v>{_VALUE})\s*:")
_OTHER_LABEL = re.compile(r"^\s*(?:case\b|default\s*:)")
_CONSTANT = r"true|false|null|undefined|None|True|False|NaN|-?\d+(?:\.\d+)?"
#: A branch's ``return undefined as T;``: a constant it gives back.
_RETURNS = re.compile(rf"(?<![\w$.])return\s+(?P<c>{_CONSTANT})(?:\s+as\s+[\w<>\[\]]+)?\s*;?\s*\}}?$")
#: "\"undefined\" is normalised to `null`": a string the code reads, and the constant it gives for it.
_TO_CONSTANT = re.compile(rf"(?P<v>'[^'\n]+'|\"[^\"\n]+\")\s+(?:is\s+|are\s+)?(?:normali[sz]ed|converted|coerced|"
                          rf"parsed|turned|mapped|maps|becomes|gives|yields)\s*(?:to|into|as)?\s+"
                          rf"`?(?P<c>{_CONSTANT})`?(?![\w.])")


def _branches(code: Code) -> list[tuple[set[str], list[str], int, set[str]]]:
    """Each switch branch: (its labels, normalized; the strings it writes; its first line; the
    constants it returns, lower-cased)."""
    out: list[tuple[set[str], list[str], int, set[str]]] = []
    labels: set[str] = set()
    start = -1
    body: list[int] = []

    def close() -> None:
        if labels:
            returned = {m.group("c").lower() for i in body if (m := _RETURNS.search(code.logical_text(i)))}
            out.append((set(labels), [a.text for a in code.atoms if a.string and a.line in body], start, returned))

    for i in range(len(code.logical)):
        text = code.logical_text(i)
        case = _CASE.match(text)
        if case:
            if body:  # a label after a body: a new branch
                close()
                labels.clear()
                body = []
            if not labels:
                start = i
            labels.add(_norm(case.group("v")))
            rest = text[case.end():].strip()
            if rest:
                body.append(i)
        elif _OTHER_LABEL.match(text):
            close()
            labels.clear()
            body = []
        elif labels:
            body.append(i)
    close()
    return out


#: A name the claim maps to an output: ``italic -> ESC[4m``, ``subtype adds 4``, ``bold gives `\x1b[1m```.
_NAMED_MAPS = re.compile(r"(?<![\w$.])(?P<w>[A-Za-z_][\w]*)\s*(?:->|=>|\u2192|maps\s+to|gives|adds|becomes"
                         r"|is\s+written\s+as)\s+(?P<s>`[^`\n]+`|\"[^\"\n]+\"|'[^'\n]+'"
                         r"|(?:ESC|\\x1[bB]|\\033|\\u001[bB]|\\e)\[[\d;]*m|\d+)(?![\w.])")
_CONDITION = re.compile(r"^\s*(?:\}\s*)?(?:else\s+if|elif|if)\b(?P<c>.*)$")
_ESCAPE = re.compile(r"\\x1[bB]|\\033|\\u001[bB]|\\u\{1[bB]\}|\\e|\x1b|\bESC(?=\[)")
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def _escaped(text: str) -> str:
    """``text`` with every spelling of the escape character as one (``\\x1B``, ``\\033``, ``ESC``)."""
    return _ESCAPE.sub("\x1b", text)


def _conditions(code: Code) -> list[tuple[set[str], list[str], set[float], int]]:
    """Each ``if`` / ``else if`` / ``elif`` branch: (the words of its
    condition; the strings and the numbers its body writes; its line)."""
    out = []
    for i in range(len(code.logical)):
        m = _CONDITION.match(code.logical_text(i))
        if m is None:
            continue
        body = set(code.block(i))
        texts = [code.logical_text(j) for j in sorted(body)]
        strings = [_escaped(a.text) for a in code.atoms if a.string and a.line in body]
        numbers = {float(n) for t in texts for n in _NUMBER.findall(re.sub(r'"[^"]*"|\'[^\']*\'', " ", t))}
        out.append((set(re.findall(r"[A-Za-z_]\w*", m.group("c"))), strings, numbers, i))
    return out


def _writes(branch: tuple[set[str], list[str], set[float], int], said: str) -> bool:
    if said.isdigit():
        return float(said) in branch[2]
    return any(said in s for s in branch[1])


def _named(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """The claim maps a name to an output; the branch whose condition tests
    that name writes another, and a branch that tests another name writes
    the claim's: ``italic -> ESC[4m`` where ``if spec.italic { write("\\x1B[3m") }``
    and ``if spec.underline { write("\\x1B[4m") }``."""
    out: list[Contradiction] = []
    read: dict[int, list[tuple[set[str], list[str], set[float], int]]] = {}  # each code's branches, read once
    for m in _NAMED_MAPS.finditer(clause.text):
        word, said = m.group("w"), m.group("s")
        said = _escaped(said[1:-1] if said[:1] in "`'\"" else said).strip()
        if not said or clause.skip(word, m.group("s")) \
                or re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", said, re.I):
            continue  # "two Host headers -> 'Found multiple Host: headers'": the output names the word, no key
        for n, code in enumerate(codes):
            if n not in read:
                read[n] = _conditions(code)
            branches = read[n]
            mine = [b for b in branches if word in b[0]]
            others = [b for b in branches if word not in b[0] and _writes(b, said)]
            if not mine or not others or any(_writes(b, said) for b in mine) \
                    or not any(b[1] if not said.isdigit() else b[2] for b in mine):
                continue
            out.append(Contradiction(
                "mapping", f"the claim maps `{word}` to `{m.group('s').strip('`')}`; the code writes that in the "
                           f"branch for another condition", code.show(others[0][3]), code.label, (word,)))
            break
    return out


def _holds(strings: Sequence[str], wanted: re.Pattern[str]) -> bool:
    return any(wanted.search(s) for s in strings)


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    read: dict[int, list[tuple[set[str], list[str], int, set[str]]]] = {}  # each code's branches, read once
    for m in _MAPS.finditer(clause.text):
        said = m.group("s")
        value, said = m.group("v"), (said[1:-1] if said[:1] in "`'\"" else said).strip()
        if not said or clause.skip(value, said, m.group("s")):
            continue
        label, wanted = _norm(value), re.compile(rf"(?<![\w-]){re.escape(said)}(?![\w-])", re.I)
        for n, code in enumerate(codes):
            if n not in read:
                read[n] = _branches(code)
            mine = [b for b in read[n] if label in b[0]]
            others = [b for b in read[n] if label not in b[0] and _holds(b[1], wanted)]
            if not mine or not others or any(_holds(b[1], wanted) for b in mine):
                continue
            line = mine[0][2]
            out.append(Contradiction(
                "mapping", f"the claim maps `{value}` to `{said}`; the code writes that for another case",
                code.show(line), code.label, (value, said)))
            break
    out += [c for c in _named(clause, codes) if c not in out]
    out += [c for c in _catch_all(clause, codes) if c not in out]
    out += [c for c in _bound_errors(clause, codes) if c not in out]
    return out + [c for c in _constants(clause, codes, read) if c not in out]


#: "a length header > 0xffffffff -> ErrTooLarge": a bound the claim maps to the error it gives.
_BOUND_ERROR = re.compile(r"(?P<op>[<>]=?)\s*(?P<n>0[xX][0-9a-fA-F_]+|\d[\d_]*)\s*(?:->|=>|\u2192|gives|returns|"
                          r"raises|throws)\s*`?(?P<e>(?:[a-z]\w*\.)?(?:Err[A-Z]\w*|[A-Z]\w*Error))`?(?![\w.(])")
#: The error a line of the code gives back: returned (Go's ``return 0, 0, ErrCorrupt``), raised or thrown.
_GIVES_ERROR = re.compile(r"\b(?:return|raise|throw(?:\s+new)?)\b[^;{}]*?(?<![\w.])((?:[a-z]\w*\.)?(?:Err[A-Z]\w*|"
                          r"[A-Z]\w*Error))\b")


def _whole(number: str) -> int | None:
    try:
        return int(number.replace("_", ""), 0)
    except ValueError:
        return None


def _bound_errors(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"> 0xffffffff -> ErrTooLarge": the branch whose condition writes the same bound (``v > 0xffffffff``)
    gives back other errors only (``return 0, 0, ErrCorrupt``), while the code names the claim's error
    elsewhere."""
    out: list[Contradiction] = []
    for m in _BOUND_ERROR.finditer(clause.text):
        said, bound = m.group("e"), _whole(m.group("n"))
        if bound is None or clause.skip(said):
            continue
        tested = re.compile(rf"{re.escape(m.group('op'))}(?!=)\s*(0[xX][0-9a-fA-F_]+|\d[\d_]*)\b")
        for code in codes:
            if said.rsplit(".", 1)[-1] not in code.names:
                continue  # an error the code never names: the term rules decide
            for index in range(len(code.logical)):
                branch = _CONDITION.match(code.logical_text(index))
                if branch is None or not any(_whole(t.group(1)) == bound for t in tested.finditer(branch.group("c"))):
                    continue
                given = {e.group(1).rsplit(".", 1)[-1] for i in [index, *code.block(index)][:4]
                         for e in _GIVES_ERROR.finditer(code.logical_text(i))}
                if given and said.rsplit(".", 1)[-1] not in given:
                    out.append(Contradiction(
                        "mapping", f"the claim maps `{m.group(0)}`; the code's branch gives "
                        + ", ".join(f"`{g}`" for g in sorted(given)), code.show(index), code.label, (said,)))
                    break
    return out


_UNKNOWN = r"(?:unrecogni[sz]ed|unknown|unsupported|unlisted|unexpected|other)"
_OUTPUT = r"`?(?P<s>(?:[A-Z]\w*(?:::|\.))+[A-Za-z_]\w*|'[^'\n]+'|\"[^\"\n]+\")`?"
#: "maps any unrecognized typeflag to EntryType::Regular", "unknown values become 'other'", "anything else -> X".
_CATCH_ALL = (
    re.compile(rf"\b(?:maps?|turns?|converts?|treats?)\s+(?:any|every|all|an?)\s+{_UNKNOWN}\s+(?:[\w-]+\s+){{0,3}}?"
               rf"(?:to|into|as)\s+{_OUTPUT}"),
    re.compile(rf"\b(?:(?:any|every|all|an?)\s+)?(?:{_UNKNOWN}\s+(?:[\w-]+\s+){{0,2}}?|anything\s+else\s+"
               rf"|everything\s+else\s+)(?:maps?\s+to|becomes?|gives?|(?:is|are)\s+(?:treated\s+as|read\s+as"
               rf"|mapped\s+to)|->|=>|\u2192)\s*{_OUTPUT}"),
)
#: A match arm (``b'1' => EntryType::Link,``) and its pattern; a catch-all's is ``_`` or a name alone.
_ARM = re.compile(r"^\s*(?P<p>[^=]+?)\s*=>\s*(?P<v>.+?),?\s*$")


def _catch_all(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"EntryType::new maps any unrecognized typeflag to EntryType::Regular": the catch-all arm of
    the code's ``match`` (``_ =>``, ``b =>``) gives something else, and another arm gives that."""
    out: list[Contradiction] = []
    for m in (m for pattern in _CATCH_ALL for m in pattern.finditer(clause.text)):
        said = m.group("s")
        if clause.skip(said) or re.search(r"\b(?:not|never|no longer)\s*$", clause.text[:m.start()]):
            continue
        wanted = re.compile(rf"(?<![\w$]){re.escape(said.strip(chr(39) + chr(34)))}(?![\w$])")
        for code in codes:
            arms = [(i, a.group("p"), a.group("v")) for i in range(len(code.logical))
                    if (a := _ARM.match(code.logical_text(i)))]
            rest = [(i, v) for i, p, v in arms if re.fullmatch(r"_|[a-z_]\w*", p.strip())]
            if len(rest) != 1 or wanted.search(rest[0][1]):
                continue
            if not any(wanted.search(v) for i, p, v in arms if i != rest[0][0]):
                continue
            out.append(Contradiction(
                "mapping", f"the claim says `{m.group(0)}`; the code's catch-all arm gives another",
                code.show(rest[0][0]), code.label, (said,)))
            break
    return out


def _constants(clause: Clause, codes: Sequence[Code],
               read: dict[int, list[tuple[set[str], list[str], int, set[str]]]]) -> list[Contradiction]:
    """"\"undefined\" is normalised to `null`" where ``case "undefined": return undefined`` and
    ``case "null": return null``: the branch for the string returns another constant, and the
    claim's constant is what another branch returns."""
    out: list[Contradiction] = []
    for m in _TO_CONSTANT.finditer(clause.text):
        value, said = m.group("v"), m.group("c")
        if clause.skip(value, said) or clause.quoted(m.start("c")):
            continue
        label, wanted = _norm(value), said.lower()  # (null is not undefined here: _norm makes both none)
        for n, code in enumerate(codes):
            if n not in read:
                read[n] = _branches(code)
            mine = [b for b in read[n] if label in b[0]]
            if not mine or not all(b[3] for b in mine) or any(wanted in b[3] for b in mine) \
                    or not any(wanted in b[3] for b in read[n] if label not in b[0]):
                continue
            out.append(Contradiction(
                "mapping", f"the claim maps `{value}` to `{said}`; the code returns that for another case",
                code.show(mine[0][2]), code.label, (value, said)))
            break
    return out


RULE = Rule("mapping", check, __doc__ or "")
