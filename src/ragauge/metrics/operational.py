"""Operational metrics: percentiles of the timings each sample carries (milliseconds).

``latency_p95`` is the 95th percentile of ``latency_ms`` over the samples that have it, by linear
interpolation between order statistics (numpy's default, Hyndman-Fan type 7). A sample without the
timing is unscored ("latency_ms not measured"), never counted as 0 ms.
"""

from __future__ import annotations

from typing import Sequence

from ..data.schema import Sample
from .column import ScoreColumn
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "operational"

#: metric base -> the sample field it summarises
FIELDS = {"latency": "latency_ms", "retrieval": "retrieval_ms", "ttft": "ttft_ms"}

DEFINITIONS = [
    MetricDef("latency", FAMILY, "P{p} of the end-to-end latency (latency_ms) in milliseconds.",
              param="percentile", higher_is_better=False, range=(0.0, None), requires=("latency_ms",), unit="ms"),
    MetricDef("retrieval", FAMILY, "P{p} of the retrieval time (retrieval_ms) in milliseconds.",
              param="percentile", aliases=("retrieval_latency",), higher_is_better=False, range=(0.0, None),
              requires=("retrieval_ms",), unit="ms"),
    MetricDef("ttft", FAMILY, "P{p} of the time to first token (ttft_ms) in milliseconds.",
              param="percentile", higher_is_better=False, range=(0.0, None), requires=("ttft_ms",), unit="ms"),
]


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> dict[str, ScoreColumn]:
    out: dict[str, ScoreColumn] = {}
    for spec in specs:
        field = FIELDS[spec.base]
        values = [getattr(s, field) for s in samples]
        reasons = [None if v is not None else f"{field} not measured" for v in values]
        out[spec.name] = ScoreColumn([None if v is None else float(v) for v in values], reasons)
    return out
