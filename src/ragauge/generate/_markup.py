"""Plain text, Markdown and HTML to raw blocks. Pure functions over strings (no file access).

Plain text has no markup, so structure is inferred conservatively: blank lines separate paragraphs,
``- item`` / ``1) item`` lines are list items, runs of ``a | b | c`` lines are tables, and a short
single-line paragraph without final punctuation (``2.1 Штукатурные работы``) is a heading whose
level is the depth of its number (1 when unnumbered).
"""

from __future__ import annotations

import re

from ragauge.generate.documents import RawBlock, clean_inline

_LIST = re.compile(r"^\s*(?:[-*+•–—]|\d{1,3}[.)])\s+(.*)$")
_NUMBERED_HEADING = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.?\s+\S")
_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_EMPH = re.compile(r"(\*\*|__|`)(.+?)\1")


def _cells(line: str) -> tuple[str, ...]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    return tuple(c.strip() for c in line.split("|"))


def _is_table_line(line: str) -> bool:
    return line.count("|") >= 2 or (line.count("|") == 1 and not line.strip().startswith("|"))


def _looks_like_heading(para: str) -> int:
    """Heading level for a short, unpunctuated single line, else 0."""
    if "\n" in para or len(para) > 100 or para[-1] in ".,;:!?…" or _LIST.match(para) and not _NUMBERED_HEADING.match(para):
        return 0
    m = _NUMBERED_HEADING.match(para)
    if m:
        return min(m.group(1).count(".") + 1, 6)
    return 1 if para[0].isupper() and len(para.split()) <= 12 else 0


def _paragraph_blocks(para: str, *, infer_headings: bool) -> list[RawBlock]:
    lines = [ln for ln in para.split("\n") if ln.strip()]
    if len(lines) >= 2 and all(_is_table_line(ln) for ln in lines):
        rows = [_cells(ln) for ln in lines if not _TABLE_SEP.match(ln)]
        return [RawBlock("table", rows=tuple(rows))]
    if infer_headings:
        level = _looks_like_heading(para.strip())
        if level:
            return [RawBlock("heading", para, level=level)]
    out: list[RawBlock] = []
    text: list[str] = []
    for line in lines:
        m = _LIST.match(line)
        if m:
            if text:
                out.append(RawBlock("paragraph", " ".join(text)))
                text = []
            out.append(RawBlock("list_item", m.group(1)))
        elif out and out[-1].kind == "list_item" and line[:1].isspace():
            out[-1] = RawBlock("list_item", out[-1].text + " " + line)  # wrapped list item
        else:
            text.append(line)
    if text:
        out.append(RawBlock("paragraph", " ".join(text)))
    return out


def parse_text(text: str) -> list[RawBlock]:
    """Plain text to blocks.

    >>> [(b.kind, b.text) for b in parse_text("1. Общие положения\\n\\nЦены в рублях.\\n- выезд бесплатно")]
    [('heading', '1. Общие положения'), ('paragraph', 'Цены в рублях.'), ('list_item', 'выезд бесплатно')]
    """
    paras = re.split(r"\n\s*\n", text.replace("\r\n", "\n").replace("\r", "\n"))
    blocks: list[RawBlock] = []
    for para in paras:
        if para.strip():
            blocks.extend(_paragraph_blocks(para, infer_headings=True))
    return blocks


def _md_inline(text: str) -> str:
    return _MD_EMPH.sub(r"\2", _MD_LINK.sub(r"\1", text))


def parse_markdown(text: str) -> list[RawBlock]:
    """Markdown to blocks: ATX headings, lists, pipe tables, fenced code kept as a paragraph."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    blocks: list[RawBlock] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            para = "\n".join(buf)
            blocks.extend(_paragraph_blocks(_md_inline(para), infer_headings=False))
            buf.clear()

    in_fence = False
    fence: list[str] = []
    for line in text.split("\n"):
        if line.strip().startswith("```"):
            if in_fence:
                blocks.append(RawBlock("paragraph", "\n".join(fence)))
                fence = []
            else:
                flush()
            in_fence = not in_fence
            continue
        if in_fence:
            fence.append(line)
            continue
        m = _ATX.match(line)
        if m:
            flush()
            blocks.append(RawBlock("heading", _md_inline(m.group(2)), level=len(m.group(1))))
        elif not line.strip():
            flush()
        else:
            buf.append(line)
    if fence:
        blocks.append(RawBlock("paragraph", "\n".join(fence)))
    flush()
    return blocks


_NOISE_TAGS = ["script", "style", "nav", "header", "footer", "aside", "noscript", "form", "iframe", "svg",
               "template", "button", "select", "menu"]
_BLOCK_TAGS = ["h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "table", "pre", "blockquote", "dt", "dd",
               "caption", "figcaption"]


def parse_html(html: str) -> tuple[list[RawBlock], dict[str, str]]:
    """HTML to blocks, dropping navigation, scripts, styles, headers/footers and forms.

    Returns the blocks and metadata found in ``<title>`` and ``<meta name=version|date|...>``.
    """
    from bs4 import BeautifulSoup  # lazy: optional dependency

    try:
        soup = BeautifulSoup(html, "lxml")
    except Exception:  # lxml missing: the slower pure-Python parser gives the same tree here
        soup = BeautifulSoup(html, "html.parser")
    meta: dict[str, str] = {}
    if soup.title and soup.title.get_text(strip=True):
        meta["title"] = clean_inline(soup.title.get_text())
    for tag in soup.find_all("meta"):
        name = str(tag.get("name") or tag.get("property") or "").lower()
        content = str(tag.get("content") or "").strip()
        if content and name in {"version", "date", "dc.date", "article:modified_time", "last-modified"}:
            meta.setdefault("version" if name == "version" else "date", content)
    for tag in soup.find_all(_NOISE_TAGS):
        tag.decompose()
    for tag in soup.find_all(attrs={"role": ["navigation", "banner", "contentinfo", "search"]}):
        tag.decompose()
    for tag in soup.find_all(attrs={"aria-hidden": "true"}):
        tag.decompose()
    root = soup.body or soup
    blocks: list[RawBlock] = []
    for el in root.find_all(_BLOCK_TAGS + ["div"]):
        if el.find_parent(_BLOCK_TAGS) is not None:
            continue  # nested inside a block already taken (p in li, cells in table)
        name = el.name
        if name == "div":
            if el.find(_BLOCK_TAGS + ["div"]) is not None:
                continue
            blocks.append(RawBlock("paragraph", el.get_text(" ")))
        elif name[0] == "h" and name[1:].isdigit():
            blocks.append(RawBlock("heading", el.get_text(" "), level=int(name[1:])))
        elif name == "li":
            blocks.append(RawBlock("list_item", el.get_text(" ")))
        elif name == "table":
            rows = []
            for tr in el.find_all("tr"):
                cells = tuple(clean_inline(c.get_text(" ")) for c in tr.find_all(["th", "td"]))
                if any(cells):
                    rows.append(cells)
            if len(rows) == 1:
                blocks.append(RawBlock("paragraph", " ".join(rows[0])))
            elif rows:
                caption = el.find("caption")
                if caption is not None and caption.get_text(strip=True):
                    blocks.append(RawBlock("paragraph", caption.get_text(" ")))
                blocks.append(RawBlock("table", rows=tuple(rows)))
        else:
            blocks.append(RawBlock("paragraph", el.get_text(" ")))
    return blocks, meta
