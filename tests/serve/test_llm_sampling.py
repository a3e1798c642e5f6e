"""The LLM judge on a sampled share of traces, with a budget, stored as ``METRIC:llm`` beside the offline
scores: sampling by trace id, the budget never passed, faults explicit, the CLI's options, a real llama.cpp."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

import sqlalchemy as sa  # noqa: E402

from ragauge.cli.serve import build_app, llm_sampler  # noqa: E402
from ragauge.errors import ConfigError  # noqa: E402
from ragauge.judges.spec import make_judge  # noqa: E402
from ragauge.serve.db import make_engine, migrate, scores  # noqa: E402
from ragauge.serve.llm_scoring import LLMSampler, in_sample  # noqa: E402
from ragauge.serve.schema import parse_batch  # noqa: E402
from ragauge.serve.scoring import Scorer  # noqa: E402
from ragauge.serve.store import get_trace, insert_batch  # noqa: E402

from .test_app import batch, make_trace  # noqa: E402
from .test_scoring import QA, needs_offline  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[1] / "judges" / "llm"))
from llm_fake_server import FakeOpenAI  # noqa: E402


@pytest.fixture
def engine(tmp_path):
    e = make_engine(f"sqlite:///{tmp_path / 'llm.db'}")
    migrate(e)
    yield e
    e.dispose()


@pytest.fixture(autouse=True)
def _forget_endpoints(tmp_path, monkeypatch):
    from ragauge.judges.llm import client as client_mod

    monkeypatch.setenv("RAGAUGE_CACHE_DIR", str(tmp_path / "cache"))  # no reply cached by another test or run
    client_mod._ENDPOINTS.clear()
    yield
    client_mod._ENDPOINTS.clear()


def _traces(n: int) -> list[dict]:
    out = []
    for i in range(n):
        q, ctx, ans = QA[i % len(QA)]
        out.append(make_trace(i, question=q, spans=[
            {"kind": "retrieval", "query": q, "chunks": [{"id": f"c{i}", "text": ctx, "score": 0.9}]},
            {"kind": "generation", "answer": f"{ans} (reply {i})"}]))  # distinct: no reply from the cache
    return out


def _rows(engine) -> dict[tuple[str, str], tuple]:
    with engine.connect() as conn:
        return {(r.trace_id, r.metric): (r.value, r.reason, r.judge)
                for r in conn.execute(sa.select(scores.c.trace_id, scores.c.metric, scores.c.value,
                                                scores.c.reason, scores.c.judge))}


def test_the_sample_is_a_share_of_trace_ids_and_always_the_same():
    ids = [f"trace-{i}" for i in range(4000)]
    chosen = [i for i in ids if in_sample(i, 0.1)]
    assert 0.08 < len(chosen) / len(ids) < 0.12
    assert chosen == [i for i in ids if in_sample(i, 0.1)]  # deterministic
    assert set(chosen) <= {i for i in ids if in_sample(i, 0.3)}  # a larger share keeps the smaller one


@needs_offline
def test_the_llm_budget_is_never_passed_and_the_rest_is_unscored_with_the_reason(engine):
    insert_batch(engine, parse_batch(json.dumps(batch(*_traces(6))).encode()))
    with FakeOpenAI() as fake:
        judge = make_judge(f"openai:tiny@{fake.url}", max_calls=3)
        sampler = LLMSampler(judge, name=f"openai:tiny@{fake.url}", share=1.0, metrics=["faithfulness"])
        scorer = Scorer(engine, metrics=["faithfulness"], batch_size=2, llm=sampler)
        while scorer.run_once():
            pass
        assert fake.answered <= 3
    rows = _rows(engine)
    for i in range(6):
        offline = rows[(f"t{i}", "faithfulness")]
        assert offline[0] is not None and offline[2] == "offline"  # every trace keeps its offline score
        assert (f"t{i}", "faithfulness:llm") in rows
    llm = [rows[(f"t{i}", "faithfulness:llm")] for i in range(6)]
    assert llm[0][0] is not None, llm  # the first calls were paid and scored
    spent = [r for v, r, _ in llm if v is None]
    assert spent and all("budget" in r for r in spent)
    assert sampler.usage()["spent"]["calls"] <= 3 and sampler.usage()["budget_stopped"]
    item = get_trace(engine, "t0")
    assert set(item["scores"]) == {"faithfulness", "faithfulness:llm"}  # the API shows both


class _BrokenJudge:
    """A scripted fault: every judge call fails the way a crashed client would."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("connection refused by 127.0.0.1:9")
        return fail


@needs_offline
def test_an_llm_judge_that_fails_leaves_the_offline_scores_and_says_why(engine):
    insert_batch(engine, parse_batch(json.dumps(batch(*_traces(2))).encode()))
    scorer = Scorer(engine, metrics=["faithfulness"],
                    llm=LLMSampler(_BrokenJudge(), name="openai:tiny", share=1.0, metrics=["faithfulness"]))
    scorer.run_once()
    rows = _rows(engine)
    for i in range(2):
        assert rows[(f"t{i}", "faithfulness")][0] is not None
        value, reason, name = rows[(f"t{i}", "faithfulness:llm")]
        assert value is None and "connection refused" in reason and name == "openai:tiny"


def _args(**over) -> argparse.Namespace:
    base = dict(host="127.0.0.1", port=8501, db=None, metrics=None, no_scoring=False, score_batch=16,
                score_lease=300.0, max_body_mb=10.0, profile="none", alert_window=200, alert_min=30,
                alert_webhook=None, alert_interval=30.0, no_alerts=True, public_url=None, log_level="info",
                llm_judge=None, llm_share=0.1, llm_max_calls=None, llm_max_tokens=None, llm_max_usd=None,
                llm_prices=None)
    base.update(over)
    return argparse.Namespace(**base)


@pytest.mark.parametrize("over, message", [
    ({"llm_judge": "openai:m@http://127.0.0.1:9/v1"}, "budget"),
    ({"llm_judge": "openai:m@http://127.0.0.1:9/v1", "llm_max_calls": 5, "llm_share": 0}, "--llm-share"),
    ({"llm_judge": "openai:m@http://127.0.0.1:9/v1", "llm_max_calls": 5, "no_scoring": True}, "--no-scoring"),
    ({"llm_judge": "offline", "llm_max_calls": 5}, "LLM judge"),
    ({"llm_max_calls": 5}, "--llm-judge"),
    ({"llm_judge": "openai:m@http://127.0.0.1:9/v1", "llm_max_usd": 1.0}, "--llm-prices"),
])
def test_serve_refuses_an_llm_judge_without_a_budget_or_with_odd_options(over, message):
    with pytest.raises(ConfigError, match=message):
        llm_sampler(_args(**over), ("faithfulness",))


def test_serve_builds_the_sampled_llm_judge(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGAUGE_TOKEN", "t" * 20)
    app = build_app(_args(db=f"sqlite:///{tmp_path / 'a.db'}", llm_judge="openai:m@http://user:secret@127.0.0.1:9/v1",
                          llm_max_calls=50, llm_share=0.25))
    sampler = app.state.scorer.llm
    assert sampler.share == 0.25 and sampler.metrics == ["faithfulness", "answer_relevancy", "context_precision"]
    assert "secret" not in sampler.name and sampler.judge.budget.max_calls == 50


@pytest.mark.slow
@needs_offline
def test_a_real_llama_cpp_judge_scores_the_sample_beside_the_offline_judge(engine, llama_url):
    insert_batch(engine, parse_batch(json.dumps(batch(*_traces(2))).encode()))
    judge = make_judge(f"openai:smollm2-135m@{llama_url}", max_calls=40)
    scorer = Scorer(engine, metrics=["faithfulness"],
                    llm=LLMSampler(judge, name="openai:smollm2-135m", share=1.0, metrics=["faithfulness"]))
    while scorer.run_once():
        pass
    rows = _rows(engine)
    for i in range(2):
        assert rows[(f"t{i}", "faithfulness")][0] is not None
        value, reason, name = rows[(f"t{i}", "faithfulness:llm")]
        assert name == "openai:smollm2-135m"
        assert (value is not None and 0.0 <= value <= 1.0) or reason  # a poor model may not give a verdict
    assert judge.budget.spend.calls <= 40


def test_the_dashboard_shows_the_llm_judges_sample_beside_the_offline_judge(tmp_path, monkeypatch):
    from fastapi.testclient import TestClient

    from .test_dashboard import _app, login, send, store_score, trace

    with TestClient(_app(f"sqlite:///{tmp_path / 'd.db'}"), follow_redirects=False) as c:
        send(c, *[trace(f"r{i}") for i in range(4)])
        for i in range(4):
            store_score(c, f"r{i}", "faithfulness", 1.0)
        with c.app.state.engine.begin() as conn:  # the LLM judge sampled two of them
            conn.execute(scores.insert(), [
                {"trace_id": f"r{i}", "metric": "faithfulness:llm", "value": v, "reason": None,
                 "judge": "openai:tiny", "scored_at": 1.0} for i, v in ((0, 0.5), (1, 0.0))])
        login(c)
        page = c.get("/?app=bot&version=1.0").text
        tile = page.split('data-metric="faithfulness:llm"')[1].split("</div>\n  </div>")[0]
        assert "Faithfulness, LLM judge (sample)" in tile and "0.250" in tile and "n = 2" in tile
        offline = page.split('data-metric="faithfulness"')[1].split("</div>\n  </div>")[0]
        assert "1.000" in offline and "n = 4" in offline
        one = c.get("/requests/r0").text
        assert "faithfulness:llm" in one and "0.500" in one
