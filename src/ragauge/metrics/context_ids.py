"""Id-based context precision, recall and F1: which retrieved chunks are the relevant ones.

With R = ids of ``relevant_ids`` with grade >= 1 and C = the ids of the chunks the generator saw (the
contexts' ids when every context has one, else all of ``retrieved_ids``):

    context_precision_ids = mean over the positions i of C holding a relevant chunk of precision@i
                            (rank-weighted, as Ragas' context precision; 0 if none is relevant)
    context_recall_ids    = |C ∩ R| / |R|
    context_f1_ids        = 2 P R / (P + R)    (0 when P + R = 0)
    context_precision_share_ids = |C ∩ R| / |C|  (relevant found / all found, order ignored: seed 001's
                            context precision, RAGChecker's too; its example, 2 relevant of 3, gives 0.67)

These are the judge-free versions of context precision/recall for when chunk ids are known; the
formulas are in :func:`ragauge.scores.context.context_precision_recall_f1`. Unscored as for ranking
metrics, plus precision when no chunk was given.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..data.schema import Sample
from ..scores.context import context_precision_recall_f1
from ..scores.ragchecker import context_precision_share
from .column import ScoreColumn
from .ranking import unscored_reason
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "context_ids"
_REQ = ("retrieved_ids", "relevant_ids")

DEFINITIONS = [
    MetricDef("context_precision_ids", FAMILY, "Rank-weighted share of relevant chunks among those given to the generator (context ids, else retrieved_ids): mean precision@i over the relevant positions.",
              requires=_REQ, aliases=("context_precision_ranked_ids",)),
    MetricDef("context_precision_share_ids", FAMILY, "Share of relevant chunks among those given to the generator, order ignored (relevant found / all found).",
              requires=_REQ),
    MetricDef("context_recall_ids", FAMILY, "Share of the relevant chunks that were given to the generator (context ids, else retrieved_ids).",
              requires=_REQ),
    MetricDef("context_f1_ids", FAMILY, "Harmonic mean of context_precision_ids and context_recall_ids.",
              requires=_REQ),
]


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> dict[str, ScoreColumn]:
    n = len(samples)
    prec, rec, f1, share = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    reasons = [unscored_reason(s) if s.context_ids is not None else "no context ids and no retrieved_ids"
               for s in samples]
    prec_reasons = list(reasons)
    for i, s in enumerate(samples):
        if reasons[i] is not None:
            continue
        relevant = {d for d, g in s.relevant_ids.items() if g >= 1}  # type: ignore[union-attr]
        p, r, f = context_precision_recall_f1(s.context_ids, relevant)  # type: ignore[arg-type]
        if p is None:
            prec_reasons[i] = "nothing retrieved"
        prec[i], rec[i], f1[i] = p or 0.0, r, f
        share[i] = context_precision_share([d in relevant for d in dict.fromkeys(s.context_ids)]) or 0.0  # type: ignore[arg-type]
    table = {
        "context_precision_ids": (prec, prec_reasons),
        "context_precision_share_ids": (share, prec_reasons),
        "context_recall_ids": (rec, reasons),
        "context_f1_ids": (f1, reasons),
    }
    return {s.name: ScoreColumn.from_arrays(*table[s.base]) for s in specs}
