"""The attribute a question asks about, and whether another part of the document states it too.

A question needs the thing its section names only when a reader could not tell which thing it is about. The
evidence for that is in the document itself: another section states the same attribute ("Support tickets are
answered within 8 business hours" under "Standard plan" beside "Premium tickets are answered within 1 hour"
under "Premium plan"; «Обязательный платёж составляет 3%» under «Кредитная карта» beside «Ежемесячный платёж
списывается 15 числа» under «Погашение», the loan's payment). A term stated once ("Audit logs are kept for 12
months", even under "Premium plan") is the whole service's and is asked as it is.

* **The source sentence** of a question is the chunk sentence (a table's line) that shares most content lemmas
  with it.
* **The attribute** is the content lemmas the question shares with the part of that sentence before its first
  number (after the number come the value and its unit: "includes up to 10 user accounts" counts accounts, it
  does not state their price), less verbs and participles (how, not what), the section's own words and the nouns
  that only say what kind of value is asked ("fee", «размер») when other words remain.
* **Another sentence states it** when its part before its first number (all of it when it has none: "Cash
  withdrawals at other banks' ATMs are free of charge") holds at least half of the attribute's lemmas, and the
  two do not name different kinds of value: «Суточный лимит снятия наличных» is not «комиссия за снятие
  наличных».
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Sequence

from ragauge.generate.chunking import Chunk
from ragauge.generate.documents import CELL_SEPARATOR
from ragauge.generate.questions import morph
from ragauge.generate.questions.facts import NUMBER, sentences
from ragauge.generate.questions.special import lemmas

#: Nouns that name the kind of value asked for, not what it is of ("fee" in "What is the fee for X?"), by kind:
#: two sentences naming values of different kinds state different attributes.
VALUE_KINDS = {
    "money": "стоимость комиссия плата цена fee charge commission cost price",
    "ceiling": "лимит limit cap maximum",
    "time": "срок продолжительность периодичность время deadline term period time",
    "rate": "процент ставка rate percentage",
    "quantity": "размер сумма количество число size amount number",
}
VALUE_NOUNS = " ".join(VALUE_KINDS.values()) + " much many long soon often"
_EN_NOT_CONTENT = {"is", "are", "be", "been", "was", "were", "must", "may", "can", "will", "shall", "should",
                   "costs", "cost", "takes", "lasts", "held", "paid", "kept", "made", "given", "taken"}
_RU_VERBAL = ("VERB", "INFN", "PRTF", "PRTS", "GRND")


@lru_cache(maxsize=1)
def _frame() -> frozenset[str]:
    return frozenset(lemmas(VALUE_NOUNS))


@lru_cache(maxsize=8192)
def _content(text: str, lang: str) -> frozenset[str]:
    """Content lemmas of ``text`` without its verbs and participles."""
    words = re.findall(r"[^\W\d_][\w'-]*", text)
    if lang == "ru" and morph.available():
        analyzer = morph._analyzer()
        words = [w for w in words if analyzer.parse(w.lower())[0].tag.POS not in _RU_VERBAL]
    elif lang != "ru":
        words = [w for w in words if w.lower() not in _EN_NOT_CONTENT
                 and not (len(w) > 4 and w.lower().endswith("ed") and not w.lower().endswith("eed"))]
    return frozenset(lemmas(" ".join(words)))


@lru_cache(maxsize=2048)
def _sentences(chunk: Chunk) -> tuple[str, ...]:
    """The chunk's sentences; a table's lines ("Annual fee | $120"), each a statement of its own."""
    found = tuple(sentences(chunk))
    return found or tuple(ln for ln in chunk.text.split("\n") if CELL_SEPARATOR in ln)


@lru_cache(maxsize=8192)
def _lemma_set(text: str) -> frozenset[str]:
    return frozenset(lemmas(text))


def topic(sentence: str) -> str:
    """The part of ``sentence`` before its first number, where the attribute is named; the whole sentence when
    it has no number or nothing but function words comes before it."""
    m = NUMBER.search(sentence)
    if m and _lemma_set(sentence[:m.start()]):
        return sentence[:m.start()]
    return sentence


def source_sentence(question: str, chunk: Chunk) -> str | None:
    """The sentence of ``chunk`` the question was asked from: the one sharing most content lemmas with it."""
    asked = set(lemmas(question))
    best, score = None, 0
    for s in _sentences(chunk):
        shared = len(asked & _lemma_set(s))
        if shared > score:
            best, score = s, shared
    return best


def attribute(question: str, sentence: str, own: Iterable[str], lang: str) -> set[str]:
    """The lemmas that say what ``question`` asks about (see the module docstring); ``own`` are the lemmas of the
    section heading, left out."""
    words = (_content(question, lang) & _content(topic(sentence), lang)) - set(own)
    return words - _frame() or words


def value_kind(sentence: str, lang: str) -> set[str]:
    """The nouns before the value of ``sentence`` that name what kind of value it is ("fee", «лимит»)."""
    return _content(topic(sentence), lang) & _frame()


def states(sentence: str, attr: set[str], kind: set[str], lang: str) -> bool:
    """``sentence`` names at least half of the attribute ``attr`` before its value, and no other kind of value
    than ``kind`` (the source sentence's :func:`value_kind`)."""
    if not attr:
        return False
    words = _content(topic(sentence), lang)
    shared = attr & words
    if _kinds(kind) and _kinds(words) and not _kinds(kind) & _kinds(words):
        return False
    return bool(shared) and 2 * len(shared) >= len(attr)


def _kinds(words: Iterable[str]) -> set[str]:
    return {k for k, nouns in VALUE_KINDS.items() if _lemma_set(nouns) & set(words)}


def stated_elsewhere(question: str, sentence: str, chunk: Chunk, chunks: Sequence[Chunk], lang: str) -> bool:
    """Another section of ``chunk``'s document (another heading) states the attribute ``question`` asks about
    from ``sentence``."""
    heading = chunk.section[-1].strip() if chunk.section else ""
    attr = attribute(question, sentence, lemmas(heading), lang)
    kind = value_kind(sentence, lang)
    for c in chunks:
        if c.doc_id != chunk.doc_id or c.id == chunk.id or not c.section or c.section[-1].strip() == heading:
            continue
        if any(states(s, attr, kind, lang) for s in _sentences(c)):
            return True
    return False


__all__ = ["VALUE_KINDS", "VALUE_NOUNS", "attribute", "source_sentence", "stated_elsewhere", "states", "topic", "value_kind"]
