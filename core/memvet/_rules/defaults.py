"""defaults: the claim names a function or constant as a default; the signature's default is another of the same family.

The claim's side: a dotted name ``m.v`` of the claim (``keys.hashkey``,
``time.time``), backticked or not, in a clause that calls it a default:
``by default``, ``defaults to``, ``default is``, ``(default m.v)``.

The code's side: the defaults the anchored code's signatures give their
parameters when those defaults are dotted names (``key=keys.methodkey``,
``timer=time.monotonic``, ``choice=random.choice``).

Fires when some signature default has the claim's module part ``m`` and
none of them is ``m.v``: the claim names a sibling of the real default.
Never fires when no default shares the module part (the claim may speak
of another parameter, or of a default set elsewhere), when the clause has
no word of defaulting, or on a name the writer declared unbound.

Rationale: "@cachedmethod uses `keys.hashkey` by default" names a real
function of the right module; the signature says ``key=keys.methodkey``,
and a reader who trusts the claim hashes ``self`` into every key.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import TermKind
from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_DEFAULTING = re.compile(r"\bby default\b|\bdefaults? (?:to|is)\b|\(default\b|\bdefault \w+ is\b", re.I)
#: A parameter given a dotted name as its default: ``key=keys.methodkey``, ``timer: T = time.monotonic``.
_SIGNATURE_DEFAULT = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?::\s*[^=,()]+)?=\s*"
                                r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?=\s*[,)])")


def _signature_defaults(code: Code) -> list[tuple[str, str, int]]:
    """(parameter, dotted default, logical line) for each header of ``code``."""
    out = []
    for line in sorted(code.headers):
        for m in _SIGNATURE_DEFAULT.finditer(code.logical_text(line)):
            out.append((m.group(1), m.group(2), line))
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    if not _DEFAULTING.search(clause.text):
        return []
    out: list[Contradiction] = []
    signatures = [(code, _signature_defaults(code)) for code in codes]  # once per code, not per word
    for word in clause.words:
        term = word.term
        if term is None or term.kind is not TermKind.DOTTED or clause.skip(word.text):
            continue
        module, _, _ = term.text.rpartition(".")
        for code, given in signatures:
            same = [d for d in given if d[1].rpartition(".")[0] == module]
            if same and all(default != term.text for _, default, _ in same):
                param, default, line = same[0]
                out.append(Contradiction(
                    "defaults", f"the claim names `{term.text}` as the default; the signature gives "
                                f"`{param}` the default `{default}`",
                    code.show(line, default), code.label, (word.text,)))
    return out


RULE = Rule("defaults", check, __doc__ or "")
