"""Claim-level formulas: supported fraction, claim precision/recall/F1 and the correctness blend."""

from __future__ import annotations

from typing import Sequence

from .context import f1


def supported_fraction(supported: Sequence[bool]) -> float | None:
    """Supported claims / all claims; ``None`` when there are no claims (undefined, never 1.0).

    >>> supported_fraction([True, True, False, True])
    0.75
    >>> supported_fraction([]) is None
    True
    """
    if not supported:
        return None
    return sum(bool(s) for s in supported) / len(supported)


def claim_f1(answer_supported: Sequence[bool], reference_covered: Sequence[bool]) -> tuple[float, float, float]:
    """Claim precision, recall and F1 of an answer against a reference.

    precision = answer claims supported by the reference / answer claims (TP / (TP + FP));
    recall = reference claims supported by the answer / reference claims (1 - FN share).
    Both lists must be non-empty.

    >>> claim_f1([True, False], [True, True, False, False])
    (0.5, 0.5, 0.5)
    """
    if not answer_supported or not reference_covered:
        raise ValueError("both claim lists must be non-empty")
    p = sum(answer_supported) / len(answer_supported)
    r = sum(reference_covered) / len(reference_covered)
    return p, r, f1(p, r)


#: Weights of answer correctness: claim F1 and semantic similarity (Ragas' defaults, 0.75 / 0.25).
CORRECTNESS_WEIGHTS = (0.75, 0.25)


def correctness(claim_f1_value: float, similarity: float, weights: tuple[float, float] = CORRECTNESS_WEIGHTS) -> float:
    """``w_f1 * F1 + w_sim * similarity`` with weights summing to 1.

    >>> correctness(1.0, 0.6)
    0.9
    """
    w1, w2 = weights
    return (w1 * claim_f1_value + w2 * similarity) / (w1 + w2)
