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

Big runs (``_PARALLEL_LINES`` lines or more, two cores free) are matched in two halves on two threads:
each half is a range of the run's blocks, so its rows (queries) are its own and duplicates, keys and
matches never cross halves; numpy releases the GIL inside its loops, so the halves really run at once.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..scores._columns import RankingBatch, _ideal, rank_groups
from ._keys import _tie_rank
from ._tokens import _CHUNK, Tokens
from .io import TrecColumns

__all__ = ["fast_join"]

_MIN_PRINT_BITS = 24  # fewer fingerprint bits than this would collide too often: take the general path
_PARALLEL_LINES = 1 << 20  # from this many run lines the join works on two threads (two halves of the run)


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


def _blocks(tokens: Tokens, pool: ThreadPoolExecutor | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """Starts of the runs of equal consecutive strings (plus the end), and each run's string as ``S``;
    None when a string ends with a NUL byte (``S`` would drop it). With a pool: two halves at once."""
    if pool is None:
        same = tokens.same_as_previous()
    else:
        pairs = max(len(tokens) - 1, 0)
        same = np.empty(pairs, dtype=bool)
        half = pairs // 2
        list(pool.map(lambda bounds: tokens.same_as_previous(*bounds, out=same), [(0, half), (half, pairs)]))
    change = np.flatnonzero(~same) + 1
    starts = np.concatenate([[0], change, [len(tokens)]]).astype(np.int64) if len(tokens) else np.zeros(1, np.int64)
    if tokens.ends_with_nul(starts[:-1]):
        return None
    return starts, tokens.fixed(starts[:-1])


def fast_join(qrels: TrecColumns, run: TrecColumns, *, rel_level: float, complete: bool, max_docs: int | None,
              gain_depth: int | None = None):
    """``(query_ids, batch)`` of ``join``'s result, or None when the general path must decide.

    ``gain_depth``: keep the gains of the top ``gain_depth`` ranks only (what ``ndcg`` reads; None: all);
    the relevance mask of every rank is attached to the batch for the other kernels (as
    ``scored_batch`` does), so such a batch is for ``ranking``'s kernels only."""
    tokens = [Tokens.from_column(c) for c in (qrels.qid, qrels.docno, run.qid, run.docno)]
    if any(t is None for t in tokens) or not np.isfinite(rel_level) or rel_level < 0:
        return None
    if len(tokens[3]) >= _PARALLEL_LINES and _cores() > 1:
        with ThreadPoolExecutor(2) as pool:  # numpy lets go of the GIL in its loops: two cores
            return _fast_join(tokens, qrels, run, rel_level=rel_level, complete=complete, max_docs=max_docs, pool=pool,
                              gain_depth=gain_depth)
    return _fast_join(tokens, qrels, run, rel_level=rel_level, complete=complete, max_docs=max_docs, pool=None,
                      gain_depth=gain_depth)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _fast_join(tokens, qrels, run, *, rel_level, complete, max_docs, pool, gain_depth):
    q_qid, q_doc, r_qid, r_doc = tokens
    q_blocks = pool.submit(_blocks, q_qid) if pool is not None else _blocks(q_qid)
    r_blocks = _blocks(r_qid, pool)
    q_blocks = q_blocks.result() if pool is not None else q_blocks
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

    # qrels lines of the chosen queries, grouped by row
    q_line_codes = np.repeat(q_codes, np.diff(q_bounds))
    q_lines = np.flatnonzero(chosen[q_line_codes])
    q_rows = row_of[q_line_codes[q_lines]]
    if q_rows.size and (q_rows[1:] < q_rows[:-1]).any():
        q_lines = q_lines[np.argsort(q_rows, kind="stable")]
        q_rows = row_of[q_line_codes[q_lines]]
    grades = qrels.value[q_lines].astype(np.float64)

    # match each part's run lines with the judgements of the same queries (a part is a range of blocks:
    # its rows are its own, so duplicates and matches never cross parts); two parts on two threads
    cut = int(np.searchsorted(flat_starts, n_lines // 2)) if pool is not None else b_sizes.size
    parts = [(0, cut), (cut, b_sizes.size)] if 0 < cut < b_sizes.size else [(0, b_sizes.size)]
    judged_part = None
    if len(parts) > 1:
        part_of_row = np.zeros(n_rows, dtype=bool)
        part_of_row[b_rows[cut:]] = True
        judged_part = part_of_row[q_rows]
    context = _Context(r_doc, q_doc, lines, rank, line_at, row_start, flat_starts, b_sizes, b_rows, n_lines,
                       row_bits, rank_bits)

    def match(part):
        index, (lo, hi) = part
        judged = None if judged_part is None else np.flatnonzero(judged_part == bool(index))
        return _match(context, lo, hi, q_lines, q_rows, judged)

    pending = [pool.submit(match, part) for part in enumerate(parts)] if len(parts) > 1 else []
    # meanwhile (this thread is free): what needs the judgements only
    num_rel = np.bincount(q_rows, weights=grades >= rel_level, minlength=n_rows).astype(np.int64)
    ideal = _ideal(q_rows, grades, n_rows)
    found = [f.result() for f in pending] if pending else [match((0, parts[0]))]
    if any(f is None for f in found):
        return None  # a duplicate, or two docnos sharing a fingerprint: the general path decides
    hit_at, hit_rank, hit_row = (np.concatenate(column) for column in zip(*found))

    retrieved = np.zeros(n_rows, dtype=np.int64)
    retrieved[b_rows] = b_sizes
    if max_docs is not None:
        retrieved = np.minimum(retrieved, max_docs)
    depth = int(retrieved.max(initial=0))
    keep = hit_rank < depth
    values = grades[hit_at][keep]
    rows, ranks = hit_row[keep], hit_rank[keep]
    judged = None
    relevant = np.zeros((n_rows, depth), dtype=bool)  # the kernels' relevance mask of every rank
    if rel_level <= 0:  # a judged grade 0 is relevant, an unjudged document is not
        judged = np.zeros((n_rows, depth), dtype=bool)
        judged[rows, ranks] = values >= 0
        relevant[rows, ranks] = (values >= 0) & (values >= rel_level)
    else:
        relevant[rows, ranks] = values >= rel_level
    gain_cols = depth if gain_depth is None else min(depth, gain_depth)
    gains = np.zeros((n_rows, gain_cols))
    shallow = ranks < gain_cols
    gains[rows[shallow], ranks[shallow]] = values[shallow]
    batch = RankingBatch(gains, retrieved, num_rel, ideal, float(rel_level), judged)
    object.__setattr__(batch, "_relevant", relevant)
    if gain_cols < depth:  # ndcg refuses to read past the gains kept
        object.__setattr__(batch, "_gains_cut", gain_cols)
    return query_ids, batch


@dataclass(frozen=True)
class _Context:
    """What every part of the match reads (shared, never written)."""

    r_doc: Tokens
    q_doc: Tokens
    lines: np.ndarray | None  # chosen line -> run file line (None: the same)
    rank: np.ndarray | None  # rank of each chosen line in its block (None: its position)
    line_at: object
    row_start: np.ndarray
    flat_starts: np.ndarray
    b_sizes: np.ndarray
    b_rows: np.ndarray
    n_lines: int
    row_bits: int
    rank_bits: int


def _match(c: _Context, lo: int, hi: int, q_lines: np.ndarray, q_rows: np.ndarray, judged: np.ndarray | None):
    """Hits of blocks ``lo..hi``: (index into ``q_lines`` of each matched judgement, its rank, its row), or
    None for a duplicate document / judgement or a fingerprint collision. ``judged``: the indices of
    ``q_lines`` whose rows are these blocks' (None: all)."""
    first = int(c.flat_starts[lo]) if lo < c.flat_starts.size else c.n_lines
    stop = int(c.flat_starts[hi]) if hi < c.flat_starts.size else c.n_lines
    # keys: row | top fingerprint bits | rank; sorted once
    keys = _run_keys(c.r_doc, None if c.lines is None else c.lines[first:stop], c.b_rows[lo:hi], c.flat_starts[lo:hi],
                     c.b_sizes[lo:hi], None if c.rank is None else c.rank[first:stop], c.row_bits, c.rank_bits,
                     first=first)
    keys.sort()
    if _equal_neighbours(keys, c.rank_bits):
        return None  # a duplicate document (or two docnos sharing a fingerprint)
    mine_lines = q_lines if judged is None else q_lines[judged]
    mine_rows = q_rows if judged is None else q_rows[judged]
    q_keys = _keys(c.q_doc, mine_lines, mine_rows, np.zeros(mine_lines.size, np.int64), c.row_bits, c.rank_bits)
    q_order = np.argsort(q_keys)
    q_sorted = q_keys[q_order]
    if _equal_neighbours(q_sorted, 0):
        return None  # a duplicate judgement (or a fingerprint collision)
    empty = np.zeros(0, dtype=np.int64)
    if not (keys.size and q_keys.size):
        return empty, empty, empty
    # each judgement's rank in the run, by binary search in the sorted run keys (sorted needles: 3x faster)
    shift = np.uint64(c.rank_bits)
    at = np.minimum(np.searchsorted(keys, q_sorted), keys.size - 1)
    hit = np.flatnonzero((keys[at] >> shift) == (q_sorted >> shift))
    hit_mine = q_order[hit]
    hit_rank = (keys[at[hit]] & np.uint64((1 << c.rank_bits) - 1)).astype(np.int64)
    hit_row = mine_rows[hit_mine]
    flat = c.line_at(hit_row, hit_rank, c.row_start)
    run_lines = flat if c.lines is None else c.lines[flat]
    if not c.q_doc.equal_pairs(mine_lines[hit_mine], c.r_doc, run_lines):
        return None  # a fingerprint collision between a judged and a retrieved docno
    return (hit_mine if judged is None else judged[hit_mine]), hit_rank, hit_row


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


def _run_keys(docnos: Tokens, lines, rows, starts, sizes, rank, row_bits: int, rank_bits: int, *, first: int = 0) -> np.ndarray:
    """:func:`_keys` of the chosen run lines ``first..`` (as many as ``sizes`` adds up to), blocks given by
    (rows, starts, sizes), ``starts`` counted among all chosen lines; ``lines`` (the run file's line of
    each, None: the same) and ``rank`` (None: each line's position in its block) cover these lines only.
    The position is added in slices without a full-size temporary."""
    n = int(sizes.sum())
    keys = docnos.fingerprint(first=first, stop=first + n) if lines is None else docnos.fingerprint(lines)
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
        part |= per_line[lo:hi] + (np.arange(first + lo, first + hi, dtype=u64) if rank is None else rank[lo:hi].astype(u64))
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
