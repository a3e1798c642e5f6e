"""A compressed reply cannot get past ``max_reply_bytes`` (issue 14): the client asks for
``Accept-Encoding: identity``, and a server that gzips anyway is inflated under the cap, so a 48 KB gzip
bomb that inflates to 50 MB is refused without the 50 MB ever being in memory, unscored with the reason
and never cached. A well-meant gzip reply still works."""

from __future__ import annotations

import asyncio
import gzip
import tracemalloc
import zlib

import pytest

from ragauge.judges.llm import LLMConfig, LLMJudge, unscored_of
from ragauge.judges.llm.bounded import BodyTooLarge, BodyUnreadable, BoundedBody
from ragauge.judges.llm.client import ChatClient, ReplyTooLargeError
from ragauge.judges.llm.outcome import too_large_reason

MSGS = [{"role": "system", "content": "Split into atomic claims."}, {"role": "user", "content": "Answer:\nA. B."}]
BOMB = 50_000_000
CAP = 64 * 1024


async def _no_sleep(_):
    return None


def _client(fake, **cfg) -> ChatClient:
    return ChatClient(LLMConfig(model="tiny", base_url=fake.url, structured="none", **cfg), sleep=_no_sleep)


def test_requests_ask_for_an_uncompressed_reply(fake):
    asyncio.run(_client(fake).chat(MSGS))
    assert fake.headers[0]["accept-encoding"] == "identity"


def test_a_gzip_reply_is_still_read(fake):
    fake.push({"gzip": True})
    reply = asyncio.run(_client(fake).chat(MSGS))
    assert reply.text == '{"claims": ["A.", "B."]}'


def test_a_gzip_bomb_is_refused_with_memory_bounded(fake):
    client = _client(fake, max_reply_bytes=CAP)
    asyncio.run(client.chat(MSGS))  # warm up: httpx's own imports are not the reply's memory
    fake.push({"gzip_bomb": BOMB})
    tracemalloc.start()
    try:
        with pytest.raises(ReplyTooLargeError, match=f"max_reply_bytes={CAP:,}.*after gzip decoding"):
            asyncio.run(client.chat(MSGS))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # about 2 MB here; inflating the bomb in one piece (httpx's own decoder) peaked at 131 MB
    assert peak < 8 * 1024 * 1024, f"peak {peak / 1e6:.1f} MB while reading a {CAP:,}-byte-capped reply"
    assert len(fake.requests) == 2  # not retried: the same request would get the same bomb


def test_a_gzip_bomb_through_the_judge_is_unscored_and_not_cached(fake, tmp_path, stub_offline):
    fake.push({"gzip_bomb": BOMB})
    j = LLMJudge(LLMConfig(model="tiny", base_url=fake.url, structured="none", max_reply_bytes=CAP),
                 cache=str(tmp_path / "cache.sqlite"), offline=stub_offline, sleep=_no_sleep)
    [got] = j.claims(["A is 1."], ["en"])
    u = unscored_of(got)
    assert u is not None and u.reason == too_large_reason(65_536) and "max_reply_bytes" in u.error and "gzip" in u.error
    assert j.cache.stats()["replies"] == 0
    [again] = j.claims(["A is 1."], ["en"])  # nothing cached: asked again, answered normally this time
    assert [c.text for c in again] == ["A is 1."] and len(fake.requests) == 2


# --- the bounded body, alone ----------------------------------------------------------------------------------
def test_bounded_body_reads_identity_gzip_and_both_deflates():
    text = b'{"claims": ["A."]}' * 10
    for coding, data in (("", text), ("identity", text), ("gzip", gzip.compress(text)),
                         ("deflate", zlib.compress(text)), ("deflate", zlib.compress(text)[2:-4])):
        body = BoundedBody(coding, cap=1024)
        for i in range(0, len(data), 7):  # in small chunks, as from the network
            body.feed(data[i:i + 7])
        assert body.finish() == text, coding


def test_bounded_body_refuses_what_it_cannot_read():
    with pytest.raises(BodyUnreadable, match="'br'"):
        BoundedBody("br", cap=1024)
    body = BoundedBody("gzip", cap=1024)
    with pytest.raises(BodyUnreadable, match="corrupt"):
        body.feed(b"not gzip at all")
    body = BoundedBody("gzip", cap=1024)
    body.feed(gzip.compress(b"x" * 500)[:20])
    with pytest.raises(BodyUnreadable, match="ended before"):
        body.finish()


def test_bounded_body_counts_decoded_bytes():
    body = BoundedBody("gzip", cap=1000)
    with pytest.raises(BodyTooLarge, match="after gzip decoding"):
        body.feed(gzip.compress(b"0" * 1001))
    body = BoundedBody("gzip", cap=1000)
    body.feed(gzip.compress(b"0" * 1000))
    assert len(body.finish()) == 1000
