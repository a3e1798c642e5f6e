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
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeGuard, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ..errors import InputError
from ._columns import (
    BoolArray,
    FloatArray,
    IntArray,
    RankingBatch,
    batch_from_columns,
    build_batch,
    flatten_scored,
    order_by_score,
    rank_groups,
    scored_batch,
    small_pages,
)

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


# --------------------------------------------------------------------------- kernels


Kernel = Callable[[RankingBatch], FloatArray]


def _relevant(batch: RankingBatch, k: int | None = None) -> BoolArray:
    shared = batch.__dict__.get("_relevant")  # set by evaluate_run: one comparison for every measure
    if isinstance(shared, np.ndarray):
        return shared if k is None else shared[:, :k]
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


def _safe_divide(num: npt.NDArray[np.number[Any]], den: npt.NDArray[np.number[Any]]) -> FloatArray:
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def hit_rate(batch: RankingBatch, k: int) -> FloatArray:
    """success_k: 1 if a relevant document is in the top k, else 0 (trec_eval ``success_k``).

    Edge cases: no relevant document judged -> 0; k beyond the ranking -> whole ranking.
    """
    _check_k(k, "hit_rate")
    return np.asarray(_relevant(batch, k).any(axis=1), dtype=np.float64)


def precision(batch: RankingBatch, k: int) -> FloatArray:
    """P@k = |relevant in top k| / k (trec_eval ``P_k``: divides by k even if fewer were retrieved)."""
    _check_k(k, "precision")
    return np.asarray(_relevant(batch, k).sum(axis=1) / float(k), dtype=np.float64)


def recall(batch: RankingBatch, k: int) -> FloatArray:
    """recall@k = |relevant in top k| / R, 0 when R = 0 (trec_eval ``recall_k``)."""
    _check_k(k, "recall")
    return _safe_divide(_relevant(batch, k).sum(axis=1).astype(np.float64), batch.num_rel)


def reciprocal_rank(batch: RankingBatch, k: int | None = None) -> FloatArray:
    """RR@k = 1 / rank of the first relevant document within the top k, 0 if none.

    ``k=None`` looks at the whole ranking (trec_eval ``recip_rank``, which has no cutoff).
    """
    _check_k(k, "reciprocal_rank")
    rel = _relevant(batch, k)
    if rel.shape[1] == 0:
        return np.zeros(rel.shape[0])
    first = rel.argmax(axis=1)
    return np.where(rel.any(axis=1), 1.0 / (first + 1.0), 0.0)


def _discounts(n: int) -> FloatArray:
    return 1.0 / np.log2(np.arange(2, n + 2, dtype=np.float64))


def ndcg(batch: RankingBatch, k: int | None = None, *, gain: str = "linear") -> FloatArray:
    """nDCG@k = DCG@k / IDCG@k with DCG@k = sum_{i<=k} gain(g_i) / log2(i + 1).

    ``gain="linear"``: gain(g) = g for g > 0, else 0 (Järvelin & Kekäläinen 2002; trec_eval ``ndcg``
    for k=None, ``ndcg_cut_k`` otherwise). ``gain="exponential"``: gain(g) = 2^g - 1 for g > 0
    (Burges et al. 2005). IDCG uses the query's positive grades sorted descending, whether retrieved
    or not; ``rel_level`` plays no part. IDCG = 0 (no positive grade) -> 0.
    """
    _check_k(k, "ndcg")
    if gain not in ("linear", "exponential"):
        raise InputError("ndcg: unknown gain", value=gain, hint="use 'linear' (trec_eval) or 'exponential' (Burges)")
    cut = batch.__dict__.get("_gains_cut")  # a batch built with gain_depth keeps fewer gains
    if cut is not None and (k is None or k > cut):
        raise InputError(
            f"ndcg{'' if k is None else f'@{k}'}: this batch keeps the gains of the top {cut} ranks only",
            hint="build it with a gain_depth of at least k (None keeps every rank)",
        )
    got = batch.gains if k is None else batch.gains[:, :k]
    ideal = batch.ideal if k is None else batch.ideal[:, :k]
    got = np.maximum(got, 0.0)
    if gain == "exponential":
        got = np.expm1(got * np.log(2.0))
        ideal = np.expm1(ideal * np.log(2.0))
    dcg = got @ _discounts(got.shape[1])
    idcg = ideal @ _discounts(ideal.shape[1])
    return _safe_divide(dcg, idcg)


def average_precision(batch: RankingBatch, k: int | None = None) -> FloatArray:
    """AP@k = (1/R) * sum_{i<=k, doc i relevant} P@i, 0 when R = 0.

    trec_eval ``map`` (k=None) and ``map_cut_k``: R counts every relevant judged document, so
    relevant documents not retrieved in the top k count as precision 0.
    """
    _check_k(k, "average_precision")
    rel = _relevant(batch, k)
    row, col = np.nonzero(rel)  # relevant ranks, row by row, best first
    counts = np.bincount(row, minlength=rel.shape[0])
    hits = np.arange(1, row.size + 1, dtype=np.float64) - np.repeat(np.cumsum(counts) - counts, counts)
    summed = np.bincount(row, weights=hits / (col + 1.0), minlength=rel.shape[0])  # in rank order, as trec_eval
    return _safe_divide(summed, batch.num_rel)


def r_precision(batch: RankingBatch) -> FloatArray:
    """R-precision = |relevant in top R| / R with R = num_rel; 0 when R = 0 (trec_eval ``Rprec``)."""
    rel = _relevant(batch)
    n_q, depth = rel.shape
    if depth == 0:
        return np.zeros(n_q)
    hits = np.cumsum(rel, axis=1, dtype=np.float64)
    at = np.clip(np.minimum(batch.num_rel, depth) - 1, 0, None)
    found = hits[np.arange(n_q), at]
    return _safe_divide(np.where(batch.num_rel > 0, found, 0.0), batch.num_rel)


def num_rel_ret(batch: RankingBatch) -> IntArray:
    """Relevant documents retrieved (trec_eval ``num_rel_ret``)."""
    return np.asarray(_relevant(batch).sum(axis=1), dtype=np.int64)


# --------------------------------------------------------------------------- fast front door

def _ndcg_exp(batch: RankingBatch, k: int | None = None) -> FloatArray:
    return ndcg(batch, k, gain="exponential")


# measure names by how they take a cutoff: always ("recall@10"), optionally ("ndcg", "ndcg@10"), never
_NEEDS_K: dict[str, Callable[[RankingBatch, int], FloatArray]] = {
    "recall": recall,
    "precision": precision,
    "p": precision,
    "hit_rate": hit_rate,
    "success": hit_rate,
}
_MAY_CUT: dict[str, Callable[[RankingBatch, int | None], FloatArray]] = {
    "ndcg": ndcg,
    "ndcg_exp": _ndcg_exp,
    "mrr": reciprocal_rank,
    "reciprocal_rank": reciprocal_rank,
    "map": average_precision,
    "average_precision": average_precision,
}
_NO_CUT: dict[str, Kernel] = {"r_precision": r_precision}


@dataclass(frozen=True)
class RankingResult:
    """Per-query values of each measure; ``values[m][i]`` belongs to ``query_ids[i]``."""

    query_ids: list[str]
    values: dict[str, FloatArray]
    num_rel: IntArray

    def mean(self) -> dict[str, float]:
        """Mean over the queries (trec_eval's ``all`` line)."""
        return {m: float(v.mean()) if v.size else 0.0 for m, v in self.values.items()}


def _measure(name: str) -> Kernel:
    base, _, cut = name.partition("@")
    key = base.strip().lower()
    if key not in _NEEDS_K and key not in _MAY_CUT and key not in _NO_CUT:
        raise InputError(
            f"unknown ranking measure {name!r}",
            hint="use ndcg@k, ndcg_exp@k, mrr@k, recall@k, precision@k, map@k, hit_rate@k or r_precision",
        )
    k = None
    if cut:
        if not (cut.isascii() and cut.isdigit()) or int(cut) < 1:
            raise InputError(f"measure {name!r}: the cutoff after '@' must be a positive integer")
        k = int(cut)
    if key in _NEEDS_K:
        if k is None:
            raise InputError(f"measure {name!r} needs a cutoff", hint=f"e.g. {key}@10")
        cut_at, needs_k = k, _NEEDS_K[key]
        return lambda b: needs_k(b, cut_at)
    if key in _NO_CUT:
        if k is not None:
            raise InputError("r_precision takes no cutoff (its cutoff is R)")
        return _NO_CUT[key]
    may_cut = _MAY_CUT[key]
    return lambda b: may_cut(b, k)


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
    A NaN qrels grade counts as not judged; an infinite one raises InputError.
    """
    kernels = {name: _measure(name) for name in measures}
    with small_pages(only_if_thp_always=True):  # see small_pages: few big arrays, each filled once
        return _evaluate_run(run, qrels, kernels, rel_level)


_T = TypeVar("_T")


def _none_missing(items: list[_T | None]) -> TypeGuard[list[_T]]:
    return None not in items


def _evaluate_run(
    run: Mapping[str, Mapping[str, float]] | Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, float]],
    kernels: Mapping[str, Kernel],
    rel_level: float,
) -> RankingResult:
    found = list(map(qrels.get, run))
    if _none_missing(found):  # every run query is judged (usual)
        judged = found
        query_ids = list(run)
        rankings = list(run.values())
    else:
        query_ids = list(filter(qrels.__contains__, run))
        rankings = list(map(run.__getitem__, query_ids))
        judged = list(map(qrels.__getitem__, query_ids))
    if rankings and type(rankings[0]) is dict:  # the usual plain dicts in score order: the fast path first
        batch = scored_batch(rankings, judged, rel_level=rel_level, gain_depth=_gain_depth(kernels))
        if batch is not None:
            return _result(query_ids, batch, kernels)
    kinds = set(map(type, rankings))
    if not kinds <= {dict, list, tuple}:  # unusual containers: ask the slower abstract check
        kinds = {dict if isinstance(r, Mapping) else list for r in rankings}
    if len(kinds - {list, tuple}) and len(kinds & {list, tuple}):
        raise InputError(
            "run mixes {doc_id: score} mappings and ranked lists", hint="give every query the same kind of ranking"
        )
    if not kinds or kinds & {list, tuple}:  # every ranking is a list or a tuple (mixtures raised above)
        ranked_lists = cast("list[Sequence[str]]", rankings)
        return _result(query_ids, build_batch(ranked_lists, judged, rel_level=rel_level), kernels)
    scored = cast("list[Mapping[str, float]]", rankings)  # every ranking is a mapping (the kinds above)
    lengths, grades, scores, judged_lengths, judged_grades, tie_rank = flatten_scored(scored, judged)
    batch = batch_from_columns(
        lengths, grades, judged_lengths, judged_grades, rel_level=rel_level, scores=scores, tie_rank=tie_rank
    )
    return _result(query_ids, batch, kernels)


def _gain_depth(measures: Iterable[str]) -> int | None:
    """Ranks whose gains the measures read (only ndcg reads gains): the deepest ndcg cutoff, None = all."""
    depth = 0
    for name in measures:
        base, _, cut = name.partition("@")
        if base.strip().lower() in ("ndcg", "ndcg_exp"):
            if not cut:
                return None
            depth = max(depth, int(cut))
    return depth


def _result(query_ids: list[str], batch: RankingBatch, kernels: Mapping[str, Kernel]) -> RankingResult:
    if len(kernels) > 1 and "_relevant" not in batch.__dict__:  # private batch: one relevance mask for all
        object.__setattr__(batch, "_relevant", _relevant(batch))
    return RankingResult(query_ids, {name: kernel(batch) for name, kernel in kernels.items()}, batch.num_rel)
