"""``reembed`` killed between its writes, in a real process on a real local ledger.

The killed writer is this module run as a script (see the bottom): a
test-only ChromaStore calls ``os._exit`` at one point of the re-embedding,
like ``kill -9``, as in ``test_reliability.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import memvet
from memvet import Lifecycle
from memvet._store import ChromaStore, collection_name

#: Each test starts and kills a Python process that imports Chroma.
pytestmark = pytest.mark.slow

KILLED = 86
HERE = Path(__file__).resolve()
NS = "reembed"
#: After the copy, before the pointer switch; after the switch, before the old vectors are dropped.
STEPS = ["copied", "switched"]


def _local(repo_path: Path, home: Path, dim: int) -> memvet.Ledger:
    return memvet.Ledger.open(repo_path, path=home, namespace=NS, embedding=memvet.HashingEmbedder(dim),
                              disk_cache=False)


def _state(ledger: memvet.Ledger):
    decisions = sorted((d.id, d.claim, d.lifecycle.value, d.superseded_by) for d in ledger.decisions())
    return decisions, [(r.id, r.action) for r in ledger.log()]


@pytest.mark.parametrize("step", STEPS)
def test_reembed_survives_a_kill_between_its_writes(repo, tmp_path, step):
    home = tmp_path / "ledger"
    ledger = _local(repo.path, home, 256)
    old = ledger.record("totals are floats", ["shop/store.py::checksum"])
    new = ledger.supersede(old.id, "totals are Decimal, rounded half-up", reason="floats lost cents")
    before = _state(ledger)
    proc = subprocess.run([sys.executable, str(HERE), str(repo.path), str(home), step], capture_output=True,
                          text=True, timeout=900, env={**os.environ})
    assert proc.returncode == KILLED, proc.stderr
    # Killed before the switch: the old ledger, whole; after it: the new one, whole.
    dim = 64 if step == "switched" else 256
    after = _local(repo.path, home, dim)
    assert _state(after) == before
    assert after.store.pinned() == f"hashing-{dim}"
    assert after.get(old.id).lifecycle is Lifecycle.SUPERSEDED
    assert {i.id for i in after.recall("totals Decimal").items} == {old.id, new.id}
    other = _local(repo.path, home, 320 - dim)  # the other of 256 and 64
    with pytest.raises(memvet.UsageError, match=f"'hashing-{dim}'"):
        other.recall("totals")
    # Running it again finishes the move and leaves one set of vectors.
    assert _local(repo.path, home, 64).reembed() == 2
    final = _local(repo.path, home, 64)
    assert _state(final) == before and final.store.pinned() == "hashing-64"
    copies = [c.name for c in final.store.client.list_collections()
              if c.name.startswith(collection_name(NS) + ".v")]
    assert len(copies) == 1 and final.store.decisions.name == copies[0]


def _main(argv: list[str]) -> int:
    import chromadb
    from chromadb.config import Settings

    from memvet._git import GitRepo
    from memvet._ledger import Ledger
    from memvet._lock import LocalLock

    repo, home, step = argv[0], Path(argv[1]), argv[2]

    class KillingStore(ChromaStore):
        def _step(self, name: str) -> None:
            if name == step:
                os._exit(KILLED)

    client = chromadb.PersistentClient(path=str(home / "chroma"), settings=Settings(anonymized_telemetry=False))
    embedder = memvet.HashingEmbedder()
    ledger = Ledger(GitRepo(repo), KillingStore(client, NS, embedder.name, lock=LocalLock(home)), embedder,
                    namespace=NS)
    ledger.reembed(memvet.HashingEmbedder(64))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
