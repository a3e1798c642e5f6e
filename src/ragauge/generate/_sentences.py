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
    if use_razdel:
        try:
            from razdel import sentenize
        except ImportError:
            pass
        else:
            return [(s.start, s.stop) for s in sentenize(text)]
    return _regex_spans(text)
