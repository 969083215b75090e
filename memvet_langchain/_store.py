"""``MemVetStore``: LangGraph long-term memory whose items are verified decisions.

Each LangGraph namespace is a ledger namespace of its own (its own Chroma
collection, as the core stores every namespace), named
``<ledger namespace>.lg.<label>.<label>...`` with every label escaped to
``[A-Za-z0-9_]`` so that two namespaces never share a collection. An item's
key is kept as a tag on its decision (``lg-key:<key>``); a decision written
by other means than the store is served under its own id as the key.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)
from memvet import Decision, Ledger, Lifecycle, RecallItem, Verdict, frame

from memvet_langchain._convert import GROUPS, anchor_specs, check_groups

__all__ = ["MemVetStore"]

log = logging.getLogger(__name__)

KEY_TAG = "lg-key:"
#: Value keys a caller may put.
WRITABLE = frozenset({"claim", "anchors", "tags", "reason"})
#: Value keys the store computes on read; accepted on put (a read value can be
#: put back) and ignored.
COMPUTED = frozenset({"id", "status", "group", "text", "lifecycle", "key", "supersedes",
                      "superseded_by", "commit"})
_SAFE = re.compile(r"[A-Za-z0-9]")
_MAX_COLLECTION_NAME = 200


def _escape(label: str) -> str:
    return "".join(ch if _SAFE.fullmatch(ch) else "".join(f"_{b:02x}" for b in ch.encode()) for ch in label)


def _unescape(text: str) -> str:
    raw = bytearray()
    i = 0
    while i < len(text):
        if text[i] == "_":
            raw.append(int(text[i + 1:i + 3], 16))
            i += 3
        else:
            raw.extend(text[i].encode())
            i += 1
    return raw.decode()


def _compare(value: Any, wanted: Any) -> bool:
    """LangGraph's filter semantics (as in ``InMemoryStore``)."""
    if isinstance(wanted, dict):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(value, op, arg) for op, arg in wanted.items())
        return isinstance(value, dict) and all(_compare(value.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (isinstance(value, (list, tuple)) and len(value) == len(wanted)
                and all(_compare(a, b) for a, b in zip(value, wanted)))
    return bool(value == wanted)


def _operator(value: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(value == arg)
    if op == "$ne":
        return bool(value != arg)
    if op in ("$gt", "$gte", "$lt", "$lte"):
        if value is None:
            return False
        a, b = float(value), float(arg)
        return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]
    raise ValueError(f"unsupported filter operator {op!r}; use $eq, $ne, $gt, $gte, $lt or $lte")


def _matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    pairs = zip(namespace, path) if condition.match_type == "prefix" else zip(reversed(namespace), reversed(path))
    return all(p == "*" or n == p for n, p in pairs)


def _time(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=timezone.utc)


def _key_of(decision: Decision) -> str:
    for tag in decision.tags:
        if tag.startswith(KEY_TAG):
            return tag[len(KEY_TAG):]
    return decision.id


class MemVetStore(BaseStore):
    """A LangGraph ``BaseStore`` whose items are decisions with code evidence.

    An item's value carries a ``claim`` and, optionally, ``anchors`` (the same
    specs as ``Ledger.record``), ``tags`` and ``reason`` (why, when the put
    replaces an earlier claim under the same key). ``put`` records a
    decision; putting a different claim under an existing key supersedes
    the old decision with that reason. ``get`` and ``search`` re-verify
    what they return and add ``status``, ``reason``, ``group``, ``text`` (the
    framed line an agent reads), ``id`` and ``lifecycle`` to the value.
    ``delete`` rejects the decision with a receipt: it stays as history
    ("previously tried, rejected: <reason>"), never a silent loss.

    By default ``get`` and ``search`` serve all three recall groups, so a
    deleted (rejected) or drifted item comes back with its status; pass
    ``include=("current", "caution")`` to hide history.

    The store is agent-facing (an agent's ``put`` is an agent's write), so
    it follows ``agent_writes``: by default a ``put`` writes a proposal,
    which ``get`` serves with ``status`` ``proposed`` until a person approves
    it (``memvet approve ID``); a proposed replacement supersedes nothing
    until then. Putting a different value over a key whose newest item is
    still a proposal withdraws that proposal (rejected, with a reason) and
    proposes the new value in its place. ``delete`` rejects an active item
    or an open proposal.

    Setup:
        Install the extra: ``pip install "memvet[langchain]"``.

    Instantiate:
        .. code-block:: python

            import memvet
            from langchain.agents import create_agent
            from memvet_langchain import MemVetStore

            store = MemVetStore(memvet.Ledger.open("."))
            agent = create_agent(model, tools=[...], store=store)

    Usage:
        .. code-block:: python

            store.put(("decisions",), "orders", {"claim": "Orders are saved in one transaction",
                                                 "anchors": ["shop/store.py::OrderStore.save"]})
            store.get(("decisions",), "orders").value["status"]      # "verified"
            store.search(("decisions",), query="how are orders saved?")
            store.delete(("decisions",), "orders")                   # a rejection, with a receipt

    Args:
        ledger: The ledger whose client, repository and embedding the
            namespaces share; each LangGraph namespace is a child of its
            namespace.
        at: Where to verify: ``None`` for the working tree, or a revision.
        include: The recall groups ``get`` and ``search`` serve.
        delete_reason: The rejection reason a ``delete`` records.
        agent_writes: How ``put`` writes: ``"proposed"`` or ``"active"``;
            default ``ledger.agent_writes`` (``[tool.memvet] agent-writes``,
            else ``"proposed"``).
    """

    def __init__(self, ledger: Ledger, *, at: str | None = None, include: Iterable[str] = GROUPS,
                 delete_reason: str = "deleted through the LangGraph store",
                 agent_writes: str | None = None) -> None:
        if not delete_reason.strip():
            raise ValueError("delete_reason must not be empty: a rejection needs a reason")
        if agent_writes not in (None, "proposed", "active"):
            raise ValueError(f"agent_writes must be 'proposed' or 'active', not {agent_writes!r}")
        self.agent_writes = agent_writes or ledger.agent_writes
        self.ledger = ledger
        self.at = at
        self.include = check_groups(include)
        self.delete_reason = delete_reason
        self._prefix = f"{ledger.namespace}.lg."
        self._ledgers: dict[tuple[str, ...], Ledger] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------ namespaces

    def ledger_namespace(self, namespace: tuple[str, ...]) -> str:
        """The ledger namespace that holds a LangGraph namespace."""
        name = self._prefix + ".".join(_escape(label) for label in namespace)
        if len("memvet-") + len(name) > _MAX_COLLECTION_NAME:
            raise InvalidNamespaceError(
                f"namespace {namespace!r} is too long for a MemVet ledger "
                f"(at most {_MAX_COLLECTION_NAME} characters once escaped)"
            )
        return name

    def ledger_for(self, namespace: tuple[str, ...]) -> Ledger:
        """The ledger of one LangGraph namespace (created on first use).

        Hand it to :class:`MemVetMiddleware` or :func:`memvet_tools` to let
        an agent read and write the same decisions the store serves.
        """
        namespace = tuple(namespace)
        with self._lock:
            found = self._ledgers.get(namespace)
            if found is None:
                base = self.ledger
                found = Ledger.open(
                    base.git.root, client=base.store.client, embedding=base.embedder,
                    namespace=self.ledger_namespace(namespace),
                    similarity_threshold=base.similarity_threshold,
                    duplicate_threshold=base.duplicate_threshold, disk_cache=False,
                    agent_writes=self.agent_writes,
                )
                self._ledgers[namespace] = found
            return found

    def _existing(self) -> list[tuple[str, ...]]:
        """LangGraph namespaces that hold at least one decision, sorted."""
        out = set(self._ledgers)
        for name in self.ledger.store.namespaces():
            if name.startswith(self._prefix):
                out.add(tuple(_unescape(label) for label in name[len(self._prefix):].split(".")))
        return sorted(ns for ns in out if self.ledger_for(ns).store.count() > 0)

    # ------------------------------------------------------------ reading

    def _latest(self, ledger: Ledger) -> dict[str, Decision]:
        latest: dict[str, Decision] = {}
        for decision in ledger.decisions():  # oldest first: the last one per key wins
            latest[_key_of(decision)] = decision
        return latest

    def _item(self, namespace: tuple[str, ...], verdict: Verdict, score: float | None = None,
              searched: bool = False) -> Item:
        decision = verdict.decision
        key = _key_of(decision)
        value: dict[str, Any] = {
            "claim": decision.claim,
            "anchors": anchor_specs(decision),
            "tags": [t for t in decision.tags if not t.startswith(KEY_TAG)],
            "id": decision.id,
            "status": verdict.status.value,
            "reason": verdict.reason,
            "group": verdict.status.group,
            "text": frame(verdict),
            "lifecycle": decision.lifecycle.value,
        }
        created = _time(decision.created_at)
        updated = _time(decision.resolved_at or decision.created_at)
        if searched:
            return SearchItem(namespace, key, value, created, updated, score)
        return Item(value=value, key=key, namespace=namespace, created_at=created, updated_at=updated)

    def _get(self, op: GetOp) -> Item | None:
        if tuple(op.namespace) not in self._existing():
            return None
        ledger = self.ledger_for(op.namespace)
        decision = self._latest(ledger).get(op.key)
        if decision is None:
            return None
        verdict = ledger.verify(decision.id, at=self.at)
        if verdict.status.group not in self.include:
            return None
        return self._item(tuple(op.namespace), verdict)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        found: list[tuple[Item, float]] = []
        for namespace in self._existing():
            if namespace[: len(prefix)] != prefix:
                continue
            ledger = self.ledger_for(namespace)
            latest = {d.id for d in self._latest(ledger).values()}
            if op.query:
                # Over-fetch: history of a key and filtered-out items are dropped below.
                want = max(op.offset + op.limit, 1) * 3
                recall = ledger.recall(op.query, k=want, at=self.at, include=self.include)
                items: list[RecallItem] = [i for i in recall.items if i.id in latest]
                pairs = [(self._item(namespace, i.verdict, i.score, True), i.score) for i in items]
            else:
                verdicts = [v for v in ledger.check(at=self.at)
                            if v.decision.id in latest and v.status.group in self.include]
                pairs = [(self._item(namespace, v, None, True), v.decision.created_at) for v in verdicts]
            found.extend(p for p in pairs if self._passes(p[0], op.filter))
        # Best match first for a query; otherwise oldest first, like InMemoryStore.
        found.sort(key=lambda p: p[1], reverse=bool(op.query))
        return [item for item, _ in found[op.offset: op.offset + op.limit]]

    @staticmethod
    def _passes(item: Item, wanted: dict[str, Any] | None) -> bool:
        return not wanted or all(_compare(item.value.get(k), v) for k, v in wanted.items())

    def _list(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = self._existing()
        if op.match_conditions:
            namespaces = [ns for ns in namespaces if all(_matches(c, ns) for c in op.match_conditions)]
        if op.max_depth is not None:
            namespaces = sorted({ns[: op.max_depth] for ns in namespaces})
        return namespaces[op.offset: op.offset + op.limit]

    # ------------------------------------------------------------ writing

    def _put(self, op: PutOp) -> None:
        namespace = tuple(op.namespace)
        if op.value is None:
            self._delete(namespace, op.key)
            return
        value = dict(op.value)
        unknown = set(value) - WRITABLE - COMPUTED
        if unknown:
            raise ValueError(
                f"a MemVet store item holds a decision: 'claim' (str) and optionally 'anchors' "
                f"(list of specs), 'tags', 'reason'; unknown key(s) {', '.join(sorted(unknown))} "
                "would be lost, so the put is refused"
            )
        claim = value.get("claim")
        if not isinstance(claim, str) or not claim.strip():
            raise ValueError("a MemVet store item needs a non-empty 'claim' string")
        anchors = value.get("anchors") or []
        if isinstance(anchors, str) or not all(isinstance(a, str) for a in anchors):
            raise ValueError("'anchors' must be a list of anchor specs (strings)")
        tags = [str(t) for t in value.get("tags") or [] if not str(t).startswith(KEY_TAG)]
        tags.append(KEY_TAG + op.key)
        ledger = self.ledger_for(namespace)
        proposed = self.agent_writes == "proposed"
        old = self._latest(ledger).get(op.key)
        changed = old is not None and (old.claim != claim.strip() or sorted(anchor_specs(old)) != sorted(anchors))
        if old is not None and changed and old.lifecycle is Lifecycle.PROPOSED:
            # An unreviewed value replaced before review: withdraw it, and
            # propose the new one against what it would have replaced.
            ledger.reject(old.id, reason=f"replaced through the LangGraph store before review (key {op.key!r})")
            target = ledger.get(old.supersedes) if old.supersedes else None
            old = target if target is not None and target.lifecycle is Lifecycle.ACTIVE else None
        if old is not None and changed and old.lifecycle is Lifecycle.ACTIVE:
            reason = str(value.get("reason") or f"replaced through the LangGraph store (key {op.key!r})")
            result = ledger.supersede(old.id, claim, anchors, reason=reason, tags=tags, at=self.at,
                                      proposed=proposed)
        else:
            result = ledger.record(claim, anchors, tags=tags, at=self.at, on_conflict="warn", proposed=proposed)
        for conflict in result.conflicts:
            log.warning("store item %s/%s conflicts with decision %s (%s)", namespace, op.key,
                        conflict.decision.id, conflict.why)
        for warning in result.warnings:
            log.warning("store item %s/%s: %s", namespace, op.key, warning)

    def _delete(self, namespace: tuple[str, ...], key: str) -> None:
        if namespace not in self._existing():
            return
        ledger = self.ledger_for(namespace)
        decision = self._latest(ledger).get(key)
        if decision is not None and decision.lifecycle in (Lifecycle.ACTIVE, Lifecycle.PROPOSED):
            ledger.reject(decision.id, reason=self.delete_reason)

    # ------------------------------------------------------------ BaseStore

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the operations in order; one result per operation."""
        results: list[Result] = []
        for op in ops:
            validate_op_namespace(op)
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, PutOp):
                if not op.namespace or op.namespace[0] == "langgraph":
                    raise InvalidNamespaceError(
                        f"a namespace must not be empty nor start with 'langgraph': {op.namespace!r}")
                self._put(op)
                results.append(None)
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list(op))
            else:
                raise TypeError(f"unknown store operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async version of :meth:`batch`, run in a worker thread."""
        return await asyncio.to_thread(self.batch, list(ops))

