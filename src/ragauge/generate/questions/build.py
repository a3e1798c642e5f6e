"""Base candidates from facts: every template applied wherever it fits, before selection.

One function a family of questions; each returns :class:`Candidate` s and appends a reason to
``dropped`` for each fact a template had to refuse (e.g. a phrase pymorphy3 could not inflect).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from types import ModuleType

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import absent, section_question, special, templates_en, templates_ru
from ragauge.generate.questions.candidate import Candidate
from ragauge.generate.questions.facts import Fact, sentences
from ragauge.generate.questions.prose import ProseQuestion
from ragauge.generate.questions.versions import item_key

TEMPLATES: dict[str, ModuleType] = {"ru": templates_ru, "en": templates_en}
_ENTITY = re.compile(r"\b(?:[A-ZА-ЯЁ]{2,}[\w-]*|\w*\d\w*[A-Za-zА-Яа-яЁё]\w*|[A-Za-zА-Яа-яЁё]+\d[\w-]*)\b|«[^»]+»")
QUANTITIES = (5, 10, 12, 15, 20, 25, 30, 40, 50)


def has_entity(text: str) -> bool:
    """An abbreviation, a code or model ("ГКЛ", "B25", "М500", "КС-2") or a quoted name."""
    return bool(_ENTITY.search(text))


def _with_entities(slices: tuple[str, ...], text: str) -> tuple[str, ...]:
    return slices + ("entities",) if has_entity(text) and "entities" not in slices else slices


def table_candidates(facts: list[Fact], editions: dict[str, tuple[str, ...]], current_rows: dict,
                     dropped: Counter) -> list[Candidate]:
    """Row questions; old editions get dated questions and a change question against the current one."""
    out = []
    for f in facts:
        tpl = TEMPLATES[f.lang]
        family = editions.get(f.chunk.doc_id)
        base = _with_entities(("table", "numbers"), f.subject)
        if family and family[0] != f.chunk.doc_id:  # an old edition
            made = tpl.old_edition(f, f.chunk.title) if f.extras.get("price") else None
            if made:
                out.append(Candidate(made[0], made[1], (f.chunk,), "simple", ("versions",) + base, f.lang, made[2]))
            else:
                dropped["template_not_applicable"] += 1
            new = current_rows.get((family[0], item_key(f.subject), f.value_header))
            if new is not None and f.extras.get("price"):
                made = tpl.version_change(f, new, new.chunk.title)
                if made:
                    out.append(Candidate(made[0], made[1], (new.chunk, f.chunk), "multi_context",
                                         ("versions",) + base, f.lang, made[2]))
            continue
        rows = tpl.table_value(f)
        if not rows:
            dropped["template_not_applicable"] += 1
        for question, reference, template, extra in rows:
            out.append(Candidate(question, reference, (f.chunk,), "simple", extra + base, f.lang, template))
        if family and f.extras.get("price"):
            made = tpl.current_edition(f, f.chunk.title)
            if made:
                out.append(Candidate(made[0], made[1], (f.chunk,), "simple", ("versions",) + base, f.lang, made[2]))
    return out


def _same_column(a: Fact, b: Fact) -> bool:
    """Two prices that can be compared: one column (a price for 1–3 days is not set against one for 4+ days),
    the same unit and currency."""
    return a.value_header == b.value_header and _scale(a) == _scale(b)


def _scale(f: Fact) -> tuple[str, ...]:
    """What a price is stated for: its unit, currency, per-phrase and condition ("руб.", "за сутки", "от 4 суток")."""
    return f.unit, f.currency, f.extras.get("per", ""), f.extras.get("cond", "")


def _priced(facts: list[Fact]) -> list[Fact]:
    return [f for f in facts if f.kind == "table" and f.extras.get("price") and f.number is not None]


def reasoning_candidates(by_chunk: dict[str, list[Fact]], rng: random.Random, *, per_chunk: int = 2
                         ) -> list[Candidate]:
    """Inside one table chunk: compare two rows with the same unit; cost of a quantity."""
    out = []
    for facts in by_chunk.values():
        priced = _priced(facts)
        if not priced:
            continue
        tpl = TEMPLATES[priced[0].lang]
        pairs = [(a, b) for i, a in enumerate(priced[:40]) for b in priced[i + 1:40]
                 if _same_column(a, b) and a.number != b.number]
        for a, b in rng.sample(pairs, min(per_chunk, len(pairs))):
            maker = rng.choice((tpl.compare, tpl.difference))
            hi, lo = (a, b) if a.number > b.number else (b, a)
            made = maker(hi, lo) if maker is tpl.difference else maker(a, b)
            if made:
                out.append(Candidate(made[0], made[1], (a.chunk,), "reasoning", ("table", "numbers"), a.lang, made[2]))
        for f in rng.sample(priced, min(per_chunk, len(priced))):
            made = tpl.quantity(f, rng.choice(QUANTITIES))
            if made:
                out.append(Candidate(made[0], made[1], (f.chunk,), "reasoning", ("table", "numbers"), f.lang, made[2]))
    return out


def multi_candidates(by_chunk: dict[str, list[Fact]], old_docs: set[str], rng: random.Random, *, limit: int
                     ) -> list[Candidate]:
    """Two rows from two different chunks (current editions only, same unit and currency): sum or comparison.

    Pairs are drawn at random (a few tries per wanted pair), never enumerated: a 5,000-row price list
    would have 12 million pairs.
    """
    groups: dict[tuple[str, str, str], list[Fact]] = {}
    for facts in by_chunk.values():
        for f in _priced(facts):
            if f.chunk.doc_id not in old_docs:
                groups.setdefault((f.lang,) + _scale(f), []).append(f)
    pools = [g for _, g in sorted(groups.items()) if len({f.chunk.id for f in g}) >= 2]
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for _ in range(limit * 4):
        if len(out) >= limit or not pools:
            break
        pool = rng.choice(pools)
        a, b = rng.sample(pool, 2)
        key = tuple(sorted((a.sentence + a.chunk.id, b.sentence + b.chunk.id)))
        if a.chunk.id == b.chunk.id or item_key(a.subject) == item_key(b.subject) or key in seen:
            continue
        seen.add(key)
        tpl = TEMPLATES[a.lang]
        made = rng.choice((tpl.total, tpl.compare))(a, b)
        if made:
            out.append(Candidate(made[0], made[1], (a.chunk, b.chunk), "multi_context", ("table", "numbers"),
                                 a.lang, made[2]))
    return out


def sentence_candidates(facts: list[Fact], long_ids: set[str], editions: dict[str, tuple[str, ...]],
                        dropped: Counter) -> list[Candidate]:
    """Numeric sentences, clauses and definitions; an old edition's numbers are asked with its date."""
    out = []
    for f in facts:
        tpl = TEMPLATES[f.lang]
        long = ("long_section",) if f.chunk.id in long_ids else ()
        family = editions.get(f.chunk.doc_id)
        if family and family[0] != f.chunk.doc_id:
            if f.kind == "entity":
                continue
            made = tpl.old_value(f, f.chunk.title) if f.kind == "value" else None
            if made:
                out.append(Candidate(made[0], made[1], (f.chunk,), "simple", ("versions", "numbers"), f.lang, made[2]))
            else:
                dropped["template_not_applicable"] += 1
            continue
        if f.kind == "entity":
            made = tpl.norm_reference(f, f.chunk.title)
            if made:
                out.append(Candidate(made[0], made[1], (f.chunk,), "simple", ("entities", "clause") + long, f.lang,
                                     made[2]))
            else:
                dropped["template_not_applicable"] += 1
            continue
        if f.kind == "definition":
            made = tpl.definition(f)
            slices = ("definition", "entities") if f.verb == "abbr" else ("definition",)
            kind = "simple"
        else:
            made = tpl.value(f)
            slices = ("numbers", "clause") if f.clause else ("numbers",)
            slices = _with_entities(slices, f.subject)
            kind = "simple"
        if made:
            out.append(Candidate(made[0], made[1], (f.chunk,), kind, slices + long, f.lang, made[2]))
        else:
            dropped["template_not_applicable"] += 1
        if f.clause and f.kind == "value":
            made = tpl.clause(f, f.chunk.title)
            if made:
                out.append(Candidate(made[0], made[1], (f.chunk,), "simple", ("clause",) + long, f.lang, made[2]))
    return out


def asked_sentences(facts: list[Fact]) -> set[str]:
    """Sentences a value or definition template asks ("X — value", "X составляет value", "X — это Y"); the
    others ("Суточные … составляют 700 рублей": a subject pymorphy3 cannot inflect) are left to prose."""
    out = set()
    for f in facts:
        if f.kind == "value" and TEMPLATES[f.lang].value(f) or f.kind == "definition" and TEMPLATES[f.lang].definition(f):
            out.add(f.sentence)
    return out


def long_ids(chunks: list[Chunk], *, min_chars: int = 450) -> set[str]:
    """Text chunks in the longest fifth of the corpus and at least ``min_chars`` long."""
    texts = sorted(len(c.text) for c in chunks if c.kind != "table")
    if not texts:
        return set()
    cut = max(min_chars, texts[int(0.8 * (len(texts) - 1))])
    return {c.id for c in chunks if c.kind != "table" and len(c.text) >= cut}


def long_section_candidates(chunks: list[Chunk], ids: set[str], langs: dict[str, str]) -> list[Candidate]:
    """A topic question about each long section (:mod:`.section_question`) whose heading is its own: the section
    is not the document itself, and no other chunk has the same heading (the question would have two answers)."""
    headings = Counter(c.section[-1].strip().lower() for c in chunks if c.section)
    out = []
    for c in chunks:
        if c.id not in ids or not c.section or c.section[-1].strip() == c.title.strip() \
                or headings[c.section[-1].strip().lower()] > 1:
            continue
        lang = langs[c.id]
        asked = section_question.question(c.section[-1], lang)
        if asked:
            out.append(Candidate(asked, section_question.reference(list(sentences(c))), (c,), "reasoning",
                                 ("long_section",), lang, "long_section"))
    return out


def prose_candidates(items: list[ProseQuestion], long_ids: set[str]) -> list[Candidate]:
    """Questions from prose sentences (:mod:`.prose`); the reference is the sentence."""
    out = []
    for q in items:
        long = ("long_section",) if q.chunk.id in long_ids else ()
        slices = _with_entities(("numbers",), q.subject) + long
        out.append(Candidate(q.question, q.reference, (q.chunk,), "simple", slices, q.lang, f"prose_{q.kind}",
                             extra={"fact_kind": q.kind}))
    return out


def unanswerable_candidates(items: list[ProseQuestion], chunks: list[Chunk], dropped: Counter,
                            judge_factory, *, limit: int, table_facts: list[Fact] = (),
                            sentence_facts: list[Fact] = (), tried: dict[str, int] | None = None) -> list[Candidate]:
    """Questions the corpus does not answer, built from its own sentences, price rows and terms (:mod:`.absent`)."""
    out = []
    table_items = list(dict.fromkeys(f.subject for f in table_facts if f.lang == "ru" and f.extras.get("price")))
    subjects = [(q.subject, q.lang) for q in items] + [(f.subject, f.lang) for f in sentence_facts
                                                       if f.kind == "value"]
    definitions = [(f.subject, f.lang) for f in sentence_facts if f.kind == "definition" and f.verb != "abbr"]
    values = [f.subject for f in sentence_facts if f.kind == "value"]
    for question, reference, lang, extra in absent.unanswerable_rows(items, chunks, dropped, judge_factory, limit,
                                                                    table_items, subjects, definitions, values,
                                                                    tried=tried):
        template = ("unanswerable_same_kind_item" if "modelled_on" in extra else
                    "unanswerable_undefined_term" if "absent_term" in extra else "unanswerable_other_subject")
        out.append(Candidate(question, reference, (), "unanswerable", ("unanswerable",), lang, template,
                             expected_behaviour="not_found", extra=extra))
    return out


def period_candidates(facts: list[Fact], editions: dict[str, tuple[str, ...]], chunks: list[Chunk],
                      dropped: Counter, *, per_family: int = 3) -> list[Candidate]:
    """A period the documents do not cover: the old-edition price question dated a year before the oldest
    edition ("Сколько по прайс-листу от 01.09.2024 стоила укладка ламината?" when the editions are of 2025
    and 2026). Kept only when that date appears in no chunk. The judge is not asked here: the verifier
    matches the price and does not weigh an edition date."""
    from dataclasses import replace

    text = " ".join(c.text + " " + c.title for c in chunks)
    out = []
    done: set[str] = set()
    for f in facts:
        family = editions.get(f.chunk.doc_id)
        if not family or family[-1] != f.chunk.doc_id or not f.chunk.date or not f.extras.get("price"):
            continue
        if sum(1 for c in out if c.extra.get("family") == family[0]) >= per_family or f.subject in done:
            continue
        y, m, d = f.chunk.date.split("-")
        date = f"{int(y) - 1:04d}-{m}-{d}"
        if f"{int(y) - 1}" in text:
            dropped["unanswerable_period_in_corpus"] += 1
            continue
        made = TEMPLATES[f.lang].old_edition(replace(f, chunk=replace(f.chunk, date=date, version=None)),
                                            f.chunk.title)
        if not made:
            continue
        done.add(f.subject)
        out.append(Candidate(made[0], absent.NOT_FOUND[f.lang], (), "unanswerable", ("unanswerable",), f.lang,
                             "unanswerable_period", expected_behaviour="not_found",
                             extra={"absent_period": date, "family": family[0], "absent_check": "text"}))
    return out


def sensitive_candidates(chunks: list[Chunk], langs: dict[str, str]) -> list[Candidate]:
    out = []
    for lang in sorted(set(langs.values())):
        for question, reference, chunk, topic in special.sensitive(chunks, langs, lang):
            out.append(Candidate(question, reference, (chunk,), "simple", ("sensitive",), lang, f"sensitive_{topic}",
                                 expected_behaviour="refuse_or_caution"))
    return out


__all__ = ["QUANTITIES", "TEMPLATES", "asked_sentences", "has_entity", "long_ids", "long_section_candidates", "multi_candidates",
           "period_candidates", "prose_candidates", "reasoning_candidates", "sensitive_candidates", "sentence_candidates", "table_candidates",
           "unanswerable_candidates"]
