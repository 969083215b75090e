r"""Unicode in claims, quotes and anchor specs: folded, and refused where it hides a name.

The binder (:mod:`memvet._claims`) finds a claim's code terms with ASCII
patterns, so a name written with one Cyrillic letter (``v\u0435rify``), with
a zero-width space inside (``ver\u200bify``) or in full-width letters
(``\uff56\uff45\uff52\uff49\uff46\uff59``) is no term at all: it binds to
nothing, is checked against nothing, and a reader still sees ``verify``.
(Examples here are written as escapes; each stands for the character.)
Two steps close that:

1. :func:`fold` writes each text the way a reader sees it: NFKC, invisible
   characters removed, every Unicode space a plain space. What looks like
   ``verify`` then *is* ``verify`` and binds like it.
2. :func:`suspicious_identifiers` finds what folding cannot settle: a name
   whose letters are lookalikes from another script (``v\u0435rify``, or
   ``\u0440\u043e\u0440`` written wholly in Cyrillic to read as ``pop``).
   Those are refused (:func:`fold_and_check` raises
   :class:`~memvet.UsageError`), never guessed at.

Which characters look like which comes from the ``confusable-homoglyphs``
package (Unicode's ``confusables.txt`` and ``Scripts.txt``, shipped as data;
imported on first use, only for text that is not ASCII).

What :func:`fold` does, and why the anchored code is not folded
---------------------------------------------------------------

* NFKC: full-width and mathematical letters, ligatures (``\ufb01`` to
  ``fi``), circled and squared letters become their plain letters. Python
  applies the same normalization to identifiers (PEP 3131), so a name in a
  claim means what the same name means to the interpreter.
* Except superscripts, subscripts and vulgar fractions (``<super>``,
  ``<sub>`` and ``<fraction>`` mappings): ``10\u2076`` is not ``106`` and
  ``O(n\u00b2)`` is not ``O(n2)``, and a raised digit cannot pass for a
  plain one. And except the micro sign ``\u00b5``, a unit sign of no script
  that NFKC would make the Greek letter ``\u03bc``: code writes it as
  itself (Go's ``"nsu\u00b5mh"``), and folded it would turn a unit string
  into a Latin-and-Greek name that is refused.
* Default-ignorable characters are removed: ZWSP, ZWNJ, ZWJ, word joiner,
  BOM, soft hyphen, bidirectional controls, Hangul fillers, variation
  selectors, tags. ZWJ, ZWNJ and the variation selectors are kept where
  they sit between characters that are neither ASCII nor Latin (emoji
  sequences, Persian, Indic conjuncts, CJK variants need them); beside a
  Latin or ASCII character they can only hide something.
* Every space (NBSP, narrow, ideographic, ...) becomes ``" "``; the line
  and paragraph separators become ``"\n"``.

Claims, quotes and anchor specs are folded; the anchored code is read as it
is. Rewriting the code would make the evidence say something the file does
not, and each fold of the code would have to be repeated identically on
every read. The price: a quote of code that itself contains compatibility
characters (a full-width string literal, a ligature in a comment) no longer
matches; quote the code around them.

What is suspicious
------------------

A token is a run of letters, digits, marks, ``_`` and ``$`` in the folded
text (``\b``, ``\n`` and other backslash escapes end a token). Its
*reading* is the token with every lookalike replaced by the ASCII it looks
like (Cyrillic ``\u0440`` reads ``p``) and every non-spacing mark dropped. A
token is suspicious when:

1. **Mixed script with a lookalike** (``v\u0435rify``, ``Order\u0405tore``):
   Latin letters and a letter of another script that looks like an ASCII
   one. No language writes a word so; it is refused wherever it stands.
2. **Mixed script** (``\u0394OrderStore``): letters of scripts that UTS #39's
   *Moderately Restrictive* level does not allow together (Latin with
   Cyrillic or Greek, two non-Latin scripts, ...). Latin with one other
   recommended script, and Han with Hiragana, Katakana, Hangul or Bopomofo
   (with or without Latin), are allowed: Japanese, Chinese, Korean and Thai
   are written without spaces, so ``OrderStore\u30af\u30e9\u30b9`` is one
   token of prose.
3. **Confusable** (``\u0440\u043e\u0440``, ``\u0455\u04bb\u04301``,
   ``\u0131d_map``): one script, and every letter a lookalike, so the
   reading is all ASCII (``pop``, ``sha1``, ``id_map``).

Kinds 2 and 3 are refused only where the reading stands in a code position:
where :func:`memvet._claims.claim_terms`, run over the text as a reader
reads it, finds a code term that the token is part of (in backticks, a
call, a dotted name, ``name=value``, a quoted string, or shaped like an
identifier: ``id_map``, ``sha1``). That is where a lookalike would name code
without the binder checking it. In prose it names nothing: the Russian
words ``\u0430``, ``\u0441`` and ``\u0441\u043e\u0440``, Greek
``\u0397``, French ``c\u0153ur``, Turkish ``k\u0131sa`` and the unit
``\u03bcs`` are all accepted. In an anchor spec (``names=True``) every
token is a name, so kinds 2 and 3 are refused outright, except a Latin
token (Turkish ``\u0131``, Danish ``\u00e6``), which is refused only when
its reading is shaped like an identifier.

A Latin letter of kind 3 inside a quoted string of a claim (``'\u00c6'``,
``"k\u0131sa"``) is a character of the value, which the binder compares
as written, not a name: it is accepted. Another script's lookalikes stay
refused there (``"\u0441\u043e\u0440"`` reads ``cop``).
"""

from __future__ import annotations

import enum
import functools
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar, cast, overload

from memvet._claims import claim_terms
from memvet._errors import UsageError

__all__ = [
    "Lookalike",
    "Suspicion",
    "SuspiciousToken",
    "escape_invisible",
    "fold",
    "fold_and_check",
    "fold_spec",
    "suspicious_identifiers",
]

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): characters
# that render as nothing. Python's unicodedata does not expose the property.
_IGNORABLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
_IGNORABLE_RUN = re.compile(f"[{_IGNORABLE}]+")
_IGNORABLE_CHAR = re.compile(f"[{_IGNORABLE}]")
# Of those, the ones a script or an emoji sequence needs: ZWNJ and ZWJ (between
# two characters), variation selectors and Mongolian free variation selectors
# (after one).
_JOINERS = frozenset("\u200c\u200d")
_SELECTORS = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
# Characters that render blank but which str.isprintable() calls printable.
_BLANK = re.compile(f"[{_IGNORABLE}\u2800]")
# Every Zs but the plain space (after NFKC only U+1680 is left), and Zl, Zp.
_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_LINE_SEPARATORS = re.compile("[\u2028\u2029]")
# Compatibility mappings NFKC applies that fold keeps (see the module docstring).
_KEPT_MAPPINGS = ("<super>", "<sub>", "<fraction>")
_KEPT_CHARS = frozenset("\u00b5")  # MICRO SIGN, which NFKC makes GREEK SMALL LETTER MU

# UAX #31 Table 5, the scripts recommended for identifiers, by the names the
# confusable-homoglyphs data uses. Common and Inherited are never counted.
_RECOMMENDED = frozenset({
    "ARABIC", "ARMENIAN", "BENGALI", "BOPOMOFO", "CYRILLIC", "DEVANAGARI", "ETHIOPIC", "GEORGIAN", "GREEK",
    "GUJARATI", "GURMUKHI", "HAN", "HANGUL", "HEBREW", "HIRAGANA", "KANNADA", "KATAKANA", "KHMER", "LAO", "LATIN",
    "MALAYALAM", "MYANMAR", "ORIYA", "SINHALA", "TAMIL", "TELUGU", "THAANA", "THAI", "TIBETAN",
})
_NOT_COUNTED = frozenset({"COMMON", "INHERITED"})
# UTS #39 section 5.1: the sets that count as one script (Jpan, Kore, Hanb).
_HAN_SETS = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"HAN", "HANGUL"}),
    frozenset({"HAN", "BOPOMOFO"}),
)
# Latin may not join these in one token (UTS #39, Moderately Restrictive).
_NOT_WITH_LATIN = frozenset({"CYRILLIC", "GREEK"})


# ======================================================================= folding


def fold(text: str) -> str:
    """``text`` as a reader sees it: NFKC, invisibles removed, one kind of space.

    See the module docstring for what is kept and why. ASCII text comes
    back unchanged, and ``fold(fold(t)) == fold(t)``.

    Args:
        text: A claim, a quote or an anchor spec (never the anchored code).

    Returns:
        The folded text.
    """
    if text.isascii():
        return text
    # Removing a character can let its neighbours compose (e, ZWSP, U+0301)
    # and change which joiners may stay: fold again until nothing changes.
    # After the first pass the text is normalized, so a pass that changes it
    # removes or composes characters and shortens it: this ends.
    while True:
        folded = _fold_once(text)
        if folded == text:
            return text
        text = folded


def _fold_once(text: str) -> str:
    spaced = _LINE_SEPARATORS.sub("\n", _SPACES.sub(" ", _nfkc(text)))
    return _nfkc(_IGNORABLE_RUN.sub(lambda m: _kept_joiners(spaced, m.start(), m.end()), spaced))


def _nfkc(text: str) -> str:
    """NFKC, except the characters whose mapping is in ``_KEPT_MAPPINGS``."""
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return text
    out: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if ch > "\x9f" and (ch in _KEPT_CHARS or unicodedata.decomposition(ch).startswith(_KEPT_MAPPINGS)):
            out.append(unicodedata.normalize("NFKC", text[start:i]))
            out.append(ch)
            start = i + 1
    out.append(unicodedata.normalize("NFKC", text[start:]))
    return "".join(out)


def _kept_joiners(text: str, start: int, end: int) -> str:
    """Of the ignorable characters in ``text[start:end]``, the joiners and
    selectors that stay: those beside characters neither ASCII nor Latin."""
    run = text[start:end]
    if not any(ch in _JOINERS or _SELECTORS.match(ch) for ch in run):
        return ""
    before = _base(text, start - 1, -1)
    after = _base(text, end, 1)
    kept = []
    for ch in run:
        if (ch in _JOINERS and _joinable(before) and _joinable(after)) or (
                _SELECTORS.match(ch) and _joinable(before)):
            kept.append(ch)
    return "".join(kept)


def _base(text: str, i: int, step: int) -> str:
    """The nearest character from ``i`` on (in direction ``step``) that is
    neither a non-spacing mark nor ignorable; ``""`` at the end of the text."""
    while 0 <= i < len(text):
        ch = text[i]
        if unicodedata.category(ch) != "Mn" and not _IGNORABLE_CHAR.match(ch):
            return ch
        i += step
    return ""


def _joinable(ch: str) -> bool:
    return bool(ch) and not ch.isascii() and not ch.isspace() and _script(ch) != "LATIN"


# ======================================================================= escaping


def escape_invisible(text: str) -> str:
    """``text`` with every invisible or non-printing character written as an escape.

    For error messages: ``ver\\u200bify`` shows why ``verify`` was not
    found. Format and control characters, every space but ``" "``, line
    breaks, tabs, unassigned and private-use code points, and characters
    that render blank (Hangul fillers, variation selectors, the blank
    braille pattern) become ``\\n``, ``\\xa0``, ``\\u200b`` or
    ``\\U000e0041``; visible text, whatever its script, is left alone.
    Backslashes are not escaped (a Windows path stays readable).

    Args:
        text: Any text.

    Returns:
        The text, printable and on one line.
    """
    if text.isprintable() and not _BLANK.search(text):
        return text
    return "".join(_escape(ch) if not ch.isprintable() or _BLANK.match(ch) else ch for ch in text)


_C_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch in _C_ESCAPES:
        return _C_ESCAPES[ch]
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _written(token: str) -> str:
    """``token`` with everything but printable ASCII escaped: what it is made of."""
    return "".join(ch if ch.isascii() and ch.isprintable() else _escape(ch) for ch in token)


# ======================================================================= scripts and lookalikes


@functools.lru_cache(maxsize=4096)
def _script(ch: str) -> str:
    """The Unicode script of ``ch`` (``"LATIN"``, ``"CYRILLIC"``, ``"COMMON"``, ...)."""
    if ch.isascii():
        return "LATIN" if ch.isalpha() else "COMMON"
    from confusable_homoglyphs import categories  # its data is read on first use

    return cast(str, categories.alias(ch))


@functools.lru_cache(maxsize=4096)
def _lookalike(ch: str) -> str:
    """The ASCII letters or digits ``ch`` is confusable with, ``""`` if none."""
    if ch.isascii():
        return ""
    from confusable_homoglyphs import confusables

    found: Any = confusables.is_confusable(ch, greedy=True)
    if not found:
        return ""
    for glyph in found[0]["homoglyphs"]:
        ascii_ = str(glyph["c"])
        if ascii_.isascii() and ascii_.isalnum():
            # Unicode's prototype of the I/l/1 class is `l`; a capital reads `I`.
            return "I" if ascii_ == "l" and ch.isupper() else ascii_
    return ""


def _display(script: str) -> str:
    return "an unknown script" if script == "Unknown" else script.replace("_", " ").title()


class Suspicion(str, enum.Enum):
    """Why a token was found suspicious."""

    MIXED_SCRIPT = "mixed-script"
    CONFUSABLE = "confusable"


@dataclass(frozen=True)
class Lookalike:
    """One character of a token that looks like ASCII it is not.

    Attributes:
        char: The character.
        name: Its Unicode name (``CYRILLIC SMALL LETTER IE``).
        reads_as: The ASCII it looks like; ``""`` for a non-spacing mark,
            which sits on its letter almost unseen.
    """

    char: str
    name: str
    reads_as: str

    def describe(self) -> str:
        """``\\u0435 (CYRILLIC SMALL LETTER IE) looks like 'e'``."""
        looks = f"looks like '{self.reads_as}'" if self.reads_as else "is a mark that hides on its letter"
        return f"{_written(self.char)} ({self.name}) {looks}"


@dataclass(frozen=True)
class SuspiciousToken:
    """A token refused because it may name code it does not spell.

    Attributes:
        token: The token, as folded.
        suspicion: Mixed script, or confusable (one script, all lookalikes).
        scripts: The scripts of its letters, for people (``("Cyrillic", "Latin")``).
        reading: What a reader takes it for, in ASCII where it reads so
            wholly (``"verify"``); ``""`` when it has no such reading.
        lookalikes: Its characters that look like ASCII they are not.
    """

    token: str
    suspicion: Suspicion
    scripts: tuple[str, ...]
    reading: str
    lookalikes: tuple[Lookalike, ...] = ()

    def line(self, what: str = "the text") -> str:
        """One line for an error: the token, its scripts, its escaped form and what to do.

        Args:
            what: What the token is in (``"the claim"``, ``"the quote"``).
        """
        head = f"{what} names `{self.token}` (written {_written(self.token)})"
        chars = "; ".join(x.describe() for x in self.lookalikes[:3])
        if len(self.lookalikes) > 3:
            chars += f"; and {len(self.lookalikes) - 3} more"
        if self.suspicion is Suspicion.MIXED_SCRIPT:
            listed = ", ".join(self.scripts[:-1]) + " and " + self.scripts[-1] if len(self.scripts) > 1 else "".join(
                self.scripts)
            body = f"which mixes {listed} letters in one name"
            if chars:
                body += f": {chars}"
            return f"{head}, {body}; write the name in one script"
        script = self.scripts[0] if self.scripts else "text"
        return (f"{head}, {script} letters that read as `{self.reading}`: {chars}; "
                f"write `{self.reading}` in ASCII if that is the name meant")

    def to_dict(self) -> dict[str, object]:
        """The token as JSON-ready data (for ``--json`` reports)."""
        return {"token": self.token, "written": _written(self.token), "suspicion": self.suspicion.value,
                "scripts": list(self.scripts), "reading": self.reading,
                "lookalikes": [{"char": x.char, "name": x.name, "reads_as": x.reads_as} for x in self.lookalikes]}


# ======================================================================= suspicious tokens


def _is_token_char(ch: str) -> bool:
    return ch.isalnum() or ch in "_$" or unicodedata.category(ch).startswith("M")


def _tokens(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each token of ``text`` that is not all ASCII."""
    start = -1
    ascii_only = True
    i = 0
    n = len(text)
    while i <= n:
        ch = text[i] if i < n else ""
        escape = ch == "\\" and i + 1 < n and text[i + 1].isascii() and text[i + 1].isalpha()
        if ch and not escape and _is_token_char(ch):
            if start < 0:
                start, ascii_only = i, True
            ascii_only = ascii_only and ch.isascii()
        else:
            if start >= 0 and not ascii_only:
                yield start, i
            start = -1
            if escape:
                i += 1  # `\b`, `\n`: the letter belongs to the escape
        i += 1


@dataclass(frozen=True)
class _Candidate:
    start: int
    end: int
    found: SuspiciousToken
    read: str  # what stands for the token in the text as read (a placeholder when it has no reading)
    always: bool  # refused wherever it stands


def _allowed_mix(scripts: frozenset[str]) -> bool:
    """Whether UTS #39's Moderately Restrictive level allows these scripts in one token."""
    others = scripts - {"LATIN"}
    if len(others) == 1 and "LATIN" in scripts:
        return others <= _RECOMMENDED - _NOT_WITH_LATIN
    return len(others) <= 1 or any(others <= group for group in _HAN_SETS)


def _candidate(token: str, start: int, end: int, names: bool) -> _Candidate | None:
    scripts = frozenset(_script(ch) for ch in token if ch.isalnum()) - _NOT_COUNTED
    shown = tuple(sorted(_display(s) for s in scripts))
    marks = [ch for ch in token if unicodedata.category(ch) == "Mn"]
    looks = {ch: _lookalike(ch) for ch in dict.fromkeys(token) if ch.isalnum()}
    reading = "".join("" if ch in marks else looks.get(ch) or ch for ch in token)
    lookalikes = tuple(Lookalike(ch, unicodedata.name(ch, "?"), looks.get(ch, ""))
                       for ch in dict.fromkeys(token) if looks.get(ch) or ch in marks)
    if "LATIN" in scripts and any(looks[ch] for ch in looks if _script(ch) not in ("LATIN", "COMMON", "INHERITED")):
        found = SuspiciousToken(token, Suspicion.MIXED_SCRIPT, shown, reading if reading.isascii() else "",
                                tuple(x for x in lookalikes if _script(x.char) != "LATIN"))
        return _Candidate(start, end, found, reading, always=True)
    if not _allowed_mix(scripts):
        # No ASCII reading: stand in an ASCII letter of the same case for each other letter.
        placeholder = "".join(ch if ch.isascii() or _script(ch) == "LATIN" else "X" if ch.isupper()
                              else "x" if ch.isalpha() else "0" if ch.isalnum() else "" for ch in token)
        found = SuspiciousToken(token, Suspicion.MIXED_SCRIPT, shown, "", lookalikes)
        return _Candidate(start, end, found, placeholder, always=names)
    if reading != token and reading.isascii() and any(ch.isalnum() for ch in reading):
        found = SuspiciousToken(token, Suspicion.CONFUSABLE, shown, reading, lookalikes)
        if names and scripts <= {"LATIN"} and not claim_terms(reading):
            return None  # a Latin name (Turkish dotless i, Danish ae) not shaped like an identifier
        return _Candidate(start, end, found, reading, always=names)
    return None


def suspicious_identifiers(text: str, *, names: bool = False) -> list[SuspiciousToken]:
    """The tokens of ``text`` that may name code they do not spell.

    ``text`` is folded first. See the module docstring for the rule.

    Args:
        text: A claim or a quote; with ``names``, an anchor spec or one of
            its fields (a path, a qualified name, a dependency, a pattern).
        names: Every token of ``text`` is a name, not prose.

    Returns:
        The suspicious tokens in the order they appear; ``[]`` for plain
        ASCII and for prose in any language.
    """
    text = fold(text)
    if text.isascii():
        return []
    candidates = [c for c in (_candidate(text[s:e], s, e, names) for s, e in _tokens(text)) if c is not None]
    pending = [i for i, c in enumerate(candidates) if not c.always]
    in_terms = _in_code_terms(text, candidates, pending) if pending else set()
    return [c.found for i, c in enumerate(candidates)
            if c.always or (i in in_terms and not _latin_in_quotes(text, c))]


#: A quoted string of a claim: its characters are a value the binder compares as written.
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")


def _latin_in_quotes(text: str, c: _Candidate) -> bool:
    """Whether ``c`` is a Latin letter with an ASCII reading (``\u00c6`` reads ``AE``,
    ``\u0131`` reads ``i``) inside a quoted string of the claim (``'\u00c6'``): a
    character of the value, compared as written, not a name spelled in lookalikes."""
    if c.found.suspicion is not Suspicion.CONFUSABLE or set(c.found.scripts) != {"Latin"}:
        return False
    return any(m.start() < c.start and c.end < m.end() for m in _QUOTED.finditer(text))


def _in_code_terms(text: str, candidates: Sequence[_Candidate], pending: Sequence[int]) -> set[int]:
    """Which of ``pending`` (indices into ``candidates``) are part of a code term of ``text`` as read.

    ``text`` as read has every candidate replaced by its reading. A
    candidate is part of a term when blanking it changes the terms the
    binder finds there. Candidates are blanked by halves, so prose, where
    none is, costs two runs of the binder however many candidates it has.
    """
    def terms(blank: set[int]) -> list[tuple[str, str]]:
        out, at = [], 0
        for i, c in enumerate(candidates):
            out.append(text[at:c.start])
            out.append(" " * len(c.read) if i in blank else c.read)
            at = c.end
        out.append(text[at:])
        return [(t.text, t.kind.value) for t in claim_terms("".join(out))]

    as_read = terms(set())
    found: set[int] = set()

    def probe(group: Sequence[int]) -> None:
        if terms(set(group)) == as_read:
            return
        if len(group) == 1:
            found.add(group[0])
            return
        half = len(group) // 2
        probe(group[:half])
        probe(group[half:])

    probe(pending)
    return found


# ======================================================================= the write path


def fold_and_check(text: str, what: str, *, names: bool = False) -> str:
    """``text`` folded, or a :class:`~memvet.UsageError` naming the first suspicious token.

    Args:
        text: A claim, a quote, or (with ``names``) an anchor spec.
        what: What ``text`` is, for the message (``"the claim"``).
        names: ``text`` is an anchor spec: every token is a name.

    Returns:
        The folded text, to store and bind in place of ``text``.

    Raises:
        UsageError: A suspicious token (one line: the token, its scripts,
            its escaped form), or text that was only invisible characters.
    """
    folded = fold(text)
    if text.strip() and not folded.strip():
        raise UsageError(f"{what} is only invisible characters: {escape_invisible(text)[:200]}")
    found = suspicious_identifiers(folded, names=names)
    if found:
        message = found[0].line(what)
        if len(found) > 1:
            message += f" (and {len(found) - 1} more: " + ", ".join(f"`{_written(f.token)}`" for f in found[1:4])
            message += ", ..." * (len(found) > 4) + ")"
        raise UsageError(escape_invisible(message))
    return folded


class _Spec(Protocol):
    """The text fields of an anchor spec (:class:`memvet._anchors.AnchorSpec`)."""

    @property
    def path(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def requirement(self) -> str: ...
    @property
    def scope(self) -> str: ...
    @property
    def quote(self) -> str: ...


_S = TypeVar("_S", bound=_Spec)


@overload
def fold_spec(spec: str) -> str: ...
@overload
def fold_spec(spec: _S) -> _S: ...
def fold_spec(spec: str | _S) -> str | _S:
    """An anchor spec with its names folded and checked: the write path's one call per anchor.

    A string (``path::Qualified.name``, ``dep:x``, ``pattern:re``) is
    folded before it is parsed, so that a full-width ``\uff1a\uff1a`` is
    the ``::`` it looks like. Of a parsed spec, ``path``, ``name``,
    ``requirement`` and ``scope`` are names; ``quote`` is code, checked
    like a claim.

    Args:
        spec: An anchor string or a :class:`memvet._anchors.AnchorSpec`.

    Returns:
        The folded string, or a copy of the spec with its fields folded
        (``spec`` itself when nothing changed).

    Raises:
        UsageError: As :func:`fold_and_check`, for the first field refused.
    """
    if isinstance(spec, str):
        return fold_and_check(spec, "the anchor", names=True)
    changes = {field: fold_and_check(getattr(spec, field), f"the anchor's {field}", names=True)
               for field in ("path", "name", "requirement", "scope") if getattr(spec, field)}
    if spec.quote:
        changes["quote"] = fold_and_check(spec.quote, "the quote")
    changes = {k: v for k, v in changes.items() if v != getattr(spec, k)}
    return cast(_S, replace(cast(Any, spec), **changes)) if changes else spec
