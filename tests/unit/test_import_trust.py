"""Import believes nothing it cannot check (issue 29).

A file says what it likes about lifecycles, receipts and hashes. Without
``--trust`` every decision the ledger does not hold identically enters as
a proposal and nothing the ledger holds changes; with it, the importing
person vouches for the file, the lifecycles its receipts support are kept
(each with an ``import`` receipt by that person) and one they do not
support refuses the whole import. Either way, hashes and bindings are
worked out again from the code each decision was recorded on.

Each forgery of the issue has its test: a proposal flipped to active with a
hand-written approval, an active decision without receipts, an update whose
fabricated revalidation swaps anchors, hashes kept beside a claim bound at
the file's commit. Real git repositories, real Chroma.
"""

from __future__ import annotations

import json

import pytest
from _cli import record

import memvet
from memvet import Author, Lifecycle, Status
from memvet._exchange import agent_context, export_jsonl, import_jsonl

CHECKSUM = "shop/store.py::checksum"
SAVE = "shop/store.py::OrderStore.save"
FOREIGN_COMMIT = "f" * 40
FOREIGN_BLOB = "e" * 40


def _records(ledger: memvet.Ledger) -> list[dict]:
    return [json.loads(line) for line in export_jsonl(ledger).lines]


def _lines(records: list[dict]) -> list[str]:
    return [json.dumps(r) for r in records]


def _one(records: list[dict], decision_id: str) -> dict:
    return next(r for r in records if r.get("type") == "decision" and r["id"] == decision_id)


def _receipt(decision_id: str, action: str, before: str, after: str, at: float, **fields) -> dict:
    return {"type": "receipt", "id": f"r-{action}{int(at) % 10**6:06d}", "decision_id": decision_id,
            "action": action, "from": before, "to": after, "at": at, "author": "Bea Reviewer",
            "author_kind": "person", **fields}


def _imports(ledger: memvet.Ledger, decision_id: str) -> list[memvet.Receipt]:
    return [r for r in ledger.history(decision_id) if r.action == "import"]


# ===================================================================== the forgeries of the issue


def test_a_proposal_flipped_to_active_with_a_hand_written_approval_enters_as_a_proposal(open_ledger):
    source = open_ledger()
    proposal = source.record("save appends one JSON line", [SAVE], proposed=True).decision
    records = _records(source)
    _one(records, proposal.id)["lifecycle"] = "active"
    records.append(_receipt(proposal.id, "approve", "proposed", "active", proposal.created_at + 1))
    forged = _lines(records)

    target = open_ledger()
    report = import_jsonl(target, forged, source="forged.jsonl")
    assert report.added == (proposal.id,) and report.proposed == (proposal.id,)
    assert target.get(proposal.id).lifecycle is Lifecycle.PROPOSED
    assert target.verify(proposal.id).status is Status.PROPOSED
    recalled = target.recall("save appends one JSON line")
    assert proposal.id not in [i.decision.id for i in recalled.current]
    history = {r.action: r for r in target.history(proposal.id)}
    assert set(history) == {"propose", "approve", "import"}
    assert history["approve"].imported and history["approve"].author == "Bea Reviewer"  # the file's word, marked
    mark = history["import"]
    assert (mark.author, mark.author_kind, mark.imported) == ("Ada Tester", "person", False)
    assert (mark.from_lifecycle, mark.to_lifecycle) == ("", "proposed")
    assert mark.reason.startswith("imported from forged.jsonl as a proposal (the file says active): without --trust")

    # A person who vouches for the file gets what it says, and the receipt says who vouched.
    trusted = open_ledger()
    report = import_jsonl(trusted, forged, source="forged.jsonl", trust=True)
    assert report.added == (proposal.id,) and report.proposed == ()
    assert trusted.verify(proposal.id).status is Status.VERIFIED
    [vouched] = _imports(trusted, proposal.id)
    assert (vouched.author, vouched.author_kind, vouched.from_lifecycle, vouched.to_lifecycle) == (
        "Ada Tester", "person", "", "active")
    assert vouched.reason == "imported from forged.jsonl with --trust: active, as its receipts in the file record"


def test_an_active_decision_without_receipts_is_a_proposal_and_refused_on_trust(open_ledger):
    source = open_ledger()
    bare = source.record("checksum is mod 255", [CHECKSUM]).decision
    lines = [line for line in export_jsonl(source).lines if '"type": "receipt"' not in line]

    target = open_ledger()
    report = import_jsonl(target, lines, source="bare.jsonl")
    assert report.proposed == (bare.id,) and target.get(bare.id).lifecycle is Lifecycle.PROPOSED

    refused = open_ledger()
    with pytest.raises(memvet.UsageError) as info:
        import_jsonl(refused, lines, source="bare.jsonl", trust=True)
    assert str(info.value) == (
        f"bare.jsonl: decision {bare.id} is active in the file, but its receipts do not show how it got there "
        "(no receipt records its creation (record or propose)); --trust keeps only a lifecycle its receipts "
        "support, so nothing was imported")
    assert refused.decisions() == [] and refused.log() == []


@pytest.mark.parametrize(("lifecycle", "why"), [
    ("active", "its last lifecycle act is reject to rejected"),  # un-rejected by hand
    ("superseded", "its last lifecycle act is reject to rejected"),  # superseded with no supersede
])
def test_a_lifecycle_no_receipt_leads_to_is_refused_on_trust(open_ledger, lifecycle, why):
    source = open_ledger()
    tried = source.record("wrap saves in a global lock").decision
    source.reject(tried.id, reason="it deadlocked")
    records = _records(source)
    _one(records, tried.id)["lifecycle"] = lifecycle
    target = open_ledger()
    with pytest.raises(memvet.UsageError, match=rf"is {lifecycle} in the file, .*\({why}\)"):
        import_jsonl(target, _lines(records), trust=True)
    assert target.decisions() == []
    assert import_jsonl(target, _lines(records)).proposed == (tried.id,)  # without trust: a proposal


def test_an_update_with_a_fabricated_revalidation_does_not_swap_anchors(repo, open_ledger):
    ledger = open_ledger()
    stale = ledger.record("checksum is mod 255", [CHECKSUM]).decision
    repo.replace("shop/store.py", "% 255", "% 256")
    now = repo.commit("checksum mod 256")
    assert ledger.verify(stale.id).status is Status.STALE
    current = ledger.resolve_anchors([CHECKSUM])[0]  # what a forger copies: the code as it is now
    records = _records(ledger)
    forged = _one(records, stale.id)
    forged.update(anchors=[current.to_dict()], commit=now)
    records.append(_receipt(stale.id, "revalidate", "active", "active", stale.created_at + 1))
    before = (ledger.get(stale.id), ledger.log())

    # Without trust, nothing the ledger holds changes: a conflict that says how to bring it forward.
    report = import_jsonl(ledger, _lines(records), source="update.jsonl")
    assert [c.id for c in report.conflicts] == [stale.id]
    assert "without --trust an import changes no decision this ledger holds" in report.conflicts[0].why
    assert (ledger.get(stale.id), ledger.log()) == before

    # On trust, the claim is bound again at the file's commit: "255" is not in the code there.
    report = import_jsonl(ledger, _lines(records), source="update.jsonl", trust=True)
    assert [c.id for c in report.conflicts] == [stale.id] and report.updated == ()
    why = report.conflicts[0].why
    assert why.startswith("its evidence cannot be checked here (the claim, bound again on the evidence it would "
                          "bring, has a finding: `255` (number)")
    assert "`255`" in why and why.endswith("; not brought forward")
    assert (ledger.get(stale.id), ledger.log()) == before
    assert ledger.verify(stale.id).status is Status.STALE

    # At the decision's own commit, the forged anchor still names the blob of
    # the code as it is now: the claim is bound to that blob, and is not.
    forged["commit"] = stale.commit
    report = import_jsonl(ledger, _lines(records), source="update.jsonl", trust=True)
    assert [c.id for c in report.conflicts] == [stale.id] and "`255`" in report.conflicts[0].why
    # With its own blob and forged hashes: brought forward on trust, the
    # hashes worked out again from that blob (the file's ignored).
    forged["anchors"] = [{**stale.anchors[0].to_dict(), "body_hash": current.body_hash, "shape": current.shape}]
    assert [c.id for c in import_jsonl(ledger, _lines(records)).conflicts] == [stale.id]
    report = import_jsonl(ledger, _lines(records), source="update.jsonl", trust=True)
    assert report.updated == (stale.id,)
    assert ledger.get(stale.id).anchors == stale.anchors
    assert ledger.verify(stale.id).status is Status.STALE
    assert sorted((r.action, r.imported) for r in ledger.history(stale.id)) == [
        ("import", False), ("record", False), ("revalidate", True)]


def test_hashes_in_the_file_are_ignored(repo, open_ledger):
    source = open_ledger()
    kept = source.record("checksum is mod 255", [CHECKSUM]).decision
    repo.replace("shop/store.py", "% 255", "% 256")
    repo.commit("checksum mod 256")
    now = source.resolve_anchors([CHECKSUM])[0]
    records = _records(source)
    anchor = _one(records, kept.id)["anchors"][0]
    # the claim still binds at the recorded commit; the hashes say the code is as it is now
    anchor.update(body_hash=now.body_hash, shape=now.shape, line=99)
    for trust in (False, True):
        target = open_ledger()
        import_jsonl(target, _lines(records), trust=trust)
        assert target.get(kept.id).anchors == kept.anchors  # recomputed at its commit, not the file's
        verdict = target.verify(kept.id)
        assert verdict.status is (Status.STALE if trust else Status.PROPOSED)
        assert "the body changed since" in verdict.checks[0].detail
    assert source.verify(kept.id).status is Status.STALE


def test_a_tampered_hash_of_a_decision_already_held_is_not_a_change(open_ledger):
    ledger = open_ledger()
    held = ledger.record("checksum is mod 255", [CHECKSUM]).decision
    records = _records(ledger)
    _one(records, held.id)["anchors"][0]["body_hash"] = "0" * 64
    report = import_jsonl(ledger, _lines(records), trust=True)
    assert report.unchanged == (held.id,) and not report.changed
    assert ledger.get(held.id).anchors == held.anchors


# ===================================================================== history, and trust later


def test_history_enters_as_proposals_without_trust_and_as_history_with_it(open_ledger):
    source = open_ledger()
    tried = source.record("wrap saves in a global lock").decision
    source.reject(tried.id, reason="it deadlocked")
    old = source.record("totals are floats", [CHECKSUM]).decision
    new = source.supersede(old.id, "totals are cents", [CHECKSUM], reason="floats lose cents").decision
    lines = export_jsonl(source).lines

    # A rejection planted by a file would tell agents "do not repeat" a true
    # approach: without trust it is a proposal, served under caution.
    target = open_ledger()
    report = import_jsonl(target, lines)
    assert set(report.proposed) == {tried.id, old.id, new.id}
    assert {v.id: v.status for v in target.check()} == dict.fromkeys((tried.id, old.id, new.id), Status.PROPOSED)
    assert agent_context(target).rejected == ()
    assert target.recall("wrap saves in a global lock").history == ()
    assert target.get(old.id).superseded_by == ""  # superseded by nothing until a person approves
    # A person replays the history: the old one, then its successor.
    target.approve(old.id, author="Bea Reviewer")
    target.approve(new.id, author="Bea Reviewer")
    assert target.get(old.id).lifecycle is Lifecycle.SUPERSEDED and target.get(old.id).superseded_by == new.id

    trusted = open_ledger()
    import_jsonl(trusted, lines, trust=True)
    assert {v.id: v.status for v in trusted.check()} == {
        tried.id: Status.REJECTED, old.id: Status.SUPERSEDED, new.id: Status.VERIFIED}
    assert trusted.recall("wrap saves in a global lock").history[0].text.startswith(
        "previously tried, rejected: it deadlocked")
    assert {r.to_lifecycle for r in trusted.log() if r.action == "import"} == {"rejected", "superseded", "active"}


def test_trust_later_keeps_what_an_earlier_import_proposed_and_imports_are_idempotent(open_ledger):
    source = open_ledger()
    kept = source.record("checksum is mod 255", [CHECKSUM]).decision
    lines = export_jsonl(source).lines
    target = open_ledger()
    import_jsonl(target, lines, source="a.jsonl")
    again = import_jsonl(target, lines, source="a.jsonl")
    assert again.unchanged == (kept.id,) and not again.changed

    report = import_jsonl(target, lines, source="a.jsonl", trust=True)
    assert report.updated == (kept.id,) and target.verify(kept.id).status is Status.VERIFIED
    assert [(r.from_lifecycle, r.to_lifecycle) for r in _imports(target, kept.id)] == [
        ("", "proposed"), ("proposed", "active")]
    for trust in (True, False):  # nothing new either way
        assert not import_jsonl(target, lines, trust=trust).changed
    assert target.get(kept.id).lifecycle is Lifecycle.ACTIVE


def test_a_later_state_of_a_decision_held_here_waits_for_trust(open_ledger):
    source = open_ledger()
    habit = source.record("we pair on Fridays").decision
    target = open_ledger()
    import_jsonl(target, export_jsonl(source).lines, trust=True)
    source.reject(habit.id, reason="we stopped")
    later = export_jsonl(source).lines

    report = import_jsonl(target, later, source="later.jsonl")
    assert [c.id for c in report.conflicts] == [habit.id] and "import with --trust" in report.conflicts[0].why
    assert target.get(habit.id).lifecycle is Lifecycle.ACTIVE

    report = import_jsonl(target, later, source="later.jsonl", trust=True)
    assert report.updated == (habit.id,) and target.get(habit.id).lifecycle is Lifecycle.REJECTED
    assert [(r.action, r.to_lifecycle) for r in target.history(habit.id)] == [
        ("record", "active"), ("import", "active"), ("reject", "rejected"), ("import", "rejected")]


def test_a_proposed_successor_supersedes_a_local_decision_only_when_a_person_approves(open_ledger):
    """An imported decision never retires a local one without a person:
    without trust the successor is a proposal, even with --link-local."""
    source = open_ledger()
    habit = source.record("we pair on Fridays").decision
    target = open_ledger()
    import_jsonl(target, export_jsonl(source).lines, trust=True)
    successor = source.supersede(habit.id, "we pair on Mondays", reason="Fridays are short").decision
    later = export_jsonl(source).lines
    report = import_jsonl(target, later)
    assert report.added == (successor.id,) and report.proposed == (successor.id,)
    assert [c.id for c in report.conflicts] == [habit.id]
    assert target.verify(habit.id).status is Status.UNANCHORED  # still current
    target.approve(successor.id, author="Bea Reviewer")
    assert target.get(habit.id).lifecycle is Lifecycle.SUPERSEDED


# ===================================================================== evidence as recorded


def test_a_record_made_on_uncommitted_code_is_reproduced_from_its_blob(repo, open_ledger):
    repo.write("shop/refund.py", "def refund(order):\n    return -order.total\n")
    source = open_ledger()
    made = source.record("refund negates the order total", ["shop/refund.py::refund"]).decision
    repo.commit("refunds")  # committed as it was recorded: its blob is in the history
    target = open_ledger()
    report = import_jsonl(target, export_jsonl(source).lines, trust=True)
    assert report.added == (made.id,) and report.unchecked == ()
    assert target.get(made.id).anchors == made.anchors and target.get(made.id).commit == made.commit
    assert target.verify(made.id).status is Status.VERIFIED


def test_a_record_on_code_still_uncommitted_is_reproduced_from_the_working_tree(repo, open_ledger):
    repo.replace("shop/store.py", "self.path = path", "self.path = str(path)")  # not committed
    source = open_ledger()
    made = source.record("save appends one JSON line", [SAVE]).decision
    target = open_ledger()
    assert import_jsonl(target, export_jsonl(source).lines, trust=True).unchecked == ()
    assert target.get(made.id).anchors == made.anchors  # the uncommitted blob, read from disk
    assert target.verify(made.id).status is Status.VERIFIED


def test_evidence_that_cannot_be_reproduced_is_re_proposed_against_the_working_tree(repo, open_ledger):
    repo.replace("shop/store.py", "def checksum(", "def refund(order):\n    return -order.total\n\n\ndef checksum(")
    source = open_ledger()
    made = source.record("refund negates the order total", ["shop/store.py::refund"]).decision
    repo.replace("shop/store.py", "% 255", "% 256")
    head = repo.commit("refunds, and checksum mod 256")  # the recorded blob never reached git
    lines = export_jsonl(source).lines
    target = open_ledger()
    report = import_jsonl(target, lines, source="x.jsonl", trust=True)
    assert report.added == (made.id,) and report.proposed == (made.id,)
    [note] = report.unchecked
    assert note == memvet.ImportConflict(made.id, "decision", f"at commit {made.commit[:12]} as recorded: "
                                         "shop/store.py: no symbol named refund")
    entered = target.get(made.id)
    assert entered.lifecycle is Lifecycle.PROPOSED and entered.commit == head
    assert target.verify(made.id).reason == "not yet reviewed; its evidence: verified (its anchor holds)"
    [mark] = _imports(target, made.id)
    assert mark.reason.startswith("imported from x.jsonl as a proposal (the file says active): its evidence could "
                                  "not be checked here (")
    # the same file again: the proposal it made is left as it is, on trust too
    assert not import_jsonl(target, lines, trust=True).changed


def test_a_commit_this_repository_lacks(repo, open_ledger):
    source = open_ledger()
    made = source.record("checksum is mod 255", [CHECKSUM]).decision
    records = _records(source)
    _one(records, made.id)["commit"] = FOREIGN_COMMIT  # squashed away elsewhere; its blob is here
    target = open_ledger()
    assert import_jsonl(target, _lines(records), trust=True).unchecked == ()
    assert target.verify(made.id).status is Status.VERIFIED

    _one(records, made.id)["anchors"][0]["blob_id"] = FOREIGN_BLOB  # nothing of it is here
    other = open_ledger()
    [note] = import_jsonl(other, _lines(records), trust=True).unchecked
    assert note.why == (f"{CHECKSUM}: the code it was recorded on is not in this repository (neither its blob "
                        f"{FOREIGN_BLOB[:12]} nor its recorded commit {FOREIGN_COMMIT[:12]})")
    assert other.get(made.id).lifecycle is Lifecycle.PROPOSED

    # Nor in the working tree: not imported at all, and said so.
    _one(records, made.id)["anchors"][0]["name"] = "vanished"
    third = open_ledger()
    report = import_jsonl(third, _lines(records), trust=True)
    assert report.added == () and [c.id for c in report.conflicts] == [made.id]
    assert report.conflicts[0].why.endswith("nor proposed against the working tree (shop/store.py: no symbol named "
                                            "vanished); not imported")
    assert third.decisions() == [] and third.log() == []


# ===================================================================== who may trust, and what is kept


def test_only_a_person_may_trust(open_ledger):
    source = open_ledger()
    source.record("we pair on Fridays")
    target = open_ledger()
    with pytest.raises(memvet.NotAllowedError, match=r"an agent \(bot\) cannot import with trust"):
        import_jsonl(target, export_jsonl(source).lines, trust=True, author=Author.agent("bot"))
    report = import_jsonl(target, export_jsonl(source).lines, author=Author.agent("bot"))
    assert len(report.proposed) == 1 and _imports(target, report.added[0])[0].author_kind == "agent"


def test_author_kinds_and_channels_travel_as_the_files_word(open_ledger):
    source = open_ledger()
    proposal = source.record("save appends one JSON line", [SAVE], proposed=True).decision
    source.approve(proposal.id, author=Author.person("Bea Reviewer", via="MCP elicitation in claude-code"))
    lines = export_jsonl(source).lines
    assert '"via": "MCP elicitation in claude-code"' in "\n".join(lines)
    target = open_ledger()
    import_jsonl(target, lines)
    approval = next(r for r in target.history(proposal.id) if r.action == "approve")
    assert (approval.author_kind, approval.via, approval.imported) == ("person", "MCP elicitation in claude-code",
                                                                       True)
    assert target.get(proposal.id).lifecycle is Lifecycle.PROPOSED  # a person's receipt grants nothing


def test_exports_leave_this_ledgers_import_receipts_home(open_ledger):
    source = open_ledger(namespace="same")
    source.record("we pair on Fridays")
    lines = export_jsonl(source).lines
    target = open_ledger(namespace="same-too")
    import_jsonl(target, lines, trust=True)
    assert any(r.action == "import" for r in target.log())
    assert [line.replace("same-too", "same") for line in export_jsonl(target).lines] == list(lines)


# ===================================================================== the command line


def test_the_cli_trusts_only_when_asked(run, tmp_path):
    kept = record(run, "checksum is mod 255", "--symbol", CHECKSUM)
    dump = tmp_path / "decisions.jsonl"
    run("export", "--format", "jsonl", "--output", str(dump))
    other = {"MEMVET_LEDGER": str(tmp_path / "other")}
    out = run("import", str(dump), extra=other).stdout
    assert out == ("1 added, 0 updated, 0 unchanged, 0 kept (local is newer); 2 receipts added; 1 entered as "
                   "proposals, not as the file has them (without --trust; memvet review)\n")
    assert json.loads(run("check", "--json", extra=other).stdout)["decisions"][0]["status"] == "proposed"
    out = run("import", "--trust", str(dump), extra=other).stdout
    assert out.startswith("0 added, 1 updated, 0 unchanged")
    log = run("log", kept, extra=other).stdout
    assert f"imported from {dump} with --trust" in log and "Ada Tester (person)" in log
    # a fresh ledger of the same repository, on trust: the same export, byte for byte
    fresh = {"MEMVET_LEDGER": str(tmp_path / "fresh")}
    assert json.loads(run("import", "--trust", str(dump), "--json", extra=fresh).stdout)["proposed"] == []
    assert run("export", "--format", "jsonl", extra=fresh).stdout == dump.read_text()


def test_the_cli_refuses_an_unsupported_lifecycle_in_one_line(run, tmp_path):
    kept = record(run, "checksum is mod 255", "--symbol", CHECKSUM)
    lines = [line for line in run("export", "--format", "jsonl").stdout.splitlines() if '"receipt"' not in line]
    dump = tmp_path / "bare.jsonl"
    dump.write_text("\n".join(lines) + "\n")
    other = {"MEMVET_LEDGER": str(tmp_path / "other")}
    result = run("import", "--trust", str(dump), extra=other, code=2)
    assert result.stderr == (f"memvet: error: {dump}: decision {kept} is active in the file, but its receipts do "
                             "not show how it got there (no receipt records its creation (record or propose)); "
                             "--trust keeps only a lifecycle its receipts support, so nothing was imported\n")
    assert run("export", "--format", "jsonl", extra=other).stdout.count("\n") == 1  # the header alone


def test_the_cli_names_what_it_could_not_check(run, tmp_path):
    kept = record(run, "checksum is mod 255", "--symbol", CHECKSUM)
    records = [json.loads(line) for line in run("export", "--format", "jsonl").stdout.splitlines()]
    _one(records, kept).update(commit=FOREIGN_COMMIT)
    _one(records, kept)["anchors"][0]["blob_id"] = FOREIGN_BLOB
    dump = tmp_path / "foreign.jsonl"
    dump.write_text("\n".join(_lines(records)) + "\n")
    result = run("import", "--trust", str(dump), extra={"MEMVET_LEDGER": str(tmp_path / "other")})
    assert result.stderr == (f"unchecked: decision {kept}: {CHECKSUM}: the code it was recorded on is not in this "
                             f"repository (neither its blob {FOREIGN_BLOB[:12]} nor its recorded commit "
                             f"{FOREIGN_COMMIT[:12]}); entered as a proposal\n")
    assert "1 entered as proposals, not as the file has them (memvet review)" in result.stdout
