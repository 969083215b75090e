"""Relation rules: claims that name the right code but say the wrong thing about it.

:mod:`memvet._claims` checks that a claim's terms *occur* in its evidence. A
false claim can pass that check with every term real: "CURL_CA_BUNDLE takes
precedence over REQUESTS_CA_BUNDLE" names two strings the code does contain,
in the wrong order. Each rule here reads one relation a claim states in
plain words, reads the same relation in the anchored code, and produces a
:class:`Contradiction` (a finding) when the two disagree. No model: each
rule is a pattern over the claim's words and a pattern over the code, and
a rule that cannot find both sides says nothing (a finding needs positive
evidence; an absence is never one, and absence anchors, dependencies and
manifests are not code). One rule departs from this on purpose: ``calls``
reads that an anchored function never mentions what the claim says it
calls. Its finding is a doubt, like an unbound term, never a certainty: it
keeps the claim unconfirmed, and no rule's finding refuses a write until
its precision is measured (``CERTAIN_RULES``).

One rule, one module, registered once in :data:`RULES`; each module's
docstring is its rationale (what it fires on, what it never fires on, and
why), and each has a fixture of cases that must and must not fire
(``tests/unit/test_rules_<rule>.py``)::

    order        A before B / B after A / A, then B / A first, B afterwards:
                 first uses in the code ("a comma split": the split with
                 that separator; `X != (missing)`: the message that prints
                 it; "memoized in X": X's first assignment)
    precedence   A takes precedence over / overrides / falls back to B:
                 fallback chains, stopping loops, merges, guarded fallbacks,
                 early returns; "overriding any X": the code keeps an X set
    value        S is V / S defaults to V / S ... V (number, variant,
                 address) / S is level V / S is on (off) by default / the
                 default X is F (a name) / V (S) / S is opt-in -- defaults
                 to V / S is ["V"]: assignments, class attributes,
                 signature defaults, setters, registering calls
                 (addini("S", default=V)), fallbacks (opts.X || G,
                 opts.X || ["G"]); default features are A + B: Cargo's
                 default list; by default (S: V)
    bases        X is only a Y / X is not a Y / X derives directly from Y
                 (X subclasses Y directly)
                 (X is a Y, both Python built-ins): the class statement;
                 X derives from Y: an anchored class Y(X)
    negation     never V X / X is never V-ed / ignores X / doesn't care about X /
                 does not define M / V is treated like any other / every
                 X, V included / doesn't check anything / nothing is
                 raised / no error / never fails / no zero-length
                 shortcut / no `code` / isn't a daemon / is case-sensitive /
                 doesn't filter X: the code does it (defines M, compares
                 with V, asserts, raises or returns a new Go error or a
                 Rust Err, calls parser.error, tests the size, writes
                 the code, passes daemon=True, folds the case, continues
                 past X in a loop's guard; a member the
                 subject names: that member and its helpers; not a
                 function the claim contrasts, "unlike X"; not a line
                 under `if K` when the claim passes K=False)
    membership   only A and B / Only A is skipped / A and B included: the
                 code's literal tests; A isn't in NAME: NAME's definition
                 has the literal A (".toml" for TOML)
    propagation  lets E propagate / raises E / leaks E: the code catches E
                 and raises another or swallows it; catches E (only): no
                 handler names E (or, without "only", a base of it);
                 returns the error from
                 f(): the code throws f's result away (`_ = f()`); an error
                 from f() stops the work: the Go or Rust code calls f() as
                 a statement of its own
    branch       for V it does X: the branch for V does it to something else;
                 V handled "like every other": the code has a branch for V;
                 bails out / stops on V: every branch on V only continues
    exclusion    K given in S overrides: the code skips exactly K
    always       X always does A: the code does A only under a condition
    placement    appends / prepends: the code adds at the other end only
    direction    LIFO / in reverse / FIFO / in insertion order: the code
                 walks the sequence the clause names the other way
    ownership    borrows X / takes X by value / consumes X: the Rust
                 signature takes that parameter the other way (file: File);
                 F() is unsafe / is safe: the signature is not (is)
                 `unsafe fn`
    types        X is an int / a u64 (a primitive type): X's one
                 declaration has another primitive (Written int64)
    derives      X derives A, B / X only derives A / X is not Copy: the
                 #[derive(...)] above the anchored Rust type
    separator    splits on S / joins with S (',', "; ", comma): every
                 split (join) call of the code passes another literal
    mutation     F is pure / never mutates P / P is left untouched: the
                 code changes that parameter in place (obj[k] = v)
    status       N ('message') / N with type 'T' (N a status, 100-599):
                 the code's call with that message passes another status
    concurrency  runs concurrently / in parallel: the code awaits in a loop
    absence      with no W it returns None / is allowed: the code raises
                 when W is missing
    retention    K is kept on every ...: the code deletes K
    regardless   even with K=V / regardless of K (or of words folding to a
                 name: HTTP version): the code tests K
    arguments    f(a, x): the code's call passes x with an offset (x + 1);
                 `@d(k=v)` (or `d(k=v)`): the anchored function's own
                 decorator d passes other keywords
    fixed        unless K / only if K: the code passes K to its calls as a
                 constant (f({ K: true }))
    defaults     m.v by default / defaults to m.v: the signature's default of
                 the same module is another (key=keys.methodkey)
    fallback     sets S to V when nothing is found / S falls back to V (V a
                 qualified name): the code's fallback for S is another of
                 V's owner (unwrap_or(LineEnding::LF), E or W, E ?? W)
    optin        pass K=V / opt in with K=V / unless you pass K=V: the
                 signature already defaults K to V
    mapping      V maps to S / V gives S / V emits S: the switch branch for V writes
                 another case's S; N -> S for a name: the if-branch testing
                 N writes another, a branch testing another name writes S;
                 any unknown X maps to S: the match's catch-all arm gives
                 another, a named arm gives S; > N -> E: the branch testing
                 that bound gives another error
    ternary      with K: true it gives "S": the code's choice on K
                 (K ? A : B) gives S the other way
    guard        an example passing K=V as working: a guard of the code
                 raises on it (if initial != 1 and multiplier != 1: raise);
                 F(L) returns V: F's first guard returns another literal
                 for L (if raw == "" { return false })
    raises       E("message"): the code raises that message as another
                 class, and raises E elsewhere
    calls        A calls / triggers / uses / falls back to B: A's code (and the anchored
                 functions it calls) never mentions B; an absence, so
                 never certain
    passes       F gets K=V: each anchored call of F passes another
                 constant in K's place (loadFile(filename, false))
    accepts      'S' returns NaN / is rejected / doesn't parse: an anchored
                 pattern of the code (^...$) matches all of S
    compares     X op Y written out (len(s) <= max_length, length > 99,
                 8 <= bits <= 15): the code compares the same operands with
                 another operator or bound
    logic        N = A or B written out: the code assigns N the same names
                 joined by other boolean operators (A and B)
    formula      N = E written out (acc = rol27(acc)): every assignment of
                 N in the code differs, one by a token or two (rol31(acc));
                 a constant the code names may be written as its value
    toggle       --X/--no-X defaults to no-X: the option's declaration
                 defaults it to the other side (default=True)
    returns      F returns true / F has a default of true: every return of
                 F gives another constant (return false, a Rust body that is
                 one constant); Go's F returns
                 ErrX: every return gives nil or another error value;
                 F returns `T` / F(x) -> T: the signature declares another type;
                 F returns V (capitalized): every return gives another name;
                 F returns bytes (Python): the annotation names other
                 built-in types; F returns one string (Go, Rust): the
                 signature declares another kind ([]string, bool)
    script       `npm test` runs jest / `pnpm build` = tsup: the anchored
                 package.json's script runs another program (or gives an
                 option another value: --reporter spec)
    noop         F is a (pure) no-op: a statement of F's body does
                 something (an assignment, a delete, a call of its own)
    mechanism    memoized in a small LRU keyed by X / cached per cwd / 3
                 retries with exponential backoff: no anchored code (no
                 name, word of a name, string or anchor name) says cache,
                 memo or LRU (retr, attempt, backoff, jitter): an
                 **absence**, a doubt like calls' finding
    stream       goes to stdout / logs on stderr / via os.Stderr: the
                 anchored code writes to the other stream only (no
                 name of the claimed one): an **absence**, a doubt like
                 calls' finding
    alias        X is an alias of Y / the X alias points at Y: X's
                 definition (its assignment, its entry, a Cargo feature,
                 a function's body) never names Y; X = pkg.Y: function X's
                 body never names Y, another anchor does

Readings that run on manifests rather than code (``negation`` findings):
"has no (runtime) dependencies", "dependency-free" where a dependency
anchor of the claim resolved to a section the project ships with, or a
manifest anchored as a file declares a package there; not when the claim
names that package as the manifest writes it ("the only dependency is
winapi-util; none on Unix"). And "a runtime dependency" ("a regular dep", "a
real [dependencies] entry") where the
dependency anchor resolved to a development section (``devDependencies``,
``dev-dependencies``, an optional or test group); not when the claim
speaks of development or tests too. And "the only (runtime, direct,
external) dependency is X" where a manifest anchored as a file ships with
a package the claim does not name (a Go ``// indirect`` requirement is
none), or "X is a devDep" of a package it ships with. And "pulls in (requires,
depends on) M" of a Go module path ``M`` that an anchored ``go.mod`` does not
require (nor one ending in ``M``: ``tidwall/gjson``); not under a negation.
And "a hard (non-optional) dep", "always compiled in" where the
manifest declares the dependency anchor ``optional = true``, or "keeps
default features" where it declares ``default-features = false`` (an
inline table, or a ``[dependencies.X]`` table read from a manifest anchored
as a file). And "F uses it" (imports, calls, relies on X) of a source file
anchored as a file that imports other packages but not the dependency the
claim anchors ("sjson.go uses it" of ``dep:github.com/tidwall/pretty``).
And the license ("License in Cargo.toml: plain `MIT`", "license: MIT") where a
manifest anchored as a file declares one lacking an SPDX identifier the
claim names (``license.text = "MPL-2.0"``), or one with more when the claim
calls its own the whole license ("plain", "only", "single"): a ``value``
finding. A dependency anchor's evidence names its section on its third line.

:func:`contradictions` runs every rule over every clause of the claim and
returns what they found, each once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from memvet._claims import EvidenceText, Term, TermKind, UnboundTerm, claim_terms
from memvet._manifests import ManifestError, is_manifest
from memvet._manifests import declared as manifest_declared
from memvet._rules import (
    absence,
    accepts,
    alias,
    always,
    arguments,
    bases,
    branch,
    calls,
    compares,
    concurrency,
    defaults,
    derives,
    direction,
    exclusion,
    fallback,
    fixed,
    formula,
    guard,
    logic,
    mapping,
    mechanism,
    membership,
    mutation,
    negation,
    noop,
    optin,
    order,
    ownership,
    passes,
    placement,
    precedence,
    propagation,
    raises,
    regardless,
    retention,
    returns,
    script,
    separator,
    status,
    stream,
    ternary,
    toggle,
    types,
    value,
)
from memvet._rules._common import Contradiction, Rule, clauses, codes

__all__ = ["RULES", "Contradiction", "Rule", "contradictions", "render_refusal"]

#: Every relation rule, in the order its findings are reported.
RULES: tuple[Rule, ...] = (
    order.RULE,
    precedence.RULE,
    value.RULE,
    bases.RULE,
    negation.RULE,
    membership.RULE,
    propagation.RULE,
    branch.RULE,
    exclusion.RULE,
    always.RULE,
    placement.RULE,
    direction.RULE,
    ownership.RULE,
    types.RULE,
    derives.RULE,
    separator.RULE,
    mutation.RULE,
    status.RULE,
    concurrency.RULE,
    absence.RULE,
    retention.RULE,
    regardless.RULE,
    arguments.RULE,
    fixed.RULE,
    defaults.RULE,
    fallback.RULE,
    optin.RULE,
    mapping.RULE,
    ternary.RULE,
    guard.RULE,
    raises.RULE,
    calls.RULE,
    passes.RULE,
    accepts.RULE,
    compares.RULE,
    logic.RULE,
    formula.RULE,
    toggle.RULE,
    returns.RULE,
    script.RULE,
    alias.RULE,
    noop.RULE,
    mechanism.RULE,
    stream.RULE,
)


def contradictions(claim: str, evidence: Sequence[EvidenceText], *, declared: Iterable[str] = (),
                   terms: Sequence[Term] | None = None, rules: Sequence[Rule] = RULES) -> list[Contradiction]:
    """The relations ``claim`` states that its evidence's code states otherwise.

    Args:
        claim: The claim as written.
        evidence: What each anchor says (see :class:`memvet._claims.EvidenceText`).
        declared: Words the writer declared deliberately unbound; a rule
            that would compare one of them is skipped.
        terms: The claim's terms when the caller has them already.
        rules: The rules to run (default: all of :data:`RULES`).

    Returns:
        One :class:`Contradiction` per disagreement (empty: none found).
    """
    out: list[Contradiction] = [*_without_dependencies(claim, evidence, declared),
                                *_development_only(claim, evidence, declared),
                                *_only_dependency(claim, evidence, declared),
                                *_undeclared_module(claim, evidence, declared),
                                *_dependency_attributes(claim, evidence, declared),
                                *_unimported_dependency(claim, evidence, declared),
                                *_other_license(claim, evidence, declared)]
    code = codes(evidence)
    if not code:
        return out
    # a name in prose (Airflow) is a plain word to the rules, as it always was: only the term rules bind it
    all_terms = [t for t in (claim_terms(claim) if terms is None else terms) if t.kind is not TermKind.PROPER]
    for clause in clauses(claim, all_terms, declared):
        for rule in rules:
            for found in rule.check(clause, code):
                if found not in out:
                    out.append(found)
    return out


#: "has no runtime dependencies", "zero dependencies", "dependency-free", "depends on nothing".
_NO_DEPENDENCIES = re.compile(r"\b(?:no|zero|without(?:\s+any)?)\s+(?:(?:runtime|external|third[- ]party|production"
                              r"|npm|pypi|crate)\s+)?dependenc(?:y|ies)\b"
                              r"|\bdependency[- ]free\b|\bdepends\s+on\s+nothing\b", re.I)


def _runtime(section: str) -> bool:
    """Whether a manifest section declares what the project ships with (``dependencies``,
    ``project.dependencies``, ``require``), not what it builds, tests or optionally uses."""
    return not re.search(r"dev|test|optional|extra|build|peer|group|docs", section, re.I)


class _Dependency(NamedTuple):
    """A dependency anchor's evidence, read: the package, the manifest's line that declares it, its section
    and the anchor's name."""

    name: str
    line: str
    section: str
    where: str


def _dependency_anchors(evidence: Sequence[EvidenceText]) -> list[_Dependency]:
    """Each dependency anchor of the claim: its evidence (named by the manifest's path) is the requirement,
    the manifest's line and the section (:meth:`memvet._anchors.Evidence.claim_evidence`)."""
    out = []
    for ev in evidence:
        if ev.absent or is_manifest(ev.label) or not any(is_manifest(n) for n in ev.names[1:]):
            continue
        lines = [*ev.text.splitlines(), "", "", ""]
        out.append(_Dependency(ev.names[1], lines[1].strip()[:120], lines[2].strip(),
                               ev.label if ev.label.startswith("dep:") else f"dep:{ev.label}"))
    return out


def _without_dependencies(claim: str, evidence: Sequence[EvidenceText], declared: Iterable[str]) -> list[Contradiction]:
    """The claim says the project depends on nothing; a dependency anchor
    of its own resolved to a section the project ships with, so a manifest
    declares one ("negotiator has no runtime dependencies" anchored
    ``dep:content-type``), or a manifest anchored as a file declares one
    there ("dependency-free: pyproject declares no runtime dependencies"
    of a ``dependencies = ["regex>=2022.3.15"]``). A development
    dependency is none of those."""
    m = _NO_DEPENDENCIES.search(claim)
    if m is None or m.group(0) in set(declared):
        return []
    found = [d for d in _dependency_anchors(evidence) if not d.section or _runtime(d.section)]
    found += _shipped(evidence)
    # named as the manifest writes it: "Regex rules use the stdlib re" names a class, not the package regex
    if not found or any(_names(claim, d.name) for d in found):
        return []  # "the only dependency is winapi-util, none on Unix": the claim names the one it has
    return [Contradiction("negation", f"the claim says `{m.group(0)}`", found[0].line, found[0].where, (m.group(0),))]


def _shipped(evidence: Sequence[EvidenceText]) -> list[_Dependency]:
    """The runtime dependencies each manifest anchored as a file declares; a Go module's ``// indirect``
    requirement is none the module asks for itself."""
    found = []
    for ev in evidence:
        if ev.absent or not is_manifest(ev.label):
            continue
        try:
            shipped = [d for d in manifest_declared(ev.label, ev.text.encode()) if _runtime(d.section)]
        except ManifestError:
            continue
        lines = ev.text.splitlines()
        for d in shipped:
            line = lines[d.line - 1] if 0 < d.line <= len(lines) else d.name
            if not re.search(r"//\s*indirect\b", line):
                found.append(_Dependency(d.name, line.strip()[:120], d.section, ev.label))
    return found


def _names(claim: str, package: str) -> bool:
    """Whether ``claim`` names ``package`` as the manifest writes it."""
    return re.search(rf"(?<![\w-]){re.escape(package)}(?![\w-])", claim) is not None


#: "the only runtime dependency is defu", "only external dep: X", "pulls in X as its only dependency".
_ONLY_DEPENDENCY = re.compile(r"\bonly\s+(?:(?:runtime|production|prod|direct|external|third[- ]party|npm|pypi)\s+)?"
                              r"(?:dep|dependency)\b", re.I)


def _only_dependency(claim: str, evidence: Sequence[EvidenceText], declared: Iterable[str]) -> list[Contradiction]:
    """The claim names the project's only dependency; a manifest anchored as a file declares another
    one the project ships with, which the claim does not name ("destr is a devDep ...; the only
    runtime dependency is defu" of ``"dependencies": {"defu": ..., "destr": ...}``)."""
    m = _ONLY_DEPENDENCY.search(claim)
    if m is None or m.group(0) in set(declared):
        return []
    shipped = _shipped(evidence)
    if not any(_names(claim, d.name) for d in shipped):
        return []  # the claim names none of them: its one dependency is spelled otherwise, or read elsewhere
    others = [d for d in shipped if not _names(claim, d.name)]
    if others:
        other = others[0]
        return [Contradiction("negation", f"the claim says `{m.group(0)}`; the manifest also declares `{other.name}`",
                              other.line, other.where, (m.group(0),))]
    # "destr is a devDep": a package the claim puts among development ones, which the manifest ships with
    for d in shipped:
        if re.search(rf"(?<![\w-]){re.escape(d.name)}`?\s+is\s+(?:only\s+)?an?\s+dev(?:elopment)?[- ]?(?:only\s+)?"
                     r"dep(?:endency)?\b", claim, re.I):
            return [Contradiction("negation", f"the claim calls `{d.name}` a development dependency; the manifest "
                                              f"declares it in `{d.section}`", d.line, d.where, (d.name,))]
    return []


#: "pulls in github.com/pkg/errors", "depends on tidwall/gjson": a Go module the claim says the module requires.
_REQUIRES_MODULE = re.compile(r"\b(?:requires?|pulls?\s+in|depends?\s+on|(?:dependency|dep)\s+on)\s+`?"
                              r"(?P<m>[a-z0-9][\w.-]*(?:/[\w.-]+)+)`?", re.I)
_NEGATED_BEFORE = re.compile(r"\b(?:no|not|never|without|nothing|none|zero)\b|n't\b", re.I)


def _negated_before(claim: str, at: int, stops: str) -> bool:
    """Whether the claim negates what it says at ``at``: a negation between it and the start of its clause
    (the last of ``stops`` before it)."""
    start = max(claim.rfind(c, 0, at) for c in stops)
    return _NEGATED_BEFORE.search(claim[start + 1:at]) is not None


def _undeclared_module(claim: str, evidence: Sequence[EvidenceText], declared: Iterable[str]) -> list[Contradiction]:
    """The claim says the module requires a Go module (``pulls in github.com/pkg/errors``, ``depends on
    tidwall/gjson``); an anchored ``go.mod`` declares no requirement of that path, or ending in it
    (``tidwall/gjson`` for ``github.com/tidwall/gjson``). Not under a negation ("doesn't pull in ...")."""
    said = set(declared)
    for ev in evidence:
        if ev.absent or ev.label.split("::", 1)[0].rsplit("/", 1)[-1] != "go.mod":
            continue
        try:
            required = [d.name for d in manifest_declared(ev.label, ev.text.encode())]
        except ManifestError:
            continue
        for m in _REQUIRES_MODULE.finditer(claim):
            module = m.group("m").rstrip(".")
            if module in said or _negated_before(claim, m.start(), ".;("):
                continue
            if any(r == module or r.endswith("/" + module) or module.startswith(r + "/") for r in required):
                continue
            return [Contradiction("negation", f"the claim says the module requires `{module}`, which go.mod does "
                                              f"not list ({len(required)} requirements)",
                                  next((line for line in ev.text.splitlines() if line.startswith("module ")), "go.mod"),
                                  ev.label, (module,))]
    return []


#: "a hard (non-optional) dependency", "always compiled in", "not optional": a package the claim says every build
#: pulls in ("a regular dependency" is no such claim: it sets a dependency apart from development ones).
_REQUIRED_DEPENDENCY = re.compile(r"\b(?:hard|non-optional|mandatory|unconditional)\s+"
                                  r"(?:\(non-optional\)\s+)?(?:runtime\s+)?dep(?:endency)?\b"
                                  r"|\balways\s+(?:compiled|built|pulled)\b|\bnot\s+optional\b", re.I)
#: "keeps default features", "with its default features on": the package's own default features enabled.
_DEFAULT_FEATURES_KEPT = re.compile(r"\bkeeps?\s+(?:its\s+|the\s+)?default[- ]features\b"
                                    r"|\bwith\s+(?:its\s+|the\s+)?default[- ]features\s+(?:on|enabled)\b"
                                    r"|\bdefault[- ]features\s+(?:are\s+)?(?:left\s+)?(?:on|enabled|kept)\b", re.I)


def _declaration(dependency: _Dependency, evidence: Sequence[EvidenceText]) -> str:
    """The manifest's declaration of ``dependency``: its line, or for a table of its own (Cargo's
    ``[dependencies.spin]``) the table's lines joined, read from a manifest anchored as a file."""
    if not dependency.line.startswith("["):
        return dependency.line
    for ev in evidence:
        if ev.absent or not is_manifest(ev.label):
            continue
        lines = ev.text.splitlines()
        for i, line in enumerate(lines):
            if line.strip() == dependency.line:
                body = []
                for following in lines[i + 1:]:
                    if following.lstrip().startswith("["):
                        break
                    body.append(following.strip())
                return " ".join([dependency.line, *filter(None, body)])[:200]
    return dependency.line


def _dependency_attributes(claim: str, evidence: Sequence[EvidenceText],
                           declared: Iterable[str]) -> list[Contradiction]:
    """The claim says a dependency is pulled into every build ("generic-array is always compiled in", "spin
    is a hard (non-optional) dependency") or keeps its default features ("serde dep keeps default
    features"); the manifest's line that declares its dependency anchor says ``optional = true`` or
    ``default-features = false``. The claim must name the package, or anchor only the one; not under a
    negation ("isn't always compiled")."""
    said = set(declared)
    anchors = [d._replace(line=_declaration(d, evidence)) for d in _dependency_anchors(evidence)]
    out = []
    for pattern, attribute in ((_REQUIRED_DEPENDENCY, r"\boptional\s*=\s*true\b"),
                               (_DEFAULT_FEATURES_KEPT, r"\bdefault[-_]features\s*=\s*false\b")):
        for m in pattern.finditer(claim):
            if m.group(0) in said or (_negated_before(claim, m.start(), ".;(:")
                                      and "not optional" not in m.group(0).lower()):
                continue
            for d in anchors:
                if (len(anchors) == 1 or _names(claim, d.name)) and re.search(attribute, d.line):
                    written = re.search(attribute, d.line)
                    out.append(Contradiction("negation", f"the claim says `{m.group(0)}`; the manifest declares "
                                                         f"`{d.name}` with `{written.group(0) if written else ''}`",
                                             d.line, d.where, (m.group(0),)))
                    break
            if out and out[-1].operands == (m.group(0),):
                break  # one finding for each reading: "a hard dependency, always compiled" says it twice
    return out


#: "sjson.go uses it", "client.ts imports ofetch": a file of the repository the claim says uses a package.
_FILE_USES = re.compile(r"(?<![\w./-])(?P<file>[\w./-]+\.(?:go|py|js|mjs|cjs|ts|mts|rs))`?\s+(?:uses|imports|calls|"
                        r"relies\s+on|pulls\s+in|wraps|needs)\s+(?P<what>it|them|`?[@\w./-]+`?)", re.I)


def _imported(package: str, imports: Sequence[str]) -> bool:
    """Whether a file importing ``imports`` imports ``package`` (a Go module or a package of it, an npm
    package or a subpath of it, a Python or Rust name spelled with ``_`` for ``-``)."""
    spelled = package.lower().replace("-", "_")
    return any(i == package or i.startswith(package + "/") or i.lower().replace("-", "_").split(".")[0] == spelled
               for i in imports)


def _unimported_dependency(claim: str, evidence: Sequence[EvidenceText],
                           declared: Iterable[str]) -> list[Contradiction]:
    """The claim says a file it anchors uses a dependency it anchors ("sjson.go uses it", of
    ``dep:github.com/tidwall/pretty``); the file imports other packages, but not that one."""
    said = set(declared)
    anchors = _dependency_anchors(evidence)
    if not anchors:
        return []
    for m in _FILE_USES.finditer(claim):
        what = m.group("what").strip("`")
        used = anchors if what.lower() in ("it", "them") and len(anchors) == 1 else \
            [d for d in anchors if d.name == what or d.name.endswith("/" + what)]
        if not used or m.group(0) in said or _negated_before(claim, m.start(), ".;("):
            continue
        for ev in evidence:
            path = ev.label.split("::", 1)[0]
            if ev.absent or "::" in ev.label or not ev.imports or not (path == m.group("file")
                                                                       or path.endswith("/" + m.group("file"))):
                continue
            for d in used:
                if not _imported(d.name, ev.imports):
                    line = next((x.strip() for x in ev.text.splitlines() if ev.imports[-1] in x), ev.imports[-1])
                    return [Contradiction("negation", f"the claim says `{m.group(0)}`; {path} imports "
                                                      + ", ".join(f"`{i}`" for i in ev.imports[:6])
                                                      + f", not `{d.name}`", line[:120], ev.label, (m.group(0),))]
    return []


#: "a runtime dependency", "production dep": what the project ships with.
#: "a runtime dependency", "a regular dep", "a real [dependencies] entry": a package the project ships with.
_RUNTIME_DEPENDENCY = re.compile(r"\b(?:runtime|production|prod|regular|normal|real)\s+(?:dependency|dep)\b"
                                 r"|\[dependencies\]", re.I)


def _development_only(claim: str, evidence: Sequence[EvidenceText], declared: Iterable[str]) -> list[Contradiction]:
    """The claim calls a package a runtime dependency; its dependency anchor resolved to a section
    the project does not ship with ("raw-body pulls in iconv-lite as a runtime dependency" of
    ``devDependencies``). Not when the claim speaks of development too ("dev-only", "devDependencies")."""
    m = _RUNTIME_DEPENDENCY.search(claim)
    if m is None or m.group(0) in set(declared) or re.search(r"\bdev|\btest", claim, re.I):
        return []
    return [Contradiction("negation", f"the claim says `{m.group(0)}`; the manifest declares it in `{d.section}`",
                          d.line, d.where, (m.group(0),))
            for d in _dependency_anchors(evidence) if d.section and not _runtime(d.section)]


#: An SPDX license identifier as manifests and people write them: ``MIT``, ``Apache-2.0``, ``BSD-3-Clause``.
_LICENSE_ID = re.compile(r"(?<![\w-])(?:MIT|ISC|0BSD|Unlicense|Zlib|CC0-1\.0|BSL-1\.0|WTFPL"
                         r"|(?:Apache|MPL|L?GPL|AGPL|EPL|BSD|BlueOak|Artistic|PSF|Python)-\d[\w.-]*\w)(?![\w-])")
#: A manifest's license field: Cargo's and pyproject's ``license = "..."``, ``license.text = "..."``, ``license =
#: {text = "..."}``, setup.cfg's ``license = ...``, package.json's ``"license": "..."``.
_LICENSE_FIELD = re.compile(r"^[ \t]*(?:\"license\"\s*:\s*\"(?P<json>[^\"\n]+)\""
                            r"|license(?:\.text|\s*=\s*\{\s*text)?\s*=\s*[\"']?(?P<toml>[^\"'\n}]+))", re.M)
#: A claim that gives its identifiers as the whole license: "plain `MIT`", "MIT only", "single license".
_LICENSE_WHOLE = re.compile(r"\b(?:plain|only|just|solely|single|sole|purely)\b", re.I)


def _other_license(claim: str, evidence: Sequence[EvidenceText], declared: Iterable[str]) -> list[Contradiction]:
    """The claim gives the project's license ("License in Cargo.toml: plain `MIT`", "license: MIT");
    a manifest anchored as a file declares one that lacks an identifier the claim names (``license.text =
    "MPL-2.0"``), or has more than the claim names when the claim calls its own the whole license ("plain",
    "only", "single"). An identifier under a negation ("no Apache-2.0 option") is not claimed."""
    if not re.search(r"\blicen[cs]", claim, re.I):
        return []
    said = set(declared)
    claimed = {m.group(0) for m in _LICENSE_ID.finditer(claim)
               if m.group(0) not in said and not _negated_before(claim, m.start(), ".;(,")}
    if not claimed:
        return []
    for ev in evidence:
        if ev.absent or "::" in ev.label or not is_manifest(ev.label):
            continue
        field = _LICENSE_FIELD.search(ev.text)
        declared_ids = set(_LICENSE_ID.findall(field.group("json") or field.group("toml"))) if field else set()
        if not declared_ids:
            continue
        if field and (claimed - declared_ids or (declared_ids - claimed and _LICENSE_WHOLE.search(claim))):
            line = ev.text[field.start():].split("\n", 1)[0].strip()
            return [Contradiction("value", "the claim says the license is " + " and ".join(
                f"`{i}`" for i in sorted(claimed)), line, ev.label, tuple(sorted(claimed)))]
    return []


def render_refusal(unbound: Sequence[UnboundTerm], contrary: Sequence[Contradiction]) -> str:
    """The refusal message for a claim its code contradicts: a header, one
    line per contradiction, then one per unbound term."""
    n = len(contrary)
    head = (f"the claim states {n} relation{'s' if n != 1 else ''} that its anchored code states otherwise; "
            "correct the claim, anchor the code that says it, or declare the word deliberately unbound "
            "(--unbound WORD / unbound=[...]); nothing was written:")
    return "\n".join([head, *(f"  - {c.line()}" for c in contrary), *(f"  - {t.line()}" for t in unbound)])
