"""The public namespace is pinned, typed, and the core stays free of LangChain."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import memvet_langchain

EXPECTED = [
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


def test_all_is_pinned() -> None:
    assert memvet_langchain.__all__ == EXPECTED
    for name in EXPECTED:
        assert getattr(memvet_langchain, name) is not None


def test_groups_match_the_core() -> None:
    from memvet._recall import GROUPS

    assert memvet_langchain.GROUPS == GROUPS


def test_package_is_typed() -> None:
    assert (Path(memvet_langchain.__file__).parent / "py.typed").is_file()


def test_import_memvet_does_not_import_langchain() -> None:
    code = (
        "import sys, memvet; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('langchain_core', 'langchain', 'langgraph', 'memvet_langchain')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
