"""The limiter's shared counters, without Ray: slots, the rate window and the budget door."""

from __future__ import annotations

import pytest

from ragauge.scale.limiter import LimiterState


def test_no_more_slots_than_the_concurrency_and_a_released_one_is_reused():
    state = LimiterState(concurrency=2)
    assert [state.slot_try() for _ in range(3)] == [True, True, False]
    state.slot_release()
    assert state.slot_try() is True
    assert state.report()["max_in_flight"] == 2 and state.requests == 3


def test_the_rate_window_tells_a_worker_how_long_to_wait_instead_of_sleeping_in_the_actor():
    state = LimiterState(concurrency=8, requests_per_minute=2)
    first, wait1 = state.rate_try(10)
    second, wait2 = state.rate_try(10)
    third, wait3 = state.rate_try(10)
    assert first is not None and second is not None and (wait1, wait2) == (0.0, 0.0)
    assert third is None and 0 < wait3 <= 60


def test_the_token_window_counts_settled_usage():
    state = LimiterState(concurrency=8, tokens_per_minute=1000)
    ticket, _ = state.rate_try(400)
    state.rate_settle(ticket, 900)  # the server billed more than estimated
    assert state.rate_try(200)[0] is None


def test_a_budget_stop_comes_back_as_a_value_with_the_limit_named():
    state = LimiterState(concurrency=4, max_calls=1)
    status, held = state.budget_call("try_reserve", 100, 20, completion_cap=50)
    assert status == "ok" and held is not None
    state.budget_call("record", 100, 20, held)
    status, (message, what) = state.budget_call("try_reserve", 100, 20, completion_cap=50)
    assert status == "stop" and "max_calls=1" in message and what
    assert state.spend().calls == 1


def test_only_budget_methods_can_be_called_through_the_door():
    with pytest.raises(ValueError, match="not a budget method"):
        LimiterState(concurrency=1).budget_call("__init__")
    with pytest.raises(ValueError, match="concurrency"):
        LimiterState(concurrency=0)
