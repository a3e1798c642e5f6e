"""Answerability: does the context hold the answer to this question? Pure rules over the texts.

The question is cut into parts with an intent and a subject (:func:`.intent.question_intent`); the
frame words ("какова", "каков", "сколько", "скока", "сейчас") never count as subject. The contexts
are cut into *units*: sentences, and table rows read with their header ("Штукатурка стен — Ед.: м²,
Цена, руб.: 620"). Per part, each unit gets::

    cover(u)  = mean over subject lemmas of  1   found in the unit (lemma, word form, 5-letter prefix,
                                                 or a synonym from ``synonyms_of``)
                                           0.5   found elsewhere in the same context (its title)
                                           0     not found
    value(u)  = intent.value_given(kind, u)      1 / 0.5 / 0 (yes/no, other: 1 when cover >= 0.5)
    numbers   = x 0.3 for each number or code of the question ("200", "2022", "P4") that the
                unit's context does not contain
    edition   = x 0.35 when the context says it is superseded ("утратил силу", "действовал до",
                "заменена новой редакцией") and the question does not ask about the past
    part(u)   = cover(u) ** 1.5 * value(u) * numbers * edition

and the part's score is the best unit's. ``P(answerable)`` is the mean of the parts' scores (a
two-part question with one part answered scores about half). No judge call: the score is a rule
score in [0, 1], read with a threshold (0.5 by default in the guard).

    >>> s = answerability("Какова стоимость облицовки стен ГКЛ в два слоя?",
    ...     ["Наименование работ | Ед. изм. | Цена, руб.\\nОблицовка стен ГКЛ в два слоя | м² | 1 480"])
    >>> s.score > 0.8, s.missing
    (True, ())
    >>> answerability("Сколько стоит укладка паркета?", ["Стяжка пола — 690 руб./м²."]).score < 0.5
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

from .intent import question_intent, value_given
from .lemmas import analyze, content_lemmas
from .text import split_sentences

__all__ = ["Answerability", "PartAnswer", "FRAME", "answerability", "is_superseded", "asks_past",
           "subject_of", "units"]

#: question frame words: never a subject ("Какова" lemmatises to "каковой")
FRAME = frozenset("""
каковой каков какова каково каковы какой который сколько скока скоко скок сейчас сегодня текущий
действующий актуальный нынешний вообще ваш вы мы у положенный положить стоить стоимость цена
почем подсказать скажите сказать пожалуйста интересовать знать хотеть
what which how much many is are do does the a an of for there current currently now
""".split())

_SUPERSEDED = re.compile(
    r"утратил[аио]?\s+силу|утративш|действовал[аио]?\s+(?:до|по|с\s+\S+\s+по)\b|заменен[аоы]?\s+(?:нов|прайс|редакц|верс|тариф)"
    r"|заменён[аоы]?\s|(?:прежн|предыдущ|стар)\w*\s+редакц|не\s+действует|\bархивн"
    r"|\bsuperseded\b|\bno\s+longer\s+(?:valid|in\s+force|applies)|\bwas\s+replaced\b|\brepealed\b|\bexpired\s+on\b", re.I)
_PAST = re.compile(r"\bраньше\b|\bпрежн|\bпредыдущ|\bстар(?:ый|ой|ая|ом|ому|ые|ых)\b|\bбыл[аио]?\b|\bдо\s+(?:изменен|повышен)"
                   r"|\bwas\b|\bwere\b|\bprevious|\bold\b|\bformer|\bused\s+to\b", re.I)
_NUMBER_OR_CODE = re.compile(r"(?<![\w.,])(?:[A-Za-zА-Яа-я]{1,3}-?\d+[\w]*|\d+(?:[.,]\d+)?)(?![\w])")
_CLOCKISH = re.compile(r"\d{1,2}[:.]\d{2}")
IN_CONTEXT = 0.7  #: credit of a subject word found in the unit's context but not in the unit itself
_PRICE_WORDS = frozenset({"стоить", "стоимость", "цена", "почем", "cost", "price", "fee"})


def _norm(text: str) -> str:
    return text.lower().replace("ё", "е").replace("э", "е")


@lru_cache(maxsize=20000)
def _lemma_set(text: str) -> frozenset[str]:
    lemmas = {_norm(x) for x in content_lemmas(text)}
    if "-" in text:  # "врача-кардиолога": "кардиолог" too
        lemmas |= {_norm(x) for x in content_lemmas(text.replace("-", " "))}
    words = {_norm(w) for w in re.findall(r"[\wёЁ-]+", text)}
    return frozenset(lemmas | words)


def _prefixes(lemmas: frozenset[str]) -> frozenset[str]:
    return frozenset(x[:n] for x in lemmas for n in (4, 5) if len(x) >= n and not x.isdigit())


def _found(lemma: str, lemmas: frozenset[str], prefixes: frozenset[str],
           synonyms_of: Callable[[str], set[str]]) -> bool:
    for form in synonyms_of(lemma) | {lemma}:
        form = _norm(form)
        if form in lemmas or (len(form) >= 4 and not form.isdigit() and form[:5] in prefixes):
            return True
        pieces = [p for p in form.split("-") if p]
        if len(pieces) > 1 and all(_found(p, lemmas, prefixes, lambda x: {x}) for p in pieces):
            return True
    return False


def subject_of(lemmas: Sequence[str]) -> tuple[str, ...]:
    """A part's subject lemmas without the frame words and bare numbers (numbers are checked apart)."""
    return tuple(x for x in lemmas if _norm(x) not in FRAME and not re.fullmatch(r"[\d.,]+", x))


def _numbers(text: str) -> set[str]:
    """Numbers and codes written in ``text`` ("200", "2022", "P4"), lower case, clock times left out."""
    text = _CLOCKISH.sub(" ", text)
    return {m.group(0).lower().replace(",", ".").replace("-", "") for m in _NUMBER_OR_CODE.finditer(text)}


def _numbers_in(text: str) -> set[str]:
    spaced = re.sub(r"(?<=\d)[\s\u00a0\u202f](?=\d{3}\b)", "", text)  # "14 500" -> "14500"
    return _numbers(text) | _numbers(spaced)


def is_superseded(text: str) -> bool:
    """Does ``text`` say that it is no longer in force ("утратил силу", "действовал до", "superseded")?
    A text that says it *replaces* another ("заменяет редакцию от ...") is the current one, not this."""
    return bool(_SUPERSEDED.search(text))


def asks_past(question: str) -> bool:
    """Does the question ask about the past ("раньше", "в старой редакции", "what was")?"""
    return bool(_PAST.search(question))


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.split("|")]




def units(text: str) -> list[str]:
    """Sentences and table rows (read with their header) of one context, in order."""
    out: list[str] = []
    header: list[str] | None = None
    for line in text.splitlines():
        if not line.strip():
            continue
        if "|" in line:
            cells = _cells(line)
            if header is None:
                first = cells[0].rpartition(". ")[2] or cells[0]
                header = [first, *cells[1:]]
                caption = cells[0].rpartition(". ")[0]
                if caption:
                    out.append(caption)
                continue
            if len(header) == len(cells):
                rest = [f"{h}: {v}" for h, v in zip(header[1:], cells[1:]) if v]
                out.append(f"{cells[0]} — {', '.join(rest)}" if rest else cells[0])
            else:
                out.append(" | ".join(cells))
            continue
        header = None
        out.extend(s.text.strip() for s in split_sentences(line) if s.text.strip())
    return out


@dataclass(frozen=True, slots=True)
class PartAnswer:
    """One question part: its intent and subject, the best unit and its score, what it lacks."""

    kind: str
    subject: tuple[str, ...]
    score: float
    context: int | None  #: index of the context of the best unit
    unit: str  #: the best unit ("" when no context)
    missing: tuple[str, ...]  #: subject lemmas / numbers the best context lacks
    value: float  #: value_given of the best unit
    superseded: bool  #: the best unit's context says it is no longer in force

    def to_dict(self) -> dict:
        return {"kind": self.kind, "subject": list(self.subject), "score": round(self.score, 3),
                "context": self.context, "unit": self.unit, "missing": list(self.missing),
                "value": self.value, "superseded": self.superseded}


@dataclass(frozen=True, slots=True)
class Answerability:
    """``score`` = P(the contexts answer the question) as a rule score; per part details."""

    score: float
    parts: tuple[PartAnswer, ...]

    @property
    def missing(self) -> tuple[str, ...]:
        """What the contexts lack, for a clarifying question: the subject words and numbers of the weak
        parts (score < 0.5) that the best context does not contain, as the question writes them."""
        return tuple(dict.fromkeys(w for p in self.parts if p.score < 0.5 for w in p.missing))

    @property
    def weak_kinds(self) -> tuple[str, ...]:
        """The value types asked for but not stated (a price, a duration, ...) in the weak parts."""
        return tuple(dict.fromkeys(p.kind for p in self.parts if p.score < 0.5 and p.value < 1.0))

    def to_dict(self) -> dict:
        return {"score": round(self.score, 4), "parts": [p.to_dict() for p in self.parts],
                "missing": list(self.missing)}


#: weight of a subject word by part of speech: the things asked about (nouns, names, codes) decide; verbs
#: ("разбить", "сдавать") and adverbs are often paraphrased in the documents
_POS_WEIGHT = {"NOUN": 1.0, "ADJF": 0.6, "ADJS": 0.5, "PRTF": 0.4, "PRTS": 0.4, "VERB": 0.25, "INFN": 0.25,
               "GRND": 0.25, "ADVB": 0.3, "NUMR": 0.6, "COMP": 0.3, "PRED": 0.3}


@lru_cache(maxsize=20000)
def _weights(part: str) -> dict[str, float]:
    """lemma -> weight (:data:`_POS_WEIGHT`; words without a part of speech, English or codes: 0.8; an
    all-capitals abbreviation such as "ВИЧ", "МФЦ": 1.0)."""
    out: dict[str, float] = {}
    for t in analyze(part):
        if t.is_stop or t.is_number:
            continue
        w = 1.0 if (t.text.isupper() and len(t.text) > 1) else (_POS_WEIGHT.get(t.pos, 0.5) if t.pos else 0.8)
        lemma = _norm(t.lemma)
        out[lemma] = max(out.get(lemma, 0.0), w)
    return out


#: a unit that names the value type beside a number ("Цена, руб.: 1 480", "Срок: 3 дня") states that value
_TYPE_WORDS = {
    "price": re.compile(r"руб|₽|\bцен[аеуыо]|стоимост|тариф|плат[аы]|комисси|\bprice|\bcost|\bfee|\$|€|usd|eur", re.I),
    "duration": re.compile(r"срок|время|дн(?:я|ей)|час|недел|месяц|\bdays?\b|\bhours?\b|\bweeks?\b|\bmonths?\b", re.I),
    "count": re.compile(r"\d"),
}


def _value(kind: str, unit: str, lang: str) -> float:
    """:func:`.intent.value_given`, and 1.0 for a number beside a word naming the asked type."""
    value = value_given(kind, unit, lang)
    words = _TYPE_WORDS.get(kind)
    if value < 1.0 and words is not None and re.search(r"\d", unit) and words.search(unit):
        return 1.0
    return value


def _words_of(question: str, lemmas: Sequence[str]) -> dict[str, str]:
    """lemma -> the word as the question writes it (for messages)."""
    out: dict[str, str] = {}
    for word in re.findall(r"[\wёЁ-]+", question):
        for lemma in content_lemmas(word):
            out.setdefault(_norm(lemma), word)
    return {lemma: out.get(_norm(lemma), lemma) for lemma in lemmas}


def answerability(question: str, contexts: Sequence[str], lang: str | None = None, *,
                  synonyms_of: Callable[[str], set[str]] = lambda lemma: {lemma}) -> Answerability:
    """Score how well ``contexts`` answer ``question`` (formula in the module doc)."""
    intent = question_intent(question, lang)
    past = asks_past(question)
    q_lemmas = {_norm(x) for x in content_lemmas(question, intent.lang)}
    ctx = [(i, t, _lemma_set(t), _numbers_in(t), is_superseded(t)) for i, t in enumerate(contexts) if t and t.strip()]
    ctx = [(i, t, lem, _prefixes(lem), nums, sup) for i, t, lem, nums, sup in ctx]
    parts: list[PartAnswer] = []
    for kind, subject_raw, part_text in zip(intent.kinds, intent.subjects, intent.parts):
        if kind == "other" and q_lemmas & _PRICE_WORDS:
            kind = "price"  # "анализ на вич скока стоит"
        subject = subject_of(subject_raw)
        numbers = _numbers(part_text)
        words = _words_of(part_text, subject)
        weights = _weights(part_text)
        weight = [weights.get(_norm(x), 0.5) for x in subject]
        best = PartAnswer(kind, subject, 0.0, None, "", tuple(words[x] for x in subject) + tuple(sorted(numbers)),
                          0.0, False)
        for i, text, c_lem, c_pre, c_nums, sup in ctx:
            missing_numbers = [n for n in numbers if n not in c_nums]
            factor = 0.3 ** len(missing_numbers) * (0.35 if sup and not past else 1.0)
            for unit in units(text):
                u_lem = _lemma_set(unit)
                u_pre = _prefixes(u_lem)
                credit, missing = [], []
                for x in subject:
                    if _found(x, u_lem, u_pre, synonyms_of):
                        credit.append(1.0)
                    elif _found(x, c_lem, c_pre, synonyms_of):
                        credit.append(IN_CONTEXT)
                    else:
                        credit.append(0.0)
                        missing.append(words[x])
                cover = sum(c * w for c, w in zip(credit, weight)) / sum(weight) if credit else 1.0
                if kind in ("yesno", "other"):
                    value = 1.0
                else:
                    value = _value(kind, unit, intent.lang)
                score = cover ** 1.5 * value * factor
                if score > best.score:
                    best = PartAnswer(kind, subject, score, i, unit, tuple(missing) + tuple(missing_numbers),
                                      value, sup)
        parts.append(best)
    total = sum(p.score for p in parts) / len(parts) if parts else 0.0
    return Answerability(total, tuple(parts))
