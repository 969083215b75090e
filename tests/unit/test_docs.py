"""The doc walk: every fenced code block of README.md and docs/*.md.

Each block is one of:

* **shell** (``bash``, ``sh``, a ``text`` transcript's ``$`` lines, or an
  untagged block of commands): every command is split out and checked. A
  ``memvet`` command is parsed by the real CLI (click), so a subcommand or
  option that does not exist, a bad choice or a missing argument fails;
  ``claude mcp add`` keeps its options before the server name and starts a
  valid ``memvet`` command; ``pip install`` names only extras that exist
  and something that installs today (a clone, a built wheel) unless the line
  says the name is for once MemVet is released; ``make`` names a target of
  the Makefile; a benchmark script exists and takes every option shown; a
  repository file a command names exists. Programs that are neither
  (``git``, ``nginx``, ``curl``...) are listed in :data:`OTHER_PROGRAMS`
  with the reason they are not checked further.
* **python**: compiled; run when self-contained (:data:`RUN`), otherwise
  listed in :data:`NOT_RUN` with the reason.
* **yaml**, **json**, **toml**: parsed; a pre-commit configuration names a
  hook MemVet ships, and a local hook's entry is a valid ``memvet`` command.
* **output** (``text`` without ``$``, untagged prose, diagrams): not code.

The blocks that show ``memvet`` commands or Python are run where that is
safe (:data:`RUN`), in a copy of the demo's sample history with a ledger of
its own; every other one is in :data:`NOT_RUN`, with why. An entry that no
longer matches a block fails, so the lists cannot go stale.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from memvet.cli import cli
from memvet.sample import build_sample_history

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: Programs the walk does not check beyond their name, and why.
OTHER_PROGRAMS = {
    "git": "git itself; the walk checks only MemVet's commands",
    "cd": "changes folder",
    "pre-commit": "pre-commit's own CLI; the hook manifest it reads is validated in test_cli_subprocess.py",
    "chroma": "the Chroma server; tests/integration start it the way docs/deploy.md says",
    "nginx": "the token proxy; tests/integration start it with deploy/nginx.conf",
    "curl": "an HTTP call to a Chroma server; tests/integration make it the same way",
    "mkdir": "a shell utility", "cp": "a shell utility", "printf": "a shell utility",
    "tar": "a shell utility", "chmod": "a shell utility",
    "true": "a shell utility", "export": "sets an environment variable",
    "eval": "loads shell completion; test_cli_subprocess.py runs the completion script",
    "claude": "Claude Code's CLI (not installed here): checked by _check_claude for its argument order",
    "python3": "an inline one-liner (python3 -c) that uses only the standard library",
}

#: Blocks that show MemVet commands or Python and are run by test_runnable_blocks_run,
#: in this order, in one sample repository. Keys: ``page:first line of the block``.
RUN = (
    "README.md:memvet init --pre-commit --github --mcp claude",
    'README.md:memvet record "Orders are saved in one transaction" \\',
    "docs/cli.md:memvet check --since origin/main --format github",
    "docs/ci.md:memvet export --format jsonl --output decisions.jsonl",
    "docs/ci.md:memvet import --trust decisions.jsonl",
    '$ docs/concepts.md:$ memvet record "LRU.sign signs keys with sha256" --symbol app/cache.py::LRU.sign',
    'docs/concepts.md:memvet record "LRU.put evicts the least recently used entry" \\',
    "README.md:import memvet\\n\\nledger = memvet.Ledger.open",
    "docs/library.md:import memvet",
    "README.md:import memvet\\nfrom llama_index.core.llms import MockLLM",
    "docs/audit.md:from datetime import timedelta",
)

_LANGCHAIN_EXAMPLE = "tests/unit/langchain/test_lc_agent.py pins this block to examples/langchain_agent.py and runs it"
_FRAGMENT = "a fragment that continues the page's setup (a `ledger`, imports shown above it)"

#: Blocks with MemVet commands or Python that are checked (parsed, compiled)
#: but not run here, and why.
NOT_RUN = {
    "README.md:claude mcp add --scope project memvet -- memvet mcp":
        "needs Claude Code; the order of its arguments is checked",
    "README.md:import memvet\\nfrom langchain.agents import create_agent":
        "needs a chat model (`model`); examples/langchain_agent.py is the runnable agent, run by the suite",
    "docs/audit.md:make install": "starts Jupyter Lab",
    "docs/concepts.md:memvet review": "approves and declines ids of the reader's own ledger (3f2a9c...); "
                                      "test_cli_review.py runs each act",
    "docs/deploy.md:chroma run --path /srv/memvet/data --host 127.0.0.1 --port 8000     # ships":
        "needs the shared server; tests/integration run the CLI through the proxy",
    "docs/deploy.md:export MEMVET_SERVER=http://memvet.internal:8001": "needs the shared server",
    'docs/deploy.md:ledger = memvet.Ledger.open(".", server="http://memvet.internal:8001", token=token, '
    'team="payments")':
        "needs the shared server; tests/integration/test_team_isolation.py opens ledgers this way",
    'docs/deploy.md:ledger = memvet.Ledger.open(".", server="http://memvet.internal:8001", '
    'token=os.environ["MEMVET_TOKEN"])': "needs the shared server",
    'docs/langchain.md:"""A LangChain agent with MemVet memory, end to end, offline (no API key).': _LANGCHAIN_EXAMPLE,
    "docs/langchain.md:def collect(state: State) -> dict:":
        "a part of examples/langgraph_review.py, pinned and run by tests/unit/langchain/test_lc_agent.py",
    'docs/langchain.md:while state.get("__interrupt__"):':
        "a part of examples/langgraph_review.py, pinned and run by tests/unit/langchain/test_lc_agent.py",
    "docs/langchain.md:from langchain.agents import create_agent":
        "tests/unit/langchain/test_lc_review.py runs this recipe with a fake model",
    "docs/langchain.md:from langchain_openai import OpenAIEmbeddings": "needs langchain-openai and an API key",
    "docs/langchain.md:# myproject/ai.py": "a module of the reader's project; needs langchain-openai",
    "docs/langchain.md:retriever = MemVetRetriever(ledger, search_kwargs=": _FRAGMENT,
    "docs/llamaindex.md:from llama_index.core.vector_stores import FilterOperator, MetadataFilter, MetadataFilters":
        _FRAGMENT,
    'docs/llamaindex.md:"""MemVet in LlamaIndex, offline: a query engine and a postprocessor that':
        "tests/unit/llamaindex/test_li_package.py pins this block to examples/llamaindex_query.py and runs it",
    "docs/llamaindex.md:ledger = memvet.Ledger.open(\".\", embedding=embed_model)": _FRAGMENT,
    "docs/llamaindex.md:nodes = [TextNode(": _FRAGMENT,
    "docs/llamaindex.md:from llama_index.core.memory import Memory": _FRAGMENT,
    "docs/llamaindex.md:from llama_index.core.agent.workflow import FunctionAgent": _FRAGMENT + "; needs a real LLM",
    "docs/llamaindex.md:memvet review": "acts on ids of the reader's own ledger; test_cli_review.py runs each act",
    "docs/mcp.md:pip install -e '.[mcp]'": "installs, then serves until stopped; tests/unit/mcp drive the server",
    "docs/mcp.md:cd path/to/your/repo": "needs Claude Code; the order of its arguments is checked",
    "docs/mcp.md:claude mcp add --env": "needs Claude Code; the order of its arguments is checked",
    "docs/mcp.md:claude mcp add memvet -- memvet --repo /abs/path/to/repo mcp": "needs Claude Code",
    "docs/mcp.md:.venv-mcp-client/bin/python examples/langchain_mcp.py": "tests/unit/mcp run examples/langchain_mcp.py",
    "docs/mcp.md:import asyncio": "needs the MCP 1.x client environment (.venv-mcp-client); "
                                  "examples/langchain_mcp.py is run by tests/unit/mcp",
    "docs/mcp.md:memvet mcp --http 127.0.0.1:8765": "serves until stopped; tests/unit/mcp drive the HTTP server",
    "docs/mcp.md:claude mcp add --header": "needs Claude Code and the proxy; the order of its arguments is checked",
    "docs/workflow.md:": "every memvet command of docs/workflow.md is run on the sample history by "
                        "tests/unit/test_cli_subprocess.py::test_workflow_doc_commands_work_on_the_sample_history",
}


# ===================================================================== blocks


@dataclass(frozen=True)
class Block:
    """One fenced code block: the page, its first line number, its info string and text."""

    page: str
    line: int
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    def key_matches(self, key: str) -> bool:
        """True when ``key`` (``page:start of the text``, ``\\n`` for a line break) names this block."""
        transcript = key.startswith("$ ")
        page, _, start = key.removeprefix("$ ").partition(":")
        if page != self.page:
            return False
        return self.text.startswith(start.replace("\\n", "\n")) and (not transcript or self.lang == "text")


def _blocks(path: Path) -> Iterator[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^(\s*)(`{3,}|~{3,})(.*)$", lines[i])
        if opening is None:
            i += 1
            continue
        indent, fence, info = opening.groups()
        end = i + 1
        while end < len(lines) and not re.match(rf"^\s*{re.escape(fence)}\s*$", lines[end]):
            end += 1
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line for line in lines[i + 1:end])
        yield Block(path.relative_to(ROOT).as_posix(), i + 1, info.strip().split(" ")[0], textwrap.dedent(body) + "\n")
        i = end + 1


BLOCKS = [b for page in PAGES for b in _blocks(page)]
_COMMAND_START = re.compile(r"^(memvet|make|pip|python3?|\.venv[\w-]*/bin/\w+|git|claude|PYTHONPATH=\S+|chroma|"
                            r"nginx|mkdir|cp|curl|printf|export|pre-commit|cd|tar)\b")


def kind(block: Block) -> str:
    """``shell``, ``python``, ``yaml``, ``json``, ``toml``, ``nginx`` or ``output``."""
    if block.lang in ("bash", "sh", "shell", "console"):
        return "shell"
    if block.lang in ("python", "py"):
        return "python"
    if block.lang in ("yaml", "json", "toml", "nginx"):
        return block.lang
    if block.lang == "text" and any(line.startswith("$ ") for line in block.text.splitlines()):
        return "shell"
    lines = [line for line in block.text.splitlines() if line.strip()]
    starts = [line for line in lines if not line.startswith((" ", "\t"))]
    if block.lang == "" and starts and all(_COMMAND_START.match(line) for line in starts):
        return "shell"
    return "output"


# ===================================================================== shell commands


@dataclass(frozen=True)
class Command:
    """One command of a shell block: its words, its comment, where its output goes."""

    argv: tuple[str, ...]
    comment: str = ""
    stdout_to: str = ""


def commands(block: Block) -> list[Command]:
    """The commands of a shell block (continuations joined, ``&&``/``||``/``|``/``;`` split)."""
    raw = block.text
    if block.lang == "text":
        raw = "\n".join(line[2:] for line in raw.splitlines() if line.startswith("$ "))
    out: list[Command] = []
    raw = re.sub(r"<(\w[\w-]*)>", lambda m: m.group(1).upper(), raw)  # a placeholder such as <tree>, not a redirect
    for line in re.sub(r"\\\n\s*", " ", raw).splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
        lexer.whitespace_split = True  # `#` starts a comment at the start of a word, as in a shell
        words = list(lexer)
        said = re.search(r"\s#\s(.*)$", line)
        comment = said.group(1) if said else ""
        current: list[str] = []
        target = ""
        redirect = False
        for word in [*words, ";"]:
            if word in ("&&", "||", "|", ";"):
                if current:
                    out.append(Command(tuple(current), comment, target))
                current, target = [], ""
            elif word in (">", ">>"):
                redirect = True
            elif redirect:
                target, redirect = word, False
            else:
                current.append(word)
    return out


def parse_memvet(argv: list[str]) -> tuple[str, click.Context]:
    """Parse ``memvet ARGV`` as the CLI does, without running it.

    Returns the subcommand's name and its parsed context. Raises
    click.UsageError (or AssertionError) for what the CLI would refuse:
    an unknown subcommand or option, a bad choice, a missing argument.
    """
    takes_value = {opt for p in cli.params if isinstance(p, click.Option) and not p.is_flag for opt in p.opts}
    flags = {opt for p in cli.params if isinstance(p, click.Option) and p.is_flag for opt in p.opts}
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        name = argv[i].split("=", 1)[0]
        assert name in takes_value | flags, f"memvet has no global option {name}"
        i += 1 if name in flags or "=" in argv[i] else 2
    assert i < len(argv), f"no subcommand in memvet {' '.join(argv)}"
    global_args, sub, rest = argv[:i], argv[i], argv[i + 1:]
    ctx = cli.make_context("memvet", [*global_args, sub])
    command = cli.get_command(ctx, sub)
    assert command is not None, f"memvet has no command {sub!r}"
    return sub, command.make_context(sub, list(rest), parent=ctx)


def _extras() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(config["project"]["optional-dependencies"])


def _make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][\w-]*):", text, flags=re.M))


def _check_pip(command: Command) -> None:
    argv = list(command.argv)
    start = argv.index("install") + 1
    targets = [w for w in argv[start:] if not w.startswith("-")]
    assert targets, command
    for target in targets:
        extras = re.search(r"\[([\w,-]+)\]$", target)
        if extras:
            unknown = set(extras.group(1).split(",")) - _extras()
            assert not unknown, f"{command.argv}: no extra {unknown} in pyproject.toml"
        base = re.sub(r"\[[\w,-]+\]$", "", target)
        if base in (".", "dist/memvet-*.whl", "$(ls dist/memvet-*.whl)"):
            continue
        assert base.startswith("memvet") and "released" in command.comment, (
            f"{command.argv}: `{target}` does not install today; install from a clone or a wheel, "
            "or say in the line's comment that the name is for once MemVet is released")


def _check_claude(command: Command) -> None:
    # claude mcp add [options] NAME -- COMMAND [args...] (stdio), or
    # claude mcp add [options] NAME URL (--transport http). --env and --header
    # take one or more values: a name right after them would be read as one.
    argv = list(command.argv)
    assert argv[:3] == ["claude", "mcp", "add"], argv
    single, variadic = {"-s", "--scope", "-t", "--transport"}, {"-e", "--env", "-H", "--header"}
    i, after_variadic = 3, False
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        assert argv[i] in single | variadic, f"{argv}: unknown option {argv[i]}"
        after_variadic = argv[i] in variadic
        i += 2
    assert not after_variadic, f"{argv}: the name follows {argv[i - 2]}, which would read it as another value"
    assert i < len(argv) and argv[i] == "memvet", f"{argv}: options go before the server name"
    rest = argv[i + 1:]
    assert not any(w.startswith("-") and w != "--" for w in rest[:1]), f"{argv}: an option after the name"
    if "--transport" in argv and argv[argv.index("--transport") + 1] == "http":
        assert rest and rest[0].startswith("https://"), argv
    else:
        assert rest[:2] == ["--", "memvet"], f"{argv}: the server command follows `--`"
        parse_memvet(rest[2:])


def _check_repo_paths(command: Command) -> None:
    for word in command.argv:
        if re.match(r"^(benchmarks|examples|notebooks|deploy|tools|core)/[\w./-]+$", word) and "*" not in word:
            assert (ROOT / word).exists(), f"{command.argv}: {word} is not in the repository"


def check_command(command: Command) -> str:
    """Check one command; returns the program it runs."""
    argv = [w for w in command.argv if w not in ("[", "]")]
    assigned = {}
    while argv and re.match(r"^[A-Z_]+=", argv[0]):
        name, _, value = argv[0].partition("=")  # VAR=value before the program
        assigned[name], argv = value, argv[1:]
    program = argv[0]
    _check_repo_paths(command)
    if program == "memvet" and "_MEMVET_COMPLETE" in assigned:
        # click's completion: the variable names the shell, and no arguments follow
        assert assigned["_MEMVET_COMPLETE"] in ("bash_source", "zsh_source", "fish_source") and argv == ["memvet"]
    elif program == "memvet":
        parse_memvet(argv[1:])
    elif program == "make":
        assert set(argv[1:]) <= _make_targets(), f"{argv}: no such make target"
    elif program == "pip" or argv[1:3] == ["-m", "pip"]:
        _check_pip(command)
    elif program == "claude":
        _check_claude(command)
    elif re.match(r"^(\.venv[\w-]*/bin/)?python3?$", program) and argv[1:2] != ["-c"]:
        assert argv[1].startswith(("benchmarks/", "examples/")), argv
        assert (ROOT / argv[1]).is_file(), f"{argv}: no {argv[1]}"
        return "script"
    elif re.match(r"^(\.venv[\w-]*/bin/)(python|jupyter)$", program) or program in ("python", "python3"):
        return "python"
    else:
        assert program in OTHER_PROGRAMS, f"{command.argv}: an unknown program {program!r}; check it or list it"
    return program


SHELL = [b for b in BLOCKS if kind(b) == "shell"]
PYTHON = [b for b in BLOCKS if kind(b) == "python"]


@pytest.mark.parametrize("block", SHELL, ids=[b.where for b in SHELL])
def test_every_command_in_a_shell_block_is_valid(block):
    found = commands(block)
    assert found, f"{block.where}: a shell block without a command"
    for command in found:
        try:
            check_command(command)
        except click.ClickException as exc:
            pytest.fail(f"{block.where}: `{shlex.join(command.argv)}`: {exc.format_message()}")


@pytest.mark.parametrize("block", PYTHON, ids=[b.where for b in PYTHON])
def test_every_python_block_compiles(block):
    compile(block.text, block.where, "exec")


STRUCTURED = [b for b in BLOCKS if kind(b) in ("yaml", "json", "toml")]


@pytest.mark.parametrize("block", STRUCTURED, ids=[b.where for b in STRUCTURED])
def test_every_yaml_json_and_toml_block_parses(block):
    if block.lang == "yaml":
        data = yaml.safe_load(block.text)
    elif block.lang == "json":
        data = json.loads(block.text)
    else:
        data = tomllib.loads(block.text)
    assert data, block.where
    if isinstance(data, dict) and "repos" in data:
        _check_pre_commit_config(block, data)
    if isinstance(data, dict) and "jobs" in data:
        _check_workflow(block, data)


def _check_workflow(block: Block, workflow: dict) -> None:
    # The memvet commands of a GitHub Actions workflow's `run:` steps.
    runs = [step["run"] for job in workflow["jobs"].values() for step in job["steps"] if "run" in step]
    found = [c for run in runs for c in commands(Block(block.page, block.line, "bash", run)) if c.argv[0] == "memvet"]
    assert found, f"{block.where}: a workflow without a memvet step"
    for command in found:
        parse_memvet(list(command.argv[1:]))


def _check_pre_commit_config(block: Block, config: dict) -> None:
    shipped = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    for repo in config["repos"]:
        for hook in repo["hooks"]:
            assert hook["id"] in shipped, f"{block.where}: MemVet ships no hook {hook['id']!r}"
            if repo["repo"] == "local":
                argv = shlex.split(hook["entry"])
                assert argv[0] == "memvet", block.where
                parse_memvet(argv[1:])
                assert hook["language"] == "system" and hook["pass_filenames"] is False, block.where
            else:
                # A remote hook must pin a release tag (vX.Y.Z), never a branch or a placeholder.
                assert re.fullmatch(r"v\d+\.\d+\.\d+", repo["rev"]), f"{block.where}: rev {repo['rev']!r}"


def test_every_block_is_classified_and_every_list_entry_names_a_block():
    kinds = {b.where: kind(b) for b in BLOCKS}
    assert set(kinds.values()) <= {"shell", "python", "yaml", "json", "toml", "nginx", "output"}
    for key in [*RUN, *NOT_RUN]:
        matches = [b for b in BLOCKS if b.key_matches(key)]
        page = key.removeprefix("$ ").partition(":")[0]
        assert matches, f"{key!r} names no block; update the list"
        several_meant = key.endswith(":") and page == "docs/workflow.md"  # the whole page
        assert len(matches) == 1 or several_meant, f"{key!r} names several blocks"
    # Every block showing a memvet command or Python is run here or says why not.
    for block in BLOCKS:
        shows_memvet = kind(block) == "shell" and any(
            "memvet" in c.argv or any(w.startswith("memvet") for w in c.argv[:1]) for c in commands(block))
        if not (shows_memvet or kind(block) == "python"):
            continue
        listed = [k for k in [*RUN, *NOT_RUN] if block.key_matches(k)]
        assert listed, f"{block.where} shows memvet or Python: add it to RUN, or to NOT_RUN with a reason"


def test_the_walk_sees_what_the_docs_show():
    # Guards the walker itself: it finds the blocks of every page, and the kinds it must check.
    assert {b.page for b in BLOCKS} >= {"README.md", "docs/cli.md", "docs/mcp.md", "docs/workflow.md"}
    assert len(SHELL) >= 30 and len(PYTHON) >= 15 and len(STRUCTURED) >= 8
    programs = {check_command(c) for b in SHELL for c in commands(b)}
    assert {"memvet", "make", "pip", "claude", "git", "script"} <= programs


def test_the_checks_refuse_what_the_issue_found():
    # The doc lines issue 32 found broken, each refused by the walk.
    with pytest.raises(AssertionError, match="no command 'verify'"):
        parse_memvet(["verify"])
    with pytest.raises(AssertionError, match="no command 'about'"):
        parse_memvet(["about", "shop/orders.py"])
    with pytest.raises(click.NoSuchOption):
        parse_memvet(["check", "--no-such-option"])
    with pytest.raises(AssertionError, match="would read it as another value"):
        _check_claude(Command(("claude", "mcp", "add", "-e", "MEMVET_TOKEN=x", "memvet", "--", "memvet", "mcp")))
    with pytest.raises(AssertionError, match="options go before the server name"):
        _check_claude(Command(("claude", "mcp", "add", "--transport", "http", "--", "memvet", "x")))
    with pytest.raises(AssertionError, match="does not install today"):
        _check_pip(Command(("pip", "install", "memvet[mcp]")))
    with pytest.raises(AssertionError, match="no extra"):
        _check_pip(Command(("pip", "install", "-e", ".[nosuch]")))
    _check_pip(Command(("pip", "install", "memvet[mcp]"), comment="the published name, once released"))


# ===================================================================== running


_CACHE = '''\
import hashlib
from collections import OrderedDict


class LRU:
    def __init__(self, size):
        self._data = OrderedDict()
        self.size = size

    def put(self, key, value):
        self._data[key] = value
        if len(self._data) > self.size:
            self._data.popitem(last=False)

    def sign(self, key):
        return hashlib.sha1(key.encode()).hexdigest()
'''


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=Doc Walk", "-c", "user.email=walk@example.com", *args], cwd=repo,
                   check=True, capture_output=True, timeout=900)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_runnable_blocks_run(tmp_path, monkeypatch):
    """The blocks in RUN, as written, on the demo's sample history (plus the
    app/cache.py that docs/concepts.md describes and a requirements.txt with
    the sqlalchemy the library example anchors), with a ledger of its own."""
    repo = build_sample_history(tmp_path / "shop").path
    (repo / "app").mkdir()
    (repo / "app" / "cache.py").write_text(_CACHE)
    (repo / "requirements.txt").write_text("sqlalchemy>=2.0\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "an LRU cache and sqlalchemy")
    _git(repo, "update-ref", "refs/remotes/origin/main", "HEAD~1")
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "ledger"), "TARGET_BRANCH": "main"}
    python_env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVET_")}
    monkeypatch.chdir(repo)
    ran = []
    for key in RUN:
        (block,) = [b for b in BLOCKS if b.key_matches(key)]
        if kind(block) == "python":
            done = subprocess.run([sys.executable, "-c", block.text], cwd=repo, env=python_env, capture_output=True,
                                  text=True, timeout=900)
            assert done.returncode == 0, (block.where, done.stderr[-3000:])
            ran.append(block.where)
            continue
        for command in commands(block):
            argv = [os.path.expandvars(w) if "$" in w else w for w in command.argv]
            argv = [w.replace("$TARGET_BRANCH", "main") for w in argv]
            if argv[0] == "git":
                _git(repo, *argv[1:])
                continue
            if argv == ["true"]:  # `|| true`: the exit code is checked below anyway
                continue
            assert argv[0] == "memvet", (block.where, argv)
            result = CliRunner().invoke(cli, argv[1:], env=env, catch_exceptions=False)
            assert result.exit_code in (0, 1), (block.where, argv, result.exit_code, result.stdout, result.stderr)
            if command.stdout_to:
                (repo / command.stdout_to).write_text(result.stdout)
        ran.append(block.where)
    assert len(ran) == len(RUN)
    # What the blocks promised happened.
    assert (repo / "decisions.jsonl").is_file() and (repo / "DECISIONS.md").is_file()
    assert (repo / ".mcp.json").is_file() and (repo / ".pre-commit-config.yaml").is_file()
    assert (repo / "memvet-report.md").read_text().strip()


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_every_benchmark_option_the_docs_show_exists():
    scripts: dict[str, set[str]] = {}
    for block in SHELL:
        for command in commands(block):
            argv = [w for w in command.argv if w not in ("[", "]")]
            while argv and re.match(r"^[A-Z_]+=", argv[0]):
                argv = argv[1:]
            if re.match(r"^python3?$", argv[0]) and argv[1].startswith("benchmarks/"):
                options = {w.split("=", 1)[0].lstrip("[").rstrip("]") for w in argv[2:] if w.startswith(("--", "[--"))}
                scripts.setdefault(argv[1], set()).update(options)
    assert len(scripts) >= 5
    for script, options in scripts.items():
        helped = subprocess.run([sys.executable, script, "--help"], cwd=ROOT, capture_output=True, text=True,
                                timeout=900, env={**os.environ, "PYTHONPATH": str(ROOT / "core")})
        assert helped.returncode == 0, (script, helped.stderr[-2000:])
        missing = {o for o in options if not re.search(rf"{re.escape(o)}\b", helped.stdout)}
        assert not missing, f"{script} has no option {sorted(missing)}"


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_site_builds_without_a_warning(tmp_path):
    # What `make docs` runs: --strict turns a broken link or anchor, a link to a
    # repository file that is not there, or a page left out of the nav into a failure.
    pytest.importorskip("mkdocs", reason="the docs extra (make install installs it)")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "cli" / "index.html").is_file()


def _prose(path: Path) -> str:
    """A page without its fenced code blocks (the walk above checks those)."""
    return re.sub(r"^(\s*)(`{3,}|~{3,}).*?^\1\2\s*$", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)


def _options_of(command: click.Command) -> set[str]:
    ctx = click.Context(command, info_name=command.name)
    return {opt for p in command.get_params(ctx) if isinstance(p, click.Option) for opt in [*p.opts, *p.secondary_opts]}


def test_every_memvet_command_the_prose_names_exists_with_its_options():
    # Inline code such as `memvet check --since REV` in tables and sentences:
    # the subcommand must exist (`memvet COMMAND`, `memvet ...` are placeholders), and every
    # option must be its own or a global one.
    global_options = _options_of(cli) | {"--version"}
    takes_value = {o for p in cli.params if isinstance(p, click.Option) and not p.is_flag for o in p.opts}
    problems, checked = [], 0
    for page in PAGES:
        for span in re.findall(r"`(memvet [^`]+)`", _prose(page)):
            words = span.replace("\\|", "|").split()[1:]
            i = 0
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in takes_value else 1
            sub = words[i] if i < len(words) else ""
            command = cli.commands.get(sub)
            if sub and command is None and not (sub.isupper() or sub == "..."):
                problems.append(f"{page.name}: `{span}` names no memvet command {sub!r}")
                continue
            options = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", " ".join(words[i + 1:] if sub else words)))
            unknown = options - global_options - (_options_of(command) if command else set())
            if unknown:
                problems.append(f"{page.name}: `{span}`: no option {sorted(unknown)}")
            checked += 1
    assert not problems, "\n".join(problems)
    assert checked >= 50
