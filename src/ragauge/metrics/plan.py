"""How a judge metric asks its judge: a *plan*, a generator that yields rounds of requests and gets replies.

A judge family's ``compute(specs, samples)`` is a generator::

    refusals = yield [Refusal(text=a, lang=lg, sample=s.id, metrics=names) for ...]
    claims = yield [Claims(...) for ...]          # only for the answers that did not decline
    verdicts = yield [Verify(...) for ...]
    return {name: ScoreColumn(...)}                # the columns, computed with the pure functions of scores/

Each ``yield`` is one round: a list of :class:`~ragauge.judges.requests.Request` objects, answered by a
list of :class:`~ragauge.judges.requests.Reply` objects aligned with it. :func:`together` runs several plans
in lockstep, so round *k* of every metric of a run reaches the judge in one call (the LLM judge can then
extract an answer's and its reference's claims in one call, and check all of a sample's claim lists in
another); :func:`run_plan` drives a plan against a judge. A family that needs no judge may be a plain
function; one that yields nothing (e.g. only ``tool_correctness`` asked) runs without a judge.
"""

from __future__ import annotations

from typing import Any, Callable, Generator, Sequence, TypeVar

from ..errors import ConfigError
from ..judges.requests import Reply, Request

T = TypeVar("T")
#: a judge metric's plan: yields rounds of requests, receives their replies, returns its result
Plan = Generator[Sequence[Request], Sequence[Reply], T]


def together(plans: Sequence[Plan[T]]) -> Plan[list[T]]:
    """One plan from several, in lockstep: each round is the concatenation of every unfinished plan's round.

    >>> def p(n):
    ...     got = yield [n]
    ...     return got
    >>> g = together([p(1), p(2)])
    >>> next(g)
    [1, 2]
    >>> try:
    ...     g.send(["a", "b"])
    ... except StopIteration as stop:
    ...     print(stop.value)
    [['a'], ['b']]
    """
    results: list[Any] = [None] * len(plans)
    pending: dict[int, list[Request]] = {}
    for i, p in enumerate(plans):
        _advance(p, i, None, pending, results, first=True)
    while pending:
        order = list(pending)
        batch = [r for i in order for r in pending[i]]
        replies = yield batch
        if len(replies) != len(batch):
            raise RuntimeError(f"the judge gave {len(replies)} replies to {len(batch)} requests")
        at = 0
        current = dict(pending)
        pending.clear()
        for i in order:
            n = len(current[i])
            _advance(plans[i], i, list(replies[at:at + n]), pending, results)
            at += n
    return results


def _advance(plan: Plan[Any], i: int, replies: Sequence[Reply] | None, pending: dict[int, list[Request]],
             results: list[Any], *, first: bool = False) -> None:
    try:
        step = next(plan) if first else plan.send(replies or [])
        while not step:  # an empty round needs no judge: answer it at once
            step = plan.send([])
    except StopIteration as stop:
        results[i] = stop.value
        return
    pending[i] = list(step)


def needs_judge(metrics: Sequence[str]) -> ConfigError:
    """The error for judge metrics asked without a judge."""
    return ConfigError(f"metric {', '.join(metrics)} needs a judge: pass judge=... (e.g. 'offline', or "
                       "ragauge.judges.base.get_judge('offline')), or leave that metric out")


def run_plan(plan: Plan[T], answer: Callable[[list[Request]], Sequence[Reply]] | None,
             *, needs: str = "this metric") -> T:
    """Drive ``plan`` to its end, sending each round to ``answer`` (a judge's :meth:`answer`) in one call.

    ``answer`` may be ``None`` when no judge was given: a plan that asks nothing runs; one that asks fails
    with a configuration error naming the metrics that asked (``needs`` when the requests do not say)."""
    try:
        step = next(plan)
        while True:
            replies: Sequence[Reply] = []
            if step:
                if answer is None:
                    raise needs_judge(sorted({m for r in step for m in r.metrics}) or [needs])
                replies = answer(list(step))
            if len(replies) != len(step):
                raise RuntimeError(f"the judge gave {len(replies)} replies to {len(step)} requests")
            step = plan.send(replies)
    except StopIteration as stop:
        result: T = stop.value
        return result


__all__ = ["Plan", "needs_judge", "run_plan", "together"]
