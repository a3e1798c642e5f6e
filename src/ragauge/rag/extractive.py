"""Extractive answers: the best-supported sentences or table rows of the contexts, copied whole.

Used when no LLM is configured. Nothing is generated, so numbers, units and dates stay exactly as in
the source, and every unit is followed by the id of its chunk (``[price-002]``).

Units: sentences of prose (razdel) and rows of ``a | b | c`` tables (a row is rendered with its
header: ``"Облицовка стен ГКЛ … — Ед. изм.: м², Цена, руб.: 1 150"``). Each unit is scored against
the question::

    unit_score = 0.7 * share of the question's idf weight whose lemmas the unit contains
                       (idf over the units of these contexts; question words like "сколько" left out)
               + 0.3 * cosine(question, unit)          (multilingual USE; catches "гарантия" ~ "гарантийный")
               - 0.01 * rank of the unit's context    (earlier contexts win ties)

The best unit is taken, then (up to ``max_units``) the next best ones that add question lemmas the
answer does not cover yet and score at least half the best. A question without content words gets
the first unit of the first context. With ``cite=False`` the ids are returned beside the text
(:func:`extract`) instead of inside it: the reference pipeline does that, because an id in the text
reads as an unsupported "claim" to a faithfulness judge. The generator always answers (it is the system under test; the
guard decides whether it should): with no overlap at all it still returns the top unit.

No frame ("According to the documents: …") is added and clause numbers ("7.1.") are dropped: a
faithfulness judge reads such words as claims the context does not make. The copied text stays in
the documents' language (no translation without an LLM); only the empty-context message follows the
question's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..guard.grade import QUESTION_WORDS
from ..guard.result import normalize_chunks
from ..guard.templates import detect_lang

# A clause number opening a unit ("7.1. ", "2.12. ") or left dangling at its end by the sentence splitter.
_CLAUSE_HEAD = re.compile(r"^\s*\d+(?:\.\d+)*\.\s+")
_CLAUSE_TAIL = re.compile(r"\s+\d+(?:\.\d+)+\.$")
_EMPTY = {"ru": "Контекст пуст: ответить не на чем.", "en": "The context is empty: nothing to answer from."}


@dataclass(frozen=True, slots=True)
class Unit:
    text: str  #: as shown in the answer
    chunk_id: str
    rank: int  #: position of its chunk among the contexts, from 0
    lemmas: frozenset[str]


def _clean(sentence: str) -> str:
    return _CLAUSE_TAIL.sub("", _CLAUSE_HEAD.sub("", sentence.strip())).strip()


def _lemmas(text: str) -> list[str]:
    from ..judges.offline.lemmas import content_lemmas

    return content_lemmas(text)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.split("|")]


def _row_text(header: list[str] | None, cells: list[str]) -> str:
    if not header or len(header) != len(cells):
        return " | ".join(cells)
    rest = [f"{h}: {v}" for h, v in zip(header[1:], cells[1:]) if v]
    return f"{cells[0]} — {', '.join(rest)}" if rest else cells[0]


def split_units(text: str, chunk_id: str = "", rank: int = 0) -> list[Unit]:
    """Sentences and table rows of one context, in order.

    >>> [u.text for u in split_units("Цены в рублях.\\nРаздел 4. Работа | Ед. | Цена\\nШтукатурка стен | м² | 450")]
    ['Цены в рублях.', 'Штукатурка стен — Ед.: м², Цена: 450']
    """
    from ..text.sentences import split_sentences

    units: list[Unit] = []
    header: list[str] | None = None
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.count("|") >= 1:
            cells = _cells(line)
            if header is None:  # the first row is the header; text before it is a caption
                lead, _, first = cells[0].rpartition(". ")  # a caption before the header: not an answer
                header = [first or cells[0], *cells[1:]]
                continue
            shown = _row_text(header, cells)
            units.append(Unit(shown, chunk_id, rank, frozenset(_lemmas(shown))))
            continue
        for a, b in ((x.start, x.end) for x in split_sentences(line)):
            sentence = _clean(line[a:b])
            if sentence:
                units.append(Unit(sentence, chunk_id, rank, frozenset(_lemmas(sentence))))
    return units


def question_lemmas(question: str) -> list[str]:
    """The question's content lemmas without question words, first occurrence of each."""
    return [lem for lem in dict.fromkeys(_lemmas(question)) if lem not in QUESTION_WORDS]


def _cosines(question: str, units: Sequence[Unit], embedder: Any) -> dict[int, float]:
    if embedder is None:
        return {}
    vecs = embedder.embed([question, *[u.text for u in units]])
    return {id(u): float(v) for u, v in zip(units, vecs[1:] @ vecs[0])}


def select_units(question: str, units: Sequence[Unit], *, max_units: int = 2, embedder: Any = None) -> list[Unit]:
    """The units the answer is made of (rules in the module doc; no cosine term without ``embedder``)."""
    if not units:
        return []
    from ..judges.offline.overlap import idf_table

    q = question_lemmas(question)
    if not q:
        return [units[0]]
    idf = idf_table([u.lemmas for u in units])
    top = max(idf.values(), default=1.0)
    weight = {lem: idf.get(lem, top) for lem in q}
    total = sum(weight.values())

    cos = _cosines(question, units, embedder)
    w_lex = 0.7 if cos else 1.0

    def score(u: Unit, covered: frozenset[str] = frozenset()) -> float:
        gained = sum(weight[lem] for lem in q if lem in u.lemmas and lem not in covered)
        return w_lex * gained / total + 0.3 * cos.get(id(u), 0.0) - 0.01 * u.rank

    ranked = sorted(units, key=lambda u: -score(u))
    chosen = [ranked[0]]
    best = score(ranked[0])
    covered = frozenset(ranked[0].lemmas)
    for _ in range(max_units - 1):
        rest = [u for u in ranked if u not in chosen]
        if not rest or best <= 0:
            break
        nxt = max(rest, key=lambda u: score(u, covered))
        if not any(lem in nxt.lemmas and lem not in covered for lem in q) or score(nxt) < 0.5 * best:
            break
        chosen.append(nxt)
        covered |= nxt.lemmas
    return chosen


def extract(question: str, contexts: Sequence[Any], *, lang: str | None = None, max_units: int = 2,
            cite: bool = True, embedder: Any = None) -> tuple[str, list[str]]:
    """The answer text and the ids of the chunks its units come from (see :func:`extractive_answer`)."""
    lang = detect_lang(question, lang)
    chunks = normalize_chunks(contexts)
    units = [u for rank, c in enumerate(chunks) for u in split_units(c.text, c.id, rank)]
    if not units:
        return _EMPTY[lang], []
    chosen = select_units(question, units, max_units=max_units, embedder=embedder)
    chosen.sort(key=lambda u: (u.rank, units.index(u)))  # document order reads better
    parts = [f"{u.text} [{u.chunk_id}]" if cite else u.text for u in chosen]
    return " ".join(parts), list(dict.fromkeys(u.chunk_id for u in chosen))


def extractive_answer(question: str, contexts: Sequence[Any], *, lang: str | None = None, max_units: int = 2,
                      cite: bool = True, embedder: Any = None) -> str:
    """An answer made of whole units of ``contexts`` (strings, dicts or chunks), with chunk ids.

    >>> extractive_answer("Сколько стоит штукатурка стен?",
    ...                   [{"id": "p6", "text": "Работа | Ед. | Цена\\nШтукатурка стен | м² | 450"}])
    'Штукатурка стен — Ед.: м², Цена: 450 [p6]'
    """
    return extract(question, contexts, lang=lang, max_units=max_units, cite=cite, embedder=embedder)[0]


__all__ = ["Unit", "extract", "extractive_answer", "question_lemmas", "select_units", "split_units"]
