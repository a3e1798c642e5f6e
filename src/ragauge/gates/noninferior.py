"""Gates against a baseline run: ``non_inferior`` (a regression test, the default) and ``non_inferior_strict``.

Both pair the samples the two runs share by id (pairs unscored in either run are dropped and counted) and
orient the change so that > 0 is better, whatever the metric's direction.

- ``non_inferior`` (the default comparison with a baseline; what ``pytest --ragauge-baseline`` adds to every
  threshold): **fails only on a shown regression**, when the one-sided ``1 - alpha`` *upper* confidence
  bound of the improvement is below ``-margin`` (:func:`ragauge.stats.regression.regression_test`). An
  unchanged system passes at any n; a real drop fails once the sample shows it. A gate catches
  regressions; it does not certify that the new run is as good (that needs far more samples).
- ``non_inferior_strict``: **must prove** the new run within the margin, the one-sided *lower* bound above
  ``-margin`` (:func:`ragauge.stats.non_inferiority.non_inferiority`). Identical runs of scores in [0, 1]
  pass it only from ``ln(alpha) / ln(1 - margin)`` pairs on (149 at a margin of 0.02, rule of three).

The absolute threshold of the profile is reported beside either, for reference; it does not decide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .profiles import Threshold

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.summary import MetricSummary
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


def _signed(x: float, unit: str | None) -> str:
    return f"{x:+.0f} {unit}" if unit == "ms" else f"{x:+.3f}"


def check_non_inferior(
    th: Threshold,
    s: "MetricSummary",
    baseline: BaselineScores | None,
    *,
    margin: float,
    margin_origin: str,
    profile: str,
) -> "GateResult":
    from ..stats.non_inferiority import _in_unit_range, identical_runs_min_n, non_inferiority
    from ..stats.regression import regression_test
    from .check import _WORDS, GateResult
    from .compare import meets

    name, unit = s.spec.name, s.spec.unit
    lo, hi = (s.ci.low, s.ci.high) if s.ci else (None, None)
    m_txt = f"{margin:g}" + (f" {unit}" if unit else "")

    def result(status: str, reason: str, detail: dict | None = None) -> GateResult:
        return GateResult(name, th.op, th.value, th.mode, status, reason, s.value, lo, hi, margin, detail)

    if baseline is None:
        return GateResult(name, th.op, th.value, th.mode, "skipped",
                          f"{name} is gated {th.mode}, which needs a baseline run: pass --baseline "
                          "BASE/results.json (evaluate(..., baseline=...)); not checked", s.value, lo, hi, margin)
    pairing = baseline.pairing(name)
    if pairing is None:
        return result("fail", f"{name} cannot be compared: the baseline {baseline.source} has no {name} scores; "
                              f"re-run the baseline with this metric (profile {profile}, {th.mode})")
    if pairing.n < 2:
        return result("fail", f"{name}: only {pairing.n} sample(s) are scored in both runs, too few to show that "
                              f"the new run is not worse than {baseline.source} (profile {profile}, {th.mode})")
    from ..stats.intervals import aggregate

    strict = th.mode == "non_inferior_strict"
    base_v, new_v = aggregate(pairing.base, s.spec.percentile), aggregate(pairing.new, s.spec.percentile)
    head = (f"{name} = {_f(new_v, unit)} vs baseline {_f(base_v, unit)} on {pairing.n} paired samples "
            f"(change {new_v - base_v:+.4g})")
    args = dict(higher_is_better=s.spec.higher_is_better, percentile=s.spec.percentile,
                n_resamples=baseline.n_resamples, seed=baseline.seed)
    if strict:
        r = non_inferiority(pairing.base, pairing.new, margin, ALPHA, **args)
        ok, test = r.non_inferior, f"strict non-inferiority, {r.method}"
        worst = None if r.lower_bound is None else -float(r.lower_bound)  # how much worse it may plausibly be
        bound = f"one-sided {1 - ALPHA:.0%} lower bound, {r.method}, p = {r.p_value:.3g}"
        if ok:
            at_worst = f"at worst {_f(worst, unit)} worse" if worst > 0 else f"at least {_f(-worst, unit)} better"
            what = f"shown to be within the margin {m_txt} of the baseline: {at_worst} ({bound})"
        else:
            how_bad = f"it may be up to {_f(worst, unit)} worse" if worst is not None else "no bound on how much worse"
            unit_range = _in_unit_range(pairing.base, pairing.new)
            need = identical_runs_min_n(margin, ALPHA) if unit_range else None
            size = (f"; strict mode must prove the margin: even identical runs pass it only from n = {need} "
                    f"paired samples (rule of three at margin {margin:g}); use mode non_inferior to catch "
                    "regressions instead" if need is not None and pairing.n < need else "")
            what = f"not shown to be within the margin {m_txt} of the baseline: {how_bad} ({bound}){size}"
        detail = dict(r.to_dict(), test="non-inferiority (strict)")
    else:
        r2 = regression_test(pairing.base, pairing.new, margin, ALPHA, **args)
        ok, test = not r2.regressed, f"regression test, {r2.method}"
        ub = "none" if r2.upper_bound is None else _signed(r2.upper_bound, unit)
        why = (f"the one-sided {1 - ALPHA:.0%} upper bound of the improvement (> 0 is better), {ub}, is "
               f"{'below' if r2.regressed else 'not below'} -{m_txt} ({r2.method}, p = {r2.p_value:.3g})")
        if r2.regressed:
            what = f"a regression: significantly worse than the baseline by more than the margin {m_txt}: {why}"
        else:
            what = f"no regression beyond the margin {m_txt} shown: {why}"
        detail = r2.to_dict()
    bar = "meets" if meets(s.value, th.op, th.value) else "misses"  # value is not None here (pairs exist)
    tail = (f"; for reference it {bar} the absolute bar {_WORDS[th.op]} {th.value:g} "
            f"(profile {profile}, {th.mode} vs {baseline.source}: {test}; margin from {margin_origin})")
    detail = dict(detail, baseline=baseline.source, baseline_value=base_v, new_value=new_v,
                  margin_origin=margin_origin, dropped=pairing.dropped())
    return result("pass" if ok else "fail", f"{head}: {what}{tail}", detail)
