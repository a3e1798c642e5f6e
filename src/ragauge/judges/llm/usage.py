"""Who paid for which judge call: calls, cache hits, tokens and cost per metric, per prompt and per run.

Every reply the LLM judge gets (paid or from the cache) is recorded once, with the metrics it serves
(:func:`serving`, a context variable: the engine sets it around each metric family, the up-front
plan sets it per call). Attribution is **exclusive plus shared buckets**, so nothing is counted
twice and nothing is split by a made-up ratio:

- ``by_metric[NAME]``: calls that served only that metric (e.g. ``answer_relevancy``'s questions);
- ``shared["faithfulness+answer_correctness"]``: calls that served several metrics at once (one claims
  extraction for faithfulness and answer correctness; the merged verification of a sample), with
  ``metrics`` listing them;
- ``total``: the whole run; ``sum(by_metric) + sum(shared) == total`` for every counter.

Counters per bucket: ``calls`` (paid replies), ``cached`` (replies from the cache, free),
``prompt_tokens``/``completion_tokens`` of the paid calls, ``cost_usd`` (``None`` without prices),
``cached_tokens`` (what the cache hits cost when first paid: the saving).

>>> led = UsageLedger()
>>> with serving(["faithfulness", "answer_correctness"]):
...     led.record("claims_pair.en@1", prompt_tokens=100, completion_tokens=20)
>>> with serving(["answer_relevancy"]):
...     led.record("questions.en@1", prompt_tokens=50, completion_tokens=10)
...     led.record("questions.en@1", cached=True, prompt_tokens=50, completion_tokens=10)
>>> d = led.to_dict()
>>> d["total"]["calls"], d["by_metric"]["answer_relevancy"]["cached"], list(d["shared"])
(2, 1, ['answer_correctness+faithfulness'])
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from .budget import Prices

#: Bucket of calls made outside any metric (a direct ``judge.verify(...)`` from user code).
UNATTRIBUTED = "unattributed"
ATTRIBUTION = ("exclusive + shared: a call serving one metric counts in by_metric[metric]; a call serving "
               "several (claims extracted once for faithfulness and answer correctness, a sample's merged "
               "verification) counts once in shared['a+b'], never split; by_metric + shared = total")

_SERVING: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("ragauge_serving", default=())


@contextlib.contextmanager
def serving(metrics: Iterable[str]) -> Iterator[None]:
    """Calls made inside this block (and in tasks started from it) serve ``metrics``."""
    token = _SERVING.set(tuple(sorted(set(metrics))))
    try:
        yield
    finally:
        _SERVING.reset(token)


def current_metrics() -> tuple[str, ...]:
    return _SERVING.get()


@contextlib.contextmanager
def narrowed(base: str, *, exclude: bool = False) -> Iterator[None]:
    """Inside a family's scope, attribute to the metrics named ``base`` (or ``base@...``) only -- or, with
    ``exclude``, to the others -- when any are left: a door method that only one metric asks
    (``relevance``: answer relevancy) narrows the family's scope ("answer_correctness+answer_relevancy")."""
    keep = [m for m in current_metrics() if (m == base or m.startswith(base + "@")) != exclude]
    with serving(keep) if keep else contextlib.nullcontext():
        yield


@dataclass
class Counter:
    calls: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    cost: float | None = 0.0

    def add(self, *, cached: bool, prompt_tokens: int, completion_tokens: int, cost: float | None) -> None:
        if cached:
            self.cached += 1
            self.cached_tokens += prompt_tokens + completion_tokens
            return
        self.calls += 1
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        self.cost = None if cost is None or self.cost is None else self.cost + cost

    def to_dict(self) -> dict[str, Any]:
        return {"calls": self.calls, "cached": self.cached, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "tokens": self.prompt_tokens + self.completion_tokens, "cached_tokens": self.cached_tokens,
                "cost_usd": None if self.cost is None else round(self.cost, 6)}


class UsageLedger:
    """Thread-safe record of judge replies by metric bucket and by prompt (see the module docstring)."""

    def __init__(self, prices: Prices | None = None) -> None:
        self.prices = prices
        self._lock = threading.Lock()
        self._total = self._new()
        self._buckets: dict[tuple[str, ...], Counter] = {}
        self._prompts: dict[str, Counter] = {}

    def _new(self) -> Counter:
        return Counter(cost=0.0 if self.prices is not None else None)

    def record(self, prompt_id: str, *, cached: bool = False, prompt_tokens: int = 0, completion_tokens: int = 0,
               metrics: tuple[str, ...] | None = None) -> None:
        """One reply (``cached``: from the cache) for the metrics in :func:`serving` (or ``metrics``)."""
        who = metrics if metrics is not None else current_metrics()
        who = who or (UNATTRIBUTED,)
        cost = None if self.prices is None else self.prices.cost(prompt_tokens, completion_tokens)
        task = prompt_id.split("@", 1)[0].rsplit(".", 1)[0]  # "verify_multi.ru@1" -> "verify_multi"
        with self._lock:
            for c in (self._total, self._buckets.setdefault(who, self._new()), self._prompts.setdefault(task, self._new())):
                c.add(cached=cached, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost=cost)

    def to_dict(self) -> dict[str, Any]:
        with self._lock:
            by_metric = {k[0]: c.to_dict() for k, c in sorted(self._buckets.items()) if len(k) == 1}
            shared = {"+".join(k): {"metrics": list(k), **c.to_dict()}
                      for k, c in sorted(self._buckets.items()) if len(k) > 1}
            return {"total": self._total.to_dict(), "by_metric": by_metric, "shared": shared,
                    "by_prompt": {k: c.to_dict() for k, c in sorted(self._prompts.items())},
                    "attribution": ATTRIBUTION}


__all__ = ["ATTRIBUTION", "UNATTRIBUTED", "Counter", "UsageLedger", "current_metrics", "narrowed", "serving"]
