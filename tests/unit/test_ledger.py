"""The ledger end to end on real git repositories: every status, every framing,
conflicts, confirmations, lifecycle rules and crash-safe supersede."""

from __future__ import annotations

import json
import time
import uuid

import pytest

import memvet
from memvet import Lifecycle, Status
from memvet._store import ChromaStore


def statuses(ledger: memvet.Ledger, at: str | None = None) -> dict[str, Status]:
    return {v.id: v.status for v in ledger.check(at=at)}


def test_verified_then_stale_after_a_rewrite(repo, ledger):
    rec = ledger.record("Orders are appended as JSON lines", ["shop/store.py::OrderStore.save"])
    assert rec.outcome == "recorded"
    assert ledger.verify(rec.id).status is Status.VERIFIED
    repo.replace("shop/store.py", 'open(self.path, "a")', 'open(self.path, "w")')
    repo.commit("truncate instead of append")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.STALE
    assert "shop/store.py::OrderStore.save" in verdict.reason
    assert "changed" in verdict.reason
    # The recorded commit still shows it verified: verdicts are per target.
    assert ledger.verify(rec.id, at="HEAD~1").status is Status.VERIFIED


def test_unrelated_and_cosmetic_edits_are_not_flagged(repo, ledger):
    rec = ledger.record("save appends", ["shop/store.py::OrderStore.save"])
    repo.replace("shop/store.py", "def checksum(data):\n    return sum(data) % 255",
                 "def checksum(data):\n    return sum(data) % 251")
    repo.replace("shop/store.py", '        """Write one order atomically."""',
                 '        """Write one order, appending it."""\n        # a comment\n')
    repo.commit("unrelated + cosmetic")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.VERIFIED
    assert verdict.checks[0].result is memvet.AnchorResult.HOLDS


def test_worktree_edits_are_seen_without_a_commit(repo, ledger):
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    repo.replace("shop/store.py", "% 255", "% 7")
    assert ledger.verify(rec.id).status is Status.STALE            # default: working tree
    assert ledger.verify(rec.id, at="HEAD").status is Status.VERIFIED


def test_moved_symbol_needs_revalidation_with_both_paths(repo, ledger):
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    text = repo.read("shop/store.py")
    body = text[text.index("def checksum"):]
    repo.write("shop/store.py", text.replace(body, ""), dedent=False)
    repo.write("shop/util.py", body, dedent=False)
    repo.commit("move checksum")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert "moved from shop/store.py to shop/util.py" in verdict.reason
    assert verdict.checks[0].new_path == "shop/util.py"


def test_renamed_symbol_with_same_body_is_a_move(repo, ledger):
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    repo.replace("shop/store.py", "def checksum(data)", "def crc(data)")
    repo.commit("rename")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert "shop/store.py::crc" in verdict.reason


def test_renamed_file_is_a_move(repo, ledger):
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    repo.move("shop/store.py", "shop/storage.py")
    repo.commit("rename file")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert "to shop/storage.py" in verdict.reason


def test_deleted_symbol_is_refuted(repo, ledger):
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    text = repo.read("shop/store.py")
    repo.write("shop/store.py", text[: text.index("def checksum")], dedent=False)
    repo.commit("drop checksum")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED
    assert "no longer defined in shop/store.py" in verdict.reason


def test_deleted_file_is_refuted(repo, ledger):
    rec = ledger.record("the README explains", ["README.md"])
    repo.delete("README.md")
    repo.commit("drop readme")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED
    assert "README.md: the file was deleted" in verdict.reason


def test_file_anchor_changes_are_stale(repo, ledger):
    rec = ledger.record("the README is short", ["README.md"])
    repo.write("README.md", "# Shop\n\nLonger now.\n")
    assert ledger.verify(rec.id).status is Status.STALE


def test_precedence_refuted_over_stale(repo, ledger):
    rec = ledger.record("two anchors", ["shop/store.py::OrderStore.save", "README.md"])
    repo.replace("shop/store.py", "return True", "return None")
    repo.delete("README.md")
    repo.commit("both")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED
    assert [c.result.value for c in verdict.checks] == ["changed", "missing"] or \
        sorted(c.result.value for c in verdict.checks) == ["changed", "missing"]


def test_unanchored_is_caution(ledger):
    rec = ledger.record("The team prefers small pull requests")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.UNANCHORED
    assert verdict.reason == "no evidence in the code; unconfirmed"


def test_expired_decision_needs_revalidation(ledger):
    rec = ledger.record("Temporary freeze on the API", expires_at=time.time() - 10)
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert "expired" in verdict.reason


def test_the_ledger_clock_stamps_every_act_and_judges_expiry(open_ledger, clock):
    ledger = open_ledger(clock=clock)
    start = clock()
    freeze = ledger.record("Temporary freeze on the API", expires_at=start + 3600).id
    floats = ledger.record("Totals are floats", ["shop/store.py::checksum"], expires_at=start + 3600).id
    saved = ledger.record("Orders are appended as JSON lines", ["shop/store.py::OrderStore.save"],
                          proposed=True).id
    assert {ledger.get(i).created_at for i in (freeze, floats, saved)} == {start}
    assert statuses(ledger) == {freeze: Status.UNANCHORED, floats: Status.VERIFIED, saved: Status.PROPOSED}
    clock.advance(3600)  # expiry is judged by the ledger's clock, with anchors or without
    assert ledger.verify(freeze).status is Status.NEEDS_REVALIDATION
    assert statuses(ledger)[floats] is Status.NEEDS_REVALIDATION
    decimals = ledger.supersede(floats, "Totals are Decimals", ["shop/store.py::checksum"],
                                reason="floats lose cents").id
    assert ledger.get(decimals).created_at == ledger.get(floats).resolved_at == start + 3600
    clock.advance(60)
    ledger.reject(freeze, reason="the freeze ended")
    ledger.approve(saved, reason="checked OrderStore.save", author="Rev")
    assert ledger.get(freeze).resolved_at == start + 3660
    clock.advance(60)
    ledger.revalidate(decimals, reason="still true")
    stamps = {(r.decision_id, r.action): r.at for r in ledger.log()}
    assert stamps == {(freeze, "record"): start, (floats, "record"): start, (saved, "propose"): start,
                      (floats, "supersede"): start + 3600, (decimals, "record"): start + 3600,
                      (freeze, "reject"): start + 3660, (saved, "approve"): start + 3660,
                      (decimals, "revalidate"): start + 3720}


def test_reject_and_supersede_are_history_with_receipts(ledger):
    a = ledger.record("Use a global lock around saves")
    rejected = ledger.reject(a.id, reason="it deadlocked")
    assert rejected.lifecycle is Lifecycle.REJECTED
    b = ledger.record("Totals are floats", ["shop/store.py::checksum"])
    new = ledger.supersede(b.id, "Totals are Decimals", ["shop/store.py::checksum"], reason="floats lose cents")
    assert new.outcome == "superseded"
    got = statuses(ledger)
    assert got[a.id] is Status.REJECTED
    assert got[b.id] is Status.SUPERSEDED
    assert got[new.id] is Status.VERIFIED
    old = ledger.get(b.id)
    assert old.superseded_by == new.id and old.lifecycle is Lifecycle.SUPERSEDED
    actions = [(r.action, r.from_lifecycle, r.to_lifecycle) for r in ledger.history(b.id)]
    assert actions == [("record", "", "active"), ("supersede", "active", "superseded")]
    assert [r.action for r in ledger.history(a.id)] == ["record", "reject"]
    assert {r.decision_id for r in ledger.log()} == {a.id, b.id, new.id}


def test_lifecycle_acts_need_reasons_and_active_decisions(ledger):
    a = ledger.record("Cache sessions")
    with pytest.raises(memvet.UsageError, match="needs a reason"):
        ledger.reject(a.id, reason=" ")
    ledger.reject(a.id, reason="memory blew up")
    with pytest.raises(memvet.NotAllowedError, match="already rejected"):
        ledger.reject(a.id, reason="again")
    with pytest.raises(memvet.NotAllowedError):
        ledger.supersede(a.id, "Cache sessions in redis", reason="x")
    with pytest.raises(memvet.UsageError, match="needs a reason"):
        ledger.supersede(a.id, "Cache sessions in redis", reason="")


def test_framing_strings_for_every_group(repo, ledger):
    verified = ledger.record("checksum is a sum modulo 255", ["shop/store.py::checksum"])
    stale = ledger.record("save appends one line per order", ["shop/store.py::OrderStore.save"])
    gone = ledger.record("the README explains the shop", ["README.md"])
    unanchored = ledger.record("we prefer small pull requests")
    rejected = ledger.record("use a global lock around order saves")
    ledger.reject(rejected.id, reason="it deadlocked under load")
    old = ledger.record("order totals are floats")
    new = ledger.supersede(old.id, "order totals are decimals", reason="floats lost cents")
    repo.replace("shop/store.py", "return True", "return 1")
    repo.delete("README.md")
    repo.commit("drift")
    texts = {}
    for query in ("checksum", "save order line", "README shop", "pull requests", "global lock", "order totals"):
        for item in ledger.recall(query, k=20).items:
            texts[item.id] = (item.status, item.text, item.group)
    assert texts[verified.id] == (Status.VERIFIED, "checksum is a sum modulo 255", "current")
    assert texts[stale.id][2] == "caution"
    assert texts[stale.id][1].startswith("stale, the evidence it rested on was rewritten (")
    assert texts[unanchored.id][1] == "unconfirmed, no evidence in the code: we prefer small pull requests"
    assert texts[gone.id][2] == "history"
    assert texts[gone.id][1].startswith("contradicted by the code: README.md: the file was deleted")
    assert texts[rejected.id][1] == ("previously tried, rejected: it deadlocked under load "
                                     "(was: use a global lock around order saves)")
    assert texts[old.id][1] == f"superseded by {new.id}: floats lost cents (was: order totals are floats)"
    assert texts[new.id][2] == "caution"  # unanchored successor


def test_needs_revalidation_framing(repo, ledger):
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    repo.replace("shop/store.py", "def checksum(data)", "def crc(data)")
    item = ledger.recall("checksum", k=1).items[0]
    assert item.id == rec.id
    assert item.text.startswith("needs revalidation (shop/store.py::checksum: moved from")


def test_recall_groups_and_k(ledger):
    ids = [ledger.record(f"decision number {i} about caching").id for i in range(6)]
    ledger.reject(ids[0], reason="no")
    result = ledger.recall("caching decision", k=3)
    assert len(result.items) == 3
    only_current = ledger.recall("caching decision", k=3, include=["history"])
    assert [i.id for i in only_current.items] == [ids[0]]
    assert ledger.recall("caching", k=0).items == ()
    with pytest.raises(memvet.UsageError):
        ledger.recall("   ")


def test_conflict_on_shared_anchor_warn_and_error(ledger):
    first = ledger.record("save appends", ["shop/store.py::OrderStore.save"])
    second = ledger.record("save must fsync after writing", ["shop/store.py::OrderStore.save"])
    assert second.outcome == "recorded"
    assert [c.decision.id for c in second.conflicts] == [first.id]
    assert "shares anchor symbol:shop/store.py::OrderStore.save" in second.conflicts[0].why
    before = len(ledger.decisions())
    with pytest.raises(memvet.ConflictError, match="supersede them explicitly") as info:
        ledger.record("save writes to a temp file", ["shop/store.py::OrderStore.save"], on_conflict="error")
    assert {c.decision.id for c in info.value.conflicts} == {first.id, second.id}
    assert len(ledger.decisions()) == before  # nothing written


def test_similar_claim_conflicts_and_near_duplicate_confirms(ledger):
    first = ledger.record("orders are stored in sqlite", ["shop/store.py::OrderStore.load"])
    again = ledger.record("orders are stored in sqlite", ["shop/store.py::OrderStore.load"])
    assert again.outcome == "confirmed" and again.id == first.id
    assert ledger.get(first.id).confirmations == 1
    assert [r.action for r in ledger.history(first.id)] == ["record", "confirm"]
    similar = ledger.record("orders are stored in sqlite files")
    assert similar.outcome == "recorded"
    assert any(c.decision.id == first.id and "similar claim" in c.why for c in similar.conflicts)


def test_a_near_duplicate_with_a_finding_of_its_own_is_no_confirmation(open_ledger):
    # one word apart, the same anchor: the second names what the code does not say (a low
    # duplicate threshold makes the two near duplicates for the test's hashing embedder)
    ledger = open_ledger(duplicate_threshold=0.5)
    first = ledger.record("OrderStore.save opens the file with `open(self.path, \"a\")` and appends",
                          ["shop/store.py::OrderStore.save"])
    again = ledger.record("OrderStore.save opens the file with `open(self.path, \"w\")` and appends",
                          ["shop/store.py::OrderStore.save"])
    assert again.outcome != "confirmed" and again.id != first.id
    assert again.findings and ledger.verify(again.id).status is memvet.Status.NEEDS_REVALIDATION
    assert ledger.get(first.id).confirmations == 0
    # the same words again, with no finding of their own, still confirm
    same = ledger.record("OrderStore.save opens the file with `open(self.path, \"a\")` and appends",
                         ["shop/store.py::OrderStore.save"])
    assert same.outcome == "confirmed" and same.id == first.id


def test_close_to_rejected_warns_with_the_reason(ledger):
    old = ledger.record("wrap saves in a global lock")
    ledger.reject(old.id, reason="it deadlocked")
    result = ledger.record("wrap saves in a global lock again")
    assert result.outcome == "recorded"
    assert any("previously tried, rejected: it deadlocked" in w for w in result.warnings)


def test_superseding_names_no_conflict_with_the_old_one(ledger):
    old = ledger.record("save appends", ["shop/store.py::OrderStore.save"])
    new = ledger.supersede(old.id, "save appends and fsyncs", ["shop/store.py::OrderStore.save"], reason="durability")
    assert new.conflicts == ()


class FailingUpdateStore(ChromaStore):
    """A real store whose second write of a supersede dies (a crash between writes)."""

    def replace_decision(self, decision):
        raise RuntimeError("killed between the two writes")


def test_supersede_is_crash_safe(repo, client):
    ns = f"t{uuid.uuid4().hex[:12]}"
    ledger = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                namespace=ns, disk_cache=False)
    old = ledger.record("totals are floats")
    ledger.store.__class__ = FailingUpdateStore
    with pytest.raises(RuntimeError, match="killed"):
        ledger.supersede(old.id, "totals are decimals", reason="floats lose cents")
    # Reopen as another process would: the successor landed, the old record was never updated.
    fresh = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                               namespace=ns, disk_cache=False)
    stored = fresh.store.get_decisions([old.id])[0]
    assert stored.lifecycle is Lifecycle.ACTIVE
    got = {v.decision.claim: v for v in fresh.check()}
    assert got["totals are floats"].status is Status.SUPERSEDED
    assert "floats lose cents" in got["totals are floats"].reason
    assert got["totals are decimals"].status is Status.UNANCHORED
    # Never two current successors: a second supersede of the old one is refused.
    with pytest.raises(memvet.NotAllowedError):
        fresh.supersede(old.id, "totals are integers of cents", reason="again")


def test_revalidate_follows_a_move(repo, ledger):
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    repo.replace("shop/store.py", "def checksum(data)", "def crc(data)")
    repo.commit("rename")
    assert ledger.verify(rec.id).status is Status.NEEDS_REVALIDATION
    verdict = ledger.revalidate(rec.id, reason="checked: only renamed")
    assert verdict.status is Status.VERIFIED
    assert ledger.get(rec.id).anchors[0].name == "crc"
    assert [r.action for r in ledger.history(rec.id)] == ["record", "revalidate"]


def test_revalidate_refuses_a_missing_anchor(repo, ledger):
    rec = ledger.record("readme", ["README.md"])
    repo.delete("README.md")
    repo.commit("gone")
    with pytest.raises(memvet.AnchorNotFoundError, match="supersede or reject it instead"):
        ledger.revalidate(rec.id, reason="x")


def test_ids_by_unique_prefix(ledger):
    rec = ledger.record("something")
    assert ledger.get(rec.id[:6]).id == rec.id
    with pytest.raises(memvet.UnknownDecisionError):
        ledger.get("zzzzzzzz")
    with pytest.raises(memvet.UnknownDecisionError):
        ledger.get("")


def test_ambiguous_prefix(ledger):
    ids = [ledger.record(f"claim {i}").id for i in range(40)]
    prefixes = {}
    for i in ids:
        prefixes.setdefault(i[:1], []).append(i)
    shared = next(p for p, v in prefixes.items() if len(v) > 1)
    # A 1-character prefix is never expanded; build a 4-char ambiguity by hand instead.
    with pytest.raises(memvet.UnknownDecisionError):
        ledger.get(shared)
    a = ledger.store.get_decisions([ids[0]])[0]
    twin = a.evolve(id=ids[0][:4] + "ffffffff")
    ledger.store.add_decision(twin, ledger.embedder.embed_query("x"))
    with pytest.raises(memvet.AmbiguousIdError, match="matches 2 decisions"):
        ledger.get(ids[0][:4])


def test_namespaces_are_isolated(repo, client):
    one = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(), namespace="team-a-x1")
    two = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(), namespace="team-b-x1")
    rec = one.record("only team a knows")
    assert two.recall("only team a knows").items == ()
    with pytest.raises(memvet.UnknownDecisionError):
        two.get(rec.id)


def test_default_namespace_is_the_repository_identity(repo, client):
    ledger = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder())
    root = repo.git("rev-list", "--max-parents=0", "HEAD")
    assert ledger.namespace == root


def test_corrupt_record_is_reported_and_others_still_checked(ledger):
    good = ledger.record("a good one")
    ledger.store.decisions.add(ids=["badrecord01"], documents=["x"], embeddings=[ledger.embedder.embed_query("x")],
                               metadatas=[{"schema": 1, "lifecycle": "nonsense"}])
    seen: list[str] = []
    verdicts = {v.id: v for v in ledger.check(on_verdict=lambda v: seen.append(v.id))}
    assert verdicts[good.id].status is Status.UNANCHORED
    assert verdicts["badrecord01"].status is Status.NEEDS_REVALIDATION
    assert "cannot be read" in verdicts["badrecord01"].reason
    assert sorted(seen) == sorted(verdicts)  # the unreadable record moves a progress bar too
    found, bad = ledger.records()
    assert [d.id for d in found] == [good.id]
    assert [e.record_id for e in bad] == ["badrecord01"]  # the id travels on the error, never parsed from its text


def test_verdicts_report_each_decision_as_it_is_made(repo, ledger):
    """``Ledger.verdicts`` keeps the input order and calls ``on_verdict``
    once per decision, early ones (no anchors) before anchored ones."""
    anchored = ledger.record("save appends", ["shop/store.py::OrderStore.save"]).decision
    bare = ledger.record("we pair on Fridays").decision
    seen: list[str] = []
    snap = ledger.snapshot("HEAD")
    out = ledger.verdicts([anchored, bare], snap, on_verdict=lambda v: seen.append(v.id))
    assert [v.id for v in out] == [anchored.id, bare.id]
    assert seen == [bare.id, anchored.id]
    assert [v.status for v in out] == [Status.VERIFIED, Status.UNANCHORED]
    # Lifecycles are taken as given: a rejected copy reads rejected, whatever is stored.
    gone = anchored.evolve(lifecycle=Lifecycle.REJECTED, reason="tried it")
    assert ledger.verdicts([gone], "HEAD")[0].status is Status.REJECTED
    # Expiry follows the clock passed in.
    expiring = anchored.evolve(expires_at=1000.0)
    assert ledger.verdicts([expiring], now=999.0)[0].status is Status.VERIFIED
    assert ledger.verdicts([expiring], now=1001.0)[0].status is Status.NEEDS_REVALIDATION
    assert ledger.count() == 2


def test_other_embedder_on_the_same_ledger_reads_but_does_not_write(repo, client):
    ns = f"t{uuid.uuid4().hex[:12]}"
    one = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(), namespace=ns)
    rec = one.record("checksum is mod 255", ["shop/store.py::checksum"])
    other = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(dim=64), namespace=ns)
    assert other.verify(rec.id).status is Status.VERIFIED
    with pytest.raises(memvet.UsageError, match="'hashing-256', not by 'hashing-64'"):
        other.record("another decision")


def test_default_persistent_ledger_survives_reopen(repo, tmp_path):
    path = tmp_path / "ledger"
    one = memvet.Ledger.open(repo.path, path=path, embedding=memvet.HashingEmbedder())
    rec = one.record("persisted", ["shop/store.py::checksum"])
    two = memvet.Ledger.open(repo.path, path=path, embedding=memvet.HashingEmbedder())
    assert two.verify(rec.id).status is Status.VERIFIED
    assert (path / "cache").exists()


def test_cached_successor_answers_follow_writes_from_another_ledger(repo, tmp_path):
    """A local ledger caches 'who supersedes these?' per write generation; a
    supersede made through another ledger object (another writer) is seen."""
    ns = f"t{uuid.uuid4().hex[:12]}"
    path = tmp_path / "ledger"
    one = memvet.Ledger.open(repo.path, path=path, embedding=memvet.HashingEmbedder(), namespace=ns)
    old = one.record("totals are floats in orders")
    assert one.recall("totals are floats", k=1).items[0].status is Status.UNANCHORED
    assert one.recall("totals are floats", k=1).items[0].status is Status.UNANCHORED   # served from the cache
    two = memvet.Ledger.open(repo.path, path=path, embedding=memvet.HashingEmbedder(), namespace=ns)
    # The successor lands and the old record is never updated (a crash between the writes).
    successor = one.get(old.id).evolve(id="succ00000001", claim="totals are decimals", supersedes=old.id,
                                       reason="floats lose cents")
    with two.store.writing():
        two.store.add_decision(successor, two.embedder.embed_query("totals are decimals"))
    item = one.recall("totals are floats", k=1).items[0]   # the same candidates as the cached answer
    assert item.id == old.id and item.status is Status.SUPERSEDED
    assert "floats lose cents" in item.reason


def test_repository_identity_is_remembered_and_rechecked(repo, tmp_path, client):
    from memvet._ledger import _identity

    root = repo.git("rev-list", "--max-parents=0", "HEAD")
    cache = tmp_path / "ledger" / "identity.json"
    git = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                             namespace="idtest1").git
    assert _identity(git, cache) == root
    assert json.loads(cache.read_text())["root"] == root
    repo.write("more.txt", "x")
    repo.commit("forward")                       # a descendant of the remembered HEAD: reused
    assert _identity(git, cache) == root
    assert json.loads(cache.read_text())["head"] == repo.git("rev-parse", "HEAD")
    cache.write_text(json.dumps({"root": "0" * 40, "head": repo.git("rev-parse", "HEAD")}))
    assert _identity(git, cache) == root        # a root that is not in the repository: recomputed
    cache.write_text("{torn")
    assert _identity(git, cache) == root        # unreadable: recomputed
    orphan = repo.git("commit-tree", "-m", "new root", repo.git("rev-parse", "HEAD^{tree}"))
    repo.git("reset", "-q", "--hard", orphan)    # rewritten history: HEAD no longer descends
    assert _identity(git, cache) == orphan
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    assert _identity(git, blocked / "identity.json") == orphan   # cannot remember: still answers


def test_a_check_pauses_the_collector_and_resumes_it_after(repo, ledger):
    """The cyclic collector is off while a whole-namespace check runs (its
    full passes over thousands of live records cost a tenth of a large
    check), and on again afterwards, after a failed check too."""
    import gc

    from memvet._verify import collector_paused

    ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    during: list[bool] = []
    assert gc.isenabled()
    ledger.check(on_verdict=lambda v: during.append(gc.isenabled()))
    ledger.verdicts(ledger.decisions(), "HEAD", on_verdict=lambda v: during.append(gc.isenabled()))
    assert during == [False, False]
    assert gc.isenabled()

    def boom(verdict: memvet.Verdict) -> None:
        raise RuntimeError("a progress bar failed")

    with pytest.raises(RuntimeError, match="progress bar"):
        ledger.check(on_verdict=boom)
    assert gc.isenabled()
    # Nested pauses resume when the last one ends; a collector the host
    # turned off stays off.
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        ledger.check()
        assert not gc.isenabled()
    finally:
        gc.enable()
