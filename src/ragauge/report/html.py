"""The self-contained HTML report: one file, inline CSS and SVG, no network, readable offline and on paper.

:func:`render_html` is a pure function over a ``ragauge.results/1`` document (see
``docs/results-schema.md``). Every string that comes from the data (questions, answers, ids, tags,
reasons, artifacts) is untrusted and escaped. A Content-Security-Policy meta tag forbids every external
load, so a stray URL in the data can never make the browser fetch anything.

Sections: header and verdict, what to fix (diagnosis), hidden breakage (slice alarms), gates (with the
change against a baseline run, when one was given), metric summary, score distributions, slices (alarmed
slices highlighted), latency, samples, footer (the parts of the statistics issue live in :mod:`.html_extra`). Optional parts of the document (gates, slices, samples, CIs, values) may be missing; the report
says so instead of failing.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from html import escape
from typing import Any, Iterable, Mapping

from ..errors import InputError
from . import svg

_SCHEMA = "ragauge.results/"
_PERCENTILE = re.compile(r"p(\d+(?:\.\d+)?)")
_SMALL_SLICE = 5
_QUESTION_CHARS = 110
_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
_SAMPLE_KEYS = {"id", "tags", "question", "answer", "reference", "scores", "unscored", "artifacts"}
_VERDICT_CLASS = {"supported": "ok", "unsupported": "warn", "contradicted": "bad"}


def render_html(results: Mapping[str, Any]) -> str:
    """Render a results document as one standalone HTML page (UTF-8 text).

    Raises :class:`~ragauge.errors.InputError` when ``schema`` is not ``ragauge.results/1``; any other
    missing optional key is shown as missing (``—``, "n too small", "no gates") rather than failing.
    """
    _check_schema(results)
    from . import html_extra

    doc = _Doc(results)
    source = _str((results.get("source") or {}).get("path")) or "results"
    body = [
        _header(doc),
        html_extra.diagnosis_section(doc),
        html_extra.alarms_section(doc),
        _gates(doc),
        _summary(doc),
        html_extra.judge_section(doc),
        _distributions(doc),
        _slices(doc),
        _latency(doc),
        _samples(doc),
        _footer(doc),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="ragauge {_e(results.get("ragauge_version", ""))}">\n'
        f"<title>ragauge report — {_e(source)}</title>\n<style>{_asset('report.css')}</style>\n</head>\n<body>\n"
        '<main class="page">\n' + "\n".join(p for p in body if p) + "\n</main>\n"
        f"<script>{_asset('report.js')}</script>\n</body>\n</html>\n"
    )


# --- the document, read defensively ---------------------------------------------------------------


def _check_schema(results: Mapping[str, Any]) -> None:
    schema = results.get("schema") if isinstance(results, Mapping) else None
    if not isinstance(schema, str) or not schema.startswith(_SCHEMA):
        raise InputError("not a ragauge results document", field="schema", value=schema,
                         hint="render the results.json written by `ragauge eval` (schema ragauge.results/1)")
    if schema[len(_SCHEMA):].split(".")[0] != "1":
        raise InputError("unknown major version of the results schema", field="schema", value=schema,
                         hint="this ragauge reads ragauge.results/1; upgrade ragauge to render this file")


def _num(x: Any) -> float | None:
    """A finite number as float, anything else (None, bool, NaN, text) as None."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return float(x)


def _str(x: Any) -> str:
    return "" if x is None else str(x)


def _e(x: Any) -> str:
    return escape(_str(x), quote=True)


class _Doc:
    """Lookups over the results document; every accessor tolerates missing optional keys."""

    def __init__(self, results: Mapping[str, Any]) -> None:
        self.r = results
        self.specs = {s["name"]: s for s in results.get("metrics") or [] if isinstance(s, Mapping) and "name" in s}
        self.summary: Mapping[str, Any] = results.get("summary") or {}
        self.gates = [g for g in results.get("gates") or [] if isinstance(g, Mapping)]
        self.samples = [s for s in results.get("samples") or [] if isinstance(s, Mapping)]
        self.slices: Mapping[str, Any] = results.get("slices") or {}
        self.metrics = list(self.specs) + [n for n in self.summary if n not in self.specs]

    def aggregate(self, name: str) -> str:
        return _str((self.summary.get(name) or {}).get("aggregate") or self.specs.get(name, {}).get("aggregate")
                    or "mean")

    def percentile(self, name: str) -> float | None:
        m = _PERCENTILE.fullmatch(self.aggregate(name))
        return float(m.group(1)) if m else None

    def unit(self, name: str) -> str | None:
        return self.specs.get(name, {}).get("unit") or None

    def value_range(self, name: str) -> tuple[float, float] | None:
        rng = self.specs.get(name, {}).get("range")
        if isinstance(rng, (list, tuple)) and len(rng) == 2:
            lo, hi = _num(rng[0]), _num(rng[1])
            if lo is not None and hi is not None and hi > lo:
                return lo, hi
        return None

    def higher_is_better(self, name: str) -> bool:
        return self.specs.get(name, {}).get("higher_is_better", True) is not False

    def gate(self, name: str) -> Mapping[str, Any] | None:
        return next((g for g in self.gates if g.get("metric") == name), None)

    def threshold(self, name: str, label: str = "") -> svg.Threshold | None:
        g = self.gate(name)
        value = _num(g.get("threshold")) if g else None
        return svg.Threshold(_str(g.get("op")), value, label) if g and value is not None else None

    def fmt(self, name: str, value: Any) -> str:
        return svg.fmt_number(_num(value), self.unit(name))


def _ci_text(low: Any, high: Any, doc: _Doc, name: str, value: Any) -> str:
    """``0.61 – 0.78``; "—" when there is no value at all, "n too small" when only the CI is missing."""
    lo, hi = _num(low), _num(high)
    if _num(value) is None:
        return "—"
    if lo is None or hi is None:
        return '<span class="muted">n too small</span>'
    unit = doc.unit(name)
    return _e(f"{svg.fmt_number(lo)} – {svg.fmt_number(hi, unit)}")


def _unscored_text(entry: Mapping[str, Any], zero: str = "0") -> str:
    n = int(_num(entry.get("n_unscored")) or 0)
    if not n:
        return f'<span class="muted">{zero}</span>'
    reasons = entry.get("unscored_reasons") or {}
    items = [(k, v) for k, v in reasons.items()] if isinstance(reasons, Mapping) else []
    if len(items) == 1:
        detail = _e(items[0][0])
    else:
        detail = ", ".join(f"{_e(k)} ({_e(v)})" for k, v in items) or "reason not recorded"
    return f'<span class="unscored-note">{n} unscored: {detail}</span>'


def _badge(status: Any) -> str:
    s = _str(status).lower() or "unknown"
    cls = s if s in {"pass", "fail", "unscored", "skipped"} else "unknown"
    return f'<span class="badge badge-{cls}">{_e(s)}</span>'


def _passes(value: float, op: str, threshold: float) -> bool:
    return {">=": value >= threshold, ">": value > threshold, "<=": value <= threshold,
            "<": value < threshold, "==": value == threshold}.get(op, False)


def _section(anchor: str, title: str, intro: str, content: str) -> str:
    intro_html = f'<p class="intro">{intro}</p>\n' if intro else ""
    return f'<section id="{anchor}">\n<h2>{title}</h2>\n{intro_html}{content}\n</section>'


# --- sections -------------------------------------------------------------------------------------


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
    if not counted:
        detail = "no gates checked" + (f" ({skipped} skipped)" if skipped else "")
    elif not_passed:
        failed = sum(1 for g in not_passed if g.get("status") == "fail")
        unscored = len(not_passed) - failed
        parts = [f"{failed} failed"] + ([f"{unscored} unscored"] if unscored else [])
        detail = f"{len(not_passed)} of {len(counted)} gates did not pass ({', '.join(parts)})"
    else:
        detail = f"all {len(counted)} gates passed"
    if counted and skipped:
        detail += f"; {skipped} skipped (metric not evaluated)"
    verdict = "PASS" if passed else "FAIL"
    meta = [
        ("Data source", _e(source.get("path")) or "—"),
        ("Samples", _e(n) if n is not None else "—"),
        ("Date", _e(_date(r.get("created_at")))),
        ("ragauge", _e(r.get("ragauge_version")) or "—"),
        ("Profile", _e(profile.get("name")) or "—"),
    ]
    dl = "".join(f"<div><dt>{k}</dt><dd>{v}</dd></div>" for k, v in meta)
    desc = f'<p class="profile-desc">{_e(profile.get("description"))}</p>' if profile.get("description") else ""
    extra = ([("diagnosis", "What to fix")] if r.get("diagnosis") else []) + \
        ([("breakage", "Hidden breakage")] if r.get("alarms") else [])
    nav = "".join(f'<a href="#{a}">{t}</a>' for a, t in extra + [
        ("gates", "Gates"), ("summary", "Metrics"), ("distributions", "Distributions"), ("slices", "Slices"),
        ("latency", "Latency"), ("samples", "Samples")])
    return (
        '<header class="masthead">\n<div class="brand">ragauge · RAG evaluation report</div>\n'
        f"<h1>{_e(source.get('path')) or 'Evaluation results'}</h1>\n<dl class=\"meta\">{dl}</dl>\n{desc}\n"
        f'<div class="verdict verdict-{verdict.lower()}" role="status"><strong>{verdict}</strong>'
        f"<span>{_e(detail)}</span></div>\n<nav>{nav}</nav>\n</header>"
    )


def _date(value: Any) -> str:
    if not value:
        return "—"
    try:
        return datetime.fromisoformat(str(value)).strftime("%d %b %Y, %H:%M %Z").strip().rstrip(",")
    except ValueError:
        return str(value)


def _gates(doc: _Doc) -> str:
    from .html_extra import comparison_cell, comparison_intro, has_comparison

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


def _table(head: str, rows: Iterable[str], cls: str) -> str:
    return f'<div class="table-wrap"><table class="{cls}">\n<thead>{head}</thead>\n<tbody>\n' \
           + "\n".join(rows) + "\n</tbody>\n</table></div>"


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


def _scores(doc: _Doc, name: str) -> list[float]:
    return [v for s in doc.samples if (v := _num((s.get("scores") or {}).get(name))) is not None]


def _distributions(doc: _Doc) -> str:
    means = [m for m in doc.metrics
             if doc.percentile(m) is None and any(m in (s.get("scores") or {}) for s in doc.samples)]
    if not means:
        return _section("distributions", "Score distributions", "",
                        '<p class="empty">No per-sample scores in this document.</p>')
    cards = []
    for name in means:
        values = _scores(doc, name)
        entry = doc.summary.get(name) or {}
        caption = f'n = {len(values)} scored · {_unscored_text(entry, "none unscored")}'
        if not values:
            chart = '<p class="empty">Every sample is unscored: no distribution to draw.</p>'
        else:
            lo, hi = doc.value_range(name) or (min(values), max(values) if max(values) > min(values)
                                                else min(values) + 1.0)
            chart = svg.histogram(values, title=f"Distribution of {name}", lo=lo, hi=hi,
                                  threshold=doc.threshold(name), mean=_num(entry.get("value")))
        cards.append(f'<figure class="card"><figcaption><strong>{_e(name)}</strong></figcaption>{chart}'
                     f'<div class="caption">{caption}</div></figure>')
    intro = "Per-sample scores in 10 equal bins; the dashed line is the gate threshold, the grey line the mean."
    return _section("distributions", "Score distributions", intro, f'<div class="grid">{"".join(cards)}</div>')


def _slices(doc: _Doc) -> str:
    from .html_extra import slice_status

    gated = list(dict.fromkeys(_str(g.get("metric")) for g in doc.gates
                               if g.get("status") != "skipped" and g.get("metric") in doc.summary))
    if not doc.slices or not gated:
        why = "the document has no slices" if not doc.slices else "no metric has a gate"
        return _section("slices", "Slices", "", f'<p class="empty">No slice charts: {why}.</p>')
    figures = []
    for i, name in enumerate(gated):
        th = doc.threshold(name)
        if _num((doc.summary.get(name) or {}).get("value")) is None:
            figures.append(f'<figure class="card wide"><figcaption><strong>{_e(name)}</strong> by slice</figcaption>'
                           f'<p class="empty">No value: every sample is unscored '
                           f'({_unscored_text(doc.summary.get(name) or {})}).</p></figure>')
            continue
        entries = [("All samples", doc.summary.get(name) or {})] + [
            (_str(tag), ((sl or {}).get("summary") or {}).get(name) or {}) for tag, sl in doc.slices.items()]
        bars = []
        for j, (label, e) in enumerate(entries):
            value, n = _num(e.get("value")), e.get("n")
            ci = e.get("ci") or {}
            checked = slice_status(doc, label, name) if j else None  # entry 0 is "All samples"
            if value is None:
                status = "none"
            elif checked is not None:
                status = checked
            elif isinstance(n, int) and n < _SMALL_SLICE:
                status = "small"
            elif th is not None:
                status = "pass" if _passes(value, th.op, th.value) else "fail"
            else:
                status = "none"
            bars.append(svg.Bar(label, value, _num(ci.get("low")), _num(ci.get("high")), n, status))
        known = [v for b in bars for v in (b.value, b.high) if v is not None] + ([th.value] if th else [])
        lo, hi = doc.value_range(name) or (0.0, svg.nice_ticks(0.0, max(known + [1e-9]) * 1.08, 5)[-1])
        chart = svg.slice_bars(bars, title=f"{name} by slice", axis=name, lo=lo, hi=hi, threshold=th,
                               unit=doc.unit(name), chart_id=f"slice{i}")
        figures.append(f'<figure class="card wide"><figcaption><strong>{_e(name)}</strong> by slice</figcaption>'
                       f"{chart}</figure>")
    intro = (f"Bars are green when the slice's point estimate meets the gate, red when it does not; whiskers are "
             f"the 95% CI. Slices with fewer than {_SMALL_SLICE} scored samples are hatched and marked "
             "“too small”: their estimate is not reliable. A red outlined bar marked “alarm” is a slice "
             "significantly below the rest (see Hidden breakage).")
    return _section("slices", "Slices", intro, "".join(figures))


def _timing_groups(doc: _Doc) -> dict[str, list[tuple[float, str]]]:
    groups: dict[str, list[tuple[float, str]]] = {}
    for name in doc.metrics:
        pct = doc.percentile(name)
        if pct is not None:
            agg = doc.aggregate(name)
            field = name[: -len(agg) - 1] if name.endswith("_" + agg) else name
            groups.setdefault(field, []).append((pct, name))
    return {k: sorted(v) for k, v in groups.items()}


def _latency(doc: _Doc) -> str:
    groups = _timing_groups(doc)
    if not groups:
        return _section("latency", "Latency", "", '<p class="empty">No percentile (timing) metrics.</p>')
    figures = []
    for field, members in groups.items():
        points, thresholds = [], []
        for pct, name in members:
            label = f"P{pct:g}"
            g = doc.gate(name)
            status = _str(g.get("status")) if g else "none"
            points.append((label, _num((doc.summary.get(name) or {}).get("value")), status))
            if (th := doc.threshold(name, label)) is not None:
                thresholds.append(th)
        unit = doc.unit(members[0][1])
        entry = doc.summary.get(members[0][1]) or {}
        chart = svg.percentile_chart(points, title=f"{field} percentiles", axis=field, thresholds=thresholds, unit=unit)
        caption = f'n = {_e(entry.get("n", "—"))} measured · {_unscored_text(entry, "none unscored")}'
        figures.append(f'<figure class="card wide"><figcaption><strong>{_e(field)}</strong> percentiles'
                       f'</figcaption>{chart}<div class="caption">{caption}</div></figure>')
    intro = "Percentiles use linear interpolation; dashed lines are the gate thresholds."
    return _section("latency", "Latency", intro, "".join(figures))


# --- samples --------------------------------------------------------------------------------------


def _colour(t: float) -> str:
    """Background for a normalised score ``t`` in [0, 1]: soft red -> amber -> green."""
    stops = [(0.0, (246, 211, 211)), (0.5, (252, 236, 196)), (1.0, (206, 234, 214))]
    t = min(max(t, 0.0), 1.0)
    (a, ca), (b, cb) = (stops[0], stops[1]) if t <= 0.5 else (stops[1], stops[2])
    mix = [round(x + (y - x) * (t - a) / (b - a)) for x, y in zip(ca, cb)]
    return "#%02x%02x%02x" % tuple(mix)


def _sample_columns(doc: _Doc) -> list[tuple[str, list[str]]]:
    """(column label, metric names) for every metric with per-sample scores; timing percentiles merge."""
    present = {k for s in doc.samples for k in (s.get("scores") or {})}
    cols: list[tuple[str, list[str]]] = [(m, [m]) for m in doc.metrics if m in present and doc.percentile(m) is None]
    for field, members in _timing_groups(doc).items():
        names = [n for _, n in members if n in present]
        if names:
            cols.append((field, names))
    known = {n for _, names in cols for n in names}
    return cols + [(m, [m]) for m in sorted(present - known - set(doc.metrics))]


def _cell_value(sample: Mapping[str, Any], names: list[str]) -> float | None:
    scores = sample.get("scores") or {}
    return next((v for n in names if (v := _num(scores.get(n))) is not None), None)


def _score_cell(doc: _Doc, sample: Mapping[str, Any], names: list[str]) -> str:
    unscored = sample.get("unscored") or {}
    value = _cell_value(sample, names)
    if value is None:
        reason = next((_str(unscored.get(n)) for n in names if unscored.get(n)), "") or "not scored"
        return f'<td class="score unscored" data-v="" title="{_e(reason)}"><span class="cell">—</span></td>'
    name = names[0]
    style = ""
    if (rng := doc.value_range(name)) is not None and doc.percentile(name) is None:
        t = (value - rng[0]) / (rng[1] - rng[0])
        style = f' style="background:{_colour(t if doc.higher_is_better(name) else 1 - t)}"'
    # The colour sits on an inner block so that an expanded row does not turn into a tall coloured column.
    return f'<td class="score num" data-v="{value!r}"><span class="cell"{style}>{_e(doc.fmt(name, value))}</span></td>'


def _samples(doc: _Doc) -> str:
    if not doc.samples:
        return _section("samples", "Samples", "", '<p class="empty">No samples in this document.</p>')
    cols = _sample_columns(doc)
    col_of = {n: i for i, (_, names) in enumerate(cols) for n in names}
    sort_col = next((col_of[g["metric"]] for g in doc.gates if g.get("metric") in col_of), None)
    samples = list(doc.samples)
    if sort_col is not None:
        names = cols[sort_col][1]
        sign = 1.0 if doc.higher_is_better(names[0]) else -1.0

        def worst_first(sample: Mapping[str, Any]) -> tuple[int, float]:
            v = _cell_value(sample, names)
            return (1, 0.0) if v is None else (0, sign * v)  # unscored last, still listed

        samples.sort(key=worst_first)
    head = ['<th data-type="text"><button type="button">id</button></th>',
            '<th data-type="text"><button type="button">tags</button></th>',
            '<th data-type="text" class="q"><button type="button">question</button></th>']
    for i, (label, _) in enumerate(cols):
        order = ""
        if i == sort_col:
            order = f' aria-sort="{"ascending" if doc.higher_is_better(cols[i][1][0]) else "descending"}"'
        head.append(f'<th data-type="num"{order}><button type="button">{_e(label)}</button></th>')
    rows = [_sample_row(doc, s, cols) for s in samples]
    note = (f"Sorted worst first by <strong>{_e(cols[sort_col][0])}</strong>; " if sort_col is not None else "") + \
        "click a column to sort, a question to see the answer, reference and artifacts. “—” is unscored " \
        "(hover for the reason)."
    tools = ('<div class="table-tools"><input id="sample-filter" type="search" placeholder="Filter samples…" '
             f'aria-label="Filter samples"><span class="muted">{len(samples)} samples</span></div>')
    table = _table("<tr>" + "".join(head) + "</tr>", rows, "samples-table").replace(
        '<table class="samples-table">', '<table class="samples-table" id="samples-table">')
    return _section("samples", "Samples", note, tools + table)


def _sample_row(doc: _Doc, s: Mapping[str, Any], cols: list[tuple[str, list[str]]]) -> str:
    question = _str(s.get("question"))
    short = question if len(question) <= _QUESTION_CHARS else question[: _QUESTION_CHARS - 1].rstrip() + "…"
    tags = s.get("tags") or []
    tag_html = "".join(f'<span class="tag">{_e(t)}</span>' for t in tags) if isinstance(tags, list) else _e(tags)
    details = [f'<div class="full-q"><h4>Question</h4><p>{_e(question)}</p></div>'] if short != question else []
    for key in ("answer", "reference"):
        if s.get(key) is not None:
            body = _highlighted(_str(s.get(key)), s.get("artifacts")) if key == "answer" else _e(s.get(key))
            details.append(f'<div><h4>{key.capitalize()}</h4><p class="prose">{body}</p></div>')
    unscored = s.get("unscored") or {}
    if unscored:
        items = "".join(f"<li><code>{_e(k)}</code>: {_e(v)}</li>" for k, v in unscored.items())
        details.append(f'<div><h4>Unscored</h4><ul class="plain">{items}</ul></div>')
    artifacts = s.get("artifacts") or {}
    if artifacts:
        details.append(f"<div><h4>Artifacts</h4>{_artifacts(artifacts)}</div>")
    extra = {k: v for k, v in s.items() if k not in _SAMPLE_KEYS}
    if extra:
        details.append(f"<div><h4>Other fields</h4>{_json(extra)}</div>")
    cells = "".join(_score_cell(doc, s, names) for _, names in cols)
    return (
        f'<tr><td class="id" data-v="{_e(s.get("id"))}"><code>{_e(s.get("id"))}</code></td>'
        f'<td data-v="{_e(" ".join(map(str, tags)) if isinstance(tags, list) else tags)}">{tag_html}</td>'
        f'<td class="q" data-v="{_e(question)}"><details><summary title="{_e(question)}">{_e(short)}</summary>'
        f'<div class="sample-detail">{"".join(details)}</div></details></td>{cells}</tr>'
    )


def _answer_claims(artifacts: Any) -> list[Mapping[str, Any]]:
    """Claims with offsets into the answer: the faithfulness artifact's, if any."""
    if not isinstance(artifacts, Mapping):
        return []
    art = artifacts.get("faithfulness")
    claims = art.get("claims") if isinstance(art, Mapping) else None
    if not isinstance(claims, list):
        return []
    return [c for c in claims if isinstance(c, Mapping) and isinstance(c.get("start"), int)
            and isinstance(c.get("end"), int)]


def _highlighted(answer: str, artifacts: Any) -> str:
    """The answer with each judged claim marked: unsupported/contradicted spans highlighted, reason on hover."""
    marks = sorted(_answer_claims(artifacts), key=lambda c: c["start"])
    out, pos = [], 0
    for c in marks:
        start, end = c["start"], c["end"]
        if start < pos or end > len(answer) or start >= end:
            continue  # overlapping or out of range: leave the text plain
        verdict = _str(c.get("verdict")).lower()
        cls = _VERDICT_CLASS.get(verdict, "other")
        out.append(_e(answer[pos:start]))
        out.append(f'<mark class="span-{cls}" title="{_e(verdict)}: {_e(c.get("reason"))}">{_e(answer[start:end])}</mark>')
        pos = end
    out.append(_e(answer[pos:]))
    return "".join(out)


def _json(value: Any) -> str:
    return f'<pre class="json">{_e(json.dumps(value, ensure_ascii=False, indent=2, default=str))}</pre>'


def _is_claims(value: Any) -> bool:
    claims = value.get("claims") if isinstance(value, Mapping) else None
    return isinstance(claims, list) and all(isinstance(c, Mapping) for c in claims)


def _claims(value: Mapping[str, Any]) -> str:
    claims = value["claims"]
    counts: dict[str, int] = {}
    items = []
    for c in claims:
        verdict = _str(c.get("verdict")).lower() or "unknown"
        counts[verdict] = counts.get(verdict, 0) + 1
        reason = f'<div class="claim-reason">{_e(c.get("reason"))}</div>' if c.get("reason") else ""
        items.append(f'<li class="claim claim-{_VERDICT_CLASS.get(verdict, "other")}"><span class="verdict-tag">'
                     f'{_e(verdict)}</span> {_e(c.get("text"))}{reason}</li>')
    tally = ", ".join(f"{n} {_e(v)}" for v, n in counts.items())
    rest = {k: v for k, v in value.items() if k != "claims"}
    return (f'<p class="muted">{len(claims)} claims: {tally}</p><ul class="claims">{"".join(items)}</ul>'
            + (_json(rest) if rest else ""))


def _artifacts(artifacts: Any) -> str:
    if _is_claims(artifacts):
        return _claims(artifacts)
    if not isinstance(artifacts, Mapping):
        return _json(artifacts)
    parts = []
    for key, value in artifacts.items():
        body = _claims(value) if _is_claims(value) else _json(value)
        parts.append(f'<div class="artifact"><div class="artifact-key"><code>{_e(key)}</code></div>{body}</div>')
    return "".join(parts)


def _footer(doc: _Doc) -> str:
    r = doc.r
    ci = r.get("ci") or {}
    level = _num(ci.get("level"))
    ci_text = ", ".join(x for x in [
        _e(ci.get("method")) or None, f"{level:.0%} level" if level is not None else None,
        f"{_e(ci.get('n_resamples'))} resamples" if ci.get("n_resamples") is not None else None] if x) or "—"
    return (
        f'<footer><span>Schema <code>{_e(r.get("schema"))}</code></span><span>Seed <code>{_e(r.get("seed", "—"))}'
        f"</code></span><span>CI {ci_text}</span><span>Generated offline by ragauge "
        f'{_e(r.get("ragauge_version", ""))}</span></footer>'
    )


def _asset(name: str) -> str:
    # Inlined into the page: the report makes no requests. The JS only sorts/filters the samples table.
    from importlib import resources

    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


__all__ = ["render_html"]
