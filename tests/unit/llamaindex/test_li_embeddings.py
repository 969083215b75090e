"""A LlamaIndex ``BaseEmbedding`` as the ledger's embedding, as it is."""

from __future__ import annotations

import uuid

from llama_index.core import MockEmbedding
from llama_index.core.base.embeddings.base import BaseEmbedding

import memvet
from memvet._embedding import as_embedder


def test_a_llamaindex_embedding_records_and_recalls(repo, client):
    embed_model = MockEmbedding(embed_dim=8)
    assert isinstance(embed_model, BaseEmbedding) and callable(embed_model)  # callable on nodes, not texts
    ledger = memvet.Ledger.open(repo.path, client=client, embedding=embed_model,
                                namespace=f"t{uuid.uuid4().hex[:12]}", disk_cache=False)
    assert ledger.embedder.name == "MockEmbedding" and ledger.embedder.dim == 8
    rec = ledger.record("checksum is the byte sum modulo 255", ["shop/store.py::checksum"])
    assert rec.outcome == "recorded"
    assert [i.id for i in ledger.recall("checksum").current] == [rec.id]
    assert ledger.store.pinned() == "MockEmbedding"


class Custom(BaseEmbedding):
    model_name: str = "custom-v2"

    def _get_query_embedding(self, query: str) -> list[float]:
        return [1.0, float(len(query))]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return [float(len(text)), 1.0]


def test_a_llamaindex_embedding_is_adapted_by_duck_typing():
    embedder = as_embedder(Custom())
    assert embedder.name == "Custom/custom-v2"
    assert embedder.embed_documents(["abc", "de"]) == [[3.0, 1.0], [2.0, 1.0]]
    assert embedder.embed_query("abcd") == [1.0, 4.0]
    assert embedder.dim == 2
