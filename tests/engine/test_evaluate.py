import json
import math

import pytest

import ragauge
from ragauge.data.schema import Sample
from ragauge.errors import InputError, UnknownMetricError


def _samples():
    rows = []
    for i in range(30):
        hit = i % 3 != 0
        rows.append({
            "id": f"q{i}", "question": f"вопрос {i}", "answer": "ответ",
            "retrieved_ids": ["a", "b", "c"] if hit else ["x", "y", "z"],
            "relevant_ids": {"a": 2, "c": 1},
            "tags": ["numbers"] if i < 10 else ["paraphrase"],
            "latency_ms": 1000.0 + 100 * i, "retrieval_ms": 100.0, "ttft_ms": 300.0,
        })
    rows.append({"id": "unans", "question": "нет ответа", "retrieved_ids": ["x"], "relevant_ids": {}, "tags": ["unanswerable"]})
    return rows


def test_evaluate_list_of_dicts_with_profile():
    res = ragauge.evaluate(_samples(), profile="dashboard")
    names = [s.name for s in res.specs]
    assert names[:3] == ["hit_rate@5", "mrr@5", "ndcg@5"]
    assert "latency_p95" in names and "recall@5" in names
    hr = res.summary["hit_rate@5"]
    assert hr.n == 30 and hr.n_unscored == 1
    assert hr.unscored_reasons == {"no relevant document (grade >= 1)": 1}
    assert hr.value == pytest.approx(20 / 30)
    assert hr.ci.low < hr.value < hr.ci.high
    gates = {g.metric: g for g in res.gates}
    assert gates["hit_rate@5"].status == "fail"
    assert gates["faithfulness"].status == "skipped"
    assert gates["latency_p95"].status == "fail"  # up to 3900 ms
    assert not res.passed
    assert res.summary["latency_p95"].value == pytest.approx(
        sorted([1000.0 + 100 * i for i in range(30)])[27] + 0.55 * 100)


def test_slices_and_json_contract(tmp_path):
    res = ragauge.evaluate(_samples(), metrics=["mrr", "latency_p95"], profile=None)
    assert set(res.slices) == {"numbers", "paraphrase", "unanswerable"}
    assert res.slices["unanswerable"]["summary"]["mrr"].value is None
    doc = json.loads(res.to_json())
    assert doc["schema"] == "ragauge.results/1"
    assert doc["gates"] == [] and doc["passed"] is True
    s = doc["samples"][-1]
    assert s["scores"]["mrr"] is None and "no relevant document" in s["unscored"]["mrr"]
    for entry in doc["summary"].values():
        assert entry["n"] + entry["n_unscored"] == 31
    paths = res.save(tmp_path / "out")
    assert (tmp_path / "out" / "results.json").exists() and paths["html"].exists() and paths["markdown"].exists()
    text = (tmp_path / "out" / "results.json").read_text(encoding="utf-8")
    assert "NaN" not in text and "вопрос 0" in text


def test_deterministic_for_the_same_seed():
    a = ragauge.evaluate(_samples(), metrics=["ndcg@3"], profile=None, seed=1).summary["ndcg@3"].ci
    b = ragauge.evaluate(_samples(), metrics=["ndcg@3"], profile=None, seed=1).summary["ndcg@3"].ci
    assert (a.low, a.high) == (b.low, b.high)


def test_samples_objects_and_duplicate_ids():
    s = [Sample(id="1", question="q", retrieved_ids=("a",), relevant_ids={"a": 1})] * 2
    with pytest.raises(InputError, match="duplicate sample id"):
        ragauge.evaluate(s, metrics=["mrr"], profile=None)


def test_unknown_metric_and_no_metrics():
    with pytest.raises(UnknownMetricError):
        ragauge.evaluate(_samples(), metrics=["ndcgg@3"], profile=None)
    with pytest.raises(InputError, match="no metrics"):
        ragauge.evaluate(_samples(), metrics=None, profile=None)


def test_defaults_drop_metrics_the_data_cannot_support():
    rows = [{"id": str(i), "question": "q", "retrieved_ids": ["a"], "relevant_ids": ["a"]} for i in range(5)]
    names = [s.name for s in ragauge.evaluate(rows).specs]
    assert "latency_p95" not in names and "hit_rate@5" in names


def test_all_unscored_metric_has_null_value_and_fails_its_gate():
    rows = [{"id": str(i), "question": "q", "retrieved_ids": ["a"]} for i in range(5)]
    res = ragauge.evaluate(rows, metrics=["hit_rate@5"])
    assert res.summary["hit_rate@5"].value is None
    g = [g for g in res.gates if g.metric == "hit_rate@5"][0]
    assert g.status == "unscored" and not res.passed


def test_to_pandas_has_one_row_per_sample():
    df = ragauge.evaluate(_samples(), metrics=["mrr"], profile=None).to_pandas()
    assert len(df) == 31 and "mrr" in df.columns
    assert df.loc[df["id"] == "unans", "mrr"].isna().all()
    assert not any(isinstance(v, float) and math.isnan(v) for v in df["mrr"].iloc[:30])
