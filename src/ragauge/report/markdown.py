"""Markdown summary (a PR comment, a wiki page)."""

from __future__ import annotations

from typing import Any, Mapping

from .common import fmt_ci, fmt_unscored, fmt_value, units, verdict_line


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
    gates = [g for g in results.get("gates", [])]
    if gates:
        out += ["| gate | value | 95% CI | threshold | status |", "|---|---|---|---|---|"]
        icon = {"pass": "✅ pass", "fail": "❌ fail", "unscored": "⚠️ unscored", "skipped": "⏭ not evaluated"}
        for g in gates:
            u = unit.get(g["metric"])
            ci = {"low": g["ci_low"], "high": g["ci_high"]} if g.get("ci_low") is not None else None
            out.append(f"| `{g['metric']}` | {fmt_value(g['value'], u)} | {fmt_ci(ci, u) if g['value'] is not None else '—'} "
                       f"| {g['op']} {g['threshold']:g} | {icon[g['status']]} |")
        out.append("")
    out += ["| metric | value | 95% CI | n | unscored |", "|---|---|---|---|---|"]
    for name, e in results["summary"].items():
        u = unit.get(name)
        out.append(f"| `{name}` | {fmt_value(e['value'], u)} | {fmt_ci(e['ci'], u)} | {e['n']} | {_cell(fmt_unscored(e))} |")
    failing = [g for g in gates if g["status"] in ("fail", "unscored")]
    if failing:
        out += ["", "<details><summary>Why gates failed</summary>", ""]
        out += [f"- {_cell(g['reason'])}" for g in failing]
        out += ["", "</details>"]
    return "\n".join(out) + "\n"
