"""Golden test sets from a folder of documents (issue 7): loading, chunking, question generation.

    >>> from ragauge.generate import load_folder, chunk, write_kb_jsonl, generate_questions
    >>> documents, problems = load_folder("docs/")  # doctest: +SKIP
    >>> for p in problems: print(p)  # doctest: +SKIP
    >>> chunks = chunk(documents, max_chars=1200)  # doctest: +SKIP
    >>> write_kb_jsonl(chunks, "kb.jsonl")  # doctest: +SKIP
    >>> cases, summary = generate_questions(chunks, n=100, seed=0, documents=documents)  # doctest: +SKIP

The format parsers (pypdf, python-docx, beautifulsoup4, openpyxl) are imported only when a file of
that format is read: ``pip install 'ragauge[generate]'``.
"""

from __future__ import annotations

from ragauge.generate.case import BEHAVIOURS, SLICES, TYPES, GoldenCase
from ragauge.generate.chunking import Chunk, chunk
from ragauge.generate.documents import Block, Document, find_version
from ragauge.generate.kb import to_kb_records, write_kb_jsonl
from ragauge.generate.limits import DocumentLimits
from ragauge.generate.loaders import FORMATS, LoadProblem, load_document, load_folder
from ragauge.generate.questions import generate_questions
from ragauge.generate.questions.from_kb import chunks_from_records, read_kb_jsonl
from ragauge.generate.review import ReviewResult, export_review, import_review, load_kb
from ragauge.generate.versioning import GoldenVersion, meta_path, read_golden, read_version, write_golden


def generate_with_llm(*args, **kwargs):  # noqa: ANN002, ANN003 - the LLM path, imported on first use
    """Golden cases through an LLM with a critic pass: see :mod:`ragauge.generate.llm_questions`."""
    from ragauge.generate.llm_questions import generate_with_llm as run

    return run(*args, **kwargs)

__all__ = [
    "BEHAVIOURS",
    "FORMATS",
    "SLICES",
    "TYPES",
    "Block",
    "Chunk",
    "Document",
    "DocumentLimits",
    "GoldenCase",
    "GoldenVersion",
    "LoadProblem",
    "ReviewResult",
    "chunk",
    "chunks_from_records",
    "export_review",
    "find_version",
    "generate_questions",
    "generate_with_llm",
    "import_review",
    "load_document",
    "load_folder",
    "load_kb",
    "meta_path",
    "read_golden",
    "read_kb_jsonl",
    "read_version",
    "to_kb_records",
    "write_golden",
    "write_kb_jsonl",
]
