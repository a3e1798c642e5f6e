"""What a loader returns: a :class:`Document` made of typed :class:`Block` s over one plain text.

Every loader produces a list of :class:`RawBlock` (kind + content, no offsets); :func:`assemble`
joins them into the document's plain text and records each block's character span, so that
``doc.text[block.start:block.end] == block.text`` always holds.

Layout of the plain text: blocks are separated by a blank line (``"\\n\\n"``); a table is its header
row then one line a row, cells joined by ``" | "``::

    Работа | Ед. | Цена, руб.
    Штукатурка | м² | 450
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

BlockKind = Literal["heading", "paragraph", "list_item", "table"]

BLOCK_SEPARATOR = "\n\n"
CELL_SEPARATOR = " | "


@dataclass(frozen=True)
class RawBlock:
    """A block before assembly: what a loader found, in reading order."""

    kind: BlockKind
    text: str = ""  #: heading, paragraph or list item text (ignored for tables)
    level: int = 0  #: heading level: 1 = top (h1, #, Heading 1); 0 = a document title style
    rows: tuple[tuple[str, ...], ...] = ()  #: table rows, the first one is the header
    page: int | None = None  #: 1-based page (PDF) where known


@dataclass(frozen=True)
class Block:
    """One typed block with its span in :attr:`Document.text`."""

    kind: BlockKind
    text: str
    start: int
    end: int
    level: int = 0
    header: tuple[str, ...] = ()  #: tables only
    rows: tuple[tuple[str, ...], ...] = ()  #: tables only, data rows (header excluded)
    row_spans: tuple[tuple[int, int], ...] = ()  #: tables only, (start, end) of each data row
    page: int | None = None


@dataclass(frozen=True)
class Document:
    """A loaded document: stable id (relative path), title, version/date, source path and blocks."""

    id: str
    title: str
    path: str
    format: str
    text: str
    blocks: tuple[Block, ...]
    version: str | None = None  #: e.g. "2" from "Version 2", or metadata
    date: str | None = None  #: ISO date, e.g. "2026-03-01" from "ред. от 01.03.2026"
    metadata: dict[str, Any] = field(default_factory=dict)  #: encoding, date_source, sheet names...


def row_text(cells: tuple[str, ...]) -> str:
    return CELL_SEPARATOR.join(cells)


def clean_inline(text: str) -> str:
    """Collapse runs of spaces/tabs/newlines inside one block to single spaces."""
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip()


def assemble(raw: list[RawBlock]) -> tuple[str, tuple[Block, ...]]:
    """Join raw blocks into plain text; drop empty ones; return the text and the positioned blocks.

    >>> text, blocks = assemble([RawBlock("heading", "Цены", level=1),
    ...                          RawBlock("table", rows=(("Работа", "Цена"), ("Штукатурка", "450")))])
    >>> text
    'Цены\\n\\nРабота | Цена\\nШтукатурка | 450'
    >>> text[blocks[1].row_spans[0][0]:blocks[1].row_spans[0][1]]
    'Штукатурка | 450'
    """
    parts: list[str] = []
    blocks: list[Block] = []
    pos = 0
    for item in raw:
        if item.kind == "table":
            rows = tuple(tuple(clean_inline(c) for c in row) for row in item.rows)
            rows = tuple(r for r in rows if any(r))
            if not rows:
                continue
            lines = [row_text(r) for r in rows]
            text = "\n".join(lines)
        else:
            text = clean_inline(item.text)
            if not text:
                continue
        if parts:
            parts.append(BLOCK_SEPARATOR)
            pos += len(BLOCK_SEPARATOR)
        start = pos
        if item.kind == "table":
            spans = []
            offset = start + len(lines[0]) + 1
            for line in lines[1:]:
                spans.append((offset, offset + len(line)))
                offset += len(line) + 1
            block = Block("table", text, start, start + len(text), header=rows[0], rows=rows[1:],
                          row_spans=tuple(spans), page=item.page)
        else:
            block = Block(item.kind, text, start, start + len(text), level=item.level, page=item.page)
        parts.append(text)
        pos += len(text)
        blocks.append(block)
    return "".join(parts), tuple(blocks)


_DATE = r"(\d{1,2})[./](\d{1,2})[./](\d{4})"
_DATE_PATTERNS = [
    re.compile(r"(?:ред(?:\.|акци[яи])?|редакци[яи]|от|действует\s+с|dated|effective|as\s+of)\s*(?:от\s*)?" + _DATE,
               re.IGNORECASE),
    re.compile(r"(?:ред(?:\.|акци[яи])?|от|dated|effective|as\s+of|updated)\s*:?\s*(\d{4})-(\d{2})-(\d{2})",
               re.IGNORECASE),
]
_VERSION = re.compile(r"(?:\bversion|\bверсия|\bвер\.|\brev(?:ision)?\.?)\s*:?\s*(v?\d+(?:\.\d+)*)\b"
                      r"|\bv(\d+(?:\.\d+)+)\b", re.IGNORECASE)


def find_version(text: str, *, lines: int = 10) -> tuple[str | None, str | None]:
    """Look for a version and an edition date in the first ``lines`` non-empty lines.

    >>> find_version("Прайс-лист\\nред. от 01.03.2026")
    (None, '2026-03-01')
    >>> find_version("Warranty terms, Version 2")
    ('2', None)
    """
    head = "\n".join([ln for ln in text.splitlines() if ln.strip()][:lines])
    version = date = None
    m = _VERSION.search(head)
    if m:
        version = (m.group(1) or m.group(2)).lstrip("vV")
    for i, pattern in enumerate(_DATE_PATTERNS):
        m = pattern.search(head)
        if m:
            if i == 0:
                day, month, year = (int(g) for g in m.groups())
            else:
                year, month, day = (int(g) for g in m.groups())
            if 1 <= month <= 12 and 1 <= day <= 31:
                date = f"{year:04d}-{month:02d}-{day:02d}"
                break
    return version, date


__all__ = ["Block", "BlockKind", "Document", "RawBlock", "assemble", "find_version"]
