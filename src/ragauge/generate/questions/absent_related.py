"""Which other subject may fill a frame of :mod:`.absent`: the relatedness rules, and an index that finds the
related subjects of each frame from features parsed once per item.

The search asked every (frame, subject) pair and parsed both subjects again for each (80 chunks of one
document: 108 CPU s, quadratic in morphological parses). Now each item is parsed once (:class:`Features`)
and a frame looks only at the items that share its verb or its head noun (:class:`RelatedIndex`), in corpus
order, so the questions made are the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from ragauge.generate.questions import morph
from ragauge.generate.questions.prose import ProseQuestion
from ragauge.generate.questions.special import lemmas

#: Heads of subjects that are a dimension of something, not a thing, an action or a payment.
DIMENSIONS = {"ru": {"толщина", "вес", "масса", "длина", "ширина", "высота", "глубина", "диаметр", "площадь", "объём",
                     "скорость", "температура", "уровень", "количество", "число", "процент", "доля", "срок", "время",
                     "период", "продолжительность", "доступность", "норма", "порог", "минимум", "максимум", "предел",
                     "задержка", "шаг", "зазор", "отклонение", "прочность", "расход", "габарит"},
              "en": {"thickness", "weight", "length", "width", "height", "depth", "diameter", "size", "area", "volume",
                     "speed", "temperature", "level", "number", "percentage", "share", "duration", "period", "term",
                     "time", "availability", "threshold", "minimum", "maximum", "limit", "distance", "capacity"}}

#: English past participles not spelt "-ed": "a lost card", "stolen goods", "a broken seal".
_EN_IRREGULAR_PARTICIPLES = {"lost", "stolen", "broken", "torn", "worn", "frozen", "forgotten", "hidden", "sold",
                             "held", "kept", "left", "sent", "found", "spent", "taken", "given", "written", "done"}


def _subject_text(q: ProseQuestion) -> str:
    if q.lang == "ru":
        return morph.lower_first(q.subject)
    return q.subject if re.match(r"^(?:[A-Z]{2,}|[A-Z]\w*[A-Z])", q.subject) else q.subject[:1].lower() + q.subject[1:]


def _frame_verb(a: ProseQuestion) -> str:
    """The verb of a frame: the word before "{subj}" (Russian); in English the first word after "{subj}" that is
    not "be"/"been" ("How soon must {subj} be submitted" -> "submitted"; "At what hours is {subj} open every
    day" -> "open", never the last word "day")."""
    words = a.frame.rstrip("?").split()
    at = words.index("{subj}") if "{subj}" in words else -1
    if a.lang == "ru":
        return words[at - 1] if at > 0 else ""
    after = [w for w in words[at + 1:] if w.lower() not in ("be", "been", "not")] if at >= 0 else []
    return after[0] if after else ""


def _head(q: ProseQuestion) -> str | None:
    if q.lang == "ru":
        return morph.head_lemma(morph.lower_first(q.subject))
    words = [w for w in re.findall(r"[a-z]+", q.subject.lower()) if w not in ("the", "a", "an")]
    of = words.index("of") if "of" in words else len(words)
    return words[of - 1].rstrip("s") if of else None


def _is_measure(q: ProseQuestion, head: str | None) -> bool:
    """The subject is a dimension («толщина швов», "the maximum weight"), not a thing or an action that has one
    (``head``: :func:`_head` of ``q``)."""
    if q.lang == "ru":
        return head in DIMENSIONS["ru"]
    words = re.findall(r"[a-z]+", q.subject.lower())
    of = words.index("of") if "of" in words else len(words)
    return bool(of) and words[of - 1] in DIMENSIONS["en"]


@lru_cache(maxsize=50_000)
def _pos(word: str) -> str | None:
    """The part of speech of the most probable parse of ``word`` (one parse per word form)."""
    return morph._analyzer().parse(word)[0].tag.POS


@dataclass(frozen=True)
class Features:
    """What the relatedness rules read of one item, parsed once."""

    subject: str  #: the subject as it goes into a question
    subject_lemmas: frozenset[str]  #: lemmas of :attr:`subject`
    own_lemmas: frozenset[str]  #: lemmas of the subject as written
    head: str | None
    measure: bool
    bag: frozenset[str]  #: lemmas of the reference
    words: frozenset[str]  #: lower-case word tokens of the reference (the English verb index)
    verb: str  #: the frame's verb, "" without a frame
    verb_lemmas: frozenset[str]
    participle: bool  #: Russian: a word of the subject is a participle in its most probable parse


def features(q: ProseQuestion) -> Features:
    """The :class:`Features` of ``q`` (every morphological parse the rules need, once)."""
    head = _head(q)
    verb = _frame_verb(q)
    participle = False
    if q.lang == "ru" and morph._analyzer() is not None:
        participle = any(_pos(w.lower()) == "PRTF" for w in re.findall(r"[А-Яа-яЁё]+", q.subject))
    subject = _subject_text(q)
    return Features(subject, frozenset(lemmas(subject)), frozenset(lemmas(q.subject)), head, _is_measure(q, head),
                    frozenset(lemmas(q.reference)), frozenset(re.findall(r"\w+", q.reference.lower())), verb,
                    frozenset(lemmas(verb)), participle)


def _en_participle(word: str) -> bool:
    return word in _EN_IRREGULAR_PARTICIPLES or len(word) > 4 and word.endswith("ed") and not word.endswith("eed")


def _en_kinds(a: str, b: str) -> bool:
    """Two English subjects with the same head and different modifiers, none of them a quantity and none a
    participle: "a lost card" and "a replacement card", "lost bags" and "checked bags" are one thing at two steps
    of one procedure, not two kinds of it, and what is stated for the one ("must be reported") is about that step
    (a kind spelt with a participle, "checked bags" beside "cabin bags", is lost to this rule: a missing
    unanswerable question costs less than a nonsensical one)."""
    wa, wb = a.lower().split(), b.lower().split()
    preps = {"on", "in", "for", "with", "of", "at", "to", "from", "by", "under", "over", "and", "or"}
    if any(_en_participle(w) for w in wa[:-1] + wb[:-1]):
        return False
    return wa != wb and len(wa) > 1 and len(wb) > 1 and not re.search(r"\d", a + b) and not preps & set(wa + wb)


def _differ_by_adjectives(fa: Features, fb: Features) -> bool:
    """The two subjects differ only in adjectives ("общий" / "биохимический анализ крови"): two kinds of one
    thing. Subjects that differ in a noun ("вызов врача" / "вызов терапевта") may be a kind and its
    instance, where the one answers the other; subjects that differ in a participle the dictionary knows only
    as one («утерянная карта» / «новая карта») are one thing at two steps of a procedure («повышенная», also an
    adjective in the dictionary, stays a kind)."""
    if morph._analyzer() is None or fa.participle or fb.participle:
        return False
    diff = fa.own_lemmas ^ fb.own_lemmas
    return bool(diff) and all(_pos(w) in ("ADJF", "PRTF", "ADJS") for w in diff)


def related(a: ProseQuestion, b: ProseQuestion, fa: Features | None = None, fb: Features | None = None) -> bool:
    """``b``'s sentence uses the verb of ``a``'s frame (an attribute the documents discuss for it), or (Russian)
    its subject is an entity of the same kind (the same head noun: "общий анализ крови" for "биохимический
    анализ крови"). A measure and a thing are never related: «Через какое время допускается {subj}?» (from
    «Хождение по стяжке допускается через 48 часов») does not fit «толщина швов» («… 12 мм (допускается от 10 до
    15 мм)»), though both sentences use the verb. ``fa`` / ``fb``: the items' :func:`features`, when known."""
    fa = fa or features(a)
    fb = fb or features(b)
    if fa.measure != fb.measure:
        return False
    if a.lang == "ru":
        if fa.verb_lemmas and fa.verb_lemmas <= fb.bag:
            return True
    elif fa.verb and re.search(rf"\b(?:is|are|must be|may be|can be|will be) {re.escape(fa.verb)}\b",
                               b.reference, re.IGNORECASE):
        return True  # the same English verb form after the subject ("cover" the noun is not "covered")
    if a.lang != "ru":  # "unused leave may be carried over" does not make "paternity leave" one that may be;
        # but "single-trip policy" and "annual policy" are two kinds of one thing, each with its own terms
        return fa.head is not None and fa.head == fb.head and _en_kinds(a.subject, b.subject)
    return fa.head is not None and fa.head == fb.head and _differ_by_adjectives(fa, fb)


class RelatedIndex:
    """The items' :func:`features` and, for a frame, the positions of the items that may be related to it: those
    whose sentence holds the frame's verb or whose subject has its head noun (a superset of :func:`related`, in
    corpus order)."""

    def __init__(self, items: Sequence[ProseQuestion]) -> None:
        self.items = list(items)
        self.features = [features(q) for q in self.items]
        self._by_lemma: dict[str, list[int]] = {}
        self._by_word: dict[str, list[int]] = {}
        self._by_head: dict[str, list[int]] = {}
        for i, f in enumerate(self.features):
            for lemma in f.bag:
                self._by_lemma.setdefault(lemma, []).append(i)
            for word in f.words:
                self._by_word.setdefault(word, []).append(i)
            if f.head is not None:
                self._by_head.setdefault(f.head, []).append(i)

    def candidates(self, at: int) -> list[int]:
        """Positions (ascending) of every item that :func:`related` may accept for the frame at ``at``."""
        a, fa = self.items[at], self.features[at]
        found: set[int] = set(self._by_head.get(fa.head, ())) if fa.head is not None else set()
        if a.lang == "ru" and fa.verb_lemmas:
            found |= set.intersection(*(set(self._by_lemma.get(v, ())) for v in fa.verb_lemmas))
        elif a.lang != "ru" and fa.verb:
            verb = fa.verb.lower()
            found |= set(self._by_word.get(verb, ())) if re.fullmatch(r"[a-z0-9_]+", verb) else set(
                range(len(self.items)))
        return sorted(found)


__all__ = ["DIMENSIONS", "Features", "RelatedIndex", "features", "related"]
