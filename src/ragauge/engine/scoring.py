"""Score every metric of a run: the plain formulas first, then every judge metric's plan in lockstep.

The one scoring step of every engine (the local one, each Ray worker on its block, the monitoring
scorer through :func:`ragauge.evaluate`). Judge families are plans (:mod:`ragauge.metrics.plan`): their
requests of one round, across all metrics, reach the judge in one :meth:`~ragauge.judges.base.Judge.answer`
call. The judge's provenance is stamped on every judge metric's column once the plans are done.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence, cast

from ..data.schema import Sample
from ..metrics.column import ScoreColumn
from ..metrics.plan import Plan, needs_judge, run_plan, together
from ..metrics.registry import compute_function, group_by_family
from ..metrics.spec import MetricSpec

Progress = Callable[[str, int, int], None]


def check_ids(samples: Sequence[Sample]) -> None:
    """Every sample id unique (and given): the judge keeps each sample's requests apart by its id."""
    from ..errors import InputError

    seen: dict[str, int] = {}
    for i, s in enumerate(samples):
        if s.id in seen:
            raise InputError(f"duplicate sample id {s.id!r} at positions {seen[s.id]} and {i}",
                             field="id", hint="every sample needs a unique id")
        seen[s.id] = i


def score_columns(specs: Sequence[MetricSpec], samples: Sequence[Sample], judge: Any,
                  progress: Progress | None = None) -> dict[str, ScoreColumn]:
    """Every metric's column, in the order of ``specs``; ``judge`` is ``None`` when no metric needs one, else
    a judge (a hand-written object with the batched methods is wrapped: :func:`~ragauge.judges.base.get_judge`)."""
    if judge is not None:
        from ..judges.base import get_judge

        judge = get_judge(judge)
    elif any(s.judge for s in specs):  # even when this data would need no call: never a judge metric without one
        raise needs_judge([s.name for s in specs if s.judge])
    if judge is not None:
        check_ids(samples)  # a judge groups a round's requests by sample id
    columns: dict[str, ScoreColumn] = {}
    groups = group_by_family(specs)
    plans: list[Plan[dict[str, ScoreColumn]]] = []
    judged: list[str] = []
    for step, (family, fspecs) in enumerate(groups.items()):
        result: Any = compute_function(family)(fspecs, samples)
        if inspect.isgenerator(result):  # a judge family: it runs below, with the others
            plans.append(cast(Plan[dict[str, ScoreColumn]], result))
            judged += [s.name for s in fspecs if s.judge]  # tool_correctness rides in a judge family unjudged
            continue
        if progress:
            progress(family, step, len(groups))
        columns.update(result)
    if plans:
        if progress:
            progress("judge", len(groups) - 1, len(groups))
        for got in run_plan(together(plans), judge.answer if judge is not None else None):
            columns.update(got)
        prov_of = judge.provenance() if judge is not None else None
        if prov_of is not None:  # a hand-written judge object may have none
            prov = prov_of.to_dict()
            for name in judged:
                if columns[name].provenance is None:
                    columns[name].provenance = prov
    if progress:
        progress("summaries", len(groups), len(groups))
    return {s.name: columns[s.name] for s in specs}


__all__ = ["Progress", "check_ids", "score_columns"]
