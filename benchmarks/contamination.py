#!/usr/bin/env python
"""Contamination: do agents fed by a memory adopt false or drifted facts? (issue 8, part 1)

A deterministic proxy agent answers one yes/no question per fact, in three
arms, against three memory back ends, in two scenarios.

Arms:
  no-memory     answers from the code only.
  code-first    reads the code first; uses a memory only when the code is
                silent on the question.
  memory-first  takes the first usable memory that addresses the question and
                stops; reads the code only when no memory is usable.

Back ends (the same claims, the same embedding, the same k):
  plain         a Chroma collection, add-only: every memory is usable.
  lifecycle     memories can be retracted (rejected), no code checks: every
                active memory is usable.
  memvet        a MemVet ledger: typed anchors resolved at write (a write whose
                anchor does not resolve is blocked), verified at every read;
                only the ``current`` group (verified) is usable, ``caution``
                and ``history`` items send the agent back to the code.

Scenarios:
  poisoned      the seed setup: the facts file's true, false and silent facts
                are written as an agent would write them (claim + the anchors
                it would attach) at commit A and read at A. Before the reads, a
                review pass retracts every stored memory the code contradicts
                (the retraction lifecycle; plain is add-only and keeps them).
  temporal      the facts file's temporal facts (all true at A) are recorded
                at A; the file's ``changes`` are applied and committed in a
                temporary clone to make commit B; the reads happen at B.

The code oracle (what the agent learns by reading the code) is independent of
MemVet: Python's ``ast`` for symbols and imports, ``tomllib`` for manifests,
regular expressions for text. A question's truth is the oracle's answer at the
commit it is read at; a silent fact (the code says nothing) is false.

Reported per back end and arm: correct answers, false (poisoned) or drifted
(temporal) facts adopted from memory, false facts still served as usable at
the end, and the memory context the agent received per question, in tokens
of the MiniLM WordPiece tokenizer. Per back end, fact by fact: the facts
adopted, the true facts served as caution or history instead of current
(false alarms) and the true facts refused at write, with the refusal. The
facts file format is documented in docs/benchmarks.md.

``--writes proposed`` makes the MemVet back end write every memory as a
proposal (``Ledger.record(..., proposed=True)``): the review pass approves
what the code confirms at A and rejects what it contradicts; silent facts
stay proposals. Without review no proposal is current, so the agent adopts
nothing from MemVet. Commit B is made with a fixed identity and fixed dates,
so its sha is the same on every run with the same inputs. A silent fact's
probe may list ``absent_terms``: words checked to occur nowhere in the
repository's tracked text files at A (violations are reported).

``--write-path`` measures MemVet's write path alone, with no agent, no
retrieval and no review pass (issue 30). Each set, ``--set
[NAME=]REPO:FACTS`` (repeatable; NAME defaults to the facts file's stem;
``--repo`` and ``--facts`` give one set), is measured at its facts file's
``commit`` (else the repository's HEAD; the commit must be in the
repository, checked out or not). Every fact of the file, whatever its
scenarios, is recorded with its claim and anchors (as the MemVet back end
writes it) twice, each writer in a fresh ledger: by a person
(``Author.person("proxy-person")``, ``proposed=None``: active) and by an
agent (``Author.agent("proxy-agent")``, ``proposed=None``: the default
policy, a proposal). A fact's outcome is ``refused`` (the write raised a
``MemvetError``, whose message is kept) or the group its own decision is
served in at that commit (``Ledger.verify`` -> ``status.group``: current,
caution or history), with the status and its reason. A write that confirms
an earlier fact's decision (a near duplicate with the same anchors) is
judged by that decision (``same_as``). Reported per set and writer, with
the fact ids: true facts refused, true facts served current, false and
silent facts served current (counted together), beside the targets of
issue 30: person writes 0 true refused, all but 2 true facts current
(>= 23 of 25) and <= 2 false current; agent writes 0 false current before
review. ``label_mismatch`` lists facts whose kind the code oracle disputes
at that commit (a facts file to fix; the figures count by kind).
``--write-path`` takes no ``--scenario``, ``-k``, ``--writes`` or
``--no-review``.

Examples::

    python benchmarks/contamination.py --repo . --facts benchmarks/facts/memvet.json
    python benchmarks/contamination.py --write-path --set httpx=/tmp/httpx:benchmarks/facts/httpx.json \\
        --set express=/tmp/express:benchmarks/facts/express.json --set ky=/tmp/ky:benchmarks/facts/ky.json
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import sys
import tomllib
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bench
import drift

import memvet
from memvet._git import GitRepo

ARMS = ("no-memory", "code-first", "memory-first")
BACKENDS = ("plain", "lifecycle", "memvet")


# ============================================================= the code oracle


class Oracle:
    """Answers a fact's probe from the code at one commit (no MemVet involved)."""

    def __init__(self, repo: GitRepo, rev: str) -> None:
        self.snap = repo.snapshot(rev)
        self._texts: dict[str, str] | None = None
        self._sources: dict[tuple[str, bool], str | None] = {}  # a symbol's source, parsed once for every probe

    def read(self, path: str) -> bytes | None:
        return self.snap.read(path)

    def _symbol_source(self, anchor: str, code_only: bool = False) -> str | None:
        if (anchor, code_only) not in self._sources:
            self._sources[anchor, code_only] = self._parse_symbol(anchor, code_only)
        return self._sources[anchor, code_only]

    def _parse_symbol(self, anchor: str, code_only: bool) -> str | None:
        """The source of the symbol ``anchor`` names at this commit (its code alone, with ``code_only``);
        None when the file or the symbol is not there, or two definitions have the name."""
        path, _, name = anchor.partition("::")
        data = self.read(path)
        if data is None:
            return None
        if path.endswith(".py"):
            defs = drift.py_definitions(data)
            nodes = (defs or {}).get(name, [])
            if len(nodes) != 1:
                return None
            if code_only:
                return code_only_segment(data, nodes[0])
            return drift._segment(data, nodes[0])
        if path.endswith((".go", ".rs")):
            found = gorust_definitions(data, path).get(name, [])
            return gorust_segment(data, found[0], code_only) if len(found) == 1 else None
        if code_only:
            raise SystemExit(f"code_only is supported for Python, Go and Rust symbols only: {anchor}")
        region = drift.js_region(data, name, drift._is_ts(path))
        if isinstance(region, str):
            return None
        return "\n".join(data.decode("utf-8", "replace").splitlines()[region[0] - 1: region[1]])

    def _declared(self, name: str) -> bool:
        from packaging.requirements import InvalidRequirement, Requirement
        from packaging.utils import canonicalize_name

        want = canonicalize_name(name)
        names: list[str] = []
        data = self.read("pyproject.toml")
        if data is not None:
            doc = tomllib.loads(data.decode("utf-8"))
            project = doc.get("project", {})
            reqs = list(project.get("dependencies", []))
            for extra in project.get("optional-dependencies", {}).values():
                reqs.extend(extra)
            for group in doc.get("dependency-groups", {}).values():
                reqs.extend(r for r in group if isinstance(r, str))
            for r in reqs:
                try:
                    names.append(Requirement(r).name)
                except InvalidRequirement:
                    continue
            names.extend(doc.get("tool", {}).get("poetry", {}).get("dependencies", {}).keys())
        for path in self.snap.paths():
            base = path.rsplit("/", 1)[-1]
            if fnmatch.fnmatch(base, "requirements*.txt"):
                for line in (self.read(path) or b"").decode("utf-8", "replace").splitlines():
                    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
                    if m and not line.lstrip().startswith(("#", "-")):
                        names.append(m.group(1))
            elif base == "package.json" and path.count("/") == 0:
                pkg = json.loads((self.read(path) or b"{}").decode("utf-8"))
                for key in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
                    names.extend(pkg.get(key, {}).keys())
        data = self.read("go.mod")
        if data is not None:  # module paths of `require` lines and blocks
            names.extend(re.findall(r"^\s*(?:require\s+)?([\w.-]+\.[\w.-]+/[\w./-]+)\s+v", data.decode("utf-8"), re.M))
        data = self.read("Cargo.toml")
        if data is not None:
            doc = tomllib.loads(data.decode("utf-8"))
            tables = [doc, *doc.get("target", {}).values()]
            for t in tables:
                for key in ("dependencies", "dev-dependencies", "build-dependencies"):
                    names.extend(t.get(key, {}).keys())
        return any(canonicalize_name(n) == want or n == name for n in names)

    def _imports(self, module: str, scope: str) -> bool:
        import ast

        for path in self.snap.paths():
            if not path.endswith(".py"):
                continue
            if scope and not (fnmatch.fnmatchcase(path, scope) or path.startswith(scope.rstrip("*/") + "/")):
                continue
            try:
                tree = ast.parse(self.read(path) or b"")
            except (SyntaxError, ValueError):
                continue
            for node in ast.walk(tree):
                mods = []
                if isinstance(node, ast.Import):
                    mods = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    mods = [node.module]
                if any(m == module or m.startswith(module + ".") for m in mods):
                    return True
        return False

    def unresolved(self, probe: dict[str, Any]) -> bool:
        """Whether ``probe`` asks what a symbol or a file contains and the symbol (missing, or one
        name for two definitions) or the file is not there: its False would answer nothing."""
        if "contains" not in probe:
            return False  # a bare symbol or file probe asks whether it exists: absence is its answer
        if "symbol" in probe:
            return self._symbol_source(probe["symbol"], bool(probe.get("code_only"))) is None
        return "file" in probe and self.read(probe["file"]) is None

    def answer(self, probe: dict[str, Any]) -> bool | None:
        """True/False when the code settles the question, None when it is silent."""
        if "silent" in probe:
            return None
        if "symbol" in probe:
            src = self._symbol_source(probe["symbol"], bool(probe.get("code_only")))
            result = src is not None and (
                "contains" not in probe or re.search(probe["contains"], src) is not None)
        elif "file" in probe:
            data = self.read(probe["file"])
            result = data is not None and (
                "contains" not in probe or re.search(probe["contains"], data.decode("utf-8", "replace")) is not None)
        elif "dependency" in probe:
            result = self._declared(probe["dependency"])
        elif "imports" in probe:
            result = self._imports(probe["imports"], probe.get("scope", ""))
        else:
            raise SystemExit(f"unknown probe {probe!r}")
        return (not result) if probe.get("negate") else result


    def texts(self) -> dict[str, str]:
        """Every tracked text file at this commit (binary files, with a NUL byte, left out)."""
        if self._texts is None:
            self._texts = {}
            for path in self.snap.paths():
                data = self.read(path)
                if data is None or b"\0" in data[:8000]:
                    continue
                self._texts[path] = data.decode("utf-8", "replace")
        return self._texts

    def term_occurrence(self, term: str, exclude: set[str] = frozenset()) -> str | None:
        """The first tracked text file where ``term`` occurs as a word (case-insensitive), or None."""
        rx = re.compile(r"(?<!\w)" + re.escape(term) + r"(?!\w)", re.IGNORECASE)
        for path, text in sorted(self.texts().items()):
            if path not in exclude and rx.search(text):
                return path
        return None



# Go and Rust definitions for the oracle: located with the official tree-sitter grammars directly
# (not MemVet's symbol index), named the way a person anchors them: Go `Name`, `Type.Method`;
# Rust `name`, `Type`, `Type.method` (an inherent impl's, or a trait impl's when it is the only
# `method` of `Type`), `<Type as Trait>.method`, `Trait.method`, a `macro_rules!` macro's name.

_COMMENTS = {"comment", "line_comment", "block_comment"}


def _ts_parser(path: str) -> Any:
    import tree_sitter

    if path.endswith(".go"):
        import tree_sitter_go as grammar
    else:
        import tree_sitter_rust as grammar
    return tree_sitter.Parser(tree_sitter.Language(grammar.language()))


def _bare_type(node: Any) -> str:
    """`*Stack[K, V]`, `&'a mut Serializer<W>`, `crate::Foo<T>` -> the type's own name."""
    text = node.text.decode("utf-8", "replace")
    text = re.sub(r"<.*>|\[.*\]", "", text, flags=re.S)
    text = re.sub(r"^[&*\s]*(?:'\w+\s+)?(?:mut\s+|dyn\s+)?", "", text)
    return text.rsplit("::", 1)[-1].strip()


def gorust_definitions(source: bytes, path: str) -> dict[str, list[Any]]:
    """Named definitions of a Go or Rust file: name -> nodes."""
    tree = _ts_parser(path).parse(source)
    out: dict[str, list[Any]] = {}

    def add(name: str, node: Any) -> None:
        out.setdefault(name, []).append(node)

    def walk_go(root: Any) -> None:
        for n in root.named_children:
            if n.type == "function_declaration":
                add(n.child_by_field_name("name").text.decode(), n)
            elif n.type == "method_declaration":
                recv = n.child_by_field_name("receiver")
                types = [c for c in recv.named_children if c.type == "parameter_declaration"]
                t = types[0].child_by_field_name("type") if types else None
                if t is not None:
                    add(f"{_bare_type(t)}.{n.child_by_field_name('name').text.decode()}", n)
            elif n.type in ("type_declaration", "const_declaration", "var_declaration"):
                specs = [s for c in n.named_children for s in (c.named_children if c.type == "var_spec_list" else [c])]
                for spec in specs:
                    if spec.type in ("type_spec", "type_alias", "const_spec", "var_spec"):
                        for nm in spec.children_by_field_name("name"):
                            add(nm.text.decode(), spec if len(specs) > 1 else n)

    def walk_rust(root: Any, scope: str = "") -> None:
        for n in root.named_children:
            kind = n.type
            name_node = n.child_by_field_name("name")
            if kind in ("function_item", "struct_item", "enum_item", "trait_item", "const_item", "static_item",
                        "type_item", "union_item", "macro_definition") and name_node is not None:
                add(name_node.text.decode(), n)
                if kind == "trait_item":
                    body = n.child_by_field_name("body")
                    for m in body.named_children if body is not None else []:
                        mn = m.child_by_field_name("name")
                        if m.type in ("function_item", "function_signature_item") and mn is not None:
                            add(f"{name_node.text.decode()}.{mn.text.decode()}", m)
            elif kind == "impl_item":
                ty = _bare_type(n.child_by_field_name("type"))
                trait = n.child_by_field_name("trait")
                body = n.child_by_field_name("body")
                for m in body.named_children if body is not None else []:
                    mn = m.child_by_field_name("name")
                    if m.type in ("function_item", "const_item", "type_item") and mn is not None:
                        member = mn.text.decode()
                        if trait is None:
                            add(f"{ty}.{member}", m)
                        else:
                            add(f"<{ty} as {_bare_type(trait)}>.{member}", m)
                            add(f"{ty}.{member}#trait", m)
            elif kind == "mod_item":
                body = n.child_by_field_name("body")
                if body is not None:
                    walk_rust(body)

    (walk_go if path.endswith(".go") else walk_rust)(tree.root_node)
    for key in [k for k in out if k.endswith("#trait")]:
        plain = key[: -len("#trait")]
        nodes = out.pop(key)
        if plain not in out and len(nodes) == 1:
            out[plain] = nodes
    return out


def gorust_segment(source: bytes, node: Any, code_only: bool) -> str:
    """A definition's source with its attributes; its doc comments too, or, when code_only, no comment at all."""
    start, end = node.start_byte, node.end_byte
    prev = node.prev_named_sibling
    while prev is not None and (prev.type in _COMMENTS or prev.type == "attribute_item"):
        if prev.type == "attribute_item" or not code_only:
            start = prev.start_byte
        prev = prev.prev_named_sibling
    cuts: list[tuple[int, int]] = []
    if code_only:
        stack = [node.parent] if node.parent is not None else [node]
        while stack:
            n = stack.pop()
            if n.end_byte <= start or n.start_byte >= end:
                continue
            if n.type in _COMMENTS:
                cuts.append((max(n.start_byte, start), min(n.end_byte, end)))
                continue
            stack.extend(n.children)
    text = bytearray(source[start:end])
    for a, b in sorted(cuts, reverse=True):
        del text[a - start: b - start]
    lines = text.decode("utf-8", "replace").split("\n")
    return "\n".join(ln for ln in lines if ln.strip()) if code_only else "\n".join(lines)


def code_only_segment(source: bytes, node: Any) -> str:
    """A Python definition's source with its comments and docstrings removed (blank lines dropped).

    Docstrings are found with ``ast`` (the first string statement of a module,
    class or function body), comments with ``tokenize``; both are cut out of
    the file's lines before the definition's lines (decorators included) are
    taken, so a regular expression over the result matches code only.
    """
    import ast
    import io
    import tokenize

    lines = source.split(b"\n")
    cuts: list[tuple[int, int, int, int]] = []  # (start line, start byte col, end line, end byte col), 1-based lines
    tree = ast.parse(source)
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body:
            first = n.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                cuts.append((first.lineno, first.col_offset, first.end_lineno or first.lineno,
                             first.end_col_offset or 0))
    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            if tok.type == tokenize.COMMENT:
                row, col = tok.start
                start = len(tok.line[:col].encode("utf-8"))
                cuts.append((row, start, row, len(lines[row - 1].rstrip(b"\r"))))
    except (tokenize.TokenError, SyntaxError):
        pass
    for l1, c1, l2, c2 in sorted(cuts, reverse=True):
        if l1 == l2:
            lines[l1 - 1] = lines[l1 - 1][:c1] + lines[l1 - 1][c2:]
        else:
            lines[l1 - 1] = lines[l1 - 1][:c1]
            for i in range(l1, l2 - 1):
                lines[i] = b""
            lines[l2 - 1] = lines[l2 - 1][c2:]
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    kept = [ln.decode("utf-8", "replace").rstrip() for ln in lines[start - 1: node.end_lineno]]
    return "\n".join(ln for ln in kept if ln.strip())


def absent_term_violations(oracle: Oracle, facts: list[dict[str, Any]], exclude: set[str]) -> list[dict[str, str]]:
    """Every ``absent_terms`` entry of a probe that does occur in the repository (first file named)."""
    out = []
    for f in facts:
        for term in f["probe"].get("absent_terms", []):
            path = oracle.term_occurrence(term, exclude)
            if path is not None:
                out.append({"id": f["id"], "term": term, "path": path})
    return out


# ============================================================= back ends


@dataclass
class Item:
    fact: str
    usable: bool
    text: str
    group: str = "current"
    status: str = ""
    reason: str = ""


class PlainBackend:
    """Add-only Chroma retrieval."""

    name = "plain"
    can_retract = False

    def __init__(self, client: Any, embedder: Any) -> None:
        self.embedder = embedder
        self.col = client.create_collection(f"plain-{uuid.uuid4().hex[:8]}", embedding_function=None,
                                            configuration={"hnsw": {"space": "cosine"}})
        self.rejected: set[str] = set()
        self.blocked: list[str] = []
        self.block_reasons: dict[str, str] = {}

    def write(self, fact: dict[str, Any], rev: str) -> None:
        vec = self.embedder.embed_documents([fact["claim"]])[0]
        self.col.add(ids=[fact["id"]], documents=[fact["claim"]], embeddings=[vec],
                     metadatas=[{"fact": fact["id"], "lifecycle": "active"}])

    def retract(self, fact_id: str, reason: str) -> None:
        raise NotImplementedError

    def approve(self, fact_id: str, reason: str) -> bool:
        return False  # every memory is active from the start

    def stored(self, fact_id: str) -> bool:
        return bool(self.col.get(ids=[fact_id])["ids"])

    def usable_at_end(self, fact_id: str, rev: str) -> bool:
        return self.stored(fact_id) and fact_id not in self.rejected

    def read(self, question: str, k: int, rev: str) -> tuple[list[Item], str]:
        got = self.col.query(query_embeddings=[self.embedder.embed_query(question)],
                             n_results=min(k, self.col.count()), include=["documents", "metadatas"])
        items = [Item(m["fact"], True, d) for d, m in zip(got["documents"][0], got["metadatas"][0], strict=True)]
        return items, "\n".join(f"- {i.text}" for i in items)


class LifecycleBackend(PlainBackend):
    """Retraction without code checks: rejected memories are not served."""

    name = "lifecycle"
    can_retract = True

    def retract(self, fact_id: str, reason: str) -> None:
        self.rejected.add(fact_id)
        self.col.update(ids=[fact_id], metadatas=[{"fact": fact_id, "lifecycle": "rejected"}])

    def read(self, question: str, k: int, rev: str) -> tuple[list[Item], str]:
        n = self.col.count()
        got = self.col.query(query_embeddings=[self.embedder.embed_query(question)],
                             n_results=min(max(4 * k, 20), n), include=["documents", "metadatas"])
        items = [Item(m["fact"], True, d) for d, m in zip(got["documents"][0], got["metadatas"][0], strict=True)
                 if m["lifecycle"] == "active"][:k]
        return items, "\n".join(f"- {i.text}" for i in items)


class MemvetBackend:
    """A MemVet ledger: anchors at write, verification at read."""

    name = "memvet"
    can_retract = True

    def __init__(self, repo: Path, client: Any, embedder: Any, writes: str = "active",
                 author: memvet.Author | None = None, agent_writes: str | None = None) -> None:
        """A fresh ledger (its own namespace) on ``repo``.

        Args:
            writes: ``active`` or ``proposed`` (``proposed=False``/``True`` on
                every record), or ``policy`` (``proposed=None``: the ledger
                decides by the writer's kind, a person's write active, an
                agent's by ``agent_writes``).
            author: Who writes; default the proxy agent.
            agent_writes: Passed to ``Ledger.open``; default the repository's
                committed policy.
        """
        self.ledger = memvet.Ledger.open(repo, client=client, embedding=embedder,
                                         namespace=f"contamination-{uuid.uuid4().hex[:8]}", disk_cache=False,
                                         agent_writes=agent_writes)
        self.writes = writes
        self.author = author if author is not None else memvet.Author.agent("proxy-agent")
        self.ids: dict[str, str] = {}  # fact id -> decision id
        self.outcomes: dict[str, str] = {}  # fact id -> what the write did (recorded, proposed, confirmed)
        self.facts: dict[str, str] = {}  # decision id -> fact id
        self.blocked: list[str] = []
        self.block_reasons: dict[str, str] = {}
        self.reviewed: set[str] = set()  # decision ids approved or rejected in review

    @staticmethod
    def _anchor(spec: Any) -> Any:
        if isinstance(spec, dict):
            return memvet.absent(import_=spec.get("import"), pattern=spec.get("pattern"),
                                 scope=spec.get("scope", ""))
        return spec

    def write(self, fact: dict[str, Any], rev: str) -> None:
        anchors = [self._anchor(a) for a in fact.get("anchors", [])]
        try:
            # The proxy is an agent unless another writer is given; `--writes active`
            # stands for a team whose committed policy makes agents' records current at once.
            res = self.ledger.record(fact["claim"], anchors, at=rev, tags=[fact["id"]], author=self.author,
                                     proposed=None if self.writes == "policy" else self.writes == "proposed")
        except memvet.MemvetError as exc:
            self.blocked.append(fact["id"])
            self.block_reasons[fact["id"]] = str(exc)
            return
        self.ids[fact["id"]] = res.decision.id
        self.outcomes[fact["id"]] = res.outcome.value
        self.facts.setdefault(res.decision.id, fact["id"])

    def retract(self, fact_id: str, reason: str) -> None:
        if fact_id in self.ids and self.ids[fact_id] not in self.reviewed:
            self.reviewed.add(self.ids[fact_id])
            self.ledger.reject(self.ids[fact_id], reason=reason, author="reviewer")

    def approve(self, fact_id: str, reason: str) -> bool:
        """Approve a proposal (``--writes proposed``); False when there is nothing to approve."""
        if self.writes != "proposed" or fact_id not in self.ids or self.ids[fact_id] in self.reviewed:
            return False
        self.reviewed.add(self.ids[fact_id])
        self.ledger.approve(self.ids[fact_id], reason=reason, author="reviewer")
        return True

    def stored(self, fact_id: str) -> bool:
        return fact_id in self.ids

    def verdict(self, fact_id: str, rev: str) -> memvet.Verdict | None:
        """The verdict at ``rev`` on the fact's own decision; None when its write was refused."""
        if fact_id not in self.ids:
            return None
        return self.ledger.verify(self.ids[fact_id], at=rev)

    def usable_at_end(self, fact_id: str, rev: str) -> bool:
        verdict = self.verdict(fact_id, rev)
        return verdict is not None and verdict.status is memvet.Status.VERIFIED

    def read(self, question: str, k: int, rev: str) -> tuple[list[Item], str]:
        recall = self.ledger.recall(question, k=k, at=rev)
        items = []
        for group in ("current", "caution", "history"):
            for it in getattr(recall, group):
                items.append((it.score, Item(self.facts.get(it.id, ""), group == "current", it.text, group,
                                             it.status.value, it.reason)))
        items.sort(key=lambda x: -x[0])
        return [i for _, i in items], memvet.render_blocks(recall)


# ============================================================= the agent


@dataclass
class Outcome:
    correct: int = 0
    adopted: int = 0
    from_memory: int = 0
    tokens: list[int] = field(default_factory=list)
    adopted_ids: list[str] = field(default_factory=list)


def answer(arm: str, code: bool | None, items: list[Item], fact_id: str) -> tuple[bool, str]:
    """The proxy agent: (answer, where it came from)."""
    memory = next((i for i in items if i.usable and i.fact == fact_id), None)
    if arm == "no-memory":
        return bool(code), "code"
    if arm == "code-first":
        if code is not None:
            return code, "code"
        return (True, "memory") if memory is not None else (False, "code")
    if memory is not None:  # memory-first
        return True, "memory"
    return bool(code), "code"


def label_disagrees(kind: str, answer: bool | None) -> bool:
    """True when the oracle's answer is not what the fact's ``kind`` says (true, false, silent)."""
    return answer is not {"true": True, "false": False}.get(kind)


def run_scenario(name: str, repo: Path, facts: list[dict[str, Any]], write_rev: str, read_rev: str,
                 embedder: Any, k: int, review: bool, tokenizer: Any, writes: str = "active",
                 exclude: frozenset[str] = frozenset()) -> dict[str, Any]:
    import chromadb
    from chromadb.config import Settings

    git = GitRepo(repo)
    at_write, at_read = Oracle(git, write_rev), Oracle(git, read_rev)
    truth_write = {f["id"]: at_write.answer(f["probe"]) for f in facts}
    truth_read = {f["id"]: bool(at_read.answer(f["probe"])) for f in facts}
    code_read = {f["id"]: at_read.answer(f["probe"]) for f in facts}
    def mismatch(f: dict[str, Any]) -> bool:
        t = truth_write[f["id"]]
        return t is not True if name == "temporal" else label_disagrees(f["kind"], t)

    label_mismatch = [f["id"] for f in facts if mismatch(f)]
    absent_violations = absent_term_violations(at_write, facts, set(exclude))
    false_ids = [f["id"] for f in facts if not truth_read[f["id"]]]

    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    backends: list[Any] = [PlainBackend(client, embedder), LifecycleBackend(client, embedder),
                           MemvetBackend(repo, client, embedder, writes)]
    results: dict[str, Any] = {}
    for backend in backends:
        for f in facts:
            backend.write(f, write_rev)
        retracted = approved = 0
        if review and backend.can_retract:
            for f in facts:
                if truth_write[f["id"]] is False and backend.stored(f["id"]):
                    backend.retract(f["id"], "review: the code contradicts it")
                    retracted += 1
                elif truth_write[f["id"]] is True and backend.stored(f["id"]):
                    approved += backend.approve(f["id"], "review: the code confirms it")
        reads = {f["id"]: backend.read(f["question"], k, read_rev) for f in facts}
        per_arm = {}
        for arm in ARMS:
            out = Outcome()
            for f in facts:
                items, context = reads[f["id"]]
                ans, source = answer(arm, code_read[f["id"]], items, f["id"])
                out.correct += ans == truth_read[f["id"]]
                if source == "memory":
                    out.from_memory += 1
                    if ans and not truth_read[f["id"]]:
                        out.adopted += 1
                        out.adopted_ids.append(f["id"])
                out.tokens.append(0 if arm == "no-memory" else _tokens(tokenizer, context))
            per_arm[arm] = {
                "correct": out.correct, "questions": len(facts),
                "false_adopted": out.adopted, "false_facts": len(false_ids),
                "false_adopted_rate": out.adopted / len(false_ids) if false_ids else None,
                "answers_from_memory": out.from_memory,
                "context_tokens_mean": sum(out.tokens) / len(out.tokens),
                "context_tokens_total": sum(out.tokens),
                "adopted_ids": out.adopted_ids,
            }
        persisting = [i for i in false_ids if backend.usable_at_end(i, read_rev)]
        false_alarms = []  # true facts whose own memory was served, but not as usable (caution/history)
        for f in facts:
            own = [i for i in reads[f["id"]][0] if i.fact == f["id"]]
            if truth_read[f["id"]] and own and not any(i.usable for i in own):
                false_alarms.append({"id": f["id"], "group": own[0].group, "status": own[0].status,
                                     "reason": own[0].reason})
        refused_true = [{"id": i, "message": backend.block_reasons.get(i, "")} for i in backend.blocked
                        if truth_write[i] is True]
        results[backend.name] = {
            "stored": sum(backend.stored(f["id"]) for f in facts),
            "blocked_at_write": list(backend.blocked),
            "block_reasons": backend.block_reasons,
            "retracted_in_review": retracted,
            "approved_in_review": approved,
            "writes": writes if backend.name == "memvet" else "active",
            "false_alarms": false_alarms,
            "true_refused_at_write": refused_true,
            "false_persisting": len(persisting),
            "false_persisting_ids": persisting,
            "retrieval_hit_rate": sum(any(i.fact == f["id"] for i in reads[f["id"]][0]) for f in facts) / len(facts),
            "arms": per_arm,
        }
    return {
        "scenario": name, "write_rev": write_rev, "read_rev": read_rev, "facts": len(facts),
        "true_at_read": len(facts) - len(false_ids), "false_at_read": len(false_ids),
        "false_ids": false_ids, "silent": [f["id"] for f in facts if code_read[f["id"]] is None],
        "label_mismatch": label_mismatch, "absent_terms_violations": absent_violations, "review": review,
        "writes": writes, "backends": results,
    }


def _tokens(tokenizer: Any, text: str) -> int:
    if not text:
        return 0
    if tokenizer is None:
        return (len(text) + 3) // 4
    return len(tokenizer.encode(text, add_special_tokens=False).ids)


def load_tokenizer() -> Any:
    try:
        import tokenizers
    except ImportError:
        return None
    path = Path(memvet.__file__).parent / "data" / "minilm" / "tokenizer.json"
    if not path.exists():
        return None
    tok = tokenizers.Tokenizer.from_file(str(path))
    tok.no_truncation()
    tok.no_padding()
    return tok


# ============================================================= commit B

#: Commit B's identity and dates, fixed so that its sha depends only on commit A
#: and the facts file's changes (the same inputs give the same sha on every run).
COMMIT_B_ENV = {
    "GIT_AUTHOR_NAME": "MemVet Bench",
    "GIT_AUTHOR_EMAIL": "bench@memvet.invalid",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00+0000",
    "GIT_COMMITTER_NAME": "MemVet Bench",
    "GIT_COMMITTER_EMAIL": "bench@memvet.invalid",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00+0000",
}


def apply_changes(clone: Path, changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Apply the facts file's changes in the clone; returns what happened to each."""
    report = []
    for ch in changes:
        status = "applied"
        try:
            if "replace" in ch:
                r = ch["replace"]
                target = clone / r["path"]
                text = target.read_text(encoding="utf-8")
                if r["old"] not in text:
                    status = "skipped: text not found (the code moved on; update the facts file)"
                else:
                    count = r.get("count", 1)
                    text = text.replace(r["old"], r["new"], -1 if count == 0 else count)
                    target.write_text(text, encoding="utf-8")
            elif "move" in ch:
                src, dst = ch["move"]["from"], ch["move"]["to"]
                if not (clone / src).exists():
                    status = "skipped: source missing"
                else:
                    (clone / dst).parent.mkdir(parents=True, exist_ok=True)
                    _bench.git(clone, "mv", src, dst)
            elif "delete" in ch:
                if (clone / ch["delete"]).exists():
                    _bench.git(clone, "rm", "-q", ch["delete"])
                else:
                    status = "skipped: missing"
            elif "append" in ch:
                a = ch["append"]
                with open(clone / a["path"], "a", encoding="utf-8") as handle:
                    handle.write(a["text"])
            else:
                status = "skipped: unknown change"
        except (OSError, RuntimeError) as exc:
            status = f"failed: {exc}"
        report.append({"why": ch.get("why", ""), "status": status})
    _bench.git(clone, "add", "-A")
    _bench.git(clone, "-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "--no-verify", "-m",
               "contamination benchmark: commit B", env=COMMIT_B_ENV)
    return report


def _facts_path_in_repo(root: Path, facts_path: str) -> frozenset[str]:
    """The facts file's own path inside the repository, if it lives there: its text names every term."""
    try:
        return frozenset({Path(facts_path).resolve().relative_to(root.resolve()).as_posix()})
    except ValueError:
        return frozenset()


def run(repo_path: str, facts_path: str, embedding: str, k: int, scenarios: list[str], review: bool,
        writes: str = "active") -> dict[str, Any]:
    spec = json.loads(Path(facts_path).read_text(encoding="utf-8"))
    root = _bench.repo_root(repo_path)
    embedder = _bench.make_embedder(embedding)
    tokenizer = load_tokenizer()
    exclude = _facts_path_in_repo(root, facts_path)
    out: dict[str, Any] = {"benchmark": "contamination", "command": _bench.command_line(), "repo": str(root),
                           "facts_file": facts_path, "embedding": embedding, "k": k, "writes": writes,
                           "scenarios": {}}
    if spec.get("commit"):
        out["facts_commit"] = spec["commit"]
    with _bench.TempDir("memvet-contamination-") as tmp:
        clone = _bench.clone_to_temp(root, tmp)
        a = _bench.rev_parse(clone, "HEAD")
        out["commit_a"] = a
        if "poisoned" in scenarios:
            facts = [f for f in spec["facts"] if "poisoned" in f.get("scenarios", ["poisoned"])]
            out["scenarios"]["poisoned"] = run_scenario("poisoned", clone, facts, a, a, embedder, k, review,
                                                        tokenizer, writes, exclude)
        if "temporal" in scenarios:
            facts = [f for f in spec["facts"] if "temporal" in f.get("scenarios", [])]
            out["changes"] = apply_changes(clone, spec.get("changes", []))
            b = _bench.rev_parse(clone, "HEAD")
            out["commit_b"] = b
            out["scenarios"]["temporal"] = run_scenario("temporal", clone, facts, a, b, embedder, k, review,
                                                        tokenizer, writes, exclude)
    return out


def render(r: dict[str, Any]) -> str:
    parts = [f"contamination: {r['repo']} at {r['commit_a'][:12]} (A), embedding {r['embedding']}, k={r['k']}, "
             f"MemVet writes {r.get('writes', 'active')}"]
    if r.get("facts_commit") and not r["commit_a"].startswith(r["facts_commit"]):
        parts.append(f"warning: the facts file was written for commit {r['facts_commit'][:12]}, the repository "
                     f"is at {r['commit_a'][:12]}")
    for name, s in r["scenarios"].items():
        head = (f"Scenario {name}: {s['facts']} facts written at {s['write_rev'][:12]}, read at "
                f"{s['read_rev'][:12]}; {s['false_at_read']} false at read time"
                f"{' (drifted)' if name == 'temporal' else ''}, {len(s['silent'])} silent; review pass "
                f"{'on' if s['review'] else 'off'}; MemVet writes {s.get('writes', 'active')}")
        rows = []
        for backend, b in s["backends"].items():
            for arm, x in b["arms"].items():
                rate = "n/a" if x["false_adopted_rate"] is None else f"{100 * x['false_adopted_rate']:.0f} %"
                rows.append((backend, arm, f"{x['correct']}/{x['questions']}",
                             f"{x['false_adopted']}/{x['false_facts']} ({rate})",
                             f"{b['false_persisting']}/{s['false_at_read']}", x["context_tokens_mean"]))
        notes = []
        for backend, b in s["backends"].items():
            notes.append(f"{backend}: stored {b['stored']}, blocked at write {len(b['blocked_at_write'])}, "
                         f"retracted in review {b['retracted_in_review']}, approved in review "
                         f"{b['approved_in_review']}, own memory retrieved in top-{r['k']} "
                         f"{100 * b['retrieval_hit_rate']:.0f} %")
            adopted = sorted({i for x in b["arms"].values() for i in x["adopted_ids"]})
            if adopted:
                notes.append(f"  adopted by {backend}: {', '.join(adopted)}")
            if b["false_alarms"]:
                notes.append(f"  true facts served as caution/history by {backend} (false alarms, "
                             f"{len(b['false_alarms'])}): " + ", ".join(
                                 f"{a['id']} ({a['status'] or a['group']})" for a in b["false_alarms"]))
            for t in b["true_refused_at_write"]:
                notes.append(f"  true fact refused at write by {backend}: {t['id']}: {t['message']}")
        if s["label_mismatch"]:
            notes.append(f"facts whose label disagrees with the code at A: {', '.join(s['label_mismatch'])}")
        for v in s["absent_terms_violations"]:
            notes.append(f"absent term found at A: {v['id']}: {v['term']!r} occurs in {v['path']}")
        parts += [head, _bench.table(["back end", "arm", "correct", "false/drifted adopted",
                                      "false still usable", "context tokens/question"], rows), "\n".join(notes)]
    if r.get("commit_b"):
        skipped = [c for c in r.get("changes", []) if c["status"] != "applied"]
        parts.append(f"commit B = A + {len(r.get('changes', []))} changes ({len(skipped)} skipped): "
                     f"{r.get('commit_b', '')} (fixed identity and dates, reproducible)"
                     + "".join(f"\n  - {c['why']}: {c['status']}" for c in skipped))
    parts.append(f"command: {r['command']}")
    return "\n\n".join(parts)


# ============================================================= the write path alone (issue 30)

#: The two writers of ``--write-path``: a person's write is active at once, an
#: agent's follows the default policy (a proposal, until a person reviews it).
WRITERS = {"person": memvet.Author.person("proxy-person"), "agent": memvet.Author.agent("proxy-agent")}
#: The agents' policy in ``--write-path`` (the library default, whatever the repository commits).
WRITE_PATH_AGENT_WRITES = "proposed"
#: The figures of ``--write-path``, and which facts each counts.
WRITE_PATH_FIGURES = {
    "true_refused": "true facts refused at write",
    "true_current": "true facts served current",
    "false_current": "false and silent facts served current",
}
#: The targets of issue 30, as the text and the JSON print them.
WRITE_PATH_TARGETS = {
    "person": "0 true refused, all but 2 true facts current (>= 23 of 25), <= 2 false or silent current",
    "agent": "0 false or silent current (before review)",
}


class UsageProblem(ValueError):
    """A command line or an input that cannot be measured (exit 2, one line)."""


@dataclass(frozen=True)
class FactSet:
    """One facts file, the repository it is about and the commit it is measured at."""

    name: str
    repo: Path
    facts_path: str
    facts: list[dict[str, Any]]
    rev: str
    rev_source: str  # "facts file" (its ``commit``) or "HEAD"


def parse_set(text: str) -> tuple[str, str, str]:
    """``[NAME=]REPO:FACTS`` -> (name, repo, facts); the name defaults to the facts file's stem."""
    m = re.fullmatch(r"(?:(?P<name>[A-Za-z0-9][\w.-]*)=)?(?P<repo>[^:]+):(?P<facts>.+)", text)
    if m is None:
        raise UsageProblem(f"--set {text!r}: expected [NAME=]REPO:FACTS, "
                           "e.g. httpx=/tmp/httpx:benchmarks/facts/httpx.json")
    return m["name"] or Path(m["facts"]).stem, m["repo"], m["facts"]


def load_set(name: str, repo: str, facts_path: str) -> FactSet:
    """Read a facts file and resolve the commit it is measured at (its ``commit``, else the repository's HEAD)."""
    try:
        spec = json.loads(Path(facts_path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageProblem(f"set {name}: cannot read the facts file {facts_path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise UsageProblem(f"set {name}: the facts file {facts_path} is not JSON "
                           f"({exc.msg}, line {exc.lineno})") from exc
    facts = spec.get("facts") if isinstance(spec, dict) else None
    if not facts or not isinstance(facts, list):
        raise UsageProblem(f"set {name}: the facts file {facts_path} has no facts")
    try:
        root = _bench.repo_root(repo)
    except (RuntimeError, OSError) as exc:
        raise UsageProblem(f"set {name}: {repo} is not a git repository") from exc
    commit = spec.get("commit")
    try:
        rev = _bench.rev_parse(root, commit or "HEAD")
    except RuntimeError as exc:
        raise UsageProblem(f"set {name}: the facts file's commit {commit or 'HEAD'} is not in {root} "
                           f"(fetch it there)") from exc
    return FactSet(name, root, facts_path, facts, rev, "facts file" if commit else "HEAD")


def write_path_targets(writer: str, true_facts: int) -> dict[str, tuple[str, int]]:
    """The targets of issue 30 for one writer: figure -> (``<=`` or ``>=``, value)."""
    if writer == "person":
        return {"true_refused": ("<=", 0), "true_current": (">=", max(0, true_facts - 2)),
                "false_current": ("<=", 2)}
    return {"false_current": ("<=", 0)}


def write_path_fact(backend: MemvetBackend, fact: dict[str, Any], rev: str) -> dict[str, Any]:
    """One fact's outcome: refused (with the message) or the group its own decision is served in at ``rev``."""
    verdict = backend.verdict(fact["id"], rev)
    if verdict is None:
        return {"kind": fact["kind"], "outcome": "refused", "status": "", "reason": "",
                "message": backend.block_reasons.get(fact["id"], ""), "write": "refused", "same_as": ""}
    owner = backend.facts.get(backend.ids[fact["id"]], fact["id"])
    return {"kind": fact["kind"], "outcome": verdict.status.group.value, "status": verdict.status.value,
            "reason": verdict.reason, "message": "", "write": backend.outcomes.get(fact["id"], ""),
            "same_as": "" if owner == fact["id"] else owner}


def write_path_figures(per_fact: dict[str, dict[str, Any]], writer: str) -> dict[str, Any]:
    """The three figures of one writer on one set, each with its ids and its target."""
    true_ids = [i for i, x in per_fact.items() if x["kind"] == "true"]
    wrong_ids = [i for i, x in per_fact.items() if x["kind"] in ("false", "silent")]
    buckets = {
        "true_refused": ([i for i in true_ids if per_fact[i]["outcome"] == "refused"], len(true_ids)),
        "true_current": ([i for i in true_ids if per_fact[i]["outcome"] == "current"], len(true_ids)),
        "false_current": ([i for i in wrong_ids if per_fact[i]["outcome"] == "current"], len(wrong_ids)),
    }
    figures: dict[str, Any] = {k: {"n": len(ids), "of": of, "ids": ids, "target": None}
                               for k, (ids, of) in buckets.items()}
    for key, (op, value) in write_path_targets(writer, len(true_ids)).items():
        n = figures[key]["n"]
        figures[key]["target"] = {"op": op, "value": value, "met": n <= value if op == "<=" else n >= value}
    outcomes = {kind: {o: [i for i, x in per_fact.items() if x["kind"] == kind and x["outcome"] == o]
                       for o in ("refused", "current", "caution", "history")}
                for kind in ("true", "false", "silent")}
    return {"figures": figures,
            "targets_met": all(f["target"]["met"] for f in figures.values() if f["target"] is not None),
            "outcomes": outcomes, "facts": per_fact}


def write_path_set(fs: FactSet, client: Any, embedder: Any) -> dict[str, Any]:
    """Every fact of one set written by each writer, each writer in a fresh ledger, read back at the set's commit."""
    oracle = Oracle(GitRepo(fs.repo), fs.rev)
    kinds = {k: sum(f["kind"] == k for f in fs.facts) for k in ("true", "false", "silent")}
    out: dict[str, Any] = {"name": fs.name, "repo": str(fs.repo), "facts_file": fs.facts_path, "rev": fs.rev,
                           "rev_source": fs.rev_source, "facts": len(fs.facts), **kinds,
                           "label_mismatch": [f["id"] for f in fs.facts
                                              if label_disagrees(f["kind"], oracle.answer(f["probe"]))],
                           "unresolved_probes": [f["id"] for f in fs.facts if oracle.unresolved(f["probe"])],
                           "writers": {}}
    for writer, author in WRITERS.items():
        backend = MemvetBackend(fs.repo, client, embedder, "policy", author, agent_writes=WRITE_PATH_AGENT_WRITES)
        for f in fs.facts:
            backend.write(f, fs.rev)
        per_fact = {f["id"]: write_path_fact(backend, f, fs.rev) for f in fs.facts}
        out["writers"][writer] = {"author": f"{author.kind.value}:{author.name}", "proposed": None,
                                  **write_path_figures(per_fact, writer)}
    return out


def run_write_path(sets: list[FactSet], embedding: str) -> dict[str, Any]:
    import chromadb
    from chromadb.config import Settings

    embedder = _bench.make_embedder(embedding)
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    return {"benchmark": "contamination", "mode": "write-path", "command": _bench.command_line(),
            "embedding": embedding, "review": False, "agent_writes": WRITE_PATH_AGENT_WRITES,
            "figures": WRITE_PATH_FIGURES, "targets": WRITE_PATH_TARGETS,
            "sets": [write_path_set(fs, client, embedder) for fs in sets]}


def _figure_cell(f: dict[str, Any]) -> str:
    cell = f"{f['n']}/{f['of']}"
    t = f["target"]
    if t is None:
        return cell
    want = str(t["value"]) if (t["op"], t["value"]) == ("<=", 0) else f"{t['op']} {t['value']}"
    return f"{cell} (target {want}{'' if t['met'] else ', missed'})"


def render_write_path(r: dict[str, Any]) -> str:
    parts = [f"contamination --write-path: MemVet's write path at each facts file's commit, no review pass; "
             f"embedding {r['embedding']}; person writes active, agent writes by the default policy "
             f"({r['agent_writes']}); each writer in a fresh ledger"]
    rows, notes = [], []
    for s in r["sets"]:
        if s["label_mismatch"]:
            notes.append(f"{s['name']}: facts whose label disagrees with the code at {s['rev'][:12]}: "
                         f"{', '.join(s['label_mismatch'])}")
        if s["unresolved_probes"]:
            notes.append(f"{s['name']}: facts whose probe asks what a symbol or file holds that is not there at "
                         f"{s['rev'][:12]}: {', '.join(s['unresolved_probes'])}")
        for writer, w in s["writers"].items():
            fig = w["figures"]
            met = [f["target"]["met"] for f in fig.values() if f["target"] is not None]
            rows.append((s["name"], writer, s["rev"][:12], _figure_cell(fig["true_refused"]),
                         _figure_cell(fig["true_current"]), _figure_cell(fig["false_current"]),
                         f"{sum(met)}/{len(met)}"))
            said = []
            if fig["true_refused"]["ids"]:
                said.append("true refused " + ", ".join(fig["true_refused"]["ids"]))
            aside = [f"{i} ({x['status']})" for i, x in w["facts"].items() if x["kind"] == "true"
                     and x["outcome"] in ("caution", "history") and x["status"] != "proposed"]
            if aside:
                said.append("true served caution/history " + ", ".join(aside))
            if fig["false_current"]["ids"]:
                said.append("false or silent current " + ", ".join(fig["false_current"]["ids"]))
            same = [f"{i} (as {x['same_as']})" for i, x in w["facts"].items() if x["same_as"]]
            if same:
                said.append("confirmed an earlier fact's decision " + ", ".join(same))
            if said:
                notes.append(f"{s['name']}, {writer}: " + "; ".join(said))
    parts.append(_bench.table(["set", "writer", "commit", "true refused", "true current",
                               "false/silent current", "targets met"], rows))
    parts.append("targets (issue 30): " + "; ".join(f"{k} writes: {v}" for k, v in r["targets"].items()))
    if notes:
        parts.append("\n".join(notes))
    parts.append(f"command: {r['command']}")
    return "\n\n".join(parts)


def main_write_path(args: Any) -> int:
    """``--write-path``: check the options, load every set, measure, print."""
    given = [flag for flag, value in (("--scenario", args.scenario), ("-k", args.k), ("--writes", args.writes),
                                      ("--no-review", args.no_review or None)) if value is not None]
    if given:
        raise UsageProblem(f"--write-path takes no {', '.join(given)}: it writes and reads at one commit, "
                           "with no agent and no review pass")
    if args.sets and (args.facts is not None or args.repo is not None):
        raise UsageProblem("--write-path takes either --set (repeatable) or --repo and --facts, not both")
    if args.sets:
        wanted = [parse_set(text) for text in args.sets]
    elif args.facts is not None:
        wanted = [(Path(args.facts).stem, args.repo or ".", args.facts)]
    else:
        raise UsageProblem("--write-path needs --set [NAME=]REPO:FACTS (repeatable), or --facts (with --repo)")
    names = [name for name, _, _ in wanted]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageProblem(f"--set names must differ: {', '.join(twice)} given twice (name them NAME=REPO:FACTS)")
    sets = [load_set(*w) for w in wanted]
    _bench.emit(run_write_path(sets, args.embedding), args.json, render_write_path)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _bench.arg_parser(__doc__)
    # Defaults of None are filled in below: --write-path refuses the options it has no use for.
    parser.add_argument("--repo", help="the repository the facts are about (default: .)")
    parser.add_argument("--facts", help="facts file (JSON; format in docs/benchmarks.md); required, except "
                                        "with --write-path --set")
    parser.add_argument("--embedding", choices=("minilm", "hashing"), default="minilm")
    parser.add_argument("-k", type=int, help="memories retrieved per question (default 5)")
    parser.add_argument("--scenario", choices=("poisoned", "temporal", "both"), help="(default both)")
    parser.add_argument("--no-review", action="store_true",
                        help="skip the review pass that retracts contradicted memories")
    parser.add_argument("--writes", choices=("active", "proposed"),
                        help="how the MemVet back end writes memories: active decisions (default) or proposals "
                             "(the review pass then approves what the code confirms and rejects what it "
                             "contradicts; without review no proposal is ever current)")
    parser.add_argument("--write-path", action="store_true",
                        help="measure MemVet's write path alone, with no agent and no review pass: per set and "
                             "writer (a person, active; an agent, proposals), true facts refused, true facts "
                             "served current, false and silent facts served current (see below)")
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="[NAME=]REPO:FACTS",
                        help="with --write-path: a facts file and the repository it is about (repeatable; "
                             "NAME defaults to the facts file's stem); or give one set as --repo and --facts")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    try:
        if args.write_path:
            return main_write_path(args)
        if args.sets:
            raise UsageProblem("--set needs --write-path (the other modes take --repo and --facts)")
    except UsageProblem as exc:
        print(f"contamination: {exc}", file=sys.stderr)
        return 2
    if args.facts is None:
        parser.error("the following arguments are required: --facts")
    scenarios = ["poisoned", "temporal"] if args.scenario in (None, "both") else [args.scenario]
    result = run(args.repo or ".", args.facts, args.embedding, 5 if args.k is None else args.k, scenarios,
                 not args.no_review, args.writes or "active")
    _bench.emit(result, args.json, render)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    raise SystemExit(main())
