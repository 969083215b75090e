"""MemVet for LangChain: memory that knows when it stopped being true.

Thin adapters over :mod:`memvet`: verification, ranking and storage stay in
the core; these classes translate types and use LangChain's names.

- :class:`MemVetRetriever`: a ``BaseRetriever`` over the recall rule.
- :class:`MemVetMiddleware`: an ``AgentMiddleware`` that injects the relevant
  decisions, verified, into the system message before each model call.
- :func:`memvet_tools`: record, recall, supersede, reject and check tools.
- :class:`MemVetStore`: a LangGraph ``BaseStore`` whose items are decisions.
- :func:`review_proposal`: a person approves or declines an agent's
  proposal or request inside a LangGraph graph, through ``interrupt()``.

Every write through these adapters is an agent's; agents propose and
request, and only a person approves. There is no approve tool.

    >>> import memvet
    >>> from memvet_langchain import MemVetRetriever
    >>> retriever = MemVetRetriever(ledger=memvet.Ledger.open("."))   # doctest: +SKIP
"""

from memvet_langchain._convert import GROUPS
from memvet_langchain._middleware import MemVetMiddleware
from memvet_langchain._retriever import MemVetRetriever
from memvet_langchain._review import ReviewAnswer, ReviewOutcome, review_proposal
from memvet_langchain._store import MemVetStore
from memvet_langchain._tools import (
    CheckInput,
    MemVetCheckTool,
    MemVetRecallTool,
    MemVetRecordTool,
    MemVetRejectTool,
    MemVetSupersedeTool,
    RecallInput,
    RecordInput,
    RejectInput,
    SupersedeInput,
    memvet_tools,
)

__all__ = [
    "GROUPS",
    "CheckInput",
    "MemVetCheckTool",
    "MemVetMiddleware",
    "MemVetRecallTool",
    "MemVetRecordTool",
    "MemVetRejectTool",
    "MemVetRetriever",
    "MemVetStore",
    "MemVetSupersedeTool",
    "RecallInput",
    "RecordInput",
    "RejectInput",
    "ReviewAnswer",
    "ReviewOutcome",
    "SupersedeInput",
    "memvet_tools",
    "review_proposal",
]
