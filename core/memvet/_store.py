"""The ledger's records in Chroma: collections per namespace, the journal,
and the one corrupt-record policy.

Every call into Chroma goes through :func:`memvet._chroma.translate` (only
the call: encoding and decoding stay outside, so a codec bug is never
reported as a store failure), which turns backend failures into MemVet's
:class:`StoreError` family. An outage is an error, never an empty result.

Corrupt records (see :func:`_readable`): a read of named records raises
:class:`CorruptRecordError`; a listing or search keeps what decodes and
logs, or hands back to the caller, each record that does not.

A namespace is a collection of its own (``memvet-<namespace>``), plus a
receipts collection and a journal beside it, so no query ever needs a
namespace ``where`` clause (in Chroma 1.5.9 such a filter turns the vector
query into a scan). Distinct namespaces always get distinct collections.

Crash safety: every lifecycle act is one :class:`Intent`, journaled before
its first write and removed after its last, so an act killed between its
writes is completed by the next write (or :meth:`ChromaStore.replay`). Every
step of an act is idempotent (``add`` of an existing id is a no-op, the
``update`` carries the full lifecycle), so replaying twice is harmless.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from memvet import _codec
from memvet._cache import LRU
from memvet._chroma import hold_system, is_in_process, read_through_index_race, reopen_persistent, translate
from memvet._errors import CorruptRecordError, StoreError, UsageError
from memvet._lock import LocalLock
from memvet._model import Decision, Lifecycle, Receipt

__all__ = ["ChromaStore", "Intent", "collection_name"]

log = logging.getLogger(__name__)

_BATCH = 5000


#: Used as is in a collection name; it ends with a letter or digit, as
#: Chroma requires of a name (``team-`` is hashed like any other).
_SAFE_NAMESPACE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_-]{0,178}[A-Za-z0-9])?")
#: The tail :func:`collection_name` gives a hashed namespace (see there).
_HASHED_FORM = re.compile(r"(?:.*-)?[0-9a-f]{16}")


def collection_name(namespace: str) -> str:
    """The decisions collection of a namespace; distinct namespaces never share one.

    A namespace of letters, digits, ``_`` and ``-`` (a root commit id, a
    ``team-a``) is used as is. Anything else (spaces, ``/``, ``.``, non-ASCII,
    very long) is cleaned for Chroma's name rules and suffixed with a hash of
    the exact namespace, so ``team a`` and ``team-a`` stay apart, and no
    namespace can name another's ``.receipts`` or ``.journal`` collection.

    A plain namespace in the hashed form (ending in ``-`` and 16 hex digits,
    or 16 hex digits alone) is refused: used as is, it would name the
    collection of another namespace (``--namespace <root>-team-c-<hash>``
    would take ``--team c``'s collection, and every later ``--team c`` call
    would fail on the owner check).

    Raises:
        UsageError: An empty namespace, or one in the hashed form.
    """
    if not isinstance(namespace, str) or not namespace.strip():
        raise UsageError(f"invalid namespace {namespace!r}: it must be a non-empty string")
    if _SAFE_NAMESPACE.fullmatch(namespace):
        if _HASHED_FORM.fullmatch(namespace):
            raise UsageError(
                f"invalid namespace {namespace!r}: a name ending in '-' and 16 hex digits is the form MemVet "
                "gives other namespaces' collections, so it could take one of theirs; choose another name"
            )
        return f"memvet-{namespace}"
    clean = re.sub(r"[^a-zA-Z0-9_-]+", "-", namespace).strip("-_")[:120].strip("-_")
    digest = hashlib.sha256(namespace.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"memvet-{clean}-{digest}" if clean else f"memvet-{digest}"


@dataclass(frozen=True)
class Intent:
    """One lifecycle act, journaled so that a crash between its writes is
    completed later instead of leaving it half done.

    Applied in this order: ``add`` (a new decision with its embedding, the
    successor of a supersede), ``updates`` (full lifecycle rewrites),
    ``receipts``.
    """

    act: str
    add: tuple[Decision, tuple[float, ...]] | None = None
    updates: tuple[Decision, ...] = ()
    receipts: tuple[Receipt, ...] = ()
    id: str = field(default_factory=lambda: "i-" + uuid.uuid4().hex)
    at: float = field(default_factory=time.time)

    def starts_from(self, decision_id: str) -> str:
        """The lifecycle a decision this act updates had when the act began:
        the ``from`` of its receipt here, else ``active`` (every act but an
        approval or the rejection of a proposal starts from an active one)."""
        for receipt in self.receipts:
            if receipt.decision_id == decision_id and receipt.from_lifecycle:
                return receipt.from_lifecycle
        return Lifecycle.ACTIVE.value

    def to_json(self) -> str:
        def dec(d: Decision) -> dict[str, Any]:
            return {"id": d.id, "claim": d.claim, "meta": _codec.decision_metadata(d)}

        return json.dumps({
            "act": self.act, "at": self.at,
            "add": None if self.add is None else {**dec(self.add[0]), "embedding": list(self.add[1])},
            "updates": [dec(d) for d in self.updates],
            "receipts": [{"id": r.id, "meta": _codec.receipt_metadata(r)} for r in self.receipts],
        }, sort_keys=True)

    @classmethod
    def from_json(cls, intent_id: str, text: str | None) -> Intent:
        """Raises CorruptRecordError for a journal entry that does not decode."""
        try:
            data = json.loads(text or "")
            add = None
            if data.get("add"):
                a = data["add"]
                add = (_codec.decision_from_record(a["id"], a["claim"], a["meta"]),
                       tuple(float(x) for x in a["embedding"]))
            return cls(
                act=str(data["act"]), add=add,
                updates=tuple(_codec.decision_from_record(u["id"], u["claim"], u["meta"])
                              for u in data.get("updates", [])),
                receipts=tuple(_codec.receipt_from_record(r["id"], r["meta"]) for r in data.get("receipts", [])),
                id=intent_id, at=float(data.get("at", 0.0)),
            )
        except CorruptRecordError:
            raise
        except (ValueError, KeyError, TypeError) as exc:
            raise CorruptRecordError(f"journal entry {intent_id}: cannot decode ({exc})", intent_id) from exc


_F = TypeVar("_F", bound=Callable[..., Any])


def _serialized(method: _F) -> _F:
    """Run ``method`` holding its store's lock (see :class:`ChromaStore`)."""

    @functools.wraps(method)
    def wrapper(self: ChromaStore, *args: Any, **kwargs: Any) -> Any:
        with self.guard:
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


_T = TypeVar("_T")


def _readable(rows: Iterable[tuple[Any, ...]], decode: Callable[..., _T], action: str,
              bad: list[CorruptRecordError] | None = None) -> list[_T]:
    """The one corrupt-record policy of a listing or a search: every record
    that decodes, in order; each one that does not is collected in ``bad``
    when the caller reports them (``check``, ``export``), else logged as a
    warning naming the record. A read of named records (``get_decisions``)
    raises instead: the caller asked for that record."""
    out = []
    for row in rows:
        try:
            out.append(decode(*row))
        except CorruptRecordError as exc:
            if bad is not None:
                bad.append(exc)
            else:
                log.warning("skipping a corrupt record while %s: %s", action, exc)
    return out


#: The journal entry that carries a server ledger's change marker (its
#: document is the token of the last write; see :class:`_JournalMark`).
GENERATION_ID = "generation"
#: The prefix of a writer's in-flight entry in a server ledger's journal.
_WRITING_PREFIX = "w-"


def _token() -> str:
    return uuid.uuid4().hex


class _ProcessMark:
    """The change marker of a ledger in an in-process (ephemeral) client:
    no other process can reach that client, so a process-wide table says
    whether a write is under way (``busy``) and names the last one
    (``token``). Keyed by the namespace's own collection id.

    Every write of every store on the collection goes through
    :meth:`begin` and :meth:`end` (:meth:`ChromaStore.writing`)."""

    _table: ClassVar[dict[str, list[Any]]] = {}  # key -> [token, busy, changes]
    _lock: ClassVar[threading.Lock] = threading.Lock()
    #: Idle entries beyond this many are forgotten (a forgotten entry comes
    #: back with a new token: the next read is only a miss).
    KEPT: ClassVar[int] = 4096

    def __init__(self, key: str) -> None:
        self.key = key

    def _entry(self) -> list[Any]:
        entry = self._table.get(self.key)
        if entry is None:
            if len(self._table) >= self.KEPT:
                for key in [k for k, e in self._table.items() if not e[1]][: self.KEPT // 2]:
                    del self._table[key]
            entry = self._table[self.key] = [_token(), 0, 0]
        return entry

    def read(self) -> str | None:
        """The token of the last write, or ``None`` while one is under way."""
        with self._lock:
            token, busy, _ = self._entry()
            return None if busy else str(token)

    def begin(self) -> tuple[str, int]:
        """A write starts: the token before it, and the change count after."""
        with self._lock:
            entry = self._entry()
            entry[1] += 1
            entry[2] += 1
            return str(entry[0]), int(entry[2])

    def end(self, began: tuple[str, int]) -> tuple[str, bool]:
        """The write of :meth:`begin` ended: the new token, and whether no
        other write began or ended meanwhile."""
        with self._lock:
            entry = self._entry()
            alone = entry[2] == began[1]
            entry[0] = _token()
            entry[1] = max(0, entry[1] - 1)
            entry[2] += 1
            return str(entry[0]), alone


class _JournalMark:
    """The change marker of a server ledger, kept in its journal collection
    where every client of the server sees it: the entry :data:`GENERATION_ID`
    holds the token of the last write, and a writer's in-flight entry
    (``w-...``, like a journaled act's ``i-...``) says that a write is under
    way. One ``get`` of the journal (normally one entry) answers both.

    A writer adds its in-flight entry before its first write, and after its
    last rewrites the token, then removes the entry: a reader that sees no
    entry in flight sees the token of every write that landed. A writer
    killed mid-write leaves its entry, so readers cache nothing until the
    next write clears it (entries older than ``SERVER_REPLAY_GRACE``).

    Readers of this version no longer read it (a request beside every
    query; they key what they keep by the content their queries return,
    see :meth:`ChromaStore._by_content`). Writers still keep it, for the
    readers of earlier versions that share the server."""

    def __init__(self, journal: Any) -> None:
        self.journal = journal

    def read(self) -> str | None:
        """The token of the last write (``""`` before the first marked
        one), or ``None`` while a write or an act is under way."""
        got = read_through_index_race("reading the ledger's change marker",
                                      lambda: self.journal.get(include=["documents"]))
        token = ""
        for rid, doc in zip(got["ids"], got.get("documents") or [None] * len(got["ids"]), strict=True):
            if rid != GENERATION_ID:
                return None  # an act or a write in flight (or left by a crash)
            token = str(doc or "")
        return token

    def begin(self) -> str:
        entry = _WRITING_PREFIX + _token()
        with translate("marking a write"):
            self.journal.add(ids=[entry], documents=[""], embeddings=[[1.0]],
                             metadatas=[{"kind": "writing", "at": float(time.time())}])
        return entry

    def end(self, entry: str) -> None:
        with translate("marking a write"):
            self.journal.upsert(ids=[GENERATION_ID], documents=[_token()], embeddings=[[1.0]],
                                metadatas=[{"kind": "generation"}])
            self.journal.delete(ids=[entry])


#: Decoded decisions a store keeps for its queries (about 1.1 KB each
#: with one anchor, measured on sqlalchemy decisions: 4.5 MB in all).
RECORD_CACHE = 4096

#: The metadata key by which a server ledger's writer tells readers that a
#: decision's successors change: set to ``open:<token>`` before a write of
#: any decision that supersedes it, and to a new ``<token>`` after the
#: write's last (see :meth:`ChromaStore._flag_successors`).
SUCCESSOR_WRITE = "successor_write"
_OPEN = "open:"


def _version(document: str | None, meta: Any) -> bytes:
    """The content of a stored decision as a server reader keys it: its
    document and every metadata entry (any write changes one of them)."""
    items = sorted(meta.items()) if isinstance(meta, dict) else meta
    return hashlib.blake2b(repr((document, items)).encode("utf-8", "surrogatepass"), digest_size=16).digest()


@dataclass(frozen=True, slots=True)
class _Kept:
    """A decoded decision of a server ledger, kept by its content."""

    version: bytes
    #: A write of a decision that supersedes this one is under way (or was
    #: killed): no successor answer about it is kept.
    open: bool
    decision: Decision


#: In server mode an unfinished intent younger than this may belong to a
#: writer still at work; only older ones are replayed by others.
SERVER_REPLAY_GRACE = 60.0


class ChromaStore:
    """Decisions, receipts and the journal of one namespace in a Chroma client.

    The embedding is pinned by the first write, not by opening: the
    decisions collection's ``embedder`` metadata names the model its vectors
    came from, and counts only once it holds a vector (:meth:`pinned`), so
    a read, or a write that failed, never pins anything. Reads need no
    embedder at all; the ledger checks the pin before it embeds.

    After a :meth:`reembed` the namespace's own collection (``memvet-<ns>``)
    holds a pointer, ``vectors``, to the collection with the current
    vectors (``memvet-<ns>.v<N>``); receipts and journal never move.

    Args:
        client: Any Chroma client (Ephemeral, Persistent, Http).
        namespace: The namespace (its own collections).
        embedder_name: The name of the embedder this store writes with
            (pinned by the first decision written).
        lock: For an embedded ``PersistentClient``: the folder's write lock.
            Writes then hold it, and the client is reloaded whenever another
            process wrote since this store last looked. Without a lock (an
            in-process client), a change marker that every write changes
            (:class:`_ProcessMark`) tells a reader when the records it
            decoded are no longer current; a server ledger's reader keys
            them by the content its query returns instead (see
            :meth:`_by_content`), so every client kind keeps them between
            reads.

    Threads: one store (one :class:`~memvet.Ledger`) may be shared by any
    number of threads. Every access to Chroma holds :attr:`guard`, a
    re-entrant lock of the store, and so does the reload of a local client
    (done once, by whichever thread first sees the new generation); a write
    holds it from its first read to its last write, so a thread never sees
    half an act of another, and two acts of one process never interleave.
    Chroma calls of one store are therefore serialized; verification (git,
    parsing, the caches, each locked on its own) runs outside the lock.
    """

    def __init__(self, client: Any, namespace: str, embedder_name: str = "", *,
                 lock: LocalLock | None = None) -> None:
        self.client = client
        self.namespace = namespace
        self.embedder_name = embedder_name
        self.lock = lock
        #: Held around every Chroma call of this store, the reload and whole writes.
        self.guard = threading.RLock()
        self._seen = lock.opened_generation if lock is not None else ""
        #: successors_of answers by the ids asked, valid for one change
        #: token (``_successors_stamp``).
        self._successor_cache: LRU[tuple[str, ...], dict[str, Decision]] = LRU(1024)
        self._successors_stamp = self._seen
        #: Decoded decisions by id, valid for one change token (see
        #: :meth:`query`): a local ledger's generation, else the marker's.
        self._records: LRU[str, Decision] = LRU(RECORD_CACHE)
        self._records_stamp = self._seen
        #: The change marker of a ledger without a write lock (set by
        #: :meth:`_open_collections`): in process, or in a server's journal.
        self._mark: _ProcessMark | _JournalMark | None = None
        #: A server ledger's decoded decisions by id, each with the content
        #: it was decoded from (see :meth:`_by_content`), and its successor
        #: answers by the ids asked and their contents.
        self._contents: LRU[str, _Kept] = LRU(RECORD_CACHE)
        self._successors_by_version: LRU[tuple[tuple[str, bytes], ...], dict[str, Decision]] = LRU(1024)
        #: The decisions this store's current write flagged as gaining a
        #: successor (cleared when the write ends, see :meth:`_flag_successors`).
        self._flagged: set[str] = set()
        #: How deep this store is in :meth:`writing` (a server's: the marker
        #: is set by the outermost write only).
        self._depth = 0
        #: This store's own in-flight entry in a server's journal, if any.
        self._writing = ""
        #: Whether this store's own write dropped a record since its last
        #: full query (the next query reads its records with it again).
        self._records_dropped = False
        #: How many interrupted acts the last write finished first.
        self.replayed = 0
        #: Called after every outermost write that did not raise (the
        #: ledger keeps its decision count with it, see :mod:`memvet._held`).
        self.after_write: Callable[[], None] | None = None
        if lock is not None:
            hold_system(client, self)  # never stopped under this store by another's reload
        self._open_collections()

    def _open_collections(self) -> None:
        name = collection_name(self.namespace)
        with translate("opening the ledger"):
            self.home = self.client.get_or_create_collection(
                name, metadata={"memvet_schema": _codec.SCHEMA_VERSION, "namespace": self.namespace},
                configuration={"hnsw": {"space": "cosine"}}, embedding_function=None,
            )
            self.receipts = self.client.get_or_create_collection(
                name + ".receipts", metadata={"memvet_schema": _codec.SCHEMA_VERSION, "namespace": self.namespace},
                embedding_function=None,
            )
            self.journal = self.client.get_or_create_collection(
                name + ".journal", metadata={"memvet_schema": _codec.SCHEMA_VERSION, "namespace": self.namespace},
                embedding_function=None,
            )
        meta = self.home.metadata or {}
        owner = meta.get("namespace")
        if owner is not None and owner != self.namespace:
            raise StoreError(
                f"collection {name} belongs to namespace {owner!r}, not {self.namespace!r}; refusing to mix them"
            )
        pointer = meta.get("vectors")
        if pointer:
            try:
                with translate("opening the ledger's vectors"):
                    self.decisions = self.client.get_collection(str(pointer), embedding_function=None)
            except StoreError as exc:
                raise StoreError(f"collection {name} points to its vectors in {pointer}, which cannot be "
                                 f"opened: {exc}") from exc
        else:
            self.decisions = self.home
        self._pin = ""
        if self.lock is None:
            self._mark = (_ProcessMark(str(self.home.id)) if is_in_process(self.client)
                          else _JournalMark(self.journal))

    # ----------------------------------------------------------------- the embedding pin

    @_serialized
    def pinned(self) -> str:
        """The name of the embedding this namespace's vectors were made by,
        or ``""`` while it holds none (an empty namespace pins nothing, even
        one an earlier version pinned at open)."""
        self._fresh()  # another process's reembed reopens the collections and resets the pin
        if self._pin:
            return self._pin  # a pin never changes, except by reembed
        meta = self.decisions.metadata or {}
        if self.lock is None:  # a server: another client may have pinned it since we opened
            with translate("reading the ledger's embedding"):
                meta = self.client.get_collection(self.decisions.name, embedding_function=None).metadata or {}
        stored = str(meta.get("embedder") or "")
        if stored and self.count() > 0:
            self._pin = stored
        return self._pin

    @_serialized
    def pin(self, embedder_name: str) -> None:
        """Name the embedding of the vectors about to be written (before the
        first one is: a pin on an empty namespace counts for nothing, so a
        write that fails after it leaves nothing pinned)."""
        meta = dict(self.decisions.metadata or {})
        if self.lock is None:
            with translate("reading the ledger's embedding"):
                meta = dict(self.client.get_collection(self.decisions.name, embedding_function=None).metadata
                            or {})
        if meta.get("embedder") == embedder_name:
            return
        meta["embedder"] = embedder_name
        with translate("pinning the ledger's embedding"):
            self.decisions.modify(metadata=meta)

    @_serialized
    def vectors(self, ids: Sequence[str]) -> dict[str, list[float]]:
        """The stored vectors of decisions, by id (those found): what a read
        that needs neighbours uses instead of embedding again."""
        if not ids:
            return {}
        self._fresh()
        with translate("reading vectors"):
            got = self.decisions.get(ids=list(ids), include=["embeddings"])
        found = got.get("embeddings")
        if found is None:
            return {}
        return {rid: [float(x) for x in vector] for rid, vector in zip(got["ids"], found, strict=True)}

    # ----------------------------------------------------------------- re-embedding

    def _copies(self) -> list[str]:
        """Names of this namespace's vector collections (``memvet-<ns>.v<N>``)."""
        pattern = re.compile(re.escape(collection_name(self.namespace)) + r"\.v[0-9]+")
        with translate("listing the ledger's collections"):
            names = [c if isinstance(c, str) else c.name for c in self.client.list_collections()]
        return sorted(n for n in names if pattern.fullmatch(n))

    @_serialized
    def drop_stale(self) -> int:
        """Drop vectors that a reembed killed before its end left behind:
        a half-written copy (killed before the switch) or the previous
        vectors (killed after it). Returns how many collections it cleaned."""
        self._fresh()
        current = self.decisions.name
        cleaned = 0
        for name in self._copies():
            if name != current:
                with translate("dropping stale vectors"):
                    self.client.delete_collection(name)
                cleaned += 1
        if current != self.home.name and self.home.count() > 0:
            self._clear(self.home)
            cleaned += 1
        return cleaned

    def _clear(self, collection: Any) -> None:
        while True:
            with translate("dropping stale vectors"):
                ids = collection.get(include=[], limit=_BATCH)["ids"]
                if not ids:
                    return
                collection.delete(ids=list(ids))

    @_serialized
    def reembed(self, embedder_name: str, embed: Callable[[list[str]], list[list[float]]]) -> int:
        """Give every decision a vector of another embedding; call it inside :meth:`writing`.

        Crash-safe by a pointer switch: the records (ids, claims and every
        metadata field as stored: lifecycle, supersede pointers, counters)
        are written with their new vectors into a collection of their own,
        ``memvet-<ns>.v<N>``, and then one metadata write of the
        namespace's collection makes it current. Killed before that write,
        the ledger is as it was (its old vectors still pinned); killed
        after, the new vectors are complete and current. Either way the
        leftovers are dropped by the next reembed or :meth:`drop_stale`.
        Receipts and the journal do not move.

        Args:
            embedder_name: The new embedding's name (pinned on the copy).
            embed: Texts to vectors, one per text (the new embedding's
                ``embed_documents``).

        Returns:
            How many decisions were re-embedded.
        """
        self.drop_stale()
        home_meta = dict(self.home.metadata or {})
        generation = int(home_meta.get("generation", 0) or 0) + 1
        target_name = f"{self.home.name}.v{generation}"
        with translate("creating the re-embedded collection"):
            target = self.client.create_collection(
                target_name, metadata={"memvet_schema": _codec.SCHEMA_VERSION, "namespace": self.namespace,
                                       "embedder": embedder_name},
                configuration={"hnsw": {"space": "cosine"}}, embedding_function=None,
            )
        moved = 0
        while True:
            with translate("reading decisions to re-embed"):
                got = self.decisions.get(include=["documents", "metadatas"], limit=_BATCH, offset=moved)
            ids = list(got["ids"])
            if ids:
                documents = [doc or "" for doc in (got.get("documents") or [""] * len(ids))]
                vectors = embed(documents)
                with translate("writing re-embedded decisions"):
                    target.upsert(ids=ids, documents=documents, metadatas=got.get("metadatas"),
                                  embeddings=vectors)
                moved += len(ids)
            if len(ids) < _BATCH:
                break
        self._step("copied")
        home_meta.update({"vectors": target_name, "generation": generation})
        home_meta.pop("embedder", None)  # the pin lives with the vectors
        with translate("switching the ledger to its re-embedded vectors"):
            self.home.modify(metadata=home_meta)
        self._step("switched")
        old = self.decisions
        if self.lock is None:
            # A server has no write lock: another writer's act may have landed
            # on the old vectors during the copy. Bring those records across.
            self._catch_up(old, target, embed)
        self.decisions = target
        self.embedder_name = embedder_name
        self._pin = ""
        self._successor_cache = LRU(1024)
        self._successors_stamp = self._seen
        self._forget_records()
        self.drop_stale()
        return moved

    def _catch_up(self, old: Any, target: Any, embed: Callable[[list[str]], list[list[float]]]) -> None:
        """Copy the records of ``old`` that differ from ``target``'s (written
        by another client during a reembed) into ``target``, re-embedded."""
        with translate("re-reading decisions written during the reembed"):
            before = old.get(include=["documents", "metadatas"])
            after = target.get(include=["documents", "metadatas"])
        have = {rid: (doc, meta)
                for rid, doc, meta in zip(after["ids"], after["documents"], after["metadatas"], strict=True)}
        changed = [(rid, doc or "", meta) for rid, doc, meta in
                   zip(before["ids"], before["documents"], before["metadatas"], strict=True)
                   if have.get(rid) != (doc, meta)]
        if not changed:
            return
        log.warning("bringing %d decision(s) written during the reembed across", len(changed))
        vectors = embed([c[1] for c in changed])
        with translate("writing decisions written during the reembed"):
            target.upsert(ids=[c[0] for c in changed], documents=[c[1] for c in changed],
                          metadatas=[c[2] for c in changed], embeddings=vectors)

    # ----------------------------------------------------------------- freshness and writes

    @_serialized
    def _fresh(self) -> None:
        """Reload the local client if another writer wrote since we looked."""
        if self.lock is None:
            return
        current = self.lock.generation()
        if current != self._seen:
            log.debug("ledger %s changed on disk; reloading", self.namespace)
            self.client = reopen_persistent(self.client, self)
            self._open_collections()
            self._seen = current

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the write lock (local ledgers), with a fresh client, and
        finish any act an earlier writer left half done."""
        if self.lock is None:
            with self.guard:
                outermost = self._depth == 0
                began = self._mark_begin() if outermost else None
                self._depth += 1
                try:
                    self.replayed = self.replay(older_than=SERVER_REPLAY_GRACE)
                    yield
                finally:
                    self._depth -= 1
                    if outermost:
                        self._mark_end(began)
                if self.after_write is not None:
                    self.after_write()
            return
        # The file lock first, then the store's: a reader holds only the
        # latter, and never waits on another process with it held.
        with self.lock.hold() as outermost, self.guard:
            if not outermost:
                yield
                return
            self._fresh()
            # Bumped before the first write too: a writer killed mid-act still
            # tells every other process that its cached index is stale.
            self._bump()
            try:
                self.replayed = self.replay()
                yield
            finally:
                self._bump()
            if self.after_write is not None:
                self.after_write()

    def _mark_begin(self) -> Any:
        """Tell readers of a ledger without a write lock that a write starts."""
        assert self._mark is not None
        began = self._mark.begin()
        if isinstance(began, str):
            self._writing = began
        return began

    def _mark_end(self, began: Any) -> None:
        """Tell them it ended (landed or failed): a new token. In process,
        this store's caches stay valid when they were before and no other
        write ran meanwhile (its own writes dropped what they touched, as
        under :meth:`_bump`). On a server, the write's successor flags are
        cleared first (:meth:`_clear_flags`); a marker that cannot be
        written is left in flight (readers of earlier versions, which read
        it, then cache nothing until the next write clears it), which is
        safe, and the write's own error (if any) is what the caller sees."""
        if isinstance(self._mark, _ProcessMark):
            before = began[0]
            token, alone = self._mark.end(began)
            if alone and self._records_stamp == before:
                self._records_stamp = token
            if alone and self._successors_stamp == before:
                self._successors_stamp = token
            return
        assert isinstance(self._mark, _JournalMark)
        self._clear_flags()
        self._writing = ""
        try:
            self._mark.end(began)
        except StoreError as exc:
            log.warning("could not clear this write's marker in the ledger's journal (%s); readers cache "
                        "nothing until the next write clears it", exc)

    def _bump(self) -> None:
        """Change the generation token, with the write lock held.

        The decoded records stay valid when they were before: under the lock
        no other process writes, and this store's own writes drop the records
        they touch (:meth:`add_decision`, :meth:`replace_decision`), so an
        agent's first recall after its own write reads only its hits again
        (see :meth:`query`), and the later ones none. The same holds for the answers of :meth:`successors_of`,
        of which a write drops those it may change. Anything stamped with an
        older token (another process wrote since it was read) is forgotten
        by the next read, as before.
        """
        assert self.lock is not None
        records, successors = self._records_stamp == self._seen, self._successors_stamp == self._seen
        self._seen = self.lock.bump()
        if records:
            self._records_stamp = self._seen
        if successors:
            self._successors_stamp = self._seen

    def _step(self, name: str) -> None:
        """A point between two writes of an act (a seam for crash tests)."""

    @_serialized
    def apply(self, intent: Intent, *, journaled: bool = True) -> None:
        """Carry out one act: journal it, write it, then clear the journal.

        Every act of the ledger is journaled, a plain record too: a full disk
        once made Chroma raise on a decision's ``add`` after the record had
        landed (its log written, the compaction failed), and the receipt
        that followed was never written. With the act in the journal, the
        next write (or :meth:`replay`) finishes it, receipt included.

        ``journaled=False`` writes without the journal (tests use it to
        stage a half-done act by hand).

        Raises:
            StoreError: A write failed. Its message says that the act may be
                half done and that the next write, or ``memvet repair``,
                finishes it (or finds nothing to finish).
        """
        if not journaled:
            self._carry_out(intent)
            return
        entry = intent.to_json()
        meta = {"schema": _codec.SCHEMA_VERSION, "kind": "intent", "act": intent.act, "at": float(intent.at)}
        try:
            with translate("journaling a change"):
                self.journal.add(ids=[intent.id], documents=[entry], embeddings=[[1.0]], metadatas=[meta])
            self._step("journaled")
            self._carry_out(intent)
            with translate("clearing the journal"):
                self.journal.delete(ids=[intent.id])
        except StoreError as exc:
            # The same class (an outage stays StoreUnavailableError), told
            # what happens next: the journal holds the act, or nothing landed.
            raise type(exc)(
                f"{exc}; the {intent.act} did not complete: once the store works again, the next write or "
                "`memvet repair` finishes it from the journal, or finds that nothing was written"
            ) from exc

    def _carry_out(self, intent: Intent, *, replaying: bool = False) -> None:
        if intent.add is not None:
            decision, embedding = intent.add
            self.add_decision(decision, embedding)
            self._step("added")
        for decision in intent.updates:
            if replaying and self._stored_lifecycle(decision.id) != intent.starts_from(decision.id):
                # A decision no longer where this act started (resolved since
                # by another writer, or already updated by this act before
                # the crash) keeps what it has.
                continue
            self.replace_decision(decision)
            self._step("updated")
        for receipt in intent.receipts:
            self.add_receipt(receipt)
            self._step("receipted")

    def _clear_stale_marks(self, before: float) -> None:
        """Remove the in-flight entries of server writers that started
        before ``before`` (killed mid-write: readers cache nothing while
        one is there), and give the marker a new token."""
        with translate("reading the journal"):
            got = self.journal.get(where={"kind": "writing"}, include=["metadatas"])
        stale = [rid for rid, meta in zip(got["ids"], got.get("metadatas") or [None] * len(got["ids"]), strict=True)
                 if float((meta or {}).get("at", 0.0) or 0.0) < before and rid != self._writing]
        if stale:
            log.warning("clearing %d write marker(s) left by writers that stopped mid-write", len(stale))
            with translate("clearing the journal"):
                self.journal.upsert(ids=[GENERATION_ID], documents=[_token()], embeddings=[[1.0]],
                                    metadatas=[{"kind": "generation"}])
                self.journal.delete(ids=stale)

    @_serialized
    def pending(self) -> list[Intent]:
        """Acts that were started and not finished, oldest first."""
        self._fresh()
        with translate("reading the journal"):
            got = self.journal.get(include=["documents"])
        docs = got.get("documents") or [None] * len(got["ids"])
        rows = [(rid, doc) for rid, doc in zip(got["ids"], docs, strict=True)
                if rid != GENERATION_ID and not rid.startswith(_WRITING_PREFIX)]
        out = _readable(rows, Intent.from_json, "reading the journal")
        out.sort(key=lambda i: (i.at, i.id))
        return out

    @_serialized
    def _stored_lifecycle(self, decision_id: str) -> str:
        with translate("reading decisions"):
            got = self.decisions.get(ids=[decision_id], include=["metadatas"])
        metas = got.get("metadatas") or []
        return str((metas[0] or {}).get("lifecycle", "")) if metas else ""

    @_serialized
    def replay(self, older_than: float = 0.0) -> int:
        """Finish every act left half done (those older than ``older_than``
        seconds); returns how many."""
        done = 0
        now = time.time()
        if isinstance(self._mark, _JournalMark):
            self._clear_stale_marks(now - older_than)
        for intent in self.pending():
            if now - intent.at < older_than:
                continue
            log.warning("finishing an interrupted %s from %s", intent.act,
                        time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(intent.at)))
            self._carry_out(intent, replaying=True)
            with translate("clearing the journal"):
                self.journal.delete(ids=[intent.id])
            done += 1
        return done

    # ----------------------------------------------------------------- decisions

    @_serialized
    def add_decision(self, decision: Decision, embedding: Sequence[float]) -> None:
        meta = _codec.decision_metadata(decision)
        self._drop_record(decision)
        self._flag_successors(decision)
        with translate("writing a decision"):
            self.decisions.add(ids=[decision.id], documents=[decision.claim], embeddings=[list(embedding)],
                               metadatas=[meta])

    @_serialized
    def replace_decision(self, decision: Decision) -> None:
        """Rewrite a decision's metadata (lifecycle, anchors, counters)."""
        meta = _codec.lifecycle_update(decision)
        self._drop_record(decision)
        self._flag_successors(decision)
        with translate("updating a decision"):
            self.decisions.update(ids=[decision.id], metadatas=[meta])

    def _decode(self, got: dict[str, Any], action: str,
                bad: list[CorruptRecordError] | None = None) -> list[Decision]:
        docs = got.get("documents") or [None] * len(got["ids"])
        metas = got.get("metadatas") or [None] * len(got["ids"])
        return _readable(zip(got["ids"], docs, metas, strict=True), self._decoder(), action, bad)

    def _decoder(self) -> Callable[[str, str | None, Any], Decision]:
        """How this store decodes a record: a server ledger's by its content
        (:meth:`_by_content`), any other's anew."""
        return self._by_content if isinstance(self._mark, _JournalMark) else _codec.decision_from_record

    def _by_content(self, record_id: str, document: str | None, meta: Any) -> Decision:
        """A server ledger's record, decoded, or the decision decoded before
        from the same content (document and metadata).

        A server ledger is read by any number of processes, so no token
        this process holds can say that a record it decoded is still the
        one stored, and reading a shared marker costs a request beside
        every query. The query returns each hit's document and metadata
        anyway (a plain Chroma query does too); a record whose content is
        what it was is the decision it was, so only changed records are
        decoded again. The content is also what successor answers are
        kept under (see :meth:`successors_of`).
        """
        kept = self._contents.get(record_id)
        version = _version(document, meta)
        if kept is not None and kept.version == version:
            return kept.decision
        decision = _codec.decision_from_record(record_id, document, meta)
        flag = str(meta.get(SUCCESSOR_WRITE, "")) if isinstance(meta, dict) else ""
        self._contents.put(record_id, _Kept(version, flag.startswith(_OPEN), decision))
        return decision

    def _flag_successors(self, decision: Decision) -> None:
        """Before a server ledger's write of ``decision``, tell readers
        that the successors of the decision it supersedes (if any) change.

        A reader keeps a successor answer under the content of the decision
        asked about (:meth:`successors_of`). A successor can land without
        that decision's record changing (it is updated by the act's next
        write, or never, if the writer is killed between), so the writer
        first sets the record's :data:`SUCCESSOR_WRITE` to ``open:<token>``
        (readers keep no answer about it then) and, when its write ends,
        to a new token (:meth:`_clear_flags`): its content changes before
        and after every change of its successors. Updating a record that is
        gone does nothing."""
        target = decision.supersedes
        if not isinstance(self._mark, _JournalMark) or not target or target in self._flagged:
            return
        with translate("marking a decision's successors"):
            self.decisions.update(ids=[target], metadatas=[{SUCCESSOR_WRITE: _OPEN + _token()}])
        self._flagged.add(target)

    def _clear_flags(self) -> None:
        """End this write's successor flags (see :meth:`_flag_successors`).
        A flag that cannot be cleared stays open: readers of that decision
        then keep no successor answer about it until a later write of a
        successor clears it, which is safe."""
        flagged, self._flagged = sorted(self._flagged), set()
        if not flagged:
            return
        try:
            with translate("marking a decision's successors"):
                self.decisions.update(ids=flagged, metadatas=[{SUCCESSOR_WRITE: _token()} for _ in flagged])
        except StoreError as exc:
            log.warning("could not clear the successor flags of %s (%s); readers ask for their successors "
                        "at every read until a later write clears them", ", ".join(flagged), exc)

    @_serialized
    def get_decisions(self, ids: Sequence[str]) -> list[Decision]:
        if not ids:
            return []
        self._fresh()
        with translate("reading decisions"):
            got = self.decisions.get(ids=list(ids), include=["documents", "metadatas"])
        bad: list[CorruptRecordError] = []
        found = self._decode(got, "reading decisions", bad)
        if bad:
            raise bad[0]
        return found

    @_serialized
    def all_decisions(self) -> tuple[list[Decision], list[CorruptRecordError]]:
        """Every decision, and the records that did not decode."""
        self._fresh()
        out: list[Decision] = []
        bad: list[CorruptRecordError] = []
        offset = 0
        while True:
            with translate("listing decisions"):
                got = self.decisions.get(include=["documents", "metadatas"], limit=_BATCH, offset=offset)
            out.extend(self._decode(got, "listing decisions", bad))
            if len(got["ids"]) < _BATCH:
                return out, bad
            offset += _BATCH

    @_serialized
    def all_ids(self) -> list[str]:
        self._fresh()
        with translate("listing decision ids"):
            return list(self.decisions.get(include=[])["ids"])

    @_serialized
    def where(self, where: dict[str, Any]) -> list[Decision]:
        self._fresh()
        with translate("filtering decisions"):
            got = self.decisions.get(where=where, include=["documents", "metadatas"])
        return self._decode(got, "filtering decisions")

    def with_any(self, key: str, values: Sequence[str]) -> list[Decision]:
        """Decisions whose list metadata ``key`` contains any of ``values``."""
        values = sorted(set(values))
        if not values:
            return []
        clauses = [{key: {"$contains": v}} for v in values]
        return self.where(clauses[0] if len(clauses) == 1 else {"$or": clauses})

    @_serialized
    def successors_of(self, ids: Sequence[str]) -> dict[str, Decision]:
        """For each id, the earliest active decision whose ``supersedes``
        points at it (deterministic when two writers raced)."""
        ids = sorted(set(ids))
        if not ids:
            return {}
        # A local ledger's generation token changes with every write, by any
        # process (bumped before a write's first record and after its last):
        # an answer stamped with it cannot be stale. The stamp is the token
        # the store last loaded, not a new read of it: every caller of this
        # method has just read the store (a query, a get), and every read
        # refreshes the token first, so a warm recall reads the generation
        # file twice (the embedding pin, the query) instead of three times
        # (11-22 us each on a loaded machine). An in-process ledger has a
        # change marker instead (see :class:`_ProcessMark`), read here (a
        # dictionary look-up). A server ledger keeps answers under the
        # content each asked decision had when this process last read it
        # (the read the caller just made), which every write of one of its
        # successors changes first (see :meth:`_flag_successors`).
        if isinstance(self._mark, _JournalMark):
            return self._server_successors_of(ids)
        stamp = self._successor_stamp()
        key = tuple(ids)
        if stamp is not None:
            if self._successors_stamp != stamp:
                self._successor_cache = LRU(1024)
                self._successors_stamp = stamp
            cached = self._successor_cache.get(key)
            if cached is not None:
                return dict(cached)
        out = self._read_successors(ids)
        if stamp is not None and stamp == self._successors_stamp:
            # Read after the stamp was: at least as new as what it names.
            self._successor_cache.put(key, dict(out))
        return out

    def _read_successors(self, ids: list[str]) -> dict[str, Decision]:
        # One clause (the lifecycle is checked here): a $and costs Chroma a
        # second filter on the hot path of every recall.
        found = [d for d in self.where({"supersedes": {"$in": ids}}) if d.lifecycle is Lifecycle.ACTIVE]
        out: dict[str, Decision] = {}
        for d in sorted(found, key=lambda d: (d.created_at, d.id)):
            out.setdefault(d.supersedes, d)
        return out

    def _server_successors_of(self, ids: list[str]) -> dict[str, Decision]:
        """:meth:`successors_of` on a server: an answer is kept under the
        contents of the decisions asked about, unless one of them was not
        read here or has a successor write open (see :meth:`_flag_successors`)."""
        kept = [self._contents.get(i) for i in ids]
        key = tuple((i, k.version) for i, k in zip(ids, kept, strict=True) if k is not None and not k.open)
        if len(key) < len(ids):
            return self._read_successors(ids)
        cached = self._successors_by_version.get(key)
        if cached is None:
            cached = self._read_successors(ids)
            self._successors_by_version.put(key, cached)
        return dict(cached)

    def _successor_stamp(self) -> str | None:
        """The change token the successor answers may be used under."""
        if self.lock is not None:
            return self._seen
        assert isinstance(self._mark, _ProcessMark)
        return self._mark.read()

    @_serialized
    def successors(self, decision_id: str) -> list[Decision]:
        """Every active successor of one decision, earliest first."""
        found = self.where({"$and": [{"supersedes": decision_id}, {"lifecycle": "active"}]})
        return sorted(found, key=lambda d: (d.created_at, d.id))

    @_serialized
    def namespaces(self) -> list[str]:
        """The namespaces of every MemVet ledger in this store's client (the
        decisions collections: those whose metadata names an embedder)."""
        self._fresh()
        with translate("listing the ledger's namespaces"):
            metas = [c.metadata or {} for c in self.client.list_collections()]
        return sorted({str(m["namespace"]) for m in metas if "embedder" in m and "namespace" in m})

    @_serialized
    def receipt_count(self) -> int:
        """How many receipts the namespace holds."""
        self._fresh()
        with translate("counting receipts"):
            return int(self.receipts.count())

    @_serialized
    def count(self) -> int:
        self._fresh()
        with translate("counting decisions"):
            return int(self.decisions.count())

    @_serialized
    def query(self, embedding: Sequence[float], n: int,
              where: dict[str, Any] | None = None) -> list[tuple[Decision, float]]:
        """The ``n`` nearest decisions with their cosine similarity (fewer when
        the namespace holds fewer; Chroma caps ``n_results`` itself, so no
        ``count()`` round trip is spent on the hot path).

        ``where`` narrows the query; pass it only when it matches few
        records (a broad one makes Chroma scan; see :mod:`memvet._filter`).
        A server ledger's query reads every hit's record with it and decodes
        only those whose content changed (see :meth:`_by_content`).
        """
        self._fresh()
        # A server ledger keeps no records under a token: it reads them with every query.
        records = None if isinstance(self._mark, _JournalMark) else self._records_at(self._read_stamp())
        if records and not self._records_dropped:
            # A ledger that has decoded records under this change token
            # (a local ledger's generation, or the marker of an in-process
            # ledger): ids and distances only. Reading the documents and
            # metadata was about a third of the query (sqlalchemy ledgers of
            # 300 and 5,000 records, k=5: 1.0-1.5 of 2.7-4.4 ms); the records
            # seen before come decoded, the others are read with one `get`.
            got = read_through_index_race("querying the ledger", lambda: self.decisions.query(
                query_embeddings=[list(embedding)], n_results=max(n, 1), where=where, include=["distances"]))
            ids, distances = got["ids"][0], got["distances"][0]
            known = self._known(records, ids)
            return [(known[rid], 1.0 - float(dist)) for rid, dist in zip(ids, distances, strict=True)
                    if rid in known]
        # The first query of a token (or any while a write is under way
        # somewhere), the first after this store wrote (what it wrote is
        # likely among the hits: reading it with the query costs less than
        # a `get` after it), and every query of a server ledger read the
        # records with it, in one call.
        got = read_through_index_race("querying the ledger", lambda: self.decisions.query(
            query_embeddings=[list(embedding)], n_results=max(n, 1), where=where,
            include=["documents", "metadatas", "distances"],
        ))
        decode = self._decoder()

        def scored(rid: str, doc: str | None, meta: Any, dist: float) -> tuple[Decision, float]:
            return decode(rid, doc, meta), 1.0 - float(dist)

        rows = zip(got["ids"][0], got["documents"][0], got["metadatas"][0], got["distances"][0], strict=True)
        out = _readable(rows, scored, "querying the ledger")
        if records is not None:
            for decision, _ in out:
                records.put(decision.id, decision)
            self._records_dropped = False
        return out

    def _read_stamp(self) -> str | None:
        """The change token now: a local ledger's generation (just
        refreshed), else the in-process marker's; ``None`` while a write is
        under way in process (nothing may be used or kept)."""
        if self.lock is not None:
            return self._seen
        assert isinstance(self._mark, _ProcessMark)
        return self._mark.read()

    def _records_at(self, stamp: str | None) -> LRU[str, Decision] | None:
        """The decoded records valid under ``stamp`` (forgotten when they
        were kept under another), or ``None`` when ``stamp`` is."""
        if stamp is None:
            self._forget_records("")
            return None
        if self._records_stamp != stamp:
            self._forget_records(stamp)
        return self._records

    def _known(self, records: LRU[str, Decision], ids: Sequence[str]) -> dict[str, Decision]:
        """The decisions of ``ids`` that decode, by id: from ``records`` (the
        decisions decoded under the current generation token), the rest read
        with one ``get`` and added to them (a corrupt one is skipped, and
        warned about, as by a query).

        The token changes with every write by any process (a local
        ledger's generation, a server's marker; in process, every store's
        write), a read while a write is under way keeps nothing, and a
        write of this store forgets the records it writes at once (a read
        later in the same act sees the write; see :meth:`_bump` for why the
        others stay), so a record served here is the one stored. Call with
        :attr:`guard` held."""
        found: dict[str, Decision] = {}
        missing = []
        for rid in ids:
            hit = records.get(rid)
            if hit is None:
                missing.append(rid)
            else:
                found[rid] = hit
        if missing:
            got = read_through_index_race("querying the ledger", lambda: self.decisions.get(
                ids=missing, include=["documents", "metadatas"]))
            for decision in self._decode(got, "querying the ledger"):
                records.put(decision.id, decision)
                found[decision.id] = decision
        return found

    def _drop_record(self, decision: Decision) -> None:
        """Forget what a write of ``decision`` may change, before this store
        writes it: its decoded record, and the successor answers that hold
        it or ask about the decision it supersedes (it may become, or stop
        being, that one's successor). A read later in the same act, or
        after it, reads what was written."""
        self._records.drop(decision.id)
        self._records_dropped = True
        gone = decision.supersedes
        self._successor_cache.drop_where(lambda ids, found: (bool(gone) and gone in ids) or any(
            d.id == decision.id for d in found.values()))

    def _forget_records(self, stamp: str | None = None) -> None:
        """Drop the decoded records, keeping the next ones under ``stamp``
        (default: the local generation this store last saw)."""
        self._records = LRU(RECORD_CACHE)
        self._records_stamp = self._seen if stamp is None else stamp
        self._records_dropped = False

    @_serialized
    def nearest_where(self, embedding: Sequence[float], where: dict[str, Any],
                      limit: int) -> list[tuple[Decision, float]] | None:
        """Every decision matching ``where``, nearest first, with its cosine
        similarity; ``None`` when more than ``limit`` match.

        The matches are fetched with ``get`` and ranked here: in Chroma 1.5.9
        a ``query`` with a ``where`` costs about as much as a scan even when
        the clause matches a handful of records (100k records: 200-480 ms),
        while a ``get`` of those records takes 12-18 ms.
        """
        import numpy as np

        self._fresh()
        ids = read_through_index_race("filtering the ledger", lambda: self.decisions.get(
            where=where, limit=limit + 1, include=[]))["ids"]
        if len(ids) > limit:
            return None
        if not ids:
            return []
        got = read_through_index_race("filtering the ledger", lambda: self.decisions.get(
            ids=list(ids), include=["embeddings", "documents", "metadatas"]))
        ids = got["ids"]
        vectors = np.asarray(got["embeddings"], dtype=np.float64)
        q = np.asarray(list(embedding), dtype=np.float64)
        norms = np.linalg.norm(vectors, axis=1) * (np.linalg.norm(q) or 1.0)
        sims = (vectors @ q) / np.where(norms == 0, 1.0, norms)
        def scored(i: int) -> tuple[Decision, float]:
            return _codec.decision_from_record(ids[i], got["documents"][i], got["metadatas"][i]), float(sims[i])

        return _readable(((int(i),) for i in np.argsort(-sims, kind="stable")), scored, "filtering the ledger")

    # ----------------------------------------------------------------- receipts

    @_serialized
    def add_receipt(self, receipt: Receipt) -> None:
        meta = _codec.receipt_metadata(receipt)
        with translate("writing a receipt"):
            self.receipts.add(ids=[receipt.id], documents=[f"{receipt.action} {receipt.decision_id}"],
                              embeddings=[[1.0]], metadatas=[meta])

    @_serialized
    def receipts_for(self, decision_id: str | None = None) -> list[Receipt]:
        self._fresh()
        where = {"decision_id": decision_id} if decision_id else None
        with translate("reading receipts"):
            got = self.receipts.get(where=where, include=["metadatas"])
        out = _readable(zip(got["ids"], got["metadatas"], strict=True), _codec.receipt_from_record, "reading receipts")
        out.sort(key=lambda r: (r.at, r.id))
        return out
