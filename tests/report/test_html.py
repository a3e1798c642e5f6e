"""The HTML report: structure, escaping, offline-ness and graceful handling of missing optional parts."""

from __future__ import annotations

import copy
import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from ragauge.errors import InputError
from ragauge.report import svg
from ragauge.report.html import render_html

MEAN_METRICS = ["ndcg@10", "hit_rate@10", "recall@10", "faithfulness", "answer_relevance"]
TIMING = ["latency_p50", "latency_p95", "latency_p99", "ttft_p95"]
EVIL = "<script>alert('x')</script>"
TAGS = {"numbers": 12, "definitions": 20, "edge": 3, "пример": 5}


def _summary(values: list[float | None], reasons: list[str | None], aggregate: str = "mean") -> dict[str, Any]:
    scored = sorted(v for v in values if v is not None)
    counts: dict[str, int] = {}
    for r in reasons:
        if r is not None:
            counts[r] = counts.get(r, 0) + 1
    if not scored:
        value = None
    elif aggregate == "mean":
        value = sum(scored) / len(scored)
    else:  # linear interpolation, type 7
        pos = (len(scored) - 1) * float(aggregate[1:]) / 100
        lo = int(pos)
        value = scored[lo] + (scored[min(lo + 1, len(scored) - 1)] - scored[lo]) * (pos - lo)
    ci = None
    if value is not None and len(scored) >= 2:
        half = (max(scored) - min(scored)) / len(scored) ** 0.5 / 2
        ci = {"low": value - half, "high": value + half, "level": 0.95, "method": "bootstrap-percentile"}
    return {"aggregate": aggregate, "value": value, "ci": ci, "n": len(scored),
            "n_unscored": len(values) - len(scored), "unscored_reasons": counts, "std": None}


def make_results() -> dict[str, Any]:
    """40 samples, Russian text, unscored scores, pass/fail/unscored/skipped gates, a tiny slice, claims."""
    rng = random.Random(7)
    tag_of = [t for t, n in TAGS.items() for _ in range(n)]
    samples = []
    for i in range(40):
        tag = tag_of[i]
        scores: dict[str, float | None] = {
            "ndcg@10": round(rng.betavariate(4, 2), 3),
            "hit_rate@10": float(rng.random() < 0.8),
            "recall@10": round(rng.random(), 3),
            "faithfulness": round(rng.betavariate(5, 1.5), 3),
            "answer_relevance": None,
        }
        unscored = {"answer_relevance": "judge failure: timeout"}
        if i in (3, 17):
            scores["recall@10"] = None
            unscored["recall@10"] = "no relevant_ids"
        latency = round(rng.lognormvariate(7.2, 0.45))
        for name in TIMING[:3]:
            scores[name] = float(latency)
        scores["ttft_p95"] = float(latency // 4) if i != 5 else None
        if i == 5:
            unscored["ttft_p95"] = "ttft_ms not measured"
        question = f"Какой срок хранения документов по приказу № {i + 100}?"
        if i == 0:
            question = f"{EVIL} Как оформить отпуск? " + "Очень длинный вопрос. " * 10
        artifacts: dict[str, Any] = {}
        if i in (0, 1):
            claims = [("Срок хранения — 5 лет.", "supported", "контекст 2"),
                      ("Приказ подписан в 2019 году.", "unsupported", "нет в контексте"),
                      ("Хранить не нужно.", "contradicted", "контекст 1 говорит иное")]
            artifacts["faithfulness"] = {
                "claims": [{"text": t, "verdict": v, "reason": r} for t, v, r in claims],
                "prompt_id": "faithfulness/v1",
            }
        samples.append({
            "id": f"q{i:02d}", "tags": [tag], "question": question,
            "answer": f"Ответ {i}: документы хранятся {i % 7 + 1} лет.",
            "reference": "Пять лет со дня подписания." if i % 2 == 0 else None,
            "scores": scores, "unscored": unscored, "artifacts": artifacts,
        })
    names = MEAN_METRICS + TIMING

    def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
        return {m: _summary([s["scores"][m] for s in rows], [s["unscored"].get(m) for s in rows],
                            "mean" if m in MEAN_METRICS else m.rsplit("_", 1)[1]) for m in names}

    summary = summarise(samples)
    specs = [{"name": m, "family": "ranking", "params": {}, "higher_is_better": True, "range": [0.0, 1.0],
              "requires": [], "aggregate": "mean", "unit": None, "judge": None, "description": f"The {m} metric."}
             for m in MEAN_METRICS]
    specs += [{"name": m, "family": "operational", "params": {}, "higher_is_better": False, "range": [0.0, None],
               "requires": [], "aggregate": m.rsplit("_", 1)[1], "unit": "ms", "judge": None,
               "description": f"P of {m}"} for m in TIMING]

    def gate(metric: str, op: str, threshold: float, mode: str = "point") -> dict[str, Any]:
        e = summary[metric]
        ci = e["ci"] or {}
        if e["value"] is None:
            status = "unscored"
        else:
            status = "pass" if (e["value"] >= threshold if op == ">=" else e["value"] <= threshold) else "fail"
        return {"metric": metric, "op": op, "threshold": threshold, "value": e["value"], "ci_low": ci.get("low"),
                "ci_high": ci.get("high"), "mode": mode, "status": status,
                "reason": f"{metric} gate: status {status} (profile dashboard)"}

    gates = [gate("hit_rate@10", ">=", 0.95), gate("ndcg@10", ">=", 0.5), gate("faithfulness", ">=", 0.7),
             gate("answer_relevance", ">=", 0.8), gate("latency_p95", "<=", 3000.0),
             {"metric": "context_precision", "op": ">=", "threshold": 0.7, "value": None, "ci_low": None,
              "ci_high": None, "mode": "point", "status": "skipped",
              "reason": "context_precision was not evaluated in this run (add it with --metrics)"}]
    slices = {tag: {"n_samples": n, "summary": summarise([s for s in samples if s["tags"] == [tag]])}
              for tag, n in TAGS.items()}
    return {
        "schema": "ragauge.results/1", "ragauge_version": "0.1.0", "created_at": "2026-11-30T18:00:00+00:00",
        "source": {"path": "data/support-бот.jsonl", "n_samples": 40}, "seed": 0,
        "ci": {"level": 0.95, "method": "bootstrap-percentile", "n_resamples": 2000},
        "profile": {"name": "dashboard", "description": "Quality bar for the internal support assistant."},
        "metrics": specs, "summary": summary, "gates": gates,
        "passed": all(g["status"] in ("pass", "skipped") for g in gates),
        "slices": slices, "samples": samples,
    }


VOID = {"meta", "br", "input", "img", "hr", "link", "col", "wbr", "source", "area", "base", "embed", "track"}


class _Checker(HTMLParser):
    """Balanced-tag checker: every non-void start tag is closed in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.counts: dict[str, int] = {}
        self.attrs: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.counts[tag] = self.counts.get(tag, 0) + 1
        self.attrs.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.counts[tag] = self.counts.get(tag, 0) + 1
        self.attrs.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'} ({self.getpos()})")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(page: str) -> _Checker:
    checker = _Checker()
    checker.feed(page)
    checker.close()
    return checker


def _charts(checker: _Checker, kind: str) -> int:
    return sum(1 for tag, a in checker.attrs if tag == "svg" and a.get("data-chart") == kind)


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    return make_results()


@pytest.fixture(scope="module")
def page(results: dict[str, Any]) -> str:
    return render_html(results)


def test_well_formed_and_ordered(page: str) -> None:
    checker = _parse(page)
    assert checker.errors == []
    assert checker.stack == []
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in page
    order = [page.index(f'<section id="{s}">') for s in
             ("gates", "summary", "distributions", "slices", "latency", "samples")]
    assert order == sorted(order)
    assert page.index('class="masthead"') < order[0] < order[-1] < page.index("<footer>")


def test_verdict_and_gates(page: str, results: dict[str, Any]) -> None:
    assert results["passed"] is False
    assert 'class="verdict verdict-fail"' in page
    # hit_rate fails, answer_relevance is unscored; the skipped gate is not counted
    assert "2 of 5 gates did not pass (1 failed, 1 unscored)" in page
    assert "1 skipped" in page
    gates_html = page[page.index('<section id="gates">'):page.index('<section id="summary">')]
    for g in results["gates"]:
        assert f'<td class="metric">{g["metric"]}</td>' in gates_html
        assert f'badge-{g["status"]}' in gates_html
    assert "≤ 3,000 ms" in gates_html and "≥ 0.950" in gates_html


def test_unscored_is_visible(page: str) -> None:
    assert "2 unscored: no relevant_ids" in page
    assert "40 unscored: judge failure: timeout" in page
    assert re.search(r'title="no relevant_ids">(<span class="cell">)?—', page)  # per-sample cell with its reason
    assert "Every sample is unscored" in page  # answer_relevance has no histogram but says why


def test_escaping_and_cyrillic(page: str) -> None:
    assert EVIL not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert page.count("<script>") == 1  # only the report's own sorting script
    assert "Какой срок хранения документов" in page
    assert "data/support-бот.jsonl" in page
    assert "пример" in page


def test_offline(page: str) -> None:
    urls = re.findall(r"https?://[^\s\"'<>]+", page)
    assert urls and set(urls) == {svg.SVG_NS}
    assert "default-src 'none'" in page
    assert not re.search(r"""(src|href)=["'](?!#)""", page)  # only in-page anchors


def test_chart_counts(page: str, results: dict[str, Any]) -> None:
    checker = _parse(page)
    scored_means = [m for m in MEAN_METRICS if results["summary"][m]["n"] > 0]
    assert _charts(checker, "histogram") == len(scored_means) == 4
    # one slice chart per gated metric that has a value (answer_relevance is all unscored: a note instead)
    gated = {g["metric"] for g in results["gates"] if g["value"] is not None}
    assert _charts(checker, "slices") == len(gated) == 4
    assert "No value: every sample is unscored" in page
    assert _charts(checker, "latency") == 2  # latency (p50/p95/p99) and ttft (p95)
    assert checker.counts["svg"] == 10
    # every chart is accessible: a role and a <title> as its first child
    assert page.count('role="img"') == 10
    assert len(re.findall(r"<svg [^>]*>\n<title>[^<]+</title>", page)) == 10


def test_slices_tiny_marked(page: str) -> None:
    slices_html = page[page.index('<section id="slices">'):page.index('<section id="latency">')]
    assert "too small" in slices_html
    assert "url(#hatch-slice0)" in slices_html
    assert "edge" in slices_html and "n=3" in slices_html


def test_samples_table(page: str, results: dict[str, Any]) -> None:
    table = page[page.index('<section id="samples">'):page.index("<footer>")]
    assert table.count("<details>") == 40
    ids = re.findall(r'<td class="id" data-v="(q\d\d)">', table)
    assert len(ids) == 40
    # worst first by the first gated metric (hit_rate@10)
    hr = {s["id"]: s["scores"]["hit_rate@10"] for s in results["samples"]}
    assert [hr[i] for i in ids] == sorted(hr[i] for i in ids)
    assert 'aria-sort="ascending"' in table
    # claims rendered as a list with highlight classes, not only as JSON
    assert 'class="claim claim-warn"' in table and 'class="claim claim-bad"' in table
    assert "Приказ подписан в 2019 году." in table
    assert "3 claims: 1 supported, 1 unsupported, 1 contradicted" in table
    assert "faithfulness/v1" in table  # the rest of the artifact as JSON
    # timings merged into one column per timing field
    assert ">latency</button>" in table and ">latency_p95</button>" not in table


def test_footer(page: str) -> None:
    footer = page[page.index("<footer>"):]
    assert "ragauge.results/1" in footer and "bootstrap-percentile" in footer
    assert "Seed <code>0</code>" in footer and "Generated offline by ragauge" in footer


@pytest.mark.parametrize("drop", ["slices", "gates", "samples", "metrics", "profile", "ci", "passed",
                                  "created_at", "source", "seed"])
def test_missing_optional_parts(results: dict[str, Any], drop: str) -> None:
    doc = copy.deepcopy(results)
    del doc[drop]
    page = render_html(doc)
    assert _parse(page).errors == []


def test_minimal_document() -> None:
    doc = {"schema": "ragauge.results/1", "summary": {"ndcg@10": {"aggregate": "mean", "value": None, "ci": None,
                                                                  "n": 0, "n_unscored": 2,
                                                                  "unscored_reasons": {"no relevant_ids": 2}}}}
    page = render_html(doc)
    assert _parse(page).errors == []
    assert "no gates checked" in page and "verdict-pass" in page
    assert "2 unscored: no relevant_ids" in page
    assert "No samples in this document." in page
    assert "<td class=\"num\">—</td>" in page


def test_null_value_and_ci(results: dict[str, Any]) -> None:
    doc = copy.deepcopy(results)
    doc["summary"]["ndcg@10"]["ci"] = None
    doc["gates"][1]["ci_low"] = doc["gates"][1]["ci_high"] = None
    page = render_html(doc)
    assert "n too small" in page


@pytest.mark.parametrize("schema", [None, "other/1", "ragauge.results/2"])
def test_refuses_unknown_schema(results: dict[str, Any], schema: str | None) -> None:
    doc = dict(results, schema=schema)
    with pytest.raises(InputError, match="schema"):
        render_html(doc)


def test_bin_counts_hand_computed() -> None:
    assert svg.bin_counts([0.0, 0.5, 1.0], bins=2) == [1, 2]
    assert svg.bin_counts([0.0, 0.05, 0.1, 0.99, 1.0]) == [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    assert svg.bin_counts([-1.0, 2.0], bins=4) == [1, 0, 0, 1]  # out of range: edge bins
    with pytest.raises(ValueError):
        svg.bin_counts([0.5], lo=1.0, hi=1.0)


def test_svg_helpers_escape_labels() -> None:
    bar = svg.slice_bars([svg.Bar("<b>", 0.5, 0.4, 0.6, 3, "small")], title="t<", chart_id="x")
    assert "<b>" not in bar and "&lt;b&gt;" in bar and "too small" in bar
    chart = svg.percentile_chart([("P95", 2400.0, "pass")], title="latency",
                                 thresholds=[svg.Threshold("<=", 3000.0, "P95")])
    assert "P95 ≤ 3,000 ms" in chart and "2,400 ms" in chart
    assert _parse(bar).errors == [] and _parse(chart).errors == []


def test_unsupported_spans_are_highlighted_in_the_answer():
    answer = "Аванс составляет 20%. Гарантия 3 года."
    doc = {
        "schema": "ragauge.results/1",
        "summary": {},
        "samples": [{
            "id": "q1", "question": "Аванс?", "answer": answer, "scores": {}, "unscored": {},
            "artifacts": {"faithfulness": {"claims": [
                {"text": "Аванс составляет 20%.", "start": 0, "end": 21, "verdict": "contradicted",
                 "reason": 'number "20%" not in context; context says "30%"'},
                {"text": "Гарантия 3 года.", "start": 22, "end": 38, "verdict": "supported", "reason": ""},
            ]}},
        }],
    }
    page = render_html(doc)
    assert '<mark class="span-bad" title="contradicted: number &quot;20%&quot; not in context' in page
    assert ">Аванс составляет 20%.</mark>" in page
    assert '<mark class="span-ok"' in page and ">Гарантия 3 года.</mark>" in page


def test_judge_section_shows_the_measured_accuracy():
    doc = {
        "schema": "ragauge.results/1",
        "summary": {"faithfulness": {"aggregate": "mean", "value": 0.8, "ci": None, "n": 3, "n_unscored": 0,
                                     "unscored_reasons": {}, "judge": {
                                         "judge": "offline", "model": "ragauge-verifier", "version": "v2",
                                         "measured_accuracy": {"measure": "ROC-AUC", "by_task": {"RAG QA": 0.77},
                                                               "advice": "Use an LLM judge for summaries.",
                                                               "how": "benchmarks/judge_accuracy.py"}}}},
    }
    page = render_html(doc)
    assert 'id="judge"' in page and "RAG QA" in page and "0.770" in page and "Use an LLM judge for summaries." in page
