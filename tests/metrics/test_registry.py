import pytest

from ragauge.errors import UnknownMetricError
from ragauge.metrics.registry import definitions, parse_metric, parse_metrics


@pytest.mark.parametrize(
    "text",
    ["ndcg@10", "ndcg", "ndcg_exp@5", "hit_rate@5", "recall@100", "precision@3", "mrr", "mrr@10",
     "map", "map@100", "r_precision", "context_precision_ids", "context_recall_ids", "context_f1_ids",
     "latency_p95", "latency_p50", "retrieval_p95", "ttft_p99", "latency_p99.9"],
)
def test_names_print_back_the_same(text):
    spec = parse_metric(text)
    assert spec.name == text
    assert str(spec) == text
    assert parse_metric(spec.name) == spec


@pytest.mark.parametrize(
    "alias, canonical",
    [("NDCG@10", "ndcg@10"), ("recip_rank", "mrr"), ("rr@10", "mrr@10"), ("P@5", "precision@5"),
     ("success@10", "hit_rate@10"), ("rprec", "r_precision"), ("ap@100", "map@100"), ("ndcg_cut@10", "ndcg@10")],
)
def test_aliases_parse_to_the_canonical_name(alias, canonical):
    assert parse_metric(alias).name == canonical


def test_params_and_aggregate():
    s = parse_metric("ndcg@10")
    assert s.params == {"k": 10} and s.base == "ndcg" and s.aggregate == "mean" and s.higher_is_better
    p = parse_metric("latency_p95")
    assert p.aggregate == "p95" and p.percentile == 95.0 and not p.higher_is_better and p.unit == "ms"


@pytest.mark.parametrize(
    "bad, fragment",
    [("ndcgg@10", "ndcg"), ("hit_rate", "needs a cutoff"), ("recall", "needs a cutoff"), ("ndcg@0", "at least 1"),
     ("r_precision@5", "takes no @k"), ("latency", "needs a percentile"), ("latency_p100", "between 0 and 100"),
     ("", "non-empty"), ("faithfulnes", "unknown metric")],
)
def test_bad_names_fail_loudly(bad, fragment):
    with pytest.raises(UnknownMetricError) as err:
        parse_metric(bad)
    assert fragment in str(err.value)


def test_unknown_name_lists_the_known_ones_and_the_command():
    with pytest.raises(UnknownMetricError) as err:
        parse_metric("ndgc@10")
    msg = str(err.value)
    assert "Did you mean 'ndcg@10'" in msg and "ragauge metrics list" in msg and "hit_rate@k" in msg


def test_parse_metrics_dedups_and_keeps_order():
    specs = parse_metrics("mrr, ndcg@10,recip_rank,ndcg@10")
    assert [s.name for s in specs] == ["mrr", "ndcg@10"]


def test_every_definition_binds_and_round_trips():
    for d in definitions():
        value = 7 if d.param == "k" else 90 if d.param == "percentile" else None
        spec = d.bind(value)
        assert parse_metric(spec.name) == spec
        assert spec.description and "{" not in spec.description
        assert spec.to_dict()["name"] == spec.name
