"""Hostile imports (issue 18): every refused file is one line, exit 2, and
the ledger exactly as it was; what is accepted never links into local
history unasked, and its receipts read as imported. (What an import
believes, with and without --trust, is tests/unit/test_import_trust.py.)

Each case runs the real CLI on a real repository and a real (local,
on-disk) Chroma ledger; "unchanged" is the whole JSONL export and the log,
compared byte for byte before and after.
"""

from __future__ import annotations

import json

import chromadb
import pytest
from _cli import record
from chromadb.config import Settings

import memvet
from memvet import Lifecycle, Status
from memvet._exchange import export_jsonl, import_jsonl
from memvet._store import ChromaStore

HEADER = '{"type": "header", "memvet": "ledger", "schema": 1}'


def _decision(n: int, **fields) -> dict:
    return {"type": "decision", "id": f"d{n:011d}", "claim": f"decision number {n} about the shop",
            "lifecycle": "active", **fields}


def _receipt(n: int, decision: str, **fields) -> dict:
    return {"type": "receipt", "id": f"r-{n:010d}", "decision_id": decision, "action": "record", "from": "",
            "to": "active", "at": 1.0, **fields}


def _lines(*records: dict | str) -> str:
    """A file: the header, five good decisions, then ``records`` (a string is written raw)."""
    good = [json.dumps(_decision(n)) for n in range(5)]
    return "\n".join([HEADER, *good, *(r if isinstance(r, str) else json.dumps(r) for r in records)]) + "\n"


def _file(*records: dict) -> str:
    """A file of the header and ``records`` alone (for imports with --trust,
    which refuse the five good decisions: no receipt records them)."""
    return "\n".join([HEADER, *(json.dumps(r) for r in records)]) + "\n"


@pytest.fixture
def local(run):
    """Two local decisions, one rejected: the ids the hostile files aim at."""
    ids = {"save": record(run, "save appends a line", "--symbol", "shop/store.py::OrderStore.save"),
           "habit": record(run, "we pair on Fridays")}
    run("reject", record(run, "wrap saves in a global lock"), "--reason", "it deadlocked")
    return ids


@pytest.fixture(scope="module")
def shared_local(shared_run):
    """``local`` on the module's shared ledger, for the cases that are all
    refused: each asserts the ledger unchanged, so the next starts from the
    same three decisions."""
    _repo, run = shared_run
    ids = {"save": record(run, "save appends a line", "--symbol", "shop/store.py::OrderStore.save"),
           "habit": record(run, "we pair on Fridays")}
    run("reject", record(run, "wrap saves in a global lock"), "--reason", "it deadlocked")
    return run, ids


def _state(run) -> tuple[str, str]:
    return run("export", "--format", "jsonl").stdout, run("log", "--json").stdout


LOCAL = "{save}"  # replaced by the local decision's id in the cases below

#: (name, extra records, message). Every file starts with five valid decisions.
CASES: list[tuple[str, list, str]] = [
    # text Chroma cannot store: the write of the sixth record failed after five had landed
    ("lone surrogate in a claim", ['{"type": "decision", "id": "d00000000009", "claim": "bad \\ud800", '
                                   '"lifecycle": "active"}'], "claim holds a lone surrogate ('\\ud800')"),
    ("lone surrogate in a tag", ['{"type": "decision", "id": "d00000000009", "claim": "x", "tags": ["\\udc00"], '
                                 '"lifecycle": "active"}'], "tags holds a lone surrogate"),
    ("lone surrogate in a reason", ['{"type": "decision", "id": "d00000000009", "claim": "x", "reason": "\\ud800",'
                                    ' "lifecycle": "active"}'], "reason holds a lone surrogate"),
    ("lone surrogate in a receipt's author", ['{"type": "receipt", "id": "r-1", "decision_id": "d00000000001", '
                                              '"action": "record", "from": "", "to": "active", "at": 1, '
                                              '"author": "\\udfff"}'], "author holds a lone surrogate"),
    ("lone surrogate in a key", ['{"type": "decision", "id": "d00000000009", "claim": "x", "lifecycle": "active", '
                                 '"\\ud800": 1}'], "a key holds a lone surrogate"),
    # numbers
    ("NaN", ['{"type": "decision", "id": "d00000000009", "claim": "x", "lifecycle": "active", "created_at": NaN}'],
     ":7: NaN is not a number MemVet stores"),
    ("Infinity", ['{"type": "receipt", "id": "r-1", "decision_id": "d00000000001", "action": "record", "from": "",'
                  ' "to": "active", "at": Infinity}'], ":7: Infinity is not a number MemVet stores"),
    ("-Infinity", ['{"type": "decision", "id": "d00000000009", "claim": "x", "lifecycle": "active", '
                   '"expires_at": -Infinity}'], "-Infinity is not a number MemVet stores"),
    ("1e400 (overflows to infinity)", ['{"type": "receipt", "id": "r-1", "decision_id": "d00000000001", '
                                       '"action": "record", "from": "", "to": "active", "at": 1e400}'],
     "at must be a finite number of zero or more, not inf"),
    ("negative time", [_decision(9, created_at=-5)], "created_at must be a finite number of zero or more"),
    ("huge counter", [_decision(9, confirmations=2**70)], "confirmations must be a whole number up to"),
    ("fractional counter", [_decision(9, confirmations=1.5)], "confirmations must be a whole number"),
    ("negative hash version", [_decision(9, hash_version=-1)], "hash_version must be a finite number of zero"),
    ("boolean time", [_decision(9, created_at=True)], "created_at must be a number"),
    # decisions
    ("claim over the limit", [_decision(9, claim="x" * 4001)], "the claim is 4001 characters; the limit is 4000"),
    ("empty tag", [_decision(9, tags=["ok", " "])], "a tag is empty"),
    ("supersedes that is no id", [_decision(9, supersedes="../etc")], "supersedes '../etc' is not a decision id"),
    ("superseded_by that is no id", [_decision(9, superseded_by="a b")], "superseded_by 'a b' is not a decision id"),
    ("anchor field of the wrong type", [_decision(9, anchors=[{"kind": "file", "path": 7}])], "path must be a string"),
    ("anchor line negative", [_decision(9, anchors=[{"kind": "file", "path": "README.md", "line": -1}])],
     "line must be a finite number of zero or more"),
    ("unknown anchor field", [_decision(9, anchors=[{"kind": "file", "path": "README.md", "evil": 1}])],
     "unexpected keyword argument 'evil'"),
    # anchors a record could never have written
    ("anchor path with ..", [_decision(9, anchors=[{"kind": "file", "path": "../outside.py"}])],
     "anchor '../outside.py': ../outside.py: outside the repository"),
    ("absolute anchor path", [_decision(9, anchors=[{"kind": "file", "path": "/etc/passwd"}])],
     "absolute paths are not accepted"),
    ("anchor inside .git", [_decision(9, anchors=[{"kind": "file", "path": ".git/config"}])],
     ".git/config: inside .git"),
    ("backslash path", [_decision(9, anchors=[{"kind": "symbol", "path": "shop\\store.py", "name": "checksum"}])],
     "use '/' as the path separator"),
    ("path not in normal form", [_decision(9, anchors=[{"kind": "file", "path": "shop//store.py"}])],
     "'shop//store.py' is not a repository path in normal form"),
    ("symbol without a name", [_decision(9, anchors=[{"kind": "symbol", "path": "shop/store.py"}])],
     "a symbol anchor needs a path and a name"),
    ("file without a path", [_decision(9, anchors=[{"kind": "file"}])], "a file anchor needs a path"),
    ("unevaluable requirement >=>2", [_decision(9, anchors=[{"kind": "dependency", "name": "requests",
                                                               "requirement": ">=>2", "path": "pyproject.toml"}])],
     "'>=>2' is not a version requirement MemVet can evaluate"),
    ("unevaluable requirement 1.x", [_decision(9, anchors=[{"kind": "dependency", "name": "requests",
                                                              "requirement": "1.x"}])],
     "is not a version requirement MemVet can evaluate"),
    ("dependency without a name", [_decision(9, anchors=[{"kind": "dependency", "requirement": ">=1"}])],
     "a dependency anchor needs a package name"),
    ("dependency folder outside", [_decision(9, anchors=[{"kind": "dependency", "name": "redis",
                                                            "scope": "../elsewhere"}])], "dependency folder"),
    ("absence rule of no known kind", [_decision(9, anchors=[{"kind": "absent", "name": "wormhole:x"}])],
     "an absence rule is import:NAME or pattern:REGEX, not 'wormhole:x'"),
    ("absence pattern that does not compile", [_decision(9, anchors=[{"kind": "absent", "name": "pattern:(a"}])],
     "anchor 'pattern:(a'"),
    # receipts
    ("receipt of an unknown act", [_receipt(1, "d00000000001", action="delete")], "unknown act 'delete'"),
    ("receipt to no lifecycle", [_receipt(1, "d00000000001", to="")], "to must name a lifecycle"),
    ("receipt from a made-up lifecycle", [_receipt(1, "d00000000001", **{"from": "zombie"})],
     "'zombie' is not a valid Lifecycle"),
    ("receipt of no decision", [_receipt(1, "")], "decision_id is empty"),
    ("receipt related to no id", [_receipt(1, "d00000000001", related="$ne")], "related '$ne' is not a decision id"),
    ("receipt for a local decision the file does not hold", [_receipt(1, LOCAL, action="reject", to="rejected",
                                                                       **{"from": "active"})],
     "a decision of this ledger that the file does not hold; pass --link-local"),
    # links into local history, and cycles
    ("supersedes a local decision", [_decision(9, supersedes=LOCAL, reason="evil")],
     "supersedes {save}, a decision of this ledger that the file does not hold: it would read as superseded"),
    ("supersedes nothing anywhere", [_decision(9, supersedes="d0000000dead")],
     "supersedes d0000000dead, which is neither in the file nor in the ledger"),
    ("supersedes itself", [_decision(9, supersedes="d00000000009")],
     "a supersede cycle (d00000000009 -> d00000000009)"),
    ("a two-decision cycle", [_decision(8, supersedes="d00000000009", lifecycle="superseded",
                                        superseded_by="d00000000009"),
                              _decision(9, supersedes="d00000000008", lifecycle="superseded",
                                        superseded_by="d00000000008")],
     "a supersede cycle (d00000000008 -> d00000000009 -> d00000000008)"),
    ("a three-decision cycle", [_decision(7, supersedes="d00000000009"), _decision(8, supersedes="d00000000007"),
                                _decision(9, supersedes="d00000000008")],
     "a supersede cycle (d00000000007 -> d00000000009 -> d00000000008 -> d00000000007)"),
    ("an active successor whose predecessor does not say so", [_decision(9, supersedes="d00000000004")],
     "decision d00000000009 supersedes d00000000004, but the file's record of d00000000004 is active"),
    ("predecessor superseded by another", [_decision(8, lifecycle="superseded", superseded_by="d00000000007"),
                                           _decision(9, supersedes="d00000000008")],
     "the file's record of d00000000008 is superseded by d00000000007"),
]


@pytest.mark.parametrize(("name", "extra", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_hostile_file_is_one_line_and_changes_nothing(shared_local, tmp_path, name, extra, message):
    run, local = shared_local

    def fill(text: str) -> str:
        return text.replace(LOCAL, local["save"])

    records = [json.loads(fill(json.dumps(r))) if isinstance(r, dict) else r for r in extra]
    before = _state(run)
    source = tmp_path / "hostile.jsonl"
    source.write_text(_lines(*records), encoding="utf-8")
    result = run("import", str(source), code=2)
    assert result.stderr.startswith("memvet: error: ") and result.stderr.count("\n") == 1, result.stderr
    assert fill(message) in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert _state(run) == before


def test_the_sixth_line_invalid_writes_none_of_the_five(run, local, tmp_path):
    """The case from the issue: five valid lines, then one Chroma would refuse."""
    before = _state(run)
    source = tmp_path / "six.jsonl"
    source.write_text(_lines('{"type": "decision", "id": "d00000000005", "claim": "six \\ud800", '
                             '"lifecycle": "active"}'), encoding="utf-8")
    assert ":7: invalid decision: claim holds a lone surrogate" in run("import", str(source), code=2).stderr
    assert _state(run) == before
    for n in range(5):
        assert f"d{n:011d}" not in before[0]
    source.write_text(_lines(), encoding="utf-8")  # the five alone are fine
    assert json.loads(run("import", str(source), "--json").stdout)["added"] == [f"d{n:011d}" for n in range(5)]


def test_a_local_link_needs_the_flag_and_then_leaves_a_receipt(run, local, tmp_path):
    source = tmp_path / "link.jsonl"
    successor = _decision(9, supersedes=local["save"], reason="saves are batched now",
                          claim="saves are batched")
    source.write_text(_file(successor, _receipt(1, "d00000000009", related=local["save"])), encoding="utf-8")
    assert "--link-local" in run("import", str(source), "--trust", code=2).stderr
    report = json.loads(run("import", str(source), "--link-local", "--trust", "--json").stdout)
    assert report["linked"] == [local["save"]] and report["added"] == ["d00000000009"]
    assert report["receipts_added"] == 3  # the file's receipt, the link's own, and the trust's
    shown = json.loads(run("show", local["save"], "--json").stdout)
    assert shown["status"] == "superseded"
    history = json.loads(run("log", local["save"], "--json").stdout)["receipts"]
    assert [r["action"] for r in history] == ["record", "supersede"]
    link = history[1]
    assert link["author"] == "Ada Tester" and link["related"] == "d00000000009" and "imported_at" not in link
    assert link["reason"].startswith(f"superseded by d00000000009, imported from {source} with --link-local")
    # again: nothing new, no second receipt
    again = json.loads(run("import", str(source), "--link-local", "--trust", "--json").stdout)
    assert again["linked"] == [] and again["receipts_added"] == 0
    assert len(json.loads(run("log", local["save"], "--json").stdout)["receipts"]) == 2


def test_a_link_to_a_decision_already_resolved_is_refused(run, local, tmp_path):
    rejected = next(d["id"] for d in json.loads(run("check", "--json").stdout)["decisions"]
                    if d["status"] == "rejected")
    before = _state(run)
    source = tmp_path / "late.jsonl"
    source.write_text(_file(_decision(9, supersedes=rejected, reason="r"), _receipt(1, "d00000000009")),
                      encoding="utf-8")
    result = run("import", str(source), "--link-local", "--trust", code=2)
    assert f"cannot link d00000000009 to {rejected}: {rejected} is already rejected" in result.stderr
    assert _state(run) == before


@pytest.mark.parametrize("lifecycle", ["proposed", "active"])
def test_a_proposal_may_point_at_a_local_decision_with_the_flag_and_links_only_when_approved(run, local, tmp_path,
                                                                                              lifecycle):
    """A proposal of the file, or without --trust any decision of it."""
    source = tmp_path / "proposal.jsonl"
    source.write_text(_lines(_decision(9, supersedes=local["habit"], lifecycle=lifecycle, reason="we stopped",
                                       claim="we pair on Mondays")), encoding="utf-8")
    report = json.loads(run("import", str(source), "--link-local", "--json").stdout)
    assert report["linked"] == [] and "d00000000009" in report["added"]
    assert json.loads(run("show", local["habit"], "--json").stdout)["status"] == "unanchored"
    run("approve", "d00000000009", "--reason", "checked")
    assert json.loads(run("show", local["habit"], "--json").stdout)["status"] == "superseded"


def test_forged_receipts_read_as_imported(run, local, tmp_path):
    source = tmp_path / "forged.jsonl"
    forged = _receipt(1, "d00000000001", author="Linus Torvalds", at=0.5, reason="approved by the CTO")
    source.write_text(_lines(forged), encoding="utf-8")
    run("import", str(source))
    receipts = json.loads(run("log", "--json").stdout)["receipts"]
    mine, theirs = [r for r in receipts if "imported_at" not in r], [r for r in receipts if "imported_at" in r]
    assert {r["author"] for r in mine} == {"Ada Tester"} and len(mine) == 4 + 5  # 5 proposals made by the import
    assert [r["action"] for r in mine].count("import") == 5
    assert [r["author"] for r in theirs] == ["Linus Torvalds"]
    assert theirs[0]["imported_by"] == "Ada Tester" and theirs[0]["imported_at"] > 1_700_000_000
    text = run("log").stdout
    assert "1970-01-01" in text
    forged_line = next(line for line in text.splitlines() if "Linus Torvalds" in line)
    assert ", imported 20" in forged_line and "by Ada Tester]" in forged_line
    assert "(imported " in run("show", "d00000000001").stdout
    # an export carries no marks: the next ledger marks them itself
    assert "imported_at" not in run("export", "--format", "jsonl").stdout


def test_a_coherent_supersede_imports_and_reads_the_same(run, tmp_path):
    old = record(run, "totals are floats", "--symbol", "shop/store.py::checksum")
    new = json.loads(run("supersede", old, "totals are cents", "--symbol", "shop/store.py::checksum",
                         "--reason", "floats lose cents", "--json").stdout)["id"]
    dump = run("export", "--format", "jsonl").stdout
    other = {"MEMVET_LEDGER": str(tmp_path / "other")}
    report = json.loads(run("import", "-", "--trust", "--json", extra=other, input=dump).stdout)
    assert sorted(report["added"]) == sorted([old, new]) and report["conflicts"] == []
    statuses = {d["id"]: d["status"] for d in json.loads(run("check", "--json", extra=other).stdout)["decisions"]}
    assert statuses == {old: "superseded", new: "verified"}


@pytest.mark.parametrize(("foreign", "why"), [(False, "whose local record is newer and kept"),
                                               (True, "which is in conflict")])
def test_a_successor_of_a_decision_left_as_it_is_waits(run, tmp_path, foreign, why):
    """The file's X differs from the local X, which stays (kept as newer, or
    in conflict): X's successor in the file would supersede the local X
    with no receipt here, so it waits too."""
    old = record(run, "totals are floats")
    dump = [json.loads(line) for line in run("export", "--format", "jsonl").stdout.splitlines()]
    header, theirs = dump[0], next(r for r in dump if r.get("type") == "decision")
    diverged = {**theirs, "lifecycle": "superseded", "superseded_by": "d00000000009"}
    records = [header, diverged, _decision(9, supersedes=old), _receipt(2, "d00000000009", related=old)]
    if foreign:
        records.append(_receipt(1, old, action="supersede", to="superseded", related="d00000000009",
                                **{"from": "active"}))
    before = _state(run)
    source = tmp_path / "wait.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    report = json.loads(run("import", str(source), "--trust", "--json", code=1).stdout)
    assert report["conflicts"][-1] == {"id": "d00000000009", "kind": "decision",
                                       "why": f"supersedes {old}, {why}; resolve that one first"}
    assert report["added"] == [] and _state(run) == before
    # Without --trust the successor is a proposal: it replaces nothing until approved, and does not wait.
    report = json.loads(run("import", str(source), "--json", code=1 if foreign else 0).stdout)
    assert report["added"] == report["proposed"] == ["d00000000009"]
    assert json.loads(run("show", old, "--json").stdout)["status"] == "unanchored"


def test_bringing_forward_never_changes_what_a_decision_supersedes(run, local, tmp_path):
    dump = [json.loads(line) for line in run("export", "--format", "jsonl").stdout.splitlines()]
    mine = next(r for r in dump if r.get("id") == local["habit"])
    its_receipts = [r for r in dump if r.get("type") == "receipt" and r["decision_id"] == local["habit"]]
    extra = _receipt(1, local["habit"], action="revalidate", **{"from": "active"})
    rewritten = {**mine, "supersedes": local["save"], "confirmations": 3}
    before = _state(run)
    source = tmp_path / "forward.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in (dump[0], rewritten, *its_receipts, extra)) + "\n",
                      encoding="utf-8")
    report = json.loads(run("import", str(source), "--json", code=1).stdout)
    assert [c["id"] for c in report["conflicts"]] == [local["habit"]]
    assert "supersedes" in report["conflicts"][0]["why"]
    assert _state(run) == before


# ------------------------------------------------------------------ a write that fails half way


class _FailingStore(ChromaStore):
    """Refuses the n-th decision write, as a full disk does."""

    left = 2

    def add_decision(self, decision, embedding):
        if self.left == 0:
            raise memvet.StoreError("the ledger store failed while writing a decision: database or disk is full")
        self.left -= 1
        super().add_decision(decision, embedding)


def test_an_import_that_fails_half_way_is_finished_by_importing_again(repo, tmp_path):
    client = chromadb.PersistentClient(str(tmp_path / "db"), settings=Settings(anonymized_telemetry=False))

    def open_ns(namespace: str) -> memvet.Ledger:
        return memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(), namespace=namespace,
                                  disk_cache=False)

    source = open_ns("src")
    for claim in ("totals are floats", "we pair on Fridays", "saves append", "orders are JSON lines"):
        source.record(claim)
    source.reject(source.decisions()[1].id, reason="we stopped")
    dump = export_jsonl(source).lines
    target = open_ns("dst")
    target.store.__class__ = _FailingStore
    with pytest.raises(memvet.StoreError, match="disk is full"):
        import_jsonl(target, dump, trust=True)
    assert len(target.decisions()) == 2  # half done: what a failed import leaves
    target.store.__class__ = ChromaStore
    report = import_jsonl(target, dump, trust=True)
    # Each new decision is written with its receipts in one journaled act:
    # the 2 that landed brought theirs, the one that failed is finished from
    # the journal before the import reads the ledger, the import brings the rest.
    assert len(report.added) == 1 and len(report.unchanged) == 3
    assert [(d.id, d.lifecycle) for d in target.decisions()] == [(d.id, d.lifecycle) for d in source.decisions()]
    file_receipts = [r for r in target.log() if r.action != "import"]
    assert sorted(r.id for r in file_receipts) == sorted(r.id for r in source.log())
    assert sorted(r.decision_id for r in target.log() if r.action == "import") == sorted(
        d.id for d in source.decisions())  # one receipt of the trust each, none twice
    assert import_jsonl(target, dump, trust=True).changed is False
    assert {v.status for v in target.check()} == {Status.UNANCHORED, Status.REJECTED}
    assert target.get(source.decisions()[1].id).lifecycle is Lifecycle.REJECTED
    clean = open_ns("clean")
    import_jsonl(clean, dump, trust=True)
    assert list(export_jsonl(clean).lines[1:]) == [line.replace('"namespace": "dst"', '"namespace": "clean"')
                                             for line in export_jsonl(target).lines[1:]]
