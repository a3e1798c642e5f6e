"""Language detection, sentence splitting and evidence windows, all with offsets.

Every piece of text the offline judge handles is a :class:`Span` whose ``start``/``end`` index
the original string (``source[span.start:span.end] == span.text``), so a report can highlight the
claim in the answer and the evidence in the retrieved context.

The sentence splitter is ragauge's one splitter, :mod:`ragauge.text.sentences` (its rules are in that
module's doc), shared with the golden-set generator; it and the language detector are re-exported here
for the judge's modules. This module adds evidence windows over the sentences.
"""

from __future__ import annotations

# one detector for the whole package (ragauge/lang.py), one splitter (ragauge/text/sentences.py)
from ragauge.lang import detect_language, is_cyrillic_language
from ragauge.text.sentences import Span, split_sentences


def windows(sentences: list[Span], size: int = 1, *, source: str | None = None) -> list[Span]:
    """All runs of ``size`` consecutive sentences, as spans from the first start to the last end.

    With ``source`` (the string the sentences came from) a window's text is ``source[start:end]``,
    so the whitespace between sentences is kept as it was; without it the sentence texts are
    joined with one space (then ``text`` is not a slice of the source, but the offsets still are).
    Fewer sentences than ``size`` give no window (the smaller windows already cover them).

    >>> s = split_sentences("A is 1. B is 2. C is 3.", "en")
    >>> [w.text for w in windows(s, 2, source="A is 1. B is 2. C is 3.")]
    ['A is 1. B is 2.', 'B is 2. C is 3.']
    """
    if size < 1:
        raise ValueError(f"window size must be >= 1 (got {size})")
    out = []
    for i in range(len(sentences) - size + 1):
        first, last = sentences[i], sentences[i + size - 1]
        if source is not None:
            text = source[first.start : last.end]
        else:
            text = " ".join(s.text for s in sentences[i : i + size])
        out.append(Span(text, first.start, last.end))
    return out


__all__ = ["Span", "detect_language", "is_cyrillic_language", "split_sentences", "windows"]
