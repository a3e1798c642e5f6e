"""Set-based precision/recall/F1 of retrieved ids against relevant ids."""

from __future__ import annotations

from typing import Collection, Sequence


def id_precision_recall_f1(
    retrieved: Sequence[str], relevant: Collection[str]
) -> tuple[float | None, float, float]:
    """Return ``(precision, recall, f1)`` of ``retrieved`` against ``relevant``.

    precision = |retrieved ∩ relevant| / |retrieved| (``None`` when nothing was retrieved: undefined);
    recall = |retrieved ∩ relevant| / |relevant| (``relevant`` must be non-empty);
    f1 = 2PR / (P + R), 0 when both are 0 or precision is undefined.

    >>> id_precision_recall_f1(["a", "b", "c", "d"], {"a", "x"})
    (0.25, 0.5, 0.3333333333333333)
    """
    if not relevant:
        raise ValueError("relevant must not be empty: recall is undefined")
    hits = sum(1 for d in set(retrieved) if d in relevant)
    recall = hits / len(relevant)
    if not retrieved:
        return None, recall, 0.0
    precision = hits / len(set(retrieved))
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1
