"""Diagnosis rules on constructed results documents, and on the bundled demo."""

import pytest

from ragauge.diagnosis import diagnose


def _entry(value, low, high, n=50):
    return {"aggregate": "mean", "value": value, "ci": {"low": low, "high": high, "level": 0.95, "method": "x"},
            "n": n, "n_unscored": 0, "unscored_reasons": {}}


def doc(summary, *, gates=None, samples=None, metrics=None, lang="en"):
    """A minimal results document: summaries, point gates at the dashboard's bars."""
    bars = {"hit_rate@5": (">=", 0.85), "faithfulness": (">=", 0.85), "context_recall": (">=", 0.8),
            "context_precision": (">=", 0.7), "context_recall_ids": (">=", 0.8),
            "latency_p95": ("<", 3000.0), "retrieval_p95": ("<", 200.0), "ttft_p95": ("<", 500.0)}
    if gates is None:
        gates = [{"metric": m, "op": bars[m][0], "threshold": bars[m][1], "status": "pass", "mode": "point"}
                 for m in summary if m in bars]
    specs = [{"name": m, "unit": "ms" if m.endswith("_p95") else None} for m in summary] + (metrics or [])
    return {"schema": "ragauge.results/1", "profile": {"name": "dashboard"}, "summary": summary, "gates": gates,
            "metrics": specs, "samples": samples or [{"id": "q1", "question": "q", "language": lang}]}


def codes(d, **kw):
    return [x.code for x in diagnose(d, **kw)]


def test_low_faithfulness_high_recall_is_generation():
    d = doc({"faithfulness": _entry(0.62, 0.55, 0.69), "context_recall": _entry(0.9, 0.85, 0.95)})
    [g] = diagnose(d)
    assert g.code == "generation_grounding" and g.severity == "high"
    assert "confidently" in g.text and "temperature" in g.text and "grounding instruction" in g.text
    assert "faithfulness = 0.620 (95% CI 0.550–0.690)" in g.text
    assert g.evidence["faithfulness"]["ci_high"] == 0.69 and g.evidence["context_recall"]["value"] == 0.9
    # the CI reaches the bar: not "confidently"
    d = doc({"faithfulness": _entry(0.8, 0.7, 0.9), "context_recall": _entry(0.9, 0.85, 0.95)})
    [g] = diagnose(d)
    assert "confidently" not in g.text and "more questions are needed" in g.text


def test_high_faithfulness_low_recall_is_retrieval():
    d = doc({"faithfulness": _entry(0.93, 0.9, 0.96), "context_recall_ids": _entry(0.55, 0.45, 0.65)})
    [g] = diagnose(d)
    assert g.code == "retrieval_recall"
    for word in ("larger k", "embedding", "chunk size and overlap", "hybrid search"):
        assert word in g.text
    assert "context_recall_ids" in g.evidence


def test_both_low_and_none_low():
    d = doc({"faithfulness": _entry(0.6, 0.5, 0.7), "context_recall": _entry(0.5, 0.4, 0.6)})
    assert codes(d) == ["retrieval_and_generation"]
    assert codes(doc({"faithfulness": _entry(0.9, 0.88, 0.93), "context_recall": _entry(0.9, 0.85, 0.95)})) == []


def test_low_context_precision():
    [g] = diagnose(doc({"context_precision": _entry(0.4, 0.3, 0.5)}))
    assert g.code == "context_precision" and "reranker" in g.text and "similarity threshold" in g.text


def test_low_hit_rate_comes_first():
    d = doc({"hit_rate@5": _entry(0.6, 0.5, 0.7), "context_precision": _entry(0.4, 0.3, 0.5),
             "faithfulness": _entry(0.6, 0.5, 0.7), "context_recall": _entry(0.9, 0.85, 0.95)})
    found = diagnose(d)
    assert found[0].code == "retrieval_first" and found[0].severity == "critical"
    assert "Fix retrieval first" == found[0].title and "40%" in found[0].text and "top 5" in found[0].text
    assert [x.code for x in found[1:]] == ["generation_grounding", "context_precision"]


def test_unanswerable_answered_confidently():
    samples = [
        {"id": "u1", "tags": ["unanswerable"], "answer": "It costs 5 rubles.", "scores": {"faithfulness": 0.0},
         "unscored": {}, "artifacts": {}},
        {"id": "u2", "tags": [], "answer": "No documents.", "scores": {"faithfulness": None},
         "unscored": {"faithfulness": "refusal: the answer declines to answer", "mrr@5": "no relevant document (grade >= 1)"},
         "artifacts": {}},
        {"id": "u3", "tags": [], "answer": "Yes.", "scores": {"answer_correctness": 0.0}, "unscored": {},
         "artifacts": {"answer_correctness": {"refusal": False, "reference_refusal": True}}},
        {"id": "a1", "tags": [], "answer": "Yes.", "scores": {"faithfulness": 1.0}, "unscored": {}, "artifacts": {}},
    ]
    [g] = diagnose(doc({}, samples=samples))
    assert g.code == "unanswerable_answered"
    ev = g.evidence["unanswerable"]
    assert (ev["n"], ev["answered"], ev["answered_ids"]) == (3, 2, ["u1", "u3"])
    assert ev["ci_method"] == "wilson" and 0 < ev["ci_low"] < 2 / 3 < ev["ci_high"] < 1
    assert "no matching documents" in g.text and "u1, u3" in g.text
    # without any judge metric nobody looked at the answers: no claim either way
    blind = [dict(s, scores={}, unscored={}, artifacts={}) for s in samples]
    assert codes(doc({}, samples=blind)) == []


def test_latency_names_the_stage():
    slow_retrieval = doc({"latency_p95": _entry(3500, 3200, 3900), "retrieval_p95": _entry(900, 800, 1000),
                          "ttft_p95": _entry(400, 350, 450)})
    [g] = diagnose(slow_retrieval)
    assert g.code == "latency_budget" and g.title == "Latency over budget: retrieval"
    assert g.evidence["stages"] == ["retrieval"] and "HNSW" in g.text
    slow_gen = doc({"latency_p95": _entry(3500, 2900, 3900), "retrieval_p95": _entry(100, 80, 120),
                    "ttft_p95": _entry(1500, 1200, 1800)})
    [g] = diagnose(slow_gen)
    assert g.evidence["stages"] == ["generation"] and "shorter prompt" in g.text
    tail = doc({"latency_p95": _entry(3500, 3200, 3900), "retrieval_p95": _entry(100, 80, 120),
                "ttft_p95": _entry(400, 350, 450)})
    assert diagnose(tail)[0].evidence["stages"] == ["tail"]
    assert "max_tokens" in diagnose(tail)[0].text


def test_language_by_data_and_flag():
    d = doc({"context_precision": _entry(0.4, 0.3, 0.5)}, lang="ru")
    [g] = diagnose(d)
    assert g.title == "Слишком много шума в контексте" and "0,400" in g.text and "реранкер" in g.text
    assert diagnose(d, lang="en")[0].title == "Too much noise in the context"
    cyr = doc({"context_precision": _entry(0.4, 0.3, 0.5)}, samples=[{"id": "1", "question": "Сколько стоит?"}])
    assert diagnose(cyr)[0].title.startswith("Слишком")
    with pytest.raises(ValueError):
        diagnose(d, lang="de")


def test_bar_from_the_dashboard_when_not_gated():
    d = doc({"faithfulness": _entry(0.62, 0.55, 0.69), "context_recall": _entry(0.9, 0.85, 0.95)}, gates=[])
    d["profile"] = None
    [g] = diagnose(d)
    assert g.evidence["faithfulness"]["threshold_from"] == "the dashboard profile (default)"


def test_demo_says_retrieval_first(tmp_path):
    import ragauge
    from ragauge.demo import samples_path

    res = ragauge.evaluate(str(samples_path()), metrics=["hit_rate@5", "mrr@5", "context_precision_ids",
                                                        "latency_p95", "retrieval_p95", "ttft_p95"])
    doc_ = res.to_dict()
    first = doc_["diagnosis"][0]
    assert first["code"] == "retrieval_first" and first["title"] == "Сначала почините поиск"
    assert "hit_rate@5" in first["evidence"]
    assert "latency_budget" in [d["code"] for d in doc_["diagnosis"]]
    from ragauge.report.html import render_html
    from ragauge.report.markdown import render_markdown
    from ragauge.report.table import render_table

    html = render_html(doc_)
    assert html.index('id="diagnosis"') < html.index('id="gates"') and "Что исправить" in html
    assert "### Что исправить" in render_markdown(doc_)
    assert "Что исправить:" in render_table(doc_) and "[критично] Сначала почините поиск" in render_table(doc_)


@pytest.mark.parametrize("n_unanswerable, lang, expected", [
    (1, "en", "1 of 1 question that the documents cannot answer"),
    (3, "en", "1 of 3 questions that the documents cannot answer"),
    (1, "ru", "На 1 из 1 вопроса, ответа на которые"),
    (3, "ru", "На 1 из 3 вопросов, ответа на которые"),
    (21, "ru", "На 1 из 21 вопроса, ответа на которые"),
])
def test_unanswerable_count_agrees_with_its_noun(n_unanswerable, lang, expected):
    """Issue 14: "1 of 1 questions" / "из 21 вопросов" -- the noun agrees with the number."""
    samples = [{"id": f"u{i}", "tags": ["unanswerable"], "answer": "It costs 5 rubles." if i == 0 else "No documents.",
                "scores": {"faithfulness": 0.0} if i == 0 else {"faithfulness": None},
                "unscored": {} if i == 0 else {"faithfulness": "refusal: the answer declines to answer"},
                "artifacts": {}} for i in range(n_unanswerable)]
    [g] = diagnose(doc({}, samples=samples, lang=lang), lang=lang)
    assert g.code == "unanswerable_answered" and expected in g.text
