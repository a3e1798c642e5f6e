"""Requests-per-period and tokens-per-period limits for an LLM endpoint (a sliding window).

``acquire(tokens)`` waits until one more request of ``tokens`` estimated tokens fits both limits in
the last ``period`` seconds, then books it; ``settle(ticket, actual)`` replaces the estimate with the
usage the server reported. A single request larger than the token limit is let through alone
(it could never fit otherwise). Clock and sleep are injectable so the tests need no real waiting.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import OrderedDict
from typing import Awaitable, Callable


class RateLimiter:
    def __init__(
        self,
        *,
        requests: float | None = None,
        tokens: float | None = None,
        period: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if period <= 0:
            raise ValueError(f"period must be > 0 (got {period})")
        self.requests, self.tokens, self.period = requests, tokens, period
        self._clock, self._sleep = clock, sleep
        self._book: OrderedDict[int, tuple[float, int]] = OrderedDict()  # ticket -> (time, tokens)
        self._ids = itertools.count()
        self.waited = 0.0

    @property
    def active(self) -> bool:
        return self.requests is not None or self.tokens is not None

    def _prune(self, now: float) -> None:
        while self._book:
            ticket, (t, _) = next(iter(self._book.items()))
            if now - t < self.period:
                break
            self._book.pop(ticket)

    def _wait_needed(self, now: float, tokens: int) -> float:
        self._prune(now)
        if not self._book:
            return 0.0
        oldest = next(iter(self._book.values()))[0]
        until_oldest_leaves = oldest + self.period - now
        if self.requests is not None and len(self._book) + 1 > self.requests:
            return until_oldest_leaves
        if self.tokens is not None and sum(n for _, n in self._book.values()) + tokens > self.tokens:
            return until_oldest_leaves
        return 0.0

    async def acquire(self, tokens: int = 0) -> int:
        """Wait for room, book one request of ``tokens``; returns the ticket for :meth:`settle`."""
        while self.active:
            wait = self._wait_needed(self._clock(), tokens)
            if wait <= 0:
                break
            self.waited += wait
            await self._sleep(wait)
        ticket = next(self._ids)
        if self.active:
            self._book[ticket] = (self._clock(), tokens)
        return ticket

    def settle(self, ticket: int, tokens: int) -> None:
        if ticket in self._book:
            t, _ = self._book[ticket]
            self._book[ticket] = (t, tokens)
