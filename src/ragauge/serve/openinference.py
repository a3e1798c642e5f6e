"""OpenInference spans (what Phoenix and the openinference instrumentors write) -> one ragauge trace.

The spans of one OTLP trace id become one trace of the SDK's wire format (:mod:`.schema`), validated by
the same pydantic models, so an app instrumented for Phoenix is stored and scored like one traced with
:mod:`ragauge.trace`. The mapping, by ``openinference.span.kind``:

- the root span (no parent; else the span whose parent is remote, by the span flags or, when no flags say
  so, the topmost span once its trace waited ``root_wait_s`` with no parent arriving): ``input.value`` -> question (from a JSON input: its ``question``, ``query``
  or ``input`` field), ``output.value`` -> answer; its duration -> latency; status ERROR -> error;
  ``service.name`` / ``service.version`` (resource) -> app_name / app_version (``openinference.project.name``
  when there is no service name); ``session.id``, ``user.id``, ``metadata`` (JSON) -> metadata;
  ``tag.tags`` -> tags.
- RETRIEVER -> a retrieval span: ``input.value`` -> query; ``retrieval.documents.N.document.id`` /
  ``.content`` / ``.score`` / ``.metadata`` -> chunks in order.
- LLM -> a generation span: ``llm.input_messages`` (role, content) or ``input.value`` -> prompt;
  ``output.value`` or ``llm.output_messages.0.message.content`` -> answer; ``llm.token_count.prompt`` /
  ``.completion`` / ``.total`` -> tokens; ``llm.model_name`` -> model; an event named like "first token"
  -> ttft_ms.
- GUARDRAIL -> a guard span (``output.value`` -> decision); any other kind (CHAIN below the root, TOOL,
  AGENT, EMBEDDING, RERANKER, ...) -> a custom span with the kind, input and output in its attributes.

When the root has no ``input.value`` / ``output.value`` (an HTTP server span from FastAPI or Flask
auto-instrumentation), the question / answer come from the topmost CHAIN (or AGENT) span.
The trace's answer is the root's output when the root is not itself an LLM span, else the last LLM
answer (resolved at ingest, as for SDK traces). Children are ordered by start time.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from .otlp import OtlpSpan

KIND = "openinference.span.kind"


def _indexed(attrs: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    """``prefix.N.rest`` flat attributes (or a list of kvlists under ``prefix``) as a list of dicts."""
    value = attrs.get(prefix)
    if isinstance(value, list):
        return [v if isinstance(v, dict) else {"value": v} for v in value]
    found: dict[int, dict[str, Any]] = {}
    head = prefix + "."
    for key, v in attrs.items():
        if not key.startswith(head):
            continue
        index, _, rest = key[len(head):].partition(".")
        if index.isdigit() and rest:
            found.setdefault(int(index), {})[rest] = v
    return [found[i] for i in sorted(found)]


def _json_or_none(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return None
    return value


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _question(attrs: dict[str, Any]) -> str | None:
    value = attrs.get("input.value")
    if value is None:
        return None
    if attrs.get("input.mime_type") == "application/json" or (isinstance(value, str) and value[:1] == "{"):
        doc = _json_or_none(value)
        if isinstance(doc, dict):
            for key in ("question", "query", "input", "user_input"):
                if isinstance(doc.get(key), str):
                    return str(doc[key])
    return _text(value)


def _answer(attrs: dict[str, Any]) -> str | None:
    value = attrs.get("output.value")
    if value is not None and (attrs.get("output.mime_type") == "application/json"
                              or (isinstance(value, str) and value[:1] == "{")):
        doc = _json_or_none(value)
        if isinstance(doc, dict):
            for key in ("answer", "output", "result", "response", "text", "content"):
                if isinstance(doc.get(key), str):
                    return str(doc[key])
    if value is None:
        messages = _indexed(attrs, "llm.output_messages")
        if messages:
            value = messages[-1].get("message.content")
    return _text(value)


def _ms(ns: int) -> float:
    return max(0.0, ns / 1e6)


def _chunks(attrs: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for doc in _indexed(attrs, "retrieval.documents"):
        meta = _json_or_none(doc.get("document.metadata"))
        score = doc.get("document.score")
        out.append({"id": None if doc.get("document.id") is None else str(doc["document.id"]),
                    "text": _text(doc.get("document.content")) or "",
                    "score": float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else None,
                    "metadata": meta if isinstance(meta, dict) else {}})
    return out


def _tokens(attrs: dict[str, Any]) -> dict[str, int] | None:
    out = {}
    for name in ("prompt", "completion", "total"):
        v = attrs.get(f"llm.token_count.{name}")
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out[name] = int(v)
    return out or None


def _ttft_ms(span: OtlpSpan) -> float | None:
    for e in span.events:
        if "first token" in e.get("name", "").lower() and e.get("time_ns", 0) >= span.start_ns:
            return _ms(e["time_ns"] - span.start_ns)
    return None


def map_span(span: OtlpSpan, t0_ns: int) -> dict[str, Any]:
    """One span as an SDK wire span (times relative to ``t0_ns``, the root's start)."""
    a = span.attributes
    kind = str(a.get(KIND, "")).upper()
    out: dict[str, Any] = {"name": span.name[:200] or kind.lower() or "span",
                           "start_ms": _ms(span.start_ns - t0_ns), "duration_ms": _ms(span.end_ns - span.start_ns)}
    if span.status_code == 2:
        out["error"] = span.status_message or "error"
    if kind == "RETRIEVER":
        out.update(kind="retrieval", query=_text(a.get("input.value")), chunks=_chunks(a))
    elif kind == "LLM":
        messages = _indexed(a, "llm.input_messages")
        prompt: Any = ([{"role": m.get("message.role"), "content": m.get("message.content")} for m in messages]
                       if messages else _text(a.get("input.value")))
        model = a.get("llm.model_name")
        out.update(kind="generation", prompt=prompt, answer=_answer(a), ttft_ms=_ttft_ms(span), tokens=_tokens(a),
                   model=None if model is None else str(model)[:200])
    elif kind == "GUARDRAIL":
        out.update(kind="guard", decision=_text(a.get("output.value")))
    else:
        out["kind"] = "custom"
        out["attributes"] = {k: v for k, v in (("openinference.span.kind", kind or None),
                                                 ("input", _text(a.get("input.value"))),
                                                 ("output", _text(a.get("output.value")))) if v is not None}
    return {k: v for k, v in out.items() if v is not None}


def _metadata(root: OtlpSpan) -> dict[str, Any]:
    a = root.attributes
    meta = _json_or_none(a.get("metadata"))
    out: dict[str, Any] = dict(meta) if isinstance(meta, dict) else {}
    for key, name in (("session.id", "session_id"), ("user.id", "user_id")):
        if a.get(key) is not None:
            out[name] = a[key]
    out["source"] = "otlp"
    out["otlp_trace_id"] = root.trace_id
    return out


def _tags(root: OtlpSpan) -> list[str]:
    tags = root.attributes.get("tag.tags")
    if isinstance(tags, list):
        return [str(t)[:200] for t in tags][:100]
    return []


def root_of(spans: Iterable[OtlpSpan]) -> OtlpSpan | None:
    """The span without a parent (the request), else one whose parent is remote (flags: the app continued
    an incoming ``traceparent``), or None while it has not arrived."""
    remote = None
    for s in spans:
        if not s.parent_span_id:
            return s
        if s.remote_parent and remote is None:
            remote = s
    return remote


def orphan_root(spans: list[OtlpSpan]) -> OtlpSpan | None:
    """The topmost span whose parent is not among ``spans`` (the earliest-starting one if several): the
    local root of a trace whose parent lives in another process and whose exporter sets no span flags."""
    ids = {s.span_id for s in spans}
    tops = [s for s in spans if not s.parent_span_id or s.parent_span_id not in ids]
    return min(tops, key=lambda s: (s.start_ns, -s.end_ns, s.span_id)) if tops else None


def _depth(span: OtlpSpan, by_id: dict[str, OtlpSpan]) -> int:
    depth, seen = 0, {span.span_id}
    while span.parent_span_id in by_id and span.parent_span_id not in seen:
        span = by_id[span.parent_span_id]
        seen.add(span.span_id)
        depth += 1
    return depth


def _top_chain(spans: list[OtlpSpan]) -> OtlpSpan | None:
    """The topmost CHAIN or AGENT span (the app's own entry point under an HTTP server span)."""
    by_id = {s.span_id: s for s in spans}
    chains = [s for s in spans if str(s.attributes.get(KIND, "")).upper() in ("CHAIN", "AGENT")]
    return min(chains, key=lambda s: (_depth(s, by_id), s.start_ns, s.span_id)) if chains else None


def to_trace(spans: list[OtlpSpan], root: OtlpSpan | None = None) -> dict[str, Any]:
    """The SDK wire dict of one OTLP trace (all its spans, the root among them or given)."""
    root = root or root_of(spans)
    if root is None:
        raise ValueError("no root span")
    res = root.resource
    app_name = res.get("service.name") or res.get("openinference.project.name") or "otlp"
    if app_name == "unknown_service" and res.get("openinference.project.name"):
        app_name = res["openinference.project.name"]
    version = res.get("service.version")
    root_kind = str(root.attributes.get(KIND, "")).upper()
    children = sorted((s for s in spans if s is not root), key=lambda s: (s.start_ns, s.span_id))
    mapped = [map_span(s, root.start_ns) for s in ([root] if root_kind in ("LLM", "RETRIEVER", "GUARDRAIL") else [])
              + children]
    question = _question(root.attributes)
    answer = None if root_kind == "LLM" else _answer(root.attributes)
    chain = _top_chain(spans) if question is None or (answer is None and root_kind != "LLM") else None
    if chain is not None:  # e.g. an HTTP server span (FastAPI, Flask) above the app's CHAIN
        question = question if question is not None else _question(chain.attributes)
        answer = answer if answer is not None or root_kind == "LLM" else _answer(chain.attributes)
    trace: dict[str, Any] = {
        "id": root.trace_id, "app_name": str(app_name)[:200],
        "app_version": None if version is None else str(version)[:100],
        "question": question, "answer": answer,
        "start_time": root.start_ns / 1e9, "duration_ms": _ms(root.end_ns - root.start_ns),
        "status": "error" if root.status_code == 2 else "ok",
        "error": (root.status_message or "error") if root.status_code == 2 else None,
        "tags": _tags(root), "metadata": _metadata(root), "spans": mapped,
    }
    return trace
