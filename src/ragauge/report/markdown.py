"""Markdown summary (a PR comment, a wiki page)."""

from __future__ import annotations

from typing import Any, Mapping

from .common import (usage_rows, alarm_lines, baseline_line, comparison_of, diagnosis_heading, fmt_change, fmt_ci, fmt_unscored,
                     fmt_value, gate_notes, too_small_note, units, verdict_line)
from ..gates.check import waits_for_baseline
from .escape import md_cell as _cell
from .escape import md_code as _code
from .gate_text import gate_reason
from .messages import msg, plural, report_lang
from .run_notes import app_text, golden_warning, shards_note, target_text, targets_line, taxonomy_line


def render_markdown(results: Mapping[str, Any], *, lang: str | None = None) -> str:
    """report.md (a PR comment). Every text from the data goes through :func:`~ragauge.report.escape.md_cell`
    (or ``md_code`` for names): no HTML, link, mention or table break can come from a tag or a file name."""
    lang = lang or report_lang(results)
    unit = units(results)
    prof = results.get("profile") or {}
    src = results.get("source") or {}
    n = src.get("n_samples")
    out = [
        f"## ragauge: {_cell(src.get('path') or msg(lang, 'data'))} "
        f"({plural(lang, n, 'samples') if isinstance(n, int) else '?'})",
        "",
        f"**{verdict_line(results, lang=lang, name=_code)}** {msg(lang, 'profile')}: "
        f"{_code(prof.get('name') or msg(lang, 'none'))}."
        + (f" {msg(lang, 'm_app')}: {_code(app)}." if (app := app_text(results)) is not None else ""),
        "",
    ]
    if (line := targets_line(results, lang, name=_code)) is not None:
        out += [f"🎯 {line} {_cell(msg(lang, 'targets_note'))}", ""]
    if (warning := golden_warning(results, lang)) is not None:
        out += [f"> ⚠️ {_cell(warning)}", ""]
    notes = gate_notes(results, lang=lang)
    if notes:
        out += [f"- {_cell(n)}" for n in notes] + [""]
    out += _diagnosis(results, lang) + _alarms(results, lang)
    compared = bool(results.get("comparison"))
    gates = [g for g in results.get("gates", [])]
    h = {k: msg(lang, k) for k in ("h_metric", "h_value", "h_ci", "h_threshold", "h_status", "h_vs_baseline",
                                   "h_unscored", "h_gate", "h_what", "h_calls", "h_cached", "h_tokens", "h_cost")}
    targeted = any(g.get("target") for g in gates)
    if gates:
        if compared:
            out += [f"_{_cell(baseline_line(results, lang=lang))}_", ""]
        out += [f"| {h['h_gate']} | {h['h_value']} | {h['h_ci']} | {h['h_threshold']} | {h['h_status']} |"
                + (f" {msg(lang, 'h_target')} |" if targeted else "") + (f" {h['h_vs_baseline']} |" if compared else ""),
                "|---|---|---|---|---|" + ("---|" if targeted else "") + ("---|" if compared else "")]
        icon = {"pass": "✅ ", "fail": "❌ ", "unscored": "⚠️ ", "skipped": "⏭ "}
        for g in gates:
            u = unit.get(g["metric"])
            ci = {"low": g["ci_low"], "high": g["ci_high"]} if g.get("ci_low") is not None else None
            # our own numbers and verdict words ("↓ -0.050 [-0.080, -0.020] p=0.003 worse"): no user text
            change = f" {fmt_change(comparison_of(results, g['metric']), u, short=False, lang=lang) or '—'} |" \
                if compared else ""
            mode = f" ({_cell(g['mode'].replace('_', '-'))})" if g.get("mode") not in (None, "point") else ""
            status = icon.get(g["status"], "") + (msg(lang, f"st_{g['status']}") if g["status"] in icon
                                                  else _cell(g["status"]))
            if waits_for_baseline(g):
                status = "⏳ " + msg(lang, "st_waiting")
            target = f" {_cell(target_text(g, lang)) or '—'} |" if targeted else ""
            out.append(f"| {_code(g['metric'])} | {fmt_value(g['value'], u, lang=lang)} | "
                       f"{fmt_ci(ci, u, lang=lang) if g['value'] is not None else '—'} "
                       f"| {_cell(g['op'])} {g['threshold']:g}{mode} | {status} |{target}{change}")
        out.append("")
    out += [f"| {h['h_metric']} | {h['h_value']} | {h['h_ci']} | n | {h['h_unscored']} |", "|---|---|---|---|---|"]
    for name, e in results["summary"].items():
        u = unit.get(name)
        out.append(f"| {_code(name)} | {fmt_value(e['value'], u, lang=lang)} | {fmt_ci(e['ci'], u, lang=lang)} | {e['n']} "
                   f"| {_cell(fmt_unscored(e, lang=lang))} |")
    if (line := taxonomy_line(results, lang)) is not None:
        out += ["", _cell(line)]
    spend = usage_rows(results, lang=lang)
    if spend:
        out += ["", f"{msg(lang, 'judge_spend')} ({_cell((results.get('usage') or {}).get('model') or '')}):", "",
                f"| {h['h_what']} | {h['h_calls']} | {h['h_cached']} | {h['h_tokens']} | {h['h_cost']} |",
                "|---|---|---|---|---|"]
        out += [f"| {_cell(w)} | {c} | {hit} | {t:,} | {'—' if usd is None else f'${usd:.4f}'} |"
                for w, c, hit, t, usd in spend]
    if (where := shards_note(results, lang, text=_cell, code=_code)) is not None:  # a --shards run: rows there
        out += ["", f"📦 {where[0]} {where[1]}"]
    failing = [g for g in gates if g["status"] in ("fail", "unscored")]
    if failing:
        out += ["", f"<details><summary>{msg(lang, 'why_failed')}</summary>", ""]
        out += [f"- {_cell(gate_reason(g, results, lang))}" for g in failing]
        out += ["", "</details>"]
    return "\n".join(out) + "\n"


def _diagnosis(results: Mapping[str, Any], lang: str) -> list[str]:
    diags = results.get("diagnosis") or []
    if not diags:
        return []
    icon = {"critical": "🛑", "high": "⚠️", "medium": "🔸"}
    out = [f"### {diagnosis_heading(results, lang=lang)}", ""]
    for i, d in enumerate(diags, 1):
        out.append(f"{i}. {icon.get(d['severity'], '')} **{_cell(d['title'])}** — {_cell(d['text'])}")
    return out + [""]


def _alarms(results: Mapping[str, Any], lang: str) -> list[str]:
    alarms = alarm_lines(results, lang=lang)
    if not alarms:
        return []
    out = [f"### {msg(lang, 'hidden_breakage')}", ""] + [f"- 🚨 {_cell(t)}" for t in alarms]
    if note := too_small_note(results, lang=lang):
        out.append(f"- {_cell(note)}")
    return out + [""]
