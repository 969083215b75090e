"""Claims bound to their evidence: the write path's answer to the present trap.

The read path can only say that the evidence is unchanged. Whether the claim
follows from it is decided here, when the decision is written, without a
model: the claim's *code-like terms* must occur in the anchored evidence.

Term classes (everything else in a claim is prose and binds to nothing)::

    code        a backticked span that is none of the shapes below: `a[0] + 1`
    call        name(args), dotted callee allowed: popitem(last=False)
    keyword     name=value written without spaces: last=False
    dotted      two or more identifiers joined by dots: hashlib.sha1, LRU.put
    identifier  with an underscore, inner capitals or a digit: max_size,
                OrderedDict, sha256 (SHA-256 and SHA256 fold to sha256)
    constant    UPPER_CASE with an underscore: HASH_VERSION
    number      5, 5.0, 1_000, 0x1F (compared by value: 5 == 5.0)
    string      "double" or 'single' quoted text
    path        a/b/c.py, setup.py, ./x (two plain words like and/or are prose)
    address     URLs, host:port, IPv4 addresses
    version     >=2.31, 1.2.3, v2.0

A term binds when its tokens occur, in order, in the evidence (whitespace
ignored): the anchored symbols' spans (comments and docstrings included,
they are what the code says about itself), anchored files, declared
dependencies, absence rules, and the anchors' own names (``LRU.put``, the
path, the module ``memvet._cache``). A dotted name also binds when each of
its segments occurs, and a path or dotted name when the repository has that
file, module or symbol at the recorded commit (the ``exists`` callback).
A call binds when its callee does and each written argument occurs inside
some call or definition of that callee; ``...`` stands for anything.

Bare lowercase words (``cache``), all-caps acronyms (``HTTP``, ``LRU``),
booleans and well-known product names with inner capitals (``GitHub``)
are prose: refusing them would refuse true claims written in plain English.

Quotes use the same tokens with comments removed: a quote is found when its
tokens occur contiguously in the span's tokens.
"""

from __future__ import annotations

import difflib
import enum
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "EvidenceText",
    "Term",
    "TermKind",
    "UnboundTerm",
    "bind",
    "claim_terms",
    "closest_lines",
    "code_tokens",
    "find_quote",
    "render_unbound",
]


class TermKind(str, enum.Enum):
    """The class of a code-like term in a claim."""

    CODE = "code"
    CALL = "call"
    KEYWORD = "keyword"
    DOTTED = "dotted"
    IDENTIFIER = "identifier"
    CONSTANT = "constant"
    NUMBER = "number"
    STRING = "string"
    PATH = "path"
    ADDRESS = "address"
    VERSION = "version"


@dataclass(frozen=True)
class Term:
    """One code-like term of a claim, as written."""

    text: str
    kind: TermKind


@dataclass(frozen=True)
class EvidenceText:
    """What one anchor says: its text and the names it stands for.

    Attributes:
        label: The anchor as a user writes it (``path::Qualified.name``).
        text: The anchored code (a symbol's span, a file, a manifest line).
        names: Names the anchor itself carries: the qualified name, the
            path, the module (``memvet._cache``) and ``module.qualname``.
    """

    label: str
    text: str
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnboundTerm:
    """A claim term the evidence does not contain."""

    term: Term
    looked_in: tuple[str, ...]
    nearest: str = ""

    def line(self) -> str:
        """One line naming the term, where it was looked for and what the code says."""
        where = ", ".join(self.looked_in) if self.looked_in else "no anchored evidence"
        out = f"`{self.term.text}` ({self.term.kind.value}) is not in {where}"
        if self.nearest:
            out += f"; the code says `{self.nearest}`"
        return out

    def to_dict(self) -> dict[str, object]:
        return {"term": self.term.text, "kind": self.term.kind.value, "looked_in": list(self.looked_in),
                "nearest": self.nearest}


# ======================================================================= tokens

_TOKEN = re.compile(r"[A-Za-z_$][\w$]*|\d\w*(?:\.\d\w*)*|\S")
_WORD = re.compile(r"[A-Za-z_$][\w$]*|\d\w*(?:\.\d\w*)*")

_HASH_COMMENTS = frozenset({"python", "yaml", "toml"})
_SLASH_COMMENTS = frozenset({"javascript", "typescript", "tsx", "go", "rust", "java"})
_PY_LEX = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|(#[^\n]*)')
_SLASH_LEX = re.compile(
    r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`|(//[^\n]*|/\*[\s\S]*?\*/)')
_MD_LEX = re.compile(r"(<!--[\s\S]*?-->)")


def _without_comments(text: str, language: str | None) -> str:
    if language in _HASH_COMMENTS:
        lexer = _PY_LEX
    elif language in _SLASH_COMMENTS:
        lexer = _SLASH_LEX
    elif language == "markdown":
        lexer = _MD_LEX
    else:
        return text
    return lexer.sub(lambda m: " " if m.group(1) else m.group(0), text)


def code_tokens(text: str, language: str | None = None, *, drop_comments: bool = False) -> list[str]:
    """The tokens of ``text``: identifiers, numbers and single other characters.

    Whitespace never becomes a token, so ``f(a,b)`` and ``f( a, b )`` give
    the same tokens. With ``drop_comments`` the comments of ``language`` are
    removed first (strings are kept whole, so ``"#"`` is not a comment).
    """
    if drop_comments:
        text = _without_comments(text, language)
    return _TOKEN.findall(text)


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    if not needle:
        return False
    return "\x00" + "\x00".join(needle) + "\x00" in "\x00" + "\x00".join(haystack) + "\x00"


def find_quote(quote: str, text: str, language: str | None) -> bool:
    """Whether ``quote`` occurs in ``text``, token by token, comments ignored."""
    return _contains(code_tokens(text, language, drop_comments=True),
                     code_tokens(quote, language, drop_comments=True))


def closest_lines(quote: str, text: str, first_line: int = 1, n: int = 2) -> list[str]:
    """The ``n`` lines of ``text`` most like ``quote``, as ``"<line>: <text>"``."""
    wanted = " ".join(quote.split())
    scored = []
    for number, line in enumerate(text.splitlines(), start=first_line):
        stripped = " ".join(line.split())
        if stripped:
            ratio = difflib.SequenceMatcher(None, wanted, stripped).ratio()
            scored.append((-ratio, number, stripped))
    scored.sort()
    return [f"{number}: {line[:100]}" for _, number, line in scored[:n]]


# ======================================================================= terms

#: Names with inner capitals that are prose in a claim, not code.
PROSE_NAMES = frozenset({
    "GitHub", "GitLab", "JavaScript", "TypeScript", "CoffeeScript", "PyPI", "PostgreSQL", "MySQL",
    "SQLite", "MongoDB", "DynamoDB", "GraphQL", "NoSQL", "OAuth", "WebSocket", "WebSockets",
    "LangChain", "LangGraph", "LlamaIndex", "OpenAI", "MemVet", "ChromaDB", "NumPy", "PyTorch",
    "FastAPI", "DevOps", "macOS", "iOS", "iPhone", "YouTube", "LinkedIn", "JetBrains", "VSCode",
    "PowerShell", "CPython", "PyPy", "IPython", "JupyterLab", "OpenSSL", "LibreSSL", "BoringSSL",
    "SQLAlchemy", "HTTPServer", "HTTPie", "RabbitMQ", "ZeroMQ", "CircleCI", "AppVeyor", "BitBucket", "Bitbucket", "DockerHub",
})

_BACKTICK = re.compile(r"`([^`\n]+)`")
_URL = re.compile(r"\b(?:https?|wss?|ftp|file)://[^\s`'\"<>)\]]+")
_HOSTPORT = re.compile(r"(?<![\w.])(?:localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?(?![\w.]*\w)")
_VERSION = re.compile(
    r"(?<![\w.$])(?:(?:[A-Za-z][\w.-]*)?(?:>=|<=|==|~=|!=|\^|~|>|<)\s*v?\d+(?:\.\d+)*(?:[.\-]?[A-Za-z]+\d*)?"
    r"|v?\d+\.\d+\.\d+(?:[.\-]?[A-Za-z]+\d*)?|v\d+(?:\.\d+)+)(?![\w$]|\.\d)")
_CALL_HEAD = re.compile(r"(?<![\w.$])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(")
_KEYWORD = re.compile(r"(?<![\w.$])[A-Za-z_][\w]*=(?:\"[^\"\n]*\"|'[^'\n]*'|[\w.+-]*[\w+-])")
_DQ = re.compile(r'"([^"\n]{1,160})"')
_SQ = re.compile(r"(?<![\w'])'([^'\n]{1,100})'(?!\w)")
_PATH = re.compile(
    r"(?<![\w./-])(?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)+/?"
    r"|(?<![\w./-])[\w-]+\.(?:py|pyi|js|jsx|mjs|cjs|ts|tsx|go|rs|java|json|ya?ml|toml|md|rst|txt"
    r"|cfg|ini|lock|sh|html|css|scm)(?![\w.-]*\w)")
_DOTTED = re.compile(r"(?<![\w.$])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?![\w$])")
_CONSTANT = re.compile(r"(?<![\w$.])[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?![\w$])")
_IDENT = re.compile(
    r"(?<![\w$.])(?:_+[A-Za-z0-9]\w*|[A-Za-z][A-Za-z0-9]*_\w*|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*"
    r"|[A-Z]{2,}[A-Z][a-z]{2,}\w*|[A-Za-z]+-?\d\w*(?:-\d+)*)(?![\w$])")
_NUMBER = re.compile(r"(?<![\w.$])-?(?:0[xX][0-9a-fA-F]+|\d+(?:_\d+)*(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w$]|\.\d)")
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)|[vV]\d+")
_STATUS_CLASS = re.compile(r"(?<![\w.$])[1-5][xX]{2}(?![\w$])")
_EXCEPTION_NAME = re.compile(r"(?=[A-Z])\w*(?:Error|Exception|Timeout|Warning|Exit|Interrupt|Failure)")


def _balanced(text: str, open_at: int, limit: int = 200) -> int:
    """Index just past the parenthesis closing the one at ``open_at``, or -1."""
    depth = 0
    quote = ""
    for i in range(open_at, min(len(text), open_at + limit)):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _plain_path(text: str) -> bool:
    """``and/or``, ``read/write``: two plain words are prose, not a path."""
    parts = [p for p in text.strip("/").split("/") if p not in (".", "..")]
    return len(parts) <= 2 and not text.startswith(".") and all(p.isalpha() for p in parts)


def _classify(inner: str) -> TermKind:
    """The class of a backticked span's content."""
    if re.fullmatch(r"[A-Za-z_$][\w$]*", inner):
        return TermKind.IDENTIFIER
    if _DOTTED.fullmatch(inner):
        return TermKind.DOTTED
    head = _CALL_HEAD.match(inner)
    if head and _balanced(inner, head.end() - 1) == len(inner):
        return TermKind.CALL
    if _NUMBER.fullmatch(inner):
        return TermKind.NUMBER
    if _PATH.fullmatch(inner) and not _plain_path(inner):
        return TermKind.PATH
    return TermKind.CODE


def claim_terms(claim: str) -> list[Term]:
    """The code-like terms of a claim, in the order they appear.

    Each stretch of the claim belongs to at most one term: a backticked span
    is one term, a call's arguments are part of the call, and so on.
    """
    found: list[tuple[int, Term]] = []
    text = claim

    def take(start: int, end: int, term: Term) -> None:
        nonlocal text
        found.append((start, term))
        text = text[:start] + " " * (end - start) + text[end:]

    for m in list(_BACKTICK.finditer(text)):
        inner = m.group(1).strip()
        if inner:
            take(m.start(), m.end(), Term(inner, _classify(inner)))
    for m in list(_URL.finditer(text)):
        url = m.group(0).rstrip(".,;:!?")
        take(m.start(), m.start() + len(url), Term(url, TermKind.ADDRESS))
    for m in list(_HOSTPORT.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.ADDRESS))
    for m in list(_VERSION.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.VERSION))
    pos = 0
    while True:
        m = _CALL_HEAD.search(text, pos)
        if m is None:
            break
        end = _balanced(text, m.end() - 1)
        args = text[m.end():end - 1] if end > 0 else ""
        if end < 0 or args.strip() in ("s", "es", "ies") or (
                "." not in m.group(1) and re.fullmatch(r"[a-z]+", m.group(1)) and " " in args.strip()
                and "," not in args and "=" not in args):
            pos = m.end()  # entry(s), a word(with a prose aside): not calls
            continue
        take(m.start(), end, Term(text[m.start():end], TermKind.CALL))
        pos = end
    for m in list(_KEYWORD.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.KEYWORD))
    for pattern in (_DQ, _SQ):
        for m in list(pattern.finditer(text)):
            if m.group(1).strip():
                # The quoted text as the claim wrote it: a call inside it
                # (``"... {type(value).__name__}"``) was taken as a term
                # above, and its blanks must not stand in the string.
                take(m.start(), m.end(), Term(claim[m.start(1):m.end(1)], TermKind.STRING))
    for m in list(_PATH.finditer(text)):
        if not _plain_path(m.group(0)):
            take(m.start(), m.end(), Term(m.group(0), TermKind.PATH))
    for m in list(_DOTTED.finditer(text)):
        if any(len(seg) > 1 for seg in m.group(0).split(".")):  # e.g. / i.e: prose
            take(m.start(), m.end(), Term(m.group(0), TermKind.DOTTED))
    for m in list(_CONSTANT.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.CONSTANT))
    for m in list(_IDENT.finditer(text)):
        word = m.group(0)
        if word not in PROSE_NAMES and not _ORDINAL.fullmatch(word):
            take(m.start(), m.end(), Term(word, TermKind.IDENTIFIER))
    for m in list(_STATUS_CLASS.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.NUMBER))
    for m in list(_NUMBER.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.NUMBER))
    found.sort(key=lambda item: item[0])
    out: list[Term] = []
    for _, term in found:
        if term not in out:
            out.append(term)
    return out


# ======================================================================= binding


def _fold(word: str) -> str:
    return word.lower().replace("-", "")


def number_value(text: str) -> float | None:
    """The value of a number as a claim or code writes it (``1_000``, ``0x1F``, ``5.0``)."""
    return _number(text)


def numbers_in(line: str) -> set[float]:
    """The values of the numbers written in a line of code (not digits inside names)."""
    out = set()
    for m in _NUMBER.finditer(line):
        value = _number(m.group(0))
        if value is not None:
            out.add(value)
    return out


def _number(text: str) -> float | None:
    try:
        cleaned = text.replace("_", "")
        return float(int(cleaned, 16)) if cleaned.lower().startswith(("0x", "-0x")) else float(cleaned)
    except ValueError:
        return None


@dataclass
class _Index:
    """The evidence of one write, prepared for term lookups."""

    texts: Sequence[EvidenceText]
    tokens: list[str] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    folded: set[str] = field(default_factory=set)
    numbers: set[float] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    name_segments: set[str] = field(default_factory=set)
    _lower: list[str] | None = None

    def __post_init__(self) -> None:
        for ev in self.texts:
            tokens = code_tokens(ev.text)
            self.tokens.extend(tokens)
            self.tokens.append("\x01")  # never joins two texts into one sequence
            for name in ev.names:
                self.names.add(name)
                self.name_segments.update(_WORD.findall(name))
        for tok in self.tokens:
            if _WORD.fullmatch(tok):
                self.words.add(tok)
                self.folded.add(_fold(tok))
                self.folded.update(_fold(part) for part in tok.split("_") if part)
                if tok[0].isdigit():
                    value = _number(tok)
                    if value is not None:
                        self.numbers.add(value)
        for seg in self.name_segments:
            self.folded.add(_fold(seg))

    def has_sequence(self, text: str, *, fold: bool = False) -> bool:
        if not fold:
            return _contains(self.tokens, code_tokens(text))
        if self._lower is None:
            self._lower = [t.lower() for t in self.tokens]
        return _contains(self._lower, [t.lower() for t in code_tokens(text)])

    def strings(self) -> set[str]:
        """The contents of the evidence's string literals, lower-cased."""
        return {m.group(2).lower() for ev in self.texts for m in _STRING_LITERAL.finditer(ev.text)}

    def has_name(self, name: str) -> bool:
        name = name.strip("./")
        return name in self.names or any(n.endswith("." + name) or n.endswith("/" + name) for n in self.names)

    def has_word(self, word: str) -> bool:
        return word in self.words or word in self.name_segments

    def handles(self, exception: str) -> bool:
        """Whether the evidence raises, catches or tests for ``exception``."""
        pattern = re.compile(rf"\b(?:raise|raises|except|catch|throw|throws|isinstance|rescue)\b[^\n]*"
                             rf"(?<![\w$]){re.escape(exception)}(?![\w$])")
        return any(pattern.search(ev.text) for ev in self.texts)

    def calls(self, callee: str) -> list[str]:
        """Raw ``callee(...)`` texts (calls and definitions) in the evidence."""
        last = re.escape(callee.rsplit(".", 1)[-1])
        out = []
        for ev in self.texts:
            for m in re.finditer(rf"(?<![\w$]){last}\s*\(", ev.text):
                end = _balanced(ev.text, m.end() - 1, limit=400)
                if end > 0:
                    out.append(" ".join(ev.text[m.start():end].split()))
        return out


_STRING_LITERAL = re.compile(r"([\"'])([^\"'\n]{1,200})\1")
_STRING_ARG = re.compile(r"[rRbBuUfF]{0,2}([\"'])(.*)\1", re.S)


def _args(call: str) -> list[str]:
    """The top-level arguments of ``name(a, b=1)``."""
    inner = call[call.index("(") + 1: -1]
    out, depth, start, quote = [], 0, 0, ""
    for i, ch in enumerate(inner):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(inner[start:i])
            start = i + 1
    out.append(inner[start:])
    return [a.strip() for a in out if a.strip() and a.strip() not in ("...", "…")]


def _nearest_word(word: str, candidates: Iterable[str]) -> str:
    pool = sorted(set(candidates))
    if any(ch.isdigit() for ch in word):
        prefix = re.match(r"[A-Za-z]+", word)
        if prefix:
            same = [c for c in pool if c.lower().startswith(prefix.group(0).lower()) and c != word
                    and any(ch.isdigit() for ch in c)]
            if same:
                return same[0]
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    return close[0] if close else ""


def _context_words(claim: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]{2,}", claim)} - _STOP


_STOP = frozenset({"the", "and", "for", "with", "that", "this", "not", "are", "was", "from", "its", "when",
                   "into", "than", "then", "uses", "use", "has", "have", "every", "each", "only", "set",
                   "default", "defaults", "value", "values", "returns", "return"})


def _nearest_line(claim: str, index: _Index, accept: Callable[[str], bool]) -> str:
    """The evidence line that shares most words with the claim and holds a
    token ``accept`` likes (a number, a string), stripped."""
    wanted = _context_words(claim)
    best, best_score = "", -1
    for ev in index.texts:
        for line in ev.text.splitlines():
            if not any(accept(tok) for tok in _TOKEN.findall(line)):
                continue
            score = len(wanted & {w.lower() for w in _WORD.findall(line)})
            if score > best_score:
                best, best_score = " ".join(line.split())[:80], score
    return best


def _bound(term: Term, index: _Index, exists: Callable[[Term], bool]) -> tuple[bool, str]:
    """Whether ``term`` binds, and if not, the nearest thing the code says."""
    text, kind = term.text, term.kind
    if kind in (TermKind.IDENTIFIER, TermKind.CONSTANT):
        if index.has_word(text) or index.has_name(text):
            return True, ""
        # SHA-256 ~ sha256 and UTF-8 ~ "utf-8": names of algorithms and
        # encodings ignore case; an environment variable NO_PROXY binds to a
        # string "no_proxy" (code often looks both up), never to a variable.
        if any(ch.isdigit() for ch in text) and (_fold(text) in index.folded
                                                 or index.has_sequence(text, fold=True)):
            return True, ""
        if kind is TermKind.CONSTANT and text.lower() in index.strings():
            return True, ""
        return False, _nearest_word(text, index.words | index.name_segments)
    if kind is TermKind.DOTTED:
        segments = text.split(".")
        if index.has_sequence(text) or index.has_name(text):
            return True, ""
        # An exception class must be one the anchored code raises, catches or
        # tests for: that it exists somewhere (requests.exceptions.Timeout),
        # or that its parts are words of a docstring, does not make a claim
        # about what this code raises true.
        if _EXCEPTION_NAME.fullmatch(segments[-1]):
            if index.handles(segments[-1]):
                return True, ""
        elif all(index.has_word(seg) for seg in segments) or exists(term):
            return True, ""
        dotted = {m.group(0) for ev in index.texts for m in _DOTTED.finditer(ev.text)} | index.names
        return False, _nearest_word(text, dotted)
    if kind is TermKind.CALL:
        callee = text[: text.index("(")]
        callee_term = Term(callee, TermKind.DOTTED if "." in callee else TermKind.IDENTIFIER)
        if "." in callee:
            callee_ok, _ = _bound(callee_term, index, exists)
        else:
            callee_ok = index.has_word(callee) or index.has_name(callee)
        calls = index.calls(callee)
        if not callee_ok:
            return False, _nearest_word(callee, index.words | index.name_segments)
        args = _args(text)
        if not args or index.has_sequence(text):
            return True, ""
        # A string argument binds by its words: a claim quotes a message
        # without its f-prefix, concatenation or the rest of the text.
        wanted = [code_tokens(m.group(2) if (m := _STRING_ARG.fullmatch(arg)) else arg) for arg in args]
        for call in calls:
            call_tokens = code_tokens(call)
            if all(_contains(call_tokens, w) for w in wanted):
                return True, ""
        return False, calls[0][:80] if calls else ""
    if kind is TermKind.KEYWORD:
        if index.has_sequence(text):
            return True, ""
        name = text.split("=", 1)[0]
        for ev in index.texts:
            m = re.search(rf"(?<![\w$]){re.escape(name)}\s*(?::[^=\n]*)?=\s*[^,)\n]+", ev.text)
            if m:
                return False, " ".join(m.group(0).split())[:80]
        return False, ""
    if kind is TermKind.NUMBER and _STATUS_CLASS.fullmatch(text):
        low = int(text[0]) * 100
        if any(low <= n < low + 100 for n in index.numbers) or index.has_sequence(text, fold=True):
            return True, ""
        return False, _nearest_line(text, index, lambda tok: tok[:1].isdigit())
    if kind is TermKind.NUMBER:
        value = _number(text)
        if value is not None and value in index.numbers:
            return True, ""
        if index.has_sequence(text) or exists(term):
            return True, ""
        return False, _nearest_line(text, index, lambda tok: tok[:1].isdigit())
    if kind is TermKind.PATH:
        if index.has_name(text) or index.has_sequence(text) or exists(term):
            return True, ""
        return False, _nearest_word(text, {n for n in index.names if "/" in n})
    if kind is TermKind.STRING:
        if index.has_sequence(text):
            return True, ""
        strings = {m.group(1) for ev in index.texts for m in re.finditer(r"[\"']([^\"'\n]{1,80})[\"']", ev.text)}
        return False, _nearest_word(text, strings)
    # code, address, version: the tokens in order; `...` stands for anything
    parts = [p for p in re.split(r"\.\.\.|…", text) if p.strip()]
    if parts and all(index.has_sequence(p) for p in parts):
        return True, ""
    return False, ""


def bind(claim: str, evidence: Sequence[EvidenceText], *, exists: Callable[[Term], bool] | None = None,
         unbound: Iterable[str] = (), terms: Sequence[Term] | None = None) -> list[UnboundTerm]:
    """The claim's code-like terms that its evidence does not contain.

    Args:
        claim: The claim as written.
        evidence: What each anchor says.
        exists: Whether a dotted name or path names a module, symbol or file
            of the repository at the recorded commit (default: never).
        unbound: Terms the writer declares as deliberately unbound; they
            are skipped.
        terms: The claim's terms when the caller has them already
            (default: :func:`claim_terms` of ``claim``).

    Returns:
        One :class:`UnboundTerm` per term that binds nowhere (empty: the
        claim is bound).
    """
    declared = {u.strip().strip("`") for u in unbound}
    index = _Index(evidence)
    looked = tuple(ev.label for ev in evidence)
    check = exists or (lambda term: False)
    out = []
    for term in claim_terms(claim) if terms is None else terms:
        if term.text in declared:
            continue
        ok, nearest = _bound(term, index, check)
        if not ok:
            out.append(UnboundTerm(term, looked, nearest if nearest != term.text else ""))
    return out


def render_unbound(terms: Sequence[UnboundTerm]) -> str:
    """The refusal message: a header, then one line per unbound term."""
    n = len(terms)
    head = (f"the claim names {n} code term{'s' if n != 1 else ''} that its anchored evidence does not "
            "contain; correct the claim, anchor the code that says it, or declare the term deliberately "
            "unbound (--unbound TERM / unbound=[...]); nothing was written:")
    return "\n".join([head, *(f"  - {t.line()}" for t in terms)])
