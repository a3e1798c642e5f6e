"""Ranking metrics over ``retrieved_ids`` (ranked as given) and graded ``relevant_ids``.

The formulas live in :mod:`ragauge.scores.ranking` and reproduce trec_eval exactly; this module only
decides which samples can be scored and builds one columnar batch for all ranking metrics at once.

Unscored (never 0, never NaN): a sample without a ranking, without ``relevant_ids``, or whose
``relevant_ids`` hold no grade >= 1 (an unanswerable question has nothing to find; trec_eval would
count it as 0 — use ``ragauge trec-eval`` for that convention).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from ..data.schema import Sample
from ..errors import ConfigError
from .column import ScoreColumn
from .registry import MetricDef
from .spec import MetricSpec

if TYPE_CHECKING:  # scores.ranking is imported when a batch is scored
    from ..scores._columns import FloatArray, RankingBatch

FAMILY = "ranking"
_REQ = ("retrieved_ids", "relevant_ids")

DEFINITIONS = [
    MetricDef("hit_rate", FAMILY, "1 if at least one relevant document is in the top {k}, else 0 (trec_eval success_{k}).",
              param="k", param_required=True, aliases=("success", "hit", "hitrate"), requires=_REQ),
    MetricDef("recall", FAMILY, "Relevant documents found in the top {k} / all relevant documents (trec_eval recall_{k}).",
              param="k", param_required=True, aliases=("r",), requires=_REQ),
    MetricDef("precision", FAMILY, "Relevant documents in the top {k} / {k}, also when fewer were retrieved (trec_eval P_{k}).",
              param="k", param_required=True, aliases=("p",), requires=_REQ),
    MetricDef("mrr", FAMILY, "Reciprocal rank of the first relevant document{cut}; 0 if none (trec_eval recip_rank without a cutoff).",
              param="k", aliases=("recip_rank", "rr", "reciprocal_rank"), requires=_REQ),
    MetricDef("ndcg", FAMILY, "Normalised discounted cumulative gain{cut}, gain = relevance grade, log2 discount (trec_eval ndcg / ndcg_cut_{k}).",
              param="k", aliases=("ndcg_cut",), requires=_REQ),
    MetricDef("ndcg_exp", FAMILY, "NDCG{cut} with exponential gain 2^grade - 1 (Burges et al. 2005), log2 discount.",
              param="k", requires=_REQ),
    MetricDef("map", FAMILY, "Average precision{cut}: mean of precision at each relevant document retrieved, over all relevant documents (trec_eval map / map_cut_{k}).",
              param="k", aliases=("ap", "average_precision", "map_cut"), requires=_REQ),
    MetricDef("r_precision", FAMILY, "Precision at rank R, R = number of relevant documents (trec_eval Rprec).",
              aliases=("rprec", "r_prec"), requires=_REQ),
]


def unscored_reason(sample: Sample) -> str | None:
    """Why a sample cannot be scored by ranking metrics, or ``None`` if it can."""
    if sample.ranking is None:
        return "no retrieved_ids (and contexts carry no ids)"
    if sample.relevant_ids is None:
        return "no relevant_ids"
    if not any(g >= 1 for g in sample.relevant_ids.values()):
        return "no relevant document (grade >= 1)"
    return None


def _cutoff(spec: MetricSpec) -> int:
    """The ``k`` of a metric that needs one (hit_rate, recall, precision), with a clear error when a
    hand-built spec lacks it (``parse_metric`` never builds one without it)."""
    k = spec.params.get("k")
    if k is None:
        raise ConfigError(f"metric {spec.name!r} needs a cutoff k: build it with "
                          f"parse_metric('{spec.base}@10') (or another k), not a spec without params={{'k': ...}}")
    return int(k)


def _kernel(spec: MetricSpec, batch: RankingBatch) -> FloatArray:
    from ..scores import ranking as r

    k = spec.params.get("k")
    base = spec.base
    if base == "hit_rate":
        return r.hit_rate(batch, _cutoff(spec))
    if base == "recall":
        return r.recall(batch, _cutoff(spec))
    if base == "precision":
        return r.precision(batch, _cutoff(spec))
    if base == "mrr":
        return r.reciprocal_rank(batch, k)
    if base == "ndcg":
        return r.ndcg(batch, k, gain="linear")
    if base == "ndcg_exp":
        return r.ndcg(batch, k, gain="exponential")
    if base == "map":
        return r.average_precision(batch, k)
    if base == "r_precision":
        return r.r_precision(batch)
    raise KeyError(base)  # pragma: no cover - registry and kernel table out of sync


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> dict[str, ScoreColumn]:
    from ..scores.ranking import build_batch

    reasons = [unscored_reason(s) for s in samples]
    idx = [i for i, r in enumerate(reasons) if r is None]
    out: dict[str, ScoreColumn] = {}
    batch = None
    if idx:
        rankings: list[Sequence[str]] = []
        relevants: list[Mapping[str, float]] = []
        for i in idx:
            ranking, relevant = samples[i].ranking, samples[i].relevant_ids
            assert ranking is not None and relevant is not None  # unscored_reason() let only these through
            rankings.append(ranking)
            relevants.append(relevant)
        batch = build_batch(rankings, relevants)
    for spec in specs:
        full = np.zeros(len(samples), dtype=np.float64)
        if batch is not None:
            full[idx] = _kernel(spec, batch)
        out[spec.name] = ScoreColumn.from_arrays(full, reasons)
    return out
