"""The LangChain guard runnable sends one traced request per invoke through ragauge.trace: the guard's
decisions, the store's chunks with ids and scores, the chat model's answer and TTFT; nothing when off."""

from __future__ import annotations

import json
import threading

import pytest

pytest.importorskip("langchain_core", reason="langchain-core is not installed (pip install 'ragauge[langchain]')")
httpx = pytest.importorskip("httpx")

from ragauge import trace  # noqa: E402
from ragauge.guard import Guard  # noqa: E402
from ragauge.guard.adapters.langchain import as_runnable, langchain_generate, langchain_retriever  # noqa: E402

from .test_adapters_langchain import ROOF_Q, EchoContextChat, store  # noqa: E402,F401


class Collector:
    """Takes the SDK's batches and checks each with the collector's own validation when it is installed."""

    def __init__(self) -> None:
        self.traces: list[dict] = []
        self.lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        try:
            from ragauge.serve.schema import parse_batch
        except ImportError:  # the serve extra is optional here
            pass
        else:
            parse_batch(request.content)  # raises on a trace the collector would refuse
        with self.lock:
            self.traces += body["traces"]
        return httpx.Response(200, json={"accepted": len(body["traces"]), "duplicates": 0})


@pytest.fixture(autouse=True)
def _off():
    trace.shutdown(timeout=0.5)
    yield
    trace.shutdown(timeout=0.5)


def test_each_invoke_of_the_guard_runnable_is_one_traced_request(store):  # noqa: F811
    got = Collector()
    trace.configure("http://127.0.0.1:9", token="tok", app_name="roofing-bot", app_version="0.9",
                    transport=httpx.MockTransport(got), flush_interval=0.02)
    guard = Guard(langchain_retriever(store, scores="raw"), langchain_generate(EchoContextChat()), grade=False,
                  score_threshold=0.1)
    chain = as_runnable(guard, output="text")
    answer = chain.invoke(ROOF_Q)
    assert trace.flush(5)
    (t,) = got.traces
    assert t["question"] == ROOF_Q and t["answer"] == answer
    assert (t["app_name"], t["app_version"]) == ("roofing-bot", "0.9")
    kinds = [s["kind"] for s in t["spans"]]
    assert kinds.count("retrieval") == 1 and kinds.count("generation") == 1  # the adapters' own, not twice
    retrieval = next(s for s in t["spans"] if s["kind"] == "retrieval")
    assert retrieval["chunks"][0]["id"] == "roof" and retrieval["chunks"][0]["score"] is not None
    gen = next(s for s in t["spans"] if s["kind"] == "generation")
    assert gen["answer"] == answer and gen["model"] == "EchoContextChat"
    assert gen["ttft_ms"] >= gen["duration_ms"]
    verdict = [s for s in t["spans"] if s["kind"] == "guard"][-1]
    assert verdict["name"] == "guard" and verdict["decision"] == "answer"


def test_the_runnable_sends_nothing_when_tracing_is_not_configured(store):  # noqa: F811
    guard = Guard(langchain_retriever(store, scores="raw"), langchain_generate(EchoContextChat()), grade=False,
                  score_threshold=0.1)
    before = trace.stats()["submitted"]  # an earlier test's final counters may still be there (kept after shutdown)
    result = as_runnable(guard).invoke(ROOF_Q)
    assert result.kind == "answer" and result.request_id is None and trace.stats()["submitted"] == before
