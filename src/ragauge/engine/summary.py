"""Summarise one metric's per-sample column: aggregate value, CI, counts, unscored reasons.

The CI is the Wilson interval for a mean of 0/1 values and a seeded bootstrap otherwise (BCa for
means, percentile for percentiles); ``ci.method`` records which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..metrics.column import ScoreColumn
from ..metrics.spec import MetricSpec
from ..metrics.summary import MetricSummary
from ..stats.intervals import aggregate, metric_ci


@dataclass(frozen=True, slots=True)
class CIConfig:
    level: float = 0.95
    n_resamples: int = 2000
    seed: int = 0


def summarise(spec: MetricSpec, column: ScoreColumn, ci: CIConfig) -> MetricSummary:
    values = column.scored()
    n = int(values.size)
    if n == 0:
        return MetricSummary(spec, None, None, 0, len(column), column.unscored_counts(), judge=column.provenance)
    pct = spec.percentile
    value = aggregate(values, pct)
    # Wilson for pass rates (all values 0/1), bootstrap otherwise: see stats.intervals.metric_ci
    interval = metric_ci(values, percentile=pct, level=ci.level, n_resamples=ci.n_resamples, seed=ci.seed)
    std = float(np.std(values, ddof=1)) if n > 1 else None
    return MetricSummary(spec, value, interval, n, len(column) - n, column.unscored_counts(), std, column.provenance)


def _tokens(c: dict[str, Any]) -> str:
    cost = "" if c.get("cost_usd") is None else f", ${c['cost_usd']:.4f}"
    return (f"{c.get('calls', 0)} calls ({c.get('cached', 0)} from cache), "
            f"{c.get('prompt_tokens', 0) + c.get('completion_tokens', 0):,} tokens{cost}")


def usage_lines(usage: dict[str, Any] | None) -> list[str]:
    """The terminal summary of a paying judge's spend (results.json ``usage``): the run, then each metric
    and each shared bucket. Empty for the offline judge.

    >>> u = {"judge": "llm", "model": "m", "total": {"calls": 3, "cached": 0, "prompt_tokens": 90,
    ...      "completion_tokens": 10, "cost_usd": None}, "by_metric": {}, "shared": {}}
    >>> usage_lines(u)
    ['LLM judge m: 3 calls (0 from cache), 100 tokens']
    >>> usage_lines({"spend": {"calls": 3}, "requests": 3})  # no totals (an older Ray run's usage): no line
    []
    """
    if not usage or not isinstance(usage.get("total"), dict):  # no judge, or a usage without totals: nothing to say
        return []
    lines = [f"LLM judge {usage.get('model', '')}: {_tokens(usage['total'])}"]
    esc = usage.get("escalation")
    if esc:
        lines[0] += (f"; cascade: {esc['escalated']}/{esc['claims']} claim verdicts escalated to the LLM"
                     f" (band p in [{esc['band'][0]}, {esc['band'][1]}])")
    for name, c in usage.get("by_metric", {}).items():
        lines.append(f"  {name:<28} {_tokens(c)}")
    for name, c in usage.get("shared", {}).items():
        lines.append(f"  shared: {name:<20} {_tokens(c)}")
    return lines
