"""Plain-text summary table for the terminal."""

from __future__ import annotations

from typing import Any, Mapping

import textwrap

from .common import (alarm_lines, baseline_line, comparison_of, diagnosis_heading, fmt_change, fmt_ci, fmt_unscored,
                     fmt_value, gate_by_metric, gate_notes, too_small_note, units, verdict_line)
from ..gates.check import waits_for_baseline
from .escape import terminal_text as _t
from . import judge_text
from .messages import local_num, msg, plural, report_lang, severity_word
from .run_notes import app_text, golden_warning, target_text, targets_line, taxonomy_line


_UNSCORED_WIDTH = 48


def render_table(results: Mapping[str, Any], *, lang: str | None = None) -> str:
    """The terminal summary. Every text from the data (file name, tags, ids, metric names, reasons) goes
    through :func:`~ragauge.report.escape.terminal_text`: no ESC sequence or control character reaches the
    terminal."""
    lang = lang or report_lang(results)
    unit = units(results)
    gates = gate_by_metric(results)
    prof = results.get("profile") or {}
    src = results.get("source") or {}
    n = src.get("n_samples")
    n_txt = plural(lang, n, "samples") if isinstance(n, int) else "?"
    head = f"ragauge {_t(results.get('ragauge_version', ''))} · {_t(src.get('path') or msg(lang, 'data'))} " \
           f"({n_txt}) · {msg(lang, 'profile').lower()} {_t(prof.get('name') or msg(lang, 'none'))}"
    if (app := app_text(results)) is not None:
        head += f" · {msg(lang, 'app')} {_t(app)}"
    compared = bool(results.get("comparison"))
    targeted = any(g.get("target") for g in results.get("gates", []))
    rows = [tuple(msg(lang, k) for k in ("h_metric", "h_value", "h_ci")) + ("n",)
            + tuple(msg(lang, k) for k in ("h_unscored", "h_gate"))
            + ((msg(lang, "h_target"),) if targeted else ())
            + ((msg(lang, "h_vs_baseline"),) if compared else ())]
    for name, entry in results["summary"].items():
        g = gates.get(name)
        word = msg(lang, "st_waiting").upper() if g and waits_for_baseline(g) else (g or {}).get("status", "").upper()
        gate = f"{word} {_t(g['op'])} {g['threshold']:g}" if g else ""
        unscored = _t(fmt_unscored(entry, lang=lang))
        if len(unscored) > _UNSCORED_WIDTH:  # the full list is in report.md / report.html / results.json
            unscored = unscored[: _UNSCORED_WIDTH - 1] + "…"
        row: tuple[str, ...] = (_t(name), fmt_value(entry["value"], unit.get(name), lang=lang), fmt_ci(entry["ci"], unit.get(name), lang=lang),
               str(entry["n"]), unscored, gate)
        if targeted:
            row += (_t(target_text(g, lang)) if g else "",)
        if compared:
            row += (_t(fmt_change(comparison_of(results, name), unit.get(name), lang=lang)),)
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [head]
    if (warning := golden_warning(results, lang)) is not None:
        lines += _wrap("! " + _t(warning), "")
    lines.append("")
    for j, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    skipped = [g for g in results.get("gates", []) if g["status"] == "skipped"]
    waiting = [g for g in skipped if waits_for_baseline(g)]
    unevaluated = [g for g in skipped if not waits_for_baseline(g)]
    if skipped:
        lines.append("")
    if waiting:
        lines.append(msg(lang, "waiting_baseline") + ", ".join(_t(g["metric"]) for g in waiting))
    if unevaluated:
        lines.append(msg(lang, "not_evaluated") + ", ".join(_t(g["metric"]) for g in unevaluated))
    if (line := taxonomy_line(results, lang)) is not None:
        lines += [""] + _wrap(_t(line), "")
    if (line := baseline_line(results, lang=lang)) is not None:
        lines += [""] + _wrap(_t(line), "")
    alarms = alarm_lines(results, lang=lang)
    if alarms:
        lines += ["", msg(lang, "breakage_count", slices=plural(lang, _n_slices(results), "slices"))]
        for text in alarms:
            lines += _wrap(_t(text), "  ! ")
    if alarms and (note := too_small_note(results, lang=lang)):
        lines += _wrap(_t(note), "  ")
    judge = _judge_line(results, lang)
    if judge:
        lines += [""] + _wrap(_t(judge), "")
    diags = results.get("diagnosis") or []
    if diags:
        lines += ["", f"{diagnosis_heading(results, lang=lang)}:"]
        for i, d in enumerate(diags, 1):
            lines.append(f"  {i}. [{_t(severity_word(d['severity'], lang))}] {_t(d['title'])}")
            lines += _wrap(_t(d["text"]), "     ")
    lines.append("")
    lines.append(verdict_line(results, lang=lang))
    if (line := targets_line(results, lang, name=_t)) is not None:
        lines += _wrap(line + " " + msg(lang, "targets_note"), "")
    for note in gate_notes(results, lang=lang):
        lines += _wrap(_t(note), "  - ")
    return "\n".join(lines)


def _n_slices(results: Mapping[str, Any]) -> int:
    return len({str(a.get("slice")) for a in results.get("alarms") or [] if isinstance(a, Mapping)})


def _wrap(text: str, indent: str, width: int = 100) -> list[str]:
    rest = " " * len(indent)
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=rest, break_on_hyphens=False) or [indent]


def _judge_line(results: Mapping[str, Any], lang: str) -> str | None:
    """One line naming the judge of the judge metrics and its measured accuracy per task type."""
    for entry in results.get("summary", {}).values():
        j = entry.get("judge") if isinstance(entry, Mapping) else None
        if isinstance(j, Mapping):
            acc = j.get("measured_accuracy") or {}
            tasks = "; ".join(f"{t} {local_num(v, lang, '.2f')}" for t, v in judge_text.tasks(acc, lang))
            head = msg(lang, "j_line", judge=j.get("judge"), model=j.get("model"), version=j.get("version"))
            measured = msg(lang, "j_measured", measure=judge_text.measure_text(acc, lang), tasks=tasks)
            return head + (f"{measured} {judge_text.advice_text(acc, lang)}".rstrip() if tasks else "")
    return None
