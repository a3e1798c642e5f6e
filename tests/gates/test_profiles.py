import pytest

from ragauge.errors import ConfigError
from ragauge.gates.profiles import builtin_profiles, parse_threshold, resolve_profile


def _th(profile):
    return {t.label: (t.op, t.value, t.mode) for t in profile.thresholds}


def test_dashboard_has_the_seed_thresholds():
    p = resolve_profile("dashboard")
    t = _th(p)
    assert p.k == 5
    assert t["hit_rate@5"] == (">=", 0.85, "point")
    assert t["mrr@5"] == (">=", 0.75, "point")
    assert t["ndcg@5"] == (">=", 0.70, "point")
    assert t["faithfulness"] == (">=", 0.85, "point")
    assert t["answer_relevancy"] == (">=", 0.80, "point")
    assert t["answer_correctness"] == (">=", 0.75, "point")
    assert t["toxicity"] == ("<=", 0.05, "point")
    assert t["context_precision|context_precision_ids"] == (">=", 0.70, "point")
    assert t["context_recall|context_recall_ids"] == (">=", 0.80, "point")
    assert t["context_f1|context_f1_ids"] == (">=", 0.75, "point")
    assert t["noise_robustness"] == (">=", 0.90, "point")
    assert t["latency_p95"] == ("<", 3000.0, "point")
    assert t["retrieval_p95"] == ("<", 200.0, "point")
    assert t["ttft_p95"] == ("<", 500.0, "point")


def test_strict_starter_and_russian_practice():
    s = _th(resolve_profile("strict"))
    assert s["faithfulness"][1] == 0.95 and s["answer_relevancy"][1] == 0.85 and s["hit_rate@5"][1] == 0.85
    st = _th(resolve_profile("starter"))
    assert st["faithfulness"][1] == 0.75 and st["context_recall|context_recall_ids"][1] == 0.65
    ru = resolve_profile("russian-practice")
    assert ru.k == 10 and _th(ru) == {"recall@10": (">", 0.85, "point"), "mrr@10": (">", 0.5, "point")}


def test_k_override_and_user_profile_extends():
    assert "ndcg@10" in _th(resolve_profile("dashboard", k=10))
    user = {"mybot": {"extends": "strict", "k": 3, "mode": "confident",
                      "thresholds": {"ndcg@K": ">= 0.9", "latency_p95": {"op": "<", "value": 2000, "mode": "point"}}}}
    t = _th(resolve_profile("mybot", user_profiles=user))
    assert t["ndcg@3"] == (">=", 0.9, "confident")
    assert t["latency_p95"] == ("<", 2000.0, "point")
    assert t["faithfulness"] == (">=", 0.95, "point")  # inherited from strict, parent's mode


@pytest.mark.parametrize(
    "profiles, fragment",
    [({"x": {"extends": "nope"}}, "extends unknown profile 'nope'"),
     ({"x": {"extends": "y"}, "y": {"extends": "x"}}, "cycle"),
     ({"x": {"thresholds": {"ndcgg@5": ">= 0.5"}}}, "unknown metric 'ndcgg@5'"),
     ({"x": {"thresholds": {"ndcg@5": "at least 0.5"}}}, "cannot read threshold"),
     ({"x": {"thresholds": {"ndcg@5": 0.5}}}, "must be a string"),
     ({"x": {"thresholds": {"ndcg@5": {"op": ">=", "value": 0.5, "mode": "lucky"}}}}, "unknown gate mode"),
     ({"x": {"tresholds": {}}}, "unknown keys ['tresholds']"),
     ({"x": {"thresholds": {"ndcg@K": ">= 0.5"}}}, "sets no k")],
)
def test_bad_user_profiles(profiles, fragment):
    with pytest.raises(ConfigError) as err:
        resolve_profile("x", user_profiles=profiles)
    assert fragment in str(err.value)


def test_unknown_profile_lists_available():
    with pytest.raises(ConfigError) as err:
        resolve_profile("dashbord")
    assert "dashboard" in str(err.value) and "strict" in str(err.value)


def test_threshold_parsing():
    t = parse_threshold("latency_p95", "<3000", where="t")
    assert (t.op, t.value) == ("<", 3000.0)
    assert parse_threshold("a|b", ">= 1e-2", where="t").metrics == ("a", "b")


def test_builtins_are_data():
    assert set(builtin_profiles()) >= {"dashboard", "strict", "starter", "russian-practice"}
