"""Russian verb forms a question needs that the sentence does not hold, derived with pymorphy3's dictionary.

* :func:`infinitive_to_do` — the infinitive a person asks a deadline with («нужно отменить»): the active verb of a
  passive «отменяется», perfective when its pair is regular («отменять» -> «отменить», «подавать» -> «подать»,
  «выплачивать» -> «выплатить»), else the imperfective itself («рассматривать»);
* :func:`verb_of_action_noun` — the verb a verbal noun names («бронирование» -> «бронировать», «оформление» ->
  «оформлять»), conjugated like a given finite verb, so «выполняет бронирование гостиницы» reads «бронирует
  гостиницу»;
* :func:`plain_action` — a light verb and its verbal noun as the one verb they stand for («выполняет
  бронирование гостиницы» -> «бронирует гостиницу»);
* :func:`object_case` — a genitive complement of a verbal noun as the verb's direct object («гостиницы» ->
  «гостиницу», «приказа об отпуске» -> «приказ об отпуске»).

A candidate counts only when pymorphy3 knows it as an infinitive (``word_is_known``), so a guessed stem never
reaches a question; every function returns None when it cannot derive a form.
"""

from __future__ import annotations

import re
from typing import Any

from ragauge.generate.questions import morph

#: Regular imperfective -> perfective suffix pairs, tried in order («-ывать» before «-ать»).
#: «-ать» -> «-ить» only after a hushing consonant («получать» -> «получить»): «начинать» is not «начинить».
_PERFECTIVE_SUFFIXES = (("овывать", "овать"), ("ачивать", "атить"), ("ащивать", "атить"), ("ивать", "ить"),
                        ("ывать", "ать"), ("ывать", "ыть"), ("авать", "ать"), ("евать", "ить"), ("щать", "тить"),
                        ("имать", "ять"), ("лять", "ить"), ("ять", "ить"), ("чать", "чить"), ("шать", "шить"),
                        ("щать", "щить"))
#: Verbal noun endings -> infinitive endings, tried in order.
_NOUN_SUFFIXES = (("ование", "овать"), ("евание", "евать"), ("ивание", "ивать"), ("ывание", "ывать"),
                  ("ание", "ать"), ("яние", "ять"), ("едение", "одить"), ("чение", "чать"), ("ение", "ять"), ("ение", "ить"),
                  ("ение", "еть"), ("тие", "ть"))
_NOUN = re.compile(r"[а-яё]+(?:ание|ение|яние|тие)")
#: Verbs that only carry an action named by their object («выполняет бронирование», «осуществляет возврат»).
LIGHT_VERBS = {"выполнять", "осуществлять", "производить", "проводить", "совершать", "выполнить", "осуществить",
               "произвести", "провести", "совершить"}


def _known_infinitive(word: str, aspect: str | None = None) -> Any:
    """The transitive infinitive parse of ``word`` when the dictionary has it, else None."""
    analyzer = morph._analyzer()
    if analyzer is None or not analyzer.word_is_known(word):
        return None
    for p in analyzer.parse(word):
        if p.tag.POS == "INFN" and p.word == word and "tran" in p.tag and (aspect is None or aspect in p.tag):
            return p
    return None


def infinitive_to_do(verb: str) -> str | None:
    """The active infinitive of a passive reflexive finite verb: «отменяется» -> «отменить», «подаётся» ->
    «подать», «рассматривается» -> «рассматривать»; None for a verb that is not a passive of a transitive verb."""
    analyzer = morph._analyzer()
    clean = verb.strip(",.;:").lower()
    if analyzer is None or not re.fullmatch(r"[а-яё]+(?:ся|сь)", clean):
        return None
    parse = next((p for p in analyzer.parse(clean) if p.tag.POS == "VERB"), None)
    if parse is None or not parse.normal_form.endswith("ся"):
        return None
    active = str(parse.normal_form[:-2])
    known = _known_infinitive(active)
    if known is None:
        return None
    if "perf" in known.tag:
        return active
    for old, new in _PERFECTIVE_SUFFIXES:
        if active.endswith(old) and _known_infinitive(active[:-len(old)] + new, "perf") is not None:
            return active[:-len(old)] + new
    return active


def verb_of_action_noun(noun: str, like: str) -> str | None:
    """The verb a verbal noun names, in the person, number and tense of the finite verb ``like``:
    («бронирование», «выполняет») -> «бронирует»; None when no transitive verb is found."""
    analyzer = morph._analyzer()
    clean = noun.lower()
    if analyzer is None or not _NOUN.fullmatch(clean):
        return None
    model = next((p for p in analyzer.parse(like.strip(",.;:").lower()) if p.tag.POS == "VERB"), None)
    if model is None:
        return None
    for old, new in _NOUN_SUFFIXES:
        if not clean.endswith(old):
            continue
        found = _known_infinitive(clean[:-len(old)] + new, "impf") or _known_infinitive(clean[:-len(old)] + new)
        if found is None:
            continue
        tense = "futr" if "perf" in found.tag and model.tag.tense == "pres" else model.tag.tense
        grammemes = {g for g in (tense, model.tag.number, model.tag.person, model.tag.gender) if g}
        form = found.inflect(grammemes)
        if form is not None:
            return str(form.word)
    return None


def object_case(words: list[str]) -> list[str] | None:
    """The genitive noun group that opens ``words`` (a verbal noun's complement) in the accusative, the rest as
    written: ["приказа", "об", "отпуске"] -> ["приказ", "об", "отпуске"]; None when it opens with no genitive."""
    analyzer = morph._analyzer()
    if analyzer is None or not words:
        return None
    out = list(words)
    for i, raw in enumerate(words):
        clean = raw.strip(",.;:").lower()
        parse = next((p for p in analyzer.parse(clean) if p.tag.case == "gent"
                      and p.tag.POS in ("NOUN", "ADJF", "PRTF")), None) if re.fullmatch(r"[а-яё-]+", clean) else None
        if parse is None:
            if i == 0:
                return None
            break
        grammemes = {"accs", parse.tag.number}
        if parse.tag.POS != "NOUN" and parse.tag.number == "sing" and parse.tag.gender:
            grammemes.add(parse.tag.gender)
        if parse.tag.animacy:
            grammemes.add(parse.tag.animacy)
        form = parse.inflect(grammemes)
        if form is None:
            return None
        out[i] = raw.replace(raw.strip(",.;:"), form.word)
        if parse.tag.POS == "NOUN":  # what follows the noun is its own complement («стоимости обучения»)
            return out
    return None


def plain_action(verb: str, action: str) -> str | None:
    """A light verb with a verbal noun and its complement as the verb they stand for: («выполняет», «бронирование
    гостиницы») -> «бронирует гостиницу»; None for any other verb, a noun with no complement, or no derivable verb."""
    analyzer = morph._analyzer()
    if analyzer is None:
        return None
    parse = next((p for p in analyzer.parse(verb.strip(",.;:").lower()) if p.tag.POS == "VERB"), None)
    words = action.split(" ")
    if parse is None or parse.normal_form not in LIGHT_VERBS or len(words) < 2:
        return None
    plain = verb_of_action_noun(words[0], verb)
    obj = object_case(words[1:]) if plain else None
    if plain is None or obj is None:
        return None
    return " ".join([plain, *obj])


__all__ = ["LIGHT_VERBS", "infinitive_to_do", "object_case", "plain_action", "verb_of_action_noun"]
