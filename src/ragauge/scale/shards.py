"""Per-sample results as Parquet shards, one per block, written as the blocks arrive (the driver keeps none).

A shard ``part-00042.parquet`` holds the block's samples in input order: ``id``, ``tags`` and, per metric,
``<metric>`` (the value, null when unscored), ``<metric>:reason`` and ``<metric>:artifacts`` (JSON text,
null when none). Reading every shard of a folder in name order gives the samples in input order:

>>> import pyarrow.dataset as ds                                   # doctest: +SKIP
>>> ds.dataset("out/shards").to_table().to_pandas()                # doctest: +SKIP

A shard is written as ``part-NNNNN.parquet.tmp`` and renamed to its name once complete (``os.replace``), so a
run killed mid-write leaves no truncated ``part-*.parquet``: the readers see whole shards only.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any, Iterable

from ..errors import MissingDependencyError, OutputError
from .worker import ScoredBlock

__all__ = ["ShardWriter", "write_shards"]


def _artifact(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependencyError("pyarrow", feature="Writing Parquet shards", extra="tables") from None
    return pa, pq


#: the Parquet schema metadata key of the run a shard belongs to
RUN_ID_KEY = b"ragauge.run_id"


def shard_index(path: Path) -> int:
    """The block index of ``part-NNNNN.parquet`` (input order is the order of these numbers, not of the names:
    ``part-100000`` comes after ``part-99999``)."""
    try:
        return int(path.name[len("part-"):-len(".parquet")])
    except ValueError:
        return -1


class ShardWriter:
    """Writes each block it is called with to ``folder/part-NNNNN.parquet`` (a sink of
    :func:`~ragauge.scale.ray_engine.score_run`); ``shards``/``samples`` count what it wrote. The folder must
    be empty or new (a shard left from another run would mix two runs): checked when it is made."""

    def __init__(self, folder: str | Path) -> None:
        self.pa, self.pq = _pyarrow()
        self.folder = Path(folder)
        if self.folder.exists() and (not self.folder.is_dir() or any(self.folder.iterdir())):
            raise OutputError(f"{self.folder} is not empty: it may hold another or an unfinished run's shards"
                              if self.folder.is_dir() else f"{self.folder} is a file",
                              hint="Write the shards of one run into a new or empty folder (or empty this one)")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create the shard folder {self.folder}: {exc.strerror or exc}") from None
        self.shards = self.samples = 0
        #: written into every shard's Parquet metadata and into results.json: a reader refuses shards of another run
        self.run_id = uuid.uuid4().hex

    def __call__(self, block: ScoredBlock) -> None:
        pa, pq = self.pa, self.pq
        table: dict[str, list[Any]] = {"id": block.ids, "tags": [list(t) for t in block.tags]}
        for name, col in block.columns.items():
            table[name] = col.values
            table[f"{name}:reason"] = col.reasons
            table[f"{name}:artifacts"] = [_artifact(a) for a in col.artifacts]
        schema = pa.schema([("id", pa.string()), ("tags", pa.list_(pa.string()))]
                           + [f for name in block.columns for f in (pa.field(name, pa.float64()),
                                                                    pa.field(f"{name}:reason", pa.string()),
                                                                    pa.field(f"{name}:artifacts", pa.string()))],
                           metadata={RUN_ID_KEY: self.run_id.encode()})
        final = self.folder / f"part-{block.index:05d}.parquet"
        tmp = final.with_name(final.name + ".tmp")  # whole or absent under the final name: renamed once written
        try:
            pq.write_table(pa.Table.from_pydict(table, schema=schema), tmp)
            os.replace(tmp, final)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise OutputError(f"cannot write a shard to {self.folder}: {exc}") from None
        self.shards += 1
        self.samples += len(block.ids)


def write_shards(blocks: Iterable[ScoredBlock], folder: str | Path) -> dict[str, int]:
    """Write each block to ``folder/part-NNNNN.parquet``; returns ``{"shards": ..., "samples": ...}``.
    The folder must be empty or new (a shard left from another run would mix two runs)."""
    writer = ShardWriter(folder)
    for block in blocks:
        writer(block)
    return {"shards": writer.shards, "samples": writer.samples}
