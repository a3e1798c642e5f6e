"""A user who turns on DEBUG logging (``logging.basicConfig(level=logging.DEBUG)``) must not see the API key
of the endpoint URL in httpx's and httpcore's log lines (issue 14): ``?api_key=...`` and ``user:pass@``."""

from __future__ import annotations

import asyncio
import base64
import logging

from ragauge.judges.llm.client import ChatClient
from ragauge.judges.llm.config import LLMConfig
from ragauge.judges.llm.logsafe import HTTP_LOGGERS, RedactURLs

MSGS = [{"role": "system", "content": "Split into atomic claims."}, {"role": "user", "content": "Answer:\nA. B."}]
SECRETS = ("sk-SECRET-9f8e7d", "pa55w0rd-SECRET")


def _url(fake, *, userinfo: bool) -> str:
    host = fake.url.split("://", 1)[1]
    auth = f"alice:{SECRETS[1]}@" if userinfo else ""
    return f"http://{auth}{host}?api-version=2024-02&api_key={SECRETS[0]}"


def _leaks(caplog) -> list[str]:
    basic = base64.b64encode(f"alice:{SECRETS[1]}".encode()).decode()
    return [r.getMessage() for r in caplog.records
            if any(s in r.getMessage() for s in (*SECRETS, basic))]


def test_debug_logs_of_a_request_carry_no_key(fake, caplog):
    caplog.set_level(logging.DEBUG)
    client = ChatClient(LLMConfig(model="tiny", base_url=_url(fake, userinfo=True), structured="none"))
    reply = asyncio.run(client.chat(MSGS))
    assert reply.text and fake.paths[0].endswith(f"api_key={SECRETS[0]}")  # the key still reaches the server
    assert fake.auth[0].startswith("Basic ")
    http_lines = [r for r in caplog.records if r.name == "httpx" or r.name.startswith("httpcore")]
    assert any(r.name == "httpx" and "HTTP Request: POST" in r.getMessage() for r in http_lines)
    assert any(r.name.startswith("httpcore") and r.levelno == logging.DEBUG for r in http_lines)
    assert _leaks(caplog) == []
    line = next(r.getMessage() for r in http_lines if "HTTP Request" in r.getMessage())
    assert "api_key=***" in line and "api-version=***" in line and "/chat/completions" in line


def test_the_query_key_alone_is_redacted_too(fake, caplog):
    caplog.set_level(logging.DEBUG, logger="httpx")
    client = ChatClient(LLMConfig(model="tiny", base_url=_url(fake, userinfo=False), api_key="sk-bearer",
                                  structured="none"))
    asyncio.run(client.chat(MSGS))
    assert caplog.records and _leaks(caplog) == []


def test_installing_twice_adds_one_filter(fake):
    for _ in range(3):
        ChatClient(LLMConfig(model="tiny", base_url=fake.url))
    for name in HTTP_LOGGERS:
        assert sum(isinstance(f, RedactURLs) for f in logging.getLogger(name).filters) == 1, name


def test_a_record_without_a_url_is_left_as_it_is():
    record = logging.LogRecord("httpcore.connection", logging.DEBUG, "", 0, "connect_tcp.started host=%r port=%d",
                               ("127.0.0.1", 8080), None)
    assert RedactURLs().filter(record) and record.args == ("127.0.0.1", 8080)
