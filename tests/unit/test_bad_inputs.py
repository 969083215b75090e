"""The bad-input catalogue: every strange input gets a clear one-line error or
an explicit status (exit 2 where it is a usage error), and the ledger stays
intact. One test (or parametrized case) per item; see docs/guarantees.md.

The CLI cases call the CLI as it is (``CliRunner``, or a subprocess where the
process boundary matters).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import chromadb
import httpx
import pytest
from chromadb.config import Settings
from click.testing import CliRunner

import memvet
from memvet import Lifecycle, Status
from memvet._anchors import MAX_FILE_BYTES
from memvet._unicode import fold
from memvet.cli import cli


def _ledger(repo_path, client, **kw) -> memvet.Ledger:
    return memvet.Ledger.open(repo_path, client=client, embedding=memvet.HashingEmbedder(),
                              namespace=kw.pop("namespace", f"t{uuid.uuid4().hex[:12]}"), disk_cache=False, **kw)


@pytest.fixture
def cli_run(repo, tmp_path, monkeypatch):
    """The CLI inside ``repo`` with a temp ledger and the test embedding."""
    monkeypatch.chdir(repo.path)
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "ledger")}

    def invoke(*args: str, code: int = 0):
        result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
        assert result.exit_code == code, (result.exit_code, result.output, result.stderr)
        if code == 2:
            assert result.stderr.startswith("memvet: error: ") and result.stderr.count("\n") == 1, result.stderr
            assert "Traceback" not in result.output
        return result

    return invoke


def _ids(cli_run) -> list[str]:
    return [d["id"] for d in json.loads(cli_run("check", "--json").stdout)["decisions"]]


# ------------------------------------------------------------------ paths


@pytest.mark.parametrize(("spec", "message"), [
    ("../outside.py::f", "outside the repository"),
    ("shop/../../outside.py", "outside the repository"),
    ("/etc/passwd", "absolute paths are not accepted"),
    ("escape/secret.py::f", "symbolic link that leaves the repository"),
    ("shop\\store.py::checksum", "use '/' as the path separator"),
    ("C:\\repo\\shop\\store.py", "use '/' as the path separator"),
    (".git/config", "inside .git"),
])
def test_paths_outside_the_repository_are_refused(repo, ledger, tmp_path, spec, message):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("def f():\n    return 1\n")
    (repo.path / "escape").symlink_to(outside)
    keep = ledger.record("already here")
    with pytest.raises(memvet.PathOutsideRepositoryError, match=message.replace("\\", "\\\\")):
        ledger.record("x", [spec])
    assert [d.id for d in ledger.decisions()] == [keep.id]


def test_path_errors_through_the_cli_are_exit_2(cli_run):
    keep = json.loads(cli_run("record", "already here", "--json").stdout)["id"]
    cli_run("record", "x", "--file", "../x", code=2)
    cli_run("record", "x", "--symbol", "shop\\store.py::checksum", code=2)
    assert _ids(cli_run) == [keep]


# ------------------------------------------------------------------ missing and unreadable files


@pytest.mark.parametrize(("spec", "error", "message"), [
    ("nope.py::f", memvet.AnchorNotFoundError, "no such file"),
    ("nope.txt", memvet.AnchorNotFoundError, "no such file"),
    ("shop/store.py::nothing_here", memvet.AnchorNotFoundError, "no symbol named nothing_here"),
    ("shop/store.py::OrderStore.nothing", memvet.AnchorNotFoundError, "no symbol named"),
    ("dep:left-pad", memvet.AnchorNotFoundError, "no manifest declares left-pad"),
    ("shop/blob.py::f", memvet.UnsupportedFileError, "binary file"),
    ("shop/huge.py::f", memvet.UnsupportedFileError, "larger than"),
    ("logo.png::f", memvet.UnsupportedFileError, "no symbol parser"),
])
def test_unanchorable_inputs_are_refused_at_write(repo, ledger, spec, error, message):
    repo.write_bytes("shop/blob.py", b"def f():\x00\x00 pass\n")
    repo.write("shop/huge.py", "def f():\n    return 1\n" + "# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    repo.write_bytes("logo.png", b"\x89PNG\r\n\x1a\n\x00\x00")
    keep = ledger.record("already here")
    with pytest.raises(error, match=message):
        ledger.record("x", [spec])
    assert [d.id for d in ledger.decisions()] == [keep.id]


def _drifted(repo, ledger, edit) -> memvet.Verdict:
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    repo.write_bytes("shop/store.py", edit(repo.read("shop/store.py")))
    return ledger.verify(rec.id)


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda text: b"\x00\x01binary now" * 10, "a binary file"),
    (lambda text: text.encode() + b"# pad\n" * (MAX_FILE_BYTES // 6 + 1), "larger than"),
], ids=["binary", "oversize"])  # a syntax error is a change: tests/unit/code/test_code_error_spans.py
def test_files_that_became_unreadable_are_unverifiable_with_the_reason(repo, ledger, edit, reason):
    verdict = _drifted(repo, ledger, edit)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert reason in verdict.reason
    assert verdict.checks[0].result is memvet.AnchorResult.UNVERIFIABLE


def test_a_file_over_the_limit_is_not_parsed(repo, ledger):
    """The size check comes before the parser: nothing enters the symbol cache."""
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    parsed = len(ledger.evidence.cache._memory)
    repo.write_bytes("shop/store.py", repo.read("shop/store.py").encode() + b"# pad\n" * (MAX_FILE_BYTES // 6 + 1))
    verdict = ledger.verify(rec.id)
    assert "larger than 2048 KiB" in verdict.reason
    assert len(ledger.evidence.cache._memory) == parsed


def test_missing_files_and_symbols_at_read_are_refuted(repo, ledger):
    file_rec = ledger.record("the readme", ["README.md"])
    sym_rec = ledger.record("checksum", ["shop/store.py::checksum"])
    (repo.path / "README.md").unlink()
    repo.replace("shop/store.py", "def checksum(data):\n    return sum(data) % 255\n", "")
    assert ledger.verify(file_rec.id).status is Status.REFUTED
    verdict = ledger.verify(sym_rec.id)
    assert verdict.status is Status.REFUTED and "checksum" in verdict.reason


# ------------------------------------------------------------------ claims, tags and ids


def test_huge_claims_are_refused(ledger, cli_run):
    with pytest.raises(memvet.UsageError, match="the limit is 4000"):
        ledger.record("x" * 4001)
    assert ledger.decisions() == []
    cli_run("record", "y" * 10_000, code=2)
    assert _ids(cli_run) == []


TRICKY_TEXT = [
    'He said "use Decimal" and \'never\' floats',
    "line one\nline two\r\nline three\ttabbed",
    "$ne",
    '{"$ne": ""}',
    '{"$or": [{"lifecycle": "active"}, {"lifecycle": "rejected"}]}',
    "$contains",
    "'; DROP TABLE embeddings; --",
    "emoji 🧪 and ünïcödé and \u202eRTL",
]


@pytest.mark.parametrize("text", TRICKY_TEXT)
def test_claims_and_tags_are_data_never_operators(repo, ledger, text):
    other = ledger.record("an unrelated decision about caching", tags=["plain"])
    # The quoted words are code-like terms the anchored code does not say:
    # declaring them unbound is the visible way to record such a claim.
    terms = [t.text for t in memvet.claim_terms(f"claim: {text}")]
    rec = ledger.record(f"claim: {text}", ["shop/store.py::checksum"], tags=[text, "plain"], unbound=terms)
    got = ledger.get(rec.id)
    # Stored as written, folded (NFKC, invisible and bidi controls out: memvet._unicode).
    assert got.claim == fold(f"claim: {text}").strip()
    assert "\u202e" not in got.claim
    assert text.strip() in got.tags
    assert {d.id for d in ledger.decisions()} == {rec.id, other.id}
    assert {v.id for v in ledger.check()} == {rec.id, other.id}
    assert ledger.recall(text).items[0].id in {rec.id, other.id}
    # An id that looks like an operator is just an unknown id.
    with pytest.raises(memvet.UnknownDecisionError):
        ledger.get(text)
    ledger.reject(rec.id, reason=text)
    assert ledger.get(rec.id).reason == text.strip()
    assert ledger.get(other.id).lifecycle is Lifecycle.ACTIVE


@pytest.mark.parametrize("text", TRICKY_TEXT[:5])
def test_tricky_claims_through_the_cli(cli_run, text):
    data = json.loads(cli_run("record", f"claim: {text}", "--tag", text, "--json").stdout)
    shown = json.loads(cli_run("show", data["id"], "--json").stdout)
    assert shown["claim"] == f"claim: {text}".strip()
    assert _ids(cli_run) == [data["id"]]


def test_unknown_ids_and_ambiguous_prefixes(ledger, cli_run):
    a = ledger.record("first")
    twin = ledger.store.get_decisions([a.id])[0].evolve(id=a.id[:5] + "0000000")
    ledger.store.add_decision(twin, ledger.embedder.embed_query("twin"))
    with pytest.raises(memvet.AmbiguousIdError, match="matches 2 decisions"):
        ledger.get(a.id[:5])
    with pytest.raises(memvet.AmbiguousIdError):
        ledger.reject(a.id[:5], reason="which one?")
    for unknown in ("ffffffffffff", "zz", "", "   ", "../../etc"):
        with pytest.raises(memvet.UnknownDecisionError):
            ledger.get(unknown)
    assert all(d.lifecycle is Lifecycle.ACTIVE for d in ledger.decisions())
    cli_run("show", "nope-nope", code=2)
    cli_run("reject", "nope-nope", "--reason", "r", code=2)


# ------------------------------------------------------------------ repositories


def test_not_a_repository(tmp_path, client):
    with pytest.raises(memvet.NotARepositoryError, match="not a git repository"):
        _ledger(tmp_path, client)
    with pytest.raises(memvet.NotARepositoryError, match="does not exist"):
        _ledger(tmp_path / "missing", client)


def test_empty_repository(tmp_path, client):
    subprocess.run(["git", "init", "-q", str(tmp_path / "empty")], check=True)
    with pytest.raises(memvet.EmptyRepositoryError, match="no commits yet"):
        _ledger(tmp_path / "empty", client)


def test_not_a_repository_and_empty_repository_through_the_cli(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "l")}
    subprocess.run(["git", "init", "-q", str(tmp_path / "empty")], check=True)
    for args, message in ((["check"], "not a git repository"),
                          (["--repo", str(tmp_path / "empty"), "check"], "no commits yet")):
        result = CliRunner().invoke(cli, args, env=env)
        assert result.exit_code == 2 and message in result.stderr
        assert result.stderr.count("\n") == 1


def test_detached_head(repo, ledger):
    first = repo.git("rev-parse", "HEAD")
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    repo.replace("shop/store.py", "% 255", "% 256")
    repo.commit("change")
    repo.git("checkout", "-q", "--detach", first)
    assert ledger.verify(rec.id).status is Status.VERIFIED
    assert ledger.verify(rec.id, at="main").status is Status.STALE
    detached = ledger.record("saved orders append", ["shop/store.py::OrderStore.save"])
    assert detached.decision.commit == first
    assert ledger.verify(detached.id, at="HEAD").status is Status.VERIFIED


def test_shallow_clone_missing_the_recorded_commit(repo, client, tmp_path):
    ns = f"shallow-{uuid.uuid4().hex[:8]}"
    full = _ledger(repo.path, client, namespace=ns)
    kept = full.record("checksum is mod 255", ["shop/store.py::checksum"])
    changed = full.record("save appends", ["shop/store.py::OrderStore.save"])
    # An anchor recorded by an older hasher: its baseline must be recomputed from
    # the recorded commit, which a shallow clone does not have.
    old_hasher = full.store.get_decisions([kept.id])[0]
    legacy = old_hasher.evolve(id="legacyhash01", anchors=tuple(
        dataclasses.replace(a, hash_version=0, blob_id="0" * 40) for a in old_hasher.anchors))
    full.store.add_decision(legacy, full.embedder.embed_query("legacy"))
    repo.replace("shop/store.py", "handle.write(json.dumps(order)", "handle.write(json.dumps(order, indent=1)")
    repo.commit("later")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone)], check=True)
    shallow = _ledger(clone, client, namespace=ns)
    assert shallow.git.is_shallow and not shallow.git.has_commit(kept.decision.commit)
    got = {v.id: v for v in shallow.check()}
    assert got[kept.id].status is Status.VERIFIED
    assert got[changed.id].status is Status.STALE
    assert got["legacyhash01"].status is Status.NEEDS_REVALIDATION
    assert "not in this history (shallow clone or rewritten history)" in got["legacyhash01"].reason


def test_rewritten_history(repo, client):
    ns = f"rewrite-{uuid.uuid4().hex[:8]}"
    ledger = _ledger(repo.path, client, namespace=ns)
    rec = ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    readme = ledger.record("the readme", ["README.md"])
    recorded_at = rec.decision.commit
    repo.write("notes.txt", "x\n")
    repo.commit("second")
    # Rewrite the recorded commit away (amend the root, drop the old objects).
    repo.git("reset", "-q", "--soft", "HEAD~1")
    repo.git("commit", "-q", "--amend", "-m", "rewritten root")
    repo.git("reflog", "expire", "--expire=now", "--all")
    repo.git("gc", "-q", "--prune=now")
    repo.move("shop/store.py", "shop/orders.py")
    repo.commit("move")
    after = _ledger(repo.path, client, namespace=ns)
    assert not after.git.has_commit(recorded_at)
    got = {v.id: v for v in after.check()}
    assert got[rec.id].status is Status.NEEDS_REVALIDATION
    assert "moved from shop/store.py to shop/orders.py" in got[rec.id].reason
    assert got[readme.id].status is Status.VERIFIED


def test_rewriting_the_root_commit_changes_the_default_namespace(repo, client):
    """Documented, not hidden: the default namespace is the root commit, so a
    rewrite of the root opens a different (empty) namespace. Pass namespace=."""
    before = _ledger(repo.path, client, namespace=None)
    repo.git("commit", "-q", "--amend", "-m", "rewritten root")
    after = _ledger(repo.path, client, namespace=None)
    assert before.namespace != after.namespace


def test_submodules_are_repositories_of_their_own(repo, ledger, tmp_path):
    other = type(repo)(tmp_path / "other")
    other.write("lib.py", "def f():\n    return 1\n")
    other.commit("lib")
    repo.git("-c", "protocol.file.allow=always", "submodule", "-q", "add", str(other.path), "vendor/other")
    repo.commit("add a submodule")
    keep = ledger.record("already here")
    for spec in ("vendor/other/lib.py::f", "vendor/other/lib.py", "vendor/other"):
        with pytest.raises((memvet.PathOutsideRepositoryError, memvet.AnchorNotFoundError),
                           match=r"submodule|no such file"):
            ledger.record("about the vendored lib", [spec])
    assert [d.id for d in ledger.decisions()] == [keep.id]
    gitmodules = ledger.record("vendored via a submodule", [".gitmodules"])
    assert ledger.verify(gitmodules.id, at="HEAD").status is Status.VERIFIED


@pytest.mark.slow
def test_repository_path_with_spaces_and_non_ascii(repo, tmp_path):
    sample = repo.read("shop/store.py")
    repo = type(repo)(tmp_path / "my repo ünïcödé 🧪")
    repo.write("shop/store.py", sample, dedent=False)
    repo.write("docs/naïve café.md", "# Café\n\nText.\n")
    repo.commit("initial")
    ledger = memvet.Ledger.open(repo.path, embedding=memvet.HashingEmbedder())
    rec = ledger.record("checksum", ["shop/store.py::checksum", "docs/naïve café.md"])
    assert ledger.verify(rec.id).status is Status.VERIFIED
    assert (repo.path / ".memvet" / "chroma").is_dir()
    env = {**os.environ, "MEMVET_EMBEDDING": "hashing"}
    out = subprocess.run([sys.executable, "-m", "memvet", "check", "--json"], cwd=repo.path / "shop", env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert [d["id"] for d in json.loads(out.stdout)["decisions"]] == [rec.id]


# ------------------------------------------------------------------ the store


def _read_only_run(folder: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the CLI with ``folder`` read-only: chmod for a normal user; for
    root (whom permissions do not stop) a read-only bind mount in a private
    user+mount namespace."""
    env = {**os.environ, "MEMVET_EMBEDDING": "hashing"}
    cmd = [sys.executable, "-m", "memvet", *args]
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")]}
        for p in modes:
            p.chmod(modes[p] & ~0o222)
        try:
            return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("running as root without unshare: cannot make a read-only folder")
    script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"'
    out = subprocess.run([unshare, "-r", "-m", "sh", "-c", script, "sh", str(folder), *cmd], cwd=cwd, env=env,
                         capture_output=True, text=True)
    if "mount" in out.stderr and "memvet" not in out.stderr:
        pytest.skip(f"cannot make a read-only mount here: {out.stderr.strip()}")
    return out


@pytest.mark.slow
def test_read_only_ledger_folder(repo):
    ledger = memvet.Ledger.open(repo.path, embedding=memvet.HashingEmbedder())
    rec = ledger.record("checksum", ["shop/store.py::checksum"])
    home = repo.path / ".memvet"
    for args in (["record", "written to a read-only ledger"], ["check"]):
        out = _read_only_run(home, args, repo.path)
        assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
        assert out.stderr.startswith("memvet: error: ") and out.stderr.count("\n") == 1, out.stderr
        assert "read-only" in out.stderr and "Traceback" not in out.stderr
    fresh = memvet.Ledger.open(repo.path, embedding=memvet.HashingEmbedder())
    assert [v.id for v in fresh.check()] == [rec.id]
    assert fresh.verify(rec.id).status is Status.VERIFIED


class _Flaky:
    """A Chroma client (real, ephemeral) whose server goes away on demand:
    every collection call then fails as httpx does when nothing answers."""

    def __init__(self, client) -> None:
        self._client = client
        self.down = False

    def get_or_create_collection(self, *args, **kwargs):
        return _FlakyCollection(self, self._client.get_or_create_collection(*args, **kwargs))

    def get_collection(self, *args, **kwargs):
        if self.down:
            raise httpx.ConnectError("[Errno 111] Connection refused")
        return _FlakyCollection(self, self._client.get_collection(*args, **kwargs))


class _FlakyCollection:
    def __init__(self, owner: _Flaky, collection) -> None:
        self._owner = owner
        self._collection = collection

    def __getattr__(self, name):
        attr = getattr(self._collection, name)
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            if self._owner.down:
                raise httpx.ConnectError("[Errno 111] Connection refused")
            return attr(*args, **kwargs)

        return call


def test_server_down_mid_check_is_an_error_never_an_empty_memory(repo):
    flaky = _Flaky(chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False)))
    ledger = _ledger(repo.path, flaky)
    ledger.record("checksum", ["shop/store.py::checksum"])
    assert len(ledger.check()) == 1
    flaky.down = True
    for read in (ledger.check, ledger.decisions, lambda: ledger.recall("checksum"), ledger.log):
        with pytest.raises(memvet.StoreUnavailableError, match="unreachable"):
            read()
    with pytest.raises(memvet.StoreUnavailableError):
        ledger.record("while down")
    flaky.down = False
    assert len(ledger.check()) == 1
