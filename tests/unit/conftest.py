"""Fixtures of the CLI tests (``test_cli*.py``, ``test_claims.py``): the CLI
run in-process with click's ``CliRunner`` inside the ``repo`` fixture, with a
ledger folder of its own and the deterministic test embedding."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from _repo import RepoBuilder, sample_repo
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
    return cli_runner(env)


def cli_runner(env: dict[str, str], folder: Path | None = None) -> Callable[..., Result]:
    """The CLI invoked in-process with ``env``: ``run(*args, code=0,
    extra=None, input=None)``, asserting the exit code unless ``code=None``.
    With ``folder``, each call runs there and then returns to the caller's
    folder (for fixtures wider than a test, which cannot take ``monkeypatch``)."""

    def invoke(*args: str, code: int | None = 0, extra: dict[str, str] | None = None,
               input: str | None = None) -> Result:
        back = Path.cwd()
        os.chdir(folder or back)
        try:
            result = CliRunner().invoke(cli, list(args), env={**env, **(extra or {})}, input=input,
                                        catch_exceptions=False)
        finally:
            os.chdir(back)
        if code is not None:
            assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
        return result

    return invoke


@pytest.fixture(scope="module")
def shared_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[RepoBuilder, Callable[..., Result]]:
    """A repository like ``repo`` and a CLI runner on a ledger of its own,
    shared by the tests of one module (on each xdist worker that runs them).

    Only for cases that are refused or only read, and that assert the
    ledger is unchanged afterwards: they then all start from the same
    state, so each saves building it (tens of CLI calls per module). A case
    that changed the ledger fails its own check.
    """
    base = tmp_path_factory.mktemp("shared")
    repo = sample_repo(base / "repo")
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(base / "ledger")}
    return repo, cli_runner(env, repo.path)
