"""English question templates, the same functions as :mod:`templates_ru` (no morphology needed)."""

from __future__ import annotations

import re

from ragauge.generate.questions.candidate import fmt_number
from ragauge.generate.questions.facts import Fact
from ragauge.generate.questions.table_en import amount, is_people, row_name, scope, table_value, unit_phrase
from ragauge.generate.questions.table_en import lower_first as _lower_first

LANG = "en"
MEASURE_UNITS = ("m2", "m²", "m3", "m³", "m", "sq ft", "ft", "lin. m", "sq m")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _item(fact: Fact) -> str:
    """A table row as a question names it (:func:`.table_en.row_name`); a sentence's own subject, with the article it
    was written with ("Breakfast costs $18")."""
    return row_name(fact) if fact.kind == "table" else _lower_first(fact.subject)


def date_label(chunk) -> str:
    if chunk.date:
        y, m, d = chunk.date.split("-")
        return f"of {_MONTHS[int(m) - 1]} {int(d)}, {y}"
    if chunk.version:
        return f"version {chunk.version}"
    return ""


def doc_head(title: str) -> str:
    title = re.sub(r"\(.*?\)|,?\s*(?:version|v\d|rev|dated|effective|as of|updated)\b.*$", "", title,
                   flags=re.IGNORECASE).strip()
    title = re.sub(r"^(?:the|a|an)\s+", "", title, flags=re.IGNORECASE)  # the caller writes "the ..."
    return _lower_first(title) or "document"


def old_edition(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    label = date_label(fact.chunk)
    if not label:
        return None
    return (f"How much did {_item(fact)} cost in the {doc_head(doc_title)} {label}?", amount(fact),
            "version_old_price")


def current_edition(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    return (f"How much does {_item(fact)} cost in the current {doc_head(doc_title)}?", amount(fact),
            "version_current_price")


def version_change(old: Fact, new: Fact, doc_title: str) -> tuple[str, str, str] | None:
    a, b, label = old.number, new.number, date_label(old.chunk)
    if a is None or b is None or not label:
        return None
    diff = b - a
    trend = "unchanged" if diff == 0 else ("up" if diff > 0 else "down")
    ref = f"{trend.capitalize()}: {amount(old)} before, {amount(new)} now"
    return (f"How has the price of {_item(new)} changed since the {doc_head(doc_title)} {label}?", ref,
            "version_change")


def old_value(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    label = date_label(fact.chunk)
    subj = _item(fact)
    if not label or "," in subj:
        return None
    verb = "were" if fact.verb == "are" else "was"
    return (f"What {verb} {subj} in the {doc_head(doc_title)} {label}?", fact.value, "version_old_value")


def _priced_rows(a: Fact, b: Fact) -> bool:
    """Two rows whose prices can be set side by side: both are things (not groups of people) with numbers."""
    return a.number is not None and b.number is not None and not is_people(a) and not is_people(b)


def compare(a: Fact, b: Fact) -> tuple[str, str, str] | None:
    """"Which costs more per month: the Flex plan or the Resident plan?" (the column's scope after "more")."""
    x, y = a.number, b.number
    if not _priced_rows(a, b) or x == y:
        return None
    hi, lo = (a, b) if x > y else (b, a)
    return (f"Which costs more{scope(a)}: {_item(a)} or {_item(b)}?",
            f"{_item(hi)[:1].upper() + _item(hi)[1:]} costs more: {amount(hi)} vs {amount(lo)}", "compare_prices")


def difference(a: Fact, b: Fact) -> tuple[str, str, str] | None:
    x, y = a.number, b.number
    if not _priced_rows(a, b) or x <= y:
        return None
    return (f"How much more does {_item(a)} cost than {_item(b)}{scope(a)}?",
            f"{amount(a, x - y)} more ({amount(a)} vs {amount(b)})", "price_difference")


def total(a: Fact, b: Fact) -> tuple[str, str, str] | None:
    x, y = a.number, b.number
    if not _priced_rows(a, b):
        return None
    q = f"What do {_item(a)} and {_item(b)} cost together {unit_phrase(a)}{scope(a)}?".replace("  ", " ")
    return (q.replace(" ?", "?"), f"{fmt_number(x, LANG)} + {fmt_number(y, LANG)} = {amount(a, x + y)}", "sum_prices")


def quantity(fact: Fact, qty: int) -> tuple[str, str, str] | None:
    x = fact.number
    if fact.unit not in MEASURE_UNITS or x is None:
        return None
    cost = amount(Fact(fact.kind, fact.chunk, fact.lang, fact.subject, "", currency=fact.currency), x * qty)
    return (f"How much will {qty} {fact.unit} of {_item(fact)} cost?", f"{qty} × {fmt_number(x, LANG)} = {cost}",
            "quantity_cost")


def value(fact: Fact) -> tuple[str, str, str] | None:
    subj = _item(fact)
    if "," in subj:
        return None
    if fact.verb in ("costs", "cost"):
        does = "do" if fact.verb == "cost" else "does"  # "Extra user accounts cost $15" -> "How much do …"
        return (f"How much {does} {subj} cost?", fact.value, "fact_cost")
    verb = "are" if fact.verb == "are" else "is"
    if not _DETERMINER.match(subj):  # "Late payment penalty is 0.05%" -> "What is the late payment penalty?"
        subj = f"the {subj}"
    return (f"What {verb} {subj}?", fact.value, "fact_value")


_DETERMINER = re.compile(r"(?:the|a|an|our|your|its|their|this|that|these|those|each|every|any|no|all|\d)\b",
                         re.IGNORECASE)


def definition(fact: Fact) -> tuple[str, str, str] | None:
    if fact.verb == "abbr":
        return (f"What does {fact.subject} stand for?", fact.value, "abbreviation")
    subj = re.sub(r"^(?:an?|the)\s+", "", fact.subject.strip(), flags=re.IGNORECASE)
    article = "an" if subj[:1].lower() in "aeiou" else "a"
    return (f"What is {article} {_lower_first(subj)}?", fact.value, "definition")


def clause(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    if not fact.clause:
        return None
    body = re.sub(r"^\d+(?:\.\d+)+\.?\s+", "", fact.sentence)
    return (f"What does clause {fact.clause} of the {doc_head(doc_title)} say?", body, "clause")


def norm_reference(fact: Fact, doc_title: str) -> tuple[str, str, str] | None:
    if not fact.clause:
        return None
    return (f"Which law or standard does clause {fact.clause} of the {doc_head(doc_title)} refer to?", fact.value,
            "norm_reference")


__all__ = ["LANG", "MEASURE_UNITS", "amount", "clause", "compare", "current_edition", "date_label", "definition",
           "difference", "doc_head", "norm_reference", "old_edition", "old_value", "quantity", "table_value", "total",
           "unit_phrase", "value", "version_change"]
