"""HTML parts for the statistics that decide: "What to fix" (diagnosis), the hidden-breakage banner and
the comparison with a baseline run. Pure functions over the results document, like :mod:`.html`."""

from __future__ import annotations

from typing import Any, Mapping

from . import svg
from .common import (alarm_lines, arrow, baseline_line, comparison_of, diagnosis_heading, too_small_note,
                     verdict_word)
from .messages import msg, plural, severity_word, unit_label
from .html_doc import _Doc, _e, _num, _section

_SEVERITY_CLASS = {"critical": "bad", "high": "warn", "medium": "note"}


def diagnosis_section(doc: _Doc) -> str:
    """The "What to fix" list, most severe first; nothing when the document has no diagnosis."""
    diags = [d for d in doc.r.get("diagnosis") or [] if isinstance(d, Mapping)]
    if not diags:
        return ""
    items = []
    for d in diags:
        sev = str(d.get("severity") or "")
        items.append(
            f'<li class="diag diag-{_SEVERITY_CLASS.get(sev, "note")}"><div class="diag-head">'
            f'<span class="diag-sev">{_e(severity_word(sev, doc.lang))}</span> <strong>{_e(d.get("title"))}</strong> '
            f'<code class="muted">{_e(d.get("code"))}</code></div><p>{_e(d.get("text"))}</p>'
            f'{_evidence(d.get("evidence"), doc.lang)}</li>'
        )
    heading = diagnosis_heading(doc.r, lang=doc.lang)
    return _section("diagnosis", _e(heading), "", f'<ol class="diagnosis">{"".join(items)}</ol>')


def _evidence(evidence: Any, lang: str = "en") -> str:
    if not isinstance(evidence, Mapping) or not evidence:
        return ""
    parts = []
    for key, v in evidence.items():
        if isinstance(v, Mapping) and _num(v.get("value")) is not None:
            unit = unit_label(v.get("unit"), lang)
            lo, hi = _num(v.get("ci_low")), _num(v.get("ci_high"))
            ci = f" [{svg.fmt_number(lo)} – {svg.fmt_number(hi, unit)}]" if lo is not None and hi is not None else ""
            bar = f" · {msg(lang, 'd_bar')} {_e(svg.op_symbol(str(v.get('op', ''))))} {_e(svg.fmt_number(_num(v.get('threshold')), unit))}" \
                if v.get("threshold") is not None else ""
            parts.append(f"<code>{_e(key)}</code> {_e(svg.fmt_number(_num(v.get('value')), unit))}{_e(ci)}{bar}")
        elif isinstance(v, Mapping) and "answered" in v:
            parts.append(f"<code>{_e(key)}</code> {_e(msg(lang, 'd_answered', answered=v.get('answered'), n=v.get('n')))}")
    return f'<div class="evidence">{" · ".join(parts)}</div>' if parts else ""


def alarms_section(doc: _Doc) -> str:
    """A red banner with every hidden-breakage alarm; nothing when no slice is alarmed."""
    alarms = [a for a in doc.r.get("alarms") or [] if isinstance(a, Mapping)]
    if not alarms:
        return ""
    texts = alarm_lines(doc.r, lang=doc.lang)
    items = "".join(f'<li><a href="#slices">{_e(a.get("slice"))} · {_e(a.get("metric"))}</a>: {_e(text)}</li>'
                    for a, text in zip(alarms, texts))
    note = too_small_note(doc.r, lang=doc.lang)
    policy = doc.r.get("slice_checks") or {}
    intro = _e(msg(doc.lang, "breakage_intro", n_tests=policy.get("n_tests", "?"), alpha=policy.get("alpha", 0.05)))
    body = f'<div class="alarm-banner" role="alert"><ul>{items}</ul></div>'
    if note:
        body += f'<p class="muted">{_e(note)}</p>'
    return _section("breakage", msg(doc.lang, "hidden_breakage"), intro, body)


def slice_status(doc: _Doc, tag: str, metric: str) -> str | None:
    """``alarm`` or ``small`` from the slice checks of the document, ``None`` when it has none."""
    checks = ((doc.slices.get(tag) or {}).get("checks") or {}) if isinstance(doc.slices.get(tag), Mapping) else {}
    status = (checks.get(metric) or {}).get("status")
    return {"alarm": "alarm", "too small": "small"}.get(str(status))


def has_comparison(doc: _Doc) -> bool:
    return bool(doc.r.get("comparison"))


def comparison_intro(doc: _Doc) -> str:
    line = baseline_line(doc.r, lang=doc.lang)
    return _e(line) if line else ""


def comparison_cell(doc: _Doc, metric: str) -> str:
    """``↑ +0.021 [-0.004, +0.046] p = 0.09`` and the verdict, coloured by merit, not by sign."""
    entry = comparison_of(doc.r, metric)
    if not entry:
        return '<td class="muted">—</td>'
    d = _num(entry.get("difference"))
    verdict = str(entry.get("verdict") or "")
    word = verdict_word(verdict, doc.lang)
    if d is None:
        return f'<td class="muted">{_e(word)}</td>'
    unit = doc.stored_unit(metric)
    ci = entry.get("ci") or {}
    lo, hi = _num(ci.get("low")), _num(ci.get("high"))
    dec = 0 if unit == "ms" else 3
    ci_txt = f" [{lo:+.{dec}f}, {hi:+.{dec}f}]" if lo is not None and hi is not None else ""
    p = _num(entry.get("p_adjusted")) if entry.get("p_adjusted") is not None else _num(entry.get("p_value"))
    p_txt = f" · p = {p:.2g}" if p is not None else ""
    cls = {"better": "change-better", "worse": "change-worse"}.get(verdict, "change-same")
    return (f'<td class="num {cls}" title="{_e(_change_title(doc, metric, entry))}"><span class="arrow">'
            f'{arrow(entry)}</span> {d:+.{dec}f}{_e(ci_txt)}{_e(p_txt)}<div class="sub">{_e(word)}</div></td>')


def _change_title(doc: _Doc, metric: str, entry: Mapping[str, Any]) -> str:
    """The comparison's own sentence in English; in another language the values it compares (the
    sentence's test names are English)."""
    if doc.lang == "en":
        return str(entry.get("reason") or "")
    n = entry.get("n")
    return msg(doc.lang, "vd_title", metric=metric, base=doc.fmt(metric, entry.get("base")),
               new=doc.fmt(metric, entry.get("new")),
               pairs=plural(doc.lang, n, "paired samples") if isinstance(n, int) else "—")
