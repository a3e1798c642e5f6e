"""evaluate(..., baseline=...): pairing, the non_inferior gate, the comparison block; slice alarms."""

import json
import random

import pytest

import ragauge
from ragauge.errors import InputError

USER = {"ni": {"description": "regression guard", "mode": "non_inferior", "margin": 0.05,
               "thresholds": {"mrr@5": ">= 0.5", "hit_rate@5": ">= 0.5"}}}


def rows(n=60, *, broken=0, tiny=0, p_hit=0.9, seed=1, ids=None):
    """Ranking samples; the first ``broken`` carry the tag 'broken' and almost never hit."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        tag = "broken" if i < broken else ("tiny" if i < broken + tiny else "ok")
        p = 0.1 if tag == "broken" else p_hit
        ranking = ["a", "b", "c"] if rng.random() < p else (["x", "a", "c"] if rng.random() < 0.5 else ["x", "y", "z"])
        out.append({"id": (ids or (lambda j: f"q{j}"))(i), "question": "What does it cost?", "retrieved_ids": ranking,
                    "relevant_ids": {"a": 1}, "tags": [tag], "latency_ms": 1000.0 + i})
    return out


def _eval(data, **kw):
    kw.setdefault("metrics", ["hit_rate@5", "mrr@5"])
    return ragauge.evaluate(data, **kw)


def test_non_inferior_gate_and_comparison_block(tmp_path):
    base = _eval(rows(seed=1), profile=None)
    path = base.save(tmp_path / "base")["json"]
    same = _eval(rows(seed=1), profile="ni", user_profiles=USER, baseline=path)
    gates = {g.metric: g for g in same.gates}
    assert gates["mrr@5"].status == "pass" and gates["mrr@5"].mode == "non_inferior"
    assert "no regression beyond the margin 0.05 shown" in gates["mrr@5"].reason
    doc = same.to_dict()
    block = doc["comparison"]
    assert block["baseline"]["path"] == str(path) and block["baseline"]["n_common"] == 60
    assert set(block["metrics"]) == {"hit_rate@5", "mrr@5"} and block["correction"] == "holm"
    m = block["metrics"]["mrr@5"]
    assert m["difference"] == 0.0 and m["verdict"] == "no detectable difference"
    assert doc["gates"][0]["non_inferiority"]["n"] == 60
    # a much worse run fails the gate, shows "worse" in the comparison, and says why in words
    worse = _eval(rows(seed=1, p_hit=0.4), profile="ni", user_profiles=USER, baseline=base.to_dict())
    g = {g.metric: g for g in worse.gates}["mrr@5"]
    assert g.status == "fail" and "a regression: significantly worse than the baseline" in g.reason
    assert worse.comparison["metrics"]["mrr@5"]["verdict"] == "worse"
    assert worse.comparison["any_worse"] is True and not worse.passed


def test_margin_argument_and_point_gates_get_the_comparison_too():
    base = _eval(rows(seed=1), profile=None).to_dict()
    new = _eval(rows(seed=1), profile="ni", user_profiles=USER, baseline=base, margin=0.001)
    assert {g.metric: g for g in new.gates}["mrr@5"].margin == 0.001
    plain = _eval(rows(seed=1), profile="dashboard", baseline=base)  # point gates
    assert set(plain.comparison["metrics"]) == {"hit_rate@5", "mrr@5"}
    with pytest.raises(ragauge.ConfigError, match="margin"):
        _eval(rows(), profile=None, baseline=base, margin=-0.1)


def test_different_ids_are_refused_unless_intersection():
    base = _eval(rows(seed=1), profile=None).to_dict()
    other = rows(seed=1, ids=lambda j: f"q{j + 5}")
    with pytest.raises(InputError, match="not scored on the same samples") as exc:
        _eval(other, profile="ni", user_profiles=USER, baseline=base)
    assert "--intersection" in str(exc.value) and "only in base 5" in str(exc.value)
    res = _eval(other, profile="ni", user_profiles=USER, baseline=base, allow_intersection=True)
    info = res.comparison["baseline"]
    assert (info["n_common"], info["only_base"], info["only_new"]) == (55, 5, 5)
    assert res.comparison["metrics"]["mrr@5"]["n"] == 55


def test_bad_baseline_file(tmp_path):
    (tmp_path / "bad.json").write_text("{oops", encoding="utf-8")
    with pytest.raises(InputError, match="invalid JSON"):
        _eval(rows(), profile=None, baseline=tmp_path / "bad.json")
    with pytest.raises(InputError, match="missing.json: file not found"):
        _eval(rows(), profile=None, baseline=tmp_path / "missing.json")
    with pytest.raises(InputError, match="not a ragauge results document"):
        _eval(rows(), profile=None, baseline={"schema": "x"})


def test_no_baseline_means_no_comparison_and_skipped_non_inferior_gates():
    res = _eval(rows(), profile="ni", user_profiles=USER)
    assert res.comparison is None and res.to_dict()["comparison"] is None
    *waiting, extra = res.gates
    assert waiting and all(g.status == "skipped" for g in waiting)
    # every gate waits for a baseline: the run says so and fails instead of passing forever
    assert extra.metric == "baseline given" and extra.status == "fail" and not res.passed


def test_planted_broken_slice_alarms_while_the_gate_passes():
    res = _eval(rows(n=80, broken=10, tiny=3, p_hit=0.97), profile="dashboard", metrics=None, judge=None)
    gates = {g.metric: g for g in res.gates}
    assert gates["hit_rate@5"].status == "pass"
    doc = res.to_dict()
    alarms = [a for a in doc["alarms"] if a["metric"] == "hit_rate@5"]
    assert alarms and alarms[0]["slice"] == "broken"
    a = alarms[0]
    assert a["overall_gate"] == "pass" and a["slice_meets_threshold"] is False and a["p_adjusted"] <= 0.05
    assert a["ci"]["method"] == "wilson" and a["n"] == 10 and a["n_rest"] == 70
    assert "significantly below the rest" in a["text"] and "while the overall gate passes" in a["text"]
    assert doc["slices"]["tiny"]["checks"]["hit_rate@5"]["status"] == "too small"
    assert doc["slices"]["ok"]["checks"]["hit_rate@5"]["status"] == "ok"
    assert doc["slice_checks"]["min_n"] == 5 and doc["slice_checks"]["correction"] == "holm"
    # the alarm is shown in every format
    from ragauge.report.html import render_html
    from ragauge.report.markdown import render_markdown
    from ragauge.report.table import render_table

    assert "Hidden breakage" in render_table(doc) and "tiny" in render_table(doc)
    assert "### Hidden breakage" in render_markdown(doc)
    html = render_html(doc)
    assert 'id="breakage"' in html and "⚠ alarm" in html and 'role="alert"' in html


def test_homogeneous_data_and_min_slice():
    res = _eval(rows(n=80, p_hit=0.8, seed=3) , profile="dashboard")
    assert res.alarms == []
    big_min = _eval(rows(n=80, broken=10, p_hit=0.97), profile="dashboard", min_slice_n=20)
    assert big_min.alarms == [] and big_min.slices["broken"]["checks"]["mrr@5"]["status"] == "too small"
    with pytest.raises(InputError, match="minimum slice size"):
        _eval(rows(), profile=None, min_slice_n=1)


def test_results_json_round_trip_has_the_new_blocks(tmp_path):
    base = _eval(rows(seed=1), profile=None).to_dict()
    res = _eval(rows(n=60, broken=8, p_hit=0.97, seed=1), profile="dashboard", baseline=None)
    doc = json.loads(res.to_json())
    for key in ("comparison", "alarms", "slice_checks", "diagnosis"):
        assert key in doc
    assert doc["ci"]["methods"]["pass_rate"] == "wilson"
    assert doc["summary"]["hit_rate@5"]["ci"]["method"] == "wilson"
    assert doc["summary"]["mrr@5"]["ci"]["method"].startswith("bootstrap-")
    assert "language" in doc["samples"][0]
    assert base["comparison"] is None
