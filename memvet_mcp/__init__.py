"""MemVet over the Model Context Protocol: verified memory for any MCP client.

A thin adapter over :mod:`memvet`: verification, ranking and storage stay in
the core; this package names the tools as the LangChain tools are named
(``memvet_recall``, ``memvet_record``, ``memvet_supersede``,
``memvet_reject``, ``memvet_check``, plus ``memvet_about``,
``memvet_show``, ``memvet_review`` and ``memvet_approve``), serves
``memvet://decision/{id}`` and ``memvet://check``, and a ``memvet_context``
prompt.

Every write is the agent's, named after the MCP client; its supersede or
reject is a request. Only a person approves: ``memvet_approve`` asks the
person in the client's form (MCP elicitation) and acts on their answer.

- :func:`create_server`: an ``MCPServer`` over one ledger.
- :func:`serve`: run it on stdio or the streamable HTTP transport.
- :class:`MemvetTools`: the same calls as plain methods returning an
  :class:`Answer` (text and structured content), with no MCP involved.

From the command line: ``memvet mcp`` (stdio) or ``memvet mcp --http
127.0.0.1:8765``; see ``docs/mcp.md``.

    >>> import memvet
    >>> from memvet_mcp import create_server, serve
    >>> serve(create_server(memvet.Ledger.open(".")))      # doctest: +SKIP
"""

from memvet_mcp._server import INSTRUCTIONS, create_server, http_address, serve
from memvet_mcp._tools import GROUPS, MAX_K, Answer, MemvetTools, error_answer

__all__ = [
    "GROUPS",
    "INSTRUCTIONS",
    "MAX_K",
    "Answer",
    "MemvetTools",
    "create_server",
    "error_answer",
    "http_address",
    "serve",
]
