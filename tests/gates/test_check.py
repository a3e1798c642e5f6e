import numpy as np

from ragauge.engine.summary import CIConfig, summarise
from ragauge.gates.check import check_gates, overall_passed
from ragauge.gates.profiles import Profile, Threshold
from ragauge.metrics.column import ScoreColumn
from ragauge.metrics.registry import parse_metric


def _summary(name, values):
    col = ScoreColumn([v for v in values], [None if v is not None else "no relevant_ids" for v in values])
    return summarise(parse_metric(name), col, CIConfig())


def _profile(*ths):
    return Profile("t", "test", None, tuple(ths))


def test_point_mode_pass_and_fail_with_reasons():
    summaries = {"ndcg@10": _summary("ndcg@10", [0.8] * 20), "mrr": _summary("mrr", [0.5] * 20)}
    gates = check_gates(_profile(Threshold(("ndcg@10",), ">=", 0.7), Threshold(("mrr",), ">=", 0.75)), summaries)
    assert [g.status for g in gates] == ["pass", "fail"]
    assert "0.500 misses the bar: at least 0.75" in gates[1].reason
    assert not overall_passed(gates)


def test_confident_mode_needs_the_whole_interval():
    rng = np.random.default_rng(0)
    values = list(np.clip(rng.normal(0.74, 0.2, 30), 0, 1))
    s = {"ndcg@10": _summary("ndcg@10", values)}
    mean = s["ndcg@10"].value
    point = check_gates(_profile(Threshold(("ndcg@10",), ">=", mean - 0.01)), s)[0]
    conf = check_gates(_profile(Threshold(("ndcg@10",), ">=", mean - 0.01, "confident")), s)[0]
    assert point.status == "pass" and conf.status == "fail"
    assert "lower CI bound" in conf.reason
    easy = check_gates(_profile(Threshold(("ndcg@10",), ">=", 0.3, "confident")), s)[0]
    assert easy.status == "pass" and "whole interval" in easy.reason


def test_lower_is_better_uses_upper_bound():
    s = {"latency_p95": _summary("latency_p95", list(np.linspace(1000, 2000, 200)))}
    g = check_gates(_profile(Threshold(("latency_p95",), "<", 3000, "confident")), s)[0]
    assert g.status == "pass" and "ms" in g.reason
    # 50 latencies cannot bound a p95 from above (order statistics): a confident gate cannot pass
    s = {"latency_p95": _summary("latency_p95", list(np.linspace(1000, 2000, 50)))}
    g = check_gates(_profile(Threshold(("latency_p95",), "<", 3000, "confident")), s)[0]
    assert g.status == "fail" and "too small" in g.reason


def test_alternatives_skipped_and_unscored():
    s = {"context_recall_ids": _summary("context_recall_ids", [1.0, 0.5]), "mrr": _summary("mrr", [None, None])}
    gates = check_gates(_profile(
        Threshold(("context_recall", "context_recall_ids"), ">=", 0.8),
        Threshold(("faithfulness",), ">=", 0.85),
        Threshold(("mrr",), ">=", 0.5),
    ), s)
    assert gates[0].metric == "context_recall_ids" and gates[0].status == "fail"
    assert gates[1].status == "skipped" and "not evaluated" in gates[1].reason
    assert gates[2].status == "unscored" and "all 2 samples are unscored" in gates[2].reason
    assert not overall_passed(gates)
    assert overall_passed([gates[1]])


def test_a_reason_says_how_many_samples_were_unscored():
    s = {"mrr": _summary("mrr", [1.0, 1.0, 0.5, None, None])}
    point = check_gates(_profile(Threshold(("mrr",), ">=", 0.5)), s)[0]
    assert point.status == "pass" and "2 of 5 samples unscored" in point.reason
    whole = {"mrr": _summary("mrr", [1.0, 1.0, 0.5])}
    assert "unscored" not in check_gates(_profile(Threshold(("mrr",), ">=", 0.5)), whole)[0].reason
