"""The gates against a baseline: non_inferior (regression test, the default) and non_inferior_strict."""

import numpy as np
import pytest

from ragauge.engine.summary import CIConfig, summarise
from ragauge.errors import ConfigError
from ragauge.gates.check import check_gates, overall_passed
from ragauge.gates.noninferior import DEFAULT_MARGIN, resolve_margin
from ragauge.gates.profiles import Profile, Threshold, parse_threshold, resolve_profile
from ragauge.metrics.column import ScoreColumn
from ragauge.metrics.registry import parse_metric
from ragauge.stats.paired import pair_by_id


class FakeBaseline:
    source = "base.json"
    seed = 0
    n_resamples = 500

    def __init__(self, base: dict, new: dict):
        self.base, self.new = base, new

    def pairing(self, metric):
        if metric not in self.base:
            return None
        return pair_by_id(self.base[metric], self.new[metric])


def _summary(name, values):
    col = ScoreColumn(list(values), [None if v is not None else "no relevant_ids" for v in values])
    return summarise(parse_metric(name), col, CIConfig())


def _ids(values):
    return {f"q{i}": v for i, v in enumerate(values)}


def test_parse_mode_and_margins():
    th = parse_threshold("ndcg@10", {"op": ">=", "value": 0.7, "mode": "non_inferior", "margin": 0.01}, where="t")
    assert th.mode == "non_inferior" and th.margin == 0.01
    assert th.to_dict()["margin"] == 0.01
    with pytest.raises(ConfigError, match="margin must be a number >= 0"):
        parse_threshold("ndcg@10", {"op": ">=", "value": 0.7, "margin": -1}, where="t")
    user = {"mine": {"extends": "dashboard", "mode": "non_inferior", "margin": 0.03,
                     "thresholds": {"ndcg@K": ">= 0.7"}}}
    prof = resolve_profile("mine", user_profiles=user)
    assert prof.margin == 0.03 and prof.to_dict()["margin"] == 0.03
    ndcg = next(t for t in prof.thresholds if t.metrics == ("ndcg@5",))
    assert ndcg.mode == "non_inferior" and ndcg.margin is None
    with pytest.raises(ConfigError, match="margin"):
        resolve_profile("bad", user_profiles={"bad": {"margin": "big", "thresholds": {}}})


def test_margin_precedence():
    own = Threshold(("m",), ">=", 0.5, "non_inferior", 0.01)
    bare = Threshold(("m",), ">=", 0.5, "non_inferior")
    assert resolve_margin(own, cli=0.05, profile=0.03) == (0.01, "threshold")
    assert resolve_margin(bare, cli=0.05, profile=0.03) == (0.05, "--margin")
    assert resolve_margin(bare, cli=None, profile=0.03) == (0.03, "profile")
    assert resolve_margin(bare, cli=None, profile=None) == (DEFAULT_MARGIN, "default")


def _case(delta, n=80, seed=0, noise=0.05):
    rng = np.random.default_rng(seed)
    base = np.clip(rng.normal(0.75, 0.15, n), 0, 1)
    new = np.clip(base + delta + rng.normal(0, noise, n), 0, 1)
    return list(base), list(new)


def test_strict_pass_when_shown_within_the_margin():
    # issue 14: strict non-inferiority is now the explicit mode non_inferior_strict (was non_inferior)
    base, new = _case(-0.005)
    s = {"ndcg@10": _summary("ndcg@10", new)}
    prof = Profile("p", "", None, (Threshold(("ndcg@10",), ">=", 0.9, "non_inferior_strict"),), margin=0.03)
    g = check_gates(prof, s, baseline=FakeBaseline({"ndcg@10": _ids(base)}, {"ndcg@10": _ids(new)}))[0]
    assert g.status == "pass", g.reason
    assert "shown to be within the margin 0.03 of the baseline" in g.reason
    assert "strict non-inferiority, one-sided paired t-test" in g.reason
    assert "80 paired samples" in g.reason and "misses the absolute bar at least 0.9" in g.reason
    assert "margin from profile" in g.reason
    d = g.to_dict()
    assert d["mode"] == "non_inferior_strict" and d["margin"] == 0.03 and d["n"] == 80
    ni = d["non_inferiority"]
    assert ni["non_inferior"] is True and ni["lower_bound"] > -0.03 and ni["baseline"] == "base.json"
    assert ni["method"] == "one-sided paired t-test"


def test_regression_mode_passes_a_small_change_and_names_its_test():
    base, new = _case(-0.005)
    s = {"ndcg@10": _summary("ndcg@10", new)}
    prof = Profile("p", "", None, (Threshold(("ndcg@10",), ">=", 0.9, "non_inferior"),), margin=0.03)
    g = check_gates(prof, s, baseline=FakeBaseline({"ndcg@10": _ids(base)}, {"ndcg@10": _ids(new)}))[0]
    assert g.status == "pass", g.reason
    assert "no regression beyond the margin 0.03 shown" in g.reason
    assert "regression test, one-sided paired t-test" in g.reason and "margin from profile" in g.reason
    ni = g.to_dict()["non_inferiority"]
    assert ni["test"] == "regression" and ni["regressed"] is False and ni["upper_bound"] > -0.03


def test_fail_when_clearly_worse_and_the_sentence_says_so():
    base, new = _case(-0.08)
    s = {"ndcg@10": _summary("ndcg@10", new)}
    prof = Profile("p", "", None, (Threshold(("ndcg@10",), ">=", 0.5, "non_inferior"),))
    g = check_gates(prof, s, baseline=FakeBaseline({"ndcg@10": _ids(base)}, {"ndcg@10": _ids(new)}), margin=0.02)[0]
    assert g.status == "fail" and not overall_passed([g])
    assert "a regression: significantly worse than the baseline by more than the margin 0.02" in g.reason
    assert "margin from --margin" in g.reason
    assert g.non_inferiority["upper_bound"] < -0.02
    strict = Profile("p", "", None, (Threshold(("ndcg@10",), ">=", 0.5, "non_inferior_strict"),))
    g = check_gates(strict, s, baseline=FakeBaseline({"ndcg@10": _ids(base)}, {"ndcg@10": _ids(new)}), margin=0.02)[0]
    assert g.status == "fail" and "not shown to be within the margin 0.02" in g.reason and "may be up to" in g.reason
    assert g.non_inferiority["lower_bound"] < -0.02


def test_lower_is_better_latency():
    rng = np.random.default_rng(1)
    base = list(rng.normal(1000, 100, 200))
    faster = [v - 50 for v in base]
    s = {"latency_p95": _summary("latency_p95", faster)}
    th = Threshold(("latency_p95",), "<", 3000, "non_inferior", 20)
    g = check_gates(Profile("p", "", None, (th,)), s,
                    baseline=FakeBaseline({"latency_p95": _ids(base)}, {"latency_p95": _ids(faster)}))[0]
    assert g.status == "pass" and "better" in g.reason and "ms" in g.reason
    slower = [v + 50 for v in base]
    s = {"latency_p95": _summary("latency_p95", slower)}
    g = check_gates(Profile("p", "", None, (th,)), s,
                    baseline=FakeBaseline({"latency_p95": _ids(base)}, {"latency_p95": _ids(slower)}))[0]
    assert g.status == "fail"


def test_without_baseline_or_metric_or_pairs():
    base, new = _case(0.0, n=10)
    s = {"ndcg@10": _summary("ndcg@10", new)}
    prof = Profile("p", "", None, (Threshold(("ndcg@10",), ">=", 0.5, "non_inferior"),))
    g = check_gates(prof, s)[0]
    assert g.status == "skipped" and "needs a baseline run" in g.reason and "--baseline" in g.reason
    g = check_gates(prof, s, baseline=FakeBaseline({}, {}))[0]
    assert g.status == "fail" and "has no ndcg@10 scores" in g.reason
    one = {"ndcg@10": {"q0": 0.5, "q1": None}}
    g = check_gates(prof, {"ndcg@10": _summary("ndcg@10", [0.5, 0.6])},
                    baseline=FakeBaseline(one, {"ndcg@10": {"q0": 0.5, "q1": 0.6}}))[0]
    assert g.status == "fail" and "only 1 sample(s)" in g.reason


def test_default_margin_is_in_the_metric_unit():
    from ragauge.gates.noninferior import DEFAULT_MARGIN, DEFAULT_MARGIN_MS, resolve_margin
    from ragauge.gates.profiles import Threshold

    th = Threshold(("latency_p95",), "<", 3000.0, "non_inferior")
    assert resolve_margin(th, cli=None, profile=None, unit="ms") == (DEFAULT_MARGIN_MS, "default")
    assert resolve_margin(th, cli=None, profile=None, unit=None) == (DEFAULT_MARGIN, "default")
    assert resolve_margin(th, cli=50.0, profile=None, unit="ms") == (50.0, "--margin")
