"""The compare, plan and calibrate commands, registered into a local parser (main.py lists them later)."""

import argparse
import json

import numpy as np
import pytest

from ragauge.cli import calibrate, compare, plan
from ragauge.errors import RagaugeError


def _run(argv):
    parser = argparse.ArgumentParser(prog="ragauge")
    sub = parser.add_subparsers(dest="command")
    for module in (compare, plan, calibrate):
        module.register(sub)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except RagaugeError as exc:  # what main.py does
        print(f"ragauge: error: {exc}")
        return int(exc.exit_code)


def _results(path, scores, specs):
    ids = list(next(iter(scores.values())).keys())
    doc = {"schema": "ragauge.results/1",
           "metrics": [{"name": n, "higher_is_better": h, "aggregate": a, "range": [0, 1]} for n, h, a in specs],
           "samples": [{"id": i, "scores": {m: scores[m][i] for m in scores}, "unscored": {}} for i in ids]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


SPECS = (("faithfulness", True, "mean"), ("latency_p95", False, "p95"))


@pytest.fixture
def runs(tmp_path):
    rng = np.random.default_rng(0)
    ids = [f"q{i}" for i in range(50)]
    f = rng.random(50)
    lat = rng.uniform(500, 1500, 50)
    base = _results(tmp_path / "base.json", {"faithfulness": dict(zip(ids, f)), "latency_p95": dict(zip(ids, lat))},
                    SPECS)
    worse = _results(tmp_path / "worse.json",
                     {"faithfulness": dict(zip(ids, f - 0.2)), "latency_p95": dict(zip(ids, lat * 0.7))}, SPECS)
    same = _results(tmp_path / "same.json", {"faithfulness": dict(zip(ids, f)), "latency_p95": dict(zip(ids, lat))},
                    SPECS)
    other = _results(tmp_path / "other.json", {"faithfulness": {f"z{i}": 0.5 for i in range(50)},
                                               "latency_p95": {f"z{i}": 1.0 for i in range(50)}}, SPECS)
    return base, worse, same, other


def test_compare_exit_1_on_significant_regression(runs, capsys):
    base, worse, same, _ = runs
    assert _run(["compare", base, worse]) == 1
    out = capsys.readouterr().out
    assert "worse" in out and "better" in out  # faithfulness down, latency down (= better)
    assert _run(["compare", base, worse, "--exit-zero"]) == 0
    assert _run(["compare", base, same]) == 0


def test_compare_json_and_markdown(runs, capsys):
    base, worse, *_ = runs
    _run(["compare", base, worse, "--format", "json", "--seed", "3"])
    doc = json.loads(capsys.readouterr().out)
    verdicts = {m["metric"]: m["verdict"] for m in doc["metrics"]}
    assert verdicts == {"faithfulness": "worse", "latency_p95": "better"}
    assert doc["seed"] == 3 and doc["correction"] == "holm"
    _run(["compare", base, worse, "--format", "markdown", "--metrics", "faithfulness"])
    md = capsys.readouterr().out
    assert md.startswith("### ragauge compare: **1 worse** (faithfulness)") and "| faithfulness |" in md


def test_compare_refuses_mismatched_ids(runs, capsys):
    base, _, _, other = runs
    assert _run(["compare", base, other]) == 2
    assert "--intersection" in capsys.readouterr().out


def test_compare_bad_files(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert _run(["compare", str(bad), str(bad)]) == 2
    assert "bad.json" in capsys.readouterr().out
    assert _run(["compare", str(tmp_path / "nope.json"), str(bad)]) == 2


def test_compare_unknown_metric(runs, capsys):
    base, worse, *_ = runs
    assert _run(["compare", base, worse, "--metrics", "ndcg@10"]) == 2
    assert "faithfulness" in capsys.readouterr().out


def test_plan_defaults_and_rules(capsys):
    assert _run(["plan"]) == 0
    out = capsys.readouterr().out
    assert "n =     38" in out and "n =    245" in out and "n =     73" in out
    assert "30-50" in out and "85+" in out and "~250" in out


def test_plan_from_pilot(runs, capsys):
    base, *_ = runs
    assert _run(["plan", "--pilot", base, "--metric", "faithfulness", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["assumptions"]["sd_source"] == "pilot" and 0.2 < doc["assumptions"]["sd"] < 0.4
    assert _run(["plan", "--pilot", base]) == 2
    assert _run(["plan", "--pilot", base, "--metric", "nope"]) == 2
    assert _run(["plan", "--power", "1.5"]) == 2


def _judged_and_human(tmp_path, n=80, raters=3, fmt="jsonl"):
    rng = np.random.default_rng(1)
    truth = rng.integers(1, 5, n)
    ids = [f"s{i}" for i in range(n + 30)]
    judge = np.clip(np.concatenate([(truth - 1) / 3, rng.random(30)]) + rng.normal(0, 0.08, n + 30), 0, 1)
    judged = _results(tmp_path / "judged.json", {"faithfulness": dict(zip(ids, judge))},
                      (("faithfulness", True, "mean"),))
    ratings = [[int(np.clip(t + rng.integers(-1, 2) * (rng.random() < 0.3), 1, 4)) for _ in range(raters)]
               for t in truth]
    if fmt == "jsonl":
        human = tmp_path / "human.jsonl"
        human.write_text("\n".join(json.dumps({"id": i, "human_faithfulness": r}) for i, r in zip(ids, ratings)),
                         encoding="utf-8")
    else:
        human = tmp_path / "human.csv"
        head = "id," + ",".join(f"rater_{k + 1}" for k in range(raters))
        human.write_text("\n".join([head] + [f"{i}," + ",".join(map(str, r)) for i, r in zip(ids, ratings)]),
                         encoding="utf-8")
    return judged, str(human)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_calibrate_table_and_json(tmp_path, capsys, fmt):
    judged, human = _judged_and_human(tmp_path, fmt=fmt)
    assert _run(["calibrate", judged, human]) == 0
    out = capsys.readouterr().out
    assert "spearman" in out and "Krippendorff alpha" in out and "verdict: calibrated" in out
    assert "PPI" in out
    assert _run(["calibrate", judged, human, "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["human_scale"] == [1.0, 4.0] and rep["raters"]["n_raters"] == 3
    assert rep["counts"]["paired"] == 80 and rep["ppi"]["n_unlabelled"] == 30


def test_calibrate_errors(tmp_path, capsys):
    judged, human = _judged_and_human(tmp_path)
    assert _run(["calibrate", judged, human, "--human-field", "nope"]) == 2
    assert "human_faithfulness" in capsys.readouterr().out  # lists the fields there are
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "s0", "human": 3}\n{"id": "s1", "human": "high"}\n', encoding="utf-8")
    assert _run(["calibrate", judged, str(bad)]) == 2
    err = capsys.readouterr().out
    assert "line 2" in err and "'human'" in err and "'high'" in err
    assert _run(["calibrate", judged, human, "--metric", "recall@5"]) == 2


def test_compare_interval_and_verdict_come_from_one_test(tmp_path, capsys):
    """Issue 14: `+0.444 [+0.111, +0.778] p 0.125 ... no detectable difference` (a bootstrap CI beside a
    permutation p-value). 9 pairs, 4 improved by 1, 5 unchanged: exact sign-flip p = 2/16 = 0.125, and the
    CI from the same test, inverted, keeps 0."""
    ids = [f"q{i}" for i in range(9)]
    spec = (("hit_rate@5", True, "mean"),)
    base = _results(tmp_path / "b.json", {"hit_rate@5": dict.fromkeys(ids, 0.0)}, spec)
    new = _results(tmp_path / "n.json", {"hit_rate@5": {i: (1.0 if k < 4 else 0.0) for k, i in enumerate(ids)}}, spec)
    assert _run(["compare", base, new, "--format", "json"]) == 0
    m = json.loads(capsys.readouterr().out)["metrics"][0]
    assert m["difference"] == pytest.approx(4 / 9) and m["p_value"] == 0.125
    assert m["verdict"] == "no detectable difference"
    assert m["ci"]["method"] == "sign-flip permutation, exact (test inversion)"
    assert m["ci"]["low"] <= 0 <= m["ci"]["high"]
    assert _run(["compare", base, new]) == 0
    out = capsys.readouterr().out
    assert "+0.444  [+0.000, +1.000]  0.125" in out and "CI and p of a metric come from one test" in out
    # 9 of 9 improved: p = 2/512, the CI excludes 0, the verdict is "better"
    all9 = _results(tmp_path / "a.json", {"hit_rate@5": dict.fromkeys(ids, 1.0)}, spec)
    assert _run(["compare", base, all9, "--format", "json"]) == 0
    m = json.loads(capsys.readouterr().out)["metrics"][0]
    assert m["verdict"] == "better" and m["ci"]["low"] > 0


def test_compare_says_why_a_holm_verdict_differs_from_the_interval():
    from ragauge.stats.paired import compare_paired

    rng = np.random.default_rng(2)
    base = rng.random(40)
    new = base + 0.05 + rng.normal(0, 0.12, 40)
    r = compare_paired(base, new)
    assert r.p_value <= 0.05 and r.ci.low > 0 and r.verdict == "better"
    held = compare_paired(base, new, p_adjusted=min(1.0, r.p_value * 20))
    assert held.verdict == "no detectable difference"
    assert "the CI excludes 0 although the verdict is no detectable difference" in held.reason
    assert "Holm-adjusted p" in held.reason
