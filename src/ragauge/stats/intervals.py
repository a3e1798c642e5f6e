"""Confidence intervals for a metric's aggregate, deterministic for a given seed.

Percentile bootstrap (Efron & Tibshirani 1993, ch. 13): resample the scored values with replacement
``n_resamples`` times, compute the statistic (mean or a percentile) on each, and take the
``(1-level)/2`` and ``(1+level)/2`` quantiles of those statistics. Same values + same seed => same interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Resampled values computed per block, to bound memory on large data sets.
_BLOCK_CELLS = 4_000_000


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float
    level: float
    method: str
    n: int

    def to_dict(self) -> dict:
        return {"low": self.low, "high": self.high, "level": self.level, "method": self.method}


def aggregate(values: np.ndarray, percentile: float | None = None) -> float:
    """Mean, or the given percentile (linear interpolation, numpy's default), of non-empty ``values``."""
    if values.size == 0:
        raise ValueError("no values to aggregate")
    if percentile is None:
        return float(values.mean())
    return float(np.percentile(values, percentile))


def bootstrap_ci(
    values: np.ndarray,
    *,
    percentile: float | None = None,
    level: float = 0.95,
    n_resamples: int = 2000,
    seed: int = 0,
) -> Interval | None:
    """Percentile-bootstrap interval of the mean (or of ``percentile``) of ``values``.

    Returns ``None`` when fewer than 2 values exist (no interval can be estimated).

    >>> iv = bootstrap_ci(np.array([0.0, 1.0, 1.0, 1.0]), seed=0)
    >>> 0.0 <= iv.low <= 0.75 <= iv.high <= 1.0
    True
    """
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    if n < 2:
        return None
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    rng = np.random.default_rng(seed)
    stats = np.empty(n_resamples, dtype=np.float64)
    block = max(1, min(n_resamples, _BLOCK_CELLS // n))
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        idx = rng.integers(0, n, size=(stop - start, n))
        draws = values[idx]
        if percentile is None:
            stats[start:stop] = draws.mean(axis=1)
        else:
            stats[start:stop] = np.percentile(draws, percentile, axis=1)
    alpha = (1 - level) / 2
    low, high = np.quantile(stats, [alpha, 1 - alpha])
    return Interval(float(low), float(high), level, "bootstrap-percentile", n)
