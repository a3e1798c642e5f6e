"""The diagnosis rules: read a results document, say what is wrong and what to try.

Each rule is a function ``(doc, lang) -> Diagnosis | None``. "Low" and "high" are decided against the
run's bars (the gate's threshold, else the profile's, else the dashboard profile's) on the point
estimate; the text says "confidently" only when the whole 95% CI is on the wrong side. Every diagnosis
carries the numbers that triggered it (``evidence``: value, CI, n, bar) so that it can be checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from . import _read
from ._read import Reading
from .texts import OF_QUESTIONS, TEXTS, WORDS

SEVERITY_ORDER = {"critical": 0, "high": 1, "medium": 2}


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """One finding: ``code`` (stable, e.g. ``retrieval_first``), ``severity`` (critical, high, medium),
    ``title`` and ``text`` in the chosen language, ``evidence`` (the numbers, with CIs)."""

    code: str
    severity: str
    title: str
    text: str
    evidence: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "severity": self.severity, "title": self.title, "text": self.text,
                "evidence": self.evidence}


def num(x: float, lang: str, digits: int = 3) -> str:
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "ru" else text


def of_questions(n: int, lang: str) -> str:
    """``n`` and "questions" as they read after "of" / "из".

    >>> of_questions(1, "en"), of_questions(21, "ru"), of_questions(3, "ru"), of_questions(11, "ru")
    ('1 question', '21 вопроса', '3 вопросов', '11 вопросов')
    """
    forms = OF_QUESTIONS[lang]
    if lang != "ru":
        return f"{n} {forms[0 if n == 1 else 1]}"
    one = n % 10 == 1 and n % 100 != 11
    few = 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14
    return f"{n} {forms[0 if one else 1 if few else 2]}"


def pct(x: float, lang: str) -> str:
    space = "\u00a0" if lang == "ru" else ""  # Russian typography: 12 %, with a no-break space
    return f"{x * 100:.0f}{space}%"


def _v(r: Reading, x: float, lang: str) -> str:
    # a no-break space keeps "3000 ms" on one line when the text is wrapped
    return f"{x:.0f}\u00a0{'мс' if lang == 'ru' else 'ms'}" if r.unit == "ms" else num(x, lang)


def describe(r: Reading, lang: str) -> str:
    """``faithfulness = 0.673 (95% CI 0.563–0.780)``; ``latency_p95 = 3207 ms (95% CI 2860–4021 ms)``."""
    ci = ""
    if r.ci_low is not None and r.ci_high is not None:
        low = f"{r.ci_low:.0f}" if r.unit == "ms" else num(r.ci_low, lang)
        ci = f" ({WORDS[lang]['ci']} {low}–{_v(r, r.ci_high, lang)})"
    return f"{r.metric} = {_v(r, r.value, lang)}{ci}"


def bar(r: Reading, lang: str) -> str:
    """The threshold as written in a profile: ``0.85``, ``3000 ms``."""
    if r.unit == "ms":
        return _v(r, r.threshold, lang)
    text = f"{r.threshold:g}"
    return text.replace(".", ",") if lang == "ru" else text


def confidence(r: Reading, lang: str) -> str:
    if r.confidently_misses:
        return WORDS[lang]["confidently" if r.op in (">=", ">") else "confidently_over"]
    return WORDS[lang]["not_sure"]


def _make(code: str, severity: str, lang: str, evidence: dict[str, Any], **fields: str) -> Diagnosis:
    title, text = TEXTS[code][lang]
    return Diagnosis(code, severity, title.format(**fields), text.format(**fields), evidence)


def retrieval_first(doc: Mapping[str, Any], lang: str) -> Diagnosis | None:
    r = _read.reading(doc, _read.hit_rate_names(doc))
    if r is None or not r.misses:
        return None
    k = r.metric.split("@", 1)[1]
    return _make("retrieval_first", "critical", lang, {r.metric: r.evidence()}, hit=describe(r, lang),
                 bar=bar(r, lang), conf=confidence(r, lang), miss=pct(1 - r.value, lang), k=k)


def _faith_recall(doc: Mapping[str, Any]) -> tuple[Reading | None, Reading | None]:
    return (_read.reading(doc, ["faithfulness"]),
            _read.reading(doc, ["context_recall", "context_recall_ids"]))


def generation_grounding(doc: Mapping[str, Any], lang: str) -> Diagnosis | None:
    f, c = _faith_recall(doc)
    if f is None or c is None or not f.misses or c.misses:
        return None
    return _make("generation_grounding", "high", lang, {f.metric: f.evidence(), c.metric: c.evidence()},
                 faith=describe(f, lang), recall=describe(c, lang), bar=bar(f, lang), conf=confidence(f, lang))


def retrieval_recall(doc: Mapping[str, Any], lang: str) -> Diagnosis | None:
    f, c = _faith_recall(doc)
    if c is None or not c.misses or (f is not None and f.misses):
        return None
    if f is None:  # without faithfulness the pattern cannot be told apart from a generation problem
        return None
    return _make("retrieval_recall", "high", lang, {f.metric: f.evidence(), c.metric: c.evidence()},
                 faith=describe(f, lang), recall=describe(c, lang), bar=bar(c, lang), conf=confidence(c, lang))


def retrieval_and_generation(doc: Mapping[str, Any], lang: str) -> Diagnosis | None:
    f, c = _faith_recall(doc)
    if f is None or c is None or not f.misses or not c.misses:
        return None
    return _make("retrieval_and_generation", "high", lang, {f.metric: f.evidence(), c.metric: c.evidence()},
                 faith=describe(f, lang), recall=describe(c, lang))


def context_precision(doc: Mapping[str, Any], lang: str) -> Diagnosis | None:
    r = _read.reading(doc, ["context_precision", "context_precision_ids"])
    if r is None or not r.misses:
        return None
    return _make("context_precision", "medium", lang, {r.metric: r.evidence()}, prec=describe(r, lang),
                 bar=bar(r, lang), conf=confidence(r, lang))


def unanswerable_answered(doc: Mapping[str, Any], lang: str) -> Diagnosis | None:
    found = _read.unanswerable_answered(doc)
    if found is None or not found[1]:
        return None
    known, answered = found
    from ..stats.intervals import wilson_ci

    ci = wilson_ci(len(answered), len(known))
    rate = pct(len(answered) / len(known), lang)
    if ci is not None:
        rate += f", {WORDS[lang]['ci']} {pct(ci.low, lang)}–{pct(ci.high, lang)}"
    shown = ", ".join(answered[:5]) + (" …" if len(answered) > 5 else "")
    evidence = {"unanswerable": {"n": len(known), "answered": len(answered), "rate": len(answered) / len(known),
                                 "ci_low": ci.low if ci else None, "ci_high": ci.high if ci else None,
                                 "ci_method": "wilson", "answered_ids": answered}}
    return _make("unanswerable_answered", "high", lang, evidence, answered=str(len(answered)),
                 questions=of_questions(len(known), lang), rate=rate, ids=shown)


def latency_budget(doc: Mapping[str, Any], lang: str) -> Diagnosis | None:
    w = WORDS[lang]
    total = _read.reading(doc, ["latency_p95"])
    retr = _read.reading(doc, ["retrieval_p95"])
    ttft = _read.reading(doc, ["ttft_p95"])
    over = [r for r in (total, retr, ttft) if r is not None and r.misses]
    if not over:
        return None
    stages = sorted((r for r in (retr, ttft) if r is not None and r.misses), key=lambda r: -r.excess)
    names = {"retrieval_p95": "retrieval", "ttft_p95": "generation"}
    if stages:
        keys = [names[r.metric] for r in stages]
    else:
        keys = ["tail"] if retr is not None and ttft is not None else ["unknown"]
    stage = w["and"].join(w[f"stage_{k}"] for k in keys)
    # Only a confident excess is qualified; "the CI still reaches the budget" would repeat three times.
    over_txt = "; ".join(w["over"].format(what=describe(r, lang), bar=bar(r, lang))
                         + (confidence(r, lang) if r.confidently_misses else "") for r in over)
    shares = ""
    r_share = _read.median_share(doc, "retrieval_p95", "latency_p95")
    t_share = _read.median_share(doc, "ttft_p95", "latency_p95")
    if r_share is not None and t_share is not None:
        shares = w["shares"].format(r=pct(r_share, lang), t=pct(t_share, lang))
    advice = "".join(w[f"advice_{k}"] for k in keys).strip()
    evidence: dict[str, Any] = {r.metric: r.evidence() for r in (total, retr, ttft) if r is not None}
    evidence["stages"] = keys
    if r_share is not None:
        evidence["median_share_retrieval"] = r_share
    if t_share is not None:
        evidence["median_share_ttft"] = t_share
    return _make("latency_budget", "medium", lang, evidence, stage=stage, over=over_txt, shares=shares,
                 advice=advice)


RULES: tuple[Callable[[Mapping[str, Any], str], Diagnosis | None], ...] = (
    retrieval_first, generation_grounding, retrieval_recall, retrieval_and_generation, context_precision,
    unanswerable_answered, latency_budget,
)


def diagnose(results: Mapping[str, Any], *, lang: str | None = None) -> list[Diagnosis]:
    """Run every rule over a results document (``ragauge.results/1`` dict); most severe first.

    ``lang``: "ru" or "en"; default the samples' majority language (their ``language`` field, else the
    script of the questions).
    """
    if lang is None:
        lang = _read.language(results)
    if lang not in TEXTS["retrieval_first"]:
        raise ValueError(f"unknown diagnosis language {lang!r}; use 'ru' or 'en'")
    found = [d for rule in RULES if (d := rule(results, lang)) is not None]
    return sorted(found, key=lambda d: SEVERITY_ORDER[d.severity])
