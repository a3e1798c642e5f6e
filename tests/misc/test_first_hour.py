"""First-hour usability: names and options a new user types (issue 14)."""

from __future__ import annotations

import pytest

import ragauge
from ragauge.errors import UnknownMetricError
from ragauge.metrics.registry import parse_metric


@pytest.mark.parametrize(("typed", "meant"), [
    ("ndcg10", "ndcg@10"), ("ndcg_10", "ndcg@10"), ("recall5", "recall@5"), ("mrr10", "mrr@10"),
    ("hit_rate10", "hit_rate@10"), ("latency95", "latency_p95"), ("ndcg@k", "ndcg@10"), ("ndgc@10", "ndcg@10"),
    ("map5", "map@5"), ("map_5", "map@5"), ("ndcg-at-10", "ndcg@10"),
])
def test_unknown_metric_suggests_the_full_name(typed: str, meant: str) -> None:
    with pytest.raises(UnknownMetricError) as err:
        parse_metric(typed)
    assert f"Did you mean '{meant}'" in str(err.value)
    parse_metric(meant)  # and the suggestion itself is a valid name


def test_profile_none_string_means_no_gates_in_python_too() -> None:
    rows = [{"id": f"q{i}", "question": "q?", "retrieved_ids": ["a", "b"], "relevant_ids": ["a"]} for i in range(3)]
    res = ragauge.evaluate(rows, metrics=["mrr"], profile="none")
    assert res.gates == [] and res.summary["mrr"].value == 1.0
