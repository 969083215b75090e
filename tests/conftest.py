"""Shared fixtures: real git repositories built by scripted commits, a ledger
on a real (ephemeral) Chroma with the deterministic test embedder, and a
clock that tests move by hand instead of sleeping."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chromadb
import pytest
from chromadb.config import Settings

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

from _repo import RepoBuilder, sample_repo

import memvet


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Everything outside ``tests/unit`` (a real server behind nginx, the
    notebooks, the benchmark scripts) is slow, so ``-m "not slow"`` selects
    the fast unit tests wherever pytest is pointed."""
    unit = Path(__file__).resolve().parent / "unit"
    for item in items:
        if unit not in item.path.resolve().parents:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def repo(tmp_path: Path) -> RepoBuilder:
    """A repository with one commit holding ``shop/store.py`` and a README."""
    return sample_repo(tmp_path / "repo")


#: Built once: a ``Settings`` takes 27 ms to build (pydantic-settings reads
#: the environment for each field), and most tests take this fixture.
_SETTINGS = Settings(anonymized_telemetry=False)


@pytest.fixture
def client() -> chromadb.api.ClientAPI:
    # A copy: EphemeralClient writes into the settings it is given.
    return chromadb.EphemeralClient(settings=_SETTINGS.model_copy(deep=True))


class FakeClock:
    """A clock for ``Ledger(clock=...)`` that moves only when told to.

    Starts at 2026-01-01T00:00:00Z; every reading returns the same time
    until :meth:`advance` (so a test states the time between two writes
    instead of sleeping through it).
    """

    def __init__(self, start: float = 1_767_225_600.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move the clock forward; returns the new time."""
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def open_ledger(repo: RepoBuilder, client) -> Callable[..., memvet.Ledger]:
    """Opens more ledgers like :func:`ledger`, with other options
    (``open_ledger(clock=clock)``); each call gets a namespace of its own
    unless ``namespace`` is given."""

    def opener(**options: Any) -> memvet.Ledger:
        settings: dict[str, Any] = {"client": client, "embedding": memvet.HashingEmbedder(),
                                    "namespace": f"t{uuid.uuid4().hex[:12]}", "disk_cache": False}
        return memvet.Ledger.open(repo.path, **{**settings, **options})

    return opener


@pytest.fixture
def ledger(open_ledger: Callable[..., memvet.Ledger]) -> memvet.Ledger:
    """A ledger on the repo, in its own namespace of the ephemeral Chroma."""
    return open_ledger()
