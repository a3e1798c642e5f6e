"""Russian questions that put a question phrase in place of the sentence's quantity, for sentences the
subject-verb forms of :mod:`.prose` cannot ask ("every sentence of the section holds a number, none got a
question").

Russian word order is free enough that moving the question phrase to the front and keeping the rest of the
sentence in its order gives a grammatical question: «В течение 14 календарных дней с даты заключения договора
страхователь может отказаться от полиса» -> «В течение какого срока с даты заключения договора страхователь
может отказаться от полиса?». The question phrase comes from the operator before the number and the word
after it (:func:`.prose_ru_phrase.wh_phrase`): «на 4 платежа» -> «На сколько платежей», «с 5 класса» -> «С какого
класса», «старше 60 лет» -> «какого возраста» (an age, not a duration), «на 12%» -> «На сколько процентов»,
«не превышает 45 минут» -> «Сколько минут не превышает». A percentage or amount "в размере" that belongs to a
noun in the genitive is asked about that noun («Сколько составляют расходы …?»), and after «за вычетом» as what is
withheld (:mod:`.prose_ru_deduct`: «Сколько удерживается из страховой премии при досрочном расторжении договора?»).
An age that qualifies a person is asked as its bound (:mod:`.prose_ru_age`: «С какого возраста водителям …?»).
What the unit measures, a rate and the event a time counts from go with the phrase, a chain of adjuncts is left out
(:mod:`.prose_ru_joined`: «В какой срок после решения перечисляются деньги?»); a sentence without a subject asks
its verb after the phrase («Сколько взимается за утерю ключа?»); «Если …, …» asks the condition
(:mod:`.prose_ru_condition`).

The reference stays the whole sentence (the caller's), so the answer and its condition are in the chunk.
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph
from ragauge.generate.questions.prose_ru_age import age_question
from ragauge.generate.questions.prose_ru_condition import if_question
from ragauge.generate.questions.prose_ru_deduct import deduction_question
from ragauge.generate.questions.prose_ru_nominal import named_price
from ragauge.generate.questions.prose_ru_joined import joined, own_subject, subject_clause_ok, with_owner
from ragauge.generate.questions.prose_ru_phrase import AGE_OPS as _AGE_OPS
from ragauge.generate.questions.prose_ru_phrase import OPS as _OPS
from ragauge.generate.questions.prose_ru_phrase import TIME_UNIT as _TIME_UNIT
from ragauge.generate.questions.prose_ru_phrase import fact_kind as _fact_kind
from ragauge.generate.questions.prose_ru_phrase import unit_kind as _unit_kind
from ragauge.generate.questions.prose_ru_phrase import wh_phrase

_WORD = re.compile(r"\S+")
_NUM = re.compile(r"^\d+(?:[.,]\d+)?%?[,.;:]?$|^\d+-[а-я]{1,3}[,.;:]?$")
_PREPOSITIONS = {"при", "в", "во", "на", "за", "по", "с", "со", "для", "после", "до", "от", "через", "перед", "у", "к",
                 "если", "когда", "согласно", "в течение"}
_SKIP_START = {"он", "она", "оно", "они", "это", "этот", "эта", "эти", "такой", "такая", "такие", "также", "и", "а",
               "но", "или", "который", "которая", "которые"}
def _parse(word: str):
    analyzer = morph._analyzer()
    clean = word.strip(",.;:«»()").lower()
    return analyzer.parse(clean)[0] if analyzer is not None and re.fullmatch(r"[а-яё-]+", clean) else None


def _genitive_owner(words: list[str], at: int) -> tuple[int, str] | None:
    """The genitive noun group right before ``words[at]`` ("расходов страховщика" before "в размере"), as
    (its start, the group in the nominative: "расходы страховщика")."""
    start = at
    while start > 0:
        p = _parse(words[start - 1])
        if p is None or p.tag.POS not in ("NOUN", "ADJF", "PRTF") or str(p.tag.case) != "gent":
            break
        start -= 1
    if start == at or at - start > 3:
        return None
    prev = _parse(words[start - 1]) if start > 0 else None
    if prev is None or prev.tag.POS != "NOUN":  # "за вычетом | расходов": a noun governs the genitive
        return None
    head = _parse(words[start])
    if head is None or head.tag.POS != "NOUN":
        return None
    nom = head.inflect({"nomn", str(head.tag.number)})
    if nom is None:
        return None
    group = [nom.word] + [w.strip(",.;:") for w in words[start + 1:at]]
    return start, " ".join(group)


def _find_verb(words: list[str]) -> int | None:
    for i, w in enumerate(words):
        p = _parse(w)
        if p is not None and ((p.tag.POS == "VERB" and p.tag.mood == "indc") or p.tag.POS == "ADJS"):
            return i
    return None


def ru_wh_question(sentence: str) -> tuple[str | None, str]:
    """(question, fact kind) with the first askable quantity replaced by a question phrase, or (None, reason)."""
    if not morph.available():
        return None, "prose_russian_morphology_missing"
    body = re.sub(r"^\d+(?:\.\d+)+\.?\s+", "", sentence).rstrip(".!;")
    body = re.sub(r"(?<=\d)[ \u00a0](?=\d{3}\b)", "", body)
    body = re.sub(r"\s*\([^()]*\)", "", body)  # a parenthesis is not part of the question
    words = _WORD.findall(body)
    if not words or words[0].lower().strip(",") in _SKIP_START or len(words) > 28:
        return None, "prose_no_question_form"
    if re.search(r"[.!?]\s+[А-ЯЁA-Z]|\s[—–]\s|[;:](?:\s|$)|,\s+(?:а|но|однако)\s", body) or body.count(",") > 2:
        return None, "prose_no_question_form"  # two statements, a dash or a contrast: no single question
    verb_at = _find_verb(words)
    if verb_at is None:
        return None, "prose_no_verb"
    if words[0].lower() == "если" and (condition := if_question(words)) is not None:
        return condition, "condition"  # the condition is the answer (:mod:`.prose_ru_condition`)
    condition_end = next((k for k, x in enumerate(words) if x.endswith(",")), -1) \
        if words[0].lower() in ("если", "когда", "пока") else -1
    relative = next((k for k in range(1, len(words)) if words[k - 1].endswith(",")
                     and words[k].lower().startswith(("котор", "где", "когда", "чтобы"))), len(words))
    for i, w in enumerate(words):
        if not _NUM.match(w) or (i and words[i - 1] in ("№", "п.", "пункт", "ст.")):
            continue
        if i <= condition_end or i > relative:
            continue  # a number in an "если" clause or a relative clause is not what the sentence states
        if i and (re.fullmatch(r"[А-ЯЁA-Z]{2,6}|первы[еха]|последни[еха]", words[i - 1].lower() if
                               words[i - 1].lower().startswith(("перв", "послед")) else words[i - 1]) or re.fullmatch(r"\d+\.\d{3,}\W*", w)):
            continue  # a code ("СП 70.13330"), not a quantity
        if i + 1 < len(words) and words[i - 1].lower() in ("с", "со") and words[i + 1].lower() in ("по", "до") \
                or i + 2 < len(words) and words[i - 1].lower() in ("с", "со") and words[i + 2].lower() in ("по", "до"):
            continue  # a range "с 1 ноября по 31 марта": neither end alone is the answer
        if i < verb_at and (words[i - 1].lower() == "от" and i + 2 < len(words) and words[i + 1].lower() == "до"
                            or i >= 3 and words[i - 1].lower() == "до" and words[i - 3].lower() == "от"):
            continue  # «За опоздание от 1 до 3 часов взимается …»: a range before the verb says of what
        number = w.rstrip(",.;:")
        if any(x.lower().startswith("котор") for x in words[:i]):
            return None, "prose_no_question_form"  # a relative clause before the number: its verb is not the one
        low = [x.lower().strip(",") for x in words[:i]]
        op = next((o for o in _OPS if low[len(low) - len(o.split()):] == o.replace(",", "").split()
                   and len(low) >= len(o.split())), "")
        op_len = len(op.replace(",", "").split()) if op else 0
        before = words[i - op_len - 1].strip(",.;:") if i - op_len - 1 >= 0 else ""
        unit_words = [x.strip(",.;:") for x in words[i + 1:i + 3]]
        found = wh_phrase(op, number, unit_words, before)
        if found is None:
            continue
        if not op and _noun_nominative(before):
            continue  # "скидка 10%": the noun's value, asked as "Какая скидка …" by .prose, not "сколько процентов"
        if i - op_len > verb_at and op in _LIMIT_OPS and _noun_not_nominative(before) \
                and "при" in [x.lower() for x in words[verb_at + 1:i - op_len]]:
            continue  # "при влажности не более 60 %": a condition on a noun, not what the sentence states
        phrase, n_unit = found
        start, end = i - op_len, i + 1 + n_unit
        if op == "за" and _unit_kind(" ".join(unit_words), number) == "money" \
                and (named := named_price(words, start, end)) is not None:
            return named, "amount"  # «… опцией «Шины и стёкла» за 250 рублей»: what the named thing costs
        phrase, end = with_owner(phrase, words, end, number)  # «50% стоимости тура»: «сколько максимум»
        alt = [k for k in range(verb_at + 2, start) if words[k].lower() == "или"]
        if alt and start - alt[-1] <= 4 and not any(x.endswith(",") for x in words[verb_at + 1:start]) \
                and (adv := _parse(words[alt[-1] - 1].strip(","))) is not None and adv.tag.POS == "ADVB":
            # «выплачивается единовременно или в рассрочку на 3 платежа»: two ways of doing it, and the number
            # belongs to the last one only; «… единовременно или в рассрочку?» would ask it of both. Objects
            # joined by «или» («уведомляет Заказчика или его технический надзор») are not ways and stay.
            cut = alt[-1] + 1 - (verb_at + 1)
            words = words[:verb_at + 1] + words[alt[-1] + 1:]
            i, start, end = i - cut, start - cut, end - cut
        if phrase == "какого возраста" and before.lower().startswith("возраст"):
            start -= 1  # "достигшие возраста 6 лет" -> "достигшие какого возраста"
        if op in _AGE_OPS and start > 0 and words[start - 1].lower() == "не":
            start -= 1  # "не моложе 18 лет" -> "какого возраста"
        if "суммы" in phrase and before.lower().startswith("сумм"):
            start -= 2 if start >= 2 and words[start - 2].lower() in ("на", "в") else 1  # "на сумму от 150 000 руб."
        while end + 2 < len(words) + 1 and end + 2 <= len(words) - 0 and words[end - 1].strip(",") == words[end - 1] \
                and end + 1 < len(words) and words[end] == "и" and _NUM.match(words[end + 1]) \
                and end + 2 < len(words) and _TIME_UNIT.match(words[end + 2]):
            end += 3  # "6 лет и 6 месяцев" is one quantity
        if end < len(words) and words[end].lower() == "и" and start > verb_at:
            words = words[:end]  # "… через 28 суток и только при …": the second condition is not asked about
        if _in_place(words, start, end, verb_at, phrase):
            if phrase.endswith("какого возраста") and (age := age_question(words, start, end, op)) is not None:
                return age, _fact_kind(unit_words, number)  # «С какого возраста студентам …?» (:mod:`.prose_ru_age`)
            comma = "," if words[end - 1].endswith(",") and end < len(words) else ""
            question = " ".join(words[:start] + [phrase + comma] + words[end:]).rstrip(",") + "?"
            return question[:1].upper() + question[1:], _fact_kind(unit_words, number)
        if op == "в размере" and number.endswith("%") or op == "в размере" and _unit_kind(" ".join(unit_words),
                                                                                           number) == "money":
            owner = _genitive_owner(words, start)
            # «за вычетом расходов …»: what is withheld from the money (:mod:`.prose_ru_deduct`)
            withheld = deduction_question(words, verb_at, start) if start > verb_at else None
            if withheld is not None or owner is not None and owner[0] > verb_at:
                asked = withheld or _owner_question(words, verb_at, owner)
                return asked, "percent" if number.endswith("%") else "amount"
        second = next((k for k in range(start - 1, verb_at, -1) if words[k - 1].lower() == "и"
                       and _find_verb([words[k]]) is not None), None)
        if second is not None:  # "оформляется в день обращения и действует 3 месяца": ask the second predicate
            cut = second - verb_at
            words = words[:verb_at] + words[second:]
            start, end, verb_at = start - cut, end - cut, verb_at
        phrase, words, start, end = joined(phrase, words, start, end, verb_at)  # «в сутки», «после решения»
        if start > verb_at and words[0].lower() in _PREPOSITIONS and _find_verb(words[:verb_at]) is None \
                and _invertible_verb(words[verb_at]) and not any(x.endswith(",") for x in words[:verb_at]):
            # «В стоимость аренды входит 300 км в сутки»: the verb follows the question phrase, then its subject
            # if any («Для путешественников … стоимость полиса увеличивается в 2 раза»), then the prepositions
            at = own_subject(words, verb_at)
            lead = [morph.lower_first(words[0])] + words[1:at]
            words = [words[verb_at]] + words[at:verb_at] + lead + words[verb_at + 1:]
            start, end, verb_at = start, end, 0
        if subject_clause_ok(words, verb_at) and words[0].lower() not in _PREPOSITIONS \
                and start > verb_at and _invertible(words, verb_at):
            # the verb after the question phrase, as a person asks: "Сколько месяцев действует гарантия …?";
            # a "не" before it and a modal's infinitive after it move with it: "не должны превышать"
            first, last = _verb_group(words, verb_at, start)
            subject = words[:first]
            if not subject:
                return None, "prose_no_question_form"
            if not morph.is_proper(subject[0].strip(",")) and not morph.is_abbreviation(subject[0].strip(",")):
                subject[0] = morph.lower_first(subject[0])
            subject[-1] = subject[-1].rstrip(",") if not words[last:start] + words[end:] else subject[-1]
            words = words[first:last] + subject + words[last:]
            start, end, verb_at = start, end, 0
        rest = words[:start] + words[end:]
        if not rest or any(x.endswith(",") for x in words[start:end - 1]):
            return None, "prose_no_question_form"
        if start < len(words) and start > 0 and words[start - 1].endswith(","):
            rest = words[:start - 1] + [words[start - 1].rstrip(",")] + words[end:]
        tail = " ".join(rest)
        tail = re.sub(r",\s*$", "", tail)
        if start == 0 and len(rest) and not morph.is_proper(rest[0].strip(",")) \
                and not morph.is_abbreviation(rest[0].strip(",")):
            tail = morph.lower_first(tail)
        elif start > 0 and not morph.is_proper(words[0]) and not morph.is_abbreviation(words[0]):
            tail = morph.lower_first(tail)
        question = f"{phrase} {tail}".strip()
        question = re.sub(r"\s+,", ",", question).rstrip(",") + "?"
        return question[:1].upper() + question[1:], _fact_kind(unit_words, number)
    return None, "prose_no_question_form"


_LIMIT_OPS = ("не более", "не менее", "более", "менее", "свыше", "до", "от")


_MODALS = {"должный", "мочь", "обязанный"}


def _verb_group(words: list[str], verb_at: int, limit: int) -> tuple[int, int]:
    """``(first, last)``: the verb with a "не" before it, and after a modal ("должны", "может") its "не" and
    infinitive, never reaching ``limit`` (the question phrase): "не должны превышать", "должны не превышать"."""
    first = verb_at - 1 if verb_at > 0 and words[verb_at - 1].lower() == "не" else verb_at
    last = verb_at + 1
    verb = _parse(words[verb_at])
    if verb is not None and verb.normal_form in _MODALS:
        k = last + (1 if last < limit and words[last].lower() == "не" else 0)
        infinitive = _parse(words[k]) if k < limit else None
        if infinitive is not None and infinitive.tag.POS == "INFN":
            last = k + 1
    return first, last


def _invertible(words: list[str], verb_at: int) -> bool:
    """The verb may go before its subject ("Сколько месяцев действует гарантия …?"): the words before it start
    with a nominative noun group and the verb takes no object (reflexive, intransitive or a short adjective)."""
    analyzer = morph._analyzer()
    first_noun = next((w for w in words[:verb_at] if (p := _parse(w)) is not None and p.tag.POS == "NOUN"), None)
    if first_noun is None or not any(p.tag.POS == "NOUN" and p.tag.case == "nomn"
                                     for p in analyzer.parse(first_noun.strip(",").lower())):
        return False
    return _invertible_verb(words[verb_at])


def _invertible_verb(word: str) -> bool:
    verb = _parse(word)
    return verb is not None and (word.lower().rstrip(",").endswith(("ся", "сь")) or verb.tag.POS == "ADJS"
                                 or "intr" in verb.tag)


def _noun_nominative(word: str) -> bool:
    p = _parse(word)
    return p is not None and p.tag.POS == "NOUN" and str(p.tag.case) == "nomn"


def _noun_not_nominative(word: str) -> bool:
    p = _parse(word)
    return p is not None and p.tag.POS == "NOUN" and str(p.tag.case) != "nomn"


_ONLY = re.compile(r"\s+только\s+(?:при|после|по|в случае)\s+", re.IGNORECASE)


def ru_condition_question(sentence: str) -> str | None:
    """«При каком условии возмещается ущерб от угона?» from «Ущерб от угона возмещается только при наличии обоих
    комплектов ключей»: a sentence whose nominative subject, then a verb that takes no object, then "только
    при/после/по …" states a condition; None for any other shape."""
    if not morph.available():
        return None
    body = re.sub(r"^\d+(?:\.\d+)+\.?\s+", "", sentence).rstrip(".!")
    m = _ONLY.search(body)
    if m is None or "," in body or re.search(r"\d", body):
        return None
    words = _WORD.findall(body[:m.start()])
    verb_at = _find_verb(words)
    if verb_at is None or verb_at == 0 or verb_at != len(words) - 1 or len(words) > 8 \
            or words[0].lower() in _PREPOSITIONS or words[0].lower() in _SKIP_START:
        return None
    if not _invertible(words, verb_at):
        return None
    subject = words[:verb_at]
    if not morph.is_proper(subject[0]) and not morph.is_abbreviation(subject[0]):
        subject = [morph.lower_first(subject[0])] + subject[1:]
    return f"При каком условии {words[verb_at]} {' '.join(subject)}?"


def _in_place(words: list[str], start: int, end: int, verb_at: int, phrase: str) -> bool:
    """Keep the question phrase where the quantity was when it qualifies a noun before the verb ("Водителям
    старше 60 лет" -> "Водителям какого возраста") or follows a participle ("дети, достигшие возраста …"):
    moved to the front it would lose what it qualifies. A prepositional phrase after the subject ("Дети до
    6 лет проживают …") and one holding the verb ("не превышает 45 минут") go to the front."""
    if start == 0 or start <= verb_at < end:
        return False
    if start < verb_at:
        prev = _parse(words[start - 1])
        subject = prev is not None and prev.tag.POS == "NOUN" and str(prev.tag.case) == "nomn" \
            and not words[start - 1].endswith(",")
        return not (subject and phrase.split()[0] in ("до", "с", "от", "на", "в", "за", "через", "по"))
    if phrase == "какого возраста":  # "допускаются рабочие не моложе 18 лет" -> "рабочие какого возраста"
        prev = _parse(words[start - 1])
        if prev is not None and prev.tag.POS == "NOUN":
            return True
    k = start - 1
    if k >= 0 and words[k].lower().startswith("возраст"):
        k -= 1
    p = _parse(words[k]) if k >= 0 else None
    return p is not None and p.tag.POS == "PRTF" and k > 0 and words[k - 1].endswith(",")


def _owner_question(words: list[str], verb_at: int, owner: tuple[int, str]) -> str:
    """«Сколько составляют расходы страховщика при досрочном расторжении договора?»."""
    _, group = owner
    form = morph.gender_number(group) or "masc"
    verb = "составляют" if form == "plur" else "составляет"
    prefix = [w.strip(",") for w in words[:verb_at]]
    context = morph.lower_first(" ".join(prefix)) if prefix and prefix[0].lower() in (
        "при", "в", "во", "после", "до", "для", "по", "с", "со") else ""
    return " ".join(x for x in ("Сколько", verb, group, context) if x) + "?"


__all__ = ["ru_condition_question", "ru_wh_question", "wh_phrase"]
