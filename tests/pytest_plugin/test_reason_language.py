"""A failing quality assertion explains its gates in the data's language (issue 18): a Russian golden set
gets the Russian reason the reports show, an English one keeps the checker's sentence."""

from __future__ import annotations

import pytest

import ragauge
from ragauge.report.gate_text import gate_reason
from ragauge.testing import assert_quality, assert_sample
from ragauge.testing.golden_set import sample_result
from ragauge_plugin_helpers import rows

METRICS = ["hit_rate@5", "mrr@5"]


def _english(n: int, miss: set[int]) -> list[dict]:
    out = rows(n, miss=miss)
    for r in out:
        r["question"] = r["question"].replace("Вопрос номер", "Question number")
    return out


def test_a_russian_set_fails_with_the_russian_reason_of_the_report():
    res = ragauge.evaluate(rows(10, miss={0, 1, 2}), metrics=METRICS, n_resamples=200)
    with pytest.raises(AssertionError) as err:
        assert_quality(res)
    text = str(err.value)
    doc = res.to_dict()
    failed = [g for g in doc["gates"] if g["status"] == "fail"]
    assert failed and doc["lang"] == "ru"
    for g in failed:
        assert gate_reason(g, doc, "ru") in text  # the sentence report.md / report.html show
        assert g["reason"] not in text  # not the stored English one
    assert "планка не пройдена" in text and "misses the bar" not in text


def test_an_english_set_keeps_the_checker_sentence():
    res = ragauge.evaluate(_english(10, {0, 1, 2}), metrics=METRICS, n_resamples=200)
    with pytest.raises(AssertionError) as err:
        assert_quality(res)
    text = str(err.value)
    assert all(g.reason in text for g in res.gates if g.status == "fail")
    assert "планка" not in text


def test_a_named_profile_is_the_one_the_reason_names():
    res = ragauge.evaluate(rows(10, miss={0, 1, 2}), metrics=METRICS, n_resamples=200, profile=None)
    with pytest.raises(AssertionError) as err:
        assert_quality(res, profile="dashboard")
    assert "профиль dashboard" in str(err.value) and "(profile dashboard;" in str(err.value)


def test_one_sample_fails_with_a_russian_reason_on_its_own_numbers():
    res = ragauge.evaluate(rows(6, miss={2}), metrics=METRICS, n_resamples=200, profile=None)
    with pytest.raises(AssertionError) as err:
        assert_sample(sample_result(res, "q2"), thresholds={"mrr@5": ">= 0.5"})
    line = [x for x in str(err.value).splitlines() if "mrr@5" in x][0]
    # this sample's value and bar, not the run's, and no "unscored" share of the run
    assert "mrr@5 = 0,000 — планка не пройдена: нужно не меньше 0,5" in line, line
    assert "sample q2" in line
