"""Chunks from ``kb.jsonl`` records, so a knowledge base you already have can feed the generator.

A record has ``id, doc_id, title, version, section, text`` (the shape :func:`ragauge.generate.write_kb_jsonl`
writes and the bundled demo ships). The edition date comes from the record's ``date`` when present,
else from its title ("…, редакция от 01.03.2026"), else from an ISO ``version`` ("2025-09-01"); a chunk
is a table when two or more of its lines hold ``" | "`` cells.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Mapping

from ragauge.errors import InputError
from ragauge.generate.chunking import Chunk
from ragauge.generate.documents import CELL_SEPARATOR, find_version

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def chunks_from_records(records: Iterable[Mapping[str, object]], *, source: str = "records") -> list[Chunk]:
    """One :class:`Chunk` a record, in order; ``ordinal`` counts within each document."""
    out: list[Chunk] = []
    ordinals: dict[str, int] = {}
    for line, rec in enumerate(records, 1):
        for key in ("id", "text"):
            if not rec.get(key):
                raise InputError("knowledge base record without " + key, file=source, line=line, field=key,
                                 hint="Each line needs at least 'id' and 'text'")
        text = str(rec["text"])
        doc_id = str(rec.get("doc_id") or rec["id"])
        title = str(rec.get("title") or doc_id)
        version = str(rec.get("version") or "") or None
        date = str(rec.get("date") or "") or find_version(title)[1]
        if date is None and version and _ISO.match(version):
            date, version = version, None
        section = tuple(s for s in str(rec.get("section") or "").split(" > ") if s)
        kind = "table" if sum(CELL_SEPARATOR in ln for ln in text.split("\n")) >= 2 else "text"
        k = ordinals.get(doc_id, 0)
        ordinals[doc_id] = k + 1
        out.append(Chunk(id=str(rec["id"]), doc_id=doc_id, text=text, section=section, start=0, end=len(text),
                         kind=kind, ordinal=k, title=title, version=version, date=date))
    return out


def read_kb_jsonl(path: str | Path) -> list[Chunk]:
    """Chunks of a ``kb.jsonl`` file (read by :func:`ragauge.generate.kb.read_kb_records`)."""
    from ragauge.generate.kb import read_kb_records

    return chunks_from_records(read_kb_records(path), source=str(path))


__all__ = ["chunks_from_records", "read_kb_jsonl"]
