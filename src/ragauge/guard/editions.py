"""Editions: when one document replaces another, the current one wins. Pure functions.

A chunk's *document family* is its title (metadata ``title``, else ``doc_id``) with the edition marks
taken out ("редакция от 01.03.2026", "ред. от ...", "версия 3.1", "2025", "v2"); its *edition date* is
the latest of: metadata ``version`` ("2026-03"), a "ред./редакция от DD.MM.YYYY" or "действует с
DD.MM.YYYY" in the title or text. A chunk is *superseded* when

* its text says so ("утратил силу", "действовал до", "заменена новой редакцией", "superseded":
  :func:`ragauge.judges.offline.answerability.is_superseded`), or
* another chunk of the same family (among the ones given: the retrieved chunks, or the whole index)
  has a later edition date.

A question about the past ("раньше", "в старой редакции", "what was") keeps every edition.

    >>> a = {"id": "p25", "text": "Штукатурка — 560 руб.", "metadata": {"title": "Прайс-лист, редакция от 01.09.2025"}}
    >>> b = {"id": "p26", "text": "Штукатурка — 620 руб.", "metadata": {"title": "Прайс-лист, редакция от 01.03.2026"}}
    >>> sorted(superseded_ids([a, b]))
    ['p25']
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

from ..judges.offline.answerability import asks_past, is_superseded

__all__ = ["edition_date", "family", "prefer_current", "superseded_ids"]

_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
_EDITION_DATE = re.compile(r"(?:ред(?:\.|акци[яи])?\s*(?:,\s*действующ\w+\s+)?(?:от|с)|действу\w+\s+с|вступа\w+\s+в\s+силу|"
                           r"утвержд\w+|effective|as\s+of|version\s+of)\s*(\d{1,2}\.\d{1,2}\.\d{4})", re.I)
_VERSION = re.compile(r"^(\d{4})(?:[-.](\d{1,2}))?(?:[-.](\d{1,2}))?$")
_EDITION_MARKS = re.compile(
    r"\(?\s*(?:ред(?:\.|акци[яи])?|версия|version|edition|rev\.?|v)\s*(?:от|of|с)?\s*[\d.\-]+\s*\)?|"
    r"\b(?:от|с|of)\s+\d{1,2}\.\d{1,2}\.\d{4}|\b\d{1,2}\.\d{1,2}\.\d{4}|\b(?:19|20)\d{2}\b|[-_]?v\d+\b", re.I)


def _field(chunk: Any, name: str) -> Any:
    if isinstance(chunk, Mapping):
        meta = chunk.get("metadata") or {}
        return chunk.get(name, meta.get(name) if isinstance(meta, Mapping) else None)
    value = getattr(chunk, name, None)
    if value is None:
        meta = getattr(chunk, "metadata", None) or {}
        value = meta.get(name) if isinstance(meta, Mapping) else None
    return value


def family(chunk: Any) -> str | None:
    """The document family key (title or doc_id without edition marks), or None when the chunk has neither."""
    title = _field(chunk, "title") or _field(chunk, "doc_id")
    if not title:
        return None
    key = _EDITION_MARKS.sub(" ", str(title).lower())
    key = re.sub(r"[\W_]+", " ", key).strip()
    return key or None


def _date_key(day: str, month: str, year: str) -> tuple[int, int, int]:
    return int(year), int(month), int(day)


def edition_date(chunk: Any) -> tuple[int, int, int] | None:
    """The chunk's edition date as (year, month, day): metadata ``version``, else a date after "ред. от" /
    "действует с" in the title or the text; None when none is written."""
    dates: list[tuple[int, int, int]] = []
    version = _field(chunk, "version")
    if version is not None:
        m = _VERSION.match(str(version).strip())
        if m:
            dates.append((int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1)))
    for source in (_field(chunk, "title"), _field(chunk, "text")):
        for m in _EDITION_DATE.finditer(str(source or "")[:400]):
            d = _DATE.match(m.group(1))
            if d:
                dates.append(_date_key(*d.groups()))
    return max(dates) if dates else None


def superseded_ids(chunks: Sequence[Any], *, universe: Iterable[Any] | None = None) -> set[str]:
    """Ids of the ``chunks`` that are superseded (module doc). ``universe``: all chunks that exist (the
    whole index), so a retrieved old edition is known as old even when the new one was not retrieved."""
    newest: dict[str, tuple[int, int, int]] = {}
    for c in list(universe if universe is not None else ()) + list(chunks):
        key, date = family(c), edition_date(c)
        if key is not None and date is not None and date > newest.get(key, (0, 0, 0)):
            newest[key] = date
    out: set[str] = set()
    for c in chunks:
        cid = str(_field(c, "id"))
        key, date = family(c), edition_date(c)
        if is_superseded(str(_field(c, "text") or "")[:400]):
            out.add(cid)
        elif key is not None and date is not None and date < newest.get(key, date):
            out.add(cid)
    return out


def prefer_current(chunks: Sequence[Any], question: str, *, universe: Iterable[Any] | None = None,
                   drop: bool = False) -> tuple[list[Any], list[str]]:
    """``chunks`` with the superseded ones moved after the others (``drop=True``: left out while a current
    chunk remains), and the ids of the superseded ones; unchanged for a question about the past."""
    if asks_past(question):
        return list(chunks), []
    old = superseded_ids(chunks, universe=universe)
    if not old:
        return list(chunks), []
    current = [c for c in chunks if str(_field(c, "id")) not in old]
    stale = [c for c in chunks if str(_field(c, "id")) in old]
    if drop and current:
        return current, [str(_field(c, "id")) for c in stale]
    return current + stale, [str(_field(c, "id")) for c in stale]
