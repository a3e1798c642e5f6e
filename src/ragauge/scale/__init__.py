"""Scale out on Ray (optional extra ``pip install 'ragauge[ray]'``): the same per-sample scores as the local
engine, computed by a pool of Ray actors over a data set read in blocks. See docs/scale.md.

Nothing here imports Ray until a run starts, so ``import ragauge.scale`` works without it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["JudgeSpec", "ScaleRun", "ShardWriter", "StoreSource", "evaluate_at_scale", "iter_scored_blocks",
           "score_columns", "score_run", "score_to_sinks", "write_shards"]


def __getattr__(name: str) -> Any:
    if name == "JudgeSpec":
        from .judge_spec import JudgeSpec

        return JudgeSpec
    if name in ("ScaleRun", "iter_scored_blocks", "score_columns", "score_run", "score_to_sinks"):
        from . import ray_engine

        return getattr(ray_engine, name)
    if name in ("write_shards", "ShardWriter"):
        from . import shards

        return getattr(shards, name)
    if name == "StoreSource":
        from .store import StoreSource

        return StoreSource
    if name == "evaluate_at_scale":
        from .front import evaluate_at_scale

        return evaluate_at_scale
    raise AttributeError(f"module 'ragauge.scale' has no attribute {name!r}")
