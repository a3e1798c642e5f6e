"""Targets vs gates: the gate decides the exit code, the target is shown and recorded."""

import json

import pytest

from ragauge.engine.summary import CIConfig, summarise
from ragauge.errors import ConfigError
from ragauge.gates.check import check_gates, overall_passed
from ragauge.gates.profiles import resolve_profile
from ragauge.metrics.column import ScoreColumn
from ragauge.metrics.registry import parse_metric


def _summary(name, values):
    return summarise(parse_metric(name), ScoreColumn(list(values), [None] * len(values)), CIConfig())


USER = {"ci": {"extends": "dashboard",
               "thresholds": {"faithfulness": {"gate": ">= 0.75", "target": ">= 0.85"},
                              "mrr@K": {"op": ">=", "value": 0.5, "target": 0.75}},
               "targets": {"latency_p95": "< 2000"}}}


def test_a_run_between_gate_and_target_passes_and_says_the_target_is_missed():
    prof = resolve_profile("ci", user_profiles=USER)
    summaries = {"faithfulness": _summary("faithfulness", [0.8] * 40), "mrr@5": _summary("mrr@5", [0.9] * 40),
                 "latency_p95": _summary("latency_p95", [2500.0] * 40)}
    gates = {g.metric: g for g in check_gates(prof, summaries)}
    assert overall_passed(list(gates.values()))  # 0.8 >= 0.75, 0.9 >= 0.5, 2500 < 3000 (the dashboard's gate)
    assert (gates["faithfulness"].status, gates["faithfulness"].target_status) == ("pass", "missed")
    assert gates["mrr@5"].target_met is True
    assert gates["latency_p95"].to_dict()["target"] == {"op": "<", "value": 2000.0, "status": "missed"}
    assert "target" not in gates["toxicity"].to_dict()  # no target: the record is as before
    assert gates["hit_rate@5"].target_status is None  # not evaluated


def test_results_json_records_gate_and_target(tmp_path):
    import ragauge

    rows = [{"id": f"q{i}", "question": "q", "retrieved_ids": ["d1", "d2"], "relevant_ids": ["d1" if i % 4 else "d3"]}
            for i in range(40)]
    res = ragauge.evaluate(rows, metrics=["mrr@5"], profile="ci", user_profiles=USER)
    res.save(tmp_path, formats=("json",))
    doc = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    gate = next(g for g in doc["gates"] if g["metric"] == "mrr@5")
    assert (gate["status"], gate["threshold"], gate["target"]) == ("pass", 0.5, {"op": ">=", "value": 0.75, "status": "met"})
    th = next(t for t in doc["profile"]["thresholds"] if t["metrics"] == ["mrr@5"])
    assert th["target"] == {"op": ">=", "value": 0.75}


def test_child_lowering_a_gate_keeps_the_parents_target():
    prof = resolve_profile("child", user_profiles=USER | {"child": {"extends": "ci", "thresholds": {"faithfulness": ">= 0.6"}}})
    th = next(t for t in prof.thresholds if t.label == "faithfulness")
    assert (th.value, th.target) == (0.6, 0.85)


def test_builtin_starter_gates_below_the_dashboard_targets():
    th = {t.label: t for t in resolve_profile("starter").thresholds}
    assert (th["faithfulness"].value, th["faithfulness"].target) == (0.75, 0.85)
    assert (th["context_recall|context_recall_ids"].value, th["context_recall|context_recall_ids"].target) == (0.65, 0.80)


@pytest.mark.parametrize("entry, words", [
    ({"thresholds": {"faithfulness": {"gate": ">= 0.9", "target": ">= 0.8"}}}, "looser than its gate"),
    ({"thresholds": {"faithfulness": {"gate": ">= 0.7", "target": "<= 0.9"}}}, "points the other way"),
    ({"thresholds": {"faithfulness": {"target": ">= 0.9"}}}, "has no gate"),
    ({"thresholds": {"faithfulness": {"gate": ">= 0.7", "op": ">="}}}, "both gate and op/value"),
    ({"targets": {"self_contradiction": "<= 0.01"}}, "which has no gate in this profile"),
    ({"targets": {"faithfulness": "about 0.9"}}, "cannot read target"),
])
def test_bad_targets_are_config_errors(entry, words):
    with pytest.raises(ConfigError, match=words):
        resolve_profile("bad", user_profiles={"bad": {"extends": "dashboard", **entry}})
