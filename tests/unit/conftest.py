"""Fixtures of the CLI tests (``test_cli*.py``, ``test_claims.py``): the CLI
run in-process with click's ``CliRunner`` inside the ``repo`` fixture, with a
ledger folder of its own and the deterministic test embedding."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from _repo import RepoBuilder
from click.testing import CliRunner, Result

from memvet.cli import cli


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The CLI's environment: the test embedding and a ledger under ``tmp_path``."""
    return {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "ledger")}


@pytest.fixture
def run(repo: RepoBuilder, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Invoke the CLI inside the repo with a temp ledger and the test embedding.

    ``run(*args, code=0)`` asserts the exit code (``code=None`` does not);
    ``extra`` adds environment variables, ``input`` is standard input.
    """
    monkeypatch.chdir(repo.path)

    def invoke(*args: str, code: int | None = 0, extra: dict[str, str] | None = None,
               input: str | None = None) -> Result:
        result = CliRunner().invoke(cli, list(args), env={**env, **(extra or {})}, input=input,
                                    catch_exceptions=False)
        if code is not None:
            assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
        return result

    return invoke
