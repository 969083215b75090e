"""The one declaration of Decision and Anchor fields (issue 15, item 3).

The codec, the exchange format, ``show --json`` and the store tests'
strategy all read :data:`memvet._model.DECISION_FIELDS` and
:data:`memvet._model.ANCHOR_FIELDS`; these tests pin the tables to the
dataclasses, and pin the export of a fixed ledger byte for byte (the bytes
below were produced by the code before the tables existed).
"""

from __future__ import annotations

import dataclasses

import chromadb
import pygit2
import pytest
from chromadb.config import Settings

from memvet import Anchor, AnchorKind, Decision, HashingEmbedder, Lifecycle, Receipt
from memvet._exchange import decision_from_dict, decision_to_dict, export_jsonl
from memvet._git import GitRepo
from memvet._ledger import Ledger
from memvet._model import ANCHOR_FIELDS, DECISION_FIELDS, FieldType
from memvet._store import ChromaStore


def test_tables_name_every_field_in_declaration_order():
    assert [f.name for f in DECISION_FIELDS] == [f.name for f in dataclasses.fields(Decision)]
    assert [f.name for f in ANCHOR_FIELDS] == [f.name for f in dataclasses.fields(Anchor)]


@pytest.mark.parametrize("cls, table", [(Decision, DECISION_FIELDS), (Anchor, ANCHOR_FIELDS)])
def test_table_types_match_the_annotations(cls, table):
    python = {FieldType.TEXT: "str", FieldType.REF: "str", FieldType.ID: "str", FieldType.CLAIM: "str",
              FieldType.REAL: "float", FieldType.WHOLE: "int", FieldType.TEXTS: "tuple[str, ...]",
              FieldType.ANCHORS: "tuple[Anchor, ...]", FieldType.LIFECYCLE: "Lifecycle",
              FieldType.KIND: "AnchorKind"}
    annotations = {f.name: f.type for f in dataclasses.fields(cls)}
    assert {spec.name: python[spec.type] for spec in table} == annotations


#: Every anchor kind, and every anchor field set somewhere.
ANCHORS = (
    Anchor(AnchorKind.SYMBOL, path="shop/store.py", name="OrderStore.save", language="python",
           symbol_kind="method", body_hash="ab" * 32, hash_version=3, blob_id="cd" * 20, line=12,
           shape="ef" * 32, quote="self._lines.append"),
    Anchor(AnchorKind.FILE, path="README.md", blob_id="01" * 20, quote="append-only"),
    Anchor(AnchorKind.DEPENDENCY, path="services/api/pyproject.toml", name="httpx", requirement=">=0.27",
           scope="services/api"),
    Anchor(AnchorKind.ABSENT, name="import:requests", scope="shop/**"),
)

FIXED = (
    Decision("0123456789ab", "Orders are saved by appending one line", anchors=ANCHORS[:2],
             lifecycle=Lifecycle.SUPERSEDED, superseded_by="ba9876543210", reason="it is simple",
             tags=("storage", "orders"), author="ana", created_at=1700000000.25, resolved_at=1700000100.5,
             commit="f" * 40, hash_version=3, namespace="shop", confirmations=2, expires_at=1800000000.0,
             unbound=("OrderLog",)),
    Decision("ba9876543210", "Orders go through the API client, never requests", anchors=ANCHORS[2:],
             supersedes="0123456789ab", author="bo", created_at=1700000200.0, commit="e" * 40,
             namespace="shop"),
    Decision("aaaaaaaaaaaa", "A bare proposal with nothing but a claim", lifecycle=Lifecycle.PROPOSED,
             created_at=1700000300.0, namespace="shop"),
)

RECEIPTS = (
    Receipt("r-0000000001", "0123456789ab", "record", "", "active", author="ana", at=1700000000.25,
            commit="f" * 40),
    Receipt("r-0000000002", "0123456789ab", "supersede", "active", "superseded", reason="moved to the API",
            author="bo", at=1700000200.0, commit="e" * 40, related="ba9876543210"),
)

#: The export of FIXED and RECEIPTS, as the code before the tables wrote it.
GOLDEN = (
    '{"type": "header", "memvet": "ledger", "namespace": "shop", "schema": 1}\n'
    '{"type": "decision", "id": "0123456789ab", "anchors": [{"blob_id": "cdcdcdcdcdcdcdcdcdcdcdcdcdcd'
    'cdcdcdcdcdcd", "body_hash": "abababababababababababababababababababababababababababababababab", '
    '"hash_version": 3, "kind": "symbol", "language": "python", "line": 12, "name": "OrderStore.save"'
    ', "path": "shop/store.py", "quote": "self._lines.append", "shape": "efefefefefefefefefefefefefef'
    'efefefefefefefefefefefefefefefefefef", "symbol_kind": "method"}, {"blob_id": "010101010101010101'
    '0101010101010101010101", "kind": "file", "path": "README.md", "quote": "append-only"}], "author"'
    ': "ana", "claim": "Orders are saved by appending one line", "commit": "fffffffffffffffffffffffff'
    'fffffffffffffff", "confirmations": 2, "created_at": 1700000000.25, "expires_at": 1800000000.0, "'
    'hash_version": 3, "lifecycle": "superseded", "namespace": "shop", "reason": "it is simple", "res'
    'olved_at": 1700000100.5, "superseded_by": "ba9876543210", "supersedes": "", "tags": ["storage", '
    '"orders"], "unbound": ["OrderLog"]}\n'
    '{"type": "decision", "id": "ba9876543210", "anchors": [{"kind": "dependency", "name": "httpx", "'
    'path": "services/api/pyproject.toml", "requirement": ">=0.27", "scope": "services/api"}, {"kind"'
    ': "absent", "name": "import:requests", "scope": "shop/**"}], "author": "bo", "claim": "Orders go'
    ' through the API client, never requests", "commit": "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", '
    '"confirmations": 0, "created_at": 1700000200.0, "expires_at": 0.0, "hash_version": 0, "lifecycle'
    '": "active", "namespace": "shop", "reason": "", "resolved_at": 0.0, "superseded_by": "", "supers'
    'edes": "0123456789ab", "tags": [], "unbound": []}\n'
    '{"type": "decision", "id": "aaaaaaaaaaaa", "anchors": [], "author": "", "claim": "A bare proposa'
    'l with nothing but a claim", "commit": "", "confirmations": 0, "created_at": 1700000300.0, "expi'
    'res_at": 0.0, "hash_version": 0, "lifecycle": "proposed", "namespace": "shop", "reason": "", "re'
    'solved_at": 0.0, "superseded_by": "", "supersedes": "", "tags": [], "unbound": []}\n'
    '{"type": "receipt", "id": "r-0000000001", "action": "record", "at": 1700000000.25, "author": "an'
    'a", "commit": "ffffffffffffffffffffffffffffffffffffffff", "decision_id": "0123456789ab", "from":'
    ' "", "reason": "", "related": "", "to": "active"}\n'
    '{"type": "receipt", "id": "r-0000000002", "action": "supersede", "at": 1700000200.0, "author": "'
    'bo", "commit": "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "decision_id": "0123456789ab", "from"'
    ': "active", "reason": "moved to the API", "related": "ba9876543210", "to": "superseded"}\n'
)


def _commit_once(path):
    """A repository with one commit (a ledger needs a HEAD)."""
    repo = pygit2.init_repository(str(path))
    (path / "README.md").write_text("append-only\n")
    repo.index.add("README.md")
    repo.index.write()
    sig = pygit2.Signature("t", "t@example.com", 1700000000, 0)
    repo.create_commit("HEAD", sig, sig, "first", repo.index.write_tree(), [])


@pytest.fixture
def fixed_ledger(tmp_path):
    _commit_once(tmp_path / "repo")
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    namespace = f"fields-{tmp_path.name}"
    store = ChromaStore(client, namespace)
    embedder = HashingEmbedder()
    for decision in FIXED:
        store.add_decision(decision, embedder.embed_documents([decision.claim])[0])
    for receipt in RECEIPTS:
        store.add_receipt(receipt)
    return Ledger(GitRepo(tmp_path / "repo"), store, embedder, namespace="shop")


def test_export_of_a_fixed_ledger_is_unchanged(fixed_ledger):
    text = export_jsonl(fixed_ledger).text()
    assert text == GOLDEN


@pytest.mark.parametrize("decision", FIXED, ids=lambda d: d.id)
def test_exchange_round_trip_of_every_field(decision):
    assert decision_from_dict(decision_to_dict(decision)) == decision
