"""The public namespace is pinned, typed, and the core and the CLI load ``mcp`` only for ``memvet mcp``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import memvet
import memvet_mcp
from memvet.cli import cli

EXPECTED = [
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


def test_all_is_pinned() -> None:
    assert memvet_mcp.__all__ == EXPECTED
    for name in EXPECTED:
        assert getattr(memvet_mcp, name) is not None


def test_groups_match_the_core() -> None:
    from memvet._recall import GROUPS

    assert memvet_mcp.GROUPS == GROUPS


def test_package_is_typed() -> None:
    assert (Path(memvet_mcp.__file__).parent / "py.typed").is_file()


def test_the_core_and_the_cli_do_not_import_mcp() -> None:
    code = ("import sys, memvet, memvet.cli; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'memvet_mcp')); "
            "print(bad); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr


def test_every_error_class_becomes_an_error_answer() -> None:
    errors = [getattr(memvet, n) for n in memvet.__all__ if n.endswith("Error")]
    for cls in errors:
        answer = memvet_mcp.error_answer(cls("something\nwent wrong"))
        assert answer.is_error
        assert answer.text == f"{cls.__name__}: something went wrong"
        assert answer.data == {"error": cls.__name__, "message": "something went wrong"}


# ------------------------------------------------------------------ the command


def test_mcp_command_is_listed() -> None:
    result = CliRunner().invoke(cli, ["mcp", "--help"])
    assert result.exit_code == 0
    assert "--http HOST:PORT" in result.stdout and "--allow-remote" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--http", "0.0.0.0:8765"], "refusing to serve MCP on 0.0.0.0"),
    (["--http", "8765"], "--http expects HOST:PORT"),
])
def test_mcp_command_refuses_before_opening_the_ledger(tmp_path: Path, args: list[str], message: str) -> None:
    # --repo names no repository: the refusal comes before the ledger would fail to open.
    result = CliRunner().invoke(cli, ["--repo", str(tmp_path), "mcp", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_mcp_command_without_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.split(".")[0] in ("memvet_mcp", "mcp")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` raises ModuleNotFoundError
    result = CliRunner().invoke(cli, ["--repo", str(tmp_path), "mcp"])
    assert result.exit_code == 2
    assert "the MCP server needs the 'mcp' package: pip install 'memvet[mcp]'" in result.stderr


def test_mcp_command_reports_a_bad_ledger_like_every_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--repo", str(tmp_path), "mcp"])
    assert result.exit_code == 2
    assert result.stderr.startswith("memvet: error: ") and "git" in result.stderr.lower()


def test_mcp_command_does_not_hide_a_broken_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.split(".")[0] == "memvet_mcp"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "memvet_mcp", None)  # our own package is missing: not the extra's fault
    result = CliRunner().invoke(cli, ["--repo", str(tmp_path), "mcp"])
    assert isinstance(result.exception, ImportError)
    assert "pip install" not in result.stderr
