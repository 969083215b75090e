"""MemVet in LlamaIndex, offline: a query engine and a postprocessor that
serve a decision as "verify before relying" once the code it rests on changed."""

import os
import subprocess
import tempfile
from pathlib import Path

import chromadb
from chromadb.config import Settings
from llama_index.core import MockEmbedding, VectorStoreIndex
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import TextNode

import memvet
from memvet_llamaindex import MemVetPostprocessor, MemVetRetriever

# 1. A small repository (any git repository works), removed when the script ends.
scratch = tempfile.TemporaryDirectory()
repo = Path(scratch.name) / "shop"
repo.mkdir()
env = {**os.environ, "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.com",
       "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@example.com"}


def git(*args):
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


(repo / "store.py").write_text(
    "def save(order, path):\n"
    "    with open(path, 'a') as f:\n"
    "        f.write(repr(order) + '\\n')\n"
)
git("init", "-q")
git("add", "-A")
git("commit", "-q", "-m", "initial")

# 2. A ledger. EphemeralClient keeps it in memory; HashingEmbedder needs no model.
#    (Default: a PersistentClient under <repo>/.memvet and the local MiniLM model.)
ledger = memvet.Ledger.open(
    repo,
    client=chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False)),
    embedding=memvet.HashingEmbedder(),
)
saved = ledger.record("Orders are appended to a text file, one per line", ["store.py::save"])
print("recorded", saved.id)

# 3. Someone rewrites save() in a later commit.
(repo / "store.py").write_text(
    "import json\n\n"
    "def save(order, path):\n"
    "    with open(path, 'w') as f:\n"
    "        json.dump(order, f)\n"
)
git("commit", "-q", "-am", "save orders as JSON")

# 4. A query engine over the ledger. Always pass llm= (Settings default to OpenAI).
retriever = MemVetRetriever(ledger, similarity_top_k=5)
engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
response = engine.query("how are orders saved?")
for scored in response.source_nodes:
    print(scored.node.metadata["status"], "|", scored.node.text)

# 5. Or keep your own index of exported decisions; the postprocessor verifies them.
nodes = [TextNode(text=d.claim, metadata={"memvet_id": d.id}) for d in ledger.decisions()]
index = VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=8))
engine = index.as_query_engine(llm=MockLLM(), node_postprocessors=[MemVetPostprocessor(ledger)])
for scored in engine.query("how are orders saved?").source_nodes:
    print(scored.node.metadata["memvet_status"], "|", scored.node.text)

scratch.cleanup()  # the scratch repository
