"""Dates, references, grades and clock times: numbers that are not amounts, found before plain numbers.

"15.03.2026" and "15 марта 2026 г." are dates (value YYYYMMDD, 0 for an unknown part); "п. 4.2", "статья 5",
"ГОСТ 31357-2007", "44-ФЗ", phone numbers and versions are references; "М300", "B22,5", "W6", "F150" are
grades (unit = the Latin letter). ``extract_quantities`` hides the plain numbers inside these spans.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ._quantity_lexicon import EN_MONTH_RE, EN_MONTHS, MULTIPLIER_PATTERNS, RU_MONTH_RE, RU_MONTHS, UNIT_PATTERNS


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
# A unit or multiplier right after a number: "2.50 м", "12.50 руб." are amounts, not times or dates.
_UNIT_AFTER_RE = re.compile(r"\s*(?:" + "|".join([p for _, p in UNIT_PATTERNS] + [p for _, p in MULTIPLIER_PATTERNS]) + ")",
                            re.IGNORECASE)
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
# ... and codes written without the hyphen: priorities and levels "P1", "SEV2", "Т2", "A4" (capitals, then digits,
# one token); the concrete and steel grades (М300, B25) are read by _GRADE_RE with their keyword.
_ID_FIRST_RE = re.compile(r"(?<![\w\-])(\d{1,3})-([А-ЯЁA-Z]{2,6})(?![\w\-])")
_CODE_RE = re.compile(r"(?<![\w\-])([A-ZА-ЯЁ]{1,3})(\d{1,3})(?![\w\-]|[.,]\d)")
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
# Noon and midnight said in words.
_NOON_RE = re.compile(r"(?<![\w])(?:(полдень|полудня|noon|midday)|(полночь|полуночи|midnight))(?![\w])", re.IGNORECASE)
# A day of the month without a month: "до 15 числа", "15-го числа", "10 и 25 числа", "on the 15th of each month"
# (a date with year and month unknown: value = the day).
_DAY_SUFFIX = r"(?:-?(?:го|е|ое|ого|м|му|ым))?"
_DAY_OF_MONTH_RE = re.compile(
    r"(?<![\w.,:/])(\d{1,2})" + _DAY_SUFFIX + r"(?=(?:\s*(?:,|и|или|либо|по|до|[-–—])\s*\d{1,2}" + _DAY_SUFFIX
    + r")*\s+числ(?:а|о|у|е|ом)\b)"
    r"|(?<![\w.,:/])(\d{1,2})(?:st|nd|rd|th)(?=(?:\s*(?:,|and|or|[-–—])\s*\d{1,2}(?:st|nd|rd|th))*"
    r"\s+(?:day\s+)?of\s+(?:the|each|every)\s+month\b)", re.IGNORECASE)
# "9.00", "18.30" (a clock time with a dot) and "20.06" (a day and month without the year): Russian writes
# decimals with a comma, so two digits after a dot read as minutes (above 12 or "00") or a month (01-12),
# when a preposition of time comes before ("в 8.00", "с 20.06") or another such pair is the other end of a
# range ("9.00–18.00"); never before a unit ("2.50 м", "12.50 руб.").
_DOT_PAIR_RE = re.compile(r"(?<![\d.,$€₽])(\d{1,2})\.(\d{2})(?![\d]|[.,]\d)")
_DOT_LEAD_RE = re.compile(r"(?:(?<![\w])(?:в|с|со|до|по|к|от|после|at|from|until|till|by|after|before)\s+|\d\.\d{2}\s*[-–—]\s*)$",
                          re.IGNORECASE)
_DOT_TAIL_RE = re.compile(r"\s*(?:[-–—]|до|по|to|till|until)\s*\d{1,2}\.\d{2}(?![\d]|[.,]\d)", re.IGNORECASE)
# A clock range with the hour word once: "с 9 до 18 часов", "с 13 до 14 ч", "с 9 до 18." (bare numbers only
# when nothing but punctuation or a time word follows: "с 5 до 7 дней" is a duration).
_HOUR_RANGE_RE = re.compile(
    r"(?<![\w])(?:с|со)\s+(\d{1,2})(?:[:.](\d{2}))?\s+(?:до|по)\s+(\d{1,2})(?:[:.](\d{2}))?"
    r"(?:(\s*(?:ч\b\.?|час(?:а|ов)?\b))|(?=\s*(?:[.,;:)!?]|$|\s+(?:по|в|во|без|кроме|ежедневно|и|а|но)\b)))",
    re.IGNORECASE)
_ROUND_THE_CLOCK_RE = re.compile(r"(?<![\d/])24\s*/\s*7(?![\d/])")
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


def dot_pairs(text: str) -> list[tuple[int, int, str, float]]:
    """``(start, end, kind, value)`` of the dotted pairs that are clock times ("в 8.00": "clock", minutes after
    midnight) or days of a month ("с 20.06": "date", value MMDD); rules at ``_DOT_PAIR_RE``."""
    out: list[tuple[int, int, str, float]] = []
    if "." not in text:
        return out
    for m in _DOT_PAIR_RE.finditer(text):
        a, b = int(m.group(1)), int(m.group(2))
        lead = _DOT_LEAD_RE.search(text, max(0, m.start() - 12), m.start())
        if lead is None and _DOT_TAIL_RE.match(text, m.end()) is None:
            continue
        if _UNIT_AFTER_RE.match(text, m.end()):
            continue
        if 1 <= b <= 12 and len(m.group(1)) == 2 and 1 <= a <= 31:
            out.append((m.start(), m.end(), "date", float(b * 100 + a)))  # "с 20.06": 20 June, year unknown
        elif (b == 0 or b > 12) and b <= 59 and a <= 23:
            out.append((m.start(), m.end(), "clock", float(a * 60 + b)))
    return out


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
    if "числ" in text or "month" in text:
        for m in _DAY_OF_MONTH_RE.finditer(text):
            day = int(m.group(1) or m.group(2))
            if 1 <= day <= 31:
                add(m, float(day), "date", "date", "date")
    for start, end, kind, value in dot_pairs(text):
        out.append(Special(start, end, value, kind, None if kind == "clock" else "date", kind))
    if " до " in text or " по " in text:
        for m in _HOUR_RANGE_RE.finditer(text):
            h1, h2 = int(m.group(1)), int(m.group(3))
            m1, m2 = int(m.group(2) or 0), int(m.group(4) or 0)
            if not (h1 < h2 <= 24 and m1 < 60 and m2 < 60) or (m.group(5) is None and h2 - h1 < 2):
                continue
            out.append(Special(m.start(1), m.end(2) if m.group(2) else m.end(1), float(h1 * 60 + m1), "clock", None, "clock"))
            out.append(Special(m.start(3), m.end(), float(h2 * 60 + m2), "clock", None, "clock"))
    for m in _NOON_RE.finditer(text):
        add(m, 720.0 if m.group(1) else 0.0, "clock", None, "clock")
    if "/" in text:
        for m in _ROUND_THE_CLOCK_RE.finditer(text):
            add(m, 24.0, "ref", None, "ref")  # "24/7": round the clock, not the numbers 24 and 7
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
    # after the grades: "М500" is the grade "M" whichever regex finds it. Russian text only: in English, "O2",
    # "P60" are brands and models far more often than codes, and were never read as numbers.
    for m in _CODE_RE.finditer(text) if lang == "ru" else ():
        out.append(Special(m.start(), m.end(), float(m.group(2)), "grade", m.group(1).upper(), "grade"))
    if "-" in text:
        for m in _ID_FIRST_RE.finditer(text):  # "2-НДФЛ", "3-НДФЛ": the form's number is part of its name
            out.append(Special(m.start(), m.end(), float(m.group(1)), "grade", m.group(2).upper(), "grade"))
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
