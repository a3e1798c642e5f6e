"""``ragauge eval --engine ray --shards DIR``: per-sample rows in the shards only, the driver flat.

Each scored block goes to three sinks as it arrives, in input order: the :class:`~.shards.ShardWriter`
(every row: id, tags, values, reasons, artifacts), a :class:`~.compact.CompactRun` (values and reason codes
per metric, tag positions, id hashes: ~12 bytes a sample a metric) and, with ``--to-store``, the store's
writer. Then, once, on the driver, from the compact arrays and with the local engine's own functions:
summaries and CIs (``engine.summary.summarise``), gates (``gates.check.check_run``), slices, slice checks
and alarms (``engine.slice_alarms``) -- the same numbers as a run that keeps its samples
(``tests/scale/test_shards_results.py``). The :class:`~ragauge.engine.results.Results` has no samples and
names the shards (``Results.shards``): results.json gets ``"samples": []``, ``"samples_in": "shards"`` and
``source.shards``; report.md and report.html say where the rows are.

With ``--baseline`` the paired comparison needs this run's values by id: the ids are read back from the
shards for it (``id`` column only), held while the comparison runs.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from ..errors import InputError
from .compact import CompactRun

__all__ = ["evaluate_into_shards", "results_from_compact"]


def _check_unique(compact: CompactRun, files: list[Any], label: str | None, folder: Any) -> None:
    """A duplicate id over the whole input is refused, as ``score_run`` does: hash matches confirmed on the ids."""
    pairs = compact.duplicate_candidates()
    if not pairs:
        return
    from .shard_read import shard_ids

    ids = shard_ids(files)
    for a, b in pairs:
        if ids[a] == ids[b]:
            raise InputError(f"duplicate sample id {ids[a]!r} at positions {a} and {b}", file=label, field="id",
                             hint=f"every sample needs a unique id (the shards written to {folder} hold this "
                                  "run's blocks: use a new folder for the next run)")


def evaluate_into_shards(data: Any, cfg: Any, specs: Sequence[Any], judge_spec: Any, *, shards: str | os.PathLike[str],
                         prof: Any, source: str | None, no_judge: Sequence[str], lang: str | None,
                         extra_sinks: Sequence[Callable[[Any], Any]] = (),
                         progress: Callable[[str, int, int], None] | None = None) -> Any:
    """Score ``data`` on Ray into ``shards`` and return the run's ``Results`` without per-sample rows."""
    from .ray_engine import _label, score_to_sinks
    from .shards import ShardWriter

    writer = ShardWriter(shards)  # refuses a folder holding another run's shards before any work
    compact = CompactRun([s.name for s in specs])
    run = score_to_sinks(specs, data, judge_spec, sinks=[writer, compact, *extra_sinks], address=cfg.ray_address,
                         workers=cfg.workers, field_map=dict(cfg.field_map) if cfg.field_map else None,
                         progress=progress)
    compact.freeze()
    from .shard_read import ordered_shards

    files = ordered_shards(writer.folder)
    _check_unique(compact, files, _label(data), writer.folder)
    from .shard_read import shards_block

    block = shards_block(writer.folder, files=writer.shards, n_samples=writer.samples, run_id=writer.run_id)
    results = results_from_compact(compact, specs, prof, cfg, source, block, files, no_judge=no_judge, lang=lang)
    if run.llm:
        results.usage = run.llm
    return results


def results_from_compact(compact: CompactRun, specs: Sequence[Any], prof: Any, cfg: Any, source: str | None,
                         shards: dict[str, Any], files: list[Any], *, no_judge: Sequence[str] = (),
                         lang: str | None = None) -> Any:
    """Summaries with CIs, gates (against a baseline when given), slices and alarms from the compact arrays:
    ``engine.evaluate.decide``, the local engine's own steps, with tag positions instead of ``Sample`` objects."""
    from ..engine.evaluate import _app, decide
    from ..engine.results import Results

    specs = list(specs)
    columns: dict[str, Any] = compact.columns

    def current() -> Any:  # this run's scores by id, read back from the shards only when a baseline asks
        from ..stats.runs import RunScores
        from .shard_read import shard_ids

        ids = tuple(shard_ids(files))
        return RunScores("this run", ids, {s.name: s.to_dict() for s in specs},
                         {s.name: dict(zip(ids, columns[s.name].values)) for s in specs})

    parts = decide(specs, columns, compact.tag_index(), prof, cfg, current=current, no_judge=no_judge)
    return Results([], specs, columns, profile=prof, source=source,
                   lang=lang, app=_app(cfg), shards=shards, **parts)
