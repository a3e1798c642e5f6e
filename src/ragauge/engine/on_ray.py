"""``evaluate(..., engine="ray")``: the same evaluation with the per-sample scoring on Ray (``ragauge.scale``).

The driver plans blocks without loading a file input; the actors score each block with the local engine's
own code, so every value equals a local run's. Summaries, CIs, gates and slices are then computed here once,
from the same columns. With a file input the driver keeps only ids and tags per sample (memory stays flat as
the input grows): results.json then carries each sample's id, tags, scores and artifacts, and its texts stay
in the input file. Default metrics (no ``metrics`` given) are chosen from the first 1,000 records.
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any, Callable

from ..data.schema import Sample
from .config import EvalConfig
from .results import Results

PROBE = 1000


def _probe(data: Any, cfg: EvalConfig) -> list[Sample]:
    """The first records of ``data`` as samples: enough to choose default metrics by the fields present."""
    from ..data import load

    if isinstance(data, (list, tuple)):
        return list(data[:PROBE]) if all(isinstance(s, Sample) for s in data[:PROBE]) else load(list(data[:PROBE]))
    path = Path(os.fspath(data))
    fmap = dict(cfg.field_map) if cfg.field_map else None
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        rows = next(pq.ParquetFile(path).iter_batches(batch_size=PROBE), None)
        return load(rows.to_pylist() if rows is not None else [], field_map=fmap)
    with open(path, encoding="utf-8-sig") as fh:
        lines = [line for line in itertools.islice(fh, PROBE) if line.strip()]
    return load([json.loads(line) for line in lines], field_map=fmap)


def evaluate_on_ray(data: Any, cfg: EvalConfig, progress: Callable[[str, int, int], None] | None) -> Results:
    from ..scale.ray_engine import score_run
    from .evaluate import _decide, _profile, _specs, judge_metrics_left_out

    in_memory = isinstance(data, (list, tuple))
    source = None if in_memory else os.fspath(data)
    probe = _probe(data, cfg)
    prof = _profile(cfg)
    specs = _specs(cfg, prof, probe)
    judge_spec: Any = cfg.judge
    if judge_spec in (None, "auto", "none"):
        judge_spec = "offline" if any(s.judge for s in specs) and judge_spec != "none" else None
    run = score_run(specs, data, judge_spec, address=cfg.ray_address, workers=cfg.workers,
                    field_map=dict(cfg.field_map) if cfg.field_map else None, progress=progress)
    if in_memory and all(isinstance(s, Sample) for s in data):
        samples: list[Sample] = list(data)
    else:  # the texts stay in the input: ids and tags are what summaries, slices and pairing need
        samples = [Sample(id=i, tags=t) for i, t in zip(run.ids, run.tags)]
    results = _decide(samples, specs, run.columns, prof, cfg, None, source,
                      no_judge=judge_metrics_left_out(cfg, prof, probe, specs))
    if run.llm:
        results.usage = run.llm
    return results
