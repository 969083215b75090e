"""optin: the claim says to pass ``K=V`` to get a behaviour; the signature already defaults ``K`` to ``V``.

The claim's side: a keyword ``K=V`` (or ``K: V``, backticked or not) right
after a word of opting in: ``pass K=V``, ``passing K=V``, ``opt in with
K=V``, ``unless you pass K=V``, ``you have to pass K=V``, ``must set
K=V``, ``set K=V`` opening a clause (the imperative: "...; set `preload:
false` to leave it out"), where ``V`` is a literal (``True``, ``false``, ``None``, a number,
a quoted string).

The code's side: the defaults the anchored code's signatures give the
parameter ``K`` (``relative: bool = False``, ``{ compress = true }``).

Fires when every such default is a literal and each one is ``V``: the
claim tells its reader to pass what the code already does, so the
behaviour it says ``K=V`` switches on (or off) is the default one, the
opposite of what the claim says. A second reading, for an option no
signature defaults: ``V`` is ``false`` (``pass `{ fast: false }```) and
every read of ``K`` in the code only tests whether it is set (``if
(options && parseBoolean(options.fast))``, ``opts.K && ...``,
``!!opts.K``, ``K === true``, ``const K = Boolean(options.K)``), never
compares it otherwise or gives it a value when unset (``opts.K !==
false``, ``opts.K ?? true``, ``var K = opts.K``): an unset option is
already off. Never fires when the code gives ``K`` no
default, when a default is not a literal (``timeout=DEFAULT_TIMEOUT``),
when the opting in is negated ("no need to pass K=V", "you don't have to
pass"), or on a keyword the writer declared unbound.

Rationale (the second reading, round 7): on dotenv, "pass `{ fast: false
}` to get the old regex parser back" names the real option of a parser
that only runs the fast scanner when ``fast`` is set.

Rationale: on marshmallow, "validate.URL() accepts relative URLs out of
the box; pass relative=False to require scheme and host" names a real
parameter and a real value; only the default (``relative: bool =
False``) says that relative URLs are the opt-in, not the default.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import TermKind
from memvet._rules._common import Clause, Code, Contradiction, Rule
from memvet._rules.value import _LIT, _LIT_RE, _norm, _shown, _unset

__all__ = ["RULE"]

#: The words of opting in, right before the keyword (a backtick may open it).
_OPT_IN = re.compile(r"(?:\bpass(?:ing)?|\bopt(?:s|ing)?[- ]in\s+(?:with|by\s+passing)"
                     r"|\bunless\s+you\s+(?:pass|set|give)|\b(?:have|has|need|needs|must)\s+to\s+(?:pass|set)"
                     r"|\bmust\s+(?:pass|set)"
                     r"|(?:^|[;:,.!?(]|\b(?:and|then|just|simply))\s*set)"  # "...; set K: V to ...": the imperative
                     r"\s+(?:explicitly\s+)?`?\s*$", re.I)
#: Opting in that is negated: "no need to pass", "you don't have to pass", "never pass".
_NEGATED = re.compile(r"(?:\bno\s+need|n't|\bnot|\bnever|\bwithout)\b[\w\s]{0,30}$", re.I)
_KEYWORD = re.compile(rf"([A-Za-z_$][\w$]*)\s*(?:=|:)\s*({_LIT})")


def _defaults(code: Code, name: str) -> list[tuple[str | None, int]]:
    """``(normalized literal or None, line)`` for each default a signature of ``code`` gives ``name``."""
    pattern = re.compile(rf"(?<![\w$.]){re.escape(name)}\s*(?::[^=,()]*)?=(?![=>])\s*([^,(){{}}]+?)\s*(?=[,)}}])")
    out: list[tuple[str | None, int]] = []
    for line in sorted(code.headers):
        for m in pattern.finditer(code.logical_text(line)):
            value = m.group(1)
            out.append((_norm(value) if _LIT_RE.fullmatch(value) else None, line))
    return out


#: A read of an option that only tests whether it is set: ``if (opts.K)``, ``parseBoolean(opts.K)``, ``opts.K &&``.
_TRUTHY = (r"\b(?:if|elif|while)\b\s*\(?\s*(?:[\w$.]+\s*&&\s*)?(?:[\w$]*[Bb]oolean\(|bool\()?"
           r"\s*{ref}\s*\)*\s*(?:\)|:|&&)",
           r"(?:Boolean|parseBoolean|bool)\(\s*{ref}\s*\)", r"!!\s*{ref}(?![\w$])", r"{ref}\s*(?:&&|\?(?![.?]))")
#: A read that still only tests whether it is set: compared as being true
#: (made a boolean of what was passed, ``K = Boolean(opts.K)``, is value's :func:`_unset`).
_SET_ONLY = r"{ref}\s*(?:===?|\bis\b)\s*(?:true|True)\b"
#: Any read of it that gives it a value when unset or compares it with a boolean: not off unless set.
_VALUED = r"{ref}\s*(?:===?|!==?|\?\?|\|\||=(?![=>])|\bis\b)|(?:===?|!==?)\s*{ref}|\b{name}\s*(?::[^=,()]*)?=(?![=>])"


def _off_unless_set(code: Code, name: str) -> int | None:
    """The line of the first read of the option ``name`` when every read of
    it only tests whether it is set (``if (options.fast)``), so that an
    unset option is off; ``None`` otherwise."""
    ref = rf"(?<![\w$])(?:[\w$]+\.)?{re.escape(name)}(?![\w$])"
    truthy = [re.compile(p.format(ref=ref)) for p in _TRUTHY]
    set_only = re.compile(_SET_ONLY.format(ref=ref))
    valued = re.compile(_VALUED.format(ref=ref, name=re.escape(name)))
    made_boolean = _unset(code, name)
    first = None
    for line in range(len(code.logical)):
        text = code.logical_text(line)
        if not re.search(ref, text):
            continue
        tested = line == made_boolean or set_only.search(text) is not None
        if not tested and valued.search(text):
            return None
        if tested or any(p.search(text) for p in truthy):
            first = line if first is None else first
    return first


def _keywords(clause: Clause) -> list[tuple[str, str, str, str]]:
    """``(what the claim wrote, K, V, the words before it)`` for each ``K=V``
    or ``K: V`` the clause writes (a term, or plain words: "pass override:
    false", read in the whole claim, since ": " ends a clause)."""
    out = []
    for word in clause.words:
        term = word.term
        if term is None or term.kind not in (TermKind.KEYWORD, TermKind.CODE) or clause.skip(word.text):
            continue
        m = _KEYWORD.fullmatch(re.sub(r"^\{\s*(.*?)\s*\}$", r"\1", term.text.strip()))
        if m is not None:
            out.append((term.text.strip(), m.group(1), m.group(2), clause.text[:word.start]))
    for m in clause.spanning(_PLAIN_KEYWORD):
        if not clause.skip(m.group(0)) and not any(w == m.group(0) for w, *_ in out):
            out.append((m.group(0), m.group(1), m.group(2), (clause.claim or clause.text)[:m.start()]))
    return out


#: A keyword in plain words, no backticks: "pass override: false".
_PLAIN_KEYWORD = re.compile(rf"(?<![\w$`.])([A-Za-z_$][\w$]*)(?::\s*|=)({_LIT})(?![\w$`])")


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for written, name, literal, before in _keywords(clause):
        if not _OPT_IN.search(before) or _NEGATED.search(before.rstrip("` ")):
            continue
        value = _norm(literal)
        for code in codes:
            given = _defaults(code, name)
            if given and all(v == value for v, _ in given):
                out.append(Contradiction(
                    "optin", f"the claim says to pass `{written}`; the signature already defaults "
                             f"`{name}` to `{_shown(value)}`",
                    code.show(given[0][1], name), code.label, (written,)))
                break
            line = None if given or value != "false" else _off_unless_set(code, name)
            if line is not None:
                out.append(Contradiction(
                    "optin", f"the claim says to pass `{written}`; the code only tests whether "
                             f"`{name}` is set, so it is already off unless passed",
                    code.show(line, name), code.label, (written,)))
                break
    return out


RULE = Rule("optin", check, __doc__ or "")
