"""Parsing a batch on helper processes (``memvet._code._workers``).

The promise: the answers are the same with or without helpers, whatever a
helper does. Each way a helper can fail is staged with a real process that
fails that way (it cannot start, exits, answers garbage, cannot parse a file,
stalls), and a real ledger checks the same repository both ways.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import memvet
from memvet import _anchors
from memvet._code import _workers, parse_file, symbol_table
from memvet._model import Anchor, AnchorKind, AnchorResult
from memvet._moves import MoveSearch

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "core" / "memvet").glob("*.py"))[:14]


def _jobs() -> list[_workers.Job]:
    jobs = []
    for path in SOURCES:
        data = path.read_bytes()
        names = [*sorted(symbol_table(data, "python").symbols)[:3], "no_such_symbol"]
        jobs.append(_workers.Job("python", data, names))
    return jobs


def _local(job: _workers.Job) -> None:
    job.hits = _workers.lookups(job, parse_file)


def _expected() -> list[list[tuple[object, bool]]]:
    out = []
    for job in _jobs():
        parsed = parse_file(job.data, "python")
        out.append([(parsed.symbol(n), parsed.has_errors) for n in job.names])
    return out


def _started_helpers(monkeypatch) -> list[_workers._Helper]:
    """The helpers started from now on, in order (to look at their processes)."""
    started: list[_workers._Helper] = []
    real = _workers._Helper.__init__

    def spy(self, pool):
        real(self, pool)
        started.append(self)

    monkeypatch.setattr(_workers._Helper, "__init__", spy)
    return started


@pytest.mark.slow
def test_a_helper_answers_what_this_process_would():
    jobs = _jobs()
    served = _workers.share(jobs, 1, _local)
    assert 0 < served < len(jobs)  # both sides parsed
    assert [j.hits for j in jobs] == _expected()
    assert any(hit[0] is None for j in jobs for hit in j.hits)  # the missing name came back as None


@pytest.mark.slow
@pytest.mark.parametrize(("boot", "python", "said"), [
    (_workers._BOOT, "/nonexistent/python3", "cannot start a parse helper"),
    ("import sys; sys.exit(3)", None, ""),
    ("import sys\nsys.stdout.buffer.write(bytes(7) + bytes([5]) + b'junk!')\nsys.stdout.flush()\n"
     "sys.stdin.buffer.read()", None, "answered garbage"),
])
def test_a_helper_that_fails_leaves_its_files_to_this_process(monkeypatch, caplog, boot, python, said):
    monkeypatch.setattr(_workers, "_BOOT", boot)
    if python is not None:
        monkeypatch.setattr(_workers, "_PYTHON", python)
    jobs = _jobs()
    with caplog.at_level(logging.INFO, logger="memvet._code._workers"):
        served = _workers.share(jobs, 1, _local)
    assert served == 0
    assert [j.hits for j in jobs] == _expected()
    assert said in caplog.text


@pytest.mark.slow
def test_a_stalled_helper_is_stopped_and_its_files_parsed_here(monkeypatch, caplog):
    monkeypatch.setattr(_workers, "_BOOT", "import sys, time\nsys.stdin.buffer.read(8)\ntime.sleep(120)")
    monkeypatch.setattr(_workers, "STALL", 0.5)
    jobs = _jobs()
    with caplog.at_level(logging.INFO, logger="memvet._code._workers"):
        served = _workers.share(jobs, 1, _local)
    assert served == 0
    assert [j.hits for j in jobs] == _expected()
    assert "stalled" in caplog.text


def test_a_file_a_helper_cannot_parse_is_parsed_here(caplog):
    jobs = [_workers.Job("cobol", b"IDENTIFICATION DIVISION.", ["MAIN"]) for _ in range(12)]
    here = []

    def local(job: _workers.Job) -> None:
        here.append(job)
        job.hits = [(None, False)]

    with caplog.at_level(logging.INFO, logger="memvet._code._workers"):
        served = _workers.share(jobs, 1, local)
    assert served == 0 and len(here) == 12
    assert "could not parse a file (UnsupportedLanguage" in caplog.text


def test_the_default_comes_from_the_environment_or_the_cores(monkeypatch):
    monkeypatch.setenv("MEMVET_PARSE_WORKERS", "2")
    assert _workers.default_workers() == 2
    monkeypatch.setenv("MEMVET_PARSE_WORKERS", "0")
    assert _workers.default_workers() == 0
    monkeypatch.delenv("MEMVET_PARSE_WORKERS")
    assert 0 <= _workers.default_workers() <= 3
    for bad in ("two", "", " ", "-1"):
        monkeypatch.setenv("MEMVET_PARSE_WORKERS", bad)
        with pytest.raises(ValueError, match="MEMVET_PARSE_WORKERS must be a whole number"):
            _workers.default_workers()


def test_a_bad_setting_is_a_usage_error(open_ledger, monkeypatch):
    with pytest.raises(memvet.UsageError, match="parse_workers must be a whole number"):
        open_ledger(parse_workers=-1)
    monkeypatch.setenv("MEMVET_PARSE_WORKERS", "-1")
    with pytest.raises(memvet.UsageError, match="MEMVET_PARSE_WORKERS must be a whole number"):
        open_ledger()


MODULE = '''\
def handler_{i}(request):
    """Handle request {i}."""
    total = request.count * {i}
    return total + 1


def helper_{i}(value):
    return value - {i}
'''


def _recorded(repo, open_ledger, monkeypatch, n: int, **options):
    """``n`` modules committed, a ledger with a decision on each handler,
    and helpers worth starting from 4 files to parse."""
    monkeypatch.setattr(_anchors, "PARALLEL_FILES", 4)
    for i in range(n):
        repo.write(f"svc/mod_{i}.py", MODULE.format(i=i), dedent=False)
    repo.commit("modules")
    writer = open_ledger(**options)
    for i in range(n):
        writer.record(f"Request {i} is handled by handler_{i}", [f"svc/mod_{i}.py::handler_{i}"])
    return writer


@pytest.mark.slow
def test_a_ledger_checks_the_same_with_and_without_helpers(repo, open_ledger, monkeypatch):
    writer = _recorded(repo, open_ledger, monkeypatch, 12, parse_workers=0)
    for i in range(12):
        writer.record(f"helper_{i} subtracts its index", [f"svc/mod_{i}.py::helper_{i}"])
    for i in range(12):
        if i % 3 == 0:
            repo.replace(f"svc/mod_{i}.py", f"* {i}\n", f"* {i + 100}\n")  # a body change
        elif i % 3 == 1:
            repo.replace(f"svc/mod_{i}.py", "def helper", "# moved below\ndef helper")  # an edit around it
        else:
            repo.replace(f"svc/mod_{i}.py", f"def helper_{i}(value):\n    return value - {i}\n", "")  # deleted
    repo.write_bytes("svc/mod_11.py", b"\x00\x01binary now")
    repo.commit("edits")

    def verdicts(workers: int) -> tuple[dict[str, tuple[str, str]], int]:
        led = open_ledger(namespace=writer.namespace, parse_workers=workers)
        found = {v.decision.claim: (v.status.value, v.reason) for v in led.check(at="HEAD")}
        return found, led.evidence.cache.parses

    alone, parses_alone = verdicts(0)
    shared, parses_shared = verdicts(1)
    assert shared == alone
    statuses = {s for s, _ in alone.values()}
    assert {"verified", "stale", "refuted", "needs_revalidation"} <= statuses
    assert parses_shared >= parses_alone - 1  # helpers' parses are counted too


@pytest.mark.slow
def test_missing_symbols_are_looked_for_while_helpers_parse_and_wrong_guesses_change_nothing(
        repo, open_ledger, monkeypatch):
    writer = _recorded(repo, open_ledger, monkeypatch, 8, parse_workers=0)
    for i in range(8):
        writer.record(f"helper_{i} subtracts its index", [f"svc/mod_{i}.py::helper_{i}"])
    for i in range(8):
        repo.replace(f"svc/mod_{i}.py", f"* {i}\n", f"* {i + 100}\n")  # every file changes
    # Gone, and guessed so: no ``def helper_1`` left.
    repo.replace("svc/mod_1.py", "def helper_1(value):\n    return value - 1\n", "")
    # Still there (a top-level function under an ``if``), though guessed gone.
    repo.replace("svc/mod_2.py", "def helper_2(value):\n    return value - 2\n",
                 "if True:\n    def helper_2(value):\n        return value - 2\n")
    # Gone, but its text is still in a string: not guessed, found after the batch.
    repo.replace("svc/mod_3.py", "def helper_3(value):\n    return value - 3\n",
                 'EXAMPLE = """\ndef helper_3(value):\n    return value - 3\n"""\n')
    repo.commit("edits")
    searched: list[tuple[bool, list[str]]] = []
    sharing = [False]
    real_find, real_share = MoveSearch.find, _workers.Helpers.share

    def find(self, lost, snap):
        searched.append((sharing[0], sorted(item.anchor.name for item in lost)))
        return real_find(self, lost, snap)

    def share(self, jobs, local, meanwhile=None):
        def during() -> None:
            sharing[0] = True
            try:
                meanwhile()
            finally:
                sharing[0] = False
        return real_share(self, jobs, local, during if meanwhile else None)

    monkeypatch.setattr(MoveSearch, "find", find)
    monkeypatch.setattr(_workers.Helpers, "share", share)

    def verdicts(workers: int) -> dict[str, tuple[str, str]]:
        led = open_ledger(namespace=writer.namespace, parse_workers=workers)
        return {v.decision.claim: (v.status.value, v.reason) for v in led.check(at="HEAD")}

    alone = verdicts(0)
    assert searched == [(False, ["helper_1", "helper_3"])]  # one search, after the batch
    searched.clear()
    shared = verdicts(1)
    assert shared == alone
    # helper_1 looked for while the helpers parsed; helper_3 after the batch.
    assert searched == [(True, ["helper_1"]), (False, ["helper_3"])]
    assert alone["helper_2 subtracts its index"][0] == "verified"
    assert alone["helper_1 subtracts its index"][0] == alone["helper_3 subtracts its index"][0] == "refuted"


@pytest.mark.slow
def test_helpers_started_for_a_batch_the_disk_cache_answers_are_stopped_unused(repo, open_ledger, monkeypatch):
    writer = _recorded(repo, open_ledger, monkeypatch, 6, parse_workers=0, disk_cache=True)
    for i in range(6):
        repo.replace(f"svc/mod_{i}.py", f"* {i}\n", f"* {i + 100}\n")
    repo.commit("edits")
    first = open_ledger(namespace=writer.namespace, parse_workers=0, disk_cache=True)
    expected = [(v.status, v.reason) for v in first.check(at="HEAD")]  # fills the disk cache
    started = _started_helpers(monkeypatch)
    again = open_ledger(namespace=writer.namespace, parse_workers=1, disk_cache=True)
    assert [(v.status, v.reason) for v in again.check(at="HEAD")] == expected
    assert again.evidence.cache.parses == 0  # every answer came from the disk
    assert len(started) == 1 and started[0].proc.returncode == 0  # started ahead, then ended


def test_an_anchor_whose_file_cannot_be_read_is_checked_on_its_own(repo, open_ledger, monkeypatch):
    writer = _recorded(repo, open_ledger, monkeypatch, 6, parse_workers=1)
    for i in range(6):
        repo.replace(f"svc/mod_{i}.py", "def helper", "# later\ndef helper")
    first = writer.decisions()[0]
    # A name longer than the file system allows: reading it fails in the
    # working tree (root reads any file, so a mode cannot stage this).
    unreadable = Anchor(kind=AnchorKind.SYMBOL, path="a" * 300 + ".py", name="f", language="python",
                        body_hash="0" * 64, hash_version=first.anchors[0].hash_version, blob_id="1" * 40)
    items = [(d.anchors[0], d.commit) for d in writer.decisions()] + [(unreadable, first.commit)]
    checks = writer.evidence.check_many(items, writer.snapshot(None))
    assert [c.result for c in checks[:6]] == [AnchorResult.HOLDS] * 6
    assert checks[6].result is AnchorResult.UNVERIFIABLE and "cannot read" in checks[6].detail


@pytest.mark.slow
def test_helpers_keep_taking_files_while_this_process_is_busy(monkeypatch, tmp_path):
    # Each answer a helper sends is marked in a file; ``meanwhile`` waits for
    # a third answer, which only comes if the helper was handed more files
    # than the two chunks it starts with while this process did other work.
    marks = tmp_path / "answers"
    monkeypatch.setattr(_workers, "_BOOT", _workers._BOOT.replace("serve(parse_file)\n", (
        "import memvet._code._workers as w\n"
        "real = w._send\n"
        "def send(stream, obj):\n"
        "    real(stream, obj)\n"
        f"    open({str(marks)!r}, 'a').write('x')\n"
        "w._send = send\n"
        "serve(parse_file)\n")))
    seen = []

    def meanwhile() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(marks.read_text() if marks.exists() else "") < 3:
            time.sleep(0.05)
        seen.append(len(marks.read_text() if marks.exists() else ""))

    here = []

    def local(job: _workers.Job) -> None:
        here.append(job)
        _local(job)

    jobs = _jobs()
    served = _workers.share(jobs, 1, local, meanwhile)
    assert seen == [3]  # three chunks answered while this process was busy
    assert served == 3 * _workers.CHUNK and len(here) == len(jobs) - served  # it parsed only what was left
    assert [j.hits for j in jobs] == _expected()


@pytest.mark.slow
def test_a_helper_that_does_not_exit_when_its_input_ends_is_killed(monkeypatch):
    monkeypatch.setattr(_workers, "_BOOT", _workers._BOOT + "import time\ntime.sleep(120)\n")
    monkeypatch.setattr(_workers, "EXIT_WAIT", 0.3)
    started = _started_helpers(monkeypatch)
    jobs = _jobs()
    assert _workers.share(jobs, 1, _local) > 0
    assert [j.hits for j in jobs] == _expected()
    assert started and started[0].proc.returncode == -9  # killed, not exited


@pytest.mark.slow
def test_the_cli_refuses_a_bad_setting_in_one_line(repo, tmp_path):
    env = {**os.environ, "MEMVET_PARSE_WORKERS": "many", "MEMVET_LEDGER": str(tmp_path / "l")}
    out = subprocess.run([sys.executable, "-m", "memvet", "--repo", str(repo.path), "check"], env=env,
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "memvet: error: MEMVET_PARSE_WORKERS must be a whole number of zero or more, not 'many' "
        "(0 parses in this process only); set it, or unset it"]
