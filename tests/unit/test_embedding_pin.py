"""Reads need no embedder; only a stored decision pins one; specs; reembed.

Issue 14, items 2 and 3 (the host-framework parts are in
``tests/unit/langchain`` and ``tests/unit/llamaindex``).
"""

from __future__ import annotations

import json
import textwrap
import uuid

import pytest
from click.testing import CliRunner

import memvet
from memvet import Lifecycle, Status
from memvet._embedding import HashingEmbedder, check_spec, load_embedding, spec_for
from memvet._errors import StoreError, UsageError
from memvet._store import collection_name
from memvet.cli import cli

SPEC_MODULE = "memvet_test_factories"


class Tiny:
    """A host-style embedding (LangChain shape) with a model name."""

    model = "tiny-v1"

    def embed_documents(self, texts):
        return [HashingEmbedder(32)._vector(t) for t in texts]

    def embed_query(self, text):
        return HashingEmbedder(32)._vector(text)


def _open(repo, client, ns, embedding=None):
    return memvet.Ledger.open(repo.path, client=client, namespace=ns, embedding=embedding, disk_cache=False)


@pytest.fixture
def ns() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


# ------------------------------------------------------------------ reads need no embedder


def test_every_read_opens_a_ledger_another_embedding_wrote(repo, client, ns):
    writer = _open(repo, client, ns, Tiny())
    rec = writer.record("checksum is mod 255", ["shop/store.py::checksum"])
    writer.record("proposed: checksum is a byte sum", ["shop/store.py::checksum"], proposed=True,
                  on_conflict="warn")
    reader = _open(repo, client, ns)  # the default MiniLM: never loaded by a read
    assert reader.verify(rec.id).status is Status.VERIFIED
    assert {v.id for v in reader.check()} >= {rec.id}
    assert reader.get(rec.id).claim == "checksum is mod 255"
    assert [r.action for r in reader.history(rec.id)] == ["record"]
    assert reader.log()
    assert [i.id for i in reader.about(["shop/store.py"]).items]
    (proposal,) = reader.proposals()  # neighbours from the stored vector, not a new one
    assert any(c.decision.id == rec.id for c in proposal.conflicts)
    assert reader.embedder._runtime is None  # MiniLM never loaded
    from memvet import audit

    assert audit.status_table(reader, at=None)


def test_a_proposal_without_a_stored_vector_has_no_neighbours(ledger, monkeypatch):
    ledger.record("checksum is a byte sum", ["shop/store.py::checksum"], proposed=True)
    monkeypatch.setattr(ledger.store, "vectors", lambda ids: {})
    (proposal,) = ledger.proposals()
    assert proposal.conflicts == () and proposal.warnings == ()


def test_stored_vectors_of_unknown_ids_are_empty(ledger):
    assert ledger.store.vectors([]) == {}
    assert ledger.store.vectors(["nope"]) == {}


def test_a_read_on_a_fresh_ledger_pins_nothing(repo, client, ns):
    reader = _open(repo, client, ns, HashingEmbedder())
    assert reader.check() == [] and reader.recall("anything").items == ()
    other = _open(repo, client, ns, HashingEmbedder(64))
    assert other.record("checksum is mod 255", ["shop/store.py::checksum"]).outcome == "recorded"
    assert other.store.pinned() == "hashing-64"


def test_a_failed_record_pins_nothing(repo, client, ns):
    first = _open(repo, client, ns, HashingEmbedder())
    with pytest.raises(memvet.AnchorNotFoundError):
        first.record("nothing is here", ["shop/store.py::nothing"])

    def broken(texts):
        raise RuntimeError("the model server is down")

    with pytest.raises(RuntimeError):
        _open(repo, client, ns, broken).record("checksum is mod 255", ["shop/store.py::checksum"])
    assert first.store.pinned() == ""
    second = _open(repo, client, ns, HashingEmbedder(64))
    assert second.record("checksum is mod 255", ["shop/store.py::checksum"]).outcome == "recorded"


def test_a_pin_left_on_an_empty_ledger_by_an_earlier_version_counts_for_nothing(repo, client, ns):
    client.get_or_create_collection(collection_name(ns), metadata={"memvet_schema": 1, "namespace": ns,
                                                                  "embedder": "minilm-l6-v2-int8"},
                                    configuration={"hnsw": {"space": "cosine"}}, embedding_function=None)
    ledger = _open(repo, client, ns, HashingEmbedder())
    assert ledger.record("checksum is mod 255", ["shop/store.py::checksum"]).outcome == "recorded"
    assert ledger.store.pinned() == "hashing-256"


def test_record_and_recall_with_another_embedding_name_both_and_the_fix(repo, client, ns):
    _open(repo, client, ns, HashingEmbedder()).record("checksum is mod 255", ["shop/store.py::checksum"])
    other = _open(repo, client, ns, HashingEmbedder(64))
    for act in (lambda: other.record("another one"), lambda: other.recall("checksum")):
        with pytest.raises(UsageError) as info:
            act()
        message = str(info.value)
        assert "\n" not in message
        assert "'hashing-256', not by 'hashing-64'" in message
        assert "--embedding hashing-256" in message and "memvet reembed --embedding" in message


def test_import_with_another_embedding_is_refused_and_pins_a_fresh_ledger(repo, client, ns):
    from memvet._exchange import export_jsonl, import_jsonl

    source = _open(repo, client, ns, HashingEmbedder())
    source.record("checksum is mod 255", ["shop/store.py::checksum"])
    lines = export_jsonl(source).text().splitlines()
    target = _open(repo, client, ns + "b", HashingEmbedder(64))
    assert import_jsonl(target, lines).added and target.store.pinned() == "hashing-64"
    mismatched = _open(repo, client, ns + "c", HashingEmbedder(64))
    mismatched.record("an unrelated decision")
    refused = _open(repo, client, ns + "c", HashingEmbedder())
    with pytest.raises(UsageError, match="'hashing-64', not by 'hashing-256'"):
        import_jsonl(refused, lines)


def test_a_pin_seen_by_a_server_client_that_opened_before_it(repo, client, ns):
    early = _open(repo, client, ns, HashingEmbedder(64))  # opened while empty
    _open(repo, client, ns, HashingEmbedder()).record("checksum is mod 255", ["shop/store.py::checksum"])
    with pytest.raises(UsageError, match="'hashing-256'"):
        early.record("another one")


def test_spec_hint_for_built_ins_and_host_objects():
    assert spec_for("hashing-64") == "CLI: --embedding hashing-64"
    assert spec_for("minilm-l6-v2-int8") == "CLI: --embedding minilm-l6-v2-int8"
    assert "module:callable returning that OpenAIEmbeddings" in spec_for("OpenAIEmbeddings/text-embedding-3")


# ------------------------------------------------------------------ specs


@pytest.fixture
def factories(tmp_path, monkeypatch):
    """A module on sys.path with embedding factories, good and bad."""
    (tmp_path / f"{SPEC_MODULE}.py").write_text(textwrap.dedent('''
        import memvet

        class Host:
            model_name = "host-model"
            def embed_documents(self, texts):
                return [memvet.HashingEmbedder(16).embed_query(t) for t in texts]
            def embed_query(self, text):
                return memvet.HashingEmbedder(16).embed_query(text)

        def hashing32():
            return memvet.HashingEmbedder(32)

        def host():
            return Host()

        def plain():
            return lambda texts: [memvet.HashingEmbedder(8).embed_query(t) for t in texts]

        def broken():
            raise RuntimeError("no API key")

        def nothing():
            return 42

        class Namespace:
            @staticmethod
            def make():
                return memvet.HashingEmbedder(24)

        INSTANCE = Host()
        NUMBER = 7
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    import sys

    sys.modules.pop(SPEC_MODULE, None)


@pytest.mark.parametrize(("spec", "name"), [
    ("minilm", "minilm-l6-v2-int8"), ("MiniLM-L6-v2-int8", "minilm-l6-v2-int8"), ("hashing", "hashing-256"),
    ("hashing-64", "hashing-64"), (" hashing ", "hashing-256"),
    (f"{SPEC_MODULE}:hashing32", "hashing-32"), (f"{SPEC_MODULE}:host", "Host/host-model"),
    (f"{SPEC_MODULE}:INSTANCE", "Host/host-model"), (f"{SPEC_MODULE}:Namespace.make", "hashing-24"),
    (f"{SPEC_MODULE}:Host", "Host/host-model"), ("memvet:HashingEmbedder", "hashing-256"),
])
def test_specs_give_embedders(factories, spec, name):
    assert load_embedding(spec).name == name


def test_a_factory_may_return_a_plain_callable(factories):
    embedder = load_embedding(f"{SPEC_MODULE}:plain")
    assert embedder.dim == 8


@pytest.mark.parametrize(("spec", "message"), [
    ("", "is empty"),
    ("gpt", "not one of minilm, hashing, hashing-DIM or module:callable"),
    ("a:b:c", "not one of"),
    ("memvet_no_such_module:make", "cannot import 'memvet_no_such_module'"),
    (f"{SPEC_MODULE}:missing", "has no attribute 'missing'"),
    (f"{SPEC_MODULE}:NUMBER", "NUMBER is a int, not a callable"),
    (f"{SPEC_MODULE}:broken", "calling broken() failed: RuntimeError: no API key"),
    (f"{SPEC_MODULE}:nothing", "nothing() returned a int, not an embedder"),
    ("hashing-0", "dim must be a positive integer"),
])
def test_bad_specs_are_one_clear_line(factories, spec, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        load_embedding(spec)
    assert "\n" not in str(info.value)


def test_check_spec_imports_nothing():
    assert check_spec(" memvet_no_such_module:make ") == "memvet_no_such_module:make"
    with pytest.raises(UsageError):
        check_spec(None)


def test_ledger_open_takes_a_spec(repo, client, ns):
    assert _open(repo, client, ns, "hashing-64").embedder.name == "hashing-64"


def test_config_embedding_key(tmp_path):
    from memvet._config import load_config

    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.memvet]\nembedding = " mypkg:make "\n')
    assert load_config(path).embedding == "mypkg:make"
    path.write_text("[tool.memvet]\nembedding = 3\n")
    with pytest.raises(UsageError, match="embedding: expected a string"):
        load_config(path)


# ------------------------------------------------------------------ the CLI


@pytest.fixture
def cli_run(repo, tmp_path, monkeypatch):
    monkeypatch.chdir(repo.path)
    monkeypatch.delenv("MEMVET_EMBEDDING", raising=False)
    base = {"MEMVET_LEDGER": str(tmp_path / "ledger")}

    def invoke(*args: str, env: dict[str, str] | None = None):
        return CliRunner().invoke(cli, list(args), env={**base, **(env or {})})

    return invoke


def test_cli_check_on_a_fresh_repo_pins_nothing(cli_run):
    assert cli_run("check", "--format", "github").exit_code == 0
    result = cli_run("--embedding", "hashing-64", "record", "checksum is mod 255",
                     "--symbol", "shop/store.py::checksum")
    assert result.exit_code == 0, result.stderr
    assert cli_run("--embedding", "hashing-64", "recall", "checksum").exit_code == 0


def test_cli_reads_with_any_embedding_setting_and_writes_name_the_fix(cli_run):
    assert cli_run("record", "checksum is mod 255", "--symbol", "shop/store.py::checksum",
                   env={"MEMVET_EMBEDDING": "hashing"}).exit_code == 0
    for args in (["check"], ["check", "--format", "github"], ["log"], ["export"], ["review"],
                 ["recall", "--touching", "shop/store.py"]):
        result = cli_run(*args)  # the default (MiniLM) given, the hashing one stored
        assert result.exit_code in (0, 1), (args, result.stderr)
    result = cli_run("recall", "checksum")
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "'hashing-256', not by 'minilm-l6-v2-int8'" in line and "--embedding hashing-256" in line


def test_cli_embedding_flag_env_and_config(cli_run, repo, factories):
    repo.write("pyproject.toml", f'[tool.memvet]\nembedding = "{SPEC_MODULE}:hashing32"\n')
    assert cli_run("record", "checksum is mod 255", "--symbol", "shop/store.py::checksum").exit_code == 0
    assert cli_run("recall", "checksum").exit_code == 0  # the config's, again
    # The environment beats the config, and the flag beats the environment.
    result = cli_run("recall", "checksum", env={"MEMVET_EMBEDDING": "hashing"})
    assert result.exit_code == 2 and "'hashing-32', not by 'hashing-256'" in result.stderr
    result = cli_run("--embedding", f"{SPEC_MODULE}:hashing32", "recall", "checksum",
                     env={"MEMVET_EMBEDDING": "hashing"})
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(("args", "env", "where"), [
    (["--embedding", "gpt", "check"], {}, "--embedding: embedding spec 'gpt'"),
    (["check"], {"MEMVET_EMBEDDING": "gpt"}, "MEMVET_EMBEDDING: embedding spec 'gpt'"),
    (["--embedding", "memvet_no_such_module:x", "recall", "q"], {}, "cannot import"),
])
def test_cli_bad_specs_exit_2_with_one_line(cli_run, args, env, where):
    result = cli_run(*args, env=env)
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert where in line


def test_cli_bad_config_spec_names_the_file(cli_run, repo):
    repo.write("pyproject.toml", '[tool.memvet]\nembedding = "not a spec"\n')
    result = cli_run("check")
    assert result.exit_code == 2 and "[tool.memvet] embedding: embedding spec 'not a spec'" in result.stderr


def test_cli_an_unimportable_spec_does_not_stop_a_read(cli_run):
    assert cli_run("--embedding", "memvet_no_such_module:x", "check").exit_code == 0


# ------------------------------------------------------------------ reembed


def _lifecycle_ledger(ledger: memvet.Ledger) -> dict[str, str]:
    old = ledger.record("totals are floats", ["shop/store.py::checksum"])
    new = ledger.supersede(old.id, "totals are Decimal, rounded half-up", reason="floats lost cents")
    gone = ledger.record("orders are pickled")
    ledger.reject(gone.id, reason="pickle is unsafe")
    prop = ledger.record("checksum is the byte sum", ["shop/store.py::checksum"], proposed=True)
    return {"old": old.id, "new": new.id, "gone": gone.id, "prop": prop.id}


def _nearest(ledger: memvet.Ledger, query: str) -> str:
    return max(ledger.recall(query).items, key=lambda item: item.score).id


def _snapshot(ledger: memvet.Ledger):
    decisions = {d.id: (d.claim, d.lifecycle, d.superseded_by, d.supersedes) for d in ledger.decisions()}
    receipts = [(r.id, r.action) for r in ledger.log()]
    return decisions, receipts, sorted((v.id, v.status) for v in ledger.check())


@pytest.mark.slow
def test_reembed_keeps_everything_but_the_vectors(repo, client, ns):
    ledger = _open(repo, client, ns, HashingEmbedder())
    ids = _lifecycle_ledger(ledger)
    before = _snapshot(ledger)
    assert ledger.reembed(HashingEmbedder(64)) == 4
    assert ledger.embedder.name == "hashing-64" and ledger.store.pinned() == "hashing-64"
    assert _snapshot(ledger) == before
    reopened = _open(repo, client, ns, HashingEmbedder(64))
    assert _snapshot(reopened) == before
    assert _nearest(reopened, "totals Decimal rounded") == ids["new"]
    assert len(reopened.store.vectors([ids["old"]])[ids["old"]]) == 64
    with pytest.raises(UsageError, match="'hashing-64', not by 'hashing-256'"):
        _open(repo, client, ns, HashingEmbedder()).recall("totals")
    # Again, and back: each move drops the previous vectors.
    assert reopened.reembed("hashing") == 4
    names = [c.name for c in client.list_collections() if c.name.startswith(collection_name(ns))]
    assert sorted(names) == sorted([collection_name(ns), collection_name(ns) + ".v2",
                                    collection_name(ns) + ".receipts", collection_name(ns) + ".journal"])
    assert client.get_collection(collection_name(ns)).count() == 0
    assert _snapshot(_open(repo, client, ns, HashingEmbedder())) == before
    assert reopened.reembed() == 4  # its own embedder: a fresh copy of the same


@pytest.mark.slow
def test_reembed_an_empty_ledger_and_then_write(repo, client, ns):
    ledger = _open(repo, client, ns, HashingEmbedder())
    assert ledger.reembed(HashingEmbedder(64)) == 0
    assert ledger.store.pinned() == ""
    assert ledger.record("checksum is mod 255", ["shop/store.py::checksum"]).outcome == "recorded"


@pytest.mark.slow
def test_reembed_with_bad_vectors_changes_nothing(repo, client, ns):
    ledger = _open(repo, client, ns, HashingEmbedder())
    ids = _lifecycle_ledger(ledger)
    before = _snapshot(ledger)
    with pytest.raises(UsageError, match="returned 1 vectors for 4 texts"):
        ledger.reembed(lambda texts: [[1.0, 0.0]])
    assert ledger.embedder.name == "hashing-256" and _snapshot(ledger) == before
    assert _nearest(ledger, "totals Decimal rounded") == ids["new"]
    assert ledger.repair() == 0  # drops the half-written copy
    assert [c.name for c in client.list_collections() if ".v" in c.name and ns in c.name] == []


def test_a_pointer_to_a_missing_collection_is_a_store_error(repo, client, ns):
    ledger = _open(repo, client, ns, HashingEmbedder())
    ledger.record("checksum is mod 255", ["shop/store.py::checksum"])
    ledger.reembed(HashingEmbedder(64))
    client.delete_collection(collection_name(ns) + ".v1")
    with pytest.raises(StoreError, match="points to its vectors"):
        _open(repo, client, ns, HashingEmbedder(64))


def test_cli_reembed(cli_run):
    env = {"MEMVET_EMBEDDING": "hashing"}
    assert cli_run("record", "checksum is mod 255", "--symbol", "shop/store.py::checksum", env=env).exit_code == 0
    result = cli_run("reembed", "--embedding", "hashing-64")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == "re-embedded 1 decision with 'hashing-64' (was 'hashing-256')"
    assert cli_run("--embedding", "hashing-64", "recall", "checksum").exit_code == 0
    result = cli_run("reembed", "--json", env=env)  # the spec in force: back to hashing-256
    assert json.loads(result.stdout) == {"reembedded": 1, "from": "hashing-64", "to": "hashing-256"}
    result = cli_run("reembed")
    assert result.exit_code == 2 and "reembed needs the embedding to move to" in result.stderr
    result = cli_run("reembed", "--embedding", "gpt")
    assert result.exit_code == 2 and "--embedding: embedding spec 'gpt'" in result.stderr


# ------------------------------------------------------------------ reembed killed between its writes


class _Killed(BaseException):
    pass


def _killing_reembed(ledger: memvet.Ledger, step: str, embedder) -> None:
    real = ledger.store._step

    def step_(name: str) -> None:
        real(name)
        if name == step:
            raise _Killed(step)

    ledger.store._step = step_  # type: ignore[method-assign]
    with pytest.raises(_Killed):
        ledger.reembed(embedder)


@pytest.mark.slow
@pytest.mark.parametrize("step", ["copied", "switched"])
def test_reembed_killed_in_process_between_its_writes(repo, client, ns, step):
    ledger = _open(repo, client, ns, HashingEmbedder())
    _lifecycle_ledger(ledger)
    before = _snapshot(ledger)
    _killing_reembed(ledger, step, HashingEmbedder(64))
    after = _open(repo, client, ns, HashingEmbedder(64 if step == "switched" else 256))
    assert _snapshot(after) == before
    assert after.store.pinned() == ("hashing-64" if step == "switched" else "hashing-256")
    assert after.repair() == 0
    names = {c.name for c in client.list_collections() if c.name.startswith(collection_name(ns) + ".v")}
    assert names == ({collection_name(ns) + ".v1"} if step == "switched" else set())
    assert after.reembed(HashingEmbedder(64)) == 4 and _snapshot(after) == before


@pytest.mark.slow
def test_reembed_on_a_server_brings_across_what_another_writer_wrote_during_it(repo, client, ns, caplog):
    ledger = _open(repo, client, ns, HashingEmbedder())
    ids = _lifecycle_ledger(ledger)
    writer = _open(repo, client, ns, HashingEmbedder())  # another client, still on the old vectors
    assert ledger.store.lock is None  # an ephemeral client stands for a server: no write lock
    real = ledger.store._step
    late: dict[str, str] = {}

    def step(name: str) -> None:
        real(name)
        if name == "copied":  # after the copy, before the switch
            writer.reject(ids["prop"], reason="not what we want")
            late["id"] = writer.record("orders are saved as JSON lines").id

    ledger.store._step = step  # type: ignore[method-assign]
    with caplog.at_level("WARNING", logger="memvet._store"):
        assert ledger.reembed(HashingEmbedder(64)) == 4
    assert "2 decision(s) written during the reembed" in caplog.text
    after = _open(repo, client, ns, HashingEmbedder(64))
    assert after.get(ids["prop"]).lifecycle is Lifecycle.REJECTED
    assert after.get(late["id"]).claim == "orders are saved as JSON lines"
    assert len(after.store.vectors([late["id"]])[late["id"]]) == 64
