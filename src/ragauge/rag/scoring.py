"""The reference retriever's scores: pure functions over numpy arrays, one scale for the guard.

Three numbers per (query, chunk), all in ``[0, 1]``:

* ``lexical`` -- BM25 (Lucene variant, as in ``bm25s``) over content lemmas, divided by the score a
  chunk of average length containing every query lemma once would get, capped at 1::

      lexical = min(1, bm25(q, d) / sum_t(idf_t / (1 + k1)))      t = distinct query lemmas

  Query lemmas absent from the index count in the denominator with the largest possible idf, so a
  question about something the knowledge base never mentions ("паркет") scores low.
* ``cosine`` -- cosine of the multilingual USE embeddings of query and chunk, clipped to ``[0, 1]``.
* ``hybrid = alpha * cosine + (1 - alpha) * lexical`` -- the ranking score (a weighted sum of two
  absolute scales; chosen over reciprocal rank fusion by recall@5 on the demo, see docs/rag.md).

The score handed to the guard is ``score = sigmoid(a * hybrid + b)``: a calibrated probability that
the chunk is relevant to the question, fitted (:func:`fit_logistic`) on the retriever's top-5
candidates of labelled questions. So ``score_threshold=0.7`` reads "keep chunks that are at least
70 % likely relevant". The shipped ``a, b`` come from the demo (``score_calibration.json``); refit them
on your own labels with :func:`ragauge.rag.fit.fit_score_calibration`.

>>> round(float(hybrid(0.5, 0.2, alpha=0.3)), 3)
0.29
>>> round(float(calibrated(0.0, a=10.0, b=0.0)), 3)
0.5
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Iterable, Sequence

import numpy as np

from ..errors import ConfigError


@dataclass(frozen=True)
class ScoreCalibration:
    """``alpha`` weighs cosine against lexical; ``a, b`` map the hybrid score to P(relevant)."""

    alpha: float = 0.3
    a: float = 10.0
    b: float = -3.0
    fitted_on: str = ""
    n_pairs: int = 0

    def __post_init__(self) -> None:
        if not 0.0 <= self.alpha <= 1.0:
            raise ConfigError(f"score calibration: alpha must be in [0, 1] (got {self.alpha!r})")
        if not (math.isfinite(self.a) and math.isfinite(self.b)) or self.a <= 0:
            raise ConfigError(f"score calibration: a must be a positive finite number and b finite "
                              f"(got a={self.a!r}, b={self.b!r}); a <= 0 would invert the ranking")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "ScoreCalibration":
        known = {k: data[k] for k in ("alpha", "a", "b", "fitted_on", "n_pairs") if k in data}
        try:
            return cls(**known)
        except TypeError as exc:
            raise ConfigError(f"score calibration: {exc}") from None


def default_calibration() -> ScoreCalibration:
    """The calibration shipped with ragauge (fitted on the demo knowledge base)."""
    data = resources.files("ragauge.rag").joinpath("score_calibration.json").read_text(encoding="utf-8")
    return ScoreCalibration.from_dict(json.loads(data))


def lexical_norm(idfs: Iterable[float], *, k1: float) -> float:
    """BM25 of an average-length chunk holding each query lemma once: ``sum(idf) / (1 + k1)``."""
    return float(sum(idfs)) / (1.0 + k1)


def lexical(bm25: np.ndarray, norm: float) -> np.ndarray:
    """``min(1, bm25 / norm)``; all zeros when the query has no content lemma (``norm == 0``)."""
    bm25 = np.asarray(bm25, dtype=np.float64)
    if norm <= 0:
        return np.zeros_like(bm25)
    return np.minimum(1.0, np.maximum(0.0, bm25 / norm))


def hybrid(cosine: np.ndarray | float, lexical_score: np.ndarray | float, *, alpha: float) -> np.ndarray:
    """``alpha * clip(cosine, 0, 1) + (1 - alpha) * lexical``."""
    return alpha * np.clip(cosine, 0.0, 1.0) + (1.0 - alpha) * np.asarray(lexical_score, dtype=np.float64)


def calibrated(h: np.ndarray | float, *, a: float, b: float) -> np.ndarray:
    """``sigmoid(a * h + b)``, computed without overflow."""
    z = a * np.asarray(h, dtype=np.float64) + b
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def fit_logistic(x: Sequence[float], y: Sequence[float], *, l2: float = 1e-3,
                 iterations: int = 100) -> tuple[float, float]:
    """1-D logistic regression ``P(y=1 | x) = sigmoid(a x + b)`` by Newton's method with a small
    ridge (``l2``) so separable data still give finite coefficients. Needs both classes.

    >>> a, b = fit_logistic([0.1, 0.2, 0.3, 0.6, 0.7, 0.8, 0.25, 0.65], [0, 0, 0, 1, 1, 1, 1, 0])
    >>> a > 0 and -a * 0.45 - 1 < b < -a * 0.45 + 1
    True
    """
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.shape != ys.shape or xs.ndim != 1:
        raise ConfigError(f"fit_logistic: x and y must be 1-D and of equal length (got {xs.shape}, {ys.shape})")
    if not (0 < ys.sum() < len(ys)):
        raise ConfigError("fit_logistic: the labels need both relevant and non-relevant examples "
                          f"(got {int(ys.sum())} relevant of {len(ys)})")
    a = b = 0.0
    for _ in range(iterations):
        p = calibrated(xs, a=a, b=b)
        w = p * (1 - p)
        grad = np.array([((p - ys) * xs).sum() + l2 * a, (p - ys).sum()])
        hess = np.array([[(w * xs * xs).sum() + l2, (w * xs).sum()], [(w * xs).sum(), w.sum() + 1e-9]])
        step = np.linalg.solve(hess, grad)
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-10:
            break
    return float(a), float(b)


__all__ = ["ScoreCalibration", "calibrated", "default_calibration", "fit_logistic", "hybrid", "lexical",
           "lexical_norm"]
