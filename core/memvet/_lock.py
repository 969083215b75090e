"""One writer per local ledger: a process-level file lock on the ledger folder.

Chroma's embedded ``PersistentClient`` has no lock of its own, and two
processes writing one path lose vectors silently (the SQLite rows stay, the
HNSW index misses them). Serializing the writes is not enough on its own:
each process keeps an in-memory copy of the index, so a writer whose copy is
older than the last write on disk must reload it before writing (measured,
4 processes x 300 adds: 1131 of 1200 vectors with a lock alone, 1200 of 1200
with the lock plus the reload). :class:`LocalLock` gives both halves:

* ``write.lock``: the file lock (``filelock``), taken around every write and
  released after it; a second writer waits up to a timeout, then gets
  :class:`~memvet.LedgerLockedError` naming the holder.
* ``write.lock.holder``: who holds it (pid, host, command, since), written by
  the holder so the error can name it; mode 0600, and the command's secrets
  (``--token``, URL passwords) masked.
* ``generation``: a token rewritten after every write. A store that last saw
  another token reloads its client before reading or writing.

Readers never take the lock.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import filelock

from memvet._errors import LedgerLockedError, StoreError
from memvet._secrets import redact_command

__all__ = ["DEFAULT_LOCK_TIMEOUT", "LocalLock"]

log = logging.getLogger(__name__)

#: Seconds a second writer waits for the lock before giving up.
DEFAULT_LOCK_TIMEOUT = 30.0


class LocalLock:
    """The write lock and write generation of one local ledger folder.

    Args:
        home: The ledger folder (``.memvet/`` by default).
        timeout: Seconds to wait for another writer before
            :class:`LedgerLockedError`.
    """

    def __init__(self, home: str | os.PathLike[str], timeout: float = DEFAULT_LOCK_TIMEOUT) -> None:
        self.home = Path(home)
        self.timeout = float(timeout)
        self.lock_path = self.home / "write.lock"
        self.holder_path = self.home / "write.lock.holder"
        self.generation_path = self.home / "generation"
        self._generation = str(self.generation_path)
        self._lock: filelock.BaseFileLock | None = None
        self._guard = threading.RLock()
        self._depth = 0
        #: The generation when this ledger was opened: read before the client
        #: is created, so a write landing in between is not missed.
        self.opened_generation = self.generation()

    def _file_lock(self) -> filelock.BaseFileLock:
        if self._lock is None:
            self._lock = filelock.FileLock(str(self.lock_path), timeout=self.timeout,
                                           preserve_lock_file=True, fallback_to_soft=False)
        return self._lock

    @contextmanager
    def hold(self) -> Iterator[bool]:
        """Hold the lock for a write; yields True at the outermost level.

        Raises:
            LedgerLockedError: Another writer held it for ``timeout`` seconds.
            StoreError: The ledger folder cannot be written (read-only).
        """
        if not self._guard.acquire(timeout=self.timeout):
            raise LedgerLockedError(
                f"the ledger at {self.home} is being written by another thread of this process; "
                f"waited {self.timeout:g}s"
            )
        try:
            self._depth += 1
            if self._depth > 1:
                yield False
                return
            lock = self._file_lock()
            try:
                self.home.mkdir(parents=True, exist_ok=True)
                lock.acquire()
            except filelock.Timeout as exc:
                raise LedgerLockedError(
                    f"the ledger at {self.home} is being written by {self.holder()}; waited "
                    f"{self.timeout:g}s. For several writers at once, run a shared server "
                    "(memvet --server URL; see docs/deploy.md)"
                ) from exc
            except OSError as exc:
                raise StoreError(f"cannot write the ledger at {self.home}: {_os_reason(exc)}") from exc
            try:
                self._write_holder()
                yield True
            finally:
                lock.release()
        finally:
            self._depth -= 1
            self._guard.release()

    def _write_holder(self) -> None:
        # The command line may carry a token (--token, a URL with a
        # password): its secrets are masked, and the file is the owner's only.
        holder = {
            "pid": os.getpid(), "host": socket.gethostname(),
            "command": redact_command(sys.argv)[:300] or sys.executable, "since": time.time(),
        }
        try:
            _atomic_write(self.holder_path, json.dumps(holder), private=True)
        except OSError as exc:  # the lock itself is held; the name is a courtesy
            log.warning("cannot record the lock holder in %s: %s", self.holder_path, exc)

    def holder(self) -> str:
        """Who holds (or last held) the lock, as one phrase."""
        try:
            data: dict[str, Any] = json.loads(self.holder_path.read_text(encoding="utf-8"))
            since = time.strftime("%H:%M:%S", time.localtime(float(data["since"])))
            return f"pid {data['pid']} on {data['host']} ({data['command']}) since {since}"
        except (OSError, ValueError, KeyError, TypeError):
            return "another process (holder unknown)"

    # --------------------------------------------------------------- generation

    def generation(self) -> str:
        """The token of the last write ("" before the first one).

        Read with ``os.read``, not ``Path.read_text``: every read of the
        ledger asks (5 against 16 us; a warm recall asks twice).
        """
        try:
            fd = os.open(self._generation, os.O_RDONLY)
            try:
                data = os.read(fd, 4096)
            finally:
                os.close(fd)
        except FileNotFoundError:
            return ""
        except OSError as exc:
            raise StoreError(f"cannot read {self.generation_path}: {_os_reason(exc)}") from exc
        return data.decode("utf-8", "replace").strip()

    def bump(self) -> str:
        """Record that a write happened; returns the new token."""
        token = f"{os.getpid()}-{uuid.uuid4().hex}"
        try:
            _atomic_write(self.generation_path, token)
        except OSError as exc:
            raise StoreError(f"cannot write {self.generation_path}: {_os_reason(exc)}") from exc
        return token


def _atomic_write(path: Path, text: str, *, private: bool = False) -> None:
    """Write ``text`` to ``path`` in one step. ``private``: the file is the
    owner's only (0600) from its creation, never readable by others first."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o666)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        if private:
            os.fchmod(handle.fileno(), 0o600)  # a leftover temporary file keeps its old mode otherwise
        handle.write(text)
    os.replace(tmp, path)


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, PermissionError) or getattr(exc, "errno", None) in (1, 13, 30):
        return f"the folder is read-only or not yours ({exc.strerror or exc})"
    return str(exc.strerror or exc)
