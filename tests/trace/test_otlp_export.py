"""The SDK exports OpenInference spans over OTLP/HTTP: read back by the official OTLP protobuf classes in a
plain local receiver, and stored by `ragauge serve`'s /v1/traces exactly like the SDK's own protocol."""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("opentelemetry.proto")

from google.protobuf.json_format import ParseDict  # noqa: E402
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest  # noqa: E402

from ragauge import trace  # noqa: E402
from ragauge.errors import ConfigError  # noqa: E402


class Receiver:
    """An OTLP/HTTP endpoint that is not ragauge: keeps what it got, answers 200 (or ``status``)."""

    def __init__(self, status: int = 200) -> None:
        self.requests: list[tuple[str, dict, bytes]] = []
        self.status = status
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.requests.append((self.path, dict(self.headers), body))
                self.send_response(outer.status)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture(autouse=True)
def _sdk_off():
    trace.shutdown(timeout=0.5)
    yield
    trace.shutdown(timeout=0.5)


def _request(question: str = "What is the notice period?") -> str:
    with trace.request(question, metadata={"user": "u1"}, tags=["hr"]) as t:
        with t.span("retrieval", query="notice period") as s:
            s.set(chunks=[{"id": "d1", "text": "The notice period is two weeks.", "score": 0.8,
                           "metadata": {"page": 3}}, "a plain chunk"])
        t.span("generation", prompt=[{"role": "user", "content": question}], answer="Two weeks.", ttft_ms=12.0,
               tokens={"prompt": 30, "completion": 3}, model="local-7b")
        t.span("guard", decision="answer", reason="supported")
    return t.id


def _attrs(kvs) -> dict:
    out = {}
    for kv in kvs:
        which = kv.value.WhichOneof("value")
        out[kv.key] = ([v.string_value for v in kv.value.array_value.values] if which == "array_value"
                       else getattr(kv.value, which))
    return out


def test_protobuf_export_reads_back_with_the_official_otlp_classes(receiver):
    trace.configure(receiver.url, token="secret", app_name="hr-bot", app_version="0.9", protocol="otlp-protobuf",
                    flush_interval=0.05)
    tid = _request()
    assert trace.flush(10)
    [(path, headers, body)] = receiver.requests
    assert path == "/v1/traces" and headers["Content-Type"] == "application/x-protobuf"
    assert headers["Authorization"] == "Bearer secret"
    req = ExportTraceServiceRequest.FromString(body)
    [rs] = req.resource_spans
    assert _attrs(rs.resource.attributes) == {"service.name": "hr-bot", "service.version": "0.9"}
    root, retrieval, generation, guard = rs.scope_spans[0].spans
    assert root.trace_id.hex() == tid and not root.parent_span_id
    assert {s.parent_span_id for s in (retrieval, generation, guard)} == {root.span_id}
    ra = _attrs(root.attributes)
    assert ra["openinference.span.kind"] == "CHAIN" and ra["input.value"] == "What is the notice period?"
    assert ra["output.value"] == "Two weeks." and json.loads(ra["metadata"]) == {"user": "u1"}
    assert ra["tag.tags"] == ["hr"]
    a = _attrs(retrieval.attributes)
    assert a["openinference.span.kind"] == "RETRIEVER" and a["input.value"] == "notice period"
    assert a["retrieval.documents.0.document.id"] == "d1"
    assert a["retrieval.documents.0.document.score"] == 0.8
    assert json.loads(a["retrieval.documents.0.document.metadata"]) == {"page": 3}
    assert a["retrieval.documents.1.document.content"] == "a plain chunk"
    g = _attrs(generation.attributes)
    assert g["openinference.span.kind"] == "LLM" and g["output.value"] == "Two weeks."
    assert g["llm.token_count.prompt"] == 30 and g["llm.model_name"] == "local-7b"
    assert g["llm.input_messages.0.message.role"] == "user"
    [event] = generation.events
    assert event.name == "First Token Stream Event"
    assert abs((event.time_unix_nano - generation.start_time_unix_nano) / 1e6 - 12.0) < 0.01
    assert _attrs(guard.attributes)["openinference.span.kind"] == "GUARDRAIL"
    assert root.end_time_unix_nano >= root.start_time_unix_nano > 0


def test_json_export_is_the_otlp_json_mapping(receiver):
    trace.configure(receiver.url + "/v1/traces", app_name="hr-bot", protocol="otlp-json", flush_interval=0.05)
    tid = _request()
    assert trace.flush(10)
    [(path, headers, body)] = receiver.requests
    assert path == "/v1/traces" and headers["Content-Type"] == "application/json"
    doc = json.loads(body)
    spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert spans[0]["traceId"] == tid and len(spans[0]["spanId"]) == 16  # hex ids, as OTLP JSON requires
    for sp in spans:  # otherwise the protobuf JSON mapping: ids as bytes
        for key in ("traceId", "spanId", "parentSpanId"):
            if key in sp:
                sp[key] = base64.b64encode(bytes.fromhex(sp[key])).decode()
    req = ParseDict(doc, ExportTraceServiceRequest())
    assert len(req.resource_spans[0].scope_spans[0].spans) == 4


def test_a_refusing_otlp_backend_rejects_without_retrying_forever(receiver):
    receiver.status = 400
    trace.configure(receiver.url, app_name="bot", protocol="otlp-json", flush_interval=0.05)
    _request()
    assert trace.flush(5)
    assert trace.stats()["rejected"] == 1 and len(receiver.requests) == 1


def test_an_unknown_protocol_is_a_config_error():
    with pytest.raises(ConfigError, match="otlp-json"):
        trace.configure("http://127.0.0.1:9", protocol="zipkin")


def test_the_collector_stores_sdk_otlp_like_its_own_protocol(tmp_path):
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    import httpx

    from ragauge.serve.app import create_app
    from tests.serve.conftest import LiveServer, reserve_port

    token = "tok-0123456789"
    sock = reserve_port()
    server = LiveServer(lambda: create_app(db=f"sqlite:///{tmp_path}/a.db", token=token, scoring=False),
                        sock.getsockname()[1]).start(sock)
    try:
        got = {}
        for protocol in ("ragauge", "otlp-protobuf", "otlp-json"):
            trace.configure(server.url, token=token, app_name="hr-bot", app_version="1", protocol=protocol,
                            flush_interval=0.05)
            tid = _request(f"question via {protocol}")
            assert trace.flush(10)
            trace.shutdown(1)
            got[protocol] = httpx.get(f"{server.url}/api/traces/{tid}", headers={"Authorization": f"Bearer {token}"},
                                      timeout=10).json()
        own = got["ragauge"]
        for protocol in ("otlp-protobuf", "otlp-json"):
            item = got[protocol]
            assert item["question"] == f"question via {protocol}"
            for key in ("answer", "app_name", "app_version", "tags"):
                assert item[key] == own[key], (protocol, key)
            assert item["ttft_ms"] == pytest.approx(own["ttft_ms"], abs=1e-3)  # ns rounding on the way
            assert abs(item["latency_ms"] - own["latency_ms"]) < 1e3
            assert item["spans"][0]["chunks"] == own["spans"][0]["chunks"]
            assert item["spans"][1]["tokens"] == own["spans"][1]["tokens"]
            assert item["metadata"]["user"] == "u1"
    finally:
        server.stop()
        sock.close()


def test_an_otlp_backend_that_is_away_gets_the_batch_later(receiver, tmp_path):
    receiver.status = 503
    trace.configure(receiver.url, app_name="bot", protocol="otlp-protobuf", flush_interval=0.05,
                    spool_dir=tmp_path / "spool")
    tid = _request()
    assert trace.flush(0.5) is False  # kept, not dropped
    assert trace.stats()["dropped"] == 0 and list((tmp_path / "spool").glob("seg-*.jsonl"))
    receiver.status = 200
    assert trace.flush(10)
    last = ExportTraceServiceRequest.FromString(receiver.requests[-1][2])
    assert last.resource_spans[0].scope_spans[0].spans[0].trace_id.hex() == tid
    assert trace.stats()["rejected"] == 0
