"""Unanswerable questions about a sibling that price rows name: a fee a table states for one named thing only,
asked about another thing of the same kind that other rows of the same table name.

A tariff table with the rows «Обслуживание карты «Старт»», «Обслуживание карты «Прайм»» and «SMS-информирование
по карте «Прайм»» states SMS alerts for «Прайм» only; «Сколько стоит SMS-информирование по карте «Старт»?» is a
question a customer asks and the documents do not answer. A row question's reference is its value alone («99
руб.»), so :mod:`.absent_sibling`, which reads the attribute in the reference sentence, never makes one; here the
row's first cell is the sentence. The question is the row's price question with only the name changed (the name
is invariable: quoted, or Latin in Russian, capitalised in English).

A name is a sibling when rows of the same table (document and section) name it right after (Russian) or before
(English) a word with the same lemma as the model's name («карты «Старт»», «по карте «Прайм»»: карта), and the
table states some other fee for both names (two lines of one product range, not a payment system named once).
The attribute is the first cell less the name and that word («SMS-информирование»), less the frame nouns of
:data:`.absent_sibling.FRAME_NOUNS` when other words remain. The question is kept only when it is absent three
times over, as in :mod:`.absent_sibling`:

* **by lemmas**: no row and no sentence of the corpus holds the attribute's words, unless it names another
  sibling and not this one (a row «SMS-информирование | 99 руб.» that names no card is a rule for every card);
  a line naming this sibling counts with half of them;
* **by the judge**: the offline verifier does not find "ROW stands at VALUE" with this sibling's name supported,
  with evidence that names the attribute, by the chunks less the other siblings' lines;
* **by answerability**: the judge's rule answerability of the question over those chunks stays under 0.5.

The other siblings' lines are left out of the last two checks on purpose: they state the fee of another thing,
which is the premise of the question.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions.absent import NOT_FOUND, _checks, _top_chunks, sibling_absent
from ragauge.generate.questions.absent_terms import _lemma_bag
from ragauge.generate.questions.candidate import Candidate
from ragauge.generate.questions.qualifier import _section
from ragauge.generate.questions.special import lemmas

_QUOTED = r"«[^«»]+»|\"[^\"]+\"|“[^”]+”"
#: A name in a first cell: quoted; Russian, a Latin word run (not all capitals: "SMS" is an abbreviation);
#: English, capitalised words after the first word of the cell.
_NAME = {"ru": re.compile(rf"{_QUOTED}|(?<![\w-])(?![A-Z0-9]+(?![\w-]))[A-Za-z][A-Za-z0-9]*(?: [A-Za-z][A-Za-z0-9]*)*"
                          r"(?![\w-])"),
         "en": re.compile(rf"{_QUOTED}|(?<=\s)[A-Z][a-z]+(?: [A-Z][a-z]+)*(?![\w-])")}
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: The verb of the claim the judge checks: "ROW costs VALUE".
_COSTS = {"ru": "стоит", "en": "costs"}


@dataclass(frozen=True)
class Row:
    """A table row whose first cell names one thing: «SMS-информирование по карте «Прайм»» | «99 руб.»."""

    item: str  #: the first cell
    name: str  #: «Прайм»
    kind: str  #: the lemma of the word the name is attached to: «карта»
    attribute: frozenset[str]  #: the first cell's lemmas less the name's and the kind word's
    chunk: Chunk


def _kind(item: str, match: re.Match, lang: str) -> str | None:
    """The lemma of the word the name is attached to: the word before it (Russian), after it (English)."""
    if lang == "ru":
        word = re.search(r"([A-Za-zА-Яа-яЁё-]+)\s*$", item[:match.start()])
    else:
        word = re.match(r"\s*([A-Za-z-]+)", item[match.end():])
    own = lemmas(word.group(1)) if word else []
    return own[0] if len(own) == 1 else None


def _row(line: str, chunk: Chunk, lang: str) -> Row | None:
    cells = [c.strip() for c in line.split(" | ")]
    if len(cells) < 2 or not cells[0]:
        return None
    found = list(_NAME[lang].finditer(cells[0]))
    if len(found) != 1:
        return None
    kind = _kind(cells[0], found[0], lang)
    if kind is None:
        return None
    attribute = _lemma_bag(cells[0]) - _lemma_bag(found[0].group()) - {kind}
    return Row(cells[0], found[0].group(), kind, attribute, chunk) if attribute else None


def table_rows(chunks: Sequence[Chunk], lang: str) -> list[Row]:
    """Every row of the table chunks whose first cell names exactly one thing (see :class:`Row`)."""
    return [r for c in chunks if c.kind == "table" for line in c.text.split("\n")
            if (r := _row(line, c, lang)) is not None]


def _names(line: str, names: set[str]) -> set[str]:
    return {n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", line)}


def _visible(chunks: Sequence[Chunk], names: set[str], theirs: str) -> list[Chunk]:
    """The chunks less their lines that name a sibling of ``names`` and not ``theirs``."""
    out = []
    for c in chunks:
        lines = [line for line in c.text.split("\n") if not (found := _names(line, names)) or theirs in found]
        if lines:
            out.append(c if len(lines) == len(c.text.split("\n")) else replace(c, text="\n".join(lines)))
    return out


def _stated(strict: frozenset[str], chunks: Sequence[Chunk], names: set[str], theirs: str) -> bool:
    """Some line (a row, or a sentence of text) holds the attribute's words and names no other sibling than
    ``theirs``; one that names ``theirs`` holds half of them."""
    for c in chunks:
        for line in (c.text.split("\n") if c.kind == "table" else _SENTENCE.split(c.text)):
            found = _names(line, names)
            if found and theirs not in found:
                continue
            bag = _lemma_bag(line)
            if strict <= bag or theirs in found and 2 * len(strict & bag) >= len(strict):
                return True
    return False


def _model_row(cand: Candidate, rows: Sequence[Row]) -> Row | None:
    """The one row of the candidate's chunk that its question asks about (it names the row's name once and
    holds every word of the first cell)."""
    own = _lemma_bag(cand.question)
    found = [r for r in rows if r.chunk.id == cand.chunks[0].id
             and len(re.findall(rf"(?<![\w-]){re.escape(r.name)}(?![\w-])", cand.question)) == 1
             and _lemma_bag(r.item) <= own]
    return found[0] if len(found) == 1 else None


def row_sibling_questions(cands: Sequence[Candidate], chunks: Sequence[Chunk], dropped: Counter[str],
                          judge: Callable[[], Any], *, limit: int) -> list[Candidate]:
    """Up to ``limit`` unanswerable candidates from answerable price-row questions (see the module docstring).
    ``judge``: returns the offline judge, or None when it is unavailable (called at most when needed)."""
    from ragauge.generate.questions.absent_sibling import FRAME_NOUNS

    out: list[Candidate] = []
    rows = {lang: table_rows(chunks, lang) for lang in {c.lang for c in cands}}
    asked = {c.question.casefold() for c in cands}
    seen: set[str] = set()
    frame = _lemma_bag(" ".join(sorted(FRAME_NOUNS)))
    for cand in cands:
        if len(out) >= limit:
            break
        if (cand.expected_behaviour != "answer" or cand.template != "table_price" or len(cand.chunks) != 1
                or cand.chunks[0].kind != "table"):
            continue
        lang = cand.lang
        model = _model_row(cand, rows.get(lang, ()))
        if model is None:
            continue
        table = [r for r in rows[lang] if r.kind == model.kind and (r.chunk.doc_id, _section(r.chunk)) == (
            model.chunk.doc_id, _section(model.chunk))]
        stated: dict[str, set[frozenset[str]]] = {}
        for r in table:
            stated.setdefault(r.name, set()).add(r.attribute)
        mine = model.name
        siblings = sorted(n for n in stated if n != mine and stated[n] & stated[mine])
        strict = model.attribute - frame or model.attribute
        for theirs in siblings:
            if model.attribute in stated[theirs]:
                continue  # the table states it for this sibling too: an answerable question
            question = re.sub(rf"(?<![\w-]){re.escape(mine)}(?![\w-])", lambda _m: theirs, cand.question)
            key = question.casefold()
            if key in asked or key in seen:
                continue
            seen.add(key)
            names = set(stated)
            if _stated(strict, chunks, names, theirs):
                dropped["unanswerable_stated_in_corpus_by_lemmas"] += 1
                continue
            visible = _visible(chunks, names, theirs)
            found = judge()
            contexts = [c.text for c in _top_chunks(question, [(c, set(lemmas(c.text))) for c in visible])] \
                if found is not None else []
            claim = f"{model.item.replace(mine, theirs)} {_COSTS[lang]} {cand.reference}"
            score = sibling_absent(found, question, claim, contexts, strict, visible, lang, dropped)
            if score is None:
                continue
            out.append(Candidate(question, NOT_FOUND[lang], (), "unanswerable", ("unanswerable",), lang,
                                 "unanswerable_sibling_row", expected_behaviour="not_found",
                                 extra={"absent_subject": theirs, "sibling_of": cand.question,
                                        "absent_check": _checks(found), "answerability": round(score, 3)}))
            if len(out) >= limit:
                break
    return out


__all__ = ["Row", "row_sibling_questions", "table_rows"]
