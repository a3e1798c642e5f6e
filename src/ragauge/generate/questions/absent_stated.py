"""Stricter absence for "other subject" unanswerable questions: the corpus answers more than the exact
subject with the exact verb and the exact kind of quantity.

A frame question moved to another subject (:mod:`.absent`) is dropped when (review, fifth round):

* **a general rule covers it** (:func:`covered`): a sentence states a value of the asked kind's family (a
  deadline answers "how soon", "for how long" and "at what time" alike) about a subject with the same head
  noun and no modifier the candidate lacks ("The line manager approves leave requests within 3 working days"
  answers "How soon must parental leave requests be approved?"), with the frame's verb or a verb of the same
  event ("held" / "performed");
* **a rule about the attribute itself covers it** (:func:`attribute_rule`, seventh round): a sentence names the
  attribute noun of the frame's kind (размер / сумма for an amount, срок for a deadline, "amount" / "deadline" …)
  beside the subject's head noun and none of the modifiers other subjects of that head have: «Размер премии
  утверждает генеральный директор» answers «В каком размере выплачивается годовая премия?» (the answer is "the
  director decides"), though it states no figure;
* **its own modifier answers it** (:func:`answers_itself`): "How often are quarterly service reviews held?";
* **the two subjects may name one thing** (:func:`near_synonym`): they differ only in the head noun and keep
  the same modifiers («плановые изменения» / «плановые работы»);
* **the attribute does not suit it** (:func:`attribute_fits`): no subject of the same kind (the same head
  noun) has the frame's kind of value with the frame's verb ("By what date is sick pay paid?" from "The annual
  bonus is paid by 31 March").

A frame whose value is counted from an event of its own subject (:func:`anchored`) is not moved at all.
Verbs that report the handling of a request ("answered", "completed", "processed", "resolved") are one event:
a user asking how soon a request is completed is told how soon it is answered.

Dropping a candidate costs one unanswerable question; asking an answered one scores a correct RAG as wrong.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Sequence

from ragauge.generate.questions import morph
from ragauge.generate.questions.absent_terms import _lemma_bag
from ragauge.generate.questions.prose import ProseQuestion
from ragauge.generate.questions.special import lemmas

#: Kinds of value a reader takes as answers to one another's questions.
FAMILIES = ({"deadline", "duration", "frequency", "time", "date"}, {"amount", "percent", "limit"})

#: Verbs that report one event in policy prose (word forms as written; compared by lemma).
VERB_GROUPS = {
    "en": (("held", "hold", "performed", "perform", "conducted", "conduct", "run", "carried", "done"),
           ("completed", "complete", "processed", "process", "handled", "handle", "fulfilled", "executed",
            "answered", "answer", "responded", "respond", "resolved", "resolve", "reviewed", "review",
            "considered", "consider"),
           ("paid", "pay", "disbursed", "transferred"),
           ("issued", "issue", "provided", "provide", "granted", "grant", "given", "give"),
           ("approved", "approve", "agreed", "confirmed", "accepted")),
    "ru": (("проводится", "осуществляется", "выполняется", "производится", "исполняется"),
           ("выплачивается", "перечисляется", "начисляется"),
           ("выдаётся", "предоставляется", "оформляется"),
           ("согласуется", "утверждается", "одобряется"),
           ("рассматривается", "обрабатывается", "исполняется", "выполняется")),
}

#: Modifiers that state how often their noun happens: they answer "how often" themselves.
PERIODIC = {"en": {"daily", "weekly", "biweekly", "monthly", "quarterly", "annual", "yearly", "hourly", "semiannual"},
            "ru": {"ежедневный", "еженедельный", "ежемесячный", "ежеквартальный", "ежегодный", "ежечасный",
                   "квартальный", "годовой", "месячный", "недельный", "суточный"}}

_EN_STOP = {"the", "a", "an", "of", "for", "to", "in", "on", "at", "by", "with", "per", "each", "every", "all", "any",
            "our", "your", "this", "that", "is", "are", "must", "will", "may", "can", "be", "and", "or", "not"}


def family(kind: str) -> set[str]:
    return next((f for f in FAMILIES if kind in f), {kind})


@lru_cache(maxsize=4096)
def verb_alternatives(verb: str, lang: str) -> frozenset[str]:
    """The verb's lemma and those of the verbs that report the same event; empty for no verb."""
    own = set(lemmas(verb))
    if not own:
        return frozenset()
    out = set(own)
    for group in VERB_GROUPS.get(lang, ()):
        stems = {s for w in group for s in lemmas(w)}
        if own & stems:
            out |= stems
    return frozenset(out)


@lru_cache(maxsize=50_000)
def head_and_modifiers(subject: str, lang: str) -> tuple[str, frozenset[str]] | None:
    """(head lemma, the other content lemmas) of a noun phrase; None when it has no head (parsed once per
    subject: the checks below ask it of every item for every candidate)."""
    own = set(lemmas(subject))
    if lang == "ru":
        head = morph.head_lemma(morph.lower_first(subject))
        head_l = next(iter(lemmas(head)), None) if head else None
    else:
        words = [w for w in re.findall(r"[A-Za-z-]+", subject.lower()) if w not in ("the", "a", "an")]
        of = words.index("of") if "of" in words else len(words)
        head_l = next(iter(lemmas(words[of - 1])), None) if of else None
    if head_l is None or head_l not in own:
        return None
    return head_l, frozenset(own - {head_l})


def _en_named(sentence: str, head: str, verbs: set[str]) -> list[set[str]]:
    """The modifiers of each English noun phrase of ``sentence`` whose head is ``head`` (the content words
    right before it, up to a stop word, a number or a verb of ``verbs``)."""
    words = re.findall(r"[A-Za-z-]+|\d+|[^\sA-Za-z\d]", sentence.lower())
    out = []
    for i, w in enumerate(words):
        if set(lemmas(w)) != {head}:
            continue
        mods: set[str] = set()
        for prev in reversed(words[:i]):
            own = set(lemmas(prev))
            if prev in _EN_STOP or not re.fullmatch(r"[a-z-]+", prev) or own & verbs:
                break
            mods |= own
        out.append(mods)
    return out


def covered(subject: str, verb: str, kind: str, items: Sequence[ProseQuestion], lang: str) -> bool:
    """True when a sentence of ``items`` states a value of ``kind``'s family about ``subject`` or about a
    subject that generalises it (the same head, fewer modifiers) or contains it, with ``verb`` or a verb of the
    same event when one is given."""
    hm = head_and_modifiers(subject, lang)
    own = set(lemmas(subject))
    verbs = verb_alternatives(verb, lang)
    kinds = family(kind)
    for q in items:
        if q.kind not in kinds or q.lang != lang:
            continue
        bag = _lemma_bag(q.reference)
        if verbs and not verbs & bag:
            continue
        if own <= bag:
            return True
        if hm is None:
            continue
        head, mods = hm
        if lang == "ru":
            other = head_and_modifiers(q.subject, lang) if q.subject else None
            if other is not None and other[0] == head and other[1] <= mods:
                return True
        elif head in bag and any(m <= mods for m in _en_named(q.reference, head, verbs)):
            return True
    return False


#: The nouns that name each kind of value in a sentence that states a rule about it, not a figure.
ATTRIBUTE_NOUNS = {
    "ru": {"amount": ("размер", "сумма", "стоимость"), "percent": ("размер", "процент", "ставка"),
           "limit": ("размер", "лимит", "предел", "сумма"), "deadline": ("срок", "сроки"),
           "duration": ("срок", "продолжительность", "длительность"), "frequency": ("периодичность", "частота"),
           "time": ("время", "график", "часы"), "date": ("дата", "срок"), "count": ("количество", "число")},
    "en": {"amount": ("amount", "size", "sum"), "percent": ("rate", "percentage", "amount"),
           "limit": ("limit", "amount", "maximum", "cap"), "deadline": ("deadline", "timing", "timeline"),
           "duration": ("duration", "length", "term", "period"), "frequency": ("frequency", "schedule"),
           "time": ("hours", "schedule", "time"), "date": ("date", "deadline"), "count": ("number",)},
}

_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")


def attribute_rule(subject: str, kind: str, texts: Sequence[str], items: Sequence[ProseQuestion],
                   lang: str) -> str | None:
    """The sentence of ``texts`` that states a rule about the asked attribute of ``subject``'s general head
    noun: it names an attribute noun of ``kind`` and the head, and no modifier that another subject with the same
    head has and ``subject`` lacks («Размер квартальной премии …» is about another premium); None when none."""
    hm = head_and_modifiers(subject, lang)
    nouns = {s for w in ATTRIBUTE_NOUNS[lang].get(kind, ()) for s in lemmas(w)}
    if hm is None or not nouns:
        return None
    head, mods = hm
    foreign: set[str] = set()
    for q in items:
        other = head_and_modifiers(q.subject, lang) if q.subject and q.lang == lang else None
        if other is not None and other[0] == head:
            foreign |= other[1] - mods
    for text in texts:
        for sentence, bag in _sentence_bags(text):
            if head in bag and nouns & bag and not foreign & bag:
                return sentence.strip()
    return None


@lru_cache(maxsize=4096)
def _sentence_bags(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(sentence, its lemmas) for each sentence of ``text``, split and lemmatised once."""
    return tuple((s, frozenset(lemmas(s))) for s in _SENTENCES.split(text))


_EN_ANCHOR = re.compile(r"\d[\d,.]*\s*(?:(?:business|working|calendar|full)\s+)?(?:minutes?|hours?|days?|weeks?|"
                        r"months?|years?)\s+(?:of|after|before|from|following|prior\s+to)\s+(?!each\b|every\b)"
                        r"(?:the\s+|a\s+|an\s+|its\s+|their\s+|your\s+)?[a-z]", re.IGNORECASE)
_EN_BEFORE = re.compile(r"\b(?:before|after|prior\s+to)\s+(?:the\s+)?(?:start|end|beginning|date)\s+of\b", re.IGNORECASE)
_RU_ANCHOR = re.compile(r"\b(?:после|до|с\s+даты|с\s+момента|со\s+дня|от\s+даты|с\s+начала|по\s+окончании)\s+"
                        r"([а-яё]+)", re.IGNORECASE)


_RELATIVE_FRAME = re.compile(r"\b(?:in advance|before|prior to|ahead)\b|(?<![\w-])(?:до|заранее|за сколько)(?![\w-])",
                             re.IGNORECASE)


def anchored(reference: str, lang: str, frame: str = "") -> bool:
    """The value of ``reference`` is counted from an event of its own subject ("filed within 30 days of the
    incident", «не позднее 10 дней после подписания акта», «за 3 дня до начала отпуска»): the frame does not
    move to another subject, which has no such event ("How soon must data export requests be filed?"). A
    ``frame`` that keeps the relation itself ("How far in advance must {subj} be submitted?", «За сколько дней
    до … »: every request of that kind has a start it is submitted before) is not anchored."""
    if frame and _RELATIVE_FRAME.search(frame):
        return False
    if lang != "ru":
        return bool(_EN_ANCHOR.search(reference) or _EN_BEFORE.search(reference))
    analyzer = morph._analyzer()
    for m in _RU_ANCHOR.finditer(reference):
        word = m.group(1).lower()
        if analyzer is None:
            return True
        p = analyzer.parse(word)[0]
        if p.tag.POS == "NOUN" and not re.search(r"(?:час|сут|дн|недел|месяц|год|лет|минут)", word[:6]):
            return True
    return False


def answers_itself(subject: str, kind: str, lang: str) -> bool:
    """A "how often" question about a subject whose modifier says how often ("quarterly service reviews")."""
    return kind == "frequency" and bool(set(lemmas(subject)) & {s for w in PERIODIC[lang] for s in lemmas(w)})


def near_synonym(a: str, b: str, lang: str) -> bool:
    """Two subjects with the same modifiers (at least one) and different head nouns: «плановые изменения» and
    «плановые работы» may name one thing, so what is stated of the one may answer the other."""
    ha, hb = head_and_modifiers(a, lang), head_and_modifiers(b, lang)
    return ha is not None and hb is not None and ha[0] != hb[0] and bool(ha[1]) and ha[1] == hb[1]


def attribute_fits(kind: str, verb: str, subject: str, items: Sequence[ProseQuestion], lang: str) -> bool:
    """Some subject of the same kind as ``subject`` (the same head noun) has a value of ``kind`` stated with
    ``verb``: the attribute is one such things have."""
    hm = head_and_modifiers(subject, lang)
    if hm is None:
        return False
    verbs = verb_alternatives(verb, lang)
    for q in items:
        if q.kind != kind or q.lang != lang or not q.subject:
            continue
        other = head_and_modifiers(q.subject, lang)
        if other is not None and other[0] == hm[0] and (not verbs or verbs & _lemma_bag(q.reference)):
            return True
    return False


__all__ = ["ATTRIBUTE_NOUNS", "FAMILIES", "anchored", "attribute_rule", "PERIODIC", "VERB_GROUPS", "answers_itself", "attribute_fits", "covered", "family",
           "head_and_modifiers", "near_synonym", "verb_alternatives"]
