"""Small pure functions that draw the report's charts as standalone SVG strings.

No plotting library, no fonts, no external references: every function takes plain numbers and labels
and returns one ``<svg>`` element (with ``role="img"``, a ``<title>`` and a ``<desc>``) that the HTML
report inlines. Every label is escaped here, so callers may pass untrusted text.

- :func:`histogram` — per-sample scores in equal bins, with the threshold and the mean as lines.
- :func:`slice_bars` — one horizontal bar per slice, CI whiskers, threshold line, pass/fail colour.
- :func:`percentile_chart` — P50/P95/P99 of one timing field, with the gate thresholds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Callable, Sequence

from .messages import msg, plural

SVG_NS = "http://www.w3.org/2000/svg"

# Restrained palette, shared with the HTML report's CSS.
INK = "#24292f"
MUTED = "#6e7781"
GRID = "#e4e7eb"
NEUTRAL = "#5b7aa6"
PASS = "#2f855a"
FAIL = "#c53030"
SMALL = "#b8bec6"
FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', Arial, sans-serif\""

# A white outline under the glyphs keeps labels readable where they cross a line or a whisker.
HALO = ' paint-order="stroke" stroke="#fff" stroke-width="3" stroke-linejoin="round"'

_OPS = {">=": "≥", "<=": "≤", ">": ">", "<": "<", "==": "="}


@dataclass(frozen=True, slots=True)
class Bar:
    """One slice of :func:`slice_bars`. ``status`` is ``pass``, ``fail``, ``small`` (n < 5), ``alarm``
    (significantly below the rest: drawn red with a thick outline and labelled) or ``none``."""

    label: str
    value: float | None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    status: str = "none"


@dataclass(frozen=True, slots=True)
class Threshold:
    """A gate drawn as a vertical line: ``label`` names what it applies to (e.g. ``P95``)."""

    op: str
    value: float
    label: str = ""


def op_symbol(op: str) -> str:
    """``">="`` -> ``"≥"``; unknown operators are returned as given."""
    return _OPS.get(op, op)


def fmt_number(value: float | None, unit: str | None = None) -> str:
    """Short human form: 3 decimals below 100, thousands separators above; ``None`` -> ``"—"``."""
    if value is None:
        return "—"
    text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3f}"
    return f"{text} {unit}" if unit else text


def fmt_tick(value: float) -> str:
    """Axis tick text: no trailing zeros (``0.2``, ``1``, ``2,500``)."""
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def bin_counts(values: Sequence[float], *, lo: float = 0.0, hi: float = 1.0, bins: int = 10) -> list[int]:
    """Counts of ``values`` in ``bins`` equal bins over ``[lo, hi]``.

    Bins are half-open ``[a, b)`` except the last, which includes ``hi``; values outside the range go to
    the nearest edge bin so that every sample is counted. Example: ``bin_counts([0, 0.5, 1], bins=2)``
    is ``[1, 2]``.
    """
    if bins < 1 or not hi > lo:
        raise ValueError(f"bin_counts needs bins >= 1 and hi > lo (got bins={bins}, lo={lo}, hi={hi})")
    counts = [0] * bins
    width = (hi - lo) / bins
    for v in values:
        i = int(math.floor((v - lo) / width))
        counts[min(max(i, 0), bins - 1)] += 1
    return counts


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values covering ``[lo, hi]`` (steps of 1, 2 or 5 times a power of ten)."""
    if not hi > lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(lo / step + 1e-9) * step
    ticks = []
    t = start
    while t <= hi + step * 1e-9:
        ticks.append(round(t, 10))
        t += step
    if ticks[-1] < hi - step * 1e-9:
        ticks.append(round(t, 10))
    return ticks


def _open(width: int, height: int, title: str, desc: str, kind: str) -> list[str]:
    return [
        f'<svg xmlns="{SVG_NS}" class="chart chart-{kind}" data-chart="{kind}" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" {FONT} font-size="11">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(desc)}</desc>",
    ]


def _text(x: float, y: float, text: str, *, anchor: str = "start", fill: str = INK, extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}"{HALO}{extra}>{escape(text)}</text>'


def _threshold_lines(
    thresholds: Sequence[Threshold], scale: Callable[[float], float], top: float, bottom: float,
    unit: str | None, width: float, lang: str = "en",
) -> list[str]:
    """Dashed lines with a label row each: the rightmost line gets the lowest row, so a label running to
    the right never crosses another threshold's line (those stop below it)."""
    out = []
    for i, th in enumerate(sorted(thresholds, key=lambda t: t.value, reverse=True)):
        x = scale(th.value)
        label = msg(lang, "g_threshold", label=th.label, op=op_symbol(th.op), v=fmt_number(th.value, unit)).replace("  ", " ")
        out.append(
            f'<line x1="{x:.1f}" y1="{top - 4 - 13 * i:.1f}" x2="{x:.1f}" y2="{bottom:.1f}" stroke="{INK}" '
            f'stroke-width="1.5" stroke-dasharray="5 3"><title>{escape(label)}</title></line>'
        )
        fits = x + 4 + len(label) * 6.6 <= width  # rough width of 11px bold text
        anchor, dx = ("start", 4) if fits else ("end", -4)
        out.append(_text(x + dx, top - 6 - 13 * i, label, anchor=anchor, extra=' font-weight="600"'))
    return out


def histogram(
    values: Sequence[float],
    *,
    title: str,
    lo: float = 0.0,
    hi: float = 1.0,
    bins: int = 10,
    threshold: Threshold | None = None,
    mean: float | None = None,
    width: int = 520,
    height: int = 250,
    lang: str = "en",
) -> str:
    """Vertical histogram of per-sample scores over ``[lo, hi]`` with counts above the bars.

    The threshold and mean labels sit on their own rows above the plot, so they never collide.
    """
    counts = bin_counts(values, lo=lo, hi=hi, bins=bins)
    left, right, top, bottom = 40, 16, 48, height - 36
    plot_w, plot_h = width - left - right, bottom - top
    y_ticks = nice_ticks(0, max(max(counts), 1), 4)
    y_max = y_ticks[-1]

    def sx(v: float) -> float:
        return left + (min(max(v, lo), hi) - lo) / (hi - lo) * plot_w

    def sy(c: float) -> float:
        return bottom - c / y_max * plot_h

    desc = msg(lang, "g_hist_desc", samples=plural(lang, len(values), "scored samples"), bins=bins, lo=fmt_tick(lo),
               hi=fmt_tick(hi), counts=", ".join(str(c) for c in counts))
    out = _open(width, height, title, desc, "histogram")
    for t in y_ticks:
        out.append(f'<line x1="{left}" y1="{sy(t):.1f}" x2="{left + plot_w}" y2="{sy(t):.1f}" stroke="{GRID}"/>')
        out.append(_text(left - 6, sy(t) + 4, fmt_tick(t), anchor="end", fill=MUTED))
    bw = plot_w / bins
    labels = []  # drawn last, above the mean and threshold lines
    for i, c in enumerate(counts):
        a, b = lo + (hi - lo) * i / bins, lo + (hi - lo) * (i + 1) / bins
        x = left + i * bw
        if c:
            out.append(
                f'<rect x="{x + 1:.1f}" y="{sy(c):.1f}" width="{bw - 2:.1f}" height="{bottom - sy(c):.1f}" '
                f'fill="{NEUTRAL}"><title>{escape(msg(lang, "g_bin", a=fmt_tick(a), b=fmt_tick(b), samples=plural(lang, c, "samples")))}'
                "</title></rect>"
            )
            labels.append(_text(x + bw / 2, sy(c) - 3, str(c), anchor="middle", fill=INK))
    out.append(f'<line x1="{left}" y1="{bottom}" x2="{left + plot_w}" y2="{bottom}" stroke="{MUTED}"/>')
    for t in nice_ticks(lo, hi, 5):
        if lo - 1e-9 <= t <= hi + 1e-9:
            out.append(f'<line x1="{sx(t):.1f}" y1="{bottom}" x2="{sx(t):.1f}" y2="{bottom + 4}" stroke="{MUTED}"/>')
            out.append(_text(sx(t), bottom + 15, fmt_tick(t), anchor="middle", fill=MUTED))
    out.append(_text(left + plot_w / 2, height - 4, msg(lang, "g_score_axis"), anchor="middle", fill=MUTED))
    out.append(
        _text(12, top + plot_h / 2, msg(lang, "g_samples_axis"), anchor="middle", fill=MUTED,
              extra=f' transform="rotate(-90 12 {top + plot_h / 2:.1f})"')
    )
    if mean is not None:
        x = sx(mean)
        out.append(f'<line x1="{x:.1f}" y1="{top - 16}" x2="{x:.1f}" y2="{bottom}" stroke="{MUTED}" '
                   f'stroke-width="1.5"><title>{escape(msg(lang, "g_mean", v=fmt_number(mean)))}</title></line>')
        anchor, dx = ("end", -4) if x > width * 0.7 else ("start", 4)
        out.append(_text(x + dx, top - 18, msg(lang, "g_mean", v=fmt_number(mean)), anchor=anchor, fill=MUTED))
    if threshold is not None:
        out += _threshold_lines([threshold], sx, top - 28, bottom, None, width, lang)
    out += labels
    out.append("</svg>")
    return "\n".join(out)


def _short(label: str, limit: int = 24) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


def slice_bars(
    bars: Sequence[Bar],
    *,
    title: str,
    lo: float = 0.0,
    hi: float = 1.0,
    threshold: Threshold | None = None,
    unit: str | None = None,
    axis: str = "",
    chart_id: str = "s",
    width: int = 1040,
    lang: str = "en",
) -> str:
    """Horizontal bars, one per slice, with CI whiskers; small slices hatched grey and labelled.

    ``chart_id`` keeps the hatch pattern's id unique when several charts share one page.
    """
    row_h, left, right, top = 26, 170, 190, 34
    bottom = top + row_h * max(len(bars), 1)
    height = bottom + 34
    plot_w = width - left - right
    hatch = f"hatch-{''.join(ch for ch in chart_id if ch.isalnum()) or 's'}"

    def sx(v: float) -> float:
        return left + (min(max(v, lo), hi) - lo) / (hi - lo) * plot_w

    word = {"pass": msg(lang, "st_pass"), "fail": msg(lang, "st_fail"), "small": msg(lang, "g_too_small"),
            "alarm": msg(lang, "g_alarm"), "none": "—"}
    desc = "; ".join(f"{b.label}: {fmt_number(b.value, unit)} (n={b.n}, {word.get(b.status, b.status)})" for b in bars)
    out = _open(width, height, title, desc, "slices")
    out.append(
        f'<defs><pattern id="{hatch}" width="6" height="6" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="#eef0f2"/>'
        f'<line x1="0" y1="0" x2="0" y2="6" stroke="{SMALL}" stroke-width="3"/></pattern></defs>'
    )
    for t in nice_ticks(lo, hi, 5):
        if lo - 1e-9 <= t <= hi + 1e-9:
            out.append(f'<line x1="{sx(t):.1f}" y1="{top}" x2="{sx(t):.1f}" y2="{bottom}" stroke="{GRID}"/>')
            out.append(_text(sx(t), bottom + 15, fmt_tick(t), anchor="middle", fill=MUTED))
    out.append(_text(left + plot_w / 2, height - 4, f"{axis or title}{f' ({unit})' if unit else ''}",
                     anchor="middle", fill=MUTED))
    colours = {"pass": PASS, "fail": FAIL, "small": f"url(#{hatch})", "none": SMALL, "alarm": FAIL}
    for i, b in enumerate(bars):
        y = top + i * row_h
        mid = y + row_h / 2
        out.append(
            f'<text x="{left - 8}" y="{mid + 4:.1f}" text-anchor="end" fill="{INK}">{escape(_short(b.label))}'
            f"<title>{escape(b.label)}</title></text>"
        )
        if b.value is None:
            out.append(_text(left + 4, mid + 4, msg(lang, "g_unscored", n=b.n if b.n is not None else 0), fill=MUTED))
            continue
        x0, x1 = sx(0.0 if lo < 0.0 < hi else lo), sx(b.value)
        fill = colours.get(b.status, NEUTRAL)
        stroke = f' stroke="{SMALL}"' if b.status == "small" else \
            (f' stroke="{INK}" stroke-width="2.5"' if b.status == "alarm" else "")
        out.append(
            f'<rect x="{min(x0, x1):.1f}" y="{y + 5}" width="{max(abs(x1 - x0), 1):.1f}" height="{row_h - 10}" '
            f'fill="{fill}"{stroke}><title>{escape(b.label)}: {fmt_number(b.value, unit)}, n={b.n}'
            f"{escape(' (' + msg(lang, 'g_too_small') + ')') if b.status == 'small' else ''}"
            f"{escape(' (' + msg(lang, 'g_alarm_title') + ')') if b.status == 'alarm' else ''}</title></rect>"
        )
        end = x1
        if b.low is not None and b.high is not None:
            a, c = sx(b.low), sx(b.high)
            out.append(f'<line x1="{a:.1f}" y1="{mid}" x2="{c:.1f}" y2="{mid}" stroke="{INK}" stroke-width="1.2"/>')
            for xx in (a, c):
                out.append(f'<line x1="{xx:.1f}" y1="{mid - 5}" x2="{xx:.1f}" y2="{mid + 5}" stroke="{INK}" '
                           'stroke-width="1.2"/>')
            end = max(end, c)
        small = f' · {escape(msg(lang, "g_too_small"))}' if b.status == "small" else ""
        alarm = (f'<tspan fill="{FAIL}" font-weight="700"> ⚠ {escape(msg(lang, "g_alarm"))}</tspan>'
                 if b.status == "alarm" else "")
        out.append(
            f'<text x="{end + 6:.1f}" y="{mid + 4:.1f}" fill="{MUTED if small else INK}"{HALO}>'
            f'{escape(fmt_number(b.value, unit))}<tspan fill="{MUTED}"> · n={b.n}{small}</tspan>{alarm}</text>'
        )
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="{MUTED}"/>')
    if threshold is not None:
        out += _threshold_lines([threshold], sx, top, bottom, unit, width, lang)
    out.append("</svg>")
    return "\n".join(out)


def percentile_chart(
    points: Sequence[tuple[str, float | None, str]],
    *,
    title: str,
    thresholds: Sequence[Threshold] = (),
    axis: str = "",
    unit: str | None = "ms",
    width: int = 1040,
    lang: str = "en",
) -> str:
    """Horizontal bars for the percentiles of one timing field.

    ``points`` are ``(label, value, status)`` such as ``("P95", 2410.0, "pass")``; ``status`` is ``pass``,
    ``fail`` or ``none`` (no gate on this percentile). Each threshold is a dashed vertical line.
    """
    row_h, left, right = 28, 110, 190
    top = 30 + 13 * max(len(thresholds) - 1, 0)
    bottom = top + row_h * max(len(points), 1)
    height = bottom + 34
    plot_w = width - left - right
    known = [v for _, v, _ in points if v is not None] + [t.value for t in thresholds]
    ticks = nice_ticks(0.0, max(known) * 1.08 if known and max(known) > 0 else 1.0, 5)
    hi = ticks[-1]

    def sx(v: float) -> float:
        return left + max(min(v, hi), 0.0) / hi * plot_w

    desc = "; ".join(f"{label}: {fmt_number(v, unit)}" for label, v, _ in points)
    out = _open(width, height, title, desc, "latency")
    for t in ticks:
        out.append(f'<line x1="{sx(t):.1f}" y1="{top}" x2="{sx(t):.1f}" y2="{bottom}" stroke="{GRID}"/>')
        out.append(_text(sx(t), bottom + 15, fmt_tick(t), anchor="middle", fill=MUTED))
    out.append(_text(left + plot_w / 2, height - 4, f"{axis or title}{f' ({unit})' if unit else ''}",
                     anchor="middle", fill=MUTED))
    colours = {"pass": PASS, "fail": FAIL}
    for i, (label, value, status) in enumerate(points):
        y = top + i * row_h
        mid = y + row_h / 2
        out.append(_text(left - 8, mid + 4, label, anchor="end", extra=' font-weight="600"'))
        if value is None:
            out.append(_text(left + 4, mid + 4, msg(lang, "g_not_measured"), fill=MUTED))
            continue
        x1 = sx(value)
        out.append(
            f'<rect x="{left}" y="{y + 5}" width="{max(x1 - left, 1):.1f}" height="{row_h - 10}" '
            f'fill="{colours.get(status, NEUTRAL)}"><title>{escape(label)}: {fmt_number(value, unit)}</title></rect>'
        )
        out.append(_text(x1 + 6, mid + 4, fmt_number(value, unit)))
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="{MUTED}"/>')
    out += _threshold_lines(thresholds, sx, top, bottom, unit, width, lang)
    out.append("</svg>")
    return "\n".join(out)


__all__ = [
    "Bar",
    "Threshold",
    "bin_counts",
    "fmt_number",
    "fmt_tick",
    "histogram",
    "nice_ticks",
    "op_symbol",
    "percentile_chart",
    "slice_bars",
]
