"""Sample-size planning: how many questions for a given precision or to detect a given difference.

Three questions, each a small pure function of stated assumptions (or of a pilot run's SD):

(a) **Precision of one mean.** The CI half-width of a mean of ``n`` scores with SD ``sd`` is
    ``h(n) = t_{(1+level)/2, n-1} * sd / sqrt(n)``. :func:`n_for_half_width` returns the smallest ``n``
    with ``h(n) <= h``: it starts from the normal approximation ``n0 = ceil((z * sd / h)^2)`` and steps
    ``n`` up while the t quantile still makes the interval too wide.
    Example: ``sd=0.15, h=0.05`` -> ``n0 = ceil((1.96*3)^2) = 35``; t-iteration gives **38**.

(b) **Precision of a pass rate** ``p`` (binary scores). Normal (Wald): ``n = z^2 p(1-p) / h^2``
    (``p=0.8, h=0.05`` -> 246). Wilson (default): the smallest ``n`` whose Wilson score interval has
    half-width ``z/(1+z^2/n) * sqrt(p(1-p)/n + z^2/(4 n^2)) <= h`` (``p=0.8`` -> 245).

(c) **Detecting a difference** ``d`` between two versions on the same questions (paired, two-sided
    level ``alpha``, power ``1-beta``). With ``sd_diff`` the SD of per-question differences, the paired
    t-test has power ``P(|T| > t_{1-alpha/2, n-1})`` with ``T ~ noncentral t(n-1, d*sqrt(n)/sd_diff)``.
    :func:`n_for_difference` returns the smallest ``n`` with power >= target, starting from
    ``n0 = ceil(((z_{1-alpha/2} + z_{1-beta}) * sd_diff / d)^2)``. When only the per-run SD is known,
    ``sd_diff = sqrt(sd_a^2 + sd_b^2 - 2 rho sd_a sd_b)`` (``= sd * sqrt(2(1-rho))`` for equal SDs).
    Example: ``d=0.05, sd_diff=0.15`` -> ``n0 = ceil((2.8016*3)^2) = 71``; noncentral t gives **73**.

:func:`rules_of_thumb` states the seeds' rules and the assumptions under which each one holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ._lazy import scipy_stats as _scipy_stats

__all__ = [
    "PlanResult",
    "RuleOfThumb",
    "half_width",
    "mde_paired",
    "n_for_difference",
    "n_for_half_width",
    "n_for_proportion",
    "power_paired",
    "rules_of_thumb",
    "sd_of_differences",
    "wilson_half_width",
]

_MAX_N = 10_000_000


@dataclass(frozen=True, slots=True)
class PlanResult:
    """A planned sample size: ``n`` for ``goal``, the ``inputs`` it rests on and the ``method`` used."""

    goal: str
    n: int
    inputs: dict[str, Any]
    method: str
    achieved: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"goal": self.goal, "n": self.n, "inputs": dict(self.inputs), "method": self.method,
                "achieved": dict(self.achieved)}


def _check_unit(name: str, value: float) -> None:
    if not 0 < value < 1:
        raise ValueError(f"{name} must be in (0, 1), got {value}")


def _check_positive(name: str, value: float) -> None:
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{name} must be a positive number, got {value}")


def half_width(sd: float, n: int, *, level: float = 0.95) -> float:
    """t-based CI half-width of a mean: ``t_{(1+level)/2, n-1} * sd / sqrt(n)`` (``n >= 2``)."""
    if n < 2:
        return math.inf
    return float(_scipy_stats().t.ppf((1 + level) / 2, n - 1) * sd / math.sqrt(n))


def n_for_half_width(sd: float, half_width_target: float, *, level: float = 0.95) -> PlanResult:
    """Smallest ``n`` whose t-based ``level`` CI of a mean has half-width <= ``half_width_target``.

    >>> n_for_half_width(0.15, 0.05).n
    38
    """
    _check_positive("sd", sd)
    _check_positive("half-width", half_width_target)
    _check_unit("level", level)
    z = _scipy_stats().norm.ppf((1 + level) / 2)
    n = max(2, math.ceil((z * sd / half_width_target) ** 2))
    while half_width(sd, n, level=level) > half_width_target:
        n += 1
        if n > _MAX_N:
            raise ValueError("the requested precision needs more than 10 million samples")
    return PlanResult(
        goal=f"CI half-width <= {half_width_target:g} for a mean",
        n=n,
        inputs={"sd": sd, "half_width": half_width_target, "level": level},
        method="t-based: smallest n with t(1+level)/2, n-1 * sd / sqrt(n) <= h",
        achieved={"half_width": half_width(sd, n, level=level)},
    )


def wilson_half_width(p: float, n: int, *, level: float = 0.95) -> float:
    """Half-width of the Wilson score interval for an observed pass rate ``p`` over ``n`` samples."""
    z = _scipy_stats().norm.ppf((1 + level) / 2)
    return float(z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)))


def n_for_proportion(p: float, half_width_target: float, *, level: float = 0.95, method: str = "wilson") -> PlanResult:
    """Samples needed for a pass rate near ``p`` to be known within ``+- half_width_target``.

    ``method="normal"``: ``ceil(z^2 p (1-p) / h^2)``; ``"wilson"``: smallest ``n`` with Wilson half-width
    <= ``h`` (the Wilson interval is the one ragauge reports for pass rates).

    >>> n_for_proportion(0.8, 0.05, method="normal").n, n_for_proportion(0.8, 0.05).n
    (246, 245)
    """
    if not 0 <= p <= 1:
        raise ValueError(f"pass rate must be in [0, 1], got {p}")
    _check_positive("half-width", half_width_target)
    _check_unit("level", level)
    z = _scipy_stats().norm.ppf((1 + level) / 2)
    n_normal = max(1, math.ceil(z * z * p * (1 - p) / half_width_target**2))
    if method == "normal":
        n = n_normal
        achieved = z * math.sqrt(p * (1 - p) / n)
    elif method == "wilson":
        # The Wilson half-width decreases in n; bisection between 1 and a safe upper bound.
        lo, hi = 1, max(n_normal, 1) * 2 + math.ceil(z * z / half_width_target)
        while wilson_half_width(p, hi, level=level) > half_width_target:
            hi *= 2
        while lo < hi:
            mid = (lo + hi) // 2
            if wilson_half_width(p, mid, level=level) <= half_width_target:
                hi = mid
            else:
                lo = mid + 1
        n = lo
        achieved = wilson_half_width(p, n, level=level)
    else:
        raise ValueError(f"method must be 'wilson' or 'normal', got {method!r}")
    return PlanResult(
        goal=f"pass rate near {p:g} within +-{half_width_target:g}",
        n=n,
        inputs={"pass_rate": p, "half_width": half_width_target, "level": level},
        method=f"{method} interval for a proportion",
        achieved={"half_width": float(achieved)},
    )


def sd_of_differences(sd_a: float, sd_b: float | None = None, *, correlation: float) -> float:
    """SD of paired differences from per-run SDs and their correlation: ``sqrt(a^2 + b^2 - 2 rho a b)``.

    >>> round(sd_of_differences(0.15, correlation=0.5), 4)
    0.15
    """
    sd_b = sd_a if sd_b is None else sd_b
    if not -1 <= correlation <= 1:
        raise ValueError(f"correlation must be in [-1, 1], got {correlation}")
    return math.sqrt(max(0.0, sd_a**2 + sd_b**2 - 2 * correlation * sd_a * sd_b))


def power_paired(difference: float, sd_diff: float, n: int, *, alpha: float = 0.05) -> float:
    """Power of the two-sided paired t-test at level ``alpha`` to detect a true mean difference.

    Exact under normal differences: ``P(|T| > t_{1-alpha/2, n-1})``, ``T ~ nct(n-1, d sqrt(n) / sd_diff)``.
    """
    if n < 2:
        return 0.0
    if sd_diff <= 0:
        return 1.0 if difference != 0 else alpha
    df = n - 1
    nc = abs(difference) * math.sqrt(n) / sd_diff
    crit = _scipy_stats().t.ppf(1 - alpha / 2, df)
    if nc - crit > 38:  # beyond double precision of 1 - power; nct's series may return NaN here
        return 1.0
    value = _scipy_stats().nct.sf(crit, df, nc) + _scipy_stats().nct.cdf(-crit, df, nc)
    return float(min(1.0, value)) if math.isfinite(value) else 1.0


def mde_paired(sd_diff: float, n: int, *, alpha: float = 0.05, power: float = 0.8) -> float | None:
    """Minimum detectable effect: the true mean difference the paired t-test detects with ``power``.

    Solves ``power_paired(d, sd_diff, n) = power`` for ``d``. ``None`` when ``n < 2`` or ``sd_diff`` is 0
    or not finite. Close to ``(t_{1-alpha/2,n-1} + t_{power,n-1}) * sd_diff / sqrt(n)``.
    """
    if n < 2 or not (sd_diff > 0 and math.isfinite(sd_diff)):
        return None
    from scipy.optimize import brentq

    df = n - 1
    upper = (_scipy_stats().t.ppf(1 - alpha / 2, df) + _scipy_stats().t.ppf(power, df)) * sd_diff / math.sqrt(n) * 1.5
    while power_paired(upper, sd_diff, n, alpha=alpha) < power:
        upper *= 2
    return float(brentq(lambda d: power_paired(d, sd_diff, n, alpha=alpha) - power, 0.0, upper, xtol=1e-10))


def n_for_difference(
    difference: float,
    sd_diff: float | None = None,
    *,
    sd: float | None = None,
    correlation: float | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
) -> PlanResult:
    """Smallest number of paired questions to detect ``difference`` with ``power`` (two-sided ``alpha``).

    Give ``sd_diff`` (the SD of per-question differences, e.g. from two pilot runs), or the per-run
    ``sd`` with an assumed ``correlation`` between the runs' scores on the same question.

    >>> n_for_difference(0.05, 0.15).n
    73
    >>> n_for_difference(0.05, sd=0.15, correlation=0.5).n   # same: sd_diff = sd when rho = 0.5
    73
    """
    _check_positive("difference", abs(difference))
    _check_unit("alpha", alpha)
    _check_unit("power", power)
    inputs: dict[str, Any] = {"difference": difference, "alpha": alpha, "power": power}
    if sd_diff is None:
        if sd is None or correlation is None:
            raise ValueError("give sd_diff, or sd together with an assumed correlation")
        sd_diff = sd_of_differences(sd, correlation=correlation)
        inputs.update(sd=sd, correlation=correlation)
    _check_positive("sd of differences", sd_diff)
    inputs["sd_diff"] = sd_diff
    d = abs(difference)
    z = _scipy_stats().norm.ppf(1 - alpha / 2) + _scipy_stats().norm.ppf(power)
    n = max(2, math.ceil((z * sd_diff / d) ** 2))
    # The normal start is a lower bound for the t-test in practice; step up, then make sure n-1 fails.
    while power_paired(d, sd_diff, n, alpha=alpha) < power:
        n += 1
        if n > _MAX_N:
            raise ValueError("the requested difference needs more than 10 million samples")
    while n > 2 and power_paired(d, sd_diff, n - 1, alpha=alpha) >= power:
        n -= 1
    return PlanResult(
        goal=f"detect a difference of {d:g} between two versions (paired)",
        n=n,
        inputs=inputs,
        method="paired t-test, power from the noncentral t distribution",
        achieved={"power": power_paired(d, sd_diff, n, alpha=alpha)},
    )


@dataclass(frozen=True, slots=True)
class RuleOfThumb:
    """One of the seeds' rules, what it claims, and the assumption under which the formulas agree."""

    rule: str
    claims_n: str
    holds_when: str
    check: PlanResult

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "claims_n": self.claims_n, "holds_when": self.holds_when,
                "check": self.check.to_dict()}


def rules_of_thumb(*, level: float = 0.95, alpha: float = 0.05, power: float = 0.8) -> list[RuleOfThumb]:
    """The seeds' rules of thumb, each with the computed n under the assumption that makes it true."""
    hw = n_for_half_width(0.15, 0.05, level=level)
    # SD of differences at which 85 paired questions detect 0.05 with the given power.
    sd85 = math.floor(_sd_diff_for_n(0.05, 85, alpha=alpha, power=power) * 1000) / 1000
    diff = n_for_difference(0.05, sd85, alpha=alpha, power=power)
    rho = 1 - sd85**2 / (2 * 0.15**2)
    pr = n_for_proportion(0.8, 0.05, level=level)
    return [
        RuleOfThumb(
            "30-50 questions give about +-0.05", "30-50",
            f"only when the per-question SD is about 0.15 (then n = {hw.n}); the n needed grows with SD^2: "
            f"SD 0.30 needs {n_for_half_width(0.30, 0.05, level=level).n}, SD 0.10 needs "
            f"{n_for_half_width(0.10, 0.05, level=level).n}",
            hw,
        ),
        RuleOfThumb(
            "85+ questions to compare two versions", "85+",
            f"when the goal is a 0.05 difference at power {power:g} and the SD of per-question differences is "
            f"about {sd85:.3f} (e.g. per-run SD 0.15 and a correlation of {rho:.2f} between the runs); "
            f"smaller differences or noisier metrics need far more (n grows with (SD/d)^2)",
            diff,
        ),
        RuleOfThumb(
            "a binary pass rate near 0.8 needs ~250 for +-0.05", "~250",
            "when the pass rate is near 0.8 (p(1-p) = 0.16); near 0.5 it needs "
            f"{n_for_proportion(0.5, 0.05, level=level).n}, near 0.95 only "
            f"{n_for_proportion(0.95, 0.05, level=level).n}",
            pr,
        ),
    ]


def _sd_diff_for_n(difference: float, n: int, *, alpha: float, power: float) -> float:
    from scipy.optimize import brentq

    return float(brentq(lambda s: power_paired(difference, s, n, alpha=alpha) - power, 1e-6, 10.0, xtol=1e-10))
