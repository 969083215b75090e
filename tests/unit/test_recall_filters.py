"""Recall filtered by tags and anchored paths, without turning the query into a scan."""

from __future__ import annotations

import pytest

import memvet
from memvet._filter import RecallFilter, as_names, make_filter


@pytest.fixture
def filed(repo, ledger):
    repo.write("shop/money/round.py", "def round_price(x):\n    return round(x, 2)\n")
    repo.write("docs/notes.md", "# Notes\n\nSome notes.\n")
    repo.commit("more files")
    ids = {
        "save": ledger.record("orders are appended one per line", ["shop/store.py::OrderStore.save"],
                              tags=["storage", "orders"]).id,
        "round": ledger.record("prices are rounded to cents", ["shop/money/round.py::round_price"],
                               tags=["money"]).id,
        "notes": ledger.record("the notes file is prose", ["docs/notes.md"], tags=["docs"]).id,
        "free": ledger.record("orders ship within a day", tags=["orders"]).id,
    }
    return ids


def ids_of(recall: memvet.Recall) -> set[str]:
    return {item.id for item in recall.items}


def test_tags_any_of(ledger, filed):
    assert ids_of(ledger.recall("orders", k=10, tags="orders")) == {filed["save"], filed["free"]}
    assert ids_of(ledger.recall("orders", k=10, tags=["money", "docs"])) == {filed["round"], filed["notes"]}
    assert ids_of(ledger.recall("orders", k=10, tags=["nothing"])) == set()


def test_a_tag_string_is_one_tag_not_characters(ledger, filed):
    # "mo" would match nothing as a tag; as characters "m" and "o" would match nothing either,
    # but "orders" as characters would never match "orders".
    assert ids_of(ledger.recall("orders", k=10, tags="money")) == {filed["round"]}


def test_paths_at_or_under(ledger, filed):
    assert ids_of(ledger.recall("x", k=10, paths="shop")) == {filed["save"], filed["round"]}
    assert ids_of(ledger.recall("x", k=10, paths=["shop/money/"])) == {filed["round"]}
    assert ids_of(ledger.recall("x", k=10, paths="./docs/notes.md")) == {filed["notes"]}
    # a prefix of a name is not a folder
    assert ids_of(ledger.recall("x", k=10, paths="sho")) == set()


def test_tags_and_paths_both_apply(ledger, filed):
    assert ids_of(ledger.recall("x", k=10, tags="orders", paths="shop")) == {filed["save"]}


def test_filters_with_groups_and_k(ledger, filed):
    got = ledger.recall("orders", k=1, tags="orders", include="caution")
    assert [i.id for i in got.items] == [filed["free"]]  # unanchored: caution
    assert ledger.recall("orders", k=1, tags="orders", include="current").items[0].id == filed["save"]


@pytest.mark.parametrize("bad, message", [
    (3, "tags must be a string or a list of strings, got int"),
    ([1], "tags must be strings, got int 1"),
    ([""], "tags must not be empty strings"),
])
def test_bad_tags(ledger, filed, bad, message):
    with pytest.raises(memvet.UsageError, match=message):
        ledger.recall("x", tags=bad)


@pytest.mark.parametrize("bad", ["/etc", "../up", ".", "  "])
def test_bad_paths(ledger, filed, bad):
    with pytest.raises(memvet.UsageError, match=r"path filter|must not be empty"):
        ledger.recall("x", paths=bad)


@pytest.mark.parametrize("k, message", [
    ("3", "k must be a whole number, got str '3'"),
    (2.5, "k must be a whole number, got float 2.5"),
    (True, "k must be a whole number, got bool True"),
    (-1, "k must be zero or more, got -1"),
])
def test_bad_k(ledger, filed, k, message):
    with pytest.raises(memvet.UsageError, match=message):
        ledger.recall("x", k=k)


def test_include_one_string_is_one_group(ledger, filed):
    assert {i.group for i in ledger.recall("orders", k=10, include="caution").items} == {"caution"}
    with pytest.raises(memvet.UsageError, match="unknown recall group"):
        ledger.recall("x", include="curent")
    with pytest.raises(memvet.UsageError, match="at least one recall group"):
        ledger.recall("x", include=())


def test_selective_filter_ranks_its_matches(ledger, filed, monkeypatch):
    """A filter matching under 1% of a plain fetch of PLAIN_LIMIT or more is
    fetched with a `get` and ranked in Python."""
    import memvet._ledger as ledger_module

    monkeypatch.setattr(ledger_module, "PLAIN_LIMIT", 2)
    calls = []
    query, nearest = ledger.store.query, ledger.store.nearest_where

    def spy(embedding, n, where=None):
        calls.append(("query", n))
        return query(embedding, n)

    def spy_where(embedding, where, limit):
        calls.append(("where", where))
        return nearest(embedding, where, limit)

    for i in range(30):
        ledger.record(f"shipping filler {i} parcel", tags=["bulk"])
    monkeypatch.setattr(ledger.store, "query", spy)
    monkeypatch.setattr(ledger.store, "nearest_where", spy_where)
    got = ledger.recall("shipping filler parcel", k=1, tags="money")
    assert [i.id for i in got.items] == [filed["round"]]
    assert calls == [("query", 20), ("where", {"tags": {"$contains": "money"}})]


def test_too_many_matches_ask_chroma_where(ledger, filed, monkeypatch):
    """A filter that misses the query's neighbourhood but matches many records
    is asked of Chroma as a `where` query (a bounded scan), not by widening
    the plain query to the whole namespace."""
    import memvet._ledger as ledger_module

    monkeypatch.setattr(ledger_module, "PLAIN_LIMIT", 2)
    monkeypatch.setattr(ledger_module, "SELECTIVE_LIMIT", 1)
    for i in range(30):
        ledger.record(f"shipping filler {i} parcel", tags=["bulk"])
    ledger.record("a second money decision about coins", tags=["money"])
    calls = []
    query = ledger.store.query

    def spy(embedding, n, where=None):
        calls.append((n, where))
        return query(embedding, n, where=where)

    monkeypatch.setattr(ledger.store, "query", spy)
    got = ledger.recall("shipping filler parcel", k=2, tags="money")
    assert len(got.items) == 2 and {i.claim for i in got.items} >= {"prices are rounded to cents"}
    assert calls == [(20, None), (20, {"tags": {"$contains": "money"}})]


def test_ranked_here_agrees_with_chroma(ledger, filed):
    vector = ledger.embedder.embed_query("orders are appended")
    ranked = ledger.store.nearest_where(vector, {"tags": {"$contains": "orders"}}, 10)
    chroma = [(d, s) for d, s in ledger.store.query(vector, 10) if "orders" in d.tags]
    assert [d.id for d, _ in ranked] == [d.id for d, _ in chroma]
    assert [round(s, 5) for _, s in ranked] == [round(s, 5) for _, s in chroma]
    assert ledger.store.nearest_where(vector, {"tags": {"$contains": "orders"}}, 1) is None
    assert ledger.store.nearest_where(vector, {"tags": {"$contains": "none"}}, 1) == []


def test_broad_filter_stays_on_the_plain_query(ledger, filed, monkeypatch):
    calls = []
    query = ledger.store.query

    def spy(embedding, n, where=None):
        calls.append((n, where))
        return query(embedding, n, where=where)

    monkeypatch.setattr(ledger.store, "query", spy)
    ledger.recall("orders", k=2, paths="shop")
    assert all(where is None for _, where in calls)


def test_folder_where_uses_anchor_dirs(ledger, filed):
    f = make_filter(paths="shop/money")
    assert f.where() == {"$or": [{"anchor_paths": {"$contains": "shop/money"}},
                                 {"anchor_dirs": {"$contains": "shop/money"}}]}
    got = ledger.store.query(ledger.embedder.embed_query("prices"), 10, where=f.where())
    assert [d.id for d, _ in got] == [filed["round"]]
    both = RecallFilter(("a",), ("b",)).where()
    assert set(both) == {"$and"} and len(both["$and"]) == 2


def test_as_names():
    assert as_names(None, "x") == ()
    assert as_names("a", "x") == ("a",)
    assert as_names(["a", "b", "a"], "x") == ("a", "b")
    assert make_filter([], None) is None


def test_ledger_open_refuses_a_file_path(repo, client, tmp_path):
    with pytest.raises(memvet.UsageError, match=r"^Ledger\.open takes a folder inside a git repository, not a file: "):
        memvet.Ledger.open(repo.path / "README.md", client=client, embedding=memvet.HashingEmbedder())
    try:
        memvet.Ledger.open(str(repo.path / "README.md"), client=client, embedding=memvet.HashingEmbedder())
    except memvet.UsageError as exc:
        assert "\n" not in str(exc) and str(exc).endswith(f"(pass its folder, {repo.path})")
    afile = tmp_path / "ledger.txt"
    afile.write_text("x")
    with pytest.raises(memvet.UsageError, match="path is where the ledger's folder goes, not a file"):
        memvet.Ledger.open(repo.path, path=afile, embedding=memvet.HashingEmbedder())


def test_record_one_tag_string_is_one_tag_and_none_anchors_are_none(ledger):
    d = ledger.record("the team prefers small commits", None, tags="process").decision
    assert d.tags == ("process",) and d.anchors == ()
    one = ledger.record("orders are appended one per line", "shop/store.py::OrderStore.save", tags=None).decision
    assert [a.spec for a in one.anchors] == ["shop/store.py::OrderStore.save"] and one.tags == ()
