"""Writing and reading traces: a batch is stored whole or not at all, with its scoring-queue entries.

SQL only through SQLAlchemy Core expressions (bound parameters). A trace id already stored is skipped
(the SDK re-sends a spooled batch whose reply it did not see): the count stored equals the count sent.
"""

from __future__ import annotations

import time
from typing import Any, Iterable, Sequence

import sqlalchemy as sa

from .db import score_queue, scores, spans, traces
from .schema import TraceIn


def _answer(t: TraceIn) -> str | None:
    if t.answer is not None:
        return t.answer
    for s in reversed(t.spans):
        if s.kind == "generation" and s.answer is not None:
            return s.answer
    return None


def _retrieval_ms(t: TraceIn) -> float | None:
    times = [s.duration_ms for s in t.spans if s.kind == "retrieval" and s.duration_ms is not None]
    return sum(times) if times else None


def _ttft_ms(t: TraceIn) -> float | None:
    for s in t.spans:
        if s.kind == "generation" and s.ttft_ms is not None:
            return s.ttft_ms
    return None


def insert_batch(engine: sa.Engine, batch: Sequence[TraceIn], *, now: float | None = None) -> dict[str, int]:
    """Store ``batch`` in one transaction and queue each new trace for scoring.

    Returns ``{"accepted": new traces stored, "duplicates": ids already stored or repeated in the batch}``.
    """
    now = time.time() if now is None else now
    unique: dict[str, TraceIn] = {}
    for t in batch:
        unique.setdefault(t.id, t)
    for attempt in range(3):  # a concurrent request storing the same id makes us look again
        try:
            with engine.begin() as conn:
                ids = list(unique)
                existing: set[str] = set()
                for i in range(0, len(ids), 500):
                    rows = conn.execute(sa.select(traces.c.id).where(traces.c.id.in_(ids[i:i + 500])))
                    existing.update(r[0] for r in rows)
                new = [t for tid, t in unique.items() if tid not in existing]
                if new:
                    _insert(conn, new, now)
            return {"accepted": len(new), "duplicates": len(batch) - len(new)}
        except sa.exc.IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _insert(conn: sa.Connection, new: list[TraceIn], now: float) -> None:
    conn.execute(traces.insert(), [{
        "id": t.id, "app_name": t.app_name, "app_version": t.app_version, "question": t.question,
        "answer": _answer(t), "start_time": t.start_time, "received_at": now, "duration_ms": t.duration_ms,
        "retrieval_ms": _retrieval_ms(t), "ttft_ms": _ttft_ms(t), "status": t.status, "error": t.error,
        "language": t.language, "tags": list(t.tags), "meta": dict(t.metadata),
    } for t in new])
    span_rows = [{
        "trace_id": t.id, "position": i, "kind": s.kind, "name": s.name, "start_ms": s.start_ms,
        "duration_ms": s.duration_ms, "data": s.model_dump(mode="json"),
    } for t in new for i, s in enumerate(t.spans)]
    if span_rows:
        conn.execute(spans.insert(), span_rows)
    conn.execute(score_queue.insert(), [{"trace_id": t.id, "state": "pending", "attempts": 0, "enqueued_at": now}
                                        for t in new])


def _scores_of(conn: sa.Connection, ids: Iterable[str]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    ids = list(ids)
    for i in range(0, len(ids), 500):
        q = sa.select(scores).where(scores.c.trace_id.in_(ids[i:i + 500])).order_by(scores.c.metric)
        for r in conn.execute(q):
            out.setdefault(r.trace_id, []).append(r)
    return out


def _item(row: Any, q: Any, score_rows: list[Any]) -> dict[str, Any]:
    return {
        "id": row.id, "app_name": row.app_name, "app_version": row.app_version, "question": row.question,
        "answer": row.answer, "start_time": row.start_time, "received_at": row.received_at,
        "latency_ms": row.duration_ms, "retrieval_ms": row.retrieval_ms, "ttft_ms": row.ttft_ms,
        "status": row.status, "error": row.error, "language": row.language, "tags": row.tags,
        "metadata": row.meta,
        "scoring": {"state": q.state if q is not None else "unknown",
                    "attempts": q.attempts if q is not None else 0,
                    "error": q.last_error if q is not None else None},
        "scores": {s.metric: s.value for s in score_rows},
        "unscored": {s.metric: s.reason for s in score_rows if s.value is None},
    }


def list_traces(engine: sa.Engine, *, limit: int = 50, app_name: str | None = None,
                app_version: str | None = None) -> list[dict[str, Any]]:
    """The newest ``limit`` traces, newest first, each with its scores once scored."""
    q = (sa.select(traces, score_queue.c.state, score_queue.c.attempts, score_queue.c.last_error)
         .select_from(traces.outerjoin(score_queue, score_queue.c.trace_id == traces.c.id)))
    if app_name is not None:
        q = q.where(traces.c.app_name == app_name)
    if app_version is not None:
        q = q.where(traces.c.app_version == app_version)
    q = q.order_by(traces.c.received_at.desc(), traces.c.id.desc()).limit(limit)
    with engine.connect() as conn:
        rows = conn.execute(q).all()
        by_trace = _scores_of(conn, [r.id for r in rows])
    return [_item(r, r if r.state is not None else None, by_trace.get(r.id, [])) for r in rows]


def get_trace(engine: sa.Engine, trace_id: str) -> dict[str, Any] | None:
    """One trace with its spans and scores (artifacts included), or None."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(traces).where(traces.c.id == trace_id)).first()
        if row is None:
            return None
        q = conn.execute(sa.select(score_queue).where(score_queue.c.trace_id == trace_id)).first()
        span_rows = conn.execute(sa.select(spans.c.data).where(spans.c.trace_id == trace_id)
                                 .order_by(spans.c.position)).all()
        score_rows = _scores_of(conn, [trace_id]).get(trace_id, [])
    item = _item(row, q, score_rows)
    item["spans"] = [r.data for r in span_rows]
    item["artifacts"] = {s.metric: s.artifacts for s in score_rows if s.artifacts}
    return item


def queue_counts(engine: sa.Engine) -> dict[str, int]:
    with engine.connect() as conn:
        rows = conn.execute(sa.select(score_queue.c.state, sa.func.count()).group_by(score_queue.c.state)).all()
    out = {"pending": 0, "claimed": 0, "done": 0, "failed": 0}
    out.update({state: int(n) for state, n in rows})
    return out
