"""Russian question templates: (question, reference, template name) from facts, or None.

Grammar: the item of a table row is a noun phrase in the nominative, so "Сколько стоит {item}?" needs
only a correct lower-casing; every other form goes through :mod:`morph` ("стоимость {item, gen}",
"по {doc, dat}", "Сколько стоила {item}" agreeing in gender and number). A template returns None when
the phrase cannot be inflected: an unnatural question is worse than none.
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph
from ragauge.generate.questions.candidate import fmt_number
from ragauge.generate.questions.facts import Fact
from ragauge.generate.questions.table_ru import _PER_UNIT, _costs, amount, is_people, row_name, scope, table_value, unit_phrase

LANG = "ru"
_AMOUNT_HEADS = {"сумма", "стоимость", "цена", "плата", "доплата", "надбавка", "скидка", "размер", "ставка",
                 "тариф", "оплата", "аванс", "неустойка", "пеня", "штраф"}
MEASURE_UNITS = ("м²", "м³", "пог. м", "м", "м.п.")
_WHICH = {"masc": "Каков", "femn": "Какова", "neut": "Каково", "plur": "Каковы"}
_COST_PAST = {"masc": "стоил", "femn": "стоила", "neut": "стоило", "plur": "стоили"}
_WAS = {"masc": "Каким был", "femn": "Какой была", "neut": "Каким было", "plur": "Какими были"}
_CURRENT = {"masc": "действующему", "femn": "действующей", "neut": "действующему", "plur": "действующим"}


def _item(fact: Fact) -> str:
    """A table row as a question names it (:func:`.table_ru.row_name`), a sentence's subject lower-cased."""
    return row_name(fact) if fact.kind == "table" else morph.lower_first(fact.subject)


def date_label(chunk) -> str:
    """"от 01.09.2025" from the chunk's ISO date, else "версии 2", else ""."""
    if chunk.date:
        y, m, d = chunk.date.split("-")
        return f"от {d}.{m}.{y}"
    if chunk.version:
        return f"версии {chunk.version}"
    return ""


#: Document kinds that name a document well on their own ("по прайс-листу", "пункт 2.1 договора").
DOC_KINDS = {"прайс-лист", "прайс", "прейскурант", "договор", "контракт", "соглашение", "регламент", "положение",
             "инструкция", "правило", "стандарт", "приказ", "смета", "памятка", "политика", "руководство",
             "устав", "спецификация", "оферта", "тариф", "каталог", "справочник", "условие", "порядок"}


def doc_ref(title: str, case: str) -> str | None:
    """How a question names a document in ``case``: its kind ("прайс-листу", "технологического регламента")
    when the title starts with a known kind, else "документа «Title»" (the word "документ" inflected)."""
    kind = doc_head(title)
    lemma = morph.head_lemma(kind)
    if lemma in DOC_KINDS and lemma not in ("условие", "правило", "порядок"):
        return morph.inflect(kind, case)
    word = morph.inflect("документ", case)
    clean = re.sub(r",?\s*(?:ред\.|редакция|версия|от)\s.*$", "", title).strip()
    return f"{word} «{clean}»" if word else None


def doc_head(title: str) -> str:
    """The document kind from its title: "Прайс-лист на ... от 01.03.2026" -> "прайс-лист"."""
    title = re.sub(r"\(.*?\)|,?\s*(?:ред\.|редакция|версия|от)\s.*$", "", title).strip()
    words = title.split(" ")
    head = []
    for w in words[:3]:
        head.append(w)
        if morph.gender_number(" ".join(head)) is not None and morph.inflect(w, "gent") is not None:
            parse = morph._nominative_parse(w)
            if parse is not None and parse.tag.POS == "NOUN":
                break
    return morph.lower_first(" ".join(head))


def old_edition(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    item = _item(fact)
    form = morph.gender_number(item)
    label = date_label(fact.chunk)
    head = doc_ref(doc_title, "datv")
    if not (form and label and head):
        return None
    return (f"Сколько по {head} {label} {_COST_PAST[form]} {item}?", amount(fact), "version_old_price")


def current_edition(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    item = _item(fact)
    head = doc_ref(doc_title, "datv")
    form = "masc" if head and head.startswith("документу «") else morph.gender_number(doc_head(doc_title))
    if not (head and form):
        return None
    return (f"Сколько по {_CURRENT[form]} {head} {_costs(item)} {item}?", amount(fact), "version_current_price")


def version_change(old: Fact, new: Fact, doc_title: str) -> tuple[str, str, str] | None:
    item = _item(new)
    gen = morph.inflect(item, "gent")
    head = doc_ref(doc_title, "ablt")
    label = date_label(old.chunk)
    a, b = old.number, new.number
    if not (gen and head and label) or a is None or b is None:
        return None
    diff = b - a
    trend = "не изменилась" if diff == 0 else ("выросла" if diff > 0 else "снизилась")
    ref = f"{trend.capitalize()}: было {amount(old)}, стало {amount(new)}"
    if diff:
        ref += f" ({'+' if diff > 0 else '−'}{fmt_number(abs(diff), LANG)} {new.currency})".replace(" )", ")")
    return (f"Как изменилась стоимость {gen} по сравнению с {head} {label}?", ref, "version_change")


def old_value(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    """A numeric sentence of an old edition: "Какой была минимальная сумма заказа по прайс-листу от …?"."""
    subj = _item(fact)
    form = morph.gender_number(subj)
    label = date_label(fact.chunk)
    head = doc_ref(doc_title, "datv")
    if not (form and label and head and _clean_subject(subj)):
        return None
    return (f"{_WAS[form]} {subj} по {head} {label}?", fact.value, "version_old_value")


def _priced_rows(a: Fact, b: Fact) -> bool:
    """Two rows whose prices can be set side by side: both are things (not groups of people) with numbers."""
    return a.number is not None and b.number is not None and not is_people(a) and not is_people(b)


def compare(a: Fact, b: Fact) -> tuple[str, str, str] | None:
    """Which of two items with the same unit costs more («Что дороже за день: …», the column's scope first)."""
    x, y = a.number, b.number
    if not _priced_rows(a, b) or x == y:
        return None
    hi, lo = (a, b) if x > y else (b, a)
    ref = f"Дороже {_item(hi)}: {amount(hi)} против {amount(lo)}"
    return (f"Что дороже{scope(a)}: {_item(a)} или {_item(b)}?", ref, "compare_prices")


def difference(a: Fact, b: Fact) -> tuple[str, str, str] | None:
    """«На сколько X дороже, чем Y?»; with the column's scope «На сколько X дороже Y за сутки на срок …?»."""
    x, y = a.number, b.number
    if not _priced_rows(a, b) or x <= y:
        return None
    ref = f"На {fmt_number(x - y, LANG)} {a.currency} ({amount(a)} против {amount(b)})".replace("  ", " ")
    if scope(a):
        gen = morph.inflect(_item(b), "gent")
        return (f"На сколько {_item(a)} дороже {gen}{scope(a)}?", ref, "price_difference") if gen else None
    return (f"На сколько {_item(a)} дороже, чем {_item(b)}?", ref, "price_difference")


def total(a: Fact, b: Fact) -> tuple[str, str, str] | None:
    x, y = a.number, b.number
    if not _priced_rows(a, b):
        return None
    ref = (f"{fmt_number(x, LANG)} + {fmt_number(y, LANG)} = {amount(a, x + y)}")
    return (f"Сколько вместе стоят {_item(a)} и {_item(b)} {unit_phrase(a)}{scope(a)}?".replace("  ", " ")
            .replace(" ?", "?"), ref, "sum_prices")


def quantity(fact: Fact, qty: int) -> tuple[str, str, str] | None:
    unit = _PER_UNIT.get(fact.unit, fact.unit)
    x = fact.number
    if unit not in MEASURE_UNITS or x is None:
        return None
    cost = " ".join(p for p in (fmt_number(x * qty, LANG), fact.currency) if p)
    ref = f"{qty} × {fmt_number(x, LANG)} = {cost}"
    return (f"Сколько обойдётся {_item(fact)} на {qty} {unit}?", ref, "quantity_cost")


#: Heads that name a measure or a payment, asked "Каков/Какова X?": the price of a limit, a rate or an
#: allowance is not asked ("Сколько стоит лимит переводов?" is not a question a person asks).
MEASURE_HEADS = _AMOUNT_HEADS | {
    "лимит", "комиссия", "компенсация", "срок", "время", "период", "продолжительность", "доступность", "процент",
    "количество", "число", "объём", "норма", "порог", "минимум", "максимум", "предел", "уровень", "вес", "длина",
    "ширина", "высота", "толщина", "площадь", "скорость", "зарплата", "оклад", "доход", "взнос", "премия",
    "выплата", "пособие", "возмещение", "вознаграждение", "кешбэк", "кэшбэк", "депозит", "задержка", "шаг", "зазор",
    "гарантия"}
_DURATION = re.compile(r"\d[\d\s,.]*(?:\([^)]*\)\s*)?(?:рабоч\w*\s|календарн\w*\s)?"
                       r"(?:дн|день|дня|час|минут|недел|месяц|лет|год|сут)", re.IGNORECASE)
_PERCENT = re.compile(r"^\D{0,12}\d[\d\s,.]*\s?%")


def value(fact: Fact) -> tuple[str, str, str] | None:
    """A numeric sentence: "Каков гарантийный срок на ...?", "Сколько стоит устройство проёма ...?".

    A measure ("лимит", "комиссия", "срок": :data:`MEASURE_HEADS`) is asked as itself ("Каков лимит …?");
    "Сколько стоит" only for a thing with a price that is not a percentage and not "составляет"; "X составляет
    28 дней" asks its duration ("Какова продолжительность X?"), "X составляет 700 рублей / 10%" its size
    ("Каков размер X?"); anything else "Каков X?"."""
    subj = _item(fact)
    if not _clean_subject(subj):
        return None
    form = morph.gender_number(subj)
    if form is None:
        return None
    head = morph.head_lemma(subj)
    if head in MEASURE_HEADS:
        return (f"{_WHICH[form]} {_bound(fact.value, form)}{subj}?", fact.value, "fact_value")
    percent = bool(_PERCENT.match(fact.value))
    if fact.currency and not percent and not fact.verb.startswith("составля"):
        return (f"Сколько {_costs(subj)} {subj}?", fact.value, "fact_cost")
    if fact.verb.startswith("составля"):  # "Сколько составляет отпуск?" reads as a count: name the attribute
        gen = morph.inflect(subj, "gent")
        if gen and _DURATION.search(fact.value):
            return (f"Какова продолжительность {gen}?", fact.value, "fact_duration")
        if gen and (fact.currency or percent):
            return (f"Каков размер {gen}?", fact.value, "fact_amount")
        return (f"Сколько {fact.verb} {subj}?", fact.value, "fact_amount")
    return (f"{_WHICH[form]} {subj}?", fact.value, "fact_value")


_BOUND = {"max": {"masc": "максимальный", "femn": "максимальная", "neut": "максимальное", "plur": "максимальные"},
          "min": {"masc": "минимальный", "femn": "минимальная", "neut": "минимальное", "plur": "минимальные"}}


def _bound(value: str, form: str) -> str:
    """«максимальная » for a value that is a ceiling («не более 30% от ежемесячной платы»), «минимальная » for a
    floor («не менее 99,9%»), else "": «Какова общая компенсация за месяц?» asks a total the documents do not
    state; «Какова максимальная общая компенсация за месяц?» asks the cap they do."""
    low = value.lower().lstrip()
    kind = "max" if low.startswith(("не более", "не выше", "не свыше", "не больше")) else \
        "min" if low.startswith(("не менее", "не ниже", "не меньше")) else ""
    return _BOUND[kind][form] + " " if kind and form in _BOUND[kind] else ""


def _clean_subject(subj: str) -> bool:
    """No finite verb and no comma: "Водитель ожидает разгрузку 30 минут" is not a subject."""
    analyzer = morph._analyzer()
    if "," in subj or analyzer is None:
        return False
    for w in re.findall(r"[а-яё]+", subj.lower()):
        if analyzer.parse(w)[0].tag.POS in ("VERB", "INFN"):
            return False
    return True


def definition(fact: Fact) -> tuple[str, str, str] | None:
    if fact.verb == "abbr":
        return (f"Что означает сокращение {fact.subject}?", fact.value, "abbreviation")
    return (f"Что такое {morph.lower_first(fact.subject)}?", fact.value, "definition")


def clause(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    gen = doc_ref(doc_title, "gent")
    if not (fact.clause and gen):
        return None
    body = re.sub(r"^\d+(?:\.\d+)+\.?\s+", "", fact.sentence)
    return (f"Что говорится в пункте {fact.clause} {gen}?", body, "clause")


def norm_reference(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    """"На какие нормативные документы ссылается пункт 11.1 договора?" -> "№ 152-ФЗ"."""
    gen = doc_ref(doc_title, "gent")
    if not (fact.clause and gen):
        return None
    return (f"На какой нормативный документ ссылается пункт {fact.clause} {gen}?", fact.value, "norm_reference")


__all__ = ["DOC_KINDS", "LANG", "MEASURE_HEADS", "MEASURE_UNITS", "amount", "clause", "compare", "current_edition", "date_label",
           "definition", "difference", "doc_head", "doc_ref", "norm_reference", "old_edition", "old_value", "quantity",
           "table_value", "total", "unit_phrase", "value", "version_change"]
