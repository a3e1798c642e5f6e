"""The quote check of a "supported" verdict (issue 14): a judge's quote of evidence that *is* in the sources
stands however the judge wrote its numbers, quote marks, ellipses, case and spaces; a quote that is not there
still fails with the reason; every finding of a source-by-source verdict counts, not only the first."""

from __future__ import annotations

import json

import pytest

import ragauge
from ragauge.judges.llm import LLMConfig, LLMJudge
from ragauge.judges.llm.parse import RawFindings, RawVerdict
from ragauge.judges.llm.verdicts import QUOTE_NOT_FOUND, find_quote, to_verdict, verdict_from_findings

RU = "Штраф за просрочку составляет 1\u00a0150 рублей в день, ставка — 7,5 % годовых.\nГарантия 5 лет."
EN = "The annual fee is 10,000 dollars and the rate is 7.5% a year.\nThe warranty is 5 years on all roofs."


def supported(quote: str, source: str):
    return to_verdict("claim", "claim", RawVerdict(0, "supported", (0,), quote, "stated"), [0], [source], full=True)


# (quote as the judge wrote it, the source): each is in the source, written differently
LEGIT = [
    # digit groups: plain, no-break, thin and narrow no-break spaces, commas; decimal comma vs point
    ("штраф за просрочку составляет 1150 рублей", RU),
    ("составляет 1 150 рублей", RU),
    ("составляет 1\u2009150 рублей", RU),
    ("составляет 1\u202f150 рублей", RU),
    ("ставка — 7.5 % годовых", RU),
    ("7.5 %", RU),
    ("The annual fee is 10000 dollars", EN),
    ("fee is 10 000 dollars", EN),
    ("the rate is 7,5% a year", EN),
    ("7,5%", EN),
    # quote marks around the quote
    ("«Гарантия 5 лет»", RU),
    ("„Гарантия 5 лет“", RU),
    ('"The warranty is 5 years"', EN),
    ("'The warranty is 5 years'", EN),
    ("“warranty is 5 years”", EN),
    # ellipses: trailing, leading, and an omission in the middle
    ("Штраф за просрочку составляет…", RU),
    ("...the warranty is 5 years", EN),
    ("The annual fee is 10,000 dollars … 5 years on all roofs", EN),
    ("Штраф за просрочку [...] 1150 рублей в день", RU),
    # case, line breaks, runs of spaces, the final full stop
    ("ГАРАНТИЯ  5\nЛЕТ.", RU),
    ("годовых. Гарантия 5 лет", RU),
    ("the WARRANTY is\n5 years.", EN),
    ("the rate is 7.5 % a year", EN),
]


@pytest.mark.parametrize("quote,source", LEGIT)
def test_a_quote_that_is_in_the_source_stands(quote, source):
    v = supported(quote, source)
    assert v.label == "supported", v.reason
    assert v.evidence is not None and v.features["quote_found"] == 1.0


def test_the_evidence_span_is_the_original_text():
    v = supported("«составляет 1 150 рублей…»", RU)
    assert v.evidence.text == "составляет 1\u00a0150 рублей"
    assert find_quote("10000 dollars", [EN]) == (0, EN.index("10,000"), EN.index("10,000") + 14, "normalized")


ABSENT = [
    ("составляет 1 500 рублей", RU),  # another number
    ("ставка — 75 % годовых", RU),  # 7.5 is not 75
    ("«Гарантия 3 года»", RU),
    ("The annual fee is 1,000 dollars", EN),
    ("the rate is 7.25% a year", EN),
    ('"The warranty is 10 years"', EN),
    ("The annual fee is 10,000 dollars … 7 years on all roofs", EN),  # one part of the omission is not there
    ("Delivery is free…", EN),
]


@pytest.mark.parametrize("quote,source", ABSENT)
def test_a_quote_that_is_not_in_the_source_fails_with_the_reason(quote, source):
    v = supported(quote, source)
    assert v.label == "unsupported" and v.evidence is None and v.probability == 0.0
    assert v.reason.startswith(QUOTE_NOT_FOUND) and repr(quote[:80]) in v.reason


@pytest.mark.parametrize("quote", ["5", "да", "«5»", "5%", "…ok…"])
def test_a_short_quote_is_checked_too(quote):
    """Once "accepted unchecked" (review of issue 14): a short quote must be in the sources as a token."""
    assert supported(quote, "Срок: пять лет.").label == "unsupported"
    v = supported(quote, "Ок: да, срок 5% от 5 лет, ok.")
    assert v.label == "supported" and v.evidence is not None


@pytest.mark.parametrize("quote", ["", "   ", "…", '""', "«…»"])
def test_an_empty_quote_is_still_no_evidence(quote):
    assert supported(quote, EN).label == "unsupported"


def test_every_finding_counts_not_only_the_first():
    sources = ["Гарантия на кровлю 5 лет.", "Срок гарантии — 5 лет с даты акта."]
    f = RawFindings(0, ((0, "supported", "гарантия на кровлю 6 лет"), (1, "supported", "«Срок гарантии — 5 лет…»")), "r")
    raw = verdict_from_findings(f, [0, 1], sources)
    v = to_verdict("Гарантия 5 лет.", "Гарантия 5 лет.", raw, [0, 1], sources, full=True)
    assert v.label == "supported" and v.evidence.source == 1
    # neither quote is there: unsupported, and the reason says so
    f = RawFindings(0, ((0, "supported", "гарантия 6 лет"), (1, "supported", "гарантия 7 лет")), "r")
    v = to_verdict("c", "c", verdict_from_findings(f, [0, 1], sources), [0, 1], sources, full=True)
    assert v.label == "unsupported" and QUOTE_NOT_FOUND in v.reason


def test_every_finding_counts_through_the_judge(fake, stub_offline):
    """verify_multi through ``ragauge.evaluate``: the first finding misquotes, the second quotes source 2."""

    def responder(body):
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        system = next((m["content"] for m in body["messages"] if m["role"] == "system"), "")
        if '"findings"' in system:
            return json.dumps({"verdicts": [{"claim": 1, "reason": "both say it", "findings": [
                {"source": 1, "verdict": "supported", "quote": "The fee is $1,000"},
                {"source": 2, "verdict": "supported", "quote": "“the fee: 10 000 dollars…”"}]}]})
        assert "atomic" in system or "answer" in user
        return json.dumps({"claims": ["The fee is 10000 dollars."]})

    fake.responder = responder
    j = LLMJudge(LLMConfig(model="tiny", base_url=fake.url), cache=None, offline=stub_offline)
    rows = [{"id": "q", "question": "What is the fee?", "answer": "The fee is 10000 dollars.",
             "contexts": ["Pricing page.", "The fee: 10,000 dollars a year."]}]
    res = ragauge.evaluate(rows, metrics=["faithfulness"], judge=j, profile=None)
    assert any('"findings"' in json.dumps(r) for r in fake.requests)  # the source-by-source prompt was used
    [claim] = res.to_dict()["samples"][0]["artifacts"]["faithfulness"]["claims"]
    assert claim["verdict"] == "supported" and claim["evidence"]["source"] == 1, claim
    assert res.summary["faithfulness"].value == 1.0
