"""A gate's reason in the report's language, rebuilt from the gate's numbers.

``results.json`` stores each gate's reason as the checker's English sentence; a Russian report must not
show it. :func:`gate_reason` says the same from the gate's fields (metric, value, threshold, operator,
mode, CI, n, the non-inferiority test's numbers) and the document around it (profile, units, unscored
counts), through the message table. English reports keep the stored sentence, which these templates
reproduce word for word (a test checks both against real runs). A record without the numbers of its
kind (an older or hand-made document) gets a plain "status, value, threshold" line, never a wrong one.
Plain text: the caller escapes it for its medium.
"""

from __future__ import annotations


import re
from typing import Any, Mapping

from ..gates.check import NO_JUDGE, waits_for_baseline
from ..gates.compare import meets
from .gate_messages import METHODS_RU
from .messages import MESSAGES, local_num, msg, plural, report_lang

__all__ = ["gate_reason", "gate_warnings", "method_text"]

_COUNT = re.compile(r"\d+")


def method_text(method: object, lang: str) -> str:
    """A test's name (``one-sided paired t-test``) in ``lang``; a name this version does not know stays as is.

    >>> method_text("permutation, one-sided (2000 relabellings)", "ru")
    'перестановочный, односторонний (2000 перестановок)'
    """
    text = str(method)
    if lang != "ru":
        return text
    counts = _COUNT.findall(text)
    key = _COUNT.sub("{n}", text) if len(counts) == 1 else text
    ru = METHODS_RU.get(key)
    return ru.format(n=counts[0]) if ru and counts and "{n}" in ru else (ru or text)


def gate_reason(g: Mapping[str, Any], results: Mapping[str, Any], lang: str | None = None, *,
                stored: bool = True) -> str:
    """Why gate ``g`` of ``results`` has its status, in ``lang`` (default: the report's language).
    ``stored=False`` rebuilds the English sentence too instead of taking the one in the document."""
    lang = lang or report_lang(results)
    text = g.get("reason")
    if stored and lang == "en" and isinstance(text, str) and text:
        return text
    try:
        return _Gate(g, results, lang).reason()
    except (KeyError, TypeError, ValueError, AttributeError):
        return _generic(g, lang)


def gate_warnings(g: Mapping[str, Any], results: Mapping[str, Any], lang: str | None = None) -> list[str]:
    """The gate's warnings in ``lang`` (the small-sample one rebuilt from ``n`` and the profile's bar)."""
    lang = lang or report_lang(results)
    stored = [str(w) for w in g.get("warnings") or ()]
    if lang == "en" or not stored:
        return stored
    try:
        small = _Gate(g, results, lang).small_sample()
    except (KeyError, TypeError, ValueError, AttributeError):
        small = None
    return [small] if small else stored  # a warning of a kind this version does not know stays as stored


def _generic(g: Mapping[str, Any], lang: str) -> str:
    status = g.get("status")
    word = msg(lang, f"st_{status}") if f"st_{status}" in MESSAGES else str(status)
    value = g.get("value")
    number = local_num(value, lang) if isinstance(value, (int, float)) else "—"
    threshold = g.get("threshold")
    th = local_num(threshold, lang, "g") if isinstance(threshold, (int, float)) else "—"
    return msg(lang, "gr_generic", name=g.get("metric"), status=word, value=number, op=g.get("op"), threshold=th,
               mode=g.get("mode"))


class _Gate:
    """One gate record and the parts of the document its sentence needs."""

    def __init__(self, g: Mapping[str, Any], results: Mapping[str, Any], lang: str) -> None:
        self.g, self.r, self.lang = g, results, lang
        self.name = str(g["metric"])
        self.op, self.threshold, self.mode = str(g["op"]), float(g["threshold"]), str(g.get("mode") or "point")
        self.prof = results.get("profile") if isinstance(results.get("profile"), Mapping) else None
        spec = next((m for m in results.get("metrics") or [] if isinstance(m, Mapping) and m.get("name") == self.name),
                    {})
        self.spec: Mapping[str, Any] = spec
        self.unit: str | None = spec.get("unit") or None
        self.summary: Mapping[str, Any] = (results.get("summary") or {}).get(self.name) or {}

    # --- pieces ---------------------------------------------------------------------------------------
    def num(self, x: float, spec: str = ".3f") -> str:
        return local_num(x, self.lang, spec)

    def shown(self, x: float) -> str:
        """A value as the checker prints it: ``0.769``, ``3207 ms`` (``мс`` in Russian)."""
        return f"{x:.0f} {self._unit()}" if self.unit == "ms" else self.num(x)

    def signed(self, x: float) -> str:
        return f"{x:+.0f} {self._unit()}" if self.unit == "ms" else self.num(x, "+.3f")

    def _unit(self) -> str:
        return "мс" if self.unit == "ms" and self.lang == "ru" else str(self.unit or "")

    def want(self, *, unit: bool = True) -> str:
        """``at least 0.85`` / ``не меньше 0,85`` (with ``ms`` for timings unless ``unit=False``)."""
        text = msg(self.lang, f"op_{self.op}", v=self.num(self.threshold, "g"))
        return text + (f" {self._unit()}" if unit and self.unit else "")

    def profile_name(self) -> str:
        return str(self.prof.get("name")) if self.prof else ""

    def gone(self) -> str:
        k = int(self.summary.get("n_unscored") or 0)
        if not k:
            return ""
        total = int(self.summary.get("n") or 0) + k
        return msg(self.lang, "gr_gone", k=k, of_samples=plural(self.lang, total, "of samples"))

    # --- the sentence ---------------------------------------------------------------------------------
    def reason(self) -> str:
        status = self.g.get("status")
        if self.name == "scored metrics" and self.g.get("value") == 0.0 and status == "fail":
            return self.nothing_measured()
        if self.name == "gates checked" and self.g.get("value") == 0.0 and status == "fail" and self.prof:
            return self.nothing_checked()
        if self.name == "baseline given" and self.g.get("value") == 0.0 and status == "fail" and self.prof:
            waiting = [str(g.get("metric")) for g in self.r.get("gates") or [] if isinstance(g, Mapping)
                       and waits_for_baseline(g)]
            return msg(self.lang, "gr_baseline_missing", names=", ".join(waiting), profile=self.profile_name())
        if (status == "fail" and self.g.get("value") is None and str(self.g.get("reason") or "").endswith(NO_JUDGE)
                and self.name not in (self.r.get("summary") or {})):
            # failed without being evaluated: a gated judge metric on an install without a judge
            return msg(self.lang, "gr_no_judge", what=msg(self.lang, "gr_or").join(self.name.split("|")))
        if status == "skipped":
            if self.mode.startswith("non_inferior") and self.g.get("value") is not None:
                return msg(self.lang, "gr_needs_baseline", name=self.name, mode=self.mode)
            what = msg(self.lang, "gr_or").join(self.name.split("|"))
            return msg(self.lang, "gr_not_evaluated", what=what)
        if status == "unscored":
            n = int(self.summary.get("n_unscored") or 0)
            return msg(self.lang, "gr_unscored", name=self.name, n=n, of_samples=plural(self.lang, n, "of samples"),
                       all_unscored="its only sample is unscored" if n == 1 else f"all {n} samples are unscored",
                       want=self.want())
        if self.mode.startswith("non_inferior"):
            base = self.against_baseline()
        elif self.mode == "confident":
            base = self.confident()
        elif self.mode == "point":
            base = self.point()
        else:
            return _generic(self.g, self.lang)
        small = self.small_sample()
        if small:
            base += msg(self.lang, "gr_warning", text=small)
            if (self.prof or {}).get("small_sample") == "fail":
                base += msg(self.lang, "gr_small_fail")
        return base

    def point(self) -> str:
        value = float(self.g["value"])
        ok = meets(value, self.op, self.threshold)
        return msg(self.lang, "gr_point", name=self.name, shown=self.shown(value),
                   verdict=msg(self.lang, "gr_meets" if ok else "gr_misses"), want=self.want(),
                   profile=self.profile_name(), gone=self.gone())

    def confident(self) -> str:
        value = float(self.g["value"])
        lo, hi = self.g.get("ci_low"), self.g.get("ci_high")
        if lo is None or hi is None:
            n = self.g.get("n") if self.g.get("n") is not None else self.summary.get("n")
            return msg(self.lang, "gr_no_ci", name=self.name, shown=self.shown(value), n=n, want=self.want())
        level = float((self.summary.get("ci") or {}).get("level") or (self.r.get("ci") or {}).get("level") or 0.95)
        span = msg(self.lang, "gr_span", level=f"{level * 100:.0f}", low=self.shown(lo), high=self.shown(hi))
        upper = self.op in ("<=", "<")
        bound = float(hi if upper else lo)
        common = dict(name=self.name, shown=self.shown(value), want=self.want(), span=span,
                      profile=self.profile_name(), gone=self.gone())
        if meets(bound, self.op, self.threshold):
            return msg(self.lang, "gr_conf_pass", **common)
        if meets(value, self.op, self.threshold):
            return msg(self.lang, "gr_conf_bound", side=msg(self.lang, "gr_upper" if upper else "gr_lower"),
                       bound=self.shown(bound), **common)
        return msg(self.lang, "gr_conf_fail", **common)

    def against_baseline(self) -> str:
        d = self.g.get("non_inferiority")
        if not isinstance(d, Mapping):
            return msg(self.lang, "gr_cannot_compare", name=self.name, profile=self.profile_name(), mode=self.mode)
        margin = float(d.get("margin", self.g.get("margin")))
        m_txt = self.num(margin, "g") + (f" {self._unit()}" if self.unit else "")
        conf = f"{1 - float(d['alpha']):.0%}"
        p = "—" if d.get("p_value") is None else self.num(d["p_value"], ".3g")
        new, base = float(d["new_value"]), float(d["baseline_value"])
        head = msg(self.lang, "gr_ni_head", name=self.name, new=self.shown(new), base=self.shown(base),
                   pairs=plural(self.lang, int(d["n"]), "paired samples"), change=self.num(new - base, "+.4g"))
        if self.mode == "non_inferior_strict":
            what = self._strict(d, margin, m_txt, conf, p)
            test = msg(self.lang, "gr_test_strict", method=method_text(d["method"], self.lang))
        else:
            ub = msg(self.lang, "gr_none") if d.get("upper_bound") is None else self.signed(float(d["upper_bound"]))
            regressed = bool(d["regressed"])
            why = msg(self.lang, "gr_reg_why", conf=conf, ub=ub, cmp=msg(self.lang, "gr_below" if regressed else
                                                                          "gr_not_below"),
                      margin=m_txt, method=method_text(d["method"], self.lang), p=p)
            what = msg(self.lang, "gr_reg_yes" if regressed else "gr_reg_no", margin=m_txt, why=why)
            test = msg(self.lang, "gr_test_regression", method=method_text(d["method"], self.lang))
        bar = meets(float(self.g["value"]), self.op, self.threshold)
        origin = str(d.get("margin_origin"))
        tail = msg(self.lang, "gr_ni_tail", bar=msg(self.lang, "gr_bar_meets" if bar else "gr_bar_misses"),
                   want=self.want(unit=False), profile=self.profile_name(), mode=self.mode,
                   source=d.get("baseline"), test=test,
                   origin=msg(self.lang, f"gr_origin_{origin}") if f"gr_origin_{origin}" in MESSAGES else origin)
        return f"{head}: {what}{tail}"

    def _strict(self, d: Mapping[str, Any], margin: float, m_txt: str, conf: str, p: str) -> str:
        from ..stats.non_inferiority import identical_runs_min_n

        bound = msg(self.lang, "gr_strict_bound", conf=conf, method=method_text(d["method"], self.lang), p=p)
        worst = None if d.get("lower_bound") is None else -float(d["lower_bound"])
        if d["non_inferior"]:
            if worst is None:
                raise ValueError("a non-inferior result without its lower bound")  # -> the plain line
            at = (msg(self.lang, "gr_at_worst", x=self.shown(worst)) if worst > 0
                  else msg(self.lang, "gr_at_least", x=self.shown(-worst)))
            return msg(self.lang, "gr_strict_ok", margin=m_txt, at=at, bound=bound)
        how = msg(self.lang, "gr_up_to", x=self.shown(worst)) if worst is not None else msg(self.lang, "gr_no_bound")
        rng = self.spec.get("range")
        unit_range = isinstance(rng, (list, tuple)) and list(rng) == [0.0, 1.0]
        need = identical_runs_min_n(margin, float(d["alpha"])) if unit_range else None
        size = (msg(self.lang, "gr_strict_size", need=need, margin=self.num(margin, "g"))
                if need is not None and int(d["n"]) < need else "")
        return msg(self.lang, "gr_strict_no", margin=m_txt, how=how, bound=bound, size=size)

    def small_sample(self) -> str | None:
        """The small-sample warning, when the gate carries one and its n is below the profile's bar."""
        n, min_n = self.g.get("n"), (self.prof or {}).get("min_samples")
        if not self.g.get("warnings") or not isinstance(n, int) or not isinstance(min_n, int) or n >= min_n:
            return None
        return msg(self.lang, "gr_small", scored=plural(self.lang, n, "scored samples"), min_n=min_n)

    def nothing_measured(self) -> str:
        summary: Mapping[str, Any] = self.r.get("summary") or {}
        why: dict[str, int] = {}
        for e in summary.values():
            for r, c in (e.get("unscored_reasons") or {}).items():
                why[r] = why.get(r, 0) + int(c)
        top = "; ".join(f"{r} ({c})" for r, c in sorted(why.items(), key=lambda kv: -kv[1])[:3])
        n = int(self.g.get("n") or max((int(e.get("n") or 0) + int(e.get("n_unscored") or 0)
                                        for e in summary.values()), default=0))
        prof = (msg(self.lang, "gr_in_profile", profile=self.profile_name()) if self.prof
                else msg(self.lang, "gr_no_profile"))
        return msg(self.lang, "gr_nothing", names=", ".join(summary), n=n, samples=plural(self.lang, n, "samples"),
                   reasons=msg(self.lang, "gr_reasons", top=top) if top else "", prof=prof)

    def nothing_checked(self) -> str:
        summary: Mapping[str, Any] = self.r.get("summary") or {}
        labels = ["|".join(t["metrics"]) for t in (self.prof or {}).get("thresholds") or []
                  if not any(m in summary for m in t["metrics"])]
        shown = ", ".join(labels[:6]) + (msg(self.lang, "gr_and_more", n=len(labels) - 6) if len(labels) > 6 else "")
        evaluated = ", ".join(summary) or msg(self.lang, "gr_nothing_evaluated")
        return msg(self.lang, "gr_unchecked", profile=self.profile_name(), shown=shown, evaluated=evaluated)
