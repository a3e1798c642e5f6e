"""The overview's numbers: metric tiles against a profile, rolling means, and a version comparison.

No statistics of its own: a tile is :func:`ragauge.engine.summary.summarise` over the stored values (the
same aggregate and interval as ``ragauge eval``) checked by :func:`ragauge.gates.check.check_threshold` in
``confident`` terms (pass / fail decided on the point value, and whether the CI lies entirely on one side);
the comparison pairs two versions by question and calls :func:`ragauge.stats.paired.compare_scores`,
Holm-corrected across the metrics.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np

from ...engine.summary import CIConfig, summarise
from ...metrics.summary import MetricSummary
from ...gates.check import check_threshold
from ...gates.profiles import Profile, Threshold
from ...metrics.column import ScoreColumn
from ...metrics.registry import parse_metric
from ...stats.paired import PairedResult, compare_scores, holm
from ..llm_scoring import base_metric, llm_metric

JUDGE_METRICS = ("faithfulness", "answer_relevancy", "context_precision")
TIMING_METRICS = ("latency_p50", "latency_p95", "latency_p99", "retrieval_p95", "ttft_p95")
#: the sample field each timing tile summarises
_TIMING_FIELD = {"latency": "latency_ms", "retrieval": "retrieval_ms", "ttft": "ttft_ms"}


@dataclass(frozen=True)
class Tile:
    metric: str
    summary: MetricSummary
    threshold: Threshold | None
    #: pass | fail | unsure (passes, CI crosses) | near (fails, CI crosses) | none (no value or no threshold)
    status: str
    trend: list[float]
    unit: str | None


def column(metric: str, rows: Sequence[dict[str, Any]]) -> ScoreColumn:
    """The stored values of ``metric`` over ``rows`` as a :class:`ScoreColumn` (unscored with the reason).
    ``faithfulness:llm`` is the LLM judge's value on the sampled share (:mod:`ragauge.serve.llm_scoring`)."""
    spec = parse_metric(base_metric(metric)[0])
    if spec.family == "operational":
        field = _TIMING_FIELD[spec.base]
        values = [r.get(field) for r in rows]
        return ScoreColumn([None if v is None else float(v) for v in values],
                           [None if v is not None else f"{field} not measured" for v in values])
    vals: list[float | None] = []
    reasons: list[str | None] = []
    for r in rows:
        s = r["scores"].get(metric)
        if s is None:
            vals.append(None)
            reasons.append("not scored yet")
        elif s["value"] is None:
            vals.append(None)
            reasons.append(s["reason"] or "unscored")
        else:
            vals.append(float(s["value"]))
            reasons.append(None)
    return ScoreColumn(vals, reasons)


def rolling_mean(values: Sequence[float], width: int) -> list[float]:
    """Trailing mean over ``width`` values (shorter at the start).

    >>> rolling_mean([1.0, 0.0, 1.0, 1.0], 2)
    [1.0, 0.5, 0.5, 1.0]
    """
    if width < 1:
        raise ValueError(f"width must be >= 1, got {width}")
    out: list[float] = []
    csum = np.concatenate([[0.0], np.cumsum(np.asarray(values, dtype=np.float64))])
    for i in range(1, len(values) + 1):
        lo = max(0, i - width)
        out.append(float((csum[i] - csum[lo]) / (i - lo)))
    return out


def _status(summary: MetricSummary, th: Threshold | None, profile: Profile) -> str:
    if th is None or summary.value is None:
        return "none"
    point = check_threshold(replace(th, mode="point"), {summary.spec.name: summary}, profile=profile.name)
    if summary.ci is None:  # too few values for an interval: the point decides (the tile says why)
        return point.status if point.status in ("pass", "fail") else "none"
    sure = check_threshold(replace(th, mode="confident"), {summary.spec.name: summary}, profile=profile.name)
    if point.status == "pass":
        return "pass" if sure.status == "pass" else "unsure"
    # failing: is the whole interval on the wrong side too?
    ci = summary.ci
    if ci is None:  # pragma: no cover - handled above
        return "fail"
    other = ci.high if th.op in (">=", ">") else ci.low
    crosses = (other >= th.value) if th.op in (">=", ">") else (other <= th.value)
    return "near" if crosses else "fail"


def threshold_for(profile: Profile | None, metric: str) -> Threshold | None:
    if profile is None:
        return None
    return next((th for th in profile.thresholds if metric in th.metrics), None)


def tiles(rows: Sequence[dict[str, Any]], profile: Profile | None, *, trend_width: int = 20,
          ci: CIConfig = CIConfig()) -> list[Tile]:
    """One tile per judge metric and timing over ``rows`` (oldest first), and one per judge metric the LLM
    judge scored on a sample (``faithfulness:llm``), when any row has it: only the sampled rows count."""
    out = []
    llm = [llm_metric(m) for m in JUDGE_METRICS if any(llm_metric(m) in r["scores"] for r in rows)]
    for metric in JUDGE_METRICS + tuple(llm) + TIMING_METRICS:
        spec = parse_metric(base_metric(metric)[0])
        col = column(metric, [r for r in rows if metric in r["scores"]] if metric in llm else rows)
        summary = summarise(spec, col, ci)
        th = threshold_for(profile, base_metric(metric)[0])
        scored = [v for v in col.values if v is not None]
        trend = rolling_mean(scored, trend_width) if spec.family != "operational" else []
        status = _status(summary, th, profile) if profile is not None else "none"
        out.append(Tile(metric, summary, th, status, trend, spec.unit))
    return out


def question_key(text: str | None) -> str:
    """Questions match across versions after Unicode normalisation, case folding and collapsed spaces.

    >>> question_key("  Сколько  СТОИТ?\\n") == question_key("сколько стоит?")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def per_question(metric: str, rows: Sequence[dict[str, Any]]) -> dict[str, float | None]:
    """``{question: mean score}`` (a question asked several times averages its scored values; None when
    none of its traces was scored)."""
    col = column(metric, rows)
    acc: dict[str, list[float]] = {}
    for r, v in zip(rows, col.values):
        key = question_key(r.get("question"))
        if not key:
            continue
        acc.setdefault(key, [])
        if v is not None:
            acc[key].append(v)
    return {k: (float(np.mean(v)) if v else None) for k, v in acc.items()}


@dataclass(frozen=True)
class Comparison:
    metric: str
    paired: PairedResult | None  #: None when no question was asked in both versions
    mean_a: float | None
    mean_b: float | None


def compare_versions(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], *,
                     seed: int = 0) -> list[Comparison]:
    """Version a (base) vs b (new) per judge metric, paired by question; Holm across the metrics."""
    maps = {m: (per_question(m, rows_a), per_question(m, rows_b)) for m in JUDGE_METRICS}

    def paired(metric: str, p_adjusted: float | None = None) -> PairedResult | None:
        a, b = maps[metric]
        if not set(a) & set(b):
            return None
        return compare_scores(a, b, allow_intersection=True, metric=metric, seed=seed, p_adjusted=p_adjusted,
                              higher_is_better=parse_metric(metric).higher_is_better)

    raw = {m: paired(m) for m in JUDGE_METRICS}
    adjusted = holm([r.p_value if r is not None else None for r in raw.values()])
    out = []
    for (metric, res), p_adj in zip(raw.items(), adjusted):
        final = paired(metric, p_adj) if res is not None and p_adj is not None else res
        out.append(Comparison(metric, final, _mean(column(metric, rows_a)), _mean(column(metric, rows_b))))
    return out


def _mean(col: ScoreColumn) -> float | None:
    vals = col.scored()
    return float(vals.mean()) if vals.size else None


@dataclass(frozen=True)
class Agreement:
    """How one judge metric agrees with the users' thumbs over the requests that have both."""

    metric: str
    n_up: int
    n_down: int
    mean_up: float | None
    mean_down: float | None
    spearman: Any  #: :class:`ragauge.stats.agreement.CorrelationResult` (estimate None: too few or no spread)
    threshold: Any  #: :class:`ragauge.stats.agreement.ThresholdResult`: the cut that best separates them


def feedback_agreement(rows: Sequence[dict[str, Any]], feedback: dict[str, list[dict[str, Any]]], *,
                       seed: int = 0) -> list[Agreement]:
    """Judge score vs feedback (a request's thumbs summed: > 0 up, < 0 down, 0 left out), per judge metric:
    the mean score of each side, Spearman with a bootstrap CI and the best threshold by balanced accuracy
    (:mod:`ragauge.stats.agreement`, the calibration of ``ragauge calibrate``)."""
    from ...stats.agreement import best_threshold, correlations

    votes = {tid: sum(int(f.get("rating") or 0) for f in items) for tid, items in feedback.items()}
    out = []
    for metric in JUDGE_METRICS:
        scores, labels = [], []
        for r, v in zip(rows, column(metric, rows).values):
            vote = votes.get(r["id"], 0)
            if v is not None and vote != 0:
                scores.append(v)
                labels.append(1.0 if vote > 0 else 0.0)
        if not scores:
            continue
        s, y = np.asarray(scores), np.asarray(labels)
        up, down = s[y == 1], s[y == 0]
        corr = correlations(s, y, methods=("spearman",), seed=seed)["spearman"]
        out.append(Agreement(metric, int(up.size), int(down.size), float(up.mean()) if up.size else None,
                             float(down.mean()) if down.size else None, corr, best_threshold(scores, [v == 1.0 for v in labels])))
    return out
