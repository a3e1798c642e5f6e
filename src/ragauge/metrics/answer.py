"""Answer relevancy and answer correctness.

- ``answer_relevancy``: does the answer give what was asked, in [0, 1]: a detailed ``Relevance`` request.
  Offline (:mod:`ragauge.judges.offline.intent`): the question's intent (price,
  date, duration, count, yes/no, who, where, how, definition, list) and subject; whether the answer
  states a value of that type about that subject; evasive, declining and rude answers; the
  calibrated question-answer similarity; combined by a small fitted logistic model. The artifact
  names the intent, whether a value was found per question part and a ``label`` (direct / partial /
  off_topic / evasive / refusal). A judge without details gives the score only (the reply's ``via`` is
  ``"score"``; an LLM judge generates questions from the answer instead). A refusal scores 0 and is
  labelled ``refusal`` (whether refusing was *right* is answer correctness' business).
- ``answer_correctness`` against ``reference``: claim precision (answer claims supported by the
  reference: TP / (TP + FP)), claim recall (reference claims supported by the answer: 1 - FN share),
  their F1, blended with the semantic similarity: ``0.75 * F1 + 0.25 * similarity`` (Ragas' default
  weights). If the reference itself is a refusal ("the documents do not say"), an answer that also
  refuses scores 1 and one that asserts claims scores 0.

  Two requests make the claims and the decision fit two answers to one question:
  ``Claims(unit="facts")`` (claims cut so that each states its own number; a judge without finer units
  gives its claims) and ``Agree`` (numbers, polarity, scope, entities and word coverage over the other
  text and the question, on top of the verifier: the offline judge's ``answer_match`` module; a judge
  without it verifies against the other text as the only source). The artifact's ``decision`` is the
  reply's ``via`` (``agree`` or ``verify``).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.requests import Agree, Claims, Refusal, Relevance, Similarity
from ..scores.claims import claim_f1, correctness
from ._judging import languages
from .column import ScoreColumn
from .plan import Plan, together
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "answer"

DEFINITIONS = [
    MetricDef("answer_relevancy", FAMILY, "Does the answer give what was asked (intent, value of the asked type, subject, similarity; refusals score 0 and are flagged).",
              requires=("question", "answer"), judge="any"),
    MetricDef("answer_correctness", FAMILY, "0.75 x claim F1 of the answer against the reference + 0.25 x semantic similarity.",
              requires=("answer", "reference"), judge="any"),
]


def _relevancy(samples: Sequence[Sample], langs: Sequence[str | None], names: tuple[str, ...]) -> Plan[ScoreColumn]:
    n = len(samples)
    values: list[float | None] = [None] * n
    reasons: list[str | None] = ["no question" if not (s.question or "").strip()
                                 else "no answer" if not (s.answer or "").strip() else None for s in samples]
    arts: list[dict[str, Any] | None] = [None] * n
    todo = [i for i in range(n) if reasons[i] is None]
    # todo holds only samples with a question and an answer; `or ""` only tells the type checker so
    refusals = yield [Refusal(text=samples[i].answer or "", lang=langs[i], sample=samples[i].id, metrics=names)
                      for i in todo]
    asked = [i for i, r in zip(todo, refusals) if not r.value]
    for i, r in zip(todo, refusals):
        if r.value:
            values[i], arts[i] = 0.0, {"refusal": True}  # label "refusal" (kept as it was: a stable artifact)
    # intent, value found and label per answer where the judge has them (module doc), else the score alone
    got = yield [Relevance(question=samples[i].question or "", text=samples[i].answer or "", lang=langs[i],
                           detailed=True, sample=samples[i].id, metrics=names) for i in asked]
    for i, d in zip(asked, got):
        if d.unscored is not None:
            reasons[i], arts[i] = d.unscored.reason, d.unscored.artifact()
            continue
        details = dict(d.value or {})
        values[i] = float(details.pop("score"))
        if d.via == "details":
            arts[i] = details
    return ScoreColumn(values, reasons, arts)


def _correctness(samples: Sequence[Sample], langs: Sequence[str | None], names: tuple[str, ...]) -> Plan[ScoreColumn]:
    n = len(samples)
    values: list[float | None] = [None] * n
    reasons: list[str | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    for i, s in enumerate(samples):
        if not (s.answer or "").strip():
            reasons[i] = "no answer"
        elif not (s.reference or "").strip():
            reasons[i] = "no reference"
    todo = [i for i in range(n) if reasons[i] is None]
    # todo holds only samples with an answer and a reference; `or ""` only tells the type checker so
    ans = [samples[i].answer or "" for i in todo]
    ref = [samples[i].reference or "" for i in todo]
    lg = [langs[i] for i in todo]
    ids = [samples[i].id for i in todo]
    declined = yield ([Refusal(text=t, lang=x, sample=d, metrics=names) for t, x, d in zip(ans, lg, ids)]
                      + [Refusal(text=t, lang=x, sample=d, metrics=names) for t, x, d in zip(ref, lg, ids)])
    ans_refuse = [bool(r.value) for r in declined[:len(todo)]]
    ref_refuse = [bool(r.value) for r in declined[len(todo):]]
    # facts: claims cut so that each states its own number (a judge without them gives its claims)
    both = [j for j in range(len(todo)) if not ans_refuse[j] and not ref_refuse[j]]
    units = yield ([Claims(text=ans[j], lang=lg[j], unit="facts", role="answer", sample=ids[j], metrics=names)
                    for j in both]
                   + [Claims(text=ref[j], lang=lg[j], unit="facts", role="reference", sample=ids[j], metrics=names)
                      for j in both])
    ans_claims = dict(zip(both, units[:len(both)]))
    ref_claims = dict(zip(both, units[len(both):]))
    pairs = []
    for j, i in enumerate(todo):
        if ref_refuse[j] or ans_refuse[j]:
            both_decline = ref_refuse[j] and ans_refuse[j]
            values[i] = 1.0 if both_decline else 0.0
            arts[i] = {"refusal": bool(ans_refuse[j]), "reference_refusal": bool(ref_refuse[j]),
                       "reason": "both decline to answer" if both_decline else
                       ("the answer asserts claims where the reference declines" if not ans_refuse[j]
                        else "the answer declines where the reference answers")}
        elif (failed := ans_claims[j].unscored or ref_claims[j].unscored) is not None:
            reasons[i], arts[i] = failed.reason, failed.artifact()
        elif not ans_claims[j].value or not ref_claims[j].value:
            reasons[i] = "no claims in the answer" if not ans_claims[j].value else "no claims in the reference"
        else:
            pairs.append(j)
    # the decision made for two answers to one question where the judge has it (module doc), else verify
    qs = [samples[todo[j]].question or "" for j in pairs]  # the question is optional here
    got = yield ([Agree(claims=ans_claims[j].value, other=ref[j], question=q, lang=lg[j], sample=ids[j],
                        metrics=names) for j, q in zip(pairs, qs)]
                 + [Agree(claims=ref_claims[j].value, other=ans[j], question=q, lang=lg[j], sample=ids[j],
                          metrics=names) for j, q in zip(pairs, qs)]
                 + [Similarity(a=ans[j], b=ref[j], sample=ids[j], metrics=names) for j in pairs])
    k = len(pairs)
    for m, j in enumerate(pairs):
        a_v, r_v, sim_r = got[m], got[k + m], got[2 * k + m]
        failed = a_v.unscored or r_v.unscored or sim_r.unscored
        if failed:
            reasons[todo[j]], arts[todo[j]] = failed.reason, failed.artifact()
            continue
        p, r, f = claim_f1([v.supported for v in a_v.value], [v.supported for v in r_v.value])
        sim = float(sim_r.value)
        values[todo[j]] = correctness(f, sim)
        arts[todo[j]] = {
            "precision": p, "recall": r, "f1": f, "similarity": sim,
            "claims": [v.to_dict() for v in a_v.value], "decision": a_v.via,
            "reference_claims_missing": [v.claim for v in r_v.value if not v.supported],
        }
    return ScoreColumn(values, reasons, arts)


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    langs = languages(samples)
    plans = [(_relevancy if spec.base == "answer_relevancy" else _correctness)(samples, langs, (spec.name,))
             for spec in specs]
    columns = yield from together(plans)
    return {spec.name: col for spec, col in zip(specs, columns)}
