"""The HTTP client against a scripted loopback server: retries, Retry-After, timeouts, resets,
structured-output fallback, limits. Waits are recorded by an injected sleep, so nothing really waits
(except the timeout test, 0.3 s)."""

from __future__ import annotations

import asyncio
import json

import pytest

from ragauge.errors import JudgeError
from ragauge.judges.llm.client import ChatClient, JudgeCallError, retry_after_seconds
from ragauge.judges.llm.config import LLMConfig
from ragauge.judges.llm.ratelimit import RateLimiter

SCHEMA = {"type": "object", "properties": {"claims": {"type": "array", "items": {"type": "string"}}}}
MSGS = [{"role": "system", "content": "Split into atomic claims."}, {"role": "user", "content": "Answer:\nA. B."}]


class Sleeps(list):
    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


def make(fake, sleeps=None, **cfg):
    config = LLMConfig(model="tiny", base_url=fake.url, api_key="sk-test", headers={"X-Tenant": "t1"},
                       backoff_base=0.5, **cfg)
    return ChatClient(config, sleep=sleeps if sleeps is not None else Sleeps())


def chat(client, **kw):
    return asyncio.run(client.chat(MSGS, schema=SCHEMA, schema_name="claims", **kw))


def test_request_shape_and_usage(fake):
    client = make(fake)
    reply = chat(client)
    assert json.loads(reply.text) == {"claims": ["A.", "B."]}
    assert reply.usage.prompt_tokens == 100 and reply.usage.completion_tokens == 20 and not reply.usage.estimated
    body = fake.requests[0]
    assert body["temperature"] == 0 and body["seed"] == 0 and body["max_tokens"] == 1024
    assert body["model"] == "tiny"
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == SCHEMA
    assert client.stats.replies == 1 and client.stats.prompt_tokens == 100


def test_429_honours_retry_after(fake):
    fake.push({"status": 429, "headers": {"Retry-After": "7"}}, {"status": 429, "headers": {"Retry-After": "2"}})
    sleeps = Sleeps()
    reply = chat(make(fake, sleeps))
    assert reply.attempts == 3
    assert sleeps == [7.0, 2.0]


def test_retry_after_is_capped(fake):
    fake.push({"status": 503, "headers": {"Retry-After": "3600"}})
    sleeps = Sleeps()
    chat(make(fake, sleeps, max_retry_after=30))
    assert sleeps == [30]


def test_retry_after_http_date():
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None


def test_5xx_exponential_backoff_with_jitter(fake):
    chat(make(fake))  # confirms json_schema on this endpoint: a 500 is now a server error, not a rejection
    fake.push({"status": 500}, {"status": 502}, {"status": 503})
    sleeps = Sleeps()
    reply = chat(make(fake, sleeps))
    assert reply.attempts == 4
    for n, s in enumerate(sleeps, 1):  # base 0.5 s * 2**(n-1), times U(0.5, 1)
        assert 0.5 * 0.5 * 2 ** (n - 1) <= s <= 0.5 * 2 ** (n - 1)


def test_gives_up_after_max_retries(fake):
    fake.push(*[{"status": 503}] * 3)
    with pytest.raises(JudgeCallError, match="after 3 attempts: HTTP 503"):
        chat(make(fake, max_retries=2))


def test_hang_past_timeout_is_retried(fake):
    fake.push({"hang": 1.5})
    reply = chat(make(fake, timeout=0.3))
    assert reply.attempts == 2
    assert len(fake.requests) == 2


def test_connection_reset_is_retried(fake):
    fake.push({"reset": True}, {"reset": True})
    sleeps = Sleeps()
    reply = chat(make(fake, sleeps))
    assert reply.attempts == 3 and len(sleeps) == 2


def test_non_json_http_body_is_retried(fake):
    fake.push({"http_body": "<html>Bad gateway</html>"})
    assert chat(make(fake)).attempts == 2


def test_json_schema_rejected_with_500_falls_back_and_is_remembered(fake):
    fake.reject_json_schema = True
    client = make(fake)
    reply = chat(client)
    assert reply.mode == "json_object" and reply.attempts == 2
    assert fake.requests[1]["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert client.stats.downgrades == ["json_schema->json_object"]
    # a new client for the same endpoint starts where the last one ended: no wasted request
    n = len(fake.requests)
    other = make(fake)
    assert chat(other).attempts == 1 and len(fake.requests) == n + 1
    assert fake.requests[-1]["response_format"]["type"] == "json_object"


def test_concurrent_rejections_drop_a_mode_once(fake):
    fake.reject_json_schema = True
    client = make(fake, concurrency=4)

    async def many():
        return await asyncio.gather(*[client.chat(MSGS, schema=SCHEMA) for _ in range(4)])

    assert {r.mode for r in asyncio.run(many())} == {"json_object"}
    assert client.stats.downgrades == ["json_schema->json_object"]


def test_falls_back_to_plain_instructions(fake):
    fake.reject_json_schema = fake.reject_json_object = True
    reply = chat(make(fake))
    assert reply.mode == "none"
    last = fake.requests[-1]
    assert "response_format" not in last
    assert "JSON schema" in last["messages"][0]["content"] and '"claims"' in last["messages"][0]["content"]


def test_seed_dropped_when_the_server_refuses_it(fake):
    fake.reject_seed = True
    client = make(fake)
    reply = chat(client)
    assert reply.mode == "json_schema" and "seed" not in fake.requests[-1]
    assert client.stats.downgrades == ["seed"]
    assert "seed" not in make(fake)._body(MSGS, SCHEMA, "claims", None)


def test_confirmed_mode_is_not_dropped_on_a_later_500(fake):
    client = make(fake)
    chat(client)
    fake.push({"status": 500})
    assert chat(client).mode == "json_schema"


def test_auth_failure_raises_at_once(fake):
    fake.push({"status": 401, "body": '{"error": "invalid api key"}'})
    with pytest.raises(JudgeError, match="RAGAUGE_LLM_API_KEY"):
        chat(make(fake))
    assert len(fake.requests) == 1


def test_unknown_model_404_after_plain_mode_raises(fake):
    fake.push(*[{"status": 404, "body": '{"error": "model not found"}'}] * 3)
    with pytest.raises(JudgeError, match="HTTP 404"):
        chat(make(fake))


def test_bad_request_fails_that_call_only_without_retry(fake):
    client = make(fake)
    chat(client)  # json_schema confirmed
    fake.push({"status": 400, "body": '{"error": "context length exceeded"}'})
    with pytest.raises(JudgeCallError, match="context length exceeded"):
        chat(client)
    assert len(fake.requests) == 2 and client.mode == "json_schema"


def test_concurrency_limit(fake):
    fake.delay = 0.05
    client = make(fake, concurrency=2)

    async def many():
        return await asyncio.gather(*[client.chat(MSGS, schema=SCHEMA) for _ in range(6)])

    assert len(asyncio.run(many())) == 6
    assert fake.max_in_flight == 2


def test_rate_limiter_requests_and_tokens():
    now = [0.0]
    waits = []

    async def sleep(s):
        waits.append(s)
        now[0] += s

    lim = RateLimiter(requests=2, tokens=100, period=60, clock=lambda: now[0], sleep=sleep)

    async def run():
        await lim.acquire(10)
        now[0] += 1
        await lim.acquire(10)
        await lim.acquire(10)  # third request in the window: waits until the first leaves (t=60)
        t = await lim.acquire(90)  # tokens: 10 + 10 + 90 > 100 -> waits for the second to leave
        lim.settle(t, 5)

    asyncio.run(run())
    assert waits == [59.0, 1.0]


def test_headers_and_key_sent(fake, monkeypatch):
    seen = {}
    client = make(fake)
    orig = client._post

    def spy(body, headers):
        seen.update(headers)
        return orig(body, headers)

    monkeypatch.setattr(client, "_post", spy)
    chat(client)
    assert seen["Authorization"] == "Bearer sk-test" and seen["X-Tenant"] == "t1"
    assert "sk-test" not in repr(client.config)


def test_a_pinned_mode_ignores_what_an_auto_client_learnt_about_the_endpoint(fake):
    """Regression: structured="none" after an "auto" client on the same endpoint+model used to inherit
    the remembered json_object mode (the plain-text benchmark run silently sent response_format)."""
    import asyncio

    from ragauge.judges.llm import ChatClient, LLMConfig

    fake.reject_json_schema = True
    schema = {"type": "object", "properties": {"claims": {"type": "array"}}}
    auto = ChatClient(LLMConfig(model="m", base_url=fake.url))
    asyncio.run(auto.chat([{"role": "user", "content": "x"}], schema=schema))
    assert auto.mode == "json_object"
    plain = ChatClient(LLMConfig(model="m", base_url=fake.url, structured="none"))
    asyncio.run(plain.chat([{"role": "user", "content": "x"}], schema=schema))
    assert plain.mode == "none" and "response_format" not in fake.requests[-1]
    assert "JSON schema" in fake.requests[-1]["messages"][0]["content"]
    assert ChatClient(LLMConfig(model="m", base_url=fake.url)).mode == "json_object"  # auto still remembers
