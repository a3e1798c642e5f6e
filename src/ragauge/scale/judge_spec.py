"""Which judge the workers build: a picklable description made on the driver, built once per worker.

A judge object cannot travel to a worker as it is (an LLM judge holds a SQLite connection and an HTTP
client; the offline judge holds loaded models), and an LLM judge built per worker would apply its
limits per worker. So the driver turns what ``evaluate(judge=...)`` was given into a :class:`JudgeSpec`
(:meth:`JudgeSpec.of`), and each worker builds its judge from it once (:meth:`JudgeSpec.build`): the
offline judge loads its models in the worker; an LLM judge gets the run's shared limiter (one budget,
one concurrency and rate limit for all workers) and the shared reply cache path.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import ConfigError
from ..judges.llm.budget import Prices

__all__ = ["JudgeSpec", "uses_llm"]

CASCADE_REFUSED = ("the cascade judge does not run on the Ray engine yet; use --judge offline or openai:MODEL@URL "
                   "there, or run the cascade with the local engine (leave out --engine ray)")


def _llm_inside(obj: Any, depth: int = 3, seen: set[int] | None = None) -> Any:
    """The :class:`LLMJudge` or cascade judge ``obj`` is or holds (its attributes, and the items of lists, tuples
    and dicts among them, ``depth`` levels down), else ``None``."""
    from ..judges.llm.cascade import CascadeJudge
    from ..judges.llm.judge import LLMJudge

    if isinstance(obj, (LLMJudge, CascadeJudge)):
        return obj
    if depth <= 0 or obj is None or isinstance(obj, (str, bytes, int, float, bool)):
        return None
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return None
    seen.add(id(obj))
    if isinstance(obj, dict):
        items: list[Any] = list(obj.values())[:64]
    elif isinstance(obj, (list, tuple, set, frozenset)):
        items = list(obj)[:64]
    else:
        try:
            items = list(vars(obj).values())[:64]
        except TypeError:  # no __dict__ (slots, builtins)
            return None
    for item in items:
        found = _llm_inside(item, depth - 1, seen)
        if found is not None:
            return found
    return None


def _dumps(obj: Any) -> bytes:
    try:
        from ray import cloudpickle  # what Ray ships objects with (classes defined in a notebook pickle)
    except ImportError:
        return pickle.dumps(obj, protocol=5)
    return bytes(cloudpickle.dumps(obj))


def uses_llm(judge: Any) -> bool:
    """Whether ``judge`` (a spec string or a judge object) asks an LLM endpoint: ``openai:...``,
    ``cascade:...``, an ``LLMJudge``, a cascade judge, or an object that wraps one."""
    if isinstance(judge, JudgeSpec):
        return judge.kind == "llm"
    if isinstance(judge, str):
        from ..judges.spec import parse_judge

        return parse_judge(judge, option="judge").kind not in ("auto", "offline", "none")
    return judge is not None and _llm_inside(judge) is not None


@dataclass(frozen=True)
class JudgeSpec:
    """``kind``: ``none``, ``offline``, ``llm`` or ``object`` (a user's picklable judge, shipped as is).

    ``cache_path``: the LLM reply cache every worker opens (a path all workers see; ``None``: the default
    ``$RAGAUGE_CACHE_DIR/llm-replies.sqlite`` *on each worker*). ``offline_cache_dir``: the offline
    judge's embedding cache folder (``None``: ``$RAGAUGE_CACHE_DIR`` on the worker, else in memory)."""

    kind: str
    llm: Any = None  #: LLMConfig (holds the API key: it travels in Ray's object store, not in logs)
    max_calls: int | None = None
    max_tokens: int | None = None
    max_cost: float | None = None
    prices: Prices | None = None
    cache_path: str | None = None
    offline_cache_dir: str | None = None
    judge: Any = None  #: ``kind="object"``: the user's judge, on the driver (:meth:`for_workers` leaves it there)
    judge_bytes: bytes | None = field(default=None, repr=False)  #: the judge, pickled once by :meth:`of`
    judge_ref: Any = field(default=None, repr=False)  #: those bytes in Ray's object store (:meth:`for_workers`)

    def for_workers(self) -> "JudgeSpec":
        """The spec the workers get (``ray`` initialised): an object judge as a reference to the bytes :meth:`of`
        pickled, put once in Ray's object store. Not the object, which Ray would pickle again (and Ray Data
        deep-copies its operators' arguments for its run metadata); not the bytes, which the driver would then
        hold for the whole run."""
        if self.judge_bytes is None:
            return self
        import numpy as np
        import ray

        data = ray.put(np.frombuffer(self.judge_bytes, dtype=np.uint8))  # a buffer: one copy, read in place
        return replace(self, judge=None, judge_bytes=None, judge_ref=data)

    @classmethod
    def of(cls, judge: Any, *, cache_path: str | None = None) -> "JudgeSpec":
        """From what ``evaluate(judge=...)`` takes: ``None``, ``"none"``, ``"auto"``, ``"offline"``,
        ``"openai:MODEL@URL"`` (settings from ``RAGAUGE_LLM_*`` read here, on the driver), an ``LLMJudge``
        (its config, budget limits and cache path), a ``JudgeSpec``, or another picklable judge object."""
        if isinstance(judge, JudgeSpec):
            return judge
        if judge is None or judge == "none":
            return cls("none")
        if isinstance(judge, str):
            from ..judges.spec import parse_judge

            choice = parse_judge(judge, option="judge")
            if choice.kind in ("auto", "offline"):
                return cls("offline")
            if choice.kind == "none":
                return cls("none")
            if choice.kind == "cascade":
                raise ConfigError(CASCADE_REFUSED)
            from ..judges.llm.config import LLMConfig, parse_judge_spec

            model, url = parse_judge_spec(choice.llm or choice.text)
            return cls("llm", llm=LLMConfig.from_env(model=model, base_url=url), cache_path=cache_path)
        from ..judges.llm.judge import LLMJudge

        if isinstance(judge, LLMJudge):
            if judge.dry_run:
                raise ConfigError("a dry run counts calls on one machine: run it with the local engine")
            b = judge.budget
            path = judge.cache.path
            return cls("llm", llm=judge.config, max_calls=b.max_calls, max_tokens=b.max_tokens, max_cost=b.max_cost,
                       prices=b.prices, cache_path=cache_path or (str(path) if path is not None else None))
        from ..judges.offline.judge import OfflineJudge

        if isinstance(judge, OfflineJudge):
            return cls("offline")
        from ..judges.llm.cascade import CascadeJudge

        inner = _llm_inside(judge)
        if isinstance(inner, CascadeJudge):
            raise ConfigError(CASCADE_REFUSED)
        if inner is not None:  # each worker would get its own copy: its own budget, limits and cache
            raise ConfigError(f"the judge object {type(judge).__name__} wraps an LLM judge, which the Ray engine "
                              "cannot share between its workers (each would apply the budget and limits on its "
                              "own): give the LLM judge itself (judge=LLMJudge(...) or 'openai:MODEL@URL'), or run "
                              "this judge with the local engine (leave out --engine ray)")
        try:  # pickled once, here, as Ray does: the bytes travel (an unpicklable judge is said here, not by Ray)
            data = _dumps(judge)
        except Exception as exc:
            raise ConfigError(f"the judge object {type(judge).__name__} cannot be sent to the Ray workers: it does "
                              f"not pickle ({type(exc).__name__}: {exc}). Give a judge that pickles (no open "
                              "connections, files or locks), a built-in judge ('offline', 'openai:MODEL@URL'), or "
                              "run with the local engine (leave out --engine ray)") from None
        return cls("object", judge=judge, judge_bytes=data)

    def start_limiter(self) -> Any:
        """The run's limiter actor for an LLM judge (``None`` for the others)."""
        if self.kind != "llm":
            return None
        from .limiter import start_limiter

        return start_limiter(self.llm, max_calls=self.max_calls, max_tokens=self.max_tokens,
                             max_cost=self.max_cost, prices=self.prices)

    def build(self, limiter: Any = None) -> Any:
        """The judge, in a worker (models load here, once per worker)."""
        if self.kind == "none":
            return None
        if self.kind == "object":  # the driver's own object, or (in a worker) the bytes the driver pickled
            if self.judge is not None:
                return self.judge
            if self.judge_ref is not None:
                import ray

                return pickle.loads(ray.get(self.judge_ref))
            return pickle.loads(self.judge_bytes or b"")
        if self.kind == "offline":
            from ..judges.offline.judge import OfflineJudge

            if self.offline_cache_dir is not None:
                return OfflineJudge(cache_dir=self.offline_cache_dir)
            return OfflineJudge.shared()
        from ..judges.llm.cache import ReplyCache, default_cache_path
        from ..judges.llm.judge import LLMJudge
        from .limiter import SharedBudget, SharedLimitClient

        if limiter is None:
            raise ConfigError("an LLM judge on Ray needs the run's limiter actor")
        cache = ReplyCache(self.cache_path or default_cache_path())
        return LLMJudge(self.llm, cache=cache, budget=SharedBudget(limiter, self.prices),  # type: ignore[arg-type]
                        client=SharedLimitClient(self.llm, limiter))

