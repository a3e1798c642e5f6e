"""The whole five-metric suite through ``ragauge.evaluate`` with the LLM judge: its ``answer`` takes each
round of every metric's requests in <= 4 calls per sample whatever k is (the answer's and the reference's
claims in one call, all of a sample's claim lists in one), and the values equal those of the plain
path (the same judge answering each request with its batched methods, unmerged)."""

from __future__ import annotations

import math

import pytest

import ragauge
from ragauge.judges.base import Judge, JudgeBase
from ragauge.judges.llm import LLMConfig, LLMJudge
from ragauge.judges.llm.prompts import load_prompt

FIVE = ["faithfulness", "answer_relevancy", "context_precision", "context_recall", "answer_correctness"]

FACTS_EN = ["The warranty is five years.", "Delivery takes 3 days.", "Payment is by card only.",
            "Returns are accepted within 14 days.", "The shop opens at 9 am.", "Support answers by email.",
            "Gift cards never expire.", "Prices include VAT."]
FACTS_RU = ["Гарантия пять лет.", "Доставка занимает 3 дня.", "Оплата только картой.",
            "Возврат принимается в течение 14 дней.", "Магазин открывается в 9 утра.", "Поддержка отвечает по почте.",
            "Подарочные карты бессрочны.", "Цены включают НДС."]


def _samples(k: int) -> list[dict]:
    out = []
    for lang, facts, extra in (("en", FACTS_EN, "Shipping is free."), ("ru", FACTS_RU, "Доставка бесплатная.")):
        for n in range(3):
            contexts = [f"{facts[(n + c) % 8]} Filler sentence {c}." for c in range(k)]
            out.append({
                "id": f"{lang}-{k}-{n}", "question": "What are the terms?", "language": lang,
                "answer": f"{facts[n]} {facts[(n + 1) % 8]} {extra}",
                "reference": f"{facts[n]} {facts[(n + 5) % 8]}",
                "contexts": contexts,
            })
    out.append({"id": f"refuse-{k}", "question": "?", "language": "en", "answer": "I don't know.",
                "reference": FACTS_EN[0], "contexts": [FACTS_EN[0]] * k})
    out.append({"id": f"noref-{k}", "question": "?", "language": "en", "answer": FACTS_EN[1],
                "contexts": FACTS_EN[:k]})
    return out


class Unmerged(JudgeBase):
    """The same LLM judge answering requests with its batched methods one kind at a time: the plain path."""

    def __init__(self, inner: LLMJudge) -> None:
        self._inner = inner
        self.name = inner.name

    def answer(self, requests):
        return JudgeBase.answer(self._inner, requests)

    def provenance(self):
        return self._inner.provenance()


def _judge(fake, stub_offline) -> LLMJudge:
    return LLMJudge(LLMConfig(model="tiny", base_url=fake.url), cache=None, offline=stub_offline)


def _values(res) -> dict:
    return {m: [res.columns[m].values[i] for i in range(len(res.samples))] for m in FIVE}


@pytest.mark.parametrize("k", [3, 8])
def test_five_metrics_in_at_most_four_calls_per_sample_and_same_values(fake, stub_offline, k):
    samples = _samples(k)
    before = len(fake.requests)
    planned = ragauge.evaluate(samples, metrics=FIVE, profile=None, judge=_judge(fake, stub_offline), n_resamples=50)
    calls = len(fake.requests) - before
    assert calls / len(samples) <= 4
    full = [s for s in samples if s["id"][0] in "er" and not s["id"].startswith("refuse")]
    # 3 each (claims pair, merged verification, questions); the refusal: claims of the reference + verification of
    # the reference's claims (context metrics), no relevancy call; no reference: claims, verification, questions
    assert calls == 3 * len(full) + 2 + 3
    prompts = {r["messages"][0]["content"][:30] for r in fake.requests[before:]}
    assert len(prompts) >= 3

    before = len(fake.requests)
    plain = ragauge.evaluate(samples, metrics=FIVE, profile=None, judge=Unmerged(_judge(fake, stub_offline)),
                             n_resamples=50)
    plain_calls = len(fake.requests) - before
    assert plain_calls > calls  # 7 per full sample unmerged
    got, want = _values(planned), _values(plain)
    for m in FIVE:
        for a, b in zip(got[m], want[m]):
            assert (a is None and b is None) or math.isclose(a, b), (m, got[m], want[m])
    assert any(v not in (None, 0.0, 1.0) for v in got["faithfulness"])  # not trivially equal
    for m in FIVE:
        assert planned.columns[m].reasons == plain.columns[m].reasons


def test_merged_calls_record_their_prompts_and_a_rerun_costs_nothing(fake, stub_offline, tmp_path):
    samples = [_samples(3)[0], _samples(3)[3]]  # one English, one Russian
    j = LLMJudge(LLMConfig(model="tiny", base_url=fake.url), cache=str(tmp_path / "c.sqlite"), offline=stub_offline)
    assert isinstance(j, Judge)
    res = ragauge.evaluate(samples, metrics=FIVE, profile=None, judge=j, n_resamples=50)
    prompts = j.provenance().details["prompts"]
    assert prompts["claims_pair.en@2"] == load_prompt("claims_pair", "en").sha256
    assert prompts["verify_multi.ru@2"] == load_prompt("verify_multi", "ru").sha256
    n = len(fake.requests)
    j2 = LLMJudge(LLMConfig(model="tiny", base_url=fake.url), cache=str(tmp_path / "c.sqlite"), offline=stub_offline)
    again = ragauge.evaluate(samples, metrics=FIVE, profile=None, judge=j2, n_resamples=50)
    assert len(fake.requests) == n and j2.usage()["calls"] == 0
    assert _values(again) == _values(res)


def test_merged_verification_splits_when_too_large(fake, stub_offline, monkeypatch):
    from ragauge.judges.llm import rounds

    monkeypatch.setattr(rounds, "MERGED_VERIFY_MAX_TOKENS", 10)
    samples = _samples(8)[:1]
    ragauge.evaluate(samples, metrics=FIVE, profile=None, judge=_judge(fake, stub_offline), n_resamples=50)
    assert len(fake.requests) == 4  # claims pair + 2 verifications + questions


def test_dry_run_plans_the_merged_calls(fake, stub_offline):
    j = LLMJudge(LLMConfig(model="tiny", base_url=fake.url), cache=None, offline=stub_offline, dry_run=True)
    ragauge.evaluate(_samples(8)[:2], metrics=FIVE, profile=None, judge=j, n_resamples=50)
    assert not fake.requests
    assert j.plan.calls == 6, j.plan.to_dict()
    assert j.plan.by_prompt == {"claims_pair.en@2": 2, "verify_multi.en@2": 2, "questions.en@2": 2}


def test_the_paired_claims_call_is_worded_the_same_whatever_order_the_metrics_are_named_in(fake, stub_offline):
    sample = _samples(3)[:1]
    prompts = []
    for metrics in (["context_recall", "faithfulness"], ["faithfulness", "context_recall"]):
        before = len(fake.requests)
        ragauge.evaluate(sample, metrics=metrics, profile=None, judge=_judge(fake, stub_offline), n_resamples=50)
        prompts.append([r["messages"][-1]["content"] for r in fake.requests[before:]])
    assert prompts[0] == prompts[1]
    answer, reference = sample[0]["answer"], sample[0]["reference"]
    pair = prompts[0][0]
    assert answer in pair and reference in pair and pair.index(answer) < pair.index(reference)


def test_each_call_serves_the_metrics_that_asked_for_its_text(fake, stub_offline):
    row = {**_samples(3)[0], "expected_outcome": FACTS_EN[2]}
    res = ragauge.evaluate([row], metrics=["faithfulness", "context_recall", "task_completion"], profile=None,
                           judge=_judge(fake, stub_offline), n_resamples=50)
    usage = res.to_dict()["usage"]
    # the answer's and the reference's claims in one call shared by the two metrics that asked for them;
    # the expected outcome's facts in a call of its own, task completion's alone
    assert usage["by_metric"]["task_completion"]["calls"] == 1
    assert usage["by_prompt"]["claims_pair"]["calls"] == 1 and usage["by_prompt"]["claims"]["calls"] == 1
    assert any(set(b["metrics"]) == {"context_recall", "faithfulness"} for b in usage["shared"].values())


def test_an_expected_outcome_never_takes_the_reference_slot_of_the_paired_call(fake, stub_offline):
    row = {k: v for k, v in _samples(3)[0].items() if k != "reference"}
    row["expected_outcome"] = FACTS_EN[2]
    before = len(fake.requests)
    ragauge.evaluate([row], metrics=["faithfulness", "task_completion"], profile=None,
                     judge=_judge(fake, stub_offline), n_resamples=50)
    prompts = [r["messages"][-1]["content"] for r in fake.requests[before:]]
    assert not any("<reference" in p for p in prompts)
    assert sum(FACTS_EN[2] in p and row["answer"] not in p for p in prompts) >= 1  # the outcome's own call


def test_each_sample_gets_the_claims_of_its_own_paired_call(fake, stub_offline):
    a, b = _samples(3)[0], dict(_samples(3)[1])
    b["answer"] = a["answer"]  # the same answer to another reference
    res = ragauge.evaluate([a, b], metrics=["faithfulness", "answer_correctness"], profile=None,
                           judge=_judge(fake, stub_offline), n_resamples=50)
    pairs = [r["messages"][-1]["content"] for r in fake.requests if "<reference" in r["messages"][-1]["content"]]
    assert sum(a["reference"] in p for p in pairs) == 1 and sum(b["reference"] in p for p in pairs) == 1
    for i, row in enumerate((a, b)):
        for c in res.columns["faithfulness"].artifacts[i]["claims"]:
            assert row["answer"][c["start"]:c["end"]] == c["text"] or c["start"] == c["end"] == 0
