"""What every relation rule reads: the anchored code, and the claim cut into clauses.

Code side (:class:`Code`): one anchor's code with comments and docstrings
removed (they describe the old or the alternative behaviour as often as the
present one: "set host to 0.0.0.0 to listen externally"), cut into logical
lines (a Python statement over several lines is one; a brace-language block
``{`` is not, so each statement of a JavaScript function is its own line, and
a JavaScript statement carried over lines by a trailing ``||``, ``&&``, ``??``
or ``+``, or a leading ``||``, ``&&``, ``??`` or ``.member``, is one),
with its atoms (identifiers and the contents of string literals) in order,
and its calls (callee, receiver, arguments). Signatures (``def``, ``func``,
``function``, Rust's ``pub fn``, ``pub(crate) async fn`` ...) are header
lines; a definition written on one line (``func Now() uint64 { return
Timestamp(time.Now().UTC()) }``, ``def f(x): return g(x)``) is its header
and, on a line of its own, its body. A number token never takes a range's
``..`` (``0..NUM_RETRIES`` is ``0`` and ``NUM_RETRIES``).

Claim side (:class:`Clause`): the claim cut at ``;``, sentence ends, ``: ``
and dashes (never inside backticks or quotes), backticks removed (a
backticked word is the same word: backticks never switch a rule off), and
its words, each code-like term kept whole.

Operands: a claim word is an operand of a code when the code uses it (see
:meth:`Code.resolve`), narrowed by whose it is when the claim says so
("the client's headers" is ``self.headers``; ``res.locals`` is what another
anchor stores it in; see :func:`qualify`), or a verb the code calls on one
of its neighbours ("the request is sent": see :func:`action`). A
capitalized hyphenated name (``Retry-After``, ``X-RateLimit-Reset``) is one
word, a string of the code in any case; two plain words that spell a name
of the code together ("the retry delay": ``retryDelay``) stand for it. A
rule that cannot find both sides says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from memvet._claims import GO_BUILD, EvidenceText, Term, TermKind, balanced, fold, printed_format
from memvet._code import language_for_path

__all__ = [
    "GENERIC",
    "STOP",
    "Call",
    "Clause",
    "Code",
    "Contradiction",
    "Rule",
    "Word",
    "clauses",
    "codes",
    "fold",
    "is_boundary",
    "nearest",
    "needle",
    "object_tokens",
    "object_words",
    "shown",
    "split_name",
    "stems",
]


@dataclass(frozen=True)
class Contradiction:
    """A relation the claim states and its code states otherwise.

    Attributes:
        rule: The name of the rule that found it (see :data:`memvet._rules.RULES`).
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
        """One line: what the claim says, and where the code says otherwise
        (or, for a rule that reads an absence, that the code never mentions it)."""
        if not self.code:
            return f"{self.said}, but {self.where} never mentions it"
        return f"{self.said}, but {self.where} says `{self.code}`"

    def to_dict(self) -> dict[str, object]:
        return {"rule": self.rule, "said": self.said, "code": self.code, "where": self.where,
                "operands": list(self.operands)}


@dataclass(frozen=True)
class Rule:
    """One relation rule: a name, the check, and its documented rationale.

    Attributes:
        name: What :attr:`Contradiction.rule` says.
        check: Reads one clause against the anchored codes; returns what it found.
        rationale: The rule module's docstring: what it fires on, what it
            never fires on, and why.
    """

    name: str
    check: Callable[[Clause, Sequence[Code]], list[Contradiction]]
    rationale: str


# ======================================================================= code

STRING = r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`'
_CODE_TOKEN = re.compile(rf'(?P<s>{STRING})|(?P<w>[A-Za-z_$][\w$]*)|(?P<n>\d(?:\w|\.(?!\.))*)|(?P<o>[()\[\]{{}}])|\S')
_DOCSTRING = re.compile(r'^[ \t]*[rRbBuU]?("""|\'\'\')[\s\S]*?\1', re.M)
_HASH_COMMENT = re.compile(rf'({STRING})|#[^\n]*')
_SLASH_COMMENT = re.compile(rf'({STRING})|//[^\n]*|/\*[\s\S]*?\*/')
_HEADER = re.compile(r"\s*(?:@|(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|class|function|func)\b"
                     r"(?!\s*[.=\[,;)])|fn\s+[A-Za-z_]|[\w$.]+\s*=\s*(?:async\s+)?function\b"
                     # Rust's qualified fn: `pub fn`, `pub(crate) const unsafe fn`, `pub extern "C" fn`
                     r"|pub(?:\([\w\s:]*\))?\s+(?:(?:const|async|unsafe)\s+)*(?:extern\s+\"[^\"]*\"\s+)?fn\b"
                     r"|(?:(?:const|async|unsafe)\s+)+fn\b)")
#: A JS/TS class or object method's head, the first line of its span: ``handleRequest (ctx, fn) {``.
_METHOD_HEADER = re.compile(r"\s*(?:(?:static|async|get|set|public|private|protected|override|readonly)\s+)*\*?\s*"
                            r"(?!(?:if|for|while|switch|catch|with|return)\b)[#\w$]+\s*\(.*\)\s*(?::[^{]*)?\{\s*$")
_SLASH_LANGS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".java", ".go", ".rs", ".c", ".h", ".cpp")
#: What comes before a ``{`` that opens an object literal (anything else opens a block).
_OBJECT_BEFORE = re.compile(r"(?:[=(,:\[?]|\|\||&&|\?\?|\.\.\.|\breturn)\s*$")
_CALL = re.compile(r"(?P<recv>(?:[A-Za-z_$][\w$]*\s*(?:\(\s*\))?\s*\.\s*)*)(?P<name>[A-Za-z_$][\w$]*)!?\s*\(")
_LOOP = re.compile(r"(?:\}\s*)?for\s*\(?\s*(?:const\s+|let\s+|var\s+)?(?P<var>[A-Za-z_$][\w$]*)"
                   r"(?:\s*,\s*[A-Za-z_$][\w$]*)*\s+(?:in|of)\s+(?P<source>.+?)\)?\s*[:{]?\s*$")
_NOT_CALLS = frozenset({"if", "elif", "while", "for", "switch", "return", "catch", "function", "def", "class",
                        "typeof", "new", "await", "yield", "not", "and", "or", "in", "is", "lambda", "assert"})


#: The separators a protocol word sits between in a string the code writes: ``"; Max-Age="``.
_SEPARATORS = re.compile(r"^[\s;:,=&?]+|[\s;:,=&?]+$")


@dataclass(frozen=True)
class Atom:
    """An identifier, or a string literal's content, and its logical line."""

    text: str
    line: int
    string: bool = False
    owner: str = ""  # ``self`` for ``self.headers``: the name before the dot, if any


@dataclass(frozen=True)
class Call:
    """A call written in the code: ``receiver.name(args)``."""

    name: str
    receiver: str  # ``self._transport`` for ``self._transport.close()``; '' for a bare call
    args: str  # the text between the parentheses
    line: int
    source: str = ""  # what a loop variable receiver iterates: ``self._mounts.values()``

    def tokens(self) -> set[str]:
        """What the call names besides itself: its receiver's names (and what
        the receiver iterates, when it is a loop variable) and its arguments'
        names and strings, folded (``self`` and ``this`` left out)."""
        out = {fold(n) for n in re.findall(r"[A-Za-z_$][\w$]*", f"{self.receiver} {self.source}")
               if n not in ("self", "this")}
        for m in re.finditer(r"""["'`]([^"'`]+)["'`]|([A-Za-z_$][\w$]*)""", self.args):
            out.add(fold(m.group(1) or m.group(2)))
        return out


def _blank(match: re.Match[str]) -> str:
    return "\n" * match.group(0).count("\n")


_SLASH_LANGUAGES = frozenset({"javascript", "typescript", "tsx", "go", "rust", "java", "c", "cpp"})


def _braces(ev: EvidenceText) -> bool:
    """Whether the evidence is in a brace language (``//`` comments, ``{`` blocks)."""
    language: str | None = getattr(ev, "language", None)  # EvidenceText.language: newer than this module
    return language in _SLASH_LANGUAGES or ev.label.split("::", 1)[0].endswith(_SLASH_LANGS)


def _strip(text: str, braces: bool) -> str:
    """Comments and docstrings out, line count kept."""
    text = _DOCSTRING.sub(_blank, text)
    lexer = _SLASH_COMMENT if braces else _HASH_COMMENT
    return lexer.sub(lambda m: m.group(1) if m.group(1) else _blank(m), text)


@dataclass
class Code:
    """One anchor's code: logical lines, atoms in order, and physical lines."""

    label: str
    physical: list[str]
    logical: list[tuple[int, int]]  # (first, last) physical line of each logical line
    atoms: list[Atom]
    headers: set[int]  # logical lines that are signatures or decorators
    braces: bool = False  # a brace language
    siblings: list[Code] = field(default_factory=list)  # the other anchors' code of the same claim
    directives: list[str] = field(default_factory=list)  # Go's build constraint lines (`//go:build ...`)

    def logical_text(self, index: int) -> str:
        first, last = self.logical[index]
        return " ".join(" ".join(self.physical[first:last + 1]).split())

    def show(self, index: int, *needles: str) -> str:
        """The physical line of logical line ``index`` that holds the first of
        ``needles`` found (the whole logical line when none is), for a message."""
        first, last = self.logical[index]
        for needle in needles:
            for number in range(first, last + 1):
                if needle and needle in self.physical[number]:
                    return " ".join(self.physical[number].split())[:120]
        return self.logical_text(index)[:120]

    def indent(self, index: int) -> int:
        head = self.physical[self.logical[index][0]]
        return len(head) - len(head.lstrip())

    def body(self, index: int) -> list[str]:
        """The statements of line ``index``'s block (:meth:`block`), braces and semicolons left out, blank
        ones dropped: ``["continue"]`` for ``if (x) {\n  continue;\n}``."""
        return [text for j in self.block(index) if (text := self.logical_text(j).strip("{}; \t"))]

    def block(self, index: int) -> list[int]:
        """The logical lines indented under line ``index`` (its body)."""
        out = []
        indent = self.indent(index)
        for j in range(index + 1, len(self.logical)):
            text = self.logical_text(j)
            if self.indent(j) <= indent and not text.startswith((")", "]")):
                break
            out.append(j)
        return out

    @cached_property
    def names(self) -> set[str]:
        """Every atom's text."""
        return {a.text for a in self.atoms}

    @cached_property
    def strings(self) -> set[str]:
        """The contents of the string literals."""
        return {a.text for a in self.atoms if a.string}

    @cached_property
    def keyed_strings(self) -> dict[str, str]:
        """The strings that hold one word with only separators around it
        (``"; Max-Age="``, ``"Expires: "``), by that word in lower case; the
        first in sorted order when two hold the same word."""
        out: dict[str, str] = {}
        for s in sorted(self.strings):
            out.setdefault(_SEPARATORS.sub("", s).lower(), s)
        return out

    @cached_property
    def _parts(self) -> dict[str, set[str]]:
        """The names of the code by each of their lower-case word parts (``levels`` -> ``LogLevels``)."""
        out: dict[str, set[str]] = {}
        for name in self.names:
            if re.fullmatch(r"[A-Za-z_$][\w$]*", name):
                for part in split_name(name):
                    out.setdefault(part, set()).add(name)
        return out

    def has_part(self, word: str) -> bool:
        """Whether ``word`` (lower case) is a word part of one of the code's names."""
        return word in self._parts

    @cached_property
    def compounds(self) -> dict[str, str]:
        """Names of two or more word parts by their fold (``retrydelay`` ->
        ``retryDelay``): what two plain words of a claim may spell together;
        a getter's too, without its verb ("the random port" is
        ``getRandomPort`` where no name spells ``randomPort`` itself and no
        other getter spells it the same way)."""
        names = [name for name in sorted(self.names)
                 if re.fullmatch(r"[A-Za-z_$][\w$]*", name) and len(split_name(name)) >= 2]
        out = {fold(name): name for name in names}
        getters: dict[str, set[str]] = {}
        for name in names:
            parts = split_name(name)
            if parts[0] in ("get", "make", "create", "build") and len(parts) >= 3:
                getters.setdefault("".join(parts[1:]), set()).add(name)
        for folded, found in getters.items():
            if folded not in out and len(found) == 1:
                out[folded] = found.pop()
        return out

    def first(self, atom: str) -> int:
        """Index of the first use of ``atom`` outside signatures, or -1.

        ``self.x`` (or ``this.x``) is the attribute only, ``=x`` the bare
        name only (a parameter or local), ``opts.x`` the attribute of that
        name, ``call:<name>:<line>`` that call (see :func:`action`), ``x``
        any of them.
        """
        if atom.startswith("call:"):
            _, name, line = atom.split(":")
            return next((i for i, a in enumerate(self.atoms) if a.line == int(line) and a.text == name), -1)
        for i, a in enumerate(self.atoms):
            if a.line not in self.headers and _matches(a, atom):
                return i
        return -1

    @cached_property
    def parameters(self) -> set[str]:
        """The parameter names of the anchored function (its first signature)."""
        for index in sorted(self.headers):
            text = self.logical_text(index)
            open_at = text.find("(")
            if open_at < 0 or not (re.search(r"\b(?:def|function|fn|func)\b", text[:open_at + 1] + " ")
                                   or (index == 0 and self.braces and _METHOD_HEADER.match(text))):
                continue
            end = balanced(text, open_at, limit=None)
            inner = text[open_at + 1:end - 1] if end > 0 else text[open_at + 1:]
            names = re.findall(r"(?:^|,)\s*(?:\*{1,2}|\.\.\.)?([A-Za-z_$][\w$]*)", mask_strings(inner))
            return {n for n in names if n not in ("self", "cls", "this")}
        return set()

    def pattern(self, atom: str) -> re.Pattern[str]:
        """Where ``atom`` (see :meth:`first`) occurs in a line of this code."""
        if atom.startswith(("self.", "this.")):
            return re.compile(rf"(?<![\w$])(?:self|this)\s*\.\s*{re.escape(atom[5:])}(?![\w$])")
        if atom.startswith("="):
            return re.compile(rf"(?<![\w$.]){re.escape(atom[1:])}(?![\w$])")
        if "." in atom:
            owner, _, name = atom.rpartition(".")
            return re.compile(rf"(?<![\w$]){re.escape(owner)}\s*\.\s*{re.escape(name)}(?![\w$])")
        if "-" in atom:  # Retry-After, not X-RateLimit-Retry-After
            return re.compile(rf"(?<![\w$-]){re.escape(atom)}(?![\w$-])")
        return re.compile(rf"(?<![\w$]){re.escape(atom)}(?![\w$])")

    @cached_property
    def symbol(self) -> str:
        """The anchored symbol's qualified name (``AnsiToWin32.write``); empty for a file."""
        return self.label.partition("::")[2]

    @cached_property
    def leaf(self) -> str:
        """The anchored symbol's own name (``Set`` of ``cache.go::cache.Set``); empty for a file."""
        if "::" not in self.label:
            return ""
        return re.split(r"[.:]", self.label.rsplit("::", 1)[1])[-1]

    @cached_property
    def owner(self) -> set[str]:
        """The word parts of the class or object the anchored symbol belongs to
        (``BaseClient._merge_headers`` -> client; ``res.send`` -> res); none
        for a function or a file."""
        segments = [s for s in re.split(r"\.|\(.*", self.symbol) if s]
        out: set[str] = set()
        for segment in segments[:-1]:
            if segment != "prototype":
                out.update(split_name(segment))
        return out - {"base", "abstract", "default", "mixin", "impl"}

    def member(self, name: str) -> Code | None:
        """The code of ``name`` as this anchor defines it inside itself (a method of the anchored
        class, a nested function, an object's function property: ``call: (x) => {``, ``async
        callAsync(x) {``), header and body, followed by the bodies of the members of this anchor it
        calls (one level: what it does through a helper of the same code); None when the anchor
        defines no such member or ``name`` is the anchored symbol itself."""
        if not name or fold(name) == fold(self.leaf):
            return None
        lines = self._member_lines(name)
        if lines is None:
            return None
        part = _parse(EvidenceText(self.label, "\n".join(lines)))
        for callee in dict.fromkeys(c.name for c in part.calls if c.name != name):
            helper = self._member_lines(callee)
            if helper is not None:
                lines += helper
        out = _parse(EvidenceText(self.label, "\n".join(lines)))
        out.siblings = self.siblings
        return out

    def _member_lines(self, name: str) -> list[str] | None:
        """The physical lines of the first definition of ``name`` inside this code (its header
        from the name on, at the header's indentation, then every line indented under it)."""
        n = re.escape(name)
        definition = re.compile(_MEMBER_DEFINITION.pattern.replace("NAME", n))
        for index in range(1 if 0 in self.headers else 0, len(self.logical)):  # not the anchor's own header
            if not definition.search(self.logical_text(index)):
                continue
            first, last = self.logical[index]
            # `}, call: (x) => {` after the member before it: its own physical line, from the name on
            at, m = next(((k, found) for k in range(first, last + 1)
                          if (found := definition.search(self.physical[k])) is not None), (first, None))
            head = self.physical[at]
            indent = len(head) - len(head.lstrip())
            lines = [" " * indent + head[m.start("def"):].strip()] if m else [head]
            lines += self.physical[at + 1:last + 1]
            body = -1
            for line in self.physical[last + 1:]:
                if not line.strip():
                    continue
                depth = len(line) - len(line.lstrip())
                if body < 0:
                    if depth <= indent:
                        break
                    body = depth
                if depth < body:
                    break
                lines.append(line)
            return lines
        return None

    def used(self, atom: str) -> bool:
        """Whether ``atom`` occurs outside signatures."""
        return self.first(atom) >= 0

    def lines_matching(self, pattern: re.Pattern[str]) -> list[int]:
        """The logical lines outside signatures whose text ``pattern`` finds, in order."""
        return [i for i in range(len(self.logical)) if i not in self.headers and pattern.search(self.logical_text(i))]

    def declares_only(self, atom: str) -> bool:
        """Whether every line outside signatures where ``atom`` occurs declares it as a field of a type
        (Go's ``ReplaceInPlace bool``, TypeScript's ``strict?: boolean;``, Rust's ``pub len: u16,``): a
        type that only declares a field does nothing with it."""
        lines = self.lines_using(atom)
        field = re.compile(rf"\s*(?:(?:pub(?:\([\w\s]*\))?|readonly|public|private|protected)\s+)*{re.escape(atom)}"
                           rf"\??\s*(?::\s*[^=;,]+|\s+[\w.*\[\]]+(?:\s+`[^`]*`)?)\s*[,;]?\s*$")
        return bool(lines) and all(field.match(self.logical_text(i)) for i in lines)

    def lines_using(self, atom: str) -> list[int]:
        """The logical lines outside signatures where ``atom`` (see :meth:`first`) occurs, in order."""
        return sorted({a.line for a in self.atoms if a.line not in self.headers and _matches(a, atom)})

    def resolve(self, word: Word, declared: Iterable[str] = (), *, parts: bool = True) -> str:
        """The atom a claim word stands for in this code, or '' when it is prose here.

        A code term stands for its atom (a call's callee, a dotted name's
        last part); a plain word (three letters or more, not a stop word)
        for itself, its singular (``transports`` -> ``transport``) or, when
        exactly one identifier of the code has it as a whole part, that
        identifier (``charset`` -> ``charset_encoding``; not with ``parts``
        false).
        """
        if word.text in declared or word.original in declared:
            return ""
        if word.term is not None and word.term.kind in (TermKind.NUMBER, TermKind.VERSION, TermKind.ADDRESS,
                                                        TermKind.PATH):
            return ""
        if word.term is None and (word.text.lower() in STOP or len(word.text) < 3):
            return ""
        if word.plain and self.braces and self._branch_word(word.atom):
            return ""  # "defaults", "case-sensitivity": no `default:` or `case` label of a switch
        atom = word.atom
        if atom in self.names:
            return atom
        if word.term is not None and word.term.kind is TermKind.CODE:
            printed = self.printed(word.term.text)
            if printed:
                return printed  # `X != (missing)`: the one string of the code that prints it, "%q != (missing)"
        if not word.plain:
            return ""
        if "-" in atom or (atom[:1].isupper() and len(atom) >= 4):
            # Retry-After, Expires: a protocol word the code writes in a string, in any case,
            # alone or with its separators ("; Max-Age=", "Expires: ")
            found = self.keyed_strings.get(atom.lower(), "")
            if found or "-" in atom:
                return found
        if atom[:1].isupper() and atom.lower() in self.imported:
            return atom.lower()  # Unidecode, the product, for `import unidecode`
        for candidate in singulars(atom):
            if candidate in self.names:
                return candidate
        if parts and len(atom) >= 4 and atom.islower():
            owners = self._parts.get(atom, set())
            if len(owners) == 1:
                return next(iter(owners))
        return ""

    def printed(self, text: str) -> str:
        """The string of this code (outside signatures) that is a format
        printing ``text`` whole, example values in its fields, or ''. Of
        several, the one that writes the most text of its own (``"(missing)
        != %q"`` over ``"%v != %v"``), when one does. A string with a dot is
        left alone: an atom with a dot names an owner's member."""
        said = " ".join(text.split())
        own = {string: size for string, pattern, size in self._formats if pattern.fullmatch(said)}
        best = sorted(own, key=own.__getitem__, reverse=True)
        return best[0] if len(best) == 1 or (best and own[best[0]] > own[best[1]]) else ""

    @cached_property
    def _formats(self) -> list[tuple[str, re.Pattern[str], int]]:
        """This code's strings outside signatures that are formats (a dot aside: see :meth:`printed`), each
        with what it prints and how many characters of its own it writes: built once, read for every
        code term of every rule."""
        out = []
        for string in dict.fromkeys(a.text for a in self.atoms
                                    if a.string and a.line not in self.headers and "." not in a.text):
            found = printed_format(string)
            if found is not None:
                out.append((string, *found))
        return out

    def _branch_word(self, word: str) -> bool:
        """Whether ``word`` (or its singular) is a keyword that opens a branch (``case``, ``default``)
        and the code writes it only as one, never as a member (``options.default``)."""
        forms = {word.lower(), *singulars(word.lower())} & _BRANCH_KEYWORDS
        return bool(forms) and not any(a.text in forms and a.owner for a in self.atoms)

    @cached_property
    def imported(self) -> frozenset[str]:
        """The modules the code imports by a name of their own (``import
        unidecode``, ``import text_unidecode as unidecode``, ``require('depd')``),
        which a claim may name as the product, capitalized."""
        out: set[str] = set()
        for line in self.physical:
            m = re.match(r"\s*(?:import|from)\s+([A-Za-z_]\w*)", line)
            if m:
                out.add(m.group(1))
            out.update(re.findall(r"\brequire\(\s*['\"]([A-Za-z_][\w-]*)['\"]\s*\)", line))
        return frozenset(n for n in out if n in self.names)

    @cached_property
    def calls(self) -> list[Call]:
        """The calls outside signatures, in order."""
        loops: dict[int, dict[str, str]] = {}  # line -> loop variable -> what it iterates
        for index in range(len(self.logical)):
            m = _LOOP.match(self.logical_text(index))
            if m:
                for j in self.block(index):
                    loops.setdefault(j, {})[m.group("var")] = m.group("source")
        out = []
        for index in range(len(self.logical)):
            if index in self.headers:
                continue
            text = self.logical_text(index)
            masked = mask_strings(text)
            for m in _CALL.finditer(masked):
                name = m.group("name")
                if name in _NOT_CALLS and not masked.startswith("!", m.end("name")):  # Rust's assert!( is a call
                    continue
                end = balanced(text, m.end() - 1, limit=None)
                args = text[m.end():end - 1] if end > 0 else text[m.end():]
                receiver = re.sub(r"\s+", "", m.group("recv")).rstrip(".")
                source = loops.get(index, {}).get(receiver.split(".", 1)[0], "")
                for link in re.finditer(r"([A-Za-z_$][\w$]*)\(\)", receiver):  # `.sort()` of `keys(o).sort().join()`
                    if link.group(1) not in _NOT_CALLS:
                        out.append(Call(link.group(1), receiver[:link.start()].rstrip("."), "", index, source))
                out.append(Call(name, receiver, args, index, source))
        return out


    def calls_named(self, verb: str) -> list[Call]:
        """Calls of a function named for ``verb``: its first word part is a
        form of it (``close``; ``setHeader`` for "sets"; ``encodeUrl`` for
        "percent-encode"; ``_send_single_request`` for "sent")."""
        wanted = stems(verb)
        return [call for call in self.calls
                if (parts := split_name(call.name)) and (parts[0] in wanted or call.name.lower() in wanted)]


#: A definition of the member ``NAME`` (the placeholder is the escaped name): after a keyword of
#: definition (``def``, ``fn``, ``func (r *T)``, ``function``), a method's shorthand (``async
#: name(x) {``), or a property or variable given a function (``name: (x) => {``, ``const name =
#: function``); at a line's start or after ``{``, ``,`` or ``;`` (``}, call: (x) => {``).
_MEMBER_DEFINITION = re.compile(
    r"(?:^\s*|[{,;]\s*)(?P<def>(?:[\w()*&]+\s+)*?(?:def|fn|func(?:\s*\([^()]*\))?|function\*?)\s+NAME\s*[<(]"
    r"|(?:(?:static|async|get|set|public|private|protected|override|readonly)\s+)*\*?#?NAME\s*(?:<[^<>]*>)?"
    r"\((?:[^()]|\([^()]*\))*\)\s*(?::\s*[^{;=]+)?\{"
    r"|(?:(?:export|const|let|var|static|readonly|private|public|protected)\s+)*#?NAME\s*(?::\s*[^=]+?)?\s*[:=]\s*"
    r"(?:async\s+)?(?:function\b|(?:<[^<>]*>)?\((?:[^()]|\([^()]*\))*\)\s*(?::\s*[^=]+?)?\s*=>"
    r"|[A-Za-z_$][\w$]*\s*=>))")


#: The names code changes a string's case with: "lowercases" is a toLowerCase, lower, ToLower or casefold call.
LOWERING = ("lower", "tolowercase", "tolower", "casefold", "lowercase")
UPPERING = ("upper", "touppercase", "toupper", "uppercase")


def member_header(name: str) -> re.Pattern[str]:
    """The line that defines the member ``name`` in a class's body: Python's ``def name(``
    (``async def``), a JavaScript or TypeScript method's ``name(...) {`` (after ``static``,
    ``get``, ``async`` ...; ``#name`` for a private one)."""
    n = re.escape(name)
    return re.compile(rf"^\s*(?:async\s+)?def\s+{n}\s*\(|^\s*(?:(?:static|async|get|set|public|private|protected|"
                      rf"override)\s+)*#?{n}\s*\([^()]*\)\s*(?::[^{{]*)?\{{")


def named_one_of(name: str, names: Sequence[str]) -> bool:
    """Whether the identifier ``name``, whole (folded) or by one of its word parts, is one of
    ``names`` (``toLocaleLowerCase`` by its part ``lower``)."""
    return fold(name) in names or any(part in names for part in split_name(name))


#: The keywords that open a branch in the brace languages: a plain word of a claim names none of them.
_BRANCH_KEYWORDS = frozenset({"case", "default", "else", "switch", "select"})


def _matches(a: Atom, atom: str) -> bool:
    if atom.startswith(("self.", "this.")):
        return a.text == atom[5:] and a.owner in ("self", "this")
    if atom.startswith("="):
        return a.text == atom[1:] and not a.owner
    if "." in atom:
        owner, _, name = atom.rpartition(".")
        return a.text == name and a.owner == owner.rsplit(".", 1)[-1]
    return a.text == atom


def mask_strings(text: str) -> str:
    """``text`` with each string literal's content replaced by spaces (offsets kept)."""
    return re.sub(STRING, lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) + m.group(0)[-1], text)


def split_name(name: str) -> list[str]:
    """The lower-case word parts of an identifier: ``encodeUrl`` -> encode, url;
    ``_send_single_request`` -> send, single, request."""
    parts = []
    for chunk in re.split(r"[_$]+", name):
        parts += re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", chunk)
    return [p.lower() for p in parts if p]


def singulars(word: str) -> list[str]:
    """Singular forms a plural word may stand for (``transports``, ``ETags``, ``classes``)."""
    out = []
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("es") and len(word) > 4:
        out.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        out.append(word[:-1])
    return out


#: A brace-language line that ends in ``||``, ``&&``, ``??`` or ``+`` (``return a ||``), or
#: a line that starts with one of the first three, a member call (``|| b``,
#: ``.then(f)``) or a branch of a conditional written over lines (``? a``,
#: ``: b``): one statement over several lines, as ``return req.ip ||\n
#: req._remoteAddress`` is.
_TRAILING_OPERATOR = re.compile(r"(?:\|\||&&|\?\?|\+)\s*$")
_LEADING_OPERATOR = re.compile(r"\s*(?:\|\||&&|\?\?|\.(?!\.\.)[A-Za-z_$#]|\?(?=\s)|:(?=\s))")


_DEF_NAME = re.compile(r"\s*(?:async\s+)?def\s+[A-Za-z_]\w*\s*\(")
_AFTER_PARAMS = re.compile(r"\s*(?:->[^:]+)?:[ \t]*(?=\S)")


def _one_line_body(line: str, braces: bool) -> tuple[str, str] | None:
    """A definition and its body written on one line, as (head, body): ``func Now() uint64 { return
    Timestamp(time.Now().UTC()) }``, ``def f(x): return x``. The body is code like any other line's,
    not part of a signature."""
    if not _HEADER.match(line) or line.lstrip().startswith("@"):
        return None
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    if braces:
        end = len(line.rstrip().rstrip(";,"))
        if not line[:end].endswith("}"):
            return None
        opening = next((i for i, ch in enumerate(line) if ch == "{" and balanced(line, i, limit=None) == end), -1)
        if opening < 0 or not line[opening + 1:end - 1].strip():
            return None
        return line[:opening + 1], indent + line[opening + 1:].lstrip()
    m = _DEF_NAME.match(line)
    close = balanced(line, m.end() - 1, limit=None) if m else -1
    colon = _AFTER_PARAMS.match(line, close) if close > 0 else None
    return (line[:colon.end()].rstrip(), indent + line[colon.end():]) if colon else None


def _parse(ev: EvidenceText) -> Code:
    braces = _braces(ev)
    physical = []
    for line in _strip(ev.text, braces).splitlines():
        split = _one_line_body(line, braces)
        physical += list(split) if split else [line]
    logical: list[tuple[int, int]] = []
    atoms: list[Atom] = []
    headers: set[int] = set()
    stack: list[bool] = []  # open brackets: True when it joins lines into one statement
    start = -1

    def joined() -> bool:
        block = max((i for i, joins in enumerate(stack) if not joins), default=-1)
        return any(stack[block + 1:])

    carried = False  # the previous line ended in an operator: the statement goes on (JS/TS)
    for number, line in enumerate(physical):
        if not line.strip() and not joined():
            continue
        if start < 0 and braces and logical and (carried or _LEADING_OPERATOR.match(line)):
            start = logical.pop()[0]  # `|| b` or `.then(...)` on the next line: the same statement
        if start < 0:
            start = number
            if _HEADER.match(line) or (braces and not logical and _METHOD_HEADER.match(line)):
                headers.add(len(logical))
        previous: list[str] = ["", ""]
        for m in _CODE_TOKEN.finditer(line):
            if m.group("s"):
                content = m.group("s")[1:-1]
                if content.strip():
                    atoms.append(Atom(content, len(logical), True))
            elif m.group("w"):
                dotted = previous[-1] == "." and re.fullmatch(r"[A-Za-z_$][\w$]*", previous[-2])
                atoms.append(Atom(m.group("w"), len(logical), owner=previous[-2] if dotted else ""))
            elif m.group("o"):
                bracket = m.group("o")
                if bracket in "([":
                    stack.append(True)
                elif bracket == "{":
                    stack.append(not braces or bool(_OBJECT_BEFORE.search(line[:m.start()])))
                elif stack:
                    stack.pop()
            previous = [previous[-1], m.group(0)]
        carried = braces and bool(_TRAILING_OPERATOR.search(line))
        if not joined():
            logical.append((start, number))
            start = -1
    if start >= 0:
        logical.append((start, len(physical) - 1))
    directives = [line.strip() for line in ev.text.splitlines() if GO_BUILD.match(line)] if braces else []
    return Code(ev.label, physical, logical, atoms, headers, braces, directives=directives)


def _is_code(ev: EvidenceText) -> bool:
    """Symbols and source files are code; dependencies, manifests, absence rules and the spans added beside
    a symbol are not."""
    absent: bool = getattr(ev, "absent", False)  # EvidenceText.absent: newer than this module
    if not ev.text.strip() or absent or ev.derived or ev.label.startswith(("dep:", "import:", "pattern:", "absent:")):
        return False  # a span added beside a symbol (its call sites) holds no steps of its body
    return "::" in ev.label or language_for_path(ev.label) is not None


def codes(evidence: Sequence[EvidenceText]) -> list[Code]:
    """The code of the symbol and source-file anchors among ``evidence``,
    each knowing the others (:meth:`Code.resolve` follows a value from one
    anchor into another)."""
    out = [_parse(ev) for ev in evidence if _is_code(ev)]
    for code in out:
        code.siblings = [c for c in out if c is not code]
    return out


# ======================================================================= claim

STOP = frozenset({
    "the", "and", "for", "with", "that", "this", "not", "are", "was", "from", "its", "when", "into", "than",
    "then", "has", "have", "only", "also", "but", "any", "all", "both", "each", "every", "other", "some",
    "one", "two", "their", "them", "they", "there", "which", "while", "what", "who", "whose", "where",
    "will", "would", "can", "could", "should", "must", "may", "does", "did", "done", "being", "been", "were",
    "first", "last", "before", "after", "over", "falls", "fall", "falling", "back", "takes", "take", "prefers",
    "precedence", "followed", "returns", "return", "uses", "use", "used", "calls", "call", "called", "default",
    "none", "true", "false", "null", "self", "value", "values", "set", "gets", "get", "new", "same", "just",
    "never", "doesn", "don", "isn", "aren", "won", "without", "even", "once", "still", "always", "instead",
    "itself", "it", "anything", "nothing", "everything", "something", "given", "passed", "own", "more",
})
_WORDS = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*")
#: A capitalized hyphenated name, one word: a header (``Retry-After``, ``X-RateLimit-Reset``).
_COMPOUND = re.compile(r"(?<![\w$-])(?=[A-Za-z0-9-]*[A-Z])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)+(?![\w$-])")
_SPLIT = re.compile(r";|(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\bcf)(?<!\bincl)\.(?:\s|$)|:\s|\s(?:--|[-\u2013\u2014])\s")
_QUOTED = re.compile(r'`[^`\n]*`|"[^"\n]*"')
#: Words that start a new part of a sentence: an operand is never looked for across them.
BOUNDARY_WORDS = frozenset({"so", "which", "because", "since", "while", "but", "although", "though", "unless",
                            "if", "when", "once", "where", "whereas", "whether", "until", "otherwise", "i.e",
                            "e.g", "thus", "hence", "therefore"})


@dataclass(frozen=True)
class Word:
    """One word of a clause: a code-like term kept whole, or a plain word."""

    text: str
    start: int
    end: int
    index: int  # position among the clause's words
    term: Term | None
    original: str = ""  # the term's text as the claim wrote it

    @property
    def plain(self) -> bool:
        """A prose word (a backticked single word counts as prose too: backticks switch nothing)."""
        return self.term is None or (self.term.kind is TermKind.IDENTIFIER and bool(
            re.fullmatch(r"[a-z]+", self.term.text)))

    @property
    def atom(self) -> str:
        """The code atom the word stands for: a call's callee, a dotted name's last part."""
        text = self.text
        if self.term is not None and self.term.kind is TermKind.CALL:
            text = text[: text.index("(")]
        if self.term is not None and self.term.kind in (TermKind.CALL, TermKind.DOTTED):
            text = text.rsplit(".", 1)[-1]
        if self.term is not None and self.term.kind is TermKind.KEYWORD:
            text = text.split("=", 1)[0]
        if self.term is not None and self.term.kind is TermKind.CODE:
            # `case error`, `except KeyError`, `throw new RangeError`: the name the statement is about
            m = _STATEMENT_NAME.fullmatch(text) or _COMPARISON.fullmatch(text) or _SPREAD.fullmatch(text)
            if m:
                text = m.group(1).rsplit(".", 1)[-1]
        return text


#: A spread of one name: ``...options`` is ``options``.
_SPREAD = re.compile(r"\.\.\.([A-Za-z_$][\w$.]*)")
#: A keyword and the one name it is about: ``case fmt.Stringer``, ``except KeyError:``, ``throw new Error``.
#: A comparison and the name it tests: ``attempt >= max``, ``n < 1``, ``value === null``.
_COMPARISON = re.compile(r"([A-Za-z_$][\w$.]*)\s*(?:[<>]=?|[!=]==?)\s*[^=<>\s][^<>]*")
_STATEMENT_NAME = re.compile(r"(?:case|except|catch|raise|throw(?:\s+new)?|new)\s+([A-Za-z_$][\w$.]*)\s*:?")


def written_comparison(code: Code, text: str) -> int:
    """The logical line (outside signatures) that writes the comparison ``text`` as the claim does
    (``header === '*'``; spaces and the kind of quotes aside), or -1; -1 too for a ``text`` that is
    no comparison."""
    if not _COMPARISON.fullmatch(text):
        return -1
    wanted = re.sub(r"\s+", "", text).replace('"', "'")
    return next((k for k in range(len(code.logical)) if k not in code.headers
                 and wanted in re.sub(r"\s+", "", code.logical_text(k)).replace('"', "'")), -1)


@dataclass(frozen=True)
class Clause:
    """One clause of a claim, backticks removed, with its words.

    Attributes:
        text: The clause.
        words: Its words in order.
        declared: Words the writer declared deliberately unbound: a rule
            never compares them.
        claim: The whole claim, backticks removed (for rules that link a
            clause to words said elsewhere in the claim).
        terms: The whole claim's code-like terms.
    """

    text: str
    words: tuple[Word, ...]
    declared: frozenset[str] = field(default_factory=frozenset)
    claim: str = ""
    terms: tuple[Term, ...] = ()

    def between(self, start: int, end: int) -> str:
        return self.text[start:end]

    def skip(self, *words: str) -> bool:
        """Whether one of ``words`` was declared unbound."""
        return any(w in self.declared for w in words)

    def word_at(self, at: int) -> Word | None:
        """The word of the clause that covers offset ``at``, if any."""
        return next((w for w in self.words if w.start <= at < w.end), None)

    @property
    def offset(self) -> int:
        """Where the clause starts in the whole claim (-1 for a blank clause or none found)."""
        return (self.claim or self.text).find(self.text) if self.text.strip() else -1

    def spanning(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        """The matches of ``pattern`` in the whole claim that start within
        this clause: ``": "`` ends a clause, so a quoted message or a plain
        ``K: V`` that holds one is read whole."""
        at = self.offset
        if at < 0:
            return
        for m in pattern.finditer(self.claim or self.text, at):
            if m.start() >= at + len(self.text):
                return
            yield m

    def quoted(self, at: int) -> bool:
        """Whether offset ``at`` lies in a message the claim quotes ("... is never used"):
        its words are the message's, not the claim's."""
        return any(m.start() < at < m.end() for m in re.finditer(r'"[^"\n]*"', self.text))


def clauses(claim: str, terms: Sequence[Term], declared: Iterable[str] = ()) -> list[Clause]:
    """The claim cut at ``;``, sentence ends (not the dot of ``e.g.``,
    ``i.e.``, ``vs.``, ``cf.``), ``: `` and dashes (`` - ``, `` -- ``, en and em
    dashes; never inside backticks or double quotes), each with its words."""
    masked = _QUOTED.sub(lambda m: m.group(0)[0] + "x" * (len(m.group(0)) - 2) + m.group(0)[-1], claim)
    cuts = [0]
    for m in _SPLIT.finditer(masked):
        cuts += [m.start(), m.end()]
    cuts.append(len(claim))
    whole = claim.replace("`", "")
    skip = frozenset(d.strip().strip("`") for d in declared)
    out = []
    for a, b in zip(cuts[::2], cuts[1::2], strict=True):
        text = claim[a:b].replace("`", "")
        if text.strip():
            out.append(Clause(text, tuple(words_of(text, [t for t in terms if t.text in text])), skip, whole,
                              tuple(terms)))
    return out


def words_of(clause: str, terms: Sequence[Term]) -> list[Word]:
    """The clause's words, each term and each capitalized hyphenated name kept whole."""
    spans: list[tuple[int, int, Term | None]] = []
    for term in terms:  # a string of no word given as a value: `COMMENTCHARS = "#"` beside a backticked `#`
        if term.kind is TermKind.STRING and not _WORDS.search(term.text):
            spans += [(m.start(1), m.end(1), term)
                      for m in re.finditer(rf"[=:]\s?[\"']({re.escape(term.text)})[\"']", clause)
                      if not any(s < m.end(1) and m.start(1) < e for s, e, _ in spans)]
    values = {s for s, _, _ in spans}
    for term in sorted(terms, key=lambda t: -len(t.text)):
        shell = r"\$\{?" + re.escape(term.text) + r"\}?|" if term.kind is TermKind.CONSTANT else ""
        # whole words only: the term `b` is not the b of "before" (a number keeps its glued unit: 60s)
        head = r"(?<![\w$])" if re.match(r"[A-Za-z_$]", term.text) else ""
        tail = r"(?![\w$])" if re.search(r"[A-Za-z_$]$", term.text) else ""
        for m in re.finditer(shell + head + re.escape(term.text) + tail, clause):  # $EDITOR is the term EDITOR
            if not any(s < m.end() and m.start() < e for s, e, _ in spans):
                spans.append((m.start(), m.end(), term))
    for m in _COMPOUND.finditer(clause):  # X-RateLimit-Reset holds the term RateLimit: one word
        inside = [x for x in spans if m.start() <= x[0] and x[1] <= m.end()]
        if not any(s < m.end() and m.start() < e for s, e, _ in spans if (s, e, _) not in inside):
            spans = [x for x in spans if x not in inside] + [(m.start(), m.end(), None)]
    spans.sort(key=lambda s: s[0])
    # such a string (`COMMENTCHARS = "#"`) is a word too: it is a value
    starts = {m.start(): m.group(0) for m in _WORDS.finditer(clause)}
    starts.update(dict.fromkeys(values, ""))
    out: list[Word] = []
    pos = 0
    for start in sorted(starts):
        if start < pos:
            continue
        hit = next((s for s in spans if s[0] <= start < s[1]), None)
        if hit is not None:
            text = clause[hit[0]:hit[1]] if hit[2] is None else hit[2].text
            out.append(Word(text, hit[0], hit[1], len(out), hit[2], text))
            pos = hit[1]
        else:
            out.append(Word(starts[start], start, start + len(starts[start]), len(out), None, starts[start]))
            pos = start + len(starts[start])
    return out


def is_boundary(gap: str) -> bool:
    """Whether the text between two words starts a new part of the sentence."""
    if re.search(r"[,;\u2014]|\s--?\s", gap):
        return True  # (a dash between words sets a remark apart: "without JSON.parse -- this happens before")
    return any(w.lower() in BOUNDARY_WORDS for w in re.findall(r"[A-Za-z.]+", gap))


#: Verbs that, right after "and", start a second predicate of the sentence's subject.
_PREDICATES = frozenset({"returns", "raises", "throws", "calls", "sets", "yields", "emits", "writes", "logs",
                         "panics", "fails", "stops", "exits", "skips", "gives"})

#: A parenthetical remark in prose: three words or more, none of them a code term of the claim ("(Express/Koa
#: set this behind a trusted proxy)"), make it an aside, not an operand beside the marker it sits next to.
_ASIDE = re.compile(r"\([^()`]*\)")


def nearest(clause: Clause, at: int, step: int, code: Code, *, reach: int = 6,
            accept: Callable[[Word, str], bool] | None = None, actions: bool = False) -> tuple[Word, str] | None:
    """The operand nearest the marker at character ``at``, looking left
    (``step`` -1) or right (+1), at most ``reach`` words away, never across
    a comma, a semicolon or a word that starts a new part of the sentence
    (a comma right before the marker belongs to it: "A, then B"), and
    passing over a parenthetical aside in prose (see :data:`_ASIDE`).

    A code term of the claim is taken first; then, with ``actions``, a verb
    the code calls with one of its neighbours as receiver or argument ("the
    request is sent": ``_send_single_request(request)``, as the atom
    ``call:<name>:<line>``); then a plain word. ``accept`` narrows which
    atoms count.

    Returns:
        The word and the atom it stands for, or None.
    """
    asides = [m.span() for m in _ASIDE.finditer(clause.text) if not m.start() < at < m.end()
              and len(re.findall(r"\S*[A-Za-z]\S*", m.group(0))) >= (
                  2 if re.match(r"\(\s*(?:e\.g\.|i\.e\.)", m.group(0)) else 3)
              and all(w.plain for w in clause.words if m.start() < w.start < m.end())]
    side = [w for w in clause.words if (w.end <= at if step < 0 else w.start >= at)
            and not any(start < w.start < end for start, end in asides)]
    text = clause.text  # an aside passed over is no boundary either: "A first (so it can ...), then B"
    for start, end in asides:
        text = text[:start] + " " * (end - start) + text[end:]
    if step < 0:
        side.reverse()
    terms: list[tuple[Word, str]] = []
    verbs: list[tuple[Word, str]] = []
    plain: list[tuple[Word, str]] = []
    edge = at
    for w in side[:reach]:
        gap = text[w.end:edge] if step < 0 else text[edge:w.start]
        if edge == at and step < 0:
            gap = gap.rstrip().removesuffix(",")  # "A, falling back to B": the marker's own comma
        if is_boundary(gap) or w.text.lower() in BOUNDARY_WORDS:
            break
        if step > 0 and w.text.lower() in _PREDICATES and re.search(r"\band\s*$", clause.text[:w.start]):
            break  # "after online_column_minima and returns Err(...)": "and returns" starts a predicate of its own
        atom = _spelled(clause, w, code) or code.resolve(w, clause.declared)
        if atom:
            atom = _possessed(clause, w, atom, code) or qualify(clause, w, atom, code)
        if atom and (accept is None or accept(w, atom)):
            (plain if w.plain else terms).append((w, atom))
        elif actions and w.plain and w.text.lower() not in STOP:
            act = action(clause, w, code)
            if act:
                verbs.append((w, act))
        edge = w.start if step < 0 else w.end
    pick = terms or verbs or plain
    return pick[0] if pick else None


def _possessed(clause: Clause, word: Word, atom: str, code: Code) -> str:
    """``node.methods`` for "the node's own methods" where the code has it: what the claim says of
    the owner's member, not of the owner; '' otherwise."""
    m = re.match(r"(?:'s|\u2019s)\s+(?:own\s+)?([A-Za-z_]\w*)", clause.text[word.end:])
    if m is None or "." in atom:
        return ""
    member = f"{atom}.{m.group(1)}"
    return member if code.lines_using(member) else ""


#: Words of :data:`STOP` that qualify a noun into a name of their own: "the last argument" is ``lastArgument``.
_QUALIFIERS = frozenset({"first", "last", "default", "new"})


def _spelled(clause: Clause, word: Word, code: Code) -> str:
    """The name ``word`` spells with a plain word next to it ("the retry
    delay" is ``retryDelay``, "base URL" ``baseUrl``, "the last argument"
    ``lastArgument``), or ''."""
    if not word.plain or word.text.lower() in STOP or clause.skip(word.text):
        return ""
    for a, b in ((word.index - 1, word.index), (word.index, word.index + 1)):
        if a < 0 or b >= len(clause.words):
            continue
        left, right = clause.words[a], clause.words[b]
        if not (left.plain and right.plain) or left.text.lower() in STOP - _QUALIFIERS or right.text.lower() in STOP \
                or not re.fullmatch(r"\s+", clause.text[left.end:right.start]):
            continue
        name = code.compounds.get(fold(left.text + right.text))
        if name and not clause.skip(name):
            return name
    return ""


#: Auxiliaries and copulas: words that carry a sentence's grammar, never an action of the code.
_FUNCTION_VERBS = frozenset({"is", "am", "are", "was", "were", "be", "been", "being", "has", "have", "had",
                             "do", "does", "did", "can", "could", "may", "might", "shall", "should", "will",
                             "would", "must", "gets", "got"})


def action(clause: Clause, verb: Word, code: Code) -> str:
    """``call:<name>:<line>`` for the first call named for ``verb`` whose
    receiver or arguments name a word next to it in the clause, or ''; an
    auxiliary or a copula ("is checked") names no call."""
    if verb.text.lower() in _FUNCTION_VERBS:
        return ""  # "is checked": a function word names no call (``is_async_callable``)
    calls = code.calls_named(verb.text)
    if not calls:
        return ""
    around = object_words(clause, verb.start, -1, 3) + object_words(clause, verb.end, 1, 3)
    tokens = object_tokens(around, clause)
    for call in calls:
        if tokens & call.tokens():
            return f"call:{call.name}:{call.line}"
    return ""


def _owned(dotted: str, atom: str, code: Code) -> str:
    """A claim's ``owner.attr`` in ``code``: ``this.attr`` when ``code``
    belongs to that owner (``app.locals`` in ``app.render``), or the name
    another anchor of that owner stores it in, when ``code`` uses that name
    (``opts._locals = self.locals`` in ``res.render`` makes ``res.locals``
    ``opts._locals`` in ``app.render``); else ``atom``."""
    owner, _, attr = dotted.rpartition(".")
    who = owner.rsplit(".", 1)[-1].lower()
    if not who or who in ("self", "this"):
        return atom
    if who in code.owner:
        return "self." + attr if code.first("self." + attr) >= 0 else atom
    for other in code.siblings:
        if who not in other.owner:
            continue
        for index in range(len(other.logical)):
            m = re.fullmatch(rf"((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*)\s*=\s*(?:self|this)\.{re.escape(attr)};?",
                             other.logical_text(index))
            if m and code.first(m.group(1)) >= 0:
                return m.group(1)
    return atom


def shown(word: Word, atom: str) -> str:
    """How a message names an operand: the claim's word, and the atom when it was narrowed."""
    if atom == word.atom:
        return word.text
    if atom.startswith("call:"):
        return f"{word.text} ({atom.split(':')[1]}(...))"
    if atom.startswith("="):
        return f"{word.text} (the name {atom[1:]}, not self.{atom[1:]})"
    return f"{word.text} ({atom})"


def needle(atom: str) -> str:
    """The text to look for in a line for an operand."""
    if atom.startswith("call:"):
        return atom.split(":")[1]
    return atom.lstrip("=").rsplit(".", 1)[-1]


def qualify(clause: Clause, word: Word, atom: str, code: Code) -> str:
    """``atom`` narrowed by whose it is, when the claim says and the code has both.

    "the client's headers" or "client-level headers", in a method of a
    class whose name has the part ``client``, is ``self.headers``; "the
    per-request headers" (``per-X``, ``X's``, ``X-level`` for an ``X``
    that is not the owner) is the bare name, a parameter or local
    (``=headers``). Otherwise, or when the code spells it only one way,
    ``atom`` is returned as it is.
    """
    if word.term is not None and word.term.kind is TermKind.DOTTED:
        return _owned(word.text, atom, code)
    if not word.plain or not code.owner:
        return atom
    before = clause.text[max(0, word.start - 40):word.start]
    m = re.search(r"(?:\b(per)[- ](\w+)|\b(\w+)(?:'s|\u2019s|-level|-wide)|\b(\w+))\s+$", before)
    if m is None:
        return atom
    who = (m.group(2) or m.group(3) or m.group(4) or "").lower()
    attribute = code.first("self." + atom) >= 0
    bare = code.first("=" + atom) >= 0
    if not (attribute and bare):
        return atom
    if who in code.owner:
        return "self." + atom
    if m.group(1) or m.group(3):
        return "=" + atom
    return atom


#: Words that name no particular thing: they never link a call to the claim.
GENERIC = frozenset({"header", "headers", "value", "values", "data", "object", "objects", "thing", "things",
                     "field", "fields", "argument", "arguments", "parameter", "parameters", "result", "results",
                     "function", "method", "methods", "code", "name", "names", "key", "keys", "item", "items",
                     "string", "strings", "list", "type", "types", "part", "parts", "way", "time", "times"})


def object_words(clause: Clause, at: int, step: int, reach: int = 6, *, lists: bool = False) -> list[Word]:
    """Up to ``reach`` words from ``at`` in one direction, stopping at a
    boundary, and at ``and``/``or`` unless ``lists`` (then "A and B" is one
    object)."""
    side = [w for w in clause.words if (w.end <= at if step < 0 else w.start >= at)]
    if step < 0:
        side.reverse()
    out: list[Word] = []
    edge = at
    for w in side[:reach]:
        gap = clause.text[w.end:edge] if step < 0 else clause.text[edge:w.start]
        low = w.text.lower()
        if is_boundary(gap) or low in ("but", "so") or (low in ("and", "or") and not lists):
            break
        out.append(w)
        edge = w.start if step < 0 else w.end
    return sorted(out, key=lambda w: w.start)


def object_tokens(words: Sequence[Word], clause: Clause) -> set[str]:
    """What an object phrase names: its words (singular too) and hyphenated
    compounds, folded; stop words and :data:`GENERIC` words left out."""
    out: set[str] = set()
    if not words:
        return out
    span = clause.text[min(w.start for w in words):max(w.end for w in words)]
    for compound in re.findall(r"[\w$]+(?:-[\w$]+)+", span):
        out.add(fold(compound))
    for w in words:
        for text in (w.atom, *singulars(w.atom)):
            low = text.lower()
            if len(low) >= 3 and low not in STOP and low not in GENERIC:
                out.add(fold(text))
    return out


_IRREGULAR = {"sent": "send", "built": "build", "made": "make", "thrown": "throw", "threw": "throw",
              "kept": "keep", "left": "leave", "written": "write", "wrote": "write", "got": "get",
              "gotten": "get", "ran": "run", "found": "find", "taken": "take", "took": "take", "gave": "give",
              "given": "give", "went": "go", "goes": "go", "done": "do", "did": "do", "does": "do",
              "bound": "bind", "held": "hold", "split": "split", "read": "read", "set": "set", "put": "put",
              "emitted": "emit", "stripped": "strip", "dropped": "drop", "stopped": "stop", "wrapped": "wrap"}


def stems(word: str) -> set[str]:
    """The base forms a verb may have: ``closes``/``closed``/``closing`` -> close."""
    w = word.lower().rsplit("-", 1)[-1]
    out = {w}
    if w in _IRREGULAR:
        out.add(_IRREGULAR[w])
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"),
                         ("d", ""), ("ing", ""), ("ing", "e")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 2:
            base = w[: len(w) - len(suffix)] + repl
            out.add(base)
            if len(base) >= 3 and base[-1] == base[-2] and suffix in ("ed", "ing"):
                out.add(base[:-1])
    return out


_FIXED_END = r"(?=\s*[,})])"
_FIXED_LITERAL = (r"(?:true|false|True|False|None|null|undefined|-?\d+(?:\.\d+)?|\"[^\"\n]*\"|'[^'\n]*')"
                  + _FIXED_END)


def overwritten(code: Code, name: str) -> int | None:
    """The first line where the code sets the field ``name`` of a value to a constant (``opts.ReplaceInPlace =
    false``, ``self.strict = False``), after a line that reads it: the code then decides ``name`` itself,
    whatever the caller set; else None."""
    n = re.escape(name)
    use = re.compile(rf"(?<![\w$#])[\w$]+\.{n}(?![\w$])")
    assigned = re.compile(rf"^\s*[\w$]+\.{n}\s*=(?!=)\s*{_FIXED_LITERAL.removesuffix(_FIXED_END)}\s*;?\s*$")
    read = False
    for index in range(len(code.logical)):
        if index in code.headers:
            continue
        text = code.logical_text(index)
        if read and assigned.match(text):
            return index
        read = read or use.search(text) is not None
    return None


def fixed_by_call(code: Code, name: str) -> int | None:
    """The first line where the code passes ``name`` to a call as a constant
    (``this.#indexes({ allowStale: true })``, ``f(allow_stale=True)``), when
    every use of ``name`` outside signatures is such a constant; else None.
    The code then decides ``name`` itself, whatever the caller set."""
    n = re.escape(name)
    use = re.compile(rf"(?<![\w$.#]){n}(?![\w$])")
    entry = re.compile(rf"(?<![\w$.#]){n}\s*[:=]\s*{_FIXED_LITERAL}")
    in_call = re.compile(rf"\(\s*\{{[^(){{}}]*?(?<![\w$.#]){n}\s*:|\([^()]*?(?<![\w$.#]){n}\s*=(?!=)")
    first = None
    for index in range(len(code.logical)):
        if index in code.headers:
            continue
        text = code.logical_text(index)
        uses = len(use.findall(text))
        if not uses:
            continue
        if len(entry.findall(text)) != uses or not in_call.search(text):
            return None
        first = index if first is None else first
    return first
