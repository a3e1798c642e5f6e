"""``evaluate(..., engine="ray")``: the same evaluation with the per-sample scoring on Ray (``ragauge.scale``).

The driver plans blocks without loading a file input; the actors score each block with the local engine's
own code, so every value equals a local run's. Summaries, CIs, gates and slices are then computed here once,
from the same columns. With a file input the driver keeps only ids and tags per sample (memory stays flat as
the input grows): results.json then carries each sample's id, tags, scores and artifacts, and its texts stay
in the input file. With ``shards`` the per-sample rows live in the shards only and the driver keeps ~12
bytes a sample a metric (``scale.shards_run``). Default metrics (no ``metrics`` given) are chosen from the
first 1,000 records, and so is the report's language of a ``shards`` run (without ``lang``).
"""

from __future__ import annotations

import os
from typing import Any, Callable

from ..data.schema import Sample
from .config import EvalConfig
from .results import Results

PROBE = 1000


def _probe(data: Any, cfg: EvalConfig) -> list[Sample]:
    """The first block of a file, read and validated exactly as a worker reads it (errors name the file and the
    line): enough to choose default metrics by the fields present. Planning the blocks also refuses what Ray
    cannot cut (gzip, unknown formats) with the fix."""
    from ..scale.io import plan_blocks, read_block

    first = next(iter(plan_blocks(data, block_size=PROBE)), None)
    return [] if first is None else read_block(first, field_map=dict(cfg.field_map) if cfg.field_map else None)


def _probe_language(probe: list[Sample]) -> str:
    """The majority language of the first records (a shards run keeps no texts to ask later)."""
    from ..diagnosis._read import language

    return language({"samples": [{"language": s.language, "question": s.question} for s in probe]})


def evaluate_on_ray(data: Any, cfg: EvalConfig, progress: Callable[[str, int, int], None] | None, *,
                    shards: str | os.PathLike[str] | None = None, to_store: bool = False) -> Results:
    """``shards``: a new or empty folder; every block's per-sample values, reasons and artifacts are written
    there as Parquet as it arrives, and the driver keeps compact arrays only (``scale.shards_run``): the
    ``Results`` has no samples and names the shards (results.json ``samples_in: "shards"``).
    ``to_store``: with a :class:`~ragauge.scale.store.StoreSource`, each block's scores are written back to
    that database as they arrive, the way the collector's background scorer writes its own."""
    from ..scale.ray_engine import score_run
    from ..scale.store import StoreSource
    from .evaluate import _decide, _profile, _specs, judge_metrics_left_out

    in_memory = not isinstance(data, (str, os.PathLike, StoreSource))
    source = None if in_memory else data.label if isinstance(data, StoreSource) else os.fspath(data)
    if to_store and not isinstance(data, StoreSource):
        from ..errors import ConfigError

        raise ConfigError("writing scores to the store needs the store as the input (its trace ids): "
                          "ragauge eval sqlite:///ragauge.db --since ... --to-store")
    if in_memory and not (isinstance(data, (list, tuple)) and all(isinstance(s, Sample) for s in data)):
        from ..data import load  # dicts, a DataFrame, a dataset: in memory already, validated here as locally

        data = load(data, field_map=dict(cfg.field_map) if cfg.field_map else None)
    probe = list(data[:PROBE]) if in_memory else _probe(data, cfg)
    prof = _profile(cfg)
    specs = _specs(cfg, prof, probe)
    judge_spec: Any = cfg.judge
    if judge_spec in (None, "auto", "none"):
        judge_spec = "offline" if any(s.judge for s in specs) and judge_spec != "none" else None
    sinks: list[Callable[[Any], Any]] = []
    if to_store:
        from ..scale.store import judge_label, write_scores

        label, url = judge_label(judge_spec), data.url
        sinks.append(lambda block: write_scores(url, block.ids, block.columns, judge=label))
    no_judge = judge_metrics_left_out(cfg, prof, probe, specs)
    if shards is not None:  # the per-sample rows go to the shards only; the driver keeps compact arrays
        from ..scale.shards_run import evaluate_into_shards

        return evaluate_into_shards(data, cfg, specs, judge_spec, shards=shards, prof=prof, source=source,
                                    no_judge=no_judge, lang=cfg.lang or _probe_language(probe),
                                    extra_sinks=sinks, progress=progress)
    run = score_run(specs, data, judge_spec, address=cfg.ray_address, workers=cfg.workers,
                    field_map=dict(cfg.field_map) if cfg.field_map else None, progress=progress, sinks=sinks)
    if in_memory and all(isinstance(s, Sample) for s in data):
        samples: list[Sample] = list(data)
    else:  # the texts stay in the input: ids and tags are what summaries, slices and pairing need
        samples = [Sample(id=i, tags=t) for i, t in zip(run.ids, run.tags)]
    results = _decide(samples, specs, run.columns, prof, cfg, None, source, no_judge=no_judge)
    if run.llm:
        results.usage = run.llm
    return results
