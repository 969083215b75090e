"""MemVetRetriever: LangChain's standard retriever suite, then MemVet's framing."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_tests.integration_tests import RetrieversIntegrationTests

import memvet
from memvet_langchain import MemVetRetriever


def _seed(ledger: memvet.Ledger) -> dict[str, str]:
    ids = {
        "save": ledger.record("Orders are saved by appending one JSON line per order",
                              ["shop/store.py::OrderStore.save"]).id,
        "load": ledger.record("Orders are loaded by reading every JSON line",
                              ["shop/store.py::OrderStore.load"]).id,
        "sum": ledger.record("Order checksums are the byte sum modulo 255",
                             ["shop/store.py::checksum"]).id,
        "loose": ledger.record("Order ids are UUID4 strings").id,
    }
    return ids


class TestMemVetRetrieverStandard(RetrieversIntegrationTests):
    @pytest.fixture(autouse=True)
    def _memvet_setup(self, ledger: memvet.Ledger) -> None:
        _seed(ledger)
        self._ledger = ledger

    @property
    def retriever_constructor(self) -> type[BaseRetriever]:
        return MemVetRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"ledger": self._ledger}

    @property
    def retriever_query_example(self) -> str:
        return "how are orders saved?"


def test_documents_carry_framing_in_band_and_facts_in_metadata(ledger, repo) -> None:
    ids = _seed(ledger)
    ledger.reject(ids["sum"], reason="checksums moved to CRC32")
    repo.replace("shop/store.py", 'handle.write(json.dumps(order) + "\\n")',
                 'handle.write(json.dumps(order, sort_keys=True) + "\\n")')
    repo.commit("sort keys")

    docs = MemVetRetriever(ledger=ledger, k=10).invoke("orders")
    by_id = {d.id: d for d in docs}
    save, summed, loose = by_id[ids["save"]], by_id[ids["sum"]], by_id[ids["loose"]]

    assert save.metadata["status"] == "stale" and save.metadata["group"] == "caution"
    assert save.page_content.startswith("stale, the evidence it rested on was rewritten (")
    assert "OrderStore.save" in save.metadata["reason"]
    assert save.metadata["anchors"] == ["shop/store.py::OrderStore.save"]
    assert summed.page_content.startswith("previously tried, rejected: checksums moved to CRC32")
    assert summed.metadata["group"] == "history" and summed.metadata["lifecycle"] == "rejected"
    assert loose.metadata["status"] == "unanchored"
    assert by_id[ids["load"]].metadata["status"] == "verified"
    assert by_id[ids["load"]].page_content == "Orders are loaded by reading every JSON line"


def test_include_limits_groups_and_at_reads_a_revision(ledger, repo) -> None:
    ids = _seed(ledger)
    first = repo.git("rev-parse", "HEAD")
    repo.delete("shop/store.py")
    repo.commit("drop the store")

    now = MemVetRetriever(ledger=ledger, k=10, include=("current", "caution")).invoke("orders")
    assert [d.id for d in now] == [ids["loose"]]  # the anchored ones are refuted: history
    then = MemVetRetriever(ledger=ledger, k=10, at=first, include="current").invoke("orders")
    assert {d.id for d in then} == {ids["save"], ids["load"], ids["sum"]}


def test_invalid_include_is_refused(ledger) -> None:
    with pytest.raises(ValueError, match="unknown recall group"):
        MemVetRetriever(ledger=ledger, include=("current", "maybe"))
    with pytest.raises(ValueError, match="at least one"):
        MemVetRetriever(ledger=ledger, include=())


async def test_ainvoke_runs_in_a_worker_thread(ledger) -> None:
    _seed(ledger)
    threads: list[str] = []

    class Spy(MemVetRetriever):
        def _recall(self, query: Any, k: int | None, filter: Any = None, **kw: Any) -> list[Document]:
            threads.append(threading.current_thread().name)
            return super()._recall(query, k, filter, **kw)

    docs = await Spy(ledger=ledger, k=2).ainvoke("orders")
    assert len(docs) == 2
    assert threads and threads[0] != threading.main_thread().name


def test_ls_params_name_memvet(ledger) -> None:
    params = MemVetRetriever(ledger=ledger)._get_ls_params()
    assert params["ls_vector_store_provider"] == "memvet"
    assert params["ls_embedding_provider"] == "HashingEmbedder"


def _tagged(ledger: memvet.Ledger) -> dict[str, str]:
    return {
        "save": ledger.record("Orders are saved by appending one JSON line per order",
                              ["shop/store.py::OrderStore.save"], tags=["storage"]).id,
        "readme": ledger.record("The readme is one short paragraph", ["README.md"], tags=["docs"]).id,
        "loose": ledger.record("Order ids are UUID4 strings", tags=["storage", "ids"]).id,
    }


def test_search_kwargs_filter_and_k_work(ledger) -> None:
    ids = _tagged(ledger)
    r = MemVetRetriever(ledger, search_kwargs={"k": 1, "filter": {"tags": ["storage"]}})
    assert r.k == 1
    assert len(r.invoke("orders")) == 1
    got = MemVetRetriever(ledger, search_kwargs={"k": 10, "filter": {"tags": ["storage"]}}).invoke("orders")
    assert {d.id for d in got} == {ids["save"], ids["loose"]}
    paths = MemVetRetriever(ledger, search_kwargs={"filter": {"paths": "shop/"}}).invoke("orders")
    assert [d.id for d in paths] == [ids["save"]]
    chroma_style = MemVetRetriever(ledger, search_kwargs={"k": 10, "filter": {"tags": {"$contains": "docs"}}})
    assert [d.id for d in chroma_style.invoke("orders")] == [ids["readme"]]
    both = {"$and": [{"tags": {"$in": ["storage", "docs"]}}, {"paths": ["README.md", "shop"]}]}
    assert {d.id for d in MemVetRetriever(ledger, k=10, search_kwargs={"filter": both}).invoke("x")} == {
        ids["save"], ids["readme"]}


async def test_per_call_k_and_filter(ledger) -> None:
    ids = _tagged(ledger)
    r = MemVetRetriever(ledger, k=10, search_kwargs={"filter": {"tags": "docs"}})
    assert [d.id for d in r.invoke("orders")] == [ids["readme"]]
    assert [d.id for d in r.invoke("orders", filter={"tags": "ids"})] == [ids["loose"]]
    assert len(r.invoke("orders", k=1, filter={"tags": ["storage"]})) == 1
    assert [d.id for d in await r.ainvoke("orders", filter={"paths": ["shop/store.py"]})] == [ids["save"]]


@pytest.mark.parametrize("kwargs, error, message", [
    ({"top_k": 1}, ValueError, "Extra inputs are not permitted"),
    ({"search_kwargs": {"kk": 1}}, memvet.UsageError, "unsupported search_kwargs 'kk'"),
    ({"search_kwargs": {"k": 0}}, memvet.UsageError, "k must be at least 1, got 0"),
    ({"k": -2}, memvet.UsageError, "k must be at least 1, got -2"),
    ({"k": "3"}, memvet.UsageError, "k must be a whole number of at least 1, got str '3'"),
    ({"k": 2, "search_kwargs": {"k": 3}}, memvet.UsageError, "k given twice"),
    ({"search_kwargs": {"filter": {"status": "verified"}}}, memvet.UsageError,
     r"unsupported filter key\(s\) 'status'; MemVet filters on tags and paths"),
    ({"search_kwargs": {"filter": {"tags": {"$ne": "x"}}}}, memvet.UsageError,
     "filter 'tags': supported forms are"),
    ({"search_kwargs": {"filter": "tags=x"}}, memvet.UsageError, "filter must be a dict"),
    ({"include": "curent"}, ValueError, "unknown recall group"),
])
def test_misuse_at_construction_is_loud(ledger, kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        MemVetRetriever(ledger, **kwargs)


def test_ledger_is_checked_and_positional(ledger) -> None:
    with pytest.raises(TypeError, match=r"MemVetRetriever needs a memvet\.Ledger as its first argument .*got str"):
        MemVetRetriever("/path/to/repo")
    with pytest.raises(TypeError, match=r"needs a memvet\.Ledger"):
        MemVetRetriever(k=3)
    with pytest.raises(TypeError, match="ledger given twice"):
        MemVetRetriever(ledger, ledger=ledger)
    assert MemVetRetriever(ledger).ledger is ledger
    assert MemVetRetriever(ledger, include="current").include == ("current",)


def test_misuse_at_invoke_is_loud(ledger) -> None:
    _tagged(ledger)
    r = MemVetRetriever(ledger)
    with pytest.raises(memvet.UsageError, match=r"expects the query as a string, got dict .*'question'"):
        r.invoke({"question": "how are orders saved?"})  # type: ignore[arg-type]
    with pytest.raises(memvet.UsageError, match="k must be at least 1, got 0"):
        r.invoke("orders", k=0)
    with pytest.raises(memvet.UsageError, match=r"unsupported argument\(s\) 'top_k'"):
        r.invoke("orders", top_k=2)
    with pytest.raises(memvet.UsageError, match="unsupported filter key"):
        r.invoke("orders", filter={"lifecycle": "active"})
