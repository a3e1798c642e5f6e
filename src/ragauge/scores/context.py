"""Context precision/recall/F1 of the chunk ids given to the generator against the relevant ids."""

from __future__ import annotations

from typing import Collection, Sequence


def context_precision_recall_f1(
    ids: Sequence[str], relevant: Collection[str]
) -> tuple[float | None, float, float]:
    """Return ``(precision, recall, f1)`` of the ranked chunk ``ids`` against the ``relevant`` set.

    precision is *rank-weighted*, as Ragas defines context precision (and as the dashboard's 0.70 bar
    assumes): the mean of precision@i over the positions i that hold a relevant chunk,

        precision = sum_i [rel_i] * (relevant in the first i / i) / (relevant chunks among ids)

    so relevant chunks ranked first score 1.0 whatever follows them; 0 when none is relevant; ``None``
    when ``ids`` is empty (undefined). A repeated id counts once, at its first position.
    recall = relevant chunks among ids / |relevant| (``relevant`` must be non-empty);
    f1 = 2PR / (P + R), 0 when both are 0 or precision is undefined.

    >>> context_precision_recall_f1(["a", "b", "c", "d"], {"a", "c", "x"})
    (0.8333333333333333, 0.6666666666666666, 0.7407407407407406)
    """
    if not relevant:
        raise ValueError("relevant must not be empty: recall is undefined")
    seen: set[str] = set()
    hits = 0
    total = 0.0
    rank = 0
    for d in ids:
        if d in seen:
            continue
        seen.add(d)
        rank += 1
        if d in relevant:
            hits += 1
            total += hits / rank
    recall = hits / len(relevant)
    if rank == 0:
        return None, recall, 0.0
    precision = total / hits if hits else 0.0
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1
