"""derives: the claim says which traits a Rust type derives; its ``#[derive(...)]`` says otherwise.

The claim's side, naming the anchored type ``X`` somewhere in the claim:

* "X derives A, B and C" (``together with``, ``plus``, ``+``, ``/``),
  "X is ``#[derive(A, B)]``", "has ``#[derive(A)]``": the traits listed;
  "X only derives A and B": those and no other ("just ``#[derive(Default)]``"
  says the impl is derived, not written by hand: no "only");
* "X is not (isn't) A", "X has no A", "A isn't derived", "doesn't derive A".

Only the traits the standard library and serde derive are read (``Debug``,
``Clone``, ``Copy``, ``PartialEq``, ``Eq``, ``PartialOrd``, ``Ord``,
``Hash``, ``Default``, ``Serialize``, ``Deserialize``).

The code's side: the ``#[derive(...)]`` attributes written above the
anchored ``struct``, ``enum`` or ``union`` (a trait's path cut to its last
part: ``serde::Serialize``); one under ``cfg_attr`` derives only with a
feature, so its traits count as neither derived nor missing.

Fires when a listed trait is not derived (none is under ``cfg_attr``), when
"only" lists fewer than are derived, or when a trait the claim denies is
derived. Never fires on a type with no ``derive`` attribute in the anchored
code (its traits may all be written by hand), nor on a sentence about a
feature ("with the ``serde`` feature, X derives Serialize").

Rationale: derives decide what a caller can do with a value (copy it,
compare it, hash it, print it with ``{:?}``); "ExtendedGcd only derives
Debug and Clone, so compare the fields by hand" sends a reader to work the
attribute above the struct shows is not needed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_TRAITS = ("Debug", "Clone", "Copy", "PartialEq", "Eq", "PartialOrd", "Ord", "Hash", "Default", "Serialize",
           "Deserialize")
_TRAIT = "|".join(_TRAITS)
#: "derives A, B and C", "derive(A, B)": the verb and the list after it.
_LISTED = re.compile(rf"(?:\b(?P<only>only\s+)?derives?|#\[derive)\b\s*\(?\s*(?P<list>`?(?:{_TRAIT})\b`?"
                     rf"(?:\s*(?:,|\+|/|\band\b|\btogether with\b|\bplus\b|\bas well as\b)\s*(?:and\s+)?"
                     rf"`?(?:{_TRAIT})\b`?)*)")
#: "is not Copy", "isn't Copy", "has no PartialEq", "no Debug", "Debug isn't derived", "doesn't derive Hash".
_DENIED = re.compile(rf"\b(?:is\s+not|isn't|has\s+no|is\s+never|doesn't\s+derive|does\s+not\s+derive|never\s+derives)"
                     rf"\s+`?(?P<a>{_TRAIT})\b`?"
                     rf"|\b(?P<b>{_TRAIT})`?\s+(?:isn't|is\s+not|is\s+never)\s+derived\b")
#: A feature named in the sentence: what follows holds with it only.
_FEATURE = re.compile(r"\bfeature\b|\bcfg_attr\b|\bwith\s+`?serde`?\b", re.I)
_TYPE = re.compile(r"^\s*(?:pub(?:\([\w\s:]*\))?\s+)?(?:struct|enum|union)\s+([A-Za-z_]\w*)")


def _derived(code: Code) -> tuple[str, set[str], set[str], int] | None:
    """``(type name, traits derived, traits derived under cfg_attr, line)`` for the first type the
    code declares with a ``derive`` above it, or None."""
    derived: set[str] = set()
    optional: set[str] = set()
    first = -1
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        m = _TYPE.match(text)
        if m:
            return (m.group(1), derived, optional, first) if derived else None
        for attr in re.finditer(r"#\[\s*(cfg_attr\s*\([^()]*,\s*)?derive\s*\(([^()]*)\)", text):
            names = {part.strip().rsplit("::", 1)[-1] for part in attr.group(2).split(",") if part.strip()}
            (optional if attr.group(1) else derived).update(names)
            first = index if first < 0 and not attr.group(1) else first
        if text.strip() and not text.strip().startswith(("#", "//")):
            derived, optional, first = set(), set(), -1  # a statement between: the attributes were another's
    return None


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    if _FEATURE.search(clause.text):
        return []
    whole = clause.claim or clause.text
    out: list[Contradiction] = []
    for code in codes:
        found = _derived(code)
        if found is None:
            continue
        name, derived, optional, line = found
        if not re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", whole):
            continue
        for m in _LISTED.finditer(clause.text):
            if re.search(r"\b(?:not|n't|never|no)\s*$", clause.text[max(0, m.start() - 12):m.start()]):
                continue  # "doesn't derive A": read below
            listed = set(re.findall(_TRAIT, m.group("list")))
            missing = sorted(listed - derived - optional)
            extra = sorted(derived - listed) if m.group("only") else []
            if missing or extra:
                said = " ".join(m.group(0).split())
                have = ", ".join(sorted(derived))
                out.append(Contradiction("derives", f"the claim says `{said}`; the code derives {have}",
                                         code.show(line, "derive"), code.label, tuple(missing or extra)))
        for m in _DENIED.finditer(clause.text):
            trait = m.group("a") or m.group("b")
            if trait in derived and not clause.skip(trait):
                out.append(Contradiction("derives", f"the claim says `{' '.join(m.group(0).split())}`; the code "
                                         f"derives {trait}", code.show(line, trait), code.label, (trait,)))
    return out[:1]


RULE = Rule("derives", check, __doc__ or "")
