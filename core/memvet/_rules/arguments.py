"""arguments: the claim writes a call's argument as a bare name; the code passes it with an offset.

The claim's side: a call written as code (``setTimeout(purge, ttl)``)
whose arguments are bare names or literals, with at least one bare name.

The code's side: every call of that function in the anchored code with
as many arguments. A claim's bare name stands for any argument of the
code (an example names its own variables: ``purge`` for an arrow
function), except one: the code's argument at that position is the same
name with arithmetic by a number (``ttl + 1``, ``n - 1``, ``size * 2``).
The reverse holds as well: the claim's ``ttl + 1`` where the code passes
``ttl``.

Fires when no call of the code agrees with the claim's arguments and one
of them differs from it only by such an offset, or when a call of the code
passes the claim's bare names, each once, in another order (the claim's
``fn(time, req, res)`` where the code calls ``fn(req, res, time)``). Never fires when some
call agrees, when the arities differ, when the claim's argument is a
literal or an expression other than ``name op number``, nor on a name
the code does not pass at that position.

A second reading, for a decorator written out: "pytest_runtest_makereport
is `@pytest.hookimpl(tryfirst=True)`". Fires when the anchored
definition carries a decorator of that name and none of its decorators
of that name passes every keyword argument the claim writes
(``@pytest.hookimpl(hookwrapper=True)``). Never fires when the anchored
code has no decorator of that name (another may be meant), nor after a
negation.

Rationale: the exact argument is what a claim writes a call for ("the
timer is ``setTimeout(purge, ttl)``, no margin"), and the one-unit margin
the code adds is the fact it gets wrong while every name is real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import TermKind
from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_CLAIM_CALL = re.compile(r"^(?:await\s+|new\s+)?(?:[A-Za-z_$][\w$]*\.)*(?P<f>[A-Za-z_$][\w$]*)\((?P<args>[^()]*)\)$")
_BARE = re.compile(r"[A-Za-z_$][\w$]*")
_OFFSET = re.compile(r"(?P<n>[A-Za-z_$][\w$.]*)\s*[-+*/]\s*\d+(?:\.\d+)?")
_OPEN, _CLOSE = "([{", ")]}"


def _arguments(text: str, start: int) -> list[str] | None:
    """The top-level arguments of the call whose ``(`` is at ``start``."""
    depth, args, current = 0, [], []
    quote = ""
    for ch in text[start + 1:]:
        if quote:
            current.append(ch)
            quote = "" if ch == quote else quote
            continue
        if ch in "'\"`":
            quote = ch
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            if depth == 0:
                args.append("".join(current).strip())
                return [a for a in args if a] if args != [""] else []
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    return None


def _calls(code: Code, name: str) -> list[tuple[list[str], int]]:
    """Each call of ``name`` in the code: its arguments and its logical line."""
    out = []
    lines = [code.logical_text(i) for i in range(len(code.logical))]
    for i in range(len(lines)):
        if i in code.headers:
            continue
        text = " ".join(lines[i:i + 12])  # a call may run over the next statements' lines
        for m in re.finditer(rf"(?<![\w$]){re.escape(name)}\s*\(", lines[i]):
            args = _arguments(text, m.end() - 1)
            if args is not None:
                out.append((args, i))
    return out


def _norm(arg: str) -> str:
    return re.sub(r"\s+", "", arg)


def _offset(said: str, passed: str) -> bool:
    """Whether one of the two is the other with arithmetic by a number."""
    for a, b in ((said, passed), (passed, said)):
        m = _OFFSET.fullmatch(b)
        if _BARE.fullmatch(a) and m and m.group("n").rsplit(".", 1)[-1] == a:
            return True
    return False


def _swapped(said: list[str], passed: list[str]) -> bool:
    """Whether the code passes the claim's bare names, each once, in another order (``fn(req, res, time)`` for the
    claim's ``fn(time, req, res)``)."""
    names = [_norm(p) for p in passed]
    return len(said) >= 2 and all(_BARE.fullmatch(a) for a in said) and len(set(said)) == len(said) \
        and sorted(said) == sorted(names) and said != names


def _agrees(said: str, passed: str, specific: bool) -> bool:
    """Whether the code's argument is the claim's: the same text (``this.``
    aside), or any argument for a bare name the code never passes there."""
    if re.sub(r"^(?:this|self)\.", "", _norm(passed)) == _norm(said):
        return True
    return bool(_BARE.fullmatch(said)) and not specific


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for word in clause.words:
        if word.term is None or word.term.kind is not TermKind.CALL or clause.skip(word.text):
            continue
        m = _CLAIM_CALL.match(word.term.text.strip())
        if m is None or not m.group("args").strip():
            continue
        said = [a.strip() for a in m.group("args").split(",")]
        if not any(_BARE.fullmatch(a) for a in said):
            continue
        for code in codes:
            calls = [(args, line) for args, line in _calls(code, m.group("f")) if len(args) == len(said)]
            swapped = next(((args, line) for args, line in calls if _swapped(said, args)), None)
            if swapped is not None and not any([_norm(p) for p in args] == said for args, _ in calls):
                args, line = swapped
                out.append(Contradiction(
                    "arguments", f"the claim writes `{word.term.text}`; the code passes the same names in another "
                    f"order ({', '.join(args)})", code.show(line, m.group("f")), code.label, (word.text,)))
                continue
            # a bare name the code passes at that position (itself or with an offset) means that name
            specific = [any(_norm(args[k]) == a or _offset(a, args[k]) for args, _ in calls)
                        for k, a in enumerate(said)]
            if not calls or any(all(_agrees(s, p, sp) for s, p, sp in zip(said, args, specific, strict=True))
                                for args, _ in calls):
                continue
            for args, line in calls:
                pairs = list(zip(said, args, specific, strict=True))
                if all(_agrees(s, p, sp) or _offset(s, p) for s, p, sp in pairs):
                    s, p = next((s, p) for s, p, _ in pairs if _offset(s, p))
                    out.append(Contradiction(
                        "arguments", f"the claim writes `{word.term.text}` with `{s}`; the code passes `{p}`",
                        code.show(line, m.group("f")), code.label, (word.text,)))
                    break
    return out


#: A decorator written out: ``@pytest.hookimpl(tryfirst=True)``; its name's last part and its arguments.
_DECORATOR = re.compile(r"@(?:[A-Za-z_]\w*\.)*(?P<f>[A-Za-z_]\w*)\((?P<args>[^()]*)\)")
#: A decorator as a claim writes it, its ``@`` left out or not: "the hook is `hookimpl(trylast=True)`".
_WRITTEN_DECORATOR = re.compile(r"@?(?:[A-Za-z_]\w*\.)*(?P<f>[A-Za-z_]\w*)\((?P<args>[^()]*)\)")
_NEGATED = re.compile(r"\b(?:not|never|no longer|isn't|aren't|doesn't|wasn't)\b[^,;.]*$", re.I)


def _decorators(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"pytest_runtest_makereport is `@pytest.hookimpl(tryfirst=True)`" where the anchored function's own
    decorator is ``@pytest.hookimpl(hookwrapper=True)``: a keyword argument the claim writes that no
    decorator of that name on the anchored code passes. The claim may leave the ``@`` out ("the hook is
    `hookimpl(trylast=True)`"): only a decorator of that name on the anchored function is read either way."""
    out: list[Contradiction] = []
    for word in clause.words:
        m = _WRITTEN_DECORATOR.fullmatch(word.text.strip()) if word.term is not None else None
        if m is None or clause.skip(word.text) or _NEGATED.search(clause.text[:word.start]):
            continue
        said = {re.sub(r"\s+", "", a) for a in m.group("args").split(",") if "=" in a}
        if not said:
            continue
        for code in codes:
            own = [(i, _DECORATOR.search(code.logical_text(i))) for i in sorted(code.headers)
                   if code.logical_text(i).startswith("@")]
            named = [(i, d) for i, d in own if d is not None and d.group("f") == m.group("f")]
            if named and not any(said <= {re.sub(r"\s+", "", a) for a in d.group("args").split(",")}
                                 for _, d in named):
                out.append(Contradiction("arguments", f"the claim says `{word.text.strip()}`",
                                         code.logical_text(named[0][0])[:120], code.label, (word.text,)))
    return out


def _check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    return check(clause, codes) + _decorators(clause, codes)


RULE = Rule("arguments", _check, __doc__ or "")
