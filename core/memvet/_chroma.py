"""The Chroma boundary: the one module that imports chromadb.

It owns everything MemVet knows about the backend: building clients
(:func:`persistent_client`, :func:`http_client`) with the settings every
client gets (no telemetry), recognising a local folder this process cannot
write (:func:`read_only_error`), the process-wide cache of embedded systems
(:func:`has_cached_system`, :func:`reopen_persistent`, both through
:func:`_system_registry`, the only use of chromadb's private state), and the
translation of backend failures into MemVet's :class:`StoreError` family
(:func:`translate`, around backend calls only: a bug in our own code must
never read "the ledger store failed").

chromadb is imported inside the functions, not at module import: it takes
1.5 s to load, and ``memvet --help`` or a shell completion must not pay for
it (``tests/unit/test_public_api.py`` checks it in a subprocess).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from memvet._errors import AuthenticationError, StoreError, StoreUnavailableError, UsageError
from memvet._secrets import check_token, redact_url

__all__ = [
    "CLIENT_LOCK", "INDEX_RACE_PAUSES", "has_cached_system", "hold_system", "http_client", "is_in_process",
    "is_persistent", "persistent_client", "read_only_error", "read_through_index_race", "reopen_persistent",
    "settings", "translate",
]

log = logging.getLogger(__name__)


#: Built ``Settings`` by (options, environment, ``.env`` file); see :func:`settings`.
_SETTINGS: dict[tuple[Any, ...], Any] = {}
#: How many of them are kept (one per environment a long process went through).
_SETTINGS_KEPT = 32
_SETTINGS_LOCK = threading.Lock()


def settings(**extra: Any) -> Any:
    """Chroma ``Settings`` for every client MemVet builds: telemetry off.

    Building one took 27 ms (pydantic-settings resolves each of Chroma's
    fields from the environment and from a ``.env`` file in the working
    folder; cProfile, 499 builds in 13.5 s), a third of the time of a
    ``memvet`` command on a small local ledger. So one is built per
    options, environment variables named like a field (Chroma reads them
    without a prefix, in any case) and ``.env`` file (its path, size and
    modification time), and each caller gets its own copy:
    ``PersistentClient`` writes its folder into the settings it is given. A
    changed variable or ``.env`` builds anew.
    """
    from chromadb.config import Settings

    fields = Settings.model_fields
    environment = tuple(sorted((k.lower(), v) for k, v in os.environ.items() if k.lower() in fields))
    key = (tuple(sorted(extra.items())), environment, _dotenv_state())
    with _SETTINGS_LOCK:
        built = _SETTINGS.get(key)
        if built is None:
            if len(_SETTINGS) >= _SETTINGS_KEPT:
                _SETTINGS.clear()
            built = _SETTINGS[key] = Settings(anonymized_telemetry=False, **extra)
    return built.model_copy(deep=True)


def _dotenv_state() -> tuple[str, int, int, int] | None:
    """What identifies the ``.env`` file pydantic-settings would read for
    Chroma's ``Settings`` (relative to the working folder), or ``None``."""
    try:
        found = os.stat(".env")
    except OSError:
        return None
    return os.path.abspath(".env"), found.st_ino, found.st_size, found.st_mtime_ns


@contextlib.contextmanager
def translate(action: str) -> Iterator[None]:
    """Translate backend errors raised inside the block into StoreError subclasses."""
    try:
        yield
    except StoreError:
        raise
    except (ConnectionError, TimeoutError) as exc:
        raise StoreUnavailableError(f"the ledger server is unreachable ({action}): {exc}") from exc
    except Exception as exc:
        # chromadb is imported here, not at module import: it takes 1.5 s to
        # load, and `memvet --help` or a completion should not pay for it.
        from chromadb import errors

        if isinstance(exc, (errors.ChromaAuthError, errors.AuthorizationError)):
            raise AuthenticationError(f"the ledger server refused the request ({action}): {exc}") from exc
        if isinstance(exc, errors.ChromaError):
            raise StoreError(f"the ledger store failed while {action}: {exc}") from exc
        # httpx errors (the HTTP client's transport) are mapped by name so the
        # core does not import httpx; anything else is an unmapped backend error.
        name = type(exc).__name__
        module = type(exc).__module__
        if module.startswith("httpx") and name in _HTTPX_UNAVAILABLE:
            raise StoreUnavailableError(f"the ledger server is unreachable ({action}): {exc}") from exc
        if module.startswith("httpx") and name == "HTTPStatusError":
            status = getattr(getattr(exc, "response", None), "status_code", 0)
            if status in (401, 403):
                raise AuthenticationError(
                    f"the ledger server refused the credentials ({action}): HTTP {status}"
                ) from exc
            raise StoreError(f"the ledger server answered HTTP {status} while {action}") from exc
        # AttributeError and KeyError: Chroma's Python layer over a system that
        # another thread was tearing down ('RustBindingsAPI' object has no
        # attribute 'bindings'); seen before the per-store lock, kept mapped.
        if isinstance(exc, (ValueError, TypeError, KeyError, AttributeError, IndexError, OSError, RuntimeError)):
            raise StoreError(f"the ledger store failed while {action}: {exc}") from exc
        raise


_HTTPX_UNAVAILABLE = {
    "ConnectError", "ConnectTimeout", "ReadTimeout", "WriteTimeout", "PoolTimeout",
    "RemoteProtocolError", "ReadError", "WriteError", "NetworkError", "TimeoutException",
}


#: Chroma's server builds a collection's vector index while writes arrive, and
#: a query that reaches the index in the middle of that fails with "Error
#: creating hnsw segment reader" (chroma 1.5.9: one run in six to ten of
#: four processes writing a fresh namespace at once). The same query asked a moment
#: later answers. These are the pauses between tries (1.6 s in all); a reader
#: still failing after them is reported as the store error it is.
INDEX_RACE_PAUSES = (0.02, 0.05, 0.1, 0.2, 0.4, 0.8)


def _is_index_race(exc: StoreError) -> bool:
    from chromadb import errors

    cause = exc.__cause__
    return isinstance(cause, errors.InternalError) and "hnsw segment reader" in str(cause)


def read_through_index_race(action: str, read: Callable[[], Any]) -> Any:
    """``read()`` under :func:`translate`, asked again while Chroma's vector
    index is being built. Only reads come through here: asking twice changes
    nothing."""
    for pause in INDEX_RACE_PAUSES:
        try:
            with translate(action):
                return read()
        except StoreError as exc:
            if not _is_index_race(exc):
                raise
            log.info("the ledger's vector index was being built (%s); asking again in %.2f s", exc, pause)
            time.sleep(pause)
    with translate(action):
        return read()


def http_client(url: str, token: str | None = None) -> Any:
    """A Chroma ``HttpClient`` for ``http(s)://host:port``, sending ``token``
    as a bearer token (for a reverse proxy that checks it).

    The client works in the Chroma database the server names for the token
    (``/api/v2/auth/identity``): the shipped proxy (``deploy/nginx.conf``)
    answers it with the token's team database and refuses every path
    outside it, so a team's token never reaches another team's memory. A
    bare ``chroma run`` names its ``default_database``.

    Neither the token nor a password is ever part of a message.

    Raises:
        UsageError: A malformed URL, a URL holding a user name or password
            (only a bearer token is sent), or a token that cannot travel in
            a header (a stray line break, a space, non-ASCII).
        StoreUnavailableError: Nothing answers there.
        AuthenticationError: The server refused the token (or its absence).
        StoreError: The token's team database does not exist on the server.
    """
    from urllib.parse import urlsplit

    full = url if "://" in url else f"http://{url}"
    # As given, unless a password must be masked (found in the full form:
    # ``alice:pw@host`` has no scheme for the mask to anchor on).
    shown = url if redact_url(full) == full else redact_url(full)
    if token:  # "" sends no token, like None
        check_token(token)
    parts = urlsplit(full)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"invalid server URL {shown!r}; expected http://HOST:PORT")
    if parts.username is not None or parts.password is not None:
        raise UsageError(
            f"invalid server URL {shown!r}: it holds a user name or password, which MemVet never sends; "
            "remove it and pass the team's bearer token with --token or MEMVET_TOKEN (token=...)"
        )
    try:
        port = parts.port or (443 if parts.scheme == "https" else 8000)
    except ValueError as exc:
        raise UsageError(f"invalid server URL {shown!r}: {exc}") from exc
    headers = {"Authorization": f"Bearer {token}"} if token else None
    # The database comes from the server's answer for this token (one team
    # database per token behind the proxy); Chroma reads it only with this flag.
    client_settings = settings(chroma_overwrite_singleton_tenant_database_access_from_auth=True)
    try:
        with translate(f"connecting to {shown}"):
            import chromadb

            return chromadb.HttpClient(host=parts.hostname, port=port, ssl=parts.scheme == "https",
                                       headers=headers, settings=client_settings)
    except AuthenticationError as exc:
        raise AuthenticationError(
            f"the ledger server at {shown} refused the credentials ({'a wrong token' if token else 'no token'} "
            f"sent): {exc.__cause__}; pass the team's token (--token, or token=...)"
        ) from exc
    except StoreError as exc:
        chain = _chain(exc.__cause__)
        # Chroma's messages and HTTP statuses only, never our own message:
        # it holds the URL, whose port may well read 40125 (which once made
        # an unreachable server "refuse the credentials").
        if any("Could not connect" in str(e) for e in chain):
            raise StoreUnavailableError(f"the ledger server at {shown} is unreachable") from exc
        status = next((code for e in chain if (code := _http_status(e)) in (401, 403)), 0)
        if status:
            raise AuthenticationError(f"the ledger server at {shown} refused the credentials: HTTP {status}") from exc
        missing = next((m for e in chain if (m := _MISSING_DATABASE.search(str(e)))), None)
        if missing:
            raise StoreError(
                f"the ledger server at {shown} has no database {missing.group(1)!r}, the one it names for this "
                "token: the server's operator creates it (docs/deploy.md, 'One database per team')"
            ) from exc
        raise


#: Chroma's answer when the database a client names does not exist.
_MISSING_DATABASE = re.compile(r"Database \[([^\]]*)\] not found")


def _chain(exc: BaseException | None) -> list[BaseException]:
    """``exc`` and the exceptions it was raised from or while handling:
    Chroma re-raises an HTTP 401 with an empty body as ``ValueError('')``."""
    out: list[BaseException] = []
    while exc is not None and exc not in out:
        out.append(exc)
        exc = exc.__cause__ or exc.__context__
    return out


def _http_status(exc: BaseException) -> int:
    """The HTTP status of an httpx ``HTTPStatusError`` (0 for anything else)."""
    if type(exc).__name__ != "HTTPStatusError":
        return 0
    return int(getattr(getattr(exc, "response", None), "status_code", 0) or 0)


#: Chroma keeps one system per folder in class-level dictionaries of
#: ``SharedSystemClient``, shared by every client of the process; creating or
#: reopening a ``PersistentClient`` from two threads at once races on them
#: (``KeyError``, "Could not connect to tenant", a half-built system whose
#: bindings are missing). Every creation and reopen holds this lock.
CLIENT_LOCK = threading.RLock()


def persistent_client(folder: str | Path, client_settings: Any = None) -> Any:
    """A ``PersistentClient`` on ``folder``, created under :data:`CLIENT_LOCK`.

    Raises:
        StoreError: Chroma could not open the folder (see
            :func:`read_only_error` for a folder this process cannot write).
    """
    import chromadb

    with CLIENT_LOCK, translate("opening the local ledger"):
        return chromadb.PersistentClient(path=str(folder), settings=client_settings or settings())


def _system_registry() -> tuple[dict[str, Any], dict[str, Any]]:
    """Chroma's process-wide maps of embedded systems by folder, and their
    reference counts: private state of ``SharedSystemClient`` (chromadb
    1.x), the only private API MemVet touches. Checked on every use, so a
    Chroma upgrade that moves it fails here with this name, not with an
    ``AttributeError`` deep in a reopen.

    Raises:
        StoreError: This chromadb has no such maps.
    """
    import chromadb
    from chromadb.api.shared_system_client import SharedSystemClient

    systems = getattr(SharedSystemClient, "_identifier_to_system", None)
    counts = getattr(SharedSystemClient, "_identifier_to_refcount", None)
    if not isinstance(systems, dict) or not isinstance(counts, dict):
        raise StoreError(
            f"chromadb {chromadb.__version__} no longer keeps SharedSystemClient._identifier_to_system and "
            "_identifier_to_refcount; memvet needs them to reload a ledger another process wrote "
            "(memvet._chroma._system_registry)"
        )
    return systems, counts


#: The systems :func:`reopen_persistent` built, by ``id``: MemVet's own, so
#: MemVet stops each once nothing holds it (see :func:`_stop_unheld`).
_REOPENED: dict[int, Any] = {}
#: What each holder (a store) works with: the system its client was built on.
_HOLDERS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def hold_system(client: Any, holder: Any) -> None:
    """Record that ``holder`` (a store, weakly referenced) works with the
    system ``client`` was built on, so that :func:`reopen_persistent` never
    stops it under ``holder``. Call it right after building ``client``."""
    with CLIENT_LOCK:
        systems, _ = _system_registry()
        system = systems.get(getattr(client, "_identifier", None) or "")
        if system is not None:
            _HOLDERS[holder] = system


def reopen_persistent(client: Any, holder: Any = None) -> Any:
    """A fresh ``PersistentClient`` on the same folder as ``client``.

    Chroma keeps one in-memory system (and HNSW index) per folder and
    process; after another process wrote, that copy is stale: queries miss
    the new vectors, and a write from it loses vectors. This drops the
    process's cached system for the folder and builds a new one from disk.

    The old system is not stopped here: objects other than ``holder`` may
    still use it. But a system that MemVet itself built here is stopped as
    soon as no holder works with it any more (``holder`` now works with the
    new one; a holder that was garbage collected holds nothing). Dropped
    without a stop, each system kept about 2 MB of native memory for good
    (a reader reloading after every write of another process grew by
    1 MB a round; see docs/benchmarks.md, "Recall on a server"). A system the caller
    built, or the first one of a folder, is never stopped by MemVet.
    """
    import chromadb

    with CLIENT_LOCK:
        systems, counts = _system_registry()
        with translate("reopening the local ledger"):
            client_settings = client.get_settings()
            ident = getattr(client, "_identifier", None)
            if ident is not None:
                systems.pop(ident, None)
                counts.pop(ident, None)
            fresh = chromadb.PersistentClient(path=client_settings.persist_directory, settings=client_settings)
        system = systems.get(getattr(fresh, "_identifier", None) or "")
        if system is not None:
            _REOPENED[id(system)] = system
            if holder is not None:
                _HOLDERS[holder] = system
        _stop_unheld(systems)
        return fresh


def _stop_unheld(systems: dict[str, Any]) -> None:
    """Stop every system :func:`reopen_persistent` built that is neither
    the current one of its folder nor held by a live holder. Call with
    :data:`CLIENT_LOCK` held."""
    current = {id(s) for s in systems.values()}
    held = {id(s) for s in _HOLDERS.values()}
    stopped = 0
    for key in [k for k in _REOPENED if k not in current and k not in held]:
        system = _REOPENED.pop(key)
        try:
            system.stop()
        except Exception as exc:  # a half-stopped system is dropped all the same
            log.warning("could not stop a reloaded Chroma system: %s", exc)
        stopped += 1
    if stopped:
        _trim_native_heap()


#: glibc's ``malloc_trim``, ``False`` where there is none (looked up once).
_MALLOC_TRIM: Any = None


def _trim_native_heap() -> None:
    """Hand the pages a stopped system freed back to the OS (glibc's
    ``malloc_trim``; nothing elsewhere). Chroma's native threads allocate
    in arenas of their own, and the holes a stopped system leaves there
    were otherwise kept: a reader reloading after each write of another
    ledger grew by 26 MB from its 100th to its 300th write without it, by
    1 MB with it (docs/benchmarks.md, "Recall on a server"). Called only after a reload
    that stopped a system (another process wrote), never on a plain read."""
    global _MALLOC_TRIM
    if _MALLOC_TRIM is None:
        _MALLOC_TRIM = _find_malloc_trim()
    if _MALLOC_TRIM:
        _MALLOC_TRIM(0)


def _find_malloc_trim() -> Any:
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (macOS, musl): nothing to trim
        return False


def has_cached_system(path: str | Path) -> bool:
    """True when this process already holds Chroma's system for ``path``
    (a new ``PersistentClient`` there would reuse it, stale or not)."""
    with CLIENT_LOCK:
        systems, _ = _system_registry()
        return str(path) in systems


def read_only_error(exc: StoreError, home: Path) -> StoreError | None:
    """A clearer error for a ledger folder this process cannot write, or
    ``None`` when ``exc`` is something else.

    Chroma (its SQLite underneath) says so only in its message: "attempt to
    write a readonly database", or a permission error naming the file.
    """
    text = " ".join(str(e) for e in _chain(exc)).lower()
    if "readonly" in text or "read-only" in text or "permission denied" in text:
        return StoreError(
            f"the ledger folder {home} is read-only: Chroma needs write access to open it, even to read; "
            "give this user write access, copy the folder, or use a server (--server URL)"
        )
    return None


def is_in_process(client: Any) -> bool:
    """True for an in-memory client of this process (``EphemeralClient``):
    no other process can write to it."""
    try:
        settings = client.get_settings()
    except Exception:  # a fake or foreign client: not known to be in process
        return False
    return (not getattr(settings, "is_persistent", False)
            and getattr(settings, "chroma_api_impl", "") in _IN_PROCESS_APIS)


#: Chroma's in-process implementations (the Rust bindings, the older Python one).
_IN_PROCESS_APIS = ("chromadb.api.rust.RustBindingsAPI", "chromadb.api.segment.SegmentAPI")


def is_persistent(client: Any) -> bool:
    """True for an embedded ``PersistentClient`` (the one that needs a lock)."""
    try:
        settings = client.get_settings()
    except Exception:  # a fake or foreign client: not ours to lock
        return False
    return bool(getattr(settings, "is_persistent", False)) and bool(getattr(settings, "persist_directory", ""))
