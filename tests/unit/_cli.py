"""Helpers of the CLI tests, beside the ``env`` and ``run`` fixtures of
``tests/unit/conftest.py``."""

from __future__ import annotations

import json
from collections.abc import Callable

from click.testing import Result


def record(run: Callable[..., Result], *args: str) -> str:
    """``memvet record ARGS --json`` through the ``run`` fixture; the new id."""
    return str(json.loads(run("record", *args, "--json").stdout)["id"])
