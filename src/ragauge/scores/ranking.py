"""Ranking metrics as pure numpy kernels, exact to NIST trec_eval v10.

All kernels take one :class:`RankingBatch` (every query of a run as a padded matrix) and return one
float64 value per query, so a whole run is scored in a few vectorised passes.

Conventions copied from trec_eval (``res_rels`` in its ``form_res_rels.c``):

* A document is *relevant* when its qrels grade is ``>= rel_level`` (trec_eval ``-l``, default 1).
  Unjudged documents and negative grades are never relevant (``rel_level`` must be ``>= 0``).
* ``num_rel`` (R) counts the judged documents of the query with grade ``>= rel_level``, retrieved or not.
* A query with ``num_rel == 0`` scores 0 on every measure except ``ndcg`` (trec_eval's convention;
  the metric layer reports such queries as unscored). ``ndcg`` ignores ``rel_level``: its ideal
  ranking holds every positive grade, and it is 0 only when that ideal is empty.
* Gains in ``ndcg`` are the grades themselves (``linear``, trec_eval); grade 0, negative grades and
  unjudged documents add nothing; the ideal ranking holds only positive grades.
* Cutoffs larger than the ranking act as if non-relevant documents filled the rest
  (``P_k`` still divides by ``k``).

Tiny example: ranking ``[a, b, c]`` with qrels ``{a: 0, c: 2}`` gives gains ``[0, 0, 2]``; with
``rel_level=1``: ``reciprocal_rank = 1/3``, ``precision(k=2) = 0``, ``average_precision = (1/3)/1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, repeat
from typing import Mapping, Sequence

import numpy as np

from ..errors import InputError

__all__ = [
    "RankingBatch",
    "RankingResult",
    "evaluate_run",
    "num_rel_ret",
    "rank_groups",
    "average_precision",
    "batch_from_columns",
    "build_batch",
    "hit_rate",
    "ndcg",
    "order_by_score",
    "precision",
    "r_precision",
    "recall",
    "reciprocal_rank",
]


@dataclass(frozen=True)
class RankingBatch:
    """Every query of a run as padded matrices (rows = queries, columns = ranks).

    gains: float64 (n_queries, depth): qrels grade of the document at each rank (negative grades kept
        as they are), 0 for unjudged documents and for padding beyond ``retrieved``.
    retrieved: int64 (n_queries,): number of documents retrieved.
    num_rel: int64 (n_queries,): judged documents with grade >= rel_level (R).
    ideal: float64 (n_queries, d): the query's positive grades sorted descending, padded with 0.
    rel_level: minimum grade of a relevant document (trec_eval ``-l``).
    judged: bool (n_queries, depth) or None: document is judged with grade >= 0. Needed only when
        ``rel_level == 0`` (a judged grade 0 is then relevant, an unjudged document is not).
    """

    gains: np.ndarray
    retrieved: np.ndarray
    num_rel: np.ndarray
    ideal: np.ndarray
    rel_level: float = 1.0
    judged: np.ndarray | None = None

    @property
    def n_queries(self) -> int:
        return int(self.gains.shape[0])


def build_batch(
    rankings: Sequence[Sequence[str]],
    qrels: Sequence[Mapping[str, float]],
    *,
    rel_level: float = 1,
) -> RankingBatch:
    """Batch ranked lists of document ids (ranked as given, never re-sorted) with their qrels.

    ``rankings[i]`` is query i's ranking, best first; ``qrels[i]`` maps judged document ids to grades.
    A document id repeated inside one ranking raises InputError naming the query index and the id.
    """
    if len(rankings) != len(qrels):
        raise InputError(
            f"build_batch needs one qrels mapping per ranking: got {len(rankings)} rankings and {len(qrels)} qrels",
            hint="pass an empty dict for a query without judgements",
        )
    lengths = np.fromiter(map(len, rankings), dtype=np.int64, count=len(rankings))
    nan = float("nan")
    grades = np.fromiter(
        (g for ranking, judged in zip(rankings, qrels) for g in map(judged.get, ranking, repeat(nan))),
        dtype=np.float64,
        count=int(lengths.sum()),
    )
    for i, ranking in enumerate(rankings):
        if len(set(ranking)) != len(ranking):
            seen: set[str] = set()
            dup = next(d for d in ranking if d in seen or seen.add(d))  # type: ignore[func-returns-value]
            raise InputError(
                f"query {i}: document id {dup!r} appears twice in the ranking",
                field="retrieved_ids",
                hint="a ranking lists each document once; deduplicate it keeping the first occurrence",
            )
    judged_lengths = np.fromiter(map(len, qrels), dtype=np.int64, count=len(qrels))
    judged_grades = np.fromiter(
        (float(g) for judged in qrels for g in judged.values()), dtype=np.float64, count=int(judged_lengths.sum())
    )
    return batch_from_columns(lengths, grades, judged_lengths, judged_grades, rel_level=rel_level)




# --------------------------------------------------------------------------- kernels


def _relevant(batch: RankingBatch, k: int | None = None) -> np.ndarray:
    gains = batch.gains if k is None else batch.gains[:, :k]
    if batch.rel_level > 0:
        return gains >= batch.rel_level
    if batch.judged is None:
        raise InputError(
            "rel_level 0 needs the batch's 'judged' mask (a judged grade 0 is relevant, an unjudged doc is not)",
            hint="build the batch with build_batch(..., rel_level=0) or batch_from_columns",
        )
    judged = batch.judged if k is None else batch.judged[:, :k]
    return judged & (gains >= batch.rel_level)


def _check_k(k: int | None, name: str) -> None:
    if k is not None and (isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1):
        raise InputError(f"{name}: cutoff k must be a positive integer", value=k)


def _safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def hit_rate(batch: RankingBatch, k: int) -> np.ndarray:
    """success_k: 1 if a relevant document is in the top k, else 0 (trec_eval ``success_k``).

    Edge cases: no relevant document judged -> 0; k beyond the ranking -> whole ranking.
    """
    _check_k(k, "hit_rate")
    return _relevant(batch, k).any(axis=1).astype(np.float64)


def precision(batch: RankingBatch, k: int) -> np.ndarray:
    """P@k = |relevant in top k| / k (trec_eval ``P_k``: divides by k even if fewer were retrieved)."""
    _check_k(k, "precision")
    return _relevant(batch, k).sum(axis=1) / float(k)


def recall(batch: RankingBatch, k: int) -> np.ndarray:
    """recall@k = |relevant in top k| / R, 0 when R = 0 (trec_eval ``recall_k``)."""
    _check_k(k, "recall")
    return _safe_divide(_relevant(batch, k).sum(axis=1).astype(np.float64), batch.num_rel)


def reciprocal_rank(batch: RankingBatch, k: int | None = None) -> np.ndarray:
    """RR@k = 1 / rank of the first relevant document within the top k, 0 if none.

    ``k=None`` looks at the whole ranking (trec_eval ``recip_rank``, which has no cutoff).
    """
    _check_k(k, "reciprocal_rank")
    rel = _relevant(batch, k)
    if rel.shape[1] == 0:
        return np.zeros(rel.shape[0])
    first = rel.argmax(axis=1)
    return np.where(rel.any(axis=1), 1.0 / (first + 1.0), 0.0)


def _discounts(n: int) -> np.ndarray:
    return 1.0 / np.log2(np.arange(2, n + 2, dtype=np.float64))


def ndcg(batch: RankingBatch, k: int | None = None, *, gain: str = "linear") -> np.ndarray:
    """nDCG@k = DCG@k / IDCG@k with DCG@k = sum_{i<=k} gain(g_i) / log2(i + 1).

    ``gain="linear"``: gain(g) = g for g > 0, else 0 (Järvelin & Kekäläinen 2002; trec_eval ``ndcg``
    for k=None, ``ndcg_cut_k`` otherwise). ``gain="exponential"``: gain(g) = 2^g - 1 for g > 0
    (Burges et al. 2005). IDCG uses the query's positive grades sorted descending, whether retrieved
    or not; ``rel_level`` plays no part. IDCG = 0 (no positive grade) -> 0.
    """
    _check_k(k, "ndcg")
    if gain not in ("linear", "exponential"):
        raise InputError("ndcg: unknown gain", value=gain, hint="use 'linear' (trec_eval) or 'exponential' (Burges)")
    got = batch.gains if k is None else batch.gains[:, :k]
    ideal = batch.ideal if k is None else batch.ideal[:, :k]
    got = np.maximum(got, 0.0)
    if gain == "exponential":
        got = np.expm1(got * np.log(2.0))
        ideal = np.expm1(ideal * np.log(2.0))
    dcg = got @ _discounts(got.shape[1])
    idcg = ideal @ _discounts(ideal.shape[1])
    return _safe_divide(dcg, idcg)


def average_precision(batch: RankingBatch, k: int | None = None) -> np.ndarray:
    """AP@k = (1/R) * sum_{i<=k, doc i relevant} P@i, 0 when R = 0.

    trec_eval ``map`` (k=None) and ``map_cut_k``: R counts every relevant judged document, so
    relevant documents not retrieved in the top k count as precision 0.
    """
    _check_k(k, "average_precision")
    rel = _relevant(batch, k)
    if rel.shape[1] == 0:
        return np.zeros(rel.shape[0])
    hits = np.cumsum(rel, axis=1, dtype=np.float64)
    ranks = np.arange(1, rel.shape[1] + 1, dtype=np.float64)
    summed = np.where(rel, hits / ranks, 0.0).sum(axis=1)
    return _safe_divide(summed, batch.num_rel)


def r_precision(batch: RankingBatch) -> np.ndarray:
    """R-precision = |relevant in top R| / R with R = num_rel; 0 when R = 0 (trec_eval ``Rprec``)."""
    rel = _relevant(batch)
    n_q, depth = rel.shape
    if depth == 0:
        return np.zeros(n_q)
    hits = np.cumsum(rel, axis=1, dtype=np.float64)
    at = np.clip(np.minimum(batch.num_rel, depth) - 1, 0, None)
    found = hits[np.arange(n_q), at]
    return _safe_divide(np.where(batch.num_rel > 0, found, 0.0), batch.num_rel)


def num_rel_ret(batch: RankingBatch) -> np.ndarray:
    """Relevant documents retrieved (trec_eval ``num_rel_ret``)."""
    return _relevant(batch).sum(axis=1).astype(np.int64)


# --------------------------------------------------------------------------- columnar assembly
# One door from flat columns (one entry per retrieved document, grouped by query) to a batch, shared
# by build_batch, evaluate_run and the TREC file reader, so that all three rank and score alike.


def order_by_score(doc_ids: Sequence[str], scores: Sequence[float]) -> np.ndarray:
    """Indices that rank one query's documents the trec_eval v10 way.

    Score descending, compared as doubles; ties broken by document id in *descending* string order
    (byte order of UTF-8, as C ``strcmp``). Example: ids ``[a, b, c]``, scores ``[1, 2, 1]`` ->
    ``[1, 2, 0]`` (b, then c before a). NaN scores raise InputError.
    """
    ids = np.asarray(list(doc_ids), dtype=object)
    values = np.asarray(scores, dtype=np.float64)
    if ids.shape != values.shape:
        raise InputError(f"order_by_score: {ids.size} document ids but {values.size} scores")
    if np.isnan(values).any():
        raise InputError("order_by_score: a score is NaN", hint="give every document a number")
    if ids.size == 0:
        return np.zeros(0, dtype=np.int64)
    _, codes = np.unique(ids, return_inverse=True)
    return np.lexsort((-codes.ravel(), -values)).astype(np.int64)


def _group_positions(lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, row, col) of each flat entry in a grouped layout."""
    starts = np.cumsum(lengths) - lengths
    row = np.repeat(np.arange(lengths.size), lengths)
    col = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(starts, lengths)
    return starts, row, col


def rank_groups(lengths: np.ndarray, scores: np.ndarray, tie_rank) -> np.ndarray:
    """Permutation of flat entries (grouped by query) into rank order inside each query.

    Order: score descending, then ``tie_rank`` descending (``tie_rank(flat_indices) -> int array``
    consistent with the document ids' string order; called only for queries that have ties).
    """
    n = int(scores.size)
    if np.isnan(scores).any():
        raise InputError("a retrieval score is NaN", hint="give every retrieved document a number")
    nq = int(lengths.size)
    width = int(lengths.max()) if nq else 0
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    if nq * width > 4 * n + 4096:  # very uneven lengths: padding would waste memory
        row = np.repeat(np.arange(nq), lengths)
        return np.lexsort((-np.asarray(tie_rank(np.arange(n))), -scores, row)).astype(np.int64)
    if n == nq * width:  # every query has the same length: a reshape, no scatter
        neg = -scores.reshape(nq, width)
    else:
        _, row, col = _group_positions(lengths)
        neg = np.full((nq, width), np.inf)
        neg[row, col] = -scores
    if width > 1 and (neg[:, 1:] >= neg[:, :-1]).all():  # already in score order, as runs usually are
        order = np.broadcast_to(np.arange(width), (nq, width)).copy()
    else:
        order = np.argsort(neg, axis=1, kind="stable")  # real entries first among equal keys (+inf pads)
    valid = np.arange(width) < lengths[:, None]
    if width > 1:
        ranked = np.take_along_axis(neg, order, axis=1)
        tied = ((ranked[:, 1:] == ranked[:, :-1]) & valid[:, 1:]).any(axis=1)
        rows = np.flatnonzero(tied)
        if rows.size:
            sub_valid = valid[rows]
            flat = (starts[rows][:, None] + np.arange(width))[sub_valid]
            ranks = np.zeros(sub_valid.shape, dtype=np.int64)
            ranks[sub_valid] = np.asarray(tie_rank(flat), dtype=np.int64)
            order[rows] = np.lexsort((-ranks, neg[rows], ~sub_valid), axis=1)
    order += starts[:, None]
    return order.ravel() if n == nq * width else order[valid]


def batch_from_columns(
    lengths: np.ndarray,
    grades: np.ndarray,
    judged_lengths: np.ndarray,
    judged_grades: np.ndarray,
    *,
    rel_level: float = 1,
    scores: np.ndarray | None = None,
    tie_rank=None,
    max_depth: int | None = None,
) -> RankingBatch:
    """Assemble a batch from flat columns grouped by query (query i owns ``lengths[i]`` entries).

    grades: float64, the qrels grade of each retrieved document, NaN when it is not judged.
    judged_lengths, judged_grades: every judged grade of each query (for R and the ideal ranking).
    scores: when given, documents are ranked by ``rank_groups`` (needs ``tie_rank``); otherwise the
        flat order is the rank order. max_depth: keep only the top ``max_depth`` (trec_eval ``-M``).
    """
    if not np.isfinite(rel_level) or rel_level < 0:
        raise InputError(
            "relevance level must be a number >= 0",
            value=rel_level,
            hint="trec_eval's negative levels would count unjudged documents as relevant; use 0 or more",
        )
    lengths = np.asarray(lengths, dtype=np.int64)
    grades = np.asarray(grades, dtype=np.float64)
    nq = int(lengths.size)
    if scores is not None:
        grades = grades[rank_groups(lengths, np.asarray(scores, dtype=np.float64), tie_rank)]
    retrieved = lengths if max_depth is None else np.minimum(lengths, max_depth)
    width = int(retrieved.max()) if nq else 0
    unjudged = np.isnan(grades)
    values = np.where(unjudged, 0.0, grades)
    judged_flat = (~unjudged & (values >= 0)) if rel_level <= 0 else None
    if nq and width and (retrieved == width).all() and grades.size == nq * width:
        gains = values.reshape(nq, width)
        judged = None if judged_flat is None else judged_flat.reshape(nq, width)
    else:
        _, row, col = _group_positions(lengths)
        keep = col < width if max_depth is None else col < max_depth
        gains = np.zeros((nq, width))
        gains[row[keep], col[keep]] = values[keep]
        judged = None
        if judged_flat is not None:
            judged = np.zeros((nq, width), dtype=bool)
            judged[row[keep], col[keep]] = judged_flat[keep]
    judged_lengths = np.asarray(judged_lengths, dtype=np.int64)
    judged_grades = np.asarray(judged_grades, dtype=np.float64)
    jrow = np.repeat(np.arange(nq), judged_lengths)
    num_rel = np.bincount(jrow, weights=judged_grades >= rel_level, minlength=nq).astype(np.int64)
    return RankingBatch(gains, retrieved, num_rel, _ideal(jrow, judged_grades, nq), float(rel_level), judged)


def _ideal(jrow: np.ndarray, judged_grades: np.ndarray, nq: int) -> np.ndarray:
    """Positive grades of each query sorted descending, padded with 0."""
    positive = judged_grades > 0
    rows, vals = jrow[positive], judged_grades[positive]
    counts = np.bincount(rows, minlength=nq)
    depth = int(counts.max()) if nq else 0
    ideal = np.zeros((nq, depth))
    if rows.size:
        _, _, col = _group_positions(counts)
        order = np.argsort(rows, kind="stable")
        ideal[rows[order], col] = vals[order]
        ideal = -np.sort(-ideal, axis=1)
    return ideal


# --------------------------------------------------------------------------- fast front door

_KERNELS = {
    "ndcg": ndcg,
    "ndcg_exp": None,  # ndcg with exponential gain, filled below
    "mrr": reciprocal_rank,
    "reciprocal_rank": reciprocal_rank,
    "recall": recall,
    "precision": precision,
    "p": precision,
    "map": average_precision,
    "average_precision": average_precision,
    "hit_rate": hit_rate,
    "success": hit_rate,
    "r_precision": r_precision,
}
_NEEDS_K = {"recall", "precision", "p", "hit_rate", "success"}


@dataclass(frozen=True)
class RankingResult:
    """Per-query values of each measure; ``values[m][i]`` belongs to ``query_ids[i]``."""

    query_ids: list[str]
    values: dict[str, np.ndarray]
    num_rel: np.ndarray

    def mean(self) -> dict[str, float]:
        """Mean over the queries (trec_eval's ``all`` line)."""
        return {m: float(v.mean()) if v.size else 0.0 for m, v in self.values.items()}


def _measure(name: str):
    base, _, cut = name.partition("@")
    key = base.strip().lower()
    if key not in _KERNELS:
        raise InputError(
            f"unknown ranking measure {name!r}",
            hint="use ndcg@k, ndcg_exp@k, mrr@k, recall@k, precision@k, map@k, hit_rate@k or r_precision",
        )
    k = None
    if cut:
        if not cut.isdigit() or int(cut) < 1:
            raise InputError(f"measure {name!r}: the cutoff after '@' must be a positive integer")
        k = int(cut)
    if k is None and key in _NEEDS_K:
        raise InputError(f"measure {name!r} needs a cutoff", hint=f"e.g. {key}@10")
    if k is not None and key == "r_precision":
        raise InputError("r_precision takes no cutoff (its cutoff is R)")
    if key == "ndcg_exp":
        return lambda b: ndcg(b, k, gain="exponential")
    kernel = _KERNELS[key]
    return (lambda b: kernel(b)) if kernel is r_precision else (lambda b: kernel(b, k))


def evaluate_run(
    run: Mapping[str, Mapping[str, float]] | Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, float]],
    measures: Sequence[str] = ("ndcg@10", "mrr@10", "recall@100", "map@100", "hit_rate@10"),
    *,
    rel_level: float = 1,
) -> RankingResult:
    """Score a whole run given as Python dicts, in a few vectorised passes.

    ``run``: ``{qid: {doc_id: score}}`` (ranked by :func:`order_by_score`) or ``{qid: [doc_id, ...]}``
    (ranked as given). Queries present in both run and qrels are scored (trec_eval's rule), in the
    run's order. Measures: ``ndcg@k`` (linear gain), ``ndcg_exp@k``, ``mrr@k``, ``recall@k``,
    ``precision@k``, ``map@k``, ``hit_rate@k``, ``r_precision``; no ``@k`` = whole ranking.
    """
    kernels = {name: _measure(name) for name in measures}
    query_ids = [q for q in run if q in qrels]
    rankings = [run[q] for q in query_ids]
    judged = [qrels[q] for q in query_ids]
    kinds = {isinstance(r, Mapping) for r in rankings}
    if len(kinds) > 1:
        raise InputError(
            "run mixes {doc_id: score} mappings and ranked lists", hint="give every query the same kind of ranking"
        )
    scored = kinds == {True}
    if not scored:
        return _result(query_ids, build_batch(rankings, judged, rel_level=rel_level), kernels)  # type: ignore[arg-type]
    lengths = np.fromiter(map(len, rankings), dtype=np.int64, count=len(rankings))
    n = int(lengths.sum())
    nan = float("nan")
    grades = np.fromiter(
        chain.from_iterable(map(j.get, r, repeat(nan)) for j, r in zip(judged, rankings)), dtype=np.float64, count=n
    )
    scores = np.fromiter(chain.from_iterable(r.values() for r in rankings), dtype=np.float64, count=n)  # type: ignore[union-attr]
    docs: list[str] = []

    def tie_rank(idx: np.ndarray) -> np.ndarray:
        if not docs:
            docs.extend(chain.from_iterable(rankings))
        return np.unique(np.array([docs[i] for i in idx.tolist()], dtype=object), return_inverse=True)[1].ravel()

    judged_lengths = np.fromiter(map(len, judged), dtype=np.int64, count=len(judged))
    judged_grades = np.fromiter(
        chain.from_iterable(j.values() for j in judged), dtype=np.float64, count=int(judged_lengths.sum())
    )
    batch = batch_from_columns(
        lengths, grades, judged_lengths, judged_grades, rel_level=rel_level, scores=scores, tie_rank=tie_rank
    )
    return _result(query_ids, batch, kernels)


def _result(query_ids: list[str], batch: RankingBatch, kernels) -> RankingResult:
    return RankingResult(query_ids, {name: kernel(batch) for name, kernel in kernels.items()}, batch.num_rel)
