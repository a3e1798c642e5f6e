"""Review of issue 14: a fuzzy quote match must keep the source's meaning (negations, words), and the
judge's failure messages must read right (the timeout's cause, counts that agree, "1 call")."""

from __future__ import annotations

import asyncio
import doctest
import re

import pytest

from ragauge.errors import BudgetExceededError
from ragauge.judges.llm import Budget, LLMConfig, LLMJudge, quote_words, wording
from ragauge.judges.llm.client import ChatClient, JudgeCallError
from ragauge.judges.llm.parse import RawVerdict
from ragauge.judges.llm.verdicts import QUOTE_NOT_FOUND, find_quote, to_verdict

EN = "The warranty is void if the seal is broken."
RU = "Гарантия не действует, если пломба повреждена. Срок гарантии — 5 лет."


def supported(quote: str, source: str):
    return to_verdict("claim", "claim", RawVerdict(0, "supported", (0,), quote, "stated"), [0], [source], full=True)


REVERSED = [
    ("The warranty is not void if the seal is broken.", EN),  # a negation added
    ("The warranty is void if the seal is not broken", EN),
    ("The warranty isn't void if the seal is broken", EN),
    ("The warranty is never void if the seal is broken", EN),
    ("The warranty is void unless the seal is broken", EN),
    ("The warranty is valid if the seal is broken.", EN),  # a word swapped
    ("The warranty is void if the seal is intact", EN),
    ("The guarantee is void if the seal is broken", EN),
    ("Гарантия действует, если пломба повреждена", RU),  # "не" dropped
    ("Гарантия не действует, если пломба не повреждена", RU),  # "не" added
    ("Гарантия не действует, если пломба цела", RU),
    ("Гарантия не действует, если печать повреждена", RU),
    ("Гарантия не действует без пломбы повреждённой", RU),
]


@pytest.mark.parametrize("quote,source", REVERSED)
def test_a_quote_that_reverses_the_source_is_not_found(quote, source):
    assert find_quote(quote, [source]) is None
    v = supported(quote, source)
    assert v.label == "unsupported" and v.evidence is None
    assert v.reason.startswith(QUOTE_NOT_FOUND)


FUZZY_BUT_SAME = [
    ("warranty is void if seal is broken", EN),  # words dropped
    ("The warranty is void, if the seal is broken", EN),
    ("The warranty is voided if the seal is broken", EN),
    ("Гарантия не действует если пломба повреждена", RU),  # punctuation dropped
    ("гарантию не действует, если пломбы повреждена", RU),  # inflection
    ("Срок гарантии 5 лет", RU),  # the dash dropped
    ("Срок гарантия — 5 лет", RU),
]


@pytest.mark.parametrize("quote,source", FUZZY_BUT_SAME)
def test_a_fuzzy_quote_that_says_the_same_still_stands(quote, source):
    hit = find_quote(quote, [source])
    assert hit is not None and hit[3] == "fuzzy", hit
    v = supported(quote, source)
    assert v.label == "supported" and v.features["quote_found"] == 0.5


def test_numbers_are_still_checked_in_a_fuzzy_match():
    assert find_quote("Срок гарантии 7 лет", [RU]) is None


@pytest.mark.parametrize("module", [quote_words, wording])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_timeout_message_names_the_deadline(fake):
    fake.push({"hang": 1.5})
    client = ChatClient(LLMConfig(model="tiny", base_url=fake.url, timeout=0.3, max_retries=0))
    with pytest.raises(JudgeCallError) as err:
        asyncio.run(client.chat([{"role": "user", "content": "hi"}]))
    text = str(err.value)
    assert "(;" not in text and "whole-request deadline; RAGAUGE_LLM_TIMEOUT sets it" in text, text


def test_failed_call_counts_agree_with_the_failed_requests(fake, stub_offline):
    """A new endpoint that answers 500 to everything: two 500s are taken as format rejections (the client
    drops json_schema, then json_object), the other six are failures. Once: "HTTP 500 x6" beside "after 8 attempts"."""
    fake.push(*[{"status": 500}] * 20)

    async def no_sleep(_):
        return None

    j = LLMJudge(LLMConfig(model="tiny", base_url=fake.url, max_retries=5), cache=None, offline=stub_offline,
                 sleep=no_sleep)
    j.claims(["The fee is 10 dollars."], ["en"])
    err = str(j.no_verdict_error())
    failed = int(re.search(r"HTTP 500 x(\d+)", err).group(1))
    attempts = int(re.search(r"failed after (\d+) attempts?", err).group(1))
    assert failed == attempts == 6, err
    assert "8 requests in all" in err, err


def test_budget_message_says_1_call(fake, tmp_path, stub_offline):
    async def no_sleep(_):
        return None

    budget = Budget(max_calls=1)
    cfg = LLMConfig(model="tiny", base_url=fake.url, concurrency=1, structured="none")
    j = LLMJudge(cfg, cache=str(tmp_path / "c.sqlite"), offline=stub_offline, sleep=no_sleep, budget=budget)
    with pytest.raises(BudgetExceededError) as err:
        j.claims(["Item 1 costs 1 dollar.", "Item 2 costs 2 dollars."], ["en", "en"])
    assert budget.spend.calls == 1
    assert "Spent so far: 1 call," in str(err.value), str(err.value)
