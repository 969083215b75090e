#!/usr/bin/env python
"""Formatter rewrites that change a symbol's hash (false alarms in waiting).

Takes the JavaScript files of a repository at one revision, runs a real
formatter over them (prettier 3 with its defaults, prettier with
``--no-semi --single-quote --arrow-parens avoid --trailing-comma none``, or
``standard --fix``), and compares every symbol's normalized hash before and
after. The truth is acorn's syntax tree of the whole file (positions, raw
literal texts and comments left out): where it is the same before and after,
every symbol whose hash changed is a false alarm MemVet would raise when
such a formatting commit lands. Where the formatter changed the tree
(``standard --fix`` rewrites ``{a: a}`` to ``{a}``, ``let`` to ``const``...),
the changed hashes are counted apart: the program did change, if only in
form.

Needs ``node`` and a folder with ``npm install prettier@3 acorn@8
standard@17`` (``--node-modules``); nothing is written to the repository
(the files are copied to a temporary folder)::

    python benchmarks/format_sweep.py --repo /tmp/jquery --rev 3.0.0 --under src \\
        --node-modules /tmp/fmt/node_modules
"""

from __future__ import annotations

import argparse
import difflib
import fnmatch
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from memvet import _code

HELPER = Path(__file__).with_name("format_sweep.mjs")
STYLES = ("prettier", "prettier-nosemi", "standard")
SUFFIXES = (".js", ".mjs", ".cjs")


def _files(repo: Path, rev: str, under: str, ignore: list[str]) -> dict[str, bytes]:
    names = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", rev, "--", under or "."],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    out = {}
    for name in names:
        if not name.endswith(SUFFIXES) or any(fnmatch.fnmatch(name, pat) for pat in ignore):
            continue
        out[name] = subprocess.run(["git", "-C", str(repo), "show", f"{rev}:{name}"], check=True,
                                   capture_output=True).stdout
    return out


def _diff(before: bytes, after: bytes, sym: _code.Symbol, new: _code.Symbol, lines: int) -> list[str]:
    a = before.decode("utf-8", "replace").splitlines()[sym.start_line - 1 : sym.end_line]
    b = after.decode("utf-8", "replace").splitlines()[new.start_line - 1 : new.end_line]
    changed = [d for d in difflib.unified_diff(a, b, lineterm="", n=0) if d[:1] in "+-" and d[:3] not in ("---", "+++")]
    return changed[:lines]


def sweep(files: dict[str, bytes], style: str, modules: Path, examples: int) -> dict[str, object]:
    """Format ``files`` with ``style`` and compare every symbol's hash."""
    with tempfile.TemporaryDirectory(prefix="memvet-fmt-") as tmp:
        root = Path(tmp)
        for name, data in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(data)
        run = subprocess.run(["node", str(HELPER), str(modules), style, str(root)], check=True,
                             capture_output=True, text=True)
        verdicts = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
        after = {v["path"]: (root / v["path"]).read_bytes() for v in verdicts}
    counts = {"files": len(verdicts), "files_changed": 0, "files_same_ast": 0, "symbols": 0,
              "false_alarms": 0, "ast_changed_symbols": 0, "ast_changed_hash_changed": 0, "names_lost": 0}
    found: list[dict[str, object]] = []
    for v in verdicts:
        if not v["parsed"] or not v["changed"]:
            continue
        counts["files_changed"] += 1
        counts["files_same_ast"] += int(v["ast_equal"])
        name = v["path"]
        old = _code.symbol_table(files[name], "javascript").symbols
        new = _code.symbol_table(after[name], "javascript").symbols
        for qualname, sym in old.items():
            if sym.has_error or sym.kind not in ("function", "method", "class", "variable", "const"):
                continue
            other = new.get(qualname)
            if other is None:
                counts["names_lost"] += 1
                continue
            counts["symbols"] += 1
            if not v["ast_equal"]:
                counts["ast_changed_symbols"] += 1
                counts["ast_changed_hash_changed"] += int(other.hash != sym.hash)
                continue
            if other.hash != sym.hash:
                counts["false_alarms"] += 1
                if len(found) < examples:
                    found.append({"symbol": f"{name}::{qualname}",
                                  "diff": _diff(files[name], after[name], sym, other, 8)})
    return {"style": style, **counts, "examples": found}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", required=True, help="a local git repository")
    parser.add_argument("--rev", default="HEAD", help="revision whose files are formatted")
    parser.add_argument("--under", default="", help="only files under this folder")
    parser.add_argument("--ignore", default="dist/*,build/*,*.min.js", help="comma-separated globs to skip")
    parser.add_argument("--node-modules", required=True, help="folder holding prettier, acorn and standard")
    parser.add_argument("--styles", default=",".join(STYLES), help=f"comma-separated, of {', '.join(STYLES)}")
    parser.add_argument("--examples", type=int, default=10, help="false alarms shown per style")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    styles = [s for s in args.styles.split(",") if s]
    if shutil.which("node") is None or any(s not in STYLES for s in styles):
        print("format_sweep: needs node on PATH and styles among " + ", ".join(STYLES), file=sys.stderr)
        return 2
    files = _files(Path(args.repo), args.rev, args.under, [p for p in args.ignore.split(",") if p])
    results = [sweep(files, style, Path(args.node_modules).resolve(), args.examples) for style in styles]
    command = "python benchmarks/format_sweep.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.json:
        print(json.dumps({"benchmark": "format_sweep", "command": command, "hash_version": _code.HASH_VERSION,
                          "results": results}, indent=1))
        return 0
    print(f"format sweep: {args.repo} at {args.rev}, {len(files)} JavaScript files, hasher v{_code.HASH_VERSION}\n")
    print("| style | files changed | same tree | symbols compared | false alarms "
          "| tree changed: symbols / hash changed |")
    print("|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['style']} | {r['files_changed']} | {r['files_same_ast']} | {r['symbols']} | "
              f"{r['false_alarms']} | {r['ast_changed_symbols']} / {r['ast_changed_hash_changed']} |")
    for r in results:
        for ex in r["examples"]:  # type: ignore[attr-defined]
            print(f"\n{r['style']}: {ex['symbol']}")
            for line in ex["diff"]:
                print("    " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
