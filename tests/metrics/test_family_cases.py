"""Hand-computed cases through the metric layer (unscored rules, ranking as given, id-based context)."""

import math

import pytest

from ragauge.data.schema import Context, Sample
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import parse_metrics


def run(names, samples):
    specs = parse_metrics(names)
    out = {}
    for s in specs:
        out.update(score_columns([s], samples, None))
    return out


def test_ranking_as_given_and_hand_values():
    # relevant: a (grade 2), c (grade 1); ranking b, a, d, c
    s = Sample(id="1", question="q", retrieved_ids=("b", "a", "d", "c"), relevant_ids={"a": 2, "c": 1, "z": 0})
    r = run(["hit_rate@1", "hit_rate@2", "recall@2", "precision@2", "mrr", "mrr@1", "map", "r_precision",
             "ndcg@4", "ndcg_exp@4", "precision@10"], [s])
    v = {k: c.values[0] for k, c in r.items()}
    assert v["hit_rate@1"] == 0 and v["hit_rate@2"] == 1
    assert v["recall@2"] == 0.5 and v["precision@2"] == 0.5
    assert v["mrr"] == 0.5 and v["mrr@1"] == 0
    assert v["map"] == pytest.approx((1 / 2 + 2 / 4) / 2)
    assert v["r_precision"] == 0.5
    dcg = 2 / math.log2(3) + 1 / math.log2(5)
    idcg = 2 / math.log2(2) + 1 / math.log2(3)
    assert v["ndcg@4"] == pytest.approx(dcg / idcg)
    dcg_e = 3 / math.log2(3) + 1 / math.log2(5)
    idcg_e = 3 / math.log2(2) + 1 / math.log2(3)
    assert v["ndcg_exp@4"] == pytest.approx(dcg_e / idcg_e)
    assert v["precision@10"] == pytest.approx(2 / 10)  # trec_eval divides by k


def test_contexts_ids_are_the_ranking_when_retrieved_ids_absent():
    s = Sample(id="1", question="q", contexts=(Context("x", id="b"), Context("y", id="a")), relevant_ids=["a"] and {"a": 1})
    assert run(["mrr"], [s])["mrr"].values == [0.5]


@pytest.mark.parametrize(
    "sample, reason",
    [(Sample(id="1", question="q", relevant_ids={"a": 1}), "no retrieved_ids"),
     (Sample(id="1", question="q", contexts=(Context("x"),), relevant_ids={"a": 1}), "no retrieved_ids"),
     (Sample(id="1", question="q", retrieved_ids=("a",)), "no relevant_ids"),
     (Sample(id="1", question="q", retrieved_ids=("a",), relevant_ids={}), "no relevant document"),
     (Sample(id="1", question="q", retrieved_ids=("a",), relevant_ids={"a": 0, "b": -1}), "no relevant document")],
)
def test_unscored_reasons(sample, reason):
    col = run(["ndcg@5"], [sample])["ndcg@5"]
    assert col.values == [None] and reason in col.reasons[0]


def test_empty_ranking_scores_zero_not_unscored():
    s = Sample(id="1", question="q", retrieved_ids=(), relevant_ids={"a": 1})
    r = run(["recall@5", "mrr", "ndcg@5", "context_recall_ids", "context_precision_ids"], [s])
    assert r["recall@5"].values == [0.0] and r["mrr"].values == [0.0] and r["ndcg@5"].values == [0.0]
    assert r["context_recall_ids"].values == [0.0]
    assert r["context_precision_ids"].values == [None] and r["context_precision_ids"].reasons == ["nothing retrieved"]


def test_id_based_context_metrics():
    s = Sample(id="1", question="q", retrieved_ids=("a", "b", "c", "d"), relevant_ids={"a": 1, "x": 2, "b": 0})
    r = run(["context_precision_ids", "context_recall_ids", "context_f1_ids"], [s])
    # only "a" (rank 1) is relevant among the retrieved: precision@1 = 1; recall 1 of 2 (x missing)
    assert r["context_precision_ids"].values == [1.0]
    assert r["context_recall_ids"].values == [0.5]
    assert r["context_f1_ids"].values[0] == pytest.approx(2 * 1.0 * 0.5 / 1.5)
    late = Sample(id="2", question="q", retrieved_ids=("b", "c", "a", "x"), relevant_ids={"a": 1, "x": 2})
    r = run(["context_precision_ids"], [late])
    assert r["context_precision_ids"].values[0] == pytest.approx((1 / 3 + 2 / 4) / 2)


def test_operational_values_and_unscored():
    a = Sample(id="1", question="q", latency_ms=1200.0)
    b = Sample(id="2", question="q")
    col = run(["latency_p95"], [a, b])["latency_p95"]
    assert col.values == [1200.0, None] and col.reasons[1] == "latency_ms not measured"


def test_id_context_metrics_use_the_contexts_the_generator_saw():
    # 10 retrieved, 2 passed on as contexts: precision is over the 2 contexts, not the 10 ids
    s = Sample(id="1", question="q", retrieved_ids=tuple("abcdefghij"), relevant_ids={"a": 1, "j": 1},
               contexts=(Context("x", id="a"), Context("y", id="b")))
    r = run(["context_precision_ids", "context_recall_ids", "recall@10"], [s])
    assert r["context_precision_ids"].values == [1.0]  # the relevant "a" is first
    assert r["context_recall_ids"].values == [0.5]
    assert r["recall@10"].values == [1.0]
