"""Chunk records for the reference RAG: from a ``kb.jsonl`` (the demo's shape) or a document folder.

``kb.jsonl``: one JSON object a line with at least ``id`` and ``text``; ``doc_id``, ``title``,
``version``, ``section`` and any other keys are kept as metadata (and can be filtered on).
A folder goes through :func:`ragauge.generate.load_folder` and :func:`ragauge.generate.chunk`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..errors import InputError


def read_kb_jsonl(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Records of a ``kb.jsonl``; every bad line is reported with its number."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the knowledge base: {exc}", file=str(path)) from None
    records = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON: {exc.msg}", file=str(path), line=n, value=line,
                             hint="kb.jsonl has one JSON object a line") from None
        if not isinstance(record, dict):
            raise InputError("a line is not a JSON object", file=str(path), line=n, value=record)
        for name in ("id", "text"):
            if not isinstance(record.get(name), str) or not record[name].strip():
                raise InputError(f"missing or empty {name!r}", file=str(path), line=n, field=name,
                                 value=record.get(name), hint="each chunk needs a string id and text")
        records.append(record)
    if not records:
        raise InputError("the knowledge base file has no chunks", file=str(path))
    return records


def folder_records(path: str | os.PathLike[str], *, max_chars: int = 1200) -> tuple[list[dict[str, Any]], list[Any]]:
    """Chunk records of every readable document under ``path`` and the skipped files (``LoadProblem``)."""
    from ..generate import chunk, load_folder, to_kb_records

    documents, problems = load_folder(path)
    if not documents:
        detail = "; ".join(str(p) for p in problems[:5])
        raise InputError("no readable document in the folder" + (f" ({detail})" if detail else ""),
                         file=str(path), hint="supported formats: see `ragauge.generate.FORMATS`")
    return to_kb_records(chunk(documents, max_chars=max_chars)), problems


__all__ = ["folder_records", "read_kb_jsonl"]
