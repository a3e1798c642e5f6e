"""Byte-string columns as one buffer with starts and ends, and the vectorised operations the join needs.

A :class:`Tokens` is n byte strings inside one buffer: string i is ``data[starts[i]:ends[i]]``,
read in place from a pyarrow BinaryArray's buffers, from the fields of a file's bytes, or joined once
from a ``list[bytes]``. Everything here reads the strings 8 bytes at a time (little-endian words of an
overlapping view, masked past each string's end), in slices of ``_CHUNK`` strings so that temporaries
stay in cache: exact equality of neighbours (query blocks), exact equality of pairs (checking matches),
64-bit fingerprints (finding matches) and byte-order ranks (trec_eval's tie rule).
"""

from __future__ import annotations

import sys

import numpy as np

__all__ = ["Tokens"]

_CHUNK = 1 << 18
_MASKS = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_K1, _K2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9)


class Tokens:
    """n byte strings in ``data`` (uint8): string i is ``data[starts[i]:ends[i]]`` (integer arrays, often
    views of pyarrow's offsets or of a file's field positions: no copy is made)."""

    def __init__(self, data: np.ndarray, starts: np.ndarray, ends: np.ndarray):
        self.data = data
        self.starts = starts
        self.ends = ends
        size = int(data.size)
        # 8-byte words starting at every byte that has 7 more after it (a view, no copy) ...
        self._words = np.ndarray(shape=(max(size - 7, 0),), dtype="<u8", buffer=data, strides=(1,))
        # ... and the last bytes, zero padded, for words that start near the end
        self._tail_at = max(size - 8, 0)
        tail = np.zeros(16, dtype=np.uint8)
        tail[: size - self._tail_at] = data[self._tail_at :]
        self._tail = np.ndarray(shape=(9,), dtype="<u8", buffer=tail, strides=(1,))

    def __len__(self) -> int:
        return int(self.starts.size)

    @classmethod
    def from_column(cls, column) -> "Tokens | None":
        """From a pyarrow (large) binary/string Array without nulls, or a list of bytes; else None."""
        if isinstance(column, Tokens):
            return column
        if isinstance(column, list):
            offsets = np.zeros(len(column) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, column), dtype=np.int64, count=len(column)), out=offsets[1:])
            return cls(np.frombuffer(b"".join(column), dtype=np.uint8), offsets[:-1], offsets[1:])
        pa = sys.modules.get("pyarrow")  # a column is an Array only if pyarrow is imported
        if pa is None:
            return None
        if not isinstance(column, pa.Array) or column.null_count:
            return None
        if pa.types.is_binary(column.type) or pa.types.is_string(column.type):
            offset_type = np.dtype(np.int32)
        elif pa.types.is_large_binary(column.type) or pa.types.is_large_string(column.type):
            offset_type = np.dtype(np.int64)
        else:
            return None
        n = len(column)
        _, offsets_buf, data_buf = column.buffers()
        offsets = np.frombuffer(offsets_buf, offset_type, n + 1, column.offset * offset_type.itemsize)
        data = np.frombuffer(data_buf, np.uint8, int(offsets[-1])) if data_buf is not None else np.zeros(0, np.uint8)
        return cls(data, offsets[:-1], offsets[1:])

    def span(self, where) -> tuple[np.ndarray, np.ndarray]:
        """(starts, lengths) of the strings at ``where`` (a slice or an index array)."""
        starts = self.starts[where]
        return starts, self.ends[where] - starts

    def item(self, i: int) -> bytes:
        return self.data[int(self.starts[i]) : int(self.ends[i])].tobytes()

    def tolist(self) -> list[bytes]:
        data = self.data.tobytes()
        return [data[a:b] for a, b in zip(self.starts.tolist(), self.ends.tolist())]

    def items(self, index) -> list[bytes]:
        return [self.item(i) for i in np.asarray(index).tolist()]

    def _word(self, starts: np.ndarray, lengths: np.ndarray, k: int) -> np.ndarray:
        """Bytes k..k+7 of each string as a little-endian word, zero past the string's end."""
        at = starts + k if k else starts
        if at.size and int(at.max()) >= self._words.size:  # some word starts in the last 7 bytes
            near_end = at >= self._words.size
            w = np.empty(at.size, dtype=np.uint64)
            w[~near_end] = self._words[at[~near_end]]
            w[near_end] = self._tail[np.minimum(at[near_end] - self._tail_at, 8)]
        else:
            w = self._words[at]
        shortest, longest = int(lengths.min(initial=8)), int(lengths.max(initial=0))
        if shortest >= k + 8:  # no string ends inside this word
            return w
        left = lengths - k if k else lengths
        if longest > k + 8:
            left = np.minimum(left, 8)
        if shortest < k:
            left = np.maximum(left, 0)
        w &= _MASKS[left]
        return w

    def fingerprint(self, index: np.ndarray | None = None, *, first: int = 0, stop: int | None = None) -> np.ndarray:
        """uint64 hash of each string (its bytes and length): of ``index``, or of strings ``first..stop``
        (default: all)."""
        if index is None:
            stop = len(self) if stop is None else stop
        n = stop - first if index is None else int(index.size)
        out = np.empty(n, dtype=np.uint64)
        for lo in range(0, n, _CHUNK):
            sl = slice(lo, min(lo + _CHUNK, n))
            starts, lengths = self.span(slice(first + sl.start, first + sl.stop) if index is None else index[sl])
            h = lengths.astype(np.uint64) * _K2
            shortest = int(lengths.min(initial=0))
            for k in range(0, int(lengths.max(initial=0)), 8):
                # a string takes a round per 8 of its own bytes, however long its neighbours in the slice
                # are: the same string gets the same fingerprint wherever it is hashed
                mixed = h ^ self._word(starts, lengths, k)
                mixed *= _K1
                mixed ^= mixed >> np.uint64(31)
                if shortest > k:
                    h = mixed
                else:
                    np.copyto(h, mixed, where=lengths > k)
            h *= _K2
            h ^= h >> np.uint64(29)
            out[sl] = h
        return out

    def same_as_previous(self, first: int = 0, stop: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """bool (n - 1,): string i + 1 equals string i, byte for byte. With ``first``/``stop`` only the
        pairs ``first..stop - 1`` are compared, into ``out`` (the full-size result) when given."""
        n = len(self)
        stop = max(n - 1, 0) if stop is None else stop
        out = np.empty(max(n - 1, 0), dtype=bool) if out is None else out
        for lo in range(first, stop, _CHUNK):
            hi = min(lo + _CHUNK, stop)
            starts, lengths = self.span(slice(lo, hi + 1))
            same = lengths[1:] == lengths[:-1]
            for k in range(0, int(lengths.max(initial=0)), 8):
                w = self._word(starts, lengths, k)
                same &= w[1:] == w[:-1]
            out[lo:hi] = same
        return out

    def equal_pairs(self, mine: np.ndarray, other: "Tokens", theirs: np.ndarray) -> bool:
        """self[mine[i]] == other[theirs[i]] for every i, byte for byte."""
        for lo in range(0, int(mine.size), _CHUNK):
            sa, la = self.span(mine[lo : lo + _CHUNK])
            sb, lb = other.span(theirs[lo : lo + _CHUNK])
            if not (la == lb).all():
                return False
            for k in range(0, int(la.max(initial=0)), 8):
                if not (self._word(sa, la, k) == other._word(sb, lb, k)).all():
                    return False
        return True

    def fixed(self, index: np.ndarray) -> np.ndarray:
        """``self[index[i]]`` as a fixed-width numpy ``S`` array (zero padded)."""
        starts, lengths = self.span(np.asarray(index, dtype=np.int64))
        width = max(int(lengths.max(initial=0)), 1)
        if starts.size == 0 or self.data.size == 0:
            return np.zeros(starts.size, dtype=f"S{width}")
        pos = starts[:, None] + np.arange(width)
        inside = np.arange(width) < lengths[:, None]
        fixed = np.where(inside, self.data[np.where(inside, pos, 0)], 0).astype(np.uint8)
        return np.ascontiguousarray(fixed).view(f"S{width}").ravel()

    def ends_with_nul(self, index: np.ndarray) -> bool:
        """Whether some ``self[index[i]]`` ends with a NUL byte (numpy's ``S`` type would drop it)."""
        starts, lengths = self.span(index)
        last = (starts + lengths - 1)[lengths > 0]
        return bool(last.size and (self.data[last] == 0).any())

    def byte_order_rank(self, index: np.ndarray) -> np.ndarray:
        """Rank of each ``self[index[i]]`` among them in byte order (C ``strcmp`` for docnos)."""
        index = np.asarray(index, dtype=np.int64)
        text = self.fixed(index)
        # numpy's S drops trailing NULs: the length as the second key keeps memcmp order
        order = np.lexsort((self.span(index)[1], text))
        rank = np.empty(index.size, dtype=np.int64)
        rank[order] = np.arange(index.size)
        return rank
