"""Data for quantity extraction: units, multipliers, number words, month names (Russian and English).

Pure tables and the regexes built from them; no logic. ``quantities.py`` reads these.
Order inside each list matters: the first alternative that matches wins, so longer and more
specific spellings come first (``м²`` before ``м``, ``рабочих дней`` before ``дней``).
"""

from __future__ import annotations

import re

# canonical unit -> (dimension, base unit, factor to base unit, qualifier)
# Only exact conversions: years<->months, weeks<->days, hours<->minutes, metric lengths and masses.
UNIT_INFO: dict[str, tuple[str, str, float, str | None]] = {
    "rub": ("money", "rub", 1.0, None),
    "usd": ("money", "usd", 1.0, None),
    "eur": ("money", "eur", 1.0, None),
    "percent": ("ratio", "percent", 1.0, None),
    "year": ("time", "month", 12.0, None),
    "month": ("time", "month", 1.0, None),
    "week": ("time", "day", 7.0, None),
    "day": ("time", "day", 1.0, None),
    "working_day": ("time", "day", 1.0, "working"),
    "calendar_day": ("time", "day", 1.0, "calendar"),
    "hour": ("time", "minute", 60.0, None),
    "minute": ("time", "minute", 1.0, None),
    "celsius": ("temperature", "celsius", 1.0, None),
    "mm": ("length", "m", 0.001, None),
    "cm": ("length", "m", 0.01, None),
    "m": ("length", "m", 1.0, None),
    "km": ("length", "m", 1000.0, None),
    "m2": ("area", "m2", 1.0, None),
    "ha": ("area", "m2", 10000.0, None),
    "m3": ("volume", "m3", 1.0, None),
    "l": ("volume", "m3", 0.001, None),
    "kg": ("mass", "kg", 1.0, None),
    "t": ("mass", "kg", 1000.0, None),
    "g": ("mass", "kg", 0.001, None),
    "piece": ("count", "piece", 1.0, None),
    "kw": ("power", "kw", 1.0, None),
    "mpa": ("pressure", "mpa", 1.0, None),
}

_M = r"мет(?:р[а-яё]*)\b"  # метр, метра, метров ...
_EN_M = r"met(?:er|re)s?\b"

# (canonical unit, regex) in priority order.
UNIT_PATTERNS: list[tuple[str, str]] = [
    ("working_day", r"(?:рабоч[а-яё]*|банковск[а-яё]*)\s+(?:дн[а-яё]*|день)\b|р\.\s?д\.|"
                    r"(?:working|business|banking)\s+days?\b"),
    ("calendar_day", r"календарн[а-яё]*\s+(?:дн[а-яё]*|день)\b|к\.\s?д\.|calendar\s+days?\b"),
    ("percent", r"%|процент[а-яё]*\b|percent\b|per\s?cent\b|pct\b"),
    ("rub", r"рубл[а-яё]*\b|руб\b\.?|р\b\.?|₽|r(?:o)?ubles?\b|rub\b\.?|RUR\b"),
    ("usd", r"US\$|\$|USD\b|долл(?:ар[а-яё]*)?\b\.?|dollars?\b"),
    ("eur", r"€|EUR\b|евро\b|euros?\b"),
    ("day", r"дн(?:я|ей|ям|ями|ях|ю|ём|ем)\b|день\b|сут(?:ки|ок|кам|ках|ками)\b|сут\b\.?|days?\b"),
    ("week", r"недел[а-яё]*\b|нед\b\.?|weeks?\b|wks?\b"),
    ("month", r"месяц[а-яё]*\b|мес\b\.?|months?\b"),
    ("year", r"год(?:а|у|ом|ам|ами|ах|ов)?\b|лет\b|years?\b|yrs?\b"),
    ("hour", r"час(?:а|ов|ам|ами|ах|у)?\b|ч\b\.?|hours?\b|hrs?\b|h\b"),
    ("minute", r"минут[а-яё]*\b|мин\b\.?|minutes?\b|mins?\b"),
    ("celsius", r"°\s*[CС]\b|℃|°|градус[а-яё]*(?:\s+(?:Цельсия|по\s+Цельсию))?|"
                r"degrees?(?:\s+(?:Celsius|C\b))?|deg\s?C\b"),
    ("m2", r"м²|м2\b|кв\.\s?м\b\.?|кв\.\s?" + _M + r"|квадратн[а-яё]*\s+" + _M +
           r"|m²|m2\b|sq\.?\s?m\b|sqm\b|square\s+" + _EN_M),
    ("ha", r"га\b|гектар[а-яё]*\b|hectares?\b|ha\b"),
    ("m3", r"м³|м3\b|куб\.\s?м\b\.?|куб\.\s?" + _M + r"|кубическ[а-яё]*\s+" + _M +
           r"|кубометр[а-яё]*\b|куб(?:а|ов|ы)?\b|m³|m3\b|cu\.?\s?m\b|cubic\s+" + _EN_M),
    ("l", r"литр[а-яё]*\b|л\b\.?|lit(?:er|re)s?\b|l\b"),
    ("mm", r"мм\b|миллиметр[а-яё]*\b|mm\b|millimet(?:er|re)s?\b"),
    ("cm", r"см\b|сантиметр[а-яё]*\b|cm\b|centimet(?:er|re)s?\b"),
    ("km", r"км\b|километр[а-яё]*\b|km\b|kilomet(?:er|re)s?\b"),
    ("m", r"пог(?:онн[а-яё]*)?\.?\s*(?:м\b\.?|" + _M + r")|п\.\s?м\.|м\.\s?п\.|м\b\.?|" + _M +
          r"|lin(?:ear)?\.?\s+(?:m\b|" + _EN_M + r")|m\b|" + _EN_M),
    ("kg", r"кг\b|килограмм[а-яё]*\b|kg\b|kilograms?\b|kilos?\b"),
    ("t", r"тонн[а-яё]*\b|т\b\.?|tonnes?\b|tons?\b|t\b"),
    ("g", r"грамм[а-яё]*\b|гр\b\.?|grams?\b"),
    ("piece", r"шт\b\.?|штук[а-яё]*\b|pcs\b\.?|pieces?\b"),
    ("kw", r"кВт\b|kW\b"),
    ("mpa", r"МПа\b|MPa\b"),
]

# Denominators of rates ("руб./м²", "0,1% в день"): (canonical denominator, regex).
DENOMINATOR_PATTERNS: list[tuple[str, str]] = [
    ("day", r"(?:дн[а-яё]*|день|сутки|day)(?:\s+(?:просрочки|задержки|of\s+delay))?\b"),
] + [
    (unit, pattern) for unit, pattern in UNIT_PATTERNS
    if unit in {"m2", "m3", "m", "t", "kg", "piece", "l", "hour", "month", "year", "week"}
]
RATE_LINK = r"\s*(?:/|за\s+(?:1\s+|один\s+|одн[уа]\s+|кажд[а-яё]+\s+)?|per\s+(?:each\s+)?|в\s+|a\s+|an\s+)"

# Multipliers written after a number: (value, regex). "т.р." also sets the unit to roubles.
MULTIPLIER_PATTERNS: list[tuple[float, str]] = [
    (1e12, r"трлн\b\.?|триллион[а-яё]*\b|trillions?\b|tn\b"),
    (1e9, r"млрд\b\.?|миллиард[а-яё]*\b|billions?\b|bn\b"),
    (1e6, r"млн\b\.?|миллион[а-яё]*\b|millions?\b|mln\b|mn\b"),
    (1e3, r"т\.\s?р\.?|тыс\b\.?|тысяч[а-яё]*\b|thousands?\b|k\b"),
]

RU_MONTHS = {  # first three letters
    "янв": 1, "фев": 2, "мар": 3, "апр": 4, "май": 5, "мая": 5, "мае": 5, "июн": 6,
    "июл": 7, "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12,
}
# Case-sensitive on purpose (first letter either case): `re` is several times slower with IGNORECASE on Cyrillic.
RU_MONTH_RE = (r"([яЯ]нвар[яеь]|[фФ]еврал[яеь]|[мМ]арта?|[мМ]арте|[аА]прел[яеь]|[мМ]а[яйе]|[иИ]юн[яеь]|"
               r"[иИ]юл[яеь]|[аА]вгуста?|[аА]вгусте|[сС]ентябр[яеь]|[оО]ктябр[яеь]|[нН]оябр[яеь]|[дД]екабр[яеь])")
EN_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
EN_MONTH_RE = (r"(January|February|March|April|May|June|July|August|September|October|November|"
               r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?")

# Russian cardinal lemmas (pymorphy3 normal forms, ё written as е).
RU_NUMBER_LEMMAS: dict[str, float] = {
    "ноль": 0, "нуль": 0, "один": 1, "два": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6,
    "семь": 7, "восемь": 8, "девять": 9, "десять": 10, "одиннадцать": 11, "двенадцать": 12,
    "тринадцать": 13, "четырнадцать": 14, "пятнадцать": 15, "шестнадцать": 16,
    "семнадцать": 17, "восемнадцать": 18, "девятнадцать": 19, "двадцать": 20, "тридцать": 30,
    "сорок": 40, "пятьдесят": 50, "шестьдесят": 60, "семьдесят": 70, "восемьдесят": 80,
    "девяносто": 90, "сто": 100, "двести": 200, "триста": 300, "четыреста": 400,
    "пятьсот": 500, "шестьсот": 600, "семьсот": 700, "восемьсот": 800, "девятьсот": 900,
    "тысяча": 1e3, "миллион": 1e6, "миллиард": 1e9, "триллион": 1e12, "полтора": 1.5,
}
# Cheap filter: only words starting like a number word are sent to pymorphy3.
RU_NUMBER_PREFIX = re.compile(
    r"(?:нол|нул|од[ин]|дв[аеу]|тр[иеё]|четыр|пят|шест|сем|вос[еь]м|девят|девян|десят|сорок|ст[оа]|"
    r"тысяч|миллион|миллиард|триллион|полтор|полут)", re.IGNORECASE)
# "пол" glued to a multiplier or unit: полмиллиона, полгода, полчаса.
RU_HALF_RE = re.compile(
    r"(?<![а-яё])(пол)-?(?=(?:миллиона|миллиарда|тысячи|года|часа|месяца|дня|суток|метра|тонны|литра)\b)",
    re.IGNORECASE)

EN_NUMBER_WORDS: dict[str, float] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1e3,
    "million": 1e6, "billion": 1e9, "trillion": 1e12, "dozen": 12,
}
EN_WORD_RE = re.compile(r"\b(?:" + "|".join(sorted(EN_NUMBER_WORDS, key=len, reverse=True)) + r")\b",
                        re.IGNORECASE)
EN_HALF_RE = re.compile(r"\b(half)(?:\s+an?)?(?=\s+(?:million|billion|thousand|year|month|hour|day|week)\b)",
                        re.IGNORECASE)
