"""Whether a fuzzily matched quote says what its source span says: same negations, same words.

A fuzzy match (:func:`~.spans.locate`, step 3) counts matching characters, so "The warranty is *not*
void if the seal is broken" or "... is *valid* if ..." match "The warranty is void if the seal is
broken" well enough. :func:`words_agree` is the check a fuzzy match must also pass:

- **negation kept**: the negation cues of the quote and of the span are the same, counted (ru: не,
  нет, ни, без, нельзя, никогда, ничто, никакой ...; en: not, no, never, without, none, nothing, nor,
  unless, n't, cannot ...) -- a quote may neither add one nor drop one;
- **no word swapped**: every word of the quote, except a few that carry no meaning of their own
  (articles, "is"/"are", "и"), is in the span, allowing only inflection: words are compared by stem
  (Porter for Latin words, a suffix-stripping stemmer for Russian below), or, for words of five letters
  or more, when they share all but their last three letters ("действителен" ~ "действительна").

Numbers are checked apart (:func:`~.verdicts.numbers_agree`). The texts are normalised first
(:func:`~.spans.normalize`: case, ё, quote marks). Pure; no dictionary needed (pymorphy3 is not required).

>>> words_agree("The warranty is void if the seal is broken", "The warranty is void if the seal is not broken")
False
>>> words_agree("гарантию на кровлю 5 лет", "Гарантия на кровлю — 5 лет")
True
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from ..offline.porter import porter_stem
from .spans import normalize

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")
_RU_CUES = frozenset({"не", "нет", "ни", "без", "безо", "нельзя", "никогда", "нигде", "никуда", "некогда"})
#: Russian negative pronouns by their stems: ничто/ничего/ничем, никто/никого, никакой/никакие, ничей.
_RU_CUE_STEMS = ("ничт", "ничег", "ничем", "ничу", "никт", "никог", "никому", "ником", "никак", "ничь", "ниче")
_EN_CUES = frozenset({"not", "no", "never", "without", "none", "nothing", "nobody", "neither", "nor", "nowhere",
                      "cannot", "unless"})
#: Words whose presence or form changes nothing a quote check cares about: they may differ freely.
_IGNORED = frozenset(
    "a an the is are was were be been being am do does did and of it its this that these those there "
    "и а это этот эта это эти то же ли бы является являются".split()
)
_RU_REFLEXIVE = ("ся", "сь")
#: Russian inflectional endings, longest first (nouns, adjectives, participles, verbs).
_RU_ENDINGS = tuple(sorted(set(
    "иями ями ами иях ях ах ием ием ям ам ом ем ой ей ий ый ая яя ое ее ые ие ых их ым им ыми ими "
    "ого его ому ему ую юю ою ею ов ев ия ья ие ье ию ью ии еи ешь ете ите ет ит ут ют ат ят ем им "
    "ла ло ли ны на но ть ти ал ил ыл ел ена ено ены ен ан ян а я о е ы и у ю ь й".split()
), key=len, reverse=True))


def _cyrillic(word: str) -> bool:
    return any("\u0400" <= ch <= "\u04ff" for ch in word)


@lru_cache(maxsize=65536)
def ru_stem(word: str) -> str:
    """A cheap stem of a lower-case Russian word: the reflexive ending, then the longest inflectional
    ending dropped while at least three letters are left ("гарантию", "гарантия" -> "гарант").

    >>> ru_stem("гарантию"), ru_stem("гарантия"), ru_stem("действительна")
    ('гарант', 'гарант', 'действител')
    """
    w = word
    for end in _RU_REFLEXIVE:
        if w.endswith(end) and len(w) - len(end) >= 4:
            w = w[: -len(end)]
            break
    for end in _RU_ENDINGS:
        if w.endswith(end) and len(w) - len(end) >= 3:
            w = w[: -len(end)]
            break
    return w[:-1] if w.endswith(("и", "ь")) and len(w) > 4 else w


def _split(text: str) -> tuple[Counter[str], list[str]]:
    """(negation cues counted, the other words) of ``text``; "isn't" is "is" + a cue, "cannot" one cue."""
    cues: Counter[str] = Counter()
    words: list[str] = []
    for w in _WORD.findall(normalize(text)):
        if w.endswith("n't") and len(w) > 3:
            cues["not"] += 1
            w = {"ca": "can", "wo": "will", "sha": "shall"}.get(w[:-3], w[:-3])
        if w in _EN_CUES or w in _RU_CUES or (_cyrillic(w) and w.startswith(_RU_CUE_STEMS)):
            cues["not" if w in ("cannot", "n't") else w] += 1
            continue
        words.append(w)
    return cues, words


def _stem(word: str) -> str:
    if _cyrillic(word):
        return ru_stem(word)
    return porter_stem(word) if word.isascii() else word


def _same_word(a: str, b: str) -> bool:
    if a == b or _stem(a) == _stem(b):
        return True
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared >= 5 and shared >= max(len(a), len(b)) - 3


def missing_words(quote: str, span: str) -> list[str]:
    """The words of ``quote`` (normalised, ignored ones left out) with no form in ``span``.

    >>> missing_words("The warranty is valid if the seal is broken", "The warranty is void if the seal is broken")
    ['valid']
    """
    have = _split(span)[1]
    return [w for w in _split(quote)[1] if w not in _IGNORED and not any(_same_word(w, h) for h in have)]


def words_agree(quote: str, span: str) -> bool:
    """Whether ``quote`` keeps the negations of ``span`` (counted) and has every word in it (module doc)."""
    return _split(quote)[0] == _split(span)[0] and not missing_words(quote, span)
