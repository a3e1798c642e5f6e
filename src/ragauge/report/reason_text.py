"""The reasons stored in results.json (unscored reasons, claim verdict reasons), in the report's language.

results.json keeps the English text the metrics and judges wrote (it is the machine record, counted and
compared as is); a Russian report renders a Russian version of it here, from the tables of
:mod:`ragauge.report.reason_ru`:

1. an exact match of a fixed reason;
2. else a pattern with captured values (quoted values, names and counts stay as written, decimals take a
   comma, a nested reason is translated in turn);
3. else the reason is cut at "; " into parts (the verifier joins its findings so) and the longest run of
   parts that has a rendering is taken from each position;
4. a part with no rendering stays as written, unmarked: an LLM judge's own words, a newer reason.

    >>> reason_text('number "20%" not in context; context says "30%"', "ru")
    'числа "20%" нет в контексте; в контексте: "30%"'
    >>> reason_text("no relevant_ids", "ru"), reason_text("no relevant_ids", "en")
    ('нет relevant_ids', 'no relevant_ids')
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

from .reason_ru import EXACT, PATTERNS, VERDICT

_COMPILED = [(re.compile(rx, re.S), template, maps) for rx, template, maps in PATTERNS]
_SEP = "; "


def reason_text(text: Any, lang: str) -> str:
    """``text`` (a stored reason) in ``lang``; English and unknown text are returned as written."""
    s = "" if text is None else str(text)
    if lang != "ru" or not s:
        return s
    return _ru(s)


def verdict_word(label: Any, lang: str) -> str:
    """A claim verdict label (``supported`` / ``unsupported`` / ``contradicted``) in ``lang``."""
    s = "" if label is None else str(label)
    return VERDICT.get(s.lower(), s) if lang == "ru" else s


def reasons_in(value: Any, lang: str) -> Any:
    """A copy of an artifact mapping with its top-level ``reason`` value in ``lang`` (for the JSON view)."""
    if lang != "ru" or not isinstance(value, Mapping) or not isinstance(value.get("reason"), str):
        return value
    return {**value, "reason": reason_text(value["reason"], lang)}


@lru_cache(maxsize=4096)
def _ru(text: str) -> str:
    whole = _one(text)
    if whole is not None:
        return whole
    parts = text.split(_SEP)
    if len(parts) == 1:
        return text
    out, i = [], 0
    while i < len(parts):
        for j in range(len(parts), i, -1):  # the longest run first: a quoted value may hold "; "
            found = _one(_SEP.join(parts[i:j]))
            if found is not None:
                out.append(found)
                i = j
                break
        else:
            out.append(parts[i])
            i += 1
    return _SEP.join(out)


def _one(text: str) -> str | None:
    """The rendering of ``text`` as one reason, or None when no table entry covers it."""
    if text in EXACT:
        return EXACT[text]
    for rx, template, maps in _COMPILED:
        m = rx.fullmatch(text)
        if m is None:
            continue
        fields = {}
        for name, value in m.groupdict().items():
            value = value or ""
            if name in maps:
                value = maps[name].get(value, value)
            elif name.startswith("n_"):
                value = value.replace(".", ",")
            elif name.startswith("r_"):
                value = _ru(value)
            fields[name] = value
        return template.format(**fields)
    return None
