"""The MCP tests' ledger writes active decisions, as a person's would; the
proposals an agent writes by default have tests of their own
(``test_mcp_tools.py::test_agent_writes_are_proposals_by_default``)."""

from __future__ import annotations

import uuid

import memvet
import pytest


@pytest.fixture
def ledger(repo, client) -> memvet.Ledger:
    return memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                              namespace=f"t{uuid.uuid4().hex[:12]}", disk_cache=False, agent_writes="active")
