"""The CLI contract: commands, exit codes, JSON shapes, and one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import record
from click.testing import CliRunner

from memvet.cli import cli


def test_record_prints_the_id_and_json_shape(run):
    out = run("record", "save appends", "--symbol", "shop/store.py::OrderStore.save", "--tag", "storage")
    assert len(out.stdout.strip()) == 12
    data = json.loads(run("record", "checksum is mod", "--symbol", "shop/store.py::checksum",
                          "--file", "README.md", "--json").stdout)
    assert set(data) >= {"id", "status", "conflicts", "anchors"}
    assert data["status"] == "recorded"
    assert {a["kind"] for a in data["anchors"]} == {"symbol", "file"}


def test_record_reports_conflicts(run):
    first = record(run, "save appends", "--symbol", "shop/store.py::OrderStore.save")
    data = json.loads(run("record", "save fsyncs", "--symbol", "shop/store.py::OrderStore.save", "--json").stdout)
    assert data["conflicts"][0]["id"] == first
    assert set(data["conflicts"][0]) == {"id", "claim", "status", "why"}
    human = run("record", "save renames", "--symbol", "shop/store.py::OrderStore.save")
    assert "conflict:" in human.stderr and "memvet supersede" in human.stderr
    refused = run("record", "save truncates", "--symbol", "shop/store.py::OrderStore.save",
                  "--on-conflict", "error", code=2)
    assert refused.stderr.startswith("memvet: error: conflicts with active decision")


def test_check_exit_codes_and_json(run, repo):
    a = record(run, "save appends", "--symbol", "shop/store.py::OrderStore.save")
    b = record(run, "a team habit")
    out = run("check", "--json")
    data = json.loads(out.stdout)
    assert data["at"] == "worktree"
    assert {d["id"]: d["status"] for d in data["decisions"]} == {a: "verified", b: "unanchored"}
    item = next(d for d in data["decisions"] if d["id"] == a)
    assert set(item) == {"id", "claim", "status", "reason", "anchors"}
    assert set(item["anchors"][0]) >= {"kind", "spec", "result", "detail"}
    repo.replace("shop/store.py", "return True", "return False")
    stale = run("check", code=1)
    assert "stale" in stale.stdout and "└" in stale.stdout
    run("check", "--at", "HEAD", code=0)
    run("check", "--fail-on", "refuted", code=0)
    run("check", "--fail-on", "unanchored", code=1)
    bad = run("check", "--fail-on", "bogus", code=2)
    assert bad.stderr.count("\n") == 1 and "unknown status bogus" in bad.stderr


def test_recall_json_shape_and_framing(run):
    a = record(run, "use a global lock around saves")
    run("reject", a, "--reason", "it deadlocked")
    data = json.loads(run("recall", "global lock", "--json").stdout)
    assert set(data) == {"query", "at", "current", "caution", "history"}
    item = data["history"][0]
    assert set(item) >= {"id", "claim", "status", "reason", "score", "text"}
    assert item["text"].startswith("previously tried, rejected: it deadlocked")
    human = run("recall", "global lock")
    assert "history (do not repeat):" in human.stdout


def test_supersede_show_log_revalidate(run, repo):
    old = record(run, "totals are floats", "--symbol", "shop/store.py::checksum")
    new = json.loads(run("supersede", old, "totals are decimals", "--symbol", "shop/store.py::checksum",
                         "--reason", "floats lose cents", "--json").stdout)
    assert new["status"] == "superseded"
    shown = json.loads(run("show", old, "--json").stdout)
    assert shown["status"] == "superseded" and shown["superseded_by"] == new["id"]
    assert [r["action"] for r in shown["receipts"]] == ["record", "supersede"]
    assert "superseded" in run("show", old[:6]).stdout
    log = json.loads(run("log", "--json").stdout)["receipts"]
    assert {r["action"] for r in log} == {"record", "supersede"}
    assert "supersede" in run("log", old).stdout
    repo.replace("shop/store.py", "% 255", "% 256")
    run("revalidate", new["id"], "--reason", "checked by hand")
    assert json.loads(run("show", new["id"], "--json").stdout)["status"] == "verified"


BAD_INPUTS = [
    (["record", "x", "--symbol", "../outside.py::f"], "outside the repository"),
    (["record", "x", "--symbol", "/etc/passwd::f"], "absolute paths are not accepted"),
    (["record", "x", "--file", "escape"], "symbolic link that leaves the repository"),
    (["record", "x", "--file", "nope.txt"], "no such file"),
    (["record", "x", "--symbol", "shop/store.py::nothing_here"], "no symbol named nothing_here"),
    (["record", "x", "--symbol", "logo.bin::f"], "no symbol parser"),
    (["record", "x", "--symbol", "shop/blob.py::f"], "binary file"),
    (["record", "x", "--symbol", "shop\\store.py::checksum"], "use '/' as the path separator"),
    (["record", "x", "--symbol", "no-separator"], "expected PATH::QUALIFIED.NAME"),
    (["record", "x", "--supersedes", "abcdef1234"], "needs a reason"),
    (["record", ""], "non-empty claim"),
    (["show", "doesnotexist"], "no decision 'doesnotexist'"),
    (["reject", "doesnotexist", "--reason", "r"], "no decision"),
    (["check", "--at", "no-such-branch"], "unknown revision"),
    (["record"], "Missing argument"),
    (["frobnicate"], "No such command"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUTS)
def test_bad_input_is_one_line_exit_2_and_nothing_written(run, repo, tmp_path, args, message):
    (repo.path / "escape").symlink_to(tmp_path)
    repo.write_bytes("logo.bin", b"\x89PNG\x00\x00")
    repo.write_bytes("shop/blob.py", b"def f():\x00\x00 pass\n")
    keep = record(run, "already here")
    result = run(*args, code=2)
    assert result.stderr.startswith("memvet: error: ")
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.output
    ids = [d["id"] for d in json.loads(run("check", "--json").stdout)["decisions"]]
    assert ids == [keep]


def test_not_a_repository_and_empty_repository(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "l")}
    result = CliRunner().invoke(cli, ["check"], env=env)
    assert result.exit_code == 2 and "not a git repository" in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    subprocess.run(["git", "init", "-q", str(empty)], check=True)
    result = CliRunner().invoke(cli, ["--repo", str(empty), "check"], env=env)
    assert result.exit_code == 2 and "no commits yet" in result.stderr


def test_bad_embedding_setting(run, monkeypatch):
    result = CliRunner().invoke(cli, ["check"], env={"MEMVET_EMBEDDING": "gpt"})
    assert result.exit_code == 2 and "MEMVET_EMBEDDING" in result.stderr


@pytest.mark.slow
def test_subprocess_exit_codes(repo, tmp_path):
    env = {**os.environ, "MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "ledger")}
    cmd = [sys.executable, "-m", "memvet"]
    out = subprocess.run([*cmd, "record", "checksum", "--symbol", "shop/store.py::checksum"],
                         cwd=repo.path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert subprocess.run([*cmd, "check"], cwd=repo.path, env=env, capture_output=True).returncode == 0
    repo.replace("shop/store.py", "% 255", "% 2")
    failed = subprocess.run([*cmd, "check"], cwd=repo.path, env=env, capture_output=True, text=True)
    assert failed.returncode == 1 and "stale" in failed.stdout
    bad = subprocess.run([*cmd, "show", "nope"], cwd=repo.path, env=env, capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip().startswith("memvet: error:") and "Traceback" not in bad.stderr


def test_paths_are_relative_to_the_current_folder(run, repo, monkeypatch):
    monkeypatch.chdir(Path(repo.path) / "shop")
    data = json.loads(run("record", "checksum", "--symbol", "store.py::checksum", "--json").stdout)
    assert data["anchors"][0]["path"] == "shop/store.py"


def test_help_has_examples():
    for command in ("record", "check", "recall", "supersede", "reject", "revalidate", "show", "log", "demo"):
        result = CliRunner().invoke(cli, [command, "--help"])
        assert result.exit_code == 0 and "Example:" in result.output, command


def test_team_and_user_namespaces_and_repair(run):
    mine = json.loads(run("--team", "payments", "--user", "ada", "record", "team memory", "--json").stdout)["id"]
    data = json.loads(run("--team", "payments", "--user", "ada", "check", "--json").stdout)
    assert [d["id"] for d in data["decisions"]] == [mine]
    assert json.loads(run("check", "--json").stdout)["decisions"] == []      # the repository-wide namespace
    bad = run("--team", "a/b", "check", code=2)
    assert bad.stderr.startswith("memvet: error: ") and bad.stderr.count("\n") == 1
    assert json.loads(run("repair", "--json").stdout) == {"finished": 0}
    assert run("repair").stdout.strip() == "finished 0 interrupted acts"


def test_recall_tag_and_path_filters(run):
    saved = record(run, "save appends", "--symbol", "shop/store.py::OrderStore.save", "--tag", "storage")
    habit = record(run, "a team habit about storage", "--tag", "team")
    readme = record(run, "the readme is short", "--file", "README.md", "--tag", "docs")

    def ids(*args: str) -> set[str]:
        data = json.loads(run("recall", "storage", "-k", "10", *args, "--json").stdout)
        return {i["id"] for g in ("current", "caution", "history") for i in data[g]}

    assert ids() == {saved, habit, readme}
    assert ids("--tag", "storage") == {saved}
    assert ids("--tag", "storage", "--tag", "team") == {saved, habit}
    assert ids("--path", "shop") == {saved}
    assert ids("--path", "shop/", "--path", "README.md") == {saved, readme}
    assert ids("--tag", "team", "--path", "shop") == set()
    assert "no decision matches the filters" in run("recall", "storage", "--tag", "nope").stdout
    touching = json.loads(run("recall", "--touching", "shop", "README.md", "--tag", "docs", "--json").stdout)
    assert [i["id"] for i in touching["current"]] == [readme]
    bad = run("recall", "storage", "--path", "/etc", code=2)
    assert bad.stderr.count("\n") == 1 and "path filter '/etc'" in bad.stderr
