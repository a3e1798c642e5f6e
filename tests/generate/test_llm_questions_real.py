"""LLM question generation against the real local llama.cpp server the judge tests use (SmolLM2-135M).

A tiny model writes poor questions and often malformed JSON on purpose: the test checks that the
pipeline survives real replies and reports them honestly (no crash, every candidate accounted for,
failures with their raw reply), not the quality of the questions. Skips, saying what to install,
when llama-cpp-python[server] or the model package is missing (see tests/judges/llm/test_real_server.py).
"""

from __future__ import annotations


import pytest

from ragauge.generate.chunking import Chunk  # noqa: E402
from ragauge.generate.llm_questions import generate_with_llm  # noqa: E402
from ragauge.judges.llm import LLMConfig  # noqa: E402
from ragauge.judges.llm import client as client_mod  # noqa: E402

pytestmark = pytest.mark.slow

TEXT = "Гарантия на металлочерепицу составляет 15 лет. Доставка по Москве бесплатная."


def test_tiny_real_model_survives_and_reports_honestly(llama_url, tmp_path):
    server = llama_url
    client_mod._ENDPOINTS.clear()
    chunk = Chunk(id="roof#1", doc_id="roof", text=TEXT, section=(), start=0, end=len(TEXT), kind="text", ordinal=0,
                  title="Кровля")
    cfg = LLMConfig(model="smollm2-135m", base_url=server, api_key="none", timeout=300, max_tokens=160,
                    concurrency=1, max_retries=2, backoff_base=0.5)
    cases, s = generate_with_llm([chunk], n=1, judge_spec=cfg, cache=str(tmp_path / "c.sqlite"), overgenerate=1.0)
    rejected = sum(sum(s["rejected"][k].values()) for k in ("rules", "critic", "checks"))
    assert s["candidates"] == s["generated"] + s["surplus"] + rejected + s["unjudged"]
    assert len(cases) == s["generated"] <= 1 and s["short_of_target"] == 1 - len(cases)
    assert s["structured_output"] == "json_object"  # llama-cpp-python answers json_schema with HTTP 500
    assert 1 <= s["calls"] <= 4 and s["prompt_tokens"] > 0  # generation (+ one re-ask), critic (+ one re-ask)
    failed = sum(s["unparseable"].values()) + sum(s["call_failed"].values())
    assert failed == len(s["failures"]) and all(f["error"] for f in s["failures"])
    if s["candidates"] == 0:  # the generation reply never parsed: said so, with the raw reply
        assert s["unparseable"].get("generate_questions") == 1 or s["call_failed"].get("generate_questions") == 1
    for c in cases:
        assert c.question and c.relevant_ids == ("roof#1",) and c.extra["llm"]["model"] == "smollm2-135m"
    again, s2 = generate_with_llm([chunk], n=1, judge_spec=cfg, cache=str(tmp_path / "c.sqlite"), overgenerate=1.0)
    assert s2["calls"] == 0 and [c.to_row() for c in again] == [c.to_row() for c in cases]  # cached: free, same

