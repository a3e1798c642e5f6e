"""The request list's filters as query parameters, both ways: what a link or the filter form sends
(``app``, ``version``, ``low``, ``no_answer``, ``clarify``, ``slow``, ``negative``, and a score bound
``metric`` + ``below``/``above``) -> :class:`~.queries.RequestFilter`, and back for paging and export links.

The alert links of the collector (``app_name``, ``app_version``, ``metric``, ``below``/``above``) open the
same list.

    >>> from starlette.datastructures import QueryParams
    >>> f = parse_filter(QueryParams("app_name=bot&metric=faithfulness&below=0.85&filter=low_score"))
    >>> (f.app, f.score_metric, f.score_below), filter_fields(f)
    (('bot', 'faithfulness', 0.85), [('app', 'bot'), ('metric', 'faithfulness'), ('below', '0.85')])
"""

from __future__ import annotations

import math
from typing import Any

from .page import BadInput
from .queries import RequestFilter

_FLAGS = (("low", "low_faithfulness"), ("no_answer", "no_answer"), ("clarify", "clarifying"), ("slow", "slow"),
          ("negative", "negative"))


def _number(params: Any, name: str) -> float | None:
    raw = params.get(name)
    if raw in (None, ""):
        return None
    try:
        value = float(raw)
    except ValueError:
        raise BadInput(f"{name} must be a number, got {raw[:40]!r}") from None
    if not math.isfinite(value):
        raise BadInput(f"{name} must be a finite number, got {raw[:40]!r}")
    return value


def parse_filter(params: Any) -> RequestFilter:
    """A :class:`RequestFilter` from query parameters (``version=*`` or none: every version; ``version=``:
    traces without one)."""
    version = params.get("version", params.get("app_version"))
    metric = params.get("metric") or None
    below, above = _number(params, "below"), _number(params, "above")
    if metric is not None:
        from ...errors import UnknownMetricError
        from ...metrics.registry import parse_metric

        try:
            parse_metric(metric)
        except UnknownMetricError as exc:
            raise BadInput(str(exc)) from None
    elif below is not None or above is not None:
        raise BadInput("below/above need metric=NAME (e.g. metric=faithfulness&below=0.85)")
    flags = {field: params.get(name) in ("1", "on", "true") for name, field in _FLAGS}
    return RequestFilter(app=params.get("app") or params.get("app_name") or None,
                         version=None if version in (None, "*") else version,
                         score_metric=metric, score_below=below, score_above=above, **flags)


def filter_fields(f: RequestFilter) -> list[tuple[str, str]]:
    """The query parameters that select ``f`` again."""
    out: list[tuple[str, str]] = []
    if f.app is not None:
        out.append(("app", f.app))
    if f.version is not None:
        out.append(("version", f.version))
    for name, field in _FLAGS:
        if getattr(f, field):
            out.append((name, "1"))
    if f.score_metric is not None:
        out.append(("metric", f.score_metric))
        for name, value in (("below", f.score_below), ("above", f.score_above)):
            if value is not None:
                out.append((name, f"{value:g}"))
    return out
