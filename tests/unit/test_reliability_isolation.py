"""Tenant isolation: no read in one namespace ever returns another's decisions,
including ids guessed across namespaces, whatever the namespace strings are."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import memvet
from memvet._ledger import compose_namespace
from memvet._store import collection_name
from memvet._unicode import fold_and_check

# Names chosen to collide under naive cleaning ("team a" / "team-a"), to name
# another namespace's side collections ("x.receipts"), or to look like paths.
TRICKY = ["x", "x.receipts", "x.journal", "team a", "team-a", "team_a", "Team-A", "tëam", "a/b", "a:b",
          "../x", "$ne", '{"$or": []}', "x" * 300]
namespaces = st.one_of(st.sampled_from(TRICKY), st.text(min_size=1, max_size=40).filter(str.strip))


def _accepted(claim: str) -> bool:
    """Whether the write path's Unicode check lets ``claim`` through (it
    refuses confusable names such as ``Æ0`` with one line, which
    test_unicode_writes.py covers): isolation is tested on what can be written."""
    try:
        fold_and_check(claim, "the claim")
    except memvet.UsageError:
        return False
    return True


claims = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1,
                 max_size=60).filter(lambda t: _accepted(f"x: {t}"))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(namespaces, min_size=2, max_size=6, unique=True))
def test_distinct_namespaces_get_distinct_collections(names):
    collections = [collection_name(n) for n in names]
    assert len(set(collections)) == len(collections)
    side = {c + suffix for c in collections for suffix in (".receipts", ".journal")}
    assert not side & set(collections)
    for c in collections:
        assert 3 <= len(c) <= 512


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(names=st.lists(namespaces, min_size=2, max_size=3, unique=True),
       texts=st.lists(claims, min_size=1, max_size=3))
def test_no_read_crosses_namespaces(repo, client, names, texts):
    assume(all(_accepted(f"{n}: {t}") for n in names for t in texts))
    run = uuid.uuid4().hex[:8]  # the ephemeral client outlives one example
    ledgers = {n: memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                     namespace=f"{run}{n}", disk_cache=False) for n in names}
    owned: dict[str, set[str]] = {}
    for n, ledger in ledgers.items():
        owned[n] = {ledger.record(f"{n}: {t}").id for t in texts}
    all_claims = [d.claim for ledger in ledgers.values() for d in ledger.decisions()]
    for n, ledger in ledgers.items():
        mine = owned[n]
        others = set().union(*(owned[o] for o in names if o != n)) - mine
        assert {d.id for d in ledger.decisions()} == mine
        assert {v.id for v in ledger.check()} == mine
        assert {r.decision_id for r in ledger.log()} == mine
        for text in all_claims:
            assert {item.id for item in ledger.recall(text, k=10).items} <= mine
        for guessed in others:
            for probe in (guessed, guessed[:6]):
                try:
                    got = ledger.get(probe)
                except (memvet.UnknownDecisionError, memvet.AmbiguousIdError):
                    continue
                assert got.id in mine  # a prefix may match one of our own ids, never theirs
            with pytest.raises(memvet.UnknownDecisionError):
                ledger.history(guessed)
            with pytest.raises(memvet.UnknownDecisionError):
                ledger.reject(guessed, reason="guessed across namespaces")
            with pytest.raises(memvet.UnknownDecisionError):
                ledger.supersede(guessed, "a hijack", reason="guessed across namespaces")
    for n, ledger in ledgers.items():  # the refused acts changed nothing anywhere
        assert {d.id for d in ledger.decisions() if d.lifecycle.value == "active"} == owned[n]


def test_team_and_user_narrow_the_namespace(repo, client):
    def open_(**kw):
        return memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                  disk_cache=False, **kw)

    repo_wide = open_()
    team = open_(team="payments")
    alice = open_(team="payments", user="alice")
    bob = open_(team="payments", user="bob")
    solo = open_(user="alice")
    root = repo.git("rev-list", "--max-parents=0", "HEAD")
    assert team.namespace == f"{root}/team:payments"
    assert alice.namespace == f"{root}/team:payments/user:alice"
    assert solo.namespace == f"{root}/user:alice"
    ids = {name: ledger.record(f"decided by {name}").id
           for name, ledger in [("repo", repo_wide), ("team", team), ("alice", alice), ("bob", bob),
                                ("solo", solo)]}
    for name, ledger in [("repo", repo_wide), ("team", team), ("alice", alice), ("bob", bob), ("solo", solo)]:
        assert [d.id for d in ledger.decisions()] == [ids[name]]


@pytest.mark.parametrize(("team", "user"), [("a/b", None), ("", None), (None, "x:y"), ("team a", None),
                                            ("$ne", None), (None, "ü"), ("x" * 65, None), (None, 3)])
def test_team_and_user_names_that_would_blur_the_convention_are_refused(repo, client, team, user):
    with pytest.raises(memvet.UsageError, match=r"invalid (team|user)"):
        memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(), team=team, user=user)


def test_namespace_convention_is_unambiguous():
    assert compose_namespace("r", "a", "b") != compose_namespace("r", None, "b")
    assert compose_namespace("r", "a") != compose_namespace("r", None, "a")
    assert compose_namespace("r") == "r"


def test_a_collection_owned_by_another_namespace_is_refused(repo, client):
    """Even a hash collision (or a hand-made collection) cannot mix two namespaces."""
    client.get_or_create_collection(collection_name("owned-elsewhere"), metadata={"namespace": "someone else"},
                                    embedding_function=None)
    with pytest.raises(memvet.StoreError, match="belongs to namespace 'someone else'"):
        memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                           namespace="owned-elsewhere")


@pytest.mark.parametrize("namespace", ["", "   "])
def test_empty_namespace_is_a_usage_error(repo, client, namespace):
    with pytest.raises(memvet.UsageError, match="invalid namespace"):
        memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(), namespace=namespace)
