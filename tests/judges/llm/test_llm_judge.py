"""LLMJudge through the judge door, against the scripted server: call plan, evidence offsets,
re-asks, unscored-with-raw-reply, budget, dry run, languages, spec strings."""

from __future__ import annotations


import pytest

from ragauge.errors import BudgetExceededError, ConfigError
from ragauge.judges.llm import Budget, LLMConfig, LLMJudge, parse_judge_spec, unscored_of
from ragauge.judges.llm.outcome import CALL_FAILED, UNPARSEABLE
from ragauge.judges.llm.prompts import load_prompt

SOURCES = ["The warranty is five years. Delivery takes 3 days.",
           "Payment is by card only.",
           "Returns are accepted within 14 days."]
ANSWER = "The warranty is five years. Payment is by card only. Shipping is free."


async def _no_sleep(_):
    return None


def judge(fake, tmp_path, stub_offline, **kw):
    cfg = LLMConfig(model="tiny", base_url=fake.url, backoff_base=0.01, **kw.pop("config", {}))
    return LLMJudge(cfg, cache=str(tmp_path / "cache.sqlite"), offline=stub_offline, sleep=_no_sleep, **kw)


def test_claims_then_verify_with_evidence_offsets(fake, tmp_path, stub_offline):
    j = judge(fake, tmp_path, stub_offline)
    [claims] = j.claims([ANSWER], ["en"])
    assert [c.text for c in claims] == ["The warranty is five years.", "Payment is by card only.", "Shipping is free."]
    for c in claims:  # located in the answer
        assert ANSWER[c.start:c.end].rstrip(".") == c.text.rstrip(".")
    [verdicts] = j.verify([(claims, SOURCES, "en")])
    assert [v.label for v in verdicts] == ["supported", "supported", "unsupported"]
    ev = verdicts[0].evidence
    assert ev.source == 0 and SOURCES[0][ev.start:ev.end] == ev.text == "The warranty is five years"
    assert verdicts[1].evidence.source == 1
    assert verdicts[2].evidence is None and verdicts[2].probability == 0.0
    assert len(fake.requests) == 2
    prov = j.provenance()
    assert prov.judge == "llm" and prov.model == "tiny" and prov.version.startswith("prompts-")
    assert prov.details["prompts"] == {"claims.en@2": load_prompt("claims", "en").sha256,
                                       "verify.en@2": load_prompt("verify", "en").sha256}
    assert prov.details["usage"]["calls"] == 2 and prov.details["usage"]["prompt_tokens"] == 200


def test_recall_and_per_context_precision_items_share_one_call(fake, tmp_path, stub_offline):
    j = judge(fake, tmp_path, stub_offline)
    [claims] = j.claims([ANSWER], ["en"])
    n = len(fake.requests)
    items = [(claims, SOURCES, "en")] + [(claims, [s], "en") for s in SOURCES]
    out = j.verify(items)
    assert len(fake.requests) == n + 1  # all claims x all sources, once
    assert [v.label for v in out[0]] == ["supported", "supported", "unsupported"]
    assert [v.label for v in out[1]] == ["supported", "unsupported", "unsupported"]  # source 1 alone
    assert [v.label for v in out[2]] == ["unsupported", "supported", "unsupported"]
    assert not any(v.supported for v in out[3])
    assert out[2][1].evidence.source == 0  # index into *that item's* sources


def test_same_text_twice_in_a_batch_is_one_call(fake, tmp_path, stub_offline):
    j = judge(fake, tmp_path, stub_offline)
    a, b = j.claims([ANSWER, ANSWER], ["en", "en"])
    assert a == b and len(fake.requests) == 1


def test_second_run_costs_zero_calls(fake, tmp_path, stub_offline):
    for _ in range(2):
        j = judge(fake, tmp_path, stub_offline)
        [claims] = j.claims([ANSWER], ["en"])
        j.verify([(claims, SOURCES, "en")])
        j.relevance(["How long is the warranty?"], [ANSWER])
    assert len(fake.requests) == 3
    assert j.usage()["calls"] == 0 and j.usage()["cached"] == 3


def test_russian_sample_uses_russian_prompts(fake, tmp_path, stub_offline):
    j = judge(fake, tmp_path, stub_offline)
    [claims] = j.claims(["Гарантия на кровлю 5 лет. Доставка бесплатная."], [None])  # language detected
    assert "атомарные" in fake.requests[0]["messages"][0]["content"]
    [v] = j.verify([(claims, ["Гарантия на кровлю 5 лет."], "ru")])
    assert "Источники" in fake.requests[1]["messages"][1]["content"]
    assert [x.label for x in v] == ["supported", "unsupported"]
    assert set(j.provenance().details["prompts"]) == {"claims.ru@2", "verify.ru@2"}


def test_truncated_claims_reply_keeps_complete_items(fake, tmp_path, stub_offline):
    fake.push({"content": '{"claims": ["The warranty is five years.", "Payment is by ca'})
    j = judge(fake, tmp_path, stub_offline)
    [claims] = j.claims([ANSWER], ["en"])
    assert [c.text for c in claims] == ["The warranty is five years."]
    assert j.provenance().details["outcomes"] == {"repaired: truncated": 1}


def test_unparseable_reply_is_reasked_with_the_error_then_unscored_with_raw(fake, tmp_path, stub_offline):
    fake.push({"content": "I cannot do that."}, {"content": "Still no JSON, sorry"})
    j = judge(fake, tmp_path, stub_offline)
    [claims] = j.claims([ANSWER], ["en"])
    u = unscored_of(claims)
    assert claims == [] and u is not None
    assert u.reason == UNPARSEABLE and u.raw == "Still no JSON, sorry" and u.prompt == "claims.en@2"
    first, second = fake.requests
    assert second["messages"][:2] == first["messages"]  # never the identical request:
    assert second["messages"][2] == {"role": "assistant", "content": "I cannot do that."}
    assert "no JSON object in the reply" in second["messages"][3]["content"]
    assert u.artifact()["raw_reply"] == "Still no JSON, sorry"
    # an unparseable reply is never cached: a re-run asks again (and the server answers JSON now)
    assert j.cache.stats()["replies"] == 0
    j2 = judge(fake, tmp_path, stub_offline)
    again = j2.claims([ANSWER], ["en"])[0]
    assert unscored_of(again) is None and again and len(fake.requests) == 3


def test_reask_fixes_a_bad_verdict_reply(fake, tmp_path, stub_offline):
    j = judge(fake, tmp_path, stub_offline)
    [claims] = j.claims([ANSWER], ["en"])
    fake.push({"content": '{"verdicts": [{"claim": 1, "verdict": "true", "sources": [], "quote": "", "reason": ""}]}'})
    [v] = j.verify([(claims, SOURCES, "en")])
    assert [x.label for x in v] == ["supported", "supported", "unsupported"]
    assert "must be one of" in fake.requests[-1]["messages"][-1]["content"]
    assert j.provenance().details["outcomes"] == {"re-asked after a parse error": 1}


def test_call_failure_after_retries_is_unscored_not_dropped(fake, tmp_path, stub_offline):
    fake.push(*[{"status": 503}] * 3)  # 2 texts x 2 attempts = 4 requests, 3 fail: one text fails twice
    j = judge(fake, tmp_path, stub_offline, config={"max_retries": 1})
    out = j.claims([ANSWER, "Delivery takes 3 days."], ["en", "en"])
    failed = [unscored_of(c) for c in out]
    assert sum(f is not None for f in failed) == 1
    assert next(f for f in failed if f).reason == CALL_FAILED


def test_budget_stops_cleanly_and_the_paid_replies_are_kept(fake, tmp_path, stub_offline):
    texts = [f"Fact number {i} is true." for i in range(4)]
    j = judge(fake, tmp_path, stub_offline, budget=Budget(max_calls=2))
    with pytest.raises(BudgetExceededError, match="max_calls=2") as err:
        j.claims(texts, ["en"] * 4)
    assert "re-run with a larger budget" in str(err.value)
    assert fake.answered == 2
    j2 = judge(fake, tmp_path, stub_offline, budget=Budget(max_calls=10))
    assert all(j2.claims(texts, ["en"] * 4))
    assert fake.answered == 4 and j2.usage()["calls"] == 2 and j2.usage()["cached"] == 2


def test_token_and_money_budget(fake, tmp_path, stub_offline):
    from ragauge.judges.llm import Prices

    with pytest.raises(ConfigError, match="price"):
        Budget(max_cost=1.0)
    j = judge(fake, tmp_path, stub_offline, budget=Budget(max_cost=0.00035, prices=Prices(1.0, 1.0)))
    j.claims(["A is 1."], ["en"])  # ~$0.00028 estimated fits; 100 + 20 tokens spent = $0.00012
    assert j.usage()["cost_usd"] == pytest.approx(0.00012)
    with pytest.raises(BudgetExceededError, match="max_cost"):
        j.claims(["B is 2."], ["en"])
    j = judge(fake, tmp_path / "t", stub_offline, budget=Budget(max_tokens=350))
    j.claims(["C is 3."], ["en"])  # ~284 tokens (prompt + completion) estimated fit; 120 spent; the next ~284 do not
    with pytest.raises(BudgetExceededError, match="max_tokens=350"):
        j.claims(["D is 4."], ["en"])


def test_dry_run_counts_without_calling(fake, tmp_path, stub_offline):
    j = judge(fake, tmp_path, stub_offline, dry_run=True)
    [claims] = j.claims([ANSWER], ["en"])
    assert len(claims) == 3  # sentence placeholders, so verify can be estimated
    j.verify([(claims, SOURCES, "en")] + [(claims, [s], "en") for s in SOURCES])
    j.relevance(["Q?"], [ANSWER])
    assert fake.requests == []
    plan = j.plan
    assert plan.calls == 3 and plan.by_prompt == {"claims.en@2": 1, "verify.en@2": 1, "questions.en@2": 1}
    assert plan.prompt_tokens > 100 and "3 calls to pay for" in plan.summary()
    j.claims([ANSWER], ["en"])  # another metric asking for the same claims: a cache hit in the real run
    assert plan.calls == 3 and plan.cached == 1
    # with a warm cache the plan says what is free
    judge(fake, tmp_path, stub_offline).claims([ANSWER], ["en"])
    j = judge(fake, tmp_path, stub_offline, dry_run=True)
    j.claims([ANSWER], ["en"])
    assert j.plan.cached == 1 and j.plan.calls == 0


def test_relevance_from_generated_questions(fake, tmp_path, stub_offline):
    j = judge(fake, tmp_path, stub_offline)
    scores = j.relevance(["How long is the warranty?", "What is the warranty?"],
                         ["The warranty is five years.", "I don't know."])
    assert scores == [pytest.approx(0.8), 0.0]
    assert fake.requests[0]["messages"][0]["content"].count("3 different questions") == 1


def test_faithfulness_metric_through_the_door(fake, tmp_path, stub_offline):
    from ragauge.data.schema import Context, Sample
    from ragauge.engine.scoring import score_columns
    from ragauge.metrics.registry import parse_metric

    s = Sample(id="1", question="Warranty?", answer=ANSWER, contexts=tuple(Context(text=t) for t in SOURCES),
               language="en")
    specs = [parse_metric("faithfulness")]
    col = score_columns(specs, [s], judge(fake, tmp_path, stub_offline))["faithfulness"]
    assert col.values == [pytest.approx(2 / 3)]
    assert col.provenance["judge"] == "llm"
    assert col.artifacts[0]["claims"][0]["evidence"]["text"] == "The warranty is five years"


def test_spec_strings():
    env = {"RAGAUGE_LLM_MODEL": "m-env", "RAGAUGE_LLM_BASE_URL": "http://gw:8000/v1"}
    assert parse_judge_spec("openai", env=env) == ("m-env", "http://gw:8000/v1")
    assert parse_judge_spec("openai:gpt-4o-mini", env=env) == ("gpt-4o-mini", "http://gw:8000/v1")
    assert parse_judge_spec("openai:qwen2.5:0.5b@http://127.0.0.1:11434/v1", env=env) == (
        "qwen2.5:0.5b", "http://127.0.0.1:11434/v1")
    assert parse_judge_spec("openai:m", env={}) == ("m", "https://api.openai.com/v1")
    with pytest.raises(ConfigError, match="names no model"):
        parse_judge_spec("openai", env={})
    with pytest.raises(ConfigError, match="not an LLM judge spec"):
        parse_judge_spec("gpt-4o", env={})
    cfg = LLMConfig.from_env({"RAGAUGE_LLM_MODEL": "m", "RAGAUGE_LLM_API_KEY": "k",
                              "RAGAUGE_LLM_HEADERS": '{"X-A": "1"}'})
    assert cfg.api_key == "k" and cfg.headers == {"X-A": "1"} and cfg.base_url == "https://api.openai.com/v1"
    with pytest.raises(ConfigError, match="HEADERS"):
        LLMConfig.from_env({"RAGAUGE_LLM_MODEL": "m", "RAGAUGE_LLM_HEADERS": "[1]"})
