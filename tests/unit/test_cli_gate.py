"""The pull-request gate is fair: ``check --since REV`` fails only on what the
range made stale or refuted. Drift that landed on the base branch long ago is
reported as "already failing before this change" and not counted, unless
``--strict``. Real git histories, the CLI through click's CliRunner."""

from __future__ import annotations

import json

import pytest
from _cli import record

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def drifted_main(repo, run):
    """Two decisions recorded on main; then main rewrites ``checksum`` (the
    old drift); then a branch ``feature`` forks and touches the same file
    without breaking anything. Returns the ids."""
    ids = {
        "checksum": record(run, "checksum is mod 255", "--symbol", "shop/store.py::checksum"),
        "save": record(run, "save appends a line", "--symbol", "shop/store.py::OrderStore.save"),
    }
    repo.replace("shop/store.py", "% 255", "% 256")
    repo.commit("checksum mod 256 (drift, long ago)")
    repo.git("checkout", "-q", "-b", "feature")
    repo.replace("shop/store.py", "self.path = path", "self.path = str(path)")
    repo.commit("a change in the same file that breaks no decision")
    return ids


def test_old_drift_does_not_fail_someone_elses_change(run, drifted_main):
    ids = drifted_main
    run("check", code=1)  # the drift is real: a plain check fails on it
    out = run("check", "--since", "main", code=0).stdout
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if ids["checksum"] in line)
    assert lines[at].startswith("stale")
    assert "already failing before this change; still stale; changed: shop/store.py" in lines[at + 2]
    assert ("1 decision was already failing before this change, at the start of the range: "
            "not counted (--strict counts them)") in out
    data = json.loads(run("check", "--since", "main", "--json", code=0).stdout)
    by_id = {d["id"]: d for d in data["decisions"]}
    assert by_id[ids["checksum"]]["already_failing"] is True
    assert by_id[ids["save"]]["already_failing"] is False


def test_strict_counts_old_drift_too(run, drifted_main):
    out = run("check", "--since", "main", "--strict", code=1).stdout
    assert "at the start of the range: counted (--strict)" in out
    bad = run("check", "--strict", code=2)
    assert bad.stderr.startswith("memvet: error: --strict goes with --since (see ") and bad.stderr.count("\n") == 1


def test_a_change_that_breaks_a_verified_decision_fails(run, repo, drifted_main):
    ids = drifted_main
    repo.replace("shop/store.py", 'handle.write(json.dumps(order) + "\\n")', "handle.write(repr(order))")
    repo.commit("save writes repr")
    data = json.loads(run("check", "--since", "main", "--json", code=1).stdout)
    by_id = {d["id"]: d for d in data["decisions"]}
    assert (by_id[ids["save"]]["before"], by_id[ids["save"]]["status"]) == ("verified", "stale")
    assert by_id[ids["save"]]["already_failing"] is False
    assert by_id[ids["checksum"]]["already_failing"] is True
    text = run("check", "--since", "main", code=1).stdout
    assert "was verified; changed: shop/store.py" in text


def test_ci_formats_mark_old_drift_as_not_failing(run, drifted_main):
    ids = drifted_main
    gh = run("check", "--since", "main", "--format", "github", code=0).stdout.splitlines()
    old = next(line for line in gh if ids["checksum"] in line)
    assert old.startswith("::warning ") and "already failing before this change" in old
    assert not any(line.startswith("::error ") for line in gh)
    assert gh[-1].startswith("1 decision was already failing")
    strict = run("check", "--since", "main", "--format", "github", "--strict", code=1).stdout
    assert any(line.startswith("::error ") and ids["checksum"] in line for line in strict.splitlines())
    md = run("check", "--since", "main", "--format", "markdown", code=0).stdout
    assert "| stale |" in md and "| **stale** |" not in md
    assert "with a failing status" not in md
    assert "1 decision was already failing before this change, at the start of the range" in md
    assert "| **stale** |" in run("check", "--since", "main", "--format", "markdown", "--strict", code=1).stdout


def test_a_decision_fixed_by_the_change_is_not_already_failing(run, repo, drifted_main):
    ids = drifted_main
    repo.replace("shop/store.py", "% 256", "% 255")
    repo.commit("back to mod 255")
    data = json.loads(run("check", "--since", "main", "--json", code=0).stdout)
    item = next(d for d in data["decisions"] if d["id"] == ids["checksum"])
    assert (item["before"], item["status"], item["already_failing"]) == ("stale", "verified", False)
    assert "already failing" not in run("check", "--since", "main", code=0).stdout


# ===================================================================== whole claims

LONG = ("checksum is mod 255 so that every byte of an order fits the legacy printer's checksum field, "
        "which the warehouse scanners read back and compare, and a different modulus would make every "
        "scanner reject every label it reads")


def test_piped_check_prints_whole_claims(run, repo, monkeypatch):
    import memvet.cli as cli_module

    assert len(LONG) > 200
    did = record(run, LONG, "--symbol", "shop/store.py::checksum", "--unbound", "255")
    out = run("check").stdout  # CliRunner's stdout is not a terminal, like a pipe
    assert f"verified            {did}  {LONG}\n" in out
    # on a terminal, cut to one short line; --wide shows it whole there too
    monkeypatch.setattr(cli_module, "_stdout_is_terminal", lambda: True)
    cut = run("check").stdout
    assert LONG not in cut and f"{did}  {LONG[:63]}…" in cut
    assert f"{did}  {LONG}\n" in run("check", "--wide").stdout
