"""Every import package the wheel ships is marked as typed (PEP 561)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_in_the_wheel_ships_py_typed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    folders = config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    # The wheel takes each folder whole, so a marker in the folder is in the wheel.
    assert {Path(f).name for f in folders} == {"memvet", "memvet_langchain", "memvet_llamaindex", "memvet_mcp"}
    for folder in folders:
        assert (ROOT / folder / "__init__.py").is_file(), folder
        assert (ROOT / folder / "py.typed").is_file(), f"{folder} has no py.typed"
