"""Regression test of two paired runs: is ``new`` *shown* to be worse than ``base`` by more than ``margin``?

The mirror image of :mod:`.non_inferiority`. There the burden of proof is on the new run (it must be
shown to be within the margin, which identical runs cannot do below ~150 pairs at a margin of 0.02);
here it is on the alarm: ``H0: improvement >= -margin`` (no drop beyond the margin), rejected only by a
significant drop. Identical runs never fail it, at any n; a real drop fails it once the sample shows it.
The ``non_inferior`` gate mode (the default comparison with a baseline) decides with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .non_inferiority import _in_unit_range
from .paired_tests import _agg, _bootstrap_differences, _rng

__all__ = ["RegressionResult", "regression_test"]


@dataclass(frozen=True, slots=True)
class RegressionResult:
    """One-sided test that ``new`` is worse than ``base`` by more than ``margin``."""

    margin: float
    alpha: float
    n: int
    improvement: float | None  #: oriented: > 0 means new is better, whatever the metric's direction
    upper_bound: float | None  #: one-sided (1 - alpha) upper confidence bound of the improvement
    p_value: float | None  #: of H0 "improvement >= -margin"; small = a drop beyond the margin is shown
    method: str
    regressed: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"test": "regression", "margin": self.margin, "alpha": self.alpha, "n": self.n,
                "improvement": self.improvement, "upper_bound": self.upper_bound, "p_value": self.p_value,
                "method": self.method, "regressed": self.regressed, "reason": self.reason}


def regression_test(
    base: np.ndarray,
    new: np.ndarray,
    margin: float,
    alpha: float = 0.05,
    *,
    higher_is_better: bool = True,
    percentile: float | None = None,
    n_resamples: int = 2000,
    seed: int | np.random.Generator = 0,
) -> RegressionResult:
    """Is ``new`` significantly worse than ``base`` by more than ``margin`` (paired)?

    ``improvement = s * (agg(new) - agg(base))`` with ``s = +1`` if higher is better, else ``-1``;
    ``H0: improvement >= -margin``, H1: the improvement is below ``-margin`` (a regression).

    - Means: one-sided paired t-test; upper bound ``mean(s*d) + t_{1-alpha,n-1} sd/sqrt(n)``,
      ``p = T_{n-1}((mean(s*d) + margin) / se)``.
    - Every pair differing by the same amount (no spread): for scores in [0, 1] the rule of three (the
      unseen share ``1 - alpha^(1/n)`` of pairs could each be better by up to 1); on other scales the sign
      test (``p = 0.5^n`` when every pair is worse by more than the margin).
    - Percentiles: paired bootstrap; upper bound = the ``1 - alpha`` quantile of the bootstrap improvements,
      ``p`` = their share at or above ``-margin``.

    Regressed when the upper bound is below ``-margin``: the whole one-sided interval is a drop beyond it.

    >>> same = np.array([.8, .7, .9, .6] * 10)
    >>> regression_test(same, same, margin=0.02).regressed      # identical runs: never a regression
    False
    >>> regression_test(same, same - 0.3, margin=0.02).regressed
    True
    """
    if not margin >= 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    base = np.asarray(base, dtype=np.float64)
    new = np.asarray(new, dtype=np.float64)
    n = int(base.size)
    s = 1.0 if higher_is_better else -1.0
    if n < 2:
        return RegressionResult(margin, alpha, n, None, None, None, "none", False,
                                f"only {n} paired sample(s): a regression cannot be shown")
    improvement = s * float(_agg(new, percentile) - _agg(base, percentile)) + 0.0  # no "-0"
    upper: float | None
    if percentile is None:
        d = s * (new - base)
        sd = float(np.std(d, ddof=1))
        if sd == 0:  # every pair moved by the same amount: the t-test is undefined
            upper, p, method = _zero_spread(improvement, n, alpha, margin, _in_unit_range(base, new))
        else:
            from scipy import stats as _st  # lazily: seconds to import, needed only here

            se = sd / math.sqrt(n)
            upper = improvement + float(_st.t.ppf(1 - alpha, n - 1)) * se
            p = float(_st.t.cdf((improvement + margin) / se, n - 1))
            method = "one-sided paired t-test"
    else:
        boot = s * _bootstrap_differences(base, new, percentile, n_resamples, _rng(seed))
        upper = float(np.quantile(boot, 1 - alpha))
        p = float(np.mean(boot >= -margin))
        method = "one-sided paired bootstrap (percentile)"
    regressed = upper is not None and upper < -margin
    bound = (f"one-sided {1 - alpha:.0%} upper bound {upper:+.4g}" if upper is not None
             else "no upper bound")
    verdict = (f"significantly worse by more than the margin {margin:g}" if regressed
               else f"no significant drop beyond the margin {margin:g}")
    reason = f"improvement {improvement:+.4g}, {bound} vs -margin {-margin:+.4g} (p = {p:.3g}): {verdict}"
    return RegressionResult(margin, alpha, n, improvement, upper, p, method, regressed, reason)


def _zero_spread(
    improvement: float, n: int, alpha: float, margin: float, unit: bool
) -> tuple[float | None, float, str]:
    """Upper bound, p-value and method name when all ``n`` paired differences equal ``improvement``."""
    if improvement >= -margin:
        return improvement, 1.0, "zero spread: no pair worse by more than the margin"
    if unit:
        # Seeing no pair differ in n bounds the share of pairs that could by 1 - alpha^(1/n) (rule of three);
        # each of them could be better by up to 1 - improvement (to +1).
        share = 1.0 - alpha ** (1.0 / n)
        upper = improvement + share * (1.0 - improvement)
        needed = (-margin - improvement) / (1.0 - improvement)  # share that would lift the mean to -margin
        return upper, float((1.0 - min(needed, 1.0)) ** n), "zero spread: rule-of-three bound"
    p = 0.5**n  # sign test: every pair worse by more than the margin
    return (improvement if p < alpha else None), p, "zero spread: sign test"
