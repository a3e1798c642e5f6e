"""Editions of one document: same title family, different version or date.

The family key is the title with edition markers removed (dates, "ред. от …", "редакция", "Version 2",
"v2.1", brackets), case-folded: "Прайс-лист …, редакция от 01.03.2026" and "Прайс-лист …, редакция от
01.09.2025" share it. Documents of a family with two or more distinct (date, version) labels are
editions; the newest (latest date, else highest version) is current, the others are old.
"""

from __future__ import annotations

import re
from typing import Iterable

from ragauge.generate.chunking import Chunk

_MARKERS = re.compile(
    r"\d{1,2}[./]\d{1,2}[./]\d{4}|\d{4}-\d{2}(?:-\d{2})?|\((?:[^)]*)\)"
    r"|\b(?:ред(?:\.|акция|акции)?|версия|вер\.|version|rev(?:ision)?\.?|от|dated|effective|as of|updated)\b"
    r"|\bv?\d+(?:\.\d+)+\b|\bv\d+\b", re.IGNORECASE)


def family_key(title: str) -> str:
    """"Прайс-лист, ред. от 01.03.2026" -> "прайс-лист"."""
    text = _MARKERS.sub(" ", title)
    text = re.sub(r"[\s,;:.\-–—]+$", "", re.sub(r"\s+", " ", text)).strip(" ,.-–—")
    return text.casefold()


def _order_key(label: tuple[str, str]) -> tuple:
    date, version = label
    parts = tuple(int(p) for p in re.findall(r"\d+", version or ""))
    return (date or "", parts)


def editions(chunks: Iterable[Chunk]) -> dict[str, tuple[str, ...]]:
    """doc_id -> the family's doc ids from newest to oldest, for documents that have editions."""
    docs: dict[str, tuple[str, tuple[str, str]]] = {}
    for c in chunks:
        if c.doc_id not in docs:
            docs[c.doc_id] = (family_key(c.title), (c.date or "", c.version or ""))
    families: dict[str, list[str]] = {}
    for doc_id, (key, _) in docs.items():
        if key:
            families.setdefault(key, []).append(doc_id)
    out: dict[str, tuple[str, ...]] = {}
    for members in families.values():
        labels = {docs[d][1] for d in members}
        if len(members) < 2 or len(labels) < 2 or ("", "") in labels:
            continue
        ordered = tuple(sorted(members, key=lambda d: (_order_key(docs[d][1]), d), reverse=True))
        for d in members:
            out[d] = ordered
    return out


def item_key(text: str) -> str:
    """Row identity across editions: case-folded, "ё" -> "е", spaces collapsed."""
    return re.sub(r"\s+", " ", text.casefold().replace("ё", "е")).strip()


__all__ = ["editions", "family_key", "item_key"]
