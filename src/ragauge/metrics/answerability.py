"""``context_answerability``: do the retrieved contexts answer the question? (no answer needed)

Per sample the judge's answerability (:meth:`OfflineJudge.answerability`; rules in
:mod:`ragauge.judges.offline.answerability`); a judge without that method gets the offline rules.
Artifact: per question part, the best sentence, its score and what it lacks.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.requests import Answerability
from ._judging import languages
from .column import ScoreColumn
from .plan import Plan
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "answerability"

DEFINITIONS = [
    MetricDef("context_answerability", FAMILY, "P(the contexts state a value of the asked type about the "
              "question's subject), per question part, averaged over parts.", requires=("contexts",), judge="any"),
]


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    langs = languages(samples)
    names = tuple(s.name for s in specs)
    todo = [i for i, s in enumerate(samples) if s.contexts]
    results = yield [Answerability(question=samples[i].question or "", contexts=list(samples[i].context_texts),
                                   lang=langs[i], sample=samples[i].id, metrics=names) for i in todo]
    n = len(samples)
    vals: list[float | None] = [None] * n
    reasons: list[str | None] = ["no contexts"] * n
    arts: list[dict[str, Any] | None] = [None] * n
    for i, r in zip(todo, results):
        if r.unscored is not None:
            reasons[i], arts[i] = r.unscored.reason, r.unscored.artifact()
        else:
            vals[i], reasons[i], arts[i] = float(r.value.score), None, r.value.to_dict()
    return {spec.name: ScoreColumn(vals, reasons, arts) for spec in specs}
