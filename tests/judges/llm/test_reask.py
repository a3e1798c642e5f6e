"""The shared ask loop: parse, re-ask with the error, give up after ``retries``; call errors and dry runs."""

from __future__ import annotations

import asyncio

from ragauge.judges.llm.client import JudgeCallError
from ragauge.judges.llm.reask import REASK, ask_parsed

SHAPE = lambda value, raw: int(value["x"])  # noqa: E731


def _ask(replies, retries=2, lang="en"):
    seen = []

    async def reply(key, messages):
        seen.append((key, messages))
        item = replies.pop(0)
        if isinstance(item, Exception):
            raise item
        return item

    asked = asyncio.run(ask_parsed(reply, [{"role": "user", "content": "q"}], key_for=len, shape=SHAPE,
                                   lang=lang, retries=retries))
    return asked, seen


def test_a_good_first_reply_is_not_re_asked():
    asked, seen = _ask(['{"x": 3}'])
    assert (asked.value, asked.reasks, asked.parse_error, asked.call_error) == (3, 0, None, None)
    assert len(seen) == 1


def test_an_unusable_reply_is_answered_with_its_error_and_asked_again():
    asked, seen = _ask(["no json here", '{"x": 4}'], lang="ru")
    assert (asked.value, asked.reasks) == (4, 1)
    second = seen[1][1]
    assert second[-2] == {"role": "assistant", "content": "no json here"}
    assert second[-1]["content"].startswith(REASK["ru"].split("{error}")[0])
    assert seen[1][0] == 3  # the key is taken from the longer conversation


def test_it_gives_up_after_the_retries_with_the_last_error():
    asked, seen = _ask(["a", "b", "c"], retries=2)
    assert asked.value is None and asked.reasks == 2 and len(seen) == 3
    assert asked.parse_error is not None and asked.parse_error.raw == "c"


def test_a_call_error_and_a_dry_run_end_the_ask():
    asked, _ = _ask(["garbled", JudgeCallError("HTTP 500")])
    assert isinstance(asked.call_error, JudgeCallError) and asked.reasks == 1
    asked, _ = _ask([None])
    assert asked.dry_run and asked.value is None
