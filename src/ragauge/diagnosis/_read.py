"""Reading a results document for the diagnosis: a metric against its bar, the language, refusals.

Pure functions over the ``ragauge.results/1`` dict; nothing here knows the rules or the texts.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..gates.compare import meets_or_unknown

_K = re.compile(r"@(\d+)$")
_WORSE_IF_BELOW = (">=", ">")


def _num(x: Any) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return float(x)


@dataclass(frozen=True, slots=True)
class Reading:
    """One metric's value and CI against its bar (``op threshold``) and where the bar came from."""

    metric: str
    value: float
    ci_low: float | None
    ci_high: float | None
    n: int | None
    op: str
    threshold: float
    bar_from: str
    unit: str | None = None

    @property
    def misses(self) -> bool:
        """The point estimate is on the wrong side of the bar."""
        return not _meets(self.value, self.op, self.threshold)

    @property
    def confidently_misses(self) -> bool:
        """The whole CI is on the wrong side of the bar (only then do we say "confidently")."""
        far = self.ci_high if self.op in _WORSE_IF_BELOW else self.ci_low
        return far is not None and not _meets(far, self.op, self.threshold)

    @property
    def excess(self) -> float:
        """value / threshold for a budget (``<``, ``<=``); > 1 means over it."""
        return self.value / self.threshold if self.threshold else math.inf

    def evidence(self) -> dict[str, Any]:
        return {"value": self.value, "ci_low": self.ci_low, "ci_high": self.ci_high, "n": self.n,
                "op": self.op, "threshold": self.threshold, "threshold_from": self.bar_from, "unit": self.unit,
                "confidently_misses": self.confidently_misses if self.misses else False}


def _meets(value: float, op: str, threshold: float) -> bool:
    """Meets the bar; an unknown operator in a document read from disk is never called a miss."""
    return meets_or_unknown(value, op, threshold) is not False


def _bar(doc: Mapping[str, Any], name: str) -> tuple[str, float, str] | None:
    for g in doc.get("gates") or []:
        if g.get("metric") == name and g.get("status") != "skipped" and _num(g.get("threshold")) is not None:
            return g["op"], float(g["threshold"]), f"profile {(doc.get('profile') or {}).get('name', '?')}"
    prof = doc.get("profile") or {}
    for th in prof.get("thresholds") or []:
        if name in (th.get("metrics") or []) and _num(th.get("value")) is not None:
            return th["op"], float(th["value"]), f"profile {prof.get('name', '?')}"
    from ..gates.profiles import resolve_profile

    m = _K.search(name)
    dashboard = resolve_profile("dashboard", k=int(m.group(1)) if m else None)
    for th in dashboard.thresholds:
        if name in th.metrics:
            return th.op, th.value, "the dashboard profile (default)"
    return None


def reading(doc: Mapping[str, Any], names: Iterable[str]) -> Reading | None:
    """The first of ``names`` that has a value in the summary, against its bar; ``None`` if none."""
    summary = doc.get("summary") or {}
    units = {m.get("name"): m.get("unit") for m in doc.get("metrics") or [] if isinstance(m, Mapping)}
    for name in names:
        e = summary.get(name) or {}
        value = _num(e.get("value"))
        if value is None:
            continue
        bar = _bar(doc, name)
        if bar is None:
            continue
        ci = e.get("ci") or {}
        return Reading(name, value, _num(ci.get("low")), _num(ci.get("high")), e.get("n"), bar[0], bar[1], bar[2],
                       units.get(name))
    return None


def hit_rate_names(doc: Mapping[str, Any]) -> list[str]:
    """``hit_rate@k`` metrics of the run, the gated ones first, then by k."""
    names = [n for n in (doc.get("summary") or {}) if n.startswith("hit_rate@")]
    gated = {g.get("metric") for g in doc.get("gates") or [] if g.get("status") != "skipped"}
    def k_of(name: str) -> int:
        m = _K.search(name)
        return int(m.group(1)) if m else 0

    return sorted(names, key=lambda n: (n not in gated, k_of(n)))


def language(doc: Mapping[str, Any]) -> str:
    """"ru" or "en": the samples' majority ``language``, else the majority script of the questions."""
    votes = {"ru": 0, "en": 0}
    for s in doc.get("samples") or []:
        lang = str(s.get("language") or "").lower()[:2]
        if lang in votes:
            votes[lang] += 1
    if votes["ru"] or votes["en"]:
        return "ru" if votes["ru"] > votes["en"] else "en"
    for s in doc.get("samples") or []:
        text = str(s.get("question") or "")
        cyr = sum(1 for ch in text if "а" <= ch.lower() <= "я" or ch in "ёЁ")
        lat = sum(1 for ch in text if "a" <= ch.lower() <= "z")
        if cyr or lat:
            votes["ru" if cyr > lat else "en"] += 1
    return "ru" if votes["ru"] > votes["en"] else "en"


_ANSWER_METRICS = ("faithfulness", "answer_relevancy", "answer_correctness")


def _refused(s: Mapping[str, Any]) -> bool | None:
    """True if a judge saw a refusal, False if it saw a real answer, None if no judge looked."""
    arts = s.get("artifacts") or {}
    unscored = s.get("unscored") or {}
    scores = s.get("scores") or {}
    if any(isinstance(a, Mapping) and a.get("refusal") is True for a in arts.values()):
        return True
    if any(str(r).startswith("refusal") for r in unscored.values()):
        return True
    seen = any(m in scores for m in _ANSWER_METRICS)
    if not seen or not s.get("answer"):
        return None if not seen else True
    return False


def unanswerable(s: Mapping[str, Any]) -> bool:
    """The documents cannot answer it: tagged ``unanswerable``, ``relevant_ids`` given but empty, or the
    reference itself declines."""
    if "unanswerable" in (s.get("tags") or []):
        return True
    if any(str(r).startswith("no relevant document") for r in (s.get("unscored") or {}).values()):
        return True
    corr = (s.get("artifacts") or {}).get("answer_correctness")
    return isinstance(corr, Mapping) and corr.get("reference_refusal") is True


def unanswerable_answered(doc: Mapping[str, Any]) -> tuple[list[str], list[str]] | None:
    """(ids of unanswerable samples whose refusal status is known, ids of those answered anyway);
    ``None`` when no judge looked at the answers."""
    known, answered = [], []
    for s in doc.get("samples") or []:
        if not unanswerable(s):
            continue
        r = _refused(s)
        if r is None:
            continue
        known.append(str(s.get("id")))
        if not r:
            answered.append(str(s.get("id")))
    return (known, answered) if known else None


def median_share(doc: Mapping[str, Any], part: str, whole: str) -> float | None:
    """Median over samples of ``scores[part] / scores[whole]`` (e.g. retrieval time / end-to-end time)."""
    ratios = sorted(p / w for s in doc.get("samples") or []
                    if (p := _num((s.get("scores") or {}).get(part))) is not None
                    and (w := _num((s.get("scores") or {}).get(whole))) and w > 0)
    if not ratios:
        return None
    mid = len(ratios) // 2
    return ratios[mid] if len(ratios) % 2 else (ratios[mid - 1] + ratios[mid]) / 2
