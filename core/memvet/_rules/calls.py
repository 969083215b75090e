"""calls: the claim says an anchored function calls a name; its code never mentions that name.

The claim's side, in a clause that is not negated: a verb of calling in
the third person (``calls``, ``invokes``, ``triggers``, ``fires``,
``runs``, ``delegates to``, ``hands off to``, ``defers to``, ``dispatches
to``, ``falls back to`` (its subject the code term right before it, one
the anchors hold, never a type such as ``i64`` after it), ``goes
through``, ``wraps``, ``uses``, ``relies on``, ``is built on``,
``is implemented with`` (``on top of``, ``in terms of``, ``using``,
``via``), ``is backed by``; ``does`` and
``via`` only before a call written out: "always does F(x)", "builds it via
New(size)") with a code term of the claim right after it (``fires OnEvicted``, ``calls
godotenv.Overload()``, ``uses `time.monotonic```); the subject is the
first code term before the verb when an anchor is that symbol (``Set`` of
``cache.go::cache.Set``), or else every anchor the call written does not
name (not the callee, nor a constant passed to it).

A code term right after a preposition ("strips codes with the `_re`
regex and then calls X") is what the subject works with, never the
subject. An object qualified by a package of the platform (Go's standard
library, Python's: ``sort.Strings``) is that package's function: the code
must write it so, not a name spelled alike (``strings.Join``).

The code's side: no identifier or string of the subject's code (comments
and docstrings removed) is the object's name, in any case or spelling
(``onEvicted`` for ``OnEvicted``), and no other anchored function the
subject calls mentions it either (``Load`` calling the anchored
``loadFile``, which calls ``os.Setenv``).

Never fires on a plain word after the verb ("runs the janitor", "calls
back"), a reader's call ("you call Flush", "callers invoke X"), a negated
or contrasted clause ("never calls X", "instead of calling X"), or a
clause whose subject is code none of the anchors is (the rule then has
no code to read).

The same reading for two other verbs, the subject being the code term
right before the verb ("newShardedCache panics", not "calling it twice
panics": that is the runtime's panic):

* "X lowercases", "X uppercases", "X sorts": a call of the names code does
  that with (``toLowerCase``, ``lower``, ``ToLower``, ``casefold``;
  ``sort``, ``sorted``); verbs as often done by hand ("strips",
  "validates", "caches", "logs") are left out;
* Go's "X panics": a ``panic(`` call (Rust is left out: its panics hide
  in ``unwrap``, indexing and arithmetic);
* "X throws", "X raises" in Python, JavaScript and TypeScript: a ``raise``
  or ``throw`` statement.

Not read after a negation or in a condition ("if _safe_url_split raises
UnicodeEncodeError, canonicalize_url retries": what the caller does then).

This is the one rule that reads an absence, and it is never certain: a
function may reach the name through code nobody anchored, so the finding
only keeps the claim unconfirmed ("the claim says Set triggers
`OnEvicted`, but cache.go::cache.Set never mentions it") until a person
anchors the code that does it or corrects the claim. Rationale: "Flush
fires OnEvicted for each item", "init calls Overload" are false facts made
only of real names; the relation is the claim's whole content, and a body
that never mentions the callee cannot be where it is called.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence

from memvet._claims import TermKind
from memvet._gostd import GO_STD_QUALIFIERS
from memvet._rules._common import LOWERING, UPPERING, Clause, Code, Contradiction, Rule, Word, fold, named_one_of

__all__ = ["RULE"]

_VERB = re.compile(r"\b(?:calls|invokes|triggers|fires|runs|delegates\s+to|hands\s+(?:it\s+|them\s+)?(?:off|over)"
                   r"\s+to|hands\s+(?:it|them)\s+to|defers\s+to|dispatches\s+to|goes\s+through|wraps|uses|"
                   r"relies\s+on|falls?\s+back\s+(?:to|on)(?:\s+calling)?|does|via|is\s+built\s+(?:on(?:\s+top\s+of)?|around)|"
                   r"is\s+implemented\s+(?:on\s+top\s+of|in\s+terms\s+of|with|using|via)|is\s+backed\s+by)\b", re.I)
#: Verbs that name a call only with the call written out: "always does NewRandomFromReader(rander)",
#: "builds the cache via New(size)" (not "does nothing", "via the janitor").
_CALL_ONLY = frozenset({"does", "via"})
_NEGATED = re.compile(r"\b(?:never|not|no longer|without|instead of|rather than|neither|nor|unlike)\b|n't\b", re.I)
_READER = frozenset({"you", "your", "caller", "callers", "user", "users", "reader", "application", "applications",
                     "app", "client", "clients", "consumer", "consumers", "who", "whoever", "hook", "callback",
                     "handler", "middleware", "plugin", "test", "tests"})
_LEAD = frozenset({"the", "a", "an", "its", "their", "each", "every", "then", "also", "just", "only", "directly"})
_ADVERBS = frozenset({"always", "then", "immediately", "deliberately", "simply", "just", "also", "instead"})
_OBJECT_KINDS = (TermKind.IDENTIFIER, TermKind.CALL, TermKind.DOTTED, TermKind.CONSTANT)
#: Types a path may be named after ("falls back to the i64 path"): never a callee.
_TYPE_NAMES = frozenset({"i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
                         "f32", "f64", "str", "String", "bool", "char", "int", "float", "bytes", "int64",
                         "uint64", "float64", "string"})


def _object(clause: Clause, end: int) -> Word | None:
    """The code term right after the verb, past articles; ``None`` when the next word is prose."""
    for word in clause.words:
        if word.start < end or (word.term is None and word.text.lower() in _LEAD):
            continue
        if word.term is None or word.term.kind not in _OBJECT_KINDS or word.plain \
                or re.search(r"[,;:()]", clause.text[end:word.start]):
            return None
        return word
    return None


def _right_before(clause: Clause, word: Word | None, at: int) -> bool:
    """Whether ``word`` is the last code term before ``at``, at most three words and no comma away."""
    if word is None:
        return False
    between = clause.text[word.end:at]
    later = [w for w in clause.words if word.end <= w.start and w.end <= at and w.term is not None and not w.plain]
    return not later and not re.search(r"[,;:]", between) and len(between.split()) <= 3


def _last(atom: str) -> str:
    """A name's own last part: ``from_str`` of ``Level::from_str``, ``Exec`` of ``syscall.Exec``."""
    return re.split(r"::|\.", atom.rstrip("()"))[-1]


def _mentions(code: Code, name: str) -> bool:
    want = fold(name)
    return any(fold(atom) == want for atom in code.names)


#: A preposition right before a code term: "removes codes with the `_re` regex" makes it no subject.
_OBJECT_OF = re.compile(r"\b(?:with|by|from|via|using|through|into|in|on|of)\s+(?:the\s+|a\s+|its\s+)?"
                        r"(?:[\w-]+\s+)?`?$", re.I)


def _platform_call(atom: str) -> str | None:
    """``sort.Strings`` for a call the claim qualifies with a package of the platform (Go's standard
    library, Python's): it is that package's function, not any name spelled alike; None otherwise."""
    m = re.fullmatch(r"([a-z][a-z0-9]*)\.([A-Za-z_]\w*)(?:\(.*\))?", atom, re.S)
    if m is None or (m.group(1) not in GO_STD_QUALIFIERS and m.group(1) not in sys.stdlib_module_names):
        return None
    return f"{m.group(1)}.{m.group(2)}"


def _writes(code: Code, dotted: str) -> bool:
    """Whether the code (comments and docstrings removed) writes ``dotted`` as it is spelled."""
    pattern = re.compile(rf"(?<![\w$]){re.escape(dotted)}(?![\w$])")
    return any(pattern.search(code.logical_text(i)) for i in range(len(code.logical)))


def _reach(start: Sequence[Code], codes: Sequence[Code]) -> list[Code]:
    """``start`` and every anchored function it calls, and theirs."""
    seen = list(start)
    grew = True
    while grew:
        grew = False
        called = {fold(atom) for code in seen for atom in code.names}
        for code in codes:
            if code not in seen and code.leaf and fold(code.leaf) in called:
                seen.append(code)
                grew = True
    return seen


#: Verbs that name one operation, how code does it, and which files are read: "lowercases" is a
#: toLowerCase, lower, ToLower or casefold call; "sorts" a sort; Go's "panics" a panic( (Rust's panics
#: hide in unwrap, indexing and arithmetic); "throws" and "raises" a raise or throw statement, in the
#: languages that have one (Go returns errors, Rust panics).
_THROW_STATEMENT = re.compile(r"(?<![\w$.])(?:raise|throw)\b")


def _calls_one_of(names: tuple[str, ...]) -> Callable[[Code], bool]:
    """Whether a code names one of ``names`` (an identifier, or a part of one)."""
    return lambda code: any(named_one_of(atom, names) for atom in code.names)


def _throws(code: Code) -> bool:
    """Whether a code has a ``raise`` or ``throw`` statement."""
    return any(_THROW_STATEMENT.search(code.logical_text(i)) for i in range(len(code.logical)))


def _go(path: str) -> bool:
    """Go files only."""
    return path.endswith(".go")


def _with_exceptions(path: str) -> bool:
    """Files of languages that raise or throw (not Go's, not Rust's)."""
    return not path.endswith((".go", ".rs"))


_OPERATIONS: tuple[tuple[re.Pattern[str], Callable[[Code], bool], Callable[[str], bool] | None], ...] = (
    (re.compile(r"\blower[- ]?cases\b", re.I), _calls_one_of(LOWERING), None),
    (re.compile(r"\bupper[- ]?cases\b", re.I), _calls_one_of(UPPERING), None),
    (re.compile(r"\bsorts\b", re.I), _calls_one_of(("sort", "sorted")), None),
    (re.compile(r"\bpanics\b"), _calls_one_of(("panic",)), _go),
    (re.compile(r"\b(?:throws|raises)\b"), _throws, _with_exceptions),
)


def _operations(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"X lowercases ...", "X sorts ...", Go's "X panics", "X throws", ``X`` the code term right before
    the verb: X's code (and the anchored functions it calls) does nothing of that operation."""
    out: list[Contradiction] = []
    for verb, does, reads in _OPERATIONS:
        said = verb.search(clause.text)
        if said is None or _NEGATED.search(clause.text[:said.start()]) \
                or re.search(r"\b(?:if|when|whenever|unless|should)\b[^,]*$", clause.text[:said.start()], re.I):
            continue  # "never raises", "if f raises E, g retries": no statement of what f does
        lead = [w for w in clause.words if w.end <= said.start() and w.text.lower() not in _ADVERBS]
        if not lead or lead[-1].term is None or lead[-1].plain:
            continue  # "calling it twice panics": the runtime's panic, not a call the code makes
        pool = [code for code in codes if reads is None or reads(code.label.split("::", 1)[0])]
        subjects = [code for code in pool if code.leaf and fold(code.leaf) == fold(_last(lead[-1].atom))]
        if subjects and not any(does(code) for code in _reach(subjects, codes)):
            out.append(Contradiction("calls", f"the claim says {subjects[0].leaf} {said.group(0)}", "",
                                     subjects[0].label, (said.group(0),)))
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = _operations(clause, codes)
    for verb in _VERB.finditer(clause.text):
        lead = clause.text[:verb.start()]
        if _NEGATED.search(lead) or re.search(r"\b(?:if|when|unless)\b[^,]*$", lead, re.I):
            continue
        before = [w for w in clause.words if w.end <= verb.start()]
        if any(w.text.lower() in _READER for w in before):
            continue
        target = _object(clause, verb.end())
        if target is None or clause.skip(target.text, target.atom):
            continue
        if verb.group(0).lower() in _CALL_ONLY and (target.term is None or target.term.kind is not TermKind.CALL):
            continue
        name = _last(target.atom.strip("`'\"$").rstrip("!"))
        if len(name) < 3 or not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
            continue
        first = next((w for w in before if w.term is not None and not w.plain
                      and not _OBJECT_OF.search(clause.text[:w.start])), None)
        subjects = [code for code in codes if first is not None and code.leaf
                    and fold(code.leaf) == fold(_last(first.atom))]
        if verb.group(0).lower().startswith("fall") and (not subjects or name in _TYPE_NAMES
                                                         or not _right_before(clause, first, verb.start())):
            continue  # "a bad authority falls back to X", "falls back to the i64 path": no function named, no call
        if not subjects:
            if first is not None and not any(_mentions(code, _last(first.atom)) for code in codes):
                continue  # the subject is code no anchor holds
            named = {fold(n) for n in re.findall(r"[A-Za-z_$][\w$]*", target.text)}
            leaves = {fold(code.leaf) for code in codes}
            caller = first is not None or any(w.text[:1].isupper() and fold(w.text) not in leaves
                                              and any(_mentions(code, w.text) for code in codes) for w in before)
            if caller and any(fold(code.leaf) in named for code in codes):
                continue  # "Default for Map just calls Map::new()" of Map.new and Map.with_capacity: the caller
                #           named (a name of the code, a term or not) is neither anchor, and the callee is one
            subjects = [code for code in codes if fold(code.leaf) not in named]  # not the call's own names
        if not subjects or any(fold(code.leaf) == fold(name) for code in subjects):
            continue
        reach = _reach(subjects, codes)
        platform = _platform_call(target.text.strip("`'\"$"))
        # "calls sort.Strings" where the code only calls strings.Join: the package's call, not a name spelled alike
        if any(_writes(code, platform) if platform else _mentions(code, name) for code in reach):
            continue
        who = subjects[0].leaf if len(subjects) == 1 and subjects[0].leaf else "the anchored code"
        out.append(Contradiction(
            "calls", f"the claim says {who} {' '.join(verb.group(0).split())} `{target.original or target.text}`",
            "", ", ".join(code.label for code in subjects), (target.text,)))
    return out


RULE = Rule("calls", check, __doc__ or "")
