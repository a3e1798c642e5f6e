"""ragauge.trace against a scripted collector (httpx.MockTransport): batching, answers, retries, spool."""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time

import httpx
import pytest

from ragauge import trace
from ragauge.errors import ConfigError


class Collector:
    """A scripted collector: records every batch it accepts; ``mode`` says how it answers."""

    def __init__(self, mode: str = "ok") -> None:
        self.mode = mode
        self.batches: list[list[dict]] = []
        self.calls = 0
        self.auth: list[str | None] = []
        self.lock = threading.Lock()

    @property
    def traces(self) -> list[dict]:
        return [t for b in self.batches for t in b]

    def __call__(self, request: httpx.Request) -> httpx.Response:
        with self.lock:
            self.calls += 1
            self.auth.append(request.headers.get("authorization"))
        body = json.loads(request.content)
        assert body["schema"] == "ragauge.trace/1"
        if self.mode == "down":
            raise httpx.ConnectError("connection refused", request=request)
        if self.mode == "500":
            return httpx.Response(500, text="boom")
        if self.mode == "slow":
            time.sleep(0.3)
        if self.mode == "reject-bad":
            bad = [{"index": i, "reason": "spans[0].chunks[0].text: Field required"}
                   for i, t in enumerate(body["traces"]) if t["question"] == "bad"]
            if bad:
                return httpx.Response(422, json={"detail": "refused", "errors": bad})
        if self.mode == "limit-2" and len(body["traces"]) > 2:
            return httpx.Response(413, json={"detail": "too large"})
        if self.mode == "limit-2" and any(t["question"] == "huge" for t in body["traces"]):
            return httpx.Response(413, json={"detail": "too large"})
        with self.lock:
            self.batches.append(body["traces"])
        return httpx.Response(200, json={"accepted": len(body["traces"]), "duplicates": 0})


@pytest.fixture(autouse=True)
def _reset():
    trace.shutdown(timeout=0.5)
    trace._final_stats = None  # a previous test's counters (kept after shutdown) are not this test's
    yield
    trace.shutdown(timeout=0.5)
    trace._final_stats = None


def _configure(collector: Collector, **kw) -> None:
    kw.setdefault("flush_interval", 0.02)
    trace.configure("http://127.0.0.1:9", token="tok", app_name="bot", app_version="1.3",
                    transport=httpx.MockTransport(collector), **kw)


def test_noop_until_configured():
    assert not trace.is_configured()
    with trace.request("q") as t:
        s = t.span("retrieval", query="q", chunks=["a"])
        with s:
            pass
        t.set_answer("a")
    assert t is trace.current()  # the shared no-op object
    assert t.id is None

    @trace.traced
    def answer(question):
        return "42"

    assert answer("q") == "42"
    assert trace.flush(0.1) is True
    assert trace.stats()["submitted"] == 0


def test_a_request_becomes_one_trace_with_its_spans():
    col = Collector()
    _configure(col)

    class Doc:  # a LangChain-like document
        page_content = "Paris is the capital of France."
        metadata = {"id": "d2", "source": "wiki"}

    with trace.request("What is the capital?", metadata={"user": "u1"}, tags=["prod"]) as t:
        with t.span("retrieval", query="capital", filters={"lang": "en"}) as s:
            s.set(chunks=[{"id": 1, "text": "France", "score": 0.5}, Doc(), "plain"])
        t.span("generation", prompt="p", answer="Paris.", ttft_ms=12.5, tokens={"completion": 3}, model="m")
        t.span("guard", decision="answer")
        t.span("my_step", foo=1)
    assert trace.flush(5)
    [got] = col.traces
    assert got["id"] == t.id and got["app_name"] == "bot" and got["app_version"] == "1.3"
    assert got["question"] == "What is the capital?" and got["answer"] == "Paris."  # from the generation span
    assert got["metadata"] == {"user": "u1"} and got["tags"] == ["prod"] and got["status"] == "ok"
    assert got["duration_ms"] >= 0
    ret, gen, guard, custom = got["spans"]
    assert ret["kind"] == "retrieval" and ret["query"] == "capital" and ret["filters"] == {"lang": "en"}
    assert ret["chunks"] == [{"id": "1", "text": "France", "score": 0.5, "metadata": {}},
                             {"id": "d2", "text": "Paris is the capital of France.", "score": None,
                              "metadata": {"id": "d2", "source": "wiki"}},
                             {"id": None, "text": "plain", "score": None, "metadata": {}}]
    assert ret["duration_ms"] is not None and ret["duration_ms"] >= 0
    assert gen["ttft_ms"] == 12.5 and gen["tokens"] == {"completion": 3} and gen["model"] == "m"
    assert guard == {"kind": "guard", "name": "guard", "start_ms": guard["start_ms"], "duration_ms": None,
                     "decision": "answer"}
    assert custom["kind"] == "custom" and custom["attributes"] == {"foo": 1, "kind": "my_step"}
    assert col.auth == ["Bearer tok"]


def test_user_errors_propagate_and_odd_values_never_break_the_request():
    col = Collector()
    _configure(col)
    with pytest.raises(KeyError):
        with trace.request("q") as t:
            t.span("retrieval", chunks=[{"id": "a", "text": "x", "score": float("nan")}], weird=object(),
                   nan=float("inf"))
            raise KeyError("boom")
    assert trace.flush(5)
    [got] = col.traces
    assert got["status"] == "error" and got["error"] == "KeyError: 'boom'"
    span = got["spans"][0]
    assert span["chunks"][0]["score"] is None  # NaN is not JSON
    assert span["attributes"]["nan"] is None and span["attributes"]["weird"].startswith("<object")


def test_traced_decorator_sync_and_async():
    col = Collector()
    _configure(col)

    @trace.traced
    def rag(question, k=3):
        trace.current().span("retrieval", chunks=["c"])
        return f"answer to {question}"

    @trace.traced(question_arg="q")
    async def arag(x, q=None):
        return "async answer"

    assert rag("why?") == "answer to why?"
    assert asyncio.run(arag(1, q="how?")) == "async answer"
    assert trace.flush(5)
    got = sorted(col.traces, key=lambda t: t["question"])
    assert [(t["question"], t["answer"]) for t in got] == [("how?", "async answer"), ("why?", "answer to why?")]
    assert got[1]["spans"][0]["chunks"][0]["text"] == "c"


def test_full_queue_counts_drops_and_never_blocks():
    col = Collector("slow")
    _configure(col, max_queue=5, batch_size=1)
    worst = 0.0
    for i in range(200):
        t0 = time.perf_counter()
        with trace.request(f"q{i}") as t:
            t.set_answer("a")
        worst = max(worst, time.perf_counter() - t0)
    st = trace.stats()
    assert st["dropped"] > 0 and st["submitted"] + st["dropped"] == 200
    assert worst < 0.05  # a slow collector (0.3 s a batch) never holds the request


def test_collector_down_spools_and_a_restart_delivers(tmp_path):
    spool = tmp_path / "spool"
    col = Collector("down")
    _configure(col, spool_dir=spool)
    for i in range(30):
        with trace.request(f"q{i}") as t:
            t.set_answer("a")
    assert trace.flush(0.5) is False  # the collector is down: not delivered
    assert trace.shutdown(timeout=0.2) is False
    segments = sorted(spool.glob("seg-*.jsonl"))
    assert segments and sum(len(p.read_text().splitlines()) for p in segments) == 30
    # the next process (same spool folder) delivers them once the collector answers
    col2 = Collector("ok")
    _configure(col2, spool_dir=spool)
    assert trace.flush(5) is True
    assert sorted(t["question"] for t in col2.traces) == sorted(f"q{i}" for i in range(30))
    assert not list(spool.glob("seg-*"))


def test_retry_after_5xx_without_a_spool_keeps_traces_in_memory():
    col = Collector("500")
    _configure(col)
    for i in range(3):
        with trace.request(f"q{i}"):
            pass
    time.sleep(0.2)
    assert trace.stats()["pending_batches"] >= 1 and not col.traces
    col.mode = "ok"
    assert trace.flush(5)
    assert sorted(t["question"] for t in col.traces) == ["q0", "q1", "q2"]
    assert trace.stats()["dropped"] == 0


def test_refused_traces_are_counted_and_the_rest_delivered():
    col = Collector("reject-bad")
    _configure(col, flush_interval=0.2)
    for q in ("good1", "bad", "good2"):
        with trace.request(q):
            pass
    assert trace.flush(5)
    assert sorted(t["question"] for t in col.traces) == ["good1", "good2"]
    assert trace.stats()["rejected"] == 1


def test_too_large_batches_are_split():
    col = Collector("limit-2")
    _configure(col, flush_interval=0.2)
    for q in ("a", "b", "c", "d", "e", "huge"):
        with trace.request(q):
            pass
    assert trace.flush(5)
    assert sorted(t["question"] for t in col.traces) == ["a", "b", "c", "d", "e"]
    assert all(len(b) <= 2 for b in col.batches)
    assert trace.stats()["rejected"] == 1


def test_full_spool_counts_drops(tmp_path):
    col = Collector("down")
    _configure(col, spool_dir=tmp_path, max_spool_bytes=600, batch_size=1)
    for i in range(20):
        with trace.request(f"q{i}"):
            pass
    trace.shutdown(timeout=0.3)
    kept = sum(len(p.read_text().splitlines()) for p in tmp_path.glob("seg-*.jsonl"))
    assert 0 < kept < 20
    assert sum(p.stat().st_size for p in tmp_path.glob("seg-*.jsonl")) <= 600


def test_full_spool_drop_counter(tmp_path):
    col = Collector("down")
    _configure(col, spool_dir=tmp_path, max_spool_bytes=600, batch_size=1)
    for i in range(20):
        with trace.request(f"q{i}"):
            pass
    time.sleep(0.3)
    st = trace.stats()
    assert st["dropped"] > 0 and st["spooled"] > 0


@pytest.mark.parametrize("endpoint", ["127.0.0.1:8501", "ftp://x", ""])
def test_configure_refuses_a_bad_endpoint(endpoint):
    with pytest.raises(ConfigError, match="http"):
        trace.configure(endpoint)


def test_wire_sanitizes_non_finite_numbers():
    from ragauge.trace._wire import dumps_trace

    doc = json.loads(dumps_trace({"a": float("nan"), "b": [1.5, math.inf], "c": {1: "x"}}))
    assert doc == {"a": None, "b": [1.5, None], "c": {"1": "x"}}


def test_stats_keep_their_final_counts_after_shutdown():
    col = Collector()
    _configure(col)
    for i in range(3):
        with trace.request(f"q{i}"):
            pass
    assert trace.shutdown(5)
    after = trace.stats()
    assert after["submitted"] == 3 and after["sent"] == 3 and after["queued"] == 0


@pytest.mark.parametrize("mode", ["down", "500"])
def test_failed_deliveries_count_as_errors_while_retried(mode):
    col = Collector(mode)
    _configure(col)
    with trace.request("q"):
        pass
    time.sleep(0.3)
    assert col.calls >= 1 and trace.stats()["errors"] >= 1 and not col.traces
    col.mode = "ok"
    assert trace.flush(5) and [t["question"] for t in col.traces] == ["q"]
