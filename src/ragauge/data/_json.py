"""Reading JSON text strictly: what Python's ``json`` accepts silently or crashes on becomes a message.

``parse_json`` refuses a key given twice in one object, at any depth (``json.loads`` keeps the last
value: ``{"relevant_ids": {"d1": 2, "d1": 0}}`` would score as not relevant). Nesting deeper than
the interpreter's recursion limit raises ``RecursionError`` and an integer over
``sys.get_int_max_str_digits()`` digits a ``ValueError``; :func:`json_problem` turns each into a
message and a hint. Shared by the JSONL/JSON readers and the JSON cells of CSV/Parquet/DataFrames.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any


class DuplicateKeyError(ValueError):
    """A JSON object names one key twice; Python's json would silently keep the last value."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return obj


# The hook runs for every object at every depth (a repeated id inside relevant_ids matters most).
# It costs ~20 us a line of 2.8 KB (json.loads alone ~45 us), about 20% of load(); no cheap exact
# pre-check exists (the same key is legal in sibling objects), and pausing the GC in load() more than
# pays for it (benchmarks/big_input.py --load-lines 50000: 4.2-5.0 s before, 3.2-4.2 s after, CPU).
STRICT_DECODER = json.JSONDecoder(object_pairs_hook=_refuse_duplicates)


def parse_json(text: str) -> Any:
    """``json.loads`` that refuses duplicate keys (:class:`DuplicateKeyError`); may also raise
    ``JSONDecodeError``, ``RecursionError`` (deep nesting) and ``ValueError`` (huge integers):
    :func:`json_problem` turns each into a message."""
    return STRICT_DECODER.decode(text)


def json_problem(exc: BaseException) -> tuple[str, str]:
    """``(message, hint)`` for an exception of :func:`parse_json`."""
    if isinstance(exc, DuplicateKeyError):
        return (
            f"duplicate key {exc.key!r} in a JSON object",
            "Give each key once; JSON readers disagree on which value wins (Python's keeps the last)",
        )
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON at column {exc.colno}: {exc.msg}", "Each line must be one complete JSON object"
    if isinstance(exc, RecursionError):
        return (
            "JSON nested too deeply to read",
            "A sample needs only a few levels of [] and {}: check how the file was written",
        )
    # ValueError from int(): "Exceeds the limit (4300 digits) for integer string conversion..."
    digits = re.search(r"value has (\d+) digits", str(exc))
    if digits is None:
        return f"a value in the JSON cannot be read: {exc}", "Check how the file was written"
    return (
        f"a number with {digits.group(1)} digits, more than the {sys.get_int_max_str_digits()} Python reads",
        "Write very long numbers as strings (\"123...\")",
    )


def duplicate_key_field(text: str, pos: int = 0) -> str | None:
    """The field path (``relevant_ids``, ``contexts[2]``) of the object holding the first duplicate
    key in the JSON value at ``pos``; None when the duplicate is a top-level key. Runs only after
    :func:`parse_json` raised :class:`DuplicateKeyError`, to name the field in the message."""
    flagged: list[dict[str, Any]] = []

    def record(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs) and not flagged:
            flagged.append(obj)
        return obj

    try:
        doc, _ = json.JSONDecoder(object_pairs_hook=record).raw_decode(text, pos)
    except (ValueError, RecursionError):
        return None
    if not flagged or flagged[0] is doc:
        return None
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:
        path, value = stack.pop()
        if value is flagged[0]:
            return path
        if isinstance(value, dict):
            stack.extend((f"{path}.{key}" if path else key, item) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", item) for i, item in enumerate(value))
    return None
