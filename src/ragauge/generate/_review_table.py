"""The review sheet on disk: its columns, and writing/reading it as CSV or XLSX (chosen by suffix).

CSV: UTF-8 with a BOM (Excel then reads Cyrillic right) and ``;`` between fields by default -- the
list separator of Russian (and most European) Excel locales, so a double-click opens it in columns;
``delimiter=","`` for an English Excel. Reading sniffs the delimiter (``;``, ``,`` or tab) from the
header line and accepts UTF-8 (with or without BOM), UTF-16 with BOM, or cp1251 (what a Russian Excel
writes with "Save as CSV"). A cell that starts with ``= + - @``, a tab, CR or LF, or their full-width forms
``＝ ＋ － ＠`` (the OWASP CSV-injection list) is written with a leading ``'`` so that Excel shows it as
text instead of running it as a formula; so is a cell that starts with ``'`` itself. Reading removes
exactly that one added ``'`` (one leading ``'`` followed by such a character or another ``'``), so a
question that really starts with ``'=`` comes back as it was.

XLSX (openpyxl): sheet ``review`` with a styled, frozen header row (and frozen id column), column
widths, wrapped text, an auto-filter, a drop-down (accept/edit/reject) on ``decision``, the reviewer's
columns tinted; sheet ``about`` says what the file was exported from and how to fill it in.
Row numbers in errors are the spreadsheet's (the header is row 1).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ragauge.data._delimiter import detect_delimiter
from ragauge.errors import InputError, MissingDependencyError
from ragauge.files import write_bytes_atomically, write_text_atomically

#: (column, width in characters, filled in by the reviewer)
COLUMNS: tuple[tuple[str, int, bool], ...] = (
    ("id", 14, False), ("type", 13, False), ("slices", 16, False), ("behaviour", 12, False),
    ("question", 48, False), ("reference", 48, False), ("relevant_ids", 26, False), ("sources", 26, False),
    ("context", 70, False),
    ("decision", 11, True), ("question_edit", 40, True), ("reference_edit", 40, True),
    ("relevant_ids_edit", 26, True), ("comment", 30, True), ("reviewer", 14, True),
)
NAMES = tuple(name for name, _, _ in COLUMNS)
EDIT_COLUMNS = ("question_edit", "reference_edit", "relevant_ids_edit")
DECISIONS = ("accept", "edit", "reject")
SUFFIXES = (".csv", ".xlsx")

#: what Excel/LibreOffice may read as the start of a formula (OWASP CSV injection), and the quote itself
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_QUOTED_START = _FORMULA_START + ("'",)
# XML 1.0 forbids these control characters; openpyxl refuses them (same set as its ILLEGAL_CHARACTERS_RE)
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def clean(text: str) -> str:
    """What a cell can hold: control characters (other than tab/newline) dropped, CRLF -> LF."""
    return _ILLEGAL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def suffix_of(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"unknown review file type {path.suffix!r}", file=str(path),
                         hint="Use a .xlsx (Excel, recommended) or .csv file name")
    return suffix


@dataclass(frozen=True)
class Sheet:
    rows: list["SheetRow"]
    encoding: str  #: CSV: the encoding it was read in ("cp1251": Excel's legacy "CSV", may have lost characters)


@dataclass(frozen=True)
class SheetRow:
    row: int  #: spreadsheet row number (header = 1)
    values: Mapping[str, str]  #: column name -> cell text ("" when empty or the column is absent)


# --- writing ----------------------------------------------------------------------------------------
def write_csv(rows: Sequence[Mapping[str, str]], path: Path, *, delimiter: str = ";") -> None:
    if delimiter not in (";", ",", "\t"):
        raise InputError("CSV delimiter must be ';', ',' or a tab", field="delimiter", value=delimiter)
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(NAMES)
    for r in rows:
        cells = [clean(r.get(n, "")) for n in NAMES]
        writer.writerow([neutralise(c) for c in cells])
    write_text_atomically(path, buf.getvalue(), encoding="utf-8-sig")


def write_xlsx(rows: Sequence[Mapping[str, str]], path: Path, *, about: Sequence[tuple[str, str]]) -> None:
    try:
        from openpyxl import Workbook
        from openpyxl.styles import Alignment, Font, PatternFill
        from openpyxl.utils import get_column_letter
        from openpyxl.worksheet.datavalidation import DataValidation
    except ImportError:
        raise MissingDependencyError("openpyxl", feature="Review files in .xlsx", extra="generate") from None
    book = Workbook()
    ws = book.active
    ws.title = "review"
    head_font = Font(bold=True, color="FFFFFF")
    head_fill = PatternFill("solid", fgColor="305496")
    edit_head = PatternFill("solid", fgColor="C65911")
    edit_fill = PatternFill("solid", fgColor="FFF2CC")
    wrap = Alignment(wrap_text=True, vertical="top")
    for j, (name, width, editable) in enumerate(COLUMNS, 1):
        cell = ws.cell(row=1, column=j, value=name)
        cell.font, cell.fill = head_font, edit_head if editable else head_fill
        cell.alignment = Alignment(vertical="center")
        ws.column_dimensions[get_column_letter(j)].width = width
    for i, r in enumerate(rows, 2):
        for j, (name, _, editable) in enumerate(COLUMNS, 1):
            cell = ws.cell(row=i, column=j)
            cell.value = clean(r.get(name, "")) or None
            if cell.value is not None:
                cell.data_type = "s"  # a question starting with "=" is text, not a formula
            cell.alignment = wrap
            if editable:
                cell.fill = edit_fill
    ws.freeze_panes = "B2"
    last = max(len(rows) + 1, 2)
    ws.auto_filter.ref = f"A1:{get_column_letter(len(COLUMNS))}{last}"
    col = get_column_letter(NAMES.index("decision") + 1)
    dv = DataValidation(type="list", formula1='"' + ",".join(DECISIONS) + '"', allow_blank=True,
                        showErrorMessage=True, errorTitle="decision",
                        error="accept, edit or reject (empty = not reviewed)")
    dv.add(f"{col}2:{col}{last}")
    ws.add_data_validation(dv)
    info = book.create_sheet("about")
    info.column_dimensions["A"].width, info.column_dimensions["B"].width = 22, 100
    for i, (key, value) in enumerate(about, 1):
        info.cell(row=i, column=1, value=key).font = Font(bold=True)
        c = info.cell(row=i, column=2, value=clean(value))
        c.data_type, c.alignment = "s", Alignment(wrap_text=True, vertical="top")
    data = io.BytesIO()
    book.save(data)
    write_bytes_atomically(path, data.getvalue())


# --- reading ----------------------------------------------------------------------------------------
def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return clean(str(value))


def _header(cells: Sequence[str], path: Path) -> list[str]:
    names = [c.strip().lower() for c in cells]
    missing = [n for n in ("id", "decision") if n not in names]
    if missing:
        raise InputError(f"the header row has no column {', '.join(repr(m) for m in missing)} "
                         f"(found: {', '.join(n for n in names if n) or 'nothing'})", file=str(path), line=1,
                         hint="Export the review file with 'ragauge review export' and keep its header row")
    dup = sorted({n for n in names if n and names.count(n) > 1})
    if dup:
        raise InputError(f"the header row repeats column(s) {dup}", file=str(path), line=1,
                         hint="Keep one column of each name")
    return names


def _rows(header: list[str], data: Sequence[tuple[int, Sequence[str]]]) -> list[SheetRow]:
    out = []
    for rownum, cells in data:
        values = {n: "" for n in NAMES}
        for name, cell in zip(header, cells):
            if name:
                values[name] = cell
        if any(c.strip() for c in cells):  # Excel leaves fully blank rows behind; they say nothing
            out.append(SheetRow(rownum, values))
    return out


def neutralise(text: str) -> str:
    """A CSV cell that no spreadsheet runs as a formula: ``'`` before a dangerous first character or a ``'``.

    >>> neutralise("=1+1"), neutralise("'=x"), neutralise("＝1"), neutralise("ok")
    ("'=1+1", "''=x", "'＝1", 'ok')
    """
    return "'" + text if text.startswith(_QUOTED_START) else text


def unquote(text: str) -> str:
    """The inverse of :func:`neutralise`: one leading ``'`` removed when a dangerous character or a ``'``
    follows it. ``unquote(neutralise(x)) == x`` for every ``x``."""
    return text[1:] if text.startswith("'") and text[1:].startswith(_QUOTED_START) else text


def read_csv(path: Path) -> Sheet:
    from ragauge.generate._encoding import decode_bytes

    text, encoding = decode_bytes(path.read_bytes(), file=str(path))
    first = text.split("\n", 1)[0]
    delimiter = detect_delimiter(first, default=";", candidates=(";", ",", "\t"))  # quotes respected
    records = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    if not records:
        raise InputError("the review file is empty", file=str(path), hint="Export it again")
    header = _header(records[0], path)
    data = [(i, [unquote(clean(c)) for c in rec]) for i, rec in enumerate(records[1:], 2)]
    return Sheet(_rows(header, data), encoding)


def read_xlsx(path: Path) -> Sheet:
    try:
        from openpyxl import load_workbook
    except ImportError:
        raise MissingDependencyError("openpyxl", feature="Review files in .xlsx", extra="generate") from None
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises zipfile/KeyError/InvalidFileException for broken files
        raise InputError(f"cannot read the workbook ({type(exc).__name__}: {exc})", file=str(path),
                         hint="Save it again from Excel as .xlsx") from None
    try:
        ws = book["review"] if "review" in book.sheetnames else book.worksheets[0]
        rows = [(i, [_cell_text(v) for v in r]) for i, r in enumerate(ws.iter_rows(values_only=True), 1)]
    finally:
        book.close()
    if not rows:
        raise InputError("the review sheet is empty", file=str(path), hint="Export it again")
    return Sheet(_rows(_header(rows[0][1], path), rows[1:]), "xlsx")


def read_sheet(path: str | Path) -> Sheet:
    """The non-blank data rows of a review file (.csv or .xlsx)."""
    path = Path(path)
    suffix = suffix_of(path)
    if not path.exists():
        raise InputError("review file not found", file=str(path), hint="Check the path")
    return read_csv(path) if suffix == ".csv" else read_xlsx(path)


__all__ = ["COLUMNS", "DECISIONS", "EDIT_COLUMNS", "NAMES", "Sheet", "SheetRow", "clean", "read_sheet", "suffix_of",
           "write_csv", "write_xlsx"]
