"""Read TREC qrels and run files into columns, the way trec_eval v10 reads them.

qrels: ``qid iter docno grade`` (exactly 4 fields; grade an integer, negative = judged "unjudged").
run:   ``qid iter docno rank score run_id [anything]`` (6 fields or more; rank is ignored, the score
       orders the documents; the run id of the last line is kept, as trec_eval does).

Fields are separated by any whitespace. Blank lines are skipped, and so is a line whose first
non-blank character is ``#`` (a ``#`` inside a field, as in ``msmarco_v2.1_doc_50_..#13_..``, is
data). Anything else malformed raises InputError with the file, the line and what was expected.

Reading is columnar: for files of ``_SMALL_FILE`` bytes or more, with pyarrow installed, the whole file
goes through its CSV reader (C++, both cores), which checks the field count of every line but converts
only the three columns used (qid, docno, grade/score); vectorised scans refuse empty fields (two
spaces in a row), comment lines and other whitespace (for big files on a thread of their own while
pyarrow parses; a flagged file is normalised and parsed again). Smaller files (importing pyarrow would cost more than reading them), and
every file without pyarrow, are split by numpy (``_split.split_fields``: fields located in place, only
the value column converted). Only when the fast path refuses a file (extra fields, a bad number) is it
re-read line by line, which also finds the exact line of an error.
"""

from __future__ import annotations

import math
import mmap
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from ._split import split_fields

__all__ = ["TrecColumns", "read_qrels", "read_run"]

_SMALL_FILE = 8 << 20  # bytes: below this, numpy's splitter beats importing pyarrow (~0.1 s) and its reader
_QRELS_FIELDS = 4
_RUN_FIELDS = 6
_COMMENT_LINE = re.compile(rb"(?m)^[ \t\r\x0b\x0c]*#[^\n]*\n?")
_OTHER_SPACE = bytes.maketrans(b"\t\r\x0b\x0c", b"    ")


@dataclass(frozen=True)
class TrecColumns:
    """One TREC file as columns, one entry per line.

    qid, docno: byte strings, as ``pyarrow.BinaryArray`` (large files), ``Tokens`` (fields in place in
    the file's bytes: small files, or no pyarrow) or ``list[bytes]`` (the line-by-line reader).
    value: int64 grades (qrels) or float64 scores (run). run_id: last line's run id (runs only).
    """

    path: str
    qid: Any
    docno: Any
    value: np.ndarray
    run_id: str | None = None

    def __len__(self) -> int:
        return int(self.value.size)


def read_qrels(path: str | Path) -> TrecColumns:
    """Read a qrels file (``qid iter docno grade``)."""
    return _read(Path(path), kind="qrels")


def read_run(path: str | Path) -> TrecColumns:
    """Read a run file (``qid iter docno rank score run_id``)."""
    return _read(Path(path), kind="run")


def _read(path: Path, *, kind: str) -> TrecColumns:
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            # a big file: a read-only map, parsed in place with no copy; a small one: read (one copy, no map)
            if size >= _SMALL_FILE:
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            else:
                data = handle.read()
    except OSError as exc:
        raise InputError(f"cannot read the {kind} file: {exc.strerror}", file=str(path)) from exc
    columns = _read_fast(path, data, kind)
    if columns is None:
        columns = _read_lines(path, bytes(data), kind)
    if len(columns) == 0:
        raise InputError(
            f"the {kind} file has no {kind} lines",
            file=str(path),
            hint=f"expected lines like {_example(kind)!r}",
        )
    return columns


def _example(kind: str) -> str:
    return "301 0 doc-17 1" if kind == "qrels" else "301 Q0 doc-17 1 12.5 my-run"


def _normalise(data) -> bytes:
    """Comment lines dropped, one space between fields, no blank lines: what the fast paths expect.

    Each step first looks (a fast scan) and copies the data only when it has something to change.
    """
    if data.find(b"#") >= 0:
        data = _COMMENT_LINE.sub(b"", data)
    if any(data.find(c) >= 0 for c in (b"\t", b"\r", b"\x0b", b"\x0c")):
        data = bytes(data).translate(_OTHER_SPACE)
    while data.find(b"  ") >= 0:
        data = bytes(data).replace(b"  ", b" ")
    for pattern in (b"\n ", b" \n"):
        if data.find(pattern) >= 0:
            data = bytes(data).replace(pattern, b"\n")
    while data.find(b"\n\n") >= 0:
        data = bytes(data).replace(b"\n\n", b"\n")
    if data[:1] in (b" ", b"\n") or data[-1:] == b" ":
        data = bytes(data).strip(b" \n")
    return data


def _read_fast(path: Path, data, kind: str) -> TrecColumns | None:
    """Columns of a regular file (exact field count, clean numbers), or None to fall back."""
    width = _QRELS_FIELDS if kind == "qrels" else _RUN_FIELDS
    try:
        if len(data) < _SMALL_FILE:
            raise ImportError("a small file: not worth importing pyarrow")
        import pyarrow  # noqa: F401
    except ImportError:
        data = bytes(data)  # (a copy only for a big file without pyarrow) bytes.find is faster than mmap's
        # a clean file (single spaces, no comment) is split as it is; split_fields refuses empty fields
        columns = None if _special(data) or len(data) == 0 else _split_whole(path, data, kind, width)
        if columns is None:
            data = _normalise(data)
            columns = _empty(path, kind) if len(data) == 0 else _split_whole(path, data, kind, width)
        return columns
    columns = None if len(data) == 0 else _arrow_checked(path, data, kind, width)
    if columns is None:
        data = _normalise(data)
        if len(data) == 0:
            return _empty(path, kind)
        columns = _arrow(path, data, kind, width)
    return columns


def _arrow_checked(path: Path, data, kind: str, width: int) -> TrecColumns | None:
    """pyarrow's columns of a file that has no comment line, no whitespace but single spaces and
    newlines, and no empty field; else None. The scans for those (single-threaded numpy and memchr)
    run on a thread of their own while pyarrow parses; for a file they flag, whatever pyarrow made of it
    is thrown away."""
    with ThreadPoolExecutor(1) as pool:
        unusual = pool.submit(lambda: _special(data) or _empty_field(data))
        try:
            columns, failure = _arrow(path, data, kind, width), None
        except Exception as exc:  # noqa: BLE001 - a file the scans flag may trip pyarrow in any way
            columns, failure = None, exc
        flagged = unusual.result()
    if flagged:
        return None  # normalised and parsed again by the caller, whatever pyarrow made of it
    if failure is not None:
        raise failure
    return columns


def _special(data) -> bool:
    """Whether the file has comment lines or whitespace other than spaces and newlines (single-byte
    scans, memchr-fast): such a file is normalised before the columnar readers see it."""
    if data.find(b"#") >= 0 and _COMMENT_LINE.search(data) is not None:
        return True
    return any(data.find(c) >= 0 for c in (b"\t", b"\r", b"\x0b", b"\x0c"))


def _empty_field(data) -> bool:
    """Whether splitting on single spaces would give an empty field somewhere (two spaces in a row, a
    space at the start or end of a line): numpy over the bytes, a few MB at a time."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if raw.size == 0:
        return False
    if raw[0] == 32 or raw[-1] == 32:
        return True
    step = 1 << 22
    for begin in range(0, raw.size, step):
        chunk = raw[begin : begin + step + 1]  # one byte of overlap: pairs across the boundary
        space = chunk == 32
        pair = space[1:] & (space[:-1] | (chunk[:-1] == 10))  # "  " or "\n "
        pair |= space[:-1] & (chunk[1:] == 10)  # " \n"
        if pair.any():
            return True
    return False


def _empty(path: Path, kind: str) -> TrecColumns:
    return TrecColumns(str(path), [], [], np.zeros(0, np.int64 if kind == "qrels" else np.float64))


def _arrow(path: Path, data: bytes, kind: str, width: int) -> TrecColumns | None:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    names = [f"f{i}" for i in range(width)]
    value_type = pa.int64() if kind == "qrels" else pa.float64()
    value_name = "f3" if kind == "qrels" else "f4"
    types = {"f0": pa.binary(), "f2": pa.binary(), value_name: value_type}
    # the C library's allocator, not pyarrow's default (mimalloc): right after another process freed a
    # few GB, mimalloc's fresh segments cost 2.2-2.3 s against 1.3-1.4 s end to end (459 MB run, 2 cores,
    # 3 runs each), and 1.4-2.1 s against 1.4 s otherwise
    pool = pa.system_memory_pool()
    try:  # every line must have exactly `width` fields; only the three we use are converted
        table = pcsv.read_csv(
            pa.py_buffer(data),
            read_options=pcsv.ReadOptions(column_names=names, block_size=_block_size(len(data))),
            parse_options=pcsv.ParseOptions(delimiter=" ", quote_char=False, escape_char=False),
            convert_options=pcsv.ConvertOptions(
                column_types=types,
                include_columns=["f0", "f2", value_name],
                null_values=[],
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
            memory_pool=pool,
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None  # the line-by-line reader says what and where
    value = table.column(value_name)
    if value.null_count:
        return None
    dtype = np.int64 if kind == "qrels" else np.float64
    values = np.concatenate(
        [np.frombuffer(c.buffers()[1], dtype, len(c), c.offset * 8) for c in value.chunks] or [np.zeros(0, dtype)]
    )
    if kind == "run" and np.isnan(values).any():
        return None
    run_id = None
    if kind == "run":  # the last line's 6th field (trec_eval keeps the last run id)
        text = bytes(data[max(0, len(data) - 4096) :]) if len(data) > 4096 else bytes(data)
        last = text.rstrip(b"\n").rsplit(b"\n", 1)[-1].split(b" ")
        if len(last) < 6:
            last = bytes(data).rstrip(b"\n").rsplit(b"\n", 1)[-1].split(b" ")
        run_id = last[5].decode("utf-8", "replace")
    return TrecColumns(
        str(path), table.column("f0").combine_chunks(pool), table.column("f2").combine_chunks(pool), values, run_id
    )


def _block_size(size: int) -> int:
    """pyarrow's CSV block: about an eighth of the file (blocks are parsed in parallel, and each holds
    buffers of its size), between 4 and 16 MiB: a peak of ~175-210 MB instead of ~240 MB for a 45 MB
    run file. For a 459 MB run (100k queries), 16 MiB blocks took 1.14-1.30 s end to end against
    1.17-1.85 s with 57 MiB ones (5 runs each, 2 cores): smaller blocks, steadier memory reuse."""
    return int(min(max(size // 8, 1 << 22), 1 << 24))


def _split_whole(path: Path, data, kind: str, width: int) -> TrecColumns | None:
    fields = split_fields(bytes(data), kind, width)
    return None if fields is None else TrecColumns(str(path), fields[0], fields[1], fields[2], fields[3])


def _read_lines(path: Path, data: bytes, kind: str) -> TrecColumns:
    """Line by line: slower, exact about where and what is wrong."""
    qids: list[bytes] = []
    docnos: list[bytes] = []
    values: list[float] = []
    run_id = None
    width = _QRELS_FIELDS if kind == "qrels" else _RUN_FIELDS
    what = "qid iter docno grade" if kind == "qrels" else "qid iter docno rank score run_id"
    for number, line in enumerate(data.split(b"\n"), start=1):
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        if len(fields) < width or (kind == "qrels" and len(fields) > width):
            raise InputError(
                f"expected {width} whitespace-separated fields ({what}), found {len(fields)}",
                file=str(path),
                line=number,
                value=line.decode("utf-8", "replace"),
            )
        raw = fields[3] if kind == "qrels" else fields[4]
        values.append(_number(raw, kind, path, number))
        qids.append(fields[0])
        docnos.append(fields[2])
        if kind == "run":
            run_id = fields[5].decode("utf-8", "replace")
    dtype = np.int64 if kind == "qrels" else np.float64
    return TrecColumns(str(path), qids, docnos, np.asarray(values, dtype=dtype), run_id)


def _number(raw: bytes, kind: str, path: Path, line: int) -> float:
    text = raw.decode("utf-8", "replace")
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if kind == "qrels":
        if not math.isfinite(value) or value != int(value):
            raise InputError(
                "the relevance grade (4th field) must be an integer",
                file=str(path),
                line=line,
                value=text,
                hint="trec_eval grades are integers such as 0, 1, 2 (negative: judged as unjudged)",
            )
        return int(value)
    if math.isnan(value):
        raise InputError(
            "the score (5th field) must be a number", file=str(path), line=line, value=text,
            hint="documents are ranked by score, highest first",
        )
    return value


def locate_line(path: str | Path, kind: str, qid: bytes, docno: bytes, occurrence: int = 2) -> int | None:
    """Line number of the ``occurrence``-th line of (qid, docno): used to report duplicates."""
    seen = 0
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.split()
            if len(fields) >= 3 and fields[0] == qid and fields[2] == docno:
                seen += 1
                if seen == occurrence:
                    return number
    return None
