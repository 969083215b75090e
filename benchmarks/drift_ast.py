#!/usr/bin/env python
"""Re-judge a JavaScript drift run with a syntax tree as the truth.

``drift.py`` judges a JavaScript definition by a comment- and
whitespace-free comparison of its text, so a formatter's rewrite (quotes,
semicolons, parentheses) counts as a body change there and a false alarm on
it cannot show. This script reads ``drift.py --json`` output and compares
each scored JavaScript definition again with acorn's syntax tree (positions,
raw literal texts and comments left out; see ``format_sweep.mjs``): the same
tree is ``cosmetic``, another is ``changed``. It reports, against that
truth, MemVet's false alarms (``changed`` on the same tree) and misses
(``holds`` on another tree). The definition's lines come from MemVet's
symbol table at both revisions; the comparison does not use tree-sitter.

Needs ``node`` and a folder with ``npm install acorn@8`` (``--node-modules``)::

    python benchmarks/drift.py --repo /tmp/mocha ... --json > mocha.json
    python benchmarks/drift_ast.py mocha.json --node-modules /tmp/fmt/node_modules
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from memvet import _code

HELPER = Path(__file__).with_name("format_sweep.mjs")


def _text(repo: str, rev: str, path: str, qualname: str) -> str | None:
    got = subprocess.run(["git", "-C", repo, "show", f"{rev}:{path}"], capture_output=True)
    if got.returncode != 0:
        return None
    sym = _code.symbol_table(got.stdout, "javascript").symbols.get(qualname)
    if sym is None or sym.has_error:
        return None
    lines = got.stdout.decode("utf-8", "replace").splitlines()
    return "\n".join(lines[sym.start_line - 1 : sym.end_line])


def rejudge(doc: dict[str, object], modules: Path, examples: int) -> dict[str, object]:
    """Compare every scored JavaScript case of a drift run again by tree."""
    repo = str(doc["repo"])
    cases, pairs = [], []
    for case in doc["cases"]:  # type: ignore[attr-defined]
        if case["language"] != "javascript" or case["excluded"] or case["truth"] not in (
                "unchanged", "cosmetic", "changed"):
            continue
        rev_from, rev_to = case["rev_from"] or doc["from"], case["rev_to"] or doc["to"]
        before = _text(repo, rev_from, case["path"], case["qualname"])
        after = _text(repo, rev_to, case["path"], case["qualname"])
        if before is None or after is None:
            continue
        cases.append(case)
        pairs.append([before, after])
    run = subprocess.run(["node", str(HELPER), str(modules), "compare"], input=json.dumps(pairs),
                         capture_output=True, text=True, check=True)
    same = json.loads(run.stdout)
    out = {"cases": 0, "same_tree": 0, "other_tree": 0, "unparsed": 0, "false_alarms": 0, "misses": 0,
           "text_truth_changed_same_tree": 0}
    found: list[str] = []
    for case, verdict in zip(cases, same, strict=True):
        if verdict is None:
            out["unparsed"] += 1
            continue
        out["cases"] += 1
        memvet = case["memvet"]
        if verdict:
            out["same_tree"] += 1
            out["text_truth_changed_same_tree"] += int(case["truth"] == "changed")
            if memvet == "changed":
                out["false_alarms"] += 1
                if len(found) < examples:
                    found.append(f"false alarm: {case['path']}::{case['qualname']}")
        else:
            out["other_tree"] += 1
            if memvet == "holds":
                out["misses"] += 1
                if len(found) < examples:
                    found.append(f"miss: {case['path']}::{case['qualname']}")
    return {**out, "examples": found}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("drift_json", help="the output of drift.py --json")
    parser.add_argument("--node-modules", required=True, help="folder holding acorn")
    parser.add_argument("--examples", type=int, default=10)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    if shutil.which("node") is None:
        print("drift_ast: needs node on PATH", file=sys.stderr)
        return 2
    doc = json.loads(Path(args.drift_json).read_text())
    result = rejudge(doc, Path(args.node_modules).resolve(), args.examples)
    if args.json:
        print(json.dumps({"benchmark": "drift_ast", "drift_command": doc.get("command"), **result}, indent=1))
        return 0
    print(f"re-judged by syntax tree: {doc.get('command')}")
    print(f"{result['cases']} JavaScript cases ({result['unparsed']} not parsed by acorn): "
          f"{result['same_tree']} same tree ({result['text_truth_changed_same_tree']} of them 'changed' by text), "
          f"{result['other_tree']} another tree")
    print(f"MemVet false alarms (changed, same tree): {result['false_alarms']}; "
          f"misses (holds, another tree): {result['misses']}")
    for line in result["examples"]:  # type: ignore[attr-defined]
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
