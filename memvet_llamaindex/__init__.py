"""LlamaIndex adapters for MemVet: decisions re-verified against the code at every read.

- :class:`MemVetRetriever`: a ``BaseRetriever`` for query engines; node text
  is the framed claim, metadata holds id, status, reason, anchors, group.
- :class:`MemVetPostprocessor`: re-verifies nodes of any index whose metadata
  carries a decision id (``memvet_id`` or ``id``).
- :class:`MemVetMemoryBlock`: a ``BaseMemoryBlock[str]`` for ``Memory``.
- :class:`MemVetToolSpec`: record, recall, supersede, reject, check as tools.

Install with ``pip install "memvet[llamaindex]"``. Always pass ``llm=`` and
``embed_model=`` to LlamaIndex: its ``Settings`` default to OpenAI.
"""

from memvet_llamaindex._memory import MemVetMemoryBlock
from memvet_llamaindex._postprocessor import MemVetPostprocessor
from memvet_llamaindex._retriever import MemVetRetriever
from memvet_llamaindex._tools import MemVetToolSpec

__all__ = [
    "MemVetMemoryBlock",
    "MemVetPostprocessor",
    "MemVetRetriever",
    "MemVetToolSpec",
]
