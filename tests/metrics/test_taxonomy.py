"""The hallucination taxonomy on hand-made cases, one per class, with the real offline judge.

Each case is built so that exactly one class applies; the expected labels are worked out in the comments."""

import pytest

from ragauge.data.schema import Context, Sample
from ragauge.errors import InputError
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import parse_metrics
from ragauge.metrics.taxonomy import claim_class, subject_overlap

Q = "Какой аванс?"
ADV = Context("Аванс составляет 50% от цены договора.", id="c1")
OLD = Context("Штукатурка стен — 560 руб. за м².", id="p25", metadata={"title": "Прайс-лист, редакция от 01.09.2025"})
NEW = Context("Штукатурка стен — 620 руб. за м².", id="p26", metadata={"title": "Прайс-лист, редакция от 01.03.2026"})


@pytest.fixture(scope="module")
def judge():
    from ragauge.judges.base import get_judge

    return get_judge("offline")


def run(names, samples, judge):
    out = {}
    for spec in parse_metrics(names):
        out.update(score_columns([spec], samples, judge))
    return out


CASES = [
    # the old price list says 560, the current one 620: faithful (560 is in a context) but outdated
    Sample(id="outdated", question="Сколько стоит штукатурка?", answer="Штукатурка стен стоит 560 руб. за м².", contexts=(OLD, NEW)),
    # the context says 50%
    Sample(id="contradiction", question=Q, answer="Аванс составляет 30% от цены договора.", contexts=(ADV,)),
    # the warranty is in no context; the advance claim is right
    Sample(id="fabrication", question=Q, answer="Аванс составляет 50% от цены договора. Гарантия составляет 5 лет.", contexts=(ADV,)),
    # 50% then 30%: the answer contradicts itself (and its second claim the context)
    Sample(id="logical", question=Q, answer="Аванс составляет 50% от цены договора. При этом аванс составляет 30% от цены договора.",
           contexts=(ADV,)),
    # faithful to the context, which is wrong: the trusted contract says 30%
    Sample(id="factual", question=Q, answer="Аванс составляет 50% от цены договора.", contexts=(ADV,),
           metadata={"trusted": ["Аванс составляет 30% от цены договора."]}),
    Sample(id="clean", question=Q, answer="Аванс составляет 50% от цены договора.", contexts=(ADV,),
           metadata={"trusted": [{"text": "Аванс составляет 50% от цены договора."}]}),
]


def test_each_class_is_labelled(judge):
    out = run(["hallucination_taxonomy", "self_contradiction", "factuality", "faithfulness"], CASES, judge)
    tax = out["hallucination_taxonomy"]
    assert tax.values == [1.0, 1.0, 1.0, 1.0, 1.0, 0.0]
    assert [a["classes"] for a in tax.artifacts] == [
        ["outdated_source"], ["contradiction"], ["fabrication"], ["contradiction", "logical_contradiction"], ["factual_error"], []]
    assert [c["class"] for c in tax.artifacts[2]["claims"]] == [None, "fabrication"]
    assert tax.artifacts[0]["claims"][0]["superseded_evidence"] == OLD.text
    assert tax.artifacts[3]["self_contradictions"][0]["claims"] == [0, 1]
    # faithfulness calls the outdated and the factually wrong answers perfect: that is why the taxonomy exists
    assert out["faithfulness"].values[0] == 1.0 and out["faithfulness"].values[4] == 1.0
    assert out["self_contradiction"].values == [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    assert out["factuality"].values[4:] == [0.0, 1.0]
    assert out["factuality"].reasons[:4] == ["no trusted source"] * 4


def test_claims_on_different_subjects_are_not_a_self_contradiction(judge):
    # the verifier alone calls 560 vs 1150 "contradicted"; the subject check keeps this pair out
    s = Sample(id="two", answer="Штукатурка стоит 560 руб. за м². Монтаж гипсокартона стоит 1150 руб. за м².")
    col = run(["self_contradiction"], [s], judge)["self_contradiction"]
    assert col.values == [0.0]


def test_english_self_contradiction(judge):
    s = Sample(id="en", answer="The advance is 30% of the price. The warranty is 3 years. The advance is 50% of the price.")
    col = run(["self_contradiction"], [s], judge)["self_contradiction"]
    assert col.values == [1.0] and col.artifacts[0]["self_contradictions"][0]["claims"] == [0, 2]


def test_unscored_reasons_and_bad_trusted(judge):
    samples = [Sample(id="r", question=Q, answer="В базе нет документов, отвечающих на этот вопрос.", contexts=(ADV,)),
               Sample(id="n", question=Q, answer="Аванс 50%.")]
    col = run(["hallucination_taxonomy"], samples, judge)["hallucination_taxonomy"]
    assert col.reasons == ["refusal: the answer declines to answer", "no contexts"]
    with pytest.raises(InputError, match="trusted source must be a text"):
        run(["factuality"], [Sample(id="b", answer="a", metadata={"trusted": 42})], judge)


def test_pure_rules():
    assert subject_overlap("Работы выполняются в течение 5 дней.", "Срок выполнения работ — 10 дней.") == 0.6
    assert claim_class("supported") is None and claim_class("unsupported") == "fabrication"
    assert claim_class("supported", paired=True) == "logical_contradiction"
    assert claim_class("supported", trusted="unsupported") is None  # the trusted source may not cover it
