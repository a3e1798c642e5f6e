"""Usage per metric and per run: every reply counted once, attributed exclusively or to a named shared
bucket, written to results.json and the terminal summary; a re-run from the cache pays nothing."""

from __future__ import annotations

import json

import ragauge
from ragauge.engine.summary import usage_lines
from ragauge.judges.llm import LLMConfig, LLMJudge, Prices, Budget, UsageLedger, serving

from test_llm_rounds import FIVE, _samples

COUNTERS = ("calls", "cached", "prompt_tokens", "completion_tokens", "cached_tokens")


def _sums(usage: dict) -> dict:
    buckets = list(usage["by_metric"].values()) + list(usage["shared"].values())
    return {k: sum(b[k] for b in buckets) for k in COUNTERS}


def test_ledger_exclusive_and_shared_buckets_add_up_to_the_total():
    led = UsageLedger(Prices(1.0, 2.0))
    with serving(["faithfulness", "answer_correctness"]):
        led.record("claims_pair.ru@1", prompt_tokens=1000, completion_tokens=100)
    with serving(["answer_relevancy"]):
        led.record("questions.ru@1", prompt_tokens=500, completion_tokens=50)
    led.record("verify.en@1", prompt_tokens=10, completion_tokens=0)  # outside any metric
    d = led.to_dict()
    assert d["shared"]["answer_correctness+faithfulness"]["metrics"] == ["answer_correctness", "faithfulness"]
    assert d["by_metric"]["unattributed"]["calls"] == 1
    assert d["total"]["cost_usd"] == round((1510 * 1.0 + 150 * 2.0) / 1e6, 6)
    assert d["by_prompt"]["claims_pair"]["tokens"] == 1100
    assert _sums(d) == {k: d["total"][k] for k in COUNTERS}


def _judge(fake, stub_offline, cache) -> LLMJudge:
    return LLMJudge(LLMConfig(model="tiny", base_url=fake.url), cache=cache, offline=stub_offline,
                    budget=Budget(prices=Prices(0.15, 0.60)))


def test_results_json_has_usage_per_metric_and_a_cached_rerun_costs_nothing(fake, stub_offline, tmp_path):
    samples = _samples(3)
    cache = str(tmp_path / "cache.sqlite")
    res = ragauge.evaluate(samples, metrics=FIVE, profile=None, judge=_judge(fake, stub_offline, cache),
                           n_resamples=50)
    usage = json.loads(res.to_json())["usage"]
    calls = len(fake.requests)
    assert usage["judge"] == "llm" and usage["total"]["calls"] == calls and usage["total"]["cached"] == 0
    assert usage["total"]["prompt_tokens"] == 100 * calls  # the scripted server reports 100 + 20 per reply
    assert usage["total"]["cost_usd"] == round(calls * (100 * 0.15 + 20 * 0.60) / 1e6, 6)
    assert _sums(usage) == {k: usage["total"][k] for k in COUNTERS}
    # questions serve answer relevancy alone; claims and the merged verification are shared and say by whom
    assert usage["by_metric"]["answer_relevancy"]["calls"] == sum(1 for s in samples if "refuse" not in s["id"])
    assert any({"faithfulness", "answer_correctness"} <= set(b["metrics"]) for b in usage["shared"].values())
    assert set(usage["by_prompt"]) == {"claims_pair", "claims", "verify_multi", "questions"}

    again = ragauge.evaluate(samples, metrics=FIVE, profile=None, judge=_judge(fake, stub_offline, cache),
                             n_resamples=50)
    u2 = again.to_dict()["usage"]
    assert len(fake.requests) == calls and u2["total"]["calls"] == 0 and u2["total"]["cost_usd"] == 0
    assert u2["total"]["cached"] == calls and u2["total"]["cached_tokens"] == 120 * calls
    lines = usage_lines(usage)
    assert lines[0].startswith(f"LLM judge tiny: {calls} calls (0 from cache)") and "$" in lines[0]
    assert any("answer_relevancy" in line for line in lines[1:])


def test_metrics_that_share_no_request_each_pay_for_their_own_calls(fake, stub_offline):
    samples = _samples(3)[:2]
    judge = _judge(fake, stub_offline, None)
    res = ragauge.evaluate(samples, metrics=["faithfulness", "answer_relevancy"], profile=None, judge=judge,
                           n_resamples=50)
    usage = res.to_dict()["usage"]
    assert set(usage["by_metric"]) == {"faithfulness", "answer_relevancy"} and usage["shared"] == {}
    assert usage["by_metric"]["faithfulness"]["calls"] == 4  # claims + verify per sample
    assert usage["total"]["calls"] == len(fake.requests)


def test_answer_family_splits_relevancy_from_correctness(fake, stub_offline):
    """answer_relevancy and answer_correctness run as one family; each request still goes to its metric."""
    samples = _samples(3)[:2]
    res = ragauge.evaluate(samples, metrics=["answer_relevancy", "answer_correctness"], profile=None,
                           judge=_judge(fake, stub_offline, None), n_resamples=50)
    usage = res.to_dict()["usage"]
    assert set(usage["by_metric"]) == {"answer_relevancy", "answer_correctness"} and usage["shared"] == {}
    assert usage["by_metric"]["answer_relevancy"]["calls"] == 2
