"""Check a profile's thresholds against a run's summaries: one checker for the CLI, the library and CI.

Modes:
- ``point``: the aggregate itself meets the threshold.
- ``confident``: the whole 95% CI is on the right side (the lower bound for ``>=``/``>``, the upper
  bound for ``<=``/``<``), so the pass is not an accident of a small sample.
- ``non_inferior``: against a baseline run, the new run is not worse by more than a margin (one-sided
  paired test; :mod:`ragauge.gates.noninferior`). Without a baseline such a gate is ``skipped``.
A gate whose metric was not evaluated in this run is ``skipped`` (shown, not counted); one whose
metric has no value (every sample unscored) is ``unscored`` and does not pass.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from ..engine.summary import MetricSummary
from .profiles import Profile, Threshold

if TYPE_CHECKING:  # pragma: no cover
    from .noninferior import BaselineScores

_OPS = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt}
_WORDS = {">=": "at least", ">": "above", "<=": "at most", "<": "below"}


@dataclass(frozen=True, slots=True)
class GateResult:
    metric: str
    op: str
    threshold: float
    mode: str
    status: str  # pass | fail | unscored | skipped
    reason: str
    value: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    margin: float | None = None  #: non_inferior only
    non_inferiority: dict[str, Any] | None = None  #: non_inferior only: the test's numbers

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def to_dict(self) -> dict[str, Any]:
        out = {
            "metric": self.metric, "op": self.op, "threshold": self.threshold, "value": self.value,
            "ci_low": self.ci_low, "ci_high": self.ci_high, "mode": self.mode, "status": self.status,
            "reason": self.reason,
        }
        if self.mode == "non_inferior":
            out["margin"] = self.margin
            out["non_inferiority"] = self.non_inferiority
        return out


def _fmt(x: float, unit: str | None) -> str:
    return f"{x:.0f} {unit}" if unit == "ms" else f"{x:.3f}"


def check_threshold(
    th: Threshold,
    summaries: Mapping[str, MetricSummary],
    *,
    profile: str,
    baseline: "BaselineScores | None" = None,
    margin: float | None = None,
    profile_margin: float | None = None,
) -> GateResult:
    name = next((m for m in th.metrics if m in summaries), None)
    if name is None:
        what = " or ".join(th.metrics)
        return GateResult(th.label, th.op, th.value, th.mode, "skipped",
                          f"{what} was not evaluated in this run (add it with --metrics)")
    s = summaries[name]
    unit = s.spec.unit
    want = f"{_WORDS[th.op]} {th.value:g}" + (f" {unit}" if unit else "")
    lo = s.ci.low if s.ci else None
    hi = s.ci.high if s.ci else None
    if s.value is None:
        return GateResult(name, th.op, th.value, th.mode, "unscored",
                          f"{name} has no value: all {s.n_unscored} samples are unscored; it must be {want}")
    if th.mode == "non_inferior":
        from .noninferior import check_non_inferior, resolve_margin

        m, origin = resolve_margin(th, cli=margin, profile=profile_margin, unit=unit)
        return check_non_inferior(th, s, baseline, margin=m, margin_origin=origin, profile=profile)
    ok = _OPS[th.op](s.value, th.value)
    shown = _fmt(s.value, unit)
    # the value stands on the scored samples only: say when some were not
    gone = f"; {s.n_unscored} of {s.n + s.n_unscored} samples unscored" if s.n_unscored else ""
    if th.mode == "point":
        verdict = "meets" if ok else "misses"
        reason = f"{name} = {shown} {verdict} the bar: {want} (profile {profile}, point estimate{gone})"
        return GateResult(name, th.op, th.value, th.mode, "pass" if ok else "fail", reason, s.value, lo, hi)
    # confident: the interval bound on the far side must meet the threshold too
    if s.ci is None:
        return GateResult(name, th.op, th.value, th.mode, "fail",
                          f"{name} = {shown} but n = {s.n} is too small for a confidence interval; "
                          f"a confident gate needs the whole CI {want}", s.value, lo, hi)
    bound = s.ci.low if th.op in (">=", ">") else s.ci.high
    ok_ci = _OPS[th.op](bound, th.value)
    side = "lower" if th.op in (">=", ">") else "upper"
    span = f"{s.ci.level:.0%} CI [{_fmt(s.ci.low, unit)}, {_fmt(s.ci.high, unit)}]"
    if ok_ci:
        reason = f"{name} = {shown}, {span}: the whole interval is {want} (profile {profile}, confident{gone})"
    elif ok:
        reason = (f"{name} = {shown} is {want}, but the {side} CI bound {_fmt(bound, unit)} is not: "
                  f"{span}; more samples or a better system needed (profile {profile}, confident{gone})")
    else:
        reason = f"{name} = {shown} misses the bar: {want}; {span} (profile {profile}, confident{gone})"
    return GateResult(name, th.op, th.value, th.mode, "pass" if ok_ci else "fail", reason, s.value, lo, hi)


def check_gates(
    profile: Profile,
    summaries: Mapping[str, MetricSummary],
    *,
    baseline: "BaselineScores | None" = None,
    margin: float | None = None,
) -> list[GateResult]:
    """Check every threshold. ``baseline`` (paired scores of a baseline run) and ``margin`` (the
    caller's default margin, e.g. ``--margin``) are used by ``non_inferior`` thresholds only."""
    return [check_threshold(th, summaries, profile=profile.name, baseline=baseline, margin=margin,
                            profile_margin=profile.margin) for th in profile.thresholds]


def overall_passed(gates: list[GateResult]) -> bool:
    """Every evaluated gate passed (skipped gates do not count; unscored ones fail)."""
    return all(g.status in ("pass", "skipped") for g in gates)
