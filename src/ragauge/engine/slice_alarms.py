"""Slice checks of one run: which slices are significantly below the rest ("hidden breakage").

The statistics are :func:`ragauge.stats.slices.check_slices`; this module picks the metrics (the gated
mean metrics, or every mean metric when no profile is checked), runs the checks and writes the alarm
records with their sentence for results.json (``alarms``) and the per-slice ``checks``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..gates.check import GateResult
from ..gates.compare import meets_or_unknown
from ..metrics.column import ScoreColumn
from ..metrics.spec import MetricSpec
from ..stats.slices import SliceCheck, check_slices
from .summary import MetricSummary

MIN_SLICE_N = 5
ALPHA = 0.05


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


def alarm_record(c: SliceCheck, slice_summary: MetricSummary, gate: GateResult | None) -> dict[str, Any]:
    """One alarm for results.json, with the sentence that says what is broken and by how much.

    The sentence is :func:`ragauge.report.common.alarm_sentence` of the record (English here; a report in
    Russian rebuilds it from the same numbers)."""
    from ..report.common import alarm_sentence

    ci = slice_summary.ci
    meets = None
    threshold = None
    if gate is not None and gate.status in ("pass", "fail"):
        threshold = {"op": gate.op, "value": gate.threshold, "mode": gate.mode}
        if c.value is not None:
            meets = meets_or_unknown(float(c.value), gate.op, float(gate.threshold))
    out = c.to_dict()
    out.update(ci=ci.to_dict() if ci else None, threshold=threshold, slice_meets_threshold=meets,
               overall_gate=gate.status if gate else None,
               overall_value=gate.value if gate is not None and gate.status in ("pass", "fail") else None)
    out["text"] = alarm_sentence(out, "en")
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
