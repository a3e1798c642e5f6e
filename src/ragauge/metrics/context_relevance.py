"""Context relevance (TruLens' RAG triad): is each retrieved chunk about the question?

No reference and no relevance labels: each chunk is graded against the question alone with
``judge.relevance(questions, texts)`` (the offline judge's calibrated P(the text addresses the
question), the one the guard grades chunks with; an LLM judge's own relevance). The value is the mean
over the chunks the generator saw; the artifact lists each chunk's score (``chunks``: index, id, score).

Unscored: no question; no contexts; a judge failure on any chunk (its raw reply kept).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.base import Judge
from ..judges.types import unscored_of
from .column import ScoreColumn
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "context_relevance"

DEFINITIONS = [
    MetricDef("context_relevance", FAMILY, "Mean relevance of each retrieved chunk to the question (no reference or labels needed; per chunk in the artifacts).",
              requires=("question", "contexts"), judge="any"),
]


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample], *, judge: Judge) -> dict[str, ScoreColumn]:
    n = len(samples)
    reasons: list[str | None] = [None] * n
    for i, s in enumerate(samples):
        if not (s.question or "").strip():
            reasons[i] = "no question"
        elif not s.contexts:
            reasons[i] = "no contexts"
    owners = [(i, c) for i in range(n) if reasons[i] is None for c in range(len(samples[i].contexts))]
    scores = judge.relevance([samples[i].question or "" for i, _ in owners], [samples[i].contexts[c].text for i, c in owners])
    per: dict[int, list[Any]] = {}  # a relevance, or the judge's Unscored marker
    for (i, c), v in zip(owners, scores):
        per.setdefault(i, []).append(v)
    values: list[float | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    for i, got in per.items():
        failed = next((unscored_of(v) for v in got if unscored_of(v)), None)
        if failed:
            reasons[i], arts[i] = failed.reason, failed.artifact()
            continue
        values[i] = sum(float(v) for v in got) / len(got)
        arts[i] = {"chunks": [{"index": c, "id": samples[i].contexts[c].id, "score": round(float(v), 4)}
                              for c, v in enumerate(got)]}
    prov = judge.provenance().to_dict()
    return {spec.name: ScoreColumn(values, reasons, arts, prov) for spec in specs}
