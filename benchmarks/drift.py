#!/usr/bin/env python
"""Drift accuracy on a real history (issue 8, part 2).

Records one decision per sampled symbol at ``--from``, checks them all at
``--to`` with ``Ledger.check``, and scores each verdict against a ground truth
derived without tree-sitter:

* Python: the standard library's ``ast`` of the definition (decorators
  included, docstrings removed, positions ignored). Same dump at both ends:
  ``unchanged`` (identical text) or ``cosmetic`` (only comments, layout,
  docstrings or quoting changed); a different dump: ``changed``.
* JavaScript/TypeScript: the definition is located by its declaration line
  (``function name(``, ``class Name``, ``const name =``, a method inside its
  class) and ends at the first closing-brace line at the declaration's
  indentation; ``git log -L`` over that range says whether any commit between
  the two revisions touched it, and a comment- and whitespace-free comparison
  of the two texts separates ``cosmetic`` from ``changed``. A method
  assigned to a constructor's prototype (``A.prototype.m = function`` or
  ``Object.assign(A.prototype, {m: function ...})``) that the file rewrote
  as a class (``class A { m() {...} }``) is located as the class's ``m``:
  ECMAScript defines the same property of ``A.prototype`` either way.
* Not at its path any more: the same qualified name in another file (rename
  targets first, then every changed file) is ``moved``; for Python, the same
  body under another name also counts as ``moved``; otherwise ``deleted``.
  A definition its file already had at ``--from`` is not where the symbol
  went (jQuery 3 -> 4: ``src/event/focusin.js::handler`` was deleted with
  its file; ``test/unit/callbacks.js`` had its own ``function handler()``
  all along).

``--migration`` (a range over a JavaScript -> TypeScript migration): a
symbol not found by the rule above moved if the file its file became (same
path and stem, another JS/TS extension, new since ``--from``) declares it
under its ES-module name (``module.exports.`` / ``exports.`` dropped) or
with a leading ``_``/``#`` taken or dropped on a segment. TypeScript files
are located with overload signatures skipped and a body opened after a
multi-line signature found (see :func:`js_region`).

Cases the ground truth cannot locate unambiguously are excluded and counted.
Next to MemVet stands the file-level baseline: flag every decision whose
file's content changed (``refuted`` when the file is gone).

Sampling (``--sample N --from REV --to REV``) takes functions, methods and
classes from files that changed between the two revisions: decisions on
unchanged files are trivially right for both (same blob). ``--cases FILE``
takes a JSON document instead::

    {"from": "REV", "to": "REV",
     "cases": [{"anchor": "path/to/file.py::Class.method", "expect": "changed"}]}

``expect`` (optional: unchanged | cosmetic | changed | moved | deleted)
overrides the derived truth; ``--from``/``--to`` override the file's.

Java (``--oracle DIR``): the truth is CodeTracker's method-history oracle
(github.com/jodavimehran/code-tracker, ``src/main/resources/oracle/method``),
one JSON file per method listing every commit that changed it, classified by
hand-validated refactoring detection. Each case has its own two revisions:

* every oracle commit C (parent P): record at P, check at C. A ``rename``,
  ``moved`` or ``container change`` (class renamed or moved, source folder
  moved) is ``moved``; otherwise a body, parameter, return type, modifier,
  exception or annotation change is ``changed``; a documentation change
  alone is ``cosmetic``. A ``method merge`` or ``method split`` (the
  method recorded at P was folded into another, or cut in two) is
  ``restructured``: neither a move nor a deletion, so it is scored on its
  own, right when MemVet flags it (changed, moved or deleted) and wrong
  when it says the method holds;
* ``introduced`` at C, reversed: record at C, check at P, where the method
  does not exist yet: ``deleted``;
* commits on the first-parent line that touched the method's file but are
  not in the oracle (at most ``--unchanged-per-method`` per method, evenly
  spread): record at the parent, check at the commit: ``unchanged``.

Only oracle files whose ``repositoryName`` is the ``--repo`` folder's name
(or ``--oracle-name``) are read. Methods of anonymous or local classes are
excluded (the oracle names them by variable, not by type).

``--signature-follows`` (with ``--oracle``) runs no drift: it lists every
change or deletion case where the method's own file follows it to a new
signature, with how alike the two bodies are and whether it crossed
``static`` (the calibration of ``memvet._vanished.follow``).

Examples::

    python benchmarks/drift.py --repo /tmp/sqlalchemy --sample 300 --from HEAD~500 --to HEAD
    python benchmarks/drift.py --repo /tmp/commons-io --oracle /tmp/ct-oracle/method
"""

from __future__ import annotations

import ast
import difflib
import fnmatch
import itertools
import json
import re
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bench

from memvet import _code, _vanished
from memvet._git import GitRepo

TRUTHS = ("unchanged", "cosmetic", "changed", "moved", "deleted", "restructured")
#: What a correct verdict is for each truth. A method merged into another or
#: split in two (``restructured``, Java oracles only) is neither a move nor a
#: deletion: any verdict that flags it is right, ``holds`` is not.
EXPECTED = {"unchanged": "holds", "cosmetic": "holds", "changed": "changed", "moved": "moved",
            "deleted": "deleted"}
_ACCEPTED = {**{t: frozenset({v}) for t, v in EXPECTED.items()},
             "restructured": frozenset({"changed", "moved", "deleted"})}


def right(truth: str, verdict: str) -> bool:
    """Whether ``verdict`` is a correct answer for ``truth``."""
    return verdict in _ACCEPTED[truth]
JS_LANGUAGES = ("javascript", "typescript", "tsx")


@dataclass
class Case:
    id: str
    path: str
    qualname: str
    language: str
    truth: str = ""
    truth_detail: str = ""
    expect: str = ""
    memvet: str = ""
    memvet_status: str = ""
    memvet_reason: str = ""
    baseline: str = ""
    excluded: str = ""
    rev_from: str = ""  # per-case revisions (oracle cases); "" = the run's
    rev_to: str = ""


# ============================================================= Python truth (ast)


def _strip_docstrings(tree: ast.AST) -> None:
    """Remove docstrings in place (the tree is ours; no copy needed)."""
    for sub in ast.walk(tree):
        body = getattr(sub, "body", None)
        if (isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module))
                and isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
            sub.body = body[1:] or [ast.Pass()]


def _dump(node: ast.AST, *, anonymous: bool = False) -> str:
    """The definition's ast without positions (docstrings already removed)."""
    name = getattr(node, "name", None)
    if anonymous and name is not None:
        node.name = "_"  # type: ignore[attr-defined]
    try:
        return ast.dump(node, annotate_fields=True, include_attributes=False)
    finally:
        if anonymous and name is not None:
            node.name = name  # type: ignore[attr-defined]


_COMPOUND = (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)
if hasattr(ast, "TryStar"):
    _COMPOUND = (*_COMPOUND, ast.TryStar)


def py_definitions(source: bytes) -> dict[str, list[ast.AST]] | None:
    """Qualified name -> definitions (several when conditionally redefined)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    _strip_docstrings(tree)
    out: dict[str, list[ast.AST]] = {}

    def walk(stmts: list[ast.stmt], prefix: str) -> None:
        for st in stmts:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = prefix + st.name
                out.setdefault(q, []).append(st)
                walk(st.body, q + ".")
            elif isinstance(st, _COMPOUND):
                for field in ("body", "orelse", "finalbody"):
                    walk(getattr(st, field, []) or [], prefix)
                for handler in getattr(st, "handlers", []) or []:
                    walk(handler.body, prefix)

    walk(tree.body, "")
    return out


def _segment(source: bytes, node: ast.AST) -> str:
    lines = source.decode("utf-8", "replace").splitlines()
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])  # type: ignore[attr-defined]
    return "\n".join(lines[start - 1: node.end_lineno])  # type: ignore[attr-defined]


_DEFS: dict[tuple[str, str], dict[str, list[ast.AST]] | None] = {}
_BODIES: dict[tuple[str, str], dict[str, list[str]]] = {}


def _defs_at(snap: Any, path: str) -> dict[str, list[ast.AST]] | None:
    key = (snap.name, path)
    if key not in _DEFS:
        data = snap.read(path)
        _DEFS[key] = py_definitions(data) if data is not None else None
    return _DEFS[key]


def _bodies_at(snap: Any, path: str) -> dict[str, list[str]]:
    """Anonymous body dump -> qualified names, per file (computed once)."""
    key = (snap.name, path)
    if key not in _BODIES:
        out: dict[str, list[str]] = {}
        for q, nodes in (_defs_at(snap, path) or {}).items():
            for n in nodes:
                out.setdefault(_dump(n, anonymous=True), []).append(q)
        _BODIES[key] = out
    return _BODIES[key]


def python_truth(snap_from: Any, snap_to: Any, case: Case, candidates: list[str]) -> tuple[str, str]:
    """(truth, detail) or ("", why excluded)."""
    src_from = snap_from.read(case.path)
    defs_from = py_definitions(src_from) if src_from is not None else None
    if defs_from is None:
        return "", "does not parse with ast at --from"
    nodes = defs_from.get(case.qualname, [])
    if len(nodes) != 1:
        return "", f"ast finds {len(nodes)} definitions of {case.qualname}"
    old = nodes[0]
    src_to = snap_to.read(case.path)
    if src_to is not None:
        defs_to = py_definitions(src_to)
        if defs_to is None:
            return "", "does not parse with ast at --to"
        now = defs_to.get(case.qualname, [])
        if len(now) > 1:
            return "", f"ast finds {len(now)} definitions of {case.qualname} at --to"
        if now:
            if _segment(src_from, old) == _segment(src_to, now[0]):
                return "unchanged", "identical text"
            if _dump(old) == _dump(now[0]):
                return "cosmetic", "same ast without docstrings"
            return "changed", "ast differs"
    body = _dump(old, anonymous=True)
    for path in candidates:
        if path == case.path or not path.endswith(".py"):
            continue
        defs = _defs_at(snap_to, path)
        if defs and case.qualname in defs and case.qualname not in (_defs_at(snap_from, path) or {}):
            return "moved", f"same name in {path}"
    if len(body) > 300:  # a trivial body (``pass``) would match anything
        for path in [case.path, *candidates]:
            if not path.endswith(".py"):
                continue
            for q in _bodies_at(snap_to, path).get(body, []):
                if not (path == case.path and q == case.qualname) and q not in (_defs_at(snap_from, path) or {}):
                    return "moved", f"same body as {path}::{q}"
    return "deleted", "not found at --to"


# ============================================================= JS/TS truth (git log -L)

_MODS = r"(?:(?:export|default|declare|abstract|async|static|public|private|protected|readonly|override|get|set)\s+)*"


def _decl_patterns(name: str, member: bool) -> list[re.Pattern[str]]:
    """Declaration lines of ``name``; ``member`` adds class-member forms."""
    n = re.escape(name)
    pats = [
        re.compile(rf"^(\s*){_MODS}function\s*\*?\s*{n}\s*[<(]"),
        re.compile(rf"^(\s*){_MODS}(?:const|let|var)\s+{n}\s*(?::[^=]+)?=\s*"),
        re.compile(rf"^(\s*){_MODS}(?:class|interface|enum)\s+{n}\b"),
        re.compile(rf"^(\s*){_MODS}type\s+{n}\b"),
    ]
    if member:
        # A method: ``name(args) {`` (not a call: the line opens a body or
        # continues a parameter list), or ``name: function`` / ``name = () =>``.
        pats += [re.compile(rf"^(\s*){_MODS}\*?\s*{n}\s*(?:<[^>]*>)?\s*\([^;]*(?:\{{|\(|,)\s*$"),
                 re.compile(rf"^(\s*){_MODS}{n}\s*[:=]\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")]
    return pats


def _find_decl(lines: list[str], name: str, member: bool, lo: int = 0, hi: int | None = None
               ) -> list[tuple[int, int]]:
    """Declarations of ``name`` as (line index, indentation)."""
    hi = len(lines) if hi is None else hi
    out = []
    pats = _decl_patterns(name, member)
    for i in range(lo, hi):
        for pat in pats:
            m = pat.match(lines[i])
            if m:
                out.append((i, len(m.group(1).expandtabs(4))))
                break
    return out


def _region_end(lines: list[str], start: int, indent: int, typescript: bool = False) -> int | None:
    """Index of the last line of a definition starting at ``start``. In
    TypeScript a line at the declaration's indentation that closes a
    parameter list and opens the body (``): Store<S> & Ext {``, after type
    parameters on lines of their own) does not end it, and an overload
    signature (no body: its parameters close on a line without ``{``) ends
    there."""
    first = lines[start].rstrip()
    if typescript and "{" not in first and 0 < first.count("(") == first.count(")") \
            and not first.endswith(("(", ",", "=>", "<", "=")):
        return start
    if "{" not in first and first.endswith(";"):
        return start
    opened = first.count("{") - first.count("}")
    if "{" in first and opened <= 0 and not first.endswith(("(", ",", "=>")):
        return start
    if "{" in first and opened == 0 and first.rstrip(",;").endswith("}"):  # `m: function(){},`
        return start
    for j in range(start + 1, len(lines)):
        text = lines[j]
        stripped = text.strip()
        if not stripped:
            continue
        ind = len(text.expandtabs(4)) - len(text.expandtabs(4).lstrip())
        if ind == indent and stripped[0] in "})]":
            if typescript and stripped[0] == ")" and stripped.endswith("{"):
                continue
            return j
        if typescript and ind == indent and stripped[0] == ">" and "(" in stripped:
            if stripped.endswith("{"):
                continue
            if stripped.count("(") == stripped.count(")"):
                return j
        if ind < indent and stripped[0] not in ".?:+-*&|":
            return None
    return None


_IDENT = r"[A-Za-z_$][\w$]*"
_CHAIN = rf"(?:{_IDENT}(?:\s*\.\s*{_IDENT})*\s*=\s*)*"  # `a = b.c = ` links of a chained assignment
_FUNC_VALUE = rf"(?:async\s+)?(?:function\b|class\b|(?:<[^>]*>\s*)?\(|{_IDENT}\s*=>)"


def _target_patterns(target: list[str]) -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    """Lines that give a dotted name to a function (first list) or to an
    object's members (second list), by text alone (legacy JS, issue 16):

    * ``a.b.c = function`` / ``= () =>`` / ``= class``, links of a chained
      assignment on either side (``var x = a.b.c = y.z = function``);
    * scopes: ``a.b = {``, ``_.extend(a.b, ..., {`` / ``Object.assign(a.b, {``
      / ``mixin(a.b, {``, a statement ``a.b.extend({`` / ``a.b.mixin({``.
    """
    t = r"\s*\.\s*".join(re.escape(seg) for seg in target)
    decl = rf"(?:(?:var|let|const)\s+{_IDENT}\s*=\s*)?"
    return [re.compile(rf"^(\s*){decl}{_CHAIN}{t}\s*=\s*{_CHAIN}{_FUNC_VALUE}")], [
        re.compile(rf"^(\s*){decl}{_CHAIN}{t}\s*=\s*\{{"),
        re.compile(rf"^(\s*){decl}{_CHAIN}(?:{_IDENT}\s*\.\s*)*(?:extend|assign|mixin|merge)\(\s*{t}\s*,[^;]*\{{\s*$"),
        re.compile(rf"^(\s*){t}\s*\.\s*(?:extend|mixin)\(\s*\{{"),
    ]


def _find_target(lines: list[str], target: list[str], member: bool, leaf: bool, lo: int, hi: int
                 ) -> list[tuple[int, int]]:
    """Declarations of a dotted ``target`` as (line index, indentation):
    of a function when ``leaf``, else of anything that holds members."""
    funcs, scopes = _target_patterns(target)
    pats = funcs + ([] if leaf else scopes)
    if len(target) == 1:
        n = re.escape(target[0])
        # Only a binding of a function, class or object names something that
        # is sampled or holds what is (a `var x = 1` inside a wrapper does not).
        pats = [pat for pat in _decl_patterns(target[0], member) if "(?:const|let|var)" not in pat.pattern] + [
            re.compile(rf"^(\s*){_MODS}(?:const|let|var)\s+{n}\s*(?::[^=]+)?=\s*{_CHAIN}"
                       rf"(?:{_FUNC_VALUE}|\{{|.*\(\s*\{{\s*$)")] + pats
        if member and not leaf:
            pats.append(re.compile(rf"^(\s*)(?:{n}|\"{n}\"|'{n}')\s*:\s*\{{"))  # `find: {`
        if not member:
            found = _find_lines(lines, pats, lo, hi)
            # A member of an object passed to a call (`jQuery.each({ parent: function`)
            # keeps its plain name, if nothing around it gives one.
            return found or [(i, ind) for i, ind in _find_target(lines, target, True, leaf, lo, hi)
                             if not _named_enclosure(lines, i)]
    return _find_lines(lines, pats, lo, hi)


_NAMING_OPENERS = [re.compile(p) for p in (
    r"^\s*(?:(?:var|let|const)\s+)?[\w$.]+\s*=\s*\{\s*$",                # x.y = {   var x = {
    r"(?:extend|assign|mixin|merge)\(\s*[\w$.]+\s*,.*\{\s*$",          # _.extend(X.prototype, {
    r"[\w$.]+\.(?:extend|mixin)\(\s*\{\s*$",                         # jQuery.fn.extend({
    r"^\s*(?:var|let|const)\s+[\w$]+\s*=.*\(\s*\{\s*$",                # var V = Base.extend({
    r"^\s*[\w$\"']+\s*:\s*\{\s*$",                                     # key: {
    r"\bfunction\s*\*?\s*[\w$]+\s*\(",                                  # function name(
    r"^\s*[\w$.]+\s*[:=]\s*(?:async\s+)?function\b",                    # name: function / a.b = function
    # class C / m() {
    r"^\s*(?:class\s+[\w$]+|(?:static\s+|async\s+)*(?!(?:if|for|while|switch|catch|with)\b)[\w$]+\s*\([^;]*\)\s*\{\s*$)",
)]


def _named_enclosure(lines: list[str], i: int) -> bool:
    """Whether some line enclosing line ``i`` (by indentation) names a scope
    or a function: then a member on line ``i`` is named under it."""
    indent = len(lines[i].expandtabs(4)) - len(lines[i].expandtabs(4).lstrip())
    for k in range(i - 1, -1, -1):
        text = lines[k].expandtabs(4)
        if not text.strip():
            continue
        ind = len(text) - len(text.lstrip())
        if ind < indent:
            if any(pat.search(text) for pat in _NAMING_OPENERS):
                return True
            indent = ind
            if ind == 0:
                return False
    return False


def _find_lines(lines: list[str], pats: list[re.Pattern[str]], lo: int, hi: int) -> list[tuple[int, int]]:
    out = []
    for i in range(lo, hi):
        for pat in pats:
            m = pat.match(lines[i])
            if m:
                out.append((i, len(m.group(1).expandtabs(4))))
                break
    if len(out) > 1:  # a region's own declarations are its least indented ones
        least = min(ind for _, ind in out)
        out = [(i, ind) for i, ind in out if ind == least]
    return out


def _resolve(lines: list[str], parts: list[str], i: int, lo: int, hi: int, problems: list[str],
             typescript: bool = False) -> set[tuple[int, int]]:
    """Every region the segments ``parts[i:]`` can name inside ``lo:hi``:
    any leading run of them may be one dotted declaration."""
    inner = i > 0
    out: set[tuple[int, int]] = set()
    for j in range(len(parts), i, -1):
        leaf = j == len(parts)
        for start, indent in _find_target(lines, parts[i:j], inner, leaf, lo + inner, hi):
            end = _region_end(lines, start, indent, typescript)
            if end is None:
                problems.append(f"no end found for {'.'.join(parts[i:j])}")
            elif leaf:
                out.add((start + 1, end + 1))
            else:
                out |= _resolve(lines, parts, j, start, end + 1, problems, typescript)
    return out


def js_region(source: bytes | None, qualname: str, typescript: bool = False) -> tuple[int, int] | str:
    """1-based (start, end) lines of a definition, or why it was not found.

    Any leading run of the qualified name's segments may be declared by one
    line (a ``function``/``class``/``const`` name, a member, an assignment
    target, a mixin target) and name the region the rest is looked for in;
    the definition is located when exactly one way through gives a region.
    With ``typescript`` (a ``.ts``/``.tsx`` file), overload signatures (a
    declaration whose region does not end with its body's ``}``) give way
    to the one implementation, and a body opened after a multi-line
    signature is found (see :func:`_region_end`).
    """
    if source is None:
        return "no file"
    if '"' in qualname:
        return "a quoted segment (not located by text)"
    lines = source.decode("utf-8", "replace").splitlines()
    problems: list[str] = []
    found = _resolve(lines, qualname.split("."), 0, 0, len(lines), problems, typescript)
    if typescript and len(found) > 1:
        bodies = {(a, b) for a, b in found if lines[b - 1].strip().startswith("}")}
        found = bodies if len(bodies) == 1 else found
    if len(found) == 1:
        return found.pop()
    if not found and problems:
        return problems[0]
    return f"{len(found)} declarations of {qualname}"


_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(r"(^|\s)//[^\n]*")


def _js_normal(text: str) -> str:
    return re.sub(r"\s+", "", _LINE_COMMENT.sub(r"\1", _BLOCK_COMMENT.sub("", text)))


def _is_ts(path: str) -> bool:
    return path.endswith((".ts", ".tsx", ".mts", ".cts"))


def _stem(path: str) -> str:
    head, _, name = path.rpartition("/")
    return head + "/" + name.split(".", 1)[0]


def migrated_names(qualname: str) -> list[str]:
    """The names a symbol may take when its file is rewritten in another
    language of the JavaScript family (``--migration``): the CommonJS export
    prefix dropped (``module.exports.get.handleRequest`` ->
    ``get.handleRequest``), and any segment with a leading ``_`` or ``#``
    taken or dropped (``Tokenizer.lex`` -> ``_Tokenizer.#lex``), which is
    matched by comparing the names with every such mark removed."""
    out = [qualname]
    for prefix in ("module.exports.", "exports."):
        if qualname.startswith(prefix) and len(qualname) > len(prefix):
            out.append(qualname[len(prefix):])
    return out


_DECLARED = re.compile(r"(?:function\s*\*?\s*|class\s+|(?:const|let|var)\s+|^\s*(?:(?:static|private|public|protected|"
                       r"readonly|async|get|set)\s+)*)([#_]*[A-Za-z$][\w$]*)", re.M)


def _migration_truth(snap_from: Any, snap_to: Any, case: Case, candidates: list[str]) -> tuple[str, str] | None:
    """``moved`` when the file ``case.path`` became (the same path and stem,
    another JavaScript/TypeScript extension, new since ``--from``) declares
    one of :func:`migrated_names`, up to privacy marks; else ``None``."""
    stem = _stem(case.path)
    for path in candidates:
        if path == case.path or _stem(path) != stem or _code.language_for_path(path) not in JS_LANGUAGES:
            continue
        if snap_from.read(path) is not None:
            continue
        data = snap_to.read(path)
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        # Every spelling of each segment with privacy marks that the file declares.
        declared = {m.group(1) for m in _DECLARED.finditer(text)}
        for name in migrated_names(case.qualname):
            spellings = [sorted({d for d in declared if d.lstrip("_#") == seg.lstrip("_#")} | {seg})
                         for seg in name.split(".")]
            for parts in itertools.product(*spellings):
                if not isinstance(js_region(data, ".".join(parts), _is_ts(path)), str):
                    return "moved", f"{'.'.join(parts)} in {path}, the file {case.path} became (--migration)"
    return None


def js_truth(root: Path, rev_from: str, rev_to: str, snap_from: Any, snap_to: Any, case: Case,
             candidates: list[str], migration: bool = False) -> tuple[str, str]:
    src_from = snap_from.read(case.path)
    region = js_region(src_from, case.qualname, _is_ts(case.path))
    if isinstance(region, str):
        return "", f"--from: {region}"
    old_lines = src_from.decode("utf-8", "replace").splitlines()[region[0] - 1: region[1]]  # type: ignore[union-attr]
    src_to = snap_to.read(case.path)
    now = js_region(src_to, case.qualname, _is_ts(case.path)) if src_to is not None else "no file"
    if isinstance(now, str) and src_to is not None and ".prototype." in case.qualname:
        # `A.prototype.m = function` rewritten as `class A { m() {...} }`:
        # ECMAScript defines the one property of A.prototype either way.
        twin = js_region(src_to, case.qualname.replace(".prototype.", ".", 1), _is_ts(case.path))
        now = now if isinstance(twin, str) else twin
    if not isinstance(now, str):
        log = _bench.git(root, "log", "--format=%H", "-s", f"-L{now[0]},{now[1]}:{case.path}",
                         f"{rev_from}..{rev_to}", check=False)
        touched = [line for line in log.splitlines() if re.fullmatch(r"[0-9a-f]{40}", line)]
        new_lines = src_to.decode("utf-8", "replace").splitlines()[now[0] - 1: now[1]]  # type: ignore[union-attr]
        if not touched and old_lines == new_lines:
            return "unchanged", "git log -L: no commit touched it"
        if _js_normal("\n".join(old_lines)) == _js_normal("\n".join(new_lines)):
            return "cosmetic", f"git log -L: {len(touched)} commit(s), only comments/layout"
        return "changed", f"git log -L: {len(touched)} commit(s) changed it"
    if src_to is not None and not now.startswith("0 declarations"):
        return "", f"--to: {now}"
    if src_to is not None and "." in case.qualname:
        target = r"\s*\.\s*".join(re.escape(seg) for seg in case.qualname.split("."))
        rebound = re.findall(rf"^{target}\s*=(?!=)", src_to.decode("utf-8", "replace"), re.M)
        if len(rebound) == 1:  # `exports.etag = function` became `exports.etag = make(...)`
            return "changed", "the top-level target is now bound to another value"
    leaf = re.escape(case.qualname.rsplit(".", 1)[-1])
    if src_to is not None and re.search(
            rf"(?<![\w$]){leaf}\s*[:=]\s*(?:async\s+)?function\b|\bfunction\s*\*?\s*{leaf}\s*\(",
            src_to.decode("utf-8", "replace")):
        # Gone by the locator's rules, yet the file still declares the name
        # somewhere it cannot place (`.on("x", cb = function ...)`).
        return "", f"--to: {case.qualname} not located, but its last name is still declared in the file"
    for path in candidates:
        if path == case.path or _code.language_for_path(path) not in JS_LANGUAGES:
            continue
        if not isinstance(js_region(snap_to.read(path), case.qualname, _is_ts(path)), str) \
                and isinstance(js_region(snap_from.read(path), case.qualname, _is_ts(path)), str):
            return "moved", f"same name in {path}"
    if migration:
        found = _migration_truth(snap_from, snap_to, case, candidates)
        if found is not None:
            return found
    return "deleted", "not found at --to"


# ============================================================= Java truth (CodeTracker oracle)

_MOVES = frozenset({"rename", "moved", "container change"})
_RESTRUCTURED = frozenset({"method merge", "method split"})
_CHANGES = frozenset({"body change", "parameter change", "return type change", "modifier change",
                      "exception change", "annotation change"})


def oracle_name(element: str, path: str) -> str | None:
    """MemVet's spelling of an oracle element name, or ``None`` when it
    cannot be mapped (a method of an anonymous or local class).

    ``src/java/org.apache.commons.io.CopyUtils#copy(byte[], OutputStream)``
    in ``src/java/org/apache/commons/io/CopyUtils.java`` ->
    ``CopyUtils.copy(byte[], OutputStream)``: the package is the file's
    folder under the source folder, the rest is the class chain.
    """
    owner, _, method = element.partition("#")
    folder, _, dotted = owner.rpartition("/")
    rel = path[len(folder) + 1:] if folder and path.startswith(folder + "/") else path
    package = rel.rsplit("/", 1)[0].replace("/", ".") if "/" in rel else ""
    chain = dotted[len(package) + 1:] if package and dotted.startswith(package + ".") else dotted
    if not chain or any(not seg[:1].isupper() for seg in chain.split(".")):
        return None
    return f"{chain}.{method}"


def _first_parent_line(root: Path, start: str) -> dict[str, int]:
    out = _bench.git(root, "rev-list", "--first-parent", start)
    return {c: i for i, c in enumerate(out.split())}


def _is_ancestor(root: Path, a: str, b: str) -> bool:
    """Whether commit ``a`` is an ancestor of (or is) ``b``."""
    out = subprocess.run(["git", "merge-base", "--is-ancestor", a, b], cwd=root, capture_output=True, check=False)
    return out.returncode == 0


def oracle_cases(root: Path, files: list[Path], per_method: int) -> list[Case]:
    """Cases with truth and revisions from CodeTracker method oracles."""
    cases: list[Case] = []

    def add(path: str, element: str, truth: str, detail: str, rev_from: str, rev_to: str) -> None:
        name = oracle_name(element, path)
        case = Case(f"c{len(cases):04d}", path, name or element, "java", rev_from=rev_from, rev_to=rev_to)
        if name is None:
            case.excluded = "a method of an anonymous or local class (the oracle names it by variable)"
        else:
            case.truth, case.truth_detail = truth, detail
        cases.append(case)

    for f in files:
        oracle = json.loads(f.read_text(encoding="utf-8"))
        label = f.stem
        by_commit: dict[str, list[dict[str, Any]]] = {}
        for ch in oracle["expectedChanges"]:
            by_commit.setdefault(ch["commitId"], []).append(ch)
        for commit, changes in by_commit.items():
            kinds = {c["changeType"] for c in changes}
            first = changes[0]
            what = f"{label}: {', '.join(sorted(kinds))} in {commit[:10]}"
            if "introduced" in kinds:
                add(first["elementFileAfter"], first["elementNameAfter"], "deleted",
                    f"{what} (checked at its parent)", commit, first["parentCommitId"])
                continue
            truth = ("restructured" if kinds & _RESTRUCTURED else "moved" if kinds & _MOVES
                     else "changed" if kinds & _CHANGES else "cosmetic")
            add(first["elementFileBefore"], first["elementNameBefore"], truth, what,
                first["parentCommitId"], commit)
        # Unchanged: first-parent commits that touched the method's file and
        # are not in the oracle. Its identity at a commit is the newest
        # oracle change that is an ancestor of that commit.
        line = _first_parent_line(root, oracle["startCommitId"])
        changes = sorted(oracle["expectedChanges"], key=lambda c: -int(c["commitTime"]))
        files_seen = sorted({c["elementFileAfter"] for c in changes})
        touched = _bench.git(root, "log", "--first-parent", "--no-merges", "--format=%H",
                             oracle["startCommitId"], "--", *files_seen).split()
        touched = [c for c in touched if c not in by_commit and c in line]
        if per_method and len(touched) > per_method:
            step = len(touched) / per_method
            touched = [touched[int(i * step)] for i in range(per_method)]
        for commit in touched:
            parent = _bench.git(root, "rev-parse", "--verify", "-q", f"{commit}^", check=False).strip()
            if not parent:
                continue  # a root commit
            current = next((c for c in changes if _is_ancestor(root, c["commitId"], parent)), None)
            if current is None:
                continue  # before the method existed
            names = _bench.git(root, "diff-tree", "--no-commit-id", "--name-only", "-r", commit).split()
            if current["elementFileAfter"] not in names:
                continue  # touched another of its files
            add(current["elementFileAfter"], current["elementNameAfter"], "unchanged",
                f"{label}: {commit[:10]} touched the file, not in the oracle", parent, commit)
    return cases


# ============================================================= the run


def memvet_label(status: str, reason: str) -> str:
    if status == "verified":
        return "holds"
    if status == "stale":
        return "changed"
    if status == "refuted":
        return "deleted"
    if status == "needs_revalidation" and "moved" in reason:
        return "moved"
    return "unverifiable"


def changed_paths(root: Path, rev_from: str, rev_to: str) -> tuple[list[str], dict[str, str]]:
    """Paths changed between two revisions, and renames old -> new."""
    out = _bench.git(root, "diff", "--name-status", "-M", rev_from, rev_to)
    paths, renames = [], {}
    for line in out.splitlines():
        parts = line.split("\t")
        if parts[0].startswith("R") and len(parts) == 3:
            renames[parts[1]] = parts[2]
            paths.append(parts[1])
            paths.append(parts[2])
        elif len(parts) == 2:
            paths.append(parts[1])
    return paths, renames


def ignored(path: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatchcase(path, p) or path.startswith(p.rstrip("*").rstrip("/") + "/")
               for p in patterns)


def run(repo_path: str, rev_from: str | None, rev_to: str | None, sample: int, cases_file: str | None,
        seed: int, languages: list[str], under: str, per_file: int, ignore: list[str],
        migration: bool = False) -> dict[str, Any]:
    root = _bench.repo_root(repo_path)
    spec: dict[str, Any] = {}
    if cases_file:
        spec = json.loads(Path(cases_file).read_text(encoding="utf-8"))
    rev_from = rev_from or spec.get("from")
    rev_to = rev_to or spec.get("to") or "HEAD"
    if not rev_from:
        raise SystemExit("give --from (or a cases file with \"from\")")
    a = _bench.rev_parse(root, rev_from)
    b = _bench.rev_parse(root, rev_to)
    repo = GitRepo(root)
    snap_a, snap_b = repo.snapshot(a), repo.snapshot(b)
    changed, renames = changed_paths(root, a, b)
    candidates_all = sorted(p for p in set(changed) if not ignored(p, ignore))

    cases: list[Case] = []
    if spec.get("cases"):
        for i, c in enumerate(spec["cases"]):
            path, _, name = c["anchor"].partition("::")
            cases.append(Case(f"c{i:04d}", path, name, _code.language_for_path(path) or "",
                              expect=c.get("expect", "")))
    else:
        paths = [p for p in changed if snap_a.blob_id(p) is not None
                 and _code.language_for_path(p) in languages
                 and (not under or p.startswith(under.rstrip("/") + "/")) and not ignored(p, ignore)]
        paths = sorted(set(paths))
        for i, s in enumerate(_bench.sample_symbols(repo, a, sample, seed=seed, per_file=per_file, paths=paths)):
            cases.append(Case(f"c{i:04d}", s.path, s.qualname, s.language))

    for case in cases:
        first = [renames[case.path]] if case.path in renames else []
        candidates = first + [p for p in candidates_all if p not in first]
        if case.language == "python":
            truth, detail = python_truth(snap_a, snap_b, case, candidates)
        elif case.language in JS_LANGUAGES:
            truth, detail = js_truth(root, a, b, snap_a, snap_b, case, candidates, migration)
        else:
            truth, detail = "", f"no independent ground truth for {case.language or 'this file type'}"
        if case.expect:
            detail = f"expected by the cases file (derived: {truth or 'excluded'}, {detail})"
            truth = case.expect
        if truth:
            case.truth, case.truth_detail = truth, detail
        else:
            case.excluded = detail
        blob_a, blob_b = snap_a.blob_id(case.path), snap_b.blob_id(case.path)
        case.baseline = "deleted" if blob_b is None else ("holds" if blob_a == blob_b else "changed")

    with _bench.TempDir("memvet-drift-") as home:
        ledger = _bench.open_ledger(root, home, _bench.make_embedder("hashing"), disk_cache=False)
        ids: dict[str, Case] = {}
        for case in cases:
            try:
                res = ledger.record(f"{case.qualname} in {case.path} is a decision anchor.",
                                    [f"{case.path}::{case.qualname}"], at=a, tags=[case.id])
            except Exception as exc:
                case.excluded = case.excluded or f"MemVet refused the anchor: {exc}"
                case.memvet = "refused"
                continue
            ids[res.decision.id] = case
        check_s, verdicts = _bench.timed(lambda: ledger.check(at=b))
    for v in verdicts:
        case = ids.get(v.decision.id)
        if case is not None:
            case.memvet_status = v.status.value
            case.memvet_reason = v.reason
            case.memvet = memvet_label(v.status.value, v.reason)

    scored = [c for c in cases if c.truth and not c.excluded]
    return {
        "benchmark": "drift",
        "command": _bench.command_line(),
        "repo": str(root),
        "from": a,
        "to": b,
        "commits": int(_bench.git(root, "rev-list", "--count", f"{a}..{b}").strip() or 0),
        "languages": languages,
        "ignored": ignore,
        "sampled": len(cases),
        "scored": len(scored),
        "excluded": len(cases) - len(scored),
        "check_ms": _bench.ms(check_s),
        "summary": summarize(scored),
        "by_truth": by_truth(scored),
        "cases": [asdict(c) for c in cases],
    }


def _oracle_files(repo_path: str, oracle_dir: str, name: str) -> tuple[Path, list[Path]]:
    """The repository's root and the oracle files whose ``repositoryName``
    is ``name`` (default: the root folder's name); none is an error."""
    root = _bench.repo_root(repo_path)
    name = name or root.name
    files = [f for f in sorted(Path(oracle_dir).rglob("*.json"))
             if json.loads(f.read_text(encoding="utf-8")).get("repositoryName") == name]
    if not files:
        raise SystemExit(f"no CodeTracker oracle for repository {name!r} under {oracle_dir}")
    return root, files


def run_oracle(repo_path: str, oracle_dir: str, name: str, per_method: int) -> dict[str, Any]:
    """Score MemVet on Java cases built from CodeTracker oracles (see the module docs)."""
    root, files = _oracle_files(repo_path, oracle_dir, name)
    cases = oracle_cases(root, files, per_method)
    repo = GitRepo(root)
    for case in cases:
        blob_a = repo.snapshot(case.rev_from).blob_id(case.path)
        blob_b = repo.snapshot(case.rev_to).blob_id(case.path)
        case.baseline = "deleted" if blob_b is None else ("holds" if blob_a == blob_b else "changed")
    with _bench.TempDir("memvet-drift-") as home:
        ledger = _bench.open_ledger(root, home, _bench.make_embedder("hashing"), disk_cache=False)
        ids: dict[str, Case] = {}
        for case in cases:
            if case.excluded:
                continue
            bare = case.qualname.split("(", 1)[0]
            try:
                res = ledger.record(f"{bare} in {case.path} is decision {case.id}.",
                                    [f"{case.path}::{case.qualname}"], at=case.rev_from, tags=[case.id],
                                    confirm_duplicates=False, unbound=[case.id])
            except Exception as exc:
                case.memvet, case.memvet_reason = "refused", f"MemVet refused the anchor: {exc}"
                continue
            ids[res.decision.id] = case

        def check_all() -> None:
            for decision_id, case in ids.items():
                v = ledger.verify(decision_id, at=case.rev_to)
                case.memvet_status, case.memvet_reason = v.status.value, v.reason
                case.memvet = memvet_label(v.status.value, v.reason)

        check_s, _ = _bench.timed(check_all)
    scored = [c for c in cases if c.truth and not c.excluded]
    return {
        "benchmark": "drift",
        "command": _bench.command_line(),
        "repo": str(root),
        "from": "per case",
        "to": "per case",
        "commits": 0,
        "oracle_files": len(files),
        "languages": ["java"],
        "ignored": [],
        "sampled": len(cases),
        "scored": len(scored),
        "excluded": len(cases) - len(scored),
        "check_ms": _bench.ms(check_s),
        "summary": summarize(scored),
        "by_truth": by_truth(scored),
        "cases": [asdict(c) for c in cases],
    }


def signature_follows(repo_path: str, oracle_dir: str, name: str) -> dict[str, Any]:
    """How alike the two ends of every signature follow are (the
    calibration of :func:`memvet._vanished.follow`).

    For each oracle case that is a change or a deletion (an ``introduced``
    commit reversed), the recorded file and the checked file are parsed;
    where :func:`memvet._code.follow` takes a new signature in the same
    file, one row: the truth, how alike the two bodies' code tokens are
    (difflib ratio, names masked), whether the method crossed ``static``,
    and whether MemVet's follow keeps it.
    """
    root, files = _oracle_files(repo_path, oracle_dir, name)
    repo = GitRepo(root)
    rows: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str, str]] = set()
    for case in oracle_cases(root, files, 1):
        key = (case.path, case.qualname, case.rev_from, case.rev_to)
        if case.excluded or case.truth not in ("changed", "deleted") or key in seen:
            continue
        seen.add(key)
        old = repo.snapshot(case.rev_from).read(case.path)
        new = repo.snapshot(case.rev_to).read(case.path)
        if old is None or new is None:
            continue
        before, after = _code.symbol_table(old, "java"), _code.symbol_table(new, "java")
        was = before.lookup(case.qualname)
        sym = _code.follow(before, after, case.qualname) if len(was) == 1 else None
        if sym is None or sym.qualname == was[0].qualname:
            continue
        t1, t2 = _vanished.tokens(old, "java", was[0]), _vanished.tokens(new, "java", sym)
        rows.append({
            "truth": case.truth, "path": case.path, "from": was[0].qualname, "to": sym.qualname,
            "rev_from": case.rev_from, "rev_to": case.rev_to,
            "alike": round(difflib.SequenceMatcher(None, t1, t2, autojunk=False).ratio(), 3),
            "crosses_static": _vanished.is_static(t1) != _vanished.is_static(t2),
            "kept": _vanished.follow(before, after, case.qualname, lambda: old, lambda: new) is not None,
        })
    by_truth: dict[str, dict[str, Any]] = {}
    for truth in ("changed", "deleted"):
        mine = [r for r in rows if r["truth"] == truth]
        by_truth[truth] = {
            "n": len(mine),
            "alike_min": min((r["alike"] for r in mine), default=None),
            "alike_max": max((r["alike"] for r in mine), default=None),
            "crossing_static": sum(r["crosses_static"] for r in mine),
            "kept": sum(r["kept"] for r in mine),
        }
    return {"benchmark": "signature-follows", "command": _bench.command_line(), "repo": str(root),
            "oracle_files": len(files), "by_truth": by_truth, "follows": rows}


def render_follows(r: dict[str, Any]) -> str:
    rows = [(t, v["n"], v["alike_min"], v["alike_max"], v["crossing_static"], v["kept"])
            for t, v in r["by_truth"].items()]
    lines = [f"- {f['truth']}: {f['path']}::{f['from']} -> {f['to']}, {f['alike']:.0%} alike"
             f"{', crosses static' if f['crosses_static'] else ''}{'' if f['kept'] else ', not followed'}"
             for f in r["follows"] if f["crosses_static"] or f["truth"] == "deleted"]
    parts = [f"signature follows: {r['repo']}, {r['oracle_files']} oracle files",
             _bench.table(["truth", "follows", "least alike", "most alike", "crossing static",
                           "kept by MemVet"], rows)]
    if lines:
        parts.append("\n".join(lines))
    parts.append(f"command: {r['command']}")
    return "\n\n".join(parts)


def _rate(num: int, den: int) -> float | None:
    return None if den == 0 else num / den


def summarize(scored: list[Case]) -> dict[str, Any]:
    def pick(*truths: str) -> list[Case]:
        return [c for c in scored if c.truth in truths]

    unrelated, changed, moved, deleted = pick("unchanged", "cosmetic"), pick("changed"), pick("moved"), pick("deleted")
    restructured = pick("restructured")
    flagged_m = [c for c in scored if c.memvet == "changed"]
    flagged_b = [c for c in scored if c.baseline == "changed"]
    return {
        "unrelated_edit_cases": len(unrelated),
        "false_alarms_memvet": sum(c.memvet != "holds" for c in unrelated),
        "false_alarms_baseline": sum(c.baseline != "holds" for c in unrelated),
        "false_alarm_rate_memvet": _rate(sum(c.memvet != "holds" for c in unrelated), len(unrelated)),
        "false_alarm_rate_baseline": _rate(sum(c.baseline != "holds" for c in unrelated), len(unrelated)),
        "body_change_cases": len(changed),
        "recall_memvet": _rate(sum(c.memvet == "changed" for c in changed), len(changed)),
        "recall_baseline": _rate(sum(c.baseline == "changed" for c in changed), len(changed)),
        "stale_precision_memvet": _rate(sum(c.truth == "changed" for c in flagged_m), len(flagged_m)),
        "stale_precision_baseline": _rate(sum(c.truth == "changed" for c in flagged_b), len(flagged_b)),
        "move_cases": len(moved),
        "moves_as_moves_memvet": sum(c.memvet == "moved" for c in moved),
        "moves_as_moves_baseline": 0,
        "deletion_cases": len(deleted),
        "deletions_refuted_memvet": sum(c.memvet == "deleted" for c in deleted),
        "deletions_refuted_baseline": sum(c.baseline == "deleted" for c in deleted),
        "restructured_cases": len(restructured),
        "restructured_flagged_memvet": sum(right("restructured", c.memvet) for c in restructured),
        "restructured_flagged_baseline": sum(right("restructured", c.baseline) for c in restructured),
        "refused_memvet": sum(c.memvet == "refused" for c in scored),
        "accuracy_memvet": _rate(sum(right(c.truth, c.memvet) for c in scored), len(scored)),
        "accuracy_baseline": _rate(sum(right(c.truth, c.baseline) for c in scored), len(scored)),
    }


def by_truth(scored: list[Case]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for t in TRUTHS:
        group = [c for c in scored if c.truth == t]
        verdicts: dict[str, int] = {}
        for c in group:
            verdicts[c.memvet] = verdicts.get(c.memvet, 0) + 1
        out[t] = {"n": len(group), "memvet_correct": sum(right(t, c.memvet) for c in group),
                  "baseline_correct": sum(right(t, c.baseline) for c in group), "memvet_verdicts": verdicts}
    return out


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f} %"


def render(r: dict[str, Any], show_errors: int = 10) -> str:
    s = r["summary"]
    head = (f"drift: {r['repo']} {r['from'][:12]}..{r['to'][:12]} ({r['commits']} commits), "
            f"{r['sampled']} decisions sampled, {r['scored']} scored, {r['excluded']} excluded "
            f"(ground truth could not locate them); check took {r['check_ms']:.0f} ms")
    summary = _bench.table(["measure", "MemVet (symbol level)", "file-level baseline"], [
        (f"false alarms on unrelated edits (n={s['unrelated_edit_cases']})",
         f"{s['false_alarms_memvet']} ({_pct(s['false_alarm_rate_memvet'])})",
         f"{s['false_alarms_baseline']} ({_pct(s['false_alarm_rate_baseline'])})"),
        (f"recall on real body changes (n={s['body_change_cases']})", _pct(s["recall_memvet"]),
         _pct(s["recall_baseline"])),
        ("precision of 'changed'", _pct(s["stale_precision_memvet"]), _pct(s["stale_precision_baseline"])),
        (f"moves detected as moves (n={s['move_cases']})", s["moves_as_moves_memvet"], s["moves_as_moves_baseline"]),
        (f"deletions refuted (n={s['deletion_cases']})", s["deletions_refuted_memvet"],
         s["deletions_refuted_baseline"]),
        (f"merges and splits flagged (n={s['restructured_cases']})", s["restructured_flagged_memvet"],
         s["restructured_flagged_baseline"]),
        ("overall accuracy", _pct(s["accuracy_memvet"]), _pct(s["accuracy_baseline"])),
        ("existing symbols refused at record time", s.get("refused_memvet", 0), 0),
    ])
    detail = _bench.table(["ground truth", "n", "MemVet right", "baseline right", "MemVet verdicts"], [
        (t, v["n"], v["memvet_correct"], v["baseline_correct"],
         ", ".join(f"{k}: {n}" for k, n in sorted(v["memvet_verdicts"].items())))
        for t, v in r["by_truth"].items()])
    wrong = [c for c in r["cases"] if c["truth"] and not c["excluded"] and not right(c["truth"], c["memvet"])]
    lines = [f"- {c['path']}::{c['qualname']}: truth {c['truth']} ({c['truth_detail']}); MemVet "
             f"{c['memvet_status']}: {c['memvet_reason']}" for c in wrong[:show_errors]]
    parts = [head, summary, detail]
    if lines:
        parts.append(f"MemVet disagreements ({len(wrong)}; first {len(lines)}):\n" + "\n".join(lines))
    parts.append(f"command: {r['command']}")
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = _bench.arg_parser(__doc__)
    parser.add_argument("--repo", default=".", help="any local git repository (default: .)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--cases", help="JSON cases file (see above)")
    source.add_argument("--sample", type=int, help="sample N symbols from files changed in --from..--to")
    source.add_argument("--oracle", help="folder of CodeTracker method oracles (Java; see above)")
    parser.add_argument("--oracle-name", default="",
                        help="the oracle's repositoryName (default: the --repo folder's name)")
    parser.add_argument("--signature-follows", action="store_true",
                        help="with --oracle: instead of the drift run, how alike the two ends of every "
                             "signature follow are, by truth (the calibration of the follow across static)")
    parser.add_argument("--unchanged-per-method", type=int, default=10,
                        help="with --oracle: at most this many unchanged cases per method (default 10)")
    parser.add_argument("--from", dest="rev_from", help="revision the decisions are recorded at")
    parser.add_argument("--to", dest="rev_to", help="revision they are checked at (default HEAD)")
    parser.add_argument("--languages", default="python,javascript,typescript,tsx",
                        help="languages to sample (default python,javascript,typescript,tsx)")
    parser.add_argument("--under", default="", help="only sample under this folder")
    parser.add_argument("--ignore", default="dist/*,build/*,*.min.js",
                        help="globs of generated files: never sampled, and a 'move' into them is not a move "
                             "in the ground truth (default dist/*,build/*,*.min.js)")
    parser.add_argument("--per-file", type=int, default=3, help="at most this many symbols per file")
    parser.add_argument("--migration", action="store_true",
                        help="JS->TS migrations: a symbol whose file was rewritten as another JS/TS file moved "
                             "there under its ES-module name or with privacy marks (see migrated_names)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON document (with every case)")
    args = parser.parse_args(argv)
    if args.sample is not None and not args.rev_from:
        parser.error("--sample needs --from (and optionally --to)")
    if args.signature_follows and not args.oracle:
        parser.error("--signature-follows needs --oracle")
    if args.signature_follows:
        _bench.emit(signature_follows(args.repo, args.oracle, args.oracle_name), args.json, render_follows)
        return 0
    if args.oracle:
        _bench.emit(run_oracle(args.repo, args.oracle, args.oracle_name, args.unchanged_per_method),
                    args.json, render)
        return 0
    result = run(args.repo, args.rev_from, args.rev_to, args.sample or 0, args.cases, args.seed,
                 [x.strip() for x in args.languages.split(",") if x.strip()], args.under, args.per_file,
                 [x.strip() for x in args.ignore.split(",") if x.strip()], args.migration)
    _bench.emit(result, args.json, render)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
