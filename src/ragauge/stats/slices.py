"""Hidden breakage: is a slice of the data significantly worse than the rest?

For one metric and one slice (the samples carrying a tag), compare the slice's scored values with the
scored values of every other sample (the complement), one-sided in the bad direction (lower when higher
is better):

- **Permutation test** of the difference in means (the slice's sum is the statistic; with the pooled
  values fixed it orders the same as ``mean(slice) - mean(rest)``): ``B`` seeded random relabellings that
  keep the group sizes, ``p = (1 + #{S* <= S}) / (1 + B)`` (never 0; Phipson & Smyth 2010). No normality,
  correct for the ties of 0/1 metrics.
- For large data (``n * B`` above :data:`PERMUTATION_CELLS`) **Welch's one-sided t-test**, whose
  normal approximation is then accurate and whose cost does not grow with ``B``.

A slice with fewer than ``min_n`` scored samples (or a complement that small) is ``too small``: not
tested, never alarmed on. The p-values of every tested (slice, metric) pair are adjusted together by
Holm's method; an ``alarm`` is a Holm-adjusted p <= alpha. Every test uses the same seed, so a pair's
p-value does not depend on which others are tested.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InputError

from .paired_tests import holm

#: Largest ``n * B`` for which the permutation test runs; beyond it, Welch's t-test.
PERMUTATION_CELLS = 20_000_000
_BLOCK_CELLS = 4_000_000


@dataclass(frozen=True, slots=True)
class SliceCheck:
    """The test of one slice against the rest, for one metric."""

    metric: str
    slice: str
    status: str  #: "alarm" | "ok" | "too small"
    n: int  #: scored samples in the slice
    n_rest: int
    value: float | None  #: mean of the slice
    rest_value: float | None
    difference: float | None  #: value - rest_value
    p_value: float | None
    p_adjusted: float | None
    method: str

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "slice": self.slice, "status": self.status, "n": self.n,
                "n_rest": self.n_rest, "value": self.value, "rest_value": self.rest_value,
                "difference": self.difference, "p_value": self.p_value, "p_adjusted": self.p_adjusted,
                "method": self.method}


def slice_below_test(
    inside: np.ndarray,
    outside: np.ndarray,
    *,
    higher_is_better: bool = True,
    n_permutations: int = 10_000,
    seed: int | np.random.Generator = 0,
) -> tuple[float, str]:
    """One-sided p-value that ``inside`` is worse than ``outside`` (lower mean when higher is better).

    >>> p, _ = slice_below_test(np.zeros(6), np.ones(30))
    >>> p < 0.001
    True
    """
    a = np.asarray(inside, dtype=np.float64)
    b = np.asarray(outside, dtype=np.float64)
    if not higher_is_better:  # "worse" is then "higher": flip so that worse is always lower
        a, b = -a, -b
    k, n = a.size, a.size + b.size
    if k < 2 or b.size < 2:
        raise ValueError("each group needs at least 2 values")
    if n * n_permutations > PERMUTATION_CELLS:
        from scipy import stats as _st

        if np.var(a) == 0 and np.var(b) == 0:
            return (0.0 if a.mean() < b.mean() else 1.0), "Welch t-test, one-sided (no spread)"
        return float(_st.ttest_ind(a, b, equal_var=False, alternative="less").pvalue), "Welch t-test, one-sided"
    pooled = np.concatenate([a, b])
    obs = float(a.sum())
    tol = 1e-9 * float(np.abs(pooled).sum() or 1.0)  # sums equal up to rounding count as "as extreme"
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    count = 0
    block = max(1, _BLOCK_CELLS // n)
    for start in range(0, n_permutations, block):
        size = min(n_permutations, start + block) - start
        # k labels drawn without replacement per relabelling: the k smallest of n uniform keys
        idx = np.argpartition(rng.random((size, n)), k - 1, axis=1)[:, :k]
        count += int(np.count_nonzero(pooled[idx].sum(axis=1) <= obs + tol))
    return (1 + count) / (1 + n_permutations), f"permutation, one-sided ({n_permutations} relabellings)"


def check_slices(
    columns: Mapping[str, Sequence[float | None]],
    higher_is_better: Mapping[str, bool],
    tags: Mapping[str, Sequence[int]],
    *,
    min_n: int = 5,
    alpha: float = 0.05,
    n_permutations: int = 10_000,
    seed: int = 0,
) -> list[SliceCheck]:
    """Test every slice of ``tags`` (tag -> sample positions) against the rest for every metric of
    ``columns`` (metric -> per-sample values, ``None`` unscored), Holm-corrected across all tests."""
    if min_n < 2:
        raise ValueError(f"min_n must be at least 2, got {min_n}")
    raw: list[SliceCheck] = []
    for metric, values in columns.items():
        hib = higher_is_better.get(metric, True)
        scored = np.array([v is not None for v in values])
        vals = np.array([0.0 if v is None else v for v in values], dtype=np.float64)
        if not np.isfinite(vals).all():  # NaN would make the slice test's every comparison false
            raise InputError(f"{metric}: a per-sample value is NaN or infinite",
                             hint="mark an unscored sample as None instead of NaN")
        for tag, idx in tags.items():
            mask = np.zeros(len(values), dtype=bool)
            mask[list(idx)] = True
            a, b = vals[mask & scored], vals[~mask & scored]
            mean_a = float(a.mean()) if a.size else None
            mean_b = float(b.mean()) if b.size else None
            diff = None if mean_a is None or mean_b is None else mean_a - mean_b
            if a.size < min_n or b.size < min_n:
                raw.append(SliceCheck(metric, tag, "too small", int(a.size), int(b.size), mean_a, mean_b, diff,
                                      None, None, "not tested"))
                continue
            p, method = slice_below_test(a, b, higher_is_better=hib, n_permutations=n_permutations, seed=seed)
            raw.append(SliceCheck(metric, tag, "ok", int(a.size), int(b.size), mean_a, mean_b, diff, p, None, method))
    adjusted = holm([c.p_value for c in raw])
    out = []
    for c, adj in zip(raw, adjusted):
        if c.p_value is None:
            out.append(c)
            continue
        status = "alarm" if adj is not None and adj <= alpha else "ok"
        out.append(SliceCheck(c.metric, c.slice, status, c.n, c.n_rest, c.value, c.rest_value, c.difference,
                              c.p_value, adj, c.method))
    return out
