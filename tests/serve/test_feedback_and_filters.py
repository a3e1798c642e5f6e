"""User feedback through the API and the SDK; the request list's filters; per-version summaries."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

import httpx  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from ragauge import trace  # noqa: E402
from ragauge.errors import InputError  # noqa: E402
from ragauge.serve import store  # noqa: E402
from ragauge.serve.app import create_app  # noqa: E402
from ragauge.serve.db import scores  # noqa: E402

from .conftest import TOKEN  # noqa: E402
from .test_app import AUTH, batch, make_trace  # noqa: E402


@pytest.fixture
def client(db_url):
    app = create_app(db=db_url, token=TOKEN, scoring=False)
    with TestClient(app) as c:
        yield c


def _score(client, trace_id: str, metric: str, value: float | None) -> None:
    with client.app.state.engine.begin() as conn:
        conn.execute(scores.insert().values(trace_id=trace_id, metric=metric, value=value,
                                            reason=None if value is not None else "no contexts",
                                            judge="offline", scored_at=time.time()))


def test_thumbs_down_with_a_comment_is_stored_and_listed(client):
    client.post("/api/traces", json=batch(make_trace(1), make_trace(2)), headers=AUTH)
    r = client.post("/api/traces/t1/feedback", json={"rating": "down", "comment": "Ответ неверный: 14 дней, не 28"},
                    headers=AUTH)
    assert r.status_code == 200 and r.json()["rating"] == -1
    items = {i["id"]: i for i in client.get("/api/traces", headers=AUTH).json()["items"]}
    fb = items["t1"]["feedback"]
    assert fb["rating"] == -1 and fb["comment"] == "Ответ неверный: 14 дней, не 28"
    assert (fb["up"], fb["down"]) == (0, 1)
    assert items["t2"]["feedback"] is None
    # the user changes their mind: the newest is the trace's feedback, both are kept
    client.post("/api/traces/t1/feedback", json={"rating": "up"}, headers=AUTH)
    full = client.get("/api/traces/t1", headers=AUTH).json()
    assert full["feedback"]["rating"] == 1 and (full["feedback"]["up"], full["feedback"]["down"]) == (1, 1)
    assert [f["rating"] for f in full["feedback_all"]] == [1, -1]


@pytest.mark.parametrize("body, where", [
    ({"rating": "meh"}, "rating"), ({"rating": True}, "boolean"), ({}, "rating: Field required"),
    ({"rating": "up", "comment": "x" * 5001}, "comment"), ({"rating": "up", "stars": 5}, "stars"),
])
def test_bad_feedback_is_refused_with_the_field(client, body, where):
    client.post("/api/traces", json=batch(make_trace(1)), headers=AUTH)
    r = client.post("/api/traces/t1/feedback", json=body, headers=AUTH)
    assert r.status_code == 422 and where in r.json()["detail"]
    assert store.feedback_of(client.app.state.engine, "t1") == []


def test_feedback_needs_the_token_and_a_stored_trace(client):
    client.post("/api/traces", json=batch(make_trace(1)), headers=AUTH)
    assert client.post("/api/traces/t1/feedback", json={"rating": "up"}).status_code == 401
    r = client.post("/api/traces/nope/feedback", json={"rating": "up"}, headers=AUTH)
    assert r.status_code == 404 and "no trace" in r.json()["detail"]


def test_filters_of_the_request_list(client):
    guard = lambda d: {"kind": "guard", "decision": d}  # noqa: E731
    traces = [
        make_trace(1),                                                     # fine
        make_trace(2),                                                     # low faithfulness
        make_trace(3, answer="", spans=[guard("no_answer")]),              # no answer (guard)
        make_trace(4, spans=[guard("clarify")], answer="Which year do you mean?"),  # clarifying question
        make_trace(5, duration_ms=4500.0),                                 # slow
        make_trace(6),                                                     # thumbs down
        make_trace(7, status="error", error="TimeoutError"),               # failed request
        make_trace(8, spans=[]),                                           # no generation at all: no answer
    ]
    client.post("/api/traces", json=batch(*traces), headers=AUTH)
    _score(client, "t1", "faithfulness", 0.95)
    _score(client, "t2", "faithfulness", 0.40)
    _score(client, "t3", "faithfulness", None)
    client.post("/api/traces/t6/feedback", json={"rating": "down"}, headers=AUTH)
    client.post("/api/traces/t1/feedback", json={"rating": "up"}, headers=AUTH)

    def ids(**params):
        r = client.get("/api/traces", params={"limit": 100, **params}, headers=AUTH)
        assert r.status_code == 200, r.text
        return sorted(i["id"] for i in r.json()["items"])

    assert ids(filter="low_faithfulness") == ["t2"]
    assert ids(filter="low_faithfulness", below=0.99) == ["t1", "t2"]
    assert ids(filter="no_answer") == ["t3", "t8"]
    assert ids(filter="clarifying") == ["t4"]
    assert ids(filter="slow") == ["t5"]
    assert ids(filter="slow", slow_ms=10) == ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"]
    assert ids(filter="negative_feedback") == ["t6"]
    assert ids(filter="error") == ["t7"]
    assert store.count_traces(client.app.state.engine, filter="no_answer") == 2
    r = client.get("/api/traces", params={"filter": "sad"}, headers=AUTH)
    assert r.status_code == 422 and "low_faithfulness" in r.json()["detail"]
    page1 = client.get("/api/traces", params={"limit": 3}, headers=AUTH).json()["items"]
    page2 = client.get("/api/traces", params={"limit": 3, "offset": 3}, headers=AUTH).json()["items"]
    assert not {i["id"] for i in page1} & {i["id"] for i in page2} and len(page2) == 3


def test_version_summary_has_means_with_intervals_latency_and_feedback(client):
    old = [make_trace(i, app_version="1.2", duration_ms=100.0 + i) for i in range(10)]
    new = [make_trace(i, app_version="1.3", duration_ms=50.0) for i in range(10, 16)]
    client.post("/api/traces", json=batch(*old, *new), headers=AUTH)
    for i in range(10):
        _score(client, f"t{i}", "faithfulness", 0.5 + i / 20)
    for i in range(10, 16):
        _score(client, f"t{i}", "faithfulness", 0.9 if i % 2 else None)
    client.post("/api/traces/t3/feedback", json={"rating": "down"}, headers=AUTH)
    got = {v["app_version"]: v for v in client.get("/api/summary", headers=AUTH).json()["versions"]}
    a, b = got["1.2"], got["1.3"]
    assert (a["n"], b["n"]) == (10, 6)
    fa = a["metrics"]["faithfulness"]
    assert fa["mean"] == pytest.approx(sum(0.5 + i / 20 for i in range(10)) / 10)
    assert fa["low"] < fa["mean"] < fa["high"] and fa["n"] == 10 and fa["unscored"] == 0
    fb = b["metrics"]["faithfulness"]
    assert fb["mean"] == pytest.approx(0.9) and fb["n"] == 3 and fb["unscored"] == 3
    assert a["latency_ms"]["p50"] == pytest.approx(104.5) and b["latency_ms"]["p99"] == pytest.approx(50.0)
    assert a["feedback"] == {"up": 0, "down": 1} and b["feedback"] == {"up": 0, "down": 0}


def test_sdk_feedback_reaches_the_collector(live, tmp_path):
    server = live(lambda: create_app(db=f"sqlite:///{tmp_path}/a.db", token=TOKEN, scoring=False))
    server.start(server.reserved)
    trace.shutdown(0.5)
    trace.configure(server.url, token=TOKEN, app_name="bot", flush_interval=0.05)
    try:
        with trace.request("Где офис?") as t:
            t.span("generation", answer="В Москве.")
        # right after the request: the SDK delivers the trace first, then the feedback
        assert trace.feedback(t, "down", "офис в Казани", user="u7") is True
        assert trace.feedback(t.id, 1) is True
        with pytest.raises(InputError, match="rating"):
            trace.feedback(t, "5 stars")
        assert trace.feedback("never-sent", "up", timeout=0.5) is False
    finally:
        trace.shutdown(0.5)
    r = httpx.get(f"{server.url}/api/traces/{t.id}", headers=AUTH, timeout=10).json()
    assert [(f["rating"], f["comment"], f["user"]) for f in r["feedback_all"]] == [(1, None, None),
                                                                                  (-1, "офис в Казани", "u7")]


def test_feedback_without_configure_is_a_quiet_no(monkeypatch):
    trace.shutdown(0.1)
    assert trace.feedback("abc", "up") is False


def test_outcome_column_is_filled_at_ingest(client):
    client.post("/api/traces", json=batch(make_trace(1, metadata={"outcome": "blocked"})), headers=AUTH)
    with client.app.state.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT outcome FROM traces")).scalar_one() == "blocked"


def test_sql_looking_text_is_stored_as_text(client):
    nasty = "50% off'); DROP TABLE traces; -- %s %(x)s ?"
    r = client.post("/api/traces", json=batch(make_trace(1, question=nasty, app_name=nasty, tags=[nasty],
                                                         metadata={nasty: nasty})), headers=AUTH)
    assert r.status_code == 200
    client.post("/api/traces/t1/feedback", json={"rating": "down", "comment": nasty}, headers=AUTH)
    item = client.get("/api/traces/t1", headers=AUTH).json()
    assert item["question"] == item["app_name"] == item["tags"][0] == item["feedback"]["comment"] == nasty
    assert item["metadata"] == {nasty: nasty}
    assert [i["id"] for i in client.get("/api/traces", params={"app_name": nasty}, headers=AUTH).json()["items"]] == ["t1"]
