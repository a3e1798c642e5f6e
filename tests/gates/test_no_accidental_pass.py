"""Issue 14: a gate must never pass by accident (nothing checked, nothing scored, too few samples)."""

import json

import pytest

import ragauge
from ragauge.cli.main import main
from ragauge.errors import ConfigError
from ragauge.gates.check import check_gates, coverage_gate
from ragauge.gates.profiles import Profile, Threshold, resolve_profile


def _rows(n, *, scored=True):
    return [{"id": f"q{i}", "question": "Сколько стоит доставка?", "retrieved_ids": ["a", "b", "c"],
             **({"relevant_ids": {"a" if i % 4 else "b": 1}} if scored else {})} for i in range(n)]


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return str(path)


# --- metrics outside the profile: "No gates checked (no profile)" under "profile dashboard", exit 0 --------


def test_metrics_outside_the_profile_fail_with_a_reason():
    res = ragauge.evaluate(_rows(40), metrics=["ndcg@10", "mrr"], profile="dashboard")
    assert not res.passed
    extra = res.gates[-1]
    assert extra.metric == "gates checked" and extra.status == "fail" and extra.value == 0.0
    assert "no gate of profile dashboard could be checked" in extra.reason
    assert "hit_rate@5" in extra.reason and "ndcg@10, mrr" in extra.reason and "--profile none" in extra.reason
    assert res.to_dict()["passed"] is False


def test_cli_metrics_outside_the_profile_exit_1(tmp_path, capsys):
    data = _write(tmp_path / "x.jsonl", _rows(40))
    assert main(["eval", data, "--metrics", "ndcg@10,mrr", "--out", str(tmp_path / "o"), "-q"]) == 1
    doc = json.loads((tmp_path / "o" / "results.json").read_text(encoding="utf-8"))
    assert doc["passed"] is False and doc["gates"][-1]["metric"] == "gates checked"
    # without a profile nothing is claimed: a report, exit 0
    assert main(["eval", data, "--metrics", "ndcg@10,mrr", "--profile", "none", "--out", str(tmp_path / "p"),
                 "-q"]) == 0
    capsys.readouterr()


# --- every requested metric unscored --------------------------------------------------------------------


def test_every_metric_unscored_fails_even_without_a_profile(tmp_path, capsys):
    res = ragauge.evaluate(_rows(40, scored=False), metrics=["ndcg@10", "mrr"], profile=None)
    assert not res.passed and [g.metric for g in res.gates] == ["scored metrics"]
    assert "nothing was measured" in res.gates[0].reason and "(no profile)" in res.gates[0].reason
    data = _write(tmp_path / "u.jsonl", _rows(40, scored=False))
    assert main(["eval", data, "--metrics", "ndcg@10,mrr", "--profile", "none", "--out", str(tmp_path / "o"),
                 "-q"]) == 1
    # metrics outside the named profile, all unscored: the same failing gate, naming the profile
    res = ragauge.evaluate(_rows(40, scored=False), metrics=["ndcg@10"], profile="dashboard")
    assert not res.passed and res.gates[-1].metric == "scored metrics" and "(profile dashboard)" in res.gates[-1].reason
    capsys.readouterr()


def test_a_baseline_profile_without_its_baseline_fails():
    """A CI job that forgets --baseline must not pass forever: the run fails the "baseline given" gate (its
    results.json can still serve as the next run's baseline)."""
    prof = Profile("guard", "", 5, (Threshold(("mrr@5",), ">=", 0.5, "non_inferior"),))
    res = ragauge.evaluate(_rows(40), metrics=["mrr@5"], profile=prof)
    assert [g.status for g in res.gates] == ["skipped", "fail"] and not res.passed
    assert coverage_gate(prof, res.summary, res.gates[:1]).metric == "baseline given"
    assert coverage_gate(prof, res.summary, res.gates[:1], baseline_given=True) is None


# --- fewer than 30 scored samples -----------------------------------------------------------------------


def test_small_sample_warns_on_every_gate():
    res = ragauge.evaluate(_rows(5), metrics=["hit_rate@5", "mrr@5"], profile="dashboard")
    checked = [g for g in res.gates if g.status != "skipped"]
    assert len(checked) == 2
    for g in checked:
        assert g.n == 5 and g.warnings and "only 5 scored samples (fewer than 30)" in g.warnings[0]
        assert "WARNING: only 5 scored samples" in g.reason
        assert g.to_dict()["warnings"] == list(g.warnings)
    big = ragauge.evaluate(_rows(40), metrics=["hit_rate@5"], profile="dashboard")
    assert all(not g.warnings for g in big.gates)


def test_small_sample_fail_policy_and_min_samples():
    user = {"tight": {"extends": "dashboard", "small_sample": "fail", "min_samples": 10},
            "off": {"extends": "dashboard", "min_samples": 0}}
    rows = [dict(r, relevant_ids={"a": 1}) for r in _rows(5)]  # hit_rate@5 = 1: the bar itself passes
    warn = ragauge.evaluate(rows, metrics=["hit_rate@5"], profile="dashboard")
    assert warn.passed and warn.gates[0].status == "pass" and warn.gates[0].warnings
    tight = ragauge.evaluate(rows, metrics=["hit_rate@5"], profile="tight", user_profiles=user)
    g = tight.gates[0]
    assert g.status == "fail" and not tight.passed and 'small_sample = "fail"' in g.reason
    assert "fewer than 10" in g.reason
    off = ragauge.evaluate(rows, metrics=["hit_rate@5"], profile="off", user_profiles=user)
    assert off.passed and not off.gates[0].warnings
    prof = resolve_profile("tight", user_profiles=user)
    assert (prof.min_samples, prof.small_sample) == (10, "fail") and prof.to_dict()["small_sample"] == "fail"
    with pytest.raises(ConfigError, match='small_sample must be "warn" or "fail"'):
        resolve_profile("bad", user_profiles={"bad": {"small_sample": "error", "thresholds": {}}})
    with pytest.raises(ConfigError, match="min_samples must be an integer"):
        resolve_profile("bad", user_profiles={"bad": {"min_samples": "30", "thresholds": {}}})


def test_check_gates_can_leave_the_coverage_gate_out():
    prof = Profile("p", "", None, (Threshold(("ndcg@10",), ">=", 0.5),))
    assert [g.metric for g in check_gates(prof, {})] == ["ndcg@10", "gates checked"]
    assert [g.metric for g in check_gates(prof, {}, require_checked=False)] == ["ndcg@10"]


# --- hints name real options: did-you-mean for an unknown profile --------------------------------------


def test_unknown_profile_did_you_mean_in_evaluate_and_cli(tmp_path, capsys):
    with pytest.raises(ConfigError) as exc:
        ragauge.evaluate(_rows(3), metrics=["mrr"], profile="dashbord")
    text = str(exc.value)
    assert "did you mean 'dashboard'?" in text and "available: dashboard, russian-practice, starter, strict" in text
    with pytest.raises(ConfigError, match="did you mean 'mine'"):
        resolve_profile("mien", user_profiles={"mine": {"thresholds": {"mrr": ">= 0.5"}}})
    with pytest.raises(ConfigError) as exc:
        resolve_profile("zzz")
    assert "did you mean" not in str(exc.value) and "available: dashboard" in str(exc.value)
    data = _write(tmp_path / "x.jsonl", _rows(3))
    assert main(["eval", data, "--profile", "dashbord", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "unknown profile 'dashbord'; did you mean 'dashboard'?" in err and "Traceback" not in err
