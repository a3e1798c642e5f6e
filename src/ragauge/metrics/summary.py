"""``MetricSummary``: one metric's aggregate over a run (value, CI, counts, unscored reasons).

A plain record, here so that gates, reports and the engine share it without the gates importing the
engine (``engine/summary.py`` computes it: :func:`ragauge.engine.summary.summarise`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..stats.intervals import Interval
from .spec import MetricSpec


@dataclass(frozen=True, slots=True)
class MetricSummary:
    spec: MetricSpec
    value: float | None
    ci: Interval | None
    n: int
    n_unscored: int
    unscored_reasons: dict[str, int] = field(default_factory=dict)
    std: float | None = None
    judge: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "aggregate": self.spec.aggregate,
            "value": self.value,
            "ci": self.ci.to_dict() if self.ci else None,
            "n": self.n,
            "n_unscored": self.n_unscored,
            "unscored_reasons": dict(self.unscored_reasons),
            "std": self.std,
            "judge": self.judge,
        }
