"""Formatting shared by the text reports (table, Markdown), working on the results dict."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .escape import terminal_text
from .gate_text import gate_reason, gate_warnings, method_text
from .messages import MESSAGES, local_num, msg, plural, report_lang, unit_label
from .reason_text import reason_text


def fmt_value(value: float | None, unit: str | None = None, *, lang: str = "en") -> str:
    if value is None:
        return "—"
    if unit == "ms":
        return f"{value:.0f} {unit_label(unit, lang)}"
    return f"{value:.3f}"


def fmt_ci(ci: Mapping[str, Any] | None, unit: str | None = None, *, lang: str = "en") -> str:
    if not ci:
        return msg(lang, "n_too_small")
    if unit == "ms":
        return f"[{ci['low']:.0f}, {ci['high']:.0f}]"
    return f"[{ci['low']:.3f}, {ci['high']:.3f}]"


def fmt_unscored(entry: Mapping[str, Any], *, lang: str = "en") -> str:
    """``14: 10 no relevant_ids; 4 no relevant document (grade >= 1)``, the reasons in ``lang``."""
    n = entry.get("n_unscored", 0)
    if not n:
        return "0"
    reasons = entry.get("unscored_reasons", {})
    if len(reasons) == 1:
        return f"{n}: {reason_text(next(iter(reasons)), lang)}"
    return f"{n}: " + "; ".join(f"{c} {reason_text(r, lang)}" for r, c in reasons.items())


def gate_by_metric(results: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {g["metric"]: g for g in results.get("gates", [])}


def units(results: Mapping[str, Any]) -> dict[str, str | None]:
    return {m["name"]: m.get("unit") for m in results.get("metrics", [])}


def verdict_line(results: Mapping[str, Any], *, lang: str | None = None,
                 name: Callable[[object], str] = terminal_text) -> str:
    """``PASS: all 3 gates passed.`` / ``FAIL: 1 of 3 gates failed: faithfulness``; metric names go through
    ``name`` (terminal-safe by default; the Markdown report passes its escaping)."""
    lang = lang or report_lang(results)
    gates = [g for g in results.get("gates", []) if g["status"] != "skipped"]
    if not gates:
        prof = results.get("profile")
        return msg(lang, "no_gates_baseline", profile=name((prof or {}).get("name"))) if prof else msg(lang, "no_gates")
    failed = [g for g in gates if g["status"] != "pass"]
    if not failed:
        return msg(lang, "all_passed", gates=plural(lang, len(gates), "gates"))
    return msg(lang, "some_failed", failed=len(failed), gates=plural(lang, len(gates), "gates"), total=len(gates),
               names=", ".join(name(g["metric"]) for g in failed))


def gate_notes(results: Mapping[str, Any], *, lang: str | None = None) -> list[str]:
    """What a reader must see beside the verdict: the reason of every gate that did not pass (including the
    synthetic "nothing was checked" gates), then each distinct warning of the passing ones with every metric
    it applies to (``hit_rate@5, mrr@5: only 5 scored samples ...``), in the report's language
    (:mod:`~ragauge.report.gate_text`). Plain text; the caller escapes it for its medium."""
    lang = lang or report_lang(results)
    out: list[str] = []
    for g in results.get("gates", []):
        if g.get("status") in ("fail", "unscored"):
            out.append(f"{g['metric']}: {gate_reason(g, results, lang)}")
    metrics_by_warning: dict[str, list[str]] = {}
    for g in results.get("gates", []):
        if g.get("status") == "pass":
            for w in gate_warnings(g, results, lang):
                names = metrics_by_warning.setdefault(w, [])
                if str(g["metric"]) not in names:
                    names.append(str(g["metric"]))
    out += [f"{', '.join(names)}: {w}" for w, names in metrics_by_warning.items()]
    return out


# --- baseline comparison, hidden breakage, diagnosis (shared by table, Markdown, HTML) -------------

def verdict_word(verdict: object, lang: str = "en", *, short: bool = False) -> str:
    """A paired comparison's verdict (``better``, ``worse``, ``no detectable difference``, ``too few pairs``)
    in ``lang``; ``short`` for the terminal (``n.s.``); an unknown one as stored."""
    v = str(verdict or "")
    if short and f"vs_{v}" in MESSAGES:
        return msg(lang, f"vs_{v}")
    return msg(lang, f"vd_{v}") if f"vd_{v}" in MESSAGES else v


def comparison_of(results: Mapping[str, Any], metric: str) -> Mapping[str, Any] | None:
    """The paired comparison of ``metric`` with the baseline, when the run has one."""
    block = results.get("comparison") or {}
    return (block.get("metrics") or {}).get(metric)


def arrow(entry: Mapping[str, Any]) -> str:
    """``↑`` / ``↓`` for the sign of the change (not its merit), ``→`` for none."""
    d = entry.get("difference")
    return "→" if not d else ("↑" if d > 0 else "↓")


def fmt_change(entry: Mapping[str, Any] | None, unit: str | None = None, *, short: bool = True,
               lang: str = "en") -> str:
    """``↑ +0.021 [-0.004, +0.046] p=0.09 n.s.`` (difference, paired CI, Holm-adjusted p, verdict)."""
    if not entry:
        return ""
    d = entry.get("difference")
    if d is None:
        return verdict_word(entry.get("verdict"), lang, short=short)
    dec = 0 if unit == "ms" else 3
    ci = entry.get("ci")
    ci_txt = f" [{ci['low']:+.{dec}f}, {ci['high']:+.{dec}f}]" if ci else ""
    p = entry.get("p_adjusted") if entry.get("p_adjusted") is not None else entry.get("p_value")
    p_txt = f" p={p:.2g}" if p is not None else ""
    word = verdict_word(entry.get("verdict"), lang, short=short)
    return f"{arrow(entry)} {d:+.{dec}f}{ci_txt}{p_txt} {word}".rstrip()


def baseline_line(results: Mapping[str, Any], *, lang: str | None = None) -> str | None:
    """The sentence that says what the changes are measured against (plain text: escape it for the output)."""
    block = results.get("comparison")
    if not block:
        return None
    lang = lang or report_lang(results)
    b = block.get("baseline") or {}
    left = [msg(lang, k, n=b.get(k)) for k in ("only_base", "only_new") if b.get(k)]
    extra = msg(lang, "baseline_common", n=b.get("n_common"), left=", ".join(left)) if left else ""
    return msg(lang, "baseline", path=b.get("path"), extra=extra, level=int(block.get("level", 0.95) * 100))


def alarm_lines(results: Mapping[str, Any], *, lang: str | None = None) -> list[str]:
    """Sentences of the hidden-breakage block in the report's language (empty when nothing is alarmed);
    an alarm without its numbers keeps the sentence stored with it (plain text: escape it for the output)."""
    lang = lang or report_lang(results)
    out = []
    for a in results.get("alarms") or []:
        if not isinstance(a, Mapping):
            continue
        try:
            out.append(alarm_sentence(a, lang))
        except (KeyError, TypeError, ValueError):
            out.append(str(a.get("text", "")))
    return out


def _num(x: Any, lang: str, spec: str = ".3f") -> str:
    return local_num(x, lang, spec)


def alarm_sentence(a: Mapping[str, Any], lang: str = "en") -> str:
    """The sentence of one alarm record (``slice_alarms.alarm_record``): what is broken and by how much.

    ``KeyError``/``TypeError`` when the record lacks its numbers (an older or hand-made document)."""
    ci = a.get("ci")
    ci_txt = msg(lang, "alarm_ci", low=_num(ci["low"], lang), high=_num(ci["high"], lang)) if ci else ""
    text = msg(lang, "alarm", slice=a["slice"], metric=a["metric"], value=_num(a.get("value"), lang), n=a["n"],
               ci=ci_txt, rest=_num(a.get("rest_value"), lang), n_rest=a["n_rest"],
               diff=_num(a["difference"], lang, "+.3f"), method=method_text(a["method"], lang), p=_num(a["p_value"], lang, ".2g"),
               p_adj=_num(a["p_adjusted"], lang, ".2g"))
    th = a.get("threshold")
    if th and a.get("overall_gate") in ("pass", "fail"):
        value = _num(th["value"], lang, "g")
        want = msg(lang, f"op_{th['op']}", v=value) if f"op_{th['op']}" in MESSAGES else f"{th['op']} {value}"
        overall = msg(lang, "alarm_passes" if a["overall_gate"] == "pass" else "alarm_fails")
        text += msg(lang, "alarm_gate", overall=overall, value=_num(a.get("overall_value"), lang), want=want)
        meets = a.get("slice_meets_threshold")
        if meets is not None:
            text += msg(lang, "alarm_meets" if meets else "alarm_misses")
    return text + "."


def too_small_pairs(results: Mapping[str, Any]) -> list[tuple[str, str, int, int]]:
    """``(slice, metric, n, n_rest)`` of every slice check that was not run for want of data, by slice.

    Per (slice, metric) pair, as the checks are: a slice can be alarmed on one metric and too small on
    another (fewer of its samples scored), so a slice name alone would contradict its alarm."""
    out = []
    for tag, sl in (results.get("slices") or {}).items():
        for metric, c in ((sl or {}).get("checks") or {}).items():
            if isinstance(c, Mapping) and c.get("status") == "too small":
                out.append((str(tag), str(c.get("metric") or metric), int(c.get("n") or 0), int(c.get("n_rest") or 0)))
    return sorted(out)


def too_small_note(results: Mapping[str, Any], *, lang: str | None = None) -> str | None:
    """Which (slice, metric) pairs were too small to test, with their n (plain text: escape it for the output)."""
    pairs = too_small_pairs(results)
    if not pairs:
        return None
    lang = lang or report_lang(results)
    min_n = int((results.get("slice_checks") or {}).get("min_n", 5))
    text = [msg(lang, "too_small_pair", slice=tag, metric=metric, n=n,
                rest=msg(lang, "too_small_rest", n_rest=n_rest) if n_rest < min_n else "")
            for tag, metric, n, n_rest in pairs]
    return msg(lang, "too_small", min_n=min_n, pairs="; ".join(text))


def diagnosis_heading(results: Mapping[str, Any], *, lang: str | None = None) -> str:
    return msg(lang or report_lang(results), "what_to_fix")


def usage_rows(results: Mapping[str, Any], *, lang: str = "en") -> list[tuple[str, int, int, int, float | None]]:
    """The LLM judge's spend as table rows ``(what, calls, from cache, tokens, USD or None)``: the run, each
    metric, each shared bucket (results.json ``usage``; empty for the offline judge)."""
    usage = results.get("usage")
    if not isinstance(usage, Mapping) or not isinstance(usage.get("total"), Mapping):
        return []

    def row(label: str, c: Mapping[str, Any]) -> tuple[str, int, int, int, float | None]:
        tokens = int(c.get("prompt_tokens") or 0) + int(c.get("completion_tokens") or 0)
        return label, int(c.get("calls") or 0), int(c.get("cached") or 0), tokens, c.get("cost_usd")

    rows = [row(msg(lang, "u_whole_run"), usage["total"])]
    rows += [row(name, c) for name, c in (usage.get("by_metric") or {}).items() if isinstance(c, Mapping)]
    rows += [row(msg(lang, "u_shared", name=name), c) for name, c in (usage.get("shared") or {}).items()
             if isinstance(c, Mapping)]
    return rows
