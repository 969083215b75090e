"""Read-only git access behind one small module (pygit2).

Nothing here writes to the user's ``.git``: working-tree files are hashed the
way git hashes blobs (``pygit2.hash``) without storing objects.

A :class:`Snapshot` is one target of a read: a commit, or the working tree.
It answers "what is the blob id of this path" in microseconds, which is what
makes the verification fast path cheap.
"""

from __future__ import annotations

import fnmatch
import logging
import os
import posixpath
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import cast

import pygit2
from pygit2.enums import DiffOption, FileMode

from memvet._cache import LRU
from memvet._errors import (
    AnchorNotFoundError,
    EmptyRepositoryError,
    NotARepositoryError,
    PathOutsideRepositoryError,
    RepositoryError,
    UnknownRevisionError,
)
from memvet._model import WORKTREE, ChangeKind

__all__ = ["Change", "GitRepo", "Snapshot"]

log = logging.getLogger(__name__)

#: Snapshots of commits a repository keeps (the working tree's is never
#: kept). A snapshot is cheap to rebuild except for its path listing (all
#: tracked paths, about 92 bytes each on sqlalchemy: 4.6 MB for a
#: 50,000-file tree), so the bound is on that memory: a check over decisions recorded at up to this many commits,
#: plus its target, lists each once, and a long-running process whose HEAD
#: moves keeps only the commits it used last.
SNAPSHOT_CACHE = 64

#: Bytes of recently read blob contents a repository keeps (a file larger
#: than an eighth of it is never kept).
BLOB_CACHE_BYTES = 32 << 20


@dataclass(frozen=True)
class Change:
    """One file changed between two snapshots (pydriller's vocabulary)."""

    old_path: str
    new_path: str
    kind: ChangeKind


class GitRepo:
    """A git repository opened read-only.

    Args:
        path: Any folder inside the repository's working tree (or a bare repo).

    Raises:
        NotARepositoryError: No repository at or above ``path``.
        EmptyRepositoryError: The repository has no commits.
    """

    def __init__(self, path: str | os.PathLike[str] = ".") -> None:
        start = os.fspath(path)
        if not os.path.exists(start):
            raise NotARepositoryError(f"not a git repository: {start} does not exist")
        found = pygit2.discover_repository(start)
        if found is None:
            raise NotARepositoryError(
                f"not a git repository (or any parent up to /): {os.path.abspath(start)}"
            )
        try:
            self.repo = pygit2.Repository(found)
        except pygit2.GitError as exc:
            raise RepositoryError(f"cannot open the git repository at {found}: {exc}") from exc
        workdir = self.repo.workdir
        self.root = Path(workdir).resolve() if workdir else Path(self.repo.path).resolve()
        self.bare = workdir is None
        if self.repo.head_is_unborn:
            raise EmptyRepositoryError(
                f"the repository at {self.root} has no commits yet; make a first commit"
            )
        self._snapshots: LRU[str, Snapshot] = LRU(SNAPSHOT_CACHE)
        # Blob contents recently inflated, by id, within BLOB_CACHE_BYTES: a
        # cold check reads a changed file for its anchors, again for the
        # move search's scan, and again around a vanishing commit (a third
        # of 980 reads on a sqlalchemy check were repeats, 14.6 MB).
        self._blobs: OrderedDict[pygit2.Oid, bytes] = OrderedDict()
        self._blob_bytes = 0
        self._blob_lock = threading.Lock()
        #: Folders (repository-relative, ending in ``/``) that are never the
        #: repository's code: the ledger's own folder. Left out of every
        #: snapshot's paths, so an absence scan never reads the lock file
        #: that holds the command line with the very pattern it checks.
        self.private: tuple[str, ...] = (".memvet/",)

    # ----------------------------------------------------------------- identity

    def head_commit(self) -> pygit2.Commit:
        return self.repo.head.peel(pygit2.Commit)

    def root_commit_id(self) -> str:
        """The id of the first root commit reachable from HEAD (the repository's identity)."""
        walker = self.repo.walk(self.head_commit().id, pygit2.enums.SortMode.TOPOLOGICAL)
        walker.simplify_first_parent()
        last = None
        for commit in walker:
            last = commit
        assert last is not None
        return str(last.id)

    @property
    def is_shallow(self) -> bool:
        return bool(self.repo.is_shallow)

    @property
    def main_root(self) -> Path:
        """The working tree of the main checkout: :attr:`root` itself, or for
        a linked worktree (``git worktree add``) the checkout whose ``.git``
        folder is the common git dir, so that every worktree of a
        repository shares one ledger. A worktree of a bare repository has
        no main checkout and keeps its own :attr:`root`."""
        if self.bare:
            return self.root
        try:
            pointer = (Path(self.repo.path) / "commondir").read_text(encoding="utf-8").strip()
        except OSError:
            return self.root  # not a linked worktree
        common = (Path(self.repo.path) / pointer).resolve()
        main = common.parent
        if common.name == ".git" and (main / ".git").resolve() == common:
            return main
        return self.root

    # ----------------------------------------------------------------- targets

    def resolve(self, rev: str | None) -> pygit2.Commit:
        """Resolve a revision (sha, branch, tag, ``HEAD~3``) to a commit."""
        if rev is not None and (not isinstance(rev, str) or not rev.strip()):
            raise UnknownRevisionError(
                f"empty revision {rev!r}: give a commit, branch or tag (leave the option out for the "
                "working tree)")
        name = rev or "HEAD"
        try:
            obj = self.repo.revparse_single(name)
            return obj.peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.InvalidSpecError, pygit2.GitError) as exc:
            raise UnknownRevisionError(f"unknown revision: {name!r}") from exc

    def has_commit(self, sha: str) -> bool:
        """True when ``sha`` names a commit present in the object database."""
        if not sha:
            return False
        try:
            obj = self.repo.get(pygit2.Oid(hex=sha) if len(sha) == 40 else sha)
        except (ValueError, pygit2.GitError):
            return False
        return isinstance(obj, pygit2.Commit)

    def merge_base(self, one: str, two: str) -> str | None:
        """The best common ancestor of two commits (None when they share none).

        Raises:
            RepositoryError: git could not compute it.
        """
        try:
            found = self.repo.merge_base(one, two)
        except (pygit2.GitError, ValueError) as exc:
            raise RepositoryError(f"git merge-base {one[:12]} {two[:12]} failed: {exc}") from exc
        return str(found) if found is not None else None

    def is_ancestor(self, ancestor: str, commit: str) -> bool:
        """True when ``ancestor`` is ``commit`` or one of its ancestors.

        Raises:
            RepositoryError: git could not compare them.
        """
        if not ancestor or not self.has_commit(ancestor):
            return False
        if ancestor == commit:
            return True
        try:
            return bool(self.repo.descendant_of(commit, ancestor))
        except (pygit2.GitError, ValueError) as exc:
            raise RepositoryError(f"git could not compare {commit[:12]} with {ancestor[:12]}: {exc}") from exc

    def snapshot(self, at: str | None = None) -> Snapshot:
        """The snapshot for ``at``: ``"worktree"`` (default; ``HEAD`` in a bare
        repository) or any revision."""
        key = WORKTREE if at in (None, WORKTREE) and not self.bare else None
        if key is None:
            commit = self.resolve(None if at == WORKTREE else at)
            key = str(commit.id)
        else:
            commit = None
        snap = self._snapshots.get(key)
        if snap is None or key == WORKTREE:
            snap = Snapshot(self, commit)
            if key != WORKTREE:
                self._snapshots.put(key, snap)
        return snap

    # ----------------------------------------------------------------- objects

    def blob_data(self, blob_id: str) -> bytes | None:
        """The content of a blob in the object database, or None.

        Looked up by :class:`pygit2.Oid`, not by hex string: a string goes
        through libgit2's prefix lookup, 0.27 ms a call on sqlalchemy's pack.
        """
        try:
            oid = pygit2.Oid(hex=blob_id)
            kept = self._kept_blob(oid)
            if kept is not None:
                return kept
            obj = self.repo.get(oid)
        except (ValueError, pygit2.GitError):
            return None
        return self.blob_bytes(obj) if isinstance(obj, pygit2.Blob) else None

    def _kept_blob(self, oid: pygit2.Oid) -> bytes | None:
        """A blob's kept contents (now the most recently used), or ``None``."""
        with self._blob_lock:
            kept = self._blobs.get(oid)
            if kept is not None:
                self._blobs.move_to_end(oid)
            return kept

    def blob_bytes(self, blob: pygit2.Blob) -> bytes:
        """``blob.data``, inflated once while it stays among the recently read."""
        oid = blob.id
        kept = self._kept_blob(oid)
        if kept is not None:
            return kept
        data = blob.data
        if len(data) <= BLOB_CACHE_BYTES // 8:
            with self._blob_lock:
                if oid not in self._blobs:
                    self._blobs[oid] = data
                    self._blob_bytes += len(data)
                    while self._blob_bytes > BLOB_CACHE_BYTES:
                        _, old = self._blobs.popitem(last=False)
                        self._blob_bytes -= len(old)
        return data

    def changes(self, old_commit: str, new: Snapshot) -> list[Change]:
        """Files changed between ``old_commit`` and ``new``, renames detected.

        Raises:
            UnknownRevisionError: ``old_commit`` is not in the object database.
        """
        if not self.has_commit(old_commit):
            raise UnknownRevisionError(f"commit {old_commit[:12]} is not in this repository's history")
        old = self.repo.get(pygit2.Oid(hex=old_commit) if len(old_commit) == 40 else old_commit)
        old_tree = cast(pygit2.Commit, old).tree  # has_commit: it is there, a commit
        try:
            if new.commit is None:
                flags = DiffOption.INCLUDE_UNTRACKED | DiffOption.RECURSE_UNTRACKED_DIRS
                diff = old_tree.diff_to_workdir(flags)
            else:
                diff = self.repo.diff(old_tree, new.commit.tree)  # type: ignore[call-overload]  # stub omits Tree
            diff.find_similar()
        except pygit2.GitError as exc:
            raise RepositoryError(f"git diff failed: {exc}") from exc
        kinds = {"A": ChangeKind.ADDED, "D": ChangeKind.DELETED, "M": ChangeKind.MODIFIED, "R": ChangeKind.RENAMED,
                 "?": ChangeKind.ADDED, "T": ChangeKind.MODIFIED}
        out = []
        for delta in diff.deltas:
            kind = kinds.get(delta.status_char(), ChangeKind.MODIFIED)
            out.append(Change(delta.old_file.path, delta.new_file.path, kind))
        return out

    # ----------------------------------------------------------------- paths

    def normalize_path(self, path: str, *, base: str | os.PathLike[str] | None = None) -> str:
        """A user-given path as a repository-relative POSIX path.

        Relative paths are taken from ``base`` (the repository root by
        default; the CLI passes the current directory).

        Raises:
            PathOutsideRepositoryError: absolute paths, Windows separators,
                ``..`` leaving the repository, symlinks that escape it.
        """
        if not path or not path.strip():
            raise PathOutsideRepositoryError("empty path")
        if "\\" in path:
            raise PathOutsideRepositoryError(f"{path}: use '/' as the path separator")
        if "\x00" in path:
            raise PathOutsideRepositoryError(f"{path!r}: NUL byte in path")
        if os.path.isabs(path) or PurePosixPath(path).is_absolute():
            raise PathOutsideRepositoryError(
                f"{path}: absolute paths are not accepted; give a path inside the repository"
            )
        base_dir = Path(base).resolve() if base is not None else self.root
        joined = os.path.normpath(os.path.join(os.fspath(base_dir), path))
        rel = os.path.relpath(joined, os.fspath(self.root))
        if rel == os.curdir or rel.startswith(os.pardir + os.sep) or rel == os.pardir:
            raise PathOutsideRepositoryError(f"{path}: outside the repository {self.root}")
        rel_posix = PurePosixPath(*Path(rel).parts).as_posix()
        if rel_posix == ".git" or rel_posix.startswith(".git/"):
            raise PathOutsideRepositoryError(f"{path}: inside .git")
        for sub in self._submodule_paths():
            if rel_posix == sub or rel_posix.startswith(sub + "/"):
                raise PathOutsideRepositoryError(
                    f"{path}: inside the submodule {sub}, a repository of its own; record it there"
                )
        if not self.bare:
            real = Path(joined).resolve()
            if real != self.root and self.root not in real.parents:
                raise PathOutsideRepositoryError(f"{path}: a symbolic link that leaves the repository")
            if self.in_git_dir(real):
                raise PathOutsideRepositoryError(f"{path}: a symbolic link into .git")
        return rel_posix

    def in_git_dir(self, real: Path) -> bool:
        """True when the resolved path ``real`` is ``.git`` or inside it."""
        dot_git = self.root / ".git"
        return real == dot_git or dot_git in real.parents

    def _submodule_paths(self) -> list[str]:
        try:
            return list(self.repo.listall_submodules())
        except pygit2.GitError:
            return []


class Snapshot:
    """One target: a commit, or the working tree (``commit is None``)."""

    def __init__(self, repo: GitRepo, commit: pygit2.Commit | None) -> None:
        self.git = repo
        self.commit = commit
        self.name = WORKTREE if commit is None else str(commit.id)
        self._paths: list[str] | None = None
        self._wt_blobs: dict[str, str | None] = {}

    @property
    def base_commit(self) -> str:
        """The commit id this snapshot stands on (HEAD for the working tree)."""
        if self.commit is not None:
            return str(self.commit.id)
        return str(self.git.head_commit().id)

    def _file_entry(self, path: str, hops: int = 0) -> pygit2.Object | None:
        """The commit tree's entry for ``path`` when it is a file (not a
        folder or a submodule), else None.

        A symbolic link is followed inside the tree, as the working tree
        follows it on disk, so a tracked link reads the same at a commit
        and in the working tree. A link that leaves the repository, points
        into ``.git``, or goes round more than 8 times reads as absent
        (the working tree refuses the same links).
        """
        assert self.commit is not None
        try:
            entry = self.commit.tree[path]
        except KeyError:
            return None
        if entry.filemode == FileMode.LINK:
            if hops >= 8:
                return None
            blob = self.git.repo.get(entry.id)
            target = blob.data.decode("utf-8", "surrogateescape") if isinstance(blob, pygit2.Blob) else ""
            if not target or target.startswith("/") or "\x00" in target:
                return None
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
            if joined in (".", "..", ".git") or joined.startswith(("../", ".git/")):
                return None
            return self._file_entry(joined, hops + 1)
        return None if entry.filemode in (FileMode.TREE, FileMode.COMMIT) else entry

    def blob_id(self, path: str) -> str | None:
        """The git blob id of ``path`` in this snapshot, or None when absent."""
        if self.commit is not None:
            entry = self._file_entry(path)
            return None if entry is None else str(entry.id)
        if path in self._wt_blobs:
            return self._wt_blobs[path]
        data = self._read_worktree(path)
        blob = None if data is None else str(pygit2.hash(data))
        self._wt_blobs[path] = blob
        return blob

    def read(self, path: str) -> bytes | None:
        """The content of ``path`` in this snapshot, or None when absent."""
        if self.commit is not None:
            # The tree entry is the blob: reading it directly inflates it
            # once, where ``repo.get(entry.id).data`` inflated it twice
            # (measured: 0.57 against 1.1 ms a file on sqlalchemy).
            entry = self._file_entry(path)
            return self.git.blob_bytes(entry) if isinstance(entry, pygit2.Blob) else None
        return self._read_worktree(path)

    def require(self, path: str) -> bytes:
        """Like :meth:`read` but raises :class:`AnchorNotFoundError` when absent."""
        data = self.read(path)
        if data is None:
            where = "the working tree" if self.commit is None else f"commit {self.name[:12]}"
            raise AnchorNotFoundError(f"{path}: no such file in {where}")
        return data

    def _read_worktree(self, path: str) -> bytes | None:
        full = self.git.root / path
        try:
            if not full.is_file():
                return None
            real = full.resolve()
            if self.git.root not in real.parents or self.git.in_git_dir(real):
                return None
            return full.read_bytes()
        except OSError as exc:
            raise RepositoryError(f"cannot read {path}: {exc}") from exc

    def paths(self) -> list[str]:
        """Every file path in this snapshot, sorted (tracked, plus untracked
        and not ignored for the working tree)."""
        if self._paths is not None:
            return self._paths
        if self.commit is not None:
            out = list(_walk_tree(self.git.repo, self.commit.tree, ""))
        else:
            repo = self.git.repo
            try:
                index = repo.index
                index.read(False)  # pick up changes other processes made to .git/index
                seen = {entry.path for entry in index}
                status = repo.status(untracked_files="all")
            except pygit2.GitError as exc:
                raise RepositoryError(f"cannot read the git index: {exc}") from exc
            for p, flags in status.items():
                if flags & pygit2.enums.FileStatus.WT_NEW:
                    seen.add(p)
            out = [p for p in seen if (self.git.root / p).is_file()]
        private = self.git.private
        self._paths = sorted(p for p in out if not p.startswith(private))
        return self._paths

    def glob(self, pattern: str) -> Iterator[str]:
        """Paths matching a glob (``**`` crosses folders; empty = everything)."""
        for p in self.paths():
            if not pattern or _glob_match(p, pattern):
                yield p


def _walk_tree(repo: pygit2.Repository, tree: pygit2.Tree, prefix: str) -> Iterator[str]:
    for entry in tree:
        path = prefix + cast(str, entry.name)  # the entries of a tree are named
        if entry.filemode == FileMode.TREE:
            yield from _walk_tree(repo, cast(pygit2.Tree, repo.get(entry.id)), path + "/")
        elif entry.filemode != FileMode.COMMIT:
            yield path


def _glob_match(path: str, pattern: str) -> bool:
    if fnmatch.fnmatchcase(path, pattern):
        return True
    if pattern.endswith("/**"):
        return path.startswith(pattern[:-2])
    if "/" not in pattern:  # a bare pattern matches at any depth, like .gitignore
        return fnmatch.fnmatchcase(path.rsplit("/", 1)[-1], pattern)
    return bool(PurePosixPath(path).match(pattern))
