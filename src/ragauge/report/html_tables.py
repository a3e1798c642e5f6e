"""HTML sections of the run's own numbers: the quality-gates table (with the change against a baseline
run, when one was given) and the metric summary table."""

from __future__ import annotations

from . import svg
from .html_doc import _Doc, _badge, _ci_text, _e, _section, _str, _table, _unscored_text
from .html_extra import comparison_cell, comparison_intro, has_comparison


def _gates(doc: _Doc) -> str:
    if not doc.gates:
        return _section("gates", "Quality gates", "", '<p class="empty">No gates in this profile.</p>')
    compared = has_comparison(doc)
    rows = []
    for g in doc.gates:
        name = _str(g.get("metric"))
        rows.append(
            f'<tr class="gate-{_e(g.get("status"))}"><td class="metric">{_e(name)}</td>'
            f'<td class="num">{_e(doc.fmt(name, g.get("value")))}</td>'
            f'<td class="num">{_ci_text(g.get("ci_low"), g.get("ci_high"), doc, name, g.get("value"))}</td>'
            f'<td class="num">{_e(svg.op_symbol(_str(g.get("op"))))} {_e(doc.fmt(name, g.get("threshold")))}</td>'
            f'<td>{_e(g.get("mode")) or "—"}</td><td>{_badge(g.get("status"))}</td>'
            + (comparison_cell(doc, name) if compared else "")
            + f'<td class="reason">{_e(g.get("reason"))}</td></tr>'
        )
    head = "<tr><th>Metric</th><th>Value</th><th>95% CI</th><th>Threshold</th><th>Mode</th><th>Status</th>" \
           + ("<th>vs baseline</th>" if compared else "") + "<th>Reason</th></tr>"
    return _section("gates", "Quality gates", comparison_intro(doc) if compared else "",
                    _table(head, rows, "gates-table"))



def _summary(doc: _Doc) -> str:
    if not doc.metrics:
        return _section("summary", "Metrics", "", '<p class="empty">No metrics in this document.</p>')
    rows = []
    for name in doc.metrics:
        entry = doc.summary.get(name) or {}
        ci = entry.get("ci") or {}
        spec = doc.specs.get(name, {})
        direction = "higher is better" if doc.higher_is_better(name) else "lower is better"
        gated = ' <span class="tag">gated</span>' if doc.gate(name) else ""
        rows.append(
            f'<tr><td class="metric" title="{_e(spec.get("description"))}">{_e(name)}{gated}'
            f'<div class="sub">{_e(direction)}</div></td><td>{_e(doc.aggregate(name))}</td>'
            f'<td class="num">{_e(doc.fmt(name, entry.get("value")))}</td>'
            f'<td class="num">{_ci_text(ci.get("low"), ci.get("high"), doc, name, entry.get("value"))}</td>'
            f'<td class="num">{_e(entry.get("n", "—"))}</td><td>{_unscored_text(entry)}</td>'
            f'<td class="desc">{_e(spec.get("description"))}</td></tr>'
        )
    head = "<tr><th>Metric</th><th>Aggregate</th><th>Value</th><th>95% CI</th><th>n</th><th>Unscored</th>" \
           "<th>Description</th></tr>"
    return _section("summary", "Metrics", "", _table(head, rows, "summary-table"))

