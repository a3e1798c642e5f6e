"""The last check of a generated question's form: signs that a template copied a sentence it did not understand.

Rules that build questions from sentences fail in a recognisable way on sentence forms they were not written for:
they leave a word the question needs at the end ("… при отказе в?", "… and?"), keep the document's own voice ("В
каком случае мы подаём заявление?", "we"), keep a pronoun whose antecedent was in the sentence before ("он вступает
в силу", "their"), an imperative meant for the reader ("сообщите"), a condition inside a condition question («В каком
случае когда …»), two prepositions in a row where a phrase was cut («в для»), or one noun twice where the template
and the sentence both brought it («В каком случае … о случае»). Each is independent of the domain and of the
template, so the check also holds on documents no rule was written for: a question with one of them is dropped
with the reason (``summary["dropped"]["question_form: …"]``) rather than put in a golden set a person would not
type. :func:`problem` names the first sign found, or None.
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

_WORD = re.compile(r"[A-Za-zА-Яа-яЁё]+(?:[-'][A-Za-zА-Яа-яЁё]+)*")
_RU_TAIL = frozenset("в во на с со к ко по о об обо от до из у за при для без над под перед через между и или а но "
                     "что чем не ни же ли либо".split())
_EN_TAIL = frozenset("and or but the a an nor".split())
_RU_FIRST_PERSON = re.compile(r"(?i)(?<![А-Яа-яЁё])(?:мы|нас|нам|нами|наш|наша|наше|наши|нашего|нашей|нашему|"
                              r"нашим|нашими|наших|нашу|нашем)(?![А-Яа-яЁё])")
_EN_FIRST_PERSON = re.compile(r"(?i)\b(?:we|us|our|ours)\b")
_RU_THIRD_PERSON = frozenset("он она оно они его её ее ему ей им ими их него неё нее нему ней ним них нём нем".split())
_EN_THIRD_PERSON = frozenset("they them their theirs".split())
#: English words long enough to be nouns that a question may repeat without copying a phrase twice.
_EN_COMMON = frozenset("what which when where does have with from that this than more most much many long "
                       "after before each every other there".split())
#: A condition question («В каком случае», «При каком условии») that carries a condition of its own.
_RU_CONDITION_Q = re.compile(r"(?i)^(?:в\s+как\w+\s+случа\w+|при\s+как\w+\s+услови\w+)\b")
_RU_CONDITION_WORD = frozenset("когда если пока хотя".split())
_RU_YOU = frozenset("вы вас вам вами ты тебя тебе тобой".split())
#: Templates that name two things by design ("Что дороже: X или Y?").
COMPARING_TEMPLATES = frozenset({"compare_prices", "price_difference", "difference", "total", "old_value",
                                 "old_edition"})


_TOKEN = re.compile(r"\d[\d\s.,]*|[A-Za-zА-Яа-яЁё]+(?:[-'][A-Za-zА-Яа-яЁё]+)*")
_QUOTED = re.compile(r"«[^»]*»|\"[^\"]*\"")


def _words(question: str) -> list[str]:
    return _WORD.findall(question)


def _tokens(question: str) -> list[str]:
    """Words and numbers in order: a number between two prepositions («от 65 до 74») breaks their pair."""
    return [t.strip() for t in _TOKEN.findall(question)]


def _tail_word(question: str) -> str:
    words = _words(question.rstrip().rstrip("?").rstrip())
    body = question.rstrip().rstrip("?").rstrip()
    if not words or not body or not body[-1].isalpha():  # "… (в %)?" or "… 2026?": ends with no word
        return ""
    return words[-1].lower()


def _ru_parse(word: str):
    analyzer = morph._analyzer()  # noqa: SLF001 - the one pymorphy3 instance of the generator
    return analyzer.parse(word)[0] if analyzer is not None else None


def _addresses_reader(word: str) -> bool:
    """«сообщите», «пришлите», «храните»: a verb form that speaks to the reader (imperative or second person)."""
    analyzer = morph._analyzer()  # noqa: SLF001
    if analyzer is None:
        return False
    parses = analyzer.parse(word)
    return parses[0].tag.POS == "VERB" and any(p.tag.POS == "VERB" and ("impr" in p.tag or "2per" in p.tag)
                                               for p in parses)


def _is_preposition(word: str) -> bool:
    parse = _ru_parse(word)
    return parse is not None and parse.tag.POS == "PREP"


def _ru_problem(question: str, words: list[str], template: str) -> str | None:
    low = [w.lower() for w in words]
    if _RU_FIRST_PERSON.search(question):
        return "document_voice"
    if any(w in _RU_THIRD_PERSON for w in low):
        return "pronoun_without_antecedent"
    head = _RU_CONDITION_Q.match(question)
    if head and any(w in _RU_CONDITION_WORD for w in _words(question[head.end():])[:3]):
        return "condition_inside_condition_question"
    if head and "," in question[head.end():]:
        return "clause_copied"
    if not _RU_YOU & set(low) and any(_addresses_reader(w) for w in low):
        return "imperative"
    tokens = [t.lower() for t in _tokens(question)]
    for a, b in zip(tokens, tokens[1:]):
        if a in _RU_TAIL and b in _RU_TAIL and _is_preposition(a) and _is_preposition(b):
            return "cut_phrase"
    if template not in COMPARING_TEMPLATES:
        seen: set[str] = set()
        previous = ""
        for w in _tokens(_QUOTED.sub(" ", question)):  # a name in «…» may repeat a common noun
            p = _ru_parse(w.lower()) if not w[0].isdigit() else None
            if p is not None and p.tag.POS == "NOUN" and len(w) >= 4:
                if p.normal_form in seen and not previous[:1].isdigit():  # «за сутки на срок 1–3 суток»
                    return "noun_twice"
                seen.add(p.normal_form)
            previous = w
    return None


def _en_problem(question: str, words: list[str], template: str) -> str | None:
    low = [w.lower() for w in words]
    if _EN_FIRST_PERSON.search(question):
        return "document_voice"
    if any(w in _EN_THIRD_PERSON for w in low):
        return "pronoun_without_antecedent"
    if template not in COMPARING_TEMPLATES:  # "before the class can class bookings": one noun twice, close
        for k, w in enumerate(words):
            later = words[k + 1:k + 5]
            if len(w) >= 4 and w.islower() and w not in _EN_COMMON and w in later \
                    and words[k + later.index(w)] not in ("per", "each", "every", "a"):  # "fees per course"
                return "noun_twice"
    return None


def problem(question: str, lang: str, template: str = "") -> str | None:
    """The first sign that ``question`` is not one a person would type, or None (see the module docstring)."""
    words = _words(question)
    if not words:
        return None
    tail = _tail_word(question)
    if tail and tail in (_RU_TAIL if lang == "ru" else _EN_TAIL):
        return "ends_with_function_word"
    if lang == "ru":
        return _ru_problem(question, words, template)
    if lang == "en":
        return _en_problem(question, words, template)
    return None


__all__ = ["COMPARING_TEMPLATES", "problem"]
