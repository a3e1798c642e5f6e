"""Storing OTLP spans: a trace is stored whole once its root span arrived; its children wait until then.

Exporters send spans as they end, so the children of a request usually reach us before (and in other
requests than) the root. Children without their root wait in ``otlp_pending``; the request that brings
the root assembles the trace from the waiting spans and its own (:func:`.openinference.to_trace`),
validates it with the SDK's models and stores it with its scoring-queue entry, all in one transaction.

Every span is checked on arrival: one invalid span refuses the whole request (nothing stored, the
reason names the trace, span and field). A span of a trace that is already stored is refused in the
reply's ``partial_success`` (it came after its root); a re-sent root is a duplicate. Spans that never
see their root are deleted after ``pending_ttl_s`` (default one hour) and logged.

The root is the span without a parent, else the span whose parent is remote (the OTLP span flags say so:
the app continued an incoming ``traceparent``). An exporter that sets no flags gives a trace whose spans
all have a parent; :func:`adopt_waiting` (run by the app every few seconds) stores such a trace once it
waited ``root_wait_s`` (default 30 s), its topmost span as the root.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import sqlalchemy as sa
from pydantic import TypeAdapter, ValidationError

from . import store
from .db import otlp_pending
from .openinference import map_span, orphan_root, root_of, to_trace
from .otlp import OtlpError, OtlpSpan
from .schema import MAX_SPANS_PER_TRACE, SpanIn, TraceIn, _where

log = logging.getLogger("ragauge.serve")

_TRACE = TypeAdapter(TraceIn)
_SPAN: TypeAdapter[Any] = TypeAdapter(SpanIn)
PENDING_TTL_S = 3600.0
ROOT_WAIT_S = 30.0  #: a trace whose spans all have a parent waits this long for it, then its topmost span is the root


def _reason(exc: ValidationError) -> str:
    first = exc.errors()[0]
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{_where(tuple(first['loc'])) or 'value'}: {first['msg']}{more}"


def _check_span(span: OtlpSpan) -> None:
    try:
        _SPAN.validate_python(map_span(span, span.start_ns))
    except ValidationError as exc:
        raise OtlpError(f"trace {span.trace_id} span {span.span_id} ({span.name!r}): {_reason(exc)}") from None
    if span.end_ns < span.start_ns:
        raise OtlpError(f"trace {span.trace_id} span {span.span_id} ({span.name!r}): ends before it starts")


def _build(spans: list[OtlpSpan], root: OtlpSpan | None = None) -> TraceIn:
    root = root or root_of(spans)
    assert root is not None
    try:
        return _TRACE.validate_python(to_trace(spans, root))
    except ValidationError as exc:
        raise OtlpError(f"trace {root.trace_id} (root span {root.name!r}): {_reason(exc)}") from None


def ingest(engine: sa.Engine, spans: list[OtlpSpan], *, now: float | None = None,
           pending_ttl_s: float = PENDING_TTL_S) -> dict[str, Any]:
    """Store what ``spans`` complete; returns ``{"accepted", "duplicates", "pending_spans", "rejected_spans",
    "message"}``. Raises :class:`OtlpError` (nothing stored) when a span or an assembled trace is invalid."""
    now = time.time() if now is None else now
    for s in spans:
        _check_span(s)
    groups: dict[str, list[OtlpSpan]] = {}
    seen: set[tuple[str, str]] = set()
    for s in spans:
        if (s.trace_id, s.span_id) not in seen:  # a span repeated in one request counts once
            seen.add((s.trace_id, s.span_id))
            groups.setdefault(s.trace_id, []).append(s)
    for attempt in range(3):
        try:
            with engine.begin() as conn:
                return _ingest(conn, groups, now, pending_ttl_s)
        except sa.exc.IntegrityError:  # a concurrent request stored the same trace or span first
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def adopt_waiting(engine: sa.Engine, *, now: float | None = None, root_wait_s: float = ROOT_WAIT_S) -> int:
    """Store the waiting traces whose parent never came (see :func:`_adopt`); the app calls it periodically,
    so such a trace is stored even when no other request follows. Returns how many were stored."""
    now = time.time() if now is None else now
    for attempt in range(3):
        try:
            with engine.begin() as conn:
                return _adopt(conn, now, root_wait_s)
        except sa.exc.IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _adopt(conn: sa.Connection, now: float, wait_s: float) -> int:
    """Traces waiting over ``wait_s`` (since their first span) with no root: the app continued a remote
    ``traceparent`` and its exporter sets no span flags, so the topmost span (its parent not among the
    trace's spans) is the root. A trace that cannot be assembled is logged and dropped."""
    tids = [r.trace_id for r in conn.execute(
        sa.select(otlp_pending.c.trace_id).group_by(otlp_pending.c.trace_id)
        .having(sa.func.min(otlp_pending.c.received_at) <= now - wait_s).limit(100))]
    if not tids:
        return 0
    _lock(conn, tids)
    stored = store.existing_ids(conn, tids)
    new: list[TraceIn] = []
    done: list[str] = []
    for tid in tids:
        done.append(tid)
        if tid in stored:
            continue
        group = [OtlpSpan.from_json(r.data) for r in conn.execute(
            sa.select(otlp_pending.c.data).where(otlp_pending.c.trace_id == tid))]
        root = orphan_root(group)
        if root is None:
            continue
        try:
            new.append(_build(group, root))
        except OtlpError as exc:
            log.warning("ragauge serve: OTLP trace %s (no root span after %.0f s) dropped: %s", tid, wait_s, exc)
    if new:
        store.insert_new(conn, new, now)
    conn.execute(otlp_pending.delete().where(otlp_pending.c.trace_id.in_(done)))
    return len(new)


def _lock(conn: sa.Connection, trace_ids: list[str]) -> None:
    """One writer per trace id until commit. SQLite already serializes writers (BEGIN IMMEDIATE); on
    PostgreSQL a request with a trace's children and one with its root could otherwise both miss the other
    (the root stored without children that then wait forever). Sorted, so two requests cannot deadlock."""
    if conn.dialect.name != "postgresql":
        return
    for tid in sorted(trace_ids):
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": "ragauge-otlp:" + tid})


def _ingest(conn: sa.Connection, groups: dict[str, list[OtlpSpan]], now: float, ttl: float) -> dict[str, Any]:
    _lock(conn, list(groups))
    stored = store.existing_ids(conn, list(groups))
    out: dict[str, Any] = {"accepted": 0, "duplicates": 0, "pending_spans": 0, "rejected_spans": 0, "message": ""}
    late: list[str] = []
    new: list[TraceIn] = []
    complete: list[str] = []
    to_wait: list[dict[str, Any]] = []
    for tid, group in groups.items():
        if tid in stored:
            if root_of(group) is not None:
                out["duplicates"] += 1
            else:
                out["rejected_spans"] += len(group)
                late.append(tid)
            continue
        if root_of(group) is None:
            to_wait.extend({"trace_id": tid, "span_id": s.span_id, "received_at": now, "data": s.to_json()}
                           for s in group)
            continue
        waiting = conn.execute(sa.select(otlp_pending.c.span_id, otlp_pending.c.data)
                               .where(otlp_pending.c.trace_id == tid)).all()
        own = {s.span_id for s in group}
        merged = group + [OtlpSpan.from_json(r.data) for r in waiting if r.span_id not in own]
        new.append(_build(merged))
        complete.append(tid)
    if to_wait:
        known = {(r.trace_id, r.span_id) for r in conn.execute(
            sa.select(otlp_pending.c.trace_id, otlp_pending.c.span_id)
            .where(otlp_pending.c.trace_id.in_({w["trace_id"] for w in to_wait})))}
        fresh = [w for w in to_wait if (w["trace_id"], w["span_id"]) not in known]
        per_trace: dict[str, int] = {}
        for tid, _ in known:
            per_trace[tid] = per_trace.get(tid, 0) + 1
        for w in fresh:
            per_trace[w["trace_id"]] = per_trace.get(w["trace_id"], 0) + 1
            if per_trace[w["trace_id"]] > MAX_SPANS_PER_TRACE:
                raise OtlpError(f"trace {w['trace_id']}: more than {MAX_SPANS_PER_TRACE} spans waiting for their "
                                "root span; a trace holds at most that many")
        if fresh:
            conn.execute(otlp_pending.insert(), fresh)
        out["pending_spans"] = len(fresh)
    if new:
        store.insert_new(conn, new, now)
        conn.execute(otlp_pending.delete().where(otlp_pending.c.trace_id.in_(complete)))
        out["accepted"] = len(new)
    expired = conn.execute(otlp_pending.delete().where(otlp_pending.c.received_at < now - ttl)).rowcount
    if expired:
        log.warning("ragauge serve: %d OTLP span(s) waited over %.0f s for their root span and were dropped",
                    expired, ttl)
    if late:
        out["message"] = (f"{out['rejected_spans']} span(s) arrived after their trace was stored (its root span "
                          f"came first) and were not added: trace {', '.join(late[:3])}")
    return out
