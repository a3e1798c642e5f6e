"""Context precision/recall/F1: rank-weighted precision and set recall of the chunks given to the generator."""

from __future__ import annotations

from typing import Collection, Sequence


def f1(precision: float, recall: float) -> float:
    """Harmonic mean, 0 when both are 0.

    >>> f1(1.0, 0.5)
    0.6666666666666666
    """
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def rank_weighted_precision(useful: Sequence[bool]) -> float:
    """Mean of precision@i over the positions i that hold a useful item; 0 when none is useful.

    This is Ragas' context precision (and average precision restricted to the list): useful items
    ranked first score 1.0 whatever follows them.

    >>> rank_weighted_precision([True, False, True])
    0.8333333333333333
    >>> rank_weighted_precision([False, True])
    0.5
    """
    hits, total = 0, 0.0
    for i, u in enumerate(useful, start=1):
        if u:
            hits += 1
            total += hits / i
    return total / hits if hits else 0.0


def context_precision_recall_f1(
    ids: Sequence[str], relevant: Collection[str]
) -> tuple[float | None, float, float]:
    """Return ``(precision, recall, f1)`` of the ranked chunk ``ids`` against the ``relevant`` set.

    precision = :func:`rank_weighted_precision` of "is relevant" over ``ids`` (a repeated id counts
    once, at its first position); ``None`` when ``ids`` is empty (undefined).
    recall = relevant chunks among ids / |relevant| (``relevant`` must be non-empty);
    f1 = :func:`f1`, 0 when precision is undefined.

    >>> context_precision_recall_f1(["a", "b", "c", "d"], {"a", "c", "x"})
    (0.8333333333333333, 0.6666666666666666, 0.7407407407407406)
    """
    if not relevant:
        raise ValueError("relevant must not be empty: recall is undefined")
    unique = list(dict.fromkeys(ids))
    useful = [d in relevant for d in unique]
    recall = sum(useful) / len(relevant)
    if not unique:
        return None, recall, 0.0
    precision = rank_weighted_precision(useful)
    return precision, recall, f1(precision, recall)
