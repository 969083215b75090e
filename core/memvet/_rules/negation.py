"""negation: the claim says the code never does something; the code does it.

The claim's side, in a clause with no condition (no ``if``, ``when``,
``unless``, ``until``, ``while``, ``once``, ``except``, ``only``,
``by default``, ``otherwise``, ``instead``, a value's meaning: "false
means it didn't sleep"; "X is not closed when the
client is reused" may well be true of code that closes X elsewhere):

* ``never V X``, ``does not V X`` (``doesn't``, ``don't``, ``won't``,
  ``no longer``, ``cannot`` ...), active;
* ``X is never V-ed`` (``are not``, ``isn't``, ``was not``, ``gets never`` ...), passive;
* ``ignores X``, ``X is ignored``, read as "does not use X".

The code's side, by the verb:

* a verb of use (``use``, ``call``, ``invoke``, ``read``, ``consult``,
  ``access``, ``touch``, ``go through``, ``pass through``, ``rely on``,
  ``depend on``, ``look at``, ``check``, ``ignore``, ``care about``): ``X`` itself is the operand, and the code
  uses it outside its signature (``call`` and ``invoke``: calls it;
  ``check`` also: calls a function named for every word of a plain-word
  object, ``is_char_boundary`` for "doesn't check char boundaries");
* ``return`` with a literal object ("never returns false", "does not
  return None"): the code has ``return V`` itself, or as the last branch
  of a conditional it returns (``return hasPatch ? "patch" : null``,
  ``return a if b else None``); with a name of the
  code ("never returns errNegativeNotAllowed"): one of the values a
  ``return`` of the code gives is that name (``return 0,
  errNegativeNotAllowed``) or a value of it (``return
  Err(FromUtf16Error(()))``, ``return new Foo(x)``);
* a verb of definition (``define``, ``implement``, ``override``): the
  anchored class defines a member of that name itself (``def get(self, ...)``,
  ``clear(): void {``) for "does not define get/pop";
* an object written as a call (``UTC()``, ``os.fsync()``) after a verb
  of use: the code calls a function of that name, on any receiver; an
  option (``--access``) after one ("never passes `--access`"): the code
  writes that option as a string (``args.push("--access", "public")``);
* ``filter``, ``skip``, ``exclude``, ``drop`` ("doesn't filter bots"): an
  ``if`` of the code names the object (or its singular, in a name or a
  string: ``name.includes("[bot]")``) and its body only ``continue``s;
* a verb with no object, the clause ending right after it ("close() does
  not flush"; the verb may be written as the call it makes, "it never
  join()s"): the code calls a function of the verb's own name;
* "never panics": the code calls ``panic``, a macro named for it
  (``panic_oob!``) or one that panics by what it is for (``assert!``,
  ``unreachable!``, ``todo!``); said of the function's empty case
  ("slice_ref(&[]) never panics"), only when the code does not return on
  an empty value first (``if subset.is_empty() { return ... }``);
* "no sorting", "no lowercasing" (a verb's noun, bare): the code calls a
  function named for the verb (``sort()``, or its participle: Python's
  ``sorted()``, ``reversed()``), or for a change of case one that
  lowercases or uppercases (``toLocaleLowerCase()``);
* "has no build tags": the anchored Go file has a ``//go:build`` line;
* "isn't marked final", "is not decorated with ``@final``": the anchored
  definition carries that decorator, annotation or attribute (Java's
  ``final class`` too);
* a verb of changing case ("the bytes aren't lower-cased", "never
  uppercases"): the code calls one that does (``lower()``,
  ``toUpperCase()``); "no trimming of the prefix": a call named for the
  gerund on that object or passed it (``prefix.trim_end()``);
* "no warning (is issued)": the code calls ``warn`` (``warnings.warn``,
  ``console.warn``);
* "setting K=V does nothing" ("passing K has no effect", "makes no
  difference"): the code reads ``K`` (``!!env.TEST``);
* "has no nil check", "doesn't check for None": the code compares a
  value with ``nil``, ``None`` or ``null`` (``if err == nil``);
* "doesn't check anything", "no assertion on lengths", "doesn't validate
  its bounds", "no validation" (a check of nothing named): the code
  asserts (Rust's ``assert!``, ``assert_eq!``, ``debug_assert!``,
  Python's ``assert``, Node's ``assert(...)``);
* "no zero-length shortcut", "no empty special case", "no single-byte
  special case" (an edge size): the code tests for it (``is_empty()``, a
  comparison with 0, or with 1 for a single one, a ``0 =>`` or ``1 =>``
  match arm, a ``case 0:``);
* "no HEAD special-case", "HEAD isn't special-cased" ("isn't special",
  "isn't treated specially"), "doesn't
  special-case 'HEAD'", '"24bit" isn't recognised' (accepted, understood,
  honoured) (a value in capitals or quotes): the code compares
  a value with that literal (``req.method === 'HEAD'``); so does "HEAD
  is treated like any other method" ("copied over like any other key",
  "same as every other"), the value in capitals, quotes or written as
  code, with no ``if``, ``when``, ``unless`` or negation before it;
* "for every PM, deno included", "every candidate, including macroman",
  "any PM (npm/yarn too)" (a value counted in with all the others): the
  code compares a value with that literal (``name === "deno"``), which is
  how code singles one out;
* "(no `#![no_std]` attribute)", "plain `cargo clippy`, no `-D warnings`"
  (a piece of code more than a name, backticked, the clause going on with
  punctuation or a noun such as "attribute" or "flag", not under a
  condition): a line of the anchored code, a header too, writes it;
* "has no finished check", "without a `closed` guard" (a name): an ``if``
  of the code tests that name alone (``if (finished) return``);
* "isn't a daemon", "a non-daemon thread" (a flag's name, four letters at
  least): the code passes or sets it true (``daemon=True``, ``daemon:
  true``); a manifest's keys are left to the manifest readings;
* "is case-sensitive", "only matches lowercase names", "must be
  lowercase" (not negated): the code folds the case (a lowering or
  uppering call, ``strings.EqualFold``, ``eq_ignore_ascii_case``,
  ``re.IGNORECASE``);
* "doesn't guard compile()", "calls decodeURIComponent directly with no
  try/catch": every call of it in the code sits in a ``try`` block;
* "no path.Base trimming", "without a strings.TrimSpace call", and an
  aside naming the call alone, "(no SetIndent)", "(no sort.Search)" (a
  name shaped like code: dotted, or in camel or Pascal case; not "(no configure())",
  the reader's call left out): the code calls that function (on that
  receiver);
* any other verb ``V``: the code calls a function whose name starts with
  ``V`` (``set``/``setHeader``, ``close``, ``encodeUrl`` for "encode",
  ``removeHeader`` for "remove", ``_send_single_request`` for "send"), or
  for ``raise``/``throw`` raises, whose receiver or arguments name a word
  of ``X`` (``transport.close()`` for "transports are never closed",
  ``set('X-Content-Type-Options', ...)`` for "doesn't set
  X-Content-Type-Options"), or ``X`` is "anything".

"Nothing is raised", "no exception", "no error is thrown", "raises
nothing", "no panic" (the function fails in no way at all): the code has a
``raise``/``throw`` statement or a ``panic!``-like call anywhere (Rust's
``assert!``, ``assert_eq!`` and ``assert_ne!`` too, which panic in every
build; ``debug_assert!`` does only in debug builds). A bare
"no error" closing the clause ("just pushes fn to the end -- no error")
reads the same, except that a thrown ``TypeError`` (an argument refused
before the claim's case) does not count, a ``return`` of an error Go code
makes or names (``return errors.New("given output is nil")``, ``fmt.Errorf``,
``return nil, UnterminatedEscapeError``) does, and so does argparse's
``parser.error(msg)``, which exits the command with a usage error.
"No error" said of what the code is given ("the first hook result that has
no error") is not read, and a claim that names a failure of its own ("...
but an empty one throws") says it of its other case only. "Never fails"
("can't fail") reads as "no error" does, and a Rust error value counts too
(``Err(...)``, ``.map_err(...)``); "fails to X" and "fails spuriously" are
not read.

A subject written as code that names a member the anchored code defines
inside itself (a method of the anchored class, a nested function, an
object's function property: ``call: (x) => {``, ``async callAsync(x) {``)
is read against that member alone, with the bodies of the helpers of the
same code it calls: "callAsync doesn't go through checkConflict" says
nothing of ``call``, which does; "`ctx.set()` never throws" is read against
``set`` and the ``checkConflict`` it calls, which throws. An anchored
function the clause sets its subject against ("Unlike remove(),
pop_front()/pop_back() don't touch the free list", the three anchored) is
not read: what ``remove`` does, the claim says it does. A subject written as a name of code that is no
anchored symbol and no member of one ("NewParser itself doesn't look at registrations", ``Register`` and
``Parse`` anchored) is not read: the claim speaks of that function's own body, which no anchor shows.

Never fires on a verb with a prefix of manner or repetition ("never
auto-pongs", "never re-runs": the code's one pong or run is no
contradiction), in a relative clause of something indefinite ("a handler that
never calls WriteHeader is logged as 200", "any key which isn't cached":
what some caller or value does, not the anchored code), on "anything else
is ignored" (some values, named by what they are not: "anything else (e.g.
_method=GET)"), inside a message the claim quotes ("throws \"a default value
... is never used\""), on a value written in a list of them
("allow/deny/ignore"), on a conditional clause (an imperative and its outcome
too: "return true from it and onUpdate is never called"; an aside that sets
another subject against the claim's, "(only the read side does)", is no
condition), on ``not only``, on a verb the code
does not call, on "ignores X" where the code passes ``X`` to its calls
only as a constant (``f({ X: true })``: that is how code ignores the
caller's ``X``) or sets the field ``X`` to a constant after reading it
(``opts.ReplaceInPlace = false``), on a verb of use where every line that
names ``X`` declares it as a field of a type (``ReplaceInPlace bool`` in a
Go struct, ``strict?: boolean;``: a declaration does nothing with it), on
"ignores invalid X" (some values of ``X``: ``invalid``,
``unknown``, ``empty`` ...), on "ignores X" where a line of the code
names an ignore list and writes ``X`` in it (``ignore: ["**/node_modules",
...]``: the code's own list), on "ignoring X" where the code catches the
exception ``X`` and does nothing with it (``except AttributeError: pass``)
or drops what ``X`` gives ("an unlink failure is ignored" of Rust's ``let _ =
unlink(old_path)``),
or when the call names none of the object's words (generic words such as
"header" or "value" do not link a call to a claim).

Rationale: "never calls X", "ignores SETTING", "does not set Y" are the
false facts that survive term binding best: X, SETTING and Y are real, and
the claim is wrong only in its polarity. The call is positive evidence;
its absence never is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memvet._claims import TermKind, split_args
from memvet._rules._common import (
    GENERIC,
    LOWERING,
    STOP,
    UPPERING,
    Call,
    Clause,
    Code,
    Contradiction,
    Rule,
    Word,
    fixed_by_call,
    fold,
    member_header,
    named_one_of,
    object_tokens,
    object_words,
    overwritten,
    singulars,
    split_name,
    stems,
)

__all__ = ["RULE"]

_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|until|while|once|except|only|otherwise|instead|"
                        r"by default|in case|as long as|provided|(?:true|false|nil|null|none|zero|empty)\s+means)\b"
                        # "return true from it and onUpdate is never called": an imperative and its outcome
                        r"|^\W*(?:return|pass|set|give|throw|raise)\s[^;]*?\band\s", re.I)
#: A call written with an empty value, the subject of a clause: the function's empty case (``slice_ref(&[])``,
#: ``parse('')``, ``f(b"")``).
_EMPTY_CASE = re.compile(r"[\w$]\(\s*(?:&|b)?(?:\[\s*\]|\"\"|''|vec!\[\s*\])\s*\)")
#: A test for emptiness: ``is_empty()``, a length compared with 0, a comparison with an empty literal.
_EMPTINESS = re.compile(r"\bis_empty\(\)|\.len\(\)\s*==\s*0|\.length\s*===?\s*0|\blen\([^()]*\)\s*==\s*0"
                        r"|==\s*(?:\"\"|''|\[\s*\])|^\s*if\s+not\s+\w+\s*:")
#: An aside in parentheses that sets another subject against the claim's, no condition in it: "it doesn't
#: look at $XDG_CONFIG_HOME (only the read side does)" is said of every call.
_CONTRAST_ASIDE = re.compile(r"\((?![^()]*\b(?:if|when|whenever|unless|until|while|once|except|by default)\b)"
                             r"\s*only\b[^()]*\)", re.I)
_AUX = (r"never|no longer|doesn't|does not|don't|do not|won't|will not|cannot|can't|can not|didn't|did not|"
        r"wouldn't|would not|shouldn't|should not|must not")
_ACTIVE = re.compile(rf"\b(?:{_AUX})\s+(?:(?:ever|even|actually|itself|always|really)\s+)?(?P<verb>[A-Za-z][\w-]*)",
                     re.I)
#: A verb's prefix that says how or how often, not what: "never auto-pongs" (wsproto builds a Pong for the
#: caller to send), "never re-runs", "doesn't self-register".
_MANNER = re.compile(r"(?:auto|re|self)-", re.I)
_PASSIVE = re.compile(r"\b(?:(?:is|are|was|were|be|gets?|got)\s+(?:never|not|no longer)|isn't|aren't|wasn't|weren't)\s+"
                      r"(?:(?:ever|even|actually|itself|always|really)\s+)?(?P<verb>[A-Za-z][\w-]*)"
                      r"(?:\s+(?P<by>through|via|on|upon|at))?", re.I)
_IGNORES = re.compile(r"\b(?:ignores|ignore|ignoring|disregards?)\b", re.I)
_IGNORED = re.compile(r"\b(?:is|are|gets?|get|was|were)\s+(?:(?:simply|always|silently)\s+)?"
                      r"(?:ignored|disregarded|unused)\b", re.I)
#: Go's words for kinds of type: ``make(map[string]T)`` names no value a claim could say is used.
_GO_TYPE_WORDS = frozenset({"map", "chan", "struct", "interface", "func"})
_USE_VERBS = frozenset({"use", "call", "invoke", "read", "consult", "access", "touch", "go", "pass", "rely",
                        "depend", "ignore", "look", "check", "care"})
_CALL_VERBS = frozenset({"call", "invoke"})
#: Verbs of definition: "does not define/implement/override M" is about the class's own members.
_DEFINE_VERBS = frozenset({"define", "implement", "override", "overrid"})
#: The particle a verb of use needs ("goes through X", "relies on X"); a verb not listed needs none.
_NEEDS = {"go": ("through", "via"), "pass": ("through", "via"), "rely": ("on", "upon"), "depend": ("on", "upon"),
          "look": ("at",), "care": ("about",)}
_PREPOSITIONS = frozenset({"for", "with", "in", "on", "at", "from", "to", "by", "of", "into", "about", "after",
                           "before", "during", "per", "than", "like"})
_PARTICLES = frozenset({"through", "via", "on", "upon", "at", "into", "to", "up", "out", "over", "about"})
_ANYTHING = frozenset({"anything", "everything", "any", "nothing"})
#: Verbs that mean "not use": negated, they say the code uses the object ("never ignores X").
_NEGATIVE_VERBS = frozenset({"ignore", "skip", "drop", "omit", "discard", "lose", "reject", "refuse", "bypass",
                             "disregard", "exclude"})
#: A negation of the verb right after it ("does not ignore", "never really
#: ignores"), not one anywhere before it ("used bare (no parens) ignores").
_NEGATED = re.compile(rf"\b(?:{_AUX}|not|no)\b(?:\s+\w+){{0,2}}\s*$", re.I)
#: Nothing after a negated verb but the clause's end: "close() does not flush".
_INTRANSITIVE = re.compile(r"\s*(?:[.,;:!)\u2014-]|$)")
#: An object written as a call with no arguments: ``UTC()``, ``os.fsync()``.
_CALLED = re.compile(r"(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\(\)")
#: What "never returns V" may name: a literal the code can write after ``return``.
_RETURNED = re.compile(r"(?i:true|false|nil|null|none|undefined)|-?\d+")
#: A negation in a relative clause of something indefinite: "a handler that never calls X", "any key
#: which isn't cached": what some caller or value does, not what the anchored code does.
_SOME_ONE = re.compile(r"\b(?:[Aa]n?|[Aa]ny|[Ee]very|[Ee]ach)\s+[\w-]+\s+(?:that|which|who)\s*$")
_RAISE = re.compile(r"\b(?:raise|throw)\s+(?:new\s+)?(?P<x>[A-Za-z_$][\w$.]*)(?P<args>\([^)]*\))?")


def _named_calls(clause: Clause, verb: str) -> set[str]:
    """What the claim's own calls of ``verb`` name ("never reads the body ...;
    the caller must call response.read()": ``response``)."""
    out: set[str] = set()
    wanted = stems(verb)
    for term in clause.terms:
        if term.kind is not TermKind.CALL:
            continue
        callee = term.text[: term.text.index("(")]
        parts = split_name(callee.rsplit(".", 1)[-1])
        if parts and parts[0] in wanted:
            receiver = callee.rsplit(".", 1)[0] if "." in callee else ""
            out |= Call(callee.rsplit(".", 1)[-1], receiver, term.text[term.text.index("(") + 1:-1], -1).tokens()
    return out - {fold(w) for w in GENERIC}


def _does(code: Code, verb: str, objects: list[Word], clause: Clause, particle: str) -> str | None:
    """The line where the code does ``verb`` to the object, or None.

    ``objects`` are in order of distance from the verb; ``particle`` is the
    word after the verb ("through" in "goes through X"), if any.
    """
    base = stems(verb)
    if base & _DEFINE_VERBS:
        return _defines(code, objects)
    tokens = object_tokens(objects, clause)
    anything = any(w.text.lower() in _ANYTHING for w in objects)
    if base & _USE_VERBS:
        option = objects[0].text.strip("`'\"") if objects else ""
        if re.fullmatch(r"--?[A-Za-z][\w-]*", option) and option in code.strings:
            # "never passes `--access`" of `args.push("--access", "public")`: an option the code writes
            return next((code.show(i, option) for i in range(len(code.logical))
                         if re.search(rf"[\"'`]{re.escape(option)}[\"'`]", code.logical_text(i))), None)
        needs = next((_NEEDS[b] for b in base if b in _NEEDS), ())
        if needs and particle not in needs:
            return None
        for w in objects:  # the operand nearest the verb, before any preposition, is its object
            if w.text.lower() in _PREPOSITIONS:
                break
            written = _CALLED.fullmatch(w.text.strip("`"))
            if written:  # "doesn't call UTC()": the code calls a function of that name, on any receiver
                hit = next((c for c in code.calls if c.name == written.group(1)), None)
                return code.show(hit.line, hit.name) if hit is not None else None
            atom = code.resolve(w, clause.declared, parts=False)
            if not atom or w.text.lower() in GENERIC or (atom in _GO_TYPE_WORDS and code.label.split("::")[0]
                                                         .endswith(".go")):
                continue  # "doesn't touch the package-level map": Go's `map[string]T` is a type, no use of it
            if base & _CALL_VERBS:
                hit = next((c for c in code.calls if c.name == atom), None)
                return code.show(hit.line, hit.name) if hit is not None else None
            if code.declares_only(atom):
                return None  # "ReplaceInPlace is ignored" of `type Options struct { ReplaceInPlace bool }`
            return code.show(code.atoms[code.first(atom)].line, atom) if code.used(atom) else None
        if "check" in base:  # "doesn't check char boundaries": the code calls is_char_boundary(...)
            hit = _checked_by_call(code, objects)
            if hit is not None:
                return hit
        if "read" not in base:
            return None
    if "return" in base:
        named = [w for w in objects if w.text.lower() not in ("a", "an", "the", "any")][:1]  # "never returns a E"
        said = named[0].text.strip("`") if named else ""
        if re.fullmatch(r"[A-Za-z_$][\w$]*", said) and not _RETURNED.fullmatch(said) and said in code.names \
                and said.lower() not in GENERIC:
            # "never returns errNegativeNotAllowed" for `return 0, errNegativeNotAllowed`: a value it returns
            for index in range(len(code.logical)):
                m = re.search(r"(?:^\s*|[;{)]\s*|\belse\s+)return\s+(.+?);?\s*$", code.logical_text(index))
                if m and said in (_unwrapped(item) for item in split_args(m.group(1))):  # `if (x) return new E()`
                    return code.show(index, said)
            return None
        if not _RETURNED.fullmatch(said):
            return None
        # `return said`, or a conditional's last branch: `return hasPatch ? "patch" : null`, `return a if b else None`
        wanted = re.compile(rf"\breturn\s+(?:[^;]*?(?::|\belse)\s+)?{re.escape(said)}\s*(?:;|$)",
                            0 if said[:1].isdigit() else re.I)
        for index in range(len(code.logical)):
            m = wanted.search(code.logical_text(index))
            if m:
                return code.show(index, m.group(0).rstrip("; "))
        return None
    if base & {"raise", "throw"}:
        for index in range(len(code.logical)):
            text = code.logical_text(index)
            for m in _RAISE.finditer(text):
                if anything or not objects or fold(m.group("x").rsplit(".", 1)[-1]) in tokens:
                    return code.show(index, m.group(0))  # ("X never raises", no object: any raise of X's)
        return None
    cased = _case_change(verb)
    if cased:  # "the bytes aren't lower-cased": the code calls lower(), toLowerCase(), casefold() ...
        hit = next((c for c in code.calls if named_one_of(c.name, cased)), None)
        return code.show(hit.line, hit.name) if hit is not None else None
    tokens |= _named_calls(clause, verb)
    if not objects and "panic" in base:  # "try_insert never panics": panic!, a macro that wraps it, an assert!
        hit = next((c for c in code.calls if "panic" in c.name.lower() or c.name in _PANICKING), None)
        if hit is not None and not _empty_case_returns(clause, verb, code, hit.line):
            return code.show(hit.line, hit.name)
    if not objects:  # "close() does not flush": the verb is the call, by its own name
        named = {fold(b) for b in base}
        hit = next((c for c in code.calls if fold(c.name) in named), None)
        return code.show(hit.line, hit.name + "(", hit.name) if hit is not None else None
    if not tokens and not anything:
        return None
    if base & _SKIP_VERBS:
        skipped = _skipped(code, objects)
        if skipped is not None:
            return skipped
    calls = sorted(code.calls_named(verb), key=lambda c: -len(tokens & c.tokens()))  # the best-named first
    for call in calls:
        if anything or tokens & call.tokens():
            return code.show(call.line, call.name + "(", call.name)
    return None


#: Verbs of leaving things out, which a loop does by going on with the next one.
_SKIP_VERBS = frozenset({"filter", "skip", "exclude", "drop"})


def _skipped(code: Code, objects: Sequence[Word]) -> str | None:
    """The line of a loop's guard that leaves the claim's object out ("doesn't filter bots" of ``if (!name ||
    name.includes("[bot]")) { continue; }``): an ``if`` naming the object (its singular too, in a name or a
    string) whose body only goes on with the next one; None when there is none."""
    words = {x for w in objects[:1] if w.text.isalpha() and len(w.text) >= 3
             for x in (w.text.lower(), *singulars(w.text.lower()))}
    if not words:
        return None
    named = re.compile(rf"(?i)(?<![a-z]){'|'.join(map(re.escape, sorted(words)))}(?![a-z])")
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        guard = re.match(r"(?:\}\s*)?(?:if|elif|else\s+if)\b", text)
        if guard is None or not named.search(text):
            continue
        body = code.body(index)
        inline = re.search(r"\)\s*continue\s*;?\s*$|:\s*continue\s*$", text)
        if body == ["continue"] or (not body and inline):
            return code.show(index, text.strip())
    return None


def _empty_case_returns(clause: Clause, verb: str, code: Code, line: int) -> bool:
    """Whether the clause says it of the function's empty case ("slice_ref(&[]) never panics") and the code
    returns early on an empty value before ``line`` (``if subset.is_empty() { return Bytes::new(); }``)."""
    if not _EMPTY_CASE.search(clause.text[:clause.text.find(verb)]):
        return False
    for index in range(min(line, len(code.logical))):
        text = code.logical_text(index)
        if (re.match(r"\s*(?:\}\s*)?(?:else\s+)?if\b", text) and _EMPTINESS.search(text) and any(
                re.match(r"\s*return\b", code.logical_text(j)) for j in [index, *code.block(index)][:3])) \
                or (re.search(r"\breturn\b", text) and _EMPTINESS.search(text)):
            return True
    return False


#: What wraps a returned value: Rust's ``Err(``/``Ok(``/``Some(``/``Box::new(``, JavaScript's ``new``, a reference.
_WRAPPER = re.compile(r"(?:(?:Err|Ok|Some|Box::new|Arc::new|Rc::new)\(|new\s+|&)")


def _unwrapped(item: str) -> str:
    """The value a returned expression gives, by name: ``FromUtf16Error`` of
    ``Err(FromUtf16Error(()))``, ``Foo`` of ``new Foo(x)`` or ``Foo{}``; the
    expression itself when it is no such value."""
    item = item.strip()
    while (m := _WRAPPER.match(item)) is not None:
        item = item[m.end():].strip()
        if m.group(0).endswith("(") and item.endswith(")"):
            item = item[:-1].strip()
    head = re.match(r"[A-Za-z_$][\w$]*(?:::[A-Za-z_$][\w$]*)*", item)
    if head and (head.end() == len(item) or item[head.end()] in "({"):
        return head.group(0)
    return item


def _case_change(verb: str) -> tuple[str, ...]:
    """The names of the calls that do what a verb of changing case says ("lower-cased",
    "lowercases", "downcase"); empty for any other verb."""
    v = verb.lower().replace("-", "")
    if v.startswith(("lowercase", "downcase")):
        return LOWERING
    return UPPERING if v.startswith(("uppercase", "upcase")) else ()


def _defines(code: Code, objects: list[Word]) -> str | None:
    """The header of a member the anchored code defines under a name of the
    object ("doesn't define get/pop" against ``def get(self, key, ...)``), or None."""
    for w in objects[:1]:
        for name in re.split(r"[/,]", w.text.strip("`").removesuffix("()")):
            name = name.strip().rsplit(".", 1)[-1]
            if not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
                continue
            header = member_header(name)
            for line in code.physical:
                if header.search(line):
                    return " ".join(line.split())[:120]
    return None


def _negations(clause: Clause) -> list[tuple[str, list[Word], str, str]]:
    """(verb, object words nearest first, what the claim said, particle) for each negation of the clause."""
    if _CONDITION.search(_CONTRAST_ASIDE.sub("", clause.text)):
        return []
    out = []
    for m in _ACTIVE.finditer(clause.text):
        verb = m.group("verb")
        if verb.lower() in ("only", "just", "merely", "be", "been", "have", "has", "always"):
            continue
        if stems(verb) & _NEGATIVE_VERBS:
            continue  # "never ignores X": a double negation says the code uses X
        if _MANNER.match(verb):
            continue  # "never auto-pongs", "never re-runs": one pong or run in the code says nothing against it
        prefix = clause.text[:m.start()]
        if re.search(r"\b(?:is|are|was|were|be|gets?|got)\s*$", prefix, re.I):
            continue  # passive: read below
        if _SOME_ONE.search(prefix):
            continue  # "a handler that never calls WriteHeader is logged as 200": some caller, not the code
        after = m.end("verb")
        called = re.match(r"\(\)(?:e?s|e?d|ing)?(?![\w(])", clause.text[after:])
        if called:
            after += called.end()  # "never join()s": the verb written as the call it makes
        particle = ""
        nxt = re.match(r"\s+(\w+)(?![\w.(])", clause.text[after:])  # `out.flags.unset_all()` is no particle
        if nxt and nxt.group(1).lower() in _PARTICLES:
            particle = nxt.group(1).lower()
            after += nxt.end()
        out.append((verb, object_words(clause, after, 1), clause.text[m.start():after].strip(), particle))
    for m in _PASSIVE.finditer(clause.text):
        if stems(m.group("verb")) & _NEGATIVE_VERBS or _SOME_ONE.search(clause.text[:m.start()]):
            continue  # "never ignored" says it is used; "a key that isn't cached": some key, not the code
        subject = object_words(clause, m.start(), -1)  # in reading order
        if _placed(subject):
            continue  # "anything after it in the tag is never looked at": some things, named by where they are
        particle = m.group("by") or ""
        out.append((m.group("verb"), subject[::-1],
                    clause.text[m.start():m.end("verb")].strip(), particle))
    for m in _IGNORES.finditer(clause.text):
        before = clause.text[:m.start()]
        if "/" in clause.text[max(0, m.start() - 1):m.end() + 1]:
            continue  # allow/deny/ignore: a value among others, no verb
        if not re.search(r"\b(?:is|are|was|were|be)\s*$", before, re.I) and not _NEGATED.search(before):
            out.append(("use", object_words(clause, m.end(), 1), m.group(0), ""))
    for m in _IGNORED.finditer(clause.text):
        if re.search(r"\b(?:not|never)\s*$", clause.text[:m.start()] + " " + m.group(0).split()[0], re.I):
            continue
        subject = object_words(clause, m.start(), -1)
        if not _placed(subject):  # "anything after a `**` segment is ignored": not the segment
            out.append(("use", subject[::-1], m.group(0), ""))
    return out


def _ignore_listed(code: Code, objects: Sequence[Word]) -> bool:
    """Whether a line of the code names an ignore list (``ignore:``, ``IGNORED =``, ``ignorePatterns``) and
    writes the claim's first object in it: ``ignore: ["**/node_modules", "**/.git"]``."""
    said = objects[0].text.strip("`'\"") if objects else ""
    return len(said) >= 2 and any(
        said in (text := code.logical_text(i)) and re.search(r"(?i)[A-Za-z_$]*ignor[\w$]*\s*[:=]", text)
        for i in range(len(code.logical)))


def _placed(subject: Sequence[Word]) -> bool:
    """Whether a passive's subject (in reading order) is "anything" named by where it is or by what
    it is not: "anything after it in the tag", "everything past the first `;`", "anything else (e.g.
    _method=GET)"."""
    return len(subject) > 1 and subject[0].text.lower() in _ANYTHING \
        and subject[1].text.lower() in _PREPOSITIONS | {"after", "before", "past", "beyond", "else"}


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for verb, objects, said, particle in _negations(clause):
        at = clause.text.find(said)
        bare = not objects and _INTRANSITIVE.match(clause.text, at + len(said)) is not None
        if (not objects and not bare) or clause.skip(*(w.text for w in objects)) or clause.quoted(at):
            continue
        span = sorted(objects, key=lambda w: w.start)
        named = clause.text[span[0].start:span[-1].end].split(" (", 1)[0] if span else ""  # not the aside
        ignores = bool(_IGNORES.fullmatch(said) or _IGNORED.fullmatch(said))
        if said.lower() == "ignore" and any("ignore" in code.names for code in codes):
            continue  # "ignore as string[] needs path.matchesGlob": the code's option `ignore`, named, no verb
        for code in _subject_codes(clause, codes):
            if ignores and any((atom := code.resolve(w, clause.declared, parts=False))
                               and (fixed_by_call(code, atom) is not None or overwritten(code, atom) is not None)
                               for w in objects[:1]):
                continue  # f({ X: true }), `opts.X = false`: the code fixes X itself, how it ignores the caller's X
            if ignores and any(w.text.lower() in _SOME_VALUES for w in objects):
                continue  # "invalid Expires is ignored": some values of X are, not X
            if ignores and any(_swallowed(code, w.atom) for w in objects):
                continue  # "ignoring AttributeError" of `except AttributeError: pass`: the code does ignore it
            if ignores and _ignore_listed(code, objects):
                continue  # "ignores `**/node_modules`" of `ignore: ["**/node_modules", ...]`: the code's own list
            part = _subject_member(clause, at, code)
            if part is None and not _BY_ITS_OBJECT.match(said) and _other_subject(clause, at, codes):
                continue  # "NewParser itself doesn't look at registrations", NewParser not anchored: its own body
            if bare and stems(verb) & {"raise", "throw"} and part is None and not _subject_is(clause, at, code):
                continue  # "`schema.validate(data)` doesn't raise" read against the anchored _do_load: not its subject
            line = _does(part or code, verb, objects, clause, particle)
            if line is not None:
                out.append(Contradiction(
                    "negation", f"the claim says `{said}` of `{named}`" if named else f"the claim says `{said}`",
                    line, code.label,
                    tuple(w.text for w in objects)))
    out.extend(_nil_checks(clause, codes))
    out.extend(_no_assertion(clause, codes))
    out.extend(_nothing_raised(clause, codes))
    out.extend(_no_error(clause, codes))
    out.extend(_never_fails(clause, codes))
    out.extend(_flag_checks(clause, codes))
    out.extend(_not_flagged(clause, codes))
    out.extend(_case_sensitive(clause, codes))
    out.extend(_unguarded(clause, codes))
    out.extend(_no_call(clause, codes))
    out.extend(_no_gerund(clause, codes))
    out.extend(_no_goroutine(clause, codes))
    out.extend(_no_special_case(clause, codes))
    out.extend(_no_edge_case(clause, codes))
    out.extend(_like_any_other(clause, codes))
    out.extend(_included(clause, codes))
    out.extend(_no_code(clause, codes))
    out.extend(_no_build_tags(clause, codes))
    out.extend(_not_marked(clause, codes))
    out.extend(_no_warning(clause, codes))
    out.extend(_no_effect(clause, codes))
    return out


#: "Setting TEST=1 does nothing", "passing timeout=0 has no effect": a setting the claim says changes nothing.
_NO_EFFECT = re.compile(r"\b(?:[Ss]etting|[Pp]assing|[Ee]xporting)\s+`?(?P<k>[A-Za-z_$][\w$.]*)(?:=[^\s`]*)?`?"
                        r"(?:\s+\w+){0,3}?\s+(?:does\s+nothing|has\s+no\s+effect|makes\s+no\s+difference"
                        r"|changes\s+nothing)\b")


def _no_effect(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"Setting TEST=1 does nothing": the anchored code reads that setting (``!!env.TEST``,
    ``options.timeout``), so setting it is what the code looks at."""
    m = _NO_EFFECT.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text) or clause.skip(m.group("k")):
        return []
    name = m.group("k").rsplit(".", 1)[-1]
    for code in codes:
        if code.used(name):
            line = code.show(code.atoms[code.first(name)].line, name)
            return [Contradiction("negation", f"the claim says `{m.group(0)}`", line, code.label, (name,))]
    return []


#: "no warning is issued", "without a deprecation warning": the code warns nobody.
_NO_WARNING = re.compile(r"\b(?:[Nn]o|[Ww]ithout(?:\s+an?|\s+any)?)\s+(?:[a-z]+\s+)?warnings?\b"
                         r"(?!\s+(?:filters?|category|class|type)\b)")


def _no_warning(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"transitional=True is honoured; no warning is issued": the anchored code calls ``warn``
    (``warnings.warn(...)``, ``console.warn(...)``, Rust's ``warn!``)."""
    m = _NO_WARNING.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text):
        return []
    off = set(_TURNED_OFF.findall(clause.claim or clause.text))
    return _first_call(m, codes, lambda code: next((c for c in code.calls if c.name in ("warn", "warning")
                                                    and not _guarded_by(code, c.line, off)), None))


#: A setting the claim turns off: "passes warn_on_mock_enter=False", "`{ strict: false }`".
_TURNED_OFF = re.compile(r"(?<![\w$.])([A-Za-z_][\w$]*)\s*[=:]\s*(?:False|false|None|null|0)(?![\w$.])")


def _guarded_by(code: Code, index: int, names: set[str]) -> bool:
    """Whether logical line ``index`` of ``code`` runs only under an ``if`` that tests one of ``names``
    as it is, alone or as one side of an ``and`` (``if hasattr(m, "__enter__") and warn_on_mock_enter:``):
    with the claim's setting off, that line is not reached ("passes warn_on_mock_enter=False ..., so no
    warning")."""
    if not names:
        return False
    indent = code.indent(index)
    for j in range(index - 1, -1, -1):
        if code.indent(j) >= indent or not code.logical_text(j).strip():
            continue
        indent = code.indent(j)
        test = re.match(r"\s*(?:if|elif|else\s+if)\b\s*(.*?)\s*[:{]?\s*$", code.logical_text(j))
        sides = re.split(r"\s+and\s+|\s*&&\s*", test.group(1).strip("() ")) if test else []
        if any(re.fullmatch(r"\(?\s*(?:self\.|this\.)?([A-Za-z_][\w$]*)\s*\)?", side) and
               re.sub(r"^\(?\s*(?:self\.|this\.)?|\s*\)?$", "", side) in names for side in sides):
            return True
    return False


def _first_call(m: re.Match[str], codes: Sequence[Code], pick: Callable[[Code], Call | None]) -> list[Contradiction]:
    """The finding for the negation at ``m``: the first anchored code in which ``pick`` finds a call."""
    for code in codes:
        hit = pick(code)
        if hit is not None:
            return [Contradiction("negation", f"the claim says `{m.group(0)}`", code.show(hit.line, hit.name),
                                  code.label, ())]
    return []


#: "Timeout isn't marked final", "is not decorated with `@final`": a decorator, annotation or attribute.
_NOT_MARKED = re.compile(r"\b(?:is|are)(?:\s+not|n't|\s+never)\s+(?:marked|decorated|annotated)\s+(?:as\s+|with\s+)?"
                         r"(?:an?\s+)?[`@#\[]*(?P<x>[A-Za-z_][\w.]*)", re.I)


def _not_marked(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"Timeout isn't marked final": the anchored definition carries that decorator, annotation
    (``@final``, ``@typing.final``) or Rust attribute (``#[non_exhaustive]``), or Java's keyword
    (``public final class``)."""
    m = _NOT_MARKED.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text):
        return []
    x = re.escape(m.group("x"))
    mark = re.compile(rf"^(?:@(?:[\w.]+\.)?{x}\b|#\[{x}\b)|^(?:\w+\s+)*{x}\s+(?:\w+\s+)*(?:class|interface)\b")
    for code in codes:
        for index in sorted(code.headers) or range(min(1, len(code.logical))):
            if mark.search(code.logical_text(index)):
                return [Contradiction("negation", f"the claim says `{m.group(0)}`", code.show(index), code.label,
                                      (m.group("x"),))]
    return []


#: "has no build tags", "without any build constraint": a file compiled everywhere.
_NO_BUILD_TAGS = re.compile(r"\b(?:no|without(?:\s+an?|\s+any)?)\s+build\s+(?:tags?|constraints?)\b", re.I)


def _no_build_tags(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"go113.go has no build tags": the anchored Go file has a ``//go:build`` (or ``// +build``) line."""
    m = _NO_BUILD_TAGS.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text):
        return []
    for code in codes:
        if code.directives:
            return [Contradiction("negation", f"the claim says `{m.group(0)}`", code.directives[0], code.label,
                                  (m.group(0),))]
    return []


def _checked_by_call(code: Code, objects: list[Word]) -> str | None:
    """The line where the code calls a function named for what the claim says
    it does not check: every word of the object (two or more, before any
    preposition) a part of the callee's name (``is_char_boundary`` for "char
    boundaries", ``isValidHeaderName`` for "valid header names")."""
    words = []
    for w in objects:
        if w.text.lower() in _PREPOSITIONS or not w.plain:
            break
        words.append(w.text.lower())
    if len(words) < 2:
        return None
    for call in code.calls:
        parts = set(split_name(call.name))
        if all(any(form in parts for form in (word, *singulars(word))) for word in words):
            return code.show(call.line, call.name)
    return None


#: Rust's macros that panic by what they are for (``debug_assert!`` only in debug builds: left out).
_PANICKING = frozenset({"unreachable", "unimplemented", "todo", "assert", "assert_eq", "assert_ne"})


#: Words that pick some values out of what is ignored ("invalid Expires is ignored", "ignores unknown keys").
_SOME_VALUES = frozenset({"invalid", "malformed", "bad", "unknown", "unrecognized", "unrecognised", "unsupported",
                          "empty", "extra", "duplicate", "duplicated", "unparseable", "unparsable", "garbage",
                          "stray", "trailing", "leading", "blank", "bogus", "illegal", "wrong"})


def _swallowed(code: Code, name: str) -> bool:
    """Whether the code catches the exception ``name`` and does nothing with it
    (``except AttributeError: pass``, ``catch (err) {}``), or drops what a call
    of that name gives (Rust's ``let _ = unlink(path)``, Go's ``_ = f.Close()``)."""
    for i in range(len(code.logical)):
        text = code.logical_text(i)
        if re.match(rf"\s*(?:let\s+)?_\s*=\s*[^;=]*(?<![\w$]){re.escape(name)}\s*\(", text):
            return True
        if not re.search(rf"\b(?:except|catch)\b[^:{{]*(?<![\w$.]){re.escape(name)}(?![\w$])", text) and not (
                re.search(r"\bcatch\b", text) and name in ("error", "exception", "errors", "exceptions")):
            continue
        if re.search(r"(?::|\{)\s*(?:pass|continue|\})\s*$", text) or (
                i + 1 < len(code.logical) and re.fullmatch(r"\s*(?:pass|continue|\.\.\.|\})\s*",
                                                          code.logical_text(i + 1))):
            return True
    return False


#: "no path.Base trimming", "without a strings.TrimSpace call", "no `UTC()` conversion", "no setImmediate
#: involved": a call named as a noun (a name of one word only when shaped like code: ``setImmediate``).
_NO_CALL = re.compile(r"\b(?:no|without(?:\s+an?|\s+any)?)\s+`?"
                      r"(?P<call>(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*|[A-Za-z_]\w*\(\)|[a-z_$][a-z\d$]*(?:[A-Z_][\w$]*)+)`?"
                      r"\s+(?:\w+ing|calls?|step|involved)\b"
                      # "writes compact JSON (no SetIndent)", "(no sort.Search)": an aside naming the call alone,
                      # Go's PascalCase or dotted ("(no configure())" is the reader's call left out, not the code's)
                      r"|\(\s*(?:no|without(?:\s+an?|\s+any)?)\s+`?(?P<aside>(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*"
                      r"|(?:[a-z_$][a-z\d$]*|[A-Z][a-z\d]+)(?:[A-Z_][\w$]*)+)`?\s*\)")
#: "no sorting, just a join": a verb's noun, bare (no object after it), that the code does by a call.
_NO_GERUND = re.compile(r"\b(?:no|without(?:\s+any)?)\s+(?P<g>[a-z]{3,}ing)\b(?=\s*(?:[,;:.)\u2014]|-\s|$)"
                        r"|\s+of\s+(?:the\s+|its\s+)?(?P<o>[A-Za-z_]\w*)\s*(?:[,;:.)\u2014]|-\s|$))")


def _no_call(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"prints the full path (no path.Base trimming)": the code calls that function on that receiver."""
    m = _NO_CALL.search(clause.text)
    called = (m.group("call") or m.group("aside")) if m else ""
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text) or clause.skip(called):
        return []
    *receiver, name = called.removesuffix("()").split(".")
    said = m.group(0) if m.group("call") else f"no {called}"
    for code in codes:
        for call in code.calls:
            if call.name == name and (not receiver or call.receiver.split(".")[-1:] == receiver[-1:]):
                return [Contradiction("negation", f"the claim says `{said}`", code.show(call.line, name), code.label,
                                      (called,))]
    return []


def _no_gerund(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"no sorting, just a join(', ')": the code calls a function named for the verb (``sort()``);
    "no lowercasing": one that changes case (``toLocaleLowerCase()``); "no trimming of the prefix": such a
    call on the object named, or with it (``prefix.trim_end()``)."""
    m = _NO_GERUND.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text):
        return []
    cased = {"lowercasing": LOWERING, "uppercasing": UPPERING}.get(m.group("g"), ())
    of = fold(m.group("o") or "")  # "no trimming of the prefix": a call on the prefix, or passed it
    # Python's sorted() and reversed(): the verb's participle is the function
    participles = {f"{s}ed" for s in stems(m.group("g")) if not s.endswith("e")}
    off = set(_TURNED_OFF.findall(clause.claim or clause.text))
    return _first_call(m, codes, lambda code: next(
        (c for c in (code.calls if cased else [*code.calls_named(m.group("g")),
                                               *(c for c in code.calls if c.name in participles)])
         if (named_one_of(c.name, cased) if cased else len(c.name) >= 3) and (not of or of in c.tokens())
         and not _guarded_by(code, c.line, off)), None))


#: "no goroutine", "without a goroutine", "never spawns a goroutine": the code runs nothing concurrently.
_NO_GOROUTINE = re.compile(r"\b(?:no|without(?:\s+an?|\s+any)?|never\s+(?:spawns?|starts?|uses?|launch(?:es)?)"
                           r"(?:\s+an?|\s+any)?)\s+(?:new\s+|separate\s+|extra\s+)?goroutines?\b", re.I)
#: A Go ``go`` statement: ``go t.fn()``, ``go func() { ... }()``.
_GO_STATEMENT = re.compile(r"(?:^|[{;]\s*)go\s+(?:func\b|[A-Za-z_][\w.]*\s*\()")


def _no_goroutine(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"AfterFunc callbacks run inline (no goroutine)": the anchored Go code starts one (``go t.fn()``)."""
    m = _NO_GOROUTINE.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text) or "=>" in clause.text:
        return []
    hit = _first_line(codes, _GO_STATEMENT)
    if hit is None:
        return []
    code, index = hit
    return [Contradiction("negation", f"the claim says `{m.group(0)}`", code.show(index, "go "), code.label, ())]


def _first_line(codes: Sequence[Code], pattern: re.Pattern[str],
                unless: re.Pattern[str] | None = None, *, headers: bool = False) -> tuple[Code, int] | None:
    """The first logical line outside signatures (``headers``: or one of them), in any of ``codes``,
    that ``pattern`` finds (and ``unless``, when given, does not)."""
    for code in codes:
        for index in range(len(code.logical)):
            text = code.logical_text(index)
            if (headers or index not in code.headers) and pattern.search(text) \
                    and not (unless and unless.search(text)):
                return code, index
    return None


#: What follows the value: "isn't special-cased", "aren't recognised", "is not treated specially".
_NOT_SPECIAL_TAIL = (r"\s+(?:is|are)(?:\s+not|n't)\s+(?:\w+\s+)?(?:special(?:[- ]?cased)?"
                     r"|(?:treated|handled)\s+specially|recogni[sz]ed|accepted|understood|honou?red)\b")
#: "No HEAD special-case", "no 'route' check", "HEAD isn't special-cased" ("isn't special", "isn't treated
#: specially"), "doesn't special-case 'HEAD'", '"24bit"
#: isn't recognised" (accepted, understood, honoured): a value the claim says the code never tells apart.
_SPECIAL_VALUE = r"(?P<v>[A-Z][A-Z\d_-]+|'[^'\n]+'|\"[^\"\n]+\"|`[^`\n]+`)"
_NO_SPECIAL_CASE = re.compile(rf"\b(?:[Nn]o|[Ww]ithout(?:\s+an?|\s+any)?)\s+{_SPECIAL_VALUE}"
                              r"\s+(?:special[- ]?cases?|special[- ]?casing|check|handling|branch)\b"
                              # "HEAD isn't special-cased", "doesn't special-case 'HEAD'"
                              rf"|(?<![\w.]){_SPECIAL_VALUE.replace('<v>', '<w>')}(?:\s+\w+)?{_NOT_SPECIAL_TAIL}"
                              r"|\b(?:does(?:\s+not|n't)|never)\s+special[- ]?cases?\s+"
                              rf"{_SPECIAL_VALUE.replace('<v>', '<u>')}")


#: What follows a value written as code in "`--` isn't special".
_NOT_SPECIAL = re.compile(_NOT_SPECIAL_TAIL)


def _no_special_case(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"No HEAD special-case in send()": the code compares a value with that one (``req.method === 'HEAD'``)."""
    m = _NO_SPECIAL_CASE.search(clause.text)
    if _CONDITION.search(clause.text):
        return []
    if m is not None:
        said = m.group("v") or m.group("w") or m.group("u")
    else:  # "`--` isn't special": a value the claim writes as code (its backticks gone from the clause's text)
        said = ""
        for t in clause.terms:
            at = clause.text.find(t.text)
            m = _NOT_SPECIAL.match(clause.text, at + len(t.text)) if t.kind is TermKind.CODE and at >= 0 else None
            if m is not None:
                said = t.text
                break
        if not said or m is None:
            return []
    hit = _compared(codes, said)
    if hit is None:
        return []
    code, index = hit
    shown = m.group(0) if m.re is _NO_SPECIAL_CASE else f"{said}{m.group(0)}"
    return [Contradiction("negation", f"the claim says `{shown.strip()}`", code.show(index, said), code.label, ())]


#: "no zero-length shortcut", "no single-byte special case": the claim says the code treats an edge size like
#: any other.
_NO_EDGE_CASE = re.compile(r"\b(?:[Nn]o|[Ww]ithout(?:\s+an?|\s+any)?)\s+(?P<e>zero(?:-[a-z]+)?|empty"
                           r"|single(?:-byte|-char(?:acter)?|-element)?|one-byte)\s+"
                           r"(?:special[- ]?cases?|special[- ]?casing|shortcut|fast[- ]path|check)\b")
#: What tests for the edge: a comparison with 0 (or 1 for a single one), ``is_empty()``, a match arm or case of it.
_EDGE_TEST = {
    # `n > 0` tests for emptiness too; `n < 0` for a sign, another edge
    "0": re.compile(r"\bis_empty\(\)|(?:[=!]==?|>|<=)\s*0(?![\w.])|(?<![\w.])0\s*(?:[=!]==?|<(?!<)|>=)(?!=)"
                    r"|^\s*0\s*=>|\bcase\s+0\s*:"),
    "1": re.compile(r"[=!]==?\s*1(?![\w.])|(?<![\w.])1\s*[=!]==?|^\s*1\s*=>|\bcase\s+1\s*:"),
}


def _no_edge_case(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"fill_uninit always calls into the backend - there's no zero-length shortcut": the code tests for that
    size (``if !dest.is_empty()``, ``if n == 0``, a ``1 =>`` arm for "no single-byte special case")."""
    m = _NO_EDGE_CASE.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text):
        return []
    edge = "1" if m.group("e").startswith(("single", "one")) else "0"
    hit = _first_line(codes, _EDGE_TEST[edge])
    if hit is None:
        return []
    code, index = hit
    return [Contradiction("negation", f"the claim says `{m.group(0)}`", code.show(index, edge), code.label, ())]


def _compared(codes: Sequence[Code], said: str) -> tuple[Code, int] | None:
    """The first line of ``codes`` comparing a value with the literal ``said`` (quotes aside):
    ``req.method === 'HEAD'``, ``case "HEAD":``."""
    value = re.escape(said.strip("'\"`"))
    literal = rf"""(['"]){value}\1"""
    return _first_line(codes, re.compile(rf"(?:[=!]==?|\bcase)\s*{literal}|{literal}\s*[=!]==?"))


#: "HEAD is treated like any other method", "a `constructor` key is copied over like any other key".
_LIKE_ANY_OTHER = re.compile(r"\b(?:just\s+)?(?:like|same\s+as|as\s+with)\s+(?:any|every|all)\s+others?\b")
_SPECIAL = re.compile(_SPECIAL_VALUE.replace("<v>", "<x>"))


def _like_any_other(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"HEAD is treated like any other method": the code compares a value with the one named before
    (a value in capitals or quotes, or a name the claim writes as code) (``req.method !== 'HEAD'``)."""
    m = _LIKE_ANY_OTHER.search(clause.text)
    if m is None:
        return []
    before = clause.text[:m.start()]
    if re.search(r"\b(?:if|when|whenever|unless|not|never|isn't|aren't|no\s+longer)\b", before, re.I):
        return []  # "isn't treated like any other": it is special-cased, as the code says
    terms = {t.text for t in clause.terms}
    found = [v.group("x") for v in _SPECIAL.finditer(before)]
    found += [w.text for w in clause.words if w.end <= m.start() and w.text in terms
              and re.fullmatch(r"[A-Za-z_$][\w$-]*", w.text)]
    said = max(found, key=lambda v: before.rfind(v), default="")
    if not said or clause.skip(said.strip("'\"`")):
        return []
    hit = _compared(codes, said)
    if hit is None:
        return []
    code, index = hit
    return [Contradiction("negation", f"the claim says `{said}` is handled `{m.group(0)}`", code.show(index, said),
                          code.label, ())]


#: "(no `#![no_std]` attribute)", "plain `cargo clippy`, no `-D warnings`": a piece of code, more than a name,
#: that the claim says is not there.
_NO_BEFORE = re.compile(r"(?:^|[(,;]\s*|\s)[Nn]o\s+$")
_NO_AFTER = re.compile(r"\s*(?:[,;.)]|$|\s+(?:attribute|flag|option|line|directive|setting|block|entry|section|"
                       r"pragma)s?\b)")


def _no_code(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"no `#![no_std]` attribute": a line of the anchored code (a header too) writes that code as it
    stands. Only code that is more than a name (``-D warnings``, ``#![no_std]``), and not in a
    condition ("if there's no `x-forwarded-for` header")."""
    for w in clause.words:
        if w.term is None or w.term.kind is not TermKind.CODE or len(w.text) < 4 \
                or re.fullmatch(r"[\w.$]+(?:\(\))?", w.text) or clause.skip(w.text):
            continue
        before = clause.text[:w.start]
        if not _NO_BEFORE.search(before) or not _NO_AFTER.match(clause.text, w.end) or _CONDITION.search(before):
            continue
        hit = _first_line(codes, re.compile(rf"(?<![\w$-]){re.escape(w.text)}(?![\w$])"), headers=True)
        if hit is not None:
            code, index = hit
            return [Contradiction("negation", f"the claim says `no {w.text}`", code.show(index, w.text),
                                  code.label, (w.text,))]
    return []


#: "for every PM, deno included", "every arch (incl. x86)", "regardless of PM (npm/yarn too)": one value said
#: to go the way of all the others.
_INCLUDED = re.compile(r"\b(?:every|all|any|regardless|uniform(?:ly)?)\b[^.;]{0,60}?"
                       r"(?:(?:,\s*|\(\s*|\s+)(?:incl\.|including|even)\s+[`'\"]?(?P<a>[\w.-]+)[`'\"]?"
                       r"(?=\s*[,;.()]|\s*$)"
                       r"|(?:,\s*|\(\s*)(?P<b>[`'\"]?[\w.-]+[`'\"]?(?:/[`'\"]?[\w.-]+[`'\"]?)*)\s+(?:included|too)\b)",
                       re.I)


def _included(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"for every PM, deno included": the code compares a value with the one the claim counts in
    (``name === "deno" ? "task" : "run"``), which is how code singles a value out."""
    m = _INCLUDED.search(clause.text)
    if m is None:
        return []
    named = [m.group("a")] if m.group("a") else [v.strip("`'\"") for v in m.group("b").split("/")]
    for said in named:
        if said.lower() in STOP or clause.skip(said):
            continue
        hit = _compared(codes, said)
        if hit is not None:
            break
    else:
        return []
    code, index = hit
    return [Contradiction("negation", f"the claim counts `{said}` in (`{' '.join(m.group(0).split())}`)",
                          code.show(index, said), code.label, ())]


def _subject(clause: Clause, at: int) -> Word | None:
    """The word right before ``at``: the subject of a negation there ("`ctx.set()` never throws")."""
    return next((w for w in reversed(clause.words) if w.end <= at), None)


#: "Unlike remove(), ...", "as opposed to pop()": code the claim sets its subject against.
_CONTRAST = re.compile(r"\b(?:unlike|as\s+opposed\s+to|in\s+contrast\s+to|contrary\s+to)\s+$", re.I)


def _subject_codes(clause: Clause, codes: Sequence[Code]) -> Sequence[Code]:
    """``codes`` without the anchored functions the clause sets its subject against ("Unlike
    remove(), pop_front()/pop_back() don't touch the free list", the three anchored: remove does,
    and the claim says so); all of them when that would leave none."""
    against = {fold((w.atom or w.text).rsplit(".", 1)[-1]) for w in clause.words
               if not w.plain and _CONTRAST.search(clause.text[:w.start])}
    if not against:
        return codes
    kept = [c for c in codes if fold(c.symbol.rsplit(".", 1)[-1]) not in against]
    return kept or codes


#: A negation in the passive voice, or "ignores X" read as one ("X is ignored", "isn't consulted"): the word
#: before it is its object, not a subject that acts.
_BY_ITS_OBJECT = re.compile(r"(?:is|are|was|were|isn't|aren't|wasn't|weren't|gets?|got|be|been|being)\b|ignored\b",
                      re.I)
#: Words that stress a negation's subject: "NewParser itself doesn't ...", "X alone never ...".
_STRESS = frozenset({"itself", "alone", "also", "too", "still"})


def _other_subject(clause: Clause, at: int, codes: Sequence[Code]) -> bool:
    """Whether the subject right before the active negation at ``at`` is written as a name of code (a call, a
    dotted name, a ``CamelCase`` or ``snake_case`` identifier) that is no anchored symbol, no owner of one
    (``responseLogger`` of ``responseLogger.WriteHeader``) and no member one defines: "NewParser itself
    doesn't look at registrations" with ``Register`` and ``Parse`` anchored speaks of NewParser's own body,
    which no anchor shows."""
    words = [w for w in clause.words if w.end <= at]
    while words and words[-1].text.lower() in _STRESS:
        words.pop()
    term = words[-1].term if words else None
    if term is None or words[-1].plain \
            or term.kind not in (TermKind.IDENTIFIER, TermKind.CALL, TermKind.DOTTED):
        return False
    name = words[-1].atom.rsplit(".", 1)[-1]
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", name) or not re.search(r"[a-z][A-Z]|_|^[A-Z][a-z]+[A-Z]", name):
        return False
    def same(a: str, b: str) -> bool:  # site_applications_dir for _site_applications_dirs
        a, b = fold(a).strip("_"), fold(b).strip("_")
        return a == b or a + "s" == b or a == b + "s"

    return all(not any(same(name, part) for part in re.split(r"[.:<> ]+", c.symbol) if part)
               and c.member(name) is None for c in codes)


def _subject_member(clause: Clause, at: int, code: Code) -> Code | None:
    """The code of the member of ``code`` that the subject names, written as code ("callAsync
    doesn't go through checkConflict", "`ctx.set()` never throws" against the anchored factory that
    defines both ``call`` and ``callAsync``): what that member does, not the whole anchor; None when
    the subject is prose or names no member."""
    lead = _subject(clause, at)
    if lead is None or lead.plain:
        return None
    return code.member(lead.atom.rsplit(".", 1)[-1])


def _subject_is(clause: Clause, at: int, code: Code) -> bool:
    """Whether the subject names ``code``'s anchored symbol (its last part)."""
    lead = _subject(clause, at)
    own = code.symbol.rsplit(".", 1)[-1]
    return lead is not None and bool(own) and fold((lead.atom or lead.text).rsplit(".", 1)[-1]) == fold(own)


#: "has no nil check", "without a None check", "doesn't check for nil", "never checks for null".
_NO_NIL_CHECK = re.compile(r"\b(?:no|without\s+(?:a|any)|lacks?\s+(?:a|any)|skips?\s+the)\s+(?P<a>nil|None|null)[\s-]+"
                           r"(?:check|guard|test)s?\b"
                           rf"|\b(?:{_AUX})\s+(?:check|test|guard)s?\s+(?:for|against)\s+(?P<b>nil|None|null)\b", re.I)
#: The code comparing a value with nil, None or null.
_NIL_TEST = re.compile(r"(?:[=!]==?|\bis(?:\s+not)?)\s*(?:nil|None|null|undefined)\b"
                       r"|\b(?:nil|None|null)\s*[=!]==?")


def _said_yet_found(clause: Clause, codes: Sequence[Code], said: re.Pattern[str], found: re.Pattern[str],
                    *needles: str, unless: re.Pattern[str] | None = None) -> list[Contradiction]:
    """The claim says ``said`` (outside a quote, in a clause with no condition), and a line of the
    code, outside signatures, has ``found`` (and not ``unless``): one finding, on that line."""
    m = said.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text):
        return []
    hit = _first_line(codes, found, unless)
    if hit is None:
        return []
    code, index = hit
    return [Contradiction("negation", f"the claim says `{m.group(0)}`", code.show(index, *needles), code.label, ())]


#: "nothing is raised", "no exception", "no error is thrown", "no panic", "raises nothing": the claim says
#: the function fails in no way at all (a named exception is the active reading's).
_NOTHING_RAISED = re.compile(r"\b(?:nothing|no\s+(?:exception|error)s?)\s+(?:is|are|gets?|will\s+be)\s+(?:ever\s+)?"
                             r"(?:raised|thrown)\b|\b(?:raises|throws)\s+nothing\b"
                             r"|\bno\s+(?:exception|panic)s?(?=\s*(?:[.;,)\u2014]|$|\s+-))", re.I)
#: What fails out of a function: a ``raise``/``throw`` statement, Rust's ``panic!`` and its kin (``assert!``
#: panics in every build; ``debug_assert!`` only in debug builds, so it is left out).
_FAILS = re.compile(r"(?:^|[;{}:]\s*|\belse\s+)(?:raise|throw)\b(?!\s*[;)]|\s*$)"
                    r"|\b(?:panic|unreachable|unimplemented|todo)!\s*\(|(?<![\w.])panic\s*\("
                    r"|(?<![\w.])assert(?:_eq|_ne)?!\s*\(")


def _nothing_raised(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"At EOF read() returns b''; nothing is raised": the anchored code raises (``raise EOFError(...)``),
    throws or panics. A bare re-``raise`` of what a callee raised counts as the callee's."""
    return _said_yet_found(clause, codes, _NOTHING_RAISED, _FAILS, "raise", "throw", "panic")


#: "... just pushes fn to the end -- no error": the claim's case ends in no failure at all.
_NO_ERROR = re.compile(r"\bno\s+errors?(?=\s*(?:[.;,)\u2014]|$|\s+-(?!>)))", re.I)
#: A failure, or an error value Go code makes and returns (``return errors.New("given output is nil")``).
_FAILS_OR_ERRS = re.compile(_FAILS.pattern + r"|\breturn\b[^;]*\b(?:errors\.New|fmt\.Errorf)\s*\("
                            r"|\breturn\s+(?:[^;]*?,\s*)?(?:\w+\.)?(?:[Ee]rr[A-Z]\w*|[A-Z]\w*Error)\s*;?\s*$"
                            # argparse's parser.error(msg): a usage error, the command exits with status 2
                            r"|(?<![\w$.])(?:self\.)?parser\.error\s*\(")
#: A failure the claim itself names elsewhere: then "no error" is said of its other case only.
_FAILURE_NAMED = re.compile(r"(?i:\b(?:throw|raise|panic|reject)\w*)|\b(?:Err[A-Z]\w*|[A-Z]\w*(?:Error|Exception))\b")
#: A throw of a type error: the code refusing an argument of the wrong kind, before the case a claim describes.
_TYPE_ERROR = re.compile(r"\b(?:throw|raise)\s+(?:new\s+)?TypeError\b")


def _no_error(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"an unknown pass name just pushes fn to the end -- no error": the anchored code raises, throws or
    panics, other than a ``TypeError`` (an argument refused before the case the claim describes), and the
    claim names no failure of its own."""
    if _FAILURE_NAMED.search(clause.text):
        return []
    said = _NO_ERROR.search(clause.text)
    if said and re.search(r"\b(?:has|have|had|with|that|which)\s+$", clause.text[:said.start()], re.I):
        return []  # "the first hook result that has no error": said of something the code is given, not of itself
    return _said_yet_found(clause, codes, _NO_ERROR, _FAILS_OR_ERRS, "raise", "throw", "panic", "errors.New",
                           "fmt.Errorf", "parser.error", unless=_TYPE_ERROR)


#: "never fails", "never really fails", "can't fail": the function fails in no way ("fails to X", "fails
#: spuriously" say something else).
_NEVER_FAILS = re.compile(r"\b(?:never\s+(?:really\s+|actually\s+)?fails|can(?:'t|not)\s+(?:really\s+)?fail)\b"
                          r"(?!\s+(?:to\b|spuriously|silently|quietly|loudly))", re.I)
#: A failure as a Rust function returns it: ``Err(...)``, an error mapped in (``.map_err(|_| ...)``).
_FAILS_OR_ERR_VALUES = re.compile(_FAILS_OR_ERRS.pattern + r"|(?<![\w$.])Err\s*\(|\.map_err\s*\(")


def _never_fails(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"Timestamp::try_from(SystemTime) never really fails": the anchored code raises, throws, panics or
    returns an error (``Err(...)``, ``.map_err(...)``, Go's ``errors.New``)."""
    if _FAILURE_NAMED.search(clause.text):
        return []
    return _said_yet_found(clause, codes, _NEVER_FAILS, _FAILS_OR_ERR_VALUES, "Err", "map_err", "raise", "throw",
                           "panic", "errors.New", "fmt.Errorf")


def _nil_checks(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"WithStack has no nil check": the code compares a value with nil (``if err == nil``)."""
    return _said_yet_found(clause, codes, _NO_NIL_CHECK, _NIL_TEST, "nil", "None", "null")


#: "no assertion on lengths", "doesn't check anything", "doesn't validate its bounds": the claim says the
#: function checks nothing at all (a check of something named is another reading's).
_NO_ASSERTION = re.compile(r"\b(?:no|without\s+(?:a|an|any)|lacks?\s+(?:a|an|any))\s+"
                           r"(?:assert(?:ion)?s?|sanity\s+checks?|validation|checks?)"
                           r"(?=\s*(?:[.;,)]|$|\s+on\s+(?:its\s+|the\s+)?\w+\s*(?:[.;,)]|$)))"
                           rf"|\b(?:{_AUX})\s+(?:check|validate|verify|assert)\s+(?:anything|(?:its|the)\s+(?:bounds|"
                           r"arguments?|inputs?|lengths?|parameters?|values?|range))\b", re.I)
#: What checks a function's input by what it is for: Rust's assert macros (debug builds' too), Python's
#: ``assert`` statement, Node's ``assert(...)``.
_ASSERTS = re.compile(r"\b(?:debug_)?assert(?:_eq|_ne)?!\s*\(|^\s*assert\b(?!\s*[.(=])|(?<![\w$.])(?:console\.)?"
                      r"assert(?:\.\w+)?\s*\(")


def _no_assertion(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"set_lower doesn't check anything", "no assertion on lengths": the anchored code asserts
    (``assert!(value <= upper)``, ``debug_assert!(min <= max)``, Python's ``assert x``)."""
    return _said_yet_found(clause, codes, _NO_ASSERTION, _ASSERTS, "assert")


#: "onSocket has no finished check", "without a `closed` guard": a name the claim says nothing tests.
_NO_FLAG_CHECK = re.compile(r"\b(?:no|without\s+(?:a|any)|lacks?\s+(?:a|any))\s+`?(?P<v>[A-Za-z_$][\w$]*)`?\s+"
                            r"(?:check|guard|test)s?\b")


def _flag_checks(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"onSocket has no finished check": an ``if`` of the code tests that name alone (``if (finished) return``)."""
    m = _NO_FLAG_CHECK.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text) or m.group("v").lower() in STOP:
        return []
    name = re.escape(m.group("v"))
    hit = _first_line(codes, re.compile(rf"^(?:\}}\s*)?(?:if|elif)\s*\(?\s*(?:!|not\s+)?\s*{name}\s*\)?\s*"
                                        r"(?:\{|:|return\b|$)"))
    if hit is None:
        return []
    code, index = hit
    return [Contradiction("negation", f"the claim says `{m.group(0)}`", code.show(index, m.group("v")), code.label,
                          (m.group("v"),))]


#: "LevelFromString is case-sensitive", "only matches lowercase names", "must be lowercase": a match said to
#: depend on case.
_CASE_SENSITIVE = re.compile(r"\bcase[- ]sensitive(?:ly)?\b|\bexact\s+case\b"
                             r"|\bonly\s+(?:matches|accepts|knows|takes|recognizes|recognises)\s+(?:the\s+)?"
                             r"(?:lower|upper)[- ]?case\b"
                             r"|\b(?:must|has\s+to|have\s+to)\s+be\s+(?:lower|upper)[- ]?case\b",
                             re.I)
#: What folds case before a match: a lowering or uppering call, Go's EqualFold, a pattern's ignore-case flag.
_FOLDS_CASE = re.compile(r"(?i)\b(?:to_?lower(?:case)?|to_?upper(?:case)?|lower|upper|casefold|to_ascii_lowercase"
                         r"|to_ascii_uppercase|equalfold|eq_ignore_ascii_case)\s*\(|\bre\.(?:I|IGNORECASE)\b")


def _case_sensitive(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"LevelFromString only matches lowercase names" of ``levelStr = strings.ToLower(...)``: the claim says a
    match depends on case; the anchored code folds the case first."""
    m = _CASE_SENSITIVE.search(clause.text)
    if m is None or clause.quoted(m.start()) or _NOT_BEFORE.search(clause.text[:m.start()]):
        return []
    hit = _first_line(codes, _FOLDS_CASE)
    if hit is None:
        return []
    code, index = hit
    return [Contradiction("negation", f"the claim says `{m.group(0)}`; the code folds the case",
                          code.logical_text(index)[:120], code.label, ())]


#: A negation right before what it negates ("not case-sensitive", "isn't case-sensitive").
_NOT_BEFORE = re.compile(r"\b(?:not|never|isn't|aren't|no\s+longer|doesn't|don't)\s+(?:\w+\s+)?$", re.I)


#: Files of data, not code: a manifest's keys have readings of their own.
_DATA_FILES = (".toml", ".json", ".yaml", ".yml", ".cfg", ".ini", ".lock")
#: "the server thread isn't a daemon", "a non-daemon thread": a flag's name the claim says is not set.
_NOT_FLAGGED = re.compile(r"\b(?:isn't|is\s+not|aren't|are\s+not|never)\s+(?:an?\s+)?(?P<v>[a-z]{4,})\b"
                          r"|\bnon-(?P<w>[a-z]{4,})\b")


def _not_flagged(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"ServerStatusDB's server thread isn't a daemon" where the code passes ``daemon=True`` (or sets ``daemon:
    true``, ``.daemon = True``): the flag the claim denies is the one the code turns on."""
    out: list[Contradiction] = []
    for m in _NOT_FLAGGED.finditer(clause.text):
        name = m.group("v") or m.group("w")
        if name in STOP or clause.quoted(m.start()) or clause.skip(name) or _CONDITION.search(clause.text[:m.start()]):
            continue
        flag = re.compile(rf"(?<![\w$]){name}\s*(?:=(?!=)|:)\s*(?:True|true)\b")
        source = [c for c in codes if not c.label.split("::", 1)[0].endswith(_DATA_FILES)]  # a manifest's own reading
        hit = _first_line(source, flag)
        if hit is not None:
            code, index = hit
            out.append(Contradiction("negation", f"the claim says `{m.group(0)}`", code.show(index, name), code.label,
                                     (name,)))
    return out


#: "doesn't guard compile()", "calls decodeURIComponent directly with no try/catch": a call the claim says no
#: ``try`` surrounds.
_UNGUARDED = re.compile(r"\b(?:doesn't|does\s+not|never)\s+(?:guard|wrap|catch)\w*\s+(?:the\s+)?`?"
                        r"(?P<f>[A-Za-z_$][\w.$]*)\("
                        r"|`?(?P<g>[A-Za-z_$][\w.$]*)(?:\([^()]*\))?`?\s+(?:directly\s+)?(?:with\s+)?"
                        r"(?:no|without(?:\s+an?|\s+any)?)\s+try\b")


def _unguarded(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"get_code_complexity doesn't guard compile()": every call of it in the code sits in a ``try`` block."""
    m = _UNGUARDED.search(clause.text)
    if m is None or clause.quoted(m.start()) or _CONDITION.search(clause.text):
        return []
    said = m.group("f") or m.group("g")
    name = said.rsplit(".", 1)[-1]
    if clause.skip(said) or name.lower() in STOP:
        return []
    call = re.compile(rf"(?<![\w$]){re.escape(name)}\s*\(")
    for code in codes:
        lines = code.lines_matching(call)
        guarded = {j for i in range(len(code.logical)) if re.match(r"(?:\}\s*)?try\b", code.logical_text(i))
                   for j in code.block(i)}
        if lines and all(i in guarded for i in lines):
            text = m.group(0).replace("`", "") + (")" if m.group("f") else "")
            return [Contradiction("negation", f"the claim says `{text}`", code.show(lines[0], name), code.label,
                                  (said,))]
    return []


RULE = Rule("negation", check, __doc__ or "")
