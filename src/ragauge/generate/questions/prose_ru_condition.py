"""«Если …, …» sentences asked «В каком случае …?»: the condition is the answer, the main clause the question.

«Если клиент опаздывает более чем на 30 минут, запись может быть перенесена» -> «В каком случае запись может быть
перенесена?». The main clause starts after the last comma that is followed by a clause with a verb of its own, so
a condition that lists things («Если в поездке планируются горные лыжи, дайвинг или другой активный отдых, к
стоимости полиса добавляется 50%») is not cut inside the list. A main clause whose subject is a pronoun for the
condition's subject («Если полис куплен, когда …, он вступает в силу …») is asked of that noun: «В каком случае
полис вступает в силу через 5 дней после оплаты?»; any other pronoun there gives no question. An adjunct after a
comma at the end of the main clause («…, с оплатой фактически выполненных работ») is left to the answer.
"""

from __future__ import annotations

import re
from typing import Any

from ragauge.generate.questions import morph

_PRONOUNS = {"он": ("masc", "sing"), "она": ("femn", "sing"), "оно": ("neut", "sing"), "они": (None, "plur")}


def _parse(word: str) -> Any:
    analyzer = morph._analyzer()
    clean = word.strip(",.;:«»()").lower()
    return analyzer.parse(clean)[0] if analyzer is not None and re.fullmatch(r"[а-яё-]+", clean) else None


def _predicate(words: list[str]) -> bool:
    return any((p := _parse(w)) is not None and (p.tag.POS == "VERB" and p.tag.mood == "indc"
                                                 or p.tag.POS in ("ADJS", "PRTS", "PRED")) for w in words)


def _noun_of(condition: list[str], pronoun: str) -> str | None:
    """The condition's nominative noun (with its adjectives) that ``pronoun`` stands for, in its gender and number."""
    gender, number = _PRONOUNS[pronoun]
    for i, w in enumerate(condition):
        p = _parse(w)
        if p is None or p.tag.POS != "NOUN" or p.tag.case != "nomn" or p.tag.number != number \
                or gender and p.tag.gender != gender:
            continue
        start = i
        while start > 0 and (q := _parse(condition[start - 1])) is not None and q.tag.POS == "ADJF" \
                and q.tag.case == "nomn":
            start -= 1
        return " ".join(x.strip(",") for x in condition[start:i + 1]).lower()
    return None


def if_question(words: list[str]) -> str | None:
    """«В каком случае …?» for the words of a sentence that opens with «Если»; None for any other."""
    if not words or words[0].lower() != "если":
        return None
    split = None
    for k in range(len(words) - 2, 0, -1):
        if words[k].endswith(",") and _predicate(words[k + 1:]) and _predicate(words[1:k + 1]):
            split = k + 1
            break
    if split is None:
        return None
    main = list(words[split:])
    tail = next((k for k in range(len(main) - 1) if main[k].endswith(",") and not _predicate(main[k + 1:])), None)
    if tail is not None:  # «…, с оплатой фактически выполненных работ»: an adjunct after a comma is not asked
        main = main[:tail + 1]
    head = main[0].lower().strip(",")
    if head in _PRONOUNS:
        noun = _noun_of(words[1:split], head)
        if noun is None:
            return None
        main = [noun] + main[1:]
    if not morph.is_proper(main[0]) and not morph.is_abbreviation(main[0]):
        main = [morph.lower_first(main[0])] + main[1:]
    return "В каком случае " + " ".join(main).rstrip(",") + "?"


__all__ = ["if_question"]
