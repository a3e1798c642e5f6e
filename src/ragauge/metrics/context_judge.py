"""Context precision, recall and F1 decided by a judge (no chunk ids needed).

- ``context_recall``: share of the reference's claims supported by the contexts (all of them
  together). Needs ``reference``.
- ``context_precision``: rank-weighted share of useful contexts
  (:func:`ragauge.scores.context.rank_weighted_precision`); a context is *useful* when it alone
  supports at least one claim of the reference (or, without a reference, of the answer — Ragas'
  "without reference" variant; the artifact says which was used), or when the judge cites it as the
  evidence of a claim that only the contexts together support (a fact that needs two chunks).
- ``context_f1``: harmonic mean of the two.

When chunk ids and ``relevant_ids`` are known, the id-based ``context_*_ids`` metrics need no judge.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.requests import Claims, Refusal, Reply, Request, Verify
from ..judges.types import Unscored
from ..scores.claims import supported_fraction
from ..scores.context import f1, rank_weighted_precision
from ._judging import languages
from .column import ScoreColumn
from .plan import Plan
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "context_judge"

DEFINITIONS = [
    MetricDef("context_precision", FAMILY, "Rank-weighted share of contexts that support a claim of the reference (else of the answer).",
              requires=("contexts",), judge="any"),
    MetricDef("context_recall", FAMILY, "Share of the reference's claims supported by the contexts.",
              requires=("contexts", "reference"), judge="any"),
    MetricDef("context_f1", FAMILY, "Harmonic mean of context_precision and context_recall.",
              requires=("contexts", "reference"), judge="any"),
]


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    n = len(samples)
    names = tuple(s.name for s in specs)
    langs = languages(samples)
    # The claims each sample is judged by: the reference's, else the answer's (precision only).
    precision = any(s.base == "context_precision" for s in specs)  # the only one an answer can stand in for
    basis: list[str | None] = []
    for s in samples:
        if (s.reference or "").strip():
            basis.append("reference")
        elif precision and (s.answer or "").strip():
            basis.append("answer")
        else:
            basis.append(None)
    texts = [(s.reference if b == "reference" else s.answer) or "" for s, b in zip(samples, basis)]
    judged = [i for i, s in enumerate(samples) if s.contexts and basis[i] is not None]
    declined = yield [Refusal(text=texts[i], lang=langs[i], sample=samples[i].id, metrics=names) for i in judged]
    refusals = [False] * n
    for i, r in zip(judged, declined):
        refusals[i] = bool(r.value)
    asked = [i for i in judged if not refusals[i]]
    claims: list[Reply] = [Reply([])] * n
    for i, reply in zip(asked, (yield [Claims(text=texts[i], lang=langs[i], role=basis[i] or "other",  # type: ignore[arg-type]
                                              sample=samples[i].id, metrics=names) for i in asked])):
        claims[i] = reply
    prec: list[float | None] = [None] * n
    rec: list[float | None] = [None] * n
    prec_r: list[str | None] = [None] * n
    rec_r: list[str | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    items: list[Request] = []
    owners: list[tuple[int, int]] = []  # (sample, context index or -1 for all of them)
    for i, s in enumerate(samples):
        if not s.contexts:
            prec_r[i] = rec_r[i] = "no contexts"
            continue
        if basis[i] != "reference":
            rec_r[i] = "no reference"
        if basis[i] is None:
            prec_r[i] = "no reference and no answer" if precision else "no reference"
            continue
        failed = claims[i].unscored
        if failed:
            prec_r[i] = failed.reason
            rec_r[i] = rec_r[i] or failed.reason
            arts[i] = failed.artifact()
            continue
        found = claims[i].value
        if refusals[i] or not found:
            why = f"the {basis[i]} has no claims" + (" (it declines to answer)" if refusals[i] else "")
            prec_r[i] = why
            if rec_r[i] is None:
                rec_r[i] = why
            continue
        items.append(Verify(claims=found, sources=s.context_texts, lang=langs[i], sample=s.id,
                            metrics=names))  # recall: all contexts together
        owners.append((i, -1))
        for c, text in enumerate(s.context_texts):  # precision: each context alone
            items.append(Verify(claims=found, sources=[text], lang=langs[i], sample=s.id, metrics=names))
            owners.append((i, c))
    verdicts = yield items
    useful: dict[int, list[bool]] = {}
    together: dict[int, set[int]] = {}
    failed_items: dict[int, Unscored] = {}
    for (i, c), got in zip(owners, verdicts):
        marker, v = got.unscored, got.value
        if marker is not None:
            failed_items.setdefault(i, marker)
            continue
        if c == -1:
            if rec_r[i] is None:
                rec[i] = supported_fraction([x.supported for x in v])
                arts[i] = {"basis": basis[i], "claims": [x.to_dict() for x in v]}
            # the contexts the judge cited for claims supported by all of them together (a fact that needs
            # two chunks is supported by neither alone, yet both were useful for it)
            together[i] = {x.evidence.source for x in v if x.supported and x.evidence is not None}
        else:
            useful.setdefault(i, []).append(any(x.supported for x in v))
    for i, failed in failed_items.items():  # any failed verify call leaves the sample unscored
        prec[i] = rec[i] = None
        prec_r[i] = failed.reason
        rec_r[i] = rec_r[i] or failed.reason
        arts[i] = failed.artifact()
        useful.pop(i, None)
    for i, flags in useful.items():
        flags = [f or c in together.get(i, ()) for c, f in enumerate(flags)]
        prec[i] = rank_weighted_precision(flags)
        arts[i] = {**(arts[i] or {"basis": basis[i]}), "useful_contexts": flags}
    out = {}
    for spec in specs:
        if spec.base == "context_precision":
            out[spec.name] = ScoreColumn(prec, prec_r, arts)
        elif spec.base == "context_recall":
            out[spec.name] = ScoreColumn(rec, rec_r, [None] * n)
        else:
            vals = [None if p is None or r is None else f1(p, r) for p, r in zip(prec, rec)]
            rs = [None if v is not None else (prec_r[i] or rec_r[i] or "unscored") for i, v in enumerate(vals)]
            out[spec.name] = ScoreColumn(vals, rs, [None] * n)
    return out
