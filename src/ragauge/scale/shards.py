"""Per-sample results as Parquet shards, one per block, written as the blocks arrive (the driver keeps none).

A shard ``part-00042.parquet`` holds the block's samples in input order: ``id``, ``tags`` and, per metric,
``<metric>`` (the value, null when unscored), ``<metric>:reason`` and ``<metric>:artifacts`` (JSON text,
null when none). Reading every shard of a folder in name order gives the samples in input order:

>>> import pyarrow.dataset as ds                                   # doctest: +SKIP
>>> ds.dataset("out/shards").to_table().to_pandas()                # doctest: +SKIP
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from ..errors import MissingDependencyError, OutputError
from .worker import ScoredBlock

__all__ = ["write_shards"]


def _artifact(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def write_shards(blocks: Iterable[ScoredBlock], folder: str | Path) -> dict[str, int]:
    """Write each block to ``folder/part-NNNNN.parquet``; returns ``{"shards": ..., "samples": ...}``.
    The folder must be empty or new (a shard left from another run would mix two runs)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependencyError("pyarrow", feature="Writing Parquet shards", extra="tables") from None
    out = Path(folder)
    if out.exists() and any(out.iterdir()):
        raise OutputError(f"{out} is not empty", hint="Write the shards of one run into a new or empty folder")
    out.mkdir(parents=True, exist_ok=True)
    shards = samples = 0
    for block in blocks:
        table: dict[str, list[Any]] = {"id": block.ids, "tags": [list(t) for t in block.tags]}
        for name, col in block.columns.items():
            table[name] = col.values
            table[f"{name}:reason"] = col.reasons
            table[f"{name}:artifacts"] = [_artifact(a) for a in col.artifacts]
        schema = pa.schema([("id", pa.string()), ("tags", pa.list_(pa.string()))]
                           + [f for name in block.columns for f in (pa.field(name, pa.float64()),
                                                                    pa.field(f"{name}:reason", pa.string()),
                                                                    pa.field(f"{name}:artifacts", pa.string()))])
        try:
            pq.write_table(pa.Table.from_pydict(table, schema=schema), out / f"part-{block.index:05d}.parquet")
        except OSError as exc:
            raise OutputError(f"cannot write a shard to {out}: {exc}") from None
        shards += 1
        samples += len(block.ids)
    return {"shards": shards, "samples": samples}
