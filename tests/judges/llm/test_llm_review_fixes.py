"""Findings of the review of issue 14, as a user meets them: a judge that only ever answers prose says
what it answered; a bad reply is never cached, so fixing the server fixes the re-run; a short quote
("$5") is checked like any other; an over-size reply says which cap and how to raise it from the CLI;
``ragauge eval --help`` lists every exit code."""

from __future__ import annotations

import json
import sqlite3

import pytest

from ragauge.cli.main import main
from ragauge.errors import ConfigError, ExitCode
from ragauge.judges.llm import LLMConfig, LLMJudge, unscored_of
from ragauge.judges.llm.outcome import UNPARSEABLE
from ragauge.judges.llm.parse import RawVerdict
from ragauge.judges.llm.verdicts import QUOTE_NOT_FOUND, to_verdict

from llm_fake_server import judge_responder


def _judge(url: str, cache, stub_offline, **cfg) -> LLMJudge:
    cfg.setdefault("structured", "none")
    return LLMJudge(LLMConfig(model="tiny", base_url=url, backoff_base=0.01, **cfg), cache=cache,
                    offline=stub_offline)


# --- 1. "Last error: see above." with nothing above ------------------------------------------------------
def test_a_judge_that_never_answers_json_says_what_it_answered(fake, stub_offline):
    fake.push(*[{"content": "not json at all, key sk-abcdef1234567890"}] * 4)
    j = _judge(fake.url, None, stub_offline)
    out = j.claims(["A is 1.", "B is 2."], ["en", "en"])
    assert all(unscored_of(x).reason == UNPARSEABLE for x in out)
    msg = str(j.no_verdict_error())
    assert "see above" not in msg
    assert "no JSON object in the reply" in msg and "'not json at all, key ***'" in msg
    assert "sk-abcdef1234567890" not in msg  # quoted, but redacted
    assert "reply in JSON" in msg and "--judge offline" in msg  # what to check for this kind of failure


# --- 2. an unparseable reply was cached: the fixed server was never asked again ---------------------------
def test_an_unparseable_reply_is_not_cached_so_a_rerun_asks_the_fixed_server(fake, stub_offline, tmp_path):
    cache = str(tmp_path / "cache.sqlite")
    fake.push({"content": "Sorry, I cannot do JSON."}, {"content": "Still no JSON."})  # the ask and its re-ask
    first = _judge(fake.url, cache, stub_offline)
    [got] = first.claims(["A is 1. B is 2."], ["en"])
    assert unscored_of(got).reason == UNPARSEABLE and len(fake.requests) == 2
    assert first.cache.stats()["replies"] == 0
    first.close()

    second = _judge(fake.url, cache, stub_offline)  # the server now answers valid JSON
    [got] = second.claims(["A is 1. B is 2."], ["en"])
    assert [c.text for c in got] == ["A is 1.", "B is 2."]
    assert len(fake.requests) == 3  # asked again, not answered from the cache
    assert second.cache.stats()["replies"] == 1
    second.close()

    third = _judge(fake.url, cache, stub_offline)  # a parsed reply is cached as before
    [got] = third.claims(["A is 1. B is 2."], ["en"])
    assert [c.text for c in got] == ["A is 1.", "B is 2."] and len(fake.requests) == 3


def test_a_bad_reply_left_in_an_old_cache_is_dropped_and_asked_again(fake, stub_offline, tmp_path):
    path = tmp_path / "cache.sqlite"
    j = _judge(fake.url, str(path), stub_offline)
    j.claims(["A is 1."], ["en"])
    j.close()
    with sqlite3.connect(path) as db:  # what an older ragauge left there
        db.execute("UPDATE replies SET reply = 'not json at all'")
    j = _judge(fake.url, str(path), stub_offline)
    [got] = j.claims(["A is 1."], ["en"])
    assert [c.text for c in got] == ["A is 1."] and len(fake.requests) == 2
    assert "not json at all" not in [r[0] for r in sqlite3.connect(path).execute("SELECT reply FROM replies")]


# --- 3. a short quote skipped the quote check -------------------------------------------------------------
def _supported(quote: str, source: str):
    return to_verdict("c", "c", RawVerdict(0, "supported", (0,), quote, "stated"), [0], [source], full=True)


SHORT_ABSENT = ["It costs $900.", "Delivery takes 15 days.", "The rate is 7,5 %.", "Срок: пять лет."]
SHORT_PRESENT = [("$5", "It costs $5.", "$5"), ("5", "Гарантия 5 лет.", "5"), ("«5»", "The fee is 5 %.", "5"),
                 ("да", "Ответ: да, можно.", "да"), ("5%", "ставка 5% годовых", "5%"), ("ok", "Status: OK.", "OK")]


def test_a_short_quote_is_checked_as_a_whole_token():
    """"5" is not in "$900", "15 days" or "7,5 %": unsupported with the reason; where it stands as a token
    ("Гарантия 5 лет"), the verdict stands with its evidence span."""
    for source in SHORT_ABSENT:
        for quote in ("$5", "5", "«5»", "5%"):
            v = _supported(quote, source)
            assert v.label == "unsupported" and v.evidence is None, (quote, source)
            assert v.reason.startswith(QUOTE_NOT_FOUND) and "quote_too_short" not in v.features
    for quote, source, span in SHORT_PRESENT:
        v = _supported(quote, source)
        assert v.label == "supported" and v.evidence.text == span, (quote, source)


def test_the_issue_case_through_the_judge_5_dollars_against_900(fake, stub_offline):
    """The judge says "supported" and quotes "5" (or "$5") from a context that says $900."""
    quotes = iter(["5", "$5"])

    def responder(body):
        system = next((m["content"] for m in body["messages"] if m["role"] == "system"), "")
        if '"verdicts"' in system:
            return json.dumps({"verdicts": [{"claim": 1, "verdict": "supported", "sources": [1],
                                             "quote": next(quotes), "reason": "the price is stated"}]})
        return judge_responder(body)

    fake.responder = responder
    j = _judge(fake.url, None, stub_offline)
    for _ in range(2):
        [[v]] = j.verify([(["It costs $5."], ["It costs $900."], "en")])
        j.cache = type(j.cache)(None)  # a fresh cache, so the second quote is asked for
        assert v.label == "unsupported" and QUOTE_NOT_FOUND in v.reason and v.probability == 0.0


# --- 4. an over-size reply: the reason names the cap, the call is counted, the cap is settable -------------
def test_an_oversize_reply_names_the_cap_and_counts_in_the_usage_without_a_budget(fake, stub_offline):
    fake.push({"big": 300_000})
    j = _judge(fake.url, None, stub_offline, max_reply_bytes=100_000)
    [got] = j.claims(["A is 1."], ["en"])
    u = unscored_of(got)
    assert u.reason == "judge reply over max_reply_bytes=100,000 (RAGAUGE_LLM_MAX_REPLY_BYTES)"
    assert "RAGAUGE_LLM_MAX_REPLY_BYTES=" in u.error  # the hint names what a CLI user can set
    total = j.usage_report()["total"]
    assert total["calls"] == 1 and total["completion_tokens"] == 1024  # booked at its worst case
    assert j.usage()["calls"] == 1


def test_reply_cap_timeout_and_max_wait_come_from_the_environment(fake, stub_offline, monkeypatch):
    monkeypatch.setenv("RAGAUGE_LLM_MAX_REPLY_BYTES", "100000")
    monkeypatch.setenv("RAGAUGE_LLM_TIMEOUT", "7.5")
    monkeypatch.setenv("RAGAUGE_LLM_MAX_WAIT", "42")
    j = LLMJudge.from_spec(f"openai:tiny@{fake.url}", cache=None, offline=stub_offline)
    assert (j.config.max_reply_bytes, j.config.timeout, j.config.max_wait) == (100_000, 7.5, 42.0)
    fake.push({"big": 300_000})
    [got] = j.claims(["A is 1."], ["en"])
    assert "max_reply_bytes=100,000" in unscored_of(got).reason


@pytest.mark.parametrize("var,value", [("RAGAUGE_LLM_MAX_REPLY_BYTES", "1MB"), ("RAGAUGE_LLM_MAX_REPLY_BYTES", "10"),
                                       ("RAGAUGE_LLM_TIMEOUT", "soon"), ("RAGAUGE_LLM_MAX_WAIT", "-1"),
                                       ("RAGAUGE_LLM_TIMEOUT", "nan")])
def test_a_bad_limit_in_the_environment_names_the_variable(var, value):
    with pytest.raises(ConfigError, match=f"{var} must be .*got {value!r}; e.g. {var}="):
        LLMConfig.from_env({"RAGAUGE_LLM_MODEL": "m", var: value})


def test_timeout_and_max_wait_messages_name_their_variables(fake):
    import asyncio

    from ragauge.judges.llm.client import ChatClient, JudgeCallError

    async def no_sleep(_):
        return None

    fake.push({"trickle": 0.05})
    c = ChatClient(LLMConfig(model="m", base_url=fake.url, timeout=0.3, max_retries=0, structured="none"))
    with pytest.raises(JudgeCallError, match="RAGAUGE_LLM_TIMEOUT"):
        asyncio.run(c.chat([{"role": "user", "content": "hi"}]))
    fake.script.clear()
    fake.push(*[{"status": 429, "headers": {"Retry-After": "100"}}] * 2)
    c = ChatClient(LLMConfig(model="m", base_url=fake.url, max_wait=50, structured="none"), sleep=no_sleep)
    with pytest.raises(JudgeCallError, match="RAGAUGE_LLM_MAX_WAIT"):
        asyncio.run(c.chat([{"role": "user", "content": "hi"}]))


# --- 5. `ragauge eval --help` listed 0/1/2 only --------------------------------------------------------------
@pytest.mark.parametrize("argv", [["--help"], ["eval", "--help"]])
def test_help_lists_every_exit_code(argv, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    text = " ".join(capsys.readouterr().out.split())
    listed = text.split("Exit codes:", 1)[1]
    for code in ExitCode:
        assert f"{int(code)} " in listed, f"exit code {int(code)} missing from `ragauge {' '.join(argv)}`"
    assert "output file cannot be written" in listed
