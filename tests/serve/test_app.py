"""The collector's API through FastAPI's TestClient: auth, limits, validation, atomic batches, listing."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
pytest.importorskip("httpx")

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from ragauge.errors import ConfigError  # noqa: E402
from ragauge.serve.app import create_app  # noqa: E402

from .conftest import TOKEN  # noqa: E402

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def make_trace(i: int | str = 1, **over) -> dict:
    t = {"id": f"t{i}", "app_name": "bot", "app_version": "1.0", "question": f"question {i}?",
         "start_time": 1_700_000_000.0 + (i if isinstance(i, int) else 0), "duration_ms": 20.0,
         "spans": [{"kind": "retrieval", "query": "q", "duration_ms": 4.0,
                    "chunks": [{"id": "c1", "text": "Some text.", "score": 0.7, "metadata": {"src": "a"}}]},
                   {"kind": "generation", "answer": f"answer {i}", "ttft_ms": 3.0, "tokens": 7}]}
    t.update(over)
    return t


def batch(*traces) -> dict:
    return {"schema": "ragauge.trace/1", "traces": list(traces)}


@pytest.fixture
def client(db_url):
    app = create_app(db=db_url, token=TOKEN, scoring=False, max_body_bytes=64 * 1024)
    with TestClient(app) as c:
        yield c


def _counts(client) -> dict[str, int]:
    engine = client.app.state.engine
    with engine.connect() as conn:
        return {t: conn.execute(sa.text(f"SELECT COUNT(*) FROM {t}")).scalar_one()
                for t in ("traces", "spans", "score_queue", "scores")}


def test_healthz_needs_no_token(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json()["status"] == "ok"


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}])
def test_token_required_for_ingest_and_api(client, headers):
    r = client.post("/api/traces", json=batch(make_trace()), headers=headers)
    assert r.status_code == 401 and "RAGAUGE_TOKEN" in r.json()["detail"]
    assert client.get("/api/traces", headers=headers).status_code == 401
    assert client.get("/api/status", headers=headers).status_code == 401
    assert _counts(client)["traces"] == 0


def test_ingest_stores_trace_spans_and_queue_entry(client):
    r = client.post("/api/traces", json=batch(make_trace(1), make_trace(2)), headers=AUTH)
    assert r.status_code == 200 and r.json() == {"accepted": 2, "duplicates": 0}
    assert _counts(client) == {"traces": 2, "spans": 4, "score_queue": 2, "scores": 0}
    items = client.get("/api/traces?limit=10", headers=AUTH).json()["items"]
    assert {i["id"] for i in items} == {"t1", "t2"}
    one = next(i for i in items if i["id"] == "t1")
    assert one["answer"] == "answer 1"  # from the generation span
    assert (one["latency_ms"], one["retrieval_ms"], one["ttft_ms"]) == (20.0, 4.0, 3.0)
    assert one["scoring"]["state"] == "pending" and one["scores"] == {}
    full = client.get("/api/traces/t1", headers=AUTH).json()
    assert [s["kind"] for s in full["spans"]] == ["retrieval", "generation"]
    assert full["spans"][0]["chunks"][0] == {"id": "c1", "text": "Some text.", "score": 0.7, "metadata": {"src": "a"}}
    assert client.get("/api/traces/nope", headers=AUTH).status_code == 404
    assert client.get("/api/status", headers=AUTH).json()["scoring"]["queue"]["pending"] == 2


def test_a_resent_trace_is_stored_once(client):
    assert client.post("/api/traces", json=batch(make_trace(1)), headers=AUTH).json()["accepted"] == 1
    r = client.post("/api/traces", json=batch(make_trace(1), make_trace(2), make_trace(2)), headers=AUTH)
    assert r.json() == {"accepted": 1, "duplicates": 2}
    assert _counts(client)["traces"] == 2


@pytest.mark.parametrize("bad, where", [
    ({"spans": [{"kind": "retrieval", "chunks": [{"id": "c"}]}]}, "spans[0].chunks[0].text: Field required"),
    ({"spans": [{"kind": "teleport"}]}, "spans[0]"),
    ({"spans": [{"kind": "generation", "ttft_ms": -1}]}, "spans[0].ttft_ms"),
    ({"id": "has space"}, "id"),
    ({"app_name": ""}, "app_name"),
    ({"surprise": 1}, "surprise: Extra inputs are not permitted"),
])
def test_an_invalid_trace_refuses_the_whole_batch_with_a_reason(client, bad, where):
    r = client.post("/api/traces", json=batch(make_trace(1), make_trace(2), make_trace(3, **bad)), headers=AUTH)
    assert r.status_code == 422
    body = r.json()
    [err] = body["errors"]
    assert err["index"] == 2 and where in err["reason"]
    assert "nothing stored" in body["detail"]
    assert _counts(client) == {"traces": 0, "spans": 0, "score_queue": 0, "scores": 0}


@pytest.mark.parametrize("raw", [b"not json", b'{"traces": {}}', b"[]", b'{"schema": "other/9", "traces": []}',
                                 b'{"traces": [{"id": "a", "app_name": "b", "start_time": NaN}]}'])
def test_a_malformed_body_is_refused_with_a_reason(client, raw):
    r = client.post("/api/traces", content=raw, headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["errors"][0]["reason"]
    assert _counts(client)["traces"] == 0


def test_an_oversized_body_is_refused(client):
    big = make_trace(1, question="x" * 70_000)
    r = client.post("/api/traces", json=batch(big), headers=AUTH)
    assert r.status_code == 413 and "limit" in r.json()["detail"]

    def chunks():  # no Content-Length: the limit is counted while reading
        yield b'{"traces": [{"question": "'
        for _ in range(100):
            yield b"y" * 1024
        yield b'"}]}'

    r = client.post("/api/traces", content=chunks(), headers=AUTH)
    assert r.status_code == 413
    assert _counts(client)["traces"] == 0


def test_list_is_newest_first_with_limit_and_filters(client):
    for i in range(5):
        version = "1.0" if i < 3 else "2.0"
        client.post("/api/traces", json=batch(make_trace(i, app_version=version)), headers=AUTH)
        time.sleep(0.002)
    items = client.get("/api/traces?limit=2", headers=AUTH).json()["items"]
    assert [i["id"] for i in items] == ["t4", "t3"]
    got = client.get("/api/traces?limit=10&app_version=1.0", headers=AUTH).json()
    assert got["count"] == 3
    assert client.get("/api/traces?limit=0", headers=AUTH).status_code == 422
    assert client.get("/api/traces?limit=5000", headers=AUTH).status_code == 422


def test_migrations_run_at_startup_and_again_harmlessly(db_url):
    create_app(db=db_url, token=TOKEN, scoring=False)
    app = create_app(db=db_url, token=TOKEN, scoring=False)  # a restart: already at head
    with app.state.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() == "0003"


def test_no_token_no_server(db_url, monkeypatch):
    monkeypatch.delenv("RAGAUGE_TOKEN", raising=False)
    with pytest.raises(ConfigError, match="RAGAUGE_TOKEN"):
        create_app(db=db_url, scoring=False)


def test_a_bad_db_url_is_a_config_error():
    with pytest.raises(ConfigError, match="database URL"):
        create_app(db="not a url", token=TOKEN)


def test_script_payloads_come_back_as_json_text(client):
    xss = "<script>alert(1)</script>"
    client.post("/api/traces", json=batch(make_trace(1, question=xss, app_name=xss)), headers=AUTH)
    r = client.get("/api/traces", headers=AUTH)
    assert r.headers["content-type"].startswith("application/json")
    assert json.loads(r.text)["items"][0]["question"] == xss
