"""Approval is a person's act (issue 29): author kinds on every write and
receipt, agents propose and never approve, an agent's reject or supersede of
an active decision is a request a person answers, a person can reopen a
rejection, and the review policy is the one committed at HEAD."""

from __future__ import annotations

import logging

import pytest

import memvet
from memvet import Author, AuthorKind, Lifecycle, NotAllowedError, Status, UsageError

SAVE = "shop/store.py::OrderStore.save"
LOAD = "shop/store.py::OrderStore.load"
AGENT = Author.agent("claude-code")
OTHER_AGENT = Author.agent("cursor")


def kinds(ledger: memvet.Ledger, decision_id: str) -> list[tuple[str, str, str, str]]:
    return [(r.action, r.author, r.author_kind, r.to_lifecycle) for r in ledger.history(decision_id)]


# ------------------------------------------------------------------ authors


def test_every_write_and_receipt_carries_its_author_kind(ledger):
    mine = ledger.record("save appends one JSON line", [SAVE])
    theirs = ledger.record("load reads every line back", [LOAD], author=AGENT)
    assert (mine.decision.author, mine.decision.author_kind) == ("Ada Tester", "person")
    assert (theirs.decision.author, theirs.decision.author_kind) == ("claude-code", "agent")
    assert kinds(ledger, mine.id) == [("record", "Ada Tester", "person", "active")]
    assert kinds(ledger, theirs.id) == [("propose", "claude-code", "agent", "proposed")]
    assert ledger.history(theirs.id)[0].who == "claude-code (agent)"
    named = ledger.record("checksum is mod 255", ["shop/store.py::checksum"], author="Bea")
    assert ledger.history(named.id)[0].who == "Bea (person)"  # a plain name is a person, as before


def test_an_author_that_is_neither_a_name_nor_an_author_is_refused(ledger):
    with pytest.raises(UsageError, match=r"author must be a memvet\.Author or a name, not int"):
        ledger.record("save appends", [SAVE], author=7)


def test_author_values():
    assert Author.person("  Bea ", via="memvet CLI") == Author("Bea", AuthorKind.PERSON, "memvet CLI")
    assert str(Author.person("Bea", via="memvet CLI")) == "Bea (person, via memvet CLI)"
    assert Author.agent("") == Author("agent", AuthorKind.AGENT)
    assert Author.person("bea").same_as("BEA", "person") and not Author.person("bea").same_as("bea", "agent")
    assert Author.person("bea").same_as("bea", "")  # written before author kinds: a person
    assert not Author.person("").same_as("", "person")  # nobody is nobody's proposer
    assert memvet.Receipt("r", "d", "approve", "proposed", "active").who == "? (?)"


def test_an_agent_write_follows_the_policy_and_a_host_may_choose(open_ledger):
    proposing = open_ledger()
    assert proposing.record("save appends", [SAVE], author=AGENT).outcome == "proposed"
    assert proposing.record("load reads lines", [LOAD], author=AGENT, proposed=False).outcome == "recorded"
    active = open_ledger(agent_writes="active")
    assert active.record("save appends", [SAVE], author=AGENT).outcome == "recorded"


# ------------------------------------------------------------------ approval


def test_an_agent_never_approves(ledger):
    prop = ledger.record("save appends", [SAVE], author=AGENT)
    for who in (AGENT, OTHER_AGENT):
        with pytest.raises(NotAllowedError, match=r"an agent \(.*\) cannot approve: that is a person's act"):
            ledger.approve(prop.id, author=who)
    assert ledger.get(prop.id).lifecycle is Lifecycle.PROPOSED
    approved = ledger.approve(prop.id, reason="read save()", author=Author.person("Bea", via="memvet CLI"))
    assert approved.lifecycle is Lifecycle.ACTIVE and ledger.verify(prop.id).status is Status.VERIFIED
    last = ledger.history(prop.id)[-1]
    assert (last.action, last.author, last.author_kind, last.via) == ("approve", "Bea", "person", "memvet CLI")


def test_a_proposer_does_not_approve_its_own_proposal(ledger):
    prop = ledger.record("save appends", [SAVE], proposed=True, author="Bea")
    with pytest.raises(NotAllowedError, match=f"bea proposed {prop.id} and cannot also approve it"):
        ledger.approve(prop.id, author="bea")
    assert ledger.approve(prop.id, author="Cy").lifecycle is Lifecycle.ACTIVE


# ------------------------------------------------------------------ retiring


def test_an_agents_reject_of_a_persons_decision_is_a_request(ledger):
    kept = ledger.record("save appends one JSON line", [SAVE])
    asked = ledger.reject(kept.id, reason="save was rewritten to SQLite", author=AGENT)
    assert asked.lifecycle is Lifecycle.ACTIVE and asked.retiring
    assert ledger.get(kept.id).lifecycle is Lifecycle.ACTIVE
    verdict = ledger.verify(kept.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert verdict.reason == ("an agent (claude-code) proposes retiring this: save was rewritten to SQLite; a person "
                              "approves or declines it (memvet review); its evidence: verified (its anchor holds)")
    recall = ledger.recall("how does save write orders?")
    assert [i.id for i in recall.caution] == [kept.id] and recall.current == () and recall.history == ()
    assert [v.id for v in ledger.requests()] == [kept.id]
    assert kinds(ledger, kept.id) == [("record", "Ada Tester", "person", "active"),
                                      ("propose-retire", "claude-code", "agent", "active")]


def test_a_person_approves_a_reject_request(ledger):
    kept = ledger.record("save appends one JSON line", [SAVE])
    ledger.reject(kept.id, reason="save was rewritten to SQLite", author=AGENT)
    with pytest.raises(NotAllowedError, match="cannot approve"):
        ledger.approve(kept.id, author=OTHER_AGENT)
    done = ledger.approve(kept.id, reason="checked", author="Bea")
    assert done.lifecycle is Lifecycle.REJECTED and not done.retiring
    verdict = ledger.verify(kept.id)
    assert verdict.status is Status.REJECTED and verdict.reason == "save was rewritten to SQLite"
    last = ledger.history(kept.id)[-1]
    assert (last.action, last.author_kind) == ("reject", "person")
    assert last.reason == "save was rewritten to SQLite (approved the request of claude-code (agent): checked)"
    assert ledger.requests() == []


def test_a_person_declines_a_request_and_nothing_changes(ledger):
    kept = ledger.record("save appends one JSON line", [SAVE])
    ledger.reject(kept.id, reason="I think it is wrong", author=AGENT)
    with pytest.raises(NotAllowedError, match=r"an agent \(cursor\) cannot decline"):
        ledger.decline(kept.id, reason="no", author=OTHER_AGENT)
    with pytest.raises(UsageError, match="a decline needs a reason"):
        ledger.decline(kept.id, reason=" ", author="Bea")
    back = ledger.decline(kept.id, reason="save still appends", author="Bea")
    assert back.lifecycle is Lifecycle.ACTIVE and not back.retiring
    assert ledger.verify(kept.id).status is Status.VERIFIED
    assert kinds(ledger, kept.id)[-1] == ("decline", "Bea", "person", "active")
    with pytest.raises(NotAllowedError, match="no open request to retire it; nothing to decline"):
        ledger.decline(kept.id, reason="again", author="Bea")


def test_an_agents_supersede_is_a_proposal_and_a_request_on_the_old_one(ledger):
    old = ledger.record("save appends one JSON line", [SAVE])
    new = ledger.supersede(old.id, "save appends and fsyncs", [SAVE], reason="durability", author=AGENT,
                           proposed=False)  # even asked to be active: an agent retires nothing
    assert new.outcome == "proposed" and new.decision.supersedes == old.id
    stored = ledger.get(old.id)
    assert stored.lifecycle is Lifecycle.ACTIVE and stored.retire_with == new.id
    verdict = ledger.verify(old.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert verdict.reason.startswith(f"an agent (claude-code) proposes superseding this with {new.id}: durability")
    assert kinds(ledger, old.id)[-1] == ("propose-retire", "claude-code", "agent", "active")
    ledger.approve(old.id, author="Bea")  # approving the request approves the successor
    assert ledger.get(old.id).lifecycle is Lifecycle.SUPERSEDED and not ledger.get(old.id).retiring
    assert ledger.get(new.id).lifecycle is Lifecycle.ACTIVE
    assert ledger.verify(new.id).status is Status.VERIFIED


def test_approving_the_successor_itself_clears_the_request(ledger):
    old = ledger.record("save appends one JSON line", [SAVE])
    new = ledger.supersede(old.id, "save appends and fsyncs", [SAVE], reason="durability", author=AGENT)
    ledger.approve(new.id, author="Bea")
    stored = ledger.get(old.id)
    assert stored.lifecycle is Lifecycle.SUPERSEDED and stored.superseded_by == new.id and not stored.retiring


def test_declining_a_supersede_request_turns_down_its_proposal(ledger):
    old = ledger.record("save appends one JSON line", [SAVE])
    new = ledger.supersede(old.id, "save writes SQLite", [SAVE], reason="rewritten", author=AGENT)
    ledger.decline(old.id, reason="it still appends", author="Bea")
    assert ledger.verify(old.id).status is Status.VERIFIED
    assert ledger.get(new.id).lifecycle is Lifecycle.REJECTED
    assert kinds(ledger, new.id)[-1] == ("reject", "Bea", "person", "rejected")


def test_turning_down_the_proposal_clears_the_request_on_the_old_one(ledger):
    old = ledger.record("save appends one JSON line", [SAVE])
    new = ledger.supersede(old.id, "save writes SQLite", [SAVE], reason="rewritten", author=AGENT)
    ledger.decline(new.id, reason="it still appends", author="Bea")
    assert ledger.get(new.id).lifecycle is Lifecycle.REJECTED
    assert not ledger.get(old.id).retiring and ledger.verify(old.id).status is Status.VERIFIED


def test_a_later_request_leaves_an_earlier_proposal_to_its_own_answer(ledger):
    """Only the request that points at the proposal being turned down is cleared."""
    old = ledger.record("save appends one JSON line", [SAVE])
    first = ledger.supersede(old.id, "save writes SQLite", [SAVE], reason="rewritten", author=AGENT)
    ledger.reject(old.id, reason="wrong", author=OTHER_AGENT)  # the newer request replaces the pointer
    ledger.reject(first.id, reason="no", author="Bea")
    assert ledger.get(old.id).retire_reason == "wrong"


def test_an_agent_withdraws_its_own_proposal_but_asks_for_anothers(ledger):
    mine = ledger.record("save appends", [SAVE], author=AGENT)
    theirs = ledger.record("load reads lines", [LOAD], author=OTHER_AGENT)
    assert ledger.reject(mine.id, reason="my mistake", author=AGENT).lifecycle is Lifecycle.REJECTED
    asked = ledger.reject(theirs.id, reason="looks wrong", author=AGENT)
    assert asked.lifecycle is Lifecycle.PROPOSED and asked.retire_reason == "looks wrong"
    assert ledger.verify(theirs.id).status is Status.PROPOSED  # a proposal stays a proposal


def test_a_request_on_drifted_evidence_keeps_the_worse_status(ledger, repo):
    kept = ledger.record("save appends one JSON line", [SAVE])
    ledger.reject(kept.id, reason="rewritten", author=AGENT)
    repo.replace("shop/store.py", '"a"', '"w"')
    verdict = ledger.verify(kept.id)
    assert verdict.status is Status.STALE
    assert verdict.reason.endswith("; also, an agent (claude-code) proposes retiring this: rewritten; a person "
                                   "approves or declines it (memvet review)")


def test_an_unanchored_decision_with_a_request_is_not_served_as_plain_unanchored(ledger):
    kept = ledger.record("the team prefers small pull requests")
    ledger.reject(kept.id, reason="we changed our mind", author=AGENT)
    verdict = ledger.verify(kept.id)
    assert verdict.status is Status.NEEDS_REVALIDATION and "its evidence: unanchored" in verdict.reason


# ------------------------------------------------------------------ reopen, revalidate


def test_a_person_reopens_a_rejection(ledger):
    kept = ledger.record("save appends one JSON line", [SAVE])
    ledger.reject(kept.id, reason="the lock deadlocked", author="Bea")
    with pytest.raises(NotAllowedError, match=r"an agent \(claude-code\) cannot reopen"):
        ledger.reopen(kept.id, reason="x", author=AGENT)
    back = ledger.reopen(kept.id, reason="it was the pool, not the lock", author="Cy")
    assert back.lifecycle is Lifecycle.ACTIVE and back.reason == ""
    assert ledger.verify(kept.id).status is Status.VERIFIED
    assert kinds(ledger, kept.id)[-2:] == [("reject", "Bea", "person", "rejected"),
                                           ("reopen", "Cy", "person", "active")]
    with pytest.raises(NotAllowedError, match="only a rejected decision can be reopened"):
        ledger.reopen(kept.id, reason="again", author="Cy")


def test_an_agent_does_not_revalidate(ledger, repo):
    kept = ledger.record("save appends one JSON line", [SAVE])
    repo.replace("shop/store.py", '"a"', '"w"')
    with pytest.raises(NotAllowedError, match=r"an agent \(claude-code\) cannot revalidate"):
        ledger.revalidate(kept.id, reason="fine", author=AGENT)
    assert ledger.verify(kept.id).status is Status.STALE


def test_a_crashed_agent_supersede_is_finished_by_repair(repo, tmp_path):
    from memvet._store import ChromaStore

    class UpdateFails(ChromaStore):
        def replace_decision(self, decision: memvet.Decision) -> None:
            raise RuntimeError("killed before the old record's update")

    def open_() -> memvet.Ledger:
        return memvet.Ledger.open(repo.path, path=tmp_path / "ledger", embedding=memvet.HashingEmbedder(),
                                  namespace="agent-supersede-crash", disk_cache=False)

    ledger = open_()
    old = ledger.record("save appends one JSON line", [SAVE])
    ledger.store.__class__ = UpdateFails
    with pytest.raises(RuntimeError, match="killed"):
        ledger.supersede(old.id, "save writes SQLite", [SAVE], reason="rewritten", author=AGENT)
    fresh = open_()
    assert not fresh.store.get_decisions([old.id])[0].retiring  # the request had not landed
    assert fresh.repair() == 1
    stored = fresh.get(old.id)
    assert stored.lifecycle is Lifecycle.ACTIVE and stored.retiring
    assert [r.action for r in fresh.history(old.id)] == ["record", "propose-retire"]


# ------------------------------------------------------------------ the policy at HEAD


def _policy(repo, value: str, *, commit: bool) -> None:
    repo.write("pyproject.toml", f'[project]\nname = "shop"\n\n[tool.memvet]\nagent-writes = "{value}"\n')
    if commit:
        repo.commit("review policy")


def test_an_uncommitted_policy_edit_changes_nothing(repo, client, caplog):
    _policy(repo, "active", commit=False)
    with caplog.at_level(logging.WARNING, logger="memvet._config"):
        ledger = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                    namespace="policy-uncommitted", disk_cache=False)
    assert ledger.agent_writes == "proposed"
    assert ledger.record("save appends", [SAVE], author=AGENT).outcome == "proposed"
    assert ("ignoring agent-writes = 'active' in the working tree: review policy is read from the committed "
            "configuration, and HEAD says 'proposed'") in caplog.text


def test_a_committed_policy_counts_and_an_uncommitted_revert_is_ignored(repo, client, caplog):
    _policy(repo, "active", commit=True)
    ledger = memvet.Ledger.open(repo.path / "shop", client=client, embedding=memvet.HashingEmbedder(),
                                namespace="policy-committed", disk_cache=False)
    assert ledger.agent_writes == "active"
    assert ledger.record("save appends", [SAVE], author=AGENT).outcome == "recorded"
    _policy(repo, "proposed", commit=False)
    with caplog.at_level(logging.WARNING, logger="memvet._config"):
        again = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                   namespace="policy-committed", disk_cache=False)
    assert again.agent_writes == "active" and "HEAD says 'active'" in caplog.text


def test_a_broken_working_table_is_ignored_for_the_policy(repo, client, caplog):
    repo.write("pyproject.toml", "[tool.memvet]\nagent-writes = 3\n")
    with caplog.at_level(logging.WARNING, logger="memvet._config"):
        ledger = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                    namespace="policy-broken", disk_cache=False, agent_writes=None)
    assert ledger.agent_writes == "proposed"
    assert "ignoring the working tree's [tool.memvet]" in caplog.text


def test_a_broken_committed_table_is_a_usage_error(repo, client):
    repo.write("pyproject.toml", "[tool.memvet]\nagent-writes = 3\n")
    repo.commit("broken")
    repo.write("pyproject.toml", "[tool.memvet]\n")  # mended, not committed
    with pytest.raises(UsageError, match=r"pyproject.toml at HEAD \[tool.memvet\] agent-writes: expected one of"):
        memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                           namespace="policy-broken-head", disk_cache=False)


def test_a_committed_table_that_is_not_toml_is_a_usage_error(repo, client):
    repo.write("pyproject.toml", "[tool.memvet\n")
    repo.commit("not toml")
    repo.write("pyproject.toml", "[tool.memvet]\n")
    with pytest.raises(UsageError, match=r"pyproject.toml at HEAD: not valid TOML"):
        memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                           namespace="policy-not-toml", disk_cache=False)
