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
from ._fastjoin import fast_join
from ._keys import _encode, _item, _query_codes, _row_key, _same_docs, _tie_rank, fingerprints
from .io import TrecColumns, locate_line

__all__ = ["JoinedRun", "join"]


@dataclass(frozen=True)
class JoinedRun:
    """Batch rows are ``query_ids`` in order; ``run_id`` is the run's last run id."""

    query_ids: list[str]
    batch: RankingBatch
    run_id: str


def join(
    qrels: TrecColumns,
    run: TrecColumns,
    *,
    rel_level: float = 1,
    complete: bool = False,
    max_docs: int | None = None,
    exact: bool = False,
    gain_depth: int | None = None,
) -> JoinedRun:
    """Evaluate-ready batch of ``run`` against ``qrels`` (trec_eval flags: -l, -c, -M).

    Three tiers, same values: the usual files (each query's run lines in one block) take
    ``_fastjoin.fast_join`` (ranks from positions, one sort of 64-bit keys, no re-ordering of the
    run). Anything it declines (a query split over blocks, a duplicate, a fingerprint collision) comes
    here: with pyarrow columns, documents are matched by 64-bit fingerprints and every match is then
    checked byte for byte; should two different docnos of one query share a fingerprint, the join is
    redone with exact codes (``exact=True``), which also raises the duplicate errors.

    ``gain_depth`` (the deepest ``ndcg`` cutoff, None: all) lets the usual path keep fewer gains; its
    batch then carries the relevance mask the kernels read, and is meant for them only.
    """
    if max_docs is not None and max_docs < 0:
        raise InputError("the maximum number of documents per query must be >= 0", value=max_docs)
    if not exact:  # the usual files: no re-ordering of the run, one sort of 64-bit keys
        fast = fast_join(qrels, run, rel_level=rel_level, complete=complete, max_docs=max_docs, gain_depth=gain_depth)
        if fast is not None:
            return JoinedRun(fast[0], fast[1], run.run_id or "")
    q_qrels, q_run, qids = _query_codes(qrels.qid, run.qid)  # codes are ranks: sorted qid order
    n_q = len(qids)
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

    qlines = np.flatnonzero(chosen[q_qrels])  # qrels lines of the chosen queries
    qrow = row_of[q_qrels[qlines]]
    rorder = _group(q_run, chosen)  # run lines of the chosen queries, grouped by row, file order inside
    rrow = row_of[q_run[rorder]]
    lengths = np.bincount(rrow, minlength=n_rows)
    judged_lengths = np.bincount(qrow, minlength=n_rows)
    if qrow.size and (qrow[1:] < qrow[:-1]).any():
        by_row = qlines[np.argsort(qrow, kind="stable")]
    else:
        by_row = qlines
    judged_grades = qrels.value[by_row].astype(np.float64)

    prints = None if exact else fingerprints(qrels.docno, run.docno)
    if prints is None:
        d_qrels, d_run, _, _ = _encode(qrels.docno, run.docno)
        n_doc = int(max(d_qrels.max(initial=0), d_run.max(initial=0))) + 1
        qkey = qrow * n_doc + d_qrels[qlines]
        rkey = rrow * n_doc + d_run[rorder]
        doc_rank = d_run[rorder]
        tie_rank = lambda idx: doc_rank[idx]  # noqa: E731
    else:
        shift = 64 - max(int(n_rows).bit_length(), 1)
        qkey = _row_key(qrow, prints[0][qlines], shift)
        rkey = _row_key(rrow, prints[1][rorder], shift)
        tie_rank = _tie_rank(run.docno, rorder)
    fuzzy = prints is not None
    qo = np.argsort(qkey)
    qkey_sorted = qkey[qo]
    if not _refuse_duplicates(qkey_sorted, qlines[qo], qrow[qo], qrels, "qrels", qids, q_qrels, fuzzy):
        return join(qrels, run, rel_level=rel_level, complete=complete, max_docs=max_docs, exact=True)
    ro = np.argsort(rkey)
    rkey_sorted = rkey[ro]
    if not _refuse_duplicates(rkey_sorted, rorder[ro], rrow[ro], run, "run", qids, q_run, fuzzy):
        return join(qrels, run, rel_level=rel_level, complete=complete, max_docs=max_docs, exact=True)
    grades = np.full(rkey.size, np.nan)
    if rkey.size and qkey.size:
        at = np.minimum(np.searchsorted(rkey_sorted, qkey_sorted), rkey.size - 1)
        found = np.flatnonzero(rkey_sorted[at] == qkey_sorted)
        flat = ro[at[found]]  # position in rorder of each matched run line
        if fuzzy and not _same_docs(qrels.docno, qlines[qo[found]], run.docno, rorder[flat]):
            return join(qrels, run, rel_level=rel_level, complete=complete, max_docs=max_docs, exact=True)
        grades[flat] = qrels.value[qlines[qo[found]]]
    batch = batch_from_columns(
        lengths,
        grades,
        judged_lengths,
        judged_grades,
        rel_level=rel_level,
        scores=run.value[rorder],
        tie_rank=tie_rank,
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


def _refuse_duplicates(sorted_keys, lines, rows, columns: TrecColumns, kind: str, qids, qcodes, fuzzy) -> bool:
    """Raise InputError for a (query, document) pair listed twice. Equal keys with different docnos
    (fingerprints only) return False: the caller redoes the join with exact codes."""
    same = np.flatnonzero(sorted_keys[1:] == sorted_keys[:-1])
    found = []
    for i in same.tolist():
        a, b = int(lines[i]), int(lines[i + 1])
        docno = _item(columns.docno, a)
        if fuzzy and (rows[i] != rows[i + 1] or docno != _item(columns.docno, b)):
            return False
        found.append((int(qcodes[a]), docno))
    if not found:
        return True
    qcode, docno = min(found)  # the first in (qid, docno) byte order, whatever the key order
    qid = qids[qcode]
    raise InputError(
        f"document {docno.decode('utf-8', 'replace')!r} is listed twice for query {qid.decode('utf-8', 'replace')!r}",
        file=columns.path,
        line=locate_line(columns.path, kind, qid, docno),
        hint="trec_eval v10 refuses duplicate documents; keep one line per (query, document)",
    )
