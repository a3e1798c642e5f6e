"""Russian question polish: where a dative goes and which preposition it takes, as a person writes it.

* :func:`recipient_before_verb` — a bare dative (to whom) that the sentence left after the subject goes before the
  verb: «В какой срок направляется уведомление о плановых работах клиенту?» -> «В какой срок клиенту направляется
  уведомление о плановых работах?». With words after it, it moves alone when they open an adverbial of their own
  («клиенту | по электронной почте»); words that may be its modifiers («работникам | с ненормированным днём»)
  keep it where it is. A dative right after its verb or after a preposition stays.
* :func:`dative_with_k` — a verb that takes its addressee with «к» («применяется к студентам», «прибавляется к
  окладу») gets the «к» a document left out («Студентам … применяется коэффициент 0,8»).
* :func:`compared_with` — a change «на N%» against a base «к X» is asked «по сравнению с X» («На сколько процентов
  увеличивается стоимость по сравнению с базовым тарифом?»): «увеличивается … к базовому тарифу» is the
  document's shorthand, not how a question reads.
* :func:`for_whom` — in a question without a verb («Какова продолжительность …») a dative of whom it is for reads
  «для» + genitive: «… дополнительного отпуска для работников с ненормированным рабочим днём».
"""

from __future__ import annotations

import re
from typing import Any

from ragauge.generate.questions import morph

#: Verbs (without «-ся») whose addressee is «к» + dative, never a bare dative.
K_VERBS = {"применять", "прибавлять", "добавлять", "приравнивать", "прилагать", "прикреплять", "присоединять",
           "относить", "применить", "прибавить", "добавить", "приравнять", "приложить", "прикрепить",
           "присоединить", "отнести"}
#: Prepositions that open an adverbial of its own after a dative (how, where, when), not a modifier of it.
_ADVERBIAL = {"по", "через", "на", "в", "во", "не", "до", "после"}
#: Personal pronouns that may stand as a question's subject before its verb.
_PERSONAL = {"я", "вы", "мы", "ты", "он", "она", "они"}
_PREP_WORDS = {"в", "во", "на", "за", "по", "с", "со", "к", "ко", "для", "до", "от", "при", "после", "через", "о",
               "об", "у", "из", "над", "под", "перед", "и", "или"}


def _parses(word: str) -> list[Any]:
    low = word.strip(",.;:?").lower()
    analyzer = morph._analyzer()
    if analyzer is None or not re.fullmatch(r"[а-яё]+", low):
        return []
    return list(analyzer.parse(low))


def _is_dative_noun(word: str) -> bool:
    parses = [a for a in _parses(word) if a.score >= 0.05]
    return bool(parses) and all(a.tag.POS == "NOUN" and a.tag.case == "datv" for a in parses)


def _is_dative_adjective(word: str) -> bool:
    return any(a.tag.POS in ("ADJF", "PRTF") and a.tag.case == "datv" for a in _parses(word))


def _is_preposition(word: str) -> bool:
    low = word.lower()
    return low in _PREP_WORDS or any(a.tag.POS == "PREP" for a in _parses(low)[:1])


def _verb_at(words: list[str]) -> int | None:
    return next((i for i, w in enumerate(words) if any(a.tag.POS == "VERB" and a.tag.mood == "indc"
                                                       for a in _parses(w)[:1])), None)


def _dative_groups(words: list[str], start: int = 0) -> list[tuple[int, int]]:
    """(first, last) of every bare dative noun group from ``start``: its adjectives, then the noun."""
    out = []
    for i in range(start, len(words)):
        if not _is_dative_noun(words[i]):
            continue
        first = i
        while first - 1 >= start and _is_dative_adjective(words[first - 1]):
            first -= 1
        if first > 0 and _is_preposition(words[first - 1]):
            continue  # «к базовому тарифу», «по карте»: a preposition governs it
        out.append((first, i))
    return out


def recipient_before_verb(question: str) -> str:
    """See the module docstring."""
    words = question.rstrip("?").split(" ")
    verb_at = _verb_at(words)
    if verb_at is None or verb_at and words[verb_at - 1].lower() in _PERSONAL:
        return question  # «… вы выдаёте автомобили водителям?»: an agent's own order stays
    for first, last in _dative_groups(words, verb_at + 1):
        if first == verb_at + 1:
            return question  # right after its verb: «Какая скидка предоставляется пенсионерам …?»
        if _verb_at(words[verb_at + 1:first]) is not None:
            return question  # the dative of a second verb: «… удерживаете из залога или выставляете арендатору?»
        if last != len(words) - 1 and words[last + 1].lower() not in _ADVERBIAL:
            return question  # words after it may be its own modifiers («работникам с ненормированным днём»)
        group = words[first:last + 1]
        rest = words[:first] + words[last + 1:]
        return " ".join(rest[:verb_at] + group + rest[verb_at:]) + "?"
    return question


def _inflect_group(words: list[str], case: str) -> list[str] | None:
    out = []
    for w in words:
        parse = next((a for a in _parses(w) if a.tag.case == "datv"), None)
        form = parse.inflect({case, parse.tag.number}) if parse is not None else None
        if form is None:
            return None
        out.append(form.word)
    return out


def _ko(word: str) -> str:
    """«к» or «ко» before ``word`` («ко всем», «ко второму»)."""
    return "ко" if re.match(r"(?:вс|вт|мн)", word.lower()) else "к"


def dative_with_k(question: str) -> str:
    """See the module docstring: «Какой коэффициент применяется студентам …?» -> «… применяется к студентам …?»."""
    words = question.rstrip("?").split(" ")
    verb_at = _verb_at(words)
    if verb_at is None:
        return question
    lemma = _parses(words[verb_at])[0].normal_form
    if re.sub(r"(?:ся|сь)$", "", lemma) not in K_VERBS:
        return question
    groups = _dative_groups(words)
    if not groups:
        return question
    first, _ = groups[0]
    return " ".join(words[:first] + [_ko(words[first])] + words[first:]) + "?"


def compared_with(question: str) -> str:
    """See the module docstring: «… увеличивается стоимость к базовому тарифу?» -> «… по сравнению с базовым
    тарифом?», only in a question of how much something changes («На сколько …»)."""
    if not re.search(r"(?:^|\s)на сколько\s", question, re.IGNORECASE):
        return question
    words = question.rstrip("?").split(" ")
    for i, w in enumerate(words[:-1]):
        if w.lower() not in ("к", "ко"):
            continue
        last = i + 1
        while last < len(words) and _is_dative_adjective(words[last]) and not _is_dative_noun(words[last]):
            last += 1
        if last >= len(words) or not any(a.tag.POS == "NOUN" and a.tag.case == "datv" for a in _parses(words[last])):
            continue
        group = _inflect_group(words[i + 1:last + 1], "ablt")
        if group is None:
            return question
        return " ".join(words[:i] + ["по сравнению", "со" if re.match(r"(?:с[бвгджзклмнпрстфхцчшщ]|мн)", group[0])
                                     else "с"] + group + words[last + 1:]) + "?"
    return question


def for_whom(words: list[str]) -> list[str]:
    """«работникам с ненормированным рабочим днём» -> «для работников с ненормированным рабочим днём»: a bare
    dative group that opens ``words`` in the genitive after «для»; other words are returned as they are."""
    if not words:
        return words
    groups = _dative_groups(words)
    if not groups or groups[0][0] != 0:
        return words
    first, last = groups[0]
    genitive = _inflect_group([w.lower() for w in words[first:last + 1]], "gent")
    if genitive is None:
        return words
    return ["для", *genitive, *words[last + 1:]]


def after_subject(question: str, phrase: str) -> str:
    """``question`` with ``phrase`` («по карте «Премиум»») right after the subject that follows its verb, before
    an adverbial of the verb: «В какой срок зачисляется кешбэк на счёт?» -> «В какой срок зачисляется кешбэк по
    карте «Премиум» на счёт?» (at the end, «на счёт по карте» reads as one account of the card). At the end when
    the question has no verb, no nominative after it, or nothing after the subject."""
    words = question.rstrip("?").split(" ")
    verb_at = _verb_at(words)
    end = verb_at + 1 if verb_at is not None else len(words)
    if end < len(words) and any(a.tag.case == "nomn" and a.tag.POS in ("NOUN", "ADJF") for a in _parses(words[end])):
        while end < len(words) and not _is_preposition(words[end]) and any(a.tag.case in ("nomn", "gent") and a.tag.POS in ("NOUN", "ADJF", "PRTF")
                                       for a in _parses(words[end])[:2]):
            end += 1  # the subject and its genitive complement («снятие наличных»)
    if verb_at is None or end in (verb_at + 1, len(words)) or not _is_preposition(words[end]):
        return f"{question.rstrip('?')} {phrase}?"
    return " ".join(words[:end] + [phrase] + words[end:]) + "?"


def polish(question: str) -> str:
    """All the rules of this module, in order."""
    return compared_with(dative_with_k(recipient_before_verb(question)))


__all__ = ["K_VERBS", "after_subject", "compared_with", "dative_with_k", "for_whom", "polish", "recipient_before_verb"]
