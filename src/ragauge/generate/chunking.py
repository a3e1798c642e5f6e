"""Structure-aware chunking of loaded documents.

Rules, in order:

* a heading closes the current chunk and sets the section path (its text and its parents');
* paragraphs and list items of one section are packed together up to ``max_chars``;
* a paragraph longer than ``max_chars`` is split at sentence boundaries (``ragauge.text.sentences``),
  the next piece repeating the last ``overlap_sentences`` sentences; a single sentence longer than
  ``max_chars`` is cut at spaces;
* a table is chunked by whole rows (a row is never split, even when longer than ``max_chars``), and
  every chunk starts with the header row.

Offsets: for every chunk ``chunk.prefix + doc.text[chunk.start:chunk.end] == chunk.text``; the
prefix is empty except in table chunks after the first, where it is the repeated header line.

Ids: ``"{doc_id}#{h}-{k}"`` where ``h`` is the first 10 hex digits of SHA-1 over the normalised text
(NFKC, case-folded, whitespace collapsed) and ``k`` counts earlier chunks of the same document with
the same ``h``. An id therefore depends only on its own document's text, never on other documents or
on the chunk's position.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

from ragauge.errors import ConfigError
from ragauge.generate.documents import Block, Document, row_text
from ragauge.text.sentences import split_sentences


@dataclass(frozen=True)
class Chunk:
    """A piece of one document, ready for retrieval and question generation."""

    id: str
    doc_id: str
    text: str
    section: tuple[str, ...]  #: headings from the top down to this chunk
    start: int  #: span in the document's plain text, see the module docstring
    end: int
    kind: str  #: "text", "list" (list items only) or "table"
    ordinal: int  #: position among the document's chunks, from 0
    title: str
    version: str | None = None
    date: str | None = None
    prefix: str = ""  #: repeated table header line (with its newline), else ""

    def to_record(self) -> dict[str, str]:
        """The ``kb.jsonl`` shape of the demo: id, doc_id, title, version, section, text."""
        return {"id": self.id, "doc_id": self.doc_id, "title": self.title,
                "version": self.version or self.date or "", "section": " > ".join(self.section),
                "text": self.text}


def normalise(text: str) -> str:
    """What the id hash sees: NFKC, case-folded, whitespace collapsed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).casefold()).strip()


def _hard_split(start: int, end: int, text: str, max_chars: int) -> list[tuple[int, int]]:
    """Cut an over-long sentence at spaces (or mid-word when one word is longer than the limit)."""
    out = []
    while end - start > max_chars:
        cut = text.rfind(" ", start + 1, start + max_chars + 1)
        if cut <= start:
            cut = start + max_chars
        out.append((start, cut))
        start = cut
        while start < end and text[start] == " ":
            start += 1
    out.append((start, end))
    return out


def _split_long(block: Block, doc_text: str, max_chars: int, overlap: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for sentence in split_sentences(block.text):
        spans.extend(_hard_split(block.start + sentence.start, block.start + sentence.end, doc_text, max_chars))
    pieces: list[tuple[int, int]] = []
    i, must_reach = 0, 0
    while i < len(spans):
        j = i
        while j < len(spans) and (j <= must_reach or spans[j][1] - spans[i][0] <= max_chars):
            j += 1
        pieces.append((spans[i][0], spans[j - 1][1]))
        if j >= len(spans):
            break
        nxt = max(j - overlap, i + 1)
        while nxt < j and spans[j][1] - spans[nxt][0] > max_chars:
            nxt += 1  # drop overlap that would not fit with the next new sentence
        i, must_reach = nxt, j
    return pieces


def _table_pieces(block: Block, max_chars: int) -> list[tuple[int, int, str]]:
    """(start, end, prefix) per chunk; the first chunk includes the header from the document text."""
    if not block.rows:
        return [(block.start, block.end, "")]
    prefix = row_text(block.header) + "\n"
    pieces: list[tuple[int, int, str]] = []
    first = 0
    while first < len(block.rows):
        start = block.start if first == 0 else block.row_spans[first][0]
        head = "" if first == 0 else prefix
        last = first
        while (last + 1 < len(block.rows)
               and len(head) + block.row_spans[last + 1][1] - start <= max_chars):
            last += 1
        pieces.append((start, block.row_spans[last][1], head))
        first = last + 1
    return pieces


def _chunk_document(doc: Document, max_chars: int, overlap: int) -> list[Chunk]:
    raw: list[tuple[int, int, str, tuple[str, ...], str]] = []  # start, end, prefix, section, kind
    path: list[tuple[int, str]] = []
    buffer: list[Block] = []

    def section() -> tuple[str, ...]:
        return tuple(text for _, text in path)

    def flush() -> None:
        if buffer:
            kind = "list" if all(b.kind == "list_item" for b in buffer) else "text"
            raw.append((buffer[0].start, buffer[-1].end, "", section(), kind))
            buffer.clear()

    for block in doc.blocks:
        if block.kind == "heading":
            flush()
            level = block.level  # 0 = document title (DOCX "Title" style), 1 = top heading
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, block.text))
        elif block.kind == "table":
            flush()
            for start, end, prefix in _table_pieces(block, max_chars):
                raw.append((start, end, prefix, section(), "table"))
        elif block.end - block.start > max_chars:
            flush()
            for start, end in _split_long(block, doc.text, max_chars, overlap):
                raw.append((start, end, "", section(), "text"))
        else:
            if buffer and block.end - buffer[0].start > max_chars:
                flush()
            buffer.append(block)
    flush()

    chunks: list[Chunk] = []
    seen: dict[str, int] = {}
    for ordinal, (start, end, prefix, sec, kind) in enumerate(raw):
        text = prefix + doc.text[start:end]
        digest = hashlib.sha1(normalise(text).encode("utf-8")).hexdigest()[:10]
        k = seen.get(digest, 0)
        seen[digest] = k + 1
        chunks.append(Chunk(id=f"{doc.id}#{digest}-{k}", doc_id=doc.id, text=text, section=sec, start=start,
                            end=end, kind=kind, ordinal=ordinal, title=doc.title, version=doc.version,
                            date=doc.date, prefix=prefix))
    return chunks


def chunk(documents: Iterable[Document], *, max_chars: int = 1200, overlap_sentences: int = 1) -> list[Chunk]:
    """Chunk documents in order; see the module docstring for the rules, offsets and ids.

    >>> from ragauge.generate.documents import RawBlock, assemble
    >>> text, blocks = assemble([RawBlock("heading", "Цены", level=1),
    ...     RawBlock("table", rows=(("Работа", "Ед.", "Цена, руб."), ("Грунтовка", "м²", "60"),
    ...                             ("Штукатурка", "м²", "450")))])
    >>> doc = Document("p.csv", "Цены", "p.csv", "csv", text, blocks)
    >>> [c.text for c in chunk([doc], max_chars=45)]
    ['Работа | Ед. | Цена, руб.\\nГрунтовка | м² | 60', 'Работа | Ед. | Цена, руб.\\nШтукатурка | м² | 450']
    """
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 20:
        raise ConfigError(f"max_chars must be an integer of at least 20 (got {max_chars!r}); the default is 1200")
    if isinstance(overlap_sentences, bool) or not isinstance(overlap_sentences, int) or overlap_sentences < 0:
        raise ConfigError(f"overlap_sentences must be an integer >= 0 (got {overlap_sentences!r}); the default is 1")
    out: list[Chunk] = []
    for doc in documents:
        out.extend(_chunk_document(doc, max_chars, overlap_sentences))
    return out


__all__ = ["Chunk", "chunk", "normalise"]
