"""The dict front door and the batch assembly (ragauge.scores._columns): every fast path (already
ranked input, ties only in some queries, unsorted input, uneven lengths, -M cuts) against a plain
reference that ranks each query with order_by_score and batches the ranked lists."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest

from ragauge.scores import ranking as rk
from ragauge.scores._columns import _rank_order, batch_from_columns, rank_groups, scored_batch

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


# --------------------------------------------------------------------------- scored_batch (the usual dict door)


def _sorted_case(seed: int, *, n_queries: int = 80, max_depth: int = 300):
    """Strictly descending scores (the fast path), uneven depths (some empty, some > 256), odd grades."""
    rng = np.random.default_rng(seed)
    run, qrels = {}, {}
    for q in range(n_queries):
        depth = int(rng.choice([0, 1, 2, 7, 100, max_depth]))
        docs = [f"d{x}" for x in rng.choice(1000, size=depth, replace=False)]
        scores = np.sort(rng.normal(size=depth) * 10.0 ** int(rng.integers(-3, 4)))[::-1]
        if depth > 2 and q % 5 == 0:
            scores[0], scores[-1] = np.inf, -np.inf
        if len(set(scores.tolist())) < depth:
            continue
        run[f"q{q}"] = {d: float(s) for d, s in zip(docs, scores)}
        judged = rng.choice(1000, size=int(rng.integers(0, 40)), replace=False)
        grades = rng.choice([-1.0, 0.0, 0.5, 1.0, 2.0, 3.0, np.nan], judged.size)
        if q % 7 != 3:  # some run queries have no qrels at all
            qrels[f"q{q}"] = {f"d{x}": float(g) for x, g in zip(judged, grades)}
    qrels["only_in_qrels"] = {"d1": 1.0}
    return run, qrels


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("rel_level", [0, 0.5, 1, 2])
def test_scored_batch_equals_reference(seed, rel_level):
    run, qrels = _sorted_case(seed)
    qids = [q for q in run if q in qrels]
    batch = scored_batch([run[q] for q in qids], [qrels[q] for q in qids], rel_level=rel_level)
    assert isinstance(batch, rk.RankingBatch)  # the fast path took it (None = declined)
    expected = _reference(run, qrels, rel_level)
    np.testing.assert_array_equal(batch.gains, expected.gains)
    np.testing.assert_array_equal(batch.retrieved, expected.retrieved)
    np.testing.assert_array_equal(batch.num_rel, expected.num_rel)
    np.testing.assert_array_equal(batch.ideal, expected.ideal)
    np.testing.assert_array_equal(rk._relevant(batch), rk._relevant(expected))
    if rel_level == 0:
        np.testing.assert_array_equal(batch.judged, expected.judged)
    ours = rk.evaluate_run(run, qrels, MEASURES, rel_level=rel_level)
    assert ours.query_ids == qids
    for name in MEASURES:
        np.testing.assert_array_equal(ours.values[name], rk._measure(name)(expected), err_msg=name)


@pytest.mark.parametrize("measures", [["mrr"], ["recall@50", "map"], ["ndcg@3", "map@20"], ["ndcg_exp@5", "ndcg@2"]])
def test_scored_batch_keeps_only_the_gains_ndcg_reads(measures):
    run, qrels = _sorted_case(5)
    expected = _reference(run, qrels, 1)
    ours = rk.evaluate_run(run, qrels, measures)
    for name in measures:
        np.testing.assert_array_equal(ours.values[name], rk._measure(name)(expected), err_msg=name)
    qids = [q for q in run if q in qrels]
    depth = rk._gain_depth(measures)
    batch = scored_batch([run[q] for q in qids], [qrels[q] for q in qids], gain_depth=depth)
    assert batch.gains.shape[1] == min(depth, expected.gains.shape[1])
    np.testing.assert_array_equal(batch.gains, expected.gains[:, : batch.gains.shape[1]])
    assert rk._gain_depth(["ndcg", "mrr@3"]) is None


def test_scored_batch_declines_what_it_cannot_rank():
    qrels = [{"a": 1}, {"b": 2}]
    assert scored_batch([{"a": 2.0, "b": 1.0}, {"b": 0.0}], qrels) is not None
    assert scored_batch([{"a": 1.0, "b": 1.0}, {"b": 0.0}], qrels) is None  # tie
    assert scored_batch([{"a": 1.0, "b": 2.0}, {"b": 0.0}], qrels) is None  # not in score order
    assert scored_batch([{"a": 0.0, "b": -0.0}, {"b": 0.0}], qrels) is None  # 0.0 == -0.0: a tie
    assert scored_batch([{"a": float("nan"), "b": 1.0}, {"b": 0.0}], qrels) is None
    assert scored_batch([{"a": 2.0, "b": 1.0}, {"b": float("nan")}], qrels) is None  # one-document ranking
    assert scored_batch([MappingProxyType({"a": 2.0}), {"b": 0.0}], qrels) is None
    assert scored_batch([{}, {}], qrels) is None
    # the slower path then ranks (ties by id) or raises
    assert rk.evaluate_run({"q": {"a": 0.0, "b": -0.0}}, {"q": {"a": 1}}, ["mrr"]).values["mrr"].tolist() == [0.5]
    for scores in ({"a": 2.0, "b": 1.0, "c": float("nan")}, {"c": float("nan")}):
        with pytest.raises(rk.InputError, match="NaN"):
            rk.evaluate_run({"q1": {"x": 1.0}, "q2": scores}, {"q1": {"x": 1}, "q2": {"c": 1}}, ["mrr"])


def test_small_pages_switches_numpys_huge_page_request_off_and_restores_it():
    from ragauge.scores._columns import small_pages

    try:
        from numpy._core import multiarray
    except ImportError:  # numpy < 2
        from numpy.core import multiarray
    if not hasattr(multiarray, "_set_madvise_hugepage"):
        pytest.skip("this numpy has no huge page switch")

    before = multiarray._set_madvise_hugepage(True)
    try:
        with small_pages():
            assert multiarray._set_madvise_hugepage(False) is False  # off inside
        assert multiarray._set_madvise_hugepage(True) is True  # restored
        with pytest.raises(RuntimeError), small_pages():
            raise RuntimeError("restored on errors too")
        assert multiarray._set_madvise_hugepage(True) is True
    finally:
        multiarray._set_madvise_hugepage(before)
