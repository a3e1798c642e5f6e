"""The LLM generator end to end against a real llama.cpp server (llama-cpp-python + SmolLM2-135M) on loopback.

SmolLM2-135M is a poor answerer on purpose: the point is that a real model's replies go through the one
HTTP client, the rag_answer prompt, the citation split and the guard's post-check without crashing.
Skips, saying what is missing, when llama-cpp-python[server] or the model package is absent.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

def test_llm_generator_answers_through_the_client_and_the_guard(llama_url):
    llm_url = llama_url
    from ragauge.judges.llm.config import LLMConfig
    from ragauge.rag import ReferenceRAG

    records = [{"id": "roof", "title": "Гарантия", "text": "Гарантия на кровельные работы составляет 5 лет."},
               {"id": "office", "title": "Офис", "text": "Офис работает с 9 до 18 по будням."}]
    from ragauge.rag.llm import LLMGenerator

    cfg = LLMConfig(model="smollm2-135m", base_url=llm_url, api_key="none", timeout=300, max_retries=1)
    rag = ReferenceRAG.from_records(records, llm=LLMGenerator(cfg, max_tokens=48), k=1)  # short replies: fast on CPU
    sample = rag.answer("Какая гарантия на кровлю?")
    assert isinstance(sample.answer, str) and sample.answer.strip()
    assert sample.metadata["rag"]["generator"] == "llm"
    assert sample.metadata["rag"]["prompt"] == "rag_answer.ru@1"
    assert sample.contexts[0].id == "roof" and sample.latency_ms >= sample.retrieval_ms > 0

    result = rag.guarded(score_threshold=None, grade=False, post_check="flag").run("Какая гарантия на кровлю?", k=1)
    assert result.kind == "answer" and result.stage("post_check").decision in ("pass", "flag", "unscored")
