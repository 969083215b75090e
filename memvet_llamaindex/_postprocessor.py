"""Verification for nodes of any LlamaIndex index that carry a MemVet decision id."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import BaseNode, NodeWithScore, QueryBundle

from memvet import AmbiguousIdError, Ledger, Status, UnknownDecisionError, Verdict, frame
from memvet_llamaindex._checks import require_ledger

__all__ = ["UNKNOWN_STATUS", "MemVetPostprocessor"]

log = logging.getLogger(__name__)

#: ``memvet_status`` of a node whose id names no decision of this ledger.
UNKNOWN_STATUS = "unknown"

_ANNOTATIONS = ("memvet_status", "memvet_reason", "memvet_group")


class MemVetPostprocessor(BaseNodePostprocessor):
    """Re-verifies decisions retrieved by any index, so it needs no migration.

    A node is a MemVet decision when its metadata holds the decision's id
    under one of ``id_keys`` (default ``"memvet_id"``, then ``"id"``; the
    first key holding a non-empty string wins). Export decisions into your
    own index with the id under ``"memvet_id"``::

        nodes = [TextNode(text=d.claim, metadata={"memvet_id": d.id})
                 for d in ledger.decisions()]
        index = VectorStoreIndex(nodes, embed_model=embed_model)
        engine = index.as_query_engine(llm=llm,
                                       node_postprocessors=[MemVetPostprocessor(ledger)])

    Each decision node is checked against the code at ``at`` (one target
    per call) and comes back as a copy (the index's own nodes are never
    modified) with ``memvet_status``, ``memvet_reason`` and ``memvet_group``
    added to its metadata:

    - ``verified``: text unchanged.
    - ``unanchored``, ``needs_revalidation``, ``stale``: text replaced by the
      framed claim, which says why to verify before relying on it.
    - ``refuted``, ``superseded``, ``rejected``: text replaced by the framed
      history ("previously tried, rejected: <reason> (was: <claim>)"), or
      the node dropped with ``drop_history=True``.

    The text is the ledger's claim, not the node's: the ledger is the
    source of truth. A node without an id passes through untouched; a node
    whose id is not a decision of this ledger (another namespace, or an
    ``"id"`` key that means something else) keeps its text and gets
    ``memvet_status="unknown"``. Store or git failures raise (a
    :class:`memvet.MemvetError`): an outage must not look like verification.

    Args:
        ledger: The ledger the ids belong to (checked: a TypeError otherwise).
        **data: The fields below, and ``callback_manager``; any other name
            is an error.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    id_keys: list[str] = Field(
        default_factory=lambda: ["memvet_id", "id"],
        description="Metadata keys holding the MemVet decision id, tried in order.",
    )
    at: str | None = Field(
        default=None, description="Where to verify: None (the working tree) or any revision."
    )
    drop_history: bool = Field(
        default=False,
        description="Drop refuted, superseded and rejected decisions instead of reframing them.",
    )

    _ledger: Ledger = PrivateAttr()

    def __init__(self, ledger: Ledger, **data: Any) -> None:
        require_ledger(ledger, "MemVetPostprocessor")
        super().__init__(**data)
        self._ledger = ledger

    @classmethod
    def class_name(cls) -> str:
        return "MemVetPostprocessor"

    @property
    def ledger(self) -> Ledger:
        """The ledger the ids are verified against."""
        return self._ledger

    def decision_id(self, node: BaseNode) -> str | None:
        """The MemVet id a node carries, or ``None``."""
        for key in self.id_keys:
            value = node.metadata.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
        return None

    def _postprocess_nodes(self, nodes: list[NodeWithScore],
                           query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        verdicts = self._verdicts(i for n in nodes if (i := self.decision_id(n.node)) is not None)
        out: list[NodeWithScore] = []
        for scored in nodes:
            decision_id = self.decision_id(scored.node)
            if decision_id is None:
                out.append(scored)
                continue
            verdict = verdicts.get(decision_id)
            if verdict is None:
                reason = f"no decision {decision_id} in ledger namespace {self._ledger.namespace}"
                out.append(_annotated(scored, UNKNOWN_STATUS, reason, "", None))
            elif verdict.status.group == "history" and self.drop_history:
                log.debug("dropped %s: %s", decision_id, verdict.status.value)
            else:
                text = None if verdict.status is Status.VERIFIED else frame(verdict)
                out.append(_annotated(scored, verdict.status.value, verdict.reason,
                                      verdict.status.group, text))
        return out

    def _verdicts(self, ids: Iterable[str]) -> dict[str, Verdict]:
        decisions = []
        for decision_id in dict.fromkeys(ids):
            try:
                decision = self._ledger.get(decision_id)
            except (UnknownDecisionError, AmbiguousIdError) as exc:
                log.debug("not a decision of this ledger: %s", exc)
                continue
            if decision.id == decision_id:  # ledger.get also accepts a prefix; ids must match exactly
                decisions.append(decision)
        if not decisions:
            return {}
        return {v.id: v for v in self._ledger.verdicts(decisions, self.at)}


def _annotated(scored: NodeWithScore, status: str, reason: str, group: str,
               text: str | None) -> NodeWithScore:
    node = scored.node.model_copy(deep=True)
    node.metadata.update({"memvet_status": status, "memvet_reason": reason, "memvet_group": group})
    for key in _ANNOTATIONS:
        if key not in node.excluded_embed_metadata_keys:
            node.excluded_embed_metadata_keys.append(key)
    if "memvet_reason" not in node.excluded_llm_metadata_keys:
        node.excluded_llm_metadata_keys.append("memvet_reason")
    if text is not None:
        node.set_content(text)
    return NodeWithScore(node=node, score=scored.score)
