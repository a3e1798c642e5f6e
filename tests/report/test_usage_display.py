"""The LLM judge's spend (results.json ``usage``) in report.md and report.html; nothing for the offline judge."""

from __future__ import annotations

from ragauge.report.html import render_html
from ragauge.report.markdown import render_markdown


def _doc(usage):
    return {"schema": "ragauge.results/1", "source": {"path": "x.jsonl", "n_samples": 1}, "profile": None,
            "metrics": [], "summary": {}, "gates": [], "samples": [], "slices": {}, "usage": usage}


USAGE = {"judge": "llm", "model": "gpt-4o-mini",
         "total": {"calls": 15, "cached": 3, "prompt_tokens": 9000, "completion_tokens": 1500, "cost_usd": 0.0022},
         "by_metric": {"answer_relevancy": {"calls": 5, "cached": 0, "prompt_tokens": 1500, "completion_tokens": 300,
                                            "cost_usd": None}},
         "shared": {"answer_correctness+faithfulness": {"calls": 10, "cached": 3, "prompt_tokens": 7500,
                                                         "completion_tokens": 1200, "cost_usd": 0.0018}},
         "escalation": {"escalated": 4, "claims": 20, "band": [0.4, 0.7]}}


def test_spend_table_in_markdown_and_html():
    md = render_markdown(_doc(USAGE))
    assert "LLM judge spend (gpt-4o-mini):" in md
    assert "| whole run | 15 | 3 | 10,500 | $0.0022 |" in md
    assert "| answer_relevancy | 5 | 0 | 1,800 | — |" in md  # no price: unknown, not $0
    assert "| shared: answer_correctness+faithfulness | 10 | 3 | 8,700 | $0.0018 |" in md
    html = render_html(_doc(USAGE))
    assert "LLM judge spend" in html and "<td>whole run</td>" in html and "Cascade: 4 of 20 claim verdicts" in html


def test_no_spend_section_for_the_offline_judge():
    assert "LLM judge spend" not in render_markdown(_doc(None))
    assert "LLM judge spend" not in render_html(_doc(None))


def test_one_schema_rule_for_every_reader(tmp_path):
    import json

    import pytest

    from ragauge.engine.results import read_results
    from ragauge.errors import InputError
    from ragauge.stats.runs import run_scores

    minor = _doc(None) | {"schema": "ragauge.results/1.3"}
    assert "<html" in render_html(minor) and run_scores(minor).ids == ()  # a minor version only adds fields
    path = tmp_path / "results.json"
    path.write_text(json.dumps(minor), encoding="utf-8")
    assert read_results(str(path))[0]["schema"] == "ragauge.results/1.3"
    major = _doc(None) | {"schema": "ragauge.results/2"}
    for reader in (render_html, run_scores):
        with pytest.raises(InputError, match="not readable by this ragauge"):
            reader(major)
    path.write_text(json.dumps(major), encoding="utf-8")
    with pytest.raises(InputError, match="not readable by this ragauge"):
        read_results(str(path))
