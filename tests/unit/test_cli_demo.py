"""``memvet demo`` tells a story a reader believes: the sample history moves
order storage to SQLite (save and load), so the JSON-lines decisions read
stale with their reasons and the SQLite decision is the current answer to
"how are orders stored?". Run through click's CliRunner with the real local
embedding, as ``make demo`` runs it."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from memvet.cli import cli

pytestmark = pytest.mark.timeout(900)


def _section(out: str, title: str) -> list[str]:
    lines = out.splitlines()
    start = lines.index(title) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("  ")), len(lines))
    return lines[start:end]


def test_the_demo_serves_sqlite_as_current_and_json_lines_as_stale(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "--keep", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "orders: store orders in SQLite" in out
    title = next(line for line in out.splitlines() if line.startswith("memvet check --at HEAD"))
    check = "\n".join(_section(out, title))
    assert "stale              Orders are read back by OrderStore.load, one JSON object per line" in check
    assert "└ shop/orders.py::OrderStore.load: the body changed since" in check
    assert "stale              Orders are appended to a JSON-lines file by OrderStore.save" in check
    assert "verified           Orders are stored in SQLite: OrderStore.save inserts" in check

    stored = _section(out, 'memvet recall "how are orders stored?" -k 3:')
    current = [line for line in stored if line.startswith("  current ")]
    assert current and all("SQLite" in line for line in current)
    assert not any("JSON" in line for line in current)
    cautious = [line for line in stored if line.startswith("  verify before relying ")]
    assert any("one JSON object per line" in line and "OrderStore.load: the body changed" in line
               for line in cautious)
    assert "Recorded 10 decisions at commit" in out and "(12 decisions in all)" in out
