"""guard: the claim's example passes a value the anchored code rejects.

The claim's side: an example of use (:mod:`memvet._usage`) that gives a
keyword or a key a literal: ``wait_exponential_jitter(initial=2,
multiplier=3)``, ``timeout: 0``, or a call of the anchored function with
literals by position, read by its parameters' names (``bounded(0)``,
``n.Use(nil)``), in a claim that does not itself speak of the example
failing (no ``raise``, ``throw``, ``panic``, ``error``, ``reject``,
``fail``, ``invalid``, ``must``, ``cannot``, no exception class such as
``ValueError``).

The code's side: a guard of the anchored code, a condition whose body
raises, throws or panics (``if initial != 1 and multiplier != 1: raise
ValueError(...)``, Go's ``if handler == nil { panic(...) }``, Rust's
``assert!(cap > 0, ...)``, which panics when its condition is false, ``if (options.timeout !== undefined &&
!(Number.isFinite(options.timeout) && options.timeout > 0)) throw ...``),
made only of comparisons, ``and``/``or``/``not`` (``&&``, ``||``, ``!``),
literals, ``typeof``, ``Number.isFinite``/``Number.isInteger`` and names.

Fires when the guard names one of the example's keys and, with the
example's values and the signature's literal defaults for the other
names, its condition is true: the code raises on the very example the
claim presents as working. Never fires when a name of the condition has
neither (the guard may depend on state the claim does not give), on
anything but these operators (a call, an attribute of another object, an
``in`` test), nor on a value the writer declared unbound.

A second reading, for what a call gives: "``F(L)`` returns V" (``is``,
``gives``, ``gives back``, ``yields``, ``==``, ``->``), ``F`` the anchored
function called with literals by position, ``V`` a literal (the ways to
write nothing, ``None``, ``null``, ``undefined``, ``nil``, are one value)
or ``Some(...)``, ``Ok(...)``, ``Err(...)``. The code's side: the
function's first guard that names a parameter, each guard before it false
for the example and leaving when true (a ``return`` or a raise), nothing
before it returning or assigning the parameters; emptiness is evaluated
too (``path.length === 0``, ``len(s) == 0``, ``name.is_empty()``,
``not s``). Fires when that guard is true for the example and its body
returns a literal other than ``V``: "``isCookieNameValid("")`` is true"
of ``if raw == "" { return false }``, "``CleanPath("")`` returns ``"."``"
of ``return "/"``. Never fires when the guard's return is no literal, when
the guard is false (what follows decides), or when a condition is one the
rule does not evaluate. This reading needs no silence about failing: the
guard returns, it does not raise.

Rationale: on tenacity, "`wait_exponential_jitter(initial=2,
multiplier=3)` is fine - multiplier silently takes precedence" names two
real parameters with plausible values; the code refuses exactly that
combination.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable, Sequence

from memvet._code._languages import language_for_path
from memvet._rules._common import Clause, Code, Contradiction, Rule
from memvet._usage import languages, read_use

__all__ = ["RULE"]

#: A claim that speaks of failing: the example may be the one that fails.
_FAILING = re.compile(r"\b(?:rais\w*|throw\w*|thrown|panic\w*|errors?|reject\w*|fail\w*|invalid|must|cannot|can't"
                      r"|not\s+allowed|refus\w*|disallow\w*|forbid\w*|\w+Error|\w+Exception)\b", re.I)
_JS_GUARD = re.compile(r"^(?:\}\s*else\s+)?if\s*\((?P<cond>.*)\)\s*(?:\{|(?=throw\b))")
_PY_GUARD = re.compile(r"^(?:if|elif)\s+(?P<cond>.+?):\s*(?P<rest>.*)$")
#: Go's ``if cond {`` and Rust's ``if cond {`` (no parentheses), and Rust's ``assert!(cond, ...)``.
_BARE_GUARD = re.compile(r"^(?:\}\s*else\s+)?if\s+(?P<cond>[^{]+?)\s*\{\s*(?P<rest>.*)$")
#: A guard's body that raises, throws or panics.
_RAISES = re.compile(r"(?:throw|raise|panic!?\s*\()")
_ASSERT = re.compile(r"^(?:debug_)?assert!\s*\((?P<cond>[^,]+?)\s*(?:,.*)?\)\s*;?$")
_LITERAL = r"-?\d+(?:\.\d+)?|None|True|False|null|undefined|true|false|\"[^\"\n]*\"|'[^'\n]*'"
_UNKNOWN = object()
_TYPEOF = {bool: "boolean", int: "number", float: "number", str: "string", type(None): "undefined"}


class _Unknown(Exception):
    """A name or an operator the guard's condition holds that the rule does not evaluate."""


def _python(condition: str) -> str:
    """A JS condition in Python's spelling (a Python one unchanged)."""
    text = condition.replace("===", "==").replace("!==", "!=").replace("&&", " and ").replace("||", " or ")
    text = re.sub(r"!(?!=)", " not ", text)
    text = re.sub(r"\bNumber\.isFinite\b", "_finite", text)
    text = re.sub(r"\bNumber\.isInteger\b", "_integer", text)
    text = re.sub(r"\btypeof\s+([\w$.]+)", r"_typeof(\1)", text)
    # path.length, len(path), name.len(), name.is_empty(): the length of a string or a list
    text = re.sub(r"(?<![\w$.])([A-Za-z_$][\w$]*)\.is_empty\(\)", r"(_len(\1) == 0)", text)
    text = re.sub(r"(?<![\w$.])([A-Za-z_$][\w$]*)\.(?:length\b|len\(\))", r"_len(\1)", text)
    text = re.sub(r"(?<![\w$.])len\(\s*([A-Za-z_$][\w$]*)\s*\)", r"_len(\1)", text)
    text = re.sub(r"\b(?:undefined|null|nil)\b", "None", text)
    text = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", text))
    return re.sub(r"(?<![\w$.])(?:this|self|[a-z_$][\w$]*)\.([A-Za-z_$][\w$]*)", r"\1", text)


def _evaluate(node: ast.AST, names: dict[str, object]) -> object:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, names)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise _Unknown(node.id)
        return names[node.id]
    if isinstance(node, ast.BoolOp):  # short-circuits, as both languages do
        decided = not isinstance(node.op, ast.And)
        for operand in node.values:
            if bool(_evaluate(operand, names)) is decided:
                return decided
        return not decided
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        value = _evaluate(node.operand, names)
        if isinstance(node.op, ast.Not):
            return not value
        if isinstance(value, (int, float)):
            return -value
    if isinstance(node, ast.Compare):
        left = _evaluate(node.left, names)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _evaluate(right_node, names)
            if not _compare(op, left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1 \
            and node.func.id in ("_finite", "_integer", "_typeof", "_len"):
        value = _evaluate(node.args[0], names)
        if node.func.id == "_len":
            if not isinstance(value, (str, list, tuple, dict)):
                raise _Unknown("length of a non-sequence")
            return len(value)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if node.func.id == "_typeof":
            return _TYPEOF.get(type(value), "object")
        if node.func.id == "_finite":
            return number and math.isfinite(value)  # type: ignore[arg-type]
        return number and float(value).is_integer()  # type: ignore[arg-type]
    raise _Unknown(ast.dump(node)[:40])


def _compare(op: ast.cmpop, left: object, right: object) -> bool:
    if isinstance(op, (ast.Is, ast.Eq)):
        return left == right if not (left is None or right is None) else left is right
    if isinstance(op, (ast.IsNot, ast.NotEq)):
        return left != right if not (left is None or right is None) else left is not right
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))
    if not numbers:
        raise _Unknown("ordering of non-numbers")
    a, b = float(left), float(right)  # type: ignore[arg-type]
    if isinstance(op, ast.Lt):
        return a < b
    if isinstance(op, ast.LtE):
        return a <= b
    if isinstance(op, ast.Gt):
        return a > b
    if isinstance(op, ast.GtE):
        return a >= b
    raise _Unknown(type(op).__name__)


def _literal(text: str) -> object:
    text = _python(text.strip())
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return _UNKNOWN


def _defaults(code: Code) -> dict[str, object]:
    """The literal defaults the anchored signatures give their parameters."""
    out: dict[str, object] = {}
    pattern = re.compile(rf"(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?::[^=,(){{}}]*)?=(?![=>])\s*({_LITERAL})\s*(?=[,)}}])")
    for line in sorted(code.headers):
        for m in pattern.finditer(code.logical_text(line)):
            value = _literal(m.group(2))
            if value is not _UNKNOWN:
                out.setdefault(m.group(1), value)
    return out


def _guard(code: Code, text: str) -> tuple[str, str] | None:
    """``(condition, what follows it on its line)`` when the stripped logical line ``text`` opens an
    ``if`` (``elif``, ``else if``) of the code, else None."""
    m = (_JS_GUARD.match(text) or _BARE_GUARD.match(text)) if code.braces else _PY_GUARD.match(text)
    if m is None:
        return None
    return m.group("cond"), text[m.end():] if code.braces and m.re is _JS_GUARD else m.group("rest")


def _tripped(python: str, keys: Iterable[str], names: dict[str, object]) -> bool | None:
    """Whether the condition ``python`` holds for ``names``; None when it names none of ``keys`` or
    holds something :func:`_evaluate` does not read."""
    if not any(re.search(rf"(?<![\w$]){re.escape(k)}(?![\w$])", python) for k in keys):
        return None
    try:
        return bool(_evaluate(ast.parse(python.strip(), mode="eval"), names))
    except (_Unknown, SyntaxError):
        return None


def _guards(code: Code) -> list[tuple[str, int]]:
    """``(condition, line)`` for each condition of the code whose body raises or throws."""
    out = []
    for line in range(len(code.logical)):
        text = code.logical_text(line).strip()
        asserted = _ASSERT.match(text) if code.braces else None
        if asserted:  # assert!(cap > 0): panics when the condition is false
            out.append((f"not ({asserted.group('cond')})", line))
            continue
        guard = _guard(code, text)
        if guard is None:
            continue
        body = code.block(line)
        first = code.logical_text(body[0]).strip() if body else ""
        if _RAISES.match(guard[1].strip()) or _RAISES.match(first):
            out.append((guard[0], line))
    return out


def _positional(code: Code, callee: str, args: Sequence[str]) -> dict[str, object]:
    """The literals an example passes by position to the anchored function ``callee``, by its
    parameter names (``n.Use(nil)`` gives ``handler``: None for ``func (n *Negroni) Use(handler Handler)``)."""
    if not args or code.leaf != callee or not code.logical:
        return {}
    # export const normalize: typeof path.normalize = function (path: string) {: no signature the parser
    # marks, its first line then
    head = code.logical_text(min(code.headers) if code.headers else 0)
    name = re.escape(callee)
    m = re.search(rf"\b{name}\s*(?:<[^(]*>)?\s*\(([^()]*)\)", head) or re.search(
        rf"\b{name}\s*(?::[^=]*)?=\s*(?:async\s+)?(?:function\b\s*\w*\s*)?\(([^()]*)\)", head)  # = function (p)
    if m is None:
        return {}
    names = [n for n in (re.match(r"\s*(?:&\s*)?(?:mut\s+)?\*?([A-Za-z_$][\w$]*)", p) for p in m.group(1).split(","))
             if n and n.group(1) not in ("self", "cls", "this")]
    out: dict[str, object] = {}
    for name, raw in zip((n.group(1) for n in names), args, strict=False):
        value = _literal(raw)
        if value is not _UNKNOWN:
            out[name] = value
    return out


#: What a claim says a call gives: "`isCookieNameValid("")` is true", "CleanPath("") returns ".".
_GIVES = re.compile(r"`?\s*(?:returns|gives(?:\s+back)?|is|==|===|yields|evaluates\s+to|->|=>|\u2192)\s+"
                    r"(?:literally\s+|just\s+|simply\s+|still\s+)?`?(?P<v>Some\(|Ok\(|Err\("
                    rf"|(?:{_LITERAL}|nil|NULL)(?![\w$.(]))")
#: The ways languages write "nothing", one value here: a claim says null where the code returns undefined.
_NOTHING = frozenset({"None", "null", "undefined", "nil"})


def _given(text: str) -> str:
    """A claimed or returned value as one comparable text: its literal, or ``Some(`` for any ``Some(x)``."""
    text = text.strip().rstrip(";").strip()
    if text in _NOTHING:
        return "nothing"
    if text.endswith("(") or re.fullmatch(r"(?:Some|Ok|Err)\(.*\)", text):
        return text[:text.index("(") + 1]
    value = _literal(text)
    return repr(value) if value is not _UNKNOWN else ""


def _early_return(code: Code, names: dict[str, object]) -> tuple[str, int] | None:
    """``(value, line)`` the anchored function returns at once for the parameters ``names``: its first
    guard that tests one of them, when every guard before it is false for them, nothing before it
    returns or assigns them, and its body is ``return`` of a literal. None when that is not known."""
    assigned = re.compile(rf"(?<![\w$.])(?:{'|'.join(map(re.escape, names))})\s*(?:[-+*/]?=(?!=)|:=)")
    passed: set[int] = set()  # the bodies of the guards read so far
    for line in range(len(code.logical)):
        if line in code.headers or (line == 0 and not code.headers) or line in passed:
            continue
        text = code.logical_text(line).strip()
        guard = _guard(code, text)
        if guard is None:
            if re.match(r"(?:return|raise|throw|panic)\b", text) or assigned.search(text):
                return None
            continue
        tripped = _tripped(_python(guard[0]), names, names)
        if tripped is None:
            return None
        rest = guard[1].strip().strip("{}").strip()
        body = code.block(line)
        first = rest or (code.logical_text(body[0]).strip() if body else "")
        returned = re.fullmatch(r"return\s+(.+?)\s*;?\s*\}?", first)
        if not tripped:
            if returned is None and not _RAISES.match(first):
                return None  # a guard that does more than leave: what follows may not run as read
            passed.update(body)
            continue
        value = _given(returned.group(1)) if returned else ""
        return (value, line) if value else None
    return None


def _returns(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """The second reading: "`F(L)` returns V" where the anchored ``F``'s first guard catches ``L``
    and returns another literal at once."""
    out: list[Contradiction] = []
    for word in clause.words:
        if word.term is None or "(" not in word.term.text or clause.skip(word.text):
            continue
        gives = _GIVES.match(clause.text, word.end)
        if gives is None:
            continue
        said = _given(gives.group("v"))
        for code in codes:
            use = read_use(word.term.text, languages([language_for_path(code.label.split("::", 1)[0])]))
            given = _positional(code, use.callees[0], use.positional) if use and use.callees and not use.values \
                else {}
            if not said or not given or len(given) != len(use.positional if use else ()):
                continue
            early = _early_return(code, given)
            if early is None or early[0] == said:
                continue
            out.append(Contradiction(
                "guard", f"the claim says `{word.term.text}` gives `{gives.group('v').rstrip('(')}`; the code "
                         f"returns another value for it at once", code.show(early[1], *given), code.label,
                (word.text,)))
            return out
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    early = _returns(clause, codes)
    if early or _FAILING.search(clause.claim or clause.text):
        return early
    out: list[Contradiction] = []
    read: dict[int, tuple[list[tuple[str, int]], dict[str, object]]] = {}  # per anchor, once it is needed
    for word in clause.words:
        if word.term is None or clause.skip(word.text):
            continue
        for code in codes:
            use = read_use(word.term.text, languages([language_for_path(code.label.split("::", 1)[0])]))
            given = {k: v for k, raw in (use.values if use else ()) if (v := _literal(raw)) is not _UNKNOWN}
            if not given and use and use.callees:
                given = _positional(code, use.callees[0], use.positional)
            if not given:
                continue
            if id(code) not in read:
                read[id(code)] = (_guards(code), _defaults(code))
            guards, defaults = read[id(code)]
            names = {**defaults, **given}
            for condition, line in guards:
                if _tripped(_python(condition), given, names):
                    out.append(Contradiction(
                        "guard", f"the claim presents `{word.term.text}` as working; the code raises on it",
                        code.show(line, *given), code.label, (word.text,)))
                    return out
    return out


RULE = Rule("guard", check, __doc__ or "")
