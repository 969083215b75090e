#!/usr/bin/env python
"""Cases with a text-derived truth for ``drift.py --cases``: Go and Rust
(issue 31).

``drift.py`` derives no truth for Go or Rust, and its sampler leaves out
symbols whose span has a syntax error (before issue 31 every function of a
Rust 2015 file that uses ``try!`` had one). This script samples functions,
methods and types from the Go and Rust files changed between two revisions
(syntax errors or not: a refusal of a symbol that exists is a measured
failure) and writes each case with its truth as ``expect``:

* the definition's extent is read from the text: its first line (MemVet's,
  attributes included), its declaration line, and the first closing brace
  at the declaration's indentation after it (gofmt and rustfmt put it
  there; a one-line or body-less declaration is its own lines);
* its identity is a text key: the enclosing ``impl``/``mod``/``trait``
  headers (Rust; paths, lifetimes, generic parameters, ``where`` clauses
  and layout removed, so ``impl<'a, W> ser::Serializer for &'a mut
  Serializer<W>`` is ``impl Serializer for &mut Serializer``) or the
  receiver's type (Go, ``*`` and type parameters removed), then the kind
  keyword and the name. The same key once in the file at ``--to``: that
  definition; in another changed file that did not have it at ``--from``,
  or the same text under another name in the same scope (a rename, as in
  ``drift.py``'s Python truth): ``moved``; nowhere: ``deleted``; more than
  once: excluded;
* the two texts: identical is ``unchanged``; equal once comments, layout,
  a comma before a closing bracket (and, Rust, after a match arm's block),
  Rust ``...`` for ``..=`` and Go's ``;`` at a line end are removed is
  ``cosmetic`` (what gofmt and rustfmt rewrite; a program that compiles at
  both revisions cannot differ only in such a comma, except a one-element
  tuple); anything else is ``changed``.

The names are the importing MemVet's. ``--rename FILE`` writes the cases of
FILE again with the names the importing MemVet gives the symbol starting on
the same line at ``--from`` (run it under the older MemVet, e.g.
``PYTHONPATH=/tmp/memvet-base/core``, so both runs check the same
definitions under their own naming)::

    python benchmarks/go_rust_cases.py --repo /tmp/tar-rs --from 71b6039 --to 7b6c14a~1 \\
        --sample 300 --per-file 40 > /tmp/tar-cases.json
    PYTHONPATH=/tmp/memvet-base/core python benchmarks/go_rust_cases.py \\
        --repo /tmp/tar-rs --rename /tmp/tar-cases.json > /tmp/tar-cases-v5.json
    python benchmarks/drift.py --repo /tmp/tar-rs --cases /tmp/tar-cases.json --json > after.json
    python benchmarks/go_rust_cases.py --compare before.json after.json

``--compare`` counts an anchor MemVet refused at record time as a miss
(``drift.py`` leaves it out of its own scores). ``--sweep FOLDER`` runs
rustfmt over a checkout in memory and counts the symbols whose hash moved.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import _bench

from memvet import _code
from memvet._git import GitRepo

KINDS = frozenset({"function", "method", "struct", "enum", "trait", "interface", "type"})
_STRING = r'"(?:\\.|[^"\\])*"|`[^`]*`'
_LEX = re.compile(rf"({_STRING})|(/\*.*?\*/|//[^\n]*)", re.S)
_RUST_DECL = re.compile(
    r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|default|extern(?:\s+\"[^\"]*\")?)\s+)*"
    r"(fn|struct|enum|trait|union|type|mod)\s+(\w+)")
_RUST_IMPL = re.compile(r"^(\s*)(?:unsafe\s+)?impl\b")
_GO_FUNC = re.compile(r"^func\s+(?:\((?:\w+\s+)?\*?\s*(\w+)(?:\[[^\]]*\])?\)\s*)?(\w+)")
_GO_TYPE = re.compile(r"^(?:type\s+|\t)(\w+)\s+(?:\[[^\]]*\]\s*)?(struct|interface)?")


_TYPE_KINDS = {"struct": "type", "enum": "type", "union": "type", "type": "type"}


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def extent(lines: list[str], decl: int) -> int:
    """Index of the last line of the definition declared on line ``decl``."""
    ind = _indent(lines[decl])
    opened = False
    for k in range(decl, len(lines)):
        code = _LEX.sub(lambda m: m.group(1) or "", lines[k]).rstrip()
        if "{" in code:
            opened = True
        if not opened and code.endswith(";"):
            return k
        if k == decl and opened and code.endswith("}") and code.count("{") == code.count("}"):
            return k
        if k > decl and code.strip() in ("}", "};", "},") and _indent(lines[k]) == ind:
            return k
    return len(lines) - 1


def _header(lines: list[str], start: int) -> str:
    """A Rust ``impl``/``mod``/``trait`` header as a key: up to its ``{``."""
    text = ""
    for k in range(start, min(start + 12, len(lines))):
        text += " " + _LEX.sub(lambda m: m.group(1) or "", lines[k])
        if "{" in text:
            break
    text = text.split("{", 1)[0]
    text = re.split(r"\bwhere\b", text, maxsplit=1)[0]
    text = re.sub(r"'\w+\s*,?\s*", "", text)              # lifetimes
    text = re.sub(r"\bpub(\([^)]*\))?\s+|\bunsafe\s+", "", text)
    text = re.sub(r"(\w+::)+", "", text)                  # paths
    if text.strip().startswith("impl"):
        text = re.sub(r"^\s*impl\s*<[^{]*?>(?=\s*[\w&(\[*])", "impl ", text, count=1)  # impl<...>
        head, sep, own = text.rpartition(" for ")
        text = head + sep + re.sub(r"<.*>", "", own)      # the type's arguments
    return re.sub(r"\s+", " ", text).strip().replace("< ", "<").replace(" >", ">")


def definitions(data: bytes, language: str) -> list[tuple[tuple[str, ...], int]]:
    """Every definition the text declares: (key, declaration line index)."""
    lines = data.decode("utf-8", "replace").splitlines()
    out: list[tuple[tuple[str, ...], int]] = []
    if language == "go":
        iface = ""
        raw = False  # inside a `raw string` (a template may hold `func main`)
        for i, line in enumerate(lines):
            was_raw = raw
            code = _LEX.sub(lambda m: m.group(1) if m.group(1) and m.group(1)[0] == "`" else "", line)
            raw ^= code.count("`") % 2 == 1
            if was_raw:
                continue
            m = _GO_FUNC.match(line)
            if m:
                out.append((("func", m.group(1) or "", m.group(2)), i))
                iface = ""
                continue
            if line.startswith("type ") or (line.startswith("\t") and iface == "("):
                t = _GO_TYPE.match(line)
                if t:
                    out.append((("type", t.group(1)), i))
                iface = "(" if line.rstrip().endswith("(") else iface
            elif line.startswith(")"):
                iface = ""
        return out
    stack: list[tuple[int, str]] = []  # (indent, header) of open containers
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        ind = _indent(line)
        while stack and ind <= stack[-1][0] and not line.strip().startswith(("//", "#")):
            stack.pop()
        impl = _RUST_IMPL.match(line)
        decl = _RUST_DECL.match(line)
        if impl:
            stack.append((ind, _header(lines, i)))
        elif decl:
            kind, name = decl.group(2), decl.group(3)
            # A struct that became an enum is the same type, changed.
            out.append(((*[h for _, h in stack], _TYPE_KINDS.get(kind, kind), name), i))
            if kind in ("mod", "trait") and not line.rstrip().endswith(";"):
                stack.append((ind, f"{kind} {name}"))
    return out


def _decl_line(lines: list[str], start: int) -> int:
    k = start
    while k < len(lines) and (not lines[k].strip() or lines[k].lstrip().startswith(("#[", "//"))):
        k += 1
    return min(k, len(lines) - 1)


def normal(text: str, language: str) -> str:
    """The text without what a formatter may rewrite (see the module docs)."""
    out = []
    for m in re.finditer(rf"{_STRING}|/\*.*?\*/|//[^\n]*|[^\"`/]+|/", text, re.S):
        tok = m.group(0)
        if tok.startswith(('"', "`")):
            out.append(tok)
        elif tok.startswith(("//", "/*")):
            continue
        else:
            if language == "go":
                tok = re.sub(r";[ \t]*(?=\n|$)", "", tok)
            else:
                tok = tok.replace("...", "..=")
                tok = re.sub(r"\}[ \t]*,[ \t]*(?=\n|$)", "}", tok)
            out.append(re.sub(r"\s+", "", tok))
    joined = "".join(out)
    return re.sub(r",(?=[)\]}>])", "", joined)


def truth(snap_a: Any, snap_b: Any, path: str, start_line: int, language: str,
          candidates: list[str]) -> tuple[str, str]:
    data_a = snap_a.read(path)
    lines_a = data_a.decode("utf-8", "replace").splitlines()
    decl = _decl_line(lines_a, start_line - 1)
    keys = [k for k, i in definitions(data_a, language) if i == decl]
    if len(keys) != 1:
        return "", f"--from: no declaration read at line {decl + 1}"
    key = keys[0]
    if sum(1 for k, _ in definitions(data_a, language) if k == key) != 1:
        return "", f"--from: {key} declared more than once"
    old = lines_a[start_line - 1: extent(lines_a, decl) + 1]
    data_b = snap_b.read(path)
    if data_b is not None:
        found = [i for k, i in definitions(data_b, language) if k == key]
        if len(found) > 1:
            return "", f"--to: {key} declared {len(found)} times"
        if found:
            lines_b = data_b.decode("utf-8", "replace").splitlines()
            first = found[0]
            while first > 0 and lines_b[first - 1].lstrip().startswith("#["):
                first -= 1
            new = lines_b[first: extent(lines_b, found[0]) + 1]
            if [x.rstrip() for x in old] == [x.rstrip() for x in new]:
                return "unchanged", "same text"
            if normal("\n".join(old), language) == normal("\n".join(new), language):
                return "cosmetic", "same text without comments, layout and optional commas"
            return "changed", "another text"
    for other in [path, *candidates]:
        if _code.language_for_path(other) != language:
            continue
        then, now = snap_a.read(other), snap_b.read(other)
        if now is None:
            continue
        had = {k for k, _ in definitions(then, language)} if then is not None else set()
        lines_now = now.decode("utf-8", "replace").splitlines()
        for k, i in definitions(now, language):
            if k in had:
                continue
            if k == key:
                return "moved", f"same declaration in {other}"
            if k[:-1] == key[:-1]:  # the same body under another name (Python's rule too)
                text = "\n".join(lines_now[i: extent(lines_now, i) + 1])
                renamed = re.sub(rf"\b{re.escape(k[-1])}\b", key[-1], text)
                if normal(renamed, language) == normal("\n".join(old[_decl_line(old, 0):]), language):
                    return "moved", f"same body as {other}::{k[-1]}"
    return "deleted", "not declared at --to"


def sample(repo_path: str, rev_from: str, rev_to: str, n: int, per_file: int, seed: int,
           ignore: list[str]) -> dict[str, Any]:
    root = _bench.repo_root(repo_path)
    a, b = _bench.rev_parse(root, rev_from), _bench.rev_parse(root, rev_to)
    repo = GitRepo(root)
    snap_a, snap_b = repo.snapshot(a), repo.snapshot(b)
    out = _bench.git(root, "diff", "--name-status", "-M", a, b)
    changed: list[str] = []
    renames: dict[str, str] = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if parts[0].startswith("R") and len(parts) == 3:
            renames[parts[1]] = parts[2]
            changed += parts[1:]
        elif len(parts) == 2:
            changed.append(parts[1])
    changed = sorted({p for p in changed if _code.language_for_path(p) in ("go", "rust")
                      and not any(re.search(pat, p) for pat in ignore)})
    rng = random.Random(seed)
    pool = [p for p in changed if snap_a.blob_id(p) is not None]
    rng.shuffle(pool)
    cases: list[dict[str, Any]] = []
    excluded: list[str] = []
    for path in pool:
        if len(cases) >= n:
            break
        language = _code.language_for_path(path) or ""
        data = snap_a.read(path) or b""
        table = _code.symbol_table(data, language)
        syms = [s for s in table.symbols.values() if s.kind in KINDS and "#" not in s.qualname
                and s.end_line - s.start_line >= 2]
        rng.shuffle(syms)
        taken = 0
        first = [renames[path]] if path in renames else []
        candidates = first + [p for p in changed if p not in first]
        for sym in syms:
            if taken >= per_file or len(cases) >= n:
                break
            expect, detail = truth(snap_a, snap_b, path, sym.start_line, language, candidates)
            if not expect:
                excluded.append(f"{path}::{sym.qualname}: {detail}")
                continue
            taken += 1
            cases.append({"anchor": f"{path}::{sym.qualname}", "expect": expect, "line": sym.start_line,
                          "has_error": sym.has_error, "detail": detail})
    return {"from": a, "to": b, "cases": cases, "excluded": excluded}


def rename(repo_path: str, spec: dict[str, Any]) -> dict[str, Any]:
    root = _bench.repo_root(repo_path)
    snap = GitRepo(root).snapshot(spec["from"])
    tables: dict[str, Any] = {}
    cases = []
    for case in spec["cases"]:
        path, _, name = case["anchor"].partition("::")
        if path not in tables:
            tables[path] = _code.symbol_table(snap.read(path) or b"", _code.language_for_path(path) or "")
        same = [s for s in tables[path].symbols.values() if s.start_line == case["line"]]
        leaf = name.rsplit(".", 1)[-1]
        same = [s for s in same if s.qualname.rsplit(".", 1)[-1].split("(")[0].split("#")[0] == leaf] or same
        renamed = dict(case)
        if len(same) == 1:
            renamed["anchor"] = f"{path}::{same[0].qualname}"
        cases.append(renamed)
    return {**spec, "cases": cases}


def _tally(result: dict[str, Any]) -> dict[str, Any]:
    """Figures of one ``drift.py --json`` run over a cases file, counting a
    refused anchor (which ``drift.py`` leaves out of its scores) as a miss."""
    cases = [c for c in result["cases"] if c["truth"] or c["memvet"] == "refused"]
    for c in cases:
        c["truth"] = c["truth"] or c["expect"]

    def pick(*truths: str) -> list[dict[str, Any]]:
        return [c for c in cases if c["truth"] in truths]

    unrelated, changed = pick("unchanged", "cosmetic"), pick("changed")
    moved, deleted = pick("moved"), pick("deleted")
    verdicts: dict[str, dict[str, int]] = {}
    for c in cases:
        row = verdicts.setdefault(c["truth"], {})
        row[c["memvet"]] = row.get(c["memvet"], 0) + 1
    return {
        "n": len(cases),
        "refused": sum(c["memvet"] == "refused" for c in cases),
        "unverifiable": sum(c["memvet"] == "unverifiable" for c in cases),
        "false_alarms": (sum(c["memvet"] != "holds" for c in unrelated), len(unrelated)),
        "changes": (sum(c["memvet"] == "changed" for c in changed), len(changed)),
        "moves": (sum(c["memvet"] == "moved" for c in moved), len(moved)),
        "deletions": (sum(c["memvet"] == "deleted" for c in deleted), len(deleted)),
        "verdicts": verdicts,
    }


def compare(before_path: str, after_path: str) -> str:
    """A before/after table of two ``drift.py --json`` runs (markdown)."""
    runs = [_tally(json.loads(Path(p).read_text(encoding="utf-8"))) for p in (before_path, after_path)]

    def frac(pair: tuple[int, int]) -> str:
        return f"{pair[0]} of {pair[1]}" + (f" ({100 * pair[0] / pair[1]:.1f} %)" if pair[1] else "")

    rows = [
        ("false alarms on unchanged or cosmetic", *(frac(r["false_alarms"]) for r in runs)),
        ("body changes found (stale)", *(frac(r["changes"]) for r in runs)),
        ("moves found", *(frac(r["moves"]) for r in runs)),
        ("deletions refuted", *(frac(r["deletions"]) for r in runs)),
        ("refusals of symbols that exist", *(f"{r['refused']} of {r['n']}" for r in runs)),
        ("unverifiable", *(str(r["unverifiable"]) for r in runs)),
    ]
    out = ["| measure | before (HEAD) | after |", "|---|---|---|"]
    out += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    out += ["", "| truth | before: MemVet verdicts | after: MemVet verdicts |", "|---|---|---|"]
    for truth in ("unchanged", "cosmetic", "changed", "moved", "deleted"):
        cells = [", ".join(f"{k}: {n}" for k, n in sorted(r["verdicts"].get(truth, {}).items())) or "-"
                 for r in runs]
        out.append(f"| {truth} | {cells[0]} | {cells[1]} |")
    return "\n".join(out)


def sweep(folder: str, edition: str) -> str:
    """Run rustfmt over every ``.rs`` file under ``folder`` (in memory; the
    files are left as they are) and count the symbols whose hash or name
    the rewrite changed: what a first ``cargo fmt`` of a project costs."""
    exe = shutil.which("rustfmt")
    if exe is None:
        raise SystemExit("rustfmt is not on PATH")
    total, moved, failed = 0, [], []
    for path in sorted(Path(folder).rglob("*.rs")):
        if "target" in path.parts:
            continue
        data = path.read_bytes()
        done = subprocess.run([exe, "--edition", edition, "--emit", "stdout"], input=data, capture_output=True,
                              check=False, timeout=300)
        if done.returncode != 0:
            failed.append(str(path))
            continue
        before, after = _code.symbol_table(data, "rust"), _code.symbol_table(done.stdout, "rust")
        for name, sym in before.symbols.items():
            total += 1
            now = after.symbols.get(name)
            if now is None or now.hash != sym.hash:
                moved.append(f"{path.relative_to(folder)}::{name}" + (" (name gone)" if now is None else ""))
    lines = [f"rustfmt --edition {edition} over {folder}: {total} symbols, {len(moved)} with another hash "
             f"or name, {len(failed)} files rustfmt could not read"]
    lines += [f"- {m}" for m in moved[:30]] + [f"- rustfmt failed: {f}" for f in failed[:10]]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo")
    parser.add_argument("--from", dest="rev_from")
    parser.add_argument("--to", dest="rev_to", default="HEAD")
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--per-file", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ignore", default=r"(^|/)(vendor|testdata)/",
                        help="regular expressions of paths never sampled (default: vendor/ and testdata/)")
    parser.add_argument("--rename", help="a cases file: write it again with this MemVet's names")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                        help="two drift.py --json runs over cases files: print a before/after table")
    parser.add_argument("--sweep", metavar="FOLDER", help="rustfmt every .rs file under FOLDER in memory and "
                        "count the symbols whose hash changed")
    parser.add_argument("--edition", default="2015", help="rustfmt's --edition for --sweep (default 2015)")
    args = parser.parse_args()
    if args.sweep:
        print(sweep(args.sweep, args.edition))
        return
    if args.compare:
        print(compare(*args.compare))
        return
    if args.rename:
        out = rename(args.repo, json.loads(Path(args.rename).read_text(encoding="utf-8")))
    else:
        if not args.rev_from:
            raise SystemExit("give --from")
        out = sample(args.repo, args.rev_from, args.rev_to, args.sample, args.per_file, args.seed,
                     [p for p in args.ignore.split(",") if p])
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
