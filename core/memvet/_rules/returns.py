"""returns: the claim says a function returns a constant; every return of the code gives another.

The claim's side: ``F returns V``, ``F, which returns V``, ``F always
returns V``, ``F just returns V`` (``gives back``, ``evaluates to``,
``defaults to``, ``has a default of``, said of a trait's default method), where
``F`` is the anchored function's own name, written right before the verb
(or before ``, which``), or a method the anchored class defines once
("the legacy ``__aexit__`` returns True" anchored on ``Timeout``), and
``V`` is ``true`` or ``false`` in any case.
What follows ``V`` does not matter: "returns true if the address is in
range" still says the function can return true. "Returns None" is not
read: a function may end without a ``return``, which no statement shows.

The code's side: the anchored function's ``return`` statements (an arrow
function's expression body counts as one, and so does a Rust body that is
one constant: ``fn is_end_stream(&self) -> bool { false }``), when every
one of them returns a constant alone (``return false``, ``return None``; a
bare ``return`` is ``None``/``undefined``).

Fires when none of those constants is ``V``. Never fires on a negated
claim ("never returns true": the negation rule's), on a subject that is not
the anchored function, when a return gives anything but a constant
(``return ok``, ``return x > 0``, ``return f()``: the value is open), or on
code with no return at all (Rust's tail expression other than one
constant, a Go named result).

A second reading, for a type: ``F ... returns `T` `` (``returns a
`Vec<u8>` ``, ``returns `Option<E>` ``), ``T`` backticked and shaped like a
type (a capitalized name, a reference or pointer to one, with or without
type arguments, or a Rust primitive), ``F`` an anchored Rust or Go
function named anywhere before the verb; or a call written out and the
type after an arrow, ``buffer.format(x) -> String``, backticked or not
(the arrow after a call's parentheses is a signature's notation). The code's side: the return type
its signature declares (``fn to_str(&self) -> Cow<'_, str>``, ``func (m
*Mock) Ticker(d time.Duration) *Ticker``). Fires when the signature
declares one and the type ``T`` is named by no word of it (``Self`` is the
type the method belongs to): "to_str ... returns `String`" of ``->
Cow<'_, str>``. Never fires on a generic ``impl Trait`` return, on a value
(``None``, ``Ok(...)``, ``Cow::Borrowed``, ``VersionReq::STAR``,
``ErrNotFound``, a Go composite literal ``NoPeers{}`` or a call
``Foo(x)``: a value of a type that may implement the declared interface) or
on a negated claim.

A fourth reading, for the receiver: ``F ... returns n itself`` (``returns
self``, ``returns this``, ``returns the receiver``; ``n`` the Go method's
receiver), ``F`` the anchored method named in the clause: fires when it
has ``return`` statements and none gives the receiver back (``return
New(...)`` in negroni's ``With``).

A third reading, for Go's results: ``F ... returns (A, B)``, ``F`` an
anchored Go function named before the verb, fires when its signature
declares another number of results ("Take(count) returns (wait
time.Duration, ok bool)" of ``func (tb *Bucket) Take(count int64)
time.Duration``).

A fifth reading, for Go's error values: ``F ... returns ErrX`` (``ErrX``
or ``errX``, by name, with its package or not), ``F`` an anchored Go
function named before the verb, the verb not negated right before it
("never returns ErrX" is the negation rule's; "on input not longer than N
returns ErrX" is a condition, read). Fires when every ``return`` of ``F``
gives ``nil`` or another error value by name as its last result, one at
least not ``nil``, and ``F``'s code never names ``ErrX`` ("decrypt() ...
returns ErrMacInvalid" of ``return nil, errDecryptionFailed``). Never
fires when a return passes an error through (``return id, err``) or builds
one (``fmt.Errorf(...)``): the value is open.

A sixth reading, for a named constant: ``F ... returns V`` (``hands
back``, ``gives back``), ``V`` capitalized right after the verb (not a
boolean, ``None`` or an error value, which have readings of their own),
``F`` an anchored function named before the verb. Fires when every
``return`` of ``F`` gives one name alone (``return NoLevel``,
``return hclog.Off``) and the code never names ``V`` ("GetLevel()
returns Off" of ``func (l *nullLogger) GetLevel() Level { return NoLevel
}``). A value the code returns by name is never read as a type: the
second reading skips "GetLevel returns NoLevel" of ``return NoLevel``.

A seventh reading, for Python's built-in types: ``F ... returns bytes``
(``str``, ``int``, ``float``, ``bool``, ``dict``, ``list``, ``tuple``,
``set``, and "string", "integer", "boolean" for them), ``F`` an anchored
Python function named before the verb. Fires when its signature's return
annotation names built-in types only (``None``, ``Optional`` and
``Union`` besides) and not that one ("ph.hash(pw) hands back bytes" of
``def hash(...) -> str:``). Never fires on a class, a type variable,
``Any`` or a protocol in the annotation: what comes back is open.

An eighth reading, for Go's and Rust's kinds of value in plain words: ``F
... returns a string`` (``one``, ``a single``; ``int``, ``integer``,
``bool``, ``float``, ``slice``, ``list``, ``array``, ``map``, ``dict``),
``F`` an anchored Go or Rust function named before the verb. Fires when the
signature declares one result of a certain kind and not that one
("pretty.Diff(a, b) returns one string" of ``func Diff(a, b interface{})
(desc []string)``; "DeletePrefix returns an int" of ``... bool``). Never
fires on a named type, a pointer, an ``Option``, an error, several
results, "a list of" or "a bool or an int": what comes back is open or
said of something else.

Rationale: "trustNone, which returns true, so every hop is trusted" names
a real function and a real value; only the constant, the claim's whole
point, is wrong, and the code writes it in one statement.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from memvet._claims import balanced, split_args
from memvet._code import language_for_path
from memvet._rules._common import Clause, Code, Contradiction, Rule, fold, member_header

__all__ = ["RULE"]

_CLAIMED = re.compile(r"(?P<subject>[A-Za-z_$][\w$.]*(?:\(\))?)(?P<which>\s*,\s*which)?\s+"
                      r"(?:(?:always|just|simply|only|then|now|still)\s+)?"
                      r"(?:returns|gives back|evaluates to|defaults to|has a default of)\s+`?(?P<value>true|false)\b",
                      re.I)
_NEGATED = re.compile(r"\b(?:not|never|no longer|doesn't|does not|won't|cannot|can't)\s*$", re.I)
#: The constants a return may give alone (a bare ``return`` is ``none``).
_CONSTANTS = frozenset({"true", "false", "none", "null", "nil", "undefined"})
_RETURN = re.compile(r"(?<![\w$.])return\b\s*(?P<value>[^;{}]*?)\s*;?\s*(?:\}\s*)?$")
_ARROW_BODY = re.compile(r"=>\s*(?P<value>true|false|null|undefined)\s*[;,)]?\s*$")


#: The head of the ``impl`` block a Rust method's evidence carries after its body, for context.
_IMPL_HEAD = re.compile(r"\s*(?:unsafe\s+)?impl\b")


def _returned(code: Code, lines: Sequence[int] | None = None) -> list[tuple[int, str]] | None:
    """(line, constant) of every return of the code (of its logical ``lines``, when given),
    lower-cased; None when one returns anything else."""
    out = []
    for index in range(len(code.logical)) if lines is None else lines:
        text = code.logical_text(index)
        for m in [*_RETURN.finditer(text), *_ARROW_BODY.finditer(text)]:
            value = m.group("value").strip().strip("()").strip().lower() or "none"
            if value not in _CONSTANTS:
                return None
            out.append((index, value))
    if not out and language_for_path(code.label.split("::", 1)[0]) == "rust":
        body = [i for i in (range(len(code.logical)) if lines is None else lines) if i not in code.headers
                and code.logical_text(i).strip("{} \t") and not _IMPL_HEAD.match(code.logical_text(i))]
        tail = code.logical_text(body[0]).strip("{} \t") if len(body) == 1 else ""
        if tail in ("true", "false"):
            out.append((body[0], tail))  # fn is_end_stream(&self) -> bool { false }: a body of one constant
    return out


def _member(code: Code, name: str) -> list[int] | None:
    """The logical lines of the method ``name`` the anchored class defines (its own line and its
    body), for a claim anchored on the class that names the method; None when it defines none or
    several."""
    header = member_header(name)
    own = [index for index in range(len(code.logical)) if header.search(code.logical_text(index))]
    return [own[0], *code.block(own[0])] if len(own) == 1 else None


#: "returns n itself", "returns self", "hands back the receiver": the function gives back what it was called on.
_ITSELF = re.compile(r"\b(?:returns?|hands?\s+back|gives?\s+back)\s+(?:(?P<r>[A-Za-z_$][\w$]*)\s+itself\b"
                     r"|(?:self|this)\b(?![.(\[])|the\s+(?:same\s+)?(?:receiver|instance)\b)")
_GO_RECEIVER = re.compile(r"^\s*func\s*\(\s*(?P<r>[A-Za-z_]\w*)\s+\*?[A-Za-z_][\w.\[\]]*\s*\)")


def _itself(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"n.With(h) ... returns n itself": every return of the anchored method gives something else
    (``return New(...)``)."""
    m = _ITSELF.search(clause.text)
    if m is None or _NEGATED.search(clause.text[:m.start()].rsplit(",", 1)[-1]):
        return []
    out: list[Contradiction] = []
    for code in codes:
        if not code.leaf or not code.headers or not re.search(rf"(?<![\w$]){re.escape(code.leaf)}\b", clause.text):
            continue
        go = _GO_RECEIVER.match(code.logical_text(min(code.headers)))
        own = {go.group("r")} if go else {"self", "this", "Self"}
        if m.group("r") and m.group("r") not in own:
            continue
        returns = [(i, r.group(1).strip().rstrip(";")) for i in range(len(code.logical)) if i not in code.headers
                   and (r := re.match(r"\s*return\s+(.+)$", code.logical_text(i)))]
        if returns and not any(re.fullmatch(r"[&*]?\s*(\w+)", e) and e.lstrip("&* ") in own for _, e in returns):
            line, _ = returns[0]
            out.append(Contradiction("returns", f"the claim says `{m.group(0)}`", code.show(line, "return"),
                                     code.label, ()))
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = _itself(clause, codes)
    for m in _CLAIMED.finditer(clause.text):  # not "returns None": a function may end without a return
        if _NEGATED.search(clause.text[:m.start("which") if m.group("which") else m.end("subject")]
                           + clause.text[m.end("subject"):m.start("value")]):
            continue
        said = m.group("value").lower()
        name = m.group("subject").removesuffix("()").rsplit(".", 1)[-1]
        subject = fold(name)
        for code in codes:
            if not code.leaf:
                continue
            if fold(code.leaf) == subject:
                returns = _returned(code)
            elif (lines := _member(code, name)) is not None:
                returns = _returned(code, lines)  # `__aexit__` returns True, anchored on its class
            else:
                continue
            if not returns or any(v == said for _, v in returns):
                continue
            line, value = returns[0]
            out.append(Contradiction(
                "returns", f"the claim says `{m.group(0)}`", code.show(line, value), code.label,
                (m.group("subject"), m.group("value"))))
    return out


#: "returns `Cow<str>`", "returns a `*Ticker`": a type the claim says a function returns.
#: A type's shape: a capitalized name or a Rust primitive, behind references and paths, with type arguments.
_TYPE = (r"(?P<type>[&*]*(?:mut\s+)?(?:[A-Za-z_]\w*::)*(?:[A-Z]\w*|u8|u16|u32|u64|usize|i8|i16|i32|i64|isize|f32|f64"
         r"|bool|str|char)(?:<(?:[^<>]|<[^<>]*>)*>)?)(?![\w<:{(])")
_RETURNS_TYPE = re.compile(r"\breturns?\s+(?:an?\s+|the\s+|its\s+)?" + _TYPE)
#: A value, not a type: a variant or an associated constant (``Cow::Borrowed``, ``VersionReq::STAR``),
#: a constant in capitals, Go's error values (``ErrDataSize``).
_VALUE_NAMED = re.compile(r"[A-Z]\w*::[A-Z]\w*(?:<|$)|^[&*]*[A-Z][A-Z0-9_]+(?:<|$)|^[&*]*Err[A-Z]")
#: Values, not types: Rust's variants of Option and Result, Go's nil.
_VALUES = frozenset({"None", "Some", "Ok", "Err"})
#: A Rust fn's declared return type (group ``ret``), up to its ``where`` or body.
_RUST_RET = re.compile(r"\bfn\s+(?P<name>\w+)\s*(?:<[^(){}]*>)?\s*\(")
#: A Go func's name, receiver left out.
_GO_FUNC = re.compile(r"\bfunc\s*(?:\([^()]*\)\s*)?(?P<name>\w+)\s*(?:\[[^\]]*\])?\s*\(")


def _declared_return(code: Code) -> tuple[str, int] | None:
    """The return type the anchored Rust or Go function's signature declares, and the signature's
    logical line; None for none or another language."""
    if not code.leaf:
        return None
    for index in sorted(code.headers)[:1] or range(min(3, len(code.logical))):
        text = code.logical_text(index)
        for pattern, arrow in ((_RUST_RET, True), (_GO_FUNC, False)):
            m = pattern.search(text)
            if m is None or m.group("name") != code.leaf:
                continue
            end = balanced(text, m.end() - 1, limit=None)
            if end < 0:
                return None
            rest = text[end:]
            if not arrow and rest.lstrip().startswith("("):  # Go's results: (interface{}, time.Time, bool)
                start = len(rest) - len(rest.lstrip())
                close = balanced(rest, start, limit=None)
                return (rest[start:close], index) if close > 0 else None
            ret = re.match(r"\s*->\s*(.+?)\s*(?:\bwhere\b|\{|$)", rest) if arrow else \
                re.match(r"\s*(.+?)\s*(?:\{\s*$|$)", rest)
            return (ret.group(1).strip(), index) if ret and ret.group(1).strip() else None
    return None


def _negated_before(before: str) -> bool:
    """Whether the claim negates what it says next ("never returns", "does not return", "not a ...")."""
    return _NEGATED.search(before) is not None or re.search(r"\b(?:not|never|no longer)\b", before, re.I) is not None


def _named_before(code: Code, before: str) -> bool:
    """Whether the claim names ``code``'s function before the verb: the function it says it of."""
    return bool(code.leaf) and re.search(rf"(?<![\w$]){re.escape(code.leaf)}(?![\w$])", before) is not None


def _assigned(name: str, codes: Sequence[Code]) -> bool:
    """Whether an anchored code is ``name`` assigned a value (``UnterminatedEscapeError =
    errors.New(...)``, ``var X = ...``): a variable or a constant, not a type."""
    return any(code.leaf == name and code.logical
               and re.search(rf"(?<![\w$]){re.escape(name)}\s*(?::\s*[^=]+)?(?::=|=(?![=>]))", code.logical_text(0))
               for code in (*codes, *(s for c in codes for s in c.siblings)))


#: "format(x) -> String": a call written out, then the type it returns after an arrow (a signature's notation).
_ARROW_TYPE = re.compile(r"\)\s*->\s*" + _TYPE)


def _types(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    written = {t.text for t in clause.terms}
    for m in [*_RETURNS_TYPE.finditer(clause.text), *_ARROW_TYPE.finditer(clause.text)]:
        said = m.group("type")
        if (said not in written and m.re is _RETURNS_TYPE) or _VALUE_NAMED.search(said):
            continue  # a type the claim writes as code (`String`), not prose, nor a value (`Cow::Borrowed`)
        before = clause.text[:m.start()]
        if _negated_before(before):
            continue
        head = re.sub(r"^[&*]*(?:mut\s+)?(?:[A-Za-z_]\w*::)*", "", said).split("<", 1)[0]
        if head in _VALUES or _assigned(head, codes):
            continue  # a value the code assigns (Go's `ErrX = errors.New(...)`), not a type
        arrow = m.re is _ARROW_TYPE
        after = clause.claim[clause.offset + m.end():] if clause.claim and clause.offset >= 0 else clause.text[m.end():]
        if arrow and not re.match(r"\s*(?:$|[(,;.)\u2014-])(?!\S)|\s*\(", after):
            continue  # "New() -> Out: os.Stderr", "NewStatic(dir) -> Prefix \"\"": fields it sets, not a type
        for code in codes:
            called = re.search(r"([A-Za-z_]\w*)\s*\([^()]*\)\s*$", clause.text[:m.start() + 1]) if arrow else None
            if arrow and (called is None or called.group(1) != code.leaf):
                continue  # `F = fn() -> T`, `impl Fn(&I::Item) -> bool`: a type written out, not the anchored call
            if not _named_before(code, before):
                continue  # the function the claim says it of, named before the verb
            found = _declared_return(code)
            if found is None or re.match(r"impl\b", found[0]):
                continue
            if any(re.search(rf"\breturn\s+(?:\w+\.)?{re.escape(head)}\s*(?:;|\}}|$)", text) for text in code.physical):
                continue  # "GetLevel returns NoLevel" of `return NoLevel`: a value the code returns by name
            declared, line = found
            words = set(re.findall(r"[A-Za-z_]\w*", declared))
            if "Self" in words:
                words |= {seg for seg in re.split(r"[.:<> ]+", code.symbol)[:-1] if seg}
            if head not in words and not ("error" in words and head.endswith("Error")):  # Go: any error type
                out.append(Contradiction("returns", f"the claim says `{m.group(0).lstrip(') ')}`",
                                         code.show(line, declared), code.label, (said,)))
    return out


#: "returns (wait time.Duration, ok bool)", "returns (false, nil)": what a Go function returns, in parentheses.
_RETURNS_TUPLE = re.compile(r"\breturns?\s+\((?P<items>[^()]*(?:\([^()]*\)[^()]*)*)\)")


def _arity(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"Take(count) returns (wait time.Duration, ok bool)" of ``func (tb *Bucket) Take(count int64)
    time.Duration``: a Go function returns as many results as its signature declares."""
    out: list[Contradiction] = []
    for m in _RETURNS_TUPLE.finditer(clause.text):
        said = len(split_args(m.group("items")))
        before = clause.text[:m.start()]
        if said < 2 or _negated_before(before):
            continue
        for code in codes:
            if language_for_path(code.label.split("::", 1)[0]) != "go" or not _named_before(code, before):
                continue
            found = _declared_return(code)
            if found is None:
                continue
            declared, line = found
            results = split_args(declared[1:declared.rfind(")")]) if declared.startswith("(") else [declared]
            if len(results) != said:
                out.append(Contradiction("returns", f"the claim says `{m.group(0)}`", code.show(line, declared),
                                         code.label, (m.group(0),)))
    return out


#: "returns ErrMacInvalid", "returns errNegativeNotAllowed": one of Go's error values, by name.
_RETURNS_ERROR = re.compile(r"\breturns?\s+`?(?P<e>(?:[a-z]\w*\.)?(?:Err|err)[A-Z]\w*)`?(?![\w(.{])")
#: What a Go return gives as its error: nil or an error value named alone (``errDecryptionFailed``).
_ERROR_VALUE = re.compile(r"nil|(?:[a-z]\w*\.)?(?:Err|err)[A-Z]\w*")


def _return_values(code: Code) -> list[tuple[int, str]]:
    """(logical line, what it returns) for each ``return`` statement of the code, in order."""
    return [(index, r.group("value").strip()) for index in range(len(code.logical))
            for r in _RETURN.finditer(code.logical_text(index))]


def _names(code: Code, name: str) -> bool:
    """Whether a line of the code, signatures included, writes ``name`` as a whole word."""
    return any(re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", line) for line in code.physical)


def _go_errors(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"decrypt() ... returns ErrMacInvalid" of a Go function whose every ``return`` gives nil or
    another error value by name as its last result, and whose code never names that one."""
    out: list[Contradiction] = []
    for m in _RETURNS_ERROR.finditer(clause.text):
        said = m.group("e")
        before = clause.text[:m.start()]
        if _NEGATED.search(before) or clause.skip(said):
            continue  # "never returns E"; not "on input not longer than N returns E": a condition
        leaf = said.rsplit(".", 1)[-1]
        for code in codes:
            if language_for_path(code.label.split("::", 1)[0]) != "go" or not _named_before(code, before) \
                    or _declared_return(code) is None:
                continue
            if _names(code, leaf):
                continue
            lasts = [(index, results[-1] if (results := split_args(value)) else "")
                     for index, value in _return_values(code)]
            if lasts and all(_ERROR_VALUE.fullmatch(v) for _, v in lasts) and any(v != "nil" for _, v in lasts):
                line, value = next((i, v) for i, v in lasts if v != "nil")
                out.append(Contradiction("returns", f"the claim says `{m.group(0)}`", code.show(line, value),
                                         code.label, (said,)))
    return out


#: "GetLevel() returns Off": a named constant, capitalized, right after the verb.
_RETURNS_NAMED = re.compile(r"\b(?:returns?|hands?\s+back|gives?\s+back)\s+`?(?P<v>[A-Z][A-Za-z0-9_]*)`?"
                            r"(?![\w$.(\[{<:])")
#: A constant a return gives alone: ``NoLevel``, ``hclog.Off``, ``Level.NONE``.
_NAMED_VALUE = re.compile(r"(?:[A-Za-z_]\w*\.)?(?P<leaf>[A-Z][A-Za-z0-9_]*)")


def _named_constants(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"NewNullLogger().GetLevel() returns Off" of ``func (l *nullLogger) GetLevel() Level { return NoLevel }``:
    every return of the anchored function gives one named constant alone, and none is the one the claim names."""
    out: list[Contradiction] = []
    for m in _RETURNS_NAMED.finditer(clause.text):
        said = m.group("v")
        before = clause.text[:m.start()]
        if said in _VALUES or said in ("True", "False", "None", "The", "An", "A", "It", "Its") \
                or said.startswith("Err") or _negated_before(before) or clause.skip(said):
            continue  # booleans and Go's error values have readings of their own
        for code in codes:
            if not _named_before(code, before):
                continue
            values = _return_values(code)
            if not values or not all((v := _NAMED_VALUE.fullmatch(value)) and v.group("leaf") != "Err"
                                     for _, value in values):
                continue  # a return gives something else (a field, a call, a literal): the value is open
            if _names(code, said):
                continue
            line, value = values[0]
            out.append(Contradiction("returns", f"the claim says `{m.group(0)}`", code.show(line, value),
                                     code.label, (said,)))
    return out


#: Python's built-in types, and the words people write for them.
_PY_TYPES = {"str": "str", "string": "str", "bytes": "bytes", "bytearray": "bytearray", "int": "int",
             "integer": "int", "float": "float", "bool": "bool", "boolean": "bool", "dict": "dict", "list": "list",
             "tuple": "tuple", "set": "set", "frozenset": "frozenset"}
#: "hash(pw) hands back bytes", "returns a str": a built-in type the claim says a Python function returns.
_RETURNS_BUILTIN = re.compile(r"\b(?:returns?|hands?\s+back|gives?\s+back)\s+(?:an?\s+|the\s+)?`?"
                              r"(?P<t>str|string|bytes|bytearray|int|integer|float|bool|boolean|dict|list|tuple|set"
                              r"|frozenset)`?(?![\w$.(\[-])")
#: What a Python annotation may name besides built-in types and still say exactly what comes back.
_PY_ANNOTATION_WORDS = frozenset({"None", "Optional", "Union"})


def _python_types(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"ph.hash(pw) hands back bytes" of ``def hash(self, password, *, salt=None) -> str:``: the anchored
    Python function's annotation names built-in types only, and not the one the claim names."""
    out: list[Contradiction] = []
    for m, code in _said_of(clause, _RETURNS_BUILTIN, codes):
        said = _PY_TYPES[m.group("t")]
        if language_for_path(code.label.split("::", 1)[0]) != "python":
            continue
        header = sorted(code.headers)[:1]
        sig = re.search(r"\bdef\s+(?P<n>\w+)\s*\(", code.logical_text(header[0])) if header else None
        if sig is None or sig.group("n") != code.leaf:
            continue
        text = code.logical_text(header[0])
        end = balanced(text, sig.end() - 1, limit=None)
        ann = re.match(r"\s*->\s*(?P<a>.+?)\s*:\s*$", text[end:]) if end > 0 else None
        if ann is None:
            continue
        words = set(re.findall(r"[A-Za-z_]\w*", ann.group("a")))
        if not words or not words <= set(_PY_TYPES.values()) | _PY_ANNOTATION_WORDS or said in words:
            continue  # a class, a TypeVar, Any, a protocol: what comes back is open
        out.append(Contradiction("returns", f"the claim says `{m.group(0)}`",
                                 code.show(header[0], ann.group("a")), code.label, (m.group("t"),)))
    return out


def _said_of(clause: Clause, pattern: re.Pattern[str], codes: Sequence[Code]) -> Iterator[tuple[re.Match[str], Code]]:
    """Each match of ``pattern`` in the clause that no negation comes before, with each anchored code
    whose function the claim names before it."""
    for m in pattern.finditer(clause.text):
        before = clause.text[:m.start()]
        if not _negated_before(before):
            yield from ((m, code) for code in codes if _named_before(code, before))


#: "DeletePrefix returns an int", "Diff returns one string": a kind of value in plain words, for Go and Rust.
_RETURNS_KIND = re.compile(r"\b(?:returns?|hands?\s+back|gives?\s+back)\s+(?:an?\s+|one\s+|a\s+single\s+)`?"
                           r"(?P<t>string|str|int|integer|bool|boolean|float|slice|list|array|map|dict)`?"
                           r"(?![\w$.(\[<-])(?!\s+(?:of|or|and)\b)")
#: The words for a kind, by kind.
_KIND_WORDS = {"string": "str", "str": "str", "int": "int", "integer": "int", "bool": "bool", "boolean": "bool",
               "float": "float", "slice": "list", "list": "list", "array": "list", "map": "dict", "dict": "dict"}
#: A Go or Rust type whose kind is certain: its kind, by the type's pattern.
_DECLARED_KINDS = (
    (re.compile(r"string|String|&(?:'\w+\s+)?str|Cow<(?:'\w+,\s*)?str>"), "str"),
    (re.compile(r"u?int(?:8|16|32|64)?|uintptr|byte|rune|[iu](?:8|16|32|64|128|size)"), "int"),
    (re.compile(r"float(?:32|64)|f32|f64"), "float"),
    (re.compile(r"bool"), "bool"),
    (re.compile(r"\[\][\w.*\[\]{}]+|Vec<.+>|&(?:'\w+\s+)?(?:mut\s+)?\[[^\];]+\]|\[[^\];]+;\s*\w+\]"), "list"),
    (re.compile(r"map\[.+\].+|(?:Hash|BTree)Map<.+>"), "dict"),
)


def _declared_kind(declared: str) -> str:
    """The kind of a Go or Rust return type ('' when it is open: a named type, a pointer, an Option, an
    error, several results); Go's one named result (``(desc []string)``) is its type."""
    one = re.fullmatch(r"\(\s*(?:[a-z_]\w*\s+)?([^,()]+?)\s*\)", declared)
    declared = one.group(1) if one else declared.strip()
    return next((kind for pattern, kind in _DECLARED_KINDS if pattern.fullmatch(declared)), "")


def _kinds(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"pretty.Diff(a, b) returns one string" of ``func Diff(a, b interface{}) (desc []string)``: the
    anchored Go or Rust function, named before the verb, declares a return type of another kind."""
    out: list[Contradiction] = []
    for m, code in _said_of(clause, _RETURNS_KIND, codes):
        found = _declared_return(code)
        if found is not None and _declared_kind(found[0]) not in ("", _KIND_WORDS[m.group("t")]):
            out.append(Contradiction("returns", f"the claim says `{m.group(0)}`",
                                     code.show(found[1], found[0]), code.label, (m.group("t"),)))
    return out


def _check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    return check(clause, codes) + _types(clause, codes) + _arity(clause, codes) + _go_errors(clause, codes) \
        + _named_constants(clause, codes) + _python_types(clause, codes) + _kinds(clause, codes)


RULE = Rule("returns", _check, __doc__ or "")
