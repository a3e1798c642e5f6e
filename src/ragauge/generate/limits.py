"""What one document may cost to load: its size, its zip's expansion, its blocks, pages and parse time.

A document over a limit is skipped with the reason (a :class:`~ragauge.generate.loaders.LoadProblem` in
``load_folder``'s list; an :class:`~ragauge.errors.InputError` from ``load_document``): never a crash,
never the run lost. The limits are one frozen :class:`DocumentLimits`; the defaults are documented in
``docs/generate.md`` ("Limits on untrusted documents").

DOCX and XLSX are zip archives: :func:`inspect_zip` reads the archive's directory and then decompresses
every member once, in 1 MiB steps (memory stays bounded), before python-docx or openpyxl sees the file.
It refuses too many members, a declared or *real* expanded size over the limit (an archive can lie
about its sizes), an extreme compression ratio, compression methods Office does not use, and too many
XML elements or paragraphs (python-docx builds a tree of every element in memory). The parse time is a
wall-clock deadline checked inside the loops over paragraphs, rows and pages (:class:`ParseBudget`), so
no signal or thread is involved: one step of a third-party parser (lxml parsing a part, pypdf
extracting one page) is not interrupted, which is why sizes are capped before parsing.
"""

from __future__ import annotations

import re
import struct
import time
import zipfile
import zlib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Callable

from ragauge.errors import ConfigError, InputError

MiB = 1 << 20
_CHUNK = MiB


@dataclass(frozen=True)
class DocumentLimits:
    """Caps on one document; every field is a positive number. ``DocumentLimits()`` is the default."""

    max_file_bytes: int = 50 * MiB  #: the file as stored (every format; text formats are read whole)
    max_expanded_bytes: int = 200 * MiB  #: DOCX/XLSX: sum of the zip members' sizes, declared and real
    max_zip_entries: int = 10_000  #: DOCX/XLSX: members of the archive
    max_compression_ratio: float = 200.0  #: DOCX/XLSX: expanded / compressed bytes (archives over 1 MiB expanded)
    max_xml_elements: int = 2_000_000  #: DOCX: XML elements of all parts; XLSX: of parts other than sheets
    max_blocks: int = 200_000  #: paragraphs + table rows (DOCX, XLSX, CSV, text formats)
    max_cells: int = 5_000_000  #: table cells (DOCX tables, XLSX sheets, CSV)
    max_pages: int = 5_000  #: PDF pages
    max_seconds: float = 60.0  #: wall-clock parse time of one document

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ConfigError(f"DocumentLimits.{f.name} must be a positive number (got {value!r})")


def _hint(field: str) -> str:
    return (f"Split the document into smaller files, or raise the limit: "
            f"load_folder(..., limits=DocumentLimits({field}=...))")


def _mb(n: float) -> str:
    return f"{n / MiB:,.1f} MiB"


class ParseBudget:
    """The limits of one document being parsed: counts blocks, cells and pages, and keeps its deadline.

    Parsers call :meth:`blocks` / :meth:`cells` / :meth:`check_time` inside their loops; going over a
    limit raises :class:`InputError` naming the file, the count, the limit and its field.
    """

    def __init__(self, path: str | Path, limits: DocumentLimits | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = str(path)
        self.limits = limits or DocumentLimits()
        self._clock = clock
        self._start = clock()
        self.n_blocks = 0
        self.n_cells = 0

    def over(self, what: str, field: str) -> InputError:
        limit = getattr(self.limits, field)
        shown = _mb(limit) if field.endswith("_bytes") else f"{limit:,}"
        return InputError(f"skipped: {what}, over the limit of {shown} (DocumentLimits.{field})",
                          file=self.path, hint=_hint(field))

    def elapsed(self) -> float:
        return self._clock() - self._start

    def check_time(self) -> None:
        seconds = self.elapsed()
        if seconds > self.limits.max_seconds:
            raise InputError(f"skipped: parsing took more than {self.limits.max_seconds:g} s "
                             f"({seconds:.1f} s so far; DocumentLimits.max_seconds)", file=self.path,
                             hint=_hint("max_seconds"))

    def blocks(self, n: int = 1) -> None:
        """Count ``n`` paragraphs or table rows (and check the deadline)."""
        self.n_blocks += n
        if self.n_blocks > self.limits.max_blocks:
            raise self.over(f"more than {self.n_blocks - 1:,} paragraphs and table rows", "max_blocks")
        self.check_time()

    def cells(self, n: int) -> None:
        self.n_cells += n
        if self.n_cells > self.limits.max_cells:
            raise self.over(f"more than {self.n_cells - n:,} table cells", "max_cells")

    def pages(self, n: int) -> None:
        if n > self.limits.max_pages:
            raise self.over(f"{n:,} pages", "max_pages")

    def file_size(self, size: int) -> None:
        if size > self.limits.max_file_bytes:
            raise self.over(f"the file is {_mb(size)}", "max_file_bytes")


# --------------------------------------------------------------------------- zip archives
_LOCAL_HEADER = b"PK\x03\x04"


def _member_chunks(fh, info: zipfile.ZipInfo):  # noqa: ANN001, ANN202 - a binary file, bytes chunks
    """Decompressed bytes of one member, at most 1 MiB at a time, straight from its local header."""
    fh.seek(info.header_offset)
    header = fh.read(30)
    if len(header) != 30 or header[:4] != _LOCAL_HEADER:
        raise zipfile.BadZipFile(f"bad local header for {info.filename!r}")
    name_len, extra_len = struct.unpack("<HH", header[26:30])
    fh.seek(info.header_offset + 30 + name_len + extra_len)
    left = info.compress_size
    if info.compress_type == zipfile.ZIP_STORED:
        while left > 0:
            data = fh.read(min(_CHUNK, left))
            if not data:
                return
            left -= len(data)
            yield data
        return
    inflate = zlib.decompressobj(-15)
    pending = b""
    while True:
        if not pending:
            if left <= 0:
                return
            pending = fh.read(min(_CHUNK, left))
            if not pending:
                return
            left -= len(pending)
        out = inflate.decompress(pending, _CHUNK)
        pending = inflate.unconsumed_tail
        if out:
            yield out
        if inflate.eof:
            return


def _count(data: bytes, tail: bytes, pattern: bytes) -> int:
    """Occurrences of ``pattern`` in ``tail + data`` where ``tail`` is shorter than ``pattern``."""
    return (tail + data).count(pattern)


@dataclass(frozen=True)
class ZipCounts:
    """What :func:`inspect_zip` found: members, bytes (real), XML elements, and DOCX paragraphs + rows."""

    entries: int
    expanded_bytes: int
    xml_elements: int
    blocks: int


#: The start tag of a WordprocessingML paragraph or table row, whatever prefix the namespace is bound to.
_BLOCK_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,30}:)?(?:p|tr)[\s/>]")


def inspect_zip(path: str | Path, budget: ParseBudget, *, kind: str, streamed: tuple[str, ...] = (),
                blocks_in: str | None = None) -> ZipCounts:
    """Check a DOCX/XLSX archive against ``budget``'s limits before a parser opens it.

    ``kind``: "DOCX" or "XLSX" (for messages). ``streamed``: member name prefixes whose XML is read
    as a stream by the parser (openpyxl's read-only sheets), so their elements are not counted.
    ``blocks_in``: the member whose ``<w:p>`` and ``<w:tr>`` elements are counted against
    ``max_blocks`` (DOCX: ``word/document.xml``). Raises :class:`InputError`.
    """
    lim = budget.limits
    where = str(path)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise InputError(f"the {kind} is not a valid zip archive ({exc})", file=where,
                         hint=f"Open and re-save it in its application; a renamed file is not a {kind}") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > lim.max_zip_entries:
            raise budget.over(f"the {kind} archive has {len(infos):,} members", "max_zip_entries")
        declared = sum(i.file_size for i in infos)
        if declared > lim.max_expanded_bytes:
            raise budget.over(f"the {kind} expands to {_mb(declared)}", "max_expanded_bytes")
        packed = sum(i.compress_size for i in infos)
        if declared > MiB and declared > lim.max_compression_ratio * max(packed, 1):
            raise budget.over(f"the {kind} expands {declared / max(packed, 1):,.0f} times "
                              f"({_mb(packed)} to {_mb(declared)}; a zip bomb?)", "max_compression_ratio")
        for info in infos:
            if info.flag_bits & 0x1:
                raise InputError(f"the {kind} has an encrypted member ({info.filename})", file=where,
                                 hint="Save an unprotected copy, or remove the file from the folder")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise InputError(f"the {kind} member {info.filename} uses zip compression method "
                                 f"{info.compress_type}, which Office does not write", file=where,
                                 hint="Open and re-save it in its application")
        real = elements = blocks = 0
        try:
            fh = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise InputError(f"the {kind} could not be read ({exc.strerror or exc})", file=where) from None
        try:
            for info in infos:
                size = 0
                xml = info.filename.endswith((".xml", ".rels")) and not info.filename.startswith(streamed)
                count_blocks = info.filename == blocks_in
                tail1 = tail4 = b""
                for data in _member_chunks(fh, info):
                    size += len(data)
                    if size > info.file_size:
                        raise InputError(f"the {kind} lies about its sizes: member {info.filename} declares "
                                         f"{info.file_size:,} bytes and holds more (a zip bomb?)", file=where,
                                         hint="Do not load files from an untrusted source; re-save a clean copy")
                    if xml:
                        elements += data.count(b"<") - _count(data, tail1, b"</")
                        tail1 = data[-1:]
                        if elements > lim.max_xml_elements:
                            raise budget.over(f"the {kind} has more than {lim.max_xml_elements:,} XML elements",
                                              "max_xml_elements")
                    if count_blocks:  # <w:p>, <x:p ...>, <p/> under any prefix (or none): a paragraph or row
                        window = tail4 + data
                        blocks += sum(1 for m in _BLOCK_TAG.finditer(window) if m.end() > len(tail4))
                        tail4 = window[-64:]
                        if blocks > lim.max_blocks:
                            raise budget.over(f"the {kind} has more than {lim.max_blocks:,} paragraphs and "
                                              "table rows", "max_blocks")
                    budget.check_time()
                real += size
        except (zipfile.BadZipFile, zlib.error, struct.error, EOFError) as exc:
            raise InputError(f"the {kind} archive is damaged ({exc})", file=where,
                             hint="Open and re-save it in its application, or replace the file") from None
        finally:
            fh.close()
    return ZipCounts(len(infos), real, elements, blocks)


__all__ = ["DocumentLimits", "ParseBudget", "ZipCounts", "inspect_zip"]
