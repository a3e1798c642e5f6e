"""``context_answerability``: do the retrieved contexts answer the question? (no answer needed)

Per sample the judge's answerability (:meth:`OfflineJudge.answerability`; rules in
:mod:`ragauge.judges.offline.answerability`); a judge without that method gets the offline rules.
Artifact: per question part, the best sentence, its score and what it lacks.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.base import Judge
from ..judges.offline.answerability import answerability
from ._judging import languages
from .column import ScoreColumn
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "answerability"

DEFINITIONS = [
    MetricDef("context_answerability", FAMILY, "P(the contexts state a value of the asked type about the "
              "question's subject), per question part, averaged over parts.", requires=("contexts",), judge="any"),
]


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample], *, judge: Judge) -> dict[str, ScoreColumn]:
    langs = languages(samples)
    todo = [i for i, s in enumerate(samples) if s.contexts]
    method = getattr(judge, "answerability", None)
    questions = [samples[i].question or "" for i in todo]
    contexts = [list(samples[i].context_texts) for i in todo]
    if callable(method):
        results = method(questions, contexts, [langs[i] for i in todo])
    else:
        results = [answerability(q, c, langs[i]) for q, c, i in zip(questions, contexts, todo)]
    n = len(samples)
    vals: list[float | None] = [None] * n
    reasons: list[str | None] = ["no contexts"] * n
    arts: list[dict[str, Any] | None] = [None] * n
    for i, r in zip(todo, results):
        vals[i], reasons[i], arts[i] = float(r.score), None, r.to_dict()
    prov = judge.provenance().to_dict() if judge is not None and hasattr(judge, "provenance") else None
    return {spec.name: ScoreColumn(vals, reasons, arts, prov) for spec in specs}
