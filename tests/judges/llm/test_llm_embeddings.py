"""Answer relevancy's cosines from an OpenAI-compatible /embeddings endpoint (RAGAUGE_LLM_EMBEDDINGS_MODEL)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from llm_fake_server import FakeOpenAI, StubOffline, bag_of_words_vector
from ragauge.errors import BudgetExceededError, ConfigError, JudgeError
from ragauge.judges.llm import Budget, LLMConfig, LLMJudge, unscored_of
from ragauge.judges.llm.config import LLMConfig as Cfg

QUESTIONS = ["How long is the warranty?", "Is delivery free?"]
ANSWERS = ["The warranty is two years.", "Delivery in Moscow is free."]
GENERATED = ["What is the warranty?", "How long is the warranty?"]  # what the fake server's 'LLM' asks back


def _cos(a, b):
    u, v = np.array(bag_of_words_vector(a)), np.array(bag_of_words_vector(b))
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


def _judge(fake, tmp_path=None, **cfg):
    config = LLMConfig(model="chat-m", base_url=fake.url, embeddings_model="emb-m", max_retries=1, backoff_base=0,
                       **cfg)
    cache = str(tmp_path / "cache.sqlite") if tmp_path else None
    return LLMJudge(config, cache=cache, offline=StubOffline(cosine=0.123))


def _embedding_requests(fake):
    return [(p, r) for p, r in zip(fake.paths, fake.requests) if p.endswith("/embeddings")]


def test_relevancy_uses_the_endpoint_embeddings_not_the_offline_embedder(fake):
    judge = _judge(fake)
    got = judge.relevance(QUESTIONS, ANSWERS)
    for q, value in zip(QUESTIONS, got):
        expected = min(1.0, max(0.0, sum(_cos(q, g) for g in GENERATED) / len(GENERATED)))
        assert value == pytest.approx(expected)
    assert got[0] != pytest.approx(0.123)  # the stub offline cosine would give 0.123
    sent = _embedding_requests(fake)
    assert len(sent) == 1 and sent[0][1]["model"] == "emb-m"
    # distinct texts only: 2 questions + 2 generated questions, once each
    assert sorted(sent[0][1]["input"]) == sorted(set(QUESTIONS + GENERATED))
    prov = judge.provenance().details
    assert prov["embeddings"] == {"model": "emb-m", "endpoint": fake.url}
    assert "relevance embeddings" not in prov["delegated_to_offline"]


def test_batches_cache_and_budget(fake, tmp_path):
    judge = _judge(fake, tmp_path, embeddings_batch=2)
    first = judge.relevance(QUESTIONS, ANSWERS)
    sent = _embedding_requests(fake)
    assert sorted(len(r["input"]) for _, r in sent) == [1, 2]  # 3 distinct texts in batches of 2
    usage = judge.usage_report()
    assert usage["by_prompt"]["embeddings"]["calls"] == 2
    assert judge.budget.spend.calls == 2 + 2  # two question generations + two embeddings requests
    judge.close()
    again = _judge(fake, tmp_path, embeddings_batch=2)  # same cache file: nothing paid twice
    before = len(fake.paths)
    assert again.relevance(QUESTIONS, ANSWERS) == pytest.approx(first)
    assert len(fake.paths) == before and again.budget.spend.calls == 0
    again.close()


def test_a_budget_limit_stops_embeddings_too(fake):
    judge = LLMJudge(LLMConfig(model="chat-m", base_url=fake.url, embeddings_model="emb-m"), cache=None,
                     offline=StubOffline(), budget=Budget(max_calls=2))
    with pytest.raises(BudgetExceededError, match="max_calls=2"):
        judge.relevance(QUESTIONS, ANSWERS)  # 2 calls for the questions, the embeddings call is the 3rd


def test_transient_errors_are_retried_and_a_dead_endpoint_leaves_the_sample_unscored(fake):
    judge = _judge(fake)
    judge.relevance(QUESTIONS[:1], ANSWERS[:1])  # warm: the question generation is cached in memory
    fake.push({"status": 429, "headers": {"Retry-After": "0"}})
    ok = judge.relevance(["Is delivery free?"], ["Delivery is free."])
    assert not math.isnan(ok[0]) and unscored_of(ok[0]) is None
    for _ in range(4):
        fake.push({"status": 503})
    got = judge.relevance(["Where is the shop?"], ["In Moscow."])
    u = unscored_of(got[0])
    assert u is not None and "503" in u.error


def test_a_reply_with_the_wrong_number_of_vectors_is_not_used(fake):
    judge = _judge(fake, max_tokens=64)
    judge.relevance(QUESTIONS[:1], ANSWERS[:1])
    fake.push({"content": '{"questions": ["Q one?"], "noncommittal": false}'},
              {"embeddings": [[1.0, 0.0]]}, {"embeddings": [[1.0, 0.0]]})
    got = judge.relevance(["Where?"], ["Here."])
    assert unscored_of(got[0]) is not None and "expected 2 embeddings" in unscored_of(got[0]).error


def test_an_all_zero_vector_is_unscored_not_a_cosine_of_zero(fake):
    judge = _judge(fake)
    fake.push({"content": '{"questions": ["Q one?"], "noncommittal": false}'},
              {"embeddings": [[0.0, 0.0], [1.0, 0.0]]})
    got = judge.relevance(["Where?"], ["Here."])
    assert "all-zero" in unscored_of(got[0]).error


def test_a_wrong_embeddings_model_is_a_configuration_error(fake):
    judge = _judge(fake)
    fake.push({"content": '{"questions": ["Q one?"], "noncommittal": false}'},
              {"status": 404, "body": '{"error": "model emb-m not found"}'})
    with pytest.raises(JudgeError, match="emb-m"):
        judge.relevance(["Where?"], ["Here."])


def test_env_vars_and_spec_string(monkeypatch):
    monkeypatch.setenv("RAGAUGE_LLM_EMBEDDINGS_MODEL", "text-embedding-3-small")
    monkeypatch.setenv("RAGAUGE_LLM_EMBEDDINGS_BASE_URL", "http://127.0.0.1:9/v1?key=sk-1")
    judge = LLMJudge.from_spec("openai:gpt-4o-mini@http://127.0.0.1:8/v1", cache=None)
    assert judge.config.embeddings_model == "text-embedding-3-small"
    assert judge.config.embeddings_endpoint == "http://127.0.0.1:9/v1?key=***"  # redacted where shown
    assert "sk-1" not in repr(judge.config)
    monkeypatch.delenv("RAGAUGE_LLM_EMBEDDINGS_BASE_URL")
    assert Cfg.from_env(model="m", base_url="http://h/v1").embeddings_endpoint == "http://h/v1"
    with pytest.raises(ConfigError, match="EMBEDDINGS_BASE_URL"):
        Cfg(model="m", embeddings_model="e", embeddings_base_url="ftp://x")
    monkeypatch.delenv("RAGAUGE_LLM_EMBEDDINGS_MODEL")
    assert Cfg.from_env(model="m").embeddings_endpoint is None


def test_without_an_embeddings_model_nothing_is_sent_to_embeddings(fake):
    judge = LLMJudge(LLMConfig(model="chat-m", base_url=fake.url), cache=None, offline=StubOffline(cosine=0.5))
    assert judge.relevance(QUESTIONS, ANSWERS) == [0.5, 0.5]
    assert not _embedding_requests(fake)


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server
