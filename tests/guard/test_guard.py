"""The guard's stages with plain callables over the in-memory knowledge base (offline judge)."""

from __future__ import annotations

import asyncio

import pytest

from ragauge.errors import ConfigError
from ragauge.guard import NO_ANSWER, Guard, GuardResult, SynonymDictionary

from .conftest import DOCS, KB

ROOF_Q = "Какая гарантия на кровельные работы?"


def echo(kb: KB, index: int = 0):
    def generate(question, contexts):
        kb.generated += 1
        return contexts[index]
    return generate


def invent(kb: KB):
    def generate(question, contexts):
        kb.generated += 1
        return "Гарантия на кровельные работы составляет 7 лет. Компания СтройДом предоставляет гарантию."
    return generate


def test_answer_passes_every_stage(kb):
    result = Guard(kb.retrieve, echo(kb), score_threshold=0.5, post_check="flag").run(ROOF_Q)
    assert result.kind == "answer"
    assert result.text == DOCS[0]["text"]
    assert [s.name for s in result.stages] == ["rewrite", "synonyms", "retrieve", "score_threshold", "grade",
                                               "generate", "post_check"]
    assert result.stage("grade").decision == "pass"
    assert result.stage("post_check").decision == "pass"
    assert result.citations[0]["id"] == "roof"
    assert result.citations[0]["metadata"]["title"] == "Гарантия на кровлю"
    d = result.to_dict()
    assert d["kind"] == "answer" and d["stages"][4]["name"] == "grade"


def test_low_scores_give_no_answer_without_generation(kb):
    kb.score_scale = 0.3  # every chunk below 0.7
    result = Guard(kb.retrieve, echo(kb)).run(ROOF_Q)
    assert result.kind == "no_answer"
    assert result.text == NO_ANSWER["ru"]
    assert result.text.startswith("В базе нет подходящих документов")
    assert kb.generated == 0
    assert result.stage("score_threshold").decision == "no_answer"
    assert result.stage("generate") is None


def test_no_answer_template_in_english(kb):
    kb.score_scale = 0.0
    result = Guard(kb.retrieve, echo(kb)).run("What is the warranty on roofing?")
    assert result.text.startswith("No suitable documents were found")
    assert kb.generated == 0


def test_irrelevant_context_gives_clarifying_question(kb):
    guard = Guard(kb.retrieve, echo(kb), score_threshold=None)
    result = guard.run("Сколько стоит аренда яхты в Монако?")
    assert result.kind == "clarifying_question"
    assert kb.generated == 0
    grade = result.stage("grade")
    assert grade.decision == "clarify"
    assert grade.scores["relevancy"] < 0.7
    assert "яхты" in grade.scores["missing"]
    assert result.text.startswith("Уточните")
    assert "яхты" in result.text


def test_filters_reach_the_retriever(kb):
    result = Guard(kb.retrieve, echo(kb), score_threshold=0.5).run(ROOF_Q, filters={"city": "Казань"}, k=2)
    assert kb.calls == [{"query": ROOF_Q, "filters": {"city": "Казань"}, "k": 2}]
    assert all(c.metadata["city"] == "Казань" for c in result.contexts)
    assert result.stage("retrieve").scores["filters"] == {"city": "Казань"}


def test_retriever_without_filters_parameter_refuses_filters(kb):
    def retrieve(query, k):
        return kb.retrieve(query, None, k)

    guard = Guard(retrieve, echo(kb), score_threshold=0.5)
    assert guard.run(ROOF_Q).kind == "answer"  # no filters: fine
    with pytest.raises(ConfigError, match="no filters parameter"):
        guard.run(ROOF_Q, filters={"city": "Казань"})
    assert kb.generated == 1


def test_synonyms_match_russian_word_forms(kb):
    synonyms = {"штукатурка": ["штукатурные работы", "оштукатуривание"]}
    guard = Guard(kb.retrieve, echo(kb), synonyms=synonyms, score_threshold=None, grade=False)
    result = guard.run("Сколько стоит положить штукатурку?")
    stage = result.stage("synonyms")
    assert stage.decision == "pass"
    assert stage.scores["matched"] == {"штукатурка": ["штукатурные работы", "оштукатуривание"]}
    assert "оштукатуривание" in kb.calls[0]["query"]
    assert result.contexts[0].id == "plaster"


def test_synonym_dictionary_from_text_file(tmp_path):
    path = tmp_path / "terms.txt"
    path.write_text("# construction\nкровля: крыша, кровельные работы\n", encoding="utf-8")
    d = SynonymDictionary.load(path)
    assert d.expand("Сколько стоит ремонт крыши?")[0].endswith("кровля кровельные работы")
    bad = tmp_path / "bad.txt"
    bad.write_text("кровля крыша\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="line 1"):
        SynonymDictionary.load(bad)


def test_rewrite_keeps_the_original(kb):
    seen = {}

    def generate(question, contexts, rewritten=None):
        seen.update(question=question, rewritten=rewritten)
        return contexts[0]

    guard = Guard(kb.retrieve, generate, rewrite=lambda q: "гарантия кровля", score_threshold=0.3)
    result = guard.run(ROOF_Q)
    assert [c["query"] for c in kb.calls] == ["гарантия кровля", ROOF_Q]
    assert seen == {"question": ROOF_Q, "rewritten": "гарантия кровля"}
    assert result.question == ROOF_Q and result.rewritten == "гарантия кровля"


@pytest.mark.parametrize("mode", ["flag", "block", "strip"])
def test_post_check_on_an_invented_number(kb, mode):
    result = Guard(kb.retrieve, invent(kb), score_threshold=0.5, post_check=mode).run(ROOF_Q)
    stage = result.stage("post_check")
    assert stage.decision == mode
    assert stage.scores["unsupported"] == 1
    assert "7 лет" in result.unsupported[0]["text"]
    if mode == "flag":
        assert result.kind == "answer"
        assert "Не подтверждается документами:" in result.text and "7 лет" in result.text
    elif mode == "block":
        assert result.kind == "blocked" and "7 лет" not in result.text
        assert result.citations == ()
    else:
        assert result.kind == "answer"
        assert result.text == "Компания СтройДом предоставляет гарантию."
        assert result.citations[0]["id"] == "roof"


def test_async_callables(kb):
    async def retrieve(query, filters, k):
        await asyncio.sleep(0)
        return kb.retrieve(query, filters, k)

    async def generate(question, contexts):
        kb.generated += 1
        return contexts[0]

    guard = Guard(retrieve, generate, score_threshold=0.5)
    assert guard.is_async
    result = asyncio.run(guard.arun(ROOF_Q, filters={"city": "Казань"}))
    assert result.kind == "answer" and kb.generated == 1
    with pytest.raises(ConfigError, match="arun"):
        guard.run(ROOF_Q)


def test_stage_timings_recorded(kb):
    result = Guard(kb.retrieve, echo(kb), score_threshold=0.5, post_check="flag").run(ROOF_Q)
    assert isinstance(result, GuardResult)
    for name in ("retrieve", "grade", "generate", "post_check", "total", "guard_overhead"):
        assert result.timings[name] >= 0.0
    assert result.timings["total"] >= result.timings["grade"]
    assert all(s.duration_ms >= 0.0 for s in result.stages)
    assert result.stage("retrieve").duration_ms > 0.0


def test_items_as_strings_and_objects():
    class Doc:
        def __init__(self, id, text, score):
            self.id, self.text, self.score, self.metadata = id, text, score, {"src": "x"}

    result = Guard(lambda q, f, k: [Doc("a", DOCS[0]["text"], 0.9)], lambda q, c: c[0], grade=False).run(ROOF_Q)
    assert result.contexts[0].id == "a" and result.citations[0]["metadata"] == {"src": "x"}
    result = Guard(lambda q, f, k: [DOCS[0]["text"]], lambda q, c: c[0], grade=False).run(ROOF_Q)
    assert result.kind == "answer" and result.stage("score_threshold").decision == "skipped"


def test_config_errors(kb):
    with pytest.raises(ConfigError, match="post_check"):
        Guard(kb.retrieve, echo(kb), post_check="maybe")
    with pytest.raises(ConfigError, match="unknown grade threshold"):
        Guard(kb.retrieve, echo(kb), grade_thresholds={"faithfulness": 0.8})
