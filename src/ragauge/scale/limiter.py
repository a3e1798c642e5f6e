"""One limit for every worker: LLM-judge concurrency, rate and budget held by a single Ray actor.

Each worker's LLM judge would otherwise apply ``concurrency``/``requests_per_minute``/``max_calls``
*per process*, and 8 workers would send 8 times what the user allowed. :class:`LimiterState` holds the
run's one :class:`~ragauge.judges.llm.budget.Budget` and one sliding-window
:class:`~ragauge.judges.llm.ratelimit.RateLimiter` (the same classes the local judge uses, so the
rules are the same) plus a count of requests in flight; the driver starts it as one actor
(:func:`start_limiter`) and hands its handle to the workers, whose judges reach it through
:class:`SharedBudget` (the budget door the judge calls) and :class:`SharedLimitClient` (the HTTP
client whose slot and rate window are the actor's).

A request slot is a *lease*: it names its holder (the worker's Ray actor, process and node) and expires
one whole-request deadline (``timeout``) plus :data:`LEASE_MARGIN` after it was taken. A worker that dies
mid-call never gives its slot back, so when every slot is taken the limiter takes back the leases whose
holder is gone (its actor dead, or restarted as another process) and those past their expiry; without
that, one killed worker would hold a slot forever (with ``concurrency=1``, the run would hang). With
``timeout=0`` (no deadline, so no expiry) a lease is *renewed* instead: its holder renews it every
:data:`RENEW_EVERY_SECONDS` while the request runs, and a lease not renewed for :data:`RENEW_SECONDS` is taken
back, whether or not Ray can tell that its holder died. A request cancelled (or failed) while it waits for
the limiter's answer gives back the slot the limiter grants it (:class:`_RemoteSlot`). Its
budget reservation is not taken back: the limiter errs on the safe side there (the reservation's worst
case is held until the run ends), so a death never lets the run spend past a limit. A dead *limiter* is
not restarted (it would forget the spend): the run fails loudly instead.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from dataclasses import replace
from typing import Any, Callable

from ..errors import BudgetExceededError
from ..judges.llm.budget import Budget, Prices, Reservation, Spend
from ..judges.llm.client import ChatClient
from ..judges.llm.config import LLMConfig
from ..judges.llm.ratelimit import RateLimiter

__all__ = ["LimiterState", "SharedBudget", "SharedLimitClient", "start_limiter"]

#: How long a worker waits before asking the actor again for a slot or a reservation.
POLL_SECONDS = 0.01
#: Seconds a slot's lease outlives the request's whole-request deadline (``LLMConfig.timeout``).
LEASE_MARGIN = 30.0
#: How often (seconds, at most) a limiter whose slots are all taken asks Ray whether their holders live.
HOLDER_CHECK_SECONDS = 0.5
#: A lease younger than this is not asked about: the check is a call to Ray's control plane inside the limiter,
#: which serves every worker one call at a time, and a request that just started is not the one that hangs.
HOLDER_MIN_AGE_SECONDS = 2.0
#: ``timeout=0``: a lease not renewed for this long is taken back (its holder renews it every
#: :data:`RENEW_EVERY_SECONDS`: a live holder misses three renewals before it could lose its slot).
RENEW_SECONDS = 60.0
RENEW_EVERY_SECONDS = 15.0

#: A slot's holder: ``(actor id or None, pid, node id or None)``; ``None``: anonymous (no liveness check).
Holder = tuple[str | None, int, str | None]


class _MustWait(Exception):
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds


def _refuse(seconds: float) -> Any:
    raise _MustWait(seconds)


class _Lease:
    """One slot held: its holder, when it was taken, and until when it holds without a renewal (``None``: no
    expiry) and at most (``cap``, the request's deadline plus the margin; ``None``: none)."""

    __slots__ = ("holder", "taken", "until", "cap")

    def __init__(self, holder: Holder | None, taken: float, until: float | None, cap: float | None) -> None:
        self.holder, self.taken, self.until, self.cap = holder, taken, until, cap


class LimiterState:
    """The shared counters (plain Python: unit-tested without Ray; the actor is this class, remote)."""

    def __init__(self, *, concurrency: int, requests_per_minute: float | None = None,
                 tokens_per_minute: float | None = None, max_calls: int | None = None,
                 max_tokens: int | None = None, max_cost: float | None = None,
                 prices: Prices | None = None, lease_seconds: float | None = None,
                 renew_seconds: float | None = None, clock: Callable[[], float] = time.monotonic,
                 holder_alive: Callable[[Holder], bool | None] | None = None) -> None:
        """``lease_seconds``: how long a slot is held at most (``None``: no cap); ``renew_seconds``: a lease not
        renewed (:meth:`slot_renew`) for this long is taken back (``None``: no renewal asked; with neither, a
        slot is held until given back or its holder is gone); ``holder_alive``: whether a holder still runs
        (``None``: unknown; default: asks Ray)."""
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        self.concurrency = concurrency
        self.budget = Budget(max_calls=max_calls, max_tokens=max_tokens, max_cost=max_cost, prices=prices)
        # the window's "sleep" refuses instead: the caller (a worker) waits, not the actor
        self.rate = RateLimiter(requests=requests_per_minute, tokens=tokens_per_minute, sleep=_refuse)
        self.lease_seconds = lease_seconds
        self.renew_seconds = renew_seconds
        self._clock = clock
        self._holder_alive = holder_alive or _ray_holder_alive
        self._leases: dict[int, _Lease] = {}
        self._tokens = itertools.count(1)
        self._checked_at: float | None = None
        self.max_in_flight = 0  #: the most requests in flight at once, over the run (for tests and reports)
        self.requests = 0
        self.reclaimed = 0  #: slots taken back from dead holders, past their lease or not renewed

    @property
    def in_flight(self) -> int:
        return len(self._leases)

    def slots_held(self) -> int:
        """Slots leased now (what :attr:`in_flight` says, callable on the actor)."""
        return len(self._leases)

    # --- concurrency ------------------------------------------------------------------------------
    def slot_lease(self, holder: Holder | None = None) -> int | None:
        """A slot for ``holder``: its lease token (give it to :meth:`slot_return`), or ``None`` when all
        ``concurrency`` slots are taken by live holders within their lease."""
        if len(self._leases) >= self.concurrency:
            self._reclaim()
            if len(self._leases) >= self.concurrency:
                return None
        now = self._clock()
        token = next(self._tokens)
        self._leases[token] = _Lease(holder, now, None if self.renew_seconds is None else now + self.renew_seconds,
                                     None if self.lease_seconds is None else now + self.lease_seconds)
        self.requests += 1
        self.max_in_flight = max(self.max_in_flight, len(self._leases))
        return token

    def slot_return(self, token: int | None) -> None:
        """Give back a lease. ``None`` (a lease that was refused) and a lease already taken back are ignored:
        it frees no one else's slot."""
        if token is not None:
            self._leases.pop(token, None)

    def slot_renew(self, token: int) -> bool:
        """Extend a renewable lease by :attr:`renew_seconds` from now; ``False`` when it was taken back."""
        lease = self._leases.get(token)
        if lease is None:
            return False
        if self.renew_seconds is not None:
            lease.until = self._clock() + self.renew_seconds
        return True

    def slot_try(self) -> bool:
        """An anonymous slot (no holder to check: only its lease expires)."""
        return self.slot_lease() is not None

    def slot_release(self) -> None:
        """Give back an anonymous slot taken with :meth:`slot_try`."""
        for token, lease in self._leases.items():
            if lease.holder is None:
                del self._leases[token]
                return

    def _reclaim(self) -> None:
        """Take back the leases past their cap or not renewed in time, and (at most every
        :data:`HOLDER_CHECK_SECONDS`) those whose holder no longer runs."""
        now = self._clock()
        gone = [t for t, lease in self._leases.items()
                if any(x is not None and now >= x for x in (lease.until, lease.cap))]
        if self._checked_at is None or now - self._checked_at >= HOLDER_CHECK_SECONDS:
            self._checked_at = now
            verdict: dict[Holder, bool | None] = {}
            for token, lease in self._leases.items():
                holder = lease.holder
                if holder is None or holder[0] is None or token in gone:
                    continue
                if now - lease.taken < HOLDER_MIN_AGE_SECONDS:
                    continue
                if holder not in verdict:
                    try:
                        verdict[holder] = self._holder_alive(holder)
                    except Exception:  # noqa: BLE001 - a check that fails says nothing: the expiry still applies
                        verdict[holder] = None
                if verdict[holder] is False:
                    gone.append(token)
        for token in gone:
            del self._leases[token]
        self.reclaimed += len(gone)

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
                "max_in_flight": self.max_in_flight, "concurrency": self.concurrency,
                "slots_reclaimed": self.reclaimed}


def _ray_holder_alive(holder: Holder) -> bool | None:
    """Whether the Ray actor that took a slot still runs as the same process: ``False`` when Ray says the
    actor is dead, restarting, or alive as another process (a restarted worker); ``None`` when it cannot
    tell (then only the lease's expiry takes the slot back)."""
    actor_id, pid, node = holder
    if actor_id is None:
        return None
    try:  # the GCS actor table (Ray's public state API needs the dashboard, which a run may not have); a private
        # API whose answer may change shape between Ray versions: anything unexpected means "cannot tell"
        from ray._private.state import actors

        info = actors(actor_id=actor_id)
        if not isinstance(info, dict) or not info:
            return None
        state = info.get("State")
        if state in ("DEAD", "RESTARTING"):
            return False
        if state != "ALIVE":
            return None  # pending creation or unknown: not ours to judge
        address = info.get("Address")
        now_on = address.get("NodeID") if isinstance(address, dict) else None
        if node and now_on and now_on != node:
            return False  # restarted on another machine
        now_pid = info.get("Pid")
        if not isinstance(now_pid, int) or now_pid <= 0:
            return None  # unset (0) or unknown: a live holder must never lose its slot on a guess
        # another pid: restarted as another process (a worker and its raylet share a PID namespace: a Ray node
        # is one machine or one pod)
        return now_pid == pid
    except Exception:  # noqa: BLE001
        return None


def _this_holder() -> Holder:
    """This process as a slot holder: its Ray actor (when it is one), pid and node."""
    try:
        import ray

        ctx = ray.get_runtime_context()
        return ctx.get_actor_id(), os.getpid(), ctx.get_node_id()
    except Exception:
        return None, os.getpid(), None


def start_limiter(config: LLMConfig, *, max_calls: int | None = None, max_tokens: int | None = None,
                  max_cost: float | None = None, prices: Prices | None = None) -> Any:
    """The run's limiter actor (``ray`` must be initialised). ``max_restarts=0``: a limiter that died would
    forget what was spent, so the run fails loudly instead of starting again from zero."""
    import ray

    actor = ray.remote(num_cpus=0, max_restarts=0)(LimiterState)
    lease, renew = _lease_terms(config)
    return actor.remote(concurrency=config.concurrency, requests_per_minute=config.requests_per_minute,
                        tokens_per_minute=config.tokens_per_minute, max_calls=max_calls, max_tokens=max_tokens,
                        max_cost=max_cost, prices=prices, lease_seconds=lease, renew_seconds=renew)


def _lease_terms(config: LLMConfig) -> tuple[float | None, float | None]:
    """``(lease_seconds, renew_seconds)`` of the run's slots: a cap of the request deadline plus the margin;
    with ``timeout=0`` (no deadline) no cap, a renewal instead (module doc)."""
    if config.timeout:
        return config.timeout + LEASE_MARGIN, None
    return None, RENEW_SECONDS


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


def _give_back(limiter: Any, token: Any) -> None:
    """Send a slot back (a token, or the reference of a lease still being answered: Ray hands the actor the
    token it granted, or ``None``), without waiting; a limiter that is gone has nothing to give back."""
    try:
        limiter.slot_return.remote(token)
    except Exception:  # noqa: BLE001 - never hide the error (or cancellation) that is being raised
        pass


class _RemoteSlot:
    """``async with``: one of the run's ``concurrency`` request slots, leased for the HTTP request (one
    object per request: each holds its own lease token). ``renew_every``: seconds between renewals of a
    renewable lease (``timeout=0``), ``None`` for a lease that expires by itself.

    Cancel- and exception-safe: a request cancelled (a timeout, a sibling's failure, Ctrl-C) or failed while
    the limiter answers its lease asks the limiter to take back whatever it granted (the lease's own
    reference is sent, so the give-back runs after the lease, never before it); once held, the slot is given
    back on any exit, and the give-back is sent before any ``await``."""

    def __init__(self, limiter: Any, holder: Holder, renew_every: float | None = None) -> None:
        self._limiter = limiter
        self._holder = holder
        self._renew_every = renew_every
        self._token: int | None = None
        self._renewer: asyncio.Task[None] | None = None

    async def __aenter__(self) -> None:
        while True:
            ref = self._limiter.slot_lease.remote(self._holder)
            try:
                token = await ref
            except BaseException:
                _give_back(self._limiter, ref)
                raise
            if token is not None:
                self._token = token
                if self._renew_every:
                    self._renewer = asyncio.ensure_future(self._renew(token, self._renew_every))
                return
            await asyncio.sleep(POLL_SECONDS)

    async def _renew(self, token: int, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            self._limiter.slot_renew.remote(token)  # fire and forget: a late renewal of a returned lease is ignored

    async def __aexit__(self, *exc: Any) -> None:
        token, self._token = self._token, None
        renewer, self._renewer = self._renewer, None
        if renewer is not None:
            renewer.cancel()
        if token is not None:
            done = self._limiter.slot_return.remote(token)  # sent now: a cancellation of the wait below loses nothing
            await done


class SharedLimitClient(ChatClient):
    """The judge's HTTP client, with the run-wide slot and rate window in place of the per-process ones."""

    def __init__(self, config: LLMConfig, limiter: Any) -> None:
        super().__init__(config, limiter=_RemoteWindow(limiter))  # type: ignore[arg-type]
        self._limiter_actor = limiter
        self._holder: Holder | None = None
        self._renew_every = None if _lease_terms(config)[1] is None else RENEW_EVERY_SECONDS

    def _sem(self) -> Any:  # the per-loop semaphore of ChatClient, made global: a lease per request
        if self._holder is None:
            self._holder = _this_holder()
        return _RemoteSlot(self._limiter_actor, self._holder, self._renew_every)
