"""Every notebook under ``notebooks/`` runs headless, top to bottom, on the
installed package, in a kernel of this interpreter; a cell error fails the test.

Notebooks are found when the tests are collected, so a new notebook is tested
without touching this file. They are committed without outputs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# jupyter_core 5.x warns on import, where JUPYTER_PLATFORM_DIRS is unset, that
# its paths will move to platformdirs: third-party noise that
# `filterwarnings = error` would turn into a failure. Only that message is ignored.
pytestmark = pytest.mark.filterwarnings("ignore:Jupyter is migrating its paths:DeprecationWarning")

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(autouse=True)
def _offline_kernel_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernel inherits this process's environment.
    monkeypatch.setenv("ORT_DISABLE_TELEMETRY", "1")
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "False")


def _execute(nb: object, cwd: Path) -> None:
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=300,
                                     resources={"metadata": {"path": str(cwd)}})
    client.execute()


def test_the_notebooks_folder_has_notebooks() -> None:
    assert NOTEBOOKS, f"no notebooks in {ROOT / 'notebooks'}"


def test_the_kernel_is_this_interpreter_with_the_installed_package(tmp_path: Path) -> None:
    probe = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import sys, memvet\nprint(sys.executable)\nprint(sys.prefix)\nprint(memvet.__file__)"
    )])
    _execute(probe, tmp_path)
    executable, prefix, package = probe.cells[0].outputs[0]["text"].split()
    assert Path(executable).resolve() == Path(sys.executable).resolve()
    assert Path(prefix).resolve() == Path(sys.prefix).resolve()  # this venv, not a system kernel
    assert Path(package).resolve().is_relative_to(ROOT / "core" / "memvet")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_committed_clean(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert cell.outputs == [], f"{path.name}: outputs are committed; strip them"
        assert cell.execution_count is None, f"{path.name}: execution counts are committed"
        assert "sys.path" not in cell.source, f"{path.name}: notebooks use the installed package"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_headless(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    _execute(nb, path.parent)  # raises CellExecutionError, naming the cell, on any error
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
