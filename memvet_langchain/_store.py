"""``MemVetStore``: LangGraph long-term memory whose items are verified decisions.

Every item lives in the ledger's own namespace, so the store, the middleware
and the tools opened on one ledger see the same memories. An item is one
decision whose tags say where it belongs: ``lg-ns:<path>`` for its LangGraph
namespace and every prefix of it (so a search by prefix is a tag filter,
which :meth:`memvet.Ledger.recall` answers without a scan) and
``lg-item:<path>::<key>``. Labels and keys are percent-encoded, so the tags
read back one way. The value as put is kept beside the decisions, in the
``<decisions collection>.values`` collection, under the decision's id.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, unquote

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

from memvet import Author, Decision, Ledger, Lifecycle, Verdict, frame
from memvet_langchain._convert import GROUPS, anchor_specs, check_groups, require_ledger

__all__ = ["MemVetStore"]

log = logging.getLogger(__name__)

NS_TAG = "lg-ns:"
ITEM_TAG = "lg-item:"
#: The default verdict key added to every value served.
VERDICT_KEY = "memvet"


def _path(namespace: Sequence[str]) -> str:
    return "/".join(quote(label, safe="") for label in namespace)


def _unpath(text: str) -> tuple[str, ...]:
    return tuple(unquote(label) for label in text.split("/"))


def _item_tag(namespace: Sequence[str], key: str) -> str:
    return f"{ITEM_TAG}{_path(namespace)}::{quote(key, safe='')}"


def _item_of(decision: Decision) -> tuple[tuple[str, ...], str] | None:
    """The (namespace, key) of a store item's decision, ``None`` for other decisions."""
    for tag in decision.tags:
        if tag.startswith(ITEM_TAG):
            path, _, key = tag[len(ITEM_TAG):].rpartition("::")
            return _unpath(path), unquote(key)
    return None


def _names(value: Any, key: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ValueError(f"a store value's {key!r} must be a string or a list of strings, got {value!r}")


def _compare(value: Any, wanted: Any) -> bool:
    """LangGraph's filter semantics (as in ``InMemoryStore``)."""
    if isinstance(wanted, dict):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(value, op, arg) for op, arg in wanted.items())
        return isinstance(value, dict) and all(_compare(value.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (isinstance(value, (list, tuple)) and len(value) == len(wanted)
                and all(_compare(a, b) for a, b in zip(value, wanted, strict=True)))
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
    # The pattern names the first (prefix) or last (suffix) levels of a longer namespace.
    pairs = (zip(namespace, path, strict=False) if condition.match_type == "prefix"
             else zip(reversed(namespace), reversed(path), strict=False))
    return all(p == "*" or n == p for n, p in pairs)


def _time(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


class MemVetStore(BaseStore):
    """A LangGraph ``BaseStore`` whose items are decisions with code evidence.

    Any JSON object is a value. Its claim (what is embedded, verified and
    served) is the first of ``claim_keys`` holding a non-empty string
    (default ``claim``, then ``content``, which is what langmem's memory
    tools write), else the value's JSON text. Two keys mean something to
    MemVet: ``anchors`` (one spec or a list, as for ``Ledger.record``;
    without them the item is unanchored, served as "unconfirmed", and never
    refused), and ``tags``; ``reason`` is the supersede reason when a put
    replaces an earlier value under the same key. Claims with anchors are
    bound to them at write, as every write is: a claim naming code its
    anchors do not contain is refused.

    ``get`` and ``search`` return the value exactly as put, plus one key,
    ``verdict_key`` (default ``"memvet"``; ``None`` leaves it out), holding
    the verdict re-checked now: ``status``, ``reason``, ``group``, ``text``
    (the framed line an agent reads), ``id``, ``lifecycle`` and
    ``anchors``. Putting a value back that carries it is fine (it is
    dropped). Putting a different value under an existing key proposes
    superseding the old decision; ``created_at`` stays the key's first put.
    ``delete`` asks to reject the decision (``delete(ns, key,
    reason=...)``): it is never a silent loss.

    The store is agent-facing: every write is an agent's
    (:meth:`memvet.Author.agent` named ``agent_name``), and an agent retires
    nothing on its own.

    - A ``put`` of a new key writes a proposal under the default review
      policy (``ledger.agent_writes``, read from the committed
      ``[tool.memvet] agent-writes``; the store's own ``agent_writes`` when
      the host sets it), served with status ``proposed`` until a person
      approves it (``memvet approve ID``, or :func:`review_proposal`).
    - A ``put`` of a different value over an active item proposes the new
      value as its replacement: ``get`` serves the proposal, and the active
      decision stays current (for recall and the middleware), served under
      caution with the request, until a person approves the replacement
      (the old decision is then superseded) or declines it (the item is
      back to the old value).
    - A ``put`` over the store's own unreviewed proposal withdraws that
      proposal (kept as rejected history) and proposes the new value in its
      place; over another author's proposal it asks a person to turn that
      one down and proposes the new value beside it.
    - ``delete`` (or ``put(ns, key, None)``) of an active item is a request
      to reject it: the item stays, served as ``needs_revalidation`` with
      the request, until a person approves (it is rejected) or declines.
      ``delete`` of the store's own proposal withdraws it; a pending
      replacement is withdrawn and the value it would replace is asked to
      be rejected.

    By default ``get`` and ``search`` serve all three recall groups, so a
    rejected or drifted item comes back with its status; pass
    ``include=("current", "caution")`` to hide history.

    Setup:
        Install the extra: ``pip install "memvet[langchain]"``.

    Instantiate:
        .. code-block:: python

            import memvet
            from langchain.agents import create_agent
            from memvet_langchain import MemVetMiddleware, MemVetStore

            ledger = memvet.Ledger.open(".")
            store = MemVetStore(ledger)
            # the middleware on the same ledger injects what the store holds
            agent = create_agent(model, tools=[...], store=store,
                                 middleware=[MemVetMiddleware(ledger)])

    Usage:
        .. code-block:: python

            store.put(("decisions",), "orders", {"claim": "Orders are saved in one transaction",
                                                 "anchors": ["shop/store.py::OrderStore.save"]})
            store.get(("decisions",), "orders").value["memvet"]["status"]   # "verified"
            store.search(("decisions",), query="how are orders saved?")
            store.delete(("decisions",), "orders", reason="moved to the event log")   # a request

    Args:
        ledger: The ledger the items live in (also the first positional argument).
        at: Where to verify: ``None`` for the working tree, or a revision.
        include: The recall groups ``get`` and ``search`` serve.
        delete_reason: The rejection reason of a ``delete`` without one.
        agent_writes: How ``put`` writes new items: ``"proposed"`` or
            ``"active"``; default ``None``, the ledger's review policy
            (``ledger.agent_writes``). A replacement is a proposal either way.
        agent_name: The agent's name in receipts and requests
            (``langgraph-store (agent)``).
        claim_keys: Value keys the claim is read from, in order (one string
            is one key).
        verdict_key: The key the verdict is served under (``None``: none).
    """

    def __init__(self, ledger: Ledger, *, at: str | None = None, include: Iterable[str] | str = GROUPS,
                 delete_reason: str = "deleted through the LangGraph store",
                 agent_writes: str | None = None, claim_keys: str | Sequence[str] = ("claim", "content"),
                 verdict_key: str | None = VERDICT_KEY, agent_name: str = "langgraph-store") -> None:
        require_ledger(ledger, "MemVetStore")
        if not isinstance(delete_reason, str) or not delete_reason.strip():
            raise ValueError("delete_reason must not be empty: a rejection needs a reason")
        if agent_writes not in (None, "proposed", "active"):
            raise ValueError(f"agent_writes must be 'proposed' or 'active', not {agent_writes!r}")
        keys = (claim_keys,) if isinstance(claim_keys, str) else tuple(claim_keys)
        if not keys or not all(isinstance(k, str) and k for k in keys):
            raise ValueError(f"claim_keys must be one key or a list of keys, got {claim_keys!r}")
        if verdict_key is not None and (not isinstance(verdict_key, str) or not verdict_key):
            raise ValueError(f"verdict_key must be a key or None, got {verdict_key!r}")
        if not isinstance(agent_name, str) or not agent_name.strip():
            raise ValueError(f"agent_name must be a non-empty name, got {agent_name!r}")
        self.agent_writes = agent_writes
        self.author = Author.agent(agent_name)
        self.ledger = ledger
        self.at = at
        self.include = check_groups(include)
        self.delete_reason = delete_reason
        self.claim_keys = keys
        self.verdict_key = verdict_key
        self._lock = threading.RLock()

    # ------------------------------------------------------------ values

    def _values(self) -> Any:
        store = self.ledger.store
        return store.client.get_or_create_collection(
            store.decisions.name + ".values", embedding_function=None,
            metadata={"namespace": self.ledger.namespace, "memvet_store_values": 1})

    def _stored_values(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        if not ids:
            return {}
        got = self._values().get(ids=list(ids), include=["documents"])
        out = {}
        for rid, doc in zip(got["ids"], got.get("documents") or [], strict=False):
            try:
                out[rid] = json.loads(doc or "")
            except ValueError:
                log.warning("the stored value of decision %s does not decode; serving its claim", rid)
        return out

    def claim_of(self, value: dict[str, Any]) -> str:
        """The claim a value is recorded with."""
        for key in self.claim_keys:
            text = value.get(key)
            if isinstance(text, str) and text.strip():
                return text.strip()
        return json.dumps(value, sort_keys=True, ensure_ascii=False)

    # ------------------------------------------------------------ reading

    def _decisions_in(self, prefix: tuple[str, ...]) -> list[Decision]:
        """The store's decisions under a namespace prefix, oldest first."""
        found = self.ledger.tagged([NS_TAG + _path(prefix)]) if prefix else self.ledger.decisions()
        return [d for d in found if _item_of(d) is not None]

    @staticmethod
    def _latest(decisions: Iterable[Decision]) -> dict[tuple[tuple[str, ...], str], tuple[Decision, float]]:
        """Per item: its current decision and the first put's time.

        The current decision is the newest, except a replacement that never
        took effect (withdrawn or turned down while it was a proposal): the
        item is then what it was before.
        """
        decisions = list(decisions)
        by_id = {d.id: d for d in decisions}
        latest: dict[tuple[tuple[str, ...], str], tuple[Decision, float]] = {}
        for d in decisions:  # oldest first: the last one per item wins
            item = _item_of(d)
            if item is None:
                continue
            first = latest[item][1] if item in latest else d.created_at
            replaced = by_id.get(d.supersedes)
            if (item in latest and d.lifecycle is Lifecycle.REJECTED and replaced is not None
                    and replaced.superseded_by != d.id):
                latest[item] = (latest[item][0], first)
            else:
                latest[item] = (d, first)
        return latest

    def _value(self, verdict: Verdict, stored: dict[str, Any] | None) -> dict[str, Any]:
        decision = verdict.decision
        value = dict(stored) if stored is not None else {self.claim_keys[0]: decision.claim}
        if self.verdict_key is not None:
            value[self.verdict_key] = {
                "id": decision.id,
                "status": verdict.status.value,
                "reason": verdict.reason,
                "group": verdict.status.group,
                "text": frame(verdict),
                "lifecycle": decision.lifecycle.value,
                "anchors": anchor_specs(decision),
            }
        return value

    def _item(self, namespace: tuple[str, ...], key: str, verdict: Verdict, first: float,
              stored: dict[str, Any] | None, score: float | None = None, searched: bool = False) -> Item:
        decision = verdict.decision
        value = self._value(verdict, stored)
        created = _time(first)
        updated = _time(decision.resolved_at or decision.created_at)
        if searched:
            return SearchItem(namespace, key, value, created, updated, score)
        return Item(value=value, key=key, namespace=namespace, created_at=created, updated_at=updated)

    def _find(self, namespace: tuple[str, ...], key: str) -> tuple[Decision, float] | None:
        found = self.ledger.tagged([_item_tag(namespace, key)])
        return self._latest(found).get((namespace, key))

    def _get(self, op: GetOp) -> Item | None:
        namespace = tuple(op.namespace)
        hit = self._find(namespace, op.key)
        if hit is None:
            return None
        decision, first = hit
        verdict = self.ledger.verdicts([decision], self.at)[0]
        if verdict.status.group not in self.include:
            return None
        stored = self._stored_values([decision.id]).get(decision.id)
        return self._item(namespace, op.key, verdict, first, stored)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        latest = self._latest(self._decisions_in(prefix))
        by_id = {d.id: (item, first) for item, (d, first) in latest.items()}
        snap = self.ledger.snapshot(self.at)
        scored: list[tuple[Verdict, float | None, float]] = []
        if op.query:
            want = max(op.offset + op.limit, 1)
            tags = [NS_TAG + _path(prefix)] if prefix else None
            target = want * 3 if op.filter else want  # a value filter drops some
            n = target
            while True:
                recall = self.ledger.recall(op.query, k=n, at=self.at, include=self.include, tags=tags)
                items = [i for i in recall.items if i.id in by_id]
                # Earlier versions of an item and other decisions are left
                # out: ask for more until enough remain or the ledger is done.
                if len(items) >= target or len(recall.items) < n:
                    break
                n *= 4
            scored = [(i.verdict, i.score, i.score) for i in items]
        else:
            verdicts = self.ledger.verdicts([d for d, _ in latest.values()], snap)
            scored = [(v, None, by_id[v.decision.id][1]) for v in verdicts if v.status.group in self.include]
        values = self._stored_values([v.decision.id for v, _, _ in scored])
        found = []
        for verdict, score, order in scored:
            (namespace, key), first = by_id[verdict.decision.id]
            item = self._item(namespace, key, verdict, first, values.get(verdict.decision.id), score, True)
            if self._passes(item, op.filter):
                found.append((item, order))
        # Best match first for a query; otherwise oldest first, like InMemoryStore.
        found.sort(key=lambda p: p[1], reverse=bool(op.query))
        return [item for item, _ in found[op.offset: op.offset + op.limit]]  # type: ignore[misc]

    @staticmethod
    def _passes(item: Item, wanted: dict[str, Any] | None) -> bool:
        return not wanted or all(_compare(item.value.get(k), v) for k, v in wanted.items())

    def _list(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = sorted({ns for ns, _ in self._latest(self._decisions_in(()))})
        if op.match_conditions:
            namespaces = [ns for ns in namespaces if all(_matches(c, ns) for c in op.match_conditions)]
        if op.max_depth is not None:
            namespaces = sorted({ns[: op.max_depth] for ns in namespaces})
        return namespaces[op.offset: op.offset + op.limit]

    # ------------------------------------------------------------ writing

    def _put(self, op: PutOp) -> None:
        namespace = tuple(op.namespace)
        if op.value is None:
            self._delete(namespace, op.key, None)
            return
        if not isinstance(op.value, dict):
            raise ValueError(f"a store value must be a dict (a JSON object), got {type(op.value).__name__}")
        value = dict(op.value)
        if self.verdict_key is not None and isinstance(value.get(self.verdict_key), dict):
            del value[self.verdict_key]  # a value read back and put again
        try:
            text = json.dumps(value, sort_keys=True, ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"a store value must be JSON (it is kept as JSON): {exc}") from exc
        value = json.loads(text)
        claim = self.claim_of(value)
        anchors = _names(value.get("anchors"), "anchors")
        tags = [t for t in _names(value.get("tags"), "tags") if not t.startswith((NS_TAG, ITEM_TAG))]
        tags += [NS_TAG + _path(namespace[: i + 1]) for i in range(len(namespace))]
        tags.append(_item_tag(namespace, op.key))
        proposed = None if self.agent_writes is None else self.agent_writes == "proposed"
        ledger, author = self.ledger, self.author
        with self._lock:
            hit = self._find(namespace, op.key)
            old = hit[0] if hit is not None else None
            if old is not None and old.lifecycle in (Lifecycle.ACTIVE, Lifecycle.PROPOSED):
                before = self._stored_values([old.id]).get(old.id)
                if before == value and old.claim == claim:
                    return  # the same value again: nothing to write
            else:
                old = None
            if old is not None and old.lifecycle is Lifecycle.PROPOSED:
                # An unreviewed value replaced before review: withdraw it (the
                # store's own proposal; another author's is only asked to be
                # turned down), and propose the new one against what it would
                # have replaced.
                asked = ledger.reject(old.id, reason=f"replaced through the LangGraph store before review "
                                                     f"(key {op.key!r})", author=author)
                if asked.lifecycle is Lifecycle.PROPOSED:
                    log.warning("store item %s/%s: proposal %s is %s's, not this store's; a person is asked to "
                                "turn it down, and the new value is proposed beside it", namespace, op.key,
                                old.id, old.author)
                target = ledger.get(old.supersedes) if old.supersedes else None
                old = target if target is not None and target.lifecycle is Lifecycle.ACTIVE else None
            if old is not None:
                reason = value.get("reason")
                reason = reason if isinstance(reason, str) and reason.strip() else (
                    f"replaced through the LangGraph store (key {op.key!r})")
                # An agent's supersede is a proposal, and a request on the old decision.
                result = ledger.record(claim, anchors, supersedes=old.id, reason=reason, tags=tags, at=self.at,
                                       proposed=proposed, confirm_duplicates=False, author=author)
            else:
                result = ledger.record(claim, anchors, tags=tags, at=self.at, on_conflict="warn",
                                       proposed=proposed, confirm_duplicates=False, author=author)
            self._values().upsert(ids=[result.decision.id], documents=[text], embeddings=[[1.0]],
                                  metadatas=[{"kind": "lg-value"}])
        for conflict in result.conflicts:
            log.warning("store item %s/%s conflicts with decision %s (%s)", namespace, op.key,
                        conflict.decision.id, conflict.why)
        for warning in result.warnings:
            log.warning("store item %s/%s: %s", namespace, op.key, warning)

    def _delete(self, namespace: tuple[str, ...], key: str, reason: str | None) -> None:
        reason = reason or self.delete_reason
        with self._lock:
            hit = self._find(namespace, key)
            decision = hit[0] if hit is not None else None
            if decision is None or decision.lifecycle not in (Lifecycle.ACTIVE, Lifecycle.PROPOSED):
                return  # gone, or already history: nothing to ask
            if (decision.retire_reason == reason and not decision.retire_with
                    and self.author.same_as(decision.retire_by, "agent")):
                return  # asked already, for the same reason
            asked = self.ledger.reject(decision.id, reason=reason, author=self.author)
            if asked.lifecycle is Lifecycle.REJECTED and decision.supersedes:
                # The store's own pending replacement is withdrawn; the value it
                # would have replaced is what the item holds, so ask for that too.
                target = self.ledger.get(decision.supersedes)
                if target.lifecycle is Lifecycle.ACTIVE:
                    self.ledger.reject(target.id, reason=reason, author=self.author)

    def delete(self, namespace: tuple[str, ...], key: str, *, reason: str | None = None) -> None:
        """Ask to reject the item's decision, with ``reason`` (default ``delete_reason``).

        An active item stays, served as ``needs_revalidation`` with the
        request, until a person approves (it is rejected, kept as history)
        or declines; the store's own proposal is withdrawn at once.
        """
        self._check_namespace(namespace)
        if reason is not None and (not isinstance(reason, str) or not reason.strip()):
            raise ValueError("a delete reason must be a non-empty string (or None for the default)")
        self._delete(tuple(namespace), key, reason)

    async def adelete(self, namespace: tuple[str, ...], key: str, *, reason: str | None = None) -> None:
        """Async version of :meth:`delete`, run in a worker thread."""
        await asyncio.to_thread(self.delete, namespace, key, reason=reason)

    # ------------------------------------------------------------ BaseStore

    @staticmethod
    def _check_namespace(namespace: tuple[str, ...]) -> None:
        if not namespace or namespace[0] == "langgraph":
            raise InvalidNamespaceError(
                f"a namespace must not be empty nor start with 'langgraph': {namespace!r}")
        if not all(isinstance(label, str) and label for label in namespace):
            raise InvalidNamespaceError(f"namespace labels must be non-empty strings: {namespace!r}")

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
                self._check_namespace(tuple(op.namespace))
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
