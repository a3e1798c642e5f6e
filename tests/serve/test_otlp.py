"""OTLP/HTTP in: the real OpenTelemetry SDK exporter sends OpenInference spans to a live collector."""

from __future__ import annotations

import base64
import gzip
import json
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("opentelemetry.sdk.trace")
pytest.importorskip("opentelemetry.exporter.otlp.proto.http.trace_exporter")

import httpx  # noqa: E402
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans  # noqa: E402
from opentelemetry.exporter.otlp.proto.http import Compression  # noqa: E402
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: E402
from opentelemetry.sdk.resources import Resource  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import (BatchSpanProcessor, SimpleSpanProcessor,  # noqa: E402
                                            SpanExporter, SpanExportResult)
from opentelemetry.trace import Status, StatusCode  # noqa: E402

from ragauge.serve.app import create_app  # noqa: E402

from .conftest import TOKEN  # noqa: E402

AUTH = {"Authorization": f"Bearer {TOKEN}"}


class Keep(SpanExporter):
    """Keeps finished spans in memory (to encode them ourselves for the JSON path)."""

    def __init__(self) -> None:
        self.spans = []

    def export(self, spans):
        self.spans.extend(spans)
        return SpanExportResult.SUCCESS

    def shutdown(self):
        pass


def provider(*processors, version="2.1") -> TracerProvider:
    p = TracerProvider(resource=Resource.create({"service.name": "support-bot", "service.version": version}))
    for proc in processors:
        p.add_span_processor(proc)
    return p


def rag_request(tracer, question="Сколько дней отпуска положено?", *, docs=2, fail_retrieval=False) -> str:
    """A LangChain-like request as the openinference instrumentors record it; returns the trace id (hex)."""
    with tracer.start_as_current_span("RAG chain") as root:
        root.set_attribute("openinference.span.kind", "CHAIN")
        root.set_attribute("input.value", json.dumps({"question": question}, ensure_ascii=False))
        root.set_attribute("input.mime_type", "application/json")
        root.set_attribute("session.id", "s-42")
        root.set_attribute("metadata", json.dumps({"channel": "web"}))
        root.set_attribute("tag.tags", ["hr", "vacation"])
        with tracer.start_as_current_span("retrieve") as r:
            r.set_attribute("openinference.span.kind", "RETRIEVER")
            r.set_attribute("input.value", question)
            for i in range(docs):
                r.set_attribute(f"retrieval.documents.{i}.document.id", f"doc{i}")
                r.set_attribute(f"retrieval.documents.{i}.document.content", f"Работнику положено 28 дней ({i}).")
                r.set_attribute(f"retrieval.documents.{i}.document.score", 0.9 - i / 10)
                r.set_attribute(f"retrieval.documents.{i}.document.metadata", json.dumps({"source": f"hr{i}.pdf"}))
            if fail_retrieval:
                r.set_status(Status(StatusCode.ERROR, "index timeout"))
        with tracer.start_as_current_span("ChatOpenAI") as g:
            g.set_attribute("openinference.span.kind", "LLM")
            g.set_attribute("llm.model_name", "gpt-4o-mini")
            g.set_attribute("llm.input_messages.0.message.role", "system")
            g.set_attribute("llm.input_messages.0.message.content", "Answer from the context.")
            g.set_attribute("llm.input_messages.1.message.role", "user")
            g.set_attribute("llm.input_messages.1.message.content", question)
            g.set_attribute("llm.output_messages.0.message.role", "assistant")
            g.set_attribute("llm.output_messages.0.message.content", "Положено 28 календарных дней.")
            g.set_attribute("llm.token_count.prompt", 120)
            g.set_attribute("llm.token_count.completion", 9)
            g.set_attribute("llm.token_count.total", 129)
            g.add_event("First Token Stream Event")
        root.set_attribute("output.value", "Положено 28 календарных дней.")
        return format(root.get_span_context().trace_id, "032x")


@pytest.fixture
def server(live, db_url):
    s = live(lambda: create_app(db=db_url, token=TOKEN, scoring=False))
    s.start(s.reserved)
    return s


def _get(server, path, **params):
    r = httpx.get(f"{server.url}{path}", params=params, headers=AUTH, timeout=10)
    return r


def _exporter(server, **kw) -> OTLPSpanExporter:
    return OTLPSpanExporter(endpoint=f"{server.url}/v1/traces", headers={"Authorization": f"Bearer {TOKEN}"}, **kw)


def _check_stored(item: dict) -> None:
    assert item["app_name"] == "support-bot" and item["app_version"] == "2.1"
    assert item["question"] == "Сколько дней отпуска положено?"
    assert item["answer"] == "Положено 28 календарных дней."
    assert item["tags"] == ["hr", "vacation"]
    assert item["metadata"]["session_id"] == "s-42" and item["metadata"]["channel"] == "web"
    assert item["metadata"]["source"] == "otlp"
    assert item["latency_ms"] > 0 and item["retrieval_ms"] is not None and item["ttft_ms"] is not None
    assert item["scoring"]["state"] == "pending"


def test_the_real_otlp_exporter_protobuf_is_stored_as_a_trace(server):
    p = provider(BatchSpanProcessor(_exporter(server)))
    tid = rag_request(p.get_tracer("app"))
    assert p.force_flush(10_000)
    item = _get(server, f"/api/traces/{tid}").json()
    _check_stored(item)
    retrieval, generation = item["spans"]
    assert retrieval["kind"] == "retrieval" and retrieval["query"] == "Сколько дней отпуска положено?"
    assert [c["id"] for c in retrieval["chunks"]] == ["doc0", "doc1"]
    assert retrieval["chunks"][1] == {"id": "doc1", "text": "Работнику положено 28 дней (1).", "score": 0.8,
                                      "metadata": {"source": "hr1.pdf"}}
    assert generation["kind"] == "generation" and generation["model"] == "gpt-4o-mini"
    assert generation["tokens"] == {"prompt": 120, "completion": 9, "total": 129}
    assert generation["prompt"][1] == {"role": "user", "content": "Сколько дней отпуска положено?"}
    assert generation["answer"] == "Положено 28 календарных дней."
    p.shutdown()


def test_children_sent_before_their_root_wait_for_it(server):
    # SimpleSpanProcessor exports each span when it ends: retrieval, then LLM, then the root, 3 requests
    sent = []

    class Spy(SpanExporter):
        def __init__(self):
            self.inner = _exporter(server)

        def export(self, spans):
            result = self.inner.export(spans)
            visible = _get(server, "/api/traces").json()["count"]
            sent.append((spans[0].name, result, visible))
            return result

        def shutdown(self):
            self.inner.shutdown()

    p = provider(SimpleSpanProcessor(Spy()))
    tid = rag_request(p.get_tracer("app"))
    # the children alone are not a trace yet; the root's arrival stores the whole trace
    assert [(name, visible) for name, _, visible in sent] == [("retrieve", 0), ("ChatOpenAI", 0), ("RAG chain", 1)]
    assert all(r == SpanExportResult.SUCCESS for _, r, _ in sent)
    items = _get(server, "/api/traces").json()["items"]
    assert [i["id"] for i in items] == [tid]
    _check_stored(items[0])
    assert [s["kind"] for s in _get(server, f"/api/traces/{tid}").json()["spans"]] == ["retrieval", "generation"]


def _otlp_json(spans) -> dict:
    """The OTLP JSON encoding of real SDK spans: the protobuf message in JSON form, ids in hex (the spec)."""
    from google.protobuf.json_format import MessageToDict

    doc = MessageToDict(encode_spans(spans))
    for rs in doc["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for sp in ss["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in sp:
                        sp[key] = base64.b64decode(sp[key]).hex()
    return doc


def test_otlp_json_is_stored_like_protobuf(server):
    keep = Keep()
    p = provider(SimpleSpanProcessor(keep))
    tid = rag_request(p.get_tracer("app"))
    body = json.dumps(_otlp_json(keep.spans)).encode()
    r = httpx.post(f"{server.url}/v1/traces", content=body, headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json") and r.json() == {}
    item = _get(server, f"/api/traces/{tid}").json()
    _check_stored(item)
    assert [c["id"] for c in item["spans"][0]["chunks"]] == ["doc0", "doc1"]
    # sent again (an exporter retry): stored once
    r = httpx.post(f"{server.url}/v1/traces", content=body, headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 200 and _get(server, "/api/traces").json()["count"] == 1


def test_gzip_from_the_exporter(server):
    p = provider(BatchSpanProcessor(_exporter(server, compression=Compression.Gzip)))
    tid = rag_request(p.get_tracer("app"))
    assert p.force_flush(10_000)
    _check_stored(_get(server, f"/api/traces/{tid}").json())
    p.shutdown()


def test_the_exporter_needs_the_token(server):
    keep = Keep()
    rag_request(provider(SimpleSpanProcessor(keep)).get_tracer("app"))
    bad = OTLPSpanExporter(endpoint=f"{server.url}/v1/traces", headers={"Authorization": "Bearer nope"}, timeout=2)
    assert bad.export(keep.spans) == SpanExportResult.FAILURE
    assert _exporter(server).export(keep.spans) == SpanExportResult.SUCCESS
    assert _get(server, "/api/traces").json()["count"] == 1


def _post_json(server, doc):
    return httpx.post(f"{server.url}/v1/traces", content=json.dumps(doc).encode(),
                      headers={**AUTH, "Content-Type": "application/json"})


def test_one_bad_span_refuses_the_request_with_a_reason_and_stores_nothing(server):
    keep = Keep()
    p = provider(SimpleSpanProcessor(keep))
    rag_request(p.get_tracer("app"), question="good one")
    doc = _otlp_json(keep.spans)
    spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    bad = dict(spans[0], spanId="00000000000000ff", startTimeUnixNano="200", endTimeUnixNano="100",
               traceId="0" * 31 + "1", name="broken")
    spans.append(bad)
    r = _post_json(server, doc)
    assert r.status_code == 400
    assert "nothing stored" in r.json()["message"] and "ends before it starts" in r.json()["message"]
    assert "broken" in r.json()["message"]
    assert _get(server, "/api/traces").json()["count"] == 0
    spans.pop()
    spans[0]["traceId"] = "zz" * 16
    r = _post_json(server, doc)
    assert r.status_code == 400 and "traceId" in r.json()["message"]
    assert _get(server, "/api/traces").json()["count"] == 0


@pytest.mark.parametrize("body, ctype, status", [
    (b"\x00\xffnot protobuf at all", "application/x-protobuf", 400),
    (b"not json", "application/json", 400),
    (b'{"resourceSpans": {}}', "application/json", 400),
    (b"{}", "text/plain", 415),
])
def test_malformed_otlp_bodies_are_refused(server, body, ctype, status):
    r = httpx.post(f"{server.url}/v1/traces", content=body, headers={**AUTH, "Content-Type": ctype})
    assert r.status_code == status
    if ctype == "application/x-protobuf":
        from google.rpc.status_pb2 import Status as RpcStatus

        msg = RpcStatus.FromString(r.content).message
    else:
        msg = json.loads(r.content)["message"]
    assert "nothing stored" in msg
    assert _get(server, "/api/traces").json()["count"] == 0


def test_a_span_after_its_root_is_refused_in_partial_success(server):
    keep = Keep()
    tracer = provider(SimpleSpanProcessor(keep)).get_tracer("app")
    rag_request(tracer)
    doc = _otlp_json(keep.spans)
    assert _post_json(server, doc).json() == {}
    spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    late = [dict(s, spanId="00000000000000aa") for s in spans if s.get("parentSpanId")][:1]
    doc["resourceSpans"][0]["scopeSpans"][0]["spans"] = late
    r = _post_json(server, doc)
    assert r.status_code == 200
    partial = r.json()["partialSuccess"]
    assert partial["rejectedSpans"] == "1" and "after their trace was stored" in partial["errorMessage"]


def test_the_otlp_body_limit(live, tmp_path):
    s = live(lambda: create_app(db=f"sqlite:///{tmp_path}/a.db", token=TOKEN, scoring=False, max_body_bytes=4096))
    s.start(s.reserved)
    keep = Keep()
    rag_request(provider(SimpleSpanProcessor(keep)).get_tracer("app"), docs=60)
    body = json.dumps(_otlp_json(keep.spans)).encode()
    assert len(body) > 4096
    r = httpx.post(f"{s.url}/v1/traces", content=body, headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 413
    bomb = gzip.compress(b" " * 100_000 + body)  # small on the wire, over the limit inflated
    r = httpx.post(f"{s.url}/v1/traces", content=bomb, headers={**AUTH, "Content-Type": "application/json",
                                                                  "Content-Encoding": "gzip"})
    assert r.status_code == 413
    assert _get(s, "/api/traces").json()["count"] == 0


def test_a_failed_retrieval_keeps_its_error(server):
    p = provider(BatchSpanProcessor(_exporter(server)))
    tid = rag_request(p.get_tracer("app"), fail_retrieval=True)
    assert p.force_flush(10_000)
    time.sleep(0.05)
    spans = _get(server, f"/api/traces/{tid}").json()["spans"]
    assert spans[0]["error"] == "index timeout"
    p.shutdown()


def test_a_single_llm_call_is_a_trace_with_its_generation():
    """An app that only calls the LLM (the openai instrumentor): the root is the LLM span itself."""
    from ragauge.serve.openinference import to_trace
    from ragauge.serve.otlp import OtlpSpan

    root = OtlpSpan(trace_id="ab" * 16, span_id="cd" * 8, parent_span_id=None, name="ChatCompletion",
                    start_ns=1_700_000_000_000_000_000, end_ns=1_700_000_000_250_000_000,
                    attributes={"openinference.span.kind": "LLM", "input.value": "Привет?",
                                "llm.output_messages": [{"message.role": "assistant", "message.content": "Здравствуйте!"}],
                                "llm.token_count.total": 12},
                    resource={"service.name": "unknown_service", "openinference.project.name": "chat"})
    t = to_trace([root])
    assert t["app_name"] == "chat" and t["question"] == "Привет?" and t["duration_ms"] == pytest.approx(250.0)
    [gen] = t["spans"]
    assert gen["kind"] == "generation" and gen["answer"] == "Здравствуйте!" and gen["tokens"] == {"total": 12}
    assert t["answer"] is None  # resolved at ingest from the generation span, as for SDK traces


def test_a_flood_of_spans_without_a_root_is_bounded(server):
    from ragauge.serve.schema import MAX_SPANS_PER_TRACE

    def child(i):
        return {"traceId": "12" * 16, "spanId": f"{i + 1:016x}", "parentSpanId": "ff" * 8, "name": f"c{i}",
                "startTimeUnixNano": "1", "endTimeUnixNano": "2", "attributes": []}

    doc = {"resourceSpans": [{"resource": {"attributes": []},
                              "scopeSpans": [{"spans": [child(i) for i in range(MAX_SPANS_PER_TRACE)]}]}]}
    assert _post_json(server, doc).status_code == 200  # waiting for the root
    doc["resourceSpans"][0]["scopeSpans"][0]["spans"] = [child(MAX_SPANS_PER_TRACE)]
    r = _post_json(server, doc)
    assert r.status_code == 400 and f"more than {MAX_SPANS_PER_TRACE} spans" in r.json()["message"]


def test_a_truncated_gzip_body_is_refused(server):
    keep = Keep()
    rag_request(provider(SimpleSpanProcessor(keep)).get_tracer("app"))
    packed = gzip.compress(json.dumps(_otlp_json(keep.spans)).encode())
    r = httpx.post(f"{server.url}/v1/traces", content=packed[: len(packed) // 2],
                   headers={**AUTH, "Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert r.status_code == 400 and "truncated" in r.json()["message"]
    assert _get(server, "/api/traces").json()["count"] == 0


def test_non_finite_doubles_become_no_value(server):
    """A NaN retrieval score from the protobuf exporter is stored as no score, never as NaN."""
    p = provider(SimpleSpanProcessor(_exporter(server)))
    tracer = p.get_tracer("app")
    with tracer.start_as_current_span("chain") as root:
        root.set_attribute("openinference.span.kind", "CHAIN")
        root.set_attribute("input.value", "q?")
        with tracer.start_as_current_span("retrieve") as r:
            r.set_attribute("openinference.span.kind", "RETRIEVER")
            r.set_attribute("retrieval.documents.0.document.content", "text")
            r.set_attribute("retrieval.documents.0.document.score", float("nan"))
        tid = format(root.get_span_context().trace_id, "032x")
    [chunk] = _get(server, f"/api/traces/{tid}").json()["spans"][0]["chunks"]
    assert chunk["score"] is None and chunk["text"] == "text"
    r = httpx.post(f"{server.url}/v1/traces", content=b'{"resourceSpans": [], "x": NaN}',
                   headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 400 and "NaN" in r.json()["message"]


def test_children_and_root_sent_at_once_from_many_threads(server, db_url):
    """Children and roots of 40 traces race in separate requests: every child ends up in its trace or is
    refused in partial_success (it came after its root); none is left waiting for a root that was stored."""
    import concurrent.futures

    import sqlalchemy as sa

    keep = Keep()
    tracer = provider(SimpleSpanProcessor(keep)).get_tracer("app")
    ids = [rag_request(tracer, question=f"q{i}") for i in range(40)]
    bodies = [json.dumps(_otlp_json([s])).encode() for s in keep.spans]  # one request per span

    def post(body):
        r = httpx.post(f"{server.url}/v1/traces", content=body, timeout=30,
                       headers={**AUTH, "Content-Type": "application/json"})
        assert r.status_code == 200, r.text
        return int(r.json().get("partialSuccess", {}).get("rejectedSpans", 0))

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        rejected = sum(pool.map(post, bodies))
    stored_children = sum(len(_get(server, f"/api/traces/{tid}").json()["spans"]) for tid in ids)
    assert stored_children + rejected == 80
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT COUNT(*) FROM otlp_pending")).scalar_one() == 0
    engine.dispose()


def test_a_span_repeated_in_one_request_counts_once(server):
    keep = Keep()
    p = provider(SimpleSpanProcessor(keep))
    tid = rag_request(p.get_tracer("app"))
    children = [s for s in keep.spans if s.parent is not None]
    root = [s for s in keep.spans if s.parent is None]
    assert _post_json(server, _otlp_json(children + children)).status_code == 200  # waiting, twice over
    assert _post_json(server, _otlp_json(root + root + children)).status_code == 200
    assert [s["kind"] for s in _get(server, f"/api/traces/{tid}").json()["spans"]] == ["retrieval", "generation"]
