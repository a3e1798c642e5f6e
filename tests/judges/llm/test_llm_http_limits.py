"""The judge's HTTP client limits and failure reporting (issue 14): reply size cap, whole-request deadline,
total wait per call, an unreachable or always-failing endpoint, and URL secrets (query string kept,
userinfo sent as auth, both redacted). All against the scripted loopback server or a closed port."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import socket
import time

import pytest

from ragauge.errors import ConfigError, JudgeError
from ragauge.judges.llm import LLMConfig, LLMJudge, unscored_of
from ragauge.judges.llm.client import ChatClient, JudgeCallError, ReplyTooLargeError
from ragauge.judges.llm.config import redact_url
from ragauge.judges.llm.outcome import too_large_reason

MSGS = [{"role": "system", "content": "Split into atomic claims."}, {"role": "user", "content": "Answer:\nA. B."}]


class Sleeps(list):
    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


def client(url: str, sleeps=None, **cfg) -> ChatClient:
    cfg.setdefault("structured", "none")
    return ChatClient(LLMConfig(model="tiny", base_url=url, backoff_base=0.01, **cfg),
                      sleep=sleeps if sleeps is not None else Sleeps())


def chat(c: ChatClient):
    return asyncio.run(c.chat(MSGS, schema={"type": "object"}, schema_name="claims"))


def judge(url: str, tmp_path, stub_offline, **cfg) -> LLMJudge:
    cfg.setdefault("structured", "none")
    return LLMJudge(LLMConfig(model="tiny", base_url=url, backoff_base=0.01, **cfg),
                    cache=str(tmp_path / "cache.sqlite"), offline=stub_offline, sleep=Sleeps())


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# --- reply size --------------------------------------------------------------------------------------------
def test_unannounced_oversize_reply_is_cut_off_unscored_and_not_cached(fake, tmp_path, stub_offline):
    fake.push({"big": 3_000_000})
    j = judge(fake.url, tmp_path, stub_offline, max_reply_bytes=100_000)
    [got] = j.claims(["A is 1."], ["en"])
    u = unscored_of(got)
    assert u is not None and u.reason == too_large_reason(100_000) and "max_reply_bytes=100,000" in u.error
    assert len(fake.requests) == 1  # not retried: the same request would get the same reply
    assert j.cache.stats()["replies"] == 0
    [again] = j.claims(["A is 1."], ["en"])  # nothing was cached: asked again, and answered this time
    assert [c.text for c in again] == ["A is 1."] and len(fake.requests) == 2


def test_announced_oversize_reply_is_refused_before_reading(fake):
    fake.push({"big": 100_000_000, "announce": True})
    t0 = time.monotonic()
    with pytest.raises(ReplyTooLargeError, match="announced 100,000,000 bytes"):
        chat(client(fake.url))
    assert time.monotonic() - t0 < 5


# --- deadlines and waits -------------------------------------------------------------------------------------
def test_timeout_is_a_deadline_for_the_whole_request_not_per_read(fake):
    """A reply trickling one byte every 50 ms (~12 s in all) never trips a per-read timeout of 0.5 s;
    the whole-request deadline cuts it off at 0.5 s."""
    fake.push({"trickle": 0.05})
    t0 = time.monotonic()
    with pytest.raises(JudgeCallError, match="within timeout=0.5 s"):
        chat(client(fake.url, timeout=0.5, max_retries=0))
    assert time.monotonic() - t0 < 3


def test_total_wait_of_one_call_is_capped(fake):
    fake.push(*[{"status": 429, "headers": {"Retry-After": "100"}}] * 3)
    sleeps = Sleeps()
    with pytest.raises(JudgeCallError, match="max_wait=150"):
        chat(client(fake.url, sleeps, max_wait=150))
    assert sleeps == [100.0]  # the second 100 s wait would pass 150 s: the call ends instead
    assert len(fake.requests) == 2


# --- an endpoint that cannot be reached or never answers -----------------------------------------------------
def test_unreachable_endpoint_raises_judge_error_and_says_so_once(tmp_path, stub_offline, caplog):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    j = judge(url, tmp_path, stub_offline, max_retries=5)
    with caplog.at_level(logging.WARNING, logger="ragauge.judges.llm"):
        with pytest.raises(JudgeError, match="cannot reach the LLM endpoint") as err:
            j.claims(["A is 1.", "B is 2."], ["en", "en"])
    assert not isinstance(err.value, JudgeCallError)  # not an unscored sample: the run stops (exit code 3)
    assert err.value.exit_code == 3
    said = [r.getMessage() for r in caplog.records if "cannot connect" in r.getMessage()]
    assert len(said) == 1  # one line while it happens, not one per retry or per sample
    assert j.client.stats.failures["connect"] == 6  # 2 calls x 3 attempts (2 retries while never reached)


def test_always_failing_endpoint_is_reported_as_no_verdict(fake, tmp_path, stub_offline, caplog):
    fake.push(*[{"status": 503}] * 4)
    j = judge(fake.url, tmp_path, stub_offline, max_retries=1)
    with caplog.at_level(logging.WARNING, logger="ragauge.judges.llm"):
        out = j.claims(["A is 1.", "B is 2."], ["en", "en"])
    assert all(unscored_of(x) is not None for x in out)
    err = j.no_verdict_error()
    assert isinstance(err, JudgeError) and err.exit_code == 3 and "produced no verdict" in str(err)
    assert "HTTP 503 x4" in str(err)
    assert len([r for r in caplog.records if "HTTP 503" in r.getMessage()]) == 1
    j.claims(["C is 3."], ["en"])  # the server recovers: one verdict is enough
    assert j.no_verdict_error() is None
    assert j.provenance().details["asks"] == {"sent": 3, "answered": 1}


# --- secrets in the URL ---------------------------------------------------------------------------------------
def test_query_string_is_sent_userinfo_goes_as_basic_auth_and_both_are_redacted(fake, tmp_path, stub_offline):
    port = fake.url.split(":")[2].split("/")[0]
    url = f"http://bob:p%40ss@127.0.0.1:{port}/v1/?api-version=2024-02&api_key=sk-secret"
    j = judge(url, tmp_path, stub_offline)
    j.claims(["A is 1."], ["en"])
    assert fake.paths == ["/v1/chat/completions?api-version=2024-02&api_key=sk-secret"]
    assert fake.auth == ["Basic " + base64.b64encode(b"bob:p@ss").decode()]
    recorded = json.dumps([j.provenance().details, j.usage_report()]) + repr(j.config)
    for secret in ("sk-secret", "p%40ss", "p@ss", "bob", "2024-02"):
        assert secret not in recorded
    assert j.config.endpoint == f"http://***@127.0.0.1:{port}/v1?api-version=***&api_key=***"


def test_error_messages_show_the_redacted_url(fake):
    port = fake.url.split(":")[2].split("/")[0]
    fake.push({"status": 404, "body": "no such model"})
    with pytest.raises(JudgeError) as err:
        chat(client(f"http://127.0.0.1:{port}/v1?key=sk-secret"))
    assert "sk-secret" not in str(err.value) and "key=***" in str(err.value)


def test_userinfo_and_api_key_together_are_refused():
    with pytest.raises(ConfigError, match="Authorization header"):
        LLMConfig(model="m", base_url="https://u:p@gw.example/v1", api_key="sk-1")


@pytest.mark.parametrize("url, shown", [
    ("https://api.openai.com/v1/", "https://api.openai.com/v1"),
    ("https://gw/v1?sig=abc&token", "https://gw/v1?sig=***&***"),
    ("http://:sk-x@h:8080/v1#frag", "http://***@h:8080/v1"),
])
def test_redact_url(url, shown):
    assert redact_url(url) == shown
