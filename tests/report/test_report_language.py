"""One language per report, in the HTML's own words too, and a page that stays short (issue 14).

The Russian HTML report used to mix English fixed texts into a Russian page (badges "fail", "gated",
"higher is better", chart axes and labels, the footer); and with many gated metrics every slice chart
was drawn open, ~500 px each (the demo page ran past 16,000 px). It then still showed the English that
results.json stores: unscored reasons, claim verdict reasons and labels, metric and profile descriptions,
the judge's accuracy paragraph, the samples table's headers, "ms" and the diagnosis' severity words.
"""

from __future__ import annotations

import copy
import html
import re
from typing import Any

from ragauge.report.html import render_html
from ragauge.report.markdown import render_markdown
from ragauge.report.table import render_table

from test_html import _parse, make_results

# the report's own English words that a Russian page must not show
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


# --- what results.json stores in English (the machine record) is shown in Russian ----------------------

_JUDGE = {"judge": "offline", "model": "ragauge-verifier + use", "version": "ragauge-verifier-2", "measured_accuracy": {
    "how": "benchmarks/judge_accuracy.py (grouped 5-fold CV on the training dev sets; FaithBench and MTRAG held out); "
           "table in docs/benchmarks.md, section 'Offline judge'",
    "measure": "ROC-AUC of (1 - min claim probability) against the human hallucination label",
    "by_task": {"short-answer QA (HaluEval, en)": 0.993, "entailment (TERRa, ru)": 0.592},
    "advice": "Reliable on short factual answers and on wrong numbers, units, dates, parties and negations; weak on "
              "summaries, free paraphrase and Russian entailment: for those, use an LLM judge (--judge "
              "openai:MODEL@URL) and calibrate it (ragauge calibrate)."}}
#: English sentences stored in results.json by the metrics, the judges and the profile
STORED_EN = ["no relevant_ids", "the reference has no claims", "supported by context", "not in context",
             "context says", "The seed dashboard", "Reciprocal rank", "ROC-AUC of", "Reliable on short", "grouped 5-fold",
             "short-answer QA", ">supported<", ">contradicted<", "judge call failed", " ms", ">tags<", ">question<",
             "[critical]", ">critical<", ">point<", ">mean<", " Dec "]


def _with_stored_english(doc: dict[str, Any]) -> dict[str, Any]:
    """The demo's kind of data: English reasons, descriptions and judge accuracy, as results.json has them."""
    doc = copy.deepcopy(doc)
    doc["profile"] = {"name": "dashboard", "description": "The seed dashboard: what a production RAG assistant should "
                      "reach.", "description_ru": "Дашборд из исходной постановки."}
    doc["metrics"][0].update(base="mrr", params={"k": 10}, description="Reciprocal rank of the first relevant document.")
    first = doc["metrics"][0]["name"]
    doc["summary"][first].update(n_unscored=3, unscored_reasons={"no relevant_ids": 2, "judge call failed": 1})
    for entry in doc["summary"].values():
        entry["judge"] = _JUDGE
    doc["diagnosis"] = [{"code": "retrieval_first", "severity": "critical", "title": "Сначала почините поиск",
                         "text": "Поиск находит нужный документ слишком редко.", "evidence": {}}]
    sample = doc["samples"][0]
    sample["unscored"] = {first: "the reference has no claims (it declines to answer)"}
    sample["scores"][first] = None
    sample["artifacts"] = {"faithfulness": {"claims": [
        {"text": "Срок 5 лет.", "start": 0, "end": 11, "verdict": "supported",
         "reason": "supported by context 2; all 2 numbers match the context"},
        {"text": "Цена 20%.", "start": 12, "end": 21, "verdict": "contradicted",
         "reason": 'number "20%" not in context; context says "30%"'}]}}
    sample["answer"] = "Срок 5 лет. Цена 20%."
    return doc


def test_russian_report_shows_the_stored_english_in_russian():
    doc = _with_stored_english(_ru(make_results()))
    page = render_html(doc)
    shown = html.unescape(_text_of(page))
    assert [w for w in STORED_EN if w in shown] == []
    for ru in ("нет relevant_ids", "в эталоне нет утверждений (это отказ отвечать)", "Дашборд из исходной постановки.",
               "подтверждено контекстом 2; все числа совпадают с контекстом (2)", 'числа "20%" нет в контексте',
               "Обратный ранг", "Надёжен на коротких", "короткие ответы на вопросы (HaluEval, en)", ">противоречит<",
               ">теги<", ">вопрос<", " мс", ">критично<"):
        assert ru in shown, ru
    assert _parse(page).errors == []
    for text in (render_markdown(doc), render_table(doc)):
        assert [w for w in ("no relevant_ids", "judge call failed", "Reliable on short", "[critical]") if w in text] == []
        assert "нет relevant_ids" in text


def test_english_report_has_no_russian_of_ours():
    doc = _with_stored_english(make_results())
    doc["diagnosis"] = [{"code": "retrieval_first", "severity": "critical", "title": "Fix retrieval first",
                         "text": "Retrieval misses.", "evidence": {}}]
    page = render_html(doc)
    for en in ("no relevant_ids", "supported by context 2; all 2 numbers match the context", "The seed dashboard",
               "Reciprocal rank", "Reliable on short", ">contradicted<", ">tags<", ">critical<"):
        assert en in page, en
    ours = ["нет relevant_ids", "подтверждено", "Дашборд", "Обратный ранг", "Надёжен", "противоречит", "теги", " мс",
            "критично"]
    assert [w for w in ours if w in page] == []
    assert [w for w in ours if w in render_table(doc) + render_markdown(doc)] == []
