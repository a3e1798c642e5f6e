"""Pure kernels of the paired comparison: bootstrap CI, sign-flip permutation, Wilcoxon, Holm.

Each takes plain numpy vectors paired by position (``base[i]`` and ``new[i]`` are one question) and a
seed or ``np.random.Generator``; :mod:`.paired` puts them together (method overview and defaults there,
formulas in ``docs/statistics.md``).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Sequence

import numpy as np
import numpy.typing as npt

from .intervals import Interval

# scipy is imported inside the functions that need it (Wilcoxon): importing scipy.stats costs seconds,
# and a retrieval-only run never needs it. The normal quantiles of BCa come from the standard library.
_NORM = NormalDist()

__all__ = [
    "EXACT_MAX",
    "bootstrap_p_value",
    "holm",
    "paired_bootstrap_ci",
    "permutation_ci",
    "permutation_test",
    "permutation_test_and_ci",
    "wilcoxon_test",
]

_BLOCK_CELLS = 4_000_000
EXACT_MAX = 20


def _rng(seed: int | np.random.Generator) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _agg(x: np.ndarray, percentile: float | None, axis: int = -1) -> np.float64 | npt.NDArray[np.float64]:
    return np.mean(x, axis=axis, dtype=np.float64) if percentile is None else np.percentile(x, percentile, axis=axis)


def paired_bootstrap_ci(
    base: np.ndarray,
    new: np.ndarray,
    *,
    percentile: float | None = None,
    level: float = 0.95,
    n_resamples: int = 2000,
    seed: int | np.random.Generator = 0,
    method: str = "bca",
) -> Interval | None:
    """Paired bootstrap CI of ``agg(new) - agg(base)``; ``None`` when fewer than 2 pairs.

    ``method="bca"`` (means only; percentile aggregates use ``"percentile"``) or ``"percentile"``.
    The returned ``Interval.method`` names the method actually used (``bootstrap-bca`` or
    ``bootstrap-percentile``, the latter also when BCa fell back).
    """
    base = np.asarray(base, dtype=np.float64)
    new = np.asarray(new, dtype=np.float64)
    n = base.size
    if n < 2:
        return None
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    if method not in ("bca", "percentile"):
        raise ValueError(f"method must be 'bca' or 'percentile', got {method!r}")
    boot = _bootstrap_differences(base, new, percentile, n_resamples, _rng(seed))
    theta = float(_agg(new, percentile) - _agg(base, percentile))
    tail = (1 - level) / 2
    probs = (tail, 1 - tail)
    used = "bootstrap-percentile"
    if method == "bca" and percentile is None:
        bca = _bca_probs(boot, theta, new - base, probs)
        if bca is not None:
            probs, used = bca, "bootstrap-bca"
    low, high = np.quantile(boot, probs)
    return Interval(float(low), float(high), level, used, n)


def _bootstrap_differences(
    base: npt.NDArray[np.float64],
    new: npt.NDArray[np.float64],
    percentile: float | None,
    n_resamples: int,
    rng: np.random.Generator,
) -> npt.NDArray[np.float64]:
    n = base.size
    out = np.empty(n_resamples, dtype=np.float64)
    block = max(1, min(n_resamples, _BLOCK_CELLS // n))
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        idx = rng.integers(0, n, size=(stop - start, n))
        if percentile is None:
            out[start:stop] = (new - base)[idx].mean(axis=1)
        else:
            out[start:stop] = _agg(new[idx], percentile) - _agg(base[idx], percentile)
    return out


def _bca_probs(
    boot: npt.NDArray[np.float64], theta: float, d: npt.NDArray[np.float64], probs: tuple[float, float]
) -> tuple[float, float] | None:
    """BCa-adjusted quantile levels for the mean of ``d``, or None when BCa is not defined."""
    below = (np.count_nonzero(boot < theta) + 0.5 * np.count_nonzero(boot == theta)) / boot.size
    if not 0 < below < 1:
        return None
    z0 = _NORM.inv_cdf(below)
    n = d.size
    jack = (d.sum() - d) / (n - 1)  # leave-one-out means
    dev = jack.mean() - jack
    denom = 6.0 * float(np.sum(dev**2)) ** 1.5
    a = float(np.sum(dev**3)) / denom if denom > 0 else 0.0
    out: list[float] = []
    for p in probs:
        z = z0 + _NORM.inv_cdf(p)
        q = 1 - a * z
        if q <= 0:
            return None
        out.append(float(_NORM.cdf(z0 + z / q)))
    low, high = out
    return (low, high) if math.isfinite(low) and math.isfinite(high) else None


def permutation_test(
    base: np.ndarray,
    new: np.ndarray,
    *,
    n_permutations: int = 10_000,
    seed: int | np.random.Generator = 0,
    exact_max: int = EXACT_MAX,
) -> tuple[float, str]:
    """Two-sided paired sign-flip permutation p-value of ``mean(new - base)`` and the method's name.

    Under H0 the two runs' scores of one question are exchangeable, so each difference ``d_i`` is as likely
    to be ``-d_i``. Statistic ``T = |sum(d)|``; zeros contribute nothing, so only the ``m`` non-zero
    differences are flipped. Exact enumeration of all ``2^m`` sign patterns when ``m <= exact_max``;
    otherwise ``n_permutations`` seeded random patterns and ``p = (1 + #{T* >= T}) / (1 + B)`` (never 0;
    Phipson & Smyth 2010).

    >>> permutation_test(np.zeros(5), np.ones(5))    # 2 of 32 sign patterns are as extreme
    (0.0625, 'sign-flip permutation, exact')
    """
    d = np.asarray(new, dtype=np.float64) - np.asarray(base, dtype=np.float64)
    d = d[d != 0]
    m = d.size
    if m == 0:
        return 1.0, "sign-flip permutation, exact"
    obs = abs(float(d.sum()))
    tol = 1e-9 * float(np.abs(d).sum())  # sums equal to obs up to rounding count as "as extreme"
    block = max(1, _BLOCK_CELLS // m)
    count = 0
    if m <= exact_max:
        total = 1 << m
        bits = np.arange(m, dtype=np.int64)
        for start in range(0, total, block):
            k = np.arange(start, min(total, start + block), dtype=np.int64)
            signs = 1.0 - 2.0 * ((k[:, None] >> bits) & 1)
            count += int(np.count_nonzero(np.abs(signs @ d) >= obs - tol))
        return count / total, "sign-flip permutation, exact"
    rng = _rng(seed)
    for start in range(0, n_permutations, block):
        size = min(n_permutations, start + block) - start
        signs = np.where(rng.random((size, m)) < 0.5, -1.0, 1.0)
        count += int(np.count_nonzero(np.abs(signs @ d) >= obs - tol))
    return (1 + count) / (1 + n_permutations), f"sign-flip permutation, Monte Carlo ({n_permutations} draws)"


def permutation_ci(
    base: np.ndarray,
    new: np.ndarray,
    *,
    level: float = 0.95,
    n_permutations: int = 10_000,
    seed: int | np.random.Generator = 0,
    exact_max: int = EXACT_MAX,
    p_value: float | None = None,
) -> Interval | None:
    """CI of ``mean(new - base)`` from the same paired sign-flip test as :func:`permutation_test`, inverted.

    The interval is every shift ``delta`` that the test of ``H0: the d_i are symmetric around delta``
    (flipping the signs of ``d_i - delta``, statistic ``|sum(d - delta)|``) does not reject at
    ``1 - level``. So it excludes 0 exactly when the test's p-value is at most ``1 - level``: the interval
    and the verdict cannot disagree (Efron & Tibshirani 1993, ch. 15; Good 2005 on test inversion).

    Exact over all ``2^n`` sign patterns when ``n <= exact_max``; else ``n_permutations`` seeded random
    patterns, shared by every ``delta``. Each pattern's "as extreme" set is a closed interval around the
    mean with ends in closed form (the roots of a quadratic), so the kept set is an interval too, read off
    the sorted ends: no search. ``p_value``: the reported p-value of ``delta = 0`` (exact over the
    non-zero differences when :func:`permutation_test` could enumerate them); when Monte Carlo noise or
    rounding would put 0 on the other side of the interval than that p-value says, the nearer end is
    moved to 0. ``None`` when ``n < 2`` or when no shift can be rejected at this level
    (e.g. ``n <= 5`` at 95%: the smallest possible p-value, ``2 / 2^n``, is above 0.05).

    >>> permutation_ci(np.zeros(9), np.array([1.0] * 4 + [0.0] * 5)).low <= 0   # p = 0.125: 0 is inside
    True
    """
    base = np.asarray(base, dtype=np.float64)
    new = np.asarray(new, dtype=np.float64)
    d = new - base
    n = int(d.size)
    if n < 2:
        return None
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    exact = n <= exact_max
    sd, s1 = _sign_sums(d, exact, n_permutations, _rng(seed))
    return _inverted_ci(d, sd, s1, exact, level, p_value)


def permutation_test_and_ci(
    base: np.ndarray,
    new: np.ndarray,
    *,
    level: float = 0.95,
    n_permutations: int = 10_000,
    seed: int | np.random.Generator = 0,
    exact_max: int = EXACT_MAX,
) -> tuple[float, str, Interval | None]:
    """:func:`permutation_test` and :func:`permutation_ci` from one enumeration when ``n <= exact_max``
    (the same p-value: flipping a zero difference changes no sum); otherwise the two in turn."""
    base = np.asarray(base, dtype=np.float64)
    new = np.asarray(new, dtype=np.float64)
    d = new - base
    n = int(d.size)
    rng = _rng(seed)
    if n < 2 or n > exact_max:
        p, method = permutation_test(base, new, n_permutations=n_permutations, seed=rng, exact_max=exact_max)
        ci = permutation_ci(base, new, level=level, n_permutations=n_permutations, seed=rng,
                            exact_max=exact_max, p_value=p) if n >= 2 else None
        return p, method, ci
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    sd, s1 = _sign_sums(d, True, n_permutations, rng)
    obs = abs(float(d.sum()))
    tol = 1e-9 * float(np.abs(d).sum())  # as in permutation_test
    p = 1.0 if obs == 0 and not np.any(d) else float(np.count_nonzero(np.abs(sd) >= obs - tol)) / sd.size
    return p, "sign-flip permutation, exact", _inverted_ci(d, sd, s1, True, level, p)


def _inverted_ci(d: np.ndarray, sd: np.ndarray, s1: np.ndarray, exact: bool, level: float,
                 p_value: float | None) -> Interval | None:
    n = int(d.size)
    cut = 1 - level
    total = float(d.sum())
    mean = total / n
    # Pattern b counts as "as extreme" at the shift delta when |sd_b - delta s1_b| >= |total - n delta|.
    # Squared, that is ((n - s1) delta - (total - sd)) ((total + sd) - (n + s1) delta) >= 0: a downward
    # parabola in delta, so the set is the closed interval between its roots (around the mean; the whole
    # line for the all-plus and all-minus patterns). The test keeps delta while #{b: delta in [l_b, u_b]} is
    # large enough; every interval holds the mean, so the kept set is [K-th smallest l, K-th largest u].
    with np.errstate(divide="ignore", invalid="ignore"):
        r1 = np.where(s1 < n, (total - sd) / (n - s1), -np.inf)
        r2 = np.where(s1 > -n, (total + sd) / (n + s1), np.inf)
    lo_b, hi_b = np.minimum(r1, r2), np.maximum(r1, r2)
    whole = np.abs(s1) == n
    lo_b[whole], hi_b[whole] = -np.inf, np.inf
    eps = 1e-9 * (float(np.abs(d).sum()) / n + abs(mean) + 1e-300)  # sums equal up to rounding count
    size = sd.size
    # p = count / size (exact) or (1 + count) / (1 + size) (Monte Carlo) must stay above 1 - level
    need = (math.floor(cut * size) if exact else math.floor(cut * (1 + size) - 1)) + 1
    if need > size:
        return None
    low = float(np.partition(lo_b, need - 1)[need - 1]) - eps
    high = float(-np.partition(-hi_b, need - 1)[need - 1]) + eps
    if not (math.isfinite(low) and math.isfinite(high)):
        return None  # no shift is rejected at this level: the data cannot bound the mean difference
    spread = float(d.max() - d.min()) or max(abs(mean), 1.0)
    low, high = (0.0 if abs(e) <= 1e-8 * spread else e for e in (low, high))  # rounding at a boundary of 0
    if p_value is not None:  # rounding or Monte Carlo noise must not contradict the reported p-value at 0
        if p_value > cut and not low <= 0 <= high:
            low, high = min(low, 0.0), max(high, 0.0)
        elif p_value <= cut and low <= 0 <= high:  # 0 is rejected: the kept end nearest to it is just past 0
            tiny = float(np.nextafter(0.0, 1.0))
            low, high = (tiny, high) if mean > 0 else (low, -tiny)
    method = ("sign-flip permutation, exact (test inversion)" if exact
              else f"sign-flip permutation, Monte Carlo ({sd.size} draws; test inversion)")
    return Interval(float(low), float(high), level, method, n)


def _sign_sums(d: np.ndarray, exact: bool, n_draws: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``(S @ d, S @ 1)`` over the sign patterns ``S`` (all ``2^n``, or ``n_draws`` random), in blocks."""
    n = d.size
    total = (1 << n) if exact else n_draws
    block = max(1, _BLOCK_CELLS // n)
    sd = np.empty(total, dtype=np.float64)
    s1 = np.empty(total, dtype=np.float64)
    bits = np.arange(n, dtype=np.int64)
    for start in range(0, total, block):
        stop = min(total, start + block)
        if exact:
            k = np.arange(start, stop, dtype=np.int64)
            signs = 1.0 - 2.0 * ((k[:, None] >> bits) & 1)
        else:
            signs = np.where(rng.random((stop - start, n)) < 0.5, -1.0, 1.0)
        sd[start:stop] = signs @ d
        s1[start:stop] = signs.sum(axis=1)
    return sd, s1


def bootstrap_p_value(boot: np.ndarray) -> float:
    """Two-sided p-value of "difference = 0" from bootstrap differences: the smallest ``1 - level`` at
    which the percentile interval would exclude 0, ``min(1, 2 * min(#{<= 0} + 1, #{>= 0} + 1) / (B + 1))``."""
    b = boot.size
    low = np.count_nonzero(boot <= 0) + 1
    high = np.count_nonzero(boot >= 0) + 1
    return float(min(1.0, 2 * min(low, high) / (b + 1)))


def wilcoxon_test(base: np.ndarray, new: np.ndarray) -> float | None:
    """Two-sided Wilcoxon signed-rank p-value (scipy, zeros discarded); 1.0 when every difference is
    zero, ``None`` with fewer than 2 pairs."""
    d = np.asarray(new, dtype=np.float64) - np.asarray(base, dtype=np.float64)
    if d.size < 2:
        return None
    if not np.any(d != 0):
        return 1.0
    import warnings

    from scipy import stats as _st

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns about ties/zeros and switches method itself
        return float(_st.wilcoxon(d, zero_method="wilcox").pvalue)


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm (1979) step-down adjusted p-values; ``None`` entries are skipped and stay ``None``.

    Sorted ascending, ``p~_(i) = max_{j<=i} min(1, (m - j + 1) p_(j))``.

    >>> holm([0.01, 0.04, 0.03, 0.005])
    [0.03, 0.06, 0.06, 0.02]
    """
    idx = [i for i, p in enumerate(pvalues) if p is not None]
    m = len(idx)
    order = sorted(idx, key=lambda i: pvalues[i])  # type: ignore[arg-type,return-value]
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * float(pvalues[i])))  # type: ignore[arg-type]
        out[i] = round(running, 15)
    return out
