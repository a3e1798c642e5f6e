"""Per-sample results of one metric: a value or an explicit "unscored: reason" for every sample."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np


@dataclass(slots=True)
class ScoreColumn:
    """Values of one metric over a data set, aligned with the samples.

    ``values[i]`` is a finite float, or ``None`` with ``reasons[i]`` saying why it could not be scored.
    ``artifacts[i]`` carries per-sample details (claims, evidence) for judge metrics.
    """

    values: list[float | None]
    reasons: list[str | None]
    artifacts: list[dict[str, Any] | None] = field(default_factory=list)
    #: which judge produced the values (``Provenance.to_dict()``); ``None`` for pure formulas
    provenance: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if len(self.values) != len(self.reasons):
            raise ValueError("values and reasons must be aligned")
        for i, (v, r) in enumerate(zip(self.values, self.reasons)):
            if v is None and not r:
                raise ValueError(f"sample {i}: unscored without a reason")
            if v is not None and not math.isfinite(v):
                raise ValueError(f"sample {i}: non-finite score {v!r}; mark it unscored with a reason instead")
        if not self.artifacts:
            self.artifacts = [None] * len(self.values)

    @classmethod
    def from_arrays(cls, values: np.ndarray, unscored: Sequence[str | None]) -> "ScoreColumn":
        """Build from a float array and a parallel list of reasons (a reason wins over the value)."""
        vals: list[float | None] = []
        reasons: list[str | None] = []
        for v, r in zip(values.tolist(), unscored):
            if r is None:
                vals.append(float(v))
                reasons.append(None)
            else:
                vals.append(None)
                reasons.append(r)
        return cls(vals, reasons)

    def __len__(self) -> int:
        return len(self.values)

    def scored(self) -> np.ndarray:
        """The scored values as a float array (unscored samples left out)."""
        return np.fromiter((v for v in self.values if v is not None), dtype=np.float64)

    def unscored_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for r in self.reasons:
            if r is not None:
                counts[r] = counts.get(r, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def take(self, indices: Iterable[int]) -> "ScoreColumn":
        idx = list(indices)
        return ScoreColumn(
            [self.values[i] for i in idx], [self.reasons[i] for i in idx], [self.artifacts[i] for i in idx],
            self.provenance,
        )
