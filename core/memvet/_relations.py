"""Claims that name the right code but say the wrong thing about it.

:mod:`memvet._claims` checks that a claim's terms *occur* in its evidence. A
false claim can pass that check with every term real: "CURL_CA_BUNDLE takes
precedence over REQUESTS_CA_BUNDLE" names two strings the code does contain,
in the wrong order. On psf/requests, 10 of the 22 false facts a lazy agent
wrote were of this kind. This module reads three relations that a claim
states in plain words and that the code states in its text, and refuses a
write when the two disagree. No model: each rule is a pattern over the
claim's words and a pattern over the code, and a rule that cannot find both
sides says nothing (a claim is refused only on positive evidence).

Rules:

order
    ``A before B``, ``B after A``, ``A first ... then B``, ``A, then B``,
    ``A followed by B``: ``A`` must come before ``B`` in the anchored code
    (first occurrences, comments, docstrings and the signature left out).
    ``A takes precedence over B``, ``prefers A over B``, ``A, falling back
    to B``: ``A`` must come first in a statement that holds both and lets
    its first operand win: a fallback chain (``os.environ.get("A") or
    os.environ.get("B")``, ``??``, ``||``, ``if ... else``) or a loop over
    candidates that stops at the first hit (``break``, ``return``, ``if x
    is None``). A loop that merges each in turn lets the last one win, and
    precedence across statements depends on which assignment runs last:
    there nothing is said.
value
    A plain word of the claim that the code assigns (``cnonce = ...``) or
    tests as a string (``if "text" in content_type:``), paired within four
    words with a number, a named variant (``MD5``, ``utf-8``, ``sha256``) or
    an address (``127.0.0.1``):
    when what the code computes it from (following local assignments two
    steps) or returns for it holds values of the same kind but not the
    claim's, the claim is refused: ``cnonce`` is computed from ``sha1``,
    not ``MD5``.
bases
    ``X is only a Y`` / ``X only subclasses Y`` and ``X is not a Y`` /
    ``X does not subclass Y`` against the class statement's bases.

An operand is a code term of the claim or a plain word the code itself
uses (an identifier or a string's content), matched exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memvet._claims import EvidenceText, Term, TermKind, UnboundTerm, claim_terms

__all__ = ["Contradiction", "contradictions", "render_refusal"]


@dataclass(frozen=True)
class Contradiction:
    """A relation the claim states and its code states otherwise.

    Attributes:
        rule: ``order``, ``value`` or ``bases``.
        said: What the claim says, in a few words.
        code: The line of code that says otherwise.
        where: The anchor whose code it is.
        operands: The claim's words the rule compared; declaring one of
            them unbound skips the rule.
    """

    rule: str
    said: str
    code: str
    where: str
    operands: tuple[str, ...]

    def line(self) -> str:
        """One line: what the claim says, and where the code says otherwise."""
        return f"{self.said}, but {self.where} says `{self.code}`"

    def to_dict(self) -> dict[str, object]:
        return {"rule": self.rule, "said": self.said, "code": self.code, "where": self.where,
                "operands": list(self.operands)}


# ======================================================================= code

_STRING = r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`'
_CODE_TOKEN = re.compile(rf'(?P<s>{_STRING})|(?P<w>[A-Za-z_$][\w$]*)|(?P<n>\d[\w.]*)|(?P<o>[()\[\]{{}}])|\S')
_DOCSTRING = re.compile(r'^[ \t]*[rRbBuU]?("""|\'\'\')[\s\S]*?\1', re.M)
_HASH_COMMENT = re.compile(rf'({_STRING})|#[^\n]*')
_SLASH_COMMENT = re.compile(rf'({_STRING})|//[^\n]*|/\*[\s\S]*?\*/')
_HEADER = re.compile(r"\s*(?:@|(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|class|function|func|fn)\b)")
_SLASH_LANGS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".java", ".go", ".rs", ".c", ".h", ".cpp")


@dataclass(frozen=True)
class _Atom:
    text: str  # an identifier, or a string literal's content
    line: int  # index of its logical line


@dataclass
class _Code:
    """One anchor's code: logical lines, atoms in order, and physical lines."""

    label: str
    physical: list[str]
    logical: list[tuple[int, int]]  # (first, last) physical line of each logical line
    atoms: list[_Atom]
    headers: set[int]  # logical lines that are signatures or decorators

    def logical_text(self, index: int) -> str:
        first, last = self.logical[index]
        return " ".join(" ".join(self.physical[first:last + 1]).split())


def _blank(match: re.Match[str]) -> str:
    return "\n" * match.group(0).count("\n")


def _strip(text: str, label: str) -> str:
    """Comments and docstrings out, line count kept."""
    path = label.split("::", 1)[0]
    text = _DOCSTRING.sub(_blank, text)
    lexer = _SLASH_COMMENT if path.endswith(_SLASH_LANGS) else _HASH_COMMENT
    return lexer.sub(lambda m: m.group(1) if m.group(1) else _blank(m), text)


def _parse(ev: EvidenceText) -> _Code:
    physical = _strip(ev.text, ev.label).splitlines()
    logical: list[tuple[int, int]] = []
    atoms: list[_Atom] = []
    headers: set[int] = set()
    depth, start = 0, -1
    for number, line in enumerate(physical):
        if not line.strip() and depth == 0:
            continue
        if start < 0:
            start = number
            if _HEADER.match(line):
                headers.add(len(logical))
        for m in _CODE_TOKEN.finditer(line):
            if m.group("s"):
                content = m.group("s")[1:-1]
                if content.strip():
                    atoms.append(_Atom(content, len(logical)))
            elif m.group("w"):
                atoms.append(_Atom(m.group("w"), len(logical)))
            elif m.group("o"):
                depth = max(0, depth + (1 if m.group("o") in "([{" else -1))
        if depth == 0:
            logical.append((start, number))
            start = -1
    if start >= 0:
        logical.append((start, len(physical) - 1))
    return _Code(ev.label, physical, logical, atoms, headers)


def _codes(evidence: Sequence[EvidenceText]) -> list[_Code]:
    """The code of symbol and file anchors (dependencies and rules are not code)."""
    return [_parse(ev) for ev in evidence
            if ev.text.strip() and not ev.label.startswith(("dep:", "import:", "pattern:", "absent:"))]


# ======================================================================= claim

_STOP = frozenset({
    "the", "and", "for", "with", "that", "this", "not", "are", "was", "from", "its", "when", "into", "than",
    "then", "has", "have", "only", "also", "but", "any", "all", "both", "each", "every", "other", "some",
    "one", "two", "their", "them", "they", "there", "which", "while", "what", "who", "whose", "where",
    "will", "would", "can", "could", "should", "must", "may", "does", "did", "done", "being", "been", "were",
    "first", "last", "before", "after", "over", "falls", "fall", "falling", "back", "takes", "take", "prefers",
    "precedence", "followed", "returns", "return", "uses", "use", "used", "calls", "call", "called", "default",
    "none", "true", "false", "null", "self", "value", "values", "set", "gets", "get", "new", "same", "just",
})
_WORDS = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*")
_CLAUSE = re.compile(r";|\.(?:\s|$)|:\s|\s[-\u2013\u2014]\s")


@dataclass(frozen=True)
class _Word:
    text: str
    start: int
    index: int  # position among the clause's words
    term: Term | None


def _clauses(claim: str) -> list[tuple[int, str]]:
    out, start = [], 0
    for m in _CLAUSE.finditer(claim):
        out.append((start, claim[start:m.start()]))
        start = m.end()
    out.append((start, claim[start:]))
    return [(s, c) for s, c in out if c.strip()]


def _words(clause: str, terms: Sequence[Term]) -> list[_Word]:
    """The clause's words, each term kept whole."""
    spans: list[tuple[int, int, Term]] = []
    for term in terms:
        for m in re.finditer(re.escape(term.text), clause):
            if not any(s <= m.start() < e for s, e, _ in spans):
                spans.append((m.start(), m.end(), term))
    spans.sort(key=lambda s: s[0])
    out: list[_Word] = []
    pos = 0
    for m in _WORDS.finditer(clause.replace("`", " ")):
        if m.start() < pos:
            continue
        hit = next((s for s in spans if s[0] <= m.start() < s[1]), None)
        if hit is not None:
            out.append(_Word(hit[2].text, hit[0], len(out), hit[2]))
            pos = hit[1]
        else:
            out.append(_Word(m.group(0), m.start(), len(out), None))
            pos = m.end()
    return out


def _atom_of(word: _Word) -> str:
    """The code atom a claim word stands for (a call's callee, a dotted name's last part)."""
    text = word.text
    if word.term is not None and word.term.kind is TermKind.CALL:
        text = text[: text.index("(")]
    if word.term is not None and word.term.kind in (TermKind.CALL, TermKind.DOTTED):
        text = text.rsplit(".", 1)[-1]
    return text


def _operand(word: _Word, atoms: set[str], declared: set[str]) -> str:
    """The atom a claim word is, if the code uses it; '' when it is prose."""
    if word.text in declared:
        return ""
    if word.term is None and (word.text.lower() in _STOP or len(word.text) < 3):
        return ""
    if word.term is not None and word.term.kind in (TermKind.NUMBER, TermKind.VERSION, TermKind.ADDRESS):
        return ""
    atom = _atom_of(word)
    return atom if atom in atoms else ""


# ======================================================================= order

_SEQUENCE = (
    (re.compile(r"\bbefore\b"), False),
    (re.compile(r"\bafter\b"), True),
    (re.compile(r"(?:,|\band|\bfirst)\s+(?:only\s+)?then\b"), False),
    (re.compile(r"\bfollowed by\b"), False),
)
_PRECEDENCE = (
    re.compile(r"\b(?:takes?|has|have|gets?|given) precedence over\b"),
    re.compile(r"\bwins over\b"),
    re.compile(r"\bis (?:preferred|tried|checked|read|consulted) (?:to|over|before)\b"),
    re.compile(r"\b(?:and\s+)?(?:only\s+)?(?:falls?|falling) back (?:to|on)\b"),
)
_PREFERS = re.compile(r"\bprefers?\b")
_OVER = re.compile(r"\bover\b")


def _first(code: _Code, atom: str) -> int:
    """Index of the first use of ``atom`` outside signatures, or -1."""
    for i, a in enumerate(code.atoms):
        if a.text == atom and a.line not in code.headers:
            return i
    return -1


def _nearest(words: Sequence[_Word], at: int, step: int, atoms: set[str], declared: set[str]) -> _Word | None:
    """The operand nearest to the marker at character ``at``: terms first, then plain words."""
    side = [w for w in words if (w.start < at if step < 0 else w.start > at)]
    if step < 0:
        side.reverse()
    for want_term in (True, False):
        for w in side:
            if (w.term is not None) == want_term and _operand(w, atoms, declared):
                return w
    return None


def _order(clause: str, words: Sequence[_Word], codes: Sequence[_Code], declared: set[str]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for code in codes:
        atoms = {a.text for a in code.atoms}
        pairs: list[tuple[_Word, _Word, bool, str]] = []  # (earlier, later, same statement, marker)
        for pattern, reverse in _SEQUENCE:
            for m in pattern.finditer(clause):
                a, b = _nearest(words, m.start(), -1, atoms, declared), _nearest(words, m.end() - 1, 1, atoms, declared)
                if a and b:
                    pairs.append((b, a, False, m.group(0)) if reverse else (a, b, False, m.group(0)))
        for pattern in _PRECEDENCE:
            for m in pattern.finditer(clause):
                a, b = _nearest(words, m.start(), -1, atoms, declared), _nearest(words, m.end() - 1, 1, atoms, declared)
                if a and b:
                    pairs.append((a, b, True, m.group(0)))
        for m in _PREFERS.finditer(clause):
            over = _OVER.search(clause, m.end())
            if over:
                a = _nearest(words, m.end(), 1, atoms, declared)
                b = _nearest(words, over.end() - 1, 1, atoms, declared)
                if a and b and a.start < over.start():
                    pairs.append((a, b, True, "prefers ... over"))
        for a, b, same, marker in pairs:
            first, second = _atom_of(a), _atom_of(b)
            if first == second:
                continue
            found = _same_statement(code, first, second) if same else _sequence(code, first, second)
            if found is not None:
                out.append(Contradiction(
                    "order", f"the claim puts `{a.text}` before `{b.text}` ({marker.strip()})",
                    code.logical_text(found)[:120], code.label, (a.text, b.text)))
    return out


def _sequence(code: _Code, first: str, second: str) -> int | None:
    """The logical line showing ``second`` used before ``first``, or None."""
    i, j = _first(code, first), _first(code, second)
    if i < 0 or j < 0 or i < j:
        return None
    return code.atoms[j].line


_FALLBACK = re.compile(r"\bor\b|\|\||\?\?|\belse\b")
_STOPS = re.compile(r"\b(?:break|return)\b|\bis None\b|\bis not None\b|\bif not\b|===? (?:null|undefined)\b")


def _first_wins(code: _Code, line: int, first: str, second: str) -> bool:
    """Whether the statement lets its first operand win: a fallback chain
    (``a or b``, ``a ?? b``, ``a if c else b``), or a loop over candidates
    that stops at the first hit. A loop that merges each in turn (later
    wins), or a bare tuple, says nothing about precedence."""
    text = code.logical_text(line)
    between = text[min(text.find(first), text.find(second)):max(text.rfind(first), text.rfind(second))]
    if _FALLBACK.search(between):
        return True
    if not re.match(r"\s*for\b", code.physical[code.logical[line][0]]):
        return False
    head = code.physical[code.logical[line][0]]
    indent = len(head) - len(head.lstrip())
    body = []
    for first_line, _ in code.logical[line + 1:]:
        physical = code.physical[first_line]
        if len(physical) - len(physical.lstrip()) <= indent:
            break
        body.append(physical)
    return bool(_STOPS.search("\n".join(body)))


def _same_statement(code: _Code, first: str, second: str) -> int | None:
    """The statement that lets ``second`` win over ``first``, when none lets ``first`` win."""
    lines: dict[int, list[str]] = {}
    for a in code.atoms:
        if a.text in (first, second):
            lines.setdefault(a.line, []).append(a.text)
    contrary = None
    for line, seen in lines.items():
        if first in seen and second in seen and _first_wins(code, line, first, second):
            if seen.index(first) < seen.index(second):
                return None
            contrary = line if contrary is None else contrary
    return contrary


# ======================================================================= value

_VARIANT = re.compile(r"^[a-z]{2,}\d+$")


def _fold(text: str) -> str:
    return re.sub(r"[-_ ]", "", text.lower())


def _variants(text: str) -> set[str]:
    """Named variants the code spells: ``hashlib.sha1``, ``md5_utf8``, ``"ISO-8859-1"``.

    String contents count in any case; in identifiers only lower-case parts
    count, so a variable ``HA1`` is not the name of an algorithm.
    """
    out = set()
    for m in re.finditer(rf"({_STRING})|[A-Za-z_$][\w$]*", text):
        if m.group(1):
            parts = re.findall(r"[A-Za-z]{2,}(?:-?\d+)+", m.group(1))
        else:
            parts = [p for p in m.group(0).split("_") if p.islower() or p.isdigit()]
        for part in parts:
            folded = _fold(part)
            if _VARIANT.match(folded):
                out.add(folded)
    return out


def _numbers(text: str) -> set[float]:
    """Numbers in code text: literals, and strings that are only digits ("0"),
    not the digits inside a string such as "ISO-8859-1"."""
    text = re.sub(_STRING, lambda m: m.group(0) if m.group(0)[1:-1].isdigit() else '""', text)
    out = set()
    for m in re.finditer(r"(?<![\w.$-])\d+(?:\.\d+)?(?![\w$]|\.\d)", text):
        try:
            out.add(float(m.group(0)))
        except ValueError:  # pragma: no cover - the pattern only matches numbers
            continue
    return out


_ADDRESS = re.compile(r"(?<![\w.])(?:localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?(?![\w.]*\w)")


def _family(term: Term) -> str:
    if term.kind is TermKind.ADDRESS and _ADDRESS.fullmatch(term.text):
        return "address"
    if term.kind is TermKind.NUMBER:
        return "number" if re.fullmatch(r"-?\d+(?:\.\d+)?", term.text) else ""
    if term.kind is TermKind.IDENTIFIER and _VARIANT.match(_fold(term.text)):
        return "variant"
    return ""


def _assigned(code: _Code, name: str) -> list[int]:
    pattern = re.compile(rf"^\s*(?:self\.|this\.|const\s+|let\s+|var\s+|final\s+)?{re.escape(name)}\s*"
                         r"(?::[^=\n]*)?(?:[-+*/|&]|\?\?)?=(?!=)")
    out = []
    for i, (first, _) in enumerate(code.logical):
        if pattern.match(code.physical[first]):
            out.append(i)
    return out


def _assigned_from(code: _Code, name: str, depth: int = 2) -> list[int]:
    """The statements that compute ``name``, following local names ``depth`` steps."""
    seen: list[int] = []
    todo = [(name, 0)]
    names = {name}
    while todo:
        current, level = todo.pop()
        for line in _assigned(code, current):
            if line in seen:
                continue
            seen.append(line)
            if level >= depth:
                continue
            rhs = code.logical_text(line).split("=", 1)[-1]
            for used in re.findall(r"(?<![\w.$])[A-Za-z_]\w*", rhs):
                if used not in names and _assigned(code, used):
                    names.add(used)
                    todo.append((used, level + 1))
    return sorted(seen)


def _branch(code: _Code, value: str) -> list[int]:
    """The statements that run when a condition tests for the string ``value``."""
    out = []
    quoted = re.compile(rf"""["'`]{re.escape(value)}["'`]""")
    for i, (first, last) in enumerate(code.logical):
        head = code.physical[first]
        if not re.match(r"\s*(?:\}\s*)?(?:if|elif|else\s+if)\b", head):
            continue
        text = " ".join(code.physical[first:last + 1])
        if not quoted.search(text):
            continue
        indent = len(head) - len(head.lstrip())
        body = []
        for j in range(i + 1, len(code.logical)):
            line = code.physical[code.logical[j][0]]
            if len(line) - len(line.lstrip()) <= indent:
                break
            body.append(j)
        out.extend(body or [i])
    return out


_NEAR = 4  # words between a value and the word it is said of ("cnonce is an MD5": 3)


def _value(clause: str, words: Sequence[_Word], codes: Sequence[_Code], declared: set[str]) -> list[Contradiction]:
    out: list[Contradiction] = []
    values = [w for w in words if w.term is not None and _family(w.term) and w.text not in declared]
    if not values:
        return out
    for code in codes:
        atoms = {a.text for a in code.atoms}
        subjects: dict[int, tuple[_Word, list[int], bool]] = {}
        for w in words:
            if (w.term is None and re.fullmatch(r"[a-z][a-z0-9_]{2,}", w.text) and w.text.lower() not in _STOP
                    and w.text in atoms and w.text not in declared):
                computed = _assigned_from(code, w.text)
                lines = computed or _branch(code, w.text)
                if lines:
                    subjects[w.index] = (w, lines, bool(computed))
        for value in values:
            near = sorted((abs(value.index - i), i > value.index, i) for i in subjects
                          if abs(value.index - i) <= _NEAR)
            if not near:
                continue
            subject, lines, computed = subjects[near[0][2]]  # one subject: the nearest the code defines
            text = " ".join(code.logical_text(i) for i in lines)
            family = _family(value.term) if value.term else ""
            if family == "variant":
                have = _variants(text)
                ok = _fold(value.text) in have
                shown = sorted(have)
            elif family == "address":
                have = set(_ADDRESS.findall(text))
                ok = value.text in have
                shown = sorted(have)
            else:
                nums = _numbers(text)
                have = {f"{n:g}" for n in nums}
                ok = float(value.text) in nums
                shown = sorted(have)
            if have and not ok:
                verb = "computes it from" if computed else "returns for it"
                said = f"the claim pairs `{value.text}` with `{subject.text}`"
                out.append(Contradiction(
                    "value", f"{said}; the code {verb} {', '.join(f'`{s}`' for s in shown[:4])}",
                    code.logical_text(lines[-1] if computed else lines[0])[:120], code.label,
                    (value.text, subject.text)))
    return out


# ======================================================================= bases

_ONLY = re.compile(r"\b([A-Z][\w$]*) (?:is (?:only|just|merely) an?|(?:only|just) (?:subclasses|extends|inherits from))"
                   r" ([A-Z][\w$.]*)")
_NOT = re.compile(r"\b([A-Z][\w$]*) (?:is not an?|isn't an?|does not (?:subclass|extend|inherit from)|"
                  r"doesn't (?:subclass|extend|inherit from)|is no) ([A-Z][\w$.]*)")


def _bases(code: _Code, name: str) -> tuple[list[str], str] | None:
    for first, last in code.logical:
        text = " ".join(" ".join(code.physical[first:last + 1]).split())
        m = re.match(rf"(?:export\s+)?(?:abstract\s+)?class\s+{re.escape(name)}\b(.*)", text.strip())
        if not m:
            continue
        rest = m.group(1)
        if rest.startswith("("):
            inner = rest[1: rest.find(")")] if ")" in rest else ""
            bases = [b.strip() for b in inner.split(",") if b.strip() and "=" not in b]
        else:
            found = re.findall(r"\b(?:extends|implements)\s+([\w$.<>, ]+?)(?=\s*(?:\{|implements|$))", rest)
            bases = [b.strip() for chunk in found for b in chunk.split(",") if b.strip()]
        return [re.sub(r"<.*", "", b).rsplit(".", 1)[-1] for b in bases if b != "object"], text
    return None


def _inheritance(clause: str, codes: Sequence[_Code], declared: set[str]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for pattern, only in ((_ONLY, True), (_NOT, False)):
        for m in pattern.finditer(clause):
            cls, base = m.group(1), m.group(2).rsplit(".", 1)[-1]
            if cls in declared or m.group(2) in declared:
                continue
            for code in codes:
                found = _bases(code, cls)
                if found is None:
                    continue
                bases, line = found
                wrong = (bases and set(bases) != {base}) if only else base in bases
                if wrong:
                    out.append(Contradiction("bases", f"the claim says `{m.group(0)}`", line[:120], code.label,
                                             (cls, m.group(2))))
    return out


# ======================================================================= entry


def contradictions(claim: str, evidence: Sequence[EvidenceText], *, declared: Iterable[str] = (),
                   terms: Sequence[Term] | None = None) -> list[Contradiction]:
    """The relations ``claim`` states that its evidence's code states otherwise.

    Args:
        claim: The claim as written.
        evidence: What each anchor says (see :class:`memvet._claims.EvidenceText`).
        declared: Words the writer declared deliberately unbound; a rule
            that would compare one of them is skipped.
        terms: The claim's terms when the caller has them already.

    Returns:
        One :class:`Contradiction` per disagreement (empty: none found).
    """
    codes = _codes(evidence)
    if not codes:
        return []
    skip = {d.strip().strip("`") for d in declared}
    all_terms = claim_terms(claim) if terms is None else terms
    out: list[Contradiction] = []
    for _, clause in _clauses(claim):
        clause_terms = [t for t in all_terms if t.text in clause]
        words = _words(clause, clause_terms)
        out += _order(clause, words, codes, skip)
        out += _value(clause, words, codes, skip)
        out += _inheritance(clause, codes, skip)
    unique: list[Contradiction] = []
    for c in out:
        if c not in unique:
            unique.append(c)
    return unique


def render_refusal(unbound: Sequence[UnboundTerm], contrary: Sequence[Contradiction]) -> str:
    """The refusal message for a claim its code contradicts: a header, one
    line per contradiction, then one per unbound term."""
    n = len(contrary)
    head = (f"the claim states {n} relation{'s' if n != 1 else ''} that its anchored code states otherwise; "
            "correct the claim, anchor the code that says it, or declare the word deliberately unbound "
            "(--unbound WORD / unbound=[...]); nothing was written:")
    return "\n".join([head, *(f"  - {c.line()}" for c in contrary), *(f"  - {t.line()}" for t in unbound)])
