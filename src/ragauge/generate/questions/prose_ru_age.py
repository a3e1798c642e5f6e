"""Russian ages that qualify a person, asked «С какого возраста …?» / «До какого возраста …?».

«Студентам старше 25 лет общежитие предоставляется только по решению ректора» was asked «Студентам какого
возраста общежитие предоставляется …?», and «слушатели, достигшие возраста 18 лет на дату подачи заявления»
«… слушатели, достигшие какого возраста на дату подачи заявления?»: the sentence's word order with a question
phrase inside. A person asks for the bound: «С какого возраста студентам общежитие предоставляется только по
решению ректора?», «С какого возраста на программу принимаются слушатели?». The age phrase leaves its place
(a participle clause that holds it leaves whole, up to its closing comma), and the bound opens the question:
a lower one for «старше», «не моложе», «от», «с», «достигший возраста»; an upper one for «младше», «моложе»,
«до», «не старше»; the other one, without «не», when the verb is negated («Мы не выдаём автомобили водителям младше
21 года» -> «С какого возраста вы выдаёте автомобили водителям?», in the reader's voice of :mod:`.prose_ru_voice`).
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

#: The bound other operators of an age state («от 18 лет», «до 14 лет»).
_BOUND = {"от": "С", "с": "С", "со": "С", "до": "До"}


def _is_participle(word: str) -> bool:
    analyzer = morph._analyzer()
    clean = word.strip(",.;:").lower()
    return analyzer is not None and re.fullmatch(r"[а-яё]+", clean) is not None and any(
        p.tag.POS == "PRTF" for p in analyzer.parse(clean)[:1])


def _subject_or_addressee(word: str) -> bool:
    """The noun the age qualifies is a subject or an addressee (nominative or dative), not an object."""
    analyzer = morph._analyzer()
    clean = word.strip(",.;:").lower()
    if analyzer is None or not re.fullmatch(r"[а-яё]+", clean):
        return False
    top = analyzer.parse(clean)[0]
    return top.tag.POS == "NOUN" and top.tag.case in ("nomn", "datv")


def _bound(words: list[str], start: int, op: str) -> str | None:
    """"С" or "До" for the age phrase at ``words[start:]`` with operator ``op``; None when it states no bound."""
    negated = words[start].lower() == "не"
    if op == "старше":
        return "До" if negated else "С"
    if op in ("младше", "моложе"):
        return "С" if negated else "До"
    if op in _BOUND:
        return _BOUND[op]
    if not op and start > 0 and _is_participle(words[start - 1]):
        return "С"  # «достигшие возраста 18 лет»
    return None


def age_question(words: list[str], start: int, end: int, op: str) -> str | None:
    """«С какого возраста …?» for the age phrase ``words[start:end]`` (its operator ``op``, «возраста» and «не»
    included) that qualifies the noun before it; None when it states no bound or the rest is no clause."""
    bound = _bound(words, start, op)
    if bound is None:
        return None
    first, last = start, end
    if start > 0 and _is_participle(words[start - 1]) and start > 1 and words[start - 2].endswith(","):
        first = start - 1  # the participle clause leaves whole: «, достигшие возраста 18 лет на дату …»
        last = next((k + 1 for k in range(end - 1, len(words)) if words[k].endswith(",")), len(words))
    if first == 0 or not _subject_or_addressee(words[first - 1]):
        return _refused(words, first, last, bound)
    rest = words[:first] + words[last:]
    if first > 0:
        rest[first - 1] = rest[first - 1].rstrip(",")
        if words[last - 1].endswith(",") and last < len(words):  # «рабочие, прошедшие обучение …»: the clause
            rest[first - 1] += ","
    negated = next((k for k in range(len(rest) - 1) if rest[k].lower() == "не" and _is_verb(rest[k + 1])), None)
    if negated is not None:  # «Мы не выдаём автомобили водителям младше 21 года»: those it is done for
        rest, bound = rest[:negated] + rest[negated + 1:], {"С": "До", "До": "С"}[bound]
    if len(rest) < 2:
        return None
    lead = rest[0] if morph.is_proper(rest[0]) or morph.is_abbreviation(rest[0]) else morph.lower_first(rest[0])
    return f"{bound} какого возраста " + " ".join([lead, *rest[1:]]).rstrip(",") + "?"


#: Nouns that name anyone at all: «лиц старше 85 лет не страхуем» is asked without them.
_ANYONE = {"лицо", "человек", "гражданин"}


def _refused(words: list[str], first: int, last: int, bound: str) -> str | None:
    """«До какого возраста вы страхуете?» for «Вы не страхуете лиц старше 85 лет»: an age of the object of a
    negated verb («не страхуете», «не принимаем») is asked as the bound of those it is done for, the other bound
    and without «не»; a noun that names anyone («лиц», «граждан») is left out, any other stays («С какого
    возраста вы принимаете детей?»). None when the noun before the age is no object of a negated verb."""
    analyzer = morph._analyzer()
    noun = words[first - 1].strip(",.;:").lower() if first > 0 else ""
    parse = next((p for p in analyzer.parse(noun) if p.tag.POS == "NOUN" and p.tag.case in ("accs", "gent")), None) \
        if re.fullmatch(r"[а-яё]+", noun) else None
    if parse is None:
        return None
    if first >= 3 and words[first - 3].lower() == "не" and _is_verb(words[first - 2]):
        negation, verb = first - 3, first - 2
    elif last + 1 < len(words) and words[last].lower() == "не" and _is_verb(words[last + 1]):
        negation, verb = last, last + 1
    else:
        return None
    keep = [k for k in range(len(words)) if k != negation and not first <= k < last and k != first - 1]
    if parse.normal_form not in _ANYONE:  # the object right after its verb: «… вы принимаете детей»
        at = keep.index(verb) + 1
        keep = keep[:at] + [first - 1] + keep[at:]
    rest = [(morph.lower_first(words[k]) if k == 0 else words[k]).rstrip(".") for k in keep]
    if not rest:
        return None
    lead = rest[0] if morph.is_proper(rest[0]) or morph.is_abbreviation(rest[0]) else morph.lower_first(rest[0])
    other = {"С": "До", "До": "С"}[bound]
    return f"{other} какого возраста " + " ".join([lead, *rest[1:]]).rstrip(",") + "?"


def _is_verb(word: str) -> bool:
    analyzer = morph._analyzer()
    clean = word.strip(",.;:").lower()
    return bool(re.fullmatch(r"[а-яё]+", clean)) and analyzer.parse(clean)[0].tag.POS == "VERB"


__all__ = ["age_question"]
