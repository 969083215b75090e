"""The proposed lifecycle: proposed -> active (approved) -> superseded/rejected.

A proposal is written with its evidence but never served as current until a
person approves it; a proposal that names what it supersedes replaces nothing
until then, and its approval performs the supersede crash-safely."""

from __future__ import annotations

import uuid

import pytest

import memvet
from memvet import Lifecycle, Status
from memvet._store import ChromaStore

SAVE = "shop/store.py::OrderStore.save"


def actions(ledger: memvet.Ledger, decision_id: str) -> list[tuple[str, str, str]]:
    return [(r.action, r.from_lifecycle, r.to_lifecycle) for r in ledger.history(decision_id)]


def test_a_proposal_is_served_as_caution_until_approved(ledger):
    rec = ledger.record("Orders are appended as JSON lines", [SAVE], proposed=True)
    assert rec.outcome == "proposed"
    assert rec.decision.lifecycle is Lifecycle.PROPOSED
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.PROPOSED
    assert verdict.reason == "not yet reviewed; its evidence: verified (its anchor holds)"
    recall = ledger.recall("how are orders appended?")
    assert [i.id for i in recall.current] == []
    assert [i.id for i in recall.caution] == [rec.id]
    assert recall.caution[0].text == "proposed, not yet reviewed: Orders are appended as JSON lines"
    assert actions(ledger, rec.id) == [("propose", "", "proposed")]

    approved = ledger.approve(rec.id, reason="checked save()", author="Rev")
    assert approved.lifecycle is Lifecycle.ACTIVE
    assert ledger.verify(rec.id).status is Status.VERIFIED
    assert [i.id for i in ledger.recall("how are orders appended?").current] == [rec.id]
    assert actions(ledger, rec.id) == [("propose", "", "proposed"), ("approve", "proposed", "active")]
    receipt = ledger.history(rec.id)[-1]
    assert (receipt.reason, receipt.author) == ("checked save()", "Rev")
    assert ledger.proposals() == []


def test_a_supersede_proposal_replaces_nothing_until_approved(ledger):
    old = ledger.record("save appends", [SAVE])
    prop = ledger.supersede(old.id, "save appends and fsyncs", [SAVE], reason="durability", proposed=True)
    assert prop.outcome == "proposed" and prop.decision.supersedes == old.id
    assert prop.conflicts == ()
    # The old one stays current: a proposal is no successor.
    assert ledger.get(old.id).lifecycle is Lifecycle.ACTIVE
    assert ledger.verify(old.id).status is Status.VERIFIED
    assert ledger.store.successors_of([old.id]) == {}
    assert ledger.store.successors(old.id) == []
    assert actions(ledger, old.id) == [("record", "", "active")]
    assert ledger.history(prop.id)[0].related == old.id

    ledger.approve(prop.id, author="Rev")
    got = ledger.get(old.id)
    assert got.lifecycle is Lifecycle.SUPERSEDED and got.superseded_by == prop.id
    assert ledger.verify(old.id).reason == f"superseded by {prop.id}: durability"
    assert ledger.verify(prop.id).status is Status.VERIFIED
    assert actions(ledger, old.id) == [("record", "", "active"), ("supersede", "active", "superseded")]
    assert actions(ledger, prop.id) == [("propose", "", "proposed"), ("approve", "proposed", "active")]
    assert ledger.store.pending() == []


def test_approve_is_only_for_a_proposal(ledger):
    active = ledger.record("save appends", [SAVE])
    with pytest.raises(memvet.NotAllowedError, match=f"decision {active.id} is active, not a proposal"):
        ledger.approve(active.id, author="Rev")
    prop = ledger.record("checksum is mod 255", ["shop/store.py::checksum"], proposed=True)
    ledger.approve(prop.id, author="Rev")
    with pytest.raises(memvet.NotAllowedError, match="only a proposal can be approved"):
        ledger.approve(prop.id, author="Rev")
    with pytest.raises(memvet.UnknownDecisionError):
        ledger.approve("nope0000", author="Rev")


def test_approve_refuses_when_the_superseded_one_moved_on(ledger):
    old = ledger.record("save appends", [SAVE])
    prop = ledger.supersede(old.id, "save appends and fsyncs", [SAVE], reason="durability", proposed=True)
    direct = ledger.supersede(old.id, "save writes a temp file then renames", [SAVE], reason="atomicity")
    with pytest.raises(memvet.NotAllowedError) as caught:
        ledger.approve(prop.id, author="Rev")
    message = str(caught.value)
    assert f"{old.id}, is already superseded by {direct.id}" in message
    assert "record anew or supersede the current one" in message
    assert ledger.get(prop.id).lifecycle is Lifecycle.PROPOSED  # nothing written


def test_a_proposal_can_be_rejected_but_not_revalidated_or_superseded(ledger):
    prop = ledger.record("save appends", [SAVE], proposed=True)
    with pytest.raises(memvet.NotAllowedError, match="is a proposal, not yet reviewed; approve it first"):
        ledger.revalidate(prop.id, reason="looked")
    with pytest.raises(memvet.NotAllowedError, match="is a proposal"):
        ledger.supersede(prop.id, "save truncates", reason="no")
    rejected = ledger.reject(prop.id, reason="it truncates, it does not append")
    assert rejected.lifecycle is Lifecycle.REJECTED
    assert ledger.verify(prop.id).status is Status.REJECTED
    assert actions(ledger, prop.id) == [("propose", "", "proposed"), ("reject", "proposed", "rejected")]
    with pytest.raises(memvet.NotAllowedError, match="is rejected, not a proposal"):
        ledger.approve(prop.id, author="Rev")


def test_near_duplicates_confirm_instead_of_copying(ledger):
    active = ledger.record("orders are stored in sqlite", ["shop/store.py::OrderStore.load"])
    again = ledger.record("orders are stored in sqlite", ["shop/store.py::OrderStore.load"], proposed=True)
    assert again.outcome == "confirmed" and again.id == active.id
    prop = ledger.record("checksum is mod 255", ["shop/store.py::checksum"], proposed=True)
    twice = ledger.record("checksum is mod 255", ["shop/store.py::checksum"], proposed=True)
    assert twice.outcome == "confirmed" and twice.id == prop.id
    assert twice.decision.lifecycle is Lifecycle.PROPOSED and twice.decision.confirmations == 1
    assert actions(ledger, prop.id) == [("propose", "", "proposed"), ("confirm", "proposed", "proposed")]
    # A person's direct record of the same claim is written, and names the open proposal.
    direct = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    assert direct.outcome == "recorded" and direct.id != prop.id
    assert any(f"proposed as {prop.id}, awaiting review" in w for w in direct.warnings)
    assert len(ledger.decisions()) == 3


def test_a_repeated_supersede_proposal_confirms_the_first(ledger):
    old = ledger.record("save appends", [SAVE])
    first = ledger.supersede(old.id, "save appends and fsyncs", [SAVE], reason="durability", proposed=True)
    second = ledger.supersede(old.id, "save appends and fsyncs", [SAVE], reason="durability", proposed=True)
    assert second.outcome == "confirmed" and second.id == first.id


def test_a_proposal_reports_conflicts_like_any_write(ledger):
    active = ledger.record("save appends", [SAVE])
    prop = ledger.record("save writes through a temp file", [SAVE], proposed=True)
    assert [c.decision.id for c in prop.conflicts] == [active.id]
    with pytest.raises(memvet.ConflictError):
        ledger.record("save holds a lock", [SAVE], proposed=True, on_conflict="error")


def test_proposals_carry_evidence_and_conflicts_for_review(repo, ledger):
    active = ledger.record("save appends", [SAVE])
    rejected = ledger.record("checksums use crc32")
    ledger.reject(rejected.id, reason="too slow")
    replacing = ledger.supersede(active.id, "save appends and fsyncs", [SAVE], reason="durability",
                                 proposed=True)
    sharing = ledger.record("save writes through a temp file", [SAVE], proposed=True)
    close = ledger.record("checksums use crc32 again", proposed=True)
    repo.replace("shop/store.py", 'open(self.path, "a")', 'open(self.path, "w")')
    found = {p.id: p for p in ledger.proposals()}
    assert list(found) == [replacing.id, sharing.id, close.id]
    assert all(p.verdict.status is Status.PROPOSED for p in found.values())
    assert found[sharing.id].verdict.reason.startswith("not yet reviewed; its evidence: stale (")
    assert found[sharing.id].verdict.checks[0].result is memvet.AnchorResult.CHANGED
    # The decision a proposal supersedes is no conflict of it; another active one is.
    assert found[replacing.id].conflicts == ()
    assert [c.decision.id for c in found[sharing.id].conflicts] == [active.id]
    assert any("previously tried, rejected: too slow" in w for w in found[close.id].warnings)
    data = found[sharing.id].to_dict()
    assert data["status"] == "proposed" and data["conflicts"][0]["id"] == active.id
    assert data["anchors"][0]["result"] == "changed" and data["unbound"] == []
    assert found[replacing.id].to_dict()["supersedes"] == active.id
    assert ledger.proposals(at="HEAD")[1].verdict.reason.startswith("not yet reviewed; its evidence: verified")


class SecondUpdateFails(ChromaStore):
    """A real store that dies after the first write of an approval (a crash between writes)."""

    updates = 0

    def replace_decision(self, decision):
        self.updates += 1
        if self.updates == 2:
            raise RuntimeError("killed between the two writes")
        super().replace_decision(decision)


def test_an_approval_killed_between_its_writes_is_finished_by_repair(repo, tmp_path):
    def open_() -> memvet.Ledger:
        return memvet.Ledger.open(repo.path, path=tmp_path / "ledger", embedding=memvet.HashingEmbedder(),
                                  namespace="approve-crash", disk_cache=False)

    ledger = open_()
    old = ledger.record("totals are floats")
    prop = ledger.supersede(old.id, "totals are decimals", reason="floats lose cents", proposed=True)
    ledger.store.__class__ = SecondUpdateFails
    with pytest.raises(RuntimeError, match="killed"):
        ledger.approve(prop.id, author="Rev")
    fresh = open_()
    # The approved successor landed first: the old one already reads as superseded.
    assert fresh.store.get_decisions([old.id])[0].lifecycle is Lifecycle.ACTIVE
    assert fresh.verify(old.id).status is Status.SUPERSEDED
    assert fresh.get(prop.id).lifecycle is Lifecycle.ACTIVE
    assert fresh.repair() == 1
    stored = fresh.store.get_decisions([old.id])[0]
    assert stored.lifecycle is Lifecycle.SUPERSEDED and stored.superseded_by == prop.id
    assert [r.action for r in fresh.history(prop.id)] == ["propose", "approve"]
    assert [r.action for r in fresh.history(old.id)] == ["record", "supersede"]


def test_replaying_an_approval_never_reopens_a_later_rejection(repo, client):
    """An approval journaled and never carried out is not replayed over a
    rejection that landed since (its proposal is no longer proposed)."""
    from memvet._store import Intent

    ledger = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                namespace=f"t{uuid.uuid4().hex[:12]}", disk_cache=False)
    prop = ledger.record("totals are decimals", proposed=True)
    receipt = ledger._receipt(prop.id, "approve", "proposed", "active", reason="", author="a", at=1.0,
                              commit="c")
    intent = Intent("approve", updates=(prop.decision.evolve(lifecycle=Lifecycle.ACTIVE),), receipts=(receipt,),
                    at=1.0)
    assert intent.starts_from(prop.id) == "proposed" and intent.starts_from("other") == "active"
    ledger.store.apply(Intent("reject", updates=(prop.decision.evolve(lifecycle=Lifecycle.REJECTED),)),
                       journaled=False)
    ledger.store.journal.add(ids=[intent.id], documents=[intent.to_json()], embeddings=[[1.0]],
                             metadatas=[{"kind": "intent"}])
    assert ledger.repair() == 1
    assert ledger.get(prop.id).lifecycle is Lifecycle.REJECTED


def test_two_approvals_racing_on_a_server_settle_on_the_earliest(repo, client):
    """Server mode has no lock: of two successors approved at once, the earliest wins."""
    ledger = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                namespace=f"t{uuid.uuid4().hex[:12]}", disk_cache=False)
    old = ledger.record("totals are floats")
    rival = ledger.store.get_decisions([old.id])[0].evolve(id="a0rival00000", claim="totals are cents",
                                                         supersedes=old.id, created_at=1.0)
    ledger.store.add_decision(rival, ledger.embedder.embed_query("totals are cents"))
    # A proposal made before the rival landed (written here below the ledger's checks).
    mine = ledger.store.get_decisions([old.id])[0].evolve(
        id="b0mine000000", claim="totals are decimals", lifecycle=Lifecycle.PROPOSED, supersedes=old.id,
        reason="floats lose cents", created_at=2.0)
    ledger.store.add_decision(mine, ledger.embedder.embed_query("totals are decimals"))
    ledger.store.__class__ = BlindToRival
    with pytest.raises(memvet.ConflictError, match="lost a race"):
        ledger.approve(mine.id, author="Rev")
    assert ledger.get(mine.id).lifecycle is Lifecycle.REJECTED
    assert ledger.get(old.id).superseded_by == rival.id


class BlindToRival(ChromaStore):
    """Hides the rival successor from the approval's first look, as in a real race."""

    blind = True

    def successors_of(self, ids):
        if self.blind:
            self.blind = False
            return {}
        return super().successors_of(ids)


# ===================================================================== the agent_writes setting


def test_agent_writes_comes_from_the_repository_config(repo, client):
    def open_(**kw) -> memvet.Ledger:
        return memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                  namespace="cfg", disk_cache=False, **kw)

    assert open_().agent_writes == "proposed"
    # Review policy counts once committed (an uncommitted edit is ignored: test_review_channel.py).
    repo.write("pyproject.toml", '[tool.memvet]\nagent-writes = "active"\n')
    repo.commit("agents write active")
    assert open_().agent_writes == "active"
    assert memvet.load_config(repo.path / "pyproject.toml").agent_writes == "active"
    assert open_(agent_writes="proposed").agent_writes == "proposed"  # the argument wins
    repo.write("pyproject.toml", '[tool.memvet]\nagent_writes = "proposed"\n')  # the spelling
    repo.commit("agents propose")
    assert open_().agent_writes == "proposed"
    repo.write("pyproject.toml", '[tool.memvet]\nagent_writes = "yes"\n')
    repo.commit("a bad policy")
    with pytest.raises(memvet.UsageError, match=r"pyproject.toml at HEAD \[tool.memvet\] agent-writes: expected "
                                                r"one of proposed, active, got 'yes'"):
        open_()
    with pytest.raises(memvet.UsageError, match="agent_writes: expected one of proposed, active, got 'Active'"):
        open_(agent_writes="Active")
