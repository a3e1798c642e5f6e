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
from ragauge.generate.questions.absent_terms import ANSWERABLE, answered, undefined_terms
from ragauge.generate.questions.prose import LENGTH_FRAME, ProseQuestion, length_question
from ragauge.generate.questions.special import lemmas

NOT_FOUND = {"ru": "В документах нет ответа на этот вопрос.", "en": "The documents do not answer this question."}


def _subject_text(q: ProseQuestion) -> str:
    if q.lang == "ru":
        return morph.lower_first(q.subject)
    return q.subject if re.match(r"^(?:[A-Z]{2,}|[A-Z]\w*[A-Z])", q.subject) else q.subject[:1].lower() + q.subject[1:]


def stated_by_lemmas(subject: str, kind: str, items: Sequence[ProseQuestion], verb: str = "") -> bool:
    """True when some sentence of the corpus gives a quantity of ``kind`` about ``subject`` (with ``verb`` when
    given: "Credit requests must be filed within 30 days" does not say how soon they are answered)."""
    own = set(lemmas(subject)) | set(lemmas(verb))
    return any(q.kind == kind and own <= set(lemmas(q.reference)) for q in items)


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
    frames = [q for q in items if q.frame]
    texts = [c.text for c in chunks]
    bags = [(c, set(lemmas(c.text))) for c in chunks] if frames and judge is not None else []
    for a in frames:
        if absent_stated.anchored(a.reference, a.lang, a.frame):
            dropped["unanswerable_frame_anchored_to_own_event"] += 1
            continue
        for b in list(items) + list(others):
            if len(out) >= limit:
                return out
            if b is a or b.lang != a.lang or b.form != a.form or not b.form or not _related(a, b):
                continue
            subject = _subject_text(b)
            if set(lemmas(subject)) == set(lemmas(_subject_text(a))) or "{" in subject:
                continue
            question = a.frame.replace("{subj}", subject)
            if a.frame.startswith(LENGTH_FRAME):  # asked as a person asks: «Какова продолжительность X?»
                question = length_question(subject, []) or question
            question = question[:1].upper() + question[1:]
            key = question.casefold()
            meaning = f"{a.kind}|{subject.casefold()}|{'|'.join(sorted(absent_stated.verb_alternatives(_frame_verb(a), a.lang)))}"
            if key in seen or key in asked or meaning in seen:
                continue  # "How soon are X completed?" and "… answered?" ask one thing (one event's verbs)
            seen.update((key, meaning))
            if stated_by_lemmas(subject, a.kind, items, _frame_verb(a) if a.lang == "en" else ""):
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


#: Heads of subjects that are a dimension of something, not a thing, an action or a payment.
DIMENSIONS = {"ru": {"толщина", "вес", "масса", "длина", "ширина", "высота", "глубина", "диаметр", "площадь", "объём",
                     "скорость", "температура", "уровень", "количество", "число", "процент", "доля", "срок", "время",
                     "период", "продолжительность", "доступность", "норма", "порог", "минимум", "максимум", "предел",
                     "задержка", "шаг", "зазор", "отклонение", "прочность", "расход", "габарит"},
              "en": {"thickness", "weight", "length", "width", "height", "depth", "diameter", "size", "area", "volume",
                     "speed", "temperature", "level", "number", "percentage", "share", "duration", "period", "term",
                     "time", "availability", "threshold", "minimum", "maximum", "limit", "distance", "capacity"}}


def _is_measure(q: ProseQuestion) -> bool:
    """The subject is a dimension («толщина швов», "the maximum weight"), not a thing or an action that has one."""
    if q.lang == "ru":
        return morph.head_lemma(morph.lower_first(q.subject)) in DIMENSIONS["ru"]
    words = re.findall(r"[a-z]+", q.subject.lower())
    of = words.index("of") if "of" in words else len(words)
    return bool(of) and words[of - 1] in DIMENSIONS["en"]


def _related(a: ProseQuestion, b: ProseQuestion) -> bool:
    """``b``'s sentence uses the verb of ``a``'s frame (an attribute the documents discuss for it), or (Russian)
    its subject is an entity of the same kind (the same head noun: "общий анализ крови" for "биохимический
    анализ крови"). A measure and a thing are never related: «Через какое время допускается {subj}?» (from
    «Хождение по стяжке допускается через 48 часов») does not fit «толщина швов» («… 12 мм (допускается от 10 до
    15 мм)»), though both sentences use the verb."""
    if _is_measure(a) != _is_measure(b):
        return False
    if a.lang == "ru":
        verb = set(lemmas(_frame_verb(a)))
        if verb and verb <= set(lemmas(b.reference)):
            return True
    elif _frame_verb(a) and re.search(rf"\b(?:is|are|must be|may be|can be|will be) {re.escape(_frame_verb(a))}\b",
                                      b.reference, re.IGNORECASE):
        return True  # the same English verb form after the subject ("cover" the noun is not "covered")
    head = _head(a)
    if a.lang != "ru":  # "unused leave may be carried over" does not make "paternity leave" one that may be;
        # but "single-trip policy" and "annual policy" are two kinds of one thing, each with its own terms
        return head is not None and head == _head(b) and _en_kinds(a.subject, b.subject)
    return head is not None and head == _head(b) and _differ_by_adjectives(a, b)


#: English past participles not spelt "-ed": "a lost card", "stolen goods", "a broken seal".
_EN_IRREGULAR_PARTICIPLES = {"lost", "stolen", "broken", "torn", "worn", "frozen", "forgotten", "hidden", "sold",
                             "held", "kept", "left", "sent", "found", "spent", "taken", "given", "written", "done"}


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


def _differ_by_adjectives(a: ProseQuestion, b: ProseQuestion) -> bool:
    """The two subjects differ only in adjectives ("общий" / "биохимический анализ крови"): two kinds of one
    thing. Subjects that differ in a noun ("вызов врача" / "вызов терапевта") may be a kind and its
    instance, where the one answers the other; subjects that differ in a participle the dictionary knows only
    as one («утерянная карта» / «новая карта») are one thing at two steps of a procedure («повышенная», also an
    adjective in the dictionary, stays a kind)."""
    if a.lang != "ru":
        return True
    analyzer = morph._analyzer()
    diff = set(lemmas(a.subject)) ^ set(lemmas(b.subject))
    words = [w.lower() for w in re.findall(r"[А-Яа-яЁё]+", f"{a.subject} {b.subject}")]
    if analyzer is not None and any(analyzer.parse(w)[0].tag.POS == "PRTF" for w in words):
        return False
    return bool(diff) and analyzer is not None and all(
        analyzer.parse(w)[0].tag.POS in ("ADJF", "PRTF", "ADJS") for w in diff)


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
    judge = None
    if judge_factory is not None and (any(q.frame for q in items) or table_items):
        try:
            judge = judge_factory()
        except Exception:  # noqa: BLE001 - a missing optional model: the lemma check alone, reported
            judge = None
    others = term_subjects([*definitions, *((v, lang) for v, lang in subjects if v in set(values))], chunks)
    frames = absent_candidates(items, chunks, dropped, judge=judge, limit=limit, others=others)
    rows = table_rows(table_items, chunks, dropped, judge=judge, limit=limit) if table_items else []
    terms = undefined_terms(subjects, definitions, chunks, dropped, limit=limit, values=values)
    if tried is not None:  # what each kind had to work with, for the summary's word on a corpus that gets none
        tried.update({"frames": sum(1 for q in items if q.frame), "frame_questions": len(frames),
                      "price_rows": len(table_items), "price_questions": len(rows),
                      "defined_terms": len(definitions), "term_questions": len(terms)})
    rows = _interleave([frames, rows, terms], limit)
    return [(q, NOT_FOUND[lang], lang, extra) for q, lang, extra in rows]


__all__ = ["DIMENSIONS", "NOT_FOUND", "absent_candidates", "term_subjects", "recombined_items", "table_rows", "stated_by_judge", "stated_by_lemmas", "unanswerable_rows"]
