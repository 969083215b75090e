"""memvet.audit on real repositories: status tables, the history walk, first
drift with diffs, supersede/reject chains, revalidation age, the reversed
decision audit, and the optional pandas frame."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import timedelta

import pygit2
import pytest

import memvet
from memvet import Status, audit
from memvet.audit import _Positions

SAVE = "shop/store.py::OrderStore.save"
LOAD = "shop/store.py::OrderStore.load"


def rewrite_save(repo, message="truncate instead of append"):
    repo.replace("shop/store.py", 'open(self.path, "a")', 'open(self.path, "w")')
    return repo.commit(message)


def touch_readme(repo, n):
    repo.write("README.md", f"# Shop\n\nnote {n}\n")
    return repo.commit(f"readme {n}")


# ------------------------------------------------------------------ status


def test_status_table_has_one_row_per_decision_with_status_and_reason(repo, ledger):
    saved = ledger.record("Orders are appended as JSON lines", [SAVE], tags=["storage"]).id
    loose = ledger.record("The team prefers small pull requests").id
    rewrite_save(repo)
    rows = {r.id: r for r in audit.status_table(ledger)}
    assert rows[saved].status == "stale"
    assert rows[saved].group == "caution"
    assert rows[saved].anchors == (SAVE,)
    assert rows[saved].tags == ("storage",)
    assert "changed" in rows[saved].reason
    assert rows[loose].status == "unanchored"
    # Another target, another answer: the recorded commit still verifies it.
    first = repo.git("rev-list", "--max-parents=0", "HEAD")
    assert {r.id: r.status for r in audit.status_table(ledger, at=first)}[saved] == "verified"


def test_summary_counts_each_tag_and_every_decision_once_under_all(repo, ledger):
    ledger.record("Orders are appended as JSON lines", [SAVE], tags=["storage", "orders"])
    ledger.record("Orders load from the same file", [LOAD], tags=["storage"])
    ledger.record("The team prefers small pull requests")
    counts = {(c.tag, c.status): c.count for c in audit.status_summary(ledger)}
    assert counts == {
        ("(all)", "verified"): 2, ("(all)", "unanchored"): 1,
        ("storage", "verified"): 2, ("orders", "verified"): 1, ("(untagged)", "unanchored"): 1,
    }
    summary = audit.status_summary(ledger)
    assert summary[0].tag == "(all)" and summary[0].status == "verified"  # (all) first, best status first


# ------------------------------------------------------------------ history walk


def test_first_parent_commits_are_oldest_first_and_skip_merged_branches(repo, ledger):
    base = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "feature")
    side = touch_readme(repo, "side")
    repo.git("checkout", "-q", "main")
    repo.write("NOTES.md", "notes\n")
    main_tip = repo.commit("notes on main")
    repo.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
    rows = audit.first_parent_commits(ledger, last=10)
    assert [r.sha for r in rows[:2]] == [base, main_tip]
    assert side not in {r.sha for r in rows}
    assert rows[-1].summary == "merge feature"
    assert [r.index for r in rows] == [0, 1, 2]
    assert rows[0].short == base[:8]
    assert [r.sha for r in audit.first_parent_commits(ledger, last=1)] == [rows[-1].sha]


def test_walks_refuse_a_bad_count_or_revision(ledger):
    with pytest.raises(memvet.UsageError):
        audit.first_parent_commits(ledger, last=0)
    with pytest.raises(memvet.UsageError):
        audit.timeline(ledger, last=0)
    with pytest.raises(memvet.UnknownRevisionError):
        audit.timeline(ledger, at="no-such-branch")


def test_timeline_shows_when_each_decision_changed(repo, ledger):
    first = repo.git("rev-parse", "HEAD")
    touch_readme(repo, 1)
    saved = ledger.record("Orders are appended as JSON lines", [SAVE], at="HEAD").id
    loaded = ledger.record("Orders load line by line", [LOAD], at="HEAD").id
    rewrite = rewrite_save(repo)
    touch_readme(repo, 2)
    seen = []

    def progress(items):
        seen.append(len(items))
        return items

    started = time.perf_counter()
    tl = audit.timeline(ledger, last=50, progress=progress)
    took = time.perf_counter() - started
    assert seen == [4]
    assert tl.commits[0].sha == first and tl.commits[2].sha == rewrite
    assert tl.target == tl.commits[-1].sha
    assert [d.id for d in tl.decisions] == [saved, loaded]
    grid = tl.grid()
    # Blank before it was recorded, verified until the rewrite, stale after.
    assert grid[0] == ["", "verified", "stale", "stale"]
    assert grid[1] == ["", "verified", "verified", "verified"]
    cell = next(c for c in tl.cells if c.decision_id == saved and c.commit == rewrite)
    assert cell.status == "stale" and "changed" in cell.reason and cell.index == 2
    assert 0 < tl.seconds <= took  # the time of this call, measured inside it


def test_timeline_reuses_the_content_addressed_cache(repo, ledger):
    ledger.record("Orders are appended as JSON lines", [SAVE])
    ledger.record("Orders load line by line", [LOAD])
    rewrite_save(repo)
    for n in range(5):
        touch_readme(repo, n)  # store.py keeps one blob across these commits
    tl = audit.timeline(ledger)
    assert tl.parses == 1  # only the rewritten blob of store.py was parsed, once
    assert audit.timeline(ledger).parses == 0


def test_timeline_applies_a_rejection_from_the_commit_of_its_receipt(repo, ledger):
    lock = ledger.record("Wrap every save in a global lock", [SAVE]).id
    touch_readme(repo, 1)
    ledger.reject(lock, reason="it deadlocked")
    touch_readme(repo, 2)
    grid = audit.timeline(ledger).grid()
    assert grid[0] == ["verified", "rejected", "rejected"]


def test_timeline_applies_a_supersede_from_the_commit_it_was_recorded_at(repo, ledger):
    old = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    rewrite_save(repo)
    new = ledger.supersede(old, "Orders overwrite the file", [SAVE], reason="one order per file",
                           at="HEAD").id
    touch_readme(repo, 1)
    tl = audit.timeline(ledger)
    rows = dict(zip([d.id for d in tl.decisions], tl.grid(), strict=True))
    assert rows[old] == ["verified", "superseded", "superseded"]
    assert rows[new] == ["", "verified", "verified"]


def test_timeline_uses_the_successor_commit_when_a_supersede_receipt_is_missing(repo, ledger):
    old = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    rewrite_save(repo)
    new = ledger.supersede(old, "Orders overwrite the file", [SAVE], reason="one order per file",
                           at="HEAD").id
    # The crash the design allows for: the old decision's receipt never landed.
    receipt = next(r for r in ledger.history(old) if r.action == "supersede")
    ledger.store.receipts.delete(ids=[receipt.id])
    tl = audit.timeline(ledger)
    rows = dict(zip([d.id for d in tl.decisions], tl.grid(), strict=True))
    assert rows[old] == ["verified", "superseded"]
    assert rows[new] == ["", "verified"]


def test_timeline_shows_a_proposal_until_the_commit_of_its_approval(repo, ledger):
    load = ledger.record("Orders load line by line", [LOAD], proposed=True).id
    old = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    new = ledger.supersede(old, "Orders are appended and fsynced", [SAVE], reason="durability",
                           proposed=True).id
    turned_down = ledger.record("Orders are kept in memory", proposed=True).id
    touch_readme(repo, 1)
    ledger.approve(load, author="Rev")
    ledger.approve(new, author="Rev")
    touch_readme(repo, 2)
    ledger.reject(turned_down, reason="they must survive a restart")
    pending = ledger.record("Orders are never deleted", [SAVE], proposed=True).id
    tl = audit.timeline(ledger)
    rows = dict(zip([d.id for d in tl.decisions], tl.grid(), strict=True))
    assert rows[load] == ["proposed", "verified", "verified"]
    assert rows[old] == ["verified", "superseded", "superseded"]
    assert rows[new] == ["proposed", "verified", "verified"]
    assert rows[turned_down] == ["proposed", "proposed", "rejected"]
    assert rows[pending] == ["", "", "proposed"]  # recorded at the last commit
    # A proposal is no successor and no reversal: only the approved supersede makes a chain.
    assert [[link.id for link in ch.links] for ch in audit.chains(ledger)] == [[old, new], [turned_down]]


def test_timeline_judges_expiry_at_each_commit_time(repo, ledger):
    first_time = pygit2.Repository(str(repo.path)).head.peel(pygit2.Commit).commit_time
    ledger.record("Orders are appended as JSON lines", [SAVE], expires_at=first_time + 30)
    touch_readme(repo, 1)  # RepoBuilder commits are seconds apart
    for n in range(2, 40):
        repo.git("commit", "-q", "--allow-empty", "-m", f"tick {n}")
    row = audit.timeline(ledger).grid()[0]
    assert row[0] == "verified"
    assert row[-1] == "needs_revalidation"


def test_positions_place_commits_on_and_off_the_walked_chain(repo):
    older = repo.git("rev-parse", "HEAD")
    window_start = touch_readme(repo, 1)
    repo.git("checkout", "-q", "-b", "feature")
    side = touch_readme(repo, "side")
    repo.git("checkout", "-q", "main")
    repo.write("NOTES.md", "notes\n")
    before_merge = repo.commit("notes")
    repo.git("merge", "-q", "--no-ff", "-m", "merge", "feature")
    repo.git("checkout", "-q", "-b", "elsewhere", older)
    unmerged = touch_readme(repo, "unmerged")
    repo.git("checkout", "-q", "main")
    git = pygit2.Repository(str(repo.path))
    chain = [git.get(window_start), git.get(before_merge), git.head.peel(pygit2.Commit)]
    pos = _Positions(git, chain)
    assert pos.of(before_merge) == 1.0
    assert pos.of(older) == -1.0  # before the window: everything in it descends from it
    assert pos.of(side) == 1.5  # merged in by the third commit
    assert pos.of(side) == 1.5  # memoised
    assert pos.of(unmerged) == float("inf")  # nothing in the window descends from it
    assert pos.of("") is None
    assert pos.of("not-a-sha") is None  # ValueError from pygit2
    blob = str(git.head.peel(pygit2.Commit).tree["README.md"].id)
    assert pos.of(blob) is None  # an object, but not a commit
    assert pos.of("0" * 40) is None  # well formed, not in the object database


# ------------------------------------------------------------------ drift


def test_drift_finds_the_first_commit_that_changed_a_symbol_with_its_diff(repo, ledger):
    saved = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    ledger.record("Orders load line by line", [LOAD])
    recorded = repo.git("rev-parse", "HEAD")
    touch_readme(repo, 1)
    rewrite = rewrite_save(repo)
    repo.replace("shop/store.py", "return True", "return False")
    repo.commit("and another change")
    rows = audit.drift(ledger)
    assert [r.id for r in rows] == [saved]
    row = rows[0]
    assert (row.status, row.recorded_commit, row.first_commit) == ("stale", recorded, rewrite)
    assert row.first_summary == "truncate instead of append"
    assert row.first_status == "stale" and row.commits_walked == 2 and row.note == ""
    assert row.first_time > 0
    (diff,) = row.diffs
    assert (diff.spec, diff.kind, diff.result) == (SAVE, "symbol", "changed")
    assert f"--- {SAVE} @ {recorded[:8]}" in diff.diff
    assert f"+++ {SAVE} @ {rewrite[:8]}" in diff.diff
    assert '-        with open(self.path, "a") as handle:' in diff.diff
    assert '+        with open(self.path, "w") as handle:' in diff.diff
    assert "return False" not in diff.diff  # the diff is at the first change, not at HEAD


def test_drift_diffs_a_deleted_symbol_and_follows_a_move(repo, ledger):
    gone = ledger.record("A checksum guards each record", ["shop/store.py::checksum"]).id
    moved = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    text = repo.read("shop/store.py")
    repo.write("shop/store.py", text.split("\n\ndef checksum")[0] + "\n", dedent=False)
    deleted = repo.commit("drop checksum")
    repo.move("shop/store.py", "shop/storage.py")
    repo.replace("shop/storage.py", "return True", "return None")
    renamed = repo.commit("rename the module and change save")
    rows = {r.id: r for r in audit.drift(ledger)}
    assert rows[gone].status == "refuted" and rows[gone].first_commit == deleted
    assert rows[gone].diffs[0].result == "missing"
    lines = rows[gone].diffs[0].diff.splitlines()
    assert "-def checksum(data):" in lines
    assert not [line for line in lines[2:] if line.startswith("+")]  # only removals
    assert rows[moved].first_commit == renamed
    (diff,) = rows[moved].diffs
    assert diff.result == "moved"
    assert f"+++ shop/storage.py::OrderStore.save @ {renamed[:8]}" in diff.diff
    assert "+        return None" in diff.diff


def test_drift_diffs_a_whole_file_and_skips_bodiless_anchors(repo, ledger):
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = ["requests>=2"]\n')
    repo.commit("manifest")
    readme = ledger.record("The README says what the shop is", ["README.md"]).id
    http = ledger.record("HTTP goes through requests", ["dep:requests"]).id
    repo.write("README.md", "# Shop\n\nA bigger sample.\n")
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = []\n')
    changed = repo.commit("both change")
    rows = {r.id: r for r in audit.drift(ledger)}
    assert rows[readme].first_commit == changed
    assert "-A sample." in rows[readme].diffs[0].diff and "+A bigger sample." in rows[readme].diffs[0].diff
    assert rows[http].status == "refuted"
    assert rows[http].diffs[0].kind == "dependency" and rows[http].diffs[0].diff == ""


def test_drift_reports_a_binary_file_without_a_diff(repo, ledger):
    repo.write_bytes("logo.bin", b"\x89PNG\x00\xff\xfe")
    repo.commit("logo")
    logo = ledger.record("The logo stays as shipped", ["logo.bin"]).id
    repo.write_bytes("logo.bin", b"\x89PNG\x00\xff\xfd")
    repo.commit("new logo")
    (row,) = [r for r in audit.drift(ledger) if r.id == logo]
    assert row.diffs[0].diff == "(logo.bin: not text; no diff)"


def test_drift_ignores_verified_unanchored_and_reversed_decisions(repo, ledger):
    ledger.record("Orders load line by line", [LOAD])
    ledger.record("The team prefers small pull requests")
    lock = ledger.record("Wrap every save in a global lock", [SAVE]).id
    ledger.reject(lock, reason="it deadlocked")
    rewrite_save(repo)
    assert audit.drift(ledger) == []
    assert [r.id for r in audit.drift(ledger, statuses=[Status.VERIFIED])] != []


def test_drift_when_the_recorded_commit_is_gone(repo, ledger):
    saved = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    decision = ledger.get(saved)
    ledger.store.replace_decision(decision.evolve(commit="f" * 40))  # a rewritten history
    rewrite_save(repo)
    (row,) = audit.drift(ledger)
    assert row.status == "stale" and row.first_commit == "" and row.diffs == ()
    assert "is not in this repository" in row.note


def test_drift_for_a_decision_recorded_on_a_merged_branch(repo, ledger):
    repo.git("checkout", "-q", "-b", "feature")
    touch_readme(repo, "feature")
    saved = ledger.record("Orders are appended as JSON lines", [SAVE], at="HEAD").id
    repo.git("checkout", "-q", "main")
    repo.write("NOTES.md", "notes\n")
    repo.commit("notes on main")
    repo.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
    rewrite = rewrite_save(repo)
    (row,) = audit.drift(ledger)
    assert row.id == saved and row.first_commit == rewrite
    assert row.commits_walked == 2  # the merge, then the rewrite; main's own commit is not after it


def test_drift_for_a_decision_recorded_on_a_branch_never_merged(repo, ledger):
    repo.git("checkout", "-q", "-b", "feature")
    repo.replace("shop/store.py", "return True", "return 1")
    repo.commit("feature changes save")
    ledger.record("save returns 1", [SAVE], at="HEAD")
    repo.git("checkout", "-q", "main")
    (row,) = audit.drift(ledger)
    assert row.status == "stale" and row.first_commit == ""
    assert "is not behind the target" in row.note


def test_drift_only_in_the_working_tree_or_by_expiry(repo, ledger):
    saved = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    touch_readme(repo, 1)
    repo.replace("shop/store.py", 'open(self.path, "a")', 'open(self.path, "w")')  # not committed
    (row,) = audit.drift(ledger, at=None)
    assert row.id == saved and row.first_commit == "" and row.commits_walked == 1
    assert "working tree or due to expiry" in row.note
    assert audit.drift(ledger, at="HEAD") == []


# ------------------------------------------------------------------ lifecycle


def test_chains_follow_supersedes_and_keep_lone_rejections(repo, ledger):
    a = ledger.record("Totals use floats", [SAVE], tags=["pricing"]).id
    b = ledger.supersede(a, "Totals use Decimal", [SAVE], reason="floats lost cents").id
    c = ledger.supersede(b, "Totals use integer cents", [SAVE], reason="Decimal was slow").id
    lock = ledger.record("Wrap every save in a global lock").id
    ledger.reject(lock, reason="it deadlocked")
    ledger.record("Orders load line by line", [LOAD])  # never reversed: no chain
    found = audit.chains(ledger)
    assert [[link.id for link in ch.links] for ch in found] == [[a, b, c], [lock]]
    first, second = found
    assert [link.lifecycle for link in first.links] == ["superseded", "superseded", "active"]
    assert [link.reason for link in first.links] == ["floats lost cents", "Decimal was slow", ""]
    assert first.head.id == c and first.status == "verified"
    assert first.links[0].resolved_at > 0 and first.head.resolved_at == 0
    assert second.status == "rejected" and second.head.reason == "it deadlocked"


def test_not_revalidated_uses_the_newest_receipt(repo, open_ledger, clock):
    ledger = open_ledger(clock=clock)
    old = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    fresh = ledger.record("Orders load line by line", [LOAD]).id
    gone = ledger.record("Wrap every save in a global lock").id
    ledger.reject(gone, reason="it deadlocked")
    clock.advance(0.2)
    ledger.revalidate(fresh, reason="still true")
    revalidated_at = ledger.history(fresh)[-1].at
    assert revalidated_at == clock()  # receipts carry the ledger's clock
    assert audit.not_revalidated(ledger) == []  # by the ledger's clock, nothing is old
    clock.advance(86400 - 0.1)  # a day and 0.1 s after the records, 0.1 s short of a day after revalidating
    assert [r.id for r in audit.not_revalidated(ledger, 1)] == [old]
    rows = audit.not_revalidated(ledger, timedelta(days=30), now=revalidated_at + 30 * 86400 - 0.1)
    assert [r.id for r in rows] == [old]  # fresh is 0.1 s short of 30 days; rejected never counts
    assert rows[0].last_action == "record" and rows[0].age_days > 30
    both = audit.not_revalidated(ledger, 30, now=revalidated_at + 31 * 86400)  # days as a number
    assert [r.id for r in both] == [old, fresh]
    assert both[1].last_action == "revalidate" and both[1].status == "verified"


def test_not_revalidated_falls_back_to_the_creation_time(repo, ledger):
    saved = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    ledger.store.receipts.delete(ids=[r.id for r in ledger.history(saved)])
    created = ledger.get(saved).created_at
    (row,) = audit.not_revalidated(ledger, 1, now=created + 2 * 86400)
    assert row.last_action == "record" and row.last_at == created
    assert row.age_days == pytest.approx(2)


def test_reversal_audit_recalls_reversed_decisions_only_as_history(repo, ledger):
    floats = ledger.record("Order totals are computed with floats", [SAVE]).id
    decimal = ledger.supersede(floats, "Order totals are computed with Decimal", [SAVE],
                               reason="floats lost cents").id
    lock = ledger.record("Wrap every order save in a global process lock").id
    ledger.reject(lock, reason="it deadlocked")
    ledger.record("Orders load line by line", [LOAD])
    rows = {r.id: r for r in audit.reversal_audit(ledger, k=5)}
    assert set(rows) == {floats, lock}
    assert rows[floats].returned_in == "history" and rows[floats].only_history
    assert rows[floats].rank == 1  # its own claim is the nearest
    assert rows[floats].successor == decimal and rows[floats].successor_in == "current"
    assert rows[floats].text.startswith(f"superseded by {decimal}")
    assert rows[lock].status == "rejected" and rows[lock].text.startswith("previously tried, rejected")
    assert rows[lock].successor == "" and rows[lock].successor_in == ""
    # k=0 recalls nothing: the audit reports it as not returned, which fails the check.
    empty = audit.reversal_audit(ledger, k=0)
    assert all(r.returned_in == "" and r.rank == 0 and not r.only_history for r in empty)


# ------------------------------------------------------------------ frames


def test_to_frame_flattens_tuples(repo, ledger):
    pd = pytest.importorskip("pandas")
    ledger.record("Orders are appended as JSON lines", [SAVE, LOAD], tags=["a", "b"])
    frame = audit.to_frame(audit.status_table(ledger))
    assert isinstance(frame, pd.DataFrame)
    assert frame.loc[0, "anchors"] == f"{SAVE}, {LOAD}" and frame.loc[0, "tags"] == "a, b"
    assert list(audit.to_frame([{"x": 1}])["x"]) == [1]


def test_to_frame_without_pandas_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(ImportError, match=r"memvet\[notebooks\]"):
        audit.to_frame([])


def test_the_module_does_not_import_pandas():
    code = "import sys, memvet.audit; print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_audit_shows_who_wrote_each_decision(repo, ledger):
    mine = ledger.record("Orders are appended as JSON lines", [SAVE]).id
    theirs = ledger.record("Orders load line by line " + "and are parsed one by one" * 3, [LOAD],
                           author=memvet.Author.agent("claude-code")).id
    ledger.reject(mine, reason="wrong", author="Rev")
    labels = dict(zip([d.id for d in audit.timeline(ledger).decisions], audit.timeline(ledger).labels(), strict=True))
    assert labels[mine] == f"{mine[:6]} [person] Orders are appended as JSON lines"
    assert labels[theirs].startswith(f"{theirs[:6]} [agent] Orders load line by line") and labels[theirs].endswith("…")
    kinds = {row.id: row.author_kind for row in audit.status_table(ledger)}
    assert kinds == {mine: "person", theirs: "agent"}
    assert [(link.id, link.author_kind) for c in audit.chains(ledger) for link in c.links] == [(mine, "person")]
