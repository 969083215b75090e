"""Project defaults from the ``[tool.memvet]`` table of ``pyproject.toml``.

Plain values only: this module reads a file and validates it; it never
reads environment variables (the CLI does that, and decides precedence:
command-line flag, then environment, then this table, then built-in
defaults). Example::

    [tool.memvet]
    fail-on = ["stale", "refuted"]          # or "stale,refuted"
    ignore = ["docs/archive/**", "vendor/**"]
    similarity-threshold = 0.8
    duplicate-threshold = 0.95
    format = "text"                          # text | json | markdown | github
    agent-writes = "proposed"                # proposed | active
    embedding = "minilm"                     # minilm | hashing | module:callable
    namespace = "3f2a9c..."                  # the ledger's namespace (default: the root commit)

``namespace`` is the ledger's namespace when none is passed. The default,
the repository's root commit, cannot be computed in a shallow clone (its
first commit is not the root), which is what CI checks out by default; a
namespace written here is read the same at every clone depth and in every
worktree. ``--namespace`` / ``MEMVET_NAMESPACE`` / ``namespace=`` win.

``ignore`` lists globs of paths whose decisions ``check`` does not gate on:
a decision whose every path-bearing anchor lies under an ignored glob is
left out of ``check`` (and counted as ignored), and changes to ignored
paths do not pull decisions into ``check --since``.

``agent-writes`` (also spelled ``agent_writes``) says how agents' new
records are written (the MCP server, the LangChain tools and LangGraph
store, the LlamaIndex tool spec): ``proposed`` (the default: a person
reviews and approves with ``memvet approve``) or ``active``. It is review
policy, so it is read from the configuration as committed at ``HEAD``
(:func:`committed_agent_writes`), never from an uncommitted edit: an agent
that can write files must not be able to turn review off by appending a
line. ``Ledger.open`` reads it into ``Ledger.agent_writes``. Whatever it
says, an agent never approves, and never retires an active decision on its
own (its reject or supersede is a request a person answers).

``embedding`` names the embedding the CLI's ``record`` and ``recall`` use
(see :func:`memvet._embedding.load_embedding`): ``minilm`` (the default),
``hashing``, or ``module:callable``, a callable that returns an embedder, a
LangChain ``Embeddings``, a LlamaIndex ``BaseEmbedding`` or a callable
``texts -> vectors``. Only its form is checked here; it is imported when a
command needs it, never by a read such as ``check``.
"""

from __future__ import annotations

import logging
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memvet._errors import UsageError
from memvet._model import Status

if TYPE_CHECKING:
    from memvet._git import GitRepo

log = logging.getLogger(__name__)

__all__ = [
    "AGENT_WRITES", "DUPLICATE_THRESHOLD", "FORMATS", "SIMILARITY_THRESHOLD", "Config", "check_agent_writes",
    "committed_agent_writes", "find_config", "load_config",
]

#: Cosine similarity above which a neighbour counts as a conflicting claim
#: (or, if rejected, a warned one). The default of ``Ledger.open``, the CLI
#: and ``similarity-threshold``.
SIMILARITY_THRESHOLD = 0.80

#: Similarity above which a write with the same anchors confirms the
#: existing decision instead of adding a copy (``duplicate-threshold``).
DUPLICATE_THRESHOLD = 0.95

#: Output formats of ``memvet check``.
FORMATS = ("text", "json", "markdown", "github")

#: The values of ``agent_writes``.
AGENT_WRITES = ("proposed", "active")

_KEYS = ("fail-on", "ignore", "similarity-threshold", "duplicate-threshold", "format", "agent-writes",
         "embedding", "namespace")
#: Other spellings accepted for a key (the issue that asked for it wrote ``agent_writes``).
_ALIASES = {"agent_writes": "agent-writes"}


@dataclass(frozen=True)
class Config:
    """Validated ``[tool.memvet]`` values; ``None`` means "not set here".

    Attributes:
        path: The pyproject.toml the values came from (``None``: none found).
        fail_on: Statuses that make ``check`` exit 1.
        ignore: Globs of repository paths ``check`` does not gate on.
        similarity_threshold: Passed to ``Ledger.open``.
        duplicate_threshold: Passed to ``Ledger.open``.
        format: Default output format of ``check``.
        agent_writes: How agent-facing adapters write (``proposed`` or ``active``).
        embedding: The embedding spec of the CLI (``minilm``, ``hashing``,
            ``module:callable``).
        namespace: The ledger's namespace (default: the root commit id).
    """

    path: Path | None = None
    fail_on: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    similarity_threshold: float | None = None
    duplicate_threshold: float | None = None
    format: str | None = None
    agent_writes: str | None = None
    embedding: str | None = None
    namespace: str | None = None


def check_agent_writes(value: Any, where: str) -> str:
    """``value`` if it is one of :data:`AGENT_WRITES`.

    Raises:
        UsageError: Anything else, naming ``where``.
    """
    if not isinstance(value, str) or value not in AGENT_WRITES:
        raise UsageError(f"{where}: expected one of {', '.join(AGENT_WRITES)}, got {value!r}")
    return value


def parse_statuses(value: Any, where: str) -> tuple[str, ...]:
    """A list of status names from ``"a,b"`` or ``["a", "b"]``.

    Raises:
        UsageError: Not a string or list of strings, or an unknown status.
    """
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",")]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        items = [v.strip() for v in value]
    else:
        raise UsageError(f"{where}: expected a list of statuses or a comma-separated string")
    wanted = tuple(dict.fromkeys(v for v in items if v))
    known = [s.value for s in Status]
    unknown = sorted(set(wanted) - set(known))
    if unknown:
        raise UsageError(f"{where}: unknown status {', '.join(unknown)}; choose from {', '.join(known)}")
    return wanted


def _threshold(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
        raise UsageError(f"{where}: expected a number between 0 and 1, got {value!r}")
    return float(value)


def load_config(pyproject: str | os.PathLike[str]) -> Config:
    """Read and validate ``[tool.memvet]`` of one pyproject.toml.

    A file without the table gives an empty :class:`Config`.

    Raises:
        UsageError: The file does not parse, or a value is invalid; the
            message names the file and the key.
    """
    path = Path(pyproject)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return _parse(raw, path, str(path))


def _parse(raw: bytes, path: Path, shown: str) -> Config:
    """:func:`load_config` of a file's bytes; ``shown`` names it in errors."""
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{shown}: not valid TOML ({exc})") from exc
    table = data.get("tool", {}).get("memvet")
    if table is None:
        return Config(path=None)
    where = f"{shown} [tool.memvet]"
    if not isinstance(table, dict):
        raise UsageError(f"{where}: expected a table")
    for alias, key in _ALIASES.items():
        if alias in table:
            if key in table:
                raise UsageError(f"{where}: {alias} and {key} are the same key; keep one")
            table = {**table, key: table[alias]}
            del table[alias]
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise UsageError(f"{where}: unknown key {', '.join(unknown)}; known keys: {', '.join(_KEYS)}")
    fail_on = parse_statuses(table["fail-on"], f"{where} fail-on") if "fail-on" in table else None
    ignore = table.get("ignore", [])
    if isinstance(ignore, str):
        ignore = [ignore]
    if not isinstance(ignore, list) or not all(isinstance(g, str) and g.strip() for g in ignore):
        raise UsageError(f"{where} ignore: expected a list of path globs")
    embedding = table.get("embedding")
    if embedding is not None and (not isinstance(embedding, str) or not embedding.strip()):
        raise UsageError(f"{where} embedding: expected a string such as \"minilm\", \"hashing\" or "
                         f"\"module:callable\", got {embedding!r}")
    namespace = table.get("namespace")
    if namespace is not None and (not isinstance(namespace, str) or not namespace.strip()):
        raise UsageError(f"{where} namespace: expected a non-empty string (such as the repository's root "
                         f"commit id), got {namespace!r}")
    fmt = table.get("format")
    if fmt is not None and fmt not in FORMATS:
        raise UsageError(f"{where} format: expected one of {', '.join(FORMATS)}, got {fmt!r}")
    return Config(
        path=path,
        fail_on=fail_on,
        ignore=tuple(g.strip() for g in ignore),
        similarity_threshold=(_threshold(table["similarity-threshold"], f"{where} similarity-threshold")
                              if "similarity-threshold" in table else None),
        duplicate_threshold=(_threshold(table["duplicate-threshold"], f"{where} duplicate-threshold")
                             if "duplicate-threshold" in table else None),
        format=fmt,
        agent_writes=(check_agent_writes(table["agent-writes"], f"{where} agent-writes")
                      if "agent-writes" in table else None),
        embedding=embedding.strip() if embedding is not None else None,
        namespace=namespace.strip() if namespace is not None else None,
    )


def find_config(start: str | os.PathLike[str]) -> Config:
    """The nearest ``[tool.memvet]`` table at or above ``start``.

    Looks in ``start`` and its parents for a pyproject.toml holding the
    table, and stops at the folder that contains ``.git`` (the repository
    root), so a table outside the repository never applies.

    Raises:
        UsageError: The nearest table is invalid (see :func:`load_config`).
    """
    here = Path(start).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            config = load_config(candidate)
            if config.path is not None:
                return config
        if (folder / ".git").exists():
            break
    return Config()


def committed_agent_writes(git: GitRepo, start: str | os.PathLike[str]) -> str:
    """The review policy (``agent-writes``) as committed at ``HEAD``.

    Looks for the same ``[tool.memvet]`` table :func:`find_config` would
    (the nearest pyproject.toml at or above ``start`` that holds one, up to
    the repository root), but in the files of ``HEAD``. When the working
    tree says otherwise (an uncommitted edit), the edit is ignored with a
    warning that says why and how to change the policy.

    Returns:
        ``proposed`` or ``active`` (``proposed`` when HEAD sets none).

    Raises:
        UsageError: The committed table is invalid.
    """
    here = Path(start).resolve()
    root = git.root
    head = git.snapshot("HEAD")
    committed: Config = Config()
    for folder in (here, *here.parents):
        try:
            rel = (folder / "pyproject.toml").relative_to(root).as_posix()
        except ValueError:
            break  # above the repository
        raw = head.read(rel)
        if raw is not None:
            found = _parse(raw, folder / "pyproject.toml", f"{rel} at HEAD")
            if found.path is not None:
                committed = found
                break
        if folder == root:
            break
    policy = committed.agent_writes or "proposed"
    try:
        working = find_config(start).agent_writes or "proposed"
    except UsageError as exc:
        log.warning("ignoring the working tree's [tool.memvet]: %s; review policy is read from HEAD", exc)
        return policy
    if working != policy:
        log.warning(
            "ignoring agent-writes = %r in the working tree: review policy is read from the committed "
            "configuration, and HEAD says %r; commit the change (a person's act, seen in review) to make it count",
            working, policy,
        )
    return policy
