"""noop: the claim says a function is a no-op; its body does something.

The claim's side: ``F is a (pure, complete, total) no-op`` (``noop``),
``F is a pure no-op that just calls cb(null)``, with ``F`` the anchored
function (its own name, written with its owner or not), in a clause with
no condition (``if``, ``when``, ``unless``, ``once``, ``for``, ``on``,
``until``, ``while``, ``after``, ``before``, ``except``, ``unless``,
``otherwise``, ``as long as``): "is a no-op when n > len" is about one case.

The code's side: the statements of the anchored function's body, comments
and docstrings left out. Doing nothing is: returning (nothing, a literal,
a parameter, ``Ok(())``), ``pass``, ``...``, an empty block, and calling
a callback the function was given (``cb(null)``: the caller's, not work of
its own). Anything else does something: an assignment, a ``delete``, a call
of another function, a branch whose body does something.

Fires when some statement of the body does something. Never fires when
the anchored code is no function of that name (a file, a class), on a
conditional clause, nor on a name the writer declared unbound.

Rationale: "MemoryStorage._removeFile is a pure no-op that just calls
cb(null); file.buffer is left on the file object" names the real method,
whose first line is ``delete file.buffer``; "Bump::dealloc is a pure
no-op" where the body reuses the last allocation's bytes. A reader who
trusts either skips the cleanup the code does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_NOOP = re.compile(r"`?(?P<f>[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)(?:\(\))?`?\s+is\s+"
                   r"(?:(?:just|simply|basically|effectively|really)\s+)?an?\s+(?:(?:pure|complete|total|plain)\s+)?"
                   r"no-?op\b", re.I)
_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|once|for|on|until|while|after|before|except|otherwise|"
                        r"as long as|in case|without|with)\b", re.I)
#: Statements that do nothing: a return of nothing, a literal, a name or ``Ok(())``; ``pass``; an empty block; an
#: attribute or a decorator (``#[inline]``, ``@staticmethod``).
_NOTHING = re.compile(r"\s*(?:return\b\s*(?:[\w$.\"']*|Ok\(\(\)\)|None|nil|null|undefined|true|false|\d+)?|"
                      r"Ok\(\(\)\)|pass|\.\.\.|\{\s*\}|[{}();]*|#!?\[.*\]|@[\w.]+(?:\(.*\))?)\s*;?\s*$")


def _does(code: Code) -> int | None:
    """The first logical line of the body that does something, or None."""
    params = code.parameters
    for index in range(len(code.logical)):
        if index in code.headers:
            continue
        text = code.logical_text(index)
        if not text.strip() or _NOTHING.fullmatch(text):
            continue
        call = re.fullmatch(r"\s*(?:return\s+)?([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*;?\s*", text)
        if call and call.group(1) in params:
            continue  # cb(null): the callback the function was given
        return index
    return None


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _NOOP.finditer(clause.text):
        name = re.split(r"\.|::|#", m.group("f"))[-1]
        if clause.skip(m.group("f")) or _CONDITION.search(clause.text[m.end():]) \
                or _CONDITION.search(clause.text[:m.start()]):
            continue
        for code in codes:
            if code.leaf != name or not code.headers:
                continue
            line = _does(code)
            if line is not None:
                out.append(Contradiction("noop", f"the claim says `{m.group(0)}`", code.show(line),
                                         code.label, (m.group("f"),)))
    return out


RULE = Rule("noop", check, __doc__ or "")
