"""MemVet's MCP server as LangChain tools, through langchain-mcp-adapters.

langchain-mcp-adapters 0.3 needs the MCP SDK 1.x and MemVet's server is
built on 2.x, so the client runs in its own environment (``make test``
creates ``.venv-mcp-client``); the protocol between them is the same.

Run (offline; no model is called, the tools are invoked directly)::

    .venv-mcp-client/bin/python examples/langchain_mcp.py --server-python .venv/bin/python

It builds the demo's sample history in a temporary folder (or uses
``--repo``), starts ``memvet mcp`` over stdio, turns its tools into LangChain
tools, and calls three of them as an agent would.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import tempfile
from pathlib import Path

from langchain_mcp_adapters.client import MultiServerMCPClient


def _text(result: object) -> str:
    """The text of a tool result (the adapters return content blocks)."""
    if isinstance(result, list):
        return "\n".join(str(block.get("text", "")) for block in result if isinstance(block, dict))
    return str(result)


async def run(repo: str, server_python: str) -> None:
    client = MultiServerMCPClient({"memvet": {
        "transport": "stdio",
        "command": server_python,
        "args": ["-m", "memvet", "--repo", repo, "mcp", "--agent-writes", "active"],
    }})
    tools = {tool.name: tool for tool in await client.get_tools()}
    print("tools:", ", ".join(sorted(tools)))
    answer = await tools["memvet_recall"].ainvoke({"query": "should saves take a global lock?", "k": 3})
    print("memvet_recall:\n" + _text(answer))
    answer = await tools["memvet_record"].ainvoke({
        "claim": "describe shows a price with two decimals and the EUR suffix",
        "anchors": ["shop/pricing.py::describe"],
        "quotes": {"shop/pricing.py::describe": 'f"{price:.2f} EUR"'},
    })
    print("memvet_record:\n" + _text(answer))
    answer = await tools["memvet_record"].ainvoke({"claim": "round_price uses sha256",
                                                   "anchors": ["shop/money.py::round_price"]})
    print("memvet_record (refused):\n" + _text(answer))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", help="a repository with a MemVet ledger (default: the demo's sample history)")
    parser.add_argument("--server-python", default="python",
                        help="the Python that has memvet[mcp] installed (default: python)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memvet-lc-mcp-") as tmp:
        repo = args.repo
        if repo is None:
            subprocess.run([args.server_python, "-m", "memvet", "demo", "--keep", tmp], check=True,
                           capture_output=True)
            repo = str(Path(tmp) / "shop")
        asyncio.run(run(repo, args.server_python))


if __name__ == "__main__":
    main()
