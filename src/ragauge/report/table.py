"""Plain-text summary table for the terminal."""

from __future__ import annotations

from typing import Any, Mapping

import textwrap

from .common import (alarm_lines, baseline_line, comparison_of, diagnosis_heading, fmt_change, fmt_ci, fmt_unscored,
                     fmt_value, gate_by_metric, too_small_note, units, verdict_line)


_UNSCORED_WIDTH = 48


def render_table(results: Mapping[str, Any]) -> str:
    unit = units(results)
    gates = gate_by_metric(results)
    prof = results.get("profile") or {}
    src = results.get("source") or {}
    head = f"ragauge {results.get('ragauge_version', '')} · {src.get('path') or 'data'} " \
           f"({src.get('n_samples', '?')} samples) · profile {prof.get('name', 'none')}"
    compared = bool(results.get("comparison"))
    rows = [("metric", "value", "95% CI", "n", "unscored", "gate") + (("vs baseline",) if compared else ())]
    for name, entry in results["summary"].items():
        g = gates.get(name)
        gate = f"{g['status'].upper()} {g['op']} {g['threshold']:g}" if g else ""
        unscored = fmt_unscored(entry)
        if len(unscored) > _UNSCORED_WIDTH:  # the full list is in report.md / report.html / results.json
            unscored = unscored[: _UNSCORED_WIDTH - 1] + "…"
        row = (name, fmt_value(entry["value"], unit.get(name)), fmt_ci(entry["ci"], unit.get(name)),
               str(entry["n"]), unscored, gate)
        if compared:
            row += (fmt_change(comparison_of(results, name), unit.get(name)),)
        rows.append(row)
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
    if (line := baseline_line(results)) is not None:
        lines += [""] + _wrap(line, "")
    alarms = alarm_lines(results)
    if alarms:
        lines += ["", f"Hidden breakage: {len(alarms)} slice(s) significantly below the rest"]
        for text in alarms:
            lines += _wrap(text, "  ! ")
    if alarms and (note := too_small_note(results)):
        lines += _wrap(note, "  ")
    judge = _judge_line(results)
    if judge:
        lines += [""] + _wrap(judge, "")
    diags = results.get("diagnosis") or []
    if diags:
        lines += ["", f"{diagnosis_heading(results)}:"]
        for i, d in enumerate(diags, 1):
            lines.append(f"  {i}. [{d['severity']}] {d['title']}")
            lines += _wrap(d["text"], "     ")
    lines.append("")
    lines.append(verdict_line(results))
    return "\n".join(lines)


def _wrap(text: str, indent: str, width: int = 100) -> list[str]:
    rest = " " * len(indent)
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=rest, break_on_hyphens=False) or [indent]


def _judge_line(results: Mapping[str, Any]) -> str | None:
    """One line naming the judge of the judge metrics and its measured accuracy per task type."""
    for entry in results.get("summary", {}).values():
        j = entry.get("judge") if isinstance(entry, Mapping) else None
        if isinstance(j, Mapping):
            acc = j.get("measured_accuracy") or {}
            tasks = "; ".join(f"{t} {v:.2f}" for t, v in (acc.get("by_task") or {}).items())
            head = f"Judge: {j.get('judge')} ({j.get('model')}, {j.get('version')})."
            return head + (f" Measured {acc.get('measure', 'accuracy')}: {tasks}. {acc.get('advice', '')}" if tasks else "")
    return None
