"""Reading a ``--shards`` run back: its results.json names the shards, the shards hold the per-sample rows.

A run written with ``--shards DIR`` has ``"samples": []`` and ``"samples_in": "shards"`` in results.json,
and ``source.shards`` says where the rows are (``docs/results-schema.md``)::

    "source": {"path": "big.jsonl", "n_samples": 100000,
               "shards": {"path": "/abs/out/shards", "format": "parquet", "files": 391, "n_samples": 100000}}

:func:`shard_run_scores` reads the ``id`` and metric columns of every shard (never the artifacts) into the
:class:`~ragauge.stats.runs.RunScores` that ``ragauge compare`` and ``--baseline`` pair by id, with the same
checks as :func:`~ragauge.stats.runs.run_scores` (string ids, unique, finite or null values), and refuses a
folder that is missing or holds another number of shards or samples than results.json says.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Mapping

from ..errors import InputError, MissingDependencyError

__all__ = ["SAMPLES_IN_SHARDS", "rows_in_shards", "shard_files", "shard_ids", "shard_run_scores", "shards_block"]

#: the value of results.json's ``samples_in`` when the per-sample rows are in Parquet shards
SAMPLES_IN_SHARDS = "shards"
_PATTERN = "part-*.parquet"


def rows_in_shards(doc: Mapping[str, Any]) -> bool:
    """Whether a results document keeps its per-sample rows in Parquet shards (``samples_in == "shards"``)."""
    return doc.get("samples_in") == SAMPLES_IN_SHARDS


def shards_block(folder: str | os.PathLike[str], *, files: int, n_samples: int, run_id: str | None = None) -> dict[str, Any]:
    """``source.shards`` of results.json: the folder (absolute), the format, how many files and samples, and the
    run id every shard carries in its Parquet metadata."""
    block: dict[str, Any] = {"path": str(Path(folder).resolve()), "format": "parquet", "files": files,
                             "n_samples": n_samples}
    if run_id is not None:
        block["run_id"] = run_id
    return block


def ordered_shards(folder: Path) -> list[Path]:
    """The shard files of ``folder`` in input order (by the block number in the name)."""
    from .shards import shard_index

    return sorted(folder.glob(_PATTERN), key=lambda f: (shard_index(f), f.name))


def _run_ids(files: list[Path]) -> set[str | None]:
    from .shards import RUN_ID_KEY

    pq = _pq()
    out: set[str | None] = set()
    for f in files:
        meta = pq.ParquetFile(f).schema_arrow.metadata or {}
        raw = meta.get(RUN_ID_KEY)
        out.add(raw.decode() if raw is not None else None)
    return out


def _pq() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependencyError("pyarrow", feature="Reading the Parquet shards of a --shards run",
                                     extra="tables") from None
    return pq


def shard_files(doc: Mapping[str, Any], *, source: str, results_file: str | os.PathLike[str] | None = None) -> list[Path]:
    """The shard files of a ``--shards`` results document, in input order, after checking them.

    The folder is ``source.shards.path``; when that is gone, a folder of the same name next to
    ``results_file`` (an output folder moved with its shards inside it). Refused, naming the field and the
    fix: no ``source.shards`` block, a missing folder, a number of files or samples other than recorded."""
    src = doc.get("source") if isinstance(doc.get("source"), Mapping) else {}
    block = src.get("shards") if isinstance(src, Mapping) else None
    if not isinstance(block, Mapping) or not isinstance(block.get("path"), str):
        raise InputError("the per-sample rows are said to be in shards (samples_in) but source.shards.path is "
                         "missing", file=source, field="source.shards.path",
                         hint="pass the results.json written by `ragauge eval --shards DIR`")
    recorded = Path(block["path"])
    run_id = block.get("run_id")
    candidates = [recorded]
    if results_file is not None:
        beside = Path(results_file).parent / recorded.name
        if beside.resolve() != recorded.resolve():
            candidates.append(beside)
    found = [c for c in candidates if c.is_dir()]
    if not found:
        near = f" nor next to it ({candidates[1]})" if len(candidates) > 1 else ""
        raise InputError(f"the Parquet shards of this run are not at {recorded}{near}", file=source,
                         field="source.shards.path", value=str(recorded),
                         hint="the per-sample scores of a --shards run live there: move the folder back (or next "
                              "to results.json), or run this where that folder can be read")
    folder = found[0]
    if isinstance(run_id, str):  # the folder that holds *this* run's shards, not a newer run's written to the same path
        ours = [c for c in found if _run_ids(ordered_shards(c)) == {run_id}]
        if not ours:
            raise InputError(f"the shards at {', '.join(str(c) for c in found)} belong to another run (run id "
                             f"{run_id} expected)", file=source, field="source.shards.run_id", value=run_id,
                             hint="a later run wrote its shards to the same folder: keep each run's shards in a "
                                  "folder of its own (e.g. copy them next to its results.json)")
        folder = ours[0]
    files = ordered_shards(folder)
    want_files, want_n = block.get("files"), block.get("n_samples", src.get("n_samples"))
    if isinstance(want_files, int) and len(files) != want_files:
        raise InputError(f"{folder} holds {len(files)} shard files, results.json says {want_files}", file=source,
                         field="source.shards.files", value=len(files),
                         hint="the folder must hold exactly this run's shards: re-run with a new --shards folder")
    if isinstance(want_n, int):
        pq = _pq()
        have = sum(pq.ParquetFile(f).metadata.num_rows for f in files)
        if have != want_n:
            raise InputError(f"the shards in {folder} hold {have} samples, results.json says {want_n}",
                             file=source, field="source.shards.n_samples", value=have,
                             hint="the folder must hold exactly this run's shards: re-run with a new --shards folder")
    return files


def shard_ids(files: list[Path]) -> list[str]:
    """Every sample id of the shards, in input order."""
    pq = _pq()
    out: list[str] = []
    for f in files:
        out.extend(pq.read_table(f, columns=["id"]).column("id").to_pylist())
    return out


def shard_run_scores(doc: Mapping[str, Any], *, source: str,
                     results_file: str | os.PathLike[str] | None = None) -> Any:
    """The :class:`~ragauge.stats.runs.RunScores` of a ``--shards`` run, read from its shards (``id`` and one
    column per metric of ``metrics``; reasons and artifacts are not read)."""
    from ..results_schema import check_schema
    from ..stats.runs import RunScores, app_label

    check_schema(doc, source=source)
    specs = {s["name"]: dict(s) for s in doc.get("metrics") or []
             if isinstance(s, Mapping) and isinstance(s.get("name"), str)}
    files = shard_files(doc, source=source, results_file=results_file)
    pq = _pq()
    ids: list[str] = []
    where: dict[str, str] = {}
    scores: dict[str, dict[str, float | None]] = {name: {} for name in specs}
    for f in files:
        names = set(pq.ParquetFile(f).schema_arrow.names)
        missing = [m for m in ["id", *specs] if m not in names]
        if missing:
            raise InputError(f"shard {f.name} has no column {missing[0]!r}", file=str(f), field=missing[0],
                             hint="the folder must hold this run's shards (results.json lists the metrics)")
        table = pq.read_table(f, columns=["id", *specs])
        block_ids = table.column("id").to_pylist()
        fname = f.name
        for k, sid in enumerate(block_ids):
            if not isinstance(sid, str):
                raise InputError("sample without a string id", file=str(f), field=f"id (row {k})", value=sid)
            if sid in where:
                raise InputError(f"duplicate sample id (also in {where[sid]})", file=str(f), field="id", value=sid,
                                 hint="ids must be unique to pair samples between runs")
            where[sid] = fname
        ids.extend(block_ids)
        for name in specs:
            col = scores[name]
            for sid, v in zip(block_ids, table.column(name).to_pylist()):
                if v is not None and not math.isfinite(v):
                    raise InputError("score is not a finite number or null", file=str(f), field=f"{name} of {sid}",
                                     value=v)
                col[sid] = v
        del table
    return RunScores(source, tuple(ids), specs, scores, app_label(doc))
