"""Metric identity as data: a spec parses from a string such as ``ndcg@10`` and prints back the same.

Reports store specs (``MetricSpec.to_dict``), so a results file says exactly what was measured.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """What a metric is, independent of how it is computed.

    - ``name``: the canonical string (``ndcg@10``, ``latency_p95``); ``str(spec) == spec.name``.
    - ``base``: the family member without parameters (``ndcg``); ``params`` holds the rest (``{"k": 10}``).
    - ``aggregate``: how per-sample values become one number: ``"mean"`` or a percentile ``"p95"``.
    - ``requires``: sample fields that must be present for a sample to be scored.
    - ``judge``: ``None`` for pure formulas; otherwise what kind of judge the metric needs.
    """

    name: str
    base: str
    family: str
    description: str
    params: Mapping[str, Any] = field(default_factory=dict)
    higher_is_better: bool = True
    range: tuple[float | None, float | None] = (0.0, 1.0)
    requires: tuple[str, ...] = ()
    aggregate: str = "mean"
    unit: str | None = None
    judge: str | None = None

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "base": self.base,
            "family": self.family,
            "params": dict(self.params),
            "higher_is_better": self.higher_is_better,
            "range": list(self.range),
            "requires": list(self.requires),
            "aggregate": self.aggregate,
            "unit": self.unit,
            "judge": self.judge,
            "description": self.description,
        }

    @property
    def percentile(self) -> float | None:
        """The percentile of a ``pNN`` aggregate, else ``None``."""
        if self.aggregate.startswith("p"):
            return float(self.aggregate[1:])
        return None
