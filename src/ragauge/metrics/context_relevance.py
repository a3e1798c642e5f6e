"""Context relevance (TruLens' RAG triad): is each retrieved chunk about the question?

No reference and no relevance labels: each chunk is graded against the question alone with
a ``Relevance`` request per chunk (the offline judge's calibrated P(the text addresses the
question), the one the guard grades chunks with; an LLM judge's own relevance). The value is the mean
over the chunks the generator saw; the artifact lists each chunk's score (``chunks``: index, id, score).

Unscored: no question; no contexts; a judge failure on any chunk (its raw reply kept).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.requests import Relevance, Reply
from .column import ScoreColumn
from .plan import Plan
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "context_relevance"

DEFINITIONS = [
    MetricDef("context_relevance", FAMILY, "Mean relevance of each retrieved chunk to the question (no reference or labels needed; per chunk in the artifacts).",
              requires=("question", "contexts"), judge="any"),
]


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    names = tuple(s.name for s in specs)
    n = len(samples)
    reasons: list[str | None] = [None] * n
    for i, s in enumerate(samples):
        if not (s.question or "").strip():
            reasons[i] = "no question"
        elif not s.contexts:
            reasons[i] = "no contexts"
    owners = [(i, c) for i in range(n) if reasons[i] is None for c in range(len(samples[i].contexts))]
    scores = yield [Relevance(question=samples[i].question or "", text=samples[i].contexts[c].text,
                              sample=samples[i].id, metrics=names) for i, c in owners]
    per: dict[int, list[Reply]] = {}
    for (i, c), v in zip(owners, scores):
        per.setdefault(i, []).append(v)
    values: list[float | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    for i, got in per.items():
        failed = next((v.unscored for v in got if v.unscored), None)
        if failed:
            reasons[i], arts[i] = failed.reason, failed.artifact()
            continue
        chunk = [float(v.value["score"]) for v in got]
        values[i] = sum(chunk) / len(chunk)
        arts[i] = {"chunks": [{"index": c, "id": samples[i].contexts[c].id, "score": round(v, 4)}
                              for c, v in enumerate(chunk)]}
    return {spec.name: ScoreColumn(values, reasons, arts) for spec in specs}
