"""A gate's reason in the report's language (issue 14): a Russian report shows no English gate sentence.

Real runs of ``ragauge.evaluate`` (retrieval metrics, no judge) produce every kind of gate the checker
writes; the report rebuilds each reason from the gate's numbers. In English the rebuilt sentence is the
stored one word for word, so the Russian one says the same facts.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import ragauge
from ragauge.report.gate_text import gate_reason
from ragauge.report.html import render_html
from ragauge.report.markdown import render_markdown
from ragauge.report.table import render_table

N = 40


def _rows(n: int = N, *, lost: bool = False, no_relevant: bool = False) -> list[dict[str, Any]]:
    """``n`` questions; the relevant document sits at rank 1, 4 or 5 (``lost``: the retriever no longer
    finds it for two questions in three, a real drop)."""
    rows = []
    for i in range(n):
        ranked = ["d1", "d2", "d3", "d4", "d5"]
        ranked = ranked[i % 3:] + ranked[:i % 3]  # the relevant d1 at rank 1, 5 or 4
        if lost and i % 3 != 1:
            ranked = [d if d != "d1" else "d9" for d in ranked]
        row = {"id": f"q{i}", "question": f"Какой срок хранения документа {i}?", "answer": "Пять лет.",
               "retrieved_ids": ranked, "relevant_ids": {} if no_relevant else {"d1": 1}}
        rows.append(row)
    return rows


PROFILES = {
    "modes": {"description": "every mode", "k": 5, "thresholds": {
        "hit_rate@K": {"op": ">=", "value": 0.5, "mode": "confident"},   # passes, whole CI above
        "mrr@K": {"op": ">=", "value": 0.45, "mode": "confident"},      # value above, lower bound not
        "ndcg@K": {"op": ">=", "value": 0.99, "mode": "confident"},     # misses
        "map@K": ">= 0.95",                                             # point, misses
        "precision@K": "<= 0.5",                                        # point, passes
        "faithfulness": ">= 0.8",                                       # not evaluated
        "recall@K": {"op": ">=", "value": 0.5, "mode": "non_inferior"},  # needs a baseline
    }},
    "vs_base": {"description": "against a baseline", "k": 5, "thresholds": {
        "mrr@K": {"op": ">=", "value": 0.7, "mode": "non_inferior"},
        "hit_rate@K": {"op": ">=", "value": 0.5, "mode": "non_inferior_strict"},
    }},
    "tiny": {"description": "small samples fail", "k": 5, "min_samples": 30, "small_sample": "fail",
             "thresholds": {"hit_rate@K": ">= 0.5"}},
    "judged": {"description": "nothing this run evaluates", "k": 5, "thresholds": {
        "faithfulness": ">= 0.8", "answer_relevancy": ">= 0.8"}},
}


def _run(rows: list[dict[str, Any]], profile: str | None, lang: str = "ru", **kw: Any) -> dict[str, Any]:
    res = ragauge.evaluate(rows, profile=profile, user_profiles=PROFILES, judge=None, lang=lang, n_resamples=500,
                           **kw)
    return res.to_dict()


@pytest.fixture(scope="module")
def docs() -> dict[str, dict[str, Any]]:
    base = _run(_rows(), "modes", metrics=["hit_rate@5", "mrr@5", "ndcg@5", "map@5", "precision@5", "recall@5"])
    out = {"modes": base}
    out["same"] = _run(_rows(), "vs_base", baseline=base)
    out["drop"] = _run(_rows(lost=True), "vs_base", baseline=base)
    out["tiny"] = _run(_rows(8), "tiny")
    out["unscored"] = _run(_rows(no_relevant=True), "tiny")
    out["unchecked"] = _run(_rows(), "judged", metrics=["hit_rate@5"])
    out["nothing"] = _run(_rows(no_relevant=True), None, metrics=["hit_rate@5", "mrr@5"])
    return out


def _gates(docs: dict[str, dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(g, d) for d in docs.values() for g in d["gates"]]


def test_every_kind_of_gate_is_produced(docs):
    kinds = {(g["mode"], g["status"]) for g, _ in _gates(docs)}
    assert {("confident", "pass"), ("confident", "fail"), ("point", "fail"), ("point", "pass"),
            ("point", "skipped"), ("non_inferior", "skipped"), ("non_inferior", "pass"), ("non_inferior", "fail"),
            ("non_inferior_strict", "fail"), ("point", "unscored")} <= kinds
    names = {g["metric"] for g, _ in _gates(docs)}
    assert {"gates checked", "scored metrics"} <= names


def test_english_rebuilt_from_the_numbers_is_the_stored_sentence(docs):
    for g, d in _gates(docs):
        assert gate_reason(g, d, "en", stored=False) == g["reason"], g["metric"]


def test_russian_reason_of_each_kind(docs):
    ru = {f"{g['metric']}/{key}": gate_reason(g, d, "ru") for key, d in docs.items() for g in d["gates"]}
    assert re.fullmatch(r"map@5 = 0,\d{3} — планка не пройдена: нужно не меньше 0,95 \(профиль modes, точечная "
                        r"оценка\)", ru["map@5/modes"])
    assert "нижняя граница ДИ" in ru["mrr@5/modes"] and "95% ДИ [" in ru["mrr@5/modes"]
    assert "весь интервал не меньше 0,5" in ru["hit_rate@5/modes"]
    assert ru["faithfulness/modes"] == "faithfulness: в этом запуске не оценивалась (добавьте через --metrics)"
    assert ru["recall@5/modes"].startswith("порог recall@5 в режиме non_inferior требует базового запуска")
    assert "регрессии сверх допуска 0,02 не показано" in ru["mrr@5/same"]
    assert "строгий режим должен доказать допуск: даже одинаковые запуски проходят его лишь от n = 149" \
        in ru["hit_rate@5/same"]
    assert "всего 8 оценённых образцов (меньше 30)" in ru["hit_rate@5/tiny"]
    assert "не пройден, потому что в профиле small_sample" in ru["hit_rate@5/tiny"]
    assert ru["gates checked/unchecked"].startswith("ни один порог профиля judged не удалось проверить: его метрики "
                                                 "(faithfulness, answer_relevancy)")
    nothing = ru["scored metrics/nothing"]
    assert nothing.startswith("ничего не измерено") and "(без профиля)" in nothing
    assert "тест на регрессию, разброса нет: ни одна пара не хуже больше чем на допуск" in ru["mrr@5/same"]
    assert "тест на регрессию, односторонний парный t-тест" in ru["mrr@5/drop"]
    drop = next(g for g in docs["drop"]["gates"] if g["metric"] == "mrr@5")
    assert drop["status"] == "fail" and ru["mrr@5/drop"].count("регрессия: значимо хуже") == 1


# words of the checker's English sentences that a Russian report must not contain
ENGLISH = re.compile(r"misses the bar|meets the bar|point estimate|not evaluated in this run|needs a baseline|"
                     r"WARNING|too few to be reliable|no regression|regression:|within the margin|for reference|"
                     r"could be checked|nothing was measured|samples unscored|has no value|the whole interval|"
                     r"CI bound|profile \w+,|one-sided|t-test|bootstrap|relabellings")


@pytest.mark.parametrize("which", ["modes", "drop", "tiny", "unscored", "unchecked", "nothing"])
def test_russian_report_has_no_english_gate_sentence(docs, which):
    d = docs[which]
    assert d["lang"] == "ru"
    failing = [g for g in d["gates"] if g["status"] in ("fail", "unscored")]
    assert failing
    for text in (render_markdown(d), render_table(d), render_html(d)):
        assert not ENGLISH.search(text), ENGLISH.search(text)
        for g in failing:
            assert g["reason"] not in text
    html = render_html(d)
    for g in d["gates"]:  # the reason column has every gate's Russian sentence
        assert _html_text(gate_reason(g, d, "ru")) in html


def test_english_report_keeps_the_english_reason(docs):
    rows = _rows(no_relevant=True)
    d = _run(rows, "tiny", lang="en")
    g = d["gates"][0]
    assert g["status"] == "unscored" and g["reason"].startswith("hit_rate@5 has no value")
    md, table, html = render_markdown(d), render_table(d), render_html(d)
    assert "hit\\_rate@5 has no value" in md or "hit_rate@5 has no value" in md
    assert g["reason"] in table.replace("\n    ", " ") and _html_text(g["reason"]) in html
    assert "не оценён ни один" not in md + table + html


def _html_text(s: str) -> str:
    from html import escape

    return escape(s, quote=True)


def test_a_record_without_its_numbers_gets_a_plain_line_not_a_wrong_one():
    d = {"lang": "ru", "gates": [], "summary": {}}
    g = {"metric": "mrr@5", "op": ">=", "threshold": 0.7, "value": 0.5, "mode": "confident", "status": "fail",
         "reason": "mrr@5 = 0.500 misses the bar"}
    g_no_value = dict(g, value=None)
    assert gate_reason(g_no_value, d) == ("mrr@5: не пройден (значение —; граница >= 0,7, режим confident)")
    assert gate_reason(g, d, "en") == "mrr@5 = 0.500 misses the bar"


def test_comparison_verdicts_in_the_reports_language(docs):
    d = docs["drop"]
    verdicts = {m: e["verdict"] for m, e in d["comparison"]["metrics"].items()}
    assert "worse" in verdicts.values()
    md, table, html = render_markdown(d), render_table(d), render_html(d)
    assert "хуже" in md and "хуже" in table and '<div class="sub">хуже</div>' in html
    shown = re.sub(r"<style>.*?</style>|class=\"[^\"]*\"", "", html, flags=re.S)  # CSS class names are not text
    for text in (md, table, shown):
        assert not re.search(r"\bworse\b|\bbetter\b|no detectable difference|\bn\.s\.|too few pairs", text)
    en = _run(_rows(lost=True), "vs_base", lang="en", baseline=docs["modes"])
    assert '<div class="sub">worse</div>' in render_html(en) and " worse" in render_markdown(en)
