"""The budget under concurrency (issue 14): a call reserves its estimate before it starts, so a batch of
concurrent calls cannot all start below a limit; spend passes a limit by at most one call's size; the
stop message counts the calls that ran. Against the scripted loopback server, 8 calls in flight."""

from __future__ import annotations

import pytest

from ragauge.errors import BudgetExceededError
from ragauge.judges.llm import Budget, LLMConfig, LLMJudge, Prices
from ragauge.judges.llm.prompts import load_prompt
from ragauge.judges.llm.tokens import estimate_tokens
from ragauge.judges.llm.wording import count

TEXTS = [f"Item {i} costs {i} dollars." for i in range(40)]


async def _no_sleep(_):
    return None


def judge(fake, tmp_path, stub_offline, budget):
    # max_tokens 64: a reservation holds the whole completion cap, so with the default 1024 against a
    # budget of ten ~200-token calls the calls would (rightly) run one at a time
    cfg = LLMConfig(model="tiny", base_url=fake.url, concurrency=8, structured="none", max_tokens=64)
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
    assert f"Spent so far: {count(spent.calls, 'call')}," in str(err.value)


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


# --- billed more than estimated (issue 14 leftovers) ----------------------------------------------------------
CAP = 400  # the request's max_tokens: the most completion tokens the server may bill for one call


def _prompt_estimate(body) -> int:
    return sum(estimate_tokens(m["content"]) for m in body["messages"])


@pytest.mark.parametrize("limit", ["usd", "tokens"])
@pytest.mark.parametrize("prompt_ratio", [1.0, 1.5])
def test_completions_billed_up_to_max_tokens_never_overshoot_by_more_than_one_call(
        fake, tmp_path, stub_offline, limit, prompt_ratio):
    """The first reply is short (it calibrates the estimates at ~1), every later one is billed the whole
    max_tokens: before the fix the 8 calls that started together after the first were each reserved at the
    short estimate and all billed 400 completion tokens, passing the limit by several calls."""
    fake.delay = 0.1
    first = []

    def usage(body):
        prompt = int(_prompt_estimate(body) * prompt_ratio)
        if not first:
            first.append(body)
            return prompt, 20
        return prompt, body["max_tokens"]

    fake.usage = usage
    size = int(one_call_tokens(TEXTS[0]) * prompt_ratio) + CAP  # what one later call bills, about
    prices = Prices(1.0, 1.0)
    budget = Budget(max_cost=6 * size / 1e6, prices=prices) if limit == "usd" else Budget(max_tokens=6 * size)
    cfg = LLMConfig(model="tiny", base_url=fake.url, concurrency=8, structured="none", max_tokens=CAP)
    j = LLMJudge(cfg, cache=str(tmp_path / "c.sqlite"), offline=stub_offline, sleep=_no_sleep, budget=budget)
    with pytest.raises(BudgetExceededError) as err:
        j.claims(TEXTS, ["en"] * len(TEXTS))
    spent = budget.spend
    assert fake.max_in_flight > 1  # far from the limit, calls still overlap
    assert 2 <= spent.calls == fake.answered
    billed = spent.prompt_tokens + spent.completion_tokens
    if limit == "usd":
        assert spent.cost <= budget.max_cost + size / 1e6, (spent, size)
    else:
        assert billed <= budget.max_tokens + size, (billed, budget.max_tokens, size)
    assert f"Spent so far: {count(spent.calls, 'call')}," in str(err.value)


def test_a_reservation_holds_the_whole_completion_cap_until_the_limit_is_near():
    b = Budget(max_tokens=2000)
    r1 = b.reserve(100, 20, completion_cap=500)  # 600 held: the server may bill 500 completion tokens
    b.reserve(100, 20, completion_cap=500)  # 1200 held
    b.reserve(100, 20, completion_cap=500)  # 1800 held
    assert b.try_reserve(100, 20, completion_cap=500) is None  # would not fit in the worst case: wait
    b.record(100, 20, r1)
    b.release(b.reserve(100, 20, completion_cap=500))
    # alone, near the limit: a call starts when its calibrated estimate fits, so only it can pass the limit
    c = Budget(max_tokens=700)
    c.record(100, 20, c.reserve(100, 20, completion_cap=500))  # 120 spent, the worst case (600) fits
    r = c.reserve(100, 20, completion_cap=500)  # 120 + 600 > 700, but nothing is in flight and 120 + 120 fits
    assert c.try_reserve(100, 20, completion_cap=500) is None  # not beside it
    c.record(100, 500, r)  # billed its whole cap: 720 spent, past the limit by less than one call
    with pytest.raises(BudgetExceededError, match="max_tokens=700"):
        c.reserve(100, 20, completion_cap=500)


def test_max_calls_stop_message_through_the_cli(fake, tmp_path, capsys, monkeypatch):
    """`ragauge eval --max-calls 3`: exit 4, and the message counts the 3 calls that were paid for."""
    import json

    from ragauge.cli.main import main

    monkeypatch.setenv("RAGAUGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    fake.delay = 0.05
    rows = [{"id": f"q{i}", "question": "What does it cost?", "answer": TEXTS[i], "contexts": [TEXTS[i]]}
            for i in range(10)]
    data = tmp_path / "s.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    code = main(["eval", str(data), "--metrics", "faithfulness", "--profile", "none", "--judge",
                 f"openai:tiny@{fake.url}", "--max-calls", "3", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 4 and fake.answered == 3
    assert "max_calls=3" in err and "Spent so far: 3 calls," in err, err
