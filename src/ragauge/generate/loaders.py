"""Load a folder of documents: one narrow door from files to :class:`Document`.

``load_folder`` never stops on a bad file: each unreadable, corrupt, empty or unsupported file, and
each file over a :class:`~ragauge.generate.limits.DocumentLimits` limit (size, zip expansion, blocks,
pages, parse time), becomes a :class:`LoadProblem` (path, reason, what to do) and the rest is loaded.
``load_document`` raises instead, so a single-file caller sees the error.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ragauge.errors import InputError, MissingDependencyError
from ragauge.generate import _markup, _office
from ragauge.generate._encoding import decode_bytes
from ragauge.generate.documents import Document, RawBlock, assemble, find_version
from ragauge.generate.limits import DocumentLimits, ParseBudget


@dataclass(frozen=True)
class LoadProblem:
    """A file that was skipped, and why."""

    path: str
    reason: str
    hint: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}. {self.hint}"


Parsed = tuple[list[RawBlock], dict[str, Any]]


def _read_text(path: Path) -> tuple[str, dict[str, Any]]:
    text, encoding = decode_bytes(path.read_bytes(), file=str(path))
    meta: dict[str, Any] = {"encoding": encoding}
    if encoding == "cp1251":
        meta["encoding_note"] = "not valid UTF-8; decoded as Windows-1251 (cp1251)"
    return text, meta


def _counted(blocks: list[RawBlock], budget: ParseBudget) -> list[RawBlock]:
    budget.blocks(sum(len(b.rows) or 1 for b in blocks))
    return blocks


def _txt(path: Path, budget: ParseBudget) -> Parsed:
    text, meta = _read_text(path)
    return _counted(_markup.parse_text(text), budget), meta


def _md(path: Path, budget: ParseBudget) -> Parsed:
    text, meta = _read_text(path)
    return _counted(_markup.parse_markdown(text), budget), meta


def _html(path: Path, budget: ParseBudget) -> Parsed:
    text, meta = _read_text(path)
    blocks, found = _markup.parse_html(text)
    return _counted(blocks, budget), {**meta, **found}


def _csv(path: Path, budget: ParseBudget) -> Parsed:
    text, meta = _read_text(path)
    return _office.parse_csv(text, budget), meta


#: suffix -> (format name, parser). One table: adding a format is one line here and one parser, which
#: takes the path and the document's :class:`ParseBudget` (count blocks, check the deadline in loops).
FORMATS: dict[str, tuple[str, Callable[[Path, ParseBudget], Parsed]]] = {
    ".txt": ("txt", _txt),
    ".md": ("md", _md),
    ".markdown": ("md", _md),
    ".html": ("html", _html),
    ".htm": ("html", _html),
    ".pdf": ("pdf", _office.parse_pdf),
    ".docx": ("docx", _office.parse_docx),
    ".csv": ("csv", _csv),
    ".xlsx": ("xlsx", _office.parse_xlsx),
}

_OLD_FORMATS = {".doc": ".docx", ".xls": ".xlsx", ".rtf": ".docx", ".odt": ".docx", ".ods": ".xlsx"}


def _title(blocks: list[RawBlock], meta: dict[str, Any], path: Path) -> str:
    if meta.get("title"):
        return str(meta["title"])
    for block in blocks[:5]:
        if block.kind == "heading" or (block.kind == "paragraph" and len(block.text) <= 150):
            return " ".join(block.text.split())
    return path.stem


def load_document(path: str | Path, *, root: str | Path | None = None,
                  limits: DocumentLimits | None = None) -> Document:
    """Load one file; its id is its path relative to ``root`` (POSIX separators), else its name.

    Raises :class:`InputError` for an unsupported, empty or unreadable file or one over ``limits``
    (default :class:`DocumentLimits`) and :class:`MissingDependencyError` when the parser's package is
    not installed.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        hint = (f"Save it as {_OLD_FORMATS[suffix]}" if suffix in _OLD_FORMATS
                else f"Supported: {', '.join(sorted(FORMATS))}; convert it or move it out of the folder")
        raise InputError(f"unsupported file type '{suffix or '(none)'}'", file=str(path), hint=hint)
    size = path.stat().st_size
    if size == 0:
        raise InputError("the file is empty", file=str(path), hint="Fill it or remove it from the folder")
    budget = ParseBudget(path, limits)
    budget.file_size(size)
    fmt, parser = FORMATS[suffix]
    blocks, meta = parser(path, budget)
    budget.check_time()
    text, positioned = assemble(blocks)
    if not text.strip():
        raise InputError("no text found in the file", file=str(path),
                         hint="Check that it is not blank, a scan without a text layer, or navigation only")
    version, date = find_version(text)
    meta = dict(meta)
    meta_version, meta_date = meta.pop("version", None), meta.pop("date", None)
    if date:
        meta["date_source"] = "text"
    elif meta_date:
        date, meta["date_source"] = str(meta_date)[:10], "metadata"
    if version:
        meta["version_source"] = "text"
    elif meta_version:
        version, meta["version_source"] = str(meta_version), "metadata"
    doc_id = path.resolve().relative_to(Path(root).resolve()).as_posix() if root is not None else path.name
    return Document(id=doc_id, title=_title(blocks, meta, path), path=str(path), format=fmt, text=text,
                    blocks=positioned, version=version, date=date,
                    metadata={k: v for k, v in meta.items() if k != "title"})


def load_folder(path: str | Path, *, limits: DocumentLimits | None = None
                ) -> tuple[list[Document], list[LoadProblem]]:
    """Load every file under ``path`` (recursively, sorted by relative path; hidden files skipped).

    Returns ``(documents, problems)``; a file over ``limits`` (default :class:`DocumentLimits`) is a
    problem whose reason starts with "skipped:". Raises :class:`InputError` only when ``path`` itself
    is not a folder.
    """
    root = Path(path)
    if not root.is_dir():
        raise InputError("not a folder", file=str(root), hint="Pass the folder that holds the documents")
    documents: list[Document] = []
    problems: list[LoadProblem] = []
    files = sorted((p for p in root.rglob("*") if p.is_file()), key=lambda p: p.relative_to(root).as_posix())
    for file in files:
        rel = file.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue  # .DS_Store, .git/...: not documents
        if file.name.startswith("~$"):
            problems.append(LoadProblem(str(file), "an Office lock file, not a document",
                                        "Close the document in Office, or delete the lock file"))
            continue
        try:
            documents.append(load_document(file, root=root, limits=limits))
        except InputError as exc:
            problems.append(LoadProblem(str(file), exc.message, exc.hint or "Fix or remove the file"))
        except MissingDependencyError as exc:
            problems.append(LoadProblem(str(file), "a package needed for this format is missing", str(exc)))
        except (OSError, RecursionError, MemoryError) as exc:  # unreadable: permissions, I/O, pathological files
            problems.append(LoadProblem(str(file), f"could not be read ({type(exc).__name__}: {exc})",
                                        "Check permissions and that the file opens in its own application"))
        except Exception as exc:  # a parser bug must not stop the other files; it is reported, not hidden
            problems.append(LoadProblem(str(file), f"unexpected error while parsing ({type(exc).__name__}: {exc})",
                                        "Please report it to ragauge with the file if you can share it"))
    return documents, problems


__all__ = ["FORMATS", "DocumentLimits", "LoadProblem", "load_document", "load_folder"]
