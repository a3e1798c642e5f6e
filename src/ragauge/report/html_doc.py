"""The results document as the HTML report reads it, and the small cell helpers every section shares.

Pure functions over a ``ragauge.results/1`` document: :class:`_Doc` tolerates missing optional keys, and
every string from the data goes through :func:`_e` (escaped) before it reaches the page.
"""

from __future__ import annotations

import math
import re
from html import escape
from typing import Any, Iterable, Mapping

from ..gates.compare import meets_or_unknown
from ..results_schema import check_schema
from . import svg
from .messages import msg, report_lang, unit_label
from .reason_text import reason_text

_PERCENTILE = re.compile(r"p(\d+(?:\.\d+)?)")


def _check_schema(results: Mapping[str, Any]) -> None:
    check_schema(results)


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
        self.lang = report_lang(results)  #: the report's one language (that of the diagnosis)

    def aggregate(self, name: str) -> str:
        return _str((self.summary.get(name) or {}).get("aggregate") or self.specs.get(name, {}).get("aggregate")
                    or "mean")

    def percentile(self, name: str) -> float | None:
        m = _PERCENTILE.fullmatch(self.aggregate(name))
        return float(m.group(1)) if m else None

    def unit(self, name: str) -> str | None:
        """The unit as the page shows it (``мс`` on a Russian page); :meth:`stored_unit` is the record's."""
        return unit_label(self.stored_unit(name), self.lang)

    def stored_unit(self, name: str) -> str | None:
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
        return f'<span class="muted">{msg(doc.lang, "n_too_small")}</span>'
    unit = doc.unit(name)
    return _e(f"{svg.fmt_number(lo)} – {svg.fmt_number(hi, unit)}")


def _unscored_text(entry: Mapping[str, Any], zero: str = "0", *, lang: str = "en") -> str:
    n = int(_num(entry.get("n_unscored")) or 0)
    if not n:
        return f'<span class="muted">{zero}</span>'
    reasons = entry.get("unscored_reasons") or {}
    items = [(k, v) for k, v in reasons.items()] if isinstance(reasons, Mapping) else []
    if len(items) == 1:
        detail = _e(reason_text(items[0][0], lang))
    else:
        detail = ", ".join(f"{_e(reason_text(k, lang))} ({_e(v)})" for k, v in items) or msg(lang, "c_no_reason")
    return f'<span class="unscored-note">{msg(lang, "c_unscored", n=n)}: {detail}</span>'


def _badge(status: Any, lang: str = "en", *, waiting: bool = False) -> str:
    """A gate's status as a coloured badge: the status word in English, its translation in Russian;
    ``waiting``: a skipped ``non_inferior`` gate, shown as "waiting for a baseline"."""
    s = _str(status).lower() or "unknown"
    cls = s if s in {"pass", "fail", "unscored", "skipped"} else "unknown"
    word = msg(lang, f"st_{cls}") if lang != "en" and cls != "unknown" else s
    if waiting and cls == "skipped":
        word = msg(lang, "st_waiting")
    return f'<span class="badge badge-{cls}">{_e(word)}</span>'


def _passes(value: float, op: str, threshold: float) -> bool:
    """Meets the bar; an unknown operator in a document read from disk is not shown as a pass."""
    return meets_or_unknown(value, op, threshold) is True


def _section(anchor: str, title: str, intro: str, content: str) -> str:
    intro_html = f'<p class="intro">{intro}</p>\n' if intro else ""
    return f'<section id="{anchor}">\n<h2>{title}</h2>\n{intro_html}{content}\n</section>'


def _table(head: str, rows: Iterable[str], cls: str) -> str:
    return f'<div class="table-wrap"><table class="{cls}">\n<thead>{head}</thead>\n<tbody>\n' \
           + "\n".join(rows) + "\n</tbody>\n</table></div>"


def _timing_groups(doc: _Doc) -> dict[str, list[tuple[float, str]]]:
    groups: dict[str, list[tuple[float, str]]] = {}
    for name in doc.metrics:
        pct = doc.percentile(name)
        if pct is not None:
            agg = doc.aggregate(name)
            field = name[: -len(agg) - 1] if name.endswith("_" + agg) else name
            groups.setdefault(field, []).append((pct, name))
    return {k: sorted(v) for k, v in groups.items()}

