"""A baseline run to compare against: loading it, pairing its scores by id, the comparison block.

``evaluate(..., baseline=path | dict)`` reads a ``results.json`` of an earlier run. Samples are paired by
id; different id sets are refused unless ``allow_intersection`` (``--intersection``), as in
``ragauge compare``; a ``--shards`` baseline is read from its shards (:func:`read_run_scores`). The ``non_inferior`` gates take their pairs from :meth:`BaselineRun.pairing`;
:func:`comparison_block` adds the paired comparison (difference, CI, p, verdict; Holm across the gated
metrics) that results.json and the reports show beside every gated metric.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..metrics.column import ScoreColumn
from ..metrics.spec import MetricSpec
from ..stats.pairing import Pairing, pair_by_id
from ..stats.runs import RunScores, compare_runs, run_scores


def read_baseline(baseline: str | Path | Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The baseline document and a name for it (its path, or ``"baseline"`` for a dict)."""
    from .results import read_results

    doc, name = read_results(baseline)
    return doc, ("baseline" if isinstance(baseline, Mapping) else name)


def read_run_scores(doc: Mapping[str, Any], *, source: str, results_file: str | Path | None = None) -> RunScores:
    """The per-sample scores of a results document: from its ``samples``, or, for a ``--shards`` run
    (``samples_in: "shards"``), from the ``id`` and metric columns of its Parquet shards
    (:func:`ragauge.scale.shard_read.shard_run_scores`; ``results_file`` helps find a moved folder)."""
    from ..scale.shard_read import rows_in_shards

    if rows_in_shards(doc):
        from ..scale.shard_read import shard_run_scores

        return shard_run_scores(doc, source=source, results_file=results_file)  # type: ignore[no-any-return]
    return run_scores(doc, source=source)


def current_scores(samples: Sequence[Any], specs: Sequence[MetricSpec], columns: Mapping[str, ScoreColumn]) -> RunScores:
    """This run's per-sample scores in the shape :func:`run_scores` reads from a results.json."""
    ids = tuple(s.id for s in samples)
    scores = {s.name: dict(zip(ids, columns[s.name].values)) for s in specs}
    return RunScores("this run", ids, {s.name: s.to_dict() for s in specs}, scores)


@dataclass(frozen=True)
class BaselineRun:
    """A loaded baseline, paired with this run (implements ``gates.noninferior.BaselineScores``)."""

    source: str
    doc: dict[str, Any]
    base: RunScores
    new: RunScores
    seed: int = 0
    n_resamples: int = 2000

    def pairing(self, metric: str) -> Pairing | None:
        if metric not in self.base.specs or metric not in self.new.specs:
            return None
        return pair_by_id(self.base.scores[metric], self.new.scores[metric], allow_intersection=True)

    def info(self) -> dict[str, Any]:
        src = self.doc.get("source") or {}
        new_ids, base_ids = set(self.new.ids), set(self.base.ids)
        return {"path": self.source, "created_at": self.doc.get("created_at"),
                "ragauge_version": self.doc.get("ragauge_version"), "n_samples": src.get("n_samples", len(self.base.ids)),
                "n_common": len(new_ids & base_ids), "only_base": len(base_ids - new_ids),
                "only_new": len(new_ids - base_ids)}


def load_baseline(
    baseline: str | Path | Mapping[str, Any],
    new: RunScores,
    *,
    allow_intersection: bool = False,
    seed: int = 0,
    n_resamples: int = 2000,
) -> BaselineRun:
    """Read and check a baseline; refuse different id sets unless ``allow_intersection``."""
    doc, source = read_baseline(baseline)
    base = read_run_scores(doc, source=source, results_file=None if isinstance(baseline, Mapping) else source)
    # The same refusal (with both differences listed) as `ragauge compare`.
    pair_by_id(dict.fromkeys(base.ids), dict.fromkeys(new.ids), allow_intersection=allow_intersection)
    return BaselineRun(source, doc, base, new, seed, n_resamples)


def comparison_block(run: BaselineRun, metrics: Sequence[str], *, level: float = 0.95) -> dict[str, Any]:
    """The ``comparison`` block of results.json: every metric of ``metrics`` (the gated ones) compared with
    the baseline, Holm-corrected together; metrics the baseline lacks are listed in ``not_compared``."""
    metrics = [m for m in dict.fromkeys(metrics) if m in run.new.specs]  # not the synthetic "gates checked"
    not_compared: dict[str, str] = {}
    common = []
    for m in metrics:
        if m not in run.base.specs:
            not_compared[m] = f"the baseline {run.source} has no {m} scores"
        elif any(run.base.specs[m].get(k) != run.new.specs[m].get(k) for k in ("higher_is_better", "aggregate")):
            not_compared[m] = f"{m} is defined differently in the baseline (direction or aggregate)"
        else:
            common.append(m)
    block: dict[str, Any] = {"baseline": run.info(), "alpha": 0.05, "level": level, "correction": "holm",
                             "any_worse": False, "metrics": {}, "not_compared": not_compared}
    if not common:
        return block
    result = compare_runs(run.base, run.new, metrics=common, allow_intersection=True, level=level,
                          seed=run.seed, n_resamples=run.n_resamples)
    block["any_worse"] = result.any_worse
    block["metrics"] = {r.metric: r.to_dict() for r in result.metrics}
    return block
