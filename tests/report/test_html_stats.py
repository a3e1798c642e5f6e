"""HTML parts of the statistics issue: "What to fix", the hidden-breakage banner, arrows vs the baseline."""

import copy

from ragauge.report.html import render_html
from ragauge.report.markdown import render_markdown
from ragauge.report.table import render_table

from test_html import EVIL, _parse, make_results


def _with_stats():
    doc = make_results()
    doc["diagnosis"] = [{"code": "retrieval_first", "severity": "critical", "title": f"Fix retrieval first {EVIL}",
                         "text": "hit_rate@10 = 0.600 is below the bar 0.95.",
                         "evidence": {"hit_rate@10": {"value": 0.6, "ci_low": 0.45, "ci_high": 0.74, "op": ">=",
                                                      "threshold": 0.95, "unit": None}}}]
    doc["alarms"] = [{"metric": "ndcg@10", "slice": "numbers", "status": "alarm", "p_adjusted": 0.01,
                      "text": f"Slice 'numbers' is significantly below the rest on ndcg@10 {EVIL}."}]
    doc["slice_checks"] = {"min_n": 5, "alpha": 0.05, "correction": "holm", "n_tests": 6}
    doc["slices"]["numbers"]["checks"] = {"ndcg@10": {"status": "alarm"}}
    doc["slices"]["edge"]["checks"] = {"ndcg@10": {"status": "too small"}}
    doc["comparison"] = {"baseline": {"path": "base/results.json", "n_common": 40, "only_base": 0, "only_new": 0},
                         "level": 0.95, "metrics": {
                             "ndcg@10": {"difference": -0.05, "ci": {"low": -0.08, "high": -0.02},
                                         "p_value": 0.001, "p_adjusted": 0.003, "verdict": "worse", "reason": "r"},
                             "faithfulness": {"difference": 0.01, "ci": {"low": -0.01, "high": 0.03},
                                              "p_value": 0.3, "p_adjusted": 0.6,
                                              "verdict": "no detectable difference", "reason": "r"}}}
    return doc


def test_sections_order_escaping_and_highlight():
    doc = _with_stats()
    page = render_html(doc)
    checker = _parse(page)
    assert checker.errors == [] and checker.stack == []
    assert EVIL not in page  # escaped
    assert page.index('id="diagnosis"') < page.index('id="breakage"') < page.index('id="gates"')
    assert 'href="#diagnosis"' in page and "diag-bad" in page and "[0.450 – 0.740]" in page
    assert "alarm: significantly below the rest" in page  # the alarmed slice bar
    assert "<th>vs baseline</th>" in page and "change-worse" in page and "↓" in page and "change-same" in page
    assert "Too small to test" in page and "edge" in page


def test_absent_blocks_render_nothing_extra():
    page = render_html(make_results())
    for marker in ('id="diagnosis"', 'id="breakage"', "vs baseline", "⚠ alarm"):
        assert marker not in page


def test_markdown_and_table():
    doc = _with_stats()
    md = render_markdown(doc)
    assert md.index("### What to fix") < md.index("### Hidden breakage") < md.index("| gate |")
    assert "↓ -0.050 [-0.080, -0.020] p=0.003 worse" in md and "→" not in md.split("| gate |")[0]
    table = render_table(doc)
    assert "vs baseline" in table and "↓ -0.050" in table and "↑ +0.010" in table and "n.s." in table
    assert "Hidden breakage: 1 slice significantly below" in table and "What to fix:" in table
    plain = copy.deepcopy(doc)
    for k in ("diagnosis", "alarms", "comparison"):
        plain.pop(k)
    assert "vs baseline" not in render_table(plain) and "What to fix" not in render_markdown(plain)
