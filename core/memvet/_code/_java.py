"""Java method identity: erased parameter signatures and anonymous class names.

A Java method is identified by its name and its parameter types after
erasure, the way the compiler (and javadoc's ``#copy(byte[], OutputStream)``
links) identify it: two overloads of one class never share an erasure, so
the erased signature is a stable, unique suffix. One normalizer serves both
sides - the parameters read from the syntax tree when a table is built, and
the signature a user writes in an anchor - so the two always agree:

* annotations (``@Nullable``, ``@Size(max = 3)``) and ``final`` are dropped;
* type arguments are erased: ``List<String>`` -> ``List``;
* qualified names keep their last segment: ``java.util.List`` -> ``List``,
  ``Map.Entry`` -> ``Entry``;
* varargs are arrays: ``boolean...`` -> ``boolean[]``, and C-style
  dimensions on the name count too: ``int x[]`` -> ``int[]``;
* a parameter name, if written, is ignored: ``Writer out`` -> ``Writer``;
* a receiver parameter (``Outer this``) is not a parameter.

Type variables stay as written (``gt(T)``): erasing them to their bound
would need the declaration's type parameters, and a user names them as
written anyway.
"""

from __future__ import annotations

import re

__all__ = ["anonymous_name", "drop_signatures", "erase_parameter", "normalize_qualname", "normalize_signature", "split_signature"]

_ANNOTATION = re.compile(r"@\s*[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*")
_TOKEN = re.compile(r"[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*|\[\s*\]|\.\.\.")
_MODIFIERS = frozenset({"final"})


def _drop_balanced(text: str, open_ch: str, close_ch: str) -> str:
    """Remove every balanced ``open_ch ... close_ch`` group (nested too)."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == open_ch:
            depth += 1
        elif ch == close_ch and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def _drop_annotations(text: str) -> str:
    """Remove annotations with their arguments: ``@Size(max = 3) int`` -> `` int``."""
    out: list[str] = []
    i = 0
    for m in _ANNOTATION.finditer(text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        i = m.end()
        rest = text[i:]
        stripped = rest.lstrip()
        if stripped.startswith("("):
            i += len(rest) - len(stripped)
            depth = 0
            while i < len(text):
                if text[i] == "(":
                    depth += 1
                elif text[i] == ")":
                    depth -= 1
                    if depth == 0:
                        i += 1
                        break
                i += 1
        out.append(" ")
    out.append(text[i:])
    return "".join(out)


def erase_parameter(text: str) -> str | None:
    """The erased type of one parameter as declared or as a user writes it.

    Args:
        text: ``final @Nullable java.util.Map<String, List<X>> in``,
            ``String... rest``, ``int x[]``, or just a type: ``List``.

    Returns:
        ``Map``, ``String[]``, ``int[]``, ``List``; ``None`` for a receiver
        parameter (``Outer this``), which is not part of the signature.
    """
    text = _drop_balanced(_drop_annotations(text), "<", ">")
    tokens = [t for t in _TOKEN.findall(text) if t not in _MODIFIERS]
    if not tokens or tokens[0] in ("[]", "..."):
        return text.strip() or None
    dims = 0
    names = 0
    for tok in tokens[1:]:
        if tok[0] == "[" or tok == "...":
            dims += 1
        else:
            names += 1
            if tok == "this" or tok.endswith(".this") or re.sub(r"\s", "", tok).endswith(".this"):
                return None
    simple = re.sub(r"\s", "", tokens[0]).rsplit(".", 1)[-1]
    return simple + "[]" * dims


def _split_top(text: str) -> list[str]:
    """Split at commas outside ``<...>``, ``(...)`` and ``[...]``."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def normalize_signature(params: str) -> str:
    """``(T1,T2)`` from the text between a signature's parentheses.

    ``"final Writer w, int n, List<String> xs"`` and ``"Writer,int,List"``
    both give ``(Writer,int,List)``.
    """
    if not params.strip():
        return "()"
    erased = (erase_parameter(p) for p in _split_top(params))
    return "(" + ",".join(e for e in erased if e is not None) + ")"


def split_signature(name: str) -> tuple[str, str] | None:
    """``("Outer.render", "Writer,int,List")`` from ``Outer.render(Writer,int,List)``.

    Returns ``None`` unless ``name`` ends with a parenthesized parameter
    list (``Outer.run()#2`` does not).
    """
    name = name.strip()
    if not name.endswith(")"):
        return None
    depth = 0
    for i in range(len(name) - 1, -1, -1):
        ch = name[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                return name[:i].rstrip(), name[i + 1 : -1]
    return None


def normalize_qualname(name: str) -> str:
    """Normalize every parameter list in a qualified name.

    ``Outer.m(Map<K, V>, int...).<anonymous Comparator>.compare(final String a, String b)``
    -> ``Outer.m(Map,int[]).<anonymous Comparator>.compare(String,String)``.
    """
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(name):
        if ch == "(":
            if depth == 0:
                out.append(name[start:i])
                start = i + 1
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                out.append(normalize_signature(name[start:i]))
                start = i + 1
    out.append(name[start:] if depth == 0 else name[start - 1 :])
    return "".join(out).strip()


def drop_signatures(name: str) -> str:
    """``Outer.m.<anonymous Comparator>.compare`` from a qualified name with
    parameter lists and ``#n`` suffixes: the :attr:`Symbol.name` form."""
    return re.sub(r"#\d+", "", _drop_balanced(name, "(", ")")).strip()


def anonymous_name(type_text: str) -> str:
    """The scope name of an anonymous class: ``<anonymous Comparator>`` for
    ``new java.util.Comparator<String>() {...}``."""
    erased = erase_parameter(type_text) or type_text.strip()
    return f"<anonymous {erased}>"
