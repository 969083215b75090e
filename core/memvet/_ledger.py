"""The ledger: decisions with evidence, stored in Chroma, verified at every read."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from memvet import _chroma, _code, _manifests
from memvet._about import about
from memvet._anchors import AnchorSpec, Evidence, parse_anchor, with_quote
from memvet._cache import SymbolCache
from memvet._claims import UnboundTerm, bind, claim_terms, render_unbound
from memvet._codec import anchor_keys
from memvet._config import DUPLICATE_THRESHOLD, SIMILARITY_THRESHOLD, check_agent_writes
from memvet._embedding import Embedder, MiniLMEmbedder, as_embedder, load_embedding, spec_for
from memvet._errors import (
    AmbiguousIdError,
    AnchorNotFoundError,
    ClaimContradictsCodeError,
    ConflictError,
    CorruptRecordError,
    NotAllowedError,
    QuoteNotFoundError,
    StoreError,
    UnboundClaimError,
    UnknownDecisionError,
    UsageError,
)
from memvet._filter import PLAIN_LIMIT, SELECTIVE_LIMIT, RecallFilter, check_k, make_filter
from memvet._git import GitRepo, Snapshot
from memvet._lock import DEFAULT_LOCK_TIMEOUT, LocalLock
from memvet._model import (
    Anchor,
    AnchorKind,
    AnchorResult,
    Author,
    Conflict,
    Decision,
    Lifecycle,
    Proposal,
    Recall,
    RecallGroup,
    Receipt,
    ReceiptAction,
    RecordOutcome,
    RecordResult,
    Status,
    Verdict,
)
from memvet._reads import OnVerdict
from memvet._recall import GROUPS, check_include, group_recall
from memvet._relations import Contradiction, contradictions, render_refusal
from memvet._store import ChromaStore, Intent, collection_name
from memvet._unicode import fold, fold_and_check
from memvet._verify import Verifier, collector_paused

if TYPE_CHECKING:
    import pygit2

__all__ = ["Ledger", "require_ledger"]

log = logging.getLogger(__name__)

AnchorLike = str | AnchorSpec

#: What ``author=`` takes: an :class:`Author`, a person's name, or ``None``
#: (a person: the repository's ``user.name``).
AuthorLike = Author | str | None

#: Relation rules whose contradictions refuse a write instead of being a
#: finding: only rules whose precision was measured at 100 % on facts no
#: one here wrote (benchmarks/contamination.py --write-path). None is, yet:
#: on httpx and express the order and value rules each fired on a true fact.
CERTAIN_RULES: frozenset[str] = frozenset()

#: Longest claim accepted (characters); a claim is a decision, not a document.
MAX_CLAIM_CHARS = 4000


#: A team or user name inside a namespace: no separators, so
#: ``<identity>/team:<team>/user:<user>`` always parses back one way.
_NAME_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}")


def _new_id() -> str:
    return uuid.uuid4().hex[:12]


def _identity(git: GitRepo, cache: Path) -> str:
    """The repository's identity (its root commit), remembered in ``cache``.

    Walking to the root takes 150 ms on an 18,000-commit history, and every
    CLI call opens a ledger. The answer is kept with the HEAD it was computed
    at; it still holds while the new HEAD descends from that one (a short
    walk), and is recomputed otherwise (rewritten history, another branch).

    A remembered root must still be a root (a commit without parents): a
    file naming another commit would open another, empty namespace.

    Raises:
        UsageError: A shallow clone: its oldest commit is not the root, so
            the identity cannot be known; the message says how to set it.
    """
    if git.is_shallow:
        raise UsageError(SHALLOW_NAMESPACE)
    head = str(git.head_commit().id)
    try:
        known = json.loads(cache.read_text(encoding="utf-8"))
        root, seen = str(known["root"]), str(known["head"])
    except (OSError, ValueError, KeyError, TypeError):
        root = seen = ""
    if root and _is_root(git, root) and (seen == head or git.is_ancestor(seen, head)):
        if seen != head:
            _remember_identity(cache, root, head)
        return root
    root = git.root_commit_id()
    _remember_identity(cache, root, head)
    return root


#: Why a shallow clone has no default namespace, and the ways out.
SHALLOW_NAMESPACE = (
    "this is a shallow clone (git clone --depth): its oldest commit is not the repository's root, so the "
    "default namespace (the root commit id) cannot be computed and the ledger cannot be found. Set it once "
    "in pyproject.toml, [tool.memvet] namespace = \"<root commit id>\" (in a full clone, "
    "`git rev-list --max-parents=0 --first-parent HEAD` prints it), or pass --namespace / MEMVET_NAMESPACE, "
    "or fetch the whole history (git fetch --unshallow; in GitHub Actions, actions/checkout with "
    "fetch-depth: 0)"
)


def _is_root(git: GitRepo, sha: str) -> bool:
    """True when ``sha`` is a commit of this repository without parents."""
    if not git.has_commit(sha):
        return False
    return not cast("pygit2.Commit", git.repo.get(sha)).parent_ids  # has_commit: it is there, a commit


def _remember_identity(cache: Path, root: str, head: str) -> None:
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(f".{cache.name}.{os.getpid()}")
        tmp.write_text(json.dumps({"root": root, "head": head}), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError as exc:  # a read-only ledger folder: compute it next time again
        log.debug("cannot remember the repository identity in %s: %s", cache, exc)


def _keep_out_of_scans(git: GitRepo, home: Path) -> None:
    """Leave the ledger folder out of every scan of the code when it lies
    inside the repository (absence rules would read its lock file, which
    holds the writer's command line)."""
    try:
        rel = home.resolve().relative_to(git.root)
    except ValueError:
        return
    if rel.parts:
        git.private = tuple(dict.fromkeys((*git.private, rel.as_posix() + "/")))


def compose_namespace(base: str, team: str | None = None, user: str | None = None) -> str:
    """The namespace convention: ``<base>[/team:<team>][/user:<user>]``.

    ``base`` is the repository identity (its root commit) unless a namespace
    was given. Team and user names are letters, digits and ``._@+-``.

    Raises:
        UsageError: A team or user name outside that alphabet.
    """
    out = base
    for label, value in (("team", team), ("user", user)):
        if value is None:
            continue
        if not isinstance(value, str) or not _NAME_PART.fullmatch(value):
            raise UsageError(
                f"invalid {label} {value!r}: use 1-64 letters, digits or '._@+-', starting with a letter or digit"
            )
        out += f"/{label}:{value}"
    return out


@dataclass(frozen=True)
class _Draft:
    """A write checked and bound, before anything is embedded or written.

    ``old`` is the active decision it supersedes (``None`` for a plain
    record); ``reason`` is the reason given (kept only with ``old``).
    """

    claim: str
    anchors: tuple[Anchor, ...]
    declared: tuple[str, ...]
    findings: tuple[str, ...]
    tags: tuple[str, ...]
    old: Decision | None
    reason: str
    author: Author
    now: float
    snap: Snapshot
    proposed: bool
    namespace: str

    def decision(self, expires_at: float | None) -> Decision:
        """The new decision, with a fresh id."""
        return Decision(
            id=_new_id(), claim=self.claim, anchors=self.anchors,
            lifecycle=Lifecycle.PROPOSED if self.proposed else Lifecycle.ACTIVE,
            supersedes=self.old.id if self.old else "", reason=self.reason if self.old else "", tags=self.tags,
            author=self.author.name, author_kind=self.author.kind.value, created_at=self.now,
            commit=self.snap.base_commit,
            hash_version=_code.HASH_VERSION, namespace=self.namespace, expires_at=float(expires_at or 0.0),
            unbound=self.declared, findings=self.findings,
        )


class Ledger:
    """Decisions with evidence, re-checked against the code at every read.

    Open one with :meth:`open`. Every read takes ``at``: ``None`` or
    ``"worktree"`` for the files on disk, or any revision (``"HEAD"``, a sha,
    a branch).

    Example::

        ledger = Ledger.open(".")
        ledger.record("Sessions are cached with functools.cache",
                      anchors=["app/session.py::load_session"])
        for verdict in ledger.check():
            print(verdict.status.value, verdict.decision.claim, verdict.reason)
    """

    #: How agent-facing adapters write (see :meth:`open`).
    agent_writes: str = "proposed"

    def __init__(self, git: GitRepo, store: ChromaStore, embedder: Embedder, *,
                 namespace: str, cache: SymbolCache | None = None,
                 similarity_threshold: float = SIMILARITY_THRESHOLD, duplicate_threshold: float = DUPLICATE_THRESHOLD,
                 agent_writes: str = "proposed", clock: Callable[[], float] = time.time,
                 parse_workers: int = 0) -> None:
        self.git = git
        self.store = store
        self.embedder = embedder
        self.namespace = namespace
        self.evidence = Evidence(git, cache, parse_workers=parse_workers)
        #: Seconds since the epoch: the time written on decisions and
        #: receipts, and the "now" that expiry is judged at.
        self.clock = clock
        self.verifier = Verifier(self.evidence, clock=clock)
        self.similarity_threshold = similarity_threshold
        self.duplicate_threshold = duplicate_threshold
        #: How agent-facing adapters (tools, LangGraph store) write:
        #: ``"proposed"`` (a person approves) or ``"active"``.
        self.agent_writes = check_agent_writes(agent_writes, "agent_writes")

    @classmethod
    def open(cls, repo: str | os.PathLike[str] = ".", *, path: str | os.PathLike[str] | None = None,
             client: Any = None, server: str | None = None, token: str | None = None,
             embedding: Any = None, namespace: str | None = None, team: str | None = None,
             user: str | None = None, similarity_threshold: float = SIMILARITY_THRESHOLD,
             duplicate_threshold: float = DUPLICATE_THRESHOLD, disk_cache: bool = True,
             lock_timeout: float = DEFAULT_LOCK_TIMEOUT, agent_writes: str | None = None,
             clock: Callable[[], float] = time.time, parse_workers: int | None = None) -> Ledger:
        """Open (or create) the ledger of a repository.

        Args:
            repo: Any folder inside the git repository.
            path: Folder of the embedded store; default ``<repo root>/.memvet/``.
            client: Any Chroma client (``EphemeralClient`` in tests,
                ``HttpClient`` for a shared server); overrides ``path``.
            server: URL of a shared Chroma server (``http://host:port``),
                instead of ``client``.
            token: Bearer token sent to ``server`` (checked by the reverse
                proxy in front of it; see the deployment guide).
            embedding: An embedder, a LangChain ``Embeddings``, a
                LlamaIndex ``BaseEmbedding`` or a callable ``list[str] ->
                list[list[float]]`` (see :func:`memvet._embedding.as_embedder`; a
                string spec goes through :func:`memvet._embedding.load_embedding`). Default:
                the local all-MiniLM-L6-v2 (no network; loaded on first
                use). Only :meth:`record`, :meth:`recall` and imports embed:
                every other read opens a ledger whatever embedding wrote it,
                and nothing is pinned until the first decision is stored.
            namespace: Default: the ``namespace`` key of the repository's
                ``[tool.memvet]`` table, else the repository's identity (its
                root commit), which a shallow clone cannot compute (a
                UsageError that says how to set it). Every worktree of a
                repository opens the main checkout's ``.memvet/``.
            team: Narrows the namespace to a team: ``<namespace>/team:<team>``.
            user: Narrows it to one user: ``.../user:<user>``. Decisions of
                one namespace are never visible from another (own collections).
            similarity_threshold: Cosine similarity above which a neighbour
                counts as a conflicting (or, if rejected, a warned) claim.
            duplicate_threshold: Similarity above which a write with the same
                anchors confirms the existing decision instead.
            disk_cache: Keep parsed symbol tables under ``.memvet/cache``.
            lock_timeout: Seconds a write waits for another process writing
                the same local ledger before :class:`LedgerLockedError`
                (local ``PersistentClient`` ledgers only; a server needs none).
                A negative value waits as long as it takes.
            agent_writes: How agents' new records are written:
                ``"proposed"`` (a person approves them) or ``"active"``.
                Default: the ``agent-writes`` key of the repository's
                ``[tool.memvet]`` table as committed at ``HEAD`` (an
                uncommitted edit is ignored with a warning; see
                :func:`memvet._config.committed_agent_writes`), else
                ``"proposed"``. A person's writes are active unless they
                pass ``proposed=True``. Whatever it says, agents never
                approve, and never retire an active decision on their own.
            clock: Returns the current time in seconds since the epoch
                (default :func:`time.time`): stamped on decisions and
                receipts, and the time expiry is judged at. Tests pass a
                fake clock instead of sleeping between writes.
            parse_workers: Helper processes a check may parse changed files
                on, besides this one, when at least 32 files need a parse
                (a cold check after a pull; see docs/benchmarks.md). Default:
                ``MEMVET_PARSE_WORKERS``, else one per core beyond the first,
                at most 3. ``0``: parse in this process only. The verdicts
                are the same either way.

        Raises:
            NotARepositoryError, EmptyRepositoryError, StoreError
            (StoreUnavailableError, AuthenticationError), UsageError.
        """
        if parse_workers is None:
            try:
                parse_workers = _code.default_workers()
            except ValueError as exc:
                raise UsageError(str(exc)) from exc
        elif isinstance(parse_workers, bool) or not isinstance(parse_workers, int) or parse_workers < 0:
            raise UsageError(f"parse_workers must be a whole number of zero or more, not {parse_workers!r}")
        if isinstance(repo, (str, os.PathLike)) and os.path.isfile(repo):
            raise UsageError(f"Ledger.open takes a folder inside a git repository, not a file: {os.fspath(repo)} "
                             f"(pass its folder, {os.path.dirname(os.path.abspath(repo))})")
        if path is not None and os.path.isfile(path):
            raise UsageError(f"path is where the ledger's folder goes, not a file: {os.fspath(path)}")
        if server is not None and (not isinstance(server, str) or not server.strip()):
            raise UsageError(f"invalid server {server!r}: give the server's URL (http://HOST:PORT), or leave "
                             "server out for the local ledger")
        if token is not None and (not isinstance(token, str) or not token.strip()):
            raise UsageError("the token is empty: give the server's token, or leave token out")
        git = GitRepo(repo)
        if agent_writes is None or namespace is None:
            from memvet._config import committed_agent_writes, find_config

            if agent_writes is None:
                # Review policy: as committed at HEAD, never an uncommitted edit.
                agent_writes = committed_agent_writes(git, repo)
            if namespace is None:
                namespace = find_config(repo).namespace
        agent_writes = check_agent_writes(agent_writes, "agent_writes")
        if namespace is not None and (not isinstance(namespace, str) or not namespace.strip()):
            raise UsageError(f"invalid namespace {namespace!r}: it must be a non-empty string")
        # Every worktree of a repository shares the main checkout's ledger.
        home = Path(path) if path is not None else git.main_root / ".memvet"
        if client is None or namespace is None or disk_cache:
            _keep_out_of_git(home, ours=path is None)
        _keep_out_of_scans(git, home)
        base = namespace if namespace is not None else _identity(git, home / "identity.json")
        ns = compose_namespace(base, team, user)
        collection_name(ns)  # a namespace that would take another's collection is refused before any write
        owned = client is None and server is None
        if client is None and server is not None:
            client = _chroma.http_client(server, token)
        lock = None
        if client is None:
            lock = LocalLock(home, lock_timeout)
            folder = str(home / "chroma")
            try:
                with _chroma.CLIENT_LOCK:
                    if _chroma.has_cached_system(folder):
                        # This process opened the folder before: its cached index may
                        # predate another process's writes, so reload it on first use.
                        lock.opened_generation = "(cached by this process)"
                    client = _chroma.persistent_client(folder)
            except StoreError as exc:
                _raise_if_read_only(exc, home)
                raise
        elif _chroma.is_persistent(client):
            # A client opened elsewhere may predate the last write: reload it first.
            lock = LocalLock(home, lock_timeout)
            lock.opened_generation = "(client opened by the caller)"
        if isinstance(embedding, str):
            embedder = load_embedding(embedding)
        else:
            embedder = as_embedder(embedding) if embedding is not None else MiniLMEmbedder()
        try:
            store = ChromaStore(client, ns, embedder.name, lock=lock)
        except StoreError as exc:
            if lock is not None:
                _raise_if_read_only(exc, home)
            raise
        from memvet._held import HeldMark, check_not_emptied

        mark = HeldMark(home / "held.json") if owned else None
        check_not_emptied(store, str(home) if owned else (server or "the given client"), mark)
        if mark is not None:
            store.after_write = lambda: mark.raise_to(ns, store.count())
        cache = SymbolCache(home / "cache" if disk_cache else None)
        return cls(git, store, embedder, namespace=ns, cache=cache,
                   similarity_threshold=similarity_threshold, duplicate_threshold=duplicate_threshold,
                   agent_writes=agent_writes, clock=clock, parse_workers=parse_workers)

    # ================================================================= reads

    def _effective(self, decisions: Sequence[Decision]) -> list[Decision]:
        """Apply supersede pointers: a decision pointed to by an active
        successor is superseded, even if the second write never landed."""
        pending = [d.id for d in decisions if d.lifecycle is Lifecycle.ACTIVE]
        successors = self.store.successors_of(pending) if pending else {}
        out = []
        for d in decisions:
            succ = successors.get(d.id)
            if d.lifecycle is Lifecycle.ACTIVE and succ is not None and succ.id != d.id:
                d = d.evolve(lifecycle=Lifecycle.SUPERSEDED, superseded_by=succ.id,
                             reason=succ.reason, resolved_at=succ.created_at)
            out.append(d)
        return out

    def _resolve_id(self, decision_id: str) -> str:
        decision_id = (decision_id or "").strip()
        if not decision_id:
            raise UnknownDecisionError("empty decision id")
        if self.store.get_decisions([decision_id]):
            return decision_id
        if len(decision_id) >= 4:
            matches = [i for i in self.store.all_ids() if i.startswith(decision_id)]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                raise AmbiguousIdError(
                    f"id prefix {decision_id!r} matches {len(matches)} decisions: "
                    f"{', '.join(sorted(matches)[:5])}"
                )
        raise UnknownDecisionError(f"no decision {decision_id!r} in namespace {self.namespace}")

    def get(self, decision_id: str) -> Decision:
        """A decision by id (or unique prefix of at least 4 characters).

        Raises:
            UnknownDecisionError, AmbiguousIdError, CorruptRecordError.
        """
        full = self._resolve_id(decision_id)
        return self._effective(self.store.get_decisions([full]))[0]

    def decisions(self) -> list[Decision]:
        """Every decision in the namespace, oldest first (corrupt records skipped)."""
        found, bad = self.records()
        for exc in bad:
            log.warning("skipping a corrupt record: %s", exc)
        return self._effective(found)

    def tagged(self, tags: Iterable[str]) -> list[Decision]:
        """Every decision carrying any of ``tags``, effective lifecycle,
        oldest first (asked of Chroma as a ``where``: for narrow tags)."""
        found = self._effective(self.store.with_any("tags", list(tags)))
        found.sort(key=lambda d: (d.created_at, d.id))
        return found

    def snapshot(self, at: str | None = None) -> Snapshot:
        """The target of a read (``None``: the working tree)."""
        return self.git.snapshot(at)

    def verify(self, decision_id: str, at: str | None = None) -> Verdict:
        """The verdict on one decision at ``at``."""
        return self.verifier.verdict(self.get(decision_id), self.snapshot(at))

    def verdicts(self, decisions: Iterable[Decision], at: str | Snapshot | None = None, *,
                 now: float | None = None, on_verdict: OnVerdict | None = None) -> list[Verdict]:
        """Verdicts on the given decisions, their lifecycles taken as given.

        For callers that choose what to check: a filtered list, or decisions
        shown as they stood at another time (the audit checks a superseded
        decision as active at commits before its supersede).

        Args:
            decisions: What to check, in order.
            at: The target: a revision, ``None`` for the working tree, or a
                snapshot from :meth:`snapshot` (to check many lists at one
                target without resolving it again).
            now: The clock for expiry (seconds since the epoch); default now.
            on_verdict: Called once per decision as its verdict is made (in
                the order the work finishes, not the input order).

        Returns:
            One verdict per decision, in the input order.
        """
        snap = at if isinstance(at, Snapshot) else self.snapshot(at)
        with collector_paused():
            return self.verifier.verdicts(decisions, snap, now, on_verdict=on_verdict)

    def check(self, at: str | None = None, *, on_verdict: OnVerdict | None = None) -> list[Verdict]:
        """Verdicts on every decision in the namespace, whatever its status.

        A record that cannot be decoded is reported as ``needs_revalidation``
        with the reason, and every other decision is still checked.

        Args:
            at: The target (default: the working tree).
            on_verdict: Called once per verdict as it is made, corrupt
                records included (for a progress bar).
        """
        snap = self.snapshot(at)
        with collector_paused():  # thousands of records stay alive meanwhile
            found, bad = self.records()
            verdicts = self.verifier.verdicts(self._effective(found), snap, on_verdict=on_verdict)
        for exc in bad:
            verdicts.append(_corrupt_verdict(exc, snap.name))
            if on_verdict is not None:
                on_verdict(verdicts[-1])
        return verdicts

    def records(self) -> tuple[list[Decision], list[CorruptRecordError]]:
        """Every decision as stored, oldest first, and the records that did
        not decode.

        Unlike :meth:`decisions`, lifecycles are as written: a decision whose
        supersede was interrupted before its own record changed still reads
        ``active`` here (an export keeps what is stored, and an import then
        applies the same rule as any read).
        """
        found, bad = self.store.all_decisions()
        found.sort(key=lambda d: (d.created_at, d.id))
        return found, bad

    def count(self) -> int:
        """How many decision records the namespace holds (unreadable ones included)."""
        return self.store.count()

    @property
    def pinned_embedding(self) -> str:
        """The name of the embedding that made the stored vectors (``""``
        while nothing is stored)."""
        return self.store.pinned()

    @property
    def parses(self) -> int:
        """How many symbol tables this ledger has parsed (cache misses), for
        measuring how much a long walk reused."""
        return self.evidence.cache.parses

    def recall(self, query: str, k: int = 5, at: str | None = None,
               include: Iterable[str] = GROUPS, *, tags: str | Iterable[str] | None = None,
               paths: str | Iterable[str] | None = None) -> Recall:
        """Decisions relevant to ``query``, verified and grouped.

        Returns the ``k`` nearest decisions of the included groups: ``current``
        (verified), ``caution`` (unanchored, needs_revalidation, stale, each
        with its reason) and ``history`` (superseded, rejected, refuted,
        framed as such in their text).

        Args:
            query: What to recall, in plain words.
            k: How many decisions (0 returns none).
            at: Where to verify (``None``: the working tree).
            include: The groups to return; one string is one group.
            tags: Only decisions carrying any of these tags (one string is
                one tag).
            paths: Only decisions anchored at or under any of these
                repository-relative paths (files or folders).

        A filter never turns the query into a scan: candidates are
        over-fetched from the plain vector query and filtered here; only
        when the filter proves selective is it asked of Chroma as a
        ``where`` clause (see :mod:`memvet._filter`).

        Raises:
            UsageError: An empty query, a ``k`` that is not a whole number
                of zero or more, an unknown group, a bad tag or path.
        """
        if not isinstance(query, str) or not query.strip():
            raise UsageError("recall needs a non-empty query")
        check_k(k)
        include = check_include(include)
        wanted = make_filter(tags, paths)
        snap = self.snapshot(at)
        if k == 0:
            return group_recall(query, snap.name, [], 0, include)
        return self._recall(query, k, include, wanted, snap)

    def _recall(self, query: str, k: int, include: tuple[RecallGroup, ...], wanted: RecallFilter | None,
                snap: Snapshot) -> Recall:
        """The verified nearest decisions of :meth:`recall`, its arguments checked."""
        self._require_embedder()
        embedding = self.embedder.embed_query(query)
        # Every candidate counts when all groups are wanted and nothing is
        # filtered; otherwise over-fetch, since statuses are known only after
        # checking.
        plain = set(GROUPS) <= set(include) and wanted is None
        n = k if plain else max(4 * k, 20)
        ranked: list[tuple[Decision, float]] | None = None
        where: dict[str, Any] | None = None
        probed = False
        while True:
            scored = ranked[:n] if ranked is not None else self.store.query(embedding, n, where=where)
            fetched = len(scored)
            if wanted is not None:
                scored = [(d, s) for d, s in scored if wanted.matches(d)]
            decisions = self._effective([d for d, _ in scored])
            verdicts = self.verifier.verdicts(decisions, snap)
            pairs = [(v, s) for v, (_, s) in zip(verdicts, scored, strict=True)]
            enough = sum(1 for v, _ in pairs if v.status.group in include) >= k
            # Fewer results than asked for: the namespace is exhausted (a
            # corrupt record skipped by the store can only end this early).
            if enough or fetched < n:
                return group_recall(query, snap.name, pairs, k, include)
            if wanted is not None and not probed and n >= PLAIN_LIMIT and len(scored) * 100 < n:
                # Under 1% of the nearest records match: fetch the filter's
                # matches and rank them here when they are few; when they are
                # many (a broad filter that misses this query's neighbourhood)
                # widening the plain query could reach the whole namespace, so
                # Chroma's own `where` query (a bounded scan) answers instead.
                probed = True
                ranked = self.store.nearest_where(embedding, wanted.where(), SELECTIVE_LIMIT)
                if ranked is None:
                    where = wanted.where()
                n = max(4 * k, 20)
                continue
            n *= 4

    def proposals(self, at: str | None = None) -> list[Proposal]:
        """Every open proposal, oldest first, with what a reviewer needs:
        its verdict at ``at`` (each anchor checked) and the active decisions
        it collides with now."""
        snap = self.snapshot(at)
        found = [d for d in self.decisions() if d.lifecycle is Lifecycle.PROPOSED]
        # Each proposal's own stored vector: the same scores as at record
        # time, and no embedder needed (a review is a read).
        vectors = self.store.vectors([d.id for d in found])
        out = []
        for verdict in self.verifier.verdicts(found, snap):
            d = verdict.decision
            vector = vectors.get(d.id)
            neighbours = self.store.query(vector, 10) if vector is not None else []
            candidates = self._effective([n for n, _ in neighbours])
            conflicts, warnings = self._conflicts(candidates, {n.id: s for n, s in neighbours},
                                                  anchor_keys(d.anchors), snap, {d.id, d.supersedes})
            out.append(Proposal(verdict, tuple(conflicts), tuple(warnings)))
        return out

    def unconfirmed(self, at: str | None = None) -> list[Verdict]:
        """The active decisions with open findings of the write path (served
        as unconfirmed, never as current), oldest first, each with its
        verdict at ``at``. A person settles them with :meth:`resolve`, or
        corrects the claim (:meth:`supersede`)."""
        return self._active_with(lambda d: bool(d.findings), at)

    def requests(self, at: str | None = None) -> list[Verdict]:
        """The active decisions an agent asked to retire (reject, or
        supersede by a proposal) that no person has answered yet, oldest
        first, each with its verdict at ``at`` (served under caution with
        the request as its reason). A person answers with :meth:`approve`
        or :meth:`decline`."""
        return self._active_with(lambda d: d.retiring, at)

    def _active_with(self, awaits: Callable[[Decision], bool], at: str | None) -> list[Verdict]:
        """Verdicts at ``at`` on the active decisions ``awaits`` picks, oldest first."""
        found = [d for d in self.decisions() if d.lifecycle is Lifecycle.ACTIVE and awaits(d)]
        return self.verifier.verdicts(found, self.snapshot(at))

    def history(self, decision_id: str) -> list[Receipt]:
        """The receipts of one decision, oldest first."""
        return self.store.receipts_for(self._resolve_id(decision_id))

    def log(self) -> list[Receipt]:
        """Every receipt in the namespace, oldest first."""
        return self.store.receipts_for(None)

    # ================================================================= writes

    def _receipt(self, decision_id: str, action: ReceiptAction, before: str, after: str, *, reason: str,
                 author: Author | str, at: float, commit: str, related: str = "") -> Receipt:
        if not isinstance(author, Author):
            author = Author.person(author)
        return Receipt(
            id="r-" + _new_id(), decision_id=decision_id, action=action, from_lifecycle=before,
            to_lifecycle=after, reason=reason, author=author.name, at=at, commit=commit, related=related,
            author_kind=author.kind.value, via=author.via,
        )

    def repair(self) -> int:
        """Finish every lifecycle act that a crashed writer left half done.

        Writes do this on their own before writing; call it to settle a
        ledger without writing anything else. Returns how many acts it
        finished.
        """
        with self.store.writing():
            dropped = self.store.drop_stale()
            if dropped:
                log.info("dropped %d leftover vector collection(s) of an interrupted reembed", dropped)
            return self.store.replayed

    # ================================================================= the embedding

    def _require_embedder(self, *, pin: bool = False) -> None:
        """Check that this ledger's embedder made its stored vectors (and,
        with ``pin``, name it as theirs when there are none yet: called
        right before the first vector is written).

        Raises:
            UsageError: The vectors were made by another embedding; one line
                naming both and how to pass the right one.
        """
        stored = self.store.pinned()
        given = self.embedder.name
        if stored and stored != given:
            raise UsageError(
                f"this ledger's vectors were made by the embedding {stored!r}, not by {given!r} given here; "
                f"pass that one ({spec_for(stored)}; MEMVET_EMBEDDING, [tool.memvet] embedding or "
                f"Ledger.open(embedding=...)), or move the ledger to {given!r} with: "
                f"memvet reembed --embedding SPEC"
            )
        if pin and not stored:
            self.store.pin(given)

    def reembed(self, embedding: Any = None, *, on_progress: Callable[[int, int], None] | None = None) -> int:
        """Move the ledger to another embedding: every decision's claim is
        embedded again and the new vectors replace the old ones at once.

        Ids, lifecycles, supersede pointers, counters, receipts and the
        journal are kept as they are; acts a crashed writer left half done
        are finished first. Crash-safe: the new vectors are written beside
        the old ones and made current by one atomic pointer write, so a run
        killed at any point leaves either the old ledger or the new one
        (run it again, or :meth:`repair`, to drop the leftovers). A local
        ledger holds its write lock throughout; on a shared server, records
        another client wrote to the old vectors during the copy are brought
        across after the switch (stop other writers for a clean cut).

        Args:
            embedding: The new embedding (anything ``Ledger.open`` takes);
                default this ledger's own embedder. From now on this ledger
                records and recalls with it.
            on_progress: Called after each batch of claims is embedded, with
                how many are done and how many there are (a progress bar).

        Returns:
            How many decisions were re-embedded.

        Raises:
            UsageError: ``embedding`` is not an embedding, or it returned
                bad vectors (nothing changed).
        """
        if embedding is not None:
            embedder = load_embedding(embedding) if isinstance(embedding, str) else as_embedder(embedding)
        else:
            embedder = self.embedder
        total, done = (self.count() if on_progress is not None else 0), 0

        def embed(texts: list[str]) -> list[list[float]]:
            nonlocal done, total
            vectors = embedder.embed_documents(texts)
            if on_progress is not None:
                done += len(texts)
                total = max(total, done)  # another client may write meanwhile
                on_progress(done, total)
            return vectors

        with self.store.writing():
            count = self.store.reembed(embedder.name, embed)
        self.embedder = embedder
        return count

    def _author(self, author: AuthorLike) -> Author:
        """``author`` as an :class:`Author`: a plain name is a person; a
        person without a name is the repository's ``user.name``."""
        if isinstance(author, Author):
            if author.name or author.is_agent:
                return author
            return Author.person(self._git_user(), author.via)
        if author is not None and not isinstance(author, str):
            raise UsageError(f"author must be a memvet.Author or a name, not {type(author).__name__}")
        return Author.person((author or "").strip() or self._git_user())

    def _git_user(self) -> str:
        try:
            return str(self.git.repo.config["user.name"])
        except KeyError:
            return ""

    @staticmethod
    def _require_person(author: Author, act: str) -> None:
        """Refuse an agent where only a person may act.

        Raises:
            NotAllowedError: ``author`` is an agent; the message names the
                person's channels.
        """
        if author.is_agent:
            raise NotAllowedError(
                f"an agent ({author.name}) cannot {act}: that is a person's act, through `memvet {act} ID` "
                "in a terminal, MCP elicitation (the client asks its user) or a LangGraph interrupt()"
            )

    def _require_active(self, decision_id: str, *, proposals: bool = False) -> Decision:
        """The decision, if it is active (or, with ``proposals``, a proposal)."""
        decision = self.get(decision_id)
        if decision.lifecycle is Lifecycle.PROPOSED and not proposals:
            raise NotAllowedError(
                f"decision {decision.id} is a proposal, not yet reviewed; approve it first "
                f"(memvet approve {decision.id}) or reject it"
            )
        if decision.lifecycle not in (Lifecycle.ACTIVE, Lifecycle.PROPOSED):
            extra = f" by {decision.superseded_by}" if decision.superseded_by else ""
            raise NotAllowedError(
                f"decision {decision.id} is already {decision.lifecycle.value}{extra}; "
                "only an active decision can change"
            )
        return decision

    @staticmethod
    def _reason(reason: str | None, act: str) -> str:
        if reason is None or not str(reason).strip():
            raise UsageError(f"{act} needs a reason")
        return str(reason).strip()

    def resolve_anchors(self, anchors: Iterable[AnchorLike], at: str | None = None, *,
                        base: str | None = None) -> list[Anchor]:
        """Resolve anchor specs at ``at`` (nothing is written); a property's
        name gives one anchor per accessor (see :meth:`Evidence.resolve_all`).

        Raises:
            AnchorNotFoundError, AmbiguousSymbolError, UnsupportedFileError,
            PathOutsideRepositoryError, InvalidAnchorError.
        """
        return self._resolve_anchors(anchors, self.snapshot(at), base)

    def _resolve_anchors(self, anchors: Iterable[AnchorLike] | AnchorLike | None, snap: Snapshot,
                         base: str | None, claim: str = "") -> list[Anchor]:
        if anchors is None:
            anchors = []
        elif isinstance(anchors, (str, AnchorSpec)):
            anchors = [anchors]  # one anchor, never its characters
        specs = [parse_anchor(spec) for spec in anchors]
        named = frozenset(re.findall(r"[A-Za-z_]\w*", claim))  # the names a claim on a Go or Rust type reads
        resolved: dict[tuple[str, str], Anchor] = {}
        for spec in specs:
            try:
                found = self.evidence.resolve_all(spec, snap, base=base, named=named)
            except AnchorNotFoundError:
                package = self._named_package(spec, specs, base)
                if package is None:
                    raise
                found = self.evidence.resolve_all(dataclasses.replace(spec, scope=package), snap, base=base,
                                                  named=named)
            for anchor in found:
                resolved.setdefault((anchor_keys([anchor])[0], anchor.quote), anchor)
        return list(resolved.values())

    def _named_package(self, spec: AnchorSpec, specs: Sequence[AnchorSpec], base: str | None) -> str | None:
        """The package folder a dependency anchor with no folder means, when the same write anchors
        one package's manifest and no other (``impl/Cargo.toml`` beside ``dep:syn``): the writer
        has named the package, so its manifest counts (else None: the refusal stands)."""
        if spec.kind is not AnchorKind.DEPENDENCY or spec.scope:
            return None
        homes = set()
        for other in specs:
            if other.kind is AnchorKind.FILE and _manifests.is_manifest(other.path):
                homes.add(_manifests.manifest_home(self.git.normalize_path(other.path, base=base)))
        return homes.pop() if len(homes) == 1 and "" not in homes else None

    def bind_claim(self, claim: str, anchors: Sequence[Anchor], at: str | None = None, *,
                   unbound: Iterable[str] = ()) -> tuple[str, ...]:
        """Check that the claim's code-like terms occur in its evidence.

        Nothing is written. See :mod:`memvet._claims` for the term classes
        and where each binds.

        Args:
            claim: The claim.
            anchors: Its resolved anchors (from :meth:`resolve_anchors`).
            at: Where they were resolved; default the working tree.
            unbound: Terms declared deliberately unbound.

        Returns:
            The declared unbound terms, cleaned (what the decision stores).

        Raises:
            UnboundClaimError: Terms that occur nowhere in the evidence, one
                line each, with where it looked and what the code says.
            UsageError: A declared term that is not a code term of the claim.
        """
        return self._bind_claim(claim, anchors, self.snapshot(at), unbound)

    def _bind_claim(self, claim: str, anchors: Sequence[Anchor], snap: Snapshot,
                    unbound: Iterable[str]) -> tuple[str, ...]:
        """:meth:`bind_claim`: :meth:`_grade_claim`, with every finding a refusal."""
        declared, missing, contrary = self._doubts(claim, anchors, snap, unbound)
        if contrary:
            raise ClaimContradictsCodeError(render_refusal(missing, contrary), tuple(missing), tuple(contrary))
        if missing:
            raise UnboundClaimError(render_unbound(missing), tuple(missing))
        return declared

    def grade_claim(self, claim: str, anchors: Sequence[Anchor], at: str | None = None, *,
                    unbound: Iterable[str] = ()) -> tuple[str, ...]:
        """The write path's findings on a claim and its resolved anchors, as
        :meth:`record` would store them (nothing is written).

        Returns:
            One line per finding: a term the anchored code does not say, or
            a relation the code states otherwise (empty: the claim is bound).

        Raises:
            ClaimContradictsCodeError: A contradiction found by a rule of
                measured precision (:data:`CERTAIN_RULES`).
            UsageError: A declared term that is not a code term of the claim.
        """
        return self._grade_claim(claim, anchors, self.snapshot(at), unbound)[1]

    def _grade_claim(self, claim: str, anchors: Sequence[Anchor], snap: Snapshot,
                     unbound: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Grade, don't gate: the declared unbound terms and the findings.

        A write is refused only when it is certain to be wrong: here, a
        contradiction found by a rule whose precision was measured
        (:data:`CERTAIN_RULES`). Every other doubt (a term
        the anchored code does not say, a relation the code states
        otherwise by a rule not proven precise) is a finding the decision
        carries: it is served under caution as unconfirmed until a person
        resolves it (:meth:`resolve`) or the claim is corrected.
        """
        declared, missing, contrary = self._doubts(claim, anchors, snap, unbound)
        certain = [c for c in contrary if c.rule in CERTAIN_RULES]
        if certain:
            raise ClaimContradictsCodeError(render_refusal([], certain), (), tuple(certain))
        findings = tuple(dict.fromkeys([*(t.line() for t in missing), *(c.line() for c in contrary)]))
        return declared, findings

    def _doubts(self, claim: str, anchors: Sequence[Anchor], snap: Snapshot, unbound: Iterable[str]
                ) -> tuple[tuple[str, ...], list[UnboundTerm], list[Contradiction]]:
        """The declared unbound terms, the terms that bind nowhere and the
        contradictions of a claim with its anchored evidence."""
        if isinstance(unbound, str):
            unbound = [unbound]
        declared = tuple(dict.fromkeys(fold(str(u)).strip().strip("`") for u in unbound if fold(str(u)).strip()))
        claim = fold_and_check(claim, "the claim")
        terms = claim_terms(claim)
        texts = [t.text for t in terms]
        # A declared word is a term of the claim, or a word a relation rule
        # compares (`chardet` in "falls back to chardet").
        stray = [u for u in declared if u not in texts and not re.search(rf"(?<![\w$]){re.escape(u)}(?![\w$])", claim)]
        if stray:
            listed = ", ".join(f"`{t}`" for t in texts) or "none"
            raise UsageError(f"unbound term {stray[0]!r} is not a code term of the claim (its terms: {listed})")
        if not anchors:
            return declared, [], []  # nothing to bind to: it reads `unanchored`, never `verified`
        evidence = self.evidence.claim_evidence(anchors, snap)
        missing = bind(claim, evidence, exists=lambda term: self.evidence.names_exist(term, snap, anchors),
                       unbound=declared, terms=terms)
        contrary = contradictions(claim, evidence, declared=declared, terms=terms)
        # "sign uses `sha512`" where sha512 binds nowhere: the unbound term says it; the calls rule's
        # "never mentions it" would say it twice
        unbound_texts = {t.term.text for t in missing}
        contrary = [c for c in contrary if not (c.rule == "calls" and set(c.operands) & unbound_texts)]
        return declared, missing, contrary

    def record(self, claim: str, anchors: Iterable[AnchorLike] = (), *, supersedes: str | None = None,
               reason: str | None = None, tags: Iterable[str] = (), author: AuthorLike = None,
               at: str | None = None, on_conflict: str = "warn", expires_at: float | None = None,
               base: str | None = None, unbound: Iterable[str] = (), proposed: bool | None = None,
               confirm_duplicates: bool = True) -> RecordResult:
        """Record a decision with its evidence.

        Args:
            claim: The decision, in one or a few sentences.
            anchors: Evidence: ``"path::Qualified.name"``, ``"path"``,
                ``"dep:name>=1"``, ``"import:module"``, ``"pattern:regex"``
                or specs from :func:`memvet.symbol` and friends.
            supersedes: Id of the active decision this one replaces (needs ``reason``).
            reason: Why (required with ``supersedes``).
            tags: Free labels.
            author: Who: an :class:`Author`, or a person's name; default the
                person named by the repository's ``user.name``. An agent
                never retires a decision on its own: its write that names
                ``supersedes`` is always a proposal, and the decision it
                would replace stays as it is, served under caution with the
                request, until a person approves or declines it.
            at: Where to resolve anchors; default the working tree.
            on_conflict: ``"warn"`` (record and report conflicts) or
                ``"error"`` (raise :class:`ConflictError`, write nothing).
            expires_at: When the decision needs a person to confirm it again.
            base: Folder that relative paths start from (the CLI passes the
                current directory); default the repository root.
            unbound: Code-like terms of the claim that are deliberately not
                in the anchored evidence (shown as such by ``show`` and
                recall); every other term must occur in it.
            proposed: Write a proposal: served as ``proposed, not yet
                reviewed`` until :meth:`approve`. A proposal that names
                ``supersedes`` replaces nothing until it is approved.
                Default (``None``): a person's write is active, an agent's
                follows :attr:`agent_writes` (read from the committed
                ``[tool.memvet] agent-writes``; proposals by default).
            confirm_duplicates: ``False`` always writes a new decision, even
                for a near duplicate with the same anchors (the LangGraph
                store: two items with one claim are still two items).

        Returns:
            What happened: ``recorded``, ``superseded``, ``proposed``, or
            ``confirmed`` (a near duplicate of an active decision, or for a
            proposal of an open proposal, with the same anchors, whose
            confirmation counter went up instead of adding a copy).

        Raises:
            UsageError and its subclasses for bad input (nothing is written):
            UnboundClaimError for claim terms its evidence does not contain,
            QuoteNotFoundError for a quote not in its span;
            AnchorNotFoundError for an anchor that does not resolve.
        """
        with self.store.writing():
            return self._record(claim, anchors, supersedes=supersedes, reason=reason, tags=tags,
                                author=author, at=at, on_conflict=on_conflict, expires_at=expires_at,
                                base=base, unbound=unbound, proposed=proposed,
                                confirm_duplicates=confirm_duplicates)

    def _record(self, claim: str, anchors: Iterable[AnchorLike], *, supersedes: str | None,
                reason: str | None, tags: Iterable[str], author: AuthorLike, at: str | None,
                on_conflict: str, expires_at: float | None, base: str | None,
                unbound: Iterable[str] = (), proposed: bool | None = None,
                confirm_duplicates: bool = True) -> RecordResult:
        """:meth:`record` under the write lock, step by step: check the input
        and bind the claim (nothing written yet), embed it, confirm a near
        duplicate instead of adding a copy, look for collisions, then write
        one journaled act and settle a supersede race."""
        draft = self._draft(claim, anchors, supersedes=supersedes, reason=reason, tags=tags, author=author,
                            at=at, on_conflict=on_conflict, base=base, unbound=unbound, proposed=proposed)
        self._require_embedder()
        embedding = self.embedder.embed_documents([draft.claim])[0]
        neighbours = self.store.query(embedding, 10)
        candidates = self._effective([d for d, _ in neighbours])
        scores = {d.id: s for d, s in neighbours}
        duplicate, open_proposals = self._duplicate(draft, candidates, scores, confirm_duplicates)
        if duplicate is not None:
            return self._confirm(duplicate, draft.author, draft.now, draft.snap.base_commit)
        conflicts, warnings = self._collisions(draft, candidates, scores, open_proposals, on_conflict)
        decision = draft.decision(expires_at)
        self._require_embedder(pin=True)  # the first decision stored pins the embedding
        self._write_record(draft, decision, embedding)
        if draft.old is not None and not draft.proposed:
            self._settle_race(draft.old, decision, draft.author, draft.snap.base_commit)
        if draft.proposed:
            outcome = RecordOutcome.PROPOSED
        else:
            outcome = RecordOutcome.SUPERSEDED if draft.old else RecordOutcome.RECORDED
        return RecordResult(decision, outcome, tuple(conflicts), tuple(warnings))

    def _draft(self, claim: str, anchors: Iterable[AnchorLike], *, supersedes: str | None, reason: str | None,
               tags: Iterable[str], author: AuthorLike, at: str | None, on_conflict: str, base: str | None,
               unbound: Iterable[str], proposed: bool | None) -> _Draft:
        """The write's input checked, its anchors resolved and its claim bound.

        Raises:
            UsageError and its subclasses (see :meth:`record`); nothing is written.
        """
        if not isinstance(claim, str) or not claim.strip():
            raise UsageError("a decision needs a non-empty claim")
        if len(claim) > 4 * MAX_CLAIM_CHARS:  # before folding, which can lengthen text
            raise UsageError(f"the claim is {len(claim)} characters; the limit is {MAX_CLAIM_CHARS}")
        # NFKC, invisible characters out, look-alike identifiers refused (memvet._unicode).
        claim = fold_and_check(claim, "the claim").strip()
        if not claim:
            raise UsageError("a decision needs a non-empty claim")
        if len(claim) > MAX_CLAIM_CHARS:
            raise UsageError(f"the claim is {len(claim)} characters; the limit is {MAX_CLAIM_CHARS}")
        if on_conflict not in ("warn", "error"):
            raise UsageError(f"on_conflict must be 'warn' or 'error', not {on_conflict!r}")
        if tags is None:
            tags = ()
        elif isinstance(tags, str):
            tags = (tags,)  # one tag, never its characters
        cleaned = tuple(dict.fromkeys(str(t).strip() for t in tags if str(t).strip()))
        writer = self._author(author)
        if proposed is None:
            # A person's write is current at once; an agent's follows the
            # committed policy (`agent-writes`, proposals by default).
            proposed = writer.is_agent and self.agent_writes == "proposed"
        old = None
        if supersedes:
            reason = self._reason(reason, "a supersede")
            old = self._require_active(supersedes)
            if writer.is_agent:
                proposed = True  # agents retire nothing on their own
        snap = self.snapshot(at)
        resolved = tuple(self._resolve_anchors(anchors, snap, base, claim))
        declared, findings = self._grade_claim(claim, resolved, snap, unbound)
        return _Draft(claim=claim, anchors=resolved, declared=declared, findings=findings, tags=cleaned, old=old,
                      reason=reason or "", author=writer, now=self.clock(), snap=snap,
                      proposed=proposed, namespace=self.namespace)

    def _duplicate(self, draft: _Draft, candidates: Sequence[Decision], scores: dict[str, float],
                   confirm_duplicates: bool) -> tuple[Decision | None, list[Decision]]:
        """The near duplicate with the same evidence to confirm instead of
        writing (an active decision, or for a proposal an open proposal that
        supersedes the same one), else ``None`` and the open proposals that
        make the same claim (a warning each). A write with a finding the
        other decision lacks is never its duplicate: confirming would drop
        the finding and serve the claim as the other one (etag's false
        "throws a RangeError(...)" confirmed its true "throws a
        TypeError(...)" and read as current)."""
        open_proposals: list[Decision] = []
        if not confirm_duplicates:
            return None, open_proposals
        for d in candidates:
            if scores[d.id] < self.duplicate_threshold or _evidence(d.anchors) != _evidence(draft.anchors):
                continue
            if set(draft.findings) - set(d.findings):
                continue  # "throws a RangeError(...)" beside "throws a TypeError(...)": a doubt of its own
            if d.lifecycle is Lifecycle.ACTIVE and draft.old is None:
                return d, []
            if d.lifecycle is Lifecycle.PROPOSED:
                if draft.proposed and d.supersedes == (draft.old.id if draft.old else ""):
                    return d, []
                open_proposals.append(d)
        return None, open_proposals

    def _collisions(self, draft: _Draft, candidates: Sequence[Decision], scores: dict[str, float],
                    open_proposals: Sequence[Decision], on_conflict: str) -> tuple[list[Conflict], list[str]]:
        """The write's conflicts and warnings.

        Raises:
            ConflictError: There are conflicts and ``on_conflict`` is ``"error"``.
        """
        skip = {draft.old.id} if draft.old else set()
        conflicts, warnings = self._conflicts(candidates, scores, anchor_keys(draft.anchors), draft.snap, skip)
        warnings.extend(f"the same claim is proposed as {d.id}, awaiting review: approve or reject it"
                        for d in open_proposals)
        if conflicts and on_conflict == "error":
            ids = ", ".join(c.decision.id for c in conflicts)
            raise ConflictError(
                f"conflicts with active decision(s) {ids}; supersede them explicitly "
                "(--supersedes ID --reason R) or record with on_conflict='warn'",
                tuple(conflicts),
            )
        return conflicts, warnings

    def _write_record(self, draft: _Draft, decision: Decision, embedding: Sequence[float]) -> None:
        """Write the decision as one journaled act, with its receipts.

        Crash safety: a plain record is journaled too (a write that fails
        after its decision landed is finished with its receipt). The
        successor (with its pointer) is written first, so a read already
        treats the old decision as superseded from that moment; the old
        record's update and the receipts follow, and a crash or failure in
        between is finished by the next write (:meth:`repair`). A proposal
        replaces nothing yet (only an active successor supersedes): one new
        record and its receipt.
        """
        old, now, commit = draft.old, draft.now, draft.snap.base_commit
        action = ReceiptAction.PROPOSE if draft.proposed else ReceiptAction.RECORD
        receipts = [self._receipt(decision.id, action, "", decision.lifecycle.value, reason=draft.reason,
                                  author=draft.author, at=now, commit=commit, related=old.id if old else "")]
        updates = []
        if old is not None and draft.proposed and draft.author.is_agent:
            # The decision it would replace is served under caution with the
            # request until a person answers it (one journaled act: both land).
            updates.append(old.evolve(retire_reason=draft.reason, retire_by=draft.author.name,
                                      retire_with=decision.id))
            receipts.append(self._receipt(old.id, ReceiptAction.PROPOSE_RETIRE, Lifecycle.ACTIVE.value,
                                          Lifecycle.ACTIVE.value, reason=draft.reason, author=draft.author,
                                          at=now, commit=commit, related=decision.id))
        if old is not None and not draft.proposed:
            receipts.append(self._receipt(old.id, ReceiptAction.SUPERSEDE, Lifecycle.ACTIVE.value,
                                          Lifecycle.SUPERSEDED.value, reason=draft.reason, author=draft.author,
                                          at=now, commit=commit, related=decision.id))
            updates.append(old.evolve(lifecycle=Lifecycle.SUPERSEDED, superseded_by=decision.id,
                                      reason=draft.reason, resolved_at=now))
            action = ReceiptAction.SUPERSEDE
        self.store.apply(Intent(action, add=(decision, tuple(embedding)), updates=tuple(updates),
                                receipts=tuple(receipts)))

    def _settle_race(self, old: Decision, mine: Decision, author: Author, commit: str) -> None:
        """Never two current successors: when two writers of a shared server
        superseded the same decision at once, the earliest successor wins and
        the later one is withdrawn (kept as rejected history)."""
        rivals = self.store.successors(old.id)
        if not rivals or rivals[0].id == mine.id or all(r.id != mine.id for r in rivals):
            return
        winner = rivals[0]
        why = f"lost a race: {old.id} was superseded concurrently by {winner.id}"
        now = self.clock()
        settled = old.evolve(lifecycle=Lifecycle.SUPERSEDED, superseded_by=winner.id, reason=winner.reason,
                             resolved_at=winner.created_at)
        self.store.apply(Intent(ReceiptAction.REJECT, updates=(mine.evolve(lifecycle=Lifecycle.REJECTED, reason=why,
                                                                resolved_at=now), settled),
                                receipts=(self._receipt(mine.id, ReceiptAction.REJECT, Lifecycle.ACTIVE.value,
                                                        Lifecycle.REJECTED.value, reason=why, author=author,
                                                        at=now, commit=commit),)))
        raise ConflictError(f"{why}; your decision {mine.id} was withdrawn. Supersede {winner.id} instead",
                            ())

    def _conflict(self, decision: Decision, snap: Snapshot, why: str) -> Conflict:
        return Conflict(decision, self.verifier.verdict(decision, snap).status, why)

    def _conflicts(self, candidates: Sequence[Decision], scores: dict[str, float], keys: Sequence[str],
                   snap: Snapshot, skip: set[str]) -> tuple[list[Conflict], list[str]]:
        """Active decisions a claim collides with (sharing an anchor, or a
        near neighbour), and warnings for rejected near neighbours.

        Args:
            candidates: The claim's nearest decisions, effective lifecycle.
            scores: Their similarity to the claim, by id.
            keys: The claim's anchor keys.
            snap: Where conflicting decisions are verified.
            skip: Ids that never count (the decision itself, what it supersedes).
        """
        conflicts: list[Conflict] = []
        warnings: list[str] = []
        seen: set[str] = set()
        sharing = self._effective(self.store.with_any("anchor_keys", keys)) if keys else []
        for d in sharing:
            if d.lifecycle is Lifecycle.ACTIVE and d.id not in skip:
                shared = sorted(set(anchor_keys(d.anchors)) & set(keys))
                conflicts.append(self._conflict(d, snap, f"shares anchor {', '.join(shared)}"))
                seen.add(d.id)
        for d in candidates:
            score = scores[d.id]
            if d.id in skip or d.id in seen or score < self.similarity_threshold:
                continue
            if d.lifecycle is Lifecycle.ACTIVE:
                conflicts.append(self._conflict(d, snap, f"a similar claim (similarity {score:.2f})"))
                seen.add(d.id)
            elif d.lifecycle is Lifecycle.REJECTED:
                warnings.append(
                    f"close to decision {d.id} (similarity {score:.2f}): previously tried, rejected: "
                    f"{d.reason or 'no reason given'}"
                )
        return conflicts, warnings

    def _confirm(self, decision: Decision, author: Author, now: float, commit: str) -> RecordResult:
        updated = decision.evolve(confirmations=decision.confirmations + 1)
        state = decision.lifecycle.value
        receipt = self._receipt(decision.id, ReceiptAction.CONFIRM, state, state, reason="recorded again",
                                author=author, at=now, commit=commit)
        self.store.apply(Intent(ReceiptAction.CONFIRM, updates=(updated,), receipts=(receipt,)))
        return RecordResult(updated, RecordOutcome.CONFIRMED)

    def supersede(self, old_id: str, claim: str, anchors: Iterable[AnchorLike] = (), *, reason: str,
                  tags: Iterable[str] = (), author: AuthorLike = None, at: str | None = None,
                  base: str | None = None, unbound: Iterable[str] = (), proposed: bool | None = None) -> RecordResult:
        """Replace an active decision with a new one; the old one becomes history.

        The new claim is bound to its evidence as in :meth:`record`. With
        ``proposed=True`` the new decision is a proposal and the old one stays
        current until the proposal is approved (:meth:`approve`). An agent's
        supersede is always such a proposal, and the old decision is served
        under caution with the agent's reason until a person answers it.
        """
        return self.record(claim, anchors, supersedes=old_id, reason=reason, tags=tags, author=author,
                           at=at, base=base, unbound=unbound, proposed=proposed)

    def approve(self, decision_id: str, *, reason: str | None = None, author: AuthorLike = None) -> Decision:
        """A person's approval: of a proposal (it becomes active, and if it
        names a decision it supersedes, that one becomes history now), or of
        an agent's open request to retire an active decision (it is rejected,
        or superseded by the proposal the agent wrote, now).

        The supersede is crash-safe like :meth:`supersede`'s: one journaled
        act whose first write makes the approved decision active (from then
        on a read treats the old one as superseded by its pointer), followed
        by the old record's update and the receipts.

        Args:
            decision_id: The proposal's id, or the id of an active decision
                an agent asked to retire (or a unique prefix).
            reason: What the reviewer checked (kept in the receipt).
            author: The person who approves (an :class:`Author` or a name);
                default the repository's ``user.name``. The receipt keeps
                the channel (``Author.person(name, via=...)``).

        Returns:
            The approved decision (for a retire request, the decision as
            retired).

        Raises:
            NotAllowedError: The approver is an agent, or is the proposal's
                own author; it is neither a proposal nor a decision with an
                open retire request; or the decision it supersedes is no
                longer active.
            UnknownDecisionError, AmbiguousIdError.
        """
        approver = self._author(author)
        self._require_person(approver, "approve")
        with self.store.writing():
            decision = self.get(decision_id)
            if decision.lifecycle is Lifecycle.ACTIVE and decision.retiring:
                if decision.retire_with:
                    return self._retire(decision, self._approve(self.get(decision.retire_with), approver, reason))
                return self._reject(decision, decision.retire_reason, approver,
                                    note=f"approved the request of {decision.retire_by} (agent)"
                                         + (f": {reason.strip()}" if reason and reason.strip() else ""))
            if decision.lifecycle is not Lifecycle.PROPOSED:
                raise NotAllowedError(
                    f"decision {decision.id} is {decision.lifecycle.value}, not a proposal; only a proposal can be "
                    "approved (or an agent's open request to retire an active decision)"
                )
            return self._approve(decision, approver, reason)

    def _approve(self, decision: Decision, approver: Author, reason: str | None) -> Decision:
        if decision.lifecycle is not Lifecycle.PROPOSED:
            raise NotAllowedError(f"decision {decision.id} is {decision.lifecycle.value}, not a proposal; "
                                  "only a proposal can be approved")
        if approver.same_as(decision.author, decision.author_kind):
            raise NotAllowedError(
                f"{approver.name} proposed {decision.id} and cannot also approve it: another person reviews a "
                "proposal (to make your own claim current, record it without --propose)"
            )
        old = self.get(decision.supersedes) if decision.supersedes else None
        if old is not None and old.lifecycle is not Lifecycle.ACTIVE:
            by = f" by {old.superseded_by}" if old.superseded_by else ""
            raise NotAllowedError(
                f"cannot approve {decision.id}: the decision it supersedes, {old.id}, is already "
                f"{old.lifecycle.value}{by}; record anew or supersede the current one"
            )
        now = self.clock()
        commit = str(self.git.head_commit().id)
        approved = decision.evolve(lifecycle=Lifecycle.ACTIVE)
        receipts = [self._receipt(decision.id, ReceiptAction.APPROVE, Lifecycle.PROPOSED.value,
                                  Lifecycle.ACTIVE.value,
                                  reason=(reason or "").strip(), author=approver, at=now, commit=commit,
                                  related=old.id if old else "")]
        updates = [approved]
        if old is not None:
            updates.append(old.evolve(lifecycle=Lifecycle.SUPERSEDED, superseded_by=decision.id,
                                      reason=decision.reason, resolved_at=now, retire_reason="", retire_by="",
                                      retire_with=""))
            receipts.append(self._receipt(old.id, ReceiptAction.SUPERSEDE, Lifecycle.ACTIVE.value,
                                          Lifecycle.SUPERSEDED.value, reason=decision.reason, author=approver,
                                          at=now, commit=commit, related=decision.id))
        self.store.apply(Intent(ReceiptAction.APPROVE, updates=tuple(updates), receipts=tuple(receipts)))
        if old is not None:
            self._settle_race(old, approved, approver, commit)
        return approved

    def _retire(self, decision: Decision, successor: Decision) -> Decision:
        """``decision`` as the approval of ``successor`` left it (superseded)."""
        return self.get(decision.id) if successor.lifecycle is Lifecycle.ACTIVE else decision

    def reject(self, decision_id: str, *, reason: str, author: AuthorLike = None) -> Decision:
        """Retract a decision (tried, did not work), or turn down a proposal.
        It stays as history.

        An agent retires nothing on its own: its reject of an active
        decision, or of a proposal it did not write, is a request that a
        person approves or declines (:meth:`approve`, :meth:`decline`); the
        decision keeps its lifecycle, served under caution with the request.
        An agent may withdraw its own proposal.

        Returns:
            The decision as it now stands (rejected, or with the request).
        """
        reason = self._reason(reason, "a rejection")
        writer = self._author(author)
        with self.store.writing():
            decision = self._require_active(decision_id, proposals=True)
            own_proposal = (decision.lifecycle is Lifecycle.PROPOSED
                            and writer.same_as(decision.author, decision.author_kind))
            if writer.is_agent and not own_proposal:
                return self._request_retire(decision, reason, writer)
            return self._reject(decision, reason, writer)

    def _reject(self, decision: Decision, reason: str, author: Author, note: str = "") -> Decision:
        now = self.clock()
        commit = str(self.git.head_commit().id)
        # The decision's own record changes first (one atomic update), so
        # reads see the rejection the moment it lands; the receipt follows.
        updated = decision.evolve(lifecycle=Lifecycle.REJECTED, reason=reason, resolved_at=now,
                                  retire_reason="", retire_by="", retire_with="")
        updates = [updated]
        receipts = [self._receipt(decision.id, ReceiptAction.REJECT, decision.lifecycle.value,
                                  Lifecycle.REJECTED.value, reason=reason + (f" ({note})" if note else ""),
                                  author=author, at=now, commit=commit)]
        if decision.lifecycle is Lifecycle.PROPOSED and decision.supersedes:
            # A turned-down proposal's request on the decision it would replace ends with it.
            old = self._request_target(decision)
            if old is not None:
                updates.append(old.evolve(retire_reason="", retire_by="", retire_with=""))
        self.store.apply(Intent(ReceiptAction.REJECT, updates=tuple(updates), receipts=tuple(receipts)))
        return updated

    def _request_target(self, proposal: Decision) -> Decision | None:
        """The active decision whose open retire request is ``proposal``, if any."""
        try:
            old = self.get(proposal.supersedes)
        except UnknownDecisionError:
            return None
        if old.lifecycle is Lifecycle.ACTIVE and old.retire_with == proposal.id:
            return old
        return None

    def _request_retire(self, decision: Decision, reason: str, agent: Author) -> Decision:
        now = self.clock()
        commit = str(self.git.head_commit().id)
        updated = decision.evolve(retire_reason=reason, retire_by=agent.name, retire_with="")
        state = decision.lifecycle.value
        receipt = self._receipt(decision.id, ReceiptAction.PROPOSE_RETIRE, state, state,
                                reason=reason, author=agent, at=now, commit=commit)
        self.store.apply(Intent(ReceiptAction.PROPOSE_RETIRE, updates=(updated,), receipts=(receipt,)))
        return updated

    def decline(self, decision_id: str, *, reason: str, author: AuthorLike = None) -> Decision:
        """A person turns down an agent's request to retire a decision (it
        stays as it is, served as before), or turns down a proposal (as
        :meth:`reject` does).

        Raises:
            NotAllowedError: The author is an agent; or there is no open
                request or proposal to decline.
        """
        reason = self._reason(reason, "a decline")
        person = self._author(author)
        self._require_person(person, "decline")
        with self.store.writing():
            decision = self.get(decision_id)
            if decision.lifecycle is Lifecycle.PROPOSED:
                return self._reject(decision, reason, person, note="declined")
            if decision.lifecycle is not Lifecycle.ACTIVE or not decision.retiring:
                raise NotAllowedError(
                    f"decision {decision.id} is {decision.lifecycle.value} with no open request to retire it; "
                    "nothing to decline"
                )
            now = self.clock()
            commit = str(self.git.head_commit().id)
            updates = [decision.evolve(retire_reason="", retire_by="", retire_with="")]
            receipts = [self._receipt(decision.id, ReceiptAction.DECLINE, Lifecycle.ACTIVE.value,
                                      Lifecycle.ACTIVE.value, reason=reason, author=person, at=now,
                                      commit=commit, related=decision.retire_with)]
            if decision.retire_with:
                successor = self.store.get_decisions([decision.retire_with])
                if successor and successor[0].lifecycle is Lifecycle.PROPOSED:
                    updates.append(successor[0].evolve(lifecycle=Lifecycle.REJECTED, reason=reason,
                                                       resolved_at=now))
                    receipts.append(self._receipt(successor[0].id, ReceiptAction.REJECT,
                                                  Lifecycle.PROPOSED.value, Lifecycle.REJECTED.value,
                                                  reason=reason + " (declined)", author=person, at=now,
                                                  commit=commit, related=decision.id))
            self.store.apply(Intent(ReceiptAction.DECLINE, updates=tuple(updates), receipts=tuple(receipts)))
            return updates[0]

    def reopen(self, decision_id: str, *, reason: str, author: AuthorLike = None) -> Decision:
        """A person makes a rejected decision active again (its rejection
        stays in the receipts). It is verified at every read as before.

        Raises:
            NotAllowedError: The author is an agent, or the decision is not rejected.
        """
        reason = self._reason(reason, "a reopen")
        person = self._author(author)
        self._require_person(person, "reopen")
        with self.store.writing():
            decision = self.get(decision_id)
            if decision.lifecycle is not Lifecycle.REJECTED:
                raise NotAllowedError(
                    f"decision {decision.id} is {decision.lifecycle.value}; only a rejected decision can be reopened"
                )
            now = self.clock()
            commit = str(self.git.head_commit().id)
            updated = decision.evolve(lifecycle=Lifecycle.ACTIVE, reason="", resolved_at=0.0)
            receipt = self._receipt(decision.id, ReceiptAction.REOPEN, Lifecycle.REJECTED.value,
                                    Lifecycle.ACTIVE.value, reason=reason, author=person, at=now, commit=commit)
            self.store.apply(Intent(ReceiptAction.REOPEN, updates=(updated,), receipts=(receipt,)))
            return updated

    def resolve(self, decision_id: str, *, reason: str, quote: str | None = None, anchor: str | None = None,
                unbound: Iterable[str] = (), author: AuthorLike = None) -> Decision:
        """A person settles the write path's findings on a decision.

        Two ways, as a reviewer would: quote the line of the anchored code
        that says the claim (the quote becomes evidence, checked at every
        read like any quote: if that line changes, the decision goes stale;
        every finding is settled, on the person's word, which the receipt
        keeps), or declare terms deliberately unbound (visible wherever the
        decision is shown; the claim is graded again without them and what
        is left stays open). To correct the claim itself, supersede it.

        Args:
            decision_id: The decision (active or proposed) with findings.
            reason: What the person checked (kept in the receipt).
            quote: Code that says the claim, found in one of its anchored
                symbols or files at the commit it was recorded at.
            anchor: The anchor (as written, ``path::Name`` or ``path``) the
                quote is in; default the first that holds it.
            unbound: Terms of the claim to declare unbound.
            author: The person (an agent cannot resolve).

        Returns:
            The decision with what is left of its findings.

        Raises:
            NotAllowedError: The author is an agent, the decision is not
                active or proposed, or it has no findings.
            QuoteNotFoundError: The quote is in none of its anchors (or not
                in the one named).
            UsageError: Neither a quote nor an unbound term given, or a
                declared term that is not a term of the claim.
        """
        reason = self._reason(reason, "a resolution")
        person = self._author(author)
        self._require_person(person, "resolve")
        terms = [unbound] if isinstance(unbound, str) else list(unbound)
        if quote:
            quote = fold_and_check(quote, "the quote")  # as every quote is on the way in
        if not quote and not terms:
            raise UsageError("resolve takes a quote of the code that says the claim (--quote) or the terms to "
                             "declare unbound (--unbound)")
        with self.store.writing():
            decision = self._require_active(decision_id, proposals=True)
            if not decision.findings:
                raise NotAllowedError(f"decision {decision.id} has no open findings; nothing to resolve")
            snap = self.snapshot(decision.commit or None)
            anchors = list(decision.anchors)
            findings: tuple[str, ...] = decision.findings
            declared = decision.unbound
            if terms:
                declared, findings = self._grade_claim(decision.claim, anchors, snap, [*decision.unbound, *terms])
            if quote:
                anchors.append(self._quote_anchor(decision, quote, anchor, snap))
                findings = ()
            now = self.clock()
            updated = decision.evolve(anchors=tuple(anchors), unbound=declared, findings=findings)
            settled = len(decision.findings) - len(findings)
            state = decision.lifecycle.value
            receipt = self._receipt(decision.id, ReceiptAction.RESOLVE, state, state,
                                    reason=f"{reason} ({settled} of {len(decision.findings)} findings settled"
                                           + (f" by the quote `{' '.join(quote.split())}`" if quote else "")
                                           + (f"; declared unbound: {', '.join(terms)}" if terms else "") + ")",
                                    author=person, at=now, commit=snap.base_commit)
            self.store.apply(Intent(ReceiptAction.RESOLVE, updates=(updated,), receipts=(receipt,)))
            return updated

    def _quote_anchor(self, decision: Decision, quote: str, anchor: str | None, snap: Snapshot) -> Anchor:
        """A new anchor: the one of ``decision`` holding ``quote`` at ``snap``, quoted."""
        candidates = [a for a in decision.anchors if a.kind in (AnchorKind.SYMBOL, AnchorKind.FILE)
                      and (anchor is None or a.spec == anchor.strip())]
        if anchor is not None and not candidates:
            names = ", ".join(a.spec for a in decision.anchors) or "none"
            raise UsageError(f"{anchor!r} is not a symbol or file anchor of {decision.id} (its anchors: {names})")
        last: QuoteNotFoundError | None = None
        for held in candidates:
            try:
                return self.evidence.resolve(with_quote(parse_anchor(held.spec), quote), snap)
            except QuoteNotFoundError as exc:
                last = exc
        if last is not None:
            raise last
        raise QuoteNotFoundError(f"decision {decision.id} has no symbol or file anchor to quote from")

    def revalidate(self, decision_id: str, *, reason: str, author: AuthorLike = None,
                   at: str | None = None) -> Verdict:
        """Re-baseline a decision's anchors at the code as it is now, after a
        person confirmed the claim still holds. Moved anchors follow the move.

        Raises:
            AnchorNotFoundError: an anchor is gone; supersede or reject instead.
            NotAllowedError: The author is an agent (a revalidation makes a
                drifted decision current again: a person's act).
        """
        reason = self._reason(reason, "a revalidation")
        person = self._author(author)
        self._require_person(person, "revalidate")
        with self.store.writing():
            decision = self._require_active(decision_id)
            snap = self.snapshot(at)
            specs: list[AnchorSpec] = []
            for anchor in decision.anchors:
                check = self.evidence.check(anchor, snap, decision.commit)
                if check.result in (AnchorResult.MISSING, AnchorResult.VIOLATED):
                    raise AnchorNotFoundError(
                        f"cannot revalidate {decision.id}: {check.detail}; supersede or reject it instead"
                    )
                specs.append(_respec(anchor, check.new_path, check.new_name))
            anchors = [self.evidence.resolve(spec, snap) for spec in specs]
            now = self.clock()
            receipt = self._receipt(decision.id, ReceiptAction.REVALIDATE, Lifecycle.ACTIVE.value,
                                    Lifecycle.ACTIVE.value,
                                    reason=reason, author=person, at=now, commit=snap.base_commit)
            updated = decision.evolve(anchors=tuple(anchors), commit=snap.base_commit,
                                      hash_version=_code.HASH_VERSION, expires_at=0.0)
            self.store.apply(Intent(ReceiptAction.REVALIDATE, updates=(updated,), receipts=(receipt,)))
            return self.verifier.verdict(updated, snap)

    # ================================================================= by path

    def about(self, paths: Iterable[str] = (), *, diff: str | None = None, at: str | None = None,
              include: Iterable[str] = GROUPS, base: str | None = None) -> Recall:
        """The decisions resting on what you touch: anchored in ``paths`` (files,
        folders, globs, ``path::Symbol``) and/or in the files changed since
        the revision ``diff``, verified at ``at`` and grouped like
        :meth:`recall`. See :func:`memvet._about.about`.
        """
        return about(self, paths, diff=diff, at=at, include=include, base=base)


def require_ledger(value: Any, owner: str) -> Ledger:
    """``value`` if it is a :class:`Ledger`, else a ``TypeError`` that says
    what to pass (for adapters whose first argument is a ledger).

    Args:
        value: What the caller passed.
        owner: The class or function that needs it, named in the error.
    """
    if not isinstance(value, Ledger):
        raise TypeError(
            f"{owner} needs a memvet.Ledger as its first argument (memvet.Ledger.open(repo)), "
            f"got {type(value).__name__} {value!r:.60}"
        )
    return value


def _evidence(anchors: Iterable[Anchor]) -> list[tuple[str, ...]]:
    """What a near duplicate must share with an existing decision to confirm it.

    Every anchor's kind, path, name, requirement, scope and quote: the
    sharing keys of conflict detection leave out a dependency's requirement
    and an absence rule's scope, and a claim recorded again with
    ``requests>=2.31`` instead of ``requests``, or ``--scope '**'`` instead
    of ``src/**``, was "confirmed" with the new constraint dropped. Hashes
    and blob ids are left out: they say where the code is now, not what the
    writer asked to hold.
    """
    return sorted({(a.kind.value, a.path, a.name, a.requirement, a.scope, a.quote) for a in anchors})


def _respec(anchor: Anchor, new_path: str, new_name: str) -> AnchorSpec:
    path = new_path or anchor.path
    if anchor.kind is AnchorKind.SYMBOL:
        return AnchorSpec(AnchorKind.SYMBOL, path=path, name=new_name or anchor.name)
    if anchor.kind is AnchorKind.FILE:
        return AnchorSpec(AnchorKind.FILE, path=path)
    if anchor.kind is AnchorKind.DEPENDENCY:
        return AnchorSpec(AnchorKind.DEPENDENCY, name=anchor.name, requirement=anchor.requirement,
                          scope=anchor.scope)
    return AnchorSpec(AnchorKind.ABSENT, name=anchor.name, scope=anchor.scope)


def _keep_out_of_git(home: Path, *, ours: bool) -> None:
    """Create the ledger folder with a ``.gitignore`` of ``*``, so nothing in
    it (the store, caches, lock files) is ever committed.

    An existing ``.gitignore`` is never touched. A folder the caller named
    (``path=``) that already exists is theirs: left as it is. A folder that
    cannot be written (read-only) is not an error here; opening goes on.
    """
    if not ours and home.exists():
        return
    try:
        home.mkdir(parents=True, exist_ok=True)
        with open(home / ".gitignore", "x", encoding="utf-8") as handle:
            handle.write("*\n")
    except FileExistsError:
        pass
    except OSError as exc:
        log.debug("cannot write %s/.gitignore: %s", home, exc)


def _raise_if_read_only(exc: StoreError, home: Path) -> None:
    clearer = _chroma.read_only_error(exc, home)
    if clearer is not None:
        raise clearer from exc


def _corrupt_verdict(exc: CorruptRecordError, target: str) -> Verdict:
    placeholder = Decision(id=exc.record_id, claim="(unreadable record)")
    return Verdict(placeholder, Status.NEEDS_REVALIDATION, f"the stored record cannot be read: {exc}",
                   target=target)
