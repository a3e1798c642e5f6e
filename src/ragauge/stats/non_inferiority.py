"""Non-inferiority of two paired runs: is ``new`` at most ``margin`` worse than ``base``?

One-sided paired test of ``H0: improvement <= -margin`` (a t-test for means, the paired bootstrap for
percentiles). The ``non_inferior`` gate (:mod:`ragauge.gates.noninferior`) decides with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .paired_tests import _agg, _bootstrap_differences, _rng

__all__ = ["NonInferiorityResult", "identical_runs_min_n", "non_inferiority"]


@dataclass(frozen=True, slots=True)
class NonInferiorityResult:
    """One-sided test that ``new`` is not worse than ``base`` by more than ``margin``."""

    margin: float
    alpha: float
    n: int
    improvement: float | None  #: oriented: > 0 means new is better, whatever the metric's direction
    lower_bound: float | None  #: one-sided (1 - alpha) lower confidence bound of the improvement
    p_value: float | None
    method: str
    non_inferior: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"margin": self.margin, "alpha": self.alpha, "n": self.n, "improvement": self.improvement,
                "lower_bound": self.lower_bound, "p_value": self.p_value, "method": self.method,
                "non_inferior": self.non_inferior, "reason": self.reason}


def non_inferiority(
    base: np.ndarray,
    new: np.ndarray,
    margin: float,
    alpha: float = 0.05,
    *,
    higher_is_better: bool = True,
    percentile: float | None = None,
    n_resamples: int = 2000,
    seed: int | np.random.Generator = 0,
) -> NonInferiorityResult:
    """Is ``new`` at most ``margin`` worse than ``base`` (paired)? ``H0: improvement <= -margin``.

    ``improvement = s * (agg(new) - agg(base))`` with ``s = +1`` if higher is better, else ``-1``.
    Means: one-sided paired t-test on ``s*d + margin``; lower bound ``mean(s*d) - t_{1-alpha,n-1} sd/sqrt(n)``.
    Percentiles: paired bootstrap; lower bound = the ``alpha`` quantile of the bootstrap improvements,
    ``p`` = their share at or below ``-margin``. Non-inferior when the lower bound is above ``-margin``.

    >>> r = non_inferiority(np.array([.8, .7, .9, .6]), np.array([.79, .71, .88, .6]), margin=0.05)
    >>> r.non_inferior
    True
    """
    if not margin >= 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    base = np.asarray(base, dtype=np.float64)
    new = np.asarray(new, dtype=np.float64)
    n = int(base.size)
    s = 1.0 if higher_is_better else -1.0
    if n < 2:
        return NonInferiorityResult(margin, alpha, n, None, None, None, "none", False,
                                    f"only {n} paired sample(s): non-inferiority cannot be shown")
    improvement = s * float(_agg(new, percentile) - _agg(base, percentile)) + 0.0  # no "-0"
    if percentile is None:
        d = s * (new - base)
        sd = float(np.std(d, ddof=1))
        if sd == 0:  # every pair differs by the same amount: the t-test would claim certainty
            lower, p = _zero_spread_bound(improvement, n, alpha, margin, _in_unit_range(base, new))
            method = "zero spread: rule-of-three bound"
        else:
            from scipy import stats as _st  # lazily: seconds to import, needed only here

            se = sd / math.sqrt(n)
            lower = improvement - float(_st.t.ppf(1 - alpha, n - 1)) * se
            p = float(_st.t.sf((improvement + margin) / se, n - 1))
            method = "one-sided paired t-test"
    else:
        boot = s * _bootstrap_differences(base, new, percentile, n_resamples, _rng(seed))
        lower = float(np.quantile(boot, alpha))
        p = float(np.mean(boot <= -margin))
        method = "one-sided paired bootstrap (percentile)"
    ok = lower is not None and lower > -margin
    word = "not worse" if ok else "not shown to be within the margin"
    bound = (f"one-sided {1 - alpha:.0%} lower bound {lower:+.4g}" if lower is not None
             else "no lower bound (every pair differs by the same amount, on a scale without limits)")
    reason = (f"improvement {improvement:+.4g}, {bound} vs "
              f"-margin {-margin:+.4g} (p = {p:.3g}): new is {word}"
              + (f" than base by more than {margin:g}" if ok else f" of base (margin {margin:g})"))
    return NonInferiorityResult(margin, alpha, n, improvement, lower, p, method, ok, reason)


def identical_runs_min_n(margin: float, alpha: float = 0.05) -> int | None:
    """The fewest pairs on which two identical runs (scores in [0, 1]) are shown non-inferior: the
    rule-of-three share ``1 - alpha^(1/n)`` must be below ``margin``, i.e. ``n > ln(alpha) / ln(1 - margin)``.
    ``None`` when no n suffices (margin 0).

    >>> identical_runs_min_n(0.02), identical_runs_min_n(0.05), identical_runs_min_n(0.1)
    (149, 59, 29)
    """
    if margin <= 0:
        return None
    if margin >= 1:
        return 2
    return max(2, math.floor(math.log(alpha) / math.log1p(-margin)) + 1)


def _in_unit_range(*arrays: np.ndarray) -> bool:
    return all(bool(np.all((a >= 0.0) & (a <= 1.0))) for a in arrays)


def _zero_spread_bound(improvement: float, n: int, alpha: float, margin: float, unit: bool) -> tuple[float | None, float]:
    """Lower bound and p-value when all ``n`` paired differences equal ``improvement``.

    Seeing no pair differ in ``n`` only bounds the share of pairs that could: below ``1 - alpha**(1/n)``
    (the rule of three, about 3/n). For scores in [0, 1] such a pair can be worse by 1 at most, so
    ``lower = improvement - share * (1 + improvement)``; ``p`` is the chance of seeing no differing pair if
    just enough of them (share ``(improvement + margin) / (1 + improvement)``) made the change ``-margin``.
    Any other scale has no such bound (None, ``p = 1``): 2 identical latencies prove nothing.
    """
    if not unit:
        return None, 1.0
    share = 1.0 - alpha ** (1.0 / n)
    lower = improvement - share * (1.0 + improvement)
    needed = (improvement + margin) / (1.0 + improvement) if improvement > -1.0 else 0.0
    p = 1.0 if needed <= 0 else float((1.0 - min(needed, 1.0)) ** n)
    return lower, p
