"""What the package ships: every import package typed (PEP 561), the version
from the installed metadata (set from the git tag at build), and a wheel that
holds all of it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_in_the_wheel_ships_py_typed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    folders = config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    # The wheel takes each folder whole, so a marker in the folder is in the wheel.
    assert {Path(f).name for f in folders} == {"memvet", "memvet_langchain", "memvet_llamaindex", "memvet_mcp"}
    for folder in folders:
        assert (ROOT / folder / "__init__.py").is_file(), folder
        assert (ROOT / folder / "py.typed").is_file(), f"{folder} has no py.typed"


def test_the_version_is_the_installed_metadata_not_a_literal():
    from importlib import metadata

    import memvet

    assert memvet.__version__ == metadata.version("memvet")
    assert memvet._installed_version("memvet") == memvet.__version__
    # A source tree nobody installed still imports, with a version that says so.
    assert memvet._installed_version("memvet-never-installed") == "0.0.0+unknown"


def test_the_cli_prints_the_installed_version():
    from click.testing import CliRunner

    import memvet
    from memvet.cli import cli

    done = CliRunner().invoke(cli, ["--version"])
    assert done.exit_code == 0 and done.output == f"memvet, version {memvet.__version__}\n"


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_built_wheel_ships_every_package_typed_with_a_real_version(tmp_path):
    # Built as `make dist` builds it, but offline: the backend (hatchling,
    # hatch-vcs) is the one installed with the test extra.
    done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path),
                           str(ROOT)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = tmp_path.glob("memvet-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (info,) = {n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA")}
        metadata = archive.read(f"{info}/METADATA").decode()
    version = next(line.split(": ", 1)[1] for line in metadata.splitlines() if line.startswith("Version: "))
    assert not version.startswith("0.0.0"), version
    assert wheel.name.startswith(f"memvet-{version}-")
    for package in ("memvet", "memvet_langchain", "memvet_llamaindex", "memvet_mcp"):
        assert f"{package}/__init__.py" in names and f"{package}/py.typed" in names, package
    assert "memvet/cli/__init__.py" in names and "memvet/data/minilm/NOTICE" in names
    # Tests, benchmarks and the source layout's folders stay out of the wheel.
    assert not {n for n in names if n.startswith(("tests/", "benchmarks/", "core/", "docs/"))}
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(wheel) as archive:
        assert "memvet = memvet.cli:main" in archive.read(entry_points).decode()


def test_the_release_workflow_publishes_tags_by_trusted_publishing():
    import yaml

    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8"))
    assert workflow[True] == {"push": {"tags": ["v*"]}}  # YAML 1.1 reads the key `on` as True
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    checkout = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0  # hatch-vcs needs the tag
    assert any(s.get("run") == "make dist" for s in build["steps"])
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    assert any(s.get("uses", "").startswith("pypa/gh-action-pypi-publish@") for s in publish["steps"])
    # Trusted publishing: no password or token is handed to the action.
    assert not any("with" in s for s in publish["steps"] if "pypi-publish" in s.get("uses", ""))
    assert "\ndist: " in (ROOT / "Makefile").read_text()
