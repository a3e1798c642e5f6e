"""Dates, references, grades and clock times: numbers that are not amounts, found before plain numbers.

"15.03.2026" and "15 марта 2026 г." are dates (value YYYYMMDD, 0 for an unknown part); "п. 4.2", "статья 5",
"ГОСТ 31357-2007", "44-ФЗ", phone numbers and versions are references; "М300", "B22,5", "W6", "F150" are
grades (unit = the Latin letter). ``extract_quantities`` hides the plain numbers inside these spans.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ._quantity_lexicon import EN_MONTH_RE, EN_MONTHS, RU_MONTH_RE, RU_MONTHS


class Special(NamedTuple):
    """A span that is a date, a reference, a grade or a clock time."""

    start: int
    end: int
    value: float
    kind: str  # "date" | "ref" | "grade" | "clock" | "number" (numeral compounds: "двухслойный")
    unit: str | None
    dimension: str | None


_REF_RE = re.compile(
    r"(?<![\w])(?:пп?\.|(?:под)?пункт[а-яё]*|ст\.|стать[а-яё]*|раздел[а-яё]*|разд\.|глав[а-яё]*|гл\.|"
    r"прил\.|приложени[а-яё]*|(?<!\d\s)ч\.|част[а-яё]*|табл\.|таблиц[а-яё]*|рис\.|рисун[а-яё]*|стр\.|§|№|"
    r"No\.?|N°|sections?|sec\.|clauses?|articles?|art\.|item|appendix|annex|chapter|table|figure|fig\.|page|pp?\.)"
    r"\s*(\d+(?:[./]\d+)*)(?![\d]|[.,/]\d)", re.IGNORECASE)
_STANDARD_RE = re.compile(r"(?<![\w])(?:ГОСТ(?:\s+Р)?|СНиП|СП|СанПиН|ТУ|ISO|EN|DIN|ASTM)\s*(\d[\d.\-–:]*\d)"
                          r"|(?<![\w])(\d+)-ФЗ\b|(?<![\w])ФЗ-(\d+)\b")
# Phone numbers and software versions: identifiers, never amounts.
_PHONE_RE = re.compile(r"(?<![\w+])(?:\+7|8)?\s?\(\d{3,5}\)\s?\d{1,3}[-\s]?\d{2}[-\s]?\d{2}(?!\d)"
                       r"|(?<![\w\d])\d{3}-\d{2}-\d{2}(?!\d)")
_VERSION_RE = re.compile(r"(?<![\w.])[vV]?\d+\.\d+\.\d+(?:\.\d+)*(?![\d])")
# Cheap gates: skip a family of patterns when the text cannot contain it.
_EN_MONTH_GATE = re.compile(r"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec")
_RU_MONTH_GATE = re.compile(r"\d\s+[а-яА-Я]|[а-я]\s+\d{4}")
_STANDARD_WORDS = ("ГОСТ", "СНиП", "СП", "СанПиН", "ТУ", "ISO", "EN", "DIN", "ASTM", "ФЗ")
_DOTTED_GATE = re.compile(r"\d[./]\d")
# Letter first (not a lookbehind) so that `re` can skip ahead to candidate letters.
_GRADE_RE = re.compile(r"([МMВBFWАA])(?<!\w.)(\d{1,4}(?:[.,]\d)?)[СC]?(?!\w)")
_GRADE_KEYWORD_RE = re.compile(r"(?<![\w])(?:марк[а-яё]*|класс[а-яё]*|grade|class)\s+$", re.IGNORECASE)
_DATE_NUM_RE = re.compile(r"(?<![\d.])(\d{1,2})([./])(\d{1,2})[./](\d{4}|\d{2})(?![\d])(?:\s*(?:г\.|года?\b))?")
_DATE_ISO_RE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_DATE_RU_RE = re.compile(r"(?<![\d.])(\d{1,2})\s+" + RU_MONTH_RE + r"\b(?:\s+(\d{4})(?:\s*(?:г\.|год[а-яё]*\b))?)?")
_MONTH_YEAR_RU_RE = re.compile(r"(?<![\w])" + RU_MONTH_RE + r"\s+(\d{4})(?:\s*(?:г\.|год[а-яё]*\b))?")
_DATE_EN_RE = re.compile(r"\b" + EN_MONTH_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?")
_DATE_EN2_RE = re.compile(r"(?<![\d.])(\d{1,2})(?:st|nd|rd|th)?\s+" + EN_MONTH_RE + r"\b(?:,?\s+(\d{4}))?")
_MONTH_YEAR_EN_RE = re.compile(r"\b" + EN_MONTH_RE + r"\s+(\d{4})\b")
_YEAR_RE = re.compile(r"(?<![\d.,])((?:19|20)\d{2})\s*(?:г\.|гг\.|год(?:а|у)?\b)", re.IGNORECASE)
_CLOCK_RE = re.compile(r"(?<![\d:.,])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")
# "2025-м", "2024-го", "в 2025-й": a year with a case ending, not an ordinal amount.
_YEAR_ENDING_RE = re.compile(r"(?<![\d.,])((?:19|20)\d{2})-(?:м|го|й|му|ом)(?![а-яё\w])", re.IGNORECASE)
# Identifiers that contain digits: form and tariff codes ("КС-2", "Т-13", "Ф-1"), compared by identity as a
# "grade" (unit = the letters), never as amounts; versions ("версия 3.1", "v2.0") are references.
_ID_RE = re.compile(r"(?<![\w\-])([А-ЯЁA-Z]{1,4})-(\d{1,4})(?![\w\-]|[.,]\d)")
_VERSION_WORD_RE = re.compile(r"(?<![\w])(?:верси[яиюей]|version|ver\.|v\.?)\s*(\d+(?:\.\d+)*)(?![\w.]|\.\d)",
                              re.IGNORECASE)
# Clock times said in words: "в 9 утра", "в 9 часов вечера", "до шести вечера", "9 am", "6 p.m.".
_HOUR_WORDS = {"час": 1, "одного": 1, "двух": 2, "два": 2, "трёх": 3, "трех": 3, "три": 3, "четырёх": 4, "четырех": 4,
               "четыре": 4, "пяти": 5, "пять": 5, "шести": 6, "шесть": 6, "семи": 7, "семь": 7, "восьми": 8,
               "восемь": 8, "девяти": 9, "девять": 9, "десяти": 10, "десять": 10, "одиннадцати": 11,
               "одиннадцать": 11, "двенадцати": 12, "двенадцать": 12}
_CLOCK_WORDS_RE = re.compile(
    r"(?<![\w:.,])(\d{1,2}|" + "|".join(sorted(_HOUR_WORDS, key=len, reverse=True)) + r")(?:[:.]([0-5]\d))?"
    r"(?:\s+час(?:а|ов)?)?\s+(утра|дня|вечера|ночи)\b"
    r"|(?<![\w.,])(\d{1,2})(?::([0-5]\d))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
_PART_OF_DAY = {"утра": "am", "ночи": "am", "дня": "pm", "вечера": "pm"}
# Numeral compounds: "двухслойная" = "в два слоя", "трёхкомнатная", "пятилетний" (known roots only:
# "семинар" is no number).
_COMPOUND_NUMERALS = {"одно": 1, "двух": 2, "дву": 2, "трёх": 3, "трех": 3, "четырёх": 4, "четырех": 4, "пяти": 5,
                      "шести": 6, "семи": 7, "восьми": 8, "девяти": 9, "десяти": 10}
_COMPOUND_RE = re.compile(
    r"(?<![\w-])(" + "|".join(sorted(_COMPOUND_NUMERALS, key=len, reverse=True)) + r")-?"
    r"(?=(?:слойн|этажн|комнатн|летн|месячн|недельн|дневн|часов|разов|сменн|кратн|местн|уровнев|ступенчат|"
    r"компонентн|камерн|контурн|трубн|фазн|сторонн|ярусн|секционн|рядн|тонн|кратн|ходов|полосн|скатн)[а-яё]*\b)"
    r"[а-яё]+", re.IGNORECASE)


def _clock_value(m: re.Match[str]) -> float | None:
    """Minutes after midnight of a clock time said in words; None when the hour cannot be that part of day."""
    if m.group(1) is not None:
        word, minutes, part = m.group(1).lower(), m.group(2), _PART_OF_DAY[m.group(3).lower()]
        hour = int(word) if word.isdigit() else _HOUR_WORDS[word]
        night = m.group(3).lower() == "ночи"
        if m.group(3).lower() in ("дня", "ночи") and minutes is None and "час" not in m.group().lower():
            return None  # "за 2 дня", "на 3 ночи" are durations; "в 2 часа дня", "в 14.30 дня" are times
    else:
        hour, minutes, part, night = int(m.group(4)), m.group(5), m.group(6).lower() + "m", False
    if not 1 <= hour <= 12:
        return None
    if part == "pm" and hour < 12:
        hour += 12
    elif hour == 12 and (night or part == "am"):
        hour = 0
    return float(hour * 60 + int(minutes or 0))


def find_specials(text: str, lang: str) -> list[Special]:
    """Dates, references, grades and clock times: found before plain numbers, which they then hide."""
    out: list[Special] = []

    def add(m: re.Match[str], value: float, kind: str, unit: str | None, dimension: str | None) -> None:
        out.append(Special(m.start(), m.end(), value, kind, unit, dimension))

    def date(y: str | None, mo: int, d: str | int | None) -> float:
        year = int(y) if y else 0
        year = year + 2000 if 0 < year < 100 else year
        return float(year * 10000 + mo * 100 + int(d or 0))

    if "-" in text:
        for m in _DATE_ISO_RE.finditer(text):
            add(m, date(m.group(1), int(m.group(2)), m.group(3)), "date", "date", "date")
    dotted = _DOTTED_GATE.search(text) is not None
    if dotted:
        for m in _DATE_NUM_RE.finditer(text):
            a, b = int(m.group(1)), int(m.group(3))
            day, month = (b, a) if m.group(2) == "/" and lang == "en" and b <= 31 and a <= 12 else (a, b)
            if 1 <= month <= 12 and 1 <= day <= 31:
                add(m, date(m.group(4), month, day), "date", "date", "date")
        for m in _VERSION_RE.finditer(text):
            add(m, float(re.search(r"\d+", m.group()).group()), "ref", None, "ref")
    if _RU_MONTH_GATE.search(text):
        for m in _DATE_RU_RE.finditer(text):
            add(m, date(m.group(3), RU_MONTHS[m.group(2)[:3].lower()], m.group(1)), "date", "date", "date")
        for m in _MONTH_YEAR_RU_RE.finditer(text):
            add(m, date(m.group(2), RU_MONTHS[m.group(1)[:3].lower()], None), "date", "date", "date")
    if _EN_MONTH_GATE.search(text):
        for m in _DATE_EN_RE.finditer(text):
            add(m, date(m.group(3), EN_MONTHS[m.group(1)[:3].lower()], m.group(2)), "date", "date", "date")
        for m in _DATE_EN2_RE.finditer(text):
            add(m, date(m.group(3), EN_MONTHS[m.group(2)[:3].lower()], m.group(1)), "date", "date", "date")
        for m in _MONTH_YEAR_EN_RE.finditer(text):
            add(m, date(m.group(2), EN_MONTHS[m.group(1)[:3].lower()], None), "date", "date", "date")
    for m in _YEAR_RE.finditer(text):
        add(m, date(m.group(1), 0, None), "date", "date", "date")
    if "-" in text:
        for m in _YEAR_ENDING_RE.finditer(text):
            add(m, date(m.group(1), 0, None), "date", "date", "date")
    for m in _CLOCK_WORDS_RE.finditer(text):
        value = _clock_value(m)
        if value is not None:
            add(m, value, "clock", None, "clock")
    for m in _COMPOUND_RE.finditer(text):
        add(m, float(_COMPOUND_NUMERALS[m.group(1).lower()]), "number", None, None)
    if any(word in text for word in _STANDARD_WORDS):
        for m in _STANDARD_RE.finditer(text):
            add(m, float(re.match(r"\d+", m.group(1) or m.group(2) or m.group(3)).group()), "ref", None, "ref")
    if "(" in text or "-" in text:
        for m in _PHONE_RE.finditer(text):
            add(m, float(re.search(r"\d+", m.group()).group()), "ref", None, "ref")
    if "-" in text:
        for m in _ID_RE.finditer(text):
            out.append(Special(m.start(), m.end(), float(m.group(2)), "grade", m.group(1).upper(), "grade"))
    for m in _VERSION_WORD_RE.finditer(text):
        add(m, float(m.group(1).partition(".")[0]), "ref", None, "ref")
    for m in _REF_RE.finditer(text):
        head, _, tail = m.group(1).replace("/", ".").partition(".")
        add(m, float(head + "." + tail.replace(".", "")) if tail else float(head), "ref", None, "ref")
    for m in _GRADE_RE.finditer(text):
        letter = {"М": "M", "В": "B", "А": "A"}.get(m.group(1), m.group(1))
        keyword = _GRADE_KEYWORD_RE.search(text, max(0, m.start() - 16), m.start())
        start = keyword.start() if keyword else m.start()
        out.append(Special(start, m.end(), float(m.group(2).replace(",", ".")), "grade", letter, "grade"))
    if ":" in text:
        for m in _CLOCK_RE.finditer(text):
            add(m, float(int(m.group(1)) * 60 + int(m.group(2))), "clock", None, "clock")
    # Keep the earliest, then longest, of overlapping finds.
    out.sort(key=lambda q: (q.start, -q.end))
    kept: list[Special] = []
    for q in out:
        if not kept or q.start >= kept[-1].end:
            kept.append(q)
    return kept
