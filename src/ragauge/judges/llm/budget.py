"""What a run may spend on the LLM judge (calls, tokens, money), what it spent, and dry-run estimates.

- :class:`Prices`: USD per million prompt / completion tokens for a model; :func:`load_prices` reads a
  table (TOML ``[prices."gpt-4o-mini"] input = 0.15 output = 0.60`` or a dict). No prices ship with
  ragauge: they change, and a wrong built-in price is worse than none. Without a price for the
  model, cost is reported as unknown and a money limit is refused up front (:class:`ConfigError`).
- :class:`Budget`: limits plus the running :class:`Spend`. Before each *paid* call (cache hits are
  free) :meth:`Budget.try_reserve` books it (a :class:`Reservation`); when the call returns, the
  reservation is swapped for the usage the server reported (:meth:`Budget.record`); a failed call gives
  it back (:meth:`Budget.release`), one the server may have billed is booked at its worst case
  (:meth:`Budget.record_unknown`). Under a token or money limit the first paid call goes alone (its
  bill calibrates the estimates); then a call starts beside the calls in flight only when spent +
  their reservations + its *worst case* (prompt estimate x the largest billed/estimated prompt ratio
  seen + the request's whole ``max_tokens``) fits every limit, and otherwise only alone, when spent +
  its calibrated estimate fits. So only a call running alone can pass a limit, by what it bills beyond
  its calibrated estimate (given a server that bills no more completion tokens than ``max_tokens`` and
  no prompt above the ratio already seen). When no call can start,
  :class:`ragauge.errors.BudgetExceededError` names the limit, what was spent and that the replies
  already paid for are cached (a re-run with a larger budget does not pay for them again); calls
  already in flight finish and are cached.
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
from .wording import count


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


@dataclass(frozen=True, slots=True)
class Reservation:
    """What one paid call holds while in flight (hand it back to :meth:`Budget.record` or :meth:`Budget.release`)."""

    tokens: int  #: held: the call's worst case (calibrated prompt + the whole completion cap)
    cost: float  #: held USD, the same worst case
    est_prompt: int  #: the raw estimates, for calibrating the ratios when the bill comes
    est_completion: int
    raw_cost: float  #: USD of the raw estimates


@dataclass
class Budget:
    """Limits for one run (``None``: no limit) and the running spend. Thread-safe."""

    max_calls: int | None = None
    max_tokens: int | None = None
    max_cost: float | None = None
    prices: Prices | None = None
    spend: Spend = field(default_factory=Spend)
    _in_flight: int = 0
    _held_tokens: int = 0  #: worst-case tokens reserved by the calls in flight
    _held_cost: float = 0.0  #: worst-case USD reserved by the calls in flight
    _ratio_prompt: float = 1.0  #: largest billed / estimated prompt tokens of a returned call (>= 1)
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
            f"LLM judge budget exceeded: {what}. Spent so far: {count(s.calls, 'call')}{running}, {s.prompt_tokens} prompt + "
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

    def try_reserve(self, est_prompt_tokens: int, est_completion_tokens: int, *,
                    completion_cap: int | None = None) -> Reservation | None:
        """:meth:`reserve`, or ``None`` ("wait and ask again") while calls are in flight and this one must
        not start beside them: the first call under a token or money limit (its bill calibrates the
        estimates), or a call whose worst case does not fit beside theirs (one of them may come back
        cheaper, or this call will go alone)."""
        with self._lock:
            if self._calibrating and self._in_flight > 0:
                return None
            return self._reserve(est_prompt_tokens, est_completion_tokens, completion_cap, wait=True)

    def reserve(self, est_prompt_tokens: int, est_completion_tokens: int, *,
                completion_cap: int | None = None) -> Reservation:
        """Book one paid call, or raise :class:`BudgetExceededError` if it cannot start (:meth:`_reserve`).
        ``completion_cap``: the request's ``max_tokens``, the most completion tokens it can be billed
        (default: the calibrated completion estimate)."""
        with self._lock:
            got = self._reserve(est_prompt_tokens, est_completion_tokens, completion_cap, wait=False)
            assert got is not None
            return got

    def _reserve(self, est_prompt: int, est_completion: int, cap: int | None, *, wait: bool) -> Reservation | None:
        """The rule: a call starts beside the calls in flight when spent + their worst cases + its worst case
        fit every limit (worst case: the prompt estimate times the largest billed/estimated prompt ratio seen,
        plus the whole completion cap). A call that does not fit so starts only alone -- nothing in flight --
        and when spent + its calibrated estimate (the estimates times the largest billed/estimated ratio
        seen) fits; it holds its worst case, so nothing starts beside it. So only a call running alone can
        pass a limit, by what it bills beyond its calibrated estimate."""
        s = self.spend
        if self.max_calls is not None and s.calls + self._in_flight + 1 > self.max_calls:
            raise self._stop(f"the next call would exceed max_calls={self.max_calls}")
        prompt = int(est_prompt * self._ratio_prompt + 0.999)
        completion = cap if cap is not None else int(est_completion * self._ratio_tokens + 0.999)
        worst = prompt + completion
        calibrated = min(worst, int((est_prompt + est_completion) * self._ratio_tokens + 0.999))
        raw_cost = worst_cost = calibrated_cost = 0.0
        if self.prices is not None:
            raw_cost = self.prices.cost(est_prompt, est_completion)
            worst_cost = self.prices.cost(prompt, completion)
            calibrated_cost = min(worst_cost, raw_cost * self._ratio_cost)
        used = s.prompt_tokens + s.completion_tokens
        spent_cost = s.cost or 0.0
        over_tokens = self.max_tokens is not None and used + self._held_tokens + worst > self.max_tokens
        over_cost = self.max_cost is not None and spent_cost + self._held_cost + worst_cost > self.max_cost
        if over_tokens or over_cost:
            if self._in_flight > 0 and wait:
                return None
            if over_tokens and self._in_flight > 0:
                raise self._stop(f"the next call (~{worst} tokens at most) would exceed max_tokens={self.max_tokens} "
                                 f"({used} used, ~{self._held_tokens} reserved by the calls in flight)")
            if over_cost and self._in_flight > 0:
                raise self._stop(f"the next call (~${worst_cost:.4f} at most) would exceed max_cost=${self.max_cost} "
                                 f"(${spent_cost:.4f} spent, ~${self._held_cost:.4f} reserved by the calls in flight)")
            if self.max_tokens is not None and used + calibrated > self.max_tokens:
                raise self._stop(f"the next call (~{calibrated} tokens) would exceed max_tokens={self.max_tokens} "
                                 f"({used} used)")
            if self.max_cost is not None and spent_cost + calibrated_cost > self.max_cost:
                raise self._stop(f"the next call (~${calibrated_cost:.4f}) would exceed max_cost=${self.max_cost} "
                                 f"(${spent_cost:.4f} spent)")
        self._in_flight += 1
        self._held_tokens += worst
        self._held_cost += worst_cost
        return Reservation(worst, worst_cost, est_prompt, est_completion, raw_cost)

    def _unhold(self, reservation: Reservation | None) -> None:
        self._in_flight = max(0, self._in_flight - 1)
        if reservation is not None:
            self._held_tokens = max(0, self._held_tokens - reservation.tokens)
            self._held_cost = max(0.0, self._held_cost - reservation.cost)
        if self._in_flight == 0:
            self._held_tokens, self._held_cost = 0, 0.0

    def release(self, reservation: Reservation | None = None) -> None:
        """A reserved call failed without a reply (nothing billed): its reservation is given back."""
        with self._lock:
            self._unhold(reservation)

    def record(self, prompt_tokens: int, completion_tokens: int, reservation: Reservation | None = None, *,
               calibrate: bool = True) -> None:
        """A reserved call came back with this usage: the reservation is replaced by it, and (``calibrate``)
        the ratios of the bill to the raw estimates calibrate the next reservations."""
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
            if reservation is not None and calibrate:
                r = reservation
                if r.est_prompt > 0:
                    self._ratio_prompt = max(self._ratio_prompt, prompt_tokens / r.est_prompt)
                if r.est_prompt + r.est_completion > 0:
                    self._ratio_tokens = max(self._ratio_tokens,
                                             (prompt_tokens + completion_tokens) / (r.est_prompt + r.est_completion))
                if r.raw_cost > 0:
                    self._ratio_cost = max(self._ratio_cost, cost / r.raw_cost)

    def record_unknown(self, reservation: Reservation) -> tuple[int, int]:
        """A reserved call the server may have billed although its reply was refused (over-size): booked at
        its worst case, without calibrating anything. Returns the ``(prompt, completion)`` tokens booked."""
        prompt = int(reservation.est_prompt * self._ratio_prompt + 0.999)
        completion = max(0, reservation.tokens - prompt)
        self.record(prompt, completion, reservation, calibrate=False)
        return prompt, completion

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
        return (f"dry run: {count(self.calls, 'call')} to pay for ({self.cached} already cached), ~{self.prompt_tokens} "
                f"prompt + ~{self.completion_tokens} completion tokens, estimated cost {cost}")
