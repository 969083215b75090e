"""``memvet init``: on fresh repositories built by the ``repo`` fixture, it
sets the repository up, the commands it prints then work, a second run
changes nothing, and a file it did not create is only ever appended to."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import yaml
from _cli import record

ROOT = Path(__file__).resolve().parents[2]

#: What a fresh `memvet init` with every flag writes.
EVERY_FLAG = ("init", "--pre-commit", "--github", "--mcp", "claude", "--mcp", "cursor", "--mcp", "vscode")


@pytest.fixture
def env() -> dict[str, str | None]:
    """The ``run`` fixture's environment with the default ledger folder,
    ``<repo>/.memvet``, the one ``memvet init`` sets up (``None`` unsets)."""
    return {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": None}


def _files(repo) -> dict[str, bytes]:
    """Every file of the working tree outside .git, with its bytes."""
    return {p.relative_to(repo.path).as_posix(): p.read_bytes() for p in sorted(repo.path.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(repo.path).parts[:1]}


def _spaced(text: str) -> str:
    """``text`` with each run of spaces as one, lines kept."""
    return "\n".join(" ".join(line.split()) for line in text.splitlines())


def test_init_then_the_printed_commands_work(run, repo):
    out = _spaced(run("init").stdout)
    assert (repo.path / ".memvet" / ".gitignore").read_text(encoding="utf-8") == "*\n"
    assert "created .memvet/" in out and "created pyproject.toml" in out
    # The repository had no pyproject.toml: one holding only the commented table.
    data = tomllib.loads(repo.read("pyproject.toml"))
    assert data == {"tool": {"memvet": {}}}
    assert "# fail-on = " in repo.read("pyproject.toml")
    assert repo.git("status", "--porcelain") == "?? pyproject.toml"  # .memvet/ ignores itself

    commands = out.split("Next:\n", 1)[1].splitlines()
    assert [c.split()[:2] for c in commands] == [["memvet", "record"], ["memvet", "check"], ["memvet", "review"]]
    assert commands[0].strip() == 'memvet record "WHAT YOU DECIDED AND WHY" --symbol PATH::Qualified.name'
    decision = record(run, "Orders are saved one per line", "--symbol", "shop/store.py::OrderStore.save")
    check = run("check")
    assert "Orders are saved one per line" in check.stdout
    assert run("review").exit_code == 0
    assert run("show", decision).exit_code == 0


def test_a_second_run_changes_nothing_and_says_so(run, repo):
    run(*EVERY_FLAG)
    before = _files(repo)
    again = run(*EVERY_FLAG).stdout
    assert _files(repo) == before
    assert "Nothing changed: this repository is already set up." in again
    assert "created" not in again and "appended" not in again
    report = json.loads(run(*EVERY_FLAG, "--json").stdout)
    assert report["changed"] is False
    assert {f["action"] for f in report["files"]} == {"unchanged"}
    assert _files(repo) == before


def test_json_reports_every_file_it_wrote_with_its_content(run, repo):
    report = json.loads(run(*EVERY_FLAG, "--json").stdout)
    assert report["changed"] is True and Path(report["root"]) == repo.path.resolve()
    written = {f["path"]: f for f in report["files"]}
    assert set(written) == {".memvet/", "pyproject.toml", ".pre-commit-config.yaml", ".github/workflows/memvet.yml",
                            ".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json"}
    assert {f["action"] for f in report["files"]} == {"created"}
    for path, entry in written.items():
        if path != ".memvet/":
            assert repo.read(path) == entry["content"], path
    assert report["next"][1:] == ["memvet check", "memvet review"]
    new = {p for p in _files(repo) if p not in ("README.md", "shop/store.py")}
    assert new - {p for p in new if p.startswith(".memvet/")} == set(written) - {".memvet/"}


def test_each_flag_writes_a_file_that_parses(run, repo):
    run(*EVERY_FLAG)
    hooks = yaml.safe_load(repo.read(".pre-commit-config.yaml"))
    (hook,) = [h for r in hooks["repos"] for h in r["hooks"]]
    shipped = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (own,) = [h for h in shipped if h["id"] == "memvet-check"]
    for key in ("id", "name", "entry", "pass_filenames", "always_run", "require_serial"):
        assert hook[key] == own[key], key  # the repository's own hook, run from the installed memvet

    workflow = yaml.safe_load(repo.read(".github/workflows/memvet.yml"))
    steps = workflow["jobs"]["memvet"]["steps"]
    assert workflow[True] == {"pull_request": None}  # YAML 1.1 reads the key `on` as true
    assert steps[0]["with"]["fetch-depth"] == 0
    assert steps[-1]["run"] == 'memvet check --since "origin/$GITHUB_BASE_REF" --format github'
    assert "${{ runner.temp }}" in repo.read(".github/workflows/memvet.yml")

    assert json.loads(repo.read(".mcp.json")) == {
        "mcpServers": {"memvet": {"type": "stdio", "command": "memvet", "args": ["mcp"], "env": {}}}}
    assert json.loads(repo.read(".cursor/mcp.json")) == {
        "mcpServers": {"memvet": {"command": "memvet", "args": ["--repo", "${workspaceFolder}", "mcp"]}}}
    assert json.loads(repo.read(".vscode/mcp.json")) == {
        "servers": {"memvet": {"type": "stdio", "command": "memvet", "args": ["--repo", "${workspaceFolder}", "mcp"]}}}


def test_an_existing_pyproject_keeps_its_content(run, repo):
    original = '[project]\nname = "shop"\nversion = "1.0"\n\n[tool.ruff]\nline-length = 99'  # no final newline
    repo.write("pyproject.toml", original, dedent=False)
    repo.commit("pyproject")
    out = _spaced(run("init").stdout)
    assert "appended pyproject.toml" in out
    text = repo.read("pyproject.toml")
    assert text.startswith(original + "\n\n# MemVet")
    data = tomllib.loads(text)
    assert data["project"] == {"name": "shop", "version": "1.0"}
    assert data["tool"] == {"ruff": {"line-length": 99}, "memvet": {}}
    assert run("check").exit_code == 0  # the loader reads the table it wrote

    run("init")
    assert repo.read("pyproject.toml") == text


def test_a_pyproject_with_a_memvet_table_is_left_as_it_is(run, repo):
    repo.write("pyproject.toml", '[tool.memvet]\nfail-on = "stale"\n')
    out = _spaced(run("init").stdout)
    assert "unchanged pyproject.toml: already has a [tool.memvet] table" in out
    assert repo.read("pyproject.toml") == '[tool.memvet]\nfail-on = "stale"\n'


def test_an_invalid_pyproject_is_refused_and_nothing_is_written(run, repo):
    repo.write("pyproject.toml", "[project\n")
    result = run("init", "--github", code=2)
    assert result.stderr.count("\n") == 1 and "pyproject.toml is not valid TOML" in result.stderr
    assert not (repo.path / ".memvet").exists() and not (repo.path / ".github").exists()


def test_an_existing_pre_commit_config_gets_the_hook_appended(run, repo):
    original = ("# house hooks\nrepos:\n  - repo: https://github.com/psf/black\n    rev: 24.1.0\n"
                "    hooks:\n      - id: black\n")
    repo.write(".pre-commit-config.yaml", original)
    assert "appended .pre-commit-config.yaml" in _spaced(run("init", "--pre-commit").stdout)
    text = repo.read(".pre-commit-config.yaml")
    assert text.startswith(original)
    repos = yaml.safe_load(text)["repos"]
    assert [h["id"] for r in repos for h in r["hooks"]] == ["black", "memvet-check"]
    run("init", "--pre-commit")
    assert repo.read(".pre-commit-config.yaml") == text


def test_a_pre_commit_config_it_cannot_append_to_is_skipped_with_what_to_add(run, repo):
    original = "repos:\n  - repo: local\n    hooks: []\nfail_fast: true\n"  # a key after the list
    repo.write(".pre-commit-config.yaml", original)
    out = _spaced(run("init", "--pre-commit").stdout)
    assert "skipped .pre-commit-config.yaml" in out and "id: memvet-check" in out
    assert repo.read(".pre-commit-config.yaml") == original


def test_an_mcp_file_it_did_not_write_is_never_rewritten(run, repo):
    original = '{"servers": {"other": {"command": "other"}}}\n'
    repo.write(".vscode/mcp.json", original)
    report = json.loads(run("init", "--mcp", "vscode", "--json").stdout)
    (step,) = [f for f in report["files"] if f["path"] == ".vscode/mcp.json"]
    assert step["action"] == "skipped" and '"servers"' in step["what"]
    assert json.loads(step["content"])["servers"]["memvet"]["command"] == "memvet"
    assert repo.read(".vscode/mcp.json") == original


def test_an_existing_workflow_is_left_as_it_is(run, repo):
    repo.write(".github/workflows/memvet.yml", "name: mine\n")
    assert "unchanged .github/workflows/memvet.yml" in _spaced(run("init", "--github").stdout)
    assert repo.read(".github/workflows/memvet.yml") == "name: mine\n"


def test_outside_a_repository_it_is_one_line_and_exit_2(run, tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    monkeypatch.chdir(outside)
    result = run("init", "--github", "--mcp", "claude", code=2)
    assert result.stdout == ""
    assert result.stderr.startswith("memvet: error: not a git repository") and result.stderr.count("\n") == 1
    assert list(outside.iterdir()) == []


def test_an_unknown_mcp_client_is_a_usage_error(run, repo):
    result = run("init", "--mcp", "emacs", code=2)
    assert result.stderr.count("\n") == 1 and "emacs" in result.stderr
    assert not (repo.path / ".memvet").exists()


def test_an_mcp_file_with_comments_is_skipped_and_a_rerun_says_what_is_left(run, repo):
    original = '{\n  // VS Code allows comments here\n  "servers": {}\n}\n'
    repo.write(".vscode/mcp.json", original)
    run("init", "--mcp", "vscode")
    again = _spaced(run("init", "--mcp", "vscode").stdout)
    assert "skipped .vscode/mcp.json" in again and '"command": "memvet"' in again
    assert "Nothing changed: add what is skipped above by hand." in again
    assert repo.read(".vscode/mcp.json") == original


@pytest.mark.parametrize(("version", "pinned"), [
    ("0.2.0", True),
    ("1.4.1.post1", True),
    ("0.1.0.dev477+g3748f5e0c.d20261203", False),  # a build from git: no index serves it
    ("0.1.0.dev0", False),
    ("0.3.0rc1", False),
    ("0.1.0+local", False),
    ("0.0.0+unknown!", False),  # not a version at all (a source tree never installed)
])
def test_the_workflow_pins_only_a_released_version(version, pinned):
    from memvet._init import install_line

    line = install_line(version)
    assert (f'"memvet=={version}"' in line) is pinned
    if not pinned:
        assert "development build" in line and "make dist" in line and "==" not in line
