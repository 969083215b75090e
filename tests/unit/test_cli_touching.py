"""``recall --touching`` is loud on what names nothing (a missing file, folder,
glob or symbol: exit 2, one line naming it) and finds a decision whose
symbol was renamed by either its old or its new name."""

from __future__ import annotations

import json

import pytest
from _cli import record

pytestmark = pytest.mark.timeout(300)


def _ids(out: str) -> set[str]:
    data = json.loads(out)
    return {i["id"] for group in ("current", "caution", "history") for i in data[group]}


@pytest.mark.parametrize(("spec", "message"), [
    ("shop/store.py::no_such_symbol",
     "'shop/store.py::no_such_symbol': shop/store.py has no symbol 'no_such_symbol' in the working tree"),
    ("shop/store.py::OrderStore.nope", "shop/store.py has no symbol 'OrderStore.nope'"),
    ("shop/missing.py", "'shop/missing.py': shop/missing.py is no file or folder in the working tree, "
                        "and no decision is anchored there"),
    ("nowhere/", "nowhere is no file or folder"),
    ("shop/*.rs", "'shop/*.rs': shop/*.rs matches no file in the working tree"),
])
def test_touching_what_does_not_exist_is_exit_2_naming_it(run, spec, message):
    record(run, "save appends a line", "--symbol", "shop/store.py::OrderStore.save")
    bad = run("recall", "--touching", "shop/store.py", spec, code=2)
    assert bad.stderr.startswith("memvet: error: ") and bad.stderr.count("\n") == 1
    assert message in bad.stderr
    assert bad.stdout == ""


def test_touching_what_exists_without_decisions_is_still_an_answer(run, repo):
    did = record(run, "save appends a line", "--symbol", "shop/store.py::OrderStore.save")
    out = run("recall", "--touching", "shop/store.py::checksum").stdout
    assert out.strip() == "no decision rests on what you touch (touching shop/store.py::checksum)"
    assert _ids(run("recall", "--touching", "shop/store.py::OrderStore", "--json").stdout) == {did}
    assert _ids(run("recall", "--touching", "shop/*.py", "shop", "--json").stdout) == {did}


def test_a_deleted_file_is_still_named_by_the_decisions_anchored_there(run, repo):
    did = record(run, "checksum is mod 255", "--symbol", "shop/store.py::checksum")
    repo.delete("shop/store.py")
    repo.commit("drop the store")
    for spec in ("shop/store.py", "shop/store.py::checksum"):
        data = json.loads(run("recall", "--touching", spec, "--json").stdout)
        assert [i["id"] for i in data["history"]] == [did]


def test_a_renamed_symbol_is_found_by_its_old_and_its_new_name(run, repo):
    did = record(run, "checksum is mod 255", "--symbol", "shop/store.py::checksum")
    repo.replace("shop/store.py", "def checksum(data):", "def order_checksum(data):")
    repo.commit("rename checksum")
    for spec in ("shop/store.py::checksum", "shop/store.py::order_checksum"):
        out = run("recall", "--touching", spec, "--json").stdout
        assert _ids(out) == {did}, spec
    moved = json.loads(run("recall", "--touching", "shop/store.py::order_checksum", "--json").stdout)
    assert moved["caution"][0]["status"] == "needs_revalidation"


def test_a_symbol_moved_to_another_file_under_a_new_name(run, repo):
    did = record(run, "checksum is mod 255", "--symbol", "shop/store.py::checksum")
    body = repo.read("shop/store.py")
    start = body.index("def checksum(data):")
    repo.write("shop/sums.py", body[start:].replace("def checksum", "def order_sum"), dedent=False)
    repo.write("shop/store.py", body[:start], dedent=False)
    repo.commit("move checksum to sums.py as order_sum")
    assert _ids(run("recall", "--touching", "shop/sums.py::order_sum", "--json").stdout) == {did}
    assert _ids(run("recall", "--touching", "shop/store.py::checksum", "--json").stdout) == {did}
