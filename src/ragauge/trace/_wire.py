"""The SDK's wire format: one trace as a plain JSON-able dict, and a batch of them.

Built in the exporter's background thread, never in the user's request: the request only records
references and timings. ``normalize_chunk`` accepts what retrievers hand out (dicts, strings, objects with
``page_content`` or ``text``) and turns it into ``{id, text, score, metadata}``.

A batch: ``{"schema": "ragauge.trace/1", "traces": [trace, ...]}``; the collector's pydantic models
(:mod:`ragauge.serve.schema`) are the authority on every field.
"""

from __future__ import annotations

import json
import math
from typing import Any, Mapping

SCHEMA = "ragauge.trace/1"

SPAN_KINDS = ("retrieval", "generation", "guard", "rewrite", "custom")


def _finite(x: Any) -> float | None:
    if x is None or isinstance(x, bool):
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _str_or_none(x: Any) -> str | None:
    return None if x is None else str(x)


def normalize_chunk(chunk: Any) -> dict[str, Any]:
    """One retrieved chunk as ``{"id", "text", "score", "metadata"}`` (unknown shapes become their ``str``).

    >>> normalize_chunk({"id": 7, "text": "Paris", "score": 0.5})
    {'id': '7', 'text': 'Paris', 'score': 0.5, 'metadata': {}}
    >>> normalize_chunk("plain text")
    {'id': None, 'text': 'plain text', 'score': None, 'metadata': {}}
    """
    if isinstance(chunk, str):
        return {"id": None, "text": chunk, "score": None, "metadata": {}}
    if isinstance(chunk, Mapping):
        text = chunk.get("text", chunk.get("page_content", chunk.get("content")))
        meta = chunk.get("metadata") or {}
        return {"id": _str_or_none(chunk.get("id")), "text": "" if text is None else str(text),
                "score": _finite(chunk.get("score")), "metadata": dict(meta) if isinstance(meta, Mapping) else {}}
    text = getattr(chunk, "text", None)
    if text is None:
        text = getattr(chunk, "page_content", None)  # LangChain Document
    meta = getattr(chunk, "metadata", None) or {}
    meta = dict(meta) if isinstance(meta, Mapping) else {}
    cid = getattr(chunk, "id", None)
    if cid is None:
        cid = meta.get("id")
    return {"id": _str_or_none(cid), "text": str(chunk) if text is None else str(text),
            "score": _finite(getattr(chunk, "score", None)), "metadata": meta}


def span_dict(kind: str, name: str | None, start_ms: float | None, duration_ms: float | None,
              fields: Mapping[str, Any], error: str | None) -> dict[str, Any]:
    """A span's wire dict from what the user passed (``fields``: the kind's own keyword arguments)."""
    out: dict[str, Any] = {"kind": kind if kind in SPAN_KINDS else "custom", "name": name or kind,
                           "start_ms": _finite(start_ms), "duration_ms": _finite(duration_ms)}
    if error is not None:
        out["error"] = error
    extra: dict[str, Any] = {}
    for key, value in fields.items():
        if value is None:
            continue
        if key == "chunks" and out["kind"] == "retrieval":
            out["chunks"] = [normalize_chunk(c) for c in value]
        elif key in ("ttft_ms",):
            out[key] = _finite(value)
        elif key in _KIND_FIELDS.get(out["kind"], ()):
            out[key] = value
        else:
            extra[key] = value
    if kind not in SPAN_KINDS:
        extra.setdefault("kind", kind)
    if extra:
        out["attributes"] = extra
    return out


#: The fields each span kind carries at top level; anything else goes to ``attributes``.
_KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "retrieval": ("query", "chunks", "filters"),
    "generation": ("prompt", "answer", "ttft_ms", "tokens", "model"),
    "guard": ("decision", "reason"),
    "rewrite": ("query", "rewritten"),
    "custom": (),
}


def _sanitize(value: Any) -> Any:
    """Non-finite floats become None (JSON has no NaN), unknown objects their ``str``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _sanitize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_sanitize(v) for v in value]
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item):
        try:
            return _sanitize(item())
        except Exception:  # noqa: BLE001 - anything odd becomes its text
            pass
    return str(value)


def dumps_trace(trace: Mapping[str, Any]) -> str:
    """One trace as compact JSON; never raises on odd values (they are sanitized)."""
    try:
        return json.dumps(trace, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return json.dumps(_sanitize(trace), ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def batch_body(trace_lines: list[str]) -> bytes:
    """The POST body for already-serialized traces (no re-encoding of each trace)."""
    return ('{"schema":"%s","traces":[%s]}' % (SCHEMA, ",".join(trace_lines))).encode("utf-8")
