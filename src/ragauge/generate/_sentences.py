"""Sentence spans of a text: razdel (good for Russian, fine for English) when importable, else a regex."""

from __future__ import annotations

import re

_BOUNDARY = re.compile(r"(?<=[.!?…])[\"»”)]*\s+(?=[\"«“(]?[A-ZА-ЯЁ0-9])")


def _regex_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _BOUNDARY.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def sentence_spans(text: str, *, use_razdel: bool = True) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence; the text between two spans is whitespace only.

    >>> t = "Цена 450 руб. Выезд бесплатно."
    >>> [t[a:b] for a, b in sentence_spans(t, use_razdel=False)]
    ['Цена 450 руб.', 'Выезд бесплатно.']
    """
    spans = None
    if use_razdel:
        try:
            from razdel import sentenize
        except ImportError:
            pass
        else:
            spans = [(s.start, s.stop) for s in sentenize(text)]
    return [part for a, b in (spans if spans is not None else _regex_spans(text)) for part in _split_headings(text, a, b)]


def _split_headings(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """``(a, b)`` with each heading line at its start, or a blank line inside it, made a span of its own."""
    out = []
    start = a
    for m in re.finditer(r"\n", text[a:b]):
        cut = a + m.start()
        line_start = text.rfind("\n", start, cut) + 1 or start
        line_start = max(line_start, start)
        line = text[line_start:cut].strip()
        blank = text[cut:b].startswith("\n\n") or text[max(a, cut - 1):cut + 1] == "\n\n"
        after = text[cut:b].lstrip()
        heading = line and len(line.split()) <= 8 and not re.search(r"[.!?:;,…]$", line) \
            and line[:1].isupper() and after[:1].isupper()
        if (heading and line_start == start) or blank:
            if text[start:cut].strip():
                out.append((start, cut))
            start = cut
            while start < b and text[start].isspace():
                start += 1
    if text[start:b].strip():
        out.append((start, b))
    return out or [(a, b)]
