"""separator: the claim says what a text is split on or joined with; every such call of the code uses another.

The claim's side: "splits X on (at, by) S", "split on S", "joins X with
(by, using) S", "joined by S", where ``S`` is a quoted separator (``','``,
``"; "``, ``'\\n'``), one written bare after the backticks came off (``/``,
``||``), or a separator named in words (comma, semicolon, colon, pipe,
slash, dot, period, space, whitespace, newline, tab, dash, hyphen,
underscore, ampersand; a word stands for its character with any spaces
around it: "joined with commas" agrees with ``", "``). A negated or
conditional verb ("never splits on ','", "if it splits on ...") and a
splitting named by a function of the claim ("splits the key with
splitSections(k, '.')") are not read.

The code's side: the anchored code's splitting calls and the separator
each passes: Go's ``strings.Split``/``SplitN``/``SplitAfter``/``Cut``
(``bytes`` too) and ``strings.Fields`` (whitespace); Python's, JavaScript's
and Rust's ``.split(S)``, ``.rsplit(S)``, ``.splitn(n, S)``,
``.split_once(S)``, ``.partition(S)``, Python's ``.split()`` and Rust's
``.split_whitespace()`` (whitespace). Its joining calls: Go's
``strings.Join(xs, S)``, Python's ``S.join(xs)``, JavaScript's and Rust's
``xs.join(S)`` (JavaScript's ``xs.join()`` joins with ``,``).

Fires when the code has calls of the claim's kind, every one passes a
literal separator, and none is the claim's. Never fires when one call
passes a variable, a pattern or a function (``split(sep)``, ``/,\\s*/``,
``split(char::is_whitespace)`` reads as whitespace), when the anchored
code splits (joins) nothing itself (a helper it calls may), nor on a
separator the writer declared unbound.

Rationale: separators are details people fill in from the format they
expect: "setDefaults splits the default on ','" of gorilla/schema's
``strings.Split(f.defaultValue, "|")``, "ListFormatFunc joins the errors
with ', '" where the code writes ``"\\n\\t"``. A caller who trusts it writes
input the code reads as one value, or parses output it never produces. A
literal separator in a call is as certain as code gets; the rule reads
only those.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import balanced, split_args
from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

#: Whitespace of any kind: ``strings.Fields``, Python's ``.split()``, "splits on whitespace".
_WS = "\x00ws"
_WORDS = {"comma": ",", "semicolon": ";", "colon": ":", "pipe": "|", "slash": "/", "dot": ".", "period": ".",
          "space": " ", "whitespace": _WS, "newline": "\n", "tab": "\t", "dash": "-", "hyphen": "-",
          "underscore": "_", "ampersand": "&"}
_WORD = "|".join(_WORDS)
#: The separator after the verb's preposition: quoted, bare punctuation, or a word.
_SEP = (r"(?:'(?P<q1>[^'\n]{1,6})'|\"(?P<q2>[^\"\n]{1,6})\""
        rf"|(?P<bare>[^\w\s'\"`(),]{{1,3}})(?=[\s,;.)]|$)|(?:an?\s+|the\s+|single\s+)*(?P<word>{_WORD})(?:e?s)?\b)")
_SPLITS = re.compile(rf"\b(?P<v>split(?:s|ting)?)\b(?P<mid>[^;()]{{0,40}}?)\s(?:on|at|by)\s+{_SEP}", re.I)
_JOINS = re.compile(rf"\b(?P<v>join(?:s|ed|ing)?|re-?joined)\b(?P<mid>[^;()]{{0,40}}?)\s(?:with|by|using|on)\s+{_SEP}",
                    re.I)
_NOT = re.compile(r"\b(?:not|never|no longer|doesn't|don't|won't|isn't|aren't|if|unless|when)\b[^,;]*$", re.I)

_GO_SPLIT = re.compile(r"\b(?:strings|bytes)\.(?P<f>Split|SplitN|SplitAfter|SplitAfterN|Cut|Fields)\(")
_GO_JOIN = re.compile(r"\b(?:strings|bytes)\.Join\(")
_METHOD_SPLIT = re.compile(r"\.(?P<f>split|rsplit|splitn|rsplitn|split_once|rsplit_once|split_terminator|partition|"
                           r"rpartition|split_whitespace|split_ascii_whitespace)\(")
_METHOD_JOIN = re.compile(r"(?P<recv>\"[^\"\n]*\"|'[^'\n]*')?\.join\(")
_LITERAL = re.compile(r"""^(?:b|r|br)?(?:"(?P<a>(?:\\.|[^"\\])*)"|'(?P<b>(?:\\.|[^'\\])*)'|`(?P<c>[^`$]*)`)$""")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"', "`": "`"}


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), text)


def _literal(arg: str) -> str | None:
    """The separator a call's argument passes: a literal's content, whitespace for Rust's
    ``char::is_whitespace``; None for anything else."""
    if re.fullmatch(r"(?:char::)?is_(?:ascii_)?whitespace|\|\w+\|\s*\w+\.is_(?:ascii_)?whitespace\(\)", arg):
        return _WS
    m = _LITERAL.match(arg.strip())
    if m is None:
        return None
    return _unescape(next(g for g in m.groups() if g is not None))


def _args(text: str, open_at: int) -> list[str] | None:
    end = balanced(text, open_at, None)
    return split_args(text[open_at + 1:end - 1]) if end > open_at else None


def _separators(code: Code, python: bool) -> tuple[list[tuple[str | None, int]], list[tuple[str | None, int]]]:
    """(separator, logical line) of each splitting call and each joining call of ``code``; the
    separator is None where the code computes it or matches a pattern: nothing to compare."""
    splits: list[tuple[str | None, int]] = []
    joins: list[tuple[str | None, int]] = []
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        for m in _GO_SPLIT.finditer(text):
            args = _args(text, m.end() - 1)
            if m.group("f") == "Fields":
                splits.append((_WS, index))
            elif args is not None and len(args) >= 2:
                splits.append((_literal(args[1]), index))
        for m in _GO_JOIN.finditer(text):
            args = _args(text, m.end() - 1)
            if args is not None and len(args) == 2:
                joins.append((_literal(args[1]), index))
        for m in _METHOD_SPLIT.finditer(text):
            if re.search(r"(?<![\w$.])(?:re|shlex|os\.path|path)$", text[:m.start()]):
                continue  # re.split and os.path.split take no separator
            args = _args(text, m.end() - 1)
            if args is None:
                continue
            name = m.group("f")
            if name.endswith("whitespace") or (not args and python):
                splits.append((_WS, index))
            elif args:
                splits.append((_literal(args[1] if name.endswith("splitn") and len(args) > 1 else args[0]), index))
            else:
                splits.append((None, index))  # JavaScript's s.split(): no separator, one piece
        for m in _METHOD_JOIN.finditer(text):
            if python:
                if re.search(r"\bpath\s*$", text[:m.start()]):
                    continue  # os.path.join: a path, no separator
                joins.append((_literal(m.group("recv")) if m.group("recv") else None, index))
                continue
            args = _args(text, m.end() - 1)
            if args is None or re.search(r"\b(?:path|Path|posix|win32)\s*$", text[:m.start()]):
                continue  # path.join(a, b): a path, no separator
            sep = _literal(args[0]) if len(args) == 1 else "," if not args else None
            if sep is not None and re.search(r"[^\W_]", sep):
                sep = None  # Rust's dir.join("config"): a path's part, no separator
            joins.append((sep, index))
    return splits, joins


def _said(m: re.Match[str]) -> str:
    if m.group("word"):
        return _WORDS[m.group("word").lower()]
    bare = m.group("bare")
    if bare and len(bare) > 1:
        bare = bare.rstrip(".,") or bare  # "joined with /." (its backticks gone): the sentence's own stop
    return _unescape(m.group("q1") or m.group("q2") or bare)


def _shown(separator: str) -> str:
    return "whitespace" if separator == _WS else repr(separator)


def _agrees(said: str, found: str, word: bool) -> bool:
    if said == found:
        return True
    if _WS in (said, found):
        return (said.strip() == "" or said == _WS) and (found.strip() == "" or found == _WS)
    return word and found.strip() == said.strip()


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    found = [(code, _separators(code, code.label.split("::", 1)[0].endswith(".py"))) for code in codes]
    for pattern, kind in ((_SPLITS, 0), (_JOINS, 1)):
        for m in clause.spanning(pattern):  # "splits the default: value on ','" reads on past the clause's `: `
            text = clause.claim or clause.text
            if _NOT.search(text[max(0, clause.offset):m.start("v")]) or re.search(r"\w\(", m.group("mid")):
                continue  # "never splits on ','"; "splits it with splitSections(k, '.')": the function's own
            said = _said(m)
            if clause.skip(said.strip() or said):
                continue
            calls = [(code, sep, line) for code, seps in found for sep, line in seps[kind]]
            if not calls or any(sep is None for _, sep, _ in calls):
                continue
            if any(_agrees(said, sep, bool(m.group("word"))) for _, sep, _ in calls if sep is not None):
                continue
            code, _, line = calls[0]
            verb, by = ("splits", "on") if kind == 0 else ("joins", "with")
            shown = sorted({_shown(s) for _, s, _ in calls if s is not None})
            out.append(Contradiction(
                "separator", f"the claim says it {verb} {by} {_shown(said)}; the code {verb} {by} {', '.join(shown)}",
                code.show(line), code.label, ()))
    return out


RULE = Rule("separator", check, __doc__ or "")
