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
    kind: str  # "date" | "ref" | "grade" | "clock"
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
    if any(word in text for word in _STANDARD_WORDS):
        for m in _STANDARD_RE.finditer(text):
            add(m, float(re.match(r"\d+", m.group(1) or m.group(2) or m.group(3)).group()), "ref", None, "ref")
    if "(" in text or "-" in text:
        for m in _PHONE_RE.finditer(text):
            add(m, float(re.search(r"\d+", m.group()).group()), "ref", None, "ref")
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
