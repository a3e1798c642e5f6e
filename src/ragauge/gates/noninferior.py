"""The ``non_inferior`` gate mode: the new run is not worse than a baseline run by more than a margin.

Decided by the one-sided paired test of :func:`ragauge.stats.paired.non_inferiority` on the samples the
two runs share (paired by id; pairs unscored in either run are dropped and counted). The gate passes
when the one-sided ``1 - alpha`` lower confidence bound of the improvement (oriented so that > 0 is
better, whatever the metric's direction) is above ``-margin``. The absolute threshold of the profile is
reported beside it, for reference; it does not decide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .profiles import Threshold

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.summary import MetricSummary
    from ..stats.pairing import Pairing
    from .check import GateResult

#: Margin used when neither the threshold, the caller (``--margin``) nor the profile sets one:
#: 0.02 on a 0-1 score; 100 ms on a timing (a 0.02 ms margin would fail on noise).
DEFAULT_MARGIN = 0.02
DEFAULT_MARGIN_MS = 100.0
ALPHA = 0.05


class BaselineScores(Protocol):
    """What the checker needs from a baseline run (``engine.baseline.BaselineRun`` implements it)."""

    source: str
    seed: int
    n_resamples: int

    def pairing(self, metric: str) -> "Pairing | None":
        """Scores of ``metric`` paired by id with this run's, or ``None`` when the baseline lacks it."""


def resolve_margin(
    th: Threshold, *, cli: float | None, profile: float | None, unit: str | None = None
) -> tuple[float, str]:
    """The margin and where it came from: the threshold's own, else the caller's, else the profile's,
    else :data:`DEFAULT_MARGIN` (:data:`DEFAULT_MARGIN_MS` for metrics in milliseconds)."""
    for value, origin in ((th.margin, "threshold"), (cli, "--margin"), (profile, "profile")):
        if value is not None:
            return float(value), origin
    return (DEFAULT_MARGIN_MS if unit == "ms" else DEFAULT_MARGIN), "default"


def _f(x: float, unit: str | None) -> str:
    return f"{x:.0f} {unit}" if unit == "ms" else f"{x:.3f}"


def check_non_inferior(
    th: Threshold,
    s: "MetricSummary",
    baseline: BaselineScores | None,
    *,
    margin: float,
    margin_origin: str,
    profile: str,
) -> "GateResult":
    from ..stats.non_inferiority import non_inferiority
    from .check import _OPS, _WORDS, GateResult

    name, unit = s.spec.name, s.spec.unit
    lo, hi = (s.ci.low, s.ci.high) if s.ci else (None, None)
    m_txt = f"{margin:g}" + (f" {unit}" if unit else "")

    def result(status: str, reason: str, detail: dict | None = None) -> GateResult:
        return GateResult(name, th.op, th.value, th.mode, status, reason, s.value, lo, hi, margin, detail)

    if baseline is None:
        return GateResult(name, th.op, th.value, th.mode, "skipped",
                          f"{name} is gated non_inferior, which needs a baseline run: pass --baseline "
                          "BASE/results.json (evaluate(..., baseline=...)); not checked", s.value, lo, hi, margin)
    pairing = baseline.pairing(name)
    if pairing is None:
        return result("fail", f"{name} cannot be compared: the baseline {baseline.source} has no {name} scores; "
                              f"re-run the baseline with this metric (profile {profile}, non_inferior)")
    if pairing.n < 2:
        return result("fail", f"{name}: only {pairing.n} sample(s) are scored in both runs, too few to show that "
                              f"the new run is not worse than {baseline.source} (profile {profile}, non_inferior)")
    r = non_inferiority(pairing.base, pairing.new, margin, ALPHA, higher_is_better=s.spec.higher_is_better,
                        percentile=s.spec.percentile, n_resamples=baseline.n_resamples, seed=baseline.seed)
    from ..stats.intervals import aggregate

    base_v, new_v = aggregate(pairing.base, s.spec.percentile), aggregate(pairing.new, s.spec.percentile)
    # how much worse the new run may plausibly be (negative: surely better; None: no bound can be given)
    worst = None if r.lower_bound is None else -float(r.lower_bound)
    head = (f"{name} = {_f(new_v, unit)} vs baseline {_f(base_v, unit)} on {pairing.n} paired samples "
            f"(change {new_v - base_v:+.4g})")
    bound = f"one-sided {1 - ALPHA:.0%} bound, {r.method}, p = {r.p_value:.3g}"
    if r.non_inferior:
        at_worst = f"at worst {_f(worst, unit)} worse" if worst > 0 else f"at least {_f(-worst, unit)} better"
        what = f"not worse than the baseline by more than the margin {m_txt}: {at_worst} ({bound})"
    else:
        how_bad = f"it may be up to {_f(worst, unit)} worse" if worst is not None else "no bound on how much worse"
        what = f"not shown to be within the margin {m_txt} of the baseline: {how_bad} ({bound})"
    bar = "meets" if _OPS[th.op](s.value, th.value) else "misses"  # value is not None here (pairs exist)
    tail = (f"; for reference it {bar} the absolute bar {_WORDS[th.op]} {th.value:g} "
            f"(profile {profile}, non_inferior vs {baseline.source}, margin from {margin_origin})")
    detail = dict(r.to_dict(), baseline=baseline.source, baseline_value=base_v, new_value=new_v,
                  margin_origin=margin_origin, dropped=pairing.dropped())
    return result("pass" if r.non_inferior else "fail", f"{head}: {what}{tail}", detail)
