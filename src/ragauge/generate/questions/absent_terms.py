"""Unanswerable questions of a second kind: the definition of a term the documents use but never define.

A corpus that defines some of its terms ("Командировка — это поездка работника …", "An incident is an
unplanned interruption …") is asked "Что такое <term>?" / "What is <term>?" about another term of its own
sentences that it never defines ("Что такое квартальная премия?", "What are service credits?"). The
question has the corpus's own words and the corpus's own kind of question, and no answer in it.

A term (:func:`term_of`) is the sentence subject's leading noun group: Russian, one or two adjectives and
their noun ("квартальная премия"; "материальная помощь" from "Материальная помощь при рождении ребёнка"),
or a substantivised adjective ("отпускные"); English, two or three words before any preposition ("service
credits", "planned maintenance", "a sick note"). A measure ("минимальная сумма", "срок") is not a term.

The question is kept only when it is absent three ways: no definition fact of the corpus is about the
term's lemmas; no sentence holds the term with "это" / "означает" / "is a" / "means"; and the rule
answerability of :mod:`ragauge.judges.offline.answerability` over the chunks that share most words with it
stays under :data:`ANSWERABLE` (see :func:`answered`; an English term is scored as "What does X mean?",
the wording the rule reads as a definition).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any, Sequence

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import morph
from ragauge.generate.questions.special import lemmas

#: answerability score from which a question counts as answered by the corpus (the guard's threshold)
ANSWERABLE = 0.5
_RU_DEFINES = re.compile(r"\s(?:—|–|-)\s*это\s|\sозначает\s|\sназывается\s|\sпонимается\s", re.I)
_EN_DEFINES = re.compile(r"\b(?:is|are)\s+(?:an?|the)\s|\bmeans\b|\brefers to\b", re.I)
#: an English modifier that makes a term ("planned maintenance", "critical incidents", "annual bonus");
#: without a part-of-speech tagger a two-noun compound ("audit logs") is not taken for a term
_EN_MODIFIER = re.compile(r"(?:ed|al|ic|ive|ous|ful|less|able|ible|ary|ory|ly)$|^(?:sick|remote|"
                          r"paid|unpaid|service)$", re.IGNORECASE)
_EN_STOP = {"the", "a", "an", "of", "for", "to", "in", "on", "at", "by", "with", "per", "each", "every", "all",
            "any", "our", "your", "this", "that", "is", "are", "must", "will", "may", "can"}


@lru_cache(maxsize=50000)
def _lemma_bag(text: str) -> frozenset[str]:
    return frozenset(lemmas(text))


def _top_chunks(question: str, chunks: Sequence[Chunk], k: int = 3) -> list[Chunk]:
    own = _lemma_bag(question)
    return sorted(chunks, key=lambda c: (-len(own & _lemma_bag(c.title + " " + c.text)), c.id))[:k]


def answered(question: str, chunks: Sequence[Chunk], lang: str, *, checked_as: str | None = None) -> float:
    """The judge's rule answerability (:func:`ragauge.judges.offline.answerability.answerability`) of
    ``question`` over the three chunks sharing most lemmas with it (title included, as a retriever would see
    them); 0.0 when its best sentence, read alone, lacks a word of the question's subject.

    The rule credits a subject word found anywhere in the chunk, so "Сколько стоит биохимический анализ
    крови?" scores 0.9 on a chunk where "Общий анализ крови стоит 450 рублей" and "биохимический" is in the
    next sentence; the sentence that gives the price must name the subject itself. ``checked_as`` is the
    wording scored in place of ``question`` (the rule reads "What does X mean?" as a definition, but a
    multi-word "What is X?" as any question)."""
    from ragauge.judges.offline.answerability import answerability

    asked = checked_as or question
    top = _top_chunks(question, chunks)
    found = answerability(asked, [f"{c.title}\n{c.text}" for c in top], lang)
    if found.score < ANSWERABLE:
        return found.score
    for part in found.parts:
        if part.score >= ANSWERABLE and part.unit and any(
                p.missing for p in answerability(asked, [part.unit], lang).parts):
            return 0.0
    return found.score


def _ru_term(subject: str) -> str | None:
    words = subject.split()
    analyzer = morph._analyzer()
    if analyzer is None or not words or not all(re.fullmatch(r"[А-Яа-яЁё-]+", w) for w in words[:3]):
        return None
    adjectives = 0
    for i, w in enumerate(words[:3]):
        p = morph._nominative_parse(w)
        if p is None:
            return None
        if p.tag.POS in ("ADJF", "PRTF") and i + 1 < len(words) and i < 2:
            adjectives += 1
            continue
        if p.tag.POS == "NOUN" and adjectives:
            end = i + 1
            if end < len(words) and re.fullmatch(r"[а-яё]+", words[end]) and _genitive_noun(words[end]):
                end += 1  # "вторая линия поддержки"
            if end < len(words) and re.fullmatch(r"[а-яё]+", words[end]) and (
                    _genitive_adjective(words[end]) or _genitive_noun(words[end])):
                return None  # "годовое обслуживание | кредитной карты": the term would be cut short
            term = " ".join(words[:end])
        elif p.tag.POS == "ADJF" and str(p.tag.number) == "plur" and i == 0 and len(words) == 1:
            term = w  # "Отпускные", "Суточные"
        else:
            return None
        if morph.head_lemma(term) in _measure_heads():
            return None
        return morph.lower_first(term)
    return None


def _genitive_noun(word: str) -> bool:
    p = morph._analyzer().parse(word)[0]
    return p.tag.POS == "NOUN" and str(p.tag.case) == "gent"


def _genitive_adjective(word: str) -> bool:
    return any(p.tag.POS in ("ADJF", "PRTF") and str(p.tag.case) == "gent"
               for p in morph._analyzer().parse(word.lower().strip(",.;:")))


def _measure_heads() -> set[str]:
    from ragauge.generate.questions.templates_ru import MEASURE_HEADS

    return (MEASURE_HEADS | {"час", "день", "минута", "неделя", "месяц", "год"}) - {"премия", "кешбэк", "кэшбэк", "депозит", "пособие", "вознаграждение"}


def _en_term(subject: str) -> str | None:
    words = subject.split()
    if words and words[0].lower() in ("a", "an"):
        article, words = words[0].lower() + " ", words[1:]
    else:
        article = ""
        if words and words[0].lower() == "the":
            return None  # "the daily allowance for trips abroad": a value, not a term
    run = []
    for w in words:
        if w.lower() in _EN_STOP or not re.fullmatch(r"[A-Za-z-]+", w):
            break
        run.append(w)
    if not 2 <= len(run) <= 3 or run[-1].lower() in ("time", "times", "amount", "level", "rate", "limit"):
        return None
    term = " ".join(run)
    if not _EN_MODIFIER.search(run[0]):
        return None  # "premium tickets", "audit logs": a noun compound, seldom a term (see _EN_MODIFIER)
    if not re.match(r"^[A-Z]{2,}", term):
        term = term[:1].lower() + term[1:]
    return article + term


def term_of(subject: str, lang: str) -> str | None:
    """The term a subject names, or None (see the module doc)."""
    return _ru_term(subject) if lang == "ru" else _en_term(subject)


#: Verbs that say what kind of thing their subject is: "Материальная помощь … выплачивается в размере 20 000
#: рублей" tells a reader asking «Что такое материальная помощь?» that it is a payment of 20 000 roubles.
_DESCRIBING = {"ru": ("выплачивается", "выплачиваются", "начисляется", "перечисляется", "предоставляется",
                      "выдаётся", "возмещается", "компенсируется"),
               "en": ("paid", "granted", "awarded", "reimbursed", "credited", "provided")}


def _self_explaining(term: str, lang: str) -> bool:
    """A Russian term whose modifier is a participle ("повышающий коэффициент", "отремонтированный автомобиль"),
    or a term whose modifier says how often it happens ("ежеквартальная встреча", "quarterly reviews")."""
    from ragauge.generate.questions.absent_stated import PERIODIC

    mods = term.lower().split()[:-1]
    if set(lemmas(" ".join(mods))) & {s for w in PERIODIC[lang] for s in lemmas(w)} if mods else False:
        return True
    if lang != "ru" or morph._analyzer() is None:
        return False
    return any(morph._analyzer().parse(w)[0].tag.POS == "PRTF" for w in term.split()[:-1])


def _described(term: str, lang: str, bags: Sequence[frozenset[str]]) -> bool:
    """Some sentence (``bags``: the lemmas of each) names the term with a verb that says what it is
    (:data:`_DESCRIBING`)."""
    own = set(lemmas(term))
    verbs = {s for w in _DESCRIBING.get(lang, ()) for s in lemmas(w)}
    return any(own <= bag and bag & verbs for bag in bags)


_BARE_BEFORE = {"the", "a", "an", "of", "for", "in", "on", "at", "to", "with", "by", "no", "any", "и", "или", "в", "на",
                "за", "по", "для", "о", "об", "с", "со", "от", "до", "при"}


def _composes(term: str, lang: str, bare: set[str]) -> bool:
    """True when the term's head is used alone somewhere (after a preposition, an article or at a sentence start,
    not after another modifier): the term is then that thing with a modifier, which explains itself. ``bare``:
    :func:`_bare_words` of the corpus in the term's language."""
    words = term.split()
    if len(words) < 2:
        return False
    head = words[-1].lower()
    return (_normal_form(head) if lang == "ru" and morph._analyzer() is not None else head.rstrip("s")) in bare


def _bare_words(chunks: Sequence[Chunk], lang: str) -> set[str]:
    """The words used alone (at a sentence start or after a preposition or an article), as :func:`_composes`
    compares them: Russian normal forms, else the word without a final "s"; one pass over the corpus."""
    normal = lang == "ru" and morph._analyzer() is not None
    out: set[str] = set()
    for c in chunks:
        for sent in _sentences(c.text):
            tokens = re.findall(r"[\w-]+", sent.lower())
            for k, w in enumerate(tokens):
                if k == 0 or tokens[k - 1] in _BARE_BEFORE:
                    out.add(_normal_form(w) if normal else w.rstrip("s"))
    return out


@lru_cache(maxsize=50_000)
def _normal_form(word: str) -> str:
    return morph._analyzer().parse(word)[0].normal_form


def _sentences(text: str) -> list[str]:
    """Sentences of each line of ``text`` (the one splitter: :mod:`ragauge.text.sentences`)."""
    from ragauge.text.sentences import split_sentences

    return [s.text for line in text.split("\n") if line.strip() for s in split_sentences(line)]


def question_for(term: str, lang: str) -> str:
    if lang == "ru":
        return f"Что такое {term}?"
    plural = term.endswith("s") and not term.endswith("ss") and not term.startswith(("a ", "an "))
    return f"What {'are' if plural else 'is'} {term}?"


def undefined_terms(subjects: Sequence[tuple[str, str]], definitions: Sequence[tuple[str, str]],
                    chunks: Sequence[Chunk], dropped: Counter[str], *, limit: int,
                    values: Sequence[str] = ()) -> list[tuple[str, str, dict[str, Any]]]:
    """Up to ``limit`` (question, lang, extra): "Что такое <term>?" for terms of ``subjects`` ((subject, lang)
    pairs, in corpus order) that no definition covers and that is not the subject of a stated value (``values``:
    "What is X?" would ask for it), in the languages in which the corpus defines a term
    (``definitions``: (defined subject, lang))."""
    defined = {lang: [set(lemmas(s)) for s, l2 in definitions if l2 == lang] for _, lang in definitions}
    if not defined:
        return []
    sentences = [s for c in chunks for s in _sentences(c.text) if s.strip()]
    bags = [_lemma_bag(s) for s in sentences]
    bare: dict[str, set[str]] = {}  # per language, made on first use

    def composes(term: str, lang: str) -> bool:
        if lang not in bare:
            bare[lang] = _bare_words(chunks, lang)
        return _composes(term, lang, bare[lang])

    terms: list[tuple[str, str]] = []
    seen: set[str] = set()
    for subject, lang in subjects:
        term = term_of(subject, lang) if lang in defined else None
        if term is not None and (set(lemmas(term)) == set(lemmas(subject)) or _self_explaining(term, lang)
                                 or composes(term, lang) or _described(term, lang, bags)):
            # the whole subject of a sentence stating its terms ("Early check-in is available from 9:00 am for a
            # fee of $40"), "отремонтированный автомобиль" (a participle and its noun) and "early check-in" beside
            # "Check-in starts at 3:00 pm" (a modifier on a head used alone): the documents say what they are
            dropped["unanswerable_term_described_in_corpus"] += 1
            continue
        if term is not None and term.casefold() not in seen:
            seen.add(term.casefold())
            terms.append((term, lang))
    # the terms the documents discuss most first: the question is then about something they talk about
    # "What is service availability?" beside "Service availability is at least 99.9%": asks its value
    valued = [set(lemmas(v)) for v in values]
    terms = [t for t in terms if set(lemmas(t[0])) not in valued]
    uses = {t: sum(1 for b in bags if set(lemmas(t[0])) <= b) for t in terms}
    terms.sort(key=lambda t: -uses[t])
    # "deleted data": a participle makes a term only when the documents use it more than once ("planned
    # maintenance"); English has no part-of-speech tagger here
    terms = [t for t in terms if t[1] == "ru" or not t[0].split()[-2].endswith("ed") or uses[t] >= 2]
    out: list[tuple[str, str, dict[str, Any]]] = []
    for term, lang in terms:
        if len(out) >= limit:
            break
        own = set(lemmas(term))
        pattern = _RU_DEFINES if lang == "ru" else _EN_DEFINES
        if not own or any(d and (d <= own or own <= d) for d in defined[lang]) or any(
                own <= b and pattern.search(s) for s, b in zip(sentences, bags)):
            dropped["unanswerable_defined_in_corpus"] += 1
            continue
        question = question_for(term, lang)
        score = answered(question, chunks, lang, checked_as=None if lang == "ru" else f"What does {term} mean?")
        if score >= ANSWERABLE:
            dropped["unanswerable_answerable_by_judge"] += 1
            continue
        out.append((question, lang, {"absent_term": term, "absent_check": "lemmas+answerability",
                                     "answerability": round(score, 3)}))
    return out


__all__ = ["ANSWERABLE", "answered", "question_for", "term_of", "undefined_terms"]
