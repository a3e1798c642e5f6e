"""The SDK's traces as OpenInference spans over OTLP/HTTP, for any backend (Phoenix, Langfuse, a collector).

``configure(..., protocol="otlp-json" | "otlp-protobuf")`` makes the exporter post to ``<endpoint>/v1/traces``
instead of ragauge's own ``/api/traces``; queue, spool and retries are the same (the spool keeps the SDK's
JSON lines, so a batch spooled under one protocol is re-sent under the current one). One trace becomes:

- a root span ``request`` (``openinference.span.kind`` CHAIN): ``input.value`` = question, ``output.value``
  = answer, ``metadata`` (JSON), ``tag.tags``; status ERROR with the error;
- per span: retrieval -> RETRIEVER (``input.value`` = query, ``retrieval.documents.N.document.id`` /
  ``content`` / ``score`` / ``metadata``); generation -> LLM (``input.value`` or ``llm.input_messages``,
  ``output.value``, ``llm.model_name``, ``llm.token_count.*``, a "First Token Stream Event" at ttft_ms);
  guard -> GUARDRAIL; rewrite and custom -> CHAIN;
- the resource: ``service.name`` = app_name, ``service.version`` = app_version.

Ids: a 32-hex trace id is kept (the SDK's uuid4 ids are), others are hashed; span ids are hashed from the
trace id and the position, so a re-sent batch carries the same ids.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import Any, Iterable, Mapping

_HEX32 = re.compile(r"^[0-9a-f]{32}$")
_SCOPE = {"name": "ragauge.trace"}


def _trace_id(tid: str) -> str:
    t = str(tid).lower()
    return t if _HEX32.match(t) and int(t, 16) else hashlib.sha256(str(tid).encode()).hexdigest()[:32]


def _span_id(trace_id: str, position: int) -> str:
    return hashlib.sha256(f"{trace_id}/{position}".encode()).hexdigest()[:16]


def _value(v: Any) -> dict[str, Any]:
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, str):
        return {"stringValue": v}
    if isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
        return {"arrayValue": {"values": [{"stringValue": x} for x in v]}}
    return {"stringValue": json.dumps(v, ensure_ascii=False, default=str)}


def _attrs(pairs: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"key": k, "value": _value(v)} for k, v in pairs.items() if v is not None]


def _text(v: Any) -> str | None:
    return None if v is None else v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str)


def _span_attrs(span: Mapping[str, Any]) -> dict[str, Any]:
    kind = span.get("kind")
    a: dict[str, Any] = {}
    if kind == "retrieval":
        a["openinference.span.kind"] = "RETRIEVER"
        a["input.value"] = span.get("query")
        for i, c in enumerate(span.get("chunks") or []):
            a[f"retrieval.documents.{i}.document.id"] = c.get("id")
            a[f"retrieval.documents.{i}.document.content"] = c.get("text")
            a[f"retrieval.documents.{i}.document.score"] = c.get("score")
            if c.get("metadata"):
                a[f"retrieval.documents.{i}.document.metadata"] = json.dumps(c["metadata"], ensure_ascii=False,
                                                                              default=str)
    elif kind == "generation":
        a["openinference.span.kind"] = "LLM"
        prompt = span.get("prompt")
        if isinstance(prompt, list) and all(isinstance(m, Mapping) for m in prompt):
            for i, m in enumerate(prompt):
                a[f"llm.input_messages.{i}.message.role"] = _text(m.get("role"))
                a[f"llm.input_messages.{i}.message.content"] = _text(m.get("content"))
        else:
            a["input.value"] = _text(prompt)
        a["output.value"] = span.get("answer")
        a["llm.model_name"] = span.get("model")
        tokens = span.get("tokens")
        if isinstance(tokens, Mapping):
            for name in ("prompt", "completion", "total"):
                a[f"llm.token_count.{name}"] = tokens.get(name)
        elif isinstance(tokens, int):
            a["llm.token_count.completion"] = tokens
    elif kind == "guard":
        a["openinference.span.kind"] = "GUARDRAIL"
        a["output.value"] = _text(span.get("decision"))
        a["ragauge.guard.reason"] = span.get("reason")
    else:
        a["openinference.span.kind"] = "CHAIN"
        a["input.value"] = span.get("query")
        a["output.value"] = span.get("rewritten")
    for k, v in (span.get("attributes") or {}).items():
        a.setdefault(f"ragauge.{k}", _text(v) if not isinstance(v, (str, int, float, bool)) else v)
    return a


def _ns(seconds: float) -> int:
    return int(round(seconds * 1e9))


def trace_spans(trace: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One SDK trace (its wire dict) as OTLP JSON spans, the root first."""
    tid = _trace_id(trace["id"])
    root_id = _span_id(tid, -1)
    t0 = float(trace.get("start_time") or 0.0)
    duration = float(trace.get("duration_ms") or 0.0)
    meta = dict(trace.get("metadata") or {})
    root = {
        "traceId": tid, "spanId": root_id, "name": "request", "kind": 2,
        "startTimeUnixNano": str(_ns(t0)), "endTimeUnixNano": str(_ns(t0 + duration / 1000.0)),
        "attributes": _attrs({"openinference.span.kind": "CHAIN", "input.value": trace.get("question"),
                              "output.value": trace.get("answer"),
                              "metadata": json.dumps(meta, ensure_ascii=False, default=str) if meta else None,
                              "tag.tags": list(trace.get("tags") or []) or None,
                              "ragauge.trace_id": str(trace["id"]), "ragauge.language": trace.get("language")}),
        "status": {"code": 2, "message": trace.get("error") or "error"} if trace.get("status") == "error" else {},
    }
    out = [root]
    for i, s in enumerate(trace.get("spans") or []):
        start = t0 + float(s.get("start_ms") or 0.0) / 1000.0
        end = start + float(s.get("duration_ms") or 0.0) / 1000.0
        span: dict[str, Any] = {
            "traceId": tid, "spanId": _span_id(tid, i), "parentSpanId": root_id, "name": s.get("name") or s["kind"],
            "kind": 1, "startTimeUnixNano": str(_ns(start)), "endTimeUnixNano": str(_ns(end)),
            "attributes": _attrs(_span_attrs(s)),
            "status": {"code": 2, "message": s["error"]} if s.get("error") else {},
        }
        if s.get("kind") == "generation" and s.get("ttft_ms") is not None:
            span["events"] = [{"name": "First Token Stream Event",
                               "timeUnixNano": str(_ns(start + float(s["ttft_ms"]) / 1000.0))}]
        out.append(span)
    return out


def export_request(traces: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """An ``ExportTraceServiceRequest`` in OTLP JSON (ids in hex): one resource per app name and version."""
    groups: dict[tuple[str, Any], list[dict[str, Any]]] = {}
    for t in traces:
        groups.setdefault((t.get("app_name") or "app", t.get("app_version")), []).extend(trace_spans(t))
    return {"resourceSpans": [
        {"resource": {"attributes": _attrs({"service.name": name, "service.version": version})},
         "scopeSpans": [{"scope": _SCOPE, "spans": spans}]}
        for (name, version), spans in groups.items()]}


def json_body(lines: list[str]) -> bytes:
    """The OTLP JSON body for already-serialized SDK traces."""
    return json.dumps(export_request(json.loads(line) for line in lines), ensure_ascii=False).encode("utf-8")


def protobuf_body(lines: list[str]) -> bytes:
    """The OTLP protobuf body (needs ``opentelemetry-proto``); the JSON form with ids as protobuf bytes."""
    from google.protobuf.json_format import ParseDict
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    doc = export_request(json.loads(line) for line in lines)
    for rs in doc["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for sp in ss["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in sp:
                        sp[key] = base64.b64encode(bytes.fromhex(sp[key])).decode("ascii")
    data: bytes = ParseDict(doc, ExportTraceServiceRequest()).SerializeToString()
    return data
