"""What the dashboard reads from (and the one thing it writes to) the collector's database.

SQLAlchemy Core over the tables of :mod:`ragauge.serve.db` only, bound parameters everywhere. The
request list filters in SQL (app, version, low faithfulness, slow, negative feedback); what an answer
*does* (answers, says it found nothing, asks to clarify) is read from the guard's decision when the
trace has one, else from the answer text by the offline judge's own rules
(:func:`ragauge.judges.offline.behaviour.answer_behaviour`), so that filter runs over the SQL matches in
Python before the page is cut.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import sqlalchemy as sa

from ..db import score_queue, scores, spans, traces
from ..scoring import trace_record

#: ids per ``IN (...)`` list
_CHUNK = 500
#: at most this many traces are classified by behaviour for one list page (newest first)
BEHAVIOUR_SCAN = 20_000


@dataclass(frozen=True)
class RequestFilter:
    """The request list's filters. Behaviour flags (``no_answer``, ``clarifying``) are alternatives (either
    one); every other filter must hold too."""

    app: str | None = None
    version: str | None = None  #: "" selects traces without a version
    low_faithfulness: bool = False
    no_answer: bool = False
    clarifying: bool = False
    slow: bool = False
    negative: bool = False
    #: a bound on one stored score (the collector's alert links): ``score_metric < score_below`` and/or
    #: ``score_metric > score_above``
    score_metric: str | None = None
    score_below: float | None = None
    score_above: float | None = None

    def behaviours(self) -> set[str]:
        return {b for b, on in (("not_found", self.no_answer), ("clarify", self.clarifying)) if on}


@dataclass(frozen=True)
class Limits:
    """Where "low faithfulness" and "slow" start (from the profile unless the settings say otherwise)."""

    faithfulness_below: float = 0.85
    slow_ms: float = 3000.0


def _version_cond(version: str | None) -> Any:
    if version is None:
        return sa.true()
    return traces.c.app_version.is_(None) if version == "" else traces.c.app_version == version


def _scores_of(conn: sa.Connection, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``{trace id: {metric: {"value", "reason", "artifacts"}}}``."""
    out: dict[str, dict[str, Any]] = {}
    for i in range(0, len(ids), _CHUNK):
        q = sa.select(scores.c.trace_id, scores.c.metric, scores.c.value, scores.c.reason, scores.c.artifacts) \
            .where(scores.c.trace_id.in_(ids[i:i + _CHUNK]))
        for r in conn.execute(q):
            out.setdefault(r.trace_id, {})[r.metric] = {"value": r.value, "reason": r.reason,
                                                       "artifacts": r.artifacts}
    return out


# -- overview ------------------------------------------------------------------------------------
def groups(engine: sa.Engine) -> list[dict[str, Any]]:
    """Every (app, version) with its trace count, newest request and scoring queue counts."""
    q = (sa.select(traces.c.app_name, traces.c.app_version, sa.func.count().label("n"),
                   sa.func.max(traces.c.received_at).label("last"), score_queue.c.state)
         .select_from(traces.outerjoin(score_queue, score_queue.c.trace_id == traces.c.id))
         .group_by(traces.c.app_name, traces.c.app_version, score_queue.c.state))
    merged: dict[tuple[str, str | None], dict[str, Any]] = {}
    with engine.connect() as conn:
        for r in conn.execute(q):
            g = merged.setdefault((r.app_name, r.app_version), {
                "app": r.app_name, "version": r.app_version, "n": 0, "last": 0.0,
                "states": {"pending": 0, "claimed": 0, "done": 0, "failed": 0}})
            g["n"] += int(r.n)
            g["last"] = max(g["last"], float(r.last or 0.0))
            if r.state is not None:
                g["states"][r.state] = g["states"].get(r.state, 0) + int(r.n)
    # newest first; on a tie the higher version string first (1.1 before 1.0)
    ordered = sorted(merged.values(), key=lambda g: g["version"] or "", reverse=True)
    return sorted(ordered, key=lambda g: -g["last"])


def window(engine: sa.Engine, app: str, version: str | None, limit: int) -> list[dict[str, Any]]:
    """The newest ``limit`` traces of one app version (oldest first), with their timings and scores."""
    q = (sa.select(traces.c.id, traces.c.question, traces.c.received_at, traces.c.duration_ms,
                   traces.c.retrieval_ms, traces.c.ttft_ms)
         .where(traces.c.app_name == app, _version_cond("" if version is None else version))
         .order_by(traces.c.received_at.desc(), traces.c.id.desc()).limit(limit))
    with engine.connect() as conn:
        rows = conn.execute(q).all()
        by_id = _scores_of(conn, [r.id for r in rows])
    return [{"id": r.id, "question": r.question, "received_at": r.received_at, "latency_ms": r.duration_ms,
             "retrieval_ms": r.retrieval_ms, "ttft_ms": r.ttft_ms, "scores": by_id.get(r.id, {})}
            for r in reversed(rows)]


# -- feedback ------------------------------------------------------------------------------------
def feedback_table(engine: sa.Engine) -> sa.Table | None:
    """The collector's feedback table (``trace_id``, ``rating`` +1/-1, ``comment``, ``created_at``), or
    None when this database has none yet."""
    from .. import db

    table = getattr(db, "feedback", None)
    if isinstance(table, sa.Table):
        return table
    if sa.inspect(engine).has_table("feedback"):
        return sa.Table("feedback", sa.MetaData(), autoload_with=engine)
    return None


def add_feedback(engine: sa.Engine, trace_id: str, *, rating: int, comment: str | None,
                 source: str = "dashboard") -> bool:
    """Store one thumbs up (+1) / down (-1) with an optional comment (``author``: ``source``) in the
    collector's feedback table, as the API does; False when the trace is unknown."""
    table = feedback_table(engine)
    if table is None:
        raise LookupError("no feedback table in this database")
    row: dict[str, Any] = {"trace_id": trace_id, "rating": rating, "comment": comment or None,
                           "created_at": time.time()}
    if "author" in table.c:
        row["author"] = source
    with engine.begin() as conn:
        if conn.execute(sa.select(traces.c.id).where(traces.c.id == trace_id)).first() is None:
            return False
        conn.execute(table.insert().values(**row))
    return True


def feedback_of(engine: sa.Engine, ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    table = feedback_table(engine)
    out: dict[str, list[dict[str, Any]]] = {}
    if table is None or not ids:
        return out
    with engine.connect() as conn:
        for i in range(0, len(ids), _CHUNK):
            q = sa.select(table).where(table.c.trace_id.in_(ids[i:i + _CHUNK])).order_by(table.c.created_at)
            for r in conn.execute(q):
                m = r._mapping
                out.setdefault(m["trace_id"], []).append(
                    {"rating": m["rating"], "comment": m.get("comment"), "created_at": m.get("created_at"),
                     "author": m.get("author")})
    return out


# -- the request list ----------------------------------------------------------------------------
def _where(engine: sa.Engine, f: RequestFilter, limits: Limits) -> list[Any]:
    conds: list[Any] = []
    if f.app is not None:
        conds.append(traces.c.app_name == f.app)
    if f.version is not None:
        conds.append(_version_cond(f.version))
    if f.low_faithfulness:
        conds.append(sa.exists().where(scores.c.trace_id == traces.c.id, scores.c.metric == "faithfulness",
                                       scores.c.value < limits.faithfulness_below))
    if f.slow:
        conds.append(traces.c.duration_ms > limits.slow_ms)
    if f.score_metric is not None and (f.score_below is not None or f.score_above is not None):
        bound = [scores.c.trace_id == traces.c.id, scores.c.metric == f.score_metric, scores.c.value.is_not(None)]
        if f.score_below is not None:
            bound.append(scores.c.value < f.score_below)
        if f.score_above is not None:
            bound.append(scores.c.value > f.score_above)
        conds.append(sa.exists().where(*bound))
    if f.negative:
        table = feedback_table(engine)
        conds.append(sa.false() if table is None else
                     sa.exists().where(table.c.trace_id == traces.c.id, table.c.rating < 0))
    return conds


def _guard_kind(decision: Any) -> str | None:
    if isinstance(decision, dict):
        decision = decision.get("kind") or decision.get("decision")
    if not isinstance(decision, str):
        return None
    d = decision.lower()
    if d in ("no_answer", "not_found"):
        return "not_found"
    if d in ("clarify", "clarifying_question"):
        return "clarify"
    return None


def behaviour(answer: str | None, language: str | None, meta: dict[str, Any] | None,
              guard_decisions: Iterable[Any] = ()) -> str:
    """``answer`` | ``not_found`` | ``clarify``: the guard's decision when there is one, else the text's."""
    for decision in [(meta or {}).get("guard_kind"), *guard_decisions]:
        kind = _guard_kind(decision)
        if kind is not None:
            return kind
    if not text_rules_available():  # only guard decisions can tell; the list page says so
        return "answer"
    from ragauge.judges.offline.behaviour import answer_behaviour

    return answer_behaviour(answer, language)


def text_rules_available() -> bool:
    """Whether the offline judge's rules for reading an answer (``ragauge[offline]``) are installed."""
    global _TEXT_RULES
    if _TEXT_RULES is None:
        try:
            import ragauge.judges.offline.behaviour  # noqa: F401
            _TEXT_RULES = True
        except ImportError:
            _TEXT_RULES = False
    return _TEXT_RULES


_TEXT_RULES: bool | None = None


def _guard_decisions(conn: sa.Connection, ids: Sequence[str]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for i in range(0, len(ids), _CHUNK):
        q = sa.select(spans.c.trace_id, spans.c.data).where(spans.c.kind == "guard",
                                                            spans.c.trace_id.in_(ids[i:i + _CHUNK]))
        for r in conn.execute(q):
            out.setdefault(r.trace_id, []).append((r.data or {}).get("decision"))
    return out


def _list_columns() -> list[Any]:
    return [traces.c.id, traces.c.app_name, traces.c.app_version, traces.c.question, traces.c.answer,
            traces.c.received_at, traces.c.duration_ms, traces.c.language, traces.c.meta, score_queue.c.state]


def list_requests(engine: sa.Engine, f: RequestFilter, limits: Limits, *, page: int = 1, page_size: int = 50,
                  cache: BehaviourCache | None = None) -> tuple[list[dict[str, Any]], int]:
    """One page of the requests matching ``f`` (newest first) and how many match in all."""
    ids, total = matching_ids(engine, f, limits, offset=(page - 1) * page_size, limit=page_size, cache=cache)
    return fetch_rows(engine, ids), total


class BehaviourCache:
    """Trace id -> behaviour, for the behaviour filters: a stored trace never changes (a re-sent id is
    ignored by the collector), so what its answer does is classified once per process. Bounded: cleared
    when it passes ``max_items``."""

    def __init__(self, max_items: int = 500_000) -> None:
        self.max_items = max_items
        self._known: dict[str, str] = {}

    def of(self, engine: sa.Engine, ids: Sequence[str]) -> dict[str, str]:
        missing = [i for i in ids if i not in self._known]
        if len(self._known) + len(missing) > self.max_items:
            self._known.clear()
            missing = list(ids)
        with engine.connect() as conn:
            for i in range(0, len(missing), _CHUNK):
                part = missing[i:i + _CHUNK]
                guards = _guard_decisions(conn, part)
                for r in conn.execute(sa.select(traces.c.id, traces.c.answer, traces.c.language, traces.c.meta)
                                      .where(traces.c.id.in_(part))):
                    self._known[r.id] = behaviour(r.answer, r.language, r.meta, guards.get(r.id, ()))
        return {i: self._known[i] for i in ids if i in self._known}


def matching_ids(engine: sa.Engine, f: RequestFilter, limits: Limits, *, offset: int = 0, limit: int = 50,
                 cache: BehaviourCache | None = None) -> tuple[list[str], int]:
    """The ids of one page of matches (newest first) and the number of matches. With a behaviour filter
    the newest :data:`BEHAVIOUR_SCAN` SQL matches are classified (``cache`` keeps what was classified)."""
    conds = _where(engine, f, limits)
    order = (traces.c.received_at.desc(), traces.c.id.desc())
    wanted = f.behaviours()
    with engine.connect() as conn:
        if not wanted:
            total = conn.execute(sa.select(sa.func.count()).select_from(traces).where(*conds)).scalar_one()
            rows = conn.execute(sa.select(traces.c.id).where(*conds).order_by(*order)
                                .offset(offset).limit(limit)).all()
            return [r.id for r in rows], int(total)
        ids = [r.id for r in conn.execute(sa.select(traces.c.id).where(*conds).order_by(*order)
                                          .limit(BEHAVIOUR_SCAN))]
    kinds = (cache or BehaviourCache()).of(engine, ids)
    kept = [i for i in ids if kinds.get(i) in wanted]
    return kept[offset:offset + limit], len(kept)


def fetch_rows(engine: sa.Engine, ids: Sequence[str]) -> list[dict[str, Any]]:
    """List rows for ``ids`` in that order: the trace, its scores, behaviour and feedback."""
    if not ids:
        return []
    with engine.connect() as conn:
        q = (sa.select(*_list_columns())
             .select_from(traces.outerjoin(score_queue, score_queue.c.trace_id == traces.c.id))
             .where(traces.c.id.in_(list(ids))))
        rows = {r.id: r for r in conn.execute(q)}
        by_id = _scores_of(conn, list(ids))
        guards = _guard_decisions(conn, list(ids))
    fb = feedback_of(engine, list(ids))
    out = []
    for tid in ids:
        r = rows.get(tid)
        if r is None:
            continue
        out.append({"id": r.id, "app": r.app_name, "version": r.app_version, "question": r.question,
                    "answer": r.answer, "received_at": r.received_at, "latency_ms": r.duration_ms,
                    "state": r.state or "unknown", "scores": by_id.get(r.id, {}),
                    "behaviour": behaviour(r.answer, r.language, r.meta, guards.get(r.id, ())),
                    "feedback": fb.get(r.id, [])})
    return out


# -- one request ---------------------------------------------------------------------------------
def get_request(engine: sa.Engine, trace_id: str) -> dict[str, Any] | None:
    """One trace: the row, its spans, the scored record's contexts (what evidence indices point at),
    scores with artifacts, queue state, behaviour and feedback."""
    found = records(engine, [trace_id])
    return found[0] if found else None


def records(engine: sa.Engine, ids: Sequence[str]) -> list[dict[str, Any]]:
    """:func:`get_request`'s item for each of ``ids`` (in that order; unknown ids skipped), a few queries
    per 500 ids."""
    ids = list(dict.fromkeys(ids))
    rows: dict[str, Any] = {}
    span_data: dict[str, list[dict[str, Any]]] = {}
    queue: dict[str, Any] = {}
    with engine.connect() as conn:
        for i in range(0, len(ids), _CHUNK):
            part = ids[i:i + _CHUNK]
            rows.update((r.id, r) for r in conn.execute(sa.select(traces).where(traces.c.id.in_(part))))
            for r in conn.execute(sa.select(spans.c.trace_id, spans.c.data).where(spans.c.trace_id.in_(part))
                                  .order_by(spans.c.trace_id, spans.c.position)):
                span_data.setdefault(r.trace_id, []).append(r.data)
            queue.update((r.trace_id, r) for r in conn.execute(
                sa.select(score_queue.c.trace_id, score_queue.c.state, score_queue.c.last_error)
                .where(score_queue.c.trace_id.in_(part))))
        sc = _scores_of(conn, ids)
    fb = feedback_of(engine, [i for i in ids if i in rows])
    out = []
    for tid in ids:
        row = rows.get(tid)
        if row is None:
            continue
        sd = span_data.get(tid, [])
        q = queue.get(tid)
        guards = [s.get("decision") for s in sd if s.get("kind") == "guard"]
        out.append({"row": row, "spans": sd, "record": trace_record(row, sd), "scores": sc.get(tid, {}),
                    "state": q.state if q is not None else "unknown", "error": q.last_error if q is not None else None,
                    "behaviour": behaviour(row.answer, row.language, row.meta, guards), "feedback": fb.get(tid, [])})
    return out
