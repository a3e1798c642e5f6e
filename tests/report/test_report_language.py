"""One language per report, in the HTML's own words too, and a page that stays short (issue 14).

The Russian HTML report used to mix English fixed texts into a Russian page (badges "fail", "gated",
"higher is better", chart axes and labels, the footer); and with many gated metrics every slice chart
was drawn open, ~500 px each (the demo page ran past 16,000 px).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ragauge.report.html import render_html

from test_html import _parse, make_results

# the report's own English words that a Russian page must not show (data such as metric descriptions
# and unscored reasons come from the metrics and stay as written)
ENGLISH_UI = ["higher is better", "lower is better", ">gated<", "score per sample", "Generated offline",
              "n too small", "⚠ alarm", "too small", "— not measured", ">fail<", ">pass<", ">skipped<", ">unscored<",
              "mean ", "threshold ", "resamples", "Schema <code>", "scored samples in"]


def _ru(doc: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    doc["lang"] = "ru"
    doc["slices"]["numbers"]["checks"] = {"ndcg@10": {"status": "alarm"}}
    doc["slices"]["edge"]["checks"] = {"ndcg@10": {"status": "too small"}}
    return doc


def _text_of(page: str) -> str:
    """What the reader sees or hears: text and title/desc of charts, without scripts and styles."""
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", page, flags=re.S)
    return page


def test_russian_html_has_no_english_words_of_its_own():
    page = render_html(_ru(make_results()))
    shown = _text_of(page)
    found = [w for w in ENGLISH_UI if w in shown]
    assert found == []
    for ru in ("больше — лучше", "меньше — лучше", ">с порогом<", "оценка образца", "Создан офлайн",
               "мало данных", "⚠ тревога", ">не пройден<", ">пройден<", "среднее ", "порог "):
        assert ru in shown, ru
    assert _parse(page).errors == []


def test_english_html_keeps_its_words():
    page = render_html(make_results())
    for en in ("higher is better", ">gated<", "score per sample", "Generated offline by ragauge", ">fail<"):
        assert en in page, en


def _many_gates(doc: dict[str, Any]) -> dict[str, Any]:
    """Gates on four metrics, so that slice charts without an alarm collapse."""
    doc = copy.deepcopy(doc)
    doc["gates"] = [g for g in doc["gates"] if g["metric"] in ("hit_rate@10", "ndcg@10", "faithfulness", "latency_p95")]
    doc["gates"].append({"metric": "recall@10", "op": ">=", "threshold": 0.9, "value": doc["summary"]["recall@10"]["value"],
                         "ci_low": None, "ci_high": None, "mode": "point", "status": "fail", "reason": "r"})
    return doc


def test_slice_charts_without_an_alarm_collapse_to_their_worst_slice():
    doc = _many_gates(make_results())
    doc["slices"]["numbers"]["checks"] = {"ndcg@10": {"status": "alarm"}}
    page = render_html(doc)
    section = page[page.index('<section id="slices">'):page.index('<section id="latency">')]
    open_charts = re.findall(r'<figure class="card wide"><figcaption><strong>([^<]+)</strong>', section)
    collapsed = re.findall(r'<details class="card wide slice-chart"><summary><strong>([^<]+)</strong> ([^<]+)</summary>',
                           section)
    assert open_charts == ["ndcg@10"]  # the alarmed one stays open
    assert sorted(m for m, _ in collapsed) == ["faithfulness", "hit_rate@10", "latency_p95", "recall@10"]
    line = dict(collapsed)["recall@10"]
    # every slice large enough to judge misses a 0.9 bar; the worst is named with its value and n
    values = {tag: sl["summary"]["recall@10"] for tag, sl in doc["slices"].items()}
    judged = {t: e for t, e in values.items() if e["n"] >= 5 and e["value"] is not None}
    worst = min(judged, key=lambda t: judged[t]["value"])
    assert line.startswith(f"by slice: {len(judged)} of {len(judged)} slices below the bar; worst {worst} (")
    assert f"n = {judged[worst]['n']})" in line
    assert section.count("<svg") == 5  # every chart is still in the page, only closed
    assert _parse(page).errors == []


def test_three_gated_metrics_or_fewer_stay_open():
    doc = make_results()
    doc["gates"] = [g for g in doc["gates"] if g["metric"] in ("hit_rate@10", "ndcg@10", "faithfulness")]
    page = render_html(doc)
    section = page[page.index('<section id="slices">'):page.index('<section id="latency">')]
    assert "slice-chart" not in section and section.count('<figure class="card wide">') == 3


def test_too_small_follows_the_runs_minimum_slice_size():
    doc = make_results()
    doc["slice_checks"] = {"min_n": 15, "alpha": 0.05, "correction": "holm", "n_tests": 0}
    page = render_html(doc)
    section = page[page.index('<section id="slices">'):page.index('<section id="latency">')]
    # "numbers" has 12 samples: below the run's 15, so it is drawn too small; the intro says 15
    assert re.search(r"numbers: [^<]*, n=12 \(too small\)", section)
    assert "fewer than 15 scored samples" in section
