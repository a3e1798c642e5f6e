"""Issue 16 review: NUL in text, OTLP roots with a remote parent, HTTP server roots, empty traces."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("opentelemetry.sdk")
pytest.importorskip("opentelemetry.exporter.otlp.proto.http")

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from opentelemetry import trace as otel  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags  # noqa: E402

from ragauge.serve import otlp_ingest  # noqa: E402
from ragauge.serve.app import create_app  # noqa: E402
from ragauge.serve.db import make_engine, migrate, score_queue, scores  # noqa: E402
from ragauge.serve.otlp import OtlpSpan  # noqa: E402
from ragauge.serve.schema import parse_batch  # noqa: E402
from ragauge.serve.scoring import Scorer  # noqa: E402
from ragauge.serve.store import insert_batch  # noqa: E402

from .conftest import TOKEN  # noqa: E402
from .test_app import batch, make_trace  # noqa: E402
from .test_otlp import AUTH, _exporter, _get, _otlp_json, _post_json, provider  # noqa: E402, F401

NUL = "\u0000"


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db=db_url, token=TOKEN, scoring=False)) as c:
        yield c


def test_nul_in_any_text_is_stored_as_the_replacement_character(client):
    t = make_trace(1, question=f"what{NUL}?", app_name=f"bot{NUL}", metadata={f"k{NUL}": [f"v{NUL}"]})
    t["spans"][0]["chunks"][0].update(text=f"chunk{NUL}text", metadata={"src": f"a{NUL}"})
    r = client.post("/api/traces", json=batch(t), headers=AUTH)
    assert r.status_code == 200, r.text
    again = client.post("/api/traces", json=batch(make_trace(2)), headers=AUTH)  # nothing blocked behind it
    assert again.status_code == 200
    item = client.get("/api/traces/t1", headers=AUTH).json()
    assert item["question"] == "what\ufffd?" and item["app_name"] == "bot\ufffd"
    assert item["metadata"] == {"k\ufffd": ["v\ufffd"]}
    chunk = item["spans"][0]["chunks"][0]
    assert chunk["text"] == "chunk\ufffdtext" and chunk["metadata"] == {"src": "a\ufffd"}
    fb = client.post("/api/traces/t1/feedback", json={"rating": "up", "comment": f"ok{NUL}"}, headers=AUTH)
    assert fb.status_code == 200, fb.text


def test_nul_in_an_otlp_input_value_is_stored(client):
    span = {"traceId": "ab" * 16, "spanId": "cd" * 8, "name": f"chain{NUL}", "startTimeUnixNano": "1000",
            "endTimeUnixNano": "2000", "attributes": [
                {"key": "openinference.span.kind", "value": {"stringValue": "CHAIN"}},
                {"key": "input.value", "value": {"stringValue": f"q{NUL}?"}}]}
    doc = {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "s"}}]},
                              "scopeSpans": [{"spans": [span]}]}]}
    r = client.post("/v1/traces", content=json.dumps(doc), headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 200, r.text
    assert client.get(f"/api/traces/{'ab' * 16}", headers=AUTH).json()["question"] == "q\ufffd?"


def _remote_parent() -> otel.Context:
    ctx = SpanContext(trace_id=0x0123456789ABCDEF0123456789ABCDEF, span_id=0x00000000000000AA, is_remote=True,
                      trace_flags=TraceFlags(TraceFlags.SAMPLED))
    return otel.set_span_in_context(NonRecordingSpan(ctx))


def test_a_trace_continuing_a_remote_traceparent_is_stored(server):
    p = provider(SimpleSpanProcessor(_exporter(server)))
    tracer = p.get_tracer("app")
    with tracer.start_as_current_span("RAG chain", context=_remote_parent()) as root:
        root.set_attribute("openinference.span.kind", "CHAIN")
        root.set_attribute("input.value", "How many vacation days?")
        root.set_attribute("output.value", "28 days.")
        with tracer.start_as_current_span("retrieve") as r:
            r.set_attribute("openinference.span.kind", "RETRIEVER")
            r.set_attribute("retrieval.documents.0.document.content", "Employees get 28 days.")
    p.shutdown()
    item = _get(server, f"/api/traces/{'0123456789abcdef' * 2}").json()
    assert item["question"] == "How many vacation days?" and item["answer"] == "28 days."
    assert [s["kind"] for s in item["spans"]] == ["retrieval"]


@pytest.fixture
def server(live, db_url):
    s = live(lambda: create_app(db=db_url, token=TOKEN, scoring=False))
    s.start(s.reserved)
    return s


def _span(sid: str, parent: str | None, name: str, start: int, end: int, **attrs) -> OtlpSpan:
    return OtlpSpan(trace_id="ef" * 16, span_id=sid * 8, parent_span_id=parent and parent * 8, name=name,
                    start_ns=start, end_ns=end, attributes=attrs, resource={"service.name": "svc"})


@pytest.fixture
def engine(db_url):
    e = make_engine(db_url)
    migrate(e)
    yield e
    e.dispose()


def test_without_span_flags_the_topmost_span_becomes_the_root_after_the_wait(engine):
    spans = [_span("02", "01", "POST /ask", 10, 100, **{"input.value": "q?", "output.value": "a."}),
             _span("03", "02", "retrieve", 20, 30, **{"openinference.span.kind": "RETRIEVER"})]
    out = otlp_ingest.ingest(engine, spans, now=1000.0)
    assert out["accepted"] == 0 and out["pending_spans"] == 2
    assert otlp_ingest.adopt_waiting(engine, now=1000.0 + otlp_ingest.ROOT_WAIT_S / 2) == 0  # its parent may come
    assert otlp_ingest.adopt_waiting(engine, now=1000.0 + otlp_ingest.ROOT_WAIT_S + 1) == 1
    with engine.connect() as conn:
        row = conn.execute(sa.text("SELECT question, answer FROM traces")).one()
    assert tuple(row) == ("q?", "a.")


def test_an_http_server_root_takes_the_question_from_the_chain_below(server):
    p = provider(SimpleSpanProcessor(_exporter(server)))
    tracer = p.get_tracer("app")
    with tracer.start_as_current_span("POST /ask") as http:  # FastAPI auto-instrumentation: no input.value
        http.set_attribute("http.method", "POST")
        with tracer.start_as_current_span("RAG chain") as chain:
            chain.set_attribute("openinference.span.kind", "CHAIN")
            chain.set_attribute("input.value", json.dumps({"question": "Сколько дней отпуска?"}))
            chain.set_attribute("output.value", "28 дней.")
            with tracer.start_as_current_span("inner chain") as inner:
                inner.set_attribute("openinference.span.kind", "CHAIN")
                inner.set_attribute("input.value", "rewritten query")
            with tracer.start_as_current_span("retrieve") as r:
                r.set_attribute("openinference.span.kind", "RETRIEVER")
                r.set_attribute("retrieval.documents.0.document.content", "28 дней.")
        tid = format(http.get_span_context().trace_id, "032x")
    p.shutdown()
    item = _get(server, f"/api/traces/{tid}").json()
    assert item["question"] == "Сколько дней отпуска?" and item["answer"] == "28 дней."


def test_a_trace_with_nothing_to_score_ends_done_with_a_reason(engine):
    insert_batch(engine, parse_batch(json.dumps({"traces": [
        {"id": "empty", "app_name": "bot", "start_time": 1.0, "spans": []}]}).encode()))
    scorer = Scorer(engine, metrics=["faithfulness", "latency_p50"])
    assert scorer.run_once() == 1
    with engine.connect() as conn:
        q = conn.execute(sa.select(score_queue).where(score_queue.c.trace_id == "empty")).one()
        rows = conn.execute(sa.select(scores.c.metric, scores.c.value, scores.c.reason)).all()
    assert q.state == "done" and q.last_error is None
    assert sorted(rows) == [(m, None, "no question, answer or contexts in the trace")
                            for m in ("faithfulness", "latency_p50")]




def test_the_sdk_keeps_delivering_after_a_trace_with_nul(server):
    from ragauge import trace

    trace.configure(server.url, token=TOKEN, app_name="bot", flush_interval=0.02)
    try:
        with trace.request(f"bad{NUL}question") as t:
            with t.span("retrieval", query="q", chunks=[f"text{NUL}"]):
                pass
            t.set_answer(f"a{NUL}")
        for i in range(3):
            with trace.request(f"later {i}"):
                pass
        assert trace.flush(10)
        stats = trace.stats()
    finally:
        trace.shutdown(timeout=2)
    assert stats["sent"] == 4 and stats["pending_batches"] == 0 and stats["errors"] == 0
    items = _get(server, "/api/traces", limit=10).json()["items"]
    assert sorted(i["question"] for i in items) == ["bad\ufffdquestion", "later 0", "later 1", "later 2"]
