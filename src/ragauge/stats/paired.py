"""Paired comparison of two runs on the same questions: difference, CI, p-value, effect size, verdict.

Methods (defaults in brackets; formulas in ``docs/statistics.md``):

- **Pairing** by sample id. Different id sets are refused unless ``allow_intersection``; samples unscored
  in either run are dropped and counted (``PairedResult.dropped``).
- **Difference** ``new - base`` of the aggregate: the mean, or for ``pNN`` metrics (latency_p95) the
  percentile (linear interpolation) of each run.
- **CI**: paired bootstrap (resample question indices, both runs together) [2000 resamples, seeded].
  BCa (Efron 1987) for means, with bias correction ``z0`` and jackknife acceleration ``a``; it falls back to
  the percentile interval when ``z0`` is not finite (every resample on one side). Percentile aggregates
  always use the percentile interval (the jackknife is unreliable for quantiles).
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
- :func:`non_inferiority`: one-sided paired t-test of ``H0: improvement <= -margin``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

import numpy as np
from scipy import stats as _st

from ..errors import InputError
from .intervals import Interval
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
    "bootstrap_p_value",
    "permutation_test",
    "run_scores",
    "wilcoxon_test",
]

_BLOCK_CELLS = 4_000_000
EXACT_MAX = 20


def _rng(seed: int | np.random.Generator) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _agg(x: np.ndarray, percentile: float | None, axis: int = -1) -> np.ndarray:
    return x.mean(axis=axis) if percentile is None else np.percentile(x, percentile, axis=axis)


# --- pairing ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Pairing:
    """Two score vectors aligned by id, and what was left out on the way."""

    ids: tuple[str, ...]
    base: np.ndarray
    new: np.ndarray
    only_base: int = 0  #: ids present only in the base run (dropped with allow_intersection)
    only_new: int = 0
    unscored_base: int = 0  #: common ids dropped because the base run has no score
    unscored_new: int = 0  #: common ids dropped because the new run has no score (and base had one)

    @property
    def n(self) -> int:
        return len(self.ids)

    def dropped(self) -> dict[str, int]:
        return {"only_base": self.only_base, "only_new": self.only_new,
                "unscored_base": self.unscored_base, "unscored_new": self.unscored_new}


def _id_mismatch(only_base: list[str], only_new: list[str], what: str) -> InputError:
    def show(ids: list[str]) -> str:
        head = ", ".join(repr(i) for i in sorted(ids)[:5])
        return f"{len(ids)} ({head}{', ...' if len(ids) > 5 else ''})" if ids else "0"

    return InputError(
        f"the two runs were not scored on the same samples{what}: only in base {show(only_base)}, "
        f"only in new {show(only_new)}",
        hint="compare runs on the same data set, or use the common ids only with --intersection "
        "(allow_intersection=True); the dropped ids are then counted in the result",
    )


def pair_by_id(
    base: Mapping[str, float | None],
    new: Mapping[str, float | None],
    *,
    allow_intersection: bool = False,
) -> Pairing:
    """Align ``{id: score or None}`` maps of two runs. ``None`` (unscored) in either run drops the pair.

    Raises ``InputError`` when the id sets differ, unless ``allow_intersection``.

    >>> p = pair_by_id({"a": 1.0, "b": None, "c": 0.5}, {"a": 0.0, "b": 1.0, "c": 0.5})
    >>> p.ids, p.unscored_base
    (('a', 'c'), 1)
    """
    only_base = [i for i in base if i not in new]
    only_new = [i for i in new if i not in base]
    if (only_base or only_new) and not allow_intersection:
        raise _id_mismatch(only_base, only_new, "")
    ids, b, n = [], [], []
    unscored_base = unscored_new = 0
    for i, vb in base.items():
        if i not in new:
            continue
        vn = new[i]
        if vb is None:
            unscored_base += 1
        elif vn is None:
            unscored_new += 1
        else:
            ids.append(i)
            b.append(float(vb))
            n.append(float(vn))
    return Pairing(tuple(ids), np.asarray(b, dtype=np.float64), np.asarray(n, dtype=np.float64),
                   len(only_base), len(only_new), unscored_base, unscored_new)


# --- interval, tests, correction ------------------------------------------------------------------


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


def _bootstrap_differences(base, new, percentile, n_resamples, rng) -> np.ndarray:
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


def _bca_probs(boot: np.ndarray, theta: float, d: np.ndarray, probs: tuple[float, float]):
    """BCa-adjusted quantile levels for the mean of ``d``, or None when BCa is not defined."""
    below = (np.count_nonzero(boot < theta) + 0.5 * np.count_nonzero(boot == theta)) / boot.size
    if not 0 < below < 1:
        return None
    z0 = _st.norm.ppf(below)
    n = d.size
    jack = (d.sum() - d) / (n - 1)  # leave-one-out means
    dev = jack.mean() - jack
    denom = 6.0 * float(np.sum(dev**2)) ** 1.5
    a = float(np.sum(dev**3)) / denom if denom > 0 else 0.0
    out = []
    for p in probs:
        z = z0 + _st.norm.ppf(p)
        q = 1 - a * z
        if q <= 0:
            return None
        out.append(float(_st.norm.cdf(z0 + z / q)))
    return tuple(out) if all(np.isfinite(out)) else None


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


# --- one metric ------------------------------------------------------------------------------------


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
    n = int(base.size)
    aggregate = "mean" if percentile is None else f"p{percentile:g}"
    common = dict(metric=metric, aggregate=aggregate, higher_is_better=higher_is_better, n=n, alpha=alpha,
                  power=power, dropped=dict(dropped or {}))
    if n < 2:
        bv = float(_agg(base, percentile)) if n else None
        nv = float(_agg(new, percentile)) if n else None
        return PairedResult(base_value=bv, new_value=nv, difference=None if bv is None else nv - bv,
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
        ci = paired_bootstrap_ci(base, new, level=level, n_resamples=n_resamples, seed=rng)
        p, p_method = permutation_test(base, new, n_permutations=n_permutations, seed=rng)
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
        mde = (_st.norm.ppf(1 - alpha / 2) + _st.norm.ppf(power)) * se if se > 0 else None
    result = PairedResult(base_value=bv, new_value=nv, difference=diff, ci=ci, p_value=p, p_method=p_method,
                          p_wilcoxon=p_w, p_adjusted=None, effect_size_dz=dz, sd_diff=sd, mde=mde,
                          verdict="", reason="", **common)
    return _decide(result, p_adjusted)


def _decide(r: PairedResult, p_adjusted: float | None) -> PairedResult:
    """Set the verdict (and its sentence) from the raw or, when given, the adjusted p-value."""
    decide = r.p_value if p_adjusted is None else p_adjusted
    if decide is not None and decide <= r.alpha and r.difference:
        verdict = "better" if (r.difference > 0) == r.higher_is_better else "worse"
    else:
        verdict = "no detectable difference"
    reason = _reason(r.metric, r.base_value, r.new_value, r.difference, r.ci, r.p_value, p_adjusted, r.alpha,
                     verdict, r.mde, r.n, r.power, r.higher_is_better)
    return replace(r, p_adjusted=p_adjusted, verdict=verdict, reason=reason)


def _reason(metric, bv, nv, diff, ci, p, p_adj, alpha, verdict, mde, n, power, hib) -> str:
    ci_txt = f", {ci.level:.0%} CI {ci.low:+.4g} to {ci.high:+.4g}" if ci else ""
    p_txt = f"p = {p:.3g}" + (f", Holm-adjusted {p_adj:.3g}" if p_adj is not None else "")
    head = f"{metric}: {bv:.4g} -> {nv:.4g} ({diff:+.4g}{ci_txt}; {p_txt})"
    if verdict == "better":
        return f"{head}: better ({'higher' if hib else 'lower'} is better), significant at alpha {alpha:g}"
    if verdict == "worse":
        return f"{head}: worse ({'higher' if hib else 'lower'} is better), significant at alpha {alpha:g}"
    mde_txt = (f"at n = {n} only a true difference of about {mde:.3g} or more would be detected with "
               f"power {power:g}" if mde is not None else "the differences have no spread")
    return f"{head}: no detectable difference; {mde_txt}"


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


# --- two runs --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunScores:
    """The per-sample scores of one results.json document, by metric."""

    source: str
    ids: tuple[str, ...]
    specs: dict[str, dict[str, Any]]
    scores: dict[str, dict[str, float | None]]


def run_scores(doc: Mapping[str, Any], *, source: str = "results.json") -> RunScores:
    """Read the per-sample scores out of a results.json document (schema ``ragauge.results/1``)."""
    schema = doc.get("schema") if isinstance(doc, Mapping) else None
    if not isinstance(schema, str) or not schema.startswith("ragauge.results/"):
        raise InputError("not a ragauge results file", file=source, field="schema", value=schema,
                         hint="pass the results.json written by `ragauge eval`")
    if schema.split("/", 1)[1] != "1":
        raise InputError("unsupported results schema version", file=source, field="schema", value=schema,
                         hint="this ragauge reads ragauge.results/1; upgrade ragauge")
    specs: dict[str, dict[str, Any]] = {}
    for s in doc.get("metrics") or []:
        if isinstance(s, Mapping) and isinstance(s.get("name"), str):
            specs[s["name"]] = dict(s)
    samples = doc.get("samples")
    if not isinstance(samples, list):
        raise InputError("missing the per-sample scores", file=source, field="samples",
                         hint="re-run `ragauge eval`; compare needs results.json with its samples")
    ids: list[str] = []
    seen: set[str] = set()
    scores: dict[str, dict[str, float | None]] = {name: {} for name in specs}
    for k, s in enumerate(samples):
        sid = s.get("id") if isinstance(s, Mapping) else None
        if not isinstance(sid, str):
            raise InputError("sample without a string id", file=source, field=f"samples[{k}].id", value=sid)
        if sid in seen:
            raise InputError("duplicate sample id", file=source, field=f"samples[{k}].id", value=sid,
                             hint="ids must be unique to pair samples between runs")
        seen.add(sid)
        ids.append(sid)
        row = s.get("scores") or {}
        for name in specs:
            v = row.get(name)
            if v is not None and not (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)):
                raise InputError("score is not a finite number or null", file=source,
                                 field=f"samples[{k}].scores.{name}", value=v)
            scores[name][sid] = None if v is None else float(v)
    return RunScores(source, tuple(ids), specs, scores)


@dataclass(frozen=True, slots=True)
class ComparisonResult:
    """Every compared metric of two runs, Holm-corrected together."""

    base: str
    new: str
    n_common: int
    only_base: int
    only_new: int
    alpha: float
    level: float
    seed: int | None
    metrics: tuple[PairedResult, ...]

    @property
    def any_worse(self) -> bool:
        return any(r.verdict == "worse" for r in self.metrics)

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": self.base, "new": self.new, "n_common": self.n_common, "only_base": self.only_base,
            "only_new": self.only_new, "alpha": self.alpha, "level": self.level, "seed": self.seed,
            "correction": "holm", "any_worse": self.any_worse,
            "metrics": [r.to_dict() for r in self.metrics],
        }


def compare_runs(
    base: RunScores,
    new: RunScores,
    *,
    metrics: Sequence[str] | None = None,
    allow_intersection: bool = False,
    alpha: float = 0.05,
    level: float = 0.95,
    power: float = 0.8,
    n_resamples: int = 2000,
    n_permutations: int = 10_000,
    seed: int = 0,
) -> ComparisonResult:
    """Compare every metric (or ``metrics``) present in both runs, with Holm across them.

    Each metric uses the same ``seed``, so a metric's numbers do not depend on which others are compared.
    """
    new_set, base_set = set(new.ids), set(base.ids)
    only_base = [i for i in base.ids if i not in new_set]
    only_new = [i for i in new.ids if i not in base_set]
    if (only_base or only_new) and not allow_intersection:
        raise _id_mismatch(only_base, only_new, f" ({base.source} vs {new.source})")
    common = [m for m in new.specs if m in base.specs]
    if metrics:
        missing = [m for m in metrics if m not in base.specs or m not in new.specs]
        if missing:
            raise InputError(
                f"metric(s) {', '.join(missing)} not in both runs", field="--metrics",
                hint=f"metrics in both runs: {', '.join(common) or 'none'}",
            )
        common = list(dict.fromkeys(metrics))
    if not common:
        raise InputError("the two runs have no metric in common",
                         hint=f"base has {', '.join(base.specs) or 'none'}; new has {', '.join(new.specs) or 'none'}")
    pairings, specs = [], []
    for m in common:
        hib_b, hib_n = base.specs[m].get("higher_is_better", True), new.specs[m].get("higher_is_better", True)
        agg_b, agg_n = base.specs[m].get("aggregate", "mean"), new.specs[m].get("aggregate", "mean")
        if hib_b != hib_n or agg_b != agg_n:
            raise InputError(f"metric '{m}' is defined differently in the two runs", field="metrics",
                             value={"base": [hib_b, agg_b], "new": [hib_n, agg_n]},
                             hint="re-score both runs with the same ragauge version")
        pairings.append(pair_by_id(base.scores[m], new.scores[m], allow_intersection=True))
        specs.append((bool(hib_n), None if agg_n == "mean" else float(str(agg_n)[1:])))
    options = dict(alpha=alpha, level=level, power=power, n_resamples=n_resamples, n_permutations=n_permutations)
    raw = [compare_paired(p.base, p.new, metric=m, higher_is_better=h, percentile=pct, seed=seed,
                          dropped=p.dropped(), **options)
           for m, p, (h, pct) in zip(common, pairings, specs)]
    adjusted = holm([r.p_value for r in raw])
    results = [r if r.p_value is None else _decide(r, adj) for r, adj in zip(raw, adjusted)]
    return ComparisonResult(base.source, new.source, len(base_set & new_set), len(only_base), len(only_new),
                            alpha, level, seed, tuple(results))


# --- non-inferiority -------------------------------------------------------------------------------


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
    improvement = s * float(_agg(new, percentile) - _agg(base, percentile))
    if percentile is None:
        d = s * (new - base)
        sd = float(np.std(d, ddof=1))
        if sd == 0:
            lower = improvement
            p = 0.0 if improvement > -margin else 1.0
        else:
            se = sd / math.sqrt(n)
            lower = improvement - float(_st.t.ppf(1 - alpha, n - 1)) * se
            p = float(_st.t.sf((improvement + margin) / se, n - 1))
        method = "one-sided paired t-test"
    else:
        boot = s * _bootstrap_differences(base, new, percentile, n_resamples, _rng(seed))
        lower = float(np.quantile(boot, alpha))
        p = float(np.mean(boot <= -margin))
        method = "one-sided paired bootstrap (percentile)"
    ok = lower > -margin
    word = "not worse" if ok else "not shown to be within the margin"
    reason = (f"improvement {improvement:+.4g}, one-sided {1 - alpha:.0%} lower bound {lower:+.4g} vs "
              f"-margin {-margin:+.4g} (p = {p:.3g}): new is {word}"
              + (f" than base by more than {margin:g}" if ok else f" of base (margin {margin:g})"))
    return NonInferiorityResult(margin, alpha, n, improvement, lower, p, method, ok, reason)
