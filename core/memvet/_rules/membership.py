"""membership: the claim lists which values a test lets through; the code's test lists others.

The claim's side: a list of words the code has as string literals
(``GET and HEAD``, ``'socks5', 'socks5h'``), said as

* exclusive: ``only (considers|accepts|handles|allows|skips|blocks|for ...) A and B``,
  the subject first too ("Only `__proto__` is blocked");
* inclusive: ``A and B included``, ``including A and B``, ``A and B too``;
* absent: ``A isn't in NAME`` (``is not in``, ``aren't among``, ``is not
  listed in``), where NAME is written as code (an underscore, an inner
  capital, or backticks).

The code's side: a test of one expression against literals of the same
shape (all upper case, or all lower case): ``method in ("POST", "PUT")``,
``'GET' !== method && 'HEAD' !== method``, ``m === 'a' || m === 'b'``,
``[...].includes(x)``; for an exclusive list, also the definition of a name
the claim gives before it as a collection of such literals ("payloadMethods
is only POST, PUT and PATCH" against ``const payloadMethods = new
Set(["PATCH", "POST", "PUT", "DELETE"])``).

Fires, for an exclusive list, when every test that names all of ``A, B``
names more literals of their shape too (``'QUERY'``), and none names
exactly them; for an inclusive list, when none of ``A, B`` is in any test,
and a test of literals of their shape guards code that names a term of the
claim (``if ... self.method in ("POST", "PUT", "PATCH"): ...
"Content-Length"`` against "Content-Length: 0 ... GET and HEAD included").

For an absent word, fires when the code defines NAME (``NAME = [...]``,
``const NAME = Object.freeze([...])``, ``NAME: Final = MappingProxyType({...})``)
with a string literal that is the word, compared without case, with a
file extension's dot and a backslash escape read through (``TOML`` and
``".toml"``, and an escape the code writes with its backslash doubled); never under a condition ("if the
suffix isn't in the table") or of a pronoun ("it's not in FIXERS").

Never fires when a listed word is no string literal of the code (a list of
prose words), nor when the literals differ in shape from the claim's (a
name's leading underscores do not count: ``__proto__`` and ``constructor``
are keys of one shape).

Rationale: which methods, schemes or statuses a branch covers is a fact
people state with confidence and copy from older versions ("only GET and
HEAD" where QUERY was added); the names are all real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import STRING, Clause, Code, Contradiction, Rule, fold

__all__ = ["RULE"]

_ITEM = r"['\"]?[\w$./-]+['\"]?"
_LIST = rf"({_ITEM}(?:\s*,\s*{_ITEM})*(?:,?\s+(?:and|or)\s+{_ITEM})?)"
_ONLY = re.compile(rf"\b[Oo]nly\s+(?:(?:considers?|accepts?|handles?|allows?|supports?|covers?|matches?|treats?|"
                   rf"applies to|checks?|for|on|with|to|skips?|blocks?|rejects?|ignores?|excludes?)\s+)?"
                   rf"(?:the\s+)?{_LIST}")
_INCLUDED = re.compile(rf"(?:{_LIST}\s+(?:are\s+|is\s+)?(?:included|too|as well)\b)|(?:\b(?:including|even)\s+{_LIST})")
_TEST = re.compile(r"\bin\b|[!=]==?|\bincludes\s*\(|\bcase\b|\bnot in\b")


def _shape(text: str) -> str:
    if re.fullmatch(r"[A-Z][A-Z0-9_-]*", text):
        return "upper"
    if re.fullmatch(r"_*[a-z][a-z0-9_.-]*", text):
        return "lower"  # `__proto__` and `constructor` are two keys of one shape
    return ""


def _members(listed: str, code: Code, *, leading: bool) -> list[str]:
    """The run of listed words that share a shape, from the start (``leading``)
    or from the end of the list; for an exclusive list each must be a string
    literal of the code."""
    words = [w.strip("'\"") for w in re.split(r"\s*,\s*|\s+(?:and|or)\s+|,", listed.strip()) if w.strip("'\"")]
    if not leading:
        words.reverse()
    run: list[str] = []
    for w in words:
        if not _shape(w) or (run and _shape(w) != _shape(run[0])):
            break
        run.append(w)
    if (leading or _shape(run[0] if run else "") != "upper") and any(w not in code.strings for w in run):
        return []
    return run


def _tests(code: Code, shape: str, named: frozenset[str] = frozenset()) -> list[tuple[int, set[str]]]:
    """(line, literals of ``shape``) for each statement that tests against two
    or more of them, or that defines a name of ``named`` (folded) as a
    collection of them (``const payloadMethods = new Set(["PATCH", ...])``)."""
    out = []
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        literals = {m.group(0)[1:-1] for m in re.finditer(STRING, text)}
        literals = {s for s in literals if _shape(s) == shape}
        bare = re.sub(STRING, '""', text)
        defined = _DEFINED.match(bare)
        if len(literals) >= 2 and (_TEST.search(bare) or (defined and fold(defined.group(1)) in named)):
            out.append((index, literals))
    return out


#: A name defined as a collection of literals: ``X = (...)``, ``const X = new Set([...])``, ``X: T = [...]``.
_DEFINED = re.compile(r"\s*(?:(?:export|const|let|var|static|pub|final|private|public|readonly)\s+)*"
                      r"([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:new\s+Set\s*\(|frozenset\s*\(|set\s*\(|"
                      r"Object\.freeze\s*\(|[\[({])")


#: "A isn't in NAME": the word and the name, each bare or backticked.
_NOT_IN = re.compile(r"(?P<x>`[^`\n]+`|[\\\w.+-]+)\s+(?:(?:is|are)\s+not|isn't|aren't)\s+"
                     r"(?:listed\s+|included\s+)?(?:in|among|part\s+of)\s+(?:the\s+)?"
                     r"(?P<name>`[A-Za-z_$][\w$.]*`|[A-Za-z_$][\w$]*)")
_CODE_NAME = re.compile(r"`.+`|.*_|.[a-z0-9]*[A-Z]")
_PRONOUN = frozenset({"it", "this", "that", "which", "they", "these", "those", "one"})
_NOT_IN_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|once|a|an|any)\s", re.I)


def _definition(code: Code, name: str) -> int | None:
    """The logical line that defines ``name`` as a value (``name = ...``, ``name := ...``, ``name: T = ...``)."""
    pattern = re.compile(rf"\s*(?:(?:export|const|let|var|static|pub|final|private|public|readonly)\s+)*"
                         rf"{re.escape(name)}\s*(?::[^=\n]+)?:?=(?!=)")
    for index in range(len(code.logical)):
        if pattern.match(code.logical_text(index)):
            return index
    return None


def _literal_forms(literal: str) -> set[str]:
    """A string literal's text as a word may name it: itself, read through a
    backslash escape, without a file extension's dot, all folded to lower case."""
    read = literal.replace("\\\\", "\\")
    return {form.lower() for form in (literal, read, literal.removeprefix("."))}


def _absent(clause: Clause, code: Code) -> list[Contradiction]:
    """"A isn't in NAME" where the code defines NAME with the literal A."""
    out = []
    for m in _NOT_IN.finditer(clause.text):
        word, name = m.group("x").strip("`"), m.group("name").strip("`")
        if (word.lower() in _PRONOUN or not _CODE_NAME.match(m.group("name")) or clause.quoted(m.start("name"))
                or _NOT_IN_CONDITION.search(clause.text[:m.start()]) or clause.skip(word)):
            continue
        index = _definition(code, name.rsplit(".", 1)[-1])
        if index is None:
            continue
        text = code.logical_text(index)
        literals = [s.group(0)[1:-1] for s in re.finditer(STRING, text)]
        found = next((lit for lit in literals if word.lower() in _literal_forms(lit)), None)
        if found is not None:
            out.append(Contradiction(
                "membership", f"the claim says `{m.group(0)}`; the code's `{name}` has `{found}`",
                code.show(index, found), code.label, (word,)))
    return out


def _terms(clause: Clause) -> set[str]:
    """The claim's hyphenated and code-like words, folded (what a guarded body may name)."""
    out = {fold(c) for c in re.findall(r"[\w$]+(?:-[\w$]+)+", clause.claim)}
    out |= {fold(w.text) for w in clause.words if w.term is not None}
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for code in codes:
        out.extend(_absent(clause, code))
        for m in _ONLY.finditer(clause.text):
            members = _members(m.group(1), code, leading=True)
            if not members or clause.skip(*members):
                continue
            named = frozenset(fold(w.text) for w in clause.words if w.end <= m.start())
            tests = [(i, lits) for i, lits in _tests(code, _shape(members[0]), named) if set(members) <= lits]
            if tests and all(lits > set(members) for _, lits in tests):
                extra = sorted(tests[0][1] - set(members))
                out.append(Contradiction(
                    "membership", f"the claim says `{m.group(0)}`; the code's test also names "
                    + ", ".join(f"`{e}`" for e in extra), code.show(tests[0][0], *extra), code.label,
                    tuple(members)))
        for m in _INCLUDED.finditer(clause.text):
            listed = m.group(1) or m.group(2)
            members = _members(listed, code, leading=False)
            if not members or clause.skip(*members):
                continue
            tests = _tests(code, _shape(members[0]))
            if any(set(members) & lits for _, lits in tests):
                continue
            wanted = _terms(clause)
            for index, lits in tests:
                body = [index, *code.block(index)]
                named = {fold(a.text) for a in code.atoms if a.line in body}
                if wanted & named:
                    out.append(Contradiction(
                        "membership", f"the claim says `{m.group(0)}`; the code's test names only "
                        + ", ".join(f"`{x}`" for x in sorted(lits)), code.show(index, *sorted(lits)), code.label,
                        tuple(members)))
                    break
    return out


RULE = Rule("membership", check, __doc__ or "")
