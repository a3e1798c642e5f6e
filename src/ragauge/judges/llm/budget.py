"""What a run may spend on the LLM judge (calls, tokens, money), what it spent, and dry-run estimates.

- :class:`Prices`: USD per million prompt / completion tokens for a model; :func:`load_prices` reads a
  table (TOML ``[prices."gpt-4o-mini"] input = 0.15 output = 0.60`` or a dict). No prices ship with
  ragauge: they change, and a wrong built-in price is worse than none. Without a price for the
  model, cost is reported as unknown and a money limit is refused up front (:class:`ConfigError`).
- :class:`Budget`: limits plus the running :class:`Spend`. Before each *paid* call (cache hits are
  free) :meth:`Budget.reserve` books the call's estimated tokens and cost and checks that what was
  spent, plus every reservation of the calls still in flight, plus this one, fits each limit; if not
  it raises :class:`ragauge.errors.BudgetExceededError` naming the limit, what was spent and that the
  replies already paid for are cached (a re-run with a larger budget does not pay for them again).
  When a call returns, its reservation is swapped for the usage the server reported
  (:meth:`Budget.record`); a failed call gives it back (:meth:`Budget.release`). So a batch of
  concurrent calls cannot all start below the limit. The estimates (``ceil(utf8 bytes / 4)`` prompt
  tokens plus the caller's completion estimate) are calibrated on what the server bills: with a token
  or money limit the first paid call goes alone (:meth:`Budget.try_reserve` says "wait" to the others
  until one has returned), and every reservation is the estimate times the largest
  billed/estimated ratio seen so far (never below 1). So the spend passes a limit only by what one
  call bills beyond its calibrated estimate. Calls already in flight finish and are cached; no new
  call starts.
- :class:`PlannedCalls`: what a dry run counted -- calls, cache hits, estimated tokens and cost.

Cost = ``prompt_tokens * input / 1e6 + completion_tokens * output / 1e6``.

>>> Prices(0.15, 0.60).cost(1_000_000, 500_000)
0.45
"""

from __future__ import annotations

import threading
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ...errors import BudgetExceededError, ConfigError


@dataclass(frozen=True, slots=True)
class Prices:
    input: float  #: USD per 1M prompt tokens
    output: float  #: USD per 1M completion tokens

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return round(prompt_tokens * self.input / 1e6 + completion_tokens * self.output / 1e6, 6)


def load_prices(source: str | Path | Mapping[str, Any]) -> dict[str, Prices]:
    """A price table from a TOML file (table ``[prices]`` or top level) or a mapping ``model -> {input, output}``."""
    where = "price table"
    if isinstance(source, (str, Path)):
        where = str(source)
        try:
            data: Mapping[str, Any] = tomllib.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{where}: cannot read the price table: {exc}") from None
        data = data.get("prices", data)
    else:
        data = source
    table = {}
    for model, entry in data.items():
        if not isinstance(entry, Mapping) or not all(
                isinstance(entry.get(k), (int, float)) and not isinstance(entry.get(k), bool) and entry[k] >= 0
                for k in ("input", "output")):
            raise ConfigError(f"{where}: price of {model!r} must be {{input = USD per 1M tokens, output = ...}}, "
                              f"got {entry!r}")
        table[model] = Prices(float(entry["input"]), float(entry["output"]))
    return table


@dataclass
class Spend:
    calls: int = 0  #: paid replies
    cached: int = 0  #: replies served from the cache (free)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = 0.0  #: USD; ``None`` when the model has no price

    def to_dict(self) -> dict[str, Any]:
        return {"calls": self.calls, "cached": self.cached, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "cost_usd": None if self.cost is None else round(self.cost, 6)}


@dataclass
class Budget:
    """Limits for one run (``None``: no limit) and the running spend. Thread-safe."""

    max_calls: int | None = None
    max_tokens: int | None = None
    max_cost: float | None = None
    prices: Prices | None = None
    spend: Spend = field(default_factory=Spend)
    _in_flight: int = 0
    _held_tokens: int = 0  #: estimated tokens reserved by the calls in flight
    _held_cost: float = 0.0  #: estimated USD reserved by the calls in flight
    _ratio_tokens: float = 1.0  #: largest billed / estimated tokens of a returned call (>= 1)
    _ratio_cost: float = 1.0  #: the same for cost
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        for name in ("max_calls", "max_tokens", "max_cost"):
            v = getattr(self, name)
            if v is not None and v < 0:
                raise ConfigError(f"budget: {name} must be >= 0 (got {v!r})")
        if self.max_cost is not None and self.prices is None:
            raise ConfigError("budget: a money limit needs the model's prices; give a price table "
                              "(e.g. [prices.\"gpt-4o-mini\"] input = 0.15, output = 0.60 USD per 1M tokens)")
        if self.prices is None:
            self.spend.cost = None

    def _stop(self, what: str) -> BudgetExceededError:
        s = self.spend
        running = f", {self._in_flight} more still running (they finish and are cached)" if self._in_flight else ""
        err = BudgetExceededError(
            f"LLM judge budget exceeded: {what}. Spent so far: {s.calls} calls{running}, {s.prompt_tokens} prompt + "
            f"{s.completion_tokens} completion tokens" + ("" if s.cost is None else f", ${s.cost:.4f}")
            + f" ({s.cached} replies from the cache). Every reply paid for is cached: re-run with a larger "
            "budget to continue without paying for them again.")
        err.budget_limit = what  # type: ignore[attr-defined]
        return err

    def final_error(self, error: BudgetExceededError) -> BudgetExceededError:
        """``error`` restated with the spend as it is now (after the calls in flight have finished)."""
        what = getattr(error, "budget_limit", None)
        if what is None:
            return error
        with self._lock:
            return self._stop(what)

    @property
    def _calibrating(self) -> bool:
        """A token or money limit, and no paid call has returned yet: the estimates are not calibrated."""
        return (self.max_tokens is not None or self.max_cost is not None) and self.spend.calls == 0

    def try_reserve(self, est_prompt_tokens: int, est_completion_tokens: int) -> tuple[int, float, int, float] | None:
        """:meth:`reserve`, or ``None`` ("wait and ask again") while a first call under a token or money
        limit is in flight: its bill calibrates the estimates of the others."""
        with self._lock:
            if self._calibrating and self._in_flight > 0:
                return None
            return self._reserve(est_prompt_tokens, est_completion_tokens)

    def reserve(self, est_prompt_tokens: int, est_completion_tokens: int) -> tuple[int, float, int, float]:
        """Book one paid call's estimate, or raise :class:`BudgetExceededError` if what was spent, plus what
        the calls in flight reserved, plus this call would pass a limit. Returns the reservation, to hand to
        :meth:`record` or :meth:`release`."""
        with self._lock:
            return self._reserve(est_prompt_tokens, est_completion_tokens)

    def _reserve(self, est_prompt_tokens: int, est_completion_tokens: int) -> tuple[int, float, int, float]:
        s = self.spend
        if self.max_calls is not None and s.calls + self._in_flight + 1 > self.max_calls:
            raise self._stop(f"the next call would exceed max_calls={self.max_calls}")
        raw_tokens = est_prompt_tokens + est_completion_tokens
        tokens = int(raw_tokens * self._ratio_tokens + 0.999)
        used = s.prompt_tokens + s.completion_tokens
        if self.max_tokens is not None and used + self._held_tokens + tokens > self.max_tokens:
            raise self._stop(f"the next call (~{tokens} tokens) would exceed max_tokens={self.max_tokens} "
                             f"({used} used, ~{self._held_tokens} reserved by the calls in flight)")
        raw_cost = cost = 0.0
        if self.prices is not None:
            raw_cost = self.prices.cost(est_prompt_tokens, est_completion_tokens)
            cost = raw_cost * self._ratio_cost
        if self.max_cost is not None and s.cost is not None:
            if s.cost + self._held_cost + cost > self.max_cost:
                raise self._stop(f"the next call (~${cost:.4f}) would exceed max_cost=${self.max_cost} "
                                 f"(${s.cost:.4f} spent, ~${self._held_cost:.4f} reserved by the calls in flight)")
        self._in_flight += 1
        self._held_tokens += tokens
        self._held_cost += cost
        return tokens, cost, raw_tokens, raw_cost

    def _unhold(self, reservation: tuple[int, float, int, float] | None) -> None:
        self._in_flight = max(0, self._in_flight - 1)
        if reservation is not None:
            self._held_tokens = max(0, self._held_tokens - reservation[0])
            self._held_cost = max(0.0, self._held_cost - reservation[1])
        if self._in_flight == 0:
            self._held_tokens, self._held_cost = 0, 0.0

    def release(self, reservation: tuple[int, float, int, float] | None = None) -> None:
        """A reserved call failed without a reply (nothing billed): its reservation is given back."""
        with self._lock:
            self._unhold(reservation)

    def record(self, prompt_tokens: int, completion_tokens: int,
               reservation: tuple[int, float, int, float] | None = None) -> None:
        """A reserved call came back with this usage: the reservation is replaced by it, and the ratio of
        the bill to the raw estimate calibrates the next reservations."""
        with self._lock:
            self._unhold(reservation)
            s = self.spend
            s.calls += 1
            s.prompt_tokens += prompt_tokens
            s.completion_tokens += completion_tokens
            cost = 0.0
            if s.cost is not None and self.prices is not None:
                cost = self.prices.cost(prompt_tokens, completion_tokens)
                s.cost += cost
            if reservation is not None:
                _, _, raw_tokens, raw_cost = reservation
                if raw_tokens > 0:
                    self._ratio_tokens = max(self._ratio_tokens, (prompt_tokens + completion_tokens) / raw_tokens)
                if raw_cost > 0:
                    self._ratio_cost = max(self._ratio_cost, cost / raw_cost)

    def record_cached(self) -> None:
        with self._lock:
            self.spend.cached += 1


@dataclass
class PlannedCalls:
    """A dry run's count: calls it would pay for, replies already cached, estimated tokens and cost."""

    calls: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    by_prompt: dict[str, int] = field(default_factory=dict)
    prices: Prices | None = None

    def add(self, prompt_id: str, prompt_tokens: int, completion_tokens: int, *, cached: bool) -> None:
        if cached:
            self.cached += 1
            return
        self.calls += 1
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        self.by_prompt[prompt_id] = self.by_prompt.get(prompt_id, 0) + 1

    @property
    def cost(self) -> float | None:
        return None if self.prices is None else self.prices.cost(self.prompt_tokens, self.completion_tokens)

    def to_dict(self) -> dict[str, Any]:
        return {"calls": self.calls, "cached": self.cached, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "by_prompt": dict(self.by_prompt),
                "cost_usd": self.cost}

    def summary(self) -> str:
        cost = "unknown (no price for the model)" if self.cost is None else f"${self.cost:.4f}"
        return (f"dry run: {self.calls} calls to pay for ({self.cached} already cached), ~{self.prompt_tokens} "
                f"prompt + ~{self.completion_tokens} completion tokens, estimated cost {cost}")
