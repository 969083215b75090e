"""Read-only git access: targets, paths, and every refusal."""

from __future__ import annotations

import subprocess

import pytest

import memvet
from memvet._git import GitRepo


def test_snapshots_of_commits_and_worktree(repo):
    first = repo.git("rev-parse", "HEAD")
    repo.write("shop/new.py", "x = 1\n")
    git = GitRepo(repo.path)
    wt = git.snapshot()
    assert wt.name == memvet.WORKTREE and wt.base_commit == first
    assert "shop/new.py" in wt.paths()                      # untracked, not ignored
    assert git.snapshot("HEAD").blob_id("shop/new.py") is None
    assert wt.blob_id("shop/new.py") == subprocess.run(
        ["git", "hash-object", "shop/new.py"], cwd=repo.path, capture_output=True, text=True).stdout.strip()
    assert git.snapshot("HEAD").read("README.md") == b"# Shop\n\nA sample.\n"
    assert git.snapshot("HEAD").blob_id("shop") is None      # a folder is not a file
    assert list(git.snapshot("HEAD").glob("shop/**")) == ["shop/store.py"]
    assert list(git.snapshot("HEAD").glob("*.md")) == ["README.md"]


def test_ignored_files_are_not_listed(repo):
    repo.write(".gitignore", "*.log\n")
    repo.write("debug.log", "noise\n")
    assert "debug.log" not in GitRepo(repo.path).snapshot().paths()


def test_changes_detect_renames(repo):
    old = repo.git("rev-parse", "HEAD")
    repo.move("shop/store.py", "shop/storage.py")
    repo.commit("rename")
    git = GitRepo(repo.path)
    changes = git.changes(old, git.snapshot("HEAD"))
    assert [(c.old_path, c.new_path, c.kind) for c in changes] == [("shop/store.py", "shop/storage.py", "renamed")]
    with pytest.raises(memvet.UnknownRevisionError):
        git.changes("0" * 40, git.snapshot("HEAD"))


def test_repository_identity_is_the_root_commit(repo):
    root = repo.git("rev-list", "--max-parents=0", "HEAD")
    repo.write("a.txt", "a")
    repo.commit("second")
    assert GitRepo(repo.path).root_commit_id() == root


@pytest.mark.parametrize(("path", "message"), [
    ("../x.py", "outside the repository"),
    ("/etc/passwd", "absolute paths"),
    ("a\\b.py", "separator"),
    ("", "empty path"),
    (".git/config", "inside .git"),
    ("bad\x00.py", "NUL"),
    (".", "outside the repository"),
])
def test_normalize_path_refusals(repo, path, message):
    with pytest.raises(memvet.PathOutsideRepositoryError, match=message):
        GitRepo(repo.path).normalize_path(path)


def test_normalize_path_accepts_inner_dotdot_and_base(repo):
    git = GitRepo(repo.path)
    assert git.normalize_path("shop/../README.md") == "README.md"
    assert git.normalize_path("store.py", base=repo.path / "shop") == "shop/store.py"


def test_symlink_escaping_is_refused(repo, tmp_path):
    (repo.path / "out").symlink_to(tmp_path)
    with pytest.raises(memvet.PathOutsideRepositoryError, match="symbolic link"):
        GitRepo(repo.path).normalize_path("out/x.py")


def test_not_a_repository_and_missing_folder(tmp_path):
    with pytest.raises(memvet.NotARepositoryError, match="not a git repository"):
        GitRepo(tmp_path)
    with pytest.raises(memvet.NotARepositoryError, match="does not exist"):
        GitRepo(tmp_path / "missing")


def test_broken_repository_is_a_repository_error(tmp_path):
    broken = tmp_path / "broken"
    subprocess.run(["git", "init", "-q", str(broken)], check=True)
    (broken / ".git" / "config").write_text("[core\n")
    with pytest.raises(memvet.RepositoryError):
        GitRepo(broken)


def test_empty_repository(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    with pytest.raises(memvet.EmptyRepositoryError, match="no commits yet"):
        GitRepo(tmp_path)


def test_unknown_revision_and_missing_objects(repo):
    git = GitRepo(repo.path)
    with pytest.raises(memvet.UnknownRevisionError, match="unknown revision"):
        git.resolve("nope~3")
    assert git.has_commit("") is False
    assert git.has_commit("not-hex") is False
    assert git.blob_data("not-hex") is None
    assert git.blob_data(repo.git("rev-parse", "HEAD")) is None    # a commit, not a blob
    assert git.blob_data("0" * 40) is None                           # well formed, not there
    assert git.has_commit("0" * 40) is False and git.has_commit(repo.git("rev-parse", "HEAD")[:12])
    blob = repo.git("rev-parse", "HEAD:README.md")
    assert git.blob_data(blob) == git.snapshot("HEAD").read("README.md") == b"# Shop\n\nA sample.\n"


def test_detached_head_and_bare_repository(repo, tmp_path):
    sha = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "--detach", sha)
    assert GitRepo(repo.path).snapshot().base_commit == sha
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo.path), str(bare)], check=True)
    git = GitRepo(bare)
    assert git.bare and git.snapshot().name == sha                   # no working tree: HEAD


def test_unreadable_worktree_path_is_a_repository_error(repo):
    # A name longer than the file system allows makes the OS refuse the read
    # (root reads files whatever their mode, so permissions cannot show it).
    with pytest.raises(memvet.RepositoryError, match="cannot read"):
        GitRepo(repo.path).snapshot().read("a" * 300 + ".py")


def test_corrupt_index_is_a_repository_error(repo):
    git = GitRepo(repo.path)
    (repo.path / ".git" / "index").write_bytes(b"DIRC garbage that is not an index")
    with pytest.raises(memvet.RepositoryError, match="cannot read the git index"):
        git.snapshot().paths()


def test_recently_read_blobs_are_kept_within_a_budget(repo, monkeypatch):
    from memvet import _git

    monkeypatch.setattr(_git, "BLOB_CACHE_BYTES", 2000)
    repo.write("a.py", "a = 1\n" * 20)   # 120 bytes: kept
    repo.write("b.py", "b = 2\n" * 20)
    repo.write("big.py", "c = 3\n" * 20 + "#" * 200)  # over an eighth of the budget: never kept
    head = repo.commit("three files")
    git = GitRepo(repo.path)
    snap = git.snapshot(head)
    first = snap.read("a.py")
    assert first == b"a = 1\n" * 20
    assert snap.read("a.py") is first  # the second read is the kept bytes, not a new inflate
    assert git.blob_data(snap.blob_id("a.py")) is first  # by id too
    assert snap.read("big.py") is not snap.read("big.py")
    for i in range(20):  # more than the budget: the oldest go
        repo.write(f"f{i}.py", f"v = {i:02}\n" * 20)
    later = git.snapshot(repo.commit("twenty more"))
    for i in range(20):
        assert later.read(f"f{i}.py") == f"v = {i:02}\n".encode() * 20
    assert 0 < git._blob_bytes <= 2000
    assert snap.read("a.py") == first and snap.read("a.py") is not first  # evicted, read again
