"""order: the claim says one step comes before another; the code does them the other way.

Fires on ``A before B``, ``A precedes B``, ``A prior to B``, ``A ahead of B``,
``A earlier than B``, ``B after A``, ``B later than A``, ``A first ...,
then B`` (``, then``, ``and then``, ``and only then``), ``A, followed by
B``, ``first A ..., second B``, ``A ... first and B ... afterwards``
(``later``, ``after it``, ``subsequently``), ``A first and only afterwards
B``, ``A first and only uses B``
(``(only) falls back to B``, ``falls through to B``, ``otherwise B``) and
``A is tried first, B is the fallback``, when the first use of ``B`` in the
anchored code comes before the first use of ``A`` (signatures, comments and
docstrings left out: what a docstring says about the order is what the
claim may have copied, not what the code does). An operand the claim writes
as a comparison (``header === '*'``) is where the code writes that
comparison, not where the name is first used (``typeof header !==
'string'``). Two uses on one line
cannot be told apart, except two strings: listed on one line (``for key
in "VISUAL", "EDITOR"``), their order is the order they are tried in; and
two operands of ``&&``, ``||``, ``and`` or ``or`` (``lvl <= STATIC_MAX_LEVEL
&& lvl <= max_level()``), which a condition tests left to right.

Two entries of one literal that spreads (``{ preserveTypes: true,
...options }``, ``[...defaults, ...extra]``) are set in the literal's
order, the later over the earlier: "spreads options first, then sets
preserveTypes" is read against it, and a parameter spread there is an
operand (written bare or with its dots: `` `...options` ``). In ``A first and
sets B afterwards`` the verb after ``and`` is the later step's, not an operand.
An operand written with its owner (``JSON.parse``) is ordered by
the first line that writes that owner's name, not by another's
(``parser.parse(args)``), when the code writes it; a call written with a
quoted argument (``handleError(new Error('Request aborted'))``) by the
first line that calls it with that string, not by another call of the same
function (``handleError(err)``); a setting kept under
its own name (``let views = options.views``) is ordered by its next use.

A list announced by ``order:`` ("Default processor order: merge_contextvars,
TimeStamper, add_log_level, ...", three names of the code or more) is read
against the one statement of the code that writes most of them (a list
literal, a chain), imports left out: two listed names it writes the other
way round. A listed spread is its chain's last name (``...postcss.plugins``
is ``plugins``, not the ``postcss`` call that holds the list).

``A`` and ``B`` are the operands nearest the marker on each side (a code
term of the claim, or a word the code uses), at most six words away and
never across a comma, a semicolon, a dash that sets a remark apart (``--``,
`` - ``, an em dash) or a word that opens a new part of the sentence
(``so``, ``which``, ``once``, ``when`` ...), and on the right never past
"and" with a verb of its own ("after X and returns Err(...)"). A call
inside another's arguments runs first (``mediaTypes(mimes.filter(v))``:
the filter, then the negotiation). A plain word the
code only uses to qualify a name (``time`` of ``time.Duration``) is a
package, not a step: "the first time" orders nothing.

Never fires when another anchor of the claim is a list constant that
writes the two as strings in the claim's order (``CHARMAP_ENCODINGS =
["latin-1", "sloppy-windows-1252", ...]`` anchored beside a function that
tests ``startswith("sloppy")`` first; a string starting with the operand's
word stands for it): a list of values is the order they are tried in. A
list inside a method (an ``__init__``'s option names) is no such anchor.
Never fires on a later step that is a helper function the anchored code
defines inside itself after its first call, the earlier step at or past that
definition (Rust's ``recurse(...)`` then ``fn recurse`` in ``hash``, whose body
runs ``div_mod_floor`` first): the call comes before the body in the text.

Never fires: when either side has no operand, when both stand for the same
atom, or on a temporal remark that is not about the code's order ("..., so
clients can't be reused after close()": nothing on the left of ``after``
is an operand before the comma); on a count ("gives up after NUM_RETRIES =
65536 attempts", "follows at most 20 redirects before it rejects"); on a
step repeated with another ("checking isalive() after each sleep", "a
space before every argument": first uses cannot order those); on
the ``then`` of a condition ("unless key is a PyJWK, then ..."); on a place in
a text ("the part after the last '@'", "before the first colon") or where a thing is put ("inserts it
before the rule", "splices the names in after the first family"); on a
marker inside a term the claim quotes (`` `stopped after \\d+ redirects` ``);
on a type's declaration (an enum's variants are listed, not done) or on
two arms of a match on variants (``Self::A => ...``; a switch's ``case``
lines are tried in turn and do order). A
quoted operand (``'__dict__'``) is ordered by the code's first string of
that text, not by a name spelled alike (``cls.__dict__``), and an operand
quoted as an example of what a message the code formats prints (`` `X !=
(missing)` `` of ``"%q != (missing)"``) by that message's string, never
against a plain word ("keys only in a (`X != (missing)`), then keys in
both" orders two groups of keys, not the message and ``MapKeys``). A name
the claim says a result is kept in ("memoized in `_isSocketSupported`",
``cached in``, ``stored as``) is ordered by the code's first assignment
of it, not by the check that reads the memo first; a name declared
empty (``handler = None``, ``let runError: unknown;``, an entry
``config: undefined``, a string of ``__slots__``) is ordered by its next
use. "The last argument" is the code's ``lastArgument`` where the code
has it (a qualifier, ``first``, ``last``, ``default`` or ``new``, spells a
name with the noun after it), and a parenthetical aside passed over
between an operand and its marker ("A first (so it can ...), then B") is
no boundary. A
statement keyword (``try``, ``if`` ...) is no step, and neither is the
anchored function's own qualified name ("AnsiToWin32.write resets first
and then writes": its steps are the verbs), nor a method the anchored code
defines named after "in", "inside" or "within" ("It's written in
buildStart, after ctx.init()": where the steps run). ``A ... first, B ... second``
and ``A first, and if ... falls back to B`` order like the other markers.

Rationale: on psf/requests, a lazy agent wrote call orders backwards ("auth
is applied before the body is prepared"); every name in such a claim is
real, so only the order tells it false. First uses are a coarse reading of
order, so the operands must sit right next to the marker, where the claim
itself pairs them.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Sequence

from memvet._claims import TermKind, split_args
from memvet._rules._common import (
    Clause,
    Code,
    Contradiction,
    Rule,
    Word,
    nearest,
    needle,
    shown,
    words_of,
    written_comparison,
)

__all__ = ["RULE"]

#: (marker, whether the marker names the later step first)
_MARKERS = (
    (re.compile(r"\b(?:before|precedes?|preceding|prior to|ahead of|earlier than)\b"), False),
    (re.compile(r"\b(?:after|later than)\b"), True),
    (re.compile(r"(?:,\s*(?:and\s+)?|\band\s+|\bfirst\s+)(?:only\s+)?then\b"), False),
    (re.compile(r"(?:,\s*)?\bfollowed by\b"), False),
)
_FIRST_SECOND = re.compile(r"\bfirst\b(?P<a>.*?)\bsecond\b")
#: ``A is checked first, B second``: each step named before its ordinal.
_THEN_SECOND = re.compile(r"\bfirst\s*,\s*(?P<b>[^,;]{1,60}?)\bsecond\b")
#: ``A is resolved first and B is prepended afterwards``; ``first A, B later``.
_FIRST_LATER = re.compile(r"\bfirst\b(?P<mid>.{1,80}?)\b(?:afterwards?|after (?:that|it|them|this)|later on|later"
                          r"|subsequently)\b")
#: ``A first and only uses B when ...``, ``A first, falling back to B``: the fallback comes after.
_FIRST_FALLBACK = re.compile(r"\bfirst\b[\s,]*(?:and\s+)?(?:only\s+(?:then\s+)?"
                             r"(?:uses?|tries|checks|looks\s+at|reads|consults)"
                             r"|(?:only\s+)?(?:then\s+)?falls?\s+(?:back|through)\s+to|falling\s+back\s+to|otherwise"
                             r"|and\s+(?:if|when)\b[^.;]{1,60}?\bfalls?\s+back\s+to)\b")
#: ``A is tried first, B is the ImportError fallback``: the fallback is named before its marker.
_FIRST_IS_FALLBACK = re.compile(r"\bfirst\b[\s,]+(?:and\s+)?(?P<b>[^,;]{1,40}?)\s+(?:is|as)\s+(?:the|a|its)\s+"
                                r"(?:[\w-]+\s+)?fallback\b")


#: A line that tests something: ``if``, ``elif``, ``else if``, ``while``, a ternary, a ``case``.
_TEST_LINE = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|else\s+if|while|case)\b|\?[^?.:]")


_KEYWORDS = frozenset({"try", "if", "else", "elif", "for", "while", "return", "with", "except", "catch",
                       "finally", "switch", "case", "match", "loop"})


def _operand(code: Code, clause: Clause) -> Callable[[Word, str], bool]:
    """Atoms that can be ordered: used outside the signature; a parameter
    named by a plain word only where a condition tests it (a parameter is
    there from the start: its first use says nothing of when it is applied,
    its first test does)."""
    own = code.symbol

    def accept(word: Word, atom: str) -> bool:
        name = word.text.strip("`").removesuffix("()")
        if word.term is not None and "." in own and name == own:
            return False  # "AnsiToWin32.write resets ... first": the anchored function itself, not a step of it
        if own and name == own.rsplit(".", 1)[-1] and re.search(r"\b(?:of|in|inside|within)\s*`?$",
                                                                 clause.text[:word.start]):
            return False  # "at the very top of setHeader, before ...": where the steps are, not one of them
        if re.search(r"\b(?:in|inside|within)\s*`?$", clause.text[:word.start]) and _defines(code, name):
            return False  # "It's written in buildStart, after ctx.init()": a method of the anchor, where it is done
        if atom in _KEYWORDS:
            return False  # "tries obj[key] first": `try` is the statement, not a step
        if _plain_parameter(code, word, atom):  # or spread into a literal: `{ preserveTypes: true, ...options }`
            return _first_test(code, atom) >= 0 or any(
                re.search(rf"\.\.\.\s*{re.escape(atom)}(?![\w$])", code.logical_text(i))
                for i in code.lines_using(atom) if i not in code.headers)
        if word.plain and _qualifier_only(code, atom):
            return False  # "the first time" where the code only says time.Duration: a package, not a step
        return code.used(atom)
    return accept


def _defines(code: Code, name: str) -> bool:
    """Whether a line of the anchored code opens the definition of a function or method ``name``
    (``async buildStart() {``, ``def close(self):``, ``fn next(&mut self) {``, ``func (c *C) Get() {``)."""
    n = re.escape(name)
    pattern = re.compile(rf"\b(?:def|fn|func|function)\s+(?:\([^()]*\)\s*)?{n}\s*[<(\[]"
                         rf"|(?:^|[,;{{}}]\s*)(?:(?:async|static|public|private|protected|get|set)\s+)*{n}\s*\(")
    return any(pattern.search(code.logical_text(i)) and code.logical_text(i).rstrip().endswith(("{", ":"))
               for i in range(len(code.logical)))


def _qualifier_only(code: Code, atom: str) -> bool:
    """Whether every use of ``atom`` qualifies a name of it (``time.Duration``, ``errors.As``): a package
    or a module the code reaches through, never a step of its own."""
    uses = [m for i in code.lines_using(atom)
            for m in re.finditer(rf"(?<![\w$.]){re.escape(atom)}(?![\w$])(?P<dot>\s*\.\s*[A-Za-z_])?",
                                 code.logical_text(i))]
    return bool(uses) and all(m.group("dot") for m in uses)


def _plain_parameter(code: Code, word: Word, atom: str) -> bool:
    """Whether ``word`` names a parameter of the anchored function in plain words (``floor``, not ``self.floor``)."""
    return word.plain and atom in code.parameters


def _first_test(code: Code, atom: str) -> int:
    """The first logical line outside signatures that tests ``atom`` (see :data:`_TEST_LINE`), or -1."""
    return next((i for i in code.lines_using(atom) if _TEST_LINE.search(code.logical_text(i))), -1)


def _call_of(code: Code, word: Word, atom: str) -> re.Pattern[str] | None:
    """Where ``atom`` is called in a line, when ``word`` writes a call (``next()``); else None."""
    if not word.text.strip("`").endswith(")") or atom.startswith(("call:", "=")) \
            or not re.fullmatch(r"[\w$.]+", atom):
        return None  # `X != (missing)` for the string "%q != (missing)": a message printed, not a call
    return re.compile(code.pattern(atom).pattern + r"\s*\(")


def _first(code: Code, word: Word, atom: str) -> int:
    """Index of the atom that orders ``word``: its first use (:meth:`Code.first`), or, for a call
    (``next()``), its first call: ``function (req, res, next) {`` names ``next`` and calls nothing."""
    if word.term is not None and word.term.kind is TermKind.STRING:  # '__dict__': the string, not the attribute
        return next((k for k, a in enumerate(code.atoms)
                     if a.string and a.text == atom and a.line not in code.headers), -1)
    written = written_comparison(code, word.text) if word.term is not None and word.term.kind is TermKind.CODE else -1
    if written >= 0:  # `header === '*'`: that comparison, not the name's first use (`typeof header !== 'string'`)
        hit = next((k for k, a in enumerate(code.atoms) if a.line == written and a.text == atom), -1)
        if hit >= 0:
            return hit
    owned = _OWNED.fullmatch(word.text.strip("`")) if word.term is not None else None
    if owned and owned.group("name") == atom:  # `JSON.parse`: that receiver's, not `parser.parse(args)` lines before
        mine = re.compile(rf"(?<![\w$.]){re.escape(owned.group('owner'))}\s*\.\s*{re.escape(atom)}(?![\w$])")
        hit = next((k for k, a in enumerate(code.atoms) if a.text == atom and a.line not in code.headers
                    and mine.search(code.logical_text(a.line))), -1)
        if hit >= 0:
            return hit
    said = word.text.strip("`")
    quoted = re.findall(r"""['"]([^'"\n]{3,})['"]""", said[said.find("("):]) if said.endswith(")") else []
    if quoted:  # handleError(new Error('Request aborted')): the call that passes that message, not another
        strings = {(b.text, b.line) for b in code.atoms if b.string}
        hit = next((k for k, a in enumerate(code.atoms) if a.text == atom and a.line not in code.headers
                    and all((q, a.line) in strings for q in quoted)), -1)
        if hit >= 0:
            return hit
    i = code.first(atom)
    if (i >= 0 and _declared_empty(code.logical_text(code.atoms[i].line), code.atoms[i].text)) \
            or (i >= 0 and _stored_as_itself(code.logical_text(code.atoms[i].line), code.atoms[i].text)):
        # `handler = None`: a name declared empty is not a step; its next use is (so for a value kept
        # under its own name: `var fileFilter = this.fileFilter`, `self.attrs = dict(zip(attrs, attrs))`)
        i = next((k for k in range(i + 1, len(code.atoms)) if code.atoms[k].line not in code.headers
                  and code.atoms[k].line != code.atoms[i].line and code.atoms[k].text == code.atoms[i].text), -1)
    called = _call_of(code, word, atom)
    if i < 0 or called is None:
        return i
    return next((k for k in range(i, len(code.atoms)) if code.atoms[k].text == code.atoms[i].text
                 and code.atoms[k].line not in code.headers and called.search(code.logical_text(code.atoms[k].line))),
                -1)


#: A name written with its owner: ``JSON.parse``, ``JSON.parse()``, ``os.fsync(fd)``.
_OWNED = re.compile(r"(?P<owner>[A-Za-z_$][\w$]*)\.(?P<name>[A-Za-z_$][\w$]*)(?:\(.*\))?")


#: A name declared empty: ``handler = None``, ``let err = null;``, ``var cause error = nil``.
_EMPTY_START = re.compile(r"\s*(?:(?:let|var|const|mut)\s+)*(?P<name>[A-Za-z_$][\w$]*)"
                          r"\s*(?::[^=]+|\s+[\w*.\[\]]+)?\s*:?=\s*(?:None|null|undefined|nil)\s*;?\s*$")


#: A name declared with no value: ``let runError: unknown;``, ``var cause error`` (Go's zero value).
_UNSET_START = re.compile(r"\s*(?:let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?::[^=;]+|\s+[\w*.\[\]]+)?\s*;?\s*$")


def _declared_empty(line: str, name: str) -> bool:
    """Whether ``line`` declares ``name`` with nothing in it yet: ``handler = None``, ``let runError:
    unknown;``, an entry ``config: undefined,`` of a literal, a string of ``__slots__ = ("_state", ...)``:
    the name set up, not a step."""
    empty = _EMPTY_START.match(line) or _UNSET_START.match(line)
    if empty and empty.group("name") == name:
        return True
    if re.match(r"\s*__slots__\s*=", line):
        return True
    return re.search(rf"(?<![\w$.]){re.escape(name)}\s*:\s*(?:undefined|null|None|nil)\s*(?:[,}}]|$)", line) is not None


def _stored_as_itself(line: str, name: str) -> bool:
    """Whether ``line`` keeps a value under its own ``name``: ``var fileFilter = this.fileFilter``,
    ``let views = options.views``,
    ``self.reserved_attrs = dict(zip(reserved_attrs, reserved_attrs))``: the name set up, not used."""
    m = re.match(rf"\s*(?:(?:var|let|const)\s+)?(?:this\.|self\.)?{re.escape(name)}\s*=(?![=>])(?P<value>.*)$", line)
    return m is not None and _copy_of(m.group("value").strip().rstrip(";").strip(), name)


def _copy_of(value: str, name: str) -> bool:
    """Whether ``value`` is ``name`` (``this.name``, ``self.name``, ``options.name``), or calls whose every argument is
    (``dict(zip(name, name))``): the same value, kept or converted, nothing computed from others."""
    if re.fullmatch(rf"(?:this\.|self\.|[A-Za-z_$][\w$]*\.)?{re.escape(name)}", value):
        return True  # `let views = options.views`: the caller's setting, kept under its own name
    call = re.fullmatch(r"[A-Za-z_$][\w$.]*\((.*)\)", value)
    return call is not None and bool(call.group(1).strip()) \
        and all(_copy_of(arg.strip(), name) for arg in split_args(call.group(1)))


#: A line that leaves the function: an early exit, one path among others.
_EXIT = re.compile(r"\s*(?:\}\s*)?(?:return|raise|throw|panic!?\s*\()\b")


#: A line that goes on with the statement above it: ``? Boolean(res._header)``, ``: res.headersSent``, ``&& b``.
_CONTINUED = re.compile(r"\s*(?:\?(?![.?])|:(?!:)|&&|\|\||\.(?!\.))")


def _used_after(code: Code, word: Word, atom: str, start: int) -> bool:
    """Whether ``atom`` (as :func:`_first` reads ``word``) is first used in an early exit and used
    again after atom index ``start`` (or in its statement: ``mediaTypes(mimes.filter(validMime))``
    runs the filter first): ``return ErrInvalidID`` on an early path, then ``*id = nilID; return
    ErrInvalidID`` on the path the claim describes; the order of first uses says nothing there."""
    first = _first(code, word, atom)
    if first < 0 or not _EXIT.match(code.logical_text(code.atoms[first].line)):
        return False  # only an early exit is another path (`import text_unidecode as unidecode` is not)
    text = code.atoms[first].text
    called = _call_of(code, word, atom)
    exit_lines = {code.atoms[first].line}
    while len(code.logical) > max(exit_lines) + 1 \
            and _CONTINUED.match(code.logical_text(max(exit_lines) + 1)):  # `? a` / `: b` of a returned ternary
        exit_lines.add(max(exit_lines) + 1)
    return any(code.atoms[k].text == text and code.atoms[k].line not in code.headers
               and code.atoms[k].line not in exit_lines
               and (called is None or called.search(code.logical_text(code.atoms[k].line)))
               for k in range(len(code.atoms))
               if k > start or (k < start and code.atoms[k].line == code.atoms[start].line))


#: A separator named in words before a plain operand: "then it's a comma split".
_SEPARATORS = {"comma": ",", "semicolon": ";", "colon": ":", "pipe": "|", "slash": "/", "dot": ".", "space": " ",
               "newline": "\\n", "tab": "\\t", "dash": "-", "whitespace": " "}


def _separated_after(code: Code, clause: Clause, word: Word, atom: str, start: int) -> bool:
    """Whether ``word``, a plain word the clause qualifies with a separator ("a comma split"), is a call of
    ``atom`` with that separator written as its argument after atom index ``start``: ``.split(',')`` after
    ``.last()``, though ``rustflags.split(delim)`` came first. The claim names which split it means."""
    before = clause.words[word.index - 1] if word.term is None and word.index > 0 else None
    sep = _SEPARATORS.get(before.text.lower()) if before is not None else None
    if sep is None:
        return False
    written = re.compile(rf"(?<![\w$]){re.escape(atom)}\s*\(\s*['\"]{re.escape(sep)}['\"]")
    return any(a.text == atom and a.line not in code.headers and written.search(code.logical_text(a.line))
               for a in code.atoms[start:])


def _line_of(code: Code, word: Word, atom: str) -> int:
    """The logical line that orders ``atom``: its first test for a parameter
    named by a plain word, else its first use."""
    if _plain_parameter(code, word, atom):
        return _first_test(code, atom)
    i = _first(code, word, atom)
    return code.atoms[i].line if i >= 0 else -1


def _pairs(clause: Clause, code: Code) -> list[tuple[Word, str, Word, str, str]]:
    """(earlier word, its atom, later word, its atom, marker) the clause states."""
    out = []
    accept = _operand(code, clause)
    for pattern, reverse in _MARKERS:
        for m in pattern.finditer(clause.text):
            if _counted(clause.text, m) or _consequence(clause.text, m) or _one_after_another(clause.text, m) \
                    or (m.group(0) in ("after", "before") and _POSITION.match(clause.text, m.end())) \
                    or (m.group(0) in ("after", "before") and _PLACED.search(clause.text[:m.start()])) \
                    or any(w.term is not None and w.start <= m.start() < w.end for w in clause.words):
                continue
            left = nearest(clause, m.start(), -1, code, accept=accept, actions=True)
            right = nearest(clause, m.end(), 1, code, accept=accept, actions=True)
            if left and right:
                a, b = (right, left) if reverse else (left, right)
                out.append((a[0], a[1], b[0], b[1], " ".join(m.group(0).split())))
    for m in _FIRST_SECOND.finditer(clause.text):
        a = nearest(clause, m.start("a"), 1, code, accept=accept, actions=True)
        b = nearest(clause, m.end(), 1, code, accept=accept, actions=True)
        if a and b and a[0].end <= m.end("a"):
            out.append((a[0], a[1], b[0], b[1], "first ... second"))
    for m in _THEN_SECOND.finditer(clause.text):
        a = nearest(clause, m.start(), -1, code, accept=accept, actions=True)
        b = nearest(clause, m.start("b"), 1, code, accept=accept, actions=True)
        if a and b and b[0].end <= m.end("b"):
            out.append((a[0], a[1], b[0], b[1], "first, ... second"))
    for m in _FIRST_LATER.finditer(clause.text):
        before = nearest(clause, m.start(), -1, code, accept=accept, actions=True)
        # "A first, and B later": the marker's own comma; "A first and sets B afterwards": the verb of B's step
        lead = re.match(r"[\s,]*(?:and\s+(?:(?:sets|calls|writes|applies|adds|merges)\s+(?=\S))?)?", m.group("mid"))
        after = nearest(clause, m.start("mid") + (lead.end() if lead else 0), 1, code, accept=accept, actions=True)
        if before and after and after[0].end <= m.end("mid"):  # A ... first and B ... afterwards
            out.append((before[0], before[1], after[0], after[1], "first ... afterwards"))
        elif after and after[0].end <= m.end("mid") and (
                later := nearest(clause, m.end("mid"), -1, code, accept=accept, actions=True)) \
                and later[0].start > after[0].end:  # first A, and B afterwards
            out.append((after[0], after[1], later[0], later[1], "first ... afterwards"))
        # A first (X) and only afterwards B: the later step named after the marker
        earlier = before or (after if after and after[0].end <= m.end("mid") else None)
        ahead = nearest(clause, m.end(), 1, code, accept=accept, actions=True)
        if earlier and ahead:
            out.append((earlier[0], earlier[1], ahead[0], ahead[1], "first ... afterwards"))
    for m in _FIRST_FALLBACK.finditer(clause.text):
        # the fallback is what the marker names next, not a name further on ("falls back to
        # NO_PROXY (os.environ.get(key) ...)")
        before = nearest(clause, m.start(), -1, code, reach=3, accept=accept, actions=True)
        later = nearest(clause, m.end(), 1, code, reach=2, accept=accept, actions=True)
        if before and later and "(" not in clause.text[m.end():later[0].start]:
            out.append((before[0], before[1], later[0], later[1], "first ... then " + m.group(0).split()[-1]))
    for m in _FIRST_IS_FALLBACK.finditer(clause.text):
        before = nearest(clause, m.start(), -1, code, reach=3, accept=accept, actions=True)
        later = nearest(clause, m.start("b"), 1, code, reach=3, accept=accept, actions=True)
        if before and later and later[0].end <= m.end("b"):
            out.append((before[0], before[1], later[0], later[1], "first ... the fallback"))
    return out


#: "after 3 attempts", "after NUM_RETRIES = 65536 attempts": a count of tries, not a step of the code.
_COUNT_AFTER = re.compile(r"\s+(?:[A-Z][A-Z0-9_]*\s*(?:=\s*)?)?\d[\d_,.]*\s+[a-z]+|\s+[A-Z][A-Z0-9_]*\s+"
                          r"(?:attempts|tries|retries|times|failures|calls|iterations|redirects|seconds)\b")
#: "follows at most 20 redirects before": a count of steps done, then a limit, not two steps of the code.
_COUNT_BEFORE = re.compile(r"\b\d[\d_,.]*(?:\s+[a-z]+){1,2}\s*$")
#: "the part after the last '@'", "before the first `:`": a place in a text, not a step of the code.
_POSITION = re.compile(r"\s+(?:the\s+)?(?:(?:first|last|final|leading|trailing|next)\s+)?(?:occurrence\s+of\s+)?"
                       r"(?:['\"`]|(?:colon|comma|slash|dot|period|semicolon|hyphen|dash|space)\b)")
#: "inserts it before the rule", "splices the names into the declaration after the first family": where a
#: thing is put, not when (the verb at most six words before the marker).
_PLACED = re.compile(r"\b(?:insert|splice|place|put)(?:s|ed|ing)?\b(?:\s+[\w'`\"-]+){0,6}\s*$", re.I)
#: "(unless key is a PyJWK, then the JWK's algorithm is used)": a consequence, not a second step.
_CONDITION_OPEN = re.compile(r"\b(?:if|unless|when|whenever)\b[^,;.()]*$", re.I)


def _counted(text: str, m: re.Match[str]) -> bool:
    """Whether ``before``/``after`` at ``m`` bounds a count ("after 3 attempts", "20 redirects before")."""
    word = m.group(0).strip(" ,").split()[-1]
    if word == "after":
        return _COUNT_AFTER.match(text, m.end()) is not None
    return word == "before" and _COUNT_BEFORE.search(text[:m.start()]) is not None


def _one_after_another(text: str, m: re.Match[str]) -> bool:
    """Whether ``after`` at ``m`` says things are done in turn ("deletes files one after another", "one
    after the other"), or ``after``/``before`` says a step repeats with another ("checking isalive() after
    each sleep", "a space before every argument"): a sequence of like steps, which first uses cannot order
    (the code may check once before the first sleep too)."""
    if m.group(0) in ("after", "before") and re.match(r"\s+(?:each|every)\b", text[m.end():]):
        return True
    return m.group(0) == "after" and re.search(r"\bone\s*$", text[:m.start()]) is not None \
        and re.match(r"\s+(?:another|the\s+other)\b", text[m.end():]) is not None


def _consequence(text: str, m: re.Match[str]) -> bool:
    """Whether ``then`` at ``m`` follows a condition of its own ("if X, then Y"): what happens in that case,
    not a step after another."""
    return m.group(0).rstrip().endswith("then") and _CONDITION_OPEN.search(text[:m.start()]) is not None


def _listed(code: Code, i: int, j: int) -> bool:
    """Whether atoms ``i`` and ``j`` are two strings of one line (``for key
    in "VISUAL", "EDITOR"``, ``("dumb", "emacs")``): their order there is
    the order the code tries them in."""
    return code.atoms[i].string and code.atoms[j].string


def _short_circuit(code: Code, i: int, j: int) -> bool:
    """Whether atom ``i`` comes before atom ``j`` across ``&&``, ``||``, ``and`` or ``or`` on their line
    (``lvl <= STATIC_MAX_LEVEL && lvl <= max_level()``): a condition tests its operands left to right; or
    across a ternary's ``?`` (``typeof res.headersSent !== 'boolean' ? Boolean(res._header) : ...``): its
    test runs before either branch."""
    text = code.logical_text(code.atoms[i].line)
    pair = _in_turn(text, code.atoms[i].text, code.atoms[j].text)
    return pair is not None and re.search(r"&&|\|\||\band\b|\bor\b|\?(?![.?:])",
                                          text[pair[0][1]:pair[1][0]]) is not None


def _in_turn(text: str, one: str, other: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The spans of the first whole name ``one`` in ``text`` and of the first ``other`` after it, or None."""
    first = re.search(rf"(?<![\w$]){re.escape(one)}(?![\w$])", text)
    if first is None:
        return None
    second = re.search(rf"(?<![\w$]){re.escape(other)}(?![\w$])", text[first.end():])
    if second is None:
        return None
    return first.span(), (first.end() + second.start(), first.end() + second.end())


def _merged(code: Code, first: str, second: str) -> int | None:
    """Whether ``first`` and ``second`` are two entries of one literal that spreads (``{ preserveTypes:
    true, ...options }``, ``[...defaults, ...extra]``: a later entry is set after, and over, an earlier
    one): the logical line where ``second`` comes first, when no such literal has them the other way
    round; -1 when one does; None when no literal has both."""
    found = None
    for index in range(len(code.logical)):
        if index in code.headers:
            continue
        text = code.logical_text(index)
        if "..." not in text:
            continue
        for one, other in ((second, first), (first, second)):
            pair = _in_turn(text, one, other)
            if pair is None:
                continue
            (a_start, a_end), (b_start, b_end) = pair
            between = text[a_end:b_start]
            opened = re.search(r"[{\[][^{}\[\]()]*$", text[:a_start])
            if opened is None or "," not in between or re.search(r"[{}\[\]()]", between) \
                    or "..." not in text[opened.start():b_end]:
                continue
            if one == first:
                return -1  # the claim's order, somewhere
            found = index if found is None else found
    return found


#: A type's declaration: its members are listed, not done one after another.
_DECLARATION = re.compile(r"\s*(?:(?:pub(?:\s*\([^)]*\))?|export|declare|const|public|private|protected)\s+)*"
                          r"(?:enum|struct|union|interface|type)\b")
#: An arm of a match on variants: ``Self::DuplicatedByte(b) => ...`` (a switch's ``case`` lines are
#: tried in turn: the first that matches wins).
_ARM = re.compile(r"\s*[\w:]+(?:\s*\([^()]*\)|\s*\{[^{}]*\})?(?:\s*\|\s*[\w:]+(?:\s*\([^()]*\)|\s*\{[^{}]*\})?)*"
                  r"\s*=>")


def _declaration(code: Code) -> bool:
    """Whether the anchored code declares a type and runs nothing (an enum's
    variants, a struct's fields): the order of its members is no order of steps."""
    lines = [code.logical_text(i) for i in range(len(code.logical))]
    head = next((text for text in lines if not text.lstrip().startswith(("#[", "@"))), "")
    return _DECLARATION.match(head) is not None and not any(
        re.search(r"\b(?:fn|func|function|def)\b|=>", text) for text in lines)


#: What announces a list in order: "Default processor order: a, b, c", "in this order: ...".
_ORDER_HEAD = re.compile(r"\border\s*(?:is|=)?\s*:?\s*$", re.I)
_ITEM_SPLIT = re.compile(r"\s*,\s*(?:and\s+|then\s+)?|\s*(?:->|\u2192)\s*|\s+then\s+")
_IMPORT_LINE = re.compile(r"\s*(?:from\s+\S+\s+)?import\b|\s*use\s|\s*(?:const|let|var)\s*\{[^}]*\}\s*=\s*require")


def _order_list(clause: Clause, code: Code) -> list[Contradiction]:
    """"Default processor order: merge_contextvars, TimeStamper, add_log_level, ...": the names a
    claim lists after ``order:`` (three or more, each a name of the code), against the one statement
    of the code that writes most of them (a list, a chain of calls), imports left out: two listed
    names written there the other way round."""
    at = clause.offset
    if at <= 0 or not _ORDER_HEAD.search(clause.claim[:at]):
        return []
    listed: list[tuple[Word, str]] = []
    for m in re.finditer(r"[^,]+", re.split(r"\s[-\u2013\u2014]\s|\(", clause.text)[0]):
        for item in _ITEM_SPLIT.split(m.group(0)):
            start = clause.text.find(item, m.start())
            inside = [w for w in clause.words if start <= w.start < start + len(item)]
            if item.strip().startswith("..."):
                inside.reverse()  # `...postcss.plugins`: what is spread is the chain's last name
            hit = next(((w, atom) for w in inside if (atom := code.resolve(w, clause.declared))), None)
            if hit is not None:
                listed.append(hit)
    if len(listed) < 3:
        return []
    best: list[tuple[Word, str, int]] = []
    where = -1
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        if index in code.headers or _IMPORT_LINE.match(text):
            continue
        found = [(w, a, hit.start()) for w, a in listed
                 if (hit := re.search(rf"(?<![\w$.]){re.escape(a)}(?![\w$])", text))]
        if len(found) > len(best):
            best, where = found, index
    if len(best) < 2:
        return []
    for (a, first, i), (b, second, j) in itertools.pairwise(best):
        if i > j and first != second:
            return [Contradiction("order", f"the claim lists `{shown(a, first)}` before `{shown(b, second)}` (order:)",
                                  code.show(where, second), code.label, (a.text, b.text))]
    return []


#: A gloss in plain words right after a word: "the aliases (short names)".
_GLOSS = re.compile(r"(?<=\w)\s+\((?:[a-z]+\s*){1,3}\)")


def _without_glosses(clause: Clause) -> Clause:
    """``clause`` with its plain-word glosses blanked ("the aliases (short names) first": the
    operand is ``aliases``, not the gloss's ``names``), offsets kept."""
    quoted = [(w.start, w.end) for w in clause.words if w.term is not None]
    # never inside a term the claim quotes: the `(missing)` of `(missing) != X`
    text = _GLOSS.sub(lambda m: m.group(0) if any(s < m.end() and m.start() < e for s, e in quoted)
                      else " " * len(m.group(0)), clause.text)
    if text == clause.text:
        return clause
    return dataclasses.replace(clause, text=text, words=tuple(words_of(text, [t for t in clause.terms
                                                                            if t.text in text])))


#: An anchor that is a list constant: ``CHARMAP_ENCODINGS = [``, ``export const ORDER: string[] = [``.
_LIST_CONSTANT = re.compile(r"\s*(?:export\s+)?(?:pub(?:\([\w:]+\))?\s+)?(?:const|let|var|static)?\s*"
                            r"[A-Za-z_$][\w$]*\s*(?::[^=\n]+)?=\s*[\[(]")


#: "memoized in `_isSocketSupported`", "cached in", "stored as": the name is where a result is kept.
_STORED_IN = re.compile(r"\b(?:memoi[sz]ed|cached|stored|saved|recorded|remembered)\s+(?:in|into|as)\s+"
                        r"(?:the\s+)?$", re.I)


def _stored(code: Code, clause: Clause, word: Word, atom: str, at: int) -> int:
    """The atom that orders ``word`` (first use ``at``): where the code first
    assigns the name when the claim says a result is kept there ("memoized in
    `_isSocketSupported` after the first real listen test" is the assignment
    after the test, not the check ``if (_isSocketSupported !== undefined)``
    that reads the memo first); ``at`` otherwise, or when the code never assigns it."""
    if at < 0 or not _STORED_IN.search(clause.text[:word.start]):
        return at
    assign = re.compile(rf"(?<![\w$.]){re.escape(atom)}\s*(?:[-+*/|&]|\?\?|\|\||&&)?=(?![=>])")
    return next((k for k in range(len(code.atoms)) if code.atoms[k].text == atom
                 and code.atoms[k].line not in code.headers
                 and assign.search(code.logical_text(code.atoms[k].line))), at)


def _message_against_prose(code: Code, a: Word, first: str, b: Word, second: str) -> bool:
    """Whether one side is a message the code prints, quoted with example values (`` `X != (missing)` ``
    for ``"%q != (missing)"``), and the other a plain word: "keys only in a (`X != (missing)`), then keys
    in both" orders two groups of keys, not the message and the first use of ``MapKeys``."""
    def printed(word: Word, atom: str) -> bool:
        return word.term is not None and word.term.kind is TermKind.CODE and code.printed(word.term.text) == atom
    return (printed(a, first) and b.plain) or (printed(b, second) and a.plain)


def _in_order(code: Code, a: Word, first: str, b: Word, second: str) -> bool:
    """Whether ``code``, another anchor of the claim that is a list constant, writes ``first``
    before ``second`` as strings (a string starting with the operand's word counts:
    ``"sloppy-windows-1252"`` for ``sloppy``): one anchor listing the claim's order is enough for
    the order of the claim. A list inside a method (an ``__init__``'s option names) is no such list."""
    if _declaration(code) or not code.logical or not _LIST_CONSTANT.match(code.logical_text(0)):
        return False

    def at(word: Word, atom: str) -> int:
        hit = _first(code, word, atom)
        if hit >= 0:
            return hit
        return next((k for k, x in enumerate(code.atoms) if x.string and x.line not in code.headers
                     and re.match(rf"{re.escape(atom)}(?![\w$])", x.text)), -1)

    i, j = at(a, first), at(b, second)
    return 0 <= i < j and code.atoms[i].string and code.atoms[j].string \
        and (code.atoms[i].line != code.atoms[j].line or _listed(code, i, j))


#: A function defined inside another: ``fn recurse<T>(``, ``def helper(``, ``function walk(``.
_NESTED_DEFINITION = r"(?:\bfn|\bdef|\bfunction|\bfunc)\s+{}\s*[<(]"


def _helper_between(code: Code, atom: str, called: int, used: int) -> bool:
    """Whether ``code`` defines a function named ``atom`` inside itself on a logical line after ``called``
    (the line of its first use) and no later than ``used`` (the first use of the step the claim puts
    before it): the text calls such a helper before its body, where the other step runs first."""
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", atom):
        return False
    pattern = re.compile(_NESTED_DEFINITION.format(re.escape(atom)))
    return any(pattern.search(code.logical_text(k)) for k in range(called + 1, min(used, len(code.logical) - 1) + 1))


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    clause = _without_glosses(clause)
    for code in codes:
        if _declaration(code):
            continue
        out.extend(_order_list(clause, code))
        for a, first, b, second, marker in _pairs(clause, code):
            if first == second or clause.skip(a.text, b.text) or _message_against_prose(code, a, first, b, second):
                continue
            merged = _merged(code, first, second)
            if merged == -1:
                continue
            if merged is not None:  # `{ preserveTypes: true, ...options }` for "spreads options first, then ..."
                line = merged
            elif _plain_parameter(code, a, first) or _plain_parameter(code, b, second):
                # a parameter named in plain words: ordered by the lines that test them
                i, j = _line_of(code, a, first), _line_of(code, b, second)
                if i < 0 or j < 0 or i <= j:
                    continue
                line = j
            else:
                i, j = _stored(code, clause, a, first, _first(code, a, first)), \
                    _stored(code, clause, b, second, _first(code, b, second))
                if i < 0 or j < 0 or i <= j or (code.atoms[i].line == code.atoms[j].line
                                                and not _listed(code, i, j) and not _short_circuit(code, j, i)):
                    continue  # in order, or one statement: first uses cannot tell (strings listed on a line can)
                if _used_after(code, b, second, i) or _separated_after(code, clause, b, second, i):
                    continue  # the later step comes after the earlier one too, on another path
                if all(_ARM.match(code.logical_text(code.atoms[k].line)) for k in (i, j)):
                    continue  # two arms of a match: the cases are told apart, not done in turn
                if _helper_between(code, second, code.atoms[j].line, code.atoms[i].line):
                    continue  # `recurse(...)`, then `fn recurse(...) { div_mod_floor ... recurse(...) }`
                line = code.atoms[j].line
            if any(_in_order(other, a, first, b, second) for other in codes if other is not code):
                continue  # CHARMAP_ENCODINGS = ["latin-1", "sloppy-windows-1252", ...] anchored too: said in order
            out.append(Contradiction(
                "order", f"the claim puts `{shown(a, first)}` before `{shown(b, second)}` ({marker})",
                code.show(line, needle(second)), code.label, (a.text, b.text)))
    return out


RULE = Rule("order", check, __doc__ or "")
