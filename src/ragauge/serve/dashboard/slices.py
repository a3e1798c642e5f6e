"""The per-slice view: the newest requests of one app version grouped by tag (or by a metadata key), each
group summarised with ``ragauge eval``'s own code (the tiles' :func:`.overview.tiles`: mean and interval of
each judge metric, latency percentiles).

A request with several tags counts in each of them; one without any is in the group ``(none)``.
"""

from __future__ import annotations

from typing import Any, Sequence

import sqlalchemy as sa

from ..db import traces
from .overview import tiles
from .page import BadInput
from .queries import _scores_of, _version_cond

#: the columns of the slice table (a tile each)
COLUMNS = ("faithfulness", "answer_relevancy", "context_precision", "latency_p95")
NONE = "(none)"
MAX_GROUPS = 200


def parse_by(raw: str | None) -> tuple[str, str | None]:
    """``?by=`` -> ``("tag", None)`` or ``("meta", KEY)`` (``by=meta:customer_tier``)."""
    if raw in (None, "", "tag"):
        return "tag", None
    if raw.startswith("meta:") and 0 < len(raw) - 5 <= 100:
        return "meta", raw[5:]
    raise BadInput(f"by must be 'tag' or 'meta:KEY' (a metadata key), got {raw[:60]!r}")


def rows_with_tags(engine: sa.Engine, app: str, version: str | None, limit: int) -> list[dict[str, Any]]:
    """The newest ``limit`` traces of one app version (oldest first), with tags, metadata, timings, scores."""
    c = traces.c
    q = (sa.select(c.id, c.tags, c.meta, c.received_at, c.duration_ms, c.retrieval_ms, c.ttft_ms)
         .where(c.app_name == app, _version_cond("" if version is None else version))
         .order_by(c.received_at.desc(), c.id.desc()).limit(limit))
    with engine.connect() as conn:
        rows = conn.execute(q).all()
        by_id = _scores_of(conn, [r.id for r in rows])
    return [{"id": r.id, "tags": list(r.tags or []), "meta": dict(r.meta or {}), "received_at": r.received_at,
             "latency_ms": r.duration_ms, "retrieval_ms": r.retrieval_ms, "ttft_ms": r.ttft_ms,
             "scores": by_id.get(r.id, {})} for r in reversed(rows)]


def group(rows: Sequence[dict[str, Any]], by: str, key: str | None) -> dict[str, list[dict[str, Any]]]:
    """``{slice: rows}``, the largest slices first (at most ``MAX_GROUPS``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if by == "tag":
            names = [str(t) for t in dict.fromkeys(r["tags"])] or [NONE]
        else:
            value = r["meta"].get(key)
            names = [NONE if value is None else str(value)[:200]]
        for name in names:
            out.setdefault(name, []).append(r)
    ordered = sorted(out.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:MAX_GROUPS]
    return dict(ordered)


def slice_table(rows: Sequence[dict[str, Any]], by: str, key: str | None, profile: Any) -> list[dict[str, Any]]:
    """One entry per slice: ``name``, ``n`` and a tile per column of :data:`COLUMNS`."""
    out = []
    for name, members in group(rows, by, key).items():
        by_metric = {t.metric: t for t in tiles(members, profile)}
        out.append({"name": name, "n": len(members), "tiles": [by_metric[m] for m in COLUMNS]})
    return out
