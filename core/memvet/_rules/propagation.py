"""propagation: the claim says an exception reaches the caller; the code catches it and raises another or swallows it.

The claim's side: ``lets E propagate``, ``E propagates`` (``bubbles up``,
``escapes``, ``is re-raised``, ``is passed on to the caller``), ``re-raises
E``, and ``raises E`` / ``throws E`` / ``leaks E`` / ``fails with E`` / ``rejects with E``
for an exception class ``E`` (a name ending in ``Error`` or ``Exception``),
where ``E`` is an operand. A clause that speaks of the handler itself
("catches E and raises F instead", "swallows E"), rules E out ("never
raises E") or makes it a condition ("if f raises E, g retries") is not read.

The code's side: an ``except``/``catch`` clause that names ``E`` and whose
body does not raise it again (no bare ``raise``, no ``raise exc`` of the
caught name, no ``throw err``): it raises something else, or swallows it
(``pass``, ``return v``).

Fires when every handler of ``E`` in the anchored code stops it and the
code raises ``E`` nowhere itself. Never fires when the code has no handler
for ``E`` (it may well propagate), when one handler re-raises it, when the
code also raises ``E`` (``raise ValueError(...)`` outside the handler, or in
another anchor of the claim), or on
a translation the claim states itself ("catches E and re-raises it as F").

A second reading runs the other way, for Python's built-in exceptions:
"catches E" ("swallows E", "suppresses E", a list of them: "catches
(KeyError, IndexError, TypeError)") where the anchored code has handlers,
every one names its types, and none names ``E`` or a built-in class ``E``
derives from (``except (KeyError, IndexError):`` for ``TypeError``); with
"only" ("catches `Exception` only"), a handler of a base class of ``E``
(``except BaseException``) does not count either: it catches more. A
class of the project's own may not catch a built-in one, so it counts as
another. Never fires on a negated or conditional verb ("does not catch
E", "if it catches E"), on a bare ``except:``, nor when any anchor of the
claim handles ``E``.

A third reading is about errors as values (Go, Rust): "returns the error
from ``f.fh.Close()``", "propagates the io error" after "if removing the
.ll file fails" (``returns``, ``propagates``, ``passes back``, ``surfaces``,
``bubbles up``, ``reports`` the error, failure or ``err``). The step is a
call of the claim (``f.fh.Close()``) or the verb of its "if X-ing ...
fails" (``remove_file`` for "removing"). Fires when the anchored code calls
that step and throws every result of it away: ``_ = f.fh.Close()``,
``let _ = fs::remove_file(file)``. Never fires on a negated verb ("does not
return the error"), nor when one call of the step keeps its result.

A fourth reading, for a step's error in Go and Rust: "Enter(SliceElem)
returning an error stops walkSlice", "an error from `ew.Enter(Slice)`
aborts the walk" (the error of a call written out is said to stop,
abort, halt, end or cancel the work, or to bubble up, propagate, surface
or be returned). Fires when every call of that step in the anchored code
(the same arguments, when the claim writes any) is a statement of its
own: ``ew.Enter(SliceElem)`` drops what it returns. Never fires on a
negated verb, nor on Python or JavaScript code, where an exception goes
on by itself.

Rationale: "lets InvalidURL propagate" where the code turns it into
``RemoteProtocolError`` names only real exceptions; a caller that trusts it
catches the wrong one. "The ValueError propagates to the caller" where the
code writes ``except ValueError: pass`` tells the caller to guard against an
error it never sees; "fails with AttributeError" where the code catches
AttributeError and raises TypeError sends it to the wrong ``except``.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule, Word, nearest, split_name, stems

__all__ = ["RULE"]

_LETS = re.compile(r"\b(?:lets?|letting|allows?)\b")
_PROPAGATES = re.compile(r"\b(?:propagates?|propagating|bubbles? up|bubbling up|escapes?|"
                         r"(?:is|are|gets?) re-?raised|(?:is|are|gets?) passed (?:on|up|through) to the caller)\b")
_RERAISES = re.compile(r"\bre-?raises?\b")
#: "fails with E", "raises E", "throws E", "rejects with E", "leaks E": E reaches the caller.
_RAISES = re.compile(r"\b(?:fails?|failing|errors? out|rejects?|rejecting) with\b"
                     r"|\b(?:raises|raising|throws|throwing|leaks|leaking)\b")
#: A clause that speaks of the handler itself: "catches E", "turns E into F".
_HANDLES = re.compile(r"\b(?:catch(?:es|ing)?|swallow(?:s|ing)?|suppress(?:es|ing)?|handl(?:es|ing)|"
                      r"ignor(?:es|ing)|turn(?:s|ing)?|convert(?:s|ing)?|wrap(?:s|ping)?|translat(?:es|ing)|instead)\b",
                      re.I)
_NOT = re.compile(r"\b(?:not|never|no longer|doesn't|don't|won't|cannot|can't|isn't|aren't)\b", re.I)
_IF = re.compile(r"\b(?:if|when|whenever|should|in case)\b", re.I)
_AS = re.compile(r"(?:\s+\w+){0,3}?\s+as\b")
_HANDLER = re.compile(r"^(?:\}\s*)?(?:except|catch)\b(?P<head>.*)")


def _claimed(clause: Clause, code: Code) -> list[tuple[Word, str, str]]:
    out = []
    for m in _PROPAGATES.finditer(clause.text):
        if _AS.match(clause.text, m.end()):
            continue  # "is re-raised as ValueError": a translation, not a propagation
        if _NOT.search(re.split(r"[,;]", clause.text[:m.start()])[-1]):
            continue  # "does not let E propagate" agrees with a handler
        lets = list(_LETS.finditer(clause.text, 0, m.start()))
        at = lets[-1].end() if lets else m.start()
        hit = nearest(clause, at, 1 if lets else -1, code, reach=4)
        if hit is not None and (not lets or hit[0].end <= m.start()):
            out.append((hit[0], hit[1], m.group(0)))
    if not _HANDLES.search(clause.text):
        for m in _RAISES.finditer(clause.text):
            if _NOT.search(re.split(r"[,;]", clause.text[:m.start()])[-1]):
                continue  # "never raises E"
            if _IF.search(re.split(r"[,;]", clause.text[:m.start()])[-1]):
                continue  # "if f raises E, g retries": what the code does when E comes, a handler
            hit = nearest(clause, m.end(), 1, code, reach=3)
            if hit is not None and re.fullmatch(r"[A-Z]\w*(?:Error|Exception)", hit[0].text.rsplit(".", 1)[-1]):
                out.append((hit[0], hit[1], m.group(0)))
    for m in _RERAISES.finditer(clause.text):
        hit = nearest(clause, m.end(), 1, code, reach=3)
        if (hit is not None and not _AS.match(clause.text, hit[0].end)
                and not re.search(r"\bas\b", clause.text[m.end():hit[0].start])):
            out.append((hit[0], hit[1], m.group(0)))
    return out


def _caught(head: str, braces: bool) -> set[str]:
    """The exception types a handler names (not the name it binds the exception to)."""
    if braces:
        inner = re.match(r"\s*\(([^)]*)\)", head)
        names = re.findall(r"[A-Za-z_$][\w$.]*", inner.group(1) if inner else "")
        return {n.rsplit(".", 1)[-1] for n in names[:-1]}  # catch (IOException | KeyError e); JS: untyped
    return {n.rsplit(".", 1)[-1] for n in re.findall(r"[A-Za-z_][\w.]*", head.split(" as ", 1)[0])}


def _translated(code: Code, exc: str) -> int | None:
    """The handler line of ``exc`` when every handler of it raises something else."""
    handlers = []
    for index in range(len(code.logical)):
        m = _HANDLER.match(code.logical_text(index))
        if not m or exc not in _caught(m.group("head"), code.braces):
            continue
        alias = re.search(r"\bas\s+([A-Za-z_]\w*)|\(\s*([A-Za-z_$][\w$]*)\s*\)", m.group("head"))
        name = (alias.group(1) or alias.group(2)) if alias else ""
        lines = [code.logical_text(j) for j in code.block(index)]
        body = " ".join(lines)
        reraised = re.search(r"\braise\s*(?:$|;|\bfrom\b)|\braise\s+(?:from\b|$)", body) or (
            name and re.search(rf"\b(?:raise|throw)\s+{re.escape(name)}\b", body))
        if reraised or any(re.fullmatch(r"\s*raise\s*;?\s*", line) for line in lines):
            return None  # a bare raise, on a line of its own under a test too
        handlers.append(index)
    raised = re.compile(rf"\b(?:raise|throw)\s+(?:new\s+)?(?:[\w$]+\.)*{re.escape(exc)}\b")
    if handlers and raised.search("\n".join(code.physical)):
        return None  # raised in the code too: a handler elsewhere does not stop that one
    return handlers[0] if handlers else None


#: "catches E", "swallows (E, F)": a handler the claim says the code has, and the classes it names.
_CATCHES = re.compile(r"\b(?:catch(?:es|ing)?|swallow(?:s|ing)?|suppress(?:es|ing)?)\s+(?P<list>\(?\s*`?"
                      r"(?:[A-Z]\w*(?:Error|Exception|Warning)|Exception)`?(?:\s*(?:,|/|\||\band\b|\bor\b)\s*`?"
                      r"(?:[A-Z]\w*(?:Error|Exception|Warning)|Exception)`?)*\s*\)?)(?P<only>\s*\bonly\b)?")


def _builtin_exception(name: str) -> type[BaseException] | None:
    value = getattr(builtins, name, None)
    return value if isinstance(value, type) and issubclass(value, BaseException) else None


def _handlers(code: Code) -> list[tuple[int, set[str]]] | None:
    """Each handler's line and the classes it names; None when one names none (``except:``)."""
    out = []
    for index in range(len(code.logical)):
        m = _HANDLER.match(code.logical_text(index))
        if m:
            caught = _caught(m.group("head").rstrip(":"), code.braces)
            if not caught:
                return None
            out.append((index, caught))
    return out


def _uncaught(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    said = list(_CATCHES.finditer(clause.text))
    if not said:
        return out
    found = [(c, _handlers(c)) for c in codes if not c.braces]
    if any(h is None for _, h in found):
        return out  # a bare `except:` catches everything
    handled = [(code, line, caught) for code, handlers in found for line, caught in handlers or ()]
    if not handled:
        return out
    for m in said:
        before = re.split(r"[,;]", clause.text[:m.start()])[-1]
        if _NOT.search(before) or _IF.search(before):
            continue
        only = bool(m.group("only")) or re.search(r"\bonly\s+$", clause.text[:m.start()]) is not None
        for name in re.findall(r"[A-Z]\w*(?:Error|Exception|Warning)|\bException\b", m.group("list")):
            exc = _builtin_exception(name)
            if exc is None or clause.skip(name):
                continue
            if any(name in caught or (not only and any(k is not None and issubclass(exc, k)
                                                       for k in map(_builtin_exception, caught)))
                   for _, _, caught in handled):
                continue  # "catches E only" of `except BaseException`: a base of E catches more than E
            code, line, caught = handled[0]
            out.append(Contradiction(
                "propagation", f"the claim says the code catches `{name}`{' only' if only else ''}; its handlers "
                f"catch {', '.join(f'`{k}`' for k in sorted(caught))}{'' if only else ' only'}",
                code.logical_text(line)[:120],
                code.label, (name,)))
    return out


#: "returns the error from f.fh.Close()", "propagates the io error": an error value reaches the caller.
_RETURNS_ERROR = re.compile(r"\b(?:returns|propagates|passes\s+(?:back|on|up)|surfaces|bubbles\s+up|reports)\s+"
                            r"(?:the|that|its|this|any)\s+(?:[\w/-]+\s+){0,2}?(?:error|err|failure)\b"
                            r"(?:\s+(?:from|of)\s+`?(?P<x>[A-Za-z_$][\w$.]*\(\))`?)?")
#: "if removing the generated .ll file fails": the step that fails, named by its verb.
_STEP_FAILS = re.compile(r"\b[Ii]f\s+(?P<verb>[a-z]+ing)\b(?:[^.;]|\.(?=\w)){0,60}?\bfails\b")
#: A statement that throws a call's result away: Go's ``_ = f()``, ``_, _ = f()``; Rust's ``let _ = f();``.
_DISCARD = re.compile(r"^\s*(?:let\s+_\s*=|_(?:\s*,\s*_)*\s*=(?!=))")


def _discarded(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"resetFh returns the error from f.fh.Close()" where the code says ``_ = f.fh.Close()``."""
    m = _RETURNS_ERROR.search(clause.text)
    if m is None or _NOT.search(re.split(r"[,;]", clause.text[:m.start()])[-1]):
        return []
    before = clause.claim[:max(clause.offset, 0)] + clause.text[:m.start()]
    step = _STEP_FAILS.search(re.split(r"[.;]\s", before)[-1])  # "if X-ing fails, f propagates": its sentence
    named = m.group("x") or ("" if step else next((t.text for t in clause.terms if t.text.endswith("()")), ""))
    if not named and step is None:
        return []
    # the call the claim writes, by its name; or for "if removing ... fails", a call whose name starts
    # with the verb (remove_file)
    callee = named[:-2].rsplit(".", 1)[-1] if named else ""
    verbs = {w for w in stems(step.group("verb")) if len(w) >= 4} if step is not None and not named else set()

    def wanted(name: str) -> bool:
        return name == callee if callee else split_name(name)[:1] != [] and split_name(name)[0] in verbs

    for code in codes:
        calls = [c for c in code.calls if c.line not in code.headers and wanted(c.name)]
        if calls and all(_DISCARD.match(code.logical_text(c.line)) for c in calls):
            return [Contradiction("propagation", f"the claim says `{m.group(0)}`; the code throws the result away",
                                  code.logical_text(calls[0].line).strip()[:120], code.label, ())]
    return []


#: "Enter(SliceElem) returning an error stops walkSlice", "an error from Flush() aborts the write": the error a
#: written call returns is said to end the work or reach the caller.
_STEP_ERROR = re.compile(
    r"`?(?P<a>[A-Za-z_$][\w$.]*\([^()]*\))`?\s+(?:returning|that\s+returns|returns)\s+(?:an?\s+)?(?:non-nil\s+)?"
    r"(?:error|err)\b(?P<ra>[^.;]{0,80})"
    r"|\b(?:[Aa]n?|[Tt]he|[Aa]ny)\s+(?:error|err)\s+(?:from|returned\s+by|of)\s+`?(?P<b>[A-Za-z_$][\w$.]*\([^()]*\))`?"
    r"(?P<rb>[^.;]{0,80})")
#: What the error is said to do: end the work or reach the caller.
_ENDS = re.compile(r"\b(?:stops|aborts|halts|ends|cancels|short-circuits|bubbles\s+up|propagates|is\s+returned|"
                   r"surfaces|reaches\s+the\s+caller)\b")


def _ignored(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"Enter(SliceElem) returning an error stops walkSlice" where the Go or Rust code calls
    ``ew.Enter(SliceElem)`` as a statement of its own: the error is dropped."""
    out: list[Contradiction] = []
    for m in _STEP_ERROR.finditer(clause.text):
        written, rest = (m.group("a"), m.group("ra")) if m.group("a") else (m.group("b"), m.group("rb"))
        ends = _ENDS.search(rest)
        lead = re.split(r"[,;]", clause.text[:m.start()])[-1]
        if ends is None or _NOT.search(rest[:ends.start()]) or _NOT.search(lead):
            continue
        callee = written[:written.index("(")].rsplit(".", 1)[-1]
        args = re.sub(r"\s+", "", written[written.index("(") + 1:-1])
        for code in codes:
            if not code.label.split("::", 1)[0].endswith((".go", ".rs")):
                continue  # an exception propagates by itself; only an error value can be dropped
            calls = [c for c in code.calls if c.line not in code.headers and c.name == callee
                     and (not args or re.sub(r"\s+", "", c.args) == args)]
            bare = re.compile(rf"^\s*(?:[\w$.]+\.)?{re.escape(callee)}\s*\((?:[^()]|\([^()]*\))*\)\s*;?\s*$")
            if calls and all(bare.match(code.logical_text(c.line)) for c in calls):
                out.append(Contradiction(
                    "propagation", f"the claim says an error from `{written}` {ends.group(0)}; the code calls it "
                    "as a statement and drops its result", code.logical_text(calls[0].line).strip()[:120],
                    code.label, ()))
                break
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = _uncaught(clause, codes) + _discarded(clause, codes) + _ignored(clause, codes)
    for code in codes:
        for word, exc, said in _claimed(clause, code):
            if clause.skip(word.text):
                continue
            line = _translated(code, exc)
            if line is not None and any(other is not code and _raises_itself(other, exc) for other in codes):
                continue  # normalize_timestamp raises it; the anchored constants.py catches its own at import
            if line is not None:
                block = code.block(line)
                shown = code.logical_text(block[0]) if block else code.logical_text(line)
                out.append(Contradiction(
                    "propagation",
                    f"the claim says `{word.text}` {said}; the code catches it and does not raise it again",
                    shown[:120], code.label, (word.text,)))
    return out


def _raises_itself(code: Code, exc: str) -> bool:
    """Whether ``code`` raises ``exc`` itself (``raise ValueError(...)``, ``throw new TypeError(...)``)."""
    pattern = re.compile(rf"\b(?:raise|throw\s+new|throw)\s+(?:[\w.]+\.)?{re.escape(exc)}\b")
    return any(pattern.search(code.logical_text(i)) for i in range(len(code.logical)))


RULE = Rule("propagation", check, __doc__ or "")
