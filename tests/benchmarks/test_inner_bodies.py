"""``benchmarks/inner_bodies.py`` end to end on a small Java history (no
timing assertions): an edit inside an anonymous class, a lambda edit that
only changes layout and comments, and an edit outside any inner part."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from _repo import RepoBuilder  # tests/ is on sys.path (the rootdir conftest lives there)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "inner_bodies.py"

pytestmark = pytest.mark.timeout(120)

WATCHER = """\
class Watcher {
    void start() {
        Runnable r = new Runnable() {
            public void run() {
                System.out.println("run");
            }
        };
        java.util.function.Supplier<String> s = () -> "x";
        r.run();
    }

    void stop() {
        System.out.println("stop");
    }
}
"""


@pytest.fixture
def history(tmp_path: Path) -> RepoBuilder:
    b = RepoBuilder(tmp_path / "java-repo")
    b.write("src/Watcher.java", WATCHER, dedent=False)
    b.commit("base")
    b.replace("src/Watcher.java", 'println("run")', 'println("running")')
    b.commit("inside the anonymous class")
    b.replace("src/Watcher.java", '() -> "x";', '() ->   "x"; // the same lambda')
    b.commit("the lambda's layout")
    b.replace("src/Watcher.java", 'println("stop")', 'println("stopped")')
    b.commit("outside any inner part")
    return b


def test_inner_bodies_scores_each_edit_inside_an_inner_part(history: RepoBuilder) -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--repo", str(history.path), "--commits", "10", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=110)
    assert out.returncode == 0, out.stderr[-3000:]
    r = json.loads(out.stdout)
    assert r["benchmark"] == "inner_bodies" and r["commits"] == 3
    assert (r["changed"], r["changed_flagged"]) == (1, 1)  # Watcher.start(), its anonymous class edited
    assert (r["cosmetic"], r["cosmetic_flagged"]) == (1, 0)  # Watcher.start(), its lambda re-spaced
    assert r["misses"] == [] and r["missing_blobs"] == 0


def test_inner_bodies_renders_a_table(history: RepoBuilder) -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--repo", str(history.path), "--commits", "10"],
                         capture_output=True, text=True, cwd=ROOT, timeout=110)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "an inner part's code changed" in out.stdout and "| 1 " in out.stdout


def test_a_blob_the_clone_lacks_is_counted_and_skipped(history: RepoBuilder) -> None:
    # A partial mirror can lack blobs: the file as the layout commit left it goes.
    blob = history.git("rev-parse", "HEAD~1:src/Watcher.java").strip()
    (history.path / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    out = subprocess.run([sys.executable, str(SCRIPT), "--repo", str(history.path), "--commits", "10", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=110)
    assert out.returncode == 0, out.stderr[-3000:]
    r = json.loads(out.stdout)
    assert r["missing_blobs"] == 2  # the two commits that read it (as the new and as the old side)
    assert (r["changed"], r["cosmetic"]) == (1, 0)  # the anonymous-class edit is still scored
