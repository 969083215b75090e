"""The package's shape: its public API, its one-way dependency on the core,
and the documented example actually running."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import memvet_llamaindex

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "llamaindex_query.py"
DOC = ROOT / "docs" / "llamaindex.md"


def run_python(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_public_api_is_pinned():
    assert memvet_llamaindex.__all__ == [
        "MemVetMemoryBlock",
        "MemVetPostprocessor",
        "MemVetRetriever",
        "MemVetToolSpec",
    ]
    for name in memvet_llamaindex.__all__:
        assert getattr(memvet_llamaindex, name).__module__.startswith("memvet_llamaindex._")


def test_the_package_is_typed():
    assert (Path(memvet_llamaindex.__file__).parent / "py.typed").is_file()


def test_importing_memvet_does_not_import_llama_index():
    loaded = run_python(
        "import sys, memvet, memvet.cli\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith('llama_index')}))"
    )
    assert loaded == "[]"


@pytest.mark.slow
def test_the_adapter_does_not_import_the_langchain_adapter():
    loaded = run_python(
        "import sys, memvet_llamaindex\n"
        "print(sorted({m for m in sys.modules if m.startswith(('memvet_langchain', 'langchain'))}))"
    )
    assert loaded == "[]"


def test_the_documented_example_is_the_example_file():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert EXAMPLE.read_text(encoding="utf-8") in blocks


@pytest.mark.slow
def test_the_example_runs_offline_and_shows_the_stale_decision(tmp_path):
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(tmp_path),
        "TMPDIR": str(tmp_path),
        "ORT_DISABLE_TELEMETRY": "1",
        "ANONYMIZED_TELEMETRY": "False",
        # Without an OpenAI key a forgotten llm=/embed_model= fails instead of calling out.
        "OPENAI_API_KEY": "",
    }
    out = subprocess.run([sys.executable, "-W", "error", str(EXAMPLE)], capture_output=True,
                         text=True, env=env, timeout=900, check=True).stdout
    lines = out.splitlines()
    assert lines[0].startswith("recorded ")
    assert lines[1:] == [
        line for line in lines[1:]
        if line.startswith("stale | stale, the evidence it rested on was rewritten (store.py::save: ")
        and line.endswith("): Orders are appended to a text file, one per line")
    ]
    assert len(lines) == 3
    assert not any(tmp_path.iterdir())  # its scratch repository is gone
