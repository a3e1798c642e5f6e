"""Russian lead times: a time counted back from an event, asked «За сколько <единиц> до <события> …?».

* «Подготовка начинается за 3 дня до исследования» -> «За сколько дней до исследования начинается подготовка …?»
  (:func:`counted_back`, as before);
* a lead time that is a deadline, «не позднее (не менее) чем за N <единиц> [до X]», is asked the same way, not
  «В какой срок …?», which reads as "how fast" («В какой срок отменяется запись?» for «не позднее чем за 24 часа
  до визита»). «Календарных» is dropped from the unit (days are calendar days unless said otherwise); an event
  that refers back («до его начала») is left out: «За сколько дней …» alone already means "in advance";
* such a deadline on a passive verb is an action someone must take in time, asked «нужно» + the active
  infinitive with the subject as its object (:func:`lead_clause`): «Запись на приём отменяется не позднее чем за
  24 часа до визита» -> «За сколько часов до визита нужно отменить запись на приём?»; a bare dative (to whom)
  goes before the object: «… нужно направить получателю уведомление о доставке по SMS?».
"""

from __future__ import annotations

import re
from typing import Any

from ragauge.generate.questions import morph
from ragauge.generate.questions.prose_ru_verbs import infinitive_to_do

#: Words that end the event of «до …» («до начала курса, если …», «до визита и …»).
_STOP = {"и", "или", "а", "но", "при", "если", "когда", "в", "во", "на", "за", "по", "с", "со", "для", "после", "до",
         "от", "через", "к", "о", "об", "у", "из", "не", "чем", "более", "менее", "свыше"}
_REFERS_BACK = {"он", "она", "оно", "они", "его", "её", "ее", "их", "этот", "эта", "это", "эти", "этого", "такой",
                "который", "которая", "которые", "того", "той"}
_TIME_UNIT = re.compile(r"^(?:дн|день|дня|час|минут|недел|месяц|лет|год|сут)", re.I)
#: Prepositions after a dative that start an adverbial of its own, not a modifier of the dative («по SMS»).
_ADVERBIAL = {"по", "через", "на", "в", "во"}


def _parse(word: str) -> Any:
    analyzer = morph._analyzer()
    return analyzer.parse(word.lower())[0] if analyzer is not None else None


def genitive_plural(words: list[str]) -> str | None:
    """«календарных дня» -> «календарных дней», «лет» -> «лет»: a time unit after «сколько»."""
    out = []
    for w in words:
        p = _parse(w) if re.fullmatch(r"[а-яё]+", w.lower()) else None
        if p is None:
            return None
        if p.normal_form == "год":
            out.append("лет")
            continue
        form = p.inflect({"gent", "plur"})
        if form is None:
            return None
        out.append(form.word)
    return " ".join(out)


def counted_back(words: list[str], op: str, q_at: int, last_num: int) -> tuple[str, bool] | None:
    """(«За сколько дней до исследования», is a deadline) for «за 3 дня до исследования …» (False) and «не позднее
    чем за 3 дня [до X]» (True); None when the quantity is no «за N <unit>» of either kind, when the unit is not
    a time, and for a plain «за N дней до X» whose X refers back («до его начала»: it would not say to what)."""
    if op != "deadline" or q_at < 1 or words[q_at - 1].lower() != "за":
        return None
    lead = q_at >= 2 and words[q_at - 2].lower().rstrip(",") == "чем"
    rest = words[last_num + 1:]
    until = next((k for k, w in enumerate(rest[:3]) if w.lower() == "до"), None)
    if until is not None and any(w.endswith((",", ";")) for w in rest[:until]):
        return None
    if until is None and lead:  # «не позднее чем за 14 календарных дней»: no event named
        until = next((k + 1 for k, w in enumerate(rest[:2]) if _TIME_UNIT.match(w.strip(",.;:"))), None)
        rest = rest[:until or 0]
    if not until:
        return None
    unit_words = [w.strip(",.;:") for w in rest[:until]]
    if not _TIME_UNIT.match(unit_words[-1]):
        return None
    if lead and len(unit_words) > 1 and _parse(unit_words[0]).normal_form == "календарный":
        unit_words = unit_words[1:]
    unit = genitive_plural(unit_words)
    event: list[str] = []
    for w in rest[until + 1:until + 5]:
        clean = w.strip(",.;:«»\"()")
        if not clean or clean.lower() in _STOP or re.search(r"\d", clean):
            break
        event.append(clean)
        if clean != w.rstrip(".") or w.endswith(","):
            break
    if unit is None or (not event or any(w.lower() in _REFERS_BACK for w in event)) and not lead:
        return None
    if any(w.lower() in _REFERS_BACK for w in event):
        event = []
    return f"За сколько {unit}" + (f" до {' '.join(event)}" if event else ""), lead


def _dative_first(words: list[str]) -> tuple[list[str], list[str]]:
    """(the bare dative noun group of ``words``, the other words) when that group is followed by nothing or by an
    adverbial of its own («получателю | по SMS»); ([], words) when there is none or when the words after it may
    be its modifiers («работникам с ненормированным днём»)."""
    analyzer = morph._analyzer()
    for i, w in enumerate(words):
        low = w.lower()
        parses = [a for a in analyzer.parse(low) if a.score >= 0.05] if re.fullmatch(r"[а-яё]+", low) else []
        if not parses or not all(a.tag.POS == "NOUN" and a.tag.case == "datv" for a in parses):
            continue
        start = i
        while start > 0 and any(a.tag.POS in ("ADJF", "PRTF") and a.tag.case == "datv"
                                for a in analyzer.parse(words[start - 1].lower())):
            start -= 1
        before = _parse(words[start - 1]) if start > 0 else None
        after = words[i + 1].lower() if i + 1 < len(words) else ""
        if before is not None and before.tag.POS == "PREP" or after and after not in _ADVERBIAL:
            return [], words
        return words[start:i + 1], words[:start] + words[i + 1:]
    return [], words


def _accusative(subject: str) -> str | None:
    """The subject as a direct object: «заявка на обучение» -> «заявку на обучение»; a substantivised adjective
    whose accusative is its nominative («отпускные») stays."""
    phrase = morph.lower_first(subject)
    found = morph.inflect(phrase, "accs")
    if found is not None:
        return found
    first = phrase.split(" ")[0].lower()
    analyzer = morph._analyzer()
    if re.fullmatch(r"[а-яё]+", first) and any(a.tag.case == "accs" and "inan" in a.tag and a.word == first
                                               for a in analyzer.parse(first)):
        return phrase
    return None


def lead_clause(verb: str, subject: str, middle: list[str], prefix: list[str]) -> str | None:
    """«нужно отменить запись на приём» for a passive verb with a lead-time deadline (see the module docstring);
    None when the verb is not the passive of a transitive verb or the subject has no accusative."""
    infinitive = infinitive_to_do(verb)
    obj = _accusative(subject) if infinitive else None
    if infinitive is None or obj is None:
        return None
    dative, rest = _dative_first(middle)
    words = ["нужно", infinitive, *dative, obj, *rest]
    if prefix:
        words.append(morph.lower_first(" ".join(prefix)))
    return " ".join(words)


__all__ = ["counted_back", "genitive_plural", "lead_clause"]
