"""Judge calibration against human ratings: correlations, kappa, Krippendorff's alpha, threshold, PPI.

- :func:`correlations`: Spearman, Pearson and Kendall (tau-b) of judge vs human, each with a paired
  percentile-bootstrap CI (resample items, recompute; degenerate resamples with no spread are skipped).
- :func:`cohen_kappa`: ``kappa = (p_o - p_e) / (1 - p_e)``; weighted: ``1 - sum(w O) / sum(w E)`` with
  ``w_ij = |i-j|/(k-1)`` (linear) or ``((i-j)/(k-1))^2`` (quadratic), ``O`` the observed and ``E`` the
  chance (outer product of marginals) proportions.
- :func:`krippendorff_alpha`: ``alpha = 1 - D_o / D_e`` from the coincidence matrix (Krippendorff 2011,
  "Computing Krippendorff's alpha-reliability"), nominal, ordinal or interval distance; missing ratings
  allowed; units with fewer than 2 ratings are not pairable and are ignored.
- :func:`best_threshold`: the cut on the judge score that best reproduces binary human labels, by
  balanced accuracy ``(TPR + TNR) / 2`` (equivalently Youden's ``J = TPR + TNR - 1 = 2 BA - 1``).
- :func:`ppi_mean`: prediction-powered inference for a mean (Angelopoulos et al., Science 2023):
  ``theta = mean(f(X_u)) - mean(f(X_l) - Y_l)``, ``Var = var(f(X_u))/N + var(f(X_l) - Y_l)/n``,
  normal CI.
- :func:`calibration_verdict`: the seed rule (Spearman > 0.7) and the raters' own agreement (ceiling).
- :func:`stratified_sample`: which judged answers to give human raters: equal shares from equal-width
  bins of the judge score, so the low scores (rare, and the ones that matter) are rated too.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ._lazy import scipy_stats as _scipy_stats
from .intervals import Interval

__all__ = [
    "CorrelationResult",
    "KappaResult",
    "PPIResult",
    "ThresholdResult",
    "best_threshold",
    "calibration_verdict",
    "cohen_kappa",
    "correlations",
    "krippendorff_alpha",
    "ppi_mean",
    "rater_ceiling",
    "stratified_sample",
]

SEED_RULE = 0.7  #: the seeds' rule: a judge is usable when its correlation with humans exceeds 0.7


def _rng(seed: int | np.random.Generator) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


# --- correlations ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CorrelationResult:
    method: str
    estimate: float | None
    ci: Interval | None
    p_value: float | None
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "estimate": self.estimate, "ci": self.ci.to_dict() if self.ci else None,
                "p_value": self.p_value, "n": self.n}


def _rowwise_pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    den = np.sqrt((xc * xc).sum(axis=-1) * (yc * yc).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (xc * yc).sum(axis=-1) / np.where(den > 0, den, 1.0), np.nan)


def _rowwise_kendall_b(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall's tau-b per row: ``(C - D) / sqrt((n0 - n1)(n0 - n2))`` over pairs i < j."""
    n = x.shape[-1]
    iu, ju = np.triu_indices(n, 1)
    out = np.empty(x.shape[0])
    step = max(1, 2_000_000 // max(1, iu.size))
    for s in range(0, x.shape[0], step):
        sx = np.sign(x[s:s + step, iu] - x[s:s + step, ju])
        sy = np.sign(y[s:s + step, iu] - y[s:s + step, ju])
        num = (sx * sy).sum(axis=1)
        den = np.sqrt(np.count_nonzero(sx, axis=1).astype(float) * np.count_nonzero(sy, axis=1))
        with np.errstate(invalid="ignore", divide="ignore"):
            out[s:s + step] = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return out


def _spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return _rowwise_pearson(_scipy_stats().rankdata(x, axis=-1), _scipy_stats().rankdata(y, axis=-1))


_CORR = {"spearman": _spearman_rows, "pearson": _rowwise_pearson, "kendall": _rowwise_kendall_b}


def correlations(
    judge: np.ndarray,
    human: np.ndarray,
    *,
    methods: Sequence[str] = ("spearman", "pearson", "kendall"),
    level: float = 0.95,
    n_resamples: int = 2000,
    seed: int | np.random.Generator = 0,
) -> dict[str, CorrelationResult]:
    """Judge-vs-human correlations with percentile-bootstrap CIs (items resampled in pairs).

    Point estimates and p-values equal scipy's ``spearmanr``, ``pearsonr`` and ``kendalltau`` (tau-b).
    An estimate is ``None`` when either side has no spread.
    """
    x = np.asarray(judge, dtype=np.float64)
    y = np.asarray(human, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("judge and human must be 1-D arrays of the same length")
    n = x.size
    rng = _rng(seed)
    idx = rng.integers(0, n, size=(n_resamples, n)) if n >= 3 else None
    out = {}
    scipy_fn = {"spearman": _scipy_stats().spearmanr, "pearson": _scipy_stats().pearsonr, "kendall": _scipy_stats().kendalltau}
    for m in methods:
        if m not in _CORR:
            raise ValueError(f"unknown correlation {m!r}; use spearman, pearson or kendall")
        if n < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
            out[m] = CorrelationResult(m, None, None, None, n)
            continue
        res = scipy_fn[m](x, y)
        boot = _CORR[m](x[idx], y[idx])
        boot = boot[np.isfinite(boot)]
        ci = None
        if boot.size >= 0.9 * n_resamples:  # too many degenerate resamples: no trustworthy interval
            tail = (1 - level) / 2
            lo, hi = np.quantile(boot, (tail, 1 - tail))
            ci = Interval(float(lo), float(hi), level, "bootstrap-percentile", n)
        out[m] = CorrelationResult(m, float(res.statistic), ci, float(res.pvalue), n)
    return out


# --- kappa -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KappaResult:
    kappa: float | None
    weights: str
    observed_agreement: float
    expected_agreement: float
    n: int
    categories: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"kappa": self.kappa, "weights": self.weights, "observed_agreement": self.observed_agreement,
                "expected_agreement": self.expected_agreement, "n": self.n, "categories": list(self.categories)}


def cohen_kappa(
    a: Sequence[float], b: Sequence[float], *, weights: str | None = None, categories: Sequence[float] | None = None
) -> KappaResult:
    """Cohen's kappa of two raters over the same items; ``weights`` ``None``, ``"linear"`` or ``"quadratic"``.

    ``categories`` fixes the ordered scale (default: the sorted values seen); weights use category
    positions, so the scale should be evenly spaced. ``kappa`` is ``None`` when chance agreement is 1.

    >>> round(cohen_kappa([1, 1, 0, 0], [1, 0, 0, 0]).kappa, 4)   # p_o = .75, p_e = .5
    0.5
    """
    a_arr = np.asarray(a, dtype=np.float64)
    b_arr = np.asarray(b, dtype=np.float64)
    if a_arr.shape != b_arr.shape or a_arr.ndim != 1 or a_arr.size == 0:
        raise ValueError("kappa needs two equally long, non-empty 1-D rating vectors")
    cats = np.asarray(sorted(set(a_arr) | set(b_arr)) if categories is None else list(categories), dtype=float)
    k = cats.size
    pos = {float(c): i for i, c in enumerate(cats)}
    try:
        ia = np.array([pos[float(v)] for v in a_arr])
        ib = np.array([pos[float(v)] for v in b_arr])
    except KeyError as exc:
        raise ValueError(f"rating {exc.args[0]} is not one of the categories {list(cats)}") from None
    obs = np.zeros((k, k))
    np.add.at(obs, (ia, ib), 1.0)
    obs /= obs.sum()
    exp = np.outer(obs.sum(axis=1), obs.sum(axis=0))
    grid = np.subtract.outer(np.arange(k), np.arange(k)) / max(1, k - 1)
    if weights is None:
        w = (grid != 0).astype(float)
    elif weights == "linear":
        w = np.abs(grid)
    elif weights == "quadratic":
        w = grid**2
    else:
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    d_obs, d_exp = float((w * obs).sum()), float((w * exp).sum())
    kappa = 1 - d_obs / d_exp if d_exp > 0 else None
    # For unweighted kappa these are p_o and p_e; weighted, they are 1 - the weighted disagreements.
    return KappaResult(kappa, weights or "none", 1 - d_obs, 1 - d_exp, int(a_arr.size),
                       tuple(float(c) for c in cats))


# --- Krippendorff's alpha --------------------------------------------------------------------------


def krippendorff_alpha(ratings: Any, *, level: str = "ordinal") -> float | None:
    """Krippendorff's alpha of a raters x units matrix (NaN or None = missing rating).

    Coincidence matrix ``o_ck = sum_u sum_{i != j in u} [v_i = c][v_j = k] / (m_u - 1)`` over units with
    ``m_u >= 2`` ratings; ``n_c = sum_k o_ck``, ``n = sum_c n_c``;
    ``alpha = 1 - (n - 1) * sum o_ck delta2_ck / sum n_c n_k delta2_ck``.
    ``delta2``: nominal ``[c != k]``; interval ``(c - k)^2``; ordinal
    ``(sum_{g between c and k} n_g - (n_c + n_k) / 2)^2``. ``None`` when there is no variation at all.

    >>> krippendorff_alpha([[1, 1, 2], [1, 2, 2]], level="interval")   # 1 - 5 * 2 / 18
    0.4444444444444444
    """
    m = np.asarray([[np.nan if v is None else v for v in row] for row in ratings], dtype=np.float64)
    if m.ndim != 2:
        raise ValueError("ratings must be a raters x units matrix")
    values = np.unique(m[np.isfinite(m)])
    k = values.size
    if k == 0:
        return None
    index = {float(v): i for i, v in enumerate(values)}
    o = np.zeros((k, k))
    for unit in m.T:
        vals = unit[np.isfinite(unit)]
        mu = vals.size
        if mu < 2:
            continue
        counts = np.zeros(k)
        for v in vals:
            counts[index[float(v)]] += 1
        # ordered pairs of different raters: counts_c * counts_k, minus self-pairs on the diagonal
        o += (np.outer(counts, counts) - np.diag(counts)) / (mu - 1)
    n_c = o.sum(axis=1)
    n = n_c.sum()
    if n <= 1:
        return None
    if level == "nominal":
        delta2 = 1.0 - np.eye(k)
    elif level == "interval":
        delta2 = np.subtract.outer(values, values) ** 2
    elif level == "ordinal":
        cum = np.concatenate([[0.0], np.cumsum(n_c)])
        lo = np.minimum.outer(np.arange(k), np.arange(k))
        hi = np.maximum.outer(np.arange(k), np.arange(k))
        between = cum[hi + 1] - cum[lo]  # sum of n_g for g from min(c,k) to max(c,k)
        delta2 = (between - (n_c[:, None] + n_c[None, :]) / 2) ** 2
    else:
        raise ValueError(f"level must be 'nominal', 'ordinal' or 'interval', got {level!r}")
    d_e = float((np.outer(n_c, n_c) * delta2).sum())
    if d_e == 0:
        return None
    return float(1 - (n - 1) * float((o * delta2).sum()) / d_e)


def rater_ceiling(ratings: Any, *, method: str = "spearman") -> float | None:
    """How well one human agrees with the others: the mean over raters of the correlation between that
    rater and the mean of the other raters, on the units both have (a judge compared with the consensus
    of humans should not be expected to beat this). ``None`` with fewer than 2 raters."""
    m = np.asarray([[np.nan if v is None else v for v in row] for row in ratings], dtype=np.float64)
    if m.shape[0] < 2:
        return None
    fn = {"spearman": _scipy_stats().spearmanr, "pearson": _scipy_stats().pearsonr, "kendall": _scipy_stats().kendalltau}[method]
    vals = []
    for r in range(m.shape[0]):
        others = np.delete(m, r, axis=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a unit rated by this rater only: NaN, skipped
            rest = np.nanmean(others, axis=0)
        ok = np.isfinite(m[r]) & np.isfinite(rest)
        if ok.sum() >= 3 and np.ptp(m[r, ok]) > 0 and np.ptp(rest[ok]) > 0:
            vals.append(float(fn(m[r, ok], rest[ok]).statistic))
    return float(np.mean(vals)) if vals else None


# --- threshold ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ThresholdResult:
    threshold: float | None
    balanced_accuracy: float | None
    youden_j: float | None
    tpr: float | None
    tnr: float | None
    n_positive: int
    n_negative: int

    def to_dict(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "balanced_accuracy": self.balanced_accuracy,
                "youden_j": self.youden_j, "tpr": self.tpr, "tnr": self.tnr,
                "n_positive": self.n_positive, "n_negative": self.n_negative}


def best_threshold(scores: Sequence[float], labels: Sequence[bool]) -> ThresholdResult:
    """The cut ``t`` (predict positive when ``score >= t``) that maximises balanced accuracy.

    Candidates are the midpoints between consecutive distinct scores (plus one below the lowest);
    ties go to the lowest cut. Youden's J is ``2 * BA - 1``, so both criteria pick the same ``t``.
    All thresholds are ``None`` when the labels have only one class.

    >>> best_threshold([0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]).threshold
    0.5
    """
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=bool)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        return ThresholdResult(None, None, None, None, None, n_pos, n_neg)
    u = np.unique(s)
    cuts = np.concatenate([[u[0] - 1.0], (u[:-1] + u[1:]) / 2]) if u.size > 1 else np.array([u[0] - 1.0, u[0]])
    pred = s[None, :] >= cuts[:, None]
    tpr = (pred & y).sum(axis=1) / n_pos
    tnr = (~pred & ~y).sum(axis=1) / n_neg
    ba = (tpr + tnr) / 2
    i = int(np.argmax(ba))
    return ThresholdResult(float(cuts[i]), float(ba[i]), float(2 * ba[i] - 1), float(tpr[i]), float(tnr[i]),
                           n_pos, n_neg)


# --- PPI ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PPIResult:
    """Prediction-powered estimate of a mean, beside the naive judge mean and the human-only mean."""

    estimate: float
    ci: Interval
    rectifier: float  #: mean(f(X_l) - Y_l): the judge's bias on the labelled set
    judge_mean: float  #: naive: mean of the judge over every sample
    judge_ci: Interval | None
    human_mean: float  #: classical: mean of the human labels only
    human_ci: Interval | None
    n_labelled: int
    n_unlabelled: int

    def to_dict(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "ci": self.ci.to_dict(), "rectifier": self.rectifier,
                "judge_mean": self.judge_mean, "judge_ci": self.judge_ci.to_dict() if self.judge_ci else None,
                "human_mean": self.human_mean, "human_ci": self.human_ci.to_dict() if self.human_ci else None,
                "n_labelled": self.n_labelled, "n_unlabelled": self.n_unlabelled}


def _normal_ci(mean: float, var: float, level: float, n: int, method: str) -> Interval:
    z = float(_scipy_stats().norm.ppf((1 + level) / 2))
    half = z * math.sqrt(max(var, 0.0))
    return Interval(mean - half, mean + half, level, method, n)


def ppi_mean(
    judge_labelled: Sequence[float],
    human_labelled: Sequence[float],
    judge_unlabelled: Sequence[float],
    *,
    level: float = 0.95,
) -> PPIResult:
    """Prediction-powered mean (Angelopoulos et al. 2023), human labels on the judge's scale.

    ``theta = mean(f_u) - mean(f_l - y_l)``; ``se^2 = var(f_u)/N + var(f_l - y_l)/n`` (ddof 1); CI
    ``theta +- z se``. The unlabelled set must not include the labelled items. Needs ``n >= 2`` labelled and
    ``N >= 2`` unlabelled items.

    >>> r = ppi_mean([0.9, 0.8, 0.7], [0.7, 0.6, 0.5], [0.9, 0.7, 0.8, 0.8])
    >>> round(r.estimate, 6), round(r.rectifier, 6)    # the judge is 0.2 too generous
    (0.6, 0.2)
    """
    fl = np.asarray(judge_labelled, dtype=np.float64)
    yl = np.asarray(human_labelled, dtype=np.float64)
    fu = np.asarray(judge_unlabelled, dtype=np.float64)
    if fl.shape != yl.shape:
        raise ValueError("judge_labelled and human_labelled must have the same length")
    n, big_n = fl.size, fu.size
    if n < 2 or big_n < 2:
        raise ValueError(f"PPI needs >= 2 labelled and >= 2 unlabelled samples, got {n} and {big_n}")
    rect = fl - yl
    theta = float(fu.mean() - rect.mean())
    var = float(fu.var(ddof=1)) / big_n + float(rect.var(ddof=1)) / n
    f_all = np.concatenate([fl, fu])
    return PPIResult(
        estimate=theta,
        ci=_normal_ci(theta, var, level, n + big_n, "ppi-normal"),
        rectifier=float(rect.mean()),
        judge_mean=float(f_all.mean()),
        judge_ci=_normal_ci(float(f_all.mean()), float(f_all.var(ddof=1)) / f_all.size, level, f_all.size, "normal"),
        human_mean=float(yl.mean()),
        human_ci=_normal_ci(float(yl.mean()), float(yl.var(ddof=1)) / n, level, n, "normal"),
        n_labelled=n,
        n_unlabelled=big_n,
    )


# --- verdict --------------------------------------------------------------------------------------


def calibration_verdict(spearman: CorrelationResult, ceiling: float | None, *, rule: float = SEED_RULE) -> tuple[str, str]:
    """A word and a sentence: is the judge calibrated, by the seed rule and against the raters?

    Words: ``calibrated`` (rho > rule and CI lower bound > rule), ``probably calibrated`` (rho > rule but
    the CI reaches below it), ``at the human ceiling`` (rho <= rule, but the humans agree with each other
    no better: the rule cannot be met on this data), ``not calibrated`` otherwise, ``undetermined`` when
    the correlation cannot be computed.
    """
    rho = spearman.estimate
    if rho is None:
        return "undetermined", "no correlation: the judge's scores or the human ratings have no spread"
    ci = spearman.ci
    ci_txt = f" (95% CI {ci.low:.2f} to {ci.high:.2f})" if ci else ""
    ceil_txt = "" if ceiling is None else f"; raters agree with each other at rho = {ceiling:.2f}"
    head = f"Spearman rho = {rho:.2f}{ci_txt} on n = {spearman.n}{ceil_txt}"
    if rho > rule:
        if ci is not None and ci.low > rule:
            return "calibrated", f"{head}: above the {rule:g} rule, confidently"
        return "probably calibrated", f"{head}: above the {rule:g} rule, but the CI reaches below it; label more samples"
    if ceiling is not None and rho >= ceiling - 0.05 and ceiling <= rule:
        return "at the human ceiling", (f"{head}: below the {rule:g} rule, but humans agree no better with each "
                                        f"other, so the rule cannot be met on this data")
    gap = "" if ceiling is None else f", and {ceiling - rho:+.2f} below the raters' own agreement"
    return "not calibrated", f"{head}: below the {rule:g} rule{gap}; do not trust this judge's scores yet"


# --- what to rate ---------------------------------------------------------------------------------


def stratified_sample(scores: Sequence[float], n: int, *, bins: int = 5, lo: float = 0.0, hi: float = 1.0,
                      seed: int | np.random.Generator = 0) -> list[int]:
    """Indices of ``n`` items drawn without replacement, stratified by score.

    ``[lo, hi]`` is cut into ``bins`` equal-width bins (the top edge belongs to the last one). Each
    non-empty bin gets an equal share; a bin with fewer items than its share gives them all, and the
    rest is shared again among the bins that still have items (so a judge that scores almost everything
    1.0 still has its few low scores rated). Within a bin the draw is uniform and seeded. Returned sorted.

    >>> picked = stratified_sample([0.99] * 8 + [0.1, 0.3], 4)   # 8 high scores, 2 low ones
    >>> [i for i in picked if i >= 8], len(picked)                  # both low ones are rated
    ([8, 9], 4)
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1 or not np.isfinite(s).all():
        raise ValueError("scores must be a 1-D array of finite numbers")
    if n < 1 or bins < 1 or not hi > lo:
        raise ValueError(f"need n >= 1, bins >= 1 and hi > lo (got n={n}, bins={bins}, lo={lo}, hi={hi})")
    rng = _rng(seed)
    which = np.clip(((s - lo) / (hi - lo) * bins).astype(int), 0, bins - 1)
    pools = [list(rng.permutation(np.flatnonzero(which == b))) for b in range(bins)]
    pools = [p for p in pools if p]
    take = [0] * len(pools)
    left = min(n, s.size)
    while left > 0:
        open_ = [k for k, p in enumerate(pools) if take[k] < len(p)]
        share = max(1, left // len(open_))
        for k in open_:
            give = min(share, len(pools[k]) - take[k], left)
            take[k] += give
            left -= give
            if left == 0:
                break
    return sorted(int(i) for k, p in enumerate(pools) for i in p[:take[k]])
