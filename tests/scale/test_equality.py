"""The Ray engine gives every sample the local engine's value, reason and artifacts (issue 17)."""

from __future__ import annotations

import pytest

from ragauge.data import load
from ragauge.engine.evaluate import offline_judge_installed
from ragauge.engine.scoring import score_columns as local_scores
from ragauge.judges.base import get_judge
from ragauge.metrics.registry import parse_metrics

from scale_data import mixed_records, write_jsonl

pytestmark = pytest.mark.skipif(not offline_judge_installed(), reason="the offline judge is not installed")

RETRIEVAL = ["ndcg@5", "recall@5", "precision@5", "mrr", "map@10", "hit_rate@3"]
# offline-judge metrics whose values do not depend on which other texts share an embedding batch
JUDGED = ["faithfulness", "context_precision", "context_recall"]


def _assert_same(local, ray_cols, ids, names):
    for name in names:
        a, b = local[name], ray_cols[name]
        assert len(b.values) == len(ids), name
        for i, sid in enumerate(ids):
            assert (a.values[i], a.reasons[i]) == (b.values[i], b.reasons[i]), f"{name} differs on sample {sid}"
            assert a.artifacts[i] == b.artifacts[i], f"{name}: artifacts differ on sample {sid}"
        assert a.provenance == b.provenance, name


def test_a_user_scoring_200_mixed_samples_on_ray_gets_the_local_numbers_sample_by_sample(ray_cluster, tmp_path):
    from ragauge.scale.ray_engine import score_run

    path = write_jsonl(tmp_path / "mixed.jsonl", mixed_records(200))
    samples = load(path)
    specs = parse_metrics(RETRIEVAL + JUDGED)
    local = local_scores(specs, samples, get_judge("offline"))

    run = score_run(specs, str(path), "offline", workers=2, batch_size=16)

    assert run.ids == [s.id for s in samples]
    assert run.tags == [tuple(s.tags) for s in samples]
    assert list(run.columns) == [s.name for s in specs]
    assert run.blocks == 13 and len(run.workers) == 2  # 200 / 16 -> 13 blocks, shared by both actors
    _assert_same(local, run.columns, run.ids, [s.name for s in specs])
    # not vacuous: the judge scored most samples, and the unfaithful variants score lower
    faith = run.columns["faithfulness"]
    assert sum(v is not None for v in faith.values) > 150
    assert any(a and a.get("claims") for a in faith.artifacts)


def test_samples_already_in_memory_score_the_same_as_the_file(ray_cluster, tmp_path):
    from ragauge.scale.ray_engine import score_columns

    path = write_jsonl(tmp_path / "mixed.jsonl", mixed_records(40))
    samples = load(path)
    specs = parse_metrics(RETRIEVAL)
    from_list = score_columns(specs, samples, None, workers=2, batch_size=7)
    from_file = score_columns(specs, str(path), None, workers=1, batch_size=40)
    local = local_scores(specs, samples, None)
    _assert_same(local, from_list, [s.id for s in samples], [s.name for s in specs])
    _assert_same(local, from_file, [s.id for s in samples], [s.name for s in specs])


def test_answer_relevancy_is_identical_across_engines(ray_cluster, tmp_path):
    from ragauge.scale.ray_engine import score_columns

    path = write_jsonl(tmp_path / "mixed.jsonl", mixed_records(60))
    samples = load(path)
    specs = parse_metrics(["answer_relevancy"])
    local = local_scores(specs, samples, get_judge("offline"))
    _assert_same(local, score_columns(specs, str(path), "offline", workers=2, batch_size=10),
                 [s.id for s in samples], ["answer_relevancy"])
