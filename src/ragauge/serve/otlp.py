"""OTLP/HTTP trace requests (protobuf or JSON) decoded into plain spans, and the replies the exporter expects.

Both encodings become the same :class:`OtlpSpan` list, so the OpenInference mapping
(:mod:`.openinference`) never sees the wire format. JSON follows the OTLP JSON mapping: ids are hex
strings, 64-bit integers may be strings, attribute values are ``{"stringValue": ...}`` and friends.

A malformed request raises :class:`OtlpError` with a reason; the route answers 400 with a
``google.rpc.Status`` in the request's encoding (what the OpenTelemetry exporters log).
"""

from __future__ import annotations

import base64
import json
import math
from dataclasses import dataclass, field
from typing import Any

from .text import no_nul

PROTOBUF = "application/x-protobuf"
JSON = "application/json"


class OtlpError(ValueError):
    """The request is not a valid OTLP trace export; the message says what is wrong."""


class UnsupportedMediaType(OtlpError):
    """The Content-Type is neither OTLP protobuf nor OTLP JSON (HTTP 415)."""


@dataclass
class OtlpSpan:
    trace_id: str  # 32 hex digits
    span_id: str  # 16 hex digits
    parent_span_id: str | None
    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, Any]
    resource: dict[str, Any]
    status_code: int = 0  # 0 unset, 1 ok, 2 error
    status_message: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)  # {"name", "time_ns", "attributes"}
    remote_parent: bool = False  # the parent is in another process (span flags; an incoming traceparent)

    def to_json(self) -> dict[str, Any]:
        return {"trace_id": self.trace_id, "span_id": self.span_id, "parent_span_id": self.parent_span_id,
                "name": self.name, "start_ns": self.start_ns, "end_ns": self.end_ns, "attributes": self.attributes,
                "resource": self.resource, "status_code": self.status_code, "status_message": self.status_message,
                "events": self.events, "remote_parent": self.remote_parent}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "OtlpSpan":
        return cls(**d)


def media_type(content_type: str | None) -> str:
    """``application/x-protobuf`` or ``application/json`` from a Content-Type header, else OtlpError."""
    base = (content_type or "").split(";")[0].strip().lower()
    if base in (PROTOBUF, "application/protobuf"):
        return PROTOBUF
    if base == JSON:
        return JSON
    raise UnsupportedMediaType(f"Content-Type {content_type!r} is not OTLP/HTTP; send application/x-protobuf or application/json")


def decode(body: bytes, kind: str) -> list[OtlpSpan]:
    """The spans of one ``ExportTraceServiceRequest`` body (NUL in any text replaced by U+FFFD)."""
    spans = _decode_protobuf(body) if kind == PROTOBUF else _decode_json(body)
    for s in spans:
        s.name, s.status_message = no_nul(s.name), no_nul(s.status_message)
        s.attributes, s.resource, s.events = no_nul(s.attributes), no_nul(s.resource), no_nul(s.events)
    return spans


# -- protobuf --------------------------------------------------------------------------------------
def _pb_value(v: Any) -> Any:
    which = v.WhichOneof("value")
    if which is None:
        return None
    if which == "array_value":
        return [_pb_value(x) for x in v.array_value.values]
    if which == "kvlist_value":
        return {kv.key: _pb_value(kv.value) for kv in v.kvlist_value.values}
    if which == "bytes_value":
        return base64.b64encode(v.bytes_value).decode("ascii")
    if which == "double_value" and not math.isfinite(v.double_value):
        return None  # NaN/Infinity: no value (JSON and PostgreSQL have no NaN)
    return getattr(v, which)


def _pb_attrs(kvs: Any) -> dict[str, Any]:
    return {kv.key: _pb_value(kv.value) for kv in kvs}


def _decode_protobuf(body: bytes) -> list[OtlpSpan]:
    try:
        from google.protobuf.message import DecodeError
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
    except ImportError:  # pragma: no cover - depends on the environment
        raise OtlpError("this collector cannot read OTLP protobuf: pip install opentelemetry-proto "
                        "(or send application/json)") from None
    req = ExportTraceServiceRequest()
    try:
        req.ParseFromString(body)
    except DecodeError as exc:
        raise OtlpError(f"the body is not an OTLP ExportTraceServiceRequest (protobuf): {exc}") from None
    out: list[OtlpSpan] = []
    for rs in req.resource_spans:
        resource = _pb_attrs(rs.resource.attributes)
        for ss in rs.scope_spans:
            for sp in ss.spans:
                where = f"span {sp.name!r}"
                out.append(OtlpSpan(
                    trace_id=_hex_id(sp.trace_id.hex(), 32, f"{where}: traceId"),
                    span_id=_hex_id(sp.span_id.hex(), 16, f"{where}: spanId"),
                    parent_span_id=sp.parent_span_id.hex() or None, name=sp.name,
                    start_ns=int(sp.start_time_unix_nano), end_ns=int(sp.end_time_unix_nano),
                    attributes=_pb_attrs(sp.attributes), resource=resource,
                    status_code=int(sp.status.code), status_message=sp.status.message,
                    events=[{"name": e.name, "time_ns": int(e.time_unix_nano), "attributes": _pb_attrs(e.attributes)}
                            for e in sp.events], remote_parent=_remote(int(sp.flags))))
    return out


def _remote(flags: int) -> bool:
    """SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE (0x100) and SPAN_FLAGS_CONTEXT_IS_REMOTE (0x200) both set."""
    return flags & 0x300 == 0x300


# -- JSON ------------------------------------------------------------------------------------------
def _hex_id(value: Any, digits: int, where: str) -> str:
    if not isinstance(value, str) or len(value) != digits:
        raise OtlpError(f"{where}: expected {digits} hex digits, got {value!r}")
    try:
        int(value, 16)
    except ValueError:
        raise OtlpError(f"{where}: expected {digits} hex digits, got {value!r}") from None
    if int(value, 16) == 0:
        raise OtlpError(f"{where}: an all-zero id is invalid")
    return value.lower()


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool):
        raise OtlpError(f"{where}: expected an integer, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    raise OtlpError(f"{where}: expected an integer (or a string of digits), got {value!r}")


def _json_value(v: Any, where: str) -> Any:
    if not isinstance(v, dict):
        raise OtlpError(f"{where}: an attribute value must be an object like {{\"stringValue\": \"...\"}}")
    if not v:
        return None
    (key, inner), = list(v.items())[:1]
    if key == "stringValue":
        return str(inner)
    if key == "boolValue":
        return bool(inner)
    if key == "intValue":
        return _int(inner, where)
    if key == "doubleValue":
        if isinstance(inner, str) and inner in ("NaN", "Infinity", "-Infinity"):
            return None  # the OTLP JSON spelling of non-finite doubles: no value
        if not isinstance(inner, (int, float)) or isinstance(inner, bool):
            raise OtlpError(f"{where}: doubleValue must be a number, got {inner!r}")
        return float(inner) if math.isfinite(inner) else None
    if key == "bytesValue":
        return str(inner)
    if key == "arrayValue":
        return [_json_value(x, where) for x in (inner or {}).get("values", [])]
    if key == "kvlistValue":
        return _json_attrs((inner or {}).get("values", []), where)
    raise OtlpError(f"{where}: unknown attribute value type {key!r}")


def _json_attrs(items: Any, where: str) -> dict[str, Any]:
    if items is None:
        return {}
    if not isinstance(items, list):
        raise OtlpError(f"{where}: attributes must be a list of {{key, value}}")
    out: dict[str, Any] = {}
    for kv in items:
        if not isinstance(kv, dict) or not isinstance(kv.get("key"), str):
            raise OtlpError(f"{where}: an attribute needs a string key, got {kv!r}"[:300])
        out[kv["key"]] = _json_value(kv.get("value") or {}, f"{where}: attribute {kv['key']!r}")
    return out


def _list(doc: dict[str, Any], key: str, where: str) -> list[Any]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise OtlpError(f"{where}.{key} must be a list")
    return value


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON (OTLP JSON writes it as the string \"{name}\")")


def _decode_json(body: bytes) -> list[OtlpSpan]:
    try:
        doc = json.loads(body, parse_constant=_no_constants)
    except (ValueError, UnicodeDecodeError) as exc:
        raise OtlpError(f"the body is not JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise OtlpError('expected an object {"resourceSpans": [...]}')
    out: list[OtlpSpan] = []
    for i, rs in enumerate(_list(doc, "resourceSpans", "request")):
        rwhere = f"resourceSpans[{i}]"
        if not isinstance(rs, dict):
            raise OtlpError(f"{rwhere} must be an object")
        resource = _json_attrs((rs.get("resource") or {}).get("attributes"), f"{rwhere}.resource")
        for j, ss in enumerate(_list(rs, "scopeSpans", rwhere)):
            swhere = f"{rwhere}.scopeSpans[{j}]"
            if not isinstance(ss, dict):
                raise OtlpError(f"{swhere} must be an object")
            for k, sp in enumerate(_list(ss, "spans", swhere)):
                out.append(_json_span(sp, resource, f"{swhere}.spans[{k}]"))
    return out


def _json_span(sp: Any, resource: dict[str, Any], where: str) -> OtlpSpan:
    if not isinstance(sp, dict):
        raise OtlpError(f"{where} must be an object")
    parent = sp.get("parentSpanId") or None
    status = sp.get("status") or {}
    code = status.get("code", 0)
    code = {"STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}.get(code, code)
    return OtlpSpan(
        trace_id=_hex_id(sp.get("traceId"), 32, f"{where}.traceId"),
        span_id=_hex_id(sp.get("spanId"), 16, f"{where}.spanId"),
        parent_span_id=None if parent is None else _hex_id(parent, 16, f"{where}.parentSpanId"),
        name=str(sp.get("name", "")),
        start_ns=_int(sp.get("startTimeUnixNano", 0), f"{where}.startTimeUnixNano"),
        end_ns=_int(sp.get("endTimeUnixNano", 0), f"{where}.endTimeUnixNano"),
        attributes=_json_attrs(sp.get("attributes"), where), resource=resource,
        status_code=_int(code, f"{where}.status.code"), status_message=str(status.get("message", "")),
        events=[{"name": str(e.get("name", "")), "time_ns": _int(e.get("timeUnixNano", 0), f"{where}.events"),
                 "attributes": _json_attrs(e.get("attributes"), f"{where}.events")}
                for e in _list(sp, "events", where) if isinstance(e, dict)],
        remote_parent=_remote(_int(sp.get("flags", 0), f"{where}.flags")))


# -- replies ---------------------------------------------------------------------------------------
def success_body(kind: str, *, rejected: int = 0, message: str = "") -> bytes:
    """An ``ExportTraceServiceResponse`` (with ``partial_success`` when spans were refused)."""
    if kind == JSON:
        doc: dict[str, Any] = {}
        if rejected:
            doc["partialSuccess"] = {"rejectedSpans": str(rejected), "errorMessage": message}
        return json.dumps(doc).encode()
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

    resp = ExportTraceServiceResponse()
    if rejected:
        resp.partial_success.rejected_spans = rejected
        resp.partial_success.error_message = message
    data: bytes = resp.SerializeToString()
    return data


def error_body(kind: str, message: str, code: int = 3) -> bytes:
    """A ``google.rpc.Status`` (code 3 = INVALID_ARGUMENT) in the request's encoding."""
    if kind == PROTOBUF:
        try:
            from google.rpc.status_pb2 import Status

            data: bytes = Status(code=code, message=message).SerializeToString()
            return data
        except ImportError:  # pragma: no cover
            pass
    return json.dumps({"code": code, "message": message}).encode()
