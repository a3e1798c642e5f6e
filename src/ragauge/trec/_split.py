"""The reader without pyarrow (and for small files, where importing pyarrow costs more than reading).

Input: a file's bytes with one space between fields, one newline between lines (the last one optional),
no comment line, no other whitespace (``io._normalise`` makes them so; a clean file is read as it is,
and two separators in a row, i.e. an empty field, a blank line or a space at a line's start or end,
make this reader decline). Every field is located with numpy (the positions of all spaces and newlines,
``width`` of them per line); qid and docno stay in place in the bytes (:class:`Tokens`, no Python object
per line), and only the value column is converted, by Python's ``int``/``float`` on each field (the
line reader's own conversion, so both accept the same numbers). Returns None when the file is not
regular (another field count, a NUL byte, a value that does not convert): the line-by-line reader
then decides, and names the line.
"""

from __future__ import annotations

import numpy as np

from ._tokens import Tokens

__all__ = ["split_fields"]


def split_fields(data: bytes, kind: str, width: int):
    """``(qid, docno, values, run_id)`` of a clean (see above), non-empty file, or None."""
    raw = np.frombuffer(data, dtype=np.uint8, count=len(data) - data.endswith(b"\n"))
    if raw.size == 0 or data.find(b"\0") >= 0:
        return None
    separator = np.empty(raw.size + 1, dtype=bool)  # one more: the end of the last line
    np.equal(raw, 32, out=separator[:-1])
    separator[:-1] |= raw == 10
    separator[-1] = True
    sep = np.flatnonzero(separator)
    del separator
    if sep.size % width or sep[0] == 0 or (np.diff(sep) == 1).any():
        return None  # a field count that cannot fit, or an empty field (two separators in a row)
    grid = sep.reshape(-1, width)
    n_lines = grid.shape[0]
    line_ends = grid[:, -1]
    # exactly width fields per line: each line's last separator is its newline, and there are no others
    if data.count(b"\n", 0, raw.size) != n_lines - 1 or not (raw[line_ends[:-1]] == 10).all():
        return None
    line_starts = np.empty(n_lines, dtype=np.int64)
    line_starts[0] = 0
    line_starts[1:] = line_ends[:-1] + 1

    def field(i: int) -> tuple[np.ndarray, np.ndarray]:
        return (line_starts if i == 0 else grid[:, i - 1] + 1), grid[:, i]

    start, end = field(3 if kind == "qrels" else 4)
    values = _integers(raw, start, end) if kind == "qrels" else None
    if values is None:
        texts = map(data.__getitem__, map(slice, start, end))  # numpy integers: no list of every position
        try:
            if kind == "qrels":
                values = np.fromiter(map(int, texts), dtype=np.int64, count=n_lines)
            else:
                values = np.fromiter(map(float, texts), dtype=np.float64, count=n_lines)
        except (ValueError, OverflowError):
            return None
    if kind == "run" and np.isnan(values).any():
        return None
    run_id = None
    if kind == "run":
        start, end = field(5)
        run_id = data[int(start[-1]) : int(end[-1])].decode("utf-8", "replace")
    return Tokens(raw, *field(0)), Tokens(raw, *field(2)), values, run_id


def _integers(raw: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray | None:
    """Fields of plain decimal digits with an optional leading '-' (up to 18 digits), as int64,
    digit by digit over all fields at once; None for anything else (Python's ``int`` decides)."""
    negative = raw[start] == 45  # '-'
    first = start + negative
    digits = end - first
    if digits.size == 0 or int(digits.min()) < 1 or int(digits.max()) > 18:
        return None
    value = np.zeros(digits.size, dtype=np.int64)
    for j in range(int(digits.max())):
        live = digits > j
        digit = raw[np.where(live, first + j, 0)].astype(np.int64) - 48
        if ((digit < 0) | (digit > 9))[live].any():
            return None
        value = np.where(live, value * 10 + digit, value)
    return np.where(negative, -value, value)
