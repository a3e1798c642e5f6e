"""``GET /api/metrics?window=1h``: latency, retrieval and TTFT percentiles per hour/day, hand-computed."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from ragauge.errors import InputError  # noqa: E402
from ragauge.serve.app import create_app  # noqa: E402
from ragauge.serve.timeseries import parse_window  # noqa: E402

from .conftest import TOKEN  # noqa: E402
from .test_app import batch, make_trace  # noqa: E402

AUTH = {"Authorization": f"Bearer {TOKEN}"}
HOUR = 3600.0
T0 = 1_700_000_000.0 - (1_700_000_000.0 % 86400)  # midnight UTC


def _trace(i: int, at: float, latency: float, retrieval: float | None, ttft: float | None, version="1.0"):
    spans = []
    if retrieval is not None:
        spans.append({"kind": "retrieval", "query": "q", "duration_ms": retrieval,
                      "chunks": [{"id": "c1", "text": "Some text."}]})
    gen = {"kind": "generation", "answer": f"answer {i}"}
    if ttft is not None:
        gen["ttft_ms"] = ttft
    spans.append(gen)
    return make_trace(i, start_time=at, duration_ms=latency, spans=spans, app_version=version)


@pytest.fixture
def client(db_url):
    app = create_app(db=db_url, token=TOKEN, scoring=False, alerts=False)
    with TestClient(app) as c:
        # hour 0: latencies 100, 200, 300, 400 (one without a TTFT); hour 2: one request; hour 1: none
        traces = [_trace(1, T0 + 10, 100, 10, 50), _trace(2, T0 + 600, 200, 20, 60),
                  _trace(3, T0 + 1200, 300, 30, None), _trace(4, T0 + 3599, 400, 40, 80),
                  _trace(5, T0 + 2 * HOUR + 5, 1000, None, 500),
                  _trace(6, T0 + 30, 9999, 1, 1, version="2.0")]
        assert c.post("/api/traces", json=batch(*traces), headers=AUTH).status_code == 200
        yield c


def test_latency_percentiles_per_hour(client):
    r = client.get("/api/metrics", params={"window": "1h", "app_name": "bot", "app_version": "1.0",
                                           "since": T0, "until": T0 + 3 * HOUR}, headers=AUTH)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["window_s"] == 3600
    assert [b["start"] for b in body["buckets"]] == [T0, T0 + 2 * HOUR]  # the empty hour is not listed
    first, third = body["buckets"]
    assert first["n"] == 4 and first["end"] == T0 + HOUR
    # numpy's linear interpolation over 100, 200, 300, 400: P50 = 250, P95 = 385, P99 = 397
    assert first["latency_ms"] == {"p50": 250.0, "p95": pytest.approx(385.0), "p99": pytest.approx(397.0),
                                   "n": 4, "missing": 0}
    assert first["retrieval_ms"]["p50"] == pytest.approx(25.0)
    # TTFT of 50, 60, 80 (one request did not measure it): P50 = 60, counted as missing, not as 0
    assert first["ttft_ms"]["p50"] == pytest.approx(60.0) and first["ttft_ms"]["missing"] == 1
    assert third["n"] == 1 and third["latency_ms"]["p99"] == 1000.0
    assert third["retrieval_ms"] == {"p50": None, "p95": None, "p99": None, "n": 0, "missing": 1}


def test_a_day_window_takes_every_version_of_the_app(client):
    r = client.get("/api/metrics", params={"window": "1d", "since": T0, "until": T0 + 86400}, headers=AUTH)
    (day,) = r.json()["buckets"]
    assert day["n"] == 6 and day["latency_ms"]["p50"] == pytest.approx(350.0)


@pytest.mark.parametrize("window", ["1 hour", "0h", "45s", "40d", ""])
def test_a_bad_window_is_a_422_that_says_how(client, window):
    r = client.get("/api/metrics", params={"window": window}, headers=AUTH)
    assert r.status_code == 422
    assert "window" in r.json()["detail"]


def test_metrics_need_the_token(client):
    assert client.get("/api/metrics?window=1h").status_code == 401


def test_too_many_buckets_is_refused():
    with pytest.raises(InputError, match="buckets"):
        from ragauge.serve.timeseries import windowed_metrics
        windowed_metrics(None, window="1m", since=0, until=10_000_000)  # type: ignore[arg-type]
    assert parse_window("2d") == 172800


def test_the_overview_shows_latency_per_hour_and_per_day(db_url, monkeypatch):
    import time as _time

    from .test_dashboard import _app, login, send, trace

    now = _time.time()
    hour = int(now // 3600) * 3600
    with TestClient(_app(db_url), follow_redirects=False) as c:
        send(c, *[trace(f"h{i}", duration=d, start_time=hour + 60 + i) for i, d in enumerate((100.0, 300.0))],
             trace("old", duration=5000.0, start_time=hour - 3 * 3600 + 5))
        login(c)
        page = c.get("/?app=bot&version=1.0").text
        table = page.split('class="grid timings"')[1].split("</table>")[0]
        rows = table.split("<tr>")[2:]  # newest hour first
        assert _time.strftime("%Y-%m-%d %H:00", _time.gmtime(hour)) in rows[0]
        assert "<td>2</td><td>200 ms</td>" in rows[0]  # P50 of 100 and 300
        assert "<td>1</td><td>5000 ms</td>" in rows[1]
        day = c.get("/?app=bot&version=1.0&per=1d").text.split('class="grid timings"')[1]
        same_day = (hour - 3 * 3600) // 86400 == hour // 86400
        assert ("<td>3</td><td>300 ms</td>" if same_day else "<td>2</td><td>200 ms</td>") in day
        assert c.get("/?app=bot&per=7x").status_code == 400
