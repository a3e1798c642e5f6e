"""LLM question generation: plan, strict shapes and rules (pure), and the pipeline against a scripted
OpenAI-compatible server that injects faults (garbage replies, 429, budget limits)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judges" / "llm"))

from llm_fake_server import FakeOpenAI  # noqa: E402

from ragauge.errors import ConfigError, JudgeParseError  # noqa: E402
from ragauge.generate._llm_questions_plan import (Candidate, Group, critique_shape, generation_shape,  # noqa: E402
                                                  plan_groups, rule_problem)
from ragauge.generate.chunking import Chunk  # noqa: E402
from ragauge.generate.llm_questions import generate_with_llm, load_generation_prompt  # noqa: E402
from ragauge.judges.llm import LLMConfig  # noqa: E402
from ragauge.judges.llm import client as client_mod  # noqa: E402


@pytest.fixture(autouse=True)
def _forget_endpoints():
    """Loopback ports are reused between tests: forget what earlier servers accepted."""
    client_mod._ENDPOINTS.clear()
    yield
    client_mod._ENDPOINTS.clear()


def _chunk(cid: str, text: str, doc: str = "doc", ordinal: int = 0, kind: str = "text") -> Chunk:
    return Chunk(id=cid, doc_id=doc, text=text, section=(), start=0, end=len(text), kind=kind, ordinal=ordinal,
                 title=doc.title(), version="01.03.2026")


RU = [
    _chunk("price#a-0", "Работа | Ед. | Цена, руб.\nМонтаж ГКЛ в один слой | м² | 1150", "price", 0, "table"),
    _chunk("contract#b-0", "Срок выполнения отделочных работ по договору составляет 30 календарных дней.", "contract", 0),
    _chunk("contract#c-0", "Аванс составляет 30 % от сметы и вносится до начала работ.", "contract", 1),
]
#: What the scripted "LLM" asks about each chunk (by a word of its text): (question, answer)
FACTS = {
    "ГКЛ": ("Сколько стоит монтаж ГКЛ в один слой?", "1150 руб. за м²"),
    "Срок": ("За сколько дней выполняются отделочные работы по договору?", "30 календарных дней"),
    "Аванс": ("Какой аванс вносится до начала работ?", "30 % от сметы"),
}


def responder(body: dict) -> str:
    """Generation: one question per requested type from the first source's key word; critique: keep all
    but questions about the advance ("Аванс"), which it rejects as vague."""
    system = body["messages"][0]["content"]
    user = [m for m in body["messages"] if m["role"] == "user"][0]["content"]
    if '"verdicts"' in system:
        questions = re.findall(r"^\[(\d+)\] (\{.*\})$", user.split("Вопросы:")[-1].split("Questions:")[-1], re.M)
        verdicts = []
        for num, blob in questions:
            bad = "аванс" in json.loads(blob)["question"].lower()
            verdicts.append({"question": int(num), "keep": not bad, "problem": "vague" if bad else "ok",
                             "reason": "too general" if bad else "answered by source 1"})
        return json.dumps({"verdicts": verdicts}, ensure_ascii=False)
    types = re.search(r"(?:order|порядке): (.*)\.", user).group(1).split(", ")
    body_text = user.split("Источники:")[-1].split("Sources:")[-1]
    cited = [int(n) for n in re.findall(r"^\[(\d+)\] ", body_text, re.M)]
    first = body_text.split("\n\n[2] ")[0]
    out = []
    for i, t in enumerate(types):
        key = next(k for k in FACTS if k in first)
        q, a = FACTS[key]
        if i:
            q = q.replace("?", f" (вариант {i + 1})?")
        out.append({"type": t, "question": q, "answer": a, "sources": cited, "slices": ["numbers", "bogus"]})
    return json.dumps({"questions": out}, ensure_ascii=False)


@pytest.fixture
def fake():
    with FakeOpenAI(responder) as server:
        yield server


def _cfg(fake: FakeOpenAI, **kw) -> LLMConfig:
    base = dict(model="scripted", base_url=fake.url, api_key="k", concurrency=1, max_retries=2, backoff_base=0.0,
                max_tokens=400)
    base.update(kw)
    return LLMConfig(**base)


def _balanced(summary: dict) -> bool:
    rejected = sum(sum(summary["rejected"][k].values()) for k in ("rules", "critic", "checks"))
    return summary["candidates"] == summary["generated"] + summary["surplus"] + rejected + summary["unjudged"]


# --- pure parts -----------------------------------------------------------------------------------------
def test_plan_spreads_types_and_chunks_deterministically():
    groups = plan_groups(RU, 4, seed=3)
    types = [t for g in groups for t in g.types]
    assert len(types) == 6 and types.count("multi_context") == 2 and types.count("reasoning") == 2
    assert all(len(g.chunks) == 2 for g in groups if g.types == ("multi_context",))
    assert {g.chunks[0].id for g in groups if len(g.chunks) == 1} == {c.id for c in RU}
    assert plan_groups(RU, 4, seed=3) == groups and plan_groups(RU, 4, seed=4) != groups
    assert plan_groups([_chunk("x", "Глава 1")], 5) == []  # nothing worth asking about
    assert all(t != "multi_context" for g in plan_groups(RU[:1], 4) for t in g.types)


def test_generation_shape_is_strict_but_counts_what_it_ignores():
    group = Group(0, tuple(RU[:2]), ("multi_context",))
    ignored: list[str] = []
    shape = generation_shape(group, ignored)
    got = shape({"questions": [{"question": "Q один два?", "answer": 5, "sources": [1, 2], "slices": ["numbers", "x"]},
                               {"question": "extra?", "answer": "a"}]}, "raw")
    assert got == [Candidate("Q один два?", "5", "multi_context", (0, 1), ("numbers",))]
    assert ignored == ["slice 'x'", "1 extra question(s)"]
    for bad, why in [({"questions": []}, "question"), ({"questions": [{"question": "", "answer": "a"}]}, "non-empty"),
                     ({"questions": [{"question": "q", "answer": "a", "sources": [3]}]}, "1..2"),
                     ({"questions": [{"question": "q", "answer": "a", "type": "simple"}]}, "must be one of")]:
        with pytest.raises(JudgeParseError, match=re.escape(why)):
            shape(bad, "raw")


def test_critique_shape_needs_a_verdict_for_every_question():
    shape = critique_shape(2)
    v = shape({"verdicts": [{"question": 2, "keep": "false", "problem": "leaks_answer"},
                            {"question": 1, "keep": True}]}, "raw")
    assert [(x.keep, x.problem) for x in v] == [(True, "ok"), (False, "leaks_answer")]
    assert shape({"verdicts": [{"question": 1, "keep": False, "problem": "??"}, {"question": 2, "keep": True}]},
                 "raw")[0].problem == "other"
    with pytest.raises(JudgeParseError, match=r"no verdict for question\(s\) \[2\]"):
        shape({"verdicts": [{"question": 1, "keep": True}]}, "raw")
    with pytest.raises(JudgeParseError, match="keep must be true or false"):
        shape({"verdicts": [{"question": 1, "keep": "maybe"}, {"question": 2, "keep": True}]}, "raw")


def test_rules_catch_leaks_wrong_language_vague_and_duplicates():
    c = Candidate("Сколько стоит монтаж ГКЛ?", "1150 руб.", "simple", (0,), ())
    seen: set[str] = set()
    assert rule_problem(c, "ru", seen) is None
    assert rule_problem(Candidate("Монтаж ГКЛ стоит 1150 руб.?", "1150 руб.", "simple", (0,), ()), "ru", seen) == "leaks_answer"
    assert rule_problem(Candidate("How much is drywall mounting?", "1150", "simple", (0,), ()), "ru", seen) == "wrong_language"
    assert rule_problem(Candidate("Цена?", "1150", "simple", (0,), ()), "ru", seen) == "vague"
    seen.add("сколько стоит монтаж гкл?")
    assert rule_problem(c, "ru", seen) == "duplicate"


def test_prompts_are_versioned_files_in_both_languages():
    for task in ("generate_questions", "critique_question"):
        for lang in ("ru", "en"):
            p = load_generation_prompt(task, lang)
            assert p.id == f"{task}.{lang}@1" and len(p.sha256) == 64
            p.render(count=1, types="simple", sources="[1] x", questions="[1] {}")
    assert load_generation_prompt("generate_questions", "de").lang == "en"


# --- against the scripted server ----------------------------------------------------------------------
def test_pipeline_generates_filters_and_records_provenance(fake: FakeOpenAI):
    cases, summary = generate_with_llm(RU, n=3, judge_spec=_cfg(fake), seed=0, cache=None)
    assert summary["language"] == "ru" and _balanced(summary)
    assert summary["rejected"]["critic"].get("vague", 0) >= 1  # the advance questions
    assert summary["dropped"]["critic: vague"] == summary["rejected"]["critic"]["vague"]
    assert sum(summary["by_type"].values()) == summary["generated"] == len(cases) and summary["seed"] == 0
    assert all("аванс" not in c.question.lower() for c in cases)
    groups = summary["groups"]  # one generation call per group, one critic call per group with survivors
    assert summary["calls"] == len(fake.requests) == groups["started"] + groups["critiqued"]
    assert groups["critiqued"] >= 1 and summary["rejected"]["rules"].get("duplicate", 0) >= 1
    assert summary["ignored"]["slice 'bogus'"] == summary["candidates"]
    assert len(cases) == min(3, summary["candidates"] - sum(summary["rejected"]["critic"].values())
                             - sum(summary["rejected"]["rules"].values()))
    for c in cases:
        assert c.generator == "llm" and c.template == "generate_questions.ru@1" and c.language == "ru"
        assert set(c.extra["llm"]["prompts"]) == {"generate_questions.ru@1", "critique_question.ru@1"}
        assert c.extra["llm"]["model"] == "scripted" and c.relevant_ids == tuple(c.source["chunk_ids"])
        assert set(c.relevant_ids) <= {x.id for x in RU}
        if c.type == "multi_context":
            assert len(c.relevant_ids) == 2
        if "price#a-0" in c.relevant_ids:
            assert "table" in c.slices
    assert len({c.id for c in cases}) == len(cases)
    again, _ = generate_with_llm(RU, n=3, judge_spec=_cfg(fake), seed=0, cache=None)
    assert [c.to_row() for c in again] == [c.to_row() for c in cases]


def test_garbage_reply_is_reasked_once_with_the_error(fake: FakeOpenAI):
    fake.push({"content": "Конечно! Вот вопросы: 1) Сколько стоит..."})
    cases, summary = generate_with_llm(RU[:1], n=1, judge_spec=_cfg(fake), cache=None)
    second = fake.requests[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": "Конечно! Вот вопросы: 1) Сколько стоит..."}
    assert "не удалось разобрать" in second[-1]["content"] and "JSON" in second[-1]["content"]
    assert summary["reasked"] == 1 and summary["unparseable"] == {} and len(cases) == 1


def test_twice_unparseable_is_counted_never_a_crash(fake: FakeOpenAI):
    fake.push({"content": "no json"}, {"content": '{"questions": "oops"}'})
    cases, summary = generate_with_llm(RU[:1], n=1, judge_spec=_cfg(fake), cache=None)
    assert cases == [] and summary["unparseable"] == {"generate_questions": 1} and summary["candidates"] == 0
    (failure,) = summary["failures"]
    assert failure["kind"] == "unparseable" and failure["raw"] == '{"questions": "oops"}'
    assert summary["short_of_target"] == 1 and len(fake.requests) == 2


def test_unparseable_critic_leaves_candidates_unjudged_not_kept(fake: FakeOpenAI):
    fake.push({}, {"content": "{}"}, {"content": "[]"})  # generation fine, critic garbage twice
    cases, summary = generate_with_llm(RU[1:2], n=1, judge_spec=_cfg(fake), cache=None)
    assert cases == [] and summary["unjudged"] == summary["candidates"] == 2 and _balanced(summary)
    assert summary["unparseable"] == {"critique_question": 1}


def test_429_is_retried_by_the_shared_client(fake: FakeOpenAI):
    fake.push({"status": 429, "headers": {"Retry-After": "0"}})
    cases, summary = generate_with_llm(RU[:1], n=1, judge_spec=_cfg(fake), cache=None)
    assert len(cases) == 1 and summary["calls"] == 2 and len(fake.requests) == 3


def test_budget_limits_the_groups_started(fake: FakeOpenAI):
    cases, summary = generate_with_llm(RU, n=3, judge_spec=_cfg(fake), cache=None, max_calls=3)
    assert summary["groups"]["started"] == 1 and summary["groups"]["not_started_budget"] >= 1
    assert summary["calls"] <= 3 and _balanced(summary)
    fake.push({"content": "garbage"})  # the re-ask eats the critic's call: a clean stop mid-way, reported
    cases, summary = generate_with_llm(RU, n=1, judge_spec=_cfg(fake), cache=None, max_calls=2)
    assert cases == [] and summary["calls"] == 2 and summary["reasked"] == 1 and _balanced(summary)
    assert summary["unjudged"] == summary["candidates"] == 1 and "max_calls=2" in summary["budget_stopped"]


def test_cache_makes_a_rerun_free(fake: FakeOpenAI, tmp_path: Path):
    path = str(tmp_path / "replies.sqlite")
    first, s1 = generate_with_llm(RU, n=2, judge_spec=_cfg(fake), cache=path)
    second, s2 = generate_with_llm(RU, n=2, judge_spec=_cfg(fake), cache=path)
    assert s2["calls"] == 0 and s2["cached"] == s1["calls"] and [c.id for c in first] == [c.id for c in second]


def test_english_corpus_uses_english_prompts(fake: FakeOpenAI):
    en = [_chunk("w#1", "The warranty on metal roofing is fifteen years from the date of delivery.", "warranty")]
    FACTS["warranty"] = ("How long is the warranty on metal roofing?", "Fifteen years")
    try:
        cases, summary = generate_with_llm(en, n=1, judge_spec=_cfg(fake), cache=None)
    finally:
        del FACTS["warranty"]
    assert summary["language"] == "en" and set(summary["prompts"]) == {"generate_questions.en@1",
                                                                       "critique_question.en@1"}
    assert cases and cases[0].language == "en"


def test_bad_arguments_are_config_errors():
    with pytest.raises(ConfigError, match="n must be"):
        generate_with_llm(RU, n=0, judge_spec="openai:m@http://127.0.0.1:9/v1")
    with pytest.raises(ConfigError, match="judge spec"):
        generate_with_llm(RU, n=1, judge_spec="offline")


def test_the_offline_checks_drop_an_answer_whose_number_is_not_in_its_source():
    """Issue 19: the LLM path gets the offline generator's checks. The scripted model invents "45 дней" for a
    chunk that says 30, and the critic keeps everything: the number check must drop it, with the reason."""
    def inventing(body: dict) -> str:
        reply = json.loads(responder(body))
        if "verdicts" in reply:
            return json.dumps({"verdicts": [dict(v, keep=True, problem="ok") for v in reply["verdicts"]]})
        for q in reply["questions"]:
            q["answer"] = q["answer"].replace("30 календарных дней", "45 календарных дней")
        return json.dumps(reply, ensure_ascii=False)

    with FakeOpenAI(inventing) as server:
        cases, summary = generate_with_llm(RU, n=6, judge_spec=_cfg(server), seed=0, cache=None)
    assert summary["rejected"]["checks"].get("reference_number_not_in_chunk", 0) >= 1, summary["rejected"]
    assert summary["dropped"]["checks: reference_number_not_in_chunk"] >= 1 and _balanced(summary)
    assert cases and not any("45" in c.reference for c in cases if c.type != "reasoning")  # may compute numbers
    assert any(r["by"] == "checks" and "45" in r["answer"] for r in summary["rejected_cases"])
    with FakeOpenAI(inventing) as server:  # verify=False: the model's word is taken, as before issue 19
        unchecked, s2 = generate_with_llm(RU, n=6, judge_spec=_cfg(server), seed=0, cache=None, verify=False)
    assert s2["rejected"]["checks"] == {} and any("45" in c.reference for c in unchecked)
