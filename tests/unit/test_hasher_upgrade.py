"""Hasher v4 on real repositories: a formatter's parentheses never make a
decision stale, a decision recorded by hasher v3 still reads right, and the
disk cache never serves a table of another hasher version (v5 for the
JavaScript rules: test_hasher_v5.py)."""

from __future__ import annotations

import pytest
from _verdicts import assert_cosmetic, rewrite_anchors

import memvet
from memvet import Status, _code
from memvet._cache import SymbolCache

UOW = '''\
"""Unit of work."""


class _ProcessAll:
    def __init__(self, uow, states):
        self.uow = uow
        self.states = states

    def execute(self, uow):
        for (state) in (self.states):
            (isdelete, listonly) = uow.states[(state)]
            if (isdelete):
                return (state, listonly)
        return (None)


def other():
    return 1
'''

# What black-style "remove redundant parentheses" makes of UOW's execute.
FORMATTED = UOW.replace(
    "for (state) in (self.states):", "for state in self.states:"
).replace(
    "(isdelete, listonly) = uow.states[(state)]", "isdelete, listonly = uow.states[state]"
).replace("if (isdelete):", "if isdelete:").replace(
    "return (state, listonly)", "return state, listonly"
).replace("return (None)", "return None")

# The hash and shape hasher v3 recorded for UOW's _ProcessAll.execute: what a
# ledger written before v4 holds (computed with the v3 code of this package).
V3_HASH = "9e639247f169a1b32b7a5e581200710404e8db76be44f9d59d2923531b227cab"
V3_SHAPE = "1c9d4176708ecdd72a285b579680e68238129ccdc0595d495231102c814c6cba"

SPEC = "orm/uow.py::_ProcessAll.execute"


@pytest.fixture
def uow_repo(repo):
    repo.write("orm/uow.py", UOW, dedent=False)
    repo.commit("unit of work")
    return repo


def _as_v3(ledger: memvet.Ledger, decision_id: str) -> None:
    """Rewrite the stored anchor the way hasher v3 recorded it."""
    rewrite_anchors(ledger, decision_id, hash_version=3, body_hash=V3_HASH, shape=V3_SHAPE)


def test_the_formatted_file_really_differs():
    assert FORMATTED.count("(") == UOW.count("(") - 7
    assert _code.HASH_VERSION == 6


def test_a_formatter_removing_parentheses_keeps_the_decision_verified(uow_repo, ledger):
    rec = ledger.record("execute unpacks isdelete and listonly from uow.states", [SPEC])
    assert_cosmetic(uow_repo, ledger, rec.id, "orm/uow.py", FORMATTED, "black: remove redundant parentheses",
                    ("return state, listonly", "return listonly, state"))


def test_a_decision_recorded_by_hasher_v3_reads_verified_after_the_bump(uow_repo, ledger):
    rec = ledger.record("execute unpacks isdelete and listonly from uow.states", [SPEC])
    now = ledger.store.get_decisions([rec.id])[0].anchors[0]
    assert now.hash_version == 6 and now.body_hash != V3_HASH  # v4 and later hash this body otherwise
    _as_v3(ledger, rec.id)
    # The file unchanged: verified from the blob id, no hashing at all.
    assert ledger.verify(rec.id).status is Status.VERIFIED
    # Formatted: the v3 baseline is re-hashed from the recorded commit.
    uow_repo.write("orm/uow.py", FORMATTED, dedent=False)
    uow_repo.commit("black")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.VERIFIED, verdict.reason
    uow_repo.replace("orm/uow.py", "isdelete, listonly = uow.states[state]", "listonly, isdelete = uow.states[state]")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.STALE, verdict.reason


def test_a_v3_decision_whose_recorded_hash_would_read_stale_without_the_rehash(uow_repo, ledger):
    # Control: the same v3 record claimed as current-version reads stale after
    # the formatter, so the test above passes because of the re-hash.
    rec = ledger.record("execute unpacks isdelete and listonly from uow.states", [SPEC])
    _as_v3(ledger, rec.id)
    rewrite_anchors(ledger, rec.id, hash_version=_code.HASH_VERSION)
    uow_repo.write("orm/uow.py", FORMATTED, dedent=False)
    uow_repo.commit("black")
    assert ledger.verify(rec.id).status is Status.STALE


def test_a_check_with_the_disk_cache_passes_a_v3_ledger_after_the_formatter(uow_repo, open_ledger):
    ledger = open_ledger(disk_cache=True)
    rec = ledger.record("execute unpacks isdelete and listonly from uow.states", [SPEC])
    _as_v3(ledger, rec.id)
    uow_repo.write("orm/uow.py", FORMATTED, dedent=False)
    uow_repo.commit("black")
    assert [v.status for v in ledger.check()] == [Status.VERIFIED]
    cache = uow_repo.path / ".memvet" / "cache"
    assert sorted(p.name for p in cache.iterdir()) == ["symbols-v6"]


def test_the_disk_cache_never_reads_a_table_of_another_hasher(tmp_path):
    data = UOW.encode()
    blob = "ab" * 20
    one = SymbolCache(tmp_path)
    table = one.table(blob, "python", lambda: data)
    (entry,) = tmp_path.rglob("*.json")
    assert entry.relative_to(tmp_path).parts[0] == "symbols-v6"
    # A v3 cache beside it, for the same blob, with v3's hash: never read.
    v3 = tmp_path / "symbols-v3" / entry.relative_to(tmp_path / "symbols-v6")
    v3.parent.mkdir(parents=True)
    v3.write_text(entry.read_text().replace(table.symbols["_ProcessAll.execute"].hash, V3_HASH))
    entry.unlink()
    two = SymbolCache(tmp_path)
    assert two.symbol(blob, "python", "_ProcessAll.execute", lambda: data)[0] == table.symbols["_ProcessAll.execute"]
    assert two.table(blob, "python", lambda: data) == table
    assert (two.parses, two.disk_hits) == (1, 0)
