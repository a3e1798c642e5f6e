"""The dict front door and the batch assembly (ragauge.scores._columns): every fast path (already
ranked input, ties only in some queries, unsorted input, uneven lengths, -M cuts) against a plain
reference that ranks each query with order_by_score and batches the ranked lists."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest

from ragauge.scores import ranking as rk
from ragauge.scores._columns import _rank_order, batch_from_columns, rank_groups

MEASURES = ["ndcg@10", "ndcg", "mrr@5", "mrr", "recall@20", "precision@5", "map@20", "map", "hit_rate@3", "r_precision"]


def _case(seed: int, *, sorted_scores: bool, ties: bool, uneven: bool, n_queries: int = 60):
    rng = np.random.default_rng(seed)
    run, qrels = {}, {}
    for q in range(n_queries):
        depth = int(rng.integers(0, 40)) if uneven else 25
        docs = [f"d{x}" for x in rng.choice(500, size=depth, replace=False)]
        scores = rng.integers(0, 5, depth) / 4 if ties else rng.permutation(depth) / 7
        if sorted_scores:
            scores = np.sort(scores)[::-1]
        run[f"q{q}"] = {d: float(s) for d, s in zip(docs, scores)}
        judged = rng.choice(500, size=int(rng.integers(0, 30)), replace=False)
        qrels[f"q{q}"] = {f"d{x}": int(g) for x, g in zip(judged, rng.choice([-1, 0, 1, 2, 3], judged.size))}
    return run, qrels


def _reference(run, qrels, rel_level):
    qids = [q for q in run if q in qrels]
    ranked = []
    for q in qids:
        docs = list(run[q])
        ranked.append([docs[i] for i in rk.order_by_score(docs, list(run[q].values()))])
    return rk.build_batch(ranked, [qrels[q] for q in qids], rel_level=rel_level)


@pytest.mark.parametrize("sorted_scores", [True, False])
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("uneven", [True, False])
@pytest.mark.parametrize("rel_level", [0, 1, 2])
def test_dict_door_equals_reference(sorted_scores, ties, uneven, rel_level):
    run, qrels = _case(int(sorted_scores) + 2 * ties + 4 * uneven, sorted_scores=sorted_scores, ties=ties, uneven=uneven)
    ours = rk.evaluate_run(run, qrels, MEASURES, rel_level=rel_level)
    batch = _reference(run, qrels, rel_level)
    for name in MEASURES:
        expected = rk._measure(name)(batch)
        np.testing.assert_allclose(ours.values[name], expected, rtol=0, atol=1e-12, err_msg=name)


def test_ties_resolved_only_where_they_are():
    # q1 in score order without ties, q2 in score order with a tie, q3 unsorted with a tie
    run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"a": 2.0, "b": 2.0, "c": 1.0}, "q3": {"a": 1.0, "z": 5.0, "m": 1.0}}
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 1}}
    result = rk.evaluate_run(run, qrels, ["mrr"])
    # q2: tie a/b broken by descending id -> b, a: a at rank 2; q3: z, then m before a -> a at rank 3
    assert result.values["mrr"].tolist() == [1.0, 0.5, 1 / 3]


def test_other_mappings_and_sequences():
    run = {"q1": MappingProxyType({"a": 1.0, "b": 2.0}), "q2": MappingProxyType({"c": 1.0})}
    qrels = {"q1": MappingProxyType({"a": 1}), "q2": {"c": 2}}
    assert rk.evaluate_run(run, qrels, ["mrr"]).values["mrr"].tolist() == [0.5, 1.0]
    listed = rk.evaluate_run({"q1": ("b", "a"), "q2": ["c"]}, qrels, ["mrr"])
    assert listed.values["mrr"].tolist() == [0.5, 1.0]
    with pytest.raises(rk.InputError, match="mixes"):
        rk.evaluate_run({"q1": ("b", "a"), "q2": MappingProxyType({"c": 1.0})}, qrels, ["mrr"])


def test_rank_groups_identity_and_permutation():
    lengths = np.array([3, 0, 2])
    no_ties = lambda idx: idx  # noqa: E731
    assert _rank_order(lengths, np.array([3.0, 2.0, 1.0, 5.0, 4.0]), no_ties) is None
    assert rank_groups(lengths, np.array([3.0, 2.0, 1.0, 5.0, 4.0]), no_ties).tolist() == [0, 1, 2, 3, 4]
    assert rank_groups(lengths, np.array([1.0, 3.0, 2.0, 4.0, 5.0]), no_ties).tolist() == [1, 2, 0, 4, 3]
    # a tie: the larger tie rank comes first
    assert rank_groups(np.array([3]), np.array([1.0, 1.0, 2.0]), lambda idx: idx).tolist() == [2, 1, 0]
    with pytest.raises(rk.InputError, match="NaN"):
        rank_groups(np.array([1]), np.array([np.nan]), no_ties)


def test_max_depth_cuts_uniform_and_uneven_rows():
    grades = np.array([0, 1, 2, 1, np.nan, 3.0])
    uniform = batch_from_columns(np.array([3, 3]), grades, np.array([2, 2]), np.array([1, 2, 1, 3.0]), max_depth=2)
    assert uniform.gains.tolist() == [[0, 1], [1, 0]] and uniform.retrieved.tolist() == [2, 2]
    uneven = batch_from_columns(np.array([4, 2]), grades, np.array([2, 2]), np.array([1, 2, 1, 3.0]), max_depth=3)
    assert uneven.gains.tolist() == [[0, 1, 2], [0, 3, 0]] and uneven.retrieved.tolist() == [3, 2]
    zero = batch_from_columns(np.array([3, 3]), grades, np.array([2, 2]), np.array([1, 2, 1, 3.0]), rel_level=0,
                              max_depth=2)
    assert zero.judged.tolist() == [[True, True], [True, False]]
