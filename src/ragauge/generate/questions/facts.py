"""Facts a question can be asked about, read from chunks with no model: table rows and numeric,
definitional and clause sentences.

* **Table rows** (``kind="table"``): a chunk line with cells joined by ``" | "`` under the chunk's header
  line. The item is the first mostly non-numeric column; the unit column is the one whose header says
  "ед."/"unit"; every other named column gives a fact a row (:mod:`.table_columns` reads its header and
  kind: price, measure, count, duration or text).
  ``"Раздел 2. Гипсокартонные работы. Наименование работ | Ед. изм. | Цена, руб."`` (a caption glued
  to the header, as in the demo) keeps only the last sentence of the first cell.
* **Numeric sentences** (``kind="value"``): ``SUBJECT — VALUE`` or ``SUBJECT составляет VALUE`` (English:
  ``SUBJECT is/are VALUE``, ``SUBJECT costs VALUE``) where VALUE holds a number; a leading clause number
  (``6.1.``) is kept as ``clause``.
* **Definitions** (``kind="definition"``): ``X — это Y``, ``X is a Y``, and abbreviations expanded in
  brackets (``влагостойким гипсокартоном (ГКЛВ)``).

Facts only locate and split text; the wording of questions is in ``templates_ru``/``templates_en``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from ragauge.generate.chunking import Chunk
from ragauge.generate.documents import CELL_SEPARATOR
from ragauge.generate.questions import table_columns
from ragauge.generate.questions.prose_en_clauses import en_clauses
from ragauge.text.sentences import split_sentences

NUMBER = re.compile(r"(?<![\w.])[-−]?\d{1,3}(?:[ \u00a0]\d{3})+(?:[.,]\d+)?(?!\d)"
                    r"|(?<![\w.])[-−]?\d+(?:[.,]\d+)?(?![\d])")
_CURRENCY = re.compile(r"руб\.?|₽|\$|€|USD|EUR|RUB", re.IGNORECASE)
_CLAUSE = re.compile(r"^(\d+(?:\.\d+)+)\.?\s+")
_ABBR = re.compile(r"\(([A-ZА-ЯЁ]{2,6})\)")
#: References to laws and standards: "ГОСТ 31357-2007", "СП 71.13330", "№ 152-ФЗ", "ст. 717 ГК РФ", "ISO 9001".
NORM_REF = re.compile(r"(?:ГОСТ(?:\s+Р)?|СНиП|СП|ТУ|ISO|EN|DIN|BS)\s+[\d.\-–:]+\d|№\s*\d+-ФЗ"
                      r"|ст\.\s*\d+\s+(?:ГК|ТК|НК|ЖК|ГрК)\s+РФ")


@dataclass(frozen=True)
class Fact:
    """One answerable fact located in one chunk."""

    kind: str  #: "table", "value", "definition"
    chunk: Chunk
    lang: str
    subject: str  #: table item, sentence subject, defined term
    value: str  #: the answer as written ("1 150", "36 (тридцать шесть) месяцев ...")
    unit: str = ""  #: table unit column ("м²")
    currency: str = ""  #: "руб.", "$" from the header or the value
    header: tuple[str, ...] = ()  #: table header (cleaned)
    value_header: str = ""  #: header of the value column ("Цена, руб.")
    sentence: str = ""  #: the source sentence or row line
    clause: str = ""  #: "6.1" when the sentence starts with a clause number
    verb: str = ""  #: "—", "составляет", "is", "are", "costs", "это"
    extras: dict = field(default_factory=dict, compare=False)

    @property
    def number(self) -> float | None:
        """The first number of the value as a float ("1 150" -> 1150.0, "52,70" -> 52.7; English "1,900" -> 1900.0)."""
        text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", self.value) if self.lang == "en" else self.value
        return parse_number(text)


def parse_number(text: str) -> float | None:
    m = NUMBER.search(text)
    if not m:
        return None
    raw = re.sub(r"[ \u00a0]", "", m.group()).replace(",", ".").replace("−", "-")
    try:
        return float(raw)
    except ValueError:
        return None


def split_table(text: str) -> tuple[tuple[str, ...], list[tuple[str, ...]]] | None:
    """(header, rows) of a table chunk's text, or None when it holds no table."""
    lines = [ln for ln in text.split("\n") if CELL_SEPARATOR in ln]
    if len(lines) < 2:
        return None
    header = [c.strip() for c in lines[0].split(CELL_SEPARATOR)]
    parts = re.split(r"(?<=[.)])\s+(?=[А-ЯЁA-Z])", header[0])
    header[0] = parts[-1].strip()
    rows = [tuple(c.strip() for c in ln.split(CELL_SEPARATOR)) for ln in lines[1:]]
    rows = [r for r in rows if len(r) == len(header)]
    return tuple(header), rows


def _is_numeric(cell: str) -> bool:
    return bool(cell) and table_columns.money(cell) is not None


def table_facts(chunk: Chunk, lang: str) -> list[Fact]:
    """One fact a value cell of each row, every value column (:mod:`.table_columns`): prices, measures, counts,
    durations and text. The reference keeps the cell's currency and the header's unit."""
    parsed = split_table(chunk.text)
    if parsed is None:
        return []
    header, rows = parsed
    if not rows:
        return []
    if _is_data_row(header):
        return _headerless_prices(chunk, lang, [header] + rows)
    ncol = len(header)
    numeric_share = [sum(_is_numeric(r[i]) for r in rows) / len(rows) for i in range(ncol)]
    item_col = next((i for i in range(ncol) if numeric_share[i] < 0.5), None)
    if item_col is None:
        return []
    unit_col = table_columns.unit_column(header, item_col)
    cols = table_columns.columns(header, rows, item_col, unit_col)
    out = []
    items = tuple(r[item_col] for r in rows)
    for row in rows:
        item = row[item_col]
        if len(item) < 3 or _is_numeric(item):
            continue
        unit = row[unit_col] if unit_col is not None else ""
        for col in cols:
            fact = _cell_fact(chunk, lang, header, row, col, item, unit, item_col, items)
            if fact is not None:
                out.append(fact)
    return out


def _cell_fact(chunk: Chunk, lang: str, header: tuple[str, ...], row: tuple[str, ...], col: table_columns.Column,
               item: str, unit: str, item_col: int, items: tuple[str, ...]) -> Fact | None:
    """The fact of one cell: a number keeps its currency apart ("2 900" + "₽", or the header's "руб."); any other
    cell is its value as written ("3 weeks", "весь мир")."""
    cell = row[col.index].strip()
    if table_columns.is_empty(cell) or len(cell) > 120:
        return None
    m = table_columns.money(cell) if col.kind in ("price", "measure", "count") else None
    value, currency = cell, ""
    if m:
        value = (m.group("bound") or "") + m.group("num")
        currency = m.group("pre") or m.group("post") or (_currency(col.currency) if col.currency else "")
    extras = {"price": bool(m) and col.kind == "price", "column": col.kind, "name": col.name, "cond": col.cond,
              "hunit": col.unit, "item_header": header[item_col], "item_rows": items, "numeric": bool(m),
              "per": col.per if m and not unit else ""}
    return Fact("table", chunk, lang, item, value, unit=unit, currency=currency, header=header,
                value_header=header[col.index], sentence=CELL_SEPARATOR.join(row), extras=extras)


_MONEY_CELL = re.compile(r"^\$?\d[\d \u00a0]*(?:[.,]\d+)?\s*(?:₽|руб\.?|рублей|\$|€|USD|EUR|RUB)?(?:\s+(?:в|за|per|a)\s+[\w.²³]+)?$"
                         r"|^\$\d", re.IGNORECASE)


def _is_data_row(cells: tuple[str, ...]) -> bool:
    """A first line that is a row, not a header: a name, then cells with numbers ("Кружок | 4 500 руб. в месяц")."""
    return len(cells) >= 2 and not re.search(r"\d", cells[0]) and all(re.search(r"\d", c) for c in cells[1:])


def _headerless_prices(chunk: Chunk, lang: str, rows: list[tuple[str, ...]]) -> list[Fact]:
    """Price facts of a table without a header row: the first cell names the item, a cell with a currency is its
    price, kept as written ("4 500 руб. в месяц") since no header says per what."""
    out = []
    for row in rows:
        item = row[0]
        for cell in row[1:]:
            cur = _CURRENCY.search(cell)
            if len(item) >= 3 and _MONEY_CELL.match(cell) and cur:
                value, per = cell[:cur.start()].strip().lstrip("$"), cell[cur.end():].strip()
                if cur.group() == "$":
                    value, per = NUMBER.search(cell).group(), cell[NUMBER.search(cell).end():].strip()
                out.append(Fact("table", chunk, lang, item, value, currency=_currency(cur.group()), header=(),
                                value_header="", sentence=CELL_SEPARATOR.join(row),
                                extras={"price": True, "per": per}))
                break
    return out


def _currency(raw: str) -> str:
    low = raw.lower().rstrip(".")
    return {"руб": "руб.", "₽": "руб.", "rub": "руб."}.get(low, raw.upper() if low in ("usd", "eur") else raw)


_TRAILING_CLAUSE = re.compile(r"\s+(\d+(?:\.\d+)+\.)$")
_NEXT_CLAUSE = re.compile(r"(?<=[.;])\s+(?=\d+(?:\.\d+)+\.?\s+[А-ЯЁA-Z])")


def sentences(chunk: Chunk) -> Iterator[str]:
    """Sentences of a text chunk; a numbered clause ("2.3. Выезд …") always starts a new one, even after
    an abbreviation ("15 000 руб. 2.3. …") that the sentence splitter reads as the same sentence. An English
    sentence of two clauses ("A hot desk costs $20 per hour and the boardroom costs $65 per hour") gives each
    clause (:func:`.prose_en_clauses.en_clauses`): a reference is the clause that answers, not a run-on."""
    text = chunk.text if chunk.kind != "table" else ""
    carry = ""
    for sentence in split_sentences(text):
        for part in _NEXT_CLAUSE.split(sentence.text):
            sent = (carry + " " + re.sub(r"\s+", " ", part)).strip()
            carry = ""
            tail = _TRAILING_CLAUSE.search(sent)
            if tail and tail.start() > 0:  # "… 15 000 руб. 2.3." + "Выезд …": the number opens the next one
                carry, sent = tail.group(1), sent[:tail.start()].strip()
            if sent:
                yield from en_clauses(sent) if sentence_language(sent) == "en" else (sent,)


_RU_VALUE = re.compile(
    r"^(?P<subj>[А-ЯЁA-Z][^—:;()]{2,110}?)\s+(?P<verb>—|–|составляет|составляют)\s+"
    r"(?P<val>(?:не более|не менее|не ниже|не выше|до|от|плюс|около|минус)?\s*\d[^;]*?)\.?$")
_EN_VALUE = re.compile(
    r"^(?P<subj>[A-Z][^—:;()]{2,110}?)\s+(?P<verb>is|are|costs|cost|—|–)\s+"
    r"(?P<val>(?:up to|at least|at most|about|not more than|no more than|\$)?\s*\$?\d[^;]*?)\.?$")
_RU_DEF = re.compile(r"^(?P<subj>[А-ЯЁA-Z][^—:;,]{1,60}?)\s+—\s+это\s+(?P<val>[^;]{5,200}?)\.?$")
_EN_DEF = re.compile(r"^(?P<subj>(?:An?|The)?\s*[A-Za-z][\w -]{1,40}?)\s+(?P<verb>is|means)\s+"
                     r"(?P<val>(?:an?|the|any)\s+[^;]{5,200}?)\.?$")
_RU_BAD_START = {"при", "если", "в", "на", "за", "по", "с", "для", "после", "до", "от", "и", "но", "а", "это",
                 "над", "под", "перед", "через", "во", "со", "из", "о", "об", "у", "к",
                 "он", "она", "они", "оно", "его", "её", "их", "то", "так", "также", "кроме"}
_EN_BAD_START = {"it", "this", "that", "these", "those", "there", "he", "she", "they", "we", "you", "if", "when",
                 "in", "on", "at", "for", "after", "before", "and", "but", "or", "which"}


#: A finite verb inside an English "subject": it is a clause, not a noun phrase.
_EN_PREDICATE = re.compile(r"(?:^|\s)(?:takes|take|lasts|last|has|have|was|were|must|may|can|will|shall|should|"
                           r"includes|include|requires|require|applies|apply)\b")


#: A second clause opens with a determiner ("the boardroom costs …", "each additional hour costs …").
_EN_CLAUSE_OPENING = re.compile(r"(?:the|a|an|our|your|its|their|this|these|those|each|every|all|any)\s")
_KEEP_DOT = re.compile(r"(?:руб|коп|шт|тыс|млн|пог|изм|ед|pcs|approx)\.$", re.IGNORECASE)


def _trim_value(val: str) -> str:
    """Keep the first value of a sentence: cut at the first ", " after a number (not ", но не более")."""
    m = NUMBER.search(val)
    if m:
        cut = re.search(r",\s+(?!но не|but not)", val[m.end():])
        if cut:
            val = val[:m.end() + cut.start()]
    val = val.strip().rstrip(",")
    if val.endswith(".") and not _KEEP_DOT.search(val):
        val = val[:-1]
    return val


def sentence_language(sentence: str) -> str:
    """"ru" when Cyrillic letters outnumber Latin ones, else "en" (a PDF page can mix both)."""
    cyr = sum(1 for ch in sentence if "\u0400" <= ch <= "\u04ff")
    lat = sum(1 for ch in sentence if ch.isascii() and ch.isalpha())
    return "ru" if cyr > lat else "en"


def sentence_facts(chunk: Chunk, lang: str, *, per_sentence: bool = False) -> list[Fact]:
    """Numeric and definitional facts of a text chunk, one sentence at a time (each sentence in its own
    language when ``per_sentence``)."""
    out: list[Fact] = []
    chunk_lang = lang
    for sent in sentences(chunk):
        lang = sentence_language(sent) if per_sentence else chunk_lang
        bad_start = _RU_BAD_START if lang == "ru" else _EN_BAD_START
        clause = ""
        m = _CLAUSE.match(sent)
        body = sent
        if m:
            clause, body = m.group(1), sent[m.end():]
        if lang == "en" and body[:1].islower() and _EN_CLAUSE_OPENING.match(body):
            body = body[:1].upper() + body[1:]  # the second clause of a sentence: "the boardroom costs $65"
        for pattern, kind in ((_RU_DEF if lang == "ru" else _EN_DEF, "definition"),
                              (_RU_VALUE if lang == "ru" else _EN_VALUE, "value")):
            hit = pattern.match(body)
            if not hit:
                continue
            subj = hit.group("subj").strip()
            first = subj.split(" ", 1)[0].lower()
            if first in bad_start or len(subj.split()) > 14 or re.search(r"\s(?:The|A|An|This|Version)\b", subj):
                continue
            if kind == "value" and lang == "en" and (verb := _EN_PREDICATE.search(subj)):
                # "Express delivery takes 1 working day and costs $25": the subject of the second predicate is
                # the first one's; any other finite verb means the "subject" is a clause of its own
                if not re.search(r"\sand$", subj) or verb.start() == 0:
                    continue
                subj = subj[:verb.start()].strip()
            value = _trim_value(hit.group("val"))
            if re.search(r"(?:руб|коп|шт|тыс|млн)$", value):
                value += "."  # the sentence's full stop was also the abbreviation's
            if kind == "value" and not NUMBER.search(value):
                continue
            cur = _CURRENCY.search(value)
            out.append(Fact(kind, chunk, lang, subj, value, currency=_currency(cur.group()) if cur else "",
                            sentence=sent, clause=clause, verb=hit.groupdict().get("verb") or "это"))
            break
        refs = list(dict.fromkeys(m.group().strip() for m in NORM_REF.finditer(body)))
        if refs and clause:
            out.append(Fact("entity", chunk, lang, ", ".join(refs), ", ".join(refs), sentence=sent, clause=clause,
                            verb="ref"))
        for abbr in _ABBR.finditer(body):
            expansion = _expansion(body[:abbr.start()].rstrip(), lang)
            if expansion:
                out.append(Fact("definition", chunk, lang, abbr.group(1), expansion, sentence=sent,
                                clause=clause, verb="abbr"))
    return out


def _expansion(before: str, lang: str) -> str | None:
    """The words just before "(ABBR)" that spell it out: adjectives + a noun (RU), capitalised words (EN)."""
    words = before.split()[-4:]
    if lang == "en":
        caps = []
        for w in reversed(words):
            if not w[:1].isupper():
                break
            caps.insert(0, w)
        return " ".join(caps) if len(caps) >= 2 else None
    from ragauge.generate.questions import morph

    if not morph.available() or not words:
        return None
    analyzer = morph._analyzer()
    tail: list = []
    for w in reversed(words):
        if not re.fullmatch(r"[а-яёА-ЯЁ-]+", w):
            break
        parse = analyzer.parse(w)[0]
        if not tail and parse.tag.POS != "NOUN":
            return None
        if tail and parse.tag.POS not in ("ADJF", "PRTF"):
            break
        tail.insert(0, parse)
    if not tail or len(tail) < 2:
        return None
    words_nom = []
    for p in tail:
        form = p.inflect({"nomn", p.tag.number or "sing"})
        if form is None:
            return None
        words_nom.append(form.word)
    return " ".join(words_nom)


def chunk_facts(chunk: Chunk, lang: str, *, per_sentence: bool = False) -> list[Fact]:
    """Every fact of one chunk: table rows for table chunks, sentences otherwise."""
    if chunk.kind == "table" or split_table(chunk.text) is not None:
        return table_facts(chunk, lang)
    return sentence_facts(chunk, lang, per_sentence=per_sentence)


__all__ = ["Fact", "NORM_REF", "NUMBER", "chunk_facts", "parse_number", "sentence_facts", "sentence_language", "sentences",
           "split_table", "table_facts"]
