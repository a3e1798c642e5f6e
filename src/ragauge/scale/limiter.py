"""One limit for every worker: LLM-judge concurrency, rate and budget held by a single Ray actor.

Each worker's LLM judge would otherwise apply ``concurrency``/``requests_per_minute``/``max_calls``
*per process*, and 8 workers would send 8 times what the user allowed. :class:`LimiterState` holds the
run's one :class:`~ragauge.judges.llm.budget.Budget` and one sliding-window
:class:`~ragauge.judges.llm.ratelimit.RateLimiter` (the same classes the local judge uses, so the
rules are the same) plus a count of requests in flight; the driver starts it as one actor
(:func:`start_limiter`) and hands its handle to the workers, whose judges reach it through
:class:`SharedBudget` (the budget door the judge calls) and :class:`SharedLimitClient` (the HTTP
client whose slot and rate window are the actor's).

A worker that dies mid-call does not give back its slot or its budget reservation: the limiter then
errs on the safe side (one slot fewer, the reservation's worst case held until the run ends), so a death
never lets the run spend past a limit. A dead *limiter* is not restarted (it would forget the spend):
the run fails loudly instead.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from typing import Any

from ..errors import BudgetExceededError
from ..judges.llm.budget import Budget, Prices, Reservation, Spend
from ..judges.llm.client import ChatClient
from ..judges.llm.config import LLMConfig
from ..judges.llm.ratelimit import RateLimiter

__all__ = ["LimiterState", "SharedBudget", "SharedLimitClient", "start_limiter"]

#: How long a worker waits before asking the actor again for a slot or a reservation.
POLL_SECONDS = 0.01


class _MustWait(Exception):
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds


def _refuse(seconds: float) -> Any:
    raise _MustWait(seconds)


class LimiterState:
    """The shared counters (plain Python: unit-tested without Ray; the actor is this class, remote)."""

    def __init__(self, *, concurrency: int, requests_per_minute: float | None = None,
                 tokens_per_minute: float | None = None, max_calls: int | None = None,
                 max_tokens: int | None = None, max_cost: float | None = None,
                 prices: Prices | None = None) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        self.concurrency = concurrency
        self.budget = Budget(max_calls=max_calls, max_tokens=max_tokens, max_cost=max_cost, prices=prices)
        # the window's "sleep" refuses instead: the caller (a worker) waits, not the actor
        self.rate = RateLimiter(requests=requests_per_minute, tokens=tokens_per_minute, sleep=_refuse)
        self.in_flight = 0
        self.max_in_flight = 0  #: the most requests in flight at once, over the run (for tests and reports)
        self.requests = 0

    # --- concurrency ------------------------------------------------------------------------------
    def slot_try(self) -> bool:
        if self.in_flight >= self.concurrency:
            return False
        self.in_flight += 1
        self.requests += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        return True

    def slot_release(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)

    # --- rate -------------------------------------------------------------------------------------
    def rate_try(self, tokens: int) -> tuple[int | None, float]:
        """``(ticket, 0)`` when a request of ``tokens`` fits the window now, else ``(None, seconds to wait)``."""
        coro = self.rate.acquire(tokens)
        try:
            coro.send(None)
        except StopIteration as done:
            return done.value, 0.0
        except _MustWait as wait:
            coro.close()
            return None, wait.seconds
        raise RuntimeError("the rate window suspended unexpectedly")  # pragma: no cover

    def rate_settle(self, ticket: int, tokens: int) -> None:
        self.rate.settle(ticket, tokens)

    # --- budget: the Budget door, with errors returned (a Ray error would lose their attributes) ---
    def budget_call(self, method: str, *args: Any, **kwargs: Any) -> tuple[str, Any]:
        if method not in ("try_reserve", "reserve", "record", "release", "record_unknown", "record_cached"):
            raise ValueError(f"not a budget method: {method}")
        try:
            return "ok", getattr(self.budget, method)(*args, **kwargs)
        except BudgetExceededError as exc:
            return "stop", (str(exc), getattr(exc, "budget_limit", None))

    def final_error(self, what: str | None, message: str) -> str:
        if what is None:
            return message
        err = BudgetExceededError(message)
        err.budget_limit = what  # type: ignore[attr-defined]
        return str(self.budget.final_error(err))

    def spend(self) -> Spend:
        return replace(self.budget.spend)

    def report(self) -> dict[str, Any]:
        return {"spend": self.budget.spend.to_dict(), "requests": self.requests,
                "max_in_flight": self.max_in_flight, "concurrency": self.concurrency}


def start_limiter(config: LLMConfig, *, max_calls: int | None = None, max_tokens: int | None = None,
                  max_cost: float | None = None, prices: Prices | None = None) -> Any:
    """The run's limiter actor (``ray`` must be initialised). ``max_restarts=0``: a limiter that died would
    forget what was spent, so the run fails loudly instead of starting again from zero."""
    import ray

    actor = ray.remote(num_cpus=0, max_restarts=0)(LimiterState)
    return actor.remote(concurrency=config.concurrency, requests_per_minute=config.requests_per_minute,
                        tokens_per_minute=config.tokens_per_minute, max_calls=max_calls, max_tokens=max_tokens,
                        max_cost=max_cost, prices=prices)


def _get(ref: Any) -> Any:
    import ray

    return ray.get(ref)


class SharedBudget:
    """The :class:`Budget` door of an LLM judge, answered by the limiter actor (a round trip per paid
    call, ~1 ms beside a call of ~1 s)."""

    def __init__(self, limiter: Any, prices: Prices | None) -> None:
        self._limiter = limiter
        self.prices = prices

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        status, value = _get(self._limiter.budget_call.remote(method, *args, **kwargs))
        if status == "stop":
            message, what = value
            err = BudgetExceededError(message)
            err.budget_limit = what  # type: ignore[attr-defined]
            raise err
        return value

    @property
    def spend(self) -> Spend:
        return _get(self._limiter.spend.remote())

    def try_reserve(self, est_prompt_tokens: int, est_completion_tokens: int, *,
                    completion_cap: int | None = None) -> Reservation | None:
        return self._call("try_reserve", est_prompt_tokens, est_completion_tokens, completion_cap=completion_cap)

    def reserve(self, est_prompt_tokens: int, est_completion_tokens: int, *,
                completion_cap: int | None = None) -> Reservation:
        return self._call("reserve", est_prompt_tokens, est_completion_tokens, completion_cap=completion_cap)

    def record(self, prompt_tokens: int, completion_tokens: int, reservation: Reservation | None = None, *,
               calibrate: bool = True) -> None:
        self._call("record", prompt_tokens, completion_tokens, reservation, calibrate=calibrate)

    def release(self, reservation: Reservation | None = None) -> None:
        self._call("release", reservation)

    def record_unknown(self, reservation: Reservation) -> None:
        self._call("record_unknown", reservation)

    def record_cached(self) -> None:
        self._call("record_cached")

    def final_error(self, error: BudgetExceededError) -> BudgetExceededError:
        message = _get(self._limiter.final_error.remote(getattr(error, "budget_limit", None), str(error)))
        err = BudgetExceededError(message)
        err.budget_limit = getattr(error, "budget_limit", None)  # type: ignore[attr-defined]
        return err


class _RemoteWindow:
    """The client's rate window (``acquire``/``settle``), kept by the limiter actor."""

    def __init__(self, limiter: Any) -> None:
        self._limiter = limiter
        self._ids = itertools.count()

    async def acquire(self, tokens: int = 0) -> int:
        while True:
            ticket, wait = await self._limiter.rate_try.remote(tokens)
            if ticket is not None:
                return ticket
            await asyncio.sleep(max(wait, POLL_SECONDS))

    def settle(self, ticket: int, tokens: int) -> None:
        self._limiter.rate_settle.remote(ticket, tokens)  # fire and forget: the window only tightens later


class _RemoteSlot:
    """``async with``: one of the run's ``concurrency`` request slots, held for the HTTP request."""

    def __init__(self, limiter: Any) -> None:
        self._limiter = limiter

    async def __aenter__(self) -> None:
        while not await self._limiter.slot_try.remote():
            await asyncio.sleep(POLL_SECONDS)

    async def __aexit__(self, *exc: Any) -> None:
        await self._limiter.slot_release.remote()


class SharedLimitClient(ChatClient):
    """The judge's HTTP client, with the run-wide slot and rate window in place of the per-process ones."""

    def __init__(self, config: LLMConfig, limiter: Any) -> None:
        super().__init__(config, limiter=_RemoteWindow(limiter))  # type: ignore[arg-type]
        self._slot = _RemoteSlot(limiter)

    def _sem(self) -> Any:  # the per-loop semaphore of ChatClient, made global
        return self._slot
