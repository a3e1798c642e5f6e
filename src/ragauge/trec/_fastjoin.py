"""The join for the usual TREC files, in vectorised passes and without re-ordering the run's lines.

Usual means: each query's run lines form one block of the file (blocks in any order), and the
documents of a block are mostly already in score order. Then a document's rank is its position in
its block, and only blocks that are not in strictly descending score order (unsorted, or tied scores)
are ranked by ``rank_groups`` (trec_eval v10: score descending, ties by docno descending).

Documents are matched with one 64-bit key per line: ``batch row | docno fingerprint | rank``. One
``np.sort`` of the run's keys finds duplicate documents (equal row and fingerprint) and, by binary
search, the rank of every judged document; each match is then checked byte for byte. Anything
unusual (a query split over blocks, a duplicate, two docnos sharing a fingerprint, keys too narrow)
returns None and :func:`ragauge.trec.join.join` takes its general path, which also raises the errors.
The batch is built from the judged documents only, as ``scored_batch`` does for Python dicts.
"""

from __future__ import annotations

import sys

import numpy as np

from ..scores._columns import RankingBatch, _ideal, rank_groups
from ._keys import _tie_rank
from ._tokens import _CHUNK, Tokens
from .io import TrecColumns

__all__ = ["fast_join"]

_MIN_PRINT_BITS = 24  # fewer fingerprint bits than this would collide too often: take the general path


def _unique(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values and each value's index among them (``np.unique(..., return_inverse=True)``
    without its import of ``numpy.ma``, ~30 ms: a tenth of reading a 1k-query run)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    first = np.ones(ordered.size, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    inverse = np.empty(values.size, dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    return ordered[first], inverse


def _blocks(tokens: Tokens) -> tuple[np.ndarray, np.ndarray] | None:
    """Starts of the runs of equal consecutive strings (plus the end), and each run's string as ``S``;
    None when a string ends with a NUL byte (``S`` would drop it)."""
    change = np.flatnonzero(~tokens.same_as_previous()) + 1
    starts = np.concatenate([[0], change, [len(tokens)]]).astype(np.int64) if len(tokens) else np.zeros(1, np.int64)
    if tokens.ends_with_nul(starts[:-1]):
        return None
    return starts, tokens.fixed(starts[:-1])


def fast_join(qrels: TrecColumns, run: TrecColumns, *, rel_level: float, complete: bool, max_docs: int | None):
    """``(query_ids, batch)`` of ``join``'s result, or None when the general path must decide."""
    tokens = [Tokens.from_column(c) for c in (qrels.qid, qrels.docno, run.qid, run.docno)]
    if any(t is None for t in tokens) or not np.isfinite(rel_level) or rel_level < 0:
        return None
    q_qid, q_doc, r_qid, r_doc = tokens
    q_blocks, r_blocks = _blocks(q_qid), _blocks(r_qid)
    if q_blocks is None or r_blocks is None:
        return None
    (q_bounds, q_names), (r_bounds, r_names) = q_blocks, r_blocks
    names = np.concatenate([q_names, r_names])  # one S width for both
    vocab, codes = _unique(names)  # byte order = strcmp order: trec_eval's qid order
    q_codes, r_codes = codes[: q_names.size], codes[q_names.size :]
    if r_codes.size and int(np.bincount(r_codes).max()) > 1:
        return None  # a query's run lines are split over several blocks
    in_qrels = np.zeros(len(vocab), dtype=bool)
    in_qrels[q_codes] = True
    in_run = np.zeros(len(vocab), dtype=bool)
    in_run[r_codes] = True
    chosen = in_qrels if complete else in_qrels & in_run
    if not chosen.any():
        return None
    row_of = np.cumsum(chosen) - 1
    # one decode for all (a qid has no newline; invalid bytes are replaced qid by qid all the same)
    query_ids = b"\n".join(vocab[chosen].tolist()).decode("utf-8", "replace").split("\n")
    n_rows = len(query_ids)

    # run: the chosen blocks, their rows and every line's rank inside its block
    r_sizes = np.diff(r_bounds)
    keep_block = chosen[r_codes]
    b_starts, b_sizes, b_rows = r_bounds[:-1][keep_block], r_sizes[keep_block], row_of[r_codes[keep_block]]
    n_lines = int(b_sizes.sum())
    all_lines = n_lines == len(run)  # usual: every run query is judged, no index array needed
    lines = None if all_lines else np.repeat(b_starts - (np.cumsum(b_sizes) - b_sizes), b_sizes) + np.arange(n_lines)
    scores = run.value if all_lines else run.value[lines]
    flat_starts = np.cumsum(b_sizes) - b_sizes  # block starts among the chosen lines
    row_start = np.zeros(n_rows, dtype=np.int64)  # first chosen line of each row
    row_start[b_rows] = flat_starts
    width = int(b_sizes.max(initial=0))
    rank_bits = max(width - 1, 0).bit_length()
    row_bits = max(n_rows - 1, 0).bit_length()
    print_bits = 64 - row_bits - rank_bits
    if print_bits < _MIN_PRINT_BITS:
        return None
    messy = _messy_blocks(scores, flat_starts, b_sizes)
    rank, line_at = _ranks(scores, flat_starts, b_sizes, messy, _tie_ranker(run.docno, r_doc), lines)

    # keys: row | top fingerprint bits | rank; sorted once
    keys = _run_keys(r_doc, lines, b_rows, flat_starts, b_sizes, rank, row_bits, rank_bits)
    keys.sort()
    if _equal_neighbours(keys, rank_bits):
        return None  # a duplicate document (or two docnos sharing a fingerprint)

    # qrels lines of the chosen queries, grouped by row
    q_line_codes = np.repeat(q_codes, np.diff(q_bounds))
    q_lines = np.flatnonzero(chosen[q_line_codes])
    q_rows = row_of[q_line_codes[q_lines]]
    if q_rows.size and (q_rows[1:] < q_rows[:-1]).any():
        q_lines = q_lines[np.argsort(q_rows, kind="stable")]
        q_rows = row_of[q_line_codes[q_lines]]
    q_keys = _keys(q_doc, q_lines, q_rows, np.zeros(q_lines.size, np.int64), row_bits, rank_bits)
    q_order = np.argsort(q_keys)
    q_sorted = q_keys[q_order]
    if _equal_neighbours(q_sorted, 0):
        return None  # a duplicate judgement (or a fingerprint collision)
    grades = qrels.value[q_lines].astype(np.float64)

    # each judgement's rank in the run, by binary search in the sorted run keys (sorted needles: 3x faster)
    shift = np.uint64(rank_bits)
    hit_at = np.zeros(0, dtype=np.int64)
    if keys.size and q_keys.size:
        at = np.minimum(np.searchsorted(keys, q_sorted), keys.size - 1)
        hit = np.flatnonzero((keys[at] >> shift) == (q_sorted >> shift))
        hit_at = q_order[hit]
        found = keys[at[hit]] & np.uint64((1 << rank_bits) - 1)
        hit_rank = found.astype(np.int64)
        hit_row = q_rows[hit_at]
        flat = line_at(hit_row, hit_rank, row_start)
        run_lines = flat if lines is None else lines[flat]
        if not q_doc.equal_pairs(q_lines[hit_at], r_doc, run_lines):
            return None  # a fingerprint collision between a judged and a retrieved docno
    else:
        hit_rank = hit_row = np.zeros(0, dtype=np.int64)

    retrieved = np.zeros(n_rows, dtype=np.int64)
    retrieved[b_rows] = b_sizes
    if max_docs is not None:
        retrieved = np.minimum(retrieved, max_docs)
    depth = int(retrieved.max(initial=0))
    keep = hit_rank < depth
    values = grades[hit_at][keep]
    gains = np.zeros((n_rows, depth))
    gains[hit_row[keep], hit_rank[keep]] = values
    judged = None
    if rel_level <= 0:  # a judged grade 0 is relevant, an unjudged document is not
        judged = np.zeros((n_rows, depth), dtype=bool)
        judged[hit_row[keep], hit_rank[keep]] = values >= 0
    num_rel = np.bincount(q_rows, weights=grades >= rel_level, minlength=n_rows).astype(np.int64)
    batch = RankingBatch(gains, retrieved, num_rel, _ideal(q_rows, grades, n_rows), float(rel_level), judged)
    return query_ids, batch


def _equal_neighbours(keys: np.ndarray, low_bits: int) -> bool:
    """Whether two neighbours of sorted ``keys`` agree above their ``low_bits`` lowest bits."""
    limit = np.uint64(1 << low_bits)
    for lo in range(0, max(int(keys.size) - 1, 0), _CHUNK):
        part = keys[lo : lo + _CHUNK + 1]
        if ((part[1:] ^ part[:-1]) < limit).any():
            return True
    return False


def _messy_blocks(scores: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Blocks whose scores are not strictly descending (ties or out of order)."""
    if scores.size < 2:
        return np.zeros(0, dtype=np.int64)
    bad = ~(scores[1:] < scores[:-1])
    ends = (starts + sizes - 1)[sizes > 0]
    bad[ends[ends < scores.size - 1]] = False  # a block's last line and the next block's first
    where = np.flatnonzero(bad)
    if where.size == 0:
        return where
    blocks = np.searchsorted(starts, where, side="right") - 1  # non-decreasing
    return blocks[np.r_[True, blocks[1:] != blocks[:-1]]]


def _tie_ranker(column, tokens: Tokens):
    """``ranker(file_lines)`` -> ``tie_rank(idx)`` for ``rank_groups``: docno byte-order ranks of
    ``file_lines[idx]`` (pyarrow's sort for its own columns: faster on runs with many ties)."""
    pa = sys.modules.get("pyarrow")  # a column is an Array only if pyarrow is imported
    if pa is not None and isinstance(column, pa.Array):
        return lambda file_lines: _tie_rank(column, file_lines)
    return lambda file_lines: lambda idx: tokens.byte_order_rank(file_lines[idx])


def _ranks(scores, starts, sizes, messy, tie_ranker, lines):
    """Rank of every chosen line in its block, and ``line_at(row, rank, row_start)`` -> chosen line."""
    n = int(scores.size)
    block_of_line = None
    if messy.size == 0:  # ranks are positions in the blocks: _run_keys derives them
        return None, lambda row, r, row_start: row_start[row] + r
    block_of_line = np.repeat(np.arange(sizes.size), sizes)
    rank = np.arange(n, dtype=np.int64) - np.repeat(starts, sizes)
    m_sizes = sizes[messy]
    m_starts = np.cumsum(m_sizes) - m_sizes
    m_lines = np.repeat(starts[messy] - m_starts, m_sizes) + np.arange(int(m_sizes.sum()))
    file_lines = m_lines if lines is None else lines[m_lines]
    order = rank_groups(m_sizes, scores[m_lines], tie_ranker(file_lines))
    in_block = np.arange(order.size, dtype=np.int64) - np.repeat(m_starts, m_sizes)
    rank[m_lines[order]] = in_block  # order[j] holds the j-th ranked entry
    at_rank = m_lines[order]  # chosen line at each ranked position of the messy blocks
    is_messy = np.zeros(sizes.size, dtype=bool)
    is_messy[messy] = True
    m_offset = np.zeros(sizes.size, dtype=np.int64)
    m_offset[messy] = m_starts

    def line_at(row, r, row_start):
        first = row_start[row]
        block = block_of_line[first] if first.size else first
        out = first + r
        sel = is_messy[block]
        out[sel] = at_rank[m_offset[block[sel]] + r[sel]]
        return out

    return rank, line_at


def _run_keys(docnos: Tokens, lines, rows, starts, sizes, rank, row_bits: int, rank_bits: int) -> np.ndarray:
    """:func:`_keys` of the chosen run lines, blocks given by (rows, starts, sizes); ``rank`` None means
    each line's position in its block, added in slices without a full-size temporary."""
    keys = docnos.fingerprint(lines)
    u64 = np.uint64
    top = rows.astype(u64) << u64(64 - row_bits) if row_bits else np.zeros(rows.size, u64)
    if rank is None and sizes.size and (sizes == sizes[0]).all():  # same length everywhere: broadcast
        width = int(sizes[0])
        grid = keys.reshape(-1, width)
        grid >>= u64(row_bits + rank_bits)
        grid <<= u64(rank_bits)
        grid |= top[:, None]
        grid |= np.arange(width, dtype=u64)
        return keys
    # row << (64 - row_bits) + position in the block == base[block] + line (mod 2**64)
    per_line = np.repeat(top if rank is not None else top - starts.astype(u64), sizes)
    for lo in range(0, int(keys.size), _CHUNK):
        hi = min(lo + _CHUNK, int(keys.size))
        part = keys[lo:hi]
        part >>= u64(row_bits + rank_bits)
        part <<= u64(rank_bits)
        part |= per_line[lo:hi] + (np.arange(lo, hi, dtype=u64) if rank is None else rank[lo:hi].astype(u64))
    return keys


def _keys(docnos: Tokens, lines, rows: np.ndarray, rank: np.ndarray, row_bits: int, rank_bits: int) -> np.ndarray:
    """``row << (64 - row_bits) | top fingerprint bits << rank_bits | rank`` per line."""
    prints = docnos.fingerprint(lines)
    print_bits = 64 - row_bits - rank_bits
    keys = prints >> np.uint64(64 - print_bits)
    keys <<= np.uint64(rank_bits)
    keys |= rank.astype(np.uint64)
    if row_bits:
        keys |= rows.astype(np.uint64) << np.uint64(64 - row_bits)
    return keys
