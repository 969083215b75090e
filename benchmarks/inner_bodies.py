#!/usr/bin/env python
"""Edits inside the inner parts of a method, over a real history (issue 31).

An anonymous class, a local class or a lambda inside a Java method (a class
expression, arrow or function expression inside a JavaScript/TypeScript
function) is part of that method: an edit inside it changes the method. This
walks the first-parent history of ``--repo`` (newest first, ``--commits``
commits), and for every file a commit modified, every callable symbol that
both sides define under one name (no syntax error) and whose recorded side
holds an inner part touched by the commit's diff is a case:

* truth: ``changed`` when the symbol's text differs once comments and
  whitespace outside strings are removed, else ``cosmetic``. The span (its
  first to its last byte, as the symbol table locates it) and the inner
  parts are located with the same tree-sitter grammar MemVet uses; the
  verdict on the text is a plain comparison, blind to the normalized token
  stream (so a removed redundant parenthesis counts as ``changed``);
* MemVet: its normalized hash of the symbol differs (``flagged``) or not.

A right answer is ``flagged`` for ``changed`` and not for ``cosmetic``.

    python benchmarks/inner_bodies.py --repo /tmp/gson --commits 2300
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pygit2
import tree_sitter

sys.path.insert(0, str(Path(__file__).parent))
import _bench

from memvet import _code
from memvet._code._languages import parse
from memvet._code._symbols import CodeFile

_CALLABLE = frozenset({"method", "constructor", "function"})
# Node types of an inner part, per language, and whether a node of that
# type counts (an object creation only with a class body, a class only
# below a method or function body).
_JAVA_INNER = frozenset({"lambda_expression", "object_creation_expression", "class_declaration"})
_JS_INNER = frozenset({"class", "arrow_function", "function_expression", "class_declaration"})
# A string or character literal (kept whole: `"https://..."` holds no
# comment, and its spaces count), else a comment or whitespace (dropped).
_LAYOUT = re.compile(rb"""("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|//[^\n]*|/\*.*?\*/|\s+""", re.S)


def _inner_lines(root: tree_sitter.Node, language: str) -> list[tuple[int, int]]:
    """1-based line ranges of every inner part in the file."""
    kinds = _JAVA_INNER if language == "java" else _JS_INNER
    out = []
    todo = [(root, False)]
    while todo:
        node, in_body = todo.pop()
        kind = node.type
        body = in_body or kind in ("block", "statement_block", "constructor_body")
        if kind in kinds and in_body and (
                kind != "object_creation_expression" or any(c.type == "class_body" for c in node.children)):
            out.append((node.start_point.row + 1, node.end_point.row + 1))
        todo.extend((child, body) for child in node.children)
    return out


def _spans(data: bytes, language: str) -> dict[str, tuple[int, int]]:
    """Each symbol's span in bytes (decorators to its last token), as the
    table's symbols are located (not hashed)."""
    parsed = CodeFile(data, language)
    out = {}
    for qualname, entry in parsed._entries.items():  # a benchmark reads the outline
        first, last = entry.span()
        out[qualname] = (first.start_byte, last.end_byte)
    return out


def _stripped(data: bytes, span: tuple[int, int]) -> bytes:
    return _LAYOUT.sub(lambda m: m.group(1) or b"", data[span[0]:span[1]])


def _touched(patch: pygit2.Patch) -> set[int]:
    """Old-side lines a patch removes, and the old lines around each insertion."""
    lines: set[int] = set()
    for hunk in patch.hunks:
        for line in hunk.lines:
            if line.origin == "-":
                lines.add(line.old_lineno)
        if hunk.old_lines == 0:  # an insertion only: between two old lines
            lines.update((hunk.old_start, hunk.old_start + 1))
    return lines


def run(repo_path: str, commits: int, language: str) -> dict[str, Any]:
    repo = pygit2.Repository(str(_bench.repo_root(repo_path)))
    suffixes = {"java": (".java",), "javascript": (".js", ".mjs", ".cjs"),
                "typescript": (".ts",)}[language]
    walker = repo.walk(repo.head.target, pygit2.GIT_SORT_TOPOLOGICAL)
    walker.simplify_first_parent()
    tally: dict[tuple[str, bool], int] = {}
    misses: list[str] = []
    seen = missing = 0
    for commit in walker:
        if not commit.parents or seen >= commits:
            break
        seen += 1
        diff = repo.diff(commit.parents[0], commit, context_lines=0)
        for i, delta in enumerate(diff.deltas):
            if delta.status_char() != "M" or not delta.new_file.path.endswith(suffixes):
                continue
            try:
                patch = diff[i]
                old, new = repo[delta.old_file.id].data, repo[delta.new_file.id].data
            except KeyError:  # pygit2.NotFoundError: a blob the clone lacks
                missing += 1
                continue
            assert patch is not None
            inner = _inner_lines(parse(old, language).root_node, language)
            if not inner:
                continue
            touched = _touched(patch)
            before, after = _code.symbol_table(old, language), _code.symbol_table(new, language)
            old_spans, new_spans = _spans(old, language), _spans(new, language)
            for qualname, sym in before.symbols.items():
                now = after.symbols.get(qualname)
                if sym.kind not in _CALLABLE or now is None or sym.has_error or now.has_error:
                    continue
                parts = [(a, b) for a, b in inner if sym.start_line <= a and b <= sym.end_line
                         and (a, b) != (sym.start_line, sym.end_line)]
                if not any(a <= line <= b for a, b in parts for line in touched):
                    continue
                truth = ("changed" if _stripped(old, old_spans[qualname]) != _stripped(new, new_spans[qualname])
                         else "cosmetic")
                flagged = sym.hash != now.hash
                tally[(truth, flagged)] = tally.get((truth, flagged), 0) + 1
                if flagged != (truth == "changed"):
                    misses.append(f"{str(commit.id)[:10]} {delta.new_file.path}::{qualname}: truth {truth}, "
                                  f"MemVet {'flagged' if flagged else 'unchanged'}")
    return {
        "benchmark": "inner_bodies",
        "command": _bench.command_line(),
        "repo": repo_path,
        "language": language,
        "commits": seen,
        "missing_blobs": missing,
        "hash_version": _code.HASH_VERSION,
        "changed": tally.get(("changed", True), 0) + tally.get(("changed", False), 0),
        "changed_flagged": tally.get(("changed", True), 0),
        "cosmetic": tally.get(("cosmetic", True), 0) + tally.get(("cosmetic", False), 0),
        "cosmetic_flagged": tally.get(("cosmetic", True), 0),
        "misses": misses,
    }


def render(r: dict[str, Any]) -> str:
    head = (f"inner bodies: {r['repo']} ({r['language']}), {r['commits']} first-parent commits, "
            f"hasher v{r['hash_version']}; {r['missing_blobs']} file changes skipped (blobs the clone lacks)")
    rows = [
        ("an inner part's code changed", r["changed"], r["changed_flagged"]),
        ("an inner part's comments or layout changed", r["cosmetic"], r["cosmetic_flagged"]),
    ]
    out = [head, "", _bench.table(["edit inside the method", "methods", "MemVet: changed"], rows)]
    if r["misses"]:
        out += ["", "Disagreements:", *(f"- {m}" for m in r["misses"][:20])]
    return "\n".join(out)


def main() -> None:
    parser = _bench.arg_parser(__doc__)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--commits", type=int, default=1000, help="first-parent commits to walk (newest first)")
    parser.add_argument("--language", default="java", choices=["java", "javascript", "typescript"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    _bench.emit(run(args.repo, args.commits, args.language), args.json, render)


if __name__ == "__main__":
    main()
