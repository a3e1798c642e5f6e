"""Unanswerable questions about sibling entities: an attribute the documents state for one named thing, asked
about another thing of the same kind that the documents name but for which they do not state it.

A tariff document with the sections «Карта «Классик»» and «Карта «Премиум»» (or "Classic card" / "Gold card",
«Вклад «Надёжный»» / «Вклад «Пенсионный»») states cashback only under «Премиум»; «В каком размере начисляется
кешбэк по карте «Классик»?» is then a question a real customer asks and the documents do not answer. The
question is the answerable one with only the name changed (the name is invariable: quoted or Latin in Russian,
capitalised in English), so it reads as naturally as its model.

The sibling question is kept only when it is absent three times over (a missing unanswerable question costs less
than one the corpus answers):

* **by lemmas**: no sentence outside the other siblings' sections (the sibling's own section and every general
  section: a general rule «Кешбэк по всем картам …» or «Размер кешбэка устанавливает банк» answers it too) holds
  the attribute's content words (the words the question shares with its reference, less the question's frame
  nouns such as «размер» / "rate" / "fee" when other words remain: "Cash withdrawals at other banks' ATMs are
  free of charge" under "Gold card" answers "What fee are cash withdrawals at other banks' ATMs charged for the
  Gold card?"; in the sibling's own section half of those words already count ("Premium tickets are answered
  within 1 hour" answers "How soon are support tickets answered for the Premium plan?"), the section's own words and verbs);
* **by the judge**: the offline verifier does not find the model question's reference supported, with evidence
  that names the attribute, by the sibling's section and the general chunks that share most words with it;
* **by answerability**: the judge's rule answerability of the question over those chunks stays under 0.5.

Only parallel sections are used: a section more than :data:`MAX_EXTRA_SENTENCES` sentences longer than its
sibling's lists terms of the whole service under the last named thing ("Invoices must be paid within 30 days"
under "Premium plan"), so what it states is not known to be about that thing alone.

The model sentence is the reference, or for a value-only reference («50 000 рублей» of «Какова минимальная сумма
вклада «Надёжный»?») the sentence of its chunk that holds the value and the question's words. A sentence that
does not name its own thing gives a sibling question only when it names the thing by its kind and states a price
or a rate ("Cashback is paid at 2% of card purchases" under "Gold card", «Минимальная сумма вклада составляет
50 000 рублей» under «Вклад «Надёжный»»: that thing's tariff); anything else it states without the name is taken
as a rule for every thing of the kind («Страховое возмещение выплачивается в течение 14 рабочих дней» or «Кешбэк
начисляется в размере 5%» under «Пенсионный» / «Золотая»). Price rows that name the thing: :mod:`.absent_rows`.

The other siblings' sections are left out of the last two checks on purpose: they state the attribute of
another thing («Кешбэк начисляется в размере 3%» under «Премиум»), which is the premise of the question.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Callable, Sequence

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import morph
from ragauge.generate.questions.absent import NOT_FOUND, _checks, _top_chunks, sibling_absent
from ragauge.generate.questions.absent_related import _en_participle
from ragauge.generate.questions.absent_rows import row_sibling_questions
from ragauge.generate.questions.candidate import Candidate
from ragauge.generate.questions.qualifier import _section, entity_name
from ragauge.generate.questions.special import lemmas

#: Nouns that name the kind of value a question asks for, not the attribute: «В каком размере начисляется
#: кешбэк» is about «кешбэк». Left out of the lemma check when other words remain.
FRAME_NOUNS = {"размер", "сумма", "срок", "продолжительность", "периодичность", "стоимость", "количество", "число",
               "процент", "время", "size", "amount", "rate", "deadline", "term", "period", "number", "percentage",
               "time", "much", "many", "long", "soon", "often", "комиссия", "плата", "цена", "лимит", "fee", "charge",
               "commission", "cost", "price", "limit"}

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: Parallel sections (the terms of two cards) have about as many sentences; a section this many sentences
#: longer than its sibling's also lists terms of the whole service (invoices, late payments) under the last
#: named thing, and its sentences are not known to be about that thing.
MAX_EXTRA_SENTENCES = 2


def _sentences(chunks: Sequence[Chunk]) -> int:
    return sum(1 for c in chunks for s in _SENTENCE.split(c.text) if re.search(r"\w", s))


def _name(own: str, other: str, lang: str) -> str | None:
    """The words of heading ``own`` that ``other`` lacks, when they are one contiguous invariable name and the
    rest (the kind, "card" / «Карта») is shared: "Gold" from "Gold card" beside "Classic card", «Премиум» from
    «Карта «Премиум»» beside «Карта «Классик»»."""
    words = own.split()
    theirs = set(lemmas(other))
    keep = [i for i, w in enumerate(words) if not set(lemmas(w)) & theirs]
    if not keep or len(keep) == len(words) or keep != list(range(keep[0], keep[-1] + 1)):
        return None
    name = " ".join(words[keep[0]:keep[-1] + 1])
    if lang == "ru":
        quoted = re.fullmatch(r"«[^«»]+»|\"[^\"]+\"|“[^”]+”", name)
        latin = re.fullmatch(r"[A-Za-z][\w-]*(?: [A-Za-z][\w-]*)*", name)
        return name if quoted or latin else None
    return name if all(w[:1].isupper() for w in name.split()) else None


def _content(text: str, lang: str) -> set[str]:
    """The content lemmas of ``text`` less those of its verbs and participles ("paid", «начисляется»: they say
    how, not what)."""
    words = re.findall(r"[\w-]+", text)
    if lang == "ru":
        analyzer = morph._analyzer()
        if analyzer is not None:
            words = [w for w in words if analyzer.parse(w.lower())[0].tag.POS not in
                     ("VERB", "INFN", "PRTF", "PRTS", "GRND")]
    else:
        words = [w for w in words if not _en_participle(w.lower())
                 and w.lower() not in ("paid", "is", "are", "be", "been", "must", "may", "can", "will")]
    return set(lemmas(" ".join(words)))


#: A tariff in a sentence: a sum of money or a percentage (what differs between two cards or plans).
_TARIFF = re.compile(r"\d\s*%|\d\s*(?:руб|₽|\$|€|USD|EUR|RUB)|[$€]\s*\d|(?<![\w-])(?:процент\w*|percent)(?![\w-])",
                     re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[ \u00a0]\d{3})*(?:[.,]\d+)*")


def _numbers(text: str) -> set[str]:
    return {re.sub(r"[ \u00a0]", "", n) for n in _NUMBER.findall(text)}


def _source(cand: Candidate, mine: str, kind: set[str]) -> str:
    """The sentence that states the candidate's answer: its reference, or for a value-only reference («50 000
    рублей», "$1,000", from «Минимальная сумма вклада составляет 50 000 рублей») the sentence of its chunk that
    holds the value's numbers and the most words of the question (the reference when none does)."""
    asked = _content(cand.question.replace(mine, " "), cand.lang) - kind
    if asked & set(lemmas(cand.reference)) or not _numbers(cand.reference):
        return cand.reference
    own = set(lemmas(cand.question))
    found = [(len(own & set(lemmas(s))), s.strip()) for s in _SENTENCE.split(cand.chunks[0].text)
             if s.strip() and _numbers(cand.reference) <= _numbers(s)]
    best = max(found, key=lambda f: f[0], default=(0, ""))
    return best[1] if best[0] and [f[0] for f in found].count(best[0]) == 1 else cand.reference


def _frame_lemmas() -> set[str]:
    return set(lemmas(" ".join(sorted(FRAME_NOUNS))))


def _section_key(c: Chunk) -> tuple[str, str]:
    return c.doc_id, _section(c)


def sibling_questions(cands: Sequence[Candidate], chunks: Sequence[Chunk], dropped: Counter[str],
                      judge_factory: Callable[[], Any] | None, *, limit: int) -> list[Candidate]:
    """Up to ``limit`` unanswerable candidates: each answerable one-chunk question that names its section's thing,
    asked of a sibling thing whose section does not state the attribute (see the module docstring)."""
    names: dict[tuple[str, str], str | None] = {}

    def entity(c: Chunk, lang: str) -> str | None:
        if (c.id, lang) not in names:
            names[c.id, lang] = entity_name(c, lang)
        return names[c.id, lang]

    asked = {c.question.casefold() for c in cands}
    seen: set[str] = set()
    out: list[Candidate] = []
    made: list[Any] = []

    def get_judge() -> Any:
        """The offline judge, made on first use; None when unavailable (lemmas and answerability only)."""
        if not made:
            try:
                made.append(judge_factory() if judge_factory is not None else None)
            except Exception:  # noqa: BLE001 - a missing optional model: lemmas and answerability only
                made.append(None)
        return made[0]

    for cand in cands:
        if len(out) >= limit:
            break
        if (cand.expected_behaviour != "answer" or cand.type != "simple" or len(cand.chunks) != 1
                or "versions" in cand.slices or cand.template.startswith(("definition", "abbreviation", "clause"))):
            continue
        src = cand.chunks[0]
        lang = cand.lang
        if not entity(src, lang):
            continue
        heading = _section(src)
        kind = set(lemmas(heading))
        siblings: dict[str, list[Chunk]] = {}
        for c in chunks:
            if c.doc_id == src.doc_id and _section(c) != heading and entity(c, lang) and kind & set(lemmas(_section(c))):
                siblings.setdefault(_section(c), []).append(c)
        mine_n = _sentences([c for c in chunks if c.doc_id == src.doc_id and _section(c) == heading])
        for other, own_chunks in sorted(siblings.items()):
            if mine_n > _sentences(own_chunks) + MAX_EXTRA_SENTENCES:
                dropped["unanswerable_sibling_sections_not_parallel"] += 1
                continue
            mine, theirs = _name(heading, other, lang), _name(other, heading, lang)
            if not mine or not theirs or len(re.findall(rf"(?<![\w-]){re.escape(mine)}(?![\w-])", cand.question)) != 1:
                continue
            source = _source(cand, mine, kind)
            if mine.casefold() not in source.casefold() and not (
                    _TARIFF.search(source) and set(lemmas(heading)) & set(lemmas(other)) & set(lemmas(source))):
                # a rule the section's sentence states without naming its entity may be general («Страховое
                # возмещение выплачивается в течение 14 дней»); a price or a rate of "the plan" is the plan's own
                dropped["unanswerable_sibling_rule_names_no_entity"] += 1
                continue
            question = re.sub(rf"(?<![\w-]){re.escape(mine)}(?![\w-])", lambda _m: theirs, cand.question)
            key = question.casefold()
            if key in asked or key in seen:
                continue
            seen.add(key)
            words = (_content(cand.question.replace(mine, " "), lang) & set(lemmas(source))) - kind
            strict = words - _frame_lemmas() or words
            if not strict:
                continue
            others = {s for s in siblings if s != other} | {heading}
            visible = [c for c in chunks if not (c.doc_id == src.doc_id and _section(c) in others)]
            texts = [set(lemmas(s)) for c in visible for s in _SENTENCE.split(c.text) if s.strip()]
            near = [set(lemmas(s)) for c in own_chunks for s in _SENTENCE.split(c.text) if s.strip()]
            if any(strict <= t for t in texts) or any(2 * len(strict & t) >= len(strict) for t in near):
                dropped["unanswerable_stated_in_corpus_by_lemmas"] += 1
                continue
            judge = get_judge()
            contexts = list(dict.fromkeys(c.text for c in [*own_chunks, *_top_chunks(
                question, [(c, set(lemmas(c.text))) for c in visible])])) if judge is not None else []
            score = sibling_absent(judge, question, source.replace(mine, theirs), contexts, strict, visible, lang,
                                   dropped)
            if score is None:
                continue
            out.append(Candidate(question, NOT_FOUND[lang], (), "unanswerable", ("unanswerable",), lang,
                                 "unanswerable_sibling_entity", expected_behaviour="not_found",
                                 extra={"absent_subject": theirs, "sibling_of": cand.question,
                                        "absent_check": _checks(judge), "answerability": round(score, 3)}))
            if len(out) >= limit:
                break
    if len(out) < limit:  # price rows that name the thing: the same question from a table (:mod:`.absent_rows`)
        out += row_sibling_questions(cands, chunks, dropped, get_judge, limit=limit - len(out))
    return out


__all__ = ["FRAME_NOUNS", "MAX_EXTRA_SENTENCES", "sibling_questions"]
