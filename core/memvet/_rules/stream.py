"""stream: the claim says output goes to stdout (or stderr); the anchored code writes only to the other one.

Where a program's messages go is remembered wrong as often as what they
say: "`Rewriting foo.py` lines go to stdout, so redirect stdout if you want
a quiet run", "morgan logs to `process.stderr`, not stdout". Every term of
such a claim binds (stdout and stderr are both everywhere), so the binding
never doubts it.

The claim's side: one stream named as where something goes, in a clause
that names no other: ``to stdout``, ``on stderr``, ``into standard
output``, ``via os.Stderr``, or a stream written as code (``os.Stdout``,
``sys.stderr``, ``process.stdout``, ``Target::Stderr``, ``io::stdout()``);
a stream the clause denies ("so it doesn't pollute stdout") is not named.
Not read: a stream under a negation ("no stderr message", "not stdout"),
a stream's attribute (``process.stdout.columns``, ``stdout.fd``: a
terminal's width, a descriptor), and a stream that is only tested ("if
stdout isn't a terminal": no preposition, no code form).

The code's side: the anchored code, comments and docstrings left out, and
what it writes to. stdout: ``os.Stdout``, ``sys.stdout``,
``process.stdout``, ``console.log`` / ``console.info``, ``println!`` /
``print!``, ``fmt.Print*``, ``io::stdout``, a ``Stdout`` variant, and
Python's ``print(...)`` with no ``file=``. stderr: ``os.Stderr``,
``sys.stderr``, ``process.stderr``, ``console.error`` / ``console.warn``,
``eprintln!`` / ``eprint!``, ``io::stderr``, a ``Stderr`` variant,
``file=sys.stderr``, Go's ``log.Print*`` / ``log.Fatal*`` of the standard
logger. When the claim quotes what is written (`Rewriting foo.py`), only the
lines that write a word of the quote count: a function that prints its
result to stdout may still report on stderr.

Fires when the anchored code writes to the other stream and never to the
one the claim names. Like ``calls``, it reads an absence (the claimed
stream is nowhere in the anchored code), so its finding is a doubt that
keeps the claim unconfirmed, never a certainty. Never fires when the code
names both streams or neither (a writer passed in, ``stream=``), nor on a
claim without code anchors.

Rationale: the facts of twenty projects hold a dozen false claims of this
shape (morgan, debug, cron, negroni, rs/cors, hclog, envconfig, pflag,
icecream, minimatch, env_logger, add-trailing-comma), each naming real code
and the real other stream.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import TermKind
from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_STREAM = {
    "stdout": re.compile(r"\b(?:stdout|standard\s+output)\b", re.I),
    "stderr": re.compile(r"\b(?:stderr|standard\s+error)\b", re.I),
}
#: A stream as where something goes: a preposition before it, or the stream written as code.
_TO = re.compile(r"\b(?:to|on|onto|into|via|through|at)\s+(?:the\s+)?(?:[\w$]+(?:\.|::))?$", re.I)
_AS_CODE = re.compile(r"(?:\bos\.|\bsys\.|\bprocess\.|::|\bio::)$")
_DENIED = re.compile(r"\b(?:no|not|never|nothing|without|isn't|aren't|doesn't|don't|won't|neither|nor)\b"
                     r"[^.;:,]{0,25}$", re.I)
_ATTRIBUTE = re.compile(r"\.(?!write\b)[A-Za-z_]")

_WRITES = {
    "stdout": re.compile(r"\b(?:os\.Stdout|sys\.stdout|process\.stdout|console\.(?:log|info)\b|println!|print!"
                         r"|fmt\.Print|io::stdout|Stdout\b)"),
    "stderr": re.compile(r"\b(?:os\.Stderr|sys\.stderr|process\.stderr|console\.(?:error|warn)\b|eprintln!|eprint!"
                         r"|io::stderr|Stderr\b|log\.(?:Print|Fatal|Panic)\w*\()"),
}
#: Python's print with no file=: stdout.
_BARE_PRINT = re.compile(r"(?<![\w.])print\((?![^()]*\bfile\s*=)")


def _named(clause: Clause) -> str | None:
    """The one stream the clause names as where something goes, or None."""
    found: set[str] = set()
    said: list[str] = []
    for stream, pattern in _STREAM.items():
        for m in pattern.finditer(clause.text):
            before = clause.text[:m.start()]
            if _DENIED.search(before):
                continue  # "doesn't pollute stdout", "not stdout": the stream it does not go to
            found.add(stream)
            if _ATTRIBUTE.match(clause.text, m.end()):
                continue
            if _TO.search(before) or _AS_CODE.search(before):
                said.append(stream)
    return said[0] if len(found) == 1 and said else None


def _streams(line: str, python: bool) -> set[str]:
    out = {stream for stream, pattern in _WRITES.items() if pattern.search(line)}
    if python and _BARE_PRINT.search(line):
        out.add("stdout")
    return out


def _writes(code: Code, words: set[str]) -> list[tuple[str, set[str]]]:
    """The lines of ``code`` that write to a stream, with their streams; only those that write a word of the
    claim's quoted terms (``Rewriting`` of `Rewriting foo.py`) when there are such lines."""
    python = code.label.split("::", 1)[0].endswith(".py")
    lines = [(code.logical_text(i), streams) for i in range(len(code.logical)) if i not in code.headers
             if (streams := _streams(code.logical_text(i), python))]
    quoted = [(line, streams) for line, streams in lines
              if words & {w.lower() for w in re.findall(r"[A-Za-z]{4,}", line)}]
    return quoted or lines


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    stream = _named(clause)
    if stream is None or not codes or clause.skip(stream):
        return []
    words = {w.lower() for t in clause.terms if t.kind in (TermKind.STRING, TermKind.CODE)
             for w in re.findall(r"[A-Za-z]{4,}", t.text)} - {"stdout", "stderr"}
    found = [(code, line, streams) for code in codes for line, streams in _writes(code, words)]
    other = "stderr" if stream == "stdout" else "stdout"
    if not found or set().union(*(streams for _, _, streams in found)) != {other}:
        return []
    code, line, _ = found[0]
    return [Contradiction("stream", f"the claim says it goes to {stream}", line[:120], code.label, (stream,))]


RULE = Rule("stream", check, __doc__ or "")
