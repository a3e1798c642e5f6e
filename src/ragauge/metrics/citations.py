"""A first agent's citation heuristics: does the answer cite sources, and were they retrieved?

Citations come from the pipeline's record, not from the model's text: the sample field ``citations``
(a list of chunk ids the answer cites; a top-level key lands in ``metadata.citations``, as every key
outside the schema does). With C = the cited ids and S = the ids of the chunks the generator saw (the
contexts' ids, else ``retrieved_ids``):

    has_citations   = 1 if C is non-empty, else 0
    answer_grounded = 1 if C is non-empty and C ⊆ S, else 0

A cited id that was never retrieved (not in ``retrieved_ids``, else not among the contexts' ids) is a finding:
the artifact lists it (``cited_not_retrieved``); a cited id that was retrieved but not given to the generator
(in ``retrieved_ids``, not among the contexts) is listed as ``cited_not_given`` (a note, not a failure).
Unscored: no answer; no ``citations`` recorded (the pipeline does not report them: not the same as
citing nothing, which is ``[]``); ``answer_grounded`` also when the sample has no ids.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..errors import InputError
from .column import ScoreColumn
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "citations"
FIELD = "citations"

DEFINITIONS = [
    MetricDef("has_citations", FAMILY, "1 when the answer cites at least one chunk (citations recorded by the pipeline), else 0.",
              requires=("answer", f"metadata.{FIELD}")),
    MetricDef("answer_grounded", FAMILY, "1 when the answer cites chunks and every cited id was retrieved, else 0 (a cited id never retrieved is listed).",
              requires=("answer", f"metadata.{FIELD}", "retrieved_ids")),
]


def cited_ids(sample: Sample) -> list[str] | None:
    """The ids ``sample`` cites, ``None`` when it records no citations; a malformed value raises."""
    if FIELD not in sample.metadata or sample.metadata[FIELD] is None:
        return None
    raw: Any = sample.metadata[FIELD]
    if isinstance(raw, (str, bytes)) or not isinstance(raw, (list, tuple)):
        raise InputError(f"sample {sample.id!r}: citations must be a list of chunk ids", field=FIELD, value=raw,
                         hint='write e.g. "citations": ["doc-3#2", "doc-7#1"] (an empty list: nothing cited)')
    out = []
    for item in raw:
        if isinstance(item, dict) and "id" in item:
            item = item["id"]
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            raise InputError(f"sample {sample.id!r}: a citation must be a chunk id (string or integer)",
                             field=FIELD, value=item, hint='write ids as strings, e.g. ["doc-3#2"], or objects {"id": ...}')
        out.append(str(item))
    return out


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> dict[str, ScoreColumn]:
    n = len(samples)
    has: list[float | None] = [None] * n
    grounded: list[float | None] = [None] * n
    has_r: list[str | None] = [None] * n
    gr_r: list[str | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    for i, s in enumerate(samples):
        cited = cited_ids(s)
        if not (s.answer or "").strip():
            has_r[i] = gr_r[i] = "no answer"
            continue
        if cited is None:
            has_r[i] = gr_r[i] = "no citations recorded"
            continue
        has[i] = float(bool(cited))
        seen = s.ranking  # everything retrieved: retrieved_ids, else the contexts' ids
        if seen is None:
            gr_r[i] = "no context ids and no retrieved_ids"
            arts[i] = {"cited": cited}
            continue
        missing = [c for c in cited if c not in set(seen)]
        given = {c.id for c in s.contexts if c.id is not None}
        grounded[i] = float(bool(cited) and not missing)
        arts[i] = {"cited": cited, "cited_not_retrieved": missing,
                   "cited_not_given": [c for c in cited if c not in missing and given and c not in given]}
    table = {"has_citations": (has, has_r), "answer_grounded": (grounded, gr_r)}
    return {spec.name: ScoreColumn(*table[spec.base], list(arts)) for spec in specs}
