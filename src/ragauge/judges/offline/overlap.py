"""Lexical overlap of a claim with an evidence text (sets of content lemmas).
Overlap features of a claim C and an evidence E (sets of content lemmas)::

    recall    = |C & E| / |C|          precision = |C & E| / |E|
    jaccard   = |C & E| / |C | E|      weighted_recall = sum(idf[l] for l in C & E) / sum(idf[l] for l in C)
    rare_recall = |R & E| / |R|, R = the claim's rare lemmas (see :func:`overlap`)

Empty sets give 0.0 (a claim without content lemmas has no lexical support); ``n_claim`` says so.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

# ---------------------------------------------------------------- overlap


@dataclass(frozen=True, slots=True)
class Overlap:
    """Lexical overlap of a claim with an evidence text (formulas in the module doc)."""

    recall: float
    precision: float
    jaccard: float
    weighted_recall: float
    rare_recall: float
    n_claim: int
    n_rare: int


def idf_table(documents: Iterable[Collection[str]]) -> dict[str, float]:
    """BM25 idf of each lemma over ``documents``: ``ln(1 + (N - df + 0.5) / (df + 0.5))``, always > 0."""
    df: dict[str, int] = {}
    n = 0
    for doc in documents:
        n += 1
        for lemma in set(doc):
            df[lemma] = df.get(lemma, 0) + 1
    return {lemma: math.log(1.0 + (n - d + 0.5) / (d + 0.5)) for lemma, d in df.items()}


def _is_rare_by_shape(lemma: str) -> bool:
    return len(lemma) >= 6 or any(ch.isdigit() for ch in lemma)


def overlap(
    claim_lemmas: Iterable[str], evidence_lemmas: Iterable[str], *, idf: Mapping[str, float] | None = None
) -> Overlap:
    """Overlap features of a claim's content lemmas with an evidence's (sets; repeats ignored).

    Rare lemmas: with ``idf``, the claim lemmas whose idf is at least the median idf of the claim's
    lemmas (a lemma missing from ``idf`` counts as never seen, the rarest); without it, a shape
    fallback: lemmas of 6+ characters or with a digit. ``weighted_recall`` uses ``idf`` (missing
    lemmas get the largest idf in the table), and equals ``recall`` without it.

    >>> o = overlap(["гарантия", "5", "год"], ["гарантия", "10", "год", "кровля"])
    >>> round(o.recall, 3), round(o.precision, 3), o.jaccard
    (0.667, 0.5, 0.4)
    """
    claim = set(claim_lemmas)
    evidence = set(evidence_lemmas)
    common = claim & evidence
    n_claim = len(claim)
    if not claim:
        return Overlap(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)
    recall = len(common) / n_claim
    precision = len(common) / len(evidence) if evidence else 0.0
    jaccard = len(common) / len(claim | evidence)
    if idf is None:
        weighted = recall
        rare = {lemma for lemma in claim if _is_rare_by_shape(lemma)}
    else:
        top = max(idf.values(), default=1.0)
        weights = {lemma: idf.get(lemma, top) for lemma in claim}
        total = sum(weights.values())
        weighted = sum(weights[lemma] for lemma in common) / total if total > 0 else 0.0
        ordered = sorted(weights.values())
        median = ordered[(len(ordered) - 1) // 2]
        rare = {lemma for lemma, w in weights.items() if w >= median}
    rare_recall = len(rare & evidence) / len(rare) if rare else 0.0
    return Overlap(recall, precision, jaccard, weighted, rare_recall, n_claim, len(rare))


__all__ = ["Overlap", "idf_table", "overlap"]
