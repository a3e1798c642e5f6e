"""Russian questions that put a question phrase in place of the sentence's quantity, for sentences the
subject-verb forms of :mod:`.prose` cannot ask ("every sentence of the section holds a number, none got a
question").

Russian word order is free enough that moving the question phrase to the front and keeping the rest of the
sentence in its order gives a grammatical question: «В течение 14 календарных дней с даты заключения договора
страхователь может отказаться от полиса» -> «В течение какого срока с даты заключения договора страхователь
может отказаться от полиса?». The question phrase comes from the operator before the number and the word
after it (:func:`wh_phrase`): «на 4 платежа» -> «На сколько платежей», «с 5 класса» -> «С какого класса»,
«старше 60 лет» -> «какого возраста» (an age, not a duration), «на 12%» -> «На сколько процентов»,
«не превышает 45 минут» -> «Сколько минут не превышает». A percentage or amount "в размере" that belongs to a
noun in the genitive («за вычетом расходов страховщика в размере 20%») is asked about that noun:
«Сколько составляют расходы страховщика при досрочном расторжении договора?».

The reference stays the whole sentence (the caller's), so the answer and its condition are in the chunk.
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

_WORD = re.compile(r"\S+")
_NUM = re.compile(r"^\d+(?:[.,]\d+)?%?[,.;:]?$")
_TIME = re.compile(r"^(?:рабоч|календарн|банковск)?\w*$|^(?:дн|день|дня|час|минут|недел|месяц|год|сут|лет)", re.I)
_TIME_UNIT = re.compile(r"^(?:дн|день|дня|час|минут|недел|месяц|месяца|год|сут)", re.I)
_MONEY = re.compile(r"^(?:руб|₽|коп|тыс|млн|\$|€)", re.I)
_MONTH = re.compile(r"^(?:январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр)", re.I)
_AGE_OPS = ("старше", "младше", "моложе")
_PREPOSITIONS = {"при", "в", "во", "на", "за", "по", "с", "со", "для", "после", "до", "от", "через", "перед", "у", "к",
                 "если", "когда", "согласно", "в течение"}
_SKIP_START = {"он", "она", "оно", "они", "это", "этот", "эта", "эти", "такой", "такая", "такие", "также", "и", "а",
               "но", "или", "который", "которая", "которые"}
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
                 "от": "от какой суммы", "свыше": "свыше какой суммы", "более": "более какой суммы"}
        found = table.get(op)
        return (found, 1) if found else None
    if kind in ("day", "date") and op in ("до", "с", "со", "не позднее"):
        return f"{'с' if op == 'со' else 'до' if op == 'не позднее' else op} какого числа", 1
    if kind == "count" and unit_words:
        head = unit_words[0]
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
    if words[0].lower() == "если" and (comma := next((k for k, x in enumerate(words) if x.endswith(",")), 0)) \
            and comma + 2 < len(words) and _find_verb(words[comma + 1:]) is not None:
        # "Если клиент опаздывает более чем на 30 минут, запись может быть перенесена" -> "В каком случае запись
        # может быть перенесена?": the condition is the answer
        main = words[comma + 1:]
        if not morph.is_proper(main[0]) and not morph.is_abbreviation(main[0]):
            main = [morph.lower_first(main[0])] + main[1:]
        return "В каком случае " + " ".join(main).rstrip(",") + "?", "condition"
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
            comma = "," if words[end - 1].endswith(",") and end < len(words) else ""
            question = " ".join(words[:start] + [phrase + comma] + words[end:]).rstrip(",") + "?"
            return question[:1].upper() + question[1:], _fact_kind(unit_words, number)
        if op == "в размере" and number.endswith("%") or op == "в размере" and _unit_kind(" ".join(unit_words),
                                                                                           number) == "money":
            owner = _genitive_owner(words, start)
            if owner is not None and owner[0] > verb_at:
                return _owner_question(words, verb_at, owner), "percent" if number.endswith("%") else "amount"
        second = next((k for k in range(start - 1, verb_at, -1) if words[k - 1].lower() == "и"
                       and _find_verb([words[k]]) is not None), None)
        if second is not None:  # "оформляется в день обращения и действует 3 месяца": ask the second predicate
            cut = second - verb_at
            words = words[:verb_at] + words[second:]
            start, end, verb_at = start - cut, end - cut, verb_at
        if not any(x.endswith(",") for x in words[:verb_at]) and words[0].lower() not in _PREPOSITIONS \
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
    verb = _parse(words[verb_at])
    return verb is not None and (words[verb_at].lower().rstrip(",").endswith(("ся", "сь")) or verb.tag.POS == "ADJS"
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


def _fact_kind(unit_words: list[str], number: str) -> str:
    return {"percent": "percent", "money": "amount", "time": "deadline", "years": "condition", "day": "date",
            "date": "date"}.get(_unit_kind(" ".join(unit_words).lower(), number), "count")


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
