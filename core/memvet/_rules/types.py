"""types: the claim gives a field or a constant a primitive type; its declaration gives another.

The claim's side: ``X is a(n) T``, ``X field is a T``, ``X is T`` (in an
aside: "(seconds is i64)"), where ``T`` is a primitive type of a language
(``int``, ``int64``, ``uint8``, ``u32``, ``usize``, ``f64``, ``string``,
``bool``, ``byte``, ``rune``, ``str``, ``number``, ``boolean`` ...) and
``X`` a name, written with its owner or not (``OpCode.Tag``). ``T``
followed by ``subclass``, ``enum``, ``like`` or ``value`` is no declared
type ("bool is an int subclass", "an int enum"); ``T type`` is ("strErr is
a string type": ``type strErr string``).

The code's side: the one declaration of ``X`` in the anchored code with a
primitive type: Go's struct field or grouped fields (``Written int64``,
``A, B int``), ``const``/``var X T``, ``type X T``; Rust's, TypeScript's
and Python's ``X: T`` (``pub nanos: u32``, ``const X: u64``).

Fires when that type is another primitive (``int`` for ``int64``).
Never fires on a declaration whose type is no primitive (a named type may
be an alias of anything), on a name declared twice or not at all, on "is
not a T" (no type is stated), nor on a name the writer declared unbound.

Rationale: the width or kind of a field is what a caller writes code
against, and people state it from memory: "Written is an int, same type
Write returns" of httpsnoop's ``Written int64``; "nanos is a u64" of
filetime's ``nanos: u32``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

PRIMITIVES = frozenset({
    "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32",
    "float64", "complex64", "complex128", "byte", "rune", "string", "bool",  # Go
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64", "char",
    "str",  # Rust
    "float", "bytes",  # Python
    "number", "boolean", "bigint",  # TypeScript
})
_TYPE = "|".join(sorted(PRIMITIVES, key=len, reverse=True))
_SAID = re.compile(rf"`?(?P<x>[A-Za-z_][\w.]*)`?(?:'s)?(?:\s+(?:field|const|constant))?\s+(?:is|are)\s+"
                   rf"(?:(?:an?|the)\s+)?`?(?P<t>{_TYPE})`?(?![\w-])(?!\s+(?:subclass|enum|like|value|of|or)\b)")


def _declared(code: Code, name: str) -> list[tuple[str, int]]:
    """(type, logical line) of each declaration of ``name`` in ``code`` with a written type."""
    n = re.escape(name)
    go = code.label.split("::", 1)[0].endswith(".go")
    patterns = [re.compile(rf"^\s*(?:pub(?:\([\w\s:]*\))?\s+)?(?:const\s+|static\s+|let\s+|readonly\s+)?"
                           rf"{n}\s*\??:\s*(?P<t>&?[A-Za-z_][\w:]*)\s*(?:[,;=)]|$)")]
    if go:
        patterns.append(re.compile(rf"^\s*(?:const\s+|var\s+|type\s+)?(?:[A-Za-z_]\w*\s*,\s*)*{n}"
                                   rf"(?:\s*,\s*[A-Za-z_]\w*)*\s+(?P<t>\*?[A-Za-z_][\w.]*)\s*(?:=|`|//|$)"))
    out = []
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        for pattern in patterns:
            m = pattern.match(text)
            if m:
                out.append((m.group("t"), index))
                break
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for m in _SAID.finditer(clause.text):
        said, kind = m.group("x"), m.group("t")
        name = said.rsplit(".", 1)[-1]
        if clause.skip(said):
            continue
        found = [(t, code, line) for code in codes for t, line in _declared(code, name)]
        if len(found) != 1:
            continue
        declared, code, line = found[0]
        if declared in PRIMITIVES and declared != kind:
            out.append(Contradiction("types", f"the claim says `{said}` is `{kind}`", code.show(line, name),
                                     code.label, (said,)))
    return out


RULE = Rule("types", check, __doc__ or "")
