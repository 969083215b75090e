"""Hostile inputs, part 1: the gate never passes on an empty memory, and no
verdict is silently wrong.

Every refusal is one line on stderr, exit 2, and leaves the ledger as it
was (its whole dump, decisions and receipts, compared before and after).
Every case runs against real git repositories and a real local Chroma.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _repo import SAMPLE_STORE, RepoBuilder
from click.testing import CliRunner

import memvet
from memvet import Status
from memvet._exchange import export_jsonl
from memvet._store import collection_name
from memvet.cli import cli

KEY = "AKIA" + "ABCDEFGHIJKLMNOP"


# ----------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """One repository and one local ledger (two decisions) shared by the
    refusal catalogue: each case must leave it exactly as it found it."""
    root = tmp_path_factory.mktemp("hostile")
    repo = RepoBuilder(root / "repo")
    repo.write("shop/store.py", SAMPLE_STORE, dedent=False)
    repo.write("README.md", "# Shop\n")
    repo.commit("initial")
    os.symlink(".git/config", repo.path / "gitconfig")
    os.symlink("../../outside.txt", repo.path / "shop" / "outside")
    (root / "outside.txt").write_text("outside\n", encoding="utf-8")
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(root / "ledger")}
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(repo.path)
    try:
        first = runner.invoke(cli, ["record", "checksum is mod 255", "--symbol", "shop/store.py::checksum"],
                              env=env, catch_exceptions=False)
        second = runner.invoke(cli, ["record", "nothing imports pickle", "--absent", "import:pickle"],
                               env=env, catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert first.exit_code == 0 and second.exit_code == 0, (first.stderr, second.stderr)
    ledger = memvet.Ledger.open(repo.path, path=root / "ledger", embedding=memvet.HashingEmbedder())
    return {"repo": repo, "env": env, "ledger": ledger, "ids": [first.stdout.strip(), second.stdout.strip()]}


def _dump(ledger: memvet.Ledger) -> str:
    return export_jsonl(ledger).text()


def _cli(repo: RepoBuilder, args: list[str], env: dict[str, str], monkeypatch) -> object:
    monkeypatch.chdir(repo.path)
    return CliRunner().invoke(cli, args, env=env, catch_exceptions=False)


# ----------------------------------------------------------------- the refusal catalogue

#: (id, arguments, environment overrides, what the one line must say)
REFUSALS = [
    # Empty values are errors, never "not set" (a fork's pull request gets empty secrets).
    ("env-server-empty", ["check", "--since", "HEAD", "--format", "github"], {"MEMVET_SERVER": ""},
     "MEMVET_SERVER is set but empty: refusing to fall back to the local ledger"),
    ("env-server-blank", ["check"], {"MEMVET_SERVER": "   "}, "MEMVET_SERVER is set but empty"),
    ("env-token-empty", ["check"], {"MEMVET_TOKEN": ""}, "MEMVET_TOKEN is set but empty"),
    ("env-team-empty", ["check"], {"MEMVET_TEAM": ""}, "MEMVET_TEAM is set but empty"),
    ("env-user-empty", ["check"], {"MEMVET_USER": ""}, "MEMVET_USER is set but empty"),
    ("env-namespace-empty", ["check"], {"MEMVET_NAMESPACE": ""}, "MEMVET_NAMESPACE is set but empty"),
    ("env-ledger-empty", ["check"], {"MEMVET_LEDGER": ""}, "MEMVET_LEDGER is set but empty"),
    ("env-embedding-empty", ["check"], {"MEMVET_EMBEDDING": ""}, "MEMVET_EMBEDDING is set but empty"),
    ("flag-server-empty", ["--server", "", "check"], {}, "--server is empty"),
    ("flag-team-empty", ["--team", "", "check"], {}, "--team is empty"),
    ("flag-user-empty", ["--user", " ", "check"], {}, "--user is empty"),
    ("flag-namespace-empty", ["--namespace", "", "check"], {}, "--namespace is empty"),
    ("flag-token-empty", ["--token", "", "check"], {}, "--token is empty"),
    ("flag-ledger-empty", ["--ledger", "", "check"], {}, "--ledger is empty"),
    ("flag-embedding-empty", ["--embedding", "", "check"], {}, "--embedding is empty"),
    ("flag-repo-empty", ["--repo", "", "check"], {}, "--repo is empty"),
    # Smaller ones.
    ("repo-is-a-file", ["--repo", "README.md", "check"], {}, "'README.md' is a file"),
    ("k-overflow", ["recall", "orders", "-k", "999999999999"], {}, "999999999999 is not in the range 0<=x<=10000"),
    ("k-too-many", ["recall", "orders", "-k", "10001"], {}, "is not in the range"),
    ("at-empty-check", ["check", "--at", ""], {}, "empty revision ''"),
    ("at-empty-since", ["check", "--since", ""], {}, "empty revision ''"),
    ("at-empty-recall", ["recall", "orders", "--at", ""], {}, "empty revision ''"),
    ("at-empty-show", ["show", "{id0}", "--at", ""], {}, "empty revision ''"),
    ("at-empty-review", ["review", "--at", ""], {}, "empty revision ''"),
    ("at-empty-export", ["export", "--at", ""], {}, "empty revision ''"),
    ("at-empty-record", ["record", "checksum", "--symbol", "shop/store.py::checksum", "--at", ""], {},
     "empty revision ''"),
    # Scopes stay inside the repository.
    ("scope-parent", ["record", "no x", "--absent", "pattern:xyz", "--scope", "../**"], {},
     "invalid scope '../**': '..' leaves the repository"),
    ("scope-inner-parent", ["record", "no x", "--absent", "pattern:xyz", "--scope", "shop/../../*"], {},
     "'..' leaves the repository"),
    ("scope-absolute", ["record", "no x", "--absent", "pattern:xyz", "--scope", "/etc/*"], {},
     "invalid scope '/etc/*': a scope is a glob inside the repository"),
    ("scope-home", ["record", "no x", "--absent", "import:os", "--scope", "~/src/*"], {},
     "never an absolute or home path"),
    ("scope-drive", ["record", "no x", "--absent", "pattern:xyz", "--scope", "C:/src/*"], {},
     "never an absolute or home path"),
    ("scope-backslash", ["record", "no x", "--absent", "pattern:xyz", "--scope", "shop\\*"], {},
     "use '/' as the path separator"),
    ("scope-git", ["record", "no x", "--absent", "pattern:xyz", "--scope", ".git/**"], {}, "inside .git"),
    ("scope-supersede", ["supersede", "{id1}", "no x", "--absent", "pattern:xyz", "--scope", "../*",
                         "--reason", "r"], {}, "'..' leaves the repository"),
    # User patterns run on a linear-time engine; what it cannot run is refused.
    ("pattern-backreference", ["record", "no x", "--absent", "pattern:(a)\\1"], {},
     "is not supported: invalid escape sequence: \\1; patterns run on RE2"),
    ("pattern-lookahead", ["record", "no x", "--absent", "pattern:(?=a)b"], {}, "is not supported"),
    ("pattern-lookbehind", ["record", "no x", "--absent", "pattern:(?<!a)b"], {}, "is not supported"),
    ("pattern-empty", ["record", "no x", "--absent", "pattern:"], {}, "invalid pattern: empty"),
    ("pattern-invalid", ["record", "no x", "--absent", "pattern:(ab"], {}, "invalid pattern '(ab'"),
    ("pattern-huge", ["record", "no x", "--absent", "pattern:" + "(a{1000}){1000}"], {}, "is not supported"),
    # Symlinks never leave the repository, nor point into .git.
    ("symlink-git-config", ["record", "the git config", "--file", "gitconfig"], {},
     "gitconfig: a symbolic link into .git"),
    ("symlink-outside", ["record", "outside", "--file", "shop/outside"], {},
     "shop/outside: a symbolic link that leaves the repository"),
]


@pytest.mark.parametrize(("args", "extra", "message"), [c[1:] for c in REFUSALS], ids=[c[0] for c in REFUSALS])
def test_hostile_input_is_refused_in_one_line_and_the_ledger_is_unchanged(world, monkeypatch, args, extra,
                                                                           message):
    before = _dump(world["ledger"])
    args = [a.replace("{id0}", world["ids"][0]).replace("{id1}", world["ids"][1]) for a in args]
    result = _cli(world["repo"], args, {**world["env"], **extra}, monkeypatch)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("memvet: error: "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert message in result.stderr, result.stderr
    assert result.stdout == ""
    assert _dump(world["ledger"]) == before


def test_the_library_refuses_empty_server_token_team_and_user(repo, client):
    for kwargs, message in [({"server": ""}, "invalid server ''"), ({"server": " "}, "invalid server"),
                            ({"server": "http://127.0.0.1:9", "token": ""}, "the token is empty"),
                            ({"team": ""}, "invalid team ''"), ({"user": ""}, "invalid user ''")]:
        with pytest.raises(memvet.UsageError, match=message):
            memvet.Ledger.open(repo.path, client=client if "server" not in kwargs else None,
                               embedding=memvet.HashingEmbedder(), namespace="n", **kwargs)


def test_recall_k_over_the_limit_in_the_library(ledger):
    with pytest.raises(memvet.UsageError, match="k must be at most 10,000, got 999,999,999,999"):
        ledger.recall("orders", k=999_999_999_999)


# ----------------------------------------------------------------- namespaces that do not move

def _run(path: Path, args: list[str], env: dict[str, str], monkeypatch, code: int | None = 0):
    monkeypatch.chdir(path)
    result = CliRunner().invoke(cli, args, env=env, catch_exceptions=False)
    if code is not None:
        assert result.exit_code == code, (result.stdout, result.stderr)
    return result


def _clone(source: Path, target: Path, *extra: str) -> Path:
    subprocess.run(["git", "clone", "-q", *extra, f"file://{source}", str(target)], check=True)
    return target


def test_a_shallow_clone_without_a_configured_namespace_is_an_error_that_says_how(repo, tmp_path, monkeypatch):
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "ledger")}
    _run(repo.path, ["record", "checksum is mod 255", "--symbol", "shop/store.py::checksum"], env, monkeypatch)
    repo.write("notes.txt", "later\n")
    repo.commit("second")
    clone = _clone(repo.path, tmp_path / "ci", "--depth", "1")
    before = (tmp_path / "ledger" / "held.json").read_text(encoding="utf-8")
    result = _run(clone, ["check", "--since", "HEAD", "--format", "github"], env, monkeypatch, code=2)
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1
    assert line.startswith("memvet: error: this is a shallow clone (git clone --depth)")
    assert "[tool.memvet] namespace = \"<root commit id>\"" in line
    assert "git rev-list --max-parents=0 --first-parent HEAD" in line
    assert "--namespace / MEMVET_NAMESPACE" in line and "fetch-depth: 0" in line
    assert (tmp_path / "ledger" / "held.json").read_text(encoding="utf-8") == before


def test_a_namespace_in_tool_memvet_is_read_the_same_at_every_clone_depth(repo, tmp_path, monkeypatch):
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "ledger")}
    did = _run(repo.path, ["record", "checksum is mod 255", "--symbol", "shop/store.py::checksum"], env,
               monkeypatch).stdout.strip()
    root = repo.git("rev-list", "--max-parents=0", "--first-parent", "HEAD")
    repo.write("pyproject.toml", f'[tool.memvet]\nnamespace = "{root}"\n')
    repo.commit("pin the ledger's namespace")
    full = _run(repo.path, ["check", "--json"], env, monkeypatch)
    clone = _clone(repo.path, tmp_path / "ci", "--depth", "1")
    shallow = _run(clone, ["check", "--json"], env, monkeypatch)
    assert [d["id"] for d in json.loads(full.stdout)["decisions"]] == [did]
    assert [d["id"] for d in json.loads(shallow.stdout)["decisions"]] == [did]
    assert memvet.Ledger.open(clone, path=tmp_path / "ledger").namespace == root


def test_an_invalid_namespace_in_tool_memvet_is_refused(repo, tmp_path, monkeypatch):
    repo.write("pyproject.toml", '[tool.memvet]\nnamespace = ""\n')
    result = _run(repo.path, ["check"], {"MEMVET_LEDGER": str(tmp_path / "l")}, monkeypatch, code=2)
    assert "[tool.memvet] namespace: expected a non-empty string" in result.stderr


def test_a_git_worktree_shares_the_main_checkouts_ledger(repo, tmp_path, monkeypatch):
    env = {"MEMVET_EMBEDDING": "hashing"}  # the default ledger folder: <main checkout>/.memvet
    did = _run(repo.path, ["record", "checksum is mod 255", "--symbol", "shop/store.py::checksum"], env,
               monkeypatch).stdout.strip()
    other = tmp_path / "feature"
    repo.git("worktree", "add", "-q", "-b", "feature", str(other))
    seen = _run(other, ["check", "--json"], env, monkeypatch)
    assert [d["id"] for d in json.loads(seen.stdout)["decisions"]] == [did]
    assert not (other / ".memvet").exists()
    there = _run(other, ["record", "save appends", "--symbol", "shop/store.py::OrderStore.save"], env,
                 monkeypatch).stdout.strip()
    back = _run(repo.path, ["check", "--json"], env, monkeypatch)
    assert sorted(d["id"] for d in json.loads(back.stdout)["decisions"]) == sorted([did, there])
    assert memvet.Ledger.open(other).git.main_root == repo.path.resolve()


def test_a_worktree_of_a_bare_repository_keeps_its_own_ledger(repo, tmp_path):
    bare = _clone(repo.path, tmp_path / "bare.git", "--bare")
    work = tmp_path / "work"
    subprocess.run(["git", "-C", str(bare), "worktree", "add", "-q", str(work)], check=True)
    opened = memvet.Ledger.open(work, embedding=memvet.HashingEmbedder())
    assert opened.git.main_root == work.resolve()
    assert (work / ".memvet").is_dir()


@pytest.mark.slow
def test_a_truncated_database_is_an_error_not_an_empty_memory(repo, tmp_path):
    # Separate processes, as in real use: a process that had the database
    # open keeps Chroma's cached state of it.
    env = {**os.environ, "MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "ledger")}

    def memvet_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "memvet", *args], cwd=repo.path, env=env,
                              capture_output=True, text=True, timeout=900)

    assert memvet_cli("record", "checksum is mod 255", "--symbol", "shop/store.py::checksum").returncode == 0
    assert memvet_cli("record", "save appends", "--symbol", "shop/store.py::OrderStore.save").returncode == 0
    (tmp_path / "ledger" / "chroma" / "chroma.sqlite3").write_bytes(b"")
    mark = (tmp_path / "ledger" / "held.json").read_text(encoding="utf-8")
    for args in (["check", "--since", "HEAD", "--format", "github"], ["recall", "orders"]):
        result = memvet_cli(*args)
        assert result.returncode == 2, (result.stdout, result.stderr)
        assert result.stderr.strip().splitlines() == [result.stderr.strip()]
        assert "held 2 decisions in namespace" in result.stderr
        assert "now reads 0: its database was truncated, replaced or deleted; nothing was changed" in result.stderr
        assert "no decisions recorded yet" not in result.stdout and "0 decisions" not in result.stdout
    assert (tmp_path / "ledger" / "held.json").read_text(encoding="utf-8") == mark


def test_identity_json_naming_another_commit_does_not_open_another_namespace(repo, tmp_path, monkeypatch):
    env = {"MEMVET_EMBEDDING": "hashing"}
    did = _run(repo.path, ["record", "checksum is mod 255", "--symbol", "shop/store.py::checksum"], env,
               monkeypatch).stdout.strip()
    repo.write("notes.txt", "x\n")
    head = repo.commit("second")
    (repo.path / ".memvet" / "identity.json").write_text(json.dumps({"root": head, "head": head}),
                                                         encoding="utf-8")
    result = _run(repo.path, ["check", "--json"], env, monkeypatch)
    assert [d["id"] for d in json.loads(result.stdout)["decisions"]] == [did]
    root = repo.git("rev-list", "--max-parents=0", "HEAD")
    assert json.loads((repo.path / ".memvet" / "identity.json").read_text(encoding="utf-8"))["root"] == root


def test_receipts_without_decisions_are_an_error(repo, client):
    ns = "emptied-on-the-server"
    first = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(), namespace=ns)
    first.record("checksum is mod 255", ["shop/store.py::checksum"])
    client.delete_collection(collection_name(ns))
    with pytest.raises(memvet.StoreError, match="holds 1 receipt but no decision in namespace emptied-on-the-"):
        memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(), namespace=ns)


def test_a_damaged_or_unwritable_mark_weakens_the_check_and_never_fails(repo, tmp_path, caplog):
    home = tmp_path / "ledger"
    home.mkdir()
    (home / "held.json").write_text("not json", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="memvet._held"):
        ledger = memvet.Ledger.open(repo.path, path=home, embedding=memvet.HashingEmbedder())
        ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    assert "cannot read" in caplog.text
    assert json.loads((home / "held.json").read_text(encoding="utf-8")) == {"held": {ledger.namespace: 1}}
    (home / "held.json").write_text("[1, 2]", encoding="utf-8")
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="memvet._held"):
        assert memvet.Ledger.open(repo.path, path=home).store.count() == 1
    assert "holds no decision counts" in caplog.text
    (home / "held.json").unlink()
    (home / "held.json").mkdir()  # cannot be read, cannot be replaced
    again = memvet.Ledger.open(repo.path, path=home, embedding=memvet.HashingEmbedder())
    again.record("save appends", ["shop/store.py::OrderStore.save"])
    assert (home / "held.json").is_dir() and again.store.count() == 2


# ----------------------------------------------------------------- absence scans read every file in scope

def test_a_cloud_key_in_a_large_sql_dump_refutes_the_rule(repo, ledger):
    rec = ledger.record("no cloud key is committed", [memvet.absent(pattern=r"AKIA[0-9A-Z]{16}")])
    repo.write("db/dump.sql", "INSERT INTO t VALUES ('x');\n" * 120_000 + f"-- {KEY}\n")
    assert (repo.path / "db/dump.sql").stat().st_size > 3_000_000
    repo.commit("dump")
    for at in (None, "HEAD"):
        verdict = ledger.verify(rec.id, at=at)
        assert verdict.status is Status.REFUTED
        assert "db/dump.sql:120001 matches" in verdict.reason


def test_an_import_in_a_latin1_source_refutes_the_rule(repo, ledger):
    rec = ledger.record("nothing imports pickle", ["import:pickle"])
    repo.write_bytes("legacy/old.py", b"# caf\xe9\nNAME = 'd\xe9j\xe0'\nimport pickle\n")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED
    assert verdict.reason.endswith("legacy/old.py:3 imports pickle (not UTF-8, read as Latin-1)")


def test_a_pattern_in_a_latin1_or_binary_file_refutes_the_rule(repo, ledger):
    rec = ledger.record("no cloud key is committed", [memvet.absent(pattern=r"AKIA[0-9A-Z]{16}")])
    repo.write_bytes("notes.txt", b"r\xe9sum\xe9\n" + KEY.encode() + b"\n")
    assert "notes.txt:2 matches (not UTF-8, read as Latin-1)" in ledger.verify(rec.id).reason
    repo.write_bytes("notes.txt", b"ok\n")
    repo.write_bytes("blob.bin", b"\x00\x01PK\x00" + KEY.encode() + b"\x00")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED
    assert "blob.bin:1 matches (a binary file, read byte by byte)" in verdict.reason


def test_a_rule_that_holds_names_the_files_it_read_as_latin1(repo, ledger):
    rec = ledger.record("nothing imports pickle", ["import:pickle"])
    repo.write_bytes("legacy/old.py", b"# caf\xe9\nimport json\n")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.VERIFIED
    assert "(read as Latin-1 or bytes, not being UTF-8: legacy/old.py)" in verdict.checks[0].detail


def test_a_source_file_that_cannot_be_parsed_makes_an_import_rule_unverifiable(repo, ledger):
    rec = ledger.record("nothing imports pickle", ["import:pickle"])
    repo.write_bytes("shop/packed.py", b"import json\x00\x00import pickle\n")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert ("cannot tell whether anything imports pickle: could not read 1 file(s) in scope: shop/packed.py "
            "(a binary file, which cannot be parsed as python)") in verdict.reason


def test_a_file_over_the_scan_limit_makes_the_rule_unverifiable(repo, ledger, monkeypatch):
    from memvet import _anchors

    pattern = ledger.record("no cloud key is committed", [memvet.absent(pattern=r"AKIA[0-9A-Z]{16}")])
    imports = ledger.record("nothing imports pickle", ["import:pickle"])
    monkeypatch.setattr(_anchors, "MAX_SCAN_BYTES", 4096)
    repo.write("big.py", "import json\n" * 1000)
    for rec, subject in ((pattern, "whether anything matches 'AKIA[0-9A-Z]{16}'"),
                         (imports, "whether anything imports pickle")):
        verdict = ledger.verify(rec.id)
        assert verdict.status is Status.NEEDS_REVALIDATION
        assert f"cannot tell {subject}: could not read 1 file(s) in scope: big.py (0.0 MiB, over the " in verdict.reason
    repo.write("more.py", "import pickle\n")  # a breach elsewhere still refutes it
    assert ledger.verify(imports.id).status is Status.REFUTED


def test_a_user_pattern_is_linear_time(repo, ledger):
    repo.write("data/as.txt", "a" * 28 + "!\n" + "a" * 5000 + "!\n")
    repo.commit("the line that took 27 s per check")
    rec = ledger.record("no line is only a's", [memvet.absent(pattern="(a+)+$")])
    assert ledger.verify(rec.id, at="HEAD").status is Status.VERIFIED
    repo.write("data/as.txt", "a" * 40 + "\n")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED and "data/as.txt:1 matches" in verdict.reason


def test_per_line_anchors_keep_their_meaning(repo, ledger):
    # \A is the start of each line, as Python's re reads it line by line.
    rec = ledger.record("no line starts with TODO", [memvet.absent(pattern=r"\ATODO")])
    repo.write("notes.txt", "done\nTODO later\n")
    assert "notes.txt:2 matches" in ledger.verify(rec.id).reason
    caret = ledger.record("no line starts with FIXME", [memvet.absent(pattern=r"^FIXME")])
    repo.write("notes.txt", "a\rFIXME b\n")
    assert "notes.txt:2 matches" in ledger.verify(caret.id).reason


def test_imported_hostile_patterns_and_scopes_are_unverifiable_not_silent(repo, ledger):
    rec = ledger.record("nothing imports pickle", ["import:pickle"])
    stored = ledger.store.get_decisions([rec.id])[0]
    hostile = {
        "backref01": dataclasses.replace(stored.anchors[0], name="pattern:(a)\\1"),
        "parent0001": dataclasses.replace(stored.anchors[0], scope="../**"),
        "etcscope01": dataclasses.replace(stored.anchors[0], name="pattern:root", scope="/etc/*"),
    }
    for new_id, anchor in hostile.items():
        ledger.store.add_decision(stored.evolve(id=new_id, anchors=(anchor,)), ledger.embedder.embed_query(new_id))
    got = {v.id: v for v in ledger.check()}
    assert got["backref01"].status is Status.NEEDS_REVALIDATION
    assert "could not check: pattern '(a)\\\\1' is not supported" in got["backref01"].reason
    assert got["parent0001"].status is Status.NEEDS_REVALIDATION
    assert "invalid scope '../**': '..' leaves the repository" in got["parent0001"].reason
    assert "never an absolute or home path" in got["etcscope01"].reason


def test_the_ledger_folder_is_never_scanned(repo, tmp_path, monkeypatch):
    """With .memvet/ not ignored, the lock holder file (the writer's command
    line, pattern included) must not refute the pattern being recorded."""
    env = {"MEMVET_EMBEDDING": "hashing"}
    _run(repo.path, ["record", "checksum is mod 255", "--symbol", "shop/store.py::checksum"], env, monkeypatch)
    (repo.path / ".memvet" / ".gitignore").unlink()
    (repo.path / ".memvet" / "notes.txt").write_text("memvet record --absent pattern:eval\\(\n", encoding="utf-8")
    assert ".memvet/notes.txt" not in memvet.Ledger.open(repo.path).snapshot().paths()
    out = _run(repo.path, ["record", "nothing calls eval", "--absent", "pattern:eval\\("], env, monkeypatch)
    assert len(out.stdout.strip()) == 12
    # A ledger folder named elsewhere inside the repository is left out too.
    inside = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(repo.path / "state" / "ledger")}
    (repo.path / "state").mkdir()
    (repo.path / "state" / "keep.txt").write_text("eval(\n", encoding="utf-8")
    _run(repo.path, ["record", "nothing calls eval", "--absent", "pattern:eval\\(", "--scope", "src/**"], inside,
         monkeypatch)
    opened = memvet.Ledger.open(repo.path, path=repo.path / "state" / "ledger")
    paths = opened.snapshot().paths()
    assert "state/keep.txt" in paths and not any(p.startswith("state/ledger/") for p in paths)


# ----------------------------------------------------------------- symlinks

def test_a_tracked_symlink_reads_the_same_at_head_and_in_the_working_tree(repo, ledger):
    os.symlink("shop/store.py", repo.path / "store_link.py")
    repo.commit("a link")
    as_file = ledger.record("the store module", ["store_link.py"])
    as_symbol = ledger.record("checksum is mod 255", ["store_link.py::checksum"])
    for rec in (as_file, as_symbol):
        assert ledger.verify(rec.id).status is Status.VERIFIED
        assert ledger.verify(rec.id, at="HEAD").status is Status.VERIFIED, ledger.verify(rec.id, at="HEAD").reason
    repo.replace("shop/store.py", "% 255", "% 256")
    repo.commit("the target changes")
    for at in (None, "HEAD"):
        assert ledger.verify(as_file.id, at=at).status is Status.STALE
        assert ledger.verify(as_symbol.id, at=at).status is Status.STALE


def test_a_committed_symlink_out_of_the_repository_or_into_git_reads_as_absent(repo, ledger):
    os.symlink(".git/config", repo.path / "cfg")
    os.symlink("../../etc/passwd", repo.path / "passwd")
    os.symlink("/etc/hostname", repo.path / "host")
    os.symlink("loop_b", repo.path / "loop_a")
    os.symlink("loop_a", repo.path / "loop_b")
    repo.commit("hostile links")
    for at in (None, "HEAD"):
        snap = ledger.snapshot(at)
        for name in ("cfg", "passwd", "host", "loop_a"):
            assert snap.read(name) is None, (at, name)
    for name, message in (("cfg", "a symbolic link into .git"), ("passwd", "leaves the repository"),
                          ("host", "leaves the repository")):
        with pytest.raises(memvet.PathOutsideRepositoryError, match=message):
            ledger.record("a link", [name])
