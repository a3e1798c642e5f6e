"""Checkers for id fields: ``retrieved_ids`` (a ranking without repeats) and ``relevant_ids`` (grades).

Same contract as :mod:`ragauge.data._values`: add errors to the collector, return None when bad.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ragauge.data._collect import ErrorCollector, Location
from ragauge.data._values import LIST_HINT, Given, as_list, decode_text, is_number, type_name


#: Names (after field_map) whose value is one document, so a plain string is that document's id.
SINGLE_ID_NAMES = frozenset({"relevant_doc"})

#: Names whose list may hold document objects ``{id, text, ...}``: the id is taken (and the texts
#: become contexts, see validate.py).
DOC_OBJECT_NAMES = frozenset({"retrieved_docs"})


#: What could separate several ids written in one string ("d1,d2", "d1; d2", "d1 d2"): such a string is
#: ambiguous (one id with a comma, or two ids?) and is refused with the way to write a list.
_SEPARATORS = frozenset(",;|")


def is_single_id(text: str) -> bool:
    """``"d1"`` is one id; ``"d1,d2"``, ``"d1 d2"`` or ``""`` are not (ambiguous or empty).

    Only for ``relevant_ids``: a set of one is a set, while a *ranking* of one string (``retrieved_ids``)
    is more likely a list written wrongly, so that field keeps asking for a list.

    >>> is_single_id("doc-7#3"), is_single_id("d1,d2"), is_single_id("d1 d2"), is_single_id("")
    (True, False, False, False)
    """
    return bool(text) and not any(ch in _SEPARATORS or ch.isspace() for ch in text)


def _id_list(
    key: str, value: Any, loc: Location, errors: ErrorCollector, string_hint: str, *, objects: bool = False
) -> list[str] | None:
    value = decode_text(value)
    if isinstance(value, str):
        errors.add(loc.error("ids given as one string", field=key, value=value, hint=string_hint))
        return None
    items = as_list(value)
    if items is None:
        message = f"expected a list of ids, not {type_name(value)}"
        errors.add(loc.error(message, field=key, value=value, hint=string_hint))
        return None
    out: list[str] = []
    for i, item in enumerate(items):
        if objects and isinstance(item, Mapping):
            if item.get("id") is None:
                errors.add(
                    loc.error(
                        "a document object needs an 'id'",
                        field=f"{key}[{i}]",
                        value=dict(item),
                        hint='Write {"id": "d1", "text": "..."}, or put texts without ids under "contexts"',
                    )
                )
                return None
            item = item["id"]
        if isinstance(item, int) and not isinstance(item, bool):
            out.append(str(item))
        elif isinstance(item, str) and item:
            out.append(item)
        else:
            errors.add(loc.error("an id must be a non-empty string or an integer", field=f"{key}[{i}]", value=item))
            return None
    return out


def _first_duplicate(ids: list[str]) -> tuple[str, int, int] | None:
    seen: dict[str, int] = {}
    for i, item in enumerate(ids):
        if item in seen:
            return item, seen[item], i
        seen[item] = i
    return None


def retrieved_ids(given: Given, loc: Location, errors: ErrorCollector) -> tuple[str, ...] | None:
    if given is None:
        return None
    key, name, _ = given
    ids = _id_list(
        key, given[2], loc, errors, f"Pass the ranking as a list, best first; {LIST_HINT}", objects=name in DOC_OBJECT_NAMES
    )
    if ids is None:
        return None
    dup = _first_duplicate(ids)
    if dup is not None:
        errors.add(
            loc.error(
                f"duplicate id {dup[0]!r} in the ranking (positions {dup[1]} and {dup[2]})",
                field=key,
                hint="Ranking metrics need each document once; keep its first (best) position",
            )
        )
        return None
    return tuple(ids)


RELEVANT_HINT = (
    'Pass a list ["d1", "d2"] (grade 1 each) or an object of grades {"d1": 2, "d2": 1}; '
    "in CSV, write either as JSON"
)


def relevant_ids(given: Given, loc: Location, errors: ErrorCollector) -> dict[str, float] | None:
    if given is None:
        return None
    key, name, raw = given
    value = decode_text(raw)
    if name in SINGLE_ID_NAMES and (isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))):
        value = [value]  # relevant_doc: "d1" is the one relevant document
    elif (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, str) and is_single_id(value)):
        value = [value]  # "d1" (a CSV cell, the seed's golden format): the one relevant document
    if isinstance(value, str):
        errors.add(loc.error("relevant ids given as one string", field=key, value=value, hint=RELEVANT_HINT))
        return None
    if isinstance(value, list) and value and all(isinstance(p, tuple) and len(p) == 2 for p in value):
        value = dict(value)  # an Arrow map column reads back as a list of (key, value) pairs
    if isinstance(value, Mapping):
        grades: dict[str, float] = {}
        for doc, grade in value.items():
            if grade is None:  # not judged; Parquet struct columns fill absent keys with null
                continue
            if isinstance(doc, int) and not isinstance(doc, bool):
                doc = str(doc)
            if not isinstance(doc, str) or not doc:
                errors.add(loc.error("a relevant id must be a non-empty string", field=key, value=doc))
                return None
            if not is_number(grade) or not math.isfinite(grade):
                errors.add(
                    loc.error(
                        f"the grade of {doc!r} must be a finite number, not {type_name(grade)}",
                        field=key,
                        value=grade,
                        hint="Grades follow trec_eval: >= 1 relevant, 0 or less judged non-relevant",
                    )
                )
                return None
            grades[doc] = grade
        return grades
    ids = _id_list(key, value, loc, errors, RELEVANT_HINT)
    if ids is None:
        return None
    dup = _first_duplicate(ids)
    if dup is not None:
        errors.add(loc.error(f"duplicate id {dup[0]!r} in relevant ids", field=key, hint="List each document once"))
        return None
    return {doc: 1 for doc in ids}
