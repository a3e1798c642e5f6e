"""Russian sentences that state a ceiling, asked as the maximum they state (English: :mod:`.prose_en`).

* «X не должен (не может) превышать N» -> «Каков максимальный X?» when X is a measure itself («Объявленная
  ценность не может превышать 500 000 рублей» -> «Какова максимальная объявленная ценность?»), else the measure
  the unit names, of X in the genitive («Поддон не должен превышать 1 000 кг» -> «Каков максимальный вес
  поддона?»); a measure named after the number («по длине», «по весу») is the one asked, of what X is of
  («Габариты одного места не должны превышать 2 метров по длине» -> «Какова максимальная длина одного места?»,
  not «Сколько метров не должны превышать габариты одного места по длине?»);
* «X ограничен(а) [суммой] N» -> «Каков лимит X?» («Ответственность перевозчика ограничена суммой 5 000 рублей за
  место, если …» -> «Каков лимит ответственности перевозчика?», not the bookish «Какой суммой ограничена …?»; the
  reference, the sentence, keeps the exception); «Какова максимальная X?» when X is a measure.

The subject must be a nominative noun phrase pymorphy3 can read (its gender and number agree the question word);
anything else gives None and the sentence is counted as before.
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph
from ragauge.generate.questions.prose_ru_nominal import limit_question

_CAP = re.compile(r"^(?P<subj>[А-ЯЁA-Z][^,;:()]{2,80}?)\s+(?:не\s+(?:должен|должна|должно|должны|может|могут)\s+"
                  r"превышать|не\s+превыша(?:ет|ют))\s+(?P<num>\d[\d\s\u00a0.,]*)\s*(?P<unit>\S*)"
                  r"(?:\s+по\s+(?P<dim>[а-яё]+))?")
_LIMITED = re.compile(r"^(?P<subj>[А-ЯЁA-Z][^,;:()]{2,80}?)\s+(?P<verb>ограничен[аоы]?|ограничива(?:ется|ются))\s+"
                      r"(?:(?P<noun>суммой|размером|величиной)\s+)?(?P<num>\d[\d\s\u00a0.,]*)\s*(?P<unit>\S*)")
_MAX = {"masc": "максимальный", "femn": "максимальная", "neut": "максимальное", "plur": "максимальные"}
_WHICH = {"masc": "Каков", "femn": "Какова", "neut": "Каково", "plur": "Каковы"}
#: Heads that are a measure themselves: "максимальная сумма", not "максимальная сумма суммы".
MEASURES = {"вес", "масса", "сумма", "ценность", "стоимость", "цена", "длина", "ширина", "высота", "размер", "объём",
            "объем", "срок", "продолжительность", "лимит", "количество", "число", "площадь", "нагрузка", "скорость",
            "компенсация", "выплата", "скидка", "ставка", "возмещение", "задолженность", "габарит", "остаток",
            "время", "длительность", "глубина", "толщина", "диаметр"}
#: The measure a unit names, with its gender.
_UNIT_MEASURE = ((re.compile(r"^(?:кг|килограмм|т\b|тонн|г\b|грамм)"), "вес", "masc"),
                 (re.compile(r"^(?:см|мм|м\b|метр|км|сантиметр|миллиметр)"), "длина", "femn"),
                 (re.compile(r"^(?:руб|₽|\$|€|долл|евро)"), "сумма", "femn"),
                 (re.compile(r"^(?:дн|день|дня|сут|час|минут|недел|месяц|лет|год)"), "продолжительность", "femn"))


def _form(subject: str) -> str | None:
    if re.search(r"\d", subject) or not morph.available():
        return None
    form = morph.gender_number(subject)
    return str(form) if form is not None else None


def _dimension(dim: str, subject: str) -> str | None:
    """«Какова максимальная длина одного места?» for «по длине» after the number and the subject «габариты одного
    места»: the measure in the nominative, of what the subject's measure is of (its genitive words), or of the
    subject itself when its head is no measure («длина поддона»)."""
    analyzer = morph._analyzer()
    parse = next((p for p in analyzer.parse(dim) if p.tag.POS == "NOUN" and p.tag.case == "datv"), None)
    if parse is None or parse.normal_form not in MEASURES:
        return None
    gender = "plur" if parse.tag.number == "plur" else str(parse.tag.gender)
    measure = parse.inflect({"nomn", parse.tag.number})
    words = subject.split(" ")
    if morph.head_lemma(subject) in MEASURES:
        head, _ = morph._head_positions(words)  # «габариты | одного места»: what the measure is of
        owner = " ".join(words[max(head) + 1:]) if head else ""
    else:
        owner = morph.inflect(subject, "gent") or ""
    if measure is None or gender not in _MAX:
        return None
    return f"{_WHICH[gender]} {_MAX[gender]} {' '.join(filter(None, [measure.word, owner]))}?"


def ru_cap_question(sentence: str) -> tuple[str, str] | None:
    """(question, "limit") for a sentence that states a ceiling, else None (see the module docstring)."""
    text = re.sub(r"(?<=\d)[ \u00a0](?=\d{3}\b)", "", sentence.strip())
    m = _CAP.match(text)
    if m:
        subject = morph.lower_first(m.group("subj").strip())
        form = _form(subject)
        if form is None:
            return None
        if m.group("dim") and (named := _dimension(m.group("dim"), subject)) is not None:
            return named, "limit"
        if morph.head_lemma(subject) in MEASURES:
            return f"{_WHICH[form]} {_MAX[form]} {subject}?", "limit"
        unit = m.group("unit").lower()
        named = next(((noun, gender) for pattern, noun, gender in _UNIT_MEASURE if pattern.match(unit)), None)
        genitive = morph.inflect(subject, "gent")
        if named is None or genitive is None:
            return None
        return f"{_WHICH[named[1]]} {_MAX[named[1]]} {named[0]} {genitive}?", "limit"
    m = _LIMITED.match(text)
    if m:
        subject = morph.lower_first(m.group("subj").strip())
        if _form(subject) is None:
            return None
        if m.group("noun") is None and not re.match(r"^(?:руб|₽|\$|€)", m.group("unit").lower()):
            return None  # "ограничен 3 местами": no measure to name
        limit = limit_question(subject, MEASURES)
        return (limit, "limit") if limit is not None else None
    return None


__all__ = ["MEASURES", "ru_cap_question"]
