"""ownership: the claim says a Rust function borrows an argument, or takes it by value; its signature says the other.

The claim's side, not negated in the words leading to it: ``borrows X``
(``only borrows``, ``takes X by reference``, ``takes a reference to X``)
says a reference; ``takes X by value``, ``takes ownership of X`` and
``consumes X`` say a value. ``X`` is the next word or two after the verb
(or before "by value"), and names a parameter of the anchored function: its
own name (``file``), a word of its type's name (the File, the writer for
``EncoderWriter``), or ``self`` for the receiver.

The code's side: the anchored Rust function's signature. A parameter is a
reference when its type starts with ``&`` (``&File``, ``&mut W``) or it is
``&self`` / ``&mut self``; a value otherwise (``file: File``, ``self``,
``mut self``).

Fires when the one parameter ``X`` names is the other kind. Never fires on
a function that is not Rust, on a word naming no parameter or two of
them, on a negated verb ("doesn't consume the iterator"), nor on a name
the writer declared unbound.

A second reading, for ``unsafe``: "``F()`` is unsafe" (``F`` an anchored
Rust function, named right before the verb, a parenthesis of remarks
allowed between: "``as_raw()`` (shared ref) is safe") says its signature is
``unsafe fn``; "is safe" and "is not unsafe" say it is not. Fires when the
signature says the other ("into_raw() is unsafe" of ``pub fn into_raw(self)``).
An ``unsafe { ... }`` block inside a safe function does not make it unsafe
to call, so only the signature is read.

Rationale: whether a call gives up its argument is what a Rust reader plans
around ("you can keep using file afterwards"), and the claim is easy to get
wrong from the call site alone: ``Handle::from_file(&file)`` reads like a
borrow, while the signature takes ``file: File``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule, singulars, split_name

__all__ = ["RULE"]

_REFERENCE = re.compile(r"\b(?:only\s+)?borrows?\s+(?:the\s+|its\s+|a\s+|an\s+)?(?P<a>[\w`&]+(?:\s+[\w`]+)?)"
                        r"|\btakes?\s+(?:the\s+|its\s+|a\s+|an\s+)?(?P<b>[\w`]+(?:\s+[\w`]+)?)\s+by\s+reference\b"
                        r"|\btakes?\s+a\s+reference\s+to\s+(?:the\s+|its\s+)?(?P<c>[\w`]+(?:\s+[\w`]+)?)", re.I)
_VALUE = re.compile(r"\btakes?\s+(?:the\s+|its\s+|a\s+|an\s+)?(?P<a>[\w`]+(?:\s+[\w`]+)?)\s+by\s+value\b"
                    r"|\btakes?\s+ownership\s+of\s+(?:the\s+|its\s+|a\s+|an\s+)?(?P<b>[\w`]+(?:\s+[\w`]+)?)"
                    r"|\bconsumes?\s+(?:the\s+|its\s+|a\s+|an\s+)?(?P<c>[\w`]+(?:\s+[\w`]+)?)", re.I)
_NEGATED = re.compile(r"\b(?:not|never|no)\b|n't\b", re.I)
_SIGNATURE = re.compile(r"\bfn\s+\w+\s*(?:<[^(]*>)?\s*\((?P<params>[^)]*)\)")


def _rust_signature(code: Code) -> str:
    """The anchored Rust function's signature lines, joined; empty for other code."""
    if not code.label.split("::", 1)[0].endswith(".rs") or not code.headers:
        return ""
    return " ".join(code.logical_text(i) for i in sorted(code.headers))


def _params(code: Code) -> list[tuple[str, str, bool]]:
    """(name, type, is a reference) of each parameter of the anchored Rust function."""
    m = _SIGNATURE.search(_rust_signature(code))
    if m is None:
        return []
    out = []
    for part in (p.strip() for p in m.group("params").split(",")):
        receiver = re.fullmatch(r"(&\s*(?:'\w+\s+)?(?:mut\s+)?)?(?:mut\s+)?self(?:\s*:.*)?", part)
        if receiver:
            out.append(("self", code.symbol.rsplit(".", 1)[0].rsplit(".", 1)[-1], bool(receiver.group(1))))
        elif ":" in part:
            name, _, kind = part.partition(":")
            out.append((name.replace("mut ", "").strip(), kind.strip(), kind.strip().startswith("&")))
    return out


def _named(words: str, params: list[tuple[str, str, bool]]) -> tuple[str, str, bool] | None:
    """The one parameter the claim's words name: its name, a word of its type, or ``self``."""
    said = [w.strip("`&").lower() for w in words.split()]
    forms = {f for w in said for f in (w, *singulars(w))}
    hits = [p for p in params if p[0].lower() in forms
            or any(part in forms for part in split_name(re.sub(r"<.*", "", p[1]).lstrip("&").replace("mut ", "")))]
    return hits[0] if len(hits) == 1 else None


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for pattern, reference in ((_REFERENCE, True), (_VALUE, False)):
        for m in pattern.finditer(clause.text):
            lead = re.split(r"[,;(]", clause.text[:m.start()])[-1]
            words = m.group("a") or m.group("b") or m.group("c")
            if _NEGATED.search(lead) or clause.skip(*words.split()):
                continue
            for code in codes:
                param = _named(words, _params(code))
                if param is None or param[2] == reference:
                    continue
                kind = "a reference" if reference else "a value"
                out.append(Contradiction(
                    "ownership", f"the claim says `{' '.join(m.group(0).split())}` ({kind})",
                    code.show(min(code.headers), param[0]), code.label, (words,)))
    return out


#: "into_raw() is unsafe", "`as_raw()` (shared ref) is safe", "set_len is not unsafe".
_SAFETY = re.compile(r"`?(?P<f>[A-Za-z_]\w*)(?:\(\))?`?(?:\s*\([^()]*\))?\s+(?:is|are)\s+(?P<no>not\s+)?`?"
                     r"(?P<s>unsafe|safe)\b`?(?!\s+(?:to|for|from|against|on|with|in)\b)", re.I)


def _safety(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"F() is unsafe" of an anchored Rust ``F`` declared ``fn`` (or "is safe" of one declared
    ``unsafe fn``)."""
    out: list[Contradiction] = []
    for m in _SAFETY.finditer(clause.text):
        if clause.skip(m.group("f")) or _NEGATED.search(re.split(r"[,;(]", clause.text[:m.start()])[-1]):
            continue
        said_unsafe = (m.group("s").lower() == "unsafe") != bool(m.group("no"))
        for code in codes:
            head = _rust_signature(code) if code.leaf == m.group("f") else ""
            own = re.search(rf"\b(?P<u>unsafe\s+)?(?:extern\s+\"\w+\"\s+)?fn\s+{re.escape(m.group('f'))}\b", head)
            if own is not None and bool(own.group("u")) != said_unsafe:
                out.append(Contradiction("ownership", f"the claim says `{' '.join(m.group(0).split())}`",
                                         code.show(min(code.headers), "fn"), code.label, (m.group("f"),)))
    return out


def _check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    return check(clause, codes) + _safety(clause, codes)


RULE = Rule("ownership", _check, __doc__ or "")
