"""PDF, DOCX, XLSX and CSV to raw blocks. Each parser takes a path (or text) and a
:class:`~ragauge.generate.limits.ParseBudget`, and returns ``(blocks, metadata)``; failures and a
document over a limit raise :class:`ragauge.errors.InputError` with a hint.

The third-party imports are lazy so that ``import ragauge.generate`` works without them; a missing one
raises :class:`ragauge.errors.MissingDependencyError` naming the install command.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

from ragauge.errors import InputError, MissingDependencyError
from ragauge.generate._markup import parse_text
from ragauge.generate.documents import RawBlock, clean_inline
from ragauge.generate.limits import ParseBudget, inspect_zip


def _need(module: str, package: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependencyError(package, feature=f"Reading {package} files", extra="generate") from None


# --------------------------------------------------------------------------- PDF
def parse_pdf(path: Path, budget: ParseBudget | None = None) -> tuple[list[RawBlock], dict[str, Any]]:
    """Text layer of each page (pypdf), paragraphs split on blank lines, hyphenation at line ends undone.

    Limits: ``max_pages`` before any page is read, the deadline between pages (pypdf itself caps one
    decompressed stream at 75 MB)."""
    pypdf = _need("pypdf", "pypdf")
    budget = budget or ParseBudget(path)
    try:
        reader = pypdf.PdfReader(str(path))
        if reader.is_encrypted and reader.decrypt("") == 0:
            raise InputError("the PDF is password-protected", file=str(path),
                             hint="Save an unprotected copy, or remove the file from the folder")
        budget.pages(len(reader.pages))
        pages = []
        for page in reader.pages:
            budget.check_time()
            pages.append(page.extract_text() or "")
        info = reader.metadata or {}
    except InputError:
        raise
    except Exception as exc:  # pypdf raises many types for broken files
        raise InputError(f"the PDF could not be read ({type(exc).__name__}: {exc})", file=str(path),
                         hint="Open it in a PDF viewer to check it; re-export or replace the file") from None
    meta: dict[str, Any] = {"pages": len(pages)}
    title = info.get("/Title") if hasattr(info, "get") else None
    if title and str(title).strip():
        meta["title"] = str(title).strip()
    raw_date = str(info.get("/ModDate") or info.get("/CreationDate") or "") if hasattr(info, "get") else ""
    m = re.match(r"D:(\d{4})(\d{2})(\d{2})", raw_date)
    if m:
        meta["date"] = f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    blocks: list[RawBlock] = []
    for number, page_text in enumerate(pages, start=1):
        page_text = re.sub(r"(\w)-\n(\w)", r"\1\2", page_text)
        for block in parse_text(_pdf_paragraphs(page_text)):
            blocks.append(RawBlock(block.kind, block.text, block.level, block.rows, page=number))
    if pages and not any(p.strip() for p in pages):
        raise InputError("the PDF has no text layer (a scan or images only)", file=str(path),
                         hint="Run OCR on it first (e.g. `ocrmypdf in.pdf out.pdf`) and load the result")
    return blocks, meta


_LIST_START = re.compile(r"^\s*(?:[-*+•–—]|\d{1,3}[.)])\s+")


#: A short unpunctuated tail after a sentence's end on one PDF line: a heading the text layer put there.
_GLUED_HEADING = re.compile(r"(?<=[.!?])\s+([A-ZА-ЯЁ][\w-]*(?: [\w-]+){0,4})$")


def _pdf_paragraphs(page_text: str) -> str:
    """Insert blank lines where a paragraph probably ends: pypdf returns one line a text line.

    A line ends a paragraph when it ends with . ! ? : ; and is clearly shorter than the page's long
    lines, when it is a short unpunctuated line (a heading), or when the next line is a list item.
    """
    lines = [ln.rstrip() for ln in page_text.split("\n")]
    lengths = sorted(len(ln) for ln in lines if ln.strip())
    if not lengths:
        return ""
    typical = lengths[int(len(lengths) * 0.9) - 1 if len(lengths) > 1 else 0]
    out: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        glued = _GLUED_HEADING.search(stripped) if nxt[:1].isupper() else None
        if glued:  # "… 20%. Data protection" + "We never share …": the heading after the last sentence
            out += [line[:line.rfind(glued.group(1))].rstrip(), "", glued.group(1), ""]
            continue
        out.append(line)
        if not stripped or not nxt:
            continue
        short = len(stripped) < 0.8 * typical
        if ((short and stripped[-1] in ".!?:;")
                or (short and stripped[-1] not in ".,;:!?-" and len(stripped) <= 100 and nxt[:1].isupper())
                or _LIST_START.match(nxt)):
            out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------- DOCX
_HEADING_STYLE = re.compile(r"^(?:heading|заголовок)\s*(\d)$", re.IGNORECASE)


def _docx_rows(table: Any, budget: ParseBudget) -> list[tuple[str, ...]]:
    rows = []
    for row in table.rows:
        budget.blocks()
        cells, seen = [], set()
        row_cells = row.cells
        budget.cells(len(row_cells))
        for cell in row_cells:
            if id(cell._tc) in seen:  # a horizontally merged cell is repeated by python-docx
                continue
            seen.add(id(cell._tc))
            cells.append(clean_inline(cell.text))
        rows.append(tuple(cells))
    return rows


def parse_docx(path: Path, budget: ParseBudget | None = None) -> tuple[list[RawBlock], dict[str, Any]]:
    """Paragraphs in body order; headings by style (Heading N, Заголовок N, Title); list styles and
    numbered paragraphs as list items; tables with their first row as header.

    The archive is checked by :func:`~ragauge.generate.limits.inspect_zip` first (sizes, elements,
    paragraphs); paragraphs and rows are counted and the deadline checked while reading."""
    docx = _need("docx", "python-docx")
    budget = budget or ParseBudget(path)
    inspect_zip(path, budget, kind="DOCX", blocks_in="word/document.xml")
    try:
        document = docx.Document(str(path))
    except Exception as exc:
        raise InputError(f"the DOCX could not be opened ({type(exc).__name__}: {exc})", file=str(path),
                         hint="Open and re-save it in Word/LibreOffice; old .doc files must be saved as .docx") from None
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    blocks: list[RawBlock] = []
    budget.check_time()
    for child in document.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "tbl":
            blocks.append(RawBlock("table", rows=tuple(_docx_rows(Table(child, document), budget))))
            continue
        if tag != "p":
            continue
        budget.blocks()
        para = Paragraph(child, document)
        text = para.text
        if not text.strip():
            continue
        style = (para.style.name if para.style is not None else "") or ""
        m = _HEADING_STYLE.match(style.strip())
        if m:
            blocks.append(RawBlock("heading", text, level=int(m.group(1))))
        elif style.lower() in {"title", "название", "заголовок"}:
            blocks.append(RawBlock("heading", text, level=0))  # above Heading 1
        elif "list" in style.lower() or "спис" in style.lower() or child.find(".//" + _W + "numPr") is not None:
            blocks.append(RawBlock("list_item", text))
        else:
            blocks.append(RawBlock("paragraph", text))
    props = document.core_properties
    meta: dict[str, Any] = {}
    if props.title:
        meta["title"] = props.title.strip()
    if props.version:
        meta["version"] = props.version.strip()
    # python-docx's blank template carries 2013-12-23 23:15 as created/modified: a file made by a script and
    # never saved by Word would look like a 2013 edition. That stamp says nothing about the document.
    if props.modified and props.modified.replace(tzinfo=None) != _PYTHON_DOCX_TEMPLATE_STAMP:
        meta["date"] = props.modified.date().isoformat()
    return blocks, meta


_PYTHON_DOCX_TEMPLATE_STAMP = dt.datetime(2013, 12, 23, 23, 15)


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


# --------------------------------------------------------------------------- tables
def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return clean_inline(str(value))


def table_blocks(rows: list[tuple[str, ...]]) -> list[RawBlock]:
    """Rows of a sheet to blocks: leading one-cell rows (title, "ред. от ...") become paragraphs, the
    first row with two or more filled cells is the header, and the rest is one table."""
    rows = [r for r in rows if any(c for c in r)]
    width = max((len(r) for r in rows), default=0)
    blocks: list[RawBlock] = []
    i = 0
    while i < len(rows) and sum(1 for c in rows[i] if c) < 2:
        blocks.append(RawBlock("paragraph", " ".join(c for c in rows[i] if c)))
        i += 1
    body = rows[i:]
    if body:
        # trim columns empty in every row (openpyxl reports the used range, often wider than the data)
        keep = [j for j in range(width) if any(j < len(r) and r[j] for r in body)]
        table = tuple(tuple(r[j] if j < len(r) else "" for j in keep) for r in body)
        blocks.append(RawBlock("table", rows=table))
    return blocks


def parse_csv(text: str, budget: ParseBudget | None = None) -> list[RawBlock]:
    """CSV text (already decoded) to blocks; the delimiter is sniffed among ``, ; tab |``."""
    budget = budget or ParseBudget("(csv text)")
    sample = text[:8192]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    rows = []
    for row in csv.reader(io.StringIO(text), dialect):
        budget.blocks()
        budget.cells(len(row))
        rows.append(tuple(_cell(c) for c in row))
    return table_blocks(rows)


def parse_xlsx(path: Path, budget: ParseBudget | None = None) -> tuple[list[RawBlock], dict[str, Any]]:
    """Every visible sheet: a heading with its name (when the book has several sheets), then its table.

    The archive is checked by :func:`~ragauge.generate.limits.inspect_zip` first (sheets are streamed
    by openpyxl's read-only mode, so only the other parts' XML elements count); rows and cells are
    counted and the deadline checked while reading."""
    openpyxl = _need("openpyxl", "openpyxl")
    budget = budget or ParseBudget(path)
    inspect_zip(path, budget, kind="XLSX", streamed=("xl/worksheets/",))
    try:
        book = openpyxl.load_workbook(str(path), read_only=True, data_only=True)
    except Exception as exc:
        raise InputError(f"the XLSX could not be opened ({type(exc).__name__}: {exc})", file=str(path),
                         hint="Open and re-save it in Excel/LibreOffice; old .xls files must be saved as .xlsx") from None
    try:
        sheets = [ws for ws in book.worksheets if getattr(ws, "sheet_state", "visible") == "visible"]
        blocks: list[RawBlock] = []
        for ws in sheets:
            rows = []
            for row in ws.iter_rows(values_only=True):
                if all(v is None or v == "" for v in row):  # dropped by table_blocks anyway; a sheet
                    budget.check_time()  # formatted down to row 1048576 yields a million of these
                    continue
                budget.blocks()
                budget.cells(len(row))
                rows.append(tuple(_cell(v) for v in row))
            sheet_blocks = table_blocks(rows)
            if sheet_blocks and len(sheets) > 1:
                blocks.append(RawBlock("heading", ws.title, level=1))
            blocks.extend(sheet_blocks)
        meta: dict[str, Any] = {"sheets": [ws.title for ws in sheets]}
        props = book.properties
        if props.title:
            meta["title"] = props.title.strip()
        if getattr(props, "version", None):
            meta["version"] = str(props.version).strip()
    finally:
        book.close()
    return blocks, meta
