"""Golden test sets from a folder of documents (issue 7): loading and chunking.

    >>> from ragauge.generate import load_folder, chunk, write_kb_jsonl
    >>> documents, problems = load_folder("docs/")  # doctest: +SKIP
    >>> for p in problems: print(p)  # doctest: +SKIP
    >>> write_kb_jsonl(chunk(documents, max_chars=1200), "kb.jsonl")  # doctest: +SKIP

The format parsers (pypdf, python-docx, beautifulsoup4, openpyxl) are imported only when a file of
that format is read: ``pip install 'ragauge[generate]'``.
"""

from __future__ import annotations

from ragauge.generate.chunking import Chunk, chunk
from ragauge.generate.documents import Block, Document, find_version
from ragauge.generate.kb import to_kb_records, write_kb_jsonl
from ragauge.generate.loaders import FORMATS, LoadProblem, load_document, load_folder

__all__ = [
    "FORMATS",
    "Block",
    "Chunk",
    "Document",
    "LoadProblem",
    "chunk",
    "find_version",
    "load_document",
    "load_folder",
    "to_kb_records",
    "write_kb_jsonl",
]
