"""answer_correctness and noise_robustness with the real offline judge: equivalent forms, the agreement
decision, the fallback for judges without it."""

import pytest

from ragauge.data.schema import Context, Sample
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import parse_metrics

Q = "Почём обшивка стен гипсокартоном в один слой и какой минимальный объём?"
REF = ("1 150 руб./м² по прайс-листу от 01.03.2026 (облицовка стен ГКЛ в один слой по металлическому каркасу), "
       "без стоимости листов, профиля и крепежа; минимальный объём — 10 м².")
GOOD = ("Облицовка стен ГКЛ в один слой по металлическому каркасу стоит 1150 рублей за квадратный метр "
        "(прайс-лист от 01.03.2026). Листы, профиль и крепёж в эту цену не входят. Минимальный объём — 10 квадратных метров.")
WRONG = ("Облицовка стен ГКЛ в один слой по металлическому каркасу стоит 980 рублей за квадратный метр "
         "(прайс-лист от 01.03.2026). Минимальный объём — 100 м².")
CTX = (Context(REF, id="price-003"), Context("Доставка бетона по Москве — 2 500 руб. за рейс.", id="d1"))


@pytest.fixture(scope="module")
def judge():
    from ragauge.judges.base import get_judge

    return get_judge("offline")


class DoorOnly:
    """The real offline judge through the Judge door alone (no facts/agree): the fallback path."""

    def __init__(self, judge):
        self._j, self.name, self.verify_calls = judge, judge.name, 0

    def __getattr__(self, name):
        if name in ("facts", "agree"):
            raise AttributeError(name)
        return getattr(self._j, name)

    def verify(self, items):
        self.verify_calls += 1
        return self._j.verify(items)


def run(names, samples, judge):
    out = {}
    for spec in parse_metrics(names):
        out.update(score_columns([spec], samples, judge))
    return out


def test_a_correct_answer_in_other_words_scores_high_and_a_wrong_one_low(judge):
    samples = [Sample(id="good", question=Q, answer=GOOD, reference=REF, contexts=CTX),
               Sample(id="wrong", question=Q, answer=WRONG, reference=REF, contexts=CTX)]
    col = run(["answer_correctness"], samples, judge)["answer_correctness"]
    good, wrong = col.values
    assert good >= 0.8 and wrong <= 0.4, col.values
    art = col.artifacts[0]
    assert art["recall"] == 1.0 and art["precision"] >= 0.75
    # every fact with a number agrees; "в эту цену не входят" vs "без стоимости" is a synonym the word
    # check cannot see (a known limit: the claim has no number to anchor it)
    assert all(c["verdict"] == "supported" for c in art["claims"] if any(ch.isdigit() for ch in c["text"]))
    bad = [c for c in col.artifacts[1]["claims"] if c["verdict"] == "contradicted"]
    assert any("980" in c["reason"] for c in bad) and any("100" in c["reason"] for c in bad)
    # offsets of the (fact-level) claims point into the answer
    assert all(GOOD[c["start"]:c["end"]] == c["text"] for c in art["claims"])


def test_a_judge_without_agree_falls_back_to_verify(judge):
    door = DoorOnly(judge)
    s = Sample(id="good", question=Q, answer=GOOD, reference=REF, contexts=CTX)
    col = run(["answer_correctness"], [s], door)["answer_correctness"]
    assert door.verify_calls == 1 and col.values[0] is not None and 0.0 <= col.values[0] <= 1.0


def test_a_short_reference_is_scored_not_dropped(judge):
    s = Sample(id="s", question="Which documentary was released earlier, Almost Sunrise or 51 Birch Street?",
               answer="The answer is 51 Birch Street.", reference="51 Birch Street")
    h = Sample(id="h", question=s.question, answer="Almost Sunrise was released earlier.", reference="51 Birch Street")
    col = run(["answer_correctness"], [s, h], judge)["answer_correctness"]
    assert col.values[0] >= 0.7 and col.values[1] <= 0.3, col.values


def test_noise_robustness_scores_a_correct_paraphrase_and_flags_a_distracted_variant(judge):
    noisy_ctx = CTX + (Context("Штукатурка: минимальный объём 100 м².", id="p7"),)
    clean = Sample(id="c", question=Q, answer=GOOD, reference=REF, contexts=CTX)
    robust = Sample(id="c~noise", question=Q, answer=GOOD.replace("стоит", "обойдётся в"), reference=REF,
                    contexts=noisy_ctx, metadata={"noise_of": "c"})
    distracted = Sample(id="c~noise2", question=Q, answer=GOOD.replace("10 квадратных метров", "100 м²"), reference=REF,
                        contexts=noisy_ctx, metadata={"noise_of": "c"})
    col = run(["noise_robustness"], [clean, robust, distracted], judge)["noise_robustness"]
    assert col.values[0] is None and "not a noisy variant" in col.reasons[0]
    assert col.values[1] is not None and col.values[1] >= 0.9, (col.values, col.reasons)
    assert col.values[2] is not None and col.values[2] < col.values[1]
    # a distractor changed a fact the clean answer had right: the question did not survive the noise
    assert col.values[2] == 0.0 and col.artifacts[2]["new_contradicted"], col.artifacts[2]
