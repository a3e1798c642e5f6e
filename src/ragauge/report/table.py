"""Plain-text summary table for the terminal."""

from __future__ import annotations

from typing import Any, Mapping

from .common import fmt_ci, fmt_unscored, fmt_value, gate_by_metric, units, verdict_line


_UNSCORED_WIDTH = 48


def render_table(results: Mapping[str, Any]) -> str:
    unit = units(results)
    gates = gate_by_metric(results)
    prof = results.get("profile") or {}
    src = results.get("source") or {}
    head = f"ragauge {results.get('ragauge_version', '')} · {src.get('path') or 'data'} " \
           f"({src.get('n_samples', '?')} samples) · profile {prof.get('name', 'none')}"
    rows = [("metric", "value", "95% CI", "n", "unscored", "gate")]
    for name, entry in results["summary"].items():
        g = gates.get(name)
        gate = f"{g['status'].upper()} {g['op']} {g['threshold']:g}" if g else ""
        unscored = fmt_unscored(entry)
        if len(unscored) > _UNSCORED_WIDTH:  # the full list is in report.md / report.html / results.json
            unscored = unscored[: _UNSCORED_WIDTH - 1] + "…"
        rows.append((name, fmt_value(entry["value"], unit.get(name)), fmt_ci(entry["ci"], unit.get(name)),
                     str(entry["n"]), unscored, gate))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [head, ""]
    for j, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    skipped = [g for g in results.get("gates", []) if g["status"] == "skipped"]
    if skipped:
        lines.append("")
        lines.append("Not evaluated in this run: " + ", ".join(g["metric"] for g in skipped))
    lines.append("")
    lines.append(verdict_line(results))
    return "\n".join(lines)
