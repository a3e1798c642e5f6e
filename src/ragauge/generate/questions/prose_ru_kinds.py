"""The Russian question word of a prose fact: from the operator before its number, the kind of quantity after it
and the verb («не позднее 10 дней» + «выплачивается» -> «В какой срок»; «хранится не более 30 дней» -> «Как
долго»; «в размере 5%» -> «В каком размере»). Used by :mod:`.prose`."""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

_RU_TIME = re.compile(r"^(?:рабоч|календарн)?\w*\s?(?:дн|день|дня|час|минут|недел|месяц|лет|год|сут)", re.I)
_RU_TIME_UNIT = re.compile(r"^(?:дн|день|дня|час|минут|недел|месяц|лет|год|сут)", re.I)
_RU_MONEY = re.compile(r"^(?:руб|₽|коп|тыс|млн|\$|€|евро|долл|юан)", re.I)
#: Verbs of permission: «в течение N дней» after them is a window («Пополнение допускается в течение 90 дней»).
_PERMITTED = {"допускаться", "разрешаться", "допускать", "разрешать"}
#: Verbs of a state: «в течение N дней» after them is how long it lasts, not a deadline.
LASTING = {"храниться", "действовать", "длиться", "сохраняться", "действительный", "продолжаться", "оставаться",
           "продлеваться"}
#: Verbs that give either a state for a time («бесплатное хранение предоставляется в течение 5 дней»: how long)
#: or a thing to be delivered by a deadline («справка предоставляется в течение 3 дней»: by when): the subject
#: decides (:func:`is_lasting`).
_GRANTED = {"предоставляться", "обеспечиваться", "предоставлять", "обеспечивать"}
#: State or service nouns a «предоставляется в течение N дней» lasts for.
_STATE_NOUNS = {"доступ", "скидка", "отсрочка", "рассрочка", "льгота", "гарантия", "поддержка", "парковка",
                "стоянка", "период", "бронь", "бронирование", "хранение", "обслуживание", "пользование",
                "проживание", "размещение", "страхование", "сопровождение", "содержание", "использование"}
#: Deverbal nouns of a thing handed over once, not a state (a deadline even with «предоставляется»).
_DELIVERED_NOUNS = {"решение", "уведомление", "заключение", "извещение", "разъяснение", "направление",
                    "удостоверение", "заявление", "сообщение", "предложение", "обоснование", "подтверждение",
                    "разрешение", "требование", "возмещение", "объяснение", "назначение", "поручение"}

def quantity_kind(after: str, number: str) -> str:
    rest = after.lstrip()
    if ":" in number or re.match(r"^:\d\d", rest):
        return "time"
    if rest.startswith("%"):
        return "percent"
    if _RU_MONEY.match(rest):
        return "money"
    if _RU_TIME.match(rest) or _RU_TIME_UNIT.match(rest):
        return "duration"
    if re.match(r"^раз", rest):
        return "count_times"
    if re.match(r"^(?:январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр|числа)", rest):
        return "date"
    return "count"


def is_lasting(lemma: str, subject: str, tail: list[str]) -> bool:
    """True when «VERB в течение N дней» states how long something lasts, not a deadline: a verb of a state
    («хранится», «действует», «длится»), or a verb of granting (:data:`_GRANTED`) with a state or service for its
    subject («бесплатное хранение груза предоставляется в течение 5 дней»). A window counted from an event
    («в течение 10 дней после подачи», «с момента …», «со дня …») is a deadline for a granting verb."""
    if lemma not in _GRANTED:
        return lemma in LASTING
    if tail and (tail[0].lower() in ("после", "со", "с", "от") or tail[0].lower().startswith("момент")):
        return False
    head = morph.head_lemma(subject) if subject else None
    if head is None:
        return False
    if head in _STATE_NOUNS:
        return True
    if head in _DELIVERED_NOUNS:
        return False
    return head.endswith(("ание", "ение", "яние"))


def question_word(op: str, qkind: str, lemma: str, after: str = "", *,
                      lasting: bool | None = None) -> tuple[str, str] | None:
    """(question opening, fact kind) for an operator, a quantity kind and the verb's lemma; None: no
    natural question. ``lasting``: whether «в течение N» states a duration (:func:`is_lasting`); by default,
    whether the verb is one of a state."""
    if lasting is None:
        lasting = lemma in LASTING
    if op == "often" or qkind == "count_times":
        return "Как часто", "frequency"
    if qkind == "time" or op == "clock":
        if qkind != "time":
            return None
        # "принимается до 16:00" asks for the end, not for a time of day
        return ("До какого времени", "time") if op == "upto" else ("В какое время", "time")
    if qkind == "date" and op in ("", "clock"):  # "списывается 15 числа каждого месяца"
        return ("Какого числа" if after.startswith("числ") else "Когда"), "date"
    if qkind in ("duration", "date"):
        if op == "upto" and after.startswith("числ"):
            return "До какого числа", "deadline"  # "вносится до 10 числа текущего месяца"
        table = {"deadline": "В какой срок", "within": "В какой срок", "term": "На какой срок",
                 "length": "Какой продолжительности", "after": "Через какое время", "upto": "До какого срока",
                 "limit": "В какой срок"}
        if op in ("within", "limit") and lasting:  # "хранится не более 30 дней": how long, not by when
            return "Как долго", "duration"
        if op == "within" and lemma in _PERMITTED:  # «пополнение допускается в течение 90 дней»: a window in
            return "В течение какого срока", "deadline"  # which it is allowed, not a deadline («В какой срок …»)
        if op in table:
            return table[op], "deadline" if op in ("deadline", "within", "upto") else "duration"
        if not op and lemma == "занимать":  # "занимает 3 дня": "Сколько времени занимает …?"
            return "Сколько времени", "duration"
        if not op:
            return ("Сколько" if lemma in ("длиться", "составлять", "стоить") else "Как долго"), "duration"
        return None
    if qkind in ("money", "percent"):
        kind = "amount" if qkind == "money" else "percent"
        table = {"amount": "В каком размере", "range": "В каких пределах", "rate": "По какой ставке",
                 "limit": "В каком размере", "upto": "В каком размере", "least": "В каком размере"}
        if op in table:
            return table[op], "limit" if op in ("range", "limit", "upto") else kind
        if not op and lemma in ("стоить", "составлять"):
            return "Сколько", kind
        return None
    return None


__all__ = ["LASTING", "is_lasting", "quantity_kind", "question_word"]
