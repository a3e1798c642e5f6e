"""Alerts: profile thresholds over the last N scored requests -> a log line and a webhook, once."""

from __future__ import annotations

import json
import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

import httpx  # noqa: E402

from ragauge.serve import store  # noqa: E402
from ragauge.serve.alerts import AlertRule, Alerter, judge_window, rules_from_profile  # noqa: E402
from ragauge.serve.app import create_app  # noqa: E402
from ragauge.serve.db import make_engine, migrate, scores  # noqa: E402
from ragauge.serve.schema import parse_batch  # noqa: E402

from .conftest import TOKEN  # noqa: E402
from .test_app import batch, make_trace  # noqa: E402

AUTH = {"Authorization": f"Bearer {TOKEN}"}
SECRET_HOOK_PATH = "/hooks/T000/B000/s3cr3t-in-the-url"


class Hook:
    """A real local webhook receiver; ``status`` is what it answers."""

    def __init__(self) -> None:
        self.got: list[dict] = []
        self.status = 200
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if outer.status == 200:
                    outer.got.append({"path": self.path, "json": json.loads(body)})
                self.send_response(outer.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}{SECRET_HOOK_PATH}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def hook():
    h = Hook()
    yield h
    h.close()


@pytest.fixture
def engine(db_url):
    e = make_engine(db_url)
    migrate(e)
    yield e
    e.dispose()


_clock = [1_800_000_000.0]


def add_scored(engine, values, *, version="1.3", start=0, metric="faithfulness"):
    """Traces of app 'bot' ``version`` with these scores, each scored after the previous one."""
    ids = [f"v{version}-{start + i}" for i in range(len(values))]
    store.insert_batch(engine, parse_batch(json.dumps(batch(*[make_trace(i, app_version=version) | {"id": tid}
                                                                for i, tid in enumerate(ids)])).encode()))
    with engine.begin() as conn:
        for tid, v in zip(ids, values):
            _clock[0] += 1
            conn.execute(scores.insert().values(trace_id=tid, metric=metric, value=v, judge="offline",
                                                scored_at=_clock[0]))
    return ids


RULE = AlertRule("faithfulness", ">=", 0.85, window=200, min_samples=30)


def test_the_window_fires_only_when_the_whole_interval_is_below():
    assert judge_window([0.3] * 40, RULE).firing
    low = judge_window([0.3] * 40, RULE)
    assert low.high < 0.85 and low.n == 40 and "entirely below 0.85" in low.why
    # mean 0.80 but the interval reaches past 0.85: noise, not an alert
    noisy = judge_window([0.6, 1.0] * 20, RULE)
    assert noisy.mean == pytest.approx(0.8) and noisy.high >= 0.85 and not noisy.firing
    assert not judge_window([0.1] * 29, RULE).firing  # too few
    tox = AlertRule("toxicity", "<=", 0.05, min_samples=30)
    assert judge_window([0.0] * 20 + [1.0] * 20, tox).firing  # half toxic: entirely above 0.05
    assert not judge_window([0.0] * 40, tox).firing


def test_rules_come_from_the_profile_for_the_scored_metrics():
    rules = rules_from_profile("dashboard", ["faithfulness", "answer_relevancy", "context_precision"], window=50)
    assert {(r.metric, r.op, r.value, r.window) for r in rules} == {
        ("faithfulness", ">=", 0.85, 50), ("answer_relevancy", ">=", 0.80, 50), ("context_precision", ">=", 0.70, 50)}
    assert [r.value for r in rules_from_profile("strict", ["faithfulness"])] == [0.95]


def test_fires_once_with_a_link_then_resolves(engine, hook, caplog):
    caplog.set_level(logging.INFO, logger="ragauge.serve.alerts")
    add_scored(engine, [0.95] * 40, version="1.2")  # the old version is fine
    bad = add_scored(engine, [0.2] * 30 + [0.9] * 10, version="1.3")
    alerter = Alerter(engine, [RULE], webhook=hook.url, base_url="http://dash.local:8501")
    events = alerter.check_once()
    assert [(e["status"], e["app_version"]) for e in events] == [("firing", "1.3")]
    [msg] = hook.got
    body = msg["json"]
    assert msg["path"] == SECRET_HOOK_PATH and body["status"] == "firing" and body["rule"] == "faithfulness >= 0.85"
    assert body["n"] == 40 and body["interval"][1] < 0.85 and body["app_name"] == "bot"
    assert body["link"].startswith("http://dash.local:8501/requests?") and "filter=low_score" in body["link"]
    assert set(body["trace_ids"]) <= set(bad[:30]) and len(body["trace_ids"]) == 20
    assert "faithfulness >= 0.85 violated over the last 40" in body["text"]
    # the link's filter finds the offending requests through the API
    ids = {i["id"] for i in store.list_traces(engine, limit=1000, filter="low_score", metric="faithfulness",
                                              below=0.85, app_version="1.3")}
    assert ids == set(bad[:30])
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "FIRING" in warnings[0].getMessage()
    assert "s3cr3t" not in caplog.text  # the webhook URL is a secret
    # de-duplicated: the same state again, and after a restart (state in the database)
    assert alerter.check_once() == []
    assert Alerter(engine, [RULE], webhook=hook.url).check_once() == []
    assert len(hook.got) == 1
    # fixed: 200 good requests push the bad ones out of the window -> resolved, once
    add_scored(engine, [0.97] * 200, version="1.3", start=100)
    assert [e["status"] for e in alerter.check_once()] == ["resolved"]
    assert [m["json"]["status"] for m in hook.got] == ["firing", "resolved"]
    assert alerter.check_once() == []


def test_a_failed_webhook_is_retried_until_it_gets_through(engine, hook, caplog):
    add_scored(engine, [0.1] * 35)
    hook.status = 503
    alerter = Alerter(engine, [RULE], webhook=hook.url)
    assert [e["notified"] for e in alerter.check_once()] == [False]
    assert "HTTP 503" in caplog.text and "s3cr3t" not in caplog.text
    hook.status = 200
    assert [e["notified"] for e in alerter.check_once()] == [True]
    assert [m["json"]["status"] for m in hook.got] == ["firing"]
    assert alerter.check_once() == []


def test_without_a_webhook_it_is_a_log_line(engine, caplog):
    add_scored(engine, [0.1] * 35)
    caplog.set_level(logging.WARNING, logger="ragauge.serve.alerts")
    [event] = Alerter(engine, [RULE]).check_once()
    assert event["notified"] and "violated" in caplog.text


def test_the_served_app_checks_alerts_in_the_background(live, tmp_path, hook):
    url = f"sqlite:///{tmp_path}/a.db"
    server = live(lambda: create_app(db=url, token=TOKEN, scoring=False, alert_webhook=hook.url, alert_interval_s=0.1,
                                     alert_min_samples=10, public_url="http://127.0.0.1:1"))
    engine = make_engine(url)
    migrate(engine)
    add_scored(engine, [0.2] * 12)
    server.start(server.reserved)
    deadline = time.monotonic() + 20
    while not hook.got and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [m["json"]["status"] for m in hook.got] == ["firing"]
    assert httpx.get(f"{server.url}/healthz").status_code == 200
    engine.dispose()


def test_a_bad_webhook_url_is_a_config_error(tmp_path):
    from ragauge.errors import ConfigError

    with pytest.raises(ConfigError, match="webhook"):
        create_app(db=f"sqlite:///{tmp_path}/a.db", token=TOKEN, alert_webhook="hooks.example.com/x")


def test_serve_command_alert_options(tmp_path, monkeypatch):
    import argparse

    from ragauge.cli import serve as serve_cli
    from ragauge.errors import ConfigError

    monkeypatch.setenv("RAGAUGE_TOKEN", TOKEN)
    parser = argparse.ArgumentParser()
    serve_cli.register(parser.add_subparsers())
    base = ["serve", "--db", f"sqlite:///{tmp_path}/x.db", "--no-scoring"]
    with pytest.raises(ConfigError, match="webhook"):
        serve_cli.build_app(parser.parse_args([*base, "--alert-webhook", "hooks.example.com"]))
    with pytest.raises(ConfigError, match="dashboard"):  # the unknown profile's message lists the known ones
        serve_cli.build_app(parser.parse_args([*base, "--profile", "dashbord"]))
    with pytest.raises(ConfigError, match="alert-window"):
        serve_cli.build_app(parser.parse_args([*base, "--alert-window", "1"]))
    app = serve_cli.build_app(parser.parse_args([*base, "--metrics", "faithfulness", "--profile", "strict",
                                                 "--alert-window", "50", "--port", "9999"]))
    [rule] = app.state.alerter.rules
    assert (rule.metric, rule.value, rule.window) == ("faithfulness", 0.95, 50)
    assert app.state.alerter.base_url == "http://127.0.0.1:9999"
    assert serve_cli.build_app(parser.parse_args([*base, "--no-alerts"])).state.alerter is None
