"""Checkers for each field of a sample: take ``(given key, name, value)``, return the clean value.

Each checker adds an ``InputError`` (field, expected type, the value, a hint) to the collector and
returns a placeholder when the value is bad; :func:`ragauge.data.validate.build_sample` then drops
the record. Values may come from JSON, CSV text cells, pandas or pyarrow.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from typing import Any

from ragauge.data._collect import ErrorCollector, Location
from ragauge.data._json import parse_json
from ragauge.data.schema import Context

Given = tuple[str, str, Any] | None  # (key as given, name after field_map, value), None when absent

_TYPE_NAMES = {
    str: "a string",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    list: "a list",
    tuple: "a list",
    dict: "an object",
    type(None): "null",
}

LIST_HINT = "in CSV, write lists as JSON arrays, e.g. [\"d1\", \"d2\"]"


def type_name(value: Any) -> str:
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def decode_text(value: Any) -> Any:
    """Decode a string cell holding a JSON array/object (CSV) or a Python list repr (pandas' to_csv).

    Anything that does not decode is returned unchanged, so the caller reports the plain string.
    """
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text or text[0] not in "[{":
        return value
    try:
        return parse_json(text)
    except (ValueError, RecursionError):  # _text_checks.json_cell_problems() reports what is not a plain syntax error
        pass
    if text[0] == "[":
        try:  # literal_eval only builds literals: safe on untrusted text
            decoded = ast.literal_eval(text)
        except Exception:  # noqa: BLE001 - SyntaxError, ValueError, MemoryError, RecursionError...
            return value
        if isinstance(decoded, list):
            return decoded
    return value


def as_list(value: Any) -> list[Any] | None:
    """A list from a list, tuple or numpy array (pyarrow/pandas list cells); None for anything else."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if hasattr(value, "tolist") and hasattr(value, "ndim") and getattr(value, "ndim", 0) == 1:
        return list(value.tolist())
    return None


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def sample_id(given: Given, loc: Location, errors: ErrorCollector) -> str:
    if given is None:
        default = loc.default_id
        if default is None:
            errors.add(loc.error("missing id", field="id", hint="Give each sample an 'id' (a string or an integer)"))
            return ""
        return default
    key, _, value = given
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str):
        if value.strip():
            return value
        errors.add(loc.error("empty id", field=key, value=value, hint="Give a non-empty id or leave the field out"))
        return ""
    errors.add(
        loc.error(
            f"id must be a string or an integer, not {type_name(value)}",
            field=key,
            value=value,
            hint="Use strings such as \"q17\" for ids",
        )
    )
    return ""


def question(given: Given, loc: Location, errors: ErrorCollector) -> str | None:
    """The question, or None when absent, null, empty or only whitespace (issue 13): NLI-style and
    summary data have none, and metrics that need one declare it in their spec and leave such a
    sample unscored with a reason."""
    if given is None:
        return None
    key, _, value = given
    if not isinstance(value, str):
        errors.add(loc.error(f"question must be a string, not {type_name(value)}", field=key, value=value))
        return None
    return value if value.strip() else None


def optional_str(given: Given, loc: Location, errors: ErrorCollector) -> str | None:
    if given is None:
        return None
    key, _, value = given
    if isinstance(value, str):
        return value
    errors.add(loc.error(f"expected a string or null, not {type_name(value)}", field=key, value=value))
    return None


def reference(given: Given, loc: Location, errors: ErrorCollector, extras: dict[str, Any]) -> str | None:
    """``reference``/``ground_truth``: a string. Ragas v1 ``ground_truths``: a list whose first item
    is the reference (as Ragas 0.1 did); with several items the full list is kept in metadata."""
    if given is None or given[1] != "ground_truths":
        return optional_str(given, loc, errors)
    key, _, value = given
    value = decode_text(value)
    if isinstance(value, str):
        return value
    items = as_list(value)
    if items is None or not all(isinstance(item, str) for item in items):
        hint = "Pass a list of strings; " + LIST_HINT
        errors.add(loc.error("ground_truths must be a list of strings", field=key, value=value, hint=hint))
        return None
    if len(items) > 1:
        extras[key] = items
    return items[0] if items else None


def contexts(given: Given, loc: Location, errors: ErrorCollector) -> tuple[Context, ...]:
    if given is None:
        return ()
    key, _, raw = given
    value = decode_text(raw)
    if isinstance(value, str):
        errors.add(
            loc.error(
                "contexts must be a list, not a single string",
                field=key,
                value=value,
                hint=f"Pass a list such as [\"first chunk\", \"second chunk\"]; {LIST_HINT}",
            )
        )
        return ()
    items = as_list(value)
    if items is None:
        errors.add(
            loc.error(
                "contexts must be a list of strings or of objects {id, text, score, metadata}, "
                f"not {type_name(value)}",
                field=key,
                value=value,
            )
        )
        return ()
    out: list[Context] = []
    for i, item in enumerate(items):
        field = f"{key}[{i}]"
        if isinstance(item, str):
            out.append(Context(text=item))
        elif isinstance(item, Mapping):
            ctx = _context_object(item, field, loc, errors)
            if ctx is not None:
                out.append(ctx)
        else:
            errors.add(
                loc.error(f"a context must be a string or an object, not {type_name(item)}", field=field, value=item)
            )
    return tuple(out)


TEXT_KEYS = ("text", "content", "page_content")
_CONTEXT_KEYS = frozenset((*TEXT_KEYS, "id", "score", "metadata"))


def _context_object(item: Mapping[str, Any], field: str, loc: Location, errors: ErrorCollector) -> Context | None:
    before = errors.total
    texts = [k for k in TEXT_KEYS if item.get(k) is not None]
    text = ""
    if not texts:
        errors.add(
            loc.error(
                "a context object needs a 'text' (or 'content', 'page_content')",
                field=field,
                value=dict(item),
            )
        )
    elif len(texts) > 1:
        errors.add(loc.error(f"a context object has both {texts[0]!r} and {texts[1]!r}", field=field, hint="Keep one"))
    elif not isinstance(item[texts[0]], str):
        errors.add(
            loc.error(f"context text must be a string, not {type_name(item[texts[0]])}", field=f"{field}.{texts[0]}",
                      value=item[texts[0]])
        )
    else:
        text = item[texts[0]]
    ctx_id = item.get("id")
    if ctx_id is not None:
        if isinstance(ctx_id, int) and not isinstance(ctx_id, bool):
            ctx_id = str(ctx_id)
        elif not isinstance(ctx_id, str) or not ctx_id:
            message = "context id must be a non-empty string or an integer"
            errors.add(loc.error(message, field=f"{field}.id", value=ctx_id))
    score = item.get("score")
    if score is not None:
        if not is_number(score) or not math.isfinite(score):
            errors.add(loc.error("context score must be a finite number or null", field=f"{field}.score", value=score))
        else:
            score = float(score)
    meta = item.get("metadata")
    if meta is not None and not isinstance(meta, Mapping):
        errors.add(loc.error(f"context metadata must be an object, not {type_name(meta)}", field=f"{field}.metadata",
                             value=meta))
        meta = None
    merged = dict(meta or {})
    for k, val in item.items():  # e.g. LangChain's {"type": "Document"}: kept, not dropped
        if k in _CONTEXT_KEYS or val is None:
            continue
        if k in merged:
            errors.add(loc.error(f"context key {k!r} is also a metadata key", field=f"{field}.{k}", hint="Keep one"))
        merged[k] = val
    if errors.total > before:
        return None
    return Context(text=text, id=ctx_id, score=score, metadata=merged)


def tags(given: Given, loc: Location, errors: ErrorCollector) -> tuple[str, ...]:
    if given is None:
        return ()
    key, _, raw = given
    value = decode_text(raw)
    if isinstance(value, str):
        if "," in value:
            errors.add(
                loc.error(
                    "a tag string with commas is ambiguous",
                    field=key,
                    value=value,
                    hint=f"Pass several tags as a list [\"a\", \"b\"]; {LIST_HINT}",
                )
            )
            return ()
        value = [value]
    items = as_list(value)
    if items is None or not all(isinstance(t, str) and t for t in items):
        errors.add(loc.error("tags must be a string or a list of non-empty strings", field=key, value=value))
        return ()
    return tuple(dict.fromkeys(items))  # order kept, repeats dropped


def timing(given: Given, loc: Location, errors: ErrorCollector, *, scale: float = 1.0) -> float | None:
    if given is None:
        return None
    key, _, value = given
    unit = "seconds" if scale != 1.0 else "milliseconds"
    number: float
    if is_number(value):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            errors.add(loc.error(f"expected a number of {unit}", field=key, value=value))
            return None
    else:
        errors.add(loc.error(f"expected a number of {unit} or null, not {type_name(value)}", field=key, value=value))
        return None
    if not math.isfinite(number):
        errors.add(
            loc.error(
                "a timing must be a finite number",
                field=key,
                value=value,
                hint="Use null (an empty cell in CSV) for 'not measured'",
            )
        )
        return None
    if number < 0:
        errors.add(loc.error("a timing cannot be negative", field=key, value=value))
        return None
    return number * scale


def metadata(given: Given, extras: dict[str, Any], loc: Location, errors: ErrorCollector) -> dict[str, Any]:
    """``metadata`` (an object) plus every unknown column of the record; a key in both is an error."""
    merged: dict[str, Any] = {}
    if given is not None:
        key, _, raw = given
        value = decode_text(raw)
        if isinstance(value, Mapping):
            merged = dict(value)
        else:
            errors.add(
                loc.error(
                    f"metadata must be an object or null, not {type_name(value)}",
                    field=key,
                    value=value,
                    hint='Pass an object such as {"source": "faq"}; in CSV, write it as JSON',
                )
            )
    for name, val in extras.items():
        if name in merged:
            errors.add(
                loc.error(
                    f"the column {name!r} is also a key of metadata",
                    field=name,
                    hint="Rename the column or the metadata key",
                )
            )
            continue
        merged[name] = val
    return merged
