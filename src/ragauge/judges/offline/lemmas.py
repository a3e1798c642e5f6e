"""Content lemmas of a text: tokens, word analysis (pymorphy3 for Cyrillic words, the Porter stemmer for
Latin ones), stop words and number normalisation.

Every word is analysed once per process (LRU caches per word form): Cyrillic words by pymorphy3
(most probable parse), Latin words by :func:`ragauge.judges.offline.porter.porter_stem`, numbers normalised
("1 150" -> "1150", "0,5" -> "0.5"). The analyser picks the method by the script of each *word*,
so a Russian price list with "Knauf" or "IP65" needs no language switch; ``lang`` arguments are
accepted for symmetry with the rest of the judge and only used when they matter (none today).
Overlap, negation and scope cues built on these lemmas are in :mod:`.overlap`, :mod:`.negation` and
:mod:`.scope`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ragauge.judges.offline import deps
from ragauge.judges.offline.porter import porter_stem

# ---------------------------------------------------------------- tokens

# Numbers first ("1 150 000", "0,5", "4.2"), then words that may carry digits ("IP65", "B25", "м²")
# and inner hyphens or apostrophes ("кого-то", "don't").
_TOKEN = re.compile(
    r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?!\d)(?:[.,]\d+)?"
    r"|\d+(?:[.,]\d+)?"
    r"|[^\W_]+(?:[-'’][^\W_]+)*"
)
_NUMBER = re.compile(r"[\d \u00a0\u202f]+(?:[.,]\d+)?")

_RU_STOP = frozenset(
    """
    и в во не что он она оно они я ты мы вы на с со как а то так но да к у же за бы по о об от из
    до для без под над при про через между перед после около возле кроме вместо ради сквозь
    ли если уже или либо ни ведь вот там тут здесь где куда когда тогда потом теперь даже ну
    быть есть это этот тот такой такой-то который свой мой твой наш ваш его ее их себя сам
    кто чем чтобы чтоб будто тоже также еще уж лишь только весь все всё каждый любой иной
    другой сей оба также ибо причем притом именно т е п д др пр см
    """.split()
)
# pymorphy3 parts of speech that never carry content.
_RU_FUNCTION_POS = frozenset({"PREP", "CONJ", "PRCL", "NPRO"})  # not INTJ: pymorphy3 reads "мм" so
_EN_STOP = frozenset(
    """
    a an the and or but if then else of in on at to for from by with as is are was were be been
    being am do does did doing have has had having it its this that these those there here which
    who whom whose what when where why how nor so than too very can could will would shall should
    may might must i you he she we they me him her us them my your his our their mine yours also
    just only all any each every both either some such own same other into onto over under about
    above below between through during before after again further once up down out off per via
    etc eg ie s t
    """.split()
)


@dataclass(frozen=True, slots=True)
class Token:
    """One word or number of a text: ``text[start:end]``, its lemma and whether it is a stop word."""

    text: str
    start: int
    end: int
    lemma: str
    is_number: bool
    is_stop: bool
    pos: str | None  # pymorphy3 part of speech for Cyrillic words, else None


def _is_cyrillic_word(word: str) -> bool:
    return any("\u0400" <= ch <= "\u04ff" for ch in word)


@lru_cache(maxsize=200_000)
def _ru_word(word: str) -> tuple[str, str | None]:
    parse = deps.morph_analyzer().parse(word)[0]
    return parse.normal_form.replace("ё", "е"), parse.tag.POS


@lru_cache(maxsize=200_000)
def _word(lower: str) -> tuple[str, bool, str | None]:
    """(lemma, is_stop, pos) of a lower-case word form."""
    if _is_cyrillic_word(lower):
        lemma, pos = _ru_word(lower)
        stop = pos in _RU_FUNCTION_POS or lemma in _RU_STOP or len(lemma) < 2
        return lemma, stop, pos
    if lower.isascii():
        stop = lower in _EN_STOP or len(lower) < 2
        return porter_stem(lower), stop, None
    return lower, False, None


def normalize_number(text: str) -> str:
    """"1 150" -> "1150", "0,5" -> "0.5": the form numbers take among lemmas."""
    return re.sub(r"[ \u00a0\u202f]", "", text).replace(",", ".")


def analyze(text: str) -> list[Token]:
    """All tokens of ``text`` with lemmas (cached per distinct text)."""
    return list(_analyze(text))


@lru_cache(maxsize=32768)
def _analyze(text: str) -> tuple[Token, ...]:
    out = []
    for match in _TOKEN.finditer(text):
        raw = match.group()
        if raw[0].isdigit() and _NUMBER.fullmatch(raw):
            out.append(Token(raw, match.start(), match.end(), normalize_number(raw), True, False, "NUMB"))
            continue
        lemma, stop, pos = _word(raw.lower())
        out.append(Token(raw, match.start(), match.end(), lemma, False, stop, pos))
    return tuple(out)


def content_lemmas(text: str, lang: str | None = None, *, numbers: bool = True) -> list[str]:
    """Lemmas of the content words of ``text``, in order, repeats kept; numbers too unless ``numbers=False``.

    >>> content_lemmas("Подрядчик предоставляет гарантию 5 лет на кровельные работы", "ru")
    ['подрядчик', 'предоставлять', 'гарантия', '5', 'год', 'кровельный', 'работа']
    """
    return [t.lemma for t in _analyze(text) if not t.is_stop and (numbers or not t.is_number)]


__all__ = ["Token", "analyze", "content_lemmas", "normalize_number"]
