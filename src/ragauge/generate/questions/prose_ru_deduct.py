"""Russian deductions: «X возвращается за вычетом Y в размере N» asked as what is withheld from X.

«При отчислении возвращается часть оплаты за вычетом расходов университета в размере 15%» was asked «Сколько
составляют расходы университета при отчислении?», which reads as the university's total costs. A person asks what
is kept back from the money: «Сколько удерживается из оплаты при отчислении?». The money is the sentence's
subject in the genitive («Страховая премия возвращается …» -> «из страховой премии»), or what a «часть»/«доля» of
it names («часть оплаты» -> «из оплаты»); a prepositional phrase before the verb («При отчислении») stays as the
question's context.
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

#: Heads that name a share of the money, not the money («часть оплаты»).
_SHARE = {"часть", "доля", "остаток"}
_CONTEXT = ("при", "в", "во", "после", "до", "для", "по", "с", "со")


def _nominative_head(words: list[str]) -> bool:
    analyzer = morph._analyzer()
    first = words[0].strip(",").lower() if words else ""
    return bool(re.fullmatch(r"[а-яё]+", first)) and any(
        p.tag.case == "nomn" and p.tag.POS in ("NOUN", "ADJF") for p in analyzer.parse(first))


def _money(subject: list[str]) -> str | None:
    """«часть оплаты» -> «оплаты»; «страховая премия» -> «страховой премии»."""
    phrase = morph.lower_first(" ".join(w.strip(",") for w in subject))
    if morph.head_lemma(phrase) in _SHARE and len(subject) > 1:
        return " ".join(w.strip(",") for w in subject[1:])
    return morph.inflect(phrase, "gent")


def _genitive_start(words: list[str], at: int) -> int:
    """Where the genitive words just before ``words[at]`` start («фактических расходов агентства»)."""
    analyzer = morph._analyzer()
    start = at
    while start > 0 and re.fullmatch(r"[а-яё]+", words[start - 1].lower()) and any(
            p.tag.case == "gent" and p.tag.POS in ("NOUN", "ADJF", "PRTF") for p in analyzer.parse(words[start - 1].lower())):
        start -= 1
    return start


def deduction_question(words: list[str], verb_at: int, at: int) -> str | None:
    """«Сколько удерживается из оплаты при отчислении?» when the genitive group just before ``words[at]`` (the
    amount: «в размере 15%») follows «за вычетом»; None for any other sentence or when the money has no name."""
    owner_start = _genitive_start(words, at)
    if owner_start == at or owner_start < 2 or [w.lower() for w in words[owner_start - 2:owner_start]] != ["за", "вычетом"]:
        return None
    after_verb = words[verb_at + 1:owner_start - 2]
    before_verb = words[:verb_at]
    number = "plur" if "plur" in morph._analyzer().parse(words[verb_at].lower())[0].tag else "sing"
    if after_verb and _nominative_head(after_verb):
        subject, context = after_verb, before_verb
    else:  # «При досрочном расторжении договора | страховая премия | возвращается»
        at = next((k for k in range(len(before_verb)) if _nominative_head(before_verb[k:])
                   and (str(morph.gender_number(" ".join(before_verb[k:]))) == "plur") == (number == "plur")), None)
        if at is None:
            return None
        subject, context = before_verb[at:], before_verb[:at]
    if context and context[0].lower() not in _CONTEXT:
        return None
    money = _money(subject)
    if money is None:
        return None
    where = " " + morph.lower_first(" ".join(w.strip(",") for w in context)) if context else ""
    return f"Сколько удерживается из {money}{where}?"


__all__ = ["deduction_question"]
