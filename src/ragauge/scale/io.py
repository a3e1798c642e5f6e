"""Inputs cut into blocks that a worker reads by itself: the driver never holds the samples of a file.

A :class:`Block` is a small descriptor -- a byte range of a JSONL file with the number of its first
line, a row range of one Parquet row group, or a pickled slice of samples already in memory. The driver
plans the blocks (:func:`plan_blocks`: for JSONL one streamed pass that counts newlines, constant
memory; for Parquet the footer only) and a worker turns one into validated ``Sample``s
(:func:`read_block`) with the same validator as ``ragauge.data.load`` and the same file/line (or row)
in every error, so the ids given to records without one (``line-17``, ``row-17``) match a local run.

A gzipped JSONL cannot be cut by byte ranges: it is refused with the fix (decompress it, or Parquet).

Parquet is streamed: a process keeps one cursor on the row group it read last (:class:`_GroupCursor`,
``iter_batches`` over that group) and serves the next block of the group from where it stopped, so a
file written as one big row group (pyarrow's default is 1Mi rows) is decoded about once per worker, not
once per block. A file, page or database that cannot be read is an ``InputError`` naming the file, the
block's rows or bytes and the host (:func:`read_block`), not an internal error.
"""

from __future__ import annotations

import os
import pickle
import socket
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

__all__ = ["Block", "plan_blocks", "read_block", "DEFAULT_BLOCK_SIZE", "run_block_size"]

#: Samples per block: large enough that Ray's per-task overhead (~ms) is noise beside scoring
#: (the offline judge takes ~10-30 ms a sample), small enough that a lost block is cheap to redo.
DEFAULT_BLOCK_SIZE = 256


def check_block_size(n: Any, *, option: str = "batch_size") -> int:
    """``n`` as a block size (an integer >= 1), else a ``ConfigError`` naming ``option``."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"{option} (samples per Ray block) must be an integer >= 1, got {n!r}")
    return n


def run_block_size(batch_size: int | None = None) -> int:
    """``batch_size`` when given (checked), else :data:`DEFAULT_BLOCK_SIZE` (``EvalConfig.batch_size``,
    ``--batch-size`` and ``score_run(batch_size=)`` all come here)."""
    if batch_size is not None:
        return check_block_size(batch_size)
    return DEFAULT_BLOCK_SIZE
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
    together (an ``InputErrors`` naming file and line/row). A file that cannot be read here (gone from this
    node, unreadable, a corrupt Parquet page) is an ``InputError`` naming the file, the block's rows or bytes
    and this host."""
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
    for loc, record in _guarded(block, records):
        sample = build_sample(record, loc, fmap, errors, check_text=check_text)
        if sample is not None:
            samples.append(sample)
    errors.raise_if_any(block.label)
    return samples


def _read_errors() -> tuple[type[BaseException], ...]:
    """What reading a block's bytes can raise besides our own errors: OS errors, pyarrow's and SQLAlchemy's."""
    kinds: list[type[BaseException]] = [OSError, EOFError]
    try:
        import pyarrow as pa

        kinds.append(pa.lib.ArrowException)
    except ImportError:  # pragma: no cover - pyarrow is there whenever a Parquet block is read
        pass
    try:
        from sqlalchemy.exc import SQLAlchemyError

        kinds.append(SQLAlchemyError)
    except ImportError:  # pragma: no cover - the serve extra is there whenever a store block is read
        pass
    return tuple(kinds)


def _where(block: Block) -> str:
    if block.kind == "jsonl":
        return f"bytes {block.start}-{block.end} (from line {block.first})"
    if block.kind == "parquet":
        return f"rows {block.first}-{block.first + block.end - block.start - 1} (row group {block.group})"
    return f"block {block.index} (traces from position {block.first})"


def _guarded(block: Block, records: Iterator[tuple[Location, Any]]) -> Iterator[tuple[Location, Any]]:
    """``records`` with a read failure turned into an ``InputError`` (file, rows or bytes, host)."""
    kinds = _read_errors()
    it = iter(records)
    while True:
        try:
            item = next(it)
        except StopIteration:
            return
        except InputError:
            raise
        except kinds as exc:
            text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            hint = ("Check that the file is readable at this path on every node and is not damaged "
                    "(read it with pyarrow.parquet.read_table)" if block.kind == "parquet" else
                    "Check the database URL, the server and the credentials" if block.kind == "store" else
                    "Check that the file is readable at this path on every node")
            raise InputError(f"cannot read {_where(block)} on host {socket.gethostname()}: "
                             f"{type(exc).__name__}: {text}", file=block.label, hint=hint) from None
        yield item


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


class _GroupCursor:
    """A streamed read of one Parquet row group: ``rows(start, end)`` for increasing ``start`` decodes each row
    once (the rows between two blocks are skipped by decoding them, never the group again)."""

    def __init__(self, path: str, group: int, key: tuple[Any, ...]) -> None:
        import pyarrow.parquet as pq

        self.key = key
        self.file = pq.ParquetFile(path)
        self.size = self.file.metadata.row_group(group).num_rows
        self.batches = self.file.iter_batches(batch_size=_PARQUET_BATCH, row_groups=[group])
        self.pos = 0  #: rows of the group before ``pending``
        self.pending: Any = None  #: the decoded rows from ``pos`` not handed out yet

    def rows(self, start: int, end: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while self.pos < end:
            if self.pending is None:
                try:
                    self.pending = next(self.batches)
                except StopIteration:
                    raise EOFError(f"row group ends at row {self.pos}, before row {end}") from None
            n = self.pending.num_rows
            if self.pos + n <= start:  # wholly before the block: skipped
                self.pos, self.pending = self.pos + n, None
                continue
            lo, hi = max(start - self.pos, 0), min(end - self.pos, n)
            out.extend(self.pending.slice(lo, hi - lo).to_pylist())
            if hi == n:
                self.pos, self.pending = self.pos + n, None
            else:
                self.pending, self.pos = self.pending.slice(hi), self.pos + hi
        return out

    def close(self) -> None:
        self.file.close()


#: rows decoded at a time by a :class:`_GroupCursor`
_PARQUET_BATCH = 1024
#: the cursor of the row group this process read last (a worker reads blocks of a group in rising order)
_CURSOR: list[_GroupCursor] = []


def _cursor(path: str, group: int, start: int) -> _GroupCursor:
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns, group)
    if _CURSOR and _CURSOR[0].key == key and _CURSOR[0].pos <= start:
        return _CURSOR[0]
    while _CURSOR:  # another group or file, or a block before the cursor (a retried block): start again
        _CURSOR.pop().close()
    cursor = _GroupCursor(path, group, key)
    _CURSOR.append(cursor)
    return cursor


def _parquet_records(block: Block) -> Iterator[tuple[Location, dict[str, Any]]]:
    assert block.path is not None
    try:
        cursor = _cursor(block.path, block.group, block.start)
        rows = cursor.rows(block.start, block.end)
        if cursor.pos >= cursor.size:  # the group's last block: nothing more to serve, the file is closed
            _CURSOR.remove(cursor)
            cursor.close()
    except BaseException:
        while _CURSOR:  # a failed read leaves no half-read cursor behind
            _CURSOR.pop().close()
        raise
    for i, record in enumerate(rows):
        yield Location(block.label, row=block.first + i), {k: clean_cell(v) for k, v in record.items()}
