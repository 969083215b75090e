"""The caches keyed by commit stay bounded in a long-running process whose
HEAD moves (issue 31): a repository's snapshots, a move search's diffs and
its first-parent lines. Each is shrunk to a few entries here, walked over
more commits than that, and must keep giving the answers git gives."""

from __future__ import annotations

from typing import Any

from test_moves_vanished import PATH, RENAMED, RUNNER, _moved

import memvet
from memvet import _git, _moves
from memvet._git import GitRepo


def _numbered(repo: Any, count: int) -> list[str]:
    """``count`` commits, the i-th writing ``n.txt`` = i and adding ``f{i}.txt``."""
    out = []
    for i in range(count):
        repo.write("n.txt", f"{i}\n")
        repo.write(f"f{i}.txt", "x\n")
        out.append(repo.commit(f"commit {i}"))
    return out


def test_a_repository_keeps_few_snapshots_over_many_commits(repo, monkeypatch):
    monkeypatch.setattr(_git, "SNAPSHOT_CACHE", 3)
    commits = _numbered(repo, 10)
    git = GitRepo(repo.path)
    for i, commit in enumerate(commits):
        snap = git.snapshot(commit)
        assert snap.read("n.txt") == f"{i}\n".encode()
        assert f"f{i}.txt" in snap.paths() and f"f{i + 1}.txt" not in snap.paths()
        assert len(git._snapshots) <= 3
    assert git.snapshot(commits[-1]) is git.snapshot(commits[-1])    # a recent one is kept
    assert git.snapshot(commits[0]).read("n.txt") == b"0\n"           # one dropped is built again


def test_a_move_search_keeps_few_diffs_over_many_targets(repo, open_ledger, monkeypatch):
    monkeypatch.setattr(_moves, "CHANGES_CACHE", 3)
    base = repo.commit("base")
    commits = _numbered(repo, 10)
    ledger: memvet.Ledger = open_ledger()
    moves = ledger.evidence.moves
    for i, commit in enumerate(commits):
        changes = moves.changes(base, ledger.git.snapshot(commit))
        assert changes is not None
        assert {c.new_path for c in changes if c.kind == "added"} == {"n.txt"} | {
            f"f{j}.txt" for j in range(i + 1)}
        assert len(moves._changes) <= 3
    asked: list[str] = []
    diff = ledger.git.changes

    def counted(recorded: str, snap: Any) -> Any:
        asked.append(recorded)
        return diff(recorded, snap)

    monkeypatch.setattr(ledger.git, "changes", counted)
    head = ledger.git.snapshot(commits[-1])
    unknown = "0" * 40
    assert moves.changes(unknown, head) is None      # not in the history: kept as such
    assert moves.changes(unknown, head) is None
    assert asked == [unknown]
    assert len(moves._changes) <= 3


def test_a_move_search_keeps_few_first_parent_lines_in_one_batch(repo, ledger, monkeypatch):
    monkeypatch.setattr(_moves, "LINES_CACHE", 1)
    repo.write(PATH, RUNNER)
    repo.commit("runner")
    timeout = ledger.record("timeout wraps slow tests", [f"{PATH}::ClassRunner.timeout(Link, TestMethod)"])
    repo.write("README.md", "first\n")
    repo.commit("unrelated")
    handle = ledger.record("handleExceptions expects exceptions",
                           [f"{PATH}::ClassRunner.handleExceptions(Link, TestMethod)"])
    assert timeout.decision.commit != handle.decision.commit    # two lines to walk
    repo.write(PATH, RENAMED)
    repo.commit("renamed")
    verdicts = {v.decision.id: v for v in ledger.check(at="HEAD")}
    assert len(ledger.evidence.moves._lines) == 1
    assert _moved(verdicts[timeout.decision.id]).new_name == "ClassRunner.withPotentialTimeout(TestMethod,Link)"
    assert (_moved(verdicts[handle.decision.id]).new_name
            == "ClassRunner.possiblyExpectingExceptions(TestMethod,Link)")


def test_first_parent_lines_drop_the_first_kept_beyond_the_bound(monkeypatch):
    monkeypatch.setattr(_moves, "LINES_CACHE", 2)
    lines = _moves._Lines()
    for i in range(5):
        lines[(f"t{i}", "r")] = None if i % 2 else []
    assert list(lines) == [("t3", "r"), ("t4", "r")] and lines[("t4", "r")] == []
