"""Named entities, dates and standards of a text, and whether a claim's ones appear in the evidence.

Kinds: ``PER``, ``LOC``, ``ORG`` (natasha's news NER for Cyrillic text), ``NAME`` (a capitalised
span: English text, or Russian with ``ner=False``), ``DATE`` (regexes, both languages) and ``STD``
(building standards and specs: "ГОСТ 31357-2007", "СП 70.13330.2012", "СНиП 3.03.01-87",
"ISO 9001", "EN 206"). Money and quantities are not here: ``numbers.py`` reads them.

Normal forms (``Entity.norm``) are for matching, not display: lower-case lemmas (pymorphy3 for
Russian, Porter stems for Latin words) without legal forms ("ООО", "LLC") and quotes; dates are
``YYYY-MM-DD`` with ``????``/``??`` for parts the text does not give ("15 марта" ->
``????-03-15``), or ``YYYY-MM`` / ``YYYY`` when only those are given.

Speed (2-core box, warm): natasha NER ~0.75 ms per sentence after a 0.4 s load, so it is on by
default; ``ner=False`` skips it (capitalised-span heuristic, ~0.02 ms). NER runs with one BLAS
thread: with two, OpenBLAS spin-waits made it 5-70 ms per sentence when the other core was busy.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ragauge.judges.offline import deps
from ragauge.judges.offline.lemmas import analyze
from ragauge.judges.offline.text import detect_language, is_cyrillic_language


@dataclass(frozen=True, slots=True)
class Entity:
    """An entity at ``text[start:end]`` of kind PER, LOC, ORG, NAME, DATE or STD."""

    text: str
    kind: str
    norm: str
    start: int
    end: int


# ---------------------------------------------------------------- dates

_RU_MONTHS = (
    ("январ", 1), ("феврал", 2), ("март", 3), ("апрел", 4), ("ма", 5), ("июн", 6), ("июл", 7),
    ("август", 8), ("сентябр", 9), ("октябр", 10), ("ноябр", 11), ("декабр", 12),
)
_EN_MONTHS = {
    name: i + 1
    for i, names in enumerate(
        ("jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july",
         "aug august", "sep sept september", "oct october", "nov november", "dec december")
    )
    for name in names.split()
}
_RU_MONTH = r"(январ[ьяе]|феврал[ьяе]|марта?|марте|апрел[ьяе]|ма[йяе]|июн[ьяе]|июл[ьяе]|августа?|августе|сентябр[ьяе]|октябр[ьяе]|ноябр[ьяе]|декабр[ьяе])"
_EN_MONTH = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_YEAR_SUFFIX = r"(?:\s*(?:г\.|года|году|год|гг\.))?"

_DATE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("dotted", re.compile(r"\b(\d{1,2})([./])(\d{1,2})\2(\d{4}|\d{2})\b" + _YEAR_SUFFIX)),
    ("ru_dmy", re.compile(r"\b(\d{1,2})\s+" + _RU_MONTH + r"(?:\s+(\d{4}))?" + _YEAR_SUFFIX, re.IGNORECASE)),
    ("ru_my", re.compile(r"(?<!\w)" + _RU_MONTH + r"\s+(\d{4})" + _YEAR_SUFFIX, re.IGNORECASE)),
    ("en_mdy", re.compile(r"\b" + _EN_MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?", re.IGNORECASE)),
    ("en_dmy", re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _EN_MONTH + r"(?:,?\s+(\d{4}))?", re.IGNORECASE)),
    ("en_my", re.compile(r"\b" + _EN_MONTH + r"\s+(\d{4})\b", re.IGNORECASE)),
    ("ru_year", re.compile(r"\b(\d{4})\s*(?:г\.|года|году|год)(?!\w)", re.IGNORECASE)),
)


def _ru_month(word: str) -> int:
    word = word.lower()
    for stem, number in _RU_MONTHS:
        if word.startswith(stem):
            return number
    raise ValueError(word)


def _date_norm(kind: str, groups: tuple[str | None, ...], lang: str | None) -> str | None:
    def fmt(year: str | None, month: int | None, day: int | None) -> str | None:
        if month is not None and not 1 <= month <= 12 or day is not None and not 1 <= day <= 31:
            return None
        y = year if year else "????"
        if day is None:
            return f"{y}-{month:02d}" if month is not None else y
        return f"{y}-{month:02d}-{day:02d}"

    if kind == "iso":
        return fmt(groups[0], int(groups[1]), int(groups[2]))
    if kind == "dotted":
        a, sep, b, year = int(groups[0]), groups[1], int(groups[2]), groups[3] or ""
        if len(year) == 2:
            year = "20" + year
        if sep == "/" and lang == "en" and a <= 12 < b:
            a, b = b, a  # US order: month/day
        elif sep == "/" and lang == "en" and a <= 12 and b <= 12:
            a, b = b, a  # ambiguous: English text reads month/day
        return fmt(year, b, a)
    if kind == "ru_dmy":
        return fmt(groups[2], _ru_month(groups[1]), int(groups[0]))
    if kind == "ru_my":
        return fmt(groups[1], _ru_month(groups[0]), None)
    if kind == "en_mdy":
        return fmt(groups[2], _EN_MONTHS[groups[0].lower()], int(groups[1]))
    if kind == "en_dmy":
        return fmt(groups[2], _EN_MONTHS[groups[1].lower()], int(groups[0]))
    if kind == "en_my":
        return fmt(groups[1], _EN_MONTHS[groups[0].lower()], None)
    if kind == "ru_year":
        return fmt(groups[0], None, None)
    raise AssertionError(kind)


def _dates(text: str, lang: str | None, taken: list[tuple[int, int]]) -> list[Entity]:
    """Dates not overlapping the spans in ``taken`` (which grows with each date found)."""
    out = []
    for kind, pattern in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < b and a < end for a, b in taken):
                continue
            norm = _date_norm(kind, match.groups(), lang)
            if norm is None:
                continue
            taken.append((start, end))
            out.append(Entity(match.group(), "DATE", norm, start, end))
    if "." in text:  # "с 20.06 по 25.07": a day and month without the year (the quantity reader's rule)
        from ragauge.judges.offline._quantity_specials import dot_pairs

        for start, end, kind, value in dot_pairs(text):
            if kind == "date" and not any(start < b and a < end for a, b in taken):
                taken.append((start, end))
                out.append(Entity(text[start:end], "DATE", f"????-{int(value) // 100:02d}-{int(value) % 100:02d}", start, end))
    return out


# ---------------------------------------------------------------- standards

_STANDARD = re.compile(
    r"(?<!\w)(ГОСТ(?:\s+Р)?|СНиП|СанПиН|СП|ТУ|ТР\s+ТС|ISO|EN|DIN|ASTM|BS|IEC)\s*№?\s*(\d[\d.\-–:/]*\d|\d)(?!\w)"
)


def _standards(text: str) -> list[Entity]:
    out = []
    for match in _STANDARD.finditer(text):
        name = re.sub(r"\s+", " ", match.group(1)).lower()
        number = match.group(2).replace("–", "-")
        out.append(Entity(match.group(), "STD", f"{name} {number}", match.start(), match.end()))
    return out


# ---------------------------------------------------------------- names

# Dropped from normal forms: legal forms and titles say nothing about which entity it is.
_LEGAL_FORMS = frozenset(
    "ооо оао зао пао ао ип нко гуп муп фгуп тоо llc inc ltd corp co gmbh jsc plc llp lp sa ag"
    " dr mr mrs ms prof sir".split()
)
# Contract defined terms are capitalised ("the Contractor shall") but name no one in particular;
# scope_terms() reads the parties.
_DEFINED_TERMS = frozenset(
    "contractor subcontractor customer client owner employer buyer seller supplier vendor party parties"
    " agreement contract works work site price schedule annex appendix section clause article".split()
)
_ORG_WORDS = frozenset(
    "inc llc ltd corp corporation company co group gmbh bank university ministry association jsc plc".split()
)
_CONNECTORS = frozenset({"of", "and", "&", "de", "the", "for"})
_SENTENCE_END = re.compile(r"(?:^|[.!?\n:;•]|^\s*[-*])\s*[\"'«“(]?\s*$")


def _norm_words(text: str) -> str:
    words = [t.lemma for t in analyze(text) if t.lemma not in _LEGAL_FORMS]
    return " ".join(words)


def _capitalised(text: str) -> list[Entity]:
    """Runs of capitalised words, skipping a lone capitalised word that starts a sentence."""
    tokens = analyze(text)
    out = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.is_number or not tok.text[0].isupper():
            i += 1
            continue
        j = i + 1
        while j < len(tokens):
            nxt = tokens[j]
            if not nxt.is_number and nxt.text[0].isupper():
                j += 1
            elif (
                nxt.text.lower() in _CONNECTORS
                and j + 1 < len(tokens)
                and tokens[j + 1].text[0].isupper()
            ):
                j += 2
            else:
                break
        run = tokens[i:j]
        i = j
        at_start = _SENTENCE_END.search(text, 0, run[0].start) is not None
        if at_start and len(run) > 1 and run[0].is_stop:
            run = run[1:]  # "The Smith Group" -> "Smith Group"
            at_start = False
        if len(run) == 1 and (
            at_start and not run[0].text.isupper()
            or run[0].is_stop
            or run[0].text == "I"
            or run[0].text.lower() in _DEFINED_TERMS
        ):
            continue
        start, end = run[0].start, run[-1].end
        span = text[start:end]
        kind = "ORG" if any(t.text.lower().strip(".") in _ORG_WORDS for t in run) else "NAME"
        norm = _norm_words(span)
        if norm:
            out.append(Entity(span, kind, norm, start, end))
    return out


def _natasha(text: str) -> list[Entity]:
    tools = deps.natasha_tools()
    doc = tools.natasha.Doc(text)
    doc.segment(tools.segmenter)
    with deps.blas_threads(1):  # tiny matrices: extra BLAS threads only spin
        doc.tag_ner(tools.ner_tagger)
    out = []
    for span in doc.spans:
        norm = _norm_words(span.text)
        if norm:
            out.append(Entity(span.text, span.type, norm, span.start, span.stop))
    return out


# ---------------------------------------------------------------- public


def extract_entities(text: str, lang: str | None = None, *, ner: bool = True) -> list[Entity]:
    """Entities of ``text`` sorted by position (kinds and normal forms in the module doc).

    Cyrillic text uses natasha's NER when ``ner`` is true (raises
    :class:`~ragauge.errors.MissingDependencyError` if natasha is not installed), else the
    capitalised-span heuristic; other text always uses the heuristic. Dates and standards come
    from regexes in every language; a name overlapping a date or standard is dropped.

    >>> [(e.kind, e.norm) for e in extract_entities("Договор подписан 15 марта 2024 г. по ГОСТ 31357-2007.")]
    [('DATE', '2024-03-15'), ('STD', 'гост 31357-2007')]
    """
    return list(_extract(text, lang, ner))


@lru_cache(maxsize=16384)
def _extract(text: str, lang: str | None, ner: bool) -> tuple[Entity, ...]:
    if lang is None:
        lang = detect_language(text)
    standards = _standards(text)
    # Standards first: "СНиП 3.03.01-87" holds what looks like a date.
    fixed = standards + _dates(text, lang, [(e.start, e.end) for e in standards])
    names = _natasha(text) if ner and is_cyrillic_language(lang) else _capitalised(text)
    names = [n for n in names if not any(n.start < f.end and f.start < n.end for f in fixed)]
    return tuple(sorted(fixed + names, key=lambda e: (e.start, e.end)))


def _words_match(a: str, b: str) -> bool:
    if a == b:
        return True
    # unknown names inflect in ways pymorphy3 guesses differently ("Строймонтажа"): a shared
    # stem of 4+ letters with at most 2 letters of ending difference counts.
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and long.startswith(short[:-1] if len(short) > 4 else short) and len(long) - len(short) <= 2


def _name_found(norm: str, evidence_norms: set[str], evidence_words: set[str]) -> bool:
    if norm in evidence_norms:
        return True
    # NER misses names in long evidence: fall back to every word of the name among the
    # evidence's lemmas.
    return all(any(_words_match(word, other) for other in evidence_words) for word in norm.split())


def _date_found(norm: str, evidence_dates: list[str]) -> bool:
    claim = norm.split("-")
    for other in evidence_dates:
        parts = other.split("-")
        if len(parts) >= len(claim) and all(
            c == p for c, p in zip(claim, parts, strict=False) if not c.startswith("?")
        ):
            return True
    return False


def _bare_year(year: str, text: str) -> bool:
    return re.search(rf"(?<![\d.,]){year}(?!\d|[.,]\d)", text) is not None


@lru_cache(maxsize=4096)
def _index(text: str, lang: str | None, ner: bool) -> tuple[list[str], set[str], set[str]]:
    """(dates, other normal forms, non-stop lemmas) of ``text``, cached: contexts repeat per claim."""
    evid = _extract(text, lang, ner)
    return ([e.norm for e in evid if e.kind == "DATE"], {e.norm for e in evid if e.kind != "DATE"},
            {t.lemma for t in analyze(text) if not t.is_stop})


def entity_found(kind: str, norm: str, text: str, *, lang: str | None = None, ner: bool = True) -> bool:
    """Whether an entity (``kind``, ``norm``) appears in ``text`` (rules: :func:`entity_mismatch`)."""
    dates, norms, words = _index(text, lang, ner)
    if kind == "DATE":
        # a year alone ("в 2024 году") is also found as a bare year ("Финансовые результаты 2024:")
        return _date_found(norm, dates) or (len(norm) == 4 and norm.isdigit() and _bare_year(norm, text))
    if kind == "STD":
        return norm in norms
    return _name_found(norm, norms, words)


def entity_mismatch(claim: str, evidence: str, *, lang: str | None = None, ner: bool = True,
                    background: Sequence[str] | None = None) -> tuple[int, int]:
    """``(n_claim_entities, n_missing_in_evidence)`` for the distinct entities of the claim.

    Dates match when every part the claim gives equals the evidence's ("15 марта" matches
    "15.03.2024"; "15 марта 2025" does not). Standards match by normal form; names by normal form
    or, when NER missed them in the evidence, by all their words among the evidence's lemmas.
    ``background``: the whole contexts the evidence windows were cut from; an entity found in any
    of them is not missing (a date in a header: "Прайс-лист (ред. от 01.03.2026)").

    >>> entity_mismatch("Работы сдаются 1 июня 2025 г. по ГОСТ 530-2012", "Срок сдачи 01.06.2025, кирпич по ГОСТ 530-2012.")
    (2, 0)
    >>> entity_mismatch("По прайсу от 01.03.2026 бетон стоит 7 450 руб./м³", "Бетон B25 — 7 450 руб./м³",
    ...                 background=["Прайс-лист (ред. от 01.03.2026). Бетон B25 — 7 450 руб./м³"])
    (1, 0)
    """
    claim_entities = {(e.kind, e.norm) for e in _extract(claim, lang, ner)}
    if not claim_entities:
        return 0, 0
    missing = 0
    for kind, norm in claim_entities:
        found = entity_found(kind, norm, evidence, lang=lang, ner=ner) or any(
            entity_found(kind, norm, text, lang=lang, ner=ner) for text in background or ())
        missing += not found
    return len(claim_entities), missing


__all__ = ["Entity", "entity_found", "entity_mismatch", "extract_entities"]
