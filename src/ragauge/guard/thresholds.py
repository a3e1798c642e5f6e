"""Choose a guard threshold from labelled data: sweep it, read the curve, pick by a stated target.

A question is *answered* at threshold ``t`` when its best value reaches it (``value >= t``; for the
retrieval gate the value is the best chunk score, exactly the guard's rule). Labels say which
questions should be answered (``True``: answerable) and which should get a no-answer. At each ``t``::

    answered_rate     = answered answerable / answerable        (keep it high)
    false_answer_rate = answered unanswerable / unanswerable    (keep it low)
    F1 = 2 TP / (2 TP + FP + FN)   with "answered" as the positive prediction

Targets (:func:`parse_target`): ``f1`` (max F1; ties -> fewer false answers, then more answered),
``answered>=0.95`` (the highest threshold that still answers >= 95 % of answerable questions, i.e. the
most no-answers on unanswerable ones under that constraint), ``false_answer<=0.05`` (the lowest
threshold with at most 5 % false answers, i.e. the most answered under that constraint).

Scale-free: the candidates are the observed values themselves, so any retriever scale works (cosine,
BM25, a reranker's logits). The reported threshold is the midpoint between the chosen value and the
next lower observed value: the same decisions on this data, a margin on both sides for new data.

Confidence: Wilson intervals of the two rates at the chosen threshold, and a seeded bootstrap
(resampling questions) percentile interval of the threshold itself -- wide means the data do not pin
the threshold down.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..errors import ConfigError, InputError
from ..stats.intervals import Interval, wilson_ci

_TARGET = re.compile(r"^\s*(f1|answered\s*>=\s*([0-9.]+)|false_answer\s*<=\s*([0-9.]+))\s*$")


@dataclass(frozen=True, slots=True)
class Target:
    """``kind`` "f1", "answered" (rate >= ``value``) or "false_answer" (rate <= ``value``)."""

    kind: str
    value: float | None = None

    def __str__(self) -> str:
        return "f1" if self.kind == "f1" else f"{self.kind}{'>=' if self.kind == 'answered' else '<='}{self.value:g}"


def parse_target(text: str | Target) -> Target:
    """``"f1"``, ``"answered>=0.95"`` or ``"false_answer<=0.05"`` -> :class:`Target`.

    >>> parse_target("answered>=0.95")
    Target(kind='answered', value=0.95)
    """
    if isinstance(text, Target):
        return text
    m = _TARGET.match(str(text))
    if not m:
        raise ConfigError(f"target {text!r} not understood; expected 'f1', 'answered>=0.95' or 'false_answer<=0.05'")
    if m.group(1) == "f1":
        return Target("f1")
    kind, raw = ("answered", m.group(2)) if m.group(2) is not None else ("false_answer", m.group(3))
    value = float(raw)
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"target {text!r}: the rate must be in [0, 1]")
    return Target(kind, value)


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """Decisions at one threshold (answered iff value >= ``cut``; ``threshold`` is the reported midpoint)."""

    threshold: float
    cut: float
    answered_rate: float
    false_answer_rate: float
    f1: float
    tp: int
    fp: int
    fn: int
    tn: int

    def to_dict(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "answered_rate": self.answered_rate,
                "false_answer_rate": self.false_answer_rate, "f1": self.f1, "tp": self.tp, "fp": self.fp,
                "fn": self.fn, "tn": self.tn}


@dataclass(frozen=True, slots=True)
class CalibrationResult:
    """The chosen threshold, the point it gives, the whole curve and the confidence of each."""

    threshold: float
    target: Target
    feasible: bool  #: False when no threshold meets the target (the closest point is returned)
    point: CurvePoint
    curve: tuple[CurvePoint, ...]
    n_answerable: int
    n_unanswerable: int
    answered_ci: Interval | None
    false_answer_ci: Interval | None
    threshold_ci: Interval | None
    n_resamples: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        iv = (lambda i: None if i is None else i.to_dict())
        return {"threshold": self.threshold, "target": str(self.target), "feasible": self.feasible,
                "point": self.point.to_dict(), "n_answerable": self.n_answerable,
                "n_unanswerable": self.n_unanswerable, "answered_ci": iv(self.answered_ci),
                "false_answer_ci": iv(self.false_answer_ci), "threshold_ci": iv(self.threshold_ci),
                "bootstrap": {"n_resamples": self.n_resamples, "seed": self.seed},
                "curve": [p.to_dict() for p in self.curve]}


def _arrays(values: Sequence[float], labels: Sequence[bool]) -> tuple[np.ndarray, np.ndarray]:
    if len(values) != len(labels):
        raise InputError(f"{len(values)} values but {len(labels)} labels; give one label per question")
    v = np.asarray([-math.inf if x is None else float(x) for x in values], dtype=np.float64)
    if np.isnan(v).any():
        raise InputError("a value is NaN; give a number, or None/-inf for 'nothing retrieved'",
                         field="values", value=int(np.flatnonzero(np.isnan(v))[0]))
    y = np.asarray([bool(x) for x in labels], dtype=bool)
    if not y.any() or y.all():
        raise InputError(f"calibration needs both answerable and unanswerable questions (got {int(y.sum())} "
                         f"answerable of {y.size})", hint="add questions the knowledge base cannot answer")
    return v, y


def _curve_arrays(v: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """Counts at each candidate cut (the distinct finite values, ascending)."""
    cuts = np.unique(v[np.isfinite(v)])
    if cuts.size == 0:
        raise InputError("no question has a finite value (nothing retrieved anywhere?)")
    pos, neg = np.sort(v[y]), np.sort(v[~y])
    tp = pos.size - np.searchsorted(pos, cuts, side="left")
    fp = neg.size - np.searchsorted(neg, cuts, side="left")
    fn, tn = pos.size - tp, neg.size - fp
    f1 = np.divide(2 * tp, 2 * tp + fp + fn, out=np.zeros(cuts.size), where=(2 * tp + fp + fn) > 0)
    mid = np.concatenate([cuts[:1], (cuts[:-1] + cuts[1:]) / 2])
    return {"cut": cuts, "threshold": mid, "tp": tp, "fp": fp, "fn": fn, "tn": tn, "f1": f1,
            "answered": tp / pos.size, "false": fp / neg.size}


def _choose(c: dict[str, np.ndarray], target: Target) -> tuple[int, bool]:
    """Index of the chosen cut and whether the target is met."""
    n = c["cut"].size
    if target.kind == "f1":
        # the last of the lexicographic order: max F1, then fewest false answers, most answered, lowest cut
        return int(np.lexsort((-np.arange(n), c["answered"], -c["false"], c["f1"]))[-1]), True
    if target.kind == "answered":
        ok = np.flatnonzero(c["answered"] >= target.value - 1e-12)
        return (int(ok.max()), True) if ok.size else (0, False)
    ok = np.flatnonzero(c["false"] <= target.value + 1e-12)
    return (int(ok.min()), True) if ok.size else (n - 1, False)


def calibrate_threshold(values: Sequence[float | None], labels: Sequence[bool], *, target: str | Target = "f1",
                        level: float = 0.95, n_resamples: int = 1000, seed: int = 0) -> CalibrationResult:
    """Sweep the threshold over ``values`` (one per question, ``None`` = nothing retrieved) and pick by
    ``target`` (module doc). ``labels[i]`` is True when question i should be answered.

    >>> r = calibrate_threshold([0.9, 0.8, 0.75, 0.3, 0.2], [True, True, True, False, False])
    >>> r.threshold, r.point.answered_rate, r.point.false_answer_rate
    (0.525, 1.0, 0.0)
    """
    tgt = parse_target(target)
    v, y = _arrays(values, labels)
    c = _curve_arrays(v, y)
    i, feasible = _choose(c, tgt)
    curve = tuple(CurvePoint(float(c["threshold"][j]), float(c["cut"][j]), float(c["answered"][j]),
                             float(c["false"][j]), float(c["f1"][j]), int(c["tp"][j]), int(c["fp"][j]),
                             int(c["fn"][j]), int(c["tn"][j])) for j in range(c["cut"].size))
    point = curve[i]
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    return CalibrationResult(
        point.threshold, tgt, feasible, point, curve, n_pos, n_neg,
        wilson_ci(point.tp, n_pos, level=level), wilson_ci(point.fp, n_neg, level=level),
        _threshold_interval(v, y, tgt, level, n_resamples, seed), n_resamples, seed)


def _threshold_interval(v: np.ndarray, y: np.ndarray, target: Target, level: float, n_resamples: int,
                        seed: int) -> Interval | None:
    """Percentile bootstrap of the chosen threshold, resampling questions; resamples that lose a class
    (or every finite value) are skipped. ``None`` when fewer than half the resamples were usable."""
    if n_resamples < 1:
        return None
    rng = np.random.default_rng(seed)
    chosen = []
    for _ in range(n_resamples):
        idx = rng.integers(0, v.size, v.size)
        vb, yb = v[idx], y[idx]
        if yb.all() or not yb.any() or not np.isfinite(vb).any():
            continue
        c = _curve_arrays(vb, yb)
        chosen.append(c["threshold"][_choose(c, target)[0]])
    if len(chosen) < max(2, n_resamples // 2):
        return None
    alpha = (1 - level) / 2
    low, high = np.quantile(np.asarray(chosen), [alpha, 1 - alpha])
    return Interval(float(low), float(high), level, "bootstrap-percentile", int(v.size))
