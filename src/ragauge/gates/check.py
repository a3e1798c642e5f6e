"""Check a profile's thresholds against a run's summaries: one checker for the CLI, the library and CI.

Modes:
- ``point``: the aggregate itself meets the threshold.
- ``confident``: the whole 95% CI is on the right side (the lower bound for ``>=``/``>``, the upper
  bound for ``<=``/``<``), so the pass is not an accident of a small sample.
- ``non_inferior``: against a baseline run, fails on a shown regression beyond a margin (one-sided paired
  test); ``non_inferior_strict`` must prove the run within the margin (:mod:`ragauge.gates.noninferior`).
  Without a baseline such a gate is ``skipped`` ("waiting for a baseline"), and a profile whose every gate waits
for one fails the ``baseline given`` coverage gate (a CI job that forgets ``--baseline`` must not pass forever).
A gate whose metric was not evaluated in this run is ``skipped`` (shown, not counted); one whose
metric has no value (every sample unscored) is ``unscored`` and does not pass.

A run never passes by accident: when a profile is named but none of its gates could be checked (its
metrics were not evaluated), or every requested metric is unscored, :func:`coverage_gate` adds a failing
gate that says why. A gate decided on fewer than the profile's ``min_samples`` (30) scored samples carries
a warning (``warnings`` and the reason); ``small_sample = "fail"`` makes it fail.

A threshold with a production target (:mod:`ragauge.gates.profiles`) gives its gate ``target`` and
``target_status``: ``met`` or ``missed`` by the point value (``None`` when the metric was not evaluated or has no
value). The status never changes the gate's: a run may pass its CI gates and still be
below target, which is what the seed means by "the gate catches regressions, it does not guarantee
target quality".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Collection, Mapping

from .profiles import Profile, Threshold
from .compare import meets

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.summary import MetricSummary
    from .noninferior import BaselineScores

_WORDS = {">=": "at least", ">": "above", "<=": "at most", "<": "below"}

#: why a gated judge metric was left out when no judge is installed (``judge="auto"`` on a plain install)
NO_JUDGE = ("no judge installed: pip install 'ragauge[offline]' or --judge openai:MODEL@URL "
            "(or a profile without judge metrics)")


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
    margin: float | None = None  #: non_inferior modes only
    non_inferiority: dict[str, Any] | None = None  #: non_inferior modes only: the test's numbers
    n: int | None = None  #: scored samples the gate was decided on (pairs for the baseline modes)
    warnings: tuple[str, ...] = ()  #: e.g. too few samples to be reliable; also at the end of ``reason``
    target: float | None = None  #: the production target (shown, never gating)
    target_op: str | None = None
    target_status: str | None = None  #: met | missed | None (no target, skipped or no value)

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def to_dict(self) -> dict[str, Any]:
        out = {
            "metric": self.metric, "op": self.op, "threshold": self.threshold, "value": self.value,
            "ci_low": self.ci_low, "ci_high": self.ci_high, "mode": self.mode, "status": self.status,
            "reason": self.reason, "n": self.n, "warnings": list(self.warnings),
        }
        if self.mode.startswith("non_inferior"):
            out["margin"] = self.margin
            out["non_inferiority"] = self.non_inferiority
        if self.target is not None:
            out["target"] = {"op": self.target_op, "value": self.target, "status": self.target_status}
        return out

    @property
    def target_met(self) -> bool | None:
        """Whether the point value reaches the production target; ``None`` without a target or a value."""
        return None if self.target_status is None else self.target_status == "met"


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
    min_samples: int | None = None,
    small_sample: str = "warn",
) -> GateResult:
    """Check one threshold. ``min_samples`` (``None``: no check): a pass or fail decided on fewer scored
    samples gets a warning, or fails when ``small_sample == "fail"``. A target is recorded beside the verdict."""
    g = _check_one(th, summaries, profile=profile, baseline=baseline, margin=margin, profile_margin=profile_margin)
    return _with_target(_sized(g, summaries, min_samples, small_sample), th)


def _with_target(g: GateResult, th: Threshold) -> GateResult:
    if th.target is None:
        return g
    status = None
    if g.value is not None:  # a non_inferior gate waiting for a baseline still has its value
        status = "met" if meets(g.value, th.target_op, th.target) else "missed"  # type: ignore[arg-type]
    return replace(g, target=th.target, target_op=th.target_op, target_status=status)


def _sized(g: GateResult, summaries: Mapping[str, MetricSummary], min_samples: int | None, small_sample: str) -> GateResult:
    if g.status not in ("pass", "fail"):
        return g
    n = g.non_inferiority.get("n") if g.non_inferiority else None
    if n is None:
        s = summaries.get(g.metric)
        n = s.n if s is not None else None
    g = replace(g, n=n)
    if not min_samples or n is None or n >= min_samples:
        return g
    return small_sample_gate(g, n, min_samples, small_sample)


def small_sample_gate(g: GateResult, n: int, min_samples: int, policy: str = "warn") -> GateResult:
    """``g`` with the small-sample warning (and, for ``policy="fail"``, failed).

    >>> g = GateResult("mrr@5", ">=", 0.5, "point", "pass", "mrr@5 = 0.800 meets the bar", 0.8)
    >>> small_sample_gate(g, 5, 30).warnings[0][:37]
    'only 5 scored samples (fewer than 30)'
    >>> small_sample_gate(g, 5, 30, "fail").status
    'fail'
    """
    text = (f"only {n} scored samples (fewer than {min_samples}): too few to be reliable; add questions "
            f"(the profile's min_samples sets the bar)")
    reason = f"{g.reason}; WARNING: {text}"
    status = g.status
    if policy == "fail":
        reason += "; fails because the profile sets small_sample = \"fail\""
        status = "fail"
    return replace(g, status=status, reason=reason, warnings=g.warnings + (text,))


def _check_one(
    th: Threshold,
    summaries: Mapping[str, MetricSummary],
    *,
    profile: str,
    baseline: "BaselineScores | None",
    margin: float | None,
    profile_margin: float | None,
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
                          f"{name} has no value: " + ("its only sample is unscored" if s.n_unscored == 1 else
                                                     f"all {s.n_unscored} samples are unscored") + f"; it must be {want}")
    if th.mode in ("non_inferior", "non_inferior_strict"):
        from .noninferior import check_non_inferior, resolve_margin

        m, origin = resolve_margin(th, cli=margin, profile=profile_margin, unit=unit)
        return check_non_inferior(th, s, baseline, margin=m, margin_origin=origin, profile=profile)
    ok = meets(s.value, th.op, th.value)
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
    ok_ci = meets(bound, th.op, th.value)
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
    require_checked: bool = True,
    no_judge: Collection[str] = (),
) -> list[GateResult]:
    """Check every threshold. ``baseline`` (paired scores of a baseline run) and ``margin`` (the
    caller's default margin, e.g. ``--margin``) are used by the ``non_inferior`` modes only.
    ``require_checked``: add :func:`coverage_gate`'s failing gate when nothing could be checked.
    ``no_judge``: labels of thresholds whose judge metric the data could be scored on but no judge is
    installed; such a gate fails (:data:`NO_JUDGE`) instead of being skipped."""
    gates = [check_threshold(th, summaries, profile=profile.name, baseline=baseline, margin=margin,
                             profile_margin=profile.margin, min_samples=profile.min_samples,
                             small_sample=profile.small_sample) for th in profile.thresholds]
    gates = [no_judge_gate(g, th) if g.status == "skipped" and th.label in no_judge else g
             for g, th in zip(gates, profile.thresholds)]
    extra = coverage_gate(profile, summaries, gates, baseline_given=baseline is not None) if require_checked else None
    return gates + ([extra] if extra is not None else [])


def no_judge_gate(g: GateResult, th: Threshold) -> GateResult:
    """The failing gate of a gated judge metric left out because no judge is installed (value ``None``:
    nothing was measured, and a plain install must not pass the profile by dropping its judge metrics)."""
    what = " or ".join(th.metrics)
    return replace(g, status="fail", reason=f"{what} was not evaluated: {NO_JUDGE}")


def check_run(
    profile: Profile | None,
    summaries: Mapping[str, MetricSummary],
    *,
    baseline: "BaselineScores | None" = None,
    margin: float | None = None,
    no_judge: Collection[str] = (),
) -> list[GateResult]:
    """The gates of a run (what decides ``ragauge eval``'s exit code): the profile's, or with no profile
    (``--profile none``) only the failing gate of a run whose every metric is unscored. ``no_judge``: see
    :func:`check_gates`."""
    if profile is not None:
        return check_gates(profile, summaries, baseline=baseline, margin=margin, no_judge=no_judge)
    extra = coverage_gate(None, summaries, [])
    return [extra] if extra is not None else []


def coverage_gate(
    profile: Profile | None, summaries: Mapping[str, MetricSummary], gates: list[GateResult], *,
    baseline_given: bool = False,
) -> GateResult | None:
    """A failing gate when the run checked nothing that could fail, so that CI cannot pass by accident:

    - every requested metric is unscored (whatever the profile, also with none): ``scored metrics = 0``;
    - a profile is named, none of its gates was checked, and some were skipped because their metrics
      were not evaluated (``--metrics`` outside the profile, another ``@k``): ``gates checked = 0``.
    - a profile is named and every gate waits for a baseline (all ``non_inferior``, none given):
      ``baseline given = 0`` ("these gates need a baseline"); this run's results.json can be that baseline.
    ``None`` when some gate was checked.
    """
    if any(g.status != "skipped" for g in gates):
        return None
    name = profile.name if profile is not None else None
    if summaries and all(s.value is None for s in summaries.values()):
        why: dict[str, int] = {}
        for s in summaries.values():
            for r, c in s.unscored_reasons.items():
                why[r] = why.get(r, 0) + c
        top = "; ".join(f"{r} ({c})" for r, c in sorted(why.items(), key=lambda kv: -kv[1])[:3])
        n = max(s.n + s.n_unscored for s in summaries.values())
        reason = (f"nothing was measured: every sample of every requested metric is unscored "
                  f"({', '.join(summaries)}; {n} sample{'' if n == 1 else 's'}" + (f"; reasons: {top}" if top else "") + "), so no "
                  "quality bar can be met; give the fields these metrics need (e.g. relevant_ids, retrieved_ids)"
                  + (f" (profile {name})" if name else " (no profile)"))
        return GateResult("scored metrics", ">=", 1.0, "point", "fail", reason, 0.0, n=n)
    if profile is None:
        return None
    missing = [th.label for th in profile.thresholds if not any(m in summaries for m in th.metrics)]
    if not missing:
        waiting = [g.metric for g in gates if waits_for_baseline(g)]
        if not waiting or baseline_given:
            return None
        reason = (f"these gates need a baseline: pass --baseline BASE/results.json ({', '.join(waiting)} are gated "
                  f"against a baseline run, profile {name}, and none was given; this run's results.json can be the "
                  f"baseline of the next)")
        return GateResult("baseline given", ">=", 1.0, "point", "fail", reason, 0.0)
    shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
    reason = (f"no gate of profile {name} could be checked: its metrics ({shown}) were not evaluated in this "
              f"run, which evaluated {', '.join(summaries) or 'nothing'}; evaluate the profile's metrics "
              f"(leave out --metrics, or match its cutoff with --k), name a profile that gates these metrics, "
              f"or use --profile none (profile=None) to report without gates")
    return GateResult("gates checked", ">=", 1.0, "point", "fail", reason, 0.0)


def waits_for_baseline(g: GateResult | Mapping[str, Any]) -> bool:
    """A ``non_inferior`` gate skipped only because no baseline was given (its metric has a value)."""
    get = g.get if isinstance(g, Mapping) else (lambda k: getattr(g, k))
    return (get("status") == "skipped" and str(get("mode") or "").startswith("non_inferior")
            and get("value") is not None)


def overall_passed(gates: list[GateResult]) -> bool:
    """Every evaluated gate passed (skipped gates do not count; unscored ones fail)."""
    return all(g.status in ("pass", "skipped") for g in gates)
