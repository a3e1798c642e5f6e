"""Bare numbers in text: digits ("1 150", "52,7", "$1,150") and number words ("трёх", "twenty-eight").

The first stage of ``extract_quantities``: it finds where numbers are and what they are worth,
nothing about units. Russian number words are lemmatised with pymorphy3, loaded lazily once and
only for words that start like a number word (through ``deps.morph_analyzer``); results are cached
per word form.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from ._quantity_lexicon import (
    EN_HALF_RE,
    EN_NUMBER_WORDS,
    EN_WORD_RE,
    RU_HALF_RE,
    RU_NUMBER_LEMMAS,
    RU_NUMBER_PREFIX,
)


class Atom(NamedTuple):
    """A number without its unit: ``text[start:end]`` is worth ``value``; ``word`` if spelled out."""

    start: int
    end: int
    value: float
    word: bool


# Thousands: "1 150 000" (space, nbsp, narrow nbsp, thin space), "1,150" (English), "1.150.000".
_DIGITS_RE = re.compile(
    r"(?<![\w])(?<!\d[.,])"
    r"(\d{1,3}(?:(?:[ \u00a0\u202f\u2009]\d{3})+|(?:,\d{3})+|(?:\.\d{3}){2,})(?!\d)|\d+)"
    r"(?:([.,])(\d+))?"
)
_GROUP_SEP_RE = re.compile(r"[ \u00a0\u202f\u2009,.]")
_RU_TOKEN_RE = re.compile(r"[а-яё]+", re.IGNORECASE)
_CYRILLIC_RE = re.compile(r"[а-яё]", re.IGNORECASE)
_LATIN_RE = re.compile(r"[a-z]", re.IGNORECASE)
_EN_JOIN_RE = re.compile(r"(?:\s+|\s*-\s*|\s+and\s+)$", re.IGNORECASE)

_MORPH = None


def detect_lang(text: str) -> str:
    """``"ru"`` or ``"en"`` for reading numbers (:func:`ragauge.lang.detect_language`); text without letters
    ("1 150 ₽") reads as Russian, as numbers in this package's data mostly are."""
    from ragauge.lang import detect_language, is_cyrillic_language

    lang = detect_language(text)
    return "ru" if lang is None or is_cyrillic_language(lang) else "en"


def _digit_value(match: re.Match[str], lang: str) -> float:
    whole, sep, frac = match.group(1), match.group(2), match.group(3)
    if lang == "ru" and whole.count(",") == 1 and not sep:
        # Russian "1,150" is one and fifteen hundredths, not eleven hundred and fifty.
        return float(whole.replace(",", "."))
    value = float(_GROUP_SEP_RE.sub("", whole))
    if sep and frac:
        value += float("0." + frac)
    return value


def _morph():
    global _MORPH
    if _MORPH is None:
        from .deps import morph_analyzer  # the one process-wide analyser; names the install command if missing

        _MORPH = morph_analyzer()
    return _MORPH


@lru_cache(maxsize=65536)
def _ru_word_value(word: str) -> float | None:
    """Value of a Russian cardinal in any case ("трёх" -> 3, "миллиардов" -> 1e9), else None."""
    if not RU_NUMBER_PREFIX.match(word):
        return None
    for parse in _morph().parse(word):
        lemma = parse.normal_form.replace("ё", "е")
        if lemma in RU_NUMBER_LEMMAS:
            return RU_NUMBER_LEMMAS[lemma]
    return None


def _can_follow(previous: list[float], value: float, *, english: bool) -> bool:
    """Whether ``value`` continues a spelled number: "двадцать восемь" yes, "пять шесть" no."""
    last = previous[-1]
    if value >= 1000:
        return all(p < value for p in previous)
    if english and value == 100:
        return last < 100 and last >= 1 and not previous[-1] >= 1000
    if last != int(last) or 10 <= last < 20 or last == 0:
        return False
    last_int, zeros = int(last), 0
    while last_int % 10 == 0:
        last_int //= 10
        zeros += 1
    return value < 10**zeros


def _compose(values: list[float], *, english: bool) -> float:
    total = current = 0.0
    for value in values:
        if value >= 1000:
            total += (current or 1.0) * value
            current = 0.0
        elif english and value == 100:
            current = (current or 1.0) * 100
        else:
            current += value
    return total + current


def _word_atoms(spans: list[tuple[int, int, float]], text: str, *, english: bool) -> list[Atom]:
    atoms: list[Atom] = []
    group: list[tuple[int, int, float]] = []

    def close() -> None:
        if group:
            values = [v for _, _, v in group]
            atoms.append(Atom(group[0][0], group[-1][1], _compose(values, english=english), True))
            group.clear()

    for start, end, value in spans:
        if group:
            gap = text[group[-1][1]:start]
            joined = (_EN_JOIN_RE.match(gap) is not None) if english else (gap != "" and gap.isspace())
            if joined and _can_follow([v for _, _, v in group], value, english=english):
                group.append((start, end, value))
                continue
            close()
        group.append((start, end, value))
    close()
    return atoms


def find_atoms(text: str, lang: str) -> list[Atom]:
    """All numbers in ``text``, sorted by position; overlapping finds are resolved later."""
    atoms = [Atom(m.start(), m.end(), _digit_value(m, lang), False) for m in _DIGITS_RE.finditer(text)]
    if _CYRILLIC_RE.search(text):
        spans = []
        for m in _RU_TOKEN_RE.finditer(text):
            value = _ru_word_value(m.group().lower())
            if value is not None:
                spans.append((m.start(), m.end(), value))
        atoms += _word_atoms(spans, text, english=False)
        atoms += [Atom(m.start(), m.end(), 0.5, True) for m in RU_HALF_RE.finditer(text)]
    if _LATIN_RE.search(text):
        spans = [(m.start(), m.end(), EN_NUMBER_WORDS[m.group().lower()]) for m in EN_WORD_RE.finditer(text)]
        atoms += _word_atoms(spans, text, english=True)
        atoms += [Atom(m.start(), m.end(), 0.5, True) for m in EN_HALF_RE.finditer(text)]
    atoms.sort()
    return atoms
