"""From Python rankings or flat columns to a :class:`RankingBatch` (every query as padded matrices).

One door, :func:`batch_from_columns`, takes flat columns (one entry per retrieved document, grouped by
query) and is shared by ``build_batch`` (ranked lists), ``evaluate_run`` (``{qid: {doc: score}}``) and
the TREC file reader, so that all of them rank and score alike.

Speed: the per-document work is C loops only (``map(dict.get, ...)``, ``chain.from_iterable``,
``np.fromiter``) and vectorised numpy; ranking by score is skipped when the input is already in
score order, and the document-id tie rule (trec_eval v10) is applied only to queries with equal scores.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, repeat
from operator import attrgetter, methodcaller
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, Sized, TypeGuard

import numpy as np
import numpy.typing as npt

from ..errors import InputError

__all__ = [
    "RankingBatch",
    "batch_from_columns",
    "build_batch",
    "flatten_scored",
    "order_by_score",
    "rank_groups",
    "scored_batch",
    "small_pages",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
TieRank = Callable[[np.ndarray], np.ndarray]
# lengths, grades, scores, judged_lengths, judged_grades, tie_rank (see flatten_scored)
ScoredColumns = tuple[IntArray, FloatArray, FloatArray, IntArray, FloatArray, TieRank]


@contextmanager
def small_pages(*, only_if_thp_always: bool = False) -> Iterator[None]:
    """Run a block with numpy's request for transparent huge pages switched off, then restore it.

    numpy asks Linux for huge pages (``madvise``) for every array of 4 MiB or more. With the kernel's
    common ``defrag=madvise`` setting, a page fault in such an array may first compact memory, and how
    long that takes depends on the state of the whole machine's memory ("slow draws"). Whether the
    request pays depends on the kernel's mode and on the code (measured on a 2-core VM, 100k queries):

    * TREC files (many mid-size temporaries, two threads): 4 KiB pages were faster with THP
      ``enabled=madvise`` (1.10-1.68 s against 1.07-1.61 s, medians 1.16 / 1.48) and with ``always``;
      the files door always switches the request off.
    * Python dicts (few big arrays, each filled once): with ``enabled=always`` the kernel gives huge
      pages anyway where it can without compacting, so the request only adds the stalls (2.2-2.6 s
      without it, 3.1-3.9 s with it, a loaded machine); with ``enabled=madvise`` the request is the only
      way to huge pages, and 4 KiB pages cost a fault every 4 KiB of fresh memory (0.94-1.17 s
      without it, 0.80-1.32 s with it, medians 0.96 / 0.81). ``only_if_thp_always=True`` is this rule.

    The switch is process-wide (numpy has no other); it only changes how memory is mapped, never a value.
    """
    try:
        from numpy._core import multiarray
    except ImportError:  # numpy < 2
        from numpy.core import multiarray  # type: ignore[no-redef]
    setter = getattr(multiarray, "_set_madvise_hugepage", None)
    if setter is None or (only_if_thp_always and not _thp_always()):
        yield
        return
    before = setter(False)
    try:
        yield
    finally:
        setter(before)


@lru_cache(maxsize=1)
def _thp_always() -> bool:
    """Whether Linux gives transparent huge pages to all anonymous memory (``enabled`` is ``[always]``)."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            return "[always]" in f.read()
    except OSError:  # not Linux, or no THP
        return False


_GET = attrgetter("get")
_VALUES = methodcaller("values")


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

    gains: FloatArray
    retrieved: IntArray
    num_rel: IntArray
    ideal: FloatArray
    rel_level: float = 1.0
    judged: BoolArray | None = None

    @property
    def n_queries(self) -> int:
        return int(self.gains.shape[0])


def _lengths(groups: Sequence[Sized]) -> IntArray:
    return np.fromiter(map(len, groups), dtype=np.int64, count=len(groups))


def _all_dicts(groups: Sequence[object]) -> TypeGuard[Sequence[dict[str, float]]]:
    """Whether every item is a plain ``dict`` (not a subclass, which may override ``get`` or ``values``)."""
    return set(map(type, groups)) <= {dict}


def _values(groups: Sequence[Mapping[str, float]]) -> Iterator[float]:
    """Every mapping's values, chained (``dict.values`` directly when they are all dicts)."""
    if _all_dicts(groups):
        return chain.from_iterable(map(dict.values, groups))
    return chain.from_iterable(map(_VALUES, groups))


def _judged_columns(qrels: Sequence[Mapping[str, float]]) -> tuple[IntArray, FloatArray]:
    lengths = _lengths(qrels)
    grades = np.fromiter(_values(qrels), dtype=np.float64, count=int(lengths.sum()))
    _check_grades(grades)
    return lengths, grades


def _check_grades(grades: FloatArray) -> None:
    """An infinite qrels grade is refused (ndcg would be inf/inf). A NaN grade means "not judged" here, as
    it does for every unjudged document (the data layer refuses NaN grades before they get here)."""
    if grades.size and np.isinf(grades).any():
        bad = grades[np.isinf(grades)][0]
        raise InputError(f"a qrels grade is {bad}, not a finite number",
                         hint="give every judged document a number such as 0, 1, 2 (or leave it out)")


def _grades(rankings: Sequence[Iterable[str]], qrels: Sequence[Mapping[str, float]], count: int) -> FloatArray:
    """qrels grade of every ranked document (NaN when unjudged), one C-level lookup per document."""
    nan = float("nan")
    return np.fromiter(
        # map(qrels_i.get, ranking_i, repeat(nan)) for every query, chained: no Python frame per document
        chain.from_iterable(map(map, map(_GET, qrels), rankings, repeat(repeat(nan)))),
        dtype=np.float64,
        count=count,
    )


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
    lengths = _lengths(rankings)
    distinct = np.fromiter(map(len, map(set, rankings)), dtype=np.int64, count=len(rankings))
    if (distinct != lengths).any():
        i = int(np.flatnonzero(distinct != lengths)[0])
        seen: set[str] = set()
        dup = next(d for d in rankings[i] if d in seen or seen.add(d))  # type: ignore[func-returns-value]
        raise InputError(
            f"query {i}: document id {dup!r} appears twice in the ranking",
            field="retrieved_ids",
            hint="a ranking lists each document once; deduplicate it keeping the first occurrence",
        )
    grades = _grades(rankings, qrels, int(lengths.sum()))
    judged_lengths, judged_grades = _judged_columns(qrels)
    return batch_from_columns(lengths, grades, judged_lengths, judged_grades, rel_level=rel_level)


def flatten_scored(rankings: Sequence[Mapping[str, float]], qrels: Sequence[Mapping[str, float]]) -> ScoredColumns:
    """Columns of ``{doc_id: score}`` rankings: (lengths, grades, scores, judged_lengths, judged_grades,
    tie_rank). ``tie_rank`` reads document ids only for the queries that have tied scores."""
    lengths = _lengths(rankings)
    n = int(lengths.sum())
    scores = np.fromiter(_values(rankings), dtype=np.float64, count=n)
    grades = _grades(rankings, qrels, n)
    judged_lengths, judged_grades = _judged_columns(qrels)
    starts = np.cumsum(lengths) - lengths

    def tie_rank(idx: np.ndarray) -> IntArray:
        rows = np.searchsorted(starts, idx, side="right") - 1
        picked = np.unique(rows)
        offset = np.zeros(lengths.size, dtype=np.int64)
        offset[picked] = np.cumsum(lengths[picked]) - lengths[picked]
        docs = np.array(list(chain.from_iterable(rankings[r] for r in picked.tolist())), dtype=object)
        return np.unique(docs[offset[rows] + idx - starts[rows]], return_inverse=True)[1].ravel()

    return lengths, grades, scores, judged_lengths, judged_grades, tie_rank


def scored_batch(
    rankings: Sequence[object],
    qrels: Sequence[object],
    *,
    rel_level: float = 1,
    gain_depth: int | None = None,
) -> RankingBatch | None:
    """Batch of ``{doc_id: score}`` rankings (all plain dicts, qrels too) that are already in strict score
    order, or None when some query is not (unsorted or tied scores: use :func:`flatten_scored`) or some
    mapping is not a plain dict.

    Looks up the judged documents only (``map(run_q.get, qrels_q)``: their score, NaN when not retrieved),
    not every retrieved one; each one's rank is found by a vectorised binary search in its query's scores
    (strictly descending, so the score pins the rank).

    ``gain_depth``: keep the gains of the top ``gain_depth`` ranks only (the deepest ``ndcg`` cutoff; None:
    all). The kernels' relevance mask of every rank is attached to the batch (``_relevant``), so the
    batch is meant for ``evaluate_run``'s kernels, not for other uses.
    """
    if not np.isfinite(rel_level) or rel_level < 0:
        return None  # batch_from_columns raises the error
    # plain dicts only (a subclass may override get or values; an empty list at the end of the run would
    # never reach dict.values below): anything else takes the general path, which says what is wrong
    if not (_all_dicts(rankings) and _all_dicts(qrels)):
        return None
    nq = len(rankings)
    try:  # a score or grade that is not a number raises here: the general path says which
        lengths = _lengths(rankings)
        judged_lengths = _lengths(qrels)
        if nq == 0 or not lengths.any():
            return None
        # one C-level pass, per query: the run's scores, the score of each judged document (NaN when it
        # is not retrieved: map(run_q.get, qrels_q)), the judged grades; the query's dicts are read while
        # cached
        block = lengths + 2 * judged_lengths
        bstart = np.cumsum(block) - block
        total = int(bstart[-1] + block[-1])
        nan = float("nan")
        flat = np.fromiter(
            chain.from_iterable(
                chain.from_iterable(  # one chain level per number, not two
                    zip(
                        map(dict.values, rankings),
                        map(map, map(_GET, rankings), qrels, repeat(repeat(nan))),
                        map(dict.values, qrels),
                    )
                )
            ),
            dtype=np.float64,
            count=total,
        )
    except (TypeError, ValueError):
        return None
    m = int(judged_lengths.sum())
    jstart = np.cumsum(judged_lengths) - judged_lengths
    found_at = np.repeat(bstart + lengths - jstart, judged_lengths) + np.arange(m)
    grade_at = found_at + np.repeat(judged_lengths, judged_lengths)
    # strict score order inside every query (a NaN score fails it too, except in a one-document ranking)
    descending = flat[1:] < flat[:-1]
    ends = (bstart + lengths - 1)[lengths > 0]  # last score of a query: its next pair leaves the scores
    for outside in (ends, found_at, grade_at):
        descending[outside[outside < total - 1]] = True
    if not descending.all() or np.isnan(flat[bstart[lengths == 1]]).any():
        return None
    del descending
    judged_grades = flat[grade_at]
    _check_grades(judged_grades)
    jrow = np.repeat(np.arange(nq), judged_lengths)
    found = flat[found_at]
    hit = ~np.isnan(found)
    found, grades, rows = found[hit], judged_grades[hit], jrow[hit]
    # rank of each judged retrieved document: binary search for its score in its query's scores
    index: type[np.signedinteger[Any]] = np.int32 if total < 2**31 else np.int64  # less memory traffic
    base = bstart[rows].astype(index)
    width = int(lengths.max())
    # a number when all queries have the same length, else each document's query length
    size = index(width) if (lengths == width).all() else lengths[rows].astype(index)
    probe = np.empty_like(base)
    value = np.empty(found.shape)
    larger = np.empty(found.shape, dtype=bool)
    for _ in range((width - 1).bit_length()):  # branch-free lower bound; size shrinks to 1
        half = size >> 1
        np.add(base, half, out=probe)
        np.take(flat, probe, out=value)
        np.greater(value, found, out=larger)
        base += larger * half
        size = size - half
    cols = base + (flat[base] > found) - bstart[rows]
    unjudged = np.isnan(grades)
    values = np.where(unjudged, 0.0, grades)
    judged = None
    is_judged = ~unjudged & (values >= 0)
    if rel_level <= 0:
        judged = np.zeros((nq, width), dtype=bool)
        judged[rows, cols] = is_judged
    # the relevance mask of every rank, for the kernels (what ranking._relevant computes from the gains)
    relevant = np.zeros((nq, width), dtype=bool)
    relevant[rows, cols] = (values >= rel_level) if rel_level > 0 else is_judged & (values >= rel_level)
    depth = width if gain_depth is None else min(width, gain_depth)
    keep = cols < depth
    gains = np.zeros((nq, depth))
    gains[rows[keep], cols[keep]] = values[keep]
    num_rel = np.bincount(jrow, weights=judged_grades >= rel_level, minlength=nq).astype(np.int64)
    batch = RankingBatch(gains, lengths, num_rel, _ideal(jrow, judged_grades, nq), float(rel_level), judged)
    object.__setattr__(batch, "_relevant", relevant)
    if depth < width:  # ndcg refuses to read past the gains kept
        object.__setattr__(batch, "_gains_cut", depth)
    return batch


def order_by_score(doc_ids: Sequence[str], scores: Sequence[float]) -> IntArray:
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


def _group_positions(lengths: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """(starts, row, col) of each flat entry in a grouped layout."""
    starts = np.cumsum(lengths) - lengths
    row = np.repeat(np.arange(lengths.size), lengths)
    col = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(starts, lengths)
    return starts, row, col


def rank_groups(lengths: np.ndarray, scores: np.ndarray, tie_rank: TieRank) -> IntArray:
    """Permutation of flat entries (grouped by query) into rank order inside each query.

    Order: score descending, then ``tie_rank`` descending (``tie_rank(flat_indices) -> int array``
    consistent with the document ids' string order; called only for queries that have ties).
    """
    order = _rank_order(np.asarray(lengths, dtype=np.int64), np.asarray(scores, dtype=np.float64), tie_rank)
    return np.arange(scores.size, dtype=np.int64) if order is None else order


def _rank_order(lengths: IntArray, scores: FloatArray, tie_rank: TieRank) -> IntArray | None:
    """``rank_groups``'s permutation, or None when the entries are already in rank order."""
    n = int(scores.size)
    if np.isnan(scores).any():
        raise InputError("a retrieval score is NaN", hint="give every retrieved document a number")
    nq = int(lengths.size)
    width = int(lengths.max()) if nq else 0
    if n == 0 or width <= 1:
        return None
    starts = np.cumsum(lengths) - lengths
    if nq * width > 4 * n + 4096:  # very uneven lengths: padding would waste memory
        row = np.repeat(np.arange(nq), lengths)
        return np.lexsort((-np.asarray(tie_rank(np.arange(n))), -scores, row)).astype(np.int64)
    uniform = n == nq * width
    valid = None if uniform else np.arange(width) < lengths[:, None]
    if uniform:  # every query has the same length: a reshape, no scatter
        ranked = scores.reshape(nq, width)
    else:
        _, row, col = _group_positions(lengths)
        ranked = np.full((nq, width), -np.inf)
        ranked[row, col] = scores
    order = None
    if not (ranked[:, 1:] <= ranked[:, :-1]).all():  # not already in score order (runs usually are)
        neg = -ranked
        if valid is not None:
            neg[~valid] = np.inf
        order = np.argsort(neg, axis=1, kind="stable")  # real entries first among equal keys (+inf pads)
        ranked = np.take_along_axis(ranked, order, axis=1)
    tied = ranked[:, 1:] == ranked[:, :-1]
    if valid is not None:
        tied &= valid[:, 1:]
    rows = np.flatnonzero(tied.any(axis=1))
    if rows.size:
        if order is None:
            order = np.broadcast_to(np.arange(width), (nq, width)).copy()
        sub_valid = np.ones((rows.size, width), dtype=bool) if valid is None else valid[rows]
        flat = (starts[rows][:, None] + np.arange(width))[sub_valid]
        ranks = np.zeros(sub_valid.shape, dtype=np.int64)
        ranks[sub_valid] = np.asarray(tie_rank(flat), dtype=np.int64)
        sub_scores = np.full(sub_valid.shape, np.inf)
        sub_scores[sub_valid] = -scores[flat]
        order[rows] = np.lexsort((-ranks, sub_scores, ~sub_valid), axis=1)
    if order is None:
        return None
    order += starts[:, None]
    return order.ravel() if valid is None else order[valid]


def batch_from_columns(
    lengths: np.ndarray,
    grades: np.ndarray,
    judged_lengths: np.ndarray,
    judged_grades: np.ndarray,
    *,
    rel_level: float = 1,
    scores: np.ndarray | None = None,
    tie_rank: TieRank | None = None,
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
        order = _rank_order(lengths, np.asarray(scores, dtype=np.float64), tie_rank or _tie_rank_missing)
        if order is not None:
            grades = grades[order]
    retrieved = lengths if max_depth is None else np.minimum(lengths, max_depth)
    width = int(retrieved.max()) if nq else 0
    unjudged = np.isnan(grades)
    values = np.where(unjudged, 0.0, grades)
    judged_flat = (~unjudged & (values >= 0)) if rel_level <= 0 else None
    if nq and width and (lengths == lengths[0]).all():  # same length everywhere: a reshape (and -M cut)
        gains = values.reshape(nq, -1)[:, :width]
        judged = None if judged_flat is None else judged_flat.reshape(nq, -1)[:, :width]
    else:
        gains = _scatter(lengths, values, width, 0.0)
        judged = None if judged_flat is None else _scatter(lengths, judged_flat, width, False)
    judged_lengths = np.asarray(judged_lengths, dtype=np.int64)
    judged_grades = np.asarray(judged_grades, dtype=np.float64)
    jrow = np.repeat(np.arange(nq), judged_lengths)
    num_rel = np.bincount(jrow, weights=judged_grades >= rel_level, minlength=nq).astype(np.int64)
    return RankingBatch(gains, retrieved, num_rel, _ideal(jrow, judged_grades, nq), float(rel_level), judged)


def _tie_rank_missing(idx: np.ndarray) -> np.ndarray:
    """Stands in for the ``tie_rank`` that ``batch_from_columns`` was not given: says so when ranking needs it."""
    raise InputError(
        "batch_from_columns: ranking these scores needs tie_rank (the order of documents with equal scores; "
        "trec_eval puts document ids in descending byte order)",
        hint="pass the tie_rank that flatten_scored returns, or build the batch with evaluate_run or build_batch",
    )


def _scatter(lengths: IntArray, values: npt.NDArray[Any], width: int, fill: float | bool) -> npt.NDArray[Any]:
    """Flat grouped values -> (n_queries, width) matrix, cut at ``width``, padded with ``fill``."""
    _, row, col = _group_positions(lengths)
    keep = col < width
    out = np.full((lengths.size, width), fill, dtype=values.dtype)
    out[row[keep], col[keep]] = values[keep]
    return out


def _ideal(jrow: IntArray, judged_grades: FloatArray, nq: int) -> FloatArray:
    """Positive grades of each query sorted descending, padded with 0."""
    positive = judged_grades > 0
    rows, vals = jrow[positive], judged_grades[positive]
    counts = np.bincount(rows, minlength=nq)
    depth = int(counts.max()) if nq else 0
    ideal = np.zeros((nq, depth))
    if rows.size:  # rows is non-decreasing (jrow comes from np.repeat): already grouped
        _, _, col = _group_positions(counts)
        ideal[rows, col] = vals
        ideal = -np.sort(-ideal, axis=1)
    return ideal
