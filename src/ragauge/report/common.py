"""Formatting shared by the text reports (table, Markdown), working on the results dict."""

from __future__ import annotations

from typing import Any, Mapping


def fmt_value(value: float | None, unit: str | None = None) -> str:
    if value is None:
        return "—"
    if unit == "ms":
        return f"{value:.0f} ms"
    return f"{value:.3f}"


def fmt_ci(ci: Mapping[str, Any] | None, unit: str | None = None) -> str:
    if not ci:
        return "n too small"
    if unit == "ms":
        return f"[{ci['low']:.0f}, {ci['high']:.0f}]"
    return f"[{ci['low']:.3f}, {ci['high']:.3f}]"


def fmt_unscored(entry: Mapping[str, Any]) -> str:
    n = entry.get("n_unscored", 0)
    if not n:
        return "0"
    reasons = entry.get("unscored_reasons", {})
    if len(reasons) == 1:
        return f"{n}: {next(iter(reasons))}"
    return f"{n}: " + "; ".join(f"{c} {r}" for r, c in reasons.items())


def gate_by_metric(results: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {g["metric"]: g for g in results.get("gates", [])}


def units(results: Mapping[str, Any]) -> dict[str, str | None]:
    return {m["name"]: m.get("unit") for m in results.get("metrics", [])}


def verdict_line(results: Mapping[str, Any]) -> str:
    gates = [g for g in results.get("gates", []) if g["status"] != "skipped"]
    if not gates:
        return "No gates checked (no profile)."
    failed = [g for g in gates if g["status"] != "pass"]
    if not failed:
        return f"PASS: all {len(gates)} gates passed."
    return f"FAIL: {len(failed)} of {len(gates)} gates failed: " + ", ".join(g["metric"] for g in failed)


# --- baseline comparison, hidden breakage, diagnosis (shared by table, Markdown, HTML) -------------

_SHORT_VERDICT = {"better": "better", "worse": "worse", "no detectable difference": "n.s.", "too few pairs": "too few"}


def comparison_of(results: Mapping[str, Any], metric: str) -> Mapping[str, Any] | None:
    """The paired comparison of ``metric`` with the baseline, when the run has one."""
    block = results.get("comparison") or {}
    return (block.get("metrics") or {}).get(metric)


def arrow(entry: Mapping[str, Any]) -> str:
    """``↑`` / ``↓`` for the sign of the change (not its merit), ``→`` for none."""
    d = entry.get("difference")
    return "→" if not d else ("↑" if d > 0 else "↓")


def fmt_change(entry: Mapping[str, Any] | None, unit: str | None = None, *, short: bool = True) -> str:
    """``↑ +0.021 [-0.004, +0.046] p=0.09 n.s.`` (difference, paired CI, Holm-adjusted p, verdict)."""
    if not entry:
        return ""
    d = entry.get("difference")
    if d is None:
        return entry.get("verdict", "")
    dec = 0 if unit == "ms" else 3
    ci = entry.get("ci")
    ci_txt = f" [{ci['low']:+.{dec}f}, {ci['high']:+.{dec}f}]" if ci else ""
    p = entry.get("p_adjusted") if entry.get("p_adjusted") is not None else entry.get("p_value")
    p_txt = f" p={p:.2g}" if p is not None else ""
    verdict = entry.get("verdict", "")
    word = _SHORT_VERDICT.get(verdict, verdict) if short else verdict
    return f"{arrow(entry)} {d:+.{dec}f}{ci_txt}{p_txt} {word}".rstrip()


def baseline_line(results: Mapping[str, Any]) -> str | None:
    block = results.get("comparison")
    if not block:
        return None
    b = block.get("baseline") or {}
    left = [f"{b.get(k)} only in {w}" for k, w in (("only_base", "the baseline"), ("only_new", "this run"))
            if b.get(k)]
    extra = f"; compared on the {b.get('n_common')} common samples ({', '.join(left)})" if left else ""
    return (f"Compared with baseline {b.get('path')} (paired by id{extra}; difference = this run - baseline, "
            f"{int(block.get('level', 0.95) * 100)}% paired bootstrap CI, Holm-adjusted p).")


def alarm_lines(results: Mapping[str, Any]) -> list[str]:
    """Sentences of the hidden-breakage block (empty when nothing is alarmed)."""
    return [str(a.get("text", "")) for a in results.get("alarms") or []]


def too_small_note(results: Mapping[str, Any]) -> str | None:
    policy = results.get("slice_checks") or {}
    small = sorted({tag for tag, sl in (results.get("slices") or {}).items()
                    for c in (sl.get("checks") or {}).values() if c.get("status") == "too small"})
    if not small:
        return None
    return f"Too small to test (fewer than {policy.get('min_n', 5)} scored samples): {', '.join(small)}."


def diagnosis_heading(results: Mapping[str, Any]) -> str:
    diags = results.get("diagnosis") or []
    ru = bool(diags) and any("а" <= ch <= "я" for ch in str(diags[0].get("title", "")).lower())
    return "Что исправить" if ru else "What to fix"


def usage_rows(results: Mapping[str, Any]) -> list[tuple[str, int, int, int, float | None]]:
    """The LLM judge's spend as table rows ``(what, calls, from cache, tokens, USD or None)``: the run, each
    metric, each shared bucket (results.json ``usage``; empty for the offline judge)."""
    usage = results.get("usage")
    if not isinstance(usage, Mapping) or not isinstance(usage.get("total"), Mapping):
        return []

    def row(label: str, c: Mapping[str, Any]) -> tuple[str, int, int, int, float | None]:
        tokens = int(c.get("prompt_tokens") or 0) + int(c.get("completion_tokens") or 0)
        return label, int(c.get("calls") or 0), int(c.get("cached") or 0), tokens, c.get("cost_usd")

    rows = [row("whole run", usage["total"])]
    rows += [row(name, c) for name, c in (usage.get("by_metric") or {}).items() if isinstance(c, Mapping)]
    rows += [row(f"shared: {name}", c) for name, c in (usage.get("shared") or {}).items() if isinstance(c, Mapping)]
    return rows
