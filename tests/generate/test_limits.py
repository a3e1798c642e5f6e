"""Hostile documents (issue 14): zip bombs, lying archives, millions of paragraphs, slow parses.

Every file is built here, in a few seconds and little memory: a zip member is written from a generator
of chunks, so a 300 MB member never exists in memory.
"""

from __future__ import annotations

import io
import json
import re
import struct
import subprocess
import sys
import time
import zipfile
import zlib
from pathlib import Path
from typing import Iterator

import pytest

from ragauge.cli.main import main
from ragauge.errors import ConfigError, ExitCode, InputError
from ragauge.generate import DocumentLimits, load_document, load_folder
from ragauge.generate._office import parse_docx, parse_pdf
from ragauge.generate.limits import ParseBudget, inspect_zip

docx = pytest.importorskip("docx", reason="python-docx builds the DOCX template")

_HEAD = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
         b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>')
_TAIL = b"</w:body></w:document>"
_PARA = b"<w:p><w:r><w:t>Warranty is 12 months.</w:t></w:r></w:p>"


def _docx(path: Path, body: Iterator[bytes], *, level: int = 1) -> Path:
    """python-docx's blank document whose word/document.xml is ``_HEAD + body + _TAIL``, streamed."""
    template = io.BytesIO()
    docx.Document().save(template)
    with zipfile.ZipFile(template) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED,
                                                           compresslevel=level) as dst:
        for info in src.infolist():
            if info.filename != "word/document.xml":
                dst.writestr(info.filename, src.read(info))
        with dst.open("word/document.xml", "w", force_zip64=True) as fh:
            fh.write(_HEAD)
            for chunk in body:
                fh.write(chunk)
            fh.write(_TAIL)
    return path


def _repeat(unit: bytes, total: int) -> Iterator[bytes]:
    chunk = unit * ((4 << 20) // len(unit))
    for _ in range(total // len(chunk)):
        yield chunk


def _bomb(path: Path, mb: int = 300) -> Path:
    """A DOCX whose document.xml expands to ``mb`` MB of paragraphs (about 1 MB on disk)."""
    return _docx(path, _repeat(_PARA, mb << 20))


def _paragraphs(path: Path, n: int, *, numbered: bool = False) -> Path:
    def body() -> Iterator[bytes]:
        for start in range(0, n, 20_000):
            stop = min(n, start + 20_000)
            yield (b"".join(b"<w:p><w:r><w:t>%d</w:t></w:r></w:p>" % i for i in range(start, stop)) if numbered
                   else b"<w:p><w:r><w:t>x</w:t></w:r></w:p>" * (stop - start))
    return _docx(path, body())


def _small_docx(path: Path, paragraphs: int = 3) -> Path:
    document = docx.Document()
    for i in range(paragraphs):
        document.add_paragraph(f"Пункт {i}: гарантия 12 месяцев.")
    document.save(path)
    return path


def _lying_zip(path: Path, real: int, declared: int) -> Path:
    """A DOCX whose document.xml holds ``real`` bytes but declares ``declared`` (and their CRC)."""
    _docx(path, _repeat(b" ", real))
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as zf:
        info = zf.getinfo("word/document.xml")
        with zf.open(info) as fh:
            crc = zlib.crc32(fh.read(declared))
    # the member was written as zip64: its local header holds the sizes in a zip64 extra field
    local = info.header_offset
    struct.pack_into("<I", data, local + 14, crc)
    name_len, extra_len = struct.unpack_from("<HH", data, local + 26)
    extra = local + 30 + name_len
    assert struct.unpack_from("<H", data, extra)[0] == 1  # zip64 extra: uncompressed, compressed sizes
    struct.pack_into("<Q", data, extra + 4, declared)
    central = data.rindex(b"word/document.xml") - 46
    assert data[central:central + 4] == b"PK\x01\x02"
    struct.pack_into("<I", data, central + 16, crc)
    c_name, c_extra = struct.unpack_from("<HH", data, central + 28)
    c_ext = central + 46 + c_name
    if c_extra and struct.unpack_from("<H", data, c_ext)[0] == 1:
        struct.pack_into("<Q", data, c_ext + 4, declared)
    else:  # under 4 GiB the central directory holds the 32-bit size
        struct.pack_into("<I", data, central + 24, declared)
    path.write_bytes(bytes(data))
    with zipfile.ZipFile(path) as zf:
        assert zf.getinfo("word/document.xml").file_size == declared
    return path


def _problem(folder: Path) -> str:
    docs, problems = load_folder(folder)
    assert not docs and len(problems) == 1
    return problems[0].reason


# --------------------------------------------------------------------------- zip archives
def test_zip_bomb_is_skipped_with_its_reason_fast(tmp_path: Path) -> None:
    _bomb(tmp_path / "bomb.docx")
    assert (tmp_path / "bomb.docx").stat().st_size < 5 << 20
    t = time.perf_counter()
    reason = _problem(tmp_path)
    assert re.match(r"skipped: the DOCX expands to 30\d\.\d MiB, over the limit of 200\.0 MiB", reason)
    assert "DocumentLimits.max_expanded_bytes" in reason
    assert time.perf_counter() - t < 5  # the sizes are read from the directory, nothing is inflated


def test_high_compression_ratio_is_skipped(tmp_path: Path) -> None:
    _docx(tmp_path / "dense.docx", _repeat(b" " * 64, 40 << 20), level=9)  # 40 MB: under the size limit
    reason = _problem(tmp_path)
    assert "expands" in reason and "times" in reason and "DocumentLimits.max_compression_ratio" in reason


def test_an_archive_that_lies_about_its_size_is_refused(tmp_path: Path) -> None:
    path = _lying_zip(tmp_path / "liar.docx", real=8 << 20, declared=5000)
    reason = _problem(tmp_path)
    assert "lies about its sizes" in reason and "word/document.xml" in reason
    with pytest.raises(InputError, match="lies about its sizes"):
        inspect_zip(path, ParseBudget(path), kind="DOCX")


def test_too_many_members_and_elements_and_other_compression(tmp_path: Path) -> None:
    path = _small_docx(tmp_path / "a.docx")
    with pytest.raises(InputError, match="max_zip_entries"):
        load_document(path, limits=DocumentLimits(max_zip_entries=3))
    with pytest.raises(InputError, match="max_xml_elements"):
        load_document(path, limits=DocumentLimits(max_xml_elements=50))
    bz = tmp_path / "bz.docx"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(bz, "w", zipfile.ZIP_BZIP2) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info))
    with pytest.raises(InputError, match="compression method 12"):
        load_document(bz)
    assert load_document(path).text.startswith("Пункт 0")


def test_a_million_paragraphs_are_skipped_before_python_docx_parses_them(tmp_path: Path) -> None:
    _paragraphs(tmp_path / "long.docx", 1_800_000)  # ~300 KB, 63 MB of XML
    assert (tmp_path / "long.docx").stat().st_size < 1 << 20
    t = time.perf_counter()
    assert _problem(tmp_path).startswith("skipped: ")
    reason = load_folder(tmp_path, limits=DocumentLimits(max_compression_ratio=10_000))[1][0].reason
    assert reason == ("skipped: the DOCX has more than 200,000 paragraphs and table rows, over the limit of "
                      "200,000 (DocumentLimits.max_blocks)")
    assert time.perf_counter() - t < 10


def test_paragraph_cap_inside_the_parse_loop(tmp_path: Path) -> None:
    path = _small_docx(tmp_path / "a.docx", paragraphs=30)
    budget = ParseBudget(path, DocumentLimits(max_blocks=1000))
    parse_docx(path, budget)
    assert budget.n_blocks == 30
    table = docx.Document()
    t = table.add_table(rows=20, cols=3)
    t.rows[0].cells[0].text = "Работа"
    table.save(tmp_path / "t.docx")
    with pytest.raises(InputError, match="max_cells"):
        load_document(tmp_path / "t.docx", limits=DocumentLimits(max_cells=30))


def test_peak_memory_stays_bounded(tmp_path: Path) -> None:
    """A child process loads the bomb and the million-paragraph file; its peak RSS grows by < 150 MB."""
    (tmp_path / "docs").mkdir()
    _bomb(tmp_path / "docs" / "bomb.docx", mb=300)
    _paragraphs(tmp_path / "docs" / "long.docx", 1_800_000, numbered=True)
    code = (
        "import json, resource, sys\n"
        "from ragauge.generate import load_folder\n"
        "import docx, openpyxl, pypdf\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "docs, problems = load_folder(sys.argv[1])\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(json.dumps({'delta_kib': after - before, 'reasons': [p.reason for p in problems]}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "docs")], capture_output=True, text=True,
                         timeout=120, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(result["reasons"]) == 2 and all(r.startswith("skipped:") for r in result["reasons"])
    assert any("max_blocks" in r for r in result["reasons"])  # numbered: ratio ~15, counted
    assert result["delta_kib"] < 150 * 1024, result


# --------------------------------------------------------------------------- other formats and the deadline
class _Clock:
    """A clock that advances one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_deadline_is_checked_inside_the_docx_loop(tmp_path: Path) -> None:
    path = _small_docx(tmp_path / "a.docx", paragraphs=40)
    with pytest.raises(InputError, match=r"parsing took more than 20 s .*DocumentLimits.max_seconds"):
        parse_docx(path, ParseBudget(path, DocumentLimits(max_seconds=20), clock=_Clock()))


def test_pdf_pages_and_deadline(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    from _pdf import write_pdf

    path = write_pdf(tmp_path / "a.pdf", [["Page one text."], ["Page two text."], ["Page three."]])
    with pytest.raises(InputError, match=r"skipped: 3 pages, over the limit of 2 \(DocumentLimits.max_pages\)"):
        load_document(path, limits=DocumentLimits(max_pages=2))
    clock = _Clock()
    budget = ParseBudget(path, DocumentLimits(max_seconds=2.5), clock=clock)
    with pytest.raises(InputError, match="max_seconds"):
        parse_pdf(path, budget)
    assert load_document(path).metadata["pages"] == 3


def test_text_file_size_and_block_caps(tmp_path: Path) -> None:
    (tmp_path / "big.md").write_text("# Title\n\n" + "A paragraph.\n\n" * 200, encoding="utf-8")
    with pytest.raises(InputError, match=r"the file is 0.0 MiB, over the limit of 0.0 MiB"):
        load_document(tmp_path / "big.md", limits=DocumentLimits(max_file_bytes=1000))
    with pytest.raises(InputError, match="max_blocks"):
        load_document(tmp_path / "big.md", limits=DocumentLimits(max_blocks=100))
    (tmp_path / "t.csv").write_text("a,b\n" + "1,2\n" * 50, encoding="utf-8")
    with pytest.raises(InputError, match="max_blocks"):
        load_document(tmp_path / "t.csv", limits=DocumentLimits(max_blocks=20))
    assert len(load_document(tmp_path / "t.csv").blocks[0].rows) == 50


def test_xlsx_rows_are_counted_but_empty_rows_are_not(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["Работа", "Цена"])
    for i in range(30):
        ws.append([f"работа {i}", i * 10])
    ws.cell(row=200_000, column=1, value="последняя строка")  # 199,969 empty rows in between
    book.save(tmp_path / "sparse.xlsx")
    t = time.perf_counter()
    doc = load_document(tmp_path / "sparse.xlsx", limits=DocumentLimits(max_blocks=40))
    assert "последняя строка" in doc.text and time.perf_counter() - t < 10
    with pytest.raises(InputError, match="max_blocks"):
        load_document(tmp_path / "sparse.xlsx", limits=DocumentLimits(max_blocks=20))


def test_limits_validate_themselves() -> None:
    assert DocumentLimits().max_expanded_bytes == 200 << 20
    for bad in (0, -1, "10", True):
        with pytest.raises(ConfigError, match="max_pages must be a positive number"):
            DocumentLimits(max_pages=bad)  # type: ignore[arg-type]


def test_generate_command_reports_the_skipped_bomb_and_goes_on(tmp_path: Path, capsys) -> None:
    pytest.importorskip("pymorphy3")
    docs = tmp_path / "docs"
    docs.mkdir()
    _bomb(docs / "bomb.docx")
    (docs / "prices.md").write_text(
        "# Прайс-лист\n\nред. от 01.03.2026\n\n| Работа | Ед. | Цена, руб. |\n|---|---|---|\n"
        "| Штукатурка | м² | 450 |\n| Шпаклёвка | м² | 380 |\n| Укладка ламината | м² | 520 |\n\n"
        "Гарантия на работы составляет 12 месяцев с даты подписания акта.\n", encoding="utf-8")
    out = tmp_path / "golden.jsonl"
    assert main(["generate", str(docs), "--out", str(out), "--n", "5"]) == ExitCode.OK
    err = capsys.readouterr().err
    assert "skipped 1 file(s)" in err and "bomb.docx: skipped: the DOCX expands to 30" in err


def test_paragraphs_under_another_prefix_are_counted_too(tmp_path: Path) -> None:
    """The namespace may be bound to any prefix (review finding: `x:p` passed the pre-count, python-docx then
    parsed 1.95M paragraphs for 5 s and 771 MB)."""
    def body() -> Iterator[bytes]:
        for _ in range(15):
            yield b'<x:p xmlns:x="urn:w"><x:r><x:t>x</x:t></x:r></x:p>' * 20_000
    _docx(tmp_path / "prefixed.docx", body())
    reason = load_folder(tmp_path, limits=DocumentLimits(max_compression_ratio=10_000))[1][0].reason
    assert "DocumentLimits.max_blocks" in reason
