"""What goes with a Russian question phrase (:mod:`.prose_wh`), and what is left out of the question.

* :func:`with_owner` — a percentage of a named base that is itself what the sentence states («возмещается не более
  50% стоимости тура») is asked «Сколько максимум возмещается …?», not «В каком максимальном размере возмещается
  стоимости тура?»: the base is left to the answer;
* :func:`joined` — what a unit measures and a rate after it go with the phrase («Сколько килограммов багажа …»,
  «Сколько километров в сутки …»); the event a time is
  counted from goes right after it («В какой срок после решения перечисляются деньги?»: «в течение N дней после
  X» is a deadline); a chain of adjuncts between the verb and the quantity («в рублях по курсу ЦБ на дату выплаты»)
  is left out: it says how, not what;
* :func:`subject_clause_ok` — a subject with a participle clause of its own («Расходы, связанные с беременностью,
  покрываются …») may go after the verb like any other subject.
"""

from __future__ import annotations

import re
from typing import Any

from ragauge.generate.questions import morph
from ragauge.generate.questions.prose_ru_modal import anchor

#: The phrase of a percentage, when its base is left to the answer.
_OF_BASE = {"сколько процентов": "сколько", "в каком максимальном размере": "сколько максимум",
            "в каком минимальном размере": "сколько минимум", "до скольких процентов": "сколько максимум"}
_RATE_UNIT = re.compile(r"^(?:сутки|день|час|месяц|год|неделю|человека|место)$")
_TIME_PHRASES = ("в течение какого срока", "в какой срок", "через сколько", "за сколько")
#: More words than this between the verb and the quantity are a chain of adjuncts.
MAX_MIDDLE = 4


def _parses(word: str) -> list[Any]:
    analyzer = morph._analyzer()
    clean = word.strip(",.;:«»()").lower()
    return list(analyzer.parse(clean)) if analyzer is not None and re.fullmatch(r"[а-яё-]+", clean) else []


def with_owner(phrase: str, words: list[str], end: int, number: str) -> tuple[str, int]:
    """(phrase, end) with the genitive base after a percentage («стоимости тура») taken into the quantity."""
    if phrase not in _OF_BASE or not number.endswith("%") and phrase != "сколько процентов":
        return phrase, end
    k = end
    while k < len(words) and k - end < 3:
        parses = _parses(words[k])
        if not parses or parses[0].tag.POS == "PREP" or not any(
                p.tag.case == "gent" and p.tag.POS in ("NOUN", "ADJF", "PRTF") for p in parses):
            break
        k += 1
        if words[k - 1].endswith(","):
            break
    if k == end or not any(p.tag.POS == "NOUN" and p.tag.case == "gent" for w in words[end:k] for p in _parses(w)):
        return phrase, end
    return _OF_BASE[phrase], k


def joined(phrase: str, words: list[str], start: int, end: int, verb_at: int) -> tuple[str, list[str], int, int]:
    """(phrase, words, start, end) with a rate and an event taken into the phrase and a chain of adjuncts left out
    (see the module docstring); a quantity before the verb stays as it is."""
    if start <= verb_at:
        return phrase, words, start, end
    if re.fullmatch(r"сколько \w+|(?:до|с|по|от) (?:какой|какого) \w+", phrase):
        k = end  # what the unit measures: «сколько килограммов багажа», «до какой недели семестра»
        while k < len(words) and k - end < 2 and (top := _parses(words[k])[:1]) and top[0].tag.POS == "NOUN" \
                and top[0].tag.case == "gent":
            k += 1
            if words[k - 1].endswith(","):
                break
        if k > end:
            phrase = " ".join([phrase, *[w.strip(",") for w in words[end:k]]])
            words = words[:end] + words[k:]
    if phrase.startswith(("сколько", "по какой цене")) and end + 1 < len(words) and words[end].lower() in ("в", "за") \
            and _RATE_UNIT.match(words[end + 1].strip(",.;:").lower()):
        phrase = f"{phrase} {words[end]} {words[end + 1].strip(',.;:')}"  # «сколько километров в сутки»
        words = words[:end] + words[end + 2:] if not words[end + 1].endswith(",") else \
            words[:end - 1] + [words[end - 1] + ","] + words[end + 2:]
    if phrase.startswith(_TIME_PHRASES) and (stop := anchor(words, end)) > end:
        event = [w.strip(",") for w in words[end:stop]]
        if phrase == "в течение какого срока" and event[0].lower() == "после":
            phrase = "в какой срок"  # a deadline counted from an event
        phrase = " ".join([phrase, *event])
        words = words[:end] + words[stop:]
    middle = words[verb_at + 1:start]
    if start > verb_at and len(middle) > MAX_MIDDLE and not any(w.endswith(",") for w in middle) \
            and (_parses(middle[0])[:1] or [None])[0] is not None and _parses(middle[0])[0].tag.POS == "PREP":
        words = words[:verb_at + 1] + words[start:]  # «в рублях по курсу ЦБ на дату выплаты»: how, not what
        start, end = start - len(middle), end - len(middle)
    return phrase, words, start, end


def subject_clause_ok(words: list[str], verb_at: int) -> bool:
    """No comma before the verb, or only the two around a participle clause that ends right before it."""
    commas = [k for k in range(verb_at) if words[k].endswith(",")]
    if not commas:
        return True
    if len(commas) != 2 or commas[1] != verb_at - 1 or commas[0] + 1 >= verb_at:
        return False
    return any(p.tag.POS in ("PRTF", "ADJF") for p in _parses(words[commas[0] + 1])[:1])


def own_subject(words: list[str], verb_at: int) -> int:
    """Where the subject of ``words[verb_at]`` starts after the prepositional phrases that open the sentence («Для
    путешественников от 65 до 74 лет | стоимость полиса»): the first noun that no preposition governs and that can
    be nominative in the verb's number; ``verb_at`` when there is none («В стоимость аренды | входит»)."""
    verb = _parses(words[verb_at])[:1]
    number = verb[0].tag.number if verb else None
    governed = False
    for k in range(verb_at):
        parses = _parses(words[k])
        top = parses[0] if parses else None
        if top is not None and top.tag.POS == "PREP":
            governed = True
            continue
        if top is None or top.tag.POS != "NOUN":
            continue  # an adjective or a number goes with the noun after it
        after_noun = k > 0 and (prev := _parses(words[k - 1])[:1]) and prev[0].tag.POS == "NOUN" \
            and any(p.tag.case == "gent" for p in parses)  # «за пределами | МКАД»: a genitive complement
        if not governed and not after_noun and any(p.tag.POS == "NOUN" and p.tag.case == "nomn" and p.tag.number == number
                                for p in parses):
            start = k
            while start > 0 and (q := _parses(words[start - 1])[:1]) and q[0].tag.POS in ("ADJF", "PRTF"):
                start -= 1
            return start
        governed = False
    return verb_at


__all__ = ["MAX_MIDDLE", "joined", "own_subject", "subject_clause_ok", "with_owner"]
