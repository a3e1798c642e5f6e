"""Chunk records for the reference RAG: from a ``kb.jsonl`` (the demo's shape) or a document folder.

``kb.jsonl``: one JSON object a line with at least ``id`` and ``text``; ``doc_id``, ``title``,
``version``, ``section`` and any other keys are kept as metadata (and can be filtered on).
A folder goes through :func:`ragauge.generate.load_folder` and :func:`ragauge.generate.chunk`.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import InputError
from ..generate.kb import read_kb_records as read_kb_jsonl  # the one kb.jsonl reader


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
