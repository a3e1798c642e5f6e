"""An LLM judge on Ray: one concurrency limit and one budget for all workers, one shared reply cache (issue 17).

The endpoint is the scripted OpenAI-compatible server of the LLM judge tests, on loopback; the workers are
separate processes, so without the limiter actor each would apply ``concurrency`` and ``max_calls`` on its own.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ragauge.data import load
from ragauge.engine.scoring import score_columns as local_scores
from ragauge.errors import BudgetExceededError
from ragauge.metrics.registry import parse_metrics
from scale_data import mixed_records, write_jsonl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judges" / "llm"))
from llm_fake_server import FakeOpenAI  # noqa: E402


def _spec(url: str, cache: Path, **limits):
    from ragauge.judges.llm.config import LLMConfig
    from ragauge.scale.judge_spec import JudgeSpec

    config = LLMConfig(model="judge-model", base_url=url, concurrency=2, max_retries=0)
    return JudgeSpec("llm", llm=config, cache_path=str(cache), **limits)


def _records(n: int) -> list[dict]:
    return [r for r in mixed_records(4 * n) if r.get("answer")][:n]


def test_two_workers_never_have_more_calls_in_flight_than_the_one_global_limit(ray_cluster, tmp_path):
    from ragauge.scale.ray_engine import score_run

    path = write_jsonl(tmp_path / "s.jsonl", _records(24))
    specs = parse_metrics(["faithfulness"])
    with FakeOpenAI() as fake:
        fake.delay = 0.1  # each call takes a while, so the two workers' calls overlap
        run = score_run(specs, str(path), _spec(fake.url, tmp_path / "replies.sqlite"), workers=2, batch_size=4)
    assert len(run.workers) == 2
    assert fake.answered >= 24  # claims + verdicts for each answer, from both workers
    assert fake.max_in_flight <= 2  # per-worker limits would let 2 x 2 = 4 through
    assert run.llm is not None and run.llm["max_in_flight"] == 2 and run.llm["spend"]["calls"] == fake.answered
    faith = run.columns["faithfulness"]
    assert sum(v is not None for v in faith.values) >= 20


def test_the_budget_holds_for_all_workers_together_and_stops_the_run(ray_cluster, tmp_path):
    from ragauge.scale.ray_engine import score_run

    path = write_jsonl(tmp_path / "s.jsonl", _records(24))
    with FakeOpenAI() as fake, pytest.raises(BudgetExceededError, match="max_calls=5"):
        score_run(parse_metrics(["faithfulness"]), str(path),
                  _spec(fake.url, tmp_path / "replies.sqlite", max_calls=5), workers=2, batch_size=4)
    assert fake.answered <= 5


def test_a_second_run_is_answered_from_the_shared_cache_with_the_same_scores_as_the_local_judge(ray_cluster, tmp_path):
    from ragauge.judges.llm.judge import LLMJudge
    from ragauge.scale.ray_engine import score_run

    path = write_jsonl(tmp_path / "s.jsonl", _records(12))
    specs = parse_metrics(["faithfulness"])
    cache = tmp_path / "replies.sqlite"
    with FakeOpenAI() as fake:
        first = score_run(specs, str(path), _spec(fake.url, cache), workers=2, batch_size=3)
        paid = fake.answered
        second = score_run(specs, str(path), _spec(fake.url, cache), workers=2, batch_size=5)
        assert fake.answered == paid  # every reply came from the cache file both workers share
        local_judge = LLMJudge(_spec(fake.url, cache).llm, cache=str(tmp_path / "local.sqlite"))
        samples = load(path)
        local = local_scores(specs, samples, local_judge)
    assert second.llm["spend"]["calls"] == 0 and second.llm["spend"]["cached"] > 0
    for run in (first, second):
        col = run.columns["faithfulness"]
        assert (col.values, col.reasons, col.artifacts) == (local["faithfulness"].values,
                                                              local["faithfulness"].reasons,
                                                              local["faithfulness"].artifacts)
