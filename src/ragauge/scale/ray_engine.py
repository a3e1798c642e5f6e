"""Score a data set on Ray: blocks read by the workers, judged by a pool of actors, columns back in order.

``score_columns(specs, samples_or_source, judge_spec)`` returns what ``engine.scoring.score_columns`` returns for
the same input -- one ``ScoreColumn`` per spec, in input order, with the same values, reasons, artifacts
and provenance -- so summaries, CIs and gates are computed once, on the driver, by the local code.

Pipeline (Ray Data, streaming)::

    plan_blocks (driver: byte ranges / row groups, never the samples)
      -> ray.data.from_items(one row per block)
      -> map_batches(BlockScorer, concurrency=workers)   # actors: the judge loads once per actor
      -> iter_rows() on the driver: one ScoredBlock per block, any order -> put back in block order

What the driver holds: the block descriptors (a few numbers each; for a list of samples, the list it was
given), the blocks that arrived ahead of their turn, and -- for ``score_columns`` -- the columns it
returns (values, reasons, artifacts) with each sample's id and tags. :func:`iter_scored_blocks` hands the
blocks over one by one in order instead, for a sink that writes them away (Parquet shards).

Cross-sample metrics (``noise_robustness``: a noisy variant is scored against its clean sample, wherever that
sample is in the input) are scored by the same workers on blocks of whole variant groups that Ray tasks find
in the input (:mod:`.cross`); those blocks go first, and their columns are filled into each of the input's
blocks before it is handed over (before any sink sees it). The driver reads no sample and builds no judge.

Faults: Ray restarts a dead actor and runs its block again; a block's result is kept once (by block
index), each sample id must appear once over the input (a duplicate is an ``InputError`` naming both).
LLM judge: one limiter actor holds the run's concurrency, rate and budget for every worker.
"""

from __future__ import annotations

import logging
import os
import pickle
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from ..errors import InputError, MissingDependencyError, RagaugeError
from ..metrics.column import ScoreColumn
from ..metrics.spec import MetricSpec
from .io import plan_blocks, run_block_size
from .connect import connect
from .cross import CROSS_SAMPLE_FAMILIES, CrossFill, plan_cross_blocks
from .judge_spec import JudgeSpec
from .worker import BlockScorer, ScoredBlock

__all__ = ["ScaleRun", "iter_scored_blocks", "score_columns", "score_run", "score_to_sinks"]

Progress = Callable[[str, int, int], None]


def _quiet(ray: Any) -> None:
    """Ray's own INFO lines and progress bars stay off the user's terminal (ragauge reports progress itself)."""
    for name in ("ray", "ray.data", "ray._private"):
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
    except Exception:  # an older or newer Ray without the switch: only cosmetic
        pass


def _ray() -> Any:
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        raise MissingDependencyError("ray[data]", feature="The Ray engine (--engine ray)", extra="ray") from None
    return ray


@dataclass
class ScaleRun:
    """What one Ray run returns: the columns (in input order) and what the driver needs beside them."""

    columns: dict[str, ScoreColumn]
    ids: list[str]
    tags: list[tuple[str, ...]]
    blocks: int = 0
    workers: dict[str, int] = field(default_factory=dict)  #: host:pid -> blocks scored
    worker_seconds: float = 0.0  #: read + score time summed over blocks
    worker_cpu_seconds: float = 0.0  #: the workers' CPU time for them, summed
    llm: dict[str, Any] | None = None  #: the limiter's report (spend, requests, most in flight)
    n: int = 0  #: samples scored


def iter_scored_blocks(specs: Sequence[MetricSpec], samples_or_source: Any, judge_spec: Any = "offline", *,
                       address: str | None = None, workers: int | None = None, batch_size: int | None = None,
                       field_map: Mapping[str, str] | None = None, progress: Progress | None = None,
                       run_info: dict[str, Any] | None = None) -> Iterator[ScoredBlock]:
    """The scored blocks in input order, each once. ``batch_size``: samples per block (default 256);
    ``workers``: scoring actors (default: the cluster's CPUs); ``address``: a Ray cluster (``"auto"``,
    ``"ray://HOST:10001"``); without it, a running Ray session is used, else a local one is started and
    shut down at the end. ``run_info`` (a dict) receives ``llm``: the limiter's report at the end."""
    ray = _ray()
    spec = JudgeSpec.of(judge_spec)
    specs = list(specs)
    fmap = dict(field_map) if field_map else None
    size = run_block_size(batch_size)
    blocks = list(plan_blocks(samples_or_source, block_size=size))
    cross = [s for s in specs if s.family in CROSS_SAMPLE_FAMILIES]
    on_workers = [s for s in specs if s.family not in CROSS_SAMPLE_FAMILIES]
    started = not ray.is_initialized()
    if started:  # a local cluster for this run only, or an existing one (its workers run their own ragauge)
        connect(ray, address, runtime_env=_runtime_env() if address is None else None)
    _quiet(ray)
    try:
        spec = spec.for_workers()  # an object judge: the bytes pickled by JudgeSpec.of, put once (not held here)
        limiter = spec.start_limiter() if any(s.judge for s in specs) else None
        n_workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        n_workers = max(1, min(n_workers, len(blocks) or 1))
        if not blocks:
            return
        try:
            extra = plan_cross_blocks(ray, blocks, fmap, block_size=size, first_index=len(blocks),
                                      workers=n_workers) if cross else []
            fill = CrossFill(cross, len(extra)) if cross else None
            rows = [{"block": pickle.dumps(b, protocol=5)} for b in extra + blocks]  # the variant groups first
            ds = ray.data.from_items(rows, override_num_blocks=len(rows))
            scored = ds.map_batches(BlockScorer, batch_size=1, compute=ray.data.ActorPoolStrategy(size=n_workers),
                                    num_cpus=1, fn_constructor_kwargs={
                                        "specs": on_workers, "judge_spec": spec, "limiter": limiter,
                                        "field_map": fmap, "cross_specs": cross, "cross_from": len(blocks)})
            for block in _in_order(scored.iter_rows(), len(blocks), progress, fill):
                yield fill(block, specs) if fill is not None else block
        except RagaugeError:
            raise
        except Exception as exc:  # Ray wraps what an actor raised (e.g. a judge that cannot be built)
            raise _ours(exc) from exc
        if limiter is not None and run_info is not None:
            run_info["llm"] = ray.get(limiter.report.remote())
    finally:
        if started:
            ray.shutdown()


def _runtime_env() -> dict[str, Any]:
    # a local cluster's workers must import the driver's ragauge (an editable or src checkout)
    import ragauge

    src = os.path.dirname(os.path.dirname(os.path.abspath(ragauge.__file__)))
    return {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p)}}


def _ours(exc: BaseException) -> BaseException:
    """The ragauge error inside a Ray error (its cause chain), else the Ray error itself."""
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            break
        if isinstance(seen, RagaugeError):
            return seen
        seen = getattr(seen, "cause", None) or seen.__cause__ or seen.__context__
    return exc


def _in_order(rows: Any, n_blocks: int, progress: Progress | None,
              fill: CrossFill | None = None) -> Iterator[ScoredBlock]:
    """The input's blocks ``0..n_blocks-1`` in order, each once; a block from ``n_blocks`` on is a block of
    variant groups, given to ``fill``, and no input block is handed over before ``fill`` has them all."""
    ahead: dict[int, ScoredBlock] = {}
    seen: set[int] = set()
    nxt = 0
    for row in rows:
        index = int(row["index"])
        if index in seen:  # a block run twice (a retry whose first run also finished): keep the first
            continue
        seen.add(index)
        block: ScoredBlock = pickle.loads(row["result"])
        if block.error is not None:
            raise block.error
        if index >= n_blocks and fill is not None:
            fill.add(block)
        else:
            ahead[index] = block
        while nxt in ahead and (fill is None or fill.left == 0):
            yield ahead.pop(nxt)
            nxt += 1
            if progress:
                progress("ray", nxt, n_blocks)
    if nxt != n_blocks:  # pragma: no cover - Ray returned fewer blocks than it was given
        raise RuntimeError(f"the Ray run returned {nxt} of {n_blocks} blocks in order; missing from block {nxt}")


def score_run(specs: Sequence[MetricSpec], samples_or_source: Any, judge_spec: Any = "offline", *,
              address: str | None = None, workers: int | None = None, batch_size: int | None = None,
              field_map: Mapping[str, str] | None = None, progress: Progress | None = None,
              sinks: Sequence[Callable[[ScoredBlock], Any]] = (), keep_artifacts: bool = True) -> ScaleRun:
    """:func:`iter_scored_blocks` put together: the columns in input order, ids checked unique.

    ``sinks``: called with each block, in input order, as it arrives (e.g. a :class:`ShardWriter`, the
    store's writer); ``keep_artifacts=False``: the returned columns keep values and reasons only (what
    summaries, CIs, gates and slices need), so a run whose artifacts go to a sink keeps the driver small."""
    specs = list(specs)
    out = {s.name: ScoreColumn([], [], []) for s in specs}
    ids: list[str] = []
    tags: list[tuple[str, ...]] = []
    first_at: dict[str, int] = {}
    run = ScaleRun(out, ids, tags)
    info: dict[str, Any] = {}
    for block in iter_scored_blocks(specs, samples_or_source, judge_spec, address=address, workers=workers,
                                    batch_size=batch_size, field_map=field_map, progress=progress, run_info=info):
        for sid in block.ids:
            if sid in first_at:
                raise InputError(f"duplicate sample id {sid!r} at positions {first_at[sid]} and {len(ids)}",
                                 file=_label(samples_or_source), field="id", hint="every sample needs a unique id")
            first_at[sid] = len(ids)
            ids.append(sid)
        for sink in sinks:
            sink(block)
        tags.extend(block.tags)
        for s in specs:
            col, part = out[s.name], block.columns[s.name]
            col.values.extend(part.values)
            col.reasons.extend(part.reasons)
            col.artifacts.extend(part.artifacts if keep_artifacts else [None] * len(part.values))
            if col.provenance is None:
                col.provenance = part.provenance
        run.blocks += 1
        run.workers[block.worker] = run.workers.get(block.worker, 0) + 1
        run.worker_seconds += block.seconds
        run.worker_cpu_seconds += block.cpu_seconds
    if not ids:
        raise _empty(samples_or_source)
    run.llm = info.get("llm")
    run.n = len(ids)
    return run


def score_to_sinks(specs: Sequence[MetricSpec], samples_or_source: Any, judge_spec: Any = "offline", *,
                   sinks: Sequence[Callable[[ScoredBlock], Any]], address: str | None = None,
                   workers: int | None = None, batch_size: int | None = None,
                   field_map: Mapping[str, str] | None = None, progress: Progress | None = None) -> ScaleRun:
    """:func:`score_run` that keeps nothing per sample: every block goes to ``sinks`` (in input order) and is
    dropped. The returned run has empty ``columns``/``ids``/``tags`` and counts ``n``, ``blocks``, ``workers``.
    Unique ids are the sinks' concern (``CompactRun`` keeps hashes of them; the shards keep the ids)."""
    specs = list(specs)
    run = ScaleRun({}, [], [])
    info: dict[str, Any] = {}
    for block in iter_scored_blocks(specs, samples_or_source, judge_spec, address=address, workers=workers,
                                    batch_size=batch_size, field_map=field_map, progress=progress, run_info=info):
        for sink in sinks:
            sink(block)
        run.n += len(block.ids)
        run.blocks += 1
        run.workers[block.worker] = run.workers.get(block.worker, 0) + 1
        run.worker_seconds += block.seconds
        run.worker_cpu_seconds += block.cpu_seconds
    if not run.n:
        raise _empty(samples_or_source)
    run.llm = info.get("llm")
    return run


def _empty(source: Any) -> InputError:
    from .store import StoreSource

    if isinstance(source, StoreSource):
        return InputError("no traces in the window", file=_label(source), hint="Check --since/--until "
                          "(received time, UTC without a zone) and the app name/version")
    return InputError("no samples", file=_label(source), hint="The input is empty or holds only blank lines")


def score_columns(specs: Sequence[MetricSpec], samples_or_source: Any, judge_spec: Any = "offline", *,
                  address: str | None = None, workers: int | None = None, batch_size: int | None = None,
                  field_map: Mapping[str, str] | None = None,
                  progress: Progress | None = None) -> dict[str, ScoreColumn]:
    """Every metric's column, as ``engine.scoring.score_columns`` returns it for the same samples (see module doc)."""
    return score_run(specs, samples_or_source, judge_spec, address=address, workers=workers,
                     batch_size=batch_size, field_map=field_map, progress=progress).columns


def _label(source: Any) -> str | None:
    from .store import StoreSource

    if isinstance(source, StoreSource):
        return source.label
    return str(source) if isinstance(source, (str, os.PathLike)) else None
