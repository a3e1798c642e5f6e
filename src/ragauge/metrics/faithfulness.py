"""Faithfulness: the share of the answer's claims that the contexts support.

Plan (visible, per STYLE §2; requests in :mod:`ragauge.judges.requests`): ``Refusal(answer)`` ->
``Claims(answer)`` -> ``Verify(claims, contexts)`` -> :func:`ragauge.scores.claims.supported_fraction`. The per-sample artifact lists every claim with its
verdict, P(supported), evidence span (context index + character offsets) and reason.

``hallucination_rate`` is the share of answers flagged ``hallucinated``: faithfulness below
:data:`HALLUCINATED_BELOW` (1.0: any claim the contexts do not support).

Unscored: no answer; a refusal (the answer declines to answer: nothing to check — shown as such);
no contexts; no checkable claims (greetings, questions back).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.requests import Claims, Refusal, Verify
from ..scores.claims import supported_fraction
from ._judging import claims_artifact, languages
from .column import ScoreColumn
from .plan import Plan
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "faithfulness"
HALLUCINATED_BELOW = 1.0
_REQ = ("answer", "contexts")

DEFINITIONS = [
    MetricDef("faithfulness", FAMILY, "Share of the answer's claims supported by the contexts (claim-level verdicts with evidence).",
              requires=_REQ, judge="any"),
    MetricDef("hallucination_rate", FAMILY, "Share of answers with at least one claim the contexts do not support.",
              requires=_REQ, judge="any", higher_is_better=False),
    MetricDef("faithfulness_soft", FAMILY, "Mean of the judge's P(supported) over the answer's claims: a continuous "
              "companion of faithfulness that ranks answers by how sure the judge is (a labels-only judge gives "
              "the same value as faithfulness).", requires=_REQ, judge="any"),
]


#: digits each claim's P(supported) keeps in ``faithfulness_soft`` (far below any difference that means something)
SOFT_DIGITS = 9


def _reason(sample: Sample, refusal: bool) -> str | None:
    if not (sample.answer or "").strip():
        return "no answer"
    if refusal:
        return "refusal: the answer declines to answer"
    if not sample.contexts:
        return "no contexts"
    return None


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    names = tuple(s.name for s in specs)
    langs = languages(samples)
    answers = [s.answer or "" for s in samples]
    refusals = yield [Refusal(text=a, lang=lg, sample=s.id, metrics=names)
                      for a, lg, s in zip(answers, langs, samples)]
    reasons = [_reason(s, bool(r.value)) for s, r in zip(samples, refusals)]
    todo = [i for i, r in enumerate(reasons) if r is None]
    claims = yield [Claims(text=answers[i], lang=langs[i], role="answer", sample=samples[i].id, metrics=names)
                    for i in todo]
    asked = [(i, c) for i, c in zip(todo, claims) if c.unscored is None and c.value]
    verdicts = yield [Verify(claims=c.value, sources=samples[i].context_texts, lang=langs[i], sample=samples[i].id,
                             metrics=names) for i, c in asked]
    got = {i: v for (i, _), v in zip(asked, verdicts)}
    faith: list[float | None] = [None] * len(samples)
    soft: list[float | None] = [None] * len(samples)
    arts: list[dict[str, Any] | None] = [None] * len(samples)
    for i, c in zip(todo, claims):
        v = got.get(i)
        failed = c.unscored or (v.unscored if v is not None else None)
        if failed:  # the judge could not judge this one: say so, keep its raw reply
            reasons[i], arts[i] = failed.reason, failed.artifact()
            continue
        found = v.value if v is not None else []
        value = supported_fraction([x.supported for x in found or []])
        if value is None or not found:
            reasons[i] = "no claims to check"
            continue
        faith[i] = value
        # each P rounded to 1e-9 first: the judge's last bits depend on which texts shared its batch (a Ray
        # block vs the whole set), and the value must not (tests/scale/test_equality.py)
        soft[i] = sum(round(min(1.0, max(0.0, float(x.probability))), SOFT_DIGITS) for x in found) / len(found)
        arts[i] = claims_artifact(found, hallucinated=value < HALLUCINATED_BELOW)
    for i, r in enumerate(refusals):
        reason = reasons[i]
        if r.value and reason and reason.startswith("refusal"):
            arts[i] = {"refusal": True}
    out = {}
    for spec in specs:
        if spec.base == "faithfulness":
            out[spec.name] = ScoreColumn(faith, reasons, arts)
        elif spec.base == "faithfulness_soft":
            out[spec.name] = ScoreColumn(soft, list(reasons), [None] * len(samples))
        else:
            flags = [None if f is None else float(f < HALLUCINATED_BELOW) for f in faith]
            out[spec.name] = ScoreColumn(flags, reasons, [None] * len(samples))
    return out
