"""The budget under concurrency (issue 14): a call reserves its estimate before it starts, so a batch of
concurrent calls cannot all start below a limit; spend passes a limit by at most one call's size; the
stop message counts the calls that ran. Against the scripted loopback server, 8 calls in flight."""

from __future__ import annotations

import pytest

from ragauge.errors import BudgetExceededError
from ragauge.judges.llm import Budget, LLMConfig, LLMJudge, Prices
from ragauge.judges.llm.prompts import load_prompt
from ragauge.judges.llm.tokens import estimate_tokens

TEXTS = [f"Item {i} costs {i} dollars." for i in range(40)]


async def _no_sleep(_):
    return None


def judge(fake, tmp_path, stub_offline, budget):
    cfg = LLMConfig(model="tiny", base_url=fake.url, concurrency=8, structured="none")
    return LLMJudge(cfg, cache=str(tmp_path / "c.sqlite"), offline=stub_offline, sleep=_no_sleep, budget=budget)


def one_call_tokens(text: str) -> int:
    msgs = load_prompt("claims", "en").render(text=text)
    return sum(estimate_tokens(m["content"]) for m in msgs) + estimate_tokens(text) + 16


@pytest.mark.parametrize("billed", ["under", "over"])
@pytest.mark.parametrize("limit", ["usd", "tokens"])
def test_concurrent_calls_do_not_overspend(fake, tmp_path, stub_offline, limit, billed):
    fake.delay = 0.1  # calls overlap: 8 in flight at a time
    size = one_call_tokens(TEXTS[0])
    # what the server bills: a bit under the estimate, or 3x over it (the first call calibrates the others)
    fake.usage = (size - 40, 30) if billed == "under" else (3 * size, 30)
    call = sum(fake.usage)
    prices = Prices(1.0, 1.0)  # USD per 1M tokens: cost = tokens / 1e6
    budget = Budget(max_cost=10 * call / 1e6, prices=prices) if limit == "usd" else Budget(max_tokens=10 * call)
    j = judge(fake, tmp_path, stub_offline, budget)
    with pytest.raises(BudgetExceededError, match="max_cost" if limit == "usd" else "max_tokens") as err:
        j.claims(TEXTS, ["en"] * len(TEXTS))
    spent = budget.spend
    assert fake.max_in_flight > 1  # calibrated after the first call, the others overlap
    # before the fix all 40 calls started (spend 4x the limit); now: at most the limit plus one call
    assert 1 <= spent.calls <= 10 and fake.answered == spent.calls
    if limit == "usd":
        assert spent.cost <= 10 * call / 1e6 + call / 1e6
    else:
        assert spent.prompt_tokens + spent.completion_tokens <= 11 * call
    assert f"Spent so far: {spent.calls} calls," in str(err.value)


def test_max_calls_message_counts_the_calls_that_ran(fake, tmp_path, stub_offline):
    fake.delay = 0.1
    budget = Budget(max_calls=3)
    j = judge(fake, tmp_path, stub_offline, budget)
    with pytest.raises(BudgetExceededError, match="max_calls=3") as err:
        j.claims(TEXTS[:10], ["en"] * 10)
    assert budget.spend.calls == 3 and fake.answered == 3
    assert "Spent so far: 3 calls," in str(err.value)  # was "0 calls": the message was written before they returned


def test_reservations_are_given_back():
    b = Budget(max_tokens=1000)
    r1 = b.reserve(300, 100)
    r2 = b.reserve(300, 100)
    with pytest.raises(BudgetExceededError, match="~800 reserved"):
        b.reserve(150, 100)  # 0 spent + 800 reserved + 250 > 1000
    b.release(r1)  # failed without a reply: nothing billed
    b.record(150, 50, r2)  # came back cheaper than its estimate: the unused part is free again
    b.reserve(500, 100)  # 200 spent + 600 <= 1000
    assert b.spend.prompt_tokens + b.spend.completion_tokens == 200
