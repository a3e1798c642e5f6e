"""Quantities in Russian and English text: value, unit, qualifier, bound, approximation, span.

    >>> [(q.value, q.unit, q.qualifier) for q in extract_quantities("Приёмка в течение 5 (пяти) рабочих дней")]
    [(5.0, 'working_day', 'working')]
    >>> q = extract_quantities("Стоимость 1 150 руб./м²")[0]
    >>> (q.value, q.unit, q.dimension, q.qualifier)
    (1150.0, 'rub/m2', 'money', 'per_m2')

``value`` is in the written unit after multipliers ("52,7 млрд" -> 52.7e9, unit None; "1,5 м" -> 1.5, "m");
``base_value``/``base_unit`` convert exactly where a conversion is exact (years -> months, weeks -> days,
hours -> minutes, mm/cm/km -> m, t/g -> kg). Months and days are never converted into each other.
Kinds: "number", "range" (``value`` is the low end, ``high`` the high end), "date" (value YYYYMMDD with 0
for an unknown part), "ref" (clause/article/standard numbers: never compared as amounts), "grade"
(concrete and steel classes: М300 -> unit "M", value 300), "ordinal", "clock" (minutes after midnight).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ...errors import InputError
from ._quantity_atoms import Atom, detect_lang, find_atoms
from ._quantity_lexicon import DENOMINATOR_PATTERNS, MULTIPLIER_PATTERNS, RATE_LINK, UNIT_INFO, UNIT_PATTERNS
from ._quantity_specials import find_specials

__all__ = ["Quantity", "detect_lang", "extract_quantities", "span_with_lead"]


@dataclass(frozen=True, slots=True)
class Quantity:
    """One quantity found in a text; ``text[start:end] == raw``."""

    value: float
    raw: str
    start: int
    end: int
    unit: str | None = None
    dimension: str | None = None
    qualifier: str | None = None
    approx: bool = False
    bound: str | None = None  # "min" ("не менее", "at least") or "max" ("до", "не более", "up to")
    kind: str = "number"
    high: float | None = None  # upper end of a range

    @property
    def base_unit(self) -> str | None:
        """Unit after exact conversion: "year" -> "month", "cm" -> "m", "rub/m2" -> "rub/m2"."""
        if self.unit is None or self.kind not in ("number", "range"):
            return self.unit
        head, _, per = self.unit.partition("/")
        base = UNIT_INFO[head][1] if head in UNIT_INFO else head
        return f"{base}/{per}" if per else base

    @property
    def factor(self) -> float:
        """Multiply ``value`` by this to get ``base_value``."""
        if self.unit is None or self.kind not in ("number", "range"):
            return 1.0
        head = self.unit.partition("/")[0]
        return UNIT_INFO[head][2] if head in UNIT_INFO else 1.0

    @property
    def base_value(self) -> float:
        return self.value * self.factor

    @property
    def base_high(self) -> float | None:
        return None if self.high is None else self.high * self.factor


def _alternation(named: list[tuple[str, str]], prefix: str) -> tuple[re.Pattern[str], dict[str, str]]:
    groups = {f"{prefix}{i}": name for i, (name, _) in enumerate(named)}
    body = "|".join(f"(?P<{prefix}{i}>{pattern})" for i, (_, pattern) in enumerate(named))
    return re.compile(r"\s*(?:" + body + ")", re.IGNORECASE), groups


_UNIT_RE, _UNIT_GROUPS = _alternation(UNIT_PATTERNS, "u")
_MULT_RE, _MULT_GROUPS = _alternation([(str(v), p) for v, p in MULTIPLIER_PATTERNS], "k")
_DEN_RE, _DEN_GROUPS = _alternation(DENOMINATOR_PATTERNS, "d")
_RATE_LINK_RE = re.compile(RATE_LINK, re.IGNORECASE)
_RUB_IN_MULT_RE = re.compile(r"т\.\s?р", re.IGNORECASE)

_APPROX = (r"около|примерно|приблизительно|порядка|ориентировочно|почти|~|≈|"
           r"about|approximately|approx\.|around|roughly|circa|nearly|almost")
_MIN = (r"не\s+менее|не\s+меньше|как\s+минимум|минимум|не\s+ниже|не\s+ранее|свыше|более|больше|выше|от|с|"
        r"at\s+least|no\s+less\s+than|not\s+less\s+than|minimum\s+of|more\s+than|over|above|from|"
        r"между|between")
_MAX = (r"не\s+более|не\s+больше|максимум|не\s+выше|не\s+позднее|в\s+пределах|в\s+течение|до|менее|меньше|"
        r"up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+than|maximum\s+of|less\s+than|under|below|"
        r"within|no\s+later\s+than|until")
_PREFIX_RE = re.compile(
    rf"(?<![\w])(?:(?P<approx>{_APPROX})|(?P<min>{_MIN})|(?P<max>{_MAX}))(?:\s+чем|\s+than)?\s*$", re.IGNORECASE)
_RANGE_OPENERS = {"от", "с", "from", "между", "between"}
_SIGN_RE = re.compile(r"(?:(?<=[\s(:;=/])|^)(?:(?P<minus>[\-−–]|минус\s+|minus\s+)|(?P<plus>\+|плюс\s+|plus\s+))$",
                      re.IGNORECASE)
_CURRENCY_RE = re.compile(r"(?<![\w$€₽])(?P<cur>US\$|\$|€|₽|USD|EUR|RUB)\s?$")
_CURRENCY_UNIT = {"US$": "usd", "$": "usd", "USD": "usd", "€": "eur", "EUR": "eur", "₽": "rub", "RUB": "rub"}
_PAREN_OPEN_RE = re.compile(r"\s*\(\s*")
_PAREN_CLOSE_RE = re.compile(r"\s*\)")
_RANGE_RE = re.compile(r"\s*(?P<c>[-–—‑]|\.\.\.?|…|до|по|to|and|и)\s*(?P<sign>[+\-−]|минус\s+|плюс\s+)?",
                       re.IGNORECASE)
_ORDINAL_RE = re.compile(r"(?:-(?:ый|ий|ой|ая|ое|ые|ого|ому|ым|ом|ую|ых|й|го|му|м|я|е|ю)|st|nd|rd|th)\b",
                         re.IGNORECASE)

_HYPHEN_UNIT_RE = re.compile(r"[-‑](?=[a-z])", re.IGNORECASE)
_TIMES_RE = re.compile(r"\s*[×xх*]\s*")


def _prefix(text: str, start: int) -> tuple[int, bool, str | None, str | None]:
    """Approximation and bound words right before ``start``: (new start, approx, bound, opener word)."""
    approx, bound, opener = False, None, None
    for _ in range(2):  # "не более чем около", "around up to" ...
        m = _PREFIX_RE.search(text, max(0, start - 30), start)
        if m is None:
            break
        if m.group("approx"):
            approx = True
        elif bound is None:
            word = (m.group("min") or m.group("max")).lower()
            bound = "min" if m.group("min") else "max"
            opener = word if word in _RANGE_OPENERS else None
        start = m.start()
    return start, approx, bound, opener


def span_with_lead(text: str, q: Quantity) -> tuple[int, int]:
    """``(start, end)`` of ``q`` with the approximation or bound words before it ("примерно 1,5 тыс.", "порядка
    100 тысяч", "не более 10 дней"): the words that belong to the figure, not to the claim's content."""
    return _prefix(text, q.start)[0], q.end


def _sign(text: str, start: int) -> tuple[int, float]:
    m = _SIGN_RE.search(text, max(0, start - 7), start)
    if m is None:
        return start, 1.0
    return m.start(), -1.0 if m.group("minus") else 1.0


def _suffix(text: str, pos: int) -> tuple[float, str | None, str | None, int]:
    """Multiplier, unit and rate denominator after ``pos``: (multiplier, unit, denominator, end)."""
    multiplier, unit, per = 1.0, None, None
    m = _MULT_RE.match(text, pos)
    if m:
        multiplier, pos = float(_MULT_GROUPS[m.lastgroup]), m.end()
        if _RUB_IN_MULT_RE.search(m.group()):
            unit = "rub"
    if unit is None:
        m = _UNIT_RE.match(text, pos)
        if m:
            unit, pos = _UNIT_GROUPS[m.lastgroup], m.end()
        elif multiplier == 1.0:
            # English unit adjectives: "3-year warranty", "5-day", "10-mm", "two-week" (a hyphen, then
            # a Latin unit word; Russian "5-летний" is left alone)
            hy = _HYPHEN_UNIT_RE.match(text, pos)
            if hy:
                m = _UNIT_RE.match(text, hy.end())
                if m and m.start() == m.end() - len(m.group().lstrip()) and m.group()[:1].isascii():
                    unit, pos = _UNIT_GROUPS[m.lastgroup], m.end()
    if unit is not None:
        link = _RATE_LINK_RE.match(text, pos)
        if link:
            m = _DEN_RE.match(text, link.end())
            if m and _DEN_GROUPS[m.lastgroup] != unit:
                per, pos = _DEN_GROUPS[m.lastgroup], m.end()
    return multiplier, unit, per, pos


def _with_prefix(q: Quantity, text: str) -> Quantity:
    start, approx, bound, opener = _prefix(text, q.start)
    if q.kind == "date" and opener == "от":
        bound = None  # "договор от 10.01.2026" is the date of signing
    if not approx and bound is None:
        return q
    return Quantity(q.value, q.raw, q.start, q.end, q.unit, q.dimension, q.qualifier, approx, bound, q.kind, q.high)


def _build(text: str, start: int, end: int, value: float, unit: str | None, per: str | None, *,
           approx: bool, bound: str | None, kind: str = "number", high: float | None = None) -> Quantity:
    dimension = qualifier = None
    if unit is not None:
        dimension, _, _, qualifier = UNIT_INFO[unit]
        if per is not None:
            unit, qualifier = f"{unit}/{per}", f"per_{per}"
    return Quantity(value, text[start:end], start, end, unit, dimension, qualifier, approx, bound, kind, high)


def _parse_at(text: str, atoms: list[Atom], i: int, by_start: dict[int, int]) -> tuple[Quantity | None, int]:
    atom = atoms[i]
    start, sign = _sign(text, atom.start)
    m = _CURRENCY_RE.search(text, max(0, start - 4), start)
    currency = _CURRENCY_UNIT[m.group("cur")] if m else None
    start = m.start() if m else start
    if currency and sign == 1.0:
        start, sign = _sign(text, start)
    _, approx, bound, opener = _prefix(text, start)
    pos = atom.end
    paren = _PAREN_OPEN_RE.match(text, pos)  # "5 (пяти) рабочих дней", "пять (5) дней"
    if paren and paren.end() in by_start:
        inner = atoms[by_start[paren.end()]]
        close = _PAREN_CLOSE_RE.match(text, inner.end)
        if close and inner.value == atom.value:
            pos = close.end()
    multiplier, unit, per, end = _suffix(text, pos)
    if unit is None and currency is not None:  # "$1,150 per m2"
        unit = currency
        link = _RATE_LINK_RE.match(text, end)
        den = _DEN_RE.match(text, link.end()) if link else None
        if den:
            per, end = _DEN_GROUPS[den.lastgroup], den.end()
    value = sign * atom.value * multiplier

    times = _TIMES_RE.match(text, end) if unit is None and multiplier == 1.0 else None
    if times and times.end() in by_start:
        _, unit_next, _, _ = _suffix(text, atoms[by_start[times.end()]].end)
        if unit_next is not None and UNIT_INFO[unit_next][0] == "length":
            unit = unit_next

    if unit is None and multiplier == 1.0 and _ORDINAL_RE.match(text, atom.end):
        end = _ORDINAL_RE.match(text, atom.end).end()
        return _build(text, start, end, value, None, None, approx=False, bound=None, kind="ordinal"), end

    rng = _RANGE_RE.match(text, end)
    if rng and rng.end() in by_start:
        word_link = rng.group("c").lower() in ("до", "по", "to", "and", "и")
        allowed = not word_link or opener is not None or (rng.group("c").lower() == "to" and unit is None)
        if rng.group("c").lower() in ("and", "и") and opener not in ("между", "between"):
            allowed = False
        if rng.group("c") == "—" and unit is not None and opener is None and re.match(r"\s+—\s", text[end:]):
            allowed = False  # "четырёх тысяч рублей — 4 200 ₽": a spaced dash after an amount restates it
        if allowed:
            other = atoms[by_start[rng.end()]]
            sign_high = -1.0 if (rng.group("sign") or "").strip().lower() in ("-", "−", "минус") else 1.0
            mult_high, unit_high, per_high, end_high = _suffix(text, other.end)
            if unit is None or unit_high is None or UNIT_INFO[unit][0] == UNIT_INFO[unit_high][0]:
                if unit is None and multiplier == 1.0:
                    multiplier = mult_high
                    if atom.word and other.word and mult_high == 1.0 and atom.value < 1000 <= other.value:
                        # "от трёх до пяти тысяч": the spelled high end carries the multiplier of both
                        scale = 1000.0 ** math.floor(math.log10(other.value) / 3)
                        if other.value / 20 <= atom.value * scale <= other.value:
                            multiplier = scale
                    value = sign * atom.value * multiplier
                range_start = start
                if opener is not None:
                    range_start = _PREFIX_RE.search(text, max(0, start - 30), start).start()
                    bound = None
                high = sign_high * other.value * mult_high
                unit_out, per_out = (unit_high, per_high) if unit_high else (unit, per)
                if unit_high and unit and unit != unit_high:  # "от 1 года до 18 месяцев": express in the second unit
                    value = value * UNIT_INFO[unit][2] / UNIT_INFO[unit_high][2]
                return _build(text, range_start, end_high, value, unit_out, per_out, approx=approx, bound=bound,
                              kind="range", high=high), end_high

    if atom.word and unit is None and multiplier == 1.0 and atom.value == 1.0:
        return None, end  # a bare "один"/"one" is an article far more often than an amount
    return _build(text, start, end, value, unit, per, approx=approx, bound=bound), end


def extract_quantities(text: str, lang: str | None = None) -> list[Quantity]:
    """All quantities in ``text``, in order of appearance.

    ``lang`` ("ru" or "en") decides what "1,150" means (1.15 in Russian, 1150 in English); by default it
    is guessed from the letters of ``text``. Raises ``InputError`` for another language code.
    """
    if not isinstance(text, str):
        raise InputError("extract_quantities needs a string", value=text, hint="pass the answer or context text")
    if lang is not None and lang not in ("ru", "en"):
        raise InputError("unsupported language for number extraction", value=lang, hint='use "ru", "en" or None')
    return list(_quantities(text, lang))


@lru_cache(maxsize=8192)
def _quantities(text: str, lang: str | None) -> tuple[Quantity, ...]:
    """:func:`extract_quantities`, cached per text: the rules read one context many times (once per claim and
    rule), and a ``Quantity`` is frozen, so the callers share it."""
    if lang is None:
        lang = detect_lang(text)
    if not text:
        return ()
    found = [_with_prefix(Quantity(sp.value, text[sp.start:sp.end], sp.start, sp.end, sp.unit, sp.dimension,
                                   kind=sp.kind), text) for sp in find_specials(text, lang)]
    spans = [(q.start, q.end) for q in found]
    atoms = [a for a in find_atoms(text, lang) if not any(s < a.end and a.start < e for s, e in spans)]
    by_start = {a.start: k for k, a in enumerate(atoms)}
    cursor = 0
    for k, atom in enumerate(atoms):
        if atom.start < cursor:
            continue
        quantity, cursor = _parse_at(text, atoms, k, by_start)
        if quantity is not None:
            found.append(quantity)
    found.sort(key=lambda q: q.start)
    return tuple(_merge_kopecks(found, text))


_KOPECKS = re.compile(r"\s*(?:коп(?:еек|ейки|ейка|ейку|ейкой)?\b\.?)", re.IGNORECASE)


def _merge_kopecks(found: list[Quantity], text: str) -> list[Quantity]:
    """"52 рубля 70 копеек" is one amount, 52.70 руб. (else "70" would be a stray bare number)."""
    out: list[Quantity] = []
    i = 0
    while i < len(found):
        q = found[i]
        nxt = found[i + 1] if i + 1 < len(found) else None
        if (nxt is not None and q.unit == "rub" and q.kind == "number" and nxt.unit is None and nxt.kind == "number"
                and not text[q.end:nxt.start].strip(" \u00a0") and nxt.value == int(nxt.value) and 0 <= nxt.value < 100):
            tail = _KOPECKS.match(text, nxt.end)
            if tail is not None:
                end = tail.end()
                out.append(Quantity(q.value + nxt.value / 100, text[q.start:end], q.start, end, q.unit, q.dimension,
                                    q.qualifier, q.approx, q.bound))
                i += 2
                continue
        out.append(q)
        i += 1
    return out
