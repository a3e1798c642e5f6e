"""Number and unit consistency between a claim and its evidence: the offline judge's sharpest feature.

    >>> compare_quantities("Гарантия 3 года", "Гарантийный срок 36 месяцев").status
    'consistent'
    >>> check = compare_quantities("Выручка 52 млрд рублей", "Выручка составила 52,7 млрд рублей")
    >>> check.status, check.reason
    ('contradicted', 'number "52 млрд рублей" not in context; context says "52,7 млрд рублей" (rounded)')

Each claim quantity (references such as "п. 4.2" excluded) is paired with its best evidence quantity:
  * matched     - same dimension, base unit and qualifier, equal value after exact conversion
                  ("3 года" = "36 месяцев"); an approximate claim ("около 53") may round its counterpart;
                  a single value inside an evidence range matches it ("50 мм" in "40-60 мм").
  * mismatched  - a counterpart in the same role with another value, sign, working/calendar qualifier,
                  unit, rate, opposite bound or percentage base ("10% от оклада" vs "10% от суммы").
                  Same role = comparable (same dimension, or a bare number) *and* near the same words:
                  at least ``SAME_ROLE_MIN`` of the claim's words around the number are also around the counterpart (any share when the claim has no such words).
                  "3 рабочих дня после аванса" (start of works) vs "аванс в течение 5 банковских дней"
                  (payment term) share one word of six: not the same role.
  * missing     - nothing comparable in the evidence, or only counterparts in another role (the
                  reason then says "not in context", never "context says ...").
A bare whole number 1900..2100 compared with a date is a year ("Финансовые результаты 2024:" = "в 2024 году").
Status: "no_numbers" if the claim has none, else "contradicted" if any is mismatched, else "unsupported"
if any is missing, else "consistent". Reasons are in English and quote the surface forms.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from ...errors import InputError
from .quantities import Quantity, extract_quantities

__all__ = ["FEATURE_NAMES", "SAME_ROLE_MIN", "NumberCheck", "QuantityMatch", "compare_quantities", "quantity_features"]

MATCH_RELATIONS = ("equal", "converted", "within_range", "rounded")
MISMATCH_RELATIONS = ("sign", "qualifier", "unit", "bound", "magnitude", "rounding", "value", "range", "date", "grade",
                      "base")


@dataclass(frozen=True, slots=True)
class QuantityMatch:
    """One claim quantity and what the evidence says about it."""

    claim: Quantity
    evidence: Quantity | None  # the counterpart; None when missing
    relation: str  # one of MATCH_RELATIONS, MISMATCH_RELATIONS or "missing"
    evidence_index: int | None = None  # which evidence text the counterpart came from
    overlap: float = 0.0  # share of the claim's nearby words found near the counterpart
    rel_error: float = 0.0  # |claim - evidence| / |evidence| in base units, capped at 1
    notes: tuple[str, ...] = ()  # looser matches: "qualifier_dropped", "bound_dropped", "rate_dropped", "unit_dropped"
    reason: str = ""

    @property
    def outcome(self) -> str:
        """"matched", "mismatched" or "missing"."""
        if self.relation in MATCH_RELATIONS:
            return "matched"
        return "missing" if self.relation == "missing" else "mismatched"


@dataclass(frozen=True, slots=True)
class NumberCheck:
    """Result of ``compare_quantities``: a status, the pairs behind it and a one-line reason."""

    status: str  # "consistent" | "contradicted" | "unsupported" | "no_numbers"
    matched: tuple[tuple[Quantity, Quantity], ...]
    mismatched: tuple[tuple[Quantity, Quantity], ...]
    missing: tuple[Quantity, ...]
    items: tuple[QuantityMatch, ...]  # one per compared claim quantity, in claim order
    reason: str
    n_evidence_numbers: int = 0


_WORD_RE = re.compile(r"[^\W\d_]{3,}")
_STOP = frozenset(
    "и или не на по до от за для при что как это его она они был была было быть также который которые "
    "составляет составит составляют срок the and for with that this are was were from have has will not of "
    "in on to is be by at as an or "
    # time prepositions: "после", "в течение", "не позднее" surround terms of any role
    "после течение через позднее ранее after within before than until "
    # the verb of a figure and the word of a year surround numbers of every role ("выручка в 2024 году составила")
    "составил составила составило составили составлял составляла составляло составляли составит составят "
    "году годах годы".split()
)
SAME_ROLE_MIN = 0.3  # share of the claim's words near a number that a contradicting counterpart must share (1 of 4 is too few)
_APPROX_TOLERANCE = 0.05  # "около 50 м" accepts 47.5 .. 52.5 m besides plain rounding
_BOUND_WORDS = {"min": "at least", "max": "at most"}
_QUALIFIER_WORDS = {"working": "working", "calendar": "calendar"}


_SENTENCE_END_RE = re.compile(r"[.!?;]\s+(?=[A-ZА-ЯЁ\d])|\n")


def _stems(text: str, start: int, end: int) -> frozenset[str]:
    """Crude stems (first 5 letters) of the words around a quantity in its sentence: 6 before, 3 after."""
    left = text[max(0, start - 60):start]
    cuts = list(_SENTENCE_END_RE.finditer(left))
    if cuts:
        left = left[cuts[-1].end():]
    right = text[end:end + 40]
    cut = _SENTENCE_END_RE.search(right)
    if cut:
        right = right[:cut.start()]
    words = _WORD_RE.findall(left)[-6:] + _WORD_RE.findall(right)[:3]
    return frozenset(w.lower()[:5] for w in words if w.lower() not in _STOP)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _ulp(x: float) -> float:
    """Unit in the last written place: 52 -> 1, 52.7 -> 0.1, 53e9 -> 1e9, 50 000 -> 10 000, 10 -> 1.

    Trailing zeros of whole numbers under 10 000 count as exact ("10 дней" is not "about ten").
    """
    if x == 0 or not math.isfinite(x):
        return 1.0
    exponent = int(Decimal(repr(abs(x))).normalize().as_tuple().exponent)
    if exponent > 0 and abs(x) < 10_000:
        return 1.0
    return 10.0 ** exponent


def _is_rounding(claim: float, evidence: float) -> bool:
    """Claim is the evidence rounded or truncated at the claim's last written digit (52 <- 52.7)."""
    if _close(claim, evidence) or (claim < 0) != (evidence < 0):
        return False
    ulp = _ulp(claim)
    a, e = abs(claim), abs(evidence)
    return abs(a - e) <= ulp / 2 + 1e-12 * e or _close(math.floor(e / ulp + 1e-9) * ulp, a)


def _split(q: Quantity) -> tuple[str | None, str | None, str | None]:
    """(base unit of the numerator, rate denominator, working/calendar qualifier)."""
    base = q.base_unit
    if base is None:
        return None, None, None
    head, _, per = base.partition("/")
    qualifier = q.qualifier if q.qualifier in _QUALIFIER_WORDS else None
    return head, per or None, qualifier


def _as_year(q: Quantity, other: Quantity) -> Quantity:
    """A bare whole number 1900..2100 read as a year when compared with a date ("Финансовые результаты
    2024:" against "в 2024 году"); any other quantity unchanged."""
    if (other.kind == "date" and q.kind == "number" and q.unit is None and q.high is None and not q.approx
            and 1900 <= q.value <= 2100 and q.value == int(q.value)):
        return Quantity(q.value * 10000, q.raw, q.start, q.end, "date", "date", kind="date")
    return q


def _relate(c: Quantity, e: Quantity, overlap: float) -> tuple[str, tuple[str, ...]] | None:
    """How evidence quantity ``e`` bears on claim quantity ``c``; None if not comparable."""
    c, e = _as_year(c, e), _as_year(e, c)
    if c.kind in ("date", "grade", "clock", "ordinal") or e.kind in ("date", "grade", "clock", "ordinal"):
        if c.kind != e.kind or (c.kind == "grade" and c.unit != e.unit):
            return None
        if c.kind == "date":
            parts = [(int(c.value) // d % m, int(e.value) // d % m) for d, m in ((10000, 10000), (100, 100), (1, 100))]
            same = all(a == b or 0 in (a, b) for a, b in parts)
            return ("equal", ()) if same else ("date", ())
        if _close(c.value, e.value):
            return "equal", ()
        return (c.kind if c.kind == "grade" else "value", ()) if c.kind != "ordinal" or overlap > 0 else None

    notes: list[str] = []
    weak = c.unit is None or e.unit is None
    if weak:
        c_lo, c_hi, e_lo, e_hi = c.value, c.high, e.value, e.high
        if c.unit is not None or e.unit is not None:
            notes.append("unit_dropped")
    else:
        if c.dimension != e.dimension:
            return None
        (c_head, c_per, c_q), (e_head, e_per, e_q) = _split(c), _split(e)
        if c_head != e_head or (c_per and e_per and c_per != e_per):
            return "unit", ()
        if c_per != e_per:
            notes.append("rate_dropped")
        if c_q != e_q:
            if c_q and e_q:
                same_value = _close(c.base_value, e.base_value)
                return ("qualifier" if same_value else "value"), ()
            notes.append("qualifier_dropped")
        c_lo, c_hi, e_lo, e_hi = c.base_value, c.base_high, e.base_value, e.base_high

    if c.bound != e.bound and None not in (c.bound, e.bound) and _close(c_lo, e_lo):
        return "bound", ()
    if c.bound != e.bound:
        notes.append("bound_dropped")
    converted = not weak and c.unit != e.unit
    if c_hi is not None or e_hi is not None:
        if c_hi is not None and e_hi is not None:
            if _close(c_lo, e_lo) and _close(c_hi, e_hi):
                return ("converted" if converted else "equal"), tuple(notes)
        elif e_hi is not None and min(e_lo, e_hi) - 1e-12 <= c_lo <= max(e_lo, e_hi) + 1e-12:
            return "within_range", tuple(notes)
        return (("range", ()) if not weak or overlap > 0 else None)
    if _close(c_lo, e_lo):
        return ("converted" if converted else "equal"), tuple(notes)
    claim_scaled = c_lo / (c.factor if not weak else 1.0)
    evidence_scaled = e_lo / (c.factor if not weak else 1.0)
    rounded = _is_rounding(claim_scaled, evidence_scaled) or (e.approx and _is_rounding(evidence_scaled, claim_scaled))
    near = abs(claim_scaled - evidence_scaled) <= _APPROX_TOLERANCE * abs(evidence_scaled)
    if (rounded or near) and (c.approx or e.approx):
        return "rounded", (*notes, "approx")
    if weak and overlap == 0:
        return None  # two bare numbers about different things
    if rounded:
        return "rounding", ()
    if not weak and c.unit != e.unit and _close(c.value, e.value):
        return "unit", ()  # "3 года" vs "3 месяца"
    if c_lo != 0 and _close(c_lo, -e_lo):
        return "sign", ()
    if c_lo and e_lo and (c_lo > 0) == (e_lo > 0):
        ratio = math.log10(abs(c_lo / e_lo))
        if abs(ratio) >= 2.9 and _close(ratio / 3, round(ratio / 3)):
            return "magnitude", ()
    return "value", ()


_MATCH_RANK = {name: i for i, name in enumerate(reversed(MATCH_RELATIONS))}
_MISMATCH_RANK = {name: i for i, name in enumerate(reversed(MISMATCH_RELATIONS))}


_BASE_RE = re.compile(r"\s*(?:от|of(?:\s+(?:the|all|its|their|your|our|his|her|my|this|that|each|every))?)\s+([^\W\d_]+)(?:['’]s)?(?:\s+([^\W\d_]+)(?:['’]s)?)?"
                      r"(?:\s+([^\W\d_]+))?", re.IGNORECASE)


def _base_stems(q: Quantity, text: str) -> frozenset[str]:
    """Stems of the base of a percentage (up to three words): "10% от оклада" -> {"окла"}, "5% от цены договора"
    -> {"цен", "догов"}, "13% of the nation's college students" -> {"nati", "colle", "stude"}."""
    m = _BASE_RE.match(text, q.end) if q.unit == "percent" else None
    if m is None:
        return frozenset()
    words = [w.lower() for w in m.groups() if w and w.lower() not in _STOP]
    return frozenset(w[:-2] if len(w) > 5 else w[:-1] if len(w) > 3 else w for w in words)


def _reason(c: Quantity, e: Quantity | None, relation: str) -> str:
    if e is None:
        return f'number "{c.raw}" not in context'
    if relation in ("value", "rounding"):
        tail = " (rounded)" if relation == "rounding" else ""
        return f'number "{c.raw}" not in context; context says "{e.raw}"{tail}'
    if relation in ("date", "grade"):
        return f'{relation} "{c.raw}" not in context; context says "{e.raw}"'
    detail = {
        "sign": "sign differs",
        "magnitude": "order of magnitude differs",
        "range": "range differs",
        "qualifier": f"{c.qualifier} vs {e.qualifier} days",
        "unit": f"unit differs ({c.unit} vs {e.unit})",
        "bound": f"{_BOUND_WORDS.get(c.bound or '', 'exact')} vs {_BOUND_WORDS.get(e.bound or '', 'exact')}",
        "base": "percentage of another base",
    }[relation]
    return f'"{c.raw}" vs context "{e.raw}": {detail}'


def _as_texts(evidence: str | Sequence[str]) -> list[str]:
    texts = [evidence] if isinstance(evidence, str) else list(evidence)
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise InputError("evidence must be a string or a sequence of strings", field=f"evidence[{i}]", value=text)
    return texts


@lru_cache(maxsize=4096)
def _text_pool(text: str, lang: str | None) -> tuple[tuple[Quantity, frozenset[str]], ...]:
    """The comparable quantities of one text with their nearby stems (cached: contexts repeat)."""
    return tuple((q, _stems(text, q.start, q.end)) for q in extract_quantities(text, lang) if q.kind != "ref")


def _scripts(words: frozenset[str]) -> frozenset[bool]:
    """Which scripts the words are in (True: Cyrillic)."""
    return frozenset(any("\u0400" <= ch <= "\u04ff" for ch in w) for w in words)


def _best_counterpart(c: Quantity, words: frozenset[str], pool) -> tuple | None:
    """The best match of ``c`` in ``pool``, else its best same-role mismatch, else None.

    The role test needs words to compare: it is skipped when the claim has none near the number or
    when claim and evidence words share no script (a Russian claim against English evidence).

    Tried and not kept (docs/offline-judge.md): letting a close same-role mismatch beat an equal number
    of another role flipped 13 claims of the Russian dev split, 6 of them faithful."""
    best: tuple | None = None
    scripts = _scripts(words)
    for i, e, e_words in pool:
        overlap = len(words & e_words) / len(words) if words else 0.0
        related = _relate(c, e, overlap)
        if related is None:
            continue
        relation, notes = related
        if (relation not in MATCH_RELATIONS and words and overlap < SAME_ROLE_MIN
                and scripts & _scripts(e_words)):
            continue  # another role: "3 дня до начала работ" is not contradicted by "аванс за 5 дней"
        strong = c.unit is not None and e.unit is not None
        if relation in MATCH_RELATIONS:
            key = (2, _MATCH_RANK[relation], strong, overlap, -len(notes))
        else:
            key = (1, strong, overlap, -len(notes), _MISMATCH_RANK[relation])
        if best is None or key > best[0]:
            best = (key, i, e, relation, notes, overlap)
    return best


def compare_quantities(claim: str, evidence: str | Sequence[str], *, lang: str | None = None,
                       evidence_lang: str | None = None, background: Sequence[str] | None = None) -> NumberCheck:
    """Check every quantity of ``claim`` against the quantities of ``evidence`` (one text or several).

    ``lang`` is the claim's language and ``evidence_lang`` the evidence's ("ru"/"en"); each defaults to
    a guess per text, so a Russian answer can be checked against English evidence.

    ``background``: the whole contexts the evidence windows were cut from. A claim quantity with no
    counterpart in ``evidence`` that *matches* a quantity anywhere in the background (a date in a
    header, "Прайс-лист (ред. от 01.03.2026)") counts as matched, not missing; the background never
    creates a contradiction (that needs a same-role counterpart in the evidence).

        >>> compare_quantities("Цены действуют с 01.03.2026", "Укладка плитки 1 150 руб./м²",
        ...                    background=["Прайс-лист (ред. от 01.03.2026). Укладка плитки 1 150 руб./м²"]).status
        'consistent'
    """
    if not isinstance(claim, str):
        raise InputError("claim must be a string", field="claim", value=claim)
    texts = _as_texts(evidence)
    claim_qs = [q for q in extract_quantities(claim, lang) if q.kind != "ref"]
    pool = [(i, q, stems) for i, text in enumerate(texts) for q, stems in _text_pool(text, evidence_lang)]
    back_pool = None
    items = []
    for c in claim_qs:
        words = _stems(claim, c.start, c.end)
        best = _best_counterpart(c, words, pool)
        if best is None and background:
            if back_pool is None:
                back_pool = [(None, q, stems) for text in _as_texts(list(background))
                             for q, stems in _text_pool(text, evidence_lang)]
            found = _best_counterpart(c, words, back_pool)
            if found is not None and found[3] in MATCH_RELATIONS:
                _, _, e, relation, notes, overlap = found
                items.append(QuantityMatch(c, e, relation, None, overlap, 0.0, (*notes, "elsewhere")))
                continue
        if best is None:
            items.append(QuantityMatch(c, None, "missing", reason=_reason(c, None, "missing")))
            continue
        _, i, e, relation, notes, overlap = best
        if relation in MATCH_RELATIONS and c.unit == "percent" == e.unit:
            c_base, e_base = _base_stems(c, claim), _base_stems(e, texts[i])
            if c_base and e_base and (not c_base & e_base or (c_base - e_base and e_base - c_base)):
                # "10% от суммы сделки" vs "10% от оклада"; "1% от суммы перевода" vs "1% от суммы остатка" (each
                # base names what the other lacks; "от суммы" vs "от неоплаченной суммы" only narrows it)
                relation = "base"
        scale = abs(e.base_value) if e.unit and c.unit else abs(e.value)
        diff = abs((c.base_value if c.unit and e.unit else c.value) - (e.base_value if c.unit and e.unit else e.value))
        rel_error = 0.0 if relation in MATCH_RELATIONS else min(1.0, diff / scale) if scale else 1.0
        reason = "" if relation in MATCH_RELATIONS else _reason(c, e, relation)
        if relation == "base":
            of_c, of_e = _BASE_RE.match(claim, c.end).group().strip(), _BASE_RE.match(texts[i], e.end).group().strip()
            reason = f'"{c.raw} {of_c}" vs context "{e.raw} {of_e}": percentage of another base'
        items.append(QuantityMatch(c, e, relation, i, overlap, rel_error, notes, reason))

    matched = tuple((m.claim, m.evidence) for m in items if m.outcome == "matched")
    mismatched = tuple((m.claim, m.evidence) for m in items if m.outcome == "mismatched")
    missing = tuple(m.claim for m in items if m.outcome == "missing")
    if not items:
        status, reason = "no_numbers", "claim has no numbers"
    else:
        status = "contradicted" if mismatched else "unsupported" if missing else "consistent"
        problems = [m.reason for m in items if m.outcome == "mismatched"] + [
            m.reason for m in items if m.outcome == "missing"]
        if problems:
            reason = "; ".join(problems[:3]) + (f" (+{len(problems) - 3} more)" if len(problems) > 3 else "")
        else:
            reason = f"all {len(items)} numbers match the context" if len(items) > 1 else "the number matches the context"
    return NumberCheck(status, matched, mismatched, missing, tuple(items), reason, len(pool))


FEATURE_NAMES: tuple[str, ...] = (
    "has_numbers",  # 1 if the claim has at least one comparable quantity
    "n_numbers",  # how many claim quantities were compared (references excluded)
    "log_evidence_numbers",  # log(1 + quantities in the evidence)
    "share_matched",  # matched / n_numbers (0 when no numbers)
    "share_contradicted",  # mismatched / n_numbers
    "share_missing",  # missing / n_numbers
    "any_sign_flip",  # +5 °C vs -5 °C
    "any_qualifier_mismatch",  # working vs calendar days
    "any_unit_mismatch",  # years vs days, roubles vs dollars, per m2 vs per m3
    "any_magnitude_mismatch",  # million vs billion (a factor 10^3k)
    "any_bound_mismatch",  # at least vs at most with the same value
    "any_date_mismatch",  # a date or a concrete/steel grade differs
    "any_rounding",  # a claim value is its counterpart rounded or truncated (matched if approximate)
    "share_loose",  # matched pairs that dropped a qualifier, bound, rate or unit, or sit inside a range
    "mean_overlap",  # mean share of claim words near a quantity also near its counterpart (paired ones)
    "max_rel_error",  # largest |claim - evidence| / |evidence| among mismatched pairs, capped at 1
)


def quantity_features(check: NumberCheck) -> dict[str, float]:
    """Fixed-length numeric features of a ``NumberCheck`` for the verifier, keyed by ``FEATURE_NAMES``."""
    items = check.items
    n = len(items)
    relations = {m.relation for m in items}
    paired = [m for m in items if m.evidence is not None]
    matched = [m for m in items if m.outcome == "matched"]
    loose = [m for m in matched if m.relation == "within_range" or set(m.notes) - {"approx"}]
    values = {
        "has_numbers": float(n > 0),
        "n_numbers": float(n),
        "log_evidence_numbers": math.log1p(check.n_evidence_numbers),
        "share_matched": len(check.matched) / n if n else 0.0,
        "share_contradicted": len(check.mismatched) / n if n else 0.0,
        "share_missing": len(check.missing) / n if n else 0.0,
        "any_sign_flip": float("sign" in relations),
        "any_qualifier_mismatch": float("qualifier" in relations),
        "any_unit_mismatch": float("unit" in relations),
        "any_magnitude_mismatch": float("magnitude" in relations),
        "any_bound_mismatch": float("bound" in relations),
        "any_date_mismatch": float(bool(relations & {"date", "grade"})),
        "any_rounding": float(bool(relations & {"rounding", "rounded"})),
        "share_loose": len(loose) / n if n else 0.0,
        "mean_overlap": sum(m.overlap for m in paired) / len(paired) if paired else 0.0,
        "max_rel_error": max((m.rel_error for m in items if m.outcome == "mismatched"), default=0.0),
    }
    return {name: values[name] for name in FEATURE_NAMES}
