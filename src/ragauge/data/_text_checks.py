"""Checks on the text of a record before its fields are read: what would load but cannot be kept.

- Lone UTF-16 surrogates (a JSON ``\\ud800`` escape without its low half, or such a Python str):
  they load, then writing results.json fails. Refused at load, naming the field path.
- JSON text inside a cell (CSV, Parquet, DataFrame) that the strict parser refuses (a key given twice,
  nesting too deep, an integer too long): reported as for a JSONL line, naming the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ragauge.data._collect import ErrorCollector, Location
from ragauge.data._json import DuplicateKeyError, duplicate_key_field, json_problem, parse_json
from ragauge.data._values import decode_text


_SURROGATE = re.compile("[\ud800-\udfff]")

SURROGATE_HINT = (
    "Fix the text where it was made: a JSON escape \\ud800-\\udbff must be followed by its low half "
    "\\udc00-\\udfff (e.g. \\ud83d\\ude00 for one emoji); a lone half is not a character and cannot be saved as UTF-8"
)


def _has_surrogate(text: str) -> bool:
    return not text.isascii() and _SURROGATE.search(text) is not None


_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def may_hold_surrogate(text: str) -> bool:
    """Whether JSON or CSV text can decode to a lone surrogate: only an escape ``\\ud800``-``\\udfff``
    makes one (strict UTF-8 decoding refuses encoded surrogates). A C-speed pre-check for readers,
    so that :func:`lone_surrogate` walks only the rare record that has such an escape."""
    return "\\u" in text and _ESCAPE.search(text) is not None


def _json_cell(value: str) -> Any:
    # A CSV/Parquet cell holding JSON (or a Python list repr) with an escape: the field checkers
    # decode it (decode_text), so the walk looks inside it too, under the cell's field name.
    if "\\u" in value and value.lstrip()[:1] in ("[", "{"):
        decoded = decode_text(value)
        if decoded is not value:
            return decoded
    return None


def lone_surrogate(record: Mapping[Any, Any]) -> tuple[str, str] | None:
    """``(field path, the string)`` of the first string -- value or key, at any depth, also inside
    JSON text cells -- holding a lone UTF-16 surrogate (``"\\ud800"`` from JSON, or a Python str):
    such text loads but cannot be written as UTF-8, so results.json would fail at the end of a run.
    None when there is none.

    A first pass without paths keeps the common case cheap (ASCII strings are skipped by
    ``isascii``); the path is built only for a record that has one. Iterative (depth is no limit);
    a container met twice (a cycle in Python data) is walked once.
    """
    stack: list[Any] = [record]
    seen: set[int] = set()
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if _has_surrogate(value):
                return _locate_surrogate(record)
            inner = _json_cell(value)
            if inner is not None:
                stack.append(inner)
            continue
        if not isinstance(value, (list, tuple, Mapping)) or id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, Mapping):
            for key in value:
                if isinstance(key, str) and _has_surrogate(key):
                    return _locate_surrogate(record)
            stack.extend(value.values())
        else:
            stack.extend(value)
    return None


def _locate_surrogate(record: Mapping[Any, Any]) -> tuple[str, str]:
    stack: list[tuple[str, Any]] = [("", record)]
    seen: set[int] = set()
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if _has_surrogate(value):
                return path, value
            inner = _json_cell(value)
            if inner is not None:
                stack.append((path, inner))
            continue
        if not isinstance(value, (list, tuple, Mapping)) or id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, Mapping):
            items = list(value.items())
            for key, _ in items:
                if isinstance(key, str) and _has_surrogate(key):
                    return _join(path, key), key
            stack.extend((_join(path, key), item) for key, item in reversed(items))
        else:
            stack.extend((f"{path}[{i}]", item) for i, item in reversed(list(enumerate(value))))
    raise AssertionError("lone_surrogate() found one")  # pragma: no cover - both passes see the same data


def check_surrogates(record: Any, loc: Location, errors: ErrorCollector) -> bool:
    """Add an error naming the field when ``record`` holds a lone surrogate; True when it does."""
    bad = lone_surrogate(record) if isinstance(record, Mapping) else None
    if bad is None:
        return False
    errors.add(
        loc.error(
            "the text holds a lone UTF-16 surrogate, which cannot be written as UTF-8",
            field=bad[0],
            value=bad[1],
            hint=SURROGATE_HINT,
        )
    )
    return True


def _join(path: str, key: Any) -> str:
    # The path is printed in messages: a key holding a surrogate is shown escaped, never raw.
    name = key.encode("utf-8", "backslashreplace").decode("utf-8") if isinstance(key, str) else repr(key)
    return f"{path}.{name}" if path else name


def json_cell_problems(record: Mapping[Any, Any], loc: Location, errors: ErrorCollector) -> set[Any]:
    """Keys of string cells (CSV, Parquet, DataFrame) holding JSON that :func:`parse_json` refuses:
    a key given twice, nesting too deep, an integer too long. Each is reported here, naming the
    field, and the caller drops the cell so that it is not reported again as "not a list".

    Only cells that can hold such a problem are parsed twice: those with a ``{`` (a duplicate key
    needs an object) or of 1000 characters and more (deep nesting, long integers).
    """
    bad: set[Any] = set()
    for key, value in record.items():
        if not isinstance(value, str) or ("{" not in value and len(value) < 1000):
            continue
        text = value.strip()
        if not text or text[0] not in "[{":
            continue
        try:
            parse_json(text)
        except json.JSONDecodeError:
            continue  # not JSON: the field's checker says what is wrong with the text
        except (ValueError, RecursionError) as exc:
            message, hint = json_problem(exc)
            inner = duplicate_key_field(text) if isinstance(exc, DuplicateKeyError) else None
            field = str(key) if not inner else f"{key}{inner}" if inner.startswith("[") else f"{key}.{inner}"
            errors.add(loc.error(f"{message} (in the JSON text of the cell)", field=field, hint=hint))
            bad.add(key)
    return bad
