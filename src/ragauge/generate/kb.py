"""Write chunks as a knowledge base file in the shape of the demo's ``kb.jsonl``.

One JSON object a line: ``id, doc_id, title, version, section, text`` (``version`` falls back to the
edition date, then to ""; ``section`` is the heading path joined with " > ").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from ragauge.errors import InputError
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


def write_kb_jsonl(chunks: Iterable[Chunk], path: str | Path) -> Path:
    """Write UTF-8 JSON lines (Cyrillic kept readable) and return the path."""
    path = Path(path)
    lines = [json.dumps(r, ensure_ascii=False) for r in to_kb_records(chunks)]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


__all__ = ["to_kb_records", "write_kb_jsonl"]
