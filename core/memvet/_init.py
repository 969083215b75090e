"""``memvet init``: set a repository up for MemVet, once, without clobbering.

What it may write, all relative to the repository's working tree root:

- the ledger folder ``.memvet/`` with its ``.gitignore`` (made exactly as
  ``Ledger.open`` makes it);
- a commented ``[tool.memvet]`` table in ``pyproject.toml``: appended to an
  existing file (the rest is left byte for byte), or a new file holding only
  that table (the configuration loader reads ``pyproject.toml`` only);
- with ``pre_commit``: the ``memvet-check`` hook in ``.pre-commit-config.yaml``;
- with ``github``: ``.github/workflows/memvet.yml``, the pull-request gate of
  docs/ci.md;
- with ``mcp``: the project MCP configuration of Claude Code (``.mcp.json``),
  Cursor (``.cursor/mcp.json``) or VS Code (``.vscode/mcp.json``).

A file that does not exist is created. A file that exists is never
rewritten: where MemVet's part is already in it, nothing happens; where
its format allows it (TOML, a YAML list at the end of the file), MemVet's
block is appended once; otherwise the file is left as it is and the step
is reported as skipped, with what to add by hand. Everything is planned
before anything is written, so a refusal writes nothing. Running it again
changes nothing.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from memvet import __version__
from memvet._errors import UsageError
from memvet._git import GitRepo
from memvet._ledger import _keep_out_of_git

__all__ = ["MCP_CLIENTS", "InitReport", "InitStep", "init_project"]

#: The ``--mcp`` clients and the project file each reads.
MCP_CLIENTS = {"claude": ".mcp.json", "cursor": ".cursor/mcp.json", "vscode": ".vscode/mcp.json"}
_CLIENT_NAMES = {"claude": "Claude Code", "cursor": "Cursor", "vscode": "VS Code"}

#: What to run next, printed after the steps.
NEXT_COMMANDS = (
    'memvet record "WHAT YOU DECIDED AND WHY" --symbol PATH::Qualified.name',
    "memvet check",
    "memvet review",
)

PYPROJECT_BLOCK = """\
# MemVet (memvet init): every key is optional; the values shown are the defaults.
[tool.memvet]
# fail-on = ["stale", "refuted"]    # statuses that make `memvet check` (and the CI gate) exit 1
# ignore = []                       # path globs whose decisions `memvet check` does not gate on
# similarity-threshold = 0.8        # a neighbour this close is a conflicting claim
# duplicate-threshold = 0.95        # this close, with the same anchors, confirms instead of adding a copy
# format = "text"                   # text | json | markdown | github
# agent-writes = "proposed"         # proposed | active: agents' records, read as committed at HEAD
# embedding = "minilm"              # minilm | hashing | module:callable
# namespace = "..."                 # a shallow CI clone needs it: git rev-list --max-parents=0 --first-parent HEAD
"""

#: The hook of MemVet's ``.pre-commit-hooks.yaml``, as a local hook: it runs
#: the ``memvet`` the project already installed (no URL to pin).
PRE_COMMIT_HOOK = """\
- repo: local
  hooks:
    - id: memvet-check
      name: memvet check
      entry: memvet check
      language: system
      pass_filenames: false
      always_run: true
      require_serial: true
"""

GITHUB_WORKFLOW = """\
# The MemVet pull-request gate (memvet init --github; see MemVet's docs/ci.md).
# Share the ledger through git for the import step:
#   memvet export --format jsonl --output decisions.jsonl && git add decisions.jsonl
name: decisions
on:
  pull_request:

jobs:
  memvet:
    runs-on: ubuntu-latest
    env:
      MEMVET_LEDGER: ${{{{ runner.temp }}}}/memvet-ledger   # a fresh ledger for this job
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0   # --since needs the base branch and the commits decisions were recorded at
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - run: {install}
      - name: Load the team's decisions
        if: hashFiles('decisions.jsonl') != ''
        run: memvet import --trust decisions.jsonl
      - name: Summary of what this pull request invalidates
        if: always()
        run: memvet check --since "origin/$GITHUB_BASE_REF" --format markdown >> "$GITHUB_STEP_SUMMARY" || true
      - name: Gate
        run: memvet check --since "origin/$GITHUB_BASE_REF" --format github
"""


def install_line(version: str) -> str:
    """The workflow's install step for this MemVet ``version``: pinned when
    it is a release a package index can serve; a development build
    (``0.1.0.dev12+g1a2b3c``, a version from git) has no such copy, so the
    step names the package unpinned and says where the wheel comes from."""
    try:
        parsed = Version(version)
    except InvalidVersion:
        parsed = None
    if parsed is not None and not (parsed.is_devrelease or parsed.is_prerelease or parsed.local):
        return f'python -m pip install "memvet=={version}"'
    return (f"python -m pip install memvet   # {version} is a development build, on no index: install "
            "the wheel `make dist` builds (or your index's copy) and pin it; see MemVet's docs/ci.md")


def _mcp_config(client: str) -> dict[str, Any]:
    """The project MCP configuration ``client`` reads (shapes from docs/mcp.md)."""
    if client == "claude":
        # What `claude mcp add --scope project memvet -- memvet mcp` writes;
        # Claude Code starts it in the project folder.
        return {"mcpServers": {"memvet": {"type": "stdio", "command": "memvet", "args": ["mcp"], "env": {}}}}
    args = ["--repo", "${workspaceFolder}", "mcp"]
    if client == "cursor":
        return {"mcpServers": {"memvet": {"command": "memvet", "args": args}}}
    return {"servers": {"memvet": {"type": "stdio", "command": "memvet", "args": args}}}


@dataclass(frozen=True)
class InitStep:
    """One file ``memvet init`` looked after.

    Attributes:
        path: The file, relative to the repository root (posix), or absolute
            when it lies outside it (a ``--ledger`` elsewhere).
        action: ``created``, ``appended``, ``unchanged`` (MemVet's part is
            already there) or ``skipped`` (the file exists and cannot take
            MemVet's part without being rewritten: ``content`` is what to add
            by hand).
        what: What the file is for, or why it was left alone.
        content: The text written (the whole new file, or the appended
            block); for ``skipped``, the text to add by hand.
    """

    path: str
    action: str
    what: str
    content: str = ""

    @property
    def changed(self) -> bool:
        """Whether this step wrote to the file."""
        return self.action in ("created", "appended")

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "action": self.action, "what": self.what, "content": self.content}


@dataclass(frozen=True)
class InitReport:
    """What ``memvet init`` did.

    Attributes:
        root: The repository's working tree root.
        steps: One per file, in the order they were handled.
        next: The commands to run next.
    """

    root: Path
    steps: tuple[InitStep, ...]
    next: tuple[str, ...] = field(default=NEXT_COMMANDS)

    @property
    def changed(self) -> bool:
        """Whether any file was written."""
        return any(step.changed for step in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {"root": str(self.root), "changed": self.changed, "files": [s.to_dict() for s in self.steps],
                "next": list(self.next)}


@dataclass
class _Write:
    """A planned write: the whole file (``mode="x"``) or a block appended (``"a"``)."""

    target: Path
    mode: str
    text: str


def init_project(repo: str | os.PathLike[str] = ".", *, ledger: str | os.PathLike[str] | None = None,
                 pre_commit: bool = False, github: bool = False, mcp: Iterable[str] = ()) -> InitReport:
    """Set the repository at or above ``repo`` up for MemVet (see the module docstring).

    Args:
        repo: A folder inside the repository's working tree.
        ledger: The ledger folder, when not the default ``<main checkout>/.memvet``.
        pre_commit: Add the ``memvet-check`` hook to ``.pre-commit-config.yaml``.
        github: Write ``.github/workflows/memvet.yml``.
        mcp: Clients (keys of :data:`MCP_CLIENTS`) to write the MCP configuration of.

    Raises:
        NotARepositoryError, EmptyRepositoryError: No repository, or no commit yet.
        UsageError: A bare repository, an unknown MCP client, or a
            ``pyproject.toml`` that is not valid TOML. Nothing is written.
    """
    git = GitRepo(repo)
    if git.bare:
        raise UsageError(f"{git.root} is a bare repository: run memvet init in a working tree")
    clients = list(dict.fromkeys(mcp))
    unknown = sorted(set(clients) - set(MCP_CLIENTS))
    if unknown:
        raise UsageError(f"unknown MCP client {', '.join(unknown)}; choose from {', '.join(MCP_CLIENTS)}")
    root = git.root

    # Plan every file first: a refusal must leave the repository as it was.
    plans: list[tuple[InitStep, _Write | None]] = [_plan_pyproject(root)]
    if pre_commit:
        plans.append(_plan_pre_commit(root))
    if github:
        workflow = GITHUB_WORKFLOW.format(install=install_line(__version__))
        plans.append(_plan_new(root, ".github/workflows/memvet.yml", workflow,
                               "the pull-request gate of MemVet's docs/ci.md"))
    for client in clients:
        text = json.dumps(_mcp_config(client), indent=2) + "\n"
        plans.append(_plan_json(root, MCP_CLIENTS[client], text, client))

    steps = [_ledger_folder(root, Path(ledger) if ledger is not None else git.main_root / ".memvet",
                            ours=ledger is None)]
    for step, write in plans:
        if write is not None:
            write.target.parent.mkdir(parents=True, exist_ok=True)
            with open(write.target, write.mode, encoding="utf-8", newline="") as handle:
                handle.write(write.text)
        steps.append(step)
    return InitReport(root=root, steps=tuple(steps))


def _shown(root: Path, path: Path) -> str:
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _ledger_folder(root: Path, home: Path, *, ours: bool) -> InitStep:
    """The ledger folder and its ``.gitignore``, made by ``Ledger.open``'s own helper."""
    ignore = home / ".gitignore"
    existed = ignore.exists()
    _keep_out_of_git(home, ours=ours)
    shown = _shown(root, home) + "/"
    if existed:
        return InitStep(shown, "unchanged", "the ledger folder; its .gitignore keeps it out of git")
    if not ignore.exists():
        # A folder named with --ledger that already existed is the caller's.
        return InitStep(shown, "unchanged", "the ledger folder (yours, left as it is)")
    return InitStep(shown, "created", "the ledger folder, with a .gitignore that keeps it out of git",
                    ignore.read_text(encoding="utf-8"))


def _newline(existing: bytes) -> str:
    return "\r\n" if b"\r\n" in existing else "\n"


def _append(existing: bytes, block: str) -> str:
    """``block`` to append to a file holding ``existing``: on its own line,
    after one blank line, in the file's line endings."""
    nl = _newline(existing)
    lead = "" if not existing else (nl if existing.endswith(b"\n") else nl * 2)
    return (lead + block).replace("\n", nl)


def _plan_pyproject(root: Path) -> tuple[InitStep, _Write | None]:
    target = root / "pyproject.toml"
    what = "a commented [tool.memvet] table (the defaults, to uncomment and change)"
    if not target.exists():
        return InitStep("pyproject.toml", "created", f"{what}; the file holds only that table",
                        PYPROJECT_BLOCK), _Write(target, "x", PYPROJECT_BLOCK)
    existing = target.read_bytes()
    try:
        data = tomllib.loads(existing.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"pyproject.toml is not valid TOML ({exc}); fix it, then run memvet init again") from exc
    tool = data.get("tool")
    if isinstance(tool, dict) and "memvet" in tool:
        return InitStep("pyproject.toml", "unchanged", "already has a [tool.memvet] table"), None
    text = _append(existing, PYPROJECT_BLOCK)
    return InitStep("pyproject.toml", "appended", what, text), _Write(target, "a", text)


def _plan_new(root: Path, rel: str, text: str, what: str) -> tuple[InitStep, _Write | None]:
    target = root / rel
    if target.exists():
        return InitStep(rel, "unchanged", f"exists, left as it is; {what}"), None
    return InitStep(rel, "created", what, text), _Write(target, "x", text)


def _plan_json(root: Path, rel: str, text: str, client: str) -> tuple[InitStep, _Write | None]:
    what = f"memvet mcp as an MCP server of {_CLIENT_NAMES[client]}"
    target = root / rel
    if not target.exists():
        return _plan_new(root, rel, text, what)
    key = "servers" if client == "vscode" else "mcpServers"
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        data = None
    if isinstance(data, dict) and isinstance(data.get(key), dict) and "memvet" in data[key]:
        return InitStep(rel, "unchanged", f"already has a memvet server for {_CLIENT_NAMES[client]}"), None
    return InitStep(rel, "skipped", f"exists without a memvet server, and memvet init never rewrites a file "
                                    f"it did not create: add the \"memvet\" entry under \"{key}\" yourself",
                    text), None


_REPOS = re.compile(r"^repos\s*:\s*(#.*)?$")


def _plan_pre_commit(root: Path) -> tuple[InitStep, _Write | None]:
    rel = ".pre-commit-config.yaml"
    target = root / rel
    what = "the memvet-check hook (MemVet's .pre-commit-hooks.yaml, run from the installed memvet)"
    if not target.exists():
        text = "repos:\n" + _indent(PRE_COMMIT_HOOK, 2)
        return InitStep(rel, "created", what, text), _Write(target, "x", text)
    existing = target.read_bytes()
    try:
        lines = existing.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        lines = None
    if lines is not None and any(re.match(r"^\s*-?\s*id\s*:\s*['\"]?memvet-check\b", line) for line in lines):
        return InitStep(rel, "unchanged", "already has the memvet-check hook"), None
    indent = _list_indent_at_end(lines) if lines is not None else None
    if indent is None:
        return InitStep(rel, "skipped", "exists, and its repos: list is not the last thing in it, so the hook "
                                        "cannot be appended without rewriting the file: add it yourself",
                        _indent(PRE_COMMIT_HOOK, 2)), None
    text = _append(existing, _indent(PRE_COMMIT_HOOK, indent))
    return InitStep(rel, "appended", what, text), _Write(target, "a", text)


def _indent(block: str, spaces: int) -> str:
    return "".join(" " * spaces + line if line.strip() else line for line in block.splitlines(keepends=True))


def _list_indent_at_end(lines: list[str]) -> int | None:
    """The indentation of the items of a block-style top-level ``repos:``
    list that ends the file (so an item appended at the end joins it);
    ``None`` when the file is not laid out that way."""
    start = next((i for i, line in enumerate(lines) if _REPOS.match(line)), None)
    if start is None:
        return None
    indent = None
    for line in lines[start + 1:]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped == "---" or stripped == "...":
            return None  # another document
        lead = len(line) - len(line.lstrip(" "))
        if indent is None:
            if not stripped.startswith("-"):
                return None  # not a block list
            indent = lead
        elif lead < indent or (lead == indent and not stripped.startswith("-")):
            return None  # a key after the list
    return 2 if indent is None else indent  # `repos:` with no items yet
