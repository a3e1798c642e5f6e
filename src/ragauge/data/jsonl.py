"""JSON Lines and JSON files -> raw records with their locations.

JSONL is read in binary, one bounded line at a time: a line longer than ``max_line_bytes`` is
skipped in chunks and reported, never held in memory. Problems (too long, invalid UTF-8, invalid
JSON, not an object) are added to the collector and reading goes on with the next line.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import IO, Any, Iterator

from ragauge.data._collect import ErrorCollector, Location
from ragauge.data._json import STRICT_DECODER, DuplicateKeyError, duplicate_key_field, json_problem, parse_json
from ragauge.data._text_checks import check_surrogates, may_hold_surrogate

#: Longest accepted JSONL line, in bytes (configurable: ``load(..., max_line_bytes=...)``).
DEFAULT_MAX_LINE_BYTES = 64 * 2**20

_CHUNK = 2**20
_BOM = b"\xef\xbb\xbf"


def format_size(n: int) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def open_binary(path: Path) -> IO[bytes]:
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")  # noqa: SIM115


def iter_lines(fh: IO[bytes], max_line_bytes: int) -> Iterator[tuple[int, int, bytes | None]]:
    """Yield ``(line number, byte offset of the line, content without EOL)``; content is None for a
    line over the limit.

    The file is read in fixed chunks and split here (not with ``readline``, which is slow for long
    lines): the buffer never holds more than ``max_line_bytes`` plus one chunk, so a 2 GB line is
    skipped without ever reaching memory.
    """
    buf = bytearray()
    lineno = 0
    line_start = 0  # byte offset of the current line
    base = 0  # byte offset of the current chunk
    too_long = False
    while chunk := fh.read(_CHUNK):
        pos = 0
        while (nl := chunk.find(b"\n", pos)) >= 0:
            lineno += 1
            if too_long:
                yield lineno, line_start, None
            else:
                buf += memoryview(chunk)[pos:nl]
                yield lineno, line_start, _finish(buf, max_line_bytes)
            buf.clear()
            too_long = False
            pos = nl + 1
            line_start = base + pos
        if not too_long:
            buf += memoryview(chunk)[pos:]
            if len(buf) > max_line_bytes + 1:  # + 1: a trailing "\r" is not content
                too_long = True
                buf.clear()
        base += len(chunk)
    if too_long:
        yield lineno + 1, line_start, None
    elif buf:
        yield lineno + 1, line_start, _finish(buf, max_line_bytes)


def _finish(buf: bytearray, max_line_bytes: int) -> bytes | None:
    end = len(buf) - 1 if buf.endswith(b"\r") else len(buf)
    return None if end > max_line_bytes else bytes(buf[:end])


def iter_jsonl(
    path: Path, *, label: str, max_line_bytes: int, errors: ErrorCollector
) -> Iterator[tuple[Location, Any]]:
    """Yield ``(location, parsed object)`` for each non-blank, valid line of a JSONL file.

    Lone surrogates (a ``\\ud800`` escape) are looked for here, on the raw line, so that the
    validator need not walk every string (``build_sample(..., check_text=False)``)."""
    with open_binary(path) as fh:
        for lineno, offset, content in iter_lines(fh, max_line_bytes):
            loc = Location(label, lineno)
            if content is None:
                errors.add(
                    loc.error(
                        f"line {lineno} is longer than {format_size(max_line_bytes)}",
                        hint="Split the sample; from Python, raise the limit with load(..., max_line_bytes=...)",
                    )
                )
                continue
            if lineno == 1 and content.startswith(_BOM):
                content = content[len(_BOM) :]
                offset += len(_BOM)
            try:
                text = content.decode("utf-8")
            except UnicodeDecodeError as exc:
                errors.add(
                    loc.error(
                        f"invalid UTF-8 at byte {exc.start} of the line (byte offset {offset + exc.start} "
                        f"in the file): {exc.reason}",
                        value=content[max(0, exc.start - 10) : exc.start + 10],
                        hint="Save the file as UTF-8",
                    )
                )
                continue
            if not text.strip():
                continue
            try:
                obj = parse_json(text)
            except (ValueError, RecursionError) as exc:  # JSONDecodeError and DuplicateKeyError are ValueErrors
                message, hint = json_problem(exc)
                field = _duplicate_field(exc, text, 0)
                errors.add(loc.error(message, field=field, hint=hint))
                continue
            if not isinstance(obj, dict):
                errors.add(
                    loc.error(
                        f"a line must be a JSON object, not {_json_type(obj)}",
                        value=obj,
                        hint='Write one object per line, e.g. {"id": "q1", "question": "..."}',
                    )
                )
                continue
            if may_hold_surrogate(text) and check_surrogates(obj, loc, errors):
                continue
            yield loc, obj


def _json_type(obj: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", int: "a number", float: "a number"}
    return names.get(type(obj), "a boolean" if isinstance(obj, bool) else "null")


def read_json(path: Path, *, label: str, max_line_bytes: int, errors: ErrorCollector) -> Iterator[tuple[Location, Any]]:
    """A ``.json`` file: an array of samples or ``{"samples": [...]}``; read whole (use JSONL for big data).

    A ``.json`` file that is really JSON Lines (several objects, one per line) is read as JSONL.
    """
    with open_binary(path) as fh:
        data = fh.read()
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        errors.add(
            Location(label, line).error(
                f"invalid UTF-8 at byte offset {exc.start} in the file: {exc.reason}", hint="Save the file as UTF-8"
            )
        )
        return
    try:
        doc = parse_json(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and text.lstrip().startswith("{"):
            del data, text
            yield from iter_jsonl(path, label=label, max_line_bytes=max_line_bytes, errors=errors)
            return
        errors.add(Location(label, exc.lineno).error(f"invalid JSON at column {exc.colno}: {exc.msg}"))
        return
    except (ValueError, RecursionError) as exc:  # a duplicate key, deep nesting, a huge integer
        message, hint = json_problem(exc)
        row, line, pos = _first_bad_sample(text)
        field = _duplicate_field(exc, text, pos) if pos is not None else None
        errors.add(Location(label, line, row, item=True).error(message, field=field, hint=hint))
        return
    if isinstance(doc, dict) and isinstance(doc.get("samples"), list):
        doc = doc["samples"]
    if not isinstance(doc, list):
        errors.add(
            Location(label).error(
                f"a JSON file must hold an array of samples or {{\"samples\": [...]}}, not {_json_type(doc)}",
                hint="Wrap the samples in [...], or write one sample per line in a .jsonl file",
            )
        )
        return
    check = may_hold_surrogate(text)
    for i, obj in enumerate(doc):
        loc = Location(label, row=i, item=True)
        if check and check_surrogates(obj, loc, errors):
            continue
        yield loc, obj


_WS = re.compile(r"[ \t\n\r]*")
_SAMPLES_KEY = re.compile(r'[ \t\n\r]*\{[ \t\n\r]*"samples"[ \t\n\r]*:[ \t\n\r]*')


def _duplicate_field(exc: BaseException, text: str, pos: int) -> str | None:
    if not isinstance(exc, DuplicateKeyError):
        return None
    return duplicate_key_field(text, pos) or exc.key


def _first_bad_sample(text: str) -> tuple[int | None, int | None, int | None]:
    """``(row, line, offset)`` of the first sample of a ``.json`` array (or ``{"samples": [...]}`` with that
    key first) that fails to parse on its own: the whole-file parse cannot say where a duplicate
    key or a too-deep value was. ``(None, None, None)`` for other shapes. Runs only after an error."""
    found = _SAMPLES_KEY.match(text)
    pos = found.end() if found else _WS.match(text).end()  # type: ignore[union-attr]
    if not text.startswith("[", pos):
        return None, None, None
    pos += 1
    row = 0
    while True:
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        try:
            _, end = STRICT_DECODER.raw_decode(text, pos)
        except (ValueError, RecursionError):
            return row, text.count("\n", 0, pos) + 1, pos
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]
        if not text.startswith(",", pos):
            return None, None, None
        pos += 1
        row += 1


def read_json_objects(path: str | Path, *, what: str, hint: str,
                      max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> list[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for every non-blank line of a small JSONL file (a golden set, a knowledge
    base, human ratings): the one strict reader for such side files. Duplicate keys, invalid JSON or UTF-8,
    a line that is not an object or is too long stop at the first problem with an ``InputError`` naming
    ``what`` (e.g. "human ratings"), the file and the line; ``hint`` says what the file should hold.
    A missing file is an ``InputError`` too; a leading BOM is accepted; ``.gz`` files are read transparently."""
    from ragauge.errors import InputError

    p = Path(path)
    if not p.is_file():
        raise InputError(f"{what}: file not found", file=str(p), hint=hint)
    rows: list[tuple[int, dict[str, Any]]] = []
    try:
        with open_binary(p) as fh:
            for lineno, _, raw in iter_lines(fh, max_line_bytes):
                if raw is None:
                    raise InputError(f"{what}: line longer than {format_size(max_line_bytes)}", file=str(p),
                                     line=lineno, hint=hint)
                if lineno == 1 and raw.startswith(_BOM):
                    raw = raw[len(_BOM):]
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise InputError(f"{what}: not UTF-8 ({exc.reason} at byte {exc.start})", file=str(p),
                                     line=lineno, hint="save the file as UTF-8") from None
                if not text.strip():
                    continue
                try:
                    obj = parse_json(text)
                except (ValueError, RecursionError) as exc:
                    message, fix = json_problem(exc)
                    raise InputError(f"{what}: {message}", file=str(p), line=lineno, hint=f"{fix}. {hint}") from None
                if not isinstance(obj, dict):
                    raise InputError(f"{what}: a line that is not a JSON object", file=str(p), line=lineno,
                                     value=obj, hint=hint)
                rows.append((lineno, obj))
    except OSError as exc:
        raise InputError(f"{what}: cannot read: {exc.strerror or exc}", file=str(p), hint=hint) from None
    return rows
