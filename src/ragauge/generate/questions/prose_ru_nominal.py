"""Russian questions without the bookish passive: what a thing costs or is capped at, asked as a person asks it.

* :func:`charge_question` — «X облагается комиссией 1%» (a passive verb with the charge in the bare instrumental)
  -> «Какова комиссия за X?», not «Какой комиссией облагается X?»; «Опоздание наказывается штрафом 500 рублей» ->
  «Каков штраф за опоздание?». A tax is «на» what it is levied on («Каков налог на доход?»).
* :func:`named_price` — «… покрываются только опцией «Шины и стёкла» за 250 рублей в сутки»: a named thing «за» a
  price is what costs it: «Сколько в сутки стоит опция «Шины и стёкла»?»;
* :func:`limit_question` — «X ограничена суммой N» -> «Каков лимит X?» («Каков лимит ответственности
  перевозчика?»), or «Какова максимальная X?» when X is a measure itself («Сумма перевода ограничена …» ->
  «Какова максимальная сумма перевода?»), not «Какой суммой ограничена X?».
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

_WHICH = {"masc": "Каков", "femn": "Какова", "neut": "Каково", "plur": "Каковы"}
_MAX = {"masc": "максимальный", "femn": "максимальная", "neut": "максимальное", "plur": "максимальные"}
#: Charges levied «на» a thing rather than «за» it.
_ON = {"налог"}


def charge_question(charge: str, subject: str, rest: list[str], context: str = "") -> str | None:
    """«Какова комиссия за снятие наличных …?» for the instrumental ``charge`` («комиссией») and the sentence's
    ``subject`` («Снятие наличных …»); ``rest`` and ``context`` (words of the sentence the question keeps) follow.
    None when the charge is no instrumental noun or the subject has no accusative."""
    analyzer = morph._analyzer()
    clean = charge.strip(",.;:").lower()
    if analyzer is None or not re.fullmatch(r"[а-яё]+", clean):
        return None
    parse = next((p for p in analyzer.parse(clean) if p.tag.POS == "NOUN" and p.tag.case == "ablt"), None)
    nominative = parse.inflect({"nomn", parse.tag.number}) if parse is not None else None
    obj = morph.inflect(morph.lower_first(subject), "accs")
    if nominative is None or obj is None:
        return None
    form = "plur" if parse.tag.number == "plur" else str(parse.tag.gender or "masc")
    preposition = "на" if parse.normal_form in _ON else "за"
    words = [_WHICH[form], nominative.word, preposition, obj, *rest] + ([context] if context else [])
    return " ".join(words) + "?"


def limit_question(subject: str, measures: set[str]) -> str | None:
    """«Каков лимит ответственности перевозчика?» for a limited ``subject``; «Какова максимальная сумма
    перевода?» when its head is one of ``measures``; None when it does not inflect."""
    phrase = morph.lower_first(subject)
    form = morph.gender_number(phrase)
    if form is None:
        return None
    if morph.head_lemma(phrase) in measures:
        return f"{_WHICH[form]} {_MAX[form]} {phrase}?"
    genitive = morph.inflect(phrase, "gent")
    return f"Каков лимит {genitive}?" if genitive else None


_RATE = re.compile(r"^(?:сутки|день|час|месяц|год|неделю|человека)$")


def named_price(words: list[str], start: int, end: int) -> str | None:
    """«Сколько в сутки стоит опция «Шины и стёкла»?» when ``words[start:end]`` («за 250 рублей») follows a noun
    and a quoted name; None otherwise."""
    if start < 2 or not words[start - 1].endswith("»"):
        return None
    opening = next((k for k in range(start - 1, -1, -1) if words[k].startswith("«")), None)
    analyzer = morph._analyzer()
    noun = words[opening - 1].lower() if opening else ""
    parse = next((p for p in analyzer.parse(noun) if p.tag.POS == "NOUN"), None) \
        if re.fullmatch(r"[а-яё]+", noun) else None
    nominative = parse.inflect({"nomn", parse.tag.number}) if parse is not None else None
    if nominative is None:
        return None
    rate = words[end:end + 2] if end + 1 < len(words) and words[end].lower() in ("в", "за") \
        and _RATE.match(words[end + 1].strip(",.;:").lower()) else []
    name = " ".join(words[opening:start]).rstrip(",")
    return " ".join(["Сколько", *[w.strip(",.;:") for w in rate], "стоит", nominative.word, name]) + "?"


__all__ = ["charge_question", "limit_question", "named_price"]
