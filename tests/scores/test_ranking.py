"""Hand-computed cases for every ranking kernel and edge (values worked out in the comments)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ragauge.errors import InputError
from ragauge.scores.ranking import (
    average_precision,
    build_batch,
    evaluate_run,
    hit_rate,
    ndcg,
    num_rel_ret,
    order_by_score,
    precision,
    r_precision,
    recall,
    reciprocal_rank,
)

L2, L3, L4, L5 = (math.log2(i) for i in (2, 3, 4, 5))


def one(ranking, qrels, **kw):
    return build_batch([ranking], [qrels], **kw)


# ranking a b c d, relevant b and d (grade 1), plus e relevant but not retrieved: R = 3
BASIC = one(["a", "b", "c", "d"], {"b": 1, "d": 1, "e": 1, "a": 0})


def test_basic_binary_case():
    assert precision(BASIC, 2)[0] == pytest.approx(1 / 2)
    assert precision(BASIC, 4)[0] == pytest.approx(2 / 4)
    assert recall(BASIC, 2)[0] == pytest.approx(1 / 3)
    assert recall(BASIC, 4)[0] == pytest.approx(2 / 3)
    assert hit_rate(BASIC, 1)[0] == 0.0 and hit_rate(BASIC, 2)[0] == 1.0
    assert reciprocal_rank(BASIC)[0] == pytest.approx(1 / 2)
    assert reciprocal_rank(BASIC, 1)[0] == 0.0
    # AP = (1/2 + 2/4) / 3 ; AP@2 = (1/2) / 3
    assert average_precision(BASIC)[0] == pytest.approx((0.5 + 0.5) / 3)
    assert average_precision(BASIC, 2)[0] == pytest.approx(0.5 / 3)
    # R = 3: top 3 = a b c holds one relevant
    assert r_precision(BASIC)[0] == pytest.approx(1 / 3)
    assert num_rel_ret(BASIC)[0] == 2
    # DCG = 1/log2(3) + 1/log2(5); IDCG = 1 + 1/log2(3) + 1/log2(4)
    assert ndcg(BASIC)[0] == pytest.approx((1 / L3 + 1 / L5) / (1 + 1 / L3 + 1 / L4))
    assert ndcg(BASIC, 2)[0] == pytest.approx((1 / L3) / (1 + 1 / L3))


def test_k_larger_than_ranking_pads_with_non_relevant():
    assert precision(BASIC, 10)[0] == pytest.approx(2 / 10)  # trec_eval P_10 divides by 10
    assert recall(BASIC, 10)[0] == pytest.approx(2 / 3)
    assert average_precision(BASIC, 10)[0] == pytest.approx(average_precision(BASIC)[0])
    assert ndcg(BASIC, 10)[0] == pytest.approx(ndcg(BASIC)[0])


def test_no_relevant_documents_scores_zero_everywhere():
    batch = one(["a", "b"], {"a": 0, "b": 0})
    for values in (precision(batch, 2), recall(batch, 2), hit_rate(batch, 2), reciprocal_rank(batch),
                   average_precision(batch), r_precision(batch), ndcg(batch)):
        assert values[0] == 0.0
    assert batch.num_rel[0] == 0


def test_empty_ranking_and_empty_batch():
    batch = build_batch([[], ["a"]], [{"x": 2}, {"a": 1}])
    assert precision(batch, 5).tolist() == [0.0, 0.2]
    assert recall(batch, 5).tolist() == [0.0, 1.0]
    assert ndcg(batch).tolist() == [0.0, 1.0]
    assert r_precision(batch).tolist() == [0.0, 1.0]
    empty = build_batch([], [])
    assert ndcg(empty).shape == (0,) and average_precision(empty).shape == (0,)
    only_empty = build_batch([[]], [{"x": 1}])
    assert reciprocal_rank(only_empty)[0] == 0.0 and r_precision(only_empty)[0] == 0.0
    assert average_precision(only_empty)[0] == 0.0


def test_grade_zero_and_negative_grades():
    # grades: a=-1 (judged, treated as unjudged by trec_eval), b=0, c=2, d unjudged
    batch = one(["a", "b", "c", "d"], {"a": -1, "b": 0, "c": 2, "z": -3})
    assert batch.gains[0].tolist() == [-1.0, 0.0, 2.0, 0.0]
    assert batch.num_rel[0] == 1  # only c (>= 1); negatives never count
    assert batch.ideal[0].tolist() == [2.0]  # ideal holds positive grades only
    # negative and zero grades add no gain: DCG = 2/log2(4), IDCG = 2
    assert ndcg(batch)[0] == pytest.approx((2 / L4) / 2)
    assert reciprocal_rank(batch)[0] == pytest.approx(1 / 3)


def test_rel_level_zero_makes_judged_zero_relevant_but_not_unjudged_or_negative():
    batch = one(["a", "b", "c", "d"], {"a": -1, "b": 0, "c": 2}, rel_level=0)
    assert batch.num_rel[0] == 2  # b and c
    assert precision(batch, 4)[0] == pytest.approx(2 / 4)
    assert reciprocal_rank(batch)[0] == pytest.approx(1 / 2)
    with pytest.raises(InputError, match=">= 0"):
        one(["a"], {"a": 1}, rel_level=-1)


def test_rel_level_two_and_ndcg_ignores_it():
    batch = one(["a", "b", "c"], {"a": 1, "b": 2, "c": 3}, rel_level=2)
    assert batch.num_rel[0] == 2
    assert precision(batch, 1)[0] == 0.0
    assert reciprocal_rank(batch)[0] == pytest.approx(1 / 2)
    # AP = (1/2 + 2/3) / 2
    assert average_precision(batch)[0] == pytest.approx((1 / 2 + 2 / 3) / 2)
    # ndcg uses all positive grades as gains whatever the level: DCG = 1 + 2/log2 3 + 3/2
    dcg = 1 + 2 / L3 + 3 / L4
    idcg = 3 + 2 / L3 + 1 / L4
    assert ndcg(batch)[0] == pytest.approx(dcg / idcg)
    # a query with no doc at level 2 still has an ndcg (trec_eval's ndcg ignores -l)
    low = one(["a"], {"a": 1}, rel_level=2)
    assert low.num_rel[0] == 0 and ndcg(low)[0] == 1.0 and average_precision(low)[0] == 0.0


def test_graded_and_exponential_gain():
    batch = one(["a", "b", "c"], {"a": 1, "b": 3, "c": 0, "d": 2})
    dcg = 1 / L2 + 3 / L3
    idcg = 3 / L2 + 2 / L3 + 1 / L4
    assert ndcg(batch)[0] == pytest.approx(dcg / idcg)
    dcg_exp = 1 / L2 + 7 / L3
    idcg_exp = 7 / L2 + 3 / L3 + 1 / L4
    assert ndcg(batch, gain="exponential")[0] == pytest.approx(dcg_exp / idcg_exp)
    assert ndcg(batch, 1, gain="exponential")[0] == pytest.approx(1 / 7)
    with pytest.raises(InputError, match="unknown gain"):
        ndcg(batch, gain="log")


def test_duplicate_id_in_a_ranking_names_query_and_id():
    with pytest.raises(InputError, match=r"query 1: document id 'b' appears twice"):
        build_batch([["a"], ["b", "c", "b"]], [{}, {}])


def test_bad_cutoff():
    with pytest.raises(InputError, match="positive integer"):
        precision(BASIC, 0)


def test_order_by_score_ties_by_descending_doc_id():
    # trec_eval v10: score descending, ties by docno in descending strcmp order
    assert order_by_score(["a", "b", "c"], [1.0, 2.0, 1.0]).tolist() == [1, 2, 0]
    assert order_by_score(["d10", "d9", "d1"], [0.5, 0.5, 0.5]).tolist() == [1, 0, 2]
    assert order_by_score([], []).tolist() == []
    with pytest.raises(InputError, match="NaN"):
        order_by_score(["a"], [float("nan")])


def test_evaluate_run_scores_and_lists():
    run = {"q1": {"a": 1.0, "b": 2.0, "c": 1.0}, "q2": {"x": 3.0, "y": 2.0}, "q3": {"z": 1.0}}
    qrels = {"q1": {"a": 0, "c": 2}, "q2": {"y": 1}}  # q3 has no qrels: not scored
    result = evaluate_run(run, qrels, ["ndcg@10", "mrr", "precision@1", "r_precision", "ndcg_exp@2"])
    assert result.query_ids == ["q1", "q2"]
    # q1 ranked b, c, a (tie c/a broken by descending id); q2 ranked x, y
    assert result.values["mrr"].tolist() == [0.5, 0.5]
    assert result.values["ndcg@10"][0] == pytest.approx((2 / L3) / 2)
    assert result.values["precision@1"].tolist() == [0.0, 0.0]
    listed = evaluate_run({"q1": ["b", "c", "a"], "q2": ["x", "y"]}, qrels, ["ndcg@10", "mrr"])
    np.testing.assert_allclose(listed.values["ndcg@10"], result.values["ndcg@10"])
    assert result.mean()["mrr"] == 0.5
    with pytest.raises(InputError, match="unknown ranking measure"):
        evaluate_run(run, qrels, ["ndgc@10"])
    with pytest.raises(InputError, match="needs a cutoff"):
        evaluate_run(run, qrels, ["recall"])
    with pytest.raises(InputError, match="mixes"):
        evaluate_run({"q1": ["a"], "q2": {"y": 1.0}}, qrels, ["mrr"])


@pytest.mark.parametrize("last", [[], "", ()])
def test_an_empty_list_at_the_end_of_a_dict_run_is_still_refused(last):
    # the fast path's one C-level pass never reaches an empty ranking at the end: the type is checked first
    with pytest.raises(InputError, match="mixes"):
        evaluate_run({"q1": {"d1": 2.0, "d2": 1.0}, "q2": last}, {"q1": {"d1": 1}, "q2": {}}, ["map"])


def test_dict_subclasses_are_ranked_by_their_own_methods():
    class Shifted(dict):  # a subclass whose get and values disagree with the stored items
        def get(self, key, default=None):
            return dict.get(self, key, default) if key != "d1" else 0.5

        def values(self):
            return [0.5 if k == "d1" else v for k, v in self.items()]

    got = evaluate_run({"q1": {"d2": 3.0, "d1": 2.0}, "q2": Shifted(d1=2.0, d2=1.0)},
                       {"q1": {"d1": 1}, "q2": {"d1": 1}}, ["mrr"])
    assert got.values["mrr"].tolist() == [0.5, 0.5]  # d1 ranks below d2 once its score reads 0.5


@pytest.mark.parametrize("grade", [float("inf"), float("-inf")])
def test_an_infinite_qrels_grade_is_refused(grade):
    for run in ({"q": {"a": 1.0, "b": 0.5}}, {"q": ["a", "b"]}, {"q": {"a": 0.5, "b": 0.5}}):
        with pytest.raises(InputError, match="not a finite number"):
            evaluate_run(run, {"q": {"a": grade, "b": 1}}, ["ndcg@10", "map"])


def test_a_nan_qrels_grade_means_not_judged():
    for run in ({"q": {"a": 1.0, "b": 0.5}}, {"q": ["a", "b"]}):
        got = evaluate_run(run, {"q": {"a": float("nan"), "b": 1}}, ["ndcg@10", "map"]).values
        unjudged = evaluate_run(run, {"q": {"b": 1}}, ["ndcg@10", "map"]).values
        assert {k: v.tolist() for k, v in got.items()} == {k: v.tolist() for k, v in unjudged.items()}


def test_a_cutoff_in_other_digits_is_an_input_error():
    with pytest.raises(InputError):
        evaluate_run({"q": {"a": 1.0}}, {"q": {"a": 1}}, ["ndcg@²"])
