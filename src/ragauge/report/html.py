"""The self-contained HTML report: one file, inline CSS and SVG, no network, readable offline and on paper.

:func:`render_html` is a pure function over a ``ragauge.results/1`` document (see
``docs/results-schema.md``). Every string that comes from the data (questions, answers, ids, tags,
reasons, artifacts) is untrusted and escaped. A Content-Security-Policy meta tag forbids every external
load, so a stray URL in the data can never make the browser fetch anything.

Sections: header and verdict, what to fix (diagnosis), hidden breakage (slice alarms), gates (with the
change against a baseline run, when one was given), metric summary, judge, score distributions, slices
(alarmed slices highlighted), latency, samples, footer. Optional parts of the document (gates, slices,
samples, CIs, values) may be missing; the report says so instead of failing.

This module is the page shell (head, header, footer, assembly); the sections live beside it:
:mod:`.html_doc` (the document read defensively, shared cell helpers), :mod:`.html_extra` (diagnosis,
hidden breakage, comparison with a baseline), :mod:`.html_tables` (gates, metric summary),
:mod:`.html_judge`, :mod:`.html_charts` (distributions, slices, latency), :mod:`.html_samples`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from . import html_extra
from .html_charts import _distributions, _latency, _slices
from .html_doc import _check_schema, _Doc, _e, _num, _str
from .html_judge import judge_section
from .html_samples import _samples
from .html_tables import _gates, _summary
from .messages import MESSAGES, msg, plural
from .run_notes import app_text, golden_warning, targets_line

_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"


def render_html(results: Mapping[str, Any]) -> str:
    """Render a results document as one standalone HTML page (UTF-8 text).

    Raises :class:`~ragauge.errors.InputError` when ``schema`` is not ``ragauge.results/1``; any other
    missing optional key is shown as missing (``—``, "n too small", "no gates") rather than failing.
    """
    _check_schema(results)
    doc = _Doc(results)
    source = _str((results.get("source") or {}).get("path")) or "results"
    body = [
        _header(doc),
        html_extra.diagnosis_section(doc),
        html_extra.alarms_section(doc),
        _gates(doc),
        _summary(doc),
        judge_section(doc),
        _distributions(doc),
        _slices(doc),
        _latency(doc),
        _samples(doc),
        _footer(doc),
    ]
    return (
        f'<!DOCTYPE html>\n<html lang="{doc.lang}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="ragauge {_e(results.get("ragauge_version", ""))}">\n'
        f"<title>ragauge report — {_e(source)}</title>\n<style>{_asset('report.css')}</style>\n</head>\n<body>\n"
        '<main class="page">\n' + "\n".join(p for p in body if p) + "\n</main>\n"
        f"<script>{_asset('report.js')}</script>\n</body>\n</html>\n"
    )


def _header(doc: _Doc) -> str:
    r = doc.r
    source = r.get("source") or {}
    profile = r.get("profile") or {}
    n = source.get("n_samples", len(doc.samples) if doc.samples else None)
    # Skipped gates (metric not evaluated in this run) are shown but do not count, as in gates.check.
    counted = [g for g in doc.gates if g.get("status") != "skipped"]
    not_passed = [g for g in counted if g.get("status") != "pass"]
    passed = r.get("passed") if isinstance(r.get("passed"), bool) else not not_passed
    skipped = len(doc.gates) - len(counted)
    lang = doc.lang
    if not counted:
        detail = msg(lang, "v_no_gates") + (f" ({msg(lang, 'v_skipped', n=skipped)})" if skipped else "")
    elif not_passed:
        failed = sum(1 for g in not_passed if g.get("status") == "fail")
        unscored = len(not_passed) - failed
        parts = [msg(lang, "v_failed", n=failed)] + ([msg(lang, "v_unscored", n=unscored)] if unscored else [])
        detail = msg(lang, "v_not_passed", k=len(not_passed), gates=plural(lang, len(counted), "gates"), total=len(counted),
                     parts=", ".join(parts))
    else:
        detail = msg(lang, "v_all_passed", gates=plural(lang, len(counted), "gates"))
    if counted and skipped:
        detail += msg(lang, "v_skipped_metric", n=skipped)
    verdict = "PASS" if passed else "FAIL"
    meta = [
        (msg(lang, "m_source"), _e(source.get("path")) or "—"),
        (msg(lang, "m_samples"), _e(n) if n is not None else "—"),
        (msg(lang, "m_date"), _e(_date(r.get("created_at"), lang))),
        ("ragauge", _e(r.get("ragauge_version")) or "—"),
        (msg(lang, "profile"), _e(profile.get("name")) or "—"),
    ] + ([(msg(lang, "m_app"), _e(app))] if (app := app_text(r)) is not None else [])
    dl = "".join(f"<div><dt>{k}</dt><dd>{v}</dd></div>" for k, v in meta)
    description = profile.get("description_ru") if lang == "ru" and profile.get("description_ru") else profile.get("description")
    desc = f'<p class="profile-desc">{_e(description)}</p>' if description else ""
    extra = ([("diagnosis", msg(lang, "what_to_fix"))] if r.get("diagnosis") else []) + \
        ([("breakage", msg(lang, "hidden_breakage"))] if r.get("alarms") else [])
    nav = "".join(f'<a href="#{a}">{_e(t)}</a>' for a, t in extra + [
        (a, msg(lang, f"nav_{k}")) for a, k in (("gates", "gates"), ("summary", "metrics"),
                                               ("distributions", "distributions"), ("slices", "slices"),
                                               ("latency", "latency"), ("samples", "samples"))])
    return (
        f'<header class="masthead">\n<div class="brand">{msg(lang, "html_brand")}</div>\n'
        f"<h1>{_e(source.get('path')) or msg(lang, 'html_results')}</h1>\n<dl class=\"meta\">{dl}</dl>\n{desc}\n"
        f'<div class="verdict verdict-{verdict.lower()}" role="status"><strong>{verdict}</strong>'
        f"<span>{_e(detail)}</span></div>\n{_run_notes(doc)}<nav>{nav}</nav>\n</header>"
    )


def _run_notes(doc: _Doc) -> str:
    """The production targets' line and the unreviewed golden cases' warning, under the verdict."""
    out = ""
    if (line := targets_line(doc.r, doc.lang)) is not None:
        missed = any((g.get("target") or {}).get("status") != "met" for g in doc.gates if g.get("target"))
        out += (f'<p class="targets targets-{"missed" if missed else "met"}">{_e(line)} '
                f'<span class="muted">{_e(msg(doc.lang, "targets_note"))}</span></p>\n')
    if (warning := golden_warning(doc.r, doc.lang)) is not None:
        out += f'<p class="golden-warning" role="alert">⚠ {_e(warning)}</p>\n'
    return out


def _date(value: Any, lang: str = "en") -> str:
    if not value:
        return "—"
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if lang == "ru":  # the month by number: %b follows the C locale, English
        return f"{when.day:02d}.{when.month:02d}.{when.year}, {when:%H:%M} {when:%Z}".strip().rstrip(",")
    try:
        return when.strftime("%d %b %Y, %H:%M %Z").strip().rstrip(",")
    except ValueError:
        return str(value)


def _footer(doc: _Doc) -> str:
    r, lang = doc.r, doc.lang
    ci = r.get("ci") or {}
    level = _num(ci.get("level"))
    ci_text = ", ".join(x for x in [
        _e(msg(lang, f"ci_{ci.get('method')}") if f"ci_{ci.get('method')}" in MESSAGES else ci.get("method")) or None,
        msg(lang, "f_level", level=f"{level:.0%}") if level is not None else None,
        msg(lang, "f_resamples", n=_e(ci.get("n_resamples"))) if ci.get("n_resamples") is not None else None] if x) or "—"
    return (
        f'<footer><span>{msg(lang, "f_schema")} <code>{_e(r.get("schema"))}</code></span><span>{msg(lang, "f_seed")} '
        f'<code>{_e(r.get("seed", "—"))}</code></span><span>{msg(lang, "f_ci")} {ci_text}</span><span>'
        f'{msg(lang, "f_generated", version=_e(r.get("ragauge_version", "")))}</span></footer>'
    )


def _asset(name: str) -> str:
    # Inlined into the page: the report makes no requests. The JS only sorts/filters the samples table.
    from importlib import resources

    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


__all__ = ["render_html"]
