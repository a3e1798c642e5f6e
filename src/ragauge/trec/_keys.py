"""Integer keys for TREC columns: query codes in qid byte order, and 64-bit docno fingerprints.

Fingerprints (``Tokens.fingerprint``, the same as the fast join's) hash each docno's bytes (8 at a time) with its
length, all in vectorised numpy: no Python object and no hash table per document. They are only a
fast way to *find* matches: the join checks every match byte for byte and falls back to exact codes
(:func:`_encode`) when two different docnos collide.
"""

from __future__ import annotations

import sys
from itertools import chain

import numpy as np

from ._tokens import Tokens


def _arrow(*columns):
    """pyarrow module when every column is a pyarrow Array, else None."""
    pa = sys.modules.get("pyarrow")  # a column is an Array only if pyarrow is imported
    if pa is None:
        return None
    return pa if all(isinstance(c, pa.Array) for c in columns) else None


def _encode(first, second) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[bytes]]:
    """Shared integer codes of two byte-string columns, and each code's rank in byte order."""
    pa = sys.modules.get("pyarrow")  # a column is an Array only if pyarrow is imported
    if pa is not None and isinstance(first, pa.Array) and isinstance(second, pa.Array):
        encoded = pa.concat_arrays([first.cast(pa.binary()), second.cast(pa.binary())]).dictionary_encode()
        codes = _to_numpy(encoded.indices).astype(np.int64)
        import pyarrow.compute as pc

        order = _to_numpy(pc.sort_indices(encoded.dictionary))  # byte order, like strcmp
        vocab = encoded.dictionary.take(_indices(order)).to_pylist()
        rank = np.empty(order.size, dtype=np.int64)
        rank[order] = np.arange(order.size)
        n = len(first)
        return rank[codes[:n]], rank[codes[n:]], rank, vocab
    table: dict[bytes, int] = {}
    codes = np.fromiter(
        map(lambda x: table.setdefault(x, len(table)), chain(_as_list(first), _as_list(second))),
        dtype=np.int64,
        count=len(first) + len(second),
    )
    vocab = list(table)
    order = sorted(range(len(vocab)), key=vocab.__getitem__)
    rank = np.empty(len(vocab), dtype=np.int64)
    rank[order] = np.arange(len(vocab))
    n = len(first)
    return rank[codes[:n]], rank[codes[n:]], rank, [vocab[i] for i in order]


def _to_numpy(array) -> np.ndarray:
    """A pyarrow integer array without nulls as numpy, zero-copy (``to_numpy`` may import pandas)."""
    dtype = np.dtype(array.type.to_pandas_dtype())
    return np.frombuffer(array.buffers()[1], dtype, len(array), array.offset * dtype.itemsize)


def _indices(values: np.ndarray):
    """numpy int64 -> pyarrow array, zero-copy (``pa.array`` would import pandas)."""
    import pyarrow as pa

    values = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), values.size, [None, pa.py_buffer(values)])


def _as_list(column) -> list[bytes]:
    if isinstance(column, list):
        return column
    return column.tolist() if isinstance(column, Tokens) else column.to_pylist()


def _item(column, i: int) -> bytes:
    if isinstance(column, list):
        return column[i]
    return column.item(i) if isinstance(column, Tokens) else column[i].as_py()


def _query_codes(first, second) -> tuple[np.ndarray, np.ndarray, list[bytes]]:
    """Per-line query codes of two qid columns (a code is the qid's rank in byte order) and the qids.

    TREC files list a query's lines together, so with pyarrow only the runs of equal qids are
    encoded (``run_end_encode``), not every line.
    """
    pa = _arrow(first, second)
    if pa is None:
        a, b, _, vocab = _encode(first, second)
        return a, b, vocab
    import pyarrow.compute as pc

    runs = [pc.run_end_encode(column.cast(pa.binary())) for column in (first, second)]
    encoded = pa.concat_arrays([r.values for r in runs]).dictionary_encode()
    order = _to_numpy(pc.sort_indices(encoded.dictionary))  # byte order, like strcmp
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    codes = rank[_to_numpy(encoded.indices)]
    out = []
    start = 0
    for r in runs:
        ends = _to_numpy(r.run_ends).astype(np.int64)
        block = codes[start : start + ends.size]
        out.append(np.repeat(block, np.diff(ends, prepend=0)))
        start += ends.size
    return out[0], out[1], encoded.dictionary.take(_indices(order)).to_pylist()


def fingerprints(first, second) -> tuple[np.ndarray, np.ndarray] | None:
    """uint64 fingerprints of two docno columns, or None when they are not pyarrow arrays."""
    if _arrow(first, second) is None:
        return None
    return _fingerprint(first), _fingerprint(second)


def _fingerprint(column) -> np.ndarray:
    """The same 64-bit fingerprints as the fast join's (``Tokens.fingerprint``): one hash for both paths."""
    tokens = Tokens.from_column(column)
    if tokens is None:
        raise ValueError("docno columns are binary or string arrays without nulls")
    return tokens.fingerprint()


def _row_key(rows: np.ndarray, prints: np.ndarray, shift: int) -> np.ndarray:
    """One uint64 per line: the batch row in the high bits, the fingerprint's top bits below."""
    return (rows.astype(np.uint64) << np.uint64(shift)) | (prints >> np.uint64(64 - shift))


def _same_docs(first, first_lines: np.ndarray, second, second_lines: np.ndarray) -> bool:
    """first[first_lines[i]] == second[second_lines[i]] for every i, byte for byte."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if first_lines.size == 0:
        return True
    a = first.cast(pa.binary()).take(_indices(first_lines))
    b = second.cast(pa.binary()).take(_indices(second_lines))
    return bool(pc.all(pc.equal(a, b)).as_py())


def _tie_rank(docnos, lines: np.ndarray):
    """tie_rank for batch_from_columns: ranks of ``docnos[lines[idx]]`` in byte order."""

    def tie_rank(idx: np.ndarray) -> np.ndarray:
        import pyarrow as pa
        import pyarrow.compute as pc

        taken = docnos.cast(pa.binary()).take(_indices(lines[idx]))
        order = _to_numpy(pc.sort_indices(taken))
        rank = np.empty(order.size, dtype=np.int64)
        rank[order] = np.arange(order.size)
        return rank

    return tie_rank
