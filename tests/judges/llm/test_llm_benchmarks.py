"""The benchmark helpers: the counting proxy of benchmarks/llm_calls.py meters exactly what the judge
paid for, and benchmarks/cascade.py's accuracy is hand-checkable."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCH))
    try:
        import cascade
        import llm_calls

        yield cascade, llm_calls
    finally:
        sys.path.remove(str(BENCH))


def test_accuracy_by_hand(bench):
    cascade, _ = bench
    # gold: 2 hallucinated, 2 not; predicted: one of each right, one unscored
    got = cascade.accuracy([True, False, False, None], [True, True, False, False])
    assert got == {"scored": 3, "accuracy": round(2 / 3, 3), "balanced_accuracy": 0.75}
    assert cascade.accuracy([None], [True])["accuracy"] is None


def test_proxy_meters_the_judges_calls_and_tokens_by_tag(bench, fake, stub_offline):
    _, llm_calls = bench
    import ragauge
    from ragauge.judges.llm import LLMConfig, LLMJudge

    meter = llm_calls.Meter()
    server, url = llm_calls.start_proxy(fake.url, meter)
    try:
        judge = LLMJudge(LLMConfig(model="tiny", base_url=url, headers={"X-Bench-Tag": "t|a"}), cache=None,
                         offline=stub_offline)
        s = {"id": "a", "question": "Terms?", "answer": "The warranty is five years.", "language": "en",
             "contexts": ["The warranty is five years."]}
        res = ragauge.evaluate([s], metrics=["faithfulness"], profile=None, judge=judge, n_resamples=50)
    finally:
        server.shutdown()
    t = llm_calls.tally(meter.select("t|"))
    usage = res.to_dict()["usage"]["total"]
    assert t["calls"] == len(fake.requests) == usage["calls"] == 2
    assert t["prompt_tokens"] == usage["prompt_tokens"] and t["completion_tokens"] == usage["completion_tokens"]


def test_proxy_gives_llama_cpp_the_completion_limit_langchain_sends(bench):
    """langchain-openai sends max_completion_tokens, which llama-cpp-python ignores: unbounded replies
    would inflate the peer's tokens. The proxy copies it to max_tokens."""
    import json

    _, llm_calls = bench
    assert json.loads(llm_calls.same_limit(b'{"max_completion_tokens": 5}'))["max_tokens"] == 5
    assert json.loads(llm_calls.same_limit(b'{"max_tokens": 3, "max_completion_tokens": 9}'))["max_tokens"] == 3
    assert llm_calls.same_limit(b"not json") == b"not json"
