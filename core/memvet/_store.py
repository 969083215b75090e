"""The Chroma boundary: collections per namespace, and error translation.

Every call into Chroma goes through :func:`translate`, which turns backend
failures into MemVet's :class:`StoreError` family. An outage is an error,
never an empty result.

A namespace is a collection of its own (``memvet-<namespace>``), plus a
receipts collection beside it, so no query ever needs a namespace ``where``
clause (in Chroma 1.5.9 such a filter turns the vector query into a scan).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator, Sequence
from typing import Any

import chromadb
import chromadb.errors

from memvet import _codec
from memvet._errors import (
    AuthenticationError,
    CorruptRecordError,
    StoreError,
    StoreUnavailableError,
    UsageError,
)
from memvet._model import Decision, Receipt

__all__ = ["ChromaStore", "collection_name", "http_client", "translate"]

log = logging.getLogger(__name__)

_BATCH = 5000


def collection_name(namespace: str) -> str:
    """A valid Chroma collection name for a namespace (3–512 of ``[a-zA-Z0-9._-]``)."""
    clean = re.sub(r"[^a-zA-Z0-9._-]+", "-", namespace).strip("-._")
    if not clean:
        raise UsageError(f"invalid namespace {namespace!r}: use letters, digits, '.', '_' or '-'")
    return f"memvet-{clean}"[:200]


@contextlib.contextmanager
def translate(action: str) -> Iterator[None]:
    """Translate backend errors raised inside the block into StoreError subclasses."""
    try:
        yield
    except StoreError:
        raise
    except (chromadb.errors.ChromaAuthError, chromadb.errors.AuthorizationError) as exc:
        raise AuthenticationError(f"the ledger server refused the request ({action}): {exc}") from exc
    except chromadb.errors.ChromaError as exc:
        raise StoreError(f"the ledger store failed while {action}: {exc}") from exc
    except (ConnectionError, TimeoutError) as exc:
        raise StoreUnavailableError(f"the ledger server is unreachable ({action}): {exc}") from exc
    except Exception as exc:
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
        if isinstance(exc, (ValueError, TypeError, KeyError, OSError, RuntimeError)):
            raise StoreError(f"the ledger store failed while {action}: {exc}") from exc
        raise


_HTTPX_UNAVAILABLE = {
    "ConnectError", "ConnectTimeout", "ReadTimeout", "WriteTimeout", "PoolTimeout",
    "RemoteProtocolError", "ReadError", "WriteError", "NetworkError", "TimeoutException",
}


def http_client(url: str, token: str | None = None) -> Any:
    """A Chroma ``HttpClient`` for ``http(s)://host:port``, sending ``token``
    as a bearer token (for a reverse proxy that checks it).

    Raises:
        UsageError: A malformed URL.
        StoreUnavailableError: Nothing answers there.
        AuthenticationError: The server refused the token (or its absence).
    """
    from urllib.parse import urlsplit

    from chromadb.config import Settings

    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"invalid server URL {url!r}; expected http://HOST:PORT")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 8000)
    except ValueError as exc:
        raise UsageError(f"invalid server URL {url!r}: {exc}") from exc
    headers = {"Authorization": f"Bearer {token}"} if token else None
    try:
        with translate(f"connecting to {url}"):
            return chromadb.HttpClient(host=parts.hostname, port=port, ssl=parts.scheme == "https",
                                       headers=headers, settings=Settings(anonymized_telemetry=False))
    except StoreError as exc:
        text = str(exc)
        if "401" in text or "403" in text or "Unauthorized" in text or "Forbidden" in text:
            raise AuthenticationError(f"the ledger server at {url} refused the credentials: {exc.__cause__}") from exc
        if "Could not connect" in text:
            raise StoreUnavailableError(f"the ledger server at {url} is unreachable") from exc
        raise


class ChromaStore:
    """Decisions and receipts of one namespace in a Chroma client.

    Args:
        client: Any Chroma client (Ephemeral, Persistent, Http).
        namespace: The namespace (its own collections).
        embedder_name: Stored on the collection; reopening with another
            embedder is refused (vectors of two models do not compare).
    """

    def __init__(self, client: Any, namespace: str, embedder_name: str) -> None:
        self.client = client
        self.namespace = namespace
        name = collection_name(namespace)
        with translate("opening the ledger"):
            self.decisions = client.get_or_create_collection(
                name, metadata={"memvet_schema": _codec.SCHEMA_VERSION, "embedder": embedder_name,
                                "namespace": namespace},
                configuration={"hnsw": {"space": "cosine"}}, embedding_function=None,
            )
            self.receipts = client.get_or_create_collection(
                name + ".receipts", metadata={"memvet_schema": _codec.SCHEMA_VERSION, "namespace": namespace},
                embedding_function=None,
            )
        stored = (self.decisions.metadata or {}).get("embedder")
        if stored and stored != embedder_name:
            raise UsageError(
                f"this ledger's vectors were made by the {stored!r} embedding; open it with the same "
                f"embedding (got {embedder_name!r})"
            )

    # ----------------------------------------------------------------- decisions

    def add_decision(self, decision: Decision, embedding: Sequence[float]) -> None:
        with translate("writing a decision"):
            self.decisions.add(
                ids=[decision.id], documents=[decision.claim], embeddings=[list(embedding)],
                metadatas=[_codec.decision_metadata(decision)],
            )

    def replace_decision(self, decision: Decision) -> None:
        """Rewrite a decision's metadata (lifecycle, anchors, counters)."""
        with translate("updating a decision"):
            self.decisions.update(ids=[decision.id], metadatas=[_codec.lifecycle_update(decision)])

    def _decode(self, got: dict[str, Any]) -> tuple[list[Decision], list[CorruptRecordError]]:
        out, bad = [], []
        docs = got.get("documents") or [None] * len(got["ids"])
        metas = got.get("metadatas") or [None] * len(got["ids"])
        for rid, doc, meta in zip(got["ids"], docs, metas):
            try:
                out.append(_codec.decision_from_record(rid, doc, meta))
            except CorruptRecordError as exc:
                bad.append(exc)
        return out, bad

    def get_decisions(self, ids: Sequence[str]) -> list[Decision]:
        if not ids:
            return []
        with translate("reading decisions"):
            got = self.decisions.get(ids=list(ids), include=["documents", "metadatas"])
        found, bad = self._decode(got)
        if bad:
            raise bad[0]
        return found

    def all_decisions(self) -> tuple[list[Decision], list[CorruptRecordError]]:
        """Every decision, and the records that did not decode."""
        out: list[Decision] = []
        bad: list[CorruptRecordError] = []
        offset = 0
        while True:
            with translate("listing decisions"):
                got = self.decisions.get(include=["documents", "metadatas"], limit=_BATCH, offset=offset)
            found, broken = self._decode(got)
            out.extend(found)
            bad.extend(broken)
            if len(got["ids"]) < _BATCH:
                return out, bad
            offset += _BATCH

    def all_ids(self) -> list[str]:
        with translate("listing decision ids"):
            return list(self.decisions.get(include=[])["ids"])

    def where(self, where: dict[str, Any]) -> list[Decision]:
        with translate("filtering decisions"):
            got = self.decisions.get(where=where, include=["documents", "metadatas"])
        found, _bad = self._decode(got)
        return found

    def with_any(self, key: str, values: Sequence[str]) -> list[Decision]:
        """Decisions whose list metadata ``key`` contains any of ``values``."""
        values = sorted(set(values))
        if not values:
            return []
        clauses = [{key: {"$contains": v}} for v in values]
        return self.where(clauses[0] if len(clauses) == 1 else {"$or": clauses})

    def successors_of(self, ids: Sequence[str]) -> dict[str, Decision]:
        """For each id, an active decision whose ``supersedes`` points at it."""
        ids = sorted(set(ids))
        if not ids:
            return {}
        found = self.where({"$and": [{"supersedes": {"$in": ids}}, {"lifecycle": "active"}]})
        return {d.supersedes: d for d in found}

    def count(self) -> int:
        with translate("counting decisions"):
            return int(self.decisions.count())

    def query(self, embedding: Sequence[float], n: int) -> list[tuple[Decision, float]]:
        """The ``n`` nearest decisions with their cosine similarity."""
        total = self.count()
        if total == 0:
            return []
        with translate("querying the ledger"):
            got = self.decisions.query(
                query_embeddings=[list(embedding)], n_results=min(n, total),
                include=["documents", "metadatas", "distances"],
            )
        out = []
        for rid, doc, meta, dist in zip(got["ids"][0], got["documents"][0], got["metadatas"][0],
                                        got["distances"][0]):
            try:
                out.append((_codec.decision_from_record(rid, doc, meta), 1.0 - float(dist)))
            except CorruptRecordError as exc:
                log.warning("skipping a corrupt record in recall: %s", exc)
        return out

    # ----------------------------------------------------------------- receipts

    def add_receipt(self, receipt: Receipt) -> None:
        with translate("writing a receipt"):
            self.receipts.add(ids=[receipt.id], documents=[f"{receipt.action} {receipt.decision_id}"],
                              embeddings=[[1.0]], metadatas=[_codec.receipt_metadata(receipt)])

    def receipts_for(self, decision_id: str | None = None) -> list[Receipt]:
        where = {"decision_id": decision_id} if decision_id else None
        with translate("reading receipts"):
            got = self.receipts.get(where=where, include=["metadatas"])
        out = [_codec.receipt_from_record(rid, meta) for rid, meta in zip(got["ids"], got["metadatas"])]
        out.sort(key=lambda r: (r.at, r.id))
        return out
