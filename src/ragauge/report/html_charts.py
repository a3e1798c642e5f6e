"""HTML sections with charts: per-metric score distributions, slices (alarmed slices highlighted) and
latency percentiles. The SVG itself is drawn by :mod:`.svg`."""

from __future__ import annotations

from . import svg
from .html_doc import _Doc, _e, _num, _passes, _section, _str, _timing_groups, _unscored_text
from .html_extra import slice_status
from .messages import msg, plural
from .run_notes import shards_note

_SMALL_SLICE = 5


def _scores(doc: _Doc, name: str) -> list[float]:
    return [v for s in doc.samples if (v := _num((s.get("scores") or {}).get(name))) is not None]


def _distributions(doc: _Doc) -> str:
    means = [m for m in doc.metrics
             if doc.percentile(m) is None and any(m in (s.get("scores") or {}) for s in doc.samples)]
    if not means:
        where = shards_note(doc.r, doc.lang, text=_e, code=lambda c: f"<code>{_e(c)}</code>")  # --shards run
        return _section("distributions", msg(doc.lang, "sec_distributions"), "",
                        f'<p class="empty">{where[0] if where else msg(doc.lang, "c_no_scores")}</p>')
    cards = []
    for name in means:
        values = _scores(doc, name)
        entry = doc.summary.get(name) or {}
        caption = f'{msg(doc.lang, "c_scored", n=len(values))} · {_unscored_text(entry, msg(doc.lang, "c_none_unscored"), lang=doc.lang)}'
        if not values:
            chart = f'<p class="empty">{msg(doc.lang, "c_all_unscored")}</p>'
        else:
            lo, hi = doc.value_range(name) or (min(values), max(values) if max(values) > min(values)
                                                else min(values) + 1.0)
            chart = svg.histogram(values, title=msg(doc.lang, "c_distribution_of", name=name), lo=lo, hi=hi,
                                  threshold=doc.threshold(name), mean=_num(entry.get("value")), lang=doc.lang)
        cards.append(f'<figure class="card"><figcaption><strong>{_e(name)}</strong></figcaption>{chart}'
                     f'<div class="caption">{caption}</div></figure>')
    intro = msg(doc.lang, "c_dist_intro")
    return _section("distributions", msg(doc.lang, "sec_distributions"), intro, f'<div class="grid">{"".join(cards)}</div>')


#: Bars per slice chart: a data set with thousands of tags keeps a readable (and small) page.
MAX_SLICE_BARS = 40
#: With more gated metrics than this, a slice chart without an alarmed slice is collapsed to one line
#: (its worst slice) that opens to the chart: 14 open charts made the demo page ~6,000 px taller.
MAX_OPEN_SLICE_CHARTS = 3


def _min_slice_n(doc: _Doc) -> int:
    """Slices with fewer scored samples are marked too small: the run's own ``slice_checks.min_n``."""
    raw = (doc.r.get("slice_checks") or {}).get("min_n")
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 2 else _SMALL_SLICE


def _slices(doc: _Doc) -> str:
    gated = list(dict.fromkeys(_str(g.get("metric")) for g in doc.gates
                               if g.get("status") != "skipped" and g.get("metric") in doc.summary))
    if not doc.slices or not gated:
        why = msg(doc.lang, "c_no_slices" if not doc.slices else "c_no_gate")
        return _section("slices", msg(doc.lang, "nav_slices"), "", f'<p class="empty">{msg(doc.lang, "c_no_slice_charts", why=why)}</p>')
    figures = []
    min_n = _min_slice_n(doc)
    for i, name in enumerate(gated):
        head = f'<strong>{_e(name)}</strong> {msg(doc.lang, "c_by_slice")}'
        if _num((doc.summary.get(name) or {}).get("value")) is None:
            figures.append(f'<figure class="card wide"><figcaption>{head}</figcaption>'
                           f'<p class="empty">{msg(doc.lang, "c_no_value")} '
                           f'({_unscored_text(doc.summary.get(name) or {}, lang=doc.lang)}).</p></figure>')
            continue
        bars = _slice_bars(doc, name, min_n)
        th = doc.threshold(name)
        known = [v for b in bars for v in (b.value, b.high) if v is not None] + ([th.value] if th else [])
        lo, hi = doc.value_range(name) or (0.0, svg.nice_ticks(0.0, max(known + [1e-9]) * 1.08, 5)[-1])
        chart = svg.slice_bars(bars, title=f"{name} {msg(doc.lang, 'c_by_slice')}", axis=name, lo=lo, hi=hi, threshold=th,
                               unit=doc.unit(name), chart_id=f"slice{i}", lang=doc.lang)
        if len(gated) <= MAX_OPEN_SLICE_CHARTS or th is None or any(b.status == "alarm" for b in bars[1:]):
            figures.append(f'<figure class="card wide"><figcaption>{head}</figcaption>{chart}</figure>')
        else:
            figures.append(f'<details class="card wide slice-chart"><summary><strong>{_e(name)}</strong> '
                           f'{_e(_slice_line(doc, name, bars[1:]))}</summary>{chart}</details>')
    intro = msg(doc.lang, "c_slices_intro", n=min_n)
    return _section("slices", msg(doc.lang, "nav_slices"), intro, "".join(figures))


def _slice_bars(doc: _Doc, name: str, min_n: int) -> list[svg.Bar]:
    """"All samples" then the slices, alarmed first, then the largest (at most MAX_SLICE_BARS, names cut
    to 80 characters)."""
    th = doc.threshold(name)
    order = sorted(doc.slices.items(), key=lambda kv: (slice_status(doc, _str(kv[0]), name) != "alarm",
                                                       -int((kv[1] or {}).get("n_samples") or 0)))
    entries = [(msg(doc.lang, "c_all_samples"), doc.summary.get(name) or {})] + [
        (_str(tag)[:80], ((sl or {}).get("summary") or {}).get(name) or {}) for tag, sl in order[:MAX_SLICE_BARS]]
    bars = []
    for j, (label, e) in enumerate(entries):
        value, n = _num(e.get("value")), e.get("n")
        ci = e.get("ci") or {}
        checked = slice_status(doc, label, name) if j else None  # entry 0 is "All samples"
        if value is None:
            status = "none"
        elif checked is not None:
            status = checked
        elif isinstance(n, int) and n < min_n:
            status = "small"
        elif th is not None:
            status = "pass" if _passes(value, th.op, th.value) else "fail"
        else:
            status = "none"
        bars.append(svg.Bar(label, value, _num(ci.get("low")), _num(ci.get("high")), n, status))
    return bars


def _slice_line(doc: _Doc, name: str, slices: list[svg.Bar]) -> str:
    """The one line of a collapsed slice chart: how many slices miss the bar, and the worst of those
    large enough to judge (plain text)."""
    judged = [b for b in slices if b.value is not None and b.status in ("pass", "fail", "alarm")]
    below = [b for b in judged if b.status != "pass"]
    if not below:
        return msg(doc.lang, "g_collapsed_none", slices=plural(doc.lang, len(slices), "slices"))
    worst = (min if doc.higher_is_better(name) else max)(below, key=lambda b: b.value or 0.0)
    return msg(doc.lang, "g_collapsed", k=len(below), slices=plural(doc.lang, len(judged), "of slices"),
               worst=msg(doc.lang, "g_worst", slice=worst.label, value=doc.fmt(name, worst.value), n=worst.n))


def _latency(doc: _Doc) -> str:
    groups = _timing_groups(doc)
    if not groups:
        return _section("latency", msg(doc.lang, "nav_latency"), "", f'<p class="empty">{msg(doc.lang, "c_no_timing")}</p>')
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
        chart = svg.percentile_chart(points, title=f"{field}: {msg(doc.lang, 'c_percentiles')}", axis=field, thresholds=thresholds, unit=unit,
                                     lang=doc.lang)
        caption = f'{msg(doc.lang, "c_measured", n=_e(entry.get("n", "—")))} · {_unscored_text(entry, msg(doc.lang, "c_none_unscored"), lang=doc.lang)}'
        figures.append(f'<figure class="card wide"><figcaption><strong>{_e(field)}</strong> {msg(doc.lang, "c_percentiles")}'
                       f'</figcaption>{chart}<div class="caption">{caption}</div></figure>')
    intro = msg(doc.lang, "c_latency_intro")
    return _section("latency", msg(doc.lang, "nav_latency"), intro, "".join(figures))
