"""The plugin end to end: small projects that pass, fail a threshold, regress, break, parametrise."""

from __future__ import annotations

import importlib
import json

import pytest

from ragauge_plugin_helpers import rows, write_jsonl

GATE_TEST = """
import pytest
from ragauge.testing import assert_quality

@pytest.mark.ragauge(data="golden.jsonl", metrics=["hit_rate@5", "mrr@5", "latency_p95"], n_resamples=200)
def test_quality(ragauge_results):
    assert_quality(ragauge_results)
"""


def test_passing_project_exit_0_with_summary_and_reports(pytester, run, tmp_path):
    write_jsonl(pytester.path / "golden.jsonl", rows(10))
    pytester.makepyfile(test_rag=GATE_TEST)
    out = tmp_path / "report"
    result = run(f"--ragauge-out={out}")
    result.assert_outcomes(passed=1)
    assert result.ret == 0
    text = result.stdout.str()
    # the verdict in the report's one language (the questions are Russian), and the small-sample warning
    assert "ragauge" in text and "PASS: все пороги пройдены (3 порога)." in text
    assert "only 10 scored samples (fewer than 30)" in text
    assert "ragauge: 1 evaluation (10 samples) in this session" in text
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["passed"] is True and doc["source"]["n_samples"] == 10
    assert (out / "report.md").is_file() and (out / "report.html").is_file()
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| `hit_rate@5` |" in summary and "PASS" in summary


def test_threshold_failure_exit_1_with_readable_message(pytester, run):
    write_jsonl(pytester.path / "golden.jsonl", rows(8, miss={0, 4}))
    pytester.makepyfile(test_rag=GATE_TEST)
    result = run()
    result.assert_outcomes(failed=1)
    assert result.ret == 1
    text = result.stdout.str()
    assert "FAIL hit_rate@5 = 0.750, 95% CI [" in text
    assert "threshold >= 0.85 (point)" in text
    # the data is Russian, so is the reason (the same sentence ragauge eval's Russian report gives)
    assert "hit_rate@5 = 0,750 — планка не пройдена: нужно не меньше 0,85 (профиль dashboard, точечная оценка)" in text
    assert "- q0: hit_rate@5 = 0.000" in text and "retrieved: x, y, z; relevant: a" in text
    assert "ragauge: FAILED test_rag.py::test_quality: ragauge: 1 of 3 gates failed" in text
    # the terminal summary's verdict, in the report's one language: that of its (Russian) diagnosis
    assert "FAIL: не пройдены пороги (1 из 3): hit_rate@5" in text


def _save_baseline(path, source, target) -> None:
    import argparse

    from ragauge.cli import baseline

    parser = argparse.ArgumentParser(prog="ragauge")
    baseline.register(parser.add_subparsers())
    args = parser.parse_args(["baseline", "save", str(source), "--to", str(target)])
    assert args.func(args) == 0


def test_regression_vs_baseline_fails_although_threshold_passes(pytester, run, tmp_path):
    # the baseline run: every first hit at rank 1 (mrr@5 = 1.0)
    write_jsonl(pytester.path / "golden.jsonl", rows(20))
    pytester.makepyfile(test_rag=GATE_TEST)
    first = run(f"--ragauge-out={tmp_path / 'base-run'}")
    first.assert_outcomes(passed=1)
    _save_baseline(pytester.path, tmp_path / "base-run", pytester.path / "ragauge-baseline.json")

    # the change: 6 of 20 first hits drop to rank 2 -> mrr@5 = 0.85, still above the bar 0.75
    write_jsonl(pytester.path / "golden.jsonl", rows(20, second={0, 3, 6, 9, 12, 15}))
    absolute = run()
    absolute.assert_outcomes(passed=1)  # the absolute thresholds alone pass
    result = run("--ragauge-baseline", "ragauge-baseline.json")
    result.assert_outcomes(failed=1)
    assert result.ret == 1
    text = result.stdout.str()
    assert "FAIL mrr@5 = 0.850" in text and "(non-inferior, margin 0.02)" in text
    assert "в базовом запуске" in text and "регрессия: значимо хуже базового запуска" in text


BROKEN = '{"id": "q0", "question": "ok?", "retrieved_ids": ["a"], "relevant_ids": ["a"]}\n' \
         '{"id": "q1", "question": 5, "retrieved_ids": ["a"], "relevant_ids": ["a"]}\n'


def test_broken_data_file_clear_error_without_traceback(pytester, run):
    (pytester.path / "golden.jsonl").write_text(BROKEN, encoding="utf-8")
    pytester.makepyfile(test_rag=GATE_TEST)
    result = run()
    result.assert_outcomes(errors=1)
    assert result.ret == 1
    text = result.stdout.str()
    assert "golden.jsonl, line 2, field 'question'" in text
    assert "Traceback" not in text and "site-packages" not in text and "raise " not in text


def test_broken_golden_file_at_collection_is_a_clean_collection_error(pytester, run):
    (pytester.path / "golden.jsonl").write_text(BROKEN, encoding="utf-8")
    pytester.makepyfile(test_rag="""
import pytest
from ragauge.testing import golden

@pytest.mark.parametrize("sample", golden("golden.jsonl"))
def test_sample(sample):
    pass
""")
    result = run()
    assert result.ret == pytest.ExitCode.INTERRUPTED  # pytest's exit code for collection errors
    text = result.stdout.str()
    assert "golden.jsonl, line 2, field 'question'" in text
    assert "Traceback" not in text and "raise " not in text


PER_SAMPLE = """
import pytest
from ragauge.testing import assert_sample, golden

@pytest.mark.ragauge(metrics=["hit_rate@5", "mrr@5"], n_resamples=200)
@pytest.mark.parametrize("sample", golden("golden.jsonl"))
def test_sample(sample, ragauge_eval):
    row = ragauge_eval(sample)
    assert row.id == sample.id
    assert_sample(row, thresholds={"hit_rate@5": 1, "mrr@5": ">= 0.5"})
"""


def test_parametrised_per_sample_tests_evaluate_once(pytester, run, monkeypatch):
    module = importlib.import_module("ragauge.engine.evaluate")
    calls = []
    real = module.evaluate

    def counting(*args, **kwargs):
        calls.append(kwargs.get("metrics"))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "evaluate", counting)
    write_jsonl(pytester.path / "golden.jsonl", rows(6, miss={4}))
    pytester.makepyfile(test_rag=PER_SAMPLE)
    result = run("-v")
    result.assert_outcomes(passed=5, failed=1)
    assert calls == [["hit_rate@5", "mrr@5"]]  # one batched evaluation for six tests
    text = result.stdout.str()
    assert "test_sample[q4] FAILED" in text and "test_sample[q0] PASSED" in text
    assert "ragauge: sample 'q4' failed 2 of 2 checks" in text
    assert "hit_rate@5 = 0,000 — планка не пройдена: нужно не меньше 1 (профиль assert_sample, sample q4, точечная оценка)" in text


PIPELINE = """
import pytest
from ragauge.testing import assert_quality

INDEX = {"a": "Тариф стоит 300 рублей.", "b": "Офис открыт с 9 до 18.", "c": "Доставка бесплатная."}

def retrieve(question):
    return [{"text": INDEX[d], "id": d, "score": 1.0 - 0.1 * n} for n, d in enumerate("abc")]

def generate(question, contexts):
    yield "Тариф "
    yield "стоит 300 рублей."

@pytest.mark.ragauge(data="golden.jsonl", retrieve=retrieve, generate=generate,
                     metrics=["hit_rate@5", "latency_p95", "retrieval_p95", "ttft_p95"], n_resamples=200)
def test_pipeline(ragauge_results):
    s = ragauge_results.samples[0]
    assert s.answer == "Тариф стоит 300 рублей."
    assert [c.id for c in s.contexts] == ["a", "b", "c"] and s.retrieved_ids == ("a", "b", "c")
    assert s.latency_ms >= s.ttft_ms >= s.retrieval_ms >= 0
    assert_quality(ragauge_results)

@pytest.mark.ragauge(data="golden.jsonl", retrieve=retrieve, generate=generate,
                     metrics=["hit_rate@5", "latency_p95", "retrieval_p95", "ttft_p95"], n_resamples=200)
def test_same_marker_is_cached(ragauge_results, ragauge_eval):
    assert ragauge_eval() is ragauge_results
"""


def test_pipeline_from_the_marker_records_answers_contexts_timings(pytester, run, tmp_path):
    golden = [{"id": f"p{i}", "question": "Сколько стоит тариф?", "relevant_ids": ["a"]} for i in range(4)]
    write_jsonl(pytester.path / "golden.jsonl", golden)
    pytester.makepyfile(test_rag=PIPELINE)
    out = tmp_path / "out"
    result = run(f"--ragauge-out={out}")
    result.assert_outcomes(passed=2)
    assert "ragauge: 1 evaluation (4 samples)" in result.stdout.str()
    recorded = [json.loads(x) for x in (out / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    assert recorded[0]["answer"] == "Тариф стоит 300 рублей."
    assert recorded[0]["contexts"][0] == {"text": "Тариф стоит 300 рублей.", "id": "a", "score": 1.0}
    assert all(r["latency_ms"] > 0 and r["retrieval_ms"] >= 0 and r["ttft_ms"] > 0 for r in recorded)


def test_profile_option_overrides_and_unknown_marker_argument(pytester, run):
    write_jsonl(pytester.path / "golden.jsonl", rows(6))
    pytester.makepyfile(test_rag="""
import pytest

@pytest.mark.ragauge(data="golden.jsonl", metrics=["recall@10", "mrr@10"], n_resamples=200)
def test_profile(ragauge_results):
    assert ragauge_results.profile.name == "russian-practice"

@pytest.mark.ragauge(data="golden.jsonl", metric=["mrr"])
def test_typo(ragauge_results):
    pass
""")
    result = run("--ragauge-profile", "russian-practice")
    result.assert_outcomes(passed=1, errors=1)
    text = result.stdout.str()
    assert "unknown ragauge marker/fixture argument(s): metric" in text
    assert "Traceback" not in text and "another exception occurred" not in text


INERT = """
import sys

def test_nothing_heavy_loaded():
    heavy = [m for m in ("numpy", "ragauge.engine", "ragauge.judges", "ragauge.testing.session") if m in sys.modules]
    assert heavy == []
    assert "ragauge.pytest_plugin" in sys.modules
"""


def test_plugin_is_inert_until_used(pytester, run):
    pytester.makepyfile(test_plain=INERT)
    result = run(subprocess=True)
    result.assert_outcomes(passed=1)
    assert "ragauge" not in result.stdout.str().split("passed")[-1]


BUDGET_TEST = """
import pytest
from ragauge.testing import assert_quality

@pytest.mark.ragauge(data="golden.jsonl", metrics=["faithfulness"], n_resamples=200)
def test_quality(ragauge_results):
    assert_quality(ragauge_results)
"""


def _answered(n: int) -> list[dict]:
    return [{"id": f"q{i}", "question": f"Какая гарантия на кровлю {i}?", "answer": "Гарантия 5 лет.",
             "contexts": ["Гарантия на кровельные работы составляет 5 лет."]} for i in range(n)]


def test_money_budget_stops_the_run_before_any_paid_call(pytester, run):
    write_jsonl(pytester.path / "golden.jsonl", _answered(3))
    pytester.makepyfile(test_rag=BUDGET_TEST)
    (pytester.path / "prices.toml").write_text('[prices]\ntiny = {input = 0.15, output = 0.60}\n', encoding="utf-8")
    # nothing listens on port 9: a call would fail differently; the budget must stop the run before it
    judge = "--ragauge-judge=openai:tiny@http://127.0.0.1:9/v1"
    result = run(judge, "--ragauge-prices=prices.toml", "--ragauge-max-usd=0")
    assert result.ret != 0
    text = result.stdout.str()
    assert "BudgetExceededError" in text and "Traceback" not in text
    assert "would exceed max_cost=$0.0" in text and "Spent so far: 0 calls" in text


def test_money_budget_without_prices_or_without_llm_judge_is_refused(pytester, run):
    write_jsonl(pytester.path / "golden.jsonl", _answered(2))
    pytester.makepyfile(test_rag=BUDGET_TEST)
    result = run("--ragauge-judge=openai:tiny@http://127.0.0.1:9/v1", "--ragauge-max-usd=1")
    assert result.ret != 0
    assert "--ragauge-max-usd needs --ragauge-prices FILE" in result.stdout.str()
    result = run("--ragauge-max-calls=5")
    assert result.ret != 0
    assert "apply to an LLM judge" in result.stdout.str()


def test_budget_applies_to_a_cascade_judge_too(pytester, run):
    write_jsonl(pytester.path / "golden.jsonl", _answered(2))
    pytester.makepyfile(test_rag=BUDGET_TEST)
    result = run("--ragauge-judge=cascade:openai:tiny@http://127.0.0.1:9/v1", "--ragauge-max-usd=1")
    assert result.ret != 0
    assert "--ragauge-max-usd needs --ragauge-prices FILE" in result.stdout.str()
