"""Slice checks of one run: which slices are significantly below the rest ("hidden breakage").

The statistics are :func:`ragauge.stats.slices.check_slices`; this module picks the metrics (the gated
mean metrics, or every mean metric when no profile is checked), runs the checks and writes the alarm
records with their sentence for results.json (``alarms``) and the per-slice ``checks``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..gates.check import GateResult
from ..metrics.column import ScoreColumn
from ..metrics.spec import MetricSpec
from ..stats.slices import SliceCheck, check_slices
from .summary import MetricSummary

MIN_SLICE_N = 5
ALPHA = 0.05
_WORDS = {">=": "at least", ">": "above", "<=": "at most", "<": "below"}
_OPS = {">=": float.__ge__, ">": float.__gt__, "<=": float.__le__, "<": float.__lt__}


def checked_metrics(specs: Sequence[MetricSpec], summary: Mapping[str, MetricSummary],
                    gates: Sequence[GateResult] | None) -> list[str]:
    """Gated mean metrics with a value; every mean metric when there are no gates (no profile)."""
    means = {s.name for s in specs if s.percentile is None and summary[s.name].value is not None}
    if gates is None:
        return [s.name for s in specs if s.name in means]
    return list(dict.fromkeys(g.metric for g in gates if g.status != "skipped" and g.metric in means))


def run_slice_checks(
    tags: Mapping[str, Sequence[int]],
    specs: Sequence[MetricSpec],
    columns: Mapping[str, ScoreColumn],
    metrics: Sequence[str],
    *,
    min_n: int = MIN_SLICE_N,
    seed: int = 0,
) -> list[SliceCheck]:
    by_name = {s.name: s for s in specs}
    return check_slices({m: columns[m].values for m in metrics},
                        {m: by_name[m].higher_is_better for m in metrics}, tags,
                        min_n=min_n, alpha=ALPHA, seed=seed)


def _f(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def alarm_record(c: SliceCheck, slice_summary: MetricSummary, gate: GateResult | None) -> dict[str, Any]:
    """One alarm for results.json, with the sentence that says what is broken and by how much."""
    ci = slice_summary.ci
    ci_txt = f", 95% CI {ci.low:.3f}–{ci.high:.3f}" if ci else ""
    text = (f"Slice '{c.slice}' is significantly below the rest on {c.metric}: {_f(c.value)} (n = {c.n}{ci_txt}) "
            f"vs {_f(c.rest_value)} on the other {c.n_rest} samples (difference {c.difference:+.3f}; "
            f"{c.method}, p = {c.p_value:.2g}, Holm-adjusted {c.p_adjusted:.2g})")
    meets = None
    threshold = None
    if gate is not None and gate.status in ("pass", "fail"):
        threshold = {"op": gate.op, "value": gate.threshold, "mode": gate.mode}
        want = f"{_WORDS.get(gate.op, gate.op)} {gate.threshold:g}"
        if c.value is not None and gate.op in _OPS:
            meets = bool(_OPS[gate.op](float(c.value), float(gate.threshold)))
        overall = "passes" if gate.status == "pass" else "fails"
        text += f", while the overall gate {overall} ({_f(gate.value)}, {want})"
        if meets is not None:
            text += "; the slice itself " + ("meets the bar" if meets else "misses the bar")
    text += "."
    out = c.to_dict()
    out.update(ci=ci.to_dict() if ci else None, threshold=threshold, slice_meets_threshold=meets,
               overall_gate=gate.status if gate else None, text=text)
    return out


def build_alarms(
    checks: Sequence[SliceCheck],
    slices: Mapping[str, Mapping[str, Any]],
    gates: Sequence[GateResult],
) -> list[dict[str, Any]]:
    gate_of = {g.metric: g for g in gates}
    alarms = [alarm_record(c, slices[c.slice]["summary"][c.metric], gate_of.get(c.metric))
              for c in checks if c.status == "alarm"]
    return sorted(alarms, key=lambda a: (a["p_adjusted"], a["metric"], a["slice"]))
