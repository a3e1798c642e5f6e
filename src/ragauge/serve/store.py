"""Writing and reading traces: a batch is stored whole or not at all, with its scoring-queue entries.

SQL only through SQLAlchemy Core expressions (bound parameters). A trace id already stored is skipped
(the SDK re-sends a spooled batch whose reply it did not see): the count stored equals the count sent.

The read side, for the API and the dashboard (signatures kept stable):

- :func:`list_traces` / :func:`count_traces`: newest first, filtered by app, version, time and one of
  :data:`FILTERS` (low faithfulness, no answer, clarifying question, slow, negative feedback);
- :func:`get_trace`: one trace with spans, artifacts and its feedback;
- :func:`add_feedback` / :func:`feedback_of`: thumbs up/down and a comment;
- :func:`version_summary`: per app and version, each metric's mean with its interval, latency
  percentiles, feedback counts; :func:`recent_scores`: the last N scored values (alerts);
- :func:`queue_counts`.
"""

from __future__ import annotations

import json
import time
from typing import Any, Iterable, Sequence

import sqlalchemy as sa

from .db import feedback, score_queue, scores, spans, traces
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


OUTCOMES = ("answer", "no_answer", "clarifying_question", "blocked", "error")
_DECISIONS = {"no_answer": "no_answer", "clarify": "clarifying_question", "clarifying_question": "clarifying_question",
              "block": "blocked", "blocked": "blocked"}


def outcome(t: TraceIn) -> str:
    """What the user got: error (the request failed); no_answer, clarifying_question or blocked (a guard
    span's decision, or ``metadata["outcome"]``, the ragauge guard's result kind); no_answer when there
    is no answer at all; else answer."""
    if t.status == "error":
        return "error"
    for s in reversed(t.spans):
        if s.kind == "guard" and isinstance(s.decision, str) and s.decision in _DECISIONS:
            return _DECISIONS[s.decision]
    declared = t.metadata.get("outcome")
    if isinstance(declared, str) and declared in OUTCOMES:
        return declared
    answer = _answer(t)
    return "no_answer" if answer is None or not answer.strip() else "answer"


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
                existing = existing_ids(conn, list(unique))
                new = [t for tid, t in unique.items() if tid not in existing]
                if new:
                    insert_new(conn, new, now)
            return {"accepted": len(new), "duplicates": len(batch) - len(new)}
        except sa.exc.IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def existing_ids(conn: sa.Connection, ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` are stored already."""
    found: set[str] = set()
    ids = list(ids)
    for i in range(0, len(ids), 500):
        found.update(r[0] for r in conn.execute(sa.select(traces.c.id).where(traces.c.id.in_(ids[i:i + 500]))))
    return found


def _executemany(conn: sa.Connection, table: sa.Table, rows: list[tuple[Any, ...]]) -> None:
    """A plain DB-API ``executemany`` of ``rows`` (tuples in the table's column order); values are bound
    parameters, JSON columns arrive serialized. Ingest's hot path: SQLAlchemy's per-row parameter
    processing cost more than the database itself (benchmarks/serve_load.py)."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    cols = ", ".join(conn.dialect.identifier_preparer.quote(c.name) for c in table.columns)
    sql = f"INSERT INTO {table.name} ({cols}) VALUES ({', '.join([mark] * len(table.columns))})"
    conn.exec_driver_sql(sql, rows)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def insert_new(conn: sa.Connection, new: Sequence[TraceIn], now: float) -> None:
    """Insert traces known to be new (their spans and queue entries too) inside ``conn``'s transaction."""
    by_name = {
        "traces": [{
            "id": t.id, "app_name": t.app_name, "app_version": t.app_version, "question": t.question,
            "answer": _answer(t), "start_time": t.start_time, "received_at": now, "duration_ms": t.duration_ms,
            "retrieval_ms": _retrieval_ms(t), "ttft_ms": _ttft_ms(t), "status": t.status, "error": t.error,
            "language": t.language, "tags": _json(list(t.tags)), "meta": _json(t.metadata), "outcome": outcome(t),
        } for t in new],
        "spans": [{
            "trace_id": t.id, "position": i, "kind": s.kind, "name": s.name, "start_ms": s.start_ms,
            "duration_ms": s.duration_ms, "data": s.model_dump_json(),
        } for t in new for i, s in enumerate(t.spans)],
        "score_queue": [{"trace_id": t.id, "state": "pending", "attempts": 0, "enqueued_at": now, "claimed_at": None,
                         "claimed_by": None, "finished_at": None, "last_error": None} for t in new],
    }
    for table in (traces, spans, score_queue):
        rows = by_name[table.name]
        if rows:
            _executemany(conn, table, [tuple(r[c.name] for c in table.columns) for r in rows])


def _scores_of(conn: sa.Connection, ids: Iterable[str]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    ids = list(ids)
    for i in range(0, len(ids), 500):
        q = sa.select(scores).where(scores.c.trace_id.in_(ids[i:i + 500])).order_by(scores.c.metric)
        for r in conn.execute(q):
            out.setdefault(r.trace_id, []).append(r)
    return out


def _feedback_of(conn: sa.Connection, ids: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """Feedback per trace, newest first."""
    out: dict[str, list[dict[str, Any]]] = {}
    ids = list(ids)
    for i in range(0, len(ids), 500):
        q = (sa.select(feedback).where(feedback.c.trace_id.in_(ids[i:i + 500]))
             .order_by(feedback.c.created_at.desc(), feedback.c.id.desc()))
        for r in conn.execute(q):
            out.setdefault(r.trace_id, []).append({"rating": r.rating, "comment": r.comment, "user": r.author,
                                                   "created_at": r.created_at})
    return out


def _feedback_summary(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    if not rows:
        return None
    return {"rating": rows[0]["rating"], "comment": rows[0]["comment"], "created_at": rows[0]["created_at"],
            "up": sum(r["rating"] > 0 for r in rows), "down": sum(r["rating"] < 0 for r in rows)}


def _item(row: Any, q: Any, score_rows: list[Any], fb: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": row.id, "app_name": row.app_name, "app_version": row.app_version, "question": row.question,
        "answer": row.answer, "start_time": row.start_time, "received_at": row.received_at,
        "latency_ms": row.duration_ms, "retrieval_ms": row.retrieval_ms, "ttft_ms": row.ttft_ms,
        "status": row.status, "error": row.error, "language": row.language, "tags": row.tags,
        "metadata": row.meta, "outcome": row.outcome,
        "scoring": {"state": q.state if q is not None else "unknown",
                    "attempts": q.attempts if q is not None else 0,
                    "error": q.last_error if q is not None else None},
        "scores": {s.metric: s.value for s in score_rows},
        "unscored": {s.metric: s.reason for s in score_rows if s.value is None},
        "feedback": _feedback_summary(fb),
    }


#: The request list's filters (``filter=`` of :func:`list_traces`).
FILTERS = ("low_faithfulness", "low_score", "high_score", "no_answer", "clarifying", "slow", "negative_feedback",
           "error")
#: Defaults from the dashboard profile: faithfulness >= 0.85, latency_p95 < 3000 ms.
LOW_FAITHFULNESS = 0.85
SLOW_MS = 3000.0


def _where(*, app_name: str | None, app_version: str | None, filter: str | None, below: float, slow_ms: float,
           since: float | None, until: float | None, ids: Sequence[str] | None = None,
           metric: str = "faithfulness", above: float | None = None) -> list[Any]:
    c = traces.c
    conds: list[Any] = []
    if app_name is not None:
        conds.append(c.app_name == app_name)
    if app_version is not None:
        conds.append(c.app_version == app_version)
    if since is not None:
        conds.append(c.received_at >= since)
    if until is not None:
        conds.append(c.received_at < until)
    if ids is not None:
        conds.append(c.id.in_(list(ids)))
    if filter is None:
        return conds
    if filter in ("low_faithfulness", "low_score"):
        conds.append(sa.exists().where(scores.c.trace_id == c.id,
                                       scores.c.metric == ("faithfulness" if filter == "low_faithfulness" else metric),
                                       scores.c.value < below))
    elif filter == "high_score":
        if above is None:
            raise ValueError("filter high_score needs above=<value>")
        conds.append(sa.exists().where(scores.c.trace_id == c.id, scores.c.metric == metric, scores.c.value > above))
    elif filter == "no_answer":
        conds.append(c.outcome == "no_answer")
    elif filter == "clarifying":
        conds.append(c.outcome == "clarifying_question")
    elif filter == "error":
        conds.append(c.status == "error")
    elif filter == "slow":
        conds.append(c.duration_ms > slow_ms)
    elif filter == "negative_feedback":
        conds.append(sa.exists().where(feedback.c.trace_id == c.id, feedback.c.rating < 0))
    else:
        raise ValueError(f"unknown filter {filter!r}; use one of {', '.join(FILTERS)}")
    return conds


def list_traces(engine: sa.Engine, *, limit: int = 50, offset: int = 0, app_name: str | None = None,
                app_version: str | None = None, filter: str | None = None, below: float = LOW_FAITHFULNESS,
                slow_ms: float = SLOW_MS, since: float | None = None, until: float | None = None,
                ids: Sequence[str] | None = None, metric: str = "faithfulness",
                above: float | None = None) -> list[dict[str, Any]]:
    """The newest ``limit`` traces (after ``offset``), newest first, each with its scores once scored and a
    feedback summary. ``filter``: one of :data:`FILTERS` - ``low_faithfulness`` (a faithfulness score
    below ``below``), ``no_answer`` / ``clarifying`` (the outcome), ``slow`` (latency over ``slow_ms``),
    ``negative_feedback`` (any thumbs down), ``error``; ``low_score`` / ``high_score``: ``metric`` below
    ``below`` / above ``above`` (the links of alerts). ``since``/``until``: received time (unix s);
    ``ids``: only these traces. Unknown filter: ValueError."""
    q = (sa.select(traces, score_queue.c.state, score_queue.c.attempts, score_queue.c.last_error)
         .select_from(traces.outerjoin(score_queue, score_queue.c.trace_id == traces.c.id)))
    for cond in _where(app_name=app_name, app_version=app_version, filter=filter, below=below, slow_ms=slow_ms,
                       since=since, until=until, ids=ids, metric=metric, above=above):
        q = q.where(cond)
    q = q.order_by(traces.c.received_at.desc(), traces.c.id.desc()).limit(limit).offset(offset)
    with engine.connect() as conn:
        rows = conn.execute(q).all()
        ids_ = [r.id for r in rows]
        by_trace = _scores_of(conn, ids_)
        fb = _feedback_of(conn, ids_)
    return [_item(r, r if r.state is not None else None, by_trace.get(r.id, []), fb.get(r.id, [])) for r in rows]


def count_traces(engine: sa.Engine, *, app_name: str | None = None, app_version: str | None = None,
                 filter: str | None = None, below: float = LOW_FAITHFULNESS, slow_ms: float = SLOW_MS,
                 since: float | None = None, until: float | None = None, metric: str = "faithfulness",
                 above: float | None = None) -> int:
    """How many traces :func:`list_traces` would page through with the same filters."""
    q = sa.select(sa.func.count()).select_from(traces)
    for cond in _where(app_name=app_name, app_version=app_version, filter=filter, below=below, slow_ms=slow_ms,
                       since=since, until=until, metric=metric, above=above):
        q = q.where(cond)
    with engine.connect() as conn:
        return int(conn.execute(q).scalar_one())


def get_trace(engine: sa.Engine, trace_id: str) -> dict[str, Any] | None:
    """One trace with its spans, scores (artifacts included) and every feedback (newest first), or None."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(traces).where(traces.c.id == trace_id)).first()
        if row is None:
            return None
        q = conn.execute(sa.select(score_queue).where(score_queue.c.trace_id == trace_id)).first()
        span_rows = conn.execute(sa.select(spans.c.data).where(spans.c.trace_id == trace_id)
                                 .order_by(spans.c.position)).all()
        score_rows = _scores_of(conn, [trace_id]).get(trace_id, [])
        fb = _feedback_of(conn, [trace_id]).get(trace_id, [])
    item = _item(row, q, score_rows, fb)
    item["spans"] = [r.data for r in span_rows]
    item["artifacts"] = {s.metric: s.artifacts for s in score_rows if s.artifacts}
    item["feedback_all"] = fb
    return item


def add_feedback(engine: sa.Engine, trace_id: str, *, rating: int, comment: str | None = None,
                 user: str | None = None, now: float | None = None) -> dict[str, Any] | None:
    """Attach a thumbs up (``rating=1``) or down (``-1``) and an optional comment to a trace; None when
    the trace is not stored. Every call adds a row (the newest is the trace's current feedback)."""
    if rating not in (1, -1):
        raise ValueError(f"rating must be 1 (thumbs up) or -1 (thumbs down), got {rating!r}")
    now = time.time() if now is None else now
    with engine.begin() as conn:
        if conn.execute(sa.select(traces.c.id).where(traces.c.id == trace_id)).first() is None:
            return None
        conn.execute(feedback.insert().values(trace_id=trace_id, rating=rating, comment=comment, author=user,
                                              created_at=now))
    return {"trace_id": trace_id, "rating": rating, "comment": comment, "user": user, "created_at": now}


def feedback_of(engine: sa.Engine, trace_id: str) -> list[dict[str, Any]]:
    """Every feedback of a trace, newest first."""
    with engine.connect() as conn:
        return _feedback_of(conn, [trace_id]).get(trace_id, [])


def recent_scores(engine: sa.Engine, metric: str, *, n: int, app_name: str | None = None,
                  app_version: str | None = None) -> list[tuple[str, float]]:
    """``(trace_id, value)`` of the last ``n`` traces scored on ``metric`` (newest first; unscored ones
    are not part of the window)."""
    q = (sa.select(scores.c.trace_id, scores.c.value).select_from(scores.join(traces, traces.c.id == scores.c.trace_id))
         .where(scores.c.metric == metric, scores.c.value.is_not(None)))
    if app_name is not None:
        q = q.where(traces.c.app_name == app_name)
    if app_version is not None:
        q = q.where(traces.c.app_version == app_version)
    q = q.order_by(scores.c.scored_at.desc(), traces.c.received_at.desc(), scores.c.trace_id.desc()).limit(n)
    with engine.connect() as conn:
        return [(r.trace_id, float(r.value)) for r in conn.execute(q)]


def version_summary(engine: sa.Engine, *, app_name: str | None = None, since: float | None = None,
                    until: float | None = None, level: float = 0.95, seed: int = 0) -> list[dict[str, Any]]:
    """Per app name and version: ``n`` traces, ``scored``, each metric's ``{mean, low, high, n, unscored}``
    (the interval of :func:`ragauge.stats.intervals.metric_ci`, seeded), latency ``p50/p95/p99`` (ms) and
    feedback ``up``/``down``. Ordered by app name, then by first trace received."""
    import numpy as np

    from ..stats.intervals import metric_ci

    c = traces.c
    conds = _where(app_name=app_name, app_version=None, filter=None, below=0, slow_ms=0, since=since, until=until)
    with engine.connect() as conn:
        base = sa.select(c.app_name, c.app_version, sa.func.count().label("n"), sa.func.min(c.received_at).label("first"))
        for cond in conds:
            base = base.where(cond)
        groups = conn.execute(base.group_by(c.app_name, c.app_version)).all()
        lat_q = sa.select(c.app_name, c.app_version, c.duration_ms).where(c.duration_ms.is_not(None), *conds)
        latencies: dict[tuple[str, Any], list[float]] = {}
        for lr in conn.execute(lat_q):
            latencies.setdefault((lr.app_name, lr.app_version), []).append(float(lr.duration_ms))
        sc_q = (sa.select(c.app_name, c.app_version, scores.c.metric, scores.c.value)
                .select_from(scores.join(traces, c.id == scores.c.trace_id)).where(*conds))
        values: dict[tuple[str, Any], dict[str, list[float | None]]] = {}
        for sr in conn.execute(sc_q):
            values.setdefault((sr.app_name, sr.app_version), {}).setdefault(sr.metric, []).append(sr.value)
        fb_q = (sa.select(c.app_name, c.app_version, feedback.c.rating, sa.func.count().label("k"))
                .select_from(feedback.join(traces, c.id == feedback.c.trace_id)).where(*conds)
                .group_by(c.app_name, c.app_version, feedback.c.rating))
        fbs: dict[tuple[str, Any], dict[str, int]] = {}
        for fr in conn.execute(fb_q):
            d = fbs.setdefault((fr.app_name, fr.app_version), {"up": 0, "down": 0})
            d["up" if fr.rating > 0 else "down"] += int(fr.k)
    out = []
    for g in sorted(groups, key=lambda g: (g.app_name, g.first)):
        key = (g.app_name, g.app_version)
        metrics: dict[str, Any] = {}
        scored = 0
        for metric, vals in sorted(values.get(key, {}).items()):
            got = np.array([v for v in vals if v is not None], dtype=np.float64)
            scored = max(scored, len(vals))
            iv = metric_ci(got, level=level, seed=seed) if got.size else None
            metrics[metric] = {"mean": float(got.mean()) if got.size else None, "low": iv.low if iv else None,
                               "high": iv.high if iv else None, "n": int(got.size), "unscored": len(vals) - int(got.size)}
        lat = np.array(latencies.get(key, []), dtype=np.float64)
        out.append({"app_name": g.app_name, "app_version": g.app_version, "n": int(g.n), "scored": scored,
                    "metrics": metrics,
                    "latency_ms": {f"p{q}": float(np.percentile(lat, q)) if lat.size else None for q in (50, 95, 99)},
                    "feedback": fbs.get(key, {"up": 0, "down": 0})})
    return out


def queue_counts(engine: sa.Engine) -> dict[str, int]:
    with engine.connect() as conn:
        rows = conn.execute(sa.select(score_queue.c.state, sa.func.count()).group_by(score_queue.c.state)).all()
    out = {"pending": 0, "claimed": 0, "done": 0, "failed": 0}
    out.update({state: int(n) for state, n in rows})
    return out
