"""Metric and profile descriptions in the report's language (issue 14: one language per report)."""

from __future__ import annotations

import re
import string

import pytest

from ragauge.gates.profiles import builtin_profiles, resolve_profile
from ragauge.metrics.registry import definitions, parse_metric
from ragauge.report.metric_text import DESCRIPTIONS_RU, metric_description


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("d", definitions(), ids=lambda d: d.base)
def test_every_metric_has_a_russian_description_with_the_same_fields(d):
    assert d.base in DESCRIPTIONS_RU, f"add a Russian description of {d.base} to report/metric_text.py"
    ru = DESCRIPTIONS_RU[d.base]
    assert _fields(ru) == _fields(d.description)
    assert re.search("[а-яё]", ru)


def test_the_description_is_bound_like_the_english_one():
    spec = parse_metric("mrr@10").to_dict()
    assert metric_description(spec, "en") == spec["description"]
    assert metric_description(spec, "ru") == ("Обратный ранг первого релевантного документа среди первых 10; 0, если "
                                              "его нет (trec_eval recip_rank без отсечки).")
    p95 = parse_metric("latency_p95").to_dict()
    assert metric_description(p95, "ru") == "P95 полной задержки ответа (latency_ms) в миллисекундах."


def test_an_unknown_metric_keeps_its_stored_description():
    spec = {"base": "my_metric", "params": {}, "description": "Custom."}
    assert metric_description(spec, "ru") == "Custom."


@pytest.mark.parametrize("name", sorted(builtin_profiles()))
def test_every_builtin_profile_has_a_russian_description(name):
    prof = resolve_profile(name).to_dict()
    assert re.search("[а-яё]", prof.get("description_ru", "")), name


def test_a_profile_with_its_own_description_does_not_inherit_the_russian_one():
    from ragauge.errors import ConfigError

    mine = resolve_profile("mine", user_profiles={"mine": {"extends": "dashboard", "description": "Our bar."}})
    assert mine.description == "Our bar." and "description_ru" not in mine.to_dict()
    kept = resolve_profile("mine", user_profiles={"mine": {"extends": "dashboard", "k": 10}})
    assert kept.description_ru == resolve_profile("dashboard").description_ru
    with pytest.raises(ConfigError, match="description_ru must be a string"):
        resolve_profile("bad", user_profiles={"bad": {"description": "x", "description_ru": 3}})
