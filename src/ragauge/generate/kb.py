"""The knowledge base file (``kb.jsonl``, the demo's shape): write chunks, read records back.

One JSON object a line: ``id, doc_id, title, version, section, text`` (``version`` falls back to the
edition date, then to ""; ``section`` is the heading path joined with " > ").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from ragauge.errors import InputError
from ragauge.files import write_text_atomically
from ragauge.generate.chunking import Chunk


def to_kb_records(chunks: Iterable[Chunk]) -> list[dict[str, str]]:
    """Chunks as ``kb.jsonl`` records; refuses duplicate ids (they would break relevance labels)."""
    records, seen = [], set()
    for item in chunks:
        if item.id in seen:
            raise InputError("duplicate chunk id", field="id", value=item.id,
                             hint="Each document must be chunked once; do not pass the same document twice")
        seen.add(item.id)
        records.append(item.to_record())
    return records


def kb_jsonl_text(chunks: Iterable[Chunk]) -> str:
    """The content of ``kb.jsonl``: one JSON object a line, Cyrillic kept readable."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in to_kb_records(chunks))


def write_kb_jsonl(chunks: Iterable[Chunk], path: str | Path) -> Path:
    """Write UTF-8 JSON lines and return the path; the old file is replaced whole or kept
    (:func:`ragauge.files.write_text_atomically`; an :class:`~ragauge.errors.OutputError` names the file)."""
    return write_text_atomically(path, kb_jsonl_text(chunks))


def read_kb_records(path: str | Path) -> list[dict[str, Any]]:
    """Records of a ``kb.jsonl`` (UTF-8, a BOM tolerated, blank lines skipped): each needs a string ``id``
    and ``text``; other keys are kept. The one reader of the format: the generator, the review loop and
    the reference RAG all call it, so a bad line gets the same message everywhere (file, line, field)."""
    from ..data.jsonl import read_json_objects

    path = Path(path)
    records = []
    for n, record in read_json_objects(path, what="knowledge base", hint="kb.jsonl has one JSON object a line (UTF-8)"):
        for name in ("id", "text"):
            if not isinstance(record.get(name), str) or not record[name].strip():
                raise InputError(f"missing or empty {name!r}", file=str(path), line=n, field=name,
                                 value=record.get(name), hint="each chunk needs a string id and text")
        records.append(record)
    if not records:
        raise InputError("the knowledge base file has no chunks", file=str(path))
    return records


__all__ = ["kb_jsonl_text", "read_kb_records", "to_kb_records", "write_kb_jsonl"]
