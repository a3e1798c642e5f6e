"""The dashboard's small parts: settings errors, language choice, session cookies, segments, and the
examples in the modules' docstrings."""

from __future__ import annotations

import doctest
import importlib

import pytest

pytest.importorskip("jinja2")

from ragauge.errors import ConfigError  # noqa: E402
from ragauge.serve.dashboard.highlight import answer_segments  # noqa: E402
from ragauge.serve.dashboard.i18n import TEXT, pick_language  # noqa: E402
from ragauge.serve.dashboard.security import LoginThrottle, Tokens, csrf_ok  # noqa: E402
from ragauge.serve.dashboard.settings import DashboardSettings  # noqa: E402


@pytest.mark.parametrize("module", ["i18n", "security", "overview", "highlight"])
def test_docstring_examples(module):
    mod = importlib.import_module(f"ragauge.serve.dashboard.{module}")
    result = doctest.testmod(mod)
    assert result.attempted > 0 and result.failed == 0


def test_every_text_has_both_languages_and_the_same_fields():
    import string

    for key, (en, ru) in TEXT.items():
        assert en and ru, key
        fields = lambda s: {f for _, f, _, _ in string.Formatter().parse(s) if f}  # noqa: E731
        assert fields(en) == fields(ru), key


@pytest.mark.parametrize("accept, lang", [("ru", "ru"), ("en-GB,en;q=0.9", "en"), ("de-DE,ru;q=0.5", "ru"),
                                          ("fr", "en"), ("", "en"), ("ru;q=0, en", "en"), ("ru;q=abc", "en")])
def test_accept_language(accept, lang):
    assert pick_language(None, None, accept) == lang


def test_settings_say_what_is_wrong(monkeypatch):
    monkeypatch.delenv("RAGAUGE_TOKEN", raising=False)
    monkeypatch.delenv("RAGAUGE_DASHBOARD_TOKEN", raising=False)
    with pytest.raises(ConfigError, match="RAGAUGE_TOKEN"):
        DashboardSettings.from_mapping({})
    with pytest.raises(ConfigError, match="unknown keys \\['windw'\\]"):
        DashboardSettings.from_mapping({"token": "t" * 20, "windw": 10})
    with pytest.raises(ConfigError, match="must differ"):
        DashboardSettings.from_mapping({"token": "t" * 20, "read_token": "t" * 20})
    with pytest.raises(ConfigError, match="window must be a whole number"):
        DashboardSettings.from_mapping({"token": "t" * 20, "window": 0})
    with pytest.raises(ConfigError, match="unknown profile 'dashbord'; did you mean 'dashboard'"):
        DashboardSettings.from_mapping({"token": "t" * 20, "profile": "dashbord"})
    strict = DashboardSettings.from_mapping({"token": "t" * 20, "profile": "strict"})
    assert strict.limits.faithfulness_below == 0.95 and strict.limits.slow_ms == 3000
    none = DashboardSettings.from_mapping({"token": "t" * 20, "profile": "none", "slow_ms": 800})
    assert none.profile is None and none.limits.slow_ms == 800 and none.limits.faithfulness_below == 0.85


def test_session_cookies_carry_a_signed_role_and_expire():
    tokens = Tokens("api-token-0123456789", "read-token-0123456789")
    assert tokens.role_of("api-token-0123456789") == "admin" and tokens.role_of("read-token-0123456789") == "read"
    assert tokens.role_of("") is None and tokens.role_of("api-token") is None
    value = tokens.session_value("read", now=1000.0)
    assert tokens.session_role(value, now=1000.0 + 3600) == "read"
    assert tokens.session_role(value, now=1000.0 + 13 * 3600) is None
    assert Tokens("another-api-token-00").session_role(value, now=1000.0) is None  # a new token ends sessions
    assert tokens.session_role("admin" + value[4:], now=1000.0) is None
    assert not csrf_ok(None, "x") and not csrf_ok("a" * 40, None) and not csrf_ok("short", "short")
    assert csrf_ok("a" * 40, "a" * 40) and not csrf_ok("a" * 40, "b" * 40)


def test_overlapping_claims_are_listed_once_inline():
    segs = answer_segments("abcdef", [{"text": "abcd", "start": 0, "end": 4, "verdict": "supported"},
                                      {"text": "cdef", "start": 2, "end": 6, "verdict": "unsupported"}])
    assert [(s.text, s.claim) for s in segs] == [("abcd", 0), ("ef", None)]
    assert [(s.text, s.claim) for s in answer_segments("", [])] == [("", None)]
    bad = [{"text": "x", "start": "0", "end": 1}, {"text": "zz", "start": 0, "end": 99}, {"start": 3, "end": 1}]
    assert [(s.text, s.claim) for s in answer_segments("abc", bad)] == [("abc", None)]


def test_login_throttle_lets_an_address_try_again_after_the_window():
    th = LoginThrottle(limit=3, window_s=60)
    for t in (0, 10, 20):
        assert th.wait_s("1.2.3.4", now=t) == 0
        th.failed("1.2.3.4", now=t)
    assert th.wait_s("1.2.3.4", now=30) == 30  # the first failure leaves the window at 60
    assert th.wait_s("5.6.7.8", now=30) == 0  # other addresses are not affected
    assert th.wait_s("1.2.3.4", now=61) == 0
