"""The Russian question phrase that takes the place of a quantity: «в течение 14 дней» -> «в течение какого срока»,
«на 4 платежа» -> «на сколько платежей», «старше 60 лет» -> «какого возраста» (:func:`wh_phrase`), and the kind of
fact the quantity is (:func:`fact_kind`). Used by :mod:`.prose_wh` and :mod:`.prose_ru_modal`."""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

_TIME_UNIT = re.compile(r"^(?:дн|день|дня|час|минут|недел|месяц|месяца|год|сут)", re.I)
_MONEY = re.compile(r"^(?:руб|₽|коп|тыс|млн|\$|€|евро|долл|юан|у\.\s?е)", re.I)
#: An ordinal with its ending, «24-й», «5-го»: asked «до какой недели», «с какого класса».
ORDINAL = re.compile(r"^\d+-(?:й|го|ого|его|ой|ей|я|ая|ый|ий)$")
#: Unit symbols as the noun «сколько» takes: «300 км» -> «сколько километров».
_SYMBOLS = {"км": "километров", "м": "метров", "см": "сантиметров", "мм": "миллиметров", "кг": "килограммов",
            "г": "граммов", "т": "тонн", "л": "литров", "мл": "миллилитров", "шт": "штук", "га": "гектаров"}
_MONTH = re.compile(r"^(?:январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр)", re.I)
_AGE_OPS = ("старше", "младше", "моложе")

#: Operators before a number, longest first, as they are written; the question keeps them when it can.
_OPS = ("более чем на", "менее чем на", "не ранее чем через", "не ранее чем за", "не позднее чем за", "не позднее, чем за", "не менее чем за", "не позднее чем через", "в течение",
        "не позднее", "не ранее", "не превышает", "не превышают", "не более", "не менее", "в размере", "на срок до",
        "на срок", "сроком", "старше", "младше", "моложе", "менее", "более", "свыше", "через", "на", "до", "от",
        "с", "со", "за", "в", "по")


def _parse(word: str):
    analyzer = morph._analyzer()
    clean = word.strip(",.;:«»()").lower()
    return analyzer.parse(clean)[0] if analyzer is not None and re.fullmatch(r"[а-яё-]+", clean) else None


def _gen_plural(word: str) -> str | None:
    clean = word.strip(",.;:").lower()
    analyzer = morph._analyzer()
    if analyzer is None or not re.fullmatch(r"[а-яё]+", clean):
        return None
    parses = [p for p in analyzer.parse(clean) if p.tag.POS == "NOUN"]
    if not parses:
        return None
    if any({"gent", "plur"} <= set(p.tag.grammemes) for p in parses):
        return clean  # "лет", "человек", "дней" are already the form "сколько" takes
    if parses[0].normal_form == "год":
        return "лет"  # "Сколько лет", never "годов"
    form = parses[0].inflect({"gent", "plur"})
    return form.word if form else None


def _which_gen(word: str) -> str | None:
    """"какого класса", "какой недели": "какой" in the genitive agreeing with a genitive singular noun."""
    p = _parse(word)
    if p is None or p.tag.POS != "NOUN":
        return None
    gen = p.inflect({"gent", "sing"})
    if gen is None:
        return None
    which = "какой" if str(p.tag.gender) == "femn" else "какого"
    return f"{which} {gen.word}"


def _unit_kind(unit: str, number: str) -> str:
    if number.endswith("%") or unit.startswith("%") or unit.startswith("процент"):
        return "percent"
    if _MONEY.match(unit):
        return "money"
    if re.match(r"^(?:лет|год|года)\b", unit):
        return "years"
    if _TIME_UNIT.match(unit) or re.match(r"^(?:рабоч|календарн|банковск)\w*\s+(?:дн|день|дня|час|недел|месяц|сут)",
                                          unit):
        return "time"
    if _MONTH.match(unit):
        return "date"
    if unit.startswith("числ"):
        return "day"
    return "count"


def wh_phrase(op: str, number: str, unit_words: list[str], before: str = "") -> tuple[str, int] | None:
    """(question phrase, how many unit words it replaces) for ``op NUMBER UNIT``; None when no natural one.

    ``before`` is the word before the operator ("возраста", "стажем"). Examples: ("в течение", "14",
    ["календарных", "дней"]) -> ("в течение какого срока", 2); ("на", "4", ["платежа"]) -> ("на сколько
    платежей", 1); ("", "6", ["лет"], before="возраста") -> ("какого возраста", 1).
    """
    unit = " ".join(unit_words[:2]).lower()
    if op in ("в", "во") and re.match(r"^раз(?:а|\b|$)", unit):
        return "во сколько раз", 1  # «увеличивается в 2 раза»: a multiplier, not how often
    if re.match(r"^\d+-[а-я]", number):  # an ordinal: «до 24-й недели»; «в каждом 4-м ряду» is no quantity
        which = _which_gen(unit_words[0]) if unit_words and op in ("до", "с", "со", "по", "от") \
            and ORDINAL.match(number) else None
        return (f"{'с' if op == 'со' else op} {which}", 1) if which else None
    kind = _unit_kind(unit, number)
    n_unit = 0 if kind == "percent" and number.endswith("%") else 1
    if kind == "time" and re.match(r"^(?:рабоч|календарн|банковск)", unit):
        n_unit = 2
    last_unit = unit_words[n_unit - 1] if n_unit and len(unit_words) >= n_unit else ""
    if kind in ("time", "years") and op in ("", "в течение") and before.lower().startswith("возраст"):
        return "какого возраста", n_unit
    if kind == "years" and op in _AGE_OPS:
        return "какого возраста", n_unit
    if kind == "years" and op in ("с", "со", "до", "от"):
        return f"{'с' if op == 'со' else op} какого возраста", n_unit
    if kind in ("time", "years"):
        many = _gen_plural(last_unit) if last_unit else None
        table = {"более чем на": f"более чем на сколько {many}" if many else None,
                 "не ранее чем через": f"через сколько {many}" if many else None,
                 "не ранее чем за": f"за сколько {many}" if many else None,
                 "менее чем на": f"менее чем на сколько {many}" if many else None,
                 "в течение": "в течение какого срока", "не позднее": "в какой срок", "сроком": "на какой срок",
                 "на срок": "на какой срок", "на срок до": "на какой срок", "на": "на какой срок",
                 "через": f"через сколько {many}" if many else None,
                 "не позднее чем за": f"за сколько {many}" if many else None,
                 "не позднее, чем за": f"за сколько {many}" if many else None,
                 "не менее чем за": f"за сколько {many}" if many else None,
                 "за": f"за сколько {many}" if many else None,
                 "не позднее чем через": f"через сколько {many}" if many else None,
                 "не превышает": f"сколько {many} не превышает" if many else None,
                 "не превышают": f"сколько {many} не превышают" if many else None,
                 "не более": f"сколько {many} максимум" if many else None,
                 "не менее": f"сколько {many} минимум" if many else None,
                 "менее": f"менее скольких {many}" if many else None,
                 "более": f"более скольких {many}" if many else None,
                 "свыше": f"свыше скольких {many}" if many else None,
                 "до": "на какой срок",
                 "": f"сколько {many}" if many else None}
        found = table.get(op)
        return (found, n_unit) if found else None
    if kind == "percent":
        table = {"на": "на сколько процентов", "в размере": "в каком размере", "до": "до скольких процентов",
                 "не более": "в каком максимальном размере", "не превышает": "какую долю не превышает",
                 "не менее": "в каком минимальном размере", "": "сколько процентов"}
        found = table.get(op)
        return (found, n_unit if not number.endswith("%") else 0) if found else None
    if kind == "money":
        table = {"в размере": "в каком размере", "за": "за какую сумму", "до": "до какой суммы",
                 "не более": "в каком максимальном размере", "не превышает": "какую сумму не превышает",
                 "не превышают": "какую сумму не превышают", "не менее": "в каком минимальном размере",
                 "от": "от какой суммы", "свыше": "свыше какой суммы", "более": "более какой суммы",
                 "по": "по какой цене", "": "сколько"}
        found = table.get(op)
        return (found, 1) if found else None
    if kind in ("day", "date") and op in ("до", "с", "со", "не позднее"):
        return f"{'с' if op == 'со' else 'до' if op == 'не позднее' else op} какого числа", 1
    if kind == "count" and unit_words:
        head = unit_words[0]
        symbol = _SYMBOLS.get(head.lower().rstrip("."))
        verb = _parse(before)
        if symbol is not None and verb is not None and verb.tag.POS == "VERB":
            # «входит 300 км» -> «сколько километров»; after a noun («толщиной не менее 100 мм») it is the noun's
            table = {"": f"сколько {symbol}", "не более": f"сколько {symbol} максимум", "до": f"до скольких {symbol}",
                     "не менее": f"сколько {symbol} минимум", "на": f"на сколько {symbol}"}
            return (table[op], 1) if op in table else None
        if len(head) <= 2:
            return None  # "1,8 м", "50 мм": a unit symbol has no "сколько" form
        p = _parse(head)
        if p is None or p.tag.POS != "NOUN":
            return None
        if op in ("с", "со", "по") and str(p.tag.case) == "gent" and str(p.tag.number) == "sing":
            which = _which_gen(head)  # "с 5 класса" -> "с какого класса"
            return (f"{'с' if op == 'со' else op} {which}", 1) if which else None
        many = _gen_plural(head)
        if many is None:
            return None
        table = {"на": f"на сколько {many}", "до": f"до скольких {many}", "от": f"от скольких {many}",
                 "не более": f"сколько {many} максимум", "не менее": f"сколько {many} минимум",
                 "более": f"более скольких {many}", "менее": f"менее скольких {many}",
                 "свыше": f"свыше скольких {many}", "": f"сколько {many}"}
        found = table.get(op)
        return (found, 1) if found else None
    return None


def _fact_kind(unit_words: list[str], number: str) -> str:
    return {"percent": "percent", "money": "amount", "time": "deadline", "years": "condition", "day": "date",
            "date": "date"}.get(_unit_kind(" ".join(unit_words).lower(), number), "count")


OPS = _OPS
AGE_OPS = _AGE_OPS
TIME_UNIT = _TIME_UNIT
unit_kind = _unit_kind
fact_kind = _fact_kind

__all__ = ["AGE_OPS", "OPS", "ORDINAL", "TIME_UNIT", "fact_kind", "unit_kind", "wh_phrase"]
