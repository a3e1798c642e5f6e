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

A duplicate id is refused at the block that repeats it, before that block reaches any sink (no shard, no
store write of it): :class:`UniqueIds` keeps 64-bit hashes of the ids seen in sorted runs (8 bytes a sample)
and confirms a hash match on the ids already in the shards.

With ``--baseline`` the paired comparison needs this run's values by id: the ids are read back from the
shards for it (``id`` column only), held while the comparison runs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import InputError
from .compact import CompactRun

__all__ = ["UniqueIds", "evaluate_into_shards", "results_from_compact"]

_MASK64 = (1 << 64) - 1


class UniqueIds:
    """A sink that refuses a duplicate sample id at the block that repeats it (call it before the others).

    It keeps a 64-bit hash of every id seen, in sorted numpy runs merged as a binary counter does (a block
    costs O(block x log n)); a hash seen before is confirmed on the ids themselves: those of the shards in
    ``folder`` (the blocks before this one) and of this block. The error names both positions, as
    ``score_run`` does."""

    def __init__(self, folder: str | os.PathLike[str], label: str | None) -> None:
        self.folder = Path(folder)
        self.label = label
        self.n = 0
        self._runs: list[np.ndarray] = []

    def __call__(self, block: Any) -> None:
        ids = list(block.ids)
        if not ids:
            return
        h = np.fromiter((hash(i) & _MASK64 for i in ids), dtype=np.uint64, count=len(ids))
        hs = np.sort(h)
        if (hs[1:] == hs[:-1]).any() or any(self._seen(hs)):
            self._confirm(ids, h)
        self._runs.append(hs)
        while len(self._runs) > 1 and self._runs[-1].size >= self._runs[-2].size:
            last = self._runs.pop()
            self._runs[-1] = np.sort(np.concatenate([self._runs[-1], last]), kind="mergesort")
        self.n += len(ids)

    def _seen(self, hs: np.ndarray) -> list[bool]:
        out = []
        for run in self._runs:
            at = np.minimum(np.searchsorted(run, hs), run.size - 1)
            out.append(bool((run[at] == hs).any()))
        return out

    def _confirm(self, ids: list[str], h: np.ndarray) -> None:
        """A hash seen before: find the id among the earlier ones (read from the shards) and this block's."""
        from .shard_read import ordered_shards, shard_ids

        before = {int(x) for x in h.tolist()}
        earlier: dict[str, int] = {}
        pos = 0
        for f in ordered_shards(self.folder) if self.n else []:  # one shard's ids at a time
            for sid in shard_ids([f]):
                if pos < self.n and hash(sid) & _MASK64 in before:
                    earlier.setdefault(sid, pos)
                pos += 1
        for k, sid in enumerate(ids):
            if sid in earlier:
                raise InputError(f"duplicate sample id {sid!r} at positions {earlier[sid]} and {self.n + k}",
                                 file=self.label, field="id",
                                 hint=f"every sample needs a unique id (the shards written to {self.folder} hold "
                                      "this run's blocks before it: use a new folder for the next run)")
            earlier[sid] = self.n + k
        # a 64-bit hash collision of two different ids: nothing to refuse


def evaluate_into_shards(data: Any, cfg: Any, specs: Sequence[Any], judge_spec: Any, *, shards: str | os.PathLike[str],
                         prof: Any, source: str | None, no_judge: Sequence[str], lang: str | None,
                         extra_sinks: Sequence[Callable[[Any], Any]] = (),
                         progress: Callable[[str, int, int], None] | None = None) -> Any:
    """Score ``data`` on Ray into ``shards`` and return the run's ``Results`` without per-sample rows."""
    from .ray_engine import _label, score_to_sinks
    from .shards import ShardWriter

    writer = ShardWriter(shards)  # refuses a folder holding another run's shards before any work
    compact = CompactRun([s.name for s in specs])
    unique = UniqueIds(writer.folder, _label(data))  # first: a repeated id stops the run before its block is written
    run = score_to_sinks(specs, data, judge_spec, sinks=[unique, writer, compact, *extra_sinks],
                         address=cfg.ray_address,
                         workers=cfg.workers, batch_size=getattr(cfg, "batch_size", None),
                         field_map=dict(cfg.field_map) if cfg.field_map else None,
                         progress=progress)
    compact.freeze()
    from .shard_read import ordered_shards

    files = ordered_shards(writer.folder)
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
