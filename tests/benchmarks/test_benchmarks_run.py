"""Every benchmark runs end to end on a small configuration (no timing assertions).

Each script runs as a subprocess with ``--json`` on a repository built in a
fixture (a few commits: an unrelated edit, a body change, a move, a
deletion), or, for contamination, on a small repository the facts file is
written for. The tests check the JSON's shape and that the figures are sane.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _repo import RepoBuilder  # tests/ is on sys.path (the rootdir conftest lives there)

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"

pytestmark = pytest.mark.timeout(1000)

MODULE = '''\
"""A module with a few functions and a class."""
import json


def alpha(x):
    """Alpha."""
    y = x + 1
    return y * 2


def beta(items):
    total = 0
    for item in items:
        total += item
    return total


class Store:
    def save(self, order):
        data = json.dumps(order)
        return len(data)

    def load(self, text):
        value = json.loads(text)
        return value
'''

HELPERS = '''\
def gamma(a, b):
    c = a * b
    return c - 1


def delta(s):
    s = s.strip()
    return s.upper()
'''


@pytest.fixture
def history(tmp_path: Path) -> RepoBuilder:
    """Three commits: base, then edits of every kind the benchmarks score."""
    b = RepoBuilder(tmp_path / "bench-repo")
    b.write("pkg/core.py", MODULE, dedent=False)
    b.write("pkg/helpers.py", HELPERS, dedent=False)
    b.write("pyproject.toml", '[project]\nname = "demo"\nversion = "1"\ndependencies = ["click>=8"]\n')
    b.write("README.md", "# Demo\n")
    b.commit("base")
    b.replace("pkg/core.py", "    return total\n", "    return total\n\n\ndef extra():\n    return 0\n")
    b.replace("pkg/core.py", "        value = json.loads(text)\n", "        value = json.loads(text.strip())\n")
    b.replace("pkg/core.py", '    """Alpha."""\n', '    """Alpha, documented."""\n    # a comment\n')
    b.commit("unrelated edit, a body change and a cosmetic edit")
    b.move("pkg/helpers.py", "pkg/util.py")
    b.replace("pkg/util.py", "def delta(s):\n    s = s.strip()\n    return s.upper()\n", "")
    b.commit("move helpers, delete delta")
    return b


def _script(name: str) -> Any:
    """A benchmark script imported as a module (its ``render`` functions)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)


def _run(script: str, *args: str, timeout: float = 900) -> dict:
    env = {**os.environ, "ORT_DISABLE_TELEMETRY": "1", "ANONYMIZED_TELEMETRY": "False"}
    out = subprocess.run([sys.executable, str(BENCH / script), *args, "--json"], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=timeout)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_every_script_has_help() -> None:
    scripts = ("verify_bench.py", "latency.py", "drift.py", "contamination.py", "mcp_bench.py", "format_sweep.py",
               "soak.py")
    procs = [subprocess.Popen([sys.executable, str(BENCH / s), "--help"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for s in scripts]
    for proc in procs:
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err
        assert "--json" in out and "--repo" in out


def test_drift_ast_has_help() -> None:
    # It reads drift.py's JSON (no --repo); the run itself needs node and acorn.
    out = subprocess.run([sys.executable, str(BENCH / "drift_ast.py"), "--help"], capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr
    assert "--json" in out.stdout and "--node-modules" in out.stdout


def test_verify_bench(history: RepoBuilder) -> None:
    r = _run("verify_bench.py", "--repo", str(history.path), "--jump", "2", "--decisions", "4",
             "--embedding", "hashing", "--repeat", "2", "--per-file", "3", "--samples", "2")
    assert r["benchmark"] == "verify_bench"
    assert r["decisions"] == 4
    assert sum(r["statuses_at_head"].values()) == 4
    assert set(r["timings_ms"]) >= {"cold_check", "warm_check", "naive_reparse", "recall_warm", "plain_query",
                                    "recall_first_after_write", "plain_query_beside_first",
                                    "recall_after_own_write", "plain_query_beside_own"}
    assert all(v > 0 for v in r["timings_ms"].values())
    assert all(v > 0 for v in r["ratios"].values())
    assert r["naive_agreement"] == "4/4"
    assert [c["seed"] for c in r["cold_samples"]] == [0, 1]
    assert r["cold_samples"][0]["cold_verify_ms"] == r["timings_ms"]["cold_verify"]
    assert all(c["decisions"] == 4 and c["cold_verify_ms"] > 0 for c in r["cold_samples"])
    assert r["files_changed_parsed"] >= 1 and r["lines_changed_files"] > 0


@pytest.mark.timeout(1000)
def test_verify_bench_spread(history: RepoBuilder, tmp_path: Path) -> None:
    keep = tmp_path / "kept"
    r = _run("verify_bench.py", "--repo", str(history.path), "--jump", "2", "--spread", "--decisions", "3",
             "--scale", "6", "--repeat", "2", "--keep", str(keep), timeout=900)
    assert r["mode"] == "spread"
    small, big = r["rows"]
    assert small["decisions"] == 3 and small["files_anchored"] == 2   # one per file first
    assert big["decisions"] == 6 and big["files_anchored"] == 2       # then a second, a third... per file
    assert small["naive_agreement"] == "3/3" and big["naive_agreement"] == "6/6"
    assert big["statuses"].get("refuted", 0) + big["statuses"].get("needs_revalidation", 0) >= 1
    for row in (small, big):
        assert row["cold_check_ms"] > 0 and row["parse_floor_ms"] > 0 and row["naive_ms"] > 0
        assert row["files_changed"] >= 1
        assert row["whole_files_ms"] > 0 and row["cold_vs_whole_files"] > 0
        assert row["unchanged_check_ms"] > 0
        assert row["unchanged_us_per_decision"] == pytest.approx(row["unchanged_check_ms"] * 1000 / row["decisions"])
    assert small["recall"]["recall_warm"] > 0 and small["recall"]["plain_query"] > 0
    assert small["recall"]["recall_first_after_write"] > 0 and small["recall"]["first_recall_vs_plain"] > 0
    assert small["recall"]["recall_after_own_write"] > 0 and small["recall"]["own_write_recall_vs_plain"] > 0
    # Issue 31: warm recall against a plain query behind each client kind, a real `chroma run` included.
    by_client = small["recall_by_client"]
    assert list(by_client) == ["local", "ephemeral", "server"]
    for kind, c in by_client.items():
        assert c["recall_warm"] > 0 and c["plain_query"] > 0 and c["n"] > 0
        assert c["recall_vs_plain"] == pytest.approx(c["recall_warm"] / c["plain_query"])
        assert r["targets"][f"recall_le_1.2x_plain_{kind}"] in (True, False)
    assert "cold_default_le_1.5x_floor" in r["targets"] and "recall_by_client" not in big
    # The control at the same files: all 6 decisions, one per anchored file,
    # and the decisions whose symbol left its file added to the one or taken from the all.
    assert "same_files" not in small
    same = big["same_files"]
    left = len(big["moves"]) + big["statuses"].get("refuted", 0)
    assert same["all"] == 6 and same["one_per_file"] == 2 and 1 <= same["left"] <= left
    assert same["all_but_left"] == 6 - same["left"]
    assert 2 < same["one_per_file_and_left"] <= 2 + same["left"]
    assert all(same[f"{arm}_ms"] > 0 for arm in ("one_per_file", "one_per_file_and_left", "all_but_left", "all"))
    # The decisions in place a quarter at a time: one per file, up to every one.
    steps = same["in_place_steps"]
    assert len(steps) == 5 and steps[-1]["decisions"] == same["all_but_left"]
    assert steps[0]["decisions"] <= 2 and "ms_per_added" not in steps[0]
    assert [s["decisions"] for s in steps] == sorted(s["decisions"] for s in steps)
    assert all(s["ms"] > 0 for s in steps) and all("ms_per_added" in s for s in steps[1:])
    assert set(r["targets"]) >= {"cold_le_2x_floor", "naive_ge_3x_cold", "recall_le_1.2x_plain", "cold_ratio",
                                 "in_place_within_whole_files"}
    assert r["targets"]["in_place_vs_whole_files"] == pytest.approx(same["all_but_left_ms"] / big["whole_files_ms"])
    text = _script("verify_bench").render_spread(r)  # the report a person reads, from the same figures
    assert "every changed anchored file parsed and hashed whole" in text
    assert "the decisions in place took" in text and f"{big['decisions']} decisions:" in text
    assert "Warm recall by client kind" in text and "| server " in text
    assert small["record_ms_total"] > 0 and len(list(keep.iterdir())) == 2  # both ledgers kept
    again = _run("verify_bench.py", "--repo", str(history.path), "--jump", "2", "--spread", "--decisions", "3",
                 "--repeat", "1", "--keep", str(keep), "--clients", "ephemeral")["rows"][0]
    assert list(again["recall_by_client"]) == ["ephemeral"]
    assert again["record_ms_total"] == 0 and again["statuses"] == small["statuses"]  # reused, not recorded


def test_latency(history: RepoBuilder) -> None:
    r = _run("latency.py", "--repo", str(history.path), "--jump", "2", "--decisions", "4", "--embedding",
             "hashing", "--sizes", "50,200", "--queries", "10", "--anchors", "5", "--repeat", "2",
             "--cold-runs", "2")
    a = r["real_repo"]
    assert a["decisions"] == 4
    assert a["recall"]["warm_recall"]["n"] > 0 and a["recall"]["warm_ratio"] > 0
    assert a["check"]["naive_ms"] > 0
    sizes = r["scale"]["sizes"]
    assert [row["decisions"] for row in sizes] == [50, 200]
    for row in sizes:
        assert row["recall"]["p95"] >= row["recall"]["p50"] > 0
        assert row["plain"]["p50"] > 0
        assert row["tracemalloc_peak_mib"] > 0 and row["max_rss_mib"] > 0
        f = row["filtered"]
        assert set(f) == {"selective", "broad"}
        assert f["selective"]["matching"] == 1 and f["selective"]["returned"] == 1
        assert f["broad"]["matching"] == row["decisions"] // 2 and f["broad"]["returned"] == 5
        assert all(x["recall"]["p50"] > 0 and x["chroma_where"]["p50"] > 0 for x in f.values())


def test_drift_sample(history: RepoBuilder) -> None:
    r = _run("drift.py", "--repo", str(history.path), "--sample", "20", "--from", "HEAD~2", "--to", "HEAD",
             "--per-file", "10")
    assert r["benchmark"] == "drift"
    assert r["scored"] >= 6
    truths = {c["qualname"]: c["truth"] for c in r["cases"] if c["truth"]}
    assert truths["Store.load"] == "changed"
    assert truths["beta"] == "unchanged"
    assert truths["alpha"] == "cosmetic"
    assert truths["gamma"] == "moved"
    assert truths["delta"] == "deleted"
    s = r["summary"]
    assert s["false_alarms_memvet"] == 0
    assert s["false_alarms_baseline"] == s["unrelated_edit_cases"]
    assert s["recall_memvet"] == 1.0
    assert s["moves_as_moves_memvet"] == s["move_cases"] >= 1


def test_drift_cases_file(history: RepoBuilder, tmp_path: Path) -> None:
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"from": "HEAD~2", "to": "HEAD", "cases": [
        {"anchor": "pkg/core.py::Store.save"}, {"anchor": "pkg/core.py::Store.load", "expect": "changed"}]}))
    r = _run("drift.py", "--repo", str(history.path), "--cases", str(cases))
    assert r["scored"] == 2
    assert {c["qualname"]: c["memvet"] for c in r["cases"]} == {"Store.save": "holds", "Store.load": "changed"}


JAVA_V1 = """\
package org.demo;

public class Copier {
    public static void copy(byte[] input, java.io.OutputStream output) {
        output.write(input);
    }

    public void start() {
        Runnable r = new Runnable() {
            public void run() { copy(null, null); }
        };
    }
}
"""


def _change(kind: str, parent: str, commit: str, path_before: str, name_before: str,
            path_after: str, name_after: str) -> dict:
    return {"parentCommitId": parent, "commitId": commit, "commitTime": 0, "changeType": kind,
            "elementFileBefore": path_before, "elementNameBefore": name_before,
            "elementFileAfter": path_after, "elementNameAfter": name_after}


def _one_oracle(tmp_path: Path, repo_name: str, start: str, path: str, key: str, changes: list[dict]) -> Path:
    """A folder holding one CodeTracker-style oracle file, for the method
    ``key`` of ``repo_name`` as it is at ``start``."""
    folder = tmp_path / "oracle"
    folder.mkdir()
    oracle = {"repositoryName": repo_name, "startCommitId": start, "filePath": path, "functionKey": key,
              "expectedChanges": changes}
    (folder / f"{repo_name}-method.json").write_text(json.dumps(oracle))
    return folder


def test_drift_oracle(tmp_path: Path) -> None:
    """CodeTracker-style oracle: introduced, an untouched commit, a body
    change, a parameter change, a source-folder move; one anonymous-class
    method the oracle names by variable is excluded."""
    b = RepoBuilder(tmp_path / "oracle-demo")
    old_path, new_path = "src/java/org/demo/Copier.java", "src/main/java/org/demo/Copier.java"
    b.write(old_path, "package org.demo;\n\npublic class Copier {\n}\n", dedent=False)
    c0 = b.commit("root: the class without copy (a root commit is never an unchanged case)")
    b.write(old_path, JAVA_V1, dedent=False)
    c1 = b.commit("introduce copy")
    b.replace(old_path, "public void start() {", "public void start() {\n        int unrelated = 1;")
    c2 = b.commit("untouched copy")
    b.replace(old_path, "output.write(input);", "output.write(input);\n        output.flush();")
    c3 = b.commit("body change")
    b.replace(old_path, "byte[] input", "final byte[] input")
    c4 = b.commit("parameter modifier")
    b.move(old_path, new_path)
    c5 = b.commit("move source folder")
    key_old = "src/java/org.demo.Copier#copy(byte[], OutputStream)"
    key_new = "src/main/java/org.demo.Copier#copy(byte[], OutputStream)"
    oracle = {
        "repositoryName": "oracle-demo", "startCommitId": c5, "filePath": new_path, "functionKey": key_new,
        "expectedChanges": [
            _change("container change", c4, c5, old_path, key_old, new_path, key_new),
            _change("parameter change", c3, c4, old_path, key_old, old_path, key_old),
            _change("body change", c2, c3, old_path, key_old, old_path, key_old),
            _change("introduced", c0, c1, old_path, key_old, old_path, key_old),
        ],
    }
    anonymous = {
        "repositoryName": "oracle-demo", "startCommitId": c5, "filePath": new_path,
        "functionKey": "src/main/java/org.demo.Copier.start.r#run()",
        "expectedChanges": [_change("introduced", c0, c1, old_path, "src/java/org.demo.Copier.start.r#run()",
                                    old_path, "src/java/org.demo.Copier.start.r#run()")],
    }
    folder = tmp_path / "oracle" / "test"
    folder.mkdir(parents=True)
    (folder / "oracle-demo-Copier-copy.json").write_text(json.dumps(oracle))
    (folder / "oracle-demo-Copier-run.json").write_text(json.dumps(anonymous))
    (folder / "other-repo-X-y.json").write_text(json.dumps({**oracle, "repositoryName": "other"}))
    r = _run("drift.py", "--repo", str(b.path), "--oracle", str(tmp_path / "oracle"))
    truths = sorted((c["truth"], c["memvet"]) for c in r["cases"] if c["truth"])
    assert truths == [("changed", "changed"), ("changed", "changed"), ("deleted", "deleted"),
                      ("moved", "moved"), ("unchanged", "holds")]
    assert [c["qualname"] for c in r["cases"] if c["truth"] == "changed"] == ["Copier.copy(byte[], OutputStream)"] * 2
    # The anonymous class's run(): its introduction and four later commits.
    excluded = [c for c in r["cases"] if c["excluded"]]
    assert len(excluded) == r["excluded"] == 5 and r["oracle_files"] == 2
    assert all("anonymous or local class" in c["excluded"] for c in excluded)
    assert r["summary"]["refused_memvet"] == 0 and r["summary"]["accuracy_memvet"] == 1.0


def test_drift_oracle_merge_is_scored_as_restructured(tmp_path: Path) -> None:
    """A method merged into another is neither moved nor deleted: it is
    right when flagged, and counts in none of the issue's categories."""
    b = RepoBuilder(tmp_path / "merge-demo")
    path = "src/main/java/org/demo/Auth.java"
    b.write(path, "package org.demo;\n\npublic class Auth {\n"
                  "    public String authenticate(String route) {\n        return route.trim();\n    }\n\n"
                  "    public String authenticateProxy(String proxy) {\n"
                  "        return proxy.toLowerCase();\n    }\n}\n",
            dedent=False)
    c0 = b.commit("two methods")
    b.write(path, "package org.demo;\n\npublic class Auth {\n"
                  "    public String authenticate(String route, boolean proxy) {\n"
                  "        return proxy ? route.toLowerCase() : route.trim();\n    }\n}\n", dedent=False)
    c1 = b.commit("one method for both")
    key = "src/main/java/org.demo.Auth#"
    folder = _one_oracle(tmp_path, "merge-demo", c1, path, key + "authenticate(String, boolean)", [
        _change("method merge", c0, c1, path, key + "authenticateProxy(String)", path,
                key + "authenticate(String, boolean)"),
        _change("method merge", c0, c1, path, key + "authenticate(String)", path,
                key + "authenticate(String, boolean)"),
    ])
    r = _run("drift.py", "--repo", str(b.path), "--oracle", str(folder))
    [case] = [c for c in r["cases"] if c["truth"]]
    assert (case["qualname"], case["truth"]) == ("Auth.authenticateProxy(String)", "restructured")
    assert case["memvet"] in {"changed", "moved", "deleted"}
    s = r["summary"]
    assert s["restructured_cases"] == 1 and s["restructured_flagged_memvet"] == 1
    assert s["unrelated_edit_cases"] == s["move_cases"] == s["deletion_cases"] == s["body_change_cases"] == 0
    assert s["accuracy_memvet"] == 1.0


def test_drift_signature_follows(tmp_path: Path) -> None:
    """The calibration mode: a parameter added (kept, same kind of call)
    and a method introduced where a static factory of its name stood
    (crossing static, unlike: not followed), each with its likeness."""
    b = RepoBuilder(tmp_path / "follows-demo")
    path = "src/main/java/org/demo/Conn.java"
    factory = ("    public static Conn open(String uri, int timeout) {\n        Conn c = pool.get(uri);\n"
               "        c.timeout = timeout;\n        return c;\n    }\n")
    b.write(path, f"package org.demo;\n\npublic class Conn {{\n{factory}}}\n", dedent=False)
    c0 = b.commit("a factory")
    instance = ("    public void open(int timeout) {\n        socket = new Socket();\n"
                "        socket.connect(address, timeout);\n        in = socket.getInputStream();\n    }\n")
    b.write(path, f"package org.demo;\n\npublic class Conn {{\n{instance}}}\n", dedent=False)
    c1 = b.commit("connections open themselves")
    b.replace(path, "public void open(int timeout) {", "public void open(int timeout, boolean tls) {")
    b.replace(path, "in = socket.getInputStream();", "in = tls ? wrap(socket) : socket.getInputStream();")
    c2 = b.commit("tls")
    key = "src/main/java/org.demo.Conn#"
    folder = _one_oracle(tmp_path, "follows-demo", c2, path, key + "open(int, boolean)", [
        _change("parameter change", c1, c2, path, key + "open(int)", path, key + "open(int, boolean)"),
        _change("body change", c1, c2, path, key + "open(int)", path, key + "open(int, boolean)"),
        _change("introduced", c0, c1, path, key + "open(int)", path, key + "open(int)"),
    ])
    r = _run("drift.py", "--repo", str(b.path), "--oracle", str(folder), "--signature-follows")
    rows = {f["truth"]: f for f in r["follows"]}
    assert len(r["follows"]) == 2
    assert (rows["changed"]["from"], rows["changed"]["to"]) == ("Conn.open(int)", "Conn.open(int,boolean)")
    assert rows["changed"]["kept"] and not rows["changed"]["crosses_static"] and rows["changed"]["alike"] > 0.5
    assert rows["deleted"]["to"] == "Conn.open(String,int)"
    assert rows["deleted"]["crosses_static"] and not rows["deleted"]["kept"] and rows["deleted"]["alike"] < 0.5
    assert r["by_truth"]["changed"] == {"n": 1, "alike_min": rows["changed"]["alike"],
                                        "alike_max": rows["changed"]["alike"], "crossing_static": 0, "kept": 1}
    assert r["by_truth"]["deleted"]["crossing_static"] == 1 and r["by_truth"]["deleted"]["kept"] == 0
    text = _script("drift").render_follows(r)  # the report a person reads: the one case that crossed static
    assert "Conn.open(int) -> Conn.open(String,int)" in text and "crosses static, not followed" in text


def test_drift_signature_follows_needs_an_oracle(tmp_path: Path) -> None:
    env = {**os.environ, "ORT_DISABLE_TELEMETRY": "1"}
    out = subprocess.run([sys.executable, str(BENCH / "drift.py"), "--repo", str(tmp_path), "--signature-follows",
                          "--sample", "3", "--from", "HEAD"], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=900, check=False)
    assert out.returncode == 2 and "--signature-follows needs --oracle" in out.stderr


def test_drift_oracle_for_another_repository_is_an_error(tmp_path: Path) -> None:
    b = RepoBuilder(tmp_path / "no-oracle")
    b.write("README.md", "# demo\n")
    b.commit("root")
    (tmp_path / "oracle").mkdir()
    env = {**os.environ, "ORT_DISABLE_TELEMETRY": "1"}
    out = subprocess.run([sys.executable, str(BENCH / "drift.py"), "--repo", str(b.path), "--oracle",
                          str(tmp_path / "oracle")], capture_output=True, text=True, env=env, cwd=ROOT, timeout=900,
                         check=False)
    assert out.returncode == 1 and "no CodeTracker oracle for repository 'no-oracle'" in out.stderr


def test_contamination(history: RepoBuilder, tmp_path: Path) -> None:
    facts = {
        "format": "memvet-facts/1",
        "facts": [
            {"id": "t1", "kind": "true", "question": "What does Store.save return?",
             "claim": "Store.save returns the length of the JSON text.", "anchors": ["pkg/core.py::Store.save"],
             "probe": {"symbol": "pkg/core.py::Store.save", "contains": "len\\(data\\)"},
             "scenarios": ["poisoned", "temporal"]},
            {"id": "t2", "kind": "true", "question": "Does the project depend on click?",
             "claim": "The project depends on click.", "anchors": ["dep:click"], "probe": {"dependency": "click"},
             "scenarios": ["poisoned", "temporal"]},
            {"id": "f1", "kind": "false", "question": "Which function computes sums?",
             "claim": "Sums are computed by pkg/core.py::summation.", "anchors": ["pkg/core.py::summation"],
             "probe": {"symbol": "pkg/core.py::summation"}, "scenarios": ["poisoned"]},
            {"id": "s1", "kind": "silent", "question": "Is the data encrypted?",
             "claim": "All data is encrypted at rest.", "anchors": [], "probe": {"silent": ["encrypt"]},
             "scenarios": ["poisoned"]},
        ],
        "changes": [{"why": "Store.save now returns the data", "replace": {
            "path": "pkg/core.py", "old": "        return len(data)\n", "new": "        return data\n"}}],
    }
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(facts))
    r = _run("contamination.py", "--repo", str(history.path), "--facts", str(path), "--embedding", "hashing",
             "-k", "3")
    assert set(r["scenarios"]) == {"poisoned", "temporal"}
    p = r["scenarios"]["poisoned"]
    assert p["false_at_read"] == 2 and p["silent"] == ["s1"] and not p["label_mismatch"]
    assert set(p["backends"]) == {"plain", "lifecycle", "memvet"}
    for backend in p["backends"].values():
        assert set(backend["arms"]) == {"no-memory", "code-first", "memory-first"}
        assert backend["arms"]["no-memory"]["false_adopted"] == 0
        assert backend["arms"]["no-memory"]["correct"] == 4
    assert p["backends"]["memvet"]["blocked_at_write"] == ["f1"]
    assert p["backends"]["memvet"]["arms"]["memory-first"]["false_adopted"] == 0
    t = r["scenarios"]["temporal"]
    assert t["false_ids"] == ["t1"]
    assert t["backends"]["memvet"]["arms"]["memory-first"]["false_adopted"] == 0
    assert r["changes"] == [{"why": "Store.save now returns the data", "status": "applied"}]
    backend = p["backends"]["memvet"]
    assert backend["true_refused_at_write"] == [] and backend["false_alarms"] == []
    assert p["absent_terms_violations"] == [] and p["writes"] == "active"


def test_contamination_commit_b_is_reproducible(history: RepoBuilder, tmp_path: Path) -> None:
    facts = {"format": "memvet-facts/1", "facts": [
        {"id": "t1", "kind": "true", "question": "What does Store.save return?",
         "claim": "Store.save returns the length of the JSON text.", "anchors": ["pkg/core.py::Store.save"],
         "probe": {"symbol": "pkg/core.py::Store.save", "contains": "len\\(data\\)"}, "scenarios": ["temporal"]}],
        "changes": [{"why": "Store.save now returns the data", "replace": {
            "path": "pkg/core.py", "old": "        return len(data)\n", "new": "        return data\n"}}]}
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(facts))
    args = ("--repo", str(history.path), "--facts", str(path), "--embedding", "hashing", "-k", "1",
            "--scenario", "temporal")
    first, second = _run("contamination.py", *args), _run("contamination.py", *args)
    assert first["commit_a"] == second["commit_a"]
    assert len(first["commit_b"]) == 40 and first["commit_b"] == second["commit_b"] != first["commit_a"]
    assert first["scenarios"]["temporal"]["false_ids"] == ["t1"]


def test_contamination_absent_terms_and_code_only(history: RepoBuilder, tmp_path: Path) -> None:
    facts = {"format": "memvet-facts/1", "facts": [
        # alpha's docstring says "documented" and it has a comment; its code says neither
        {"id": "t1", "kind": "true", "question": "Is alpha's code free of the word documented?",
         "claim": "alpha adds one and doubles.", "anchors": ["pkg/core.py::alpha"],
         "probe": {"symbol": "pkg/core.py::alpha", "contains": "documented|comment", "code_only": True,
                   "negate": True}},
        {"id": "f1", "kind": "false", "question": "Does alpha's docstring count as code?",
         "claim": "alpha is documented in its code.", "anchors": ["pkg/core.py::alpha"],
         "probe": {"symbol": "pkg/core.py::alpha", "contains": "documented", "code_only": True}},
        {"id": "s1", "kind": "silent", "question": "Is the data encrypted?",
         "claim": "All data is encrypted at rest.", "anchors": [],
         "probe": {"silent": True, "absent_terms": ["encrypted", "JSON", "Zebra"]}},
    ]}
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(facts))
    r = _run("contamination.py", "--repo", str(history.path), "--facts", str(path), "--embedding", "hashing",
             "-k", "2", "--scenario", "poisoned")
    p = r["scenarios"]["poisoned"]
    assert p["label_mismatch"] == []
    # "json" occurs (case-insensitively, as a word) in pkg/core.py; the other two terms nowhere
    assert p["absent_terms_violations"] == [{"id": "s1", "term": "JSON", "path": "pkg/core.py"}]



GO_SOURCE = """\
package queue

// DefaultLimit is 10 in the docs; the code says 16.
const DefaultLimit = 16

var (
	defaultWait = 3
	defaultName = "q" // was "queue"
)

type Queue[T any] struct{ items []T }

// Push appends; it never blocks (a comment saying "blocks").
func (q *Queue[T]) Push(v T) {
	q.items = append(q.items, v) // grows
}

func New() *Queue[int] { return &Queue[int]{} }
"""

RUST_SOURCE = """\
use std::fmt;

/// Retries three times by default (the code says five).
pub const RETRIES: u32 = 5;

pub struct Point { x: i32 }

impl Point {
    /// Makes a point at zero.
    pub fn origin() -> Point { Point { x: 0 } } // zero
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "{}", self.x) }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "Point({})", self.x) }
}

pub trait Shape {
    fn area(&self) -> f64 { 0.0 }
}

macro_rules! point { ($x:expr) => { Point { x: $x } }; }
"""


def test_contamination_oracle_reads_go_and_rust(repo: RepoBuilder) -> None:
    repo.write("queue/queue.go", GO_SOURCE, dedent=False)
    repo.write("src/lib.rs", RUST_SOURCE, dedent=False)
    repo.write("go.mod", "module example.com/q\n\ngo 1.22\n\nrequire (\n\tgolang.org/x/sys v0.13.0\n)\n",
               dedent=False)
    repo.write("Cargo.toml", "[package]\nname = \"p\"\n\n[dependencies]\nserde = \"1\"\n\n"
               "[target.'cfg(unix)'.dev-dependencies]\nlibc = \"0.2\"\n", dedent=False)
    repo.commit("go and rust")
    c = _script("contamination")
    from memvet._git import GitRepo

    o = c.Oracle(GitRepo(repo.path), "HEAD")
    # Go: a method under its receiver's bare type; a const; comments cut only with code_only
    assert o.answer({"symbol": "queue/queue.go::Queue.Push", "contains": "append"}) is True
    assert o.answer({"symbol": "queue/queue.go::Queue.Push", "contains": "blocks"}) is True
    assert o.answer({"symbol": "queue/queue.go::Queue.Push", "contains": "blocks|grows", "code_only": True}) is False
    assert o.answer({"symbol": "queue/queue.go::DefaultLimit", "contains": "= 16", "code_only": True}) is True
    assert o.answer({"symbol": "queue/queue.go::DefaultLimit", "contains": "10", "code_only": True}) is False
    assert o.answer({"symbol": "queue/queue.go::defaultWait", "contains": "= 3$"}) is True
    assert o.answer({"symbol": "queue/queue.go::defaultName", "contains": "queue", "code_only": True}) is False
    assert o.answer({"symbol": "queue/queue.go::New", "contains": "Queue\\[int\\]"}) is True
    # Rust: inherent and trait-impl methods, a trait's default method, a macro; doc comments are comments
    assert o.answer({"symbol": "src/lib.rs::RETRIES", "contains": "three", "code_only": True}) is False
    assert o.answer({"symbol": "src/lib.rs::RETRIES", "contains": "three"}) is True
    assert o.answer({"symbol": "src/lib.rs::Point.origin", "contains": "zero", "code_only": True}) is False
    assert o.answer({"symbol": "src/lib.rs::<Point as Display>.fmt", "contains": "Point\\("}) is False
    assert o.answer({"symbol": "src/lib.rs::<Point as Debug>.fmt", "contains": "Point\\("}) is True
    assert o._symbol_source("src/lib.rs::Point.fmt") is None  # two trait impls have it: ambiguous
    # what a symbol or file holds, asked of one that is not there, is no answer; whether it exists is one
    assert o.unresolved({"symbol": "src/lib.rs::Point.fmt", "contains": "Point"}) is True
    assert o.unresolved({"symbol": "queue/queue.go::Queue.Pop", "contains": "append"}) is True
    assert o.unresolved({"file": "queue/missing.go", "contains": "append"}) is True
    assert o.unresolved({"symbol": "queue/queue.go::Queue.Pop"}) is False
    assert o.unresolved({"symbol": "queue/queue.go::Queue.Push", "contains": "blocks|grows"}) is False
    assert o.unresolved({"dependency": "tokio"}) is False
    assert o.answer({"symbol": "src/lib.rs::Shape.area", "contains": "0\\.0"}) is True
    assert o.answer({"symbol": "src/lib.rs::point", "contains": "Point"}) is True
    # manifests: go.mod module paths, Cargo.toml tables (target-specific too)
    assert o.answer({"dependency": "golang.org/x/sys"}) is True
    assert o.answer({"dependency": "serde"}) is True and o.answer({"dependency": "libc"}) is True
    assert o.answer({"dependency": "tokio"}) is False


def test_contamination_oracle_reads_a_typescript_body_after_a_signature_over_several_lines(
        repo: RepoBuilder) -> None:
    # The probe of a .ts symbol whose parameters run over several lines reads the body, not the signature
    # alone; the same text in a .js file keeps the JavaScript reading.
    source = ("export async function run<T>(\n  cmd: T,\n  opts: Options,\n): Promise<void> {\n"
              "  if (opts.usage) {\n    throw new Error(\"no command\");\n  }\n}\n")
    repo.write("src/run.ts", source, dedent=False)
    repo.commit("ts")
    c = _script("contamination")
    from memvet._git import GitRepo

    o = c.Oracle(GitRepo(repo.path), "HEAD")
    assert o.answer({"symbol": "src/run.ts::run", "contains": "no command"}) is True
    assert o.answer({"symbol": "src/run.ts::run", "contains": "Promise"}) is True
    assert o.answer({"symbol": "src/run.ts::run", "contains": "no usage"}) is False

@pytest.mark.parametrize("review", [False, True])
def test_contamination_writes_proposed_on_own_facts(review: bool) -> None:
    args = ["--repo", str(ROOT), "--facts", str(BENCH / "facts" / "memvet.json"), "--embedding", "hashing",
            "-k", "3", "--scenario", "poisoned", "--writes", "proposed"]
    r = _run("contamination.py", *args, *([] if review else ["--no-review"]))
    assert r["writes"] == "proposed"
    p = r["scenarios"]["poisoned"]
    assert p["writes"] == "proposed" and isinstance(p["absent_terms_violations"], list)
    m = p["backends"]["memvet"]
    assert m["writes"] == "proposed" and p["backends"]["plain"]["writes"] == "active"
    for key in ("false_alarms", "true_refused_at_write", "approved_in_review", "retracted_in_review",
                "blocked_at_write", "block_reasons", "false_persisting_ids"):
        assert key in m
    assert all(set(a) == {"id", "group", "status", "reason"} for a in m["false_alarms"])
    assert all(set(t) == {"id", "message"} for t in m["true_refused_at_write"])
    first = m["arms"]["memory-first"]
    if review:
        assert m["approved_in_review"] > 0
        assert m["false_persisting"] <= p["backends"]["lifecycle"]["false_persisting"]
    else:
        # a proposal is never current: nothing is taken from MemVet, and no true memory is usable
        assert m["approved_in_review"] == 0 and m["retracted_in_review"] == 0
        assert first["answers_from_memory"] == 0 and first["false_adopted"] == 0 and first["adopted_ids"] == []
        assert m["false_persisting"] == 0
        assert all(a["group"] == "caution" for a in m["false_alarms"])


def _write_path_facts(history: RepoBuilder, tmp_path: Path) -> Path:
    """A tiny facts file pinned to the commit before the last (``delta`` is deleted at HEAD)."""
    facts = {"format": "memvet-facts/1", "commit": history.git("rev-parse", "HEAD~1"), "facts": [
        {"id": "t1", "kind": "true", "question": "What does Store.save return?",
         "claim": "Store.save returns the length of the JSON text.", "anchors": ["pkg/core.py::Store.save"],
         "probe": {"symbol": "pkg/core.py::Store.save", "contains": "len\\(data\\)"}},
        {"id": "t2", "kind": "true", "question": "Does delta upper-case its input?",
         "claim": "delta strips the string and returns it upper-cased.", "anchors": ["pkg/helpers.py::delta"],
         "probe": {"symbol": "pkg/helpers.py::delta", "contains": "upper"}},
        {"id": "f1", "kind": "false", "question": "Which function computes sums?",
         "claim": "Sums are computed by pkg/core.py::summation.", "anchors": ["pkg/core.py::summation"],
         "probe": {"symbol": "pkg/core.py::summation"}},
        # pinned on a real symbol, plain prose: nothing at write can tell it is false
        {"id": "f2", "kind": "false", "question": "Does Store.load cache what it loads?",
         "claim": "Store.load keeps every value it loads in a cache.", "anchors": ["pkg/core.py::Store.load"],
         "probe": {"symbol": "pkg/core.py::Store.load", "contains": "cache"}},
        {"id": "s1", "kind": "silent", "question": "Is the data encrypted?",
         "claim": "All data is encrypted at rest.", "anchors": [], "probe": {"silent": True}},
    ]}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(facts))
    return path


def test_contamination_write_path(history: RepoBuilder, tmp_path: Path) -> None:
    path = _write_path_facts(history, tmp_path)
    r = _run("contamination.py", "--write-path", "--set", f"one={history.path}:{path}", "--set",
             f"{history.path}:{path}", "--embedding", "hashing")
    assert r["mode"] == "write-path" and r["review"] is False and r["agent_writes"] == "proposed"
    assert [s["name"] for s in r["sets"]] == ["one", "tiny"]  # a set is named by its file's stem by default
    s = r["sets"][0]
    assert s["rev"] == history.git("rev-parse", "HEAD~1") and s["rev_source"] == "facts file"
    assert (s["true"], s["false"], s["silent"]) == (2, 2, 1) and s["label_mismatch"] == []
    assert s["unresolved_probes"] == []
    person, agent = s["writers"]["person"], s["writers"]["agent"]
    assert person["author"] == "person:proxy-person" and agent["author"] == "agent:proxy-agent"
    fig = person["figures"]
    # delta is resolved at the facts file's commit, where it still exists
    assert fig["true_refused"] == {"n": 0, "of": 2, "ids": [], "target": {"op": "<=", "value": 0, "met": True}}
    assert fig["true_current"] == {"n": 2, "of": 2, "ids": ["t1", "t2"],
                                   "target": {"op": ">=", "value": 0, "met": True}}
    assert fig["false_current"] == {"n": 1, "of": 3, "ids": ["f2"], "target": {"op": "<=", "value": 2, "met": True}}
    assert person["targets_met"] is True
    facts = person["facts"]
    assert facts["t1"]["outcome"] == "current" and facts["t1"]["status"] == "verified"
    assert facts["f1"]["outcome"] == "refused" and "summation" in facts["f1"]["message"]
    assert facts["s1"]["outcome"] == "caution" and facts["s1"]["status"] == "unanchored"
    # an agent's write is a proposal: the same refusals, nothing current before review
    fig = agent["figures"]
    assert fig["true_refused"]["ids"] == [] and fig["true_refused"]["target"] is None
    assert fig["true_current"]["n"] == 0 and fig["false_current"]["n"] == 0
    assert fig["false_current"]["target"] == {"op": "<=", "value": 0, "met": True}
    assert agent["facts"]["f1"]["outcome"] == "refused"
    assert {x["status"] for i, x in agent["facts"].items() if i != "f1"} == {"proposed"}
    assert all(set(x) == {"kind", "outcome", "status", "reason", "message", "write", "same_as"}
               for x in agent["facts"].values())
    assert r["sets"][1]["writers"]["person"]["figures"] == s["writers"]["person"]["figures"]
    text = _script("contamination").render_write_path(r)
    assert "| one  | person |" in text and "2/2 (target >= 0)" in text and "1/3 (target <= 2)" in text
    assert "0/3 (target 0)" in text and "one, person: false or silent current f2" in text
    assert "not there" not in text
    r["sets"][0]["unresolved_probes"] = ["f2"]
    assert "one: facts whose probe asks what a symbol or file holds that is not there at" in \
        _script("contamination").render_write_path(r)


@pytest.mark.parametrize(("args", "message"), [
    (["--set", "x=.:f.json"], "--set needs --write-path"),
    (["--write-path"], "--write-path needs --set"),
    (["--write-path", "--set", "no-colon"], "expected [NAME=]REPO:FACTS"),
    (["--write-path", "--set", "a=.:FACTS", "--scenario", "poisoned", "-k", "3"], "takes no --scenario, -k"),
    (["--write-path", "--set", "a=.:FACTS", "--facts", "FACTS"], "either --set (repeatable) or --repo and --facts"),
    (["--write-path", "--set", "a=.:FACTS", "--set", "a=REPO:FACTS"], "a given twice"),
    (["--write-path", "--set", "a=.:missing.json"], "cannot read the facts file missing.json"),
    (["--write-path", "--set", "a=OUTSIDE:FACTS"], "is not a git repository"),
    (["--write-path", "--set", "a=REPO:OTHER"], "the facts file's commit " + "0" * 40 + " is not in"),
])
def test_contamination_write_path_usage_errors(history: RepoBuilder, tmp_path: Path, args: list[str],
                                               message: str) -> None:
    facts = _write_path_facts(history, tmp_path)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**json.loads(facts.read_text()), "commit": "0" * 40}))
    (tmp_path / "outside").mkdir()
    subs = {"FACTS": str(facts), "OTHER": str(other), "REPO": str(history.path), "OUTSIDE": str(tmp_path / "outside")}
    argv = [a.replace("REPO", subs["REPO"]).replace("OUTSIDE", subs["OUTSIDE"]).replace("OTHER", subs["OTHER"])
            .replace("FACTS", subs["FACTS"]) for a in args]
    env = {**os.environ, "ORT_DISABLE_TELEMETRY": "1"}
    out = subprocess.run([sys.executable, str(BENCH / "contamination.py"), *argv], capture_output=True, text=True,
                         env=env, cwd=history.path, timeout=900, check=False)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith("contamination: ")
    assert message in out.stderr


def test_mcp_bench(history: RepoBuilder) -> None:
    r = _run("mcp_bench.py", "--repo", str(history.path), "--decisions", "4", "--embedding", "hashing",
             "--queries", "3", "--repeat", "2")
    assert r["benchmark"] == "mcp_bench"
    assert r["decisions"] >= 3 and sum(r["statuses"].values()) == r["decisions"]
    assert r["queries"] == 3 and r["calls"] == 6
    assert set(r["timings_ms"]) == {"ledger_recall", "tools_recall", "mcp_recall"}
    assert all(t["p95"] >= t["p50"] > 0 and t["n"] == 6 for t in r["timings_ms"].values())
    assert r["ratio_p50"] > 0 and r["startup_s"] > 0
    assert set(r["blocks_ms"]) == {"ledger_recall", "mcp_recall"} and r["blocks_ratio_p50"] > 0
    assert r["response_chars_p50"] > 0


LEGACY_JS = """\
(function(factory) { factory({}, this._); })(function(Backbone, _) {
  var Model = Backbone.Model = function(attributes) {
    this.attributes = attributes;
  };
  _.extend(Model.prototype, {
    parse: function(resp) {
      return resp;
    },
    fetch: function(options) {
      options.success = function(resp) {
        return resp;
      };
    }
  });
  jQuery.each({
    parent: function(elem) {
      return elem.parentNode;
    }
  }, function(name, fn) {});
  boolHook = {
    set: function(elem) {
      return elem;
    }
  };
});
"""


@pytest.mark.parametrize(("qualname", "lines"), [
    ("Model", (2, 4)), ("Backbone.Model", (2, 4)), ("Model.prototype.parse", (6, 8)),
    ("Model.prototype.fetch.options.success", (10, 12)), ("parent", (16, 18)),
    ("boolHook.set", (21, 23)),
])
def test_drift_js_truth_locates_legacy_names_by_text(qualname: str, lines: tuple[int, int]) -> None:
    """The text-only locator of the drift ground truth agrees with the parser
    on legacy shapes, and never places a member under a name it lacks."""
    sys.path.insert(0, str(BENCH))
    try:
        import drift
    finally:
        sys.path.remove(str(BENCH))
    from memvet._code import symbol_table

    sym = symbol_table(LEGACY_JS.encode(), "javascript").symbols[qualname]
    assert (sym.start_line, sym.end_line) == lines
    assert drift.js_region(LEGACY_JS.encode(), qualname) == lines
    # `set` sits under `boolHook = {`: its plain name is not located.
    assert drift.js_region(LEGACY_JS.encode(), "set") == "0 declarations of set"


@pytest.mark.timeout(1000)
def test_proxy_bench() -> None:
    """Both proxies answer every read (no timing assertion); needs nginx."""
    import shutil

    if not (shutil.which("nginx") or os.access("/usr/sbin/nginx", os.X_OK)):
        if os.environ.get("CI"):
            pytest.fail("nginx is not installed (apt-get install -y nginx; .ci/run does it)", pytrace=False)
        pytest.skip("nginx is not installed")
    env = {**os.environ, "ORT_DISABLE_TELEMETRY": "1", "ANONYMIZED_TELEMETRY": "False"}
    out = subprocess.run([sys.executable, str(BENCH / "proxy_bench.py"), "--size", "5", "--rounds", "5", "--json"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=900, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    assert set(result["proxies"]) == {"shipped (team check)", "path check only"}
    for ops in result["proxies"].values():
        for op in ("get", "recall"):
            assert 0 < ops[op]["p50_ms"] <= ops[op]["p95_ms"]
    assert all(ratio > 0 for ratio in result["ratio_p50"].values())


def test_writes_bench() -> None:
    """Journaled records against unjournaled ones, and concurrent writers that lose nothing."""
    out = subprocess.run([sys.executable, str(BENCH / "writes.py"), "--records", "10", "--procs", "2", "--each", "5"],
                         capture_output=True, text=True, timeout=900, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    part_a, part_b = out.stdout.splitlines()
    assert part_a.startswith("Part A, 10 records each: journaled p50 ") and "ratio of medians" in part_a
    assert part_b.startswith("Part B, 2 processes x 5 records at once")
    assert part_b.endswith("10 of 10 recorded, 10 stored, 10 by id, 10 by vector query, 10 with their receipt, "
                           "0 acts left in the journal")


@pytest.mark.parametrize("existed", [True, False])
def test_drift_truth_a_same_name_that_was_there_already_is_no_move(tmp_path: Path, existed: bool) -> None:
    """jQuery 3 -> 4: ``src/event/focusin.js::handler`` went with its file;
    ``test/unit/callbacks.js`` had a ``function handler()`` of its own all
    along. The truth calls the same name elsewhere a move only when it is
    new there (Python and JavaScript alike)."""
    sys.path.insert(0, str(BENCH))
    try:
        import drift
    finally:
        sys.path.remove(str(BENCH))
    from memvet._git import GitRepo

    b = RepoBuilder(tmp_path / "r")
    b.write("src/focusin.js", "var handler = function (event) {\n  dispatch(event);\n};\n")
    b.write("src/focus.py", "def handler(event):\n    dispatch(event)\n")
    other_js = "function handler() {\n  return 1;\n}\n"
    other_py = "def handler():\n    return 1\n"
    if existed:
        b.write("test/callbacks.js", other_js)
        b.write("test/callbacks.py", other_py)
    b.write("README.md", "x\n")
    first = b.commit("focusin")
    b.delete("src/focusin.js")
    b.delete("src/focus.py")
    b.write("test/callbacks.js", other_js + "// touched\n")
    b.write("test/callbacks.py", other_py + "# touched\n")
    second = b.commit("drop focusin")
    repo = GitRepo(b.path)
    snap_a, snap_b = repo.snapshot(first), repo.snapshot(second)
    js = drift.Case("c0", "src/focusin.js", "handler", "javascript")
    py = drift.Case("c1", "src/focus.py", "handler", "python")
    js_truth, _ = drift.js_truth(b.path, first, second, snap_a, snap_b, js, ["test/callbacks.js"])
    py_truth, _ = drift.python_truth(snap_a, snap_b, py, ["test/callbacks.py"])
    expected = "deleted" if existed else "moved"
    assert (js_truth, py_truth) == (expected, expected)


@pytest.mark.timeout(1000)
def test_soak() -> None:
    """The soak's shape on a few rounds (its figures: docs/benchmarks.md, "Recall on a server")."""
    r = _run("soak.py", "--rounds", "4", "--warmup", "2", "--sample-every", "2", timeout=900)
    assert r["benchmark"] == "soak" and r["rounds"] == 4 and r["store"] == "local"
    assert [s["round"] for s in r["samples"]] == [1, 2, 4]
    assert all(s["rss_mib"] > 0 for s in r["samples"])
    assert r["rss_after_warmup_mib"] == r["samples"][1]["rss_mib"] and r["rss_end_mib"] == r["samples"][-1]["rss_mib"]
    assert r["growth_after_warmup_pct"] == pytest.approx(
        (r["rss_end_mib"] - r["rss_after_warmup_mib"]) / r["rss_after_warmup_mib"] * 100)
    assert r["recall_errors"] == 0 and r["recall_ms_p50"] > 0 and r["write_ms_p50"] > 0
    text = _script("soak").render(r)
    assert "growth after the warm-up" in text and "command: python" in text
