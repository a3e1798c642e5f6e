"""Join a run with its qrels into a RankingBatch, with trec_eval's rules about which queries count.

Queries evaluated: those present in both files, in qid string order (trec_eval sorts qids with
``strcmp``). With ``complete=True`` (trec_eval ``-c``) every qrels query is evaluated and a query
missing from the run counts as an empty ranking (all measures 0, ``num_rel`` still counted).
Queries of the run that have no qrels are ignored. A document listed twice for one evaluated query
(in the run or in the qrels) raises InputError with the file and line, as trec_eval v10 refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..scores.ranking import RankingBatch, batch_from_columns
from .io import TrecColumns, locate_line

__all__ = ["JoinedRun", "join"]


@dataclass(frozen=True)
class JoinedRun:
    """Batch rows are ``query_ids`` in order; ``run_id`` is the run's last run id."""

    query_ids: list[str]
    batch: RankingBatch
    run_id: str


def _encode(first, second) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[bytes]]:
    """Shared integer codes of two byte-string columns, and each code's rank in byte order."""
    try:
        import pyarrow as pa
    except ImportError:
        pa = None
    if pa is not None and isinstance(first, pa.Array) and isinstance(second, pa.Array):
        encoded = pa.concat_arrays([first.cast(pa.binary()), second.cast(pa.binary())]).dictionary_encode()
        codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        import pyarrow.compute as pc

        order = pc.sort_indices(encoded.dictionary).to_numpy()  # byte order, like strcmp
        vocab = encoded.dictionary.take(pa.array(order)).to_pylist()
        rank = np.empty(order.size, dtype=np.int64)
        rank[order] = np.arange(order.size)
        n = len(first)
        return rank[codes[:n]], rank[codes[n:]], rank, vocab
    else:
        table: dict[bytes, int] = {}
        codes = np.fromiter(
            map(lambda x: table.setdefault(x, len(table)), _iter(first, second)),
            dtype=np.int64,
            count=len(first) + len(second),
        )
        vocab = list(table)
    order = sorted(range(len(vocab)), key=vocab.__getitem__)
    rank = np.empty(len(vocab), dtype=np.int64)
    rank[order] = np.arange(len(vocab))
    n = len(first)
    return rank[codes[:n]], rank[codes[n:]], rank, [vocab[i] for i in order]


def _iter(first, second):
    from itertools import chain

    return chain(_as_list(first), _as_list(second))


def _as_list(column) -> list[bytes]:
    return column if isinstance(column, list) else column.to_pylist()


def join(
    qrels: TrecColumns,
    run: TrecColumns,
    *,
    rel_level: float = 1,
    complete: bool = False,
    max_docs: int | None = None,
) -> JoinedRun:
    """Evaluate-ready batch of ``run`` against ``qrels`` (trec_eval flags: -l, -c, -M)."""
    if max_docs is not None and max_docs < 0:
        raise InputError("the maximum number of documents per query must be >= 0", value=max_docs)
    q_qrels, q_run, _, qids = _encode(qrels.qid, run.qid)  # codes are ranks: sorted qid order
    d_qrels, d_run, _, docnos = _encode(qrels.docno, run.docno)
    n_q, n_doc = len(qids), max(len(docnos), 1)
    in_qrels = np.zeros(n_q, dtype=bool)
    in_qrels[q_qrels] = True
    in_run = np.zeros(n_q, dtype=bool)
    in_run[q_run] = True
    chosen = in_qrels if complete else in_qrels & in_run
    if not chosen.any():
        raise InputError(
            "no query has both qrels and retrieved documents",
            file=run.path,
            hint="check that the run and the qrels use the same query ids (or pass -c)",
        )
    row_of = np.cumsum(chosen) - 1  # qid rank -> batch row
    query_ids = [qids[i].decode("utf-8", "replace") for i in np.flatnonzero(chosen)]
    n_rows = len(query_ids)

    # qrels of the chosen queries, grouped by row, sorted by docno
    keep = chosen[q_qrels]
    qkey = q_qrels[keep] * n_doc + d_qrels[keep]
    qorder = np.argsort(qkey, kind="stable")
    qkey = qkey[qorder]
    qgrade = qrels.value[keep][qorder].astype(np.float64)
    _refuse_duplicates(qkey, qrels, "qrels", n_doc, qids, docnos)
    judged_lengths = np.bincount(row_of[q_qrels[keep]], minlength=n_rows)

    # run lines of the chosen queries, grouped by row (stable: file order inside a query)
    rorder = _group(q_run, chosen)
    rq = q_run[rorder]
    doc_rank = d_run[rorder]
    lengths = np.bincount(row_of[rq], minlength=n_rows)
    _refuse_run_duplicates(lengths, doc_rank, rq, run, n_doc, qids, docnos)
    grades = _lookup(rq * n_doc + doc_rank, qkey, qgrade)
    batch = batch_from_columns(
        lengths,
        grades,
        judged_lengths,
        qgrade,
        rel_level=rel_level,
        scores=run.value[rorder],
        tie_rank=lambda idx: doc_rank[idx],
        max_depth=max_docs,
    )
    return JoinedRun(query_ids, batch, run.run_id or "")


def _group(codes: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Indices of the lines of chosen queries, grouped by query code ascending, file order inside.

    Run files list each query's lines together, so this usually orders whole blocks (one small
    sort of block starts) instead of sorting every line.
    """
    if codes.size == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    block_codes = codes[starts]
    if np.unique(block_codes).size != block_codes.size:  # a query split over several blocks
        picked = np.flatnonzero(chosen[codes])
        return picked[np.argsort(codes[picked], kind="stable")]
    ends = np.r_[starts[1:], codes.size]
    blocks = np.argsort(block_codes)
    blocks = blocks[chosen[block_codes[blocks]]]
    sizes = (ends - starts)[blocks]
    offsets = np.repeat(starts[blocks] - (np.cumsum(sizes) - sizes), sizes)
    return np.arange(int(sizes.sum()), dtype=np.int64) + offsets


def _refuse_run_duplicates(lengths, doc_rank, rq, run, n_doc, qids, docnos) -> None:
    """A document twice in one query: rows of doc codes, each sorted, equal neighbours."""
    if doc_rank.size == 0:
        return
    width = int(lengths.max())
    if (lengths == width).all():
        rows = doc_rank.reshape(lengths.size, width)
    else:
        starts = np.cumsum(lengths) - lengths
        rows = np.full((lengths.size, width), -1, dtype=np.int64)
        rows[np.repeat(np.arange(lengths.size), lengths), np.arange(doc_rank.size) - np.repeat(starts, lengths)] = doc_rank
    rows = np.sort(rows, axis=1)
    same = (rows[:, 1:] == rows[:, :-1]) & (rows[:, 1:] >= 0)
    if same.any():
        row, col = np.argwhere(same)[0]
        qcode = rq[int(np.cumsum(lengths)[row] - 1)]
        _refuse_duplicates(np.array([qcode * n_doc + rows[row, col]] * 2), run, "run", n_doc, qids, docnos)


def _lookup(keys: np.ndarray, sorted_keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """values[i] where sorted_keys[i] == key, NaN when the key is absent."""
    out = np.full(keys.size, np.nan)
    if sorted_keys.size == 0 or keys.size == 0:
        return out
    at = np.searchsorted(sorted_keys, keys)
    at_clipped = np.minimum(at, sorted_keys.size - 1)
    found = sorted_keys[at_clipped] == keys
    out[found] = values[at_clipped[found]]
    return out


def _refuse_duplicates(sorted_keys: np.ndarray, columns: TrecColumns, kind: str, n_doc: int, qids, docnos) -> None:
    same = np.flatnonzero(sorted_keys[1:] == sorted_keys[:-1])
    if same.size == 0:
        return
    key = int(sorted_keys[same[0]])
    qid, docno = qids[key // n_doc], docnos[key % n_doc]
    raise InputError(
        f"document {docno.decode('utf-8', 'replace')!r} is listed twice for query {qid.decode('utf-8', 'replace')!r}",
        file=columns.path,
        line=locate_line(columns.path, kind, qid, docno),
        hint="trec_eval v10 refuses duplicate documents; keep one line per (query, document)",
    )
