"""Inputs cut into blocks that a worker reads by itself: the driver never holds the samples of a file.

A :class:`Block` is a small descriptor -- a byte range of a JSONL file with the number of its first
line, a row range of one Parquet row group, or a pickled slice of samples already in memory. The driver
plans the blocks (:func:`plan_blocks`: for JSONL one streamed pass that counts newlines, constant
memory; for Parquet the footer only) and a worker turns one into validated ``Sample``s
(:func:`read_block`) with the same validator as ``ragauge.data.load`` and the same file/line (or row)
in every error, so the ids given to records without one (``line-17``, ``row-17``) match a local run.

A gzipped JSONL cannot be cut by byte ranges: it is refused with the fix (decompress it, or Parquet).
"""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from ..data._collect import ErrorCollector, Location
from ..data._fields import check_field_map
from ..data._json import json_problem, parse_json
from ..data._text_checks import check_surrogates, may_hold_surrogate
from ..data.jsonl import DEFAULT_MAX_LINE_BYTES, format_size, iter_lines
from ..data.schema import Sample
from ..data.tabular import clean_cell
from ..data.validate import build_sample
from ..errors import ConfigError, InputError

__all__ = ["Block", "plan_blocks", "read_block", "DEFAULT_BLOCK_SIZE"]

#: Samples per block: large enough that Ray's per-task overhead (~ms) is noise beside scoring
#: (the offline judge takes ~10-30 ms a sample), small enough that a lost block is cheap to redo.
DEFAULT_BLOCK_SIZE = 256
_BOM = b"\xef\xbb\xbf"
_CHUNK = 2**20


@dataclass(frozen=True, slots=True)
class Block:
    """One unit of work. ``kind``: ``"jsonl"`` (bytes ``start:end`` of ``path``, its first line
    ``first``), ``"parquet"`` (rows ``start:end`` of row group ``group``; ``first`` = global row of
    ``start``), ``"samples"`` (``payload``: pickled samples) or ``"store"`` (``path``: a database URL,
    ``payload``: the source and the block's first and last key, see :mod:`ragauge.scale.store`)."""

    index: int
    kind: str
    label: str
    path: str | None = None
    start: int = 0
    end: int = 0
    first: int = 0
    group: int = 0
    payload: bytes | None = None


def plan_blocks(source: Any, *, block_size: int = DEFAULT_BLOCK_SIZE) -> Iterator[Block]:
    """The blocks of ``source``: a ``.jsonl``/``.ndjson``/``.parquet`` path, a sequence of ``Sample``s, or a
    :class:`~ragauge.scale.store.StoreSource` (traces of the monitoring store)."""
    if block_size < 1:
        raise ConfigError(f"block size must be at least 1 sample, got {block_size}")
    from .store import StoreSource

    if isinstance(source, StoreSource):  # the monitoring store: blocks are key ranges of a time window
        from .store import plan_store_blocks

        return plan_store_blocks(source, block_size)
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        label = str(source)
        if not path.is_file():
            raise InputError("file not found" if not path.exists() else "is not a regular file", file=label,
                             hint=f"Check the path (relative paths start from {os.getcwd()})")
        suffix = path.suffix.lower()
        if suffix == ".gz":
            raise ConfigError(f"{label}: a gzipped file cannot be cut into blocks for Ray; decompress it "
                              "(gunzip) or convert it to Parquet, or run the local engine")
        if suffix in (".jsonl", ".ndjson"):
            return _plan_jsonl(path, label, block_size)
        if suffix in (".parquet", ".pq"):
            return _plan_parquet(path, label, block_size)
        raise ConfigError(f"{label}: the Ray engine streams .jsonl/.ndjson and .parquet files; load other "
                          "formats with ragauge.data.load() and pass the samples")
    if isinstance(source, Sequence) and not isinstance(source, (str, bytes)):
        if not all(isinstance(s, Sample) for s in source):
            raise InputError("the Ray engine takes a path or a list of Sample objects",
                             hint="Load dicts or DataFrames with ragauge.data.load() first")
        return _plan_samples(source, block_size)
    raise InputError(f"cannot read samples from a {type(source).__name__}",
                     hint="Pass a .jsonl or .parquet path, or a list of Sample objects")


def _plan_samples(samples: Sequence[Sample], block_size: int) -> Iterator[Block]:
    for i, start in enumerate(range(0, len(samples), block_size)):
        chunk = list(samples[start:start + block_size])
        yield Block(i, "samples", "samples", first=start, payload=pickle.dumps(chunk, protocol=5))


def _plan_jsonl(path: Path, label: str, block_size: int) -> Iterator[Block]:
    """Cut at line ends every ``block_size`` lines (blank ones included), reading 1 MiB at a time."""
    index, start, first, lines, pos = 0, 0, 1, 0, 0
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            at = 0
            while (nl := chunk.find(b"\n", at)) >= 0:
                lines += 1
                at = nl + 1
                if lines == block_size:
                    end = pos + at
                    yield Block(index, "jsonl", label, str(path), start, end, first)
                    index, start, first, lines = index + 1, end, first + block_size, 0
            pos += len(chunk)
    if pos > start:
        yield Block(index, "jsonl", label, str(path), start, pos, first)


def _plan_parquet(path: Path, label: str, block_size: int) -> Iterator[Block]:
    try:
        import pyarrow.parquet as pq

        meta = pq.ParquetFile(path).metadata
    except Exception as exc:  # noqa: BLE001 - pyarrow raises ArrowInvalid, OSError...
        raise InputError(f"not a readable Parquet file: {exc}", file=label,
                         hint="Write it with pandas.DataFrame.to_parquet or pyarrow") from None
    index, row = 0, 0
    for group in range(meta.num_row_groups):
        n = meta.row_group(group).num_rows
        for start in range(0, n, block_size):
            end = min(n, start + block_size)
            yield Block(index, "parquet", label, str(path), start, end, row + start, group)
            index += 1
        row += n


def read_block(block: Block, *, field_map: Mapping[str, str] | None = None,
               max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> list[Sample]:
    """The block's samples, validated as ``ragauge.data.load`` does; every problem of the block is raised
    together (an ``InputErrors`` naming file and line/row)."""
    if block.kind == "samples":
        assert block.payload is not None
        return pickle.loads(block.payload)
    fmap = check_field_map(field_map)
    errors = ErrorCollector()
    if block.kind == "jsonl":
        records, check_text = _jsonl_records(block, max_line_bytes, errors), False
    elif block.kind == "store":
        from .store import store_records

        records, check_text = store_records(block), True
    else:
        records, check_text = _parquet_records(block), True
    samples = []
    for loc, record in records:
        sample = build_sample(record, loc, fmap, errors, check_text=check_text)
        if sample is not None:
            samples.append(sample)
    errors.raise_if_any(block.label)
    return samples


class _Range:
    """A read-only view of bytes ``start:end`` of a file (what ``iter_lines`` reads from)."""

    def __init__(self, path: str, start: int, end: int) -> None:
        self._fh = open(path, "rb")  # noqa: SIM115 - closed by close()
        self._fh.seek(start)
        self._left = end - start

    def read(self, n: int = -1) -> bytes:
        n = self._left if n < 0 else min(n, self._left)
        data = self._fh.read(n)
        self._left -= len(data)
        return data

    def close(self) -> None:
        self._fh.close()


def _jsonl_records(block: Block, max_line_bytes: int, errors: ErrorCollector) -> Iterator[tuple[Location, Any]]:
    # The per-line checks of ragauge.data.jsonl.iter_jsonl, for a byte range (see the report: the lead may
    # factor one `parse_line` out of iter_jsonl so that both call it).
    assert block.path is not None
    fh = _Range(block.path, block.start, block.end)
    try:
        for rel, offset, content in iter_lines(fh, max_line_bytes):  # type: ignore[arg-type]
            lineno = block.first + rel - 1
            loc = Location(block.label, lineno)
            if content is None:
                errors.add(loc.error(f"line {lineno} is longer than {format_size(max_line_bytes)}",
                                     hint="Split the sample, or raise max_line_bytes"))
                continue
            if lineno == 1 and content.startswith(_BOM):
                content = content[len(_BOM):]
            try:
                text = content.decode("utf-8")
            except UnicodeDecodeError as exc:
                errors.add(loc.error(f"invalid UTF-8 at byte {exc.start} of the line "
                                     f"(byte offset {block.start + offset + exc.start} in the file): {exc.reason}",
                                     value=content[max(0, exc.start - 10):exc.start + 10], hint="Save the file as UTF-8"))
                continue
            if not text.strip():
                continue
            try:
                obj = parse_json(text)
            except (ValueError, RecursionError) as exc:
                message, hint = json_problem(exc)
                errors.add(loc.error(message, hint=hint))
                continue
            if not isinstance(obj, dict):
                errors.add(loc.error(f"a line must be a JSON object, not {type(obj).__name__}", value=obj,
                                     hint='Write one object per line, e.g. {"id": "q1", "question": "..."}'))
                continue
            if may_hold_surrogate(text) and check_surrogates(obj, loc, errors):
                continue
            yield loc, obj
    finally:
        fh.close()


def _parquet_records(block: Block) -> Iterator[tuple[Location, dict[str, Any]]]:
    import pyarrow.parquet as pq

    assert block.path is not None
    table = pq.ParquetFile(block.path).read_row_group(block.group).slice(block.start, block.end - block.start)
    for i, record in enumerate(table.to_pylist()):
        yield Location(block.label, row=block.first + i), {k: clean_cell(v) for k, v in record.items()}
