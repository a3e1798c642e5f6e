"""Answer relevancy and answer correctness.

- ``answer_relevancy``: does the answer give what was asked, in [0, 1]. Offline
  (``judge.relevance_details``, :mod:`ragauge.judges.offline.intent`): the question's intent (price,
  date, duration, count, yes/no, who, where, how, definition, list) and subject; whether the answer
  states a value of that type about that subject; evasive, declining and rude answers; the
  calibrated question-answer similarity; combined by a small fitted logistic model. The artifact
  names the intent, whether a value was found per question part and a ``label`` (direct / partial /
  off_topic / evasive / refusal). A judge without ``relevance_details`` gives ``judge.relevance``
  only (an LLM judge may generate questions from the answer instead). A refusal scores 0 and is
  labelled ``refusal`` (whether refusing was *right* is answer correctness' business).
- ``answer_correctness`` against ``reference``: claim precision (answer claims supported by the
  reference: TP / (TP + FP)), claim recall (reference claims supported by the answer: 1 - FN share),
  their F1, blended with the semantic similarity: ``0.75 * F1 + 0.25 * similarity`` (Ragas' default
  weights). If the reference itself is a refusal ("the documents do not say"), an answer that also
  refuses scores 1 and one that asserts claims scores 0.

  Two optional judge methods, outside the :class:`~ragauge.judges.base.Judge` door, make the claims
  and the decision fit two answers to one question; a judge without them gets the door's:
  ``facts(texts, langs)`` (claims cut so that each states its own number; else ``claims``) and
  ``agree([(claims, other_text, question, lang)])`` (numbers, polarity, scope, entities and word
  coverage over the other text and the question, on top of the verifier: the offline judge's
  ``agreement`` module; else ``verify`` with the other text as the only source). The artifact's
  ``decision`` says which was used.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.base import Judge
from ..judges.types import unscored_of
from ..scores.claims import claim_f1, correctness
from ._judging import languages
from .column import ScoreColumn
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "answer"

DEFINITIONS = [
    MetricDef("answer_relevancy", FAMILY, "Does the answer give what was asked (intent, value of the asked type, subject, similarity; refusals score 0 and are flagged).",
              requires=("question", "answer"), judge="any"),
    MetricDef("answer_correctness", FAMILY, "0.75 x claim F1 of the answer against the reference + 0.25 x semantic similarity.",
              requires=("answer", "reference"), judge="any"),
]


def _relevancy(samples: Sequence[Sample], langs: Sequence[str | None], judge: Judge) -> ScoreColumn:
    n = len(samples)
    values: list[float | None] = [None] * n
    reasons: list[str | None] = ["no question" if not (s.question or "").strip()
                                 else "no answer" if not (s.answer or "").strip() else None for s in samples]
    arts: list[dict[str, Any] | None] = [None] * n
    todo = [i for i in range(n) if reasons[i] is None]
    # todo holds only samples with a question and an answer; `or ""` only tells the type checker so
    refusals = judge.refusals([samples[i].answer or "" for i in todo], [langs[i] for i in todo])
    asked = [i for i, r in zip(todo, refusals) if not r]
    for i, r in zip(todo, refusals):
        if r:
            values[i], arts[i] = 0.0, {"refusal": True}  # label "refusal" (kept as it was: a stable artifact)
    details = getattr(judge, "relevance_details", None)
    if details is not None:
        # intent, value found and label per answer (module doc); the judge's refusals are settled above
        got = details([samples[i].question or "" for i in asked], [samples[i].answer or "" for i in asked],
                      [langs[i] for i in asked])
        for i, d in zip(asked, got):
            values[i] = float(d["score"])
            arts[i] = {k: v for k, v in d.items() if k != "score"}
        return ScoreColumn(values, reasons, arts, judge.provenance().to_dict())
    scores = judge.relevance([samples[i].question or "" for i in asked], [samples[i].answer or "" for i in asked])
    for i, v in zip(asked, scores):
        failed = unscored_of(v)
        if failed:
            reasons[i], arts[i] = failed.reason, failed.artifact()
        else:
            values[i] = v
    return ScoreColumn(values, reasons, arts, judge.provenance().to_dict())


def _correctness(samples: Sequence[Sample], langs: Sequence[str | None], judge: Judge) -> ScoreColumn:
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
    ans_refuse = judge.refusals(ans, lg)
    ref_refuse = judge.refusals(ref, lg)
    # A judge may offer finer units (facts) and a decision made for two answers to one question (agree);
    # the door's claims/verify are the fallback, so any judge works (module doc).
    units = getattr(judge, "facts", None) or judge.claims
    ans_claims = units(ans, lg)
    ref_claims = units(ref, lg)
    pairs = []
    for j, i in enumerate(todo):
        if ref_refuse[j] or ans_refuse[j]:
            both = ref_refuse[j] and ans_refuse[j]
            asserted = bool(ans_claims[j]) and not ans_refuse[j]
            values[i] = 1.0 if both else 0.0
            arts[i] = {"refusal": bool(ans_refuse[j]), "reference_refusal": bool(ref_refuse[j]),
                       "reason": "both decline to answer" if both else
                       ("the answer asserts claims where the reference declines" if asserted
                        else "the answer declines where the reference answers")}
        elif (failed := unscored_of(ans_claims[j]) or unscored_of(ref_claims[j])) is not None:
            reasons[i], arts[i] = failed.reason, failed.artifact()
        elif not ans_claims[j] or not ref_claims[j]:
            reasons[i] = "no claims in the answer" if not ans_claims[j] else "no claims in the reference"
        else:
            pairs.append(j)
    agree = getattr(judge, "agree", None)
    if agree is not None:
        qs = [samples[todo[j]].question or "" for j in pairs]  # the question is optional here
        verdicts = agree([(ans_claims[j], ref[j], q, lg[j]) for j, q in zip(pairs, qs)]
                         + [(ref_claims[j], ans[j], q, lg[j]) for j, q in zip(pairs, qs)])
    else:
        verdicts = judge.verify([(ans_claims[j], [ref[j]], lg[j]) for j in pairs]
                                + [(ref_claims[j], [ans[j]], lg[j]) for j in pairs])
    sims = judge.similarity([ans[j] for j in pairs], [ref[j] for j in pairs])
    for m, j in enumerate(pairs):
        a_v, r_v = verdicts[m], verdicts[len(pairs) + m]
        failed = unscored_of(a_v) or unscored_of(r_v)
        if failed:
            reasons[todo[j]], arts[todo[j]] = failed.reason, failed.artifact()
            continue
        p, r, f = claim_f1([v.supported for v in a_v], [v.supported for v in r_v])
        sim = float(sims[m])
        values[todo[j]] = correctness(f, sim)
        arts[todo[j]] = {
            "precision": p, "recall": r, "f1": f, "similarity": sim,
            "claims": [v.to_dict() for v in a_v], "decision": "agree" if agree is not None else "verify",
            "reference_claims_missing": [v.claim for v in r_v if not v.supported],
        }
    return ScoreColumn(values, reasons, arts, judge.provenance().to_dict())


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample], *, judge: Judge) -> dict[str, ScoreColumn]:
    langs = languages(samples)
    out = {}
    for spec in specs:
        fn = _relevancy if spec.base == "answer_relevancy" else _correctness
        out[spec.name] = fn(samples, langs, judge)
    return out
