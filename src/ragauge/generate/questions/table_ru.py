"""Russian table questions: how a row is named, and how each kind of column (:mod:`.table_columns`) is asked.

A row is named as its first column calls it: a bare name under a column that names a kind of offering gets the
kind and quotes («Эконом» under «Класс» -> «класс «Эконом»»), a group of people is asked «для …» («для
студентов»), anything else is lower-cased. Each column kind has its own form:

* price: «Сколько стоит программа «Стандарт» за день?», with the header's condition («Сколько стоит пакет «Мини»
  в месяц (будни)?»); a rate whose condition names its unit again is a «тариф» («Какой тариф у класса «Эконом» на
  срок от 4 суток?», not «… за сутки на срок от 4 суток?»);
* measure or count: «Каков залог класса «Эконом»?», «Сколько посещений у абонемента «Месяц»?»;
* duration: «Каков срок выдачи для студентов?», «Какой срок стандартной выдачи для студентов?»;
* text: «Какие модели у класса «Эконом»?», «Какая территория у программы «Стандарт»?».

The reference keeps the cell's currency, the header's unit and per-phrase («2 900 ₽ за сутки (1–3 суток)»).
"""

from __future__ import annotations

import re

from ragauge.generate.documents import CELL_SEPARATOR
from ragauge.generate.questions import morph
from ragauge.generate.questions.candidate import fmt_number
from ragauge.generate.questions.facts import Fact
from ragauge.generate.questions.table_columns import DURATION_CELL, describe

LANG = "ru"
_PER_UNIT = {"м2": "м²", "м3": "м³", "кв.м": "м²", "кв. м": "м²"}
_WHICH = {"masc": "Каков", "femn": "Какова", "neut": "Каково", "plur": "Каковы"}
_WHAT = {"masc": "Какой", "femn": "Какая", "neut": "Какое", "plur": "Какие"}
#: Column headers that name a kind of offering whose rows are names («Программа | Стандарт», «Тариф | Gold»).
OFFER_KINDS = {"программа", "тариф", "план", "пакет", "класс", "категория", "уровень", "опция", "полис", "абонемент",
               "подписка", "карта", "вклад", "продукт", "модель", "версия", "линейка", "формат"}
#: Heads of an item column that groups people when their complement is a person («Категория читателей»).
_GROUP_HEADS = {"категория", "группа", "тип", "вид", "статус"}
_TIME_HEADS = {"срок", "период", "время", "продолжительность", "длительность"}


def unit_phrase(fact: Fact) -> str:
    """"за м²", "за операцию" (a unit written as a noun goes into the accusative: "за операция" is wrong)."""
    unit = _PER_UNIT.get(fact.unit, fact.unit)
    if not unit:
        return ""
    if re.fullmatch(r"[а-яё]{3,}", unit.lower()) and morph.available():
        unit = morph.inflect(unit, "accs") or unit
    return f"за {unit}"


def amount(fact: Fact, value: float | None = None) -> str:
    """"1 150 руб. за м²" from a price row; "1,5 € за день" when the price column's header says per what."""
    text = fmt_number(value, LANG) if value is not None else fact.value
    parts = [text, fact.currency, unit_phrase(fact), fact.extras.get("per", "")]
    return " ".join(p for p in parts if p)


def row_name(fact: Fact) -> str:
    """The table row's item as a question names it, in the nominative: «программа «Стандарт»» for a bare name
    under a column that names a kind of offering, else the cell lower-cased («замена счётчика»)."""
    kind = _kind_of_name(fact)
    return f"{kind} «{fact.subject}»" if kind else morph.lower_first(fact.subject)


def _kind_of_name(fact: Fact) -> str | None:
    """The header of a table item's column when the item is a name (one or two capitalised words, no quotes) of a
    kind of offering (:data:`OFFER_KINDS`) and does not say the kind itself; else None."""
    cells = [c.strip() for c in fact.sentence.split(CELL_SEPARATOR)] if fact.kind == "table" else []
    subject = fact.subject.strip()
    if subject not in cells or len(cells) != len(fact.header) or not morph.available():
        return None
    header = morph.lower_first(fact.header[cells.index(subject)].strip())
    words = subject.split()
    if not header or len(header.split()) > 2 or not 1 <= len(words) <= 2 or not subject[:1].isupper() \
            or re.search(r"[«»\"“”\d]", subject) or morph.head_lemma(header) not in OFFER_KINDS or is_people(fact):
        return None
    analyzer = morph._analyzer()
    if re.fullmatch(r"[А-Яа-яЁё-]+", words[0]) and analyzer.parse(words[0].lower())[0].normal_form == \
            morph.head_lemma(header):
        return None  # «Пакет базовый» names its kind already
    return header


def is_people(fact: Fact) -> bool:
    """Rows that are groups of people: the item column is «Категория читателей» / «Группа клиентов» (a group head
    with a person after it), or the row itself is a plural person noun («Студенты», «Дети до 7 лет»)."""
    analyzer = morph._analyzer()
    if fact.kind != "table" or analyzer is None:
        return False
    words = re.findall(r"[а-яё]+", fact.extras.get("item_header", "").lower())
    if len(words) >= 2 and analyzer.parse(words[0])[0].normal_form in _GROUP_HEADS:
        if any({"NOUN", "anim", "gent"} <= set(p.tag.grammemes) for p in analyzer.parse(words[1])[:2]):
            return True
    first = re.match(r"[А-ЯЁа-яё]+", fact.subject)
    if not first:
        return False
    parse = analyzer.parse(first.group().lower())[0]
    return {"NOUN", "anim", "plur", "nomn"} <= set(parse.tag.grammemes) and not {"Name", "Surn", "Geox"} & set(
        parse.tag.grammemes)


def _cond(fact: Fact) -> str:
    """The header's condition as a phrase of the question: «на срок 1–3 суток», «до 5 кг», «(будни)»."""
    cond = fact.extras.get("cond", "")
    if not cond:
        return ""
    if DURATION_CELL.match(cond):
        return f"на срок {cond}"
    return cond if re.match(r"(?:от|до|свыше|более|менее|после|с)\s", cond) else f"({cond})"


def scope(fact: Fact) -> str:
    """« за сутки на срок 1–3 суток»: the per-phrase and condition a price of this column is stated for; ""."""
    per = fact.extras.get("per", "") if fact.value_header else ""  # a row with no header keeps its «в месяц» in the cell
    parts = [per, _cond(fact)]
    return "".join(f" {p}" for p in parts if p)


def _repeats(per: str, cond: str) -> bool:
    """True when the per-phrase's noun is the condition's too («за сутки», «от 4 суток»): a question with both says
    the noun twice."""
    analyzer = morph._analyzer()
    if not per or not cond or analyzer is None:
        return False
    lemmas = [{analyzer.parse(w)[0].normal_form for w in re.findall(r"[а-яё]{3,}", t.lower())} for t in (per, cond)]
    return bool(lemmas[0] & lemmas[1])


def _costs(item: str) -> str:
    """«стоит» or, for a plural item («погрузочно-разгрузочные работы»), «стоят»."""
    return "стоят" if str(morph.gender_number(item)) == "plur" else "стоит"


def _reference(fact: Fact, kind: str) -> str:
    if kind == "price" and fact.extras.get("numeric", True):
        cond = fact.extras.get("cond", "")
        return amount(fact) + (f" ({cond})" if cond else "")
    hunit = fact.extras.get("hunit", "")
    if not fact.extras.get("numeric", True):
        return fact.value
    return " ".join(p for p in (fact.value, fact.currency, hunit, fact.extras.get("per", "")) if p)


def table_value(fact: Fact) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Questions about one table cell, worded by its column's kind; [] when a phrase cannot be inflected."""
    col = describe(fact)
    item, people = row_name(fact), is_people(fact)
    gen = morph.inflect(item, "gent")
    ref = _reference(fact, col.kind)
    name = morph.lower_first(col.name)
    if col.kind == "price" and not people:
        if _repeats(fact.extras.get("per", ""), fact.extras.get("cond", "")):
            # «за сутки» and «1–3 суток»: a rate («тариф») is a price per unit, so the condition alone is left
            return [(f"Какой тариф у {gen} {_cond(fact)}?", ref, "table_price", ())] if gen and "тариф" not in item \
                else []
        out = [(f"Сколько {_costs(item)} {item}{scope(fact)}?", ref, "table_price", ())]
        if gen:  # the genitive needs pymorphy3: without it, only the nominative question
            out.append((f"Какова стоимость {gen}{scope(fact)}?", ref, "table_price_cost_of", ("paraphrase",)))
        return out
    form = morph.gender_number(name)
    if not form or not gen:
        return []
    whose = f"для {gen}" if people else gen  # «залог класса «Эконом»», «срок выдачи для студентов»
    if col.kind == "price":
        return [(f"{_WHICH[form]} {name} {whose}{scope(fact)}?", ref, "table_price", ())]
    having = f"для {gen}" if people else f"у {gen}"
    if col.kind == "text":
        return [(f"{_WHAT[form]} {name} {having}?", ref, "table_column", ())]
    if col.kind == "duration" and morph.head_lemma(name) not in _TIME_HEADS:
        of = morph.inflect(name, "gent")
        return [(f"Какой срок {of} {having}?", ref, "table_column", ())] if of else []
    if col.kind == "count" and form == "plur":
        many = morph.inflect(name, "gent")
        return [(f"Сколько {many} {having}?", ref, "table_column", ())] if many else []
    if not people and re.search(r"\s(?:за|по|на|в|с|от|до|при)\s", f" {name} "):
        whose = f"у {gen}"  # «плата за обслуживание тарифа «Дом»» would read as the fee for serving the tariff
    return [(f"{_WHICH[form]} {name} {whose}?", ref, "table_column", ())]


__all__ = ["LANG", "OFFER_KINDS", "amount", "is_people", "row_name", "scope", "table_value", "unit_phrase"]
