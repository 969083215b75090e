"""The CLI as a daily tool: the PR gate (check --since, formats), recall by
what you touch, exports for agents, team sharing (export/import), inspection
(show, log) and configuration, driven through click's CliRunner on real git
histories built by the fixtures."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from _cli import record
from click.testing import CliRunner

import memvet
from memvet.cli import cli

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def history(repo, run):
    """Decisions recorded at c0, then a history: c1 rewrites checksum, c2 edits the README.

    Returns the ids (save, checksum, readme, habit, rejected) and the commits.
    """
    return _history(repo, run)


@pytest.fixture(scope="module")
def shared_history(shared_run):
    """``history`` on the module's shared ledger, for cases that are refused
    and check that nothing was written; ``(run, ids, commits)``."""
    repo, run = shared_run
    return run, *_history(repo, run)


def _history(repo, run):
    ids = {
        "save": record(run, "save appends a line", "--symbol", "shop/store.py::OrderStore.save"),
        "checksum": record(run, "checksum is mod 255", "--symbol", "shop/store.py::checksum"),
        "readme": record(run, "the readme is one paragraph", "--file", "README.md"),
        "habit": record(run, "we pair on Fridays"),
        "lock": record(run, "wrap saves in a global lock"),
    }
    run("reject", ids["lock"], "--reason", "it deadlocked")
    c0 = repo.git("rev-parse", "HEAD")
    repo.replace("shop/store.py", "% 255", "% 256")
    c1 = repo.commit("checksum mod 256")
    repo.write("README.md", "# Shop\n\nA sample, longer now.\n")
    repo.write("docs/notes.md", "# Notes\n")
    c2 = repo.commit("readme and notes")
    return ids, (c0, c1, c2)


def statuses(out: str) -> dict[str, str]:
    return {d["id"]: d["status"] for d in json.loads(out)["decisions"]}


# ===================================================================== check --since


def test_since_reports_what_the_range_changed(run, history):
    ids, (c0, c1, _c2) = history
    data = json.loads(run("check", "--since", c1, "--json", code=1).stdout)
    assert {d["id"] for d in data["decisions"]} == {ids["readme"]}
    item = data["decisions"][0]
    assert item["before"] == "verified" and item["status"] == "stale"
    assert item["changed_paths"] == ["README.md"]
    assert data["since"] == c1 and data["base"] == c1
    assert set(data["changed_paths"]) == {"README.md", "docs/notes.md"}

    wide = json.loads(run("check", "--since", c0, "--json", code=1).stdout)["decisions"]
    by_id = {d["id"]: d for d in wide}
    assert set(by_id) == {ids["save"], ids["checksum"], ids["readme"]}
    assert (by_id[ids["checksum"]]["before"], by_id[ids["checksum"]]["status"]) == ("verified", "stale")
    # touched but still holding: reported so a reviewer sees it, not failing
    assert (by_id[ids["save"]]["before"], by_id[ids["save"]]["status"]) == ("verified", "verified")


def test_since_gates_only_on_the_range(run, history, repo):
    _ids, (_c0, c1, _c2) = history
    run("check", code=1)  # drift from long ago fails a plain check ...
    out = run("check", "--since", "HEAD", code=0)  # ... but not a range that did not cause it
    assert "no decision rests on what changed" in out.stdout
    repo.write(".memvet/chroma/data.bin", "the ledger's own files are not changes")
    assert json.loads(run("check", "--since", "HEAD", "--json").stdout)["changed_paths"] == []
    run("check", "--since", c1, "--fail-on", "refuted", code=0)
    text = run("check", "--since", c1, code=1).stdout
    assert "was verified; changed: README.md" in text and "1 file" not in text.splitlines()[0][:5]
    assert re.match(r"changes since \S+ \(from [0-9a-f]{12}\) to worktree: 2 files changed", text)


def test_since_uses_the_merge_base_and_sees_late_decisions_and_renames(run, history, repo):
    ids, (_c0, c1, _c2) = history
    repo.git("checkout", "-q", "-b", "feature", c1)
    repo.move("shop/store.py", "shop/orders.py")
    repo.commit("move the store")
    late = record(run, "orders live in orders.py", "--file", "shop/orders.py")
    # main (c2) moved on after the fork: its README edit is not this branch's change
    data = json.loads(run("check", "--since", "main", "--json", code=None).stdout)
    assert data["base"] == c1
    by_id = {d["id"]: d for d in data["decisions"]}
    assert ids["readme"] not in by_id
    assert by_id[late]["before"] is None
    assert by_id[ids["save"]]["before"] == "verified"
    assert by_id[ids["save"]]["status"] == "needs_revalidation"
    assert set(by_id[ids["save"]]["changed_paths"]) >= {"shop/store.py"}


def test_check_formats(run, history):
    ids, (c0, _c1, _c2) = history
    gh = run("check", "--since", c0, "--format", "github", code=1).stdout.splitlines()
    errors = [line for line in gh if line.startswith("::error ")]
    assert len(errors) == 2
    checksum = next(line for line in errors if ids["checksum"] in line)
    assert checksum.startswith("::error file=shop/store.py,line=22,title=memvet%3A stale decision ")
    assert "::checksum is mod 255 (shop/store.py::checksum: the body changed" in checksum
    notice = next(line for line in gh if line.startswith("::notice "))
    assert "file=shop/store.py,line=11," in notice and ids["save"] in notice
    assert gh[-1].startswith("3 decisions at worktree")
    # outside a range, a warning for non-failing drift and nothing for verified ones
    plain = run("check", "--format", "github", "--fail-on", "refuted", code=0).stdout.splitlines()
    assert [line.split(" ", 1)[0] for line in plain[:-1]] == ["::warning"] * 3
    assert "::warning title=memvet%3A unanchored decision" in "\n".join(plain)

    md = run("check", "--since", c0, "--format", "markdown", code=1).stdout
    assert md.startswith("### MemVet: 3 decisions at `worktree`")
    assert "| status | decision | reason | change |" in md and "| **stale** |" in md
    assert "2 decisions with a failing status" in md
    table = run("check", "--format", "markdown", code=1).stdout
    assert "| status | decision | reason |\n|---|---|---|" in table and "| rejected |" in table
    assert statuses(run("check", "--format", "json", code=1).stdout)[ids["habit"]] == "unanchored"


def test_github_escapes_workflow_command_data(run, repo):
    repo.write("a, b.py", "def f():\n    return 1\n")
    repo.commit("odd name")
    did = record(run, "100% sure:\nf returns 1", "--symbol", "a, b.py::f", "--unbound", "100")
    repo.replace("a, b.py", "return 1", "return 2")
    line = run("check", "--format", "github", code=1).stdout.splitlines()[0]
    assert line.startswith("::error file=a%2C b.py,line=1,title=memvet%3A stale decision " + did + "::")
    assert "100%25 sure:" in line and "\n" not in line


def test_empty_ledger_and_bad_since(run):
    assert "No decisions recorded yet." in run("check", "--format", "markdown").stdout
    assert run("check", "--format", "github").stdout.strip() == "0 decisions at worktree"
    bad = run("check", "--since", "no-such-rev", code=2)
    assert bad.stderr == "memvet: error: unknown revision: 'no-such-rev'\n"
    bad = run("check", "--format", "yaml", code=2)
    assert bad.stderr.startswith("memvet: error: Invalid value for '--format'")


def test_progress_bar_only_on_a_terminal(run, history, monkeypatch):
    from rich.console import Console

    import memvet.cli as cli_module

    plain = run("check", code=1)
    assert "checking decisions" not in plain.stderr and plain.stderr == ""
    screen = StringIO()
    monkeypatch.setattr(cli_module, "_console", lambda: Console(file=screen, force_terminal=True, width=100))
    monkeypatch.setattr(cli_module, "PROGRESS_MIN_DECISIONS", 1)
    run("check", code=1)
    assert "checking decisions" in screen.getvalue()
    _ids, (c0, _, _) = history
    run("check", "--since", c0, code=1)
    monkeypatch.setattr(cli_module, "PROGRESS_MIN_DECISIONS", 10_000)
    screen.truncate(0)
    screen.seek(0)
    run("check", code=1)
    assert screen.getvalue() == ""


def test_progress_bar_advances_once_per_decision(run, history, monkeypatch):
    """The bar counts verdicts as they are made: N of N at the end of a check
    of N decisions, and 2N of 2N for --since (the target and the range's start)."""
    from rich.console import Console

    import memvet.cli as cli_module

    seen: list[tuple[float, float | None]] = []
    real_progress = __import__("rich.progress", fromlist=["Progress"]).Progress

    class Watched(real_progress):  # a real bar that remembers where its task ended
        def stop(self) -> None:
            seen.extend((t.completed, t.total) for t in self.tasks)
            super().stop()

    monkeypatch.setattr("rich.progress.Progress", Watched)
    screen = StringIO()
    monkeypatch.setattr(cli_module, "_console", lambda: Console(file=screen, force_terminal=True, width=100))
    monkeypatch.setattr(cli_module, "PROGRESS_MIN_DECISIONS", 1)
    run("check", code=1)
    assert seen == [(5, 5)]
    _ids, (c0, _, _) = history
    seen.clear()
    run("check", "--since", c0, code=1)
    assert seen == [(10, 10)]


# ===================================================================== recall by path


def test_recall_touching(run, history, repo, monkeypatch):
    ids, _ = history
    out = run("recall", "--touching", "shop/store.py", "--json").stdout
    data = json.loads(out)
    assert data["query"] == "touching shop/store.py"
    assert [i["id"] for i in data["current"]] == [ids["save"]]
    assert [i["id"] for i in data["caution"]] == [ids["checksum"]]
    assert data["caution"][0]["touching"] == ["shop/store.py::checksum"]
    only = json.loads(run("recall", "--touching", "shop/store.py::OrderStore", "--json").stdout)
    assert [i["id"] for i in only["current"] + only["caution"]] == [ids["save"]]
    human = run("recall", "--touching", "shop", "README.md").stdout
    assert human.startswith("decisions touching shop, README.md:")
    assert "rests on shop/store.py::OrderStore.save" in human and "verify before relying:" in human
    monkeypatch.chdir(repo.path / "shop")
    rel = json.loads(run("recall", "--touching", "store.py::checksum", "--json").stdout)
    assert [i["id"] for i in rel["caution"]] == [ids["checksum"]]
    assert len(json.loads(run("recall", "--touching", "store.py", "-k", "1", "--json").stdout)["current"]) == 1
    nothing = run("recall", "--touching", "store.py::OrderStore.__init__").stdout
    assert nothing.strip() == "no decision rests on what you touch (touching shop/store.py::OrderStore.__init__)"
    missing = run("recall", "--touching", "nothing/here.py", code=2).stderr
    assert "'shop/nothing/here.py': shop/nothing/here.py is no file or folder in the working tree" in missing


def test_recall_diff(run, history, repo):
    ids, (_c0, c1, _c2) = history
    assert "no decision rests on what you touch (changed since HEAD)" in run("recall", "--diff").stdout
    repo.replace("shop/store.py", "self.path = path", "self.path = str(path)")
    data = json.loads(run("recall", "--diff", "--json").stdout)
    assert {i["id"] for i in data["current"] + data["caution"]} == {ids["save"], ids["checksum"]}
    wide = json.loads(run("recall", "--diff", c1, "--json").stdout)
    assert {i["id"] for i in wide["current"] + wide["caution"]} == {ids["save"], ids["checksum"], ids["readme"]}
    both = run("recall", "--touching", "README.md", "--diff", "--json").stdout
    assert json.loads(both)["query"] == "touching README.md; changed since HEAD"


@pytest.mark.parametrize(("args", "message"), [
    (["recall"], "recall needs a QUERY, --touching PATH..., or --diff [REV]"),
    (["recall", "--touching"], "--touching needs at least one PATH"),
    (["recall", "orders", "--diff"], "give a QUERY, or paths with --touching"),
    (["recall", "--touching", "../outside.py"], "outside the repository"),
    (["recall", "--touching", "shop/store.py::"], "expected PATH::QUALIFIED.NAME"),
    (["recall", "--diff", "nope-rev"], "unknown revision: 'nope-rev'"),
])
def test_recall_bad_input(shared_history, args, message):
    run = shared_history[0]
    result = run(*args, code=2)
    assert result.stderr.startswith("memvet: error: ") and result.stderr.count("\n") == 1
    assert message in result.stderr


def test_ledger_about_api(ledger, repo):
    save = ledger.record("save appends", ["shop/store.py::OrderStore.save"]).id
    load = ledger.record("load reads lines", ["shop/store.py::OrderStore.load"]).id
    readme = ledger.record("readme", ["README.md"]).id
    scoped = ledger.record("shop never imports requests", ["import:requests"]).id
    ledger.reject(readme, reason="not a decision")
    assert ledger.about(["shop/store.py::OrderStore.load"]).current[0].id == load
    whole = ledger.about(["shop/store.py"])
    assert {i.id for i in whole.current} == {save, load}
    assert ledger.about(["README.md"]).history[0].text.startswith("previously tried, rejected: not a decision")
    assert ledger.about(["README.md"], include=["current"]).items == ()
    assert ledger.about(["shop/*.py"]).query == "touching shop/*.py"
    assert {i.id for i in ledger.about(["./shop/*.py"]).items} == {save, load}
    assert scoped not in {i.id for i in ledger.about(["shop/store.py"]).items}  # unscoped absence: not per file
    repo.move("shop/store.py", "shop/orders.py")
    repo.commit("move")
    moved = ledger.about(["shop/orders.py"])
    assert {i.id for i in moved.caution} == {save, load}
    assert {i.id for i in ledger.about(diff="HEAD~1").caution} == {save, load}
    with pytest.raises(memvet.UsageError, match="needs paths, a diff revision, or both"):
        ledger.about()


def test_about_matches_scoped_absence_and_class_members(ledger, repo):
    from memvet._about import Touch, anchor_touches

    scoped = ledger.record("shop never imports requests", [memvet.absent(import_="requests", scope="shop/**")]).id
    assert [i.id for i in ledger.about(["shop/store.py"]).items] == [scoped]
    assert [i.id for i in ledger.about(["shop"]).items] == [scoped]
    method = memvet.Anchor(memvet.AnchorKind.SYMBOL, path="a.py", name="C.m")
    assert anchor_touches(method, Touch("a.py", "C"))
    assert anchor_touches(memvet.Anchor(memvet.AnchorKind.SYMBOL, path="a.py", name="C"), Touch("a.py", "C.m"))
    assert not anchor_touches(method, Touch("a.py", "Cm"))
    assert anchor_touches(memvet.Anchor(memvet.AnchorKind.FILE, path="a.py"), Touch("a.py", "C"))
    assert not Touch("a").covers("")
    assert not Touch("a").covers("ab.py")


def test_git_failures_in_ranges_are_repository_errors(ledger):
    """A fake for the two pygit2 calls behind GitRepo.merge_base / is_ancestor."""
    import pygit2

    from memvet._about import merge_base

    assert merge_base(ledger.git, "HEAD", ledger.snapshot("HEAD")) == str(ledger.git.head_commit().id)

    class FailingRepo:
        def merge_base(self, *_args):
            raise pygit2.GitError("object not found")

        def descendant_of(self, *_args):
            raise pygit2.GitError("object not found")

    head = str(ledger.git.head_commit().id)
    real = ledger.git.repo
    assert ledger.git.is_ancestor("", head) is False
    assert ledger.git.is_ancestor(head, head) is True
    ledger.git.repo = FailingRepo()
    try:
        ledger.git.has_commit = lambda sha: True
        with pytest.raises(memvet.RepositoryError, match=r"git merge-base .* failed"):
            ledger.git.merge_base(head, head)
        with pytest.raises(memvet.RepositoryError, match="could not compare"):
            ledger.git.is_ancestor("a" * 40, "b" * 40)
    finally:
        ledger.git.repo = real


# ===================================================================== show and log


def test_show_has_the_code_and_the_diff_of_a_stale_body(run, history):
    ids, _ = history
    out = run("show", ids["checksum"]).stdout
    assert "shop/store.py:22" in out
    assert "22 │ def checksum(data):" in out and "23 │     return sum(data) % 256" in out
    assert "changed since recorded:" in out
    assert "-    return sum(data) % 255" in out and "+    return sum(data) % 256" in out
    assert "--- shop/store.py::checksum (as recorded)" in out
    data = json.loads(run("show", ids["checksum"], "--json").stdout)
    excerpt = data["excerpts"][0]
    assert excerpt["start"] == 22 and excerpt["lines"][0] == "def checksum(data):"
    assert any(line.startswith("+    return") for line in excerpt["diff"])
    held = run("show", ids["save"]).stdout
    assert "changed since recorded" not in held and "│     def save(self, order):" in held
    readme = run("show", ids["readme"]).stdout
    assert "-A sample." in readme and "+A sample, longer now." in readme
    assert "changed since recorded" not in run("show", ids["checksum"], "--no-code").stdout
    rejected = run("show", ids["lock"]).stdout
    assert "rejected" in rejected and "history:" in rejected


def test_show_moved_and_deleted_symbols(run, repo):
    did = record(run, "load reads json lines", "--symbol", "shop/store.py::OrderStore.load")
    gone = record(run, "checksum is a sum", "--symbol", "shop/store.py::checksum")
    repo.move("shop/store.py", "shop/orders.py")
    repo.replace("shop/orders.py", "def checksum(data):\n    return sum(data) % 255\n", "")
    repo.commit("move and drop checksum")
    moved = run("show", did).stdout
    assert "shop/orders.py:" in moved and "│     def load(self):" in moved
    deleted = run("show", gone).stdout
    assert "(shop/store.py is not in the target)" in deleted


def test_excerpts_edge_cases(ledger, repo):
    from memvet._excerpt import excerpts

    dep_repo = repo
    dep_repo.write("requirements.txt", "requests>=2.31\n")
    dep_repo.commit("deps")
    dep = ledger.record("we use requests", ["dep:requests"]).id
    absent = ledger.record("no yaml", [memvet.absent(import_="yaml")]).id
    whole = ledger.record("the readme", ["README.md"]).id
    sym = ledger.record("checksum", ["shop/store.py::checksum"]).id
    shown = excerpts(ledger, ledger.verify(dep))[0]
    assert shown.path == "requirements.txt" and shown.lines == ("requests>=2.31",)
    assert excerpts(ledger, ledger.verify(absent))[0].lines == ()
    assert excerpts(ledger, ledger.verify(whole))[0].note == "the whole file is the anchor"
    repo.write("shop/yaml_user.py", "import yaml\n")
    violated = excerpts(ledger, ledger.verify(absent))[0]
    assert violated.lines == ("import yaml",) and violated.start == 1
    repo.write_bytes("README.md", b"\x00binary")
    assert excerpts(ledger, ledger.verify(whole))[0].note == "no text diff available"
    repo.write("shop/store.py", "def other():\n    return 1\n")
    assert "is not defined in shop/store.py" in excerpts(ledger, ledger.verify(sym))[0].note
    long_body = "def checksum(data):\n" + "".join(f"    x{i} = {i}\n" for i in range(60)) + "    return 0\n"
    repo.write("shop/store.py", long_body)
    clipped = excerpts(ledger, ledger.verify(sym), max_lines=10)[0]
    assert len(clipped.lines) == 10 and clipped.omitted > 0
    # the recorded body is gone from git (recorded against an uncommitted file)
    repo.write("shop/new.py", "def f():\n    return 1\n")
    fresh = ledger.record("f returns one", ["shop/new.py::f"]).id
    repo.write("shop/new.py", "def f():\n    return 2\n")
    assert "no diff" in excerpts(ledger, ledger.verify(fresh))[0].note
    repo.write("requirements.txt", "")
    assert excerpts(ledger, ledger.verify(dep))[0].lines == ()


def test_excerpt_line_beyond_the_file(ledger, repo):
    from memvet._excerpt import _line

    check = memvet.AnchorCheck(memvet.Anchor(memvet.AnchorKind.DEPENDENCY, path="README.md", name="x"),
                               memvet.AnchorResult.HOLDS, line=99)
    assert "line 99 is not in README.md" in _line(check, ledger.snapshot(None)).note


def test_log_is_a_timeline(run, history):
    ids, _ = history
    new = json.loads(run("supersede", ids["save"], "save writes atomically", "--symbol",
                         "shop/store.py::OrderStore.save", "--reason", "appends tore", "--json").stdout)["id"]
    out = run("log").stdout.splitlines()
    assert re.match(r"^\d{4}-\d\d-\d\d$", out[0])
    first = out[1]
    assert re.match(r"^  \d\d:\d\d  [0-9a-f]{12}  record     → active\s+save appends a line$", first)
    assert any("reject     active → rejected" in line for line in out)
    assert any(f"└ by {new}: appends tore  [Ada Tester (person, via memvet CLI) @ " in line for line in out)
    assert any(f"└ with {ids['save']}: appends tore" in line for line in out)
    last = run("log", "-n", "2").stdout.splitlines()  # the supersede's two receipts share a time
    assert len(last) == 5 and {last[1].split()[2], last[3].split()[2]} == {"record", "supersede"}
    one = run("log", ids["lock"]).stdout
    assert "reject" in one and "checksum" not in one
    assert {r["action"] for r in json.loads(run("log", "-n", "2", "--json").stdout)["receipts"]} == {
        "record", "supersede"}
    run("log", "-n", "0", code=2)


# ===================================================================== export and import


def test_export_markdown_for_agents(run, history, tmp_path):
    ids, _ = history
    md = run("export").stdout
    sections = [line for line in md.splitlines() if line.startswith("## ")]
    assert sections == ["## Current decisions (verified against the code)", "## Verify before relying (drifted)",
                        "## Previously tried, rejected (do not repeat)"]
    assert f"- save appends a line [`{ids['save']}`] (rests on `shop/store.py::OrderStore.save`)" in md
    assert "> **Warning:**" in md
    assert f"- **stale** [`{ids['checksum']}`]: checksum is mod 255" in md
    assert "  Reason: shop/store.py::checksum: the body changed since" in md
    assert f"- **unanchored** [`{ids['habit']}`]: we pair on Fridays" in md
    assert "wrap saves in a global lock" in md and "rejected because it deadlocked" in md
    narrow = run("export", "--current-only").stdout
    assert "## Verify before relying" not in narrow and "global lock" not in narrow
    assert "`--current-only`): 4 drifted, proposed or rejected decision(s) were left out" in narrow
    target = tmp_path / "AGENTS.decisions.md"
    done = run("export", "--output", str(target))
    assert target.read_text() == md and "wrote 1 verified, 3 drifted, 0 proposed and 1 rejected" in done.stderr
    data = json.loads(run("export", "--format", "json", "--at", "HEAD").stdout)
    assert [d["id"] for d in data["verified"]] == [ids["save"]]
    assert {d["status"] for d in data["drifted"]} == {"stale", "unanchored"}
    assert data["rejected"][0]["reason"] == "it deadlocked" and data["current_only"] is False


def test_export_markdown_mentions_superseded_and_empty(run, repo):
    assert "- (none)" in run("export").stdout
    old = record(run, "totals are floats", "--symbol", "shop/store.py::checksum")
    run("supersede", old, "totals are decimals", "--symbol", "shop/store.py::checksum", "--reason", "cents")
    md = run("export").stdout
    assert "_1 superseded decision(s) are not listed" in md and "totals are decimals" in md


def test_export_import_round_trip_with_receipts(run, history, tmp_path):
    _ids, _ = history
    dump = tmp_path / "decisions.jsonl"
    run("export", "--format", "jsonl", "--output", str(dump))
    lines = dump.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "header"
    assert sum(1 for line in lines if line.startswith('{"type": "decision"')) == 5
    assert sum(1 for line in lines if line.startswith('{"type": "receipt"')) == 6
    assert run("export", "--format", "jsonl").stdout == dump.read_text()  # deterministic

    other = {"MEMVET_LEDGER": str(tmp_path / "other")}
    first = json.loads(run("import", "--trust", str(dump), "--json", extra=other).stdout)
    # the file's 6 receipts, and one of the trust for each decision
    assert len(first["added"]) == 5 and first["receipts_added"] == 6 + 5 and first["conflicts"] == []
    assert first["proposed"] == [] and first["unchecked"] == []
    again = run("import", "--trust", str(dump), extra=other).stdout
    assert again == "0 added, 0 updated, 5 unchanged, 0 kept (local is newer); 0 receipts added\n"
    assert run("export", "--format", "jsonl", extra=other).stdout == dump.read_text()
    receipts = json.loads(run("log", "--json", extra=other).stdout)["receipts"]
    imported = [r for r in receipts if r["action"] != "import"]
    vouched = [r for r in receipts if r["action"] == "import"]
    assert all(r.pop("imported_at") > 0 and r.pop("imported_by") == "Ada Tester" for r in imported)
    assert imported == json.loads(run("log", "--json").stdout)["receipts"]
    assert len(vouched) == 5 and all("imported_at" not in r and r["author_kind"] == "person" for r in vouched)
    assert "imported_at" not in run("log", "--json").stdout  # the ledger's own acts carry no mark
    assert ", imported " in run("log", extra=other).stdout and ", imported " not in run("log").stdout
    assert (statuses(run("check", "--json", code=1, extra=other).stdout)
            == statuses(run("check", "--json", code=1).stdout))
    recalled = json.loads(run("recall", "global lock", "--json", extra=other).stdout)
    assert recalled["history"][0]["text"].startswith("previously tried, rejected: it deadlocked")
    from_stdin = run("import", "-", "--json", extra={"MEMVET_LEDGER": str(tmp_path / "third")},
                     input=dump.read_text())
    assert len(json.loads(from_stdin.stdout)["added"]) == 5
    assert len(json.loads(from_stdin.stdout)["proposed"]) == 5  # without --trust: all proposals


def test_import_brings_forward_keeps_newer_and_reports_conflicts(run, history, tmp_path):
    ids, _ = history
    before = tmp_path / "before.jsonl"
    run("export", "--format", "jsonl", "--output", str(before))
    other = {"MEMVET_LEDGER": str(tmp_path / "other")}
    run("import", "--trust", str(before), extra=other)
    run("reject", ids["habit"], "--reason", "we stopped")
    after = tmp_path / "after.jsonl"
    run("export", "--format", "jsonl", "--output", str(after))
    held = run("import", str(after), extra=other, code=1)  # a later state waits for a person's --trust
    assert f"conflict: decision {ids['habit']}: the file holds a later state of it (lifecycle" in held.stderr
    forward = json.loads(run("import", "--trust", str(after), "--json", extra=other).stdout)
    assert forward["updated"] == [ids["habit"]] and forward["receipts_added"] == 2  # the reject, the trust's
    assert statuses(run("check", "--json", code=1, extra=other).stdout)[ids["habit"]] == "rejected"
    # the old dump into the newer ledger: local is newer, kept, not a conflict
    kept = json.loads(run("import", str(before), "--json").stdout)
    assert kept["kept"] == [ids["habit"]] and kept["conflicts"] == []
    # the same decision changed differently in two places: reported, not overwritten
    run("reject", ids["readme"], "--reason", "rewritten")
    lines = after.read_text().splitlines()
    diverged = [json.dumps({**json.loads(line), "claim": "the readme is two paragraphs"})
                if ids["readme"] in line and '"type": "decision"' in line else line for line in lines]
    diverged.append(json.dumps({"type": "receipt", "id": "r-elsewhere01", "decision_id": ids["readme"],
                                "action": "revalidate", "from": "active", "to": "active", "at": 1.0}))
    clash = tmp_path / "clash.jsonl"
    clash.write_text("\n".join(diverged) + "\n")
    result = run("import", str(clash), code=1)
    assert f"conflict: decision {ids['readme']}: differs from the local record (claim, lifecycle" in result.stderr
    assert statuses(run("check", "--json", code=1).stdout)[ids["readme"]] == "rejected"
    assert "r-elsewhere01" not in run("log", "--json").stdout
    # a receipt whose id is taken by a different receipt
    receipt = next(json.loads(line) for line in lines if '"type": "receipt"' in line)
    its_decision = next(line for line in lines if '"type": "decision"' in line and receipt["decision_id"] in line)
    bad = [lines[0], its_decision, json.dumps({**receipt, "reason": "rewritten history"})]
    clash.write_text("\n".join(bad) + "\n")
    report = json.loads(run("import", str(clash), "--json", code=1).stdout)
    assert report["conflicts"] == [{"id": receipt["id"], "kind": "receipt",
                                    "why": "a different receipt with this id exists"}]


HEADER = '{"type": "header", "memvet": "ledger", "schema": 1}'
DECISION = {"type": "decision", "id": "abc123def456", "claim": "x", "lifecycle": "active"}


@pytest.mark.parametrize(("content", "message"), [
    ("", "empty file; not a MemVet ledger export"),
    ("{not json\n", ":1: not valid JSON"),
    ("[1, 2]\n", ":1: expected a JSON object"),
    (json.dumps(DECISION) + "\n", ":1: not a MemVet ledger export (the first line must be its header)"),
    ('{"type": "header", "memvet": "ledger", "schema": 99}\n', "export schema 99 is not one this version reads"),
    (HEADER + "\n" + json.dumps({**DECISION, "lifecycle": "zombie"}), ":2: invalid decision: 'zombie' is not a valid"),
    (HEADER + "\n" + json.dumps({k: v for k, v in DECISION.items() if k != "lifecycle"}),
     ":2: invalid decision: missing field 'lifecycle'"),
    (HEADER + "\n" + json.dumps({**DECISION, "id": "../../etc"}), "invalid decision id '../../etc'"),
    (HEADER + "\n" + json.dumps({**DECISION, "claim": " "}), "invalid decision: empty claim"),
    (HEADER + "\n" + json.dumps({**DECISION, "claim": 3}), "invalid decision: claim must be a string"),
    (HEADER + "\n" + json.dumps({**DECISION, "created_at": "noon"}), "created_at must be a number"),
    (HEADER + "\n" + json.dumps({**DECISION, "anchors": ["x"]}), "anchors must be a list of objects"),
    (HEADER + "\n" + json.dumps({**DECISION, "tags": [1]}), "tags must be a list of strings"),
    (HEADER + "\n" + json.dumps({**DECISION, "anchors": [{"kind": "wormhole"}]}), "invalid decision"),
    (HEADER + "\n" + json.dumps(DECISION) + "\n" + json.dumps(DECISION),
     ":3: invalid decision: decision abc123def456 appears twice"),
    (HEADER + "\n" + json.dumps({"type": "gossip"}), ":2: invalid record: unknown record type 'gossip'"),
    (HEADER + "\n" + json.dumps({"type": "receipt", "id": "r-1", "decision_id": "nope", "action": "record",
                                 "from": "", "to": "active", "at": 1}),
     "receipt r-1 refers to decision nope, which is neither in the file nor in the ledger"),
    (HEADER + "\n" + json.dumps({"type": "receipt", "id": "", "decision_id": "d", "action": "record"}),
     "invalid receipt id ''"),
    (HEADER + "\n" + 2 * (json.dumps({"type": "receipt", "id": "r-2", "decision_id": "abc123def456",
                                      "action": "record", "from": "", "to": "active", "at": 1}) + "\n")
     + json.dumps(DECISION), "receipt r-2 appears twice"),
])
def test_bad_import_is_one_line_exit_2_and_nothing_written(shared_history, tmp_path, content, message):
    run = shared_history[0]
    before = run("export", "--format", "jsonl").stdout
    source = tmp_path / "bad.jsonl"
    source.write_text(content)
    result = run("import", str(source), code=2)
    assert result.stderr.startswith("memvet: error: ") and result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert run("export", "--format", "jsonl").stdout == before


def test_import_and_export_file_errors(run, history, tmp_path):
    before = run("export", "--format", "jsonl").stdout
    assert run("import", str(tmp_path / "missing.jsonl"), code=2).stderr.endswith("missing.jsonl: no such file\n")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "not UTF-8 text (byte 0)" in run("import", str(binary), code=2).stderr
    long_name = str(tmp_path / ("x" * 300))
    assert run("import", long_name, code=2).stderr.startswith(f"memvet: error: cannot read {long_name}: ")
    assert "is a directory" in run("import", str(tmp_path), code=2).stderr
    nowhere = tmp_path / "no" / "such" / "dir" / "out.md"
    assert run("export", "--output", str(nowhere), code=2).stderr.startswith(f"memvet: error: cannot write {nowhere}")
    mixed = run("export", "--format", "jsonl", "--current-only", code=2)
    assert "--current-only and --at apply to markdown and json, not jsonl" in mixed.stderr
    assert run("export", "--format", "jsonl").stdout == before


def test_export_jsonl_reports_unreadable_records(run, repo, ledger, tmp_path):
    """A record that does not decode is left out of a dump with a warning, never silently."""
    ledger.record("fine", [])
    ledger.store.decisions.add(ids=["broken000001"], documents=["?"], embeddings=ledger.embedder.embed_documents(["?"]),
                               metadatas=[{"schema": 99, "lifecycle": "active"}])
    dump = memvet.export_jsonl(ledger)
    assert dump.decisions == 1 and "broken000001" in dump.skipped[0]


# ===================================================================== configuration


def test_pyproject_defaults(run, history, repo):
    ids, _ = history
    repo.write("pyproject.toml", """
        [project]
        name = "shop"

        [tool.memvet]
        fail-on = "refuted"
        ignore = ["README.md"]
        format = "json"
    """)
    data = json.loads(run("check", code=0).stdout)  # format json, fail-on refuted, README ignored
    assert ids["readme"] not in {d["id"] for d in data["decisions"]} and data["ignored"] == [ids["readme"]]
    run("check", "--fail-on", "stale", code=1)  # the flag wins
    text = run("check", "--format", "text", code=0).stdout
    assert "1 decision left out by [tool.memvet] ignore" in text
    repo.write("pyproject.toml", '[tool.memvet]\nfail-on = ["unanchored"]\nignore = "README.md"\n')
    run("check", code=1)
    assert json.loads(run("check", "--json", code=1).stdout)["ignored"] == [ids["readme"]]


def test_pyproject_thresholds_reach_the_ledger(run, repo):
    repo.write("pyproject.toml", "[tool.memvet]\nsimilarity-threshold = 0.0\nduplicate-threshold = 1.0\n")
    record(run, "orders are appended")
    data = json.loads(run("record", "prices are rounded", "--json").stdout)
    assert data["conflicts"] and "a similar claim" in data["conflicts"][0]["why"]


def test_config_is_found_from_a_subfolder_but_not_outside_the_repo(tmp_path):
    from memvet import find_config

    (tmp_path / "pyproject.toml").write_text('[tool.memvet]\nfail-on = "stale"\n')
    inner = tmp_path / "repo"
    (inner / ".git").mkdir(parents=True)
    (inner / "pkg").mkdir()
    assert find_config(inner / "pkg") == memvet.Config()
    (inner / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert find_config(inner / "pkg").path is None
    (inner / "pkg" / "pyproject.toml").write_text('[tool.memvet]\nfail-on = ["stale", "refuted"]\n')
    found = find_config(inner / "pkg")
    assert found.fail_on == ("stale", "refuted") and found.path == inner / "pkg" / "pyproject.toml"


@pytest.mark.parametrize(("toml", "message"), [
    ("[tool.memvet\n", "not valid TOML"),
    ("[tool]\nmemvet = 3\n", "[tool.memvet]: expected a table"),
    ("[tool.memvet]\nfail_on = 'stale'\n", "unknown key fail_on; known keys: fail-on, ignore"),
    ("[tool.memvet]\nfail-on = 'stale,bogus'\n", "fail-on: unknown status bogus"),
    ("[tool.memvet]\nfail-on = 3\n", "fail-on: expected a list of statuses or a comma-separated string"),
    ("[tool.memvet]\nignore = [1]\n", "ignore: expected a list of path globs"),
    ("[tool.memvet]\nsimilarity-threshold = 2\n", "similarity-threshold: expected a number between 0 and 1, got 2"),
    ("[tool.memvet]\nduplicate-threshold = true\n", "duplicate-threshold: expected a number between 0 and 1"),
    ("[tool.memvet]\nformat = 'xml'\n", "format: expected one of text, json, markdown, github, got 'xml'"),
    ("[tool.memvet]\nagent-writes = 'draft'\n", "agent-writes: expected one of proposed, active, got 'draft'"),
    ("[tool.memvet]\nagent_writes = 1\n", "agent-writes: expected one of proposed, active, got 1"),
    ("[tool.memvet]\nagent_writes = 'active'\nagent-writes = 'active'\n",
     "agent_writes and agent-writes are the same key; keep one"),
])
def test_bad_config_is_one_line_exit_2(run, repo, toml, message):
    repo.write("pyproject.toml", toml)
    result = run("check", code=2)
    assert result.stderr.startswith("memvet: error: ") and result.stderr.count("\n") == 1
    assert message in result.stderr and "pyproject.toml" in result.stderr


def test_load_config_unreadable(tmp_path):
    with pytest.raises(memvet.UsageError, match="cannot read"):
        memvet.load_config(tmp_path)


def test_server_and_token_reach_the_server(run, repo, monkeypatch):
    """--server/MEMVET_SERVER and --token/MEMVET_TOKEN go to Ledger.open; a fake
    server that refuses everything records the bearer token it was sent."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen: list[str] = []

    class Refuse(BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.headers.get("Authorization", ""))
            self.send_response(401)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_POST = do_GET

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Refuse)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        refused = run("--server", url, "--token", "s3cret", "check", code=2)
        assert refused.stderr.startswith("memvet: error: ") and refused.stderr.count("\n") == 1
        # Chroma turns a 401 with an empty body into ValueError(''): the
        # status is found on the exception chain.
        assert f"the ledger server at {url} refused the credentials: HTTP 401" in refused.stderr
        assert "Bearer s3cret" in seen
        seen.clear()
        run("check", code=2, extra={"MEMVET_SERVER": url, "MEMVET_TOKEN": "from-env"})
        assert "Bearer from-env" in seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _free_port(candidates) -> int:
    import socket

    for port in candidates:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise AssertionError("no free port among the candidates")


def test_unreachable_server_is_an_error(run, repo):
    result = run("check", code=2, extra={"MEMVET_SERVER": f"http://127.0.0.1:{_free_port([0])}"})
    assert "unreachable" in result.stderr and result.stderr.count("\n") == 1
    assert "invalid server URL" in run("--server", "ftp://x", "check", code=2).stderr


def test_a_port_that_reads_like_a_status_is_still_unreachable(run, repo):
    # A random port 40125 once made an unreachable server "refuse the
    # credentials": the URL's digits were searched for "401".
    port = _free_port([*range(40100, 40200), *range(40300, 40400), 14010, 14030])
    result = run("check", code=2, extra={"MEMVET_SERVER": f"http://127.0.0.1:{port}"})
    assert "unreachable" in result.stderr and "credentials" not in result.stderr


def test_namespace_from_the_environment(run, repo):
    a = record(run, "in namespace a")
    assert a in run("check", "--json").stdout
    other = run("check", "--json", code=0, extra={"MEMVET_NAMESPACE": "elsewhere"})
    assert json.loads(other.stdout)["decisions"] == []


# ===================================================================== help and completion


COMMANDS = ("record", "check", "recall", "supersede", "reject", "revalidate", "show", "log", "export",
            "import", "repair", "demo", "review", "approve", "decline", "reopen", "resolve", "mcp", "reembed", "init")


def test_every_command_has_help_with_an_example():
    assert set(COMMANDS) == set(cli.commands)
    for command in COMMANDS:
        result = CliRunner().invoke(cli, [command, "--help"])
        assert result.exit_code == 0 and "Example:" in result.output, command
    root = CliRunner().invoke(cli, ["--help"]).output
    assert "Example:" in root and "_MEMVET_COMPLETE=bash_source memvet" in root
    assert "MEMVET_SERVER" in root and "MEMVET_TOKEN" in root


def test_decision_ids_complete(run, history, repo, env, monkeypatch):
    ids, _ = history
    from memvet.cli import _complete_ids

    for key, value in env.items():
        monkeypatch.setenv(key, value)
    ctx = cli.make_context("memvet", [], resilient_parsing=True)
    found = _complete_ids(ctx, cli.commands["show"].params[0], ids["save"][:3])
    assert ids["save"] in [item.value for item in found]
    assert {item.help for item in found if item.value == ids["save"]} == {"save appends a line"}
    nowhere = cli.make_context("memvet", ["--repo", "/"], resilient_parsing=True)
    assert _complete_ids(nowhere, cli.commands["show"].params[0], "") == []


def test_import_writes_inside_the_store_write_lock(ledger, monkeypatch):
    """Import writes through the store's methods, inside its write lock when it has one."""
    import contextlib

    ledger.record("fine", [])
    lines = memvet.export_jsonl(ledger).lines
    other = memvet.Ledger(ledger.git, ledger.store.__class__(ledger.store.client, "elsewhere-ns",
                                                              ledger.embedder.name),
                          ledger.embedder, namespace="elsewhere-ns")
    held: list[str] = []
    outside: list[str] = []
    real_add = other.store.add_decision

    @contextlib.contextmanager
    def writing():
        held.append("in")
        yield
        held.append("out")

    def add_decision(decision, embedding):
        outside.append("write" if held[-1:] == ["in"] else "unlocked write")
        real_add(decision, embedding)

    monkeypatch.setattr(other.store, "writing", writing, raising=False)
    monkeypatch.setattr(other.store, "add_decision", add_decision)
    report = memvet.import_jsonl(other, lines)
    assert len(report.added) == 1 and held == ["in", "out"] and outside == ["write"]
    assert other.decisions()[0].namespace == "elsewhere-ns"
