"""Sentence splitting with offsets: the one splitter of ragauge (the offline judge, the golden-set generator).

Every sentence is a :class:`Span` whose ``start``/``end`` index the original string
(``source[span.start:span.end] == span.text``), so a report can highlight a claim in the answer and the
evidence in the context, and the chunker can cut a document at sentence ends.

Sentence splitting works in three steps:

1. *Blocks.* A newline ends a sentence when a blank line follows, when the next line starts a list
   item (``-``, ``*``, ``•``, ``1.``, ``2)``, ``а)``), when the line before ends with ``. ! ? : ;``,
   or when the line before is a list item and the next one starts with a capital or a digit, or when both
   lines are table rows (they hold a "|").
   Any other newline is a hard wrap inside a sentence (PDF extracts) and is not a boundary.
2. *Sentences inside a block.* Russian (and any Cyrillic text) goes to ``razdel``, which knows
   "т.е.", "руб.", "п. 4.2", "И.И. Иванов". Other text goes to a regex splitter: a boundary is
   ``. ! ? …`` (plus closing quotes/brackets), then whitespace, then an upper-case letter, a digit
   or an opening quote, and the word before the period is not a known abbreviation ("e.g.", "Dr.",
   "No. 5", "approx.") nor a single initial ("J. Smith"). Decimals ("4.2") have no space after the
   period, so they never split.
3. *Headings.* A short unpunctuated capitalised line at the start of a sentence, followed by a line
   that starts with a capital, is a heading the text layer glued on ("Data protection\nWe never share
   ..."): it becomes a sentence of its own.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType

from ragauge.errors import MissingDependencyError
from ragauge.lang import detect_language, is_cyrillic_language


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of a source string: ``source[start:end] == text``."""

    text: str
    start: int
    end: int


# ---------------------------------------------------------------- blocks

_LIST_ITEM = re.compile(r"[ \t]*(?:[-*•–—·▪]|\d{1,3}[.)]|[a-zа-я][)])\s")
_LINE_END_PUNCT = frozenset(".!?:;…")


def _blocks(text: str) -> list[tuple[int, int]]:
    """Cut ``text`` into (start, end) blocks at the newlines that are sentence boundaries."""
    lines = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    blocks: list[tuple[int, int]] = []
    start: int | None = None
    prev_end_char = ""
    prev_is_item = prev_is_row = False
    prev_line_end = 0
    for line_start, line_end in lines:
        content = text[line_start:line_end]
        stripped = content.strip()
        if not stripped:
            if start is not None:
                blocks.append((start, prev_line_end))
                start = None
            continue
        is_item = _LIST_ITEM.match(content) is not None
        boundary = start is not None and (
            prev_end_char in _LINE_END_PUNCT
            or is_item
            or (prev_is_item and (stripped[0].isupper() or stripped[0].isdigit()))
            or (prev_is_row and "|" in stripped)  # table rows: "Кирпич М150 | шт. | 52,70"
        )
        if boundary and start is not None:
            blocks.append((start, prev_line_end))
            start = None
        if start is None:
            start = line_start
        prev_line_end = line_end
        prev_end_char = stripped[-1]
        prev_is_item = is_item
        prev_is_row = "|" in stripped
    if start is not None:
        blocks.append((start, prev_line_end))
    return blocks


# ---------------------------------------------------------------- regex splitter

# Lower-case, without the final period. Both languages: a Latin-script text can quote Russian.
_ABBREVIATIONS = frozenset(
    """
    e.g i.e vs cf al dr mr mrs ms prof sr jr st mt inc ltd co corp dept univ gov u.s u.k a.m p.m
    ph.d incl excl approx appr
    т.е т.к т.д т.п т.н др пр см ср руб коп тыс млн млрд ул д кв корп обл р-н им проф акад доц наб
    пер пл
    """.split()
)
# Abbreviations only when a number follows: "No. 5", "p. 12", "п. 4.2", "Fig. 3", "Jan. 15".
_NUMBER_ABBREVIATIONS = frozenset(
    """
    no nos nr p pp art sec ch fig figs para vol ed est min max ref tel ext sq ft lb lbs oz pcs qty
    jan feb mar apr jun jul aug sep sept oct nov dec
    п пп ст гл разд прил рис табл стр г гг
    """.split()
)
_BOUNDARY = re.compile(r"[.!?…]+[\"'»”’)\]]*(?=\s+[\"'«“(\[]?[A-ZА-ЯЁ0-9])")
_WORD_BEFORE = re.compile(r"([\w.\-]+)$")
_DIGIT_NEXT = re.compile(r"\s+\d")


def _regex_sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    cuts = []
    for match in _BOUNDARY.finditer(text, start, end):
        punct = text[match.start()]
        if punct == ".":
            word = _WORD_BEFORE.search(text, start, match.start())
            if word is not None:
                token = word.group(1).lower().strip(".")
                if token in _ABBREVIATIONS:
                    continue
                if token in _NUMBER_ABBREVIATIONS and _DIGIT_NEXT.match(text, match.end()):
                    continue
                if len(token) == 1 and token.isalpha():  # an initial: "J. Smith"
                    continue
                if "." in token and len(token) <= 5 and token.replace(".", "").isalpha():
                    continue  # "U.S.", "т.е."
        cuts.append(match.end())
    out = []
    prev = start
    for cut in cuts:
        out.append((prev, cut))
        prev = cut
    out.append((prev, end))
    return out


def _razdel() -> ModuleType:
    try:
        return importlib.import_module("razdel")
    except ImportError as exc:  # also raised when sys.modules["razdel"] is None
        raise MissingDependencyError("razdel", feature="Russian sentence splitting", extra="offline") from exc


def _razdel_sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    razdel = _razdel()
    out: list[tuple[int, int]] = []
    for s in razdel.sentenize(text[start:end]):
        if out and s.text.startswith(("|", ",", ";")):
            out[-1] = (out[-1][0], start + s.stop)  # "М150 | шт. | 52,70": a table row, not two sentences
        else:
            out.append((start + s.start, start + s.stop))
    return out


# ---------------------------------------------------------------- headings

_FUNCTION_WORD_END = re.compile(r"(?:^|\s)(?:[a-zа-яё]{1,3})$")
_HEADING_END = frozenset(".!?:;,…")


def _split_headings(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``(start, end)`` with a heading line at its start made a span of its own.

    A heading line: at most 8 words, no final punctuation, an upper-case first letter, not ending in a
    short lower-case word ("и", "of", "the": a wrapped line), and the next line starts with an upper-case
    letter. A PDF text layer glues headings to the next sentence: "Data protection\nWe never share ...".
    """
    out = []
    first = start
    while True:
        newline = text.find("\n", first, end)
        if newline < 0:
            break
        line = text[first:newline].strip()
        after = text[newline:end].lstrip()
        heading = (line and len(line.split()) <= 8 and line[-1] not in _HEADING_END and line[:1].isupper()
                   and after[:1].isupper() and not _FUNCTION_WORD_END.search(line))
        if not heading:
            break
        out.append((first, newline))
        first = newline + 1
    out.append((first, end))
    return out


def _trim(text: str, start: int, end: int) -> Span | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start == end:
        return None
    return Span(text[start:end], start, end)


def split_sentences(text: str, lang: str | None = None) -> list[Span]:
    """Split ``text`` into sentences with offsets into ``text`` (see the module doc for the rules).

    ``lang=None`` detects the language of the whole text. Whitespace-only pieces are dropped and
    every span is stripped of surrounding whitespace.

    >>> [s.text for s in split_sentences("Цена 1 150 руб. за м². Срок — 3 дня, т.е. до пятницы.", "ru")]
    ['Цена 1 150 руб. за м².', 'Срок — 3 дня, т.е. до пятницы.']
    """
    return list(_split_cached(text, lang))


@lru_cache(maxsize=8192)
def _split_cached(text: str, lang: str | None) -> tuple[Span, ...]:
    # Contexts repeat across the samples of a data set: split each distinct one once.
    if lang is None:
        lang = detect_language(text)
    splitter = _razdel_sentences if is_cyrillic_language(lang) else _regex_sentences
    spans = []
    for block_start, block_end in _blocks(text):
        for start, end in splitter(text, block_start, block_end):
            for part_start, part_end in _split_headings(text, start, end):
                span = _trim(text, part_start, part_end)
                if span is not None:
                    spans.append(span)
    return tuple(spans)


__all__ = ["Span", "split_sentences"]
