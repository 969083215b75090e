"""Long acts show progress: ``reembed``, ``import`` and ``export`` drive a
transient bar on stderr when stderr is a terminal, through the ``on_progress``
(or ``on_verdict``) callbacks the library takes, and print nothing extra when
it is not (a pipe, a CI log). Real ledgers and real git repositories."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from _cli import record
from rich.console import Console

import memvet
import memvet.cli as cli_module
from memvet import HashingEmbedder
from memvet._exchange import agent_context, export_jsonl, import_jsonl

pytestmark = pytest.mark.timeout(300)

SAVE = "shop/store.py::OrderStore.save"
CHECKSUM = "shop/store.py::checksum"


def test_reembed_reports_its_progress(ledger):
    for n in range(3):
        ledger.record(f"save appends line {n}", [SAVE])
    ledger.record("a team habit", [])
    seen: list[tuple[int, int]] = []
    assert ledger.reembed(HashingEmbedder(64), on_progress=lambda done, total: seen.append((done, total))) == 4
    assert seen and seen[-1] == (4, 4)
    assert all(0 < done <= total for done, total in seen)
    assert ledger.pinned_embedding == HashingEmbedder(64).name  # what it reported on is the real move


def test_reembed_without_a_callback_is_as_before(ledger):
    ledger.record("save appends a line", [SAVE])
    assert ledger.reembed(HashingEmbedder(64)) == 1


def test_import_reports_each_decision_it_reproduces(ledger, open_ledger):
    ledger.record("save appends a line", [SAVE])
    ledger.record("checksum is mod 255", [CHECKSUM])
    ledger.record("a team habit", [])
    dump = export_jsonl(ledger).text().splitlines()
    other = open_ledger()
    seen: list[tuple[int, int]] = []
    report = import_jsonl(other, dump, trust=True, on_progress=lambda done, total: seen.append((done, total)))
    assert len(report.added) == 3
    assert seen == [(1, 3), (2, 3), (3, 3)]
    again: list[tuple[int, int]] = []
    import_jsonl(other, dump, trust=True, on_progress=lambda done, total: again.append((done, total)))
    assert again == []  # nothing to reproduce: every record is already here


def test_agent_context_reports_each_verdict(ledger):
    ledger.record("save appends a line", [SAVE])
    ledger.record("a team habit", [])
    seen: list[memvet.Verdict] = []
    found = agent_context(ledger, on_verdict=seen.append)
    assert len(seen) == 2 and {v.id for v in seen} == {v.id for v in found.verified + found.drifted}


def _screen(monkeypatch) -> StringIO:
    screen = StringIO()
    monkeypatch.setattr(cli_module, "_console", lambda: Console(file=screen, force_terminal=True, width=100))
    return screen


def test_reembed_and_import_are_quiet_off_a_terminal(run, tmp_path):
    record(run, "save appends a line", "--symbol", SAVE)
    done = run("reembed", "--embedding", "hashing")
    assert done.stderr == "" and done.stdout.startswith("re-embedded 1 decision with ")
    dump = tmp_path / "d.jsonl"
    run("export", "--format", "jsonl", "--output", str(dump))
    imported = run("import", "--trust", str(dump), extra={"MEMVET_LEDGER": str(tmp_path / "other")})
    assert imported.stderr == "" and imported.stdout.startswith("1 added, 0 updated")
    exported = run("export")
    assert exported.stderr == "" and exported.stdout.startswith("# Project decisions (MemVet)")


def test_reembed_import_and_export_show_a_bar_on_a_terminal(run, tmp_path, monkeypatch):
    record(run, "save appends a line", "--symbol", SAVE)
    record(run, "checksum is mod 255", "--symbol", CHECKSUM)
    dump = tmp_path / "d.jsonl"
    run("export", "--format", "jsonl", "--output", str(dump))
    screen = _screen(monkeypatch)
    out = run("reembed", "--embedding", "hashing").stdout
    assert "re-embedding decisions" in screen.getvalue() and "2/2" in screen.getvalue()
    assert out.startswith("re-embedded 2 decisions")  # stdout stays the report
    screen.truncate(0)
    screen.seek(0)
    run("import", "--trust", str(dump), extra={"MEMVET_LEDGER": str(tmp_path / "other")})
    assert "checking imported decisions" in screen.getvalue() and "2/2" in screen.getvalue()
    screen.truncate(0)
    screen.seek(0)
    monkeypatch.setattr(cli_module, "PROGRESS_MIN_DECISIONS", 1)
    md = run("export").stdout
    assert "checking decisions" in screen.getvalue() and "checking decisions" not in md
    assert json.loads(run("export", "--format", "json").stdout)["verified"]
