"""toggle: the claim says which side of an on/off option pair is the default; the code declares the other.

The claim's side: an option pair ``--X/--no-X`` written anywhere in the
claim, and a default named by one of its sides, read in the whole claim
(": " and ";" end a clause): "defaults to no-override", "the default is
override (True)", "default: --no-color". The side with ``no-`` is off; the
other is on.

The code's side: the option declared as that pair (click's
``@click.option("--override/--no-override", default=True)``), its
``default=`` a boolean in the same declaration.

Fires when the code's default is the other side. Never fires without the
pair in the claim (a bare "defaults to no-X" may name something else),
when the declaration has no boolean default, or when the claim's default
names neither side.

Rationale: a flag pair is remembered by its two names and misremembered by
which one is the default; both names are real, so only the declaration's
``default=`` tells the claim false.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

#: ``--override/--no-override`` in the claim: the option's name.
_PAIR = re.compile(r"--([A-Za-z][\w-]*)\s*/\s*--no-\1(?![\w-])")
#: "defaults to no-override", "the default is override", "default: --no-override": the side named.
_DEFAULT = r"\bdefault(?:s|ed)?\b(?:\s+(?:is|to|of|=|:|being|value|setting|the)){{0,3}}\s*[:=]?\s*(?:--)?(no-)?{name}\b"


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for pair in dict.fromkeys(m.group(1) for m in _PAIR.finditer(clause.claim or clause.text)):
        said = re.search(_DEFAULT.format(name=re.escape(pair)), clause.claim or clause.text, re.I)
        if said is None or clause.skip(pair, f"--{pair}", f"no-{pair}"):
            continue
        on = said.group(1) is None
        for code in codes:
            for index in range(len(code.logical)):
                text = code.logical_text(index)
                declared = re.search(rf"""["']--{re.escape(pair)}\s*/\s*--no-{re.escape(pair)}["']""", text)
                default = re.search(r"\bdefault\s*=\s*(True|False)\b", text[declared.end():]) if declared else None
                if default is None or (default.group(1) == "True") == on:
                    continue
                side = f"--{pair}" if default.group(1) == "True" else f"--no-{pair}"
                out.append(Contradiction(
                    "toggle", f"the claim says `--{pair}/--no-{pair}` defaults to `{said.group(0).split()[-1]}`; "
                    f"the code defaults it to {side}", code.show(index, "default"), code.label, (pair,)))
                break
    return out


RULE = Rule("toggle", check, __doc__ or "")
