"""examples/langchain_mcp.py, run as written: LangChain tools from MemVet's MCP
server through langchain-mcp-adapters, in the client environment that
``make test`` creates (the adapters need the MCP SDK 1.x)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CLIENT = ROOT / ".venv-mcp-client" / "bin" / "python"

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


def test_the_langchain_mcp_example_runs(tmp_path: Path) -> None:
    if not CLIENT.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CLIENT} is missing: `make test` creates it")
        pytest.skip("no .venv-mcp-client (make test creates it)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVET_")}
    env["MEMVET_EMBEDDING"] = "hashing"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "core"), str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run([str(CLIENT), str(ROOT / "examples" / "langchain_mcp.py"), "--server-python",
                           sys.executable], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=200)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert out.startswith("tools: memvet_about, memvet_approve, memvet_check, memvet_recall, memvet_record")
    assert "previously tried, rejected: the global lock deadlocked under concurrent checkouts" in out
    assert "memvet_record:\nRecorded decision " in out
    assert "`sha256` (identifier) is not in shop/money.py::round_price" in out
