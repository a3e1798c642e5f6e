"""Unanswerable questions from the corpus's own vocabulary: an attribute the documents state for one subject,
asked about another subject of the same documents for which they do not state it.

"В какой срок выплачивается годовая премия?" is answered by the corpus; its frame "В какой срок выплачивается
{subj}" with the subject of another sentence with the same verb ("Квартальная премия выплачивается в размере
до 30% …", stated only as an amount) gives "В какой срок выплачивается квартальная премия?", which the
documents do not answer. The frame keeps its
own verb, so the new subject must agree with it in number; the new subject must be used with the same verb
elsewhere, or be an entity of the same kind (the same head noun) (:attr:`ProseQuestion.form`); only frames without
other words (no object, no prefix) are used, so the question reads as written by a person.

A candidate is kept only when it is absent twice over:

* **by lemmas** (:func:`stated_by_lemmas`): no sentence of the corpus holds every content lemma of the
  new subject together with a quantity of the frame's kind (a prose question of that kind about it);
* **by the judge** (:func:`stated_by_judge`): the offline verifier does not find the claim "SUBJECT VERB
  QUANTITY-OF-THE-FRAME" supported, with evidence about that subject, by the chunks that share most lemmas
  with the question;
* **by answerability** (:func:`.absent_terms.answered`): the judge's rule answerability of the question over
  those chunks stays under 0.5, or its best sentence lacks a word of the subject (it also runs without the
  verifier's models).

A price that a fact template asks ("Express delivery takes 1 working day and costs $25", so no prose question
carries its frame) gives the frame "How much does {subj} cost?" (:func:`price_frames`). Which other subjects may
fill a frame is :mod:`.absent_related` (each item parsed once; a frame reads only the items that share its verb or
head noun).

Price rows give a second kind (:func:`recombined_items`): an item of the same kind as the rows that no row
names ("облицовка фасада" where the list has "облицовка стен" and "штукатурка фасада").

Nothing comes from a fixed list: every content word of the question is in the corpus.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Callable, Sequence

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import absent_stated, morph
from ragauge.generate.questions.absent_related import (DIMENSIONS, RelatedIndex, _frame_verb,
                                                       _subject_text, related)
from ragauge.generate.questions.absent_terms import ANSWERABLE, _lemma_bag, answered, undefined_terms
from ragauge.generate.questions.prose import LENGTH_FRAME, ProseQuestion, length_question
from ragauge.generate.questions.special import lemmas

_related = related  # the rules' former name here (tests of round 4 import it)

NOT_FOUND = {"ru": "В документах нет ответа на этот вопрос.", "en": "The documents do not answer this question."}


def stated_by_lemmas(subject: str, kind: str, items: Sequence[ProseQuestion], verb: str = "") -> bool:
    """True when some sentence of the corpus gives a quantity of ``kind`` about ``subject`` (with ``verb`` when
    given: "Credit requests must be filed within 30 days" does not say how soon they are answered)."""
    own = set(lemmas(subject)) | set(lemmas(verb))
    return any(q.kind == kind and own <= _lemma_bag(q.reference) for q in items)


def _top_chunks(question: str, bags: Sequence[tuple[Chunk, set[str]]], k: int = 3) -> list[Chunk]:
    own = set(lemmas(question))
    scored = sorted(bags, key=lambda cb: (-len(own & cb[1]), cb[0].id))
    return [c for c, _ in scored[:k]]


def stated_by_judge(judge: Any, claim: str, lang: str, contexts: Sequence[str], subject: str) -> bool:
    """True when the offline verifier finds every claim of ``claim`` supported by ``contexts`` with evidence
    that names ``subject`` (all its content lemmas). The verifier alone labels "Годовая премия выплачивается в
    размере до 30%" supported by "Квартальная премия выплачивается в размере до 30%" (the number matches),
    so its evidence span must be about this subject to count as an answer."""
    claims = judge.claims([claim], [lang])[0]
    if not claims:
        return False
    verdicts = judge.verify([(claims, list(contexts), lang)])[0]
    own = set(lemmas(subject))
    return bool(verdicts) and all(v.label == "supported" and v.evidence is not None
                                  and own <= set(lemmas(v.evidence.text)) for v in verdicts)


def sibling_absent(judge: Any, question: str, claim: str, contexts: Sequence[str], strict: set[str],
                   visible: Sequence[Chunk], lang: str, dropped: Counter) -> float | None:
    """The last two checks of a sibling question (the corpus names ``theirs`` but never states this for it): the
    judge must not find ``claim`` (the model sentence about the sibling) supported by ``contexts``, and
    answerability over ``visible`` must stay below :data:`ANSWERABLE`. Returns the answerability score, or None
    when a check fails (counted in ``dropped``)."""
    if judge is not None:
        if stated_by_judge(judge, claim, lang, contexts, " ".join(sorted(strict))):
            dropped["unanswerable_supported_by_judge"] += 1
            return None
    else:
        dropped["unanswerable_unchecked_by_judge"] += 1
    score = answered(question, visible, lang)
    if score >= ANSWERABLE:
        dropped["unanswerable_answerable_by_judge"] += 1
        return None
    return score


def absent_candidates(items: Sequence[ProseQuestion], chunks: Sequence[Chunk], dropped: Counter, *,
                      judge: Any = None, limit: int = 12, others: Sequence[ProseQuestion] = ()
                      ) -> list[tuple[str, str, dict]]:
    """Up to ``limit`` (question, lang, extra) unanswerable questions, in a deterministic order.

    ``judge`` (an :class:`~ragauge.judges.offline.judge.OfflineJudge`, or None when unavailable) makes the
    second absence check; without it the lemma check alone decides and ``dropped`` counts
    ``unanswerable_unchecked_by_judge``. ``others``: subjects of other sentences (defined terms, "X составляет"
    subjects) that may fill a frame too, as :func:`term_subjects` makes them."""
    out: list[tuple[str, str, dict]] = []
    asked = {q.question.casefold() for q in items}
    seen: set[str] = set()
    pool = RelatedIndex([*items, *others])  # each item parsed once; a frame reads only its related items
    last = len(pool.items) - 1
    texts = [c.text for c in chunks]
    bags = [(c, set(lemmas(c.text))) for c in chunks] if any(q.frame for q in items) and judge is not None else []
    for at, a in enumerate(items):
        if not a.frame:
            continue
        if absent_stated.anchored(a.reference, a.lang, a.frame):
            dropped["unanswerable_frame_anchored_to_own_event"] += 1
            continue
        if len(out) >= limit:
            return out
        fa = pool.features[at]
        for k in pool.candidates(at):
            if len(out) >= limit:
                return out
            b, fb = pool.items[k], pool.features[k]
            if b is a or b.lang != a.lang or b.form != a.form or not b.form or not related(a, b, fa, fb):
                continue
            subject = fb.subject
            if fb.subject_lemmas == fa.subject_lemmas or "{" in subject:
                continue
            question = a.frame.replace("{subj}", subject)
            if a.frame.startswith(LENGTH_FRAME):  # asked as a person asks: «Какова продолжительность X?»
                question = length_question(subject, []) or question
            question = question[:1].upper() + question[1:]
            key = question.casefold()
            meaning = f"{a.kind}|{subject.casefold()}|{'|'.join(sorted(absent_stated.verb_alternatives(fa.verb, a.lang)))}"
            if key in seen or key in asked or meaning in seen:
                continue  # "How soon are X completed?" and "… answered?" ask one thing (one event's verbs)
            seen.update((key, meaning))
            if stated_by_lemmas(subject, a.kind, items, fa.verb if a.lang == "en" else ""):
                dropped["unanswerable_stated_in_corpus_by_lemmas"] += 1
                continue
            why = _stated_otherwise(a, subject, items, texts)
            if why:
                dropped[why] += 1
                continue
            if judge is not None:
                claim = _claim(a, subject)
                contexts = [c.text for c in _top_chunks(question, bags)]
                if stated_by_judge(judge, claim, a.lang, contexts, subject):
                    dropped["unanswerable_supported_by_judge"] += 1
                    continue
            else:
                dropped["unanswerable_unchecked_by_judge"] += 1
            score = answered(question, chunks, a.lang)
            if score >= ANSWERABLE:
                dropped["unanswerable_answerable_by_judge"] += 1
                continue
            out.append((question, a.lang, {"absent_subject": subject, "frame_from": a.question,
                                           "absent_check": _checks(judge), "answerability": round(score, 3)}))
            if len(out) >= limit and k < last:
                return out
    return out


def _stated_otherwise(a: ProseQuestion, subject: str, items: Sequence[ProseQuestion],
                      texts: Sequence[str] = ()) -> str:
    """The drop reason when the corpus answers "``a``'s frame about ``subject``" in a way the lemma check misses,
    or the frame's attribute does not suit ``subject`` (:mod:`.absent_stated`); "" when none applies. ``texts``:
    the chunks' texts, searched for a rule about the attribute itself («Размер премии утверждает …»)."""
    verb = _frame_verb(a)
    if absent_stated.answers_itself(subject, a.kind, a.lang):
        return "unanswerable_answered_by_own_modifier"
    if absent_stated.covered(subject, verb, a.kind, items, a.lang):
        return "unanswerable_stated_for_general_subject"
    if absent_stated.attribute_rule(subject, a.kind, texts, items, a.lang):
        return "unanswerable_attribute_rule_for_general_subject"
    if absent_stated.near_synonym(_subject_text(a), subject, a.lang):
        return "unanswerable_near_synonym_subject"
    if not absent_stated.attribute_fits(a.kind, verb, subject, items, a.lang):
        return "unanswerable_attribute_unfit_for_subject"
    return ""


def _claim(a: ProseQuestion, subject: str) -> str:
    """The frame's own sentence with the other subject in place of its subject."""
    own = a.subject
    ref = a.reference
    if own and own in ref:
        return ref.replace(own, subject[:1].upper() + subject[1:], 1)
    return ref


def _head_and_complement(item: str) -> tuple[str, str] | None:
    """("штукатурка", "фасада") from "Цементная штукатурка фасада по сетке": the head noun (nominative) and the
    genitive noun right after it, as written (lower-cased); None when the item is not of that shape."""
    analyzer = morph._analyzer()
    if analyzer is None:
        return None
    words = item.split()
    for i, w in enumerate(words[:3]):
        p = morph._nominative_parse(w) if re.fullmatch(r"[А-Яа-яЁё-]+", w) else None
        if p is None:
            return None
        if p.tag.POS == "NOUN":
            if i + 1 >= len(words) or not re.fullmatch(r"[а-яё]+", words[i + 1]):
                return None
            nxt = analyzer.parse(words[i + 1])
            if not (nxt[0].tag.POS == "NOUN" and str(nxt[0].tag.case) == "gent"):
                return None
            return w.lower(), words[i + 1]
    return None


def recombined_items(items: Sequence[str]) -> list[tuple[str, str]]:
    """New "head complement" pairs of the same kind as the items: two heads are of a kind when they share a
    complement ("облицовка стен", "штукатурка стен"), and each then takes the other's complements
    ("облицовка фасада" from "штукатурка фасада"). Returns (new item, the item it was modelled on)."""
    pairs = [(hc, it) for it in items if (hc := _head_and_complement(it)) is not None]
    comps: dict[str, dict[str, str]] = {}
    for (head, comp), it in pairs:
        comps.setdefault(head, {}).setdefault(comp, it)
    out = []
    heads = sorted(comps)
    for h1 in heads:
        for h2 in heads:
            if h1 == h2 or not set(comps[h1]) & set(comps[h2]):
                continue
            for comp in sorted(set(comps[h2]) - set(comps[h1])):
                out.append((f"{h1} {comp}", comps[h2][comp]))
    return out


def table_rows(items: Sequence[str], chunks: Sequence[Chunk], dropped: Counter, *, judge: Any = None,
               limit: int = 12) -> list[tuple[str, str, dict]]:
    """"Сколько стоит облицовка фасада?" when the price list has "облицовка стен" and "штукатурка фасада" but
    no row (or sentence) with both "облицовка" and "фасад"; checked by lemmas and by the judge."""
    out: list[tuple[str, str, dict]] = []
    texts = [set(lemmas(line)) for c in chunks for line in re.split(r"\n|(?<=[.!?])\s+", c.text) if line.strip()]
    bags = [(c, set(lemmas(c.text))) for c in chunks] if judge is not None else []
    for item, model in recombined_items(items):
        if len(out) >= limit:
            break
        own = set(lemmas(item))
        if not own or any(own <= t for t in texts):
            dropped["unanswerable_stated_in_corpus_by_lemmas"] += 1
            continue
        form = morph.gender_number(item)
        form = str(form) if form is not None else None
        if form is None:
            continue
        question = f"Сколько {'стоят' if form == 'plur' else 'стоит'} {item}?"
        if judge is not None:
            contexts = [c.text for c in _top_chunks(question, bags)]
            if stated_by_judge(judge, f"{item[:1].upper()}{item[1:]} стоит 1000 руб.", "ru", contexts, item):
                dropped["unanswerable_supported_by_judge"] += 1
                continue
        else:
            dropped["unanswerable_unchecked_by_judge"] += 1
        score = answered(question, chunks, "ru")
        if score >= ANSWERABLE:
            dropped["unanswerable_answerable_by_judge"] += 1
            continue
        out.append((question, "ru", {"absent_subject": item, "modelled_on": model,
                                     "absent_check": _checks(judge), "answerability": round(score, 3)}))
    return out


def term_subjects(terms: Sequence[tuple[str, str]], chunks: Sequence[Chunk]) -> list[ProseQuestion]:
    """Defined terms and value subjects as frame fillers ("Академическая стипендия — это …" fills "На какой срок
    назначается {subj}?" beside "Повышенная стипендия назначается на 6 месяцев"): a subject, its form, and as
    reference the sentence that names it (for the lemma check)."""
    out = []
    for term, lang in terms:
        text = re.sub(r"^(?:an?|the)\s+", "", term.strip(), flags=re.IGNORECASE) if lang == "en" else term.strip()
        if not text or re.search(r"\d", text):
            continue
        if lang == "ru":
            form = morph.gender_number(morph.lower_first(text))
            number = None if form is None else "plur" if str(form) == "plur" else "sing"
        else:
            number = "plur" if text.split()[-1].lower().endswith("s") and not text.endswith("ss") else "sing"
        chunk = next((c for c in chunks if text.lower() in c.text.lower()), None)
        if number is None or chunk is None:
            continue
        sentence = next((s for s in re.split(r"(?<=[.!?])\s+", chunk.text) if text.lower() in s.lower()), text)
        out.append(ProseQuestion(chunk, lang, "", sentence, text, "term", "", number))
    return out


#: "X costs $25", "X takes 1 working day and costs $25", «X стоит 900 рублей»: a price stated of the sentence's
#: subject (the subject's own verb, a sum of money right after it).
_PRICED = {"en": r"(?:\s+(?!and\b|or\b)[\w,'-]+)*?(?:\s+and)?\s+costs?\s+[$€£]\s?\d",
           "ru": r"\s+сто(?:ит|ят)\s+(?:от\s+|до\s+)?\d[\d \u00a0]*(?:[.,]\d+)?\s*(?:руб|₽|\$|€)"}
#: The price frame of each language, singular and plural ({subj} as :func:`_subject_text` writes it).
PRICE_FRAMES = {"en": {"sing": "How much does {subj} cost?", "plur": "How much do {subj} cost?"},
                "ru": {"sing": "Сколько стоит {subj}?", "plur": "Сколько стоят {subj}?"}}


def price_frames(values: Sequence[ProseQuestion], items: Sequence[ProseQuestion]) -> list[ProseQuestion]:
    """Frames from the sentences that state a value's price ("Express delivery takes 1 working day and costs $25
    per parcel", asked by a fact template, so no prose question carries its frame): "How much does {subj} cost?"
    for another subject of the same kind ("standard delivery"). ``values``: value subjects as :func:`term_subjects`
    makes them; one whose amount a prose question already asks is left to that question's frame."""
    have = {frozenset(lemmas(q.subject)) for q in items if q.kind == "amount"}
    out = []
    for v in values:
        if v.lang not in _PRICED or frozenset(lemmas(v.subject)) in have:
            continue
        own = re.escape(v.subject)
        if not re.match(rf"(?:(?:an?|the)\s+)?{own}{_PRICED[v.lang]}", v.reference, re.IGNORECASE):
            continue
        frame = PRICE_FRAMES[v.lang][v.form]
        question = frame.replace("{subj}", _subject_text(v))
        out.append(ProseQuestion(v.chunk, v.lang, question[:1].upper() + question[1:], v.reference, v.subject,
                                 "amount", frame, v.form))
    return out


def _checks(judge: Any) -> str:
    return "lemmas+verifier+answerability" if judge is not None else "lemmas+answerability"


def _interleave(groups: Sequence[list], limit: int) -> list:
    """Round-robin over the kinds, so that one kind does not fill the limit alone."""
    out: list = []
    for k in range(max((len(g) for g in groups), default=0)):
        out += [g[k] for g in groups if k < len(g)]
    return out[:limit]


def unanswerable_rows(items: Sequence[ProseQuestion], chunks: Sequence[Chunk], dropped: Counter,
                      judge_factory: Callable[[], Any] | None, limit: int,
                      table_items: Sequence[str] = (), subjects: Sequence[tuple[str, str]] = (),
                      definitions: Sequence[tuple[str, str]] = (), values: Sequence[str] = (),
                      tried: dict[str, int] | None = None) -> list[tuple[str, str, str, dict]]:
    """(question, reference, lang, extra) rows for :mod:`.build`, the kinds in turn: other subjects in the
    frames of prose questions, new items of the same kind as the Russian price rows, and terms the corpus uses
    but does not define (:mod:`.absent_terms`; ``subjects`` and ``definitions`` are (text, lang) pairs)."""
    valued = term_subjects([(v, lang) for v, lang in subjects if v in set(values)], chunks)
    others = [*term_subjects(definitions, chunks), *valued]
    items = [*items, *price_frames(valued, items)]
    judge = None
    if judge_factory is not None and (any(q.frame for q in items) or table_items):
        try:
            judge = judge_factory()
        except Exception:  # noqa: BLE001 - a missing optional model: the lemma check alone, reported
            judge = None
    frames = absent_candidates(items, chunks, dropped, judge=judge, limit=limit, others=others)
    rows = table_rows(table_items, chunks, dropped, judge=judge, limit=limit) if table_items else []
    terms = undefined_terms(subjects, definitions, chunks, dropped, limit=limit, values=values)
    if tried is not None:  # what each kind had to work with, for the summary's word on a corpus that gets none
        tried.update({"frames": sum(1 for q in items if q.frame), "frame_questions": len(frames),
                      "price_rows": len(table_items), "price_questions": len(rows),
                      "defined_terms": len(definitions), "term_questions": len(terms)})
    rows = _interleave([frames, rows, terms], limit)
    return [(q, NOT_FOUND[lang], lang, extra) for q, lang, extra in rows]


__all__ = ["DIMENSIONS", "NOT_FOUND", "PRICE_FRAMES", "absent_candidates", "price_frames", "sibling_absent", "term_subjects", "recombined_items", "table_rows", "stated_by_judge", "stated_by_lemmas", "unanswerable_rows"]
