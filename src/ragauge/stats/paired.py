"""Paired comparison of two runs on the same questions: difference, CI, p-value, effect size, verdict.

Methods (defaults in brackets; formulas in ``docs/statistics.md``):

- **Pairing** by sample id. Different id sets are refused unless ``allow_intersection``; samples unscored
  in either run are dropped and counted (``PairedResult.dropped``).
- **Difference** ``new - base`` of the aggregate: the mean, or for ``pNN`` metrics (latency_p95) the
  percentile (linear interpolation) of each run.
- **CI**: for means, the sign-flip permutation test below inverted (:func:`permutation_ci`: the shifts it
  does not reject), so the CI excludes 0 exactly when that test's p <= 1 - level; for percentile
  aggregates the percentile interval of a paired bootstrap (resample question indices, both runs together)
  [2000 resamples, seeded], from which the p-value comes too. (:func:`paired_bootstrap_ci`, BCa for means,
  remains available.)
- **p-value (primary)** for means: paired sign-flip permutation test of ``|sum(d)|``, two-sided (zeros
  contribute nothing); exact over all ``2^m`` flips when the ``m`` non-zero differences are <= 20, else
  Monte Carlo [10000 flips, seeded] with ``p = (1 + #{>= obs}) / (1 + B)``. Primary because it tests
  exactly the reported quantity (the mean difference) and handles the ties and zeros of 0/1 metrics;
  **Wilcoxon signed-rank** (scipy, ``zero_method="wilcox"``) is reported beside it. For percentiles the
  p-value comes from the same paired bootstrap as the CI (:func:`bootstrap_p_value`), so they agree.
- **Effect size**: the mean difference itself and Cohen's ``d_z = mean(d) / sd(d)``.
- **Minimum detectable effect** at this n: the true difference the paired t-test would detect with power
  0.8 at ``alpha`` from the observed SD of differences (``stats.power.mde_paired``); for percentiles
  ``(z_{1-alpha/2} + z_power) * SE_boot``.
- **Holm** step-down correction across the metrics of one comparison (:func:`holm`).
- **Verdict**: ``better`` / ``worse`` when the Holm-adjusted p <= alpha (direction from the sign of the
  difference and ``higher_is_better``), else ``no detectable difference``; ``too few pairs`` when n < 2.
- :func:`non_inferiority`: one-sided paired t-test of ``H0: improvement <= -margin`` (strict; gate mode
  ``non_inferior_strict``); :func:`ragauge.stats.regression.regression_test` its mirror, ``H0: improvement
  >= -margin`` (gate mode ``non_inferior``, the default comparison with a baseline).

Where it lives: pairing by id in :mod:`.pairing`; the bootstrap, permutation, Wilcoxon and Holm kernels in
:mod:`.paired_tests`; one metric (:func:`compare_paired`, :func:`compare_scores`) here; two results files
(:func:`~.runs.run_scores`, :func:`~.runs.compare_runs`) in :mod:`.runs`; non-inferiority in
:mod:`.non_inferiority`. Every public name stays importable from this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import Any, Mapping, TypedDict

import numpy as np

from ..errors import InputError
from .intervals import Interval
from .non_inferiority import NonInferiorityResult, non_inferiority
from .paired_tests import (
    _agg,
    _bootstrap_differences,
    _rng,
    bootstrap_p_value,
    holm,
    paired_bootstrap_ci,
    permutation_ci,
    permutation_test,
    permutation_test_and_ci,
    wilcoxon_test,
)
from .pairing import Pairing, pair_by_id
from .power import mde_paired


__all__ = [
    "ComparisonResult",
    "NonInferiorityResult",
    "PairedResult",
    "Pairing",
    "compare_paired",
    "compare_runs",
    "compare_scores",
    "holm",
    "non_inferiority",
    "pair_by_id",
    "paired_bootstrap_ci",
    "permutation_ci",
    "bootstrap_p_value",
    "permutation_test",
    "run_scores",
    "wilcoxon_test",
]


class _SharedFields(TypedDict):
    """The fields of a :class:`PairedResult` that do not depend on the tests' outcome."""

    metric: str
    aggregate: str
    higher_is_better: bool
    n: int
    alpha: float
    power: float
    dropped: dict[str, int]


@dataclass(frozen=True, slots=True)
class PairedResult:
    """Comparison of one metric between two runs (``difference = new - base``)."""

    metric: str
    aggregate: str
    higher_is_better: bool
    n: int
    base_value: float | None
    new_value: float | None
    difference: float | None
    ci: Interval | None
    p_value: float | None
    p_method: str
    p_wilcoxon: float | None
    p_adjusted: float | None
    effect_size_dz: float | None
    sd_diff: float | None
    mde: float | None
    alpha: float
    power: float
    verdict: str
    reason: str
    dropped: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric, "aggregate": self.aggregate, "higher_is_better": self.higher_is_better,
            "n": self.n, "dropped": dict(self.dropped), "base": self.base_value, "new": self.new_value,
            "difference": self.difference, "ci": self.ci.to_dict() if self.ci else None,
            "p_value": self.p_value, "p_method": self.p_method, "p_adjusted": self.p_adjusted,
            "p_wilcoxon": self.p_wilcoxon, "effect_size_dz": self.effect_size_dz, "sd_diff": self.sd_diff,
            "mde": self.mde, "alpha": self.alpha, "power": self.power,
            "verdict": self.verdict, "reason": self.reason,
        }


def compare_paired(
    base: np.ndarray,
    new: np.ndarray,
    *,
    metric: str = "metric",
    higher_is_better: bool = True,
    percentile: float | None = None,
    alpha: float = 0.05,
    level: float = 0.95,
    power: float = 0.8,
    n_resamples: int = 2000,
    n_permutations: int = 10_000,
    seed: int | np.random.Generator = 0,
    dropped: Mapping[str, int] | None = None,
    p_adjusted: float | None = None,
) -> PairedResult:
    """Compare paired score vectors (``base[i]`` and ``new[i]`` are the same question).

    ``p_adjusted`` (e.g. from :func:`holm`) decides the verdict when given, else the raw p-value.
    """
    base = np.asarray(base, dtype=np.float64)
    new = np.asarray(new, dtype=np.float64)
    if base.shape != new.shape or base.ndim != 1:
        raise ValueError("base and new must be 1-D arrays of the same length (paired by position)")
    if not (np.isfinite(base).all() and np.isfinite(new).all()):  # NaN would make every test say p = 0
        raise InputError(f"{metric}: a paired score is NaN or infinite",
                         hint="leave an unscored sample out (None in compare_scores) instead of NaN")
    n = int(base.size)
    aggregate = "mean" if percentile is None else f"p{percentile:g}"
    common = _SharedFields(metric=metric, aggregate=aggregate, higher_is_better=higher_is_better, n=n,
                           alpha=alpha, power=power, dropped=dict(dropped or {}))
    if n < 2:
        one_b = float(_agg(base, percentile)) if n else None
        one_n = float(_agg(new, percentile)) if n else None
        one_d = one_n - one_b if one_b is not None and one_n is not None else None
        return PairedResult(base_value=one_b, new_value=one_n, difference=one_d,
                            ci=None, p_value=None, p_method="none", p_wilcoxon=None, p_adjusted=None,
                            effect_size_dz=None, sd_diff=None, mde=None, verdict="too few pairs",
                            reason=f"{metric}: only {n} paired sample(s) scored in both runs; nothing to test",
                            **common)
    rng = _rng(seed)
    bv, nv = float(_agg(base, percentile)), float(_agg(new, percentile))
    diff = nv - bv
    d = new - base
    sd = float(np.std(d, ddof=1))
    dz = float(d.mean() / sd) if sd > 0 else None
    if percentile is None:
        # One test gives both: the p-value of the sign-flip permutation test and, by inverting it, the CI
        # (the shifts it does not reject), so the interval excludes 0 exactly when p <= 1 - level.
        p, p_method, ci = permutation_test_and_ci(base, new, level=level, n_permutations=n_permutations, seed=rng)
        p_w = wilcoxon_test(base, new)
        mde = mde_paired(sd, n, alpha=alpha, power=power)
    else:
        # Percentile aggregates: one paired bootstrap gives the CI, the p-value and the SE (for the MDE).
        boot = _bootstrap_differences(base, new, percentile, n_resamples, rng)
        tail = (1 - level) / 2
        low, high = np.quantile(boot, (tail, 1 - tail))
        ci = Interval(float(low), float(high), level, "bootstrap-percentile", n)
        p, p_method = bootstrap_p_value(boot), f"paired bootstrap of the percentile ({n_resamples} resamples)"
        p_w = None
        se = float(np.std(boot, ddof=1))
        z = NormalDist()
        mde = (z.inv_cdf(1 - alpha / 2) + z.inv_cdf(power)) * se if se > 0 else None
    result = PairedResult(base_value=bv, new_value=nv, difference=diff, ci=ci, p_value=p, p_method=p_method,
                          p_wilcoxon=p_w, p_adjusted=None, effect_size_dz=dz, sd_diff=sd, mde=mde,
                          verdict="", reason="", **common)
    return _decide(result, p_adjusted)


def _decide(r: PairedResult, p_adjusted: float | None) -> PairedResult:
    """Set the verdict (and its sentence) from the raw or, when given, the adjusted p-value.

    Only for a tested comparison (n >= 2): its values, difference and p-value are all set."""
    if r.base_value is None or r.new_value is None or r.difference is None or r.p_value is None:
        raise ValueError(f"{r.metric}: no test was run ({r.verdict or 'no p-value'}), so there is no verdict to set")
    decide = r.p_value if p_adjusted is None else p_adjusted
    if decide <= r.alpha and r.difference:
        verdict = "better" if (r.difference > 0) == r.higher_is_better else "worse"
    else:
        verdict = "no detectable difference"
    reason = _reason(r.metric, r.base_value, r.new_value, r.difference, r.ci, r.p_value, p_adjusted, r.alpha,
                     verdict, r.mde, r.n, r.power, r.higher_is_better)
    return replace(r, p_adjusted=p_adjusted, verdict=verdict, reason=reason)


def _reason(
    metric: str,
    bv: float,
    nv: float,
    diff: float,
    ci: Interval | None,
    p: float,
    p_adj: float | None,
    alpha: float,
    verdict: str,
    mde: float | None,
    n: int,
    power: float,
    hib: bool,
) -> str:
    ci_txt = f", {ci.level:.0%} CI {ci.low:+.4g} to {ci.high:+.4g}" if ci else ""
    p_txt = f"p = {p:.3g}" + (f", Holm-adjusted {p_adj:.3g}" if p_adj is not None else "")
    head = f"{metric}: {bv:.4g} -> {nv:.4g} ({diff:+.4g}{ci_txt}; {p_txt})"
    note = _disagreement(ci, p, p_adj, alpha, verdict)
    if verdict == "better":
        return f"{head}: better ({'higher' if hib else 'lower'} is better), significant at alpha {alpha:g}{note}"
    if verdict == "worse":
        return f"{head}: worse ({'higher' if hib else 'lower'} is better), significant at alpha {alpha:g}{note}"
    mde_txt = (f"at n = {n} only a true difference of about {mde:.3g} or more would be detected with "
               f"power {power:g}" if mde is not None else "the differences have no spread")
    return f"{head}: no detectable difference; {mde_txt}{note}"


def _disagreement(ci: Interval | None, p: float | None, p_adj: float | None, alpha: float, verdict: str) -> str:
    """Why the CI and the verdict point different ways, when they do ('' when they agree).

    The CI comes from the same test as ``p`` (inverted), so they agree by construction; the verdict may
    still differ because it uses the Holm-adjusted p, or because the CI's level is not ``1 - alpha``."""
    if ci is None or p is None:
        return ""
    excludes_zero = ci.low > 0 or ci.high < 0
    if excludes_zero == (verdict in ("better", "worse")):
        return ""
    why = []
    if p_adj is not None and p_adj > p and (p <= alpha < p_adj):
        why.append(f"the verdict uses the Holm-adjusted p ({p_adj:.3g}, corrected for the metrics compared "
                   "together) while the CI is for this metric alone")
    if abs(ci.level - (1 - alpha)) > 1e-9:
        why.append(f"the CI level {ci.level:.0%} is not 1 - alpha = {1 - alpha:.0%}")
    if not why:
        why.append("the interval's ends and the p-value agree only up to their resampling precision")
    return f" (the CI {'excludes' if excludes_zero else 'includes'} 0 although the verdict is {verdict}: " \
           + "; ".join(why) + ")"


def compare_scores(
    base: Mapping[str, float | None],
    new: Mapping[str, float | None],
    *,
    allow_intersection: bool = False,
    **options: Any,
) -> PairedResult:
    """Pair two ``{id: score | None}`` maps (see :func:`pair_by_id`) and :func:`compare_paired` them."""
    pairing = pair_by_id(base, new, allow_intersection=allow_intersection)
    return compare_paired(pairing.base, pairing.new, dropped=pairing.dropped(), **options)


_MOVED_TO_RUNS = frozenset({"ComparisonResult", "RunScores", "compare_runs", "run_scores"})


def __getattr__(name: str) -> Any:
    # Re-exported lazily: .runs imports this module, so an eager import here would be circular.
    if name in _MOVED_TO_RUNS:
        from . import runs

        return getattr(runs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _MOVED_TO_RUNS)
