"""passes: the claim says a function is called with ``K=V``; the anchored calls pass another constant for ``K``.

The claim's side: a keyword ``K=V`` (``V`` a boolean, ``nil``/``None``/
``null``, a number or a quoted string) within six words after a name of
an anchored function ``F`` ("Load calls loadFile with overload=true").

The code's side: ``F``'s anchored definition has a parameter ``K``, at
position ``i`` of its signature, and each call of ``F`` in the other
anchored code passes a constant at position ``i`` (or as ``K=...``),
none of them ``V``: ``loadFile(filename, false)``.

A decorator written with keywords (``@lru_cache(maxsize=256)``) reads the
same way against the anchored decorator lines of that name
(``@lru_cache(maxsize=1024)``).

Never fires when a call passes a variable there (the value is the
caller's), when no anchored code calls ``F``, when ``F``'s definition is
not anchored (its parameters unknown), nor when some call passes ``V``.

Rationale: a keyword names a real parameter, so it binds; which value the
code passes is the claim's whole content, and languages without keyword
arguments (Go, JavaScript) pass it by position.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import TermKind, split_args
from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_CONSTANT = re.compile(r"""(?i:true|false|nil|none|null|undefined)|-?\d+(?:\.\d+)?|"[^"]*"|'[^']*'""")


def _norm(value: str) -> str:
    value = value.strip()
    return value.lower() if re.fullmatch(r"(?i:true|false|nil|none|null|undefined)", value) else value.strip("'\"")


def _signature(code: Code, name: str) -> list[str]:
    """The parameter names of ``name``'s definition in ``code`` (empty: not defined there)."""
    for index in sorted(code.headers):
        text = code.logical_text(index)
        m = re.search(rf"(?<![\w$]){re.escape(name)}\s*\(", text)
        if m is None:
            continue
        end = text.find(")", m.end())
        inner = text[m.end():end if end >= 0 else len(text)]
        names = [re.match(r"\s*(?:\*{0,2}|\.\.\.)([A-Za-z_$][\w$]*)", p) for p in split_args(inner)]
        return [n.group(1) for n in names if n is not None and n.group(1) not in ("self", "cls")]
    return []


#: A decorator the claim writes with keywords: ``@lru_cache(maxsize=256)``.
_DECORATOR = re.compile(r"@(?P<f>[A-Za-z_][\w.]*)\((?P<args>[^()]*)\)")


def _decorated(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"wcwidth() uses @lru_cache(maxsize=256)": the anchored decorator of that name gives the keyword
    another constant (``@lru_cache(maxsize=1024)``)."""
    out: list[Contradiction] = []
    for m in _DECORATOR.finditer(clause.text):
        if clause.skip(m.group(0)):
            continue
        name = m.group("f").rsplit(".", 1)[-1]
        said = dict(a.split("=", 1) for a in (x.strip() for x in split_args(m.group("args"))) if "=" in a)
        lines = [(code, i) for code in codes for i in range(len(code.logical))
                 if re.match(rf"\s*@(?:[\w.]+\.)?{re.escape(name)}\s*\(", code.logical_text(i))]
        for key, value in said.items():
            key = key.strip()
            if not _CONSTANT.fullmatch(value.strip()):
                continue
            passed = []
            for code, i in lines:
                text = code.logical_text(i)
                args = split_args(text[text.index("(") + 1:text.rindex(")")] if ")" in text else "")
                passed += [(a.split("=", 1)[1].strip(), code, i) for a in args
                           if re.match(rf"\s*{re.escape(key)}\s*=(?!=)", a)]
            if passed and all(_CONSTANT.fullmatch(a) for a, _, _ in passed) \
                    and not any(_norm(a) == _norm(value) for a, _, _ in passed):
                arg, code, line = passed[0]
                out.append(Contradiction(
                    "passes", f"the claim writes `{m.group(0)}`; the code passes `{key}={arg}`",
                    code.show(line, name), code.label, (m.group(0),)))
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = _decorated(clause, codes)
    for word in clause.words:
        if word.term is None or word.term.kind is not TermKind.KEYWORD or clause.skip(word.text):
            continue
        key, _, value = word.text.partition("=")
        if not _CONSTANT.fullmatch(value.strip()):
            continue
        before = [w for w in clause.words if w.end <= word.start][-6:]
        for callee in reversed([w.atom.rstrip("()") for w in before if w.term is not None]):
            position = next((params.index(key) for code in codes
                             if key in (params := _signature(code, callee))), None)
            if position is None:
                continue
            passed: list[tuple[str, Code, int]] = []
            for code in codes:
                for call in code.calls:
                    if call.name != callee or call.line in code.headers:
                        continue
                    args = split_args(call.args)
                    named = [a.split("=", 1)[1] for a in args if re.match(rf"\s*{re.escape(key)}\s*=(?!=)", a)]
                    arg = named[0] if named else (args[position] if position < len(args) else "")
                    passed.append((arg.strip(), code, call.line))
            if passed and all(_CONSTANT.fullmatch(a) for a, _, _ in passed) \
                    and not any(_norm(a) == _norm(value) for a, _, _ in passed):
                arg, code, line = passed[0]
                out.append(Contradiction(
                    "passes", f"the claim says `{callee}` gets `{word.text}`; the code passes `{arg}`",
                    code.show(line, callee), code.label, (word.text,)))
            break
    return out


RULE = Rule("passes", check, __doc__ or "")
