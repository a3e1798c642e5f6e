"""The reference pipeline end to end: extractive answers, the guard around it, samples that evaluate."""

from __future__ import annotations

import json

import pytest

import ragauge
from ragauge.errors import ConfigError
from ragauge.rag import extractive_answer
from ragauge.rag.extractive import extract, split_units


def test_table_rows_are_rendered_with_their_header_and_numbers_stay_whole():
    text = ("Раздел 2. Гипсокартонные работы. Наименование работ | Ед. изм. | Цена, руб.\n"
            "Облицовка стен ГКЛ в один слой по металлическому каркасу | м² | 1 150\n"
            "Монтаж короба из ГКЛ | пог. м | 1 100")
    units = [u.text for u in split_units(text, "price-002")]
    assert units == ["Облицовка стен ГКЛ в один слой по металлическому каркасу — Ед. изм.: м², Цена, руб.: 1 150",
                     "Монтаж короба из ГКЛ — Ед. изм.: пог. м, Цена, руб.: 1 100"]
    answer = extractive_answer("Сколько стоит облицовка стен ГКЛ в один слой?", [{"id": "price-002", "text": text}])
    assert "1 150" in answer and "[price-002]" in answer and "1 100" not in answer


def test_extractive_answer_takes_the_number_from_the_right_chunk(demo_rag):
    question = "Почём кирпич полнотелый М150 за штуку?"
    contexts = demo_rag.retrieve(question, {"version": "2026-03"})
    text, cited = extract(question, contexts, cite=False, embedder=demo_rag.index.embedder)
    assert "52,70" in text and cited == ["price-015"]
    assert "[" not in text  # ids travel beside the text, not in it
    assert not text[0].isdigit()  # no clause number


def test_extractive_answers_an_english_question_from_russian_documents(demo_rag):
    sample = demo_rag.answer("What is the minimum roof slope for metal tiles?")
    assert sample.language == "en" and sample.answer.startswith("Минимальный уклон кровли") and "14°" in sample.answer
    assert sample.metadata["citations"] == ["spec-014"]


def test_answer_is_a_timed_sample_with_scored_contexts(demo_rag):
    s = demo_rag.answer("Какой минимальный уклон крыши под металлочерепицу?", id="x1")
    assert s.id == "x1" and s.language == "ru" and "14°" in s.answer
    assert s.retrieved_ids[0] == "spec-014" and len(s.contexts) == 5
    assert all(c.id and 0 <= c.score <= 1 for c in s.contexts)
    assert 0 < s.retrieval_ms <= s.latency_ms and s.ttft_ms == s.latency_ms
    assert s.metadata["rag"]["generator"] == "extractive"


def test_guard_says_no_answer_for_an_absent_topic_and_answers_a_present_one(demo_rag):
    guard = demo_rag.guarded()
    absent = guard.run("Сколько стоит бурение скважины на воду?")
    assert absent.kind == "no_answer" and absent.stage("generate") is None
    present = guard.run("штукатурка потолок цена??")
    assert present.kind == "answer" and "1,3" in present.text
    assert present.citations and present.citations[0]["id"] == "price-007"


def test_guarded_filters_reach_the_retriever(demo_rag):
    guard = demo_rag.guarded(score_threshold=None, grade=False)
    result = guard.run("машинная штукатурка стен цена", filters={"doc_id": "price-list-2025"})
    assert {c.metadata["doc_id"] for c in result.contexts} == {"price-list-2025"}
    with pytest.raises(ConfigError, match="not a field"):
        guard.run("цена", filters={"city": "Москва"})


def test_run_writes_samples_that_load_and_evaluate(demo_rag, tmp_path):
    from ragauge.rag import run_to_jsonl

    questions = tmp_path / "questions.jsonl"
    rows = [{"id": "a1", "question": "Какой минимальный уклон крыши под металлочерепицу?",
             "relevant_ids": {"spec-014": 2}, "reference": "14°"},
            {"id": "a2", "question": "Сколько стоит бурение скважины на воду?", "relevant_ids": {}},
            {"id": "a3", "question": "Облицовка стен ГКЛ в один слой, цена?", "relevant_ids": {"price2025-002": 2},
             "metadata": {"filters": {"version": "2025-09"}}}]
    questions.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    plain, guarded = tmp_path / "plain.jsonl", tmp_path / "guarded.jsonl"
    run_to_jsonl(demo_rag, questions, plain)
    run_to_jsonl(demo_rag, questions, guarded, guard=demo_rag.guarded())

    loaded = {s.id: s for s in ragauge.load(str(plain))}
    assert loaded["a1"].relevant_ids == {"spec-014": 2} and loaded["a1"].reference == "14°"
    assert loaded["a3"].retrieved_ids[0] == "price2025-002"  # the question's filter reached retrieval
    res = ragauge.evaluate(str(plain), metrics=["hit_rate@5", "latency_p50", "faithfulness"], profile=None,
                           judge="offline", n_resamples=50)
    assert res.summary["hit_rate@5"].value == 1.0
    assert res.summary["faithfulness"].value > 0.5

    g = {s.id: s for s in ragauge.load(str(guarded))}
    assert g["a2"].metadata["guard_kind"] == "no_answer"
    assert g["a2"].answer.startswith("В базе нет подходящих документов")
    assert g["a2"].metadata["guard"]["stage"] == "score_threshold"
    assert g["a1"].metadata["guard_kind"] in ("answer", "no_answer", "clarifying_question")
    assert g["a1"].retrieved_ids[0] == "spec-014"  # the retriever's ranking, even if the guard dropped chunks


def test_folder_source_builds_an_index(tmp_path):
    from ragauge.rag import ReferenceRAG

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "warranty.md").write_text("# Гарантия\n\nГарантия на кровельные работы составляет 5 лет.\n\n"
                                      "# Офис\n\nОфис работает с 9 до 18 по будням.\n", encoding="utf-8")
    (docs / "broken.pdf").write_bytes(b"not a pdf")
    rag = ReferenceRAG.open(docs)
    assert len(rag.index) >= 1 and rag.problems  # the broken file is reported, not silently dropped
    sample = rag.answer("Какая гарантия на кровлю?")
    assert "5 лет" in sample.answer


def test_llm_prompt_renders_and_citations_are_split():
    from ragauge.rag.llm import format_contexts, load_answer_prompt, split_citations

    prompt = load_answer_prompt("ru")
    assert prompt.id == "rag_answer.ru@1" and len(prompt.sha256) == 64
    messages = prompt.render(question="Сколько?", contexts=format_contexts([{"id": "p1", "text": "Цена 5 руб."}]))
    assert "[p1] Цена 5 руб." in messages[1]["content"] and "Сколько?" in messages[1]["content"]
    assert load_answer_prompt("de").lang == "en"
    assert split_citations("Цена 5 руб. [p1, p2]", ["p1", "p2"]) == ("Цена 5 руб.", ["p1", "p2"])


def test_guarded_answers_cite_chunk_ids_not_positions(demo_rag, tmp_path):
    from ragauge.rag import run_samples
    from ragauge.data.schema import Sample

    guard = demo_rag.guarded(score_threshold=None, grade=False)
    [s] = run_samples(demo_rag, [Sample(id="c1", question="Какой минимальный уклон крыши под металлочерепицу?")],
                      guard=guard)
    assert s.metadata["guard_kind"] == "answer" and s.metadata["citations"] == ["spec-014"]
