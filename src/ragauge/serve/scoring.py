"""Background scoring: the queue in the database, a worker thread, and the trace -> sample mapping.

A trace becomes exactly the record ``ragauge eval`` would read from a JSONL line (:func:`trace_record`)
and is scored by :func:`ragauge.evaluate` with ``profile=None`` on small batches, so the values are the
ones ``ragauge eval`` gives for the same sample.

The queue (table ``score_queue``) is the only state: an item is claimed (``state='claimed'``, attempts+1,
a lease), scored, and marked ``done`` together with its scores in one transaction. A worker that crashes
or is killed leaves its items claimed; once the lease runs out another worker (or the next start) takes
them again. An item claimed ``max_attempts`` times without finishing, or that fails with an error each
time, ends ``failed`` with the reason (shown in the API) - never silently dropped.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from typing import Any, Sequence

import sqlalchemy as sa

from .db import score_queue, scores, spans, traces

log = logging.getLogger("ragauge.serve")

#: What every trace is scored on by default (offline judge; no reference needed).
DEFAULT_METRICS = ("faithfulness", "answer_relevancy", "context_precision")


def trace_record(row: Any, span_data: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The sample record of a stored trace (the JSONL schema of ``ragauge eval``).

    contexts: the chunks of every retrieval span in order, a repeated chunk id kept once; answer: the
    trace's answer (else the last generation span's, resolved at ingest); timings from the trace;
    metadata: app_name, app_version and the trace's own metadata.
    """
    contexts: list[dict[str, Any]] = []
    seen: set[str] = set()
    for span in span_data:
        if span.get("kind") != "retrieval":
            continue
        for c in span.get("chunks") or []:
            if c.get("id") is not None:
                if c["id"] in seen:
                    continue
                seen.add(c["id"])
            ctx: dict[str, Any] = {"text": c.get("text", "")}
            for key in ("id", "score"):
                if c.get(key) is not None:
                    ctx[key] = c[key]
            if c.get("metadata"):
                ctx["metadata"] = c["metadata"]
            contexts.append(ctx)
    meta = dict(row.meta or {})
    meta["app_name"] = row.app_name
    if row.app_version is not None:
        meta["app_version"] = row.app_version
    rec: dict[str, Any] = {"id": row.id}
    for key, value in (("question", row.question), ("answer", row.answer), ("latency_ms", row.duration_ms),
                       ("retrieval_ms", row.retrieval_ms), ("ttft_ms", row.ttft_ms), ("language", row.language)):
        if value is not None:
            rec[key] = value
    if contexts:
        rec["contexts"] = contexts
    if row.tags:
        rec["tags"] = list(row.tags)
    rec["metadata"] = meta
    return rec


#: a trace record needs one of these to be scored; one with none ends done with null scores
SCORED_FIELDS = ("question", "answer", "contexts")
NOTHING_TO_SCORE = "no question, answer or contexts in the trace"


class Scorer:
    """Takes unscored traces from the queue and stores their scores; ``start()`` runs it in a thread."""

    def __init__(self, engine: sa.Engine, *, metrics: Sequence[str] = DEFAULT_METRICS, judge: Any = "offline",
                 batch_size: int = 16, lease_s: float = 300.0, max_attempts: int = 3, poll_s: float = 0.5,
                 llm: Any = None) -> None:
        self.engine = engine
        self.llm = llm  #: an :class:`~ragauge.serve.llm_scoring.LLMSampler`, or None
        self.metrics = list(metrics)
        self.judge = judge
        self.batch_size = batch_size
        self.lease_s = lease_s
        self.max_attempts = max_attempts
        self.poll_s = poll_s
        self.worker_id = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- queue -------------------------------------------------------------------------------------
    def claim(self, now: float | None = None) -> list[str]:
        """Claim up to ``batch_size`` items: pending ones, and claimed ones whose lease ran out."""
        now = time.time() if now is None else now
        c = score_queue.c
        due = sa.or_(c.state == "pending", sa.and_(c.state == "claimed", c.claimed_at < now - self.lease_s))
        with self.engine.begin() as conn:
            rows = conn.execute(sa.select(c.trace_id, c.attempts).where(due).order_by(c.enqueued_at)
                                .limit(self.batch_size).with_for_update(skip_locked=True)).all()
            spent = [r.trace_id for r in rows if r.attempts >= self.max_attempts]
            ids = [r.trace_id for r in rows if r.attempts < self.max_attempts]
            if spent:  # claimed that often and never finished: a trace that kills the scorer
                conn.execute(score_queue.update().where(c.trace_id.in_(spent)).values(
                    state="failed", finished_at=now,
                    last_error=sa.func.coalesce(c.last_error, f"scoring never finished in {self.max_attempts} attempts")))
            if ids:
                conn.execute(score_queue.update().where(c.trace_id.in_(ids)).values(
                    state="claimed", claimed_at=now, claimed_by=self.worker_id, attempts=c.attempts + 1))
        return ids

    def _records(self, ids: list[str]) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = {r.id: r for r in conn.execute(sa.select(traces).where(traces.c.id.in_(ids)))}
            span_map: dict[str, list[dict[str, Any]]] = {}
            for r in conn.execute(sa.select(spans.c.trace_id, spans.c.data).where(spans.c.trace_id.in_(ids))
                                  .order_by(spans.c.trace_id, spans.c.position)):
                span_map.setdefault(r.trace_id, []).append(r.data)
        return [trace_record(rows[i], span_map.get(i, [])) for i in ids if i in rows]

    def _evaluate(self, records: list[dict[str, Any]]) -> Any:
        from ..engine.evaluate import evaluate

        return evaluate(records, metrics=self.metrics, judge=self.judge, profile=None)

    def run_once(self) -> int:
        """Claim, score and store one batch; returns how many traces were taken."""
        ids = self.claim()
        if not ids:
            return 0
        records = self._records(ids)
        empty = [r for r in records if not any(r.get(k) for k in SCORED_FIELDS)]
        if empty:
            self._store_unscorable([r["id"] for r in empty])
            records = [r for r in records if r not in empty]
            if not records:
                return len(ids)
        done = records
        try:
            self._store(self._evaluate(records))
        except Exception as exc:  # noqa: BLE001 - find the trace that fails, score the others
            done = []
            if len(records) == 1:
                self._release(records[0]["id"], exc)
            else:
                for rec in records:
                    try:
                        self._store(self._evaluate([rec]))
                        done.append(rec)
                    except Exception as one:  # noqa: BLE001
                        self._release(rec["id"], one)
        if self.llm is not None and done:
            self._store_llm(done)
        return len(ids)

    def _store_llm(self, records: list[dict[str, Any]]) -> None:
        """The LLM judge's rows for the sampled ``records`` (after their offline scores were stored, so a
        slow LLM never holds the offline scores back)."""
        rows = self.llm.rows(records, time.time())
        if rows:
            with self.engine.begin() as conn:
                conn.execute(scores.insert(), rows)

    def _store(self, results: Any) -> None:
        now = time.time()
        judge = self.judge if isinstance(self.judge, str) else type(self.judge).__name__
        rows = []
        for i, sample in enumerate(results.samples):
            for name, col in results.columns.items():
                value = col.values[i]
                rows.append({"trace_id": sample.id, "metric": name, "value": None if value is None else float(value),
                             "reason": col.reasons[i], "artifacts": _jsonable(col.artifacts[i]) or None,
                             "judge": judge, "scored_at": now})
        ids = [s.id for s in results.samples]
        with self.engine.begin() as conn:
            conn.execute(scores.delete().where(scores.c.trace_id.in_(ids)))
            if rows:
                conn.execute(scores.insert(), rows)
            conn.execute(score_queue.update().where(score_queue.c.trace_id.in_(ids)).values(
                state="done", finished_at=now, last_error=None))

    def _store_unscorable(self, ids: list[str]) -> None:
        """Traces with nothing to score end ``done`` with a null score (and the reason) for every metric."""
        now = time.time()
        judge = self.judge if isinstance(self.judge, str) else type(self.judge).__name__
        rows = [{"trace_id": tid, "metric": name, "value": None, "reason": NOTHING_TO_SCORE, "artifacts": None,
                 "judge": judge, "scored_at": now} for tid in ids for name in self.metrics]
        with self.engine.begin() as conn:
            conn.execute(scores.delete().where(scores.c.trace_id.in_(ids)))
            if rows:
                conn.execute(scores.insert(), rows)
            conn.execute(score_queue.update().where(score_queue.c.trace_id.in_(ids)).values(
                state="done", finished_at=now, last_error=None))

    def _release(self, trace_id: str, exc: BaseException) -> None:
        """Back to pending with the reason (or failed after ``max_attempts``)."""
        reason = f"{type(exc).__name__}: {exc}"[:2000]
        log.warning("ragauge serve: scoring trace %s failed: %s", trace_id, reason)
        c = score_queue.c
        with self.engine.begin() as conn:
            conn.execute(score_queue.update().where(c.trace_id == trace_id).values(
                state=sa.case((c.attempts >= self.max_attempts, "failed"), else_="pending"),
                last_error=reason, claimed_at=None, claimed_by=None,
                finished_at=sa.case((c.attempts >= self.max_attempts, time.time()), else_=None)))

    # -- thread ------------------------------------------------------------------------------------
    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                n = self.run_once()
            except Exception as exc:  # noqa: BLE001 - e.g. the database is locked or gone for a moment
                log.warning("ragauge serve: scorer error (%s: %s); retrying", type(exc).__name__, exc)
                n = 0
            if n == 0:
                self._stop.wait(self.poll_s)

    def start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="ragauge-scorer", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)


def _jsonable(value: Any) -> Any:
    """Artifacts as plain JSON (dataclasses and tuples flattened; unknown objects as text)."""
    import dataclasses
    import math

    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v) for v in value]
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return _jsonable(to_dict())
    item = getattr(value, "item", None)
    if callable(item):
        return _jsonable(item())
    return str(value)
