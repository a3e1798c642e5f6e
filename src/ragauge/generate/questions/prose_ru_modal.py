"""Russian sentences whose predicate is a modal word and an infinitive, asked with the modal as they are.

«Заявление на выплату нужно подать не позднее 30 дней после возвращения из поездки» has no finite verb for
:mod:`.prose`; a person asks «В какой срок после возвращения из поездки нужно подать заявление на выплату?»:

* the question phrase comes from the operator and the unit (:func:`.prose_ru_phrase.wh_phrase`), and the event the
  time is counted from follows it (:func:`anchor`: «после возвращения из поездки», «до выдачи», «с окончания аренды»);
* an impersonal modal («нужно», «можно», «необходимо», «надо», «следует»; the last three are asked «нужно») takes
  the noun group before it as the infinitive's object, after it: «… можно бесплатно отменить бронирование?»; a
  personal one («обязан», «должен») keeps its subject before it: «В какой срок при любом ДТП арендатор обязан
  сообщить вам?»; of two infinitives joined by «и» the one the number belongs to is asked;
* a price «за N рублей» is asked «Сколько стоит» + the infinitive: «Сколько в сутки стоит вписать дополнительного
  водителя в договор?»;
* a minimum age of whom, «Водителю должно быть не меньше 21 года», is asked «Каков минимальный возраст водителя?».

A negated modal («нельзя», «не нужно») or infinitive gives None, as does a sentence without such a predicate.
"""

from __future__ import annotations

import re
from typing import Any

from ragauge.generate.questions import morph
from ragauge.generate.questions.prose_ru_phrase import OPS as _OPS, fact_kind as _fact_kind, wh_phrase

_IMPERSONAL = {"нужно": "нужно", "можно": "можно", "необходимо": "нужно", "надо": "нужно", "следует": "нужно"}
_PERSONAL = {"обязанный", "должный", "обязать"}
_ANCHOR_PREPS = {"до", "после", "с", "со", "от"}
_ANCHOR_STOP = {"и", "или", "а", "но", "если", "когда", "в", "во", "на", "за", "по", "при", "не", "чем", "для",
                "через", "без", "кроме"}
_NUMBER = re.compile(r"^\d+(?:[.,]\d+)?%?[,.;:]?$")
_PER = re.compile(r"^(?:в|за)$")
_PER_UNIT = re.compile(r"^(?:сутки|день|час|месяц|год|неделю|смену|поездку|человека)[,.;:]?$")
_MIN_AGE = {"не меньше": "минимальный", "не менее": "минимальный", "не моложе": "минимальный",
            "не больше": "максимальный", "не более": "максимальный", "не старше": "максимальный"}


def _parse(word: str) -> Any:
    analyzer = morph._analyzer()
    clean = word.strip(",.;:«»()").lower()
    return analyzer.parse(clean)[0] if analyzer is not None and re.fullmatch(r"[а-яё-]+", clean) else None


def anchor(words: list[str], end: int) -> int:
    """Where the event a quantity is counted from ends («после возвращения из поездки» after «30 дней» at
    ``end``): at most six words after «до», «после», «с», «от» that end the clause; ``end`` when there is none or
    when words of another phrase follow it («после поступления аванса | на расчётный счёт»: the event goes on)."""
    if end >= len(words) or words[end].lower() not in _ANCHOR_PREPS:
        return end
    k = end + 1
    while k < len(words) and k - end <= 6:
        clean = words[k].strip(",.;:«»")
        if not clean or clean.lower() in _ANCHOR_STOP or re.search(r"\d", clean):
            break
        k += 1
        if words[k - 1].endswith((",", ";")):
            break
    closes = k == len(words) or words[k - 1].endswith((",", ";"))
    return k if k > end + 1 and closes else end


def _modal(words: list[str]) -> tuple[int, str, bool] | None:
    """(position, the modal as asked, personal?) of the first modal word followed by an infinitive."""
    for i, w in enumerate(words):
        low = w.lower().strip(",")
        p = _parse(low)
        if low in _IMPERSONAL:
            found = (i, _IMPERSONAL[low], False)
        elif p is not None and p.normal_form in _PERSONAL and p.tag.POS in ("ADJS", "PRTS"):
            found = (i, low, True)
        else:
            continue
        if i and words[i - 1].lower() == "не" or low == "нельзя":
            return None
        return found
    return None


def _infinitive(words: list[str], after: int, limit: int) -> int | None:
    """The last infinitive between ``after`` and ``limit`` that opens its own predicate (the first, or one after
    «и»): «оформить его … и | сообщить нам в течение 1 часа»."""
    found = None
    for k in range(after, limit):
        p = _parse(words[k])
        if p is None or p.tag.POS != "INFN":
            continue
        between = [_parse(w) for w in words[after:k]]
        if found is None and all(q is not None and q.tag.POS == "ADVB" for q in between) \
                or words[k - 1].lower() == "и":
            found = k
    return found


def _subject(words: list[str], at: int) -> int:
    """Where the nominative noun group just before ``words[at]`` starts (its adjectives, then the noun)."""
    k = at - 1
    p = _parse(words[k]) if k >= 0 else None
    if p is None or p.tag.POS != "NOUN" or p.tag.case != "nomn":
        return at
    while k > 0 and (q := _parse(words[k - 1])) is not None and q.tag.POS in ("ADJF", "PRTF") and q.tag.case == "nomn":
        k -= 1
    return k


def _age_of(words: list[str], modal: int, op: str) -> str | None:
    """«Каков минимальный возраст водителя?» for «Водителю должно быть не меньше 21 года»."""
    p = _parse(words[modal - 1]) if modal else None
    if p is None or p.tag.POS != "NOUN" or p.tag.case != "datv" or op not in _MIN_AGE:
        return None
    gen = p.inflect({"gent", p.tag.number})
    return f"Каков {_MIN_AGE[op]} возраст {gen.word}?" if gen is not None else None


def modal_question(sentence: str) -> tuple[str, str] | None:
    """(question, fact kind) for a sentence with a modal predicate (see the module docstring), else None."""
    if not morph.available():
        return None
    body = re.sub(r"(?<=\d)[ \u00a0](?=\d{3}\b)", "", sentence.strip().rstrip(".!"))
    body = re.sub(r"\s*\([^()]*\)", "", body)
    words = body.split()
    found = _modal(words)
    if found is None:
        return None
    at, modal, personal = found
    num = next((k for k in range(at + 1, len(words)) if _NUMBER.match(words[k])), None)
    if num is None:
        return None
    inf = _infinitive(words, at + 1, num)
    if inf is None or words[inf - 1].lower() == "не" and inf - 1 > at:
        return None
    low = [w.lower().strip(",") for w in words[:num]]
    op = next((o for o in _OPS if len(low) >= len(o.replace(",", "").split())
               and low[len(low) - len(o.replace(",", "").split()):] == o.replace(",", "").split()), "")
    op_len = len(op.replace(",", "").split())
    number, unit = words[num].rstrip(",.;:"), [w.strip(",.;:") for w in words[num + 1:num + 3]]
    if _parse(words[inf]).normal_form == "быть" and inf == at + 1 and unit and re.match(r"^(?:лет|год)", unit[0]):
        age = _age_of(words, at, " ".join(words[max(0, num - 2):num]).lower())
        return (age, "condition") if age else None
    phrase_found = wh_phrase(op, number, unit, words[num - op_len - 1] if num - op_len > 0 else "")
    if phrase_found is None or num - op_len <= inf:
        return None
    phrase, n_unit = phrase_found
    end = num + 1 + n_unit
    if end > len(words) or any(w.endswith(",") for w in words[inf:num - op_len]):
        return None
    stop = anchor(words, end)
    event = [w.strip(",") for w in words[end:stop]]
    rest = []
    for w in words[stop:]:  # up to the end of the clause
        if w in ("—", "–"):
            break
        rest.append(w.rstrip(","))
        if w.endswith(","):
            break
    lead_in = [w for w in words[at + 1:inf] if (p := _parse(w)) is not None and p.tag.POS == "ADVB"]
    if len(lead_in) < inf - at - 1:
        lead_in = []  # «обязан остановиться и | позвонить»: the other infinitive is not asked
    middle = [w.strip(",") for w in lead_in + words[inf + 1:num - op_len]]
    adverbs = [w for w in middle if (p := _parse(w)) is not None and p.tag.POS == "ADVB"]
    middle = [w for w in middle if w not in adverbs]
    if len(middle) + len(rest) > 6:
        return None  # a chain of adjuncts: not what a person asks with
    before = words[:at]
    if any(w.endswith((",", ";")) or (p := _parse(w)) is not None and p.tag.POS == "VERB" for w in before):
        return None  # the modal is not the sentence's one predicate («…, но каждая поездка должна длиться …»)
    lead: list[str]
    subject: list[str]
    obj: list[str]
    if personal:
        start = _subject(words, at)
        if start == at:
            return None
        lead, subject, obj = before[:start], before[start:], []
    elif before and (p := _parse(before[0])) is not None and p.tag.POS == "PREP":
        lead, subject, obj = before, [], []
    else:
        lead, subject, obj = [], [], before
    kind = _fact_kind(unit, number)
    per = rest[:2] if len(rest) >= 2 and _PER.match(rest[0]) and _PER_UNIT.match(rest[1]) else []
    if op == "за" and kind == "amount":  # «за 300 ₽ в сутки»: «Сколько в сутки стоит вписать …»
        head = ["Сколько", *per, "стоит"]
        rest = rest[len(per):]
        modal_words: list[str] = []
    else:
        if op == "в течение" and modal != "можно":
            phrase = "в какой срок"  # a deadline, not a window in which it is allowed
        head = [phrase, *event]
        modal_words = [modal]
    words_out = head + [_lower(lead)] + [_lower(subject)] + modal_words + adverbs + [words[inf]] + \
        [_lower(obj)] + middle + rest
    question = " ".join(w for w in words_out if w)
    question = re.sub(r"\s+", " ", question).strip().rstrip(",")
    return question[:1].upper() + question[1:] + "?", kind


def _lower(words: list[str]) -> str:
    text = " ".join(w.strip(",") for w in words)
    return morph.lower_first(text) if text else ""


__all__ = ["anchor", "modal_question"]
