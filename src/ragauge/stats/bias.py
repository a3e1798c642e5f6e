"""Judge bias at equal human rating: does a judge score longer or more assertive answers higher?

The question is not "do longer answers score higher" (they may simply be better) but "do they score
higher *than humans rated them*". So the statistic is the partial correlation of the judge score ``x``
with an answer feature ``y`` (length, assertiveness) controlling for the human rating ``z``:

    r_xy.z = (r_xy - r_xz r_yz) / sqrt((1 - r_xz^2) (1 - r_yz^2))

on ranks by default (Spearman's partial correlation: robust to the long tail of answer lengths), with a
seeded percentile-bootstrap CI (samples resampled together; resamples with no spread are skipped).
A CI entirely above 0 means the judge favours the feature beyond what humans see in it.

Answer features are pure functions of the text: :func:`word_count` and :func:`assertiveness`, certainty
markers minus hedges per 100 words, from small Russian and English lexicons (:data:`HEDGES`,
:data:`CERTAINTY`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ._lazy import scipy_stats as _scipy_stats
from .intervals import Interval

__all__ = ["CERTAINTY", "HEDGES", "BiasResult", "assertiveness", "bias_verdict", "judge_bias", "partial_correlation",
           "word_count"]

#: Hedges (the answer is unsure) -- lower-case, matched as whole words or phrases.
HEDGES: dict[str, tuple[str, ...]] = {
    "en": ("may", "might", "perhaps", "possibly", "probably", "likely", "unlikely", "it seems", "seems", "appears",
           "apparently", "i think", "i believe", "not sure", "could be", "approximately", "roughly", "usually",
           "typically", "generally", "somewhat", "presumably", "in some cases", "as far as i know"),
    "ru": ("возможно", "вероятно", "может быть", "наверное", "наверно", "по-видимому", "видимо", "кажется",
           "предположительно", "скорее всего", "примерно", "приблизительно", "около", "обычно", "как правило",
           "не уверен", "не уверена", "по всей видимости", "по-моему", "в некоторых случаях", "может", "могут"),
}
#: Certainty markers (the answer insists) -- lower-case, matched as whole words or phrases.
CERTAINTY: dict[str, tuple[str, ...]] = {
    "en": ("definitely", "certainly", "clearly", "always", "never", "undoubtedly", "of course", "without doubt",
           "no doubt", "guaranteed", "exactly", "absolutely", "must", "surely", "obviously", "in fact",
           "indeed", "precisely", "strictly", "only"),
    "ru": ("точно", "определённо", "определенно", "безусловно", "несомненно", "конечно", "всегда", "никогда",
           "обязательно", "гарантированно", "очевидно", "абсолютно", "именно", "без сомнения", "разумеется",
           "строго", "только", "исключительно", "непременно"),
}
_WORD = re.compile(r"\w+(?:[-']\w+)*")


def _pattern(lexicon: dict[str, tuple[str, ...]]) -> re.Pattern[str]:
    terms = sorted({t for words in lexicon.values() for t in words}, key=len, reverse=True)  # longest first
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(t) for t in terms) + r")(?![\w-])")


_HEDGE_RE = _pattern(HEDGES)
_CERTAIN_RE = _pattern(CERTAINTY)


def word_count(text: str) -> int:
    """Words (runs of letters/digits, hyphenated and apostrophe forms one word).

    >>> word_count("The warranty is two years."), word_count("Гарантия — 15 лет, по-моему.")
    (5, 4)
    """
    return len(_WORD.findall(text))


def assertiveness(text: str) -> float:
    """``100 * (certainty markers - hedges) / words``; 0 for an empty text. Both languages at once
    (the lexicons do not overlap), so a mixed answer needs no language detection.

    >>> assertiveness("It is definitely two years.")   # 1 marker, 5 words
    20.0
    >>> assertiveness("Возможно, около двух лет.")    # 2 hedges, 4 words
    -50.0
    """
    words = word_count(text)
    if words == 0:
        return 0.0
    low = text.lower()
    return 100.0 * (len(_CERTAIN_RE.findall(low)) - len(_HEDGE_RE.findall(low))) / words


def _ranks(v: np.ndarray) -> np.ndarray:
    """Average ranks along the last axis (ties share their mean rank)."""
    return np.asarray(_scipy_stats().rankdata(v, axis=-1), dtype=np.float64)


def _pearson_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ac = a - a.mean(axis=-1, keepdims=True)
    bc = b - b.mean(axis=-1, keepdims=True)
    den = np.sqrt((ac * ac).sum(axis=-1) * (bc * bc).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (ac * bc).sum(axis=-1) / np.where(den > 0, den, 1.0), np.nan)


def _partial_rows(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    rxy, rxz, ryz = _pearson_rows(x, y), _pearson_rows(x, z), _pearson_rows(y, z)
    with np.errstate(invalid="ignore", divide="ignore"):
        den = np.sqrt((1 - rxz**2) * (1 - ryz**2))
        return np.where(den > 1e-12, (rxy - rxz * ryz) / np.where(den > 1e-12, den, 1.0), np.nan)


def partial_correlation(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
                        z: Sequence[float] | np.ndarray, *,
                        method: str = "spearman") -> float | None:
    """Correlation of ``x`` and ``y`` with ``z`` held fixed (formula in the module docstring); ``spearman``
    applies it to average ranks, ``pearson`` to the values. ``None`` when it is undefined (fewer than 3
    items, a variable without spread, or ``x`` or ``y`` perfectly explained by ``z``).

    r_xy = 0.8, r_xz = 2/sqrt(5), r_yz = 1/sqrt(5): (0.8 - 0.4) / sqrt(0.2 * 0.8) = 1 -- within each
    level of ``z``, ``x`` and ``y`` rise together:

    >>> round(partial_correlation([1, 2, 3, 4], [1, 3, 2, 4], [1, 1, 2, 2], method="pearson"), 4)
    1.0
    """
    xa, ya, za = (np.asarray(v, dtype=np.float64) for v in (x, y, z))
    if not (xa.shape == ya.shape == za.shape) or xa.ndim != 1:
        raise ValueError("x, y and z must be 1-D and equally long")
    if method not in ("spearman", "pearson"):
        raise ValueError(f"method must be 'spearman' or 'pearson', got {method!r}")
    if xa.size < 3:
        return None
    if method == "spearman":
        xa, ya, za = _ranks(xa), _ranks(ya), _ranks(za)
    r = float(_partial_rows(xa[None], ya[None], za[None])[0])
    return None if math.isnan(r) else r


@dataclass(frozen=True, slots=True)
class BiasResult:
    """One feature's partial correlation with the judge score at equal human rating."""

    feature: str
    estimate: float | None
    ci: Interval | None
    n: int
    method: str
    verdict: str  #: "favours more", "favours less", "no detectable bias", "undetermined"

    def to_dict(self) -> dict[str, Any]:
        return {"feature": self.feature, "estimate": self.estimate, "ci": self.ci.to_dict() if self.ci else None,
                "n": self.n, "method": self.method, "verdict": self.verdict}


def judge_bias(judge: Sequence[float] | np.ndarray, feature: Sequence[float] | np.ndarray,
               human: Sequence[float] | np.ndarray, *, name: str = "feature",
               method: str = "spearman", level: float = 0.95, n_resamples: int = 2000,
               seed: int | np.random.Generator = 0) -> BiasResult:
    """Partial correlation of the judge score with ``feature`` given the human rating, with a percentile
    bootstrap CI (``n_resamples`` resamples of the items, seeded; no CI when over 10% are degenerate).
    Verdict: ``favours more`` when the CI is above 0, ``favours less`` when below, else ``no detectable
    bias``; ``undetermined`` without an estimate."""
    x, y, z = (np.asarray(v, dtype=np.float64) for v in (judge, feature, human))
    est = partial_correlation(x, y, z, method=method)
    n = int(x.size)
    if est is None:
        return BiasResult(name, None, None, n, method, "undetermined")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_resamples, n))
    bx, by, bz = x[idx], y[idx], z[idx]
    if method == "spearman":
        bx, by, bz = _ranks(bx), _ranks(by), _ranks(bz)
    boot = _partial_rows(bx, by, bz)
    boot = boot[np.isfinite(boot)]
    ci = None
    if boot.size >= 0.9 * n_resamples:
        tail = (1 - level) / 2
        lo, hi = np.quantile(boot, (tail, 1 - tail))
        ci = Interval(float(lo), float(hi), level, "bootstrap-percentile", n)
    verdict = "no detectable bias"
    if ci is not None and ci.low > 0:
        verdict = "favours more"
    elif ci is not None and ci.high < 0:
        verdict = "favours less"
    return BiasResult(name, est, ci, n, method, verdict)


#: How each feature is said in a verdict: (what "more" is, what "less" is).
_SAY = {"length": ("longer answers", "shorter answers"),
        "assertiveness": ("more assertive answers", "more hedged answers")}


def bias_verdict(result: BiasResult) -> str:
    """One plain sentence for a :class:`BiasResult`."""
    more, less = _SAY.get(result.feature, (f"higher {result.feature}", f"lower {result.feature}"))
    if result.estimate is None:
        return (f"{result.feature}: undetermined (n = {result.n}; the judge scores, the human ratings or the "
                f"{result.feature} have no spread, or one is fully explained by the human rating)")
    ci = result.ci
    ci_txt = f" [{ci.low:+.2f}, {ci.high:+.2f}]" if ci else " (no CI: too many degenerate resamples)"
    head = f"{result.feature}: partial r = {result.estimate:+.2f}{ci_txt}, n = {result.n}"
    if result.verdict == "favours more":
        return f"{head}: at equal human rating the judge scores {more} higher -- a bias: keep it in mind when comparing systems whose answers differ in this"
    if result.verdict == "favours less":
        return f"{head}: at equal human rating the judge scores {less} higher -- a bias the other way"
    wide = " (the CI is wide: rate more answers to rule out a bias)" if ci and ci.high - ci.low > 0.5 else ""
    return f"{head}: no detectable bias{wide}"
