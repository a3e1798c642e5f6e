"""Judge metrics with the real offline judge (models from PyPI packages), Russian and English."""

import pytest

from ragauge.data.noise import SUFFIX, make_noisy_variants
from ragauge.data.schema import Context, Sample
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import parse_metrics

CTX = (
    Context("Аванс составляет 30% от цены договора и перечисляется в течение 5 рабочих дней с даты подписания.", id="c1"),
    Context("Гарантийный срок на выполненные работы составляет 3 года с даты подписания акта приёмки.", id="c2"),
    Context("Стоимость монтажа гипсокартона в один слой — 1 150 руб. за м².", id="c3"),
)


@pytest.fixture(scope="module")
def judge():
    from ragauge.judges.base import get_judge

    return get_judge("offline")


def run(names, samples, judge):
    out = {}
    for spec in parse_metrics(names):
        out.update(score_columns([spec], samples, judge))
    return out


def test_faithfulness_catches_a_wrong_number_and_keeps_evidence(judge):
    good = Sample(id="g", question="Какой аванс?", answer="Аванс составляет 30% от цены договора.", contexts=CTX)
    bad = Sample(id="b", question="Какой аванс?", answer="Аванс составляет 20% от цены договора.", contexts=CTX)
    col = run(["faithfulness"], [good, bad], judge)["faithfulness"]
    assert col.values == [1.0, 0.0]
    claim = col.artifacts[1]["claims"][0]
    assert claim["verdict"] in ("unsupported", "contradicted")
    assert "20" in claim["reason"] and "30" in claim["reason"]
    ev = col.artifacts[0]["claims"][0]["evidence"]
    assert CTX[ev["source"]].text[ev["start"]:ev["end"]] == ev["text"] and "30%" in ev["text"]
    assert col.artifacts[1]["hallucinated"] is True and col.artifacts[0]["hallucinated"] is False
    assert col.provenance["judge"] == "offline"


def test_equivalent_forms_are_faithful(judge):
    s = Sample(id="e", question="Какая гарантия?", answer="Гарантия на работы — 36 месяцев с подписания акта приёмки.",
               contexts=CTX)
    assert run(["faithfulness"], [s], judge)["faithfulness"].values == [1.0]


@pytest.mark.parametrize(
    "sample, reason",
    [(Sample(id="1", question="q", contexts=CTX), "no answer"),
     (Sample(id="2", question="q", answer="Аванс 30%."), "no contexts"),
     (Sample(id="3", question="q", answer="В базе нет документов, отвечающих на этот вопрос.", contexts=CTX), "refusal"),
     (Sample(id="4", question="q", answer="Здравствуйте! Чем могу помочь?", contexts=CTX), "no claims")],
)
def test_faithfulness_unscored(judge, sample, reason):
    col = run(["faithfulness"], [sample], judge)["faithfulness"]
    assert col.values == [None] and reason in col.reasons[0]


def test_answer_relevancy_on_topic_off_topic_refusal(judge):
    q = "Какой гарантийный срок на работы?"
    on = Sample(id="on", question=q, answer="Гарантийный срок на работы составляет 3 года.")
    off = Sample(id="off", question=q, answer="Мы работаем на рынке более десяти лет и ценим клиентов.")
    ref = Sample(id="ref", question=q, answer="Не знаю.")
    col = run(["answer_relevancy"], [on, off, ref], judge)["answer_relevancy"]
    assert col.values[0] > 0.7 > col.values[1]
    assert col.values[2] == 0.0 and col.artifacts[2] == {"refusal": True}


def test_answer_correctness(judge):
    ref = "Аванс составляет 30% от цены договора."
    right = Sample(id="r", question="q", answer="Аванс — 30% цены договора.", reference=ref)
    wrong = Sample(id="w", question="q", answer="Аванс составляет 50% от цены договора.", reference=ref)
    both_refuse = Sample(id="n", question="q", answer="В документах нет такой информации.",
                         reference="В базе нет документов, отвечающих на этот вопрос.")
    invented = Sample(id="i", question="q", answer="Скидка пенсионерам составляет 5%.",
                      reference="В базе нет документов, отвечающих на этот вопрос.")
    col = run(["answer_correctness"], [right, wrong, both_refuse, invented], judge)["answer_correctness"]
    assert col.values[0] > 0.8 and col.values[1] < 0.5
    assert col.values[2] == 1.0 and col.values[3] == 0.0
    assert set(col.artifacts[0]) >= {"precision", "recall", "f1", "similarity", "claims"}


def test_context_recall_precision_f1(judge):
    s = Sample(id="1", question="Какой аванс и гарантия?", reference="Аванс 30% цены договора. Гарантия 3 года.",
               contexts=(CTX[2], CTX[0]))
    r = run(["context_recall", "context_precision", "context_f1"], [s], judge)
    assert r["context_recall"].values == [0.5]  # the warranty is not in these contexts
    assert r["context_precision"].values == [0.5]  # the useful context is second
    assert r["context_f1"].values[0] == pytest.approx(0.5)
    assert r["context_precision"].artifacts[0]["useful_contexts"] == [False, True]


def test_toxicity_share(judge):
    clean = Sample(id="c", question="q", answer="Неустойка составляет 0,1% за каждый день просрочки.")
    toxic = Sample(id="t", question="q", answer="Ты идиот, отстань со своими вопросами.")
    empty = Sample(id="e", question="q", answer="")
    col = run(["toxicity"], [clean, toxic, empty], judge)["toxicity"]
    assert col.values[:2] == [0.0, 1.0] and col.values[2] is None and col.reasons[2] == "empty answer"


def test_noisy_variants_and_noise_robustness(judge):
    base = [Sample(id=f"s{i}", question="Какой аванс?", answer="Аванс составляет 30% от цены договора.",
                   reference="Аванс составляет 30% от цены договора.", contexts=(CTX[0],), relevant_ids={"c1": 1})
            for i in range(1)]
    others = [Sample(id="o1", question="q", contexts=(CTX[1], CTX[2]))]
    noisy = make_noisy_variants(base + others, n_noise=2, seed=0)
    v = [x for x in noisy if x.id == "s0" + SUFFIX][0]
    assert v.metadata["noise_of"] == "s0" and v.answer is None and len(v.contexts) == 3
    assert {c.id for c in v.contexts} == {"c1", "c2", "c3"} and v.retrieved_ids == tuple(c.id for c in v.contexts)
    kept = Sample(**{**{f: getattr(v, f) for f in v.__slots__}, "answer": "Аванс составляет 30% от цены договора."})
    lost = Sample(**{**{f: getattr(v, f) for f in v.__slots__}, "id": "s0~lost",
                     "answer": "Гарантийный срок составляет 3 года."})
    col = run(["noise_robustness"], base + [kept, lost], judge)["noise_robustness"]
    assert col.values[0] is None and "not a noisy variant" in col.reasons[0]
    assert col.values[1] == 1.0 and col.values[2] < 0.5


class _CitesTogether:
    """The offline judge, except that a claim checked against all contexts at once is supported with evidence
    in context 1 when both numbers are there together: the multi-chunk case, decided deterministically."""

    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def verify(self, items):
        from ragauge.judges.types import ClaimVerdict, EvidenceSpan

        out = self.inner.verify(items)
        for k, (claims, contexts, _) in enumerate(items):
            if len(contexts) == 2:
                text = contexts[1]
                out[k] = [ClaimVerdict(v.claim, v.start, v.end, "supported", 1.0,
                                       EvidenceSpan(1, 0, len(text), text), "both prices are in the contexts")
                          for v in out[k]]
        return out


def test_context_precision_credits_the_chunks_a_multi_chunk_fact_needs(judge):
    ctx = (Context("Облицовка стен ГКЛ в один слой стоит 1150 руб. за м².", id="a"),
           Context("Штукатурка стен стоит 560 руб. за м².", id="b"))
    s = Sample("m1", "На сколько облицовка ГКЛ дороже штукатурки?", answer="На 590 руб.",
               reference="Облицовка ГКЛ дороже штукатурки на 590 руб.: 1150 руб. против 560 руб. за м².",
               contexts=ctx)
    col = run(["context_precision"], [s], _CitesTogether(judge))["context_precision"]
    flags = col.artifacts[0]["useful_contexts"]
    assert flags[1] is True  # cited for the fact only both chunks support, although it supports none alone
