"""Parse a batch of files on several cores: helper processes for cold checks.

tree-sitter holds the GIL while it parses, so threads do not help, and a
syntax tree cannot cross a process boundary. What can cross is the answer a
check needs from a file: the few :class:`Symbol` objects it looks up (a
hash, a shape, lines). :func:`share` hands files to helper processes a few
at a time and parses the rest itself meanwhile, so the batch finishes when
the slowest side does and a helper that starts slowly costs nothing.

A helper is ``python -c`` with :data:`_BOOT`, which loads ``memvet._code``
alone (not ``memvet``, which imports Chroma): ready in about 0.2 s. It is
never a ``multiprocessing`` child, which would re-run the caller's main
script. Messages are length-prefixed pickles on its stdin and stdout, between
this process and its own child only.

Whatever goes wrong with a helper (it cannot start, dies, answers garbage)
only sends its unanswered files back to this process: the batch's answers
are the same with or without helpers, as :mod:`tests.unit.test_workers`
checks with helpers that fail on purpose.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

__all__ = ["Helpers", "Job", "default_workers", "serve", "share"]

log = logging.getLogger(__name__)

#: Files a helper is given at a time: small enough that the two sides end
#: together, large enough that a message carries real work.
CHUNK = 4

# The package folder above memvet/_code: the helper imports memvet._code
# from it without running memvet/__init__.py.
#: Seconds without any answer after which the helpers' files are parsed here.
STALL = 60.0
#: Seconds a helper has to exit once its input ends, before it is killed.
EXIT_WAIT = 5.0
_PACKAGE = str(Path(__file__).resolve().parents[1])
_BOOT = (
    "import sys, types\n"
    "pkg = types.ModuleType('memvet'); pkg.__path__ = [sys.argv[1]]; sys.modules['memvet'] = pkg\n"
    "from memvet._code import parse_file\n"
    "from memvet._code._workers import serve\n"
    "serve(parse_file)\n"
)
#: The interpreter a helper runs on (tests point it elsewhere).
_PYTHON = sys.executable
_HEADER = struct.Struct("!Q")


@dataclass
class Job:
    """One file to parse and the qualified names to look up in it.

    ``hits`` is filled with one ``(symbol or None, file has syntax errors)``
    per name, by whichever side parsed it.
    """

    language: str
    data: bytes
    names: list[str]
    hits: list[tuple[Any, bool]] = field(default_factory=list)


def default_workers() -> int:
    """Helper processes for a large batch: ``MEMVET_PARSE_WORKERS`` if set
    (0 turns them off), else one per usable core beyond this one, at most 3.

    Raises:
        ValueError: ``MEMVET_PARSE_WORKERS`` is set but not a whole number of
            zero or more (empty included).
    """
    raw = os.environ.get("MEMVET_PARSE_WORKERS")
    if raw is not None:
        # Set but empty is an error, as for every MEMVET_* variable.
        if not raw.strip().isdigit():
            raise ValueError(f"MEMVET_PARSE_WORKERS must be a whole number of zero or more, not {raw!r} "
                             "(0 parses in this process only); set it, or unset it")
        return int(raw)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(0, min(3, cores - 1))


def lookups(job: Job, parse_file: Callable[[bytes, str], Any]) -> list[tuple[Any, bool]]:
    """Parse ``job`` with ``parse_file`` (:func:`memvet._code.parse_file`)
    and look its names up: what a helper does."""
    parsed = parse_file(job.data, job.language)
    return [(parsed.symbol(name), parsed.has_errors) for name in job.names]


# ---------------------------------------------------------------- helper side


def _send(stream: IO[bytes], obj: object) -> None:
    blob = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(blob)) + blob)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    """The next message, or ``None`` at the end of the stream."""
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(head)
    blob = stream.read(size)
    if len(blob) < size:
        return None
    # Our own child's pipe: nothing else writes to it.
    return pickle.loads(blob)


def serve(parse_file: Callable[[bytes, str], Any]) -> None:
    """The helper's loop: ``[(language, data, names), ...]`` in, one answer
    per file out (its hits, or the text of the error its parse raised).
    ``parse_file`` is passed in by :data:`_BOOT`: this module is imported by
    ``memvet._code`` and imports nothing of it."""
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while True:
        chunk = _receive(source)
        if chunk is None:
            return
        answers: list[tuple[str, Any]] = []
        for language, data, names in chunk:
            try:
                answers.append(("ok", lookups(Job(language, data, names), parse_file)))
            except Exception as exc:  # reported: the caller parses this file itself
                answers.append(("error", f"{type(exc).__name__}: {exc}"))
        _send(sink, answers)


# ---------------------------------------------------------------- caller side


class _Helper:
    """One helper process, with a thread that writes its chunks and one that
    reads its answers (blocking pipe I/O, off this thread). The reading
    thread also hands the helper its next chunk as each answer comes in, so
    the helper keeps working while this process is busy elsewhere."""

    def __init__(self, pool: _Pool) -> None:
        self.pool = pool
        self.inbox: queue.Queue[list[Job] | None] = queue.Queue()
        self.sent: list[list[Job]] = []  # chunks given and not yet answered, in order (under pool.lock)
        self.alive = True
        self.proc = subprocess.Popen(
            [_PYTHON, "-c", _BOOT, _PACKAGE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        self.threads = [threading.Thread(target=self._write, daemon=True),
                        threading.Thread(target=self._read, daemon=True)]
        for thread in self.threads:
            thread.start()

    def _write(self) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            while True:
                chunk = self.inbox.get()
                if chunk is None:
                    break
                _send(stdin, [(j.language, j.data, j.names) for j in chunk])
        except (OSError, ValueError):  # the helper is gone; the reader reports it
            pass
        finally:
            with contextlib.suppress(OSError):  # flushing into a helper that is gone
                stdin.close()

    def _read(self) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        with stdout:
            while True:
                try:
                    answer = _receive(stdout)
                except (OSError, EOFError, pickle.UnpicklingError, struct.error) as exc:
                    log.info("a parse helper answered garbage (%s); parsing its files here", exc)
                    answer = None
                if not isinstance(answer, list):
                    self.pool.answered(self, None)  # gone: its unanswered chunks come back
                    return
                self.pool.answered(self, answer)

    def stop(self) -> None:
        """End the helper (its stdin closes, so it returns) and its threads."""
        self.inbox.put(None)
        try:
            self.proc.wait(timeout=EXIT_WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for thread in self.threads:
            thread.join(timeout=5)


class _Pool:
    """The jobs left, shared between this process (which takes the smallest)
    and the helpers' reading threads (which take the largest, a chunk at a
    time, two in flight: one being parsed, one waiting in the pipe)."""

    def __init__(self) -> None:
        self.todo: collections.deque[Job] = collections.deque()
        self.lock = threading.Lock()
        self.answers: queue.Queue[tuple[_Helper, list[Job], Any]] = queue.Queue()
        self.helpers: list[_Helper] = []

    def feed(self, helper: _Helper) -> None:
        with self.lock:
            while helper.alive and len(helper.sent) < 2 and len(self.todo) > CHUNK:
                chunk = [self.todo.popleft() for _ in range(CHUNK)]
                helper.sent.append(chunk)
                helper.inbox.put(chunk)

    def answered(self, helper: _Helper, answer: Any) -> None:
        """From a reading thread: one answer (``None``: the helper is gone)."""
        with self.lock:
            chunk = helper.sent.pop(0) if answer is not None and helper.sent else []
            self.answers.put((helper, chunk, answer))
        if answer is not None:
            self.feed(helper)

    def drop(self, helper: _Helper) -> None:
        """Give up on a helper: its unanswered chunks come back to this process."""
        with self.lock:
            helper.alive = False
            self.todo.extend(job for chunk in helper.sent for job in chunk)
            helper.sent.clear()

    def take_local(self) -> Job | None:
        with self.lock:
            return self.todo.pop() if self.todo else None

    def give_back(self, job: Job) -> None:
        with self.lock:
            self.todo.append(job)

    def busy(self) -> bool:
        """Whether a helper has a chunk in flight or an answer is unread."""
        with self.lock:
            return not self.answers.empty() or any(h.alive and h.sent for h in self.helpers)


class Helpers:
    """Up to ``workers`` helper processes, started now for one batch shared
    later (:meth:`share`): a caller that still has files to read starts
    them first, so their start (about 0.2 s) overlaps its reading. Close it
    (or use it as a context manager) to end them."""

    def __init__(self, workers: int) -> None:
        self._pool = _Pool()
        for _ in range(workers):
            try:
                self._pool.helpers.append(_Helper(self._pool))
            except OSError as exc:
                log.info("cannot start a parse helper (%s); parsing here", exc)
                break

    def __enter__(self) -> Helpers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for helper in self._pool.helpers:
            helper.stop()

    def share(self, jobs: Sequence[Job], local: Callable[[Job], None],
              meanwhile: Callable[[], None] | None = None) -> int:
        """Fill every job's ``hits``, with the helpers.

        ``local(job)`` must fill ``job.hits`` in this process (it may keep
        the parse); it is called for every job no helper answered. Largest
        files go first, so the last pieces of work are small.
        ``meanwhile()``, if given, runs in this process once the helpers
        have their first files and before it parses any itself: the helpers
        go on taking files while it runs.

        Returns:
            How many jobs helpers answered.
        """
        pool = self._pool
        with pool.lock:
            pool.todo.extend(sorted(jobs, key=lambda j: -len(j.data)))
        served = 0

        def take(helper: _Helper, chunk: list[Job], answer: Any) -> None:
            nonlocal served
            if not helper.alive:  # given up on already; its chunks were taken back
                return
            if answer is None:  # the helper is gone: its unanswered chunks come back here
                pool.drop(helper)
                return
            for job, (kind, value) in zip(chunk, answer, strict=False):
                if kind == "ok" and isinstance(value, list) and len(value) == len(job.names):
                    job.hits = value
                    served += 1
                else:
                    log.info("a parse helper could not parse a file (%s); parsing it here", value)
                    pool.give_back(job)

        for helper in pool.helpers:
            pool.feed(helper)
        if meanwhile is not None:
            meanwhile()
        while True:
            try:
                while True:
                    take(*pool.answers.get_nowait())
            except queue.Empty:
                pass
            job = pool.take_local()
            if job is not None:
                local(job)  # the smallest: helpers take from the front
            elif pool.busy():
                try:
                    take(*pool.answers.get(timeout=STALL))
                except queue.Empty:
                    # Nothing from any helper for a long time: parse their files here.
                    log.info("parse helpers stalled for %.0f s; parsing their files here", STALL)
                    for helper in pool.helpers:
                        if helper.alive:
                            pool.drop(helper)
                            helper.proc.kill()
            else:
                break
        for job in jobs:  # whatever no side filled (never expected; cheap to be sure)
            if len(job.hits) != len(job.names):
                local(job)
        return served


def share(jobs: Sequence[Job], workers: int, local: Callable[[Job], None],
          meanwhile: Callable[[], None] | None = None) -> int:
    """:meth:`Helpers.share` on ``workers`` helpers started for it.

    Returns:
        How many jobs helpers answered.
    """
    with Helpers(workers) as helpers:
        return helpers.share(jobs, local, meanwhile)
