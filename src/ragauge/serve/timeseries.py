"""Operational metrics per time window: latency, retrieval time and TTFT percentiles per hour, day...

A bucket holds the traces whose ``start_time`` (when the request began, unix seconds) falls in
``[start, start + window)``; buckets are aligned to the epoch in UTC (``1h`` buckets start on the hour,
``1d`` at 00:00 UTC). Each timing's P50/P95/P99 is numpy's linear interpolation between order statistics
(the ``latency_p95`` of ``ragauge eval``, :mod:`ragauge.metrics.operational`); a trace without the timing
is left out of that timing's percentiles and counted in ``missing``. A bucket with no traces is not listed.

>>> parse_window("1h"), parse_window("15m"), parse_window("1d")
(3600, 900, 86400)
"""

from __future__ import annotations

import re
import time
from typing import Any

import sqlalchemy as sa

from ..errors import InputError
from .db import traces

#: the timings a bucket summarises (trace column -> name in the answer)
TIMINGS = ("latency_ms", "retrieval_ms", "ttft_ms")
PERCENTILES = (50, 95, 99)
_UNITS = {"m": 60, "h": 3600, "d": 86400}
MIN_WINDOW_S = 60
MAX_WINDOW_S = 31 * 86400
MAX_BUCKETS = 1000
DEFAULT_BUCKETS = 24


def parse_window(text: str) -> int:
    """``"1h"`` -> 3600 seconds. A whole number and a unit: ``m`` (minutes), ``h`` (hours), ``d`` (days)."""
    m = re.fullmatch(r"\s*(\d{1,6})\s*([mhd])\s*", str(text))
    if m is None:
        raise InputError(f"window={text!r} is not a window; use a number and m/h/d, e.g. window=1h, 15m or 1d")
    seconds = int(m.group(1)) * _UNITS[m.group(2)]
    if not MIN_WINDOW_S <= seconds <= MAX_WINDOW_S:
        raise InputError(f"window={text!r} is out of range; use between 1m and 31d")
    return seconds


def _percentiles(values: list[float]) -> dict[str, float | None]:
    import numpy as np

    if not values:
        return {f"p{q}": None for q in PERCENTILES}
    arr = np.asarray(values, dtype=np.float64)
    return {f"p{q}": float(np.percentile(arr, q)) for q in PERCENTILES}


def windowed_metrics(engine: sa.Engine, *, window: str = "1h", app_name: str | None = None,
                     app_version: str | None = None, version_given: bool = False, since: float | None = None,
                     until: float | None = None, now: float | None = None) -> dict[str, Any]:
    """``{"window", "window_s", "since", "until", "buckets": [{"start", "end", "n", "latency_ms": {p50, p95,
    p99, n, missing}, ...}]}``, oldest bucket first. Without ``since``: the last 24 windows up to ``until``
    (default now). ``version_given`` with ``app_version=None`` keeps the traces that have no version."""
    width = parse_window(window)
    until = float(time.time() if now is None else now) if until is None else float(until)
    since = until - DEFAULT_BUCKETS * width if since is None else float(since)
    if since >= until:
        raise InputError(f"since ({since}) must be before until ({until})")
    first = int(since // width) * width
    if (until - first) / width > MAX_BUCKETS:
        raise InputError(f"{window} windows from since to until make over {MAX_BUCKETS} buckets; use a wider "
                         "window or a shorter range")
    c = traces.c
    q = sa.select(c.start_time, *(c.duration_ms if t == "latency_ms" else getattr(c, t) for t in TIMINGS)) \
        .where(c.start_time >= since, c.start_time < until)
    if app_name is not None:
        q = q.where(c.app_name == app_name)
    if app_version is not None:
        q = q.where(c.app_version == app_version)
    elif version_given:
        q = q.where(c.app_version.is_(None))
    buckets: dict[int, list[tuple[Any, ...]]] = {}
    with engine.connect() as conn:
        for row in conn.execute(q):
            buckets.setdefault(int(row[0] // width) * width, []).append(tuple(row[1:]))
    out = []
    for start in sorted(buckets):
        rows = buckets[start]
        item: dict[str, Any] = {"start": start, "end": start + width, "n": len(rows)}
        for i, name in enumerate(TIMINGS):
            vals = [float(r[i]) for r in rows if r[i] is not None]
            item[name] = {**_percentiles(vals), "n": len(vals), "missing": len(rows) - len(vals)}
        out.append(item)
    return {"window": window.strip(), "window_s": width, "since": since, "until": until, "buckets": out}
