"""CSV/TSV files, Parquet files, pandas DataFrames and Hugging Face datasets -> raw records.

CSV uses the stdlib ``csv`` module (no pandas): UTF-8 with or without BOM, empty cells are null,
list and object cells are JSON (decoded by the validator), reported lines are the file's lines.
Cells from pandas/pyarrow are made plain Python: NaN, None, ``pd.NA`` and ``NaT`` become null.
"""

from __future__ import annotations

import csv
import itertools
import math
from pathlib import Path
from typing import Any, Iterable, Iterator

from ragauge.data._collect import ErrorCollector, Location
from ragauge.data._delimiter import delimiter_name, detect_delimiter
from ragauge.data.jsonl import format_size, iter_lines, open_binary
from ragauge.errors import InputError, MissingDependencyError

_BOM = "\ufeff"


NOT_PARQUET_HINT = (
    "Check the file; if it is not Parquet, give it its real suffix (.jsonl, .json, .csv, .tsv; "
    "from Python you may instead pass load(..., format='jsonl'))"
)


class _Stop(Exception):
    """Raised inside the line generator to end a CSV file that cannot be read further."""


def iter_csv(
    path: Path, *, label: str, delimiter: str, max_line_bytes: int, errors: ErrorCollector
) -> Iterator[tuple[Location, dict[str, Any]]]:
    """Yield ``(location, record)`` per CSV row; the location is the row's first line in the file.

    ``delimiter`` is the suffix's default; the header line decides (``;`` and ``|`` files load too).
    """
    fh = open_binary(path)

    def text_lines() -> Iterator[str]:
        for lineno, offset, content in iter_lines(fh, max_line_bytes):
            if content is None:
                errors.add(
                    Location(label, lineno).error(
                        f"line {lineno} is longer than {format_size(max_line_bytes)}",
                        hint="Shorten that row; from Python, raise the limit with load(..., max_line_bytes=...)",
                    )
                )
                raise _Stop
            try:
                text = content.decode("utf-8")
            except UnicodeDecodeError as exc:
                errors.add(
                    Location(label, lineno).error(
                        f"invalid UTF-8 at byte {exc.start} of the line (byte offset {offset + exc.start} "
                        f"in the file): {exc.reason}",
                        value=content[max(0, exc.start - 10) : exc.start + 10],
                        hint="Save the file as UTF-8",
                    )
                )
                raise _Stop from None
            if lineno == 1 and text.startswith(_BOM):
                text = text[1:]
            yield text + "\n"

    old_limit = csv.field_size_limit()
    # The stdlib default (128 KiB a cell) is too small for a JSON list of contexts. It is process
    # state, so it is raised only while this file is read.
    csv.field_size_limit(max(old_limit, max_line_bytes))
    lines = text_lines()
    reader: Any = None
    try:
        # The separator is told from the header (the first non-blank line): a ';' file from a
        # European Excel loads as it is; the lines read to find it are fed back to the reader.
        peeked: list[str] = []
        for text in lines:
            peeked.append(text)
            if text.strip():
                delimiter = detect_delimiter(text, default=delimiter)
                break
        reader = csv.reader(itertools.chain(peeked, lines), delimiter=delimiter, strict=True)
        yield from _rows(reader, label, errors, delimiter)
    except _Stop:
        return
    except csv.Error as exc:
        errors.add(
            Location(label, reader.line_num if reader is not None else 1).error(
                f"invalid CSV: {exc} (the separator is {delimiter_name(delimiter)}, told from the header line)",
                hint="Quote cells that hold the separator, quotes or line breaks, and use one separator in the whole file",
            )
        )
    finally:
        csv.field_size_limit(old_limit)
        fh.close()


def _rows(
    reader: Any, label: str, errors: ErrorCollector, delimiter: str
) -> Iterator[tuple[Location, dict[str, Any]]]:
    header: list[str] | None = None
    last_line = 0
    for cells in reader:
        start, last_line = last_line + 1, reader.line_num
        if not any(cells):  # blank line, or a row of empty cells
            continue
        if header is None:
            header = cells
            problem = _header_problem(header)
            if problem:
                errors.add(Location(label, start).error(problem, value=header, hint="Give every column a unique name"))
                return
            continue
        loc = Location(label, start)
        if len(cells) != len(header):
            errors.add(
                loc.error(
                    f"the row has {len(cells)} cells but the header has {len(header)} "
                    f"(separator {delimiter_name(delimiter)}, told from the header line)",
                    hint="Quote cells that hold the separator, and use one separator in the whole file",
                )
            )
            continue
        yield loc, {name: (cell if cell != "" else None) for name, cell in zip(header, cells)}


def _header_problem(header: list[str]) -> str | None:
    if any(not name.strip() for name in header):
        return "the header has an empty column name"
    seen: set[str] = set()
    for name in header:
        if name in seen:
            return f"the header names the column {name!r} twice"
        seen.add(name)
    return None


def clean_cell(value: Any) -> Any:
    """A pandas/pyarrow/numpy cell as plain Python; missing values (NaN, NA, NaT) become None."""
    if value is None:
        return None
    if isinstance(value, float):
        return None if math.isnan(value) else value
    kind = type(value).__name__
    if kind in ("NAType", "NaTType"):
        return None
    if type(value).__module__ == "numpy":
        if hasattr(value, "ndim") and value.ndim > 0:  # a list cell from Parquet
            return _plain(value.tolist())
        value = value.item()
        if isinstance(value, float) and math.isnan(value):
            return None
        return value
    return _plain(value)


def _plain(value: Any) -> Any:
    # Inside lists and dicts numpy types become Python types, but NaN stays NaN: only a whole
    # missing cell means null; a NaN score inside a context is an error the validator reports.
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if type(value).__module__ == "numpy":
        return _plain(value.tolist())
    return value


def iter_parquet(path: Path, *, label: str, errors: ErrorCollector) -> Iterator[tuple[Location, dict[str, Any]]]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependencyError("pyarrow", feature="Reading Parquet files", extra="tables") from None
    try:
        parquet = pq.ParquetFile(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow raises ArrowInvalid, OSError...
        raise InputError(
            f"not a readable Parquet file: {exc}", file=label, hint=NOT_PARQUET_HINT
        ) from None
    row = 0
    with parquet:
        for batch in parquet.iter_batches(batch_size=4096):
            for record in batch.to_pylist():
                yield Location(label, row=row), {key: clean_cell(cell) for key, cell in record.items()}
                row += 1


def is_dataframe(obj: Any) -> bool:
    return type(obj).__module__.startswith("pandas") and hasattr(obj, "to_dict") and hasattr(obj, "columns")


def iter_dataframe(df: Any, *, label: str) -> Iterator[tuple[Location, dict[str, Any]]]:
    """Rows of a DataFrame; positions are 0-based (``df.iloc[row]``), whatever the index is."""
    for row, record in enumerate(df.to_dict(orient="records")):
        yield Location(label, row=row), {key: clean_cell(cell) for key, cell in record.items()}


def iter_rows(rows: Iterable[Any], *, label: str, clean: bool) -> Iterator[tuple[Location, Any]]:
    """Records of a list of dicts (``clean=False``: values as given) or of a dataset (``clean=True``)."""
    for row, record in enumerate(rows):
        if clean and isinstance(record, dict):
            record = {key: clean_cell(cell) for key, cell in record.items()}
        yield Location(label, row=row), record
