"""A LangChain host's own ``Embeddings``: written with, then gated by the CLI without it."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from langchain_core.embeddings import DeterministicFakeEmbedding

import memvet
from memvet._embedding import as_embedder, load_embedding
from memvet.cli import cli
from memvet_langchain import memvet_tools


def test_an_agent_writes_with_its_own_embeddings_and_the_gate_needs_none(repo, tmp_path, monkeypatch):
    home = tmp_path / "ledger"
    ledger = memvet.Ledger.open(repo.path, path=home, embedding=DeterministicFakeEmbedding(size=16),
                                agent_writes="active")
    record = next(t for t in memvet_tools(ledger) if t.name == "memvet_record")
    text = record.invoke({"claim": "checksum is the byte sum modulo 255",
                          "anchors": ["shop/store.py::checksum"]})
    assert "recorded" in text.lower()
    assert ledger.store.pinned() == "DeterministicFakeEmbedding"
    monkeypatch.chdir(repo.path)
    for env in ({}, {"MEMVET_EMBEDDING": "hashing"}):
        result = CliRunner().invoke(cli, ["check", "--format", "github"], env={"MEMVET_LEDGER": str(home), **env})
        assert result.exit_code in (0, 1), result.stderr
    repo.replace("shop/store.py", "return sum(data) % 255", "return sum(data) % 251")
    result = CliRunner().invoke(cli, ["check", "--format", "github"], env={"MEMVET_LEDGER": str(home)})
    assert result.exit_code == 1 and "::error" in result.stdout
    # A write through the CLI must name the host embedding and the way to pass it.
    result = CliRunner().invoke(cli, ["recall", "checksum"], env={"MEMVET_LEDGER": str(home)})
    assert result.exit_code == 2
    assert "'DeterministicFakeEmbedding', not by 'minilm-l6-v2-int8'" in result.stderr
    assert "module:callable returning that DeterministicFakeEmbedding" in result.stderr


class NamedModel(DeterministicFakeEmbedding):
    model: str = "text-embedding-3-small"


def test_langchain_embeddings_keep_their_class_and_model_as_name():
    fake = as_embedder(DeterministicFakeEmbedding(size=6))
    assert fake.name == "DeterministicFakeEmbedding" and fake.dim == 6
    assert as_embedder(NamedModel(size=6)).name == "NamedModel/text-embedding-3-small"


def test_a_spec_naming_a_langchain_class_is_called_without_arguments():
    with pytest.raises(memvet.UsageError, match=r"calling DeterministicFakeEmbedding\(\) failed"):
        load_embedding("langchain_core.embeddings:DeterministicFakeEmbedding")  # size is required
