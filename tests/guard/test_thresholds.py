"""Threshold calibration: hand-computed curves, the three targets, scale-freedom, labels, the demo data, the CLI."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

from ragauge.data import load
from ragauge.errors import ConfigError, InputError, RagaugeError
from ragauge.guard import Guard
from ragauge.guard.thresholds import Target, calibrate_threshold, parse_target
from ragauge.guard.threshold_data import answerable, best_score, retrieval_data

DEMO = Path(__file__).resolve().parents[2] / "src" / "ragauge" / "demo" / "data" / "samples.jsonl"

# answerable: 0.9 0.8 0.6 0.4 | unanswerable: 0.7 0.5 0.3 0.1
VALUES = [0.9, 0.8, 0.6, 0.4, 0.7, 0.5, 0.3, 0.1]
LABELS = [True, True, True, True, False, False, False, False]


def test_curve_by_hand():
    r = calibrate_threshold(VALUES, LABELS, n_resamples=0)
    cuts = [p.cut for p in r.curve]
    assert cuts == sorted(VALUES)
    at = {p.cut: p for p in r.curve}
    # cut 0.6: answered 0.9 0.8 0.6 (3/4) and 0.7 (1/4 false); F1 = 6 / (6 + 1 + 1)
    assert (at[0.6].answered_rate, at[0.6].false_answer_rate, at[0.6].f1) == (0.75, 0.25, 0.75)
    assert (at[0.6].tp, at[0.6].fp, at[0.6].fn, at[0.6].tn) == (3, 1, 1, 3)
    assert at[0.6].threshold == pytest.approx(0.55)  # midpoint to the next lower value, 0.5
    assert at[0.1].threshold == 0.1 and at[0.1].answered_rate == 1.0 and at[0.1].false_answer_rate == 1.0
    # max F1: cut 0.6 (0.75) vs cut 0.4 (tp 4, fp 2: 8/10 = 0.8) -> cut 0.4
    assert r.point.cut == 0.4 and r.point.f1 == pytest.approx(0.8)
    assert r.threshold == pytest.approx(0.35) and r.feasible


def test_answered_target_takes_the_highest_threshold_that_keeps_the_rate():
    r = calibrate_threshold(VALUES, LABELS, target="answered>=0.75", n_resamples=0)
    assert r.point.cut == 0.6 and r.point.answered_rate == 0.75 and r.point.false_answer_rate == 0.25
    r = calibrate_threshold(VALUES, LABELS, target="answered>=1", n_resamples=0)
    assert r.point.cut == 0.4


def test_false_answer_target_takes_the_lowest_threshold_under_the_cap():
    r = calibrate_threshold(VALUES, LABELS, target="false_answer<=0", n_resamples=0)
    assert r.point.cut == 0.8 and r.point.answered_rate == 0.5 and r.point.false_answer_rate == 0.0
    assert r.threshold == pytest.approx(0.75) and r.feasible


def test_infeasible_target_is_reported_not_hidden():
    r = calibrate_threshold([0.9, 0.2, 0.95], [True, True, False], target="false_answer<=0", n_resamples=0)
    assert not r.feasible and r.point.false_answer_rate == 1.0


def test_scale_free_thresholds_follow_a_monotone_rescaling():
    a = calibrate_threshold(VALUES, LABELS, target="answered>=0.75", n_resamples=0)
    b = calibrate_threshold([10 * v - 3 for v in VALUES], LABELS, target="answered>=0.75", n_resamples=0)
    assert b.threshold == pytest.approx(10 * a.threshold - 3)
    assert [p.answered_rate for p in a.curve] == [p.answered_rate for p in b.curve]


def test_nothing_retrieved_is_never_answered():
    r = calibrate_threshold([0.9, None, 0.1], [True, True, False], target="answered>=0.5", n_resamples=0)
    assert r.point.answered_rate == 0.5 and r.point.cut == 0.9


def test_confidence_intervals_are_seeded_and_sensible():
    rng = np.random.default_rng(3)
    values = np.r_[rng.normal(0.7, 0.1, 200), rng.normal(0.4, 0.1, 200)]
    labels = [True] * 200 + [False] * 200
    r1 = calibrate_threshold(values, labels, n_resamples=300, seed=5)
    r2 = calibrate_threshold(values, labels, n_resamples=300, seed=5)
    assert r1.threshold_ci == r2.threshold_ci
    assert r1.threshold_ci.low <= r1.threshold <= r1.threshold_ci.high
    assert 0.45 < r1.threshold < 0.65  # the two classes cross near 0.55
    assert r1.answered_ci.method == "wilson" and r1.answered_ci.low <= r1.point.answered_rate <= r1.answered_ci.high
    d = r1.to_dict()
    assert d["target"] == "f1" and d["bootstrap"] == {"n_resamples": 300, "seed": 5}
    assert json.dumps(d)


def test_calibrated_threshold_makes_the_guard_decide_as_the_curve_says():
    r = calibrate_threshold(VALUES, LABELS, target="false_answer<=0", n_resamples=0)
    answered = []
    for v in VALUES:
        guard = Guard(lambda q, f, k, v=v: [{"id": "c", "text": "x", "score": v}], lambda q, c: "ok",
                      score_threshold=r.threshold, grade=False)
        answered.append(guard.run("q?").kind == "answer")
    assert answered == [v >= r.point.cut for v in VALUES]
    assert sum(a for a, y in zip(answered, LABELS, strict=True) if y) / 4 == r.point.answered_rate


def test_bad_input_is_loud():
    with pytest.raises(ConfigError, match="not understood"):
        parse_target("recall>=0.9")
    with pytest.raises(ConfigError, match="in \\[0, 1\\]"):
        parse_target("answered>=1.5")
    assert parse_target("false_answer <= 0.05") == Target("false_answer", 0.05)
    with pytest.raises(InputError, match="both answerable and unanswerable"):
        calibrate_threshold([0.1, 0.2], [True, True])
    with pytest.raises(InputError, match="2 values but 1 labels"):
        calibrate_threshold([0.1, 0.2], [True])
    with pytest.raises(InputError, match="NaN"):
        calibrate_threshold([0.1, float("nan")], [True, False])


def test_labels_and_scores_from_samples():
    samples = load([
        {"id": "a", "question": "q", "contexts": [{"text": "t", "score": 0.4}, {"text": "u", "score": 0.6}],
         "relevant_ids": ["d1"]},
        {"id": "b", "question": "q", "contexts": [{"text": "t", "score": 0.3}], "tags": ["unanswerable"]},
        {"id": "c", "question": "q", "contexts": [{"text": "t", "score": 0.2}], "answerable": False},
        {"id": "d", "question": "q", "contexts": [{"text": "t", "score": 0.9}]},
        {"id": "e", "question": "q", "contexts": [{"text": "t"}], "answerable": True},
    ])
    assert [answerable(s) for s in samples] == [True, False, False, None, True]
    assert best_score(samples[0]) == 0.6
    with pytest.raises(InputError, match="sample 'd'"):
        retrieval_data(samples[:4])
    data = retrieval_data(samples[:4], skip_unlabelled=True)
    assert data.ids == ("a", "b", "c") and data.skipped == ("d",) and data.labels == (True, False, False)
    with pytest.raises(InputError, match="no retrieval scores"):
        retrieval_data(samples[4:])


def test_retrieved_relevant_label():
    samples = load([
        {"id": "hit", "question": "q", "contexts": [{"id": "d1", "text": "t", "score": 0.5}], "relevant_ids": ["d1"]},
        {"id": "miss", "question": "q", "contexts": [{"id": "d9", "text": "t", "score": 0.4}], "relevant_ids": ["d1"]},
        {"id": "un", "question": "q", "contexts": [{"id": "d2", "text": "t", "score": 0.3}], "tags": ["unanswerable"]},
    ])
    assert retrieval_data(samples, label="retrieved_relevant").labels == (True, False, False)
    with pytest.raises(ConfigError, match="label="):
        retrieval_data(samples, label="nope")


def test_demo_data_calibration():
    data = retrieval_data(load(DEMO), skip_unlabelled=True)
    assert len(data.ids) == 46 and sum(data.labels) == 42 and len(data.skipped) == 10  # noisy variants
    r = calibrate_threshold(data.values, data.labels, target="answered>=0.95", n_resamples=200)
    assert r.point.answered_rate >= 0.95
    # the demo retriever's cosine scores sit far below the 0.7 default: at 0.7 almost nothing is answered
    at_default = max((p for p in r.curve if p.cut >= 0.7), key=lambda p: -p.cut)
    assert at_default.answered_rate < 0.1
    assert r.threshold < 0.4


def _cli(argv):
    from ragauge.cli import guard as guard_cli

    parser = argparse.ArgumentParser(prog="ragauge")
    guard_cli.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except RagaugeError as exc:
        return (int(exc.exit_code), str(exc))


def test_cli_json_and_table(capsys):
    assert _cli(["guard", "thresholds", str(DEMO), "--skip-unlabelled", "--format", "json", "--resamples", "100",
                 "--target", "false_answer<=0.5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["score_threshold"]["point"]["false_answer_rate"] <= 0.5
    assert out["samples"]["used"] == 46 and len(out["samples"]["skipped"]) == 10
    assert _cli(["guard", "calibrate", str(DEMO), "--skip-unlabelled", "--curve", "--resamples", "50"]) == 0
    text = capsys.readouterr().out
    assert "score_threshold: threshold" in text and "false_answer" in text and "skipped, unlabelled" in text


def test_cli_errors_and_unmet_target(capsys, tmp_path):
    code, message = _cli(["guard", "calibrate", str(DEMO)])
    assert code == 2 and "q01~noise" in message and "--skip-unlabelled" in message
    path = tmp_path / "s.jsonl"
    rows = [("a", 0.9, True), ("b", 0.2, True), ("c", 0.95, False)]
    path.write_text("\n".join(json.dumps({"id": i, "question": "q", "answerable": y,
                                          "contexts": [{"text": "t", "score": v}]}) for i, v, y in rows))
    assert _cli(["guard", "calibrate", str(path), "--target", "false_answer<=0", "--resamples", "0"]) == 1
    assert "NOT MET" in capsys.readouterr().out
    code, message = _cli(["guard", "calibrate", str(DEMO), "--target", "precision"])
    assert code == 2 and "not understood" in message


def test_cli_grade_thresholds_with_the_offline_judge(capsys):
    assert _cli(["guard", "calibrate", str(DEMO), "--skip-unlabelled", "--grade", "--format", "json",
                 "--resamples", "50"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"score_threshold", "relevancy", "support", "samples"}
    assert 0.0 <= out["relevancy"]["threshold"] <= 1.0 and 0.0 <= out["support"]["threshold"] <= 1.0
    assert out["relevancy"]["point"]["answered_rate"] >= 0.95 * out["score_threshold"]["point"]["answered_rate"] - 1e-9
