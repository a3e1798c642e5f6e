"""HTML sections of the run's own numbers: the quality-gates table (with the change against a baseline
run, when one was given) and the metric summary table."""

from __future__ import annotations

from typing import Any, Mapping

from ..gates.check import waits_for_baseline
from . import svg
from .html_doc import _Doc, _badge, _ci_text, _e, _section, _str, _table, _unscored_text
from .html_extra import comparison_cell, comparison_intro, has_comparison
from .gate_text import gate_reason
from .messages import MESSAGES, msg
from .metric_text import metric_description
from .run_notes import target_text, taxonomy_line


def _word(doc: _Doc, kind: str, value: object) -> str:
    """A gate mode or an aggregate in the page's language; an unknown one (``p95``) as stored."""
    key = f"{kind}_{value}"
    return msg(doc.lang, key) if key in MESSAGES else _str(value)


def _gates(doc: _Doc) -> str:
    if not doc.gates:
        return _section("gates", msg(doc.lang, "sec_gates"), "", f'<p class="empty">{msg(doc.lang, "no_gates_profile")}</p>')
    compared = has_comparison(doc)
    targeted = any(g.get("target") for g in doc.gates)
    rows = []
    for g in doc.gates:
        name = _str(g.get("metric"))
        rows.append(
            f'<tr class="gate-{_e(g.get("status"))}"><td class="metric">{_e(name).replace("|", "|<wbr>")}</td>'
            f'<td class="num">{_e(doc.fmt(name, g.get("value")))}</td>'
            f'<td class="num">{_ci_text(g.get("ci_low"), g.get("ci_high"), doc, name, g.get("value"))}</td>'
            f'<td class="num">{_e(svg.op_symbol(_str(g.get("op"))))} {_e(doc.fmt(name, g.get("threshold")))}</td>'
            f'<td>{_e(_word(doc, "mode", g.get("mode"))) or "—"}</td><td>{_badge(g.get("status"), doc.lang, waiting=waits_for_baseline(g))}</td>'
            + (_target_cell(doc, g) if targeted else "")
            + (comparison_cell(doc, name) if compared else "")
            + f'<td class="reason">{_e(gate_reason(g, doc.r, doc.lang))}</td></tr>'
        )
    head = "<tr>" + "".join(f"<th>{msg(doc.lang, k)}</th>" for k in ("H_metric", "H_value", "h_ci", "H_threshold", "H_mode",
                                                                     "H_status")) \
           + (f"<th>{msg(doc.lang, 'H_target')}</th>" if targeted else "") \
           + (f"<th>{msg(doc.lang, 'h_vs_baseline')}</th>" if compared else "") + f"<th>{msg(doc.lang, 'H_reason')}</th></tr>"
    return _section("gates", msg(doc.lang, "sec_gates"), comparison_intro(doc) if compared else "",
                    _table(head, rows, "gates-table"))



def _target_cell(doc: _Doc, g: Mapping[str, Any]) -> str:
    """The production target beside the gate: ``≥ 0.95`` over ``missed`` (shown, never gating)."""
    text = target_text(g, doc.lang, op=svg.op_symbol)
    if not text:
        return '<td class="num muted">—</td>'
    status = _str((g.get("target") or {}).get("status"))
    bar, _, word = text.partition(" · ")
    cls = {"met": "target-met", "missed": "target-missed"}.get(status, "muted")
    return f'<td class="num target {cls}">{_e(bar)}<div class="sub">{_e(word)}</div></td>'


def _summary(doc: _Doc) -> str:
    if not doc.metrics:
        return _section("summary", msg(doc.lang, "nav_metrics"), "", f'<p class="empty">{msg(doc.lang, "no_metrics")}</p>')
    rows = []
    for name in doc.metrics:
        entry = doc.summary.get(name) or {}
        ci = entry.get("ci") or {}
        spec = doc.specs.get(name, {})
        description = metric_description(spec, doc.lang)
        direction = msg(doc.lang, "b_higher" if doc.higher_is_better(name) else "b_lower")
        gated = f' <span class="tag">{msg(doc.lang, "b_gated")}</span>' if doc.gate(name) else ""
        rows.append(
            f'<tr><td class="metric" title="{_e(description)}">{_e(name)}{gated}'
            f'<div class="sub">{_e(direction)}</div></td><td>{_e(_word(doc, "agg", doc.aggregate(name)))}</td>'
            f'<td class="num">{_e(doc.fmt(name, entry.get("value")))}</td>'
            f'<td class="num">{_ci_text(ci.get("low"), ci.get("high"), doc, name, entry.get("value"))}</td>'
            f'<td class="num">{_e(entry.get("n", "—"))}</td><td>{_unscored_text(entry, lang=doc.lang)}</td>'
            f'<td class="desc">{_e(description)}</td></tr>'
        )
    head = "<tr>" + "".join(f"<th>{msg(doc.lang, k)}</th>" for k in ("H_metric", "H_aggregate", "H_value", "h_ci")) \
           + "<th>n</th>" + "".join(f"<th>{msg(doc.lang, k)}</th>" for k in ("H_unscored", "H_description")) + "</tr>"
    taxonomy = taxonomy_line(doc.r, doc.lang)
    after = f'<p class="taxonomy-counts">{_e(taxonomy)}</p>' if taxonomy else ""
    return _section("summary", msg(doc.lang, "nav_metrics"), "", _table(head, rows, "summary-table") + after)

