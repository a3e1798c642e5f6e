"""Markdown summary (a PR comment, a wiki page)."""

from __future__ import annotations

from typing import Any, Mapping

from .common import (usage_rows, alarm_lines, baseline_line, comparison_of, diagnosis_heading, fmt_change, fmt_ci, fmt_unscored,
                     fmt_value, too_small_note, units, verdict_line)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(results: Mapping[str, Any]) -> str:
    unit = units(results)
    prof = results.get("profile") or {}
    src = results.get("source") or {}
    out = [
        f"## ragauge: {_cell(str(src.get('path') or 'data'))} ({src.get('n_samples', '?')} samples)",
        "",
        f"**{verdict_line(results)}** Profile: `{prof.get('name', 'none')}`.",
        "",
    ]
    out += _diagnosis(results) + _alarms(results)
    compared = bool(results.get("comparison"))
    gates = [g for g in results.get("gates", [])]
    if gates:
        if compared:
            out += [f"_{baseline_line(results)}_", ""]
        out += ["| gate | value | 95% CI | threshold | status |" + (" vs baseline |" if compared else ""),
                "|---|---|---|---|---|" + ("---|" if compared else "")]
        icon = {"pass": "✅ pass", "fail": "❌ fail", "unscored": "⚠️ unscored", "skipped": "⏭ not evaluated"}
        for g in gates:
            u = unit.get(g["metric"])
            ci = {"low": g["ci_low"], "high": g["ci_high"]} if g.get("ci_low") is not None else None
            change = f" {_cell(fmt_change(comparison_of(results, g['metric']), u, short=False)) or '—'} |" \
                if compared else ""
            mode = f" ({g['mode'].replace('_', '-')})" if g.get("mode") not in (None, "point") else ""
            out.append(f"| `{g['metric']}` | {fmt_value(g['value'], u)} | {fmt_ci(ci, u) if g['value'] is not None else '—'} "
                       f"| {g['op']} {g['threshold']:g}{mode} | {icon[g['status']]} |{change}")
        out.append("")
    out += ["| metric | value | 95% CI | n | unscored |", "|---|---|---|---|---|"]
    for name, e in results["summary"].items():
        u = unit.get(name)
        out.append(f"| `{name}` | {fmt_value(e['value'], u)} | {fmt_ci(e['ci'], u)} | {e['n']} | {_cell(fmt_unscored(e))} |")
    spend = usage_rows(results)
    if spend:
        out += ["", f"LLM judge spend ({_cell(str((results.get('usage') or {}).get('model') or ''))}):", "",
                "| what | calls | from cache | tokens | cost |", "|---|---|---|---|---|"]
        out += [f"| {_cell(w)} | {c} | {h} | {t:,} | {'—' if usd is None else f'${usd:.4f}'} |"
                for w, c, h, t, usd in spend]
    failing = [g for g in gates if g["status"] in ("fail", "unscored")]
    if failing:
        out += ["", "<details><summary>Why gates failed</summary>", ""]
        out += [f"- {_cell(g['reason'])}" for g in failing]
        out += ["", "</details>"]
    return "\n".join(out) + "\n"


def _diagnosis(results: Mapping[str, Any]) -> list[str]:
    diags = results.get("diagnosis") or []
    if not diags:
        return []
    icon = {"critical": "🛑", "high": "⚠️", "medium": "🔸"}
    out = [f"### {diagnosis_heading(results)}", ""]
    for i, d in enumerate(diags, 1):
        out.append(f"{i}. {icon.get(d['severity'], '')} **{_cell(d['title'])}** — {_cell(d['text'])}")
    return out + [""]


def _alarms(results: Mapping[str, Any]) -> list[str]:
    alarms = alarm_lines(results)
    if not alarms:
        return []
    out = ["### Hidden breakage", ""] + [f"- 🚨 {_cell(t)}" for t in alarms]
    if note := too_small_note(results):
        out.append(f"- {_cell(note)}")
    return out + [""]
