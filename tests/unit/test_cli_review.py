"""The review workflow on the command line: record --propose, review, approve,
reject, and how proposals show in check, log, show, export and import."""

from __future__ import annotations

import json

import pytest
from _cli import record

pytestmark = pytest.mark.timeout(300)

SAVE = "shop/store.py::OrderStore.save"


def propose(run, *args: str) -> str:
    data = json.loads(run("record", "--propose", *args, "--json").stdout)
    assert data["status"] == "proposed"
    return data["id"]


def statuses(run, *args: str, code: int = 0) -> dict[str, str]:
    return {d["id"]: d["status"] for d in json.loads(run("check", "--json", *args, code=code).stdout)["decisions"]}


def reviewer(repo, name: str = "Bea Reviewer") -> None:
    """Another person at the terminal: the repository's user.name changes."""
    import pygit2

    pygit2.Repository(str(repo.path)).config["user.name"] = name


def test_propose_review_approve_end_to_end(run, repo):
    active = record(run, "checksum is mod 255", "--symbol", "shop/store.py::checksum")
    human = run("record", "--propose", "save appends one JSON line", "--symbol", SAVE)
    prop = human.stdout.strip()
    assert f"proposed, awaiting review: memvet review, then memvet approve {prop}" in human.stderr
    assert statuses(run) == {active: "verified", prop: "proposed"}
    recall = json.loads(run("recall", "save appends", "--json").stdout)
    assert prop in [i["id"] for i in recall["caution"]] and prop not in [i["id"] for i in recall["current"]]

    text = run("review").stdout
    assert text.startswith(f"{prop}  proposed by Ada Tester (person) on ")
    assert "  claim:    save appends one JSON line" in text
    assert "  evidence: verified (its anchor holds)" in text
    assert f"  anchor:   {SAVE}  [holds]" in text
    assert "def save(self, order):" in text  # the anchored code, as it stands
    assert f"memvet approve {prop}" in text and text.rstrip().endswith("1 proposal awaiting review")
    assert "def save" not in run("review", "--no-code").stdout

    data = json.loads(run("review", "--json").stdout)
    assert data["at"] == "worktree" and [p["id"] for p in data["proposals"]] == [prop]
    item = data["proposals"][0]
    assert item["status"] == "proposed" and item["author"] == "Ada Tester" and item["created_at"] > 0
    assert item["anchors"][0]["result"] == "holds" and item["conflicts"] == [] and item["unbound"] == []
    assert item["quotes"] == [] and item["excerpts"][0]["spec"] == SAVE
    assert any("def save(self, order):" in line for line in item["excerpts"][0]["lines"])

    own = run("approve", prop, code=2)  # its proposer is not its reviewer
    assert own.stderr.strip() == (f"memvet: error: Ada Tester proposed {prop} and cannot also approve it: another "
                                  "person reviews a proposal (to make your own claim current, record it without "
                                  "--propose)")
    reviewer(repo)
    done = run("approve", prop, "--reason", "checked save()")
    assert done.stdout.strip() == f"{prop} approved: verified (its anchor holds)"
    assert statuses(run) == {active: "verified", prop: "verified"}
    assert run("review").stdout.strip() == "no proposals awaiting review"
    assert json.loads(run("review", "--json").stdout)["proposals"] == []

    log = run("log").stdout
    assert "propose    → proposed" in log and "approve    proposed → active" in log and "checked save()" in log
    receipts = json.loads(run("log", prop, "--json").stdout)["receipts"]
    assert [(r["action"], r["from"], r["to"]) for r in receipts] == [("propose", "", "proposed"),
                                                                     ("approve", "proposed", "active")]
    assert [(r["author"], r["author_kind"], r["via"]) for r in receipts] == [
        ("Ada Tester", "person", "memvet CLI"), ("Bea Reviewer", "person", "memvet CLI")]
    assert "[Bea Reviewer (person, via memvet CLI) @ " in log


def test_supersede_propose_waits_for_approval(run, repo):
    old = record(run, "save appends", "--symbol", SAVE)
    out = run("supersede", old, "save appends and fsyncs", "--symbol", SAVE, "--reason", "durability",
              "--propose")
    prop = out.stdout.strip()
    assert f"approved, it supersedes {old}" in out.stderr
    assert statuses(run) == {old: "verified", prop: "proposed"}
    shown = run("show", prop).stdout
    assert f"replaces: {old} (on approval)" in shown and "propose" in shown
    review = run("review").stdout
    assert f"  replaces: {old} (on approval): durability" in review
    assert "conflict:" not in review  # what it supersedes is no conflict of it
    reviewer(repo)
    data = json.loads(run("approve", prop, "--json").stdout)
    assert data == {"id": prop, "lifecycle": "active", "supersedes": old, "status": "verified",
                    "reason": "its anchor holds"}
    assert statuses(run) == {old: "superseded", prop: "verified"}
    log = run("log").stdout
    assert f"by {prop}: durability" in log and f"with {old}" in log


def test_review_shows_conflicts_quotes_and_unbound_terms(run, repo, env):
    import dataclasses

    import memvet

    active = record(run, "save appends", "--symbol", SAVE)
    prop = propose(run, "save writes a temp file", "--symbol", SAVE)
    review = run("review").stdout
    assert f"  conflict: {active} [verified] save appends — shares anchor" in review
    assert json.loads(run("review", "--json").stdout)["proposals"][0]["conflicts"][0]["id"] == active
    # Quotes and unbound terms come from the write path; here they are written directly.
    ledger = memvet.Ledger.open(repo.path, path=env["MEMVET_LEDGER"], embedding=memvet.HashingEmbedder())
    stored = ledger.get(prop)
    quoted = dataclasses.replace(stored.anchors[0], quote='open(self.path, "a")')
    with ledger.store.writing():
        ledger.store.replace_decision(stored.evolve(anchors=(quoted,), unbound=("tempfile",)))
    review = run("review").stdout
    assert '    quote:  open(self.path, "a")' in review
    assert "  unbound:  tempfile (declared as not in the anchored code)" in review
    item = json.loads(run("review", "--json").stdout)["proposals"][0]
    assert item["quotes"] == [{"spec": SAVE, "quote": 'open(self.path, "a")'}] and item["unbound"] == ["tempfile"]
    repo.replace("shop/store.py", "return True", "return False")  # the quoted line holds: still verified
    assert "  evidence: verified (" in run("review").stdout
    repo.replace("shop/store.py", 'open(self.path, "a")', 'open(self.path, "w")')
    stale = run("review").stdout
    assert "  evidence: stale (" in stale and "changed since recorded:" in stale
    assert prop in stale


def test_approve_and_reject_errors_are_one_line_exit_2(run):
    active = record(run, "save appends", "--symbol", SAVE)
    for args, message in (
        (("approve", "nope0000"), "no decision 'nope0000'"),
        (("approve", active), f"decision {active} is active, not a proposal; only a proposal can be approved"),
    ):
        bad = run(*args, code=2)
        assert bad.stderr.startswith("memvet: error: ") and bad.stderr.count("\n") == 1 and message in bad.stderr
    prop = propose(run, "checksum is mod 255", "--symbol", "shop/store.py::checksum")
    rejected = json.loads(run("reject", prop, "--reason", "it is mod 256", "--json").stdout)
    assert rejected == {"id": prop, "status": "rejected", "reason": "it is mod 256"}
    assert statuses(run) == {active: "verified", prop: "rejected"}
    again = run("approve", prop, code=2)
    assert "is rejected, not a proposal" in again.stderr
    revalidate = run("revalidate", propose(run, "a habit"), "--reason", "r", code=2)
    assert "is a proposal, not yet reviewed; approve it first" in revalidate.stderr


def test_check_gates_on_proposals_only_when_asked(run, repo):
    prop = propose(run, "save appends", "--symbol", SAVE)
    run("check", code=0)
    run("check", "--fail-on", "proposed", code=1)
    repo.write("pyproject.toml", '[tool.memvet]\nfail-on = ["stale", "proposed"]\n')
    run("check", code=1)
    text = run("check", "--fail-on", "stale", code=0).stdout
    assert f"proposed            {prop}" in text and "not yet reviewed; its evidence: verified" in text


def test_a_proposal_duplicated_confirms_it(run):
    prop = propose(run, "save appends", "--symbol", SAVE)
    again = run("record", "--propose", "save appends", "--symbol", SAVE)
    assert again.stdout.strip() == prop and "confirmed an existing proposal (1 confirmations)" in again.stderr
    assert "proposed again 1 time" in run("review").stdout


def test_export_marks_proposals_and_import_round_trips_them(run, repo, tmp_path):
    active = record(run, "checksum is mod 255", "--symbol", "shop/store.py::checksum")
    prop = propose(run, "save appends one JSON line", "--symbol", SAVE)
    md = run("export").stdout
    assert "## Proposed, not yet reviewed" in md
    head, _, proposed = md.partition("## Proposed, not yet reviewed")
    assert prop not in head and active in head
    assert f"- **proposed** [`{prop}`]: save appends one JSON line" in proposed
    assert "Evidence: verified (its anchor holds)" in proposed
    data = json.loads(run("export", "--format", "json").stdout)
    assert [v["id"] for v in data["proposed"]] == [prop] and data["proposed"][0]["status"] == "proposed"
    assert [v["id"] for v in data["verified"]] == [active]
    narrow = run("export", "--current-only").stdout
    assert prop not in narrow and "1 drifted, proposed or rejected decision(s) were left out" in narrow

    dump = tmp_path / "decisions.jsonl"
    run("export", "--format", "jsonl", "--output", str(dump))
    lines = [json.loads(line) for line in dump.read_text().splitlines()]
    assert any(d.get("id") == prop and d.get("lifecycle") == "proposed" for d in lines)
    other = {"MEMVET_LEDGER": str(tmp_path / "other")}
    assert json.loads(run("import", "--trust", str(dump), "--json", extra=other).stdout)["added"] == [active, prop]
    moved = json.loads(run("check", "--json", extra=other).stdout)["decisions"]
    assert {d["id"]: d["status"] for d in moved} == {active: "verified", prop: "proposed"}
    # Approved here, then exported again: the other ledger brings the proposal
    # forward when a person vouches for the file, and only then.
    reviewer(repo)
    run("approve", prop)
    run("export", "--format", "jsonl", "--output", str(dump))
    held = json.loads(run("import", str(dump), "--json", extra=other, code=1).stdout)
    assert [c["id"] for c in held["conflicts"]] == [prop] and "--trust" in held["conflicts"][0]["why"]
    report = json.loads(run("import", "--trust", str(dump), "--json", extra=other).stdout)
    assert report["updated"] == [prop] and report["conflicts"] == []
    moved = json.loads(run("check", "--json", extra=other).stdout)["decisions"]
    assert {d["id"]: d["status"] for d in moved} == {active: "verified", prop: "verified"}
    assert "approve" in run("log", prop, extra=other).stdout


def test_agent_writes_config_does_not_change_what_the_cli_writes(run, repo):
    repo.write("pyproject.toml", '[tool.memvet]\nagent-writes = "proposed"\n')
    data = json.loads(run("record", "save appends", "--symbol", SAVE, "--json").stdout)
    assert data["status"] == "recorded"  # a person at the command line writes active decisions


def _as_agent(repo, env):
    import memvet

    return memvet.Ledger.open(repo.path, path=env["MEMVET_LEDGER"], embedding=memvet.HashingEmbedder())


def test_an_agents_request_is_reviewed_approved_or_declined_on_the_command_line(run, repo, env):
    import memvet

    kept = record(run, "save appends one JSON line", "--symbol", SAVE)
    other = record(run, "checksum is mod 255", "--symbol", "shop/store.py::checksum")
    agent = memvet.Author.agent("claude-code")
    ledger = _as_agent(repo, env)
    ledger.reject(kept, reason="save was rewritten", author=agent)
    ledger.reject(other, reason="checksum moved", author=agent)
    assert statuses(run) == {kept: "needs_revalidation", other: "needs_revalidation"}

    text = run("review", "--no-code").stdout
    assert f"{kept}  claude-code (agent) asks to reject it" in text
    assert "  claim:    save appends one JSON line  (by Ada Tester (person))" in text
    assert "  reason:   save was rewritten" in text and "  now:      verified (its anchor holds)" in text
    assert f"memvet decline {kept} --reason R" in text
    assert text.rstrip().endswith("no proposals awaiting review; 2 request(s) to retire a decision")
    asked = json.loads(run("review", "--json").stdout)["requests"]
    assert [(r["id"], r["request"]["by"], r["request"]["reason"]) for r in asked] == [
        (kept, "claude-code", "save was rewritten"), (other, "claude-code", "checksum moved")]
    assert "request:  claude-code (agent) asks to reject it: save was rewritten" in run("show", kept).stdout

    done = run("approve", kept, "--reason", "read the diff")
    assert done.stdout.strip() == f"{kept} rejected, as the agent asked: save was rewritten"
    declined = run("decline", other, "--reason", "it is still mod 255")
    assert declined.stdout.strip() == f"{other} declined; it is verified (its anchor holds)"
    assert statuses(run) == {kept: "rejected", other: "verified"}
    log = run("log").stdout
    assert "propose-retire" in log and "[claude-code (agent) @ " in log
    assert "decline" in log and "[Ada Tester (person, via memvet CLI) @ " in log
    bad = run("decline", other, "--reason", "again", "--json", code=2).stderr
    assert bad == (f"memvet: error: decision {other} is active with no open request to retire it; nothing to "
                   "decline\n")

    back = run("reopen", kept, "--reason", "the agent was wrong")
    assert back.stdout.strip() == f"{kept} reopened: verified (its anchor holds)"
    assert run("reopen", kept, "--reason", "x", "--json", code=2).stderr == (
        f"memvet: error: decision {kept} is active; only a rejected decision can be reopened\n")
    run("reject", kept, "--reason", "really")
    assert json.loads(run("reopen", kept, "--reason", "y", "--json").stdout) == {
        "id": kept, "lifecycle": "active", "status": "verified", "reason": "its anchor holds"}


def test_decline_json_and_an_agents_supersede_on_the_command_line(run, repo, env):
    import memvet

    old = record(run, "save appends one JSON line", "--symbol", SAVE)
    new = _as_agent(repo, env).supersede(old, "save writes SQLite", [SAVE], reason="rewritten",
                                         author=memvet.Author.agent("cursor")).id
    text = run("review", "--no-code").stdout
    assert f"{old}  cursor (agent) asks to supersede it with {new}" in text
    assert f"{new}  proposed by cursor (agent) on " in text
    assert text.rstrip().endswith("1 proposal awaiting review; 1 request(s) to retire a decision")
    assert json.loads(run("decline", old, "--reason", "still appends", "--json").stdout) == {
        "id": old, "lifecycle": "active", "status": "verified", "reason": "its anchor holds"}
    assert statuses(run) == {old: "verified", new: "rejected"}
