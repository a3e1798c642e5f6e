"""The overview's table of latency percentiles per time window (``/api/metrics``' numbers, formatted)."""

from __future__ import annotations

import time
from typing import Any, Sequence

import sqlalchemy as sa

from ...errors import InputError
from ..timeseries import windowed_metrics
from .page import BadInput
from .views import num

#: the windows the overview offers (``?per=``)
PER = ("1h", "1d")


def timing_table(engine: sa.Engine, app: str, version: str | None, per: str,
                 rows: Sequence[dict[str, Any]]) -> list[dict[str, str]]:
    """Newest window first: the last 24 windows up to the newest request of ``app`` ``version``."""
    if per not in PER:
        raise BadInput(f"per must be one of {', '.join(PER)}, got {per[:20]!r}")
    newest = max((r["received_at"] for r in rows if r.get("received_at") is not None), default=time.time())
    try:
        out = windowed_metrics(engine, window=per, app_name=app, app_version=version, version_given=True,
                               until=newest + 1.0)
    except InputError as exc:  # pragma: no cover - PER holds valid windows only
        raise BadInput(str(exc)) from None
    fmt = "%Y-%m-%d" if per == "1d" else "%Y-%m-%d %H:00"
    return [{"start": time.strftime(fmt, time.gmtime(b["start"])), "n": str(b["n"]),
             "p50": num(b["latency_ms"]["p50"], "ms"), "p95": num(b["latency_ms"]["p95"], "ms"),
             "p99": num(b["latency_ms"]["p99"], "ms"), "retrieval_p95": num(b["retrieval_ms"]["p95"], "ms"),
             "ttft_p95": num(b["ttft_ms"]["p95"], "ms")} for b in reversed(out["buckets"])]
