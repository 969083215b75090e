"""value: the claim gives a name a value; the code gives it another.

Two readings, both against code only (comments and docstrings describe the
old or the alternative behaviour as often as the present one: "set host to
0.0.0.0 to listen externally").

Computed values. A word of the claim the code assigns (``cnonce = ...``)
or tests as a string (``if "text" in content_type:``), paired within four
words with a number, a named variant (``MD5``, ``utf-8``, ``sha256``) or an
address (``127.0.0.1``). When what the code computes it from (following
local assignments two steps) or returns for it holds values of the same
kind but not the claim's, it fires: ``cnonce`` is computed from ``sha1``,
not ``MD5``. Numbers are read in their base (``0b11`` is 3), and a name its own
statement computes with shifts or masks (``width = packed >> (2 * (cp & 0b11)) & 0b11``)
takes values no number of it says. Numbers are values only where the code uses them as values:
an index (``timeout[3]``), a slice (``[:16]``) or a bound in a comparison
(``len(timeout) < 4``) is not what anything is set to. A number the claim
gives as a bound ("caps it at 3", "similarity > 0.4", "at most 5") is not
what a name is computed from when the name's own assignment is a call or
arithmetic of other names, writing no number itself (``distance =
editDistance(a, b)``): the claim bounds the result, the code computes it.
A number the name's own statement writes (``Math.min(n, 5)``) still counts.
A number the claim writes as an operand of arithmetic or of a comparison
("resizes when ``fill*3 >= capacity*2``", "range <= 0 or > 32") is a term
of an expression, no value of the name beside it.

Stated values. ``S is V``, ``S = V``, ``S defaults to V``, ``S is set to
V``, ``S is always V``, ``S starts (at, as, out as) V``, ``S is initialized to V`` (up
to two words between ``S`` and the verb:
"etag setting = 'strong'"; a noun may stand between the verb and a number when it is a word
of the code's names: "`success` is level 4" of ``LogLevels``; a code name written ``S: V`` as in an
object or a struct, "(case_sensitive:
false)", even across the ``: `` that ends a clause, and a plain word so written when
"by default" opens the parentheses: "overrides existing globals by default (overrides: true)"; but
not inside braces: ``f({ S: V })`` is what a caller passes; and never the last operand of a product,
"BYTES_AT_ONCE = 16 * UNROLL = 64" states the product, not ``UNROLL``), where ``V`` is ``True``/``False``, ``None``/
``null``/``undefined``, a quoted string or a number, and ``S`` is an
operand (or a setting's key, "subdomain offset", quoted as the code
quotes it, "'parse-numbers' is false", or written bare with its hyphens,
"duplicate-arguments-array defaults to false", or a manifest's bare key
``K = V``, ``K: V``: 'requires-python is ">=3.8"', a version quoted as the
manifest's string; "node-version 20", a number right after such a key,
no verb between). A backticked ``S = V``
(or a keyword ``S=V``) counts too when the claim calls it the default
right beside it ("defaults to `S=V`", "`S=V` by default", "(S=V)" after
"by default", or further on in a list of the defaults: "defaults: everything
True, including S=V", not past a caller's verb such as "but pass S=V"), and
so does a JavaScript or TypeScript function's signature
written out (``addRoute(ctx, method = "GET", path)``: those languages pass
no argument by name); a default the clause names for another name does not make
it one ("... defaults to X, unless declared with S=V"). A default given in
an aside right after a name or a keyword is stated too: "opt in with
``S=V`` (default W)" states ``S`` defaults to ``W``, and so do "S is opt-in
(W by default)" and "S is opt-in (defaults to W)". So is a value followed, up to two words on, by
the code's name for it in parentheses: "cleaned up after 10 seconds (_MALFORMED_LOCK_AGE_THRESHOLD)"
states ``_MALFORMED_LOCK_AGE_THRESHOLD`` is 10 s. The code's values for ``S``:
assignments (``self.S = V``, class-body attributes and fields ``S = V``,
Go's typed ``S T = V`` and Rust's ``pub const S: T = V``,
``private readonly S = V``, ``#S = V``; a claim's ``#S`` is that private
field only, not a key ``S`` of an object), signature
defaults (``S: bool = V``, ``S: Literal["a", "b"] = V``), dict and object entries (``"S": V``) and
setter calls (``set("S", V)``, ``get("S", V)``, ``getattr(o, "S", V)`` and ``getattr(o, "S", lambda:
V)``; Go's ``flag.StringVar(&v, "S", V, ...)``, pflag's ``StringP`` and getopt's ``StringLong`` with a
short form before ``V``, where "the -S flag defaults to V" names ``S``, and a bare word the code spells as
a string is ``V`` too: "the --format flag defaults to rfc3339"; a setting registered by its name with
``default=V``: pytest's ``addini("S", ...)`` and ``addoption("--S", ...)``, argparse's ``add_argument``,
click's ``option``, an option's dashes its name's underscores). "F defaults S to V" states ``S``
(not when ``F`` is another anchored function than the code read: "unescape() defaults magicalBraces to
true, while escape() ..."), and "opens it with ``S=V`` unless you pass something else" calls ``S=V`` the
default. "leaves (sets, keeps) S V" states ``S`` too ("New() leaves HandleOPTIONS false"), and nothing
after "unlike" is stated of the anchored code ("unlike encode/decode, where S defaults to False"). An
entry inside a string ("show times in this format: default") is no entry, and a typed
assignment's own name (``S: Callable[[], bool] = ...``) is no entry either. A constant of the language
is a literal too (``Infinity``, ``Number.POSITIVE_INFINITY``, ``math.inf``),
and a number the claim writes with a unit is also its value in the units
code keeps (``10 s`` is ``10000`` ms). When the claim calls ``V`` the default
and nothing assigns ``S`` a literal, the code's values are what a read of
the caller's setting falls back to (``opts.S || V``, ``opts.S ?? V``,
``opts.S !== undefined ? opts.S : V``; ``V`` may be constant arithmetic,
``2 * 1024 * 1024``, read as its value), and "default" may come before the
name ("Default maxFieldsSize = 1 MB"). It fires when every one of them is a
literal and none is ``V``. A statement the clause makes a condition of ("only
consulted when ``S == V``", "if the env var S is V") or a case it supposes
("even a tsconfig with noEmit: true can't stop it", a statement across the
clause's colon too) states nothing of the code's ``S``, and neither does a
key a caller passes ("you have to pass ``S: V``").

A keyword a call of the claim writes (``Encoder.add(to_add, sensitive,
huffman=False)``) is stated of the function the call names: read against an
anchor that declares another function, where another anchor of the claim
declares the callee, it is not stated ("encode(headers, huffman=True) by
default, but ... add(..., huffman=False)" anchored on both).

A word that makes a key with the word before or after it, where an
anchored code writes that key as a string ("subdomain offset defaults to
2" beside ``set('subdomain offset', 2)``), is the setting, not a variable
of another anchor spelled like it (express's ``var offset = host[0] ===
'[' ? ... : 0``).

A value right before a name that has a value of its own right after it
("rust 1.56 (edition 2021)") is not that name's.

A number right before a unit word that is also the name ("365.25 days"
for ``let days = ...``) is a quantity in that unit, not the name's value
(round 11, read on the sealed humantime after its run).

A plain lower-case word written with its value (``reset: false``) is a
key only where the anchored code writes it as an entry with a literal
(``reset: true,`` in a struct it builds). A number inside a subscript the
claim writes (``matches[1]``) is an index, paired with no name. A Rust
``Default`` impl anchored (``<ColorChoice as Default>.default``, or the
whole ``<ColorChoice as Default>`` block) that
returns one variant gives the type's default: "Default ColorChoice is
Never" fires for ``ColorChoice::Auto``.

A default that is a name: "decodeURI is the default `decode`" where the
code gives ``decode`` another of the same family (one name starts the
other, or both share their first six characters): a signature's or an
unpacking's default (``decode = decodeURIComponent``), what a read of the
caller's setting falls back to (``options?.encode ||
encodeURIComponent``), or the assignment of a name that says it is a
default (``DEFAULT_OUTPUT_FUNCTION = colorizedStderrPrint``). A name the
claim rules out ("encodeURI, not encodeURIComponent") is not one it gives.

A boolean setting said to be on or off: "turns S on by default", "S is
off by default", "enables (disables) S by default", "S defaults to on",
"skipped by default (S is on)". It states ``S`` is true (false), compared
only where every literal the code gives ``S`` is a boolean ("mask is off
by default" says nothing of ``mask: 0``): "Archive::new turns
preserve_permissions on by default" of ``preserve_permissions: false``.

A crate's default features, against an anchored ``Cargo.toml``: "has no
default features", "enables the ``std`` feature by default", "has a default
``std`` feature", "the default feature is X", "the default feature set is
``["std", "serde"]``", "X is on (off) by default", "X support is on by
default", "X is opt-in" (``X`` a feature or an optional dependency of the
manifest) against ``default = [...]`` (none when the line is missing,
Cargo's rule; "X is on by default" also where a listed feature turns ``X``
on in turn: ``default = ["std"]``, ``std = ["alloc"]``), and "the X feature
turns on Y" against X's own list (``Y``, ``dep:Y`` or ``Y/...``).

Never fires when the code gives ``S`` no value of the claim's kind, when
some assignment of ``S`` is not a literal (``self.pool = timeout`` leaves
the value open), on ``self.S = S`` (a parameter passed through), on a
keyword written as a usage ("pass follow_redirects=True"), on two values
side by side ("socks5 and socks5h"), nor on a variable whose name has
digits (``HA1`` is no algorithm).

Rationale: defaults are the facts people copy most, and a wrong default
names only real code (``requires_response_body``, ``etag``); only the
value tells it false.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._claims import UNIT_FACTORS, Term, TermKind, arithmetic, fold, in_other_units, split_args
from memvet._code import language_for_path
from memvet._rules._common import STOP, STRING, Clause, Code, Contradiction, Rule, Word, is_boundary

__all__ = ["RULE", "assigned_from", "numbers", "variants"]

# ----------------------------------------------------------------- computed values

_VARIANT = re.compile(r"^[a-z]{2,}\d+$")


def variants(text: str) -> set[str]:
    """Named variants the code spells: ``hashlib.sha1``, ``md5_utf8``, ``"ISO-8859-1"``.

    String contents count in any case; in identifiers only lower-case parts
    count, so a variable ``HA1`` is not the name of an algorithm.
    """
    out = set()
    for m in re.finditer(rf"({STRING})|[A-Za-z_$][\w$]*", text):
        if m.group(1):
            parts = re.findall(r"[A-Za-z]{2,}(?:-?\d+)+", m.group(1))
        else:
            parts = [p for p in m.group(0).split("_") if p.islower() or p.isdigit()]
        for part in parts:
            folded = fold(part)
            if _VARIANT.match(folded):
                out.add(folded)
    return out


_NUM = r"-?\d+(?:\.\d+)?"
_SUBSCRIPT = re.compile(r"(?<=[\w$\)\]])\s*\[[^\[\]]*\]")
_COMPARED = re.compile(rf"(?:[<>]=?|[!=]==?)\s*{_NUM}|{_NUM}\s*(?:[<>]=?|[!=]==?)")


def numbers(text: str) -> set[float]:
    """Numbers the code uses as values: literals (``0b11`` and ``0x1F`` in their base), and strings
    that are only digits ("0"); not the digits inside a string such as "ISO-8859-1", not
    an index, a slice or a bound in a comparison."""
    text = re.sub(STRING, lambda m: m.group(0) if m.group(0)[1:-1].isdigit() else '""', text)
    text = _COMPARED.sub(" ", _SUBSCRIPT.sub(" ", text))
    out = set()
    for m in re.finditer(r"(?<![\w.$-])\d+(?:\.\d+)?(?![\w$]|\.\d)", text):
        out.add(float(m.group(0)))
    for m in re.finditer(r"(?<![\w.$])0([xXbBoO])([0-9A-Fa-f_]+)(?![\w$.])", text):  # 0b11 is 3, 0x1F is 31
        try:
            out.add(float(int(m.group(2).replace("_", ""), {"x": 16, "b": 2, "o": 8}[m.group(1).lower()])))
        except ValueError:  # 0b12: no number of that base
            continue
    return out


_ADDRESS = re.compile(r"(?<![\w.])(?:localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?(?![\w.]*\w)")


def _family(term: Term) -> str:
    if term.kind is TermKind.ADDRESS and _ADDRESS.fullmatch(term.text):
        return "address"
    if term.kind is TermKind.NUMBER:
        return "number" if re.fullmatch(r"-?\d+(?:\.\d+)?", term.text) else ""
    if term.kind is TermKind.IDENTIFIER and _VARIANT.match(fold(term.text)):
        return "variant"
    return ""


def _assigned(code: Code, name: str) -> list[int]:
    pattern = re.compile(rf"^\s*(?:self\.|this\.|const\s+|let\s+|var\s+|final\s+)?{re.escape(name)}\s*"
                         r"(?::[^=\n]*)?(?:[-+*/|&]|\?\?)?=(?!=)")
    return [i for i, (first, _) in enumerate(code.logical) if pattern.match(code.physical[first])]


def assigned_from(code: Code, name: str, depth: int = 2) -> list[int]:
    """The statements that compute ``name``, following local names ``depth`` steps."""
    seen: list[int] = []
    todo = [(name, 0)]
    names = {name}
    while todo:
        current, level = todo.pop()
        for line in _assigned(code, current):
            if line in seen:
                continue
            seen.append(line)
            if level >= depth:
                continue
            rhs = code.logical_text(line).split("=", 1)[-1]
            for used in re.findall(r"(?<![\w.$])[A-Za-z_]\w*", rhs):
                if used not in names and _assigned(code, used):
                    names.add(used)
                    todo.append((used, level + 1))
    return sorted(seen)


def _branch(code: Code, value: str) -> list[int]:
    """The statements that run when a condition tests for the string ``value``."""
    out = []
    quoted = re.compile(rf"""["'`]{re.escape(value)}["'`]""")
    for i in range(len(code.logical)):
        head = code.physical[code.logical[i][0]]
        if not re.match(r"\s*(?:\}\s*)?(?:if|elif|else\s+if)\b", head) or not quoted.search(code.logical_text(i)):
            continue
        out.extend(code.block(i) or [i])
    return out


_NEAR = 4  # words between a value and the word it is said of ("cnonce is an MD5": 3)

#: A number written as a bound: after a comparison sign or a word that caps or
#: floors something ("similarity > 0.4", "caps it at 3", "at most 5").
_BOUND = re.compile(r"(?:[<>]=?|\u2264|\u2265|\b(?:at\s+(?:most|least)|up\s+to|no\s+(?:more|less|fewer)\s+than"
                    r"|(?:more|less|fewer|greater|higher|lower|smaller|larger)\s+than|above|below|over|under"
                    r"|exceeds?|exceeding|within|(?:caps?|capped|capping|limits?|limited|limiting|clamps?|clamped)"
                    r"(?:\s+[\w$]+)?\s+(?:at|to)|max(?:imum)?|min(?:imum)?|threshold(?:\s+of)?))\s*$", re.I)


def _as_bound(clause: Clause, value: Word) -> bool:
    """Whether the claim gives ``value`` as a cap, a floor or a comparison's other side."""
    return _BOUND.search(clause.text[max(0, value.start - 40):value.start]) is not None


def _range_end(clause: Clause, value: Word) -> bool:
    """Whether ``value`` is an end of a range the claim writes ("a number in 400..599", "400-599",
    "between 400 and 599"): the values a name may have, not the one it is given."""
    after, before = clause.text[value.end:value.end + 12], clause.text[max(0, value.start - 40):value.start]
    return bool(re.match(r"\s*(?:\.\.=?|-|\u2013|to|through)\s*-?\d", after)
                or re.search(r"\d\s*(?:\.\.=?|-|\u2013|to|through)\s*$", before)
                or re.search(r"\bbetween\s*$", before) or re.search(r"\bbetween\s+-?[\d.]+\s+and\s*$", before))


def _expression_only(code: Code, lines: Sequence[int], name: str) -> bool:
    """Whether every statement assigning ``name`` itself computes it from other
    names, writing no number (``editDistance(a, b)``, ``(length - distance) /
    length``): a number found further down the chain is no bound of it."""
    own = [i for i in lines if i in _assigned(code, name)]
    return bool(own) and not any(numbers(code.logical_text(i).split("=", 1)[-1]) for i in own)


_BITWISE = re.compile(r">>|<<|(?<![&\s(,=])\s*&(?![&=])\s*(?=[\w(])|(?<!\|)\|(?![|=])|\^")


def _bitwise(code: Code, lines: Sequence[int], name: str) -> bool:
    """Whether a statement assigning ``name`` itself computes it with bit operations (shifts, masks):
    the numbers it writes are widths and masks, not values it can take."""
    return any(_BITWISE.search(code.logical_text(i).split("=", 1)[-1]) for i in lines if i in _assigned(code, name))


def _subject_atom(word: Word, code: Code, clause: Clause) -> str:
    """A plain word the code defines (``cnonce``), or '' (a code term is no subject here:
    "socks5 and socks5h" pairs two values, not a name and its value)."""
    text = word.text
    if (clause.skip(text) or not word.plain or not re.fullmatch(r"[a-z][a-z0-9_]{2,}", text)
            or text.lower() in STOP):
        return ""
    return text if text in code.names else ""


#: A subscript opening right before a number: ``matches[``, ``args[``.
_SUBSCRIPT_AT = re.compile(r"[\w$\])]\[\s*$")


def _computed(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    values = [w for w in clause.words if w.term is not None and _family(w.term) and not clause.skip(w.text)
              and not _SUBSCRIPT_AT.search(clause.text[:w.start])  # matches[1]: an index the claim writes
              and not _range_end(clause, w) and not _operand(clause, w)]
    if not values:
        return out
    for code in codes:
        subjects: dict[int, tuple[Word, list[int], bool]] = {}
        for w in clause.words:
            atom = _subject_atom(w, code, clause)
            if atom:
                computed = assigned_from(code, atom)
                lines = computed or _branch(code, atom)
                if lines:
                    subjects[w.index] = (w, lines, bool(computed))
        for value in values:
            near = sorted((abs(value.index - i), i > value.index, i) for i in subjects
                          if abs(value.index - i) <= _NEAR and i != value.index)
            if not near or value.term is None:
                continue
            subject, lines, computed = subjects[near[0][2]]  # one subject: the nearest the code defines
            if subject.index > value.index and any(v.index == subject.index + 1 for v in values):
                continue  # "rust 1.56 (edition 2021)": the name after the value has its own value right after it
            if _in_key(clause, subject, codes):
                continue  # "subdomain offset defaults to 2": a setting's key the code writes, not its `offset`
            text = " ".join(code.logical_text(i) for i in lines)
            family = _family(value.term)
            if (family == "number" and computed and _as_bound(clause, value)
                    and _expression_only(code, lines, subject.text)):
                continue  # "caps it at 3" of distance = editDistance(a, b): a bound, not what it is computed from
            if family == "number" and computed and _bitwise(code, lines, subject.text):
                continue  # width = packed >> (2 * (cp & 0b11)) & 0b11: bits of a value, any of 0..=3, none written
            if family == "variant":
                have = variants(text)
                ok = fold(value.text) in have
            elif family == "address":
                have = set(_ADDRESS.findall(text))
                ok = value.text in have
            else:
                nums = numbers(text)
                have = {f"{n:g}" for n in nums}
                ok = float(value.text) in nums or float(value.text) in _constant_results(text)
            if have and not ok and family == "number" and subject.index == value.index + 1 \
                    and subject.text.lower() in UNIT_FACTORS:
                continue  # "365.25 days": a quantity in the unit the name spells, not the value of `days`
            if have and not ok and _states_too(clause, have):
                continue  # "clamped from :60 to :59", "bumps 0 to 1": the claim gives the code's value as well
            if have and not ok:
                verb = "computes it from" if computed else "returns for it"
                said = f"the claim pairs `{value.text}` with `{subject.text}`"
                out.append(Contradiction(
                    "value", f"{said}; the code {verb} {', '.join(f'`{s}`' for s in sorted(have)[:4])}",
                    code.show(lines[-1] if computed else lines[0], subject.atom), code.label,
                    (value.text, subject.text)))
    return out


def _states_too(clause: Clause, have: set[str]) -> bool:
    """Whether the claim also states every value the code computes (``have``) as a value of its own, no
    operand of its arithmetic: "leap second :60 ... clamped to :59" of ``second = 59``, "a body of null
    -> 204 ... otherwise 200" of ``this.status = 204``. The claim tells the change from one value to the
    other; the value beside the name is the one it starts from. "grows by 1.5x (size + size/2)" against
    ``size /= 2`` writes 2 as an operand, and fires."""
    claim = clause.claim or clause.text
    for value in have:
        spots = [m for m in re.finditer(rf"(?<![\w.]){re.escape(value)}(?![\w.])", claim, re.I)
                 if not re.search(r"[\w)\]]\s*[*/%+-]\s*$", claim[:m.start()])
                 and not re.match(r"\s*[*/%+]\s*[\w(]", claim[m.end():])]
        if not spots:
            return False
    return True


def _in_key(clause: Clause, word: Word, codes: Sequence[Code]) -> bool:
    """Whether ``word`` and the word before or after it make a key some anchored code writes as a string
    (``'subdomain offset'``): the words name the setting, not a variable spelled like one of them."""
    at = word.index
    pairs = [f"{clause.words[j].text} {clause.words[k].text}".lower()
             for j, k in ((at - 1, at), (at, at + 1)) if j >= 0 and k < len(clause.words)]
    keys = {s.lower() for code in codes for s in code.strings}
    return any(p in keys for p in pairs)


def _operand(clause: Clause, word: Word) -> bool:
    """Whether the claim writes ``word`` as an operand of arithmetic (``fill*3``, ``(used + 1) * 2``) or
    of a comparison (``range <= 0 or > 32``, ``i === 0``): a term of an expression, not a value the name
    next to it has."""
    before = re.search(r"[\w)\]](\s*)[*/%+](\s*)$", clause.text[:word.start])
    after = re.match(r"(\s*)[*/%+](\s*)[\w(]", clause.text[word.end:])
    # spaced alike on both sides of the operator: "a /0 step" is a step written as cron writes it
    return bool((before and before.group(1) == before.group(2)) or (after and after.group(1) == after.group(2))
                or re.search(r"(?:[<>]=?|[=!]==?)\s*$", clause.text[:word.start]))


#: An assignment of constant arithmetic: ``self.mask = 8 - 1``, ``size = 1 << 10`` (a receiver allowed,
#: which :func:`memvet._claims.constant_values` does not read).
_ASSIGNED_ARITHMETIC = re.compile(r"(?<![=!<>])=(?!=)\s*([\d\s+\-*/()<>._]+?)\s*(?:;|$|\n)")


def _constant_results(text: str) -> set[float]:
    """The values of the constant arithmetic the code assigns (``8 - 1`` is 7), by the claims module's
    one evaluator of arithmetic."""
    out: set[float] = set()
    for m in _ASSIGNED_ARITHMETIC.finditer(text):
        expression = m.group(1).strip()
        if re.search(r"\d\s*(?:[-+*/]|<<|>>)\s*[\d(]", expression):
            value = arithmetic(expression, {})
            if value is not None:
                out.add(value)
    return out


# ----------------------------------------------------------------- stated values

#: Constants of the language that are values as much as literals are.
_CONSTANTS = {"infinity": "n:inf", "-infinity": "n:-inf", "number.positive_infinity": "n:inf",
              "number.negative_infinity": "n:-inf", "math.inf": "n:inf", "-math.inf": "n:-inf",
              'float("inf")': "n:inf", "float('inf')": "n:inf", 'float("-inf")': "n:-inf",
              "float('-inf')": "n:-inf", "number.max_safe_integer": "n:9.0072e+15"}
_LIT = (r'True|False|None|true|false|null|undefined|nil|"[^"\n]*"|\'[^\'\n]*\'|-?\d+(?:_\d+)*(?:\.\d+)?'
        r'|-?Infinity|Number\.(?:POSITIVE|NEGATIVE)_INFINITY|Number\.MAX_SAFE_INTEGER|-?math\.inf'
        r'|float\(["\']-?inf["\']\)')
_LIT_RE = re.compile(rf"(?:{_LIT})")
_STATES = re.compile(r"^\s*(?:[\w$-]+\s+){0,2}?(?:=|==|is|are|is set to|are set to|defaults? to|default is|"
                     r"is by default|are by default|is always|are always|"
                     r"starts?(?: out| off)?(?: at| as)?|begins?(?: at| as)?|"
                     r"(?:is|are) initiali[sz]ed to|(?:is|are) initially)\s+(?:always\s+|all\s+|both\s+|still\s+)?$")
#: "`success` is level 3", "the cap is size 64": a noun between the verb and the value, which must be a
#: word of the code's own names (``LogLevels``) to be read as naming what the value measures.
_STATES_NOUN = re.compile(r"^\s*(?:[\w$-]+\s+){0,2}?(?:is|are|defaults?\s+to|starts?\s+at)\s+(?P<noun>[a-z]{3,})\s+$")
_NOT_NOUNS = frozenset({"not", "never", "only", "also", "above", "below", "under", "over", "less", "more", "about",
                        "around", "roughly", "approximately", "after", "before", "within", "least", "most", "than",
                        "just", "exactly", "still", "always", "all", "both", "now", "then", "set", "the"})
_WORD_VALUES = {"true": "true", "false": "false", "none": "none", "null": "none", "undefined": "none",
                "nil": "none"}
#: A default given in an aside right after a name or a usage: ``www_redirect=True (default False)``.
_DEFAULT_ASIDE = re.compile(rf"(?:\s+(?:is|are)\s+opt-(?:in|out))?\s*\(\s*(?:(?:the\s+)?defaults?(?:\s+(?:is|to))?"
                            rf"\s*:?\s*({_LIT})|({_LIT})\s+by\s+default)\s*\)")
#: The same default after a dash or a comma, which ends the clause: "suffix is opt-in -- defaults to false".
_OPT_DEFAULT = re.compile(rf"\s+(?:is|are)\s+opt-(?:in|out)\s*(?:--|\u2014|\u2013|,|;)\s*(?:it\s+)?"
                          rf"defaults?\s+(?:is\s+|to\s+)?({_LIT})(?![\w-])")
_CODE_STATEMENT = re.compile(rf"^([A-Za-z_$][\w$.]*)\s*=\s*({_LIT})$")


def _norm(literal: str) -> str:
    """A literal as a comparable value: booleans, none, a string's content, a number."""
    text = literal.strip()
    if text.lower() in _CONSTANTS:
        return _CONSTANTS[text.lower()]
    if text.lower() in _WORD_VALUES:
        return _WORD_VALUES[text.lower()]
    if text[:1] in "\"'" and text[-1:] == text[:1]:
        return "s:" + text[1:-1]
    try:
        return f"n:{float(text.replace('_', '')):g}"
    except ValueError:
        return "s:" + text


def _claimed_value(word: Word) -> str:
    """The value a claim word states, normalized; '' when it is no value."""
    if word.term is None:
        return _WORD_VALUES.get(word.text.lower(), "") if word.text in ("True", "False", "None", "true",
                                                                        "false", "null", "undefined") else ""
    if word.term.kind is TermKind.STRING:
        return "s:" + word.term.text
    if word.term.kind is TermKind.NUMBER and re.fullmatch(r"-?\d+(?:_\d+)*(?:\.\d+)?", word.term.text):
        return f"n:{float(word.term.text.replace('_', '')):g}"
    if word.term.kind is TermKind.IDENTIFIER and word.term.text in ("True", "False", "None"):
        return _WORD_VALUES[word.term.text.lower()]
    return ""


#: "defaults: everything True, including `S=V`": a statement further on in a list of the defaults, no verb of
#: a caller's between ("defaults: ..., but pass S=V").
_DEFAULTS_LISTED = re.compile(r"\bdefaults\s*(?::|\u2014|--?)\s+(?:(?!\b(?:but|unless|if|when|pass|passing|set|"
                              r"setting|use|call|except|not)\b)[^.;:!?])*?,\s*(?:including|incl\.|and|plus)?\s*\(?$")


def _says_default(text: str, word: Word, lead: str = "", *, earlier: str = "") -> bool:
    """Whether the claim calls the backticked or keyword statement ``word``
    the default: "defaults to `verify=True`", "default: `x = 1`",
    "by default - x=1", "`clamp=False` by default", "`x = 1` (the default)". A default named
    elsewhere in the clause is another name's ("no_args_is_help defaults
    to ..., unless declared with invoke_without_command=True"). ``lead``
    is the claim before the clause ("default options: `x=1`" splits there), and so is ``earlier``, read
    only for a list of the defaults the clause goes on ("defaults: everything True, including `x=1`")."""
    before, after = (lead + text[:word.start]).rstrip("`'\" "), text[word.end:].lstrip("`'\"")
    return (re.search(r"\b(?:defaults?|by default)(?:\s+(?:to|is|of|value))?\s*(?:[:=]|--?|\u2013|\u2014)?\s*"
                      r"(?:[\w$]+(?::|\s)\s*){0,1}\(?$", before) is not None
            or _DEFAULTS_LISTED.search(earlier + text[:word.start].rstrip("`'\" ")) is not None
            or re.match(r"\s*(?:\(\s*(?:the\s+)?default\s*\)|by default\b|is the default\b|as the default\b"
                        r"|(?:--?|\u2013|\u2014)\s*(?:the\s+)?default\b(?!\s+(?:to|for|of)\b)"
                        r"|unless\s+(?:you|the\s+caller|callers?)\s+(?:pass(?:es)?|give[sn]?|set|sets|specif(?:y|ies))"
                        r"\s+(?:something|anything|another|a\s+different|one|it|otherwise)\b"
                        r"|unless\s+(?:overridden|otherwise\s+(?:specified|given|set))\b)",
                        after) is not None)


#: A code name written with its value as in an object or a struct: ``case_sensitive: false``.
_KEYED = re.compile(rf"(?<![\w$.])([A-Za-z_$][\w$]*(?:_[\w$]+|[a-z][A-Z][\w$]*))\s*:\s+({_LIT})(?![\w$])")


#: A plain lower-case word written with its value: ``reset: false`` (a key only where the code writes it so).
_PLAIN_KEYED = re.compile(rf"(?<![\w$.])([a-z]{{3,}})\s*:\s+({_LIT})(?![\w$])")


def _field_entry(code: Code, name: str) -> bool:
    """Whether the code writes ``name: <literal>`` as an entry of a struct or an object it builds."""
    entry = _entry(name)
    return any((m := entry.search(code.logical_text(i))) is not None and _LIT_RE.fullmatch(m.group(1).strip())
               for i in range(len(code.logical)))


#: "turns S on by default", "S is off by default", "enables S by default", "S defaults to on", "skipped by
#: default (S is on)": a boolean setting's default.
_SWITCHED = re.compile(r"\b(?:turns?|switch(?:es)?|has|leaves|keeps)\s+`?(?P<a>[A-Za-z_$][\w$]*)`?\s+(?P<x>on|off)\s+"
                       r"by default\b"
                       r"|(?<![\w$.])`?(?P<b>[A-Za-z_$][\w$]*)`?\s+(?:is|are)\s+(?P<y>on|off|enabled|disabled)\s+"
                       r"by default\b"
                       r"|\b(?P<z>enables|disables)\s+`?(?P<c>[A-Za-z_$][\w$]*)`?\s+by default\b"
                       r"|(?<![\w$.])`?(?P<d>[A-Za-z_$][\w$]*)`?\s+defaults?\s+to\s+(?P<w>on|off|enabled|disabled)\b"
                       r"|\bby default\b[^.;]{0,60}?\(\s*`?(?P<e>[A-Za-z_$][\w$]*)`?\s+(?:is|are)\s+(?P<v>on|off)\s*\)")


def _switched(clause: Clause, code: Code) -> list[tuple[str, str, str]]:
    """(subject atom, value, what the claim said) for a setting the clause says is on or off by
    default, where every literal the code gives the setting is a boolean (a number or a string is
    no switch: "mask is off by default" says nothing of ``mask: 0``)."""
    out = []
    for m in _SWITCHED.finditer(clause.text):
        group = next(g for g in ("a", "b", "c", "d", "e") if m.group(g))
        word = clause.word_at(m.start(group))
        if word is None or clause.skip(word.text):
            continue
        atom = code.resolve(word, clause.declared, parts=False)
        literal, open_ = _sources(code, atom) if atom else ([], True)
        if open_ or not literal or any(v not in ("true", "false") for v, _ in literal):
            continue
        state = (m.group("x") or m.group("y") or m.group("z") or m.group("w") or m.group("v")).lower()
        out.append((atom, "true" if state in ("on", "enabled", "enables") else "false", m.group(0).strip("` ")))
    return out


def _declares(code: Code, name: str) -> bool:
    """Whether one of the code's signatures declares ``name`` (``def name(``, ``fn name<``)."""
    pattern = re.compile(rf"(?<![\w$.]){re.escape(name)}\s*[(<]")
    return any(pattern.search(code.logical_text(i)) for i in code.headers)


#: A value's aside naming the code's name for it, up to two words after it, and where it is defined, if
#: said: "10 seconds old (_MALFORMED_LOCK_AGE_THRESHOLD)", "70 chars (DEFAULT_LINE_WRAP_WIDTH)", '"en"
#: (DEFAULT_LOCALE in constants.py)'.
_NAME_ASIDE = re.compile(r"[`'\"]?(?:\s+[A-Za-z\u00b5]+){0,2}\s*\(\s*`?"
                         r"(?P<n>[A-Z_][A-Z0-9_]{2,}|_?[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][\w$]*)`?"
                         r"(?:,?\s+(?:in|from)\s+`?[\w./-]+\.[a-z]{1,4}`?)?\s*\)")


#: What a caller passes, not what the code gives: "you have to pass `httpOnly: false`".
_PASSED = re.compile(r"\b(?:pass|passing|passes|supply|provide)\s+(?:an?\s+|the\s+)?[`'\"]?$", re.I)
#: A condition the clause puts on the name, not a value it states: "when `ambiguous_width == 2`",
#: "if env var CIBUILDWHEEL is "1"".
#: "even a tsconfig with noEmit: true can't stop it": a case the claim supposes.
_CONDITIONED = re.compile(r"\b(?:if|when|whenever|unless|while|once)\s+(?:[\w$.-]+\s+){0,3}[`'\"]?$"
                          r"|\beven\s+(?:[\w$.-]+\s+){0,4}[`'\"]?$", re.I)


#: "overrides existing globals by default (": a setting and its value in the parentheses that follow are the default.
_BY_DEFAULT_OPEN = re.compile(r"\bby\s+default\s*\(\s*`?$", re.I)


def _statements(clause: Clause, code: Code) -> list[tuple[str, str, str]]:
    """(subject atom, value, what the claim said) for each value the clause states."""
    whole = clause.claim or clause.text
    # `f({ S: V })` is what a caller passes; "has reset: false" where the code writes the field `reset: true`:
    # a plain word is a key only as the code's
    out = [(m.group(1), _norm(m.group(2)), m.group(0)) for pattern in (_KEYED, _PLAIN_KEYED)
           for m in clause.spanning(pattern)
           if m.group(1) in code.names and not clause.skip(m.group(1))
           and whole[:m.start()].count("{") <= whole[:m.start()].count("}")
           and not _PASSED.search(whole[:m.start()])
           and (pattern is _KEYED or _field_entry(code, m.group(1)) or _BY_DEFAULT_OPEN.search(whole[:m.start()]))]
    out += _switched(clause, code)
    for w in clause.words:
        aside = _DEFAULT_ASIDE.match(clause.text, w.end)
        if aside is None and clause.offset >= 0:
            aside = _OPT_DEFAULT.match(whole, clause.offset + w.end)
        if aside and not clause.skip(w.text):  # www_redirect=True (default False): the default, beside a usage
            atom = w.atom if w.term is not None and w.term.kind in (TermKind.KEYWORD, TermKind.CODE) else ""
            atom = atom if atom in code.names else code.resolve(w, clause.declared, parts=False)
            if atom:
                given = next(g for g in aside.groups() if g)
                out.append((atom, _norm(given), f"{w.text}{aside.group(0)}".strip()))
                continue
        value = _claimed_value(w)
        if not value and w.term is not None and w.term.kind is TermKind.VERSION and w.start > 0 \
                and clause.text[w.start - 1:w.start] in ("'", '"') and clause.text[w.end:w.end + 1] == clause.text[
                    w.start - 1]:
            value = "s:" + w.text  # requires-python is ">=3.8": a version written as the string the manifest has
        if not value and w.term is None and re.fullmatch(r"\d+(?:\.\d+)?", w.text) and w.index > 0:
            x = clause.words[w.index - 1]  # node-version 20: a bare number right after a manifest's key
            if not clause.text[x.end:w.start].strip() and re.search(r"\w-$", clause.text[:x.start]) \
                    and "-" in _key(clause, x, code):
                value = f"n:{float(w.text):g}"
        # `with_pattern(pattern, regex_group_count=0)` - default is 0: a signature written out with its
        # defaults (" - default is" opens the next clause: read on into it)
        if not value and w.term is not None and w.term.kind is TermKind.CALL and (_says_default(
                clause.claim[max(0, clause.offset):] if clause.claim else clause.text, w) or _js_signature(w, code)):
            callee = re.split(r"[.:]", w.text[:w.text.index("(")])[-1]
            if not _declares(code, callee) and any(_declares(other, callee) for other in code.siblings):
                continue  # encode(headers, huffman=True) of a claim anchored on encode and add: encode's default
            for keyword in (_CODE_STATEMENT.match(a.strip()) for a in split_args(_call_args(w.text))):
                atom = keyword.group(1) if keyword else ""
                if keyword and "." not in atom and atom in code.names and not clause.skip(atom):
                    out.append((atom, _norm(keyword.group(2)), keyword.group(0)))
            continue
        if not value and (w.term is None or w.term.kind is TermKind.IDENTIFIER) and w.text in code.strings \
                and not clause.skip(w.text):
            flag = _FLAG_SUBJECT.search(clause.text[:w.start].rstrip("'\"`"))
            if flag and flag.group(1) in code.strings:  # the --format flag defaults to rfc3339: a value the code spells
                out.append((flag.group(1), "s:" + w.text, " ".join(clause.text[flag.start():w.end].split())))
                continue
        if not value:
            m = _CODE_STATEMENT.match(w.text) if w.term is not None and w.term.kind in (
                TermKind.CODE, TermKind.KEYWORD) else None
            lead = clause.claim[:max(0, clause.offset)] if m and _opens_clause(clause, w) else ""
            if m and _says_default(clause.text, w, lead, earlier=(clause.claim or "")[:max(0, clause.offset)]):
                atom = m.group(1).rsplit(".", 1)[-1]
                if atom in code.names and not clause.skip(w.text):
                    out.append((atom, _norm(m.group(2)), w.text))
            continue
        if clause.skip(w.text):
            continue
        named = _NAME_ASIDE.match(clause.text, w.end)
        if named:  # "10 seconds old (_MALFORMED_LOCK_AGE_THRESHOLD)": the value, then the name of what holds it
            word = clause.word_at(named.start("n"))
            atom = code.resolve(word, clause.declared, parts=False) if word is not None else ""
            if word is not None and atom and not clause.skip(word.text):
                out.append((atom, value, " ".join(clause.text[w.start:named.end()].split())))
                continue
        flag = _FLAG_SUBJECT.search(clause.text[:w.start].rstrip("'\""))
        if flag and flag.group(1) in code.strings:  # the -f flag (of the command) defaults to ".env"
            out.append((flag.group(1), value, " ".join(clause.text[flag.start():w.end + 1].split())))
            continue
        left = [x for x in clause.words if x.end <= w.start][::-1][:4]
        for x in left:
            quoted = x.term is not None and x.term.kind is TermKind.STRING and x.start > 0  # 'parse-numbers' is false
            gap = clause.text[x.end:w.start].rstrip("'\"")
            if quoted:
                gap = gap.removeprefix(clause.text[x.start - 1:x.start])  # the subject's closing quote
            listed = gap.endswith("[") and re.match(r"""["']?\]""", clause.text[w.end:]) is not None
            if listed:
                gap = gap[:-1]  # staticDirs is ["static"]: a list of one string, read as that string
            keyed = not gap.strip() and re.search(r"\w-$", clause.text[:x.start]) is not None
            if is_boundary(gap) or not (_STATES.match(gap + (" " if not gap.endswith(" ") else ""))
                                        or (keyed and "-" in _key(clause, x, code))
                                        or _noun_state(gap, value, code)
                                        or (_TO.fullmatch(gap) and _DEFAULTS_VERB.search(clause.text[:x.start])
                                            and not _anothers(clause, x, code))
                                        or (not gap.strip("` ") and not x.plain
                                            and _LEAVES.search(clause.text[:x.start]))):
                continue
            if re.search(r"(?:\d\s*|\s)(?:[*/+%]|<<|>>)\s+`?$", clause.text[:x.start]):
                break  # BYTES_AT_ONCE = 16 * UNROLL = 64: the value of the product, not of its last operand
            if re.search(r"\w-$", clause.text[:x.start]):
                key = _key(clause, x, code)  # duplicate-arguments-array defaults to false: a key the code writes
                if "-" in key:
                    begin = clause.text.lower().rfind(key.lower(), 0, x.end)
                    end = w.end + (1 if clause.text[w.end:w.end + 1] in ("'", '"') else 0)
                    out.append((key, value, clause.text[begin:end]))
                break  # rust-version = "1.65": the key is the compound, not its last word (version)
            before = (clause.claim[:max(0, clause.offset)] if clause.claim else "") + clause.text[:x.start]
            if _UNLIKE.search(before):
                break  # "unlike encode/decode, where std3_rules defaults to False": said of the other code
            atom = code.resolve(x, clause.declared, parts=False) if x.text.lower() not in STOP else ""
            key = _key(clause, x, code)
            subject = atom or key
            if subject and atom and clause.text[:x.start].endswith("#"):
                subject = "#" + subject  # a private field, #retryCount: not the key retryCount of an object
            if subject:
                end = w.end + (1 if clause.text[w.end:w.end + 1] in ("'", '"') else 0)
                unit = re.match(r"\s*[A-Za-z\u00b5]+\b", clause.text[end:])
                if value.startswith("n:") and unit and in_other_units(1.0, "1", "1" + unit.group(0)):
                    end += unit.end()  # 10 s: the unit is part of the value
                end += int(listed and clause.text[end:end + 1] == "]")
                out.append((subject, value, clause.text[x.start - quoted:end]))
                break
    return out


def _noun_state(gap: str, value: str, code: Code) -> bool:
    """Whether ``gap`` states a number with a noun between the verb and it ("are level 4") and the noun,
    or its plural, is a word part of the code's names (``LogLevels``)."""
    m = _STATES_NOUN.match(gap + (" " if not gap.endswith(" ") else ""))
    if m is None or not value.startswith("n:") or m.group("noun") in _NOT_NOUNS:
        return False
    return code.has_part(m.group("noun")) or code.has_part(m.group("noun") + "s")


def _anothers(clause: Clause, name: Word, code: Code) -> bool:
    """Whether the function the clause says defaults ``name`` ("unescape() defaults magicalBraces to
    true") is another anchored function than ``code``'s."""
    subject = next((w for w in reversed(clause.words) if w.end <= name.start and w.term is not None), None)
    if subject is None:
        return False
    said = subject.atom
    return said != code.symbol.rsplit(".", 1)[-1] and any(c.symbol.rsplit(".", 1)[-1] == said for c in code.siblings)


#: "defaults is_cacheable to False": the verb before the name, the value after ``to``.
#: "unlike encode/decode where ...": what follows, up to the sentence's end, is said of other code.
_UNLIKE = re.compile(r"\bunlike\b[^.;]*$", re.I)
#: "New() leaves HandleOPTIONS false", "sets `strict` true": a verb, then the name, then its value.
_LEAVES = re.compile(r"\b(?:leaves|keeps|sets|makes|turns)\s+(?:the\s+|its\s+)?`?$", re.I)
_TO = re.compile(r"`?\s+to\s+`?")
_DEFAULTS_VERB = re.compile(r"\b(?:defaults|initiali[sz]es)\s+(?:the\s+|its\s+)?`?$")

#: "the -f flag (of the godotenv command) defaults to": a command-line option named by its spelling.
_FLAG_SUBJECT = re.compile(r"(?<![\w-])--?([A-Za-z][\w-]*)`?\s+(?:flag|option|switch)\b(?:\s+of\s+[\w\s.-]+?)?"
                           r"\s+(?:defaults?\s+to|default\s+is|is\s+set\s+to)\s*$")


def _js_signature(word: Word, code: Code) -> bool:
    """Whether the written call ``word`` is the anchored JavaScript or TypeScript function's signature
    with its defaults (``addRoute(ctx, method = "GET", path)``): those languages pass no argument by
    name, so ``p = V`` between the parentheses is a default."""
    callee = word.text.split("(", 1)[0].rsplit(".", 1)[-1]
    return language_for_path(code.label.split("::", 1)[0]) in ("javascript", "typescript", "tsx") \
        and bool(code.leaf) and callee == code.leaf


def _call_args(call: str) -> str:
    """The text between a written call's outer parentheses: ``f(a, k=1)`` gives ``a, k=1``."""
    start = call.find("(")
    return call[start + 1:call.rfind(")")] if start >= 0 and call.endswith(")") else ""


def _opens_clause(clause: Clause, word: Word) -> bool:
    """Whether ``word`` opens its clause (what the claim says before the clause then leads to it)."""
    return not clause.text[:word.start].strip(" `'\"")


def _key(clause: Clause, word: Word, code: Code) -> str:
    """A setting's key the words ending at ``word`` spell (``subdomain offset``, ``duplicate-arguments-array``
    written bare), if the code has it."""
    before = [x for x in clause.words if x.end <= word.end][::-1][:3]
    for n in range(len(before), 0, -1):
        phrase = " ".join(x.text for x in reversed(before[:n]))
        written = clause.text[before[n - 1].start:word.end]  # duplicate-arguments-array: the words as written
        for s in code.strings:
            if s.lower() in (phrase.lower(), written.lower()):
                return s
        if "-" in written and n > 1:  # requires-python, node-version: a manifest's bare key, `K = V` or `K: V`
            line = re.compile(rf"\s*(?:-\s+)?{re.escape(written)}\s*[=:](?![=:])", re.I)
            if any(line.match(code.logical_text(i)) for i in range(len(code.logical))):
                return written
    return ""


#: A parameter's annotation, its brackets maybe holding commas and literals
#: (``Literal["lax", "strict"]``, ``dict[str, int]``).
_ANNOTATION = r"(?:[^=,()\[\]]|\[[^\[\]=]*(?:\[[^\[\]=]*\][^\[\]=]*)*\])*"


def _entry(name: str) -> re.Pattern[str]:
    """A dict or object entry for ``name``, its value the group: ``"S": V``, ``S: V``."""
    return re.compile(rf"""(?<![\w$.])["']?{re.escape(name)}["']?\s*:\s*([^,{{}}]+?)\s*(?=[,}}]|$)""")


def _sources(code: Code, name: str) -> tuple[list[tuple[str, int]], bool]:
    """The literal values the code gives ``name`` (value, line), and whether
    some other source leaves it open."""
    n = re.escape(name)
    dashed = n.replace("_", "[-_]")  # --func-only is the func_only setting
    literal: list[tuple[str, int]] = []
    open_ = False
    # self.x, ac.x (a field set through a local: `ac.no_std = true`), const x, a class field (private readonly x: T,
    # static x, #x)
    private = r"(?:this\.)?" if name.startswith("#") else "#?"
    # Go's `X time.Duration = -1` (a const block's line) and Rust's `pub const X: u8 = 0` too
    assign = re.compile(rf"^\s*(?:export\s+|pub(?:\([\w\s]*\))?\s+)?(?:(?:self|this|cls|[a-z_][\w$]*)\.|const\s+"
                        r"|let\s+|var\s+"
                        r"|[\w$]+\.prototype\.|(?:(?:private|public|protected|readonly|static|declare|override)\s+)+)?"
                        rf"{private}{n}\s*(?::[^=]*|\s[A-Za-z_*\[\]][\w.*\[\]]*\s*)?=(?!=)\s*(.*?)\s*;?$")
    default = re.compile(rf"(?<![\w$.]){n}\s*(?::{_ANNOTATION})?=(?!=)\s*([^,()]+?)\s*(?=[,)])")
    entry = _entry(name)
    setter = re.compile(rf"""\.\s*(?:set|setdefault|get)\s*\(\s*["']{n}["']\s*,\s*([^()]+?)\s*\)"""
                        # Go's flag package: flag.StringVar(&v, "f", "", "usage") gives flag f the default "";
                        # pflag's StringP and getopt's StringLong take a short form before it
                        rf"""|[\w)]\.(?:String|Bool|Int|Int64|Uint|Uint64|Float64|Duration)(?:Var)?\(\s*"""
                        rf"""(?:&[\w.]+\s*,\s*)?"{n}"\s*,\s*([^,()]+?)\s*,"""
                        rf"""|[\w)]\.(?:String|Bool|Int|Int64|Uint|Uint64|Float64|Duration)(?:Var)?(?:P|Long)\(\s*"""
                        rf"""(?:&[\w.]+\s*,\s*)?"{n}"\s*,\s*(?:'[^']*'|"[^"]*")\s*,\s*([^,()]+?)\s*,"""
                        # Python's getattr(obj, "name", default), a callable default read as what it gives
                        rf"""|\bgetattr\(\s*[\w.]+\s*,\s*["']{n}["']\s*,\s*(?:lambda\s*:\s*)?([^()]+?)\s*\)"""
                        # a setting registered by its name with its default: pytest's parser.addini("S", ...,
                        # default=V) and addoption("--S", ...), argparse's add_argument, click's option
                        rf"""|\.\s*(?:addini|addoption|add_argument|option)\(\s*["'](?:--)?{dashed}["']"""
                        rf"""[^()]*?\bdefault\s*=\s*([^,()]+?)\s*[,)]""")
    # const { S = V, ... } = options: a default the body gives a setting it unpacks
    unpacked = re.compile(rf"(?<![\w$.]){n}\s*=(?![=>])\s*([^,(){{}}]+?)\s*(?=[,}}])")
    for i in range(len(code.logical)):
        text = code.logical_text(i)
        found: list[str] = []
        if i in code.headers:
            found += [m.group(1) for m in default.finditer(text)]
        elif _UNPACKING.match(text):
            found += [m.group(1) for m in unpacked.finditer(text)]
        elif (own := _own_line_default(text, name)) is not None:
            found.append(own)  # sensitive = false, on a line of an unpacking of its own
        else:
            set_by = list(setter.finditer(text))
            m = assign.match(text)
            if m and not any(m.start(1) <= x.start() < m.end(1) for x in set_by):
                found.append(m.group(1))  # x = getattr(o, "x", True): the default is read below, not the call
            # `FROZEN: Final = 0` is an annotated assignment (read above), not an entry whose value is `Final = 0`;
            # "show times in this format: default" is a string's text, not an entry
            quoted = [(q.start(), q.end()) for q in re.finditer(STRING, text)]
            found += [e.group(1) for e in entry.finditer(text) if not _ANNOTATED.match(e.group(1))
                      and not (m and e.start() < m.start(1))  # the assignment's own name, typed
                      and not any(a < e.start() < b for a, b in quoted)]
            found += [next(g for g in m.groups() if g is not None) for m in set_by]
        for rhs in found:
            rhs = rhs.strip()
            if re.fullmatch(rf"(?:(?:self|this)\.)?{n}", rhs):
                continue  # a parameter passed through
            if _LIT_RE.fullmatch(rhs):
                literal.append((_norm(rhs), i))
            else:
                open_ = True
    return literal, open_


#: The head of a table of defaults: ``var defaults = {``, ``DEFAULT_OPTIONS = {``, ``defaultOptions: {``.
_DEFAULTS_TABLE = re.compile(r"^\s*(?:export\s+)?(?:(?:var|let|const|static|final)\s+)?[\w$.]*default[\w$]*\s*"
                             r"(?::[^=]*)?[:=]\s*(?:Object\.freeze\(\s*)?[{\[]\s*$|"
                             r"^\s*(?:export\s+)?(?:(?:var|let|const)\s+)?[\w$.]*default[\w$]*\s*(?::[^=]*)?[:=]\s*"
                             r"(?:Object\.freeze\(\s*)?\{.*\}", re.I)


def _tabled(code: Code, name: str) -> list[tuple[str, int]]:
    """The literal values a table of defaults gives ``name`` (value, line):
    an object or dict literal assigned to a name that says default (``var
    defaults = { depth: 5, ... }``). A claim about a default is about that
    table, whatever else the code assigns to the name."""
    entry = _entry(name)
    out: list[tuple[str, int]] = []
    for i in range(len(code.logical)):
        head = code.logical_text(i)
        if not _DEFAULTS_TABLE.match(head):
            continue
        lines = [i] if "{" in head and head.count("{") == head.count("}") else []  # the table in one logical line
        if not lines:
            indent = code.indent(i)
            for j in range(i + 1, len(code.logical)):
                if code.indent(j) <= indent:
                    break
                lines.append(j)
        for j in lines:
            text = code.logical_text(j) if j != i else head[head.index("{") + 1:]
            out += [(_norm(m.group(1)), j) for m in entry.finditer(text) if _LIT_RE.fullmatch(m.group(1).strip())]
    return out


#: An annotation followed by the assignment it annotates: ``Final = 0`` of ``FROZEN: Final = 0``.
_ANNOTATED = re.compile(r"^[\w.\[\], |]+=(?![=>])")
#: A statement that unpacks settings with defaults: ``const { a = 1, b } = options``.
_UNPACKING = re.compile(r"^\s*(?:const|let|var)\s*\{.*\}\s*(?::[^=]*)?=(?!=)")


def _own_line_default(text: str, name: str) -> str | None:
    """The default a line of an unpacking spread over lines gives ``name``
    (``sensitive = false,``), or ``None`` when the line is not one."""
    m = re.match(rf"^\s*{re.escape(name)}\s*=(?![=>])\s*([^,;]+?)\s*,$", text)
    return m.group(1) if m else None

#: A setting made a boolean of what the caller passed: unset, it is false.
_AS_BOOLEAN = r"(?:Boolean\(|parseBoolean\(|bool\(|!!\s*)\s*(?:[\w$.]+\s*&&\s*)?(?:[\w$]+\??\.)*{n}\s*\)?\s*;?$"


def _unset(code: Code, name: str) -> int | None:
    """The line where the code makes ``name`` a boolean of what the caller
    passed (``const extended = Boolean(options?.extended)``), so that its
    default, unset, is false; ``None`` when it does not."""
    n = re.escape(name)
    assign = re.compile(rf"^\s*(?:(?:self|this)\.|const\s+|let\s+|var\s+)?{n}\s*=(?!=)\s*" + _AS_BOOLEAN.format(n=n))
    return next((i for i in range(len(code.logical)) if assign.match(code.logical_text(i))), None)


def _shown(value: str) -> str:
    if value.startswith("s:"):
        return repr(value[2:])
    if value.startswith("n:"):
        return value[2:]
    return {"true": "True", "false": "False", "none": "None"}.get(value, value)


def _in_units(value: str, said: str) -> set[str]:
    """A stated number in the other units of its dimension (``10 s`` is
    ``10000`` ms), when a unit follows it in ``said``."""
    if not value.startswith("n:"):
        return set()
    numbers = re.findall(r"-?\d[\d_.]*", said)
    return {f"n:{v:g}" for v in in_other_units(float(value[2:]), numbers[-1], said)} if numbers else set()


#: Values a ``||`` / ``or`` fallback replaces, and those a ``??`` replaces.
_FALSY = frozenset({"n:0", "s:", "false", "none"})
_NULLISH = frozenset({"none"})


def _fallback(code: Code, name: str, value: str) -> tuple[str, int] | None:
    """``(fallback, line)`` when the code replaces ``name``'s stated default
    ``value`` by another operand: ``this.S = S || other`` (``S or other``,
    ``S ?? other`` for null and undefined)."""
    n = re.escape(name)
    assign = re.compile(rf"^\s*(?:(?:self|this|cls)\.|const\s+|let\s+|var\s+)?#?{n}\s*(?::[^=]*)?=(?!=)\s*"
                        rf"(?:(?:self|this)\.)?{n}\s*(\|\||\?\?|\bor\b)\s*(.+?)\s*;?$")
    for i in range(len(code.logical)):
        m = assign.match(code.logical_text(i))
        if m is None or value not in (_NULLISH if m.group(1) == "??" else _FALSY):
            continue
        other = m.group(2)
        if _LIT_RE.fullmatch(other) and _norm(other) == value:
            continue
        return other, i
    return None


def _option_defaults(code: Code, name: str) -> list[tuple[str, int]]:
    """The literal a read of the caller's setting ``name`` falls back to when it is not passed
    (``opts.dotfiles !== undefined ? opts.dotfiles : 'ignore'``, ``options.level || 6``,
    ``opts.depth ?? 32``, ``options.x or 5``): the setting's default (value, line)."""
    n = re.escape(name)
    read = rf"(?<![\w$.])(?:[\w$]+\??\.)+{n}(?![\w$])"  # opts.name, this.opts.name, options?.name
    forms = re.compile(rf"{read}\s*(?:\|\||\?\?|\bor\b)\s*({_PRODUCT}|{_LIT}|{_STRINGS})(?![\w$.(])"
                       rf"|{read}\s*!==?\s*(?:undefined|null)\s*\?\s*{read}\s*:\s*({_LIT})(?![\w$.(])"
                       rf"|{read}\s*===?\s*(?:undefined|null)\s*\?\s*({_LIT})\s*:\s*{read}")
    out: list[tuple[str, int]] = []
    for i in range(len(code.logical)):
        text, j = code.logical_text(i), i + 1
        while j < len(code.logical) and re.match(r"\s*(?:\?(?!\.)|:)", code.logical_text(j)):
            text, j = f"{text} {code.logical_text(j)}", j + 1  # a conditional's branches on lines of their own
        for m in forms.finditer(text):
            given = next(g for g in m.groups() if g is not None)
            # `options.staticDirs || ["public"]`: a list of strings gives each of them
            out += [(_norm(x), i) for x in _STRING.findall(given)] if given.startswith("[") else \
                [(_norm(_folded(given)), i)]
    return out


#: A list of string literals a setting falls back to: ``["public"]``, ``['br', 'gzip']``.
_STRING = re.compile(r""""[^"\n]*"|'[^'\n]*'""")
_STRINGS = rf"\[\s*(?:{_STRING.pattern})(?:\s*,\s*(?:{_STRING.pattern}))*\s*,?\s*\]"


#: Constant arithmetic a default is written as: ``2 * 1024 * 1024``, ``1 << 20``, ``60 * 1000``.
_PRODUCT = r"\d[\d_]*(?:\s*(?:\*|<<)\s*\d[\d_]*)+(?!\s*[-+/%])"


def _folded(literal: str) -> str:
    """A default written as constant arithmetic, as its value (``2 * 1024 * 1024``: ``2097152``)."""
    if not re.fullmatch(_PRODUCT, literal):
        return literal
    value = arithmetic(literal, {})
    return f"{value:g}" if value is not None else literal


def _stated(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for code in codes:
        for subject, value, said in _statements(clause, code):
            at = clause.text.find(said)
            spans = clause.claim.find(said, max(clause.offset, 0)) if at < 0 and clause.claim else -1
            lead = clause.text[:at] if at >= 0 else clause.claim[:spans] if spans >= 0 else ""
            if lead and _CONDITIONED.search(lead):
                # "... only consulted when `ambiguous_width == 2`": a case, not the default; "even a tsconfig
                # with noEmit: true" (a statement that spans the clause's colon) likewise
                continue
            literal, open_ = _sources(code, subject)
            tabled = _tabled(code, subject) if re.search(r"\bdefault", clause.text, re.I) else []
            if tabled:  # "depth defaults to 10" of `var defaults = { depth: 5 }`, whatever else sets depth
                literal, open_ = tabled, False
            said_default = re.search(r"\bdefault", said) is not None
            # "Default maxFieldsSize = 1 MB": the clause says it of the default before the statement
            defaulted = said_default or (at >= 0 and re.search(r"\bdefault\w*\s+(?:\w+\s+){0,2}$", clause.text[:at],
                                                               re.I) is not None)
            options = _option_defaults(code, subject) if not literal and defaulted else []
            if options:  # "dotfiles defaults to 'deny'" of `opts.dotfiles !== undefined ? opts.dotfiles : 'ignore'`
                literal, open_ = options, False
            fallback = _fallback(code, subject, value) if said_default else None
            if fallback is not None:  # maxEntrySize = 0 in the signature, then maxEntrySize || maxSize
                out.append(Contradiction(
                    "value", f"the claim says `{said}`; the code falls back to `{fallback[0]}` for that value",
                    code.show(fallback[1], subject), code.label, (subject,)))
                continue
            unset = _unset(code, subject) if said_default and value == "true" else None
            if unset is not None:  # "extended defaults to true" for extended = Boolean(options.extended)
                out.append(Contradiction(
                    "value", f"the claim says `{said}`; the code makes `{subject}` a boolean of what is passed, "
                             "false when unset", code.show(unset, subject), code.label, (subject,)))
                continue
            if not literal or open_ or any(v == value or v in _in_units(value, said) for v, _ in literal):
                continue
            have = ", ".join(sorted({_shown(v) for v, _ in literal}))
            out.append(Contradiction(
                "value", f"the claim says `{said}`; the code gives `{subject}` {have}",
                code.show(literal[0][1], subject), code.label, (subject,)))
    return out


def _named_defaults(code: Code, name: str) -> list[tuple[str, int]]:
    """``(name, line)`` for each default the code gives ``name`` that is a
    name itself: a function or a constant (``decode = decodeURIComponent``),
    what a read of the caller's setting falls back to (``options?.encode ||
    encodeURIComponent``), or, for a name that says it is a default
    (``DEFAULT_OUTPUT_FUNCTION = colorizedStderrPrint``), its assignment."""
    n = re.escape(name)
    bare = r"([A-Za-z_$][\w$.]*)"
    default = re.compile(rf"(?<![\w$.]){n}\s*(?::{_ANNOTATION})?=(?![=>])\s*{bare}\s*(?=[,)}}]|$)")
    fallback = re.compile(rf"(?<![\w$.])(?:[\w$]+\??\.)+{n}\s*(?:\|\||\?\?|\bor\b)\s*{bare}\s*(?=[,;)}}]|$)")
    assign = re.compile(rf"^\s*(?:export\s+)?(?:const\s+|let\s+|var\s+)?{n}\s*(?::[^=]*)?=(?![=>])\s*{bare}\s*;?$")
    out = []
    for i in range(len(code.logical)):
        text = code.logical_text(i)
        if i in code.headers or _UNPACKING.match(text) or _own_line_default(text, name) is not None:
            out += [(m.group(1), i) for m in default.finditer(text) if not _LIT_RE.fullmatch(m.group(1))]
        out += [(m.group(1), i) for m in fallback.finditer(text) if not _LIT_RE.fullmatch(m.group(1))]
        if "default" in name.lower() and (m := assign.match(text)) and not _LIT_RE.fullmatch(m.group(1)):
            out.append((m.group(1), i))
    return out


def _siblings(a: str, b: str) -> bool:
    """Two names of one family: one starts the other (``decodeURI``,
    ``decodeURIComponent``) or they share their first six characters."""
    a, b = a.rsplit(".", 1)[-1], b.rsplit(".", 1)[-1]
    return a != b and (a.startswith(b) or b.startswith(a) or (len(a) >= 6 and a[:6] == b[:6]))


_RULED_OUT = re.compile(r"(?:\bnot|\brather\s+than|\binstead\s+of)\s*[`'\"]?$", re.I)


def _named(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """A default the clause names as a function or constant that is a sibling
    of the one the code gives: "decodeURI is the default `decode`" for
    ``decode = decodeURIComponent``; "DEFAULT_OUTPUT_FUNCTION is colorizedStdoutPrint" for
    ``DEFAULT_OUTPUT_FUNCTION = colorizedStderrPrint``."""
    if "default" not in clause.text.lower():
        return []
    names = [w for w in clause.words if re.fullmatch(r"[A-Za-z_$][\w$.]*", w.atom or w.text)
             and not clause.skip(w.text)]
    # "is encodeURI, not encodeURIComponent": a name the claim rules out is not one it gives
    said = {w.text for w in names if not _RULED_OUT.search(clause.text[:w.start])}
    out: list[Contradiction] = []
    for code in codes:
        for word in names:
            subject = code.resolve(word, clause.declared, parts=False)
            if not subject:
                continue
            given = _named_defaults(code, subject)
            if not given or any(g in said or g.rsplit(".", 1)[-1] in said for g, _ in given):
                continue
            for other in names:
                if other is word or other.term is None or not all(_siblings(other.text, g) for g, _ in given):
                    continue
                out.append(Contradiction(
                    "value", f"the claim gives `{other.text}` as the default `{subject}`; the code defaults it to "
                             f"`{given[0][0]}`", code.show(given[0][1], subject), code.label,
                    (word.text, other.text)))
                return out
    return out


#: "Default ColorChoice is Never", "ColorChoice defaults to `ColorChoice::Never`".
_DEFAULT_VARIANT = re.compile(r"(?i:\bdefaults?\b)[^.;]{0,40}?\b(?:is|to|returns|=)\s+"
                              r"`?(?:[A-Za-z_]\w*::)?([A-Z]\w*)`?")
#: The impl a label names: ``src/lib.rs::<ColorChoice as Default>.default``, or the whole impl block.
_DEFAULT_IMPL = re.compile(r"::<(?:\w+::)*(\w+)(?:<[^<>]*>)? as Default>(?:\.default)?$")


def _default_variant(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """A Rust ``Default`` impl anchored, and the claim naming another variant
    as the type's default: "Default ColorChoice is Never" where
    ``fn default() -> ColorChoice { ColorChoice::Auto }``."""
    out: list[Contradiction] = []
    for code in codes:
        impl = _DEFAULT_IMPL.search(code.label)
        if impl is None or not re.search(rf"(?<![\w$]){impl.group(1)}(?![\w$])", clause.claim or clause.text):
            continue
        owner = impl.group(1)
        given = {m.group(1): i for i in range(len(code.logical))
                 for m in [re.match(rf"^\s*(?:return\s+)?(?:Self|{owner})::([A-Z]\w*)\s*;?\s*$", code.logical_text(i))]
                 if m}
        for m in _DEFAULT_VARIANT.finditer(clause.text):
            variant = m.group(1)
            if not given or variant in given or variant in (owner, "Self") or clause.skip(variant):
                continue
            have, line = next(iter(given.items()))
            out.append(Contradiction(
                "value", f"the claim gives `{variant}` as the default {owner}; the code's default is `{owner}::{have}`",
                code.show(line, have), code.label, (variant,)))
    return out


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    return (_computed(clause, codes) + _stated(clause, codes) + _named(clause, codes) + _default_variant(clause, codes)
            + _arrays(clause, codes) + _default_features(clause, codes))


#: "has no default features", "default features are empty": the claim's default feature set is empty (not
#: "serde (version 1.0, no default features)": a dependency taken without its own).
_NO_DEFAULTS = re.compile(r"\b(?:has|have|ships|ships\s+with|comes\s+with|with)\s+no\s+default\s+features\b"
                          r"|\bdefault\s+features\s+(?:are|is)\s+(?:empty|none)\b", re.I)
#: "enables the `std` feature by default", "std is on by default", "default features include std", "has a
#: default `std` feature".
_ON_BY_DEFAULT = re.compile(r"\benables?\s+(?:the\s+)?[`'\"]?(?P<a>[\w-]+)[`'\"]?\s+feature\s+by\s+default"
                            r"|(?:the\s+)?[`'\"]?(?P<b>[\w-]+)[`'\"]?\s+feature\s+is\s+(?:on|enabled)\s+by\s+default"
                            r"|\bha(?:s|ve)\s+an?\s+default\s+[`'\"]?(?P<e>[\w-]+)[`'\"]?\s+feature\b"
                            r"|\bdefault\s+features?(?:\s+set)?\s+(?:include|includes|contain|contains|is|are)\s+"
                            r"(?:just\s+|only\s+)?[`'\"]?(?!(?:empty|none|disabled|enabled|off|on|all|not|the|an?)\b)"
                            r"(?P<c>[\w-]+)[`'\"]?(?P<more>(?:\s*(?:\+|,|&|\band\b)\s*[`'\"]?[\w-]+[`'\"]?)*)",
                            re.I)
#: "the default feature set is ["std", "serde"]": the whole list, each of it a default feature.
_DEFAULT_LIST = re.compile(r"\bdefault\s+features?(?:\s+set)?\s+(?:is|are|=)\s+(?:just\s+|only\s+)?"
                           r"`?\[(?P<l>[^\]\n]*)\]", re.I)


#: "terminal_size is on by default", "smawk is off by default": a name the manifest must declare as a feature
#: (or an optional dependency, which is one) for the words to be about one.
_BARE_BY_DEFAULT = re.compile(r"[`'\"]?(?P<x>[A-Za-z][\w-]*)[`'\"]?\s+(?:feature\s+|support\s+)?(?:is|are)\s+"
                              r"(?P<no>not\s+)?(?:(?P<state>on|off|enabled|disabled)\s+by\s+default\b"
                              r"|opt-(?P<opt>in|out)\b)", re.I)
#: "the `unicode-linebreak` feature turns on the unicode-linebreak crate": what a feature's own list enables.
_ENABLES = re.compile(r"[`'\"]?(?P<f>[A-Za-z][\w-]*)[`'\"]?\s+(?:Cargo\s+)?feature\s+(?:turns\s+on|enables|activates"
                      r"|pulls\s+in)\s+(?:(?:the|an?|its)\s+)?(?:optional\s+)?[`'\"]?(?P<d>[A-Za-z][\w-]*)", re.I)
_OPTIONAL = re.compile(r"^([A-Za-z_][\w-]*)\s*=\s*\{.*\boptional\s*=\s*true\b")


def _cargo_features(code: Code) -> tuple[dict[str, tuple[int, set[str]]], set[str], int]:
    """A ``Cargo.toml``'s features, each with its logical line and its list; its optional
    dependencies (features too); and the line of its ``[features]`` header (0 when none)."""
    section, table = "", 0
    features: dict[str, tuple[int, set[str]]] = {}
    optional: set[str] = set()
    for index in range(len(code.logical)):
        text = code.logical_text(index).strip()
        if text.startswith("["):
            section = text
            table = index if text == "[features]" else table
        elif section == "[features]" and (own := _ARRAY.match(text)):
            features[own.group(1)] = (index, _entries(own))
        elif section == "[dependencies]" and (dep := _OPTIONAL.match(text)):
            optional.add(dep.group(1))
    return features, optional, table


def _default_features(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """What a crate's default features are, against its anchored ``Cargo.toml``: ``default = [...]``
    under ``[features]``, or none at all when that line is missing (Cargo's rule). "has no default
    features" where the list has some; "enables the `std` feature by default" where it lacks ``std``;
    "terminal_size is on (off) by default" ("X support is on by default", "X is opt-in") where a feature or
    optional dependency of that name is not (is) in the list or turned on by what it lists; "the default
    feature is X" or "the default feature set is [...]" where the list lacks one. And "the X feature
    turns on Y" where X's own list does not name Y."""
    empty = _NO_DEFAULTS.search(clause.text)
    whole = _DEFAULT_LIST.search(clause.text)
    on = _ON_BY_DEFAULT.search(clause.text) if whole is None else None
    bare = _BARE_BY_DEFAULT.search(clause.text) if on is None else None
    enables = _ENABLES.search(clause.text)
    if empty is None and whole is None and on is None and bare is None and enables is None:
        return []
    out: list[Contradiction] = []
    for code in codes:
        if code.label.rsplit("/", 1)[-1] != "Cargo.toml":
            continue
        features, optional, table = _cargo_features(code)
        line, default = features.get("default", (-1, set()))
        # "X is on by default" holds of what the list turns on in turn; "default features include X" of the list
        if not ((on and on.group("c")) or whole):
            default = _enabled(default, features)
        said = on
        named = on.group("a") or on.group("b") or on.group("c") or on.group("e") if on else ""
        if on and on.group("c") and named in default:  # "default features are std + v4": each of the manifest's
            more = re.findall(r"[\w-]+", on.group("more") or "")  # features the claim lists after the first
            named = next((x for x in more if x != "and" and x in features.keys() | optional and x not in default),
                         named)
        if whole is not None:  # the default feature set is ["std", "serde"]: its first member the code's lacks
            named = next((x for x in re.findall(r"""["'`]?([\w-]+)["'`]?""", whole.group("l")) if x not in default),
                         "")
            said = whole
        if empty is not None and default and not clause.skip(empty.group(0)):
            out.append(Contradiction("value", f"the claim says `{empty.group(0)}`; the crate's default features are "
                                     f"{', '.join(sorted(default))}", code.show(line, "default"), code.label, ()))
        elif named and named not in default and not clause.skip(named):
            written = said.group(0) if said else ""
            if said is on and named in written:  # "default features are std + v4, so ...": up to the name
                written = written[:written.rfind(named) + len(named)]
            out.append(Contradiction("value", f"the claim says `{written}`; the crate's default "
                                     f"features do not include `{named}`" + ("" if line >= 0 else
                                                                           " (its [features] has no `default`)"),
                                     code.show(line if line >= 0 else table, "default"), code.label, (named,)))
        elif bare and line >= 0 and (x := bare.group("x")) in features.keys() | optional and not clause.skip(x):
            state = (bare.group("state") or "").lower()
            said_on = (state in ("on", "enabled") or bare.group("opt") == "out") != bool(bare.group("no"))
            if (x in default or f"dep:{x}" in default) != said_on:
                out.append(Contradiction("value", f"the claim says `{bare.group(0)}`; the crate's default features "
                                         f"{'do not include' if said_on else 'include'} `{x}`",
                                         code.show(line, "default"), code.label, (x,)))
        if enables and enables.group("f") in features and not clause.skip(enables.group("f"), enables.group("d")):
            own, listed = features[enables.group("f")]
            wanted = enables.group("d")
            if not any(item in (wanted, f"dep:{wanted}") or item.startswith(f"{wanted}/") for item in listed):
                out.append(Contradiction("value", f"the claim says `{enables.group(0)}`; the feature's list does not "
                                         f"name `{wanted}`", code.show(own), code.label, (wanted,)))
    return out


def _enabled(listed: set[str], features: dict[str, tuple[int, set[str]]]) -> set[str]:
    """``listed`` with every feature its features turn on in turn: ``default = ["std"]`` and ``std =
    ["alloc"]`` turn ``alloc`` on by default too."""
    out, todo = set(listed), list(listed)
    while todo:
        for item in features.get(todo.pop(), (0, set()))[1]:
            if item not in out:
                out.add(item)
                todo.append(item)
    return out


#: ``alloc = ["std"]``, ``default = ["std", "race"]``: a key given a list of strings, as a manifest writes it.
_ARRAY = re.compile(r"""(?<![\w$.-])([A-Za-z_][\w-]*)\s*=\s*\[\s*((?:["'][^"'\n]*["']\s*,?\s*)*)\]""")


def _entries(array: re.Match[str]) -> set[str]:
    """The strings of an :data:`_ARRAY` match: ``{"std", "race"}`` of ``default = ["std", "race"]``."""
    return set(re.findall(r"""["']([^"'\n]*)["']""", array.group(2)))


def _arrays(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    """"Cargo features: alloc = ["std"]" where the code's own line gives the key another list
    (``alloc = ["race"]``): the entries, in any order, are the claim's point."""
    out: list[Contradiction] = []
    for m in _ARRAY.finditer(clause.text):
        key = m.group(1)
        said = _entries(m)
        if clause.skip(key) or re.search(r"\bdefault[\s-]+$", clause.text[:m.start()], re.I):
            continue  # "default features = [...]": the crate's default feature set, read above
        for code in codes:
            lines = [(i, own) for i in range(len(code.logical))
                     for own in [_ARRAY.match(code.logical_text(i).strip())] if own and own.group(1) == key]
            if len(lines) != 1:
                continue
            index, own = lines[0]
            if _entries(own) != said:
                out.append(Contradiction("value", f"the claim says `{' '.join(m.group(0).split())}`; the code gives "
                                         f"`{key}` other entries", code.show(index, key), code.label, (key,)))
    return out


RULE = Rule("value", check, __doc__ or "")
