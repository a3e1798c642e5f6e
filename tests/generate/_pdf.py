"""A minimal PDF writer for tests: text lines on pages, Cyrillic through cp1251 codes and a ToUnicode map.

No PDF-writing library is a dependency, and no binary fixture is committed, so the tests build the
file byte by byte (about 1 KB a page).
"""

from __future__ import annotations

from pathlib import Path

_CMAP = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Test-UCS def /CMapType 2 def
1 begincodespacerange <00> <FF> endcodespacerange
2 beginbfrange
<20> <7E> <0020>
<C0> <FF> <0410>
endbfrange
6 beginbfchar
<A8> <0401>
<B8> <0451>
<AB> <00AB>
<BB> <00BB>
<96> <2013>
<97> <2014>
endbfchar
endcmap CMapName currentdict /CMap defineresource pop end end"""


def _escape(line: str) -> bytes:
    raw = line.encode("cp1251")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def write_pdf(path: Path, pages: list[list[str]], *, title: str | None = None) -> Path:
    """Write ``pages`` (each a list of lines; "" makes a blank line) as a PDF with a text layer."""
    objects: list[bytes] = []
    n_pages = len(pages)
    # 1 catalog, 2 pages, 3 font, 4 cmap, 5 info, then (page, content) pairs
    kids = " ".join(f"{6 + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 4 0 R >>")
    objects.append(b"<< /Length %d >>\nstream\n" % len(_CMAP) + _CMAP + b"\nendstream")
    info = f"<< /Title ({title}) /CreationDate (D:20260301120000) >>" if title else "<< >>"
    objects.append(info.encode("latin-1"))
    for i, lines in enumerate(pages):
        ops = [b"BT /F1 11 Tf 14 TL 50 800 Td"]
        for line in lines:
            ops.append(b"(" + _escape(line) + b") Tj T*")
        ops.append(b"ET")
        content = b"\n".join(ops)
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
                       f"/Resources << /Font << /F1 3 0 R >> >> /Contents {7 + 2 * i} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 5 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path
