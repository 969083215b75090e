"""A ledger whose decisions cover every status, on a real repository.

Shared by the LlamaIndex adapter tests (``test_li_*.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import memvet

SAVE_LINE = 'handle.write(json.dumps(order) + "\\n")'
LOAD_METHOD = '''    def load(self):
        with open(self.path) as handle:
            return [json.loads(line) for line in handle]
'''

#: Claims, so tests can query with their own words (the test embedder hashes words).
SAVED = "Orders are appended to a JSON-lines file by OrderStore.save"
CHECKSUM = "Checksums of order data are the byte sum modulo 255"
LOADED = "Orders are loaded from the JSON-lines file line by line"
PICKLE = "Orders are stored with pickle"
README_OLD = "The README is the only documentation of the shop"
README_NEW = "The README and docstrings document the shop"


@dataclass(frozen=True)
class Drifted:
    """Ids of the decisions in the :func:`drifted` ledger, by what they became."""

    ledger: memvet.Ledger
    before: str  #: the commit the decisions were recorded at
    stale: str  #: OrderStore.save was rewritten
    verified: str  #: checksum is untouched
    refuted: str  #: OrderStore.load was deleted
    rejected: str
    superseded: str
    successor: str  #: verified, supersedes ``superseded``


@pytest.fixture
def drifted(repo, ledger: memvet.Ledger) -> Drifted:
    """Six decisions recorded at the first commit; the next commit rewrites
    ``OrderStore.save`` and deletes ``OrderStore.load``."""
    before = repo.git("rev-parse", "HEAD")
    stale = ledger.record(SAVED, ["shop/store.py::OrderStore.save"]).id
    verified = ledger.record(CHECKSUM, ["shop/store.py::checksum"]).id
    refuted = ledger.record(LOADED, ["shop/store.py::OrderStore.load"]).id
    rejected = ledger.record(PICKLE).id
    ledger.reject(rejected, reason="pickle is unsafe to load from disk")
    superseded = ledger.record(README_OLD, ["README.md"]).id
    successor = ledger.supersede(superseded, README_NEW, ["README.md"],
                                 reason="docstrings were added").id
    repo.replace("shop/store.py", SAVE_LINE, 'handle.write(json.dumps(order, sort_keys=True) + "\\n")')
    repo.replace("shop/store.py", LOAD_METHOD, "")
    repo.commit("rewrite save, drop load")
    return Drifted(ledger, before, stale, verified, refuted, rejected, superseded, successor)
