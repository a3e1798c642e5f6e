"""Columns of a table: what each value column holds and how its header reads.

A header cell splits into a name, a unit, a per-phrase and a condition:

* ``"Цена в месяц, руб."`` -> name "Цена", per "в месяц", unit "руб.";
* ``"1–3 суток, за сутки"`` -> condition "1–3 суток", per "за сутки" (a header with no noun of its own);
* ``"Price per month"`` -> name "Price", per "per month"; ``"Weight, kg"`` -> name "Weight", unit "kg".

A column's kind comes from its name and its cells: ``price`` (the name says price or cost, or the header is only a
condition over money cells), ``duration`` (cells such as "3 weeks", "14 дней"), ``count`` (bare whole numbers),
``measure`` (other numbers and money: a deposit, a sum insured, a limit) and ``text`` (names, places, lists).
Columns of notes and descriptions are not asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

NUM = r"\d{1,3}(?:[ \u00a0,]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"
_CUR = r"₽|руб\.?|рублей|€|\$|£|USD|EUR|RUB|GBP"
#: A money or number cell: "2 900 ₽", "$1,900", "0,8 €", "15", "1 150".
MONEY_CELL = re.compile(rf"^(?P<bound>(?:от|до|from|up to)\s+)?(?P<pre>[$€£])?\s?(?P<num>[-−]?(?:{NUM}))\s*"
                        rf"(?P<post>{_CUR})?$", re.IGNORECASE)
_TIME = (r"(?:минут\w*|час\w*|дн\w*|день|сут\w*|недел\w*|месяц\w*|лет|год\w*|"
         r"minutes?|hours?|days?|weeks?|months?|years?|nights?)")
#: A duration cell: "3 weeks", "24 hours", "от 14 дней", "1–3 working days", "до 12 месяцев".
DURATION_CELL = re.compile(rf"^(?:до|от|не более|не менее|up to|at least|at most)?\s*(?:{NUM})(?:\s?[–-]\s?(?:{NUM}))?"
                           rf"\s+(?:рабоч\w+\s+|календарн\w+\s+|working\s+|calendar\s+|business\s+)?{_TIME}$",
                           re.IGNORECASE)
#: A quantity with a short unit: "10 ГБ", "5 kg", "20 м²".
QUANTITY_CELL = re.compile(rf"^(?:{NUM})\s?[^\d\s.,]{{1,5}}\.?$")
_PRICE_NAME = re.compile(r"\b(?:цен|стоимост|прайс)|\b(?:price|prices|cost|costs)\b", re.IGNORECASE)
_CURRENCY_ONLY = re.compile(rf"^(?:{_CUR}|руб|рубли)$", re.IGNORECASE)
_NOTES = re.compile(r"^(?:примечан|коммент|описан|пояснен|note|comment|remark|description|details)", re.IGNORECASE)
_UNIT_HEADER = re.compile(r"^(?:ед\b|ед\.|единиц|unit|uom)", re.IGNORECASE)
#: Per-phrases at the end of a header: "за день", "за м²", "в месяц", "per month", "a night", "/hour".
_RU_PER = (r"(?:день|сутки|месяц|год|час|неделю|ночь|минуту|квартал|смену|занятие|посещение|штуку|единицу|человека|"
           r"персону|место|страницу|услугу|операцию|км|кг|шт\.?|м²|м³|м2|м3|кв\.\s?м)")
_PER = re.compile(rf"\s*(?P<per>(?:за|в)\s+{_RU_PER}|per\s+\w+|an?\s+(?:day|night|hour|week|month|year|person)|/\s?\w+)"
                  r"\s*$", re.IGNORECASE)
_ADVERB_PER = {"monthly": "per month", "hourly": "per hour", "daily": "per day", "weekly": "per week",
               "nightly": "per night", "yearly": "per year", "ежемесячно": "в месяц"}
#: A header that is a condition, not a name: it opens with a number or a bound ("от 4 суток", "up to 5 kg").
_CONDITION = re.compile(r"^(?:\d|(?:от|до|свыше|более|менее|после|с|from|up to|over|under|more than|less than|after|"
                        r"before)\s+\d)", re.IGNORECASE)
_EMPTY = {"", "-", "—", "–", "n/a", "н/д"}


@dataclass(frozen=True)
class Column:
    """One column of a table and how its header reads."""

    index: int
    header: str  #: as written ("Цена в месяц, руб.")
    name: str  #: the header without unit, per-phrase and condition ("Цена"); "" for a bare condition
    unit: str = ""  #: a unit after the comma that is not a currency ("ГБ", "kg")
    currency: str = ""  #: a currency the header names ("руб.", "$")
    per: str = ""  #: "за день", "per month"
    cond: str = ""  #: "1–3 суток", "от 4 суток", "up to 5 kg"
    kind: str = "text"  #: "price", "duration", "count", "measure", "text"


def is_empty(cell: str) -> bool:
    return cell.strip().lower() in _EMPTY


def money(cell: str) -> re.Match | None:
    """The match of a number or money cell ("2 900 ₽", "$190", "15"), else None."""
    return MONEY_CELL.match(cell.strip())


def read_header(index: int, header: str) -> Column:
    """Split a header into name, unit, currency, per-phrase and condition (the kind is set by :func:`columns`)."""
    name, _, rest = header.partition(",")
    name, rest = name.strip(), rest.strip()
    unit = currency = per = cond = ""
    paren = re.search(r"\s*\(([^)]+)\)\s*$", name)
    if paren:  # "Price (1–3 days)", "Цена (руб.)"
        inner = paren.group(1).strip()
        name = name[:paren.start()].strip()
        rest = rest or inner
    if rest:
        if _CURRENCY_ONLY.match(rest):
            currency = rest
        elif re.match(r"(?:за|в|per|an?)\s|/", rest, re.IGNORECASE):
            per = rest
        elif _CONDITION.match(rest):
            cond = rest
        else:
            unit = rest
    m = _PER.search(name)
    if m and m.start() > 0 and not per:
        per, name = m.group("per").strip(), name[:m.start()].strip()
    first = name.split(" ", 1)
    if not per and first[0].lower() in _ADVERB_PER and len(first) == 2 and _PRICE_NAME.search(first[1]):
        per, name = _ADVERB_PER[first[0].lower()], first[1]  # "Monthly price" -> "Price" per month; "Monthly fee" stays
    if _CURRENCY_ONLY.match(name):
        currency, name = name, "Цена" if re.search("[а-яё]", name, re.IGNORECASE) else "Price"
    if _CONDITION.match(name):
        cond, name = name, ""
    if per.startswith("/"):
        per = "per " + per[1:].strip()
    return Column(index, header, name, unit, currency, per.lower(), cond)


def _share(cells: list[str], test) -> float:
    filled = [c for c in cells if not is_empty(c)]
    return sum(1 for c in filled if test(c)) / len(filled) if filled else 0.0


def columns(header: tuple[str, ...], rows: list[tuple[str, ...]], item_col: int, unit_col: int | None
            ) -> list[Column]:
    """The value columns of a table: every column but the item's and the unit's whose header names it (three
    letters at least: "n", "#", "№" are counters) and is not a column of notes."""
    out = []
    for i, head in enumerate(header):
        if i in (item_col, unit_col) or sum(ch.isalpha() for ch in head) < 3 or _NOTES.match(head.strip()):
            continue
        col = read_header(i, head)
        cells = [r[i] for r in rows]
        numeric = _share(cells, lambda c: money(c) is not None)
        with_currency = _share(cells, lambda c: bool((m := money(c)) and (m.group("pre") or m.group("post"))))
        whole = _share(cells, lambda c: bool(re.fullmatch(r"\d+", c.strip())))
        if numeric >= 0.5 and (_PRICE_NAME.search(col.name) or not col.name and (col.currency or with_currency)):
            kind = "price"
        elif _share(cells, lambda c: bool(DURATION_CELL.match(c.strip()))) >= 0.5:
            kind = "duration"
        elif numeric >= 0.5:
            kind = "count" if whole >= 1.0 and not (col.currency or col.unit) else "measure"
        elif _share(cells, lambda c: bool(QUANTITY_CELL.match(c.strip()))) >= 0.5:
            kind = "measure"
        else:
            kind = "text"
        if not col.name and kind != "price":
            continue  # a bare condition names nothing to ask about
        out.append(Column(col.index, col.header, col.name, col.unit, col.currency, col.per, col.cond, kind))
    return out


def describe(fact) -> Column:
    """The column of a table fact: its kind from the fact (:func:`columns` put it there), or, for a fact made
    without it, guessed from its value; the name, unit, per-phrase and condition read from its header."""
    col = read_header(0, fact.value_header)
    kind = fact.extras.get("column")
    value = fact.value.strip()
    if not kind:
        kind = ("price" if fact.extras.get("price") else "duration" if DURATION_CELL.match(value) else
                "count" if re.fullmatch(r"\d+", value) and not col.unit else "measure" if money(value) else "text")
    return replace(col, kind=kind)


def unit_column(header: tuple[str, ...], item_col: int) -> int | None:
    return next((i for i in range(len(header)) if _UNIT_HEADER.match(header[i]) and i != item_col), None)


__all__ = ["Column", "DURATION_CELL", "describe", "MONEY_CELL", "NUM", "QUANTITY_CELL", "columns", "is_empty", "money",
           "read_header", "unit_column"]
