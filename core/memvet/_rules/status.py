"""status: the claim pairs an HTTP status with a message; the code's call with that message passes another status.

The claim's side: a status, a number from 100 to 599 written alone
(``400``, ``-> 413``, ``status 400``, ``400 Bad Request``), then within a
few words a quoted string: the message or error type the claim says goes
with it ("parse() without a content-type header errors with status 400
('missing content-type header')", "-> 400 with type
'entity.verify.failed'"). A status the claim negates or sets against
another ("not 400", "rather than 413", "instead of 415") is not read.

The code's side: each call of the anchored code that passes a status as an
argument of its own (``createError(415, 'missing content-type header')``,
``http.Error(w, "bad", 400)``, ``abort(404, "gone")``,
``HTTPException(status_code=400, detail=...)``; Go's
``http.StatusBadRequest`` names count as their numbers) and the strings in
that call. A string passed as a concatenation (``'maxFields ' +
self.maxFields + ' exceeded.'``) is its pieces in order, anything between;
each string in an options object (``{ type: 'entity.verify.failed' }``)
stands alone.

Fires when a call of the code writes the claim's message with another
status and no call writes it with the claim's. Never fires when the
message is not found in a call that passes a status (a helper may add the
status), nor on words the writer declared unbound.

Rationale: a status is what a client branches on and what a test asserts;
people fill it in from the usual meaning ("a bad request is 400") where the
code chose 413 or 415. The message, quoted as written, pins the one call
the claim is about, and both numbers are literals of the code: nothing is
inferred.
"""

from __future__ import annotations

import http
import re
from collections.abc import Sequence

from memvet._claims import balanced, split_args
from memvet._rules._common import STRING, Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

#: A status, then within a few words a quoted string (the message or type paired with it).
_SAID = re.compile(r"(?<![\w.$#-])(?P<n>[1-5]\d\d)(?![\w.$%-]|\s*(?:ms|s|bytes|KB|MB|chars|characters)\b)"
                   r"(?P<mid>[^;'\"\d]{0,40}?)['\"](?P<s>[^'\"\n]{3,120})['\"]")
#: Words right before a status that set it aside: "not 400", "rather than 413", "instead of a 415".
_ASIDE = re.compile(r"\b(?:not|never|no|rather\s+than|instead\s+of|than|except|unlike|nor)\s+(?:an?\s+|the\s+)?"
                    r"(?:status\s+(?:code\s+)?)?$", re.I)
#: A call's status argument: a number alone, ``status=400``, ``status_code=400``, ``http.StatusBadRequest``.
_ARG_STATUS = re.compile(r"(?:(?:status(?:_?code)?|code)\s*[=:]\s*)?(?:(?P<n>[1-5]\d\d)|http\.Status(?P<go>[A-Z]\w+))",
                         re.I)


def _go_status(name: str) -> int | None:
    """The number Go's ``http.Status<name>`` stands for (``BadRequest``: 400)."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).upper()
    try:
        return int(http.HTTPStatus[snake])
    except KeyError:
        return None


def _chains(arg: str) -> list[list[str]]:
    """The strings an argument writes: its literals in order as one chain (a concatenation), or each
    literal alone in an object or a list."""
    pieces = [m.group(0)[1:-1] for m in re.finditer(STRING, arg)]
    pieces = [re.sub(r"\$\{[^{}]*\}|\{[^{}]*\}|%[sdrv]", "\x00", p) for p in pieces]
    if arg.lstrip().startswith(("{", "[", "(")):
        return [[p] for p in pieces]
    return [pieces] if pieces else []


def _matches(chain: Sequence[str], said: str) -> bool:
    """Whether the claim's quoted text holds the chain's pieces in order (format fields and
    concatenated operands standing for anything), six letters of the code's own at least."""
    parts = [part.strip() for piece in chain for part in piece.split("\x00") if part.strip()]
    if sum(len(p) for p in parts) < 6:
        return False
    pattern = ".*?".join(re.escape(" ".join(p.lower().split())) for p in parts)
    text = " ".join(said.lower().split())
    return re.search(pattern, text) is not None and sum(len(p) for p in parts) >= 0.5 * len(text.strip(" .!"))


def _calls(code: Code) -> list[tuple[int, list[list[str]], int]]:
    """``(status, chains, logical line)`` for each call of the code that passes a status argument."""
    out = []
    for i in range(len(code.logical)):
        text = code.logical_text(i)
        for m in re.finditer(r"[\w$.]+\s*\(", text):
            end = balanced(text, m.end() - 1, limit=None)
            args = split_args(text[m.end():end - 1]) if end > 0 else []
            statuses = [s for a in args if (s := _status(a)) is not None]
            if len(statuses) != 1:
                continue
            chains = [c for a in args if _status(a) is None for c in _chains(a)]
            if chains:
                out.append((statuses[0], chains, i))
    return out


def _status(arg: str) -> int | None:
    m = _ARG_STATUS.fullmatch(arg.strip())
    if m is None:
        return None
    return int(m.group("n")) if m.group("n") else _go_status(m.group("go"))


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    passed: list[tuple[Code, list[tuple[int, list[list[str]], int]]]] | None = None  # read once, when needed
    for m in clause.spanning(_SAID):
        text = clause.claim or clause.text
        said, message = int(m.group("n")), m.group("s")
        if _ASIDE.search(text[max(0, m.start() - 30):m.start()]) or re.search(r"\b(?:or|and|not|/)\b", m.group("mid")):
            continue  # "not 400"; "400 or 413 ('...')": which goes with the message is not said
        if clause.skip(m.group("n"), message):
            continue
        passed = [(code, _calls(code)) for code in codes] if passed is None else passed
        found = [(status, code, line) for code, calls in passed for status, chains, line in calls
                 if any(_matches(chain, message) for chain in chains)]
        if not found or any(status == said for status, _, _ in found):
            continue
        status, code, line = found[0]
        out.append(Contradiction(
            "status", f"the claim pairs {said} with '{message}'; the code passes {status} with it",
            code.show(line), code.label, (m.group("n"),)))
    return out


RULE = Rule("status", check, __doc__ or "")
