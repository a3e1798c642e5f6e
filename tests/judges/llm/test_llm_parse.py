"""The strict reply parser: what it repairs (and says so), what it refuses (with the raw reply)."""

from __future__ import annotations

import pytest

from ragauge.errors import JudgeParseError
from ragauge.judges.llm.parse import (
    claims_shape, find_json, parse_reply, questions_shape, verdicts_shape,
)


def test_plain_json():
    p = parse_reply('{"claims": ["Гарантия 5 лет.", "Доставка бесплатная."]}', claims_shape)
    assert p.value == ["Гарантия 5 лет.", "Доставка бесплатная."]
    assert p.repairs == ()


def test_code_fence_and_trailing_comma_are_repaired_and_named():
    p = parse_reply('Here you go:\n```json\n{"claims": ["A.", "B.",],}\n```\nHope it helps', claims_shape)
    assert p.value == ["A.", "B."]
    assert "removed code fence" in p.repairs
    assert "removed trailing commas" in p.repairs


def test_comma_inside_a_string_is_kept():
    assert parse_reply('{"claims": ["a, ]b",]}', claims_shape).value == ["a, ]b"]


def test_object_embedded_in_prose():
    p = parse_reply('Sure! The claims [see below] are {"claims": ["X is 5."]} -- done.', claims_shape)
    assert p.value == ["X is 5."]
    assert "took the JSON out of surrounding prose" in p.repairs


def test_bare_list_accepted_for_one_list_field():
    assert parse_reply('["A.", "B."]', claims_shape).value == ["A.", "B."]


def test_truncated_claims_keep_complete_items_and_say_so():
    p = parse_reply('{"claims": ["Гарантия 5 лет.", "Доставка 3 дня.", "Монтаж вход', claims_shape,
                    allow_truncated=True)
    assert p.value == ["Гарантия 5 лет.", "Доставка 3 дня."]
    assert "truncated: kept 2 complete items" in p.repairs


def test_truncated_reply_refused_when_truncation_not_allowed():
    raw = '{"verdicts": [{"claim": 1, "verdict": "supported", "sources": [1], "quote": "a", "reason": "b"}, {"claim": 2, "ver'
    with pytest.raises(JudgeParseError, match="cut off") as err:
        parse_reply(raw, verdicts_shape(2, 1))
    assert err.value.raw == raw


def test_inner_object_of_a_cut_reply_is_not_taken_for_the_answer():
    with pytest.raises(JudgeParseError):
        find_json('{"verdicts": [{"claim": 1}, {"claim": 2, "verd')


@pytest.mark.parametrize("raw", ["I think the answer is correct.", "", "{'claims': ['a']}", "{claims: [1]}", "null"])
def test_garbage_raises_with_raw(raw):
    with pytest.raises(JudgeParseError) as err:
        parse_reply(raw, claims_shape)
    assert err.value.raw == raw


def test_single_quotes_are_not_repaired_and_the_message_says_why():
    with pytest.raises(JudgeParseError, match="single quotes"):
        parse_reply("{'claims': ['don't']}", claims_shape)


def test_claims_must_be_strings():
    with pytest.raises(JudgeParseError, match=r"claims\[2\] must be a string"):
        parse_reply('{"claims": ["a", {"text": "b"}]}', claims_shape)


def _v(claim, verdict="supported", sources=(1,), quote="q", reason="r"):
    return {"claim": claim, "verdict": verdict, "sources": list(sources), "quote": quote, "reason": reason}


def test_verdicts_normalised_to_zero_based():
    import json

    raw = json.dumps({"verdicts": [_v(2, "Unsupported", ()), _v(1, " SUPPORTED ", (2, 1))]})
    v = parse_reply(raw, verdicts_shape(2, 2)).value
    assert [x.label for x in v] == ["supported", "unsupported"]
    assert v[0].sources == (0, 1) and v[1].sources == ()


@pytest.mark.parametrize("verdicts, message", [
    ([_v(1)], r"no verdict for claim\(s\) \[2\]"),
    ([_v(1), _v(2, "maybe")], "must be one of"),
    ([_v(1), _v(3)], "claim number 1..2"),
    ([_v(1), _v(2, sources=(4,))], "outside 1..2"),
    ([_v(1), _v(2, sources=("x",))], "list of source numbers"),
])
def test_verdict_shape_errors_are_precise(verdicts, message):
    import json

    with pytest.raises(JudgeParseError, match=message):
        parse_reply(json.dumps({"verdicts": verdicts}), verdicts_shape(2, 2))


def test_questions_shape():
    assert parse_reply('{"questions": ["Q1?", "Q2?"], "noncommittal": "false"}', questions_shape).value == (["Q1?", "Q2?"], False)
    assert parse_reply('{"questions": [], "noncommittal": 1}', questions_shape).value == ([], True)
    with pytest.raises(JudgeParseError, match="noncommittal"):
        parse_reply('{"questions": ["Q?"], "noncommittal": "maybe"}', questions_shape)
